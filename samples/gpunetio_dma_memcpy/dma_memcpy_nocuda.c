/* SPDX-License-Identifier: BSD-3-Clause */
/* dma_memcpy.h for a build without nvcc: ex_cuda_open() says no GPU, so these are never reached. */
#include "dma_memcpy.h"

#include "sample_util.h"

int dma_cuda_run(struct doca_gpu_dma *dma, struct doca_gpu_buf_arr *src, struct doca_gpu_buf_arr *dst, uint32_t n,
		 uint64_t size, uint32_t threads, uint32_t *result, uint64_t *ns)
{
	(void)dma, (void)src, (void)dst, (void)n, (void)size, (void)threads, (void)result, (void)ns;
	sample_err("this build has no CUDA support");
	return -1;
}

int dma_cuda_baseline(void *dst, const void *src, size_t len, uint64_t *ns)
{
	(void)dst, (void)src, (void)len, (void)ns;
	sample_err("this build has no CUDA support");
	return -1;
}
