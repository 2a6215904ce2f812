/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * For the GPU handle tests: run a call with stderr captured and check that it returned the
 * expected error and logged exactly one ERR line from the expected function; and the host-handle
 * setup and teardown the handle tests share.
 * Include after <cmocka.h>.
 */
#ifndef OGDA_TESTS_GPU_TEST_LOG_H_
#define OGDA_TESTS_GPU_TEST_LOG_H_

#include "test_util.h"

#include "doca_gpunetio.h"
#include "opengda_gpunetio.h"

#include <stdio.h>
#include <string.h>

static inline void gpu_test_check_one_err_line(const char *log, const char *func)
{
	char where[128];
	const char *nl = strchr(log, '\n');

	assert_non_null(nl);
	assert_string_equal(nl + 1, ""); /* exactly one line */
	assert_non_null(strstr(log, "[ERR]"));
	snprintf(where, sizeof(where), " %s(): ", func);
	assert_non_null(strstr(log, where));
}

/* EXPECT_LOGGED_ERR(call, DOCA_ERROR_x, "function_that_logs") */
#define EXPECT_LOGGED_ERR(call, want, func) TEST_EXPECT_ERR(call, want, " " func "(): ")

/* cmocka setup / teardown: a host GPU handle (opengda_gpu_create_host) in *state. */
static inline int gpu_test_host_setup(void **state)
{
	struct doca_gpu *gpu = NULL;

	if (opengda_gpu_create_host(&gpu) != DOCA_SUCCESS)
		return -1;
	*state = gpu;
	return 0;
}

static inline int gpu_test_host_teardown(void **state)
{
	return doca_gpu_destroy(*state) == DOCA_SUCCESS ? 0 : -1;
}

#endif /* OGDA_TESTS_GPU_TEST_LOG_H_ */
