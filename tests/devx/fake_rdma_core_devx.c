/* SPDX-License-Identifier: BSD-3-Clause */
/* The fake's DevX half: commands, objects, umems, UARs, EQ number, event channels. */
#include "fake_rdma_core_priv.h"

#include "core/bytes.h"
#include "prm/prm_cmd.h"
#include "prm/prm_destroy.h"
#include "swnic/swnic_ctl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct fake_umem {
	struct mlx5dv_devx_umem pub;
	struct fake_ctx *ctx;
	bool dmabuf;
};

struct fake_uar {
	struct mlx5dv_devx_uar pub;
	struct fake_ctx *ctx;
};

struct fake_sub {
	const struct mlx5dv_devx_obj *obj;
	uint64_t cookie;
	uint16_t types[16];
	size_t ntypes;
};

struct fake_pending {
	uint64_t cookie;
	uint8_t eqe[FAKE_EQE_SIZE];
};

struct fake_channel {
	struct mlx5dv_devx_event_channel pub;
	struct fake_sub subs[FAKE_MAX_SUBS];
	size_t nsubs;
	struct fake_pending pending[FAKE_MAX_PENDING];
	size_t head, count;
};

/* ---- commands ---- */

/*
 * Runs a recorded command on the software NIC. Returns 0, or the errno of a failed
 * command (EREMOTEIO with the out mailbox as the device wrote it; on an old kernel the
 * status's errno with the out mailbox as it was before the call).
 */
static int exec_cmd(struct fake_ctx *c, const void *in, size_t inlen, void *out, size_t outlen)
{
	uint8_t saved[PRM_CMD_HDR_SIZE];
	size_t keep = outlen < sizeof(saved) ? outlen : sizeof(saved);
	uint8_t status;

	if ((c->flags & MLX5DV_CONTEXT_FLAGS_DEVX) == 0)
		return EOPNOTSUPP; /* a context opened without DevX runs no DevX command */
	memcpy(saved, out, keep);
	(void)swnic_cmd_exec(c->nic, in, inlen, out, outlen);
	status = outlen > 0 ? ((uint8_t *)out)[0] : 0xff;
	if (status == PRM_STATUS_OK)
		return 0;
	if (fake.old_kernel) {
		memcpy(out, saved, keep);
		return fake_status_errno(status);
	}
	return EREMOTEIO;
}

static int fake_general_cmd(struct ibv_context *context, const void *in, size_t inlen, void *out, size_t outlen)
{
	int err;

	cmd_log_add(&fake.log, CMD_GENERAL, in, inlen, 0, 0);
	if (fake_take_failure(&err))
		return err;
	err = exec_cmd((struct fake_ctx *)context, in, inlen, out, outlen);
	errno = err;
	return err;
}

static struct mlx5dv_devx_obj *fake_obj_create(struct ibv_context *context, const void *in, size_t inlen, void *out,
					      size_t outlen)
{
	struct fake_ctx *c = (struct fake_ctx *)context;
	struct mlx5dv_devx_obj *o;
	uint16_t opcode = 0;
	int err;

	cmd_log_add(&fake.log, CMD_CREATE, in, inlen, 0, 0);
	if (fake_take_failure(&err))
		return NULL;
	(void)prm_cmd_in_peek(in, inlen, &opcode, NULL, NULL);
	err = exec_cmd(c, in, inlen, out, outlen);
	if (err != 0) {
		errno = err;
		return NULL;
	}
	o = calloc(1, sizeof(*o));
	if (o == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	o->ctx = c;
	o->create_opcode = opcode;
	if (prm_destroy_cmd_build(in, inlen, out, outlen, o->destroy_in, sizeof(o->destroy_in), &o->destroy_len,
				  &o->id) != DOCA_SUCCESS) {
		o->id = 0;
		o->destroy_len = 0;
	}
	fake_count(&fake.counts.objs, 1);
	return o;
}

static int obj_cmd(enum cmd_log_kind kind, struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out,
		   size_t outlen)
{
	int err;

	cmd_log_add(&fake.log, kind, in, inlen, 0, 0);
	if (fake_take_failure(&err))
		return err;
	err = exec_cmd(obj->ctx, in, inlen, out, outlen);
	errno = err;
	return err;
}

static int fake_obj_modify(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	return obj_cmd(CMD_MODIFY, obj, in, inlen, out, outlen);
}

static int fake_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	return obj_cmd(CMD_QUERY, obj, in, inlen, out, outlen);
}

/* The kernel runs the destroy command it kept at create; so does the fake. */
static int fake_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	uint8_t out[PRM_CMD_HDR_SIZE];
	int err;

	cmd_log_add(&fake.log, CMD_DESTROY, NULL, 0, (uint64_t)obj->create_opcode << 32 | obj->id, 0);
	if (fake_take_failure(&err))
		return err;
	if (obj->destroy_len == 0)
		return EINVAL;
	memset(out, 0, sizeof(out));
	(void)swnic_cmd_exec(obj->ctx->nic, obj->destroy_in, obj->destroy_len, out, sizeof(out));
	if (out[0] != PRM_STATUS_OK)
		return fake_status_errno(out[0]);
	fake_devx_forget_obj(obj);
	free(obj);
	fake_count(&fake.counts.objs, -1);
	return 0;
}

/* ---- umem ---- */

static struct mlx5dv_devx_umem *fake_umem_reg(struct ibv_context *context, void *addr, size_t size, uint32_t access)
{
	struct fake_ctx *c = (struct fake_ctx *)context;
	struct fake_umem *u;
	int err;

	cmd_log_add(&fake.log, CMD_UMEM_REG, NULL, 0, size, access);
	pthread_mutex_lock(&fake.lock);
	fake.last.umem_addr = addr;
	fake.last.umem_size = size;
	pthread_mutex_unlock(&fake.lock);
	if (fake_take_failure(&err))
		return NULL;
	u = calloc(1, sizeof(*u));
	if (u == NULL)
		return NULL;
	if (swnic_umem_register(c->nic, addr, size, access, &u->pub.umem_id) != DOCA_SUCCESS) {
		free(u);
		errno = EINVAL;
		return NULL;
	}
	u->ctx = c;
	fake_count(&fake.counts.umems, 1);
	return &u->pub;
}

/*
 * Only dmabuf registrations come this way; the software NIC cannot map them, so no data moves,
 * except for the one dmabuf a test backed with host memory (fake_rdma_core_set_dmabuf_backing).
 */
static struct mlx5dv_devx_umem *fake_umem_reg_ex(struct ibv_context *context, struct ogda_mlx5dv_umem_in *in)
{
	struct fake_umem *u;
	void *base;
	int err;

	cmd_log_add(&fake.log, CMD_UMEM_REG, NULL, 0, in->size, in->access);
	fake.last.umem_in = *in;
	if (fake_take_failure(&err))
		return NULL;
	if ((in->comp_mask & OGDA_MLX5DV_UMEM_MASK_DMABUF) == 0 || in->dmabuf_fd < 0) {
		errno = EINVAL;
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (u == NULL)
		return NULL;
	u->ctx = (struct fake_ctx *)context;
	pthread_mutex_lock(&fake.lock);
	base = in->dmabuf_fd == fake.backing_fd ? fake.backing_base : NULL;
	pthread_mutex_unlock(&fake.lock);
	if (base != NULL) {
		/* A backed dmabuf: the software NIC's umem of that host memory (addr is the offset). */
		if (swnic_umem_register(u->ctx->nic, (uint8_t *)base + (uintptr_t)in->addr, in->size, in->access,
					&u->pub.umem_id) != DOCA_SUCCESS) {
			free(u);
			errno = EINVAL;
			return NULL;
		}
		fake_count(&fake.counts.umems, 1);
		return &u->pub;
	}
	u->dmabuf = true;
	pthread_mutex_lock(&fake.lock);
	u->pub.umem_id = FAKE_DMABUF_UMEM_ID_BASE + fake.next_dmabuf_id++;
	pthread_mutex_unlock(&fake.lock);
	fake_count(&fake.counts.umems, 1);
	return &u->pub;
}

static int fake_umem_dereg(struct mlx5dv_devx_umem *umem)
{
	struct fake_umem *u = (struct fake_umem *)umem;
	doca_error_t derr;
	int err;

	cmd_log_add(&fake.log, CMD_UMEM_DEREG, NULL, 0, umem->umem_id, 0);
	if (fake_take_failure(&err))
		return err;
	if (!u->dmabuf) {
		derr = swnic_umem_deregister(u->ctx->nic, umem->umem_id);
		if (derr != DOCA_SUCCESS)
			return derr == DOCA_ERROR_IN_USE ? EBUSY : EINVAL;
	}
	free(u);
	fake_count(&fake.counts.umems, -1);
	return 0;
}

/* ---- UAR ---- */

static struct mlx5dv_devx_uar *fake_alloc_uar(struct ibv_context *context, uint32_t flags)
{
	struct fake_ctx *c = (struct fake_ctx *)context;
	enum ogda_devx_uar_type type;
	struct fake_uar *u;
	uint8_t *page = NULL;
	int err;

	fake.last.uar_flags = flags;
	if (flags == MLX5DV_UAR_ALLOC_TYPE_BF)
		type = OGDA_DEVX_UAR_BF;
	else if (flags == MLX5DV_UAR_ALLOC_TYPE_NC)
		type = OGDA_DEVX_UAR_NC;
	else
		type = OGDA_DEVX_UAR_NC_DEDICATED;
	cmd_log_add(&fake.log, CMD_UAR_ALLOC, NULL, 0, type, 0);
	if (fake_take_failure(&err))
		return NULL;
	if (type == OGDA_DEVX_UAR_NC_DEDICATED &&
	    (flags != OGDA_MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED || !fake.nc_dedicated)) {
		errno = EOPNOTSUPP; /* rdma-core before 45 refuses flags it does not know */
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (u == NULL)
		return NULL;
	if (swnic_uar_alloc(c->nic, type, &u->pub.page_id, &page) != DOCA_SUCCESS) {
		free(u);
		errno = ENOMEM;
		return NULL;
	}
	u->pub.base_addr = page;
	u->pub.reg_addr = page + SWNIC_UAR_DB_OFFSET;
	u->ctx = c;
	fake_count(&fake.counts.uars, 1);
	return &u->pub;
}

static void fake_free_uar(struct mlx5dv_devx_uar *uar)
{
	struct fake_uar *u = (struct fake_uar *)uar;

	cmd_log_add(&fake.log, CMD_UAR_FREE, NULL, 0, uar->page_id, 0);
	(void)swnic_uar_free(u->ctx->nic, uar->page_id);
	free(u);
	fake_count(&fake.counts.uars, -1);
}

static int fake_query_eqn(struct ibv_context *context, uint32_t vector, uint32_t *eqn)
{
	int err;

	(void)context;
	fake.last.eqn_vector = vector;
	if (fake_take_failure(&err))
		return err;
	if (vector != 0)
		return EINVAL;
	*eqn = SWNIC_EQN;
	return 0;
}

/* ---- event channels ---- */

static struct mlx5dv_devx_event_channel *fake_create_event_channel(struct ibv_context *context,
								   enum mlx5dv_devx_create_event_channel_flags flags)
{
	struct fake_channel *ch;
	int err, slot = -1;

	(void)context;
	fake.last.channel_flags = (int)flags;
	if (fake_take_failure(&err))
		return NULL;
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL)
		return NULL;
	/* Blocking, like rdma-core's channel fd: the caller makes it non-blocking if it wants. */
	ch->pub.fd = eventfd(0, EFD_CLOEXEC | EFD_SEMAPHORE);
	pthread_mutex_lock(&fake.lock);
	for (int i = 0; i < FAKE_MAX_CHANNELS && slot < 0; i++)
		if (fake.channels[i] == NULL)
			slot = i;
	if (slot >= 0 && ch->pub.fd >= 0)
		fake.channels[slot] = ch;
	pthread_mutex_unlock(&fake.lock);
	if (slot < 0 || ch->pub.fd < 0) {
		if (ch->pub.fd >= 0)
			close(ch->pub.fd);
		free(ch);
		errno = EMFILE;
		return NULL;
	}
	fake_count(&fake.counts.channels, 1);
	return &ch->pub;
}

static void fake_destroy_event_channel(struct mlx5dv_devx_event_channel *channel)
{
	struct fake_channel *ch = (struct fake_channel *)channel;

	pthread_mutex_lock(&fake.lock);
	for (int i = 0; i < FAKE_MAX_CHANNELS; i++)
		if (fake.channels[i] == ch)
			fake.channels[i] = NULL;
	pthread_mutex_unlock(&fake.lock);
	close(ch->pub.fd);
	free(ch);
	fake_count(&fake.counts.channels, -1);
}

static int fake_subscribe(struct mlx5dv_devx_event_channel *channel, struct mlx5dv_devx_obj *obj, uint16_t events_sz,
			  uint16_t events_num[], uint64_t cookie)
{
	struct fake_channel *ch = (struct fake_channel *)channel;
	size_t n = events_sz / sizeof(uint16_t);
	struct fake_sub *s;
	int err;

	fake.last.sub_cookie = cookie;
	fake.last.sub_events_sz = events_sz;
	fake.last.sub_obj_num = obj != NULL ? obj->id : 0;
	memset(fake.last.sub_types, 0, sizeof(fake.last.sub_types));
	memcpy(fake.last.sub_types, events_num, (n < 16 ? n : 16) * sizeof(uint16_t));
	if (fake_take_failure(&err))
		return err;
	if (obj == NULL || events_sz % sizeof(uint16_t) != 0 || n == 0 || n > 16)
		return EINVAL;
	pthread_mutex_lock(&fake.lock);
	if (ch->nsubs == FAKE_MAX_SUBS) {
		pthread_mutex_unlock(&fake.lock);
		return ENOSPC;
	}
	s = &ch->subs[ch->nsubs++];
	s->obj = obj;
	s->cookie = cookie;
	s->ntypes = n;
	memcpy(s->types, events_num, n * sizeof(uint16_t));
	pthread_mutex_unlock(&fake.lock);
	return 0;
}

static ssize_t fake_get_event(struct mlx5dv_devx_event_channel *channel, struct mlx5dv_devx_async_event_hdr *data,
			      size_t len)
{
	struct fake_channel *ch = (struct fake_channel *)channel;
	struct fake_pending p;
	uint64_t one;
	size_t n;
	int err;

	if (fake_take_failure(&err))
		return -1;
	pthread_mutex_lock(&fake.lock);
	if (ch->count == 0) {
		pthread_mutex_unlock(&fake.lock);
		errno = EAGAIN;
		return -1;
	}
	p = ch->pending[ch->head];
	ch->head = (ch->head + 1) % FAKE_MAX_PENDING;
	ch->count--;
	pthread_mutex_unlock(&fake.lock);
	if (read(ch->pub.fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		return -1;
	n = sizeof(*data) + FAKE_EQE_SIZE;
	if (len < n)
		n = len;
	data->cookie = p.cookie;
	if (n > sizeof(*data))
		memcpy(data->out_data, p.eqe, n - sizeof(*data));
	return (ssize_t)n;
}

void fake_devx_forget_obj(const struct mlx5dv_devx_obj *obj)
{
	pthread_mutex_lock(&fake.lock);
	for (int i = 0; i < FAKE_MAX_CHANNELS; i++) {
		struct fake_channel *ch = fake.channels[i];
		size_t k = 0;

		if (ch == NULL)
			continue;
		for (size_t j = 0; j < ch->nsubs; j++)
			if (ch->subs[j].obj != obj)
				ch->subs[k++] = ch->subs[j];
		ch->nsubs = k;
	}
	pthread_mutex_unlock(&fake.lock);
}

void fake_rdma_core_build_eqe(uint8_t type, uint32_t obj_num, uint8_t eqe[64])
{
	/* struct mlx5_eqe: type at byte 1, event data from byte 32. */
	const size_t data = 32;

	memset(eqe, 0xa5, FAKE_EQE_SIZE);
	eqe[0] = 0;
	eqe[1] = type;
	if (type == 0x04) /* CQ error: mlx5_eqe_cq_err.cqn at data byte 0 */
		ogda_store_be32(eqe + data, obj_num & 0xffffffu);
	else              /* mlx5_eqe_comp.cqn / mlx5_eqe_qp_srq.qp_srq_n at data byte 24 */
		ogda_store_be32(eqe + data + 24, obj_num & 0xffffffu);
}

int fake_rdma_core_raise_event(uint8_t type, uint32_t obj_num)
{
	struct fake_pending p;
	const uint64_t one = 1;
	int delivered = 0;

	fake_rdma_core_build_eqe(type, obj_num, p.eqe);
	pthread_mutex_lock(&fake.lock);
	for (int i = 0; i < FAKE_MAX_CHANNELS; i++) {
		struct fake_channel *ch = fake.channels[i];

		if (ch == NULL)
			continue;
		for (size_t j = 0; j < ch->nsubs; j++) {
			const struct fake_sub *s = &ch->subs[j];
			bool wanted = false;

			for (size_t t = 0; t < s->ntypes; t++)
				wanted = wanted || s->types[t] == type;
			if (s->obj->id != obj_num || !wanted || ch->count == FAKE_MAX_PENDING)
				continue;
			p.cookie = s->cookie;
			ch->pending[(ch->head + ch->count) % FAKE_MAX_PENDING] = p;
			ch->count++;
			if (write(ch->pub.fd, &one, sizeof(one)) == (ssize_t)sizeof(one))
				delivered++;
		}
	}
	pthread_mutex_unlock(&fake.lock);
	return delivered;
}

void fake_devx_fill(struct ogda_mlx5dv *dv)
{
	fake_flow_fill(dv);
	dv->devx_general_cmd = fake_general_cmd;
	dv->devx_obj_create = fake_obj_create;
	dv->devx_obj_modify = fake_obj_modify;
	dv->devx_obj_query = fake_obj_query;
	dv->devx_obj_destroy = fake_obj_destroy;
	dv->devx_umem_reg = fake_umem_reg;
	dv->devx_umem_reg_ex = fake_umem_reg_ex;
	dv->devx_umem_dereg = fake_umem_dereg;
	dv->devx_alloc_uar = fake_alloc_uar;
	dv->devx_free_uar = fake_free_uar;
	dv->devx_query_eqn = fake_query_eqn;
	dv->devx_create_event_channel = fake_create_event_channel;
	dv->devx_destroy_event_channel = fake_destroy_event_channel;
	dv->devx_subscribe_devx_event = fake_subscribe;
	dv->devx_get_event = fake_get_event;
}
