/* SPDX-License-Identifier: BSD-3-Clause */
#include "sw_record.h"

#include "prm/prm_cmd.h"
#include "swnic/swnic_random.h"

#include <pthread.h>
#include <string.h>

#define MAX_HANDLES 256

/* The numbers behind the handles the recorded ops returned (what a destroy names). */
struct handle_number {
	const void *handle;
	uint64_t number;
};

static const struct ogda_devx_ops *orig;
static struct ogda_devx_ops recording;
static struct cmd_log *rec_log;
static struct handle_number handles[MAX_HANDLES];
static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;

static void remember(const void *handle, uint64_t number)
{
	pthread_mutex_lock(&handles_lock);
	for (size_t i = 0; i < MAX_HANDLES; i++) {
		if (handles[i].handle == NULL) {
			handles[i].handle = handle;
			handles[i].number = number;
			break;
		}
	}
	pthread_mutex_unlock(&handles_lock);
}

static uint64_t number_of(const void *handle, bool forget)
{
	uint64_t n = 0;

	pthread_mutex_lock(&handles_lock);
	for (size_t i = 0; i < MAX_HANDLES; i++) {
		if (handles[i].handle == handle && handle != NULL) {
			n = handles[i].number;
			if (forget)
				handles[i].handle = NULL;
			break;
		}
	}
	pthread_mutex_unlock(&handles_lock);
	return n;
}

static doca_error_t rec_general_cmd(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen)
{
	cmd_log_add(rec_log, CMD_GENERAL, in, inlen, 0, 0);
	return orig->general_cmd(dev, in, inlen, out, outlen);
}

static doca_error_t rec_obj_create(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen,
				   struct ogda_devx_obj **obj)
{
	uint16_t opcode = 0;
	uint32_t id = 0;
	doca_error_t err;

	cmd_log_add(rec_log, CMD_CREATE, in, inlen, 0, 0);
	err = orig->obj_create(dev, in, inlen, out, outlen, obj);
	if (err == DOCA_SUCCESS && prm_cmd_in_peek(in, inlen, &opcode, NULL, NULL) == DOCA_SUCCESS &&
	    cmd_log_created_id(in, inlen, out, outlen, &id) == 0)
		remember(*obj, (uint64_t)opcode << 32 | id);
	return err;
}

static doca_error_t rec_obj_modify(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	cmd_log_add(rec_log, CMD_MODIFY, in, inlen, 0, 0);
	return orig->obj_modify(obj, in, inlen, out, outlen);
}

static doca_error_t rec_obj_query(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	cmd_log_add(rec_log, CMD_QUERY, in, inlen, 0, 0);
	return orig->obj_query(obj, in, inlen, out, outlen);
}

static doca_error_t rec_obj_destroy(struct ogda_devx_obj *obj)
{
	doca_error_t err;

	cmd_log_add(rec_log, CMD_DESTROY, NULL, 0, number_of(obj, false), 0);
	err = orig->obj_destroy(obj);
	if (err == DOCA_SUCCESS)
		(void)number_of(obj, true);
	return err;
}

static doca_error_t rec_pd_alloc(struct ogda_devx *dev, struct ogda_devx_pd **pd, uint32_t *pdn)
{
	doca_error_t err;

	cmd_log_add(rec_log, CMD_PD_ALLOC, NULL, 0, 0, 0);
	err = orig->pd_alloc(dev, pd, pdn);
	if (err == DOCA_SUCCESS)
		remember(*pd, *pdn);
	return err;
}

static doca_error_t rec_pd_free(struct ogda_devx_pd *pd)
{
	doca_error_t err;

	cmd_log_add(rec_log, CMD_PD_FREE, NULL, 0, number_of(pd, false), 0);
	err = orig->pd_free(pd);
	if (err == DOCA_SUCCESS)
		(void)number_of(pd, true);
	return err;
}

static doca_error_t rec_mr_reg(struct ogda_devx_pd *pd, void *addr, size_t len, uint32_t access, int dmabuf_fd,
			       uint64_t dmabuf_offset, struct ogda_devx_mr **mr, uint32_t *lkey, uint32_t *rkey)
{
	doca_error_t err;

	cmd_log_add(rec_log, CMD_MR_REG, NULL, 0, len, access);
	err = orig->mr_reg(pd, addr, len, access, dmabuf_fd, dmabuf_offset, mr, lkey, rkey);
	if (err == DOCA_SUCCESS)
		remember(*mr, *lkey);
	return err;
}

static doca_error_t rec_mr_dereg(struct ogda_devx_mr *mr)
{
	doca_error_t err;

	cmd_log_add(rec_log, CMD_MR_DEREG, NULL, 0, number_of(mr, false), 0);
	err = orig->mr_dereg(mr);
	if (err == DOCA_SUCCESS)
		(void)number_of(mr, true);
	return err;
}

static doca_error_t rec_umem_reg(struct ogda_devx *dev, void *addr, size_t len, uint32_t access, int dmabuf_fd,
				 uint64_t dmabuf_offset, struct ogda_devx_umem **umem, uint32_t *umem_id)
{
	doca_error_t err;

	cmd_log_add(rec_log, CMD_UMEM_REG, NULL, 0, len, access);
	err = orig->umem_reg(dev, addr, len, access, dmabuf_fd, dmabuf_offset, umem, umem_id);
	if (err == DOCA_SUCCESS)
		remember(*umem, *umem_id);
	return err;
}

static doca_error_t rec_umem_dereg(struct ogda_devx_umem *umem)
{
	doca_error_t err;

	cmd_log_add(rec_log, CMD_UMEM_DEREG, NULL, 0, number_of(umem, false), 0);
	err = orig->umem_dereg(umem);
	if (err == DOCA_SUCCESS)
		(void)number_of(umem, true);
	return err;
}

static doca_error_t rec_uar_alloc(struct ogda_devx *dev, enum ogda_devx_uar_type type, struct ogda_devx_uar **uar,
				  struct ogda_devx_uar_info *info)
{
	doca_error_t err;

	cmd_log_add(rec_log, CMD_UAR_ALLOC, NULL, 0, type, 0);
	err = orig->uar_alloc(dev, type, uar, info);
	if (err == DOCA_SUCCESS)
		remember(*uar, info->page_id);
	return err;
}

static doca_error_t rec_uar_free(struct ogda_devx_uar *uar)
{
	doca_error_t err;

	cmd_log_add(rec_log, CMD_UAR_FREE, NULL, 0, number_of(uar, false), 0);
	err = orig->uar_free(uar);
	if (err == DOCA_SUCCESS)
		(void)number_of(uar, true);
	return err;
}

static doca_error_t rec_resolve_rmac(struct ogda_devx *dev, uint8_t port, uint32_t sgid_index, const uint8_t dgid[16],
				     uint8_t mac[6])
{
	cmd_log_add(rec_log, CMD_RESOLVE, dgid, dgid != NULL ? 16 : 0, sgid_index, port);
	return orig->resolve_rmac(dev, port, sgid_index, dgid, mac);
}

void sw_record_wrap(struct ogda_devx *dev, struct cmd_log *log)
{
	orig = dev->ops;
	rec_log = log;
	memset(handles, 0, sizeof(handles));
	recording = *orig; /* close, queries and events run unrecorded */
	recording.general_cmd = rec_general_cmd;
	recording.obj_create = rec_obj_create;
	recording.obj_modify = rec_obj_modify;
	recording.obj_query = rec_obj_query;
	recording.obj_destroy = rec_obj_destroy;
	recording.pd_alloc = rec_pd_alloc;
	recording.pd_free = rec_pd_free;
	recording.mr_reg = rec_mr_reg;
	recording.mr_dereg = rec_mr_dereg;
	recording.umem_reg = rec_umem_reg;
	recording.umem_dereg = rec_umem_dereg;
	recording.uar_alloc = rec_uar_alloc;
	recording.uar_free = rec_uar_free;
	if (orig->resolve_rmac != NULL)
		recording.resolve_rmac = rec_resolve_rmac;
	dev->ops = &recording;
}

static uint64_t replay_state;

/* xorshift64: a fixed sequence, reset by sw_record_replay_random. */
static void replay_source(void *buf, size_t len)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++) {
		replay_state ^= replay_state << 13;
		replay_state ^= replay_state >> 7;
		replay_state ^= replay_state << 17;
		p[i] = (uint8_t)replay_state;
	}
}

void sw_record_replay_random(void)
{
	replay_state = 0x0123456789abcdefull;
	swnic_random_set_source(replay_source);
}
