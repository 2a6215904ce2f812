/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Completion channels and async events on the software NIC: channel life cycle and handle,
 * arming (next / solicited, a CQE already there), one event per arm naming the CQ and its
 * context, acknowledgement counts, refusals while events are unacknowledged; async QP
 * errors from an RDMA WRITE with a bad rkey (requester QP_FATAL, responder QP_ACCESS_ERR,
 * both with the CQE syndrome), acknowledgement, and the async handle.
 *
 * Completions are produced with the bridge data path (doca_verbs_bridge_post_send).
 */
#include "verbs_fixture.h"

#include "opengda_mlx5.h"
#include "test_util.h"

#include <fcntl.h>
#include <infiniband/verbs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

static char logbuf[16384];

static int tag_a, tag_b; /* cq_context values */

struct efx {
	struct vfx f;
	struct doca_verbs_comp_channel *cc;
	struct doca_verbs_cq *cq_a, *cq_b;
	struct doca_verbs_qp *qp_a, *qp_b;
	uint32_t qpn_a, qpn_b;
	struct vfx_buf src, dst;
};

static int setup(void **state)
{
	struct efx *e = calloc(1, sizeof(*e));

	if (e == NULL)
		return -1;
	vfx_open(&e->f);
	assert_int_equal(doca_verbs_comp_channel_create(e->f.ctx, &e->cc), DOCA_SUCCESS);
	e->cq_a = vfx_cq(&e->f, 16, e->cc, &tag_a);
	e->cq_b = vfx_cq(&e->f, 16, e->cc, &tag_b);
	e->qp_a = vfx_qp(&e->f, DOCA_VERBS_QP_TYPE_RC, e->cq_a, e->cq_a, 8, 8);
	e->qp_b = vfx_qp(&e->f, DOCA_VERBS_QP_TYPE_RC, e->cq_b, e->cq_b, 8, 8);
	assert_int_equal(doca_verbs_qp_get_qpn(e->qp_a, &e->qpn_a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(e->qp_b, &e->qpn_b), DOCA_SUCCESS);
	vfx_qp_connect(&e->f, e->qp_a, DOCA_VERBS_QP_TYPE_RC, e->qpn_b, 500, 600);
	vfx_qp_connect(&e->f, e->qp_b, DOCA_VERBS_QP_TYPE_RC, e->qpn_a, 600, 500);
	vfx_buf_create(&e->f, 256, 0x77, &e->src);
	vfx_buf_create(&e->f, 256, 0x00, &e->dst);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct efx *e = *state;
	struct doca_verbs_async_event ev;

	/* events a failed test left behind */
	while (doca_verbs_get_async_event(e->f.ctx, &ev) == DOCA_SUCCESS)
		(void)doca_verbs_ack_async_event(&ev);
	vfx_buf_destroy(&e->src);
	vfx_buf_destroy(&e->dst);
	assert_int_equal(doca_verbs_qp_destroy(e->qp_a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(e->qp_b), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(e->cq_a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(e->cq_b), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_comp_channel_destroy(e->cc), DOCA_SUCCESS);
	vfx_close(&e->f);
	free(e);
	return 0;
}

static void post_write(struct efx *e, uint64_t wr_id, uint32_t rkey, bool solicited)
{
	struct ibv_sge sge = {.addr = (uintptr_t)e->src.addr, .length = 64, .lkey = e->src.lkey};
	struct ibv_send_wr wr, *bad = NULL;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED | (solicited ? IBV_SEND_SOLICITED : 0);
	wr.wr.rdma.remote_addr = (uintptr_t)e->dst.addr;
	wr.wr.rdma.rkey = rkey;
	assert_int_equal(doca_verbs_bridge_post_send(e->qp_a, &wr, &bad), 0);
}

static void post_send(struct efx *e, uint64_t wr_id, bool solicited)
{
	struct ibv_sge sge = {.addr = (uintptr_t)e->src.addr, .length = 16, .lkey = e->src.lkey};
	struct ibv_send_wr wr, *bad = NULL;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED | (solicited ? IBV_SEND_SOLICITED : 0);
	assert_int_equal(doca_verbs_bridge_post_send(e->qp_a, &wr, &bad), 0);
}

static void post_recv(struct efx *e, uint64_t wr_id)
{
	struct ibv_sge sge = {.addr = (uintptr_t)e->dst.addr, .length = 64, .lkey = e->dst.lkey};
	struct ibv_recv_wr wr, *bad = NULL;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	assert_int_equal(doca_verbs_bridge_post_recv(e->qp_b, &wr, &bad), 0);
}

/* ---- completion channels ---- */

static void test_channel_life_cycle(void **state)
{
	struct efx *e = *state;
	struct doca_verbs_comp_channel *cc2 = NULL;
	doca_event_handle_t h;
	struct doca_verbs_cq *cq = NULL;
	void *cq_ctx = (void *)0x1;

	assert_int_equal(doca_verbs_comp_channel_create(e->f.ctx, &cc2), DOCA_SUCCESS);
	h = doca_verbs_comp_channel_get_handle(cc2);
	assert_true(h >= 0);
	assert_int_not_equal(h, doca_verbs_comp_channel_get_handle(e->cc));
	assert_true(fcntl(h, F_GETFD) >= 0);
	assert_true(fcntl(h, F_GETFL) & O_NONBLOCK);
	assert_false(vfx_fd_readable(h, 0));
	assert_int_equal(doca_verbs_get_cq_event(cc2, &cq, &cq_ctx), DOCA_ERROR_AGAIN);
	assert_null(cq);
	assert_ptr_equal(cq_ctx, (void *)0x1);
	assert_int_equal(doca_verbs_comp_channel_destroy(cc2), DOCA_SUCCESS);

	stderr_capture_begin();
	assert_int_equal(doca_verbs_comp_channel_create(NULL, &cc2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_comp_channel_create(e->f.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_comp_channel_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_comp_channel_get_handle(NULL), doca_event_invalid_handle);
	assert_int_equal(doca_verbs_get_cq_event(NULL, &cq, &cq_ctx), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_get_cq_event(e->cc, NULL, &cq_ctx), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_get_cq_event(e->cc, &cq, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_ack_cq_events(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	{
		static const char *const lines[] = {"verbs_context and verbs_comp_channel must not be NULL",
						    "verbs_comp_channel must not be NULL",
						    "verbs_comp_channel, verbs_cq and cq_context must not be NULL",
						    "verbs_cq must not be NULL", NULL};

		assert_true(vfx_log_has(logbuf, lines));
	}
	/* the fixture's channel serves two CQs */
	stderr_capture_begin();
	assert_int_equal(doca_verbs_comp_channel_destroy(e->cc), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "swnic0: the completion channel still serves 2 CQs"));
}

/* Armed, one completion: the fd turns readable and one event names the CQ and its context. */
static void test_arm_and_event(void **state)
{
	struct efx *e = *state;
	doca_event_handle_t h = doca_verbs_comp_channel_get_handle(e->cc);
	struct doca_verbs_cq *cq = NULL;
	void *cq_ctx = NULL;
	struct ibv_wc wc;

	assert_int_equal(opengda_verbs_cq_arm(e->cq_a, false), DOCA_SUCCESS);
	assert_false(vfx_fd_readable(h, 0));
	post_write(e, 1, e->dst.rkey, false);
	assert_true(vfx_fd_readable(h, 5000));
	assert_int_equal(doca_verbs_get_cq_event(e->cc, &cq, &cq_ctx), DOCA_SUCCESS);
	assert_ptr_equal(cq, e->cq_a);
	assert_ptr_equal(cq_ctx, &tag_a);
	/* one event per arm */
	assert_int_equal(doca_verbs_get_cq_event(e->cc, &cq, &cq_ctx), DOCA_ERROR_AGAIN);
	assert_false(vfx_fd_readable(h, 0));
	assert_int_equal(vfx_poll(e->cq_a, &wc, 1, 5000), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 1);

	/* acknowledgement counts */
	stderr_capture_begin();
	assert_int_equal(doca_verbs_ack_cq_events(e->cq_a, 2), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "2 events acknowledged but only 1 taken and not yet acknowledged"));
	assert_int_equal(doca_verbs_ack_cq_events(e->cq_a, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ack_cq_events(e->cq_a, 1), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_ack_cq_events(e->cq_a, 1), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "1 events acknowledged but only 0 taken and not yet acknowledged"));

	/* armed again: the next completion raises the next event */
	assert_int_equal(opengda_verbs_cq_arm(e->cq_a, false), DOCA_SUCCESS);
	post_write(e, 2, e->dst.rkey, false);
	assert_true(vfx_fd_readable(h, 5000));
	assert_int_equal(doca_verbs_get_cq_event(e->cc, &cq, &cq_ctx), DOCA_SUCCESS);
	assert_ptr_equal(cq, e->cq_a);
	assert_ptr_equal(cq_ctx, &tag_a);
	assert_int_equal(vfx_poll(e->cq_a, &wc, 1, 5000), 1);
	assert_int_equal(wc.wr_id, 2);

	/* that event unacknowledged: the CQ stays even without QPs */
	assert_int_equal(doca_verbs_qp_destroy(e->qp_a), DOCA_SUCCESS);
	e->qp_a = vfx_qp(&e->f, DOCA_VERBS_QP_TYPE_RC, e->cq_b, e->cq_b, 8, 8); /* for the teardown */
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_destroy(e->cq_a), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "has 1 completion and 0 async events not acknowledged"));
	assert_int_equal(doca_verbs_ack_cq_events(e->cq_a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(e->cq_a), DOCA_SUCCESS);
	e->cq_a = vfx_cq(&e->f, 16, e->cc, &tag_a);
}

/* Not armed: completions raise nothing. */
static void test_no_arm_no_event(void **state)
{
	struct efx *e = *state;
	doca_event_handle_t h = doca_verbs_comp_channel_get_handle(e->cc);
	struct doca_verbs_cq *cq = NULL;
	void *cq_ctx = NULL;
	struct ibv_wc wc;

	post_write(e, 3, e->dst.rkey, false);
	assert_int_equal(vfx_poll(e->cq_a, &wc, 1, 5000), 1);
	assert_false(vfx_fd_readable(h, 100));
	assert_int_equal(doca_verbs_get_cq_event(e->cc, &cq, &cq_ctx), DOCA_ERROR_AGAIN);
}

/* A CQE already beyond the consumer index when the CQ is armed raises the event at once. */
static void test_arm_with_cqe_pending(void **state)
{
	struct efx *e = *state;
	doca_event_handle_t h = doca_verbs_comp_channel_get_handle(e->cc);
	struct doca_verbs_cq *cq = NULL;
	void *cq_ctx = NULL, *ring = NULL;
	uint32_t n = 0;
	uint8_t esz = 0;
	struct ibv_wc wc;
	int i;

	assert_int_equal(doca_verbs_cq_get_wq(e->cq_a, &ring, &n, &esz), DOCA_SUCCESS);
	post_write(e, 4, e->dst.rkey, false);
	for (i = 0; i < 50000; i++) { /* the CQE written, not consumed */
		struct timespec ts = {0, 100000};

		if ((__atomic_load_n((uint8_t *)ring + 63, __ATOMIC_ACQUIRE) >> 4) != 0xf)
			break;
		nanosleep(&ts, NULL);
	}
	assert_true(i < 50000);
	assert_false(vfx_fd_readable(h, 50));
	assert_int_equal(opengda_verbs_cq_arm(e->cq_a, false), DOCA_SUCCESS);
	assert_true(vfx_fd_readable(h, 5000));
	assert_int_equal(doca_verbs_get_cq_event(e->cc, &cq, &cq_ctx), DOCA_SUCCESS);
	assert_ptr_equal(cq, e->cq_a);
	assert_int_equal(doca_verbs_ack_cq_events(e->cq_a, 1), DOCA_SUCCESS);
	assert_int_equal(vfx_poll(e->cq_a, &wc, 1, 5000), 1);
}

/* Solicited-only arm on the receiver: an unsolicited receive raises nothing, a solicited one does. */
static void test_arm_solicited_only(void **state)
{
	struct efx *e = *state;
	doca_event_handle_t h = doca_verbs_comp_channel_get_handle(e->cc);
	struct doca_verbs_cq *cq = NULL;
	void *cq_ctx = NULL;
	struct ibv_wc wc[2];

	post_recv(e, 10);
	post_recv(e, 11);
	assert_int_equal(opengda_verbs_cq_arm(e->cq_b, true), DOCA_SUCCESS);
	post_send(e, 20, false);
	assert_int_equal(vfx_poll(e->cq_a, wc, 1, 5000), 1); /* the sender's completion: its CQ is not armed */
	assert_int_equal(wc[0].status, IBV_WC_SUCCESS);
	assert_false(vfx_fd_readable(h, 100));
	post_send(e, 21, true);
	assert_true(vfx_fd_readable(h, 5000));
	assert_int_equal(doca_verbs_get_cq_event(e->cc, &cq, &cq_ctx), DOCA_SUCCESS);
	assert_ptr_equal(cq, e->cq_b);
	assert_ptr_equal(cq_ctx, &tag_b);
	assert_int_equal(doca_verbs_ack_cq_events(e->cq_b, 1), DOCA_SUCCESS);
	assert_int_equal(vfx_poll(e->cq_b, wc, 2, 5000), 2);
	assert_int_equal(wc[0].wr_id, 10);
	assert_int_equal(wc[1].wr_id, 11);
	assert_int_equal(vfx_poll(e->cq_a, wc, 1, 5000), 1);
}

static void test_arm_bad_input(void **state)
{
	struct efx *e = *state;
	struct doca_verbs_cq *plain = vfx_cq(&e->f, 4, NULL, NULL);

	stderr_capture_begin();
	assert_int_equal(opengda_verbs_cq_arm(plain, false), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_cq_arm(NULL, false), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "has no completion channel: arming it would raise events nobody reads"));
	assert_non_null(strstr(logbuf, "verbs_cq must not be NULL"));
	assert_int_equal(doca_verbs_cq_destroy(plain), DOCA_SUCCESS);
}

/* ---- async events ---- */

/*
 * Events that name no object: port and device events (ibv_event_type values such as
 * IBV_EVENT_PORT_ACTIVE, 9, or IBV_EVENT_DEVICE_FATAL, 8) carry none, and an event of an object
 * type whose element is NULL is not one the library gave out. Acknowledging the first kind
 * succeeds without touching any object; the second is refused with a log line. Neither crashes.
 */
static void test_async_ack_event_without_object(void **state)
{
	struct efx *e = *state;
	static const int no_object_types[] = {9 /* PORT_ACTIVE */, 10 /* PORT_ERR */, 8 /* DEVICE_FATAL */};
	static const enum doca_verbs_async_event_type object_types[] = {
		DOCA_VERBS_EVENT_CQ_ERR, DOCA_VERBS_EVENT_QP_FATAL, DOCA_VERBS_EVENT_QP_REQ_ERR,
		DOCA_VERBS_EVENT_QP_ACCESS_ERR, DOCA_VERBS_EVENT_SRQ_ERR};
	struct doca_verbs_async_event ev;

	for (size_t i = 0; i < sizeof(no_object_types) / sizeof(no_object_types[0]); i++) {
		memset(&ev, 0, sizeof(ev));
		ev.event_type = (enum doca_verbs_async_event_type)no_object_types[i];
		ev.context = e->f.ctx;
		assert_int_equal(doca_verbs_ack_async_event(&ev), DOCA_SUCCESS);
		assert_null(ev.context);
	}
	for (size_t i = 0; i < sizeof(object_types) / sizeof(object_types[0]); i++) {
		static const char *const lines[] = {"names no object", NULL};

		memset(&ev, 0, sizeof(ev));
		ev.event_type = object_types[i];
		ev.context = e->f.ctx;
		stderr_capture_begin();
		assert_int_equal(doca_verbs_ack_async_event(&ev), DOCA_ERROR_INVALID_VALUE);
		stderr_capture_end(logbuf, sizeof(logbuf));
		assert_true(vfx_log_has(logbuf, lines));
	}
	/* Nothing was pending, and nothing is now. */
	assert_int_equal(doca_verbs_get_async_event(e->f.ctx, &ev), DOCA_ERROR_AGAIN);
}

static void test_async_nothing_pending(void **state)
{
	struct efx *e = *state;
	struct doca_verbs_async_event ev;
	doca_event_handle_t h = -1;

	memset(&ev, 0, sizeof(ev));
	assert_int_equal(opengda_verbs_context_get_async_handle(e->f.ctx, &h), DOCA_SUCCESS);
	assert_true(h >= 0);
	assert_true(fcntl(h, F_GETFD) >= 0);
	assert_false(vfx_fd_readable(h, 0));
	assert_int_equal(doca_verbs_get_async_event(e->f.ctx, &ev), DOCA_ERROR_AGAIN);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_get_async_event(NULL, &ev), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_get_async_event(e->f.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_ack_async_event(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_ack_async_event(&ev), DOCA_ERROR_INVALID_VALUE); /* never taken */
	assert_int_equal(opengda_verbs_context_get_async_handle(NULL, &h), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_context_get_async_handle(e->f.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	{
		static const char *const lines[] = {
			"verbs_context and async_event must not be NULL",
			"async_event must be an event from doca_verbs_get_async_event() not yet acknowledged",
			"verbs_context and handle must not be NULL", NULL};

		assert_true(vfx_log_has(logbuf, lines));
	}
}

/*
 * An RDMA WRITE with a bad rkey: the requester's error CQE (remote access), its QP moved to
 * ERR with QP_FATAL, the responder's QP_ACCESS_ERR; both carry syndrome 0x13.
 */
static void test_async_qp_errors(void **state)
{
	struct efx *e = *state;
	struct doca_verbs_async_event ev[2], extra;
	doca_event_handle_t h = -1;
	struct ibv_wc wc;
	int got = 0, fatal = -1, access = -1;

	assert_int_equal(opengda_verbs_context_get_async_handle(e->f.ctx, &h), DOCA_SUCCESS);
	post_write(e, 30, e->dst.rkey ^ 0x5a5a00u, false);
	assert_int_equal(vfx_poll(e->cq_a, &wc, 1, 5000), 1);
	assert_int_equal(wc.status, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(wc.wr_id, 30);
	for (int tries = 0; got < 2 && tries < 50; tries++) {
		if (!vfx_fd_readable(h, 100))
			continue;
		while (got < 2 && doca_verbs_get_async_event(e->f.ctx, &ev[got]) == DOCA_SUCCESS)
			got++;
	}
	assert_int_equal(got, 2);
	for (int i = 0; i < 2; i++) {
		assert_ptr_equal(ev[i].context, e->f.ctx);
		assert_int_equal(ev[i].syndrome, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
		if (ev[i].event_type == DOCA_VERBS_EVENT_QP_FATAL)
			fatal = i;
		else if (ev[i].event_type == DOCA_VERBS_EVENT_QP_ACCESS_ERR)
			access = i;
	}
	assert_true(fatal >= 0);
	assert_true(access >= 0);
	assert_ptr_equal(ev[fatal].element.qp, e->qp_a);
	assert_ptr_equal(ev[access].element.qp, e->qp_b);
	assert_int_equal(doca_verbs_get_async_event(e->f.ctx, &extra), DOCA_ERROR_AGAIN);
	assert_false(vfx_fd_readable(h, 0));

	/* the requester QP is in ERR on the device */
	{
		struct doca_verbs_qp_attr *a = vfx_attr();
		struct doca_verbs_qp_init_attr *ia = NULL;
		int mask = 0;

		assert_int_equal(doca_verbs_qp_init_attr_create(&ia), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_query(e->qp_a, a, ia, &mask), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_get_current_state(a), DOCA_VERBS_QP_STATE_ERR);
		assert_int_equal(doca_verbs_qp_init_attr_destroy(ia), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
	}

	/* unacknowledged events keep their QPs and the context */
	stderr_capture_begin();
	assert_int_equal(doca_verbs_qp_destroy(e->qp_a), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_verbs_qp_destroy(e->qp_b), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_verbs_context_destroy(e->f.ctx), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "has 1 async events not acknowledged"));
	assert_non_null(strstr(logbuf, "and 2 unacknowledged async events; destroy them first"));

	assert_int_equal(doca_verbs_ack_async_event(&ev[fatal]), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_ack_async_event(&ev[fatal]), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_destroy(e->qp_b), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "async_event must be an event from doca_verbs_get_async_event() not yet acknowledged"));
	assert_int_equal(doca_verbs_ack_async_event(&ev[access]), DOCA_SUCCESS);
	/* both QPs may go now; the fixture's teardown destroys them */
}

/* An event of an object destroyed before it was read is dropped, not handed back. */
static void test_async_event_of_destroyed_qp_dropped(void **state)
{
	struct efx *e = *state;
	struct doca_verbs_async_event ev;
	doca_event_handle_t h = -1;
	struct ibv_wc wc;

	assert_int_equal(opengda_verbs_context_get_async_handle(e->f.ctx, &h), DOCA_SUCCESS);
	post_write(e, 31, e->dst.rkey ^ 0x5a5a00u, false);
	assert_int_equal(vfx_poll(e->cq_a, &wc, 1, 5000), 1);
	assert_true(vfx_fd_readable(h, 5000));
	/* both QPs go before their events are read (recreated for the teardown) */
	assert_int_equal(doca_verbs_qp_destroy(e->qp_a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(e->qp_b), DOCA_SUCCESS);
	e->qp_a = vfx_qp(&e->f, DOCA_VERBS_QP_TYPE_RC, e->cq_a, e->cq_a, 8, 8);
	e->qp_b = vfx_qp(&e->f, DOCA_VERBS_QP_TYPE_RC, e->cq_b, e->cq_b, 8, 8);
	{
		struct timespec ts = {0, 50 * 1000 * 1000}; /* a late responder event has arrived too */

		nanosleep(&ts, NULL);
	}
	assert_int_equal(doca_verbs_get_async_event(e->f.ctx, &ev), DOCA_ERROR_AGAIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_channel_life_cycle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_and_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_arm_no_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_with_cqe_pending, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_solicited_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_async_nothing_pending, setup, teardown),
		cmocka_unit_test_setup_teardown(test_async_ack_event_without_object, setup, teardown),
		cmocka_unit_test_setup_teardown(test_async_qp_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_async_event_of_destroyed_qp_dropped, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
