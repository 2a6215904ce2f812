/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU data path of a doca_eth_txq: send tasks (doca_eth_txq_task_send) on a queue without
 * doca_ctx_set_datapath_on_gpu(), connected to a progress engine.
 *
 * The queue is the one txq_start.c builds, for a host handle of its own, so its device view is
 * host memory and a submit posts with the device C core exactly as host threads of the GPU data
 * path do (ogda_dev_eth_op_send: reserve one WQEBB, write ctrl + Ethernet segment with the
 * queue's checksum flags + one data segment, publish, ring). Every send is NOTIFY (a CQE always),
 * so CQE i completes WQE i, and doca_pe_progress() polls them in order with the same core
 * (ogda_dev_eth_poll_at) and runs each task's callback on the engine's thread.
 *
 * Room: the device core does not wait for free WQEBBs (ogda_dev_eth.h); the submit checks that
 * fewer than a ring's worth of sends are in flight and otherwise answers DOCA_ERROR_AGAIN at
 * once (progress the engine, then submit again). A ring is max(64, max_burst_size) WQEBBs, rounded up to a power of two.
 *
 * Errors: an error CQE fails its task with DOCA_ERROR_IO_FAILED (the syndrome is logged); the SQ
 * is then in error and later sends complete flushed, as errors: stop and start the queue. A stop
 * with tasks allocated leaves the queue STOPPING until they complete and are freed (ctx.c).
 *
 * Tasks are allocated, submitted, progressed and freed on the engine's thread (doca_pe.h), so
 * the pool and the ring take no lock.
 */
#include "eth/eth_priv.h"

#include "core/log.h"
#include "device/ogda_dev_eth.h"
#include "opengda_mlx5.h"

#include <stdlib.h>

struct doca_eth_txq_task_send {
	struct doca_task base; /* first: doca_eth_txq_task_send_as_doca_task */
	struct doca_buf *pkt;
	struct doca_eth_txq_task_send *next_free;
};

static struct doca_eth_txq_task_send *send_of(struct doca_task *task)
{
	return (struct doca_eth_txq_task_send *)(void *)task;
}

/* ---- start and stop ------------------------------------------------------------------------ */

doca_error_t eth_txq_cpu_prepare(struct doca_eth_txq *t)
{
	if (t->task_num == 0) {
		OGDA_LOG_ERR("eth_txq: no data path: call doca_eth_txq_task_send_set_conf() (CPU send tasks) or "
			     "doca_ctx_set_datapath_on_gpu() before starting");
		return DOCA_ERROR_BAD_STATE;
	}
	if (t->uar_on_cpu || t->completion_on_gpu) {
		OGDA_LOG_ERR("eth_txq: set_uar_on_cpu and set_completion_on_gpu are GPU data path options");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return core_ctx_cpu_datapath(&t->ctx, &t->res.cpu.host);
}

doca_error_t eth_txq_cpu_init(struct doca_eth_txq *t, uint32_t ring_size)
{
	struct eth_txq_cpu *c = &t->res.cpu;

	c->pool = calloc(t->task_num, sizeof(*c->pool));
	c->ring = calloc(ring_size, sizeof(*c->ring));
	if (c->pool == NULL || c->ring == NULL) {
		OGDA_LOG_ERR("eth_txq: out of memory for %u send tasks", t->task_num);
		return DOCA_ERROR_NO_MEMORY; /* eth_txq_cpu_release frees what was allocated */
	}
	c->mask = ring_size - 1u;
	c->posted = 0;
	c->done = 0;
	c->free = NULL;
	for (uint32_t i = t->task_num; i-- > 0;) {
		c->pool[i].next_free = c->free;
		c->free = &c->pool[i];
	}
	return DOCA_SUCCESS;
}

void eth_txq_cpu_release(struct doca_eth_txq *t)
{
	struct eth_txq_cpu *c = &t->res.cpu;

	free(c->pool);
	free(c->ring);
	if (c->host != NULL)
		(void)doca_gpu_destroy(c->host);
	*c = (struct eth_txq_cpu){0};
}

/* ---- submit and completion ----------------------------------------------------------------- */

/* The frame's address and key on the queue's device; INVALID_VALUE (logged) when it cannot be sent. */
static doca_error_t pkt_key(const struct doca_eth_txq *t, const struct doca_buf *pkt, uint32_t *mkey)
{
	if (pkt == NULL || pkt->refcount == 0) {
		OGDA_LOG_ERR("eth_txq: the send task has no packet, or its buffer was given back to its inventory");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (pkt->data_len == 0 || pkt->data_len > UINT32_MAX / 2) {
		OGDA_LOG_ERR("eth_txq: a frame of %zu bytes cannot be sent", pkt->data_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (pkt->mmap == NULL || doca_mmap_get_mkey(pkt->mmap, t->dev, mkey) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("eth_txq: the packet's mmap is not registered on %s (doca_mmap_add_dev)", core_dev_name(t->dev));
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t eth_txq_task_submit(struct doca_ctx *ctx, struct doca_task *task)
{
	struct doca_eth_txq *t = (struct doca_eth_txq *)ctx;
	struct doca_eth_txq_task_send *s = send_of(task);
	struct eth_txq_cpu *c = &t->res.cpu;
	uint32_t mkey = 0;
	uint64_t idx = 0;
	doca_error_t err = pkt_key(t, s->pkt, &mkey);

	if (err != DOCA_SUCCESS)
		return err;
	if (c->posted - c->done > c->mask) {
		OGDA_LOG_DBG("eth_txq: the send ring's %llu WQEBBs are all in flight: progress, then submit again",
			     (unsigned long long)(c->mask + 1u));
		return DOCA_ERROR_AGAIN;
	}
	c->ring[c->posted & c->mask] = s;
	ogda_dev_eth_op_send(t->res.handle, (uint64_t)(uintptr_t)s->pkt->data, opengda_mlx5_htobe32(mkey),
			     (uint32_t)s->pkt->data_len, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, OGDA_DEV_SHARE_EXCLUSIVE,
			     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, &idx);
	c->posted = idx + 1u; /* the queue's only poster: idx is c->posted */
	return DOCA_SUCCESS;
}

void eth_txq_task_release(struct doca_ctx *ctx, struct doca_task *task)
{
	struct doca_eth_txq *t = (struct doca_eth_txq *)ctx;
	struct doca_eth_txq_task_send *s = send_of(task);

	s->pkt = NULL;
	s->next_free = t->res.cpu.free;
	t->res.cpu.free = s;
}

uint8_t eth_txq_cpu_progress(struct doca_eth_txq *t)
{
	struct eth_txq_cpu *c = &t->res.cpu;
	uint8_t any = 0;

	/* A callback may stop the queue (its state then freed): the pool is checked on every turn. */
	while (c->ring != NULL && c->done < c->posted) {
		struct doca_gpu_eth_txq *h = t->res.handle;
		uint64_t idx = c->done;
		struct doca_eth_txq_task_send *s = c->ring[idx & c->mask];
		int rc = ogda_dev_eth_poll_at(h, idx, 0, OGDA_DEV_SHARE_EXCLUSIVE);
		doca_error_t status = DOCA_SUCCESS;

		if (rc == OPENGDA_DEV_EBUSY)
			break;
		if (rc != 0) {
			uint8_t syndrome = OPENGDA_DEV_IS_CQE_ERROR(rc) ? (uint8_t)OPENGDA_DEV_CQE_ERROR_SYNDROME(rc) : 0;

			/* An error CQE does not move cqe_ci: step past it so the next index is polled. */
			ogda_dev_cq_advance(&h->qp.cq_sq, idx + 1, OGDA_DEV_SHARE_EXCLUSIVE);
			if (syndrome != OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR)
				OGDA_LOG_ERR("eth_txq: send %llu failed, CQE syndrome 0x%02x: the queue is in error (stop "
					     "and start it)",
					     (unsigned long long)idx, syndrome);
			status = DOCA_ERROR_IO_FAILED;
		}
		c->ring[idx & c->mask] = NULL;
		c->done = idx + 1u;
		core_task_done(&s->base, status);
		/* The callback may free or resubmit the task, or stop the queue: nothing of it is used after. */
		(status == DOCA_SUCCESS ? t->task_cb : t->task_err_cb)(s, s->base.user_data, t->ctx.user_data);
		any = 1;
	}
	return any;
}

/* ---- the public functions ------------------------------------------------------------------ */

doca_error_t doca_eth_txq_cap_is_type_supported(const struct doca_devinfo *devinfo, enum doca_eth_txq_type type,
						enum doca_eth_txq_data_path_type data_path_type)
{
	doca_error_t err = eth_cpu_sdk_refuses(__func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (devinfo == NULL) {
		OGDA_LOG_ERR("%s: devinfo must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (type != DOCA_ETH_TXQ_TYPE_REGULAR ||
	    (data_path_type != DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU && data_path_type != DOCA_ETH_TXQ_DATA_PATH_TYPE_GPU)) {
		OGDA_LOG_ERR("%s: unknown type %d or data path type %d", __func__, (int)type, (int)data_path_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_set_type(struct doca_eth_txq *eth_txq, enum doca_eth_txq_type type)
{
	doca_error_t err = eth_cpu_sdk_refuses(__func__);

	if (err == DOCA_SUCCESS)
		err = core_ctx_check_idle(eth_txq != NULL ? &eth_txq->ctx : NULL, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (type != DOCA_ETH_TXQ_TYPE_REGULAR) {
		OGDA_LOG_ERR("%s: unknown send queue type %d (DOCA_ETH_TXQ_TYPE_REGULAR is the one)", __func__, (int)type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	eth_txq->type = type;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_task_send_set_conf(struct doca_eth_txq *eth_txq,
					     doca_eth_txq_task_send_completion_cb_t task_completion_cb,
					     doca_eth_txq_task_send_completion_cb_t task_error_cb, uint32_t task_send_num)
{
	doca_error_t err = eth_task_conf_check(eth_txq != NULL ? &eth_txq->ctx : NULL,
					       task_completion_cb != NULL && task_error_cb != NULL, task_send_num,
					       OPENGDA_ETH_TXQ_MAX_TASKS, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	eth_txq->task_cb = task_completion_cb;
	eth_txq->task_err_cb = task_error_cb;
	eth_txq->task_num = task_send_num;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_task_send_allocate_init(struct doca_eth_txq *eth_txq, struct doca_buf *pkt,
						  union doca_data user_data, struct doca_eth_txq_task_send **task_send)
{
	doca_error_t err = eth_cpu_sdk_refuses(__func__);
	struct doca_eth_txq_task_send *s;

	if (err != DOCA_SUCCESS)
		return err;
	if (eth_txq == NULL || task_send == NULL) {
		OGDA_LOG_ERR("%s: eth_txq and task_send must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&eth_txq->ctx.state) != DOCA_CTX_STATE_RUNNING || eth_txq->res.cpu.pool == NULL) {
		OGDA_LOG_ERR("%s: tasks are allocated from a RUNNING queue with a CPU data path "
			     "(doca_eth_txq_task_send_set_conf, no GPU data path)", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	s = eth_txq->res.cpu.free;
	if (s == NULL) {
		OGDA_LOG_ERR("%s: all %u tasks are allocated (doca_eth_txq_task_send_set_conf); free one first", __func__,
			     eth_txq->task_num);
		return DOCA_ERROR_NO_MEMORY;
	}
	eth_txq->res.cpu.free = s->next_free;
	core_task_alloc(&eth_txq->ctx, &s->base, user_data);
	s->pkt = pkt; /* checked at submit, where a NULL packet is refused */
	s->next_free = NULL;
	*task_send = s;
	return DOCA_SUCCESS;
}

struct doca_task *doca_eth_txq_task_send_as_doca_task(struct doca_eth_txq_task_send *task_send)
{
	if (task_send == NULL) {
		OGDA_LOG_ERR("%s: task_send must not be NULL", __func__);
		return NULL;
	}
	return &task_send->base;
}

doca_error_t doca_eth_txq_task_send_get_pkt(const struct doca_eth_txq_task_send *task_send, struct doca_buf **pkt)
{
	if (task_send == NULL || pkt == NULL) {
		OGDA_LOG_ERR("%s: task_send and pkt must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*pkt = task_send->pkt;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_task_send_set_pkt(struct doca_eth_txq_task_send *task_send, struct doca_buf *pkt)
{
	if (task_send == NULL || pkt == NULL) {
		OGDA_LOG_ERR("%s: task_send and pkt must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (task_send->base.state != CORE_TASK_ALLOCATED) {
		OGDA_LOG_ERR("%s: the task is in flight or freed: only an allocated task takes a packet", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	task_send->pkt = pkt;
	return DOCA_SUCCESS;
}
