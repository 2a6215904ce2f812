/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Striding receive queues from Linux: in a network namespace of its own with a veth pair, the
 * test starts a striding doca_eth_rxq (opengda_eth_rxq_set_striding), steers IPv4 UDP to one
 * port into it with PRM flow tables (eth_steer.c) and sends datagrams from a Linux UDP socket.
 * Host threads receive through the device C core. Checked: small packets share a WQE (one stride
 * each), a packet longer than a stride takes several, a packet that does not fit what is left of
 * its WQE makes a filler CQE (its fields read from the CQ ring) and lands at the next WQE's
 * first stride, the RQ doorbell record moves by whole WQEs, thousands of datagrams of mixed
 * sizes over many laps of the ring arrive once each and in order, and an empty ring or a frame
 * longer than a WQE drops and counts.
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

#include "device/ogda_dev_eth_rx.h"
#include "eth_fixture.h"
#include "eth_netns.h"
#include "eth_rx_util.h"
#include "eth_steer.h"
#include "opengda.h"
#include "opengda_mlx5.h"

#define DPORT 6000
#define HDR 42u /* Ethernet + IPv4 + UDP */
#define SKIP_CODE 77
#define LAPS_PKTS 3008u /* 188 batches of 16 */

static void begin(struct cfx *f, uint32_t burst, uint32_t stride, uint32_t strides, struct rx *r, struct est *e)
{
	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	erx_start(f, 0, 0, burst, stride, strides, r);
	assert_int_equal(r->h->striding_rq, 1);
	assert_int_equal(r->h->wqe_strides_num, strides);
	assert_int_equal(r->h->wqe_num, burst / strides);
	assert_int_equal(r->h->pkt_num, burst);
	assert_int_equal(r->h->max_pkt_sz, stride);
	est_udp_to_rqs(f->dev, &r->rqn, 1, DPORT, e);
	erx_linux_sender();
}

static void end(struct cfx *f, struct rx *r, struct est *e)
{
	est_destroy(e);
	erx_stop(r);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

/* A payload of @len bytes starting with "seq <n>", padded with 'a' + n % 26. */
static void payload(char *buf, uint32_t len, uint32_t n)
{
	uint32_t k = (uint32_t)snprintf(buf, len + 1u, "seq %05u ", n);

	for (; k < len; k++)
		buf[k] = (char)('a' + n % 26u);
	buf[len] = '\0';
}

/* Receives exactly @want packets with their indices; returns how many came. */
static uint32_t recv_idx(struct rx *r, uint32_t want, uint64_t *idx, struct doca_gpu_dev_eth_rxq_attr *attr)
{
	uint32_t got = 0, n = 0;
	uint64_t first = 0;

	while (got < want) {
		assert_int_equal(ogda_dev_eth_rx_recv_idx(r->h, want - got, WAIT_NS, &first, &n, attr + got,
							  DOCA_GPUNETIO_ETH_RX_ATTR_ALL, idx + got),
				 0);
		if (n == 0)
			break;
		assert_true(first == idx[got]);
		got += n;
	}
	return got;
}

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * 64-byte strides, 8 per WQE, 4 WQEs. Frames: three of 60 B (one stride each: WQE 0 strides
 * 0, 1, 2), one of 300 B (5 strides: 3..7, ending WQE 0), one of 200 B (WQE 1 strides 0..3) and
 * one of 300 B, which does not fit the 4 strides left: a filler CQE for them, the frame at WQE 2
 * stride 0.
 */
static void test_strides_share_wqe_and_filler(void **state)
{
	static const uint32_t frame[6] = {60, 60, 60, 300, 200, 300};
	static const uint64_t where[6] = {0, 1, 2, 3, 8, 16};
	struct doca_gpu_dev_eth_rxq_attr attr[8];
	struct cfx *f = *state;
	uint64_t idx[8];
	char msg[400];
	const uint8_t *cqe;
	uint32_t i, dbr;
	struct est e;
	struct rx r;

	begin(f, 32, 64, 8, &r, &e);
	assert_int_equal(r.h->wqe_pi, 4);
	for (i = 0; i < 6; i++) {
		payload(msg, frame[i] - HDR, i);
		erx_send_udp((uint16_t)(7000 + i), DPORT, msg);
	}
	memset(attr, 0, sizeof(attr));
	assert_int_equal(recv_idx(&r, 6, idx, attr), 6);
	for (i = 0; i < 6; i++) {
		const uint8_t *p = erx_pkt(&r, idx[i]);

		payload(msg, frame[i] - HDR, i);
		assert_int_equal(idx[i], where[i]);
		assert_int_equal(attr[i].bytes, frame[i]);
		assert_memory_equal(p + HDR, msg, frame[i] - HDR);
		assert_int_equal((p[36] << 8) | p[37], DPORT);
	}
	/* the CQ: six packets and one filler (the 7th CQE, before the last packet's) */
	cqe = ogda_dev_cqe_at(&r.h->cq, 3);
	assert_int_equal(be16(cqe + OPENGDA_MLX5_CQE_RX_WQE_ID), 0);
	assert_int_equal(be16(cqe + 0x3c), 3); /* first stride */
	assert_int_equal(be32(cqe + 0x2c), 5u << 16 | 300u);
	cqe = ogda_dev_cqe_at(&r.h->cq, 5);
	assert_int_equal(be16(cqe + OPENGDA_MLX5_CQE_RX_WQE_ID), 1);
	assert_int_equal(be16(cqe + 0x3c), 4);
	assert_int_equal(be32(cqe + 0x2c), OPENGDA_MLX5_CQE_MPRQ_FILLER | 4u << 16);
	assert_int_equal(cqe[63] >> 4, OPENGDA_MLX5_CQE_RESP_SEND);
	cqe = ogda_dev_cqe_at(&r.h->cq, 6);
	assert_int_equal(be16(cqe + OPENGDA_MLX5_CQE_RX_WQE_ID), 2);
	assert_int_equal(be16(cqe + 0x3c), 0);
	assert_int_equal(be32(cqe + 0x2c), 5u << 16 | 300u);
	/* seven CQEs retired; WQEs 0 and 1 handed back (WQE 2 is still being filled) */
	assert_int_equal(r.h->cq.cqe_ci, 7);
	assert_int_equal(r.h->wqe_pi, 6);
	assert_int_equal(r.h->wqe_id_last, 2);
	memcpy(&dbr, r.h->wqe_db_rec, 4);
	assert_int_equal(opengda_mlx5_be32toh(dbr), 6);
	end(f, &r, &e);
}

/*
 * 3008 datagrams over a ring of 8 WQEs of 8 strides of 128 bytes (about 70 laps), sizes mixed so
 * that frames take 1 or 3 strides and fillers come: sent in batches of 16 and received before the
 * next batch; every sequence number arrives once, in order, with its bytes, and nothing drops.
 */
static void test_many_laps(void **state)
{
	struct doca_gpu_dev_eth_rxq_attr attr[16];
	struct opengda_eth_port_stats st0, st1;
	struct cfx *f = *state;
	uint64_t idx[16], prev_end = 0;
	uint32_t seq = 0, i, jumps = 0;
	char msg[400];
	struct est e;
	struct rx r;

	begin(f, 64, 128, 8, &r, &e);
	erx_port_stats(f, &st0);
	while (seq < LAPS_PKTS) {
		for (i = 0; i < 16; i++) {
			uint32_t n = seq + i, len = n % 5u == 0 ? 300u : 60u;

			payload(msg, len - HDR, n);
			erx_send_udp((uint16_t)(7000 + n % 16u), DPORT, msg);
		}
		assert_int_equal(recv_idx(&r, 16, idx, attr), 16);
		for (i = 0; i < 16; i++) {
			uint32_t n = seq + i, len = n % 5u == 0 ? 300u : 60u;

			payload(msg, len - HDR, n);
			assert_int_equal(attr[i].bytes, len);
			assert_memory_equal(erx_pkt(&r, idx[i]) + HDR, msg, len - HDR);
			if (idx[i] != prev_end % 64u)
				jumps++; /* a filler closed the WQE before it */
			prev_end = idx[i] + (len + 127u) / 128u;
		}
		seq += 16;
	}
	erx_wait_rx_seen(f, &st0, LAPS_PKTS, &st1); /* the port counts a frame just after its CQE */
	assert_int_equal(st1.rx_delivered - st0.rx_delivered, LAPS_PKTS);
	assert_int_equal(st1.rx_queue_drops, st0.rx_queue_drops);
	assert_true(jumps > 0);
	assert_true(r.h->wqe_pi > 8 + 500); /* 4211 strides and the fillers */
	end(f, &r, &e);
}

/*
 * 2 WQEs of 8 strides of 64 bytes: 20 one-stride frames without receiving: 16 placed, 4 dropped
 * and counted; a frame longer than a WQE (10 strides) is dropped and counted too. Receiving the
 * 16 hands the WQEs back and the ring takes frames again.
 */
static void test_empty_ring_drops(void **state)
{
	struct doca_gpu_dev_eth_rxq_attr attr[16];
	struct opengda_eth_port_stats st0, st1;
	struct cfx *f = *state;
	uint64_t idx[16];
	char msg[700];
	struct est e;
	struct rx r;
	uint32_t i;

	begin(f, 16, 64, 8, &r, &e);
	erx_port_stats(f, &st0);
	for (i = 0; i < 20; i++) {
		payload(msg, 60 - HDR, i);
		erx_send_udp(7000, DPORT, msg);
	}
	payload(msg, 600 - HDR, 99);
	erx_send_udp(7000, DPORT, msg);
	erx_wait_rx_seen(f, &st0, 21, &st1);
	assert_true(st1.rx_delivered - st0.rx_delivered == 16);
	assert_true(st1.rx_queue_drops - st0.rx_queue_drops == 5);
	assert_int_equal(recv_idx(&r, 16, idx, attr), 16);
	for (i = 0; i < 16; i++) {
		payload(msg, 60 - HDR, i);
		assert_int_equal(idx[i], i);
		assert_memory_equal(erx_pkt(&r, idx[i]) + HDR, msg, 60 - HDR);
	}
	assert_int_equal(r.h->wqe_pi, 4);
	payload(msg, 60 - HDR, 500);
	erx_send_udp(7000, DPORT, msg);
	assert_int_equal(recv_idx(&r, 1, idx, attr), 1);
	assert_int_equal(idx[0], 0);
	assert_memory_equal(erx_pkt(&r, idx[0]) + HDR, msg, 60 - HDR);
	end(f, &r, &e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_strides_share_wqe_and_filler, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_many_laps, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_empty_ring_drops, cfx_setup, cfx_teardown),
	};
	char why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr,
			"SKIPPED eth_rx_stride_veth: %s; striding receive queues from Linux were NOT tested\n", why);
		return SKIP_CODE;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
