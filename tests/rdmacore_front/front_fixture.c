/* SPDX-License-Identifier: BSD-3-Clause */
/* The front end tests' fixture (front_fixture.h). */
#include "front_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

int fx_open_dev(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	int n = 0;

	assert_non_null(f);
	f->list = ibv_get_device_list(&n);
	assert_non_null(f->list);
	assert_true(n >= 1);
	f->ctx = ibv_open_device(f->list[0]);
	assert_non_null(f->ctx);
	f->pd = ibv_alloc_pd(f->ctx);
	assert_non_null(f->pd);
	assert_int_equal(ibv_query_gid(f->ctx, 1, 0, &f->gid), 0);
	*state = f;
	return 0;
}

int fx_close_dev(void **state)
{
	struct fx *f = *state;

	assert_int_equal(ibv_dealloc_pd(f->pd), 0);
	assert_int_equal(ibv_close_device(f->ctx), 0);
	ibv_free_device_list(f->list);
	free(f);
	return 0;
}

static void side_create(struct fx *f, struct fx_side *s, struct ibv_comp_channel *ch)
{
	struct ibv_qp_init_attr ia;
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		     IBV_ACCESS_REMOTE_ATOMIC;

	s->buf = aligned_alloc(64, FX_BUF);
	assert_non_null(s->buf);
	memset(s->buf, 0, FX_BUF);
	s->mr = ibv_reg_mr(f->pd, s->buf, FX_BUF, access);
	assert_non_null(s->mr);
	s->cq = ibv_create_cq(f->ctx, 64, s, ch, 0);
	assert_non_null(s->cq);
	assert_true(s->cq->cqe >= 64);
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = s->cq;
	ia.recv_cq = s->cq;
	ia.cap.max_send_wr = 32;
	ia.cap.max_recv_wr = 32;
	ia.cap.max_send_sge = 2;
	ia.cap.max_recv_sge = 2;
	ia.cap.max_inline_data = 64;
	ia.qp_type = IBV_QPT_RC;
	s->qp = ibv_create_qp(f->pd, &ia);
	assert_non_null(s->qp);
	assert_true(ia.cap.max_send_wr >= 32);
	assert_true(ia.cap.max_inline_data >= 64);
	assert_int_equal(s->qp->state, IBV_QPS_RESET);
}

static void side_destroy(struct fx_side *s)
{
	assert_int_equal(ibv_destroy_qp(s->qp), 0);
	assert_int_equal(ibv_destroy_cq(s->cq), 0);
	assert_int_equal(ibv_dereg_mr(s->mr), 0);
	free(s->buf);
}

/* RST -> INIT -> RTR -> RTS with the masks ibv_rc_pingpong uses. */
void fx_connect_qp(struct fx *f, struct ibv_qp *qp, uint32_t remote_qpn)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
	assert_int_equal(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS),
			 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = remote_qpn;
	a.rq_psn = 7;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = f->gid;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	assert_int_equal(ibv_modify_qp(qp, &a,
				       IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					       IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER),
			 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 7;
	a.max_rd_atomic = 1;
	assert_int_equal(ibv_modify_qp(qp, &a,
				       IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					       IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC),
			 0);
	assert_int_equal(qp->state, IBV_QPS_RTS);
}

int fx_pair_up(void **state)
{
	struct fx *f;

	fx_open_dev(state);
	f = *state;
	f->ch = ibv_create_comp_channel(f->ctx);
	assert_non_null(f->ch);
	side_create(f, &f->a, NULL);
	side_create(f, &f->b, f->ch);
	fx_connect_qp(f, f->a.qp, f->b.qp->qp_num);
	fx_connect_qp(f, f->b.qp, f->a.qp->qp_num);
	return 0;
}

int fx_pair_down(void **state)
{
	struct fx *f = *state;

	side_destroy(&f->a);
	side_destroy(&f->b);
	assert_int_equal(ibv_destroy_comp_channel(f->ch), 0);
	return fx_close_dev(state);
}

uint64_t fx_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

struct ibv_wc fx_poll_one(struct ibv_cq *cq)
{
	struct ibv_wc wc;
	uint64_t end = fx_now_ms() + FX_WAIT_MS;
	int n;

	memset(&wc, 0, sizeof(wc));
	while ((n = ibv_poll_cq(cq, 1, &wc)) == 0 && fx_now_ms() < end)
		;
	assert_int_equal(n, 1);
	return wc;
}

void fx_post(struct fx_side *s, enum ibv_wr_opcode op, uint32_t off, uint32_t len, uint64_t raddr, uint32_t rkey,
		 uint64_t wr_id)
{
	struct ibv_sge sge = {.addr = (uintptr_t)(s->buf + off), .length = len, .lkey = s->mr->lkey};
	struct ibv_send_wr wr, *bad = NULL;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = op;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	assert_int_equal(ibv_post_send(s->qp, &wr, &bad), 0);
}

