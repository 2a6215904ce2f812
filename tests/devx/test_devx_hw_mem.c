/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ConnectX PD, MR, UMEM and UAR over the fake rdma-core: numbers from the device, the pdn
 * through mlx5dv_init_obj, imported PDs left allocated, dmabuf registrations with the
 * arguments rdma-core documents (umem: addr = dmabuf offset, page-size bitmap, DMABUF
 * mask), UAR flags per type and the register geometry, and every failure mapping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "devx/hw.h"
#include "hw_fixture.h"
#include "swnic/swnic_ctl.h"

static int failing_init_obj(struct mlx5dv_obj *obj, uint64_t type)
{
	(void)obj;
	(void)type;
	return EINVAL;
}

static void test_pd(void **state)
{
	struct hfx *f = *state;
	const struct ogda_rdma_core *rc = fake_rdma_core_table();
	struct ogda_devx_pd *pd = NULL, *imported = NULL;
	struct ibv_pd *ibv_pd;
	struct fake_rdma_core_counts c;
	uint32_t pdn = 0, pdn2 = 0;

	assert_int_equal(f->ops->pd_alloc(f->dev, &pd, &pdn), DOCA_SUCCESS);
	assert_int_equal(pdn, SWNIC_PD_BASE);
	ibv_pd = ogda_devx_hw_ibv_pd(pd);
	assert_non_null(ibv_pd);
	assert_ptr_equal(ibv_pd->context, ogda_devx_hw_ibv_context(f->dev));

	/* The caller's ibv_pd: wrapped, and left allocated by pd_free. */
	ibv_pd = rc->ibv.alloc_pd(ogda_devx_hw_ibv_context(f->dev));
	assert_int_equal(ogda_devx_hw_pd_import(f->dev, ibv_pd, &imported, &pdn2), DOCA_SUCCESS);
	assert_int_equal(pdn2, SWNIC_PD_BASE + 1);
	assert_ptr_equal(ogda_devx_hw_ibv_pd(imported), ibv_pd);
	assert_int_equal(f->ops->pd_free(imported), DOCA_SUCCESS);
	imported = NULL;
	fake_rdma_core_counts(&c);
	assert_int_equal(c.pds, 2);
	assert_int_equal(rc->ibv.dealloc_pd(ibv_pd), 0);
	assert_int_equal(ogda_devx_hw_pd_import(f->dev, NULL, &imported, &pdn2), DOCA_ERROR_INVALID_VALUE);

	/* Failures: rdma-core (DRIVER, nothing left allocated), missing entry points, bad input. */
	fake_rdma_core_fail_next(ENOMEM);
	assert_int_equal(f->ops->pd_alloc(f->dev, &imported, &pdn2), DOCA_ERROR_DRIVER);
	/* ibv_alloc_pd works, mlx5dv_init_obj fails or is missing: the PD is given back. */
	fake_rdma_core_table()->dv.init_obj = failing_init_obj;
	assert_int_equal(f->ops->pd_alloc(f->dev, &imported, &pdn2), DOCA_ERROR_DRIVER);
	fake_rdma_core_table()->dv.init_obj = NULL;
	assert_int_equal(f->ops->pd_alloc(f->dev, &imported, &pdn2), DOCA_ERROR_NOT_SUPPORTED);
	assert_null(imported);
	fake_rdma_core_counts(&c);
	assert_int_equal(c.pds, 1);
	assert_int_equal(f->ops->pd_alloc(f->dev, NULL, &pdn2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->pd_alloc(f->dev, &imported, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->pd_free(NULL), DOCA_ERROR_INVALID_VALUE);
	fake_rdma_core_fail_next(EIO);
	assert_int_equal(f->ops->pd_free(pd), DOCA_ERROR_DRIVER);
	assert_int_equal(f->ops->pd_free(pd), DOCA_SUCCESS);
}

static void test_mr(void **state)
{
	struct hfx *f = *state;
	static uint8_t buf[8192];
	struct ogda_devx_mr *mr = NULL, *dm = NULL;
	uint32_t lkey = 0, rkey = 0, lk2 = 0, rk2 = 0;
	const struct fake_rdma_core_last *last = fake_rdma_core_last();
	const uint32_t rw = OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ;

	hfx_resources(f);
	assert_int_equal(f->ops->mr_reg(f->pd, buf, sizeof(buf), rw, -1, 0, &mr, &lkey, &rkey), DOCA_SUCCESS);
	assert_int_equal(lkey >> 8, SWNIC_MR_INDEX_BASE);
	assert_int_equal(rkey, lkey);
	assert_int_equal(fake_rdma_core_log()->e[fake_rdma_core_log()->n - 1].arg1, rw);
	/* The PD holds an MR: ibv_dealloc_pd says EBUSY. */
	assert_int_equal(f->ops->pd_free(f->pd), DOCA_ERROR_IN_USE);

	/* dmabuf: offset, length, the address as iova, fd and access as given. */
	assert_int_equal(f->ops->mr_reg(f->pd, (void *)(uintptr_t)0x7f0000200000ull, 0x20000, rw, 9, 0x3000, &dm, &lk2,
					&rk2),
			 DOCA_SUCCESS);
	assert_int_equal(last->dmabuf_offset, 0x3000);
	assert_int_equal(last->dmabuf_len, 0x20000);
	assert_int_equal(last->dmabuf_iova, 0x7f0000200000ull);
	assert_int_equal(last->dmabuf_fd, 9);
	assert_int_equal(last->dmabuf_access, (int)rw);
	assert_int_equal(lk2, FAKE_DMABUF_MR_KEY_BASE);
	assert_int_equal(f->ops->mr_dereg(dm), DOCA_SUCCESS);

	/* Failures and bad input. */
	fake_rdma_core_fail_next(EFAULT);
	assert_int_equal(f->ops->mr_reg(f->pd, buf, sizeof(buf), rw, -1, 0, &dm, &lk2, &rk2), DOCA_ERROR_DRIVER);
	assert_int_equal(f->ops->mr_reg(f->pd, buf, sizeof(buf), 0x100, -1, 0, &dm, &lk2, &rk2),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->mr_reg(f->pd, NULL, sizeof(buf), rw, -1, 0, &dm, &lk2, &rk2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->mr_reg(f->pd, buf, 0, rw, -1, 0, &dm, &lk2, &rk2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->mr_reg(NULL, buf, 8, rw, -1, 0, &dm, &lk2, &rk2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->mr_reg(f->pd, buf, 8, rw, -1, 0, NULL, &lk2, &rk2), DOCA_ERROR_INVALID_VALUE);
	fake_rdma_core_table()->ibv.reg_dmabuf_mr = NULL;
	assert_int_equal(f->ops->mr_reg(f->pd, buf, sizeof(buf), rw, 9, 0, &dm, &lk2, &rk2), DOCA_ERROR_NOT_SUPPORTED);
	/* -1 alone means "no dmabuf": another negative fd is a mistake, refused before rdma-core. */
	assert_int_equal(f->ops->mr_reg(f->pd, buf, sizeof(buf), rw, -2, 0, &dm, &lk2, &rk2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->mr_reg(f->pd, NULL, sizeof(buf), rw, -7, 0, &dm, &lk2, &rk2), DOCA_ERROR_INVALID_VALUE);
	fake_rdma_core_fail_next(EIO);
	assert_int_equal(f->ops->mr_dereg(mr), DOCA_ERROR_DRIVER);
	assert_int_equal(f->ops->mr_dereg(mr), DOCA_SUCCESS);
	assert_int_equal(f->ops->mr_dereg(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_umem(void **state)
{
	struct hfx *f = *state;
	const struct fake_rdma_core_last *last = fake_rdma_core_last();
	struct ogda_devx_umem *u = NULL, *d = NULL;
	struct ogda_devx_obj *cq = NULL;
	uint32_t id = 0, did = 0;
	long page = sysconf(_SC_PAGESIZE);

	hfx_resources(f);
	assert_int_equal(f->umem_id, SWNIC_UMEM_BASE);
	assert_int_equal(f->ops->umem_reg(f->dev, f->arena, 4096, OGDA_ACCESS_LOCAL_WRITE, -1, 0, &u, &id),
			 DOCA_SUCCESS);
	assert_int_equal(id, SWNIC_UMEM_BASE + 1);

	assert_int_equal(f->ops->umem_reg(f->dev, f->arena, 4096, OGDA_ACCESS_LOCAL_WRITE, -2, 0, &u, &id),
			 DOCA_ERROR_INVALID_VALUE);

	/* dmabuf: umem_reg_ex with addr = the offset into the dmabuf. */
	assert_int_equal(f->ops->umem_reg(f->dev, (void *)(uintptr_t)0x7f0000400000ull, 0x10000,
					  OGDA_ACCESS_LOCAL_WRITE, 11, 0x5000, &d, &did),
			 DOCA_SUCCESS);
	assert_int_equal(did, FAKE_DMABUF_UMEM_ID_BASE);
	assert_ptr_equal(last->umem_in.addr, (void *)(uintptr_t)0x5000);
	assert_int_equal(last->umem_in.size, 0x10000);
	assert_int_equal(last->umem_in.access, OGDA_ACCESS_LOCAL_WRITE);
	assert_int_equal(last->umem_in.pgsz_bitmap, ~((uint64_t)page - 1));
	assert_int_equal(last->umem_in.comp_mask, 1);
	assert_int_equal(last->umem_in.dmabuf_fd, 11);
	assert_int_equal(f->ops->umem_dereg(d), DOCA_SUCCESS);
	d = NULL;

	/* A CQ lies in the fixture's umem: IN_USE until it is gone. */
	(void)hfx_cq(f, &cq, 0, 0x1000);
	assert_int_equal(f->ops->umem_dereg(f->umem), DOCA_ERROR_IN_USE);
	assert_int_equal(f->ops->obj_destroy(cq), DOCA_SUCCESS);

	/* Failures and bad input. */
	fake_rdma_core_fail_next(ENOMEM);
	assert_int_equal(f->ops->umem_reg(f->dev, f->arena, 4096, 0, -1, 0, &d, &did), DOCA_ERROR_DRIVER);
	assert_int_equal(f->ops->umem_reg(f->dev, NULL, 4096, 0, -1, 0, &d, &did), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->umem_reg(f->dev, f->arena, 0, 0, -1, 0, &d, &did), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->umem_reg(f->dev, f->arena, 4096, 0x40, -1, 0, &d, &did), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->umem_reg(NULL, f->arena, 4096, 0, -1, 0, &d, &did), DOCA_ERROR_INVALID_VALUE);
	fake_rdma_core_table()->dv.devx_umem_reg_ex = NULL;
	assert_int_equal(f->ops->umem_reg(f->dev, NULL, 4096, 0, 11, 0, &d, &did), DOCA_ERROR_NOT_SUPPORTED);
	assert_null(d);
	fake_rdma_core_fail_next(EIO);
	assert_int_equal(f->ops->umem_dereg(u), DOCA_ERROR_DRIVER);
	assert_int_equal(f->ops->umem_dereg(u), DOCA_SUCCESS);
	assert_int_equal(f->ops->umem_dereg(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_uar(void **state)
{
	struct hfx *f = *state;
	const struct fake_rdma_core_last *last = fake_rdma_core_last();
	struct ogda_devx_uar *bf = NULL, *nc = NULL, *ded = NULL, *x = NULL;
	struct ogda_devx_uar_info i1, i2, i3;

	assert_int_equal(f->ops->uar_alloc(f->dev, OGDA_DEVX_UAR_BF, &bf, &i1), DOCA_SUCCESS);
	assert_int_equal(last->uar_flags, 0);
	assert_int_equal((uintptr_t)i1.base_addr % 4096, 0);
	assert_ptr_equal(i1.reg_addr, (uint8_t *)i1.base_addr + 0x800);
	assert_int_equal(i1.bf_reg_size, 512);
	assert_int_equal(i1.page_id, SWNIC_UAR_BASE);

	assert_int_equal(f->ops->uar_alloc(f->dev, OGDA_DEVX_UAR_NC, &nc, &i2), DOCA_SUCCESS);
	assert_int_equal(last->uar_flags, 1);
	assert_int_equal(i2.page_id, SWNIC_UAR_BASE + 1);
	assert_int_equal(f->ops->uar_alloc(f->dev, OGDA_DEVX_UAR_NC_DEDICATED, &ded, &i3), DOCA_SUCCESS);
	assert_int_equal(last->uar_flags, 1u << 31);
	assert_int_equal(i3.page_id, SWNIC_UAR_BASE + 2);

	/* rdma-core before 45 refuses the dedicated flag. */
	fake_rdma_core_set_nc_dedicated(false);
	assert_int_equal(f->ops->uar_alloc(f->dev, OGDA_DEVX_UAR_NC_DEDICATED, &x, &i3), DOCA_ERROR_NOT_SUPPORTED);
	assert_null(x);
	fake_rdma_core_fail_next(ENOMEM);
	assert_int_equal(f->ops->uar_alloc(f->dev, OGDA_DEVX_UAR_BF, &x, &i3), DOCA_ERROR_DRIVER);
	assert_int_equal(f->ops->uar_alloc(f->dev, (enum ogda_devx_uar_type)3, &x, &i3), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->uar_alloc(f->dev, OGDA_DEVX_UAR_BF, NULL, &i3), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->uar_alloc(f->dev, OGDA_DEVX_UAR_BF, &x, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->uar_free(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->uar_free(bf), DOCA_SUCCESS);
	assert_int_equal(f->ops->uar_free(nc), DOCA_SUCCESS);
	assert_int_equal(f->ops->uar_free(ded), DOCA_SUCCESS);
	fake_rdma_core_table()->dv.devx_alloc_uar = NULL;
	assert_int_equal(f->ops->uar_alloc(f->dev, OGDA_DEVX_UAR_BF, &x, &i3), DOCA_ERROR_NOT_SUPPORTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pd, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_mr, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_umem, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_uar, hfx_setup, hfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
