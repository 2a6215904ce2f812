/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethernet receive rate of the device data path through the software NIC's port, against a
 * baseline measured in the same run: the same frames read from the same interface with raw
 * AF_PACKET recvmmsg() calls by one thread. Not a test: it prints figures and ratios.
 *
 * In a network namespace of its own with a veth pair (as tests/eth does): a sender thread writes
 * N UDP/IPv4 frames into the Linux end with AF_PACKET sendmmsg(); the receiver is either a raw
 * AF_PACKET socket on the NIC end (baseline) or the software NIC's port steering them, through a
 * DOCA Flow rule, into a receive queue that a host thread drains with the device receive core.
 * Frames a receiver does not keep up with are lost, as on a wire: the rate is what arrived
 * divided by the time from the first arrival to the last, and the share that arrived is printed.
 *
 *   build/bin/eth_rx_bench [frames per size]   (default 200000)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "device/ogda_dev_eth_rx.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_eth_rxq.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "doca_flow.h"
#include "doca_mmap.h"
#include "eth/eth_netns.h"
#include "eth_bench_frame.h"
#include "opengda.h"
#include "opengda_gpunetio.h"
#include "swnic/swnic_eth_csum.h"

#define PKTS 8192u
#define PKT_SIZE 2048u
#define BATCH 64u
#define IDLE_NS 300000000ull   /* a receiver stops this long after its last frame, once the sender is done */

struct sender {
	const uint8_t *f;
	uint32_t len;
	uint64_t n;
	volatile int done;
};

static void *send_main(void *arg)
{
	struct sender *s = arg;
	struct sockaddr_ll sll = {.sll_family = AF_PACKET};
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH];
	int fd = socket(AF_PACKET, SOCK_RAW, 0);
	uint64_t sent = 0;
	uint32_t i;

	sll.sll_ifindex = (int)if_nametoindex(ETH_NETNS_HOST_IF);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
		perror("sender socket");
		exit(1);
	}
	memset(mm, 0, sizeof(mm));
	for (i = 0; i < BATCH; i++) {
		iov[i] = (struct iovec){.iov_base = (void *)s->f, .iov_len = s->len};
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	while (sent < s->n) {
		unsigned k = s->n - sent < BATCH ? (unsigned)(s->n - sent) : BATCH;
		int r = sendmmsg(fd, mm, k, 0);

		if (r > 0)
			sent += (uint64_t)r;
	}
	close(fd);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

struct result {
	uint64_t got;
	uint64_t t_first, t_last;
};

static int sender_done(struct sender *s)
{
	return __atomic_load_n(&s->done, __ATOMIC_ACQUIRE);
}

static void raw_receive(struct sender *s, struct result *r)
{
	static uint8_t bufs[BATCH][PKT_SIZE];
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(3)}; /* ETH_P_ALL */
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH];
	struct pollfd pfd;
	pthread_t t;
	int fd = socket(AF_PACKET, SOCK_RAW, htons(3)), rcvbuf = 64 << 20;
	uint32_t i;

	sll.sll_ifindex = (int)if_nametoindex(ETH_NETNS_NIC_IF);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
		perror("baseline socket");
		exit(1);
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	for (i = 0; i < BATCH; i++) {
		iov[i] = (struct iovec){.iov_base = bufs[i], .iov_len = PKT_SIZE};
		memset(&mm[i], 0, sizeof(mm[i]));
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	memset(r, 0, sizeof(*r));
	pfd = (struct pollfd){.fd = fd, .events = POLLIN};
	pthread_create(&t, NULL, send_main, s);
	for (;;) {
		int n = recvmmsg(fd, mm, BATCH, MSG_DONTWAIT, NULL);

		if (n > 0) {
			uint64_t now = eth_bench_now_ns();

			if (r->got == 0)
				r->t_first = now;
			r->t_last = now;
			r->got += (uint64_t)n;
			continue;
		}
		if (sender_done(s) && (r->got == 0 || eth_bench_now_ns() - r->t_last > IDLE_NS))
			break;
		(void)poll(&pfd, 1, 10);
	}
	pthread_join(t, NULL);
	close(fd);
}

static void device_receive(struct doca_gpu_eth_rxq *h, struct sender *s, struct result *r)
{
	static struct doca_gpu_dev_eth_rxq_attr attr[PKTS];
	uint64_t first = 0;
	uint32_t num = 0;
	pthread_t t;

	memset(r, 0, sizeof(*r));
	pthread_create(&t, NULL, send_main, s);
	for (;;) {
		if (ogda_dev_eth_rx_recv(h, 1024, 1000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_NONE) != 0) {
			fprintf(stderr, "device path: receive error\n");
			exit(1);
		}
		if (num != 0) {
			uint64_t now = eth_bench_now_ns();

			if (r->got == 0)
				r->t_first = now;
			r->t_last = now;
			r->got += num;
			continue;
		}
		if (sender_done(s) && (r->got == 0 || eth_bench_now_ns() - r->t_last > IDLE_NS))
			break;
	}
	pthread_join(t, NULL);
}

/* IPv4 UDP from the port into queue id 0 (a root BASIC pipe, RSS over one queue). */
static struct doca_flow_port *steer(struct doca_dev *dev)
{
	struct doca_flow_cfg *cfg = NULL;
	struct doca_flow_port_cfg *pc = NULL;
	struct doca_flow_pipe_cfg *pp = NULL;
	struct doca_flow_port *port = NULL;
	struct doca_flow_pipe *pipe = NULL;
	struct doca_flow_pipe_entry *e = NULL;
	struct doca_flow_match m;
	struct doca_flow_fwd fwd, miss;
	uint16_t q = 0;

	memset(&m, 0, sizeof(m));
	memset(&fwd, 0, sizeof(fwd));
	memset(&miss, 0, sizeof(miss));
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_UDP;
	fwd.type = DOCA_FLOW_FWD_RSS;
	fwd.rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	fwd.rss.queues_array = &q;
	fwd.rss.nr_queues = 1;
	fwd.rss.outer_flags = DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP;
	miss.type = DOCA_FLOW_FWD_DROP;
	if (doca_flow_cfg_create(&cfg) != DOCA_SUCCESS || doca_flow_cfg_set_pipe_queues(cfg, 1) != DOCA_SUCCESS ||
	    doca_flow_init(cfg) != DOCA_SUCCESS || doca_flow_port_cfg_create(&pc) != DOCA_SUCCESS ||
	    doca_flow_port_cfg_set_dev(pc, dev) != DOCA_SUCCESS || doca_flow_port_start(pc, &port) != DOCA_SUCCESS ||
	    doca_flow_pipe_cfg_create(&pp, port) != DOCA_SUCCESS ||
	    doca_flow_pipe_cfg_set_type(pp, DOCA_FLOW_PIPE_BASIC) != DOCA_SUCCESS ||
	    doca_flow_pipe_cfg_set_is_root(pp, true) != DOCA_SUCCESS ||
	    doca_flow_pipe_cfg_set_match(pp, &m, NULL) != DOCA_SUCCESS ||
	    doca_flow_pipe_create(pp, &fwd, &miss, &pipe) != DOCA_SUCCESS ||
	    doca_flow_pipe_basic_add_entry(0, pipe, &m, 0, NULL, NULL, NULL, 0, NULL, &e) != DOCA_SUCCESS ||
	    doca_flow_entries_process(port, 0, 0, 0) != DOCA_SUCCESS) {
		fprintf(stderr, "eth_rx_bench: DOCA Flow steering failed\n");
		exit(1);
	}
	(void)doca_flow_pipe_cfg_destroy(pp);
	(void)doca_flow_port_cfg_destroy(pc);
	(void)doca_flow_cfg_destroy(cfg);
	return port;
}

static double rate(const struct result *r)
{
	return r->t_last > r->t_first ? (double)r->got / ((double)(r->t_last - r->t_first) / 1e9) : 0;
}

int main(int argc, char **argv)
{
	static const uint32_t sizes[] = {64, 512, 1514};
	struct doca_devinfo **list = NULL, *info = NULL;
	struct doca_dev *dev = NULL;
	struct doca_gpu *gpu = NULL;
	struct doca_eth_rxq *rxq = NULL;
	struct doca_gpu_eth_rxq *h = NULL;
	struct doca_mmap *m = NULL;
	struct doca_flow_port *port;
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
	uint32_t count = 0, i, size = 0;
	uint8_t *pkts = aligned_alloc(4096, (size_t)PKTS * PKT_SIZE), f[PKT_SIZE], nic_mac[6];
	char name[64], why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr, "eth_rx_bench: %s\n", why);
		return 1;
	}
	if (pkts == NULL || n == 0 || eth_netns_if_mac(ETH_NETNS_NIC_IF, nic_mac) != 0 ||
	    doca_devinfo_create_list(&list, &count) != DOCA_SUCCESS)
		return 1;
	for (i = 0; i < count; i++)
		if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) == DOCA_SUCCESS && strcmp(name, "swnic0") == 0)
			info = list[i];
	if (info == NULL || doca_dev_open(info, &dev) != DOCA_SUCCESS || opengda_gpu_create_host(&gpu) != DOCA_SUCCESS)
		return 1;
	if (doca_eth_rxq_create(dev, PKTS, PKT_SIZE, &rxq) != DOCA_SUCCESS ||
	    doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, PKT_SIZE, PKTS, 0, 0, 0, &size) ||
	    doca_mmap_create(&m) != DOCA_SUCCESS || doca_mmap_add_dev(m, dev) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(m, pkts, size) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) != DOCA_SUCCESS ||
	    doca_mmap_start(m) != DOCA_SUCCESS || doca_eth_rxq_set_pkt_buf(rxq, m, 0, size) != DOCA_SUCCESS ||
	    doca_eth_rxq_apply_queue_id(rxq, 0) != DOCA_SUCCESS ||
	    doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(rxq), gpu) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)) != DOCA_SUCCESS || doca_eth_rxq_get_gpu_handle(rxq, &h))
		return 1;
	port = steer(dev);
	printf("eth_rx_bench: %llu frames per size sent into the veth's Linux end; one receiver thread\n",
	       (unsigned long long)n);
	printf("%6s %10s %9s %10s %9s %9s %8s\n", "bytes", "raw Mpps", "raw got", "dev Mpps", "dev got", "dev Gb/s",
	       "ratio");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct sender s = {.f = f, .len = sizes[i], .n = n, .done = 0};
		struct result raw, devr;

		eth_bench_frame(f, sizes[i], nic_mac, 2, 1);
		(void)swnic_eth_csum_fill(f, sizes[i], 0xc0);
		/* baseline first, with the port detached so that its thread does not read the interface */
		raw_receive(&s, &raw);
		s.done = 0;
		if (opengda_eth_port_attach(dev, ETH_NETNS_NIC_IF) != DOCA_SUCCESS)
			return 1;
		device_receive(h, &s, &devr);
		(void)opengda_eth_port_detach(dev);
		printf("%6u %10.3f %8.1f%% %10.3f %8.1f%% %9.2f %8.2f\n", sizes[i], rate(&raw) / 1e6,
		       100.0 * (double)raw.got / (double)n, rate(&devr) / 1e6, 100.0 * (double)devr.got / (double)n,
		       rate(&devr) * sizes[i] * 8 / 1e9, rate(&raw) > 0 ? rate(&devr) / rate(&raw) : 0);
	}
	(void)doca_flow_port_stop(port);
	doca_flow_destroy();
	(void)doca_ctx_stop(doca_eth_rxq_as_doca_ctx(rxq));
	(void)doca_eth_rxq_destroy(rxq);
	(void)doca_mmap_stop(m);
	(void)doca_mmap_destroy(m);
	(void)doca_gpu_destroy(gpu);
	(void)doca_dev_close(dev);
	(void)doca_devinfo_destroy_list(list);
	free(pkts);
	return 0;
}
