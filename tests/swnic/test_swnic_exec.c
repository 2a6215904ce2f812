/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Requester execution of each opcode through the whole software NIC: WQEs written with the
 * include/opengda_mlx5.h recipes into a QP made by PRM commands, a doorbell rung, and the
 * outcome checked as bytes: the target range, the guard bytes around it, every field of
 * the requester CQE (and of the responder CQE where the opcode makes one).
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
#include "swnic_fixture.h"

#define CE2 OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE
#define UIDX_A 0x0a0a0au
#define UIDX_B 0x0b0b0bu
#define RW (OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ | OGDA_ACCESS_REMOTE_ATOMIC)
#define GUARD 0xeeu

static uint64_t va(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7u);
}

static void assert_all(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			fail_msg("byte %zu is 0x%02x, expected 0x%02x", i, p[i], v);
}

/* Every field of a successful requester CQE. */
static void assert_req_cqe(const struct opengda_mlx5_cqe_fields *c, const struct fx_qp *qp, uint8_t wqe_opcode,
			   uint16_t idx, uint32_t byte_cnt)
{
	assert_int_equal(c->opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c->wqe_opcode, wqe_opcode);
	assert_int_equal(c->qpn, qp->qpn);
	assert_int_equal(c->wqe_counter, idx);
	assert_int_equal(c->byte_cnt, byte_cnt);
	assert_int_equal(c->user_index, UIDX_A);
	assert_int_equal(c->imm, 0);
	assert_int_equal(c->se, 0);
	assert_int_equal(c->syndrome, 0);
	assert_int_equal(c->vendor_syndrome, 0);
	assert_true(c->timestamp != 0);
}

static void assert_resp_cqe(const struct opengda_mlx5_cqe_fields *c, const struct fx_qp *qp, uint8_t opcode,
			    uint16_t rq_idx, uint32_t byte_cnt, uint32_t imm)
{
	assert_int_equal(c->opcode, opcode);
	assert_int_equal(c->wqe_opcode, 0);
	assert_int_equal(c->qpn, qp->qpn);
	assert_int_equal(c->wqe_counter, rq_idx);
	assert_int_equal(c->byte_cnt, byte_cnt);
	assert_int_equal(c->user_index, UIDX_B);
	assert_int_equal(c->imm, imm);
	assert_int_equal(c->syndrome, 0);
}

static void test_rdma_write(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t src[256], dst[512];
	struct fx_pair p;
	uint64_t wqes, errors;
	uint32_t lk, rk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	fill(src, sizeof(src), 3);
	memset(dst, GUARD, sizeof(dst));
	lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	idx = fx_take(&p.a, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&p.a.sqd, idx, CE2, va(dst + 131), rk, va(src + 5), lk, 100), 3);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0, 100);
	assert_memory_equal(dst + 131, src + 5, 100);
	assert_all(dst, 131, GUARD);
	assert_all(dst + 231, sizeof(dst) - 231, GUARD);
	assert_true(fx_no_cqe(&p.bcq, 20)); /* a plain WRITE consumes no receive WQE */
	assert_true(fx_no_cqe(&p.acq, 1));
	fx_qp_counters(&p.f, &p.a, &wqes, &errors, NULL, NULL);
	assert_int_equal(wqes, 1);
	assert_int_equal(errors, 0);
	assert_int_equal(fx_qp_state(&p.f, &p.a), PRM_QP_STATE_RTS);
	fx_pair_close(&p);
}

/* WRITE_IMM, SEND with three gather entries, SEND_IMM: requester and responder CQEs. */
static void test_write_imm_and_sends(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t src[128], dst[128], rbuf[3][160];
	struct fx_pair p;
	uint32_t lk, rk, rlk;
	struct fx_sge g[3];
	uint16_t idx;
	int i;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	fill(src, sizeof(src), 11);
	memset(dst, GUARD, sizeof(dst));
	memset(rbuf, GUARD, sizeof(rbuf));
	lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	rlk = fx_mr(&p.f, rbuf, sizeof(rbuf), OGDA_ACCESS_LOCAL_WRITE);
	for (i = 0; i < 3; i++)
		fx_rq_post(&p.b, rbuf[i] + 8, 128, rlk);

	idx = fx_take(&p.a, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_write_imm(&p.a.sqd, idx, CE2, va(dst + 16), rk, va(src), lk, 64,
							 0xdeadbeef),
			 3);
	g[0] = (struct fx_sge){src + 100, 10, lk};
	g[1] = (struct fx_sge){src, 20, lk};
	g[2] = (struct fx_sge){src + 50, 30, lk};
	assert_int_equal(fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_SEND, CE2, 0, false, 0, 0, g, 3), 1);
	g[0] = (struct fx_sge){src + 1, 7, lk};
	assert_int_equal(fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_SEND_IMM, CE2, 0x01020304, false, 0, 0, g, 1), 2);
	fx_ring(&p.a, FX_RING_PI);

	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM, 0, 64);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_SEND, 1, 60);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_SEND_IMM, 2, 7);

	fx_poll_ok(&p.bcq, &c);
	assert_resp_cqe(&c, &p.b, OPENGDA_MLX5_CQE_RESP_WR_IMM, 0, 64, 0xdeadbeef);
	fx_poll_ok(&p.bcq, &c);
	assert_resp_cqe(&c, &p.b, OPENGDA_MLX5_CQE_RESP_SEND, 1, 60, 0);
	fx_poll_ok(&p.bcq, &c);
	assert_resp_cqe(&c, &p.b, OPENGDA_MLX5_CQE_RESP_SEND_IMM, 2, 7, 0x01020304);

	assert_memory_equal(dst + 16, src, 64);
	assert_all(dst, 16, GUARD);
	assert_all(dst + 80, sizeof(dst) - 80, GUARD);
	assert_all(rbuf[0], sizeof(rbuf[0]), GUARD); /* WRITE_IMM's receive buffer is not written */
	assert_memory_equal(rbuf[1] + 8, src + 100, 10);
	assert_memory_equal(rbuf[1] + 18, src, 20);
	assert_memory_equal(rbuf[1] + 38, src + 50, 30);
	assert_all(rbuf[1], 8, GUARD);
	assert_all(rbuf[1] + 68, sizeof(rbuf[1]) - 68, GUARD);
	assert_memory_equal(rbuf[2] + 8, src + 1, 7);
	assert_all(rbuf[2] + 15, sizeof(rbuf[2]) - 15, GUARD);
	fx_pair_close(&p);
}

/* READ scattered over three local buffers, then a one-SGE READ. */
static void test_rdma_read(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t remote[400], local[3][200];
	struct fx_pair p;
	struct fx_sge s[3];
	uint32_t lk, rk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	fill(remote, sizeof(remote), 40);
	memset(local, GUARD, sizeof(local));
	lk = fx_mr(&p.f, local, sizeof(local), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p.f, remote, sizeof(remote), OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_READ);
	s[0] = (struct fx_sge){local[0] + 4, 50, lk};
	s[1] = (struct fx_sge){local[1], 100, lk};
	s[2] = (struct fx_sge){local[2] + 10, 150, lk};
	idx = fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_RDMA_READ, CE2, 0, true, va(remote + 20), rk, s, 3);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_RDMA_READ, idx, 300);
	assert_memory_equal(local[0] + 4, remote + 20, 50);
	assert_memory_equal(local[1], remote + 70, 100);
	assert_memory_equal(local[2] + 10, remote + 170, 150);
	assert_all(local[0], 4, GUARD);
	assert_all(local[0] + 54, 146, GUARD);
	assert_all(local[1] + 100, 100, GUARD);
	assert_all(local[2], 10, GUARD);
	assert_all(local[2] + 160, 40, GUARD);

	memset(local, GUARD, sizeof(local));
	idx = fx_take(&p.a, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_read(&p.a.sqd, idx, CE2, va(remote), rk, va(local[1] + 1), lk, 33), 3);
	fx_ring(&p.a, FX_RING_PI);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_RDMA_READ, idx, 33);
	assert_memory_equal(local[1] + 1, remote, 33);
	assert_int_equal(local[1][0], GUARD);
	assert_all(local[1] + 34, 166, GUARD);
	assert_all(local[0], 200, GUARD);
	fx_pair_close(&p);
}

/* Inline WRITEs of 12, 28 and 200 bytes; the 200-byte one (4 WQEBBs) wraps the 8-WQEBB ring. */
static void test_inline_write_wrapping(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t data[200], dst[400];
	struct fx_pair p;
	uint32_t rk, i;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	fill(data, sizeof(data), 77);
	memset(dst, GUARD, sizeof(dst));
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	idx = fx_take(&p.a, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&p.a.sqd, idx, 0, va(dst), rk, data, 12), 3);
	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&p.a.sqd, idx, CE2, va(dst + 20), rk, data + 12, 28), 4);
	for (i = 0; i < 4; i++) {
		idx = fx_take(&p.a, 1);
		assert_int_equal(opengda_mlx5_wqe_nop(&p.a.sqd, idx, i == 3 ? CE2 : 0, 1), 1);
	}
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 1, 28);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_NOP, 5, 0);
	assert_int_equal(p.a.pi, 6);

	/* DS = 2 + ceil(204 / 16) = 15: slots 6, 7, 0, 1. */
	idx = fx_take(&p.a, 15);
	assert_int_equal(idx, 6);
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&p.a.sqd, idx, CE2, va(dst + 100), rk, data, 200), 15);
	fx_ring(&p.a, FX_RING_BF);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 6, 200);
	assert_int_equal(p.a.pi, 10);

	assert_memory_equal(dst, data, 12);
	assert_all(dst + 12, 8, GUARD);
	assert_memory_equal(dst + 20, data + 12, 28);
	assert_all(dst + 48, 52, GUARD);
	assert_memory_equal(dst + 100, data, 200);
	assert_all(dst + 300, 100, GUARD);
	fx_pair_close(&p);
}

/* 8-byte CS (hit and miss) and FA: results in host order, remote word updated in place. */
static void test_atomics_8b(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint64_t remote[4], result[6], expect;
	struct fx_pair p;
	uint32_t lk, rk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	memset(remote, GUARD, sizeof(remote));
	memset(result, GUARD, sizeof(result));
	remote[1] = 0x1111222233334444ull;
	lk = fx_mr(&p.f, result, sizeof(result), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p.f, remote, sizeof(remote), RW);

	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_atomic_cs(&p.a.sqd, idx, CE2, va(&remote[1]), rk, 0x1111222233334444ull,
						    0xaaaabbbbccccddddull, va(&result[1]), lk),
			 4);
	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_atomic_cs(&p.a.sqd, idx, CE2, va(&remote[1]), rk, 0x1111222233334444ull,
						    0x5ull, va(&result[2]), lk),
			 4);
	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_atomic_fa(&p.a.sqd, idx, CE2, va(&remote[1]), rk, 0x0000000100000001ull,
						    va(&result[4]), lk),
			 4);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_ATOMIC_CS, 0, 8);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_ATOMIC_CS, 1, 8);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 2, 8);

	assert_int_equal(result[1], 0x1111222233334444ull); /* swapped */
	assert_int_equal(result[2], 0xaaaabbbbccccddddull); /* compare missed: value returned, not swapped */
	assert_int_equal(result[4], 0xaaaabbbbccccddddull);
	expect = 0xaaaabbbbccccddddull + 0x0000000100000001ull;
	assert_int_equal(remote[1], expect);
	memset(&expect, GUARD, sizeof(expect));
	assert_int_equal(remote[0], expect);
	assert_int_equal(remote[2], expect);
	assert_int_equal(result[0], expect);
	assert_int_equal(result[3], expect);
	assert_int_equal(result[5], expect);
	fx_pair_close(&p);
}

/*
 * Masked atomics: 4-byte results arrive big-endian, 8-byte in host order. The 8-byte
 * masked CS takes 2 WQEBBs and is placed in the last slot so that it wraps.
 */
static void test_masked_atomics(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint32_t remote32[4], res32[4];
	uint64_t remote64[3], res64[3];
	struct fx_pair p;
	uint32_t lk, rk, i;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 3, NULL, NULL, NULL);
	memset(remote32, GUARD, sizeof(remote32));
	memset(res32, GUARD, sizeof(res32));
	memset(remote64, GUARD, sizeof(remote64));
	memset(res64, GUARD, sizeof(res64));
	remote32[1] = 0x12345678u;
	remote32[2] = 0x0000ffffu;
	remote64[1] = 0x00ff00ff00ff00ffull;
	lk = fx_mr(&p.f, res32, sizeof(res32), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p.f, remote32, sizeof(remote32), RW);

	/* CS 4 B: compare only the low byte (0x78), swap only the high half. */
	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_masked_cs4(&p.a.sqd, idx, CE2, va(&remote32[1]), rk, 0xffffff78u, 0xabcd0000u,
						     0x000000ffu, 0xffff0000u, va(&res32[1]), lk),
			 4);
	/* FA 4 B with a field boundary at bit 15: the low field wraps without carrying. */
	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_masked_fa4(&p.a.sqd, idx, CE2, va(&remote32[2]), rk, 0x00010001u,
						     0x00008000u, va(&res32[2]), lk),
			 4);
	/* Pad with NOPs up to the last slot (7). */
	for (i = 0; i < 5; i++) {
		idx = fx_take(&p.a, 1);
		assert_int_equal(opengda_mlx5_wqe_nop(&p.a.sqd, idx, 0, 1), 1);
	}
	fx_ring(&p.a, FX_RING_PI);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 0, 4);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 1, 4);
	assert_true(fx_no_cqe(&p.acq, 5));

	idx = fx_take(&p.a, 5);
	assert_int_equal(idx, 7);
	rk = fx_mr(&p.f, remote64, sizeof(remote64), RW);
	lk = fx_mr(&p.f, res64, sizeof(res64), OGDA_ACCESS_LOCAL_WRITE);
	assert_int_equal(opengda_mlx5_wqe_masked_cs8(&p.a.sqd, idx, CE2, va(&remote64[1]), rk, 0x00ff00ff00ff00ffull,
						     0x1122334455667788ull, ~0ull, 0x00000000ffffffffull, va(&res64[1]),
						     lk),
			 5);
	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_masked_fa8(&p.a.sqd, idx, CE2, va(&remote64[1]), rk, 0x0100000000000001ull,
						     0ull, va(&res64[2]), lk),
			 4);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 7, 8);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 9, 8);

	assert_int_equal(res32[1], opengda_mlx5_htobe32(0x12345678u));
	assert_int_equal(remote32[1], 0xabcd5678u);
	assert_int_equal(res32[2], opengda_mlx5_htobe32(0x0000ffffu));
	assert_int_equal(remote32[2], 0x00010000u);
	assert_int_equal(res64[1], 0x00ff00ff00ff00ffull);
	assert_int_equal(res64[2], 0x00ff00ff55667788ull);
	assert_int_equal(remote64[1], 0x00ff00ff55667788ull + 0x0100000000000001ull);
	assert_int_equal(remote32[0], 0xeeeeeeeeu);
	assert_int_equal(remote32[3], 0xeeeeeeeeu);
	assert_int_equal(res32[0], 0xeeeeeeeeu);
	assert_int_equal(res32[3], 0xeeeeeeeeu);
	assert_int_equal(remote64[0], 0xeeeeeeeeeeeeeeeeull);
	assert_int_equal(remote64[2], 0xeeeeeeeeeeeeeeeeull);
	assert_int_equal(res64[0], 0xeeeeeeeeeeeeeeeeull);
	fx_pair_close(&p);
}

/* NOP and DUMP complete locally; CE 0 and 1 give no CQE on success, CE 2 and 3 do. */
static void test_nop_dump_and_ce_modes(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t buf[16];
	struct fx_pair p;
	uint32_t lk, ce;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	lk = fx_mr(&p.f, buf, sizeof(buf), OGDA_ACCESS_LOCAL_WRITE);
	for (ce = 0; ce < 4; ce++) {
		idx = fx_take(&p.a, 2);
		assert_int_equal(opengda_mlx5_wqe_nop(&p.a.sqd, idx, (uint8_t)(ce << OPENGDA_MLX5_CE_SHIFT), 2), 2);
	}
	idx = fx_take(&p.a, 2);
	assert_int_equal(opengda_mlx5_wqe_dump(&p.a.sqd, idx, CE2 | OPENGDA_MLX5_WQE_CTRL_FM_FENCE, va(buf), lk, 1), 2);
	idx = fx_take(&p.a, 2);
	assert_int_equal(opengda_mlx5_wqe_dump(&p.a.sqd, idx, 0, va(buf), lk, 1), 2);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_NOP, 2, 0);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_NOP, 3, 0);
	fx_poll_ok(&p.acq, &c);
	assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_DUMP, 4, 0);
	assert_true(fx_no_cqe(&p.acq, 20));
	fx_pair_close(&p);
}

/* 24 signalled WRITEs through a 4-entry CQ: every CQE found by the owner-bit test, 6 passes. */
static void test_owner_bits_over_cq_wraps(void **state)
{
	struct fx_cq_cfg small = {.log_size = 2};
	struct opengda_mlx5_cqe_fields c;
	uint8_t src[24], dst[24];
	struct fx_pair p;
	uint32_t lk, rk, i;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 2, &small, NULL, NULL);
	fill(src, sizeof(src), 1);
	memset(dst, 0, sizeof(dst));
	lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	for (i = 0; i < 24; i++) {
		idx = fx_take(&p.a, 3);
		assert_int_equal(opengda_mlx5_wqe_rdma_write(&p.a.sqd, idx, CE2, va(dst + i), rk, va(src + i), lk, 1), 3);
		fx_ring(&p.a, (i & 1u) ? FX_RING_PI : FX_RING_CTRL);
		fx_poll_ok(&p.acq, &c);
		assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, (uint16_t)i, 1);
		assert_int_equal(opengda_mlx5_cqe_owner(fx_cqe(&p.acq, i)), (i >> 2) & 1u);
	}
	assert_memory_equal(dst, src, sizeof(dst));
	fx_pair_close(&p);
}

/* Collapsed CQ: every CQE in entry 0, read by its wqe_counter as NVSHMEM does. */
static void test_collapsed_cq(void **state)
{
	struct fx_cq_cfg cc = {.log_size = 2, .collapsed = true, .oi = true};
	struct opengda_mlx5_cqe64 *e;
	struct swnic_cq *cq;
	struct fx_pair p;
	uint32_t i;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 3, &cc, NULL, NULL);
	cq = swnic_cq_acquire(p.f.nic, p.acq.cqn);
	assert_non_null(cq);
	e = fx_cqe(&p.acq, 0);
	for (i = 0; i < 10; i++) {
		uint64_t deadline = fx_ms() + FX_POLL_TIMEOUT_MS;

		idx = fx_take(&p.a, 1);
		assert_int_equal(opengda_mlx5_wqe_nop(&p.a.sqd, idx, CE2, 1), 1);
		fx_ring(&p.a, FX_RING_PI);
		/* The NIC's count tells when entry 0 holds the new CQE (a race-free stand-in for polling it). */
		while (atomic_load_explicit(&cq->produced, memory_order_acquire) != i + 1u) {
			assert_true(fx_ms() < deadline);
			fx_sleep_ms(0);
		}
		assert_int_equal(opengda_mlx5_cqe_wqe_counter(e), idx);
		assert_int_equal(opengda_mlx5_cqe_opcode(e), OPENGDA_MLX5_CQE_REQ);
		assert_int_equal(opengda_mlx5_cqe_qpn(e), p.a.qpn);
		assert_int_equal(opengda_mlx5_cqe_wqe_opcode(e), OPENGDA_MLX5_OPCODE_NOP);
	}
	for (i = 1; i < 4; i++) { /* entries 1..3 never written */
		assert_all(p.acq.ring + i * 64u, 63, 0);
		assert_int_equal(p.acq.ring[i * 64u + 63u], OPENGDA_MLX5_CQE_OP_OWN_INIT);
	}
	swnic_cq_release(cq);
	fx_pair_close(&p);
}

/* 128-byte CQEs: the CQE64 in the second half of each entry, over two wraps. */
static void test_cqe128(void **state)
{
	struct fx_cq_cfg cc = {.log_size = 1, .cqe128 = true};
	struct opengda_mlx5_cqe_fields c;
	struct fx_pair p;
	uint32_t i;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 3, &cc, NULL, NULL);
	for (i = 0; i < 5; i++) {
		idx = fx_take(&p.a, 1);
		assert_int_equal(opengda_mlx5_wqe_nop(&p.a.sqd, idx, CE2, 1), 1);
		fx_ring(&p.a, FX_RING_CTRL);
		fx_poll_ok(&p.acq, &c);
		assert_req_cqe(&c, &p.a, OPENGDA_MLX5_OPCODE_NOP, idx, 0);
		assert_all(p.acq.ring + (i & 1u) * 128u, 63, 0); /* first half as initialised */
	}
	fx_pair_close(&p);
}

/*
 * WAIT across two QPs: QP c (cd_master) waits for the first CQE of a's send CQ, then
 * writes a flag. Nothing of c's runs until a has completed its WQE.
 */
static void test_wait_orders_two_qps(void **state)
{
	struct opengda_mlx5_cqe_fields cq_e;
	uint8_t src[64], data[64], flag[8];
	struct fx_cq ccq, bcq2;
	struct fx_qp_cfg qc;
	struct fx_qp c, b2;
	struct fx_conn cn;
	struct fx_pair p;
	uint32_t lk, rk, fk;
	uint16_t idx;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	{
		struct fx_cq_cfg cc = {.log_size = 4};

		fx_cq_create(&p.f, &cc, &ccq);
		fx_cq_create(&p.f, &cc, &bcq2);
	}
	fx_qp_cfg_default(&qc, &ccq, NULL);
	qc.cd_master = true;
	qc.user_index = UIDX_A;
	fx_qp_create(&p.f, &qc, &c);
	fx_qp_cfg_default(&qc, &bcq2, NULL);
	fx_qp_create(&p.f, &qc, &b2);
	fx_conn_default(&p.f, &cn, c.qpn);
	fx_qp_connect(&p.f, &b2, &cn, PRM_QP_STATE_RTS);
	fx_conn_default(&p.f, &cn, b2.qpn);
	fx_qp_connect(&p.f, &c, &cn, PRM_QP_STATE_RTS);

	fill(src, sizeof(src), 9);
	memset(data, 0, sizeof(data));
	memset(flag, 0, sizeof(flag));
	lk = fx_mr(&p.f, src, sizeof(src), OGDA_ACCESS_LOCAL_WRITE);
	rk = fx_mr(&p.f, data, sizeof(data), RW);
	fk = fx_mr(&p.f, flag, sizeof(flag), RW);

	idx = fx_take(&c, 2);
	assert_int_equal(opengda_mlx5_wqe_wait_cq(&c.sqd, idx, CE2, p.acq.cqn, 0), 2);
	idx = fx_take(&c, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&c.sqd, idx, CE2, va(flag), fk, "FLAG", 4), 3);
	fx_ring(&c, FX_RING_CTRL);
	assert_true(fx_no_cqe(&ccq, 30));
	assert_all(flag, sizeof(flag), 0);

	idx = fx_take(&p.a, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&p.a.sqd, idx, CE2, va(data), rk, va(src), lk, 64), 3);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &cq_e);
	assert_req_cqe(&cq_e, &p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0, 64);
	fx_poll_ok(&ccq, &cq_e);
	assert_req_cqe(&cq_e, &c, OPENGDA_MLX5_OPCODE_WAIT, 0, 0);
	fx_poll_ok(&ccq, &cq_e);
	assert_req_cqe(&cq_e, &c, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 1, 4);
	assert_memory_equal(flag, "FLAG", 4);
	assert_all(flag + 4, 4, 0);
	assert_memory_equal(data, src, 64);
	fx_pair_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rdma_write),
		cmocka_unit_test(test_write_imm_and_sends),
		cmocka_unit_test(test_rdma_read),
		cmocka_unit_test(test_inline_write_wrapping),
		cmocka_unit_test(test_atomics_8b),
		cmocka_unit_test(test_masked_atomics),
		cmocka_unit_test(test_nop_dump_and_ce_modes),
		cmocka_unit_test(test_owner_bits_over_cq_wraps),
		cmocka_unit_test(test_collapsed_cq),
		cmocka_unit_test(test_cqe128),
		cmocka_unit_test(test_wait_orders_two_qps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
