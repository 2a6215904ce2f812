/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_semaphore.h
 * @brief DOCA GPUNetIO semaphores, host side (DOCA declares these in doca_gpunetio.h, which
 *        includes this header): an array of status items, each with optional custom info, shared
 *        by CPU threads and device code (doca_gpunetio_dev_sem.cuh; layout in device/ogda_dev_sem.h).
 *
 * Lifecycle: create, configure (memory type, number of items, custom info), start (allocates and
 * zeroes: every item FREE), use, stop, destroy. Configuration is refused after start and destroy
 * while started (DOCA_ERROR_BAD_STATE). The CPU-side status and custom-info calls need items the CPU
 * can reach: memory type GPU_CPU or CPU_GPU (and custom info of such a type for the custom-info
 * call); with GPU memory they return DOCA_ERROR_NOT_SUPPORTED.
 *
 * Memory model: doca_gpu_semaphore_set_status() is a release store after a full fence (ordering
 * the caller's custom-info writes, also into write-combined GDRCopy mappings), and
 * doca_gpu_semaphore_get_status() an acquire load, pairing with the device side's system-scope
 * release and acquire.
 */
#ifndef DOCA_GPUNETIO_SEMAPHORE_H
#define DOCA_GPUNETIO_SEMAPHORE_H

#include "doca_gpunetio.h"
#include "device/ogda_dev_sem.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A semaphore (host object). */
struct doca_gpu_semaphore;

/**
 * @brief Creates a semaphore for @p gpu (a CUDA GPU or a host handle); memory type GPU, no items,
 *        no custom info until configured.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_gpu_semaphore_create(struct doca_gpu *gpu, struct doca_gpu_semaphore **semaphore);

/**
 * @brief Destroys a semaphore that is not started.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE while started.
 */
doca_error_t doca_gpu_semaphore_destroy(struct doca_gpu_semaphore *semaphore);

/**
 * @brief Where the items live.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or an unknown type; DOCA_ERROR_BAD_STATE after start.
 */
doca_error_t doca_gpu_semaphore_set_memory_type(struct doca_gpu_semaphore *semaphore, enum doca_gpu_mem_type mtype);

/**
 * @brief The number of items (above 0).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or 0; DOCA_ERROR_BAD_STATE after start.
 */
doca_error_t doca_gpu_semaphore_set_items_num(struct doca_gpu_semaphore *semaphore, uint32_t num_items);

/**
 * @brief A custom-info record of @p nbytes per item (0: none), in memory of type @p mtype.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or an unknown type; DOCA_ERROR_BAD_STATE after start.
 */
doca_error_t doca_gpu_semaphore_set_custom_info(struct doca_gpu_semaphore *semaphore, uint32_t nbytes,
						enum doca_gpu_mem_type mtype);

/**
 * @brief Allocates the items (all FREE, custom info zeroed) and the device handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when started already
 *         or the number of items is not set; DOCA_ERROR_NO_MEMORY; DOCA_ERROR_DRIVER.
 */
doca_error_t doca_gpu_semaphore_start(struct doca_gpu_semaphore *semaphore);

/**
 * @brief Frees the items; the semaphore can be reconfigured and started again. No device code may
 *        use the handle any more.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not started.
 */
doca_error_t doca_gpu_semaphore_stop(struct doca_gpu_semaphore *semaphore);

/**
 * @brief The device handle to pass to kernels (in GPU memory; host memory for a host handle).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not started.
 */
doca_error_t doca_gpu_semaphore_get_gpu_handle(struct doca_gpu_semaphore *semaphore,
					       struct doca_gpu_semaphore_gpu **semaphore_gpu);

/**
 * @brief Sets the status of item @p idx from the CPU (release; see the file description).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL, an index past the end or an unknown status;
 *         DOCA_ERROR_BAD_STATE when not started; DOCA_ERROR_NOT_SUPPORTED for items in GPU memory.
 */
doca_error_t doca_gpu_semaphore_set_status(struct doca_gpu_semaphore *semaphore, uint32_t idx,
					   enum doca_gpu_semaphore_status status);

/**
 * @brief Reads the status of item @p idx from the CPU (acquire).
 * @return As doca_gpu_semaphore_set_status().
 */
doca_error_t doca_gpu_semaphore_get_status(struct doca_gpu_semaphore *semaphore, uint32_t idx,
					   enum doca_gpu_semaphore_status *status);

/**
 * @brief The CPU address of the custom-info record of item @p idx.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or an index past the end;
 *         DOCA_ERROR_BAD_STATE when not started; DOCA_ERROR_NOT_FOUND without custom info;
 *         DOCA_ERROR_NOT_SUPPORTED for custom info in GPU memory.
 */
doca_error_t doca_gpu_semaphore_get_custom_info_addr(struct doca_gpu_semaphore *semaphore, uint32_t idx,
						     void **custom_info);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_GPUNETIO_SEMAPHORE_H */
