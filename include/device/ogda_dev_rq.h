/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_rq.h
 * @brief Receive side of the device data path (C core; CUDA and host threads): posting receive
 *        WQEs to a QP's receive queue or to a contiguous SRQ, and waiting for their completions.
 *
 * A receive WQE is one 16-byte data segment (DOCA_GPUNETIO_MLX5_WQE_RQ_SHIFT); when the queue's
 * entries are larger, the second segment carries the invalid lkey that ends the scatter list.
 * The NIC learns of new receives from the doorbell record alone (word 0 of the QP's record, the
 * SRQ's record): there is no doorbell register on the receive side.
 *
 * Protocol (shared queues), deliberately simpler than the send queue's (ogda_dev_sq.h), since a
 * receive post is one 16-byte store and the record its only "doorbell":
 * - Reserve: one fetch-and-add on rq_rsvd_index per call (a warp or block reserves for all).
 * - Space: slot i may be written once receive i - rq_wqe_num has completed on the receive CQ
 *   (a QP's own RQ completes in order). SRQ: the caller's contract (struct
 *   opengda_gpu_dev_verbs_srq), nothing is polled.
 * - Publish in order: a caller waits until rq_ready_index reaches its first slot, then moves it
 *   past its last (a release). The wait is bounded by the queue's wait timeout.
 * - Record: under rq_lock (held for a few instructions), the holder writes the 16-bit producer
 *   index rq_ready_index to the record if it is newer than rq_wqe_pi, after a release fence, so
 *   the record never moves backwards and never covers an unwritten WQE.
 * EXCLUSIVE queues use plain loads and stores and no lock.
 *
 * Errors: receive completions carry their syndrome (RESP_ERR: OPENGDA_DEV_CQE_ERROR), after an
 * error every later receive completes with a flush error, and every wait has the queue's bound.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_RQ_H
#define OGDA_DEV_RQ_H

#include "ogda_dev_cq.h"
#include "ogda_dev_port.h"
#include "ogda_dev_wqe.h"

/** The words of one receive queue (a QP's RQ or an SRQ), so one implementation serves both. */
struct ogda_dev_rq {
	uint64_t *rsvd_index;
	uint64_t *ready_index;
	uint64_t *wqe_pi;
	int *lock;
	uint8_t *ring;
	uint32_t *dbrec;
	uint32_t wqe_num, wqe_mask, wqe_size;
	struct doca_gpu_dev_verbs_cq *cq; /**< Receive CQ tracking space; NULL for an SRQ. */
	uint64_t timeout_ns;
};

/** The receive queue of @p qp. */
OGDA_DEV_FN struct ogda_dev_rq ogda_dev_qp_rq(struct doca_gpu_dev_verbs_qp *qp)
{
	struct ogda_dev_rq rq;

	rq.rsvd_index = &qp->rq_rsvd_index;
	rq.ready_index = &qp->rq_ready_index;
	rq.wqe_pi = &qp->rq_wqe_pi;
	rq.lock = &qp->rq_lock;
	rq.ring = (uint8_t *)ogda_dev_ro_ptr((void *const *)&qp->rq_wqe_daddr);
	rq.dbrec = (uint32_t *)ogda_dev_ro_ptr((void *const *)&qp->rq_dbrec);
	rq.wqe_num = ogda_dev_ro_u32(&qp->rq_wqe_num);
	rq.wqe_mask = ogda_dev_ro_u32(&qp->rq_wqe_mask);
	rq.wqe_size = ogda_dev_ro_u32(&qp->rcv_wqe_size);
	rq.cq = &qp->cq_rq;
	rq.timeout_ns = qp->cq_rq.ogda_wait_timeout_ns;
	return rq;
}

/** A contiguous SRQ. */
OGDA_DEV_FN struct ogda_dev_rq ogda_dev_srq_rq(struct opengda_gpu_dev_verbs_srq *srq)
{
	struct ogda_dev_rq rq;

	rq.rsvd_index = &srq->rq_rsvd_index;
	rq.ready_index = &srq->rq_ready_index;
	rq.wqe_pi = &srq->rq_wqe_pi;
	rq.lock = &srq->rq_lock;
	rq.ring = (uint8_t *)ogda_dev_ro_ptr((void *const *)&srq->rq_wqe_daddr);
	rq.dbrec = (uint32_t *)ogda_dev_ro_ptr((void *const *)&srq->rq_dbrec);
	rq.wqe_num = ogda_dev_ro_u32(&srq->rq_wqe_num);
	rq.wqe_mask = ogda_dev_ro_u32(&srq->rq_wqe_mask);
	rq.wqe_size = ogda_dev_ro_u32(&srq->rcv_wqe_size);
	rq.cq = 0;
	rq.timeout_ns = srq->ogda_wait_timeout_ns;
	return rq;
}

/** Reserves @p count receive WQEs; returns the first index. */
OGDA_DEV_FN uint64_t ogda_dev_rq_reserve(const struct ogda_dev_rq *rq, uint32_t count, int sharing)
{
	uint64_t base;

	if (sharing != OGDA_DEV_SHARE_EXCLUSIVE)
		return ogda_dev_atomic_add_u64(rq->rsvd_index, count, sharing);
	base = *rq->rsvd_index;
	*rq->rsvd_index = base + count;
	return base;
}

/** Waits until receive WQEs [base, base + count) may be written (RQ: their previous receives completed). */
OGDA_DEV_FN int ogda_dev_rq_wait_slots(const struct ogda_dev_rq *rq, uint64_t base, uint32_t count, int sharing)
{
	uint64_t last = base + count - 1;

	if (rq->cq == 0 || last < rq->wqe_num)
		return 0;
	return ogda_dev_cq_poll_at(rq->cq, last - rq->wqe_num, sharing);
}

/** The receive WQE that index @p idx maps to. */
OGDA_DEV_FN struct opengda_mlx5_wqe_data_seg *ogda_dev_rwqe_ptr(const struct ogda_dev_rq *rq, uint64_t idx)
{
	return (struct opengda_mlx5_wqe_data_seg *)(void *)(rq->ring + (size_t)(idx & rq->wqe_mask) * rq->wqe_size);
}

/**
 * Writes receive WQE @p rwqe: @p bytes at @p addr under @p lkey_be (big-endian). A larger entry
 * gets the invalid-lkey segment that ends its scatter list.
 */
OGDA_DEV_FN void ogda_dev_rwqe_write(const struct ogda_dev_rq *rq, struct opengda_mlx5_wqe_data_seg *rwqe,
				     uint64_t addr, uint32_t lkey_be, uint32_t bytes)
{
	ogda_dev_store_dseg(rwqe, addr, lkey_be, bytes);
	if (rq->wqe_size > 16u)
		ogda_dev_store_dseg((uint8_t *)rwqe + 16, 0, opengda_mlx5_htobe32(OPENGDA_MLX5_INVALID_LKEY), 0);
}

/**
 * Publishes receive WQEs [from, to] (in order: waits, bounded, until every earlier one is
 * published). Returns 0 or -OPENGDA_DEV_ETIMEDOUT (nothing published).
 */
OGDA_DEV_FN int ogda_dev_rq_mark_ready(const struct ogda_dev_rq *rq, uint64_t from, uint64_t to, int sharing)
{
	uint64_t deadline = 0;

	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		*rq->ready_index = to + 1;
		return 0;
	}
	while (ogda_dev_load_acquire_u64(rq->ready_index, sharing) != from) {
		if (rq->timeout_ns != 0) {
			if (deadline == 0)
				deadline = ogda_dev_deadline(rq->timeout_ns);
			else if (ogda_dev_expired(deadline))
				return -OPENGDA_DEV_ETIMEDOUT;
		}
		ogda_dev_spin_pause();
	}
	ogda_dev_store_release_u64(rq->ready_index, to + 1, sharing);
	return 0;
}

/** Writes the record for @p pi when newer than what it holds (caller owns the record). */
OGDA_DEV_FN void ogda_dev_rq_write_dbr(const struct ogda_dev_rq *rq, uint64_t pi)
{
	if (pi <= ogda_dev_load_relaxed_u64(rq->wqe_pi))
		return;
	/* The WQEs (in host or GPU memory) before the producer index that covers them. */
	ogda_dev_fence_nic_release();
	ogda_dev_store_nic_u32(rq->dbrec, opengda_mlx5_qp_dbr_value((uint32_t)pi));
	ogda_dev_store_relaxed_u64(rq->wqe_pi, pi);
}

/**
 * Makes every published receive WQE visible to the NIC: writes rq_ready_index to the doorbell
 * record. Shared queues take rq_lock (bounded). Returns 0 or -OPENGDA_DEV_ETIMEDOUT.
 */
OGDA_DEV_FN int ogda_dev_rq_submit(const struct ogda_dev_rq *rq, int sharing)
{
	uint64_t deadline = 0;

	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		ogda_dev_rq_write_dbr(rq, *rq->ready_index);
		return 0;
	}
	while (!ogda_dev_try_lock(rq->lock, sharing)) {
		if (rq->timeout_ns != 0) {
			if (deadline == 0)
				deadline = ogda_dev_deadline(rq->timeout_ns);
			else if (ogda_dev_expired(deadline))
				return -OPENGDA_DEV_ETIMEDOUT;
		}
		ogda_dev_spin_pause();
	}
	ogda_dev_rq_write_dbr(rq, ogda_dev_load_acquire_u64(rq->ready_index, sharing));
	ogda_dev_unlock(rq->lock, sharing);
	return 0;
}

/**
 * Reserves @p count receive WQEs and waits for their space. On an error completion the slots are
 * still written as empty receives and published (later posts are not stranded; the queue is in
 * error and flushes them) and the error returned. -OPENGDA_DEV_EINVAL (nothing reserved) when
 * the queue has no ring (a QP exported without a receive queue of its own).
 */
OGDA_DEV_FN int ogda_dev_rq_post_begin(const struct ogda_dev_rq *rq, uint32_t count, int sharing, uint64_t *base)
{
	int rc;
	uint32_t k;

	*base = 0;
	if (OGDA_DEV_UNLIKELY(rq->wqe_num == 0))
		return -OPENGDA_DEV_EINVAL; /* exported without a receive queue (none, or on an SRQ) */
	*base = ogda_dev_rq_reserve(rq, count, sharing);
	rc = ogda_dev_rq_wait_slots(rq, *base, count, sharing);
	if (OGDA_DEV_UNLIKELY(rc != 0) && OPENGDA_DEV_IS_CQE_ERROR(rc)) {
		for (k = 0; k < count; k++)
			ogda_dev_rwqe_write(rq, ogda_dev_rwqe_ptr(rq, *base + k), 0,
					    opengda_mlx5_htobe32(OPENGDA_MLX5_INVALID_LKEY), 0);
		if (ogda_dev_rq_mark_ready(rq, *base, *base + count - 1, sharing) == 0)
			(void)ogda_dev_rq_submit(rq, sharing);
	}
	return rc;
}

/** Publishes receive WQEs [base, base + count) and writes the record. */
OGDA_DEV_FN int ogda_dev_rq_post_end(const struct ogda_dev_rq *rq, uint64_t base, uint32_t count, int sharing)
{
	int rc = ogda_dev_rq_mark_ready(rq, base, base + count - 1, sharing);

	return rc != 0 ? rc : ogda_dev_rq_submit(rq, sharing);
}

/**
 * recv (thread scope): posts one receive of @p size bytes at @p laddr. @p ticket (optional) gets
 * its index, which for a QP's own RQ is the receive CQ index to wait on.
 */
OGDA_DEV_FN int ogda_dev_rq_op_recv(const struct ogda_dev_rq *rq, struct doca_gpu_dev_verbs_addr laddr, uint32_t size,
				    int sharing, uint64_t *ticket)
{
	uint64_t base;
	int rc = ogda_dev_rq_post_begin(rq, 1, sharing, &base);

	if (ticket != 0)
		*ticket = base;
	if (rc != 0)
		return rc;
	ogda_dev_rwqe_write(rq, ogda_dev_rwqe_ptr(rq, base), laddr.addr, laddr.key, size);
	return ogda_dev_rq_post_end(rq, base, 1, sharing);
}

/** The receive CQE of index @p idx of @p qp (valid once a poll for it returned 0 or an error). */
OGDA_DEV_FN struct opengda_mlx5_cqe64 *ogda_dev_recv_cqe(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx)
{
	return (struct opengda_mlx5_cqe64 *)(void *)ogda_dev_cqe_at(&qp->cq_rq, idx + qp->cq_rq.cqe_rsvd);
}

/** Waits for receive @p idx of @p qp's own RQ: 0, OPENGDA_DEV_CQE_ERROR(syndrome) or -ETIMEDOUT. */
OGDA_DEV_FN int ogda_dev_recv_wait_index(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, int sharing)
{
	return ogda_dev_cq_poll_at(&qp->cq_rq, idx, sharing);
}

#endif /* OGDA_DEV_RQ_H */
