/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQE production (swnic_cqe.c) on CQs built by hand: every field of requester, error and
 * responder CQEs as bytes, the owner bit over several ring wraps, 128-byte CQEs, the
 * collapsed CQ, overrun detection against SET_CI (and overrun ignore), and the flush of a
 * send queue (one WR_FLUSH_ERR CQE per WQE, multi-WQEBB WQEs included).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "opengda_mlx5.h"
#include "swnic/swnic_engine.h"

#define RING_BYTES (64u * 128u)

struct cq_fix {
	struct swnic_cq cq;
	uint8_t *ring;
	_Atomic uint32_t dbr[2];
};

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

/* A CQ of 2^log_size entries of cqe_size bytes over a ring pre-filled with 0xa5 guard bytes. */
static void cq_fix_init(struct cq_fix *c, uint32_t log_size, uint32_t cqe_size, bool collapsed, bool oi)
{
	memset(c, 0, sizeof(*c));
	c->ring = aligned_alloc(64, RING_BYTES);
	assert_non_null(c->ring);
	memset(c->ring, 0xa5, RING_BYTES);
	assert_true((cqe_size << log_size) <= RING_BYTES);
	pthread_mutex_init(&c->cq.lock, NULL);
	c->cq.cqn = 0x85;
	c->cq.ring = c->ring;
	c->cq.log_size = log_size;
	c->cq.cqe_size = cqe_size;
	c->cq.collapsed = collapsed;
	c->cq.overrun_ignore = oi;
	c->cq.dbr = c->dbr;
	atomic_init(&c->cq.produced, 0);
	atomic_init(&c->cq.in_error, false);
	atomic_init(&c->dbr[0], 0);
	atomic_init(&c->dbr[1], 0);
}

static void cq_fix_fini(struct cq_fix *c)
{
	pthread_mutex_destroy(&c->cq.lock);
	free(c->ring);
}

static void set_ci(struct cq_fix *c, uint32_t ci)
{
	atomic_store(&c->dbr[0], opengda_mlx5_htobe32(ci & 0xffffffu));
}

static void assert_guard(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(p[i], 0xa5);
}

static void assert_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(p[i], 0);
}

static void test_req_cqe_bytes(void **state)
{
	struct cq_fix c;
	const uint8_t *e;

	(void)state;
	cq_fix_init(&c, 2, 64, false, false);
	assert_int_equal(swnic_cq_post_req(&c.cq, OPENGDA_MLX5_OPCODE_RDMA_READ, 0x201, 0xabcdef, 0x1234, 4096),
			 DOCA_SUCCESS);
	e = c.ring;
	assert_zero(e, 32);                            /* responder info */
	assert_int_equal(be32(e + 32), 0xabcdef);      /* srqn_uidx = user index */
	assert_int_equal(be32(e + 36), 0);             /* imm */
	assert_zero(e + 40, 4);                        /* app */
	assert_int_equal(be32(e + 44), 4096);          /* byte_cnt */
	assert_true(be32(e + 48) != 0 || be32(e + 52) != 0); /* time stamp */
	assert_int_equal(be32(e + 56), (0x10u << 24) | 0x201); /* wqe opcode | qpn */
	assert_int_equal(be16(e + 60), 0x1234);
	assert_int_equal(e[62], 0);
	assert_int_equal(e[63], 0x00); /* REQ, owner 0 on the first pass */
	assert_guard(e + 64, 3 * 64);  /* nothing else written */
	assert_int_equal(atomic_load(&c.cq.produced), 1);
	cq_fix_fini(&c);
}

static void test_error_cqe_bytes(void **state)
{
	struct cq_fix c;
	const uint8_t *e;

	(void)state;
	cq_fix_init(&c, 1, 64, false, false);
	assert_int_equal(swnic_cq_post_error(&c.cq, OPENGDA_MLX5_CQE_REQ_ERR, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
					     SWNIC_VSYND_BAD_LKEY, OPENGDA_MLX5_OPCODE_SEND, 0x2aa, 7, 0xfffe),
			 DOCA_SUCCESS);
	e = c.ring;
	assert_zero(e, 32);
	assert_int_equal(be32(e + 32), 7);
	assert_zero(e + 36, 16);                       /* imm, app, byte_cnt, timestamp high */
	assert_int_equal(e[52], 0);                    /* hw_err_synd */
	assert_int_equal(e[53], 0);                    /* hw_synd_type */
	assert_int_equal(e[54], SWNIC_VSYND_BAD_LKEY);
	assert_int_equal(e[55], 0x04);
	assert_int_equal(be32(e + 56), (0x0au << 24) | 0x2aa);
	assert_int_equal(be16(e + 60), 0xfffe);
	assert_int_equal(e[63], 0xd0); /* REQ_ERR << 4, owner 0 */

	/* Bad arguments write nothing. */
	assert_int_equal(swnic_cq_post_error(&c.cq, OPENGDA_MLX5_CQE_REQ, 0x04, 0, 0, 1, 0, 0),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_cq_post_error(&c.cq, OPENGDA_MLX5_CQE_REQ_ERR, 0, 0, 0, 1, 0, 0),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x1000000, 0, 0, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_cq_post_req(NULL, 0, 1, 0, 0, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(atomic_load(&c.cq.produced), 1);
	assert_guard(c.ring + 64, 64);
	cq_fix_fini(&c);
}

static void test_responder_cqe_bytes(void **state)
{
	struct cq_fix c;
	const uint8_t *e;

	(void)state;
	cq_fix_init(&c, 1, 64, false, false);
	/* imm_be as carried: memory image 12 34 56 78. */
	assert_int_equal(swnic_cq_post_responder(&c.cq, OPENGDA_MLX5_CQE_RESP_SEND_IMM, 0x300, 0x181, 5, 77,
						 opengda_mlx5_htobe32(0x12345678), false),
			 DOCA_SUCCESS);
	e = c.ring;
	assert_int_equal(be32(e + 32), 0x181);
	assert_int_equal(e[36], 0x12);
	assert_int_equal(e[37], 0x34);
	assert_int_equal(e[38], 0x56);
	assert_int_equal(e[39], 0x78);
	assert_int_equal(be32(e + 44), 77);
	assert_int_equal(be32(e + 56), 0x300); /* no send opcode */
	assert_int_equal(be16(e + 60), 5);
	assert_int_equal(e[63], 0x30);
	assert_int_equal(swnic_cq_post_responder(&c.cq, OPENGDA_MLX5_CQE_RESP_WR_IMM, 0x300, 0, 6, 0, 0, false),
			 DOCA_SUCCESS);
	assert_int_equal(c.ring[64 + 63], 0x10);
	/* A solicited message: the SE bit (op_own bit 1) is set, here with owner 1 on the second pass. */
	set_ci(&c, 2);
	assert_int_equal(swnic_cq_post_responder(&c.cq, OPENGDA_MLX5_CQE_RESP_SEND, 0x300, 0, 7, 8, 0, true),
			 DOCA_SUCCESS);
	assert_int_equal(c.ring[63], 0x23);
	assert_true(c.cq.sol_any);
	assert_int_equal(c.cq.sol_index, 2);
	assert_int_equal(swnic_cq_post_responder(&c.cq, OPENGDA_MLX5_CQE_REQ, 0x300, 0, 6, 0, 0, false),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_cq_post_responder(&c.cq, OPENGDA_MLX5_CQE_RESIZE_CQ, 0x300, 0, 6, 0, 0, false),
			 DOCA_ERROR_INVALID_VALUE);
	cq_fix_fini(&c);
}

/* Owner bit = (produced >> log_size) & 1 for 5 passes over a 4-entry CQ; SET_CI kept up to date. */
static void test_owner_bit_wraps(void **state)
{
	struct cq_fix c;
	uint32_t i;

	(void)state;
	cq_fix_init(&c, 2, 64, false, false);
	for (i = 0; i < 20; i++) {
		const uint8_t *e = c.ring + (i & 3u) * 64u;

		assert_int_equal(swnic_cq_post_req(&c.cq, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0x200, 0, (uint16_t)i, i),
				 DOCA_SUCCESS);
		assert_int_equal(e[63], (i >> 2) & 1u);
		assert_int_equal(be16(e + 60), i);
		assert_int_equal(be32(e + 44), i);
		assert_true(opengda_mlx5_cqe_is_sw_owned((const struct opengda_mlx5_cqe64 *)e, i, 2));
		assert_false(opengda_mlx5_cqe_is_sw_owned((const struct opengda_mlx5_cqe64 *)e, i + 4u, 2));
		set_ci(&c, i + 1u);
	}
	assert_int_equal(atomic_load(&c.cq.produced), 20);
	assert_guard(c.ring + 4 * 64, 64);
	cq_fix_fini(&c);
}

/* 128-byte CQEs: the CQE64 is the second half; the first half is not touched. */
static void test_cqe128_second_half(void **state)
{
	struct cq_fix c;
	uint32_t i;

	(void)state;
	cq_fix_init(&c, 1, 128, false, true);
	for (i = 0; i < 6; i++) {
		const uint8_t *entry = c.ring + (i & 1u) * 128u;

		assert_int_equal(swnic_cq_post_req(&c.cq, OPENGDA_MLX5_OPCODE_SEND, 0x200, 3, (uint16_t)(100 + i), 8),
				 DOCA_SUCCESS);
		assert_guard(entry, 64);
		assert_int_equal(be16(entry + 64 + 60), 100 + i);
		assert_int_equal(be32(entry + 64 + 32), 3);
		assert_int_equal(entry[64 + 63], (i >> 1) & 1u);
	}
	assert_guard(c.ring + 256, 128);
	cq_fix_fini(&c);
}

/* Collapsed CQ: every CQE lands in entry 0, no overrun check even without SET_CI updates. */
static void test_collapsed(void **state)
{
	struct cq_fix c;
	uint32_t i;

	(void)state;
	cq_fix_init(&c, 2, 64, true, false);
	for (i = 0; i < 11; i++) {
		assert_int_equal(swnic_cq_post_req(&c.cq, OPENGDA_MLX5_OPCODE_NOP, 0x200, 0, (uint16_t)(0xfff8 + i), 0),
				 DOCA_SUCCESS);
		assert_int_equal(be16(c.ring + 60), (uint16_t)(0xfff8 + i));
		assert_int_equal(c.ring[63] >> 4, OPENGDA_MLX5_CQE_REQ);
		assert_int_equal(c.ring[63] & 1u, (i >> 2) & 1u);
	}
	assert_guard(c.ring + 64, 3 * 64);
	assert_false(atomic_load(&c.cq.in_error));
	assert_int_equal(atomic_load(&c.cq.produced), 11);
	cq_fix_fini(&c);
}

/* oi = 0: the (size + 1)-th unconsumed CQE is an overrun; the CQ stays in error. */
static void test_overrun_detected(void **state)
{
	struct cq_fix c;
	uint8_t before[64];
	uint32_t i;

	(void)state;
	cq_fix_init(&c, 2, 64, false, false);
	for (i = 0; i < 4; i++)
		assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x200, 0, (uint16_t)i, 0), DOCA_SUCCESS);
	memcpy(before, c.ring, 64);
	assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x200, 0, 4, 0), DOCA_ERROR_FULL);
	assert_true(atomic_load(&c.cq.in_error));
	assert_memory_equal(before, c.ring, 64); /* entry 0 not overwritten */
	assert_int_equal(atomic_load(&c.cq.produced), 4);
	/* Consuming afterwards does not revive it. */
	set_ci(&c, 4);
	assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x200, 0, 4, 0), DOCA_ERROR_FULL);
	assert_int_equal(swnic_cq_post_responder(&c.cq, OPENGDA_MLX5_CQE_RESP_SEND, 0x200, 0, 0, 0, 0, false),
			 DOCA_ERROR_FULL);
	assert_int_equal(atomic_load(&c.cq.produced), 4);
	cq_fix_fini(&c);
}

/* oi = 0 with a consumer that keeps up (SET_CI 24-bit, wrapping past 2^24) never overruns. */
static void test_overrun_consumer_keeps_up(void **state)
{
	struct cq_fix c;
	uint32_t i;

	(void)state;
	cq_fix_init(&c, 1, 64, false, false);
	atomic_store(&c.cq.produced, 0xfffffeu);
	set_ci(&c, 0xfffffeu);
	for (i = 0; i < 6; i++) {
		assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x200, 0, (uint16_t)i, 0), DOCA_SUCCESS);
		assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x200, 0, (uint16_t)i, 0), DOCA_SUCCESS);
		set_ci(&c, atomic_load(&c.cq.produced));
	}
	assert_false(atomic_load(&c.cq.in_error));
	/* Two outstanding fill the 2-entry CQ; the third overruns. */
	assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x200, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x200, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x200, 0, 0, 0), DOCA_ERROR_FULL);
	cq_fix_fini(&c);
}

/* oi = 1: SET_CI is never read, the ring is simply overwritten. */
static void test_overrun_ignored(void **state)
{
	struct cq_fix c;
	uint32_t i;

	(void)state;
	cq_fix_init(&c, 1, 64, false, true);
	for (i = 0; i < 9; i++)
		assert_int_equal(swnic_cq_post_req(&c.cq, 0, 0x200, 0, (uint16_t)i, 0), DOCA_SUCCESS);
	assert_int_equal(be16(c.ring + 60), 8);
	assert_int_equal(be16(c.ring + 64 + 60), 7);
	assert_int_equal(c.ring[63] & 1u, 0);      /* produced 8: pass 4 */
	assert_int_equal(c.ring[64 + 63] & 1u, 1); /* produced 7: pass 3 */
	assert_false(atomic_load(&c.cq.in_error));
	cq_fix_fini(&c);
}

/* A hand-built QP around an SQ of 8 WQEBBs for the flush. */
struct sq_fix {
	struct swnic_qp qp;
	uint8_t *sq;
	struct opengda_mlx5_sq sqd;
};

static void sq_fix_init(struct sq_fix *s, struct cq_fix *c)
{
	memset(s, 0, sizeof(*s));
	s->sq = aligned_alloc(64, 8 * 64);
	assert_non_null(s->sq);
	memset(s->sq, 0, 8 * 64);
	s->qp.qpn = 0x233;
	s->qp.user_index = 0x42;
	s->qp.sq = s->sq;
	s->qp.log_sq_wqebbs = 3;
	s->qp.send_cq = &c->cq;
	s->sqd.ring = s->sq;
	s->sqd.log_wqebbs = 3;
	s->sqd.qpn = s->qp.qpn;
}

/*
 * Flush from index 6 over a NOP (1 WQEBB), a masked CS 8 B (2 WQEBBs, wrapping 7 -> 0),
 * an RDMA WRITE: three CQEs, each with its own opcode and wqe_counter.
 */
static void test_flush_one_cqe_per_wqe(void **state)
{
	struct cq_fix c;
	struct sq_fix s;
	uint32_t n = 99, i;
	uint16_t end;
	static const uint16_t idx[3] = {6, 7, 9};
	static const uint8_t op[3] = {OPENGDA_MLX5_OPCODE_NOP, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS,
				      OPENGDA_MLX5_OPCODE_RDMA_WRITE};

	(void)state;
	cq_fix_init(&c, 3, 64, false, true);
	sq_fix_init(&s, &c);
	assert_int_equal(opengda_mlx5_wqe_nop(&s.sqd, 6, 0, 1), 1);
	assert_int_equal(opengda_mlx5_wqe_masked_cs8(&s.sqd, 7, 0, 0x1000, 1, 2, 3, 4, 0x2000, 0x5000, 5), 5);
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&s.sqd, 9, 0, 0x3000, 6, 0x4000, 7, 8), 3);
	end = swnic_sq_flush(&s.qp, 6, 10, &n);
	assert_int_equal(end, 10);
	assert_int_equal(n, 3);
	for (i = 0; i < 3; i++) {
		const uint8_t *e = c.ring + i * 64u;

		assert_int_equal(e[63], 0xd0);
		assert_int_equal(e[55], OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
		assert_int_equal(e[54], SWNIC_VSYND_FLUSH);
		assert_int_equal(be32(e + 56), ((uint32_t)op[i] << 24) | 0x233);
		assert_int_equal(be16(e + 60), idx[i]);
		assert_int_equal(be32(e + 32), 0x42);
	}
	assert_guard(c.ring + 3 * 64, 64);
	assert_int_equal(atomic_load(&s.qp.counters.errors), 3);

	/* A DS larger than what was rung flushes only up to the target. */
	assert_int_equal(swnic_sq_flush(&s.qp, 7, 8, &n), 8);
	assert_int_equal(n, 1);
	assert_int_equal(be16(c.ring + 3 * 64 + 60), 7);
	/* Nothing outstanding: nothing written. */
	assert_int_equal(swnic_sq_flush(&s.qp, 8, 8, &n), 8);
	assert_int_equal(n, 0);
	assert_int_equal(atomic_load(&c.cq.produced), 4);
	free(s.sq);
	cq_fix_fini(&c);
}

static void test_timeouts_and_rnr_table(void **state)
{
	struct swnic_engine_cfg cfg = {.threads = 1, .max_timeout_ns = 2000000000ull, .rnr_max_ns = 1};

	(void)state;
	/* 4.096 us << 14 = 67.108864 ms; 0 means 14. */
	assert_int_equal(swnic_exec_ack_timeout_ns(&cfg, 14), 67108864ull);
	assert_int_equal(swnic_exec_ack_timeout_ns(&cfg, 0), 67108864ull);
	assert_int_equal(swnic_exec_ack_timeout_ns(&cfg, 1), 1000000ull);     /* clamped up to 1 ms */
	assert_int_equal(swnic_exec_ack_timeout_ns(&cfg, 31), 2000000000ull); /* clamped down */
	cfg.max_timeout_ns = 5000000ull;
	assert_int_equal(swnic_exec_ack_timeout_ns(&cfg, 14), 5000000ull);
	assert_int_equal(swnic_exec_rnr_delay_ns(0), 655360000ull);
	assert_int_equal(swnic_exec_rnr_delay_ns(1), 10000ull);
	assert_int_equal(swnic_exec_rnr_delay_ns(12), 640000ull);
	assert_int_equal(swnic_exec_rnr_delay_ns(31), 491520000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_req_cqe_bytes),
		cmocka_unit_test(test_error_cqe_bytes),
		cmocka_unit_test(test_responder_cqe_bytes),
		cmocka_unit_test(test_owner_bit_wraps),
		cmocka_unit_test(test_cqe128_second_half),
		cmocka_unit_test(test_collapsed),
		cmocka_unit_test(test_overrun_detected),
		cmocka_unit_test(test_overrun_consumer_keeps_up),
		cmocka_unit_test(test_overrun_ignored),
		cmocka_unit_test(test_flush_one_cqe_per_wqe),
		cmocka_unit_test(test_timeouts_and_rnr_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
