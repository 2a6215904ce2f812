/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two-sided device operations (include/device/ogda_dev_send.h, ogda_dev_rq.h) on host threads
 * against the software NIC: B posts receives from "device code", A sends; bytes, immediates,
 * CQE fields, ring wrap, RNR and receive-side errors, shared queues with several threads.
 */
#include "dev_fixture.h"

#include "device/ogda_dev_send.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#define GPU OGDA_DEV_SHARE_GPU
#define EXCL OGDA_DEV_SHARE_EXCLUSIVE
#define AUTO DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO

static struct dfx_cfg two = {.rq_wqes = 16, .sq_wqebbs = 64};
static struct dfx_cfg two_small = {.rq_wqes = 4, .sq_wqebbs = 8};
static struct dfx_cfg two_sges = {.rq_wqes = 8, .sq_wqebbs = 16, .rq_sges = 4};
static struct dfx_cfg two_rnr = {.rq_wqes = 8, .sq_wqebbs = 16, .rnr_no_retry = true};
static struct dfx_cfg two_inline = {.rq_wqes = 8, .sq_wqebbs = 16, .cqe_inline = true};
static struct dfx_cfg two_srq = {.srq_wqes = 16, .sq_wqebbs = 16, .nqp = 3};

static struct dfx_lane *lane0(struct dfx *f)
{
	return &f->lane[0];
}

/* Receives on B's RQ as device code posts them. */
static int recv_b(struct dfx *f, size_t off, uint32_t len, int sharing, uint64_t *ticket)
{
	struct ogda_dev_rq rq = ogda_dev_qp_rq(lane0(f)->dqp_b);

	return ogda_dev_rq_op_recv(&rq, dfx_laddr(&f->dst, off), len, sharing, ticket);
}

static void expect_cqe(const struct opengda_mlx5_cqe64 *cqe, uint8_t opcode, uint32_t bytes, uint32_t qpn)
{
	assert_int_equal(opengda_mlx5_cqe_opcode(cqe), opcode);
	assert_int_equal(opengda_mlx5_cqe_byte_cnt(cqe), bytes);
	assert_int_equal(opengda_mlx5_cqe_qpn(cqe), qpn);
}

/* Messages of several sizes land where their receives point; CQE fields as the NIC writes them. */
static void test_send_recv_bytes(void **state)
{
	static const uint32_t sizes[] = {1, 13, 64, 4096, 0, 65536};
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	size_t off = 0;

	for (uint32_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++, off += 70000) {
		struct opengda_mlx5_cqe64 *cqe = NULL;
		uint64_t rt = 99, st = 99;

		dfx_fill(f->src.addr + off, sizes[i], i + 1);
		assert_int_equal(recv_b(f, off, 70000, EXCL, &rt), 0);
		assert_int_equal(rt, i);
		assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, off), sizes[i], GPU, AUTO, 0, &st), 0);
		assert_int_equal(ogda_dev_op_wait(l->dqp, st, GPU), 0);
		assert_int_equal(ogda_dev_op_recv_wait(l->dqp_b, dfx_laddr(&f->dst, 0), rt, 0, 1, EXCL, AUTO, &cqe), 0);
		assert_non_null(cqe);
		expect_cqe(cqe, OPENGDA_MLX5_CQE_RESP_SEND, sizes[i], l->qpn_b);
		assert_int_equal(opengda_mlx5_cqe_wqe_counter(cqe), (uint16_t)rt);
		assert_int_equal(dfx_check(f->dst.addr + off, sizes[i], i + 1), -1);
		/* Nothing beyond the message. */
		assert_true(dfx_all(f->dst.addr + off + sizes[i], 16, 0x22));
	}
	/* The record holds the producer index; no receive is left posted. */
	assert_int_equal(l->dqp_b->rq_wqe_pi, 6);
	assert_int_equal(l->dqp_b->cq_rq.cqe_ci, 6);
}

/* SEND_IMM with 0, 1 and 3 gather entries: immediate, byte count, gathered bytes in order. */
static void test_send_imm_sges(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	struct ogda_dev_sge sge[3];
	uint32_t lens[3] = {5, 100, 27}, total = 0;

	for (uint32_t k = 0; k < 3; k++) {
		dfx_fill(f->src.addr + 1000 * k, lens[k], 40 + k);
		sge[k].addr = (uint64_t)(uintptr_t)(f->src.addr + 1000 * k);
		sge[k].lkey_be = opengda_mlx5_htobe32(f->src.lkey);
		sge[k].bytes = lens[k];
	}
	for (uint32_t nsge = 0; nsge <= 3; nsge += (nsge == 1 ? 2 : 1)) {
		struct opengda_mlx5_cqe64 *cqe = NULL;
		uint32_t imm = 0xa0b0c000u + nsge;
		uint64_t rt, st;

		memset(f->dst.addr, 0x22, 4096);
		assert_int_equal(recv_b(f, 0, 4096, GPU, &rt), 0);
		assert_int_equal(ogda_dev_op_send_imm(l->dqp, sge, nsge, opengda_mlx5_htobe32(imm), GPU, AUTO, 0, &st), 0);
		assert_int_equal(ogda_dev_op_recv_wait(l->dqp_b, dfx_laddr(&f->dst, 0), rt, 0, 1, GPU, AUTO, &cqe), 0);
		total = 0;
		for (uint32_t k = 0; k < nsge; k++)
			total += lens[k];
		expect_cqe(cqe, OPENGDA_MLX5_CQE_RESP_SEND_IMM, total, l->qpn_b);
		assert_int_equal(opengda_mlx5_cqe_imm(cqe), imm);
		for (uint32_t k = 0, at = 0; k < nsge; at += lens[k], k++)
			assert_int_equal(dfx_check(f->dst.addr + at, lens[k], 40 + k), -1);
		assert_true(dfx_all(f->dst.addr + total, 32, 0x22));
		assert_int_equal(ogda_dev_op_wait(l->dqp, st, GPU), 0);
	}
}

/* Many more receives than the RQ holds: slots are reused once their receive completed. */
static void test_ring_wrap(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);

	for (uint32_t i = 0; i < 40; i++) {
		uint64_t rt, st;
		uint32_t len = 8 + i;

		dfx_fill(f->src.addr, len, 100 + i);
		assert_int_equal(recv_b(f, 256 * (i % 4), 256, GPU, &rt), 0);
		assert_int_equal(rt, i);
		assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, 0), len, GPU, AUTO, 0, &st), 0);
		assert_int_equal(ogda_dev_recv_wait_index(l->dqp_b, rt, GPU), 0);
		assert_int_equal(dfx_check(f->dst.addr + 256 * (i % 4), len, 100 + i), -1);
		assert_int_equal(opengda_mlx5_cqe_byte_cnt(ogda_dev_recv_cqe(l->dqp_b, rt)), len);
		assert_int_equal(ogda_dev_op_wait(l->dqp, st, GPU), 0);
	}
	/* The RQ is full: a fifth receive must wait for the first one's completion, which comes. */
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(recv_b(f, 256 * i, 256, GPU, NULL), 0);
	{
		uint64_t st;

		assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, 0), 8, GPU, AUTO, 0, &st), 0);
		assert_int_equal(recv_b(f, 0, 256, GPU, NULL), 0);
		assert_int_equal(ogda_dev_recv_wait_index(l->dqp_b, 40, GPU), 0);
	}
}

/* Receive entries of several segments: the device posts one and terminates the list. */
static void test_multi_sge_entries(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	uint64_t rt, st;

	assert_int_equal(l->dqp_b->rcv_wqe_size, 64);
	dfx_fill(f->src.addr, 300, 7);
	assert_int_equal(recv_b(f, 0, 512, GPU, &rt), 0);
	assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, 0), 300, GPU, AUTO, 0, &st), 0);
	assert_int_equal(ogda_dev_recv_wait_index(l->dqp_b, rt, GPU), 0);
	assert_int_equal(dfx_check(f->dst.addr, 300, 7), -1);
}

/* Non-blocking recv_wait says EBUSY before the message, 0 after; MCST (DUMP on B's SQ) too. */
static void test_recv_wait_modes(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	struct opengda_mlx5_cqe64 *cqe = NULL;
	uint64_t rt, st, sq_before;

	assert_int_equal(recv_b(f, 0, 64, GPU, &rt), 0);
	assert_int_equal(ogda_dev_op_recv_wait(l->dqp_b, dfx_laddr(&f->dst, 0), rt, 0, 0, GPU, AUTO, &cqe),
			 OPENGDA_DEV_EBUSY);
	assert_null(cqe);
	dfx_fill(f->src.addr, 48, 3);
	assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, 0), 48, GPU, AUTO, 0, &st), 0);
	sq_before = l->dqp_b->sq_rsvd_index;
	assert_int_equal(ogda_dev_op_recv_wait(l->dqp_b, dfx_laddr(&f->dst, 0), rt, 1, 1, GPU, AUTO, &cqe), 0);
	/* The fence was one DUMP on B's send queue, completed. */
	assert_int_equal(l->dqp_b->sq_rsvd_index, sq_before + 1);
	assert_int_equal(dfx_ctrl(l->dqp_b, sq_before)->opmod_idx_opcode & opengda_mlx5_htobe32(0xff),
			 opengda_mlx5_htobe32(OPENGDA_MLX5_OPCODE_DUMP));
	assert_true(l->dqp_b->cq_sq.cqe_ci > sq_before);
	expect_cqe(cqe, OPENGDA_MLX5_CQE_RESP_SEND, 48, l->qpn_b);
	assert_int_equal(dfx_check(f->dst.addr, 48, 3), -1);
}

/* No receive posted and no RNR retry: the sender's completion says RNR_RETRY_EXC. */
static void test_rnr(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	uint64_t st;
	int rc;

	assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, 0), 16, GPU, AUTO, 0, &st), 0);
	rc = ogda_dev_op_wait(l->dqp, st, GPU);
	assert_true(OPENGDA_DEV_IS_CQE_ERROR(rc));
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR);
}

/*
 * A message longer than its receive: the receive completes with LOCAL_LENGTH (RESP_ERR), the
 * sender with a remote error, and a receive posted after it is flushed: no wait hangs.
 */
static void test_recv_length_error(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	struct opengda_mlx5_cqe64 *cqe = NULL;
	uint64_t rt, rt2, st;
	int rc;

	assert_int_equal(recv_b(f, 0, 8, GPU, &rt), 0);
	assert_int_equal(recv_b(f, 64, 64, GPU, &rt2), 0);
	assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, 0), 64, GPU, AUTO, 0, &st), 0);
	rc = ogda_dev_op_recv_wait(l->dqp_b, dfx_laddr(&f->dst, 0), rt, 0, 1, GPU, AUTO, &cqe);
	assert_true(OPENGDA_DEV_IS_CQE_ERROR(rc));
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
	assert_non_null(cqe);
	assert_true(opengda_mlx5_cqe_is_error(cqe));
	assert_int_equal(opengda_mlx5_cqe_opcode(cqe), OPENGDA_MLX5_CQE_RESP_ERR);
	rc = ogda_dev_recv_wait_index(l->dqp_b, rt2, GPU);
	assert_true(OPENGDA_DEV_IS_CQE_ERROR(rc));
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	rc = ogda_dev_op_wait(l->dqp, st, GPU);
	assert_true(OPENGDA_DEV_IS_CQE_ERROR(rc));
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	/* The first error is on record for the host. */
	assert_int_equal(l->dqp_b->cq_rq.ogda_first_error >> 16 & 0xff, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
}

/* A receive whose lkey is wrong: LOCAL_PROT on the receive side, a remote operation error at the sender. */
static void test_recv_bad_lkey(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	struct ogda_dev_rq rq = ogda_dev_qp_rq(l->dqp_b);
	struct doca_gpu_dev_verbs_addr bad = dfx_laddr(&f->dst, 0);
	uint64_t rt, st;
	int rc;

	bad.key = opengda_mlx5_htobe32(f->dst.lkey ^ 0x5500u);
	assert_int_equal(ogda_dev_rq_op_recv(&rq, bad, 64, GPU, &rt), 0);
	assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, 0), 32, GPU, AUTO, 0, &st), 0);
	rc = ogda_dev_recv_wait_index(l->dqp_b, rt, GPU);
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	rc = ogda_dev_op_wait(l->dqp, st, GPU);
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR);
}

/* ---- shared queues: several threads post receives and sends at once ------------------------- */

#define MT_THREADS 4u
#define MT_PER 24u
#define MT_LEN 16u

struct mt_arg {
	struct dfx *f;
	uint32_t id;
	int rc;
};

/* Low-level posting: the address depends on the index reserved (receive i lands at i * MT_LEN). */
static void *mt_recv_main(void *p)
{
	struct mt_arg *a = p;
	struct ogda_dev_rq rq = ogda_dev_qp_rq(lane0(a->f)->dqp_b);

	for (uint32_t i = 0; i < MT_PER && a->rc == 0; i++) {
		uint64_t base;

		a->rc = ogda_dev_rq_post_begin(&rq, 1, GPU, &base);
		if (a->rc != 0)
			break;
		ogda_dev_rwqe_write(&rq, ogda_dev_rwqe_ptr(&rq, base), (uint64_t)(uintptr_t)(a->f->dst.addr + base * MT_LEN),
				    opengda_mlx5_htobe32(a->f->dst.lkey), MT_LEN);
		a->rc = ogda_dev_rq_post_end(&rq, base, 1, GPU);
	}
	return NULL;
}

static void *mt_send_main(void *p)
{
	struct mt_arg *a = p;
	struct dfx_lane *l = lane0(a->f);

	for (uint32_t i = 0; i < MT_PER && a->rc == 0; i++) {
		size_t off = (a->id * MT_PER + i) * MT_LEN;
		uint64_t t;

		a->rc = ogda_dev_op_send(l->dqp, dfx_laddr(&a->f->src, off), MT_LEN, GPU, AUTO, 0, &t);
	}
	return NULL;
}

static void run_threads(struct dfx *f, void *(*fn)(void *), struct mt_arg *args)
{
	pthread_t th[MT_THREADS];

	for (uint32_t t = 0; t < MT_THREADS; t++) {
		args[t] = (struct mt_arg){f, t, 0};
		assert_int_equal(pthread_create(&th[t], NULL, fn, &args[t]), 0);
	}
	for (uint32_t t = 0; t < MT_THREADS; t++) {
		assert_int_equal(pthread_join(th[t], NULL), 0);
		assert_int_equal(args[t].rc, 0);
	}
}

/*
 * Receives posted by 4 threads at once (GPU sharing), in a queue smaller than their number, with
 * 4 threads sending: every receive index is posted once, every message arrives exactly once.
 * Receive entries take the whole of dst by index, so the message of receive i is at i * MT_LEN.
 */
static void test_shared_threads(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	struct mt_arg args[MT_THREADS], rargs[MT_THREADS];
	const uint32_t total = MT_THREADS * MT_PER;
	bool seen[MT_THREADS * MT_PER] = {false};
	pthread_t rth[MT_THREADS];

	for (uint32_t m = 0; m < total; m++) {
		/* Each message names itself in its first 4 bytes. */
		memcpy(f->src.addr + m * MT_LEN, &m, sizeof(m));
		memset(f->src.addr + m * MT_LEN + 4, (int)(m & 0xff), MT_LEN - 4);
	}
	/* Receives wait for ring space, which the sends' messages free: both sides run at once. */
	for (uint32_t k = 0; k < MT_THREADS; k++) {
		rargs[k] = (struct mt_arg){f, k, 0};
		assert_int_equal(pthread_create(&rth[k], NULL, mt_recv_main, &rargs[k]), 0);
	}
	run_threads(f, mt_send_main, args);
	for (uint32_t k = 0; k < MT_THREADS; k++) {
		assert_int_equal(pthread_join(rth[k], NULL), 0);
		assert_int_equal(rargs[k].rc, 0);
	}
	for (uint32_t r = 0; r < total; r++) {
		uint32_t m;

		assert_int_equal(ogda_dev_recv_wait_index(l->dqp_b, r, GPU), 0);
		/* Only the last ring's worth of CQEs is still in the receive CQ (the others were overwritten). */
		if (r >= total - l->dqp_b->cq_rq.cqe_num)
			assert_int_equal(opengda_mlx5_cqe_byte_cnt(ogda_dev_recv_cqe(l->dqp_b, r)), MT_LEN);
		memcpy(&m, f->dst.addr + r * MT_LEN, sizeof(m));
		assert_true(m < total);
		assert_false(seen[m]);
		seen[m] = true;
		assert_true(dfx_all(f->dst.addr + r * MT_LEN + 4, MT_LEN - 4, (uint8_t)(m & 0xff)));
	}
	assert_int_equal(l->dqp_b->rq_rsvd_index, total);
	assert_int_equal(l->dqp_b->rq_ready_index, total);
	assert_int_equal(l->dqp_b->rq_wqe_pi, total);
}

/* Scatter-to-CQE: up to 32 bytes land in the CQE (inline bit set) and not in the buffer; more do not. */
static void test_inline_scatter(void **state)
{
	static const uint32_t sizes[] = {1, 20, 32, 33, 200};
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	struct doca_verbs_device_attr *attr = NULL;

	assert_int_equal(doca_verbs_query_device(f->ctx, &attr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_device_attr_get_is_cqe_inline_supported(attr), 1);
	assert_int_equal(doca_verbs_device_attr_free(attr), DOCA_SUCCESS);
	for (uint32_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct opengda_mlx5_cqe64 *cqe = NULL;
		struct opengda_mlx5_cqe_fields fl;
		bool inl = sizes[i] <= 32;
		uint64_t rt, st;

		memset(f->dst.addr, 0x22, 256);
		dfx_fill(f->src.addr, sizes[i], 60 + i);
		assert_int_equal(recv_b(f, 0, 256, GPU, &rt), 0);
		assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, 0), sizes[i], GPU, AUTO, 0, &st), 0);
		assert_int_equal(ogda_dev_op_recv_wait(l->dqp_b, dfx_laddr(&f->dst, 0), rt, 0, 1, GPU, AUTO, &cqe), 0);
		expect_cqe(cqe, OPENGDA_MLX5_CQE_RESP_SEND, sizes[i], l->qpn_b);
		assert_int_equal((cqe->op_own & OPENGDA_MLX5_CQE_INLINE_SCATTER_32) != 0, inl);
		opengda_mlx5_cqe_read(cqe, &fl);
		if (inl) {
			assert_int_equal(fl.inline_len, sizes[i]);
			assert_int_equal(dfx_check(cqe->resp_info, sizes[i], 60 + i), -1);
			assert_true(dfx_all(f->dst.addr, 256, 0x22));
		} else {
			assert_int_equal(fl.inline_len, 0);
			assert_int_equal(dfx_check(f->dst.addr, sizes[i], 60 + i), -1);
		}
		assert_int_equal(ogda_dev_op_wait(l->dqp, st, GPU), 0);
	}
}

/*
 * bridge_export_qp: B's device QP rebuilt from its raw fields (as for a QP created outside DOCA
 * Verbs) posts receives and sends like an exported one; the host-side error queries refuse it.
 */
static void test_bridge_export(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	struct doca_gpu_dev_verbs_qp v = *l->dqp_b, *d = NULL;
	struct doca_gpu_verbs_qp *g = NULL;
	struct doca_gpu_verbs_qp_error_info info;
	struct ogda_dev_rq rq, rqa = ogda_dev_qp_rq(l->dqp);
	uint64_t rt, st;

	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, l->gqp_b), DOCA_SUCCESS);
	l->gqp_b = NULL;
	l->dqp_b = NULL;
	assert_int_equal(doca_gpu_verbs_bridge_export_qp(f->gpu, v.sq_num, v.sq_wqe_daddr, v.sq_wqe_num, v.sq_dbrec, v.sq_db,
							 4096, v.cq_sq.cq_num, v.cq_sq.cqe_daddr, v.cq_sq.cqe_num,
							 v.cq_sq.dbrec, v.rq_num, v.rq_wqe_daddr, v.rq_wqe_num, v.rq_dbrec,
							 v.rcv_wqe_size, v.cq_rq.cq_num, v.cq_rq.cqe_daddr, v.cq_rq.cqe_num,
							 v.cq_rq.dbrec, DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY,
							 DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, &g),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_gpu_verbs_bridge_export_qp(f->gpu, v.sq_num, v.sq_wqe_daddr, 12, v.sq_dbrec, v.sq_db, 4096,
							 v.cq_sq.cq_num, v.cq_sq.cqe_daddr, v.cq_sq.cqe_num, v.cq_sq.dbrec, 0,
							 NULL, 0, NULL, 0, 0, NULL, 0, NULL, AUTO,
							 DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, &g),
			 DOCA_ERROR_INVALID_VALUE);
	assert_null(g);
	assert_int_equal(doca_gpu_verbs_bridge_export_qp(f->gpu, v.sq_num, v.sq_wqe_daddr, v.sq_wqe_num, v.sq_dbrec, v.sq_db,
							 4096, v.cq_sq.cq_num, v.cq_sq.cqe_daddr, v.cq_sq.cqe_num,
							 v.cq_sq.dbrec, v.rq_num, v.rq_wqe_daddr, v.rq_wqe_num, v.rq_dbrec,
							 v.rcv_wqe_size, v.cq_rq.cq_num, v.cq_rq.cqe_daddr, v.cq_rq.cqe_num,
							 v.cq_rq.dbrec, AUTO, DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR,
							 &g),
			 DOCA_SUCCESS);
	l->gqp_b = g; /* the fixture unexports it */
	assert_int_equal(opengda_gpu_verbs_qp_set_wait_timeout(g, f->cfg.timeout_ns), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_get_qp_dev(g, &d), DOCA_SUCCESS);
	assert_int_equal(d->nic_handler, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB);
	assert_int_equal(doca_gpu_verbs_query_last_error(g, &info), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_gpu_verbs_reset_tracking_and_memory(g), DOCA_ERROR_NOT_SUPPORTED);
	/* A -> bridged B. */
	rq = ogda_dev_qp_rq(d);
	dfx_fill(f->src.addr, 100, 5);
	assert_int_equal(ogda_dev_rq_op_recv(&rq, dfx_laddr(&f->dst, 0), 128, GPU, &rt), 0);
	assert_int_equal(ogda_dev_op_send(l->dqp, dfx_laddr(&f->src, 0), 100, GPU, AUTO, 0, &st), 0);
	assert_int_equal(ogda_dev_recv_wait_index(d, rt, GPU), 0);
	assert_int_equal(dfx_check(f->dst.addr, 100, 5), -1);
	/* Bridged B -> A. */
	dfx_fill(f->src.addr + 4096, 77, 6);
	assert_int_equal(ogda_dev_rq_op_recv(&rqa, dfx_laddr(&f->dst, 4096), 128, GPU, &rt), 0);
	assert_int_equal(ogda_dev_op_send(d, dfx_laddr(&f->src, 4096), 77, GPU, AUTO, 0, &st), 0);
	assert_int_equal(ogda_dev_op_wait(d, st, GPU), 0);
	assert_int_equal(ogda_dev_recv_wait_index(l->dqp, rt, GPU), 0);
	assert_int_equal(dfx_check(f->dst.addr + 4096, 77, 6), -1);
}

/* ---- SRQ refilled by device code, consumed by several QPs ----------------------------------- */

#define SRQ_SLOT 64u

/* Each of 3 QPs receives from one SRQ: data at the slot the CQE names, counts per QP, refills wrap. */
static void test_srq_shared(void **state)
{
	struct dfx *f = *state;
	struct ogda_dev_rq srq = ogda_dev_srq_rq(f->dsrq);
	uint64_t done[3] = {0, 0, 0};
	uint32_t posted = 0;

	for (uint32_t round = 0; round < 3; round++) {
		/* 12 receives (the SRQ holds 16: refills reuse slots whose receives were consumed). */
		for (uint32_t k = 0; k < 12; k++, posted++) {
			uint64_t t;
			size_t slot = posted & 15u;

			assert_int_equal(ogda_dev_rq_op_recv(&srq, dfx_laddr(&f->dst, slot * SRQ_SLOT), SRQ_SLOT, GPU, &t), 0);
			assert_int_equal(t, posted);
		}
		for (uint32_t q = 0; q < 3; q++)
			for (uint32_t m = 0; m < 4; m++) {
				size_t off = (q * 4 + m) * SRQ_SLOT;
				uint64_t st;

				dfx_fill(f->src.addr + off, 40, 1000 * round + 10 * q + m);
				assert_int_equal(ogda_dev_op_send(f->lane[q].dqp, dfx_laddr(&f->src, off), 40, GPU, AUTO, 0, &st),
						 0);
				assert_int_equal(ogda_dev_op_wait(f->lane[q].dqp, st, GPU), 0);
			}
		for (uint32_t q = 0; q < 3; q++)
			for (uint32_t m = 0; m < 4; m++) {
				struct doca_gpu_dev_verbs_qp *b = f->lane[q].dqp_b;
				const struct opengda_mlx5_cqe64 *cqe;
				uint16_t slot;

				assert_int_equal(ogda_dev_recv_wait_index(b, done[q], GPU), 0);
				cqe = ogda_dev_recv_cqe(b, done[q]);
				done[q]++;
				expect_cqe(cqe, OPENGDA_MLX5_CQE_RESP_SEND, 40, f->lane[q].qpn_b);
				slot = opengda_mlx5_cqe_wqe_counter(cqe) & 15u;
				assert_int_equal(dfx_check(f->dst.addr + slot * SRQ_SLOT, 40, 1000 * round + 10 * q + m), -1);
			}
	}
	assert_int_equal(f->dsrq->rq_wqe_pi, posted);
}

/* What does not fit is refused with a reason, not taken. */
static void test_export_refusals(void **state)
{
	struct dfx *f = *state;
	struct dfx_lane *l = lane0(f);
	struct doca_gpu_verbs_qp *g = NULL;
	uint64_t t;

	/* An exported receive CQ and SRQ refuse destruction. */
	assert_int_equal(doca_verbs_cq_destroy(l->rcq_b), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_verbs_srq_destroy(f->srq), DOCA_ERROR_IN_USE);
	/* A QP on an SRQ has no receive ring of its own: device receives on it are refused. */
	{
		struct ogda_dev_rq rq = ogda_dev_qp_rq(l->dqp_b);

		assert_int_equal(ogda_dev_rq_op_recv(&rq, dfx_laddr(&f->dst, 0), 8, GPU, &t), -OPENGDA_DEV_EINVAL);
		assert_int_equal(l->dqp_b->rq_rsvd_index, 0);
	}
	/* Export arguments. */
	assert_int_equal(opengda_gpu_verbs_export_qp_rq(f->gpu, l->qp_a, AUTO, l->cq_a, NULL,
							DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, &g),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_gpu_verbs_export_srq(f->gpu, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_gpu_verbs_srq_set_wait_timeout(f->gsrq, 1), DOCA_ERROR_BAD_STATE);
	/* A reset would leave the receive side stale: refused with a reason. */
	assert_int_equal(doca_gpu_verbs_reset_tracking_and_memory(l->gqp_b), DOCA_ERROR_NOT_SUPPORTED);
	assert_null(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		DFX_CASE(test_send_recv_bytes, two),
		DFX_CASE(test_send_imm_sges, two),
		DFX_CASE(test_ring_wrap, two_small),
		DFX_CASE(test_multi_sge_entries, two_sges),
		DFX_CASE(test_recv_wait_modes, two),
		DFX_CASE(test_rnr, two_rnr),
		DFX_CASE(test_recv_length_error, two),
		DFX_CASE(test_recv_bad_lkey, two),
		DFX_CASE(test_shared_threads, two),
		DFX_CASE(test_inline_scatter, two_inline),
		DFX_CASE(test_bridge_export, two),
		DFX_CASE(test_srq_shared, two_srq),
		DFX_CASE(test_export_refusals, two_srq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
