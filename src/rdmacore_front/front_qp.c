/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue pairs: RC and UC (the transports the software NIC executes). Creation is DOCA Verbs'
 * CREATE_QP with the library's own rings, doorbell record and UAR; the capacities the QP
 * got (rounded up as libmlx5 rounds them) are written back into the caller's init_attr.
 * Posting is the bridge data path (bridge_post.c): mlx5 WQEs, doorbell record, BlueFlame
 * doorbell.
 */
#include "rdmacore_front/front.h"

#include "core/log.h"
#include "doca_verbs_bridge.h"
#include "verbs/verbs_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static doca_error_t init_attr_from_ibv(struct ibv_pd *pd, const struct ibv_qp_init_attr *in,
				       struct doca_verbs_qp_init_attr *a, struct front_qp *qp)
{
	verbs_qp_init_attr_defaults(a);
	a->qp_context = qp; /* async events name the QP by it */
	a->pd = ((struct front_pd *)pd)->dpd;
	a->send_cq = in->send_cq != NULL ? ((struct front_cq *)in->send_cq)->dcq : NULL;
	a->receive_cq = in->recv_cq != NULL ? ((struct front_cq *)in->recv_cq)->dcq : NULL;
	a->srq = in->srq != NULL ? ((struct front_srq *)in->srq)->dsrq : NULL;
	a->sq_sig_all = in->sq_sig_all;
	a->sq_wr = in->cap.max_send_wr;
	a->rq_wr = in->srq != NULL ? 0 : in->cap.max_recv_wr;
	a->send_max_sges = in->cap.max_send_sge != 0 ? in->cap.max_send_sge : 1;
	a->receive_max_sges = in->cap.max_recv_sge != 0 ? in->cap.max_recv_sge : 1;
	a->max_inline_data = in->cap.max_inline_data;
	a->qp_type = in->qp_type == IBV_QPT_RC ? DOCA_VERBS_QP_TYPE_RC : DOCA_VERBS_QP_TYPE_UC;
	return DOCA_SUCCESS;
}

struct ibv_qp *front_qp_create(struct ibv_pd *pd, struct ibv_qp_init_attr_ex *init_attr, uint64_t send_ops_flags)
{
	struct doca_verbs_qp_init_attr a;
	struct front_qp *qp;
	doca_error_t err;

	if (pd == NULL || init_attr == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (init_attr->qp_type != IBV_QPT_RC && init_attr->qp_type != IBV_QPT_UC) {
		OGDA_LOG_ERR("%s: QP type %d: the software NIC executes RC and UC QPs only", pd->context->device->name,
			     (int)init_attr->qp_type);
		errno = EOPNOTSUPP;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (qp == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	(void)init_attr_from_ibv(pd, (const struct ibv_qp_init_attr *)init_attr, &a, qp);
	err = doca_verbs_qp_create(front_ctx(pd->context)->dctx, &a, &qp->dqp);
	if (err != DOCA_SUCCESS) {
		free(qp);
		errno = front_errno(err);
		return NULL;
	}
	qp->cap.max_send_wr = qp->dqp->init.sq_wr;
	qp->cap.max_recv_wr = qp->dqp->init.rq_wr;
	qp->cap.max_send_sge = qp->dqp->init.send_max_sges;
	qp->cap.max_recv_sge = init_attr->srq != NULL ? 0 : qp->dqp->init.receive_max_sges;
	qp->cap.max_inline_data = qp->dqp->init.max_inline_data;
	if (send_ops_flags != 0 && front_qp_ex_init(qp, send_ops_flags) != 0) {
		int e = errno;

		(void)doca_verbs_qp_destroy(qp->dqp);
		free(qp);
		errno = e;
		return NULL;
	}
	pthread_mutex_init(&qp->sq_lock, NULL);
	pthread_mutex_init(&qp->rq_lock, NULL);
	pthread_mutex_init(&qp->ibv.mutex, NULL);
	pthread_cond_init(&qp->ibv.cond, NULL);
	qp->sq_sig_all = init_attr->sq_sig_all;
	init_attr->cap = qp->cap;
	qp->ibv.context = pd->context;
	qp->ibv.qp_context = init_attr->qp_context;
	qp->ibv.pd = pd;
	qp->ibv.send_cq = init_attr->send_cq;
	qp->ibv.recv_cq = init_attr->recv_cq;
	qp->ibv.srq = init_attr->srq;
	qp->ibv.handle = qp->dqp->qpn;
	qp->ibv.qp_num = qp->dqp->qpn;
	qp->ibv.state = IBV_QPS_RESET;
	qp->ibv.qp_type = init_attr->qp_type;
	front_track(pd->context, &qp->link, FRONT_QP, &qp->ibv);
	return &qp->ibv;
}

FRONT_EXPORT struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *init_attr)
{
	struct ibv_qp_init_attr_ex ex;
	struct ibv_qp *qp;

	if (init_attr == NULL) {
		errno = EINVAL;
		return NULL;
	}
	memset(&ex, 0, sizeof(ex));
	memcpy(&ex, init_attr, sizeof(*init_attr)); /* the plain attributes are the extended ones' prefix */
	qp = front_qp_create(pd, &ex, 0);
	if (qp != NULL)
		init_attr->cap = ex.cap;
	return qp;
}

FRONT_EXPORT int ibv_destroy_qp(struct ibv_qp *ibv_qp)
{
	struct front_qp *qp = (struct front_qp *)ibv_qp;
	doca_error_t err;

	if (qp == NULL)
		return front_fail(EINVAL);
	err = doca_verbs_qp_destroy(qp->dqp);
	if (err != DOCA_SUCCESS)
		return front_fail(front_errno(err));
	front_untrack(ibv_qp->context, &qp->link);
	front_qp_ex_fini(qp);
	pthread_mutex_destroy(&qp->sq_lock);
	pthread_mutex_destroy(&qp->rq_lock);
	pthread_mutex_destroy(&qp->ibv.mutex);
	pthread_cond_destroy(&qp->ibv.cond);
	free(qp);
	return 0;
}

FRONT_EXPORT int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	int e;

	if (qp == NULL || attr == NULL)
		return front_fail(EINVAL);
	e = front_qp_modify((struct front_qp *)qp, attr, attr_mask);
	return e != 0 ? front_fail(e) : 0;
}

FRONT_EXPORT int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
			      struct ibv_qp_init_attr *init_attr)
{
	int e;

	if (qp == NULL || attr == NULL)
		return front_fail(EINVAL);
	e = front_qp_query((struct front_qp *)qp, attr, attr_mask, init_attr);
	return e != 0 ? front_fail(e) : 0;
}

int front_post_send(struct ibv_qp *ibv_qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	struct front_qp *qp = (struct front_qp *)ibv_qp;
	int ret;

	if (qp == NULL || bad_wr == NULL)
		return EINVAL;
	pthread_mutex_lock(&qp->sq_lock);
	ret = doca_verbs_bridge_post_send(qp->dqp, wr, bad_wr);
	pthread_mutex_unlock(&qp->sq_lock);
	return ret;
}

int front_post_recv(struct ibv_qp *ibv_qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	struct front_qp *qp = (struct front_qp *)ibv_qp;
	int ret;

	if (qp == NULL || bad_wr == NULL)
		return EINVAL;
	pthread_mutex_lock(&qp->rq_lock);
	ret = doca_verbs_bridge_post_recv(qp->dqp, wr, bad_wr);
	pthread_mutex_unlock(&qp->rq_lock);
	return ret;
}
