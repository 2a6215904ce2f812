/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs with OPENGDA_DISABLE_CUDA=1: the driver is reported missing, nothing crashes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/cuda_drv.h"

static void disabled_driver_is_not_found(void **state)
{
	(void)state;
	if (!ogda_cuda_drv_built_in()) {
		assert_int_equal(ogda_cuda_drv_probe(), DOCA_ERROR_NOT_SUPPORTED);
		assert_string_equal(ogda_cuda_drv_status(), "built without CUDA headers");
		return;
	}
	assert_int_equal(ogda_cuda_drv_probe(), DOCA_ERROR_NOT_FOUND);
	assert_non_null(strstr(ogda_cuda_drv_status(), "disabled by OPENGDA_DISABLE_CUDA"));
#ifdef OGDA_HAVE_CUDA_H
	{
		const struct ogda_cuda_drv *drv = NULL;

		assert_int_equal(ogda_cuda_drv_get(&drv), DOCA_ERROR_NOT_FOUND);
		assert_null(drv);
		assert_int_equal(ogda_cuda_drv_get(NULL), DOCA_ERROR_INVALID_VALUE);
	}
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(disabled_driver_is_not_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
