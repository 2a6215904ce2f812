/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CREATE_QP, DESTROY_QP and QUERY_QP. State transitions are in swnic_cmd_qp_modify.c.
 *
 * A QP's queues live in host umems the way DevX users place them (reference/mlx5.md B.1,
 * B.9): the RQ at wq_umem + wq_umem_offset, the SQ right after it (at the same offset
 * when there is no RQ of its own), the 8-byte doorbell record at dbr_umem + dbr_addr.
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_qp.h"
#include "swnic/swnic_event.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long DESTROY_QP waits for in-flight responder calls to let go of the QP. */
#define QP_DRAIN_POLL_NS 100000L
#define QP_DRAIN_POLLS 50000u     /* 5 s */

void swnic_cmd_qp_free(struct swnic_qp_obj *o)
{
	struct swnic_qp *qp = &o->qp;

	atomic_fetch_sub(&qp->pd->refs, 1);
	atomic_fetch_sub(&qp->uar->refs, 1);
	if (qp->send_cq != NULL)
		atomic_fetch_sub(&qp->send_cq->refs, 1);
	if (qp->recv_cq != NULL)
		atomic_fetch_sub(&qp->recv_cq->refs, 1);
	if (qp->srq != NULL)
		atomic_fetch_sub(&qp->srq->refs, 1);
	if (qp->wq_umem != NULL)
		atomic_fetch_sub(&qp->wq_umem->refs, 1);
	atomic_fetch_sub(&qp->dbr_umem->refs, 1);
	if (qp->tis != NULL)
		atomic_fetch_sub(&qp->tis->refs, 1);
	pthread_mutex_destroy(&qp->rq.lock);
	pthread_mutex_destroy(&qp->resp_lock);
	pthread_mutex_destroy(&qp->lock);
	free(o);
}

/* Checks that need no object lookups. */
static uint8_t check_create_values(struct swnic_cmd *c, const struct prm_qpc_params *q)
{
	const struct prm_hca_cap_general *g = &c->nic->cap_general;

	if (q->st != PRM_QP_ST_RC && q->st != PRM_QP_ST_UC)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_ST,
				      "service type %u: the model runs RC (0) and UC (1) QPs", q->st);
	if (q->send_dbr_mode == PRM_QP_SEND_DBR_NO_DBR_INT && !c->nic->cap_general_2.send_dbr_mode_no_dbr_int)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_SEND_DBR_MODE,
				      "send_dbr_mode NO_DBR_INT is not supported (send_dbr_mode_no_dbr_int = 0)");
	if (q->send_dbr_mode > PRM_QP_SEND_DBR_NO_DBR_INT)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_SEND_DBR_MODE, "send_dbr_mode %u",
				      q->send_dbr_mode);
	if (q->cd_slave_send || q->cd_slave_receive)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_CD_SLAVE,
				      "cross-channel slave queues (SEND_EN / RECV_EN) are not modelled");
	if (!q->no_sq && q->log_sq_size > g->log_max_qp_sz)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_SQ_SIZE,
				      "log_sq_size %u exceeds log_max_qp_sz %u", q->log_sq_size, g->log_max_qp_sz);
	switch (q->rq_type) {
	case PRM_QP_RQ_REGULAR:
		if (q->log_rq_size > g->log_max_qp_sz || (16u << q->log_rq_stride) > g->max_wqe_sz_rq)
			return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQ_SIZE,
					      "RQ of 2^%u WQEs of %u bytes exceeds 2^%u WQEs of %u bytes",
					      q->log_rq_size, 16u << q->log_rq_stride, g->log_max_qp_sz,
					      g->max_wqe_sz_rq);
		break;
	case PRM_QP_RQ_SRQ:
		break;
	case PRM_QP_RQ_ZERO_LEN:
		if (q->no_sq)
			return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_NO_QUEUE,
					      "a QP with neither a send nor a receive queue");
		break;
	default:
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQ_TYPE,
				      "rq_type %u: the model has regular (0), SRQ (1) and zero-length (3) RQs",
				      q->rq_type);
	}
	return PRM_STATUS_OK;
}

/* The objects a CREATE_QP names, looked up under nic->lock. */
struct qp_refs {
	struct swnic_pd *pd;
	struct swnic_uar *uar;
	struct swnic_cq *send_cq, *recv_cq;
	struct swnic_srq *srq;
	struct swnic_umem *wq_umem, *dbr_umem;
	uint8_t *wq;
	_Atomic uint32_t *dbr;
};

static uint8_t lookup_cq(struct swnic_cmd *c, uint32_t cqn, bool required, const char *which, struct swnic_cq **cq)
{
	*cq = NULL;
	if (cqn == 0 && !required)
		return PRM_STATUS_OK;
	*cq = swnic_table_lookup(&c->nic->cqs, cqn);
	if (*cq == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQ_REF, "%s 0x%x names no CQ", which, cqn);
	return PRM_STATUS_OK;
}

static uint8_t lookup_refs(struct swnic_cmd *c, const struct prm_create_qp_params *p, uint64_t wq_bytes,
			   struct qp_refs *r)
{
	const struct prm_qpc_params *q = &p->qpc;
	struct swnic *nic = c->nic;
	bool has_rq = q->rq_type == PRM_QP_RQ_REGULAR || q->rq_type == PRM_QP_RQ_SRQ;
	uint8_t st;

	memset(r, 0, sizeof(*r));
	r->pd = swnic_table_lookup(&nic->pds, q->pd);
	if (r->pd == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_PD, "no PD 0x%x", q->pd);
	r->uar = swnic_table_lookup(&nic->uars, q->uar_page);
	if (r->uar == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_UAR, "no UAR page 0x%x", q->uar_page);
	st = lookup_cq(c, q->cqn_snd, !q->no_sq, "cqn_snd", &r->send_cq);
	if (st != PRM_STATUS_OK)
		return st;
	st = lookup_cq(c, q->cqn_rcv, has_rq, "cqn_rcv", &r->recv_cq);
	if (st != PRM_STATUS_OK)
		return st;
	if (q->rq_type == PRM_QP_RQ_SRQ) {
		r->srq = swnic_table_lookup(&nic->srqs, q->srqn_rmpn_xrqn);
		if (r->srq == NULL)
			return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_SRQN, "no RMP 0x%x",
					      q->srqn_rmpn_xrqn);
	}
	if (wq_bytes != 0) {
		st = swnic_cmd_place_queue(c, p->wq_umem_valid, p->wq_umem_id, p->wq_umem_offset, wq_bytes,
					   &r->wq_umem, &r->wq);
		if (st != PRM_STATUS_OK)
			return st;
	}
	return swnic_cmd_place_dbr(c, q->dbr_umem_valid, q->dbr_umem_id, q->dbr_addr, 8, 8, &r->dbr_umem, &r->dbr);
}

static void qp_init(struct swnic_qp_obj *o, struct swnic *nic, const struct prm_create_qp_params *p,
		    const struct qp_refs *r, uint64_t rq_bytes)
{
	const struct prm_qpc_params *q = &p->qpc;
	struct swnic_qp *qp = &o->qp;

	qp->nic = nic;
	pthread_mutex_init(&qp->lock, NULL);
	pthread_mutex_init(&qp->resp_lock, NULL);
	atomic_init(&qp->state, PRM_QP_STATE_RST);
	qp->st = q->st;
	qp->pd = r->pd;
	qp->user_index = q->user_index;
	qp->cs_res = q->cs_res;
	qp->send_cq = r->send_cq;
	qp->recv_cq = r->recv_cq;
	qp->srq = r->srq;
	qp->uar = r->uar;
	qp->wq_umem = r->wq_umem;
	qp->dbr_umem = r->dbr_umem;
	qp->dbr = r->dbr;
	qp->send_dbr_mode = q->send_dbr_mode;
	qp->cd_master = q->cd_master != 0;
	if (!q->no_sq) {
		qp->sq = r->wq + rq_bytes;
		qp->log_sq_wqebbs = q->log_sq_size;
	}
	pthread_mutex_init(&qp->rq.lock, NULL);
	qp->has_rq = q->rq_type == PRM_QP_RQ_REGULAR;
	if (qp->has_rq) {
		qp->rq.ring = r->wq;
		qp->rq.log_size = q->log_rq_size;
		qp->rq.log_stride = q->log_rq_stride;
		qp->rq.dbr = &r->dbr[0];
	}
	atomic_init(&qp->refs, 0);
	o->qpc = *q;
	o->qpc.state = PRM_QP_STATE_RST;
}

static void qp_take_refs(struct swnic_qp *qp)
{
	atomic_fetch_add(&qp->pd->refs, 1);
	atomic_fetch_add(&qp->uar->refs, 1);
	if (qp->send_cq != NULL)
		atomic_fetch_add(&qp->send_cq->refs, 1);
	if (qp->recv_cq != NULL)
		atomic_fetch_add(&qp->recv_cq->refs, 1);
	if (qp->srq != NULL)
		atomic_fetch_add(&qp->srq->refs, 1);
	if (qp->wq_umem != NULL)
		atomic_fetch_add(&qp->wq_umem->refs, 1);
	atomic_fetch_add(&qp->dbr_umem->refs, 1);
}

uint8_t swnic_cmd_create_qp(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct prm_create_qp_params p;
	const struct prm_qpc_params *q = &p.qpc;
	struct swnic_qp_obj *o;
	struct qp_refs r;
	uint64_t rq_bytes = 0, sq_bytes = 0;
	uint32_t qpn = 0;
	doca_error_t err;
	uint8_t st;

	if (prm_create_qp_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = check_create_values(c, q);
	if (st != PRM_STATUS_OK)
		return st;
	if (q->rq_type == PRM_QP_RQ_REGULAR)
		rq_bytes = (uint64_t)(16u << q->log_rq_stride) << q->log_rq_size;
	if (!q->no_sq)
		sq_bytes = (uint64_t)64u << q->log_sq_size;
	o = calloc(1, sizeof(*o));
	if (o == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate a QP");

	pthread_rwlock_wrlock(&nic->lock);
	st = lookup_refs(c, &p, rq_bytes + sq_bytes, &r);
	if (st == PRM_STATUS_OK) {
		err = swnic_qpn_table_insert(&nic->qps, o, &qpn);
		if (err != DOCA_SUCCESS)
			st = swnic_cmd_table_fail(c, err, "QP");
	}
	if (st != PRM_STATUS_OK) {
		pthread_rwlock_unlock(&nic->lock);
		free(o);
		return st;
	}
	o->qp.qpn = qpn;
	qp_init(o, nic, &p, &r, rq_bytes);
	qp_take_refs(&o->qp);
	pthread_rwlock_unlock(&nic->lock);

	err = swnic_engine_attach_qp(nic->engine, &o->qp);
	if (err != DOCA_SUCCESS) {
		pthread_rwlock_wrlock(&nic->lock);
		swnic_qpn_table_remove(&nic->qps, qpn);
		pthread_rwlock_unlock(&nic->lock);
		swnic_cmd_qp_free(o);
		return swnic_cmd_fail(c, PRM_STATUS_INTERNAL_ERR, SWNIC_SYND_INTERNAL, "the engine refused the QP: %s",
				      doca_error_get_name(err));
	}
	OGDA_LOG_DBG("%s: QP 0x%x %s, SQ 2^%u WQEBBs, RQ %s, send_dbr_mode %u%s", nic->name, qpn,
		     q->st == PRM_QP_ST_RC ? "RC" : "UC", q->no_sq ? 0u : q->log_sq_size,
		     q->rq_type == PRM_QP_RQ_REGULAR ? "own" : q->rq_type == PRM_QP_RQ_SRQ ? "SRQ" : "none",
		     q->send_dbr_mode, q->cd_master ? ", cd_master" : "");
	if (prm_create_qp_out_build(PRM_STATUS_OK, 0, qpn, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_fail(c, PRM_STATUS_INTERNAL_ERR, SWNIC_SYND_INTERNAL, "cannot build the reply");
	return PRM_STATUS_OK;
}

bool swnic_cmd_qp_drained(struct swnic_qp *qp)
{
	const struct timespec poll = {0, QP_DRAIN_POLL_NS};
	uint32_t i;

	for (i = 0; i < QP_DRAIN_POLLS; i++) {
		if (atomic_load(&qp->refs) == 0)
			return true;
		nanosleep(&poll, NULL);
	}
	return false;
}

uint8_t swnic_cmd_destroy_queue(struct swnic_cmd *c, uint32_t qpn, bool eth)
{
	struct swnic *nic = c->nic;
	struct swnic_qp_obj *o;
	bool drained;

	/* Out of the table first, so no new lookups find it; then the engine and responders let go. */
	pthread_rwlock_wrlock(&nic->lock);
	o = swnic_qpn_table_lookup(&nic->qps, qpn);
	if (o != NULL && (o->qp.st == SWNIC_QP_ST_ETH) == eth)
		(void)swnic_qpn_table_remove(&nic->qps, qpn);
	else
		o = NULL; /* a QP is not destroyed by DESTROY_SQ, nor an SQ by DESTROY_QP */
	pthread_rwlock_unlock(&nic->lock);
	if (o == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, eth ? SWNIC_SYND_BAD_SQN : SWNIC_SYND_BAD_QPN, "no %s 0x%x",
				      eth ? "SQ" : "QP", qpn);
	swnic_engine_detach_qp(nic->engine, &o->qp);
	drained = swnic_cmd_qp_drained(&o->qp);
	/* Its number is free again: its subscriptions end (the engine and responders let go first). */
	swnic_event_forget(nic, SWNIC_EVOBJ_QP, qpn);
	if (!drained)
		/* Freeing it now could let a stuck caller write into freed memory: leak it instead. */
		return swnic_cmd_fail(c, PRM_STATUS_INTERNAL_ERR, SWNIC_SYND_INTERNAL,
				      "0x%x is still referenced after 5 s; left allocated", qpn);
	swnic_cmd_qp_free(o);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_destroy_qp(struct swnic_cmd *c)
{
	uint32_t qpn = 0;
	uint16_t uid;
	uint8_t st;

	if (prm_destroy_qp_in_parse(c->in, c->inlen, &uid, &qpn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = swnic_cmd_destroy_queue(c, qpn, false);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_qp_status_out_build(PRM_CMD_DESTROY_QP, PRM_STATUS_OK, 0, c->out, c->outlen) == DOCA_SUCCESS
		       ? PRM_STATUS_OK
		       : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_query_qp(struct swnic_cmd *c)
{
	struct prm_qpc_params q;
	struct swnic_qp_obj *o;
	struct swnic_qp *qp;
	uint32_t qpn = 0;
	uint16_t uid;

	if (prm_query_qp_in_parse(c->in, c->inlen, &uid, &qpn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	qp = swnic_qp_acquire(c->nic, qpn);
	if (qp != NULL && qp->st == SWNIC_QP_ST_ETH) {
		swnic_qp_release(qp);
		qp = NULL;
	}
	if (qp == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_QPN, "no QP 0x%x", qpn);
	o = (struct swnic_qp_obj *)qp;
	pthread_mutex_lock(&qp->lock);
	q = o->qpc;
	q.state = atomic_load(&qp->state);
	pthread_mutex_unlock(&qp->lock);
	/* Software counters as the doorbell record holds them; the RQ's consumed count. */
	q.sw_rq_counter = be32toh(atomic_load_explicit(&qp->dbr[0], memory_order_acquire)) & 0xffffu;
	q.sw_sq_wqebb_counter = (uint16_t)be32toh(atomic_load_explicit(&qp->dbr[1], memory_order_acquire));
	if (qp->has_rq) {
		pthread_mutex_lock(&qp->rq.lock);
		q.hw_rq_counter = qp->rq.ci;
		pthread_mutex_unlock(&qp->rq.lock);
	}
	swnic_qp_release(qp);
	if (prm_query_qp_out_build(PRM_STATUS_OK, 0, &q, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}
