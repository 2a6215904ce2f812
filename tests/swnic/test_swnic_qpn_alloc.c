/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The QP table (swnic_qpn_alloc.c): QPNs are random within [SWNIC_QPN_MIN, 0xffffff),
 * never handed out twice while in use, found again after other entries come and go
 * (backward-shift deletion), and the table stops at its maximum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "swnic/swnic_qpn_alloc.h"

#define N 4096u

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void test_random_distinct_and_found(void **state)
{
	static uint32_t qpn[N], sorted[N];
	static int obj[N];
	struct swnic_qpn_table t;
	unsigned int i, consecutive = 0, small = 0;

	(void)state;
	swnic_qpn_table_init(&t, 1u << 16);
	for (i = 0; i < N; i++) {
		assert_int_equal(swnic_qpn_table_insert(&t, &obj[i], &qpn[i]), DOCA_SUCCESS);
		assert_in_range(qpn[i], SWNIC_QPN_MIN, SWNIC_QPN_MULTICAST - 1);
		consecutive += i > 0 && qpn[i] == qpn[i - 1] + 1u;
		small += qpn[i] < SWNIC_QPN_MIN + N;
		sorted[i] = qpn[i];
	}
	/* Handed out in order from a base, every one would be consecutive and small. */
	assert_true(consecutive < 4);
	assert_true(small < 16);
	qsort(sorted, N, sizeof(sorted[0]), cmp_u32);
	for (i = 1; i < N; i++)
		assert_int_not_equal(sorted[i], sorted[i - 1]);
	for (i = 0; i < N; i++)
		assert_ptr_equal(swnic_qpn_table_lookup(&t, qpn[i]), &obj[i]);
	/* Remove every other one; the rest stay reachable, the removed ones are gone. */
	for (i = 0; i < N; i += 2)
		assert_ptr_equal(swnic_qpn_table_remove(&t, qpn[i]), &obj[i]);
	for (i = 0; i < N; i++)
		assert_ptr_equal(swnic_qpn_table_lookup(&t, qpn[i]), (i % 2) ? &obj[i] : NULL);
	assert_null(swnic_qpn_table_remove(&t, qpn[0]));
	assert_null(swnic_qpn_table_lookup(&t, 0));
	assert_null(swnic_qpn_table_lookup(&t, SWNIC_QPN_MULTICAST));
	assert_int_equal(t.count, N / 2);
	swnic_qpn_table_fini(&t);
}

static void test_full_and_bad_args(void **state)
{
	struct swnic_qpn_table t;
	uint32_t q[3];
	int o;

	(void)state;
	swnic_qpn_table_init(&t, 2);
	assert_null(swnic_qpn_table_lookup(&t, SWNIC_QPN_MIN));
	assert_int_equal(swnic_qpn_table_insert(&t, &o, &q[0]), DOCA_SUCCESS);
	assert_int_equal(swnic_qpn_table_insert(&t, &o, &q[1]), DOCA_SUCCESS);
	assert_int_equal(swnic_qpn_table_insert(&t, &o, &q[2]), DOCA_ERROR_FULL);
	assert_int_equal(swnic_qpn_table_insert(&t, NULL, &q[2]), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_qpn_table_insert(&t, &o, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_ptr_equal(swnic_qpn_table_remove(&t, q[0]), &o);
	assert_int_equal(swnic_qpn_table_insert(&t, &o, &q[2]), DOCA_SUCCESS);
	swnic_qpn_table_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_distinct_and_found),
		cmocka_unit_test(test_full_and_bad_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
