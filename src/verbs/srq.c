/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared receive queues: an RMP on the device, created ready (RDY). */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "prm/prm_rmp.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

#define SEG 16u
#define DBR_SIZE 8u   /* one 4-byte counter, kept 8-byte aligned like every DBR */
#define MIN_STRIDE 16u

static doca_error_t srq_check(struct doca_verbs_context *ctx, const struct doca_verbs_srq_init_attr *a)
{
	if (a->pd == NULL || a->pd->ctx != ctx) {
		OGDA_LOG_ERR("%s: an SRQ needs a PD of this context (doca_verbs_srq_init_attr_set_pd)", ctx->info.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->srq_wr == 0 || a->srq_wr > ctx->caps.max_srq_wr) {
		OGDA_LOG_ERR("%s: srq_wr %u must be 1..%u (max_srq_wr)", ctx->info.name, a->srq_wr, ctx->caps.max_srq_wr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->receive_max_sges == 0 || a->receive_max_sges > ctx->caps.max_srq_sge) {
		OGDA_LOG_ERR("%s: receive_max_sges %u must be 1..%u (max_srq_sge)", ctx->info.name, a->receive_max_sges,
			     ctx->caps.max_srq_sge);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->type != DOCA_VERBS_SRQ_TYPE_LINKED_LIST && a->type != DOCA_VERBS_SRQ_TYPE_CONTIGUOUS) {
		OGDA_LOG_ERR("%s: SRQ type %d is neither LINKED_LIST nor CONTIGUOUS", ctx->info.name, (int)a->type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t srq_create_cmd(struct doca_verbs_srq *srq)
{
	struct doca_verbs_context *ctx = srq->ctx;
	struct prm_create_rmp_params p;
	struct prm_wq_params *wq = &p.rmpc.wq;
	uint8_t in[PRM_RMP_CMD_SIZE];
	uint8_t out[PRM_RMP_SMALL_CMD_SIZE];
	doca_error_t err;

	memset(&p, 0, sizeof(p));
	p.rmpc.state = PRM_RMP_STATE_RDY;
	wq->wq_type = srq->init.type == DOCA_VERBS_SRQ_TYPE_LINKED_LIST ? PRM_WQ_TYPE_LINKED_LIST : PRM_WQ_TYPE_CYCLIC;
	wq->pd = srq->init.pd->pdn;
	wq->log_wq_stride = (uint8_t)verbs_log2_ceil(srq->stride);
	wq->log_wq_sz = (uint8_t)verbs_log2_ceil(srq->nwqe);
	wq->dbr_umem_valid = 1;
	wq->dbr_umem_id = srq->dbr_mem.umem->id;
	wq->dbr_addr = srq->dbr_mem.offset;
	wq->wq_umem_valid = 1;
	wq->wq_umem_id = srq->wq_mem.umem->id;
	wq->wq_umem_offset = srq->wq_mem.offset;
	err = prm_create_rmp_in_build(&p, in, sizeof(in));
	if (err != DOCA_SUCCESS)
		return err;
	memset(out, 0, sizeof(out));
	err = ctx->devx->ops->obj_create(ctx->devx, in, sizeof(in), out, sizeof(out), &srq->obj);
	err = verbs_cmd_result(err, out, sizeof(out), "CREATE_RMP");
	if (err != DOCA_SUCCESS)
		return err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	if (prm_create_rmp_out_parse(out, sizeof(out), &srq->srqn) != DOCA_SUCCESS) {
		(void)ctx->devx->ops->obj_destroy(srq->obj);
		srq->obj = NULL;
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

static void srq_free(struct doca_verbs_srq *srq)
{
	verbs_qmem_release(&srq->wq_mem);
	verbs_qmem_release(&srq->dbr_mem);
	free(srq);
}

doca_error_t doca_verbs_srq_create(struct doca_verbs_context *verbs_context,
				   struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_verbs_srq **verbs_srq)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_create, (verbs_context, verbs_srq_init_attr, verbs_srq));
	struct doca_verbs_context *ctx = verbs_context;
	struct doca_verbs_srq *srq;
	uint32_t log, wqe_bytes;
	doca_error_t err;

	if (ctx == NULL || verbs_srq_init_attr == NULL || verbs_srq == NULL) {
		OGDA_LOG_ERR("verbs_context, verbs_srq_init_attr and verbs_srq must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = srq_check(ctx, verbs_srq_init_attr);
	if (err != DOCA_SUCCESS)
		return err;
	srq = calloc(1, sizeof(*srq));
	if (srq == NULL) {
		OGDA_LOG_ERR("%s: out of memory", ctx->info.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	srq->ctx = ctx;
	srq->init = *verbs_srq_init_attr;
	/* A linked-list WQE starts with its 16-byte next segment. */
	wqe_bytes = srq->init.receive_max_sges * SEG + (srq->init.type == DOCA_VERBS_SRQ_TYPE_LINKED_LIST ? SEG : 0u);
	srq->stride = verbs_roundup_pow2(wqe_bytes < MIN_STRIDE ? MIN_STRIDE : wqe_bytes, &log);
	srq->nwqe = verbs_roundup_pow2(srq->init.srq_wr, &log);
	srq->init.srq_wr = srq->nwqe;
	err = verbs_qmem_place(ctx, srq->init.umem, srq->init.umem_offset, (size_t)srq->nwqe * srq->stride, 64u,
			       "SRQ ring", &srq->wq_mem);
	if (err == DOCA_SUCCESS)
		err = verbs_qmem_place(ctx, NULL, 0, DBR_SIZE, DBR_SIZE, "SRQ doorbell record", &srq->dbr_mem);
	if (err == DOCA_SUCCESS) {
		srq->ring = srq->wq_mem.addr;
		srq->dbr = (uint32_t *)(void *)srq->dbr_mem.addr;
		err = verbs_dbr_clear(srq->dbr);
	}
	if (err == DOCA_SUCCESS)
		err = srq_create_cmd(srq);
	if (err == DOCA_SUCCESS)
		err = verbs_async_subscribe(ctx, VERBS_EVOBJ_SRQ, srq, srq->obj, &srq->cookie);
	if (err != DOCA_SUCCESS) {
		if (srq->obj != NULL)
			(void)ctx->devx->ops->obj_destroy(srq->obj);
		srq_free(srq);
		return err;
	}
	atomic_fetch_add(&srq->init.pd->users, 1);
	verbs_ctx_child_add(ctx);
	*verbs_srq = srq;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_srq_destroy(struct doca_verbs_srq *verbs_srq)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_destroy, (verbs_srq));
	struct doca_verbs_srq *srq = verbs_srq;
	struct doca_verbs_context *ctx;
	unsigned int users, unacked;
	doca_error_t err;

	if (srq == NULL) {
		OGDA_LOG_ERR("verbs_srq must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx = srq->ctx;
	users = atomic_load(&srq->users);
	if (users != 0) {
		OGDA_LOG_ERR("%s: SRQ 0x%x is still used by %u QPs", ctx->info.name, srq->srqn, users);
		return DOCA_ERROR_IN_USE;
	}
	pthread_mutex_lock(&ctx->lock);
	unacked = srq->async_unacked;
	pthread_mutex_unlock(&ctx->lock);
	if (unacked != 0) {
		OGDA_LOG_ERR("%s: SRQ 0x%x has %u async events not acknowledged", ctx->info.name, srq->srqn, unacked);
		return DOCA_ERROR_IN_USE;
	}
	err = ctx->devx->ops->obj_destroy(srq->obj);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: DESTROY_RMP 0x%x failed: %s", ctx->info.name, srq->srqn, doca_error_get_descr(err));
		return err == DOCA_ERROR_IN_USE ? err : DOCA_ERROR_DRIVER;
	}
	verbs_async_unsubscribe(ctx, srq->cookie);
	atomic_fetch_sub(&srq->init.pd->users, 1);
	srq_free(srq);
	verbs_ctx_child_del(ctx);
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_srq_query(struct doca_verbs_srq *verbs_srq, struct doca_verbs_srq_init_attr *verbs_srq_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_query, (verbs_srq, verbs_srq_init_attr));
	uint8_t in[PRM_RMP_SMALL_CMD_SIZE];
	uint8_t *out;
	struct prm_rmpc_params r;
	doca_error_t err;

	if (verbs_srq == NULL || verbs_srq_init_attr == NULL) {
		OGDA_LOG_ERR("verbs_srq and verbs_srq_init_attr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	out = calloc(1, PRM_RMP_CMD_SIZE);
	if (out == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = prm_query_rmp_in_build(0, verbs_srq->srqn, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = verbs_srq->ctx->devx->ops->obj_query(verbs_srq->obj, in, sizeof(in), out, PRM_RMP_CMD_SIZE);
	err = verbs_cmd_result(err, out, PRM_RMP_CMD_SIZE, "QUERY_RMP");
	if (err == DOCA_SUCCESS)
		err = prm_query_rmp_out_parse(out, PRM_RMP_CMD_SIZE, &r);
	free(out);
	if (err != DOCA_SUCCESS)
		return DOCA_ERROR_DRIVER;
	*verbs_srq_init_attr = verbs_srq->init;
	verbs_srq_init_attr->srq_wr = 1u << r.wq.log_wq_sz;
	verbs_srq_init_attr->type = r.wq.wq_type == PRM_WQ_TYPE_LINKED_LIST ? DOCA_VERBS_SRQ_TYPE_LINKED_LIST
									   : DOCA_VERBS_SRQ_TYPE_CONTIGUOUS;
	verbs_srq_init_attr->receive_max_sges =
		((1u << r.wq.log_wq_stride) - (r.wq.wq_type == PRM_WQ_TYPE_LINKED_LIST ? SEG : 0u)) / SEG;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_srq_get_srqn(const struct doca_verbs_srq *verbs_srq, uint32_t *srqn)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_get_srqn, (verbs_srq, srqn));
	if (verbs_srq == NULL || srqn == NULL) {
		OGDA_LOG_ERR("verbs_srq and srqn must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*srqn = verbs_srq->srqn;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_srq_get_wq(const struct doca_verbs_srq *verbs_srq, void **srq_buf, uint32_t *srq_num_entries,
				   uint32_t *rwqe_size_bytes)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_get_wq, (verbs_srq, srq_buf, srq_num_entries, rwqe_size_bytes));
	if (verbs_srq == NULL || srq_buf == NULL || srq_num_entries == NULL || rwqe_size_bytes == NULL) {
		OGDA_LOG_ERR("verbs_srq, srq_buf, srq_num_entries and rwqe_size_bytes must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*srq_buf = verbs_srq->ring;
	*srq_num_entries = verbs_srq->nwqe;
	*rwqe_size_bytes = verbs_srq->stride;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_srq_get_dbr_addr(const struct doca_verbs_srq *verbs_srq, void **dbr_addr)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_get_dbr_addr, (verbs_srq, dbr_addr));
	if (verbs_srq == NULL || dbr_addr == NULL) {
		OGDA_LOG_ERR("verbs_srq and dbr_addr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*dbr_addr = verbs_srq->dbr;
	return DOCA_SUCCESS;
}
