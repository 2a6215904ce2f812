/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receives through a shared receive queue (RMP): two QPs consume one SRQ in arrival order,
 * a linked-list SRQ is followed through its next segments, and concurrent senders on two
 * QPs consume every WQE exactly once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>

#include "opengda_mlx5.h"
#include "prm/prm_qpc.h"
#include "resp_fixture.h"

#define GUARD 0xeeu
#define BUF_LEN 1024u

struct env {
	struct fix f;
	struct fix_cq cq;
	uint8_t buf[BUF_LEN];
	uint32_t key;
};

static int setup(void **state)
{
	static struct env e;

	memset(&e, 0, sizeof(e));
	fix_open_with_cq(&e.f, 7, &e.cq);
	memset(e.buf, GUARD, sizeof(e.buf));
	e.key = fix_mr(&e.f, 0, e.buf, BUF_LEN, OGDA_ACCESS_LOCAL_WRITE);
	*state = &e;
	return 0;
}

static void qp_on_srq(struct env *e, const struct fix_srq *srq, uint32_t user_index, struct fix_qp *qp)
{
	struct fix_qp_cfg cfg;

	fix_qp_cfg_default(&e->f, &e->cq, &cfg);
	cfg.srqn = srq->srqn;
	cfg.user_index = user_index;
	fix_qp_create(&e->f, &cfg, qp);
}

static uint8_t send4(struct env *e, uint32_t qpn, uint32_t value)
{
	struct swnic_req r = fix_req(qpn, SWNIC_REQ_SEND);
	struct swnic_resp resp;

	r.payload = &value;
	r.len = sizeof(value);
	assert_int_equal(swnic_responder_execute(e->f.nic, &r, &resp, NULL), DOCA_SUCCESS);
	return resp.status;
}

static void assert_cqe(const uint8_t *c, uint32_t qpn, uint32_t user_index, uint16_t wqe_counter)
{
	assert_int_equal(c[63], 0x20); /* RESP_SEND, owner 0 */
	assert_int_equal(fix_be32(c + 44), 4);
	assert_int_equal(fix_be32(c + 56), qpn);
	assert_int_equal(fix_be32(c + 32), user_index);
	assert_int_equal(fix_be16(c + 60), wqe_counter);
}

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void two_qps_share_a_cyclic_srq(void **state)
{
	struct env *e = *state;
	struct fix_qp a, b;
	struct fix_srq srq;
	uint32_t i;

	fix_srq_create(&e->f, 3, 1, false, &srq); /* 8 WQEs of 32 B */
	qp_on_srq(e, &srq, 0x0000a1, &a);
	qp_on_srq(e, &srq, 0x0000b2, &b);
	assert_int_equal(send4(e, a.qpn, 1), SWNIC_RESP_NAK_RNR);
	assert_int_equal(send4(e, b.qpn, 1), SWNIC_RESP_NAK_RNR);
	for (i = 0; i < 3; i++) {
		struct fix_sge sge = {e->buf + 16 * i, 4, e->key};

		fix_srq_post(&srq, &sge, 1);
	}
	assert_int_equal(send4(e, a.qpn, 0x11111111u), SWNIC_RESP_ACK);
	assert_int_equal(send4(e, b.qpn, 0x22222222u), SWNIC_RESP_ACK);
	assert_int_equal(send4(e, a.qpn, 0x33333333u), SWNIC_RESP_ACK);
	assert_int_equal(send4(e, b.qpn, 0x44444444u), SWNIC_RESP_NAK_RNR);
	assert_int_equal(send4(e, a.qpn, 0x44444444u), SWNIC_RESP_NAK_RNR);

	assert_int_equal(u32_at(e->buf), 0x11111111u);
	assert_int_equal(u32_at(e->buf + 16), 0x22222222u);
	assert_int_equal(u32_at(e->buf + 32), 0x33333333u);
	assert_cqe(fix_cqe(&e->cq, 0), a.qpn, 0x0000a1, 0);
	assert_cqe(fix_cqe(&e->cq, 1), b.qpn, 0x0000b2, 1);
	assert_cqe(fix_cqe(&e->cq, 2), a.qpn, 0x0000a1, 2);
	assert_int_equal(fix_cqe(&e->cq, 3)[63], 0xf1);
	for (i = 0; i < 3; i++) {
		size_t j;

		for (j = 4; j < 16; j++)
			assert_int_equal(e->buf[16 * i + j], GUARD);
	}
}

/* Writes a linked-list SRQ WQE at slot with its next pointer and one 4-byte segment. */
static void linked_wqe(struct fix_srq *srq, uint32_t slot, uint16_t next, void *addr, uint32_t lkey)
{
	uint8_t *w = srq->ring + (size_t)slot * srq->stride;
	uint64_t a = (uint64_t)(uintptr_t)addr;
	int i;

	memset(w, 0, srq->stride);
	w[2] = (uint8_t)(next >> 8);
	w[3] = (uint8_t)next;
	w[16 + 3] = 4;
	w[16 + 4] = (uint8_t)(lkey >> 24);
	w[16 + 5] = (uint8_t)(lkey >> 16);
	w[16 + 6] = (uint8_t)(lkey >> 8);
	w[16 + 7] = (uint8_t)lkey;
	for (i = 0; i < 8; i++)
		w[24 + i] = (uint8_t)(a >> (56 - 8 * i));
	if (srq->stride > 32)
		w[32 + 6] = 0x01; /* lkey MLX5_INVALID_LKEY (BE 0x00000100) after the segment */
}

static void ring(struct fix_srq *srq, uint16_t pi)
{
	atomic_store_explicit(&srq->dbr[0], opengda_mlx5_htobe32(pi), memory_order_release);
}

static void linked_list_srq_follows_next(void **state)
{
	struct env *e = *state;
	struct fix_srq srq;
	struct fix_qp qp;

	fix_srq_create(&e->f, 3, 2, true, &srq); /* 8 WQEs of 64 B */
	qp_on_srq(e, &srq, 0x00c3c3, &qp);
	/* The list starts at slot 0 and goes 0 -> 5 -> 2. */
	linked_wqe(&srq, 0, 5, e->buf + 0, e->key);
	linked_wqe(&srq, 5, 2, e->buf + 50, e->key);
	linked_wqe(&srq, 1, 3, e->buf + 10, e->key); /* not on the list */
	ring(&srq, 2);
	assert_int_equal(send4(e, qp.qpn, 0xaaaaaaaau), SWNIC_RESP_ACK);
	assert_int_equal(send4(e, qp.qpn, 0xbbbbbbbbu), SWNIC_RESP_ACK);
	assert_int_equal(send4(e, qp.qpn, 0xccccccccu), SWNIC_RESP_NAK_RNR);
	assert_cqe(fix_cqe(&e->cq, 0), qp.qpn, 0x00c3c3, 0);
	assert_cqe(fix_cqe(&e->cq, 1), qp.qpn, 0x00c3c3, 5);
	assert_int_equal(u32_at(e->buf), 0xaaaaaaaau);
	assert_int_equal(u32_at(e->buf + 50), 0xbbbbbbbbu);
	assert_int_equal(u32_at(e->buf + 10), 0xeeeeeeeeu);

	linked_wqe(&srq, 2, 7, e->buf + 20, e->key);
	ring(&srq, 3);
	assert_int_equal(send4(e, qp.qpn, 0xccccccccu), SWNIC_RESP_ACK);
	assert_cqe(fix_cqe(&e->cq, 2), qp.qpn, 0x00c3c3, 2);
	assert_int_equal(u32_at(e->buf + 20), 0xccccccccu);
	assert_int_equal(u32_at(e->buf + 10), 0xeeeeeeeeu);
}

#define RACE_WQES 64u
#define RACE_PER_THREAD (RACE_WQES / 2)

struct racer {
	struct env *e;
	uint32_t qpn;
	uint32_t tag;
	uint32_t acks;
};

static void *race(void *arg)
{
	struct racer *r = arg;
	uint32_t i;

	for (i = 0; i < RACE_PER_THREAD; i++) {
		struct swnic_req q = fix_req(r->qpn, SWNIC_REQ_SEND);
		uint32_t v = r->tag | i;
		struct swnic_resp resp;

		q.payload = &v;
		q.len = 4;
		if (swnic_responder_execute(r->e->f.nic, &q, &resp, NULL) == DOCA_SUCCESS &&
		    resp.status == SWNIC_RESP_ACK)
			r->acks++;
	}
	return NULL;
}

static void concurrent_senders_consume_each_wqe_once(void **state)
{
	struct env *e = *state;
	struct racer rc[2] = {{e, 0, 0xa0000000u, 0}, {e, 0, 0xb0000000u, 0}};
	bool seen[2][RACE_PER_THREAD];
	uint32_t counters[RACE_WQES] = {0};
	pthread_t th[2];
	struct fix_srq srq;
	struct fix_qp a, b;
	uint32_t i;

	fix_srq_create(&e->f, 7, 0, false, &srq); /* 128 WQEs of 16 B: one segment each */
	qp_on_srq(e, &srq, 1, &a);
	qp_on_srq(e, &srq, 2, &b);
	for (i = 0; i < RACE_WQES; i++) {
		struct fix_sge sge = {e->buf + 8 * i, 4, e->key};

		fix_srq_post(&srq, &sge, 1);
	}
	rc[0].qpn = a.qpn;
	rc[1].qpn = b.qpn;
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, race, &rc[i]), 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	assert_int_equal(rc[0].acks, RACE_PER_THREAD);
	assert_int_equal(rc[1].acks, RACE_PER_THREAD);

	/* Every buffer got exactly one message and every message landed once. */
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < RACE_WQES; i++) {
		uint32_t v = u32_at(e->buf + 8 * i);
		uint32_t t = (v >> 28) == 0xa ? 0 : 1;

		assert_true((v & 0xf0000000u) == 0xa0000000u || (v & 0xf0000000u) == 0xb0000000u);
		assert_true((v & 0x0fffffffu) < RACE_PER_THREAD);
		assert_false(seen[t][v & 0x0fffffffu]);
		seen[t][v & 0x0fffffffu] = true;
	}
	/* CQEs: 64 of them, each WQE counter once, per-QP in send order. */
	for (i = 0; i < RACE_WQES; i++) {
		const uint8_t *c = fix_cqe(&e->cq, i);
		uint16_t wc = fix_be16(c + 60);

		assert_int_equal(c[63], 0x20);
		assert_true(wc < RACE_WQES);
		counters[wc]++;
		assert_true(fix_be32(c + 56) == a.qpn || fix_be32(c + 56) == b.qpn);
	}
	for (i = 0; i < RACE_WQES; i++)
		assert_int_equal(counters[i], 1);
	/* Exactly the 64 posted WQEs were consumed: the SRQ is empty now. */
	assert_int_equal(send4(e, a.qpn, 0), SWNIC_RESP_NAK_RNR);
	assert_int_equal(fix_cqe(&e->cq, RACE_WQES)[63], 0xf1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(two_qps_share_a_cyclic_srq, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(linked_list_srq_follows_next, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(concurrent_senders_consume_each_wqe_once, setup, fix_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
