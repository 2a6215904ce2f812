/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Runs an example's per-thread function on host threads laid out like a CUDA launch: nblocks
 * blocks of nthreads threads, each block with its barrier group and its EX_HOST_WARP-thread warp
 * groups (ex_lane.h).
 */
#ifndef EX_HOST_H_
#define EX_HOST_H_

#include <stdint.h>

#include "ex_lane.h"

typedef void (*ex_host_fn)(const struct ex_lane *lane, void *arg);

/*
 * Starts nblocks x nthreads threads, releases them together, and returns when all have returned;
 * *ns is the time from their release to the last return. Returns 0, or -1 with an error line
 * (a thread could not be created).
 */
int ex_host_run(uint32_t nblocks, uint32_t nthreads, ex_host_fn fn, void *arg, uint64_t *ns);

#endif /* EX_HOST_H_ */
