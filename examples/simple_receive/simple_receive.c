/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_receive: DOCA's GPU receive sample. One cyclic receive queue (1024 packets of
 * 2048 bytes, in GPU memory on a GPU), DOCA Flow steering every IPv4 UDP packet into it, and a
 * receiver looping on doca_gpu_dev_eth_rxq_recv (a 1 x 32 kernel on a GPU, in the -s scope; a
 * host thread through the same C core otherwise) until -c packets arrived or -t seconds passed.
 * It prints "ready" once the queue and the rules are in place, then the packets and bytes it got
 * and how many carried a payload starting with "pkt ".
 *
 * -c PACKETS: stop after this many (default 0: only the time limit); -t SECONDS (default 10);
 * -s thread|warp|block; the other options as gpunetio_simple_send's (-n DEV, -g GPU_PCI, -i IFACE).
 * OpenGDA extensions, so tests reach what the SDK sample leaves to the NIC model: -S STRIDES makes
 * the queue striding (a multi-packet RQ of STRIDES strides per WQE, opengda_eth_rxq_set_striding);
 * -M enables the MCST queue whatever the GPU (the SDK sample does only below compute capability 9).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "device/ogda_dev_eth_rx.h"
#include "device/ogda_dev_eth_rx_mcst.h"
#include "eth_rx_sample.h"
#include "eth_sample.h"
#include "ex_cuda.h"
#include "sample_util.h"
#include "simple_receive.h"

#define RX_PKTS 1024u
#define RX_PKT_SIZE 2048u

struct cfg {
	struct eth_sample_opts o;
	uint64_t want, seconds;
	int scope;
	struct eth_rxq_sample_opts q;
};

static void usage(void)
{
	fprintf(stderr, "usage: gpunetio_simple_receive [-n DEV] [-g GPU_PCI] [-i IFACE] [-c PACKETS] [-t SECONDS] "
			"[-s thread|warp|block] [-S STRIDES] [-M] [-v]\n");
}

static int parse(int argc, char **argv, struct cfg *c)
{
	int o, r;

	*c = (struct cfg){.want = 0, .seconds = 10, .scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK,
			  .q = ETH_RXQ_SAMPLE_OPTS_DEFAULT};
	eth_sample_opts_default(&c->o);
	while ((o = getopt(argc, argv, ETH_SAMPLE_OPTSTRING "c:t:s:S:Mh")) != -1) {
		r = eth_sample_opt(o, optarg, &c->o);
		if (r != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		switch (o) {
		case 'c':
			if (sample_parse_u64("-c", optarg, 0, 1ull << 40, 0, &c->want) != 0)
				return -1;
			break;
		case 't':
			if (sample_parse_u64("-t", optarg, 1, 86400, 0, &c->seconds) != 0)
				return -1;
			break;
		case 's':
			if (strcmp(optarg, "thread") == 0)
				c->scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD;
			else if (strcmp(optarg, "warp") == 0)
				c->scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP;
			else if (strcmp(optarg, "block") == 0)
				c->scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK;
			else {
				sample_err("-s takes thread, warp or block, not '%s'", optarg);
				return -1;
			}
			break;
		case 'S': {
			uint64_t v = 0;

			/* powers of two only: opengda_eth_rxq_set_striding says why at start */
			if (sample_parse_u64("-S", optarg, 8, 65536, 0, &v) != 0)
				return -1;
			c->q.strides = (uint32_t)v;
			break;
		}
		case 'M':
			c->q.mcst = 1;
			break;
		default:
			usage();
			return -1;
		}
	}
	return 0;
}

static uint64_t mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec;
}

/*
 * The kernel's loop on a host thread (thread scope, MCST AUTO): the same C core the device API's
 * thread-scope receive is built on.
 */
static void *host_receiver(void *arg)
{
	const struct simple_receive_args *a = arg;
	static struct doca_gpu_dev_eth_rxq_attr attr[SR_MAX_PKTS];
	uint64_t first = 0;
	uint32_t num = 0, i;
	int rc;

	while (*a->exit_flag == 0 && (a->want == 0 || a->stats->packets < a->want)) {
		rc = ogda_dev_eth_rx_recv_mcst(a->rxq, SR_MAX_PKTS, SR_TIMEOUT_NS, &first, &num, attr,
					       DOCA_GPUNETIO_ETH_RX_ATTR_ALL, DOCA_GPUNETIO_ETH_MCST_AUTO);
		for (i = 0; i < num; i++) {
			const uint8_t *p = (const uint8_t *)(uintptr_t)ogda_dev_eth_rx_pkt_addr(a->rxq, first + i);

			a->stats->packets++;
			a->stats->bytes += attr[i].bytes;
			a->stats->tagged += simple_receive_tagged(p, attr[i].bytes) ? 1u : 0u;
		}
		if (rc != 0) {
			a->stats->status = rc;
			break;
		}
	}
	__atomic_store_n(&a->stats->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Waits for the receiver until it is done or the time is up, then asks it to stop. */
static int wait_receiver(const struct simple_receive_args *a, uint64_t seconds)
{
	uint64_t end = mono_s() + seconds;

	while (__atomic_load_n(&a->stats->done, __ATOMIC_ACQUIRE) == 0 && mono_s() < end) {
		struct timespec ts = {0, 2000000};

		nanosleep(&ts, NULL);
	}
	*a->exit_flag = 1;
	end = mono_s() + 5;
	while (__atomic_load_n(&a->stats->done, __ATOMIC_ACQUIRE) == 0 && mono_s() < end) {
		struct timespec ts = {0, 2000000};

		nanosleep(&ts, NULL);
	}
	if (__atomic_load_n(&a->stats->done, __ATOMIC_ACQUIRE) == 0) {
		sample_err("the receiver did not stop within 5 s of the exit flag");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *scopes[] = {"thread", "warp", "block"};
	struct simple_receive_stats *stats = NULL;
	struct simple_receive_args a;
	struct eth_rxq_sample q;
	struct eth_flow_sample f;
	struct eth_sample s;
	void *stats_dev = NULL, *flag_dev = NULL, *flag_cpu = NULL, *stats_cpu = NULL;
	const uint16_t qid = 0;
	pthread_t t;
	struct cfg c;
	uint64_t ns = 0;
	int rc = 1;

	sample_set_prog("gpunetio_simple_receive");
	memset(&q, 0, sizeof(q));
	memset(&f, 0, sizeof(f));
	if (parse(argc, argv, &c) != 0)
		return 2;
	if (eth_sample_open(&s, c.o.dev, c.o.gpu, c.o.iface) != 0)
		return 1;
	if (eth_rxq_sample_start_opts(&s, &q, RX_PKTS, RX_PKT_SIZE, qid, &c.q) != 0 || eth_flow_sample_start(&s, &f) != 0 ||
	    eth_flow_sample_class(&f, DOCA_FLOW_L4_META_UDP, &qid, 1) != 0 || eth_flow_sample_commit(&f) != 0)
		goto out;
	if (doca_gpu_mem_alloc(s.gpu, sizeof(*stats), 64, DOCA_GPU_MEM_TYPE_CPU_GPU, &stats_dev, &stats_cpu) !=
		    DOCA_SUCCESS ||
	    doca_gpu_mem_alloc(s.gpu, sizeof(uint32_t), 64, DOCA_GPU_MEM_TYPE_CPU_GPU, &flag_dev, &flag_cpu) !=
		    DOCA_SUCCESS) {
		sample_err("doca_gpu_mem_alloc (stats, exit flag) failed");
		goto out;
	}
	stats = stats_cpu;
	memset(stats, 0, sizeof(*stats));
	*(volatile uint32_t *)flag_cpu = 0;
	printf("gpunetio_simple_receive: ready: IPv4 UDP steered to queue %u (%s, %s scope, %s%s)\n", qid,
	       s.on_gpu ? "GPU kernel" : "host thread", s.on_gpu ? scopes[c.scope] : "thread",
	       c.q.strides != 0 ? "striding" : "cyclic", q.mcst ? ", MCST queue" : "");
	fflush(stdout);
	if (s.on_gpu) {
		a = (struct simple_receive_args){.rxq = q.h, .want = c.want, .exit_flag = flag_dev, .stats = stats_dev,
						 .scope = c.scope};
		if (ex_cuda_begin() != 0 || simple_receive_launch(&a) != 0) {
			sample_err("kernel launch failed: %s", ex_cuda_launch_error());
			goto out;
		}
		a.exit_flag = flag_cpu;
		a.stats = stats;
		if (wait_receiver(&a, c.seconds) != 0 || ex_cuda_end(10, &ns) != 0)
			goto out;
	} else {
		a = (struct simple_receive_args){.rxq = q.h, .want = c.want, .exit_flag = flag_cpu, .stats = stats,
						 .scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD};
		if (pthread_create(&t, NULL, host_receiver, &a) != 0) {
			sample_err("cannot start the receiver thread");
			goto out;
		}
		rc = wait_receiver(&a, c.seconds);
		pthread_join(t, NULL);
		if (rc != 0) {
			rc = 1;
			goto out;
		}
	}
	eth_sample_port_stats(&s);
	printf("gpunetio_simple_receive: %llu packets, %llu bytes, %llu with a \"pkt \" payload\n",
	       (unsigned long long)stats->packets, (unsigned long long)stats->bytes, (unsigned long long)stats->tagged);
	if (stats->status != 0) {
		sample_err("a receive failed (%d)", stats->status);
		rc = 1;
		goto out;
	}
	rc = c.want != 0 && stats->packets < c.want ? 1 : 0;
	if (rc != 0)
		sample_err("%llu packets of the %llu asked for arrived within %llu s", (unsigned long long)stats->packets,
			   (unsigned long long)c.want, (unsigned long long)c.seconds);
out:
	if (flag_dev != NULL)
		(void)doca_gpu_mem_free(s.gpu, flag_dev);
	if (stats_dev != NULL)
		(void)doca_gpu_mem_free(s.gpu, stats_dev);
	eth_flow_sample_close(&f);
	eth_rxq_sample_close(&s, &q);
	eth_sample_close(&s);
	return rc;
}
