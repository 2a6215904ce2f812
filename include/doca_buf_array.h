/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_buf_array.h
 * @brief DOCA Core buffer array: a started doca_mmap cut into fixed-size elements, laid out for
 *        device code (doca_buf_arr_get_gpu_handle(); the device view is in device/ogda_dev_buf.h,
 *        its DOCA accessors in device/doca_gpunetio_dev_buf.cuh).
 *
 * Differences from DOCA (docs/doca-core.md): GPU targets only (no DPA, no doca_buf free list);
 * every element carries the key of the mmap's first device.
 */
#ifndef DOCA_BUF_ARRAY_H_
#define DOCA_BUF_ARRAY_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu;
struct doca_mmap;
/** @brief A buffer array. */
struct doca_buf_arr;
/** @brief Its device view (device/ogda_dev_buf.h). */
struct doca_gpu_buf_arr;

/**
 * @brief Creates an array of @p num_elem elements (configure it, then start it).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or num_elem 0; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr);

/**
 * @brief Builds the array for @p gpu_handler (a CUDA GPU, or a host handle for host threads).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE after start.
 */
doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr, struct doca_gpu *gpu_handler);

/**
 * @brief Element i is the @p elem_size bytes at @p start_offset + i * elem_size of @p mmap.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or elem_size 0; DOCA_ERROR_BAD_STATE after start.
 */
doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr, struct doca_mmap *mmap, size_t elem_size,
				     uint64_t start_offset);

/**
 * @brief Lays the array out in the target's memory. The mmap must be started and registered with a
 *        device; it cannot be stopped while the array is started.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when started already,
 *         with no target or parameters, or with an mmap not started or without a device;
 *         DOCA_ERROR_NO_MEMORY when the mmap's range is too small for the elements (as DOCA) or
 *         memory runs out; DOCA_ERROR_DRIVER when the GPU refuses a copy.
 */
doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr);

/**
 * @brief Frees the device layout; the array can be reconfigured and started again.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not started.
 */
doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr);

/**
 * @brief Destroys the array, stopping it first when started (as DOCA).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr);

/**
 * @brief The device view, in the target's memory (pass it to kernels).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not started.
 */
doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr, struct doca_gpu_buf_arr **gpu_buf_arr);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_ARRAY_H_ */
