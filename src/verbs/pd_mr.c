/* SPDX-License-Identifier: BSD-3-Clause */
/* Protection domains and memory regions on any device (opengda_mr_*). */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <infiniband/verbs.h>
#include <stdlib.h>

doca_error_t doca_verbs_pd_create(struct doca_verbs_context *verbs_context, struct doca_verbs_pd **verbs_pd)
{
	OGDA_SDK_FORWARD(doca_verbs_pd_create, (verbs_context, verbs_pd));
	struct doca_verbs_pd *pd;
	doca_error_t err;

	if (verbs_context == NULL || verbs_pd == NULL) {
		OGDA_LOG_ERR("verbs_context and verbs_pd must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pd = calloc(1, sizeof(*pd));
	if (pd == NULL) {
		OGDA_LOG_ERR("%s: out of memory", verbs_context->info.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = verbs_context->devx->ops->pd_alloc(verbs_context->devx, &pd->devx_pd, &pd->pdn);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot allocate a PD: %s", verbs_context->info.name, doca_error_get_descr(err));
		free(pd);
		return err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	}
	pd->ctx = verbs_context;
	verbs_ctx_child_add(verbs_context);
	*verbs_pd = pd;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_pd_destroy(struct doca_verbs_pd *verbs_pd)
{
	OGDA_SDK_FORWARD(doca_verbs_pd_destroy, (verbs_pd));
	unsigned int users;
	doca_error_t err;

	if (verbs_pd == NULL) {
		OGDA_LOG_ERR("verbs_pd must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	users = atomic_load(&verbs_pd->users);
	if (users != 0) {
		OGDA_LOG_ERR("%s: PD 0x%x is still used by %u QPs, SRQs, memory regions or devices",
			     verbs_pd->ctx->info.name, verbs_pd->pdn, users);
		return DOCA_ERROR_IN_USE;
	}
	err = verbs_pd->ctx->devx->ops->pd_free(verbs_pd->devx_pd);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot free PD 0x%x: %s", verbs_pd->ctx->info.name, verbs_pd->pdn,
			     doca_error_get_descr(err));
		return err == DOCA_ERROR_IN_USE ? err : DOCA_ERROR_DRIVER;
	}
	verbs_ctx_child_del(verbs_pd->ctx);
	if (verbs_pd->imported)
		verbs_bridge_pd_released(verbs_pd->ctx);
	free(verbs_pd);
	return DOCA_SUCCESS;
}

#define MR_ACCESS_ALL (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

static doca_error_t check_access(const char *dev, uint32_t access)
{
	if ((access & ~(uint32_t)MR_ACCESS_ALL) != 0) {
		OGDA_LOG_ERR("%s: access 0x%x has bits other than IBV_ACCESS_LOCAL_WRITE / REMOTE_WRITE / "
			     "REMOTE_READ / REMOTE_ATOMIC",
			     dev, access);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) != 0 &&
	    (access & IBV_ACCESS_LOCAL_WRITE) == 0) {
		OGDA_LOG_ERR("%s: remote write and remote atomic access need IBV_ACCESS_LOCAL_WRITE too", dev);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t mr_register(struct doca_verbs_pd *pd, void *addr, size_t len, uint32_t access, int fd,
				uint64_t offset, struct opengda_mr **out)
{
	struct opengda_mr *mr;
	doca_error_t err;

	err = check_access(pd->ctx->info.name, access);
	if (err != DOCA_SUCCESS)
		return err;
	if (len == 0) {
		OGDA_LOG_ERR("%s: a memory region needs a length above 0", pd->ctx->info.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL) {
		OGDA_LOG_ERR("%s: out of memory", pd->ctx->info.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = pd->ctx->devx->ops->mr_reg(pd->devx_pd, addr, len, access, fd, offset, &mr->devx_mr, &mr->lkey,
					 &mr->rkey);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot register %zu bytes at %p: %s", pd->ctx->info.name, len, addr,
			     doca_error_get_descr(err));
		free(mr);
		if (err == DOCA_ERROR_NOT_SUPPORTED || err == DOCA_ERROR_INVALID_VALUE || err == DOCA_ERROR_NO_MEMORY)
			return err;
		return DOCA_ERROR_DRIVER;
	}
	mr->pd = pd;
	atomic_fetch_add(&pd->users, 1);
	*out = mr;
	return DOCA_SUCCESS;
}

doca_error_t opengda_mr_create(struct doca_verbs_pd *pd, void *addr, size_t len, uint32_t access,
			       struct opengda_mr **mr)
{
	if (pd == NULL || addr == NULL || mr == NULL) {
		OGDA_LOG_ERR("pd, addr and mr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return mr_register(pd, addr, len, access, -1, 0, mr);
}

doca_error_t opengda_mr_create_dmabuf(struct doca_verbs_pd *pd, int fd, uint64_t offset, size_t len, uint64_t iova,
				      uint32_t access, struct opengda_mr **mr)
{
	if (pd == NULL || mr == NULL) {
		OGDA_LOG_ERR("pd and mr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (fd < 0) {
		OGDA_LOG_ERR("%s: dmabuf fd %d is not a file descriptor", pd->ctx->info.name, fd);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return mr_register(pd, (void *)(uintptr_t)iova, len, access, fd, offset, mr);
}

doca_error_t opengda_mr_get_lkey(const struct opengda_mr *mr, uint32_t *lkey)
{
	if (mr == NULL || lkey == NULL) {
		OGDA_LOG_ERR("mr and lkey must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*lkey = mr->lkey;
	return DOCA_SUCCESS;
}

doca_error_t opengda_mr_get_rkey(const struct opengda_mr *mr, uint32_t *rkey)
{
	if (mr == NULL || rkey == NULL) {
		OGDA_LOG_ERR("mr and rkey must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*rkey = mr->rkey;
	return DOCA_SUCCESS;
}

doca_error_t opengda_mr_destroy(struct opengda_mr *mr)
{
	doca_error_t err;

	if (mr == NULL) {
		OGDA_LOG_ERR("mr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = mr->pd->ctx->devx->ops->mr_dereg(mr->devx_mr);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot deregister lkey 0x%x: %s", mr->pd->ctx->info.name, mr->lkey,
			     doca_error_get_descr(err));
		return DOCA_ERROR_DRIVER;
	}
	atomic_fetch_sub(&mr->pd->users, 1);
	free(mr);
	return DOCA_SUCCESS;
}
