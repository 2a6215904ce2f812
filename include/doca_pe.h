/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_pe.h
 * @brief DOCA Core progress engine: the CPU thread's loop that delivers a context's events.
 *
 * Contexts connected to an engine report their state changes through it, and do their CPU-side
 * work in it (an Ethernet send queue's completion events, a DMA context's tasks): doca_pe_progress()
 * runs the callbacks on the calling thread, in the order the changes happened. An engine is driven
 * by one thread at a time; contexts may change state on other threads (the queue is locked).
 *
 * Tasks (as in DOCA, declared here): a library allocates a task from its context
 * (doca_dma_task_memcpy_alloc_init(), say), the application submits it (doca_task_submit()),
 * and doca_pe_progress() runs its completion or error callback once it is done; the task is then
 * the application's again: submit it anew, or doca_task_free() it. Tasks of one context are
 * allocated, submitted and freed on the thread that drives its engine.
 */
#ifndef DOCA_PE_H_
#define DOCA_PE_H_

#include <stdint.h>

#include <stddef.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
/** @brief A progress engine. */
struct doca_pe;
/** @brief A task: the generic part of a library's task (doca_dma_task_memcpy_as_task(), say). */
struct doca_task;

/**
 * @brief A completion callback of a generic task (libraries' callbacks take their own task
 *        type); runs in doca_pe_progress(), which must not be called from it.
 */
typedef void (*doca_task_completion_cb_t)(struct doca_task *task, union doca_data task_user_data,
					  union doca_data ctx_user_data);

/**
 * @brief Creates an engine.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_pe_create(struct doca_pe **pe);

/**
 * @brief Destroys an engine with no context connected.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_IN_USE while contexts are
 *         connected (destroy them first).
 */
doca_error_t doca_pe_destroy(struct doca_pe *pe);

/**
 * @brief Connects an IDLE context; it stays connected until it is destroyed.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when the context is
 *         not IDLE; DOCA_ERROR_ALREADY_EXIST when it is connected to an engine already.
 */
doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx);

/**
 * @brief Delivers the pending events: runs the state callback of each queued state change, then
 *        lets every RUNNING or STOPPING context do its work (a task context runs the callbacks of
 *        its completed tasks); a STOPPING context with no task left allocated becomes IDLE.
 * @return 1 if anything was delivered or completed, 0 otherwise (and for a NULL engine, logged).
 */
uint8_t doca_pe_progress(struct doca_pe *pe);

/**
 * @brief The number of tasks in flight (submitted, callback not yet run) over every context
 *        connected to @p pe.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks);

/**
 * @brief Submits a task to its context; its callback runs from doca_pe_progress(). The task's
 *        inputs are checked here (DOCA's doca_task_submit checks none): on failure the task stays
 *        the caller's and no callback runs.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or invalid inputs (the library's own
 *         checks, logged); DOCA_ERROR_BAD_STATE for a task that is free or in flight already, or
 *         a context not RUNNING.
 */
doca_error_t doca_task_submit(struct doca_task *task);

/**
 * @brief doca_task_submit(), which here always checks the task. Same returns.
 */
doca_error_t doca_task_try_submit(struct doca_task *task);

/**
 * @brief Gives a task back to its context. A task in flight is not freed (logged): free it in
 *        or after its callback. A STOPPING context becomes IDLE once its tasks are freed.
 */
void doca_task_free(struct doca_task *task);

/**
 * @brief The outcome of a completed task: DOCA_SUCCESS, or the error its error callback saw;
 *        DOCA_ERROR_IN_PROGRESS while in flight; DOCA_ERROR_INVALID_VALUE for NULL (logged).
 */
doca_error_t doca_task_get_status(const struct doca_task *task);

/** @brief Sets the data handed to the task's callbacks (NULL task: logged, nothing done). */
void doca_task_set_user_data(struct doca_task *task, union doca_data user_data);

/** @brief The task's user data (zero for NULL, logged). */
union doca_data doca_task_get_user_data(const struct doca_task *task);

/** @brief The context that allocated the task (NULL for NULL, logged). */
struct doca_ctx *doca_task_get_ctx(const struct doca_task *task);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PE_H_ */
