/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_sq.h
 * @brief Send-queue protocol of the device data path: reserve, publish, ring (C core).
 *
 * Shared QPs without a serialising lock on the posting path (DESIGN §6):
 * - Reserve: one fetch-and-add on sq_rsvd_index per call (a warp or block call reserves for all
 *   its lanes at once).
 * - Publish: a caller whose range starts at sq_ready_index moves the index past it with one CAS.
 *   Otherwise it records the range in the word of its first WQEBB (ogda_ready_slots[from & mask]
 *   = to + 1: "from..to are written", one store whatever the range's length) and advances
 *   sq_ready_index over every contiguous recorded range, whoever wrote them (help forward).
 *   Nobody waits for a slower thread's slots: the thread that completes the prefix carries the
 *   index past them. A word is current only when from < value <= from + ring size; words left
 *   from earlier laps are <= from, so they never count.
 * - Ring: one ringer at a time, by try-lock (nobody spins on it). The ringer writes the doorbell
 *   record and rings up to sq_ready_index, then lets go with a compare-and-swap. A thread that
 *   publishes while the lock is held sets a flag in the lock word instead, which makes that
 *   compare-and-swap fail: the ringer clears the flag and looks again. A ringer that finds flags
 *   in the word when it takes it clears them at once (a flag already set could not be raised
 *   again, so its release would not fail). Every step is a read-modify-write of the one lock
 *   word, so no flag is missed and no handoff fence is needed. Doorbells are therefore
 *   monotonic and none is lost.
 * - Ordering towards the NIC: one system-scope release fence, then the doorbell record and the
 *   doorbell (ogda_dev_sq_ring_db_dbr). The NIC must not see the new producer index, in either
 *   word, before the WQEs it covers; the record and the doorbell need no order between them,
 *   because a ConnectX takes the producer index from the doorbell and reads the record only to
 *   recover lost doorbells, never moving its index backwards (the software NIC likewise takes
 *   the larger of the two, swnic_engine.c accept_target).
 * - Fence first (ogda_dev_sq_post_shared, plain doorbells): the release fence is issued before the
 *   post's atomics rather than before its doorbell, which lets the lock, the publication and the
 *   read of the index last rung go out together; an uncontended post then rings with no second fence.
 * EXCLUSIVE QPs skip all of that: plain loads and stores (the QP is this thread's alone), and the
 * caller's producer index is rung as is.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_SQ_H
#define OGDA_DEV_SQ_H

#include "ogda_dev_cq.h"
#include "ogda_dev_port.h"
#include "ogda_dev_wqe.h"

/*
 * sq_lock, the ringer's word. HELD: a thread is ringing. AGAIN: somebody published while it
 * was held, so the holder looks once more before it lets go. PENDING: a range may be recorded
 * beyond a gap, so the next holder scans the readiness words before ringing.
 */
#define OGDA_DEV_SQ_LOCK_HELD 1
#define OGDA_DEV_SQ_LOCK_AGAIN 2
#define OGDA_DEV_SQ_LOCK_PENDING 4

/** Reserves @p count WQEBBs; returns the first index. */
OGDA_DEV_FN uint64_t ogda_dev_sq_reserve(struct doca_gpu_dev_verbs_qp *qp, uint32_t count, int sharing)
{
	uint64_t base;

	if (sharing != OGDA_DEV_SHARE_EXCLUSIVE)
		return ogda_dev_atomic_add_u64(&qp->sq_rsvd_index, count, sharing);
	base = qp->sq_rsvd_index;
	qp->sq_rsvd_index = base + count;
	return base;
}

/**
 * Waits until WQEBBs [base, base + count) may be written: the WQE that last used the final slot
 * (index base + count - 1 - sq_wqe_num) has completed. Returns 0 or the poll's error.
 */
OGDA_DEV_FN int ogda_dev_sq_wait_slots(struct doca_gpu_dev_verbs_qp *qp, uint64_t base, uint32_t count, int sharing)
{
	uint64_t last = base + count - 1;

	uint32_t num = ogda_dev_ro_u32(&qp->sq_wqe_num);

	if (last < num)
		return 0;
	return ogda_dev_qp_wait_index(qp, last - num, sharing);
}

#define OGDA_DEV_SCAN_BATCH 8u

/** The readiness word of WQEBB index @p i. */
OGDA_DEV_FN uint64_t *ogda_dev_sq_slot(const struct doca_gpu_dev_verbs_qp *qp, uint64_t i)
{
	uint64_t *slots = (uint64_t *)ogda_dev_ro_ptr((void *const *)&qp->ogda_ready_slots);

	return &slots[i & ogda_dev_ro_u32(&qp->sq_wqe_mask)];
}

/**
 * Where the run recorded in slot word @p v for index @p i ends (exclusive), or @p i when the word
 * is not current: a current word is i < v <= i + ring size (DESIGN §6, ogda_dev_sq.h header).
 */
OGDA_DEV_FN uint64_t ogda_dev_sq_run_end(const struct doca_gpu_dev_verbs_qp *qp, uint64_t i, uint64_t v)
{
	return v > i && v - i <= ogda_dev_ro_u32(&qp->sq_wqe_num) ? v : i;
}

/**
 * The end of the chain of recorded ranges starting at index @p r (at most one ring's worth).
 * On the GPU the slot words are read 8 at a time with independent relaxed loads and one acquire
 * fence per batch, so one thread walks a long run of one-WQEBB ranges at memory throughput
 * instead of one L2 round trip per slot; a longer range jumps past the batch. Host threads use
 * an acquire load per word (what ThreadSanitizer follows).
 */
OGDA_DEV_FN uint64_t ogda_dev_sq_scan_ready(const struct doca_gpu_dev_verbs_qp *qp, uint64_t r, int sharing)
{
	uint64_t e = r;

#if defined(__CUDACC__)
	/* One word first: with little contention the next range is usually not recorded. */
	if (ogda_dev_sq_run_end(qp, e, ogda_dev_load_relaxed_u64(ogda_dev_sq_slot(qp, e))) == e)
		return e;
	for (;;) {
		uint64_t v[OGDA_DEV_SCAN_BATCH];
		uint64_t c = e;
		uint32_t k;

		for (k = 0; k < OGDA_DEV_SCAN_BATCH; k++)
			v[k] = ogda_dev_load_relaxed_u64(ogda_dev_sq_slot(qp, e + k));
		while (c - e < OGDA_DEV_SCAN_BATCH) {
			uint64_t n = ogda_dev_sq_run_end(qp, c, v[c - e]);

			if (n == c || n - r > ogda_dev_ro_u32(&qp->sq_wqe_num))
				break;
			c = n;
		}
		if (c == e)
			return e;
		ogda_dev_fence_acquire_scope(sharing);
		if (c - e < OGDA_DEV_SCAN_BATCH)
			return c; /* stopped at a range not yet recorded */
		e = c;
	}
#else
	for (;;) {
		uint64_t n = ogda_dev_sq_run_end(
			qp, e, ogda_dev_load_acquire_u64(ogda_dev_sq_slot(qp, e), sharing));

		if (n == e || n - r > ogda_dev_ro_u32(&qp->sq_wqe_num))
			return e;
		e = n;
	}
#endif
}

/**
 * Advances sq_ready_index over every contiguous recorded range, starting from @p r, a value the
 * caller saw it hold. Returns 1 if this call moved it.
 */
OGDA_DEV_FN int ogda_dev_sq_advance_ready_from(struct doca_gpu_dev_verbs_qp *qp, uint64_t r, int sharing)
{
	int moved = 0;

	for (;;) {
		uint64_t e = ogda_dev_sq_scan_ready(qp, r, sharing), seen;

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

/** Advances sq_ready_index over every contiguous recorded range. Returns 1 if this call moved it. */
OGDA_DEV_FN int ogda_dev_sq_advance_ready(struct doca_gpu_dev_verbs_qp *qp, int sharing)
{
	return ogda_dev_sq_advance_ready_from(qp, ogda_dev_load_acquire_u64(&qp->sq_ready_index, sharing), sharing);
}

/**
 * Publishes WQEBBs [from, to] of a shared QP and carries sq_ready_index as far as it can. Returns
 * 1 if the index moved. The WQE stores of the calling thread (and of the threads it synchronised
 * with, for a group call) happen before: the CAS and the slot store are releases.
 */
OGDA_DEV_FN int ogda_dev_sq_publish(struct doca_gpu_dev_verbs_qp *qp, uint64_t from, uint64_t to, int sharing)
{
	/*
	 * First in line (the usual case without contention): one CAS publishes the whole range and
	 * no slot word is written. Then look for ranges recorded after it by threads that found
	 * the index short of them (store; handoff fence; load on both sides: one of us sees the
	 * other).
	 */
	if (ogda_dev_atomic_cas_u64(&qp->sq_ready_index, from, to + 1, sharing) == from) {
		ogda_dev_fence_handoff(sharing);
		(void)ogda_dev_sq_advance_ready_from(qp, to + 1, sharing);
		return 1;
	}
	ogda_dev_store_release_u64(ogda_dev_sq_slot(qp, from), to + 1, sharing);
	ogda_dev_fence_handoff(sharing);
	return ogda_dev_sq_advance_ready(qp, sharing);
}

/**
 * Publishes WQEBBs [from, to] (inclusive) as written. Returns 1 if sq_ready_index moved as a
 * result (the caller then rings), 0 if an earlier slot is still being written (its writer rings).
 */
OGDA_DEV_FN int ogda_dev_sq_mark_ready(struct doca_gpu_dev_verbs_qp *qp, uint64_t from, uint64_t to, int sharing)
{
	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		qp->sq_ready_index = to + 1;
		return 1;
	}
	if (ogda_dev_sq_publish(qp, from, to, sharing))
		return 1;
	/*
	 * Not carried yet: the thread that completes the prefix may be a ringer that publishes
	 * without scanning (ogda_dev_sq_post_shared). PENDING makes the next ringer scan.
	 */
	(void)ogda_dev_atomic_or_release_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_PENDING, sharing);
	return 0;
}

/** The 8-byte doorbell for producer index @p pi: BE32(pi << 8), BE32(qpn << 8). */
OGDA_DEV_FN uint64_t ogda_dev_sq_db_value(const struct doca_gpu_dev_verbs_qp *qp, uint64_t pi)
{
	return opengda_mlx5_pack_words(ogda_dev_be32_idx16_shift8((uint32_t)pi), ogda_dev_ro_u32(&qp->sq_num_shift8_be));
}

/** The QP's doorbell handler, AUTO resolved (the export never leaves AUTO in the view). */
OGDA_DEV_FN uint32_t ogda_dev_sq_handler(const struct doca_gpu_dev_verbs_qp *qp, uint32_t handler)
{
	return handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO ? ogda_dev_ro_u32((const uint32_t *)&qp->nic_handler)
							       : handler;
}

/** Whether the ring lives in GPU memory (the doorbell is then ordered at GPU scope). */
OGDA_DEV_FN int ogda_dev_sq_ring_in_gpu(const struct doca_gpu_dev_verbs_qp *qp)
{
	return ogda_dev_ro_u32((const uint32_t *)&qp->mem_type) == DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU;
}

/** The release fence that orders WQE stores before the doorbell record and doorbell. */
OGDA_DEV_FN void ogda_dev_sq_fence_before_db(const struct doca_gpu_dev_verbs_qp *qp)
{
	if (ogda_dev_sq_ring_in_gpu(qp))
		ogda_dev_fence_gpu_mem_release();
	else
		ogda_dev_fence_nic_release();
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
 * Doorbell record (when the QP has one) and doorbell for @p pi with no fence of their own: for a
 * caller whose fence already ordered the WQEs (ogda_dev_sq_submit_excl, the fence-first post).
 */
OGDA_DEV_FN void ogda_dev_sq_write_db_dbr(struct doca_gpu_dev_verbs_qp *qp, uint64_t pi)
{
	uint32_t *dbrec = (uint32_t *)ogda_dev_ro_ptr((void *const *)&qp->sq_dbrec);

	if (dbrec != 0)
		ogda_dev_store_nic_u32(dbrec, opengda_mlx5_qp_dbr_value((uint32_t)pi));
	ogda_dev_store_doorbell_u64((uint64_t *)ogda_dev_ro_ptr((void *const *)&qp->sq_db), ogda_dev_sq_db_value(qp, pi));
}

/**
 * Doorbell record (when the QP has one) and doorbell for @p pi behind one release fence: the
 * ordering the NIC needs (file header), one fence per ring. Its scope follows where the ring is:
 * GPU scope when the WQEs are in GPU memory (ogda_dev_fence_gpu_mem_release says why that is
 * enough), system scope when they are in host memory (the software NIC's rings).
 */
OGDA_DEV_FN void ogda_dev_sq_ring_db_dbr(struct doca_gpu_dev_verbs_qp *qp, uint64_t pi)
{
	ogda_dev_sq_fence_before_db(qp);
	ogda_dev_sq_write_db_dbr(qp, pi);
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

/** Whether the CPU service keeps the doorbell record (NO_DBR_SW_EMULATED). */
OGDA_DEV_FN int ogda_dev_sq_dbr_emulated(const struct doca_gpu_dev_verbs_qp *qp)
{
	return ogda_dev_ro_u32((const uint32_t *)&qp->send_dbr_mode_ext) ==
	       DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED;
}

/**
 * Makes the NIC see WQEs up to (excluding) @p pi, moving on from @p prev, the last value rung.
 * Dispatches on the QP's handler (every handler, BlueFlame included).
 */
OGDA_DEV_FN void ogda_dev_sq_ring_to(struct doca_gpu_dev_verbs_qp *qp, uint64_t prev, uint64_t pi, uint32_t handler)
{
	handler = ogda_dev_sq_handler(qp, handler);
	if (handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY) {
		ogda_dev_sq_ring_proxy(qp, pi);
		return;
	}
	if (ogda_dev_sq_dbr_emulated(qp)) {
		/* The GPU rings; the CPU service keeps the record from the mailbox (and re-rings). */
		ogda_dev_sq_ring_db(qp, pi);
		ogda_dev_atomic_max_sys_u64(qp->ogda_pi_mailbox, pi);
		return;
	}
	if (handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF && pi - prev == 1 &&
	    ogda_dev_ro_ptr((void *const *)&qp->sq_dbrec) != 0) {
		/*
		 * The WQE is copied before the record moves: once the NIC sees the record it may
		 * execute and complete the WQE, and another thread may then reuse its slot.
		 */
		uint64_t copy[8];
		const uint64_t *src = (const uint64_t *)ogda_dev_wqe_ptr(qp, prev);
		int k;

		for (k = 0; k < 8; k++)
			copy[k] = src[k];
		ogda_dev_sq_update_dbr(qp, pi);
		ogda_dev_sq_ring_bf_wqe(qp, copy);
		return;
	}
	/* GPU_SM_DB; GPU_SM_NO_DBR (its view has no record); BlueFlame for more than one WQEBB. */
	ogda_dev_sq_ring_db_dbr(qp, pi);
}

/**
 * The ringer's loop, entered holding sq_lock (whose value the holder knows is @p lockv). When
 * @p scan is set, first carries sq_ready_index over recorded ranges; then rings up to it (@p
 * ready, when not 0, is a value the caller knows it holds: no load), and lets go unless somebody
 * flagged the word meanwhile, in which case it looks again. Leaves PENDING behind when its scan
 * stopped short of the reserved index: a range may be recorded past the gap.
 */
OGDA_DEV_FN void ogda_dev_sq_ring_held(struct doca_gpu_dev_verbs_qp *qp, int lockv, int scan, uint64_t ready,
				       int sharing, uint32_t handler)
{
	/*
	 * A flag already in the word when we took it cannot be raised again: a publisher's AGAIN
	 * (or PENDING) during our ring would leave the word as we know it, our release would succeed,
	 * and its work would stay unrung. So clear them first, and look, since they were raised for
	 * a reason. Without contention the word was 0 and this costs nothing.
	 */
	if (lockv != OGDA_DEV_SQ_LOCK_HELD) {
		(void)ogda_dev_atomic_exch_acq_rel_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_HELD, sharing);
		lockv = OGDA_DEV_SQ_LOCK_HELD;
		scan = 1;
	}
	for (;;) {
		uint64_t prev = ogda_dev_load_relaxed_u64(&qp->sq_wqe_pi); /* ours under the lock */
		int after = 0;

		if (scan)
			(void)ogda_dev_sq_advance_ready(qp, sharing);
		if (scan || ready == 0) {
#if defined(__CUDACC__)
			ready = ogda_dev_load_relaxed_u64(&qp->sq_ready_index);
			ogda_dev_fence_acquire_scope(sharing);
#else
			ready = ogda_dev_load_acquire_u64(&qp->sq_ready_index, sharing);
#endif
		}
		if (ready > prev) {
			ogda_dev_sq_ring_to(qp, prev, ready, handler);
			ogda_dev_store_relaxed_u64(&qp->sq_wqe_pi, ready);
		}
		if (scan && ready < ogda_dev_load_relaxed_u64(&qp->sq_rsvd_index))
			after = OGDA_DEV_SQ_LOCK_PENDING;
#if defined(OGDA_DEV_SQ_TEST_BEFORE_RELEASE)
		OGDA_DEV_SQ_TEST_BEFORE_RELEASE(qp); /* a unit test's publisher, at the racy point */
#endif
		/*
		 * Let go (a release: the doorbell and sq_wqe_pi come before the next holder's) unless
		 * the word changed since we knew it: somebody published and flagged AGAIN, or
		 * recorded a range and flagged PENDING. Then keep the lock, clear the flags, look
		 * again. All of it is read-modify-write of the one word, so no flag goes unseen.
		 */
		if (ogda_dev_atomic_cas_release_i32(&qp->sq_lock, lockv, after, sharing) == lockv)
			return;
		(void)ogda_dev_atomic_exch_acq_rel_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_HELD, sharing);
		lockv = OGDA_DEV_SQ_LOCK_HELD;
		scan = 1;
	}
}

/**
 * Takes sq_lock, or, when it is held, flags AGAIN so the holder looks once more (a release,
 * after the caller's publication; the holder's exchange acquires it). Returns the lock word as
 * the new holder knows it (HELD set), or 0 when the holder will do the ringing.
 */
OGDA_DEV_FN int ogda_dev_sq_lock_or_flag(struct doca_gpu_dev_verbs_qp *qp, int sharing)
{
	for (;;) {
		int old = ogda_dev_atomic_or_acquire_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_HELD, sharing);

		if (!(old & OGDA_DEV_SQ_LOCK_HELD))
			return old | OGDA_DEV_SQ_LOCK_HELD;
		if (ogda_dev_atomic_or_release_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_AGAIN, sharing) &
		    OGDA_DEV_SQ_LOCK_HELD)
			return 0;
		/* released in between: try to take it ourselves */
	}
}

/** Whether the QP rings with a plain doorbell (and record): GPU_SM_DB or GPU_SM_NO_DBR, not emulated. */
OGDA_DEV_FN int ogda_dev_sq_plain_db(const struct doca_gpu_dev_verbs_qp *qp, uint32_t handler)
{
	handler = ogda_dev_sq_handler(qp, handler);
	return (handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB ||
		handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR) &&
	       !ogda_dev_sq_dbr_emulated(qp);
}

/**
 * EXCLUSIVE submit: rings @p pi if it is beyond the last value rung. With a plain doorbell (GPU_SM_DB,
 * GPU_SM_NO_DBR; the other handlers go through ogda_dev_sq_ring_to) the fence comes first and the
 * comparison after it: the load of sq_wqe_pi is then in flight while the fence waits for the
 * WQE stores, instead of adding its round trip in front of the fence. A stale @p pi (not beyond
 * sq_wqe_pi) costs a fence and rings nothing, as before.
 */
OGDA_DEV_FN void ogda_dev_sq_submit_excl(struct doca_gpu_dev_verbs_qp *qp, uint64_t pi, uint32_t handler)
{
	uint64_t prev = qp->sq_wqe_pi;

	if (ogda_dev_sq_plain_db(qp, handler)) {
		ogda_dev_sq_fence_before_db(qp);
		if (pi > prev) {
			ogda_dev_sq_write_db_dbr(qp, pi);
			qp->sq_wqe_pi = pi;
		}
		return;
	}
	if (pi > prev) {
		ogda_dev_sq_ring_to(qp, prev, pi, handler);
		qp->sq_wqe_pi = pi;
	}
}

/**
 * Makes everything published visible to the NIC. EXCLUSIVE: rings @p pi (the caller's producer
 * index) if it is new. Shared: rings up to sq_ready_index under sq_lock, after carrying the index
 * over recorded ranges (@p pi is not used: the index may cover other threads' WQEs too).
 */
OGDA_DEV_FN void ogda_dev_sq_submit(struct doca_gpu_dev_verbs_qp *qp, uint64_t pi, int sharing, uint32_t handler)
{
	int lockv;

	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		ogda_dev_sq_submit_excl(qp, pi, handler);
		return;
	}
	(void)pi;
	lockv = ogda_dev_sq_lock_or_flag(qp, sharing);
	if (lockv != 0)
		ogda_dev_sq_ring_held(qp, lockv, 1, 0, sharing, handler);
}

/**
 * Publishes WQEBBs [from, to] of a shared QP and rings: what a post does after writing its WQEs.
 *
 * Fence first (plain doorbells): the one release fence of the post comes before its atomics
 * instead of before its doorbell. It orders the caller's WQE stores before everything after it
 * at the ring's scope, so the publication that follows is a release (fence, then relaxed write)
 * and the doorbell needs no fence of its own. The three accesses that decide the path are then
 * independent and in flight together, one round trip instead of three: take sq_lock (fetch-or),
 * publish (compare-and-swap from @p from), read the last index rung; one acquire fence after them
 * (the previous holder's doorbell comes before ours). When the caller took the lock, was first in
 * line, found no flag and nothing published unrung below its range, it writes the doorbell record
 * and the doorbell at once and lets go: one fence, one round trip, the release of the let-go.
 * Any other outcome continues as the general protocol does with the same three answers:
 *
 * - Lock taken: publishes with the CAS when first in line (else records the range in its first
 *   slot's word) and rings in ogda_dev_sq_ring_held, scanning when the lock word says a range
 *   may be recorded (PENDING, AGAIN) or when the CAS failed.
 * - A ringer is busy: the range is published (already, when the CAS succeeded; else with release
 *   semantics, CAS when first in line or recorded in its slot word) and carried as far as it can
 *   go (help forward), then the holder is flagged to look again.
 */
OGDA_DEV_FN void ogda_dev_sq_post_shared(struct doca_gpu_dev_verbs_qp *qp, uint64_t from, uint64_t to, int sharing,
					 uint32_t handler)
{
	int plain = ogda_dev_sq_plain_db(qp, handler);
	uint64_t seen, rung = 0;
	int lockv;

	if (plain) {
		ogda_dev_sq_fence_before_db(qp);
		lockv = ogda_dev_atomic_or_relaxed_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_HELD, sharing);
#if defined(__CUDACC__)
		seen = ogda_dev_atomic_cas_relaxed_u64(&qp->sq_ready_index, from, to + 1, sharing);
		rung = ogda_dev_load_relaxed_u64(&qp->sq_wqe_pi);
		ogda_dev_fence_acquire_scope(sharing);
#else
		/* Host threads: acquire-release, which is what ThreadSanitizer checks (port.h). */
		seen = ogda_dev_atomic_cas_u64(&qp->sq_ready_index, from, to + 1, sharing);
		rung = ogda_dev_load_relaxed_u64(&qp->sq_wqe_pi);
#endif
	} else {
		lockv = ogda_dev_atomic_or_acquire_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_HELD, sharing);
		seen = lockv & OGDA_DEV_SQ_LOCK_HELD ? ~from : ogda_dev_atomic_cas_relaxed_u64(&qp->sq_ready_index, from,
											   to + 1, sharing);
	}
	if (!(lockv & OGDA_DEV_SQ_LOCK_HELD)) {
		int scan = (lockv & (OGDA_DEV_SQ_LOCK_AGAIN | OGDA_DEV_SQ_LOCK_PENDING)) != 0;

		lockv |= OGDA_DEV_SQ_LOCK_HELD;
		if (seen == from && plain && !scan && rung == from) {
			/* Only our WQEs to ring, already ordered by our fence. */
			ogda_dev_sq_write_db_dbr(qp, to + 1);
			ogda_dev_store_relaxed_u64(&qp->sq_wqe_pi, to + 1);
#if defined(OGDA_DEV_SQ_TEST_BEFORE_RELEASE)
			OGDA_DEV_SQ_TEST_BEFORE_RELEASE(qp); /* a unit test's publisher, at the racy point */
#endif
			lockv = ogda_dev_atomic_cas_release_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_HELD, 0, sharing);
			if (lockv != OGDA_DEV_SQ_LOCK_HELD)
				ogda_dev_sq_ring_held(qp, lockv, 1, 0, sharing, handler); /* flagged meanwhile */
			return;
		}
		if (seen == from) {
			ogda_dev_sq_ring_held(qp, lockv, scan, scan ? 0 : to + 1, sharing, handler);
			return;
		}
		/* Not first in line: record the range; the scan (ours or a later holder's) carries it. */
		ogda_dev_store_relaxed_u64(ogda_dev_sq_slot(qp, from), to + 1);
		ogda_dev_sq_ring_held(qp, lockv, 1, 0, sharing, handler);
		return;
	}
	/* A ringer is busy: publish and carry the index ourselves (help forward), then flag it. */
	if (seen == from) {
		ogda_dev_fence_handoff(sharing);
		(void)ogda_dev_sq_advance_ready_from(qp, to + 1, sharing);
	} else {
		(void)ogda_dev_sq_publish(qp, from, to, sharing);
	}
	if (ogda_dev_atomic_or_release_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_AGAIN, sharing) & OGDA_DEV_SQ_LOCK_HELD)
		return;
	lockv = ogda_dev_sq_lock_or_flag(qp, sharing);
	if (lockv != 0)
		ogda_dev_sq_ring_held(qp, lockv, 1, 0, sharing, handler);
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
