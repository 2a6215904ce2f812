/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mlx5dv DevX on the software NIC: the PRM command bytes a program builds go unchanged to the
 * NIC's command executor (the software NIC device's ops, src/devx/sw.c), exactly where a
 * ConnectX's firmware would get them from the kernel. Errors follow the kernel's DevX
 * convention: a command the device executed with a bad status fails with EREMOTEIO and the
 * out mailbox carries status and syndrome; bad arguments are EINVAL.
 *
 * Event channels deliver what the NIC raises for subscribed objects as the kernel does
 * without OMIT_EV_DATA: the subscription's cookie, then a 64-byte EQE (byte 1 event type;
 * the object number at EQE byte 32 for a CQ error, byte 56 otherwise).
 */
#include "rdmacore_front/front.h"
#include "rdmacore_front/front_dv.h"

#include "core/bytes.h"
#include "core/log.h"
#include "prm/prm_cmd.h"
#include "verbs/verbs_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#define EQE_SIZE 64u
#define EQE_TYPE_BYTE 1u
#define EQE_CQ_ERROR_CQN 32u
#define EQE_OBJ_NUM 56u
#define MAX_EVENT_TYPES 16u
/* rdma-core 50+ names it; older headers (44 here) lack it, programs built against newer ones pass it. */
#ifdef MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED
#define FRONT_UAR_NC_DEDICATED MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED
#else
#define FRONT_UAR_NC_DEDICATED (1u << 31)
#endif

struct mlx5dv_devx_obj {
	struct ogda_devx *dev;
	struct ogda_devx_obj *obj;
};

struct front_devx_umem {
	struct mlx5dv_devx_umem pub;  /* first: the program's pointer */
	struct ogda_devx *dev;
	struct ogda_devx_umem *umem;
};

struct front_devx_uar {
	struct mlx5dv_devx_uar pub;
	struct ogda_devx *dev;
	struct ogda_devx_uar *uar;
};

struct front_devx_channel {
	struct mlx5dv_devx_event_channel pub;
	struct ogda_devx *dev;
	struct ogda_devx_event_channel *ch;
};

static struct ogda_devx *ctx_devx(struct ibv_context *context)
{
	return front_ctx(context)->dctx->devx;
}

int front_devx_errno(doca_error_t err, const void *out, size_t outlen)
{
	uint8_t status = 0;

	if (err == DOCA_SUCCESS)
		return 0;
	if (out != NULL && outlen >= 8 && prm_cmd_out_status(out, outlen, &status, NULL) != DOCA_ERROR_INVALID_VALUE &&
	    status != 0)
		return EREMOTEIO;
	return front_errno(err);
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_general_cmd(struct ibv_context *context, const void *in, size_t inlen,
						    void *out, size_t outlen)
{
	struct ogda_devx *dev;

	if (context == NULL || in == NULL || out == NULL)
		return front_fail(EINVAL);
	dev = ctx_devx(context);
	return front_fail(front_devx_errno(dev->ops->general_cmd(dev, in, inlen, out, outlen), out, outlen));
}

FRONT_EXPORT struct mlx5dv_devx_obj *ogda_front_mlx5dv_devx_obj_create(struct ibv_context *context, const void *in,
								       size_t inlen, void *out, size_t outlen)
{
	struct mlx5dv_devx_obj *o;
	doca_error_t err;

	if (context == NULL || in == NULL || out == NULL) {
		errno = EINVAL;
		return NULL;
	}
	o = calloc(1, sizeof(*o));
	if (o == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	o->dev = ctx_devx(context);
	err = o->dev->ops->obj_create(o->dev, in, inlen, out, outlen, &o->obj);
	if (err != DOCA_SUCCESS) {
		errno = front_devx_errno(err, out, outlen);
		free(o);
		return NULL;
	}
	return o;
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
						   void *out, size_t outlen)
{
	if (obj == NULL || in == NULL || out == NULL)
		return front_fail(EINVAL);
	return front_fail(front_devx_errno(obj->dev->ops->obj_modify(obj->obj, in, inlen, out, outlen), out, outlen));
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
						  void *out, size_t outlen)
{
	if (obj == NULL || in == NULL || out == NULL)
		return front_fail(EINVAL);
	return front_fail(front_devx_errno(obj->dev->ops->obj_query(obj->obj, in, inlen, out, outlen), out, outlen));
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	doca_error_t err;

	if (obj == NULL)
		return front_fail(EINVAL);
	err = obj->dev->ops->obj_destroy(obj->obj);
	if (err != DOCA_SUCCESS) /* still in use: the object stays valid, as the kernel's EBUSY */
		return front_fail(front_errno(err));
	free(obj);
	return 0;
}

FRONT_EXPORT struct mlx5dv_devx_umem *ogda_front_mlx5dv_devx_umem_reg_ex(struct ibv_context *context,
									 struct mlx5dv_devx_umem_in *in)
{
	struct front_devx_umem *u;
	int fd = -1;
	doca_error_t err;

	if (context == NULL || in == NULL || (in->comp_mask & ~(uint64_t)MLX5DV_UMEM_MASK_DMABUF) != 0) {
		errno = EINVAL;
		return NULL;
	}
	if ((in->comp_mask & MLX5DV_UMEM_MASK_DMABUF) != 0)
		fd = in->dmabuf_fd;
	u = calloc(1, sizeof(*u));
	if (u == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	u->dev = ctx_devx(context);
	/* With a dmabuf, addr is the offset into it; the software NIC refuses dmabufs (EOPNOTSUPP). */
	err = u->dev->ops->umem_reg(u->dev, fd == -1 ? in->addr : NULL, in->size, in->access, fd,
				    fd == -1 ? 0 : (uint64_t)(uintptr_t)in->addr, &u->umem, &u->pub.umem_id);
	if (err != DOCA_SUCCESS) {
		free(u);
		errno = front_errno(err);
		return NULL;
	}
	return &u->pub;
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_umem_dereg(struct mlx5dv_devx_umem *umem)
{
	struct front_devx_umem *u = (struct front_devx_umem *)umem;
	doca_error_t err;

	if (u == NULL)
		return front_fail(EINVAL);
	err = u->dev->ops->umem_dereg(u->umem);
	if (err != DOCA_SUCCESS)
		return front_fail(front_errno(err));
	free(u);
	return 0;
}

FRONT_EXPORT struct mlx5dv_devx_uar *ogda_front_mlx5dv_devx_alloc_uar(struct ibv_context *context, uint32_t flags)
{
	struct ogda_devx_uar_info info;
	struct front_devx_uar *u;
	enum ogda_devx_uar_type type;
	doca_error_t err;

	if (context == NULL) {
		errno = EINVAL;
		return NULL;
	}
	switch (flags) {
	case MLX5DV_UAR_ALLOC_TYPE_BF:
		type = OGDA_DEVX_UAR_BF;
		break;
	case MLX5DV_UAR_ALLOC_TYPE_NC:
		type = OGDA_DEVX_UAR_NC;
		break;
	case FRONT_UAR_NC_DEDICATED:
		type = OGDA_DEVX_UAR_NC_DEDICATED;
		break;
	default:
		OGDA_LOG_ERR("mlx5dv_devx_alloc_uar: flags 0x%x name no UAR type", flags);
		errno = EINVAL;
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (u == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	u->dev = ctx_devx(context);
	err = u->dev->ops->uar_alloc(u->dev, type, &u->uar, &info);
	if (err != DOCA_SUCCESS) {
		free(u);
		errno = front_errno(err);
		return NULL;
	}
	u->pub.reg_addr = info.reg_addr;
	u->pub.base_addr = info.base_addr;
	u->pub.page_id = info.page_id;
	return &u->pub;
}

FRONT_EXPORT void ogda_front_mlx5dv_devx_free_uar(struct mlx5dv_devx_uar *uar)
{
	struct front_devx_uar *u = (struct front_devx_uar *)uar;

	if (u == NULL)
		return;
	if (u->dev->ops->uar_free(u->uar) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("mlx5dv_devx_free_uar: UAR page %u is still used by a CQ or QP; it stays allocated",
			     uar->page_id);
		return;
	}
	free(u);
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_query_eqn(struct ibv_context *context, uint32_t vector, uint32_t *eqn)
{
	struct ogda_devx *dev;

	if (context == NULL || eqn == NULL)
		return front_fail(EINVAL);
	dev = ctx_devx(context);
	return front_fail(front_errno(dev->ops->query_eqn(dev, vector, eqn)));
}

FRONT_EXPORT struct mlx5dv_devx_event_channel *ogda_front_mlx5dv_devx_create_event_channel(struct ibv_context *context,
											   int flags)
{
	struct front_devx_channel *c;
	doca_error_t err;

	if (context == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (flags != 0) {
		ogda_front_mlx5dv_unsupported("mlx5dv_devx_create_event_channel with OMIT_EV_DATA");
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	c->dev = ctx_devx(context);
	err = c->dev->ops->event_channel_create(c->dev, &c->ch, &c->pub.fd);
	if (err != DOCA_SUCCESS) {
		free(c);
		errno = front_errno(err);
		return NULL;
	}
	front_fd_make_blocking(c->pub.fd);
	return &c->pub;
}

FRONT_EXPORT void ogda_front_mlx5dv_devx_destroy_event_channel(struct mlx5dv_devx_event_channel *channel)
{
	struct front_devx_channel *c = (struct front_devx_channel *)channel;

	if (c == NULL)
		return;
	if (c->dev->ops->event_channel_destroy(c->ch) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("mlx5dv_devx_destroy_event_channel: the channel could not be destroyed");
		return;
	}
	free(c);
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_subscribe_devx_event(struct mlx5dv_devx_event_channel *channel,
							     struct mlx5dv_devx_obj *obj, uint16_t events_sz,
							     uint16_t events_num[], uint64_t cookie)
{
	struct front_devx_channel *c = (struct front_devx_channel *)channel;
	size_t n = events_sz / sizeof(uint16_t);

	if (c == NULL || events_num == NULL || n == 0 || n > MAX_EVENT_TYPES)
		return front_fail(EINVAL);
	if (obj == NULL) {
		ogda_front_mlx5dv_unsupported("mlx5dv_devx_subscribe_devx_event for unaffiliated events");
		return EOPNOTSUPP;
	}
	return front_fail(front_errno(c->dev->ops->event_subscribe(c->ch, obj->obj, events_num, n, cookie)));
}

FRONT_EXPORT ssize_t ogda_front_mlx5dv_devx_get_event(struct mlx5dv_devx_event_channel *channel,
						      struct mlx5dv_devx_async_event_hdr *event_data,
						      size_t event_resp_len)
{
	struct front_devx_channel *c = (struct front_devx_channel *)channel;
	struct ogda_devx_event ev;
	uint8_t *eqe;
	doca_error_t err;
	bool nonblock;

	if (c == NULL || event_data == NULL || event_resp_len < sizeof(*event_data) + EQE_SIZE) {
		errno = EINVAL;
		return -1;
	}
	nonblock = (fcntl(channel->fd, F_GETFL) & O_NONBLOCK) != 0;
	for (;;) {
		struct pollfd p = {.fd = channel->fd, .events = POLLIN};

		err = c->dev->ops->event_read(c->ch, &ev);
		if (err != DOCA_ERROR_AGAIN || nonblock)
			break;
		if (poll(&p, 1, -1) < 0 && errno != EINTR) /* a blocking fd waits, as read(2) on it would */
			return -1;
	}
	if (err != DOCA_SUCCESS) {
		errno = front_errno(err);
		return -1;
	}
	event_data->cookie = ev.cookie;
	eqe = event_data->out_data;
	memset(eqe, 0, EQE_SIZE);
	eqe[EQE_TYPE_BYTE] = ev.type;
	ogda_store_be32(eqe + (ev.type == OGDA_DEVX_EVENT_CQ_ERROR ? EQE_CQ_ERROR_CQN : EQE_OBJ_NUM),
			ev.obj_num & 0xffffffu);
	return (ssize_t)(sizeof(*event_data) + EQE_SIZE);
}
