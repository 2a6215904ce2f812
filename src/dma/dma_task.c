/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA DMA memcpy tasks (doca_dma.h): the CPU data path of a doca_dma.
 *
 * The context's loopback QP (dma.c) is built for a private host handle, so its send queue and
 * CQ are host memory and the device core (include/device/ogda_dev_ops.h, ogda_dev_sq.h,
 * ogda_dev_cq.h) runs on the CPU exactly as on host threads of the GPU path: submit reserves one
 * WQEBB, writes an RDMA WRITE from the source's data to the destination's tail (the destination
 * key doubles as the remote key) and publishes and rings it; doca_pe_progress() polls the CQ in
 * WQE order (RC completes in order) and runs each task's callback on its thread.
 *
 * Bounds: one WQE per task (a task copies at most 1 GiB, the NIC's largest message), at most
 * num_tasks tasks exist, and the send queue holds at least num_tasks WQEBBs; so a submit never
 * waits for room, and WQE index i & (ring size - 1) names the one task in flight there.
 *
 * Errors: an error CQE fails its task with DOCA_ERROR_IO_FAILED (the syndrome is logged and kept
 * in the task); the QP is then in error and every later task fails as flushed, as on the GPU
 * path: stop and start the context. A stop with tasks in flight lets the NIC finish them (their
 * callbacks run); if the NIC has not answered within the context's wait bound, the rest complete
 * with DOCA_ERROR_TIME_OUT, so a stop always ends.
 *
 * Tasks are allocated, submitted, progressed and freed on the engine's thread (doca_pe.h), so
 * the pool and the ring take no lock.
 */
#include "dma/dma_priv.h"

#include "core/log.h"

#include "device/ogda_dev_dma.h"
#include "doca_gpunetio_high_level.h"
#include "opengda_mlx5.h"

#include <endian.h>
#include <stdlib.h>

struct doca_dma_task_memcpy {
	struct doca_task base; /* first: doca_dma_task_memcpy_as_task */
	const struct doca_buf *src;
	struct doca_buf *dst;
	size_t len;            /* in flight: the bytes being copied */
	uint8_t syndrome;      /* the last failure's CQE syndrome, 0 if none */
	struct doca_dma_task_memcpy *next_free;
};

struct dma_tasks {
	struct doca_dma_task_memcpy *pool; /* num_tasks of them */
	struct doca_dma_task_memcpy *free;
	struct doca_dma_task_memcpy **ring; /* in flight, by WQE index & mask */
	uint64_t mask;
	uint64_t posted;                    /* WQE index after the last one posted */
	uint64_t done;                      /* WQE index of the oldest task in flight */
	uint64_t stop_deadline;             /* STOPPING: when to give up on the NIC (0: not set) */
};

static struct doca_dma_task_memcpy *memcpy_of(struct doca_task *task)
{
	return (struct doca_dma_task_memcpy *)(void *)task;
}

doca_error_t dma_tasks_create(struct doca_dma *d)
{
	struct dma_tasks *t = calloc(1, sizeof(*t));
	uint64_t ring = 1;

	while (ring < d->num_tasks)
		ring <<= 1;
	if (t != NULL) {
		t->pool = calloc(d->num_tasks, sizeof(*t->pool));
		t->ring = calloc(ring, sizeof(*t->ring));
	}
	if (t == NULL || t->pool == NULL || t->ring == NULL) {
		OGDA_LOG_ERR("dma: out of memory for %u tasks", d->num_tasks);
		if (t != NULL) {
			free(t->pool);
			free(t->ring);
		}
		free(t);
		return DOCA_ERROR_NO_MEMORY;
	}
	t->mask = ring - 1;
	for (uint32_t i = d->num_tasks; i-- > 0;) {
		t->pool[i].next_free = t->free;
		t->free = &t->pool[i];
	}
	d->tasks = t;
	return DOCA_SUCCESS;
}

void dma_tasks_destroy(struct doca_dma *d)
{
	if (d->tasks == NULL)
		return;
	free(d->tasks->pool);
	free(d->tasks->ring);
	free(d->tasks);
	d->tasks = NULL;
}

/* ---- configuration and allocation -------------------------------------------------------- */

doca_error_t doca_dma_task_memcpy_set_conf(struct doca_dma *dma,
					   doca_dma_task_memcpy_completion_cb_t task_completion_cb,
					   doca_dma_task_memcpy_completion_cb_t task_error_cb, uint32_t num_memcpy_tasks)
{
	doca_error_t err = core_ctx_check_idle(dma != NULL ? &dma->ctx : NULL, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (task_completion_cb == NULL || task_error_cb == NULL) {
		OGDA_LOG_ERR("%s: both callbacks are needed (a task's outcome is always delivered)", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (num_memcpy_tasks == 0 || num_memcpy_tasks > OPENGDA_DMA_MAX_QUEUE_SIZE) {
		OGDA_LOG_ERR("%s: %u tasks outside 1..%u", __func__, num_memcpy_tasks, OPENGDA_DMA_MAX_QUEUE_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	dma->task_cb = task_completion_cb;
	dma->task_err_cb = task_error_cb;
	dma->num_tasks = num_memcpy_tasks;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_cap_get_max_num_tasks(struct doca_dma *dma, uint32_t *max_num_tasks)
{
	if (dma == NULL || max_num_tasks == NULL) {
		OGDA_LOG_ERR("dma and max_num_tasks must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*max_num_tasks = OPENGDA_DMA_MAX_QUEUE_SIZE;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_task_memcpy_alloc_init(struct doca_dma *dma, const struct doca_buf *src, struct doca_buf *dst,
					     union doca_data user_data, struct doca_dma_task_memcpy **task)
{
	struct doca_dma_task_memcpy *t;

	if (dma == NULL || task == NULL) {
		OGDA_LOG_ERR("dma and task must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&dma->ctx.state) != DOCA_CTX_STATE_RUNNING || dma->tasks == NULL) {
		OGDA_LOG_ERR("dma: tasks are allocated from a RUNNING context with a CPU data path "
			     "(doca_dma_task_memcpy_set_conf, no GPU data path)");
		return DOCA_ERROR_BAD_STATE;
	}
	t = dma->tasks->free;
	if (t == NULL) {
		OGDA_LOG_ERR("dma: all %u tasks are allocated (doca_dma_task_memcpy_set_conf); free one first",
			     dma->num_tasks);
		return DOCA_ERROR_NO_MEMORY;
	}
	dma->tasks->free = t->next_free;
	core_task_alloc(&dma->ctx, &t->base, user_data);
	t->src = src;
	t->dst = dst;
	t->len = 0;
	t->syndrome = 0;
	t->next_free = NULL;
	*task = t;
	return DOCA_SUCCESS;
}

void dma_task_release(struct doca_ctx *ctx, struct doca_task *task)
{
	struct doca_dma *d = dma_of(ctx);
	struct doca_dma_task_memcpy *t = memcpy_of(task);

	t->next_free = d->tasks->free;
	d->tasks->free = t;
}

struct doca_task *doca_dma_task_memcpy_as_task(struct doca_dma_task_memcpy *task)
{
	if (task == NULL) {
		OGDA_LOG_ERR("task must not be NULL");
		return NULL;
	}
	return &task->base;
}

void doca_dma_task_memcpy_set_src(struct doca_dma_task_memcpy *task, const struct doca_buf *src)
{
	if (task == NULL) {
		OGDA_LOG_ERR("task must not be NULL");
		return;
	}
	task->src = src;
}

const struct doca_buf *doca_dma_task_memcpy_get_src(const struct doca_dma_task_memcpy *task)
{
	if (task == NULL) {
		OGDA_LOG_ERR("task must not be NULL");
		return NULL;
	}
	return task->src;
}

void doca_dma_task_memcpy_set_dst(struct doca_dma_task_memcpy *task, struct doca_buf *dst)
{
	if (task == NULL) {
		OGDA_LOG_ERR("task must not be NULL");
		return;
	}
	task->dst = dst;
}

struct doca_buf *doca_dma_task_memcpy_get_dst(const struct doca_dma_task_memcpy *task)
{
	if (task == NULL) {
		OGDA_LOG_ERR("task must not be NULL");
		return NULL;
	}
	return task->dst;
}

uint8_t dma_task_memcpy_syndrome(const struct doca_dma_task_memcpy *task)
{
	return task->syndrome;
}

/* ---- submit ------------------------------------------------------------------------------- */

/* @buf as the device core's buffer: its key on the DMA's device; INVALID_VALUE (logged) if none. */
static doca_error_t dev_buf(const struct doca_dma *d, const struct doca_buf *buf, const char *what, uint8_t *addr,
			    struct doca_gpu_buf *out)
{
	uint32_t mkey;

	if (buf->mmap == NULL || doca_mmap_get_mkey(buf->mmap, d->dev, &mkey) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("dma: the %s buffer's mmap is not registered on %s (doca_mmap_add_dev)", what,
			     core_dev_name(d->dev));
		return DOCA_ERROR_INVALID_VALUE;
	}
	*out = (struct doca_gpu_buf){.addr = (uint64_t)(uintptr_t)addr, .mkey = mkey, .mkey_be = htobe32(mkey)};
	return DOCA_SUCCESS;
}

/* The task's buffers can be copied: both in use, the source's data fits the destination's tail. */
static doca_error_t check_bufs(const struct doca_dma_task_memcpy *t)
{
	size_t room;

	if (t->src == NULL || t->dst == NULL) {
		OGDA_LOG_ERR("dma: the task needs a source and a destination buffer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (t->src->refcount == 0 || t->dst->refcount == 0) {
		OGDA_LOG_ERR("dma: the task's %s buffer was given back to its inventory",
			     t->src->refcount == 0 ? "source" : "destination");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (t->src->data_len > DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE) {
		OGDA_LOG_ERR("dma: %zu bytes in one task; at most %llu (doca_dma_cap_task_memcpy_get_max_buf_size)",
			     t->src->data_len, (unsigned long long)DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	room = t->dst->len - (size_t)(t->dst->data - t->dst->head) - t->dst->data_len;
	if (t->src->data_len > room) {
		OGDA_LOG_ERR("dma: %zu bytes of source data do not fit the destination's %zu free bytes after its data",
			     t->src->data_len, room);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t dma_task_submit(struct doca_ctx *ctx, struct doca_task *task)
{
	struct doca_dma *d = dma_of(ctx);
	struct doca_dma_task_memcpy *t = memcpy_of(task);
	struct doca_gpu_buf s, dst;
	struct doca_gpu_dev_verbs_addr la, ra;
	uint64_t base;
	doca_error_t err;
	int rc;

	if ((err = check_bufs(t)) != DOCA_SUCCESS ||
	    (err = dev_buf(d, t->src, "source", t->src->data, &s)) != DOCA_SUCCESS ||
	    (err = dev_buf(d, t->dst, "destination", t->dst->data + t->dst->data_len, &dst)) != DOCA_SUCCESS)
		return err;
	/* Room is certain (header comment), so this reserves without waiting. */
	rc = ogda_dev_post_begin(d->handle->qp, 1, OGDA_DEV_SHARE_GPU, d->handle->nic_handler, 0, &base);
	if (rc != 0) {
		err = ogda_dev_dma_status(rc, NULL);
		OGDA_LOG_ERR("dma: no room in the send queue: %s", doca_error_get_descr(err));
		return err;
	}
	la = (struct doca_gpu_dev_verbs_addr){.addr = s.addr, .key = s.mkey_be};
	ra = (struct doca_gpu_dev_verbs_addr){.addr = dst.addr, .key = dst.mkey_be};
	t->len = t->src->data_len;
	t->syndrome = 0;
	d->tasks->ring[base & d->tasks->mask] = t;
	d->tasks->posted = base + 1;
	ogda_dev_prep_xfer(d->handle->qp, base, OPENGDA_MLX5_OPCODE_RDMA_WRITE, ra, la, t->len);
	ogda_dev_post_end(d->handle->qp, base, 1, OGDA_DEV_SHARE_GPU, d->handle->nic_handler, 0);
	return DOCA_SUCCESS;
}

/* ---- completion --------------------------------------------------------------------------- */

/* Completes the oldest task in flight with @status and runs its callback. */
static void complete_oldest(struct doca_dma *d, doca_error_t status, uint8_t syndrome)
{
	struct dma_tasks *ts = d->tasks;
	uint64_t idx = ts->done++;
	struct doca_dma_task_memcpy *t = ts->ring[idx & ts->mask];

	ts->ring[idx & ts->mask] = NULL;
	if (status == DOCA_SUCCESS)
		t->dst->data_len += t->len; /* the destination's data grows by what landed at its tail */
	t->syndrome = syndrome;
	core_task_done(&t->base, status);
	/* The callback may free or resubmit the task, or stop the context: nothing of it is used after. */
	(status == DOCA_SUCCESS ? d->task_cb : d->task_err_cb)(t, t->base.user_data, d->ctx.user_data);
}

/* STOPPING and the NIC silent past the wait bound: the rest fail, so the stop still ends. */
static uint8_t give_up_if_late(struct doca_dma *d)
{
	struct dma_tasks *ts = d->tasks;
	uint8_t any = 0;

	if (atomic_load(&d->ctx.state) != DOCA_CTX_STATE_STOPPING || ts->done == ts->posted || d->wait_timeout_ns == 0)
		return 0;
	if (ts->stop_deadline == 0) {
		ts->stop_deadline = ogda_dev_deadline(d->wait_timeout_ns);
		return 0;
	}
	if (!ogda_dev_expired(ts->stop_deadline))
		return 0;
	OGDA_LOG_ERR("dma: stopping: %llu task(s) not completed by the NIC within %llu ns; failing them",
		     (unsigned long long)(ts->posted - ts->done), (unsigned long long)d->wait_timeout_ns);
	while (ts->done < ts->posted) {
		complete_oldest(d, DOCA_ERROR_TIME_OUT, 0);
		any = 1;
	}
	return any;
}

uint8_t dma_tasks_progress(struct doca_ctx *ctx)
{
	struct doca_dma *d = dma_of(ctx);
	uint8_t any = 0;

	if (d->tasks == NULL) /* GPU data path: nothing for the CPU to do */
		return 0;
	while (d->tasks != NULL && d->tasks->done < d->tasks->posted) {
		struct doca_gpu_dev_verbs_qp *qp = d->handle->qp;
		uint64_t idx = d->tasks->done;
		int rc = ogda_dev_qp_poll_index(qp, idx, OGDA_DEV_SHARE_GPU);
		uint8_t syndrome = 0;

		if (rc == OPENGDA_DEV_EBUSY)
			break;
		if (rc != 0) {
			/* An error CQE does not move cqe_ci: step past it so the next index is polled. */
			ogda_dev_cq_advance(&qp->cq_sq, idx + 1, OGDA_DEV_SHARE_GPU);
			syndrome = OPENGDA_DEV_IS_CQE_ERROR(rc) ? (uint8_t)OPENGDA_DEV_CQE_ERROR_SYNDROME(rc) : 0;
			if (syndrome != OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR)
				OGDA_LOG_ERR("dma: a memcpy task failed: CQE syndrome 0x%02x%s", syndrome,
					     syndrome == OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR
						     ? " (remote access: does the destination's mmap grant RDMA_WRITE?)"
						     : "");
		}
		complete_oldest(d, rc == 0 ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED, syndrome);
		any = 1;
	}
	if (d->tasks != NULL)
		any |= give_up_if_late(d);
	return any;
}
