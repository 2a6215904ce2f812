/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_rxq on the software NIC: bad input to every host function (each refused with its error
 * code and one log line), the life cycle (no handle before start, setters refused while started,
 * a packet buffer too small refused at start, restart), queue ids (taken ids refused, an id
 * applied after start registered), and the device handle's geometry after start.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "doca_ctx.h"
#include "doca_eth_rxq.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "eth/eth_queue_ids.h"
#include "eth_fixture.h"
#include "opengda.h"
#include "opengda_mlx5.h"
#include "test_util.h"

#define PKT 1024u

static void test_bad_input(void **state)
{
	struct cfx *f = *state;
	struct doca_eth_rxq *q = NULL;
	struct doca_gpu_eth_rxq *h = NULL;
	struct doca_mmap *m;
	uint32_t v32 = 0;
	uint16_t v16 = 0;

	TEST_EXPECT_ERR(doca_eth_rxq_create(NULL, 16, PKT, &q), DOCA_ERROR_INVALID_VALUE, "doca_eth_rxq_create");
	TEST_EXPECT_ERR(doca_eth_rxq_create(f->dev, 16, PKT, NULL), DOCA_ERROR_INVALID_VALUE, "doca_eth_rxq_create");
	TEST_EXPECT_ERR(doca_eth_rxq_create(f->dev, 0, PKT, &q), DOCA_ERROR_INVALID_VALUE, "max_burst_size");
	TEST_EXPECT_ERR(doca_eth_rxq_create(f->dev, OPENGDA_ETH_RXQ_MAX_BURST + 1, PKT, &q), DOCA_ERROR_INVALID_VALUE,
			"max_burst_size");
	TEST_EXPECT_ERR(doca_eth_rxq_create(f->dev, 16, 63, &q), DOCA_ERROR_INVALID_VALUE, "max_packet_size");
	TEST_EXPECT_ERR(doca_eth_rxq_create(f->dev, 16, OPENGDA_ETH_RXQ_MAX_PACKET_SIZE + 1, &q),
			DOCA_ERROR_INVALID_VALUE, "max_packet_size");
	TEST_EXPECT_ERR(doca_eth_rxq_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_eth_rxq_destroy");
	TEST_EXPECT_ERR(doca_eth_rxq_set_type(NULL, DOCA_ETH_RXQ_TYPE_CYCLIC), DOCA_ERROR_INVALID_VALUE, "set_type");
	TEST_EXPECT_ERR(doca_eth_rxq_set_max_burst_size(NULL, 8), DOCA_ERROR_INVALID_VALUE, "set_max_burst_size");
	TEST_EXPECT_ERR(doca_eth_rxq_set_max_packet_size(NULL, 512), DOCA_ERROR_INVALID_VALUE, "set_max_packet_size");
	TEST_EXPECT_ERR(doca_eth_rxq_set_pkt_buf(NULL, NULL, 0, 1), DOCA_ERROR_INVALID_VALUE, "set_pkt_buf");
	TEST_EXPECT_ERR(doca_eth_rxq_gpu_set_rq_mem_type(NULL, DOCA_GPU_MEM_TYPE_GPU), DOCA_ERROR_INVALID_VALUE,
			"set_rq_mem_type");
	TEST_EXPECT_ERR(doca_eth_rxq_gpu_enable_mcst_qp(NULL), DOCA_ERROR_INVALID_VALUE, "enable_mcst_qp");
	TEST_EXPECT_ERR(doca_eth_rxq_gpu_set_uar_on_cpu(NULL), DOCA_ERROR_INVALID_VALUE, "set_uar_on_cpu");
	TEST_EXPECT_ERR(doca_eth_rxq_gpu_cpu_proxy_progress(NULL), DOCA_ERROR_INVALID_VALUE, "cpu_proxy_progress");
	TEST_EXPECT_ERR(doca_eth_rxq_apply_queue_id(NULL, 1), DOCA_ERROR_INVALID_VALUE, "apply_queue_id");
	TEST_EXPECT_ERR(doca_eth_rxq_get_flow_queue_id(NULL, &v16), DOCA_ERROR_INVALID_VALUE, "get_flow_queue_id");
	TEST_EXPECT_ERR(doca_eth_rxq_get_gpu_handle(NULL, &h), DOCA_ERROR_INVALID_VALUE, "get_gpu_handle");
	TEST_EXPECT_ERR(doca_eth_rxq_cap_get_max_burst_size(NULL, &v32), DOCA_ERROR_INVALID_VALUE, "max_burst_size");
	TEST_EXPECT_ERR(doca_eth_rxq_cap_get_max_packet_size(f->info, NULL), DOCA_ERROR_INVALID_VALUE, "max_packet_size");
	TEST_EXPECT_ERR(doca_eth_rxq_cap_is_type_supported(NULL, DOCA_ETH_RXQ_TYPE_CYCLIC, DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU),
			DOCA_ERROR_INVALID_VALUE, "devinfo");
	TEST_EXPECT_ERR(doca_eth_rxq_cap_is_type_supported(f->info, DOCA_ETH_RXQ_TYPE_CYCLIC,
							   (enum doca_eth_rxq_data_path_type)7),
			DOCA_ERROR_INVALID_VALUE, "data path");
	/* capabilities: cyclic for the GPU, managed and regular for the CPU (an answer, not an error: nothing logged) */
	assert_int_equal(doca_eth_rxq_cap_is_type_supported(f->info, DOCA_ETH_RXQ_TYPE_CYCLIC,
							    DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU),
			 DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_cap_is_type_supported(f->info, DOCA_ETH_RXQ_TYPE_REGULAR,
							    DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_eth_rxq_cap_is_type_supported(f->info, DOCA_ETH_RXQ_TYPE_CYCLIC,
							    DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_eth_rxq_cap_is_type_supported(f->info, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL,
							    DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU),
			 DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_cap_is_type_supported(f->info, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL,
							    DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_eth_rxq_cap_is_type_supported(f->info, DOCA_ETH_RXQ_TYPE_REGULAR,
							    DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU),
			 DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_cap_get_max_burst_size(f->info, &v32), DOCA_SUCCESS);
	assert_int_equal(v32, OPENGDA_ETH_RXQ_MAX_BURST);
	/* estimates */
	TEST_EXPECT_ERR(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, PKT, 16, 0, 0, 0, NULL),
			DOCA_ERROR_INVALID_VALUE, "buf_size");
	TEST_EXPECT_ERR(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_REGULAR, 0, 0, PKT, 16, 0, 0, 0, &v32),
			DOCA_ERROR_NOT_SUPPORTED, "no packet buffer");
	assert_int_equal(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL, 0, 0, PKT, 10, 0, 0, 0,
							       &v32),
			 DOCA_SUCCESS);
	assert_int_equal(v32, 16u * PKT);
	TEST_EXPECT_ERR(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, PKT, 16, 3, 0, 0, &v32),
			DOCA_ERROR_NOT_SUPPORTED, "LRO");
	assert_int_equal(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, PKT, 10, 0, 64, 64, &v32),
			 DOCA_SUCCESS);
	assert_int_equal(v32, 16u * (PKT + 128u)); /* 10 packets round up to 16 */
	stderr_capture_begin();
	assert_null(doca_eth_rxq_as_doca_ctx(NULL));
	stderr_capture_end((char[256]){0}, 256);

	/* a created queue: bad values, no handle yet, no packet buffer yet */
	assert_int_equal(doca_eth_rxq_create(f->dev, 16, PKT, &q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_type(q, DOCA_ETH_RXQ_TYPE_REGULAR), DOCA_SUCCESS); /* the CPU's, with tasks */
	assert_int_equal(doca_eth_rxq_set_type(q, DOCA_ETH_RXQ_TYPE_CYCLIC), DOCA_SUCCESS);
	TEST_EXPECT_ERR(doca_eth_rxq_set_type(q, (enum doca_eth_rxq_type)9), DOCA_ERROR_INVALID_VALUE, "unknown");
	TEST_EXPECT_ERR(doca_eth_rxq_set_max_burst_size(q, 0), DOCA_ERROR_INVALID_VALUE, "max_burst_size");
	TEST_EXPECT_ERR(doca_eth_rxq_set_max_packet_size(q, 10), DOCA_ERROR_INVALID_VALUE, "max_packet_size");
	TEST_EXPECT_ERR(doca_eth_rxq_gpu_set_rq_mem_type(q, (enum doca_gpu_mem_type)9), DOCA_ERROR_INVALID_VALUE,
			"memory type");
	TEST_EXPECT_ERR(doca_eth_rxq_get_gpu_handle(q, NULL), DOCA_ERROR_INVALID_VALUE, "get_gpu_handle");
	TEST_EXPECT_ERR(doca_eth_rxq_get_gpu_handle(q, &h), DOCA_ERROR_BAD_STATE, "not started");
	TEST_EXPECT_ERR(doca_eth_rxq_get_flow_queue_id(q, &v16), DOCA_ERROR_BAD_STATE, "no queue id");
	TEST_EXPECT_ERR(doca_eth_rxq_set_pkt_buf(q, NULL, 0, 64), DOCA_ERROR_INVALID_VALUE, "set_pkt_buf");
	m = cfx_mmap(f, 0, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	TEST_EXPECT_ERR(doca_eth_rxq_set_pkt_buf(q, m, 4000, 200), DOCA_ERROR_INVALID_VALUE, "outside the mmap");
	/* a packet buffer smaller than 16 x 1024 bytes: refused when the queue starts */
	assert_int_equal(doca_eth_rxq_set_pkt_buf(q, m, 0, 4096), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(q), f->gpu), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q)), DOCA_ERROR_INVALID_VALUE);
	{
		char log[4096];

		stderr_capture_end(log, sizeof(log));
		assert_non_null(strstr(log, "doca_eth_rxq_estimate_packet_buf_size"));
	}
	assert_int_equal(doca_eth_rxq_destroy(q), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

/* A started queue of 16 packets of PKT bytes in f's buffer, with queue id @id (applied before start). */
static struct doca_eth_rxq *started(struct cfx *f, size_t off, uint16_t id, struct doca_mmap **m)
{
	struct doca_eth_rxq *q = NULL;

	*m = cfx_mmap(f, off, 16u * PKT, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(doca_eth_rxq_create(f->dev, 16, PKT, &q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(q, *m, 0, 16u * PKT), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_apply_queue_id(q, id), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(q), f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	return q;
}

static void stop_destroy(struct doca_eth_rxq *q, struct doca_mmap *m)
{
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_destroy(q), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

static void test_lifecycle_and_queue_ids(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m1, *m2;
	struct doca_eth_rxq *q1, *q2;
	struct doca_gpu_eth_rxq *h = NULL;
	uint32_t rqn = 0, i;
	uint16_t id = 0;

	q1 = started(f, 0, 7, &m1);
	assert_int_equal(doca_eth_rxq_get_gpu_handle(q1, &h), DOCA_SUCCESS);
	/* the handle: 16 buffers of PKT bytes at the mmap's start, every WQE posted and naming its buffer */
	assert_int_equal(h->pkt_num, 16);
	assert_int_equal(h->max_pkt_sz, PKT);
	assert_true(h->pkt_addr == (uint64_t)(uintptr_t)f->buf);
	assert_int_equal(h->wqe_pi, 16);
	assert_int_equal(opengda_mlx5_be32toh(*h->wqe_db_rec), 16);
	for (i = 0; i < 16; i++) {
		const uint8_t *w = h->wqe_addr + 16u * i;
		uint64_t a = 0;
		uint32_t bc = 0;

		memcpy(&bc, w, 4);
		memcpy(&a, w + 8, 8);
		assert_int_equal(opengda_mlx5_be32toh(bc), PKT);
		assert_true(opengda_mlx5_be64toh(a) == h->pkt_addr + (uint64_t)i * PKT);
	}
	assert_int_equal(ogda_eth_rxq_find_rqn(f->dev, 7, &rqn), DOCA_SUCCESS);
	assert_int_equal(rqn, h->rqn);
	assert_int_equal(doca_eth_rxq_get_flow_queue_id(q1, &id), DOCA_SUCCESS);
	assert_int_equal(id, 7);
	/* setters refused while started; destroy refused while started */
	TEST_EXPECT_ERR(doca_eth_rxq_set_max_burst_size(q1, 8), DOCA_ERROR_BAD_STATE, "started");
	TEST_EXPECT_ERR(doca_eth_rxq_gpu_enable_mcst_qp(q1), DOCA_ERROR_BAD_STATE, "started");
	stderr_capture_begin();
	assert_int_not_equal(doca_eth_rxq_destroy(q1), DOCA_SUCCESS);
	stderr_capture_end((char[1024]){0}, 1024);
	/* a second queue cannot take id 7; applied after start, a free id registers at once */
	{
		struct doca_eth_rxq *q = NULL;

		m2 = cfx_mmap(f, 32768, 16u * PKT, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		assert_int_equal(doca_eth_rxq_create(f->dev, 16, PKT, &q), DOCA_SUCCESS);
		assert_int_equal(doca_eth_rxq_set_pkt_buf(q, m2, 0, 16u * PKT), DOCA_SUCCESS);
		assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(q), f->gpu), DOCA_SUCCESS);
		assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
		TEST_EXPECT_ERR(doca_eth_rxq_apply_queue_id(q, 7), DOCA_ERROR_ALREADY_EXIST, "taken");
		assert_int_equal(doca_eth_rxq_apply_queue_id(q, 8), DOCA_SUCCESS);
		assert_int_equal(ogda_eth_rxq_find_rqn(f->dev, 8, &rqn), DOCA_SUCCESS);
		q2 = q;
	}
	/* stop takes the id away; a restart registers it again */
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q1)), DOCA_SUCCESS);
	assert_int_equal(ogda_eth_rxq_find_rqn(f->dev, 7, &rqn), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q1)), DOCA_SUCCESS);
	assert_int_equal(ogda_eth_rxq_find_rqn(f->dev, 7, &rqn), DOCA_SUCCESS);
	stop_destroy(q2, m2);
	stop_destroy(q1, m1);
	assert_int_equal(ogda_eth_rxq_find_rqn(f->dev, 8, &rqn), DOCA_ERROR_NOT_FOUND);
}

/* doca_ctx_start refuses the queue with INVALID_VALUE and logs @why. */
static void expect_start_refused(struct doca_eth_rxq *q, const char *why)
{
	char log[4096];

	stderr_capture_begin();
	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q)), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(log, sizeof(log));
	assert_non_null(strstr(log, why));
}

/*
 * opengda_eth_rxq_set_striding: bad input and state; a geometry start refuses (stride not a power
 * of two, fewer than two WQEs); a started striding queue's handle and WQEs (32 bytes: a zero next
 * segment, then a data segment naming the WQE's strides), the doorbell record in WQEs; and the RQ
 * as the software NIC holds it (QUERY would not add more: the handle carries the geometry).
 */
static void test_striding(void **state)
{
	struct cfx *f = *state;
	struct doca_eth_rxq *q = NULL;
	struct doca_gpu_eth_rxq *h = NULL;
	struct doca_mmap *m;
	uint32_t i;

	TEST_EXPECT_ERR(opengda_eth_rxq_set_striding(NULL, 8), DOCA_ERROR_INVALID_VALUE, "opengda_eth_rxq_set_striding");
	assert_int_equal(doca_eth_rxq_create(f->dev, 64, 1000, &q), DOCA_SUCCESS);
	TEST_EXPECT_ERR(opengda_eth_rxq_set_striding(q, 4), DOCA_ERROR_INVALID_VALUE, "power of two");
	TEST_EXPECT_ERR(opengda_eth_rxq_set_striding(q, 24), DOCA_ERROR_INVALID_VALUE, "power of two");
	TEST_EXPECT_ERR(opengda_eth_rxq_set_striding(q, OPENGDA_ETH_RXQ_MAX_STRIDES * 2u), DOCA_ERROR_INVALID_VALUE,
			"power of two");
	assert_int_equal(opengda_eth_rxq_set_striding(q, 8), DOCA_SUCCESS);
	m = cfx_mmap(f, 0, 64u * 1024u, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(q, m, 0, 64u * 1000u), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(q), f->gpu), DOCA_SUCCESS);
	/* 1000-byte strides: refused at start */
	expect_start_refused(q, "a power of two of 64");
	assert_int_equal(doca_eth_rxq_set_max_packet_size(q, 1024), DOCA_SUCCESS);
	/* 64 strides in one WQE: fewer than two WQEs */
	assert_int_equal(opengda_eth_rxq_set_striding(q, 64), DOCA_SUCCESS);
	expect_start_refused(q, "fewer than two WQEs");
	assert_int_equal(opengda_eth_rxq_set_striding(q, 16), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(q, m, 0, 64u * 1024u), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	TEST_EXPECT_ERR(opengda_eth_rxq_set_striding(q, 8), DOCA_ERROR_BAD_STATE, "started");
	assert_int_equal(doca_eth_rxq_get_gpu_handle(q, &h), DOCA_SUCCESS);
	assert_int_equal(h->striding_rq, 1);
	assert_int_equal(h->pkt_num, 64);
	assert_int_equal(h->max_pkt_sz, 1024);
	assert_int_equal(h->wqe_strides_num, 16);
	assert_int_equal(h->wqe_num, 4);
	assert_int_equal(h->wqe_mask, 3);
	assert_int_equal(h->wqe_pi, 4);
	assert_int_equal(h->wqe_id_last, 0);
	assert_int_equal(h->cq.cqe_num, 64);
	assert_int_equal(opengda_mlx5_be32toh(*h->wqe_db_rec), 4);
	for (i = 0; i < 4; i++) {
		const uint8_t *w = h->wqe_addr + 32u * i;
		static const uint8_t zero[16];
		uint64_t a = 0;
		uint32_t bc = 0;

		assert_memory_equal(w, zero, 16);
		memcpy(&bc, w + 16, 4);
		memcpy(&a, w + 24, 8);
		assert_int_equal(opengda_mlx5_be32toh(bc), 16u * 1024u);
		assert_true(opengda_mlx5_be64toh(a) == h->pkt_addr + (uint64_t)i * 16u * 1024u);
	}
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	/* back to cyclic: one 16-byte WQE per buffer again */
	assert_int_equal(opengda_eth_rxq_set_striding(q, 0), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_get_gpu_handle(q, &h), DOCA_SUCCESS);
	assert_int_equal(h->striding_rq, 0);
	assert_int_equal(h->wqe_num, 64);
	assert_int_equal(h->wqe_strides_num, 1);
	stop_destroy(q, m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_input, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_lifecycle_and_queue_ids, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_striding, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
