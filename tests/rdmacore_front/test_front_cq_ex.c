/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibv_create_cq_ex and the extended polling API through the front end: start / next / end
 * poll with the read_* ops on the same completions ibv_poll_cq reports, with rdma-core's API
 * only.
 */
#include "front_fixture.h"

#include <infiniband/verbs.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void test_cq_ex_poll(void **state)
{
	struct fx *f = *state;
	struct ibv_cq_init_attr_ex ca;
	struct ibv_poll_cq_attr pa = {.comp_mask = 0};
	struct ibv_qp_init_attr ia;
	struct ibv_cq_ex *cqx;
	struct ibv_qp *qp, *peer;
	uint64_t end;
	int ret, seen = 0;

	memset(&ca, 0, sizeof(ca));
	ca.cqe = 16;
	ca.wc_flags = IBV_WC_STANDARD_FLAGS;
	ca.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
	ca.flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED;
	cqx = ibv_create_cq_ex(f->ctx, &ca);
	assert_non_null(cqx);
	assert_true(ibv_cq_ex_to_cq(cqx)->cqe >= 16);
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = ibv_cq_ex_to_cq(cqx);
	ia.recv_cq = ibv_cq_ex_to_cq(cqx);
	ia.cap.max_send_wr = 8;
	ia.qp_type = IBV_QPT_RC;
	qp = ibv_create_qp(f->pd, &ia);
	assert_non_null(qp);
	ia.send_cq = f->b.cq;
	ia.recv_cq = f->b.cq;
	peer = ibv_create_qp(f->pd, &ia); /* an RC responder serves its connected peer only */
	assert_non_null(peer);
	fx_connect_qp(f, qp, peer->qp_num);
	fx_connect_qp(f, peer, qp->qp_num);
	/* Nothing yet: ENOENT, and no end_poll owed. */
	assert_int_equal(ibv_start_poll(cqx, &pa), ENOENT);
	memset(f->a.buf, 0x5c, 128);
	for (uint64_t id = 1; id <= 2; id++) {
		struct ibv_sge sge = {.addr = (uintptr_t)f->a.buf, .length = 128, .lkey = f->a.mr->lkey};
		struct ibv_send_wr wr, *bad = NULL;

		memset(&wr, 0, sizeof(wr));
		wr.wr_id = id;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.rdma.remote_addr = (uintptr_t)f->b.buf + 1024 * id;
		wr.wr.rdma.rkey = f->b.mr->rkey;
		assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
	}
	end = fx_now_ms() + FX_WAIT_MS;
	while ((ret = ibv_start_poll(cqx, &pa)) == ENOENT && fx_now_ms() < end)
		;
	assert_int_equal(ret, 0);
	do {
		seen++;
		assert_int_equal(cqx->status, IBV_WC_SUCCESS);
		assert_int_equal(cqx->wr_id, (uint64_t)seen);
		assert_int_equal(ibv_wc_read_opcode(cqx), IBV_WC_RDMA_WRITE);
		assert_int_equal(ibv_wc_read_qp_num(cqx), qp->qp_num);
		assert_int_equal(ibv_wc_read_wc_flags(cqx), 0);
		while ((ret = ibv_next_poll(cqx)) == ENOENT && seen < 2 && fx_now_ms() < end)
			;
	} while (ret == 0);
	ibv_end_poll(cqx);
	assert_int_equal(seen, 2);
	assert_int_equal(f->b.buf[1024], 0x5c);
	assert_int_equal(f->b.buf[2048 + 127], 0x5c);
	assert_int_equal(ibv_destroy_qp(qp), 0);
	assert_int_equal(ibv_destroy_qp(peer), 0);
	assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(cqx)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cq_ex_poll, fx_pair_up, fx_pair_down),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
