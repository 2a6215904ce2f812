/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethernet receive queues in the command executor: CREATE_RQ, MODIFY_RQ, DESTROY_RQ. An RQ is a
 * cyclic work queue of receive WQEs (swnic_recv_wqe.h) in a umem, completing to a CQ; frames reach
 * it through TIRs (swnic_cmd_steer.c). Created in RST; MODIFY_RQ moves RST -> RDY, RDY -> ERR,
 * ERR -> RST and RDY -> RST. Frames are placed only in RDY.
 *
 * Locking (swnic_steer.h): the PD, CQ and umems are looked up and referenced under nic->lock,
 * which is then released; the RQ enters the steering tables under the steer lock.
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_rq.h"
#include "swnic/swnic_recv_wqe.h"
#include "swnic/swnic_steer.h"

#include <stdlib.h>

#define RQ_MIN_LOG_STRIDE 4u   /* 16 bytes: one data segment */
#define RQ_MAX_LOG_STRIDE (4u + SWNIC_RECV_MAX_LOG_STRIDE) /* 4 KiB: 256 data segments */

/* A striding RQ's geometry: a next segment and a data segment at least, 2^3..2^16 strides of 64 B..8 KiB. */
static uint8_t check_striding(struct swnic_cmd *c, const struct prm_wq_params *w)
{
	uint32_t log_strides = prm_wq_strides_decode(w->log_wqe_num_of_strides);

	if (w->log_wq_stride < RQ_MIN_LOG_STRIDE + 1u || log_strides < PRM_WQ_LOG_NUM_STRIDES_MIN ||
	    log_strides > PRM_WQ_LOG_NUM_STRIDES_MAX ||
	    w->log_wqe_stride_size > PRM_WQ_LOG_STRIDE_SIZE_MAX - PRM_WQ_LOG_STRIDE_SIZE_BASE)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQ_WQ,
				      "striding RQ: log_wq_stride %u (5 and up: next and data segment), "
				      "log_wqe_num_of_strides 0x%x (2^3..2^16 strides), log_wqe_stride_size %u (0..7)",
				      w->log_wq_stride, w->log_wqe_num_of_strides, w->log_wqe_stride_size);
	return PRM_STATUS_OK;
}

static uint8_t check_rqc(struct swnic_cmd *c, const struct prm_rqc_params *q)
{
	bool striding = q->wq.wq_type == PRM_WQ_TYPE_CYCLIC_STRIDING;

	if ((q->wq.wq_type != PRM_WQ_TYPE_CYCLIC && !striding) || q->wq.log_wq_stride < RQ_MIN_LOG_STRIDE ||
	    q->wq.log_wq_stride > RQ_MAX_LOG_STRIDE || q->wq.log_wq_sz > 16)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQ_WQ,
				      "wq_type %u, log_wq_stride %u, log_wq_sz %u: an RQ is a cyclic (or cyclic striding) "
				      "ring of 2^0..2^16 entries of 16..4096 bytes",
				      q->wq.wq_type, q->wq.log_wq_stride, q->wq.log_wq_sz);
	if (striding) {
		uint8_t st = check_striding(c, &q->wq);

		if (st != PRM_STATUS_OK)
			return st;
	}
	if (q->state != PRM_RQ_STATE_RST)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_RQ_STATE, "an RQ is created in RST, not %u",
				      q->state);
	if (q->rmpn != 0)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQ_WQ,
				      "rmpn 0x%x: an RQ on a shared receive queue is not modelled", q->rmpn);
	return PRM_STATUS_OK;
}

/* Looks up and references what the RQ names, under nic->lock. */
static uint8_t rq_fill(struct swnic_cmd *c, const struct prm_rqc_params *q, struct swnic_eth_rq *rq)
{
	struct swnic *nic = c->nic;
	uint64_t bytes = (uint64_t)1 << (q->wq.log_wq_stride + q->wq.log_wq_sz);
	uint8_t st;

	rq->pd = swnic_table_lookup(&nic->pds, q->wq.pd);
	if (rq->pd == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_PD, "no PD 0x%x", q->wq.pd);
	rq->cq = swnic_table_lookup(&nic->cqs, q->cqn);
	if (rq->cq == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQ_REF, "cqn 0x%x names no CQ", q->cqn);
	st = swnic_cmd_place_queue(c, q->wq.wq_umem_valid, q->wq.wq_umem_id, q->wq.wq_umem_offset, bytes, &rq->umem,
				   &rq->rq.ring);
	if (st == PRM_STATUS_OK)
		st = swnic_cmd_place_dbr(c, q->wq.dbr_umem_valid, q->wq.dbr_umem_id, q->wq.dbr_addr, 4, 4, &rq->dbr_umem,
					 &rq->rq.dbr);
	if (st != PRM_STATUS_OK)
		return st;
	atomic_fetch_add(&rq->pd->refs, 1);
	atomic_fetch_add(&rq->cq->refs, 1);
	atomic_fetch_add(&rq->umem->refs, 1);
	atomic_fetch_add(&rq->dbr_umem->refs, 1);
	return PRM_STATUS_OK;
}

static void rq_unref(struct swnic *nic, struct swnic_eth_rq *rq)
{
	pthread_rwlock_wrlock(&nic->lock);
	atomic_fetch_sub(&rq->pd->refs, 1);
	atomic_fetch_sub(&rq->cq->refs, 1);
	atomic_fetch_sub(&rq->umem->refs, 1);
	atomic_fetch_sub(&rq->dbr_umem->refs, 1);
	pthread_rwlock_unlock(&nic->lock);
}

uint8_t swnic_cmd_create_rq(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct swnic_steer *s = nic->steer;
	struct prm_create_rq_params p;
	struct swnic_eth_rq *rq;
	uint32_t rqn = 0;
	doca_error_t err;
	uint8_t st;

	if (prm_create_rq_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = check_rqc(c, &p.rqc);
	if (st != PRM_STATUS_OK)
		return st;
	rq = calloc(1, sizeof(*rq));
	if (rq == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate an RQ");
	pthread_rwlock_wrlock(&nic->lock);
	st = rq_fill(c, &p.rqc, rq);
	pthread_rwlock_unlock(&nic->lock);
	if (st != PRM_STATUS_OK) {
		free(rq);
		return st;
	}
	rq->nic = nic;
	rq->user_index = p.rqc.user_index;
	rq->rq.log_size = p.rqc.wq.log_wq_sz;
	rq->rq.log_stride = p.rqc.wq.log_wq_stride - RQ_MIN_LOG_STRIDE; /* in 16-byte units, as swnic_rq keeps it */
	rq->rq.wq_type = p.rqc.wq.wq_type;
	if (p.rqc.wq.wq_type == PRM_WQ_TYPE_CYCLIC_STRIDING) {
		rq->striding = true;
		rq->log_strides = prm_wq_strides_decode(p.rqc.wq.log_wqe_num_of_strides);
		rq->log_stride_sz = p.rqc.wq.log_wqe_stride_size + PRM_WQ_LOG_STRIDE_SIZE_BASE;
		rq->two_byte_shift = p.rqc.wq.two_byte_shift_en;
	}
	pthread_mutex_init(&rq->rq.lock, NULL);
	atomic_init(&rq->state, PRM_RQ_STATE_RST);
	pthread_rwlock_wrlock(&s->lock);
	err = swnic_table_insert(&s->rqs, rq, &rqn);
	if (err == DOCA_SUCCESS)
		rq->rqn = rqn;
	pthread_rwlock_unlock(&s->lock);
	if (err != DOCA_SUCCESS) {
		rq_unref(nic, rq);
		pthread_mutex_destroy(&rq->rq.lock);
		free(rq);
		return swnic_cmd_table_fail(c, err, "RQ");
	}
	OGDA_LOG_DBG("%s: Ethernet RQ 0x%x, 2^%u WQEs of %u bytes, CQ 0x%x", nic->name, rqn, p.rqc.wq.log_wq_sz,
		     1u << p.rqc.wq.log_wq_stride, p.rqc.cqn);
	if (prm_create_rq_out_build(rqn, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

static bool rq_transition_ok(uint8_t from, uint8_t to)
{
	return (from == PRM_RQ_STATE_RST && to == PRM_RQ_STATE_RDY) || (from == PRM_RQ_STATE_RDY && to == PRM_RQ_STATE_ERR) ||
	       (from != PRM_RQ_STATE_RST && to == PRM_RQ_STATE_RST) || from == to;
}

uint8_t swnic_cmd_modify_rq(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_modify_rq_params p;
	struct swnic_eth_rq *rq;
	uint8_t st = PRM_STATUS_OK, cur;

	if (prm_modify_rq_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_rdlock(&s->lock);
	rq = swnic_table_lookup(&s->rqs, p.rqn);
	if (rq == NULL) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQN, "no RQ 0x%x", p.rqn);
	} else {
		pthread_mutex_lock(&rq->rq.lock);
		cur = atomic_load(&rq->state);
		if (cur != p.rq_state || !rq_transition_ok(cur, p.rqc.state)) {
			st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_RQ_STATE,
					    "RQ 0x%x is in state %u: the command says %u, moving to %u", p.rqn, cur,
					    p.rq_state, p.rqc.state);
		} else {
			if (p.rqc.state == PRM_RQ_STATE_RST) {
				rq->rq.ci = 0; /* a reset queue starts again from WQE 0, stride 0 */
				rq->stride_ci = 0;
			}
			atomic_store(&rq->state, p.rqc.state);
		}
		pthread_mutex_unlock(&rq->rq.lock);
	}
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_destroy_rq(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct swnic_steer *s = nic->steer;
	struct swnic_eth_rq *rq;
	uint32_t rqn = 0;
	uint16_t uid;
	uint8_t st = PRM_STATUS_OK;

	if (prm_destroy_rq_in_parse(c->in, c->inlen, &uid, &rqn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&s->lock);
	rq = swnic_table_lookup(&s->rqs, rqn);
	if (rq == NULL)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQN, "no RQ 0x%x", rqn);
	else if (atomic_load(&rq->refs) != 0)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_RQ_IN_USE, "RQ 0x%x: %u TIRs or RQTs name it",
				    rqn, atomic_load(&rq->refs));
	else
		(void)swnic_table_remove(&s->rqs, rqn);
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK)
		return st;
	/* No frame is being placed in it: the receive path holds the steer lock while it places. */
	rq_unref(nic, rq);
	pthread_mutex_destroy(&rq->rq.lock);
	free(rq);
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}
