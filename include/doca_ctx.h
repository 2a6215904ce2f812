/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_ctx.h
 * @brief DOCA Core context: the lifecycle every DOCA library object shares (an Ethernet queue,
 *        later RDMA and DMA), reached through the object's *_as_doca_ctx() / *_as_ctx() function.
 *
 * States: IDLE after creation, RUNNING after doca_ctx_start(), IDLE again after doca_ctx_stop().
 * Start completes at once (STARTING is never observed). Stop completes at once too, unless the
 * context has tasks allocated (doca_pe.h; a DMA context's CPU tasks): it is then STOPPING, its
 * tasks in flight complete through doca_pe_progress() (callbacks run, none is lost), and it
 * becomes IDLE in doca_pe_progress() once the application has freed every task; likewise a CPU
 * receive queue (doca_eth_rxq.h) whose received packets the application still holds becomes IDLE
 * once they are all given back (doca_buf_dec_refcount). Configuration (doca_ctx_set_datapath_on_gpu() and the object's own
 * setters) is allowed in IDLE only; misuse of the state machine returns DOCA_ERROR_BAD_STATE, as
 * in DOCA. State changes are reported to the callback of doca_ctx_set_state_changed_cb() from
 * doca_pe_progress() of the progress engine the context is connected to (doca_pe_connect_ctx());
 * a context with no engine reports none.
 */
#ifndef DOCA_CTX_H_
#define DOCA_CTX_H_

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu;
/** @brief A context (the base of every library object). */
struct doca_ctx;

/** @brief Context states (values as in DOCA). */
enum doca_ctx_states {
	DOCA_CTX_STATE_IDLE = 0,     /**< Created or stopped: configurable. */
	DOCA_CTX_STATE_STARTING = 1, /**< Starting (not observed here: start completes at once). */
	DOCA_CTX_STATE_RUNNING = 2,  /**< Started. */
	DOCA_CTX_STATE_STOPPING = 3, /**< Stopping: draining its tasks (doca_ctx_stop()). */
};

/**
 * @brief Called from doca_pe_progress() for each state change, in order.
 * @param user_data   What doca_ctx_set_user_data() set (zero by default).
 * @param ctx         The context.
 * @param prev_state  The state before the change.
 * @param next_state  The state after it.
 */
typedef void (*doca_ctx_state_changed_callback_t)(const union doca_data user_data, struct doca_ctx *ctx,
						  enum doca_ctx_states prev_state, enum doca_ctx_states next_state);

/**
 * @brief Starts the context (the object creates its queues).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not IDLE;
 *         the object's own error when it cannot start (the context stays IDLE).
 */
doca_error_t doca_ctx_start(struct doca_ctx *ctx);

/**
 * @brief Stops a running context.
 * @return DOCA_SUCCESS (IDLE now); DOCA_ERROR_IN_PROGRESS when tasks are allocated, or received
 *         packets lent to the application: the context is STOPPING and becomes IDLE in
 *         doca_pe_progress() once they have completed and been freed (given back);
 *         DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not RUNNING (STOPPING
 *         included); the object's own error when it cannot stop (the context stays RUNNING).
 */
doca_error_t doca_ctx_stop(struct doca_ctx *ctx);

/**
 * @brief The current state (safe from any thread).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state);

/**
 * @brief Puts the data path of the context on @p gpu: the object's queues are built for device
 *        code (a host handle from opengda_gpu_create_host() means host threads).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not IDLE;
 *         DOCA_ERROR_NOT_SUPPORTED for a context without a GPU data path.
 */
doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu_dev);

/**
 * @brief Sets the callback for state changes (NULL: none).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL context; DOCA_ERROR_BAD_STATE when not IDLE.
 */
doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb);

/**
 * @brief Sets the data handed to the state callback.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not IDLE.
 */
doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data);

/**
 * @brief The data set with doca_ctx_set_user_data().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_CTX_H_ */
