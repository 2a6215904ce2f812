/* SPDX-License-Identifier: BSD-3-Clause */
/* Queue pairs: sizing, placement of the RQ + SQ and the doorbell record, CREATE_QP, getters. */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_qp.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

#define WQEBB 64u
#define SEG 16u
#define DBR_SIZE 8u
#define MIN_RQ_BYTES 64u /* the SQ starts right after the RQ: keep it WQEBB-aligned */
#define MAX_DS 63u       /* 16-byte units in a WQE (6-bit ds field) */
#define MAX_INLINE ((MAX_DS - 2u) * SEG - 4u) /* after ctrl + raddr, less the inline header */

/* Bytes of the largest send WQE the attributes allow (ctrl + raddr + data, inline or atomic). */
static uint32_t send_wqe_bytes(const struct doca_verbs_qp_init_attr *a)
{
	uint32_t data = a->send_max_sges * SEG;
	uint32_t inl = a->max_inline_data != 0 ? (4u + a->max_inline_data + SEG - 1u) / SEG * SEG : 0u;
	uint32_t atomic = 2u * SEG; /* atomic segment + one data segment */

	if (inl > data)
		data = inl;
	if (atomic > data)
		data = atomic;
	return 2u * SEG + data;
}

static doca_error_t qp_check(struct doca_verbs_context *ctx, const struct doca_verbs_qp_init_attr *a)
{
	const struct verbs_caps *c = &ctx->caps;
	const char *dev = ctx->info.name;

	if (a->qp_type != DOCA_VERBS_QP_TYPE_RC && a->qp_type != DOCA_VERBS_QP_TYPE_UC) {
		OGDA_LOG_ERR("%s: QP type %u is neither RC nor UC", dev, a->qp_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((a->qp_type == DOCA_VERBS_QP_TYPE_RC && !c->gen.rc) || (a->qp_type == DOCA_VERBS_QP_TYPE_UC && !c->gen.uc)) {
		OGDA_LOG_ERR("%s: the device does not support %s QPs", dev, a->qp_type == DOCA_VERBS_QP_TYPE_RC ? "RC" : "UC");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (a->pd == NULL || a->pd->ctx != ctx) {
		OGDA_LOG_ERR("%s: a QP needs a PD of this context (doca_verbs_qp_init_attr_set_pd)", dev);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->sq_wr == 0 && a->rq_wr == 0 && a->srq == NULL) {
		OGDA_LOG_ERR("%s: a QP needs a send queue, a receive queue or an SRQ (sq_wr and rq_wr are 0)", dev);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->sq_wr != 0 && (a->send_cq == NULL || a->send_cq->ctx != ctx)) {
		OGDA_LOG_ERR("%s: a QP with a send queue needs a send CQ of this context", dev);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((a->rq_wr != 0 || a->srq != NULL) && (a->receive_cq == NULL || a->receive_cq->ctx != ctx)) {
		OGDA_LOG_ERR("%s: a QP that receives needs a receive CQ of this context", dev);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->srq != NULL && (a->srq->ctx != ctx || a->rq_wr != 0)) {
		OGDA_LOG_ERR("%s: an SRQ must belong to this context and excludes an own RQ (rq_wr must be 0)", dev);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->sq_wr > c->max_qp_wr || a->rq_wr > c->max_qp_wr) {
		OGDA_LOG_ERR("%s: sq_wr %u / rq_wr %u exceed the device's max_qp_wr %u", dev, a->sq_wr, a->rq_wr,
			     c->max_qp_wr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->send_max_sges > c->max_sge || a->receive_max_sges > c->max_sge) {
		OGDA_LOG_ERR("%s: send_max_sges %u / receive_max_sges %u exceed the device's max_sge %u", dev,
			     a->send_max_sges, a->receive_max_sges, c->max_sge);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->max_inline_data > c->gen.max_wqe_sz_sq || a->max_inline_data > MAX_INLINE) {
		OGDA_LOG_ERR("%s: max_inline_data %u is above what a send WQE holds (%u bytes)", dev, a->max_inline_data,
			     c->gen.max_wqe_sz_sq - 2u * SEG - 4u < MAX_INLINE ? c->gen.max_wqe_sz_sq - 2u * SEG - 4u
									      : MAX_INLINE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->sq_wr != 0 && send_wqe_bytes(a) > c->gen.max_wqe_sz_sq) {
		OGDA_LOG_ERR("%s: a send WQE of %u SGEs / %u inline bytes needs %u bytes, above the device's %u", dev,
			     a->send_max_sges, a->max_inline_data, send_wqe_bytes(a), c->gen.max_wqe_sz_sq);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->rq_wr != 0 && a->receive_max_sges * SEG > c->gen.max_wqe_sz_rq) {
		OGDA_LOG_ERR("%s: a receive WQE of %u SGEs is above the device's %u bytes", dev, a->receive_max_sges,
			     c->gen.max_wqe_sz_rq);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->sq_wr != 0) {
		uint64_t wqebbs = (uint64_t)a->sq_wr * ((send_wqe_bytes(a) + WQEBB - 1u) / WQEBB);

		if (wqebbs > c->max_qp_wr) {
			OGDA_LOG_ERR("%s: sq_wr %u WQEs of %u bytes need %llu WQE basic blocks, above the device's %u",
				     dev, a->sq_wr, send_wqe_bytes(a), (unsigned long long)wqebbs, c->max_qp_wr);
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	if (a->send_dbr_mode == DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT && !c->no_dbr_ext && !a->emulate_no_dbr_ext) {
		OGDA_LOG_ERR("%s: the device has no DBR-less send queues (send_dbr_mode_no_dbr_ext is 0); "
			     "set emulate_no_dbr_ext to emulate them",
			     dev);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (a->core_direct_master && !c->gen.cd) {
		OGDA_LOG_ERR("%s: the device has no cross-channel (core direct) support", dev);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (a->uar != NULL && a->uar->ctx != ctx) {
		OGDA_LOG_ERR("%s: the QP's external UAR belongs to another context", dev);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Rounds the queues to what the QP gets and records it in qp->init and the ring geometry. */
static void qp_size(struct doca_verbs_qp *qp)
{
	struct doca_verbs_qp_init_attr *a = &qp->init;
	uint32_t log;

	if (a->sq_wr != 0) {
		uint32_t per_wqe = (send_wqe_bytes(a) + WQEBB - 1u) / WQEBB;

		qp->sq_wqebbs = verbs_roundup_pow2(a->sq_wr * per_wqe, &log);
		a->sq_wr = qp->sq_wqebbs / per_wqe;
		/* inline room the largest WQE really has, within the 63-unit ds field */
		if (a->max_inline_data != 0) {
			a->max_inline_data = per_wqe * WQEBB - 2u * SEG - 4u;
			if (a->max_inline_data > MAX_INLINE)
				a->max_inline_data = MAX_INLINE;
		}
	}
	if (a->rq_wr != 0) {
		qp->rq_stride = verbs_roundup_pow2(a->receive_max_sges * SEG, &log);
		qp->rq_wqes = verbs_roundup_pow2(a->rq_wr, &log);
		while (qp->rq_wqes * qp->rq_stride < MIN_RQ_BYTES)
			qp->rq_wqes *= 2u;
		a->rq_wr = qp->rq_wqes;
		a->receive_max_sges = qp->rq_stride / SEG;
	}
}

static doca_error_t qp_create_cmd(struct doca_verbs_qp *qp)
{
	struct doca_verbs_context *ctx = qp->ctx;
	const struct doca_verbs_qp_init_attr *a = &qp->init;
	struct prm_create_qp_params p;
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE];
	uint8_t out[PRM_QP_CMD_SHORT_SIZE];
	doca_error_t err;

	memset(&p, 0, sizeof(p));
	p.qpc.st = a->qp_type == DOCA_VERBS_QP_TYPE_RC ? PRM_QP_ST_RC : PRM_QP_ST_UC;
	p.qpc.pm_state = PRM_QP_PM_MIGRATED;
	p.qpc.pd = a->pd->pdn;
	p.qpc.uar_page = qp->uar->info.page_id;
	p.qpc.user_index = a->user_index;
	p.qpc.cs_res = a->cqe_inline ? PRM_QP_CS_RES_DATA32_CQE : PRM_QP_CS_RES_DISABLE;
	p.qpc.log_msg_max = ctx->caps.gen.log_max_msg;
	p.qpc.cd_master = a->core_direct_master;
	p.qpc.send_dbr_mode = a->send_dbr_mode == DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT && !a->emulate_no_dbr_ext
				      ? PRM_QP_SEND_DBR_NO_DBR_EXT
				      : PRM_QP_SEND_DBR_VALID;
	if (qp->sq != NULL) {
		p.qpc.log_sq_size = (uint8_t)verbs_log2_ceil(qp->sq_wqebbs);
		p.qpc.cqn_snd = a->send_cq->cqn;
	} else {
		p.qpc.no_sq = 1;
	}
	if (a->srq != NULL) {
		p.qpc.rq_type = PRM_QP_RQ_SRQ;
		p.qpc.srqn_rmpn_xrqn = a->srq->srqn;
		p.qpc.cqn_rcv = a->receive_cq->cqn;
	} else if (qp->rq != NULL) {
		p.qpc.rq_type = PRM_QP_RQ_REGULAR;
		p.qpc.log_rq_size = (uint8_t)verbs_log2_ceil(qp->rq_wqes);
		p.qpc.log_rq_stride = (uint8_t)(verbs_log2_ceil(qp->rq_stride) - 4u);
		p.qpc.cqn_rcv = a->receive_cq->cqn;
	} else {
		p.qpc.rq_type = PRM_QP_RQ_ZERO_LEN;
	}
	p.qpc.dbr_umem_valid = 1;
	p.qpc.dbr_umem_id = qp->dbr_mem.umem->id;
	p.qpc.dbr_addr = qp->dbr_mem.offset;
	p.wq_umem_valid = 1;
	p.wq_umem_id = qp->wq_mem.umem->id;
	p.wq_umem_offset = qp->wq_mem.offset;
	err = prm_create_qp_in_build(&p, in, sizeof(in));
	if (err != DOCA_SUCCESS)
		return err;
	memset(out, 0, sizeof(out));
	err = ctx->devx->ops->obj_create(ctx->devx, in, sizeof(in), out, sizeof(out), &qp->obj);
	err = verbs_cmd_result(err, out, sizeof(out), "CREATE_QP");
	if (err != DOCA_SUCCESS)
		return err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	if (prm_create_qp_out_parse(out, sizeof(out), &qp->qpn) != DOCA_SUCCESS) {
		(void)ctx->devx->ops->obj_destroy(qp->obj);
		qp->obj = NULL;
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

static doca_error_t qp_alloc_tracking(struct doca_verbs_qp *qp)
{
	if (qp->sq_wqebbs != 0) {
		qp->sq_wrid = calloc(qp->sq_wqebbs, sizeof(*qp->sq_wrid));
		qp->sq_wqe_opcode = calloc(qp->sq_wqebbs, sizeof(*qp->sq_wqe_opcode));
		qp->sq_wqe_len = calloc(qp->sq_wqebbs, sizeof(*qp->sq_wqe_len));
		if (qp->sq_wrid == NULL || qp->sq_wqe_opcode == NULL || qp->sq_wqe_len == NULL)
			return DOCA_ERROR_NO_MEMORY;
	}
	if (qp->rq_wqes != 0) {
		qp->rq_wrid = calloc(qp->rq_wqes, sizeof(*qp->rq_wrid));
		if (qp->rq_wrid == NULL)
			return DOCA_ERROR_NO_MEMORY;
	}
	return DOCA_SUCCESS;
}

static void qp_free(struct doca_verbs_qp *qp)
{
	const struct doca_verbs_qp_init_attr *a = &qp->init;

	verbs_qmem_release(&qp->wq_mem);
	verbs_qmem_release(&qp->dbr_mem);
	if (qp->uar != NULL)
		atomic_fetch_sub(&qp->uar->users, 1);
	if (qp->own_uar != NULL)
		verbs_uar_destroy_internal(qp->own_uar);
	if (qp->linked) {
		if (a->send_cq != NULL && qp->sq != NULL)
			verbs_cq_unlink_qp(a->send_cq, qp);
		if (a->receive_cq != NULL && (qp->rq != NULL || a->srq != NULL))
			verbs_cq_unlink_qp(a->receive_cq, qp);
		if (a->srq != NULL)
			atomic_fetch_sub(&a->srq->users, 1);
		atomic_fetch_sub(&a->pd->users, 1);
	}
	free(qp->sq_wrid);
	free(qp->sq_wqe_opcode);
	free(qp->sq_wqe_len);
	free(qp->rq_wrid);
	free(qp);
}

static doca_error_t qp_place(struct doca_verbs_qp *qp)
{
	struct doca_verbs_qp_init_attr *a = &qp->init;
	size_t rq_bytes = (size_t)qp->rq_wqes * qp->rq_stride;
	size_t sq_bytes = (size_t)qp->sq_wqebbs * WQEBB;
	doca_error_t err;

	err = verbs_qmem_place(qp->ctx, a->umem, a->umem_offset, rq_bytes + sq_bytes, WQEBB, "QP work queue",
			       &qp->wq_mem);
	if (err != DOCA_SUCCESS)
		return err;
	qp->rq = rq_bytes != 0 ? qp->wq_mem.addr : NULL;
	qp->sq = sq_bytes != 0 ? qp->wq_mem.addr + rq_bytes : NULL;
	err = verbs_qmem_place(qp->ctx, a->dbr_umem, a->dbr_umem_offset, DBR_SIZE, DBR_SIZE, "QP doorbell record",
			       &qp->dbr_mem);
	if (err != DOCA_SUCCESS)
		return err;
	qp->dbr = (uint32_t *)(void *)qp->dbr_mem.addr;
	return verbs_dbr_clear(qp->dbr);
}

/* Takes the references a live QP holds (undone by qp_free). */
static doca_error_t qp_link(struct doca_verbs_qp *qp)
{
	struct doca_verbs_qp_init_attr *a = &qp->init;
	doca_error_t err = DOCA_SUCCESS;

	qp->linked = true;
	atomic_fetch_add(&a->pd->users, 1);
	if (a->srq != NULL)
		atomic_fetch_add(&a->srq->users, 1);
	if (qp->sq != NULL)
		err = verbs_cq_link_qp(a->send_cq, qp);
	if (err == DOCA_SUCCESS && (qp->rq != NULL || a->srq != NULL))
		err = verbs_cq_link_qp(a->receive_cq, qp);
	return err;
}

static bool qp_dbr_less(const struct doca_verbs_qp *qp)
{
	return qp->init.send_dbr_mode == DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT && !qp->init.emulate_no_dbr_ext;
}

/*
 * A DBR-less QP gets a UAR page of its own: with no doorbell record to fall back on, a ring
 * overwritten by another QP's on a shared page would be lost (docs/swnic.md).
 */
static doca_error_t own_uar(struct doca_verbs_qp *qp)
{
	doca_error_t err = verbs_uar_create_internal(qp->ctx, &qp->own_uar);

	if (err == DOCA_SUCCESS)
		qp->uar = qp->own_uar;
	return err;
}

doca_error_t doca_verbs_qp_create(struct doca_verbs_context *verbs_context,
				  struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_verbs_qp **verbs_qp)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_create, (verbs_context, verbs_qp_init_attr, verbs_qp));
	struct doca_verbs_context *ctx = verbs_context;
	struct doca_verbs_qp *qp;
	doca_error_t err;

	if (ctx == NULL || verbs_qp_init_attr == NULL || verbs_qp == NULL) {
		OGDA_LOG_ERR("verbs_context, verbs_qp_init_attr and verbs_qp must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = qp_check(ctx, verbs_qp_init_attr);
	if (err != DOCA_SUCCESS)
		return err;
	qp = calloc(1, sizeof(*qp));
	if (qp == NULL) {
		OGDA_LOG_ERR("%s: out of memory", ctx->info.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	qp->ctx = ctx;
	qp->init = *verbs_qp_init_attr;
	qp->state = DOCA_VERBS_QP_STATE_RST;
	qp->bf_offset = 0;
	qp_size(qp);
	err = qp_place(qp);
	if (err == DOCA_SUCCESS)
		err = qp_link(qp);
	if (err == DOCA_SUCCESS)
		err = qp_alloc_tracking(qp);
	if (err == DOCA_SUCCESS) {
		if (qp->init.uar != NULL)
			qp->uar = qp->init.uar;
		else if (qp_dbr_less(qp))
			err = own_uar(qp);
		else
			err = verbs_ctx_default_uar(ctx, &qp->uar);
		if (err == DOCA_SUCCESS)
			atomic_fetch_add(&qp->uar->users, 1);
	}
	if (err == DOCA_SUCCESS)
		err = qp_create_cmd(qp);
	if (err == DOCA_SUCCESS)
		err = verbs_async_subscribe(ctx, VERBS_EVOBJ_QP, qp, qp->obj, &qp->cookie);
	if (err != DOCA_SUCCESS) {
		if (qp->obj != NULL)
			(void)ctx->devx->ops->obj_destroy(qp->obj);
		qp_free(qp);
		return err;
	}
	qp->cur.current_state = DOCA_VERBS_QP_STATE_RST;
	qp->cur.port_num = 1;
	verbs_ctx_child_add(ctx);
	OGDA_LOG_DBG("%s: QP 0x%x (%s), SQ %u WQEBBs, RQ %u x %u B", ctx->info.name, qp->qpn,
		     qp->init.qp_type == DOCA_VERBS_QP_TYPE_RC ? "RC" : "UC", qp->sq_wqebbs, qp->rq_wqes, qp->rq_stride);
	*verbs_qp = qp;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_destroy(struct doca_verbs_qp *verbs_qp)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_destroy, (verbs_qp));
	struct doca_verbs_qp *qp = verbs_qp;
	struct doca_verbs_context *ctx;
	unsigned int unacked, exports;
	doca_error_t err;

	if (qp == NULL) {
		OGDA_LOG_ERR("verbs_qp must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx = qp->ctx;
	exports = atomic_load(&qp->gpu_exports);
	if (exports != 0) {
		OGDA_LOG_ERR("%s: QP 0x%x is exported to the GPU (%u exports): unexport it first "
			     "(doca_gpu_verbs_unexport_qp)", ctx->info.name, qp->qpn, exports);
		return DOCA_ERROR_IN_USE;
	}
	pthread_mutex_lock(&ctx->lock);
	unacked = qp->async_unacked;
	pthread_mutex_unlock(&ctx->lock);
	if (unacked != 0) {
		OGDA_LOG_ERR("%s: QP 0x%x has %u async events not acknowledged", ctx->info.name, qp->qpn, unacked);
		return DOCA_ERROR_IN_USE;
	}
	err = ctx->devx->ops->obj_destroy(qp->obj);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: DESTROY_QP 0x%x failed: %s", ctx->info.name, qp->qpn, doca_error_get_descr(err));
		return err == DOCA_ERROR_IN_USE ? err : DOCA_ERROR_DRIVER;
	}
	verbs_async_unsubscribe(ctx, qp->cookie);
	qp_free(qp);
	verbs_ctx_child_del(ctx);
	return DOCA_SUCCESS;
}

void verbs_export_get(struct doca_verbs_qp *qp, struct doca_verbs_cq *cq)
{
	atomic_fetch_add(&qp->gpu_exports, 1);
	atomic_fetch_add(&cq->gpu_exports, 1);
}

void verbs_export_put(struct doca_verbs_qp *qp, struct doca_verbs_cq *cq)
{
	atomic_fetch_sub(&cq->gpu_exports, 1);
	atomic_fetch_sub(&qp->gpu_exports, 1);
}

doca_error_t doca_verbs_qp_get_wq(const struct doca_verbs_qp *verbs_qp, void **sq_buf, uint32_t *sq_num_entries,
				  void **rq_buf, uint32_t *rq_num_entries, uint32_t *rwqe_size_bytes)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_get_wq, (verbs_qp, sq_buf, sq_num_entries, rq_buf, rq_num_entries, rwqe_size_bytes));
	if (verbs_qp == NULL || sq_buf == NULL || sq_num_entries == NULL || rq_buf == NULL || rq_num_entries == NULL ||
	    rwqe_size_bytes == NULL) {
		OGDA_LOG_ERR("verbs_qp and every output must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*sq_buf = verbs_qp->sq;
	*sq_num_entries = verbs_qp->sq_wqebbs;
	*rq_buf = verbs_qp->rq;
	*rq_num_entries = verbs_qp->rq_wqes;
	*rwqe_size_bytes = verbs_qp->rq_stride;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_get_dbr_addr(const struct doca_verbs_qp *verbs_qp, void **dbr_addr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_get_dbr_addr, (verbs_qp, dbr_addr));
	if (verbs_qp == NULL || dbr_addr == NULL) {
		OGDA_LOG_ERR("verbs_qp and dbr_addr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*dbr_addr = verbs_qp->dbr;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_get_uar_addr(const struct doca_verbs_qp *verbs_qp, void **uar_addr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_get_uar_addr, (verbs_qp, uar_addr));
	if (verbs_qp == NULL || uar_addr == NULL) {
		OGDA_LOG_ERR("verbs_qp and uar_addr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*uar_addr = verbs_qp->uar->info.reg_addr;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_get_qpn(const struct doca_verbs_qp *verbs_qp, uint32_t *qpn)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_get_qpn, (verbs_qp, qpn));
	if (verbs_qp == NULL || qpn == NULL) {
		OGDA_LOG_ERR("verbs_qp and qpn must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*qpn = verbs_qp->qpn;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_get_send_dbr_mode(const struct doca_verbs_qp *verbs_qp,
					     enum doca_verbs_qp_send_dbr_mode *send_dbr_mode)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_get_send_dbr_mode, (verbs_qp, send_dbr_mode));
	if (verbs_qp == NULL || send_dbr_mode == NULL) {
		OGDA_LOG_ERR("verbs_qp and send_dbr_mode must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*send_dbr_mode = verbs_qp->init.send_dbr_mode;
	return DOCA_SUCCESS;
}

bool doca_verbs_qp_get_emulate_no_dbr_ext(const struct doca_verbs_qp *verbs_qp)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_get_emulate_no_dbr_ext, (verbs_qp));
	if (verbs_qp == NULL) {
		OGDA_LOG_ERR("verbs_qp must not be NULL");
		return false;
	}
	return verbs_qp->init.emulate_no_dbr_ext;
}
