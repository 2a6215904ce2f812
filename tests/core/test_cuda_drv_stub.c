/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Runs with the CUDA toolkit's stub libcuda.so.1 first on LD_LIBRARY_PATH: the library
 * loads, cuInit returns CUDA_ERROR_STUB_LIBRARY (34), and that must surface as a driver
 * error with the reason, the situation of every build machine without a GPU driver.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/cuda_drv.h"

static void stub_driver_fails_init(void **state)
{
	const struct ogda_cuda_drv *drv = NULL;

	(void)state;
	assert_int_equal(ogda_cuda_drv_get(&drv), DOCA_ERROR_DRIVER);
	assert_null(drv);
	assert_non_null(strstr(ogda_cuda_drv_status(), "cuInit failed"));
	assert_non_null(strstr(ogda_cuda_drv_status(), "(34)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stub_driver_fails_init),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
