/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_group.cuh
 * @brief Warp- and block-scope posting for the DOCA-compatible device API (OpenGDA).
 *
 * A group call posts the WQEs of every calling thread as one contiguous range: each thread says
 * how many WQEBBs it needs (the core's ogda_dev_*_nwqe), an inclusive scan gives each its offset,
 * one leader reserves the total with one atomic and waits for ring space once, every thread
 * writes its own WQEs, and the leader publishes the range and rings once. Optional `extra`
 * WQEBBs after everyone's (a DUMP after a group of reads, the NOP of a fence) are written by the
 * leader. Tickets: the index of the thread's own last WQE, or the last WQE of the range when
 * there are extras (so waiting on it covers them).
 *
 * WARP scope: all 32 lanes of the warp call (full mask; partial warps are not supported), lane 0
 * leads. BLOCK scope: every thread of the block calls (any block shape; the last warp may be
 * partial), thread 0 leads; the phases are separated by __syncthreads() and the leader's results
 * reach the others through one __shared__ scratch block per kernel. Every thread of the group
 * returns the same status: 0, the core's error met while waiting for space (the range is then
 * published as NOPs on an error completion, left reserved on a timeout), or OGDA_CUH_EGROUP
 * when the range is larger than the ring (nothing is reserved: use smaller groups).
 *
 * C++17, device code only.
 */
#ifndef OGDA_DEV_GROUP_CUH
#define OGDA_DEV_GROUP_CUH

#include "doca_gpunetio_dev_verbs_common.cuh"
#include "ogda_dev_ops.h"

/** A group call needs more WQEBBs than the ring holds (-EINVAL). */
#define OGDA_CUH_EGROUP (-22)

namespace ogda_cuh {

/** The leader's results and the warp totals, shared by the threads of a block. */
struct block_scratch {
	uint32_t warp_off[32]; /**< Warp totals, then (leader) each warp's offset in the range. */
	uint64_t warp_val[32]; /**< Per-warp partial sums (group_sum). */
	uint64_t base;	       /**< First index of the range. */
	uint32_t total;	       /**< WQEBBs of all threads (extras not included). */
	int rc;		       /**< Status of the reservation. */
	int bcast;	       /**< group_bcast value. */
};

__device__ static __forceinline__ block_scratch *block_scratch_get()
{
	__shared__ block_scratch scratch;

	return &scratch;
}

__device__ static __forceinline__ uint32_t block_tid()
{
	return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ static __forceinline__ uint32_t block_nthreads()
{
	return blockDim.x * blockDim.y * blockDim.z;
}

/** Lanes of this thread's warp that exist: all 32 except in a partial last warp. */
__device__ static __forceinline__ uint32_t block_warp_lanes(uint32_t tid)
{
	uint32_t left = block_nthreads() - (tid & ~31u);

	return left < 32u ? left : 32u;
}

__device__ static __forceinline__ unsigned int lanes_mask(uint32_t lanes)
{
	return lanes >= 32u ? 0xffffffffu : (1u << lanes) - 1u;
}

/** Inclusive warp scan of @p v over the low @p mask lanes (contiguous from lane 0). */
template <typename T>
__device__ static __forceinline__ T warp_inclusive_scan(T v, uint32_t lane, unsigned int mask)
{
#pragma unroll
	for (uint32_t d = 1; d < 32; d <<= 1) {
		T t = __shfl_up_sync(mask, v, d);

		if (lane >= d)
			v += t;
	}
	return v;
}

/** Whether the calling thread leads its group. */
template <enum doca_gpu_dev_verbs_exec_scope scope>
__device__ static __forceinline__ bool is_leader()
{
	if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP)
		return doca_gpu_dev_verbs_get_lane_id() == 0;
	else if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK)
		return block_tid() == 0;
	else
		return true;
}

/** Leader's reservation of the whole range: checks it fits, then the core's post_begin. */
__device__ static __forceinline__ int group_reserve(struct doca_gpu_dev_verbs_qp *qp, uint32_t count, int sharing,
						    uint32_t handler, uint32_t code_opt, uint64_t *base)
{
	*base = 0;
	if (count > ogda_dev_ro_u32(&qp->sq_wqe_num))
		return OGDA_CUH_EGROUP;
	return ogda_dev_post_begin(qp, count, sharing, handler, code_opt, base);
}

/**
 * Thread scope on a shared QP, with opportunistic warp aggregation: the lanes of a warp that call
 * at the same time (converged) on the same QP for the same number of WQEBBs post as one range,
 * led by the lowest of them: one reservation, one publication, at most one ring. Each lane still
 * writes its own WQEs and gets its own ticket, and every lane gets the reservation's status, so
 * the outcome is that of separate calls made at once. Returns false (nothing done) when the
 * calling lane is alone or its group does not qualify; it then posts alone.
 */
template <typename LanePrep>
__device__ static __forceinline__ bool thread_post_aggregated(struct doca_gpu_dev_verbs_qp *qp, uint32_t n,
							      int sharing, uint32_t handler, uint32_t code_opt,
							      uint64_t *ticket, uint64_t *group_last, int *status,
							      LanePrep lane_prep)
{
	const unsigned int active = __activemask();
	const unsigned int peers = __match_any_sync(active, (unsigned long long)(uintptr_t)qp);
	const uint32_t lane = doca_gpu_dev_verbs_get_lane_id();
	const uint32_t count = (uint32_t)__popc(peers);
	const uint32_t leader = (uint32_t)__ffs(peers) - 1u;
	int same_n = 0;
	uint64_t base = 0, mine;
	int rc = 0;

	(void)__match_all_sync(peers, n, &same_n);
	if (count < 2 || !same_n || (uint64_t)n * count > ogda_dev_ro_u32(&qp->sq_wqe_num))
		return false;
	if (lane == leader)
		rc = ogda_dev_post_begin(qp, n * count, sharing, handler, code_opt, &base);
	base = __shfl_sync(peers, base, (int)leader);
	rc = __shfl_sync(peers, rc, (int)leader);
	mine = base + (uint64_t)__popc(peers & ((1u << lane) - 1u)) * n;
	ogda_dev_set_ticket(ticket, mine + n - 1);
	ogda_dev_set_ticket(group_last, base + (uint64_t)n * count - 1);
	*status = rc;
	if (rc == 0)
		lane_prep(mine);
	/* Every lane's WQE stores happen before the leader publishes (cumulative release). */
	__syncwarp(peers);
	if (rc == 0 && lane == leader)
		ogda_dev_post_end(qp, base, n * count, sharing, handler, code_opt);
	/* The group leaves together: lanes that ran ahead would call next time without the leader. */
	__syncwarp(peers);
	return true;
}

/**
 * Posts @p n WQEBBs per calling thread (@p lane_prep(first_index) writes them) plus @p extra
 * WQEBBs after the whole group's (@p leader_prep(first_index), by the leader). @p ticket gets the
 * thread's ticket, @p group_last (optional) the last index of the range. Returns the status.
 */
template <enum doca_gpu_dev_verbs_exec_scope scope, typename LanePrep, typename LeaderPrep>
__device__ static __forceinline__ int group_post(struct doca_gpu_dev_verbs_qp *qp, uint32_t n, uint32_t extra,
						 int sharing, uint32_t handler, uint32_t code_opt, uint64_t *ticket,
						 uint64_t *group_last, LanePrep lane_prep, LeaderPrep leader_prep)
{
	uint64_t base, last;
	uint32_t first_off, total;
	int rc;

	if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD) {
		if (sharing != OGDA_DEV_SHARE_EXCLUSIVE && extra == 0 && n != 0 &&
		    thread_post_aggregated(qp, n, sharing, handler, code_opt, ticket, group_last, &rc, lane_prep))
			return rc;
		total = n;
		first_off = 0;
		rc = ogda_dev_post_begin(qp, n + extra, sharing, handler, code_opt, &base);
	} else if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP) {
		const uint32_t lane = doca_gpu_dev_verbs_get_lane_id();
		int same = 0;

		/* Every lane posting as many WQEBBs (the usual call) needs no scan: one match instead of six shuffles. */
		(void)__match_all_sync(0xffffffffu, n, &same);
		if (same) {
			total = n * 32u;
			first_off = n * lane;
		} else {
			const uint32_t incl = warp_inclusive_scan<uint32_t>(n, lane, 0xffffffffu);

			total = __shfl_sync(0xffffffffu, incl, 31);
			first_off = incl - n;
		}
		base = 0;
		rc = 0;
		if (lane == 0)
			rc = group_reserve(qp, total + extra, sharing, handler, code_opt, &base);
		base = __shfl_sync(0xffffffffu, base, 0);
		rc = __shfl_sync(0xffffffffu, rc, 0);
	} else {
		block_scratch *s = block_scratch_get();
		const uint32_t tid = block_tid(), warp = tid >> 5, lane = tid & 31u;
		const uint32_t lanes = block_warp_lanes(tid);
		const uint32_t incl = warp_inclusive_scan<uint32_t>(n, lane, lanes_mask(lanes));

		if (lane == lanes - 1)
			s->warp_off[warp] = incl;
		__syncthreads();
		if (tid == 0) {
			const uint32_t nwarps = (block_nthreads() + 31u) >> 5;
			uint32_t run = 0, w;
			uint64_t b;

			for (w = 0; w < nwarps; w++) {
				uint32_t v = s->warp_off[w];

				s->warp_off[w] = run;
				run += v;
			}
			s->total = run;
			s->rc = group_reserve(qp, run + extra, sharing, handler, code_opt, &b);
			s->base = b;
		}
		__syncthreads();
		base = s->base;
		rc = s->rc;
		total = s->total;
		first_off = s->warp_off[warp] + incl - n;
	}

	last = base + total + extra - 1;
	ogda_dev_set_ticket(ticket, extra ? last : base + first_off + n - 1);
	ogda_dev_set_ticket(group_last, last);
	if (rc == 0 && n != 0)
		lane_prep(base + first_off);

	/* Every thread's WQE stores happen before the leader publishes (cumulative release). */
	if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP)
		__syncwarp();
	else if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK)
		__syncthreads();
	if (rc == 0 && is_leader<scope>()) {
		if (extra)
			leader_prep(base + total);
		ogda_dev_post_end(qp, base, total + extra, sharing, handler, code_opt);
	}
	if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP)
		__syncwarp();
	return rc;
}

/** A leader_prep for calls without extras. */
struct no_extra {
	__device__ __forceinline__ void operator()(uint64_t) const
	{
	}
};

/** Sum of @p v over the group, valid in the leader (in every lane for WARP). */
template <enum doca_gpu_dev_verbs_exec_scope scope>
__device__ static __forceinline__ uint64_t group_sum(uint64_t v)
{
	if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP) {
#pragma unroll
		for (uint32_t d = 16; d >= 1; d >>= 1)
			v += __shfl_xor_sync(0xffffffffu, v, d);
		return v;
	} else if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK) {
		block_scratch *s = block_scratch_get();
		const uint32_t tid = block_tid(), lanes = block_warp_lanes(tid);
		const uint64_t incl = warp_inclusive_scan<uint64_t>(v, tid & 31u, lanes_mask(lanes));
		uint64_t sum = 0;

		if ((tid & 31u) == lanes - 1)
			s->warp_val[tid >> 5] = incl;
		__syncthreads();
		if (tid == 0) {
			const uint32_t nwarps = (block_nthreads() + 31u) >> 5;

			for (uint32_t w = 0; w < nwarps; w++)
				sum += s->warp_val[w];
		}
		/* warp_val is written again only after the next group_post's barriers. */
		return sum;
	} else {
		return v;
	}
}

/** The leader's @p v, in every thread of the group. */
template <enum doca_gpu_dev_verbs_exec_scope scope>
__device__ static __forceinline__ int group_bcast(int v)
{
	if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP) {
		return __shfl_sync(0xffffffffu, v, 0);
	} else if constexpr (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK) {
		block_scratch *s = block_scratch_get();

		if (block_tid() == 0)
			s->bcast = v;
		__syncthreads();
		v = s->bcast;
		__syncthreads(); /* nobody overwrites bcast before everyone has read it */
		return v;
	} else {
		return v;
	}
}

} /* namespace ogda_cuh */

#endif /* OGDA_DEV_GROUP_CUH */
