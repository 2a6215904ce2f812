/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU data path on the software NIC: ring wrap, a full send / receive queue, error CQEs
 * mapped to ibv_wc_status (requester and responder, then the flush), DBR-less and emulated
 * DBR-less doorbells, receives through an SRQ, and every refusal of bad input.
 */
#include "bridge_fixture.h"

#include "logged.h"

#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define TIMEOUT_MS 5000

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void fill(uint8_t *p, uint32_t len, uint8_t seed)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 13u);
}

static struct ibv_send_wr write_wr(const struct bridge_fix *f, uint64_t id, uint32_t src, uint32_t dst,
				   uint32_t len, struct ibv_sge *sge)
{
	struct ibv_send_wr wr;

	memset(&wr, 0, sizeof(wr));
	*sge = (struct ibv_sge){.addr = bridge_addr(f, src), .length = len, .lkey = f->lkey};
	wr.wr_id = id;
	wr.sg_list = sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = bridge_addr(f, dst);
	wr.wr.rdma.rkey = f->rkey;
	return wr;
}

static uint8_t *sq_ring(struct doca_verbs_qp *qp, uint32_t *n)
{
	void *s, *r;
	uint32_t sn, rn, stride;

	assert_int_equal(doca_verbs_qp_get_wq(qp, &s, &sn, &r, &rn, &stride), DOCA_SUCCESS);
	if (n != NULL)
		*n = sn;
	return s;
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

/*
 * A 4-WQEBB send queue: one-WQEBB writes alternate with two-WQEBB inline writes, so that
 * every few posts an inline WQE starts in the last slot and continues in slot 0.
 */
static void test_sq_wrap(void **state)
{
	const struct bridge_cfg cfg = {.sq_wr = 2, .max_inline_data = 60};
	struct bridge_fix *f;
	uint8_t payload[60], hdr[4], *sq;
	uint32_t nbb = 0, pi = 0, wraps = 0;
	struct ibv_wc wc;

	assert_int_equal(bridge_setup_cfg(state, &cfg), 0);
	f = *state;
	sq = sq_ring(f->a.qp, &nbb);
	assert_int_equal(nbb, 4);
	for (uint32_t i = 0; i < 40; i++) {
		struct ibv_sge sge;
		struct ibv_send_wr wr = write_wr(f, i, BRIDGE_A_SRC, BRIDGE_B_DST + (i % 8) * 64, 60, &sge);
		bool inl = (i % 2) == 1;
		uint32_t start = pi & 3;

		fill(f->buf + BRIDGE_A_SRC, 60, (uint8_t)i);
		if (inl) {
			memcpy(payload, f->buf + BRIDGE_A_SRC, 60);
			sge.addr = (uint64_t)(uintptr_t)payload;
			sge.lkey = 0;
			wr.send_flags |= IBV_SEND_INLINE;
		}
		{
			struct ibv_send_wr *bad = NULL;

			assert_int_equal(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), 0);
		}
		assert_int_equal(bridge_poll(f->a.scq, &wc, 1, TIMEOUT_MS), 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.wr_id, i);
		assert_memory_equal(f->buf + BRIDGE_B_DST + (i % 8) * 64, f->buf + BRIDGE_A_SRC, 60);
		/* the ctrl segment names the 16-bit producer index, whatever the slot */
		assert_int_equal(sq[start * 64 + 1], (uint8_t)(pi >> 8));
		assert_int_equal(sq[start * 64 + 2], (uint8_t)pi);
		if (inl && start == 3) {
			/* header and 28 payload bytes end the ring; the other 32 bytes start it */
			put_be32(hdr, 0x80000000u | 60);
			assert_memory_equal(sq + 3 * 64 + 32, hdr, 4);
			assert_memory_equal(sq + 3 * 64 + 36, f->buf + BRIDGE_A_SRC, 28);
			assert_memory_equal(sq, f->buf + BRIDGE_A_SRC + 28, 32);
			wraps++;
		}
		pi += inl ? 2 : 1;
	}
	assert_true(wraps >= 5);
	/* the doorbell record carries the 16-bit producer counter */
	put_be32(hdr, pi);
	assert_memory_equal(qp_dbr(f->a.qp) + 4, hdr, 4);
	assert_int_equal(bridge_teardown(state), 0);
}

/* A full send queue: ENOMEM and *bad_wr at the first request that does not fit; the rest was rung. */
static void test_sq_full(void **state)
{
	const struct bridge_cfg cfg = {.sq_wr = 4};
	struct bridge_fix *f;
	struct ibv_send_wr wr[5], *bad = NULL;
	struct ibv_sge sge[5];
	struct ibv_wc wc[5];
	uint32_t nbb = 0;

	assert_int_equal(bridge_setup_cfg(state, &cfg), 0);
	f = *state;
	(void)sq_ring(f->a.qp, &nbb);
	assert_int_equal(nbb, 4);
	fill(f->buf + BRIDGE_A_SRC, 5 * 32, 50);
	for (uint32_t i = 0; i < 5; i++) {
		wr[i] = write_wr(f, 10 + i, BRIDGE_A_SRC + i * 32, BRIDGE_B_DST + i * 32, 32, &sge[i]);
		wr[i].send_flags = i == 3 || i == 4 ? IBV_SEND_SIGNALED : 0;
		wr[i].next = i < 4 ? &wr[i + 1] : NULL;
	}
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr[0], &bad), ENOMEM, "send queue full");
	assert_ptr_equal(bad, &wr[4]);
	assert_int_equal(bridge_poll(f->a.scq, wc, 5, 500), 1);
	assert_int_equal(wc[0].wr_id, 13);
	assert_memory_equal(f->buf + BRIDGE_B_DST, f->buf + BRIDGE_A_SRC, 4 * 32);
	/* the refused request posts once the queue drained */
	bad = NULL;
	assert_int_equal(doca_verbs_bridge_post_send(f->a.qp, &wr[4], &bad), 0);
	assert_null(bad);
	assert_int_equal(bridge_poll(f->a.scq, wc, 1, TIMEOUT_MS), 1);
	assert_int_equal(wc[0].wr_id, 14);
	assert_memory_equal(f->buf + BRIDGE_B_DST + 4 * 32, f->buf + BRIDGE_A_SRC + 4 * 32, 32);
	assert_int_equal(bridge_teardown(state), 0);
}

/* A bad rkey: REM_ACCESS_ERR for it, WR_FLUSH_ERR for the request behind it. */
static void test_error_remote_access(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge sge[2];
	struct ibv_send_wr wr[2];
	struct ibv_wc wc[3];

	wr[0] = write_wr(f, 1, BRIDGE_A_SRC, BRIDGE_B_DST, 16, &sge[0]);
	wr[0].wr.rdma.rkey = f->rkey ^ 0x00ffff00u;
	wr[1] = write_wr(f, 2, BRIDGE_A_SRC, BRIDGE_B_DST, 16, &sge[1]);
	wr[0].next = &wr[1];
	wr[1].next = NULL;
	{
		struct ibv_send_wr *bad = NULL;

		assert_int_equal(doca_verbs_bridge_post_send(f->a.qp, &wr[0], &bad), 0);
	}
	assert_int_equal(bridge_poll(f->a.scq, wc, 3, 500), 2);
	assert_int_equal(wc[0].wr_id, 1);
	assert_int_equal(wc[0].status, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(wc[0].qp_num, f->a.qpn);
	assert_int_equal(wc[1].wr_id, 2);
	assert_int_equal(wc[1].status, IBV_WC_WR_FLUSH_ERR);
	assert_int_equal(wc[1].qp_num, f->a.qpn);
}

/*
 * A responder error: a SEND longer than the receive buffer. The responder completes that
 * receive with LOC_LEN_ERR and flushes the next; the requester sees REM_INV_REQ_ERR.
 */
static void test_error_responder(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge rsge[2] = {{.addr = bridge_addr(f, BRIDGE_B_DST), .length = 16, .lkey = f->lkey},
				  {.addr = bridge_addr(f, BRIDGE_B_DST + 64), .length = 16, .lkey = f->lkey}};
	struct ibv_recv_wr rwr[2] = {{.wr_id = 0xb1, .sg_list = &rsge[0], .num_sge = 1, .next = &rwr[1]},
				     {.wr_id = 0xb2, .sg_list = &rsge[1], .num_sge = 1}};
	struct ibv_recv_wr *rbad = NULL;
	struct ibv_sge sge;
	struct ibv_send_wr wr = write_wr(f, 5, BRIDGE_A_SRC, 0, 100, &sge), *bad = NULL;
	struct ibv_wc wc[3];

	assert_int_equal(doca_verbs_bridge_post_recv(f->b.qp, &rwr[0], &rbad), 0);
	wr.opcode = IBV_WR_SEND;
	assert_int_equal(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), 0);
	assert_int_equal(bridge_poll(f->b.rcq, wc, 3, 500), 2);
	assert_int_equal(wc[0].wr_id, 0xb1);
	assert_int_equal(wc[0].status, IBV_WC_LOC_LEN_ERR);
	assert_int_equal(wc[0].opcode, IBV_WC_RECV);
	assert_int_equal(wc[0].qp_num, f->b.qpn);
	assert_int_equal(wc[1].wr_id, 0xb2);
	assert_int_equal(wc[1].status, IBV_WC_WR_FLUSH_ERR);
	assert_int_equal(bridge_poll(f->a.scq, wc, 1, TIMEOUT_MS), 1);
	assert_int_equal(wc[0].wr_id, 5);
	assert_int_equal(wc[0].status, IBV_WC_REM_INV_REQ_ERR);
}

/* DBR-less: no doorbell record write; the ctrl bytes go to the page's DBR-less register (+0x600). */
static void test_dbr_less(void **state)
{
	const struct bridge_cfg cfg = {.dbr_mode = DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT};
	struct bridge_fix *f;
	const uint8_t *page, *dbr;
	uint8_t db[8], zero[4] = {0};
	struct ibv_wc wc;

	assert_int_equal(bridge_setup_cfg(state, &cfg), 0);
	f = *state;
	page = qp_uar_reg(f->a.qp) - 0x800;
	dbr = qp_dbr(f->a.qp);
	for (uint32_t i = 0; i < 3; i++) {
		struct ibv_sge sge;
		struct ibv_send_wr wr = write_wr(f, i, BRIDGE_A_SRC + i * 64, BRIDGE_B_DST + i * 64, 64, &sge), *bad;

		fill(f->buf + BRIDGE_A_SRC + i * 64, 64, (uint8_t)(i + 1));
		assert_int_equal(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), 0);
		assert_int_equal(bridge_poll(f->a.scq, &wc, 1, TIMEOUT_MS), 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.wr_id, i);
		assert_memory_equal(f->buf + BRIDGE_B_DST + i * 64, f->buf + BRIDGE_A_SRC + i * 64, 64);
		put_be32(db, (i << 8) | 0x08);
		put_be32(db + 4, (f->a.qpn << 8) | 3);
		assert_memory_equal(page + 0x600, db, 8);
		assert_memory_equal(dbr + 4, zero, 4);
	}
	assert_int_equal(bridge_teardown(state), 0);
}

/* Emulated DBR-less: a real doorbell record, kept current, and the BlueFlame register. */
static void test_dbr_less_emulated(void **state)
{
	const struct bridge_cfg cfg = {.dbr_mode = DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT, .emulate_no_dbr_ext = true};
	struct bridge_fix *f;
	struct ibv_sge sge;
	struct ibv_send_wr wr, *bad = NULL;
	uint8_t db[8];
	struct ibv_wc wc;

	assert_int_equal(bridge_setup_cfg(state, &cfg), 0);
	f = *state;
	assert_true(doca_verbs_qp_get_emulate_no_dbr_ext(f->a.qp));
	wr = write_wr(f, 9, BRIDGE_A_SRC, BRIDGE_B_DST, 64, &sge);
	fill(f->buf + BRIDGE_A_SRC, 64, 0x31);
	assert_int_equal(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), 0);
	assert_int_equal(bridge_poll(f->a.scq, &wc, 1, TIMEOUT_MS), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_memory_equal(f->buf + BRIDGE_B_DST, f->buf + BRIDGE_A_SRC, 64);
	put_be32(db, 1);
	assert_memory_equal(qp_dbr(f->a.qp) + 4, db, 4);
	put_be32(db, 0x08);
	put_be32(db + 4, (f->a.qpn << 8) | 3);
	assert_memory_equal(qp_uar_reg(f->a.qp), db, 8);
	assert_int_equal(bridge_teardown(state), 0);
}

/* Receives through an SRQ (posted on its ring by hand): wr_id is the SRQ WQE index. */
static void test_srq_recv(void **state)
{
	const struct bridge_cfg cfg = {.b_with_srq = true};
	struct bridge_fix *f;
	struct ibv_sge rsge = {.length = 64};
	struct ibv_recv_wr rwr = {.wr_id = 1, .sg_list = &rsge, .num_sge = 1}, *rbad = NULL;
	void *ring = NULL, *dbr = NULL;
	uint32_t n = 0, stride = 0;
	struct ibv_wc wc[2];

	assert_int_equal(bridge_setup_cfg(state, &cfg), 0);
	f = *state;
	assert_int_equal(doca_verbs_srq_get_wq(f->srq, &ring, &n, &stride), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_get_dbr_addr(f->srq, &dbr), DOCA_SUCCESS);
	assert_true(stride >= 32);
	/* linked-list WQEs 0 and 1: next segment (next index at bytes 2-3), then one data segment */
	for (uint32_t i = 0; i < 2; i++) {
		uint8_t *w = (uint8_t *)ring + i * stride;

		memset(w, 0, stride);
		w[2] = 0;
		w[3] = (uint8_t)(i + 1);
		put_be32(w + 16, 64);
		put_be32(w + 20, f->lkey);
		put_be32(w + 24, (uint32_t)(bridge_addr(f, BRIDGE_B_DST + i * 64) >> 32));
		put_be32(w + 28, (uint32_t)bridge_addr(f, BRIDGE_B_DST + i * 64));
	}
	__atomic_store_n((uint32_t *)dbr, htobe32(2), __ATOMIC_RELEASE);
	for (uint32_t i = 0; i < 2; i++) {
		struct ibv_sge sge;
		struct ibv_send_wr wr = write_wr(f, 20 + i, BRIDGE_A_SRC + i * 64, 0, 48, &sge), *bad = NULL;

		wr.opcode = IBV_WR_SEND;
		fill(f->buf + BRIDGE_A_SRC + i * 64, 48, (uint8_t)(0x40 + i));
		assert_int_equal(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), 0);
		assert_int_equal(bridge_poll(f->b.rcq, wc, 1, TIMEOUT_MS), 1);
		assert_int_equal(wc[0].status, IBV_WC_SUCCESS);
		assert_int_equal(wc[0].wr_id, i);
		assert_int_equal(wc[0].opcode, IBV_WC_RECV);
		assert_int_equal(wc[0].byte_len, 48);
		assert_int_equal(wc[0].qp_num, f->b.qpn);
		assert_memory_equal(f->buf + BRIDGE_B_DST + i * 64, f->buf + BRIDGE_A_SRC + i * 64, 48);
		assert_int_equal(bridge_poll(f->a.scq, wc, 1, TIMEOUT_MS), 1);
		assert_int_equal(wc[0].wr_id, 20 + i);
	}
	/* the QP has no own receive queue */
	rsge.addr = bridge_addr(f, BRIDGE_B_DST);
	rsge.lkey = f->lkey;
	LOGGED_EQ(doca_verbs_bridge_post_recv(f->b.qp, &rwr, &rbad), EINVAL, "receives from an SRQ");
	assert_ptr_equal(rbad, &rwr);
	assert_int_equal(bridge_teardown(state), 0);
}

static void test_post_send_bad_input(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge sge[3];
	struct ibv_send_wr wr = write_wr(f, 1, BRIDGE_A_SRC, BRIDGE_B_DST, 16, &sge[0]), good, *bad = NULL;
	uint8_t zero[4] = {0}, one[4] = {0, 0, 0, 1};
	struct ibv_wc wc[2];

	LOGGED_EQ(doca_verbs_bridge_post_send(NULL, &wr, &bad), EINVAL, "bridge_post_send: NULL QP");
	assert_ptr_equal(bad, &wr);
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, NULL, &bad), EINVAL, "bridge_post_send: NULL request");
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, NULL), EINVAL, "bridge_post_send: NULL bad_wr");
	/* requests refused before anything is written */
	bad = NULL;
	wr.opcode = IBV_WR_LOCAL_INV;
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), EINVAL, "opcode");
	assert_ptr_equal(bad, &wr);
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_IP_CSUM;
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), EINVAL, "send_flags");
	wr.send_flags = IBV_SEND_SIGNALED;
	sge[1] = sge[0];
	sge[2] = sge[0];
	wr.num_sge = 3; /* the QP takes 2 */
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), EINVAL, "3 SGEs");
	wr.num_sge = -1;
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), EINVAL, "num_sge");
	wr.num_sge = 1;
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	sge[0].length = 4;
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), EINVAL, "atomic");
	sge[0].length = 8;
	wr.num_sge = 2;
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), EINVAL, "atomic");
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE; /* the QP has no inline room */
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), EINVAL, "inline");
	sge[0].length = 0x80000000u;
	wr.send_flags = IBV_SEND_SIGNALED;
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), EINVAL, "31 bits");
	assert_memory_equal(qp_dbr(f->a.qp) + 4, zero, 4); /* nothing was rung */
	/* a good request before a bad one is posted and rung; *bad_wr names the bad one */
	good = write_wr(f, 77, BRIDGE_A_SRC, BRIDGE_B_DST, 16, &sge[2]);
	sge[0].length = 16;
	wr.opcode = IBV_WR_LOCAL_INV;
	good.next = &wr;
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &good, &bad), EINVAL, "opcode");
	assert_ptr_equal(bad, &wr);
	assert_memory_equal(qp_dbr(f->a.qp) + 4, one, 4);
	assert_int_equal(bridge_poll(f->a.scq, wc, 2, 500), 1);
	assert_int_equal(wc[0].wr_id, 77);
	assert_int_equal(wc[0].status, IBV_WC_SUCCESS);
}

static void test_post_recv_bad_input(void **state)
{
	struct bridge_fix *f = *state;
	struct ibv_sge sge[3];
	struct ibv_recv_wr wr[17], *bad = NULL;
	uint8_t be[4];

	memset(wr, 0, sizeof(wr));
	for (int i = 0; i < 3; i++)
		sge[i] = (struct ibv_sge){.addr = bridge_addr(f, BRIDGE_B_DST), .length = 16, .lkey = f->lkey};
	for (int i = 0; i < 17; i++) {
		wr[i].wr_id = (uint64_t)i;
		wr[i].sg_list = sge;
		wr[i].num_sge = 1;
		wr[i].next = i < 16 ? &wr[i + 1] : NULL;
	}
	LOGGED_EQ(doca_verbs_bridge_post_recv(NULL, &wr[0], &bad), EINVAL, "bridge_post_recv: NULL QP");
	assert_ptr_equal(bad, &wr[0]);
	LOGGED_EQ(doca_verbs_bridge_post_recv(f->b.qp, NULL, &bad), EINVAL, "bridge_post_recv: NULL request");
	LOGGED_EQ(doca_verbs_bridge_post_recv(f->b.qp, &wr[0], NULL), EINVAL, "bridge_post_recv: NULL bad_wr");
	wr[16].num_sge = 3; /* the QP takes 2 */
	{
		struct ibv_recv_wr one = wr[16];

		one.next = NULL;
		LOGGED_EQ(doca_verbs_bridge_post_recv(f->b.qp, &one, &bad), EINVAL, "3 SGEs");
		assert_ptr_equal(bad, &one);
		one.num_sge = 1;
		sge[0].length = 0x80000000u;
		LOGGED_EQ(doca_verbs_bridge_post_recv(f->b.qp, &one, &bad), EINVAL, "31 bits");
		sge[0].length = 16;
	}
	wr[16].num_sge = 1;
	/* 16 fit, the 17th does not; the counter of the 16 is in the doorbell record */
	LOGGED_EQ(doca_verbs_bridge_post_recv(f->b.qp, &wr[0], &bad), ENOMEM, "receive queue full");
	assert_ptr_equal(bad, &wr[16]);
	put_be32(be, 16);
	assert_memory_equal(qp_dbr(f->b.qp), be, 4);
}

static void test_not_ready(void **state)
{
	const struct bridge_cfg cfg = {.no_connect = true};
	struct bridge_fix *f;
	struct ibv_sge sge;
	struct ibv_send_wr wr, *bad = NULL;
	struct ibv_recv_wr rwr = {.sg_list = &sge, .num_sge = 1}, *rbad = NULL;

	assert_int_equal(bridge_setup_cfg(state, &cfg), 0);
	f = *state;
	wr = write_wr(f, 1, BRIDGE_A_SRC, BRIDGE_B_DST, 16, &sge);
	LOGGED_EQ(doca_verbs_bridge_post_send(f->a.qp, &wr, &bad), EINVAL, "INIT, RTR or RTS needed");
	assert_ptr_equal(bad, &wr);
	LOGGED_EQ(doca_verbs_bridge_post_recv(f->b.qp, &rwr, &rbad), EINVAL, "is in RST");
	assert_ptr_equal(rbad, &rwr);
	assert_int_equal(bridge_teardown(state), 0);
}

static void test_poll_bad_input(void **state)
{
	struct bridge_fix *f = *state;
	struct doca_verbs_cq_attr *attr = NULL;
	struct doca_verbs_cq *cc = NULL;
	struct ibv_wc wc;

	LOGGED_EQ(doca_verbs_bridge_poll_cq(NULL, 1, &wc), -EINVAL, "bridge_poll_cq: NULL CQ");
	LOGGED_EQ(doca_verbs_bridge_poll_cq(f->a.scq, 1, NULL), -EINVAL, "bridge_poll_cq: NULL ibv_wc");
	LOGGED_EQ(doca_verbs_bridge_poll_cq(f->a.scq, -1, &wc), -EINVAL, "bridge_poll_cq: negative");
	assert_int_equal(doca_verbs_bridge_poll_cq(f->a.scq, 0, &wc), 0);
	assert_int_equal(doca_verbs_bridge_poll_cq(f->a.scq, 1, &wc), 0);
	/* a collapsed CQ writes every CQE to entry 0: not pollable by index */
	assert_int_equal(doca_verbs_cq_attr_create(&attr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(attr, 8), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_collapsed(attr, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(attr, DOCA_VERBS_CQ_ENABLE_OVERRUN), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f->ctx, attr, &cc), DOCA_SUCCESS);
	LOGGED_EQ(doca_verbs_bridge_poll_cq(cc, 1, &wc), -EINVAL, "collapsed");
	assert_int_equal(doca_verbs_cq_destroy(cc), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(attr), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sq_wrap),
		cmocka_unit_test(test_sq_full),
		cmocka_unit_test_setup_teardown(test_error_remote_access, setup_default, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_error_responder, setup_default, bridge_teardown),
		cmocka_unit_test(test_dbr_less),
		cmocka_unit_test(test_dbr_less_emulated),
		cmocka_unit_test(test_srq_recv),
		cmocka_unit_test_setup_teardown(test_post_send_bad_input, setup_default, bridge_teardown),
		cmocka_unit_test_setup_teardown(test_post_recv_bad_input, setup_default, bridge_teardown),
		cmocka_unit_test(test_not_ready),
		cmocka_unit_test_setup_teardown(test_poll_bad_input, setup_default, bridge_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
