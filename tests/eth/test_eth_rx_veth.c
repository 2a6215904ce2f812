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
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "device/ogda_dev_eth_rx.h"
#include "doca_ctx.h"
#include "doca_eth_rxq.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "doca_core/core_fixture.h"
#include "eth_fixture.h"
#include "eth_netns.h"
#include "eth_rx_util.h"
#include "eth_steer.h"
#include "opengda.h"

#define DPORT 6000
#define OTHER_PORT 6001
#define BURST 16u
#define PKT 2048u
#define SKIP_CODE 77

/* A cyclic queue of BURST buffers of PKT bytes. */
static void rx_start(struct cfx *f, size_t buf_off, uint16_t queue_id, struct rx *r)
{
	erx_start(f, buf_off, queue_id, BURST, PKT, 0, r);
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
	erx_linux_sender();
	erx_port_stats(f, &st0);
	for (i = 0; i < 4; i++) {
		snprintf(msg, sizeof(msg), "datagram %u from Linux", i);
		erx_send_udp((uint16_t)(7000 + i), DPORT, msg);
	}
	erx_send_udp(7100, OTHER_PORT, "not for the queue");
	memset(attr, 0, sizeof(attr));
	assert_int_equal(erx_recv_n(&r, 4, &first, attr), 4);
	for (i = 0; i < 4; i++) {
		const uint8_t *p = erx_pkt(&r, first + i);
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
	/* the other port's datagram went last: wait (up to 2 s) until the port's thread has seen it */
	for (i = 0; i < 200; i++) {
		erx_port_stats(f, &st1);
		if (st1.rx_missed - st0.rx_missed >= 1)
			break;
		usleep(10000);
	}
	assert_true(st1.rx_delivered - st0.rx_delivered == 4);
	assert_true(st1.rx_missed - st0.rx_missed >= 1);
	/* the entry forwards to the TIR: it cannot go first */
	assert_true(est_tir_busy(&e));
	est_destroy(&e);
	erx_stop(&r);
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
	erx_linux_sender();
	erx_port_stats(f, &st0);
	for (i = 0; i < BURST + 4; i++) {
		snprintf(msg, sizeof(msg), "fill %u", i);
		erx_send_udp((uint16_t)(7200 + i), DPORT, msg);
	}
	erx_wait_rx_seen(f, &st0, BURST + 4, &st1); /* the port's thread has seen them all */
	assert_true(st1.rx_delivered - st0.rx_delivered == BURST);
	assert_true(st1.rx_queue_drops - st0.rx_queue_drops == 4);
	assert_int_equal(erx_recv_n(&r, BURST, &first, attr), BURST);
	assert_memory_equal(erx_pkt(&r, first) + 42, "fill 0", 6);
	assert_memory_equal(erx_pkt(&r, first + BURST - 1) + 42, "fill 15", 7);
	/* the buffers went back to the NIC: the ring takes frames again */
	erx_send_udp(7300, DPORT, "after the drain");
	assert_int_equal(erx_recv_n(&r, 1, &first, attr), 1);
	assert_memory_equal(erx_pkt(&r, first) + 42, "after the drain", 15);
	est_destroy(&e);
	erx_stop(&r);
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
	erx_linux_sender();
	for (i = 0; i < 12; i++)
		erx_send_udp((uint16_t)(8000 + 17 * i), DPORT, "flow");
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
	erx_stop(&r[1]);
	erx_stop(&r[0]);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

/* What the receive-error tests share: the port, one queue, UDP to DPORT steered into it. */
static void err_begin(struct cfx *f, struct rx *r, struct est *e, struct opengda_eth_port_stats *st0)
{
	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	rx_start(f, 0, 0, r);
	est_udp_to_rqs(f->dev, &r->rqn, 1, DPORT, e);
	erx_linux_sender();
	erx_port_stats(f, st0);
}

static void err_end(struct cfx *f, struct rx *r, struct est *e)
{
	est_destroy(e);
	erx_stop(r);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

/*
 * A frame longer than the next RQ WQE's buffer is dropped and counted without taking the WQE:
 * the next frame that fits lands in that same WQE (packet 0).
 */
static void test_too_long_keeps_wqe(void **state)
{
	struct doca_gpu_dev_eth_rxq_attr attr[1];
	struct opengda_eth_port_stats st0, st1;
	static char big[3001];
	struct cfx *f = *state;
	uint64_t first = 1;
	struct est e;
	struct rx r;

	assert_int_equal(system("ip link set " IF_NIC " mtu 4000 && ip link set " IF_HOST " mtu 4000"), 0);
	err_begin(f, &r, &e, &st0);
	memset(big, 'x', sizeof(big) - 1);
	erx_send_udp(7400, DPORT, big); /* 3042 bytes on the wire, the WQE takes PKT (2048) */
	erx_wait_rx_seen(f, &st0, 1, &st1);
	assert_true(st1.rx_queue_drops - st0.rx_queue_drops == 1);
	assert_true(st1.rx_delivered == st0.rx_delivered);
	erx_send_udp(7401, DPORT, "fits");
	assert_int_equal(erx_recv_n(&r, 1, &first, attr), 1);
	assert_int_equal(first, 0); /* WQE 0, still posted */
	assert_memory_equal(erx_pkt(&r, first) + 42, "fits", 4);
	err_end(f, &r, &e);
	assert_int_equal(system("ip link set " IF_NIC " mtu 1500 && ip link set " IF_HOST " mtu 1500"), 0);
}

/*
 * An RQ WQE whose lkey the NIC does not know: a RESP_ERR CQE with LOCAL_PROT, which the device
 * receive returns as an error CQE (DOCA_ERROR_DRIVER in doca_gpu_dev_eth_rxq_recv), and the RQ
 * in ERR: the next frame is dropped and counted.
 */
static void test_rq_bad_lkey(void **state)
{
	struct opengda_eth_port_stats st0, st1, st2;
	struct cfx *f = *state;
	uint64_t first = 0;
	uint32_t n = 1;
	const uint8_t *cqe;
	struct est e;
	struct rx r;

	err_begin(f, &r, &e, &st0);
	ogda_dev_store_nic_u32((uint32_t *)(void *)(r.h->wqe_addr + 4), htonl(0x7777)); /* WQE 0's lkey */
	ogda_dev_fence_nic_release();
	erx_send_udp(7500, DPORT, "to a bad key");
	erx_wait_rx_seen(f, &st0, 1, &st1);
	assert_int_equal(ogda_dev_eth_rx_recv(r.h, 1, WAIT_NS, &first, &n, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE),
			 OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR));
	assert_int_equal(n, 0);
	assert_true(first == DOCA_GPUNETIO_ETH_RX_NO_PKT);
	cqe = ogda_dev_cqe_at(&r.h->cq, 0);
	assert_int_equal(cqe[63] >> 4, OPENGDA_MLX5_CQE_RESP_ERR);
	assert_int_equal(cqe[OPENGDA_MLX5_ERR_CQE_SYNDROME], OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	erx_send_udp(7501, DPORT, "after the error");
	erx_wait_rx_seen(f, &st1, 1, &st2);
	assert_true(st2.rx_queue_drops - st1.rx_queue_drops == 1); /* the RQ is in ERR */
	assert_true(st2.rx_delivered == st0.rx_delivered);
	err_end(f, &r, &e);
}

/*
 * Receive CQ overrun. The queue's CQ is created with cqc.oi = 1, as DOCA's GPU queues are (their
 * CQEs are polled by index): the NIC does not check it for overrun. A receiver that lets the CQ
 * fill (here: WQEs posted again without the CQEs retired) loses the oldest completion: the next
 * frame's CQE, of the ring's next lap, overwrites CQE 0 and its packet WQE 0's buffer; the CQ
 * and the RQ stay usable, so the receiver must consume CQEs in time (docs/ethernet.md §9).
 */
static void test_cq_overrun_overwrites(void **state)
{
	struct opengda_eth_port_stats st0, st1, st2;
	struct cfx *f = *state;
	uint32_t i, n;
	char msg[32];
	struct est e;
	struct rx r;

	err_begin(f, &r, &e, &st0);
	n = r.h->wqe_num;
	assert_int_equal(r.h->cq.cqe_num, n);
	for (i = 0; i < n; i++) {
		snprintf(msg, sizeof(msg), "cqe %u", i);
		erx_send_udp((uint16_t)(7600 + i), DPORT, msg);
	}
	erx_wait_rx_seen(f, &st0, n, &st1);
	assert_true(st1.rx_delivered - st0.rx_delivered == n);
	assert_int_equal(ogda_dev_eth_rx_cqe_state(r.h, 0), 1);
	/* The WQEs go back to the NIC, the CQEs are not consumed (the CQ doorbell record stays). */
	r.h->wqe_pi += n;
	ogda_dev_fence_nic_release();
	ogda_dev_store_nic_u32(r.h->wqe_db_rec, opengda_mlx5_htobe32((uint32_t)(r.h->wqe_pi & OPENGDA_MLX5_QP_DBR_MASK)));
	erx_send_udp(7700, DPORT, "overrun");
	erx_wait_rx_seen(f, &st1, 1, &st2);
	assert_true(st2.rx_delivered - st1.rx_delivered == 1);
	assert_true(st2.rx_queue_drops == st1.rx_queue_drops);
	assert_int_equal(ogda_dev_eth_rx_cqe_state(r.h, n), 1); /* lap 2's first CQE ... */
	assert_int_equal(ogda_dev_eth_rx_cqe_state(r.h, 0), 0); /* ... in place of lap 1's */
	assert_int_equal(ogda_dev_eth_rx_cqe_state(r.h, 1), 1); /* the others stay */
	assert_memory_equal(erx_pkt(&r, 0) + 42, "overrun", 7);
	err_end(f, &r, &e);
}

/*
 * A frame with a VLAN tag (id 5) sent by a Linux packet socket arrives in the queue with its tag
 * in the bytes: the receiving veth's kernel path takes the tag out into the packet's metadata and
 * hands it to the port's socket in PACKET_AUXDATA; the port puts it back after the MAC addresses.
 */
static void test_vlan_tag_put_back(void **state)
{
	struct doca_gpu_dev_eth_rxq_attr attr[1];
	struct opengda_eth_port_stats st0;
	struct sockaddr_ll to = {.sll_family = AF_PACKET, .sll_halen = 6};
	struct efx_udp u = {.src_ip = ETH_NETNS_HOST_IP, .dst_ip = 0x0a4d0001u, .sport = 7800, .dport = DPORT};
	struct cfx *f = *state;
	uint8_t frame[128];
	uint64_t first = 0;
	struct est e;
	struct rx r;
	size_t len;
	int s;

	assert_int_equal(eth_netns_if_mac(IF_NIC, u.dst_mac), 0);
	assert_int_equal(eth_netns_if_mac(IF_HOST, u.src_mac), 0);
	len = efx_udp_frame(frame, &u, "tagged", 6);
	memmove(frame + 16, frame + 12, len - 12); /* an 802.1Q tag: PCP 0, id 5 */
	frame[12] = 0x81, frame[13] = 0x00, frame[14] = 0x00, frame[15] = 0x05;
	len += 4;
	err_begin(f, &r, &e, &st0);
	s = socket(AF_PACKET, SOCK_RAW, 0);
	assert_true(s >= 0);
	to.sll_ifindex = (int)if_nametoindex(IF_HOST);
	memcpy(to.sll_addr, u.dst_mac, 6);
	assert_int_equal(sendto(s, frame, len, 0, (struct sockaddr *)&to, sizeof(to)), (ssize_t)len);
	close(s);
	assert_int_equal(erx_recv_n(&r, 1, &first, attr), 1);
	assert_int_equal(attr[0].bytes, len);
	assert_memory_equal(erx_pkt(&r, first), frame, len); /* the tag where it was sent: 0x8100, id 5, then IPv4 */
	err_end(f, &r, &e);
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
	erx_port_stats(f, &st0);
	assert_int_equal(system("ip link del " IF_NIC), 0);
	for (i = 0; i < 500; i++) { /* up to 5 s for the thread to see it */
		erx_port_stats(f, &st1);
		if (st1.rx_errors > st0.rx_errors)
			break;
		usleep(10000);
	}
	assert_true(st1.rx_errors > st0.rx_errors);
	sleep(1);
	erx_port_stats(f, &st2);
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
		cmocka_unit_test_setup_teardown(test_too_long_keeps_wqe, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_rq_bad_lkey, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_cq_overrun_overwrites, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_vlan_tag_put_back, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_interface_deleted, cfx_setup, cfx_teardown),
	};
	char why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr, "SKIPPED eth_rx_veth: %s; the Ethernet receive path from Linux was NOT tested\n", why);
		return SKIP_CODE;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
