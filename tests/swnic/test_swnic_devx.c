/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device ops over the software NIC (src/devx/sw.c): port, GID and EQ queries,
 * general commands, PD / MR / umem / UAR, and objects created from PRM bytes that
 * destroy themselves (IN_USE while other objects use them) and keep the NIC alive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "devx/sw.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "swnic/swnic.h"
#include "swnic/swnic_ctl.h"

#define ARENA_SIZE (1u << 20)

struct dfx {
	struct ogda_devx *dev;
	const struct ogda_devx_ops *ops;
	uint8_t *arena;
	struct ogda_devx_umem *umem;
	uint32_t umem_id;
	struct ogda_devx_uar *uar;
	struct ogda_devx_uar_info uar_info;
	struct ogda_devx_pd *pd;
	uint32_t pdn;
};

static int setup(void **state)
{
	static struct dfx d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(ogda_devx_sw_open(0, &d.dev), DOCA_SUCCESS);
	d.ops = d.dev->ops;
	d.arena = aligned_alloc(4096, ARENA_SIZE);
	assert_non_null(d.arena);
	memset(d.arena, 0, ARENA_SIZE);
	*state = &d;
	return 0;
}

static int teardown(void **state)
{
	struct dfx *d = *state;

	if (d->dev != NULL)
		d->ops->close(d->dev);
	free(d->arena);
	return 0;
}

/* umem over the arena, a UAR, a PD. */
static void resources(struct dfx *d)
{
	assert_int_equal(d->ops->umem_reg(d->dev, d->arena, ARENA_SIZE, OGDA_ACCESS_LOCAL_WRITE, -1, 0, &d->umem,
					  &d->umem_id),
			 DOCA_SUCCESS);
	assert_int_equal(d->ops->uar_alloc(d->dev, OGDA_DEVX_UAR_BF, &d->uar, &d->uar_info), DOCA_SUCCESS);
	assert_int_equal(d->ops->pd_alloc(d->dev, &d->pd, &d->pdn), DOCA_SUCCESS);
}

static void test_identity_port_gid_eqn(void **state)
{
	struct dfx *d = *state;
	struct ogda_devx_port_attr attr;
	struct swnic *nic = NULL;
	uint8_t gid[16];
	uint32_t eqn = 99;

	assert_string_equal(d->ops->kind, "swnic");
	assert_string_equal(d->dev->name, "swnic0");
	memset(&attr, 0xff, sizeof(attr));
	assert_int_equal(d->ops->query_port(d->dev, 1, &attr), DOCA_SUCCESS);
	assert_int_equal(attr.state, 4);
	assert_int_equal(attr.max_mtu, 5);
	assert_int_equal(attr.active_mtu, 5);
	assert_int_equal(attr.link_layer, OGDA_LINK_LAYER_ETHERNET);
	assert_int_equal(attr.lid, 0);
	assert_int_equal(attr.gid_tbl_len, 1);
	assert_int_equal(d->ops->query_port(d->dev, 2, &attr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->query_port(d->dev, 0, &attr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->query_port(d->dev, 1, NULL), DOCA_ERROR_INVALID_VALUE);

	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	assert_int_equal(d->ops->query_gid(d->dev, 1, 0, gid), DOCA_SUCCESS);
	assert_memory_equal(gid, nic->gid, 16);
	swnic_close(nic);
	assert_int_equal(d->ops->query_gid(d->dev, 1, 1, gid), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(d->ops->query_gid(d->dev, 2, 0, gid), DOCA_ERROR_INVALID_VALUE);

	assert_int_equal(d->ops->query_eqn(d->dev, 0, &eqn), DOCA_SUCCESS);
	assert_int_equal(eqn, SWNIC_EQN);
	assert_int_equal(d->ops->query_eqn(d->dev, 1, &eqn), DOCA_ERROR_INVALID_VALUE);
}

static void test_open_bad_index(void **state)
{
	struct ogda_devx *dev = NULL;

	(void)state;
	assert_int_equal(ogda_devx_sw_open(1, &dev), DOCA_ERROR_NOT_FOUND);
	assert_null(dev);
	assert_int_equal(ogda_devx_sw_open(0, NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_general_cmd(void **state)
{
	static uint8_t out[PRM_QUERY_HCA_CAP_OUT_SIZE];
	struct dfx *d = *state;
	struct prm_query_hca_cap_params q = {.cap_type = PRM_HCA_CAP_GENERAL, .current = 1};
	struct prm_hca_cap_general g;
	struct prm_create_cq_params cq;
	uint8_t in[PRM_CREATE_CQ_IN_SIZE];
	uint8_t status = 0;
	uint32_t synd = 0;

	assert_int_equal(prm_query_hca_cap_in_build(&q, in, PRM_QUERY_HCA_CAP_IN_SIZE), DOCA_SUCCESS);
	assert_int_equal(d->ops->general_cmd(d->dev, in, PRM_QUERY_HCA_CAP_IN_SIZE, out, sizeof(out)), DOCA_SUCCESS);
	assert_int_equal(prm_hca_cap_general_parse(out, sizeof(out), &g), DOCA_SUCCESS);
	assert_int_equal(g.port_type, PRM_HCA_PORT_TYPE_ETH);
	assert_int_equal(g.log_bf_reg_size, 9);

	/* Object commands are not general commands: refused, nothing executed. */
	memset(&cq, 0, sizeof(cq));
	assert_int_equal(prm_create_cq_in_build(&cq, in, sizeof(in)), DOCA_SUCCESS);
	memset(out, 0xaa, 16);
	assert_int_equal(d->ops->general_cmd(d->dev, in, sizeof(in), out, 16), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(out[0], 0xaa);
	memset(in, 0, sizeof(in));
	in[0] = 0x05;
	in[1] = 0x03;   /* INIT2RTR_QP */
	assert_int_equal(d->ops->general_cmd(d->dev, in, sizeof(in), out, 16), DOCA_ERROR_NOT_SUPPORTED);

	/* Unknown opcodes reach the device and fail like on hardware. */
	in[0] = 0x0a;
	in[1] = 0xbc;
	assert_int_equal(d->ops->general_cmd(d->dev, in, 16, out, 16), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(prm_cmd_out_status(out, 16, &status, &synd), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(status, PRM_STATUS_BAD_OP);
	assert_int_equal(synd, SWNIC_SYND_UNKNOWN_OPCODE);
	assert_int_equal(d->ops->general_cmd(NULL, in, 16, out, 16), DOCA_ERROR_INVALID_VALUE);
}

static void test_uar_info(void **state)
{
	struct dfx *d = *state;

	resources(d);
	assert_int_equal((uintptr_t)d->uar_info.base_addr % 4096, 0);
	assert_ptr_equal(d->uar_info.reg_addr, (uint8_t *)d->uar_info.base_addr + 0x800);
	assert_int_equal(d->uar_info.bf_reg_size, 512);
	assert_int_equal(d->uar_info.page_id, SWNIC_UAR_BASE);
	assert_int_equal(d->pdn, SWNIC_PD_BASE);
	assert_int_equal(d->umem_id, SWNIC_UMEM_BASE);
	assert_int_equal(d->ops->uar_alloc(d->dev, OGDA_DEVX_UAR_BF, NULL, &d->uar_info), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->uar_free(d->uar), DOCA_SUCCESS);
	assert_int_equal(d->ops->umem_dereg(d->umem), DOCA_SUCCESS);
	assert_int_equal(d->ops->pd_free(d->pd), DOCA_SUCCESS);
}

static void test_mr_and_dmabuf(void **state)
{
	struct dfx *d = *state;
	static uint8_t buf[512];
	struct ogda_devx_mr *mr = NULL, *mr2 = NULL;
	struct ogda_devx_umem *u = NULL;
	uint32_t lkey = 0, rkey = 0, id = 0;
	struct swnic *nic = NULL;

	resources(d);
	assert_int_equal(d->ops->mr_reg(d->pd, buf, sizeof(buf), OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE, -1,
					0, &mr, &lkey, &rkey),
			 DOCA_SUCCESS);
	assert_int_equal(lkey >> 8, SWNIC_MR_INDEX_BASE);
	assert_int_equal(rkey, lkey);
	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_resolve(nic, rkey, true, NULL, (uintptr_t)buf, sizeof(buf), OGDA_ACCESS_REMOTE_WRITE,
					  NULL),
			 DOCA_SUCCESS);
	swnic_close(nic);
	/* The PD holds an MR. */
	assert_int_equal(d->ops->pd_free(d->pd), DOCA_ERROR_IN_USE);
	/* dmabuf registration is not something the software NIC can map. */
	assert_int_equal(d->ops->mr_reg(d->pd, buf, sizeof(buf), 0, 5, 0, &mr2, &lkey, &rkey),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_null(mr2);
	assert_int_equal(d->ops->umem_reg(d->dev, buf, sizeof(buf), 0, 5, 0, &u, &id), DOCA_ERROR_NOT_SUPPORTED);
	assert_null(u);
	assert_int_equal(d->ops->mr_reg(d->pd, NULL, 8, 0, -1, 0, &mr2, &lkey, &rkey), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->mr_dereg(mr), DOCA_SUCCESS);
	assert_int_equal(d->ops->pd_free(d->pd), DOCA_SUCCESS);
	assert_int_equal(d->ops->uar_free(d->uar), DOCA_SUCCESS);
	assert_int_equal(d->ops->umem_dereg(d->umem), DOCA_SUCCESS);
}

/* -1 is the device interface's "no dmabuf"; other negative fds are refused, not taken for it. */
static void test_dmabuf_fd_negative(void **state)
{
	struct dfx *d = *state;
	static uint8_t buf[512];
	static const int bad[] = {-2, -4096, INT_MIN};
	struct ogda_devx_mr *mr = NULL;
	struct ogda_devx_umem *u = NULL;
	uint32_t lkey = 0, rkey = 0, id = 0;

	resources(d);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(d->ops->mr_reg(d->pd, buf, sizeof(buf), OGDA_ACCESS_LOCAL_WRITE, bad[i], 0, &mr, &lkey,
						&rkey),
				 DOCA_ERROR_INVALID_VALUE);
		assert_null(mr);
		assert_int_equal(d->ops->umem_reg(d->dev, buf, sizeof(buf), 0, bad[i], 0, &u, &id),
				 DOCA_ERROR_INVALID_VALUE);
		assert_null(u);
	}
	assert_int_equal(d->ops->umem_reg(d->dev, buf, sizeof(buf), 0, -1, 0, &u, &id), DOCA_SUCCESS);
	assert_int_equal(d->ops->umem_dereg(u), DOCA_SUCCESS);
	assert_int_equal(d->ops->pd_free(d->pd), DOCA_SUCCESS);
	assert_int_equal(d->ops->uar_free(d->uar), DOCA_SUCCESS);
	assert_int_equal(d->ops->umem_dereg(d->umem), DOCA_SUCCESS);
}

static void cq_in(struct dfx *d, uint8_t *in, size_t len, uint64_t ring_off, uint64_t dbr_off)
{
	struct prm_create_cq_params p;

	memset(&p, 0, sizeof(p));
	p.cqc.log_cq_size = 4;
	p.cqc.uar_page = d->uar_info.page_id;
	p.cqc.c_eqn = SWNIC_EQN;
	p.cqc.dbr_umem_valid = 1;
	p.cqc.dbr_umem_id = d->umem_id;
	p.cqc.dbr_addr = dbr_off;
	p.cq_umem_valid = 1;
	p.cq_umem_id = d->umem_id;
	p.cq_umem_offset = ring_off;
	assert_int_equal(prm_create_cq_in_build(&p, in, len), DOCA_SUCCESS);
}

static void qp_in(struct dfx *d, uint8_t *in, size_t len, uint32_t cqn)
{
	struct prm_create_qp_params p;

	memset(&p, 0, sizeof(p));
	p.qpc.st = PRM_QP_ST_RC;
	p.qpc.pd = d->pdn;
	p.qpc.log_sq_size = 4;
	p.qpc.rq_type = PRM_QP_RQ_ZERO_LEN;
	p.qpc.uar_page = d->uar_info.page_id;
	p.qpc.cqn_snd = cqn;
	p.qpc.dbr_umem_valid = 1;
	p.qpc.dbr_umem_id = d->umem_id;
	p.qpc.dbr_addr = 0x40;
	p.wq_umem_valid = 1;
	p.wq_umem_id = d->umem_id;
	p.wq_umem_offset = 0x10000;
	assert_int_equal(prm_create_qp_in_build(&p, in, len), DOCA_SUCCESS);
}

static void test_objects(void **state)
{
	struct dfx *d = *state;
	uint8_t in[0x110], out[0x110];
	struct ogda_devx_obj *cq = NULL, *qp = NULL, *bad = NULL, *pd = NULL;
	struct prm_modify_cq_params mc;
	struct prm_modify_qp_params mq;
	struct prm_qpc_params qpc;
	uint32_t cqn = 0, qpn = 0, pdn = 0;
	uint8_t status = 0;

	resources(d);
	cq_in(d, in, sizeof(in), 0x1000, 0);
	assert_int_equal(d->ops->obj_create(d->dev, in, sizeof(in), out, 16, &cq), DOCA_SUCCESS);
	assert_int_equal(prm_create_cq_out_parse(out, 16, &cqn), DOCA_SUCCESS);
	assert_int_equal(cqn, SWNIC_CQ_BASE);
	qp_in(d, in, sizeof(in), cqn);
	assert_int_equal(d->ops->obj_create(d->dev, in, sizeof(in), out, 16, &qp), DOCA_SUCCESS);
	assert_int_equal(prm_create_qp_out_parse(out, 16, &qpn), DOCA_SUCCESS);
	assert_in_range(qpn, SWNIC_QPN_MIN, SWNIC_QPN_MULTICAST - 1);

	/* A failing create makes no object and reports the device's status. */
	cq_in(d, in, sizeof(in), 0x2000, 8);
	in[0x10 + 1] |= 0x40;   /* cqe_sz = 2 */
	assert_int_equal(d->ops->obj_create(d->dev, in, sizeof(in), out, 16, &bad), DOCA_ERROR_INVALID_VALUE);
	assert_null(bad);
	assert_int_equal(prm_cmd_out_status(out, 16, &status, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(status, PRM_STATUS_BAD_PARAM);
	/* Commands that create nothing destroyable. */
	memset(in, 0, 16);
	in[0] = 0x01;   /* QUERY_HCA_CAP */
	assert_int_equal(d->ops->obj_create(d->dev, in, 16, out, 16, &bad), DOCA_ERROR_NOT_SUPPORTED);
	assert_null(bad);

	/* Modify and query: the object's own commands, on the object itself. */
	memset(&mc, 0, sizeof(mc));
	mc.cqn = cqn;
	mc.modify_field_select = PRM_MODIFY_CQ_SELECT_COUNT;
	mc.cqc.cq_max_count = 4;
	assert_int_equal(prm_modify_cq_in_build(&mc, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_modify(cq, in, sizeof(in), out, 16), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_modify(qp, in, sizeof(in), out, 16), DOCA_ERROR_INVALID_VALUE);
	mc.cqn = cqn + 1;
	assert_int_equal(prm_modify_cq_in_build(&mc, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_modify(cq, in, sizeof(in), out, 16), DOCA_ERROR_INVALID_VALUE);

	memset(&mq, 0, sizeof(mq));
	mq.opcode = PRM_CMD_RST2INIT_QP;
	mq.qpn = qpn;
	mq.qpc.primary_address_path.vhca_port_num = 1;
	assert_int_equal(prm_modify_qp_in_build(&mq, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_modify(qp, in, sizeof(in), out, 16), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_modify(cq, in, sizeof(in), out, 16), DOCA_ERROR_INVALID_VALUE);
	/* A wrong state is the device's answer, passed through. */
	assert_int_equal(d->ops->obj_modify(qp, in, sizeof(in), out, 16), DOCA_ERROR_BAD_STATE);
	assert_int_equal(prm_cmd_out_status(out, 16, &status, NULL), DOCA_ERROR_BAD_STATE);
	assert_int_equal(status, PRM_STATUS_BAD_QP_STATE);

	assert_int_equal(prm_query_qp_in_build(0, qpn, in, 16), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_query(qp, in, 16, out, sizeof(out)), DOCA_SUCCESS);
	assert_int_equal(prm_query_qp_out_parse(out, sizeof(out), &qpc), DOCA_SUCCESS);
	assert_int_equal(qpc.state, PRM_QP_STATE_INIT);
	assert_int_equal(d->ops->obj_query(cq, in, 16, out, sizeof(out)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_in_build(0, qpn + 1, in, 16), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_query(qp, in, 16, out, sizeof(out)), DOCA_ERROR_INVALID_VALUE);

	/* Destroy order: the CQ is used by the QP, the UAR and umem by both. */
	assert_int_equal(d->ops->obj_destroy(cq), DOCA_ERROR_IN_USE);
	assert_int_equal(d->ops->uar_free(d->uar), DOCA_ERROR_IN_USE);
	assert_int_equal(d->ops->umem_dereg(d->umem), DOCA_ERROR_IN_USE);
	assert_int_equal(d->ops->pd_free(d->pd), DOCA_ERROR_IN_USE);
	assert_int_equal(prm_query_cq_in_build(0, cqn, in, 16), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_query(cq, in, 16, out, sizeof(out)), DOCA_SUCCESS);   /* still valid */
	assert_int_equal(d->ops->obj_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_destroy(cq), DOCA_SUCCESS);

	/* ALLOC_PD through obj_create destroys itself with DEALLOC_PD. */
	assert_int_equal(prm_alloc_pd_in_build(0, in, 16), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_create(d->dev, in, 16, out, 16, &pd), DOCA_SUCCESS);
	pdn = ((uint32_t)out[9] << 16) | ((uint32_t)out[10] << 8) | out[11];
	assert_int_equal(pdn, SWNIC_PD_BASE + 1);
	assert_int_equal(d->ops->obj_destroy(pd), DOCA_SUCCESS);

	assert_int_equal(d->ops->uar_free(d->uar), DOCA_SUCCESS);
	assert_int_equal(d->ops->umem_dereg(d->umem), DOCA_SUCCESS);
	assert_int_equal(d->ops->pd_free(d->pd), DOCA_SUCCESS);
}

/* Objects keep the NIC: closing the device first is safe, the NIC goes with the last object. */
static void test_objects_outlive_the_device(void **state)
{
	struct dfx *d = *state;
	uint8_t in[0x110], out[0x110];
	struct ogda_devx_obj *cq = NULL;
	struct swnic *nic = NULL;
	uint32_t cqn = 0;

	resources(d);
	cq_in(d, in, sizeof(in), 0x1000, 0);
	assert_int_equal(d->ops->obj_create(d->dev, in, sizeof(in), out, 16, &cq), DOCA_SUCCESS);
	assert_int_equal(prm_create_cq_out_parse(out, 16, &cqn), DOCA_SUCCESS);
	d->ops->close(d->dev);
	d->dev = NULL;
	assert_int_equal(prm_query_cq_in_build(0, cqn, in, 16), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_query(cq, in, 16, out, sizeof(out)), DOCA_SUCCESS);
	assert_int_equal(d->ops->obj_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(d->ops->uar_free(d->uar), DOCA_SUCCESS);
	assert_int_equal(d->ops->umem_dereg(d->umem), DOCA_SUCCESS);
	/* The PD is the last holder: the NIC is still the same one. */
	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	assert_int_equal(atomic_load(&nic->refs), 2);
	assert_int_equal(nic->pds.count, 1);
	swnic_close(nic);
	assert_int_equal(d->ops->pd_free(d->pd), DOCA_SUCCESS);
	/* Now gone: a new open starts from scratch. */
	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	assert_int_equal(atomic_load(&nic->refs), 1);
	assert_int_equal(nic->pds.count, 0);
	swnic_close(nic);
}

static void test_null_arguments(void **state)
{
	struct dfx *d = *state;
	uint8_t buf[16] = {0};
	struct ogda_devx_obj *obj = NULL;

	assert_int_equal(d->ops->obj_create(d->dev, NULL, 16, buf, 16, &obj), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->obj_create(d->dev, buf, 16, buf, 16, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->obj_modify(NULL, buf, 16, buf, 16), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->obj_query(NULL, buf, 16, buf, 16), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->obj_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->pd_alloc(d->dev, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->pd_free(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->mr_dereg(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->umem_dereg(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->uar_free(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->query_eqn(d->dev, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(d->ops->query_gid(d->dev, 1, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	d->ops->close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identity_port_gid_eqn, setup, teardown),
		cmocka_unit_test(test_open_bad_index),
		cmocka_unit_test_setup_teardown(test_general_cmd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uar_info, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mr_and_dmabuf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dmabuf_fd_negative, setup, teardown),
		cmocka_unit_test_setup_teardown(test_objects, setup, teardown),
		cmocka_unit_test_setup_teardown(test_objects_outlive_the_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_null_arguments, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
