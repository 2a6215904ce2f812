/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ConnectX device: device list (mlx5 only, ENOSYS = none), open by name / ibv_device,
 * import of an ibv_context (left open), close with live objects, accessors, and handles of
 * the software NIC refused by the ConnectX ops. Also checks the real rdma-core table where
 * rdma-core is installed: every symbol name resolves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "core/dl.h"
#include "devx/hw.h"
#include "devx/sw.h"
#include "fake_rdma_core.h"
#include "hw_fixture.h"

static int install(void **state)
{
	(void)state;
	fake_rdma_core_install();
	return 0;
}

static int uninstall(void **state)
{
	struct fake_rdma_core_counts c;

	(void)state;
	fake_rdma_core_counts(&c);
	fake_rdma_core_uninstall();
	assert_int_equal(c.contexts, 0);
	return 0;
}

static void test_list_keeps_mlx5_only(void **state)
{
	struct ogda_ibdev_entry e[4];
	const char *why = "unset";
	size_t n = 99;

	(void)state;
	memset(e, 0, sizeof(e));
	assert_int_equal(ogda_devx_hw_list(e, 4, &n), DOCA_SUCCESS);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].name, FAKE_MLX5_NAME);
	assert_int_equal(e[0].guid, FAKE_MLX5_GUID);
	assert_string_equal(e[1].name, "");

	/* Every RDMA device, through the same lister. */
	memset(e, 0, sizeof(e));
	assert_int_equal(ogda_ibdev_list(e, 4, &n, &why), DOCA_SUCCESS);
	assert_int_equal(n, 2);
	assert_null(why);
	assert_string_equal(e[0].name, FAKE_MLX5_NAME);
	assert_string_equal(e[1].name, FAKE_OTHER_NAME);
	assert_int_equal(e[1].guid, FAKE_OTHER_GUID);

	/* max 0: counted, nothing written. */
	assert_int_equal(ogda_devx_hw_list(NULL, 0, &n), DOCA_SUCCESS);
	assert_int_equal(n, 1);
	assert_int_equal(ogda_devx_hw_list(NULL, 1, &n), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_devx_hw_list(e, 4, NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_list_without_rdma_subsystem(void **state)
{
	struct ogda_ibdev_entry e[2];
	struct ogda_devx *dev = NULL;
	const char *why = NULL;
	size_t n = 99;

	(void)state;
	fake_rdma_core_set_list_errno(ENOSYS);
	assert_int_equal(ogda_devx_hw_list(e, 2, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0);
	assert_int_equal(ogda_ibdev_list_mlx5(e, 2, &n, &why), DOCA_SUCCESS);
	assert_int_equal(n, 0);
	assert_non_null(strstr(why, "ENOSYS"));
	/* Opening by name finds nothing either. */
	assert_int_equal(ogda_devx_hw_open(FAKE_MLX5_NAME, &dev), DOCA_ERROR_NOT_FOUND);
	assert_null(dev);

	/* An rdma-core without libmlx5's probe lists no ConnectX device. */
	fake_rdma_core_set_list_errno(0);
	fake_rdma_core_table()->dv.is_supported = NULL;
	assert_int_equal(ogda_devx_hw_list(e, 2, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0);
	assert_int_equal(ogda_devx_hw_open(FAKE_MLX5_NAME, &dev), DOCA_ERROR_NOT_SUPPORTED);
}

static void test_open_by_name(void **state)
{
	struct ogda_devx *dev = NULL;
	const struct ogda_devx_ops *ops;
	struct fake_rdma_core_counts c;

	(void)state;
	assert_int_equal(ogda_devx_hw_open(FAKE_MLX5_NAME, &dev), DOCA_SUCCESS);
	ops = dev->ops;
	assert_non_null(dev);
	assert_string_equal(dev->name, FAKE_MLX5_NAME);
	assert_string_equal(dev->ops->kind, "mlx5");
	assert_true(ogda_devx_is_hw(dev));
	assert_non_null(ogda_devx_hw_ibv_context(dev));
	assert_int_equal(fake_rdma_core_last()->open_flags, MLX5DV_CONTEXT_FLAGS_DEVX);
	/* Every op of the table is there. */
	assert_non_null(dev->ops->event_channel_create);
	assert_non_null(dev->ops->resolve_rmac);
	fake_rdma_core_counts(&c);
	assert_int_equal(c.contexts, 1);
	ops->close(dev);
	fake_rdma_core_counts(&c);
	assert_int_equal(c.contexts, 0);
	ops->close(NULL); /* harmless */
}

static void test_open_failures(void **state)
{
	struct ogda_devx *dev = NULL;

	(void)state;
	assert_int_equal(ogda_devx_hw_open("mlx5_9", &dev), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(ogda_devx_hw_open(FAKE_OTHER_NAME, &dev), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(ogda_devx_hw_open(NULL, &dev), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_devx_hw_open(FAKE_MLX5_NAME, NULL), DOCA_ERROR_INVALID_VALUE);
	fake_rdma_core_fail_next(EPERM);
	assert_int_equal(ogda_devx_hw_open(FAKE_MLX5_NAME, &dev), DOCA_ERROR_DRIVER);
	assert_null(dev);
	fake_rdma_core_table()->dv.open_device = NULL;
	assert_int_equal(ogda_devx_hw_open(FAKE_MLX5_NAME, &dev), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(ogda_devx_hw_open_ibv_device(NULL, &dev), DOCA_ERROR_INVALID_VALUE);
}

static void test_open_ibv_device(void **state)
{
	const struct ogda_rdma_core *rc = fake_rdma_core_table();
	struct ibv_device **list;
	struct ogda_devx *dev = NULL;
	int n = 0;

	(void)state;
	list = rc->ibv.get_device_list(&n);
	assert_int_equal(n, 2);
	assert_int_equal(ogda_devx_hw_open_ibv_device(list[1], &dev), DOCA_ERROR_NOT_SUPPORTED);
	assert_null(dev);
	assert_int_equal(ogda_devx_hw_open_ibv_device(list[0], &dev), DOCA_SUCCESS);
	rc->ibv.free_device_list(list); /* the context outlives the list */
	assert_string_equal(dev->name, FAKE_MLX5_NAME);
	dev->ops->close(dev);
}

static void test_import_leaves_context_open(void **state)
{
	const struct ogda_rdma_core *rc = fake_rdma_core_table();
	struct mlx5dv_context_attr attr = {.flags = MLX5DV_CONTEXT_FLAGS_DEVX};
	struct fake_rdma_core_counts c;
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ogda_devx *dev = NULL;
	struct ogda_devx_pd *pd = NULL;
	uint32_t pdn = 0;
	int n = 0;

	(void)state;
	list = rc->ibv.get_device_list(&n);
	ctx = rc->dv.open_device(list[0], &attr);
	rc->ibv.free_device_list(list);
	assert_non_null(ctx);
	assert_int_equal(ogda_devx_hw_import(ctx, &dev), DOCA_SUCCESS);
	assert_string_equal(dev->name, FAKE_MLX5_NAME);
	assert_ptr_equal(ogda_devx_hw_ibv_context(dev), ctx);
	assert_int_equal(dev->ops->pd_alloc(dev, &pd, &pdn), DOCA_SUCCESS);
	assert_ptr_equal(ogda_devx_hw_ibv_pd(pd)->context, ctx);
	assert_int_equal(dev->ops->pd_free(pd), DOCA_SUCCESS);
	dev->ops->close(dev);
	fake_rdma_core_counts(&c);
	assert_int_equal(c.contexts, 1); /* the caller's */
	assert_int_equal(rc->ibv.close_device(ctx), 0);
	assert_int_equal(ogda_devx_hw_import(NULL, &dev), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_devx_hw_import(ctx, NULL), DOCA_ERROR_INVALID_VALUE);
}

/* Objects keep the device: the context closes with the last of them. */
static void test_close_with_live_objects(void **state)
{
	struct hfx *f;
	struct ogda_devx_obj *cq = NULL;
	struct fake_rdma_core_counts c;

	assert_int_equal(hfx_setup(state), 0);
	f = *state;
	hfx_resources(f);
	(void)hfx_cq(f, &cq, 0, 0x1000);
	f->ops->close(f->dev);
	f->dev = NULL;
	fake_rdma_core_counts(&c);
	assert_int_equal(c.contexts, 1);
	assert_int_equal(f->ops->obj_destroy(cq), DOCA_SUCCESS);
	fake_rdma_core_counts(&c);
	assert_int_equal(c.contexts, 1); /* the PD, umem and UAR still hold it */
	assert_int_equal(hfx_teardown(state), 0);
}

static void test_software_nic_handles_refused(void **state)
{
	struct ogda_devx *sw = NULL, *hw = NULL;
	struct ogda_devx_pd *swpd = NULL;
	struct ogda_devx_obj *bogus;
	uint8_t in[16] = {0x01, 0x00}, out[16];
	uint32_t pdn = 0;

	(void)state;
	assert_int_equal(ogda_devx_sw_open(0, &sw), DOCA_SUCCESS);
	assert_int_equal(ogda_devx_hw_open(FAKE_MLX5_NAME, &hw), DOCA_SUCCESS);
	assert_false(ogda_devx_is_hw(sw));
	assert_false(ogda_devx_is_hw(NULL));
	assert_null(ogda_devx_hw_ibv_context(sw));
	assert_null(ogda_devx_hw_ibv_context(NULL));
	assert_int_equal(sw->ops->pd_alloc(sw, &swpd, &pdn), DOCA_SUCCESS);
	assert_null(ogda_devx_hw_ibv_pd(swpd));
	assert_null(ogda_devx_hw_ibv_pd(NULL));
	/* A software NIC device or handle given to the ConnectX ops. */
	assert_int_equal(hw->ops->general_cmd(sw, in, sizeof(in), out, sizeof(out)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(hw->ops->pd_free(swpd), DOCA_ERROR_INVALID_VALUE);
	bogus = (struct ogda_devx_obj *)(void *)swpd;
	assert_int_equal(hw->ops->obj_destroy(bogus), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_devx_hw_pd_import(sw, (struct ibv_pd *)(void *)in, &swpd, &pdn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(sw->ops->pd_free(swpd), DOCA_SUCCESS);
	assert_int_equal(cmd_log_count(fake_rdma_core_log(), CMD_GENERAL, 0), 0);
	hw->ops->close(hw);
	sw->ops->close(sw);
}

/* With rdma-core installed, the loader's symbol names all resolve (skipped elsewhere). */
static void test_real_table_resolves(void **state)
{
	const struct ogda_rdma_core *rc = NULL;
	const struct ogda_ibv *ibv = NULL;
	void *h = NULL;
	size_t n = 0;
	struct ogda_ibdev_entry e[4];

	(void)state;
	fake_rdma_core_uninstall();
	if (ogda_runtime_lib_open(OGDA_LIB_IBVERBS, &h) != DOCA_SUCCESS ||
	    ogda_runtime_lib_open(OGDA_LIB_MLX5, &h) != DOCA_SUCCESS) {
		skip();
		return;
	}
	assert_int_equal(ogda_ibv_get(&ibv), DOCA_SUCCESS);
	assert_int_equal(ogda_rdma_core_get(&rc), DOCA_SUCCESS);
	assert_ptr_equal(&rc->ibv, ibv);
	assert_ptr_not_equal(rc, fake_rdma_core_table());
	assert_non_null(rc->ibv.get_device_list);
	assert_non_null(rc->ibv.close_device);
	assert_non_null(rc->ibv.alloc_pd);
	assert_non_null(rc->ibv.dealloc_pd);
	assert_non_null(rc->ibv.reg_mr);
	assert_non_null(rc->ibv.dereg_mr);
	assert_non_null(rc->ibv.query_port);
	assert_non_null(rc->ibv.query_gid);
	assert_non_null(rc->ibv.create_ah);
	assert_non_null(rc->ibv.destroy_ah);
	assert_non_null(rc->dv.is_supported);
	assert_non_null(rc->dv.open_device);
	assert_non_null(rc->dv.init_obj);
	assert_non_null(rc->dv.devx_general_cmd);
	assert_non_null(rc->dv.devx_obj_create);
	assert_non_null(rc->dv.devx_obj_modify);
	assert_non_null(rc->dv.devx_obj_query);
	assert_non_null(rc->dv.devx_obj_destroy);
	assert_non_null(rc->dv.devx_umem_reg);
	assert_non_null(rc->dv.devx_umem_dereg);
	assert_non_null(rc->dv.devx_alloc_uar);
	assert_non_null(rc->dv.devx_free_uar);
	assert_non_null(rc->dv.devx_query_eqn);
#ifdef OGDA_TEST_RDMA_CORE_HAS_ALL
	/* rdma-core 35+ (the build's headers): the optional entry points too. */
	assert_non_null(rc->ibv.reg_dmabuf_mr);
	assert_non_null(rc->dv.devx_umem_reg_ex);
	assert_non_null(rc->dv.devx_create_event_channel);
	assert_non_null(rc->dv.devx_destroy_event_channel);
	assert_non_null(rc->dv.devx_subscribe_devx_event);
	assert_non_null(rc->dv.devx_get_event);
#endif
	/* No ConnectX here, or some: either way the list works. */
	assert_int_equal(ogda_devx_hw_list(e, 4, &n), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_list_keeps_mlx5_only, install, uninstall),
		cmocka_unit_test_setup_teardown(test_list_without_rdma_subsystem, install, uninstall),
		cmocka_unit_test_setup_teardown(test_open_by_name, install, uninstall),
		cmocka_unit_test_setup_teardown(test_open_failures, install, uninstall),
		cmocka_unit_test_setup_teardown(test_open_ibv_device, install, uninstall),
		cmocka_unit_test_setup_teardown(test_import_leaves_context_open, install, uninstall),
		cmocka_unit_test(test_close_with_live_objects),
		cmocka_unit_test_setup_teardown(test_software_nic_handles_refused, install, uninstall),
		cmocka_unit_test_setup_teardown(test_real_table_resolves, install, uninstall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
