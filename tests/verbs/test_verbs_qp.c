/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP creation on the software NIC: RC and UC, required objects, sizes against the device
 * limits and their rounding (inline room, WQEBBs, receive stride), SRQ exclusivity,
 * external UMEM / doorbell-record UMEM / UAR placed exactly, DBR-less send mode with and
 * without the capability, core direct, getters and destroy.
 *
 * A few tests clear a capability bit of the context (struct verbs_caps, verbs_priv.h) to
 * stand for a device without it: the software NIC has every capability these need.
 *
 * What the created QPs do with traffic (SGE counts, inline room, DBR-less rings) is in
 * test_verbs_qp_traffic.c.
 */
#include "verbs_fixture.h"

#include "test_util.h"
#include "verbs/verbs_priv.h"

#include <infiniband/verbs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char logbuf[16384];

struct qfx {
	struct vfx f;
	struct doca_verbs_cq *cq;
};

static int setup(void **state)
{
	struct qfx *q = calloc(1, sizeof(*q));

	if (q == NULL)
		return -1;
	vfx_open(&q->f);
	q->cq = vfx_cq(&q->f, 64, NULL, NULL);
	*state = q;
	return 0;
}

static int teardown(void **state)
{
	struct qfx *q = *state;

	assert_int_equal(doca_verbs_cq_destroy(q->cq), DOCA_SUCCESS);
	vfx_close(&q->f);
	free(q);
	return 0;
}

/* Creates with a, expecting err; the refusal logs a line holding want. */
static void expect_create_fails(struct qfx *q, struct doca_verbs_qp_init_attr *a, doca_error_t err, const char *want)
{
	struct doca_verbs_qp *qp = NULL;

	stderr_capture_begin();
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), err);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(qp);
	if (strstr(logbuf, want) == NULL)
		fail_msg("log \"%s\" does not say \"%s\"", logbuf, want);
}

struct geometry {
	uint8_t *sq, *rq;
	uint32_t sq_n, rq_n, stride;
};

static void get_geometry(struct doca_verbs_qp *qp, struct geometry *g)
{
	assert_int_equal(doca_verbs_qp_get_wq(qp, (void **)&g->sq, &g->sq_n, (void **)&g->rq, &g->rq_n, &g->stride),
			 DOCA_SUCCESS);
}

static void test_create_rc_and_uc(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp *rc, *uc;
	uint32_t qpn_rc = 0, qpn_uc = 0;
	struct doca_verbs_qp_attr *attr = vfx_attr();
	struct doca_verbs_qp_init_attr *ia = NULL;
	int mask = 0;

	rc = vfx_qp(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 8, 8);
	uc = vfx_qp(&q->f, DOCA_VERBS_QP_TYPE_UC, q->cq, q->cq, 8, 8);
	assert_int_equal(doca_verbs_qp_get_qpn(rc, &qpn_rc), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(uc, &qpn_uc), DOCA_SUCCESS);
	assert_int_not_equal(qpn_rc, qpn_uc);
	assert_int_equal(qpn_rc & ~0xffffffu, 0);
	assert_int_equal(qpn_uc & ~0xffffffu, 0);
	assert_int_equal(doca_verbs_qp_init_attr_create(&ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_query(uc, attr, ia, &mask), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_qp_type(ia), DOCA_VERBS_QP_TYPE_UC);
	assert_int_equal(doca_verbs_qp_attr_get_current_state(attr), DOCA_VERBS_QP_STATE_RST);
	assert_int_equal(doca_verbs_qp_query(rc, attr, ia, &mask), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_qp_type(ia), DOCA_VERBS_QP_TYPE_RC);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_pd(ia), q->f.pd);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_send_cq(ia), q->cq);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_receive_cq(ia), q->cq);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(attr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(uc), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(rc), DOCA_SUCCESS);
}

static void test_create_bad_input(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 4, 4);
	struct doca_verbs_qp *qp = NULL;

	stderr_capture_begin();
	assert_int_equal(doca_verbs_qp_create(NULL, a, &qp), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, NULL, &qp), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(qp);
	assert_non_null(strstr(logbuf, "verbs_context, verbs_qp_init_attr and verbs_qp must not be NULL"));
	assert_non_null(strstr(logbuf, "verbs_qp must not be NULL"));
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

static void test_missing_pd_and_cqs(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a = NULL;
	struct doca_verbs_context *other = NULL;
	struct doca_verbs_pd *other_pd = NULL;
	struct doca_verbs_cq_attr *ca = NULL;
	struct doca_verbs_cq *other_cq = NULL;

	/* no PD */
	assert_int_equal(doca_verbs_qp_init_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_cq(a, q->cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_cq(a, q->cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_wr(a, 4), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE,
			    "swnic0: a QP needs a PD of this context (doca_verbs_qp_init_attr_set_pd)");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);

	/* no send CQ for a send queue, no receive CQ for a receive queue */
	a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, NULL, q->cq, 4, 4);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: a QP with a send queue needs a send CQ of this context");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, NULL, 4, 4);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: a QP that receives needs a receive CQ of this context");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	/* neither queue */
	a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 0, 0);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE,
			    "swnic0: a QP needs a send queue, a receive queue or an SRQ (sq_wr and rq_wr are 0)");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);

	/* objects of another context */
	assert_int_equal(doca_verbs_context_create(q->f.info, 0, &other), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_create(other, &other_pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_create(&ca), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(ca, 4), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(other, ca, &other_cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(ca), DOCA_SUCCESS);
	a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 4, 4);
	assert_int_equal(doca_verbs_qp_init_attr_set_pd(a, other_pd), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "a QP needs a PD of this context");
	assert_int_equal(doca_verbs_qp_init_attr_set_pd(a, q->f.pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_cq(a, other_cq), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "needs a send CQ of this context");
	assert_int_equal(doca_verbs_qp_init_attr_set_send_cq(a, q->cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_cq(a, other_cq), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "needs a receive CQ of this context");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	/* refusals took no references */
	assert_int_equal(doca_verbs_cq_destroy(other_cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_destroy(other_pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_context_destroy(other), DOCA_SUCCESS);
}

static void test_sizes_above_caps(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a;

	a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 32769, 4);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: sq_wr 32769 / rq_wr 4 exceed the device's max_qp_wr 32768");
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_wr(a, 4), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(a, 32769), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: sq_wr 4 / rq_wr 32769 exceed the device's max_qp_wr 32768");
	assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(a, 4), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_max_sges(a, 63), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "send_max_sges 63 / receive_max_sges 1 exceed the device's max_sge");
	assert_int_equal(doca_verbs_qp_init_attr_set_send_max_sges(a, 1), DOCA_SUCCESS);
	/* 33 receive SGEs: 528 bytes, above max_wqe_sz_rq 512 */
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_max_sges(a, 33), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: a receive WQE of 33 SGEs is above the device's 512 bytes");
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_max_sges(a, 1), DOCA_SUCCESS);
	/* inline 973 and 1000 bytes: above the 972 a 63-octoword WQE holds after ctrl + raddr */
	assert_int_equal(doca_verbs_qp_init_attr_set_max_inline_data(a, 1000), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: max_inline_data 1000 is above what a send WQE holds (972 bytes)");
	assert_int_equal(doca_verbs_qp_init_attr_set_max_inline_data(a, 973), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: max_inline_data 973 is above what a send WQE holds (972 bytes)");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

/*
 * An inline size near UINT32_MAX must be refused like any inline size above the WQE: a
 * 32-bit size computation (4 + max_inline_data + 15) must not wrap it into a small WQE
 * and let the QP through with 28 bytes of inline room.
 */
static void test_inline_size_overflow_refused(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 4, 4);
	struct doca_verbs_qp *qp = NULL;
	doca_error_t err;

	assert_int_equal(doca_verbs_qp_init_attr_set_max_inline_data(a, 0xfffffffcu), DOCA_SUCCESS);
	stderr_capture_begin();
	err = doca_verbs_qp_create(q->f.ctx, a, &qp);
	stderr_capture_end(logbuf, sizeof(logbuf));
	if (err == DOCA_SUCCESS)
		assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(err, DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(logbuf, "max_inline_data 4294967292"));
}

/*
 * sq_wr counts WQEs; with 2-WQEBB WQEs (inline room) the ring holds 2 x sq_wr WQEBBs. At
 * max_qp_wr that is 2^16 WQEBBs, above log_max_qp_sz 15: the request must be refused by
 * the limit check of doca_verbs_qp_create() (INVALID_VALUE, naming sq_wr and the WQEBBs),
 * before any queue memory is allocated, not by the PRM field width of log_sq_size.
 */
static void test_sq_wqebbs_above_caps_refused(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 32768, 0);
	struct doca_verbs_qp *qp = NULL;
	struct geometry g;
	doca_error_t err;

	assert_int_equal(doca_verbs_qp_init_attr_set_max_inline_data(a, 60), DOCA_SUCCESS);
	stderr_capture_begin();
	err = doca_verbs_qp_create(q->f.ctx, a, &qp);
	stderr_capture_end(logbuf, sizeof(logbuf));
	if (err == DOCA_SUCCESS) {
		get_geometry(qp, &g);
		print_message("created with %u WQEBBs (max_qp_wr 32768)\n", g.sq_n);
		assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	}
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(err, DOCA_ERROR_INVALID_VALUE);
	/* The refusal names the parameter and the WQEBBs it needs, not a PRM field. */
	if (strstr(logbuf, "sq_wr 32768") == NULL || strstr(logbuf, "65536 WQE basic blocks") == NULL)
		fail_msg("log \"%s\" does not name sq_wr 32768 and the 65536 WQEBBs it needs", logbuf);
}

/* The rounding: inline room the WQE really has, WQEBBs a power of two, sq_wr as WQEs. */
static void test_inline_and_sq_rounding(void **state)
{
	static const struct {
		uint32_t sges, inl, sq_wr;
		uint32_t got_inl, wqebbs, got_sq_wr;
	} cases[] = {
		{1, 0, 16, 0, 16, 16},    /* ctrl + raddr + 2 x 16 (atomic room): one WQEBB */
		{1, 1, 16, 28, 16, 16},   /* one WQEBB: 64 - 32 - 4 bytes of inline */
		{1, 28, 5, 28, 8, 8},     /* 28 still fits one WQEBB; 5 WQEs -> 8 */
		{1, 29, 16, 92, 32, 16},  /* two WQEBBs each: 128 - 36 */
		{1, 60, 3, 92, 8, 4},     /* 3 x 2 = 6 -> 8 WQEBBs = 4 WQEs */
		{4, 0, 16, 0, 32, 16},    /* 32 + 64 bytes: two WQEBBs */
		{3, 0, 1, 0, 2, 1},
		{1, 200, 4, 220, 16, 4},  /* 32 + 208 = 240 -> 4 WQEBBs: 256 - 36 */
	};
	struct qfx *q = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct doca_verbs_qp_init_attr *a =
			vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, cases[i].sq_wr, 0);
		struct doca_verbs_qp_init_attr *got = NULL;
		struct doca_verbs_qp_attr *attr = vfx_attr();
		struct doca_verbs_qp *qp = NULL;
		struct geometry g;
		int mask = 0;

		assert_int_equal(doca_verbs_qp_init_attr_set_send_max_sges(a, cases[i].sges), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_max_inline_data(a, cases[i].inl), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS);
		get_geometry(qp, &g);
		if (g.sq_n != cases[i].wqebbs)
			fail_msg("case %zu: %u WQEBBs, expected %u", i, g.sq_n, cases[i].wqebbs);
		assert_non_null(g.sq);
		assert_null(g.rq);
		assert_int_equal(g.rq_n, 0);
		assert_int_equal(doca_verbs_qp_init_attr_create(&got), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_query(qp, attr, got, &mask), DOCA_SUCCESS);
		if (doca_verbs_qp_init_attr_get_max_inline_data(got) != cases[i].got_inl)
			fail_msg("case %zu: inline %u, expected %u", i, doca_verbs_qp_init_attr_get_max_inline_data(got),
				 cases[i].got_inl);
		assert_int_equal(doca_verbs_qp_init_attr_get_sq_wr(got), cases[i].got_sq_wr);
		assert_int_equal(doca_verbs_qp_init_attr_get_send_max_sges(got), cases[i].sges);
		assert_int_equal(doca_verbs_qp_init_attr_destroy(got), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_destroy(attr), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	}
}

/* Receive queue: stride a power of two >= 16 (16 B per SGE), WQEs a power of two, at least 64 bytes. */
static void test_rq_geometry(void **state)
{
	static const struct {
		uint32_t sges, rq_wr, stride, wqes;
	} cases[] = {
		{1, 1, 16, 4}, {1, 4, 16, 4}, {1, 5, 16, 8}, {2, 1, 32, 2}, {3, 3, 64, 4}, {5, 16, 128, 16}, {32, 1, 512, 1},
	};
	struct qfx *q = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct doca_verbs_qp_init_attr *a =
			vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 0, cases[i].rq_wr);
		struct doca_verbs_qp_init_attr *got = NULL;
		struct doca_verbs_qp_attr *attr = vfx_attr();
		struct doca_verbs_qp *qp = NULL;
		struct geometry g;
		int mask = 0;

		assert_int_equal(doca_verbs_qp_init_attr_set_receive_max_sges(a, cases[i].sges), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS);
		get_geometry(qp, &g);
		if (g.stride != cases[i].stride || g.rq_n != cases[i].wqes)
			fail_msg("case %zu: %u x %u B, expected %u x %u B", i, g.rq_n, g.stride, cases[i].wqes,
				 cases[i].stride);
		assert_null(g.sq);
		assert_int_equal(g.sq_n, 0);
		assert_non_null(g.rq);
		assert_int_equal(doca_verbs_qp_init_attr_create(&got), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_query(qp, attr, got, &mask), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_get_rq_wr(got), cases[i].wqes);
		assert_int_equal(doca_verbs_qp_init_attr_get_receive_max_sges(got), cases[i].stride / 16);
		assert_int_equal(doca_verbs_qp_init_attr_destroy(got), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_destroy(attr), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	}
}

static void test_srq_excludes_rq(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_srq_init_attr *sa = NULL;
	struct doca_verbs_srq *srq = NULL;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 4, 4);
	struct doca_verbs_qp *qp = NULL;
	struct geometry g;

	assert_int_equal(doca_verbs_srq_init_attr_create(&sa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(sa, q->f.pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(sa, 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_create(q->f.ctx, sa, &srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(sa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_srq(a, srq), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE,
			    "swnic0: an SRQ must belong to this context and excludes an own RQ (rq_wr must be 0)");
	assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(a, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS);
	get_geometry(qp, &g);
	assert_null(g.rq);
	assert_int_equal(g.rq_n, 0);
	assert_int_equal(g.stride, 0);
	assert_non_null(g.sq);
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

/* RQ then SQ at umem + offset, the DBR at dbr umem + offset, the doorbell in the user UAR. */
static void test_external_memory_honoured(void **state)
{
	struct qfx *q = *state;
	const size_t off = 5 * 64, dbr_off = 0x18;
	uint8_t *mem = NULL, *dmem = NULL;
	struct doca_verbs_umem *u = NULL, *du = NULL;
	struct doca_verbs_uar *uar = NULL;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 8, 8);
	struct doca_verbs_umem *got_u = NULL;
	struct doca_verbs_uar *got_uar = NULL;
	uint64_t got_off = 0;
	struct doca_verbs_qp *qp = NULL;
	struct geometry g;
	void *dbr = NULL, *db = NULL, *reg = NULL;

	assert_int_equal(posix_memalign((void **)&mem, 4096, 8192), 0);
	assert_int_equal(posix_memalign((void **)&dmem, 4096, 4096), 0);
	memset(mem, 0xcd, 8192);
	memset(dmem, 0xee, 4096);
	assert_int_equal(doca_verbs_umem_create(q->f.ctx, mem, 8192, IBV_ACCESS_LOCAL_WRITE, -1, 0, &u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_create(q->f.ctx, dmem, 4096, IBV_ACCESS_LOCAL_WRITE, -1, 0, &du), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_create(q->f.ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, &uar), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem(a, u, off), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_dbr_umem(a, du, dbr_off), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_uar(a, uar), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_external_umem(a, &got_u, &got_off), DOCA_SUCCESS);
	assert_ptr_equal(got_u, u);
	assert_int_equal(got_off, off);
	assert_int_equal(doca_verbs_qp_init_attr_get_external_uar(a, &got_uar), DOCA_SUCCESS);
	assert_ptr_equal(got_uar, uar);
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS);
	get_geometry(qp, &g);
	assert_ptr_equal(g.rq, mem + off);
	assert_int_equal(g.rq_n, 8);
	assert_int_equal(g.stride, 16);
	assert_ptr_equal(g.sq, mem + off + 8 * 16);
	assert_int_equal(g.sq_n, 8);
	assert_int_equal(doca_verbs_qp_get_dbr_addr(qp, &dbr), DOCA_SUCCESS);
	assert_ptr_equal(dbr, dmem + dbr_off);
	for (size_t i = 0; i < 4096; i++)
		assert_int_equal(dmem[i], i >= dbr_off && i < dbr_off + 8 ? 0 : 0xee); /* DBR zeroed, rest untouched */
	for (size_t i = 0; i < off; i++)
		assert_int_equal(mem[i], 0xcd);
	for (size_t i = off + 8 * 16 + 8 * 64; i < 8192; i++)
		assert_int_equal(mem[i], 0xcd);
	assert_int_equal(doca_verbs_qp_get_uar_addr(qp, &db), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_reg_addr_get(uar, &reg), DOCA_SUCCESS);
	assert_ptr_equal(db, reg);
	/* the QP holds all three */
	stderr_capture_begin();
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_verbs_umem_destroy(du), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_verbs_uar_destroy(uar), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_destroy(uar), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(du), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	free(mem);
	free(dmem);
}

static void test_external_memory_not_fitting(void **state)
{
	struct qfx *q = *state;
	uint8_t *mem = NULL;
	struct doca_verbs_umem *u = NULL;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 8, 8);

	assert_int_equal(posix_memalign((void **)&mem, 4096, 4096), 0);
	assert_int_equal(doca_verbs_umem_create(q->f.ctx, mem, 4096, IBV_ACCESS_LOCAL_WRITE, -1, 0, &u), DOCA_SUCCESS);
	/* 128 + 512 bytes do not fit at 4096 - 512 */
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem(a, u, 4096 - 512), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE,
			    "swnic0: QP work queue: 640 bytes at offset 3584 do not fit in the external UMEM of 4096 bytes");
	/* not WQEBB aligned */
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem(a, u, 32), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE,
			    "swnic0: QP work queue: offset 32 in the external UMEM is not 64-byte aligned");
	/* setter checks */
	stderr_capture_begin();
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem(a, u, 4096), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem(a, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_dbr_umem(a, u, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_dbr_umem(a, u, 4096), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem_dbr(a, u, 4092), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_uar(a, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "qp_init_attr external_umem: offset 0x1000 is beyond the umem (4096 bytes)"));
	assert_non_null(strstr(logbuf, "qp_init_attr external_umem: NULL umem"));
	assert_non_null(strstr(logbuf, "qp_init_attr external_dbr_umem: offset 0x4 is not 8-byte aligned"));
	assert_non_null(strstr(logbuf, "qp_init_attr external_dbr_umem: 8 bytes at offset 0x1000 do not fit the umem"));
	assert_non_null(strstr(logbuf, "qp_init_attr external_uar: NULL uar"));
	/* the DOCA 3.0 name places it like the 2.0 one */
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem(a, u, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem_dbr(a, u, 4088), DOCA_SUCCESS);
	{
		struct doca_verbs_qp *qp = NULL;
		void *dbr = NULL;

		assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_get_dbr_addr(qp, &dbr), DOCA_SUCCESS);
		assert_ptr_equal(dbr, mem + 4088);
		assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	}
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	free(mem);
}

/* External UMEM, doorbell-record UMEM, UAR and SRQ of another context are refused; nothing is taken. */
static void test_external_objects_of_another_context(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_context *other = NULL;
	struct doca_verbs_pd *other_pd = NULL;
	struct doca_verbs_umem *u = NULL;
	struct doca_verbs_uar *uar = NULL;
	struct doca_verbs_srq_init_attr *sa = NULL;
	struct doca_verbs_srq *srq = NULL;
	struct doca_verbs_qp_init_attr *a;
	void *mem = NULL;

	assert_int_equal(posix_memalign(&mem, 4096, 8192), 0);
	assert_int_equal(doca_verbs_context_create(q->f.info, 0, &other), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_create(other, &other_pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_create(other, mem, 8192, IBV_ACCESS_LOCAL_WRITE, -1, 0, &u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_create(other, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, &uar), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_create(&sa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(sa, other_pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(sa, 8), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_create(other, sa, &srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(sa), DOCA_SUCCESS);

	a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 4, 4);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem(a, u, 0), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: QP work queue: the external UMEM belongs to another context");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 4, 4);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_dbr_umem(a, u, 0), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE,
			    "swnic0: QP doorbell record: the external UMEM belongs to another context");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 4, 4);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_uar(a, uar), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: the QP's external UAR belongs to another context");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 4, 0);
	assert_int_equal(doca_verbs_qp_init_attr_set_srq(a, srq), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_INVALID_VALUE, "swnic0: an SRQ must belong to this context");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);

	/* none of the refusals kept a reference */
	assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_destroy(uar), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_destroy(other_pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_context_destroy(other), DOCA_SUCCESS);
	free(mem);
}

/* Sizes exactly at the device's limits are accepted (max_qp_wr both queues, 32 receive SGEs). */
static void test_sizes_at_caps(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 32768, 32768);
	struct doca_verbs_qp *qp = NULL;
	struct geometry g;

	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS);
	get_geometry(qp, &g);
	assert_int_equal(g.sq_n, 32768);
	assert_int_equal(g.rq_n, 32768);
	assert_int_equal(g.stride, 16);
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_wr(a, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(a, 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_max_sges(a, 32), DOCA_SUCCESS); /* 512 B: max_wqe_sz_rq */
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS);
	get_geometry(qp, &g);
	assert_int_equal(g.stride, 512);
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

/* The software NIC has DBR-less send queues: NO_DBR_EXT is created as asked, not emulated. */
static void test_no_dbr_ext_supported(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 8, 0);
	struct doca_verbs_qp *qp = NULL;
	enum doca_verbs_qp_send_dbr_mode mode = DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID;

	assert_true(q->f.ctx->caps.no_dbr_ext);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_dbr_mode(a, DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_send_dbr_mode(qp, &mode), DOCA_SUCCESS);
	assert_int_equal(mode, DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT);
	assert_false(doca_verbs_qp_get_emulate_no_dbr_ext(qp));
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

/* A device without the capability: NOT_SUPPORTED, unless emulation is asked for. */
static void test_no_dbr_ext_without_cap(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 8, 0);
	struct doca_verbs_qp *qp = NULL;
	struct doca_verbs_device_attr *da = NULL;
	enum doca_verbs_qp_send_dbr_mode mode = DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID;

	q->f.ctx->caps.no_dbr_ext = false;
	assert_int_equal(doca_verbs_query_device(q->f.ctx, &da), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext(da), 0);
	assert_int_equal(doca_verbs_device_attr_free(da), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_dbr_mode(a, DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT), DOCA_SUCCESS);
	expect_create_fails(q, a, DOCA_ERROR_NOT_SUPPORTED,
			    "swnic0: the device has no DBR-less send queues (send_dbr_mode_no_dbr_ext is 0); set "
			    "emulate_no_dbr_ext to emulate them");
	assert_int_equal(doca_verbs_qp_init_attr_set_emulate_no_dbr_ext(a, true), DOCA_SUCCESS);
	assert_true(doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(a));
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_send_dbr_mode(qp, &mode), DOCA_SUCCESS);
	assert_int_equal(mode, DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT);
	assert_true(doca_verbs_qp_get_emulate_no_dbr_ext(qp));
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	q->f.ctx->caps.no_dbr_ext = true;
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

static void test_core_direct_master(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 8, 0);
	struct doca_verbs_qp *qp = NULL;

	stderr_capture_begin();
	assert_int_equal(doca_verbs_qp_init_attr_set_core_direct_master(a, 2), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "qp_init_attr core_direct_master: 2 is not 0 or 1"));
	assert_int_equal(doca_verbs_qp_init_attr_get_core_direct_master(a), 0);
	assert_int_equal(doca_verbs_qp_init_attr_set_core_direct_master(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_core_direct_master(a), 1);
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp), DOCA_SUCCESS); /* cap cd = 1 */
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	q->f.ctx->caps.gen.cd = 0;
	expect_create_fails(q, a, DOCA_ERROR_NOT_SUPPORTED, "swnic0: the device has no cross-channel (core direct) support");
	q->f.ctx->caps.gen.cd = 1;
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

/* A device without UC: NOT_SUPPORTED (the software NIC has both). */
static void test_qp_type_not_supported(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_UC, q->cq, q->cq, 8, 0);

	q->f.ctx->caps.gen.uc = 0;
	expect_create_fails(q, a, DOCA_ERROR_NOT_SUPPORTED, "swnic0: the device does not support UC QPs");
	q->f.ctx->caps.gen.uc = 1;
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

static void test_getters(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_qp *qp = vfx_qp(&q->f, DOCA_VERBS_QP_TYPE_RC, q->cq, q->cq, 16, 16);
	struct geometry g;
	void *dbr = NULL, *db = NULL, *p = (void *)0x1;
	uint32_t qpn = 0, u32 = 7;
	enum doca_verbs_qp_send_dbr_mode mode = DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT;

	get_geometry(qp, &g);
	assert_int_equal(g.sq_n, 16);
	assert_int_equal(g.sq_n & (g.sq_n - 1), 0);
	assert_int_equal(g.rq_n, 16);
	assert_int_equal(g.stride, 16);
	assert_ptr_equal(g.sq, g.rq + 16 * 16); /* the SQ follows the RQ */
	assert_int_equal((uintptr_t)g.rq % 64, 0);
	assert_int_equal(doca_verbs_qp_get_dbr_addr(qp, &dbr), DOCA_SUCCESS);
	assert_int_equal(((uint32_t *)dbr)[0], 0);
	assert_int_equal(((uint32_t *)dbr)[1], 0);
	assert_int_equal((uintptr_t)dbr % 8, 0);
	assert_int_equal(doca_verbs_qp_get_uar_addr(qp, &db), DOCA_SUCCESS);
	assert_int_equal((uintptr_t)db & 0xfffu, 0x800u);
	assert_int_equal(doca_verbs_qp_get_qpn(qp, &qpn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_send_dbr_mode(qp, &mode), DOCA_SUCCESS);
	assert_int_equal(mode, DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID);
	assert_false(doca_verbs_qp_get_emulate_no_dbr_ext(qp));

	stderr_capture_begin();
	assert_int_equal(doca_verbs_qp_get_wq(NULL, &p, &u32, &p, &u32, &u32), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_wq(qp, NULL, &u32, &p, &u32, &u32), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_wq(qp, &p, NULL, &p, &u32, &u32), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_wq(qp, &p, &u32, NULL, &u32, &u32), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_wq(qp, &p, &u32, &p, NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_wq(qp, &p, &u32, &p, &u32, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_dbr_addr(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_dbr_addr(qp, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_uar_addr(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_uar_addr(qp, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_qpn(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_qpn(qp, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_send_dbr_mode(NULL, &mode), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_get_send_dbr_mode(qp, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_false(doca_verbs_qp_get_emulate_no_dbr_ext(NULL));
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_ptr_equal(p, (void *)0x1);
	assert_int_equal(u32, 7);
	{
		static const char *const lines[] = {"verbs_qp and every output must not be NULL",
						    "verbs_qp and dbr_addr must not be NULL",
						    "verbs_qp and uar_addr must not be NULL", "verbs_qp and qpn must not be NULL",
						    "verbs_qp and send_dbr_mode must not be NULL", "verbs_qp must not be NULL",
						    NULL};

		assert_true(vfx_log_has(logbuf, lines));
	}
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_rc_and_uc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_pd_and_cqs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sizes_above_caps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inline_size_overflow_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sq_wqebbs_above_caps_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inline_and_sq_rounding, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rq_geometry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_srq_excludes_rq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_external_memory_honoured, setup, teardown),
		cmocka_unit_test_setup_teardown(test_external_memory_not_fitting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_external_objects_of_another_context, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sizes_at_caps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_dbr_ext_supported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_dbr_ext_without_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_core_direct_master, setup, teardown),
		cmocka_unit_test_setup_teardown(test_qp_type_not_supported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_getters, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
