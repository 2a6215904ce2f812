/* SPDX-License-Identifier: BSD-3-Clause */
#include "cmd_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "prm/prm_cmd.h"
#include "prm/prm_pd_uar.h"
#include "swnic/swnic_ctl.h"
#include "umem_arena.h"

const uint8_t cfx_peer_gid[16] = {0xfd, 0x4f, 0x47, 0x44, 0x41, 0x01, 0x00, 0x00,
				  0x00, 0x01, 0x12, 0x34, 127, 0, 0, 1};

void cfx_open(struct cfx *f)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(swnic_open(0, &f->nic), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_alloc(f->nic, &f->pdn), DOCA_SUCCESS);
	assert_int_equal(swnic_uar_alloc(f->nic, OGDA_DEVX_UAR_BF, &f->uar, &f->uar_page), DOCA_SUCCESS);
	f->arena = umem_arena_register(f->nic, CFX_ARENA_SIZE, &f->umem);
}

void cfx_close(struct cfx *f)
{
	swnic_close(f->nic);
	free(f->arena);
	memset(f, 0, sizeof(*f));
}

int cfx_setup(void **state)
{
	static struct cfx f;

	cfx_open(&f);
	*state = &f;
	return 0;
}

int cfx_teardown(void **state)
{
	swnic_mem_set_kind_probe(NULL);
	cfx_close(*state);
	return 0;
}

/* What cfx_fake_gpu_range reports as GPU memory: [gpu_lo, gpu_hi). */
static const uint8_t *gpu_lo, *gpu_hi;

static enum ogda_mem_kind fake_gpu_probe(const void *addr, size_t len)
{
	const uint8_t *p = addr;

	(void)len;
	return (p >= gpu_lo && p < gpu_hi) ? OGDA_MEM_GPU : OGDA_MEM_HOST;
}

void cfx_fake_gpu_range(const uint8_t *mem, size_t len)
{
	gpu_lo = mem;
	gpu_hi = mem + len;
	swnic_mem_set_kind_probe(fake_gpu_probe);
}

uint64_t cfx_alloc(struct cfx *f, size_t size, size_t align)
{
	return umem_arena_alloc(f->arena, CFX_ARENA_SIZE, &f->used, size, align);
}

uint8_t cfx_exec(struct cfx *f, const void *in, size_t inlen, void *out, size_t outlen, uint32_t *syndrome)
{
	uint32_t synd = 0xdeadbeef;
	uint8_t status = 0xee;
	doca_error_t err;

	err = swnic_cmd_exec(f->nic, in, inlen, out, outlen);
	prm_cmd_out_status(out, outlen, &status, &synd);
	assert_int_equal(err, prm_cmd_status_to_doca(status));
	if (status == PRM_STATUS_OK)
		assert_int_equal(synd, 0);
	if (syndrome != NULL)
		*syndrome = synd;
	return status;
}

void cfx_cq_params(struct cfx *f, struct prm_create_cq_params *p, uint8_t log_size)
{
	memset(p, 0, sizeof(*p));
	p->cqc.log_cq_size = log_size;
	p->cqc.uar_page = f->uar;
	p->cqc.c_eqn = SWNIC_EQN;
	p->cqc.dbr_umem_valid = 1;
	p->cqc.dbr_umem_id = f->umem;
	p->cqc.dbr_addr = cfx_alloc(f, 8, 64);
	p->cq_umem_valid = 1;
	p->cq_umem_id = f->umem;
	p->cq_umem_offset = cfx_alloc(f, (size_t)64 << log_size, 4096);
}

uint8_t cfx_create_cq(struct cfx *f, const struct prm_create_cq_params *p, uint32_t *cqn, uint32_t *syndrome)
{
	uint8_t in[PRM_CREATE_CQ_IN_SIZE], out[PRM_CQ_SMALL_CMD_SIZE];
	uint8_t st;

	assert_int_equal(prm_create_cq_in_build(p, in, sizeof(in)), DOCA_SUCCESS);
	st = cfx_exec(f, in, sizeof(in), out, sizeof(out), syndrome);
	if (st == PRM_STATUS_OK && cqn != NULL)
		assert_int_equal(prm_create_cq_out_parse(out, sizeof(out), cqn), DOCA_SUCCESS);
	return st;
}

uint32_t cfx_cq(struct cfx *f, uint8_t log_size)
{
	struct prm_create_cq_params p;
	uint32_t cqn = 0;

	cfx_cq_params(f, &p, log_size);
	assert_int_equal(cfx_create_cq(f, &p, &cqn, NULL), PRM_STATUS_OK);
	return cqn;
}

void cfx_qp_params(struct cfx *f, struct prm_create_qp_params *p, uint32_t scqn, uint32_t rcqn)
{
	struct prm_qpc_params *q = &p->qpc;

	memset(p, 0, sizeof(*p));
	q->st = PRM_QP_ST_RC;
	q->pm_state = PRM_QP_PM_MIGRATED;
	q->pd = f->pdn;
	q->log_rq_size = 4;
	q->log_rq_stride = 0;
	q->log_sq_size = 6;
	q->ts_format = PRM_QP_TS_DEFAULT;
	q->uar_page = f->uar;
	q->user_index = 0x123456;
	q->cqn_snd = scqn;
	q->cqn_rcv = rcqn;
	q->rq_type = PRM_QP_RQ_REGULAR;
	q->dbr_umem_valid = 1;
	q->dbr_umem_id = f->umem;
	q->dbr_addr = cfx_alloc(f, 8, 64);
	p->wq_umem_valid = 1;
	p->wq_umem_id = f->umem;
	p->wq_umem_offset = cfx_alloc(f, (16u << 4) + (64u << 6), 4096);
}

uint8_t cfx_create_qp(struct cfx *f, const struct prm_create_qp_params *p, uint32_t *qpn, uint32_t *syndrome)
{
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];
	uint8_t st;

	assert_int_equal(prm_create_qp_in_build(p, in, sizeof(in)), DOCA_SUCCESS);
	st = cfx_exec(f, in, sizeof(in), out, sizeof(out), syndrome);
	if (st == PRM_STATUS_OK && qpn != NULL)
		assert_int_equal(prm_create_qp_out_parse(out, sizeof(out), qpn), DOCA_SUCCESS);
	return st;
}

uint32_t cfx_qp(struct cfx *f)
{
	struct prm_create_qp_params p;
	uint32_t scqn = cfx_cq(f, 4), rcqn = cfx_cq(f, 4), qpn = 0;

	cfx_qp_params(f, &p, scqn, rcqn);
	assert_int_equal(cfx_create_qp(f, &p, &qpn, NULL), PRM_STATUS_OK);
	return qpn;
}

void cfx_modify_params(uint16_t opcode, uint32_t qpn, struct prm_modify_qp_params *p)
{
	struct prm_qpc_params *q = &p->qpc;

	memset(p, 0, sizeof(*p));
	p->opcode = opcode;
	p->qpn = qpn;
	switch (opcode) {
	case PRM_CMD_RST2INIT_QP:
		q->pm_state = PRM_QP_PM_MIGRATED;
		q->primary_address_path.vhca_port_num = SWNIC_PORT_NUM;
		q->atomic_mode = PRM_QP_ATOMIC_MODE_UP_TO_8B;
		q->rre = 1;
		q->rwe = 1;
		q->rae = 1;
		break;
	case PRM_CMD_INIT2RTR_QP:
		q->mtu = PRM_QP_MTU_4096;
		q->log_msg_max = 30;
		q->remote_qpn = 0x2a5;
		memcpy(q->primary_address_path.rgid_rip, cfx_peer_gid, 16);
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
	default:
		break;
	}
}

uint8_t cfx_modify(struct cfx *f, const struct prm_modify_qp_params *p, uint32_t *syndrome)
{
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];

	memset(in, 0, sizeof(in));
	assert_int_equal(prm_modify_qp_in_build(p, in, sizeof(in)), DOCA_SUCCESS);
	return cfx_exec(f, in, prm_qp_layout_for_opcode(p->opcode, false)->size, out, sizeof(out), syndrome);
}

uint8_t cfx_transition(struct cfx *f, uint16_t opcode, uint32_t qpn, uint32_t *syndrome)
{
	struct prm_modify_qp_params p;

	cfx_modify_params(opcode, qpn, &p);
	return cfx_modify(f, &p, syndrome);
}

void cfx_qp_to(struct cfx *f, uint32_t qpn, uint8_t state)
{
	static const uint16_t path[] = {PRM_CMD_RST2INIT_QP, PRM_CMD_INIT2RTR_QP, PRM_CMD_RTR2RTS_QP};
	static const uint8_t reached[] = {PRM_QP_STATE_INIT, PRM_QP_STATE_RTR, PRM_QP_STATE_RTS};
	size_t i;

	for (i = 0; i < 3 && cfx_qp_state(f, qpn) != state; i++) {
		assert_int_equal(cfx_transition(f, path[i], qpn, NULL), PRM_STATUS_OK);
		assert_int_equal(cfx_qp_state(f, qpn), reached[i]);
	}
	assert_int_equal(cfx_qp_state(f, qpn), state);
}

uint8_t cfx_query_qp(struct cfx *f, uint32_t qpn, struct prm_qpc_params *q, uint32_t *syndrome)
{
	uint8_t in[PRM_QP_CMD_SHORT_SIZE], out[PRM_QP_CMD_WITH_QPC_SIZE];
	uint8_t st;

	assert_int_equal(prm_query_qp_in_build(0, qpn, in, sizeof(in)), DOCA_SUCCESS);
	st = cfx_exec(f, in, sizeof(in), out, sizeof(out), syndrome);
	if (st == PRM_STATUS_OK && q != NULL)
		assert_int_equal(prm_query_qp_out_parse(out, sizeof(out), q), DOCA_SUCCESS);
	return st;
}

uint8_t cfx_qp_state(struct cfx *f, uint32_t qpn)
{
	struct prm_qpc_params q;

	assert_int_equal(cfx_query_qp(f, qpn, &q, NULL), PRM_STATUS_OK);
	return q.state;
}

void cfx_rmp_params(struct cfx *f, struct prm_create_rmp_params *p)
{
	struct prm_wq_params *wq = &p->rmpc.wq;

	memset(p, 0, sizeof(*p));
	p->rmpc.state = PRM_RMP_STATE_RDY;
	wq->wq_type = PRM_WQ_TYPE_CYCLIC;
	wq->pd = f->pdn;
	wq->log_wq_stride = 6;
	wq->log_wq_sz = 4;
	wq->dbr_umem_valid = 1;
	wq->dbr_umem_id = f->umem;
	wq->dbr_addr = cfx_alloc(f, 4, 64);
	wq->wq_umem_valid = 1;
	wq->wq_umem_id = f->umem;
	wq->wq_umem_offset = cfx_alloc(f, 64u << 4, 4096);
}

uint8_t cfx_create_rmp(struct cfx *f, const struct prm_create_rmp_params *p, uint32_t *rmpn, uint32_t *syndrome)
{
	uint8_t in[PRM_RMP_CMD_SIZE], out[PRM_RMP_SMALL_CMD_SIZE];
	uint8_t st;

	assert_int_equal(prm_create_rmp_in_build(p, in, sizeof(in)), DOCA_SUCCESS);
	st = cfx_exec(f, in, sizeof(in), out, sizeof(out), syndrome);
	if (st == PRM_STATUS_OK && rmpn != NULL)
		assert_int_equal(prm_create_rmp_out_parse(out, sizeof(out), rmpn), DOCA_SUCCESS);
	return st;
}

uint8_t cfx_destroy(struct cfx *f, uint16_t opcode, uint32_t id, uint32_t *syndrome)
{
	uint8_t in[16], out[16];

	switch (opcode) {
	case PRM_CMD_DESTROY_CQ:
		assert_int_equal(prm_destroy_cq_in_build(0, id, in, sizeof(in)), DOCA_SUCCESS);
		break;
	case PRM_CMD_DESTROY_QP:
		assert_int_equal(prm_destroy_qp_in_build(0, id, in, sizeof(in)), DOCA_SUCCESS);
		break;
	case PRM_CMD_DESTROY_RMP:
		assert_int_equal(prm_destroy_rmp_in_build(0, id, in, sizeof(in)), DOCA_SUCCESS);
		break;
	case PRM_CMD_DEALLOC_PD:
		assert_int_equal(prm_dealloc_pd_in_build(0, id, in, sizeof(in)), DOCA_SUCCESS);
		break;
	case PRM_CMD_DEALLOC_UAR:
		assert_int_equal(prm_dealloc_uar_in_build(0, id, in, sizeof(in)), DOCA_SUCCESS);
		break;
	default:
		fail_msg("opcode 0x%x is not a destroy", opcode);
	}
	return cfx_exec(f, in, sizeof(in), out, sizeof(out), syndrome);
}
