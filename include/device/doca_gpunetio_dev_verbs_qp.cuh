/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_verbs_qp.cuh
 * @brief DOCA GPUNetIO device API, low level: ring slots, readiness, doorbells, WQE builders.
 *
 * Thin wrappers over the C core (ogda_dev_sq.h, ogda_dev_wqe.h): the shared-QP protocol there
 * (per-slot readiness with help-forward, a try-lock ringer that never makes a thread wait for
 * another) is what every name below uses. Keys are big-endian (DOCA_GPUNETIO_VERBS_MKEY_SWAPPED);
 * addresses, lengths and atomic operands in host order.
 *
 * Deliberate differences from DOCA:
 * - wait_until_slot_available returns int (0 or the poll's error); reserve_wq_slots still returns
 *   the first index and reports a wait error through an optional trailing `int *out_status`
 *   (the slots stay the caller's: fill and publish them, or later posts stall behind them).
 * - mark_wqes_ready's ready_mode is accepted and ignored: readiness is per slot and nobody waits.
 * - submit<..., AUTO> dispatches every handler the QP may have, BlueFlame included. submit_bf
 *   and submit_bf_warp copy the 64 bytes from the ring slot (the WQE must be there anyway; the
 *   `smem_wqe` argument is accepted for compatibility). The sync_scope template arguments of the
 *   submit family are accepted; the core orders WQEs, record and doorbell at system scope.
 * - ring_db / update_dbr fence at system scope unless sync_scope is THREAD (the caller fenced).
 * - ring_bf copies from any memory with plain 8-byte loads (DOCA: TMA from shared memory, sm_90).
 * - WQE indices are taken as uint64_t (DOCA: uint16_t; only the low 16 bits reach the WQE).
 * - wqe_prepare_write_inl returns int: OPENGDA_MLX5_EINVAL (nothing written) above 28 bytes.
 * - wqe_prepare_atomic: standard atomics are 8 bytes; `bytes` is accepted and not used.
 * - wqe_prepare_atomic_ext takes every operand and mask in host order (DOCA byte-swaps some).
 * - qp_type RQ (two-sided receives): reserve_wq_slots waits for space on the receive CQ;
 *   mark_wqes_ready publishes in order (a bounded wait for earlier slots) and, like submit, returns
 *   0 or -ETIMEDOUT (the SQ forms return 0); submit writes the receive doorbell record under
 *   rq_lock (no doorbell register, whatever the handler). get_rwqe_ptr takes a 64-bit index.
 *
 * C++17, device code only.
 */
#ifndef DOCA_GPUNETIO_DEV_VERBS_QP_CUH
#define DOCA_GPUNETIO_DEV_VERBS_QP_CUH

#include "doca_gpunetio_dev_verbs_common.cuh"
#include "doca_gpunetio_dev_verbs_cq.cuh"
#include "ogda_dev_rq.h"
#include "ogda_dev_send.h"
#include "ogda_dev_sq.h"
#include "ogda_dev_wqe.h"

namespace ogda_cuh {
/** Stores @p nseg 16-byte segments staged in local memory (built by opengda_mlx5.h encoders). */
__device__ static __forceinline__ void store_staged(void *dst, const void *src, uint32_t nseg)
{
	const uint8_t *s = (const uint8_t *)src;
	uint8_t *d = (uint8_t *)dst;
	uint32_t k;

	for (k = 0; k < nseg; k++) {
		uint64_t lo, hi;

		opengda_mlx5_copy_bytes(&lo, s + 16 * k, 8);
		opengda_mlx5_copy_bytes(&hi, s + 16 * k + 8, 8);
		ogda_dev_store_seg(d + 16 * k, lo, hi);
	}
}

/** Ctrl segment of @p ds units for WQE index @p idx. */
__device__ static __forceinline__ void store_ctrl(const struct doca_gpu_dev_verbs_qp *qp, void *wqe, uint64_t idx,
						  uint8_t opcode, uint8_t opmod, uint32_t ds, uint8_t fm_ce_se)
{
	ogda_dev_store_seg(wqe, ogda_dev_ctrl_lo(idx, opcode, opmod, ogda_dev_qpn_ds(qp, ds)),
			   ogda_dev_ctrl_hi(fm_ce_se, 0));
}
} /* namespace ogda_cuh */

/* ---- slots ----------------------------------------------------------------------------------- */

/** Stores one 16-byte WQE segment (@p val: two 8-byte halves in memory order). */
__device__ static __forceinline__ void doca_gpu_dev_verbs_store_wqe_seg(uint64_t *ptr, uint64_t *val)
{
	ogda_dev_store_seg(ptr, val[0], val[1]);
}

/** The WQEBB that WQE index @p wqe_idx maps to. */
__device__ static __forceinline__ struct doca_gpu_dev_verbs_wqe *
doca_gpu_dev_verbs_get_wqe_ptr(struct doca_gpu_dev_verbs_qp *qp, uint64_t wqe_idx)
{
	return ogda_dev_wqe_ptr(qp, wqe_idx);
}

/** Waits until slot @p wqe_idx (and every slot before it) may be written: 0 or the poll's error. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ int doca_gpu_dev_verbs_wait_until_slot_available(struct doca_gpu_dev_verbs_qp *qp,
										   uint64_t wqe_idx)
{
	if constexpr (qp_type == DOCA_GPUNETIO_VERBS_QP_RQ) {
		struct ogda_dev_rq rq = ogda_dev_qp_rq(qp);

		return ogda_dev_rq_wait_slots(&rq, wqe_idx, 1, (int)resource_sharing_mode);
	} else {
		return ogda_dev_sq_wait_slots(qp, wqe_idx, 1, (int)resource_sharing_mode);
	}
}

/**
 * Reserves @p count slots and (unless SKIP_AVAILABILITY_CHECK) waits until they may be written.
 * @return The first slot's index. @p out_status (optional) receives 0 or the wait's error.
 */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ uint64_t doca_gpu_dev_verbs_reserve_wq_slots(
	struct doca_gpu_dev_verbs_qp *qp, uint32_t count, uint32_t code_opt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT,
	int *out_status = nullptr)
{
	uint64_t base;
	int rc = 0;

	if constexpr (qp_type == DOCA_GPUNETIO_VERBS_QP_RQ) {
		struct ogda_dev_rq rq = ogda_dev_qp_rq(qp);

		base = ogda_dev_rq_reserve(&rq, count, (int)resource_sharing_mode);
		if (!(code_opt & DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_AVAILABILITY_CHECK))
			rc = ogda_dev_rq_wait_slots(&rq, base, count, (int)resource_sharing_mode);
	} else {
		base = ogda_dev_sq_reserve(qp, count, (int)resource_sharing_mode);
		if (!(code_opt & DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_AVAILABILITY_CHECK))
			rc = ogda_dev_sq_wait_slots(qp, base, count, (int)resource_sharing_mode);
	}
	if (out_status != nullptr)
		*out_status = rc;
	return base;
}

/** Publishes slots [from_wqe_idx, to_wqe_idx] as written (ready_mode is accepted and ignored). */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ,
	  enum doca_gpu_dev_verbs_qp_ready_mode ready_mode = DOCA_GPUNETIO_VERBS_READY_MODE_ATOMIC_CAS>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_mark_wqes_ready(struct doca_gpu_dev_verbs_qp *qp, uint64_t from_wqe_idx, uint64_t to_wqe_idx,
				   uint32_t /* code_opt */ = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT)
{
	if constexpr (qp_type == DOCA_GPUNETIO_VERBS_QP_RQ) {
		struct ogda_dev_rq rq = ogda_dev_qp_rq(qp);

		return ogda_dev_rq_mark_ready(&rq, from_wqe_idx, to_wqe_idx, (int)resource_sharing_mode);
	} else {
		(void)ogda_dev_sq_mark_ready(qp, from_wqe_idx, to_wqe_idx, (int)resource_sharing_mode);
		return 0;
	}
}

/* ---- doorbell record and doorbell ------------------------------------------------------------ */

/** Send doorbell record value for @p prod_index: BE32(prod_index & 0xffff). */
__device__ static __forceinline__ uint32_t doca_gpu_dev_verbs_prepare_dbr(uint32_t prod_index)
{
	return opengda_mlx5_qp_dbr_value(prod_index);
}

/** Writes the send doorbell record (after the WQEs it covers). */
template <enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_update_dbr(struct doca_gpu_dev_verbs_qp *qp, uint32_t prod_index,
			      uint32_t code_opt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT)
{
	if (code_opt & DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_ASYNC_STORE_RELEASE)
		doca_gpu_dev_verbs_async_store_release(qp->sq_dbrec, doca_gpu_dev_verbs_prepare_dbr(prod_index));
	else if constexpr (sync_scope == DOCA_GPUNETIO_VERBS_SYNC_SCOPE_THREAD)
		ogda_dev_store_nic_u32(qp->sq_dbrec, doca_gpu_dev_verbs_prepare_dbr(prod_index));
	else
		ogda_dev_sq_update_dbr(qp, prod_index);
}

/** The 8-byte doorbell for @p prod_index (first 8 bytes of a ctrl segment). */
__device__ static __forceinline__ uint64_t doca_gpu_dev_verbs_prepare_db(struct doca_gpu_dev_verbs_qp *qp,
									 uint64_t prod_index)
{
	return ogda_dev_sq_db_value(qp, prod_index);
}

/** Rings the doorbell register for @p prod_index. */
template <enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_ring_db(struct doca_gpu_dev_verbs_qp *qp, uint64_t prod_index,
			   uint32_t code_opt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT)
{
	if (code_opt & DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_ASYNC_STORE_RELEASE)
		doca_gpu_dev_verbs_async_store_release(qp->sq_db, ogda_dev_sq_db_value(qp, prod_index));
	else if constexpr (sync_scope == DOCA_GPUNETIO_VERBS_SYNC_SCOPE_THREAD)
		ogda_dev_store_doorbell_u64(qp->sq_db, ogda_dev_sq_db_value(qp, prod_index));
	else
		ogda_dev_sq_ring_db(qp, prod_index);
}

/** BlueFlame: copies the 64-byte WQE at @p wqe_ptr (any memory) into the BlueFlame register. */
template <enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static __forceinline__ void doca_gpu_dev_verbs_ring_bf(struct doca_gpu_dev_verbs_qp *qp,
								  struct doca_gpu_dev_verbs_wqe *wqe_ptr)
{
	ogda_dev_sq_ring_bf_wqe(qp, wqe_ptr);
}

/**
 * BlueFlame by a whole warp (all 32 lanes call): lanes 1..7 store a word each, then lane 0
 * stores the first word, which is the doorbell, after a fence.
 */
template <enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static __forceinline__ void doca_gpu_dev_verbs_ring_bf_warp(struct doca_gpu_dev_verbs_qp *qp,
								       struct doca_gpu_dev_verbs_wqe *wqe_ptr)
{
	const unsigned int lane = doca_gpu_dev_verbs_get_lane_id();
	const uint64_t *src = (const uint64_t *)wqe_ptr;

	if (lane == 0)
		ogda_dev_fence_nic_release();
	__syncwarp();
	if (lane >= 1 && lane < 8)
		ogda_dev_store_doorbell_u64(qp->sq_db + lane, src[lane]);
	__syncwarp();
	if (lane == 0) {
		ogda_dev_fence_nic_release();
		ogda_dev_store_doorbell_u64(qp->sq_db, src[0]);
	}
	__syncwarp();
}

/** CPU proxy: publishes @p prod_idx to the host thread that rings for this QP. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode>
__device__ static __forceinline__ void doca_gpu_dev_verbs_ring_proxy(struct doca_gpu_dev_verbs_qp *qp,
								     uint64_t prod_idx)
{
	ogda_dev_sq_ring_proxy(qp, prod_idx);
}

/* ---- submit: make published WQEs visible to the NIC ------------------------------------------ */

/**
 * Submits through the handler @p nic_handler (AUTO: the QP's), unless SKIP_DB_RINGING. RQ:
 * writes the receive doorbell record up to everything published (0 or -ETIMEDOUT).
 */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_submit(struct doca_gpu_dev_verbs_qp *qp, uint64_t prod_index,
			  uint32_t code_opt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT)
{
	if (code_opt & DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING)
		return 0;
	if constexpr (qp_type == DOCA_GPUNETIO_VERBS_QP_RQ) {
		struct ogda_dev_rq rq = ogda_dev_qp_rq(qp);

		return ogda_dev_rq_submit(&rq, (int)resource_sharing_mode);
	} else {
		ogda_dev_sq_submit(qp, prod_index, (int)resource_sharing_mode, (uint32_t)nic_handler);
		return 0;
	}
}

/** Doorbell record, then doorbell (GPU_SM_DB). */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_submit_db(struct doca_gpu_dev_verbs_qp *qp, uint64_t prod_index,
			     uint32_t code_opt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT)
{
	doca_gpu_dev_verbs_submit<resource_sharing_mode, sync_scope, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB,
				  qp_type>(qp, prod_index, code_opt);
}

/** Doorbell only, no record (GPU_SM_NO_DBR). */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_submit_db_no_dbr(struct doca_gpu_dev_verbs_qp *qp, uint64_t prod_index,
				    uint32_t code_opt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT)
{
	doca_gpu_dev_verbs_submit<resource_sharing_mode, sync_scope, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR,
				  qp_type>(qp, prod_index, code_opt);
}

/** BlueFlame when exactly one new WQEBB is rung, else record + doorbell (GPU_SM_BF). */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_submit_bf(struct doca_gpu_dev_verbs_qp *qp, uint64_t prod_index,
			     struct doca_gpu_dev_verbs_wqe * /* smem_wqe */,
			     uint32_t code_opt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT)
{
	doca_gpu_dev_verbs_submit<resource_sharing_mode, sync_scope, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF>(
		qp, prod_index, code_opt);
}

/** submit_bf called by a whole warp; lane 0 submits. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_submit_bf_warp(struct doca_gpu_dev_verbs_qp *qp, uint64_t prod_index,
				  struct doca_gpu_dev_verbs_wqe *wqe,
				  uint32_t code_opt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT)
{
	__syncwarp();
	if (doca_gpu_dev_verbs_get_lane_id() == 0)
		doca_gpu_dev_verbs_submit_bf<resource_sharing_mode, sync_scope>(qp, prod_index, wqe, code_opt);
	__syncwarp();
}

/** Hands the producer index to the CPU proxy (CPU_PROXY). */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_submit_proxy(struct doca_gpu_dev_verbs_qp *qp, uint64_t prod_index,
				uint32_t code_opt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT)
{
	doca_gpu_dev_verbs_submit<resource_sharing_mode, sync_scope, DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY>(
		qp, prod_index, code_opt);
}

/* ---- WQE builders: write at @p wqe_ptr, index @p wqe_idx in the ctrl segment ------------------ */

__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_nop(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				   uint64_t wqe_idx, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags)
{
	ogda_cuh::store_ctrl(qp, wqe_ptr, wqe_idx, OPENGDA_MLX5_OPCODE_NOP, 0, 1, (uint8_t)ctrl_flags);
}

/** RDMA WRITE (or WRITE_IMM by @p opcode; @p immediate big-endian) of one buffer. */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_write(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				     uint64_t wqe_idx, uint32_t opcode,
				     enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags, uint32_t immediate,
				     uint64_t raddr, uint32_t rkey, uint64_t laddr0, uint32_t lkey0, uint32_t bytes0)
{
	ogda_dev_wqe_rdma(qp, wqe_ptr, wqe_idx, (uint8_t)opcode, (uint8_t)ctrl_flags, immediate, raddr, rkey, laddr0,
			  lkey0, bytes0, 0, 0, 0);
}

/** RDMA WRITE gathering two buffers (a second buffer of 0 bytes is left out). */
__device__ static __forceinline__ void doca_gpu_dev_verbs_wqe_prepare_write(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr, uint64_t wqe_idx, uint32_t opcode,
	enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags, uint32_t immediate, uint64_t raddr, uint32_t rkey,
	uint64_t laddr0, uint32_t lkey0, uint32_t bytes0, uint64_t laddr1, uint32_t lkey1, uint32_t bytes1)
{
	ogda_dev_wqe_rdma(qp, wqe_ptr, wqe_idx, (uint8_t)opcode, (uint8_t)ctrl_flags, immediate, raddr, rkey, laddr0,
			  lkey0, bytes0, laddr1, lkey1, bytes1);
}

/** Ctrl and remote-address segments of an inline RDMA WRITE of @p bytes (<= 28). */
__device__ static __forceinline__ void doca_gpu_dev_verbs_prepare_inl_rdma_write_wqe_header(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr, uint64_t wqe_idx,
	enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags, uint64_t raddr, uint32_t rkey, uint32_t bytes)
{
	ogda_cuh::store_ctrl(qp, wqe_ptr, wqe_idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0,
			     2u + opengda_mlx5_inline_ds(bytes), (uint8_t)ctrl_flags);
	ogda_dev_store_raddr((uint8_t *)wqe_ptr + 16, raddr, rkey);
}

/** Inline segment (header and @p data) of an inline RDMA WRITE, at byte 32 of the WQE. */
template <typename T>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_prepare_inl_rdma_write_wqe_data(struct doca_gpu_dev_verbs_qp * /* qp */,
						   struct doca_gpu_dev_verbs_wqe *wqe_ptr, T data)
{
	static_assert(sizeof(T) <= DOCA_GPUNETIO_VERBS_MAX_INLINE_SIZE, "inline data must fit one WQEBB");
	constexpr uint32_t nseg = (OPENGDA_MLX5_INLINE_HDR_SIZE + sizeof(T) + 15u) / 16u;
	alignas(16) uint8_t staged[32];

	(void)opengda_mlx5_inline_seg_write(staged, &data, (uint32_t)sizeof(T));
	ogda_cuh::store_staged((uint8_t *)wqe_ptr + 32, staged, nseg);
}

/** Inline RDMA WRITE of @p bytes (<= 28) read from address @p laddr. */
__device__ static __forceinline__ int
doca_gpu_dev_verbs_wqe_prepare_write_inl(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
					 uint64_t wqe_idx, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags,
					 uint64_t raddr, uint32_t rkey, uint64_t laddr, uint32_t bytes)
{
	if (bytes > DOCA_GPUNETIO_VERBS_MAX_INLINE_SIZE)
		return OPENGDA_MLX5_EINVAL;
	ogda_dev_wqe_write_inl(qp, wqe_ptr, wqe_idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, (uint8_t)ctrl_flags, 0, raddr,
			       rkey, (const void *)(uintptr_t)laddr, bytes);
	return 0;
}

/** RDMA READ into one buffer. */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_read(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				    uint64_t wqe_idx, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags, uint64_t raddr,
				    uint32_t rkey, uint64_t laddr0, uint32_t lkey0, uint32_t bytes0)
{
	ogda_dev_wqe_rdma(qp, wqe_ptr, wqe_idx, OPENGDA_MLX5_OPCODE_RDMA_READ, (uint8_t)ctrl_flags, 0, raddr, rkey,
			  laddr0, lkey0, bytes0, 0, 0, 0);
}

/** RDMA READ scattering into two buffers. */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_read(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				    uint64_t wqe_idx, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags, uint64_t raddr,
				    uint32_t rkey, uint64_t laddr0, uint32_t lkey0, uint32_t bytes0, uint64_t laddr1,
				    uint32_t lkey1, uint32_t bytes1)
{
	ogda_dev_wqe_rdma(qp, wqe_ptr, wqe_idx, OPENGDA_MLX5_OPCODE_RDMA_READ, (uint8_t)ctrl_flags, 0, raddr, rkey,
			  laddr0, lkey0, bytes0, laddr1, lkey1, bytes1);
}

/**
 * 8-byte ATOMIC_FA (adds @p compare_add) or ATOMIC_CS (compares with @p compare_add, swaps in
 * @p swap_add); the old value lands at @p laddr.
 */
__device__ static __forceinline__ void doca_gpu_dev_verbs_wqe_prepare_atomic(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr, uint64_t wqe_idx, uint32_t opcode,
	enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags, uint64_t raddr, uint32_t rkey, uint64_t laddr, uint32_t lkey,
	uint32_t /* bytes */, uint64_t compare_add, uint64_t swap_add)
{
	if (opcode == DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_FA)
		ogda_dev_wqe_atomic(qp, wqe_ptr, wqe_idx, OPENGDA_MLX5_OPCODE_ATOMIC_FA, (uint8_t)ctrl_flags, raddr,
				    rkey, laddr, lkey, compare_add, 0);
	else
		ogda_dev_wqe_atomic(qp, wqe_ptr, wqe_idx, (uint8_t)opcode, (uint8_t)ctrl_flags, raddr, rkey, laddr,
				    lkey, swap_add, compare_add);
}

/**
 * Masked (extended) atomic of @p bytes (4 or 8): ATOMIC_MASKED_FA adds @p add_data with carries
 * stopped at @p field_boundary; ATOMIC_MASKED_CS compares (@p compare_data, @p compare_mask) and
 * swaps in (@p swap_data, @p swap_mask). The 8-byte CS spans @p wqe_ptr0 and @p wqe_ptr1 (the
 * next slot); every other form uses @p wqe_ptr0 only.
 */
template <enum doca_gpu_dev_verbs_atomic_ext_bytes bytes = DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_4>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_atomic_ext(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr0,
					  struct doca_gpu_dev_verbs_wqe *wqe_ptr1, uint64_t wqe_idx, uint32_t opcode,
					  enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags, uint64_t raddr,
					  uint32_t rkey, uint64_t laddr, uint32_t lkey, uint64_t add_data,
					  uint64_t field_boundary, uint64_t swap_data, uint64_t compare_data,
					  uint64_t swap_mask, uint64_t compare_mask)
{
	constexpr uint8_t opmod = bytes == DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_4 ? OPENGDA_MLX5_OPMOD_EXT_ATOMIC_4B
										  : OPENGDA_MLX5_OPMOD_EXT_ATOMIC_8B;
	const bool is_fa = opcode == DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_MASKED_FA;
	const bool two_wqebbs = !is_fa && bytes == DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_8;
	uint8_t *w0 = (uint8_t *)wqe_ptr0;
	alignas(16) uint8_t staged[32];

	ogda_cuh::store_ctrl(qp, w0, wqe_idx, (uint8_t)opcode, opmod, two_wqebbs ? 5u : 4u, (uint8_t)ctrl_flags);
	ogda_dev_store_raddr(w0 + 16, raddr, rkey);
	if (is_fa && bytes == DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_4)
		opengda_mlx5_masked_fa4_seg_write((struct opengda_mlx5_wqe_masked_fa4_seg *)staged, (uint32_t)add_data,
						  (uint32_t)field_boundary);
	else if (is_fa)
		opengda_mlx5_masked_fa8_seg_write((struct opengda_mlx5_wqe_masked_fa8_seg *)staged, add_data,
						  field_boundary);
	else if (bytes == DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_4)
		opengda_mlx5_masked_cs4_seg_write((struct opengda_mlx5_wqe_masked_cs4_seg *)staged,
						  (uint32_t)compare_data, (uint32_t)swap_data, (uint32_t)compare_mask,
						  (uint32_t)swap_mask);
	else
		opengda_mlx5_masked_cs8_seg_write((struct opengda_mlx5_wqe_masked_cs8_seg *)staged, compare_data,
						  swap_data, compare_mask, swap_mask);
	ogda_cuh::store_staged(w0 + 32, staged, two_wqebbs ? 2u : 1u);
	ogda_dev_store_dseg(two_wqebbs ? (uint8_t *)wqe_ptr1 : w0 + 48, laddr, lkey, (uint32_t)bytes);
}

/** Cross-channel WAIT until CQ @p qpn_cqn has produced CQE index @p max_index. */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_wait(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				    uint64_t wqe_idx, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags,
				    uint32_t max_index, uint32_t qpn_cqn)
{
	struct opengda_mlx5_wqe_wait_cq_seg seg;

	ogda_cuh::store_ctrl(qp, wqe_ptr, wqe_idx, OPENGDA_MLX5_OPCODE_WAIT, OPENGDA_MLX5_OPMOD_WAIT_CQ_PI,
			     DOCA_GPUNETIO_VERBS_WQE_SEG_CNT_WAIT, (uint8_t)ctrl_flags);
	(void)opengda_mlx5_wait_cq_seg_write(&seg, qpn_cqn & OPENGDA_MLX5_QPN_MASK, max_index);
	ogda_cuh::store_staged((uint8_t *)wqe_ptr + 16, &seg, 1);
}

/** Local DUMP of @p bytes at @p laddr (orders earlier RDMA READ data before its completion). */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_dump(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				    uint64_t wqe_idx, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags, uint64_t laddr,
				    uint32_t lkey, uint32_t bytes)
{
	ogda_cuh::store_ctrl(qp, wqe_ptr, wqe_idx, OPENGDA_MLX5_OPCODE_DUMP, 0, 2, (uint8_t)ctrl_flags);
	ogda_dev_store_dseg((uint8_t *)wqe_ptr + 16, laddr, lkey, bytes);
}

/* ---- two-sided WQEs ---------------------------------------------------------------------------- */

/** The receive WQE (one 16-byte data segment) that receive index @p wqe_idx maps to. */
__device__ static __forceinline__ struct doca_gpunetio_ib_mlx5_wqe_data_seg *
doca_gpu_dev_verbs_get_rwqe_ptr(struct doca_gpu_dev_verbs_qp *qp, uint64_t wqe_idx)
{
	struct ogda_dev_rq rq = ogda_dev_qp_rq(qp);

	return (struct doca_gpunetio_ib_mlx5_wqe_data_seg *)ogda_dev_rwqe_ptr(&rq, wqe_idx);
}

/** Receive of @p bytes at @p addr (key @p mkey, big-endian) into the receive WQE @p rwqe. */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_recv(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpunetio_ib_mlx5_wqe_data_seg *rwqe,
				    uint64_t addr, uint32_t mkey, uint32_t bytes)
{
	struct ogda_dev_rq rq = ogda_dev_qp_rq(qp);

	ogda_dev_rwqe_write(&rq, (struct opengda_mlx5_wqe_data_seg *)rwqe, addr, mkey, bytes);
}

namespace ogda_cuh {
__device__ static __forceinline__ void prepare_send(struct doca_gpu_dev_verbs_qp *qp,
						    struct doca_gpu_dev_verbs_wqe *wqe_ptr, uint64_t wqe_idx,
						    uint32_t opcode, uint32_t ctrl_flags, uint32_t imm,
						    const struct ogda_dev_sge *sge, uint32_t nsge)
{
	ogda_dev_wqe_send(qp, wqe_ptr, wqe_idx, (uint8_t)opcode, (uint8_t)ctrl_flags, imm, sge, nsge);
}
} /* namespace ogda_cuh */

/**
 * SEND or SEND_IMM (@p opcode) without data: with SEND_IMM an immediate alone (@p imm as given,
 * network order).
 */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_send(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				    uint64_t wqe_idx, uint32_t opcode, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags,
				    uint32_t imm)
{
	ogda_cuh::prepare_send(qp, wqe_ptr, wqe_idx, opcode, ctrl_flags, imm, nullptr, 0);
}

/** SEND / SEND_IMM of one buffer. */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_send(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				    uint64_t wqe_idx, uint32_t opcode, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags,
				    uint32_t imm, uint64_t laddr0, uint32_t lkey0, uint32_t bytes0)
{
	const struct ogda_dev_sge sge[1] = {{laddr0, lkey0, bytes0}};

	ogda_cuh::prepare_send(qp, wqe_ptr, wqe_idx, opcode, ctrl_flags, imm, sge, 1);
}

/** SEND / SEND_IMM gathering two buffers. */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_send(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				    uint64_t wqe_idx, uint32_t opcode, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags,
				    uint32_t imm, uint64_t laddr0, uint32_t lkey0, uint32_t bytes0, uint64_t laddr1,
				    uint32_t lkey1, uint32_t bytes1)
{
	const struct ogda_dev_sge sge[2] = {{laddr0, lkey0, bytes0}, {laddr1, lkey1, bytes1}};

	ogda_cuh::prepare_send(qp, wqe_ptr, wqe_idx, opcode, ctrl_flags, imm, sge, 2);
}

/** SEND / SEND_IMM gathering three buffers (a whole WQEBB). */
__device__ static __forceinline__ void
doca_gpu_dev_verbs_wqe_prepare_send(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr,
				    uint64_t wqe_idx, uint32_t opcode, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags,
				    uint32_t imm, uint64_t laddr0, uint32_t lkey0, uint32_t bytes0, uint64_t laddr1,
				    uint32_t lkey1, uint32_t bytes1, uint64_t laddr2, uint32_t lkey2, uint32_t bytes2)
{
	const struct ogda_dev_sge sge[3] = {{laddr0, lkey0, bytes0}, {laddr1, lkey1, bytes1}, {laddr2, lkey2, bytes2}};

	ogda_cuh::prepare_send(qp, wqe_ptr, wqe_idx, opcode, ctrl_flags, imm, sge, 3);
}

#endif /* DOCA_GPUNETIO_DEV_VERBS_QP_CUH */
