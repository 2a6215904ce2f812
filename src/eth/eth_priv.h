/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Ethernet queues (doca_eth_txq.h): the objects of this folder.
 *
 *   txq.c        the send queue object and its configuration
 *   txq_start.c  what start creates (memory, CQ, TIS, SQ, the device handle) and stop undoes
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
	struct doca_gpu_eth_txq view;     /* host copy of the device handle */
	struct eth_txq_res res;
};

/* core_ctx_ops of a send queue (txq_start.c; progress: txq_event.c). */
doca_error_t eth_txq_start(struct doca_ctx *ctx);
doca_error_t eth_txq_stop(struct doca_ctx *ctx);
uint8_t eth_txq_progress(struct doca_ctx *ctx);

struct doca_eth_txq_gpu_event_notify_send_packet {
	uint16_t position;
	uint64_t timestamp;
};

struct doca_eth_txq_gpu_event_error_send_packet {
	uint16_t position;
};

#endif /* OGDA_ETH_ETH_PRIV_H_ */
