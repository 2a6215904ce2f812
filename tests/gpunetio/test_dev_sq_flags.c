/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ringer lock of shared send queues (include/device/ogda_dev_sq.h), at the one point where a
 * doorbell could be lost: a publisher hands its work to the ring holder by raising AGAIN while
 * the holder is between its last look and its release. When the holder took the lock with AGAIN
 * (or PENDING) already in the word, raising it again does not change the word; the holder must
 * still look again. A hook at the let-go (in ogda_dev_sq_ring_held, and in the fence-first path of
 * ogda_dev_sq_post_shared, which the clean-word case takes) runs the publisher exactly there, so
 * the interleaving is deterministic (it was seen on a 16-core machine as a send never rung).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

struct doca_gpu_dev_verbs_qp;
static void publisher_hook(struct doca_gpu_dev_verbs_qp *qp);
#define OGDA_DEV_SQ_TEST_BEFORE_RELEASE(qp) publisher_hook(qp)

#include "device/ogda_dev_ops.h"
#include "scratch_sq.h"

#define RING 16u

struct scratch {
	struct doca_gpu_dev_verbs_qp qp; /* a view on host memory: ring, slots, doorbell words */
	uint64_t slots[RING];
	uint8_t *ring;
	uint64_t db[8];
	uint32_t dbr[2];
};

static int hook_armed;
static int hook_ran;

/* Another thread's post while the lock is held: publish, flag AGAIN, leave it to the holder. */
static void publisher_hook(struct doca_gpu_dev_verbs_qp *qp)
{
	uint64_t base;

	if (!hook_armed)
		return;
	hook_armed = 0;
	base = ogda_dev_sq_reserve(qp, 1, OGDA_DEV_SHARE_GPU);
	ogda_dev_wqe_nop(qp, base, OGDA_DEV_CQ_UPDATE);
	ogda_dev_sq_post_shared(qp, base, base, OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB);
	hook_ran = 1;
}

static void scratch_init(struct scratch *s)
{
	memset(s, 0, sizeof(*s));
	s->ring = aligned_alloc(64, RING * 64);
	assert_non_null(s->ring);
	scratch_sq_init(&s->qp, s->ring, s->slots, s->db, &s->dbr[1], 4); /* RING WQEBBs */
}

/*
 * The holder takes the lock with flag @p stale in the word (AGAIN: a publisher flagged just after
 * the last holder let go; PENDING: a holder let go while a reserved WQE was still unpublished);
 * a second post is published and flagged during its ring. Both WQEs must be rung, the
 * doorbell and its record must say so, and the lock must be free.
 */
static void run_case(int stale)
{
	struct scratch s;
	uint64_t base;

	scratch_init(&s);
	s.qp.sq_lock = stale;
	base = ogda_dev_sq_reserve(&s.qp, 1, OGDA_DEV_SHARE_GPU);
	ogda_dev_wqe_nop(&s.qp, base, OGDA_DEV_CQ_UPDATE);
	hook_armed = 1;
	hook_ran = 0;
	ogda_dev_sq_post_shared(&s.qp, base, base, OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB);
	assert_true(hook_ran);
	assert_int_equal(s.qp.sq_rsvd_index, 2);
	assert_int_equal(s.qp.sq_ready_index, 2);
	if (s.qp.sq_wqe_pi != 2)
		fail_msg("published up to 2, rung up to %llu: the second post's doorbell was lost (lock word %d)",
			 (unsigned long long)s.qp.sq_wqe_pi, s.qp.sq_lock);
	assert_int_equal(s.db[0], ogda_dev_sq_db_value(&s.qp, 2));
	assert_int_equal(s.qp.sq_lock & OGDA_DEV_SQ_LOCK_HELD, 0);
	free(s.ring);
}

static void test_stale_again(void **state)
{
	(void)state;
	run_case(OGDA_DEV_SQ_LOCK_AGAIN);
}

static void test_stale_pending(void **state)
{
	(void)state;
	run_case(OGDA_DEV_SQ_LOCK_PENDING);
}

static void test_clean_word(void **state)
{
	(void)state;
	run_case(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_word),
		cmocka_unit_test(test_stale_again),
		cmocka_unit_test(test_stale_pending),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
