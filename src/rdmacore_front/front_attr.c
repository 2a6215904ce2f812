/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibv_modify_qp / ibv_query_qp in DOCA Verbs terms: the ibv attribute mask becomes the DOCA
 * Verbs mask bit by bit, and DOCA Verbs builds the RST2INIT / INIT2RTR / RTR2RTS / 2ERR / 2RST
 * PRM commands the software NIC executes. Which attributes a transition requires or takes is
 * checked there (the IB spec's table, as the kernel's ib_modify_qp_is_ok checks it).
 *
 * Not modelled (EOPNOTSUPP): alternate paths, path migration other than "migrated", SQD /
 * SQE states, changing the QP's capacities, rate limits. The AH's static rate is not
 * applied (the software NIC does not shape traffic).
 */
#include "rdmacore_front/front.h"

#include "core/log.h"
#include "verbs/verbs_priv.h"

#include <errno.h>
#include <string.h>

#define UNSUPPORTED_MASK (IBV_QP_ALT_PATH | IBV_QP_CAP | IBV_QP_RATE_LIMIT | IBV_QP_EN_SQD_ASYNC_NOTIFY)

static int state_to_doca(enum ibv_qp_state s, enum doca_verbs_qp_state *out)
{
	switch (s) {
	case IBV_QPS_RESET:
		*out = DOCA_VERBS_QP_STATE_RST;
		return 0;
	case IBV_QPS_INIT:
		*out = DOCA_VERBS_QP_STATE_INIT;
		return 0;
	case IBV_QPS_RTR:
		*out = DOCA_VERBS_QP_STATE_RTR;
		return 0;
	case IBV_QPS_RTS:
		*out = DOCA_VERBS_QP_STATE_RTS;
		return 0;
	case IBV_QPS_ERR:
		*out = DOCA_VERBS_QP_STATE_ERR;
		return 0;
	default:
		return EOPNOTSUPP; /* SQD, SQE */
	}
}

static enum ibv_qp_state state_from_doca(enum doca_verbs_qp_state s)
{
	static const enum ibv_qp_state map[] = {IBV_QPS_RESET, IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS, IBV_QPS_ERR};

	return (unsigned int)s < sizeof(map) / sizeof(map[0]) ? map[s] : IBV_QPS_UNKNOWN;
}

/* The AH of a RoCE port: the peer's GID is what routes to it (a software NIC's GID is its endpoint). */
static int ah_to_doca(struct front_qp *qp, const struct ibv_ah_attr *in, struct doca_verbs_ah_attr *out)
{
	const char *dev = qp->ibv.context->device->name;

	if (!in->is_global) {
		OGDA_LOG_ERR("%s: QP 0x%x: the port is RoCE: the AH needs a GRH with the peer's GID (is_global = 1; "
			     "ibv_rc_pingpong: -g 0)",
			     dev, qp->ibv.qp_num);
		return EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->ctx = front_ctx(qp->ibv.context)->dctx;
	out->f.addr_type = DOCA_VERBS_ADDR_TYPE_IPv6;
	memcpy(out->f.gid.raw, in->grh.dgid.raw, sizeof(out->f.gid.raw));
	out->f.dlid = in->dlid;
	out->f.sl = in->sl;
	out->f.sgid_index = in->grh.sgid_index;
	out->f.hop_limit = in->grh.hop_limit;
	out->f.traffic_class = in->grh.traffic_class;
	return 0;
}

static void ah_from_doca(const struct verbs_ah_fields *f, struct ibv_ah_attr *out)
{
	memset(out, 0, sizeof(*out));
	out->is_global = 1;
	memcpy(out->grh.dgid.raw, f->gid.raw, sizeof(out->grh.dgid.raw));
	out->grh.sgid_index = f->sgid_index;
	out->grh.hop_limit = f->hop_limit;
	out->grh.traffic_class = f->traffic_class;
	out->dlid = (uint16_t)f->dlid;
	out->sl = f->sl;
	out->port_num = 1;
}

/* The plain attributes: one ibv mask bit, one DOCA Verbs bit and field each. */
static void map_plain(const struct ibv_qp_attr *a, int mask, struct doca_verbs_qp_attr *d, int *dmask)
{
	if (mask & IBV_QP_PKEY_INDEX) {
		d->pkey_index = a->pkey_index;
		*dmask |= DOCA_VERBS_QP_ATTR_PKEY_INDEX;
	}
	if (mask & IBV_QP_PORT) {
		d->port_num = a->port_num;
		*dmask |= DOCA_VERBS_QP_ATTR_PORT_NUM;
	}
	if (mask & IBV_QP_PATH_MTU) {
		d->path_mtu = (enum doca_verbs_mtu_size)(a->path_mtu - 1); /* ibv 1 = 256 B, doca 0 */
		*dmask |= DOCA_VERBS_QP_ATTR_PATH_MTU;
	}
	if (mask & IBV_QP_TIMEOUT) {
		d->ack_timeout = a->timeout;
		*dmask |= DOCA_VERBS_QP_ATTR_ACK_TIMEOUT;
	}
	if (mask & IBV_QP_RETRY_CNT) {
		d->retry_cnt = a->retry_cnt;
		*dmask |= DOCA_VERBS_QP_ATTR_RETRY_CNT;
	}
	if (mask & IBV_QP_RNR_RETRY) {
		d->rnr_retry = a->rnr_retry;
		*dmask |= DOCA_VERBS_QP_ATTR_RNR_RETRY;
	}
	if (mask & IBV_QP_RQ_PSN) {
		d->rq_psn = a->rq_psn;
		*dmask |= DOCA_VERBS_QP_ATTR_RQ_PSN;
	}
	if (mask & IBV_QP_SQ_PSN) {
		d->sq_psn = a->sq_psn;
		*dmask |= DOCA_VERBS_QP_ATTR_SQ_PSN;
	}
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC) {
		d->max_rd_atomic = a->max_rd_atomic;
		*dmask |= DOCA_VERBS_QP_ATTR_MAX_QP_RD_ATOMIC;
	}
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC) {
		d->max_dest_rd_atomic = a->max_dest_rd_atomic;
		*dmask |= DOCA_VERBS_QP_ATTR_MAX_DEST_RD_ATOMIC;
	}
	if (mask & IBV_QP_MIN_RNR_TIMER) {
		d->min_rnr_timer = a->min_rnr_timer;
		*dmask |= DOCA_VERBS_QP_ATTR_MIN_RNR_TIMER;
	}
	if (mask & IBV_QP_DEST_QPN) {
		d->dest_qp_num = a->dest_qp_num;
		*dmask |= DOCA_VERBS_QP_ATTR_DEST_QP_NUM;
	}
}

/* Access flags: remote write for RC and UC, remote read and atomics for RC only. */
static void map_access(const struct front_qp *qp, unsigned int flags, struct doca_verbs_qp_attr *d, int *dmask)
{
	d->allow_remote_write = (flags & IBV_ACCESS_REMOTE_WRITE) != 0;
	*dmask |= DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_WRITE;
	if (qp->ibv.qp_type != IBV_QPT_RC)
		return;
	d->allow_remote_read = (flags & IBV_ACCESS_REMOTE_READ) != 0;
	d->atomic_mode = (flags & IBV_ACCESS_REMOTE_ATOMIC) != 0 ? DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC
								  : DOCA_VERBS_QP_ATOMIC_MODE_NONE;
	*dmask |= DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_READ | DOCA_VERBS_QP_ATTR_ATOMIC_MODE;
}

int front_qp_modify(struct front_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	struct doca_verbs_qp_attr d;
	struct doca_verbs_ah_attr ah;
	int dmask = 0, e;
	doca_error_t err;

	memset(&d, 0, sizeof(d));
	if ((mask & UNSUPPORTED_MASK) != 0 ||
	    ((mask & IBV_QP_PATH_MIG_STATE) != 0 && attr->path_mig_state != IBV_MIG_MIGRATED)) {
		OGDA_LOG_ERR("%s: QP 0x%x: attribute mask 0x%x: alternate paths, path migration, capacity changes and "
			     "rate limits are not supported by the software NIC",
			     qp->ibv.context->device->name, qp->ibv.qp_num, mask);
		return EOPNOTSUPP;
	}
	if (mask & IBV_QP_QKEY) {
		OGDA_LOG_ERR("%s: QP 0x%x: a Q_Key belongs to UD QPs", qp->ibv.context->device->name, qp->ibv.qp_num);
		return EINVAL;
	}
	if (mask & IBV_QP_STATE) {
		e = state_to_doca(attr->qp_state, &d.next_state);
		if (e != 0)
			return e;
		dmask |= DOCA_VERBS_QP_ATTR_NEXT_STATE;
	}
	if (mask & IBV_QP_CUR_STATE) {
		e = state_to_doca(attr->cur_qp_state, &d.current_state);
		if (e != 0)
			return e;
		dmask |= DOCA_VERBS_QP_ATTR_CURRENT_STATE;
	}
	if (mask & IBV_QP_ACCESS_FLAGS)
		map_access(qp, attr->qp_access_flags, &d, &dmask);
	if (mask & IBV_QP_AV) {
		e = ah_to_doca(qp, &attr->ah_attr, &ah);
		if (e != 0)
			return e;
		d.ah_attr = &ah;
		dmask |= DOCA_VERBS_QP_ATTR_AH_ATTR;
	}
	map_plain(attr, mask, &d, &dmask);
	err = doca_verbs_qp_modify(qp->dqp, &d, dmask);
	if (err != DOCA_SUCCESS)
		return front_errno(err);
	if (mask & IBV_QP_STATE)
		qp->ibv.state = attr->qp_state;
	return 0;
}

int front_qp_query(struct front_qp *qp, struct ibv_qp_attr *attr, int mask, struct ibv_qp_init_attr *init)
{
	struct doca_verbs_qp_init_attr di;
	struct doca_verbs_qp_attr d;
	int dmask = 0;
	doca_error_t err;

	(void)mask; /* everything is filled, as libmlx5 does */
	memset(&d, 0, sizeof(d));
	err = doca_verbs_qp_query(qp->dqp, &d, &di, &dmask);
	if (err != DOCA_SUCCESS)
		return front_errno(err);
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = state_from_doca(d.current_state);
	attr->cur_qp_state = attr->qp_state;
	qp->ibv.state = attr->qp_state; /* the device may have moved it to ERR */
	attr->path_mtu = (enum ibv_mtu)(d.path_mtu + 1);
	attr->path_mig_state = IBV_MIG_MIGRATED;
	attr->rq_psn = d.rq_psn;
	attr->sq_psn = d.sq_psn;
	attr->dest_qp_num = d.dest_qp_num;
	attr->qp_access_flags = (d.allow_remote_write ? IBV_ACCESS_REMOTE_WRITE : 0) |
				(d.allow_remote_read ? IBV_ACCESS_REMOTE_READ : 0) |
				(d.atomic_mode != DOCA_VERBS_QP_ATOMIC_MODE_NONE ? IBV_ACCESS_REMOTE_ATOMIC : 0);
	attr->cap = qp->cap;
	if (d.ah_attr != NULL)
		ah_from_doca(&d.ah_attr->f, &attr->ah_attr);
	attr->pkey_index = d.pkey_index;
	attr->max_rd_atomic = d.max_rd_atomic;
	attr->max_dest_rd_atomic = d.max_dest_rd_atomic;
	attr->min_rnr_timer = (uint8_t)d.min_rnr_timer;
	attr->port_num = (uint8_t)d.port_num;
	attr->timeout = (uint8_t)d.ack_timeout;
	attr->retry_cnt = (uint8_t)d.retry_cnt;
	attr->rnr_retry = (uint8_t)d.rnr_retry;
	if (init != NULL) {
		memset(init, 0, sizeof(*init));
		init->qp_context = qp->ibv.qp_context;
		init->send_cq = qp->ibv.send_cq;
		init->recv_cq = qp->ibv.recv_cq;
		init->srq = qp->ibv.srq;
		init->cap = qp->cap;
		init->qp_type = qp->ibv.qp_type;
		init->sq_sig_all = qp->sq_sig_all;
	}
	return 0;
}
