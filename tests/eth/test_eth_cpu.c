/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU data path of DOCA Ethernet queues without a network (the software NIC's port attached
 * to nothing: its sends complete and leave nowhere): bad input to every function of it, the
 * start refusals, the WQE the send task writes (the queue's checksum flags in its Ethernet
 * segment, one data segment naming the packet), a full send ring answering DOCA_ERROR_AGAIN
 * at once and taking sends again after progress, and a started CPU receive queue having no GPU
 * handle. Frames to and from Linux are in eth_cpu_veth.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>

#include "doca_buf_inventory.h"
#include "doca_gpunetio_eth_def.h"
#include "eth/eth_priv.h"
#include "eth/rxq_priv.h"
#include "eth_cpu_util.h"
#include "eth_fixture.h"
#include "opengda.h"
#include "opengda_mlx5.h"
#include "test_util.h"

#define PKT 1024u

static void cb(struct doca_eth_txq_task_send *t, union doca_data a, union doca_data b)
{
	(void)t;
	(void)a;
	(void)b;
}

static void rcb(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data d)
{
	(void)ev;
	(void)pkt;
	(void)d;
}

static void test_txq_bad_input(void **state)
{
	struct cfx *f = *state;
	struct doca_eth_txq *q = NULL;
	struct doca_eth_txq_task_send *task = NULL;
	struct doca_buf *pkt = NULL;
	struct doca_pe *pe = NULL;
	struct doca_ctx *ctx;

	TEST_EXPECT_ERR(doca_eth_txq_cap_is_type_supported(NULL, DOCA_ETH_TXQ_TYPE_REGULAR, DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU),
			DOCA_ERROR_INVALID_VALUE, "devinfo");
	TEST_EXPECT_ERR(doca_eth_txq_cap_is_type_supported(f->info, (enum doca_eth_txq_type)3,
							   DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU),
			DOCA_ERROR_INVALID_VALUE, "unknown");
	TEST_EXPECT_ERR(doca_eth_txq_cap_is_type_supported(f->info, DOCA_ETH_TXQ_TYPE_REGULAR,
							   (enum doca_eth_txq_data_path_type)5),
			DOCA_ERROR_INVALID_VALUE, "unknown");
	assert_int_equal(doca_eth_txq_cap_is_type_supported(f->info, DOCA_ETH_TXQ_TYPE_REGULAR,
							    DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU),
			 DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_cap_is_type_supported(f->info, DOCA_ETH_TXQ_TYPE_REGULAR,
							    DOCA_ETH_TXQ_DATA_PATH_TYPE_GPU),
			 DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_txq_set_type(NULL, DOCA_ETH_TXQ_TYPE_REGULAR), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_conf(NULL, cb, cb, 4), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_allocate_init(NULL, NULL, (union doca_data){0}, &task),
			DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_get_pkt(NULL, &pkt), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_pkt(NULL, pkt), DOCA_ERROR_INVALID_VALUE, "NULL");
	stderr_capture_begin();
	assert_null(doca_eth_txq_task_send_as_doca_task(NULL));
	stderr_capture_end((char[256]){0}, 256);

	assert_int_equal(doca_eth_txq_create(f->dev, 16, &q), DOCA_SUCCESS);
	ctx = doca_eth_txq_as_doca_ctx(q);
	TEST_EXPECT_ERR(doca_eth_txq_set_type(q, (enum doca_eth_txq_type)1), DOCA_ERROR_INVALID_VALUE, "unknown");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_conf(q, NULL, cb, 4), DOCA_ERROR_INVALID_VALUE, "callbacks");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_conf(q, cb, NULL, 4), DOCA_ERROR_INVALID_VALUE, "callbacks");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_conf(q, cb, cb, 0), DOCA_ERROR_INVALID_VALUE, "tasks");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_conf(q, cb, cb, OPENGDA_ETH_TXQ_MAX_TASKS + 1), DOCA_ERROR_INVALID_VALUE,
			"tasks");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_allocate_init(q, NULL, (union doca_data){0}, &task), DOCA_ERROR_BAD_STATE,
			"RUNNING");
	/* no data path at all, then send tasks without an engine, then GPU-only options */
	ecpu_start_refused(ctx, DOCA_ERROR_BAD_STATE, "no data path");
	assert_int_equal(doca_eth_txq_task_send_set_conf(q, cb, cb, 4), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_BAD_STATE, "progress engine");
	assert_int_equal(doca_pe_create(&pe), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(pe, ctx), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_gpu_set_uar_on_cpu(q), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_NOT_SUPPORTED, "GPU data path options");
	assert_int_equal(doca_eth_txq_destroy(q), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(pe), DOCA_SUCCESS);
}

/* A running CPU send queue: allocation limits, packets a submit refuses, a started queue's setters. */
static void test_txq_tasks(void **state)
{
	struct cfx *f = *state;
	struct doca_eth_txq_task_send *t[3] = {NULL};
	struct doca_buf_inventory *inv = NULL;
	struct doca_buf *pkt = NULL, *got = NULL;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_mmap *m;
	struct ecpu_tx tx;
	uint32_t mkey = 0;

	ecpu_tx_start(f->dev, 16, 2, true, true, &tx);
	m = efx_buf_mmap(f, &mkey);
	assert_int_equal(doca_buf_inventory_create(4, &inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_start(inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_args(inv, m, f->buf, 256, f->buf, 0, &pkt), DOCA_SUCCESS);

	TEST_EXPECT_ERR(doca_eth_txq_set_type(tx.q, DOCA_ETH_TXQ_TYPE_REGULAR), DOCA_ERROR_BAD_STATE, "IDLE");
	TEST_EXPECT_ERR(doca_eth_txq_get_gpu_handle(tx.q, &h), DOCA_ERROR_NOT_SUPPORTED, "CPU data path");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_conf(tx.q, cb, cb, 4), DOCA_ERROR_BAD_STATE, "IDLE");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_allocate_init(tx.q, pkt, (union doca_data){0}, NULL),
			DOCA_ERROR_INVALID_VALUE, "NULL");
	assert_int_equal(doca_eth_txq_task_send_allocate_init(tx.q, NULL, (union doca_data){0}, &t[0]), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_task_send_allocate_init(tx.q, pkt, (union doca_data){.u64 = 7}, &t[1]), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_txq_task_send_allocate_init(tx.q, pkt, (union doca_data){0}, &t[2]), DOCA_ERROR_NO_MEMORY,
			"allocated");
	/* a task without a packet, then an empty packet: refused at submit, the task stays the application's */
	TEST_EXPECT_ERR(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t[0])), DOCA_ERROR_INVALID_VALUE, "no packet");
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_pkt(t[0], NULL), DOCA_ERROR_INVALID_VALUE, "NULL");
	assert_int_equal(doca_eth_txq_task_send_set_pkt(t[0], pkt), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_task_send_get_pkt(t[0], &got), DOCA_SUCCESS);
	assert_ptr_equal(got, pkt);
	TEST_EXPECT_ERR(doca_eth_txq_task_send_get_pkt(t[0], NULL), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t[0])), DOCA_ERROR_INVALID_VALUE, "bytes");
	assert_int_equal(doca_task_get_status(doca_eth_txq_task_send_as_doca_task(t[0])), DOCA_ERROR_INVALID_VALUE);
	/* a 60-byte frame: submitted, in flight (its packet cannot change), completed by progress */
	assert_int_equal(doca_buf_set_data(pkt, f->buf, 60), DOCA_SUCCESS);
	tx.free_in_cb = false;
	assert_int_equal(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t[1])), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_pkt(t[1], pkt), DOCA_ERROR_BAD_STATE, "in flight");
	assert_int_equal(ecpu_progress_until(tx.pe, &tx.ok, 1, 5000), 1);
	assert_int_equal(tx.last_status, DOCA_SUCCESS);
	assert_int_equal(doca_task_get_user_data(doca_eth_txq_task_send_as_doca_task(t[1])).u64, 7);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t[0]));
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t[1]));
	TEST_EXPECT_ERR(doca_eth_txq_task_send_set_pkt(t[1], pkt), DOCA_ERROR_BAD_STATE, "freed");

	assert_int_equal(doca_buf_dec_refcount(pkt, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
	efx_mmap_destroy(m);
	ecpu_tx_destroy(&tx);
}

/*
 * The WQE a send task writes is the device core's: ctrl (SEND, DS 3, CQE always), the Ethernet
 * segment with the queue's checksum flags, one data segment naming the packet's data with the
 * mmap's key. A ring of 64 WQEBBs: the 65th submit without progress answers AGAIN at once and
 * the queue takes it after progress; every send completes.
 */
static void test_txq_wqe_and_full_ring(void **state)
{
	struct cfx *f = *state;
	struct doca_eth_txq_task_send *t[80];
	struct doca_buf_inventory *inv = NULL;
	struct doca_buf *pkt[80];
	struct doca_mmap *m;
	struct ecpu_tx tx;
	const uint8_t *w;
	uint32_t mkey = 0, be, i;
	uint64_t a;

	ecpu_tx_start(f->dev, 16, 80, true, true, &tx);
	m = efx_buf_mmap(f, &mkey);
	assert_int_equal(doca_buf_inventory_create(80, &inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_start(inv), DOCA_SUCCESS);
	for (i = 0; i < 80; i++) {
		assert_int_equal(doca_buf_inventory_buf_get_by_args(inv, m, f->buf + i * 128u, 128, f->buf + i * 128u + 2,
								    100, &pkt[i]),
				 DOCA_SUCCESS);
		assert_int_equal(doca_eth_txq_task_send_allocate_init(tx.q, pkt[i], (union doca_data){.u64 = i}, &t[i]),
				 DOCA_SUCCESS);
	}
	for (i = 0; i < 64; i++)
		assert_int_equal(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t[i])), DOCA_SUCCESS);
	/* WQE 5, as the NIC reads it */
	w = (const uint8_t *)tx.q->res.handle->qp.sq_wqe_daddr + 5u * 64u;
	memcpy(&be, w, 4);
	assert_int_equal(ntohl(be), 5u << 8 | OPENGDA_MLX5_OPCODE_SEND);
	memcpy(&be, w + 4, 4);
	assert_int_equal(ntohl(be) & 0x3fu, 3u);
	assert_int_equal(w[11], OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE);
	assert_int_equal(w[16 + 4], DOCA_GPUNETIO_ETH_L3_CSUM | DOCA_GPUNETIO_ETH_L4_CSUM);
	memcpy(&be, w + 32, 4);
	assert_int_equal(ntohl(be), 100);
	memcpy(&be, w + 36, 4);
	assert_int_equal(ntohl(be), mkey);
	memcpy(&a, w + 40, 8);
	assert_true(be64toh(a) == (uint64_t)(uintptr_t)(f->buf + 5u * 128u + 2));
	/* the ring is full: refused at once, nothing posted */
	assert_int_equal(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t[64])), DOCA_ERROR_AGAIN);
	assert_int_equal(ecpu_progress_until(tx.pe, &tx.ok, 64, 5000), 64);
	for (i = 64; i < 80; i++)
		assert_int_equal(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t[i])), DOCA_SUCCESS);
	assert_int_equal(ecpu_progress_until(tx.pe, &tx.ok, 80, 5000), 80);
	assert_int_equal(tx.failed, 0);
	for (i = 0; i < 80; i++)
		assert_int_equal(doca_buf_dec_refcount(pkt[i], NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
	efx_mmap_destroy(m);
	ecpu_tx_destroy(&tx);
}

static void test_rxq_bad_input(void **state)
{
	struct cfx *f = *state;
	struct doca_eth_rxq *q = NULL;
	struct doca_gpu_eth_rxq *h = NULL;
	struct doca_mmap *m;
	struct doca_pe *pe = NULL;
	struct doca_ctx *ctx;
	struct ecpu_rx r;
	uint32_t v32;
	uint64_t v64;

	TEST_EXPECT_ERR(doca_eth_rxq_event_managed_recv_register(NULL, (union doca_data){0}, rcb, rcb),
			DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_event_managed_recv_get_status(NULL), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_event_managed_recv_get_flow_tag(NULL, &v32), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_event_managed_recv_get_rx_hash(NULL, &v32), DOCA_ERROR_INVALID_VALUE, "NULL");
	TEST_EXPECT_ERR(doca_eth_rxq_event_managed_recv_get_timestamp(NULL, &v64), DOCA_ERROR_INVALID_VALUE, "NULL");

	assert_int_equal(doca_eth_rxq_create(f->dev, 16, PKT, &q), DOCA_SUCCESS);
	ctx = doca_eth_rxq_as_doca_ctx(q);
	TEST_EXPECT_ERR(doca_eth_rxq_event_managed_recv_register(q, (union doca_data){0}, NULL, rcb),
			DOCA_ERROR_INVALID_VALUE, "handlers");
	TEST_EXPECT_ERR(doca_eth_rxq_event_managed_recv_register(q, (union doca_data){0}, rcb, NULL),
			DOCA_ERROR_INVALID_VALUE, "handlers");
	m = cfx_mmap(f, 0, 16 * PKT, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(q, m, 0, 16 * PKT), DOCA_SUCCESS);
	/* CYCLIC without a GPU, MANAGED without handlers, without an engine, striding, with a GPU */
	ecpu_start_refused(ctx, DOCA_ERROR_NOT_SUPPORTED, "MANAGED_MEMPOOL");
	assert_int_equal(doca_eth_rxq_set_type(q, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_BAD_STATE, "handlers");
	assert_int_equal(doca_eth_rxq_event_managed_recv_register(q, (union doca_data){0}, rcb, rcb), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_BAD_STATE, "progress engine");
	assert_int_equal(doca_pe_create(&pe), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(pe, ctx), DOCA_SUCCESS);
	assert_int_equal(opengda_eth_rxq_set_striding(q, 8), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_NOT_SUPPORTED, "striding");
	assert_int_equal(opengda_eth_rxq_set_striding(q, 0), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(ctx, f->gpu), DOCA_SUCCESS);
	ecpu_start_refused(ctx, DOCA_ERROR_NOT_SUPPORTED, "CYCLIC");
	assert_int_equal(doca_eth_rxq_destroy(q), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(pe), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);

	/* a running CPU queue: no GPU handle, no registration, its 16 WQEs posted */
	ecpu_rx_start(f->dev, f->buf, CFX_BUF_LEN, 16, PKT, 3, &r);
	TEST_EXPECT_ERR(doca_eth_rxq_get_gpu_handle(r.q, &h), DOCA_ERROR_NOT_SUPPORTED, "CPU data path");
	TEST_EXPECT_ERR(doca_eth_rxq_event_managed_recv_register(r.q, (union doca_data){0}, rcb, rcb),
			DOCA_ERROR_BAD_STATE, "IDLE");
	assert_int_equal(r.q->res.handle->wqe_pi, 16);
	assert_int_equal(ntohl(*r.q->res.handle->wqe_db_rec), 16);
	assert_int_equal(doca_pe_progress(r.pe), 0); /* nothing arrived: nothing to do */
	ecpu_rx_destroy(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_txq_bad_input, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_txq_tasks, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_txq_wqe_and_full_ring, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_rxq_bad_input, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
