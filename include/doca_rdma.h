/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_rdma.h
 * @brief DOCA RDMA with a GPU data path: a context of RC connections whose device handle lets
 *        CUDA kernels (or host threads) write, read, send and receive
 *        (doca_gpunetio_dev_rdma.cuh).
 *
 * Names as in DOCA. Built on DOCA Verbs objects: every connection is a high-level QP
 * (doca_gpunetio_high_level.h) with a send and a receive queue on the device's DOCA Verbs PD, the
 * PD its mmaps are registered on. Connections are made out of band: doca_rdma_export() gives the
 * next free connection's details to send to the peer, doca_rdma_connect() takes the peer's. The
 * RDMA-CM flow (doca_rdma_start_listen_to_port / doca_rdma_connect_to_addr) is not provided.
 * Receives are posted on connection 0's receive queue (docs/rdma.md).
 */
#ifndef DOCA_RDMA_H_
#define DOCA_RDMA_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_ctx;
struct doca_rdma;
struct doca_rdma_connection;
struct doca_gpu_dev_rdma;

/** Most connections one context holds. */
#define OPENGDA_RDMA_MAX_CONNECTIONS 64u
/** Largest send or receive queue (operations in flight per connection). */
#define OPENGDA_RDMA_MAX_QUEUE_SIZE 32768u
/** Default send and receive queue sizes. */
#define OPENGDA_RDMA_DEFAULT_QUEUE_SIZE 1024u
/** Default bound of every device-side wait: 10 s. */
#define OPENGDA_RDMA_DEFAULT_WAIT_TIMEOUT_NS 10000000000ull

/**
 * @brief Creates an RDMA context on @p dev (from doca_dev_open() or doca_verbs_dev_open()).
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NO_MEMORY; DOCA_ERROR_NOT_SUPPORTED in
 *         DOCA SDK mode (not forwarded).
 */
doca_error_t doca_rdma_create(struct doca_dev *dev, struct doca_rdma **rdma);

/** @brief Destroys a context. @return DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_BAD_STATE while running. */
doca_error_t doca_rdma_destroy(struct doca_rdma *rdma);

/** @brief The context of @p rdma (start, stop, set_datapath_on_gpu); NULL for NULL. */
struct doca_ctx *doca_rdma_as_ctx(struct doca_rdma *rdma);

/**
 * @brief What peers may do to this side's memory through the connections: a mask of
 *        DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, _RDMA_READ, _RDMA_WRITE, _RDMA_ATOMIC. Default
 *        LOCAL_READ_WRITE (no remote access).
 * @return DOCA_ERROR_INVALID_VALUE (NULL, unknown bits); DOCA_ERROR_BAD_STATE when running.
 */
doca_error_t doca_rdma_set_permissions(struct doca_rdma *rdma, uint32_t permissions);

/** @brief The local GID index the connections use (default 0). Errors as set_permissions. */
doca_error_t doca_rdma_set_gid_index(struct doca_rdma *rdma, uint32_t gid_index);

/**
 * @brief Operations in flight per connection on the send side (rounded up to a power of two;
 *        1..OPENGDA_RDMA_MAX_QUEUE_SIZE; default OPENGDA_RDMA_DEFAULT_QUEUE_SIZE).
 * @return DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_BAD_STATE when running.
 */
doca_error_t doca_rdma_set_send_queue_size(struct doca_rdma *rdma, uint32_t send_queue_size);

/** @brief Receives posted at once (as set_send_queue_size). */
doca_error_t doca_rdma_set_recv_queue_size(struct doca_rdma *rdma, uint32_t recv_queue_size);

/**
 * @brief Accepted for compatibility: connections always carry a GRH on RoCE (and the software
 *        NIC); on InfiniBand the LID routes. Errors as set_permissions.
 */
doca_error_t doca_rdma_set_grh_enabled(struct doca_rdma *rdma, uint8_t grh_enabled);

/** @brief Connections the context holds (1..OPENGDA_RDMA_MAX_CONNECTIONS; default 1). */
doca_error_t doca_rdma_set_max_num_connections(struct doca_rdma *rdma, uint16_t max_num_connections);

/**
 * @brief The details of the next free connection, to hand to the peer out of band (valid until
 *        the context stops), and that connection.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE before start; DOCA_ERROR_FULL
 *         when every connection is exported already.
 */
doca_error_t doca_rdma_export(struct doca_rdma *rdma, const void **local_rdma_conn_details,
			      size_t *local_rdma_conn_details_size, struct doca_rdma_connection **rdma_connection);

/**
 * @brief Connects @p rdma_connection (from doca_rdma_export) to the peer whose details are given.
 * @return DOCA_ERROR_INVALID_VALUE (NULL, another context's connection, details not from
 *         doca_rdma_export); DOCA_ERROR_BAD_STATE (not running, or connected already);
 *         DOCA_ERROR_DRIVER.
 */
doca_error_t doca_rdma_connect(struct doca_rdma *rdma, const void *remote_rdma_conn_details,
			       size_t remote_rdma_conn_details_size, struct doca_rdma_connection *rdma_connection);

/** @brief The connection's index: the `conn` argument of the device functions. */
doca_error_t doca_rdma_connection_get_id(const struct doca_rdma_connection *rdma_connection, uint32_t *connection_id);

/**
 * @brief The device handle for doca_gpu_dev_rdma_*(): in GPU memory for a GPU, in host memory for
 *        a host handle. @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE before start
 *        or without a GPU data path.
 */
doca_error_t doca_rdma_get_gpu_handle(struct doca_rdma *rdma, struct doca_gpu_dev_rdma **gpu_rdma);

/** @brief OpenGDA: bound of every device-side wait (0: for ever; default 10 s). Errors as set_permissions. */
doca_error_t opengda_rdma_set_wait_timeout(struct doca_rdma *rdma, uint64_t timeout_ns);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_RDMA_H_ */
