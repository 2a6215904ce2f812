/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_sq.h
 * @brief Send-queue protocol of the device data path: reserve, publish, ring (C core).
 *
 * Shared QPs without a serialising lock on the posting path (DESIGN §6):
 * - Reserve: one fetch-and-add on sq_rsvd_index per call (a warp or block call reserves for all
 *   its lanes at once).
 * - Publish: each WQEBB's readiness is its own word (ogda_ready_slots[i & mask] = i + 1); after
 *   publishing, a thread advances sq_ready_index over every contiguous ready slot, whoever wrote
 *   them (help forward). Nobody waits for a slower thread's slots: the thread that completes
 *   the prefix carries the index past them.
 * - Ring: one ringer at a time, by try-lock (nobody spins on it). The ringer writes the doorbell
 *   record and rings up to sq_ready_index, unlocks, and looks again; a thread that publishes
 *   while the lock is held leaves the ring to the holder, whose second look is guaranteed to see
 *   it (both sides use ogda_dev_fence_handoff between their store and their load). Doorbells are
 *   therefore monotonic and none is lost.
 * EXCLUSIVE QPs skip all of that: plain stores, and the caller's producer index is rung as is.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_SQ_H
#define OGDA_DEV_SQ_H

#include "ogda_dev_cq.h"
#include "ogda_dev_port.h"
#include "ogda_dev_wqe.h"

/** Reserves @p count WQEBBs; returns the first index. */
OGDA_DEV_FN uint64_t ogda_dev_sq_reserve(struct doca_gpu_dev_verbs_qp *qp, uint32_t count, int sharing)
{
	return ogda_dev_atomic_add_u64(&qp->sq_rsvd_index, count, sharing);
}

/**
 * Waits until WQEBBs [base, base + count) may be written: the WQE that last used the final slot
 * (index base + count - 1 - sq_wqe_num) has completed. Returns 0 or the poll's error.
 */
OGDA_DEV_FN int ogda_dev_sq_wait_slots(struct doca_gpu_dev_verbs_qp *qp, uint64_t base, uint32_t count, int sharing)
{
	uint64_t last = base + count - 1;

	if (last < qp->sq_wqe_num)
		return 0;
	return ogda_dev_qp_wait_index(qp, last - qp->sq_wqe_num, sharing);
}

#define OGDA_DEV_SCAN_BATCH 8u

/**
 * The end of the run of published slots starting at index @p r (at most one ring's worth).
 * On the GPU the slot words are read 8 at a time with independent relaxed loads and one acquire
 * fence per batch, so one thread walks a long run at memory throughput instead of one L2 round
 * trip per slot. Host threads use an acquire load per slot (what ThreadSanitizer follows).
 */
OGDA_DEV_FN uint64_t ogda_dev_sq_scan_ready(const struct doca_gpu_dev_verbs_qp *qp, uint64_t r, int sharing)
{
	uint64_t e = r;

#if defined(__CUDACC__)
	for (;;) {
		uint64_t v[OGDA_DEV_SCAN_BATCH];
		uint32_t k, n = 0;

		for (k = 0; k < OGDA_DEV_SCAN_BATCH; k++)
			v[k] = ogda_dev_load_relaxed_u64(&qp->ogda_ready_slots[(e + k) & qp->sq_wqe_mask]);
		while (n < OGDA_DEV_SCAN_BATCH && v[n] == e + n + 1 && e + n - r < qp->sq_wqe_num)
			n++;
		if (n == 0)
			return e;
		ogda_dev_fence_acquire_scope(sharing);
		e += n;
		if (n < OGDA_DEV_SCAN_BATCH)
			return e;
	}
#else
	while (e - r < qp->sq_wqe_num &&
	       ogda_dev_load_acquire_u64(&qp->ogda_ready_slots[e & qp->sq_wqe_mask], sharing) == e + 1)
		e++;
	return e;
#endif
}

/**
 * Advances sq_ready_index over every contiguous published slot. Returns 1 if this call moved it.
 */
OGDA_DEV_FN int ogda_dev_sq_advance_ready(struct doca_gpu_dev_verbs_qp *qp, int sharing)
{
	uint64_t r = ogda_dev_load_acquire_u64(&qp->sq_ready_index, sharing);
	int moved = 0;

	for (;;) {
		uint64_t e = r, seen;

		e = ogda_dev_sq_scan_ready(qp, r, sharing);
		if (e == r)
			return moved;
		seen = ogda_dev_atomic_cas_u64(&qp->sq_ready_index, r, e, sharing);
		if (seen == r) {
			moved = 1;
			ogda_dev_fence_handoff(sharing);
			r = e;
		} else {
			r = seen; /* another thread advanced it; continue from there */
		}
	}
}

/**
 * Publishes WQEBBs [from, to] (inclusive) as written. Returns 1 if sq_ready_index moved as a
 * result (the caller then rings), 0 if an earlier slot is still being written (its writer rings).
 */
OGDA_DEV_FN int ogda_dev_sq_mark_ready(struct doca_gpu_dev_verbs_qp *qp, uint64_t from, uint64_t to, int sharing)
{
	uint64_t i;

	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		ogda_dev_store_relaxed_u64(&qp->sq_ready_index, to + 1);
		return 1;
	}
	for (i = from; i <= to; i++)
		ogda_dev_store_release_u64(&qp->ogda_ready_slots[i & qp->sq_wqe_mask], i + 1, sharing);
	ogda_dev_fence_handoff(sharing);
	return ogda_dev_sq_advance_ready(qp, sharing);
}

/** The 8-byte doorbell for producer index @p pi: BE32(pi << 8), BE32(qpn << 8). */
OGDA_DEV_FN uint64_t ogda_dev_sq_db_value(const struct doca_gpu_dev_verbs_qp *qp, uint64_t pi)
{
	return opengda_mlx5_pack_words(opengda_mlx5_htobe32((uint32_t)(pi & 0xffff) << 8), qp->sq_num_shift8_be);
}

/** Writes the send doorbell record for @p pi (after the WQEs, before the doorbell). */
OGDA_DEV_FN void ogda_dev_sq_update_dbr(struct doca_gpu_dev_verbs_qp *qp, uint64_t pi)
{
	ogda_dev_fence_nic_release();
	ogda_dev_store_nic_u32(qp->sq_dbrec, opengda_mlx5_qp_dbr_value((uint32_t)pi));
}

/** Rings the doorbell register for @p pi. */
OGDA_DEV_FN void ogda_dev_sq_ring_db(struct doca_gpu_dev_verbs_qp *qp, uint64_t pi)
{
	ogda_dev_fence_nic_release();
	ogda_dev_store_doorbell_u64(qp->sq_db, ogda_dev_sq_db_value(qp, pi));
}

/**
 * BlueFlame: copies the 64-byte single-WQEBB WQE at @p wqe (8-byte aligned; any memory the
 * thread reads) into the BlueFlame register; its first 8 bytes are the doorbell, stored last.
 */
OGDA_DEV_FN void ogda_dev_sq_ring_bf_wqe(struct doca_gpu_dev_verbs_qp *qp, const void *wqe)
{
	const uint64_t *src = (const uint64_t *)wqe;
	int k;

	ogda_dev_fence_nic_release();
	for (k = 7; k >= 1; k--)
		ogda_dev_store_doorbell_u64(qp->sq_db + k, src[k]);
	ogda_dev_fence_nic_release();
	ogda_dev_store_doorbell_u64(qp->sq_db, src[0]);
}

/** BlueFlame of the WQE at index @p idx (a single-WQEBB WQE, the last one posted). */
OGDA_DEV_FN void ogda_dev_sq_ring_bf(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx)
{
	ogda_dev_sq_ring_bf_wqe(qp, ogda_dev_wqe_ptr(qp, idx));
}

/** CPU proxy: hands producer index @p pi to the CPU thread through the mailbox. */
OGDA_DEV_FN void ogda_dev_sq_ring_proxy(struct doca_gpu_dev_verbs_qp *qp, uint64_t pi)
{
	ogda_dev_fence_nic_release();
	ogda_dev_atomic_max_sys_u64(qp->ogda_pi_mailbox, pi);
}

/**
 * Makes the NIC see WQEs up to (excluding) @p pi, moving on from @p prev, the last value rung.
 * Dispatches on the QP's handler (every handler, BlueFlame included).
 */
OGDA_DEV_FN void ogda_dev_sq_ring_to(struct doca_gpu_dev_verbs_qp *qp, uint64_t prev, uint64_t pi, uint32_t handler)
{
	if (handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO)
		handler = (uint32_t)qp->nic_handler;
	if (handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY) {
		ogda_dev_sq_ring_proxy(qp, pi);
		return;
	}
	if (qp->send_dbr_mode_ext == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED) {
		/* The GPU rings; the CPU service keeps the record from the mailbox (and re-rings). */
		ogda_dev_sq_ring_db(qp, pi);
		ogda_dev_atomic_max_sys_u64(qp->ogda_pi_mailbox, pi);
		return;
	}
	if (handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF && pi - prev == 1 && qp->sq_dbrec != 0) {
		ogda_dev_sq_update_dbr(qp, pi);
		ogda_dev_sq_ring_bf(qp, prev);
		return;
	}
	/* GPU_SM_DB; GPU_SM_NO_DBR (its view has no record); BlueFlame for more than one WQEBB. */
	if (qp->sq_dbrec != 0)
		ogda_dev_sq_update_dbr(qp, pi);
	ogda_dev_sq_ring_db(qp, pi);
}

/**
 * Makes everything published visible to the NIC. EXCLUSIVE: rings @p pi (the caller's producer
 * index) if it is new. Shared: rings up to sq_ready_index under the try-lock protocol (@p pi is
 * not used: the caller may have advanced the index over other threads' WQEs too).
 */
OGDA_DEV_FN void ogda_dev_sq_submit(struct doca_gpu_dev_verbs_qp *qp, uint64_t pi, int sharing, uint32_t handler)
{
	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		uint64_t prev = qp->sq_wqe_pi;

		if (pi > prev) {
			ogda_dev_sq_ring_to(qp, prev, pi, handler);
			ogda_dev_store_relaxed_u64(&qp->sq_wqe_pi, pi);
		}
		return;
	}
	for (;;) {
		uint64_t ready = ogda_dev_load_acquire_u64(&qp->sq_ready_index, sharing);
		uint64_t prev = ogda_dev_load_relaxed_u64(&qp->sq_wqe_pi);

		/*
		 * Only the ready index decides: a caller whose own WQEs were rung may still have
		 * advanced the index over other threads' WQEs, and it is the one to ring them.
		 */
		if (ready <= prev)
			return;
		if (!ogda_dev_try_lock(&qp->sq_lock, sharing))
			return; /* the holder looks again after unlocking */
		ready = ogda_dev_load_acquire_u64(&qp->sq_ready_index, sharing);
		prev = qp->sq_wqe_pi;
		if (ready > prev) {
			ogda_dev_sq_ring_to(qp, prev, ready, handler);
			ogda_dev_store_release_u64(&qp->sq_wqe_pi, ready, sharing);
		}
		ogda_dev_unlock(&qp->sq_lock, sharing);
		ogda_dev_fence_handoff(sharing);
	}
}

/**
 * Fills reserved WQEBBs [base, base + count) with signaled NOPs and publishes them: used when a
 * caller cannot post what it reserved (an error while waiting for space), so the ring's prefix
 * keeps moving and later WQEs are not stranded behind a hole.
 */
OGDA_DEV_FN void ogda_dev_sq_fill_nops(struct doca_gpu_dev_verbs_qp *qp, uint64_t base, uint32_t count, int sharing,
				       uint32_t handler)
{
	uint32_t k;

	for (k = 0; k < count; k++)
		ogda_dev_wqe_nop(qp, base + k, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE);
	if (ogda_dev_sq_mark_ready(qp, base, base + count - 1, sharing))
		ogda_dev_sq_submit(qp, base + count, sharing, handler);
}

#endif /* OGDA_DEV_SQ_H */
