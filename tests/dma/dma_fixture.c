/* SPDX-License-Identifier: BSD-3-Clause */
#include "dma_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

void dmafx_arr_open(struct cfx *f, struct dmafx_arr *a, void *addr, size_t n, size_t elem, uint32_t access)
{
	a->mmap = cfx_mmap_range(f, addr, n * elem, access);
	assert_int_equal(doca_buf_arr_create(n, &a->arr), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_set_target_gpu(a->arr, f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_set_params(a->arr, a->mmap, elem, 0), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_start(a->arr), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_get_gpu_handle(a->arr, &a->h), DOCA_SUCCESS);
}

void dmafx_arr_close(struct dmafx_arr *a)
{
	assert_int_equal(doca_buf_arr_destroy(a->arr), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(a->mmap), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(a->mmap), DOCA_SUCCESS);
}

struct doca_gpu_buf *dmafx_buf(const struct dmafx_arr *a, uint64_t i)
{
	struct doca_gpu_buf *b = NULL;

	assert_int_equal(ogda_dev_buf_get(a->h, i, &b), DOCA_SUCCESS);
	return b;
}

struct doca_dma *dmafx_dma_start(struct cfx *f, uint32_t queue_size, uint64_t timeout_ns, struct doca_gpu_dma **h)
{
	struct doca_dma *dma = NULL;

	assert_int_equal(doca_dma_create(f->dev, &dma), DOCA_SUCCESS);
	if (queue_size != 0)
		assert_int_equal(opengda_dma_set_queue_size(dma, queue_size), DOCA_SUCCESS);
	if (timeout_ns != 0)
		assert_int_equal(opengda_dma_set_wait_timeout(dma, timeout_ns), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_dma_as_ctx(dma), f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_dma_as_ctx(dma)), DOCA_SUCCESS);
	assert_int_equal(doca_dma_get_gpu_handle(dma, h), DOCA_SUCCESS);
	return dma;
}

void dmafx_dma_stop(struct doca_dma *dma)
{
	assert_int_equal(doca_ctx_stop(doca_dma_as_ctx(dma)), DOCA_SUCCESS);
	assert_int_equal(doca_dma_destroy(dma), DOCA_SUCCESS);
}

/* A byte sequence that differs with the seed and repeats only after 64 KiB. */
void dmafx_fill(uint8_t *p, size_t len, uint32_t seed)
{
	uint8_t v = (uint8_t)(seed * 7u);

	for (size_t i = 0; i < len; i++, v = (uint8_t)(v * 5u + 1u + (i >> 16)))
		p[i] = (uint8_t)(v ^ (i >> 8));
}

bool dmafx_check(const uint8_t *p, size_t len, uint32_t seed)
{
	uint8_t *want = malloc(len);
	bool same;

	assert_non_null(want);
	dmafx_fill(want, len, seed);
	same = memcmp(p, want, len) == 0;
	free(want);
	return same;
}
