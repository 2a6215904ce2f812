/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_sem.cuh
 * @brief DOCA GPUNetIO semaphore device functions (the names of DOCA's doca_gpunetio_dev_sem.cuh),
 *        over the C core of ogda_dev_sem.h. DOCA declares them extern in its static device library;
 *        here they are inline, so nothing needs linking. Set-status is a release store and
 *        get-status an acquire load, both at system scope, so a CPU thread can be either side.
 *
 * device-code: yes
 */
#ifndef DOCA_GPUNETIO_DEV_SEM_CUH
#define DOCA_GPUNETIO_DEV_SEM_CUH

#include "ogda_dev_sem.h"

/** Sets the status of item @p idx. DOCA_ERROR_INVALID_VALUE for a bad handle, index or status. */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_semaphore_set_status(
	struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, enum doca_gpu_semaphore_status status)
{
	return ogda_dev_sem_set_status(semaphore_gpu, idx, (uint32_t)status);
}

/** Sets item @p idx to @p val if it holds @p compare; DOCA_ERROR_NOT_PERMITTED when it does not. */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_semaphore_set_status_cas(
	struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, enum doca_gpu_semaphore_status compare,
	enum doca_gpu_semaphore_status val)
{
	return ogda_dev_sem_set_status_cas(semaphore_gpu, idx, (uint32_t)compare, (uint32_t)val);
}

/** Reads the status of item @p idx. */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_semaphore_get_status(
	struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, enum doca_gpu_semaphore_status *status)
{
	return ogda_dev_sem_get_status(semaphore_gpu, idx, status);
}

/** Writes the packet info of item @p idx, then its status. */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_semaphore_set_packet_info(
	struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, enum doca_gpu_semaphore_status status,
	uint32_t num_packets, uint64_t doca_buf_idx_start)
{
	return ogda_dev_sem_set_packet_info(semaphore_gpu, idx, (uint32_t)status, num_packets, doca_buf_idx_start);
}

/** Reads the status of item @p idx and the packet info written before it. */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_semaphore_get_packet_info(
	struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, enum doca_gpu_semaphore_status *status,
	uint32_t *num_packets, uint64_t *doca_buf_idx_start)
{
	return ogda_dev_sem_get_packet_info(semaphore_gpu, idx, status, num_packets, doca_buf_idx_start);
}

/**
 * As doca_gpu_dev_semaphore_get_packet_info(), only when the item's status is @p status:
 * DOCA_ERROR_NOT_FOUND otherwise (the outputs are then not set).
 */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_semaphore_get_packet_info_status(
	struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, enum doca_gpu_semaphore_status status,
	uint32_t *num_packets, uint64_t *doca_buf_idx_start)
{
	return ogda_dev_sem_get_packet_info_status(semaphore_gpu, idx, (uint32_t)status, num_packets,
						   doca_buf_idx_start);
}

/** The custom-info record of item @p idx; DOCA_ERROR_NOT_FOUND when the semaphore has none. */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_semaphore_get_custom_info_addr(
	struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, void **custom_info)
{
	return ogda_dev_sem_get_custom_info_addr(semaphore_gpu, idx, custom_info);
}

#endif /* DOCA_GPUNETIO_DEV_SEM_CUH */
