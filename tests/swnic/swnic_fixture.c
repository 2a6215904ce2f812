/* SPDX-License-Identifier: BSD-3-Clause */
#include "swnic_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_qp.h"
#include "swnic/swnic_ctl.h"
#include "umem_arena.h"

uint64_t fx_va(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

void fx_assert_all(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			fail_msg("byte %zu of %zu is 0x%02x, expected 0x%02x", i, n, p[i], v);
}

uint64_t fx_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void fx_sleep_ms(uint32_t ms)
{
	struct timespec ts = {.tv_sec = ms / 1000u, .tv_nsec = (long)(ms % 1000u) * 1000000L};

	nanosleep(&ts, NULL);
}

/* Carves size bytes (aligned) out of the umem arena, zeroed; returns the offset. */
static uint64_t fx_alloc(struct fx *f, size_t size, size_t align)
{
	return umem_arena_alloc(f->arena, FX_ARENA_SIZE, &f->used, size, align);
}

static void cmd(struct fx *f, const void *in, size_t inlen, void *out, size_t outlen)
{
	const uint8_t *b = in;
	uint32_t syndrome = 0;
	uint8_t status = 0xff;

	memset(out, 0, outlen);
	if (swnic_cmd_exec(f->nic, in, inlen, out, outlen) != DOCA_SUCCESS) {
		prm_cmd_out_status(out, outlen, &status, &syndrome);
		print_error("command 0x%x failed: status 0x%x syndrome 0x%x\n", (unsigned)((b[0] << 8) | b[1]),
			    (unsigned)status, (unsigned)syndrome);
		fail();
	}
}

void fx_open(struct fx *f)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(swnic_open(0, &f->nic), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_alloc(f->nic, &f->pdn), DOCA_SUCCESS);
	assert_int_equal(swnic_uar_alloc(f->nic, OGDA_DEVX_UAR_BF, &f->uar, &f->uar_page), DOCA_SUCCESS);
	f->arena = umem_arena_register(f->nic, FX_ARENA_SIZE, &f->umem);
}

void fx_close(struct fx *f)
{
	/* The last reference tears down every object (the engine first) before the arena goes. */
	swnic_close(f->nic);
	free(f->arena);
	memset(f, 0, sizeof(*f));
}

uint32_t fx_mr(struct fx *f, void *buf, size_t len, uint32_t access)
{
	uint32_t lkey = 0, rkey = 0;

	assert_int_equal(swnic_mr_register(f->nic, f->pdn, buf, len, access, &lkey, &rkey), DOCA_SUCCESS);
	assert_int_equal(lkey, rkey);
	return lkey;
}

void fx_cq_create(struct fx *f, const struct fx_cq_cfg *cfg, struct fx_cq *cq)
{
	uint8_t in[PRM_CREATE_CQ_IN_SIZE], out[PRM_CQ_SMALL_CMD_SIZE];
	uint32_t cqe_size = cfg->cqe128 ? 128u : 64u, i;
	uint64_t ring_off = fx_alloc(f, (size_t)cqe_size << cfg->log_size, 4096);
	uint64_t dbr_off = fx_alloc(f, 8, 64);
	struct prm_create_cq_params p;

	memset(cq, 0, sizeof(*cq));
	memset(&p, 0, sizeof(p));
	p.cqc.dbr_umem_valid = 1;
	p.cqc.cqe_sz = cfg->cqe128 ? 1 : 0;
	p.cqc.cc = cfg->collapsed ? 1 : 0;
	p.cqc.oi = cfg->oi ? 1 : 0;
	p.cqc.dbr_umem_id = f->umem;
	p.cqc.log_cq_size = (uint8_t)cfg->log_size;
	p.cqc.uar_page = f->uar;
	p.cqc.c_eqn = SWNIC_EQN;
	p.cqc.dbr_addr = dbr_off;
	p.cq_umem_offset = ring_off;
	p.cq_umem_id = f->umem;
	p.cq_umem_valid = 1;
	cq->ring = f->arena + ring_off;
	cq->log_size = cfg->log_size;
	cq->cqe_size = cqe_size;
	cq->collapsed = cfg->collapsed;
	cq->dbr = (_Atomic uint32_t *)(void *)(f->arena + dbr_off);
	for (i = 0; i < (1u << cfg->log_size); i++) /* every entry, also those a collapsed CQ never uses */
		assert_int_equal(opengda_mlx5_cq_init(cq->ring + (size_t)i * cqe_size + (cqe_size - 64u), 0), 0);
	assert_int_equal(prm_create_cq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	cmd(f, in, sizeof(in), out, sizeof(out));
	assert_int_equal(prm_create_cq_out_parse(out, sizeof(out), &cq->cqn), DOCA_SUCCESS);
}

struct opengda_mlx5_cqe64 *fx_cqe(const struct fx_cq *cq, uint32_t idx)
{
	uint32_t slot = cq->collapsed ? 0u : (idx & ((1u << cq->log_size) - 1u));

	return (struct opengda_mlx5_cqe64 *)(void *)(cq->ring + (size_t)slot * cq->cqe_size +
						      (cq->cqe_size == 128u ? 64u : 0u));
}

/*
 * spin: look again at once (benchmarks); else give the CPU up between looks (tests, small
 * machines). timeout_ms 0 with spin: one look.
 */
static bool poll_cqe(struct fx_cq *cq, uint32_t timeout_ms, struct opengda_mlx5_cqe_fields *out, bool spin)
{
	struct opengda_mlx5_cqe64 *cqe = fx_cqe(cq, cq->ci);
	uint64_t deadline = fx_ms() + timeout_ms;
	uint32_t looks = 0;

	for (;;) {
		uint8_t op_own = __atomic_load_n(&cqe->op_own, __ATOMIC_ACQUIRE);

		if (opengda_mlx5_op_own_is_sw_owned(op_own, cq->ci, cq->log_size))
			break;
		if (spin && timeout_ms == 0)
			return false;
		if (spin && (++looks & 1023u) != 0)
			continue;
		if (fx_ms() > deadline)
			return false;
		if (!spin)
			fx_sleep_ms(0);
	}
	opengda_mlx5_cqe_read(cqe, out);
	cq->ci++;
	atomic_store_explicit(&cq->dbr[OPENGDA_MLX5_CQ_SET_CI], opengda_mlx5_cq_dbr_set_ci_value(cq->ci),
			      memory_order_release);
	return true;
}

bool fx_poll(struct fx_cq *cq, uint32_t timeout_ms, struct opengda_mlx5_cqe_fields *out)
{
	return poll_cqe(cq, timeout_ms, out, false);
}

bool fx_poll_spin(struct fx_cq *cq, uint32_t timeout_ms, struct opengda_mlx5_cqe_fields *out)
{
	return poll_cqe(cq, timeout_ms, out, true);
}

void fx_poll_ok(struct fx_cq *cq, struct opengda_mlx5_cqe_fields *out)
{
	if (!fx_poll(cq, FX_POLL_TIMEOUT_MS, out)) {
		print_error("no CQE at index %u of CQ 0x%x within %u ms\n", cq->ci, cq->cqn, FX_POLL_TIMEOUT_MS);
		fail();
	}
}

bool fx_no_cqe(struct fx_cq *cq, uint32_t ms)
{
	struct opengda_mlx5_cqe_fields f;
	uint32_t ci = cq->ci;

	if (fx_poll(cq, ms, &f)) {
		cq->ci = ci;
		return false;
	}
	return true;
}

void fx_qp_cfg_default(struct fx_qp_cfg *cfg, struct fx_cq *scq, struct fx_cq *rcq)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->st = PRM_QP_ST_RC;
	cfg->log_sq = 4;
	cfg->log_rq = 4;
	cfg->log_rq_stride = 2; /* 64 B receive WQEs */
	cfg->send_dbr_mode = PRM_QP_SEND_DBR_VALID;
	cfg->user_index = 0x00abcd;
	cfg->scq = scq;
	cfg->rcq = rcq != NULL ? rcq : scq;
}

void fx_qp_create(struct fx *f, const struct fx_qp_cfg *cfg, struct fx_qp *qp)
{
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];
	uint32_t stride = 16u << cfg->log_rq_stride;
	size_t rq_bytes = cfg->no_rq ? 0 : (size_t)stride << cfg->log_rq;
	size_t sq_bytes = (size_t)64 << cfg->log_sq;
	uint64_t wq_off = fx_alloc(f, rq_bytes + sq_bytes, 4096);
	uint64_t dbr_off = fx_alloc(f, 8, 64);
	struct prm_create_qp_params p;

	memset(qp, 0, sizeof(*qp));
	qp->f = f;
	qp->uar = f->uar;
	qp->uar_page = f->uar_page;
	if (cfg->own_uar)
		assert_int_equal(swnic_uar_alloc(f->nic, OGDA_DEVX_UAR_BF, &qp->uar, &qp->uar_page), DOCA_SUCCESS);
	memset(&p, 0, sizeof(p));
	p.qpc.st = cfg->st;
	p.qpc.pm_state = PRM_QP_PM_MIGRATED;
	p.qpc.pd = f->pdn;
	if (cfg->no_rq) {
		p.qpc.rq_type = PRM_QP_RQ_ZERO_LEN;
	} else {
		p.qpc.rq_type = PRM_QP_RQ_REGULAR;
		p.qpc.log_rq_size = (uint8_t)cfg->log_rq;
		p.qpc.log_rq_stride = (uint8_t)cfg->log_rq_stride;
	}
	p.qpc.log_sq_size = (uint8_t)cfg->log_sq;
	p.qpc.ts_format = PRM_QP_TS_DEFAULT;
	p.qpc.uar_page = qp->uar;
	p.qpc.send_dbr_mode = cfg->send_dbr_mode;
	p.qpc.user_index = cfg->user_index;
	p.qpc.cd_master = cfg->cd_master ? 1 : 0;
	p.qpc.cqn_snd = cfg->scq->cqn;
	p.qpc.cqn_rcv = cfg->rcq->cqn;
	p.qpc.dbr_addr = dbr_off;
	p.qpc.dbr_umem_valid = 1;
	p.qpc.dbr_umem_id = f->umem;
	p.wq_umem_offset = wq_off;
	p.wq_umem_id = f->umem;
	p.wq_umem_valid = 1;
	assert_int_equal(prm_create_qp_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	cmd(f, in, sizeof(in), out, sizeof(out));
	assert_int_equal(prm_create_qp_out_parse(out, sizeof(out), &qp->qpn), DOCA_SUCCESS);
	qp->sqd.ring = f->arena + wq_off + rq_bytes; /* the RQ comes first in the WQ buffer */
	qp->sqd.log_wqebbs = cfg->log_sq;
	qp->sqd.qpn = qp->qpn;
	qp->rq = cfg->no_rq ? NULL : f->arena + wq_off;
	qp->log_rq = cfg->log_rq;
	qp->rq_stride = stride;
	qp->dbr = (_Atomic uint32_t *)(void *)(f->arena + dbr_off);
	qp->send_dbr_mode = cfg->send_dbr_mode;
	qp->scq = cfg->scq;
	qp->rcq = cfg->rcq;
}

void fx_qp_destroy(struct fx *f, struct fx_qp *qp)
{
	uint8_t in[PRM_QP_CMD_SHORT_SIZE], out[PRM_QP_CMD_SHORT_SIZE];

	assert_int_equal(prm_destroy_qp_in_build(0, qp->qpn, in, sizeof(in)), DOCA_SUCCESS);
	cmd(f, in, sizeof(in), out, sizeof(out));
	if (qp->uar != f->uar)
		assert_int_equal(swnic_uar_free(f->nic, qp->uar), DOCA_SUCCESS);
}

void fx_conn_default(struct fx *f, struct fx_conn *c, uint32_t remote_qpn)
{
	memset(c, 0, sizeof(*c));
	c->mtu = PRM_QP_MTU_1024;
	c->log_msg_max = 20;
	c->retry_count = 3;
	c->rnr_retry = 3;
	c->min_rnr_nak = 1; /* 10 us */
	c->ack_timeout = 14;
	c->rwe = c->rre = c->rae = 1;
	c->atomic_mode = PRM_QP_ATOMIC_MODE_UP_TO_8B;
	c->remote_qpn = remote_qpn;
	memcpy(c->rgid, f->nic->gid, 16);
}

void fx_conn_remote(struct fx *f, struct fx_conn *c, uint32_t remote_qpn, const uint8_t gid[16])
{
	fx_conn_default(f, c, remote_qpn);
	memcpy(c->rgid, gid, 16);
	c->mtu = PRM_QP_MTU_4096;
	c->log_msg_max = 30;
	c->retry_count = 3;
	c->ack_timeout = 18;
	c->rnr_retry = 7;
	c->min_rnr_nak = 1;
}

void fx_xfer(int fd, void *p, size_t n, int out)
{
	uint8_t *b = p;

	while (n > 0) {
		ssize_t r = out ? write(fd, b, n) : read(fd, b, n);

		assert_true(r > 0);
		b += r;
		n -= (size_t)r;
	}
}

void fx_qp_modify(struct fx *f, struct fx_qp *qp, uint16_t opcode, const struct fx_conn *c)
{
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];
	struct prm_modify_qp_params m;
	struct prm_ads_params *ads = &m.qpc.primary_address_path;

	memset(&m, 0, sizeof(m));
	m.opcode = opcode;
	m.qpn = qp->qpn;
	if (opcode == PRM_CMD_RST2INIT_QP) {
		m.qpc.pm_state = PRM_QP_PM_MIGRATED;
		ads->vhca_port_num = SWNIC_PORT_NUM;
		m.qpc.rwe = c->rwe;
		m.qpc.rre = c->rre;
		m.qpc.rae = c->rae;
		m.qpc.atomic_mode = c->atomic_mode;
	} else if (opcode == PRM_CMD_INIT2RTR_QP) {
		m.qpc.mtu = c->mtu;
		m.qpc.log_msg_max = c->log_msg_max;
		m.qpc.remote_qpn = c->remote_qpn;
		memcpy(ads->rgid_rip, c->rgid, 16);
		ads->hop_limit = 64;
		ads->udp_sport = 0xc000;
		ads->vhca_port_num = SWNIC_PORT_NUM;
		m.qpc.min_rnr_nak = c->min_rnr_nak;
	} else if (opcode == PRM_CMD_RTR2RTS_QP) {
		m.qpc.retry_count = c->retry_count;
		m.qpc.rnr_retry = c->rnr_retry;
		ads->ack_timeout = c->ack_timeout;
	}
	if (opcode == PRM_CMD_2ERR_QP || opcode == PRM_CMD_2RST_QP) {
		uint8_t sin[PRM_QP_CMD_SHORT_SIZE];

		assert_int_equal(prm_modify_qp_in_build(&m, sin, sizeof(sin)), DOCA_SUCCESS);
		cmd(f, sin, sizeof(sin), out, sizeof(out));
		return;
	}
	assert_int_equal(prm_modify_qp_in_build(&m, in, sizeof(in)), DOCA_SUCCESS);
	cmd(f, in, sizeof(in), out, sizeof(out));
}

uint32_t fx_qp_connect_new_peer(struct fx *f, struct fx_qp *qp, struct fx_cq *cq, uint8_t stop_at)
{
	struct fx_qp_cfg qc;
	struct fx_conn cn;
	struct fx_qp r;

	fx_qp_cfg_default(&qc, cq, NULL);
	fx_qp_create(f, &qc, &r);
	fx_conn_default(f, &cn, qp->qpn);
	fx_qp_connect(f, &r, &cn, PRM_QP_STATE_RTS);
	fx_conn_default(f, &cn, r.qpn);
	fx_qp_connect(f, qp, &cn, stop_at);
	return r.qpn;
}

void fx_qp_connect(struct fx *f, struct fx_qp *qp, const struct fx_conn *c, uint8_t stop_at)
{
	fx_qp_modify(f, qp, PRM_CMD_RST2INIT_QP, c);
	if (stop_at == PRM_QP_STATE_INIT)
		return;
	fx_qp_modify(f, qp, PRM_CMD_INIT2RTR_QP, c);
	if (stop_at == PRM_QP_STATE_RTR)
		return;
	fx_qp_modify(f, qp, PRM_CMD_RTR2RTS_QP, c);
}

uint8_t fx_qp_state(struct fx *f, const struct fx_qp *qp)
{
	struct swnic_qp *q = swnic_qp_acquire(f->nic, qp->qpn);
	uint8_t st;

	assert_non_null(q);
	st = atomic_load(&q->state);
	swnic_qp_release(q);
	return st;
}

void fx_qp_counters(struct fx *f, const struct fx_qp *qp, uint64_t *wqes, uint64_t *errors, uint64_t *rnr,
		    uint64_t *transport)
{
	struct swnic_qp *q = swnic_qp_acquire(f->nic, qp->qpn);

	assert_non_null(q);
	if (wqes != NULL)
		*wqes = atomic_load(&q->counters.wqes);
	if (errors != NULL)
		*errors = atomic_load(&q->counters.errors);
	if (rnr != NULL)
		*rnr = atomic_load(&q->counters.rnr_retries);
	if (transport != NULL)
		*transport = atomic_load(&q->counters.transport_retries);
	swnic_qp_release(q);
}

uint16_t fx_take(struct fx_qp *qp, uint32_t ds)
{
	uint16_t idx = qp->pi;

	qp->last = idx;
	qp->pi = opengda_mlx5_sq_pi_advance(qp->pi, ds);
	return idx;
}

static void store_db(struct fx_qp *qp, uint32_t offset, uint64_t value)
{
	__atomic_store_n((uint64_t *)(void *)(qp->uar_page + offset), value, __ATOMIC_RELEASE);
}

void fx_ring(struct fx_qp *qp, enum fx_ring how)
{
	const struct opengda_mlx5_wqe_ctrl_seg *ctrl = opengda_mlx5_sq_seg(&qp->sqd, qp->last, 0);
	uint32_t half = OPENGDA_MLX5_UAR_BF_OFFSET + qp->bf_half * (SWNIC_UAR_BF_REG_SIZE / 2u);
	uint32_t i;

	if (how != FX_RING_DBR_LESS)
		atomic_store_explicit(&qp->dbr[OPENGDA_MLX5_SND_DBR], opengda_mlx5_qp_dbr_value(qp->pi),
				      memory_order_release);
	switch (how) {
	case FX_RING_CTRL:
		store_db(qp, half, opengda_mlx5_qp_uar_db_from_ctrl(ctrl));
		break;
	case FX_RING_PI:
		store_db(qp, half, opengda_mlx5_qp_uar_db_value(qp->pi, qp->qpn));
		break;
	case FX_RING_BF: {
		uint32_t bytes = opengda_mlx5_ctrl_ds(ctrl) * 16u;

		/* Everything after the first 8 bytes first, then the ctrl words (what the NIC keys on). */
		for (i = 8; i < bytes; i += 8) {
			uint64_t v;
			uint32_t seg = i / 16u;

			memcpy(&v, (const uint8_t *)opengda_mlx5_sq_seg(&qp->sqd, qp->last, seg) + (i % 16u), 8);
			store_db(qp, half + i, v);
		}
		store_db(qp, half, opengda_mlx5_qp_uar_db_from_ctrl(ctrl));
		break;
	}
	case FX_RING_DBR_LESS:
		store_db(qp, OPENGDA_MLX5_UAR_DBR_LESS_OFFSET, opengda_mlx5_qp_uar_db_value(qp->pi, qp->qpn));
		break;
	case FX_RING_DBR_ONLY:
		return;
	}
	qp->bf_half ^= 1u;
}

void fx_rq_post(struct fx_qp *qp, void *addr, uint32_t len, uint32_t lkey)
{
	uint32_t idx = qp->rq_pi & ((1u << qp->log_rq) - 1u);
	uint8_t *e;

	assert_non_null(qp->rq);
	e = qp->rq + (size_t)idx * qp->rq_stride;
	memset(e, 0, qp->rq_stride);
	assert_int_equal(opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)(void *)e, len, lkey,
						     (uint64_t)(uintptr_t)addr),
			 0);
	if (qp->rq_stride > 16u)
		((struct opengda_mlx5_wqe_data_seg *)(void *)(e + 16))->lkey =
			opengda_mlx5_htobe32(OPENGDA_MLX5_INVALID_LKEY);
	qp->rq_pi++;
	atomic_store_explicit(&qp->dbr[OPENGDA_MLX5_RCV_DBR], opengda_mlx5_qp_dbr_value(qp->rq_pi),
			      memory_order_release);
}

void fx_pair_open(struct fx_pair *p, uint32_t log_sq, const struct fx_cq_cfg *acq_cfg, fx_conn_hook conn_a,
		  fx_conn_hook conn_b)
{
	struct fx_cq_cfg cc = {.log_size = 6};
	struct fx_qp_cfg qc;

	memset(p, 0, sizeof(*p));
	fx_open(&p->f);
	fx_cq_create(&p->f, acq_cfg != NULL ? acq_cfg : &cc, &p->acq);
	fx_cq_create(&p->f, &cc, &p->bcq);
	fx_qp_cfg_default(&qc, &p->acq, NULL);
	qc.log_sq = log_sq;
	qc.user_index = 0x0a0a0a;
	fx_qp_create(&p->f, &qc, &p->a);
	fx_qp_cfg_default(&qc, &p->bcq, NULL);
	qc.user_index = 0x0b0b0b;
	fx_qp_create(&p->f, &qc, &p->b);
	fx_conn_default(&p->f, &p->ca, p->b.qpn);
	fx_conn_default(&p->f, &p->cb, p->a.qpn);
	if (conn_a != NULL)
		conn_a(p, &p->ca);
	if (conn_b != NULL)
		conn_b(p, &p->cb);
	fx_qp_connect(&p->f, &p->b, &p->cb, PRM_QP_STATE_RTS);
	fx_qp_connect(&p->f, &p->a, &p->ca, PRM_QP_STATE_RTS);
}

void fx_pair_close(struct fx_pair *p)
{
	fx_close(&p->f);
}

uint16_t fx_post_sges(struct fx_qp *qp, uint8_t opcode, uint8_t fm_ce_se, uint32_t imm, bool with_raddr,
		      uint64_t raddr, uint32_t rkey, const struct fx_sge *sge, uint32_t n)
{
	uint32_t ds = 1u + (with_raddr ? 1u : 0u) + n, seg = 1, i;
	uint16_t idx;

	assert_true(ds <= OPENGDA_MLX5_WQE_MAX_DS);
	assert_int_equal(opengda_mlx5_sq_check(&qp->sqd, ds, fm_ce_se), 0);
	idx = fx_take(qp, ds);
	assert_int_equal(opengda_mlx5_ctrl_seg_write(opengda_mlx5_sq_seg(&qp->sqd, idx, 0), 0, idx, opcode, qp->qpn,
						     (uint8_t)ds, fm_ce_se, imm),
			 0);
	if (with_raddr)
		opengda_mlx5_raddr_seg_write(opengda_mlx5_sq_seg(&qp->sqd, idx, seg++), raddr, rkey);
	for (i = 0; i < n; i++, seg++)
		assert_int_equal(opengda_mlx5_data_seg_write(opengda_mlx5_sq_seg(&qp->sqd, idx, seg), sge[i].len,
							     sge[i].lkey, (uint64_t)(uintptr_t)sge[i].addr),
				 0);
	return idx;
}
