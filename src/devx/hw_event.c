/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DevX event channels on a ConnectX. The channel is created without
 * MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA, so every event read carries the
 * cookie of its subscription followed by the 64-byte EQE that raised it; the EQE gives
 * the event type and the object it names.
 *
 * EQE layout (struct mlx5_eqe, reference/mlx5.md): byte 1 event_type, bytes 32..59 event
 * data. In the data: a completion event has the cqn at data byte 24; a CQ error has it at
 * data byte 0; QP and SRQ events (WQ_CATAS / WQ_INVAL_REQ / WQ_ACCESS / SRQ_CATAS) have
 * the qpn / srqn at data byte 24. Each is a big-endian word whose low 24 bits are the
 * number.
 */
#include "core/bytes.h"
#include "core/log.h"
#include "devx/hw_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#define EQE_SIZE 64u
#define EQE_TYPE_BYTE 1u
#define EQE_DATA 32u
#define EQE_CQ_ERROR_CQN (EQE_DATA + 0u)
#define EQE_OBJ_NUM (EQE_DATA + 24u)  /* comp.cqn, qp_srq.qp_srq_n */
#define EQE_NUM_MASK 0xffffffu
#define MAX_SUBSCRIBED_TYPES 16u

doca_error_t hw_event_channel_create(struct ogda_devx *dev, struct ogda_devx_event_channel **ch, int *fd)
{
	struct hw_dev *d = hw_dev_of(dev);
	struct ogda_devx_event_channel *c;
	doca_error_t err;
	int flags, e;

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (ch == NULL || fd == NULL) {
		OGDA_LOG_ERR("%s: ch and fd must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = hw_need(d, d->rc->dv.devx_create_event_channel != NULL && d->rc->dv.devx_destroy_event_channel != NULL,
		      "mlx5dv_devx_create_event_channel / mlx5dv_devx_destroy_event_channel");
	if (err != DOCA_SUCCESS)
		return err;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		OGDA_LOG_ERR("%s: out of memory", d->base.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	errno = 0;
	c->ch = d->rc->dv.devx_create_event_channel(d->ctx, 0); /* 0: keep the EQE data */
	if (c->ch == NULL) {
		free(c);
		return hw_driver_error(d, "mlx5dv_devx_create_event_channel", errno != 0 ? errno : EIO);
	}
	/* event_read never blocks: rdma-core's read follows the fd's O_NONBLOCK. */
	flags = fcntl(c->ch->fd, F_GETFL);
	if (flags < 0 || fcntl(c->ch->fd, F_SETFL, flags | O_NONBLOCK) != 0) {
		e = errno;
		d->rc->dv.devx_destroy_event_channel(c->ch);
		free(c);
		return hw_driver_error(d, "fcntl(O_NONBLOCK) on the event channel", e);
	}
	c->tag = HW_TAG_CH;
	c->dev = d;
	hw_dev_get(d);
	*ch = c;
	*fd = c->ch->fd;
	return DOCA_SUCCESS;
}

doca_error_t hw_event_channel_destroy(struct ogda_devx_event_channel *ch)
{
	struct hw_dev *d;

	if (!hw_handle_ok(ch, HW_TAG_CH, "ch"))
		return DOCA_ERROR_INVALID_VALUE;
	d = ch->dev;
	if (hw_need(d, d->rc->dv.devx_destroy_event_channel != NULL, "mlx5dv_devx_destroy_event_channel") !=
	    DOCA_SUCCESS)
		return DOCA_ERROR_NOT_SUPPORTED;
	d->rc->dv.devx_destroy_event_channel(ch->ch);
	ch->tag = 0;
	free(ch);
	hw_dev_put(d);
	return DOCA_SUCCESS;
}

/* The event types the device raises on an object of that kind. */
static bool type_fits(enum hw_obj_kind kind, uint16_t type)
{
	switch (type) {
	case OGDA_DEVX_EVENT_COMP:
	case OGDA_DEVX_EVENT_CQ_ERROR:
		return kind == HW_OBJ_CQ;
	case OGDA_DEVX_EVENT_WQ_CATAS_ERROR:
	case OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR:
	case OGDA_DEVX_EVENT_WQ_ACCESS_ERROR:
		return kind == HW_OBJ_QP;
	case OGDA_DEVX_EVENT_SRQ_CATAS_ERROR:
		return kind == HW_OBJ_RMP;
	default:
		return false;
	}
}

doca_error_t hw_event_subscribe(struct ogda_devx_event_channel *ch, struct ogda_devx_obj *obj,
				const uint16_t *types, size_t ntypes, uint64_t cookie)
{
	uint16_t list[MAX_SUBSCRIBED_TYPES];
	struct hw_dev *d;
	doca_error_t err;
	size_t i;
	int ret;

	if (!hw_handle_ok(ch, HW_TAG_CH, "ch") || !hw_handle_ok(obj, HW_TAG_OBJ, "obj"))
		return DOCA_ERROR_INVALID_VALUE;
	d = ch->dev;
	if (obj->dev != d) {
		OGDA_LOG_ERR("%s: the object belongs to %s, not to the channel's device", d->base.name,
			     obj->dev->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (types == NULL || ntypes == 0 || ntypes > MAX_SUBSCRIBED_TYPES) {
		OGDA_LOG_ERR("%s: subscribe to 1..%u event types (got %zu%s)", d->base.name, MAX_SUBSCRIBED_TYPES,
			     ntypes, types == NULL ? ", types NULL" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < ntypes; i++) {
		if (!type_fits(obj->kind, types[i])) {
			OGDA_LOG_ERR("%s: event type 0x%x is not raised on object 0x%x of this kind", d->base.name,
				     types[i], obj->id);
			return DOCA_ERROR_INVALID_VALUE;
		}
		list[i] = types[i];
	}
	err = hw_need(d, d->rc->dv.devx_subscribe_devx_event != NULL, "mlx5dv_devx_subscribe_devx_event");
	if (err != DOCA_SUCCESS)
		return err;
	errno = 0;
	ret = d->rc->dv.devx_subscribe_devx_event(ch->ch, obj->obj, (uint16_t)(ntypes * sizeof(list[0])), list,
						   cookie);
	if (ret != 0)
		return hw_driver_error(d, "mlx5dv_devx_subscribe_devx_event", hw_call_errno(ret));
	return DOCA_SUCCESS;
}

/* Fills ev from the EQE of a delivered event. */
static void decode_eqe(const uint8_t *eqe, struct ogda_devx_event *ev)
{
	ev->type = eqe[EQE_TYPE_BYTE];
	ev->syndrome = 0; /* EQEs carry no CQE syndrome */
	switch (ev->type) {
	case OGDA_DEVX_EVENT_CQ_ERROR:
		ev->obj_num = ogda_load_be32(eqe + EQE_CQ_ERROR_CQN) & EQE_NUM_MASK;
		break;
	case OGDA_DEVX_EVENT_COMP:
	case OGDA_DEVX_EVENT_WQ_CATAS_ERROR:
	case OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR:
	case OGDA_DEVX_EVENT_WQ_ACCESS_ERROR:
	case OGDA_DEVX_EVENT_SRQ_CATAS_ERROR:
		ev->obj_num = ogda_load_be32(eqe + EQE_OBJ_NUM) & EQE_NUM_MASK;
		break;
	default:
		ev->obj_num = 0;
		break;
	}
}

doca_error_t hw_event_read(struct ogda_devx_event_channel *ch, struct ogda_devx_event *ev)
{
	/* The cookie header, then the EQE; uint64_t keeps the header's alignment. */
	uint64_t buf[(sizeof(struct mlx5dv_devx_async_event_hdr) + EQE_SIZE + 7) / 8];
	struct mlx5dv_devx_async_event_hdr *hdr = (struct mlx5dv_devx_async_event_hdr *)(void *)buf;
	const size_t want = sizeof(*hdr) + EQE_SIZE;
	struct hw_dev *d;
	ssize_t n;
	int e;

	if (!hw_handle_ok(ch, HW_TAG_CH, "ch"))
		return DOCA_ERROR_INVALID_VALUE;
	d = ch->dev;
	if (ev == NULL) {
		OGDA_LOG_ERR("%s: ev must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (hw_need(d, d->rc->dv.devx_get_event != NULL, "mlx5dv_devx_get_event") != DOCA_SUCCESS)
		return DOCA_ERROR_NOT_SUPPORTED;
	memset(buf, 0, sizeof(buf));
	errno = 0;
	n = d->rc->dv.devx_get_event(ch->ch, hdr, sizeof(buf));
	if (n < 0) {
		e = errno != 0 ? errno : EIO;
		if (e == EAGAIN || e == EWOULDBLOCK)
			return DOCA_ERROR_AGAIN;
		return hw_driver_error(d, "mlx5dv_devx_get_event", e);
	}
	if ((size_t)n < want) {
		OGDA_LOG_ERR("%s: mlx5dv_devx_get_event returned %zd bytes, an event with its EQE is %zu",
			     d->base.name, n, want);
		return DOCA_ERROR_DRIVER;
	}
	memset(ev, 0, sizeof(*ev));
	ev->cookie = hdr->cookie;
	decode_eqe(hdr->out_data, ev);
	return DOCA_SUCCESS;
}
