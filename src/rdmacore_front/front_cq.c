/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Completion queues and completion channels. A CQ's ring, doorbell record and arming are
 * the mlx5 ones (DOCA Verbs CREATE_CQ on the software NIC); ibv_poll_cq reads its CQEs
 * (bridge_poll.c) and ibv_req_notify_cq arms it through the doorbell record and the UAR, as
 * libmlx5 does. A completion channel's fd is the software NIC's event fd: readable while an
 * event is pending, so programs may poll it before ibv_get_cq_event.
 */
#include "rdmacore_front/front.h"

#include "core/log.h"
#include "doca_verbs_bridge.h"
#include "verbs/verbs_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>

FRONT_EXPORT struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
{
	struct front_comp_channel *ch;
	doca_error_t err;

	if (context == NULL) {
		errno = EINVAL;
		return NULL;
	}
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	err = doca_verbs_comp_channel_create(front_ctx(context)->dctx, &ch->dch);
	if (err != DOCA_SUCCESS) {
		free(ch);
		errno = front_errno(err);
		return NULL;
	}
	ch->ibv.context = context;
	ch->ibv.fd = doca_verbs_comp_channel_get_handle(ch->dch);
	front_fd_make_blocking(ch->ibv.fd);
	ch->ibv.refcnt = 0;
	front_track(context, &ch->link, FRONT_CH, &ch->ibv);
	return &ch->ibv;
}

FRONT_EXPORT int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	struct front_comp_channel *ch = (struct front_comp_channel *)channel;
	doca_error_t err;

	if (ch == NULL)
		return front_fail(EINVAL);
	err = doca_verbs_comp_channel_destroy(ch->dch);
	if (err != DOCA_SUCCESS)
		return front_fail(front_errno(err));
	front_untrack(channel->context, &ch->link);
	free(ch);
	return 0;
}

FRONT_EXPORT struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
					  struct ibv_comp_channel *channel, int comp_vector)
{
	struct doca_verbs_cq_attr *attr = NULL;
	struct front_cq *cq;
	void *ring = NULL;
	uint32_t nentries = 0;
	uint8_t entry_size = 0;
	doca_error_t err;

	if (context == NULL || cqe <= 0 || comp_vector < 0 || comp_vector >= context->num_comp_vectors) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (cq == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/* libmlx5 sizes the ring to a power of two above cqe and reports one less. */
	err = doca_verbs_cq_attr_create(&attr);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_cq_attr_set_cq_size(attr, (uint32_t)cqe + 1);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_cq_attr_set_cq_context(attr, cq);
	if (err == DOCA_SUCCESS && channel != NULL)
		err = doca_verbs_cq_attr_set_comp_channel(attr, ((struct front_comp_channel *)channel)->dch);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_cq_create(front_ctx(context)->dctx, attr, &cq->dcq);
	if (attr != NULL)
		(void)doca_verbs_cq_attr_destroy(attr);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_cq_get_wq(cq->dcq, &ring, &nentries, &entry_size);
	if (err != DOCA_SUCCESS) {
		if (cq->dcq != NULL)
			(void)doca_verbs_cq_destroy(cq->dcq);
		free(cq);
		errno = front_errno(err);
		return NULL;
	}
	pthread_mutex_init(&cq->poll_lock, NULL);
	pthread_mutex_init(&cq->ibv.mutex, NULL);
	pthread_cond_init(&cq->ibv.cond, NULL);
	cq->ibv.context = context;
	cq->ibv.channel = channel;
	cq->ibv.cq_context = cq_context;
	cq->ibv.cqe = (int)nentries - 1;
	(void)doca_verbs_cq_get_cqn(cq->dcq, &cq->ibv.handle);
	if (channel != NULL)
		channel->refcnt++;
	front_track(context, &cq->link, FRONT_CQ, &cq->ibv);
	return &cq->ibv;
}

FRONT_EXPORT int ibv_destroy_cq(struct ibv_cq *ibv_cq)
{
	struct front_cq *cq = (struct front_cq *)ibv_cq;
	doca_error_t err;

	if (cq == NULL)
		return front_fail(EINVAL);
	err = doca_verbs_cq_destroy(cq->dcq);
	if (err != DOCA_SUCCESS)
		return front_fail(front_errno(err));
	if (ibv_cq->channel != NULL)
		ibv_cq->channel->refcnt--;
	front_untrack(ibv_cq->context, &cq->link);
	pthread_mutex_destroy(&cq->poll_lock);
	pthread_mutex_destroy(&cq->ibv.mutex);
	pthread_cond_destroy(&cq->ibv.cond);
	free(cq);
	return 0;
}

FRONT_EXPORT int ibv_resize_cq(struct ibv_cq *cq, int cqe)
{
	(void)cq;
	(void)cqe;
	return front_fail(EOPNOTSUPP);
}

int front_poll_cq_locked(struct front_cq *cq, int num_entries, struct ibv_wc *wc)
{
	int n = doca_verbs_bridge_poll_cq(cq->dcq, num_entries, wc);

	for (int i = 0; i < n; i++) {
		struct doca_verbs_qp *dqp;

		if ((wc[i].opcode & IBV_WC_RECV) == 0)
			continue;
		dqp = verbs_cq_find_qp(cq->dcq, wc[i].qp_num);
		if (dqp != NULL && dqp->init.srq != NULL) /* the bridge names the SRQ WQE: back to wr_id */
			front_srq_complete((struct front_srq *)((struct front_qp *)dqp->init.qp_context)->ibv.srq, &wc[i]);
	}
	return n;
}

int front_poll_cq(struct ibv_cq *ibv_cq, int num_entries, struct ibv_wc *wc)
{
	struct front_cq *cq = (struct front_cq *)ibv_cq;
	int n;

	if (cq == NULL || num_entries < 0 || (num_entries > 0 && wc == NULL))
		return -EINVAL;
	pthread_mutex_lock(&cq->poll_lock);
	n = front_poll_cq_locked(cq, num_entries, wc);
	pthread_mutex_unlock(&cq->poll_lock);
	return n;
}

int front_req_notify_cq(struct ibv_cq *ibv_cq, int solicited_only)
{
	struct front_cq *cq = (struct front_cq *)ibv_cq;
	doca_error_t err;

	if (cq == NULL)
		return EINVAL;
	if (ibv_cq->channel == NULL)
		return 0; /* nothing would deliver the event; libmlx5 arms anyway and nobody hears it */
	err = opengda_verbs_cq_arm(cq->dcq, solicited_only != 0);
	return front_errno(err);
}

/*
 * Waits for the channel's fd unless the program made it non-blocking (then EAGAIN, as
 * read(2) on rdma-core's channel fd). The front end hands the fd out blocking
 * (front_fd_make_blocking), so O_NONBLOCK on it is the program's own choice.
 */
static int wait_channel(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0)
		return errno;
	if ((flags & O_NONBLOCK) != 0)
		return 0;
	for (;;) {
		int r = poll(&p, 1, -1); /* ibv_get_cq_event blocks until an event, as rdma-core's does */

		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return errno;
	}
}

FRONT_EXPORT int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
{
	struct front_comp_channel *ch = (struct front_comp_channel *)channel;
	struct doca_verbs_cq *dcq = NULL;
	void *ctx = NULL;
	doca_error_t err;

	if (ch == NULL || cq == NULL || cq_context == NULL) {
		errno = EINVAL;
		return -1;
	}
	for (;;) {
		int e = wait_channel(channel->fd);

		if (e != 0) {
			errno = e;
			return -1;
		}
		err = doca_verbs_get_cq_event(ch->dch, &dcq, &ctx);
		if (err == DOCA_SUCCESS)
			break;
		if (err != DOCA_ERROR_AGAIN || (fcntl(channel->fd, F_GETFL) & O_NONBLOCK) != 0) {
			errno = front_errno(err);
			return -1;
		}
	}
	*cq = &((struct front_cq *)ctx)->ibv;
	*cq_context = (*cq)->cq_context;
	return 0;
}

FRONT_EXPORT void ibv_ack_cq_events(struct ibv_cq *ibv_cq, unsigned int nevents)
{
	struct front_cq *cq = (struct front_cq *)ibv_cq;

	if (cq == NULL)
		return;
	if (doca_verbs_ack_cq_events(cq->dcq, nevents) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: ibv_ack_cq_events(%u): more events than were taken", ibv_cq->context->device->name,
			     nevents);
	pthread_mutex_lock(&ibv_cq->mutex);
	ibv_cq->comp_events_completed += nevents;
	pthread_mutex_unlock(&ibv_cq->mutex);
}
