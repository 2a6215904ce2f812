/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Accesses to registered memory in flight, and their fencing by deregistration, as a
 * NIC's MR invalidation works (docs/swnic.md §9).
 *
 * Every data-path access to an MR's memory — a responder's WRITE, READ, atomic or receive
 * scatter, a requester's gather, zero-copy send or READ / atomic result scatter — holds
 * the MR from its key check to the end of its copy (swnic_mr_hold .. swnic_mr_unhold).
 * swnic_mr_deregister first revokes the MR under nic->lock (no new hold succeeds: the key
 * names no MR any more) and then waits until every hold is released. Copies move in
 * chunks of SWNIC_MEM_CHUNK and look before each chunk whether their MRs were revoked;
 * a revoked MR stops the copy there with DOCA_ERROR_NOT_FOUND (a remote or local access
 * error, as hardware reports an access after invalidation). So deregistration waits at
 * most one chunk per access in flight, and no byte moves after it has returned.
 */
#ifndef OGDA_SWNIC_MEM_ACCESS_H_
#define OGDA_SWNIC_MEM_ACCESS_H_

#include "swnic/swnic.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes a copy moves between two looks at its MRs' validity. */
#define SWNIC_MEM_CHUNK (1u << 20)

/* An access to one MR in flight. */
struct swnic_mr_hold {
	struct swnic_mr *slot;     /* the MR's table slot; NULL: nothing held */
	struct swnic_mr mr;        /* its attributes when the hold was taken (kind, range, rights) */
};

/*
 * swnic_mr_resolve's checks and errors; on success the MR is held (h->slot set) until
 * swnic_mr_unhold. On failure nothing is held.
 */
doca_error_t swnic_mr_hold(struct swnic *nic, uint32_t key, bool remote, const struct swnic_pd *pd, uint64_t addr,
			   uint64_t len, uint32_t need_access, struct swnic_mr_hold *h);
/* Ends the access (no-op when nothing is held). */
void swnic_mr_unhold(struct swnic_mr_hold *h);
/* True while the held MR has not been revoked by a deregistration. */
bool swnic_mr_hold_valid(const struct swnic_mr_hold *h);

/*
 * swnic_mem_copy in chunks, checking before each that the held MRs (either may be NULL)
 * are still valid. DOCA_ERROR_NOT_FOUND when one was revoked: the bytes before that
 * chunk were copied, none after. Other errors are swnic_mem_copy's.
 */
doca_error_t swnic_mem_copy_held(void *dst, enum ogda_mem_kind dst_kind, const void *src, enum ogda_mem_kind src_kind,
				 size_t len, const struct swnic_mr_hold *a, const struct swnic_mr_hold *b);

/*
 * Deferred GPU-to-GPU copies (swnic_mem_defer.c), for a thread that answers many requests in
 * order (a shared-memory channel's server): a copy may still run when its request has been
 * executed, as long as its answer waits until the copy has ended. Each copy keeps its
 * target's MR held until then, so deregistration still waits for the bytes to land. The
 * copies of a thread end in the order they were started (one stream per GPU).
 */
#define SWNIC_MEM_DEFER_MAX 32u

/*
 * Copies len bytes from GPU memory src to GPU memory dst (the range h holds) and takes over
 * the hold (h is left empty, even on failure). The copy is deferred — queued on the calling
 * thread's stream, swnic_mem_deferred_pending() one higher — unless SWNIC_MEM_DEFER_MAX are
 * pending or the pending ones run on another GPU: then it is done before the return. Errors:
 * NOT_FOUND (the MR was revoked: nothing copied), swnic_mem_copy's.
 */
doca_error_t swnic_mem_copy_deferred(void *dst, const void *src, size_t len, struct swnic_mr_hold *h);
/* Puts a mark behind the newest pending copy (reap can only see copies up to a mark end). */
void swnic_mem_deferred_mark(void);
/* Copies of the calling thread started and not yet found ended. */
unsigned swnic_mem_deferred_pending(void);
/*
 * Finds how many of the oldest pending copies have ended (looks, never waits; a copy is seen
 * ended once a mark behind it has been passed), releases their holds and returns that many. *failed: one of them failed (logged): the requests they
 * served must not be answered as successful.
 */
unsigned swnic_mem_deferred_reap(bool *failed);
/* Waits for every pending copy; returns how many there were (*failed as for reap). */
unsigned swnic_mem_deferred_settle(bool *failed);

#endif /* OGDA_SWNIC_MEM_ACCESS_H_ */
