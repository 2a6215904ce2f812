/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Ethernet receive queues (doca_eth_rxq.h): the object, what a started queue holds.
 *
 *   rxq.c        the receive queue object and its configuration
 *   rxq_start.c  what start creates (memory, CQ, RQ, the device handle) and stop undoes
 *   rxq_ids.c    queue ids for DOCA Flow (eth_queue_ids.h)
 *   rxq_mcst.c   the MCST queue (doca_eth_rxq_gpu_enable_mcst_qp): a loopback QP for DUMPs
 *   rxq_cpu.c    the CPU data path (DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL): packets lent as doca_buf
 *                from doca_pe_progress(), reposted in ring order once given back
 *   rxq_task.c   the CPU data path of DOCA_ETH_RXQ_TYPE_REGULAR: receive tasks, each posting one
 *                WQE naming the application's own doca_buf
 */
#ifndef OGDA_ETH_RXQ_PRIV_H_
#define OGDA_ETH_RXQ_PRIV_H_

#include "doca_core/core_priv.h"
#include "doca_eth_rxq.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "doca_gpunetio_eth_def.h"
#include "eth/eth_queue_mem.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ogda_devx_obj;
struct ogda_devx_uar;
struct doca_gpu_verbs_qp_hl;

/*
 * The CPU data path of a started MANAGED_MEMPOOL queue (rxq_cpu.c). The queue is built for a host
 * handle of its own, so its device view (res.handle) is host memory that the progress engine's
 * thread receives through with the device C core.
 */
struct eth_rxq_cpu {
	struct doca_gpu *host;            /* the host handle the queue is built for */
	struct doca_buf *bufs;            /* one per packet buffer, lent to the application */
	_Atomic uint8_t *slot;            /* per buffer: enum in rxq_cpu.c (posted, lent, given back) */
	_Atomic uint32_t lent;            /* buffers the application holds */
	bool in_error;                    /* an error CQE came: the RQ is in error, nothing is reposted */
};

struct doca_eth_rxq_task_recv;

/*
 * The receive tasks of a started REGULAR queue (rxq_task.c). The RQ starts empty; each submit
 * posts one WQE (producer counter wqe_pi of the view), and CQE i completes ring[i & mask], so
 * tasks complete in submit order. Touched by the engine's thread only.
 */
struct eth_rxq_tasks {
	struct doca_eth_rxq_task_recv *pool;  /* task_num tasks */
	struct doca_eth_rxq_task_recv *free;  /* free list */
	struct doca_eth_rxq_task_recv **ring; /* in flight, by WQE index */
	uint32_t mask;                        /* WQEs - 1 */
	uint64_t posted, done;                /* WQEs posted / tasks completed */
	bool in_error;                        /* an error CQE came: the RQ is in error */
	bool quiesced;                        /* stopping: the RQ was reset, the rest are flushed */
};

struct eth_rxq_res {
	struct eth_queue_mem qm;          /* queue memory, umem, CQ (eth_queue_mem.h) */
	struct ogda_devx_uar *uar;        /* named by the CQ */
	struct ogda_devx_obj *rq;
	uint32_t rqn;
	struct doca_gpu_eth_rxq *handle;  /* device copy of `view` */
	struct doca_gpu_verbs_qp_hl *mcst; /* the MCST queue (need_mcst), else NULL */
	bool dev_used;                    /* core_dev_use() taken */
	bool id_registered;               /* the queue id is in the registry */
	struct eth_rxq_cpu cpu;           /* CPU data path only */
	struct eth_rxq_tasks task;        /* REGULAR only */
};

struct doca_eth_rxq {
	struct doca_ctx ctx;              /* first: doca_eth_rxq_as_doca_ctx() and back */
	struct doca_dev *dev;
	uint32_t max_burst;
	uint32_t max_pkt;
	enum doca_eth_rxq_type type;
	struct doca_mmap *pkt_mmap;       /* held (core_mmap_hold) while set */
	uint32_t pkt_offset, pkt_len;
	enum doca_gpu_mem_type rq_mem_type;
	bool need_mcst;                   /* doca_eth_rxq_gpu_enable_mcst_qp: start builds the MCST queue */
	bool uar_on_cpu;                  /* doca_eth_rxq_gpu_set_uar_on_cpu: the MCST queue is CPU_PROXY */
	pthread_mutex_t proxy_lock;       /* a proxy step against the MCST queue's destruction */
	uint32_t strides_per_wqe;         /* 0: cyclic; else a striding RQ (opengda_eth_rxq_set_striding) */
	bool has_queue_id;
	uint16_t queue_id;
	/* doca_eth_rxq_event_managed_recv_register (CPU data path) */
	doca_eth_rxq_event_managed_recv_handler_cb_t recv_cb, recv_err_cb;
	union doca_data recv_user_data;
	/* doca_eth_rxq_task_recv_set_conf (REGULAR, CPU data path) */
	doca_eth_rxq_task_recv_completion_cb_t task_cb, task_err_cb;
	uint32_t task_num;
	struct doca_gpu_eth_rxq view;     /* host copy of the device handle */
	struct eth_rxq_res res;
};

/* Packet buffers of a queue: max_burst rounded up to a power of two (at least 2). */
uint32_t eth_rxq_pkt_num(uint32_t max_burst);

/* core_ctx_ops of a receive queue (rxq_start.c; progress and busy: rxq_cpu.c). */
doca_error_t eth_rxq_start(struct doca_ctx *ctx);
doca_error_t eth_rxq_stop(struct doca_ctx *ctx);
uint8_t eth_rxq_progress(struct doca_ctx *ctx);
bool eth_rxq_busy(const struct doca_ctx *ctx);

/* The executor a started queue is built for: the GPU data path's, or the CPU path's host handle. */
static inline struct doca_gpu *eth_rxq_exec(const struct doca_eth_rxq *q)
{
	return q->ctx.gpu != NULL ? q->ctx.gpu : q->res.cpu.host;
}

/*
 * rxq_cpu.c, for start and stop. prepare: the checks of a queue without a GPU data path (type,
 * handlers or task configuration, engine) and its host handle; logs and returns the refusal.
 * init: the lent-buffer state (REGULAR: the task state, rxq_task.c) once the queue is built.
 * release: frees them and the host handle (what exists).
 */
doca_error_t eth_rxq_cpu_prepare(struct doca_eth_rxq *q);
doca_error_t eth_rxq_cpu_init(struct doca_eth_rxq *q);
void eth_rxq_cpu_release(struct doca_eth_rxq *q);

/*
 * rxq_task.c, for start, stop and the context ops of a REGULAR queue. check: the task
 * configuration is set (BAD_STATE, logged, otherwise). init: the task pool and the in-flight ring
 * of @wqes entries. release: frees them. submit / release: core_ctx_ops. progress: completions
 * in order and, while the queue stops, the flush of what is still in flight.
 */
doca_error_t eth_rxq_task_check(const struct doca_eth_rxq *q);
doca_error_t eth_rxq_task_init(struct doca_eth_rxq *q, uint32_t wqes);
void eth_rxq_task_release_all(struct doca_eth_rxq *q);
doca_error_t eth_rxq_task_submit(struct doca_ctx *ctx, struct doca_task *task);
void eth_rxq_task_release(struct doca_ctx *ctx, struct doca_task *task);
uint8_t eth_rxq_task_progress(struct doca_eth_rxq *q);

/* rxq_start.c: MODIFY_RQ of the started queue's RQ from @from to @to (PRM_RQ_STATE_*); logged on failure. */
doca_error_t eth_rxq_rq_modify(struct doca_eth_rxq *q, uint8_t from, uint8_t to);

/*
 * rxq_mcst.c: the MCST queue of a starting queue (res.mcst) and its device view (*view, valid
 * until eth_rxq_mcst_destroy); on error nothing is left and the error is logged.
 */
doca_error_t eth_rxq_mcst_create(struct doca_eth_rxq *q, struct doca_gpu_dev_verbs_qp **view);
void eth_rxq_mcst_destroy(struct doca_eth_rxq *q);
/* One CPU proxy step of the MCST queue (nothing when there is none or it rings its own doorbell). */
doca_error_t eth_rxq_mcst_progress(struct doca_eth_rxq *q);

#endif /* OGDA_ETH_RXQ_PRIV_H_ */
