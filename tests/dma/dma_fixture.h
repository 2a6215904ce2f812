/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture of the DMA tests: the DOCA Core fixture (swnic0, a host GPU handle) plus a running
 * doca_dma with a host-thread data path, and buffer arrays over mmaps of any host range. The
 * device functions (include/device/ogda_dev_dma.h) run on the test's threads. Every helper
 * asserts (cmocka) its calls.
 */
#ifndef OGDA_TESTS_DMA_DMA_FIXTURE_H_
#define OGDA_TESTS_DMA_DMA_FIXTURE_H_

#include "doca_core/core_fixture.h"

#include "device/ogda_dev_dma.h"
#include "doca_ctx.h"
#include "doca_dma.h"

/* Access of a copy's destination: the write arrives on the responder side (doca_dma.h). */
#define DMAFX_DST_ACCESS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE)
#define DMAFX_SRC_ACCESS DOCA_ACCESS_FLAG_LOCAL_READ_WRITE

/* A started buffer array of n elements of elem bytes over a started mmap of [addr, + n * elem). */
struct dmafx_arr {
	struct doca_mmap *mmap;
	struct doca_buf_arr *arr;
	struct doca_gpu_buf_arr *h; /* host memory: the test's threads read it */
};

void dmafx_arr_open(struct cfx *f, struct dmafx_arr *a, void *addr, size_t n, size_t elem, uint32_t access);
void dmafx_arr_close(struct dmafx_arr *a);
/* Element i of an open array. */
struct doca_gpu_buf *dmafx_buf(const struct dmafx_arr *a, uint64_t i);

/* A doca_dma on f->dev with the host handle as its data path, started; its device handle in *h. */
struct doca_dma *dmafx_dma_start(struct cfx *f, uint32_t queue_size, uint64_t timeout_ns, struct doca_gpu_dma **h);
void dmafx_dma_stop(struct doca_dma *dma);

/* Deterministic bytes: fill writes them, check says whether p holds them. */
void dmafx_fill(uint8_t *p, size_t len, uint32_t seed);
bool dmafx_check(const uint8_t *p, size_t len, uint32_t seed);

#endif /* OGDA_TESTS_DMA_DMA_FIXTURE_H_ */
