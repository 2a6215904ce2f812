/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Devices: the software NICs of this process (OPENGDA_SWNIC_COUNT, default 1) under
 * libmlx5's names, mlx5_0 ... Nothing here looks at the machine's real RDMA devices: a
 * process started through opengda-swnic-run sees the software NICs only.
 */
#include "rdmacore_front/front.h"

#include "core/log.h"
#include "swnic/swnic.h"
#include "verbs/verbs_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#undef ibv_get_device_list

/* Devices live as long as the process (as rdma-core's do once listed). */
static struct front_device *devices;
static uint32_t ndevices;
static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

int front_errno(doca_error_t err)
{
	switch (err) {
	case DOCA_SUCCESS:
		return 0;
	case DOCA_ERROR_NO_MEMORY:
		return ENOMEM;
	case DOCA_ERROR_IN_USE:
		return EBUSY;
	case DOCA_ERROR_NOT_SUPPORTED:
		return EOPNOTSUPP;
	case DOCA_ERROR_AGAIN:
		return EAGAIN;
	case DOCA_ERROR_TIME_OUT:
		return ETIMEDOUT;
	case DOCA_ERROR_NOT_FOUND:
		return ENOENT;
	case DOCA_ERROR_INVALID_VALUE:
	case DOCA_ERROR_BAD_STATE:
		return EINVAL;
	default:
		return EIO;
	}
}

int front_fail(int e)
{
	errno = e;
	return e;
}

void front_fd_make_blocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags >= 0 && (flags & O_NONBLOCK) != 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
		OGDA_LOG_ERR("event fd %d: cannot clear O_NONBLOCK: %s", fd, strerror(errno));
}

void front_track(struct ibv_context *context, struct front_link *link, enum front_kind kind, void *obj)
{
	struct front_context *fc = front_ctx(context);

	link->kind = kind;
	link->obj = obj;
	pthread_mutex_lock(&fc->objs_lock);
	link->next = fc->objs.next;
	link->prev = &fc->objs;
	fc->objs.next->prev = link;
	fc->objs.next = link;
	pthread_mutex_unlock(&fc->objs_lock);
}

void front_untrack(struct ibv_context *context, struct front_link *link)
{
	struct front_context *fc = front_ctx(context);

	pthread_mutex_lock(&fc->objs_lock);
	link->prev->next = link->next;
	link->next->prev = link->prev;
	link->next = link->prev = link;
	pthread_mutex_unlock(&fc->objs_lock);
}

/* The first object of a kind the context still has (NULL when none). */
static void *first_of(struct front_context *fc, enum front_kind kind)
{
	void *obj = NULL;

	pthread_mutex_lock(&fc->objs_lock);
	for (struct front_link *l = fc->objs.next; l != &fc->objs; l = l->next) {
		if (l->kind == kind) {
			obj = l->obj;
			break;
		}
	}
	pthread_mutex_unlock(&fc->objs_lock);
	return obj;
}

static int destroy_obj(enum front_kind kind, void *obj)
{
	switch (kind) {
	case FRONT_QP:
		return ibv_destroy_qp(obj);
	case FRONT_AH:
		return ibv_destroy_ah(obj);
	case FRONT_SRQ:
		return ibv_destroy_srq(obj);
	case FRONT_CQ:
		return ibv_destroy_cq(obj);
	case FRONT_CH:
		return ibv_destroy_comp_channel(obj);
	case FRONT_MR:
		return ibv_dereg_mr(obj);
	case FRONT_PD:
		return ibv_dealloc_pd(obj);
	default:
		return EINVAL;
	}
}

/* What the program left behind goes, users before what they use, as the kernel cleans up. */
static int destroy_leftovers(struct front_context *fc)
{
	for (int k = 0; k < FRONT_NKINDS; k++) {
		void *obj;

		while ((obj = first_of(fc, (enum front_kind)k)) != NULL) {
			int e = destroy_obj((enum front_kind)k, obj);

			if (e != 0)
				return e;
			OGDA_LOG_DBG("%s: object of kind %d left open by the program destroyed at close",
				     fc->dev->ibv.name, k);
		}
	}
	return 0;
}

static void devices_init(void)
{
	uint32_t n = swnic_count();

	devices = n == 0 ? NULL : calloc(n, sizeof(*devices));
	if (devices == NULL)
		return;
	for (uint32_t i = 0; i < n; i++) {
		struct ibv_device *d = &devices[i].ibv;

		devices[i].swnic_index = i;
		d->node_type = IBV_NODE_CA;
		d->transport_type = IBV_TRANSPORT_IB;
		snprintf(d->name, sizeof(d->name), FRONT_DEV_PREFIX "%u", i);
		snprintf(d->dev_name, sizeof(d->dev_name), "uverbs%u", i);
		/* Paths that exist nowhere: sysfs readers find nothing and carry on. */
		snprintf(d->dev_path, sizeof(d->dev_path), "/nonexistent/opengda-swnic/uverbs%u", i);
		snprintf(d->ibdev_path, sizeof(d->ibdev_path), "/nonexistent/opengda-swnic/" FRONT_DEV_PREFIX "%u", i);
	}
	ndevices = n;
}

FRONT_EXPORT struct ibv_device **ibv_get_device_list(int *num_devices)
{
	struct ibv_device **list;

	pthread_once(&devices_once, devices_init);
	list = calloc((size_t)ndevices + 1, sizeof(*list));
	if (list == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	for (uint32_t i = 0; i < ndevices; i++)
		list[i] = &devices[i].ibv;
	if (num_devices != NULL)
		*num_devices = (int)ndevices;
	return list;
}

FRONT_EXPORT void ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

FRONT_EXPORT const char *ibv_get_device_name(struct ibv_device *device)
{
	if (device == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return device->name;
}

FRONT_EXPORT int ibv_get_device_index(struct ibv_device *device)
{
	if (device == NULL)
		return -1;
	return (int)((struct front_device *)device)->swnic_index;
}

/* A node GUID of libmlx5's vendor (0x0002c9) unique to this process and device, big-endian. */
static __be64 device_guid(const struct front_device *d)
{
	uint64_t g = 0x0002c90300000000ull | ((uint64_t)((uint32_t)getpid() & 0xffffffu) << 8) | (d->swnic_index & 0xff);

	return htobe64(g);
}

FRONT_EXPORT __be64 ibv_get_device_guid(struct ibv_device *device)
{
	if (device == NULL)
		return 0;
	return device_guid((struct front_device *)device);
}

static void ops_init(struct front_context *fc)
{
	struct ibv_context *c = &fc->vctx.context;

	c->ops.post_send = front_post_send;
	c->ops.post_recv = front_post_recv;
	c->ops.poll_cq = front_poll_cq;
	c->ops.req_notify_cq = front_req_notify_cq;
	c->ops.post_srq_recv = front_post_srq_recv;
	fc->vctx.query_port = front_query_port_op;
	fc->vctx.query_device_ex = front_query_device_ex_op;
	fc->vctx.create_qp_ex = front_create_qp_ex_op;
	fc->vctx.get_srq_num = front_get_srq_num_op;
	fc->vctx.create_cq_ex = front_create_cq_ex_op;
	fc->vctx.sz = sizeof(fc->vctx);
	c->abi_compat = __VERBS_ABI_IS_EXTENDED;
}

FRONT_EXPORT struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	struct front_device *d = (struct front_device *)device;
	struct doca_devinfo info;
	struct front_context *fc;
	doca_event_handle_t async_fd = -1;
	doca_error_t err;

	if (device == NULL || d < devices || d >= devices + ndevices) {
		OGDA_LOG_ERR("ibv_open_device: not a device of ibv_get_device_list()");
		errno = EINVAL;
		return NULL;
	}
	fc = calloc(1, sizeof(*fc));
	if (fc == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	memset(&info, 0, sizeof(info));
	info.swnic = true;
	info.swnic_index = d->swnic_index;
	snprintf(info.name, sizeof(info.name), "swnic%u", d->swnic_index);
	err = doca_verbs_context_create(&info, 0, &fc->dctx);
	if (err == DOCA_SUCCESS)
		err = opengda_verbs_context_get_async_handle(fc->dctx, &async_fd);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot open the software NIC: %s", device->name, doca_error_get_descr(err));
		if (fc->dctx != NULL)
			(void)doca_verbs_context_destroy(fc->dctx);
		free(fc);
		errno = front_errno(err);
		return NULL;
	}
	fc->dev = d;
	fc->vctx.context.device = device;
	fc->vctx.context.cmd_fd = -1;
	fc->vctx.context.async_fd = async_fd;
	front_fd_make_blocking(async_fd);
	fc->vctx.context.num_comp_vectors = 1;
	pthread_mutex_init(&fc->vctx.context.mutex, NULL);
	pthread_mutex_init(&fc->async_lock, NULL);
	pthread_mutex_init(&fc->objs_lock, NULL);
	fc->objs.next = fc->objs.prev = &fc->objs;
	ops_init(fc);
	if (front_read_device_attr(fc) != 0) {
		int e = errno;

		(void)doca_verbs_context_destroy(fc->dctx);
		free(fc);
		errno = e;
		return NULL;
	}
	fc->attr.node_guid = device_guid(d);
	fc->attr.sys_image_guid = fc->attr.node_guid;
	return &fc->vctx.context;
}

FRONT_EXPORT int ibv_close_device(struct ibv_context *context)
{
	struct front_context *fc;
	doca_error_t err;

	if (context == NULL)
		return front_fail(EINVAL);
	fc = front_ctx(context);
	if (destroy_leftovers(fc) != 0) {
		OGDA_LOG_ERR("%s: close refused: an object left open could not be destroyed", context->device->name);
		return front_fail(EBUSY);
	}
	err = doca_verbs_context_destroy(fc->dctx);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: close refused (objects still exist?): %s", context->device->name,
			     doca_error_get_descr(err));
		return front_fail(front_errno(err));
	}
	pthread_mutex_destroy(&fc->async_lock);
	pthread_mutex_destroy(&fc->objs_lock);
	pthread_mutex_destroy(&context->mutex);
	free(fc);
	return 0;
}

/* ---- fork hooks: the software NIC pins nothing, so fork needs no preparation ---- */

FRONT_EXPORT int ibv_fork_init(void)
{
	return 0;
}

FRONT_EXPORT enum ibv_fork_status ibv_is_fork_initialized(void)
{
	return IBV_FORK_UNNEEDED;
}

FRONT_EXPORT int ibv_dontfork_range(void *base, size_t size)
{
	(void)base;
	(void)size;
	return 0;
}

FRONT_EXPORT int ibv_dofork_range(void *base, size_t size)
{
	(void)base;
	(void)size;
	return 0;
}

/* ---- sysfs helpers (programs read attributes with them; plain file reads) ---- */

FRONT_EXPORT int ibv_get_sysfs_path(char *buf, size_t size)
{
	if (buf == NULL || size == 0)
		return -1;
	snprintf(buf, size, "/sys");
	return 0;
}

FRONT_EXPORT int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size)
{
	char path[512];
	ssize_t len;
	int fd;

	if (dir == NULL || file == NULL || buf == NULL || size == 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, size);
	close(fd);
	if (len <= 0)
		return -1;
	if ((size_t)len >= size)
		len = (ssize_t)size - 1;
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return (int)len;
}

FRONT_EXPORT int ibv_read_ibdev_sysfs_file(char *buf, size_t size, struct ibv_device *device, const char *fmt, ...)
{
	(void)buf;
	(void)size;
	(void)device;
	(void)fmt;
	return -1; /* a software NIC has no sysfs directory */
}
