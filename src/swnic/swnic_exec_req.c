/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Requester side of each send opcode: decode a WQE, check it and its local
 * keys, gather the outgoing data, hand the request to the fabric, retry as an RC
 * requester does, and scatter READ data and atomic results into the local SGEs.
 *
 * Model choices (docs/swnic.md):
 *  - WQEs start in order; a fenced one only when everything before it has completed
 *    (swnic_window.c keeps the others in flight), so every fence mode is honoured;
 *  - the gather happens once, when the WQE starts; retries resend the gathered bytes;
 *  - local memory is touched only with its MR held (swnic_mem_access.h): the lkey is
 *    checked again, and the MR held, for the gather, for each attempt that sends straight
 *    from a single SGE, and for the scatter of READ data and atomic results, which arrive
 *    in staging memory first; an MR deregistered meanwhile fails the WQE with LOCAL_PROT
 *    (vendor BAD_LKEY) and nothing is written to its memory;
 *  - zero-length pointer segments are not key-checked (they touch no memory);
 *  - qpc.log_msg_max 0 means the device limit (cap log_max_msg);
 *  - the RNR delay is the requester QP's own min_rnr_nak (the wire would carry the
 *    responder's); one PSN per MTU-sized packet, one for atomics and zero-length messages;
 *  - byte_cnt of a requester CQE: message length for WRITE / SEND / READ, operand size for
 *    atomics, 0 for NOP / DUMP / WAIT;
 *  - DUMP is local: its data segment is not checked, and it completes as soon as it is
 *    reached (all earlier WQEs have completed by then);
 *  - UC: READ and atomics are LOCAL_QP_OP; a lost or RNR'd message still completes
 *    successfully, as UC has no acknowledgements.
 */
#include "swnic/swnic_engine.h"
#include "swnic/swnic_exec_req_int.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_qpc.h"
#include "swnic/swnic_fabric_pipe.h"
#include "swnic/swnic_mem_access.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

void swnic_exec_req_unpost(struct swnic_exec *x)
{
	if (x == NULL)
		return;
	x->posted = false;
	swnic_mr_unhold(&x->ref_hold);
}

void swnic_exec_req_reset(struct swnic_exec *x)
{
	if (x == NULL)
		return;
	swnic_exec_req_unpost(x);
	free(x->buf);
	x->buf = NULL;
	x->buf_cap = 0;
	x->active = false;
	x->posted = false;
	x->sync = false;
	x->done = false;
}

/* The WQE is over: hand its completion (kept in x->cpl since it started) to the engine. */
static enum swnic_exec_status finish(struct swnic_exec *x, struct swnic_completion *cpl, uint8_t syndrome,
				     uint8_t vendor)
{
	x->cpl.syndrome = syndrome;
	x->cpl.vendor_syndrome = vendor;
	if (syndrome != 0)
		x->cpl.byte_cnt = 0;
	*cpl = x->cpl;
	x->active = false;
	if (x->buf_cap > (1u << 20)) {
		/* Keep small staging buffers for the next WQE, give large ones back. */
		free(x->buf);
		x->buf = NULL;
		x->buf_cap = 0;
	}
	return SWNIC_EXEC_DONE;
}

/* qp->lock, giving up when the QP is being detached (its destroyer may hold the lock). */
static bool qp_lock(const struct swnic_exec_ctx *ctx)
{
	while (pthread_mutex_trylock(&ctx->qp->lock) != 0) {
		if (ctx->abort != NULL && atomic_load_explicit(ctx->abort, memory_order_acquire))
			return false;
		sched_yield();
	}
	return true;
}

static uint32_t packets(uint8_t mtu, uint64_t len)
{
	uint64_t mtu_bytes = (mtu >= PRM_QP_MTU_256 && mtu <= PRM_QP_MTU_4096) ? (128ull << mtu) : 1024ull;

	return len == 0 ? 1u : (uint32_t)((len + mtu_bytes - 1u) / mtu_bytes);
}

/* How many PSNs a WQE consumes. */
enum psn_use {
	PSN_NONE,     /* local WQE */
	PSN_ONE,      /* atomic */
	PSN_MESSAGE,  /* one per MTU of x->total, at least one */
};

/* Copies the attributes a WQE needs and reserves its PSNs. False: aborted (detach). */
static bool snapshot_attrs(const struct swnic_exec_ctx *ctx, struct swnic_exec *x, enum psn_use use)
{
	struct swnic_qp *qp = ctx->qp;
	struct swnic_qp_attrs *a = &x->attrs;
	uint32_t npsn;

	if (!qp_lock(ctx))
		return false;
	npsn = use == PSN_NONE ? 0u : use == PSN_ONE ? 1u : packets(qp->mtu, x->total);
	a->st = qp->st;
	a->mtu = qp->mtu;
	a->log_msg_max = qp->log_msg_max;
	a->retry_count = qp->retry_count;
	a->rnr_retry = qp->rnr_retry;
	a->min_rnr_nak = qp->min_rnr_nak;
	a->ack_timeout = qp->ack_timeout;
	a->cd_master = qp->cd_master;
	a->remote_qpn = qp->remote_qpn;
	memcpy(a->remote_gid, qp->remote_gid, sizeof(a->remote_gid));
	a->psn = qp->next_send_psn & 0xffffffu;
	qp->next_send_psn = (qp->next_send_psn + npsn) & 0xffffffu;
	pthread_mutex_unlock(&qp->lock);
	return true;
}

static uint64_t msg_limit(const struct swnic_qp *qp, const struct swnic_qp_attrs *a)
{
	uint32_t lmm = a->log_msg_max != 0 ? a->log_msg_max : qp->nic->cap_general.log_max_msg;

	if (lmm == 0 || lmm > 31u)
		lmm = 31u;
	return 1ull << lmm;
}

/*
 * The bytes an atomic returns into the local buffer. 8-byte results (standard and masked)
 * arrive in host order; 4-byte masked results arrive big-endian (reference/mlx5.md B.4,
 * UNVERIFIED: NVSHMEM byte-swaps only its 4-byte fetched results).
 */
static uint32_t atomic_result_image(uint32_t size, uint64_t orig, uint8_t out[8])
{
	if (size == 4u) {
		uint32_t be = opengda_mlx5_htobe32((uint32_t)orig);

		memcpy(out, &be, 4);
		return 4;
	}
	memcpy(out, &orig, 8);
	return 8;
}

static uint8_t req_op(uint8_t opcode)
{
	switch (opcode) {
	case OPENGDA_MLX5_OPCODE_RDMA_WRITE: return SWNIC_REQ_WRITE;
	case OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM: return SWNIC_REQ_WRITE_IMM;
	case OPENGDA_MLX5_OPCODE_SEND: return SWNIC_REQ_SEND;
	case OPENGDA_MLX5_OPCODE_SEND_IMM: return SWNIC_REQ_SEND_IMM;
	case OPENGDA_MLX5_OPCODE_RDMA_READ: return SWNIC_REQ_READ;
	case OPENGDA_MLX5_OPCODE_ATOMIC_CS: return SWNIC_REQ_ATOMIC_CS;
	case OPENGDA_MLX5_OPCODE_ATOMIC_FA: return SWNIC_REQ_ATOMIC_FA;
	case OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS: return SWNIC_REQ_MASKED_CS;
	case OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA: return SWNIC_REQ_MASKED_FA;
	default: return 0;
	}
}

/* Local part of a remote operation: key checks, lengths, gather; fills x->req. */
static enum swnic_exec_status prepare_remote(const struct swnic_exec_ctx *ctx, struct swnic_exec *x,
					     struct swnic_completion *cpl)
{
	struct swnic_qp *qp = ctx->qp;
	const struct prm_wqe *w = &x->wqe;
	struct swnic_req *r = &x->req;
	bool is_read = w->opcode == OPENGDA_MLX5_OPCODE_RDMA_READ;
	uint8_t syndrome = 0, vendor;
	uint64_t scatter_len;
	uint8_t *dst = NULL;

	if (qp->st == PRM_QP_ST_UC && (is_read || w->has_atomic)) /* st is fixed at CREATE_QP */
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_ST);
	x->total = swnic_xreq_data_total(w);
	scatter_len = x->total;
	if (w->has_atomic)
		x->total = w->atomic.size;
	if (!snapshot_attrs(ctx, x, w->has_atomic ? PSN_ONE : PSN_MESSAGE))
		return SWNIC_EXEC_ABORTED;
	vendor = swnic_xreq_resolve_sges(qp, x, (is_read || w->has_atomic) ? OGDA_ACCESS_LOCAL_WRITE : 0u, &syndrome);
	if (vendor == SWNIC_VSYND_TOO_MANY_SGE)
		return finish(x, cpl, syndrome, vendor);
	if (!w->has_atomic && x->total > msg_limit(qp, &x->attrs))
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, SWNIC_VSYND_MSG_TOO_LONG);
	if (w->has_atomic && scatter_len < w->atomic.size)
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, SWNIC_VSYND_RESULT_TOO_SHORT);
	if (vendor != 0)
		return finish(x, cpl, syndrome, vendor);

	memset(r, 0, sizeof(*r));
	r->op = req_op(w->opcode);
	r->src_qpn = qp->qpn;
	r->dst_qpn = x->attrs.remote_qpn;
	memcpy(r->src_gid, qp->nic->gid, sizeof(r->src_gid));
	r->psn = x->attrs.psn;
	r->raddr = w->raddr;
	r->rkey = w->rkey;
	r->len = (uint32_t)x->total;
	r->imm = opengda_mlx5_htobe32(w->imm);
	/* SE travels with the messages that complete at the responder (IB: SEND, WRITE with immediate). */
	r->solicited = w->se != 0 && (r->op == SWNIC_REQ_SEND || r->op == SWNIC_REQ_SEND_IMM ||
				      r->op == SWNIC_REQ_WRITE_IMM);
	x->read_dst = NULL;
	x->payload_is_sge = false;
	if (w->has_atomic) {
		r->atomic_size = (uint8_t)w->atomic.size;
		r->swap_add = w->atomic.swap_add;
		/* MASKED_FA carries its field boundary where its WQE segment has it: the compare slot. */
		r->compare = w->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA ? w->atomic.field_boundary
									       : w->atomic.compare;
		r->swap_mask = w->atomic.swap_mask;
		r->compare_mask = w->atomic.compare_mask;
		r->len = 0;
	} else if (is_read) {
		/* Staging even for one host SGE: the response may come after that MR is gone. */
		if (swnic_xreq_staging(x, x->total, &dst) != DOCA_SUCCESS)
			return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, SWNIC_VSYND_LOCAL_COPY);
		x->read_dst = dst;
	} else if ((vendor = swnic_xreq_gather(qp, x, r->op == SWNIC_REQ_WRITE || r->op == SWNIC_REQ_WRITE_IMM)) != 0) {
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, vendor);
	}
	x->transport_tries = 0;
	x->rnr_tries = 0;
	x->next_try_ns = 0;
	x->rnr_deadline_ns = 0;
	x->active = true;
	return SWNIC_EXEC_PENDING;
}

/*
 * SEND on an Ethernet SQ: the inline head and the gathered data form one frame that leaves
 * through the NIC's Ethernet port (swnic_eth.c); byte_cnt is the frame length. Local in one
 * step, as a DUMP: no fabric, no retries.
 */
static enum swnic_exec_status eth_send(struct swnic_qp *qp, struct swnic_exec *x, struct swnic_completion *cpl)
{
	const struct prm_wqe *w = &x->wqe;
	uint8_t syndrome = OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, vendor;
	struct swnic_mr_hold h;
	bool held = false;

	vendor = swnic_xreq_resolve_sges(qp, x, 0, &syndrome);
	if (vendor != 0)
		return finish(x, cpl, syndrome, vendor);
	x->total = swnic_xreq_data_total(w);
	vendor = swnic_xreq_gather(qp, x, false); /* the frame is sent from host memory */
	if (vendor != 0)
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, vendor);
	if (x->payload_is_sge) { /* sent straight from the buffer: its MR is held for the send */
		if (swnic_mr_hold(qp->nic, x->sge[0].lkey, false, qp->pd, x->sge[0].addr, x->total, 0, &h) !=
		    DOCA_SUCCESS)
			return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, SWNIC_VSYND_BAD_LKEY);
		held = true;
	}
	syndrome = swnic_eth_transmit(qp->nic, w->eth.cs_flags, w->bytes + w->eth.inline_hdr_offset,
				      w->eth.inline_hdr_sz, x->req.payload, x->total, &vendor);
	if (held)
		swnic_mr_unhold(&h);
	x->cpl.byte_cnt = (uint32_t)(w->eth.inline_hdr_sz + x->total);
	return finish(x, cpl, syndrome, vendor);
}

/* The WQE at x->index starts: decode, shape checks, local-only opcodes. PENDING: go on. */
static enum swnic_exec_status start(const struct swnic_exec_ctx *ctx, struct swnic_exec *x,
				    struct swnic_completion *cpl)
{
	struct swnic_qp *qp = ctx->qp;
	struct prm_wqe *w = &x->wqe;
	uint16_t left = (uint16_t)(qp->sq_target - x->index);
	doca_error_t rc;

	memset(&x->cpl, 0, sizeof(x->cpl));
	x->cpl.wqe_counter = x->index;
	rc = qp->st == SWNIC_QP_ST_ETH ? prm_wqe_decode_eth(qp->sq, qp->log_sq_wqebbs, x->index, w)
				       : prm_wqe_decode(qp->sq, qp->log_sq_wqebbs, x->index, w);
	if (rc != DOCA_SUCCESS) {
		swnic_sq_peek(qp, x->index, &x->cpl.wqe_opcode, &x->cpl.wqebbs);
		if (x->cpl.wqebbs > left)
			x->cpl.wqebbs = left;
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
			      rc == DOCA_ERROR_NOT_SUPPORTED ? SWNIC_VSYND_BAD_OPCODE : SWNIC_VSYND_MALFORMED);
	}
	x->cpl.wqe_opcode = w->opcode;
	x->cpl.wqebbs = (uint16_t)w->wqebbs;
	x->cpl.signaled = w->ce >= OPENGDA_MLX5_CE_ALWAYS;
	OGDA_LOG_DBG("qp 0x%x wqe 0x%x: %s opmod 0x%x ds %u fm_ce_se 0x%02x ndata %u", qp->qpn,
		     (unsigned)x->index, prm_wqe_opcode_name(w->opcode), (unsigned)w->opmod, (unsigned)w->ds,
		     (unsigned)w->fm_ce_se, w->ndata);
	if (w->wqebbs > left) {
		/* The WQE runs past the producer index that was rung: its tail is not the producer's. */
		x->cpl.wqebbs = left;
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_MALFORMED);
	}
	if (w->qpn != qp->qpn || w->wqe_index != x->index)
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_WQE_MISMATCH);

	if (qp->st == SWNIC_QP_ST_ETH) {
		if (w->opcode == OPENGDA_MLX5_OPCODE_SEND)
			return eth_send(qp, x, cpl);
		if (w->opcode == OPENGDA_MLX5_OPCODE_ENHANCED_MPSW) { /* swnic_eth_empw.c */
			uint8_t vendor, syndrome = swnic_eth_empw_send(qp, w, &x->cpl.byte_cnt, &vendor);
			return finish(x, cpl, syndrome, vendor);
		}
		if (w->opcode == OPENGDA_MLX5_OPCODE_WAIT && w->opmod == OPENGDA_MLX5_OPMOD_WAIT_TIME) {
			x->active = true; /* wait-on-time: swnic_exec_req_step looks at the clock */
			return SWNIC_EXEC_PENDING;
		}
		if (w->opcode != OPENGDA_MLX5_OPCODE_NOP)
			return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_ST);
	}
	switch (w->opcode) {
	case OPENGDA_MLX5_OPCODE_NOP:
	case OPENGDA_MLX5_OPCODE_DUMP:
		return finish(x, cpl, 0, 0);
	case OPENGDA_MLX5_OPCODE_WAIT:
		if (w->opmod != OPENGDA_MLX5_OPMOD_WAIT_CQ_PI)
			return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_BAD_OPCODE);
		if (!snapshot_attrs(ctx, x, PSN_NONE))
			return SWNIC_EXEC_ABORTED;
		if (!x->attrs.cd_master)
			return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_WAIT_NOT_ALLOWED);
		x->active = true;
		return SWNIC_EXEC_PENDING;
	case OPENGDA_MLX5_OPCODE_RDMA_WRITE:
	case OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM:
	case OPENGDA_MLX5_OPCODE_SEND:
	case OPENGDA_MLX5_OPCODE_SEND_IMM:
	case OPENGDA_MLX5_OPCODE_RDMA_READ:
	case OPENGDA_MLX5_OPCODE_ATOMIC_CS:
	case OPENGDA_MLX5_OPCODE_ATOMIC_FA:
	case OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS:
	case OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA:
		return prepare_remote(ctx, x, cpl);
	default:
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_BAD_OPCODE);
	}
}

/* WAIT on a CQ: done once the CQ has produced the CQE with index max_index. */
static enum swnic_exec_status step_wait(const struct swnic_exec_ctx *ctx, struct swnic_exec *x,
					struct swnic_completion *cpl)
{
	struct swnic_cq *cq = swnic_cq_acquire(ctx->qp->nic, x->wqe.wait.cqn);
	uint32_t produced;

	if (cq == NULL)
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_WAIT_BAD_CQ);
	produced = atomic_load_explicit(&cq->produced, memory_order_acquire);
	swnic_cq_release(cq);
	if ((int32_t)(produced - (x->wqe.wait.max_index + 1u)) >= 0)
		return finish(x, cpl, 0, 0);
	return SWNIC_EXEC_PENDING;
}

/* A reply arrived with ACK: place READ data / atomic results, complete. */
static enum swnic_exec_status acked(const struct swnic_exec_ctx *ctx, struct swnic_exec *x,
				    const struct swnic_resp *resp, struct swnic_completion *cpl)
{
	struct swnic_qp *qp = ctx->qp;
	const struct prm_wqe *w = &x->wqe;
	uint8_t vendor = 0;

	if (w->has_atomic) {
		uint8_t img[8];
		uint32_t n = atomic_result_image(w->atomic.size, resp->atomic_orig, img);

		vendor = swnic_xreq_scatter(qp, x, img, n);
	} else if (w->opcode == OPENGDA_MLX5_OPCODE_RDMA_READ) {
		if (resp->read_len != x->total)
			return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_BAD_RESP_ERR, SWNIC_VSYND_BAD_RESPONSE);
		if (x->total != 0)
			vendor = swnic_xreq_scatter(qp, x, x->read_dst, x->total);
	}
	if (vendor != 0)
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, vendor);
	x->cpl.byte_cnt = (uint32_t)x->total;
	atomic_fetch_add_explicit(&qp->counters.bytes, x->total, memory_order_relaxed);
	return finish(x, cpl, 0, 0);
}

/* No answer (or a silent drop): retry after the attempt's timeout, or give up. */
static enum swnic_exec_status transport_failed(const struct swnic_exec_ctx *ctx, struct swnic_exec *x,
					       uint64_t now, uint64_t *wake_ns, struct swnic_completion *cpl)
{
	struct swnic_qp *qp = ctx->qp;
	uint64_t next;

	if (x->attrs.st == PRM_QP_ST_UC) {
		x->cpl.byte_cnt = (uint32_t)x->total;
		return finish(x, cpl, 0, 0);
	}
	if (x->transport_tries >= x->attrs.retry_count)
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR, SWNIC_VSYND_RETRY_EXC);
	x->transport_tries++;
	atomic_fetch_add_explicit(&qp->counters.transport_retries, 1, memory_order_relaxed);
	next = x->attempt_ns + swnic_exec_ack_timeout_ns(ctx->cfg, x->attrs.ack_timeout);
	x->next_try_ns = next > now ? next : now;
	if (x->next_try_ns < *wake_ns)
		*wake_ns = x->next_try_ns;
	return SWNIC_EXEC_PENDING;
}

/* RNR NAK: wait min_rnr_nak and resend, rnr_retry times (7: until OPENGDA_SWNIC_RNR_MAX_MS). */
static enum swnic_exec_status rnr_naked(const struct swnic_exec_ctx *ctx, struct swnic_exec *x, uint64_t now,
					uint64_t *wake_ns, struct swnic_completion *cpl)
{
	struct swnic_qp *qp = ctx->qp;
	uint64_t next = now + swnic_exec_rnr_delay_ns(x->attrs.min_rnr_nak);

	if (x->attrs.st == PRM_QP_ST_UC) {
		x->cpl.byte_cnt = (uint32_t)x->total;
		return finish(x, cpl, 0, 0);
	}
	if (x->attrs.rnr_retry == SWNIC_RNR_RETRY_INFINITE) {
		if (x->rnr_deadline_ns == 0)
			x->rnr_deadline_ns = now + ctx->cfg->rnr_max_ns;
		if (now >= x->rnr_deadline_ns)
			return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, SWNIC_VSYND_RETRY_EXC);
		if (next > x->rnr_deadline_ns)
			next = x->rnr_deadline_ns;
	} else if (x->rnr_tries >= x->attrs.rnr_retry) {
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, SWNIC_VSYND_RETRY_EXC);
	}
	x->rnr_tries++;
	atomic_fetch_add_explicit(&qp->counters.rnr_retries, 1, memory_order_relaxed);
	x->next_try_ns = next;
	if (next < *wake_ns)
		*wake_ns = next;
	return SWNIC_EXEC_PENDING;
}

/* What came back for x's request (rc: how the delivery went), as an RC requester acts on it. */
static enum swnic_exec_status answered(const struct swnic_exec_ctx *ctx, struct swnic_exec *x, doca_error_t rc,
				       const struct swnic_resp *resp, uint64_t *wake_ns, struct swnic_completion *cpl)
{
	struct swnic_qp *qp = ctx->qp;

	if (rc == DOCA_ERROR_INVALID_VALUE) /* the fabric refused the request itself: no retry helps */
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, SWNIC_VSYND_FABRIC_REJECT);
	if (rc != DOCA_SUCCESS) {
		OGDA_LOG_DBG("qp 0x%x wqe 0x%x: no answer from qpn 0x%x (%s), try %u of %u", qp->qpn,
			     (unsigned)x->index, x->req.dst_qpn, doca_error_get_name(rc), x->transport_tries + 1u,
			     x->attrs.retry_count + 1u);
		return transport_failed(ctx, x, swnic_now_ns(), wake_ns, cpl);
	}
	switch (resp->status) {
	case SWNIC_RESP_ACK:
		return acked(ctx, x, resp, cpl);
	case SWNIC_RESP_NAK_REMOTE_ACCESS:
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, SWNIC_VSYND_NAK);
	case SWNIC_RESP_NAK_INVALID_REQ:
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, SWNIC_VSYND_NAK);
	case SWNIC_RESP_NAK_REMOTE_OP:
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR, SWNIC_VSYND_NAK);
	case SWNIC_RESP_NAK_RNR:
		OGDA_LOG_DBG("qp 0x%x wqe 0x%x: RNR NAK from qpn 0x%x, retry %u", qp->qpn, (unsigned)x->index,
			     x->req.dst_qpn, x->rnr_tries + 1u);
		return rnr_naked(ctx, x, swnic_now_ns(), wake_ns, cpl);
	case SWNIC_RESP_NO_QP:
		return transport_failed(ctx, x, swnic_now_ns(), wake_ns, cpl);
	default:
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_BAD_RESP_ERR, SWNIC_VSYND_BAD_RESPONSE);
	}
}

/* The payload is the application's memory: its MR must still be there, and stays while held. */
static doca_error_t hold_payload(struct swnic_qp *qp, const struct swnic_exec *x, struct swnic_mr_hold *h)
{
	memset(h, 0, sizeof(*h));
	if (!x->payload_is_sge)
		return DOCA_SUCCESS;
	return swnic_mr_hold(qp->nic, x->sge[0].lkey, false, qp->pd, x->sge[0].addr, x->sge[0].len, 0, h);
}

static enum swnic_exec_status attempt(const struct swnic_exec_ctx *ctx, struct swnic_exec *x, uint64_t now,
				      uint64_t *wake_ns, struct swnic_completion *cpl)
{
	struct swnic_qp *qp = ctx->qp;
	struct swnic_mr_hold h;
	struct swnic_resp resp;
	doca_error_t rc;

	memset(&resp, 0, sizeof(resp));
	x->attempt_ns = now;
	if (x->req.payload_kind == OGDA_MEM_GPU) {
		/* Not through a pipe: the bytes travel (gathered once; a retry resends them). */
		uint8_t vendor = swnic_xreq_gather_copy(qp, x);

		if (vendor != 0)
			return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, vendor);
	}
	rc = hold_payload(qp, x, &h);
	if (rc != DOCA_SUCCESS)
		return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, swnic_xreq_lkey_vendor(rc));
	rc = swnic_fabric_deliver(qp->nic, x->attrs.remote_gid, &x->req, &resp, x->read_dst,
				  swnic_exec_ack_timeout_ns(ctx->cfg, x->attrs.ack_timeout));
	swnic_mr_unhold(&h);
	return answered(ctx, x, rc, &resp, wake_ns, cpl);
}

bool swnic_exec_req_pipelinable(const struct swnic_qp *qp, uint16_t index)
{
	uint8_t opcode;
	uint16_t wqebbs;
	const uint8_t *ctrl;

	if (qp == NULL || qp->sq == NULL || (qp->st != PRM_QP_ST_RC && qp->st != PRM_QP_ST_UC))
		return false;
	swnic_sq_peek(qp, index, &opcode, &wqebbs);
	ctrl = qp->sq + ((size_t)(index & ((1u << qp->log_sq_wqebbs) - 1u)) << OPENGDA_MLX5_SEND_WQE_SHIFT);
	/* fm_ce_se (ctrl byte 11): any fence mode waits for what is in flight. */
	if ((ctrl[11] & 0xe0u) != 0)
		return false;
	return req_op(opcode) != 0;
}

enum swnic_exec_status swnic_exec_req_begin(const struct swnic_exec_ctx *ctx, struct swnic_exec *x, uint16_t index,
					    struct swnic_completion *cpl)
{
	if (ctx == NULL || ctx->qp == NULL || ctx->cfg == NULL || x == NULL || cpl == NULL) {
		OGDA_LOG_ERR("NULL argument");
		return SWNIC_EXEC_ABORTED;
	}
	x->index = index;
	x->posted = false;
	x->sync = false;
	x->done = false;
	return start(ctx, x, cpl);
}

enum swnic_post_status swnic_exec_req_post(const struct swnic_exec_ctx *ctx, struct swnic_exec *x,
					   struct swnic_fabric_pipe *pipe, bool oldest, uint64_t now_ns,
					   uint64_t *wake_ns, struct swnic_completion *cpl)
{
	struct swnic_qp *qp = ctx->qp;
	struct swnic_mr_hold h;
	bool by_ref = false;
	doca_error_t rc;

	rc = hold_payload(qp, x, &h);
	if (rc != DOCA_SUCCESS) {
		(void)finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, swnic_xreq_lkey_vendor(rc));
		return SWNIC_POST_DONE;
	}
	rc = swnic_fabric_pipe_post(pipe, x->attrs.remote_gid, &x->req,
				    x->req.payload_kind == OGDA_MEM_GPU ? &h.mr : NULL,
				    swnic_exec_ack_timeout_ns(ctx->cfg, x->attrs.ack_timeout), &by_ref);
	if (rc == DOCA_SUCCESS && by_ref)
		x->ref_hold = h; /* the responder reads the payload in place: held until the answer */
	else
		swnic_mr_unhold(&h); /* the pipe copied the payload */
	switch (rc) {
	case DOCA_SUCCESS:
		x->posted = true;
		x->attempt_ns = now_ns;
		return SWNIC_POST_SENT;
	case DOCA_ERROR_AGAIN:
		return SWNIC_POST_FULL;
	case DOCA_ERROR_NOT_SUPPORTED:
		x->sync = true;
		return SWNIC_POST_UNPIPED;
	case DOCA_ERROR_IO_FAILED: /* its GPU payload could not be read: local, as a failed gather */
		(void)finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, SWNIC_VSYND_LOCAL_COPY);
		return SWNIC_POST_DONE;
	case DOCA_ERROR_CONNECTION_RESET:
	case DOCA_ERROR_TIME_OUT:
	case DOCA_ERROR_NOT_CONNECTED:
		if (!oldest)
			return SWNIC_POST_FULL; /* the connection went with the requests before it */
		/* fall through */
	default: {
		struct swnic_resp none = {0};

		x->attempt_ns = now_ns;
		return answered(ctx, x, rc, &none, wake_ns, cpl) == SWNIC_EXEC_DONE ? SWNIC_POST_DONE
										      : SWNIC_POST_RETRY;
	}
	}
}

enum swnic_exec_status swnic_exec_req_answer(const struct swnic_exec_ctx *ctx, struct swnic_exec *x,
					     struct swnic_fabric_pipe *pipe, bool block, uint64_t now_ns,
					     uint64_t *wake_ns, struct swnic_completion *cpl)
{
	struct swnic_resp resp;
	doca_error_t rc;

	(void)now_ns;
	rc = swnic_fabric_pipe_answer(pipe, &x->req, &resp, x->read_dst, block);
	if (rc == DOCA_ERROR_AGAIN)
		return SWNIC_EXEC_PENDING;
	swnic_exec_req_unpost(x);
	return answered(ctx, x, rc, &resp, wake_ns, cpl);
}

enum swnic_exec_status swnic_exec_req_step(const struct swnic_exec_ctx *ctx, struct swnic_exec *x, uint64_t now_ns,
					   uint64_t *wake_ns, struct swnic_completion *cpl)
{
	enum swnic_exec_status st;

	if (ctx == NULL || ctx->qp == NULL || ctx->cfg == NULL || x == NULL || wake_ns == NULL || cpl == NULL) {
		OGDA_LOG_ERR("NULL argument");
		return SWNIC_EXEC_ABORTED;
	}
	if (ctx->qp->sq == NULL || ctx->qp->sq_ci == ctx->qp->sq_target) {
		OGDA_LOG_ERR("qp 0x%x: no WQE to execute", ctx->qp->qpn);
		return SWNIC_EXEC_ABORTED;
	}
	if (!x->active) {
		x->index = ctx->qp->sq_ci;
		st = start(ctx, x, cpl);
		if (st != SWNIC_EXEC_PENDING)
			return st;
	}
	if (x->wqe.opcode == OPENGDA_MLX5_OPCODE_WAIT && x->wqe.opmod == OPENGDA_MLX5_OPMOD_WAIT_TIME) {
		uint8_t vendor = 0;
		int due = swnic_eth_wait_time_due(&x->wqe.wait, now_ns, wake_ns, &vendor);

		if (due < 0)
			return finish(x, cpl, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, vendor);
		return due ? finish(x, cpl, 0, 0) : SWNIC_EXEC_PENDING;
	}
	if (x->wqe.opcode == OPENGDA_MLX5_OPCODE_WAIT)
		return step_wait(ctx, x, cpl);
	if (x->next_try_ns > now_ns) {
		if (x->next_try_ns < *wake_ns)
			*wake_ns = x->next_try_ns;
		return SWNIC_EXEC_PENDING;
	}
	return attempt(ctx, x, now_ns, wake_ns, cpl);
}
