/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_verbs_twosided.cuh
 * @brief DOCA GPUNetIO device API, two-sided: send, recv and recv_wait (names, template parameters
 *        and defaults of the DOCA GPUNetIO SDK), and OpenGDA's GPU-posted shared receive queues.
 *
 * Sends go through the same send-queue protocol as the one-sided operations (ogda_dev_group.cuh,
 * ogda_dev_ops.h); receives through ogda_dev_rq.h. Tickets: a send's is the index of its last
 * WQE (wait on it with doca_gpu_dev_verbs_wait); a receive's is its receive-queue index, which is
 * also the index of its completion on the receive CQ (recv_wait).
 *
 * Deliberate differences from the SDK:
 * - Every function returns int: 0, or a negative error (OPENGDA_DEV_CQE_ERROR(syndrome) of an
 *   error completion met while waiting for space or for the receive, -OPENGDA_DEV_ETIMEDOUT when
 *   the QP's wait bound passed, OGDA_CUH_EGROUP for a group larger than the ring); the SDK's are
 *   void. recv_wait without blocking returns OPENGDA_DEV_EBUSY when the receive is not there yet.
 * - exec_scope BLOCK exists for send and recv (every thread of the block calls; one reservation,
 *   one doorbell or doorbell record for the block). Warp calls need all 32 lanes; lanes may pass
 *   different sizes, and sends above 1 GiB are split as at thread scope (the SDK's warp send
 *   asserts one WQE per lane). Nothing needs sm_80 beyond what the toolkit's sm_80 has.
 * - recv_wait with MCST_ENABLED waits for the receive first, then posts the DUMP on the send queue
 *   and waits for it: once the DUMP has completed, the NIC's writes of the message are visible
 *   (the SDK posts the DUMP before polling the receive CQ).
 * - send_thread / send_warp work for any memory type of the queues (the SDK asserts GPU memory).
 *
 * Shared receive queues (OpenGDA, `opengda_gpu_dev_verbs_srq_*`): a contiguous SRQ exported with
 * opengda_gpu_verbs_export_srq() is refilled by device code with functions shaped like the RQ
 * ones. A QP consuming it completes its receives on its own receive CQ (export it with
 * opengda_gpu_verbs_export_qp_rq); the SRQ's tickets are SRQ indices, not CQ indices, so a
 * consumer waits on its CQ (doca_gpu_dev_verbs_poll_cq) and reads the CQE's wqe_counter for the
 * SRQ slot that was used. Refill a slot only after the completion of the receive it held.
 *
 * C++17, device code only.
 */
#ifndef DOCA_GPUNETIO_DEV_VERBS_TWOSIDED_CUH
#define DOCA_GPUNETIO_DEV_VERBS_TWOSIDED_CUH

#include "doca_gpunetio_dev_verbs_cq.cuh"
#include "doca_gpunetio_dev_verbs_qp.cuh"
#include "ogda_dev_group.cuh"
#include "ogda_dev_rq.h"
#include "ogda_dev_send.h"

namespace ogda_cuh {

template <enum doca_gpu_dev_verbs_exec_scope scope>
__device__ static __forceinline__ int send_impl(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr laddr,
						uint64_t size, int sharing, uint32_t handler, uint64_t *ticket)
{
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD && sharing == OGDA_DEV_SHARE_EXCLUSIVE)
		return ogda_dev_op_send(qp, laddr, size, sharing, handler, 0, ticket);
	return group_post<scope>(
		qp, ogda_dev_xfer_nwqe(size), 0, sharing, handler, 0, ticket, nullptr,
		[&](uint64_t idx) { ogda_dev_prep_send(qp, idx, laddr, size); }, no_extra());
}

/**
 * One receive per calling thread on @p rq: thread scope posts alone; a warp or block reserves
 * for all its threads at once (the leader), each thread writes its own WQE, the leader publishes
 * and writes the record. Every thread gets the same status and its own index.
 */
template <enum doca_gpu_dev_verbs_exec_scope scope>
__device__ static __forceinline__ int recv_impl(const struct ogda_dev_rq *rq, struct doca_gpu_dev_verbs_addr laddr,
						uint32_t size, int sharing, uint64_t *ticket)
{
	uint64_t base = 0;
	uint32_t mine = 0, count = 1;
	int rc = 0;

	if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD) {
		return ogda_dev_rq_op_recv(rq, laddr, size, sharing, ticket);
	} else if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP) {
		mine = doca_gpu_dev_verbs_get_lane_id();
		count = 32;
		if (mine == 0)
			rc = count > rq->wqe_num ? OGDA_CUH_EGROUP : ogda_dev_rq_post_begin(rq, count, sharing, &base);
		base = __shfl_sync(0xffffffffu, base, 0);
		rc = __shfl_sync(0xffffffffu, rc, 0);
	} else {
		block_scratch *s = block_scratch_get();

		mine = block_tid();
		count = block_nthreads();
		if (mine == 0) {
			uint64_t b = 0;

			s->rc = count > rq->wqe_num ? OGDA_CUH_EGROUP : ogda_dev_rq_post_begin(rq, count, sharing, &b);
			s->base = b;
		}
		__syncthreads();
		base = s->base;
		rc = s->rc;
		__syncthreads(); /* nobody overwrites the scratch before everyone has read it */
	}
	ogda_dev_set_ticket(ticket, base + mine);
	if (rc == 0)
		ogda_dev_rwqe_write(rq, ogda_dev_rwqe_ptr(rq, base + mine), laddr.addr, laddr.key, size);
	if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP)
		__syncwarp();
	else
		__syncthreads();
	if (rc == 0 && mine == 0)
		rc = ogda_dev_rq_post_end(rq, base, count, sharing);
	return group_bcast<scope>(rc);
}

} /* namespace ogda_cuh */

/* ---- send -------------------------------------------------------------------------------------- */

/** SEND of @p size bytes at @p laddr (one message per GiB); @p out_ticket: the last WQE's index. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int doca_gpu_dev_verbs_send(struct doca_gpu_dev_verbs_qp *qp,
							      struct doca_gpu_dev_verbs_addr laddr, size_t size,
							      doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	return ogda_cuh::send_impl<exec_scope>(qp, laddr, size, (int)resource_sharing_mode, (uint32_t)nic_handler,
					       out_ticket);
}

/** send at thread scope. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int doca_gpu_dev_verbs_send_thread(struct doca_gpu_dev_verbs_qp *qp,
								     struct doca_gpu_dev_verbs_addr laddr, size_t size,
								     doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	return doca_gpu_dev_verbs_send<resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
		qp, laddr, size, out_ticket);
}

/** send at warp scope: all 32 lanes call, one reservation and one doorbell for the warp. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int doca_gpu_dev_verbs_send_warp(struct doca_gpu_dev_verbs_qp *qp,
								   struct doca_gpu_dev_verbs_addr laddr, size_t size,
								   doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	return doca_gpu_dev_verbs_send<resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>(
		qp, laddr, size, out_ticket);
}

/* ---- recv -------------------------------------------------------------------------------------- */

/** Posts a receive of up to @p size bytes at @p laddr; @p out_ticket: its receive index. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int doca_gpu_dev_verbs_recv(struct doca_gpu_dev_verbs_qp *qp,
							      struct doca_gpu_dev_verbs_addr laddr, size_t size,
							      doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	struct ogda_dev_rq rq = ogda_dev_qp_rq(qp);

	return ogda_cuh::recv_impl<exec_scope>(&rq, laddr, (uint32_t)size, (int)resource_sharing_mode, out_ticket);
}

/** recv at thread scope. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int doca_gpu_dev_verbs_recv_thread(struct doca_gpu_dev_verbs_qp *qp,
								     struct doca_gpu_dev_verbs_addr laddr, size_t size,
								     doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	return doca_gpu_dev_verbs_recv<resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
		qp, laddr, size, out_ticket);
}

/** recv at warp scope: 32 receives, one reservation and one doorbell record. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int doca_gpu_dev_verbs_recv_warp(struct doca_gpu_dev_verbs_qp *qp,
								   struct doca_gpu_dev_verbs_addr laddr, size_t size,
								   doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	return doca_gpu_dev_verbs_recv<resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>(
		qp, laddr, size, out_ticket);
}

/* ---- recv_wait --------------------------------------------------------------------------------- */

/**
 * Waits for the receive of *@p ticket and returns its CQE in @p cqe. MCST_ENABLED: then a DUMP of
 * one byte at @p daddr on the send queue, waited for (file header). BLOCKING_MODE_DISABLED: one
 * look (OPENGDA_DEV_EBUSY when not there yet).
 */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED,
	  enum doca_gpu_dev_verbs_blocking_mode blocking_mode = DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED>
__device__ static __forceinline__ int doca_gpu_dev_verbs_recv_wait(struct doca_gpu_dev_verbs_qp *qp,
								   struct doca_gpu_dev_verbs_addr daddr,
								   doca_gpu_dev_verbs_ticket_t *ticket,
								   struct mlx5_cqe64 **cqe)
{
	return ogda_dev_op_recv_wait(qp, daddr, *ticket, mcst_mode == DOCA_GPUNETIO_VERBS_MCST_ENABLED,
				     blocking_mode == DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED,
				     (int)resource_sharing_mode, (uint32_t)nic_handler,
				     (struct opengda_mlx5_cqe64 **)(void *)cqe);
}

/** recv_wait for the last receive posted on @p qp; 0 at once when none was posted. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED,
	  enum doca_gpu_dev_verbs_blocking_mode blocking_mode = DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED>
__device__ static __forceinline__ int doca_gpu_dev_verbs_recv_wait(struct doca_gpu_dev_verbs_qp *qp,
								   struct doca_gpu_dev_verbs_addr daddr,
								   struct mlx5_cqe64 **cqe)
{
	doca_gpu_dev_verbs_ticket_t last = ogda_dev_load_acquire_u64(&qp->rq_rsvd_index, (int)resource_sharing_mode);

	if (last == 0)
		return 0;
	last--;
	return doca_gpu_dev_verbs_recv_wait<resource_sharing_mode, nic_handler, mcst_mode, blocking_mode>(qp, daddr,
													 &last, cqe);
}

/* ---- GPU-posted shared receive queues (OpenGDA) ------------------------------------------------ */

/** Reserves @p count SRQ slots; returns the first index (no space check: see the file header). */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>
__device__ static __forceinline__ uint64_t opengda_gpu_dev_verbs_srq_reserve_wq_slots(
	struct opengda_gpu_dev_verbs_srq *srq, uint32_t count)
{
	struct ogda_dev_rq rq = ogda_dev_srq_rq(srq);

	return ogda_dev_rq_reserve(&rq, count, (int)resource_sharing_mode);
}

/** The SRQ WQE that index @p wqe_idx maps to. */
__device__ static __forceinline__ struct doca_gpunetio_ib_mlx5_wqe_data_seg *
opengda_gpu_dev_verbs_srq_get_rwqe_ptr(struct opengda_gpu_dev_verbs_srq *srq, uint64_t wqe_idx)
{
	struct ogda_dev_rq rq = ogda_dev_srq_rq(srq);

	return (struct doca_gpunetio_ib_mlx5_wqe_data_seg *)ogda_dev_rwqe_ptr(&rq, wqe_idx);
}

/** Receive of @p bytes at @p addr (key @p mkey, big-endian) into SRQ WQE @p rwqe. */
__device__ static __forceinline__ void
opengda_gpu_dev_verbs_srq_wqe_prepare_recv(struct opengda_gpu_dev_verbs_srq *srq,
					   struct doca_gpunetio_ib_mlx5_wqe_data_seg *rwqe, uint64_t addr, uint32_t mkey,
					   uint32_t bytes)
{
	struct ogda_dev_rq rq = ogda_dev_srq_rq(srq);

	ogda_dev_rwqe_write(&rq, (struct opengda_mlx5_wqe_data_seg *)rwqe, addr, mkey, bytes);
}

/** Publishes SRQ slots [from, to] in order: 0 or -ETIMEDOUT. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>
__device__ static __forceinline__ int opengda_gpu_dev_verbs_srq_mark_wqes_ready(struct opengda_gpu_dev_verbs_srq *srq,
										 uint64_t from_wqe_idx,
										 uint64_t to_wqe_idx)
{
	struct ogda_dev_rq rq = ogda_dev_srq_rq(srq);

	return ogda_dev_rq_mark_ready(&rq, from_wqe_idx, to_wqe_idx, (int)resource_sharing_mode);
}

/** Writes the SRQ doorbell record up to everything published: 0 or -ETIMEDOUT. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>
__device__ static __forceinline__ int opengda_gpu_dev_verbs_srq_submit(struct opengda_gpu_dev_verbs_srq *srq)
{
	struct ogda_dev_rq rq = ogda_dev_srq_rq(srq);

	return ogda_dev_rq_submit(&rq, (int)resource_sharing_mode);
}

/** Posts one receive per calling thread (thread, warp or block scope); @p out_ticket: its SRQ index. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int opengda_gpu_dev_verbs_srq_recv(struct opengda_gpu_dev_verbs_srq *srq,
								     struct doca_gpu_dev_verbs_addr laddr, size_t size,
								     doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	struct ogda_dev_rq rq = ogda_dev_srq_rq(srq);

	return ogda_cuh::recv_impl<exec_scope>(&rq, laddr, (uint32_t)size, (int)resource_sharing_mode, out_ticket);
}

/** opengda_gpu_dev_verbs_srq_recv at thread scope. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>
__device__ static __forceinline__ int opengda_gpu_dev_verbs_srq_recv_thread(struct opengda_gpu_dev_verbs_srq *srq,
									    struct doca_gpu_dev_verbs_addr laddr,
									    size_t size,
									    doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	return opengda_gpu_dev_verbs_srq_recv<resource_sharing_mode, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
		srq, laddr, size, out_ticket);
}

/** opengda_gpu_dev_verbs_srq_recv at warp scope. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>
__device__ static __forceinline__ int opengda_gpu_dev_verbs_srq_recv_warp(struct opengda_gpu_dev_verbs_srq *srq,
									  struct doca_gpu_dev_verbs_addr laddr, size_t size,
									  doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	return opengda_gpu_dev_verbs_srq_recv<resource_sharing_mode, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>(
		srq, laddr, size, out_ticket);
}

#endif /* DOCA_GPUNETIO_DEV_VERBS_TWOSIDED_CUH */
