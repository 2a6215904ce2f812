/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QPs of the software NIC carrying traffic: what creation promises holds on the wire.
 * The SGE count the device reports can be gathered, the inline room a QP reports can be
 * posted, and DBR-less QPs made without an external UAR all get their rings executed.
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

/* What an RDMA WRITE gathering nsge 8-byte pieces did. */
struct gather_result {
	int post_ret;       /* doca_verbs_bridge_post_send() */
	int polled;         /* completions seen */
	struct ibv_wc wc;
	bool data_ok;       /* the destination holds every piece in order */
};

/* Connects a pair, posts one WRITE of nsge SGEs from a QP created with send_max_sges nsge. */
static void run_gather(struct qfx *q, uint32_t nsge, struct gather_result *r)
{
	struct doca_verbs_cq *cq0 = vfx_cq(&q->f, 16, NULL, NULL), *cq1 = vfx_cq(&q->f, 16, NULL, NULL);
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, cq0, cq0, 4, 4);
	struct doca_verbs_qp *qa = NULL, *qb;
	uint32_t qpn_a = 0, qpn_b = 0;
	struct vfx_buf src, dst;
	struct ibv_sge *sge = calloc(nsge, sizeof(*sge));
	struct ibv_send_wr wr, *bad = NULL;
	struct doca_verbs_async_event ev;

	assert_non_null(sge);
	memset(r, 0, sizeof(*r));
	assert_int_equal(doca_verbs_qp_init_attr_set_send_max_sges(a, nsge), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	qb = vfx_qp(&q->f, DOCA_VERBS_QP_TYPE_RC, cq1, cq1, 4, 4);
	assert_int_equal(doca_verbs_qp_get_qpn(qa, &qpn_a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(qb, &qpn_b), DOCA_SUCCESS);
	vfx_qp_connect(&q->f, qa, DOCA_VERBS_QP_TYPE_RC, qpn_b, 7, 9);
	vfx_qp_connect(&q->f, qb, DOCA_VERBS_QP_TYPE_RC, qpn_a, 9, 7);
	vfx_buf_create(&q->f, (size_t)nsge * 8, 0, &src);
	vfx_buf_create(&q->f, (size_t)nsge * 8, 0, &dst);
	for (uint32_t i = 0; i < nsge; i++) {
		memset(src.addr + i * 8, (int)(i + 1), 8);
		sge[i].addr = (uintptr_t)src.addr + i * 8;
		sge[i].length = 8;
		sge[i].lkey = src.lkey;
	}
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 42;
	wr.sg_list = sge;
	wr.num_sge = (int)nsge;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)dst.addr;
	wr.wr.rdma.rkey = dst.rkey;
	stderr_capture_begin();
	r->post_ret = doca_verbs_bridge_post_send(qa, &wr, &bad);
	stderr_capture_end(logbuf, sizeof(logbuf));
	if (r->post_ret != 0)
		print_message("posting %u SGEs: %d: %s", nsge, r->post_ret, logbuf);
	else
		r->polled = vfx_poll(cq0, &r->wc, 1, 5000);
	if (r->polled == 1 && r->wc.status != IBV_WC_SUCCESS)
		print_message("a WRITE of %u SGEs completed with status %d, vendor syndrome 0x%x\n", nsge,
			      (int)r->wc.status, r->wc.vendor_err);
	r->data_ok = memcmp(dst.addr, src.addr, (size_t)nsge * 8) == 0;
	while (doca_verbs_get_async_event(q->f.ctx, &ev) == DOCA_SUCCESS)
		assert_int_equal(doca_verbs_ack_async_event(&ev), DOCA_SUCCESS);
	free(sge);
	assert_int_equal(doca_verbs_qp_destroy(qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(qb), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(cq0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(cq1), DOCA_SUCCESS);
	vfx_buf_destroy(&src);
	vfx_buf_destroy(&dst);
}

static void check_gather_ok(const struct gather_result *r)
{
	assert_int_equal(r->post_ret, 0);
	assert_int_equal(r->polled, 1);
	assert_int_equal(r->wc.status, IBV_WC_SUCCESS);
	assert_int_equal(r->wc.wr_id, 42);
	assert_true(r->data_ok);
}

/* Seventeen SGEs (one more than the software NIC once gathered per WQE) arrive whole. */
static void test_seventeen_sges_gathered(void **state)
{
	struct gather_result r;

	run_gather(*state, 17, &r);
	check_gather_ok(&r);
}

/*
 * The SGE count the device reports is one a WQE can carry: an RDMA WRITE gathering
 * max_sge pieces arrives whole. (A WQE holds at most 63 octowords, ctrl and remote
 * address included, and the software NIC gathers at most SWNIC_MAX_SGE pointer segments.)
 */
static void test_max_sge_is_usable(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_device_attr *da = NULL;
	struct gather_result r;
	uint32_t max_sge;

	assert_int_equal(doca_verbs_query_device(q->f.ctx, &da), DOCA_SUCCESS);
	max_sge = doca_verbs_device_attr_get_max_sge(da);
	assert_int_equal(doca_verbs_device_attr_free(da), DOCA_SUCCESS);
	run_gather(q, max_sge, &r);
	check_gather_ok(&r);
}

/*
 * The inline room a QP reports (doca_verbs_qp_query, rounded up to its WQE) is postable: an
 * RDMA WRITE of that many inline bytes arrives. A WQE holds at most 63 octowords, so with
 * ctrl + remote address the room is at most 63 * 16 - 32 - 4 = 972 bytes, whatever WQEBB
 * count the rounding gives.
 */
static void test_max_inline_is_usable(void **state)
{
	static const uint32_t asked[] = {60, 900, 972, 988};
	struct qfx *q = *state;

	for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); i++) {
		struct doca_verbs_cq *cq0 = vfx_cq(&q->f, 16, NULL, NULL), *cq1 = vfx_cq(&q->f, 16, NULL, NULL);
		struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, cq0, cq0, 4, 4);
		struct doca_verbs_qp_init_attr *got = NULL;
		struct doca_verbs_qp_attr *attr = vfx_attr();
		struct doca_verbs_qp *qa = NULL, *qb;
		uint32_t qpn_a = 0, qpn_b = 0, room;
		struct vfx_buf src, dst;
		struct ibv_sge sge;
		struct ibv_send_wr wr, *bad = NULL;
		struct ibv_wc wc;
		int mask = 0, post_ret, polled = 0;
		doca_error_t err;

		assert_int_equal(doca_verbs_qp_init_attr_set_max_inline_data(a, asked[i]), DOCA_SUCCESS);
		stderr_capture_begin();
		err = doca_verbs_qp_create(q->f.ctx, a, &qa);
		stderr_capture_end(logbuf, sizeof(logbuf));
		assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
		if (err != DOCA_SUCCESS) { /* refusing a size above the room is fine; accepting it is a promise */
			assert_int_equal(err, DOCA_ERROR_INVALID_VALUE);
			assert_true(asked[i] > 972);
			assert_int_equal(doca_verbs_qp_attr_destroy(attr), DOCA_SUCCESS);
			assert_int_equal(doca_verbs_cq_destroy(cq0), DOCA_SUCCESS);
			assert_int_equal(doca_verbs_cq_destroy(cq1), DOCA_SUCCESS);
			continue;
		}
		assert_int_equal(doca_verbs_qp_init_attr_create(&got), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_query(qa, attr, got, &mask), DOCA_SUCCESS);
		room = doca_verbs_qp_init_attr_get_max_inline_data(got);
		assert_true(room >= asked[i]);
		assert_int_equal(doca_verbs_qp_init_attr_destroy(got), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_destroy(attr), DOCA_SUCCESS);
		qb = vfx_qp(&q->f, DOCA_VERBS_QP_TYPE_RC, cq1, cq1, 4, 4);
		assert_int_equal(doca_verbs_qp_get_qpn(qa, &qpn_a), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_get_qpn(qb, &qpn_b), DOCA_SUCCESS);
		vfx_qp_connect(&q->f, qa, DOCA_VERBS_QP_TYPE_RC, qpn_b, 3, 4);
		vfx_qp_connect(&q->f, qb, DOCA_VERBS_QP_TYPE_RC, qpn_a, 4, 3);
		vfx_buf_create(&q->f, room, 0x6b, &src);
		vfx_buf_create(&q->f, room, 0x00, &dst);
		sge.addr = (uintptr_t)src.addr;
		sge.length = room;
		sge.lkey = src.lkey;
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = 7;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
		wr.wr.rdma.remote_addr = (uintptr_t)dst.addr;
		wr.wr.rdma.rkey = dst.rkey;
		stderr_capture_begin();
		post_ret = doca_verbs_bridge_post_send(qa, &wr, &bad);
		stderr_capture_end(logbuf, sizeof(logbuf));
		if (post_ret == 0)
			polled = vfx_poll(cq0, &wc, 1, 5000);
		else
			print_message("asked %u, room %u: posting %u inline bytes: %d: %s", asked[i], room, room, post_ret,
				      logbuf);
		if (post_ret == 0 && polled == 1 && wc.status == IBV_WC_SUCCESS)
			assert_memory_equal(dst.addr, src.addr, room);
		vfx_buf_destroy(&src);
		vfx_buf_destroy(&dst);
		assert_int_equal(doca_verbs_qp_destroy(qa), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_destroy(qb), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_destroy(cq0), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_destroy(cq1), DOCA_SUCCESS);
		assert_int_equal(post_ret, 0);
		assert_int_equal(polled, 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_true(room <= 972);
	}
}

/*
 * Two DBR-less QPs made without an external UAR, each posting one RDMA WRITE right after
 * the other, 100 rounds: every WRITE completes. A DBR-less ring lives only in its UAR
 * page's register (+ 0x600); when both QPs ring the same page, the second ring overwrites
 * the first before the NIC sees it and that WQE never runs (docs/swnic.md: "Give each
 * DBR-less QP a UAR page of its own").
 */
static void test_no_dbr_ext_two_qps_both_complete(void **state)
{
	struct qfx *q = *state;
	struct doca_verbs_cq *cq[4];
	struct doca_verbs_qp *qp[4];
	uint32_t qpn[4];
	struct vfx_buf src, dst;
	int round, lost_qp = -1;

	for (int i = 0; i < 4; i++) {
		struct doca_verbs_qp_init_attr *a;

		cq[i] = vfx_cq(&q->f, 16, NULL, NULL);
		a = vfx_qp_init_attr(&q->f, DOCA_VERBS_QP_TYPE_RC, cq[i], cq[i], 8, 4);
		if (i < 2) /* the two requesters are DBR-less, their responders not */
			assert_int_equal(doca_verbs_qp_init_attr_set_send_dbr_mode(a, DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT),
					 DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_create(q->f.ctx, a, &qp[i]), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_get_qpn(qp[i], &qpn[i]), DOCA_SUCCESS);
	}
	for (int i = 0; i < 2; i++) {
		vfx_qp_connect(&q->f, qp[i], DOCA_VERBS_QP_TYPE_RC, qpn[i + 2], 1, 1);
		vfx_qp_connect(&q->f, qp[i + 2], DOCA_VERBS_QP_TYPE_RC, qpn[i], 1, 1);
	}
	vfx_buf_create(&q->f, 16, 0x42, &src);
	vfx_buf_create(&q->f, 16, 0x00, &dst);
	for (round = 0; round < 100 && lost_qp < 0; round++) {
		for (int i = 0; i < 2; i++) {
			struct ibv_sge sge = {.addr = (uintptr_t)src.addr + 8u * (uint32_t)i, .length = 8, .lkey = src.lkey};
			struct ibv_send_wr wr, *bad = NULL;

			memset(&wr, 0, sizeof(wr));
			wr.wr_id = (uint64_t)round;
			wr.sg_list = &sge;
			wr.num_sge = 1;
			wr.opcode = IBV_WR_RDMA_WRITE;
			wr.send_flags = IBV_SEND_SIGNALED;
			wr.wr.rdma.remote_addr = (uintptr_t)dst.addr + 8u * (uint32_t)i;
			wr.wr.rdma.rkey = dst.rkey;
			assert_int_equal(doca_verbs_bridge_post_send(qp[i], &wr, &bad), 0);
		}
		for (int i = 0; i < 2 && lost_qp < 0; i++) {
			struct ibv_wc wc;

			if (vfx_poll(cq[i], &wc, 1, 1000) != 1)
				lost_qp = i;
			else
				assert_int_equal(wc.status, IBV_WC_SUCCESS);
		}
	}
	vfx_buf_destroy(&src);
	vfx_buf_destroy(&dst);
	for (int i = 0; i < 4; i++)
		assert_int_equal(doca_verbs_qp_destroy(qp[i]), DOCA_SUCCESS);
	for (int i = 0; i < 4; i++)
		assert_int_equal(doca_verbs_cq_destroy(cq[i]), DOCA_SUCCESS);
	if (lost_qp >= 0)
		fail_msg("round %d: the WRITE of DBR-less QP %d never completed (its ring was lost)", round - 1, lost_qp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_seventeen_sges_gathered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_sge_is_usable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_inline_is_usable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_dbr_ext_two_qps_both_complete, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
