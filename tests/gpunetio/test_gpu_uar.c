/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Doorbell (UAR) export without a CUDA driver (OPENGDA_DISABLE_CUDA=1): the GPU cannot map a
 * doorbell, which can_register reports as a plain "no", and export/unexport as errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpu_test_log.h"
#include "doca_gpunetio.h"

#include <stdlib.h>
#include <unistd.h>

static uint64_t *const SENTINEL_DB = (uint64_t *)(uintptr_t)0x5a5a5a58;

static uint64_t *page_alloc(void)
{
	void *p = NULL;

	assert_int_equal(posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), (size_t)sysconf(_SC_PAGESIZE)), 0);
	return p;
}

static void test_can_register_without_driver(void **state)
{
	uint64_t *page = page_alloc();
	char log[4096];
	bool can = true;

	(void)state;
	/* No driver is an answer, not an error: nothing is logged at the error level. */
	stderr_capture_begin();
	assert_int_equal(doca_gpu_verbs_can_gpu_register_uar(page, &can), DOCA_SUCCESS);
	stderr_capture_end(log, sizeof(log));
	assert_false(can);
	assert_string_equal(log, "");
	can = true;
	assert_int_equal(doca_gpu_verbs_can_gpu_register_uar((uint8_t *)page + 0x800, &can), DOCA_SUCCESS);
	assert_false(can);
	free(page);
}

static void test_can_register_bad_input(void **state)
{
	uint64_t word = 0;
	bool can = true;

	(void)state;
	EXPECT_LOGGED_ERR(doca_gpu_verbs_can_gpu_register_uar(NULL, &can), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_verbs_can_gpu_register_uar");
	EXPECT_LOGGED_ERR(doca_gpu_verbs_can_gpu_register_uar(&word, NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_verbs_can_gpu_register_uar");
	assert_true(can);
}

static void test_export_without_driver(void **state)
{
	uint64_t *page = page_alloc();
	uint64_t *dev = SENTINEL_DB;

	(void)state;
	EXPECT_LOGGED_ERR(doca_gpu_verbs_export_uar(page, &dev), DOCA_ERROR_NOT_FOUND, "doca_gpu_verbs_export_uar");
	assert_ptr_equal(dev, SENTINEL_DB);
	/* Nothing was mapped, so nothing can be unmapped: not the host address, not any other. */
	EXPECT_LOGGED_ERR(doca_gpu_verbs_unexport_uar(page), DOCA_ERROR_NOT_FOUND, "doca_gpu_verbs_unexport_uar");
	EXPECT_LOGGED_ERR(doca_gpu_verbs_unexport_uar(SENTINEL_DB), DOCA_ERROR_NOT_FOUND,
			  "doca_gpu_verbs_unexport_uar");
	free(page);
}

static void test_export_bad_input(void **state)
{
	uint64_t word = 0;
	uint64_t *dev = SENTINEL_DB;

	(void)state;
	EXPECT_LOGGED_ERR(doca_gpu_verbs_export_uar(NULL, &dev), DOCA_ERROR_INVALID_VALUE, "doca_gpu_verbs_export_uar");
	EXPECT_LOGGED_ERR(doca_gpu_verbs_export_uar(&word, NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_verbs_export_uar");
	EXPECT_LOGGED_ERR(doca_gpu_verbs_unexport_uar(NULL), DOCA_ERROR_INVALID_VALUE, "doca_gpu_verbs_unexport_uar");
	assert_ptr_equal(dev, SENTINEL_DB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_can_register_without_driver),
		cmocka_unit_test(test_can_register_bad_input),
		cmocka_unit_test(test_export_without_driver),
		cmocka_unit_test(test_export_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
