/* SPDX-License-Identifier: BSD-3-Clause */
#include "identity_script.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"

/* Where the queues lie in the arena (offsets in the umem). */
#define CQ_RING 0x0u
#define CQ_DBR 0x1000u
#define QP_DBR 0x1040u
#define RMP_DBR 0x1080u
#define QP_WQ 0x2000u
#define RMP_WQ 0x8000u

static const uint8_t peer_gid[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55};

struct script {
	struct ogda_devx *dev;
	const struct ogda_devx_ops *ops;
	struct cmd_log *results;
	uint8_t out[PRM_QUERY_HCA_CAP_OUT_SIZE];
};

static void result(struct script *s, doca_error_t err, uint64_t number, size_t outlen)
{
	cmd_log_add(s->results, CMD_RESULT, outlen > 0 ? s->out : NULL, outlen, (uint64_t)err, number);
}

static void query_cap(struct script *s, uint16_t cap_type)
{
	struct prm_query_hca_cap_params q = {.cap_type = cap_type, .current = 1};
	uint8_t in[PRM_QUERY_HCA_CAP_IN_SIZE];

	assert_int_equal(prm_query_hca_cap_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	memset(s->out, 0, sizeof(s->out));
	result(s, s->ops->general_cmd(s->dev, in, sizeof(in), s->out, PRM_QUERY_HCA_CAP_OUT_SIZE), 0,
	       PRM_QUERY_HCA_CAP_OUT_SIZE);
}

static doca_error_t create(struct script *s, const uint8_t *in, size_t inlen, size_t outlen,
			   struct ogda_devx_obj **obj)
{
	doca_error_t err;

	memset(s->out, 0, outlen);
	err = s->ops->obj_create(s->dev, in, inlen, s->out, outlen, obj);
	result(s, err, 0, outlen);
	return err;
}

static void transition(struct script *s, struct ogda_devx_obj *qp, uint16_t opcode, uint32_t qpn,
		       doca_error_t expect)
{
	struct prm_modify_qp_params p;
	struct prm_qpc_params *q = &p.qpc;
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE];
	const struct prm_layout *layout = prm_qp_layout_for_opcode(opcode, false);
	doca_error_t err;

	memset(&p, 0, sizeof(p));
	p.opcode = opcode;
	p.qpn = qpn;
	switch (opcode) {
	case PRM_CMD_RST2INIT_QP:
		q->pm_state = PRM_QP_PM_MIGRATED;
		q->primary_address_path.vhca_port_num = 1;
		q->atomic_mode = PRM_QP_ATOMIC_MODE_UP_TO_8B;
		q->rre = 1;
		q->rwe = 1;
		q->rae = 1;
		break;
	case PRM_CMD_INIT2INIT_QP:
		p.opt_param_mask = PRM_QP_OPTPAR_RWE;
		q->primary_address_path.vhca_port_num = 1;
		q->rwe = 1;
		break;
	case PRM_CMD_INIT2RTR_QP:
		q->mtu = PRM_QP_MTU_1024;
		q->log_msg_max = 30;
		q->remote_qpn = 0x2a5;
		memcpy(q->primary_address_path.rgid_rip, peer_gid, 16);
		q->primary_address_path.udp_sport = 0xc000;
		q->primary_address_path.hop_limit = 64;
		q->log_rra_max = 4;
		q->min_rnr_nak = 12;
		q->next_rcv_psn = 0x100;
		break;
	case PRM_CMD_RTR2RTS_QP:
		q->retry_count = 7;
		q->rnr_retry = 7;
		q->primary_address_path.ack_timeout = 14;
		q->next_send_psn = 0x200;
		q->log_sra_max = 4;
		break;
	case PRM_CMD_RTS2RTS_QP:
		p.opt_param_mask = PRM_QP_OPTPAR_RNR_TIMEOUT;
		q->min_rnr_nak = 20;
		break;
	case PRM_CMD_SQERR2RTS_QP:
		q->min_rnr_nak = 5;
		break;
	default:
		break;
	}
	memset(in, 0, sizeof(in));
	assert_int_equal(prm_modify_qp_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	memset(s->out, 0, PRM_QP_CMD_SHORT_SIZE);
	err = s->ops->obj_modify(qp, in, layout->size, s->out, PRM_QP_CMD_SHORT_SIZE);
	result(s, err, 0, PRM_QP_CMD_SHORT_SIZE);
	assert_int_equal(err, expect);
}

static void query(struct script *s, struct ogda_devx_obj *obj, const uint8_t *in, size_t inlen, size_t outlen)
{
	doca_error_t err;

	memset(s->out, 0, outlen);
	err = s->ops->obj_query(obj, in, inlen, s->out, outlen);
	result(s, err, 0, outlen);
	assert_int_equal(err, DOCA_SUCCESS);
}

static void unknown_general(struct script *s)
{
	uint8_t in[16] = {0x0a, 0xbc, 0, 0, 0, 0, 0, 0x01};

	memset(s->out, 0, 16);
	result(s, s->ops->general_cmd(s->dev, in, sizeof(in), s->out, 16), 0, 16);
}

void identity_script_run(struct ogda_devx *dev, uint8_t *arena, struct cmd_log *results)
{
	static struct script s;
	struct ogda_devx_umem *umem = NULL;
	struct ogda_devx_uar *uar = NULL;
	struct ogda_devx_pd *pd = NULL;
	struct ogda_devx_mr *mr = NULL;
	struct ogda_devx_obj *cq = NULL, *qp = NULL, *rmp = NULL, *pdobj = NULL;
	struct ogda_devx_uar_info info;
	struct prm_create_cq_params cqp;
	struct prm_create_qp_params qpp;
	struct prm_create_rmp_params rp;
	uint8_t in[PRM_RMP_CMD_SIZE];
	uint32_t pdn = 0, umem_id = 0, eqn = 0, cqn = 0, qpn = 0, rmpn = 0, pdn2 = 0, lkey = 0, rkey = 0;

	memset(&s, 0, sizeof(s));
	s.dev = dev;
	s.ops = dev->ops;
	s.results = results;

	query_cap(&s, PRM_HCA_CAP_GENERAL);
	query_cap(&s, PRM_HCA_CAP_ROCE);
	query_cap(&s, PRM_HCA_CAP_GENERAL_2);
	unknown_general(&s);

	result(&s, s.ops->pd_alloc(dev, &pd, &pdn), pdn, 0);
	result(&s, s.ops->umem_reg(dev, arena, IDS_ARENA_SIZE, OGDA_ACCESS_LOCAL_WRITE, -1, 0, &umem, &umem_id),
	       umem_id, 0);
	memset(&info, 0, sizeof(info));
	result(&s, s.ops->uar_alloc(dev, OGDA_DEVX_UAR_BF, &uar, &info), info.page_id, 0);
	result(&s, DOCA_SUCCESS, (uint64_t)((uint8_t *)info.reg_addr - (uint8_t *)info.base_addr) << 32 | info.bf_reg_size,
	       0);
	result(&s, s.ops->query_eqn(dev, 0, &eqn), eqn, 0);

	memset(&cqp, 0, sizeof(cqp));
	cqp.cqc.log_cq_size = 4;
	cqp.cqc.uar_page = info.page_id;
	cqp.cqc.c_eqn = eqn;
	cqp.cqc.dbr_umem_valid = 1;
	cqp.cqc.dbr_umem_id = umem_id;
	cqp.cqc.dbr_addr = CQ_DBR;
	cqp.cq_umem_valid = 1;
	cqp.cq_umem_id = umem_id;
	cqp.cq_umem_offset = CQ_RING;
	assert_int_equal(prm_create_cq_in_build(&cqp, in, PRM_CREATE_CQ_IN_SIZE), DOCA_SUCCESS);
	assert_int_equal(create(&s, in, PRM_CREATE_CQ_IN_SIZE, PRM_CQ_SMALL_CMD_SIZE, &cq), DOCA_SUCCESS);
	assert_int_equal(prm_create_cq_out_parse(s.out, PRM_CQ_SMALL_CMD_SIZE, &cqn), DOCA_SUCCESS);

	memset(&qpp, 0, sizeof(qpp));
	qpp.qpc.st = PRM_QP_ST_RC;
	qpp.qpc.pm_state = PRM_QP_PM_MIGRATED;
	qpp.qpc.pd = pdn;
	qpp.qpc.log_rq_size = 4;
	qpp.qpc.log_sq_size = 6;
	qpp.qpc.rq_type = PRM_QP_RQ_REGULAR;
	qpp.qpc.uar_page = info.page_id;
	qpp.qpc.user_index = 0xabcde;
	qpp.qpc.cqn_snd = cqn;
	qpp.qpc.cqn_rcv = cqn;
	qpp.qpc.dbr_umem_valid = 1;
	qpp.qpc.dbr_umem_id = umem_id;
	qpp.qpc.dbr_addr = QP_DBR;
	qpp.wq_umem_valid = 1;
	qpp.wq_umem_id = umem_id;
	qpp.wq_umem_offset = QP_WQ;
	assert_int_equal(prm_create_qp_in_build(&qpp, in, PRM_QP_CMD_WITH_QPC_SIZE), DOCA_SUCCESS);
	assert_int_equal(create(&s, in, PRM_QP_CMD_WITH_QPC_SIZE, PRM_QP_CMD_SHORT_SIZE, &qp), DOCA_SUCCESS);
	assert_int_equal(prm_create_qp_out_parse(s.out, PRM_QP_CMD_SHORT_SIZE, &qpn), DOCA_SUCCESS);

	/* The CQ serves the QP: the device refuses to destroy it. */
	result(&s, s.ops->obj_destroy(cq), 0, 0);

	transition(&s, qp, PRM_CMD_RST2INIT_QP, qpn, DOCA_SUCCESS);
	transition(&s, qp, PRM_CMD_INIT2INIT_QP, qpn, DOCA_SUCCESS);
	assert_int_equal(prm_query_qp_in_build(0, qpn, in, PRM_QP_CMD_SHORT_SIZE), DOCA_SUCCESS);
	query(&s, qp, in, PRM_QP_CMD_SHORT_SIZE, PRM_QP_CMD_WITH_QPC_SIZE);
	transition(&s, qp, PRM_CMD_INIT2RTR_QP, qpn, DOCA_SUCCESS);
	transition(&s, qp, PRM_CMD_RTR2RTS_QP, qpn, DOCA_SUCCESS);
	transition(&s, qp, PRM_CMD_RTS2RTS_QP, qpn, DOCA_SUCCESS);
	query(&s, qp, in, PRM_QP_CMD_SHORT_SIZE, PRM_QP_CMD_WITH_QPC_SIZE);
	/* SQER cannot be forced from here: SQERR2RTS from RTS and from ERR is the device's BAD_QP_STATE. */
	transition(&s, qp, PRM_CMD_SQERR2RTS_QP, qpn, DOCA_ERROR_BAD_STATE);
	transition(&s, qp, PRM_CMD_2ERR_QP, qpn, DOCA_SUCCESS);
	transition(&s, qp, PRM_CMD_SQERR2RTS_QP, qpn, DOCA_ERROR_BAD_STATE);
	query(&s, qp, in, PRM_QP_CMD_SHORT_SIZE, PRM_QP_CMD_WITH_QPC_SIZE);
	transition(&s, qp, PRM_CMD_2RST_QP, qpn, DOCA_SUCCESS);
	query(&s, qp, in, PRM_QP_CMD_SHORT_SIZE, PRM_QP_CMD_WITH_QPC_SIZE);
	assert_int_equal(prm_query_cq_in_build(0, cqn, in, PRM_CQ_SMALL_CMD_SIZE), DOCA_SUCCESS);
	query(&s, cq, in, PRM_CQ_SMALL_CMD_SIZE, PRM_QUERY_CQ_OUT_SIZE);

	memset(&rp, 0, sizeof(rp));
	rp.rmpc.state = PRM_RMP_STATE_RDY;
	rp.rmpc.wq.wq_type = PRM_WQ_TYPE_CYCLIC;
	rp.rmpc.wq.pd = pdn;
	rp.rmpc.wq.log_wq_stride = 6;
	rp.rmpc.wq.log_wq_sz = 4;
	rp.rmpc.wq.dbr_umem_valid = 1;
	rp.rmpc.wq.dbr_umem_id = umem_id;
	rp.rmpc.wq.dbr_addr = RMP_DBR;
	rp.rmpc.wq.wq_umem_valid = 1;
	rp.rmpc.wq.wq_umem_id = umem_id;
	rp.rmpc.wq.wq_umem_offset = RMP_WQ;
	assert_int_equal(prm_create_rmp_in_build(&rp, in, PRM_RMP_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(create(&s, in, PRM_RMP_CMD_SIZE, PRM_RMP_SMALL_CMD_SIZE, &rmp), DOCA_SUCCESS);
	assert_int_equal(prm_create_rmp_out_parse(s.out, PRM_RMP_SMALL_CMD_SIZE, &rmpn), DOCA_SUCCESS);
	assert_int_equal(prm_query_rmp_in_build(0, rmpn, in, PRM_RMP_SMALL_CMD_SIZE), DOCA_SUCCESS);
	query(&s, rmp, in, PRM_RMP_SMALL_CMD_SIZE, PRM_RMP_CMD_SIZE);
	result(&s, s.ops->obj_destroy(rmp), 0, 0);

	assert_int_equal(prm_alloc_pd_in_build(0, in, PRM_PD_UAR_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(create(&s, in, PRM_PD_UAR_CMD_SIZE, PRM_PD_UAR_CMD_SIZE, &pdobj), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_pd_out_parse(s.out, PRM_PD_UAR_CMD_SIZE, &pdn2), DOCA_SUCCESS);
	result(&s, s.ops->obj_destroy(pdobj), pdn2, 0);

	result(&s, s.ops->mr_reg(pd, arena + 0x40000, 0x10000, OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE, -1, 0,
				 &mr, &lkey, &rkey),
	       (uint64_t)lkey << 32 | rkey, 0);
	result(&s, s.ops->mr_dereg(mr), 0, 0);

	result(&s, s.ops->obj_destroy(qp), 0, 0);
	result(&s, s.ops->obj_destroy(cq), 0, 0);
	result(&s, s.ops->uar_free(uar), 0, 0);
	result(&s, s.ops->umem_dereg(umem), 0, 0);
	result(&s, s.ops->pd_free(pd), 0, 0);
}
