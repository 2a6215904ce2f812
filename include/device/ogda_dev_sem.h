/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_sem.h
 * @brief GPU semaphores as device code sees them (doca_gpu_semaphore_get_gpu_handle()), and the
 *        status, packet-info and custom-info accessors, for CUDA and for host threads.
 *
 * A semaphore is an array of items; each item has a status word, a packet count and a buffer
 * index (for the packet-info calls), and optionally a fixed-size custom-info record in a second
 * array. It is a one-way message slot between a producer and a consumer that may be a CPU thread
 * and a GPU thread: the producer writes the custom info (and packet info), then sets the status
 * with a *release* store at system scope; the consumer reads the status with an *acquire* load
 * at system scope and, having seen the new status, sees everything written before it.
 * The host functions of doca_gpunetio_semaphore.h use the same protocol on the CPU side.
 * The DOCA names are in doca_gpunetio_dev_sem.cuh.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_SEM_H
#define OGDA_DEV_SEM_H

#include "ogda_dev_port.h"

#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Status of a semaphore item (values as in DOCA). */
enum doca_gpu_semaphore_status {
	DOCA_GPU_SEMAPHORE_STATUS_FREE = 0,  /**< Nothing in the item. */
	DOCA_GPU_SEMAPHORE_STATUS_READY = 1, /**< The producer filled it. */
	DOCA_GPU_SEMAPHORE_STATUS_DONE = 2,  /**< The consumer handled it. */
	DOCA_GPU_SEMAPHORE_STATUS_HOLD = 3,  /**< Held (application-defined). */
	DOCA_GPU_SEMAPHORE_STATUS_ERROR = 4, /**< Failed (application-defined). */
	DOCA_GPU_SEMAPHORE_STATUS_EXIT = 5,  /**< The consumer should stop. */
};

/** One item (16 bytes). */
struct ogda_dev_sem_item {
	uint32_t status;               /**< enum doca_gpu_semaphore_status; written with release. */
	uint32_t num_packets;          /**< Packet-info: packets in the batch. */
	uint64_t buf_idx_start;        /**< Packet-info: index of the batch's first buffer. */
};

/** The device handle of a semaphore. */
struct doca_gpu_semaphore_gpu {
	struct ogda_dev_sem_item *items; /**< items_num items. */
	uint8_t *custom_info;            /**< items_num records of custom_info_size bytes, or NULL. */
	uint32_t items_num;              /**< Number of items. */
	uint32_t custom_info_size;       /**< Bytes per custom-info record (0: none). */
};

/** Release store of a status word, system scope (the reader may be the CPU). */
OGDA_DEV_FN void ogda_dev_sem_store_status(uint32_t *p, uint32_t v)
{
#if defined(__CUDACC__)
	asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

/** Acquire load of a status word, system scope (the writer may be the CPU). */
OGDA_DEV_FN uint32_t ogda_dev_sem_load_status(const uint32_t *p)
{
#if defined(__CUDACC__)
	uint32_t v;
	asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
#else
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

/** Compare-and-swap of a status word, acquire-release at system scope; returns the old value. */
OGDA_DEV_FN uint32_t ogda_dev_sem_cas_status(uint32_t *p, uint32_t expected, uint32_t desired)
{
#if defined(__CUDACC__)
	uint32_t old;
	asm volatile("atom.acq_rel.sys.global.cas.b32 %0, [%1], %2, %3;"
		     : "=r"(old)
		     : "l"(p), "r"(expected), "r"(desired)
		     : "memory");
	return old;
#else
	__atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return expected;
#endif
}

/** Whether @p sem and @p idx name an item. */
OGDA_DEV_FN int ogda_dev_sem_valid(const struct doca_gpu_semaphore_gpu *sem, uint32_t idx)
{
	return sem != NULL && idx < sem->items_num;
}

/** Sets item @p idx to @p status (release). DOCA_ERROR_INVALID_VALUE for a bad handle, index or status. */
OGDA_DEV_FN doca_error_t ogda_dev_sem_set_status(struct doca_gpu_semaphore_gpu *sem, uint32_t idx, uint32_t status)
{
	if (!ogda_dev_sem_valid(sem, idx) || status > DOCA_GPU_SEMAPHORE_STATUS_EXIT)
		return DOCA_ERROR_INVALID_VALUE;
	ogda_dev_sem_store_status(&sem->items[idx].status, status);
	return DOCA_SUCCESS;
}

/** Reads the status of item @p idx (acquire). DOCA_ERROR_INVALID_VALUE for a bad handle, index or pointer. */
OGDA_DEV_FN doca_error_t ogda_dev_sem_get_status(const struct doca_gpu_semaphore_gpu *sem, uint32_t idx,
						 enum doca_gpu_semaphore_status *status)
{
	if (!ogda_dev_sem_valid(sem, idx) || status == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*status = (enum doca_gpu_semaphore_status)ogda_dev_sem_load_status(&sem->items[idx].status);
	return DOCA_SUCCESS;
}

/**
 * Sets item @p idx to @p desired if it is @p expected. DOCA_ERROR_NOT_PERMITTED when it is not
 * (as DOCA); DOCA_ERROR_INVALID_VALUE for a bad handle, index or status.
 */
OGDA_DEV_FN doca_error_t ogda_dev_sem_set_status_cas(struct doca_gpu_semaphore_gpu *sem, uint32_t idx,
						     uint32_t expected, uint32_t desired)
{
	if (!ogda_dev_sem_valid(sem, idx) || desired > DOCA_GPU_SEMAPHORE_STATUS_EXIT)
		return DOCA_ERROR_INVALID_VALUE;
	if (ogda_dev_sem_cas_status(&sem->items[idx].status, expected, desired) != expected)
		return DOCA_ERROR_NOT_PERMITTED;
	return DOCA_SUCCESS;
}

/** Writes the packet info of item @p idx, then its status (release: the info is visible first). */
OGDA_DEV_FN doca_error_t ogda_dev_sem_set_packet_info(struct doca_gpu_semaphore_gpu *sem, uint32_t idx,
						      uint32_t status, uint32_t num_packets, uint64_t buf_idx_start)
{
	if (!ogda_dev_sem_valid(sem, idx) || status > DOCA_GPU_SEMAPHORE_STATUS_EXIT)
		return DOCA_ERROR_INVALID_VALUE;
	sem->items[idx].num_packets = num_packets;
	sem->items[idx].buf_idx_start = buf_idx_start;
	ogda_dev_sem_store_status(&sem->items[idx].status, status);
	return DOCA_SUCCESS;
}

/** Reads the status (acquire), then the packet info written before it. */
OGDA_DEV_FN doca_error_t ogda_dev_sem_get_packet_info(const struct doca_gpu_semaphore_gpu *sem, uint32_t idx,
						      enum doca_gpu_semaphore_status *status, uint32_t *num_packets,
						      uint64_t *buf_idx_start)
{
	if (!ogda_dev_sem_valid(sem, idx) || status == NULL || num_packets == NULL || buf_idx_start == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*status = (enum doca_gpu_semaphore_status)ogda_dev_sem_load_status(&sem->items[idx].status);
	*num_packets = sem->items[idx].num_packets;
	*buf_idx_start = sem->items[idx].buf_idx_start;
	return DOCA_SUCCESS;
}

/** As ogda_dev_sem_get_packet_info(), only when the status is @p status: DOCA_ERROR_NOT_FOUND otherwise. */
OGDA_DEV_FN doca_error_t ogda_dev_sem_get_packet_info_status(const struct doca_gpu_semaphore_gpu *sem, uint32_t idx,
							     uint32_t status, uint32_t *num_packets,
							     uint64_t *buf_idx_start)
{
	if (!ogda_dev_sem_valid(sem, idx) || num_packets == NULL || buf_idx_start == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (ogda_dev_sem_load_status(&sem->items[idx].status) != status)
		return DOCA_ERROR_NOT_FOUND;
	*num_packets = sem->items[idx].num_packets;
	*buf_idx_start = sem->items[idx].buf_idx_start;
	return DOCA_SUCCESS;
}

/** The custom-info record of item @p idx. DOCA_ERROR_INVALID_VALUE for a bad handle, index or pointer;
 *  DOCA_ERROR_NOT_FOUND when the semaphore has no custom info. */
OGDA_DEV_FN doca_error_t ogda_dev_sem_get_custom_info_addr(const struct doca_gpu_semaphore_gpu *sem, uint32_t idx,
							   void **custom_info)
{
	if (!ogda_dev_sem_valid(sem, idx) || custom_info == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (sem->custom_info == NULL)
		return DOCA_ERROR_NOT_FOUND;
	*custom_info = sem->custom_info + (uint64_t)idx * sem->custom_info_size;
	return DOCA_SUCCESS;
}

#ifdef __cplusplus
}
#endif

#endif /* OGDA_DEV_SEM_H */
