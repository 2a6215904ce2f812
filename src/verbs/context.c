/* SPDX-License-Identifier: BSD-3-Clause */
/* The DOCA Verbs context: an open device, its capabilities, port, GIDs and child accounting. */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VERBS_PORT 1u

doca_error_t verbs_cmd_result(doca_error_t err, const void *out, size_t outlen, const char *what)
{
	uint8_t status = 0;
	uint32_t syndrome = 0;

	if (err == DOCA_SUCCESS)
		return DOCA_SUCCESS;
	/* prm_cmd_out_status() maps a failed status to its doca_error_t; the fields are what counts. */
	if (out != NULL && outlen >= 8 && (prm_cmd_out_status(out, outlen, &status, &syndrome), status != 0))
		OGDA_LOG_ERR("%s: the device refused it: status %s (0x%x), syndrome 0x%x", what,
			     prm_cmd_status_name(status), status, syndrome);
	else
		OGDA_LOG_ERR("%s: %s", what, doca_error_get_descr(err));
	return err;
}

void verbs_ctx_child_add(struct doca_verbs_context *ctx)
{
	pthread_mutex_lock(&ctx->lock);
	ctx->nobjs++;
	pthread_mutex_unlock(&ctx->lock);
}

bool verbs_ctx_pin(struct doca_verbs_context *ctx)
{
	bool ok;

	pthread_mutex_lock(&ctx->lock);
	ok = !ctx->open_closing;
	if (ok)
		ctx->nobjs++;
	pthread_mutex_unlock(&ctx->lock);
	return ok;
}

void verbs_ctx_child_del(struct doca_verbs_context *ctx)
{
	bool release;

	pthread_mutex_lock(&ctx->lock);
	ctx->nobjs--;
	/* The closing flag makes this happen once: releasing drops children again. */
	release = ctx->open_import && ctx->nobjs == 0 && !ctx->open_closing;
	if (release)
		ctx->open_closing = true;
	pthread_mutex_unlock(&ctx->lock);
	if (release)
		verbs_open_release_context(ctx);
}

doca_error_t verbs_uar_create_internal(struct doca_verbs_context *ctx, struct doca_verbs_uar **uar)
{
	/* Uncached: the library rings with 8-byte doorbells, never BlueFlame copies. */
	doca_error_t err = doca_verbs_uar_create(ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, uar);

	if (err == DOCA_ERROR_NOT_SUPPORTED || err == DOCA_ERROR_DRIVER)
		err = doca_verbs_uar_create(ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_BLUEFLAME, uar);
	if (err == DOCA_SUCCESS)
		verbs_ctx_child_del(ctx); /* part of another object, not a child the user destroys */
	return err;
}

void verbs_uar_destroy_internal(struct doca_verbs_uar *uar)
{
	verbs_ctx_child_add(uar->ctx); /* taken back by the destroy */
	(void)doca_verbs_uar_destroy(uar);
}

static doca_error_t query_cap(struct doca_verbs_context *ctx, uint16_t type, uint8_t *out)
{
	uint8_t in[PRM_QUERY_HCA_CAP_IN_SIZE];
	struct prm_query_hca_cap_params p = {.cap_type = type, .current = PRM_HCA_CAP_CURRENT};
	doca_error_t err;

	err = prm_query_hca_cap_in_build(&p, in, sizeof(in));
	if (err != DOCA_SUCCESS)
		return err;
	memset(out, 0, PRM_QUERY_HCA_CAP_OUT_SIZE);
	err = ctx->devx->ops->general_cmd(ctx->devx, in, sizeof(in), out, PRM_QUERY_HCA_CAP_OUT_SIZE);
	return verbs_cmd_result(err, out, PRM_QUERY_HCA_CAP_OUT_SIZE, "QUERY_HCA_CAP");
}

/* Reads the capability pages and derives the limits DOCA reports. */
static doca_error_t load_caps(struct doca_verbs_context *ctx)
{
	struct verbs_caps *c = &ctx->caps;
	uint8_t *out = malloc(PRM_QUERY_HCA_CAP_OUT_SIZE);
	doca_error_t err;

	if (out == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = query_cap(ctx, PRM_HCA_CAP_GENERAL, out);
	if (err == DOCA_SUCCESS)
		err = prm_hca_cap_general_parse(out, PRM_QUERY_HCA_CAP_OUT_SIZE, &c->gen);
	if (err == DOCA_SUCCESS && c->gen.roce) {
		err = query_cap(ctx, PRM_HCA_CAP_ROCE, out);
		if (err == DOCA_SUCCESS)
			err = prm_hca_cap_roce_parse(out, PRM_QUERY_HCA_CAP_OUT_SIZE, &c->roce);
	}
	if (err == DOCA_SUCCESS && c->gen.hca_cap_2) {
		struct prm_hca_cap_general_2 g2;

		err = query_cap(ctx, PRM_HCA_CAP_GENERAL_2, out);
		if (err == DOCA_SUCCESS)
			err = prm_hca_cap_general_2_parse(out, PRM_QUERY_HCA_CAP_OUT_SIZE, &g2);
		if (err == DOCA_SUCCESS)
			c->no_dbr_ext = g2.send_dbr_mode_no_dbr_ext != 0;
	}
	free(out);
	if (err != DOCA_SUCCESS)
		return err;
	c->max_qp_wr = 1u << c->gen.log_max_qp_sz;
	/*
	 * A send WQE holds ctrl + remote address segments (32 B) before its data segments, and
	 * its size in 16-byte units must fit the 6-bit ds field (at most 63 units).
	 */
	{
		uint32_t wqe = c->gen.max_wqe_sz_sq < 63u * 16u ? c->gen.max_wqe_sz_sq : 63u * 16u;

		c->max_sge = wqe > 32u ? (wqe - 32u) / 16u : 1u;
	}
	c->max_cqe = 1u << c->gen.log_max_cq_sz;
	c->max_srq_wr = 1u << c->gen.log_max_srq_sz;
	/* A linked-list SRQ WQE starts with a 16 B next segment. */
	c->max_srq_sge = c->gen.max_wqe_sz_rq > 16u ? (c->gen.max_wqe_sz_rq - 16u) / 16u : 1u;
	return DOCA_SUCCESS;
}

static doca_error_t context_init(struct doca_verbs_context *ctx)
{
	doca_error_t err;

	err = load_caps(ctx);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot read the device capabilities", ctx->info.name);
		return DOCA_ERROR_DRIVER;
	}
	err = ctx->devx->ops->query_port(ctx->devx, VERBS_PORT, &ctx->port);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot query port %u: %s", ctx->info.name, VERBS_PORT, doca_error_get_descr(err));
		return DOCA_ERROR_DRIVER;
	}
	err = ctx->devx->ops->query_eqn(ctx->devx, 0, &ctx->eqn);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: no completion event queue: %s", ctx->info.name, doca_error_get_descr(err));
		return DOCA_ERROR_DRIVER;
	}
	err = ctx->devx->ops->event_channel_create(ctx->devx, &ctx->async_ch, &ctx->async_fd);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot create the async event channel: %s", ctx->info.name,
			     doca_error_get_descr(err));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

static void context_free(struct doca_verbs_context *ctx)
{
	if (ctx->async_ch != NULL)
		ctx->devx->ops->event_channel_destroy(ctx->async_ch);
	if (ctx->devx != NULL && !ctx->devx_borrowed)
		ctx->devx->ops->close(ctx->devx);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
}

static doca_error_t context_make(struct ogda_devx *devx, bool borrowed, const struct doca_devinfo *info,
				 struct doca_verbs_context **out)
{
	struct doca_verbs_context *ctx = calloc(1, sizeof(*ctx));
	doca_error_t err;

	if (ctx == NULL) {
		if (!borrowed)
			devx->ops->close(devx);
		OGDA_LOG_ERR("%s: out of memory", info->name);
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_mutex_init(&ctx->lock, NULL);
	ctx->devx = devx;
	ctx->devx_borrowed = borrowed;
	ctx->info = *info;
	ctx->async_fd = -1;
	ctx->next_cookie = 1;
	err = context_init(ctx);
	if (err != DOCA_SUCCESS) {
		context_free(ctx);
		return err;
	}
	OGDA_LOG_DBG("%s: context open (port MTU code %u, link layer %u)", info->name, ctx->port.active_mtu,
		     ctx->port.link_layer);
	*out = ctx;
	return DOCA_SUCCESS;
}

doca_error_t verbs_context_from_devx(struct ogda_devx *devx, const struct doca_devinfo *info,
				     struct doca_verbs_context **out)
{
	return context_make(devx, false, info, out);
}

doca_error_t verbs_context_borrow_devx(struct ogda_devx *devx, const struct doca_devinfo *info,
				       struct doca_verbs_context **out)
{
	return context_make(devx, true, info, out);
}

doca_error_t doca_verbs_context_create(struct doca_devinfo *devinfo, uint32_t flags,
				       struct doca_verbs_context **verbs_context)
{
	OGDA_SDK_FORWARD(doca_verbs_context_create, (devinfo, flags, verbs_context));
	struct ogda_devx *devx;
	doca_error_t err;

	if (devinfo == NULL || verbs_context == NULL) {
		OGDA_LOG_ERR("devinfo and verbs_context must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (flags != 0) {
		OGDA_LOG_ERR("%s: flags 0x%x: no context flag is defined (pass 0)", devinfo->name, flags);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = verbs_devinfo_open_devx(devinfo, &devx);
	if (err != DOCA_SUCCESS)
		return err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	return verbs_context_from_devx(devx, devinfo, verbs_context);
}

doca_error_t doca_verbs_context_destroy(struct doca_verbs_context *verbs_context)
{
	OGDA_SDK_FORWARD(doca_verbs_context_destroy, (verbs_context));
	struct doca_verbs_context *ctx = verbs_context;
	unsigned int n, unacked;

	if (ctx == NULL) {
		OGDA_LOG_ERR("verbs_context must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&ctx->lock);
	n = ctx->nobjs;
	unacked = ctx->async_unacked;
	pthread_mutex_unlock(&ctx->lock);
	if (n != 0 || unacked != 0) {
		OGDA_LOG_ERR("%s: context still has %u objects and %u unacknowledged async events; destroy them first",
			     ctx->info.name, n, unacked);
		return DOCA_ERROR_IN_USE;
	}
	if (ctx->default_uar != NULL)
		verbs_uar_destroy_internal(ctx->default_uar);
	if (ctx->ibv_ctx != NULL)
		verbs_bridge_forget_context(ctx);
	context_free(ctx);
	return DOCA_SUCCESS;
}

doca_error_t verbs_ctx_default_uar(struct doca_verbs_context *ctx, struct doca_verbs_uar **uar)
{
	doca_error_t err = DOCA_SUCCESS;

	pthread_mutex_lock(&ctx->lock);
	if (ctx->default_uar == NULL) {
		struct doca_verbs_uar *u;

		pthread_mutex_unlock(&ctx->lock); /* creating takes ctx->lock */
		err = verbs_uar_create_internal(ctx, &u);
		pthread_mutex_lock(&ctx->lock);
		if (err == DOCA_SUCCESS) {
			if (ctx->default_uar == NULL) {
				ctx->default_uar = u;
			} else { /* another thread made it meanwhile */
				pthread_mutex_unlock(&ctx->lock);
				verbs_uar_destroy_internal(u);
				pthread_mutex_lock(&ctx->lock);
			}
		}
	}
	*uar = ctx->default_uar;
	pthread_mutex_unlock(&ctx->lock);
	return err;
}

static enum doca_verbs_mtu_size mtu_from_ibv(uint8_t ibv_mtu)
{
	/* ibv_mtu: 1 = 256 ... 5 = 4096; DOCA: 0 = 256 ... 4 = 4096. */
	return ibv_mtu >= 1 && ibv_mtu <= 5 ? (enum doca_verbs_mtu_size)(ibv_mtu - 1) : DOCA_VERBS_MTU_SIZE_256_BYTES;
}

doca_error_t opengda_verbs_query_port(struct doca_verbs_context *verbs_context, uint16_t port_num,
				      struct opengda_port_attr *attr)
{
	struct ogda_devx_port_attr p;
	doca_error_t err;

	if (verbs_context == NULL || attr == NULL) {
		OGDA_LOG_ERR("verbs_context and attr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (port_num == 0 || port_num > 255) {
		OGDA_LOG_ERR("%s: port %u does not exist (ports count from 1)", verbs_context->info.name, port_num);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = verbs_context->devx->ops->query_port(verbs_context->devx, (uint8_t)port_num, &p);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot query port %u: %s", verbs_context->info.name, port_num,
			     doca_error_get_descr(err));
		return err == DOCA_ERROR_INVALID_VALUE ? err : DOCA_ERROR_DRIVER;
	}
	memset(attr, 0, sizeof(*attr));
	attr->state = p.state;
	attr->link_layer = p.link_layer == OGDA_LINK_LAYER_INFINIBAND ? OPENGDA_LINK_LAYER_INFINIBAND
								      : OPENGDA_LINK_LAYER_ETHERNET;
	attr->active_mtu = mtu_from_ibv(p.active_mtu);
	attr->max_mtu = mtu_from_ibv(p.max_mtu);
	attr->lid = p.lid;
	attr->gid_tbl_len = p.gid_tbl_len;
	return DOCA_SUCCESS;
}

doca_error_t opengda_verbs_query_gid(struct doca_verbs_context *verbs_context, uint16_t port_num, uint32_t gid_index,
				     struct doca_verbs_gid *gid)
{
	doca_error_t err;

	if (verbs_context == NULL || gid == NULL) {
		OGDA_LOG_ERR("verbs_context and gid must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (port_num == 0 || port_num > 255) {
		OGDA_LOG_ERR("%s: port %u does not exist (ports count from 1)", verbs_context->info.name, port_num);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (port_num == VERBS_PORT && gid_index >= verbs_context->port.gid_tbl_len) {
		OGDA_LOG_ERR("%s: GID index %u is beyond the table of %u entries", verbs_context->info.name, gid_index,
			     verbs_context->port.gid_tbl_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = verbs_context->devx->ops->query_gid(verbs_context->devx, (uint8_t)port_num, gid_index, gid->raw);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot read GID %u of port %u: %s", verbs_context->info.name, gid_index, port_num,
			     doca_error_get_descr(err));
		return err == DOCA_ERROR_INVALID_VALUE ? err : DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}
