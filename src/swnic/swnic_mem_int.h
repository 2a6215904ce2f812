/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pieces of the software NIC's memory model shared by its files:
 *   swnic_mem.c         PD / UAR / umem / MR tables, key checks
 *   swnic_mem_probe.c   registration checks of host memory
 *   swnic_mem_access.c  accesses in flight and the drain of deregistration
 */
#ifndef OGDA_SWNIC_MEM_INT_H_
#define OGDA_SWNIC_MEM_INT_H_

#include "doca_error.h"
#include "swnic/swnic.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Checks that every page of host range [addr, addr + len) is mapped readable (and
 * writable when writable is true). DOCA_ERROR_INVALID_VALUE (logged, naming what and the
 * first address that fails) when not: the EFAULT of ibv_reg_mr. Without /proc the check
 * cannot be made: one warning, and DOCA_SUCCESS.
 */
doca_error_t swnic_mem_probe_host(const void *addr, size_t len, bool writable, const char *what);

/*
 * swnic_mr_resolve's checks with nic->lock held (shared or exclusive); *found is the MR's
 * slot on success.
 */
doca_error_t swnic_mr_check_locked(struct swnic *nic, uint32_t key, bool remote, const struct swnic_pd *pd,
				   uint64_t addr, uint64_t len, uint32_t need_access, struct swnic_mr **found);
/* Copies the attributes of mr (not its access counters) into *view. */
void swnic_mr_view(const struct swnic_mr *mr, struct swnic_mr *view);
/*
 * After mr was revoked: waits until no access holds it. DOCA_ERROR_TIME_OUT (logged) if
 * accesses are still in flight after 30 s; a line every second before that.
 */
doca_error_t swnic_mr_drain(struct swnic *nic, struct swnic_mr *mr, uint32_t key);

/*
 * swnic_memcpy.c: starts a copy of len bytes on the calling thread's stream of dst's GPU and
 * returns once it is queued (*ordinal: that GPU). Without CUDA headers: a failed copy.
 */
doca_error_t swnic_gpu_copy_async(void *dst, const void *src, size_t len, int *ordinal);
/*
 * Whether the calling thread's copies on GPU ordinal have all ended (*done); block: waits for
 * them. DOCA_ERROR_DRIVER when one failed (logged).
 */
doca_error_t swnic_gpu_stream_wait(int ordinal, bool block, bool *done);
/*
 * The calling thread belongs to the NIC (a fabric server thread): the context its GPU copies
 * make current stays current between them instead of being switched back each time.
 */
void swnic_mem_copy_keep_context(void);
/* Marks a thread has per GPU: a deferred copy's end is known by the mark recorded after it. */
#define SWNIC_GPU_MARKS 32u
/*
 * query false: records mark k on the calling thread's stream of GPU ordinal, behind the
 * copies queued so far. query true: *reached tells whether the stream has passed it.
 * DOCA_ERROR_NOT_SUPPORTED: the driver has no events (callers wait for the whole stream).
 */
doca_error_t swnic_gpu_stream_mark(int ordinal, unsigned k, bool query, bool *reached);

#ifdef OGDA_HAVE_CUDA_H
#include "core/cuda_drv.h"
/* swnic_memcpy.c: the primary context of GPU ordinal (retained once, kept for the process). */
doca_error_t swnic_cuda_primary_ctx(const struct ogda_cuda_drv *drv, int ordinal, CUcontext *ctx);
#endif

#endif /* OGDA_SWNIC_MEM_INT_H_ */
