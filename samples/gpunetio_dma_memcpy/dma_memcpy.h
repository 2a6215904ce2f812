/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_dma_memcpy: what the host part (dma_memcpy.c) and the CUDA part (dma_memcpy_kernel.cu,
 * built where nvcc exists) share.
 */
#ifndef DMA_MEMCPY_H_
#define DMA_MEMCPY_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu_dma;
struct doca_gpu_buf_arr;

/*
 * One kernel of one block of @threads threads: thread t enqueues copies t, t + threads, ... of
 * element i of @src to element i of @dst (@size bytes each, @n copies); then thread 0 commits and
 * waits. *result (host-visible memory) receives the first error, or DOCA_SUCCESS; *ns the time
 * from launch to the kernel's end. Returns 0, or -1 with an error line (launch, timeout).
 */
int dma_cuda_run(struct doca_gpu_dma *dma, struct doca_gpu_buf_arr *src, struct doca_gpu_buf_arr *dst, uint32_t n,
		 uint64_t size, uint32_t threads, uint32_t *result, uint64_t *ns);

/* The baseline: cudaMemcpy of @len bytes (any direction, unified addressing), timed. 0 or -1. */
int dma_cuda_baseline(void *dst, const void *src, size_t len, uint64_t *ns);

#ifdef __cplusplus
}
#endif

#endif /* DMA_MEMCPY_H_ */
