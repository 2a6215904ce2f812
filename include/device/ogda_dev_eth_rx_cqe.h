/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_eth_rx_cqe.h
 * @brief Reading the CQEs of a GPU Ethernet receive queue (C core): arrival and error state,
 *        packet index, time stamp, attributes. Shared by the cyclic receive (ogda_dev_eth_rx.h)
 *        and the striding one (ogda_dev_eth_rx_stride.h).
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_ETH_RX_CQE_H
#define OGDA_DEV_ETH_RX_CQE_H

#include "../doca_gpunetio_eth_def.h"
#include "ogda_dev_cq.h"

/** CQE fields of an Ethernet receive (Linux mlx5 device.h struct mlx5_cqe64). */
#define OGDA_DEV_ETH_RX_CQE_BYTE_CNT 0x2cu
#define OGDA_DEV_ETH_RX_CQE_TIMESTAMP 0x30u
#define OGDA_DEV_ETH_RX_CQE_WQE_COUNTER 0x3cu
#define OGDA_DEV_ETH_RX_CQE_SOP_DROP_QPN 0x38u /* [23:0]: the steering entry's flow tag */
#define OGDA_DEV_ETH_RX_CQE_RSS_HASH 0x0cu

OGDA_DEV_FN uint32_t ogda_dev_eth_rx_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/**
 * Whether the CQE of index @p idx has arrived: 1 yes, 0 not yet, OPENGDA_DEV_CQE_ERROR(syndrome)
 * for an error CQE (recorded in cq.ogda_first_error).
 */
OGDA_DEV_FN int ogda_dev_eth_rx_cqe_state(struct doca_gpu_eth_rxq *rxq, uint64_t idx)
{
	struct doca_gpu_dev_verbs_cq *cq = &rxq->cq;
	const uint8_t *cqe = ogda_dev_cqe_at(cq, idx);
	uint8_t op_own = ogda_dev_load_nic_u8(cqe + 63);
	uint8_t opcode = op_own >> 4;

	if (opcode == OPENGDA_MLX5_CQE_INVALID || (op_own & 1u) != ((idx >> cq->cqe_log_num) & 1u))
		return 0;
	ogda_dev_fence_nic_acquire();
	if (OGDA_DEV_UNLIKELY(opcode == OPENGDA_MLX5_CQE_RESP_ERR || opcode == OPENGDA_MLX5_CQE_REQ_ERR)) {
		uint8_t syndrome = cqe[OPENGDA_MLX5_ERR_CQE_SYNDROME];

		ogda_dev_cq_note_error(cq, syndrome, (uint16_t)(((uint16_t)cqe[60] << 8) | cqe[61]));
		return OPENGDA_DEV_CQE_ERROR(syndrome);
	}
	return 1;
}

/** The packet index (buffer) of the arrived CQE @p idx: its WQE counter within the ring. */
OGDA_DEV_FN uint64_t ogda_dev_eth_rx_pkt_idx(const struct doca_gpu_eth_rxq *rxq, uint64_t idx)
{
	const uint8_t *cqe = ogda_dev_cqe_at(&rxq->cq, idx);
	uint32_t counter = (uint32_t)cqe[OGDA_DEV_ETH_RX_CQE_WQE_COUNTER] << 8 | cqe[OGDA_DEV_ETH_RX_CQE_WQE_COUNTER + 1];

	return counter & rxq->wqe_mask;
}

/** The CQE's time stamp (seconds << 32 | nanoseconds) in nanoseconds. */
OGDA_DEV_FN uint64_t ogda_dev_eth_rx_cqe_ts_ns(const uint8_t *cqe)
{
	uint64_t sec = ogda_dev_eth_rx_be32(cqe + OGDA_DEV_ETH_RX_CQE_TIMESTAMP);
	uint64_t nsec = ogda_dev_eth_rx_be32(cqe + OGDA_DEV_ETH_RX_CQE_TIMESTAMP + 4);

	return sec * 1000000000ull + nsec;
}

/** The flow tag of the steering entry that delivered the arrived CQE @p idx (sop_drop_qpn [23:0]). */
OGDA_DEV_FN uint32_t ogda_dev_eth_rx_cqe_flow_tag(const struct doca_gpu_eth_rxq *rxq, uint64_t idx)
{
	return ogda_dev_eth_rx_be32(ogda_dev_cqe_at(&rxq->cq, idx) + OGDA_DEV_ETH_RX_CQE_SOP_DROP_QPN) & 0xffffffu;
}

/** The RSS hash the TIR computed for the arrived CQE @p idx (0 for a direct TIR). */
OGDA_DEV_FN uint32_t ogda_dev_eth_rx_cqe_rss_hash(const struct doca_gpu_eth_rxq *rxq, uint64_t idx)
{
	return ogda_dev_eth_rx_be32(ogda_dev_cqe_at(&rxq->cq, idx) + OGDA_DEV_ETH_RX_CQE_RSS_HASH);
}

/** Fills @p a from the arrived CQE @p idx (@p rx_attr: enum doca_gpu_dev_eth_rxq_attr_type). */
OGDA_DEV_FN void ogda_dev_eth_rx_attr(const struct doca_gpu_eth_rxq *rxq, uint64_t idx, int rx_attr,
				      struct doca_gpu_dev_eth_rxq_attr *a)
{
	const uint8_t *cqe = ogda_dev_cqe_at(&rxq->cq, idx);

	if (rx_attr == DOCA_GPUNETIO_ETH_RX_ATTR_NONE || a == 0)
		return;
	a->timestamp_ns = ogda_dev_eth_rx_cqe_ts_ns(cqe);
	if (rx_attr == DOCA_GPUNETIO_ETH_RX_ATTR_ALL)
		a->bytes = ogda_dev_eth_rx_be32(cqe + OGDA_DEV_ETH_RX_CQE_BYTE_CNT);
}

#endif /* OGDA_DEV_ETH_RX_CQE_H */
