/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The low-level pieces of the device data path: WQE builders against the include/opengda_mlx5.h
 * recipes (same WQE built both ways, byte for byte) and one golden image, per-slot readiness
 * out of order, the EXCLUSIVE submit with a caller's producer index, CQ polling (one, count,
 * collapsed, before the ring), masked atomics and the cross-channel WAIT on the software NIC.
 */
#include "dev_fixture.h"

#include <infiniband/verbs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define X OGDA_DEV_SHARE_EXCLUSIVE
#define G OGDA_DEV_SHARE_GPU
#define CQU OGDA_DEV_CQ_UPDATE
#define RING 8u
#define QPN 0x123456u
#define RKEY 0xaabbccddu
#define LKEY 0x01020304u

/* ---- WQE images: builders vs recipes ------------------------------------------------------- */

struct scratch {
	uint8_t *a, *b;                  /* a: device builders, b: recipes */
	struct doca_gpu_dev_verbs_qp qp; /* a view of ring a */
	struct opengda_mlx5_sq sq;       /* ring b for the recipes */
	uint64_t slots[RING];
};

static void scratch_init(struct scratch *s)
{
	memset(s, 0, sizeof(*s));
	s->a = aligned_alloc(64, RING * 64);
	s->b = aligned_alloc(64, RING * 64);
	assert_non_null(s->a);
	assert_non_null(s->b);
	s->qp.sq_num = QPN;
	s->qp.sq_num_shift8_be = opengda_mlx5_htobe32(QPN << 8);
	s->qp.sq_wqe_num = RING;
	s->qp.sq_wqe_mask = RING - 1;
	s->qp.sq_log_wqe_num = 3;
	s->qp.sq_wqe_daddr = s->a;
	s->qp.ogda_ready_slots = s->slots;
	s->sq.ring = s->b;
	s->sq.log_wqebbs = 3;
	s->sq.qpn = QPN;
}

static void scratch_reset(struct scratch *s)
{
	/* The same filler in both: bytes neither side writes must stay equal too. */
	memset(s->a, 0xa5, RING * 64);
	memset(s->b, 0xa5, RING * 64);
}

static void scratch_fini(struct scratch *s)
{
	free(s->a);
	free(s->b);
}

static uint32_t be(uint32_t v)
{
	return opengda_mlx5_htobe32(v);
}

static void test_wqe_golden(void **state)
{
	static const uint8_t expect[64] = {
		0x00, 0x23, 0x45, 0x08, 0x12, 0x34, 0x56, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, /* ctrl */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x00, 0x00, 0x00, /* raddr */
		0x00, 0x00, 0x10, 0x00, 0x01, 0x02, 0x03, 0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* data */
		0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5,
	};
	struct scratch s;
	uint64_t idx = 0x12345; /* 64-bit index: ctrl carries 0x2345, the slot is 5 */

	(void)state;
	scratch_init(&s);
	scratch_reset(&s);
	assert_ptr_equal(ogda_dev_wqe_ptr(&s.qp, idx), s.a + 5 * 64);
	ogda_dev_wqe_rdma(&s.qp, ogda_dev_wqe_ptr(&s.qp, idx), idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, CQU, 0,
			  0x1122334455667788ull, be(RKEY), 0x0102030405060708ull, be(LKEY), 0x1000, 0, 0, 0);
	assert_memory_equal(s.a + 5 * 64, expect, 64);
	assert_true(dfx_all(s.a, 5 * 64, 0xa5));
	assert_true(dfx_all(s.a + 6 * 64, 2 * 64, 0xa5));
	/* The doorbell for producer index 0x12346: {BE32(0x2346 << 8), BE32(qpn << 8)}. */
	{
		static const uint8_t db[8] = {0x00, 0x23, 0x46, 0x00, 0x12, 0x34, 0x56, 0x00};
		uint64_t v = ogda_dev_sq_db_value(&s.qp, idx + 1);

		assert_memory_equal(&v, db, 8);
		assert_int_equal(v, opengda_mlx5_qp_uar_db_value((uint16_t)(idx + 1), QPN));
	}
	scratch_fini(&s);
}

static void test_wqe_vs_recipes(void **state)
{
	const uint64_t raddr = 0x7f0011223340ull, laddr = 0x7f0099887760ull;
	uint8_t data[28];
	struct scratch s;

	(void)state;
	scratch_init(&s);
	for (uint32_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(0x40 + i);
	for (uint64_t idx = 0xfffe; idx < 0x10006; idx++) { /* across the 16-bit wrap and every slot */
		uint16_t w = (uint16_t)idx;
		uint8_t fm = (uint8_t)(idx & 1 ? CQU : (CQU | OPENGDA_MLX5_WQE_CTRL_FM_FENCE));
		struct doca_gpu_dev_verbs_wqe *p = ogda_dev_wqe_ptr(&s.qp, idx);

		scratch_reset(&s);
		ogda_dev_wqe_rdma(&s.qp, p, idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, fm, 0, raddr, be(RKEY), laddr, be(LKEY),
				  777, 0, 0, 0);
		assert_int_equal(opengda_mlx5_wqe_rdma_write(&s.sq, w, fm, raddr, RKEY, laddr, LKEY, 777), 3);
		assert_memory_equal(s.a, s.b, RING * 64);

		scratch_reset(&s);
		ogda_dev_wqe_rdma(&s.qp, p, idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM, fm, be(0xfeedf00d), raddr, be(RKEY),
				  laddr, be(LKEY), 9, 0, 0, 0);
		assert_int_equal(opengda_mlx5_wqe_rdma_write_imm(&s.sq, w, fm, raddr, RKEY, laddr, LKEY, 9, 0xfeedf00d), 3);
		assert_memory_equal(s.a, s.b, RING * 64);

		scratch_reset(&s);
		ogda_dev_wqe_rdma(&s.qp, p, idx, OPENGDA_MLX5_OPCODE_RDMA_READ, fm, 0, raddr, be(RKEY), laddr, be(LKEY),
				  1u << 30, 0, 0, 0);
		assert_int_equal(opengda_mlx5_wqe_rdma_read(&s.sq, w, fm, raddr, RKEY, laddr, LKEY, 1u << 30), 3);
		assert_memory_equal(s.a, s.b, RING * 64);

		/* Two gather entries: the one-entry recipe with DS 4 and a second data segment. */
		scratch_reset(&s);
		ogda_dev_wqe_rdma(&s.qp, p, idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, fm, 0, raddr, be(RKEY), laddr, be(LKEY), 64,
				  laddr + 4096, be(LKEY + 1), 32);
		assert_int_equal(opengda_mlx5_wqe_rdma_write(&s.sq, w, fm, raddr, RKEY, laddr, LKEY, 64), 3);
		((struct opengda_mlx5_wqe_ctrl_seg *)opengda_mlx5_sq_seg(&s.sq, w, 0))->qpn_ds = be(QPN << 8 | 4);
		assert_int_equal(opengda_mlx5_data_seg_write(opengda_mlx5_sq_seg(&s.sq, w, 3), 32, LKEY + 1, laddr + 4096), 0);
		assert_memory_equal(s.a, s.b, RING * 64);

		for (uint32_t len = 0; len <= DOCA_GPUNETIO_VERBS_MAX_INLINE_SIZE; len++) {
			scratch_reset(&s);
			ogda_dev_wqe_write_inl(&s.qp, p, idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, fm, 0, raddr, be(RKEY), data, len);
			assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&s.sq, w, fm, raddr, RKEY, data, len),
					 len <= 12 ? 3 : 4);
			assert_memory_equal(s.a, s.b, RING * 64);
		}

		scratch_reset(&s);
		ogda_dev_wqe_atomic(&s.qp, p, idx, OPENGDA_MLX5_OPCODE_ATOMIC_FA, fm, raddr, be(RKEY), laddr, be(LKEY),
				    0x0102030405060708ull, 0);
		assert_int_equal(opengda_mlx5_wqe_atomic_fa(&s.sq, w, fm, raddr, RKEY, 0x0102030405060708ull, laddr, LKEY), 4);
		assert_memory_equal(s.a, s.b, RING * 64);

		scratch_reset(&s);
		ogda_dev_wqe_atomic(&s.qp, p, idx, OPENGDA_MLX5_OPCODE_ATOMIC_CS, fm, raddr, be(RKEY), laddr, be(LKEY),
				    0x1111 /* swap */, 0x2222 /* compare */);
		assert_int_equal(opengda_mlx5_wqe_atomic_cs(&s.sq, w, fm, raddr, RKEY, 0x2222, 0x1111, laddr, LKEY), 4);
		assert_memory_equal(s.a, s.b, RING * 64);

		scratch_reset(&s);
		ogda_dev_wqe_nop(&s.qp, idx, fm);
		assert_int_equal(opengda_mlx5_wqe_nop(&s.sq, w, fm, 1), 1);
		assert_memory_equal(s.a, s.b, RING * 64);

		scratch_reset(&s);
		ogda_dev_wqe_dump(&s.qp, idx, fm, laddr, be(LKEY), 1);
		assert_int_equal(opengda_mlx5_wqe_dump(&s.sq, w, fm, laddr, LKEY, 1), 2);
		assert_memory_equal(s.a, s.b, RING * 64);

		scratch_reset(&s);
		ogda_dev_wqe_wait(&s.qp, idx, fm, 0xabcdef, 0x89abcdef);
		assert_int_equal(opengda_mlx5_wqe_wait_cq(&s.sq, w, fm, 0xabcdef, 0x89abcdef), 2);
		assert_memory_equal(s.a, s.b, RING * 64);

		scratch_reset(&s);
		assert_int_equal(ogda_dev_wqe_atomic_ext(&s.qp, idx, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 4, fm, raddr,
							 be(RKEY), laddr, be(LKEY), 0x00010001, 0, 0x8000, 0),
				 1);
		assert_int_equal(opengda_mlx5_wqe_masked_fa4(&s.sq, w, fm, raddr, RKEY, 0x00010001, 0x8000, laddr, LKEY), 4);
		assert_memory_equal(s.a, s.b, RING * 64);

		scratch_reset(&s);
		assert_int_equal(ogda_dev_wqe_atomic_ext(&s.qp, idx, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 8, fm, raddr,
							 be(RKEY), laddr, be(LKEY), 1, 0, 1ull << 31, 0),
				 1);
		assert_int_equal(opengda_mlx5_wqe_masked_fa8(&s.sq, w, fm, raddr, RKEY, 1, 1ull << 31, laddr, LKEY), 4);
		assert_memory_equal(s.a, s.b, RING * 64);

		scratch_reset(&s);
		assert_int_equal(ogda_dev_wqe_atomic_ext(&s.qp, idx, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 4, fm, raddr,
							 be(RKEY), laddr, be(LKEY), 0xab000000, 0x5678, 0xff000000, 0xffff),
				 1);
		assert_int_equal(opengda_mlx5_wqe_masked_cs4(&s.sq, w, fm, raddr, RKEY, 0x5678, 0xab000000, 0xffff,
							     0xff000000, laddr, LKEY),
				 4);
		assert_memory_equal(s.a, s.b, RING * 64);

		/* Two WQEBBs: from the last slot, its data segment lands in slot 0. */
		scratch_reset(&s);
		assert_int_equal(ogda_dev_wqe_atomic_ext(&s.qp, idx, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 8, fm, raddr,
							 be(RKEY), laddr, be(LKEY), 0x5555ull << 48, 0x33334444,
							 0xffffull << 48, 0xffffffff),
				 2);
		assert_int_equal(opengda_mlx5_wqe_masked_cs8(&s.sq, w, fm, raddr, RKEY, 0x33334444, 0x5555ull << 48,
							     0xffffffff, 0xffffull << 48, laddr, LKEY),
				 5);
		assert_memory_equal(s.a, s.b, RING * 64);
	}
	scratch_fini(&s);
}

/* ---- readiness ---------------------------------------------------------------------------- */

static void test_mark_ready_out_of_order(void **state)
{
	struct scratch s;
	uint64_t first_word;

	(void)state;
	scratch_init(&s);
	assert_int_equal(ogda_dev_sq_reserve(&s.qp, 3, G), 0);
	assert_int_equal(s.qp.sq_rsvd_index, 3);
	/* 2 first: published, but 0 and 1 are not, so the index stays and the caller does not ring. */
	assert_int_equal(ogda_dev_sq_mark_ready(&s.qp, 2, 2, G), 0);
	assert_int_equal(s.slots[2], 3);
	assert_int_equal(s.qp.sq_ready_index, 0);
	/* 0: the prefix is [0], 1 is still missing. */
	assert_int_equal(ogda_dev_sq_mark_ready(&s.qp, 0, 0, G), 1);
	assert_int_equal(s.qp.sq_ready_index, 1);
	/* 1 completes the prefix: its writer carries the index over 2 as well. */
	assert_int_equal(ogda_dev_sq_mark_ready(&s.qp, 1, 1, G), 1);
	assert_int_equal(s.qp.sq_ready_index, 3);
	assert_int_equal(ogda_dev_sq_advance_ready(&s.qp, G), 0);

	/* A full lap published backwards: slots still holding last lap's marks do not count. */
	assert_int_equal(ogda_dev_sq_reserve(&s.qp, RING, G), 3);
	for (uint64_t i = 3 + RING - 1; i > 3; i--) {
		assert_int_equal(ogda_dev_sq_mark_ready(&s.qp, i, i, G), 0);
		assert_int_equal(s.qp.sq_ready_index, 3);
	}
	assert_int_equal(s.slots[0], 9);  /* index 8 now, no longer index 0 */
	assert_int_equal(ogda_dev_sq_mark_ready(&s.qp, 3, 3, G), 1);
	assert_int_equal(s.qp.sq_ready_index, 3 + RING);

	/* A range at once: one word, at the range's first slot, says where it ends. */
	assert_int_equal(ogda_dev_sq_reserve(&s.qp, 4, G), 11);
	assert_int_equal(ogda_dev_sq_mark_ready(&s.qp, 13, 14, G), 0);
	assert_int_equal(s.slots[13 % RING], 15);
	assert_int_equal(s.slots[14 % RING], 7); /* untouched: index 6's word from the lap before */
	assert_int_equal(s.qp.sq_ready_index, 11);
	/* First in line: the index moves past it with one CAS (no word written), then over 13..14. */
	first_word = s.slots[11 % RING];
	assert_int_equal(ogda_dev_sq_mark_ready(&s.qp, 11, 12, G), 1);
	assert_int_equal(s.slots[11 % RING], first_word);
	assert_int_equal(s.qp.sq_ready_index, 15);

	/* A word naming more than a ring past its slot is not current, whatever lap wrote it. */
	assert_int_equal(ogda_dev_sq_reserve(&s.qp, 1, G), 15);
	s.slots[16 % RING] = 16 + RING + 1;
	assert_int_equal(ogda_dev_sq_mark_ready(&s.qp, 15, 15, G), 1);
	assert_int_equal(s.qp.sq_ready_index, 16);

	/* EXCLUSIVE: the caller's range is the prefix; no slot words are written. */
	memset(s.slots, 0, sizeof(s.slots));
	assert_int_equal(ogda_dev_sq_reserve(&s.qp, 2, X), 16);
	assert_int_equal(ogda_dev_sq_mark_ready(&s.qp, 16, 17, X), 1);
	assert_int_equal(s.qp.sq_ready_index, 18);
	for (uint32_t i = 0; i < RING; i++)
		assert_int_equal(s.slots[i], 0);
	scratch_fini(&s);
}

/* ---- NIC-backed pieces -------------------------------------------------------------------- */

/* Polls WQE idx until done or 5 s pass (each poll non-blocking). */
static int poll_until_done(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx)
{
	uint64_t end = dfx_now_ns() + 5000000000ull;
	int rc;

	while ((rc = ogda_dev_cq_poll_one_at(&qp->cq_sq, idx, G)) == OPENGDA_DEV_EBUSY && dfx_now_ns() < end)
		dfx_sleep_ms(1);
	return rc;
}

static void test_submit_exclusive(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t base = ogda_dev_sq_reserve(qp, 3, X);

	assert_int_equal(base, 0);
	dfx_fill(f->src.addr, 3 * 128, 8);
	memset(f->remote.addr, 0x33, 3 * 128);
	for (uint64_t k = 0; k < 3; k++)
		assert_int_equal(ogda_dev_prep_xfer(qp, k, OPENGDA_MLX5_OPCODE_RDMA_WRITE, dfx_raddr(&f->remote, 128 * k),
						    dfx_laddr(&f->src, 128 * k), 128),
				 1);
	assert_int_equal(ogda_dev_sq_mark_ready(qp, 0, 2, X), 1);
	assert_int_equal(qp->sq_ready_index, 3);
	/* The caller's producer index is rung as given, even below what is published. */
	ogda_dev_sq_submit(qp, 2, X, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	assert_int_equal(qp->sq_wqe_pi, 2);
	assert_int_equal(dfx_sq_dbr(&f->lane[0]), dfx_dbr_expect(2));
	assert_int_equal(__atomic_load_n(qp->sq_db, __ATOMIC_ACQUIRE), ogda_dev_sq_db_value(qp, 2));
	assert_int_equal(poll_until_done(qp, 1), 0);
	dfx_sleep_ms(20);
	assert_int_equal(ogda_dev_cq_poll_one_at(&qp->cq_sq, 2, X), OPENGDA_DEV_EBUSY);
	assert_int_equal(dfx_check(f->remote.addr, 256, 8), -1);
	assert_true(dfx_all(f->remote.addr + 256, 128, 0x33));
	/* An index not beyond the last rung changes nothing. */
	ogda_dev_sq_submit(qp, 2, X, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	ogda_dev_sq_submit(qp, 1, X, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	assert_int_equal(qp->sq_wqe_pi, 2);
	assert_int_equal(dfx_sq_dbr(&f->lane[0]), dfx_dbr_expect(2));
	ogda_dev_sq_submit(qp, 3, X, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	assert_int_equal(qp->sq_wqe_pi, 3);
	assert_int_equal(dfx_sq_dbr(&f->lane[0]), dfx_dbr_expect(3));
	assert_int_equal(ogda_dev_op_wait(qp, 2, X), 0);
	assert_int_equal(dfx_check(f->remote.addr, 3 * 128, 8), -1);
}

static void test_poll_before_ring(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t t = UINT64_MAX;

	assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), 64, G,
					 DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING, &t),
			 0);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(ogda_dev_cq_poll_one_at(&qp->cq_sq, t, G), OPENGDA_DEV_EBUSY);
		dfx_sleep_ms(1);
	}
	/* The entry is still the NIC's: opcode INVALID. */
	assert_int_equal(opengda_mlx5_cqe_opcode(dfx_cqe(qp, t)), OPENGDA_MLX5_CQE_INVALID);
	assert_int_equal(qp->cq_sq.cqe_ci, 0);
	ogda_dev_sq_submit(qp, t + 1, G, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	assert_int_equal(poll_until_done(qp, t), 0);
	assert_int_equal(qp->cq_sq.cqe_ci, 1);
}

static void test_poll_count(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	struct doca_gpu_dev_verbs_cq shadow;
	struct doca_gpu_dev_verbs_addr bad = dfx_raddr(&f->remote, 0);
	uint64_t t = UINT64_MAX;

	for (uint64_t k = 0; k < 4; k++)
		assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 64 * k), dfx_laddr(&f->src, 0), 64, X,
						 (uint32_t)qp->nic_handler, 0, &t),
				 0);
	/* Wait on a copy of the CQ so the real one still has all four to consume. */
	shadow = qp->cq_sq;
	assert_int_equal(ogda_dev_cq_poll_at(&shadow, 3, X), 0);
	assert_int_equal(qp->cq_sq.cqe_ci, 0);
	assert_int_equal(ogda_dev_cq_poll_count(&qp->cq_sq, 2, X), 2);
	assert_int_equal(qp->cq_sq.cqe_ci, 2);
	assert_int_equal(ogda_dev_cq_poll_count(&qp->cq_sq, 10, X), 2);
	assert_int_equal(qp->cq_sq.cqe_ci, 4);
	assert_int_equal(ogda_dev_cq_poll_count(&qp->cq_sq, 10, X), 0);

	/* An error CQE: returned with its syndrome, and the consumer index stops in front of it. */
	bad.key = opengda_mlx5_htobe32(f->remote.rkey ^ 0x00ffff00u);
	assert_int_equal(ogda_dev_op_put(qp, bad, dfx_laddr(&f->src, 0), 64, X, (uint32_t)qp->nic_handler, 0, &t), 0);
	assert_int_equal(t, 4);
	shadow = qp->cq_sq;
	assert_int_equal(ogda_dev_cq_poll_at(&shadow, 4, X), OPENGDA_DEV_CQE_ERROR(0x13));
	assert_int_equal(ogda_dev_cq_poll_count(&qp->cq_sq, 10, X), OPENGDA_DEV_CQE_ERROR(0x13));
	assert_int_equal(qp->cq_sq.cqe_ci, 4);
}

static void test_collapsed(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	const struct opengda_mlx5_cqe64 *entry0 = (const struct opengda_mlx5_cqe64 *)(void *)qp->cq_sq.cqe_daddr;
	uint64_t t = UINT64_MAX;

	assert_true(qp->cq_sq.ogda_flags & OPENGDA_DEV_CQ_FLAG_COLLAPSED);
	assert_int_equal(qp->cq_sq.cqe_num, 1);
	for (uint64_t k = 0; k < 5; k++)
		assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 64 * k), dfx_laddr(&f->src, 64 * k), 64, X,
						 (uint32_t)qp->nic_handler, 0, &t),
				 0);
	assert_int_equal(ogda_dev_cq_poll_collapsed_at(qp, 4, X), 0);
	assert_int_equal(qp->cq_sq.cqe_ci, 5);
	/* Entry 0 is published with one 4-byte release store of its tail: read it the same way. */
	{
		uint32_t tail = __atomic_load_n((const uint32_t *)(const void *)&entry0->wqe_counter, __ATOMIC_ACQUIRE);
		struct opengda_mlx5_cqe64 img;

		memcpy(&img.wqe_counter, &tail, 4);
		assert_int_equal(opengda_mlx5_cqe_wqe_counter(&img), 4);
		assert_int_equal(opengda_mlx5_cqe_opcode(&img), OPENGDA_MLX5_CQE_REQ);
	}
	assert_int_equal(ogda_dev_cq_poll_collapsed_at(qp, 1, X), 0);
	/* Beyond what was rung: not yet, whatever entry 0 holds. */
	assert_int_equal(ogda_dev_cq_poll_one_collapsed_at(&qp->cq_sq, 5, qp->sq_wqe_pi, X), OPENGDA_DEV_EBUSY);
	/* The entry's 16-bit counter is placed below the producer index it was rung with. */
	assert_int_equal(ogda_dev_cq_poll_one_collapsed_at(&qp->cq_sq, 4, 5, X), 0);

	/* Ten laps of the 16-WQEBB ring through the collapsed wait, every byte checked. */
	dfx_fill(f->src.addr, 160 * 64, 21);
	memset(f->remote.addr, 0x33, 160 * 64);
	for (uint64_t k = 0; k < 160; k++) {
		assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 64 * k), dfx_laddr(&f->src, 64 * k), 64, G,
						 DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &t),
				 0);
		assert_int_equal(t, 5 + k);
	}
	assert_int_equal(ogda_dev_op_wait_all(qp, G), 0);
	assert_int_equal(qp->cq_sq.cqe_ci, 165);
	assert_int_equal(opengda_mlx5_cqe_wqe_counter(entry0), 164);
	assert_int_equal(dfx_check(f->remote.addr, 160 * 64, 21), -1);
}

/* Posts one WQE built by ogda_dev_wqe_atomic_ext at the next index and waits for CQE cqe_idx. */
static void post_masked(struct doca_gpu_dev_verbs_qp *qp, uint64_t cqe_idx, uint8_t opcode, uint32_t bytes,
			struct doca_gpu_dev_verbs_addr r, struct doca_gpu_dev_verbs_addr l, uint64_t value,
			uint64_t compare, uint64_t value_mask, uint64_t compare_mask)
{
	uint32_t n = opcode == OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS && bytes == 8 ? 2 : 1;
	uint64_t base = ogda_dev_sq_reserve(qp, n, X);

	assert_int_equal(ogda_dev_wqe_atomic_ext(qp, base, opcode, bytes, CQU, r.addr, r.key, l.addr, l.key, value,
						 compare, value_mask, compare_mask),
			 n);
	assert_int_equal(opengda_mlx5_ctrl_opmod(dfx_ctrl(qp, base)), bytes == 4 ? 0x08 : 0x09);
	assert_int_equal(ogda_dev_sq_mark_ready(qp, base, base + n - 1, X), 1);
	ogda_dev_sq_submit(qp, base + n, X, (uint32_t)qp->nic_handler);
	assert_int_equal(ogda_dev_op_wait(qp, cqe_idx, X), 0);
}

static void test_masked_atomics(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint32_t *r4 = (uint32_t *)(void *)f->remote.addr, *l4 = (uint32_t *)(void *)f->dst.addr;
	uint64_t *r8 = (uint64_t *)(void *)(f->remote.addr + 64), *l8 = (uint64_t *)(void *)(f->dst.addr + 64);
	struct opengda_mlx5_cqe_fields c;

	/* 4-byte FA with a field boundary at bit 15: the low field wraps, its carry is dropped. */
	*r4 = 0x0001ffff;
	post_masked(qp, 0, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 4, dfx_raddr(&f->remote, 0), dfx_laddr(&f->dst, 0),
		    0x00010001, 0, 0x00008000, 0);
	assert_int_equal(*r4, 0x00020000);
	assert_int_equal(*l4, opengda_mlx5_htobe32(0x0001ffff)); /* 4-byte results come back big-endian */
	opengda_mlx5_cqe_read(dfx_cqe(qp, 0), &c);
	assert_int_equal(c.wqe_opcode, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA);
	assert_int_equal(c.byte_cnt, 4);

	/* 8-byte FA, boundary at bit 31; and with no boundary, a plain add. */
	*r8 = 0x00000000ffffffffull;
	post_masked(qp, 1, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 8, dfx_raddr(&f->remote, 64), dfx_laddr(&f->dst, 64), 1,
		    0, 1ull << 31, 0);
	assert_int_equal(*r8, 0);
	assert_int_equal(*l8, 0x00000000ffffffffull);
	*r8 = 0x00000000ffffffffull;
	post_masked(qp, 2, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 8, dfx_raddr(&f->remote, 64), dfx_laddr(&f->dst, 64), 1,
		    0, 0, 0);
	assert_int_equal(*r8, 0x0000000100000000ull);

	/* 4-byte CS comparing the low half only, swapping the top byte only; then a mismatch. */
	*r4 = 0x12345678;
	post_masked(qp, 3, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 4, dfx_raddr(&f->remote, 0), dfx_laddr(&f->dst, 0),
		    0xab000000, 0x00005678, 0xff000000, 0x0000ffff);
	assert_int_equal(*r4, 0xab345678);
	assert_int_equal(*l4, opengda_mlx5_htobe32(0x12345678));
	post_masked(qp, 4, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 4, dfx_raddr(&f->remote, 0), dfx_laddr(&f->dst, 0),
		    0x00000000, 0x00001111, 0xffffffff, 0x0000ffff);
	assert_int_equal(*r4, 0xab345678);
	assert_int_equal(*l4, opengda_mlx5_htobe32(0xab345678));

	/* 8-byte CS: two WQEBBs, one CQE (the CQE index is no longer the WQE index after it). */
	*r8 = 0x1111222233334444ull;
	post_masked(qp, 5, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 8, dfx_raddr(&f->remote, 64), dfx_laddr(&f->dst, 64),
		    0x5555ull << 48, 0x33334444, 0xffffull << 48, 0xffffffffull);
	assert_int_equal(*r8, 0x5555222233334444ull);
	assert_int_equal(*l8, 0x1111222233334444ull);
	assert_int_equal(qp->sq_wqe_pi, 7);
	opengda_mlx5_cqe_read(dfx_cqe(qp, 5), &c);
	assert_int_equal(c.wqe_opcode, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS);
	assert_int_equal(c.wqe_counter, 5);
	assert_int_equal(c.byte_cnt, 8);
}

static void test_wait_wqe(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0), *cp = dfx_comp(f);
	uint64_t *counter = (uint64_t *)(void *)(f->remote.addr + 65536);
	uint64_t t = UINT64_MAX;
	struct opengda_mlx5_cqe_fields c;

	/* Companion: WAIT until the main CQ produced its CQE index 1, then add 3 to the counter. */
	*counter = 0;
	assert_int_equal(ogda_dev_sq_reserve(cp, 2, X), 0);
	ogda_dev_wqe_wait(cp, 0, CQU, qp->cq_sq.cq_num, 1);
	assert_int_equal(ogda_dev_prep_signal(cp, 1, dfx_raddr(&f->remote, 65536), dfx_laddr(&f->dst, 0), 3), 1);
	assert_int_equal(ogda_dev_sq_mark_ready(cp, 0, 1, X), 1);
	ogda_dev_sq_submit(cp, 2, X, (uint32_t)cp->nic_handler);
	dfx_sleep_ms(20);
	assert_int_equal(ogda_dev_cq_poll_one_at(&cp->cq_sq, 0, X), OPENGDA_DEV_EBUSY);
	/* One main CQE (index 0) is not enough. */
	assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), 64, X,
					 (uint32_t)qp->nic_handler, 0, &t),
			 0);
	assert_int_equal(ogda_dev_op_wait(qp, t, X), 0);
	dfx_sleep_ms(20);
	assert_int_equal(ogda_dev_cq_poll_one_at(&cp->cq_sq, 0, X), OPENGDA_DEV_EBUSY);
	assert_int_equal(__atomic_load_n(counter, __ATOMIC_ACQUIRE), 0);
	/* The second one releases the WAIT. */
	assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 64), dfx_laddr(&f->src, 0), 64, X,
					 (uint32_t)qp->nic_handler, 0, &t),
			 0);
	assert_int_equal(ogda_dev_op_wait(cp, 1, X), 0);
	assert_int_equal(*counter, 3);
	opengda_mlx5_cqe_read(dfx_cqe(cp, 0), &c);
	assert_int_equal(c.wqe_opcode, OPENGDA_MLX5_OPCODE_WAIT);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);

	/* A QP that is not a core-direct master may not WAIT: LOCAL_QP_OP_ERR. */
	assert_int_equal(ogda_dev_sq_reserve(qp, 1, X), 2);
	ogda_dev_wqe_wait(qp, 2, CQU, cp->cq_sq.cq_num, 0);
	assert_int_equal(ogda_dev_sq_mark_ready(qp, 2, 2, X), 1);
	ogda_dev_sq_submit(qp, 3, X, (uint32_t)qp->nic_handler);
	assert_int_equal(ogda_dev_op_wait(qp, 2, X), OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR));
}

#define H(x) DOCA_GPUNETIO_VERBS_NIC_HANDLER_##x
#define M(x) DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_##x

static struct dfx_cfg cfg_db = {.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 16};
static struct dfx_cfg cfg_companion = {
	.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 16, .companion = true};
static struct dfx_cfg cfg_collapsed = {
	.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 16, .cq_collapsed = true, .cq_entries = 1};

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wqe_golden),
		cmocka_unit_test(test_wqe_vs_recipes),
		cmocka_unit_test(test_mark_ready_out_of_order),
		DFX_CASE(test_submit_exclusive, cfg_db),
		DFX_CASE(test_poll_before_ring, cfg_db),
		DFX_CASE(test_poll_count, cfg_db),
		DFX_CASE(test_collapsed, cfg_collapsed),
		DFX_CASE(test_masked_atomics, cfg_db),
		DFX_CASE(test_wait_wqe, cfg_companion),
	};

	return cmocka_run_group_tests_name("device data path, low level", tests, NULL, NULL);
}
