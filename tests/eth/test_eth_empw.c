/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Enhanced multi-packet send (ENHANCED_MPSW, opcode 0x29) without an Ethernet port: the WQE bytes
 * the device C core writes against the mlx5 offsets (also across the ring end), the decoder on a
 * hand-written image and on malformed ones, bad input to the device function, and the software
 * NIC's execution (one frame per data segment, counted as dropped by the unattached port; the
 * CQE's byte count; a bad key ending the WQE with LOCAL_PROT and no packet after it; an SQ
 * created without allow_multi_pkt_send_wqe refusing the opcode).
 * Frames reaching Linux through a veth pair: test_eth_veth.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "device/ogda_dev_eth.h"
#include "eth_fixture.h"
#include "opengda.h"
#include "prm/prm_wqe.h"
#include "swnic/swnic.h"
#include "swnic/swnic_engine.h"
#include "test_util.h"

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64_at(const uint8_t *p)
{
	return (uint64_t)be32_at(p) << 32 | be32_at(p + 4);
}

/* A data segment at p: byte_count, lkey, address (mlx5 data segment offsets 0, 4, 8). */
static void check_dseg(const uint8_t *p, uint32_t bytes, uint32_t lkey, uint64_t addr)
{
	assert_int_equal(be32_at(p), bytes);
	assert_int_equal(be32_at(p + 4), lkey);
	assert_true(be64_at(p + 8) == addr);
}

/*
 * Six packets written in reverse order at the ring's last WQEBB, so that the WQE (DS 8, two
 * WQEBBs) wraps to slot 0: ctrl and Ethernet segment in the last slot with data segments 0-1,
 * data segments 2-5 in slot 0. Packet 3 is empty (0x80000000). The decoder reads it back.
 */
static void test_empw_wqe_bytes(void **state)
{
	struct cfx *f = *state;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t = efx_txq_start(f, 64, EFX_L3 | EFX_L4, &h);
	const uint32_t len[6] = {60, 100, 200, 0, 1400, 64};
	const uint32_t mask = h->qp.sq_wqe_mask;
	uint8_t *ring = (uint8_t *)h->qp.sq_wqe_daddr, *last = ring + (size_t)mask * 64;
	struct prm_wqe d;
	uint32_t i;
	int k;

	for (k = 5; k >= 0; k--)
		assert_int_equal(ogda_dev_eth_wqe_empw(h, ogda_dev_wqe_ptr(&h->qp, mask), mask, 6, (uint32_t)k,
						       0x100000u * (k + 1), opengda_mlx5_htobe32(0x500 + k), len[k],
						       DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY),
				 0);
	assert_int_equal(ogda_dev_eth_empw_wqebbs(6), 2);
	/* ctrl: opmod 0, WQE index, opcode 0x29; SQ number and DS 8; fm_ce_se CE always */
	assert_int_equal(last[0], 0);
	assert_int_equal(last[1] << 8 | last[2], mask & 0xffff);
	assert_int_equal(last[3], 0x29);
	assert_int_equal(be32_at(last + 4), h->qp.sq_num << 8 | 8u);
	assert_int_equal(last[11], OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE);
	/* Ethernet segment: cs_flags at byte 4 (L3 0x40 | L4 0x80), no inline header (bytes 12-13) */
	assert_int_equal(last[16 + 4], 0xc0);
	assert_int_equal(last[16 + 12] | last[16 + 13], 0);
	check_dseg(last + 32, 60, 0x500, 0x100000);
	check_dseg(last + 48, 100, 0x501, 0x200000);
	check_dseg(ring, 200, 0x502, 0x300000);
	assert_int_equal(be32_at(ring + 16), 0x80000000u); /* the empty packet */
	check_dseg(ring + 32, 1400, 0x504, 0x500000);
	check_dseg(ring + 48, 64, 0x505, 0x600000);

	assert_int_equal(prm_wqe_decode_eth(ring, (uint32_t)__builtin_ctz(mask + 1u), (uint16_t)mask, &d), DOCA_SUCCESS);
	assert_int_equal(d.opcode, OPENGDA_MLX5_OPCODE_ENHANCED_MPSW);
	assert_int_equal(d.wqebbs, 2);
	assert_true(d.has_eth);
	assert_int_equal(d.eth.cs_flags, 0xc0);
	assert_int_equal(d.ndata, 6);
	for (i = 0; i < 6; i++) {
		if (i == 3) {
			assert_int_equal(d.data[i].kind, PRM_WQE_DATA_INLINE);
			assert_int_equal(d.data[i].byte_count, 0);
			continue;
		}
		assert_int_equal(d.data[i].kind, PRM_WQE_DATA_PTR);
		assert_int_equal(d.data[i].byte_count, len[i]);
		assert_int_equal(d.data[i].lkey, 0x500 + i);
		assert_true(d.data[i].addr == 0x100000u * (i + 1));
	}
	efx_txq_destroy(t);
}

/* Writes the ctrl and Ethernet segments of an eMPW WQE by hand into w (index 1, SQ 0x1234). */
static void empw_image(uint8_t *w, uint8_t opmod, uint8_t ds, uint8_t inline_hdr_sz)
{
	memset(w, 0, 64);
	w[0] = opmod;
	w[1] = 0x00, w[2] = 0x01, w[3] = 0x29;
	w[4] = 0x00, w[5] = 0x12, w[6] = 0x34, w[7] = ds;
	w[16 + 4] = OPENGDA_MLX5_ETH_WQE_L4_CSUM;
	w[16 + 13] = inline_hdr_sz;
}

/* The decoder on hand-written images: one packet; and what it refuses. */
static void test_decode_empw_image(void **state)
{
	uint8_t ring[4 * 64] = {0};
	uint8_t *w = ring + 64;
	struct prm_wqe d;

	(void)state;
	empw_image(w, 0, 3, 0);
	w[32 + 3] = 90, w[32 + 7] = 9, w[32 + 13] = 0x40; /* 90 bytes, key 9, at 0x400000 */
	assert_int_equal(prm_wqe_decode_eth(ring, 2, 1, &d), DOCA_SUCCESS);
	assert_int_equal(d.ndata, 1);
	assert_int_equal(d.eth.cs_flags, OPENGDA_MLX5_ETH_WQE_L4_CSUM);
	assert_int_equal(d.data[0].byte_count, 90);
	assert_int_equal(d.data[0].lkey, 9);
	assert_true(d.data[0].addr == 0x400000);
	/* Not an opcode of an RC send queue. */
	TEST_EXPECT_ERR(prm_wqe_decode(ring, 2, 1, &d), DOCA_ERROR_NOT_SUPPORTED, "not supported");
	empw_image(w, 1, 3, 0);
	TEST_EXPECT_ERR(prm_wqe_decode_eth(ring, 2, 1, &d), DOCA_ERROR_NOT_SUPPORTED, "opmod 0x1");
	empw_image(w, 0, 3, 0);
	w[16 + 12] = 0, w[16 + 13] = 2; /* an inline header of two bytes */
	TEST_EXPECT_ERR(prm_wqe_decode_eth(ring, 2, 1, &d), DOCA_ERROR_INVALID_VALUE, "carries none");
	empw_image(w, 0, 2, 0);
	TEST_EXPECT_ERR(prm_wqe_decode_eth(ring, 2, 1, &d), DOCA_ERROR_INVALID_VALUE, "no data segment");
	empw_image(w, 0, 1, 0);
	TEST_EXPECT_ERR(prm_wqe_decode_eth(ring, 2, 1, &d), DOCA_ERROR_INVALID_VALUE, "too small");
}

/* Bad input to the device function: an error and not a byte of the ring written. */
static void test_empw_bad_input(void **state)
{
	struct cfx *f = *state;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t = efx_txq_start(f, 64, 0, &h);
	const size_t ring_len = (size_t)(h->qp.sq_wqe_mask + 1u) * 64;
	uint8_t *ring = (uint8_t *)h->qp.sq_wqe_daddr;
	struct doca_gpu_dev_verbs_wqe *w = ogda_dev_wqe_ptr(&h->qp, 0);
	const uint32_t key = opengda_mlx5_htobe32(1);

	memset(ring, 0xee, ring_len);
	assert_int_equal(ogda_dev_eth_wqe_empw(h, w, 0, 0, 0, 0x1000, key, 64, 0), -OPENGDA_DEV_EINVAL);
	assert_int_equal(ogda_dev_eth_wqe_empw(h, w, 0, 62, 0, 0x1000, key, 64, 0), -OPENGDA_DEV_EINVAL);
	assert_int_equal(ogda_dev_eth_wqe_empw(h, w, 0, 4, 4, 0x1000, key, 64, 0), -OPENGDA_DEV_EINVAL);
	assert_int_equal(ogda_dev_eth_wqe_empw(h, w, 0, 4, 1, 0x1000, key, 0x80000000u, 0), -OPENGDA_DEV_EINVAL);
	for (size_t i = 0; i < ring_len; i++)
		assert_int_equal(ring[i], 0xee);
	/* The limits themselves are accepted: 61 packets, the last of them. */
	assert_int_equal(ogda_dev_eth_wqe_empw(h, w, 0, 61, 60, 0x1000, key, 64, 0), 0);
	assert_int_equal(ogda_dev_eth_empw_wqebbs(61), 16);
	efx_txq_destroy(t);
}

/*
 * Executed by the software NIC with no port attached: every non-empty packet is one frame
 * (counted as dropped), one CQE for the NOTIFY WQE with the opcode 0x29 and the bytes of all
 * packets. Then the largest WQE: 61 packets in 16 WQEBBs.
 */
static void test_empw_unattached(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats before, after;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t = efx_txq_start(f, 64, EFX_L3 | EFX_L4, &h);
	uint32_t len[61], keys[61], mkey = 0, done = 0, k;
	struct doca_mmap *m = efx_buf_mmap(f, &mkey);
	uint64_t addr[61], base;

	for (k = 0; k < 61; k++) {
		addr[k] = (uint64_t)(uintptr_t)(f->buf + 1024u * k);
		len[k] = 60 + k;
		keys[k] = opengda_mlx5_htobe32(mkey);
	}
	len[2] = 0;
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
	base = efx_post_empw(h, 4, addr, len, keys, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
	assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done), 0);
	efx_check_req_cqe(h, h->qp.cq_sq.cqe_daddr, (uint16_t)base, 60 + 61 + 63, OPENGDA_MLX5_OPCODE_ENHANCED_MPSW);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &after), DOCA_SUCCESS);
	assert_true(after.tx_dropped == before.tx_dropped + 3);

	len[2] = 62;
	base = efx_post_empw(h, 61, addr, len, keys, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
	assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done), 0);
	efx_check_req_cqe(h, h->qp.cq_sq.cqe_daddr + 64, (uint16_t)base, 61 * 60 + 61 * 60 / 2,
			  OPENGDA_MLX5_OPCODE_ENHANCED_MPSW);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
	assert_true(before.tx_dropped == after.tx_dropped + 61);
	efx_mmap_destroy(m);
	efx_txq_destroy(t);
}

/*
 * A packet whose key fails ends the WQE with LOCAL_PROT (without NOTIFY too): the packet before
 * it left, none after it. Once for a key the NIC does not know, once for a range outside the MR.
 */
static void test_empw_bad_key(void **state)
{
	struct cfx *f = *state;
	uint32_t len[3] = {60, 70, 80}, keys[3], mkey = 0, done = 0, k;
	struct doca_mmap *m = efx_buf_mmap(f, &mkey);
	uint64_t addr[3];
	int pass;

	for (pass = 0; pass < 2; pass++) {
		struct opengda_eth_port_stats before, after;
		struct doca_gpu_eth_txq *h = NULL;
		struct doca_eth_txq *t = efx_txq_start(f, 64, 0, &h);
		const uint8_t *cqe = h->qp.cq_sq.cqe_daddr;

		for (k = 0; k < 3; k++) {
			addr[k] = (uint64_t)(uintptr_t)(f->buf + 256u * k);
			keys[k] = opengda_mlx5_htobe32(mkey);
		}
		if (pass == 0)
			keys[1] = opengda_mlx5_htobe32(0x7777);
		else
			addr[1] = (uint64_t)(uintptr_t)(f->buf + CFX_BUF_LEN - 10); /* runs 60 bytes past the MR */
		assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
		(void)efx_post_empw(h, 3, addr, len, keys, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
		assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done),
				 OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR));
		assert_int_equal(cqe[63] >> 4, OPENGDA_MLX5_CQE_REQ_ERR);
		assert_int_equal(cqe[OPENGDA_MLX5_ERR_CQE_SYNDROME], OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
		assert_int_equal(opengda_eth_port_get_stats(f->dev, &after), DOCA_SUCCESS);
		assert_true(after.tx_dropped == before.tx_dropped + 1); /* packet 0 only */
		efx_txq_destroy(t);
	}
	efx_mmap_destroy(m);
}

/*
 * An SQ created without sqc.allow_multi_pkt_send_wqe (the software NIC's flag is cleared, as a
 * CREATE_SQ without it leaves it) refuses the opcode: an error CQE with LOCAL_QP_OP and the
 * vendor reason BAD_OPCODE, no packet sent; the queue is in error afterwards.
 */
static void test_empw_without_allow(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats before, after;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t = efx_txq_start(f, 64, 0, &h);
	const uint8_t *cqe = h->qp.cq_sq.cqe_daddr;
	uint32_t len[2] = {60, 70}, keys[2], mkey = 0, done = 0;
	struct doca_mmap *m = efx_buf_mmap(f, &mkey);
	struct swnic *nic = NULL;
	struct swnic_qp *qp;
	uint64_t addr[2];

	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	qp = swnic_qp_acquire(nic, h->qp.sq_num);
	assert_non_null(qp);
	assert_true(qp->allow_multi_pkt_send); /* doca_eth_txq asks for it */
	qp->allow_multi_pkt_send = false;
	swnic_qp_release(qp);
	addr[0] = (uint64_t)(uintptr_t)f->buf;
	addr[1] = (uint64_t)(uintptr_t)(f->buf + 256);
	keys[0] = keys[1] = opengda_mlx5_htobe32(mkey);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
	(void)efx_post_empw(h, 2, addr, len, keys, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
	assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done),
			 OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR));
	assert_int_equal(cqe[63] >> 4, OPENGDA_MLX5_CQE_REQ_ERR);
	assert_int_equal(cqe[OPENGDA_MLX5_ERR_CQE_SYNDROME], OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	assert_int_equal(cqe[OPENGDA_MLX5_ERR_CQE_VENDOR_ERR_SYND], SWNIC_VSYND_BAD_OPCODE);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &after), DOCA_SUCCESS);
	assert_true(after.tx_dropped == before.tx_dropped && after.tx_packets == before.tx_packets);
	swnic_close(nic);
	efx_mmap_destroy(m);
	efx_txq_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_empw_wqe_bytes, cfx_setup, cfx_teardown),
		cmocka_unit_test(test_decode_empw_image),
		cmocka_unit_test_setup_teardown(test_empw_bad_input, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_empw_unattached, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_empw_bad_key, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_empw_without_allow, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
