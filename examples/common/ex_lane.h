/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where a thread of an example's data path stands: its block, its index in the block, and (on
 * host threads) the groups it posts with at warp and block scope.
 *
 * The examples' per-thread code (<example>_body.h) is plain C compiled twice: into CUDA kernels
 * and into host-thread functions. ex_lane hides the one difference between the two, how a thread
 * learns its position and meets the other threads of its group.
 */
#ifndef EX_LANE_H_
#define EX_LANE_H_

#include <stdint.h>

#if !defined(__CUDACC__)
#include <pthread.h>
#endif

/* Host threads of one "warp": DOCA's warp is 32 lanes; on a few CPU cores a smaller group
 * exercises the same one-reservation-per-group path without 32 threads per warp. */
#define EX_HOST_WARP 4u

#if !defined(__CUDACC__)
/* What the threads of a host group share while posting together. */
struct ex_host_group {
	pthread_barrier_t barrier;
	uint64_t base; /* first WQE index of the group's range (from the leader) */
	int rc;        /* the leader's reservation status */
	uint64_t word; /* a value the leader hands to the block (ex_block_bcast) */
	uint32_t any;  /* the group's vote (ex_group_any) */
};
#endif

struct ex_lane {
	uint32_t block;    /* block index */
	uint32_t nblocks;
	uint32_t tid;      /* thread index in the block */
	uint32_t nthreads; /* threads per block */
#if !defined(__CUDACC__)
	struct ex_host_group *warp;  /* this thread's warp group */
	struct ex_host_group *blk;   /* this thread's block */
	uint32_t warp_size;          /* threads in this thread's warp group */
#endif
};

/* Index of the thread over the whole launch. */
#define EX_LANE_GLOBAL(l) ((l)->block * (l)->nthreads + (l)->tid)

#endif /* EX_LANE_H_ */
