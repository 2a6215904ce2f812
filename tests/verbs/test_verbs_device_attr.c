/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_verbs_query_device: every limit derived from the context's capabilities (counts
 * from log2 fields, the P_Key table encoding, saturation of fields too wide for their
 * type), QP type support, NULL handling; and the small helpers in verbs_util.c.
 */
#include "verbs/verbs_priv.h"
#include "verbs/verbs_util.h"

#include "logged.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* A context stand-in whose capabilities are distinct values, so that no getter reads another's field. */
static void caps_fill(struct doca_verbs_context *ctx)
{
	struct verbs_caps *c = &ctx->caps;

	memset(ctx, 0, sizeof(*ctx));
	c->gen.log_max_qp = 17;
	c->gen.log_max_cq = 15;
	c->gen.log_max_mkey = 20;
	c->gen.log_max_pd = 18;
	c->gen.log_max_srq = 14;
	c->gen.log_max_ra_res_qp = 4;
	c->gen.log_max_ra_req_qp = 3;
	c->gen.pkey_table_size = 1; /* 256 entries */
	c->gen.rc = 1;
	c->gen.uc = 0;
	c->no_dbr_ext = true;
	c->max_qp_wr = 32768;
	c->max_sge = 30;
	c->max_cqe = 4194304;
	c->max_srq_wr = 16384;
	c->max_srq_sge = 31;
}

static void test_query_device_values(void **state)
{
	struct doca_verbs_context ctx;
	struct doca_verbs_device_attr *a = NULL;

	(void)state;
	caps_fill(&ctx);
	assert_int_equal(doca_verbs_query_device(&ctx, &a), DOCA_SUCCESS);
	assert_non_null(a);
	assert_int_equal(doca_verbs_device_attr_get_max_qp(a), 131072);
	assert_int_equal(doca_verbs_device_attr_get_max_qp_wr(a), 32768);
	assert_int_equal(doca_verbs_device_attr_get_max_sge(a), 30);
	assert_int_equal(doca_verbs_device_attr_get_max_cq(a), 32768);
	assert_int_equal(doca_verbs_device_attr_get_max_cqe(a), 4194304);
	assert_int_equal(doca_verbs_device_attr_get_max_mr(a), 1048576);
	assert_int_equal(doca_verbs_device_attr_get_max_pd(a), 262144);
	assert_int_equal(doca_verbs_device_attr_get_max_ah(a), 131072);
	assert_int_equal(doca_verbs_device_attr_get_max_srq(a), 16384);
	assert_int_equal(doca_verbs_device_attr_get_max_srq_wr(a), 16384);
	assert_int_equal(doca_verbs_device_attr_get_max_srq_sge(a), 31);
	assert_int_equal(doca_verbs_device_attr_get_max_pkeys(a), 256);
	assert_int_equal(doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext(a), 1);
	assert_int_equal(doca_verbs_device_attr_get_max_qp_rd_atom(a), 16);
	assert_int_equal(doca_verbs_device_attr_get_max_qp_init_rd_atom(a), 8);
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(a, DOCA_VERBS_QP_TYPE_RC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(a, DOCA_VERBS_QP_TYPE_UC),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(a, 7), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_verbs_device_attr_free(a), DOCA_SUCCESS);
}

/* The attributes are a snapshot: freeing one leaves a second, and later cap changes do not show. */
static void test_query_device_snapshot(void **state)
{
	struct doca_verbs_context ctx;
	struct doca_verbs_device_attr *a = NULL, *b = NULL;

	(void)state;
	caps_fill(&ctx);
	ctx.caps.gen.uc = 1;
	ctx.caps.gen.rc = 0;
	ctx.caps.no_dbr_ext = false;
	assert_int_equal(doca_verbs_query_device(&ctx, &a), DOCA_SUCCESS);
	ctx.caps.max_sge = 2;
	assert_int_equal(doca_verbs_query_device(&ctx, &b), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_device_attr_get_max_sge(a), 30);
	assert_int_equal(doca_verbs_device_attr_get_max_sge(b), 2);
	assert_int_equal(doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext(a), 0);
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(a, DOCA_VERBS_QP_TYPE_RC),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(a, DOCA_VERBS_QP_TYPE_UC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_device_attr_free(a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_device_attr_get_max_sge(b), 2);
	assert_int_equal(doca_verbs_device_attr_free(b), DOCA_SUCCESS);
}

/* log2 fields wider than the reported type saturate instead of wrapping to 0. */
static void test_query_device_saturation(void **state)
{
	struct doca_verbs_context ctx;
	struct doca_verbs_device_attr *a = NULL;

	(void)state;
	caps_fill(&ctx);
	ctx.caps.gen.log_max_qp = 31;
	ctx.caps.gen.log_max_mkey = 32;
	ctx.caps.gen.log_max_pd = 40;
	ctx.caps.gen.log_max_ra_res_qp = 7;
	ctx.caps.gen.log_max_ra_req_qp = 8;
	ctx.caps.gen.pkey_table_size = 6; /* reserved encoding */
	assert_int_equal(doca_verbs_query_device(&ctx, &a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_device_attr_get_max_qp(a), 0x80000000u);
	assert_int_equal(doca_verbs_device_attr_get_max_ah(a), 0x80000000u);
	assert_int_equal(doca_verbs_device_attr_get_max_mr(a), UINT32_MAX);
	assert_int_equal(doca_verbs_device_attr_get_max_pd(a), UINT32_MAX);
	assert_int_equal(doca_verbs_device_attr_get_max_qp_rd_atom(a), 128);
	assert_int_equal(doca_verbs_device_attr_get_max_qp_init_rd_atom(a), 255);
	assert_int_equal(doca_verbs_device_attr_get_max_pkeys(a), 0);
	assert_int_equal(doca_verbs_device_attr_free(a), DOCA_SUCCESS);
}

static void test_query_device_null(void **state)
{
	struct doca_verbs_context ctx;
	struct doca_verbs_device_attr *a = NULL;

	(void)state;
	caps_fill(&ctx);
	LOGGED_EQ(doca_verbs_query_device(NULL, &a), DOCA_ERROR_INVALID_VALUE, "query_device");
	LOGGED_EQ(doca_verbs_query_device(&ctx, NULL), DOCA_ERROR_INVALID_VALUE, "query_device");
	assert_null(a);
	LOGGED_EQ(doca_verbs_device_attr_free(NULL), DOCA_ERROR_INVALID_VALUE, "device_attr");
	LOGGED_EQ(doca_verbs_device_attr_get_max_qp(NULL), 0, "device_attr max_qp");
	LOGGED_EQ(doca_verbs_device_attr_get_max_qp_wr(NULL), 0, "device_attr max_qp_wr");
	LOGGED_EQ(doca_verbs_device_attr_get_max_sge(NULL), 0, "device_attr max_sge");
	LOGGED_EQ(doca_verbs_device_attr_get_max_cq(NULL), 0, "device_attr max_cq");
	LOGGED_EQ(doca_verbs_device_attr_get_max_cqe(NULL), 0, "device_attr max_cqe");
	LOGGED_EQ(doca_verbs_device_attr_get_max_mr(NULL), 0, "device_attr max_mr");
	LOGGED_EQ(doca_verbs_device_attr_get_max_pd(NULL), 0, "device_attr max_pd");
	LOGGED_EQ(doca_verbs_device_attr_get_max_ah(NULL), 0, "device_attr max_ah");
	LOGGED_EQ(doca_verbs_device_attr_get_max_srq(NULL), 0, "device_attr max_srq");
	LOGGED_EQ(doca_verbs_device_attr_get_max_srq_wr(NULL), 0, "device_attr max_srq_wr");
	LOGGED_EQ(doca_verbs_device_attr_get_max_srq_sge(NULL), 0, "device_attr max_srq_sge");
	LOGGED_EQ(doca_verbs_device_attr_get_max_pkeys(NULL), 0, "device_attr max_pkeys");
	LOGGED_EQ(doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext(NULL), 0, "device_attr send_dbr_mode_no_dbr_ext");
	LOGGED_EQ(doca_verbs_device_attr_get_max_qp_rd_atom(NULL), 0, "device_attr max_qp_rd_atom");
	LOGGED_EQ(doca_verbs_device_attr_get_max_qp_init_rd_atom(NULL), 0, "device_attr max_qp_init_rd_atom");
	LOGGED_EQ(doca_verbs_device_attr_get_is_qp_type_supported(NULL, DOCA_VERBS_QP_TYPE_RC), DOCA_ERROR_INVALID_VALUE,
		  "device_attr is_qp_type_supported");
}

/* ---- verbs_util.c ---- */

static void test_roundup_pow2(void **state)
{
	static const struct {
		uint32_t in, out, log;
	} cases[] = {{0, 1, 0},          {1, 1, 0},          {2, 2, 1},
		     {3, 4, 2},          {4, 4, 2},          {5, 8, 3},
		     {1000, 1024, 10},   {65536, 65536, 16}, {65537, 131072, 17},
		     {0x40000001u, 0x80000000u, 31},         {0x80000000u, 0x80000000u, 31},
		     {0x80000001u, 0, 32},                   {UINT32_MAX, 0, 32}};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t log = 99;

		assert_int_equal(verbs_roundup_pow2(cases[i].in, &log), cases[i].out);
		assert_int_equal(log, cases[i].log);
		assert_int_equal(verbs_roundup_pow2(cases[i].in, NULL), cases[i].out);
	}
}

static void test_pow2_helpers(void **state)
{
	(void)state;
	assert_int_equal(verbs_pow2_u32(0), 1);
	assert_int_equal(verbs_pow2_u32(16), 65536);
	assert_int_equal(verbs_pow2_u32(31), 0x80000000u);
	assert_int_equal(verbs_pow2_u32(32), UINT32_MAX);
	assert_int_equal(verbs_pow2_u32(63), UINT32_MAX);
	assert_int_equal(verbs_pow2_u8(0), 1);
	assert_int_equal(verbs_pow2_u8(7), 128);
	assert_int_equal(verbs_pow2_u8(8), 255);
	assert_int_equal(verbs_pow2_u8(31), 255);
	/* PRM encoding of cmd_hca_cap.pkey_table_size: 128 << value, 0..5 */
	assert_int_equal(verbs_pkey_table_entries(0), 128);
	assert_int_equal(verbs_pkey_table_entries(3), 1024);
	assert_int_equal(verbs_pkey_table_entries(5), 4096);
	assert_int_equal(verbs_pkey_table_entries(6), 0);
	assert_int_equal(verbs_pkey_table_entries(0xffff), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query_device_values),
		cmocka_unit_test(test_query_device_snapshot),
		cmocka_unit_test(test_query_device_saturation),
		cmocka_unit_test(test_query_device_null),
		cmocka_unit_test(test_roundup_pow2),
		cmocka_unit_test(test_pow2_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
