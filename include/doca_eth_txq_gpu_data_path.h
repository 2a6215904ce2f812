/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_eth_txq_gpu_data_path.h
 * @brief GPU data path of a DOCA Ethernet send queue (DOCA names): where its queue memory lives
 *        and the handle device code posts through.
 */
#ifndef DOCA_ETH_TXQ_GPU_DATA_PATH_H_
#define DOCA_ETH_TXQ_GPU_DATA_PATH_H_

#include "doca_error.h"
#include "doca_eth_txq.h"
#include "doca_gpunetio.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The device-side queue (doca_gpunetio_eth_def.h). */
struct doca_gpu_eth_txq;
/** @brief A completed NOTIFY send, delivered by the progress engine. */
struct doca_eth_txq_gpu_event_notify_send_packet;
/** @brief A failed send, delivered by the progress engine. */
struct doca_eth_txq_gpu_event_error_send_packet;

/** @brief Callback of a completed NOTIFY send. */
typedef void (*doca_eth_txq_gpu_event_notify_send_packet_cb_t)(struct doca_eth_txq_gpu_event_notify_send_packet *event,
								union doca_data event_user_data);
/** @brief Callback of a failed send. */
typedef void (*doca_eth_txq_gpu_event_error_send_packet_cb_t)(struct doca_eth_txq_gpu_event_error_send_packet *event,
							       union doca_data event_user_data);

/**
 * @brief Delivers each completed NOTIFY send to @p cb from doca_pe_progress() of the engine the
 *        queue is connected to (queue not started). Only for a queue whose completions are not on
 *        the GPU (no doca_eth_txq_gpu_set_completion_on_gpu()): then the CPU consumes them.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when started.
 */
doca_error_t doca_eth_txq_gpu_event_notify_send_packet_register(struct doca_eth_txq *eth_txq,
								doca_eth_txq_gpu_event_notify_send_packet_cb_t cb,
								union doca_data user_data);

/** @brief The same for failed sends (an error completion; the queue is then in error). */
doca_error_t doca_eth_txq_gpu_event_error_send_packet_register(struct doca_eth_txq *eth_txq,
							       doca_eth_txq_gpu_event_error_send_packet_cb_t cb,
							       union doca_data user_data);

/** @brief The send's WQE index (16 bits). DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_position(
	const struct doca_eth_txq_gpu_event_notify_send_packet *event, uint16_t *position);
/** @brief The completion's time stamp (the CQE's). DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_timestamp(
	const struct doca_eth_txq_gpu_event_notify_send_packet *event, uint64_t *timestamp);
/** @brief The failed send's WQE index. DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_eth_txq_gpu_event_error_send_packet_get_position(
	const struct doca_eth_txq_gpu_event_error_send_packet *event, uint16_t *position);

/**
 * @brief Where the send queue, its CQ and their doorbell records live (queue not started).
 *
 * DOCA's default is DOCA_GPU_MEM_TYPE_GPU. The software NIC reads queues from host memory, so on
 * it a queue always uses pinned host memory mapped for the GPU (CPU_GPU), whatever this says
 * (logged when it differs).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or an unknown type;
 *         DOCA_ERROR_BAD_STATE when started.
 */
doca_error_t doca_eth_txq_gpu_set_sq_mem_type(struct doca_eth_txq *eth_txq, enum doca_gpu_mem_type mtype);

/**
 * @brief Completions of NOTIFY sends go to the GPU (polled by device code), as the GPU samples ask
 *        (queue not started). In OpenGDA they always do: without this call they are not delivered
 *        to a CPU progress engine either (docs/ethernet.md).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when started.
 */
doca_error_t doca_eth_txq_gpu_set_completion_on_gpu(struct doca_eth_txq *eth_txq);

/**
 * @brief CPU proxy: device code hands its producer index to a CPU thread, which rings the
 *        doorbell with doca_eth_txq_gpu_cpu_proxy_progress() (queue not started). For GPUs that
 *        cannot map the NIC's doorbell.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when started.
 */
doca_error_t doca_eth_txq_gpu_set_uar_on_cpu(struct doca_eth_txq *eth_txq);

/**
 * @brief One step of the CPU proxy: rings the doorbell for every send device code published since
 *        the last step. Call it in a loop from a CPU thread while device code sends.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NOT_SUPPORTED for a queue
 *         without doca_eth_txq_gpu_set_uar_on_cpu(); DOCA_ERROR_BAD_STATE when not started.
 */
doca_error_t doca_eth_txq_gpu_cpu_proxy_progress(struct doca_eth_txq *eth_txq);

/**
 * @brief The handle device code posts through, valid while the queue is started.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments; DOCA_ERROR_BAD_STATE when
 *         the queue is not started; DOCA_ERROR_NOT_SUPPORTED for a queue with a CPU data path
 *         (send tasks post on it).
 */
doca_error_t doca_eth_txq_get_gpu_handle(const struct doca_eth_txq *eth_txq, struct doca_gpu_eth_txq **eth_txq_ext);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_TXQ_GPU_DATA_PATH_H_ */
