/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Attribute objects of CQs, QP creation and SRQs: defaults, set -> get round
 * trips, range checks at both edges, NULL handling, and that a refused set leaves the
 * object as it was. Objects the attributes point to (PD, CQ, UMEM, ...) are only stored,
 * so stand-ins with the fields the setters read are enough here.
 */
#include "verbs/verbs_priv.h"

#include "logged.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* ---- CQ attributes ---- */

static void test_cq_attr_defaults(void **state)
{
	struct doca_verbs_cq_attr *a = NULL;

	(void)state;
	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_non_null(a);
	assert_int_equal(a->cq_size, 0);
	assert_null(a->cq_context);
	assert_null(a->umem);
	assert_int_equal(a->umem_offset, 0);
	assert_null(a->dbr_umem);
	assert_null(a->uar);
	assert_int_equal(a->overrun, DOCA_VERBS_CQ_DISABLE_OVERRUN);
	assert_int_equal(a->collapsed, 0);
	assert_int_equal(a->external_datapath, 0);
	assert_null(a->comp_channel);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
}

static void test_cq_attr_set(void **state)
{
	struct doca_verbs_cq_attr *a = NULL;
	struct doca_verbs_umem umem = {.size = 4096};
	struct doca_verbs_umem dbr = {.size = 64};
	struct doca_verbs_uar uar;
	struct doca_verbs_comp_channel ch;
	int ctx_token;

	(void)state;
	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 1), DOCA_SUCCESS);
	assert_int_equal(a->cq_size, 1);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 1000), DOCA_SUCCESS);
	assert_int_equal(a->cq_size, 1000); /* stored as set; create rounds */
	assert_int_equal(doca_verbs_cq_attr_set_cq_context(a, &ctx_token), DOCA_SUCCESS);
	assert_ptr_equal(a->cq_context, &ctx_token);
	assert_int_equal(doca_verbs_cq_attr_set_cq_context(a, NULL), DOCA_SUCCESS);
	assert_null(a->cq_context);
	/* last CQE-aligned offset inside the UMEM */
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, &umem, 4096 - 64), DOCA_SUCCESS);
	assert_ptr_equal(a->umem, &umem);
	assert_int_equal(a->umem_offset, 4032);
	/* the doorbell record's last 8-byte slot */
	assert_int_equal(doca_verbs_cq_attr_set_external_dbr_umem(a, &dbr, 56), DOCA_SUCCESS);
	assert_ptr_equal(a->dbr_umem, &dbr);
	assert_int_equal(a->dbr_umem_offset, 56);
	assert_int_equal(doca_verbs_cq_attr_set_external_uar(a, &uar), DOCA_SUCCESS);
	assert_ptr_equal(a->uar, &uar);
	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(a, DOCA_VERBS_CQ_ENABLE_OVERRUN), DOCA_SUCCESS);
	assert_int_equal(a->overrun, 1);
	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(a, DOCA_VERBS_CQ_DISABLE_OVERRUN), DOCA_SUCCESS);
	assert_int_equal(a->overrun, 0);
	assert_int_equal(doca_verbs_cq_attr_set_cq_collapsed(a, 1), DOCA_SUCCESS);
	assert_int_equal(a->collapsed, 1);
	assert_int_equal(doca_verbs_cq_attr_set_comp_channel(a, &ch), DOCA_SUCCESS);
	assert_ptr_equal(a->comp_channel, &ch);
	assert_int_equal(doca_verbs_cq_attr_set_comp_channel(a, NULL), DOCA_SUCCESS);
	assert_null(a->comp_channel);
	assert_int_equal(doca_verbs_cq_attr_set_external_datapath_en(a, 1), DOCA_SUCCESS);
	assert_int_equal(a->external_datapath, 1);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
}

static void test_cq_attr_bad_input(void **state)
{
	struct doca_verbs_cq_attr *a = NULL;
	struct doca_verbs_umem umem = {.size = 4096};
	struct doca_verbs_umem small = {.size = 4};
	struct doca_verbs_uar uar;

	(void)state;
	LOGGED_EQ(doca_verbs_cq_attr_create(NULL), DOCA_ERROR_INVALID_VALUE, "cq_attr");
	LOGGED_EQ(doca_verbs_cq_attr_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "cq_attr");
	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 8), DOCA_SUCCESS);
	LOGGED_EQ(doca_verbs_cq_attr_set_cq_size(a, 0), DOCA_ERROR_INVALID_VALUE, "cq_attr cq_size");
	assert_int_equal(a->cq_size, 8);
	LOGGED_EQ(doca_verbs_cq_attr_set_cq_size(NULL, 8), DOCA_ERROR_INVALID_VALUE, "cq_attr cq_size");
	LOGGED_EQ(doca_verbs_cq_attr_set_cq_context(NULL, NULL), DOCA_ERROR_INVALID_VALUE, "cq_attr cq_context");
	/* external umem: NULL, misaligned, at the end, beyond */
	LOGGED_EQ(doca_verbs_cq_attr_set_external_umem(a, NULL, 0), DOCA_ERROR_INVALID_VALUE, "cq_attr external_umem");
	LOGGED_EQ(doca_verbs_cq_attr_set_external_umem(NULL, &umem, 0),
		  DOCA_ERROR_INVALID_VALUE, "cq_attr external_umem");
	LOGGED_EQ(doca_verbs_cq_attr_set_external_umem(a, &umem, 32), DOCA_ERROR_INVALID_VALUE, "not 64-byte aligned");
	LOGGED_EQ(doca_verbs_cq_attr_set_external_umem(a, &umem, 4096), DOCA_ERROR_INVALID_VALUE, "beyond the umem");
	assert_null(a->umem);
	assert_int_equal(a->umem_offset, 0);
	/* DBR umem: misaligned, past the end, UMEM smaller than a DBR */
	LOGGED_EQ(doca_verbs_cq_attr_set_external_dbr_umem(a, &umem, 4),
		  DOCA_ERROR_INVALID_VALUE, "not 8-byte aligned");
	LOGGED_EQ(doca_verbs_cq_attr_set_external_dbr_umem(a, &umem, 4096), DOCA_ERROR_INVALID_VALUE, "do not fit");
	LOGGED_EQ(doca_verbs_cq_attr_set_external_dbr_umem(a, &small, 0), DOCA_ERROR_INVALID_VALUE, "do not fit");
	LOGGED_EQ(doca_verbs_cq_attr_set_external_dbr_umem(a, NULL, 0),
		  DOCA_ERROR_INVALID_VALUE, "cq_attr external_dbr_umem");
	assert_null(a->dbr_umem);
	LOGGED_EQ(doca_verbs_cq_attr_set_external_uar(a, NULL), DOCA_ERROR_INVALID_VALUE, "cq_attr external_uar");
	LOGGED_EQ(doca_verbs_cq_attr_set_external_uar(NULL, &uar), DOCA_ERROR_INVALID_VALUE, "cq_attr external_uar");
	LOGGED_EQ(doca_verbs_cq_attr_set_cq_overrun(a, (enum doca_verbs_cq_overrun)2),
		  DOCA_ERROR_INVALID_VALUE, "cq_attr overrun");
	LOGGED_EQ(doca_verbs_cq_attr_set_cq_overrun(NULL, DOCA_VERBS_CQ_ENABLE_OVERRUN),
		  DOCA_ERROR_INVALID_VALUE, "cq_attr overrun");
	assert_int_equal(a->overrun, 0);
	LOGGED_EQ(doca_verbs_cq_attr_set_cq_collapsed(a, 2), DOCA_ERROR_INVALID_VALUE, "cq_attr collapsed");
	LOGGED_EQ(doca_verbs_cq_attr_set_cq_collapsed(NULL, 0), DOCA_ERROR_INVALID_VALUE, "cq_attr collapsed");
	assert_int_equal(a->collapsed, 0);
	LOGGED_EQ(doca_verbs_cq_attr_set_comp_channel(NULL, NULL), DOCA_ERROR_INVALID_VALUE, "cq_attr comp_channel");
	LOGGED_EQ(doca_verbs_cq_attr_set_external_datapath_en(a, 2),
		  DOCA_ERROR_INVALID_VALUE, "cq_attr external_datapath");
	LOGGED_EQ(doca_verbs_cq_attr_set_external_datapath_en(NULL, 1),
		  DOCA_ERROR_INVALID_VALUE, "cq_attr external_datapath");
	assert_int_equal(a->external_datapath, 0);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
}

/* ---- QP init attributes ---- */

static void test_qp_init_attr_defaults(void **state)
{
	struct doca_verbs_qp_init_attr *a = NULL;
	struct doca_verbs_qp_init_attr ref;
	enum doca_verbs_qp_ordering_semantic os = DOCA_VERBS_QP_ORDERING_SEMANTIC_OOO_ALL;
	struct doca_verbs_umem *umem = (struct doca_verbs_umem *)1;
	struct doca_verbs_uar *uar = (struct doca_verbs_uar *)1;
	uint64_t off = 99;

	(void)state;
	assert_int_equal(doca_verbs_qp_init_attr_create(&a), DOCA_SUCCESS);
	assert_null(doca_verbs_qp_init_attr_get_pd(a));
	assert_null(doca_verbs_qp_init_attr_get_send_cq(a));
	assert_null(doca_verbs_qp_init_attr_get_receive_cq(a));
	assert_null(doca_verbs_qp_init_attr_get_srq(a));
	assert_null(doca_verbs_qp_init_attr_get_qp_context(a));
	assert_int_equal(doca_verbs_qp_init_attr_get_sq_sig_all(a), 0);
	assert_int_equal(doca_verbs_qp_init_attr_get_sq_wr(a), 0);
	assert_int_equal(doca_verbs_qp_init_attr_get_rq_wr(a), 0);
	assert_int_equal(doca_verbs_qp_init_attr_get_send_max_sges(a), 1);
	assert_int_equal(doca_verbs_qp_init_attr_get_receive_max_sges(a), 1);
	assert_int_equal(doca_verbs_qp_init_attr_get_max_inline_data(a), 0);
	assert_int_equal(doca_verbs_qp_init_attr_get_user_index(a), 0);
	assert_int_equal(doca_verbs_qp_init_attr_get_qp_type(a), DOCA_VERBS_QP_TYPE_RC);
	assert_int_equal(doca_verbs_qp_init_attr_get_core_direct_master(a), 0);
	assert_int_equal(doca_verbs_qp_init_attr_get_send_dbr_mode(a), DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID);
	assert_false(doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(a));
	assert_int_equal(doca_verbs_qp_init_attr_get_ordering_semantic(a, &os), DOCA_SUCCESS);
	assert_int_equal(os, DOCA_VERBS_QP_ORDERING_SEMANTIC_IBTA);
	assert_int_equal(doca_verbs_qp_init_attr_get_external_umem(a, &umem, &off), DOCA_SUCCESS);
	assert_null(umem);
	assert_int_equal(off, 0);
	assert_int_equal(doca_verbs_qp_init_attr_get_external_uar(a, &uar), DOCA_SUCCESS);
	assert_null(uar);
	assert_null(a->dbr_umem);
	assert_int_equal(a->external_datapath, 0);
	/* the internal reset used before a query gives the same object */
	memset(&ref, 0x5a, sizeof(ref));
	verbs_qp_init_attr_defaults(&ref);
	assert_memory_equal(&ref, a, sizeof(ref));
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

static void test_qp_init_attr_round_trip(void **state)
{
	struct doca_verbs_qp_init_attr *a = NULL;
	struct doca_verbs_pd pd;
	struct doca_verbs_cq scq, rcq;
	struct doca_verbs_srq srq;
	struct doca_verbs_umem umem = {.size = 8192};
	struct doca_verbs_umem dbr = {.size = 16};
	struct doca_verbs_umem *got_umem = NULL;
	struct doca_verbs_uar uar, *got_uar = NULL;
	enum doca_verbs_qp_ordering_semantic os;
	uint64_t off = 0;
	int token;

	(void)state;
	assert_int_equal(doca_verbs_qp_init_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_pd(a, &pd), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_pd(a), &pd);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_cq(a, &scq), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_send_cq(a), &scq);
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_cq(a, &rcq), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_receive_cq(a), &rcq);
	assert_int_equal(doca_verbs_qp_init_attr_set_srq(a, &srq), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_srq(a), &srq);
	assert_int_equal(doca_verbs_qp_init_attr_set_qp_context(a, &token), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_qp_context(a), &token);
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_sig_all(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_sq_sig_all(a), 1);
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_wr(a, 100), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_sq_wr(a), 100); /* as set, not rounded */
	assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(a, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_rq_wr(a), 0);
	assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(a, 33), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_rq_wr(a), 33);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_max_sges(a, 7), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_send_max_sges(a), 7);
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_max_sges(a, 5), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_receive_max_sges(a), 5);
	assert_int_equal(doca_verbs_qp_init_attr_set_max_inline_data(a, 200), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_max_inline_data(a), 200);
	assert_int_equal(doca_verbs_qp_init_attr_set_user_index(a, 0xffffff), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_user_index(a), 0xffffff);
	assert_int_equal(doca_verbs_qp_init_attr_set_qp_type(a, DOCA_VERBS_QP_TYPE_UC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_qp_type(a), DOCA_VERBS_QP_TYPE_UC);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem(a, &umem, 8191), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_external_umem(a, &got_umem, &off), DOCA_SUCCESS);
	assert_ptr_equal(got_umem, &umem);
	assert_int_equal(off, 8191);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_dbr_umem(a, &dbr, 8), DOCA_SUCCESS);
	assert_ptr_equal(a->dbr_umem, &dbr);
	assert_int_equal(a->dbr_umem_offset, 8);
	/* the DOCA 3.0 name writes the same field */
	assert_int_equal(doca_verbs_qp_init_attr_set_external_umem_dbr(a, &umem, 4096), DOCA_SUCCESS);
	assert_ptr_equal(a->dbr_umem, &umem);
	assert_int_equal(a->dbr_umem_offset, 4096);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_uar(a, &uar), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_external_uar(a, &got_uar), DOCA_SUCCESS);
	assert_ptr_equal(got_uar, &uar);
	assert_int_equal(doca_verbs_qp_init_attr_set_core_direct_master(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_core_direct_master(a), 1);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_dbr_mode(a, DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_send_dbr_mode(a), DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT);
	assert_int_equal(doca_verbs_qp_init_attr_set_emulate_no_dbr_ext(a, true), DOCA_SUCCESS);
	assert_true(doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(a));
	assert_int_equal(doca_verbs_qp_init_attr_set_emulate_no_dbr_ext(a, false), DOCA_SUCCESS);
	assert_false(doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(a));
	assert_int_equal(doca_verbs_qp_init_attr_set_ordering_semantic(a, DOCA_VERBS_QP_ORDERING_SEMANTIC_OOO_RW),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_ordering_semantic(a, &os), DOCA_SUCCESS);
	assert_int_equal(os, DOCA_VERBS_QP_ORDERING_SEMANTIC_OOO_RW);
	assert_int_equal(doca_verbs_qp_init_attr_set_ordering_semantic(a, DOCA_VERBS_QP_ORDERING_SEMANTIC_OOO_ALL),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_get_ordering_semantic(a, &os), DOCA_SUCCESS);
	assert_int_equal(os, DOCA_VERBS_QP_ORDERING_SEMANTIC_OOO_ALL);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_datapath_en(a, 1), DOCA_SUCCESS);
	assert_int_equal(a->external_datapath, 1);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_datapath_en(a, 0), DOCA_SUCCESS);
	assert_int_equal(a->external_datapath, 0);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

static void test_qp_init_attr_bad_values(void **state)
{
	struct doca_verbs_qp_init_attr *a = NULL;
	struct doca_verbs_umem umem = {.size = 4096};
	struct doca_verbs_umem *got_umem;
	uint64_t off;

	(void)state;
	assert_int_equal(doca_verbs_qp_init_attr_create(&a), DOCA_SUCCESS);
	LOGGED_EQ(doca_verbs_qp_init_attr_set_pd(a, NULL), DOCA_ERROR_INVALID_VALUE, "qp_init_attr pd");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_send_cq(a, NULL), DOCA_ERROR_INVALID_VALUE, "qp_init_attr send_cq");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_receive_cq(a, NULL), DOCA_ERROR_INVALID_VALUE, "qp_init_attr receive_cq");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_srq(a, NULL), DOCA_ERROR_INVALID_VALUE, "qp_init_attr srq");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_sq_sig_all(a, 2), DOCA_ERROR_INVALID_VALUE, "qp_init_attr sq_sig_all");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_sq_sig_all(a, -1), DOCA_ERROR_INVALID_VALUE, "qp_init_attr sq_sig_all");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_send_max_sges(a, 0),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr send_max_sges");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_receive_max_sges(a, 0),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr receive_max_sges");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_user_index(a, 0x1000000),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr user_index");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_qp_type(a, 2), DOCA_ERROR_INVALID_VALUE, "qp_init_attr qp_type");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_external_umem(a, NULL, 0),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_umem");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_external_umem(a, &umem, 4096),
		  DOCA_ERROR_INVALID_VALUE, "beyond the umem");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_external_umem(a, NULL, &off),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_umem");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_external_umem(a, &got_umem, NULL),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_umem");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_external_dbr_umem(a, &umem, 12),
		  DOCA_ERROR_INVALID_VALUE, "not 8-byte aligned");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_external_dbr_umem(a, &umem, 4096),
		  DOCA_ERROR_INVALID_VALUE, "do not fit");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_external_umem_dbr(a, NULL, 0),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_dbr_umem");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_external_uar(a, NULL),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_uar");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_external_uar(a, NULL),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_uar");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_core_direct_master(a, 2),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr core_direct_master");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_send_dbr_mode(a, (enum doca_verbs_qp_send_dbr_mode)2),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr send_dbr_mode");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_ordering_semantic(a, (enum doca_verbs_qp_ordering_semantic)3),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr ordering_semantic");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_ordering_semantic(a, NULL),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr ordering_semantic");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_external_datapath_en(a, 2),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_datapath");
	/* nothing changed */
	{
		struct doca_verbs_qp_init_attr ref;

		verbs_qp_init_attr_defaults(&ref);
		assert_memory_equal(&ref, a, sizeof(ref));
	}
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
}

static void test_qp_init_attr_null(void **state)
{
	enum doca_verbs_qp_ordering_semantic os;
	struct doca_verbs_umem *umem;
	struct doca_verbs_uar *uar;
	struct doca_verbs_umem u = {.size = 64};
	uint64_t off;

	(void)state;
	LOGGED_EQ(doca_verbs_qp_init_attr_create(NULL), DOCA_ERROR_INVALID_VALUE, "qp_init_attr");
	LOGGED_EQ(doca_verbs_qp_init_attr_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "qp_init_attr");
	/* setters */
	LOGGED_EQ(doca_verbs_qp_init_attr_set_pd(NULL, (struct doca_verbs_pd *)&u),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr pd");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_sq_wr(NULL, 1), DOCA_ERROR_INVALID_VALUE, "qp_init_attr sq_wr");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_rq_wr(NULL, 1), DOCA_ERROR_INVALID_VALUE, "qp_init_attr rq_wr");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_max_inline_data(NULL, 1),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr max_inline_data");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_qp_context(NULL, NULL),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr qp_context");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_emulate_no_dbr_ext(NULL, true),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr emulate_no_dbr_ext");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_external_umem(NULL, &u, 0),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_umem");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_external_dbr_umem(NULL, &u, 0),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_dbr_umem");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_user_index(NULL, 0), DOCA_ERROR_INVALID_VALUE, "qp_init_attr user_index");
	/* getters: 0 / NULL and a log line */
	LOGGED_EQ(doca_verbs_qp_init_attr_get_pd(NULL), NULL, "qp_init_attr pd");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_send_cq(NULL), NULL, "qp_init_attr send_cq");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_receive_cq(NULL), NULL, "qp_init_attr receive_cq");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_srq(NULL), NULL, "qp_init_attr srq");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_qp_context(NULL), NULL, "qp_init_attr qp_context");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_sq_sig_all(NULL), 0, "qp_init_attr sq_sig_all");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_sq_wr(NULL), 0, "qp_init_attr sq_wr");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_rq_wr(NULL), 0, "qp_init_attr rq_wr");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_send_max_sges(NULL), 0, "qp_init_attr send_max_sges");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_receive_max_sges(NULL), 0, "qp_init_attr receive_max_sges");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_max_inline_data(NULL), 0, "qp_init_attr max_inline_data");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_user_index(NULL), 0, "qp_init_attr user_index");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_qp_type(NULL), 0, "qp_init_attr qp_type");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_core_direct_master(NULL), 0, "qp_init_attr core_direct_master");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_send_dbr_mode(NULL),
		  DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID, "qp_init_attr send_dbr_mode");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(NULL), false, "qp_init_attr emulate_no_dbr_ext");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_ordering_semantic(NULL, &os),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr ordering_semantic");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_external_umem(NULL, &umem, &off),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_umem");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_external_uar(NULL, &uar),
		  DOCA_ERROR_INVALID_VALUE, "qp_init_attr external_uar");
}

/* ---- SRQ init attributes ---- */

static void test_srq_init_attr(void **state)
{
	struct doca_verbs_srq_init_attr *a = NULL;
	struct doca_verbs_pd pd;
	struct doca_verbs_umem umem = {.size = 4096};
	struct doca_verbs_umem *got = (struct doca_verbs_umem *)1;
	uint64_t off = 1;

	(void)state;
	assert_int_equal(doca_verbs_srq_init_attr_create(&a), DOCA_SUCCESS);
	/* defaults */
	assert_int_equal(doca_verbs_srq_init_attr_get_srq_wr(a), 0);
	assert_int_equal(doca_verbs_srq_init_attr_get_receive_max_sges(a), 1);
	assert_int_equal(doca_verbs_srq_init_attr_get_type(a), DOCA_VERBS_SRQ_TYPE_LINKED_LIST);
	assert_null(doca_verbs_srq_init_attr_get_pd(a));
	assert_int_equal(doca_verbs_srq_init_attr_get_external_umem(a, &got, &off), DOCA_SUCCESS);
	assert_null(got);
	assert_int_equal(off, 0);
	assert_int_equal(a->external_datapath, 0);
	/* round trips */
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_srq_wr(a), 1);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(a, 1000), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_srq_wr(a), 1000);
	assert_int_equal(doca_verbs_srq_init_attr_set_receive_max_sges(a, 4), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_receive_max_sges(a), 4);
	assert_int_equal(doca_verbs_srq_init_attr_set_type(a, DOCA_VERBS_SRQ_TYPE_CONTIGUOUS), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_type(a), DOCA_VERBS_SRQ_TYPE_CONTIGUOUS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(a, &pd), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_srq_init_attr_get_pd(a), &pd);
	assert_int_equal(doca_verbs_srq_init_attr_set_external_umem(a, &umem, 4095), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_get_external_umem(a, &got, &off), DOCA_SUCCESS);
	assert_ptr_equal(got, &umem);
	assert_int_equal(off, 4095);
	assert_int_equal(doca_verbs_srq_init_attr_set_external_datapath_en(a, 1), DOCA_SUCCESS);
	assert_int_equal(a->external_datapath, 1);
	/* bad values leave everything as it was */
	LOGGED_EQ(doca_verbs_srq_init_attr_set_srq_wr(a, 0), DOCA_ERROR_INVALID_VALUE, "srq_init_attr srq_wr");
	LOGGED_EQ(doca_verbs_srq_init_attr_set_receive_max_sges(a, 0),
		  DOCA_ERROR_INVALID_VALUE, "srq_init_attr receive_max_sges");
	LOGGED_EQ(doca_verbs_srq_init_attr_set_type(a, (enum doca_verbs_srq_type)2),
		  DOCA_ERROR_INVALID_VALUE, "srq_init_attr type");
	LOGGED_EQ(doca_verbs_srq_init_attr_set_pd(a, NULL), DOCA_ERROR_INVALID_VALUE, "srq_init_attr pd");
	LOGGED_EQ(doca_verbs_srq_init_attr_set_external_umem(a, NULL, 0),
		  DOCA_ERROR_INVALID_VALUE, "srq_init_attr external_umem");
	LOGGED_EQ(doca_verbs_srq_init_attr_set_external_umem(a, &umem, 4096),
		  DOCA_ERROR_INVALID_VALUE, "beyond the umem");
	LOGGED_EQ(doca_verbs_srq_init_attr_get_external_umem(a, NULL, &off),
		  DOCA_ERROR_INVALID_VALUE, "srq_init_attr external_umem");
	LOGGED_EQ(doca_verbs_srq_init_attr_set_external_datapath_en(a, 2),
		  DOCA_ERROR_INVALID_VALUE, "srq_init_attr external_datapath");
	assert_int_equal(a->srq_wr, 1000);
	assert_int_equal(a->receive_max_sges, 4);
	assert_int_equal(a->type, DOCA_VERBS_SRQ_TYPE_CONTIGUOUS);
	assert_ptr_equal(a->pd, &pd);
	assert_ptr_equal(a->umem, &umem);
	assert_int_equal(a->umem_offset, 4095);
	assert_int_equal(a->external_datapath, 1);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(a), DOCA_SUCCESS);
	/* NULL object */
	LOGGED_EQ(doca_verbs_srq_init_attr_create(NULL), DOCA_ERROR_INVALID_VALUE, "srq_init_attr");
	LOGGED_EQ(doca_verbs_srq_init_attr_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "srq_init_attr");
	LOGGED_EQ(doca_verbs_srq_init_attr_set_srq_wr(NULL, 1), DOCA_ERROR_INVALID_VALUE, "srq_init_attr srq_wr");
	LOGGED_EQ(doca_verbs_srq_init_attr_get_srq_wr(NULL), 0, "srq_init_attr srq_wr");
	LOGGED_EQ(doca_verbs_srq_init_attr_get_receive_max_sges(NULL), 0, "srq_init_attr receive_max_sges");
	LOGGED_EQ(doca_verbs_srq_init_attr_get_type(NULL), DOCA_VERBS_SRQ_TYPE_LINKED_LIST, "srq_init_attr type");
	LOGGED_EQ(doca_verbs_srq_init_attr_get_pd(NULL), NULL, "srq_init_attr pd");
	LOGGED_EQ(doca_verbs_srq_init_attr_get_external_umem(NULL, &got, &off),
		  DOCA_ERROR_INVALID_VALUE, "srq_init_attr external_umem");
	LOGGED_EQ(doca_verbs_srq_init_attr_set_external_datapath_en(NULL, 0),
		  DOCA_ERROR_INVALID_VALUE, "srq_init_attr external_datapath");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cq_attr_defaults),
		cmocka_unit_test(test_cq_attr_set),
		cmocka_unit_test(test_cq_attr_bad_input),
		cmocka_unit_test(test_qp_init_attr_defaults),
		cmocka_unit_test(test_qp_init_attr_round_trip),
		cmocka_unit_test(test_qp_init_attr_bad_values),
		cmocka_unit_test(test_qp_init_attr_null),
		cmocka_unit_test(test_srq_init_attr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
