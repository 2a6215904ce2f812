/* SPDX-License-Identifier: BSD-3-Clause */
/* UMEM (queue and doorbell-record memory) and UAR (doorbell page) objects. */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "sdk/sdk_forward.h"

#include <infiniband/verbs.h>
#include <stdlib.h>

doca_error_t doca_verbs_umem_create(struct doca_verbs_context *verbs_context, void *address, size_t size,
				    uint32_t access_flags, int dmabuf_fd, size_t dmabuf_offset,
				    struct doca_verbs_umem **umem)
{
	OGDA_SDK_FORWARD(doca_verbs_umem_create, (verbs_context, address, size, access_flags, dmabuf_fd, dmabuf_offset, umem));
	struct doca_verbs_umem *u;
	int fd = dmabuf_fd == (int)DOCA_VERBS_DMABUF_INVALID_FD ? -1 : dmabuf_fd;
	doca_error_t err;

	if (verbs_context == NULL || umem == NULL || (address == NULL && fd < 0)) {
		OGDA_LOG_ERR("verbs_context, umem and address (or a dmabuf fd) must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (fd < -1) {
		OGDA_LOG_ERR("%s: dmabuf_fd %d is neither a file descriptor nor (int)DOCA_VERBS_DMABUF_INVALID_FD",
			     verbs_context->info.name, dmabuf_fd);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (size == 0) {
		OGDA_LOG_ERR("%s: a UMEM needs a size above 0", verbs_context->info.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((access_flags & ~(uint32_t)(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
					IBV_ACCESS_REMOTE_ATOMIC)) != 0) {
		OGDA_LOG_ERR("%s: UMEM access 0x%x has bits other than IBV_ACCESS_*", verbs_context->info.name,
			     access_flags);
		return DOCA_ERROR_INVALID_VALUE;
	}
	u = calloc(1, sizeof(*u));
	if (u == NULL) {
		OGDA_LOG_ERR("%s: out of memory", verbs_context->info.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = verbs_context->devx->ops->umem_reg(verbs_context->devx, address, size, access_flags, fd, dmabuf_offset,
						 &u->devx_umem, &u->id);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot register a UMEM of %zu bytes at %p%s: %s", verbs_context->info.name, size,
			     address, fd >= 0 ? " (dmabuf)" : "", doca_error_get_descr(err));
		free(u);
		if (err == DOCA_ERROR_NOT_SUPPORTED || err == DOCA_ERROR_INVALID_VALUE || err == DOCA_ERROR_NO_MEMORY)
			return err;
		return DOCA_ERROR_DRIVER;
	}
	u->ctx = verbs_context;
	u->addr = address;
	u->size = size;
	verbs_ctx_child_add(verbs_context);
	*umem = u;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_umem_destroy(struct doca_verbs_umem *umem)
{
	OGDA_SDK_FORWARD(doca_verbs_umem_destroy, (umem));
	unsigned int users;
	doca_error_t err;

	if (umem == NULL) {
		OGDA_LOG_ERR("umem must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	users = atomic_load(&umem->users);
	if (users != 0) {
		OGDA_LOG_ERR("%s: UMEM 0x%x still holds %u queues or doorbell records", umem->ctx->info.name, umem->id,
			     users);
		return DOCA_ERROR_IN_USE;
	}
	err = umem->ctx->devx->ops->umem_dereg(umem->devx_umem);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot deregister UMEM 0x%x: %s", umem->ctx->info.name, umem->id,
			     doca_error_get_descr(err));
		return err == DOCA_ERROR_IN_USE ? err : DOCA_ERROR_DRIVER;
	}
	verbs_ctx_child_del(umem->ctx);
	free(umem);
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_umem_get_id(const struct doca_verbs_umem *umem, uint32_t *umem_id)
{
	OGDA_SDK_FORWARD(doca_verbs_umem_get_id, (umem, umem_id));
	if (umem == NULL || umem_id == NULL) {
		OGDA_LOG_ERR("umem and umem_id must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*umem_id = umem->id;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_umem_get_size(const struct doca_verbs_umem *umem, size_t *umem_size)
{
	OGDA_SDK_FORWARD(doca_verbs_umem_get_size, (umem, umem_size));
	if (umem == NULL || umem_size == NULL) {
		OGDA_LOG_ERR("umem and umem_size must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*umem_size = umem->size;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_umem_get_address(const struct doca_verbs_umem *umem, void **umem_address)
{
	OGDA_SDK_FORWARD(doca_verbs_umem_get_address, (umem, umem_address));
	if (umem == NULL || umem_address == NULL) {
		OGDA_LOG_ERR("umem and umem_address must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*umem_address = umem->addr;
	return DOCA_SUCCESS;
}

/* ---- UAR ---- */

doca_error_t doca_verbs_uar_create(struct doca_verbs_context *verbs_context,
				   enum doca_verbs_uar_allocation_type allocation_type, struct doca_verbs_uar **uar)
{
	OGDA_SDK_FORWARD(doca_verbs_uar_create, (verbs_context, allocation_type, uar));
	struct doca_verbs_uar *u;
	enum ogda_devx_uar_type type;
	doca_error_t err;

	if (verbs_context == NULL || uar == NULL) {
		OGDA_LOG_ERR("verbs_context and uar must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	switch (allocation_type) {
	case DOCA_VERBS_UAR_ALLOCATION_TYPE_BLUEFLAME:
		type = OGDA_DEVX_UAR_BF;
		break;
	case DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE:
		type = OGDA_DEVX_UAR_NC;
		break;
	case DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE_DEDICATED:
		type = OGDA_DEVX_UAR_NC_DEDICATED;
		break;
	default:
		OGDA_LOG_ERR("%s: UAR allocation type %d is not BLUEFLAME, NONCACHE or NONCACHE_DEDICATED",
			     verbs_context->info.name, (int)allocation_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	u = calloc(1, sizeof(*u));
	if (u == NULL) {
		OGDA_LOG_ERR("%s: out of memory", verbs_context->info.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = verbs_context->devx->ops->uar_alloc(verbs_context->devx, type, &u->devx_uar, &u->info);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot allocate a UAR of type %d: %s", verbs_context->info.name,
			     (int)allocation_type, doca_error_get_descr(err));
		free(u);
		if (err == DOCA_ERROR_NOT_SUPPORTED || err == DOCA_ERROR_NO_MEMORY)
			return err;
		return DOCA_ERROR_DRIVER;
	}
	u->ctx = verbs_context;
	u->type = allocation_type;
	verbs_ctx_child_add(verbs_context);
	*uar = u;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_uar_destroy(struct doca_verbs_uar *uar)
{
	OGDA_SDK_FORWARD(doca_verbs_uar_destroy, (uar));
	unsigned int users;
	doca_error_t err;

	if (uar == NULL) {
		OGDA_LOG_ERR("uar must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	users = atomic_load(&uar->users);
	if (users != 0) {
		OGDA_LOG_ERR("%s: UAR page 0x%x is still used by %u CQs or QPs", uar->ctx->info.name, uar->info.page_id,
			     users);
		return DOCA_ERROR_IN_USE;
	}
	err = uar->ctx->devx->ops->uar_free(uar->devx_uar);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot free UAR page 0x%x: %s", uar->ctx->info.name, uar->info.page_id,
			     doca_error_get_descr(err));
		return err == DOCA_ERROR_IN_USE ? err : DOCA_ERROR_DRIVER;
	}
	verbs_ctx_child_del(uar->ctx);
	free(uar);
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_uar_id_get(const struct doca_verbs_uar *uar, uint32_t *uar_id)
{
	OGDA_SDK_FORWARD(doca_verbs_uar_id_get, (uar, uar_id));
	if (uar == NULL || uar_id == NULL) {
		OGDA_LOG_ERR("uar and uar_id must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*uar_id = uar->info.page_id;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_uar_reg_addr_get(const struct doca_verbs_uar *uar, void **reg_addr)
{
	OGDA_SDK_FORWARD(doca_verbs_uar_reg_addr_get, (uar, reg_addr));
	if (uar == NULL || reg_addr == NULL) {
		OGDA_LOG_ERR("uar and reg_addr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*reg_addr = uar->info.reg_addr;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_uar_dbr_less_addr_get(const struct doca_verbs_uar *uar, void **dbr_less_addr)
{
	OGDA_SDK_FORWARD(doca_verbs_uar_dbr_less_addr_get, (uar, dbr_less_addr));
	if (uar == NULL || dbr_less_addr == NULL) {
		OGDA_LOG_ERR("uar and dbr_less_addr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*dbr_less_addr = (uint8_t *)uar->info.base_addr + OPENGDA_MLX5_UAR_DBR_LESS_OFFSET;
	return DOCA_SUCCESS;
}
