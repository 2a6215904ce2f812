/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Errors on the device data path, as device code sees them: an error CQE comes back from a
 * wait with its syndrome, later WQEs are flushed, posting after the error fails at once
 * instead of waiting for space that never frees, the first error is recorded for the host, and
 * a wait for work never rung ends at the QP's bound.
 */
#include "dev_fixture.h"

#include <infiniband/verbs.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define SQ 16u
#define MS 1000000ull
#define REMOTE_ACCESS OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR /* 0x13 */
#define LOCAL_PROT OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR       /* 0x04 */
#define FLUSH OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR              /* 0x05 */

/* A key that names no region: that of a region registered and deregistered again. */
static uint32_t dead_key(struct dfx *f, bool remote)
{
	static uint8_t page[4096];
	struct opengda_mr *mr = NULL;
	uint32_t key = 0;

	assert_int_equal(opengda_mr_create(f->pd, page, sizeof(page),
					   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ, &mr),
			 DOCA_SUCCESS);
	if (remote)
		assert_int_equal(opengda_mr_get_rkey(mr, &key), DOCA_SUCCESS);
	else
		assert_int_equal(opengda_mr_get_lkey(mr, &key), DOCA_SUCCESS);
	assert_int_equal(opengda_mr_destroy(mr), DOCA_SUCCESS);
	return key;
}

static void assert_err_cqe(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, uint8_t syndrome)
{
	struct opengda_mlx5_cqe_fields c;

	opengda_mlx5_cqe_read(dfx_cqe(qp, idx), &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ_ERR);
	assert_int_equal(c.syndrome, syndrome);
	assert_int_equal(c.wqe_counter, (uint16_t)idx);
	assert_int_equal(c.qpn, qp->sq_num);
}

static void assert_last_error(struct dfx *f, uint8_t syndrome, uint16_t wqe_counter)
{
	struct doca_gpu_verbs_qp_error_info info;

	memset(&info, 0xff, sizeof(info));
	assert_int_equal(doca_gpu_verbs_query_last_error(f->lane[0].gqp, &info), DOCA_SUCCESS);
	assert_true(info.has_error);
	assert_int_equal(info.syndrome, syndrome);
	assert_int_equal(info.wqe_counter, wqe_counter);
}

/* ---- bad rkey ----------------------------------------------------------------------------- */

struct poster {
	struct dfx *f;
	uint32_t id;
	int rc;
	uint64_t ticket;
};

/* Posts puts until one fails; the ring is full of flushed work, so one must within 20. */
static void *poster_main(void *arg)
{
	struct poster *p = arg;
	struct doca_gpu_dev_verbs_qp *qp = p->f->lane[0].dqp;

	for (uint32_t j = 0; j < 20 && p->rc == 0; j++)
		p->rc = ogda_dev_op_put(qp, dfx_raddr(&p->f->remote, 8192u + 64u * p->id), dfx_laddr(&p->f->src, 0), 64,
					OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &p->ticket);
	return NULL;
}

static void test_bad_rkey(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	struct doca_gpu_dev_verbs_addr bad = dfx_raddr(&f->remote, 0);
	struct poster p[4];
	pthread_t th[4];
	uint64_t t[3], ticket = UINT64_MAX, start, errors = 0;
	int rc;

	bad.key = opengda_mlx5_htobe32(dead_key(f, true));
	memset(f->remote.addr, 0x33, 16384);
	assert_int_equal(ogda_dev_op_put(qp, bad, dfx_laddr(&f->src, 0), 64, OGDA_DEV_SHARE_GPU,
					 DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &t[0]),
			 0);
	for (uint32_t k = 1; k < 3; k++)
		assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 64u * k), dfx_laddr(&f->src, 0), 64,
						 OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &t[k]),
				 0);

	/* The failing WQE: REMOTE_ACCESS_ERR, carried in the return value. */
	rc = ogda_dev_op_wait(qp, t[0], OGDA_DEV_SHARE_GPU);
	assert_int_equal(rc, OPENGDA_DEV_CQE_ERROR(REMOTE_ACCESS));
	assert_int_equal(rc, -((0x13 << 8) | 5));
	assert_true(OPENGDA_DEV_IS_CQE_ERROR(rc));
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), 0x13);
	assert_false(OPENGDA_DEV_IS_CQE_ERROR(-OPENGDA_DEV_ETIMEDOUT));
	/* Later WQEs are flushed, each with its own CQE, and never executed. */
	assert_int_equal(ogda_dev_op_wait(qp, t[1], OGDA_DEV_SHARE_GPU), OPENGDA_DEV_CQE_ERROR(FLUSH));
	assert_int_equal(ogda_dev_op_wait(qp, t[2], OGDA_DEV_SHARE_GPU), OPENGDA_DEV_CQE_ERROR(FLUSH));
	assert_true(dfx_all(f->remote.addr, 16384, 0x33));
	assert_err_cqe(qp, t[0], REMOTE_ACCESS);
	assert_err_cqe(qp, t[1], FLUSH);
	assert_err_cqe(qp, t[2], FLUSH);
	assert_int_equal(qp->cq_sq.cqe_ci, 0); /* error completions are not consumed */
	/* The CQ records the first error: valid bit, syndrome, WQE counter; the host agrees. */
	assert_int_equal(qp->cq_sq.ogda_first_error, 0x80000000u | (0x13u << 16) | (uint32_t)t[0]);
	assert_last_error(f, REMOTE_ACCESS, (uint16_t)t[0]);

	/* Posting on: the first post that needs space waits on an error CQE and fails at once. */
	start = dfx_now_ns();
	for (uint64_t k = 3; k < SQ; k++)
		assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), 64,
						 OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket),
				 0);
	rc = ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), 64, OGDA_DEV_SHARE_GPU,
			     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket);
	assert_int_equal(rc, OPENGDA_DEV_CQE_ERROR(REMOTE_ACCESS)); /* slot 16 reuses WQE 0's */
	assert_int_equal(ticket, SQ);
	/* Its slot was published as a NOP and rung, so nothing later is stranded behind it. */
	assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(qp, SQ)), OPENGDA_MLX5_OPCODE_NOP);
	assert_int_equal(qp->sq_ready_index, SQ + 1);
	assert_int_equal(qp->sq_wqe_pi, SQ + 1);
	assert_int_equal(ogda_dev_op_p(qp, dfx_raddr(&f->remote, 0), "x", 1, OGDA_DEV_SHARE_GPU,
				       DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket),
			 OPENGDA_DEV_CQE_ERROR(FLUSH)); /* slot 17 reuses WQE 1's */
	assert_int_equal(ticket, SQ + 1);
	assert_true(dfx_now_ns() - start < 1000 * MS);

	/* Threads sharing the QP each get an error promptly; none hangs, the ring stays whole. */
	start = dfx_now_ns();
	for (uint32_t i = 0; i < 4; i++) {
		p[i] = (struct poster){.f = f, .id = i};
		assert_int_equal(pthread_create(&th[i], NULL, poster_main, &p[i]), 0);
	}
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	assert_true(dfx_now_ns() - start < 2000 * MS);
	for (uint32_t i = 0; i < 4; i++) {
		assert_true(OPENGDA_DEV_IS_CQE_ERROR(p[i].rc));
		assert_true(OPENGDA_DEV_CQE_ERROR_SYNDROME(p[i].rc) == FLUSH ||
			    OPENGDA_DEV_CQE_ERROR_SYNDROME(p[i].rc) == REMOTE_ACCESS);
	}
	assert_int_equal(qp->sq_ready_index, qp->sq_rsvd_index);
	assert_int_equal(qp->sq_wqe_pi, qp->sq_rsvd_index);
	assert_true(dfx_all(f->remote.addr, 16384, 0x33));
	/* The record keeps the first error, whatever came after. */
	assert_int_equal(qp->cq_sq.ogda_first_error, 0x80000000u | (0x13u << 16) | (uint32_t)t[0]);
	assert_last_error(f, REMOTE_ACCESS, (uint16_t)t[0]);
	dfx_swnic_counters(f->lane[0].qpn_a, NULL, NULL, &errors);
	assert_true(errors >= 3);
}

/* ---- bad lkey ----------------------------------------------------------------------------- */

static void test_bad_lkey(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	struct doca_gpu_dev_verbs_addr bad = dfx_laddr(&f->src, 0);
	uint64_t t = UINT64_MAX;
	int rc;

	bad.key = opengda_mlx5_htobe32(dead_key(f, false));
	memset(f->remote.addr, 0x33, 4096);
	assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), bad, 4096, OGDA_DEV_SHARE_EXCLUSIVE,
					 (uint32_t)qp->nic_handler, 0, &t),
			 0);
	rc = ogda_dev_op_wait(qp, t, OGDA_DEV_SHARE_EXCLUSIVE);
	assert_int_equal(rc, OPENGDA_DEV_CQE_ERROR(LOCAL_PROT));
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), 0x04);
	assert_err_cqe(qp, t, LOCAL_PROT);
	assert_true(dfx_all(f->remote.addr, 4096, 0x33));
	assert_int_equal(qp->cq_sq.ogda_first_error, 0x80000000u | (0x04u << 16));
	assert_last_error(f, LOCAL_PROT, 0);
	/* The QP is in error now: a good get posted after it is flushed, and writes nothing. */
	memset(f->dst.addr, 0x22, 64);
	assert_int_equal(ogda_dev_op_get(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->dst, 0), 64, 0, OGDA_DEV_SHARE_EXCLUSIVE,
					 (uint32_t)qp->nic_handler, 0, &t),
			 0);
	assert_int_equal(t, 1);
	assert_int_equal(ogda_dev_op_wait(qp, t, OGDA_DEV_SHARE_EXCLUSIVE), OPENGDA_DEV_CQE_ERROR(FLUSH));
	assert_true(dfx_all(f->dst.addr, 64, 0x22));
	assert_last_error(f, LOCAL_PROT, 0);
}

/* ---- bounded waits ------------------------------------------------------------------------ */

/* Polls WQE idx without consuming the bound (own 5 s limit); 0 once it completed. */
static int poll_until_done(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx)
{
	uint64_t end = dfx_now_ns() + 5000 * MS;
	int rc;

	while ((rc = ogda_dev_cq_poll_one_at(&qp->cq_sq, idx, OGDA_DEV_SHARE_GPU)) == OPENGDA_DEV_EBUSY &&
	       dfx_now_ns() < end)
		dfx_sleep_ms(1);
	return rc;
}

static void test_bounded_wait(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t t = UINT64_MAX, t2 = UINT64_MAX, start, took;
	int rc;

	assert_int_equal(qp->ogda_wait_timeout_ns, 10 * MS);
	assert_int_equal(qp->cq_sq.ogda_wait_timeout_ns, 10 * MS);
	dfx_fill(f->src.addr, 512, 3);
	/* Published, never rung: no CQE can come. */
	assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), 512, OGDA_DEV_SHARE_GPU,
					 DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING,
					 &t),
			 0);
	assert_int_equal(qp->sq_ready_index, 1);
	assert_int_equal(qp->sq_wqe_pi, 0);
	start = dfx_now_ns();
	rc = ogda_dev_op_wait(qp, t, OGDA_DEV_SHARE_GPU);
	took = dfx_now_ns() - start;
	assert_int_equal(rc, -OPENGDA_DEV_ETIMEDOUT);
	assert_true(took >= 10 * MS);
	assert_true(took < 1000 * MS);
	assert_int_equal(ogda_dev_cq_poll_one_at(&qp->cq_sq, t, OGDA_DEV_SHARE_GPU), OPENGDA_DEV_EBUSY);
	assert_int_equal(qp->cq_sq.ogda_first_error, 0);
	assert_int_equal(qp->cq_sq.cqe_ci, 0);

	/* The wait for ring space is bounded too; the reserved slot then stays unpublished. */
	for (uint64_t k = 1; k < SQ; k++)
		assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), 512,
						 OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
						 DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING, &t2),
				 0);
	start = dfx_now_ns();
	rc = ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), 512, OGDA_DEV_SHARE_GPU,
			     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &t2);
	took = dfx_now_ns() - start;
	assert_int_equal(rc, -OPENGDA_DEV_ETIMEDOUT);
	assert_int_equal(t2, SQ);
	assert_true(took >= 10 * MS && took < 1000 * MS);
	assert_int_equal(qp->sq_rsvd_index, SQ + 1);
	assert_int_equal(qp->sq_ready_index, SQ);
	assert_int_equal(qp->sq_wqe_pi, 0);

	/* Ringing what is published lets it complete: the WQEs were fine, only unrung. */
	ogda_dev_sq_submit(qp, SQ, OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	assert_int_equal(qp->sq_wqe_pi, SQ);
	assert_int_equal(poll_until_done(qp, SQ - 1), 0);
	assert_int_equal(dfx_check(f->remote.addr, 512, 3), -1);
	assert_int_equal(qp->cq_sq.cqe_ci, SQ);
}

/* The collapsed-CQ wait ends at the bound as well. */
static void test_bounded_wait_collapsed(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t t = UINT64_MAX, start, took;
	int rc;

	assert_true(qp->cq_sq.ogda_flags & OPENGDA_DEV_CQ_FLAG_COLLAPSED);
	assert_int_equal(ogda_dev_op_p(qp, dfx_raddr(&f->remote, 0), "abcd", 4, OGDA_DEV_SHARE_EXCLUSIVE,
				       (uint32_t)qp->nic_handler, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING, &t),
			 0);
	start = dfx_now_ns();
	rc = ogda_dev_op_wait(qp, t, OGDA_DEV_SHARE_EXCLUSIVE);
	took = dfx_now_ns() - start;
	assert_int_equal(rc, -OPENGDA_DEV_ETIMEDOUT);
	assert_true(took >= 10 * MS && took < 1000 * MS);
	ogda_dev_sq_submit(qp, t + 1, OGDA_DEV_SHARE_EXCLUSIVE, (uint32_t)qp->nic_handler);
	for (int i = 0; i < 500 && (rc = ogda_dev_op_wait(qp, t, OGDA_DEV_SHARE_EXCLUSIVE)) == -OPENGDA_DEV_ETIMEDOUT; i++)
		;
	assert_int_equal(rc, 0);
	assert_memory_equal(f->remote.addr, "abcd", 4);
}

#define H(x) DOCA_GPUNETIO_VERBS_NIC_HANDLER_##x
#define M(x) DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_##x

static struct dfx_cfg cfg_db = {.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = SQ};
static struct dfx_cfg cfg_proxy = {.handler = H(CPU_PROXY), .dbr_mode = M(VALID_DBR), .sq_wqebbs = SQ};
static struct dfx_cfg cfg_nodbr = {.handler = H(GPU_SM_NO_DBR), .dbr_mode = M(NO_DBR_HW), .sq_wqebbs = SQ};
static struct dfx_cfg cfg_overrun = {
	.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = SQ, .cq_overrun_checked = true};
static struct dfx_cfg cfg_bounded = {
	.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = SQ, .timeout_ns = 10 * MS};
static struct dfx_cfg cfg_bounded_collapsed = {.handler = H(GPU_SM_DB),
					       .dbr_mode = M(VALID_DBR),
					       .sq_wqebbs = SQ,
					       .cq_collapsed = true,
					       .cq_entries = 1,
					       .timeout_ns = 10 * MS};

int main(void)
{
	const struct CMUnitTest tests[] = {
		DFX_CASE(test_bad_rkey, cfg_db),
		DFX_CASE(test_bad_rkey, cfg_proxy),
		DFX_CASE(test_bad_rkey, cfg_nodbr),
		DFX_CASE(test_bad_rkey, cfg_overrun),
		DFX_CASE(test_bad_lkey, cfg_db),
		DFX_CASE(test_bad_lkey, cfg_proxy),
		DFX_CASE(test_bounded_wait, cfg_bounded),
		DFX_CASE(test_bounded_wait_collapsed, cfg_bounded_collapsed),
	};

	return cmocka_run_group_tests_name("device data path errors", tests, NULL, NULL);
}
