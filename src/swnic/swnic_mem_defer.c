/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Deferred GPU-to-GPU copies (swnic_mem_access.h). The state is the calling thread's own: a
 * channel's server thread starts the copies of the WRITEs it executes one after the other,
 * so the GPU has several queued at once instead of one copy and a host round trip per
 * request, and answers each request once a mark recorded behind its copy has been passed.
 * A mark costs a driver call, so one follows every SWNIC_MEM_DEFER_MARK_EVERY copies, and
 * swnic_mem_deferred_mark adds one behind the newest when the thread is about to idle.
 */
#include "swnic/swnic_mem_access.h"
#include "swnic/swnic_mem_int.h"

#include "core/log.h"

#define SWNIC_MEM_DEFER_MARK_EVERY 4u

_Static_assert(SWNIC_MEM_DEFER_MAX <= SWNIC_GPU_MARKS, "at most one mark per pending copy");

static _Thread_local struct {
	unsigned head, n;                         /* the pending copies: a ring, oldest at head */
	unsigned next_mark;                       /* mark of the next copy (ring order) */
	int ordinal;                              /* the GPU they run on */
	bool no_marks;                            /* the driver has no events: whole-stream waits */
	unsigned unmarked;                        /* newest copies with no mark behind them */
	struct {
		struct swnic_mr_hold hold;
		int mark;                         /* -1: none right behind this copy */
	} q[SWNIC_MEM_DEFER_MAX];
} defer;

/* Records a mark behind the newest copy. */
static void mark_newest(void)
{
	unsigned k = (defer.head + defer.n - 1u) % SWNIC_MEM_DEFER_MAX;
	bool unused = false;

	if (defer.n == 0 || defer.unmarked == 0)
		return;
	defer.unmarked = 0;
	if (defer.no_marks)
		return;
	if (swnic_gpu_stream_mark(defer.ordinal, defer.next_mark, false, &unused) != DOCA_SUCCESS) {
		defer.no_marks = true; /* no events, or logged: the whole stream is waited for from now on */
		return;
	}
	defer.q[k].mark = (int)defer.next_mark;
	defer.next_mark = (defer.next_mark + 1u) % SWNIC_GPU_MARKS;
}

/* Releases the n oldest. */
static void pop(unsigned n)
{
	while (n-- > 0 && defer.n > 0) {
		swnic_mr_unhold(&defer.q[defer.head].hold);
		defer.head = (defer.head + 1u) % SWNIC_MEM_DEFER_MAX;
		defer.n--;
	}
	if (defer.unmarked > defer.n)
		defer.unmarked = defer.n;
}

doca_error_t swnic_mem_copy_deferred(void *dst, const void *src, size_t len, struct swnic_mr_hold *h)
{
	struct swnic_mr_hold mine;
	doca_error_t err;
	bool done = false;
	int ordinal = -1;
	unsigned k;

	if (h == NULL || dst == NULL || src == NULL || len == 0) {
		OGDA_LOG_ERR("deferred copy: bad argument (dst %p, src %p, %zu bytes)", dst, src, len);
		swnic_mr_unhold(h);
		return DOCA_ERROR_INVALID_VALUE;
	}
	mine = *h;
	h->slot = NULL;
	if (defer.n == SWNIC_MEM_DEFER_MAX) {
		/* No room to remember it: copied now, as an undeferred WRITE is. */
		err = swnic_mem_copy_held(dst, OGDA_MEM_GPU, src, OGDA_MEM_GPU, len, &mine, NULL);
		swnic_mr_unhold(&mine);
		return err;
	}
	if (!swnic_mr_hold_valid(&mine)) {
		swnic_mr_unhold(&mine);
		return DOCA_ERROR_NOT_FOUND;
	}
	err = swnic_gpu_copy_async(dst, src, len, &ordinal);
	if (err == DOCA_SUCCESS && defer.n > 0 && ordinal != defer.ordinal)
		err = swnic_gpu_stream_wait(ordinal, true, &done); /* another GPU's stream: waited for here */
	if (err != DOCA_SUCCESS || done) {
		swnic_mr_unhold(&mine);
		return err;
	}
	k = (defer.head + defer.n) % SWNIC_MEM_DEFER_MAX;
	defer.q[k].hold = mine;
	defer.q[k].mark = -1;
	defer.ordinal = ordinal;
	defer.n++;
	if (++defer.unmarked == SWNIC_MEM_DEFER_MARK_EVERY)
		mark_newest();
	return DOCA_SUCCESS;
}

void swnic_mem_deferred_mark(void)
{
	mark_newest();
}

unsigned swnic_mem_deferred_pending(void)
{
	return defer.n;
}

unsigned swnic_mem_deferred_reap(bool *failed)
{
	unsigned ended = 0;
	bool reached = false;

	*failed = false;
	if (defer.n == 0)
		return 0;
	if (defer.no_marks) {
		if (swnic_gpu_stream_wait(defer.ordinal, false, &reached) != DOCA_SUCCESS)
			*failed = reached = true;
		ended = reached ? defer.n : 0;
	} else {
		unsigned i;

		/* A passed mark means every copy up to it has ended. */
		for (i = 0; i < defer.n; i++) {
			unsigned k = (defer.head + i) % SWNIC_MEM_DEFER_MAX;

			if (defer.q[k].mark < 0)
				continue;
			if (swnic_gpu_stream_mark(defer.ordinal, (unsigned)defer.q[k].mark, true, &reached) !=
			    DOCA_SUCCESS) {
				/* A failed copy poisons its stream: everything pending counts as failed. */
				*failed = true;
				ended = defer.n;
				break;
			}
			if (!reached)
				break;
			ended = i + 1u;
		}
	}
	pop(ended);
	return ended;
}

unsigned swnic_mem_deferred_settle(bool *failed)
{
	unsigned n = defer.n;
	bool done = false;

	*failed = false;
	if (n == 0)
		return 0;
	if (swnic_gpu_stream_wait(defer.ordinal, true, &done) != DOCA_SUCCESS)
		*failed = true;
	pop(n);
	return n;
}
