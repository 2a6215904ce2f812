/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_dma.cuh
 * @brief DOCA GPUNetIO DMA device functions (the names of DOCA's doca_gpunetio_dev_dma.cuh), over
 *        the C core of ogda_dev_dma.h. DOCA declares them extern in its static device library;
 *        here they are inline, so nothing needs linking.
 *
 * The copy engine is the NIC's (an RDMA WRITE on a QP connected to itself), not a BlueField DMA
 * engine, so any mlx5 NIC and the software NIC do it. opengda_gpu_dev_dma_wait is OpenGDA's:
 * DOCA's header has no completion call.
 *
 * device-code: yes
 */
#ifndef DOCA_GPUNETIO_DEV_DMA_CUH
#define DOCA_GPUNETIO_DEV_DMA_CUH

#include "doca_gpunetio_dev_buf.cuh"
#include "ogda_dev_dma.h"

/**
 * Enqueues a copy of @p length bytes from @p src_buf + @p src_offset to @p dst_buf +
 * @p dst_offset. Many threads may enqueue at once, each taking its own positions; the copies run
 * at the next doca_gpu_dev_dma_commit(). DOCA_ERROR_INVALID_VALUE for NULL arguments,
 * DOCA_ERROR_IO_FAILED after a failed copy, DOCA_ERROR_TIME_OUT when the queue stayed full.
 */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_dma_memcpy(struct doca_gpu_dma *dma,
								       struct doca_gpu_buf *src_buf,
								       uint64_t src_offset,
								       struct doca_gpu_buf *dst_buf,
								       uint64_t dst_offset, size_t length)
{
	return ogda_dev_dma_memcpy(dma, src_buf, src_offset, dst_buf, dst_offset, length, 0);
}

/** Executes the copies enqueued so far (one doorbell). One thread; concurrent commits are safe too. */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_dma_commit(struct doca_gpu_dma *dma)
{
	return ogda_dev_dma_commit(dma);
}

/**
 * OpenGDA: waits for every copy enqueued so far (commit first). DOCA_ERROR_IO_FAILED with the
 * first failed copy's CQE syndrome in @p syndrome (may be NULL); DOCA_ERROR_TIME_OUT past the
 * context's wait bound.
 */
__device__ static __forceinline__ doca_error_t opengda_gpu_dev_dma_wait(struct doca_gpu_dma *dma, uint8_t *syndrome)
{
	return ogda_dev_dma_wait(dma, syndrome);
}

#endif /* DOCA_GPUNETIO_DEV_DMA_CUH */
