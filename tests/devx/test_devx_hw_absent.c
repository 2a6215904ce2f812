/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Without rdma-core (OPENGDA_DISABLE_IBVERBS=1, OPENGDA_DISABLE_MLX5=1 in this test's
 * environment): zero ConnectX devices and DOCA_SUCCESS from the list, NOT_FOUND from open
 * and import; the software NIC is unaffected.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "devx/hw.h"
#include "devx/sw.h"

static void test_no_rdma_core(void **state)
{
	const struct ogda_rdma_core *rc = NULL;
	const struct ogda_ibv *ibv = NULL;
	struct ogda_ibdev_entry e[2];
	struct ogda_devx *dev = NULL;
	const char *why = NULL;
	size_t n = 99;

	(void)state;
	assert_int_equal(ogda_rdma_core_get(&rc), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(ogda_ibv_get(&ibv), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(ogda_devx_hw_list(e, 2, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0);
	assert_int_equal(ogda_ibdev_list_mlx5(e, 2, &n, &why), DOCA_SUCCESS);
	assert_non_null(why);
	assert_int_equal(ogda_devx_hw_open("mlx5_0", &dev), DOCA_ERROR_NOT_FOUND);
	assert_null(dev);
	assert_int_equal(ogda_devx_hw_import((struct ibv_context *)(void *)e, &dev), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(ogda_devx_hw_open_ibv_device((struct ibv_device *)(void *)e, &dev), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(ogda_devx_sw_open(0, &dev), DOCA_SUCCESS);
	assert_false(ogda_devx_is_hw(dev));
	dev->ops->close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_rdma_core),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
