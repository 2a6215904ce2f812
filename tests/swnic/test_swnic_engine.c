/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine: the doorbell rule (rdma-core ctrl rings, NVSHMEM / DOCA {pi, qpn} rings,
 * BlueFlame copies, DBR-less rings; no execution without a ring; DBR recovery of a ring
 * lost on a shared UAR page; implausible indexes ignored), QP states (rings before RTS wait
 * for RTS; 2ERR flushes what is outstanding; 2RST rewinds the send queue), detaching a QP
 * with a WQE still waiting, and four producer threads on four QPs.
 *
 * Registered twice: with the default adaptive polling and 2 engine threads, and with
 * OPENGDA_SWNIC_POLL=spin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "prm/prm_cmd.h"
#include "prm/prm_qpc.h"
#include "swnic/swnic_engine.h"
#include "swnic_fixture.h"

#define CE2 OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE
#define RW (OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ)
#define GUARD 0xeeu
#define QUIET_MS 30u /* how long "nothing happens" is watched */

static uint64_t va(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* A signalled 1-byte inline WRITE of value to dst; returns its index. */
static uint16_t post_mark(struct fx_qp *qp, uint8_t *dst, uint32_t rkey, uint8_t value)
{
	uint16_t idx = fx_take(qp, 3);

	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&qp->sqd, idx, CE2, va(dst), rkey, &value, 1), 3);
	return idx;
}

static void expect_req(struct fx_cq *cq, const struct fx_qp *qp, uint8_t wqe_opcode, uint16_t idx)
{
	struct opengda_mlx5_cqe_fields c;

	fx_poll_ok(cq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.wqe_opcode, wqe_opcode);
	assert_int_equal(c.qpn, qp->qpn);
	assert_int_equal(c.wqe_counter, idx);
}

static void expect_flush(struct fx_cq *cq, const struct fx_qp *qp, uint8_t wqe_opcode, uint16_t idx)
{
	struct opengda_mlx5_cqe_fields c;

	fx_poll_ok(cq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ_ERR);
	assert_int_equal(c.syndrome, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	assert_int_equal(c.wqe_opcode, wqe_opcode);
	assert_int_equal(c.qpn, qp->qpn);
	assert_int_equal(c.wqe_counter, idx);
}

/* Each producer convention rings the engine; each WQE runs exactly once. */
static void test_ring_styles(void **state)
{
	static const enum fx_ring styles[] = {FX_RING_CTRL, FX_RING_PI, FX_RING_BF, FX_RING_CTRL, FX_RING_BF, FX_RING_PI};
	uint8_t dst[8];
	struct fx_pair p;
	uint64_t wqes;
	uint32_t rk, i;

	(void)state;
	fx_pair_open(&p, 2, NULL, NULL, NULL);
	memset(dst, 0, sizeof(dst));
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	for (i = 0; i < 6; i++) {
		uint16_t idx = post_mark(&p.a, dst + i, rk, (uint8_t)(0x10 + i));

		fx_ring(&p.a, styles[i]);
		expect_req(&p.acq, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, idx);
		assert_int_equal(dst[i], 0x10 + i);
	}
	assert_true(fx_no_cqe(&p.acq, QUIET_MS));
	fx_qp_counters(&p.f, &p.a, &wqes, NULL, NULL, NULL);
	assert_int_equal(wqes, 6);
	fx_pair_close(&p);
}

/* DBR-less QP (send_dbr_mode NO_DBR_EXT): the ring at UAR + 0x600 is the only signal. */
static void test_dbr_less(void **state)
{
	struct fx_cq_cfg cc = {.log_size = 4};
	struct fx_qp_cfg qc;
	struct fx_qp q;
	struct fx_cq cq;
	struct fx_pair p;
	uint8_t dst[4];
	uint32_t rk, i;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	fx_cq_create(&p.f, &cc, &cq);
	fx_qp_cfg_default(&qc, &cq, NULL);
	qc.log_sq = 2;
	qc.send_dbr_mode = PRM_QP_SEND_DBR_NO_DBR_EXT;
	fx_qp_create(&p.f, &qc, &q);
	fx_qp_connect_new_peer(&p.f, &q, &cq, PRM_QP_STATE_RTS);
	memset(dst, 0, sizeof(dst));
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	for (i = 0; i < 9; i++) { /* over two ring wraps */
		uint16_t idx = post_mark(&q, dst + (i & 3u), rk, (uint8_t)(i + 1));

		fx_ring(&q, FX_RING_DBR_LESS);
		expect_req(&cq, &q, OPENGDA_MLX5_OPCODE_RDMA_WRITE, idx);
		assert_int_equal(dst[i & 3u], i + 1);
	}
	/*
	 * The DBR is not read in this mode: a DBR write followed by another QP's ring on the
	 * same page (which recovers a valid-DBR QP) does nothing.
	 */
	post_mark(&q, dst, rk, 0x77);
	atomic_store(&q.dbr[OPENGDA_MLX5_SND_DBR], opengda_mlx5_qp_dbr_value(q.pi));
	assert_true(q.uar_page == p.a.uar_page);
	i = post_mark(&p.a, dst + 3, rk, 0x66);
	fx_ring(&p.a, FX_RING_PI);
	expect_req(&p.acq, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, (uint16_t)i);
	assert_true(fx_no_cqe(&cq, QUIET_MS));
	assert_int_equal(dst[0], 9);
	assert_int_equal(dst[3], 0x66);
	fx_pair_close(&p);
}

/* Writing the WQE and the DBR without a ring executes nothing; the ring then does. */
static void test_no_ring_no_execution(void **state)
{
	uint8_t dst[2] = {0, 0};
	struct fx_pair p;
	uint32_t rk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	idx = post_mark(&p.a, dst, rk, 0x42);
	fx_ring(&p.a, FX_RING_DBR_ONLY);
	assert_true(fx_no_cqe(&p.acq, QUIET_MS));
	assert_int_equal(dst[0], 0);
	fx_ring(&p.a, FX_RING_PI);
	expect_req(&p.acq, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, idx);
	assert_int_equal(dst[0], 0x42);
	assert_int_equal(dst[1], 0);
	fx_pair_close(&p);
}

/*
 * Two QPs share a UAR page. q1's ring is lost (only its DBR was written, as when q2's ring
 * overwrites the register first); q2's ring on the same page makes the engine read q1's DBR.
 * A QP on a page of its own is not woken by it.
 */
static void test_dbr_recovers_lost_ring(void **state)
{
	struct fx_cq_cfg cc = {.log_size = 4};
	struct fx_cq cq1, cq2, cq3;
	struct fx_qp q1, q2, q3;
	struct fx_qp_cfg qc;
	struct fx_pair p;
	uint8_t dst[3] = {0, 0, 0};
	uint16_t i1, i2, i3;
	uint32_t rk;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	fx_cq_create(&p.f, &cc, &cq1);
	fx_cq_create(&p.f, &cc, &cq2);
	fx_cq_create(&p.f, &cc, &cq3);
	fx_qp_cfg_default(&qc, &cq1, NULL);
	fx_qp_create(&p.f, &qc, &q1);
	fx_qp_cfg_default(&qc, &cq2, NULL);
	fx_qp_create(&p.f, &qc, &q2);
	fx_qp_cfg_default(&qc, &cq3, NULL);
	qc.own_uar = true;
	fx_qp_create(&p.f, &qc, &q3);
	assert_true(q1.uar_page == q2.uar_page);
	assert_true(q3.uar_page != q1.uar_page);
	fx_qp_connect_new_peer(&p.f, &q1, &cq1, PRM_QP_STATE_RTS);
	fx_qp_connect_new_peer(&p.f, &q2, &cq2, PRM_QP_STATE_RTS);
	fx_qp_connect_new_peer(&p.f, &q3, &cq3, PRM_QP_STATE_RTS);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);

	i1 = post_mark(&q1, &dst[0], rk, 1);
	fx_ring(&q1, FX_RING_DBR_ONLY);
	i3 = post_mark(&q3, &dst[2], rk, 3);
	fx_ring(&q3, FX_RING_DBR_ONLY);
	assert_true(fx_no_cqe(&cq1, QUIET_MS));
	i2 = post_mark(&q2, &dst[1], rk, 2);
	fx_ring(&q2, FX_RING_PI);
	expect_req(&cq2, &q2, OPENGDA_MLX5_OPCODE_RDMA_WRITE, i2);
	expect_req(&cq1, &q1, OPENGDA_MLX5_OPCODE_RDMA_WRITE, i1);
	assert_int_equal(dst[0], 1);
	assert_int_equal(dst[1], 2);
	assert_true(fx_no_cqe(&cq3, QUIET_MS));
	assert_int_equal(dst[2], 0);
	fx_ring(&q3, FX_RING_CTRL);
	expect_req(&cq3, &q3, OPENGDA_MLX5_OPCODE_RDMA_WRITE, i3);
	assert_int_equal(dst[2], 3);
	fx_pair_close(&p);
}

/* A ring whose index is further than the SQ size from the consumer is ignored. */
static void test_implausible_index_ignored(void **state)
{
	struct fx_cq_cfg cc = {.log_size = 4};
	struct fx_qp_cfg qc;
	struct fx_qp q;
	struct fx_cq cq;
	struct fx_pair p;
	uint8_t dst[1] = {0};
	uint32_t rk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	fx_cq_create(&p.f, &cc, &cq);
	fx_qp_cfg_default(&qc, &cq, NULL);
	qc.log_sq = 3;
	qc.send_dbr_mode = PRM_QP_SEND_DBR_NO_DBR_EXT; /* no DBR to fall back on */
	fx_qp_create(&p.f, &qc, &q);
	fx_qp_connect_new_peer(&p.f, &q, &cq, PRM_QP_STATE_RTS);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	idx = post_mark(&q, dst, rk, 0x5a);
	/* 9 WQEBBs ahead of an 8-WQEBB ring. */
	__atomic_store_n((uint64_t *)(void *)(q.uar_page + OPENGDA_MLX5_UAR_DBR_LESS_OFFSET),
			 opengda_mlx5_qp_uar_db_value(9, q.qpn), __ATOMIC_RELEASE);
	assert_true(fx_no_cqe(&cq, QUIET_MS));
	assert_int_equal(dst[0], 0);
	/* A ring naming another QP does not move this one either. */
	__atomic_store_n((uint64_t *)(void *)(q.uar_page + OPENGDA_MLX5_UAR_DBR_LESS_OFFSET),
			 opengda_mlx5_qp_uar_db_value(1, q.qpn + 1), __ATOMIC_RELEASE);
	assert_true(fx_no_cqe(&cq, QUIET_MS));
	fx_ring(&q, FX_RING_DBR_LESS);
	expect_req(&cq, &q, OPENGDA_MLX5_OPCODE_RDMA_WRITE, idx);
	assert_int_equal(dst[0], 0x5a);
	fx_pair_close(&p);
}

/* WQEs rung in INIT and RTR wait; they run once the QP reaches RTS. */
static void test_rung_before_rts_runs_at_rts(void **state)
{
	struct fx_cq_cfg cc = {.log_size = 4};
	struct fx_qp_cfg qc;
	struct fx_conn cn;
	struct fx_qp q;
	struct fx_cq cq;
	struct fx_pair p;
	uint8_t dst[2] = {0, 0};
	uint16_t i0, i1;
	uint32_t rk;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	fx_cq_create(&p.f, &cc, &cq);
	fx_qp_cfg_default(&qc, &cq, NULL);
	fx_qp_create(&p.f, &qc, &q);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	fx_conn_default(&p.f, &cn, fx_qp_connect_new_peer(&p.f, &q, &cq, PRM_QP_STATE_INIT));
	i0 = post_mark(&q, &dst[0], rk, 1);
	fx_ring(&q, FX_RING_CTRL);
	assert_true(fx_no_cqe(&cq, QUIET_MS));
	fx_qp_modify(&p.f, &q, PRM_CMD_INIT2RTR_QP, &cn);
	i1 = post_mark(&q, &dst[1], rk, 2);
	fx_ring(&q, FX_RING_PI);
	assert_true(fx_no_cqe(&cq, QUIET_MS));
	assert_int_equal(dst[0], 0);
	assert_int_equal(dst[1], 0);
	fx_qp_modify(&p.f, &q, PRM_CMD_RTR2RTS_QP, &cn);
	expect_req(&cq, &q, OPENGDA_MLX5_OPCODE_RDMA_WRITE, i0);
	expect_req(&cq, &q, OPENGDA_MLX5_OPCODE_RDMA_WRITE, i1);
	assert_int_equal(dst[0], 1);
	assert_int_equal(dst[1], 2);
	fx_pair_close(&p);
}

/* A cd_master QP of p's NIC connected to p.b, with its own CQ. */
static void make_master(struct fx_pair *p, struct fx_cq *cq, struct fx_qp *q)
{
	struct fx_cq_cfg cc = {.log_size = 4};
	struct fx_qp_cfg qc;

	fx_cq_create(&p->f, &cc, cq);
	fx_qp_cfg_default(&qc, cq, NULL);
	qc.cd_master = true;
	fx_qp_create(&p->f, &qc, q);
	fx_qp_connect_new_peer(&p->f, q, cq, PRM_QP_STATE_RTS);
}

/*
 * 2ERR while a WAIT (on a CQ that never advances) holds the queue: the WAIT and everything
 * behind it complete with WR_FLUSH_ERR, and so does a WQE rung afterwards.
 */
static void test_2err_flushes_outstanding(void **state)
{
	uint8_t dst[2] = {0, 0};
	struct fx_cq cq;
	struct fx_qp q;
	struct fx_pair p;
	uint16_t w, m1, m2, m3;
	uint32_t rk;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	make_master(&p, &cq, &q);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	m1 = post_mark(&q, &dst[0], rk, 1);
	w = fx_take(&q, 2);
	assert_int_equal(opengda_mlx5_wqe_wait_cq(&q.sqd, w, 0, p.bcq.cqn, 100), 2);
	m2 = post_mark(&q, &dst[1], rk, 2);
	fx_ring(&q, FX_RING_CTRL);
	expect_req(&cq, &q, OPENGDA_MLX5_OPCODE_RDMA_WRITE, m1);
	assert_true(fx_no_cqe(&cq, QUIET_MS));
	fx_qp_modify(&p.f, &q, PRM_CMD_2ERR_QP, NULL);
	expect_flush(&cq, &q, OPENGDA_MLX5_OPCODE_WAIT, w);
	expect_flush(&cq, &q, OPENGDA_MLX5_OPCODE_RDMA_WRITE, m2);
	m3 = post_mark(&q, &dst[1], rk, 3);
	fx_ring(&q, FX_RING_BF);
	expect_flush(&cq, &q, OPENGDA_MLX5_OPCODE_RDMA_WRITE, m3);
	assert_true(fx_no_cqe(&cq, QUIET_MS));
	assert_int_equal(dst[0], 1);
	assert_int_equal(dst[1], 0);
	fx_pair_close(&p);
}

/*
 * 2RST rewinds the send queue to the doorbell contents: a producer that restarts at 0
 * (DBR zeroed, as rdma-core does) and one that keeps counting are both followed.
 */
static void test_2rst_rewinds(void **state)
{
	uint8_t dst[4] = {0, 0, 0, 0};
	struct fx_pair p;
	uint32_t rk, round;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	idx = post_mark(&p.a, &dst[0], rk, 1);
	post_mark(&p.a, &dst[0], rk, 1);
	post_mark(&p.a, &dst[0], rk, 1);
	fx_ring(&p.a, FX_RING_CTRL);
	expect_req(&p.acq, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, idx);
	expect_req(&p.acq, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 1);
	expect_req(&p.acq, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 2);
	for (round = 0; round < 2; round++) {
		fx_qp_modify(&p.f, &p.a, PRM_CMD_2RST_QP, NULL);
		assert_int_equal(fx_qp_state(&p.f, &p.a), PRM_QP_STATE_RST);
		if (round == 0) {
			p.a.pi = 0; /* restart the counters, DBR first */
			atomic_store(&p.a.dbr[OPENGDA_MLX5_SND_DBR], 0);
		}
		/* Its peer starts over too (an RC connection restarts on both sides: PSNs from 0). */
		fx_qp_modify(&p.f, &p.b, PRM_CMD_2RST_QP, NULL);
		fx_qp_connect(&p.f, &p.b, &p.cb, PRM_QP_STATE_RTS);
		fx_qp_connect(&p.f, &p.a, &p.ca, PRM_QP_STATE_RTS);
		idx = post_mark(&p.a, &dst[1 + round], rk, (uint8_t)(0x20 + round));
		assert_int_equal(idx, round == 0 ? 0 : 1);
		fx_ring(&p.a, round == 0 ? FX_RING_CTRL : FX_RING_PI);
		expect_req(&p.acq, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, idx);
		assert_int_equal(dst[1 + round], 0x20 + round);
	}
	assert_true(fx_no_cqe(&p.acq, QUIET_MS));
	fx_pair_close(&p);
}

/* Destroying a QP whose WAIT never completes returns; its CQ gets nothing more. */
static void test_destroy_with_waiting_wqe(void **state)
{
	struct fx_cq cq;
	struct fx_qp q;
	struct fx_pair p;
	uint16_t w;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	make_master(&p, &cq, &q);
	w = fx_take(&q, 2);
	assert_int_equal(opengda_mlx5_wqe_wait_cq(&q.sqd, w, CE2, p.bcq.cqn, 1000), 2);
	fx_ring(&q, FX_RING_PI);
	assert_true(fx_no_cqe(&cq, QUIET_MS));
	fx_qp_destroy(&p.f, &q);
	assert_true(fx_no_cqe(&cq, QUIET_MS));
	fx_pair_close(&p);
}

#define PRODUCERS 4
#define PER_PRODUCER 300u
#define SLOT 16u

struct producer {
	struct fx_pair *p;
	struct fx_qp qp;
	struct fx_cq cq;
	uint8_t *src, *dst;
	uint32_t lk, rk;
	int failed;
};

/* Posts PER_PRODUCER signalled WRITEs in batches of up to 4, polling as it goes. */
static void *producer_main(void *arg)
{
	struct producer *pr = arg;
	uint32_t posted = 0, done = 0;

	while (done < PER_PRODUCER) {
		uint32_t n = 0;

		while (posted < PER_PRODUCER && posted - done < 4u && n < 3u) {
			uint16_t idx = fx_take(&pr->qp, 3);

			if (opengda_mlx5_wqe_rdma_write(&pr->qp.sqd, idx, CE2, va(pr->dst + posted * SLOT), pr->rk,
							va(pr->src + posted * SLOT), pr->lk, SLOT) != 3)
				pr->failed = 1;
			posted++;
			n++;
		}
		if (n != 0)
			fx_ring(&pr->qp, (posted & 1u) ? FX_RING_CTRL : FX_RING_PI);
		while (done < posted) {
			struct opengda_mlx5_cqe_fields c;

			if (!fx_poll(&pr->cq, FX_POLL_TIMEOUT_MS, &c) || c.opcode != OPENGDA_MLX5_CQE_REQ ||
			    c.wqe_counter != (uint16_t)done || c.qpn != pr->qp.qpn || c.byte_cnt != SLOT) {
				pr->failed = 1;
				return NULL;
			}
			done++;
		}
	}
	return NULL;
}

/* Four threads, four QPs (each with its own CQ and UAR), all running at once. */
static void test_four_producers(void **state)
{
	struct producer pr[PRODUCERS];
	pthread_t tid[PRODUCERS];
	struct fx_cq_cfg cc = {.log_size = 3};
	struct fx_pair p;
	int i;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	for (i = 0; i < PRODUCERS; i++) {
		struct fx_qp_cfg qc;
		uint32_t k;

		memset(&pr[i], 0, sizeof(pr[i]));
		pr[i].p = &p;
		pr[i].src = malloc(PER_PRODUCER * SLOT);
		pr[i].dst = malloc(PER_PRODUCER * SLOT);
		assert_non_null(pr[i].src);
		assert_non_null(pr[i].dst);
		for (k = 0; k < PER_PRODUCER * SLOT; k++)
			pr[i].src[k] = (uint8_t)(k * 13u + (uint32_t)i);
		memset(pr[i].dst, GUARD, PER_PRODUCER * SLOT);
		pr[i].lk = fx_mr(&p.f, pr[i].src, PER_PRODUCER * SLOT, OGDA_ACCESS_LOCAL_WRITE);
		pr[i].rk = fx_mr(&p.f, pr[i].dst, PER_PRODUCER * SLOT, RW);
		fx_cq_create(&p.f, &cc, &pr[i].cq);
		fx_qp_cfg_default(&qc, &pr[i].cq, NULL);
		qc.log_sq = 2;
		qc.own_uar = (i & 1) != 0;
		fx_qp_create(&p.f, &qc, &pr[i].qp);
		fx_qp_connect_new_peer(&p.f, &pr[i].qp, &pr[i].cq, PRM_QP_STATE_RTS);
	}
	for (i = 0; i < PRODUCERS; i++)
		assert_int_equal(pthread_create(&tid[i], NULL, producer_main, &pr[i]), 0);
	for (i = 0; i < PRODUCERS; i++)
		assert_int_equal(pthread_join(tid[i], NULL), 0);
	for (i = 0; i < PRODUCERS; i++) {
		uint64_t wqes, errors;

		assert_int_equal(pr[i].failed, 0);
		assert_memory_equal(pr[i].dst, pr[i].src, PER_PRODUCER * SLOT);
		fx_qp_counters(&p.f, &pr[i].qp, &wqes, &errors, NULL, NULL);
		assert_int_equal(wqes, PER_PRODUCER);
		assert_int_equal(errors, 0);
	}
	fx_pair_close(&p);
	for (i = 0; i < PRODUCERS; i++) {
		free(pr[i].src);
		free(pr[i].dst);
	}
}

/* The engine's own entry points refuse bad arguments without crashing. */
static void test_engine_bad_arguments(void **state)
{
	struct swnic_engine *e = NULL;
	struct fx_pair p;
	struct swnic_qp *q;

	(void)state;
	assert_int_equal(swnic_engine_create(NULL, &e), DOCA_ERROR_INVALID_VALUE);
	fx_pair_open(&p, 2, NULL, NULL, NULL);
	assert_int_equal(swnic_engine_create(p.f.nic, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_engine_attach_qp(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	q = swnic_qp_acquire(p.f.nic, p.a.qpn);
	assert_non_null(q);
	assert_int_equal(swnic_engine_attach_qp(p.f.nic->engine, q), DOCA_ERROR_ALREADY_EXIST);
	swnic_qp_release(q);
	swnic_engine_detach_qp(NULL, NULL);
	swnic_engine_qp_modified(NULL, NULL, 0);
	swnic_engine_destroy(NULL);
	fx_pair_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_styles),
		cmocka_unit_test(test_dbr_less),
		cmocka_unit_test(test_no_ring_no_execution),
		cmocka_unit_test(test_dbr_recovers_lost_ring),
		cmocka_unit_test(test_implausible_index_ignored),
		cmocka_unit_test(test_rung_before_rts_runs_at_rts),
		cmocka_unit_test(test_2err_flushes_outstanding),
		cmocka_unit_test(test_2rst_rewinds),
		cmocka_unit_test(test_destroy_with_waiting_wqe),
		cmocka_unit_test(test_four_producers),
		cmocka_unit_test(test_engine_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
