/* SPDX-License-Identifier: BSD-3-Clause */
/* Completion queues: CREATE_CQ from the attributes, ring and doorbell-record placement. */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_cq.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

#define CQE_SIZE 64u
#define DBR_SIZE 8u

/* Every CQE software-owned and invalid, as the device expects a fresh ring. */
static doca_error_t init_ring(struct doca_verbs_cq *cq)
{
	size_t len = (size_t)cq->ncqe * CQE_SIZE;
	uint8_t *img = malloc(len);
	doca_error_t err;

	if (img == NULL)
		return DOCA_ERROR_NO_MEMORY;
	(void)opengda_mlx5_cq_init(img, cq->log_ncqe);
	err = verbs_mem_write(cq->ring, img, len);
	free(img);
	return err;
}

static doca_error_t cq_check(struct doca_verbs_context *ctx, const struct doca_verbs_cq_attr *a)
{
	if (a->cq_size == 0) {
		OGDA_LOG_ERR("%s: CQ size is 0: set it with doca_verbs_cq_attr_set_cq_size()", ctx->info.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->cq_size > ctx->caps.max_cqe) {
		OGDA_LOG_ERR("%s: CQ size %u is above the device's max_cqe %u", ctx->info.name, a->cq_size,
			     ctx->caps.max_cqe);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->uar != NULL && a->uar->ctx != ctx) {
		OGDA_LOG_ERR("%s: the CQ's external UAR belongs to another context", ctx->info.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->comp_channel != NULL && a->comp_channel->ctx != ctx) {
		OGDA_LOG_ERR("%s: the CQ's completion channel belongs to another context", ctx->info.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->overrun && !ctx->caps.gen.cq_oi) {
		OGDA_LOG_ERR("%s: the device cannot ignore CQ overrun (cap cq_oi is 0)", ctx->info.name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

static doca_error_t cq_create_cmd(struct doca_verbs_cq *cq)
{
	struct doca_verbs_context *ctx = cq->ctx;
	struct prm_create_cq_params p;
	uint8_t in[PRM_CREATE_CQ_IN_SIZE];
	uint8_t out[PRM_CQ_SMALL_CMD_SIZE];
	doca_error_t err;

	memset(&p, 0, sizeof(p));
	p.cqc.cqe_sz = PRM_CQE_SIZE_64;
	p.cqc.cc = cq->attr.collapsed;
	p.cqc.oi = cq->attr.overrun;
	p.cqc.log_cq_size = (uint8_t)cq->log_ncqe;
	p.cqc.uar_page = cq->uar->info.page_id;
	p.cqc.c_eqn = (uint8_t)ctx->eqn;
	p.cqc.dbr_umem_valid = 1;
	p.cqc.dbr_umem_id = cq->dbr_mem.umem->id;
	p.cqc.dbr_addr = cq->dbr_mem.offset;
	p.cq_umem_valid = 1;
	p.cq_umem_id = cq->ring_mem.umem->id;
	p.cq_umem_offset = cq->ring_mem.offset;
	err = prm_create_cq_in_build(&p, in, sizeof(in));
	if (err != DOCA_SUCCESS)
		return err;
	memset(out, 0, sizeof(out));
	err = ctx->devx->ops->obj_create(ctx->devx, in, sizeof(in), out, sizeof(out), &cq->obj);
	err = verbs_cmd_result(err, out, sizeof(out), "CREATE_CQ");
	if (err != DOCA_SUCCESS)
		return err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	err = prm_create_cq_out_parse(out, sizeof(out), &cq->cqn);
	if (err != DOCA_SUCCESS) {
		(void)ctx->devx->ops->obj_destroy(cq->obj);
		cq->obj = NULL;
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

static void cq_free(struct doca_verbs_cq *cq)
{
	verbs_qmem_release(&cq->ring_mem);
	verbs_qmem_release(&cq->dbr_mem);
	if (cq->uar != NULL)
		atomic_fetch_sub(&cq->uar->users, 1);
	if (cq->attr.comp_channel != NULL)
		atomic_fetch_sub(&cq->attr.comp_channel->users, 1);
	pthread_mutex_destroy(&cq->lock);
	free(cq);
}

doca_error_t doca_verbs_cq_create(struct doca_verbs_context *verbs_context, struct doca_verbs_cq_attr *verbs_cq_attr,
				  struct doca_verbs_cq **verbs_cq)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_create, (verbs_context, verbs_cq_attr, verbs_cq));
	struct doca_verbs_context *ctx = verbs_context;
	struct doca_verbs_cq *cq;
	doca_error_t err;

	if (ctx == NULL || verbs_cq_attr == NULL || verbs_cq == NULL) {
		OGDA_LOG_ERR("verbs_context, verbs_cq_attr and verbs_cq must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = cq_check(ctx, verbs_cq_attr);
	if (err != DOCA_SUCCESS)
		return err;
	cq = calloc(1, sizeof(*cq));
	if (cq == NULL) {
		OGDA_LOG_ERR("%s: out of memory", ctx->info.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_mutex_init(&cq->lock, NULL);
	cq->ctx = ctx;
	cq->attr = *verbs_cq_attr;
	cq->ncqe = verbs_roundup_pow2(verbs_cq_attr->cq_size, &cq->log_ncqe);
	cq->attr.cq_size = cq->ncqe;
	cq->cqe_size = CQE_SIZE;
	cq->arm_sn = 1; /* the software NIC sees a first arm as a change of the arm word (docs/swnic.md) */
	if (cq->attr.comp_channel != NULL)
		atomic_fetch_add(&cq->attr.comp_channel->users, 1);
	err = verbs_qmem_place(ctx, cq->attr.umem, cq->attr.umem_offset, (size_t)cq->ncqe * CQE_SIZE, CQE_SIZE,
			       "CQ ring", &cq->ring_mem);
	if (err == DOCA_SUCCESS)
		err = verbs_qmem_place(ctx, cq->attr.dbr_umem, cq->attr.dbr_umem_offset, DBR_SIZE, DBR_SIZE,
				       "CQ doorbell record", &cq->dbr_mem);
	if (err == DOCA_SUCCESS) {
		cq->ring = cq->ring_mem.addr;
		cq->dbr = (uint32_t *)(void *)cq->dbr_mem.addr;
		err = init_ring(cq);
	}
	if (err == DOCA_SUCCESS)
		err = verbs_dbr_clear(cq->dbr);
	if (err == DOCA_SUCCESS) {
		if (cq->attr.uar != NULL)
			cq->uar = cq->attr.uar;
		else
			err = verbs_ctx_default_uar(ctx, &cq->uar);
		if (err == DOCA_SUCCESS)
			atomic_fetch_add(&cq->uar->users, 1);
	}
	if (err == DOCA_SUCCESS)
		err = cq_create_cmd(cq);
	if (err == DOCA_SUCCESS)
		err = verbs_async_subscribe(ctx, VERBS_EVOBJ_CQ, cq, cq->obj, &cq->cookie);
	if (err == DOCA_SUCCESS && cq->attr.comp_channel != NULL)
		err = verbs_cq_subscribe_comp(cq);
	if (err != DOCA_SUCCESS) {
		if (cq->cookie != 0)
			verbs_async_unsubscribe(ctx, cq->cookie);
		if (cq->obj != NULL)
			(void)ctx->devx->ops->obj_destroy(cq->obj);
		cq_free(cq);
		return err;
	}
	verbs_ctx_child_add(ctx);
	OGDA_LOG_DBG("%s: CQ 0x%x, %u CQEs", ctx->info.name, cq->cqn, cq->ncqe);
	*verbs_cq = cq;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_destroy(struct doca_verbs_cq *verbs_cq)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_destroy, (verbs_cq));
	struct doca_verbs_cq *cq = verbs_cq;
	struct doca_verbs_context *ctx;
	unsigned int users, exports, pending_comp;
	doca_error_t err;

	if (cq == NULL) {
		OGDA_LOG_ERR("verbs_cq must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx = cq->ctx;
	exports = atomic_load(&cq->gpu_exports);
	if (exports != 0) {
		OGDA_LOG_ERR("%s: CQ 0x%x is exported to the GPU as the send CQ of %u exported QPs: unexport them "
			     "first (doca_gpu_verbs_unexport_qp)", ctx->info.name, cq->cqn, exports);
		return DOCA_ERROR_IN_USE;
	}
	users = atomic_load(&cq->users);
	if (users != 0) {
		OGDA_LOG_ERR("%s: CQ 0x%x still has %u QP queues completing to it", ctx->info.name, cq->cqn, users);
		return DOCA_ERROR_IN_USE;
	}
	pthread_mutex_lock(&ctx->lock);
	pending_comp = cq->comp_events_taken - cq->comp_events_acked;
	if (pending_comp != 0 || cq->async_unacked != 0) {
		pthread_mutex_unlock(&ctx->lock);
		OGDA_LOG_ERR("%s: CQ 0x%x has %u completion and %u async events not acknowledged", ctx->info.name,
			     cq->cqn, pending_comp, cq->async_unacked);
		return DOCA_ERROR_IN_USE;
	}
	pthread_mutex_unlock(&ctx->lock);
	err = ctx->devx->ops->obj_destroy(cq->obj);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: DESTROY_CQ 0x%x failed: %s", ctx->info.name, cq->cqn, doca_error_get_descr(err));
		return err == DOCA_ERROR_IN_USE ? err : DOCA_ERROR_DRIVER;
	}
	verbs_async_unsubscribe(ctx, cq->cookie);
	cq_free(cq);
	verbs_ctx_child_del(ctx);
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_get_wq(struct doca_verbs_cq *verbs_cq, void **cq_buf, uint32_t *cq_num_entries,
				  uint8_t *cq_entry_size)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_get_wq, (verbs_cq, cq_buf, cq_num_entries, cq_entry_size));
	if (verbs_cq == NULL || cq_buf == NULL || cq_num_entries == NULL || cq_entry_size == NULL) {
		OGDA_LOG_ERR("verbs_cq, cq_buf, cq_num_entries and cq_entry_size must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*cq_buf = verbs_cq->ring;
	*cq_num_entries = verbs_cq->ncqe;
	*cq_entry_size = (uint8_t)verbs_cq->cqe_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_get_dbr_addr(struct doca_verbs_cq *verbs_cq, uint64_t **uar_db_reg, uint32_t **ci_dbr,
					uint32_t **arm_dbr)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_get_dbr_addr, (verbs_cq, uar_db_reg, ci_dbr, arm_dbr));
	if (verbs_cq == NULL || uar_db_reg == NULL || ci_dbr == NULL || arm_dbr == NULL) {
		OGDA_LOG_ERR("verbs_cq, uar_db_reg, ci_dbr and arm_dbr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*uar_db_reg = (uint64_t *)(void *)((uint8_t *)verbs_cq->uar->info.base_addr + OPENGDA_MLX5_UAR_CQ_DOORBELL);
	*ci_dbr = &verbs_cq->dbr[OPENGDA_MLX5_CQ_SET_CI];
	*arm_dbr = &verbs_cq->dbr[OPENGDA_MLX5_CQ_ARM_DB];
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_get_cqn(const struct doca_verbs_cq *verbs_cq, uint32_t *cqn)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_get_cqn, (verbs_cq, cqn));
	if (verbs_cq == NULL || cqn == NULL) {
		OGDA_LOG_ERR("verbs_cq and cqn must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*cqn = verbs_cq->cqn;
	return DOCA_SUCCESS;
}

struct doca_verbs_qp *verbs_cq_find_qp(struct doca_verbs_cq *cq, uint32_t qpn)
{
	struct doca_verbs_qp *found = NULL;

	pthread_mutex_lock(&cq->lock);
	for (struct verbs_qp_link *l = cq->qps; l != NULL; l = l->next) {
		if (l->qp->qpn == qpn) {
			found = l->qp;
			break;
		}
	}
	pthread_mutex_unlock(&cq->lock);
	return found;
}

doca_error_t verbs_cq_link_qp(struct doca_verbs_cq *cq, struct doca_verbs_qp *qp)
{
	struct verbs_qp_link *l = malloc(sizeof(*l));

	if (l == NULL)
		return DOCA_ERROR_NO_MEMORY;
	l->qp = qp;
	pthread_mutex_lock(&cq->lock);
	l->next = cq->qps;
	cq->qps = l;
	pthread_mutex_unlock(&cq->lock);
	atomic_fetch_add(&cq->users, 1);
	return DOCA_SUCCESS;
}

void verbs_cq_unlink_qp(struct doca_verbs_cq *cq, struct doca_verbs_qp *qp)
{
	pthread_mutex_lock(&cq->lock);
	for (struct verbs_qp_link **pl = &cq->qps; *pl != NULL; pl = &(*pl)->next) {
		if ((*pl)->qp == qp) {
			struct verbs_qp_link *dead = *pl;

			*pl = dead->next;
			free(dead);
			atomic_fetch_sub(&cq->users, 1);
			break;
		}
	}
	pthread_mutex_unlock(&cq->lock);
}
