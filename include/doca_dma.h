/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_dma.h
 * @brief DOCA DMA with a GPU data path: a context whose device handle lets CUDA kernels (or host
 *        threads) copy between buffers of doca_buf_arrs (doca_gpunetio_dev_dma.cuh).
 *
 * Names as in DOCA. The copy engine is the NIC's: the context owns an RC QP connected to itself
 * (DOCA Verbs objects on the device's protection domain), and a copy is an RDMA WRITE from the
 * source to the destination, so any mlx5 NIC (and the software NIC) does it, not only a
 * BlueField. Consequences, also in docs/dma.md and docs/compatibility.md:
 * - the destination's mmap must grant DOCA_ACCESS_FLAG_RDMA_WRITE (the write enters through the
 *   responder side); without it the copy completes with a remote-access error;
 * - source and destination must be mmaps started on the context's device;
 * - only the GPU data path exists (doca_ctx_set_datapath_on_gpu with a GPU or a host handle
 *   from opengda_gpu_create_host); DOCA's CPU tasks (doca_dma_task_memcpy) are not provided:
 *   doca_ctx_start without a GPU data path returns DOCA_ERROR_NOT_SUPPORTED.
 */
#ifndef DOCA_DMA_H_
#define DOCA_DMA_H_

#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_ctx;
struct doca_dma;
struct doca_gpu_dma;

/** Largest number of copies in flight OpenGDA lets a doca_dma queue hold. */
#define OPENGDA_DMA_MAX_QUEUE_SIZE 32768u
/** Copies in flight by default. */
#define OPENGDA_DMA_DEFAULT_QUEUE_SIZE 1024u
/** Default bound of every device-side wait of a doca_dma: 10 s. */
#define OPENGDA_DMA_DEFAULT_WAIT_TIMEOUT_NS 10000000000ull

/**
 * @brief Creates a DMA context on @p dev (from doca_dev_open() or doca_verbs_dev_open()).
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_dma_create(struct doca_dev *dev, struct doca_dma **dma);

/**
 * @brief Destroys a DMA context. @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE
 *        while it is running (doca_ctx_stop first).
 */
doca_error_t doca_dma_destroy(struct doca_dma *dma);

/** @brief The context of @p dma (doca_ctx_start / _stop / _set_datapath_on_gpu); NULL for NULL. */
struct doca_ctx *doca_dma_as_ctx(struct doca_dma *dma);

/**
 * @brief The device handle for doca_gpu_dev_dma_memcpy(): in GPU memory for a GPU, in host
 *        memory for a host handle.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE before start or without a GPU
 *         data path.
 */
doca_error_t doca_dma_get_gpu_handle(struct doca_dma *dma, struct doca_gpu_dma **dma_gpu);

/**
 * @brief Bytes one queue entry copies at most (1 GiB, the NIC's largest message);
 *        doca_gpu_dev_dma_memcpy splits a larger copy over several entries.
 * @return DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_dma_cap_task_memcpy_get_max_buf_size(const struct doca_devinfo *devinfo, uint64_t *max_buf_size);

/**
 * @brief Whether @p devinfo can run a DMA context with a GPU data path (every mlx5 device and the
 *        software NIC: DOCA_SUCCESS). @return DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_dma_cap_task_memcpy_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief OpenGDA: copies that may be in flight at once (WQEBBs of the QP; rounded up to a power
 *        of two; default OPENGDA_DMA_DEFAULT_QUEUE_SIZE). Device code must commit at least every
 *        this many enqueued copies. @return DOCA_ERROR_INVALID_VALUE (NULL, 0 or above
 *        OPENGDA_DMA_MAX_QUEUE_SIZE); DOCA_ERROR_BAD_STATE when running.
 */
doca_error_t opengda_dma_set_queue_size(struct doca_dma *dma, uint32_t num_copies);

/**
 * @brief OpenGDA: bound of every device-side wait (free queue slots, opengda_gpu_dev_dma_wait);
 *        0 waits for ever. Default OPENGDA_DMA_DEFAULT_WAIT_TIMEOUT_NS.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when running.
 */
doca_error_t opengda_dma_set_wait_timeout(struct doca_dma *dma, uint64_t timeout_ns);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_DMA_H_ */
