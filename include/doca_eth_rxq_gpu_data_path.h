/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_eth_rxq_gpu_data_path.h
 * @brief GPU data path of a DOCA Ethernet receive queue (DOCA names): queue memory, the MCST
 *        choice, the CPU proxy, and the handle device code receives through.
 */
#ifndef DOCA_ETH_RXQ_GPU_DATA_PATH_H_
#define DOCA_ETH_RXQ_GPU_DATA_PATH_H_

#include "doca_error.h"
#include "doca_eth_rxq.h"
#include "doca_gpunetio.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The device-side queue (doca_gpunetio_eth_def.h). */
struct doca_gpu_eth_rxq;

/**
 * @brief Where the RQ, its CQ and doorbell records live (DOCA's default: GPU). On the software
 *        NIC queues are always in host memory mapped for the GPU (CPU_GPU; an INFO line says so);
 *        on a ConnectX only CPU_GPU is built so far (GPU: DOCA_ERROR_NOT_SUPPORTED at start).
 */
doca_error_t doca_eth_rxq_gpu_set_rq_mem_type(struct doca_eth_rxq *eth_rxq, enum doca_gpu_mem_type mtype);
/**
 * @brief Asks for the memory-consistency step after receives (GPUs before compute capability 9):
 *        sets need_mcst in the device handle, which MCST_AUTO receives honour, and makes start
 *        build the queue's MCST queue (a loopback QP, mcst_qp in the handle) on which MCST
 *        receives post a DUMP and wait for it (docs/ethernet.md §9). Start then fails with the
 *        error of the step that failed (Verbs QP creation, export, connection) and builds nothing.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE on a started queue.
 */
doca_error_t doca_eth_rxq_gpu_enable_mcst_qp(struct doca_eth_rxq *eth_rxq);
/**
 * @brief The MCST queue (doca_eth_rxq_gpu_enable_mcst_qp) rings through a CPU thread (CPU_PROXY,
 *        doca_eth_rxq_gpu_cpu_proxy_progress()); without an MCST queue it changes nothing (a
 *        receive rings no doorbell).
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE on a started queue.
 */
doca_error_t doca_eth_rxq_gpu_set_uar_on_cpu(struct doca_eth_rxq *eth_rxq);
/**
 * @brief One CPU proxy step of the MCST queue: rings its doorbell for the DUMPs device code posted
 *        since the last step. Nothing to do (DOCA_SUCCESS) before start, without an MCST queue,
 *        or when it rings its own doorbell. Safe against a concurrent stop.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; the Verbs proxy's error otherwise.
 */
doca_error_t doca_eth_rxq_gpu_cpu_proxy_progress(struct doca_eth_rxq *eth_rxq);
/**
 * @brief The device handle of a started queue.
 * @return DOCA_ERROR_BAD_STATE before start; DOCA_ERROR_INVALID_VALUE for NULL;
 *         DOCA_ERROR_NOT_SUPPORTED for a queue with a CPU data path (MANAGED_MEMPOOL).
 */
doca_error_t doca_eth_rxq_get_gpu_handle(const struct doca_eth_rxq *eth_rxq, struct doca_gpu_eth_rxq **eth_rxq_ext);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_RXQ_GPU_DATA_PATH_H_ */
