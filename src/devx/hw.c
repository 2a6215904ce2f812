/* SPDX-License-Identifier: BSD-3-Clause */
/* The ConnectX device: open, import, close, device list, port / GID / EQ queries. */
#include "devx/hw.h"

#include "core/log.h"
#include "devx/hw_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers shared by the hw files ---- */

struct hw_dev *hw_dev_of(struct ogda_devx *dev)
{
	if (dev == NULL) {
		OGDA_LOG_ERR("dev must not be NULL");
		return NULL;
	}
	if (dev->ops != &ogda_hw_ops) {
		OGDA_LOG_ERR("%s is not a ConnectX device opened through rdma-core", dev->name);
		return NULL;
	}
	return (struct hw_dev *)dev;
}

bool hw_handle_ok(const void *handle, uint64_t tag, const char *what)
{
	uint64_t have;

	if (handle == NULL) {
		OGDA_LOG_ERR("%s must not be NULL", what);
		return false;
	}
	memcpy(&have, handle, sizeof(have));
	if (have != tag) {
		OGDA_LOG_ERR("%s %p does not belong to a ConnectX device (or was already released)", what, handle);
		return false;
	}
	return true;
}

void hw_dev_get(struct hw_dev *d)
{
	atomic_fetch_add(&d->refs, 1);
}

void hw_dev_put(struct hw_dev *d)
{
	if (atomic_fetch_sub(&d->refs, 1) != 1)
		return;
	if (d->ah_pd != NULL && d->rc->ibv.dealloc_pd != NULL && d->rc->ibv.dealloc_pd(d->ah_pd) != 0)
		OGDA_LOG_WARN("%s: ibv_dealloc_pd of the address-handle PD failed", d->base.name);
	pthread_mutex_destroy(&d->ah_lock);
	if (d->owns_ctx && d->rc->ibv.close_device != NULL && d->rc->ibv.close_device(d->ctx) != 0)
		OGDA_LOG_ERR("%s: ibv_close_device failed: %s", d->base.name, strerror(errno));
	d->tag = 0;
	free(d);
}

doca_error_t hw_need(const struct hw_dev *d, bool present, const char *symbol)
{
	if (present)
		return DOCA_SUCCESS;
	OGDA_LOG_ERR("%s: the loaded rdma-core has no %s", d != NULL ? d->base.name : "rdma-core", symbol);
	return DOCA_ERROR_NOT_SUPPORTED;
}

int hw_call_errno(int ret)
{
	if (ret > 0)
		return ret;
	return errno != 0 ? errno : EIO;
}

doca_error_t hw_driver_error(const struct hw_dev *d, const char *call, int err)
{
	OGDA_LOG_ERR("%s: %s failed: %s (errno %d)", d->base.name, call, strerror(err), err);
	return DOCA_ERROR_DRIVER;
}

/* ---- open / import / close ---- */

static doca_error_t dev_new(const struct ogda_rdma_core *rc, struct ibv_context *ctx, bool owns_ctx,
			    const char *name, struct ogda_devx **dev)
{
	struct hw_dev *d = calloc(1, sizeof(*d));

	if (d == NULL) {
		OGDA_LOG_ERR("%s: out of memory", name);
		return DOCA_ERROR_NO_MEMORY;
	}
	d->base.ops = &ogda_hw_ops;
	snprintf(d->base.name, sizeof(d->base.name), "%s", name);
	d->tag = HW_TAG_DEV;
	d->rc = rc;
	d->ctx = ctx;
	d->owns_ctx = owns_ctx;
	atomic_init(&d->refs, 1);
	pthread_mutex_init(&d->ah_lock, NULL);
	*dev = &d->base;
	return DOCA_SUCCESS;
}

static const char *device_name(const struct ogda_rdma_core *rc, struct ibv_device *device)
{
	const char *name = NULL;

	if (device != NULL && rc->ibv.get_device_name != NULL)
		name = rc->ibv.get_device_name(device);
	return name != NULL ? name : "mlx5";
}

static doca_error_t open_with(const struct ogda_rdma_core *rc, struct ibv_device *ibv_dev, struct ogda_devx **dev)
{
	struct mlx5dv_context_attr attr;
	const char *name = device_name(rc, ibv_dev);
	struct ibv_context *ctx;
	doca_error_t err;
	int e;

	if (rc->dv.is_supported == NULL || rc->dv.open_device == NULL) {
		OGDA_LOG_ERR("%s: the loaded rdma-core has no mlx5dv_is_supported / mlx5dv_open_device", name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (!rc->dv.is_supported(ibv_dev)) {
		OGDA_LOG_ERR("%s is not an mlx5 device", name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	memset(&attr, 0, sizeof(attr));
	attr.flags = MLX5DV_CONTEXT_FLAGS_DEVX;
	errno = 0;
	ctx = rc->dv.open_device(ibv_dev, &attr);
	if (ctx == NULL) {
		e = errno != 0 ? errno : EIO;
		OGDA_LOG_ERR("%s: mlx5dv_open_device(DEVX) failed: %s (errno %d)%s", name, strerror(e), e,
			     e == EOPNOTSUPP ? "; the kernel or device does not allow DevX" : "");
		return DOCA_ERROR_DRIVER;
	}
	err = dev_new(rc, ctx, true, name, dev);
	if (err != DOCA_SUCCESS && rc->ibv.close_device != NULL)
		rc->ibv.close_device(ctx);
	return err;
}

doca_error_t ogda_devx_hw_open_ibv_device(struct ibv_device *ibv_dev, struct ogda_devx **dev)
{
	const struct ogda_rdma_core *rc = NULL;
	doca_error_t err;

	if (ibv_dev == NULL || dev == NULL) {
		OGDA_LOG_ERR("ibv_dev and dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = ogda_rdma_core_get(&rc);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("rdma-core (libibverbs.so.1, libmlx5.so.1) is not available");
		return DOCA_ERROR_NOT_FOUND;
	}
	return open_with(rc, ibv_dev, dev);
}

doca_error_t ogda_devx_hw_open(const char *ibdev_name, struct ogda_devx **dev)
{
	const struct ogda_rdma_core *rc = NULL;
	struct ibv_device **list;
	doca_error_t err = DOCA_ERROR_NOT_FOUND;
	int n = 0;

	if (ibdev_name == NULL || dev == NULL) {
		OGDA_LOG_ERR("ibdev_name and dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ogda_rdma_core_get(&rc) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: rdma-core (libibverbs.so.1, libmlx5.so.1) is not available", ibdev_name);
		return DOCA_ERROR_NOT_FOUND;
	}
	if (rc->ibv.get_device_list == NULL || rc->ibv.free_device_list == NULL) {
		OGDA_LOG_ERR("%s: the loaded rdma-core cannot list devices", ibdev_name);
		return DOCA_ERROR_NOT_FOUND;
	}
	errno = 0;
	list = rc->ibv.get_device_list(&n);
	if (list == NULL) {
		OGDA_LOG_ERR("%s: no RDMA device (ibv_get_device_list: %s)", ibdev_name, strerror(errno));
		return DOCA_ERROR_NOT_FOUND;
	}
	for (int i = 0; i < n; i++) {
		if (strcmp(device_name(rc, list[i]), ibdev_name) == 0) {
			err = open_with(rc, list[i], dev);
			break;
		}
	}
	if (err == DOCA_ERROR_NOT_FOUND)
		OGDA_LOG_ERR("%s: rdma-core has no device of that name", ibdev_name);
	rc->ibv.free_device_list(list);
	return err;
}

doca_error_t ogda_devx_hw_import(struct ibv_context *ctx, struct ogda_devx **dev)
{
	const struct ogda_rdma_core *rc = NULL;

	if (ctx == NULL || dev == NULL) {
		OGDA_LOG_ERR("ctx and dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ogda_rdma_core_get(&rc) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("rdma-core (libibverbs.so.1, libmlx5.so.1) is not available to drive the imported context");
		return DOCA_ERROR_NOT_FOUND;
	}
	return dev_new(rc, ctx, false, device_name(rc, ctx->device), dev);
}

static void hw_close(struct ogda_devx *dev)
{
	struct hw_dev *d;

	if (dev == NULL)
		return;
	d = hw_dev_of(dev);
	if (d != NULL)
		hw_dev_put(d);
}

doca_error_t ogda_devx_hw_list(struct ogda_ibdev_entry *entries, size_t max, size_t *count)
{
	const char *why = NULL;
	doca_error_t err = ogda_ibdev_list_mlx5(entries, max, count, &why);

	if (err == DOCA_SUCCESS && *count == 0 && why != NULL)
		OGDA_LOG_DBG("no ConnectX device: %s", why);
	return err;
}

/* ---- accessors ---- */

struct ibv_context *ogda_devx_hw_ibv_context(const struct ogda_devx *dev)
{
	if (dev == NULL || dev->ops != &ogda_hw_ops)
		return NULL;
	return ((const struct hw_dev *)dev)->ctx;
}

struct ibv_pd *ogda_devx_hw_ibv_pd(const struct ogda_devx_pd *pd)
{
	uint64_t tag;

	if (pd == NULL)
		return NULL;
	memcpy(&tag, pd, sizeof(tag));
	return tag == HW_TAG_PD ? pd->pd : NULL;
}

bool ogda_devx_is_hw(const struct ogda_devx *dev)
{
	return dev != NULL && dev->ops == &ogda_hw_ops;
}

bool ogda_devx_is_front(const struct ogda_devx *dev)
{
	const struct ogda_ibv *v = NULL;

	return ogda_devx_is_hw(dev) && ogda_ibv_get(&v) == DOCA_SUCCESS && v->opengda_front != NULL;
}

bool ogda_devx_host_queues_only(const struct ogda_devx *dev)
{
	return !ogda_devx_is_hw(dev) || ogda_devx_is_front(dev);
}

/* ---- port, GID, EQ ---- */

static doca_error_t port_attr(struct hw_dev *d, uint8_t port, struct ibv_port_attr *pa)
{
	doca_error_t err = hw_need(d, d->rc->ibv.query_port != NULL, "ibv_query_port");
	int ret;

	if (err != DOCA_SUCCESS)
		return err;
	if (port == 0) {
		OGDA_LOG_ERR("%s: port numbers start at 1", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(pa, 0, sizeof(*pa));
	errno = 0;
	ret = d->rc->ibv.query_port(d->ctx, port, pa);
	if (ret != 0)
		return hw_driver_error(d, "ibv_query_port", hw_call_errno(ret));
	return DOCA_SUCCESS;
}

static doca_error_t hw_query_port(struct ogda_devx *dev, uint8_t port, struct ogda_devx_port_attr *attr)
{
	struct hw_dev *d = hw_dev_of(dev);
	struct ibv_port_attr pa;
	doca_error_t err;

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (attr == NULL) {
		OGDA_LOG_ERR("%s: attr must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = port_attr(d, port, &pa);
	if (err != DOCA_SUCCESS)
		return err;
	memset(attr, 0, sizeof(*attr));
	attr->state = (uint8_t)pa.state;
	attr->max_mtu = (uint8_t)pa.max_mtu;
	attr->active_mtu = (uint8_t)pa.active_mtu;
	/* rdma-core reports IBV_LINK_LAYER_UNSPECIFIED (0) for InfiniBand on old kernels. */
	attr->link_layer = pa.link_layer == IBV_LINK_LAYER_ETHERNET ? OGDA_LINK_LAYER_ETHERNET
								   : OGDA_LINK_LAYER_INFINIBAND;
	attr->lid = pa.lid;
	attr->gid_tbl_len = pa.gid_tbl_len > 0 ? (uint32_t)pa.gid_tbl_len : 0;
	return DOCA_SUCCESS;
}

static doca_error_t hw_query_gid(struct ogda_devx *dev, uint8_t port, uint32_t index, uint8_t gid[16])
{
	struct hw_dev *d = hw_dev_of(dev);
	struct ibv_port_attr pa;
	union ibv_gid g;
	doca_error_t err;
	int ret;

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (gid == NULL) {
		OGDA_LOG_ERR("%s: gid must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = hw_need(d, d->rc->ibv.query_gid != NULL, "ibv_query_gid");
	if (err == DOCA_SUCCESS)
		err = port_attr(d, port, &pa);
	if (err != DOCA_SUCCESS)
		return err;
	if (pa.gid_tbl_len <= 0 || index >= (uint32_t)pa.gid_tbl_len) {
		OGDA_LOG_ERR("%s: GID index %u does not exist on port %u (the table has %d entries)", d->base.name,
			     index, port, pa.gid_tbl_len);
		return DOCA_ERROR_NOT_FOUND;
	}
	errno = 0;
	ret = d->rc->ibv.query_gid(d->ctx, port, (int)index, &g);
	if (ret != 0)
		return hw_driver_error(d, "ibv_query_gid", hw_call_errno(ret));
	memcpy(gid, g.raw, 16);
	return DOCA_SUCCESS;
}

static doca_error_t hw_query_eqn(struct ogda_devx *dev, uint32_t vector, uint32_t *eqn)
{
	struct hw_dev *d = hw_dev_of(dev);
	doca_error_t err;
	uint32_t n = 0;
	int ret;

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (eqn == NULL) {
		OGDA_LOG_ERR("%s: eqn must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = hw_need(d, d->rc->dv.devx_query_eqn != NULL, "mlx5dv_devx_query_eqn");
	if (err != DOCA_SUCCESS)
		return err;
	errno = 0;
	ret = d->rc->dv.devx_query_eqn(d->ctx, vector, &n);
	if (ret != 0)
		return hw_driver_error(d, "mlx5dv_devx_query_eqn", hw_call_errno(ret));
	*eqn = n;
	return DOCA_SUCCESS;
}

const struct ogda_devx_ops ogda_hw_ops = {
	.kind = "mlx5",
	.close = hw_close,
	.general_cmd = hw_general_cmd,
	.obj_create = hw_obj_create,
	.obj_modify = hw_obj_modify,
	.obj_query = hw_obj_query,
	.obj_destroy = hw_obj_destroy,
	.pd_alloc = hw_pd_alloc,
	.pd_free = hw_pd_free,
	.mr_reg = hw_mr_reg,
	.mr_dereg = hw_mr_dereg,
	.umem_reg = hw_umem_reg,
	.umem_dereg = hw_umem_dereg,
	.uar_alloc = hw_uar_alloc,
	.uar_free = hw_uar_free,
	.query_port = hw_query_port,
	.query_gid = hw_query_gid,
	.query_eqn = hw_query_eqn,
	.event_channel_create = hw_event_channel_create,
	.event_channel_destroy = hw_event_channel_destroy,
	.event_subscribe = hw_event_subscribe,
	.event_read = hw_event_read,
	.resolve_rmac = hw_resolve_rmac,
	.rx_root_attach = hw_rx_root_attach,
	.rx_root_detach = hw_rx_root_detach,
};
