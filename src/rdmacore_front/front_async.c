/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Async events: the software NIC raises CQ overrun and QP error events (PRM event types
 * 0x04, 0x05, 0x10, 0x11) on the context's async channel, whose fd is ibv_context.async_fd.
 * DOCA Verbs numbers them as ibv_event_type does, so only the objects need translating.
 */
#include "rdmacore_front/front.h"

#include "core/log.h"
#include "verbs/verbs_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>

/* Blocks on the async fd unless the program made it non-blocking (then EAGAIN, as read(2)). */
static int wait_async(int fd, bool *nonblock)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0)
		return errno;
	*nonblock = (flags & O_NONBLOCK) != 0;
	while (!*nonblock) {
		int r = poll(&p, 1, -1); /* ibv_get_async_event blocks, as rdma-core's does */

		if (r > 0)
			break;
		if (r < 0 && errno != EINTR)
			return errno;
	}
	return 0;
}

FRONT_EXPORT int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
{
	struct doca_verbs_async_event d;
	struct front_context *fc;
	doca_error_t err;
	bool nonblock = false;

	if (context == NULL || event == NULL) {
		errno = EINVAL;
		return -1;
	}
	fc = front_ctx(context);
	pthread_mutex_lock(&fc->async_lock);
	for (;;) {
		int e = wait_async(context->async_fd, &nonblock);

		if (e != 0) {
			pthread_mutex_unlock(&fc->async_lock);
			errno = e;
			return -1;
		}
		err = doca_verbs_get_async_event(fc->dctx, &d);
		if (err == DOCA_SUCCESS)
			break;
		if (err != DOCA_ERROR_AGAIN || nonblock) {
			pthread_mutex_unlock(&fc->async_lock);
			errno = front_errno(err);
			return -1;
		}
	}
	pthread_mutex_unlock(&fc->async_lock);
	memset(event, 0, sizeof(*event));
	event->event_type = (enum ibv_event_type)d.event_type;
	switch (d.event_type) {
	case DOCA_VERBS_EVENT_CQ_ERR:
		event->element.cq = &((struct front_cq *)d.element.cq->attr.cq_context)->ibv;
		break;
	case DOCA_VERBS_EVENT_SRQ_ERR:
		event->element.srq = NULL; /* SRQs are not created through the front end */
		break;
	default:
		event->element.qp = &((struct front_qp *)d.element.qp->init.qp_context)->ibv;
		break;
	}
	return 0;
}

FRONT_EXPORT void ibv_ack_async_event(struct ibv_async_event *event)
{
	struct doca_verbs_async_event d;

	if (event == NULL)
		return;
	memset(&d, 0, sizeof(d));
	d.event_type = (enum doca_verbs_async_event_type)event->event_type;
	switch (event->event_type) {
	case IBV_EVENT_CQ_ERR:
		d.element.cq = ((struct front_cq *)event->element.cq)->dcq;
		d.context = front_ctx(event->element.cq->context)->dctx;
		break;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
		d.element.qp = ((struct front_qp *)event->element.qp)->dqp;
		d.context = front_ctx(event->element.qp->context)->dctx;
		break;
	default:
		OGDA_LOG_ERR("ibv_ack_async_event: event type %d was not delivered by the front end",
			     (int)event->event_type);
		return;
	}
	if (doca_verbs_ack_async_event(&d) != DOCA_SUCCESS)
		OGDA_LOG_ERR("ibv_ack_async_event: the event was acknowledged already");
}
