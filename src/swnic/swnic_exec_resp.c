/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The responder: executes one request against a QP of this NIC as an RC (or UC) responder
 * would, and answers with an ACK or a NAK code.
 *
 * Checks, in this order (the first that fails decides the verdict):
 *   1. QP dst_qpn exists and is in RTR or RTS                      else NO_QP
 *      the request comes from the QP's connected peer (remote QPN
 *      and GID) with, on RC, the expected PSN                        else NO_QP, or a
 *      duplicate's answer (swnic_exec_resp_peer.c)
 *   2. the transport takes the op: RC everything, UC WRITE(_IMM) and
 *      SEND(_IMM) only; other service types nothing                else NAK_INVALID_REQ
 *   3. atomics: operand size (8 for CS/FA, 4 or 8 for masked),
 *      size allowed by qpc.atomic_mode, target aligned to the size;
 *      other ops: len <= 2^log_msg_max                              else NAK_INVALID_REQ
 *   4. the QP grants the remote right (rwe / rre / rae)             else NAK_REMOTE_ACCESS
 *   5. rkey: an MR of the QP's PD, covering [raddr, raddr + len),
 *      with REMOTE_WRITE / REMOTE_READ / REMOTE_ATOMIC              else NAK_REMOTE_ACCESS
 *   6. SEND / WRITE_IMM: a receive WQE (else NAK_RNR) and, for sends,
 *      room and valid lkeys in it (swnic_exec_resp_recv.c)
 * Nothing is written before every check has passed, so a NAK leaves memory untouched.
 * NAKs of steps 2-5 leave the responder QP as it was (an IB responder would also move an
 * RC QP to ERR on these class C errors; the model keeps it usable); an error completion
 * of step 6 moves it to ERR (swnic_exec_resp_recv.c).
 *
 * Async events on the responder QP, one per NAKed request: steps 2-3 raise
 * WQ_INVAL_REQ_ERROR (syndrome REMOTE_INVAL_REQ, what the requester's CQE will carry),
 * steps 4-5 WQ_ACCESS_ERROR (syndrome REMOTE_ACCESS). Step 6 raises its own (see there).
 *
 * Zero-length RDMA WRITE / READ do not touch memory: as the IB spec lets a responder do,
 * their rkey and address are not checked (the QP's right still is).
 *
 * atomic_mode: IB_SPEC (1) and ONLY_8B (2) accept 8-byte operands only, UP_TO_8B (3) and
 * larger modes 4 and 8 bytes. 0 (never set by a modify command) is read as IB_SPEC.
 */
#include "swnic/swnic_exec_resp_int.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_qpc.h"
#include "swnic/swnic_event.h"
#include "swnic/swnic_mem_access.h"

#include <stdint.h>
#include <string.h>

/* A NAK for an invalid request: the responder QP's async event, then the verdict. */
static uint8_t nak_invalid(struct swnic *nic, const struct swnic_qp *qp)
{
	swnic_event_raise(nic, SWNIC_EVOBJ_QP, qp->qpn, OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR,
			  OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	return SWNIC_RESP_NAK_INVALID_REQ;
}

/* A NAK for a remote access violation: the responder QP's async event, then the verdict. */
static uint8_t nak_access(struct swnic *nic, const struct swnic_qp *qp)
{
	swnic_event_raise(nic, SWNIC_EVOBJ_QP, qp->qpn, OGDA_DEVX_EVENT_WQ_ACCESS_ERROR,
			  OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	return SWNIC_RESP_NAK_REMOTE_ACCESS;
}

uint8_t swnic_resp_key_verdict(doca_error_t err)
{
	switch (err) {
	case DOCA_ERROR_NOT_FOUND:      /* no such key, or another PD's */
	case DOCA_ERROR_NOT_PERMITTED:  /* the MR lacks the right */
	case DOCA_ERROR_INVALID_VALUE:  /* range outside the MR */
		return SWNIC_RESP_NAK_REMOTE_ACCESS;
	default:
		return SWNIC_RESP_NAK_REMOTE_OP;
	}
}

static const char *op_name(uint8_t op)
{
	switch (op) {
	case SWNIC_REQ_WRITE: return "WRITE";
	case SWNIC_REQ_WRITE_IMM: return "WRITE_IMM";
	case SWNIC_REQ_SEND: return "SEND";
	case SWNIC_REQ_SEND_IMM: return "SEND_IMM";
	case SWNIC_REQ_READ: return "READ";
	case SWNIC_REQ_ATOMIC_CS: return "ATOMIC_CS";
	case SWNIC_REQ_ATOMIC_FA: return "ATOMIC_FA";
	case SWNIC_REQ_MASKED_CS: return "MASKED_CS";
	case SWNIC_REQ_MASKED_FA: return "MASKED_FA";
	default: return "UNKNOWN";
	}
}

static bool op_is_atomic(uint8_t op)
{
	return op == SWNIC_REQ_ATOMIC_CS || op == SWNIC_REQ_ATOMIC_FA || op == SWNIC_REQ_MASKED_CS ||
	       op == SWNIC_REQ_MASKED_FA;
}

static bool qp_accepts(const struct swnic_qp *qp, uint8_t op)
{
	switch (qp->st) {
	case PRM_QP_ST_RC:
		return true;
	case PRM_QP_ST_UC:
		return op == SWNIC_REQ_WRITE || op == SWNIC_REQ_WRITE_IMM || op == SWNIC_REQ_SEND ||
		       op == SWNIC_REQ_SEND_IMM;
	default:
		return false;
	}
}

/* Largest operand qpc.atomic_mode lets the responder take; 4 B needs UP_TO_8B or above. */
static uint32_t atomic_mode_max_bytes(uint8_t mode)
{
	if (mode >= PRM_QP_ATOMIC_MODE_UP_TO_8B && mode <= PRM_QP_ATOMIC_MODE_UP_TO_256B)
		return 8u << (mode - PRM_QP_ATOMIC_MODE_UP_TO_8B);
	return 8; /* 0, IB_SPEC, ONLY_8B */
}

/* Step 3: the shape of an atomic request on this QP. */
static bool atomic_shape_ok(const struct swnic_qp *qp, const struct swnic_req *req)
{
	uint32_t size = req->atomic_size;
	bool masked = req->op == SWNIC_REQ_MASKED_CS || req->op == SWNIC_REQ_MASKED_FA;

	if (size != 8 && !(masked && size == 4))
		return false;
	if (size > atomic_mode_max_bytes(qp->atomic_mode))
		return false;
	if (size < 8 && qp->atomic_mode < PRM_QP_ATOMIC_MODE_UP_TO_8B)
		return false;
	return req->raddr % size == 0;
}

/* Step 3 for messages: at most 2^log_msg_max bytes (INIT2RTR; the device maximum when 0). */
static bool msg_size_ok(const struct swnic_qp *qp, const struct swnic_req *req)
{
	return qp->log_msg_max >= 32 || (uint64_t)req->len <= (1ull << qp->log_msg_max);
}

static bool qp_grants(const struct swnic_qp *qp, uint8_t op)
{
	switch (op) {
	case SWNIC_REQ_WRITE:
	case SWNIC_REQ_WRITE_IMM:
		return qp->rwe;
	case SWNIC_REQ_READ:
		return qp->rre;
	case SWNIC_REQ_SEND:
	case SWNIC_REQ_SEND_IMM:
		return true;
	default:
		return qp->rae;
	}
}

static uint32_t right_needed(uint8_t op)
{
	switch (op) {
	case SWNIC_REQ_WRITE:
	case SWNIC_REQ_WRITE_IMM:
		return OGDA_ACCESS_REMOTE_WRITE;
	case SWNIC_REQ_READ:
		return OGDA_ACCESS_REMOTE_READ;
	default:
		return OGDA_ACCESS_REMOTE_ATOMIC;
	}
}

/*
 * Step 5 for ops that carry an rkey; on ACK the MR is held (*h, its kind decides how bytes
 * move) until the caller releases it: a deregistration waits for the access.
 */
static uint8_t check_rkey(struct swnic *nic, const struct swnic_qp *qp, const struct swnic_req *req, uint64_t len,
			  struct swnic_mr_hold *h)
{
	doca_error_t err;

	if (req->raddr + len < req->raddr)
		return nak_access(nic, qp);
	err = swnic_mr_hold(nic, req->rkey, true, qp->pd, req->raddr, len, right_needed(req->op), h);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_DBG("qp 0x%x: %s rkey 0x%x [0x%llx, +%llu) refused: %s", qp->qpn, op_name(req->op), req->rkey,
			     (unsigned long long)req->raddr, (unsigned long long)len, doca_error_get_name(err));
		if (swnic_resp_key_verdict(err) == SWNIC_RESP_NAK_REMOTE_ACCESS)
			return nak_access(nic, qp);
		return swnic_resp_key_verdict(err);
	}
	return SWNIC_RESP_ACK;
}

/* The verdict of a copy into or out of a held MR; a deregistration that stopped it is an access error. */
static uint8_t copy_verdict(struct swnic *nic, const struct swnic_qp *qp, doca_error_t err)
{
	if (err == DOCA_SUCCESS)
		return SWNIC_RESP_ACK;
	return err == DOCA_ERROR_NOT_FOUND ? nak_access(nic, qp) : SWNIC_RESP_NAK_REMOTE_OP;
}

static uint8_t do_write(struct swnic *nic, struct swnic_qp *qp, const struct swnic_req *req)
{
	struct swnic_mr_hold h;
	doca_error_t err;
	uint8_t v;

	if (req->len == 0)
		return SWNIC_RESP_ACK;
	v = check_rkey(nic, qp, req, req->len, &h);
	if (v != SWNIC_RESP_ACK)
		return v;
	if (req->defer_copy && req->payload_kind == OGDA_MEM_GPU && h.mr.kind == OGDA_MEM_GPU) {
		/* Lands before the answer leaves (the caller settles it); the hold goes with the copy. */
		err = swnic_mem_copy_deferred((void *)(uintptr_t)req->raddr, req->payload, req->len, &h);
		return copy_verdict(nic, qp, err);
	}
	err = swnic_mem_copy_held((void *)(uintptr_t)req->raddr, h.mr.kind, req->payload,
				  (enum ogda_mem_kind)req->payload_kind, req->len, &h, NULL);
	swnic_mr_unhold(&h);
	return copy_verdict(nic, qp, err);
}

static uint8_t do_read(struct swnic *nic, struct swnic_qp *qp, const struct swnic_req *req, struct swnic_resp *resp,
		       void *read_buf)
{
	struct swnic_mr_hold h;
	doca_error_t err;
	uint8_t v;

	if (req->len == 0)
		return SWNIC_RESP_ACK;
	v = check_rkey(nic, qp, req, req->len, &h);
	if (v != SWNIC_RESP_ACK)
		return v;
	err = swnic_mem_copy_held(read_buf, OGDA_MEM_HOST, (const void *)(uintptr_t)req->raddr, h.mr.kind, req->len,
				  &h, NULL);
	swnic_mr_unhold(&h);
	v = copy_verdict(nic, qp, err);
	if (v == SWNIC_RESP_ACK)
		resp->read_len = req->len;
	return v;
}

static uint8_t do_atomic(struct swnic *nic, struct swnic_qp *qp, const struct swnic_req *req, struct swnic_resp *resp)
{
	struct swnic_mr_hold h;
	uint64_t orig = 0;
	uint8_t v;

	v = check_rkey(nic, qp, req, req->atomic_size, &h);
	if (v != SWNIC_RESP_ACK)
		return v;
	v = swnic_resp_atomic_execute(req, &h.mr, &orig);
	swnic_mr_unhold(&h);
	if (v == SWNIC_RESP_ACK)
		resp->atomic_orig = orig;
	return v;
}

static uint8_t do_receive(struct swnic *nic, struct swnic_qp *qp, const struct swnic_req *req)
{
	struct swnic_mr_hold h;
	uint8_t v;

	memset(&h, 0, sizeof(h));
	if (req->op == SWNIC_REQ_WRITE_IMM && req->len > 0) {
		v = check_rkey(nic, qp, req, req->len, &h);
		if (v != SWNIC_RESP_ACK)
			return v;
	}
	v = swnic_resp_receive(nic, qp, req, req->op == SWNIC_REQ_WRITE_IMM ? &h : NULL);
	swnic_mr_unhold(&h);
	return v;
}

/*
 * swnic_responder_check's last step: the rkey, for every op that carries one. The hold the check
 * takes is let go at once: the request's execution checks (and holds) again.
 */
static uint8_t check_target(struct swnic *nic, const struct swnic_qp *qp, const struct swnic_req *req)
{
	struct swnic_mr_hold h;
	uint8_t v;

	if (!op_is_atomic(req->op) && (req->op == SWNIC_REQ_SEND || req->op == SWNIC_REQ_SEND_IMM || req->len == 0))
		return SWNIC_RESP_ACK;
	memset(&h, 0, sizeof(h));
	v = check_rkey(nic, qp, req, op_is_atomic(req->op) ? req->atomic_size : req->len, &h);
	swnic_mr_unhold(&h);
	return v;
}

/* check_only: stop before touching memory (swnic_responder_check). */
static uint8_t execute(struct swnic *nic, struct swnic_qp *qp, const struct swnic_req *req, struct swnic_resp *resp,
		       void *read_buf, bool check_only)
{
	uint8_t state = atomic_load_explicit(&qp->state, memory_order_acquire);

	if (state != PRM_QP_STATE_RTR && state != PRM_QP_STATE_RTS)
		return SWNIC_RESP_NO_QP;
	if (!qp_accepts(qp, req->op))
		return nak_invalid(nic, qp);
	if (op_is_atomic(req->op) ? !atomic_shape_ok(qp, req) : !msg_size_ok(qp, req))
		return nak_invalid(nic, qp);
	if (!qp_grants(qp, req->op))
		return nak_access(nic, qp);
	if (check_only)
		return check_target(nic, qp, req);

	switch (req->op) {
	case SWNIC_REQ_WRITE:
		return do_write(nic, qp, req);
	case SWNIC_REQ_READ:
		return do_read(nic, qp, req, resp, read_buf);
	case SWNIC_REQ_WRITE_IMM:
	case SWNIC_REQ_SEND:
	case SWNIC_REQ_SEND_IMM:
		return do_receive(nic, qp, req);
	default:
		return do_atomic(nic, qp, req, resp);
	}
}

/* Step 0 (swnic_exec_resp_peer.c): the connected peer, in PSN order; then execute. */
static uint8_t admit_and_execute(struct swnic *nic, struct swnic_qp *qp, const struct swnic_req *req,
				 struct swnic_resp *resp, void *read_buf, bool check_only)
{
	uint8_t state = atomic_load_explicit(&qp->state, memory_order_acquire);
	struct swnic_resp_seq seq;
	uint8_t v;

	if (state != PRM_QP_STATE_RTR && state != PRM_QP_STATE_RTS)
		return SWNIC_RESP_NO_QP;
	switch (swnic_resp_admit(qp, req, &seq)) {
	case SWNIC_RESP_ADMIT_DROP:
		return SWNIC_RESP_NO_QP;
	case SWNIC_RESP_ADMIT_DUPLICATE:
		if (check_only)
			return SWNIC_RESP_ACK; /* answered below without running again */
		if (req->op == SWNIC_REQ_READ)
			return execute(nic, qp, req, resp, read_buf, false); /* reads are idempotent */
		if (op_is_atomic(req->op)) {
			unsigned k;

			for (k = 0; k < SWNIC_RESP_ATOMIC_SAVED; k++)
				if (qp->resp_atomic[k].valid && qp->resp_atomic[k].psn == req->psn)
					break;
			if (k == SWNIC_RESP_ATOMIC_SAVED)
				return SWNIC_RESP_NO_QP; /* too old: its result is gone */
			resp->atomic_orig = qp->resp_atomic[k].orig;
		}
		OGDA_LOG_DBG("qp 0x%x: duplicate psn 0x%x (expected 0x%x) acknowledged again", qp->qpn, req->psn,
			     seq.expected);
		return SWNIC_RESP_ACK;
	case SWNIC_RESP_ADMIT_NEW:
		break;
	}
	v = execute(nic, qp, req, resp, read_buf, check_only);
	if (v == SWNIC_RESP_ACK && !check_only) {
		if (op_is_atomic(req->op)) {
			const unsigned k = qp->resp_atomic_next++ % SWNIC_RESP_ATOMIC_SAVED;

			qp->resp_atomic[k].valid = true;
			qp->resp_atomic[k].psn = req->psn;
			qp->resp_atomic[k].orig = resp->atomic_orig;
		}
		swnic_resp_advance(qp, &seq);
	}
	return v;
}

static bool req_valid(const struct swnic_req *req, const void *read_buf)
{
	if (req->op < SWNIC_REQ_WRITE || req->op > SWNIC_REQ_MASKED_FA) {
		OGDA_LOG_ERR("unknown request op %u", req->op);
		return false;
	}
	if ((req->op == SWNIC_REQ_WRITE || req->op == SWNIC_REQ_WRITE_IMM || req->op == SWNIC_REQ_SEND ||
	     req->op == SWNIC_REQ_SEND_IMM) &&
	    req->len > 0 && req->payload == NULL) {
		OGDA_LOG_ERR("%s of %u bytes without a payload", op_name(req->op), req->len);
		return false;
	}
	if (req->payload_kind != OGDA_MEM_HOST &&
	    (req->payload_kind != OGDA_MEM_GPU || (req->op != SWNIC_REQ_WRITE && req->op != SWNIC_REQ_WRITE_IMM))) {
		OGDA_LOG_ERR("%s with a payload of memory kind %u", op_name(req->op), req->payload_kind);
		return false;
	}
	if (req->op == SWNIC_REQ_READ && req->len > 0 && read_buf == NULL) {
		OGDA_LOG_ERR("READ of %u bytes without a read buffer", req->len);
		return false;
	}
	return true;
}

doca_error_t swnic_responder_execute(struct swnic *nic, const struct swnic_req *req, struct swnic_resp *resp,
				     void *read_buf)
{
	struct swnic_qp *qp;

	if (nic == NULL || req == NULL || resp == NULL) {
		OGDA_LOG_ERR("NULL argument: nic %p req %p resp %p", (void *)nic, (const void *)req, (void *)resp);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!req_valid(req, read_buf))
		return DOCA_ERROR_INVALID_VALUE;
	memset(resp, 0, sizeof(*resp));

	qp = req->dst_qpn <= 0xffffffu ? swnic_qp_acquire(nic, req->dst_qpn) : NULL;
	if (qp == NULL) {
		resp->status = SWNIC_RESP_NO_QP;
	} else {
		pthread_mutex_lock(&qp->resp_lock);
		resp->status = admit_and_execute(nic, qp, req, resp, read_buf, false);
		pthread_mutex_unlock(&qp->resp_lock);
		swnic_qp_release(qp);
	}
	if (resp->status != SWNIC_RESP_ACK) {
		resp->read_len = 0;
		resp->atomic_orig = 0;
	}
	OGDA_LOG_DBG("%s: %s to qp 0x%x from qp 0x%x psn 0x%x len %u -> status %u", nic->name, op_name(req->op),
		     req->dst_qpn, req->src_qpn, req->psn, req->len, resp->status);
	return DOCA_SUCCESS;
}

doca_error_t swnic_responder_check(struct swnic *nic, const struct swnic_req *req, struct swnic_req_verdict *verdict)
{
	struct swnic_resp resp;
	struct swnic_qp *qp;

	if (nic == NULL || req == NULL || verdict == NULL) {
		OGDA_LOG_ERR("responder check: NULL argument: nic %p req %p verdict %p", (void *)nic, (const void *)req,
			     (void *)verdict);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(verdict, 0, sizeof(*verdict));
	memset(&resp, 0, sizeof(resp));
	qp = req->dst_qpn <= 0xffffffu ? swnic_qp_acquire(nic, req->dst_qpn) : NULL;
	if (qp == NULL) {
		verdict->status = SWNIC_RESP_NO_QP;
		return DOCA_SUCCESS;
	}
	pthread_mutex_lock(&qp->resp_lock);
	verdict->status = admit_and_execute(nic, qp, req, &resp, NULL, true);
	pthread_mutex_unlock(&qp->resp_lock);
	pthread_mutex_lock(&qp->lock); /* a modify may change the MTU */
	verdict->mtu_bytes = swnic_mtu_bytes(qp->mtu);
	pthread_mutex_unlock(&qp->lock);
	swnic_qp_release(qp);
	OGDA_LOG_DBG("%s: header of %s to qp 0x%x from qp 0x%x psn 0x%x len %u -> status %u", nic->name,
		     op_name(req->op), req->dst_qpn, req->src_qpn, req->psn, req->len, verdict->status);
	return DOCA_SUCCESS;
}
