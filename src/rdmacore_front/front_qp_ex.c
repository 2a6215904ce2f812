/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibv_create_qp_ex and the ibv_wr_* post API (what perftest and newer programs use by
 * default). Between ibv_wr_start and ibv_wr_complete the QP's send lock is held, as libmlx5
 * holds it; each ibv_wr_<opcode> call opens a work request that the ibv_wr_set_* calls
 * complete; inline data is copied when it is set. ibv_wr_complete posts the batch through
 * the same path as ibv_post_send (mlx5 WQEs, one doorbell) and returns the batch's first
 * error, or 0; ibv_wr_abort drops it. Opcodes the software NIC does not execute (memory
 * windows, invalidation, TSO, UD addressing, XRC, atomic write) make the batch fail with
 * EOPNOTSUPP at wr_complete; the QP refuses to be created with them in send_ops_flags.
 */
#include "rdmacore_front/front.h"

#include "core/log.h"
#include "doca_verbs_bridge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SUPPORTED_SEND_OPS                                                                                   \
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_SEND |                 \
	 IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |          \
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
#define SUPPORTED_INIT_MASK (IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS | IBV_QP_INIT_ATTR_CREATE_FLAGS)

static struct front_qp *fqp(struct ibv_qp_ex *q)
{
	return (struct front_qp *)q;
}

static void batch_fail(struct front_wr_batch *b, int e)
{
	if (b->err == 0)
		b->err = e;
}

/* Opens the next work request of the batch (NULL, with the batch failed, when it is full). */
static struct ibv_send_wr *open_wr(struct ibv_qp_ex *q, enum ibv_wr_opcode op)
{
	struct front_wr_batch *b = &fqp(q)->batch;
	struct ibv_send_wr *wr;

	if (b->n == b->cap) {
		batch_fail(b, ENOMEM);
		return NULL;
	}
	wr = &b->wrs[b->n];
	memset(wr, 0, sizeof(*wr));
	wr->wr_id = q->wr_id;
	wr->send_flags = q->wr_flags;
	wr->opcode = op;
	wr->sg_list = &b->sges[(size_t)b->n * b->max_sge];
	if (b->n > 0)
		b->wrs[b->n - 1].next = wr;
	b->n++;
	return wr;
}

/* The work request the set calls apply to (NULL, with the batch failed, before any). */
static struct ibv_send_wr *cur_wr(struct ibv_qp_ex *q)
{
	struct front_wr_batch *b = &fqp(q)->batch;

	if (b->n == 0) {
		batch_fail(b, EINVAL);
		return NULL;
	}
	return &b->wrs[b->n - 1];
}

static void wr_rdma(struct ibv_qp_ex *q, enum ibv_wr_opcode op, uint32_t rkey, uint64_t raddr, __be32 imm)
{
	struct ibv_send_wr *wr = open_wr(q, op);

	if (wr == NULL)
		return;
	wr->wr.rdma.rkey = rkey;
	wr->wr.rdma.remote_addr = raddr;
	wr->imm_data = imm;
}

static void wr_rdma_write(struct ibv_qp_ex *q, uint32_t rkey, uint64_t raddr)
{
	wr_rdma(q, IBV_WR_RDMA_WRITE, rkey, raddr, 0);
}

static void wr_rdma_write_imm(struct ibv_qp_ex *q, uint32_t rkey, uint64_t raddr, __be32 imm)
{
	wr_rdma(q, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, raddr, imm);
}

static void wr_rdma_read(struct ibv_qp_ex *q, uint32_t rkey, uint64_t raddr)
{
	wr_rdma(q, IBV_WR_RDMA_READ, rkey, raddr, 0);
}

static void wr_send(struct ibv_qp_ex *q)
{
	(void)open_wr(q, IBV_WR_SEND);
}

static void wr_send_imm(struct ibv_qp_ex *q, __be32 imm)
{
	struct ibv_send_wr *wr = open_wr(q, IBV_WR_SEND_WITH_IMM);

	if (wr != NULL)
		wr->imm_data = imm;
}

static void wr_atomic(struct ibv_qp_ex *q, enum ibv_wr_opcode op, uint32_t rkey, uint64_t raddr, uint64_t compare_add,
		      uint64_t swap)
{
	struct ibv_send_wr *wr = open_wr(q, op);

	if (wr == NULL)
		return;
	wr->wr.atomic.rkey = rkey;
	wr->wr.atomic.remote_addr = raddr;
	wr->wr.atomic.compare_add = compare_add;
	wr->wr.atomic.swap = swap;
}

static void wr_atomic_cmp_swp(struct ibv_qp_ex *q, uint32_t rkey, uint64_t raddr, uint64_t compare, uint64_t swap)
{
	wr_atomic(q, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, raddr, compare, swap);
}

static void wr_atomic_fetch_add(struct ibv_qp_ex *q, uint32_t rkey, uint64_t raddr, uint64_t add)
{
	wr_atomic(q, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, raddr, add, 0);
}

static void wr_set_sge_list(struct ibv_qp_ex *q, size_t num_sge, const struct ibv_sge *sg_list)
{
	struct front_wr_batch *b = &fqp(q)->batch;
	struct ibv_send_wr *wr = cur_wr(q);

	if (wr == NULL)
		return;
	if (num_sge > b->max_sge || (num_sge > 0 && sg_list == NULL)) {
		batch_fail(b, EINVAL);
		return;
	}
	memcpy(wr->sg_list, sg_list, num_sge * sizeof(*sg_list));
	wr->num_sge = (int)num_sge;
}

static void wr_set_sge(struct ibv_qp_ex *q, uint32_t lkey, uint64_t addr, uint32_t length)
{
	struct ibv_sge sge = {.addr = addr, .length = length, .lkey = lkey};

	wr_set_sge_list(q, 1, &sge);
}

static void wr_set_inline_data_list(struct ibv_qp_ex *q, size_t num_buf, const struct ibv_data_buf *buf_list)
{
	struct front_wr_batch *b = &fqp(q)->batch;
	struct ibv_send_wr *wr = cur_wr(q);
	uint8_t *dst;
	size_t total = 0;

	if (wr == NULL)
		return;
	dst = &b->inl[(size_t)(wr - b->wrs) * b->max_inline];
	for (size_t i = 0; i < num_buf; i++) {
		if (buf_list[i].length > b->max_inline - total) {
			batch_fail(b, EINVAL);
			return;
		}
		memcpy(dst + total, buf_list[i].addr, buf_list[i].length);
		total += buf_list[i].length;
	}
	wr->sg_list[0].addr = (uintptr_t)dst;
	wr->sg_list[0].length = (uint32_t)total;
	wr->sg_list[0].lkey = 0;
	wr->num_sge = 1;
	wr->send_flags |= IBV_SEND_INLINE;
}

static void wr_set_inline_data(struct ibv_qp_ex *q, void *addr, size_t length)
{
	struct ibv_data_buf buf = {.addr = addr, .length = length};

	wr_set_inline_data_list(q, 1, &buf);
}

static void wr_start(struct ibv_qp_ex *q)
{
	struct front_qp *qp = fqp(q);

	pthread_mutex_lock(&qp->sq_lock);
	qp->batch.n = 0;
	qp->batch.err = 0;
}

static int wr_complete(struct ibv_qp_ex *q)
{
	struct front_qp *qp = fqp(q);
	struct ibv_send_wr *bad = NULL;
	int ret = qp->batch.err;

	if (ret == 0 && qp->batch.n > 0)
		ret = doca_verbs_bridge_post_send(qp->dqp, qp->batch.wrs, &bad);
	qp->batch.n = 0;
	pthread_mutex_unlock(&qp->sq_lock);
	return ret;
}

static void wr_abort(struct ibv_qp_ex *q)
{
	struct front_qp *qp = fqp(q);

	qp->batch.n = 0;
	pthread_mutex_unlock(&qp->sq_lock);
}

/* ---- what the software NIC does not execute: the batch fails with EOPNOTSUPP ---- */

static void not_executed(struct ibv_qp_ex *q, const char *what)
{
	OGDA_LOG_ERR("%s: QP 0x%x: %s is not executed by the software NIC", q->qp_base.context->device->name,
		     q->qp_base.qp_num, what);
	batch_fail(&fqp(q)->batch, EOPNOTSUPP);
}

static void wr_bind_mw(struct ibv_qp_ex *q, struct ibv_mw *mw, uint32_t rkey, const struct ibv_mw_bind_info *info)
{
	(void)mw;
	(void)rkey;
	(void)info;
	not_executed(q, "ibv_wr_bind_mw");
}

static void wr_local_inv(struct ibv_qp_ex *q, uint32_t rkey)
{
	(void)rkey;
	not_executed(q, "ibv_wr_local_inv");
}

static void wr_send_inv(struct ibv_qp_ex *q, uint32_t rkey)
{
	(void)rkey;
	not_executed(q, "ibv_wr_send_inv");
}

static void wr_send_tso(struct ibv_qp_ex *q, void *hdr, uint16_t hdr_sz, uint16_t mss)
{
	(void)hdr;
	(void)hdr_sz;
	(void)mss;
	not_executed(q, "ibv_wr_send_tso");
}

static void wr_set_ud_addr(struct ibv_qp_ex *q, struct ibv_ah *ah, uint32_t qpn, uint32_t qkey)
{
	(void)ah;
	(void)qpn;
	(void)qkey;
	not_executed(q, "ibv_wr_set_ud_addr");
}

static void wr_set_xrc_srqn(struct ibv_qp_ex *q, uint32_t srqn)
{
	(void)srqn;
	not_executed(q, "ibv_wr_set_xrc_srqn");
}

static void wr_atomic_write(struct ibv_qp_ex *q, uint32_t rkey, uint64_t raddr, const void *data)
{
	(void)rkey;
	(void)raddr;
	(void)data;
	not_executed(q, "ibv_wr_atomic_write");
}

int front_qp_ex_init(struct front_qp *qp, uint64_t send_ops_flags)
{
	struct front_wr_batch *b = &qp->batch;
	struct ibv_qp_ex *q = &qp->ibvx;

	if ((send_ops_flags & ~(uint64_t)SUPPORTED_SEND_OPS) != 0) {
		OGDA_LOG_ERR("ibv_create_qp_ex: send_ops_flags 0x%llx: the software NIC executes RDMA write (+imm), "
			     "send (+imm), RDMA read and the two IB atomics",
			     (unsigned long long)(send_ops_flags & ~(uint64_t)SUPPORTED_SEND_OPS));
		errno = EOPNOTSUPP;
		return -1;
	}
	b->cap = qp->cap.max_send_wr;
	b->max_sge = qp->cap.max_send_sge > 0 ? qp->cap.max_send_sge : 1;
	b->max_inline = qp->cap.max_inline_data;
	b->wrs = calloc(b->cap, sizeof(*b->wrs));
	b->sges = calloc((size_t)b->cap * b->max_sge, sizeof(*b->sges));
	b->inl = b->max_inline > 0 ? calloc(b->cap, b->max_inline) : NULL;
	if (b->wrs == NULL || b->sges == NULL || (b->max_inline > 0 && b->inl == NULL)) {
		front_qp_ex_fini(qp);
		errno = ENOMEM;
		return -1;
	}
	q->wr_atomic_cmp_swp = wr_atomic_cmp_swp;
	q->wr_atomic_fetch_add = wr_atomic_fetch_add;
	q->wr_bind_mw = wr_bind_mw;
	q->wr_local_inv = wr_local_inv;
	q->wr_rdma_read = wr_rdma_read;
	q->wr_rdma_write = wr_rdma_write;
	q->wr_rdma_write_imm = wr_rdma_write_imm;
	q->wr_send = wr_send;
	q->wr_send_imm = wr_send_imm;
	q->wr_send_inv = wr_send_inv;
	q->wr_send_tso = wr_send_tso;
	q->wr_set_ud_addr = wr_set_ud_addr;
	q->wr_set_xrc_srqn = wr_set_xrc_srqn;
	q->wr_set_inline_data = wr_set_inline_data;
	q->wr_set_inline_data_list = wr_set_inline_data_list;
	q->wr_set_sge = wr_set_sge;
	q->wr_set_sge_list = wr_set_sge_list;
	q->wr_start = wr_start;
	q->wr_complete = wr_complete;
	q->wr_abort = wr_abort;
	q->wr_atomic_write = wr_atomic_write;
	qp->has_qp_ex = true;
	return 0;
}

void front_qp_ex_fini(struct front_qp *qp)
{
	free(qp->batch.wrs);
	free(qp->batch.sges);
	free(qp->batch.inl);
	memset(&qp->batch, 0, sizeof(qp->batch));
}

struct ibv_qp *front_create_qp_ex_op(struct ibv_context *context, struct ibv_qp_init_attr_ex *attr)
{
	if (context == NULL || attr == NULL || (attr->comp_mask & IBV_QP_INIT_ATTR_PD) == 0 || attr->pd == NULL ||
	    attr->pd->context != context) {
		errno = EINVAL;
		return NULL;
	}
	if ((attr->comp_mask & ~(uint32_t)SUPPORTED_INIT_MASK) != 0 ||
	    ((attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) != 0 && attr->create_flags != 0)) {
		OGDA_LOG_ERR("%s: ibv_create_qp_ex: comp_mask 0x%x / create_flags 0x%x: XRC, TSO, RSS and creation "
			     "flags are not supported by the software NIC",
			     context->device->name, attr->comp_mask, attr->create_flags);
		errno = EOPNOTSUPP;
		return NULL;
	}
	return front_qp_create(attr->pd, attr,
			       (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) != 0 ? attr->send_ops_flags : 0);
}

FRONT_EXPORT struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	if (qp == NULL || !((struct front_qp *)qp)->has_qp_ex) {
		errno = EOPNOTSUPP; /* as rdma-core: only a QP made with send_ops_flags has the wr_* API */
		return NULL;
	}
	return &((struct front_qp *)qp)->ibvx;
}
