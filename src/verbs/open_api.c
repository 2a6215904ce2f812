/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The open releases' way of creating DOCA Verbs objects (doca_verbs_open_api.h): from a
 * struct ibv_context * (2.0) or from a doca_dev_t * opened on an ibv_pd (3.0).
 *
 * An ibv_context gets one shared DOCA Verbs context, imported on first use (the registry of
 * bridge_ctx.c, so an explicit doca_verbs_bridge_verbs_context_import() is shared too). Each
 * call pins it while it creates; the object made counts as its child; when the last child goes
 * (verbs_ctx_child_del) the context is released, with the ibv_pds imported into it for
 * set_pd calls. Those PDs are not children: init attributes that hold one pin the context
 * instead, so the context outlives every attribute and object that refers to them.
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "devx/hw.h"
#include "doca_verbs_bridge.h"

#include <infiniband/verbs.h>
#include <stdlib.h>

/* Serialises the PD lists of open-release contexts and their release. */
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

void verbs_open_unpin(struct doca_verbs_context **pin)
{
	struct doca_verbs_context *ctx = *pin;

	*pin = NULL;
	if (ctx != NULL)
		verbs_ctx_child_del(ctx);
}

void verbs_open_release_context(struct doca_verbs_context *ctx)
{
	struct verbs_open_pd *n;
	doca_error_t err;

	pthread_mutex_lock(&open_lock);
	while ((n = ctx->open_pds) != NULL) {
		ctx->open_pds = n->next;
		verbs_ctx_child_add(ctx); /* taken back by the destroy, as for internal UARs */
		err = doca_verbs_pd_destroy(n->pd);
		if (err != DOCA_SUCCESS)
			OGDA_LOG_ERR("%s: PD imported for an open-release call not freed: %s", ctx->info.name,
				     doca_error_get_descr(err));
		free(n);
	}
	pthread_mutex_unlock(&open_lock);
	err = doca_verbs_context_destroy(ctx);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: context imported for open-release calls not released: %s", ctx->info.name,
			     doca_error_get_descr(err));
}

static doca_error_t ctx_of_ibv(struct ibv_context *ibv_ctx, const char *what, struct doca_verbs_context **ctx)
{
	doca_error_t err;

	if (ibv_ctx == NULL) {
		OGDA_LOG_ERR("%s: ibv_context must not be NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = verbs_bridge_context_of(ibv_ctx, ctx);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: the ibv_context is not an mlx5 device with DevX: %s", what, doca_error_get_descr(err));
	return err;
}

/* The context of a doca_dev from doca_verbs_dev_open() (3.0), pinned like ctx_of_ibv's. */
static doca_error_t ctx_of_dev(struct doca_dev *dev, const char *what, struct doca_verbs_context **ctx)
{
	if (dev == NULL) {
		OGDA_LOG_ERR("%s: doca_dev must not be NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dev->pd == NULL) {
		OGDA_LOG_ERR("%s: %s was opened with doca_dev_open(); open-release calls take a device from "
			     "doca_verbs_dev_open()", what, dev->info.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*ctx = dev->pd->ctx;
	verbs_ctx_child_add(*ctx); /* the device is a child: the context cannot be closing */
	return DOCA_SUCCESS;
}

/* The PD imported into ctx for ibv_pd, imported now if it is not yet. */
static doca_error_t open_pd(struct doca_verbs_context *ctx, struct ibv_pd *ibpd, struct doca_verbs_pd **pd)
{
	struct verbs_open_pd *n;
	doca_error_t err = DOCA_SUCCESS;

	pthread_mutex_lock(&open_lock);
	for (n = ctx->open_pds; n != NULL && n->ibv_pd != ibpd; n = n->next)
		;
	if (n == NULL) {
		n = calloc(1, sizeof(*n));
		err = n == NULL ? DOCA_ERROR_NO_MEMORY : verbs_bridge_pd_import_into(ctx, ibpd, &n->pd);
		if (err == DOCA_SUCCESS) {
			verbs_ctx_child_del(ctx); /* not a child: attributes pin the context instead */
			n->ibv_pd = ibpd;
			n->next = ctx->open_pds;
			ctx->open_pds = n;
		} else {
			free(n);
			n = NULL;
		}
	}
	pthread_mutex_unlock(&open_lock);
	if (n != NULL)
		*pd = n->pd;
	return err;
}

/* Creation through a pinned context: the pin goes when the object (a child) exists, or failed. */
#define OPEN_CREATE(get_ctx, handle, what, call)                                                       \
	do {                                                                                           \
		struct doca_verbs_context *ctx;                                                        \
		doca_error_t err = get_ctx(handle, what, &ctx);                                       \
		if (err != DOCA_SUCCESS)                                                               \
			return err;                                                                    \
		err = call;                                                                            \
		verbs_ctx_child_del(ctx);                                                              \
		return err;                                                                            \
	} while (0)

doca_error_t opengda_open_ah_attr_create_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_ah_attr **verbs_ah)
{
	OPEN_CREATE(ctx_of_ibv, ibv_ctx, "doca_verbs_ah_attr_create", doca_verbs_ah_attr_create(ctx, verbs_ah));
}

doca_error_t opengda_open_qp_create_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_qp_init_attr *init_attr,
					struct doca_verbs_qp **verbs_qp)
{
	OPEN_CREATE(ctx_of_ibv, ibv_ctx, "doca_verbs_qp_create", doca_verbs_qp_create(ctx, init_attr, verbs_qp));
}

doca_error_t opengda_open_cq_create_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_cq_attr *cq_attr,
					struct doca_verbs_cq **verbs_cq)
{
	OPEN_CREATE(ctx_of_ibv, ibv_ctx, "doca_verbs_cq_create", doca_verbs_cq_create(ctx, cq_attr, verbs_cq));
}

doca_error_t opengda_open_srq_create_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_srq_init_attr *init_attr,
					 struct doca_verbs_srq **verbs_srq)
{
	OPEN_CREATE(ctx_of_ibv, ibv_ctx, "doca_verbs_srq_create", doca_verbs_srq_create(ctx, init_attr, verbs_srq));
}

doca_error_t opengda_open_query_device_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_device_attr **attr)
{
	OPEN_CREATE(ctx_of_ibv, ibv_ctx, "doca_verbs_query_device", doca_verbs_query_device(ctx, attr));
}

doca_error_t opengda_open_umem_create_ibv(struct ibv_context *ibv_ctx, void *address, size_t size,
					  uint32_t access_flags, int dmabuf_fd, size_t dmabuf_offset,
					  struct doca_verbs_umem **umem)
{
	OPEN_CREATE(ctx_of_ibv, ibv_ctx, "doca_verbs_umem_create",
		    doca_verbs_umem_create(ctx, address, size, access_flags, dmabuf_fd, dmabuf_offset, umem));
}

doca_error_t opengda_open_uar_create_ibv(struct ibv_context *ibv_ctx,
					 enum doca_verbs_uar_allocation_type allocation_type, struct doca_verbs_uar **uar)
{
	OPEN_CREATE(ctx_of_ibv, ibv_ctx, "doca_verbs_uar_create", doca_verbs_uar_create(ctx, allocation_type, uar));
}

doca_error_t opengda_open_ah_attr_create_dev(struct doca_dev *dev, struct doca_verbs_ah_attr **verbs_ah)
{
	OPEN_CREATE(ctx_of_dev, dev, "doca_verbs_ah_attr_create", doca_verbs_ah_attr_create(ctx, verbs_ah));
}

doca_error_t opengda_open_qp_create_dev(struct doca_dev *dev, struct doca_verbs_qp_init_attr *init_attr,
					struct doca_verbs_qp **verbs_qp)
{
	OPEN_CREATE(ctx_of_dev, dev, "doca_verbs_qp_create", doca_verbs_qp_create(ctx, init_attr, verbs_qp));
}

doca_error_t opengda_open_cq_create_dev(struct doca_dev *dev, struct doca_verbs_cq_attr *cq_attr,
					struct doca_verbs_cq **verbs_cq)
{
	OPEN_CREATE(ctx_of_dev, dev, "doca_verbs_cq_create", doca_verbs_cq_create(ctx, cq_attr, verbs_cq));
}

doca_error_t opengda_open_srq_create_dev(struct doca_dev *dev, struct doca_verbs_srq_init_attr *init_attr,
					 struct doca_verbs_srq **verbs_srq)
{
	OPEN_CREATE(ctx_of_dev, dev, "doca_verbs_srq_create", doca_verbs_srq_create(ctx, init_attr, verbs_srq));
}

doca_error_t opengda_open_query_device_dev(struct doca_dev *dev, struct doca_verbs_device_attr **attr)
{
	OPEN_CREATE(ctx_of_dev, dev, "doca_verbs_query_device", doca_verbs_query_device(ctx, attr));
}

doca_error_t opengda_open_umem_create_dev(struct doca_dev *dev, struct doca_gpu *gpu, void *address, size_t size,
					  uint32_t access_flags, int dmabuf_fd, size_t dmabuf_offset,
					  struct doca_verbs_umem **umem)
{
	(void)gpu; /* the address tells host from GPU memory */
	OPEN_CREATE(ctx_of_dev, dev, "doca_verbs_umem_create",
		    doca_verbs_umem_create(ctx, address, size, access_flags, dmabuf_fd, dmabuf_offset, umem));
}

doca_error_t opengda_open_uar_create_dev(struct doca_dev *dev, enum doca_verbs_uar_allocation_type allocation_type,
					 struct doca_verbs_uar **uar)
{
	OPEN_CREATE(ctx_of_dev, dev, "doca_verbs_uar_create", doca_verbs_uar_create(ctx, allocation_type, uar));
}

/* ---- PDs ------------------------------------------------------------------------------------ */

/*
 * The PD of ibv_pd in the context of its ibv_context; the context stays pinned for the caller
 * (an init attribute keeps the pin while it holds the PD).
 */
doca_error_t verbs_open_pd_of_ibv(struct ibv_pd *ibpd, const char *what, struct doca_verbs_context **ctx,
				 struct doca_verbs_pd **pd)
{
	doca_error_t err;

	if (ibpd == NULL || ibpd->context == NULL) {
		OGDA_LOG_ERR("%s: ibv_pd (with its context) must not be NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = ctx_of_ibv(ibpd->context, what, ctx);
	if (err != DOCA_SUCCESS)
		return err;
	err = open_pd(*ctx, ibpd, pd);
	if (err != DOCA_SUCCESS)
		verbs_ctx_child_del(*ctx);
	return err;
}

doca_error_t opengda_open_qp_init_attr_set_pd_ibv(struct doca_verbs_qp_init_attr *init_attr, struct ibv_pd *ibpd)
{
	struct doca_verbs_context *ctx;
	struct doca_verbs_pd *pd;
	doca_error_t err;

	if (init_attr == NULL) {
		OGDA_LOG_ERR("doca_verbs_qp_init_attr_set_pd: init attributes must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = verbs_open_pd_of_ibv(ibpd, "doca_verbs_qp_init_attr_set_pd", &ctx, &pd);
	if (err != DOCA_SUCCESS)
		return err;
	err = doca_verbs_qp_init_attr_set_pd(init_attr, pd); /* drops an earlier pin */
	if (err != DOCA_SUCCESS) {
		verbs_ctx_child_del(ctx);
		return err;
	}
	init_attr->open_pin = ctx;
	return DOCA_SUCCESS;
}

doca_error_t opengda_open_srq_init_attr_set_pd_ibv(struct doca_verbs_srq_init_attr *init_attr, struct ibv_pd *ibpd)
{
	struct doca_verbs_context *ctx;
	struct doca_verbs_pd *pd;
	doca_error_t err;

	if (init_attr == NULL) {
		OGDA_LOG_ERR("doca_verbs_srq_init_attr_set_pd: init attributes must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = verbs_open_pd_of_ibv(ibpd, "doca_verbs_srq_init_attr_set_pd", &ctx, &pd);
	if (err != DOCA_SUCCESS)
		return err;
	err = doca_verbs_srq_init_attr_set_pd(init_attr, pd);
	if (err != DOCA_SUCCESS) {
		verbs_ctx_child_del(ctx);
		return err;
	}
	init_attr->open_pin = ctx;
	return DOCA_SUCCESS;
}

doca_error_t opengda_open_qp_init_attr_set_pd_dev(struct doca_verbs_qp_init_attr *init_attr, struct doca_dev *dev)
{
	if (dev == NULL || dev->pd == NULL) {
		OGDA_LOG_ERR("doca_verbs_qp_init_attr_set_pd: the doca_dev must come from doca_verbs_dev_open()");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return doca_verbs_qp_init_attr_set_pd(init_attr, dev->pd);
}

static struct ibv_pd *ibv_pd_of(const struct doca_verbs_pd *pd)
{
	return pd != NULL && pd->imported ? ogda_devx_hw_ibv_pd(pd->devx_pd) : NULL;
}

struct ibv_pd *opengda_open_qp_init_attr_get_pd_ibv(const struct doca_verbs_qp_init_attr *init_attr)
{
	return ibv_pd_of(doca_verbs_qp_init_attr_get_pd(init_attr));
}

struct ibv_pd *opengda_open_srq_init_attr_get_pd_ibv(const struct doca_verbs_srq_init_attr *init_attr)
{
	return ibv_pd_of(doca_verbs_srq_init_attr_get_pd(init_attr));
}

doca_error_t opengda_open_dev_open_ibv(struct ibv_pd *ibpd, struct doca_dev **dev)
{
	struct doca_verbs_context *ctx;
	struct doca_verbs_pd *pd;
	doca_error_t err;

	if (dev == NULL) {
		OGDA_LOG_ERR("doca_verbs_dev_open: dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = verbs_open_pd_of_ibv(ibpd, "doca_verbs_dev_open", &ctx, &pd);
	if (err != DOCA_SUCCESS)
		return err;
	err = doca_verbs_dev_open(pd, dev); /* the device counts as a child of ctx */
	verbs_ctx_child_del(ctx);
	return err;
}
