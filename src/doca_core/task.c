/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_task (doca_pe.h): the generic part of every library's task. A library embeds struct
 * doca_task first in its own task type, allocates tasks from a pool of its context
 * (core_task_alloc), and does the work in its core_ctx_ops: task_submit posts, the progress op
 * completes (core_task_done, then the library's typed callback), task_release takes a freed
 * task back. This file keeps the task's state and the context's counts, which doca_ctx_stop()
 * and doca_pe_progress() use to drain a stopping context without losing a task.
 */
#include "doca_core/core_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

void core_task_alloc(struct doca_ctx *ctx, struct doca_task *task, union doca_data user_data)
{
	*task = (struct doca_task){.ctx = ctx, .user_data = user_data, .status = DOCA_SUCCESS,
				   .state = CORE_TASK_ALLOCATED};
	ctx->tasks_allocated++;
}

void core_task_done(struct doca_task *task, doca_error_t status)
{
	task->status = status;
	task->state = CORE_TASK_ALLOCATED;
	task->ctx->tasks_in_flight--;
}

/* Whether @task is an allocated task that is not in flight (logs why not, in @func's name). */
static doca_error_t check_owned(const struct doca_task *task, const char *func)
{
	if (task == NULL) {
		OGDA_LOG_ERR("%s: task must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (task->state == CORE_TASK_FREE) {
		OGDA_LOG_ERR("%s: the task is free (doca_task_free): allocate a new one", func);
		return DOCA_ERROR_BAD_STATE;
	}
	if (task->state == CORE_TASK_IN_FLIGHT) {
		OGDA_LOG_ERR("%s: the task is in flight: wait for its callback", func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_task_submit(struct doca_task *task)
{
	OGDA_SDK_FORWARD(doca_task_submit, (task));
	doca_error_t err = check_owned(task, __func__);
	struct doca_ctx *ctx;

	if (err != DOCA_SUCCESS)
		return err;
	ctx = task->ctx;
	if (atomic_load(&ctx->state) != DOCA_CTX_STATE_RUNNING) {
		OGDA_LOG_ERR("%s: the context is not RUNNING: tasks are submitted to running contexts only",
			     ctx->ops->kind);
		return DOCA_ERROR_BAD_STATE;
	}
	/* In flight before the post: a callback is never run for a task still marked ALLOCATED. */
	task->state = CORE_TASK_IN_FLIGHT;
	task->status = DOCA_ERROR_IN_PROGRESS;
	ctx->tasks_in_flight++;
	err = ctx->ops->task_submit(ctx, task);
	if (err != DOCA_SUCCESS) {
		task->state = CORE_TASK_ALLOCATED;
		task->status = err;
		ctx->tasks_in_flight--;
	}
	return err;
}

doca_error_t doca_task_try_submit(struct doca_task *task)
{
	OGDA_SDK_FORWARD(doca_task_try_submit, (task));
	return doca_task_submit(task);
}

void doca_task_free(struct doca_task *task)
{
	OGDA_SDK_FORWARD_VOID(doca_task_free, (task));
	struct doca_ctx *ctx;

	if (check_owned(task, __func__) != DOCA_SUCCESS)
		return;
	ctx = task->ctx;
	task->state = CORE_TASK_FREE;
	ctx->tasks_allocated--;
	ctx->ops->task_release(ctx, task);
}

doca_error_t doca_task_get_status(const struct doca_task *task)
{
	OGDA_SDK_FORWARD(doca_task_get_status, (task));
	if (task == NULL) {
		OGDA_LOG_ERR("task must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return task->status;
}

void doca_task_set_user_data(struct doca_task *task, union doca_data user_data)
{
	OGDA_SDK_FORWARD_VOID(doca_task_set_user_data, (task, user_data));
	if (task == NULL) {
		OGDA_LOG_ERR("task must not be NULL");
		return;
	}
	task->user_data = user_data;
}

union doca_data doca_task_get_user_data(const struct doca_task *task)
{
	OGDA_SDK_FORWARD(doca_task_get_user_data, (task));
	if (task == NULL) {
		OGDA_LOG_ERR("task must not be NULL");
		return (union doca_data){.u64 = 0};
	}
	return task->user_data;
}

struct doca_ctx *doca_task_get_ctx(const struct doca_task *task)
{
	OGDA_SDK_FORWARD(doca_task_get_ctx, (task));
	if (task == NULL) {
		OGDA_LOG_ERR("task must not be NULL");
		return NULL;
	}
	return task->ctx;
}
