/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_txq on the software NIC with no Ethernet port attached: bad input to every function,
 * the context life cycle, sends from host threads through the device C core (NOTIFY CQEs with
 * the frame length, frames counted as dropped by the unattached port), an error CQE for a bad
 * key, and the checksum offload arithmetic against known values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "device/ogda_dev_eth.h"
#include "eth_fixture.h"
#include "doca_pe.h"
#include "opengda.h"
#include "prm/prm_wqe.h"
#include "swnic/swnic_eth_csum.h"
#include "test_util.h"

static const struct efx_udp ends = {
	.dst_mac = {0x02, 0, 0, 0, 0, 2}, .src_mac = {0x02, 0, 0, 0, 0, 1},
	.src_ip = 0x0a4d0001, .dst_ip = 0x0a4d0002, .sport = 4000, .dport = 5000,
};

static void test_bad_input(void **state)
{
	struct cfx *f = *state;
	struct doca_eth_txq *t = NULL;
	struct doca_gpu_eth_txq *h = NULL;
	uint32_t burst = 0;

	TEST_EXPECT_ERR(doca_eth_txq_create(NULL, 64, &t), DOCA_ERROR_INVALID_VALUE, "doca_eth_txq_create");
	TEST_EXPECT_ERR(doca_eth_txq_create(f->dev, 64, NULL), DOCA_ERROR_INVALID_VALUE, "doca_eth_txq_create");
	TEST_EXPECT_ERR(doca_eth_txq_create(f->dev, 0, &t), DOCA_ERROR_INVALID_VALUE, "max_burst_size");
	TEST_EXPECT_ERR(doca_eth_txq_create(f->dev, OPENGDA_ETH_TXQ_MAX_BURST + 1, &t), DOCA_ERROR_INVALID_VALUE,
		   "max_burst_size");
	TEST_EXPECT_ERR(doca_eth_txq_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_eth_txq_destroy");
	TEST_EXPECT_ERR(doca_eth_txq_set_max_burst_size(NULL, 8), DOCA_ERROR_INVALID_VALUE, "doca_eth_txq_set_max_burst_size");
	TEST_EXPECT_ERR(doca_eth_txq_set_l3_chksum_offload(NULL, 1), DOCA_ERROR_INVALID_VALUE, "l3_chksum");
	TEST_EXPECT_ERR(doca_eth_txq_set_l4_chksum_offload(NULL, 1), DOCA_ERROR_INVALID_VALUE, "l4_chksum");
	TEST_EXPECT_ERR(doca_eth_txq_gpu_set_sq_mem_type(NULL, DOCA_GPU_MEM_TYPE_GPU), DOCA_ERROR_INVALID_VALUE,
		   "set_sq_mem_type");
	TEST_EXPECT_ERR(doca_eth_txq_get_gpu_handle(NULL, &h), DOCA_ERROR_INVALID_VALUE, "get_gpu_handle");
	TEST_EXPECT_ERR(doca_eth_txq_cap_get_max_burst_size(NULL, 1, 0, &burst), DOCA_ERROR_INVALID_VALUE, "max_burst");
	TEST_EXPECT_ERR(doca_eth_txq_cap_get_max_burst_size(f->info, 1, 0, NULL), DOCA_ERROR_INVALID_VALUE, "max_burst");
	TEST_EXPECT_ERR(doca_eth_txq_cap_get_max_burst_size(f->info, 3, 0, &burst), DOCA_ERROR_NOT_SUPPORTED, "max_burst");
	TEST_EXPECT_ERR(doca_eth_txq_cap_get_max_burst_size(f->info, 1, 16, &burst), DOCA_ERROR_NOT_SUPPORTED, "max_burst");
	assert_int_equal(doca_eth_txq_cap_get_max_burst_size(f->info, 2, 0, &burst), DOCA_SUCCESS);
	assert_int_equal(burst, OPENGDA_ETH_TXQ_MAX_BURST);
	stderr_capture_begin();
	assert_null(doca_eth_txq_as_doca_ctx(NULL));
	stderr_capture_end((char[256]){0}, 256);

	assert_int_equal(doca_eth_txq_create(f->dev, 64, &t), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_txq_set_max_burst_size(t, 0), DOCA_ERROR_INVALID_VALUE, "max_burst_size");
	TEST_EXPECT_ERR(doca_eth_txq_set_l3_chksum_offload(t, 2), DOCA_ERROR_INVALID_VALUE, "l3_chksum");
	TEST_EXPECT_ERR(doca_eth_txq_set_l4_chksum_offload(t, 7), DOCA_ERROR_INVALID_VALUE, "l4_chksum");
	TEST_EXPECT_ERR(doca_eth_txq_gpu_set_sq_mem_type(t, (enum doca_gpu_mem_type)9), DOCA_ERROR_INVALID_VALUE,
		   "set_sq_mem_type");
	TEST_EXPECT_ERR(doca_eth_txq_get_gpu_handle(t, NULL), DOCA_ERROR_INVALID_VALUE, "get_gpu_handle");
	TEST_EXPECT_ERR(doca_eth_txq_get_gpu_handle(t, &h), DOCA_ERROR_BAD_STATE, "not started");
	/* Wait-on-time: the software NIC has it natively; the value format is BE64(sec << 32 | ns). */
	{
		enum doca_eth_wait_on_time_type wt = DOCA_ETH_WAIT_ON_TIME_TYPE_NONE;
		uint64_t wot = 0;

		TEST_EXPECT_ERR(doca_eth_txq_cap_get_wait_on_time_offload_supported(NULL, &wt), DOCA_ERROR_INVALID_VALUE,
				"wait_on_time_mode");
		TEST_EXPECT_ERR(doca_eth_txq_set_wait_on_time_offload(NULL), DOCA_ERROR_INVALID_VALUE, "eth_txq");
		TEST_EXPECT_ERR(doca_eth_txq_calculate_timestamp(t, 1, &wot), DOCA_ERROR_BAD_STATE, "not enabled");
		TEST_EXPECT_ERR(doca_eth_txq_calculate_timestamp(t, 1, NULL), DOCA_ERROR_INVALID_VALUE, "wait_on_time_ts");
		assert_int_equal(doca_eth_txq_cap_get_wait_on_time_offload_supported(f->info, &wt), DOCA_SUCCESS);
		assert_int_equal(wt, DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE);
		assert_int_equal(doca_eth_txq_set_wait_on_time_offload(t), DOCA_SUCCESS);
		assert_int_equal(doca_eth_txq_calculate_timestamp(t, 1500000000ull, &wot), DOCA_SUCCESS);
		assert_true(wot == opengda_mlx5_htobe64((1ull << 32) | 500000000ull));
	}
	assert_int_equal(doca_eth_txq_set_max_burst_size(t, 128), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_gpu_set_sq_mem_type(t, DOCA_GPU_MEM_TYPE_CPU_GPU), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_destroy(t), DOCA_SUCCESS);
}

static void test_lifecycle(void **state)
{
	struct cfx *f = *state;
	struct doca_eth_txq *t = NULL;
	struct doca_gpu_eth_txq *h = NULL, *h2 = NULL;
	enum doca_ctx_states st;
	struct doca_ctx *ctx;
	char log[4096];

	assert_int_equal(doca_eth_txq_create(f->dev, 16, &t), DOCA_SUCCESS);
	ctx = doca_eth_txq_as_doca_ctx(t);
	/* No data path chosen (no GPU, no send tasks): the start is refused and the queue stays IDLE. */
	stderr_capture_begin();
	assert_int_equal(doca_ctx_start(ctx), DOCA_ERROR_BAD_STATE);
	assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "no data path"));
	assert_int_equal(doca_ctx_get_state(ctx, &st), DOCA_SUCCESS);
	assert_int_equal(st, DOCA_CTX_STATE_IDLE);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(ctx, f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(ctx), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_get_state(ctx, &st), DOCA_SUCCESS);
	assert_int_equal(st, DOCA_CTX_STATE_RUNNING);
	assert_int_equal(doca_eth_txq_get_gpu_handle(t, &h), DOCA_SUCCESS);
	assert_non_null(h);
	/* 16 descriptors still get a 64-WQEBB ring; the handle names a real SQ and CQ. */
	assert_int_equal(h->qp.sq_wqe_num, 64);
	assert_int_equal(h->qp.cq_sq.cqe_num, 64);
	assert_int_not_equal(h->qp.sq_num, 0);
	assert_int_not_equal(h->qp.cq_sq.cq_num, 0);
	TEST_EXPECT_ERR(doca_eth_txq_set_l3_chksum_offload(t, 1), DOCA_ERROR_BAD_STATE, "started");
	TEST_EXPECT_ERR(doca_eth_txq_gpu_set_completion_on_gpu(t), DOCA_ERROR_BAD_STATE, "started");
	TEST_EXPECT_ERR(doca_eth_txq_gpu_set_uar_on_cpu(t), DOCA_ERROR_BAD_STATE, "started");
	TEST_EXPECT_ERR(doca_eth_txq_set_wait_on_time_offload(t), DOCA_ERROR_BAD_STATE, "started");
	TEST_EXPECT_ERR(doca_eth_txq_destroy(t), DOCA_ERROR_BAD_STATE, "stop it");
	TEST_EXPECT_ERR(doca_dev_close(f->dev), DOCA_ERROR_IN_USE, "still use the device");
	assert_int_equal(doca_ctx_stop(ctx), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_txq_get_gpu_handle(t, &h), DOCA_ERROR_BAD_STATE, "not started");
	/* Restartable, with the new configuration. */
	assert_int_equal(doca_eth_txq_set_l3_chksum_offload(t, 1), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(ctx), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_get_gpu_handle(t, &h2), DOCA_SUCCESS);
	assert_int_equal(h2->enable_l3_cs_offload, 1);
	assert_int_equal(h2->cs_flags, DOCA_GPUNETIO_ETH_L3_CSUM);
	efx_txq_destroy(t);
}

/* Frames sent with no port attached: completed (NOTIFY), counted as dropped by the port. */
static void test_send_unattached(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats before, after;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t = efx_txq_start(f, 64, EFX_L3 | EFX_L4, &h);
	uint32_t mkey = 0, done = 0, k;
	struct doca_mmap *m = efx_buf_mmap(f, &mkey);
	uint64_t ticket = 0;
	size_t len = efx_udp_frame(f->buf, &ends, "hello", 5);

	assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
	for (k = 0; k < 3; k++)
		ogda_dev_eth_op_send(h, (uint64_t)(uintptr_t)f->buf, opengda_mlx5_htobe32(mkey), (uint32_t)len,
				     k == 2 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE,
				     OGDA_DEV_SHARE_EXCLUSIVE, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, &ticket);
	assert_int_equal(ticket, 2);
	/* One NOTIFY send, one CQE: the REQ CQE of the third WQE, with the frame length. */
	assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done), 0);
	assert_int_equal(done, 1);
	efx_check_req_cqe(h, h->qp.cq_sq.cqe_daddr, 2, (uint32_t)len, OPENGDA_MLX5_OPCODE_SEND);
	/* Nothing else completed: NONE sends produce no CQE. */
	assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 0, OGDA_DEV_SHARE_EXCLUSIVE, &done), 0);
	assert_int_equal(done, 0);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &after), DOCA_SUCCESS);
	assert_true(after.tx_dropped == before.tx_dropped + 3);
	assert_true(after.tx_packets == before.tx_packets);
	efx_mmap_destroy(m);
	efx_txq_destroy(t);
}

/*
 * Many laps of the 64-WQEBB ring and of the CQ: 1024 frames, a NOTIFY every 16, at most three
 * batches outstanding; every completion arrives, with the WQE counter of its batch's last send.
 */
static void test_ring_laps(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats before, after;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t = efx_txq_start(f, 64, EFX_L3 | EFX_L4, &h);
	struct doca_mmap *m = cfx_mmap(f, 0, CFX_BUF_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	uint32_t mkey = 0, done = 0, i, batches = 0, polled = 0;
	size_t len = efx_udp_frame(f->buf, &ends, "lap", 3);

	assert_int_equal(doca_mmap_get_mkey(m, f->dev, &mkey), DOCA_SUCCESS);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
	for (i = 0; i < 1024; i++) {
		int last = (i + 1) % 16 == 0;

		ogda_dev_eth_op_send(h, (uint64_t)(uintptr_t)f->buf, opengda_mlx5_htobe32(mkey), (uint32_t)len,
				     last ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE,
				     OGDA_DEV_SHARE_EXCLUSIVE, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
		if (!last)
			continue;
		batches++;
		while (batches - polled >= 3) {
			const struct opengda_mlx5_cqe64 *cqe = (const struct opengda_mlx5_cqe64 *)(const void *)(
				h->qp.cq_sq.cqe_daddr + ((uint64_t)(polled & h->qp.cq_sq.cqe_mask) << 6));

			assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done), 0);
			assert_int_equal(opengda_mlx5_cqe_wqe_counter(cqe), (uint16_t)(polled * 16 + 15));
			polled++;
		}
	}
	assert_int_equal(ogda_dev_eth_poll_completion(h, batches - polled, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done), 0);
	assert_int_equal(done, batches - polled);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &after), DOCA_SUCCESS);
	assert_true(after.tx_dropped == before.tx_dropped + 1024);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
	efx_txq_destroy(t);
}

/* A send with a key the NIC does not know completes in error (LOCAL_PROT), without NOTIFY too. */
static void test_send_bad_key(void **state)
{
	struct cfx *f = *state;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t = efx_txq_start(f, 64, 0, &h);
	uint32_t done = 0;
	int rc;

	ogda_dev_eth_op_send(h, (uint64_t)(uintptr_t)f->buf, opengda_mlx5_htobe32(0x7777), 60,
			     DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	rc = ogda_dev_eth_poll_completion(h, 1, 1, 1, OGDA_DEV_SHARE_GPU, &done);
	assert_int_equal(rc, OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR));
	assert_int_equal(done, 0);
	efx_txq_destroy(t);
}

/* CPU proxy: nothing reaches the NIC until a CPU thread steps the proxy; then it rings once. */
static void test_cpu_proxy(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats before, after;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t;
	struct doca_mmap *m = cfx_mmap(f, 0, CFX_BUF_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct timespec pause = {0, 20000000};
	uint32_t mkey = 0, done = 0, k;
	size_t len = efx_udp_frame(f->buf, &ends, "proxied", 7);

	assert_int_equal(doca_mmap_get_mkey(m, f->dev, &mkey), DOCA_SUCCESS);
	t = efx_txq_start(f, 64, EFX_L3 | EFX_L4 | EFX_PROXY, &h);
	assert_int_equal(h->qp.nic_handler, DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
	for (k = 0; k < 4; k++)
		ogda_dev_eth_op_send(h, (uint64_t)(uintptr_t)f->buf, opengda_mlx5_htobe32(mkey), (uint32_t)len,
				     k == 3 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE,
				     OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	/* No doorbell yet: however long we look, nothing completes (20 ms is only how long we look). */
	nanosleep(&pause, NULL);
	assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 0, OGDA_DEV_SHARE_GPU, &done), 0);
	assert_int_equal(done, 0);
	assert_int_equal(doca_eth_txq_gpu_cpu_proxy_progress(t), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_GPU, &done), 0);
	assert_int_equal(done, 1);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &after), DOCA_SUCCESS);
	assert_true(after.tx_dropped == before.tx_dropped + 4);
	assert_int_equal(doca_eth_txq_gpu_cpu_proxy_progress(t), DOCA_SUCCESS); /* nothing new: no ring */
	efx_txq_destroy(t);
	TEST_EXPECT_ERR(doca_eth_txq_gpu_cpu_proxy_progress(NULL), DOCA_ERROR_INVALID_VALUE, "eth_txq");
	t = efx_txq_start(f, 64, 0, &h);
	TEST_EXPECT_ERR(doca_eth_txq_gpu_cpu_proxy_progress(t), DOCA_ERROR_NOT_SUPPORTED, "own doorbells");
	efx_txq_destroy(t);
	assert_int_equal(doca_eth_txq_create(f->dev, 64, &t), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_gpu_set_uar_on_cpu(t), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_txq_gpu_cpu_proxy_progress(t), DOCA_ERROR_BAD_STATE, "not started");
	TEST_EXPECT_ERR(doca_eth_txq_gpu_set_uar_on_cpu(NULL), DOCA_ERROR_INVALID_VALUE, "eth_txq");
	assert_int_equal(doca_eth_txq_destroy(t), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

struct pe_seen {
	uint16_t notify[4], error[4];
	uint64_t ts[4];
	unsigned nnotify, nerror;
};

static void on_notify(struct doca_eth_txq_gpu_event_notify_send_packet *ev, union doca_data d)
{
	struct pe_seen *s = d.ptr;

	if (s->nnotify < 4) {
		assert_int_equal(doca_eth_txq_gpu_event_notify_send_packet_get_position(ev, &s->notify[s->nnotify]),
				 DOCA_SUCCESS);
		assert_int_equal(doca_eth_txq_gpu_event_notify_send_packet_get_timestamp(ev, &s->ts[s->nnotify]),
				 DOCA_SUCCESS);
	}
	s->nnotify++;
}

static void on_error(struct doca_eth_txq_gpu_event_error_send_packet *ev, union doca_data d)
{
	struct pe_seen *s = d.ptr;

	if (s->nerror < 4)
		assert_int_equal(doca_eth_txq_gpu_event_error_send_packet_get_position(ev, &s->error[s->nerror]),
				 DOCA_SUCCESS);
	s->nerror++;
}

/* Completions not polled on the GPU reach the progress engine: notify per NOTIFY send, error per failure. */
static void test_pe_events(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m = cfx_mmap(f, 0, CFX_BUF_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct timespec pause = {0, 1000000};
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t = NULL;
	struct doca_pe *pe = NULL;
	struct pe_seen seen;
	union doca_data d = {.ptr = &seen};
	uint32_t mkey = 0, k;
	unsigned spins;
	size_t len = efx_udp_frame(f->buf, &ends, "event", 5);

	memset(&seen, 0, sizeof(seen));
	assert_int_equal(doca_mmap_get_mkey(m, f->dev, &mkey), DOCA_SUCCESS);
	assert_int_equal(doca_pe_create(&pe), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_create(f->dev, 64, &t), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_txq_gpu_event_notify_send_packet_register(t, NULL, d), DOCA_ERROR_INVALID_VALUE,
			"callback");
	TEST_EXPECT_ERR(doca_eth_txq_gpu_event_error_send_packet_register(NULL, on_error, d), DOCA_ERROR_INVALID_VALUE,
			"callback");
	assert_int_equal(doca_eth_txq_gpu_event_notify_send_packet_register(t, on_notify, d), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_gpu_event_error_send_packet_register(t, on_error, d), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(t), f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_get_gpu_handle(t, &h), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_txq_gpu_event_notify_send_packet_register(t, on_notify, d), DOCA_ERROR_BAD_STATE,
			"started");
	for (k = 0; k < 3; k++) /* two good sends (NOTIFY), then one with a key the NIC does not know */
		ogda_dev_eth_op_send(h, (uint64_t)(uintptr_t)f->buf, opengda_mlx5_htobe32(k < 2 ? mkey : 0x7777),
				     (uint32_t)len, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, OGDA_DEV_SHARE_EXCLUSIVE,
				     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	stderr_capture_begin(); /* the error completion is logged */
	for (spins = 0; (seen.nnotify < 2 || seen.nerror < 1) && spins < 5000; spins++)
		if (!doca_pe_progress(pe))
			nanosleep(&pause, NULL);
	stderr_capture_end((char[1024]){0}, 1024);
	assert_int_equal(seen.nnotify, 2);
	assert_int_equal(seen.nerror, 1);
	assert_int_equal(seen.notify[0], 0);
	assert_int_equal(seen.notify[1], 1);
	assert_true(seen.ts[0] != 0 && seen.ts[1] >= seen.ts[0]);
	assert_int_equal(seen.error[0], 2);
	TEST_EXPECT_ERR(doca_eth_txq_gpu_event_notify_send_packet_get_position(NULL, &seen.notify[0]),
			DOCA_ERROR_INVALID_VALUE, "event");
	TEST_EXPECT_ERR(doca_eth_txq_gpu_event_error_send_packet_get_position(NULL, &seen.error[0]),
			DOCA_ERROR_INVALID_VALUE, "event");
	TEST_EXPECT_ERR(doca_eth_txq_gpu_event_notify_send_packet_get_timestamp(NULL, &seen.ts[0]),
			DOCA_ERROR_INVALID_VALUE, "event");
	efx_txq_destroy(t);
	assert_int_equal(doca_pe_destroy(pe), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

/* Inline header bytes that run past the WQE end: LOCAL_QP_OP, as a NIC reports a malformed WQE. */
static void test_inline_past_end(void **state)
{
	struct cfx *f = *state;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_eth_txq *t = efx_txq_start(f, 64, 0, &h);
	const uint8_t *cqe;
	uint32_t done = 0;

	/* 42 header bytes claimed as 200, in a WQE of 4 DS (64 bytes). */
	(void)efx_post_inline_send(h, f->buf, 100, 0, 42, 200, 4);
	assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done),
			 OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR));
	cqe = h->qp.cq_sq.cqe_daddr;
	assert_int_equal(cqe[63] >> 4, OPENGDA_MLX5_CQE_REQ_ERR);
	assert_int_equal(cqe[OPENGDA_MLX5_ERR_CQE_SYNDROME], OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	efx_txq_destroy(t);
}

/*
 * The Ethernet SEND decoder against a hand-written image: ctrl, eth segment with 18 inline bytes
 * (2 in the segment, 16 after it), two pointer segments; 5 DS in two WQEBBs.
 */
static void test_decode_eth(void **state)
{
	uint8_t ring[4 * 64] = {0};
	uint8_t *w = ring + 64; /* slot 1 */
	struct prm_wqe d;
	unsigned i;

	(void)state;
	w[1] = 0x00, w[2] = 0x01, w[3] = OPENGDA_MLX5_OPCODE_SEND; /* wqe index 1 */
	w[4] = 0x00, w[5] = 0x12, w[6] = 0x34, w[7] = 5;           /* sqn 0x1234, ds 5 */
	w[11] = OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE;
	w[16 + 4] = OPENGDA_MLX5_ETH_WQE_L3_CSUM | OPENGDA_MLX5_ETH_WQE_L4_CSUM;
	w[16 + 13] = 18;                                           /* inline_hdr_sz */
	for (i = 0; i < 18; i++)
		w[16 + 14 + i] = (uint8_t)(0xa0 + i);
	/* data segments at 48 and 64: 100 bytes (key 7) at 0x1000, 20 bytes (key 8) at 0x2000 */
	w[48 + 3] = 100, w[48 + 7] = 7, w[48 + 14] = 0x10;
	w[64 + 3] = 20, w[64 + 7] = 8, w[64 + 14] = 0x20;
	assert_int_equal(prm_wqe_decode_eth(ring, 2, 1, &d), DOCA_SUCCESS);
	assert_int_equal(d.opcode, OPENGDA_MLX5_OPCODE_SEND);
	assert_int_equal(d.qpn, 0x1234);
	assert_int_equal(d.wqebbs, 2);
	assert_true(d.has_eth);
	assert_int_equal(d.eth.cs_flags, 0xc0);
	assert_int_equal(d.eth.inline_hdr_sz, 18);
	for (i = 0; i < 18; i++)
		assert_int_equal(d.bytes[d.eth.inline_hdr_offset + i], 0xa0 + i);
	assert_int_equal(d.ndata, 2);
	assert_int_equal(d.data[0].byte_count, 100);
	assert_int_equal(d.data[0].lkey, 7);
	assert_true(d.data[0].addr == 0x1000);
	assert_int_equal(d.data[1].byte_count, 20);
	assert_true(d.data[1].addr == 0x2000);
	/* On an RC QP the same bytes are no Ethernet segment: the inline head reads as a bad inline segment. */
	TEST_EXPECT_ERR(prm_wqe_decode(ring, 2, 1, &d), DOCA_ERROR_INVALID_VALUE, "runs past the WQE end");
}

/* The checksum offload arithmetic: a known IPv4 header, and the receiver's verification identity. */
static void test_csum_values(void **state)
{
	/* RFC 1071-style example header with checksum 0xb861. */
	static const uint8_t ip_hdr[20] = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
					   0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
	uint8_t frame[128];
	size_t len;

	(void)state;
	assert_int_equal(swnic_eth_inet_csum(ip_hdr, sizeof(ip_hdr)), 0xb861);
	len = efx_udp_frame(frame, &ends, "checksum", 8);
	assert_int_equal(swnic_eth_csum_fill(frame, len, 0), 0);
	assert_int_equal(swnic_eth_csum_fill(frame, len, OPENGDA_MLX5_ETH_WQE_L3_CSUM), SWNIC_ETH_CSUM_IP4);
	assert_int_equal(swnic_eth_inet_csum(frame + 14, 20), 0); /* a valid header sums to 0xffff */
	assert_int_equal(swnic_eth_csum_fill(frame, len, OPENGDA_MLX5_ETH_WQE_L3_CSUM | OPENGDA_MLX5_ETH_WQE_L4_CSUM),
			 SWNIC_ETH_CSUM_IP4 | SWNIC_ETH_CSUM_UDP);
	assert_true(frame[14 + 20 + 6] != 0 || frame[14 + 20 + 7] != 0);
	/* Truncated or non-IP frames are left alone. */
	frame[12] = 0x88;
	frame[13] = 0xb5;
	assert_int_equal(swnic_eth_csum_fill(frame, len, 0xc0), 0);
	assert_int_equal(swnic_eth_csum_fill(frame, 10, 0xc0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_input, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_lifecycle, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_send_unattached, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_send_bad_key, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_ring_laps, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_inline_past_end, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_cpu_proxy, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_pe_events, cfx_setup, cfx_teardown),
		cmocka_unit_test(test_decode_eth),
		cmocka_unit_test(test_csum_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
