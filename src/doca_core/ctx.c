/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_ctx (doca_ctx.h): the state machine every DOCA library object shares. The concrete object
 * embeds struct doca_ctx and gives its start and stop in core_ctx_ops; this file checks the
 * state, calls them, and reports each change to the connected progress engine.
 */
#include "doca_core/core_priv.h"

#include "core/log.h"
#include "opengda_gpunetio.h"
#include "sdk/sdk_forward.h"

static const char *state_name(int s)
{
	static const char *const names[] = {"IDLE", "STARTING", "RUNNING", "STOPPING"};

	return s >= 0 && s < 4 ? names[s] : "?";
}

void core_ctx_init(struct doca_ctx *ctx, const struct core_ctx_ops *ops)
{
	*ctx = (struct doca_ctx){.ops = ops};
	atomic_init(&ctx->state, DOCA_CTX_STATE_IDLE);
}

doca_error_t core_ctx_fini(struct doca_ctx *ctx)
{
	int s = atomic_load(&ctx->state);

	if (s != DOCA_CTX_STATE_IDLE) {
		OGDA_LOG_ERR("%s: the context is %s: stop it before destroying it", ctx->ops->kind, state_name(s));
		return DOCA_ERROR_BAD_STATE;
	}
	if (ctx->pe != NULL)
		core_pe_disconnect(ctx->pe, ctx);
	return DOCA_SUCCESS;
}

/* Checks that the context exists and is IDLE (every setter's first step). */
static doca_error_t check_idle(const struct doca_ctx *ctx, const char *func)
{
	int s;

	if (ctx == NULL) {
		OGDA_LOG_ERR("%s: ctx must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	s = atomic_load(&ctx->state);
	if (s != DOCA_CTX_STATE_IDLE) {
		OGDA_LOG_ERR("%s: %s context is %s; this needs IDLE", func, ctx->ops->kind, state_name(s));
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t core_ctx_check_idle(const struct doca_ctx *ctx, const char *func)
{
	return check_idle(ctx, func);
}

doca_error_t core_ctx_cpu_datapath(struct doca_ctx *ctx, struct doca_gpu **host)
{
	doca_error_t err;

	*host = NULL;
	if (ctx->pe == NULL) {
		OGDA_LOG_ERR("%s: a CPU data path completes in a progress engine: doca_pe_connect_ctx() before starting",
			     ctx->ops->kind);
		return DOCA_ERROR_BAD_STATE;
	}
	/* The queues are built for a host handle: host memory the engine's thread posts and polls in. */
	err = opengda_gpu_create_host(host);
	if (err != DOCA_SUCCESS) {
		*host = NULL;
		OGDA_LOG_ERR("%s: cannot create the host handle of the CPU data path: %s", ctx->ops->kind,
			     doca_error_get_descr(err));
	}
	return err;
}

/* Whether the context must drain before it stops: tasks allocated, or buffers lent (ops->busy). */
static bool must_drain(const struct doca_ctx *ctx)
{
	return ctx->tasks_allocated > 0 || (ctx->ops->busy != NULL && ctx->ops->busy(ctx));
}

/* Moves to @next and tells the engine; a full engine queue is logged, the change still stands. */
static void change_state(struct doca_ctx *ctx, enum doca_ctx_states prev, enum doca_ctx_states next)
{
	atomic_store(&ctx->state, next);
	if (ctx->pe != NULL && ctx->state_cb != NULL)
		(void)core_pe_post_state(ctx->pe, ctx, prev, next);
}

doca_error_t doca_ctx_start(struct doca_ctx *ctx)
{
	OGDA_SDK_FORWARD(doca_ctx_start, (ctx));
	doca_error_t err = check_idle(ctx, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	err = ctx->ops->start(ctx);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: the context cannot start: %s", ctx->ops->kind, doca_error_get_descr(err));
		return err;
	}
	change_state(ctx, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING);
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_stop(struct doca_ctx *ctx)
{
	OGDA_SDK_FORWARD(doca_ctx_stop, (ctx));
	doca_error_t err;
	int s;

	if (ctx == NULL) {
		OGDA_LOG_ERR("ctx must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	s = atomic_load(&ctx->state);
	if (s != DOCA_CTX_STATE_RUNNING) {
		OGDA_LOG_ERR("%s: the context is %s, not RUNNING", ctx->ops->kind, state_name(s));
		return DOCA_ERROR_BAD_STATE;
	}
	/*
	 * Tasks still allocated (in flight, or completed and not freed): stopping now would free
	 * what the application or the NIC still uses. The context drains in doca_pe_progress()
	 * (completions run their callbacks; the application frees its tasks) and becomes IDLE
	 * there (core_ctx_finish_stop), as DOCA's contexts do.
	 */
	if (must_drain(ctx)) {
		OGDA_LOG_DBG("%s: %zu task(s) allocated, %zu in flight%s: STOPPING until they are freed", ctx->ops->kind,
			     ctx->tasks_allocated, ctx->tasks_in_flight,
			     ctx->ops->busy != NULL && ctx->ops->busy(ctx) ? ", buffers lent to the application" : "");
		change_state(ctx, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING);
		return DOCA_ERROR_IN_PROGRESS;
	}
	err = ctx->ops->stop(ctx);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: the context cannot stop: %s", ctx->ops->kind, doca_error_get_descr(err));
		return err;
	}
	change_state(ctx, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_IDLE);
	return DOCA_SUCCESS;
}

void core_ctx_finish_stop(struct doca_ctx *ctx)
{
	doca_error_t err;

	if (atomic_load(&ctx->state) != DOCA_CTX_STATE_STOPPING || must_drain(ctx))
		return;
	err = ctx->ops->stop(ctx);
	if (err != DOCA_SUCCESS) /* its resources stay; the context cannot run them again anyway */
		OGDA_LOG_ERR("%s: the drained context does not stop cleanly: %s", ctx->ops->kind,
			     doca_error_get_descr(err));
	change_state(ctx, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE);
}

doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state)
{
	OGDA_SDK_FORWARD(doca_ctx_get_state, (ctx, state));
	if (ctx == NULL || state == NULL) {
		OGDA_LOG_ERR("ctx and state must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*state = (enum doca_ctx_states)atomic_load(&ctx->state);
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu_dev)
{
	OGDA_SDK_FORWARD(doca_ctx_set_datapath_on_gpu, (ctx, gpu_dev));
	doca_error_t err = check_idle(ctx, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (gpu_dev == NULL) {
		OGDA_LOG_ERR("%s: gpu_dev must not be NULL", ctx->ops->kind);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!ctx->ops->gpu_datapath_ok) {
		OGDA_LOG_ERR("%s: this context has no GPU data path", ctx->ops->kind);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	ctx->gpu = gpu_dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb)
{
	OGDA_SDK_FORWARD(doca_ctx_set_state_changed_cb, (ctx, cb));
	doca_error_t err = check_idle(ctx, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	ctx->state_cb = cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data)
{
	OGDA_SDK_FORWARD(doca_ctx_set_user_data, (ctx, user_data));
	doca_error_t err = check_idle(ctx, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	ctx->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data)
{
	OGDA_SDK_FORWARD(doca_ctx_get_user_data, (ctx, user_data));
	if (ctx == NULL || user_data == NULL) {
		OGDA_LOG_ERR("ctx and user_data must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*user_data = ctx->user_data;
	return DOCA_SUCCESS;
}
