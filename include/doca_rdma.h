/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_rdma.h
 * @brief DOCA RDMA with a GPU data path: a context of RC connections whose device handle lets
 *        CUDA kernels (or host threads) write, read, send and receive
 *        (doca_gpunetio_dev_rdma.cuh).
 *
 * Names as in DOCA. Built on DOCA Verbs objects: every connection is a high-level QP
 * (doca_gpunetio_high_level.h) with a send and a receive queue on the device's DOCA Verbs PD, the
 * PD its mmaps are registered on. Connections are made either out of band (doca_rdma_export()
 * gives the next free connection's details to send to the peer, doca_rdma_connect() takes the
 * peer's) or with the connection-manager flow (doca_rdma_start_listen_to_port() on the server,
 * doca_rdma_connect_to_addr() on the client, callbacks from doca_pe_progress()). OpenGDA's
 * connection manager exchanges the same details over a TCP connection to the given address and
 * port, not the InfiniBand CM protocol: both ends must run OpenGDA (docs/rdma.md). Receives are
 * posted to a receive queue every connection shares.
 */
#ifndef DOCA_RDMA_H_
#define DOCA_RDMA_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_ctx;
struct doca_rdma;
struct doca_rdma_connection;
struct doca_gpu_dev_rdma;
/** @brief An address to connect to (doca_rdma_addr_create). */
struct doca_rdma_addr;

/** @brief What the text of a doca_rdma_addr is. */
enum doca_rdma_addr_type {
	DOCA_RDMA_ADDR_TYPE_IPv4, /**< Dotted IPv4, "192.0.2.1". */
	DOCA_RDMA_ADDR_TYPE_IPv6, /**< IPv6 text, "2001:db8::1". */
	DOCA_RDMA_ADDR_TYPE_GID,  /**< A RoCE GID in IPv6 text; an IPv4-mapped GID ("::ffff:a.b.c.d") is that IPv4 host. */
};

/** @brief A connection request arrived on a listening port: accept or reject it (from doca_pe_progress). */
typedef void (*doca_rdma_connection_request_cb_t)(struct doca_rdma_connection *rdma_connection,
						  union doca_data ctx_user_data);
/** @brief The connection is established: device code may use its id (from doca_pe_progress). */
typedef void (*doca_rdma_connection_established_cb_t)(struct doca_rdma_connection *rdma_connection,
						      union doca_data connection_user_data,
						      union doca_data ctx_user_data);
/** @brief The connection could not be made (rejected, refused, timed out, broken before established). */
typedef void (*doca_rdma_connection_failure_cb_t)(struct doca_rdma_connection *rdma_connection,
						  union doca_data connection_user_data, union doca_data ctx_user_data);
/** @brief The peer disconnected an established connection (or its process ended). */
typedef void (*doca_rdma_connection_disconnection_cb_t)(struct doca_rdma_connection *rdma_connection,
							union doca_data connection_user_data,
							union doca_data ctx_user_data);

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

/** @brief The send queue size set (as given, before rounding). @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_get_send_queue_size(const struct doca_rdma *rdma, uint32_t *send_queue_size);
/** @brief The receive queue size set (as given). @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_get_recv_queue_size(const struct doca_rdma *rdma, uint32_t *recv_queue_size);
/** @brief The permissions set. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_get_permissions(struct doca_rdma *rdma, uint32_t *permissions);
/** @brief The GID index set. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_get_gid_index(const struct doca_rdma *rdma, uint32_t *gid_index);
/** @brief 1: connections carry a GRH (always, see doca_rdma_set_grh_enabled). @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_get_grh_enabled(const struct doca_rdma *rdma, uint8_t *grh_enabled);
/** @brief The number of connections set. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_get_max_num_connections(struct doca_rdma *rdma, uint16_t *max_num_connections);

/* ---- connection manager ---------------------------------------------------------------------- */

/** Most private-data bytes doca_rdma_connection_accept() carries (as an InfiniBand CM reply). */
#define OPENGDA_RDMA_CM_PRIVATE_DATA_MAX 196u
/** Default bound of a connection attempt, in milliseconds (doca_rdma_set_connection_request_timeout). */
#define OPENGDA_RDMA_CM_DEFAULT_TIMEOUT_MS 5000u

/**
 * @brief An address to connect to: @p address in the text form of @p addr_type, and @p port.
 * @return DOCA_ERROR_INVALID_VALUE (NULL, unknown type, text not of that type, port 0);
 *         DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_rdma_addr_create(enum doca_rdma_addr_type addr_type, const char *address, uint16_t port,
				   struct doca_rdma_addr **addr);

/** @brief Destroys an address from doca_rdma_addr_create(). @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_addr_destroy(struct doca_rdma_addr *addr);

/**
 * @brief The type, text and port of @p addr (the text stays valid while @p addr lives).
 * @return DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_rdma_addr_get_params(struct doca_rdma_addr *addr, enum doca_rdma_addr_type *addr_type,
				       const char **address, uint16_t *port);

/**
 * @brief The callbacks of the connection manager, run by doca_pe_progress() of the engine the
 *        context is connected to. Set before start; request_cb is needed to listen, the other
 *        three to connect or listen.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL context; DOCA_ERROR_BAD_STATE when running.
 */
doca_error_t doca_rdma_set_connection_state_callbacks(struct doca_rdma *rdma,
						      doca_rdma_connection_request_cb_t doca_rdma_connect_request_cb,
						      doca_rdma_connection_established_cb_t doca_rdma_connect_established_cb,
						      doca_rdma_connection_failure_cb_t doca_rdma_connect_failure_cb,
						      doca_rdma_connection_disconnection_cb_t doca_rdma_disconnect_cb);

/**
 * @brief How long a connection attempt may take, in milliseconds (both sides; 1..65535; default
 *        OPENGDA_RDMA_CM_DEFAULT_TIMEOUT_MS). @return DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_BAD_STATE when running.
 */
doca_error_t doca_rdma_set_connection_request_timeout(struct doca_rdma *rdma, uint16_t timeout);

/** @brief The bound set with doca_rdma_set_connection_request_timeout(). @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_get_connection_request_timeout(const struct doca_rdma *rdma, uint16_t *timeout);

/**
 * @brief Listens for connection requests on TCP @p port of every local address. The context must
 *        run, be connected to a doca_pe and have its callbacks; each request takes a free
 *        connection and calls request_cb.
 * @return DOCA_ERROR_INVALID_VALUE (NULL, port 0); DOCA_ERROR_BAD_STATE (not running, no engine,
 *         no callbacks, listening already); DOCA_ERROR_CONNECTION_ABORTED when the port cannot be
 *         bound (in use).
 */
doca_error_t doca_rdma_start_listen_to_port(struct doca_rdma *rdma, uint16_t port);

/** @brief Stops listening on @p port. @return DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NOT_FOUND when not listening there. */
doca_error_t doca_rdma_stop_listen_to_port(struct doca_rdma *rdma, uint16_t port);

/**
 * @brief Accepts a requested connection (from request_cb, or later): connects its QP to the
 *        requester and answers with @p private_data; established_cb follows when the requester
 *        confirms. @return DOCA_ERROR_INVALID_VALUE (NULL connection, more than
 *        OPENGDA_RDMA_CM_PRIVATE_DATA_MAX bytes, data NULL with a length); DOCA_ERROR_BAD_STATE
 *        when it is not a pending request; DOCA_ERROR_CONNECTION_ABORTED when the requester is gone.
 */
doca_error_t doca_rdma_connection_accept(struct doca_rdma_connection *rdma_connection, void *private_data,
					 uint8_t private_data_len);

/**
 * @brief Rejects a requested connection; the requester's failure_cb runs, the connection is free
 *        again. @return DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_BAD_STATE when not a pending request.
 */
doca_error_t doca_rdma_connection_reject(struct doca_rdma_connection *rdma_connection);

/**
 * @brief Connects the next free connection to the listener at @p addr; established_cb or
 *        failure_cb (with @p connection_user_data) follows from doca_pe_progress().
 * @return DOCA_ERROR_INVALID_VALUE (NULL); DOCA_ERROR_BAD_STATE (not running, no engine, no
 *         callbacks); DOCA_ERROR_FULL (no free connection); DOCA_ERROR_CONNECTION_ABORTED.
 */
doca_error_t doca_rdma_connect_to_addr(struct doca_rdma *rdma, struct doca_rdma_addr *addr,
				       union doca_data connection_user_data);

/**
 * @brief Disconnects a connection made by the connection manager: the peer's disconnect callback
 *        runs; this side's QP stays as it is (operations posted after this fail when the peer's
 *        QP is gone) and the connection is not reused until the context restarts.
 * @return DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_BAD_STATE when it is not established through the
 *         connection manager.
 */
doca_error_t doca_rdma_connection_disconnect(struct doca_rdma_connection *rdma_connection);

/** @brief Sets the data handed to the connection's callbacks. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_connection_set_user_data(struct doca_rdma_connection *rdma_connection,
						union doca_data connection_user_data);

/** @brief The data set for the connection. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_rdma_connection_get_user_data(const struct doca_rdma_connection *rdma_connection,
						union doca_data *connection_user_data);

/**
 * @brief The peer's address of a connection made by the connection manager (owned by the
 *        connection). @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NOT_FOUND for a
 *        connection made out of band or not yet requested.
 */
doca_error_t doca_rdma_connection_get_addr(const struct doca_rdma_connection *rdma_connection,
					   struct doca_rdma_addr **addr);

/** @brief OpenGDA: bound of every device-side wait (0: for ever; default 10 s). Errors as set_permissions. */
doca_error_t opengda_rdma_set_wait_timeout(struct doca_rdma *rdma, uint64_t timeout_ns);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_RDMA_H_ */
