/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_dma_memcpy: the kernel and the cudaMemcpy baseline (dma_memcpy.h). */
#include "dma_memcpy.h"

#include <stdio.h>
#include <time.h>

#include "device/doca_gpunetio_dev_dma.cuh"
#include "ex_cuda.h"
extern "C" {
#include "sample_util.h"
}

#define DMA_KERNEL_TIMEOUT_S 60u

__global__ void dma_memcpy_kernel(struct doca_gpu_dma *dma, struct doca_gpu_buf_arr *src,
				  struct doca_gpu_buf_arr *dst, uint32_t n, uint64_t size, uint32_t *result)
{
	__shared__ uint32_t failed;
	doca_error_t err = DOCA_SUCCESS;

	if (threadIdx.x == 0)
		failed = DOCA_SUCCESS;
	__syncthreads();
	for (uint32_t i = threadIdx.x; i < n && err == DOCA_SUCCESS; i += blockDim.x) {
		struct doca_gpu_buf *s, *d;

		err = doca_gpu_dev_buf_get_buf(src, i, &s);
		if (err == DOCA_SUCCESS)
			err = doca_gpu_dev_buf_get_buf(dst, i, &d);
		if (err == DOCA_SUCCESS)
			err = doca_gpu_dev_dma_memcpy(dma, s, 0, d, 0, size);
	}
	if (err != DOCA_SUCCESS)
		atomicCAS(&failed, (uint32_t)DOCA_SUCCESS, (uint32_t)err);
	__syncthreads();
	if (threadIdx.x == 0) {
		err = (doca_error_t)failed;
		if (err == DOCA_SUCCESS)
			err = doca_gpu_dev_dma_commit(dma);
		if (err == DOCA_SUCCESS)
			err = opengda_gpu_dev_dma_wait(dma, NULL);
		*(volatile uint32_t *)result = (uint32_t)err;
		__threadfence_system();
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

extern "C" int dma_cuda_run(struct doca_gpu_dma *dma, struct doca_gpu_buf_arr *src, struct doca_gpu_buf_arr *dst,
			    uint32_t n, uint64_t size, uint32_t threads, uint32_t *result, uint64_t *ns)
{
	uint64_t t0, kns = 0;
	cudaError_t e;

	if (ex_cuda_begin() != 0)
		return -1;
	t0 = now_ns();
	dma_memcpy_kernel<<<1, threads>>>(dma, src, dst, n, size, result);
	e = cudaPeekAtLastError();
	if (e != cudaSuccess) {
		sample_err("kernel launch failed: %s", cudaGetErrorString(e));
		return -1;
	}
	if (ex_cuda_end(DMA_KERNEL_TIMEOUT_S, &kns) != 0)
		return -1;
	*ns = now_ns() - t0;
	return 0;
}

extern "C" int dma_cuda_baseline(void *dst, const void *src, size_t len, uint64_t *ns)
{
	uint64_t t0 = now_ns();
	cudaError_t e = cudaMemcpy(dst, src, len, cudaMemcpyDefault);

	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	*ns = now_ns() - t0;
	if (e != cudaSuccess) {
		sample_err("cudaMemcpy baseline: %s", cudaGetErrorString(e));
		return -1;
	}
	return 0;
}
