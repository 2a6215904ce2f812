/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_packet_processing: DOCA's GPU packet-processing application. UDP, TCP and ICMP each get
 * their own receive queues (-q per class for UDP and TCP, one for ICMP), DOCA Flow steers IPv4
 * traffic by protocol into them (a root CONTROL pipe over one BASIC pipe per class, RSS inside a
 * class), and persistent receivers classify every packet (UDP: DNS or other; TCP: SYN, FIN, HTTP
 * requests) and answer ICMP echo requests from the device path. Each queue's counts reach the CPU
 * through a semaphore (custom info, READY / FREE), which this program prints every second and at
 * the end. On a GPU the receivers are kernels (gpp_launch); otherwise host threads run the same
 * per-packet code through the C cores.
 *
 * -s: the HTTP server mode. TCP connection set-up and tear-down to port 80 go to CPU receive
 * queues, where a CPU thread answers them and steers each accepted connection to the HTTP queues
 * (gpp_tcp_cpu.h); their receivers hand every GET to a server (a warp per HTTP queue on a GPU)
 * through a semaphore, which answers with one of three pages (gpp_http.h).
 *
 * Options: -q QUEUES (1..4 per class, default 1), -t SECONDS (default 10), -s, and -n DEV,
 * -g GPU_PCI, -i IFACE as the other Ethernet samples.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "device/ogda_dev_eth.h"
#include "device/ogda_dev_eth_rx.h"
#include "device/ogda_dev_sem.h"
#include "doca_gpunetio_semaphore.h"
#include "eth_rx_sample.h"
#include "eth_sample.h"
#include "ex_cuda.h"
#include "gpp.h"
#include "gpp_http_host.h"
#include "gpp_tcp_cpu.h"
#include "sample_util.h"

#define NQ_MAX GPP_QUEUES_MAX

static const char *const class_name[] = {"UDP", "TCP", "ICMP", "HTTP"};

struct cfg {
	struct eth_sample_opts o;
	uint64_t nq, seconds;
	int http;
};

struct app {
	struct eth_sample s;
	struct eth_rxq_sample q[NQ_MAX];
	struct doca_gpu_semaphore *sem[NQ_MAX];
	struct eth_flow_sample flow;
	struct gpp_args a;
	struct gpp_stats seen[NQ_MAX];
	struct gpp_http_host http;
	struct gpp_tcp_cpu *cpu;
	void *flag_dev, *flag_cpu, *status_dev, *status_cpu;
	uint32_t nq_total;
};

static int parse(int argc, char **argv, struct cfg *c)
{
	int o, r;

	*c = (struct cfg){.nq = 1, .seconds = 10};
	eth_sample_opts_default(&c->o);
	while ((o = getopt(argc, argv, ETH_SAMPLE_OPTSTRING "q:t:sh")) != -1) {
		r = eth_sample_opt(o, optarg, &c->o);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (o == 'q' && sample_parse_u64("-q", optarg, 1, GPP_MAX_QUEUES, 0, &c->nq) == 0)
			continue;
		if (o == 't' && sample_parse_u64("-t", optarg, 1, 86400, 0, &c->seconds) == 0)
			continue;
		if (o == 's') {
			c->http = 1;
			continue;
		}
		fprintf(stderr, "usage: gpu_packet_processing [-n DEV] [-g GPU_PCI] [-i IFACE] [-q QUEUES] [-t SECONDS] [-s] [-v]\n");
		return -1;
	}
	return 0;
}

/* A semaphore of one item whose custom info is a struct gpp_stats, readable by the CPU. */
static int make_sem(struct app *p, uint32_t i)
{
	struct doca_gpu_semaphore *sem = NULL;

	if (doca_gpu_semaphore_create(p->s.gpu, &sem) != DOCA_SUCCESS)
		return -1;
	p->sem[i] = sem;
	if (doca_gpu_semaphore_set_memory_type(sem, DOCA_GPU_MEM_TYPE_CPU_GPU) != DOCA_SUCCESS ||
	    doca_gpu_semaphore_set_items_num(sem, 1) != DOCA_SUCCESS ||
	    doca_gpu_semaphore_set_custom_info(sem, sizeof(struct gpp_stats), DOCA_GPU_MEM_TYPE_CPU_GPU) != DOCA_SUCCESS ||
	    doca_gpu_semaphore_start(sem) != DOCA_SUCCESS ||
	    doca_gpu_semaphore_get_gpu_handle(sem, &p->a.q[i].sem) != DOCA_SUCCESS) {
		sample_err("semaphore %u could not be set up", i);
		return -1;
	}
	return 0;
}

/* Queue i's class and id: UDP [0, nq), TCP [nq, 2 nq), ICMP 2 nq, HTTP [2 nq + 1, 3 nq + 1). */
static uint32_t queue_class(uint32_t i, uint32_t nq, uint16_t *id)
{
	if (i < nq) {
		*id = (uint16_t)i;
		return GPP_UDP;
	}
	if (i < 2 * nq) {
		*id = (uint16_t)(GPP_MAX_QUEUES + i - nq);
		return GPP_TCP;
	}
	if (i == 2 * nq) {
		*id = GPP_ICMP_QUEUE_ID;
		return GPP_ICMP;
	}
	*id = (uint16_t)(GPP_HTTP_QUEUE_ID0 + i - 2 * nq - 1);
	return GPP_HTTP;
}

static int setup(struct app *p, const struct cfg *c)
{
	uint16_t ids[4][GPP_MAX_QUEUES], icmp = GPP_ICMP_QUEUE_ID, id = 0;
	uint32_t i, nq = (uint32_t)c->nq, cls;

	p->nq_total = (c->http ? 3 : 2) * nq + 1;
	p->a.nq = nq;
	for (i = 0; i < p->nq_total; i++) {
		cls = queue_class(i, nq, &id);
		if (cls != GPP_ICMP)
			ids[cls][cls == GPP_HTTP ? i - 2 * nq - 1 : i % nq] = id;
		if (eth_rxq_sample_start(&p->s, &p->q[i], GPP_PKTS, GPP_PKT_SIZE, id) != 0 || make_sem(p, i) != 0)
			return -1;
		p->a.q[i].rxq = p->q[i].h;
		p->a.q[i].cls = cls;
	}
	if (c->http && (gpp_http_setup(&p->s, nq, &p->a, &p->http) != 0 || gpp_tcp_cpu_create(&p->s, nq, &p->cpu) != 0))
		return -1;
	if (eth_flow_sample_start(&p->s, &p->flow) != 0 ||
	    eth_flow_sample_class(&p->flow, DOCA_FLOW_L4_META_UDP, ids[GPP_UDP], (int)nq) ||
	    eth_flow_sample_class(&p->flow, DOCA_FLOW_L4_META_TCP, ids[GPP_TCP], (int)nq) != 0 ||
	    eth_flow_sample_class(&p->flow, DOCA_FLOW_L4_META_ICMP, &icmp, 1) != 0 ||
	    (c->http && gpp_tcp_cpu_flow(p->cpu, &p->flow, ids[GPP_HTTP], nq) != 0) || eth_flow_sample_commit(&p->flow) != 0)
		return -1;
	/* the ICMP replies' send queue: IPv4 header checksums by the NIC */
	if (eth_sample_txq(&p->s, 4 * GPP_ICMP_RECV_MAX, 0, 0) != 0)
		return -1;
	p->a.txq = p->s.h;
	if (doca_gpu_mem_alloc(p->s.gpu, 64, 64, DOCA_GPU_MEM_TYPE_CPU_GPU, &p->flag_dev, &p->flag_cpu) != DOCA_SUCCESS ||
	    doca_gpu_mem_alloc(p->s.gpu, 64, 64, DOCA_GPU_MEM_TYPE_CPU_GPU, &p->status_dev, &p->status_cpu) !=
		    DOCA_SUCCESS) {
		sample_err("doca_gpu_mem_alloc (flags) failed");
		return -1;
	}
	memset(p->flag_cpu, 0, 64);
	memset(p->status_cpu, 0, 64);
	return 0;
}

/* ---- host threads: the kernels' loops through the C cores ---- */

struct host_worker {
	struct app *p;
	uint32_t qi;
};

static void *host_worker_main(void *arg)
{
	const struct host_worker *w = arg;
	const struct gpp_args *a = &w->p->a;
	const struct gpp_queue_args *q = &a->q[w->qi];
	static __thread struct doca_gpu_dev_eth_rxq_attr attr[GPP_RECV_MAX];
	struct gpp_stats total = {0, 0, 0, 0, 0};
	struct gpp_http_req r;
	uint64_t first = 0;
	uint32_t num = 0, i, done = 0, slot = 0;
	int rc;

	while (__atomic_load_n(a->exit_flag, __ATOMIC_ACQUIRE) == 0) {
		uint32_t max = q->cls == GPP_ICMP ? GPP_ICMP_RECV_MAX : GPP_RECV_MAX, replies = 0;

		rc = ogda_dev_eth_rx_recv(q->rxq, max, q->cls == GPP_ICMP ? GPP_ICMP_TIMEOUT_NS : GPP_RECV_TIMEOUT_NS,
					  &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL);
		for (i = 0; i < num; i++) {
			uint8_t *pk = (uint8_t *)(uintptr_t)ogda_dev_eth_rx_pkt_addr(q->rxq, first + i);

			if (q->cls != GPP_ICMP) {
				gpp_classify(q->cls, pk, attr[i].bytes, &total);
				if (q->cls != GPP_HTTP || !gpp_http_parse(pk, attr[i].bytes, &r))
					continue;
				if (gpp_http_hand_over(&a->hq[w->qi - 2 * a->nq - 1], slot++ % GPP_HTTP_SLOTS, &r) == 0) {
					total.a++;
				} else {
					total.b++;
					rc = rc != 0 ? rc : -(int)DOCA_ERROR_TIME_OUT;
				}
				continue;
			}
			total.packets++;
			total.bytes += attr[i].bytes;
			if (gpp_icmp_reply(pk, attr[i].bytes)) {
				ogda_dev_eth_op_send(a->txq, (uint64_t)(uintptr_t)pk, q->rxq->pkt_mkey, attr[i].bytes,
						     DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, OGDA_DEV_SHARE_GPU,
						     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
				replies++;
			}
		}
		if (replies != 0) {
			total.a += replies;
			if (ogda_dev_eth_poll_completion(a->txq, replies, 0, 1, OGDA_DEV_SHARE_GPU, &done) == 0)
				total.b += replies;
			else
				rc = rc != 0 ? rc : -1;
		}
		if (num != 0)
			gpp_publish(q, &total, 0);
		if (rc != 0) {
			__atomic_store_n(a->status, rc, __ATOMIC_RELEASE);
			break;
		}
	}
	gpp_publish(q, &total, 1);
	return NULL;
}

/* ---- the CPU side: statistics through the semaphores ---- */

static void collect(struct app *p, int print)
{
	enum doca_gpu_semaphore_status st;
	void *info = NULL;
	uint32_t i;

	for (i = 0; i < p->nq_total; i++) {
		if (doca_gpu_semaphore_get_status(p->sem[i], 0, &st) != DOCA_SUCCESS || st != DOCA_GPU_SEMAPHORE_STATUS_READY ||
		    doca_gpu_semaphore_get_custom_info_addr(p->sem[i], 0, &info) != DOCA_SUCCESS)
			continue;
		memcpy(&p->seen[i], info, sizeof(p->seen[i]));
		(void)doca_gpu_semaphore_set_status(p->sem[i], 0, DOCA_GPU_SEMAPHORE_STATUS_FREE);
		if (print)
			printf("  queue %u (%s): %llu packets, %llu bytes\n", i, class_name[p->a.q[i].cls],
			       (unsigned long long)p->seen[i].packets, (unsigned long long)p->seen[i].bytes);
	}
}

static void report(const struct app *p)
{
	struct gpp_stats t[4];
	struct gpp_tcp_cpu_stats cs;
	uint32_t i;

	memset(t, 0, sizeof(t));
	for (i = 0; i < p->nq_total; i++) {
		struct gpp_stats *d = &t[p->a.q[i].cls];

		d->packets += p->seen[i].packets;
		d->bytes += p->seen[i].bytes;
		d->a += p->seen[i].a;
		d->b += p->seen[i].b;
		d->c += p->seen[i].c;
	}
	printf("gpu_packet_processing: UDP %llu packets (%llu DNS, %llu other), TCP %llu packets (%llu SYN, %llu FIN, "
	       "%llu HTTP), ICMP %llu packets (%llu echo replies sent)\n",
	       (unsigned long long)t[0].packets, (unsigned long long)t[0].a, (unsigned long long)t[0].b,
	       (unsigned long long)t[1].packets, (unsigned long long)t[1].a, (unsigned long long)t[1].b,
	       (unsigned long long)t[1].c, (unsigned long long)t[2].packets, (unsigned long long)t[2].b);
	if (p->cpu == NULL)
		return;
	gpp_tcp_cpu_get_stats(p->cpu, &cs);
	printf("gpu_packet_processing: HTTP %llu packets (%llu GET to the server, %llu pages sent), CPU %llu packets "
	       "(%llu SYN, %llu FIN, %llu RST; %llu sessions opened, %llu closed; %llu answers, %llu failures)\n",
	       (unsigned long long)t[3].packets, (unsigned long long)t[3].a, (unsigned long long)gpp_http_answers(&p->http),
	       (unsigned long long)cs.packets, (unsigned long long)cs.syn, (unsigned long long)cs.fin,
	       (unsigned long long)cs.rst, (unsigned long long)cs.opened, (unsigned long long)cs.closed,
	       (unsigned long long)cs.answers, (unsigned long long)cs.failures);
}

static int run(struct app *p, const struct cfg *c)
{
	struct host_worker w[NQ_MAX];
	struct gpp_http_server_arg sa[GPP_MAX_QUEUES];
	pthread_t t[NQ_MAX + GPP_MAX_QUEUES];
	int64_t end = sample_now_ms() + (int64_t)c->seconds * 1000, next = sample_now_ms() + 1000;
	uint64_t ns = 0;
	uint32_t i, started = 0, threads = p->s.on_gpu ? 0 : p->nq_total + (c->http ? p->a.nq : 0);
	int rc = 0;

	p->a.exit_flag = p->s.on_gpu ? p->flag_dev : p->flag_cpu;
	p->a.status = p->s.on_gpu ? p->status_dev : p->status_cpu;
	if (p->s.on_gpu) {
		if (ex_cuda_begin() != 0 || gpp_launch(&p->a) != 0) {
			sample_err("kernel launch failed: %s", ex_cuda_launch_error());
			return -1;
		}
	} else {
		for (i = 0; i < threads; i++) {
			int e;

			if (i < p->nq_total) {
				w[i] = (struct host_worker){.p = p, .qi = i};
				e = pthread_create(&t[i], NULL, host_worker_main, &w[i]);
			} else {
				sa[i - p->nq_total] = (struct gpp_http_server_arg){.a = &p->a, .qi = i - p->nq_total};
				e = pthread_create(&t[i], NULL, gpp_http_server_main, &sa[i - p->nq_total]);
			}
			if (e != 0)
				break;
			started++;
		}
	}
	if (c->http && gpp_tcp_cpu_start(p->cpu) != 0)
		threads = UINT32_MAX; /* not ready: leave at once */
	printf("gpu_packet_processing: ready: %u UDP, %u TCP and 1 ICMP queue%s (%s)\n", p->a.nq, p->a.nq,
	       c->http ? ", HTTP server on port 80" : "", p->s.on_gpu ? "GPU kernels" : "host threads");
	fflush(stdout);
	while (sample_now_ms() < end && *(volatile int32_t *)p->status_cpu == 0 && started == threads) {
		struct timespec ts = {0, 20000000};

		nanosleep(&ts, NULL);
		collect(p, sample_now_ms() >= next);
		if (sample_now_ms() >= next)
			next += 1000;
	}
	__atomic_store_n((uint32_t *)p->flag_cpu, 1, __ATOMIC_RELEASE);
	if (p->s.on_gpu)
		rc = ex_cuda_end(10, &ns);
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	gpp_tcp_cpu_stop(p->cpu);
	collect(p, 0);
	if (*(volatile int32_t *)p->status_cpu != 0) {
		sample_err("a receiver failed (%d)", *(volatile int32_t *)p->status_cpu);
		rc = -1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	static struct app p;
	struct cfg c;
	uint32_t i;
	int rc = 1;

	sample_set_prog("gpu_packet_processing");
	if (parse(argc, argv, &c) != 0)
		return 2;
	if (eth_sample_open(&p.s, c.o.dev, c.o.gpu, c.o.iface) != 0)
		return 1;
	if (setup(&p, &c) == 0 && run(&p, &c) == 0) {
		eth_sample_port_stats(&p.s);
		report(&p);
		rc = 0;
	}
	gpp_tcp_cpu_stop(p.cpu); /* no flow entry changes from here */
	eth_flow_sample_close(&p.flow);
	gpp_tcp_cpu_destroy(p.cpu);
	gpp_http_close(&p.s, &p.http);
	for (i = 0; i < NQ_MAX; i++) {
		eth_rxq_sample_close(&p.s, &p.q[i]);
		if (p.sem[i] != NULL) {
			(void)doca_gpu_semaphore_stop(p.sem[i]);
			(void)doca_gpu_semaphore_destroy(p.sem[i]);
		}
	}
	if (p.flag_dev != NULL)
		(void)doca_gpu_mem_free(p.s.gpu, p.flag_dev);
	if (p.status_dev != NULL)
		(void)doca_gpu_mem_free(p.s.gpu, p.status_dev);
	eth_sample_close(&p.s);
	return rc;
}
