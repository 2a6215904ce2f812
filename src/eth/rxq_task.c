/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive tasks (doca_eth_rxq_task_recv) of a DOCA_ETH_RXQ_TYPE_REGULAR queue: the CPU data path
 * in which the application brings a buffer of its own for each frame.
 *
 * The queue is the one rxq_start.c builds (the same CQ and cyclic RQ of 16-byte WQEs, for a host
 * handle of its own) with no packet buffer and no WQE posted at start. A submit writes the next
 * WQE's data segment (ogda_dev_store_dseg, the layout every receive queue uses): the buffer's data
 * address, the key of its mmap on the queue's device and max_packet_size bytes; then the RQ
 * doorbell record moves by one (ogda_dev_eth_rx_rq_post). The NIC fills WQEs in ring order and
 * writes CQE i for WQE i, so doca_pe_progress() completes the oldest task in flight with each CQE
 * it reads (the device C core's CQE readers, ogda_dev_eth_rx_cqe.h).
 *
 * Room: a buffer with fewer than max_packet_size bytes from its data address to its end is
 * refused at submit (DOCA_ERROR_INVALID_VALUE). The WQE never promises the NIC more than
 * max_packet_size bytes: a longer frame is dropped by the NIC (counted by the port) and the task
 * waits for the next frame, as the other queue types drop it. Refusing small buffers keeps that
 * one rule: accepting them would make the NIC's treatment of a frame depend on the buffer it met.
 *
 * Ring: at most a ring's worth (max_burst_size rounded up to a power of two) in flight; a submit
 * past it answers DOCA_ERROR_AGAIN at once, as the send tasks do (progress, then submit again).
 *
 * Errors: an error CQE fails its task with DOCA_ERROR_IO_FAILED (syndrome logged). The RQ is then
 * in error: the NIC takes no more frames (a ConnectX would flush what is posted), so the tasks
 * still in flight complete at once with DOCA_ERROR_IO_FAILED as well, and later submits answer
 * DOCA_ERROR_BAD_STATE: stop and start the queue.
 *
 * Stop with tasks in flight: doca_ctx_stop() leaves the queue STOPPING (tasks allocated, ctx.c).
 * Frames do not come on demand, so the stop cannot wait for the NIC: the next doca_pe_progress()
 * moves the RQ to RST (the NIC writes nothing more into the application's buffers), completes
 * what had arrived before, and flushes the rest through the error callback with
 * DOCA_ERROR_SHUTDOWN, in order. Once the application has freed its tasks, the queue is IDLE.
 *
 * Tasks are allocated, submitted, progressed and freed on the engine's thread (doca_pe.h), so
 * the pool and the ring take no lock.
 */
#include "eth/rxq_priv.h"

#include "core/log.h"
#include "device/ogda_dev_eth_rx.h"
#include "device/ogda_dev_wqe.h"
#include "opengda_mlx5.h"
#include "prm/prm_rq.h"

#include <stdlib.h>
#include <string.h>

#define TASKS_PER_PROGRESS 64u /* completions one progress call runs at most: other contexts get a turn */
#define RQ_WQE_SIZE 16u        /* one data segment (rxq_start.c) */

struct doca_eth_rxq_task_recv {
	struct doca_task base; /* first: doca_eth_rxq_task_recv_as_doca_task */
	struct doca_buf *pkt;
	/* what the CQE said about the frame (zero until a successful completion) */
	uint32_t flow_tag, rx_hash;
	uint64_t timestamp;
	uint8_t l3_ok, l4_ok;
	struct doca_eth_rxq_task_recv *next_free;
};

static struct doca_eth_rxq_task_recv *recv_of(struct doca_task *task)
{
	return (struct doca_eth_rxq_task_recv *)(void *)task;
}

/* ---- start and stop ------------------------------------------------------------------------ */

doca_error_t eth_rxq_task_check(const struct doca_eth_rxq *q)
{
	if (q->task_cb == NULL) {
		OGDA_LOG_ERR("eth_rxq: a REGULAR queue receives through tasks: call doca_eth_rxq_task_recv_set_conf() "
			     "before starting");
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t eth_rxq_task_init(struct doca_eth_rxq *q, uint32_t wqes)
{
	struct eth_rxq_tasks *c = &q->res.task;

	c->pool = calloc(q->task_num, sizeof(*c->pool));
	c->ring = calloc(wqes, sizeof(*c->ring));
	if (c->pool == NULL || c->ring == NULL) {
		OGDA_LOG_ERR("eth_rxq: out of memory for %u receive tasks", q->task_num);
		return DOCA_ERROR_NO_MEMORY; /* eth_rxq_task_release_all frees what was allocated */
	}
	c->mask = wqes - 1u;
	for (uint32_t i = q->task_num; i-- > 0;) {
		c->pool[i].next_free = c->free;
		c->free = &c->pool[i];
	}
	return DOCA_SUCCESS;
}

void eth_rxq_task_release_all(struct doca_eth_rxq *q)
{
	struct eth_rxq_tasks *c = &q->res.task;

	free(c->pool);
	free(c->ring);
	memset(c, 0, sizeof(*c));
}

/* ---- submit and completion ----------------------------------------------------------------- */

/* The key of @pkt's mmap on the queue's device, and a check of its room; INVALID_VALUE (logged). */
static doca_error_t pkt_check(const struct doca_eth_rxq *q, const struct doca_buf *pkt, uint32_t *mkey)
{
	size_t room;

	if (pkt == NULL || pkt->refcount == 0) {
		OGDA_LOG_ERR("eth_rxq: the receive task has no buffer, or its buffer was given back to its inventory");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (pkt->mmap == NULL || doca_mmap_get_mkey(pkt->mmap, q->dev, mkey) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("eth_rxq: the receive buffer's mmap is not registered on %s (doca_mmap_add_dev)",
			     core_dev_name(q->dev));
		return DOCA_ERROR_INVALID_VALUE;
	}
	room = (size_t)(pkt->head + pkt->len - pkt->data);
	if (room < q->max_pkt) {
		OGDA_LOG_ERR("eth_rxq: the receive buffer has %zu bytes from its data address to its end; the queue's "
			     "frames may have %u (max_packet_size)",
			     room, q->max_pkt);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t eth_rxq_task_submit(struct doca_ctx *ctx, struct doca_task *task)
{
	struct doca_eth_rxq *q = (struct doca_eth_rxq *)ctx;
	struct doca_eth_rxq_task_recv *t = recv_of(task);
	struct eth_rxq_tasks *c = &q->res.task;
	struct doca_gpu_eth_rxq *h = q->res.handle;
	uint32_t mkey = 0;
	doca_error_t err;

	if (c->ring == NULL) {
		OGDA_LOG_ERR("eth_rxq: receive tasks are submitted to a REGULAR queue with a CPU data path");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (c->in_error) {
		OGDA_LOG_ERR("eth_rxq: the RQ is in error after an error completion: stop and start the queue");
		return DOCA_ERROR_BAD_STATE;
	}
	err = pkt_check(q, t->pkt, &mkey);
	if (err != DOCA_SUCCESS)
		return err;
	if (c->posted - c->done > c->mask) {
		OGDA_LOG_DBG("eth_rxq: the RQ's %u WQEs are all in flight: progress, then submit again", c->mask + 1u);
		return DOCA_ERROR_AGAIN;
	}
	t->flow_tag = 0;
	t->rx_hash = 0;
	t->timestamp = 0;
	t->l3_ok = 0;
	t->l4_ok = 0;
	/* The queue's only poster: the view's producer counter is c->posted. */
	ogda_dev_store_dseg(h->wqe_addr + (size_t)(c->posted & c->mask) * RQ_WQE_SIZE, (uint64_t)(uintptr_t)t->pkt->data,
			    opengda_mlx5_htobe32(mkey), q->max_pkt);
	c->ring[c->posted & c->mask] = t;
	c->posted++;
	ogda_dev_eth_rx_rq_post(h, 1); /* its release fence publishes the WQE before the doorbell record */
	return DOCA_SUCCESS;
}

void eth_rxq_task_release(struct doca_ctx *ctx, struct doca_task *task)
{
	struct doca_eth_rxq *q = (struct doca_eth_rxq *)ctx;
	struct doca_eth_rxq_task_recv *t = recv_of(task);

	t->pkt = NULL;
	t->next_free = q->res.task.free;
	q->res.task.free = t;
}

/* The frame of the arrived CQE @ci is in @t's buffer: its length and the CQE's attributes. */
static void received(struct doca_gpu_eth_rxq *h, uint64_t ci, struct doca_eth_rxq_task_recv *t)
{
	struct doca_gpu_dev_eth_rxq_attr a = {0};
	uint8_t flags = ogda_dev_cqe_at(&h->cq, ci)[OPENGDA_MLX5_CQE_RX_HDS_IP_EXT];
	size_t room = (size_t)(t->pkt->head + t->pkt->len - t->pkt->data);

	ogda_dev_eth_rx_attr(h, ci, DOCA_GPUNETIO_ETH_RX_ATTR_ALL, &a);
	t->timestamp = a.timestamp_ns;
	t->flow_tag = ogda_dev_eth_rx_cqe_flow_tag(h, ci);
	t->rx_hash = ogda_dev_eth_rx_cqe_rss_hash(h, ci);
	t->l3_ok = (flags & OPENGDA_MLX5_CQE_RX_L3_OK) != 0;
	t->l4_ok = (flags & OPENGDA_MLX5_CQE_RX_L4_OK) != 0;
	ogda_dev_eth_rx_cq_retire(h, ci, 1);
	t->pkt->data_len = a.bytes < room ? a.bytes : room; /* the WQE promised at most max_packet_size <= room */
}

/* Stopping with tasks in flight: the NIC is told to write nothing more, so the rest can be flushed. */
static void quiesce(struct doca_eth_rxq *q)
{
	struct eth_rxq_tasks *c = &q->res.task;

	c->quiesced = true;
	if (c->in_error)
		return; /* an RQ in error takes no frames: its tasks were failed already */
	/* RST, else ERR: either way the NIC writes no more frames into buffers about to be flushed */
	if (eth_rxq_rq_modify(q, PRM_RQ_STATE_RDY, PRM_RQ_STATE_RST) != DOCA_SUCCESS &&
	    eth_rxq_rq_modify(q, PRM_RQ_STATE_RDY, PRM_RQ_STATE_ERR) != DOCA_SUCCESS)
		OGDA_LOG_ERR("eth_rxq: stopping: the RQ could be neither reset nor put in error; its tasks are flushed "
			     "anyway and the RQ is destroyed by the stop (until then the NIC may still write into "
			     "their buffers)");
}

uint8_t eth_rxq_task_progress(struct doca_eth_rxq *q)
{
	struct eth_rxq_tasks *c = &q->res.task;
	uint8_t any = 0;

	/* A callback may stop the queue (its state then freed): the ring is checked on every turn. */
	for (uint32_t n = 0; n < TASKS_PER_PROGRESS && c->ring != NULL && c->done < c->posted; n++) {
		struct doca_gpu_eth_rxq *h = q->res.handle;
		struct doca_eth_rxq_task_recv *t = c->ring[c->done & c->mask];
		uint64_t ci = h->cq.cqe_ci;
		doca_error_t status;
		int st = 0;

		if (!c->quiesced && atomic_load(&q->ctx.state) == DOCA_CTX_STATE_STOPPING)
			quiesce(q);
		if (!c->in_error)
			st = ogda_dev_eth_rx_cqe_state(h, ci);
		if (st > 0) {
			received(h, ci, t);
			status = DOCA_SUCCESS;
		} else if (st < 0) {
			OGDA_LOG_ERR("eth_rxq: receive task %llu failed, CQE syndrome 0x%02x: the RQ is in error (stop and "
				     "start the queue)",
				     (unsigned long long)c->done, (unsigned)OPENGDA_DEV_CQE_ERROR_SYNDROME(st));
			ogda_dev_eth_rx_cq_retire(h, ci, 1);
			c->in_error = true;
			status = DOCA_ERROR_IO_FAILED;
		} else if (c->in_error) {
			status = DOCA_ERROR_IO_FAILED; /* behind the error: the NIC will not fill it */
		} else if (c->quiesced) {
			status = DOCA_ERROR_SHUTDOWN; /* flushed by the stop */
		} else {
			break; /* no frame yet */
		}
		c->ring[c->done & c->mask] = NULL;
		c->done++;
		core_task_done(&t->base, status);
		any = 1;
		/* The callback may free or resubmit the task, or stop the queue: nothing of it is used after. */
		(status == DOCA_SUCCESS ? q->task_cb : q->task_err_cb)(t, t->base.user_data, q->ctx.user_data);
	}
	return any;
}

/* ---- the public functions ------------------------------------------------------------------ */

doca_error_t doca_eth_rxq_task_recv_set_conf(struct doca_eth_rxq *eth_rxq,
					     doca_eth_rxq_task_recv_completion_cb_t task_completion_cb,
					     doca_eth_rxq_task_recv_completion_cb_t task_error_cb, uint32_t task_recv_num)
{
	doca_error_t err = eth_task_conf_check(eth_rxq != NULL ? &eth_rxq->ctx : NULL,
					       task_completion_cb != NULL && task_error_cb != NULL, task_recv_num,
					       OPENGDA_ETH_RXQ_MAX_TASKS, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	eth_rxq->task_cb = task_completion_cb;
	eth_rxq->task_err_cb = task_error_cb;
	eth_rxq->task_num = task_recv_num;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_task_recv_allocate_init(struct doca_eth_rxq *eth_rxq, struct doca_buf *pkt,
						  union doca_data user_data, struct doca_eth_rxq_task_recv **task_recv)
{
	doca_error_t err = eth_cpu_sdk_refuses(__func__);
	struct doca_eth_rxq_task_recv *t;

	if (err != DOCA_SUCCESS)
		return err;
	if (eth_rxq == NULL || task_recv == NULL) {
		OGDA_LOG_ERR("%s: eth_rxq and task_recv must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (eth_rxq->ctx.gpu != NULL || eth_rxq->type != DOCA_ETH_RXQ_TYPE_REGULAR) {
		OGDA_LOG_ERR("%s: receive tasks belong to a DOCA_ETH_RXQ_TYPE_REGULAR queue with a CPU data path",
			     __func__);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (atomic_load(&eth_rxq->ctx.state) != DOCA_CTX_STATE_RUNNING || eth_rxq->res.task.pool == NULL) {
		OGDA_LOG_ERR("%s: tasks are allocated from a RUNNING queue", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	t = eth_rxq->res.task.free;
	if (t == NULL) {
		OGDA_LOG_ERR("%s: all %u tasks are allocated (doca_eth_rxq_task_recv_set_conf); free one first", __func__,
			     eth_rxq->task_num);
		return DOCA_ERROR_NO_MEMORY;
	}
	eth_rxq->res.task.free = t->next_free;
	core_task_alloc(&eth_rxq->ctx, &t->base, user_data);
	t->pkt = pkt; /* checked at submit, where a NULL buffer is refused */
	t->next_free = NULL;
	*task_recv = t;
	return DOCA_SUCCESS;
}

struct doca_task *doca_eth_rxq_task_recv_as_doca_task(struct doca_eth_rxq_task_recv *task_recv)
{
	if (task_recv == NULL) {
		OGDA_LOG_ERR("%s: task_recv must not be NULL", __func__);
		return NULL;
	}
	return &task_recv->base;
}

doca_error_t doca_eth_rxq_task_recv_set_pkt(struct doca_eth_rxq_task_recv *task_recv, struct doca_buf *pkt)
{
	if (task_recv == NULL || pkt == NULL) {
		OGDA_LOG_ERR("%s: task_recv and pkt must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (task_recv->base.state != CORE_TASK_ALLOCATED) {
		OGDA_LOG_ERR("%s: the task is in flight or freed: only an allocated task takes a buffer", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	task_recv->pkt = pkt;
	return DOCA_SUCCESS;
}

/* The first check of the getters below. */
static doca_error_t check_get(const struct doca_eth_rxq_task_recv *t, const void *out, const char *func)
{
	if (t == NULL || out == NULL) {
		OGDA_LOG_ERR("%s: task_recv and the output must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_task_recv_get_pkt(const struct doca_eth_rxq_task_recv *task_recv, struct doca_buf **pkt)
{
	doca_error_t err = check_get(task_recv, pkt, __func__);

	if (err == DOCA_SUCCESS)
		*pkt = task_recv->pkt;
	return err;
}

doca_error_t doca_eth_rxq_task_recv_get_l3_ok(const struct doca_eth_rxq_task_recv *task_recv, uint8_t *l3_ok)
{
	doca_error_t err = check_get(task_recv, l3_ok, __func__);

	if (err == DOCA_SUCCESS)
		*l3_ok = task_recv->l3_ok;
	return err;
}

doca_error_t doca_eth_rxq_task_recv_get_l4_ok(const struct doca_eth_rxq_task_recv *task_recv, uint8_t *l4_ok)
{
	doca_error_t err = check_get(task_recv, l4_ok, __func__);

	if (err == DOCA_SUCCESS)
		*l4_ok = task_recv->l4_ok;
	return err;
}

doca_error_t doca_eth_rxq_task_recv_get_flow_tag(const struct doca_eth_rxq_task_recv *task_recv, uint32_t *flow_tag)
{
	doca_error_t err = check_get(task_recv, flow_tag, __func__);

	if (err == DOCA_SUCCESS)
		*flow_tag = task_recv->flow_tag;
	return err;
}

doca_error_t doca_eth_rxq_task_recv_get_rx_hash(const struct doca_eth_rxq_task_recv *task_recv, uint32_t *rx_hash)
{
	doca_error_t err = check_get(task_recv, rx_hash, __func__);

	if (err == DOCA_SUCCESS)
		*rx_hash = task_recv->rx_hash;
	return err;
}

doca_error_t doca_eth_rxq_task_recv_get_timestamp(const struct doca_eth_rxq_task_recv *task_recv, uint64_t *timestamp)
{
	doca_error_t err = check_get(task_recv, timestamp, __func__);

	if (err == DOCA_SUCCESS)
		*timestamp = task_recv->timestamp;
	return err;
}
