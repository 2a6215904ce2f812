/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive tasks of a DOCA_ETH_RXQ_TYPE_REGULAR queue without a network (the software NIC's port
 * attached to nothing: no frame ever arrives): bad input to every receive-task function, the
 * start refusals, a queue that starts with no WQE posted (and ignores a packet buffer, with a
 * warning), the RQ WQE a submit writes (the buffer's data address, its mmap's key,
 * max_packet_size bytes) and the doorbell record, the buffers a submit refuses, a full ring
 * answering DOCA_ERROR_AGAIN, and a stop with tasks in flight flushing them in order through the
 * error callback (DOCA_ERROR_SHUTDOWN), then IDLE once the tasks are freed; the queue starts
 * again afterwards. Frames from Linux are in eth_rxq_task_veth.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>

#include "core/log.h"
#include "doca_buf_inventory.h"
#include "eth/rxq_priv.h"
#include "eth_cpu_util.h"
#include "eth_fixture.h"
#include "opengda.h"
#include "test_util.h"

#define PKT 1024u

static void cb(struct doca_eth_rxq_task_recv *t, union doca_data a, union doca_data b)
{
	(void)t;
	(void)a;
	(void)b;
}

static void test_bad_input_and_start(void **state)
{
	struct cfx *f = *state;
	struct doca_eth_rxq_task_recv *task = NULL;
	struct doca_eth_rxq *q = NULL;
	struct doca_buf *pkt = NULL;
	struct doca_pe *pe = NULL;
	struct doca_mmap *m;
	struct doca_ctx *ctx;
	char log[4096];
	uint64_t v64;
	uint32_t v32;
	uint8_t v8;

	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_set_conf(NULL, cb, cb, 4), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_allocate_init(NULL, NULL, (union doca_data){0}, &task),
			DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_set_pkt(NULL, pkt), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_get_pkt(NULL, &pkt), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_get_l3_ok(NULL, &v8), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_get_l4_ok(NULL, &v8), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_get_flow_tag(NULL, &v32), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_get_rx_hash(NULL, &v32), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_get_timestamp(NULL, &v64), DOCA_ERROR_INVALID_VALUE, "NULL");
	stderr_capture_begin();
	assert_null(doca_eth_rxq_task_recv_as_doca_task(NULL));
	assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "NULL"));
	assert_int_equal(doca_eth_rxq_cap_is_type_supported(f->info, DOCA_ETH_RXQ_TYPE_REGULAR,
							    DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU),
			 DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_cap_is_type_supported(f->info, DOCA_ETH_RXQ_TYPE_REGULAR,
							    DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU),
			 DOCA_ERROR_NOT_SUPPORTED);

	assert_int_equal(doca_eth_rxq_create(f->dev, 16, PKT, &q), DOCA_SUCCESS);
	ctx = doca_eth_rxq_as_doca_ctx(q);
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_set_conf(q, NULL, cb, 4), DOCA_ERROR_INVALID_VALUE, "callbacks");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_set_conf(q, cb, NULL, 4), DOCA_ERROR_INVALID_VALUE, "callbacks");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_set_conf(q, cb, cb, 0), DOCA_ERROR_INVALID_VALUE, "tasks");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_set_conf(q, cb, cb, OPENGDA_ETH_RXQ_MAX_TASKS + 1),
			DOCA_ERROR_INVALID_VALUE, "tasks");
	/* a CYCLIC queue has no receive tasks; a REGULAR one not started cannot allocate them */
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_allocate_init(q, NULL, (union doca_data){0}, &task),
			DOCA_ERROR_NOT_SUPPORTED, "REGULAR");
	assert_int_equal(doca_eth_rxq_set_type(q, DOCA_ETH_RXQ_TYPE_REGULAR), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_allocate_init(q, NULL, (union doca_data){0}, NULL),
			DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_allocate_init(q, NULL, (union doca_data){0}, &task), DOCA_ERROR_BAD_STATE,
			"RUNNING");
	/* no task configuration, then no engine, then striding, then a GPU data path */
	ecpu_start_refused(ctx, DOCA_ERROR_BAD_STATE, "doca_eth_rxq_task_recv_set_conf");
	assert_int_equal(doca_eth_rxq_task_recv_set_conf(q, cb, cb, 4), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_BAD_STATE, "progress engine");
	assert_int_equal(doca_pe_create(&pe), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(pe, ctx), DOCA_SUCCESS);
	assert_int_equal(opengda_eth_rxq_set_striding(q, 8), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_NOT_SUPPORTED, "striding");
	assert_int_equal(opengda_eth_rxq_set_striding(q, 0), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_gpu_enable_mcst_qp(q), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_NOT_SUPPORTED, "MCST");
	assert_int_equal(doca_eth_rxq_destroy(q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_create(f->dev, 16, PKT, &q), DOCA_SUCCESS);
	ctx = doca_eth_rxq_as_doca_ctx(q);
	assert_int_equal(doca_eth_rxq_set_type(q, DOCA_ETH_RXQ_TYPE_REGULAR), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_task_recv_set_conf(q, cb, cb, 4), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(ctx, f->gpu), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_NOT_SUPPORTED, "CYCLIC");
	assert_int_equal(doca_eth_rxq_destroy(q), DOCA_SUCCESS);

	/* a packet buffer on a REGULAR queue: start says it is not used, and posts nothing */
	assert_int_equal(doca_eth_rxq_create(f->dev, 16, PKT, &q), DOCA_SUCCESS);
	ctx = doca_eth_rxq_as_doca_ctx(q);
	assert_int_equal(doca_eth_rxq_set_type(q, DOCA_ETH_RXQ_TYPE_REGULAR), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_task_recv_set_conf(q, cb, cb, 4), DOCA_SUCCESS);
	m = cfx_mmap(f, 0, 16 * PKT, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(q, m, 0, 16 * PKT), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(pe, ctx), DOCA_SUCCESS);
	assert_true(ogda_log_set_level(OGDA_LOG_WARNING)); /* a warning: below the default level */
	stderr_capture_begin();
	assert_int_equal(doca_ctx_start(ctx), DOCA_SUCCESS);
	assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "does not use the packet buffer"));
	assert_true(ogda_log_set_level(OGDA_LOG_LEVEL_DEFAULT));
	assert_int_equal(q->res.handle->wqe_pi, 0);
	assert_int_equal(ntohl(*q->res.handle->wqe_db_rec), 0);
	assert_int_equal(doca_pe_progress(pe), 0); /* nothing in flight: nothing to do */
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_set_conf(q, cb, cb, 4), DOCA_ERROR_BAD_STATE, "IDLE");
	assert_int_equal(doca_ctx_stop(ctx), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_destroy(q), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(pe), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

/* The data segment of RQ WQE @i: @bytes, @mkey, @addr. */
static void check_wqe(const struct doca_gpu_eth_rxq *h, uint32_t i, uint32_t bytes, uint32_t mkey, const void *addr)
{
	const uint8_t *w = h->wqe_addr + (size_t)(i & h->wqe_mask) * 16u;
	uint32_t be;
	uint64_t a;

	memcpy(&be, w, 4);
	assert_int_equal(ntohl(be), bytes);
	memcpy(&be, w + 4, 4);
	assert_int_equal(ntohl(be), mkey);
	memcpy(&a, w + 8, 8);
	assert_true(be64toh(a) == (uint64_t)(uintptr_t)addr);
}

/*
 * A queue of 4 WQEs and 8 tasks: the buffers a submit refuses, the WQEs of 4 submits, the 5th
 * answering AGAIN, a stop flushing the 4 in order, and the queue starting again afterwards.
 */
static void test_submit_ring_and_flush(void **state)
{
	struct cfx *f = *state;
	struct doca_gpu_eth_rxq *h;
	struct doca_buf *small = NULL, *offset = NULL, *foreign = NULL, *got = NULL;
	struct doca_mmap *fm;
	struct doca_ctx *ctx;
	struct ecpu_reg r;
	uint32_t mkey = 0, i;
	char log[4096];

	ecpu_reg_start(f->dev, f->buf, 16 * PKT, 4, PKT, 8, PKT, 5, &r);
	ctx = doca_eth_rxq_as_doca_ctx(r.q);
	h = r.q->res.handle;
	assert_int_equal(doca_mmap_get_mkey(r.m, f->dev, &mkey), DOCA_SUCCESS);
	assert_int_equal(h->wqe_num, 4);
	assert_int_equal(h->wqe_pi, 0);
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_allocate_init(r.q, r.buf[0], (union doca_data){0}, &r.task[0]),
			DOCA_ERROR_NO_MEMORY, "allocated");

	/* buffers refused at submit (the task stays the application's): none, too small, no room past its data, an mmap not on the device */
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(r.inv, r.m, f->buf + 8 * PKT, PKT - 1, &small), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_args(r.inv, r.m, f->buf + 9 * PKT, PKT, f->buf + 9 * PKT + 1, 0,
							    &offset),
			 DOCA_SUCCESS);
	assert_int_equal(doca_mmap_create(&fm), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(fm, f->buf + 10 * PKT, PKT), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(fm), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(r.inv, fm, f->buf + 10 * PKT, PKT, &foreign), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_set_pkt(r.task[7], NULL), DOCA_ERROR_INVALID_VALUE, "NULL");
	assert_int_equal(doca_eth_rxq_task_recv_set_pkt(r.task[7], small), DOCA_SUCCESS);
	TEST_EXPECT_ERR(ecpu_reg_submit(&r, 7), DOCA_ERROR_INVALID_VALUE, "max_packet_size");
	assert_int_equal(doca_task_get_status(doca_eth_rxq_task_recv_as_doca_task(r.task[7])), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_eth_rxq_task_recv_set_pkt(r.task[7], offset), DOCA_SUCCESS);
	TEST_EXPECT_ERR(ecpu_reg_submit(&r, 7), DOCA_ERROR_INVALID_VALUE, "max_packet_size");
	assert_int_equal(doca_eth_rxq_task_recv_set_pkt(r.task[7], foreign), DOCA_SUCCESS);
	stderr_capture_begin(); /* doca_mmap_get_mkey logs its own line too */
	assert_int_equal(ecpu_reg_submit(&r, 7), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "receive buffer's mmap is not registered"));
	assert_int_equal(h->wqe_pi, 0); /* nothing posted */
	assert_int_equal(doca_eth_rxq_task_recv_set_pkt(r.task[7], r.buf[7]), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_task_recv_get_pkt(r.task[7], &got), DOCA_SUCCESS);
	assert_ptr_equal(got, r.buf[7]);
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_get_pkt(r.task[7], NULL), DOCA_ERROR_INVALID_VALUE, "NULL");

	/* 4 submits: WQE i names buffer i (its data address, the mmap's key, max_packet_size bytes) */
	for (i = 0; i < 4; i++) {
		assert_int_equal(ecpu_reg_submit(&r, i), DOCA_SUCCESS);
		check_wqe(h, i, PKT, mkey, f->buf + (size_t)i * PKT);
		assert_int_equal(h->wqe_pi, i + 1);
		assert_int_equal(ntohl(*h->wqe_db_rec), i + 1);
	}
	TEST_EXPECT_ERR(doca_eth_rxq_task_recv_set_pkt(r.task[0], r.buf[0]), DOCA_ERROR_BAD_STATE, "in flight");
	/* the ring is full: refused at once, nothing posted; nothing arrives, nothing completes */
	assert_int_equal(ecpu_reg_submit(&r, 4), DOCA_ERROR_AGAIN);
	assert_int_equal(h->wqe_pi, 4);
	assert_int_equal(doca_pe_progress(r.pe), 0);
	assert_int_equal(r.n, 0);

	/* stop: STOPPING; the next progress flushes the 4 in order, status SHUTDOWN; IDLE once all are freed */
	r.free_in_cb = true;
	assert_int_equal(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(ecpu_state(ctx), DOCA_CTX_STATE_STOPPING);
	TEST_EXPECT_ERR(doca_eth_rxq_destroy(r.q), DOCA_ERROR_BAD_STATE, "stop it");
	assert_int_equal(ecpu_reg_submit(&r, 4), DOCA_ERROR_BAD_STATE);
	(void)doca_pe_progress(r.pe);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.failed, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(r.order[i], i);
		assert_int_equal(r.status[i], DOCA_ERROR_SHUTDOWN);
		assert_int_equal(r.len[i], 0); /* nothing received: the buffer stays empty */
	}
	assert_int_equal(ecpu_state(ctx), DOCA_CTX_STATE_STOPPING); /* tasks 4..7 still allocated */
	for (i = 4; i < 8; i++) {
		doca_task_free(doca_eth_rxq_task_recv_as_doca_task(r.task[i]));
		r.task[i] = NULL;
	}
	(void)doca_pe_progress(r.pe);
	assert_int_equal(ecpu_state(ctx), DOCA_CTX_STATE_IDLE);

	/* it starts again, empty, and takes tasks again */
	assert_int_equal(doca_ctx_start(ctx), DOCA_SUCCESS);
	h = r.q->res.handle;
	assert_int_equal(h->wqe_pi, 0);
	assert_int_equal(doca_eth_rxq_task_recv_allocate_init(r.q, r.buf[0], (union doca_data){.u64 = 0}, &r.task[0]),
			 DOCA_SUCCESS);
	assert_int_equal(ecpu_reg_submit(&r, 0), DOCA_SUCCESS);
	check_wqe(h, 0, PKT, mkey, f->buf);

	assert_int_equal(doca_buf_dec_refcount(small, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(offset, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(foreign, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(fm), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(fm), DOCA_SUCCESS);
	ecpu_reg_destroy(&r);
	assert_int_equal(r.n, 5);
	assert_int_equal(r.status[4], DOCA_ERROR_SHUTDOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_input_and_start, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_submit_ring_and_flush, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
