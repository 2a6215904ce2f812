/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Completion channels, CQ arming and async events. Both ride on device event channels
 * (src/devx/devx.h): a completion channel owns one, the context owns one for async events.
 * Events name objects by a cookie that is never reused; an event whose object is gone by
 * the time it is read is dropped, so a destroyed object is never handed back.
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "verbs/verbs_util.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>

static void *registry_find(struct doca_verbs_context *ctx, uint64_t cookie, enum verbs_event_obj_kind *kind)
{
	for (struct verbs_event_obj *e = ctx->evobjs; e != NULL; e = e->next) {
		if (e->cookie == cookie) {
			*kind = e->kind;
			return e->obj;
		}
	}
	return NULL;
}

doca_error_t verbs_async_subscribe(struct doca_verbs_context *ctx, enum verbs_event_obj_kind kind, void *obj,
				   struct ogda_devx_obj *devx_obj, uint64_t *cookie)
{
	static const uint16_t cq_types[] = {OGDA_DEVX_EVENT_CQ_ERROR};
	static const uint16_t qp_types[] = {OGDA_DEVX_EVENT_WQ_CATAS_ERROR, OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR,
					    OGDA_DEVX_EVENT_WQ_ACCESS_ERROR};
	static const uint16_t srq_types[] = {OGDA_DEVX_EVENT_SRQ_CATAS_ERROR};
	const uint16_t *types = kind == VERBS_EVOBJ_CQ ? cq_types : kind == VERBS_EVOBJ_QP ? qp_types : srq_types;
	size_t ntypes = kind == VERBS_EVOBJ_QP ? 3u : 1u;
	struct verbs_event_obj *e = calloc(1, sizeof(*e));
	doca_error_t err;

	if (e == NULL)
		return DOCA_ERROR_NO_MEMORY;
	pthread_mutex_lock(&ctx->lock);
	e->cookie = ctx->next_cookie++;
	e->kind = kind;
	e->obj = obj;
	e->next = ctx->evobjs;
	ctx->evobjs = e;
	pthread_mutex_unlock(&ctx->lock);
	err = ctx->devx->ops->event_subscribe(ctx->async_ch, devx_obj, types, ntypes, e->cookie);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot subscribe to async events: %s", ctx->info.name, doca_error_get_descr(err));
		verbs_async_unsubscribe(ctx, e->cookie);
		return DOCA_ERROR_DRIVER;
	}
	*cookie = e->cookie;
	return DOCA_SUCCESS;
}

void verbs_async_unsubscribe(struct doca_verbs_context *ctx, uint64_t cookie)
{
	pthread_mutex_lock(&ctx->lock);
	for (struct verbs_event_obj **pe = &ctx->evobjs; *pe != NULL; pe = &(*pe)->next) {
		if ((*pe)->cookie == cookie) {
			struct verbs_event_obj *dead = *pe;

			*pe = dead->next;
			free(dead);
			break;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
}

/* ---- completion channels ---- */

doca_error_t doca_verbs_comp_channel_create(struct doca_verbs_context *verbs_context,
					    struct doca_verbs_comp_channel **verbs_comp_channel)
{
	OGDA_SDK_FORWARD(doca_verbs_comp_channel_create, (verbs_context, verbs_comp_channel));
	struct doca_verbs_comp_channel *cc;
	doca_error_t err;

	if (verbs_context == NULL || verbs_comp_channel == NULL) {
		OGDA_LOG_ERR("verbs_context and verbs_comp_channel must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cc = calloc(1, sizeof(*cc));
	if (cc == NULL) {
		OGDA_LOG_ERR("%s: out of memory", verbs_context->info.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = verbs_context->devx->ops->event_channel_create(verbs_context->devx, &cc->ch, &cc->fd);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot create an event channel: %s", verbs_context->info.name,
			     doca_error_get_descr(err));
		free(cc);
		return err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	}
	cc->ctx = verbs_context;
	verbs_ctx_child_add(verbs_context);
	*verbs_comp_channel = cc;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_comp_channel_destroy(struct doca_verbs_comp_channel *verbs_comp_channel)
{
	OGDA_SDK_FORWARD(doca_verbs_comp_channel_destroy, (verbs_comp_channel));
	struct doca_verbs_comp_channel *cc = verbs_comp_channel;
	unsigned int users;

	if (cc == NULL) {
		OGDA_LOG_ERR("verbs_comp_channel must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	users = atomic_load(&cc->users);
	if (users != 0) {
		OGDA_LOG_ERR("%s: the completion channel still serves %u CQs", cc->ctx->info.name, users);
		return DOCA_ERROR_IN_USE;
	}
	(void)cc->ctx->devx->ops->event_channel_destroy(cc->ch);
	verbs_ctx_child_del(cc->ctx);
	free(cc);
	return DOCA_SUCCESS;
}

doca_event_handle_t doca_verbs_comp_channel_get_handle(struct doca_verbs_comp_channel *verbs_comp_channel)
{
	OGDA_SDK_FORWARD(doca_verbs_comp_channel_get_handle, (verbs_comp_channel));
	if (verbs_comp_channel == NULL) {
		OGDA_LOG_ERR("verbs_comp_channel must not be NULL");
		return doca_event_invalid_handle;
	}
	return verbs_comp_channel->fd;
}

doca_error_t verbs_cq_subscribe_comp(struct doca_verbs_cq *cq)
{
	static const uint16_t types[] = {OGDA_DEVX_EVENT_COMP};
	doca_error_t err;

	err = cq->ctx->devx->ops->event_subscribe(cq->attr.comp_channel->ch, cq->obj, types, 1, cq->cookie);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: CQ 0x%x: cannot subscribe to completion events: %s", cq->ctx->info.name, cq->cqn,
			     doca_error_get_descr(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_get_cq_event(struct doca_verbs_comp_channel *verbs_comp_channel,
				     struct doca_verbs_cq **verbs_cq, void **cq_context)
{
	OGDA_SDK_FORWARD(doca_verbs_get_cq_event, (verbs_comp_channel, verbs_cq, cq_context));
	struct doca_verbs_comp_channel *cc = verbs_comp_channel;
	struct ogda_devx_event ev;
	doca_error_t err;

	if (cc == NULL || verbs_cq == NULL || cq_context == NULL) {
		OGDA_LOG_ERR("verbs_comp_channel, verbs_cq and cq_context must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (;;) {
		enum verbs_event_obj_kind kind;
		struct doca_verbs_cq *cq;

		err = cc->ctx->devx->ops->event_read(cc->ch, &ev);
		if (err != DOCA_SUCCESS)
			return err == DOCA_ERROR_AGAIN ? err : DOCA_ERROR_DRIVER;
		pthread_mutex_lock(&cc->ctx->lock);
		cq = registry_find(cc->ctx, ev.cookie, &kind);
		if (cq == NULL || kind != VERBS_EVOBJ_CQ || ev.type != OGDA_DEVX_EVENT_COMP) {
			pthread_mutex_unlock(&cc->ctx->lock);
			continue; /* its CQ is gone: nothing to hand back */
		}
		cq->comp_events_taken++;
		cq->arm_sn++;
		pthread_mutex_unlock(&cc->ctx->lock);
		*verbs_cq = cq;
		*cq_context = cq->attr.cq_context;
		return DOCA_SUCCESS;
	}
}

doca_error_t doca_verbs_ack_cq_events(struct doca_verbs_cq *verbs_cq, unsigned int nevents)
{
	OGDA_SDK_FORWARD(doca_verbs_ack_cq_events, (verbs_cq, nevents));
	doca_error_t err = DOCA_SUCCESS;

	if (verbs_cq == NULL) {
		OGDA_LOG_ERR("verbs_cq must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&verbs_cq->ctx->lock);
	if (nevents > verbs_cq->comp_events_taken - verbs_cq->comp_events_acked) {
		OGDA_LOG_ERR("%s: CQ 0x%x: %u events acknowledged but only %u taken and not yet acknowledged",
			     verbs_cq->ctx->info.name, verbs_cq->cqn, nevents,
			     verbs_cq->comp_events_taken - verbs_cq->comp_events_acked);
		err = DOCA_ERROR_INVALID_VALUE;
	} else {
		verbs_cq->comp_events_acked += nevents;
	}
	pthread_mutex_unlock(&verbs_cq->ctx->lock);
	return err;
}

doca_error_t opengda_verbs_cq_arm(struct doca_verbs_cq *verbs_cq, bool solicited_only)
{
	struct doca_verbs_cq *cq = verbs_cq;
	uint32_t sn, ci, word, ci_be = 0;
	uint64_t db;
	doca_error_t err;

	if (cq == NULL) {
		OGDA_LOG_ERR("verbs_cq must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cq->attr.comp_channel == NULL) {
		OGDA_LOG_ERR("%s: CQ 0x%x has no completion channel: arming it would raise events nobody reads",
			     cq->ctx->info.name, cq->cqn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&cq->ctx->lock);
	sn = cq->arm_sn;
	pthread_mutex_unlock(&cq->ctx->lock);
	/* The consumer index as the poller published it (bridge or GPU thread). */
	err = verbs_mem_read(&ci_be, &cq->dbr[OPENGDA_MLX5_CQ_SET_CI], sizeof(ci_be));
	if (err != DOCA_SUCCESS)
		return err;
	ci = opengda_mlx5_be32toh(ci_be) & OPENGDA_MLX5_CQ_CI_MASK;
	word = opengda_mlx5_cq_dbr_arm_value(sn, solicited_only, ci);
	if (verbs_cpu_accessible(&cq->dbr[OPENGDA_MLX5_CQ_ARM_DB], sizeof(word))) {
		__atomic_store_n(&cq->dbr[OPENGDA_MLX5_CQ_ARM_DB], word, __ATOMIC_RELEASE);
	} else {
		err = verbs_mem_write(&cq->dbr[OPENGDA_MLX5_CQ_ARM_DB], &word, sizeof(word));
		if (err != DOCA_SUCCESS)
			return err;
	}
	db = opengda_mlx5_cq_uar_arm_value(sn, solicited_only, ci, cq->cqn);
	VERBS_MMIO_FENCE(); /* the arm record before the doorbell */
	__atomic_store_n((uint64_t *)(void *)((uint8_t *)cq->uar->info.base_addr + OPENGDA_MLX5_UAR_CQ_DOORBELL), db,
			 __ATOMIC_RELEASE);
	VERBS_MMIO_FENCE();
	return DOCA_SUCCESS;
}

/* ---- async events ---- */

doca_error_t opengda_verbs_context_get_async_handle(struct doca_verbs_context *verbs_context,
						    doca_event_handle_t *handle)
{
	if (verbs_context == NULL || handle == NULL) {
		OGDA_LOG_ERR("verbs_context and handle must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*handle = verbs_context->async_fd;
	return DOCA_SUCCESS;
}

static bool async_type(uint8_t devx_type, enum verbs_event_obj_kind kind, enum doca_verbs_async_event_type *type)
{
	switch (devx_type) {
	case OGDA_DEVX_EVENT_CQ_ERROR:
		*type = DOCA_VERBS_EVENT_CQ_ERR;
		return kind == VERBS_EVOBJ_CQ;
	case OGDA_DEVX_EVENT_WQ_CATAS_ERROR:
		*type = DOCA_VERBS_EVENT_QP_FATAL;
		return kind == VERBS_EVOBJ_QP;
	case OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR:
		*type = DOCA_VERBS_EVENT_QP_REQ_ERR;
		return kind == VERBS_EVOBJ_QP;
	case OGDA_DEVX_EVENT_WQ_ACCESS_ERROR:
		*type = DOCA_VERBS_EVENT_QP_ACCESS_ERR;
		return kind == VERBS_EVOBJ_QP;
	case OGDA_DEVX_EVENT_SRQ_CATAS_ERROR:
		*type = DOCA_VERBS_EVENT_SRQ_ERR;
		return kind == VERBS_EVOBJ_SRQ;
	default:
		return false;
	}
}

static unsigned int *unacked_counter(enum verbs_event_obj_kind kind, void *obj)
{
	switch (kind) {
	case VERBS_EVOBJ_CQ:
		return &((struct doca_verbs_cq *)obj)->async_unacked;
	case VERBS_EVOBJ_QP:
		return &((struct doca_verbs_qp *)obj)->async_unacked;
	default:
		return &((struct doca_verbs_srq *)obj)->async_unacked;
	}
}

doca_error_t doca_verbs_get_async_event(struct doca_verbs_context *verbs_context,
					struct doca_verbs_async_event *async_event)
{
	OGDA_SDK_FORWARD(doca_verbs_get_async_event, (verbs_context, async_event));
	struct doca_verbs_context *ctx = verbs_context;
	struct ogda_devx_event ev;
	doca_error_t err;

	if (ctx == NULL || async_event == NULL) {
		OGDA_LOG_ERR("verbs_context and async_event must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (;;) {
		enum verbs_event_obj_kind kind;
		enum doca_verbs_async_event_type type;
		void *obj;

		err = ctx->devx->ops->event_read(ctx->async_ch, &ev);
		if (err != DOCA_SUCCESS)
			return err == DOCA_ERROR_AGAIN ? err : DOCA_ERROR_DRIVER;
		pthread_mutex_lock(&ctx->lock);
		obj = registry_find(ctx, ev.cookie, &kind);
		if (obj == NULL || !async_type(ev.type, kind, &type)) {
			pthread_mutex_unlock(&ctx->lock);
			continue;
		}
		(*unacked_counter(kind, obj))++;
		ctx->async_unacked++;
		pthread_mutex_unlock(&ctx->lock);
		async_event->event_type = type;
		async_event->syndrome = ev.syndrome;
		async_event->context = ctx;
		if (kind == VERBS_EVOBJ_CQ)
			async_event->element.cq = obj;
		else if (kind == VERBS_EVOBJ_QP)
			async_event->element.qp = obj;
		else
			async_event->element.srq = obj;
		OGDA_LOG_INFO("%s: async event %d on object 0x%x (syndrome 0x%x)", ctx->info.name, (int)type, ev.obj_num,
			      ev.syndrome);
		return DOCA_SUCCESS;
	}
}

doca_error_t doca_verbs_ack_async_event(struct doca_verbs_async_event *async_event)
{
	OGDA_SDK_FORWARD(doca_verbs_ack_async_event, (async_event));
	struct doca_verbs_context *ctx;
	enum verbs_event_obj_kind kind;
	bool object_event = true;
	void *obj;

	if (async_event == NULL || async_event->context == NULL) {
		OGDA_LOG_ERR("async_event must be an event from doca_verbs_get_async_event() not yet acknowledged");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx = async_event->context;
	kind = VERBS_EVOBJ_QP;
	obj = NULL;
	switch (async_event->event_type) {
	case DOCA_VERBS_EVENT_CQ_ERR:
		kind = VERBS_EVOBJ_CQ;
		obj = async_event->element.cq;
		break;
	case DOCA_VERBS_EVENT_SRQ_ERR:
		kind = VERBS_EVOBJ_SRQ;
		obj = async_event->element.srq;
		break;
	case DOCA_VERBS_EVENT_QP_FATAL:
	case DOCA_VERBS_EVENT_QP_REQ_ERR:
	case DOCA_VERBS_EVENT_QP_ACCESS_ERR:
		obj = async_event->element.qp;
		break;
	default:
		/* Port and device events (ibv_event_type values the enum lacks) name no object. */
		object_event = false;
		break;
	}
	if (object_event && obj == NULL) {
		OGDA_LOG_ERR("%s: async event %d names no object: not an event from doca_verbs_get_async_event()",
			     ctx->info.name, (int)async_event->event_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&ctx->lock);
	if (obj != NULL && *unacked_counter(kind, obj) > 0)
		(*unacked_counter(kind, obj))--;
	if (ctx->async_unacked > 0)
		ctx->async_unacked--;
	pthread_mutex_unlock(&ctx->lock);
	async_event->context = NULL;
	return DOCA_SUCCESS;
}
