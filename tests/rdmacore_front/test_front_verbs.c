/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rdma-core front end through rdma-core's own public API: this program is linked against
 * the front end's libibverbs.so.1 exactly as an rdma-core program is linked against the real
 * one, and uses nothing of OpenGDA's. Two RC QPs of one software NIC, connected to each
 * other through the NIC's GID, carry every opcode; the bytes that land, the work completions
 * and the errors are checked.
 */
#include "front_fixture.h"

#include <infiniband/verbs.h>

#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void test_device(void **state)
{
	struct fx *f = *state;
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	__be16 pkey = 0;

	assert_string_equal(ibv_get_device_name(f->list[0]), "mlx5_0");
	assert_int_equal(ibv_query_device(f->ctx, &da), 0);
	assert_int_equal(da.vendor_id, 0x02c9);
	assert_int_equal(da.phys_port_cnt, 1);
	assert_true(da.max_qp_wr >= 1024);
	assert_int_equal(ibv_query_port(f->ctx, 1, &pa), 0);
	assert_int_equal(pa.state, IBV_PORT_ACTIVE);
	assert_int_equal(pa.link_layer, IBV_LINK_LAYER_ETHERNET);
	assert_int_equal(pa.gid_tbl_len, 1);
	assert_int_equal(ibv_query_port(f->ctx, 2, &pa), EINVAL);
	/* The GID is the software NIC's: ULA prefix fd "OGDA" and its fabric endpoint. */
	assert_int_equal(f->gid.raw[0], 0xfd);
	assert_memory_equal(f->gid.raw + 1, "OGDA", 4);
	assert_int_equal(ibv_query_pkey(f->ctx, 1, 0, &pkey), 0);
	assert_int_equal(be16toh(pkey), 0xffff);
	assert_int_equal(ibv_query_pkey(f->ctx, 1, 1, &pkey), EINVAL);
	assert_int_equal(ibv_get_pkey_index(f->ctx, 1, htobe16(0xffff)), 0);
	assert_string_equal(ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR), "remote access error");
	assert_string_equal(ibv_port_state_str(IBV_PORT_ACTIVE), "PORT_ACTIVE");
	assert_string_equal(ibv_wc_status_str((enum ibv_wc_status)999), "unknown");
}

/* What the software NIC does not model fails with EOPNOTSUPP, and bad arguments with EINVAL. */
static void test_unsupported(void **state)
{
	struct fx *f = *state;
	struct ibv_qp_init_attr ia;
	struct ibv_srq_init_attr sa;
	struct ibv_ah_attr ah;
	struct ibv_cq_init_attr_ex cqx;
	uint8_t buf[64];

	memset(&ia, 0, sizeof(ia));
	ia.qp_type = IBV_QPT_UD;
	ia.cap.max_send_wr = 1;
	errno = 0;
	assert_null(ibv_create_qp(f->pd, &ia));
	assert_int_equal(errno, EOPNOTSUPP);
	memset(&sa, 0, sizeof(sa));
	errno = 0;
	assert_null(ibv_create_srq(f->pd, &sa)); /* max_wr 0 */
	assert_int_equal(errno, EINVAL);
	/* RoCE: an AH without the GRH cannot name its destination. */
	memset(&ah, 0, sizeof(ah));
	errno = 0;
	assert_null(ibv_create_ah(f->pd, &ah));
	assert_int_equal(errno, EINVAL);
	/* dmabuf regions: GPU memory of this process only; host memory or no descriptor refused. */
	errno = 0;
	assert_null(ibv_reg_dmabuf_mr(f->pd, 0, 4096, 0, -1, IBV_ACCESS_LOCAL_WRITE));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ibv_reg_dmabuf_mr(f->pd, 0, sizeof(buf), (uint64_t)(uintptr_t)buf, 0, IBV_ACCESS_LOCAL_WRITE));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_reg_mr_iova(f->pd, buf, sizeof(buf), 0x1000, IBV_ACCESS_LOCAL_WRITE));
	assert_int_equal(errno, EOPNOTSUPP);
	/* Completion timestamps are not modelled. */
	memset(&cqx, 0, sizeof(cqx));
	cqx.cqe = 4;
	cqx.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	errno = 0;
	assert_null(ibv_create_cq_ex(f->ctx, &cqx));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_resize_cq(NULL, 4), EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_open_device(NULL));
	assert_int_equal(errno, EINVAL);
	assert_null(ibv_create_cq(f->ctx, 0, NULL, NULL, 0));
	assert_int_equal(errno, EINVAL);
}

/*
 * A program may close a context with objects still open (perftest's ib_send_bw client leaves
 * its receive CQ): as the kernel does, close destroys them, users first, and succeeds.
 */
static void test_close_cleans_up(void **state)
{
	struct fx *f = *state;
	struct ibv_context *ctx = ibv_open_device(f->list[0]);
	struct ibv_comp_channel *ch;
	struct ibv_qp_init_attr ia;
	struct ibv_ah_attr aa;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	static uint8_t buf[4096];

	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	assert_non_null(ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE));
	ch = ibv_create_comp_channel(ctx);
	assert_non_null(ch);
	cq = ibv_create_cq(ctx, 8, NULL, ch, 0);
	assert_non_null(cq);
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = cq;
	ia.recv_cq = cq;
	ia.cap.max_send_wr = 4;
	ia.cap.max_recv_wr = 4;
	ia.qp_type = IBV_QPT_RC;
	assert_non_null(ibv_create_qp(pd, &ia));
	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	aa.grh.dgid = f->gid;
	aa.port_num = 1;
	assert_non_null(ibv_create_ah(pd, &aa));
	assert_int_equal(ibv_close_device(ctx), 0);
}

static void test_modify_errors(void **state)
{
	struct fx *f = *state;
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	assert_int_equal(ibv_modify_qp(f->a.qp, &a, IBV_QP_STATE | IBV_QP_ALT_PATH), EOPNOTSUPP);
	a.qp_state = IBV_QPS_SQD;
	assert_int_equal(ibv_modify_qp(f->a.qp, &a, IBV_QP_STATE), EOPNOTSUPP);
	/* RoCE needs the GRH: an AH without the peer's GID cannot reach it. */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.ah_attr.is_global = 0;
	assert_int_equal(ibv_modify_qp(f->a.qp, &a, IBV_QP_STATE | IBV_QP_AV), EINVAL);
	/* RTS -> RTS with nothing: the QP stays as it was. */
	assert_int_equal(f->a.qp->state, IBV_QPS_RTS);
}

static void test_write_read(void **state)
{
	struct fx *f = *state;
	struct ibv_wc wc;

	for (int i = 0; i < 4096; i++)
		f->a.buf[i] = (uint8_t)(i * 7 + 1);
	fx_post(&f->a, IBV_WR_RDMA_WRITE, 0, 4096, (uintptr_t)f->b.buf + 1024, f->b.mr->rkey, 11);
	wc = fx_poll_one(f->a.cq);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_RDMA_WRITE);
	assert_int_equal(wc.wr_id, 11);
	assert_int_equal(wc.qp_num, f->a.qp->qp_num);
	assert_memory_equal(f->b.buf + 1024, f->a.buf, 4096);
	/* Read it back into another place. */
	fx_post(&f->a, IBV_WR_RDMA_READ, 4096, 4096, (uintptr_t)f->b.buf + 1024, f->b.mr->rkey, 12);
	wc = fx_poll_one(f->a.cq);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_RDMA_READ);
	assert_int_equal(wc.byte_len, 4096);
	assert_memory_equal(f->a.buf + 4096, f->a.buf, 4096);
	/* A wrong rkey: remote access error, nothing written. */
	memset(f->b.buf + 6000, 0xee, 16);
	fx_post(&f->a, IBV_WR_RDMA_WRITE, 0, 16, (uintptr_t)f->b.buf + 6000, f->b.mr->rkey ^ 0x5a00, 13);
	wc = fx_poll_one(f->a.cq);
	assert_int_equal(wc.status, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(wc.wr_id, 13);
	assert_int_equal(f->b.buf[6000], 0xee);
}

static void test_send_recv_event(void **state)
{
	struct fx *f = *state;
	struct ibv_sge rsge = {.addr = (uintptr_t)f->b.buf, .length = 256, .lkey = f->b.mr->lkey};
	struct ibv_recv_wr rwr, *rbad = NULL;
	struct ibv_sge ssge = {.addr = (uintptr_t)f->a.buf, .length = 100, .lkey = f->a.mr->lkey};
	struct ibv_send_wr swr, *sbad = NULL;
	struct pollfd p = {.fd = f->ch->fd, .events = POLLIN};
	struct ibv_cq *ev_cq = NULL;
	void *ev_ctx = NULL;
	struct ibv_wc wc;

	memset(&rwr, 0, sizeof(rwr));
	rwr.wr_id = 77;
	rwr.sg_list = &rsge;
	rwr.num_sge = 1;
	assert_int_equal(ibv_post_recv(f->b.qp, &rwr, &rbad), 0);
	assert_int_equal(ibv_req_notify_cq(f->b.cq, 0), 0);
	memcpy(f->a.buf, "a message through the front end", 32);
	memset(&swr, 0, sizeof(swr));
	swr.wr_id = 78;
	swr.sg_list = &ssge;
	swr.num_sge = 1;
	swr.opcode = IBV_WR_SEND_WITH_IMM;
	swr.imm_data = htobe32(0x12345678);
	swr.send_flags = IBV_SEND_SIGNALED;
	assert_int_equal(ibv_post_send(f->a.qp, &swr, &sbad), 0);
	wc = fx_poll_one(f->a.cq);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_SEND);
	/* The armed CQ raises its event: the channel fd becomes readable, ibv_get_cq_event names the CQ. */
	assert_int_equal(poll(&p, 1, FX_WAIT_MS), 1);
	assert_int_equal(ibv_get_cq_event(f->ch, &ev_cq, &ev_ctx), 0);
	assert_ptr_equal(ev_cq, f->b.cq);
	assert_ptr_equal(ev_ctx, &f->b);
	ibv_ack_cq_events(ev_cq, 1);
	wc = fx_poll_one(f->b.cq);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_RECV);
	assert_int_equal(wc.wr_id, 77);
	assert_int_equal(wc.byte_len, 100);
	assert_true(wc.wc_flags & IBV_WC_WITH_IMM);
	assert_int_equal(be32toh(wc.imm_data), 0x12345678);
	assert_int_equal(wc.qp_num, f->b.qp->qp_num);
	assert_memory_equal(f->b.buf, "a message through the front end", 32);
}

static void test_atomics(void **state)
{
	struct fx *f = *state;
	struct ibv_sge sge = {.addr = (uintptr_t)f->a.buf, .length = 8, .lkey = f->a.mr->lkey};
	struct ibv_send_wr wr, *bad = NULL;
	uint64_t *target = (uint64_t *)(f->b.buf + 512);
	uint64_t orig;
	struct ibv_wc wc;

	*target = 40;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 90;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.atomic.remote_addr = (uintptr_t)target;
	wr.wr.atomic.rkey = f->b.mr->rkey;
	wr.wr.atomic.compare_add = 2;
	assert_int_equal(ibv_post_send(f->a.qp, &wr, &bad), 0);
	wc = fx_poll_one(f->a.cq);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_FETCH_ADD);
	memcpy(&orig, f->a.buf, 8);
	/* The original value, in host order, as 8-byte results arrive on a ConnectX (reference/mlx5.md B.4). */
	assert_int_equal(orig, 40);
	assert_int_equal(*target, 42);
	wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	wr.wr.atomic.compare_add = 42;
	wr.wr.atomic.swap = 1000;
	assert_int_equal(ibv_post_send(f->a.qp, &wr, &bad), 0);
	wc = fx_poll_one(f->a.cq);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_COMP_SWAP);
	assert_int_equal(*target, 1000);
}

static void test_query_qp(void **state)
{
	struct fx *f = *state;
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	assert_int_equal(ibv_query_qp(f->a.qp, &a, IBV_QP_STATE | IBV_QP_CAP | IBV_QP_DEST_QPN, &ia), 0);
	assert_int_equal(a.qp_state, IBV_QPS_RTS);
	assert_int_equal(a.dest_qp_num, f->b.qp->qp_num);
	assert_int_equal(a.path_mtu, IBV_MTU_1024);
	assert_true(a.cap.max_inline_data >= 64);
	assert_int_equal(ia.qp_type, IBV_QPT_RC);
	assert_ptr_equal(ia.send_cq, f->a.cq);
	assert_memory_equal(a.ah_attr.grh.dgid.raw, f->gid.raw, 16);
}

/* A QP on an SRQ: receives come from the SRQ in posting order, its WQEs are reused after completion. */
static void test_srq(void **state)
{
	struct fx *f = *state;
	struct ibv_srq_init_attr sa;
	struct ibv_qp_init_attr ia;
	struct ibv_recv_wr rwr, *rbad = NULL;
	struct ibv_sge rsge;
	struct ibv_srq *srq;
	struct ibv_qp *x, *y;
	uint32_t srqn = 0, max_wr;
	int posted = 0;

	memset(&sa, 0, sizeof(sa));
	sa.attr.max_wr = 3;
	sa.attr.max_sge = 1;
	srq = ibv_create_srq(f->pd, &sa);
	assert_non_null(srq);
	assert_true(sa.attr.max_wr >= 3);
	max_wr = sa.attr.max_wr;
	assert_int_equal(ibv_get_srq_num(srq, &srqn), 0);
	assert_int_equal(srqn, srq->handle);
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = f->a.cq;
	ia.recv_cq = f->a.cq;
	ia.cap.max_send_wr = 16;
	ia.qp_type = IBV_QPT_RC;
	x = ibv_create_qp(f->pd, &ia);
	assert_non_null(x);
	ia.send_cq = f->b.cq;
	ia.recv_cq = f->b.cq;
	ia.srq = srq;
	y = ibv_create_qp(f->pd, &ia);
	assert_non_null(y);
	fx_connect_qp(f, x, y->qp_num);
	fx_connect_qp(f, y, x->qp_num);
	/* Fill the SRQ: one more is refused. */
	memset(&rwr, 0, sizeof(rwr));
	rwr.sg_list = &rsge;
	rwr.num_sge = 1;
	for (uint32_t i = 0; i <= max_wr; i++) {
		rsge.addr = (uintptr_t)f->b.buf + 256 * i;
		rsge.length = 256;
		rsge.lkey = f->b.mr->lkey;
		rwr.wr_id = 500 + i;
		assert_int_equal(ibv_post_srq_recv(srq, &rwr, &rbad), i < max_wr ? 0 : ENOMEM);
	}
	/* Three rounds through the ring: each message lands in the next buffer, named by its wr_id. */
	for (int m = 0; m < (int)max_wr * 3; m++) {
		struct ibv_sge ssge = {.addr = (uintptr_t)f->a.buf, .length = 64, .lkey = f->a.mr->lkey};
		struct ibv_send_wr swr, *sbad = NULL;
		uint32_t slot = (uint32_t)m % max_wr;
		struct ibv_wc wc;

		memset(f->a.buf, 0x40 + m, 64);
		memset(&swr, 0, sizeof(swr));
		swr.sg_list = &ssge;
		swr.num_sge = 1;
		swr.opcode = IBV_WR_SEND;
		swr.send_flags = IBV_SEND_SIGNALED;
		assert_int_equal(ibv_post_send(x, &swr, &sbad), 0);
		assert_int_equal(fx_poll_one(f->a.cq).status, IBV_WC_SUCCESS);
		wc = fx_poll_one(f->b.cq);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.opcode, IBV_WC_RECV);
		assert_int_equal(wc.qp_num, y->qp_num);
		assert_int_equal(wc.wr_id, 500 + (m < (int)max_wr ? (uint32_t)m : 1000u + (uint32_t)m));
		assert_int_equal(f->b.buf[256 * slot], 0x40 + m);
		/* Repost the buffer (a new wr_id): the freed WQE is used again. */
		rsge.addr = (uintptr_t)f->b.buf + 256 * slot;
		rwr.wr_id = 500 + 1000u + (uint32_t)m + max_wr;
		posted++;
		assert_int_equal(ibv_post_srq_recv(srq, &rwr, &rbad), 0);
	}
	assert_int_equal(posted, (int)max_wr * 3);
	assert_int_equal(ibv_destroy_qp(y), 0);
	assert_int_equal(ibv_destroy_qp(x), 0);
	assert_int_equal(ibv_destroy_srq(srq), 0);
}

/* A remote access violation: the responder QP's async event arrives on the context's async fd. */
static void test_async_event(void **state)
{
	struct fx *f = *state;
	struct pollfd p = {.fd = f->ctx->async_fd, .events = POLLIN};
	struct ibv_async_event ev;
	bool seen = false;

	fx_post(&f->a, IBV_WR_RDMA_WRITE, 0, 16, (uintptr_t)f->b.buf, f->b.mr->rkey ^ 0x5a00, 1);
	assert_int_equal(fx_poll_one(f->a.cq).status, IBV_WC_REM_ACCESS_ERR);
	for (int i = 0; i < 4 && !seen; i++) {
		if (poll(&p, 1, FX_WAIT_MS) != 1)
			break;
		assert_int_equal(ibv_get_async_event(f->ctx, &ev), 0);
		if (ev.event_type == IBV_EVENT_QP_ACCESS_ERR) {
			assert_ptr_equal(ev.element.qp, f->b.qp);
			seen = true;
		}
		ibv_ack_async_event(&ev);
	}
	assert_true(seen);
	assert_string_equal(ibv_event_type_str(IBV_EVENT_QP_ACCESS_ERR), "local access violation work queue error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_device, fx_open_dev, fx_close_dev),
		cmocka_unit_test_setup_teardown(test_unsupported, fx_open_dev, fx_close_dev),
		cmocka_unit_test_setup_teardown(test_close_cleans_up, fx_open_dev, fx_close_dev),
		cmocka_unit_test_setup_teardown(test_modify_errors, fx_pair_up, fx_pair_down),
		cmocka_unit_test_setup_teardown(test_write_read, fx_pair_up, fx_pair_down),
		cmocka_unit_test_setup_teardown(test_send_recv_event, fx_pair_up, fx_pair_down),
		cmocka_unit_test_setup_teardown(test_atomics, fx_pair_up, fx_pair_down),
		cmocka_unit_test_setup_teardown(test_query_qp, fx_pair_up, fx_pair_down),
		cmocka_unit_test_setup_teardown(test_srq, fx_pair_up, fx_pair_down),
		cmocka_unit_test_setup_teardown(test_async_event, fx_pair_up, fx_pair_down),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
