/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames from Linux reach the device receive path: in a network namespace of its own with a veth
 * pair, the test attaches the software NIC's port to one end, starts a doca_eth_rxq, steers IPv4
 * UDP to one port into it with PRM flow table commands (eth_steer.c), and sends datagrams from a
 * Linux UDP socket on the other end. Host threads receive through the device C core
 * (ogda_dev_eth_rx.h) and the test checks the payloads in the packet buffers, the CQE fields
 * (length, L3/L4 checksum verdicts, header types, the entry's flow tag), the entry's counter,
 * that other ports are not delivered, that a full queue drops and counts, that RSS over an RQT
 * spreads flows over several queues, and that a TIR in use cannot be destroyed.
 *
 * Where namespaces, veth or iproute2 are unavailable the test says why and exits 77 (skipped).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "device/ogda_dev_eth_rx.h"
#include "doca_ctx.h"
#include "doca_eth_rxq.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "doca_core/core_fixture.h"
#include "eth_netns.h"
#include "eth_steer.h"
#include "opengda.h"

#define IF_NIC ETH_NETNS_NIC_IF
#define IF_HOST ETH_NETNS_HOST_IF
#define NIC_IP "10.77.0.1"
#define DPORT 6000
#define OTHER_PORT 6001
#define BURST 16u
#define PKT 2048u
#define WAIT_NS 3000000000ull
#define SKIP_CODE 77

struct rx {
	struct doca_eth_rxq *q;
	struct doca_gpu_eth_rxq *h;
	struct doca_mmap *m;
	uint32_t rqn;
};

static void rx_start(struct cfx *f, size_t buf_off, uint16_t queue_id, struct rx *r)
{
	uint32_t size = 0;

	memset(r, 0, sizeof(*r));
	assert_int_equal(doca_eth_rxq_create(f->dev, BURST, PKT, &r->q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_type(r->q, DOCA_ETH_RXQ_TYPE_CYCLIC), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, PKT, BURST, 0, 0, 0, &size),
			 DOCA_SUCCESS);
	assert_int_equal(size, BURST * PKT);
	assert_true(buf_off + size <= CFX_BUF_LEN);
	r->m = cfx_mmap(f, buf_off, size, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(r->q, r->m, 0, size), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_apply_queue_id(r->q, queue_id), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(r->q), f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(r->q)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_get_gpu_handle(r->q, &r->h), DOCA_SUCCESS);
	r->rqn = r->h->rqn;
}

static void rx_stop(struct rx *r)
{
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(r->q)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_destroy(r->q), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(r->m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(r->m), DOCA_SUCCESS);
}

/* The NIC end's address as a static neighbour of the Linux end (no ARP needed). */
static void linux_sender(void)
{
	uint8_t mac[6];
	char cmd[160];

	assert_int_equal(eth_netns_if_mac(IF_NIC, mac), 0);
	snprintf(cmd, sizeof(cmd), "ip neigh replace " NIC_IP " lladdr %02x:%02x:%02x:%02x:%02x:%02x dev " IF_HOST,
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	assert_int_equal(system(cmd), 0);
}

static void send_udp(uint16_t sport, uint16_t dport, const char *payload)
{
	struct sockaddr_in src = {.sin_family = AF_INET, .sin_port = htons(sport)};
	struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(dport)};
	int b = socket(AF_INET, SOCK_DGRAM, 0);

	/* each source port its own socket, so that RSS sees several flows */
	assert_true(b >= 0);
	src.sin_addr.s_addr = htonl(ETH_NETNS_HOST_IP);
	assert_int_equal(bind(b, (struct sockaddr *)&src, sizeof(src)), 0);
	assert_int_equal(inet_pton(AF_INET, NIC_IP, &dst.sin_addr), 1);
	assert_int_equal(sendto(b, payload, strlen(payload), 0, (struct sockaddr *)&dst, sizeof(dst)),
			 (ssize_t)strlen(payload));
	close(b);
}

/* Receives exactly @want packets within WAIT_NS (one receive call per arrival at most). */
static uint32_t recv_n(struct rx *r, uint32_t want, uint64_t *first, struct doca_gpu_dev_eth_rxq_attr *attr)
{
	uint32_t got = 0, n = 0;
	uint64_t f0 = 0, f = 0;

	while (got < want) {
		assert_int_equal(ogda_dev_eth_rx_recv(r->h, want - got, WAIT_NS, &f, &n, attr + got,
						      DOCA_GPUNETIO_ETH_RX_ATTR_ALL),
				 0);
		if (n == 0)
			break;
		if (got == 0)
			f0 = f;
		got += n;
	}
	*first = f0;
	return got;
}

static const uint8_t *pkt(const struct rx *r, uint64_t idx)
{
	return (const uint8_t *)(uintptr_t)ogda_dev_eth_rx_pkt_addr(r->h, idx);
}

static void port_stats(struct cfx *f, struct opengda_eth_port_stats *st)
{
	assert_int_equal(opengda_eth_port_get_stats(f->dev, st), DOCA_SUCCESS);
}

static void test_udp_from_linux_arrives(void **state)
{
	struct doca_gpu_dev_eth_rxq_attr attr[BURST];
	struct opengda_eth_port_stats st0, st1;
	struct cfx *f = *state;
	struct est e;
	struct rx r;
	uint64_t first = 0;
	char msg[64];
	uint32_t i;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	rx_start(f, 0, 0, &r);
	est_udp_to_rqs(f->dev, &r.rqn, 1, DPORT, &e);
	linux_sender();
	port_stats(f, &st0);
	for (i = 0; i < 4; i++) {
		snprintf(msg, sizeof(msg), "datagram %u from Linux", i);
		send_udp((uint16_t)(7000 + i), DPORT, msg);
	}
	send_udp(7100, OTHER_PORT, "not for the queue");
	memset(attr, 0, sizeof(attr));
	assert_int_equal(recv_n(&r, 4, &first, attr), 4);
	for (i = 0; i < 4; i++) {
		const uint8_t *p = pkt(&r, first + i);
		const uint8_t *cqe = ogda_dev_cqe_at(&r.h->cq, first + i);

		snprintf(msg, sizeof(msg), "datagram %u from Linux", i);
		assert_int_equal(attr[i].bytes, 14 + 20 + 8 + strlen(msg));
		assert_memory_equal(p + 42, msg, strlen(msg));
		assert_int_equal(p[23], 17);                       /* IPv4 protocol UDP */
		assert_int_equal((p[36] << 8) | p[37], DPORT);     /* UDP destination port */
		assert_true(attr[i].timestamp_ns != 0);
		/* the CQE: checksums good, IPv4 / UDP, the entry's flow tag in the QPN field */
		assert_int_equal(cqe[OPENGDA_MLX5_CQE_RX_HDS_IP_EXT] & 7u,
				 OPENGDA_MLX5_CQE_RX_L2_OK | OPENGDA_MLX5_CQE_RX_L3_OK | OPENGDA_MLX5_CQE_RX_L4_OK);
		assert_int_equal(cqe[OPENGDA_MLX5_CQE_RX_L4_L3_HDR_TYPE],
				 OPENGDA_MLX5_CQE_RX_L4_UDP << 4 | OPENGDA_MLX5_CQE_RX_L3_IPV4 << 2);
		assert_int_equal(((uint32_t)cqe[57] << 16 | (uint32_t)cqe[58] << 8 | cqe[59]), EST_FLOW_TAG);
	}
	assert_int_equal(est_counted(&e), 4);
	port_stats(f, &st1);
	assert_true(st1.rx_delivered - st0.rx_delivered == 4);
	assert_true(st1.rx_missed - st0.rx_missed >= 1); /* the other port's datagram */
	/* the entry forwards to the TIR: it cannot go first */
	assert_true(est_tir_busy(&e));
	est_destroy(&e);
	rx_stop(&r);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

static void test_full_queue_drops_and_counts(void **state)
{
	struct doca_gpu_dev_eth_rxq_attr attr[BURST];
	struct opengda_eth_port_stats st0, st1;
	struct cfx *f = *state;
	struct est e;
	struct rx r;
	uint64_t first = 0;
	char msg[32];
	uint32_t i;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	rx_start(f, 0, 1, &r);
	est_udp_to_rqs(f->dev, &r.rqn, 1, DPORT, &e);
	linux_sender();
	port_stats(f, &st0);
	for (i = 0; i < BURST + 4; i++) {
		snprintf(msg, sizeof(msg), "fill %u", i);
		send_udp((uint16_t)(7200 + i), DPORT, msg);
	}
	for (i = 0; i < 200; i++) { /* the port's thread has seen them all */
		port_stats(f, &st1);
		if (st1.rx_delivered + st1.rx_queue_drops - st0.rx_delivered - st0.rx_queue_drops >= BURST + 4)
			break;
		usleep(10000);
	}
	assert_true(st1.rx_delivered - st0.rx_delivered == BURST);
	assert_true(st1.rx_queue_drops - st0.rx_queue_drops == 4);
	assert_int_equal(recv_n(&r, BURST, &first, attr), BURST);
	assert_memory_equal(pkt(&r, first) + 42, "fill 0", 6);
	assert_memory_equal(pkt(&r, first + BURST - 1) + 42, "fill 15", 7);
	/* the buffers went back to the NIC: the ring takes frames again */
	send_udp(7300, DPORT, "after the drain");
	assert_int_equal(recv_n(&r, 1, &first, attr), 1);
	assert_memory_equal(pkt(&r, first) + 42, "after the drain", 15);
	est_destroy(&e);
	rx_stop(&r);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

static void test_rss_spreads_flows(void **state)
{
	struct doca_gpu_dev_eth_rxq_attr attr[BURST];
	struct cfx *f = *state;
	struct rx r[2];
	uint32_t rqn[2], got[2] = {0, 0}, i, k, n;
	uint64_t first;
	struct est e;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	rx_start(f, 0, 2, &r[0]);
	rx_start(f, (size_t)BURST * PKT, 3, &r[1]);
	rqn[0] = r[0].rqn;
	rqn[1] = r[1].rqn;
	est_udp_to_rqs(f->dev, rqn, 2, DPORT, &e);
	linux_sender();
	for (i = 0; i < 12; i++)
		send_udp((uint16_t)(8000 + 17 * i), DPORT, "flow");
	for (k = 0; k < 2; k++) {
		do {
			n = 0;
			assert_int_equal(ogda_dev_eth_rx_recv(r[k].h, BURST, 300000000ull, &first, &n, attr,
							      DOCA_GPUNETIO_ETH_RX_ATTR_ALL),
					 0);
			got[k] += n;
		} while (n != 0 && got[0] + got[1] < 12);
	}
	/* every datagram arrived once, and both queues got some (12 flows over 2 queues) */
	assert_int_equal(got[0] + got[1], 12);
	assert_true(got[0] > 0 && got[1] > 0);
	est_destroy(&e);
	rx_stop(&r[1]);
	rx_stop(&r[0]);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

/*
 * The interface deleted while the port is attached: the receive thread's socket fails; the error
 * is counted and logged (not once per retry), the thread neither crashes nor spins (a spinning
 * thread would count thousands of errors a second), and the port detaches. The veth pair is
 * made again for the tests after this one.
 */
static void test_interface_deleted(void **state)
{
	struct opengda_eth_port_stats st0, st1, st2;
	struct cfx *f = *state;
	int i;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	port_stats(f, &st0);
	assert_int_equal(system("ip link del " IF_NIC), 0);
	for (i = 0; i < 500; i++) { /* up to 5 s for the thread to see it */
		port_stats(f, &st1);
		if (st1.rx_errors > st0.rx_errors)
			break;
		usleep(10000);
	}
	assert_true(st1.rx_errors > st0.rx_errors);
	sleep(1);
	port_stats(f, &st2);
	assert_true(st2.rx_errors - st1.rx_errors <= 25); /* at most one retry per 50 ms poll */
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
	assert_int_equal(eth_netns_veth_create(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_udp_from_linux_arrives, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_full_queue_drops_and_counts, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_rss_spreads_flows, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_interface_deleted, cfx_setup, cfx_teardown),
	};
	char why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr, "SKIPPED eth_rx_veth: %s; the Ethernet receive path from Linux was NOT tested\n", why);
		return SKIP_CODE;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
