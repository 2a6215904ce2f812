/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_verbs_onesided.cuh
 * @brief DOCA GPUNetIO device API, high level: put, p, put_signal, p_signal, signal, get,
 *        get_wait, wait, fence on a (possibly shared) QP.
 *
 * Template parameters, their order and defaults, and argument lists are DOCA's. Thread scope on
 * an EXCLUSIVE QP calls the C core's thread operations (ogda_dev_op_*). Thread scope on a shared
 * QP aggregates the lanes of a warp that call together on the same QP into one range (one
 * reservation, one publication, at most one doorbell; each lane's own WQEs and ticket), and posts
 * alone otherwise. Warp and block scope post the group's WQEs as one range with one reservation
 * and one doorbell (ogda_dev_group.cuh).
 *
 * Deliberate differences from DOCA:
 * - Every posting function returns int where DOCA returns void: 0, or the error met while
 *   waiting for ring space (OPENGDA_DEV_CQE_ERROR(syndrome), -OPENGDA_DEV_ETIMEDOUT), or
 *   OGDA_CUH_EGROUP for a warp/block call larger than the ring. wait and get_wait return the
 *   poll's status. Callers that ignore the value compile unchanged.
 * - DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK is accepted by every function with an exec_scope
 *   parameter; p_signal and fence gain a trailing exec_scope parameter (default THREAD).
 * - WARP p, put_signal, signal and p_signal post (DOCA's are empty stubs). Warp calls need all
 *   32 lanes. Lanes may pass different sizes: a lane's transfer above 1 GiB is split as at thread
 *   scope (DOCA's warp functions assert one WQE per lane).
 * - fence posts a NOP with the mlx5 FENCE mode after a system-scope release: operations posted
 *   after it start after every earlier one completed (DOCA's fence does nothing).
 * - get with MCST_ENABLED appends one DUMP of 1 byte at @p daddr after the reads (one per group
 *   call); every caller's ticket is then the DUMP's index, so waiting on it covers the reads'
 *   data. BLOCKING_MODE_ENABLED waits before returning (warp / block: the leader waits for the
 *   group's last WQE and every thread returns its status).
 * - Only DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD exists (as in DOCA); other values do not compile.
 *
 * C++17, device code only.
 */
#ifndef DOCA_GPUNETIO_DEV_VERBS_ONESIDED_CUH
#define DOCA_GPUNETIO_DEV_VERBS_ONESIDED_CUH

#include "doca_gpunetio_dev_verbs_cq.cuh"
#include "doca_gpunetio_dev_verbs_qp.cuh"
#include "ogda_dev_group.cuh"
#include "ogda_dev_ops.h"

#define OGDA_CUH_SHARING_DEFAULT DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU
#define OGDA_CUH_OPT_DEFAULT DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT

namespace ogda_cuh {
/*
 * One implementation per operation for every scope. @p ticket: the caller's ticket; @p last:
 * the last index of the whole group's range (the counter functions wait for it). Either may be
 * NULL.
 */

template <enum doca_gpu_dev_verbs_exec_scope scope>
__device__ static __forceinline__ int put_impl(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
					       struct doca_gpu_dev_verbs_addr laddr, uint64_t size, int sharing,
					       uint32_t handler, uint32_t code_opt, uint64_t *ticket, uint64_t *last)
{
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD && sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		uint64_t t = 0;
		int rc = ogda_dev_op_put(qp, raddr, laddr, size, sharing, handler, code_opt, &t);

		ogda_dev_set_ticket(ticket, t);
		ogda_dev_set_ticket(last, t);
		return rc;
	} else {
		return group_post<scope>(
			qp, ogda_dev_xfer_nwqe(size), 0, sharing, handler, code_opt, ticket, last,
			[&](uint64_t idx) {
				ogda_dev_prep_xfer(qp, idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, raddr, laddr, size);
			},
			no_extra());
	}
}

template <enum doca_gpu_dev_verbs_exec_scope scope, typename T>
__device__ static __forceinline__ int p_impl(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
					     T value, int sharing, uint32_t handler, uint32_t code_opt,
					     uint64_t *ticket, uint64_t *last)
{
	static_assert(sizeof(T) <= 8, "p writes at most 8 bytes inline");
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD && sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		uint64_t t = 0;
		int rc = ogda_dev_op_p(qp, raddr, &value, (uint32_t)sizeof(T), sharing, handler, code_opt, &t);

		ogda_dev_set_ticket(ticket, t);
		ogda_dev_set_ticket(last, t);
		return rc;
	} else {
		return group_post<scope>(
			qp, 1, 0, sharing, handler, code_opt, ticket, last,
			[&](uint64_t idx) { ogda_dev_prep_p(qp, idx, raddr, &value, (uint32_t)sizeof(T)); },
			no_extra());
	}
}

template <enum doca_gpu_dev_verbs_exec_scope scope>
__device__ static __forceinline__ int
put_signal_impl(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
		struct doca_gpu_dev_verbs_addr laddr, uint64_t size, struct doca_gpu_dev_verbs_addr sig_raddr,
		struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val, int sharing, uint32_t handler,
		uint32_t code_opt, uint64_t *ticket, uint64_t *last)
{
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD && sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		uint64_t t = 0;
		int rc = ogda_dev_op_put_signal(qp, raddr, laddr, size, sig_raddr, sig_laddr, sig_val, sharing, handler,
						code_opt, &t);

		ogda_dev_set_ticket(ticket, t);
		ogda_dev_set_ticket(last, t);
		return rc;
	} else {
		const uint32_t nxfer = ogda_dev_xfer_nwqe(size);

		return group_post<scope>(
			qp, nxfer + 1, 0, sharing, handler, code_opt, ticket, last,
			[&](uint64_t idx) {
				ogda_dev_prep_xfer(qp, idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, raddr, laddr, size);
				ogda_dev_prep_signal(qp, idx + nxfer, sig_raddr, sig_laddr, sig_val);
			},
			no_extra());
	}
}

template <enum doca_gpu_dev_verbs_exec_scope scope, typename T>
__device__ static __forceinline__ int
p_signal_impl(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, T value,
	      struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val,
	      int sharing, uint32_t handler, uint32_t code_opt, uint64_t *ticket, uint64_t *last)
{
	static_assert(sizeof(T) <= 8, "p_signal writes at most 8 bytes inline");
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD && sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		uint64_t t = 0;
		int rc = ogda_dev_op_p_signal(qp, raddr, &value, (uint32_t)sizeof(T), sig_raddr, sig_laddr, sig_val,
					      sharing, handler, code_opt, &t);

		ogda_dev_set_ticket(ticket, t);
		ogda_dev_set_ticket(last, t);
		return rc;
	} else {
		return group_post<scope>(
			qp, 2, 0, sharing, handler, code_opt, ticket, last,
			[&](uint64_t idx) {
				ogda_dev_prep_p(qp, idx, raddr, &value, (uint32_t)sizeof(T));
				ogda_dev_prep_signal(qp, idx + 1, sig_raddr, sig_laddr, sig_val);
			},
			no_extra());
	}
}

template <enum doca_gpu_dev_verbs_exec_scope scope>
__device__ static __forceinline__ int
signal_impl(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr sig_raddr,
	    struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val, int sharing, uint32_t handler,
	    uint32_t code_opt, uint64_t *ticket, uint64_t *last)
{
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD && sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		uint64_t t = 0;
		int rc = ogda_dev_op_signal(qp, sig_raddr, sig_laddr, sig_val, sharing, handler, code_opt, &t);

		ogda_dev_set_ticket(ticket, t);
		ogda_dev_set_ticket(last, t);
		return rc;
	} else {
		return group_post<scope>(
			qp, 1, 0, sharing, handler, code_opt, ticket, last,
			[&](uint64_t idx) { ogda_dev_prep_signal(qp, idx, sig_raddr, sig_laddr, sig_val); },
			no_extra());
	}
}

/** RDMA READs, then (when @p dump) one 1-byte DUMP at @p daddr after the whole group's reads. */
template <enum doca_gpu_dev_verbs_exec_scope scope>
__device__ static __forceinline__ int get_impl(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
					       struct doca_gpu_dev_verbs_addr laddr, uint64_t size,
					       struct doca_gpu_dev_verbs_addr daddr, bool dump, int sharing,
					       uint32_t handler, uint32_t code_opt, uint64_t *ticket, uint64_t *last)
{
	return group_post<scope>(
		qp, ogda_dev_xfer_nwqe(size), dump ? 1u : 0u, sharing, handler, code_opt, ticket, last,
		[&](uint64_t idx) { ogda_dev_prep_xfer(qp, idx, OPENGDA_MLX5_OPCODE_RDMA_READ, raddr, laddr, size); },
		[&](uint64_t idx) { ogda_dev_wqe_dump(qp, idx, OGDA_DEV_CQ_UPDATE, daddr.addr, daddr.key, 1); });
}
} /* namespace ogda_cuh */

/* ---- put ------------------------------------------------------------------------------------- */

/** RDMA WRITE of @p size bytes from @p laddr to @p raddr (split in 1 GiB WQEs). */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_put(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
		       struct doca_gpu_dev_verbs_addr laddr, size_t size, doca_gpu_dev_verbs_ticket_t *out_ticket,
		       uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return ogda_cuh::put_impl<exec_scope>(qp, raddr, laddr, size, (int)resource_sharing_mode, (uint32_t)nic_handler,
					      code_opt, out_ticket, nullptr);
}

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_put(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
		       struct doca_gpu_dev_verbs_addr laddr, size_t size, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return ogda_cuh::put_impl<exec_scope>(qp, raddr, laddr, size, (int)resource_sharing_mode, (uint32_t)nic_handler,
					      code_opt, nullptr, nullptr);
}

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_put_thread(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
			      struct doca_gpu_dev_verbs_addr laddr, size_t size,
			      doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_put<resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
		qp, raddr, laddr, size, out_ticket, code_opt);
}

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_put_warp(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
			    struct doca_gpu_dev_verbs_addr laddr, size_t size, doca_gpu_dev_verbs_ticket_t *out_ticket,
			    uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_put<resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>(
		qp, raddr, laddr, size, out_ticket, code_opt);
}

/* ---- p: inline write of a value of up to 8 bytes --------------------------------------------- */

template <typename T, enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_p(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, T value,
		     doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return ogda_cuh::p_impl<exec_scope, T>(qp, raddr, value, (int)resource_sharing_mode, (uint32_t)nic_handler,
					       code_opt, out_ticket, nullptr);
}

template <typename T, enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int doca_gpu_dev_verbs_p(struct doca_gpu_dev_verbs_qp *qp,
							   struct doca_gpu_dev_verbs_addr raddr, T value,
							   uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return ogda_cuh::p_impl<exec_scope, T>(qp, raddr, value, (int)resource_sharing_mode, (uint32_t)nic_handler,
					       code_opt, nullptr, nullptr);
}

template <typename T, enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_p_thread(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, T value,
			    doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_p<T, resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
		qp, raddr, value, out_ticket, code_opt);
}

template <typename T, enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_p_warp(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, T value,
			  doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_p<T, resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>(
		qp, raddr, value, out_ticket, code_opt);
}

/* ---- put_signal: put, then an 8-byte fetch-and-add on the signal (after the data: RC order) --- */

template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int doca_gpu_dev_verbs_put_signal(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr,
	size_t size, struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr,
	uint64_t sig_val, doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	static_assert(sig_op == DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD, "only SIGNAL_OP_ADD exists");
	return ogda_cuh::put_signal_impl<exec_scope>(qp, raddr, laddr, size, sig_raddr, sig_laddr, sig_val,
						     (int)resource_sharing_mode, (uint32_t)nic_handler, code_opt,
						     out_ticket, nullptr);
}

template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_put_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
			      struct doca_gpu_dev_verbs_addr laddr, size_t size,
			      struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr,
			      uint64_t sig_val, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_put_signal<sig_op, resource_sharing_mode, nic_handler, exec_scope>(
		qp, raddr, laddr, size, sig_raddr, sig_laddr, sig_val, nullptr, code_opt);
}

template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int doca_gpu_dev_verbs_put_signal_thread(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr,
	size_t size, struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr,
	uint64_t sig_val, doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_put_signal<sig_op, resource_sharing_mode, nic_handler,
					     DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
		qp, raddr, laddr, size, sig_raddr, sig_laddr, sig_val, out_ticket, code_opt);
}

template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int doca_gpu_dev_verbs_put_signal_warp(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr,
	size_t size, struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr,
	uint64_t sig_val, doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_put_signal<sig_op, resource_sharing_mode, nic_handler,
					     DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>(
		qp, raddr, laddr, size, sig_raddr, sig_laddr, sig_val, out_ticket, code_opt);
}

/* ---- p_signal: inline write, then the signal ------------------------------------------------- */

template <typename T, enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_p_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, T value,
			    struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr,
			    uint64_t sig_val, doca_gpu_dev_verbs_ticket_t *out_ticket,
			    uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	static_assert(sig_op == DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD, "only SIGNAL_OP_ADD exists");
	return ogda_cuh::p_signal_impl<exec_scope, T>(qp, raddr, value, sig_raddr, sig_laddr, sig_val,
						      (int)resource_sharing_mode, (uint32_t)nic_handler, code_opt,
						      out_ticket, nullptr);
}

template <typename T, enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_p_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, T value,
			    struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr,
			    uint64_t sig_val, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_p_signal<T, sig_op, resource_sharing_mode, nic_handler, exec_scope>(
		qp, raddr, value, sig_raddr, sig_laddr, sig_val, nullptr, code_opt);
}

/* ---- signal: an 8-byte fetch-and-add (old value to sig_laddr) -------------------------------- */

template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr sig_raddr,
			  struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val,
			  doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	static_assert(sig_op == DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD, "only SIGNAL_OP_ADD exists");
	return ogda_cuh::signal_impl<exec_scope>(qp, sig_raddr, sig_laddr, sig_val, (int)resource_sharing_mode,
						 (uint32_t)nic_handler, code_opt, out_ticket, nullptr);
}

template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr sig_raddr,
			  struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val,
			  uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_signal<sig_op, resource_sharing_mode, nic_handler, exec_scope>(
		qp, sig_raddr, sig_laddr, sig_val, nullptr, code_opt);
}

template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_signal_thread(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr sig_raddr,
				 struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val,
				 doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_signal<sig_op, resource_sharing_mode, nic_handler,
					 DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(qp, sig_raddr, sig_laddr, sig_val,
										out_ticket, code_opt);
}

template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_signal_warp(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr sig_raddr,
			       struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val,
			       doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_signal<sig_op, resource_sharing_mode, nic_handler,
					 DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>(qp, sig_raddr, sig_laddr, sig_val,
									      out_ticket, code_opt);
}

/* ---- get: RDMA READ, optionally followed by a DUMP (mcst) ------------------------------------ */

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED,
	  enum doca_gpu_dev_verbs_blocking_mode blocking_mode = DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_get(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
		       struct doca_gpu_dev_verbs_addr laddr, size_t size, struct doca_gpu_dev_verbs_addr daddr,
		       doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	uint64_t ticket = 0, last = 0;
	int rc = ogda_cuh::get_impl<exec_scope>(
		qp, raddr, laddr, size, daddr, mcst_mode == DOCA_GPUNETIO_VERBS_MCST_ENABLED,
		(int)resource_sharing_mode, (uint32_t)nic_handler, code_opt, &ticket, &last);

	ogda_dev_set_ticket(out_ticket, ticket);
	if constexpr (blocking_mode == DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED) {
		if (rc != 0)
			return rc; /* uniform across the group */
		if constexpr (exec_scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD) {
			rc = ogda_dev_op_wait(qp, ticket, (int)resource_sharing_mode);
		} else {
			/* One poller per group (an EXCLUSIVE QP's consumer index has one writer). */
			if (ogda_cuh::is_leader<exec_scope>())
				rc = ogda_dev_op_wait(qp, last, (int)resource_sharing_mode);
			rc = ogda_cuh::group_bcast<exec_scope>(rc);
		}
	}
	return rc;
}

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED,
	  enum doca_gpu_dev_verbs_blocking_mode blocking_mode = DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_get_thread(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
			      struct doca_gpu_dev_verbs_addr laddr, size_t size, struct doca_gpu_dev_verbs_addr daddr,
			      doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_get<resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD,
				      mcst_mode, blocking_mode>(qp, raddr, laddr, size, daddr, out_ticket, code_opt);
}

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED,
	  enum doca_gpu_dev_verbs_blocking_mode blocking_mode = DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_get_warp(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr,
			    struct doca_gpu_dev_verbs_addr laddr, size_t size, struct doca_gpu_dev_verbs_addr daddr,
			    doca_gpu_dev_verbs_ticket_t *out_ticket, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	return doca_gpu_dev_verbs_get<resource_sharing_mode, nic_handler, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP,
				      mcst_mode, blocking_mode>(qp, raddr, laddr, size, daddr, out_ticket, code_opt);
}

/* ---- waiting --------------------------------------------------------------------------------- */

/**
 * Waits for @p ticket; with MCST_ENABLED first posts a DUMP at @p daddr and waits for it too,
 * so data read by earlier gets is in memory when this returns.
 */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED>
__device__ static __forceinline__ int doca_gpu_dev_verbs_get_wait(struct doca_gpu_dev_verbs_qp *qp,
								  struct doca_gpu_dev_verbs_addr daddr,
								  doca_gpu_dev_verbs_ticket_t ticket)
{
	if constexpr (mcst_mode == DOCA_GPUNETIO_VERBS_MCST_ENABLED) {
		uint64_t dump_ticket = 0;
		int rc = ogda_cuh::group_post<DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
			qp, 0, 1, (int)resource_sharing_mode, (uint32_t)nic_handler, OGDA_CUH_OPT_DEFAULT, &dump_ticket,
			nullptr, [](uint64_t) {},
			[&](uint64_t idx) {
				ogda_dev_wqe_dump(qp, idx, OGDA_DEV_CQ_UPDATE, daddr.addr, daddr.key, 1);
			});

		if (rc != 0)
			return rc;
		if (dump_ticket > ticket)
			ticket = dump_ticket;
	}
	return ogda_dev_op_wait(qp, ticket, (int)resource_sharing_mode);
}

/** get_wait for everything reserved on @p qp so far. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED>
__device__ static __forceinline__ int doca_gpu_dev_verbs_get_wait(struct doca_gpu_dev_verbs_qp *qp,
								  struct doca_gpu_dev_verbs_addr daddr)
{
	uint64_t rsvd = ogda_dev_load_acquire_u64(&qp->sq_rsvd_index, (int)resource_sharing_mode);

	if (rsvd == 0)
		return 0;
	return doca_gpu_dev_verbs_get_wait<resource_sharing_mode, nic_handler, mcst_mode>(qp, daddr, rsvd - 1);
}

/** Waits until the WQE of @p ticket (and every earlier one) has completed. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int doca_gpu_dev_verbs_wait(struct doca_gpu_dev_verbs_qp *qp,
							      doca_gpu_dev_verbs_ticket_t ticket)
{
	return ogda_dev_op_wait(qp, ticket, (int)resource_sharing_mode);
}

/** Waits for everything reserved on @p qp so far (a "quiet"). */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ int doca_gpu_dev_verbs_wait(struct doca_gpu_dev_verbs_qp *qp)
{
	return ogda_dev_op_wait_all(qp, (int)resource_sharing_mode);
}

/* ---- fence ----------------------------------------------------------------------------------- */

/**
 * Operations posted on @p qp after the fence start after every operation posted before it has
 * completed (one fenced NOP per call; per group call for WARP / BLOCK scope).
 */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int doca_gpu_dev_verbs_fence(struct doca_gpu_dev_verbs_qp *qp,
							       uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	if constexpr (exec_scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD) {
		return ogda_dev_op_fence(qp, (int)resource_sharing_mode, (uint32_t)nic_handler, code_opt);
	} else {
		return ogda_cuh::group_post<exec_scope>(
			qp, 0, 1, (int)resource_sharing_mode, (uint32_t)nic_handler, code_opt, nullptr, nullptr,
			[](uint64_t) {},
			[&](uint64_t idx) {
				/* The group's earlier writes are ordered before this through its barrier. */
				ogda_dev_fence_nic_release();
				ogda_dev_wqe_nop(qp, idx,
						 (uint8_t)(OGDA_DEV_CQ_UPDATE | OPENGDA_MLX5_WQE_CTRL_FM_FENCE));
			});
	}
}

#endif /* DOCA_GPUNETIO_DEV_VERBS_ONESIDED_CUH */
