/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_eth_txq.h
 * @brief DOCA Ethernet send queue (DOCA names): a context whose send queue a GPU (or host
 *        threads, through the same device code) fills with Ethernet frames.
 *
 * Life cycle: doca_eth_txq_create(), configuration (burst size, checksum offloads, queue memory),
 * doca_ctx_set_datapath_on_gpu() on doca_eth_txq_as_doca_ctx(), doca_ctx_start(), then
 * doca_eth_txq_get_gpu_handle() for device code (doca_gpunetio_dev_eth_txq.cuh, or the C core
 * include/device/ogda_dev_eth.h on host threads). doca_ctx_stop() and doca_eth_txq_destroy() undo
 * it. Start creates, through the device interface (software NIC or ConnectX alike), a CQ, a TIS
 * and an Ethernet SQ (PRM CREATE_CQ, CREATE_TIS, CREATE_SQ, MODIFY_SQ RST to RDY).
 *
 * On the software NIC the frames leave through the Linux interface its Ethernet port is attached
 * to (OPENGDA_SWNIC_ETH_IFACE or opengda_eth_port_attach(); docs/ethernet.md).
 *
 * Differences from DOCA (docs/ethernet.md): only the GPU data path (a CPU-datapath queue cannot
 * start: DOCA_ERROR_NOT_SUPPORTED).
 *
 * Every function checks its arguments and logs why it fails.
 */
#ifndef DOCA_ETH_TXQ_H_
#define DOCA_ETH_TXQ_H_

#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_ctx;
/** @brief An Ethernet send queue. */
struct doca_eth_txq;

/** @brief How a device schedules sends by time (wait-on-time). */
enum doca_eth_wait_on_time_type {
	DOCA_ETH_WAIT_ON_TIME_TYPE_NONE = 0,   /**< Not supported. */
	DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE = 1, /**< WAIT WQEs on the NIC clock (what the GPU data path uses). */
	DOCA_ETH_WAIT_ON_TIME_TYPE_DPDK = 2,   /**< DPDK's scheme (not offered here). */
};

/** @brief Largest burst (send descriptors) a queue takes: one WQEBB per packet, 2^15 WQEBBs. */
#define OPENGDA_ETH_TXQ_MAX_BURST 32768u

/**
 * @brief Creates a send queue on @p dev for bursts of up to @p max_burst_size packets.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments or a burst size of 0 or above
 *         OPENGDA_ETH_TXQ_MAX_BURST; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_eth_txq_create(struct doca_dev *dev, uint32_t max_burst_size, struct doca_eth_txq **eth_txq);

/**
 * @brief Destroys a queue that is not started.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE while started.
 */
doca_error_t doca_eth_txq_destroy(struct doca_eth_txq *eth_txq);

/** @brief The queue's context (doca_ctx_start / stop / set_datapath_on_gpu); NULL for NULL. */
struct doca_ctx *doca_eth_txq_as_doca_ctx(struct doca_eth_txq *eth_txq);

/**
 * @brief Changes the burst size (queue not started).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE as for create; DOCA_ERROR_BAD_STATE when started.
 */
doca_error_t doca_eth_txq_set_max_burst_size(struct doca_eth_txq *eth_txq, uint32_t max_burst_size);

/**
 * @brief The largest burst size the device takes for a queue.
 * @param [in] devinfo The device.
 * @param [in] max_send_buf_list_len Buffers per packet (1 or 2 on the GPU data path).
 * @param [in] max_inline_size Inline bytes per packet (0 on the GPU data path).
 * @param [out] max_burst_size The answer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments; DOCA_ERROR_NOT_SUPPORTED for a
 *         buffer list longer than 2 or inline bytes.
 */
doca_error_t doca_eth_txq_cap_get_max_burst_size(const struct doca_devinfo *devinfo, uint32_t max_send_buf_list_len,
						 uint16_t max_inline_size, uint32_t *max_burst_size);

/**
 * @brief Asks the NIC to write the IPv4 header checksum of every frame (@p enable_l3_chksum 1).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or a value other than 0 / 1;
 *         DOCA_ERROR_BAD_STATE when started.
 */
doca_error_t doca_eth_txq_set_l3_chksum_offload(struct doca_eth_txq *eth_txq, uint8_t enable_l3_chksum);

/** @brief The same for the TCP / UDP checksum. */
doca_error_t doca_eth_txq_set_l4_chksum_offload(struct doca_eth_txq *eth_txq, uint8_t enable_l4_chksum);

/**
 * @brief Whether the device can hold sends until a time: NATIVE on the software NIC (its clock is
 *        CLOCK_REALTIME), NONE on a ConnectX (not determined yet).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_txq_cap_get_wait_on_time_offload_supported(const struct doca_devinfo *devinfo,
								 enum doca_eth_wait_on_time_type *wait_on_time_mode);

/**
 * @brief Enables wait-on-time sends on the queue (not started).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when started;
 *         DOCA_ERROR_NOT_SUPPORTED when the device has no NATIVE wait-on-time.
 */
doca_error_t doca_eth_txq_set_wait_on_time_offload(struct doca_eth_txq *eth_txq);

/**
 * @brief The value a wait-on-time WQE carries for @p timestamp_ns (CLOCK_REALTIME nanoseconds):
 *        big-endian (seconds << 32 | nanoseconds), what device code passes to wait_send.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments; DOCA_ERROR_BAD_STATE unless
 *         wait-on-time was enabled.
 */
doca_error_t doca_eth_txq_calculate_timestamp(struct doca_eth_txq *eth_txq, uint64_t timestamp_ns,
					      uint64_t *wait_on_time_ts);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_TXQ_H_ */
