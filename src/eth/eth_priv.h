/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Ethernet queues (doca_eth_txq.h): the objects of this folder.
 *
 *   txq.c        the send queue object and its configuration
 *   txq_start.c  what start creates (memory, CQ, TIS, SQ, the device handle) and stop undoes
 *   txq_event.c  GPU data path: send events consumed by the progress engine
 *   txq_cpu.c    CPU data path: send tasks (doca_eth_txq_task_send) posted with the device C core
 *   port.c       opengda_eth_port_attach: the software NIC's Ethernet port
 *
 * Layering: above DOCA Core (struct doca_ctx, the device's PD), the device interface (devx) and
 * the PRM builders; the device handle comes from src/gpunetio's memory services.
 */
#ifndef OGDA_ETH_ETH_PRIV_H_
#define OGDA_ETH_ETH_PRIV_H_

#include "doca_core/core_priv.h"
#include "doca_eth_txq.h"
#include "doca_eth_txq_gpu_data_path.h"
#include "doca_gpunetio_eth_def.h"
#include "eth/eth_queue_mem.h"
#include "gpunetio/gpunetio_priv.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ogda_devx;
struct ogda_devx_obj;
struct ogda_devx_umem;
struct ogda_devx_uar;

struct doca_eth_txq_task_send;

/*
 * The CPU data path of a started queue (txq_cpu.c): the queue is built for a host handle of its
 * own and the engine's thread posts on its device view. Every send asks for a CQE, so CQE i
 * completes WQE i, the task in ring[i & mask].
 */
struct eth_txq_cpu {
	struct doca_gpu *host;                  /* the host handle the queue is built for */
	struct doca_eth_txq_task_send *pool;    /* task_num tasks */
	struct doca_eth_txq_task_send *free;
	struct doca_eth_txq_task_send **ring;   /* in flight, by WQE index & mask (the SQ ring's size) */
	uint64_t mask;
	uint64_t posted;                        /* WQE index after the last one posted */
	uint64_t done;                          /* WQE index of the oldest task in flight */
};

/* What a started queue holds (all NULL / 0 when stopped). */
struct eth_txq_res {
	struct eth_queue_mem qm;          /* SQ ring, CQ ring, DBRs, their umem, the CQ (eth_queue_mem.h) */
	struct ogda_devx_uar *uar;
	struct ogda_gpu_db_map db_map;    /* what mapping the doorbell for device code took */
	uint64_t *db_gpu;                 /* the doorbell register as device code reaches it */
	uint64_t *db_cpu;                 /* the doorbell register as the CPU sees it */
	uint32_t *dbr_cpu;                /* the SQ doorbell record word as the CPU sees it (CPU proxy) */
	struct ogda_devx_obj *td, *tis, *sq;
	uint32_t tdn, tisn, sqn;
	void *ready_slots;                /* readiness words of the send-queue protocol (device memory) */
	struct doca_gpu_eth_txq *handle;  /* device copy of `view` */
	bool dev_used;                    /* core_dev_use() taken */
	/* CPU proxy (doca_eth_txq_gpu_set_uar_on_cpu): device code publishes its producer index here */
	uint64_t *mailbox_cpu;
	void *mailbox_gpu;
	uint64_t last_pi;                 /* under proxy_lock */
	uint8_t *cqes_cpu;                /* the CQ ring as the CPU sees it (events); NULL in GPU memory */
	uint8_t *cqes_gpu;                /* the CQ ring's device address (events copy CQEs from it) */
	uint32_t log_cqes;
	uint64_t cpu_cq_ci;               /* CQEs the progress engine consumed */
	struct eth_txq_cpu cpu;           /* CPU data path only */
};

struct doca_eth_txq {
	struct doca_ctx ctx;              /* first: doca_eth_txq_as_doca_ctx() and back */
	struct doca_dev *dev;
	uint32_t max_burst;
	uint8_t l3_csum, l4_csum;
	bool wait_on_time;                /* doca_eth_txq_set_wait_on_time_offload */
	bool uar_on_cpu;                  /* doca_eth_txq_gpu_set_uar_on_cpu: a CPU thread rings */
	bool completion_on_gpu;           /* doca_eth_txq_gpu_set_completion_on_gpu: device code polls */
	doca_eth_txq_gpu_event_notify_send_packet_cb_t notify_cb; /* progress engine events */
	union doca_data notify_data;
	doca_eth_txq_gpu_event_error_send_packet_cb_t error_cb;
	union doca_data error_data;
	pthread_mutex_t proxy_lock;       /* doca_eth_txq_gpu_cpu_proxy_progress callers */
	enum doca_gpu_mem_type sq_mem_type;
	enum doca_eth_txq_type type;      /* doca_eth_txq_set_type: REGULAR, the only one */
	/* doca_eth_txq_task_send_set_conf (CPU data path) */
	doca_eth_txq_task_send_completion_cb_t task_cb, task_err_cb;
	uint32_t task_num;
	struct doca_gpu_eth_txq view;     /* host copy of the device handle */
	struct eth_txq_res res;
};

/* core_ctx_ops of a send queue (txq_start.c; progress: txq_event.c; tasks: txq_cpu.c). */
doca_error_t eth_txq_start(struct doca_ctx *ctx);
doca_error_t eth_txq_stop(struct doca_ctx *ctx);
uint8_t eth_txq_progress(struct doca_ctx *ctx);
doca_error_t eth_txq_task_submit(struct doca_ctx *ctx, struct doca_task *task);
void eth_txq_task_release(struct doca_ctx *ctx, struct doca_task *task);

/* The executor a started queue is built for: the GPU data path's, or the CPU path's host handle. */
static inline struct doca_gpu *eth_txq_exec(const struct doca_eth_txq *t)
{
	return t->ctx.gpu != NULL ? t->ctx.gpu : t->res.cpu.host;
}

/*
 * txq_cpu.c, for start, stop and progress. prepare: the checks of a queue without a GPU data
 * path (task configuration, engine, no CPU proxy) and its host handle; logs its refusal. init:
 * the task pool once the queue is built (@ring_size WQEBBs). release: frees both (what exists).
 * progress: completes the tasks whose CQEs arrived.
 */
doca_error_t eth_txq_cpu_prepare(struct doca_eth_txq *t);
doca_error_t eth_txq_cpu_init(struct doca_eth_txq *t, uint32_t ring_size);
void eth_txq_cpu_release(struct doca_eth_txq *t);
uint8_t eth_txq_cpu_progress(struct doca_eth_txq *t);

struct doca_eth_txq_gpu_event_notify_send_packet {
	uint16_t position;
	uint64_t timestamp;
};

struct doca_eth_txq_gpu_event_error_send_packet {
	uint16_t position;
};

#endif /* OGDA_ETH_ETH_PRIV_H_ */
