/* SPDX-License-Identifier: BSD-3-Clause */
/* The requester window (swnic_window.h). */
#include "swnic/swnic_window.h"

#include "core/log.h"
#include "prm/prm_qpc.h"

#include <stdlib.h>
#include <string.h>

doca_error_t swnic_window_init(struct swnic_window *w, struct swnic *nic)
{
	memset(w, 0, sizeof(*w));
	/* About 4 KiB a slot; calloc leaves the pages of slots never used untouched. */
	w->slot = calloc(SWNIC_WINDOW_SLOTS, sizeof(*w->slot));
	if (w->slot == NULL) {
		OGDA_LOG_ERR("no memory for a requester window of %u WQEs", SWNIC_WINDOW_SLOTS);
		return DOCA_ERROR_NO_MEMORY;
	}
	swnic_fabric_pipe_init(&w->pipe, nic);
	return DOCA_SUCCESS;
}

void swnic_window_reset(struct swnic_window *w)
{
	uint32_t i;

	if (w == NULL || w->slot == NULL)
		return;
	swnic_fabric_pipe_reset(&w->pipe, false);
	for (i = 0; i < SWNIC_WINDOW_SLOTS; i++)
		swnic_exec_req_reset(&w->slot[i]);
	w->head = w->count = 0;
	w->stalled = false;
}

void swnic_window_fini(struct swnic_window *w)
{
	if (w == NULL || w->slot == NULL)
		return;
	swnic_window_reset(w);
	swnic_fabric_pipe_fini(&w->pipe);
	free(w->slot);
	w->slot = NULL;
}

static struct swnic_exec *nth(struct swnic_window *w, uint32_t i)
{
	return &w->slot[(w->head + i) % SWNIC_WINDOW_SLOTS];
}

/* x is over (cpl says how): it completes when it is the oldest; a failure starts nothing more. */
static void mark_done(struct swnic_window *w, struct swnic_exec *x, const struct swnic_completion *c)
{
	x->done = true;
	x->cpl = *c;
	if (c->syndrome != 0)
		w->stalled = true;
}

/* Posts x; false when nothing behind it may be posted now. */
static bool post_one(struct swnic_window *w, const struct swnic_exec_ctx *ctx, struct swnic_exec *x, uint64_t now,
		     uint64_t *wake_ns)
{
	struct swnic_completion c;

	switch (swnic_exec_req_post(ctx, x, &w->pipe, x == nth(w, 0), now, wake_ns, &c)) {
	case SWNIC_POST_SENT:
		return true;
	case SWNIC_POST_UNPIPED:
		w->stalled = true;
		return false;
	case SWNIC_POST_DONE:
		mark_done(w, x, &c);
		return false;
	default: /* FULL, or RETRY: x waits for its timer */
		return false;
	}
}

/* Sends what was started and not sent, in order, then starts new WQEs. Negative: aborted. */
static int issue(struct swnic_window *w, const struct swnic_exec_ctx *ctx, uint64_t now, uint64_t *wake_ns)
{
	struct swnic_qp *qp = ctx->qp;
	struct swnic_completion c;
	uint32_t i;

	for (i = 0; i < w->count; i++) {
		struct swnic_exec *x = nth(w, i);

		if (x->done || x->posted)
			continue;
		if (x->sync)
			return 0;
		if (x->next_try_ns > now) {
			if (x->next_try_ns < *wake_ns)
				*wake_ns = x->next_try_ns;
			return 0;
		}
		if (!post_one(w, ctx, x, now, wake_ns))
			return 0;
	}
	while (!w->stalled && w->count < SWNIC_WINDOW_SLOTS && w->issue_ci != qp->sq_target) {
		struct swnic_exec *x = nth(w, w->count);
		bool pipelinable = swnic_exec_req_pipelinable(qp, w->issue_ci);
		enum swnic_exec_status st;

		if (!pipelinable && w->count != 0)
			return 0; /* it runs alone, once everything before it has completed */
		st = swnic_exec_req_begin(ctx, x, w->issue_ci, &c);
		if (st == SWNIC_EXEC_ABORTED)
			return -1;
		w->count++;
		w->issue_ci = (uint16_t)(w->issue_ci + x->cpl.wqebbs);
		if (st == SWNIC_EXEC_DONE) {
			mark_done(w, x, &c);
			continue;
		}
		if (!pipelinable) {
			x->sync = true;
			w->stalled = true;
			return 0;
		}
		if (!post_one(w, ctx, x, now, wake_ns))
			return 0;
	}
	return 0;
}

/* The oldest WQE's next step. */
static enum swnic_exec_status step_oldest(struct swnic_window *w, const struct swnic_exec_ctx *ctx,
					  struct swnic_exec *x, uint64_t now, uint64_t *wake_ns,
					  struct swnic_completion *c)
{
	enum swnic_exec_status st;
	uint32_t i;

	if (x->done) {
		*c = x->cpl;
		return SWNIC_EXEC_DONE;
	}
	if (x->sync)
		return swnic_exec_req_step(ctx, x, now, wake_ns, c); /* alone in the window: x->index is sq_ci */
	if (!x->posted)
		return SWNIC_EXEC_PENDING; /* its retry timer runs, or the pipe had no room */
	/* issue() has started and sent all it could: wait for the oldest answer. */
	st = swnic_exec_req_answer(ctx, x, &w->pipe, true, now, wake_ns, c);
	if (st == SWNIC_EXEC_PENDING && !x->posted) {
		/* Go back: everything behind x is resent after it, once all sent so far has answered. */
		swnic_fabric_pipe_reset(&w->pipe, true);
		for (i = 1; i < w->count; i++)
			swnic_exec_req_unpost(nth(w, i));
	}
	return st;
}

bool swnic_window_run(struct swnic_window *w, const struct swnic_exec_ctx *ctx, swnic_window_complete_fn complete,
		      void *arg, uint32_t budget, uint64_t *wake_ns)
{
	struct swnic_qp *qp = ctx->qp;
	bool progress = false;
	uint32_t n = 0;

	while (n < budget && atomic_load_explicit(&qp->state, memory_order_acquire) == PRM_QP_STATE_RTS) {
		struct swnic_completion c;
		enum swnic_exec_status st;
		uint64_t now = swnic_now_ns();
		struct swnic_exec *x;

		if (w->count == 0) {
			w->issue_ci = qp->sq_ci;
			w->stalled = false;
			if (qp->sq_ci == qp->sq_target) {
				swnic_fabric_pipe_idle(&w->pipe, now);
				break;
			}
		}
		if (issue(w, ctx, now, wake_ns) < 0 || w->count == 0)
			break;
		x = nth(w, 0);
		st = step_oldest(w, ctx, x, now, wake_ns, &c);
		if (st != SWNIC_EXEC_DONE)
			break;
		x->done = false;
		x->sync = false;
		w->head = (w->head + 1u) % SWNIC_WINDOW_SLOTS;
		w->count--;
		complete(arg, &c);
		progress = true;
		n++;
	}
	return progress;
}
