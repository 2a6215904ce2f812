/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What Ethernet send and receive queues start alike: one block of queue memory (work queue ring,
 * CQ ring, doorbell records) that the NIC reads, registered as a umem, and the CQ in it (PRM
 * CREATE_CQ: 64-byte CQEs, overrun ignored, polled by index from device code).
 */
#ifndef OGDA_ETH_ETH_QUEUE_MEM_H_
#define OGDA_ETH_ETH_QUEUE_MEM_H_

#include "doca_error.h"
#include "doca_gpunetio.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ogda_devx;
struct ogda_devx_obj;
struct ogda_devx_umem;

struct eth_queue_mem {
	struct ogda_devx *devx;
	struct doca_gpu *gpu;
	void *mem_cpu, *mem_gpu;      /* one doca_gpu_mem_alloc() block (mem_cpu NULL: GPU memory only) */
	size_t len;
	bool in_gpu;                  /* the block is GPU memory (registered by dmabuf or nvidia-peermem) */
	uint8_t *stage;               /* where the CPU writes the initial ring until eth_queue_mem_publish */
	bool staged;                  /* stage is a host copy (GPU memory without a CPU mapping) */
	struct ogda_devx_umem *umem;
	uint32_t umem_id;
	struct ogda_devx_obj *cq;
	uint32_t cqn;
};

/*
 * Allocates @len bytes of queue memory (@mtype; on the software NIC always CPU_GPU, said at INFO)
 * and registers it as a umem: host memory by its address, GPU memory (GPU, or GPU_CPU) with a
 * dmabuf fd, else the GPU pointer (nvidia-peermem; ogda_gpu_umem_register). The initial ring is
 * written at qm->stage, zeroed and with the 2^log_cqes CQEs at @cq_off invalid; the caller may add
 * to it (receive WQEs) and then calls eth_queue_mem_publish before the NIC may read the queue.
 * @what names the queue in log lines. On failure nothing is left (the caller's release is safe).
 */
doca_error_t eth_queue_mem_alloc(struct eth_queue_mem *qm, enum doca_gpu_mem_type mtype, size_t len, size_t cq_off,
				 uint32_t log_cqes, const char *what);
/*
 * Makes the initial ring written at qm->stage the queue memory's content: memory the CPU writes
 * directly needs nothing; GPU memory without a CPU mapping gets the host copy through the CUDA
 * driver (the CPU cannot store to it). qm->stage is NULL afterwards.
 */
doca_error_t eth_queue_mem_publish(struct eth_queue_mem *qm, const char *what);
/* CREATE_CQ of 2^log_cqes CQEs at @cq_off, its doorbell record at @cq_dbr_off, on UAR page @uar_page. */
doca_error_t eth_queue_cq_create(struct eth_queue_mem *qm, uint32_t log_cqes, size_t cq_off, size_t cq_dbr_off,
				 uint32_t uar_page, const char *what);
/* Destroys the CQ, deregisters and frees the memory (what exists); zeroes @qm. */
void eth_queue_mem_release(struct eth_queue_mem *qm);

/* Runs one create command through the device interface; a refusal is logged with its PRM status. */
doca_error_t eth_run_create(struct ogda_devx *devx, const void *in, size_t inlen, void *out, size_t outlen,
			    struct ogda_devx_obj **obj, const char *what);

/*
 * The CPU data path's public functions (txq_cpu.c, rxq_cpu.c) take OpenGDA queues; in SDK mode
 * (DOCA_SDK_LIB_PATH) the queues are the SDK's and these functions are not forwarded:
 * DOCA_ERROR_NOT_SUPPORTED, logged in @func's name. DOCA_SUCCESS otherwise.
 */
doca_error_t eth_cpu_sdk_refuses(const char *func);

struct doca_ctx;
/*
 * The checks of a CPU task configuration (doca_eth_txq_task_send_set_conf,
 * doca_eth_rxq_task_recv_set_conf): not SDK mode, the queue's context IDLE, both callbacks given
 * (@both_cbs), 1 .. @max tasks. The refusal is logged in @func's name.
 */
doca_error_t eth_task_conf_check(const struct doca_ctx *ctx, bool both_cbs, uint32_t num, uint32_t max,
				 const char *func);

/* The smallest l with 2^l >= n (queue sizes are powers of two). */
static inline uint32_t eth_log2_ceil(uint32_t n)
{
	uint32_t l = 0;

	while ((1u << l) < n)
		l++;
	return l;
}

#endif /* OGDA_ETH_ETH_QUEUE_MEM_H_ */
