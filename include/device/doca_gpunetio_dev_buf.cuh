/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_buf.cuh
 * @brief DOCA GPUNetIO buffer-array device functions (the names of DOCA's doca_gpunetio_dev_buf.cuh),
 *        over the C core of ogda_dev_buf.h. DOCA declares them extern in its static device library;
 *        here they are inline, so nothing needs linking.
 *
 * device-code: yes
 */
#ifndef DOCA_GPUNETIO_DEV_BUF_CUH
#define DOCA_GPUNETIO_DEV_BUF_CUH

#include "ogda_dev_buf.h"

/** Element @p doca_gpu_buf_idx of @p buf_arr. DOCA_ERROR_INVALID_VALUE past the end or for NULL. */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_buf_get_buf(const struct doca_gpu_buf_arr *buf_arr,
									 uint64_t doca_gpu_buf_idx,
									 struct doca_gpu_buf **buf)
{
	return ogda_dev_buf_get(buf_arr, doca_gpu_buf_idx, buf);
}

/** The address of @p buf (valid for the GPU). */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_buf_get_addr(const struct doca_gpu_buf *buf,
									  uintptr_t *addr)
{
	return ogda_dev_buf_addr(buf, addr);
}

/** The memory key of @p buf, CPU byte order (buf->mkey_be holds it big-endian). */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_buf_get_mkey(const struct doca_gpu_buf *buf,
									  uint32_t *mkey)
{
	return ogda_dev_buf_mkey(buf, mkey);
}

/**
 * A buffer for @p addr under memory key @p mkey (CPU byte order) for memory no buffer array
 * covers: an mmap's address and its doca_mmap_get_mkey (or a peer's remote key). DOCA documents
 * no way to free it; here it comes from the CUDA device heap (cudaLimitMallocHeapSize) and
 * opengda_gpu_dev_buf_destroy frees it. DOCA_ERROR_NO_MEMORY when the heap is exhausted.
 */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_buf_create(uintptr_t addr, uint32_t mkey,
									struct doca_gpu_buf **buf)
{
	return ogda_dev_buf_create(addr, mkey, buf);
}

/** OpenGDA: frees a buffer from doca_gpu_dev_buf_create (never one of a buffer array). */
__device__ static __forceinline__ doca_error_t opengda_gpu_dev_buf_destroy(struct doca_gpu_buf *buf)
{
	return ogda_dev_buf_destroy(buf);
}

#endif /* DOCA_GPUNETIO_DEV_BUF_CUH */
