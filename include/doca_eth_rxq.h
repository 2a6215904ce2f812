/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_eth_rxq.h
 * @brief DOCA Ethernet receive queue (DOCA names): a context whose receive queue the NIC fills
 *        with frames steered to it (DOCA Flow, doca_flow.h) and device code empties.
 *
 * Life cycle: doca_eth_rxq_create(), doca_eth_rxq_set_type(CYCLIC), the packet buffer
 * (doca_eth_rxq_estimate_packet_buf_size(), a doca_mmap over GPU or host memory,
 * doca_eth_rxq_set_pkt_buf()), doca_ctx_set_datapath_on_gpu() on doca_eth_rxq_as_doca_ctx(),
 * doca_ctx_start(), doca_eth_rxq_apply_queue_id() for DOCA Flow, then
 * doca_eth_rxq_get_gpu_handle() for device code (doca_gpunetio_dev_eth_rxq.cuh, or the C core
 * include/device/ogda_dev_eth_rx.h on host threads). Start creates, through the device interface
 * (software NIC or ConnectX alike), a CQ and an RQ whose WQEs name the packet buffers (PRM
 * CREATE_CQ, CREATE_RQ, MODIFY_RQ RST to RDY); all WQEs are posted at start (cyclic queue).
 *
 * Differences from DOCA (docs/ethernet.md): only the cyclic type and the GPU data path; no
 * striding RQ by default (opengda_eth_rxq_set_striding()); the MCST DUMP queue
 * (doca_eth_rxq_gpu_enable_mcst_qp()) is a loopback RC QP exported as mcst_qp in the handle.
 *
 * Every function checks its arguments and logs why it fails.
 */
#ifndef DOCA_ETH_RXQ_H_
#define DOCA_ETH_RXQ_H_

#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_ctx;
struct doca_mmap;
/** @brief An Ethernet receive queue. */
struct doca_eth_rxq;

/** @brief Receive queue types. */
enum doca_eth_rxq_type {
	DOCA_ETH_RXQ_TYPE_CYCLIC = 0,          /**< Buffers reused in ring order; the GPU data path's type. */
	DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL = 1, /**< CPU data path (not offered here). */
	DOCA_ETH_RXQ_TYPE_REGULAR = 2,         /**< CPU data path with doca_buf (not offered here). */
};

/** @brief Who consumes the queue. */
enum doca_eth_rxq_data_path_type {
	DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU = 0, /**< A CPU (not offered here). */
	DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU = 1, /**< Device code. */
};

/** @brief Largest burst (packet buffers) of a queue: 2^15. */
#define OPENGDA_ETH_RXQ_MAX_BURST 32768u
/** @brief Largest packet a queue takes (a jumbo frame). */
#define OPENGDA_ETH_RXQ_MAX_PACKET_SIZE 16384u

/**
 * @brief Creates a receive queue on @p dev holding up to @p max_burst_size packets (rounded up to
 *        a power of two) of up to @p max_packet_size bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or out-of-range sizes; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_eth_rxq_create(struct doca_dev *dev, uint32_t max_burst_size, uint32_t max_packet_size,
				 struct doca_eth_rxq **eth_rxq);
/** @brief Destroys a stopped queue. @return DOCA_ERROR_BAD_STATE while started. */
doca_error_t doca_eth_rxq_destroy(struct doca_eth_rxq *eth_rxq);
/** @brief The queue's context (NULL, logged, for NULL). */
struct doca_ctx *doca_eth_rxq_as_doca_ctx(struct doca_eth_rxq *eth_rxq);

/** @brief Sets the type: only DOCA_ETH_RXQ_TYPE_CYCLIC (DOCA_ERROR_NOT_SUPPORTED for the CPU types). */
doca_error_t doca_eth_rxq_set_type(struct doca_eth_rxq *eth_rxq, enum doca_eth_rxq_type type);
/** @brief Changes the burst size (queue not started). */
doca_error_t doca_eth_rxq_set_max_burst_size(struct doca_eth_rxq *eth_rxq, uint32_t max_burst_size);
/** @brief Changes the largest packet size (queue not started). */
doca_error_t doca_eth_rxq_set_max_packet_size(struct doca_eth_rxq *eth_rxq, uint16_t max_packet_size);

/**
 * @brief Bytes of packet buffer a queue of @p type needs: for CYCLIC, @p max_burst_size rounded up
 *        to a power of two, times @p max_packet_size plus @p head_size and @p tail_size. @p rate,
 *        @p pkt_max_time and @p log_max_lro_pkt_sz are accepted (LRO is not offered: must be 0).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or out-of-range values;
 *         DOCA_ERROR_NOT_SUPPORTED for the CPU types.
 */
doca_error_t doca_eth_rxq_estimate_packet_buf_size(enum doca_eth_rxq_type type, uint32_t rate, uint16_t pkt_max_time,
						   uint32_t max_packet_size, uint32_t max_burst_size,
						   uint8_t log_max_lro_pkt_sz, uint16_t head_size, uint16_t tail_size,
						   uint32_t *buf_size);
/**
 * @brief The packet buffer: @p size bytes at @p offset in @p mmap (started, local read-write). It
 *        must hold the estimated size; checked at start.
 */
doca_error_t doca_eth_rxq_set_pkt_buf(struct doca_eth_rxq *eth_rxq, struct doca_mmap *mmap, uint32_t mmap_offset,
				      uint32_t mmap_len);

/** @brief DOCA_SUCCESS for (CYCLIC, GPU); DOCA_ERROR_NOT_SUPPORTED for the others. */
doca_error_t doca_eth_rxq_cap_is_type_supported(const struct doca_devinfo *devinfo, enum doca_eth_rxq_type type,
						enum doca_eth_rxq_data_path_type data_path_type);
/** @brief OPENGDA_ETH_RXQ_MAX_BURST. */
doca_error_t doca_eth_rxq_cap_get_max_burst_size(const struct doca_devinfo *devinfo, uint32_t *max_burst_size);
/** @brief OPENGDA_ETH_RXQ_MAX_PACKET_SIZE. */
doca_error_t doca_eth_rxq_cap_get_max_packet_size(const struct doca_devinfo *devinfo, uint16_t *max_packet_size);

/**
 * @brief Gives the queue the id DOCA Flow's RSS forwarding names (fwd.rss.queues_array). Before
 *        start the id is kept and registered when the queue starts; on a started queue it is
 *        registered at once. Ids are per device. @return DOCA_ERROR_ALREADY_EXIST when another
 *        started queue of the device has it.
 */
doca_error_t doca_eth_rxq_apply_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t queue_id);
/** @brief The queue's id (DOCA 2.x name); DOCA_ERROR_BAD_STATE when none was applied. */
doca_error_t doca_eth_rxq_get_flow_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t *flow_queue_id);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_RXQ_H_ */
