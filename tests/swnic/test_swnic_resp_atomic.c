/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Responder atomics: exact results of CS, FA, masked CS and masked FA (field boundaries)
 * on 4 and 8 bytes, the INVALID_REQ and REMOTE_ACCESS cases, and concurrent FA from four
 * threads. Target words are host-order integers; the bytes around them are guards.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>

#include "prm/prm_qpc.h"
#include "resp_fixture.h"

#define GUARD 0xeeu

struct env {
	struct fix f;
	struct fix_cq cq;
	_Alignas(64) uint8_t buf[64]; /* target words at 8, 16 (8 B) and 32 (4 B) */
	uint32_t key;
	uint32_t qpn;
};

static int setup(void **state)
{
	static struct env e;
	struct fix_qp_cfg cfg;
	struct fix_qp qp;

	memset(&e, 0, sizeof(e));
	fix_open_with_cq(&e.f, 3, &e.cq);
	memset(e.buf, GUARD, sizeof(e.buf));
	e.key = fix_mr(&e.f, 0, e.buf, sizeof(e.buf), OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_ATOMIC);
	fix_qp_cfg_default(&e.f, &e.cq, &cfg);
	fix_qp_create(&e.f, &cfg, &qp);
	e.qpn = qp.qpn;
	*state = &e;
	return 0;
}

static void put64(struct env *e, size_t off, uint64_t v)
{
	memcpy(e->buf + off, &v, 8);
}

static uint64_t get64(const struct env *e, size_t off)
{
	uint64_t v;

	memcpy(&v, e->buf + off, 8);
	return v;
}

static void put32(struct env *e, size_t off, uint32_t v)
{
	memcpy(e->buf + off, &v, 4);
}

static uint32_t get32(const struct env *e, size_t off)
{
	uint32_t v;

	memcpy(&v, e->buf + off, 4);
	return v;
}

static struct swnic_req atomic_req(struct env *e, uint32_t qpn, uint8_t op, uint8_t size, size_t off)
{
	struct swnic_req r = fix_req(qpn, op);

	r.atomic_size = size;
	r.raddr = (uint64_t)(uintptr_t)(e->buf + off);
	r.rkey = e->key;
	return r;
}

static uint8_t run(struct env *e, const struct swnic_req *r, uint64_t *orig)
{
	struct swnic_resp resp;

	assert_int_equal(fix_execute(e->f.nic, r, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.read_len, 0);
	if (orig != NULL)
		*orig = resp.atomic_orig;
	return resp.status;
}

/* Bytes outside [off, off + size) are still the guard. */
static void assert_only_word_changed(const struct env *e, size_t off, size_t size)
{
	size_t i;

	for (i = 0; i < sizeof(e->buf); i++) {
		if ((i < off || i >= off + size) && e->buf[i] != GUARD)
			fail_msg("byte %zu changed to 0x%02x", i, e->buf[i]);
	}
}

static void standard_cs_and_fa(void **state)
{
	struct env *e = *state;
	struct swnic_req r;
	uint64_t orig = 0;

	put64(e, 8, 0x0123456789abcdefull);
	r = atomic_req(e, e->qpn, SWNIC_REQ_ATOMIC_CS, 8, 8);
	r.compare = 0x0123456789abcdeeull; /* differs in bit 0 */
	r.swap_add = 0x1111111111111111ull;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(orig == 0x0123456789abcdefull);
	assert_true(get64(e, 8) == 0x0123456789abcdefull);
	r.compare = 0x0123456789abcdefull;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(orig == 0x0123456789abcdefull);
	assert_true(get64(e, 8) == 0x1111111111111111ull);

	r = atomic_req(e, e->qpn, SWNIC_REQ_ATOMIC_FA, 8, 8);
	r.swap_add = 0xf000000000000001ull; /* wraps past 2^64 */
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(orig == 0x1111111111111111ull);
	assert_true(get64(e, 8) == 0x0111111111111112ull);
	assert_only_word_changed(e, 8, 8);
}

static void masked_cs_8_and_4(void **state)
{
	struct env *e = *state;
	struct swnic_req r;
	uint64_t orig = 0;

	put64(e, 16, 0x1122334455667788ull);
	r = atomic_req(e, e->qpn, SWNIC_REQ_MASKED_CS, 8, 16);
	r.compare = 0x0000004455000000ull;
	r.compare_mask = 0x000000ffff000000ull;
	r.swap_add = 0xaaaaaaaaaaaaaaaaull;
	r.swap_mask = 0x00000000000000ffull;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(orig == 0x1122334455667788ull);
	assert_true(get64(e, 16) == 0x11223344556677aaull);
	/* A compared bit differs (bit 24): nothing is swapped. */
	r.compare = 0x0000004454000000ull;
	r.swap_mask = ~0ull;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(orig == 0x11223344556677aaull);
	assert_true(get64(e, 16) == 0x11223344556677aaull);
	/* compare_mask 0 always matches. */
	r.compare_mask = 0;
	r.swap_mask = 0xff00000000000000ull;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(get64(e, 16) == 0xaa223344556677aaull);

	put32(e, 32, 0xdeadbeefu);
	r = atomic_req(e, e->qpn, SWNIC_REQ_MASKED_CS, 4, 32);
	r.compare = 0x0000be00u;
	r.compare_mask = 0x0000ff00u;
	r.swap_add = 0x12345678u;
	r.swap_mask = 0xffff0000u;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(orig == 0xdeadbeefull); /* host order, no byte swap at the responder */
	assert_int_equal(get32(e, 32), 0x1234beefu);
	/* Operand bits above 32 are ignored. */
	r.compare = 0xffffffff0000be00ull;
	r.swap_add = 0xffffffff00000001ull;
	r.swap_mask = 0xffffffff000000ffull;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_int_equal(get32(e, 32), 0x1234be01u);
	assert_only_word_changed(e, 16, 24);
	assert_int_equal(e->buf[36], GUARD);
}

static void masked_fa_field_boundaries(void **state)
{
	struct env *e = *state;
	struct swnic_req r;
	uint64_t orig = 0;

	/* Four 16-bit fields (boundary = each field's MSB); carries stay inside each field. */
	put64(e, 8, 0x0001ffff7fffffffull);
	r = atomic_req(e, e->qpn, SWNIC_REQ_MASKED_FA, 8, 8);
	r.swap_add = 0x0001000100010001ull;
	r.compare = 0x8000800080008000ull; /* field boundary */
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(orig == 0x0001ffff7fffffffull);
	assert_true(get64(e, 8) == 0x0002000080000000ull); /* a plain add gives 0x0003000080010000 */

	/* Uneven fields: bits 0-7, 8-31, 32-63. */
	put64(e, 8, 0x00000001ffffffffull);
	r.swap_add = 0x0000000100000101ull;
	r.compare = 0x0000000080000080ull;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(get64(e, 8) == 0x0000000200000000ull); /* plain: 0x0000000300000100 */

	/* No boundary: a plain add, wrapping at 2^64. */
	put64(e, 8, 0xffffffffffffffffull);
	r.swap_add = 2;
	r.compare = 0;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(get64(e, 8) == 1);

	/* 4 bytes, byte fields. */
	put32(e, 32, 0x01ff7f80u);
	r = atomic_req(e, e->qpn, SWNIC_REQ_MASKED_FA, 4, 32);
	r.swap_add = 0x01010101u;
	r.compare = 0x80808080u;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(orig == 0x01ff7f80u);
	assert_int_equal(get32(e, 32), 0x02008081u); /* plain: 0x03008081 */
	/* 4 bytes without boundary wrap at 2^32 and leave the next word alone. */
	put32(e, 32, 0xffffffffu);
	r.swap_add = 3;
	r.compare = 0;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_int_equal(get32(e, 32), 2u);
	assert_only_word_changed(e, 8, 8 + 16 + 4);
	assert_int_equal(e->buf[36], GUARD);
}

static void ib_spec_mode(struct fix_qp_cfg *c)
{
	c->atomic_mode = PRM_QP_ATOMIC_MODE_IB_SPEC;
}

static void no_rae(struct fix_qp_cfg *c)
{
	c->rae = 0;
}

static uint32_t make_qp(struct env *e, void (*tweak)(struct fix_qp_cfg *))
{
	struct fix_qp_cfg cfg;
	struct fix_qp qp;

	fix_qp_cfg_default(&e->f, &e->cq, &cfg);
	tweak(&cfg);
	fix_qp_create(&e->f, &cfg, &qp);
	return qp.qpn;
}

static void invalid_and_refused_atomics_change_nothing(void **state)
{
	struct env *e = *state;
	uint32_t qpn_8b_only = make_qp(e, ib_spec_mode);
	uint32_t qpn_no_rae = make_qp(e, no_rae);
	uint32_t key_no_atomic = fix_mr(&e->f, 0, e->buf, sizeof(e->buf), OGDA_ACCESS_LOCAL_WRITE |
					OGDA_ACCESS_REMOTE_WRITE);
	uint32_t key_pd1 = fix_mr(&e->f, 1, e->buf, sizeof(e->buf), OGDA_ACCESS_LOCAL_WRITE |
				  OGDA_ACCESS_REMOTE_ATOMIC);
	struct swnic_req r;
	uint64_t orig = 0;

	/* Misaligned: 8 B at +4, 4 B at +2. */
	r = atomic_req(e, e->qpn, SWNIC_REQ_ATOMIC_FA, 8, 12);
	r.swap_add = 1;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_INVALID_REQ);
	assert_true(orig == 0);
	r = atomic_req(e, e->qpn, SWNIC_REQ_MASKED_FA, 4, 34);
	r.swap_add = 1;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_INVALID_REQ);
	/* Standard atomics are 8 bytes only; masked ones 4 or 8. */
	r = atomic_req(e, e->qpn, SWNIC_REQ_ATOMIC_CS, 4, 32);
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_INVALID_REQ);
	r = atomic_req(e, e->qpn, SWNIC_REQ_MASKED_CS, 2, 32);
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_INVALID_REQ);
	r = atomic_req(e, e->qpn, SWNIC_REQ_MASKED_CS, 16, 16);
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_INVALID_REQ);
	/* atomic_mode IB_SPEC: 4-byte operands are above what the QP takes; 8 bytes are fine. */
	r = atomic_req(e, qpn_8b_only, SWNIC_REQ_MASKED_FA, 4, 32);
	r.swap_add = 1;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_INVALID_REQ);
	assert_only_word_changed(e, 0, 0);
	put64(e, 8, 5);
	r = atomic_req(e, qpn_8b_only, SWNIC_REQ_MASKED_FA, 8, 8);
	r.swap_add = 1;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_ACK);
	assert_true(get64(e, 8) == 6);

	/* Rights: QP without rae, MR without REMOTE_ATOMIC, MR of another PD, range. */
	r = atomic_req(e, qpn_no_rae, SWNIC_REQ_ATOMIC_FA, 8, 8);
	r.swap_add = 1;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_REMOTE_ACCESS);
	r.dst_qpn = e->qpn;
	r.rkey = key_no_atomic;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_REMOTE_ACCESS);
	r.rkey = key_pd1;
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_REMOTE_ACCESS);
	r.rkey = e->key;
	r.raddr = (uint64_t)(uintptr_t)(e->buf + sizeof(e->buf));
	assert_int_equal(run(e, &r, &orig), SWNIC_RESP_NAK_REMOTE_ACCESS);
	assert_true(get64(e, 8) == 6);
	assert_only_word_changed(e, 8, 8);
}

#define FA_THREADS 4
#define FA_PER_THREAD 250000

static pthread_barrier_t fa_start; /* all threads race from the first operation on */

struct fa_worker {
	struct env *e;
	uint32_t qpn;                /* its own QP: one requester each, PSNs in order */
	uint64_t origs[FA_PER_THREAD];
	int failures;
};

static void *fa_loop(void *arg)
{
	struct fa_worker *w = arg;
	int i;

	pthread_barrier_wait(&fa_start);
	for (i = 0; i < FA_PER_THREAD; i++) {
		struct swnic_req r = atomic_req(w->e, w->qpn, SWNIC_REQ_ATOMIC_FA, 8, 8);
		struct swnic_resp resp;

		r.swap_add = 1;
		if (swnic_responder_execute(w->e->f.nic, &r, &resp, NULL) != DOCA_SUCCESS ||
		    resp.status != SWNIC_RESP_ACK)
			w->failures++;
		w->origs[i] = resp.atomic_orig;
	}
	return NULL;
}

static void concurrent_fa_sums(void **state)
{
	static struct fa_worker w[FA_THREADS];
	static bool seen[FA_THREADS * FA_PER_THREAD];
	struct env *e = *state;
	pthread_t th[FA_THREADS];
	int i, j;

	put64(e, 8, 0);
	memset(seen, 0, sizeof(seen));
	assert_int_equal(pthread_barrier_init(&fa_start, NULL, FA_THREADS), 0);
	for (i = 0; i < FA_THREADS; i++) {
		struct fix_qp_cfg cfg;
		struct fix_qp qp;

		memset(&w[i], 0, sizeof(w[i]));
		w[i].e = e;
		fix_qp_cfg_default(&e->f, &e->cq, &cfg);
		fix_qp_create(&e->f, &cfg, &qp);
		w[i].qpn = qp.qpn;
		assert_int_equal(pthread_create(&th[i], NULL, fa_loop, &w[i]), 0);
	}
	for (i = 0; i < FA_THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	pthread_barrier_destroy(&fa_start);
	assert_true(get64(e, 8) == (uint64_t)FA_THREADS * FA_PER_THREAD);
	/* Each fetched value 0 .. N-1 was returned exactly once. */
	for (i = 0; i < FA_THREADS; i++) {
		assert_int_equal(w[i].failures, 0);
		for (j = 0; j < FA_PER_THREAD; j++) {
			uint64_t v = w[i].origs[j];

			assert_true(v < (uint64_t)FA_THREADS * FA_PER_THREAD);
			assert_false(seen[v]);
			seen[v] = true;
		}
	}
	assert_only_word_changed(e, 8, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(standard_cs_and_fa, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(masked_cs_8_and_4, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(masked_fa_field_boundaries, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(invalid_and_refused_atomics_change_nothing, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(concurrent_fa_sums, setup, fix_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
