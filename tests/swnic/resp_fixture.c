/* SPDX-License-Identifier: BSD-3-Clause */
#include "resp_fixture.h"
#include "req_sequence.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "opengda_mlx5.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"
#include "swnic/swnic_ctl.h"
#include "umem_arena.h"

#define FIX_SQ_LOG_WQEBBS 2u

uint32_t fix_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

uint16_t fix_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

/* Carves size bytes (aligned) out of the umem arena; returns the offset. */
static uint64_t fix_alloc(struct fix *f, size_t size, size_t align)
{
	return umem_arena_alloc(f->arena, FIX_ARENA_SIZE, &f->used, size, align);
}

static void cmd(struct fix *f, const void *in, size_t inlen, void *out, size_t outlen)
{
	uint32_t syndrome = 0;
	uint8_t status = 0xff;

	memset(out, 0, outlen);
	if (swnic_cmd_exec(f->nic, in, inlen, out, outlen) != DOCA_SUCCESS) {
		prm_cmd_out_status(out, outlen, &status, &syndrome);
		print_error("command 0x%x failed: status 0x%x syndrome 0x%x\n", fix_be32(in) >> 16, status, syndrome);
		fail();
	}
}

/* The open fixture's NIC, for fix_req (the tests keep one fixture open at a time). */
static struct swnic *fix_current_nic;

void fix_open(struct fix *f)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(swnic_open(0, &f->nic), DOCA_SUCCESS);
	fix_current_nic = f->nic;
	assert_int_equal(swnic_pd_alloc(f->nic, &f->pdn[0]), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_alloc(f->nic, &f->pdn[1]), DOCA_SUCCESS);
	assert_int_equal(swnic_uar_alloc(f->nic, OGDA_DEVX_UAR_BF, &f->uar, &f->uar_page), DOCA_SUCCESS);
	f->arena = umem_arena_register(f->nic, FIX_ARENA_SIZE, &f->umem);
}

void fix_close(struct fix *f)
{
	/* Closing the last reference tears down every object before the arena goes. */
	fix_current_nic = NULL;
	swnic_close(f->nic);
	free(f->arena);
	memset(f, 0, sizeof(*f));
}

void fix_open_with_cq(struct fix *f, uint32_t log_cq_size, struct fix_cq *cq)
{
	fix_open(f);
	fix_cq_create(f, log_cq_size, cq);
}

int fix_teardown(void **state)
{
	fix_close(*state);
	return 0;
}

uint32_t fix_mr(struct fix *f, int pdn_idx, void *buf, size_t len, uint32_t access)
{
	uint32_t lkey = 0, rkey = 0;

	assert_int_equal(swnic_mr_register(f->nic, f->pdn[pdn_idx], buf, len, access, &lkey, &rkey), DOCA_SUCCESS);
	assert_int_equal(lkey, rkey);
	return lkey;
}

static void cq_create(struct fix *f, uint32_t log_size, uint8_t oi, struct fix_cq *cq)
{
	uint8_t in[PRM_CREATE_CQ_IN_SIZE], out[PRM_CQ_SMALL_CMD_SIZE];
	struct prm_create_cq_params p;
	uint64_t ring_off = fix_alloc(f, (size_t)64 << log_size, 4096);
	uint64_t dbr_off = fix_alloc(f, 8, 64);

	memset(&p, 0, sizeof(p));
	p.cqc.dbr_umem_valid = 1;
	p.cqc.cqe_sz = PRM_CQE_SIZE_64;
	p.cqc.oi = oi;
	p.cqc.dbr_umem_id = f->umem;
	p.cqc.log_cq_size = (uint8_t)log_size;
	p.cqc.uar_page = f->uar;
	p.cqc.c_eqn = SWNIC_EQN;
	p.cqc.dbr_addr = dbr_off;
	p.cq_umem_offset = ring_off;
	p.cq_umem_id = f->umem;
	p.cq_umem_valid = 1;
	cq->ring = f->arena + ring_off;
	cq->log_size = log_size;
	cq->dbr = (_Atomic uint32_t *)(void *)(f->arena + dbr_off);
	assert_int_equal(opengda_mlx5_cq_init(cq->ring, log_size), 0);
	assert_int_equal(prm_create_cq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	cmd(f, in, sizeof(in), out, sizeof(out));
	assert_int_equal(prm_create_cq_out_parse(out, sizeof(out), &cq->cqn), DOCA_SUCCESS);
}

void fix_cq_create(struct fix *f, uint32_t log_size, struct fix_cq *cq)
{
	cq_create(f, log_size, 1, cq);
}

void fix_cq_create_checked(struct fix *f, uint32_t log_size, struct fix_cq *cq)
{
	cq_create(f, log_size, 0, cq);
}

uint8_t *fix_cqe(const struct fix_cq *cq, uint32_t idx)
{
	return cq->ring + (size_t)64 * (idx & ((1u << cq->log_size) - 1u));
}

void fix_qp_cfg_default(struct fix *f, struct fix_cq *cq, struct fix_qp_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->st = PRM_QP_ST_RC;
	cfg->pdn = f->pdn[0];
	cfg->log_rq_size = 3;
	cfg->log_rq_stride = 2; /* 64 B: 4 data segments */
	cfg->user_index = 0x00abcd;
	cfg->rwe = cfg->rre = cfg->rae = 1;
	cfg->atomic_mode = PRM_QP_ATOMIC_MODE_UP_TO_8B;
	cfg->log_msg_max = 30;
	cfg->state = PRM_QP_STATE_RTS;
	cfg->cq = cq;
}

static void modify(struct fix *f, struct prm_modify_qp_params *m)
{
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];

	assert_int_equal(prm_modify_qp_in_build(m, in, sizeof(in)), DOCA_SUCCESS);
	cmd(f, in, sizeof(in), out, sizeof(out));
}

void fix_qp_transition(struct fix *f, const struct fix_qp *qp, uint16_t opcode)
{
	struct prm_modify_qp_params m;

	memset(&m, 0, sizeof(m));
	m.opcode = opcode;
	m.qpn = qp->qpn;
	modify(f, &m);
}

void fix_qp_create(struct fix *f, const struct fix_qp_cfg *cfg, struct fix_qp *qp)
{
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];
	bool own_rq = !cfg->zero_rq && cfg->srqn == 0;
	uint32_t stride = 16u << cfg->log_rq_stride;
	size_t rq_bytes = own_rq ? (size_t)stride << cfg->log_rq_size : 0;
	size_t wq_bytes = rq_bytes + ((size_t)64 << FIX_SQ_LOG_WQEBBS);
	uint64_t wq_off = fix_alloc(f, wq_bytes, 4096);
	uint64_t dbr_off = fix_alloc(f, 8, 64);
	struct prm_create_qp_params p;
	struct prm_modify_qp_params m;

	memset(qp, 0, sizeof(*qp));
	memset(&p, 0, sizeof(p));
	p.qpc.st = cfg->st;
	p.qpc.pm_state = PRM_QP_PM_MIGRATED;
	p.qpc.pd = cfg->pdn;
	if (own_rq) {
		p.qpc.log_rq_size = cfg->log_rq_size;
		p.qpc.log_rq_stride = cfg->log_rq_stride;
		p.qpc.rq_type = PRM_QP_RQ_REGULAR;
	} else if (cfg->srqn != 0) {
		p.qpc.rq_type = PRM_QP_RQ_SRQ;
		p.qpc.srqn_rmpn_xrqn = cfg->srqn;
	} else {
		p.qpc.rq_type = PRM_QP_RQ_ZERO_LEN;
	}
	p.qpc.log_sq_size = FIX_SQ_LOG_WQEBBS;
	p.qpc.uar_page = f->uar;
	p.qpc.user_index = cfg->user_index;
	p.qpc.cqn_snd = cfg->cq->cqn;
	p.qpc.cqn_rcv = cfg->cq->cqn;
	p.qpc.dbr_addr = dbr_off;
	p.qpc.dbr_umem_valid = 1;
	p.qpc.dbr_umem_id = f->umem;
	p.wq_umem_offset = wq_off;
	p.wq_umem_id = f->umem;
	p.wq_umem_valid = 1;
	assert_int_equal(prm_create_qp_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	cmd(f, in, sizeof(in), out, sizeof(out));
	assert_int_equal(prm_create_qp_out_parse(out, sizeof(out), &qp->qpn), DOCA_SUCCESS);
	qp->rq = own_rq ? f->arena + wq_off : NULL;
	qp->log_rq_size = cfg->log_rq_size;
	qp->rq_stride = stride;
	qp->dbr = (_Atomic uint32_t *)(void *)(f->arena + dbr_off);
	if (cfg->state == PRM_QP_STATE_RST)
		return;

	memset(&m, 0, sizeof(m));
	m.opcode = PRM_CMD_RST2INIT_QP;
	m.qpn = qp->qpn;
	m.qpc.pm_state = PRM_QP_PM_MIGRATED;
	m.qpc.primary_address_path.vhca_port_num = SWNIC_PORT_NUM;
	m.qpc.rwe = cfg->rwe;
	m.qpc.rre = cfg->rre;
	m.qpc.rae = cfg->rae;
	m.qpc.atomic_mode = cfg->atomic_mode;
	modify(f, &m);
	if (cfg->state == PRM_QP_STATE_INIT)
		return;

	memset(&m, 0, sizeof(m));
	m.opcode = PRM_CMD_INIT2RTR_QP;
	m.qpn = qp->qpn;
	m.qpc.mtu = PRM_QP_MTU_4096;
	m.qpc.log_msg_max = cfg->log_msg_max;
	m.qpc.remote_qpn = qp->qpn; /* loopback: the tests call the responder directly */
	memcpy(m.qpc.primary_address_path.rgid_rip, f->nic->gid, 16);
	m.qpc.primary_address_path.hop_limit = 64;
	m.qpc.primary_address_path.udp_sport = 0xc000;
	m.qpc.primary_address_path.vhca_port_num = SWNIC_PORT_NUM;
	m.qpc.min_rnr_nak = 1;
	modify(f, &m);
	if (cfg->state == PRM_QP_STATE_RTR)
		return;

	memset(&m, 0, sizeof(m));
	m.opcode = PRM_CMD_RTR2RTS_QP;
	m.qpn = qp->qpn;
	m.qpc.retry_count = 7;
	m.qpc.rnr_retry = 7;
	m.qpc.primary_address_path.ack_timeout = 14;
	modify(f, &m);
}

void fix_srq_create(struct fix *f, uint32_t log_size, uint32_t log_stride, bool linked, struct fix_srq *srq)
{
	uint8_t in[PRM_RMP_CMD_SIZE], out[PRM_RMP_SMALL_CMD_SIZE];
	uint32_t stride = 16u << log_stride;
	uint64_t ring_off = fix_alloc(f, (size_t)stride << log_size, 4096);
	uint64_t dbr_off = fix_alloc(f, 8, 64);
	struct prm_create_rmp_params p;

	memset(srq, 0, sizeof(*srq));
	memset(&p, 0, sizeof(p));
	p.rmpc.state = PRM_RMP_STATE_RDY;
	p.rmpc.wq.wq_type = linked ? PRM_WQ_TYPE_LINKED_LIST : PRM_WQ_TYPE_CYCLIC;
	p.rmpc.wq.pd = f->pdn[0];
	p.rmpc.wq.dbr_addr = dbr_off;
	p.rmpc.wq.log_wq_stride = (uint8_t)(log_stride + 4); /* rmpc counts the stride in bytes (log2) */
	p.rmpc.wq.log_wq_sz = (uint8_t)log_size;
	p.rmpc.wq.dbr_umem_valid = 1;
	p.rmpc.wq.wq_umem_valid = 1;
	p.rmpc.wq.dbr_umem_id = f->umem;
	p.rmpc.wq.wq_umem_id = f->umem;
	p.rmpc.wq.wq_umem_offset = ring_off;
	assert_int_equal(prm_create_rmp_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	cmd(f, in, sizeof(in), out, sizeof(out));
	assert_int_equal(prm_create_rmp_out_parse(out, sizeof(out), &srq->srqn), DOCA_SUCCESS);
	srq->ring = f->arena + ring_off;
	srq->log_size = log_size;
	srq->stride = stride;
	srq->linked = linked;
	srq->dbr = (_Atomic uint32_t *)(void *)(f->arena + dbr_off);
}

/* Data segments from byte first of entry e, terminated when they do not fill it. */
static void write_segments(uint8_t *e, uint32_t first, uint32_t stride, const struct fix_sge *sge, uint32_t n)
{
	uint32_t off = first, i;

	memset(e + first, 0, stride - first);
	for (i = 0; i < n; i++, off += 16) {
		assert_true(off + 16 <= stride);
		put_be32(e + off, sge[i].len);
		put_be32(e + off + 4, sge[i].lkey);
		put_be64(e + off + 8, (uint64_t)(uintptr_t)sge[i].addr);
	}
	if (off + 16 <= stride)
		put_be32(e + off + 4, OPENGDA_MLX5_INVALID_LKEY);
}

static void ring_rq_dbr(_Atomic uint32_t *dbr, uint16_t pi)
{
	atomic_store_explicit(&dbr[OPENGDA_MLX5_RCV_DBR], opengda_mlx5_htobe32(pi), memory_order_release);
}

void fix_rq_post(struct fix_qp *qp, const struct fix_sge *sge, uint32_t n)
{
	uint32_t idx = qp->rq_pi & ((1u << qp->log_rq_size) - 1u);

	assert_non_null(qp->rq);
	write_segments(qp->rq + (size_t)idx * qp->rq_stride, 0, qp->rq_stride, sge, n);
	qp->rq_pi++;
	ring_rq_dbr(qp->dbr, qp->rq_pi);
}

void fix_srq_post(struct fix_srq *srq, const struct fix_sge *sge, uint32_t n)
{
	uint32_t mask = (1u << srq->log_size) - 1u;
	uint32_t idx = srq->pi & mask;
	uint8_t *e = srq->ring + (size_t)idx * srq->stride;

	if (srq->linked) {
		memset(e, 0, 16);
		e[2] = (uint8_t)(((idx + 1) & mask) >> 8);
		e[3] = (uint8_t)((idx + 1) & mask);
		write_segments(e, 16, srq->stride, sge, n);
	} else {
		write_segments(e, 0, srq->stride, sge, n);
	}
	srq->pi++;
	ring_rq_dbr(srq->dbr, srq->pi);
}

void fix_req_sequence(struct swnic_req *r)
{
	swnic_test_req_sequence(fix_current_nic, r);
}

struct swnic_req fix_req(uint32_t dst_qpn, uint8_t op)
{
	struct swnic_req r;

	memset(&r, 0, sizeof(r));
	r.op = op;
	r.dst_qpn = dst_qpn;
	r.src_qpn = dst_qpn;
	fix_req_sequence(&r);
	return r;
}

doca_error_t fix_execute(struct swnic *nic, const struct swnic_req *req, struct swnic_resp *resp, void *read_buf)
{
	struct swnic_req r = *req;

	fix_req_sequence(&r);
	return swnic_responder_execute(nic, &r, resp, read_buf);
}
