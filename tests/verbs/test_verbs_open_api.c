/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The open releases' host-API shapes (doca_verbs_open_api.h) from C, on the software NIC: the
 * calls below are written as open-release code writes them and reach OpenGDA through the C11
 * dispatch macros. 3.0: objects made from a doca_dev_t opened on a PD; 2.0: getters that
 * return their value, qp_query without the mask. Each result is checked against the guide's
 * form of the same call, and the fixture's teardown destroys the PD and the context, which
 * fails if any open-release call left a child behind. Bad handles are refused with a log line.
 */
#include "verbs_fixture.h"

#include "logged.h"
#include "test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static struct doca_verbs_cq_attr *cq_attr_of(uint32_t size)
{
	struct doca_verbs_cq_attr *a = NULL;

	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, size), DOCA_SUCCESS);
	return a;
}

/* The fixture's init attributes, with the PD named the 3.0 way (set_pd with the doca_dev_t). */
static doca_verbs_qp_init_attr_t *init_attr_on(struct vfx *f, doca_dev_t *dev, doca_verbs_cq_t *cq)
{
	doca_verbs_qp_init_attr_t *ia = vfx_qp_init_attr(f, DOCA_VERBS_QP_TYPE_RC, cq, cq, VFX_SQ_WR, VFX_RQ_WR);

	assert_int_equal(doca_verbs_qp_init_attr_set_pd(ia, dev), DOCA_SUCCESS);
	return ia;
}

/* Every 3.0 creation form on a device from doca_verbs_dev_open(), and the 2.0 / 3.0 getters. */
static void test_dev_forms(void **state)
{
	struct vfx f;
	doca_dev_t *dev = NULL;
	doca_verbs_cq_t *cq = NULL;
	doca_verbs_qp_t *qp = NULL;
	doca_verbs_ah_attr_t *ah = NULL;
	doca_verbs_uar_t *uar = NULL;
	doca_verbs_umem_t *umem = NULL;
	struct doca_verbs_device_attr *dattr = NULL;
	struct doca_verbs_cq_attr *ca = cq_attr_of(VFX_CQ_SIZE);
	doca_verbs_qp_init_attr_t *ia;
	doca_verbs_qp_attr_t *qa = NULL;
	struct doca_verbs_qp_init_attr *qia = NULL;
	enum doca_verbs_qp_send_dbr_mode mode = DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT;
	enum doca_verbs_qp_state st = DOCA_VERBS_QP_STATE_ERR;
	uint32_t qpn = 0, cqn = 0;
	void *p = NULL;
	bool emu = true;
	size_t len = 8192;
	void *buf = aligned_alloc(4096, len);

	(void)state;
	assert_non_null(buf);
	vfx_open(&f);
	assert_int_equal(doca_verbs_dev_open(f.pd, &dev), DOCA_SUCCESS);

	assert_int_equal(doca_verbs_cq_create(dev, ca, &cq), DOCA_SUCCESS);
	ia = init_attr_on(&f, dev, cq);
	assert_ptr_equal(doca_verbs_qp_init_attr_get_pd(ia), f.pd);
	assert_int_equal(doca_verbs_qp_create(dev, ia, &qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_create(dev, &ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_create(dev, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, &uar), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_create(dev, NULL, buf, len, 0, -1, 0, &umem), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_query_device(dev, &dattr), DOCA_SUCCESS);
	assert_true(doca_verbs_device_attr_get_max_qp(dattr) > 0);

	/* 2.0 value getters agree with the guide's out-parameter forms. */
	assert_int_equal(doca_verbs_qp_get_qpn(qp, &qpn), DOCA_SUCCESS);
	assert_true(qpn != 0);
	assert_int_equal(doca_verbs_qp_get_qpn(qp), qpn);
	assert_int_equal(doca_verbs_cq_get_cqn(cq, &cqn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_cqn(cq), cqn);
	assert_int_equal(doca_verbs_qp_get_dbr_addr(qp, &p), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_get_dbr_addr(qp), p);
	assert_int_equal(doca_verbs_qp_get_uar_addr(qp, &p), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_get_uar_addr(qp), p);
	assert_int_equal(doca_verbs_qp_get_send_dbr_mode(qp), DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID);

	/* 2.0's query without the mask; 3.0's out-parameter attribute getters. */
	assert_int_equal(doca_verbs_qp_attr_create(&qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_create(&qia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_query(qp, qa, qia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_current_state(qa, &st), DOCA_SUCCESS);
	assert_int_equal(st, DOCA_VERBS_QP_STATE_RST);
	assert_int_equal(doca_verbs_qp_attr_get_current_state(qa), DOCA_VERBS_QP_STATE_RST);
	assert_int_equal(doca_verbs_qp_init_attr_get_send_dbr_mode(ia, &mode), DOCA_SUCCESS);
	assert_int_equal(mode, DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID);
	assert_int_equal(doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(ia, &emu), DOCA_SUCCESS);
	assert_false(emu);

	assert_int_equal(doca_verbs_device_attr_free(dattr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(qia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(umem), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_destroy(uar), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_destroy(ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(ca), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_dev_close(dev), DOCA_SUCCESS);
	vfx_close(&f); /* PD and context destroy: nothing an open-release call made is left */
	free(buf);
}

/* An SRQ from the device, and its 2.0 / 3.0 value getters. */
static void test_dev_srq(void **state)
{
	struct vfx f;
	doca_dev_t *dev = NULL;
	struct doca_verbs_srq_init_attr *sa = NULL;
	struct doca_verbs_srq *srq = NULL;
	uint32_t srqn = 0;
	void *dbr = NULL;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_dev_open(f.pd, &dev), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_create(&sa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(sa, f.pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(sa, 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_receive_max_sges(sa, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_create(dev, sa, &srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_get_srqn(srq, &srqn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_get_srqn(srq), srqn);
	assert_int_equal(doca_verbs_srq_get_dbr_addr(srq, &dbr), DOCA_SUCCESS);
	assert_non_null(dbr);
	assert_ptr_equal(doca_verbs_srq_get_dbr_addr(srq), dbr);
	assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(sa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_dev_close(dev), DOCA_SUCCESS);
	vfx_close(&f);
}

/* Bad handles in every open-release form: refused, logged, nothing made. */
static void test_bad_handles(void **state)
{
	struct vfx f;
	struct doca_dev *own = NULL;
	struct doca_verbs_qp_init_attr *ia = NULL;
	struct doca_verbs_cq_attr *ca = cq_attr_of(VFX_CQ_SIZE);
	struct doca_verbs_cq *cq = NULL;
	struct doca_verbs_qp *qp = NULL;
	struct doca_verbs_ah_attr *ah = NULL;
	enum doca_verbs_qp_state st;

	(void)state;
	vfx_open(&f);
	/* A device of doca_dev_open() has no PD: the 3.0 forms need one from doca_verbs_dev_open(). */
	assert_int_equal(doca_dev_open(f.info, &own), DOCA_SUCCESS);
	LOGGED_EQ(doca_verbs_cq_create(own, ca, &cq), DOCA_ERROR_INVALID_VALUE, "doca_verbs_dev_open");
	assert_null(cq);
	assert_int_equal(doca_verbs_qp_init_attr_create(&ia), DOCA_SUCCESS);
	LOGGED_EQ(doca_verbs_qp_init_attr_set_pd(ia, own), DOCA_ERROR_INVALID_VALUE, "doca_verbs_dev_open");
	assert_int_equal(doca_dev_close(own), DOCA_SUCCESS);

	LOGGED_EQ(doca_verbs_qp_create((struct ibv_context *)NULL, ia, &qp), DOCA_ERROR_INVALID_VALUE, "ibv_context");
	LOGGED_EQ(doca_verbs_ah_attr_create((doca_dev_t *)NULL, &ah), DOCA_ERROR_INVALID_VALUE, "doca_dev");
	LOGGED_EQ(doca_verbs_qp_init_attr_set_pd(ia, (struct ibv_pd *)NULL), DOCA_ERROR_INVALID_VALUE, "ibv_pd");
	LOGGED_EQ(doca_verbs_dev_open((struct ibv_pd *)NULL, &own), DOCA_ERROR_INVALID_VALUE, "ibv_pd");
	assert_null(qp);
	assert_null(ah);

	/* Value getters on nothing: the empty value and a log line; out forms refuse NULL. */
	LOGGED_EQ(doca_verbs_qp_get_qpn((struct doca_verbs_qp *)NULL), 0, "qp");
	LOGGED_EQ(doca_verbs_qp_get_dbr_addr((struct doca_verbs_qp *)NULL), NULL, "qp");
	LOGGED_EQ(doca_verbs_cq_get_cqn((struct doca_verbs_cq *)NULL), 0, "cq");
	LOGGED_EQ(doca_verbs_qp_attr_get_current_state((doca_verbs_qp_attr_t *)NULL, &st), DOCA_ERROR_INVALID_VALUE,
		  "doca_verbs_qp_attr_get_current_state");
	LOGGED_EQ(doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(ia, (bool *)NULL), DOCA_ERROR_INVALID_VALUE,
		  "doca_verbs_qp_init_attr_get_emulate_no_dbr_ext");
	assert_int_equal(doca_verbs_qp_init_attr_destroy(ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(ca), DOCA_SUCCESS);
	vfx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dev_forms),
		cmocka_unit_test(test_dev_srq),
		cmocka_unit_test(test_bad_handles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
