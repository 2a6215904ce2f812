/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ex_dev_ops.h in CUDA kernels: DOCA's device API, the template arguments picked from run-time
 * values (every thread of a group takes the same branch). Reached through ex_dev_ops.h.
 */
#ifndef EX_DEV_OPS_CUDA_CUH_
#define EX_DEV_OPS_CUDA_CUH_

/* What this file implements (ex_dev_ops.h includes this file back; the guard above stops that). */
#include "ex_dev_ops.h"
#include "doca_gpunetio_device.h"

namespace ex_cuda {

constexpr doca_gpu_dev_verbs_nic_handler kHandler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO;

/* One operation as a call with compile-time sharing mode and scope. */
struct post_call {
	struct doca_gpu_dev_verbs_qp *qp;
	const struct ex_op *op;
	uint64_t *ticket;

	template <doca_gpu_dev_verbs_resource_sharing_mode S, doca_gpu_dev_verbs_exec_scope E>
	__device__ __forceinline__ int call() const
	{
		switch (op->kind) {
		case EX_OP_READ: {
			const struct doca_gpu_dev_verbs_addr no_dump = {0, 0};

			return doca_gpu_dev_verbs_get<S, kHandler, E>(qp, op->raddr, op->laddr, op->size, no_dump, ticket);
		}
		case EX_OP_FADD:
			return doca_gpu_dev_verbs_signal<DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD, S, kHandler, E>(
				qp, op->raddr, op->laddr, op->size, ticket);
		case EX_OP_SEND:
			return doca_gpu_dev_verbs_send<S, kHandler, E>(qp, op->laddr, op->size, ticket);
		default:
			return doca_gpu_dev_verbs_put<S, kHandler, E>(qp, op->raddr, op->laddr, op->size, ticket);
		}
	}
};

/* One receive as a call with compile-time sharing mode and scope. */
struct recv_call {
	struct doca_gpu_dev_verbs_qp *qp;
	struct doca_gpu_dev_verbs_addr laddr;
	uint32_t size;
	uint64_t *ticket;

	template <doca_gpu_dev_verbs_resource_sharing_mode S, doca_gpu_dev_verbs_exec_scope E>
	__device__ __forceinline__ int call() const
	{
		return doca_gpu_dev_verbs_recv<S, kHandler, E>(qp, laddr, size, ticket);
	}
};

template <doca_gpu_dev_verbs_resource_sharing_mode S, typename F>
__device__ __forceinline__ int by_scope(int scope, const F &f)
{
	switch (scope) {
	case DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP:
		return f.template call<S, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>();
	case DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK:
		return f.template call<S, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK>();
	default:
		return f.template call<S, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>();
	}
}

template <typename F>
__device__ __forceinline__ int by_sharing(int sharing, int scope, const F &f)
{
	switch (sharing) {
	case OGDA_DEV_SHARE_EXCLUSIVE:
		return by_scope<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE>(scope, f);
	case OGDA_DEV_SHARE_CTA:
		return by_scope<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA>(scope, f);
	default:
		return by_scope<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(scope, f);
	}
}

} /* namespace ex_cuda */

/* Posts op at the given scope (every thread of the group calls). */
__device__ static __forceinline__ int ex_post(const struct ex_lane *l, int scope, struct doca_gpu_dev_verbs_qp *qp,
					      const struct ex_op *op, int sharing, uint64_t *ticket)
{
	const ex_cuda::post_call c = {qp, op, ticket};

	(void)l;
	return ex_cuda::by_sharing(sharing, scope, c);
}

/* Posts one receive per calling thread at the given scope; *ticket: its receive index. */
__device__ static __forceinline__ int ex_recv(const struct ex_lane *l, int scope, struct doca_gpu_dev_verbs_qp *qp,
					      struct doca_gpu_dev_verbs_addr laddr, uint32_t size, int sharing,
					      uint64_t *ticket)
{
	const ex_cuda::recv_call c = {qp, laddr, size, ticket};

	(void)l;
	return ex_cuda::by_sharing(sharing, scope, c);
}

/* Waits for receive ticket (recv_wait, blocking, no MCST); *bytes: its byte count. */
__device__ static __forceinline__ int ex_recv_wait(struct doca_gpu_dev_verbs_qp *qp, uint64_t ticket, int sharing,
						   uint32_t *bytes)
{
	const struct doca_gpu_dev_verbs_addr none = {0, 0};
	struct mlx5_cqe64 *cqe = nullptr;
	doca_gpu_dev_verbs_ticket_t t = ticket;
	int rc;

	switch (sharing) {
	case OGDA_DEV_SHARE_EXCLUSIVE:
		rc = doca_gpu_dev_verbs_recv_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE>(qp, none, &t, &cqe);
		break;
	case OGDA_DEV_SHARE_CTA:
		rc = doca_gpu_dev_verbs_recv_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA>(qp, none, &t, &cqe);
		break;
	default:
		rc = doca_gpu_dev_verbs_recv_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(qp, none, &t, &cqe);
		break;
	}
	*bytes = rc == 0 ? doca_gpu_dev_verbs_cqe_get_bytes(cqe) : 0;
	return rc;
}

/* put_counter at thread scope (doca_gpu_dev_verbs_put_counter, counter value 1). */
__device__ static __forceinline__ int ex_put_counter(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_qp *comp,
						     const struct ex_op *op, struct doca_gpu_dev_verbs_addr counter_raddr,
						     struct doca_gpu_dev_verbs_addr counter_laddr, int sharing)
{
	constexpr doca_gpu_dev_verbs_exec_scope kThread = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD;

	switch (sharing) {
	case OGDA_DEV_SHARE_EXCLUSIVE:
		return doca_gpu_dev_verbs_put_counter<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE,
						      ex_cuda::kHandler, kThread>(qp, op->raddr, op->laddr, op->size, comp,
										  counter_raddr, counter_laddr, 1);
	case OGDA_DEV_SHARE_CTA:
		return doca_gpu_dev_verbs_put_counter<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA, ex_cuda::kHandler,
						      kThread>(qp, op->raddr, op->laddr, op->size, comp, counter_raddr,
							       counter_laddr, 1);
	default:
		return doca_gpu_dev_verbs_put_counter<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, ex_cuda::kHandler,
						      kThread>(qp, op->raddr, op->laddr, op->size, comp, counter_raddr,
							       counter_laddr, 1);
	}
}

/* Waits until everything posted on qp so far has completed. */
__device__ static __forceinline__ int ex_wait_all(struct doca_gpu_dev_verbs_qp *qp, int sharing)
{
	switch (sharing) {
	case OGDA_DEV_SHARE_EXCLUSIVE:
		return doca_gpu_dev_verbs_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE>(qp);
	case OGDA_DEV_SHARE_CTA:
		return doca_gpu_dev_verbs_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA>(qp);
	default:
		return doca_gpu_dev_verbs_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(qp);
	}
}

/* Waits until the WQE of ticket (and every earlier one) has completed. */
__device__ static __forceinline__ int ex_wait(struct doca_gpu_dev_verbs_qp *qp, uint64_t ticket, int sharing)
{
	switch (sharing) {
	case OGDA_DEV_SHARE_EXCLUSIVE:
		return doca_gpu_dev_verbs_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE>(qp, ticket);
	case OGDA_DEV_SHARE_CTA:
		return doca_gpu_dev_verbs_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA>(qp, ticket);
	default:
		return doca_gpu_dev_verbs_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(qp, ticket);
	}
}

/* Whether flag is set in any thread of the scope's group (every thread of the group calls). */
__device__ static __forceinline__ int ex_group_any(const struct ex_lane *l, int scope, int flag)
{
	(void)l;
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP)
		return __any_sync(0xffffffffu, flag);
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK)
		return __syncthreads_or(flag);
	return flag;
}

/* Barrier of the block. */
__device__ static __forceinline__ void ex_block_sync(const struct ex_lane *l)
{
	(void)l;
	__syncthreads();
}

/* Thread 0's v, in every thread of the block. */
__device__ static __forceinline__ uint64_t ex_block_bcast(const struct ex_lane *l, uint64_t v)
{
	__shared__ uint64_t word;

	if (l->tid == 0)
		word = v;
	__syncthreads();
	v = word;
	__syncthreads();
	return v;
}

/* The calling thread's lane: position from the CUDA built-ins (1-D launches). */
__device__ static __forceinline__ struct ex_lane ex_lane_here(void)
{
	struct ex_lane l;

	l.block = blockIdx.x;
	l.nblocks = gridDim.x;
	l.tid = threadIdx.x;
	l.nthreads = blockDim.x;
	return l;
}

#endif /* EX_DEV_OPS_CUDA_CUH_ */
