/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Requester errors as the hardware reports them: each syndrome, the WR_FLUSH_ERR CQEs
 * that follow it (one per outstanding WQE, signalled or not, and for WQEs rung while the
 * QP is in ERR), RNR and transport retries within their bounds, and a CQ overrun.
 *
 * Runs with OPENGDA_SWNIC_MAX_TIMEOUT_MS=20 and OPENGDA_SWNIC_RNR_MAX_MS=100 (CMake).
 * Elapsed times are only checked against the bounds the model promises.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "prm/prm_cmd.h"
#include "prm/prm_qpc.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_engine.h"
#include "swnic/swnic_gid.h"
#include "swnic_fixture.h"

#define CE2 OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE
#define UIDX_A 0x0a0a0au
#define RW (OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ | OGDA_ACCESS_REMOTE_ATOMIC)
#define GUARD 0xeeu
#define MAX_TIMEOUT_MS 20u   /* as set in tests/swnic/CMakeLists.txt */
#define RNR_MAX_MS 100u
#define SLACK_MS 3000u       /* scheduling slack on a shared 2-core machine */

/* Every field of a requester error CQE. */
static void assert_err_cqe(const struct opengda_mlx5_cqe_fields *c, const struct fx_qp *qp, uint8_t syndrome,
			   uint8_t vendor, uint8_t wqe_opcode, uint16_t idx)
{
	assert_int_equal(c->opcode, OPENGDA_MLX5_CQE_REQ_ERR);
	assert_int_equal(c->syndrome, syndrome);
	assert_int_equal(c->vendor_syndrome, vendor);
	assert_int_equal(c->hw_syndrome, 0);
	assert_int_equal(c->hw_syndrome_type, 0);
	assert_int_equal(c->wqe_opcode, wqe_opcode);
	assert_int_equal(c->qpn, qp->qpn);
	assert_int_equal(c->wqe_counter, idx);
	assert_int_equal(c->user_index, UIDX_A);
	assert_int_equal(c->byte_cnt, 0);
	assert_int_equal(c->imm, 0);
}

static void assert_flush(struct fx_cq *cq, const struct fx_qp *qp, uint8_t wqe_opcode, uint16_t idx)
{
	struct opengda_mlx5_cqe_fields c;

	fx_poll_ok(cq, &c);
	assert_err_cqe(&c, qp, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR, SWNIC_VSYND_FLUSH, wqe_opcode, idx);
}

/* Posts one 1-SGE RDMA WRITE / READ. */
static uint16_t post_rdma(struct fx_qp *qp, uint8_t opcode, uint8_t ce, void *remote, uint32_t rkey, void *local,
			  uint32_t lkey, uint32_t len)
{
	uint16_t idx = fx_take(qp, 3);

	if (opcode == OPENGDA_MLX5_OPCODE_RDMA_READ)
		assert_int_equal(opengda_mlx5_wqe_rdma_read(&qp->sqd, idx, ce, fx_va(remote), rkey, fx_va(local), lkey, len), 3);
	else
		assert_int_equal(opengda_mlx5_wqe_rdma_write(&qp->sqd, idx, ce, fx_va(remote), rkey, fx_va(local), lkey, len),
				 3);
	return idx;
}

static uint16_t post_nop(struct fx_qp *qp, uint8_t ce)
{
	uint16_t idx = fx_take(qp, 1);

	assert_int_equal(opengda_mlx5_wqe_nop(&qp->sqd, idx, ce, 1), 1);
	return idx;
}

/*
 * The WQE at fail_idx (already written) fails with syndrome / vendor; an unsignalled WRITE
 * and a NOP posted behind it are flushed, and so is a NOP rung while the QP is in ERR.
 */
static void expect_failure_then_flush(struct fx_pair *p, uint16_t fail_idx, uint8_t syndrome, uint8_t vendor,
				      uint8_t wqe_opcode)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[8];
	uint32_t lk, rk;
	uint16_t w, n;

	memset(dst, GUARD, sizeof(dst));
	lk = fx_mr(&p->f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p->f, dst, sizeof(dst), RW);
	w = post_rdma(&p->a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0, dst, rk, src, lk, 8);
	n = post_nop(&p->a, CE2);
	fx_ring(&p->a, FX_RING_CTRL);
	fx_poll_ok(&p->acq, &c);
	assert_err_cqe(&c, &p->a, syndrome, vendor, wqe_opcode, fail_idx);
	assert_flush(&p->acq, &p->a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, w);
	assert_flush(&p->acq, &p->a, OPENGDA_MLX5_OPCODE_NOP, n);
	assert_true(fx_no_cqe(&p->acq, 10));
	fx_assert_all(dst, sizeof(dst), GUARD);
	assert_int_equal(fx_qp_state(&p->f, &p->a), PRM_QP_STATE_ERR);

	/* Rung while in ERR: flushed too. */
	n = post_nop(&p->a, 0);
	fx_ring(&p->a, FX_RING_PI);
	assert_flush(&p->acq, &p->a, OPENGDA_MLX5_OPCODE_NOP, n);
}

static void test_bad_lkey(void **state)
{
	uint8_t src[64], dst[64];
	struct fx_pair p;
	uint64_t wqes, errors;
	uint32_t rk;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	memset(dst, GUARD, sizeof(dst));
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	post_rdma(&p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0, dst, rk, src, 0x7777700, 64);
	expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, SWNIC_VSYND_BAD_LKEY,
				  OPENGDA_MLX5_OPCODE_RDMA_WRITE);
	fx_assert_all(dst, sizeof(dst), GUARD);
	fx_qp_counters(&p.f, &p.a, &wqes, &errors, NULL, NULL);
	assert_int_equal(wqes, 4);
	assert_int_equal(errors, 4);
	fx_pair_close(&p);
}

/* READ and atomic results need LOCAL_WRITE on the local MR; an SGE past its MR is LOCAL_PROT. */
static void test_local_protection(void **state)
{
	uint8_t remote[64], local[64];
	struct fx_pair p;
	uint32_t rk, ro, lk;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		uint16_t idx;

		fx_pair_open(&p, 4, NULL, NULL, NULL);
		memset(local, GUARD, sizeof(local));
		rk = fx_mr(&p.f, remote, sizeof(remote), RW);
		ro = fx_mr(&p.f, local, 32, OGDA_ACCESS_REMOTE_READ);
		lk = fx_mr(&p.f, local + 32, 32, OGDA_ACCESS_LOCAL_WRITE);
		if (i == 0) {
			post_rdma(&p.a, OPENGDA_MLX5_OPCODE_RDMA_READ, CE2, remote, rk, local, ro, 16);
			expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, SWNIC_VSYND_LKEY_ACCESS,
						  OPENGDA_MLX5_OPCODE_RDMA_READ);
		} else if (i == 1) {
			idx = fx_take(&p.a, 4);
			assert_int_equal(opengda_mlx5_wqe_atomic_fa(&p.a.sqd, idx, CE2, fx_va(remote), rk, 1, fx_va(local), ro), 4);
			expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, SWNIC_VSYND_LKEY_ACCESS,
						  OPENGDA_MLX5_OPCODE_ATOMIC_FA);
		} else {
			post_rdma(&p.a, OPENGDA_MLX5_OPCODE_RDMA_READ, CE2, remote, rk, local + 40, lk, 25);
			expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, SWNIC_VSYND_LKEY_RANGE,
						  OPENGDA_MLX5_OPCODE_RDMA_READ);
		}
		fx_assert_all(local, sizeof(local), GUARD);
		fx_pair_close(&p);
	}
}

static void msg_max_10(struct fx_pair *p, struct fx_conn *c)
{
	(void)p;
	c->log_msg_max = 10;
}

/* log_msg_max 10: 1024 bytes go, 1025 are LOCAL_LENGTH. */
static void test_message_too_long(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	static uint8_t src[2048], dst[2048];
	struct fx_pair p;
	uint32_t lk, rk;

	(void)state;
	fx_pair_open(&p, 4, NULL, msg_max_10, NULL);
	memset(src, 0x5a, sizeof(src));
	memset(dst, GUARD, sizeof(dst));
	lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	post_rdma(&p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, CE2, dst, rk, src, lk, 1024);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.byte_cnt, 1024);
	memset(dst, GUARD, sizeof(dst));
	post_rdma(&p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, CE2, dst, rk, src, lk, 1025);
	expect_failure_then_flush(&p, 1, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, SWNIC_VSYND_MSG_TOO_LONG,
				  OPENGDA_MLX5_OPCODE_RDMA_WRITE);
	fx_assert_all(dst, sizeof(dst), GUARD);
	fx_pair_close(&p);
}

/*
 * Unknown opcode, a DS too small for its opcode, an undefined fence, a wrong WQE index,
 * WAIT without cd_master, more pointer segments than SWNIC_MAX_SGE.
 */
static void test_local_qp_operation(void **state)
{
	static uint8_t src[SWNIC_MAX_SGE + 1u], dst[SWNIC_MAX_SGE + 1u];
	struct fx_pair p;
	int i;

	(void)state;
	for (i = 0; i < 6; i++) {
		struct opengda_mlx5_wqe_ctrl_seg *ctrl;
		uint8_t vendor = SWNIC_VSYND_MALFORMED, opcode = OPENGDA_MLX5_OPCODE_RDMA_WRITE;
		uint16_t idx;

		fx_pair_open(&p, i == 5 ? 5 : 4, NULL, NULL, NULL);
		if (i == 0) {
			idx = fx_take(&p.a, 1);
			opcode = OPENGDA_MLX5_OPCODE_FMR;
			assert_int_equal(opengda_mlx5_ctrl_seg_write(opengda_mlx5_sq_seg(&p.a.sqd, idx, 0), 0, idx, opcode,
								     p.a.qpn, 1, CE2, 0),
					 0);
			vendor = SWNIC_VSYND_BAD_OPCODE;
		} else if (i == 1) {
			idx = fx_take(&p.a, 1);
			assert_int_equal(opengda_mlx5_ctrl_seg_write(opengda_mlx5_sq_seg(&p.a.sqd, idx, 0), 0, idx, opcode,
								     p.a.qpn, 1, CE2, 0),
					 0);
		} else if (i == 2) {
			idx = post_nop(&p.a, CE2);
			ctrl = opengda_mlx5_sq_seg(&p.a.sqd, idx, 0);
			ctrl->fm_ce_se = (uint8_t)(5u << OPENGDA_MLX5_FENCE_SHIFT) | CE2;
			opcode = OPENGDA_MLX5_OPCODE_NOP;
		} else if (i == 3) {
			idx = post_nop(&p.a, CE2);
			ctrl = opengda_mlx5_sq_seg(&p.a.sqd, idx, 0);
			ctrl->opmod_idx_opcode = opengda_mlx5_htobe32(5u << 8); /* index 5 in slot 0 */
			opcode = OPENGDA_MLX5_OPCODE_NOP;
			vendor = SWNIC_VSYND_WQE_MISMATCH;
		} else if (i == 4) {
			idx = fx_take(&p.a, 2);
			assert_int_equal(opengda_mlx5_wqe_wait_cq(&p.a.sqd, idx, CE2, p.acq.cqn, 0), 2);
			opcode = OPENGDA_MLX5_OPCODE_WAIT;
			vendor = SWNIC_VSYND_WAIT_NOT_ALLOWED;
		} else {
			struct fx_sge g[SWNIC_MAX_SGE + 1u];
			uint32_t lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
			uint32_t rk = fx_mr(&p.f, dst, sizeof(dst), RW);
			uint32_t k;

			memset(dst, GUARD, sizeof(dst));
			for (k = 0; k < SWNIC_MAX_SGE + 1u; k++)
				g[k] = (struct fx_sge){src + k, 1, lk};
			/* One SGE over the limit still fits the 63-unit ds field only without a raddr segment. */
			opcode = OPENGDA_MLX5_OPCODE_SEND;
			(void)rk;
			idx = fx_post_sges(&p.a, opcode, CE2, 0, false, 0, 0, g, SWNIC_MAX_SGE + 1u);
			assert_int_equal(idx, 0);
			vendor = SWNIC_VSYND_TOO_MANY_SGE;
		}
		expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, vendor, opcode);
		fx_pair_close(&p);
	}
}

/* Bad rkey, a range past the MR, missing REMOTE_WRITE / REMOTE_READ: REMOTE_ACCESS, nothing written. */
static void test_remote_access(void **state)
{
	uint8_t src[64], dst[64], local[64];
	struct fx_pair p;
	int i;

	(void)state;
	memset(src, 0x33, sizeof(src));
	for (i = 0; i < 4; i++) {
		uint32_t lk, rk, ll;
		uint8_t opcode = OPENGDA_MLX5_OPCODE_RDMA_WRITE;

		fx_pair_open(&p, 4, NULL, NULL, NULL);
		memset(dst, GUARD, sizeof(dst));
		memset(local, GUARD, sizeof(local));
		lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
		ll = fx_mr(&p.f, local, sizeof(local), OGDA_ACCESS_LOCAL_WRITE);
		if (i == 0) {
			rk = fx_mr(&p.f, dst, sizeof(dst), RW);
			post_rdma(&p.a, opcode, CE2, dst, rk + 0x100000u, src, lk, 16);
		} else if (i == 1) {
			rk = fx_mr(&p.f, dst, 32, RW);
			post_rdma(&p.a, opcode, CE2, dst + 20, rk, src, lk, 16);
		} else if (i == 2) {
			rk = fx_mr(&p.f, dst, sizeof(dst), OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_READ);
			post_rdma(&p.a, opcode, CE2, dst, rk, src, lk, 16);
		} else {
			rk = fx_mr(&p.f, dst, sizeof(dst), OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE);
			opcode = OPENGDA_MLX5_OPCODE_RDMA_READ;
			post_rdma(&p.a, opcode, CE2, dst, rk, local, ll, 16);
		}
		expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, SWNIC_VSYND_NAK, opcode);
		fx_assert_all(dst, sizeof(dst), GUARD);
		fx_assert_all(local, sizeof(local), GUARD);
		fx_pair_close(&p);
	}
}

/* A misaligned atomic, and a SEND to a QP without a receive queue: REMOTE_INVAL_REQ. */
static void test_remote_invalid_request(void **state)
{
	uint64_t remote[2], result;
	struct fx_pair p;
	uint32_t lk, rk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	lk = fx_mr(&p.f, &result, sizeof(result), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p.f, remote, sizeof(remote), RW);
	remote[0] = remote[1] = 7;
	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_atomic_fa(&p.a.sqd, idx, CE2, fx_va((uint8_t *)remote + 4), rk, 1, fx_va(&result),
						    lk),
			 4);
	expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, SWNIC_VSYND_NAK,
				  OPENGDA_MLX5_OPCODE_ATOMIC_FA);
	assert_int_equal(remote[0], 7);
	assert_int_equal(remote[1], 7);
	fx_pair_close(&p);

	{
		struct fx_cq_cfg cc = {.log_size = 4};
		struct fx_qp_cfg qc;
		struct fx_conn cn;
		struct fx_qp norq, req;
		struct fx_cq ncq;
		uint8_t src[8] = {0};

		fx_pair_open(&p, 4, NULL, NULL, NULL);
		fx_cq_create(&p.f, &cc, &ncq);
		fx_qp_cfg_default(&qc, &ncq, NULL);
		qc.no_rq = true;
		fx_qp_create(&p.f, &qc, &norq);
		fx_qp_cfg_default(&qc, &p.acq, NULL);
		qc.user_index = UIDX_A;
		fx_qp_create(&p.f, &qc, &req);
		fx_conn_default(&p.f, &cn, req.qpn);
		fx_qp_connect(&p.f, &norq, &cn, PRM_QP_STATE_RTS);
		fx_conn_default(&p.f, &cn, norq.qpn);
		fx_qp_connect(&p.f, &req, &cn, PRM_QP_STATE_RTS);
		p.a = req; /* the requester expect_failure_then_flush drives */
		lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
		idx = fx_take(&p.a, 2);
		assert_int_equal(opengda_mlx5_wqe_send(&p.a.sqd, idx, CE2, fx_va(src), lk, 8), 2);
		expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, SWNIC_VSYND_NAK,
					  OPENGDA_MLX5_OPCODE_SEND);
		fx_pair_close(&p);
	}
}

/* The responder cannot place a SEND (its receive WQE names a bad lkey): REMOTE_OP. */
static void test_remote_operation(void **state)
{
	uint8_t src[16] = {0}, rbuf[16];
	struct fx_pair p;
	uint32_t lk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	memset(rbuf, GUARD, sizeof(rbuf));
	fx_rq_post(&p.b, rbuf, sizeof(rbuf), 0x4444400);
	idx = fx_take(&p.a, 2);
	assert_int_equal(opengda_mlx5_wqe_send(&p.a.sqd, idx, CE2, fx_va(src), lk, 16), 2);
	expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR, SWNIC_VSYND_NAK, OPENGDA_MLX5_OPCODE_SEND);
	fx_assert_all(rbuf, sizeof(rbuf), GUARD);
	fx_pair_close(&p);
}

static void rnr_twice(struct fx_pair *p, struct fx_conn *c)
{
	(void)p;
	c->rnr_retry = 2;
	c->min_rnr_nak = 1; /* 10 us */
}

static void rnr_infinite(struct fx_pair *p, struct fx_conn *c)
{
	(void)p;
	c->rnr_retry = 7;
	c->min_rnr_nak = 14; /* 1.28 ms */
}

/* No receive WQE: rnr_retry 2 means three tries, then RNR_RETRY_EXC. */
static void test_rnr_retry_exceeded(void **state)
{
	uint8_t src[16] = {0};
	struct fx_pair p;
	uint64_t rnr, t0;
	uint32_t lk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, rnr_twice, NULL);
	lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	idx = fx_take(&p.a, 2);
	assert_int_equal(opengda_mlx5_wqe_send(&p.a.sqd, idx, CE2, fx_va(src), lk, 16), 2);
	t0 = fx_ms();
	expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, SWNIC_VSYND_RETRY_EXC,
				  OPENGDA_MLX5_OPCODE_SEND);
	assert_true(fx_ms() - t0 < SLACK_MS);
	fx_qp_counters(&p.f, &p.a, NULL, NULL, &rnr, NULL);
	assert_int_equal(rnr, 2);
	assert_true(fx_no_cqe(&p.bcq, 1));
	fx_pair_close(&p);
}

/* rnr_retry 7 ("infinite") ends after OPENGDA_SWNIC_RNR_MAX_MS. */
static void test_rnr_infinite_is_bounded(void **state)
{
	uint8_t src[16] = {0};
	struct fx_pair p;
	uint64_t rnr, t0, dt;
	uint32_t lk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, rnr_infinite, NULL);
	lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	idx = fx_take(&p.a, 2);
	assert_int_equal(opengda_mlx5_wqe_send(&p.a.sqd, idx, CE2, fx_va(src), lk, 16), 2);
	t0 = fx_ms();
	expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, SWNIC_VSYND_RETRY_EXC,
				  OPENGDA_MLX5_OPCODE_SEND);
	dt = fx_ms() - t0;
	assert_true(dt + 1u >= RNR_MAX_MS);
	assert_true(dt < RNR_MAX_MS + SLACK_MS);
	fx_qp_counters(&p.f, &p.a, NULL, NULL, &rnr, NULL);
	assert_true(rnr >= 2);
	fx_pair_close(&p);
}

/* rnr_retry 7: a receive posted while the requester retries lets the SEND through. */
static void test_rnr_then_receive(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t src[16], rbuf[32];
	struct fx_pair p;
	uint32_t lk, rlk;
	uint64_t rnr;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, rnr_infinite, NULL);
	memset(src, 0x61, sizeof(src));
	memset(rbuf, GUARD, sizeof(rbuf));
	lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	rlk = fx_mr(&p.f, rbuf, sizeof(rbuf), OGDA_ACCESS_LOCAL_WRITE);
	idx = fx_take(&p.a, 2);
	assert_int_equal(opengda_mlx5_wqe_send(&p.a.sqd, idx, CE2, fx_va(src), lk, 16), 2);
	fx_ring(&p.a, FX_RING_CTRL);
	for (rnr = 0; rnr == 0;) {
		fx_qp_counters(&p.f, &p.a, NULL, NULL, &rnr, NULL);
		fx_sleep_ms(0);
	}
	fx_rq_post(&p.b, rbuf + 8, 16, rlk);
	fx_poll_ok(&p.acq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.wqe_counter, idx);
	assert_int_equal(c.byte_cnt, 16);
	fx_poll_ok(&p.bcq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_RESP_SEND);
	assert_memory_equal(rbuf + 8, src, 16);
	fx_assert_all(rbuf, 8, GUARD);
	fx_assert_all(rbuf + 24, 8, GUARD);
	assert_int_equal(fx_qp_state(&p.f, &p.a), PRM_QP_STATE_RTS);
	fx_pair_close(&p);
}

static void to_missing_qp(struct fx_pair *p, struct fx_conn *c)
{
	(void)p;
	c->remote_qpn = 0xabcde; /* no such QP: requests are dropped */
	c->retry_count = 3;
}

static void to_dead_endpoint(struct fx_pair *p, struct fx_conn *c)
{
	struct swnic_endpoint ep = {.ipv4 = 0x7f000001u, .port = 1, .nic_index = 0};

	(void)p;
	assert_int_equal(swnic_gid_encode(&ep, c->rgid), DOCA_SUCCESS); /* nothing listens on port 1 */
	c->retry_count = 2;
}

/* No answer: retry_count retries, each after the clamped ack timeout, then TRANSPORT_RETRY_EXC. */
static void test_transport_retry_exceeded(void **state)
{
	fx_conn_hook hooks[2] = {to_missing_qp, to_dead_endpoint};
	const uint32_t retries[2] = {3, 2};
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		uint8_t src[8] = {0}, dst[8];
		struct fx_pair p;
		uint64_t tr, t0, dt;
		uint32_t lk, rk;

		fx_pair_open(&p, 4, NULL, hooks[i], NULL);
		memset(dst, GUARD, sizeof(dst));
		lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
		rk = fx_mr(&p.f, dst, sizeof(dst), RW);
		post_rdma(&p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, CE2, dst, rk, src, lk, 8);
		t0 = fx_ms();
		expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR, SWNIC_VSYND_RETRY_EXC,
					  OPENGDA_MLX5_OPCODE_RDMA_WRITE);
		dt = fx_ms() - t0;
		/* retries + 1 attempts, MAX_TIMEOUT_MS apart: at least retries timeouts, at most all of them. */
		assert_true(dt + 1u >= retries[i] * MAX_TIMEOUT_MS);
		assert_true(dt < (retries[i] + 1u) * MAX_TIMEOUT_MS + SLACK_MS);
		fx_qp_counters(&p.f, &p.a, NULL, NULL, NULL, &tr);
		assert_int_equal(tr, retries[i]);
		fx_assert_all(dst, sizeof(dst), GUARD);
		fx_pair_close(&p);
	}
}

/*
 * CQ overrun (oi = 0): a 2-entry CQ nobody consumes takes two CQEs; the third is an
 * overrun: nothing written, the CQ in error, the QP in ERR, later WQEs retired silently.
 */
static void test_cq_overrun(void **state)
{
	struct fx_cq_cfg cc = {.log_size = 1};
	struct opengda_mlx5_cqe64 *e0, *e1;
	struct swnic_cq *cq;
	struct fx_pair p;
	uint64_t deadline;
	uint8_t snapshot[2][64];

	(void)state;
	fx_pair_open(&p, 4, &cc, NULL, NULL);
	post_nop(&p.a, CE2);
	post_nop(&p.a, CE2);
	post_nop(&p.a, CE2);
	fx_ring(&p.a, FX_RING_CTRL);
	deadline = fx_ms() + FX_POLL_TIMEOUT_MS;
	while (fx_qp_state(&p.f, &p.a) != PRM_QP_STATE_ERR) {
		assert_true(fx_ms() < deadline);
		fx_sleep_ms(1);
	}
	cq = swnic_cq_acquire(p.f.nic, p.acq.cqn);
	assert_non_null(cq);
	assert_true(atomic_load(&cq->in_error));
	assert_int_equal(atomic_load(&cq->produced), 2);
	e0 = fx_cqe(&p.acq, 0);
	e1 = fx_cqe(&p.acq, 1);
	assert_int_equal(opengda_mlx5_cqe_wqe_counter(e0), 0);
	assert_int_equal(opengda_mlx5_cqe_wqe_counter(e1), 1);
	assert_int_equal(e0->op_own, 0x00);
	assert_int_equal(e1->op_own, 0x00);
	memcpy(snapshot[0], e0, 64);
	memcpy(snapshot[1], e1, 64);
	post_nop(&p.a, CE2);
	fx_ring(&p.a, FX_RING_PI);
	fx_sleep_ms(20);
	assert_memory_equal(snapshot[0], e0, 64);
	assert_memory_equal(snapshot[1], e1, 64);
	assert_int_equal(atomic_load(&cq->produced), 2);
	swnic_cq_release(cq);
	fx_pair_close(&p);
}

/* UC: no READ, no atomics; a message nobody takes (no QP, no receive WQE) still completes. */
static void test_uc_semantics(void **state)
{
	struct fx_cq_cfg cc = {.log_size = 4};
	struct opengda_mlx5_cqe_fields c;
	uint8_t src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[8];
	struct fx_qp_cfg qc;
	struct fx_conn cn;
	struct fx_pair p;
	struct fx_qp b;
	struct fx_cq bcq;
	uint64_t tr, rnr;
	uint32_t lk, rk, i;
	uint16_t idx;

	(void)state;
	for (i = 0; i < 2; i++) {
		fx_open(&p.f);
		fx_cq_create(&p.f, &cc, &p.acq);
		fx_cq_create(&p.f, &cc, &bcq);
		fx_qp_cfg_default(&qc, &p.acq, NULL);
		qc.st = PRM_QP_ST_UC;
		qc.user_index = UIDX_A;
		fx_qp_create(&p.f, &qc, &p.a);
		fx_qp_cfg_default(&qc, &bcq, NULL);
		qc.st = PRM_QP_ST_UC;
		fx_qp_create(&p.f, &qc, &b);
		fx_conn_default(&p.f, &cn, p.a.qpn);
		cn.rre = cn.rae = 0;
		fx_qp_connect(&p.f, &b, &cn, PRM_QP_STATE_RTS);
		cn.remote_qpn = i == 0 ? b.qpn : 0xabcde;
		fx_qp_connect(&p.f, &p.a, &cn, PRM_QP_STATE_RTS);
		memset(dst, GUARD, sizeof(dst));
		lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
		rk = fx_mr(&p.f, dst, sizeof(dst), RW);
		idx = post_rdma(&p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, CE2, dst, rk, src, lk, 8);
		fx_ring(&p.a, FX_RING_CTRL);
		fx_poll_ok(&p.acq, &c);
		assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
		assert_int_equal(c.wqe_counter, idx);
		if (i == 0)
			assert_memory_equal(dst, src, 8);
		else
			fx_assert_all(dst, sizeof(dst), GUARD);
		if (i == 0) {
			/* No receive WQE posted at b: the SEND is dropped, the requester completes. */
			idx = fx_take(&p.a, 2);
			assert_int_equal(opengda_mlx5_wqe_send(&p.a.sqd, idx, CE2, fx_va(src), lk, 8), 2);
			fx_ring(&p.a, FX_RING_PI);
			fx_poll_ok(&p.acq, &c);
			assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
			assert_int_equal(c.wqe_counter, idx);
			assert_true(fx_no_cqe(&bcq, 10));
		}
		fx_qp_counters(&p.f, &p.a, NULL, NULL, &rnr, &tr);
		assert_int_equal(tr, 0);
		assert_int_equal(rnr, 0);
		idx = post_rdma(&p.a, OPENGDA_MLX5_OPCODE_RDMA_READ, CE2, dst, rk, src, lk, 8);
		expect_failure_then_flush(&p, idx, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_ST,
					  OPENGDA_MLX5_OPCODE_RDMA_READ);
		fx_close(&p.f);
	}
}

/* Local buffers the NIC cannot reach (GPU memory without a CUDA driver here): LOCAL_PROT. */
static uint8_t fake_gpu[64];

static enum ogda_mem_kind fake_gpu_probe(const void *addr, size_t len)
{
	(void)len;
	return (const uint8_t *)addr >= fake_gpu && (const uint8_t *)addr < fake_gpu + sizeof(fake_gpu) ? OGDA_MEM_GPU
													 : OGDA_MEM_HOST;
}

static void test_unreachable_local_memory(void **state)
{
	uint8_t remote[16];
	struct fx_pair p;
	uint32_t gk, rk;
	int i;

	(void)state;
	swnic_mem_set_kind_probe(fake_gpu_probe);
	for (i = 0; i < 2; i++) {
		uint8_t opcode = i == 0 ? OPENGDA_MLX5_OPCODE_RDMA_WRITE : OPENGDA_MLX5_OPCODE_RDMA_READ;

		fx_pair_open(&p, 4, NULL, NULL, NULL);
		memset(remote, GUARD, sizeof(remote));
		memset(fake_gpu, 0x11, sizeof(fake_gpu));
		gk = fx_mr(&p.f, fake_gpu, sizeof(fake_gpu), OGDA_ACCESS_LOCAL_WRITE);
		rk = fx_mr(&p.f, remote, sizeof(remote), RW);
		post_rdma(&p.a, opcode, CE2, remote, rk, fake_gpu, gk, 16);
		expect_failure_then_flush(&p, 0, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, SWNIC_VSYND_LOCAL_COPY, opcode);
		fx_assert_all(remote, sizeof(remote), GUARD);
		fx_assert_all(fake_gpu, sizeof(fake_gpu), 0x11);
		fx_pair_close(&p);
	}
	swnic_mem_set_kind_probe(NULL);
}

/* Every field of a receive flush CQE (RESP_ERR, WR_FLUSH_ERR) for RQ entry idx of qp. */
static void assert_recv_flush(struct fx_cq *cq, const struct fx_qp *qp, uint16_t idx)
{
	struct opengda_mlx5_cqe_fields c;

	fx_poll_ok(cq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_RESP_ERR);
	assert_int_equal(c.syndrome, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	assert_int_equal(c.vendor_syndrome, SWNIC_VSYND_FLUSH);
	assert_int_equal(c.qpn, qp->qpn);
	assert_int_equal(c.wqe_counter, idx);
	assert_int_equal(c.byte_cnt, 0);
}

/*
 * 2ERR on a QP with posted receives: each completes with WR_FLUSH_ERR on the receive CQ,
 * in order, and so does a receive posted while the QP stays in ERR. Nothing is written to
 * the receive buffers.
 */
static void test_receive_flush_on_2err(void **state)
{
	uint8_t rbuf[64];
	struct fx_pair p;
	uint32_t rlk;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	memset(rbuf, GUARD, sizeof(rbuf));
	rlk = fx_mr(&p.f, rbuf, sizeof(rbuf), OGDA_ACCESS_LOCAL_WRITE);
	fx_rq_post(&p.b, rbuf, 16, rlk);
	fx_rq_post(&p.b, rbuf + 16, 16, rlk);
	fx_rq_post(&p.b, rbuf + 32, 16, rlk);
	assert_true(fx_no_cqe(&p.bcq, 20));
	fx_qp_modify(&p.f, &p.b, PRM_CMD_2ERR_QP, NULL);
	assert_recv_flush(&p.bcq, &p.b, 0);
	assert_recv_flush(&p.bcq, &p.b, 1);
	assert_recv_flush(&p.bcq, &p.b, 2);
	assert_true(fx_no_cqe(&p.bcq, 20));
	fx_rq_post(&p.b, rbuf + 48, 16, rlk);
	assert_recv_flush(&p.bcq, &p.b, 3);
	fx_assert_all(rbuf, sizeof(rbuf), GUARD);
	assert_int_equal(fx_qp_state(&p.f, &p.b), PRM_QP_STATE_ERR);
	fx_pair_close(&p);
}

/*
 * After 2ERR and 2RST the receive queue starts again at entry 0: the producer zeroes its
 * doorbell record, the QP is brought back to RTS, and a SEND lands in entry 0 with
 * wqe_counter 0 in the responder CQE.
 */
static void test_receive_queue_restarts_after_2rst(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t src[16], rbuf[32];
	struct fx_pair p;
	uint32_t lk, rlk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	memset(src, 0x5a, sizeof(src));
	memset(rbuf, GUARD, sizeof(rbuf));
	lk = fx_mr(&p.f, src, sizeof(src), 0);
	rlk = fx_mr(&p.f, rbuf, sizeof(rbuf), OGDA_ACCESS_LOCAL_WRITE);
	fx_rq_post(&p.b, rbuf, 16, rlk);
	fx_rq_post(&p.b, rbuf, 16, rlk);
	fx_qp_modify(&p.f, &p.b, PRM_CMD_2ERR_QP, NULL);
	assert_recv_flush(&p.bcq, &p.b, 0);
	assert_recv_flush(&p.bcq, &p.b, 1);
	fx_qp_modify(&p.f, &p.b, PRM_CMD_2RST_QP, NULL);
	p.b.rq_pi = 0;
	atomic_store_explicit(&p.b.dbr[OPENGDA_MLX5_RCV_DBR], 0, memory_order_release);
	fx_qp_connect(&p.f, &p.b, &p.cb, PRM_QP_STATE_RTS);
	fx_rq_post(&p.b, rbuf + 8, 16, rlk);
	idx = fx_take(&p.a, 2);
	assert_int_equal(opengda_mlx5_wqe_send(&p.a.sqd, idx, CE2, fx_va(src), lk, 16), 2);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	fx_poll_ok(&p.bcq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_RESP_SEND);
	assert_int_equal(c.wqe_counter, 0);
	assert_int_equal(c.byte_cnt, 16);
	assert_memory_equal(rbuf + 8, src, 16);
	fx_assert_all(rbuf, 8, GUARD);
	fx_assert_all(rbuf + 24, 8, GUARD);
	fx_pair_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_lkey),
		cmocka_unit_test(test_local_protection),
		cmocka_unit_test(test_message_too_long),
		cmocka_unit_test(test_local_qp_operation),
		cmocka_unit_test(test_remote_access),
		cmocka_unit_test(test_remote_invalid_request),
		cmocka_unit_test(test_remote_operation),
		cmocka_unit_test(test_rnr_retry_exceeded),
		cmocka_unit_test(test_rnr_infinite_is_bounded),
		cmocka_unit_test(test_rnr_then_receive),
		cmocka_unit_test(test_transport_retry_exceeded),
		cmocka_unit_test(test_cq_overrun),
		cmocka_unit_test(test_uc_semantics),
		cmocka_unit_test(test_unreachable_local_memory),
		cmocka_unit_test(test_receive_flush_on_2err),
		cmocka_unit_test(test_receive_queue_restarts_after_2rst),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
