/* SPDX-License-Identifier: BSD-3-Clause */
#include "hw_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "devx/hw.h"
#include "prm/prm_cq.h"
#include "prm/prm_qp.h"
#include "swnic/swnic_ctl.h"

int hfx_setup(void **state)
{
	static struct hfx f;

	memset(&f, 0, sizeof(f));
	fake_rdma_core_install();
	assert_int_equal(ogda_devx_hw_open(FAKE_MLX5_NAME, &f.dev), DOCA_SUCCESS);
	f.ops = f.dev->ops;
	f.arena = aligned_alloc(4096, HFX_ARENA_SIZE);
	assert_non_null(f.arena);
	memset(f.arena, 0, HFX_ARENA_SIZE);
	*state = &f;
	return 0;
}

int hfx_teardown(void **state)
{
	struct hfx *f = *state;
	struct fake_rdma_core_counts c;

	if (f->pd != NULL)
		assert_int_equal(f->ops->pd_free(f->pd), DOCA_SUCCESS);
	if (f->uar != NULL)
		assert_int_equal(f->ops->uar_free(f->uar), DOCA_SUCCESS);
	if (f->umem != NULL)
		assert_int_equal(f->ops->umem_dereg(f->umem), DOCA_SUCCESS);
	if (f->dev != NULL)
		f->ops->close(f->dev);
	fake_rdma_core_counts(&c);
	fake_rdma_core_uninstall();
	free(f->arena);
	assert_int_equal(c.contexts, 0);
	assert_int_equal(c.pds, 0);
	assert_int_equal(c.mrs, 0);
	assert_int_equal(c.umems, 0);
	assert_int_equal(c.uars, 0);
	assert_int_equal(c.objs, 0);
	assert_int_equal(c.channels, 0);
	assert_int_equal(c.ahs, 0);
	return 0;
}

void hfx_resources(struct hfx *f)
{
	assert_int_equal(f->ops->umem_reg(f->dev, f->arena, HFX_ARENA_SIZE, OGDA_ACCESS_LOCAL_WRITE, -1, 0, &f->umem,
					  &f->umem_id),
			 DOCA_SUCCESS);
	assert_int_equal(f->ops->uar_alloc(f->dev, OGDA_DEVX_UAR_BF, &f->uar, &f->uar_info), DOCA_SUCCESS);
	assert_int_equal(f->ops->pd_alloc(f->dev, &f->pd, &f->pdn), DOCA_SUCCESS);
}

void hfx_cq_in(const struct hfx *f, uint8_t *in, size_t len, uint64_t ring_off, uint64_t dbr_off)
{
	struct prm_create_cq_params p;

	memset(&p, 0, sizeof(p));
	p.cqc.log_cq_size = 4;
	p.cqc.uar_page = f->uar_info.page_id;
	p.cqc.c_eqn = SWNIC_EQN;
	p.cqc.dbr_umem_valid = 1;
	p.cqc.dbr_umem_id = f->umem_id;
	p.cqc.dbr_addr = dbr_off;
	p.cq_umem_valid = 1;
	p.cq_umem_id = f->umem_id;
	p.cq_umem_offset = ring_off;
	assert_int_equal(prm_create_cq_in_build(&p, in, len), DOCA_SUCCESS);
}

void hfx_qp_in(const struct hfx *f, uint8_t *in, size_t len, uint32_t cqn, uint64_t wq_off, uint64_t dbr_off)
{
	struct prm_create_qp_params p;

	memset(&p, 0, sizeof(p));
	p.qpc.st = PRM_QP_ST_RC;
	p.qpc.pm_state = PRM_QP_PM_MIGRATED;
	p.qpc.pd = f->pdn;
	p.qpc.log_rq_size = 4;
	p.qpc.log_sq_size = 6;
	p.qpc.rq_type = PRM_QP_RQ_REGULAR;
	p.qpc.uar_page = f->uar_info.page_id;
	p.qpc.cqn_snd = cqn;
	p.qpc.cqn_rcv = cqn;
	p.qpc.user_index = 0x123456;
	p.qpc.dbr_umem_valid = 1;
	p.qpc.dbr_umem_id = f->umem_id;
	p.qpc.dbr_addr = dbr_off;
	p.wq_umem_valid = 1;
	p.wq_umem_id = f->umem_id;
	p.wq_umem_offset = wq_off;
	assert_int_equal(prm_create_qp_in_build(&p, in, len), DOCA_SUCCESS);
}

uint32_t hfx_cq(struct hfx *f, struct ogda_devx_obj **obj, uint64_t ring_off, uint64_t dbr_off)
{
	uint8_t in[PRM_CREATE_CQ_IN_SIZE], out[PRM_CQ_SMALL_CMD_SIZE];
	uint32_t cqn = 0;

	hfx_cq_in(f, in, sizeof(in), ring_off, dbr_off);
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), out, sizeof(out), obj), DOCA_SUCCESS);
	assert_int_equal(prm_create_cq_out_parse(out, sizeof(out), &cqn), DOCA_SUCCESS);
	return cqn;
}

uint32_t hfx_qp(struct hfx *f, struct ogda_devx_obj **obj, uint32_t cqn, uint64_t wq_off, uint64_t dbr_off)
{
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];
	uint32_t qpn = 0;

	hfx_qp_in(f, in, sizeof(in), cqn, wq_off, dbr_off);
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), out, sizeof(out), obj), DOCA_SUCCESS);
	assert_int_equal(prm_create_qp_out_parse(out, sizeof(out), &qpn), DOCA_SUCCESS);
	return qpn;
}
