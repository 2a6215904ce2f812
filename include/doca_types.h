/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_types.h
 * @brief Small types shared by the DOCA-compatible headers.
 */
#ifndef DOCA_TYPES_H_
#define DOCA_TYPES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief An event handle for poll/select/epoll: a file descriptor on Linux (as in DOCA). */
typedef int doca_event_handle_t;

/** @brief The value of a doca_event_handle_t that names no handle. */
#define doca_event_invalid_handle (-1)

/** @brief User data handed back in callbacks (as in DOCA). */
union doca_data {
	void *ptr;    /**< A pointer. */
	uint64_t u64; /**< Or a number. */
};

/**
 * @brief Access rights of a doca_mmap (doca_mmap_set_permissions()); values as in DOCA.
 * Flags combine with |; LOCAL_READ_ONLY is the absence of every other flag.
 */
enum doca_access_flag {
	DOCA_ACCESS_FLAG_LOCAL_READ_ONLY = 0,           /**< The device only reads the memory. */
	DOCA_ACCESS_FLAG_LOCAL_READ_WRITE = (1 << 0),   /**< The device also writes it (receive buffers). */
	DOCA_ACCESS_FLAG_RDMA_READ = (1 << 1),          /**< Peers may RDMA-read it. */
	DOCA_ACCESS_FLAG_RDMA_WRITE = (1 << 2),         /**< Peers may RDMA-write it. */
	DOCA_ACCESS_FLAG_RDMA_ATOMIC = (1 << 3),        /**< Peers may run atomics on it. */
	DOCA_ACCESS_FLAG_PCI_READ_ONLY = (1 << 4),      /**< Export to another PCI function, read (not supported). */
	DOCA_ACCESS_FLAG_PCI_READ_WRITE = (1 << 5),     /**< Export to another PCI function, write (not supported). */
	DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING = (1 << 6), /**< Relaxed PCIe ordering hint (accepted, no effect). */
};

#ifdef __cplusplus
}
#endif

#endif /* DOCA_TYPES_H_ */
