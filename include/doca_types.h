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

#ifdef __cplusplus
extern "C" {
#endif

/** @brief An event handle for poll/select/epoll: a file descriptor on Linux (as in DOCA). */
typedef int doca_event_handle_t;

/** @brief The value of a doca_event_handle_t that names no handle. */
#define doca_event_invalid_handle (-1)

#ifdef __cplusplus
}
#endif

#endif /* DOCA_TYPES_H_ */
