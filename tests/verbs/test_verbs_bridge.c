/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU data path on the software NIC, every opcode end to end between two connected RC QPs:
 * the bytes that arrive, the ibv_wc of both sides (wr_id, opcode, byte_len, flags, imm,
 * QP numbers), and the exact WQE, receive WQE, doorbell record and doorbell register bytes
 * that the posts leave behind (read through the public ring getters).
 */
#include "bridge_fixture.h"

#include <endian.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define TIMEOUT_MS 5000
#define QUIET_MS 50

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static void fill(uint8_t *p, uint32_t len, uint8_t seed)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 7u);
}

static void post_send_ok(struct doca_verbs_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad = NULL;

	assert_int_equal(doca_verbs_bridge_post_send(qp, wr, &bad), 0);
	assert_null(bad);
}

static void post_recv_ok(struct doca_verbs_qp *qp, struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad = NULL;

	assert_int_equal(doca_verbs_bridge_post_recv(qp, wr, &bad), 0);
	assert_null(bad);
}

/* One completion on cq, then nothing more for a while. */
static void poll_one(struct doca_verbs_cq *cq, struct ibv_wc *wc)
{
	struct ibv_wc extra;

	assert_int_equal(bridge_poll(cq, wc, 1, TIMEOUT_MS), 1);
	assert_int_equal(bridge_poll(cq, &extra, 1, QUIET_MS), 0);
}

static void ring_geometry(struct doca_verbs_qp *qp, uint8_t **sq, uint32_t *sq_n, uint8_t **rq, uint32_t *rq_stride)
{
	void *s, *r;
	uint32_t sn, rn, stride;

	assert_int_equal(doca_verbs_qp_get_wq(qp, &s, &sn, &r, &rn, &stride), DOCA_SUCCESS);
	if (sq != NULL)
		*sq = s;
	if (sq_n != NULL)
		*sq_n = sn;
	if (rq != NULL)
		*rq = r;
	if (rq_stride != NULL)
		*rq_stride = stride;
}

static const uint8_t *qp_dbr(struct doca_verbs_qp *qp)
{
	void *p = NULL;

	assert_int_equal(doca_verbs_qp_get_dbr_addr(qp, &p), DOCA_SUCCESS);
	return p;
}

static const uint8_t *qp_uar_reg(struct doca_verbs_qp *qp)
{
	void *p = NULL;

	assert_int_equal(doca_verbs_qp_get_uar_addr(qp, &p), DOCA_SUCCESS);
	return p;
}

static int setup_default(void **state)
{
	const struct bridge_cfg cfg = {0};

	return bridge_setup_cfg(state, &cfg);
}

static int setup_inline(void **state)
{
	const struct bridge_cfg cfg = {.max_inline_data = 64};

	return bridge_setup_cfg(state, &cfg);
}

/* RDMA WRITE: the data, the requester wc, and every byte of the WQE, the DBR and the doorbell. */
static void test_write(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge sge = {.addr = bridge_addr(f, BRIDGE_A_SRC), .length = 64, .lkey = f->lkey};
	struct ibv_send_wr wr = {.wr_id = 0xa1, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
				 .send_flags = IBV_SEND_SIGNALED};
	uint8_t expect[64], *sq;
	const uint8_t *reg = qp_uar_reg(f->a.qp);
	struct ibv_wc wc;

	fill(f->buf + BRIDGE_A_SRC, 64, 3);
	wr.wr.rdma.remote_addr = bridge_addr(f, BRIDGE_B_DST);
	wr.wr.rdma.rkey = f->rkey;
	post_send_ok(f->a.qp, &wr);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xa1);
	assert_int_equal(wc.opcode, IBV_WC_RDMA_WRITE);
	assert_int_equal(wc.qp_num, f->a.qpn);
	assert_int_equal(wc.src_qp, f->b.qpn);
	assert_int_equal(wc.byte_len, 0);
	assert_int_equal(wc.wc_flags, 0);
	assert_int_equal(wc.vendor_err, 0);
	assert_memory_equal(f->buf + BRIDGE_B_DST, f->buf + BRIDGE_A_SRC, 64);

	/* ctrl + raddr + data at WQEBB 0 */
	memset(expect, 0, sizeof(expect));
	put_be32(expect + 0, 0x00000008);              /* opmod 0, WQE index 0, RDMA_WRITE */
	put_be32(expect + 4, (f->a.qpn << 8) | 3);     /* DS 3 */
	expect[11] = 0x08;                              /* CE: always */
	put_be64(expect + 16, bridge_addr(f, BRIDGE_B_DST));
	put_be32(expect + 24, f->rkey);
	put_be32(expect + 32, 64);
	put_be32(expect + 36, f->lkey);
	put_be64(expect + 40, bridge_addr(f, BRIDGE_A_SRC));
	ring_geometry(f->a.qp, &sq, NULL, NULL, NULL);
	assert_memory_equal(sq, expect, 48);
	/* DBR word 1 = SQ producer counter 1; the doorbell = ctrl bytes 0-7 at the register's first half */
	{
		uint8_t dbr1[4] = {0, 0, 0, 1};

		assert_memory_equal(qp_dbr(f->a.qp) + 4, dbr1, 4);
	}
	assert_memory_equal(reg, expect, 8);
}

/* Doorbells alternate between the two halves of the BlueFlame register (256 B apart on swnic). */
static void test_doorbell_halves(void **state)
{
	struct bridge_fix *f = *state;
	const uint8_t *reg = qp_uar_reg(f->a.qp);
	struct ibv_sge sge = {.addr = bridge_addr(f, BRIDGE_A_SRC), .length = 8, .lkey = f->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
				 .send_flags = IBV_SEND_SIGNALED};
	uint8_t db[8];
	struct ibv_wc wc;

	wr.wr.rdma.remote_addr = bridge_addr(f, BRIDGE_B_DST);
	wr.wr.rdma.rkey = f->rkey;
	for (uint32_t i = 0; i < 4; i++) {
		wr.wr_id = i;
		post_send_ok(f->a.qp, &wr);
		poll_one(f->a.scq, &wc);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.wr_id, i);
		put_be32(db, (i << 8) | 0x08);
		put_be32(db + 4, (f->a.qpn << 8) | 3);
		assert_memory_equal(reg + (i % 2) * 256, db, 8);
	}
	put_be32(db, 4);
	assert_memory_equal(qp_dbr(f->a.qp) + 4, db, 4);
}

/* WRITE_IMM consumes a receive WQE: the responder wc carries the immediate in network order. */
static void test_write_imm_recv(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge rsge = {.addr = bridge_addr(f, BRIDGE_B_SRC), .length = 64, .lkey = f->lkey};
	struct ibv_recv_wr rwr = {.wr_id = 0xb0, .sg_list = &rsge, .num_sge = 1};
	struct ibv_sge sge = {.addr = bridge_addr(f, BRIDGE_A_SRC), .length = 32, .lkey = f->lkey};
	struct ibv_send_wr wr = {.wr_id = 0xa2, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
				 .send_flags = IBV_SEND_SIGNALED, .imm_data = htobe32(0xdeadbeef)};
	uint8_t expect[32], *rq, *sq;
	uint32_t stride;
	struct ibv_wc wc;

	post_recv_ok(f->b.qp, &rwr);
	/* receive WQE: one data segment, then the invalid-lkey terminator (2 slots of 16 B) */
	ring_geometry(f->b.qp, NULL, NULL, &rq, &stride);
	assert_int_equal(stride, 32);
	memset(expect, 0, sizeof(expect));
	put_be32(expect + 0, 64);
	put_be32(expect + 4, f->lkey);
	put_be64(expect + 8, bridge_addr(f, BRIDGE_B_SRC));
	put_be32(expect + 20, 0x100);
	assert_memory_equal(rq, expect, 32);
	{
		uint8_t dbr0[4] = {0, 0, 0, 1};

		assert_memory_equal(qp_dbr(f->b.qp), dbr0, 4);
	}

	fill(f->buf + BRIDGE_A_SRC, 32, 9);
	wr.wr.rdma.remote_addr = bridge_addr(f, BRIDGE_B_DST);
	wr.wr.rdma.rkey = f->rkey;
	post_send_ok(f->a.qp, &wr);
	poll_one(f->b.rcq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xb0);
	assert_int_equal(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	assert_int_equal(wc.wc_flags & IBV_WC_WITH_IMM, IBV_WC_WITH_IMM);
	assert_int_equal(wc.imm_data, htobe32(0xdeadbeef));
	assert_int_equal(wc.byte_len, 32);
	assert_int_equal(wc.qp_num, f->b.qpn);
	assert_int_equal(wc.src_qp, f->a.qpn);
	assert_memory_equal(f->buf + BRIDGE_B_DST, f->buf + BRIDGE_A_SRC, 32);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xa2);
	assert_int_equal(wc.opcode, IBV_WC_RDMA_WRITE);
	assert_int_equal(wc.wc_flags, IBV_WC_WITH_IMM);
	/* the immediate travels in the ctrl segment, big-endian */
	ring_geometry(f->a.qp, &sq, NULL, NULL, NULL);
	assert_int_equal(sq[3], 0x09);
	put_be32(expect, 0xdeadbeef);
	assert_memory_equal(sq + 12, expect, 4);
}

/* SEND gathers two SGEs; the receive scatters into two. */
static void test_send_sges(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge rsge[2] = {{.addr = bridge_addr(f, BRIDGE_B_DST), .length = 50, .lkey = f->lkey},
				  {.addr = bridge_addr(f, BRIDGE_B_DST + 1000), .length = 200, .lkey = f->lkey}};
	struct ibv_recv_wr rwr = {.wr_id = 0xb1, .sg_list = rsge, .num_sge = 2};
	struct ibv_sge sge[2] = {{.addr = bridge_addr(f, BRIDGE_A_SRC), .length = 40, .lkey = f->lkey},
				 {.addr = bridge_addr(f, BRIDGE_A_SRC + 100), .length = 60, .lkey = f->lkey}};
	struct ibv_send_wr wr = {.wr_id = 0xa3, .sg_list = sge, .num_sge = 2, .opcode = IBV_WR_SEND,
				 .send_flags = IBV_SEND_SIGNALED};
	uint8_t msg[100], *sq, *rq;
	struct ibv_wc wc;

	fill(f->buf + BRIDGE_A_SRC, 200, 21);
	memcpy(msg, f->buf + BRIDGE_A_SRC, 40);
	memcpy(msg + 40, f->buf + BRIDGE_A_SRC + 100, 60);
	post_recv_ok(f->b.qp, &rwr);
	ring_geometry(f->b.qp, NULL, NULL, &rq, NULL);
	assert_int_equal(rq[16 + 7], f->lkey & 0xff); /* both slots hold SGEs: no terminator */
	post_send_ok(f->a.qp, &wr);
	poll_one(f->b.rcq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xb1);
	assert_int_equal(wc.opcode, IBV_WC_RECV);
	assert_int_equal(wc.wc_flags, 0);
	assert_int_equal(wc.byte_len, 100);
	assert_memory_equal(f->buf + BRIDGE_B_DST, msg, 50);
	assert_memory_equal(f->buf + BRIDGE_B_DST + 1000, msg + 50, 50);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xa3);
	assert_int_equal(wc.opcode, IBV_WC_SEND);
	assert_int_equal(wc.wc_flags, 0);
	/* ctrl + two data segments: DS 3 */
	ring_geometry(f->a.qp, &sq, NULL, NULL, NULL);
	assert_int_equal(sq[3], 0x0a);
	assert_int_equal(sq[7], 3);
	assert_int_equal(sq[16 + 3], 40);
	assert_int_equal(sq[32 + 3], 60);
}

static void test_send_imm(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge rsge = {.addr = bridge_addr(f, BRIDGE_B_DST), .length = 256, .lkey = f->lkey};
	struct ibv_recv_wr rwr = {.wr_id = 0xb2, .sg_list = &rsge, .num_sge = 1};
	struct ibv_sge sge = {.addr = bridge_addr(f, BRIDGE_A_SRC), .length = 77, .lkey = f->lkey};
	struct ibv_send_wr wr = {.wr_id = 0xa4, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND_WITH_IMM,
				 .send_flags = IBV_SEND_SIGNALED | IBV_SEND_SOLICITED, .imm_data = htobe32(0x01020304)};
	uint8_t *sq;
	struct ibv_wc wc;

	fill(f->buf + BRIDGE_A_SRC, 77, 40);
	post_recv_ok(f->b.qp, &rwr);
	post_send_ok(f->a.qp, &wr);
	poll_one(f->b.rcq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xb2);
	assert_int_equal(wc.opcode, IBV_WC_RECV);
	assert_int_equal(wc.wc_flags, IBV_WC_WITH_IMM);
	assert_int_equal(wc.imm_data, htobe32(0x01020304));
	assert_int_equal(wc.byte_len, 77);
	assert_memory_equal(f->buf + BRIDGE_B_DST, f->buf + BRIDGE_A_SRC, 77);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.wr_id, 0xa4);
	assert_int_equal(wc.opcode, IBV_WC_SEND);
	assert_int_equal(wc.wc_flags, IBV_WC_WITH_IMM);
	ring_geometry(f->a.qp, &sq, NULL, NULL, NULL);
	assert_int_equal(sq[3], 0x0b);
	assert_int_equal(sq[11], 0x08 | 0x02); /* CE always + SE */
}

static void test_read(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge sge = {.addr = bridge_addr(f, BRIDGE_A_DST), .length = 128, .lkey = f->lkey};
	struct ibv_send_wr wr = {.wr_id = 0xa5, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_READ,
				 .send_flags = IBV_SEND_SIGNALED | IBV_SEND_FENCE};
	uint8_t *sq;
	struct ibv_wc wc;

	fill(f->buf + BRIDGE_B_SRC, 128, 77);
	wr.wr.rdma.remote_addr = bridge_addr(f, BRIDGE_B_SRC);
	wr.wr.rdma.rkey = f->rkey;
	post_send_ok(f->a.qp, &wr);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xa5);
	assert_int_equal(wc.opcode, IBV_WC_RDMA_READ);
	assert_int_equal(wc.byte_len, 128);
	assert_memory_equal(f->buf + BRIDGE_A_DST, f->buf + BRIDGE_B_SRC, 128);
	ring_geometry(f->a.qp, &sq, NULL, NULL, NULL);
	assert_int_equal(sq[3], 0x10);
	assert_int_equal(sq[11], 0x80 | 0x08); /* fence (SMALL_AND_FENCE) + CE always */
}

static void test_atomics(void **state)
{
	struct bridge_fix *f = *state;
	uint64_t *target = (uint64_t *)(void *)(f->buf + BRIDGE_ATOMIC);
	uint64_t *result = (uint64_t *)(void *)(f->buf + BRIDGE_RESULT);
	struct ibv_sge sge = {.addr = bridge_addr(f, BRIDGE_RESULT), .length = 8, .lkey = f->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .send_flags = IBV_SEND_SIGNALED};
	uint8_t expect[64], *sq;
	struct ibv_wc wc;

	*target = 0x1111;
	wr.wr.atomic.remote_addr = bridge_addr(f, BRIDGE_ATOMIC);
	wr.wr.atomic.rkey = f->rkey;
	/* compare matches: swapped */
	wr.wr_id = 1;
	wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	wr.wr.atomic.compare_add = 0x1111;
	wr.wr.atomic.swap = 0x2222;
	post_send_ok(f->a.qp, &wr);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 1);
	assert_int_equal(wc.opcode, IBV_WC_COMP_SWAP);
	assert_int_equal(wc.byte_len, 8);
	assert_int_equal(*result, 0x1111);
	assert_int_equal(*target, 0x2222);
	memset(expect, 0, sizeof(expect));
	put_be32(expect + 0, 0x11);
	put_be32(expect + 4, (f->a.qpn << 8) | 4);
	expect[11] = 0x08;
	put_be64(expect + 16, bridge_addr(f, BRIDGE_ATOMIC));
	put_be32(expect + 24, f->rkey);
	put_be64(expect + 32, 0x2222); /* swap */
	put_be64(expect + 40, 0x1111); /* compare */
	put_be32(expect + 48, 8);
	put_be32(expect + 52, f->lkey);
	put_be64(expect + 56, bridge_addr(f, BRIDGE_RESULT));
	ring_geometry(f->a.qp, &sq, NULL, NULL, NULL);
	assert_memory_equal(sq, expect, 64);
	/* compare differs: untouched, the old value returned */
	wr.wr_id = 2;
	wr.wr.atomic.compare_add = 0x9999;
	wr.wr.atomic.swap = 0x3333;
	post_send_ok(f->a.qp, &wr);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.wr_id, 2);
	assert_int_equal(*result, 0x2222);
	assert_int_equal(*target, 0x2222);
	/* fetch and add */
	wr.wr_id = 3;
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.atomic.compare_add = 23;
	post_send_ok(f->a.qp, &wr);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 3);
	assert_int_equal(wc.opcode, IBV_WC_FETCH_ADD);
	assert_int_equal(wc.byte_len, 8);
	assert_int_equal(*result, 0x2222);
	assert_int_equal(*target, 0x2222 + 23);
	assert_int_equal(sq[2 * 64 + 3], 0x12);
	put_be16(expect, 2);
	assert_memory_equal(sq + 2 * 64 + 1, expect, 2); /* WQE index 2 */
}

/* Inline: the payload is copied into the WQE at post time (lkey unused). */
static void test_inline(void **state)
{
	struct bridge_fix *f = *state;
	uint8_t payload[40], orig[40], hdr[4], *sq;
	struct ibv_sge sge = {.addr = (uint64_t)(uintptr_t)payload, .length = 40, .lkey = 0};
	struct ibv_send_wr wr = {.wr_id = 0xa6, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
				 .send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE};
	struct ibv_sge rsge = {.addr = bridge_addr(f, BRIDGE_B_DST + 512), .length = 64, .lkey = f->lkey};
	struct ibv_recv_wr rwr = {.wr_id = 0xb3, .sg_list = &rsge, .num_sge = 1};
	struct ibv_wc wc;

	fill(payload, 40, 99);
	memcpy(orig, payload, 40);
	wr.wr.rdma.remote_addr = bridge_addr(f, BRIDGE_B_DST);
	wr.wr.rdma.rkey = f->rkey;
	post_send_ok(f->a.qp, &wr);
	memset(payload, 0, sizeof(payload));
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xa6);
	assert_memory_equal(f->buf + BRIDGE_B_DST, orig, 40);
	ring_geometry(f->a.qp, &sq, NULL, NULL, NULL);
	assert_int_equal(sq[7], 2 + 3); /* ctrl + raddr + ceil((4 + 40) / 16) */
	put_be32(hdr, 0x80000000u | 40);
	assert_memory_equal(sq + 32, hdr, 4);
	assert_memory_equal(sq + 36, orig, 40);

	/* inline SEND: ctrl + inline, after the first WQE's two WQEBBs (DS 5) */
	fill(payload, 40, 5);
	memcpy(orig, payload, 40);
	post_recv_ok(f->b.qp, &rwr);
	wr.wr_id = 0xa7;
	wr.opcode = IBV_WR_SEND;
	post_send_ok(f->a.qp, &wr);
	poll_one(f->b.rcq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xb3);
	assert_int_equal(wc.byte_len, 40);
	assert_memory_equal(f->buf + BRIDGE_B_DST + 512, orig, 40);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.wr_id, 0xa7);
	assert_int_equal(wc.opcode, IBV_WC_SEND);
	assert_int_equal(sq[128 + 2], 2); /* WQE index 2 */
	assert_int_equal(sq[128 + 3], 0x0a);
	assert_int_equal(sq[128 + 7], 1 + 3);
	assert_memory_equal(sq + 128 + 16, hdr, 4);
	assert_memory_equal(sq + 128 + 20, orig, 40);
}

/*
 * Inline with empty SGEs ({addr 0, length 0}, as callers pad their lists): nothing is copied
 * from them (no read of address 0), the other SGEs' bytes land in order, and a SEND made only of
 * an empty SGE completes with 0 bytes on both sides.
 */
static void test_inline_empty_sge(void **state)
{
	struct bridge_fix *f = *state;
	uint8_t payload[24];
	struct ibv_sge sge[2] = {{.addr = 0, .length = 0, .lkey = 0},
				 {.addr = (uint64_t)(uintptr_t)payload, .length = 24, .lkey = 0}};
	struct ibv_send_wr wr = {.wr_id = 0xc1, .sg_list = sge, .num_sge = 2, .opcode = IBV_WR_SEND,
				 .send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE};
	struct ibv_sge rsge = {.addr = bridge_addr(f, BRIDGE_B_DST), .length = 64, .lkey = f->lkey};
	struct ibv_recv_wr rwr = {.wr_id = 0xd1, .sg_list = &rsge, .num_sge = 1};
	struct ibv_wc wc;

	fill(payload, sizeof(payload), 31);
	post_recv_ok(f->b.qp, &rwr);
	post_send_ok(f->a.qp, &wr);
	poll_one(f->b.rcq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xd1);
	assert_int_equal(wc.byte_len, 24);
	assert_memory_equal(f->buf + BRIDGE_B_DST, payload, 24);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xc1);
	assert_int_equal(wc.opcode, IBV_WC_SEND);

	/* Only the empty SGE: a 0-byte inline SEND. */
	rwr.wr_id = 0xd2;
	post_recv_ok(f->b.qp, &rwr);
	wr.wr_id = 0xc2;
	wr.num_sge = 1;
	post_send_ok(f->a.qp, &wr);
	poll_one(f->b.rcq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xd2);
	assert_int_equal(wc.byte_len, 0);
	poll_one(f->a.scq, &wc);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0xc2);
}

/* Completion coalescing: one CQE for the signaled WQE retires the unsignaled ones before it. */
static void test_unsignaled_then_signaled(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge sge[4];
	struct ibv_send_wr wr[4];
	struct ibv_wc wc[2];
	uint32_t i;

	fill(f->buf + BRIDGE_A_SRC, 4 * 256, 1);
	memset(wr, 0, sizeof(wr));
	for (i = 0; i < 4; i++) {
		sge[i] = (struct ibv_sge){.addr = bridge_addr(f, BRIDGE_A_SRC + i * 256), .length = 256, .lkey = f->lkey};
		wr[i].wr_id = 100 + i;
		wr[i].sg_list = &sge[i];
		wr[i].num_sge = 1;
		wr[i].opcode = IBV_WR_RDMA_WRITE;
		wr[i].send_flags = i == 3 ? IBV_SEND_SIGNALED : 0;
		wr[i].wr.rdma.remote_addr = bridge_addr(f, BRIDGE_B_DST + i * 256);
		wr[i].wr.rdma.rkey = f->rkey;
		wr[i].next = i < 3 ? &wr[i + 1] : NULL;
	}
	post_send_ok(f->a.qp, &wr[0]);
	assert_int_equal(bridge_poll(f->a.scq, wc, 2, 500), 1);
	assert_int_equal(wc[0].status, IBV_WC_SUCCESS);
	assert_int_equal(wc[0].wr_id, 103);
	assert_memory_equal(f->buf + BRIDGE_B_DST, f->buf + BRIDGE_A_SRC, 4 * 256);
	/* unsignaled WQEs carry CE 0 */
	{
		uint8_t *sq;

		ring_geometry(f->a.qp, &sq, NULL, NULL, NULL);
		assert_int_equal(sq[11], 0x00);
		assert_int_equal(sq[64 + 11], 0x00);
		assert_int_equal(sq[3 * 64 + 11], 0x08);
	}
	/*
	 * The four WQEBBs are free again: a whole queue's worth (16 one-WQEBB WQEs) posts in one
	 * list, which would not fit if the CQE had not retired the unsignaled WQEs.
	 */
	{
		struct ibv_send_wr full[16];
		struct ibv_wc fwc[16];

		memset(full, 0, sizeof(full));
		for (i = 0; i < 16; i++) {
			full[i] = wr[i % 4];
			full[i].wr_id = 200 + i;
			full[i].send_flags = IBV_SEND_SIGNALED;
			full[i].next = i < 15 ? &full[i + 1] : NULL;
		}
		post_send_ok(f->a.qp, &full[0]);
		assert_int_equal(bridge_poll(f->a.scq, fwc, 16, TIMEOUT_MS), 16);
		for (i = 0; i < 16; i++) {
			assert_int_equal(fwc[i].status, IBV_WC_SUCCESS);
			assert_int_equal(fwc[i].wr_id, 200 + i);
		}
	}
}

/* sq_sig_all: every WQE completes although no request asks for it. */
static void test_sq_sig_all(void **state)
{
	const struct bridge_cfg cfg = {.sq_sig_all = 1};
	struct bridge_fix *f;
	struct ibv_sge sge;
	struct ibv_send_wr wr[2];
	struct ibv_wc wc[3];

	assert_int_equal(bridge_setup_cfg(state, &cfg), 0);
	f = *state;
	sge = (struct ibv_sge){.addr = bridge_addr(f, BRIDGE_A_SRC), .length = 16, .lkey = f->lkey};
	memset(wr, 0, sizeof(wr));
	for (int i = 0; i < 2; i++) {
		wr[i].wr_id = 7 + (uint64_t)i;
		wr[i].sg_list = &sge;
		wr[i].num_sge = 1;
		wr[i].opcode = IBV_WR_RDMA_WRITE;
		wr[i].wr.rdma.remote_addr = bridge_addr(f, BRIDGE_B_DST);
		wr[i].wr.rdma.rkey = f->rkey;
	}
	wr[0].next = &wr[1];
	post_send_ok(f->a.qp, &wr[0]);
	assert_int_equal(bridge_poll(f->a.scq, wc, 3, 500), 2);
	assert_int_equal(wc[0].wr_id, 7);
	assert_int_equal(wc[1].wr_id, 8);
	assert_int_equal(bridge_teardown(state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write, setup_default, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_doorbell_halves, setup_default, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_write_imm_recv, setup_default, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_send_sges, setup_default, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_send_imm, setup_default, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_read, setup_default, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_atomics, setup_default, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_inline, setup_inline, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_inline_empty_sge, setup_inline, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_unsignaled_then_signaled, setup_default, bridge_teardown),
		cmocka_unit_test(test_sq_sig_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
