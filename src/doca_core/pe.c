/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_pe (doca_pe.h): a queue of events, delivered by doca_pe_progress() on the thread that
 * drives the engine, then the connected contexts' own progress (their task completions), which
 * also finishes the stop of a context that has drained its tasks. Contexts post to it from
 * whichever thread changes their state, so the queue is locked; callbacks run with the lock
 * released, so they may start or stop contexts.
 */
#include "doca_core/core_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <pthread.h>
#include <stdlib.h>

struct pe_event {
	struct pe_event *next;
	struct doca_ctx *ctx;
	enum doca_ctx_states prev, next_state;
};

struct doca_pe {
	pthread_mutex_t lock;   /* guards everything below */
	struct doca_ctx *ctxs;  /* connected contexts (linked through pe_next) */
	struct pe_event *head, *tail;
};

doca_error_t doca_pe_create(struct doca_pe **pe)
{
	OGDA_SDK_FORWARD(doca_pe_create, (pe));
	struct doca_pe *p;

	if (pe == NULL) {
		OGDA_LOG_ERR("pe must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		OGDA_LOG_ERR("out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_mutex_init(&p->lock, NULL);
	*pe = p;
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_destroy(struct doca_pe *pe)
{
	OGDA_SDK_FORWARD(doca_pe_destroy, (pe));
	bool busy;

	if (pe == NULL) {
		OGDA_LOG_ERR("pe must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&pe->lock);
	busy = pe->ctxs != NULL;
	pthread_mutex_unlock(&pe->lock);
	if (busy) {
		OGDA_LOG_ERR("contexts are still connected to the progress engine; destroy them first");
		return DOCA_ERROR_IN_USE;
	}
	/* No context: nothing is queued (disconnecting drops a context's events). */
	pthread_mutex_destroy(&pe->lock);
	free(pe);
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx)
{
	OGDA_SDK_FORWARD(doca_pe_connect_ctx, (pe, ctx));
	if (pe == NULL || ctx == NULL) {
		OGDA_LOG_ERR("pe and ctx must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&ctx->state) != DOCA_CTX_STATE_IDLE) {
		OGDA_LOG_ERR("%s: only an IDLE context can be connected to a progress engine", ctx->ops->kind);
		return DOCA_ERROR_BAD_STATE;
	}
	if (ctx->pe != NULL) {
		OGDA_LOG_ERR("%s: the context is connected to a progress engine already", ctx->ops->kind);
		return DOCA_ERROR_ALREADY_EXIST;
	}
	pthread_mutex_lock(&pe->lock);
	ctx->pe = pe;
	ctx->pe_next = pe->ctxs;
	pe->ctxs = ctx;
	pthread_mutex_unlock(&pe->lock);
	return DOCA_SUCCESS;
}

doca_error_t core_pe_post_state(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states prev,
				enum doca_ctx_states next)
{
	struct pe_event *ev = calloc(1, sizeof(*ev));

	if (ev == NULL) {
		OGDA_LOG_ERR("%s: out of memory: the state change %d -> %d is not reported", ctx->ops->kind, (int)prev,
			     (int)next);
		return DOCA_ERROR_NO_MEMORY;
	}
	ev->ctx = ctx;
	ev->prev = prev;
	ev->next_state = next;
	pthread_mutex_lock(&pe->lock);
	if (pe->tail != NULL)
		pe->tail->next = ev;
	else
		pe->head = ev;
	pe->tail = ev;
	pthread_mutex_unlock(&pe->lock);
	return DOCA_SUCCESS;
}

void core_pe_disconnect(struct doca_pe *pe, struct doca_ctx *ctx)
{
	struct pe_event **link, *ev;
	struct doca_ctx **c;

	pthread_mutex_lock(&pe->lock);
	for (c = &pe->ctxs; *c != NULL; c = &(*c)->pe_next) {
		if (*c == ctx) {
			*c = ctx->pe_next;
			break;
		}
	}
	pe->tail = NULL;
	for (link = &pe->head; (ev = *link) != NULL;) {
		if (ev->ctx == ctx) {
			*link = ev->next;
			free(ev);
		} else {
			pe->tail = ev;
			link = &ev->next;
		}
	}
	pthread_mutex_unlock(&pe->lock);
	ctx->pe = NULL;
	ctx->pe_next = NULL;
}

/*
 * The contexts' own work (their completions, say), called without pe->lock held: a callback may
 * stop its context, which posts a state change. The list is copied first; contexts are not
 * destroyed while their engine progresses (the engine and its contexts are used from one thread).
 */
static uint8_t progress_contexts(struct doca_pe *pe)
{
	struct doca_ctx **list, *c;
	size_t n = 0, i;
	uint8_t progressed = 0;

	pthread_mutex_lock(&pe->lock);
	for (c = pe->ctxs; c != NULL; c = c->pe_next)
		n += c->ops->progress != NULL;
	pthread_mutex_unlock(&pe->lock);
	if (n == 0)
		return 0;
	list = calloc(n, sizeof(*list));
	if (list == NULL) {
		OGDA_LOG_ERR("out of memory: the contexts are progressed next time");
		return 0;
	}
	pthread_mutex_lock(&pe->lock);
	for (c = pe->ctxs, i = 0; c != NULL && i < n; c = c->pe_next)
		if (c->ops->progress != NULL)
			list[i++] = c;
	n = i;
	pthread_mutex_unlock(&pe->lock);
	for (i = 0; i < n; i++) {
		int s = atomic_load(&list[i]->state);

		if (s != DOCA_CTX_STATE_RUNNING && s != DOCA_CTX_STATE_STOPPING)
			continue;
		progressed |= list[i]->ops->progress(list[i]);
		/* Drained (tasks completed and freed): the context stops here, off its own progress. */
		if (s == DOCA_CTX_STATE_STOPPING)
			core_ctx_finish_stop(list[i]);
	}
	free(list);
	return progressed;
}

doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks)
{
	OGDA_SDK_FORWARD(doca_pe_get_num_inflight_tasks, (pe, num_inflight_tasks));
	struct doca_pe *p = (struct doca_pe *)(uintptr_t)pe; /* for the lock only */
	size_t n = 0;

	if (pe == NULL || num_inflight_tasks == NULL) {
		OGDA_LOG_ERR("pe and num_inflight_tasks must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&p->lock);
	for (struct doca_ctx *c = p->ctxs; c != NULL; c = c->pe_next)
		n += c->tasks_in_flight;
	pthread_mutex_unlock(&p->lock);
	*num_inflight_tasks = n;
	return DOCA_SUCCESS;
}

uint8_t doca_pe_progress(struct doca_pe *pe)
{
	OGDA_SDK_FORWARD(doca_pe_progress, (pe));
	struct pe_event *ev;
	uint8_t progressed = 0;
	size_t pending = 0;

	if (pe == NULL) {
		OGDA_LOG_ERR("pe must not be NULL");
		return 0;
	}
	/* Only what is pending now: a callback that changes state again is reported next time. */
	pthread_mutex_lock(&pe->lock);
	for (ev = pe->head; ev != NULL; ev = ev->next)
		pending++;
	pthread_mutex_unlock(&pe->lock);
	for (; pending > 0; pending--) {
		pthread_mutex_lock(&pe->lock);
		ev = pe->head;
		if (ev != NULL) {
			pe->head = ev->next;
			if (pe->head == NULL)
				pe->tail = NULL;
		}
		pthread_mutex_unlock(&pe->lock);
		if (ev == NULL)
			break;
		if (ev->ctx->state_cb != NULL)
			ev->ctx->state_cb(ev->ctx->user_data, ev->ctx, ev->prev, ev->next_state);
		free(ev);
		progressed = 1;
	}
	return progress_contexts(pe) | progressed;
}
