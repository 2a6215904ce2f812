/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_send: DOCA's GPUNetIO simple send sample. A DOCA Ethernet send queue with its
 * data path on the GPU (L3/L4 checksum offload, completions polled by the sender), and UDP/IPv4
 * frames sent by every thread of a 2-block kernel in shared-queue mode. Without a usable GPU (or
 * in a build without nvcc) the same sends run on host threads through the device C core.
 *
 *   gpunetio_simple_send [-n DEV] [-g GPU_PCI] [-i IFACE] [-c FRAMES_PER_THREAD] [-s PAYLOAD]
 *                        [-m DST_MAC] [-a DST_IPV4] [-p] [-e] [-v]
 *
 * -n: the NIC (device name such as swnic0 or mlx5_0, or PCI address; default swnic0).
 * -g: the GPU's PCI address (default: the first GPU, if any).
 * -i: on the software NIC, the Linux interface its Ethernet port sends on (opengda_eth_port_attach;
 *     or OPENGDA_SWNIC_ETH_IFACE). -m / -a: destination MAC (default broadcast) and IPv4
 *     (default 192.168.1.2); the source is 192.168.1.1, UDP ports 1234 -> 5000.
 * -p: CPU proxy (a host thread rings the doorbell for the kernel).
 * -e: (OpenGDA's addition) every warp sends its frames as enhanced multi-packet sends of 32
 *     packets, one packet per thread (wqe_prepare_send_empw).
 * Exit status 0 when every frame completed.
 */
#include <getopt.h>
#include <stdio.h>

#include "device/ogda_dev_eth.h"
#include "eth_sample.h"
#include "ex_cuda.h"
#include "opengda.h"
#include "sample_util.h"
#include "simple_send.h"

#define BLOCKS 2u
#define THREADS_PER_BLOCK 32u
#define SLOT 2048u
#define HDR_LEN 42u

struct cfg {
	struct eth_sample_opts o;
	uint32_t per_thread, payload;
	int proxy, empw;
};

static void usage(void)
{
	fprintf(stderr, "usage: gpunetio_simple_send [-n DEV] [-g GPU_PCI] [-i IFACE] [-c FRAMES_PER_THREAD] "
			"[-s PAYLOAD] [-m DST_MAC] [-a DST_IPV4] [-p] [-e] [-v]\n");
}

static int parse(int argc, char **argv, struct cfg *c)
{
	uint64_t v;
	int o, r;

	*c = (struct cfg){.per_thread = 4, .payload = 64};
	eth_sample_opts_default(&c->o);
	while ((o = getopt(argc, argv, ETH_SAMPLE_OPTSTRING "c:s:peh")) != -1) {
		r = eth_sample_opt(o, optarg, &c->o);
		if (r != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		switch (o) {
		case 'c':
			if (sample_parse_u64("-c", optarg, 1, 128, 0, &v) != 0)
				return -1;
			c->per_thread = (uint32_t)v;
			break;
		case 's':
			if (sample_parse_u64("-s", optarg, 16, SLOT - HDR_LEN, 0, &v) != 0)
				return -1;
			c->payload = (uint32_t)v;
			break;
		case 'p': c->proxy = 1; break;
		case 'e': c->empw = 1; break;
		default: usage(); return -1;
		}
	}
	return 0;
}

struct host_sender {
	const struct simple_send_args *a;
	uint32_t tid;
	int bad; /* -e: a packet the device function refused */
};

/* A host thread doing what one kernel thread does (thread scope, shared queue). */
static void *host_send(void *arg)
{
	const struct host_sender *s = arg;
	const struct simple_send_args *a = s->a;
	uint32_t k;

	for (k = 0; k < a->per_thread; k++)
		ogda_dev_eth_op_send(a->txq, a->frames + (uint64_t)(s->tid * a->per_thread + k) * a->slot, a->mkey_be,
				     a->frame_len,
				     k == a->per_thread - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY
							    : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE,
				     OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	return NULL;
}

/* -e: a host thread doing what one kernel warp does (one eMPW WQE of 32 frames per round). */
static void *host_send_empw(void *arg)
{
	struct host_sender *s = arg;
	const struct simple_send_args *a = s->a;
	const uint32_t nbb = ogda_dev_eth_empw_wqebbs(SIMPLE_SEND_EMPW_FRAMES);
	uint32_t k, lane;

	for (k = 0; k < a->per_thread; k++) {
		uint64_t base = ogda_dev_eth_reserve(a->txq, nbb, OGDA_DEV_SHARE_GPU);

		for (lane = 0; lane < SIMPLE_SEND_EMPW_FRAMES; lane++) {
			uint32_t tid = s->tid * SIMPLE_SEND_EMPW_FRAMES + lane;

			if (ogda_dev_eth_wqe_empw(a->txq, ogda_dev_wqe_ptr(&a->txq->qp, base), base, SIMPLE_SEND_EMPW_FRAMES,
						  lane, a->frames + (uint64_t)(tid * a->per_thread + k) * a->slot,
						  a->mkey_be, a->frame_len,
						  k == a->per_thread - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY
									 : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE) != 0)
				s->bad = 1;
		}
		ogda_dev_eth_post(a->txq, base, nbb, OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	}
	return NULL;
}

static int send_host(const struct simple_send_args *a)
{
	struct host_sender s[BLOCKS * THREADS_PER_BLOCK];
	uint32_t i, done = 0, senders = a->empw ? a->threads / SIMPLE_SEND_EMPW_FRAMES : a->threads;
	int rc;

	/* Bound the completion wait (a host handle's device memory is host memory). */
	a->txq->qp.cq_sq.ogda_wait_timeout_ns = 10000000000ull;
	for (i = 0; i < senders; i++)
		s[i] = (struct host_sender){.a = a, .tid = i};
	if (eth_sample_run_threads(senders, a->empw ? host_send_empw : host_send, s, sizeof(s[0])) != 0)
		return -1;
	rc = ogda_dev_eth_poll_completion(a->txq, senders, 1, 1, OGDA_DEV_SHARE_GPU, &done);
	for (i = 0; i < senders; i++)
		if (s[i].bad)
			rc = -1;
	*a->status = rc;
	return 0;
}

int main(int argc, char **argv)
{
	struct eth_sample s;
	struct simple_send_args a;
	struct cfg c;
	uint32_t total = BLOCKS * THREADS_PER_BLOCK;
	uint64_t ns = 0;
	int rc = 1;

	sample_set_prog("gpunetio_simple_send");
	if (parse(argc, argv, &c) != 0)
		return 2;
	total *= c.per_thread;
	if (eth_sample_open(&s, c.o.dev, c.o.gpu, c.o.iface) != 0 ||
	    eth_sample_frames(&s, total, HDR_LEN + c.payload, SLOT, &c.o.dst, "frame") != 0 ||
	    eth_sample_txq(&s, total, 0, c.proxy) != 0)
		goto out;
	a = (struct simple_send_args){.txq = s.h, .frames = (uint64_t)(uintptr_t)s.frames, .mkey_be = s.mkey_be,
				      .frame_len = HDR_LEN + c.payload, .slot = SLOT, .per_thread = c.per_thread,
				      .threads = BLOCKS * THREADS_PER_BLOCK, .empw = (uint32_t)c.empw,
				      .status = s.on_gpu ? (int32_t *)s.status_dev : s.status_cpu};
	if (s.on_gpu) {
		if (ex_cuda_begin() != 0 || simple_send_launch(&a, BLOCKS, THREADS_PER_BLOCK) != 0) {
			sample_err("kernel launch failed: %s", ex_cuda_launch_error());
			goto out;
		}
		if (ex_cuda_end(30, &ns) != 0)
			goto out;
	} else if (send_host(&a) != 0) {
		goto out;
	}
	if (*s.status_cpu != 0) {
		sample_err("the completions report an error (%d)", *s.status_cpu);
		goto out;
	}
	eth_sample_port_stats(&s);
	printf("gpunetio_simple_send: %u frames of %u bytes sent and completed\n", total, HDR_LEN + c.payload);
	rc = 0;
out:
	eth_sample_close(&s);
	return rc;
}
