/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_verbs_bridge.h, control part: contexts and PDs from libibverbs objects. A PD is
 * imported into the DOCA context that imported its ibv_context (found in a registry), or,
 * when there is none, into a private context made for it that goes away with the PD.
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "devx/hw.h"
#include "doca_verbs_bridge.h"
#include "sdk/sdk_forward.h"

#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct doca_verbs_context *imported;

static void registry_add(struct doca_verbs_context *ctx)
{
	pthread_mutex_lock(&registry_lock);
	ctx->next_imported = imported;
	imported = ctx;
	pthread_mutex_unlock(&registry_lock);
}

void verbs_bridge_forget_context(struct doca_verbs_context *ctx)
{
	pthread_mutex_lock(&registry_lock);
	for (struct doca_verbs_context **p = &imported; *p != NULL; p = &(*p)->next_imported) {
		if (*p == ctx) {
			*p = ctx->next_imported;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
}

/*
 * A shared (not private) context imported for @p ibv_ctx. With @p pin, only one that is not
 * being released, and it is pinned (counted as a child) before the registry lock is let go.
 */
static struct doca_verbs_context *registry_find_pin(struct ibv_context *ibv_ctx, bool pin)
{
	struct doca_verbs_context *found = NULL;

	pthread_mutex_lock(&registry_lock);
	for (struct doca_verbs_context *c = imported; c != NULL; c = c->next_imported) {
		if (c->ibv_ctx != ibv_ctx || c->private_import)
			continue;
		if (pin && !verbs_ctx_pin(c))
			continue;
		found = c;
		break;
	}
	pthread_mutex_unlock(&registry_lock);
	return found;
}

static void hw_devinfo(struct ogda_devx *devx, struct doca_devinfo *info)
{
	snprintf(info->name, sizeof(info->name), "%s", devx->name);
	info->swnic = false;
}

doca_error_t doca_verbs_bridge_verbs_context_create(struct ibv_device *ibv_dev, uint32_t flags,
						    struct doca_verbs_context **verbs_context)
{
	OGDA_SDK_FORWARD(doca_verbs_bridge_verbs_context_create, (ibv_dev, flags, verbs_context));
	struct ogda_devx *devx;
	struct doca_devinfo info;
	doca_error_t err;

	if (ibv_dev == NULL || verbs_context == NULL) {
		OGDA_LOG_ERR("ibv_dev and verbs_context must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (flags != 0) {
		OGDA_LOG_ERR("flags 0x%x: no context flag is defined (pass 0)", flags);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = ogda_devx_hw_open_ibv_device(ibv_dev, &devx);
	if (err != DOCA_SUCCESS)
		return err == DOCA_ERROR_NOT_SUPPORTED || err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	hw_devinfo(devx, &info);
	return verbs_context_from_devx(devx, &info, verbs_context);
}

static doca_error_t import_context(struct ibv_context *ibv_ctx, bool private_import, struct doca_verbs_context **out)
{
	struct ogda_devx *devx;
	struct doca_devinfo info;
	doca_error_t err;

	err = ogda_devx_hw_import(ibv_ctx, &devx);
	if (err != DOCA_SUCCESS)
		return err == DOCA_ERROR_NOT_SUPPORTED || err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	hw_devinfo(devx, &info);
	err = verbs_context_from_devx(devx, &info, out);
	if (err != DOCA_SUCCESS)
		return err;
	(*out)->ibv_ctx = ibv_ctx;
	(*out)->private_import = private_import;
	registry_add(*out);
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_bridge_verbs_context_import(struct ibv_context *ibv_ctx, uint32_t flags,
						    struct doca_verbs_context **verbs_context)
{
	OGDA_SDK_FORWARD(doca_verbs_bridge_verbs_context_import, (ibv_ctx, flags, verbs_context));
	if (ibv_ctx == NULL || verbs_context == NULL) {
		OGDA_LOG_ERR("ibv_ctx and verbs_context must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (flags != 0) {
		OGDA_LOG_ERR("flags 0x%x: no context flag is defined (pass 0)", flags);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return import_context(ibv_ctx, false, verbs_context);
}

doca_error_t verbs_bridge_context_of(struct ibv_context *ibv_ctx, struct doca_verbs_context **ctx)
{
	static pthread_mutex_t import_lock = PTHREAD_MUTEX_INITIALIZER;
	doca_error_t err = DOCA_SUCCESS;

	/* One import per ibv_context even when threads meet on its first use. */
	pthread_mutex_lock(&import_lock);
	*ctx = registry_find_pin(ibv_ctx, true);
	if (*ctx == NULL) {
		err = import_context(ibv_ctx, false, ctx);
		if (err == DOCA_SUCCESS) {
			(*ctx)->open_import = true;
			verbs_ctx_child_add(*ctx); /* the caller's pin */
		}
	}
	pthread_mutex_unlock(&import_lock);
	return err;
}

doca_error_t verbs_bridge_pd_import_into(struct doca_verbs_context *ctx, struct ibv_pd *pd,
					 struct doca_verbs_pd **verbs_pd)
{
	struct doca_verbs_pd *p = calloc(1, sizeof(*p));
	doca_error_t err;

	if (p == NULL) {
		OGDA_LOG_ERR("%s: out of memory", ctx->info.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = ogda_devx_hw_pd_import(ctx->devx, pd, &p->devx_pd, &p->pdn);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot import the ibv_pd: %s", ctx->info.name, doca_error_get_descr(err));
		free(p);
		return DOCA_ERROR_DRIVER;
	}
	p->ctx = ctx;
	p->imported = true;
	verbs_ctx_child_add(ctx);
	*verbs_pd = p;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_bridge_verbs_pd_import(struct ibv_pd *pd, struct doca_verbs_pd **verbs_pd)
{
	OGDA_SDK_FORWARD(doca_verbs_bridge_verbs_pd_import, (pd, verbs_pd));
	struct doca_verbs_context *ctx;
	struct doca_verbs_pd *p;
	bool made = false;
	doca_error_t err;

	if (pd == NULL || verbs_pd == NULL || pd->context == NULL) {
		OGDA_LOG_ERR("pd (with its context) and verbs_pd must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx = registry_find_pin(pd->context, true);
	if (ctx == NULL) {
		err = import_context(pd->context, true, &ctx);
		if (err != DOCA_SUCCESS)
			return err;
		made = true;
	}
	err = verbs_bridge_pd_import_into(ctx, pd, &p);
	if (!made)
		verbs_ctx_child_del(ctx); /* the lookup's pin; the PD now counts */
	if (err == DOCA_SUCCESS) {
		*verbs_pd = p;
		return DOCA_SUCCESS;
	}
	if (made)
		(void)doca_verbs_context_destroy(ctx);
	return err;
}

void verbs_bridge_pd_released(struct doca_verbs_context *ctx)
{
	unsigned int n;

	if (!ctx->private_import)
		return;
	pthread_mutex_lock(&ctx->lock);
	n = ctx->nobjs;
	pthread_mutex_unlock(&ctx->lock);
	if (n == 0)
		(void)doca_verbs_context_destroy(ctx);
}

struct ibv_pd *doca_verbs_bridge_verbs_pd_get_ibv_pd(const struct doca_verbs_pd *verbs_pd)
{
	OGDA_SDK_FORWARD(doca_verbs_bridge_verbs_pd_get_ibv_pd, (verbs_pd));
	struct ibv_pd *pd;

	if (verbs_pd == NULL) {
		OGDA_LOG_ERR("verbs_pd must not be NULL");
		return NULL;
	}
	pd = ogda_devx_hw_ibv_pd(verbs_pd->devx_pd);
	if (pd == NULL)
		OGDA_LOG_ERR("%s: a software NIC has no ibv_pd: register memory with opengda_mr_create()",
			     verbs_pd->ctx->info.name);
	return pd;
}
