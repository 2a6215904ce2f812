/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_send_wait_time: DOCA's accurate send scheduling sample. 8 bursts of 32 UDP frames of
 * 1 KiB, burst b leaving at T0 + b * INTERVAL, T0 50 ms after the start; the times are computed on
 * the host with doca_eth_txq_calculate_timestamp and the frames sent with wait_send by a 1 x 32
 * kernel (host threads without a GPU). The sample checks afterwards that the last completion did
 * not come before the last burst's time.
 *
 *   gpunetio_send_wait_time [-n DEV] [-g GPU_PCI] [-i IFACE] [-t INTERVAL_NS] [-m DST_MAC]
 *                           [-a DST_IPV4] [-v]
 * -t: nanoseconds between bursts (default 5000000); the other options as gpunetio_simple_send's.
 */
#include <getopt.h>
#include <stdio.h>
#include <time.h>

#include "device/ogda_dev_eth.h"
#include "doca_eth_txq.h"
#include "eth_sample.h"
#include "ex_cuda.h"
#include "opengda.h"
#include "sample_util.h"
#include "send_wait_time.h"

#define FRAME_LEN 1024u
#define SLOT 1024u
#define LEAD_NS 50000000ull

struct cfg {
	struct eth_sample_opts o;
	uint64_t interval_ns;
};

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int parse(int argc, char **argv, struct cfg *c)
{
	int o, r;

	c->interval_ns = 5000000;
	eth_sample_opts_default(&c->o);
	while ((o = getopt(argc, argv, ETH_SAMPLE_OPTSTRING "t:h")) != -1) {
		r = eth_sample_opt(o, optarg, &c->o);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (o != 't') {
			fprintf(stderr, "usage: gpunetio_send_wait_time [-n DEV] [-g GPU_PCI] [-i IFACE] [-t INTERVAL_NS] "
					"[-m DST_MAC] [-a DST_IPV4] [-v]\n");
			return -1;
		}
		if (sample_parse_u64("-t", optarg, 1000, 10000000000ull, 0, &c->interval_ns) != 0)
			return -1;
	}
	return 0;
}

struct host_sender {
	const struct swt_args *a;
	uint32_t tid;
};

/*
 * Completions asked for by the host threads: the last thread's send of every burst, and every
 * thread's last send. Threads post independently (thread scope), so the last thread's final send
 * may sit ahead of another thread's in the ring: only a NOTIFY at the end of every thread's
 * sequence tells that all of its frames left (CQEs come in ring order).
 */
#define HOST_NOTIFIES (SWT_BURSTS - 1u + SWT_THREADS)

/* One kernel thread's work on a host thread (thread scope, shared queue). */
static void *host_send(void *arg)
{
	const struct host_sender *s = arg;
	const struct swt_args *a = s->a;
	uint32_t b;

	for (b = 0; b < SWT_BURSTS; b++)
		ogda_dev_eth_op_wait_send(a->txq, a->wot[b], a->frames + (uint64_t)(b * SWT_THREADS + s->tid) * a->slot,
					  a->mkey_be, a->frame_len,
					  s->tid == SWT_THREADS - 1 || b == SWT_BURSTS - 1
						  ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY
						  : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE,
					  OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	return NULL;
}

static int send_host(const struct swt_args *a)
{
	struct host_sender s[SWT_THREADS];
	uint32_t i, done = 0;

	a->txq->qp.cq_sq.ogda_wait_timeout_ns = 30000000000ull;
	for (i = 0; i < SWT_THREADS; i++)
		s[i] = (struct host_sender){.a = a, .tid = i};
	if (eth_sample_run_threads(SWT_THREADS, host_send, s, sizeof(s[0])) != 0)
		return -1;
	*a->status = ogda_dev_eth_poll_completion(a->txq, HOST_NOTIFIES, 0, 1, OGDA_DEV_SHARE_GPU, &done);
	return 0;
}

int main(int argc, char **argv)
{
	const uint32_t total = SWT_BURSTS * SWT_THREADS;
	uint64_t t0, at[SWT_BURSTS], ns = 0, end;
	struct eth_sample s;
	struct swt_args a;
	struct cfg c;
	uint32_t b;
	int rc = 1;

	sample_set_prog("gpunetio_send_wait_time");
	if (parse(argc, argv, &c) != 0)
		return 2;
	if (eth_sample_open(&s, c.o.dev, c.o.gpu, c.o.iface) != 0 ||
	    eth_sample_frames(&s, total, FRAME_LEN, SLOT, &c.o.dst, "burst-frame") != 0 ||
	    eth_sample_txq(&s, 2 * total, 1, 0) != 0)
		goto out;
	a = (struct swt_args){.txq = s.h, .frames = (uint64_t)(uintptr_t)s.frames, .mkey_be = s.mkey_be,
			      .frame_len = FRAME_LEN, .slot = SLOT,
			      .status = s.on_gpu ? (int32_t *)s.status_dev : s.status_cpu};
	t0 = realtime_ns() + LEAD_NS;
	for (b = 0; b < SWT_BURSTS; b++) {
		at[b] = t0 + b * c.interval_ns;
		if (doca_eth_txq_calculate_timestamp(s.txq, at[b], &a.wot[b]) != DOCA_SUCCESS) {
			sample_err("doca_eth_txq_calculate_timestamp failed");
			goto out;
		}
	}
	if (s.on_gpu) {
		if (ex_cuda_begin() != 0 || swt_launch(&a) != 0) {
			sample_err("kernel launch failed: %s", ex_cuda_launch_error());
			goto out;
		}
		if (ex_cuda_end(60, &ns) != 0)
			goto out;
	} else if (send_host(&a) != 0) {
		goto out;
	}
	end = realtime_ns();
	if (*s.status_cpu != 0) {
		sample_err("the completions report an error (%d)", *s.status_cpu);
		goto out;
	}
	if (end < at[SWT_BURSTS - 1]) {
		sample_err("the last burst completed %llu ns before its time", (unsigned long long)(at[SWT_BURSTS - 1] - end));
		goto out;
	}
	eth_sample_port_stats(&s);
	printf("gpunetio_send_wait_time: %u bursts of %u frames, %llu ns apart; the last completed %.3f ms after its "
	       "time\n",
	       SWT_BURSTS, SWT_THREADS, (unsigned long long)c.interval_ns, (double)(end - at[SWT_BURSTS - 1]) / 1e6);
	rc = 0;
out:
	eth_sample_close(&s);
	return rc;
}
