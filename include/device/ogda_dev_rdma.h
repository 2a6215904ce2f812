/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_rdma.h
 * @brief The RDMA high-level device API (C core of doca_gpunetio_dev_rdma.cuh; CUDA and host
 *        threads): write / write_inline / read / send / send_inline in strong and weak forms,
 *        commits, wait_all, receives.
 *
 * A doca_rdma context (src/rdma/) exports one QP per connection. Every operation is one WQE on
 * the connection's QP, posted through the shared send-queue protocol (ogda_dev_sq.h):
 * - strong: the operation reserves its slot itself (one atomic), writes the WQE and publishes it
 *   without ringing; commit_strong rings once for everything published. Any number of threads, in
 *   any number of blocks, may post strong operations on one connection at once and any thread may
 *   commit: the ringer lock and help-forward publication make the doorbell cover every published
 *   WQE. DOCA documents strong mode as one block per connection; this has no such restriction.
 * - weak: the caller picks positions (get_info: current position and mask; positions gap-free);
 *   each thread waits for its slot to be free, writes its WQE, and commit_weak(num_ops) reserves
 *   and publishes the num_ops positions at once and rings. Strong and weak must not be mixed on one
 *   connection between two commits.
 * Receives go to the SRQ every connection shares (ogda_dev_rq.h), strong or weak likewise, and
 * complete on one shared CQ; recv_wait_all reports the completions in order with their
 * immediates and the connection each arrived on.
 * Errors: DOCA_ERROR_INVALID_VALUE for bad arguments; DOCA_ERROR_IO_FAILED for an error
 * completion (its syndrome: opengda_gpu_dev_rdma_last_error / _recv_last_error);
 * DOCA_ERROR_TIME_OUT when a wait passed the context's bound. Nothing spins without that bound.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_RDMA_H
#define OGDA_DEV_RDMA_H

#include "ogda_dev_buf.h"
#include "ogda_dev_ops.h"
#include "ogda_dev_rq.h"
#include "ogda_dev_send.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OGDA_DEV_RDMA_MAX_CONN 64u
/** Inline bytes of a write (one WQEBB with the remote address) and of a send (no address). */
#define OGDA_DEV_RDMA_WRITE_INLINE_MAX 28u
#define OGDA_DEV_RDMA_SEND_INLINE_MAX 44u

enum doca_gpu_dev_rdma_write_flags {
	DOCA_GPU_RDMA_WRITE_FLAG_NONE = 0,
	DOCA_GPU_RDMA_WRITE_FLAG_IMM = 1,
};

enum doca_gpu_dev_rdma_send_flags {
	DOCA_GPU_RDMA_SEND_FLAG_NONE = 0,
	DOCA_GPU_RDMA_SEND_FLAG_IMM = 1,
};

enum doca_gpu_dev_rdma_recv_wait_flags {
	DOCA_GPU_RDMA_RECV_WAIT_FLAG_NB = 0, /**< Report what has arrived, do not wait. */
	DOCA_GPU_RDMA_RECV_WAIT_FLAG_B = 1,  /**< Wait for every posted receive. */
};

/**
 * The receive side of a doca_gpu_dev_rdma (doca_gpu_dev_rdma_get_recv): the SRQ and receive CQ
 * every connection shares (src/rdma/rdma_recv.c). Receive i is SRQ WQE i; completions arrive on
 * the CQ in the order the NIC took the WQEs, each naming its QP, which qpn[] maps to a connection.
 */
struct doca_gpu_dev_rdma_r {
	struct opengda_gpu_dev_verbs_srq *srq; /**< The shared SRQ (receives are posted here). */
	struct doca_gpu_dev_verbs_cq *cq;      /**< The shared receive CQ. */
	uint64_t reported;                     /**< Receives recv_wait_all has reported so far. */
	uint32_t nconn;                        /**< Entries of qpn[]. */
	uint32_t reserved;
	uint32_t qpn[OGDA_DEV_RDMA_MAX_CONN];  /**< QP number of each connection. */
};

/** The device handle of a doca_rdma (doca_rdma_get_gpu_handle), in memory the executing threads use. */
struct doca_gpu_dev_rdma {
	uint32_t nconn;                                       /**< Connections (exported QPs). */
	uint32_t nic_handler;                                 /**< Handler in effect (never AUTO). */
	struct doca_gpu_dev_rdma_r recv;
	struct doca_gpu_dev_verbs_qp *qp[OGDA_DEV_RDMA_MAX_CONN]; /**< Device view of each connection. */
	uint64_t waited[OGDA_DEV_RDMA_MAX_CONN];              /**< Operations wait_all has counted. */
};

/** A device-core return code as a doca_error_t. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_status(int rc)
{
	if (rc == 0)
		return DOCA_SUCCESS;
	if (OPENGDA_DEV_IS_CQE_ERROR(rc))
		return DOCA_ERROR_IO_FAILED;
	return rc == -OPENGDA_DEV_ETIMEDOUT ? DOCA_ERROR_TIME_OUT : DOCA_ERROR_INVALID_VALUE;
}

/** Connection @p conn's QP, or NULL when @p rdma is NULL or @p conn out of range. */
OGDA_DEV_FN struct doca_gpu_dev_verbs_qp *ogda_dev_rdma_qp(struct doca_gpu_dev_rdma *rdma, uint32_t conn)
{
	return rdma == 0 || conn >= rdma->nconn ? 0 : rdma->qp[conn];
}

/** The absolute index of caller position @p pos in a ring of @p mask + 1 whose next free index is @p next. */
OGDA_DEV_FN uint64_t ogda_dev_rdma_abs(uint64_t next, uint32_t pos, uint32_t mask)
{
	return next + (((uint64_t)pos - next) & mask);
}

/**
 * The slot of one operation: strong reserves it (and waits for it); weak maps @p position and
 * waits for that slot to be free. Returns 0 or the core's error.
 */
OGDA_DEV_FN int ogda_dev_rdma_slot(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_dev_verbs_qp *qp, int weak,
				   uint32_t position, uint64_t *idx)
{
	if (!weak)
		return ogda_dev_post_begin(qp, 1, OGDA_DEV_SHARE_GPU, rdma->nic_handler, 0, idx);
	*idx = ogda_dev_rdma_abs(ogda_dev_load_acquire_u64(&qp->sq_rsvd_index, OGDA_DEV_SHARE_GPU), position,
				 qp->sq_wqe_mask);
	return ogda_dev_sq_wait_slots(qp, *idx, 1, OGDA_DEV_SHARE_GPU);
}

/** After the WQE: strong publishes it (the commit rings); weak leaves it to commit_weak. */
OGDA_DEV_FN void ogda_dev_rdma_done(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_dev_verbs_qp *qp, int weak,
				    uint64_t idx)
{
	if (!weak)
		ogda_dev_post_end(qp, idx, 1, OGDA_DEV_SHARE_GPU, rdma->nic_handler,
				  DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING);
}

/**
 * RDMA WRITE (with immediate @p imm_be when @p flags has DOCA_GPU_RDMA_WRITE_FLAG_IMM) of @p len
 * (<= 1 GiB) bytes from @p local + @p l_off to @p remote + @p r_off; or, with @p read, RDMA READ
 * the other way.
 */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_xfer(struct doca_gpu_dev_rdma *rdma, uint32_t conn, const struct doca_gpu_buf *remote,
					    uint64_t r_off, const struct doca_gpu_buf *local, uint64_t l_off,
					    uint64_t len, uint32_t imm_be, uint32_t flags, int read, int weak,
					    uint32_t position)
{
	struct doca_gpu_dev_verbs_qp *qp = ogda_dev_rdma_qp(rdma, conn);
	uint8_t opcode = read ? OPENGDA_MLX5_OPCODE_RDMA_READ
			      : (flags & DOCA_GPU_RDMA_WRITE_FLAG_IMM) ? OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM
								       : OPENGDA_MLX5_OPCODE_RDMA_WRITE;
	uint64_t idx;
	int rc;

	if (qp == 0 || remote == 0 || (local == 0 && len != 0) || len > OGDA_DEV_MAX_MSG)
		return DOCA_ERROR_INVALID_VALUE;
	rc = ogda_dev_rdma_slot(rdma, qp, weak, position, &idx);
	if (rc != 0)
		return ogda_dev_rdma_status(rc);
	ogda_dev_wqe_rdma(qp, ogda_dev_wqe_ptr(qp, idx), idx, opcode, OGDA_DEV_CQ_UPDATE, read ? 0 : imm_be,
			  remote->addr + r_off, remote->mkey_be, local != 0 ? local->addr + l_off : 0,
			  local != 0 ? local->mkey_be : 0, (uint32_t)len, 0, 0, 0);
	ogda_dev_rdma_done(rdma, qp, weak, idx);
	return DOCA_SUCCESS;
}

/** Inline RDMA WRITE (with immediate per @p flags) of @p len <= 28 bytes at @p data. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_write_inl(struct doca_gpu_dev_rdma *rdma, uint32_t conn,
						 const struct doca_gpu_buf *remote, uint64_t r_off, const uint8_t *data,
						 uint32_t len, uint32_t imm_be, uint32_t flags, int weak,
						 uint32_t position)
{
	struct doca_gpu_dev_verbs_qp *qp = ogda_dev_rdma_qp(rdma, conn);
	uint64_t idx;
	int rc;

	if (qp == 0 || remote == 0 || (data == 0 && len != 0) || len > OGDA_DEV_RDMA_WRITE_INLINE_MAX)
		return DOCA_ERROR_INVALID_VALUE;
	rc = ogda_dev_rdma_slot(rdma, qp, weak, position, &idx);
	if (rc != 0)
		return ogda_dev_rdma_status(rc);
	ogda_dev_wqe_write_inl(qp, ogda_dev_wqe_ptr(qp, idx), idx,
			       (flags & DOCA_GPU_RDMA_WRITE_FLAG_IMM) ? OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM
								      : OPENGDA_MLX5_OPCODE_RDMA_WRITE,
			       OGDA_DEV_CQ_UPDATE, imm_be, remote->addr + r_off, remote->mkey_be, data, len);
	ogda_dev_rdma_done(rdma, qp, weak, idx);
	return DOCA_SUCCESS;
}

/** SEND (with immediate per @p flags) of @p len (<= 1 GiB; 0: no data) bytes at @p buf + @p off. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_send(struct doca_gpu_dev_rdma *rdma, uint32_t conn, const struct doca_gpu_buf *buf,
					    uint64_t off, uint64_t len, uint32_t imm_be, uint32_t flags, int weak,
					    uint32_t position)
{
	struct doca_gpu_dev_verbs_qp *qp = ogda_dev_rdma_qp(rdma, conn);
	struct ogda_dev_sge sge;
	uint64_t idx;
	int rc;

	if (qp == 0 || (buf == 0 && len != 0) || len > OGDA_DEV_MAX_MSG)
		return DOCA_ERROR_INVALID_VALUE;
	rc = ogda_dev_rdma_slot(rdma, qp, weak, position, &idx);
	if (rc != 0)
		return ogda_dev_rdma_status(rc);
	sge.addr = buf != 0 ? buf->addr + off : 0;
	sge.lkey_be = buf != 0 ? buf->mkey_be : 0;
	sge.bytes = (uint32_t)len;
	ogda_dev_wqe_send(qp, ogda_dev_wqe_ptr(qp, idx), idx,
			  (flags & DOCA_GPU_RDMA_SEND_FLAG_IMM) ? OPENGDA_MLX5_OPCODE_SEND_IMM : OPENGDA_MLX5_OPCODE_SEND,
			  OGDA_DEV_CQ_UPDATE, imm_be, &sge, len == 0 ? 0u : 1u);
	ogda_dev_rdma_done(rdma, qp, weak, idx);
	return DOCA_SUCCESS;
}

/** SEND of @p len <= 44 bytes carried in the WQE (ctrl, then one inline segment). */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_send_inl(struct doca_gpu_dev_rdma *rdma, uint32_t conn, const uint8_t *data,
						uint32_t len, uint32_t imm_be, uint32_t flags, int weak, uint32_t position)
{
	struct doca_gpu_dev_verbs_qp *qp = ogda_dev_rdma_qp(rdma, conn);
	uint8_t img[48] = {0};
	uint32_t hdr = opengda_mlx5_htobe32(len | OPENGDA_MLX5_INLINE_SEG), k, ds;
	uint8_t *w;
	uint64_t idx, lo, hi;
	int rc;

	if (qp == 0 || (data == 0 && len != 0) || len > OGDA_DEV_RDMA_SEND_INLINE_MAX)
		return DOCA_ERROR_INVALID_VALUE;
	rc = ogda_dev_rdma_slot(rdma, qp, weak, position, &idx);
	if (rc != 0)
		return ogda_dev_rdma_status(rc);
	ds = 1u + (OPENGDA_MLX5_INLINE_HDR_SIZE + len + 15u) / 16u;
	w = (uint8_t *)ogda_dev_wqe_ptr(qp, idx);
	ogda_dev_store_seg(w, ogda_dev_ctrl_lo(idx,
					       (flags & DOCA_GPU_RDMA_SEND_FLAG_IMM) ? OPENGDA_MLX5_OPCODE_SEND_IMM
										     : OPENGDA_MLX5_OPCODE_SEND,
					       0, ogda_dev_qpn_ds(qp, ds)),
			   ogda_dev_ctrl_hi(OGDA_DEV_CQ_UPDATE, imm_be));
	opengda_mlx5_copy_bytes(img, &hdr, 4);
	opengda_mlx5_copy_bytes(img + 4, data, len);
	for (k = 0; k + 1 < ds; k++) {
		opengda_mlx5_copy_bytes(&lo, img + 16 * k, 8);
		opengda_mlx5_copy_bytes(&hi, img + 16 * k + 8, 8);
		ogda_dev_store_seg(w + 16 * (k + 1), lo, hi);
	}
	ogda_dev_rdma_done(rdma, qp, weak, idx);
	return DOCA_SUCCESS;
}

/** commit_strong: rings connection @p conn's doorbell for every published operation. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_commit_strong(struct doca_gpu_dev_rdma *rdma, uint32_t conn)
{
	struct doca_gpu_dev_verbs_qp *qp = ogda_dev_rdma_qp(rdma, conn);

	if (qp == 0)
		return DOCA_ERROR_INVALID_VALUE;
	ogda_dev_sq_submit(qp, 0, OGDA_DEV_SHARE_GPU, rdma->nic_handler);
	return DOCA_SUCCESS;
}

/** commit_weak: takes the @p num_ops positions the weak calls wrote, publishes them and rings. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_commit_weak(struct doca_gpu_dev_rdma *rdma, uint32_t conn, uint32_t num_ops)
{
	struct doca_gpu_dev_verbs_qp *qp = ogda_dev_rdma_qp(rdma, conn);
	uint64_t base;

	if (qp == 0 || num_ops > qp->sq_wqe_num)
		return DOCA_ERROR_INVALID_VALUE;
	if (num_ops == 0)
		return DOCA_SUCCESS;
	base = ogda_dev_sq_reserve(qp, num_ops, OGDA_DEV_SHARE_GPU);
	if (ogda_dev_sq_mark_ready(qp, base, base + num_ops - 1, OGDA_DEV_SHARE_GPU))
		ogda_dev_sq_submit(qp, base + num_ops, OGDA_DEV_SHARE_GPU, rdma->nic_handler);
	return DOCA_SUCCESS;
}

/**
 * wait_all: waits until every operation posted on every connection has completed; @p num_commits
 * (optional) gets how many completed since the previous wait_all. One thread at a time.
 */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_wait_all(struct doca_gpu_dev_rdma *rdma, uint32_t *num_commits)
{
	uint64_t n = 0;
	uint32_t c;

	if (rdma == 0)
		return DOCA_ERROR_INVALID_VALUE;
	for (c = 0; c < rdma->nconn; c++) {
		struct doca_gpu_dev_verbs_qp *qp = rdma->qp[c];
		uint64_t rsvd = ogda_dev_load_acquire_u64(&qp->sq_rsvd_index, OGDA_DEV_SHARE_GPU);
		int rc;

		if (rsvd <= rdma->waited[c])
			continue;
		rc = ogda_dev_qp_wait_index(qp, rsvd - 1, OGDA_DEV_SHARE_GPU);
		if (rc != 0)
			return ogda_dev_rdma_status(rc);
		n += rsvd - rdma->waited[c];
		rdma->waited[c] = rsvd;
	}
	if (num_commits != 0)
		*num_commits = (uint32_t)n;
	return DOCA_SUCCESS;
}

/** get_info: the next free position of connection @p conn and the mask positions wrap with. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_get_info(struct doca_gpu_dev_rdma *rdma, uint32_t conn, uint32_t *curr_position,
						uint32_t *mask_max_position)
{
	struct doca_gpu_dev_verbs_qp *qp = ogda_dev_rdma_qp(rdma, conn);

	if (qp == 0 || curr_position == 0 || mask_max_position == 0)
		return DOCA_ERROR_INVALID_VALUE;
	*mask_max_position = qp->sq_wqe_mask;
	*curr_position = (uint32_t)(ogda_dev_load_acquire_u64(&qp->sq_rsvd_index, OGDA_DEV_SHARE_GPU) & qp->sq_wqe_mask);
	return DOCA_SUCCESS;
}

/**
 * The syndrome of @p cq's first error completion: an error CQE does not move cqe_ci and every
 * later one is a flush, so the first unconsumed CQE answers. DOCA_ERROR_NOT_FOUND when it is not
 * an error (not there yet, or a success, which this consumes).
 */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_first_error(struct doca_gpu_dev_verbs_cq *cq, uint8_t *syndrome)
{
	int rc = ogda_dev_cq_poll_one_at(cq, ogda_dev_cq_ci(cq, OGDA_DEV_SHARE_GPU), OGDA_DEV_SHARE_GPU);

	if (!OPENGDA_DEV_IS_CQE_ERROR(rc))
		return DOCA_ERROR_NOT_FOUND;
	*syndrome = OPENGDA_DEV_CQE_ERROR_SYNDROME(rc);
	return DOCA_SUCCESS;
}

/** OpenGDA: the syndrome of connection @p conn's first error completion; DOCA_ERROR_NOT_FOUND when none. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_last_error(struct doca_gpu_dev_rdma *rdma, uint32_t conn, uint8_t *syndrome)
{
	struct doca_gpu_dev_verbs_qp *qp = ogda_dev_rdma_qp(rdma, conn);

	if (qp == 0 || syndrome == 0)
		return DOCA_ERROR_INVALID_VALUE;
	return ogda_dev_rdma_first_error(&qp->cq_sq, syndrome);
}

/* ---- receive side ---------------------------------------------------------------------------- */

/** get_recv: the receive side of @p rdma. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_get_recv(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_dev_rdma_r **rdma_r)
{
	if (rdma == 0 || rdma_r == 0 || rdma->recv.srq == 0 || rdma->recv.cq == 0)
		return DOCA_ERROR_INVALID_VALUE;
	*rdma_r = &rdma->recv;
	return DOCA_SUCCESS;
}

/**
 * The shared SRQ as a receive queue whose space is tracked on the shared CQ: slot i may be
 * written again once CQE i - wqe_num exists (the NIC takes SRQ WQEs in ring order).
 */
OGDA_DEV_FN struct ogda_dev_rq ogda_dev_rdma_rq(struct doca_gpu_dev_rdma_r *r)
{
	struct ogda_dev_rq rq = ogda_dev_srq_rq(r->srq);

	rq.cq = r->cq;
	return rq;
}

/**
 * recv (strong: next slot; weak: at @p position): a receive of up to @p len bytes into @p buf +
 * @p offset; @p buf NULL with @p len 0 takes a message without data (a write with immediate).
 * Published at once; the commit makes the NIC see it.
 */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_recv(struct doca_gpu_dev_rdma_r *r, const struct doca_gpu_buf *buf, uint64_t len,
					    uint64_t offset, int weak, uint32_t position)
{
	struct ogda_dev_rq rq;
	uint64_t idx;
	int rc;

	if (r == 0 || (buf == 0 && len != 0) || len > OGDA_DEV_MAX_MSG)
		return DOCA_ERROR_INVALID_VALUE;
	rq = ogda_dev_rdma_rq(r);
	if (!weak) {
		rc = ogda_dev_rq_post_begin(&rq, 1, OGDA_DEV_SHARE_GPU, &idx);
	} else {
		idx = ogda_dev_rdma_abs(ogda_dev_load_acquire_u64(rq.rsvd_index, OGDA_DEV_SHARE_GPU), position,
					rq.wqe_mask);
		rc = ogda_dev_rq_wait_slots(&rq, idx, 1, OGDA_DEV_SHARE_GPU);
	}
	if (rc != 0)
		return ogda_dev_rdma_status(rc);
	if (buf != 0)
		ogda_dev_rwqe_write(&rq, ogda_dev_rwqe_ptr(&rq, idx), buf->addr + offset, buf->mkey_be, (uint32_t)len);
	else
		ogda_dev_rwqe_write(&rq, ogda_dev_rwqe_ptr(&rq, idx), 0, opengda_mlx5_htobe32(OPENGDA_MLX5_INVALID_LKEY), 0);
	if (!weak && ogda_dev_rq_mark_ready(&rq, idx, idx, OGDA_DEV_SHARE_GPU) != 0)
		return DOCA_ERROR_TIME_OUT;
	return DOCA_SUCCESS;
}

/** recv_commit_strong: makes every published receive visible to the NIC. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_recv_commit_strong(struct doca_gpu_dev_rdma_r *r)
{
	struct ogda_dev_rq rq;

	if (r == 0)
		return DOCA_ERROR_INVALID_VALUE;
	rq = ogda_dev_rdma_rq(r);
	return ogda_dev_rdma_status(ogda_dev_rq_submit(&rq, OGDA_DEV_SHARE_GPU));
}

/** recv_commit_weak: takes the @p num_ops positions the weak receives wrote, publishes them, commits. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_recv_commit_weak(struct doca_gpu_dev_rdma_r *r, uint32_t num_ops)
{
	struct ogda_dev_rq rq;
	uint64_t base;

	if (r == 0)
		return DOCA_ERROR_INVALID_VALUE;
	rq = ogda_dev_rdma_rq(r);
	if (num_ops > rq.wqe_num)
		return DOCA_ERROR_INVALID_VALUE;
	if (num_ops == 0)
		return DOCA_SUCCESS;
	base = ogda_dev_rq_reserve(&rq, num_ops, OGDA_DEV_SHARE_GPU);
	if (ogda_dev_rq_mark_ready(&rq, base, base + num_ops - 1, OGDA_DEV_SHARE_GPU) != 0)
		return DOCA_ERROR_TIME_OUT;
	return ogda_dev_rdma_status(ogda_dev_rq_submit(&rq, OGDA_DEV_SHARE_GPU));
}

/** The connection whose QP number is in @p cqe (the shared CQ serves them all); nconn when unknown. */
OGDA_DEV_FN uint32_t ogda_dev_rdma_conn_of(const struct doca_gpu_dev_rdma_r *r, const struct opengda_mlx5_cqe64 *cqe)
{
	uint32_t qpn = opengda_mlx5_be32toh(ogda_dev_load_nic_u32(&cqe->sop_drop_qpn)) & 0xffffffu;
	uint32_t c;

	for (c = 0; c < r->nconn && r->qpn[c] != qpn; c++)
		;
	return c;
}

/**
 * recv_wait_all: reports, in the order they completed, the receives completed since the
 * previous call: their number in @p num_ops, their immediates (network order, 0 without one) in
 * @p imm_vals and the connection each arrived on in @p conn_idx (both optional; room for every
 * receive posted). With DOCA_GPU_RDMA_RECV_WAIT_FLAG_B it waits for every posted receive
 * (bounded). One thread at a time.
 */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_recv_wait_all(struct doca_gpu_dev_rdma_r *r, uint32_t flags, uint32_t *num_ops,
						     uint32_t *imm_vals, uint32_t *conn_idx)
{
	uint64_t posted, i;
	uint32_t k = 0;
	int rc = 0;

	if (r == 0 || num_ops == 0 || flags > DOCA_GPU_RDMA_RECV_WAIT_FLAG_B)
		return DOCA_ERROR_INVALID_VALUE;
	posted = ogda_dev_load_acquire_u64(&r->srq->rq_rsvd_index, OGDA_DEV_SHARE_GPU);
	for (i = r->reported; i < posted; i++, k++) {
		const struct opengda_mlx5_cqe64 *cqe;

		rc = flags == DOCA_GPU_RDMA_RECV_WAIT_FLAG_B ? ogda_dev_cq_poll_at(r->cq, i, OGDA_DEV_SHARE_GPU)
							     : ogda_dev_cq_poll_one_at(r->cq, i, OGDA_DEV_SHARE_GPU);
		if (rc != 0)
			break;
		cqe = (const struct opengda_mlx5_cqe64 *)(const void *)ogda_dev_cqe_at(r->cq, i + r->cq->cqe_rsvd);
		if (imm_vals != 0)
			imm_vals[k] = ogda_dev_load_nic_u32(&cqe->imm_inval_pkey);
		if (conn_idx != 0)
			conn_idx[k] = ogda_dev_rdma_conn_of(r, cqe);
	}
	r->reported = i;
	*num_ops = k;
	return rc == OPENGDA_DEV_EBUSY ? DOCA_SUCCESS : ogda_dev_rdma_status(rc);
}

/** recv_get_info: the next free receive position and the mask positions wrap with. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_recv_get_info(struct doca_gpu_dev_rdma_r *r, uint32_t *curr_position,
						     uint32_t *mask_max_position)
{
	if (r == 0 || curr_position == 0 || mask_max_position == 0)
		return DOCA_ERROR_INVALID_VALUE;
	*mask_max_position = r->srq->rq_wqe_mask;
	*curr_position = (uint32_t)(ogda_dev_load_acquire_u64(&r->srq->rq_rsvd_index, OGDA_DEV_SHARE_GPU) &
				    r->srq->rq_wqe_mask);
	return DOCA_SUCCESS;
}

/** OpenGDA: the syndrome of the first failed receive; DOCA_ERROR_NOT_FOUND when none. */
OGDA_DEV_FN doca_error_t ogda_dev_rdma_recv_last_error(struct doca_gpu_dev_rdma_r *r, uint8_t *syndrome)
{
	if (r == 0 || syndrome == 0)
		return DOCA_ERROR_INVALID_VALUE;
	return ogda_dev_rdma_first_error(r->cq, syndrome);
}

#ifdef __cplusplus
}
#endif

#endif /* OGDA_DEV_RDMA_H */
