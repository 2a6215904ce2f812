/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SRQs on the software NIC: init attributes, linked-list and contiguous rings (stride and
 * size rounding), limits, the ring in a user UMEM, QUERY_RMP read back, refusal while a QP
 * uses it, getters.
 */
#include "verbs_fixture.h"

#include "test_util.h"

#include <infiniband/verbs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char logbuf[16384];

static struct doca_verbs_srq_init_attr *srq_attr(struct vfx *f, enum doca_verbs_srq_type type, uint32_t wr,
						 uint32_t sges)
{
	struct doca_verbs_srq_init_attr *a = NULL;

	assert_int_equal(doca_verbs_srq_init_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(a, f->pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_type(a, type), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(a, wr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_receive_max_sges(a, sges), DOCA_SUCCESS);
	return a;
}

static void test_init_attr_defaults_and_setters(void **state)
{
	struct doca_verbs_srq_init_attr *a = NULL;
	struct doca_verbs_umem *u = (struct doca_verbs_umem *)0x1;
	uint64_t off = 99;
	struct vfx f;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_srq_init_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_type(a), DOCA_VERBS_SRQ_TYPE_LINKED_LIST);
	assert_int_equal(doca_verbs_srq_init_attr_get_receive_max_sges(a), 1);
	assert_int_equal(doca_verbs_srq_init_attr_get_srq_wr(a), 0);
	assert_null(doca_verbs_srq_init_attr_get_pd(a));
	assert_int_equal(doca_verbs_srq_init_attr_get_external_umem(a, &u, &off), DOCA_SUCCESS);
	assert_null(u);
	assert_int_equal(off, 0);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(a, 100), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_srq_wr(a), 100); /* as set; rounded at create */
	assert_int_equal(doca_verbs_srq_init_attr_set_receive_max_sges(a, 3), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_receive_max_sges(a), 3);
	assert_int_equal(doca_verbs_srq_init_attr_set_type(a, DOCA_VERBS_SRQ_TYPE_CONTIGUOUS), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_type(a), DOCA_VERBS_SRQ_TYPE_CONTIGUOUS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(a, f.pd), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_srq_init_attr_get_pd(a), f.pd);
	assert_int_equal(doca_verbs_srq_init_attr_set_external_datapath_en(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_external_datapath_en(a, 0), DOCA_SUCCESS);

	stderr_capture_begin();
	assert_int_equal(doca_verbs_srq_init_attr_create(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(a, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(NULL, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_receive_max_sges(a, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_receive_max_sges(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_type(a, (enum doca_verbs_srq_type)2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_type(NULL, DOCA_VERBS_SRQ_TYPE_CONTIGUOUS), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(a, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(NULL, f.pd), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_external_umem(a, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_external_umem(NULL, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_get_external_umem(a, NULL, &off), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_get_external_umem(a, &u, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_get_external_umem(NULL, &u, &off), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_external_datapath_en(a, 2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_set_external_datapath_en(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_init_attr_get_srq_wr(NULL), 0);
	assert_int_equal(doca_verbs_srq_init_attr_get_receive_max_sges(NULL), 0);
	assert_int_equal(doca_verbs_srq_init_attr_get_type(NULL), DOCA_VERBS_SRQ_TYPE_LINKED_LIST);
	assert_null(doca_verbs_srq_init_attr_get_pd(NULL));
	stderr_capture_end(logbuf, sizeof(logbuf));
	{
		static const char *const lines[] = {"srq_init_attr: NULL output pointer",
						    "srq_init_attr destroy: NULL attributes",
						    "srq_init_attr srq_wr: 0 WQEs (at least 1)",
						    "srq_init_attr srq_wr: NULL attributes",
						    "srq_init_attr receive_max_sges: 0 (at least 1)",
						    "srq_init_attr receive_max_sges: NULL attributes",
						    "srq_init_attr type: 2 is not a doca_verbs_srq_type value",
						    "srq_init_attr type: NULL attributes", "srq_init_attr pd: NULL pd",
						    "srq_init_attr pd: NULL attributes", "srq_init_attr external_umem: NULL umem",
						    "srq_init_attr external_umem: NULL attributes",
						    "srq_init_attr external_umem: NULL output pointer",
						    "srq_init_attr external_datapath: 2 is not 0 or 1",
						    "srq_init_attr external_datapath: NULL attributes", NULL};

		assert_true(vfx_log_has(logbuf, lines));
	}
	/* refused setters left the values */
	assert_int_equal(doca_verbs_srq_init_attr_get_srq_wr(a), 100);
	assert_int_equal(doca_verbs_srq_init_attr_get_receive_max_sges(a), 3);
	assert_int_equal(doca_verbs_srq_init_attr_get_type(a), DOCA_VERBS_SRQ_TYPE_CONTIGUOUS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(a), DOCA_SUCCESS);
	vfx_close(&f);
}

/* Ring geometry: linked-list WQEs start with a 16-byte next segment; strides and sizes round up. */
static void test_geometry_and_query(void **state)
{
	static const struct {
		enum doca_verbs_srq_type type;
		uint32_t wr, sges;
		uint32_t nwqe, stride, query_sges;
	} cases[] = {
		{DOCA_VERBS_SRQ_TYPE_LINKED_LIST, 1, 1, 1, 32, 1},
		{DOCA_VERBS_SRQ_TYPE_LINKED_LIST, 5, 1, 8, 32, 1},
		{DOCA_VERBS_SRQ_TYPE_LINKED_LIST, 16, 2, 16, 64, 3},   /* 48 -> 64: room for 3 */
		{DOCA_VERBS_SRQ_TYPE_LINKED_LIST, 8, 31, 8, 512, 31},  /* max_srq_sge */
		{DOCA_VERBS_SRQ_TYPE_CONTIGUOUS, 1, 1, 1, 16, 1},
		{DOCA_VERBS_SRQ_TYPE_CONTIGUOUS, 100, 3, 128, 64, 4},
		{DOCA_VERBS_SRQ_TYPE_CONTIGUOUS, 32768, 1, 32768, 16, 1}, /* max_srq_wr */
	};
	struct vfx f;

	(void)state;
	vfx_open(&f);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct doca_verbs_srq_init_attr *a = srq_attr(&f, cases[i].type, cases[i].wr, cases[i].sges);
		struct doca_verbs_srq_init_attr *q = NULL;
		struct doca_verbs_srq *srq = NULL;
		void *buf = NULL;
		uint32_t *dbr = NULL;
		uint32_t n = 0, stride = 0;

		assert_int_equal(doca_verbs_srq_create(f.ctx, a, &srq), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_get_wq(srq, &buf, &n, &stride), DOCA_SUCCESS);
		if (n != cases[i].nwqe || stride != cases[i].stride)
			fail_msg("case %zu: %u x %u B, expected %u x %u B", i, n, stride, cases[i].nwqe, cases[i].stride);
		assert_non_null(buf);
		assert_int_equal((uintptr_t)buf % 64, 0);
		assert_int_equal(doca_verbs_srq_get_dbr_addr(srq, (void **)&dbr), DOCA_SUCCESS);
		assert_int_equal(dbr[0], 0);
		assert_int_equal((uintptr_t)dbr % 8, 0);
		assert_int_equal(doca_verbs_srq_init_attr_create(&q), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_query(srq, q), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_init_attr_get_srq_wr(q), cases[i].nwqe);
		assert_int_equal(doca_verbs_srq_init_attr_get_type(q), cases[i].type);
		assert_int_equal(doca_verbs_srq_init_attr_get_receive_max_sges(q), cases[i].query_sges);
		assert_ptr_equal(doca_verbs_srq_init_attr_get_pd(q), f.pd);
		assert_int_equal(doca_verbs_srq_init_attr_destroy(q), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_init_attr_destroy(a), DOCA_SUCCESS);
	}
	vfx_close(&f);
}

static void expect_srq_create_fails(struct vfx *f, struct doca_verbs_srq_init_attr *a, const char *want)
{
	struct doca_verbs_srq *srq = NULL;

	stderr_capture_begin();
	assert_int_equal(doca_verbs_srq_create(f->ctx, a, &srq), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(srq);
	if (strstr(logbuf, want) == NULL)
		fail_msg("log \"%s\" does not say \"%s\"", logbuf, want);
}

static void test_limits_and_bad_input(void **state)
{
	struct vfx f;
	struct doca_verbs_srq_init_attr *a, *bare = NULL;
	struct doca_verbs_context *other = NULL;
	struct doca_verbs_pd *other_pd = NULL;
	struct doca_verbs_srq *srq = NULL;

	(void)state;
	vfx_open(&f);
	a = srq_attr(&f, DOCA_VERBS_SRQ_TYPE_LINKED_LIST, 32769, 1);
	expect_srq_create_fails(&f, a, "swnic0: srq_wr 32769 must be 1..32768 (max_srq_wr)");
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(a, 8), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_receive_max_sges(a, 32), DOCA_SUCCESS);
	expect_srq_create_fails(&f, a, "swnic0: receive_max_sges 32 must be 1..31 (max_srq_sge)");
	assert_int_equal(doca_verbs_srq_init_attr_set_receive_max_sges(a, 1), DOCA_SUCCESS);
	/* no PD, a PD of another context, no size */
	assert_int_equal(doca_verbs_srq_init_attr_create(&bare), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(bare, 8), DOCA_SUCCESS);
	expect_srq_create_fails(&f, bare, "swnic0: an SRQ needs a PD of this context (doca_verbs_srq_init_attr_set_pd)");
	assert_int_equal(doca_verbs_context_create(f.info, 0, &other), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_create(other, &other_pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(bare, other_pd), DOCA_SUCCESS);
	expect_srq_create_fails(&f, bare, "swnic0: an SRQ needs a PD of this context");
	assert_int_equal(doca_verbs_srq_init_attr_destroy(bare), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_create(&bare), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(bare, f.pd), DOCA_SUCCESS);
	expect_srq_create_fails(&f, bare, "swnic0: srq_wr 0 must be 1..32768 (max_srq_wr)");
	assert_int_equal(doca_verbs_srq_init_attr_destroy(bare), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_destroy(other_pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_context_destroy(other), DOCA_SUCCESS);

	stderr_capture_begin();
	assert_int_equal(doca_verbs_srq_create(NULL, a, &srq), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_create(f.ctx, NULL, &srq), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_create(f.ctx, a, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_srq_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(srq);
	assert_non_null(strstr(logbuf, "verbs_context, verbs_srq_init_attr and verbs_srq must not be NULL"));
	assert_non_null(strstr(logbuf, "verbs_srq must not be NULL"));

	/* getters */
	assert_int_equal(doca_verbs_srq_create(f.ctx, a, &srq), DOCA_SUCCESS);
	{
		struct doca_verbs_srq *srq2 = NULL;
		uint32_t n1 = 0, n2 = 0, u32 = 5;
		void *p = (void *)0x1;

		assert_int_equal(doca_verbs_srq_create(f.ctx, a, &srq2), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_get_srqn(srq, &n1), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_get_srqn(srq2, &n2), DOCA_SUCCESS);
		assert_int_not_equal(n1, n2);
		assert_int_equal(n1 & ~0xffffffu, 0);
		stderr_capture_begin();
		assert_int_equal(doca_verbs_srq_get_srqn(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_srq_get_srqn(srq, NULL), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_srq_get_wq(NULL, &p, &u32, &u32), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_srq_get_wq(srq, NULL, &u32, &u32), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_srq_get_wq(srq, &p, NULL, &u32), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_srq_get_wq(srq, &p, &u32, NULL), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_srq_get_dbr_addr(NULL, &p), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_srq_get_dbr_addr(srq, NULL), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_srq_query(NULL, a), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_srq_query(srq, NULL), DOCA_ERROR_INVALID_VALUE);
		stderr_capture_end(logbuf, sizeof(logbuf));
		assert_int_equal(u32, 5);
		assert_ptr_equal(p, (void *)0x1);
		{
			static const char *const lines[] = {
				"verbs_srq and srqn must not be NULL",
				"verbs_srq, srq_buf, srq_num_entries and rwqe_size_bytes must not be NULL",
				"verbs_srq and dbr_addr must not be NULL",
				"verbs_srq and verbs_srq_init_attr must not be NULL", NULL};

			assert_true(vfx_log_has(logbuf, lines));
		}
		assert_int_equal(doca_verbs_srq_destroy(srq2), DOCA_SUCCESS);
	}
	assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(a), DOCA_SUCCESS);
	vfx_close(&f);
}

/* The ring at umem + offset exactly (64-byte aligned, fitting); the UMEM held meanwhile. */
static void test_external_umem(void **state)
{
	struct vfx f;
	uint8_t *mem = NULL;
	struct doca_verbs_umem *u = NULL, *got = NULL;
	uint64_t off = 0;
	struct doca_verbs_srq_init_attr *a;
	struct doca_verbs_srq *srq = NULL;
	void *buf = NULL;
	uint32_t n = 0, stride = 0;

	(void)state;
	assert_int_equal(posix_memalign((void **)&mem, 4096, 8192), 0);
	memset(mem, 0x3c, 8192);
	vfx_open(&f);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 8192, IBV_ACCESS_LOCAL_WRITE, -1, 0, &u), DOCA_SUCCESS);
	a = srq_attr(&f, DOCA_VERBS_SRQ_TYPE_CONTIGUOUS, 64, 1); /* 1024 bytes */
	stderr_capture_begin();
	assert_int_equal(doca_verbs_srq_init_attr_set_external_umem(a, u, 8192), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "srq_init_attr external_umem: offset 0x2000 is beyond the umem (8192 bytes)"));
	assert_int_equal(doca_verbs_srq_init_attr_set_external_umem(a, u, 8192 - 512), DOCA_SUCCESS);
	expect_srq_create_fails(&f, a, "swnic0: SRQ ring: 1024 bytes at offset 7680 do not fit in the external UMEM of 8192 bytes");
	assert_int_equal(doca_verbs_srq_init_attr_set_external_umem(a, u, 32), DOCA_SUCCESS);
	expect_srq_create_fails(&f, a, "swnic0: SRQ ring: offset 32 in the external UMEM is not 64-byte aligned");
	assert_int_equal(doca_verbs_srq_init_attr_set_external_umem(a, u, 4096 + 64), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_external_umem(a, &got, &off), DOCA_SUCCESS);
	assert_ptr_equal(got, u);
	assert_int_equal(off, 4096 + 64);
	assert_int_equal(doca_verbs_srq_create(f.ctx, a, &srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_get_wq(srq, &buf, &n, &stride), DOCA_SUCCESS);
	assert_ptr_equal(buf, mem + 4096 + 64);
	assert_int_equal(n, 64);
	assert_int_equal(stride, 16);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(a), DOCA_SUCCESS);
	vfx_close(&f);
	free(mem);
}

static void test_in_use_by_qp(void **state)
{
	struct vfx f;
	struct doca_verbs_srq_init_attr *a;
	struct doca_verbs_srq *srq = NULL;
	struct doca_verbs_cq *cq;
	struct doca_verbs_qp_init_attr *qa;
	struct doca_verbs_qp *qp1 = NULL, *qp2 = NULL;
	struct doca_verbs_qp_init_attr *got = NULL;
	struct doca_verbs_qp_attr *attr;
	int mask = 0;

	(void)state;
	vfx_open(&f);
	a = srq_attr(&f, DOCA_VERBS_SRQ_TYPE_LINKED_LIST, 16, 1);
	assert_int_equal(doca_verbs_srq_create(f.ctx, a, &srq), DOCA_SUCCESS);
	cq = vfx_cq(&f, 16, NULL, NULL);
	qa = vfx_qp_init_attr(&f, DOCA_VERBS_QP_TYPE_RC, cq, cq, 4, 0);
	assert_int_equal(doca_verbs_qp_init_attr_set_srq(qa, srq), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_srq(qa), srq);
	assert_int_equal(doca_verbs_qp_create(f.ctx, qa, &qp1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_create(f.ctx, qa, &qp2), DOCA_SUCCESS);
	/* the QP's creation attributes name the SRQ */
	attr = vfx_attr();
	assert_int_equal(doca_verbs_qp_init_attr_create(&got), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_query(qp1, attr, got, &mask), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_srq(got), srq);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(got), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(attr), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "is still used by 2 QPs"));
	assert_int_equal(doca_verbs_qp_destroy(qp1), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "is still used by 1 QPs"));
	/* the SRQ is intact: QUERY_RMP still answers */
	{
		struct doca_verbs_srq_init_attr *q = NULL;

		assert_int_equal(doca_verbs_srq_init_attr_create(&q), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_query(srq, q), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_init_attr_get_srq_wr(q), 16);
		assert_int_equal(doca_verbs_srq_init_attr_destroy(q), DOCA_SUCCESS);
	}
	assert_int_equal(doca_verbs_qp_destroy(qp2), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	vfx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_attr_defaults_and_setters),
		cmocka_unit_test(test_geometry_and_query),
		cmocka_unit_test(test_limits_and_bad_input),
		cmocka_unit_test(test_external_umem),
		cmocka_unit_test(test_in_use_by_qp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
