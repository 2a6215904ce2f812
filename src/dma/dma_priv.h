/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dma's two files: dma.c (the context: start builds the loopback QP, for a GPU or for the
 * CPU) and dma_task.c (the CPU data path: memcpy tasks posted by the CPU on that QP and completed
 * in doca_pe_progress()).
 */
#ifndef OGDA_DMA_DMA_PRIV_H_
#define OGDA_DMA_DMA_PRIV_H_

#include "doca_core/core_priv.h"

#include "doca_dma.h"

#include <stddef.h>
#include <stdint.h>

struct doca_gpu_verbs_qp_hl;
struct dma_tasks;

struct doca_dma {
	struct doca_ctx ctx; /* first: doca_dma_as_ctx, and back in the ops */
	struct doca_dev *dev;
	uint32_t queue_size;      /* GPU data path: copies in flight */
	uint64_t wait_timeout_ns; /* every wait; for CPU tasks, how long a stop waits for the NIC */
	/* CPU tasks (doca_dma_task_memcpy_set_conf); num_tasks 0: not configured */
	doca_dma_task_memcpy_completion_cb_t task_cb, task_err_cb;
	uint32_t num_tasks;
	/* while running */
	struct doca_gpu *host;            /* CPU data path: the host handle the QP is built for */
	struct doca_gpu_verbs_qp_hl *qp;
	struct doca_gpu_dma *handle;      /* in the data path's memory (GPU, or host for a host handle) */
	struct dma_tasks *tasks;          /* CPU data path: the task pool and the in-flight ring */
};

static inline struct doca_dma *dma_of(struct doca_ctx *ctx)
{
	return (struct doca_dma *)(void *)((char *)ctx - offsetof(struct doca_dma, ctx));
}

/* dma_task.c, for dma.c: the pool of num_tasks tasks (start) and its release (stop; every task
 * is free by then: the context stops only once its tasks are freed). */
doca_error_t dma_tasks_create(struct doca_dma *d);
void dma_tasks_destroy(struct doca_dma *d);

/* dma_task.c: the context's core_ctx_ops for CPU tasks. */
uint8_t dma_tasks_progress(struct doca_ctx *ctx);
doca_error_t dma_task_submit(struct doca_ctx *ctx, struct doca_task *task);
void dma_task_release(struct doca_ctx *ctx, struct doca_task *task);

/* The CQE syndrome of a task that completed with DOCA_ERROR_IO_FAILED (0 otherwise); for tests
 * and logs (DOCA's API has no such query). */
uint8_t dma_task_memcpy_syndrome(const struct doca_dma_task_memcpy *task);

#endif /* OGDA_DMA_DMA_PRIV_H_ */
