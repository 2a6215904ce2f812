/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side of the responder: SEND, SEND_IMM and WRITE_IMM consume one receive WQE
 * from the QP's RQ or from its SRQ and complete it with a responder CQE.
 *
 * Receive WQE formats:
 *  - a QP's own RQ, and a CYCLIC SRQ (RMP): an entry of 16 << log_stride bytes holding
 *    data segments (byte_count BE32, lkey BE32, addr BE64); the list ends at an lkey of
 *    MLX5_INVALID_LKEY (0x100) or at the end of the entry. Entries are used in ring order.
 *  - a LINKED_LIST SRQ: the same, after a 16-byte next segment whose bytes 2-3 (BE16) name
 *    the WQE to use after this one; consumption follows the list from rq->head.
 * A WQE is available while the producer counter (DBR word 0, BE, 16 bits) differs from
 * the consumed count. A data segment with byte_count 0 holds no bytes (rdma-core never
 * posts one).
 *
 * CQE fields: opcode RESP_SEND / RESP_SEND_IMM / RESP_WR_IMM, byte_cnt = message length,
 * imm = the immediate as carried, qpn = the responder QP, srqn_uidx = the QP's user_index
 * (CQE version 1; also for QPs on an SRQ), wqe_counter = the consumed WQE's 16-bit counter
 * (own RQ and cyclic SRQ: the consumer count; linked-list SRQ: the WQE's index in the SRQ,
 * which is how rdma-core frees SRQ WQEs).
 *
 * Scatter-to-CQE: on a QP whose qpc.cs_res is DATA32_CQE, a SEND / SEND_IMM of 1 to 32 bytes
 * is written into bytes 0-31 of its CQE (op_own INLINE_SCATTER_32) and the WQE's buffers are
 * not touched (its capacity is still checked); WRITE_IMM and longer messages are placed as usual.
 *
 * Errors, after the WQE has been consumed (IB responder class C behaviour, data untouched):
 *  - the message does not fit the WQE's buffers: RESP_ERR CQE LOCAL_LENGTH, NAK_INVALID_REQ
 *    (the IB spec NAKs a responder length error with "invalid request");
 *  - an lkey that fails its check (unknown, other PD, outside the MR, no LOCAL_WRITE) for
 *    the bytes it would receive: RESP_ERR CQE LOCAL_PROT, NAK_REMOTE_OP (IB: "remote
 *    operational error" for a responder-local fault); vendor syndrome BAD_LKEY,
 *    LKEY_RANGE or LKEY_ACCESS (swnic_engine.h);
 *  - a host/GPU copy that fails: LOCAL_PROT, vendor LOCAL_COPY, NAK_REMOTE_OP.
 * Only the segments that receive bytes are checked, and only for those bytes; their MRs
 * are held while the bytes are placed (swnic_mem_access.h), so a deregistration either
 * comes first (LOCAL_PROT, BAD_LKEY) or waits, or stops the copy (LOCAL_COPY). As after any
 * error completion, the QP then moves to ERR: the engine flushes its send queue and the
 * receives still posted complete with WR_FLUSH_ERR. A receive CQ that overruns does the
 * same (the completion is lost; NAK_REMOTE_OP). The move to ERR raises the QP's async
 * event: WQ_INVAL_REQ_ERROR for the length error, WQ_CATAS_ERROR for the others, with the
 * RESP_ERR syndrome (0 for a lost completion). A SEND to a QP without a receive queue is
 * NAKed as an invalid request (WQ_INVAL_REQ_ERROR) and leaves the QP as it is.
 *
 * Locking: qp->lock is held from the state re-check to the CQE, so receives on one QP
 * consume, place and complete in order (several requesters may target one QP); the
 * queue's own rq.lock (the QP's RQ or the SRQ, shared by its QPs) is also held while the
 * WQE is taken, as it guards the consumer count. Order: qp->lock > rq.lock > cq->lock.
 * Data is placed before the CQE is written (release store of op_own), so a consumer that
 * sees the CQE sees the data.
 */
#include "swnic/swnic_exec_resp_int.h"

#include "core/bytes.h"
#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_qpc.h"
#include "prm/prm_rmp.h"
#include "swnic/swnic_engine.h"
#include "swnic/swnic_event.h"
#include "swnic/swnic_recv_wqe.h"

#include <stdint.h>
#include <string.h>

static uint8_t cqe_opcode_of(uint8_t op)
{
	switch (op) {
	case SWNIC_REQ_WRITE_IMM:
		return OPENGDA_MLX5_CQE_RESP_WR_IMM;
	case SWNIC_REQ_SEND_IMM:
		return OPENGDA_MLX5_CQE_RESP_SEND_IMM;
	default:
		return OPENGDA_MLX5_CQE_RESP_SEND;
	}
}

/*
 * After an error completion the QP is in error, as on hardware. With qp->lock held: moves
 * it to ERR and returns the state it left (ERR when it was already there or in RST).
 */
static uint8_t qp_to_error_locked(struct swnic_qp *qp)
{
	uint8_t old = atomic_load_explicit(&qp->state, memory_order_acquire);

	if (old == PRM_QP_STATE_ERR || old == PRM_QP_STATE_RST)
		return PRM_QP_STATE_ERR;
	atomic_store_explicit(&qp->state, PRM_QP_STATE_ERR, memory_order_release);
	return old;
}

/* Then, without qp->lock: the engine flushes the send queue, and the posted receives go. */
static void qp_error_flush(struct swnic *nic, struct swnic_qp *qp, uint8_t old)
{
	OGDA_LOG_DBG("%s qp 0x%x: responder error, QP moved to ERR", nic->name, qp->qpn);
	if (nic->engine != NULL)
		swnic_engine_qp_modified(nic->engine, qp, old);
	(void)swnic_rq_flush(qp, NULL);
}

/*
 * Scatter-to-CQE (qpc.cs_res = DATA32_CQE, a QP created with cqe_inline): a SEND of 1 to 32
 * bytes lands in its CQE instead of the receive buffers, as a ConnectX with 64-byte CQEs does.
 */
static bool scatter_to_cqe(const struct swnic_qp *qp, const struct swnic_req *req)
{
	return qp->cs_res == PRM_QP_CS_RES_DATA32_CQE && req->op != SWNIC_REQ_WRITE_IMM && req->len > 0 &&
	       req->len <= 32u;
}

/* What a taken receive WQE ends with. */
struct recv_outcome {
	uint8_t verdict;          /* enum swnic_resp_status */
	uint8_t syndrome;         /* 0: good CQE, else the RESP_ERR syndrome */
	uint8_t vendor_syndrome;
};

/* Places the message for the WQE taken (nothing is written unless every check passed). */
static struct recv_outcome place(struct swnic *nic, struct swnic_qp *qp, const struct swnic_pd *pd,
				 const struct swnic_req *req, const struct swnic_mr_hold *write, struct swnic_recv_wqe *w)
{
	struct recv_outcome o = {SWNIC_RESP_ACK, 0, 0};
	bool placed;

	if (req->op == SWNIC_REQ_WRITE_IMM) {
		/* The target was checked (and is held) before the WQE was taken; the WQE's buffers are not used. */
		if (req->len > 0 && swnic_mem_copy_held((void *)(uintptr_t)req->raddr, write->mr.kind, req->payload,
							(enum ogda_mem_kind)req->payload_kind, req->len, write,
							NULL) != DOCA_SUCCESS)
			o = (struct recv_outcome){SWNIC_RESP_NAK_REMOTE_OP, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
						  SWNIC_VSYND_LOCAL_COPY};
		return o;
	}
	if (w->capacity < req->len)
		return (struct recv_outcome){SWNIC_RESP_NAK_INVALID_REQ, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, 0};
	if (scatter_to_cqe(qp, req))
		return o; /* the CQE carries the bytes; the WQE's buffers stay untouched */
	o.vendor_syndrome = swnic_recv_hold(nic, pd, w, req->len, qp->qpn);
	if (o.vendor_syndrome != 0)
		return (struct recv_outcome){SWNIC_RESP_NAK_REMOTE_OP, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
					     o.vendor_syndrome};
	placed = swnic_recv_scatter(w, req->payload, req->len);
	swnic_recv_release(w);
	if (!placed)
		return (struct recv_outcome){SWNIC_RESP_NAK_REMOTE_OP, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
					     SWNIC_VSYND_LOCAL_COPY};
	return o;
}

/*
 * Consumes, places and completes; caller holds qp->lock. *failed: the QP must go to ERR,
 * *syndrome then being the RESP_ERR CQE's syndrome (0: the receive CQ overran).
 */
static uint8_t receive_locked(struct swnic *nic, struct swnic_qp *qp, const struct swnic_req *req,
			      const struct swnic_mr_hold *write, struct swnic_recv_wqe *w, bool *failed, uint8_t *syndrome)
{
	struct swnic_rq *rq = qp->srq != NULL ? &qp->srq->rq : &qp->rq;
	const struct swnic_pd *pd = qp->srq != NULL && qp->srq->pd != NULL ? qp->srq->pd : qp->pd;
	bool linked = qp->srq != NULL && qp->srq->rq.wq_type == PRM_WQ_TYPE_LINKED_LIST;
	uint8_t state = atomic_load_explicit(&qp->state, memory_order_acquire);
	struct recv_outcome o;
	enum swnic_rq_take_result taken;
	doca_error_t err;

	if (state != PRM_QP_STATE_RTR && state != PRM_QP_STATE_RTS)
		return SWNIC_RESP_NO_QP;
	pthread_mutex_lock(&rq->lock);
	taken = swnic_rq_take(rq, linked, w);
	pthread_mutex_unlock(&rq->lock);
	if (taken == SWNIC_RQ_TAKE_EMPTY)
		return SWNIC_RESP_NAK_RNR;
	if (taken == SWNIC_RQ_TAKE_BROKEN) {
		OGDA_LOG_ERR("%s qp 0x%x: receive queue not usable (ring %p dbr %p log_stride %u log_size %u)",
			     nic->name, qp->qpn, (void *)rq->ring, (void *)rq->dbr, rq->log_stride, rq->log_size);
		return SWNIC_RESP_NAK_REMOTE_OP;
	}

	o = place(nic, qp, pd, req, write, w);
	if (o.syndrome != 0) {
		err = swnic_cq_post_error(qp->recv_cq, OPENGDA_MLX5_CQE_RESP_ERR, o.syndrome, o.vendor_syndrome,
					  0 /* no send WQE */, qp->qpn, qp->user_index, w->counter);
		*failed = true;
		*syndrome = o.syndrome;
	} else if (scatter_to_cqe(qp, req)) {
		err = swnic_cq_post_responder_inline(qp->recv_cq, cqe_opcode_of(req->op), qp->qpn, qp->user_index,
						     w->counter, req->payload, req->len, req->imm, req->solicited);
	} else {
		err = swnic_cq_post_responder(qp->recv_cq, cqe_opcode_of(req->op), qp->qpn, qp->user_index,
					      w->counter, req->len, req->imm, req->solicited);
	}
	if (err != DOCA_SUCCESS) {
		/* The CQ overran (it logged why): the completion is lost and the QP fails. */
		*failed = true;
		*syndrome = 0;
		return SWNIC_RESP_NAK_REMOTE_OP;
	}
	return o.verdict;
}

/*
 * The async event of a responder QP that an error completion moved to ERR: a message
 * longer than the receive WQE is an invalid request (WQ_INVAL_REQ_ERROR); a fault of the
 * QP's own receive WQE (lkey, copy) or a lost completion fails its work queue
 * (WQ_CATAS_ERROR). The syndrome is the RESP_ERR CQE's (0 when the CQ overran).
 */
static void raise_recv_error(struct swnic *nic, const struct swnic_qp *qp, uint8_t syndrome)
{
	uint8_t type = syndrome == OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR ? OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR
									       : OGDA_DEVX_EVENT_WQ_CATAS_ERROR;

	swnic_event_raise(nic, SWNIC_EVOBJ_QP, qp->qpn, type, syndrome);
}

uint8_t swnic_resp_receive(struct swnic *nic, struct swnic_qp *qp, const struct swnic_req *req,
			   const struct swnic_mr_hold *write)
{
	struct swnic_recv_wqe w; /* about 21 KiB: the largest receive WQE the model accepts, and its holds */
	uint8_t verdict, old, syndrome = 0;
	bool failed = false;

	if (qp->srq == NULL && !qp->has_rq) {
		/* Zero-length RQ: nothing can be received. The QP stays as it is, like other NAKs. */
		swnic_event_raise(nic, SWNIC_EVOBJ_QP, qp->qpn, OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR,
				  OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
		return SWNIC_RESP_NAK_INVALID_REQ;
	}
	if (qp->recv_cq == NULL) {
		OGDA_LOG_ERR("%s qp 0x%x has a receive queue but no receive CQ", nic->name, qp->qpn);
		return SWNIC_RESP_NAK_REMOTE_OP;
	}
	pthread_mutex_lock(&qp->lock);
	verdict = receive_locked(nic, qp, req, write, &w, &failed, &syndrome);
	old = failed ? qp_to_error_locked(qp) : PRM_QP_STATE_ERR;
	pthread_mutex_unlock(&qp->lock);
	if (old != PRM_QP_STATE_ERR) {
		raise_recv_error(nic, qp, syndrome);
		qp_error_flush(nic, qp, old);
	}
	return verdict;
}

uint32_t swnic_rq_flush_locked(struct swnic_qp *qp)
{
	struct swnic_rq *rq = &qp->rq;
	uint16_t producer;
	uint32_t n = 0;

	if (atomic_load_explicit(&qp->state, memory_order_acquire) != PRM_QP_STATE_ERR || !qp->has_rq ||
	    qp->srq != NULL || rq->dbr == NULL || qp->recv_cq == NULL)
		return 0;
	pthread_mutex_lock(&rq->lock);
	producer = (uint16_t)opengda_mlx5_be32toh(
		atomic_load_explicit(&rq->dbr[OPENGDA_MLX5_RCV_DBR], memory_order_acquire));
	while ((uint16_t)rq->ci != producer) {
		/* A CQ in error takes no more CQEs: the WQE is retired silently then. */
		(void)swnic_cq_post_error(qp->recv_cq, OPENGDA_MLX5_CQE_RESP_ERR, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR,
					  SWNIC_VSYND_FLUSH, 0 /* no send WQE */, qp->qpn, qp->user_index,
					  (uint16_t)rq->ci);
		rq->ci++;
		n++;
	}
	pthread_mutex_unlock(&rq->lock);
	return n;
}

doca_error_t swnic_rq_flush(struct swnic_qp *qp, uint32_t *flushed)
{
	doca_error_t ret = DOCA_SUCCESS;
	uint32_t n = 0;

	if (flushed != NULL)
		*flushed = 0;
	if (qp == NULL) {
		OGDA_LOG_ERR("qp must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&qp->lock);
	if (atomic_load_explicit(&qp->state, memory_order_acquire) != PRM_QP_STATE_ERR)
		ret = DOCA_ERROR_BAD_STATE;
	else
		n = swnic_rq_flush_locked(qp);
	pthread_mutex_unlock(&qp->lock);
	if (n > 0)
		OGDA_LOG_DBG("%s qp 0x%x: %u receive WQEs flushed", qp->nic != NULL ? qp->nic->name : "swnic", qp->qpn,
			     n);
	if (flushed != NULL)
		*flushed = n;
	return ret;
}
