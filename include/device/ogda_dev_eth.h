/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_eth.h
 * @brief Ethernet sends of the device data path (C core; CUDA and host threads).
 *
 * An Ethernet send queue is posted to exactly as a QP's send queue: the reservation, readiness and
 * doorbell of ogda_dev_sq.h through ogda_dev_post_begin / ogda_dev_post_end (ogda_dev_ops.h), on
 * the struct doca_gpu_dev_verbs_qp inside struct doca_gpu_eth_txq. Only the WQE differs: ctrl,
 * Ethernet segment (checksum flags, no inline header) and one or two data segments, one WQEBB;
 * or, for an enhanced multi-packet send, up to 61 data segments (one packet each) in up to 16.
 *
 * Completions differ from the verbs path: only NOTIFY sends produce a CQE (CE = always; others ask
 * for CQEs on error only), so CQE indices count completions, not WQEs. poll_completion reserves
 * CQE indices (cq_rsvd_index) and waits for them on the queue's CQ by index.
 *
 * Ring space, as in the SDK: a reservation does not wait for free WQEBBs; callers keep at most a
 * ring's worth of sends outstanding by polling NOTIFY completions.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_ETH_H
#define OGDA_DEV_ETH_H

#include "../doca_gpunetio_eth_def.h"
#include "ogda_dev_ops.h"

/** CE "first error": a CQE only when the send fails. */
#define OGDA_DEV_ETH_CE_ERROR ((uint8_t)(1u << OPENGDA_MLX5_CE_SHIFT))

/** fm_ce_se of a send with @p flags (enum doca_gpu_eth_send_flags). */
OGDA_DEV_FN uint8_t ogda_dev_eth_fm_ce_se(uint32_t flags)
{
	return (flags & DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY) ? (uint8_t)OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE : OGDA_DEV_ETH_CE_ERROR;
}

/** The Ethernet segment: checksum flags at byte 4, no inline header. */
OGDA_DEV_FN void ogda_dev_eth_store_eseg(void *dst, uint8_t cs_flags)
{
	ogda_dev_store_seg(dst, opengda_mlx5_pack_words(0, opengda_mlx5_htobe32((uint32_t)cs_flags << 24)), 0);
}

/**
 * SEND of one frame gathered from one (@p size1 == 0) or two buffers (the SDK's wqe_prepare_send):
 * ctrl, Ethernet segment, data segment(s). One WQEBB.
 */
OGDA_DEV_FN void ogda_dev_eth_wqe_send(const struct doca_gpu_eth_txq *txq, struct doca_gpu_dev_verbs_wqe *wqe,
				       uint64_t idx, uint64_t addr0, uint32_t mkey0_be, uint32_t size0, uint64_t addr1,
				       uint32_t mkey1_be, uint32_t size1, uint32_t flags)
{
	uint8_t *w = (uint8_t *)wqe;
	uint32_t ds = size1 ? 4u : 3u;

	ogda_dev_store_seg(w, ogda_dev_ctrl_lo(idx, OPENGDA_MLX5_OPCODE_SEND, 0, ogda_dev_qpn_ds(&txq->qp, ds)),
			   ogda_dev_ctrl_hi(ogda_dev_eth_fm_ce_se(flags), 0));
	ogda_dev_eth_store_eseg(w + 16, txq->cs_flags);
	ogda_dev_store_dseg(w + 32, addr0, mkey0_be, size0);
	if (size1)
		ogda_dev_store_dseg(w + 48, addr1, mkey1_be, size1);
}

/** Data segments of one enhanced multi-packet send WQE, at most (DS 63 less ctrl and Ethernet segment). */
#define OGDA_DEV_ETH_EMPW_MAX_DS 61u

/** WQEBBs of an enhanced multi-packet send of @p ds_num packets: ctrl + Ethernet segment + ds_num, 4 per WQEBB. */
OGDA_DEV_FN uint32_t ogda_dev_eth_empw_wqebbs(uint32_t ds_num)
{
	return (ds_num + 2u + 3u) / 4u;
}

/**
 * One packet of an enhanced multi-packet send (ENHANCED_MPSW, the SDK's wqe_prepare_send_empw):
 * the WQE of index @p idx (@p wqe its first WQEBB) carries @p ds_num packets, one data segment
 * each; this writes packet @p ds_idx, the data segment at 16-byte slot 2 + ds_idx of the WQE
 * (4 per WQEBB, later WQEBBs found through the ring so a WQE may wrap its end). Packet 0 also
 * writes the ctrl segment (DS 2 + ds_num, CE from @p flags) and the Ethernet segment (the queue's
 * checksum flags, for every packet). Threads may write the packets of one WQE in any order; the
 * WQE is whole once all of them did. A zero @p nbytes is written as an empty inline chunk
 * (0x80000000), as the SDK does. Returns 0, or -OPENGDA_DEV_EINVAL with nothing written for
 * ds_num outside 1..61, ds_idx >= ds_num or nbytes of 2^31 or more.
 */
OGDA_DEV_FN int ogda_dev_eth_wqe_empw(const struct doca_gpu_eth_txq *txq, struct doca_gpu_dev_verbs_wqe *wqe,
				      uint64_t idx, uint32_t ds_num, uint32_t ds_idx, uint64_t addr, uint32_t mkey_be,
				      uint32_t nbytes, uint32_t flags)
{
	const uint32_t slot = ds_idx + 2u;
	uint8_t *w = (uint8_t *)wqe;

	if (ds_num == 0 || ds_num > OGDA_DEV_ETH_EMPW_MAX_DS || ds_idx >= ds_num || (nbytes & OPENGDA_MLX5_INLINE_SEG) != 0)
		return -OPENGDA_DEV_EINVAL;
	if (ds_idx == 0) {
		ogda_dev_store_seg(w, ogda_dev_ctrl_lo(idx, OPENGDA_MLX5_OPCODE_ENHANCED_MPSW, 0,
						       ogda_dev_qpn_ds(&txq->qp, ds_num + 2u)),
				   ogda_dev_ctrl_hi(ogda_dev_eth_fm_ce_se(flags), 0));
		ogda_dev_eth_store_eseg(w + 16, txq->cs_flags);
	}
	if (slot >= 4u)
		w = (uint8_t *)ogda_dev_wqe_ptr(&txq->qp, idx + slot / 4u);
	w += (slot % 4u) * 16u;
	if (nbytes == 0)
		ogda_dev_store_seg(w, opengda_mlx5_pack_words(opengda_mlx5_htobe32(OPENGDA_MLX5_INLINE_SEG), 0), 0);
	else
		ogda_dev_store_dseg(w, addr, mkey_be, nbytes);
	return 0;
}

/**
 * WAIT on time (the SDK's wqe_prepare_wait_time): the NIC sends nothing after it before its clock
 * passes @p wot_be (doca_gpu_dev_eth_txq_calculate_timestamp's big-endian value). ctrl + the
 * 32-byte wait segment (condition cyclic-smaller, full mask): DS 3, one WQEBB.
 */
OGDA_DEV_FN void ogda_dev_eth_wqe_wait_time(const struct doca_gpu_eth_txq *txq, struct doca_gpu_dev_verbs_wqe *wqe,
					    uint64_t idx, uint64_t wot_be, uint32_t flags)
{
	uint8_t *w = (uint8_t *)wqe;

	ogda_dev_store_seg(w, ogda_dev_ctrl_lo(idx, OPENGDA_MLX5_OPCODE_WAIT, OPENGDA_MLX5_OPMOD_WAIT_TIME,
					       ogda_dev_qpn_ds(&txq->qp, 3)),
			   ogda_dev_ctrl_hi(ogda_dev_eth_fm_ce_se(flags), 0));
	/* operation, lkey 0, va 0; then the value and the mask */
	ogda_dev_store_seg(w + 16, opengda_mlx5_pack_words(opengda_mlx5_htobe32(OPENGDA_MLX5_WAIT_COND_CYCLIC_SMALLER), 0),
			   0);
	ogda_dev_store_seg(w + 32, wot_be, ~(uint64_t)0);
}

/** Reserves @p count WQEBBs (no wait for space: see the file comment); returns the first. */
OGDA_DEV_FN uint64_t ogda_dev_eth_reserve(struct doca_gpu_eth_txq *txq, uint32_t count, int sharing)
{
	uint64_t base = 0;

	(void)ogda_dev_post_begin(&txq->qp, count, sharing, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
				  DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_AVAILABILITY_CHECK, &base);
	return base;
}

/** Publishes WQEBBs [base, base + count) and makes the NIC see them (mark ready + submit). */
OGDA_DEV_FN void ogda_dev_eth_post(struct doca_gpu_eth_txq *txq, uint64_t base, uint32_t count, int sharing,
				   uint32_t handler)
{
	ogda_dev_post_end(&txq->qp, base, count, sharing, handler, 0);
}

/** send (thread scope): one frame of @p size bytes at @p addr; *ticket = its WQE index. */
OGDA_DEV_FN void ogda_dev_eth_op_send(struct doca_gpu_eth_txq *txq, uint64_t addr, uint32_t mkey_be, uint32_t size,
				      uint32_t flags, int sharing, uint32_t handler, uint64_t *ticket)
{
	uint64_t base = ogda_dev_eth_reserve(txq, 1, sharing);

	ogda_dev_eth_wqe_send(txq, ogda_dev_wqe_ptr(&txq->qp, base), base, addr, mkey_be, size, 0, 0, 0, flags);
	ogda_dev_eth_post(txq, base, 1, sharing, handler);
	ogda_dev_set_ticket(ticket, base);
}

/**
 * wait_send (thread scope): a WAIT on time, then the send, in two consecutive WQEBBs; the WAIT
 * asks for a CQE only on error. *ticket = the send's WQE index.
 */
OGDA_DEV_FN void ogda_dev_eth_op_wait_send(struct doca_gpu_eth_txq *txq, uint64_t wot_be, uint64_t addr,
					   uint32_t mkey_be, uint32_t size, uint32_t flags, int sharing, uint32_t handler,
					   uint64_t *ticket)
{
	uint64_t base = ogda_dev_eth_reserve(txq, 2, sharing);

	ogda_dev_eth_wqe_wait_time(txq, ogda_dev_wqe_ptr(&txq->qp, base), base, wot_be, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
	ogda_dev_eth_wqe_send(txq, ogda_dev_wqe_ptr(&txq->qp, base + 1), base + 1, addr, mkey_be, size, 0, 0, 0, flags);
	ogda_dev_eth_post(txq, base, 2, sharing, handler);
	ogda_dev_set_ticket(ticket, base + 1);
}

/**
 * Waits for the CQE of index @p cqe_idx (blocking, bounded by the CQ's wait bound) or looks once.
 * 0; OPENGDA_DEV_EBUSY (one look, not there); -OPENGDA_DEV_ETIMEDOUT; OPENGDA_DEV_CQE_ERROR(syndrome).
 */
OGDA_DEV_FN int ogda_dev_eth_poll_at(struct doca_gpu_eth_txq *txq, uint64_t cqe_idx, int blocking, int sharing)
{
	return blocking ? ogda_dev_cq_poll_at(&txq->qp.cq_sq, cqe_idx, sharing)
			: ogda_dev_cq_poll_one_at(&txq->qp.cq_sq, cqe_idx, sharing);
}

/**
 * poll_completion: @p num_cqe completions of NOTIFY sends. Blocking: reserves the next num_cqe CQE
 * indices and waits for all of them (@p poll_last 0) or the last (earlier ones retire with it);
 * *num_completed = num_cqe on success. Not blocking: consumes what is there, up to num_cqe, and
 * reserves what it consumed. Returns 0 or the first error (as ogda_dev_eth_poll_at).
 */
OGDA_DEV_FN int ogda_dev_eth_poll_completion(struct doca_gpu_eth_txq *txq, uint32_t num_cqe, int poll_last,
					     int blocking, int sharing, uint32_t *num_completed)
{
	uint64_t base;
	uint32_t k;
	int rc = 0;

	*num_completed = 0;
	if (num_cqe == 0)
		return 0;
	if (!blocking) {
		rc = ogda_dev_cq_poll_count(&txq->qp.cq_sq, num_cqe, sharing);
		if (rc < 0)
			return rc;
		*num_completed = (uint32_t)rc;
		if (sharing == OGDA_DEV_SHARE_EXCLUSIVE)
			txq->cq_rsvd_index += (uint32_t)rc;
		else
			(void)ogda_dev_atomic_add_u64(&txq->cq_rsvd_index, (uint32_t)rc, sharing);
		return 0;
	}
	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		base = txq->cq_rsvd_index;
		txq->cq_rsvd_index = base + num_cqe;
	} else {
		base = ogda_dev_atomic_add_u64(&txq->cq_rsvd_index, num_cqe, sharing);
	}
	for (k = poll_last ? num_cqe - 1 : 0; k < num_cqe; k++) {
		rc = ogda_dev_eth_poll_at(txq, base + k, 1, sharing);
		if (rc != 0)
			return rc;
	}
	*num_completed = num_cqe;
	return 0;
}

/** The NIC's wait-on-time format of @p ts_ns: BE64(seconds << 32 | nanoseconds). */
OGDA_DEV_FN uint64_t ogda_dev_eth_calculate_timestamp(uint64_t ts_ns)
{
	return opengda_mlx5_htobe64(((ts_ns / 1000000000ull) << 32) | (ts_ns % 1000000000ull));
}

#endif /* OGDA_DEV_ETH_H */
