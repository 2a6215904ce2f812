/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dma with a host-thread data path on the software NIC: the device functions copy bytes
 * through the context's loopback QP, from host memory and from every memory type a host handle
 * allocates; many threads enqueue and one commit executes; bad input and failed copies return
 * their errors (with the CQE syndrome) instead of hanging.
 */
#include "dma_fixture.h"

#include "doca_gpunetio.h"
#include "opengda_mlx5.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define ELEMS 16u
#define ELEM 1024u
#define SRC_OFF 0u
#define DST_OFF 32768u

/* Copies element i of src to element ELEMS-1-i of dst, one commit, and checks every byte. */
static void test_host_to_host(void **state)
{
	struct cfx *f = *state;
	struct dmafx_arr src, dst;
	struct doca_gpu_dma *h;
	struct doca_dma *dma = dmafx_dma_start(f, 0, 0, &h);
	uint8_t syn = 0;

	dmafx_fill(f->buf + SRC_OFF, ELEMS * ELEM, 1);
	dmafx_arr_open(f, &src, f->buf + SRC_OFF, ELEMS, ELEM, DMAFX_SRC_ACCESS);
	dmafx_arr_open(f, &dst, f->buf + DST_OFF, ELEMS, ELEM, DMAFX_DST_ACCESS);
	for (uint32_t i = 0; i < ELEMS; i++)
		assert_int_equal(ogda_dev_dma_memcpy(h, dmafx_buf(&src, i), 0, dmafx_buf(&dst, ELEMS - 1 - i), 0, ELEM,
						     &syn),
				 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_commit(h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_wait(h, &syn), DOCA_SUCCESS);
	for (uint32_t i = 0; i < ELEMS; i++)
		assert_memory_equal(f->buf + DST_OFF + (size_t)(ELEMS - 1 - i) * ELEM, f->buf + SRC_OFF + (size_t)i * ELEM,
				    ELEM);
	/* Offsets inside elements and a zero-byte copy (nothing moves). */
	memset(f->buf + DST_OFF, 0, ELEMS * ELEM);
	assert_int_equal(ogda_dev_dma_memcpy(h, dmafx_buf(&src, 2), 100, dmafx_buf(&dst, 5), 7, 300, NULL), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_memcpy(h, dmafx_buf(&src, 3), 0, dmafx_buf(&dst, 6), 0, 0, NULL), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_commit(h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_wait(h, NULL), DOCA_SUCCESS);
	assert_memory_equal(f->buf + DST_OFF + 5 * ELEM + 7, f->buf + SRC_OFF + 2 * ELEM + 100, 300);
	assert_int_equal(f->buf[DST_OFF + 5 * ELEM + 6], 0);
	assert_int_equal(f->buf[DST_OFF + 5 * ELEM + 307], 0);
	assert_int_equal(f->buf[DST_OFF + 6 * ELEM], 0);
	dmafx_arr_close(&src);
	dmafx_arr_close(&dst);
	dmafx_dma_stop(dma);
}

/* Every pair of doca_gpu_mem_alloc types, in both directions (host handle: host memory). */
static void test_mem_types(void **state)
{
	static const enum doca_gpu_mem_type types[] = {DOCA_GPU_MEM_TYPE_GPU, DOCA_GPU_MEM_TYPE_GPU_CPU,
						       DOCA_GPU_MEM_TYPE_CPU_GPU};
	struct cfx *f = *state;
	struct doca_gpu_dma *h;
	struct doca_dma *dma = dmafx_dma_start(f, 0, 0, &h);
	const size_t len = 4 * ELEM;

	for (size_t s = 0; s < 3; s++) {
		for (size_t d = 0; d < 3; d++) {
			void *sg, *sc, *dg, *dc;
			struct dmafx_arr src, dst;

			assert_int_equal(doca_gpu_mem_alloc(f->gpu, len, 4096, types[s], &sg, &sc), DOCA_SUCCESS);
			assert_int_equal(doca_gpu_mem_alloc(f->gpu, len, 4096, types[d], &dg, &dc), DOCA_SUCCESS);
			dmafx_fill(sg, len, (uint32_t)(s * 3 + d));
			memset(dg, 0, len);
			dmafx_arr_open(f, &src, sg, 4, ELEM, DMAFX_SRC_ACCESS);
			dmafx_arr_open(f, &dst, dg, 4, ELEM, DMAFX_DST_ACCESS);
			for (uint64_t i = 0; i < 4; i++)
				assert_int_equal(ogda_dev_dma_memcpy(h, dmafx_buf(&src, i), 0, dmafx_buf(&dst, i), 0, ELEM,
								     NULL),
						 DOCA_SUCCESS);
			assert_int_equal(ogda_dev_dma_commit(h), DOCA_SUCCESS);
			assert_int_equal(ogda_dev_dma_wait(h, NULL), DOCA_SUCCESS);
			assert_true(dmafx_check(dg, len, (uint32_t)(s * 3 + d)));
			dmafx_arr_close(&src);
			dmafx_arr_close(&dst);
			assert_int_equal(doca_gpu_mem_free(f->gpu, sg), DOCA_SUCCESS);
			assert_int_equal(doca_gpu_mem_free(f->gpu, dg), DOCA_SUCCESS);
		}
	}
	dmafx_dma_stop(dma);
}

#define THREADS 4u
#define PER_THREAD 64u
#define SMALL 64u

struct enq_arg {
	struct doca_gpu_dma *h;
	struct dmafx_arr *src, *dst;
	uint32_t t;
	doca_error_t err;
};

static void *enqueue_thread(void *p)
{
	struct enq_arg *a = p;

	a->err = DOCA_SUCCESS;
	for (uint32_t k = 0; k < PER_THREAD && a->err == DOCA_SUCCESS; k++) {
		uint64_t i = (uint64_t)a->t * PER_THREAD + k;

		a->err = ogda_dev_dma_memcpy(a->h, dmafx_buf(a->src, i), 0, dmafx_buf(a->dst, i), 0, SMALL, NULL);
	}
	return NULL;
}

/* THREADS threads enqueue PER_THREAD copies each; nothing moves before the one commit. */
static void test_many_then_commit(void **state)
{
	struct cfx *f = *state;
	struct doca_gpu_dma *h;
	struct doca_dma *dma = dmafx_dma_start(f, 1024, 0, &h);
	struct dmafx_arr src, dst;
	struct enq_arg args[THREADS];
	pthread_t th[THREADS];
	const size_t n = THREADS * PER_THREAD;

	dmafx_fill(f->buf, n * SMALL, 9);
	dmafx_arr_open(f, &src, f->buf, n, SMALL, DMAFX_SRC_ACCESS);
	dmafx_arr_open(f, &dst, f->buf + DST_OFF, n, SMALL, DMAFX_DST_ACCESS);
	for (uint32_t t = 0; t < THREADS; t++) {
		args[t] = (struct enq_arg){.h = h, .src = &src, .dst = &dst, .t = t};
		assert_int_equal(pthread_create(&th[t], NULL, enqueue_thread, &args[t]), 0);
	}
	for (uint32_t t = 0; t < THREADS; t++) {
		assert_int_equal(pthread_join(th[t], NULL), 0);
		assert_int_equal(args[t].err, DOCA_SUCCESS);
	}
	/* Enqueued and published, but no doorbell yet: the NIC has not copied a byte. */
	for (size_t i = 0; i < n * SMALL; i++)
		assert_int_equal(f->buf[DST_OFF + i], 0);
	assert_int_equal(h->qp->sq_ready_index, n);
	assert_int_equal(ogda_dev_dma_commit(h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_wait(h, NULL), DOCA_SUCCESS);
	assert_memory_equal(f->buf + DST_OFF, f->buf, n * SMALL);
	dmafx_arr_close(&src);
	dmafx_arr_close(&dst);
	dmafx_dma_stop(dma);
}

/* Host API and device functions reject bad input with their documented errors. */
static void test_bad_input(void **state)
{
	struct cfx *f = *state;
	struct doca_dma *dma = NULL;
	struct doca_gpu_dma *h = NULL;
	struct doca_gpu_buf b = {0};
	uint64_t max = 0;

	assert_int_equal(doca_dma_create(NULL, &dma), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_create(f->dev, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_null(doca_dma_as_ctx(NULL));
	assert_int_equal(doca_dma_get_gpu_handle(NULL, &h), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_cap_task_memcpy_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_cap_task_memcpy_is_supported(f->info), DOCA_SUCCESS);
	assert_int_equal(doca_dma_cap_task_memcpy_get_max_buf_size(f->info, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_cap_task_memcpy_get_max_buf_size(f->info, &max), DOCA_SUCCESS);
	assert_int_equal(max, 1ull << 30);

	assert_int_equal(doca_dma_create(f->dev, &dma), DOCA_SUCCESS);
	assert_int_equal(doca_dma_get_gpu_handle(dma, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_get_gpu_handle(dma, &h), DOCA_ERROR_BAD_STATE); /* not started */
	assert_int_equal(opengda_dma_set_queue_size(dma, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_dma_set_queue_size(dma, OPENGDA_DMA_MAX_QUEUE_SIZE + 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_dma_set_queue_size(NULL, 8), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_dma_set_wait_timeout(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	/* No data path: neither a GPU's nor CPU tasks (doca_dma_task_memcpy_set_conf). */
	assert_int_equal(doca_ctx_start(doca_dma_as_ctx(dma)), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_dma_as_ctx(dma), f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_dma_as_ctx(dma)), DOCA_SUCCESS);
	assert_int_equal(opengda_dma_set_queue_size(dma, 8), DOCA_ERROR_BAD_STATE);
	assert_int_equal(opengda_dma_set_wait_timeout(dma, 1), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_dma_destroy(dma), DOCA_ERROR_BAD_STATE); /* running */
	assert_int_equal(doca_dev_close(f->dev), DOCA_ERROR_IN_USE);   /* the context uses it */
	assert_int_equal(doca_dma_get_gpu_handle(dma, &h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_memcpy(NULL, &b, 0, &b, 0, 1, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_dma_memcpy(h, NULL, 0, &b, 0, 1, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_dma_memcpy(h, &b, 0, NULL, 0, 1, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_dma_commit(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_dma_wait(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_dma_wait(h, NULL), DOCA_SUCCESS); /* nothing enqueued */
	assert_int_equal(doca_ctx_stop(doca_dma_as_ctx(dma)), DOCA_SUCCESS);
	assert_int_equal(doca_dma_get_gpu_handle(dma, &h), DOCA_ERROR_BAD_STATE); /* stopped */
	/* Restartable: a fresh QP. */
	assert_int_equal(doca_ctx_start(doca_dma_as_ctx(dma)), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_stop(doca_dma_as_ctx(dma)), DOCA_SUCCESS);
	assert_int_equal(doca_dma_destroy(dma), DOCA_SUCCESS);
}

/* Failed copies: the first failure's syndrome comes back, later copies fail too, nothing hangs. */
static void test_errors(void **state)
{
	struct cfx *f = *state;
	struct doca_gpu_dma *h;
	struct doca_dma *dma = dmafx_dma_start(f, 0, 0, &h);
	struct dmafx_arr src, dst_ro;
	struct doca_gpu_buf bogus;
	uint8_t syn = 0;

	dmafx_fill(f->buf, ELEM, 3);
	dmafx_arr_open(f, &src, f->buf, 1, ELEM, DMAFX_SRC_ACCESS);
	/* A destination whose mmap does not grant RDMA writes: remote-access error. */
	dmafx_arr_open(f, &dst_ro, f->buf + DST_OFF, 1, ELEM, DMAFX_SRC_ACCESS);
	assert_int_equal(ogda_dev_dma_memcpy(h, dmafx_buf(&src, 0), 0, dmafx_buf(&dst_ro, 0), 0, ELEM, NULL),
			 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_memcpy(h, dmafx_buf(&src, 0), 0, dmafx_buf(&src, 0), 0, 8, NULL), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_commit(h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_wait(h, &syn), DOCA_ERROR_IO_FAILED);
	assert_int_equal(syn, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR); /* the first, not the flush */
	assert_int_equal(f->buf[DST_OFF], 0);
	/* The QP is in error: later copies complete in error too (flushed), still no hang. */
	assert_int_equal(ogda_dev_dma_memcpy(h, dmafx_buf(&src, 0), 0, dmafx_buf(&src, 0), 0, 8, NULL), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_commit(h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_wait(h, &syn), DOCA_ERROR_IO_FAILED);
	dmafx_arr_close(&dst_ro);
	dmafx_dma_stop(dma);

	/* A buffer no mmap registered (an unknown key): local protection error after a restart. */
	dma = dmafx_dma_start(f, 0, 0, &h);
	bogus = *dmafx_buf(&src, 0);
	bogus.mkey ^= 0x5a5a00u;
	bogus.mkey_be ^= 0x005a5a00u;
	assert_int_equal(ogda_dev_dma_memcpy(h, &bogus, 0, dmafx_buf(&src, 0), 0, 8, NULL), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_commit(h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_wait(h, &syn), DOCA_ERROR_IO_FAILED);
	assert_int_equal(syn, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	dmafx_dma_stop(dma);
	dmafx_arr_close(&src);
}

/* More copies than the queue holds without a commit: the wait for space times out. */
static void test_full_queue_times_out(void **state)
{
	struct cfx *f = *state;
	struct doca_gpu_dma *h;
	struct doca_dma *dma = dmafx_dma_start(f, 4, 200000000ull, &h);
	struct dmafx_arr src;

	dmafx_arr_open(f, &src, f->buf, 2, ELEM, DMAFX_DST_ACCESS);
	for (int i = 0; i < 4; i++)
		assert_int_equal(ogda_dev_dma_memcpy(h, dmafx_buf(&src, 0), 0, dmafx_buf(&src, 1), 0, 8, NULL),
				 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_dma_memcpy(h, dmafx_buf(&src, 0), 0, dmafx_buf(&src, 1), 0, 8, NULL),
			 DOCA_ERROR_TIME_OUT);
	dmafx_dma_stop(dma);
	dmafx_arr_close(&src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_host_to_host, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_mem_types, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_many_then_commit, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_errors, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_full_queue_times_out, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
