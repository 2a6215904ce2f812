/* SPDX-License-Identifier: BSD-3-Clause */
#include "fabric_nic_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devx/sw.h"
#include "opengda_mlx5.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_qp.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_exec_resp_int.h"
#include "swnic/swnic_fabric.h"

#define FNX_LOG_CQ 4u
#define FNX_LOG_SQ 4u
#define FNX_CQ_OFF 0u
#define FNX_WQ_OFF 4096u
#define FNX_CQ_DBR_OFF 8192u
#define FNX_QP_DBR_OFF 8256u

static void modify_qp(struct fnx *x, struct prm_modify_qp_params *m)
{
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];

	m->qpn = x->qpn;
	assert_int_equal(prm_modify_qp_in_build(m, in, sizeof(in)), DOCA_SUCCESS);
	memset(out, 0, sizeof(out));
	assert_int_equal(x->dev->ops->obj_modify(x->qp, in, sizeof(in), out, sizeof(out)), DOCA_SUCCESS);
}

static void create_cq(struct fnx *x)
{
	uint8_t in[PRM_CREATE_CQ_IN_SIZE], out[PRM_CQ_SMALL_CMD_SIZE];
	struct prm_create_cq_params p;

	memset(&p, 0, sizeof(p));
	p.cqc.dbr_umem_valid = 1;
	p.cqc.cqe_sz = PRM_CQE_SIZE_64;
	p.cqc.oi = 1;
	p.cqc.dbr_umem_id = x->umem_id;
	p.cqc.log_cq_size = FNX_LOG_CQ;
	p.cqc.uar_page = x->uar_info.page_id;
	p.cqc.c_eqn = SWNIC_EQN;
	p.cqc.dbr_addr = FNX_CQ_DBR_OFF;
	p.cq_umem_offset = FNX_CQ_OFF;
	p.cq_umem_id = x->umem_id;
	p.cq_umem_valid = 1;
	assert_int_equal(opengda_mlx5_cq_init(x->arena + FNX_CQ_OFF, FNX_LOG_CQ), 0);
	assert_int_equal(prm_create_cq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	memset(out, 0, sizeof(out));
	assert_int_equal(x->dev->ops->obj_create(x->dev, in, sizeof(in), out, sizeof(out), &x->cq), DOCA_SUCCESS);
	assert_int_equal(prm_create_cq_out_parse(out, sizeof(out), &x->cqn), DOCA_SUCCESS);
}

static void create_qp(struct fnx *x)
{
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];
	struct prm_create_qp_params p;
	struct prm_modify_qp_params m;

	memset(&p, 0, sizeof(p));
	p.qpc.st = PRM_QP_ST_RC;
	p.qpc.pm_state = PRM_QP_PM_MIGRATED;
	p.qpc.pd = x->pdn;
	p.qpc.rq_type = PRM_QP_RQ_ZERO_LEN;
	p.qpc.log_sq_size = FNX_LOG_SQ;
	p.qpc.uar_page = x->uar_info.page_id;
	p.qpc.cqn_snd = x->cqn;
	p.qpc.cqn_rcv = x->cqn;
	p.qpc.dbr_addr = FNX_QP_DBR_OFF;
	p.qpc.dbr_umem_valid = 1;
	p.qpc.dbr_umem_id = x->umem_id;
	p.wq_umem_offset = FNX_WQ_OFF;
	p.wq_umem_id = x->umem_id;
	p.wq_umem_valid = 1;
	assert_int_equal(prm_create_qp_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	memset(out, 0, sizeof(out));
	assert_int_equal(x->dev->ops->obj_create(x->dev, in, sizeof(in), out, sizeof(out), &x->qp), DOCA_SUCCESS);
	assert_int_equal(prm_create_qp_out_parse(out, sizeof(out), &x->qpn), DOCA_SUCCESS);

	memset(&m, 0, sizeof(m));
	m.opcode = PRM_CMD_RST2INIT_QP;
	m.qpc.pm_state = PRM_QP_PM_MIGRATED;
	m.qpc.primary_address_path.vhca_port_num = SWNIC_PORT_NUM;
	m.qpc.rwe = m.qpc.rre = m.qpc.rae = 1;
	m.qpc.atomic_mode = PRM_QP_ATOMIC_MODE_UP_TO_8B;
	modify_qp(x, &m);

	/* Connected to itself: the tests send as this QP (its QPN and GID) from any NIC. */
	memset(&m, 0, sizeof(m));
	m.opcode = PRM_CMD_INIT2RTR_QP;
	m.qpc.mtu = PRM_QP_MTU_4096;
	m.qpc.log_msg_max = 30;
	m.qpc.remote_qpn = x->qpn;
	memcpy(m.qpc.primary_address_path.rgid_rip, x->gid, 16);
	m.qpc.primary_address_path.hop_limit = 64;
	m.qpc.primary_address_path.udp_sport = 0xc000;
	m.qpc.primary_address_path.vhca_port_num = SWNIC_PORT_NUM;
	m.qpc.min_rnr_nak = 1;
	modify_qp(x, &m);

	memset(&m, 0, sizeof(m));
	m.opcode = PRM_CMD_RTR2RTS_QP;
	m.qpc.retry_count = 1;
	m.qpc.rnr_retry = 1;
	m.qpc.primary_address_path.ack_timeout = 10;
	modify_qp(x, &m);
}

void fnx_open_sized(struct fnx *x, uint32_t index, size_t region_len)
{
	const uint32_t all = OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ |
			     OGDA_ACCESS_REMOTE_ATOMIC;
	uint32_t lkey = 0;

	memset(x, 0, sizeof(*x));
	assert_int_equal(ogda_devx_sw_open(index, &x->dev), DOCA_SUCCESS);
	assert_int_equal(x->dev->ops->query_gid(x->dev, 1, 0, x->gid), DOCA_SUCCESS);
	assert_int_equal(x->dev->ops->pd_alloc(x->dev, &x->pd, &x->pdn), DOCA_SUCCESS);
	assert_int_equal(x->dev->ops->uar_alloc(x->dev, OGDA_DEVX_UAR_NC, &x->uar, &x->uar_info), DOCA_SUCCESS);
	x->arena = aligned_alloc(4096, FNX_ARENA_SIZE);
	assert_non_null(x->arena);
	memset(x->arena, 0, FNX_ARENA_SIZE);
	assert_int_equal(x->dev->ops->umem_reg(x->dev, x->arena, FNX_ARENA_SIZE, OGDA_ACCESS_LOCAL_WRITE, -1, 0,
					       &x->umem, &x->umem_id),
			 DOCA_SUCCESS);
	create_cq(x);
	create_qp(x);
	x->region_len = region_len;
	x->region = aligned_alloc(4096, region_len);
	assert_non_null(x->region);
	memset(x->region, 0xee, region_len);
	assert_int_equal(x->dev->ops->mr_reg(x->pd, x->region, region_len, all, -1, 0, &x->mr, &lkey, &x->rkey),
			 DOCA_SUCCESS);
}

void fnx_open(struct fnx *x, uint32_t index)
{
	fnx_open_sized(x, index, FNX_REGION_SIZE);
}

void fnx_close(struct fnx *x)
{
	const struct ogda_devx_ops *ops = x->dev->ops;

	assert_int_equal(ops->mr_dereg(x->mr), DOCA_SUCCESS);
	assert_int_equal(ops->obj_destroy(x->qp), DOCA_SUCCESS);
	assert_int_equal(ops->obj_destroy(x->cq), DOCA_SUCCESS);
	assert_int_equal(ops->umem_dereg(x->umem), DOCA_SUCCESS);
	assert_int_equal(ops->uar_free(x->uar), DOCA_SUCCESS);
	assert_int_equal(ops->pd_free(x->pd), DOCA_SUCCESS);
	ops->close(x->dev);
	free(x->arena);
	x->dev = NULL;
	x->arena = NULL;
}

bool fnx_read_all(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (uint8_t *)buf + done, len - done);

		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

void fnx_target_of(const struct fnx *x, struct fnx_target *t)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->gid, x->gid, 16);
	t->qpn = x->qpn;
	t->rkey = x->rkey;
	t->base = (uint64_t)(uintptr_t)x->region;
}

struct swnic_req fnx_req_to(const struct fnx_target *t, uint8_t op, uint64_t off, uint32_t len)
{
	struct swnic_req r;

	memset(&r, 0, sizeof(r));
	r.op = op;
	r.src_qpn = t->qpn;
	memcpy(r.src_gid, t->gid, 16);
	r.psn = t->psn;
	r.dst_qpn = t->qpn;
	r.raddr = t->base + off;
	r.rkey = t->rkey;
	r.len = len;
	if (op >= SWNIC_REQ_ATOMIC_CS) {
		r.atomic_size = 8;
		r.len = 0;
	}
	return r;
}

doca_error_t fnx_deliver(struct swnic *nic, struct fnx_target *t, const struct swnic_req *req,
			 struct swnic_resp *resp, void *read_buf, uint64_t timeout_ns)
{
	doca_error_t err = swnic_fabric_deliver(nic, t->gid, req, resp, read_buf, timeout_ns);

	if (err == DOCA_SUCCESS && resp->status == SWNIC_RESP_ACK)
		t->psn += swnic_req_psn_count(PRM_QP_MTU_4096, req->op, req->len);
	return err;
}

static void child_main(int up, int ctl, size_t region_len, size_t dump_len)
{
	struct fnx_target t;
	struct fnx x;
	char byte;

	fnx_open_sized(&x, 0, region_len);
	fnx_target_of(&x, &t);
	if (write(up, &t, sizeof(t)) != (ssize_t)sizeof(t))
		_exit(3);
	while (read(ctl, &byte, 1) > 0)
		;
	/* The parent is done: stop the NIC (its threads join), then report what landed here. */
	fnx_close(&x);
	if (dump_len > 0 && write(up, x.region, dump_len) != (ssize_t)dump_len)
		_exit(4);
	free(x.region);
	_exit(0);
}

void fnx_child_start(struct fnx_child *c, size_t region_len, size_t dump_len)
{
	int up[2], down[2];

	assert_int_equal(pipe(up), 0);
	assert_int_equal(pipe(down), 0);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		close(up[0]);
		close(down[1]);
		child_main(up[1], down[0], region_len, dump_len);
	}
	close(up[1]);
	close(down[0]);
	c->up = up[0];
	c->ctl = down[1];
	assert_true(fnx_read_all(c->up, &c->t, sizeof(c->t)));
}
