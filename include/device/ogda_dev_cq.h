/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_cq.h
 * @brief Completion polling of the device data path (C core; CUDA and host threads).
 *
 * Every WQE the high-level functions post is signaled and one WQEBB long, so the CQE with index i
 * completes WQE index i (tickets are WQE indices). CQEs of one send queue complete in order, so
 * cqe_ci (the highest index seen + 1) answers "is i done?" for every i below it without touching
 * the ring, which also makes late polls of an entry the NIC has since overwritten correct.
 *
 * Returns: 0 done, OPENGDA_DEV_EBUSY not yet (poll_one only), OPENGDA_DEV_CQE_ERROR(syndrome) for
 * an error completion, -OPENGDA_DEV_ETIMEDOUT when the CQ's wait bound passed.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_CQ_H
#define OGDA_DEV_CQ_H

#include "ogda_dev_port.h"
#include "../doca_gpunetio_verbs_dev.h"
#include "../opengda_mlx5.h"

/** The CQE at ring position @p pos. */
OGDA_DEV_FN uint8_t *ogda_dev_cqe_at(const struct doca_gpu_dev_verbs_cq *cq, uint64_t pos)
{
	return cq->cqe_daddr + ((pos & cq->cqe_mask) << 6);
}

/**
 * cqe_ci as a fast "already done" answer. Shared: acquire, so the caller also sees what the
 * thread that advanced it saw (the NIC is done with those WQEBBs, their data has landed).
 */
OGDA_DEV_FN uint64_t ogda_dev_cq_ci(const struct doca_gpu_dev_verbs_cq *cq, int sharing)
{
	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE)
		return ogda_dev_load_relaxed_u64(&cq->cqe_ci);
	return ogda_dev_load_acquire_u64(&cq->cqe_ci, sharing);
}

/** Records the first error completion in the CQ (for the host's query_last_error and debugging). */
OGDA_DEV_FN void ogda_dev_cq_note_error(struct doca_gpu_dev_verbs_cq *cq, uint8_t syndrome, uint16_t wqe_counter)
{
	uint32_t rec = 0x80000000u | ((uint32_t)syndrome << 16) | wqe_counter;
	uint32_t *p = &cq->ogda_first_error;

#if defined(__CUDACC__)
	atomicCAS(p, 0u, rec);
#else
	uint32_t expected = 0;
	__atomic_compare_exchange_n(p, &expected, rec, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
#endif
}

/** Marks every CQE below @p next as seen and, for CQs whose overrun is checked, tells the NIC. */
OGDA_DEV_FN void ogda_dev_cq_advance(struct doca_gpu_dev_verbs_cq *cq, uint64_t next, int sharing)
{
	uint64_t old = ogda_dev_atomic_max_u64(&cq->cqe_ci, next, sharing);

	if ((cq->ogda_flags & OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC) && next > old)
		ogda_dev_store_nic_u32(cq->dbrec, opengda_mlx5_cq_dbr_set_ci_value((uint32_t)(next + cq->cqe_rsvd)));
}

/**
 * Classifies the CQE of index @p idx, which must be less than one ring beyond cqe_ci: its slot
 * then holds either that CQE or one of the ring before (the owner bit tells them apart).
 */
OGDA_DEV_FN int ogda_dev_cq_classify_at(struct doca_gpu_dev_verbs_cq *cq, uint64_t idx, int sharing)
{
	uint64_t pos = idx + cq->cqe_rsvd;
	const uint8_t *cqe = ogda_dev_cqe_at(cq, pos);
	uint8_t op_own, opcode;

	/* op_own (byte 63) alone: the NIC writes it last, so nothing else is read before it is ours. */
	op_own = ogda_dev_load_nic_u8(cqe + 63);
	opcode = op_own >> 4;
	if (opcode == OPENGDA_MLX5_CQE_INVALID || (op_own & 1u) != ((pos >> cq->cqe_log_num) & 1u))
		return OPENGDA_DEV_EBUSY;
	ogda_dev_fence_nic_acquire();
	if (OGDA_DEV_UNLIKELY(opcode == OPENGDA_MLX5_CQE_REQ_ERR || opcode == OPENGDA_MLX5_CQE_RESP_ERR)) {
		uint8_t syndrome = cqe[OPENGDA_MLX5_ERR_CQE_SYNDROME];
		uint16_t counter = (uint16_t)(((uint16_t)cqe[60] << 8) | cqe[61]); /* wqe_counter, BE16 */

		ogda_dev_cq_note_error(cq, syndrome, counter);
		return OPENGDA_DEV_CQE_ERROR(syndrome);
	}
	ogda_dev_cq_advance(cq, idx + 1, sharing);
	return 0;
}

/**
 * Classifies the CQE for index @p idx without waiting. On an error CQE the syndrome is returned
 * encoded; on success cqe_ci moves past @p idx.
 *
 * An index a ring or more beyond cqe_ci (more reservations in flight than the CQ holds, e.g.
 * thousands of threads on one QP) cannot be read from its slot: the owner bit only tells
 * neighbouring rings apart, and the slot may still hold the CQE of two rings before. Its
 * completion is then established in order, through the last index of the current ring
 * (completions of one send queue arrive in order).
 */
OGDA_DEV_FN int ogda_dev_cq_poll_one_at(struct doca_gpu_dev_verbs_cq *cq, uint64_t idx, int sharing)
{
	uint64_t ci = ogda_dev_cq_ci(cq, sharing);

	while (ci <= idx && idx - ci > cq->cqe_mask) {
		int rc = ogda_dev_cq_classify_at(cq, ci + cq->cqe_mask, sharing);

		if (rc != 0)
			return rc;
		ci = ogda_dev_cq_ci(cq, sharing);
	}
	if (ci > idx)
		return 0;
	return ogda_dev_cq_classify_at(cq, idx, sharing);
}

/** Waits for the CQE of index @p idx (bounded by cq->ogda_wait_timeout_ns when set). */
OGDA_DEV_FN int ogda_dev_cq_poll_at(struct doca_gpu_dev_verbs_cq *cq, uint64_t idx, int sharing)
{
	uint64_t deadline = 0;
	int rc;

	for (;;) {
		rc = ogda_dev_cq_poll_one_at(cq, idx, sharing);
		if (rc != OPENGDA_DEV_EBUSY)
			return rc;
		if (cq->ogda_wait_timeout_ns != 0) {
			if (deadline == 0)
				deadline = ogda_dev_deadline(cq->ogda_wait_timeout_ns);
			else if (ogda_dev_expired(deadline))
				return -OPENGDA_DEV_ETIMEDOUT;
		}
		ogda_dev_spin_pause();
	}
}

/**
 * Collapsed CQ (every CQE in entry 0): whether WQE @p idx has completed. @p rung is the producer
 * index the NIC was given (sq_wqe_pi); the 16-bit counter of the last CQE is placed below it.
 */
OGDA_DEV_FN int ogda_dev_cq_poll_one_collapsed_at(struct doca_gpu_dev_verbs_cq *cq, uint64_t idx, uint64_t rung,
						  int sharing)
{
	const uint8_t *cqe = cq->cqe_daddr;
	uint32_t tail;
	uint8_t b[4], opcode;
	uint16_t counter;
	uint64_t last;

	if (ogda_dev_cq_ci(cq, sharing) > idx)
		return 0;
	if (rung <= idx)
		return OPENGDA_DEV_EBUSY;
	/* Entry 0 is rewritten in place: the NIC publishes counter and op_own in one 4-byte store. */
	tail = ogda_dev_load_nic_u32(cqe + 60);
	opengda_mlx5_copy_bytes(b, &tail, 4);
	opcode = b[3] >> 4;
	if (opcode == OPENGDA_MLX5_CQE_INVALID)
		return OPENGDA_DEV_EBUSY;
	ogda_dev_fence_nic_acquire();
	counter = (uint16_t)(((uint16_t)b[0] << 8) | b[1]);
	/* The newest completed WQE: the index below `rung` whose low 16 bits are `counter`. */
	last = (rung - 1) - (uint16_t)((uint16_t)(rung - 1) - counter);
	if (OGDA_DEV_UNLIKELY(opcode == OPENGDA_MLX5_CQE_REQ_ERR || opcode == OPENGDA_MLX5_CQE_RESP_ERR)) {
		uint8_t syndrome = cqe[OPENGDA_MLX5_ERR_CQE_SYNDROME];

		ogda_dev_cq_note_error(cq, syndrome, counter);
		return OPENGDA_DEV_CQE_ERROR(syndrome);
	}
	if (last < idx)
		return OPENGDA_DEV_EBUSY;
	ogda_dev_cq_advance(cq, last + 1, sharing);
	return 0;
}

/** Collapsed-CQ wait for WQE @p idx of @p qp (bounded like ogda_dev_cq_poll_at). */
OGDA_DEV_FN int ogda_dev_cq_poll_collapsed_at(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, int sharing)
{
	struct doca_gpu_dev_verbs_cq *cq = &qp->cq_sq;
	uint64_t deadline = 0;
	int rc;

	for (;;) {
		rc = ogda_dev_cq_poll_one_collapsed_at(cq, idx, ogda_dev_load_acquire_u64(&qp->sq_wqe_pi, sharing),
						       sharing);
		if (rc != OPENGDA_DEV_EBUSY)
			return rc;
		if (cq->ogda_wait_timeout_ns != 0) {
			if (deadline == 0)
				deadline = ogda_dev_deadline(cq->ogda_wait_timeout_ns);
			else if (ogda_dev_expired(deadline))
				return -OPENGDA_DEV_ETIMEDOUT;
		}
		ogda_dev_spin_pause();
	}
}

/**
 * Whether WQE @p idx of @p qp has completed, without waiting (its send CQ, collapsed or not):
 * 0, OPENGDA_DEV_EBUSY, or the error completion's code. A CPU progress loop's poll.
 */
OGDA_DEV_FN int ogda_dev_qp_poll_index(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, int sharing)
{
	if (qp->cq_sq.ogda_flags & OPENGDA_DEV_CQ_FLAG_COLLAPSED)
		return ogda_dev_cq_poll_one_collapsed_at(&qp->cq_sq, idx, ogda_dev_load_acquire_u64(&qp->sq_wqe_pi, sharing),
							 sharing);
	return ogda_dev_cq_poll_one_at(&qp->cq_sq, idx, sharing);
}

/** Waits for WQE @p idx of @p qp on its send CQ, collapsed or not. */
OGDA_DEV_FN int ogda_dev_qp_wait_index(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, int sharing)
{
	if (qp->cq_sq.ogda_flags & OPENGDA_DEV_CQ_FLAG_COLLAPSED)
		return ogda_dev_cq_poll_collapsed_at(qp, idx, sharing);
	return ogda_dev_cq_poll_at(&qp->cq_sq, idx, sharing);
}

/**
 * Consumes up to @p count completions from cqe_ci on, without waiting; returns how many were
 * consumed, or the error of the first error CQE met (cqe_ci stays at it).
 */
OGDA_DEV_FN int ogda_dev_cq_poll_count(struct doca_gpu_dev_verbs_cq *cq, uint32_t count, int sharing)
{
	uint64_t ci = ogda_dev_load_relaxed_u64(&cq->cqe_ci);
	uint32_t n = 0;
	int rc;

	while (n < count) {
		rc = ogda_dev_cq_poll_one_at(cq, ci + n, sharing);
		if (rc == OPENGDA_DEV_EBUSY)
			break;
		if (rc < 0)
			return rc;
		n++;
	}
	return (int)n;
}

#endif /* OGDA_DEV_CQ_H */
