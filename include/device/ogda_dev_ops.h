/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_ops.h
 * @brief One-sided operations of the device data path (C core): put, p, put_signal, p_signal,
 *        signal, get, wait, fence and their counter forms.
 *
 * Each operation has two layers:
 * - `ogda_dev_prep_*` writes the operation's WQEs at a given index and returns how many WQEBBs it
 *   used (`ogda_dev_*_nwqe` says how many it needs beforehand). Warp and block scopes use these:
 *   one reservation for the group, each thread preparing its own part.
 * - `ogda_dev_op_*` is the thread-scope operation: reserve, wait for space, prepare, publish, ring.
 *   It returns 0 or a negative error (OPENGDA_DEV_CQE_ERROR(syndrome) met while waiting for space,
 *   -OPENGDA_DEV_ETIMEDOUT) and stores the ticket (index of its last WQE) when @p ticket is not NULL.
 *
 * Every WQE is signaled (CQ update), so tickets are CQE indices and space is tracked by the CQ.
 * Keys are big-endian (DOCA_GPUNETIO_VERBS_MKEY_SWAPPED).
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_OPS_H
#define OGDA_DEV_OPS_H

#include "ogda_dev_sq.h"

#define OGDA_DEV_CQ_UPDATE ((uint8_t)OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE)
#define OGDA_DEV_MAX_MSG DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE

/* ---- sizes ----------------------------------------------------------------------------------- */

/** WQEs of a put/get of @p size bytes (one per 1 GiB; a zero-byte transfer is one WQE). */
OGDA_DEV_FN uint32_t ogda_dev_xfer_nwqe(uint64_t size)
{
	return size == 0 ? 1u : (uint32_t)((size + OGDA_DEV_MAX_MSG - 1) / OGDA_DEV_MAX_MSG);
}

/** WQEs of a get: the reads, plus one DUMP when @p dump (DOCA's MCST_ENABLED). */
OGDA_DEV_FN uint32_t ogda_dev_get_nwqe(uint64_t size, int dump)
{
	return ogda_dev_xfer_nwqe(size) + (dump ? 1u : 0u);
}

/* ---- preparing WQEs at a known index --------------------------------------------------------- */

/** RDMA WRITE (or READ, by @p opcode) of @p size bytes split in 1 GiB pieces. */
OGDA_DEV_FN uint32_t ogda_dev_prep_xfer(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, uint8_t opcode,
					struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr,
					uint64_t size)
{
	uint32_t n = ogda_dev_xfer_nwqe(size), k;

	for (k = 0; k < n; k++) {
		uint64_t off = (uint64_t)k * OGDA_DEV_MAX_MSG;
		uint64_t len = size - off < OGDA_DEV_MAX_MSG ? size - off : OGDA_DEV_MAX_MSG;

		ogda_dev_wqe_rdma(qp, ogda_dev_wqe_ptr(qp, idx + k), idx + k, opcode, OGDA_DEV_CQ_UPDATE, 0,
				  raddr.addr + off, raddr.key, laddr.addr + off, laddr.key, (uint32_t)len, 0, 0, 0);
	}
	return n;
}

/** Inline RDMA WRITE of @p len <= 8 bytes at @p data. */
OGDA_DEV_FN uint32_t ogda_dev_prep_p(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx,
				     struct doca_gpu_dev_verbs_addr raddr, const void *data, uint32_t len)
{
	ogda_dev_wqe_write_inl(qp, ogda_dev_wqe_ptr(qp, idx), idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, OGDA_DEV_CQ_UPDATE, 0,
			       raddr.addr, raddr.key, data, len);
	return 1;
}

/** 8-byte fetch-and-add of @p value on @p sig_raddr; the old value lands at @p sig_laddr. */
OGDA_DEV_FN uint32_t ogda_dev_prep_signal(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx,
					  struct doca_gpu_dev_verbs_addr sig_raddr,
					  struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t value)
{
	ogda_dev_wqe_atomic(qp, ogda_dev_wqe_ptr(qp, idx), idx, OPENGDA_MLX5_OPCODE_ATOMIC_FA, OGDA_DEV_CQ_UPDATE,
			    sig_raddr.addr, sig_raddr.key, sig_laddr.addr, sig_laddr.key, value, 0);
	return 1;
}

/**
 * RDMA READs of @p size bytes into @p laddr, then (when @p dump) a one-byte DUMP of @p laddr:
 * its completion means the read data is visible in (GPU) memory.
 */
OGDA_DEV_FN uint32_t ogda_dev_prep_get(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx,
				       struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr,
				       uint64_t size, int dump)
{
	uint32_t n = ogda_dev_prep_xfer(qp, idx, OPENGDA_MLX5_OPCODE_RDMA_READ, raddr, laddr, size);

	if (dump) {
		ogda_dev_wqe_dump(qp, idx + n, OGDA_DEV_CQ_UPDATE, laddr.addr, laddr.key, 1);
		n++;
	}
	return n;
}

/**
 * Companion-QP part of a counter operation: WAIT until the main QP's CQ has produced the CQE of
 * @p main_ticket, then fetch-and-add @p value on the counter. Two WQEBBs.
 */
OGDA_DEV_FN uint32_t ogda_dev_prep_counter(struct doca_gpu_dev_verbs_qp *companion, uint64_t idx,
					   const struct doca_gpu_dev_verbs_qp *main_qp, uint64_t main_ticket,
					   struct doca_gpu_dev_verbs_addr counter_raddr,
					   struct doca_gpu_dev_verbs_addr counter_laddr, uint64_t value)
{
	ogda_dev_wqe_wait(companion, idx, OGDA_DEV_CQ_UPDATE, main_qp->cq_sq.cq_num,
			  (uint32_t)(main_ticket + main_qp->cq_sq.cqe_rsvd));
	ogda_dev_prep_signal(companion, idx + 1, counter_raddr, counter_laddr, value);
	return 2;
}

/* ---- reserve / publish ----------------------------------------------------------------------- */

/**
 * Reserves @p count WQEBBs and waits until they may be written. On an error completion the slots
 * are published as NOPs (later posts are not stranded) and the error returned; on a timeout they
 * stay unpublished (the NIC may still own them).
 */
OGDA_DEV_FN int ogda_dev_post_begin(struct doca_gpu_dev_verbs_qp *qp, uint32_t count, int sharing, uint32_t handler,
				    uint32_t code_opt, uint64_t *base)
{
	int rc;

	*base = ogda_dev_sq_reserve(qp, count, sharing);
	if (code_opt & DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_AVAILABILITY_CHECK)
		return 0;
	rc = ogda_dev_sq_wait_slots(qp, *base, count, sharing);
	if (OGDA_DEV_UNLIKELY(rc != 0) && OPENGDA_DEV_IS_CQE_ERROR(rc))
		ogda_dev_sq_fill_nops(qp, *base, count, sharing, handler);
	return rc;
}

/** Publishes WQEBBs [base, base + count) and rings unless SKIP_DB_RINGING. */
OGDA_DEV_FN void ogda_dev_post_end(struct doca_gpu_dev_verbs_qp *qp, uint64_t base, uint32_t count, int sharing,
				   uint32_t handler, uint32_t code_opt)
{
	if (sharing != OGDA_DEV_SHARE_EXCLUSIVE && !(code_opt & DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING)) {
		ogda_dev_sq_post_shared(qp, base, base + count - 1, sharing, handler);
		return;
	}
	if (ogda_dev_sq_mark_ready(qp, base, base + count - 1, sharing) &&
	    !(code_opt & DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING))
		ogda_dev_sq_submit(qp, base + count, sharing, handler);
}

OGDA_DEV_FN void ogda_dev_set_ticket(uint64_t *ticket, uint64_t value)
{
	if (ticket != 0)
		*ticket = value;
}

/* ---- thread-scope operations ----------------------------------------------------------------- */

/** put: RDMA WRITE of @p size bytes from @p laddr to @p raddr. */
OGDA_DEV_FN int ogda_dev_op_put(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
				struct doca_gpu_dev_verbs_addr laddr, uint64_t size, int sharing, uint32_t handler,
				uint32_t code_opt, uint64_t *ticket)
{
	uint32_t n = ogda_dev_xfer_nwqe(size);
	uint64_t base;
	int rc = ogda_dev_post_begin(qp, n, sharing, handler, code_opt, &base);

	ogda_dev_set_ticket(ticket, base + n - 1);
	if (rc != 0)
		return rc;
	ogda_dev_prep_xfer(qp, base, OPENGDA_MLX5_OPCODE_RDMA_WRITE, raddr, laddr, size);
	ogda_dev_post_end(qp, base, n, sharing, handler, code_opt);
	return 0;
}

/** p: inline RDMA WRITE of @p len (<= 8) bytes at @p data. */
OGDA_DEV_FN int ogda_dev_op_p(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, const void *data,
			      uint32_t len, int sharing, uint32_t handler, uint32_t code_opt, uint64_t *ticket)
{
	uint64_t base;
	int rc = ogda_dev_post_begin(qp, 1, sharing, handler, code_opt, &base);

	ogda_dev_set_ticket(ticket, base);
	if (rc != 0)
		return rc;
	ogda_dev_prep_p(qp, base, raddr, data, len);
	ogda_dev_post_end(qp, base, 1, sharing, handler, code_opt);
	return 0;
}

/** put_signal: put, then fetch-and-add on the signal (executed after the data lands: RC order). */
OGDA_DEV_FN int ogda_dev_op_put_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
				       struct doca_gpu_dev_verbs_addr laddr, uint64_t size,
				       struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr,
				       uint64_t sig_val, int sharing, uint32_t handler, uint32_t code_opt,
				       uint64_t *ticket)
{
	uint32_t n = ogda_dev_xfer_nwqe(size) + 1;
	uint64_t base;
	int rc = ogda_dev_post_begin(qp, n, sharing, handler, code_opt, &base);

	ogda_dev_set_ticket(ticket, base + n - 1);
	if (rc != 0)
		return rc;
	ogda_dev_prep_xfer(qp, base, OPENGDA_MLX5_OPCODE_RDMA_WRITE, raddr, laddr, size);
	ogda_dev_prep_signal(qp, base + n - 1, sig_raddr, sig_laddr, sig_val);
	ogda_dev_post_end(qp, base, n, sharing, handler, code_opt);
	return 0;
}

/** p_signal: inline write of @p len (<= 8) bytes, then the signal. */
OGDA_DEV_FN int ogda_dev_op_p_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
				     const void *data, uint32_t len, struct doca_gpu_dev_verbs_addr sig_raddr,
				     struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val, int sharing,
				     uint32_t handler, uint32_t code_opt, uint64_t *ticket)
{
	uint64_t base;
	int rc = ogda_dev_post_begin(qp, 2, sharing, handler, code_opt, &base);

	ogda_dev_set_ticket(ticket, base + 1);
	if (rc != 0)
		return rc;
	ogda_dev_prep_p(qp, base, raddr, data, len);
	ogda_dev_prep_signal(qp, base + 1, sig_raddr, sig_laddr, sig_val);
	ogda_dev_post_end(qp, base, 2, sharing, handler, code_opt);
	return 0;
}

/** signal: fetch-and-add of @p sig_val on @p sig_raddr (old value to @p sig_laddr). */
OGDA_DEV_FN int ogda_dev_op_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr sig_raddr,
				   struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val, int sharing,
				   uint32_t handler, uint32_t code_opt, uint64_t *ticket)
{
	uint64_t base;
	int rc = ogda_dev_post_begin(qp, 1, sharing, handler, code_opt, &base);

	ogda_dev_set_ticket(ticket, base);
	if (rc != 0)
		return rc;
	ogda_dev_prep_signal(qp, base, sig_raddr, sig_laddr, sig_val);
	ogda_dev_post_end(qp, base, 1, sharing, handler, code_opt);
	return 0;
}

/** get: RDMA READ of @p size bytes from @p raddr into @p laddr (+ a DUMP when @p dump). */
OGDA_DEV_FN int ogda_dev_op_get(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
				struct doca_gpu_dev_verbs_addr laddr, uint64_t size, int dump, int sharing,
				uint32_t handler, uint32_t code_opt, uint64_t *ticket)
{
	uint32_t n = ogda_dev_get_nwqe(size, dump);
	uint64_t base;
	int rc = ogda_dev_post_begin(qp, n, sharing, handler, code_opt, &base);

	ogda_dev_set_ticket(ticket, base + n - 1);
	if (rc != 0)
		return rc;
	ogda_dev_prep_get(qp, base, raddr, laddr, size, dump);
	ogda_dev_post_end(qp, base, n, sharing, handler, code_opt);
	return 0;
}

/** wait: until the WQE of @p ticket (and everything before it) has completed. */
OGDA_DEV_FN int ogda_dev_op_wait(struct doca_gpu_dev_verbs_qp *qp, uint64_t ticket, int sharing)
{
	return ogda_dev_qp_wait_index(qp, ticket, sharing);
}

/** wait for everything reserved so far on @p qp (DOCA's wait(qp) without a ticket; a "quiet"). */
OGDA_DEV_FN int ogda_dev_op_wait_all(struct doca_gpu_dev_verbs_qp *qp, int sharing)
{
	uint64_t rsvd = ogda_dev_load_acquire_u64(&qp->sq_rsvd_index, sharing);

	return rsvd == 0 ? 0 : ogda_dev_qp_wait_index(qp, rsvd - 1, sharing);
}

/**
 * fence: operations posted after it execute after every operation posted before it has
 * completed at the responder (reads and atomics included): a NOP with the mlx5 FENCE mode, after
 * a system-scope release so data the caller wrote before the fence is what later puts send.
 */
OGDA_DEV_FN int ogda_dev_op_fence(struct doca_gpu_dev_verbs_qp *qp, int sharing, uint32_t handler, uint32_t code_opt)
{
	uint64_t base;
	int rc;

	ogda_dev_fence_nic_release();
	rc = ogda_dev_post_begin(qp, 1, sharing, handler, code_opt, &base);
	if (rc != 0)
		return rc;
	ogda_dev_wqe_nop(qp, base, (uint8_t)(OGDA_DEV_CQ_UPDATE | OPENGDA_MLX5_WQE_CTRL_FM_FENCE));
	ogda_dev_post_end(qp, base, 1, sharing, handler, code_opt);
	return 0;
}

/**
 * Posts the companion part of a counter operation for @p main_ticket and rings the companion.
 * The main QP's WQEs must already be published (its doorbell may follow: WAIT just waits).
 */
OGDA_DEV_FN int ogda_dev_op_counter(struct doca_gpu_dev_verbs_qp *companion, const struct doca_gpu_dev_verbs_qp *main_qp,
				    uint64_t main_ticket, struct doca_gpu_dev_verbs_addr counter_raddr,
				    struct doca_gpu_dev_verbs_addr counter_laddr, uint64_t counter_val, int sharing,
				    uint32_t handler, uint32_t code_opt)
{
	uint64_t base;
	int rc = ogda_dev_post_begin(companion, 2, sharing, handler, code_opt, &base);

	if (rc != 0)
		return rc;
	ogda_dev_prep_counter(companion, base, main_qp, main_ticket, counter_raddr, counter_laddr, counter_val);
	ogda_dev_post_end(companion, base, 2, sharing, handler, code_opt);
	return 0;
}

#endif /* OGDA_DEV_OPS_H */
