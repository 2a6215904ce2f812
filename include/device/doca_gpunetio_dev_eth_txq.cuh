/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_eth_txq.cuh
 * @brief DOCA GPUNetIO Ethernet send queue, device side: the SDK 3.2+ ("Gen-B") names, template
 *        parameters and defaults, on the C core include/device/ogda_dev_eth.h.
 *
 * Low level: reserve_wq_slots, get_wqe_ptr, wqe_prepare_send (one or two buffers),
 * wqe_prepare_send_empw (enhanced multi-packet send), wqe_prepare_wait_time, mark_wqes_ready,
 * submit. High level: send and wait_send in thread, warp or block scope. Completions:
 * poll_completion (all or last) and poll_completion_at. calculate_timestamp.
 *
 * Everything posts through the shared send-queue protocol of ogda_dev_sq.h (one reservation per
 * warp or block, readiness published without waiting for slower threads, one ringer at a time):
 * no lock is taken on the posting path whatever the sharing mode.
 *
 * Differences from the SDK (docs/ethernet.md):
 * - sync_scope is accepted and not used: the core chooses its fences from the sharing mode and
 *   where the queue lives.
 * - wait_send in warp or block scope writes a WAIT ahead of every send (all for the same time),
 *   not one WAIT for the group.
 * - wqe_prepare_send_empw finds the WQEBBs after @p wqe through the ring, so an eMPW WQE may wrap
 *   the ring's end.
 * - poll_completion returns DOCA_ERROR_UNEXPECTED on an error completion (as the SDK),
 *   DOCA_ERROR_TIME_OUT when the queue's wait bound passed, DOCA_ERROR_AGAIN when a NB poll found
 *   fewer completions than asked (*num_completed says how many).
 *
 * C++17, device code only.
 */
#ifndef DOCA_GPUNETIO_DEV_ETH_TXQ_CUH
#define DOCA_GPUNETIO_DEV_ETH_TXQ_CUH

#include "../doca_error.h"
#include "../doca_gpunetio_eth_def.h"
#include "ogda_dev_eth.h"
#include "ogda_dev_group.cuh"

/** One 64-byte WQE building block of an Ethernet send queue. */
struct doca_gpu_dev_eth_txq_wqe {
	uint8_t bytes[64];
};

namespace ogda_cuh {

__device__ static __forceinline__ doca_error_t eth_status(int rc)
{
	if (rc == 0)
		return DOCA_SUCCESS;
	if (rc == OPENGDA_DEV_EBUSY)
		return DOCA_ERROR_AGAIN;
	if (rc == -OPENGDA_DEV_ETIMEDOUT)
		return DOCA_ERROR_TIME_OUT;
	return DOCA_ERROR_UNEXPECTED;
}

} /* namespace ogda_cuh */

/** Reserves @p num_slots WQEBBs and returns the first index (no wait for space, as the SDK). */
template <enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU>
__device__ static __forceinline__ uint64_t doca_gpu_dev_eth_txq_reserve_wq_slots(struct doca_gpu_eth_txq *txq,
										 uint32_t num_slots)
{
	return ogda_dev_eth_reserve(txq, num_slots, (int)resource_sharing_mode);
}

/** The WQEBB of index @p wqe_idx. */
__device__ static __forceinline__ struct doca_gpu_dev_eth_txq_wqe *
doca_gpu_dev_eth_txq_get_wqe_ptr(const struct doca_gpu_eth_txq *txq, uint16_t wqe_idx)
{
	return (struct doca_gpu_dev_eth_txq_wqe *)ogda_dev_wqe_ptr(&txq->qp, wqe_idx);
}

/** Writes a SEND of @p nbytes at @p addr (@p mkey big-endian) into @p wqe, index @p wqe_idx. */
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_txq_wqe_prepare_send(const struct doca_gpu_eth_txq *txq, struct doca_gpu_dev_eth_txq_wqe *wqe,
				      const uint16_t wqe_idx, const uint64_t addr, const uint32_t mkey,
				      const uint32_t nbytes,
				      const enum doca_gpu_eth_send_flags flags = DOCA_GPUNETIO_ETH_SEND_FLAG_NONE)
{
	ogda_dev_eth_wqe_send(txq, (struct doca_gpu_dev_verbs_wqe *)wqe, wqe_idx, addr, mkey, nbytes, 0, 0, 0,
			      (uint32_t)flags);
	return DOCA_SUCCESS;
}

/** The same, gathering the frame from two buffers (header and payload, say). */
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_txq_wqe_prepare_send(const struct doca_gpu_eth_txq *txq, struct doca_gpu_dev_eth_txq_wqe *wqe,
				      const uint16_t wqe_idx, const uint64_t addr0, const uint32_t mkey0,
				      const uint32_t nbytes0, const uint64_t addr1, const uint32_t mkey1,
				      const uint32_t nbytes1,
				      const enum doca_gpu_eth_send_flags flags = DOCA_GPUNETIO_ETH_SEND_FLAG_NONE)
{
	ogda_dev_eth_wqe_send(txq, (struct doca_gpu_dev_verbs_wqe *)wqe, wqe_idx, addr0, mkey0, nbytes0, addr1, mkey1,
			      nbytes1, (uint32_t)flags);
	return DOCA_SUCCESS;
}

/**
 * Writes packet @p ds_idx (of @p ds_num, 1..61) of the enhanced multi-packet send WQE of index
 * @p wqe_idx whose first WQEBB is @p wqe (get_wqe_ptr): one data segment of @p nbytes at @p addr
 * (@p mkey big-endian); packet 0 also writes the ctrl segment (with @p flags) and the Ethernet
 * segment. Reserve ceil((ds_num + 2) / 4) WQEBBs for the WQE; threads may write its packets in
 * any order, then one marks them ready. DOCA_ERROR_INVALID_VALUE (nothing written) for ds_num
 * outside 1..61, ds_idx >= ds_num or nbytes of 2^31 or more.
 */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_eth_txq_wqe_prepare_send_empw(
	const struct doca_gpu_eth_txq *txq, struct doca_gpu_dev_eth_txq_wqe *wqe, const uint16_t wqe_idx,
	const uint32_t ds_num, const uint32_t ds_idx, const uint64_t addr, const uint32_t mkey, const uint32_t nbytes,
	const enum doca_gpu_eth_send_flags flags = DOCA_GPUNETIO_ETH_SEND_FLAG_NONE)
{
	return ogda_dev_eth_wqe_empw(txq, (struct doca_gpu_dev_verbs_wqe *)wqe, wqe_idx, ds_num, ds_idx, addr, mkey,
				     nbytes, (uint32_t)flags) == 0
		       ? DOCA_SUCCESS
		       : DOCA_ERROR_INVALID_VALUE;
}

/** Writes a WAIT on time (@p wait_on_time_ts from calculate_timestamp) into @p wqe, index @p wqe_idx. */
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_txq_wqe_prepare_wait_time(const struct doca_gpu_eth_txq *txq, struct doca_gpu_dev_eth_txq_wqe *wqe,
					   const uint16_t wqe_idx, const uint64_t wait_on_time_ts,
					   const enum doca_gpu_eth_send_flags flags = DOCA_GPUNETIO_ETH_SEND_FLAG_NONE)
{
	ogda_dev_eth_wqe_wait_time(txq, (struct doca_gpu_dev_verbs_wqe *)wqe, wqe_idx, wait_on_time_ts, (uint32_t)flags);
	return DOCA_SUCCESS;
}

/** Publishes WQEBBs [@p from_idx, @p to_idx] as written (help-forward, never waits for others). */
template <enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU>
__device__ static __forceinline__ void doca_gpu_dev_eth_txq_mark_wqes_ready(struct doca_gpu_eth_txq *txq,
									   uint64_t from_idx, uint64_t to_idx)
{
	(void)ogda_dev_sq_mark_ready(&txq->qp, from_idx, to_idx, (int)resource_sharing_mode);
}

/** Makes the NIC see every published WQEBB (@p prod_index: the exclusive mode's producer index). */
template <enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO>
__device__ static __forceinline__ void doca_gpu_dev_eth_txq_submit(struct doca_gpu_eth_txq *txq, uint64_t prod_index)
{
	ogda_dev_sq_submit(&txq->qp, prod_index, (int)resource_sharing_mode, (uint32_t)nic_handler);
}

/**
 * Sends one frame per calling thread: thread scope alone; warp or block scope reserve once for
 * all their threads, every thread writes its WQE, one thread publishes and rings. *out_ticket
 * (optional) gets the thread's WQE index.
 */
template <enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_exec_scope exec_scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ doca_error_t doca_gpu_dev_eth_txq_send(struct doca_gpu_eth_txq *txq, uint64_t addr,
									 uint32_t mkey, size_t size,
									 enum doca_gpu_eth_send_flags flags,
									 doca_gpu_dev_eth_ticket_t *out_ticket = nullptr)
{
	constexpr enum doca_gpu_dev_verbs_exec_scope vscope = (enum doca_gpu_dev_verbs_exec_scope)exec_scope;
	const int sharing = (int)resource_sharing_mode;
	int rc;

	if constexpr (exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD) {
		if (resource_sharing_mode == DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_EXCLUSIVE) {
			ogda_dev_eth_op_send(txq, addr, mkey, (uint32_t)size, (uint32_t)flags, sharing, (uint32_t)nic_handler,
					     out_ticket);
			return DOCA_SUCCESS;
		}
	}
	rc = ogda_cuh::group_post<vscope>(
		&txq->qp, 1, 0, sharing, (uint32_t)nic_handler, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_AVAILABILITY_CHECK,
		out_ticket, nullptr,
		[&](uint64_t idx) {
			ogda_dev_eth_wqe_send(txq, ogda_dev_wqe_ptr(&txq->qp, idx), idx, addr, mkey, (uint32_t)size, 0, 0, 0,
					      (uint32_t)flags);
		},
		ogda_cuh::no_extra());
	return rc == 0 ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE; /* a group larger than the ring */
}

/**
 * Sends one frame per calling thread, none before the NIC clock passes @p wait_on_time_ts: a WAIT
 * on time ahead of each send (see the file comment for warp and block scope). *out_ticket gets
 * the thread's send WQE index.
 */
template <enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_exec_scope exec_scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_txq_wait_send(struct doca_gpu_eth_txq *txq, uint64_t wait_on_time_ts, uint64_t addr, uint32_t mkey,
			       size_t size, enum doca_gpu_eth_send_flags flags,
			       doca_gpu_dev_eth_ticket_t *out_ticket = nullptr)
{
	constexpr enum doca_gpu_dev_verbs_exec_scope vscope = (enum doca_gpu_dev_verbs_exec_scope)exec_scope;
	uint64_t last = 0;
	int rc;

	if constexpr (exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD) {
		if (resource_sharing_mode == DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_EXCLUSIVE) {
			ogda_dev_eth_op_wait_send(txq, wait_on_time_ts, addr, mkey, (uint32_t)size, (uint32_t)flags,
						  (int)resource_sharing_mode, (uint32_t)nic_handler, out_ticket);
			return DOCA_SUCCESS;
		}
	}
	rc = ogda_cuh::group_post<vscope>(
		&txq->qp, 2, 0, (int)resource_sharing_mode, (uint32_t)nic_handler,
		DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_AVAILABILITY_CHECK, &last, nullptr,
		[&](uint64_t idx) {
			ogda_dev_eth_wqe_wait_time(txq, ogda_dev_wqe_ptr(&txq->qp, idx), idx, wait_on_time_ts,
						   DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
			ogda_dev_eth_wqe_send(txq, ogda_dev_wqe_ptr(&txq->qp, idx + 1), idx + 1, addr, mkey, (uint32_t)size, 0,
					      0, 0, (uint32_t)flags);
		},
		ogda_cuh::no_extra());
	if (out_ticket != nullptr)
		*out_ticket = last;
	return rc == 0 ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
}

/**
 * Waits for (B) or looks for (NB) @p num_cqe completions of NOTIFY sends; POLL_LAST waits for the
 * last only (earlier ones retire with it). *num_completed gets how many were consumed.
 */
template <enum doca_gpu_dev_eth_cq_poll_mode cq_poll = DOCA_GPUNETIO_ETH_CQ_POLL_ALL,
	  enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU>
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_txq_poll_completion(struct doca_gpu_eth_txq *txq, uint32_t num_cqe,
				     enum doca_gpu_dev_eth_wait_flags wait_mode, uint32_t *num_completed)
{
	uint32_t done = 0;
	int rc = ogda_dev_eth_poll_completion(txq, num_cqe, cq_poll == DOCA_GPUNETIO_ETH_CQ_POLL_LAST,
					      wait_mode == DOCA_GPUNETIO_ETH_WAIT_FLAG_B, (int)resource_sharing_mode,
					      &done);

	if (num_completed != nullptr)
		*num_completed = done;
	if (rc == 0 && done < num_cqe)
		return DOCA_ERROR_AGAIN;
	return ogda_cuh::eth_status(rc);
}

/** Waits for (B) or looks once for (NB) the completion of index @p cqe_idx (caller-owned indices). */
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_txq_poll_completion_at(struct doca_gpu_eth_txq *txq, uint64_t cqe_idx,
					enum doca_gpu_dev_eth_wait_flags wait_mode)
{
	return ogda_cuh::eth_status(ogda_dev_eth_poll_at(txq, cqe_idx, wait_mode == DOCA_GPUNETIO_ETH_WAIT_FLAG_B,
						       OGDA_DEV_SHARE_EXCLUSIVE));
}

/** @p timestamp_ns (CLOCK_REALTIME ns) in the NIC's wait-on-time format. */
__device__ static __forceinline__ doca_error_t doca_gpu_dev_eth_txq_calculate_timestamp(struct doca_gpu_eth_txq *txq,
											uint64_t timestamp_ns,
											uint64_t *wait_on_time_ts)
{
	(void)txq;
	*wait_on_time_ts = ogda_dev_eth_calculate_timestamp(timestamp_ns);
	return DOCA_SUCCESS;
}

#endif /* DOCA_GPUNETIO_DEV_ETH_TXQ_CUH */
