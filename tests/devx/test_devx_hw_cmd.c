/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ConnectX general commands and DevX objects over the fake rdma-core: the PRM bytes reach
 * rdma-core unchanged and the out mailbox comes back as the device wrote it; failed
 * commands map their status (EREMOTEIO) or become DRIVER errors (older kernels, errno
 * failures); commands of the wrong kind or object are refused before reaching rdma-core;
 * missing entry points are NOT_SUPPORTED; destroys of objects in use are IN_USE; the destroy
 * the kernel keeps for each object (here the fake, through prm_destroy_cmd_build) reaches the
 * device; the receive steering objects (RQ, RQT, TIR, flow table / group / entry, flow
 * counter) are created through obj_create only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "devx/hw.h"
#include "hw_fixture.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_flow.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"
#include "prm/prm_rq.h"
#include "prm/prm_sq.h"
#include "prm/prm_tir.h"
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

/* Objects whose destroy the kernel builds from the create (here: the fake, as the kernel does). */
static void test_destroy_kept_at_create(void **state)
{
	struct hfx *f = *state;
	struct ogda_devx_obj *td = NULL, *tis = NULL;
	struct prm_create_tis_params t;
	uint8_t in[PRM_TIS_CMD_SIZE], o[PRM_SQ_SMALL_CMD_SIZE];
	uint32_t tdn = 0, tisn = 0;

	hfx_resources(f);
	assert_int_equal(prm_alloc_td_in_build(0, in, PRM_SQ_SMALL_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_create(f->dev, in, PRM_SQ_SMALL_CMD_SIZE, o, sizeof(o), &td), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_td_out_parse(o, sizeof(o), &tdn), DOCA_SUCCESS);
	memset(&t, 0, sizeof(t));
	t.tisc.transport_domain = tdn;
	t.tisc.pd = f->pdn;
	assert_int_equal(prm_create_tis_in_build(&t, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), o, sizeof(o), &tis), DOCA_SUCCESS);
	assert_int_equal(prm_create_tis_out_parse(o, sizeof(o), &tisn), DOCA_SUCCESS);
	/* DEALLOC_TRANSPORT_DOMAIN of the right domain reaches the device, which refuses: the TIS names it. */
	assert_int_equal(f->ops->obj_destroy(td), DOCA_ERROR_IN_USE);
	assert_int_equal(last_entry()->arg0, (uint64_t)PRM_CMD_ALLOC_TRANSPORT_DOMAIN << 32 | tdn);
	assert_int_equal(f->ops->obj_destroy(tis), DOCA_SUCCESS);
	assert_int_equal(last_entry()->arg0, (uint64_t)PRM_CMD_CREATE_TIS << 32 | tisn);
	assert_int_equal(f->ops->obj_destroy(td), DOCA_SUCCESS);
}

/*
 * A steering object's create reaches rdma-core unchanged. Whether the software NIC behind the
 * fake executes it is not this test's business: an object it makes is destroyed again, by the
 * command kept at create.
 */
static void create_passes(struct hfx *f, const uint8_t *in, size_t inlen, size_t outlen, uint16_t opcode,
			  uint32_t *id)
{
	static uint8_t o[0x40];
	struct ogda_devx_obj *obj = NULL;
	size_t n = fake_rdma_core_log()->n;
	doca_error_t err;

	err = f->ops->obj_create(f->dev, in, inlen, o, outlen, &obj);
	assert_int_equal(fake_rdma_core_log()->n, n + 1);
	assert_int_equal(last_entry()->kind, CMD_CREATE);
	assert_int_equal(cmd_log_opcode(last_entry()), opcode);
	assert_int_equal(last_entry()->len, inlen);
	assert_memory_equal(last_entry()->bytes, in, inlen);
	*id = 0;
	if (err == DOCA_SUCCESS) {
		assert_int_equal(cmd_log_created_id(in, inlen, o, outlen, id), 0);
		assert_int_equal(f->ops->obj_destroy(obj), DOCA_SUCCESS);
		assert_int_equal(last_entry()->kind, CMD_DESTROY);
		assert_int_equal(last_entry()->arg0, (uint64_t)opcode << 32 | *id);
	} else {
		assert_null(obj);
	}
}

static void test_steering_objects(void **state)
{
	static const uint16_t object_cmds[] = {
		PRM_CMD_CREATE_RQ,         PRM_CMD_MODIFY_RQ,          PRM_CMD_QUERY_RQ,
		PRM_CMD_DESTROY_RQ,        PRM_CMD_CREATE_RQT,         PRM_CMD_DESTROY_RQT,
		PRM_CMD_CREATE_TIR,        PRM_CMD_DESTROY_TIR,        PRM_CMD_CREATE_FLOW_TABLE,
		PRM_CMD_DESTROY_FLOW_TABLE, PRM_CMD_CREATE_FLOW_GROUP, PRM_CMD_DESTROY_FLOW_GROUP,
		PRM_CMD_SET_FLOW_TABLE_ENTRY, PRM_CMD_QUERY_FLOW_TABLE_ENTRY, PRM_CMD_DELETE_FLOW_TABLE_ENTRY,
		PRM_CMD_ALLOC_FLOW_COUNTER, PRM_CMD_DEALLOC_FLOW_COUNTER, PRM_CMD_QUERY_FLOW_COUNTER,
	};
	struct hfx *f = *state;
	struct prm_create_rq_params *rq = calloc(1, sizeof(*rq));
	struct prm_create_rqt_params *rqt = calloc(1, sizeof(*rqt));
	struct prm_create_tir_params tir;
	struct prm_create_flow_table_params ft;
	struct prm_create_flow_group_params *fg = calloc(1, sizeof(*fg));
	struct prm_set_fte_params *fte = calloc(1, sizeof(*fte));
	uint8_t *in = calloc(1, PRM_CREATE_FLOW_GROUP_IN_SIZE);
	struct ogda_devx_obj *obj = NULL;
	uint8_t o[16];
	uint32_t id = 0;
	size_t i, n;

	assert_non_null(rq);
	assert_non_null(rqt);
	assert_non_null(fg);
	assert_non_null(fte);
	assert_non_null(in);
	hfx_resources(f);

	/* Object commands never go through general_cmd. */
	n = fake_rdma_core_log()->n;
	for (i = 0; i < sizeof(object_cmds) / sizeof(object_cmds[0]); i++) {
		memset(in, 0, 16);
		in[0] = (uint8_t)(object_cmds[i] >> 8);
		in[1] = (uint8_t)object_cmds[i];
		assert_int_equal(f->ops->general_cmd(f->dev, in, 16, o, sizeof(o)), DOCA_ERROR_NOT_SUPPORTED);
	}
	/* SET_FLOW_TABLE_ENTRY with op_mod 1 changes an entry: it creates no object. */
	fte->op_mod = PRM_SET_FTE_OP_MOD_MODIFY;
	assert_int_equal(prm_set_fte_in_build(fte, in, PRM_SET_FTE_IN_SIZE), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_create(f->dev, in, PRM_SET_FTE_IN_SIZE, o, sizeof(o), &obj),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_null(obj);
	assert_int_equal(fake_rdma_core_log()->n, n);

	/* Every create passes through obj_create as built. */
	rq->rqc.cqn = 1;
	rq->rqc.wq.wq_type = PRM_WQ_TYPE_CYCLIC;
	rq->rqc.wq.pd = f->pdn;
	rq->rqc.wq.log_wq_stride = 4;
	assert_int_equal(prm_create_rq_in_build(rq, in, PRM_RQ_CMD_SIZE), DOCA_SUCCESS);
	create_passes(f, in, PRM_RQ_CMD_SIZE, PRM_RQ_SMALL_CMD_SIZE, PRM_CMD_CREATE_RQ, &id);
	rqt->rqtc.rqt_max_size = 4;
	rqt->rqtc.rqt_actual_size = 1;
	rqt->rqtc.rq_num[0] = 1;
	assert_int_equal(prm_create_rqt_in_build(rqt, in, prm_create_rqt_in_size(1)), DOCA_SUCCESS);
	create_passes(f, in, prm_create_rqt_in_size(1), PRM_TIR_SMALL_CMD_SIZE, PRM_CMD_CREATE_RQT, &id);
	memset(&tir, 0, sizeof(tir));
	tir.tirc.inline_rqn = 1;
	assert_int_equal(prm_create_tir_in_build(&tir, in, PRM_TIR_CMD_SIZE), DOCA_SUCCESS);
	create_passes(f, in, PRM_TIR_CMD_SIZE, PRM_TIR_SMALL_CMD_SIZE, PRM_CMD_CREATE_TIR, &id);
	memset(&ft, 0, sizeof(ft));
	ft.ctx.log_size = 4;
	assert_int_equal(prm_create_flow_table_in_build(&ft, in, PRM_FLOW_CMD_SIZE), DOCA_SUCCESS);
	create_passes(f, in, PRM_FLOW_CMD_SIZE, PRM_FLOW_SMALL_CMD_SIZE, PRM_CMD_CREATE_FLOW_TABLE, &id);
	fg->table_id = 1;
	fg->end_flow_index = 15;
	fg->match_criteria_enable = PRM_MATCH_CRITERIA_OUTER;
	fg->match_criteria.ethertype = 0xffff;
	assert_int_equal(prm_create_flow_group_in_build(fg, in, PRM_CREATE_FLOW_GROUP_IN_SIZE), DOCA_SUCCESS);
	create_passes(f, in, PRM_CREATE_FLOW_GROUP_IN_SIZE, PRM_FLOW_SMALL_CMD_SIZE, PRM_CMD_CREATE_FLOW_GROUP, &id);
	memset(fte, 0, sizeof(*fte));
	fte->table_id = 1;
	fte->flow_index = 3;
	fte->ctx.action = PRM_FLOW_ACTION_FWD_DEST;
	fte->ctx.destination_list_size = 1;
	fte->ctx.dest[0].type = PRM_FLOW_DEST_TIR;
	fte->ctx.dest[0].id = 1;
	assert_int_equal(prm_set_fte_in_build(fte, in, prm_set_fte_in_size(1, 0)), DOCA_SUCCESS);
	create_passes(f, in, prm_set_fte_in_size(1, 0), PRM_FLOW_SMALL_CMD_SIZE, PRM_CMD_SET_FLOW_TABLE_ENTRY, &id);
	assert_int_equal(prm_alloc_flow_counter_in_build(0, 0, in, PRM_FLOW_SMALL_CMD_SIZE), DOCA_SUCCESS);
	create_passes(f, in, PRM_FLOW_SMALL_CMD_SIZE, PRM_FLOW_SMALL_CMD_SIZE, PRM_CMD_ALLOC_FLOW_COUNTER, &id);
	free(rq);
	free(rqt);
	free(fg);
	free(fte);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_general_cmd_bytes_and_result, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_general_cmd_failures, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_objects, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_object_create_failures, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_destroy_kept_at_create, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_steering_objects, hfx_setup, hfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
