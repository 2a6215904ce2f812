/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ConnectX general commands and DevX objects over the fake rdma-core: the PRM bytes reach
 * rdma-core unchanged and the out mailbox comes back as the device wrote it; failed
 * commands map their status (EREMOTEIO) or become DRIVER errors (older kernels, errno
 * failures); commands of the wrong kind or object are refused before reaching rdma-core;
 * missing entry points are NOT_SUPPORTED; destroys of objects in use are IN_USE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "devx/hw.h"
#include "hw_fixture.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"
#include "swnic/swnic_ctl.h"

static uint8_t out[PRM_QUERY_HCA_CAP_OUT_SIZE];
static uint8_t direct[PRM_QUERY_HCA_CAP_OUT_SIZE];

static const struct cmd_log_entry *last_entry(void)
{
	const struct cmd_log *log = fake_rdma_core_log();

	assert_true(log->n > 0);
	return &log->e[log->n - 1];
}

static void test_general_cmd_bytes_and_result(void **state)
{
	struct hfx *f = *state;
	struct prm_query_hca_cap_params q = {.cap_type = PRM_HCA_CAP_GENERAL, .current = 1};
	uint8_t in[PRM_QUERY_HCA_CAP_IN_SIZE];
	struct prm_hca_cap_general g;
	struct swnic *nic = NULL;

	assert_int_equal(prm_query_hca_cap_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	in[4] = 0x5a; /* reserved bits: must arrive as they are */
	memset(out, 0xee, sizeof(out));
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), out, sizeof(out)), DOCA_SUCCESS);
	assert_int_equal(last_entry()->kind, CMD_GENERAL);
	assert_int_equal(last_entry()->len, sizeof(in));
	assert_memory_equal(last_entry()->bytes, in, sizeof(in));
	/* The out mailbox is the device's, byte for byte. */
	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	assert_int_equal(swnic_cmd_exec(nic, in, sizeof(in), direct, sizeof(direct)), DOCA_SUCCESS);
	swnic_close(nic);
	assert_memory_equal(out, direct, sizeof(out));
	assert_int_equal(prm_hca_cap_general_parse(out, sizeof(out), &g), DOCA_SUCCESS);
	assert_int_equal(g.log_bf_reg_size, 9);
}

static void test_general_cmd_failures(void **state)
{
	struct hfx *f = *state;
	uint8_t in[16], o[16];
	uint8_t status = 0;
	uint32_t synd = 0;
	size_t n;

	/* Unknown opcode: the device answers BAD_OP; the kernel copies the out mailbox back. */
	memset(in, 0, sizeof(in));
	in[0] = 0x0a;
	in[1] = 0xbc;
	memset(o, 0x77, sizeof(o));
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), o, sizeof(o)), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(prm_cmd_out_status(o, sizeof(o), &status, &synd), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(status, PRM_STATUS_BAD_OP);
	assert_int_equal(synd, SWNIC_SYND_UNKNOWN_OPCODE);

	/* A kernel that does not copy it back: a driver error, the out header cleared. */
	fake_rdma_core_set_old_kernel(true);
	memset(o, 0x77, sizeof(o));
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), o, sizeof(o)), DOCA_ERROR_DRIVER);
	assert_int_equal(o[0], 0);
	assert_int_equal(o[4], 0);
	assert_int_equal(o[8], 0x77);
	fake_rdma_core_set_old_kernel(false);

	/* rdma-core fails before the device: DRIVER. */
	in[0] = 0x01;
	in[1] = 0x00;
	fake_rdma_core_fail_next(EIO);
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), out, sizeof(out)), DOCA_ERROR_DRIVER);

	/* Object commands and bad mailboxes never reach rdma-core. */
	n = fake_rdma_core_log()->n;
	in[0] = 0x04;
	in[1] = 0x00; /* CREATE_CQ */
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), o, sizeof(o)), DOCA_ERROR_NOT_SUPPORTED);
	in[0] = 0x05;
	in[1] = 0x03; /* INIT2RTR_QP */
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), o, sizeof(o)), DOCA_ERROR_NOT_SUPPORTED);
	in[0] = 0x08;
	in[1] = 0x02; /* ALLOC_UAR */
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), o, sizeof(o)), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(f->ops->general_cmd(f->dev, in, 4, o, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), o, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->general_cmd(f->dev, NULL, sizeof(in), o, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), NULL, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->general_cmd(NULL, in, sizeof(in), o, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(fake_rdma_core_log()->n, n);

	/* An rdma-core without the entry point. */
	in[0] = 0x01;
	in[1] = 0x00;
	fake_rdma_core_table()->dv.devx_general_cmd = NULL;
	assert_int_equal(f->ops->general_cmd(f->dev, in, sizeof(in), out, sizeof(out)), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(fake_rdma_core_log()->n, n);
}

static void test_objects(void **state)
{
	struct hfx *f = *state;
	struct ogda_devx_obj *cq = NULL, *qp = NULL, *cq2 = NULL;
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], o[PRM_QP_CMD_WITH_QPC_SIZE];
	struct prm_modify_qp_params mq;
	struct prm_qpc_params qpc;
	uint32_t cqn, cqn2, qpn;
	size_t n;

	hfx_resources(f);
	cqn = hfx_cq(f, &cq, 0, 0x1000);
	assert_int_equal(cqn, SWNIC_CQ_BASE);
	assert_int_equal(last_entry()->kind, CMD_CREATE);
	assert_int_equal(cmd_log_opcode(last_entry()), PRM_CMD_CREATE_CQ);
	assert_int_equal(last_entry()->len, PRM_CREATE_CQ_IN_SIZE);
	cqn2 = hfx_cq(f, &cq2, 0x4000, 0x1040);
	qpn = hfx_qp(f, &qp, cqn, 0x10000, 0x1080);
	assert_in_range(qpn, SWNIC_QPN_MIN, SWNIC_QPN_MULTICAST - 1);

	/* A transition, its bytes as given. */
	memset(&mq, 0, sizeof(mq));
	mq.opcode = PRM_CMD_RST2INIT_QP;
	mq.qpn = qpn;
	mq.qpc.primary_address_path.vhca_port_num = 1;
	mq.qpc.rwe = 1;
	memset(in, 0, sizeof(in));
	assert_int_equal(prm_modify_qp_in_build(&mq, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_modify(qp, in, sizeof(in), o, PRM_QP_CMD_SHORT_SIZE), DOCA_SUCCESS);
	assert_int_equal(last_entry()->kind, CMD_MODIFY);
	assert_memory_equal(last_entry()->bytes, in, sizeof(in));
	/* The same transition again: the device's BAD_QP_STATE. */
	assert_int_equal(f->ops->obj_modify(qp, in, sizeof(in), o, PRM_QP_CMD_SHORT_SIZE), DOCA_ERROR_BAD_STATE);
	assert_int_equal(o[0], PRM_STATUS_BAD_QP_STATE);

	assert_int_equal(prm_query_qp_in_build(0, qpn, in, PRM_QP_CMD_SHORT_SIZE), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_query(qp, in, PRM_QP_CMD_SHORT_SIZE, o, sizeof(o)), DOCA_SUCCESS);
	assert_int_equal(last_entry()->kind, CMD_QUERY);
	assert_int_equal(prm_query_qp_out_parse(o, sizeof(o), &qpc), DOCA_SUCCESS);
	assert_int_equal(qpc.state, PRM_QP_STATE_INIT);
	assert_int_equal(qpc.rwe, 1);

	/* Commands for another object or of another kind: refused here, nothing recorded. */
	n = fake_rdma_core_log()->n;
	assert_int_equal(prm_query_cq_in_build(0, cqn, in, PRM_CQ_SMALL_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_query(qp, in, PRM_CQ_SMALL_CMD_SIZE, o, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->obj_query(cq2, in, PRM_CQ_SMALL_CMD_SIZE, o, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->obj_modify(cq, in, PRM_CQ_SMALL_CMD_SIZE, o, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_in_build(0, qpn, in, PRM_QP_CMD_SHORT_SIZE), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_query(qp, in, 8, o, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->obj_query(qp, NULL, 16, o, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->obj_query(NULL, in, 16, o, sizeof(o)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(fake_rdma_core_log()->n, n);
	/* The right CQ query works. */
	assert_int_equal(prm_query_cq_in_build(0, cqn2, in, PRM_CQ_SMALL_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_query(cq2, in, PRM_CQ_SMALL_CMD_SIZE, o, PRM_QUERY_CQ_OUT_SIZE), DOCA_SUCCESS);

	/* An rdma-core without obj_query / obj_modify. */
	{
		struct ogda_rdma_core saved = *fake_rdma_core_table();

		fake_rdma_core_table()->dv.devx_obj_query = NULL;
		fake_rdma_core_table()->dv.devx_obj_modify = NULL;
		assert_int_equal(f->ops->obj_query(cq2, in, PRM_CQ_SMALL_CMD_SIZE, o, PRM_QUERY_CQ_OUT_SIZE),
				 DOCA_ERROR_NOT_SUPPORTED);
		assert_int_equal(prm_modify_qp_in_build(&mq, in, sizeof(in)), DOCA_SUCCESS);
		assert_int_equal(f->ops->obj_modify(qp, in, sizeof(in), o, PRM_QP_CMD_SHORT_SIZE),
				 DOCA_ERROR_NOT_SUPPORTED);
		*fake_rdma_core_table() = saved;
	}

	/* The CQ is used by the QP: the device refuses, the object stays valid. */
	assert_int_equal(f->ops->obj_destroy(cq), DOCA_ERROR_IN_USE);
	assert_int_equal(last_entry()->kind, CMD_DESTROY);
	assert_int_equal(last_entry()->arg0, (uint64_t)PRM_CMD_CREATE_CQ << 32 | cqn);
	fake_rdma_core_fail_next(EIO);
	assert_int_equal(f->ops->obj_destroy(qp), DOCA_ERROR_DRIVER);
	assert_int_equal(f->ops->obj_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_destroy(cq2), DOCA_SUCCESS);
}

static void test_object_create_failures(void **state)
{
	struct hfx *f = *state;
	struct ogda_rdma_core saved = *fake_rdma_core_table();
	struct ogda_devx_obj *obj = NULL, *pd = NULL;
	uint8_t in[PRM_CREATE_CQ_IN_SIZE], o[PRM_CQ_SMALL_CMD_SIZE];
	uint32_t pdn = 0;
	size_t n;

	hfx_resources(f);
	/* A CQ on an EQ the device does not have: BAD_PARAM from the device. */
	hfx_cq_in(f, in, sizeof(in), 0, 0x1000);
	assert_int_equal(prm_set(&prm_create_cq_in_layout, in, sizeof(in), "cq_context.c_eqn", 7), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), o, sizeof(o), &obj), DOCA_ERROR_INVALID_VALUE);
	assert_null(obj);
	assert_int_equal(o[0], PRM_STATUS_BAD_PARAM);
	assert_int_equal(o[4] << 24 | o[5] << 16 | o[6] << 8 | o[7], SWNIC_SYND_BAD_EQN);

	/* rdma-core fails without the device: DRIVER. */
	hfx_cq_in(f, in, sizeof(in), 0, 0x1000);
	fake_rdma_core_fail_next(ENOMEM);
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), o, sizeof(o), &obj), DOCA_ERROR_DRIVER);

	/* Opcodes that create nothing the binding can destroy; bad arguments. */
	n = fake_rdma_core_log()->n;
	in[0] = 0x02;
	in[1] = 0x00; /* CREATE_MKEY */
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), o, sizeof(o), &obj), DOCA_ERROR_NOT_SUPPORTED);
	in[0] = 0x01;
	in[1] = 0x00; /* QUERY_HCA_CAP */
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), o, sizeof(o), &obj), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), o, sizeof(o), NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->obj_create(NULL, in, sizeof(in), o, sizeof(o), &obj), DOCA_ERROR_INVALID_VALUE);
	hfx_cq_in(f, in, sizeof(in), 0, 0x1000);
	fake_rdma_core_table()->dv.devx_obj_create = NULL;
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), o, sizeof(o), &obj), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(fake_rdma_core_log()->n, n);
	*fake_rdma_core_table() = saved; /* the device keeps using the same table */

	/* A PD as a DevX object. */
	assert_int_equal(prm_alloc_pd_in_build(0, in, PRM_PD_UAR_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_create(f->dev, in, PRM_PD_UAR_CMD_SIZE, o, sizeof(o), &pd), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_pd_out_parse(o, sizeof(o), &pdn), DOCA_SUCCESS);
	assert_int_equal(pdn, f->pdn + 1);
	assert_int_equal(f->ops->obj_destroy(pd), DOCA_SUCCESS);
	assert_int_equal(fake_rdma_core_log()->e[fake_rdma_core_log()->n - 1].arg0, (uint64_t)PRM_CMD_ALLOC_PD << 32 | pdn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_general_cmd_bytes_and_result, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_general_cmd_failures, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_objects, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_object_create_failures, hfx_setup, hfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
