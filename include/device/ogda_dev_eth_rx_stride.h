/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_eth_rx_stride.h
 * @brief Receives of a striding (multi-packet WQE) Ethernet receive queue: the C core's part for
 *        striding_rq = 1. ogda_dev_eth_rx.h dispatches to it.
 *
 * A striding WQE holds wqe_strides_num strides; the NIC puts a packet in the next strides of the
 * current WQE and writes its CQE: wqe_id (byte 2) = the WQE's counter, wqe_counter = the first
 * stride, byte_cnt = filler flag | strides consumed << 16 | length. When a packet does not fit
 * in what is left of a WQE, a filler CQE (no packet) closes the WQE and the packet opens the next
 * one. So CQEs and packets are not one to one: a receive counts packets, skips fillers, retires
 * every CQE it read, and hands back the WQEs the NIC has finished with — those before the last
 * CQE's WQE, and that one too when the CQE ended it (a filler, or a packet in its last stride).
 * The RQ doorbell record counts WQEs, as for any RQ.
 *
 * Packet index = (wqe_id & wqe_mask) * wqe_strides_num + first stride: get_pkt_addr(idx) is its
 * stride. When every packet takes one stride (stride >= largest frame, the SDK's configuration)
 * no filler arises and the packets of one receive are first, first + 1, ...; otherwise the
 * per-packet indices come from ogda_dev_eth_rx_recv_idx().
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_ETH_RX_STRIDE_H
#define OGDA_DEV_ETH_RX_STRIDE_H

#include "ogda_dev_eth_rx_cqe.h"

/** The CQE's wqe_id: the counter of the WQE its packet is in. */
OGDA_DEV_FN uint16_t ogda_dev_eth_rx_cqe_wqe_id(const uint8_t *cqe)
{
	return (uint16_t)((uint16_t)cqe[OPENGDA_MLX5_CQE_RX_WQE_ID] << 8 | cqe[OPENGDA_MLX5_CQE_RX_WQE_ID + 1]);
}

/** The CQE's wqe_counter: a striding queue's first stride of the packet in its WQE. */
OGDA_DEV_FN uint16_t ogda_dev_eth_rx_cqe_counter(const uint8_t *cqe)
{
	return (uint16_t)((uint16_t)cqe[OGDA_DEV_ETH_RX_CQE_WQE_COUNTER] << 8 | cqe[OGDA_DEV_ETH_RX_CQE_WQE_COUNTER + 1]);
}

/** Whether the arrived CQE is a filler (strides skipped, no packet). */
OGDA_DEV_FN int ogda_dev_eth_rx_cqe_is_filler(const uint8_t *cqe)
{
	return (cqe[OGDA_DEV_ETH_RX_CQE_BYTE_CNT] & 0x80u) != 0;
}

/** The packet index of the arrived (non-filler) CQE @p cqe of a striding queue. */
OGDA_DEV_FN uint64_t ogda_dev_eth_rx_stride_pkt_idx(const struct doca_gpu_eth_rxq *rxq, const uint8_t *cqe)
{
	return (uint64_t)(ogda_dev_eth_rx_cqe_wqe_id(cqe) & rxq->wqe_mask) * rxq->wqe_strides_num +
	       ogda_dev_eth_rx_cqe_counter(cqe);
}

/** Fills @p a from the arrived CQE @p cqe of a striding queue (length: byte_cnt [15:0]). */
OGDA_DEV_FN void ogda_dev_eth_rx_stride_attr(const uint8_t *cqe, int rx_attr, struct doca_gpu_dev_eth_rxq_attr *a)
{
	if (rx_attr == DOCA_GPUNETIO_ETH_RX_ATTR_NONE || a == 0)
		return;
	a->timestamp_ns = ogda_dev_eth_rx_cqe_ts_ns(cqe);
	if (rx_attr == DOCA_GPUNETIO_ETH_RX_ATTR_ALL)
		a->bytes = ogda_dev_eth_rx_be32(cqe + OGDA_DEV_ETH_RX_CQE_BYTE_CNT) & OPENGDA_MLX5_CQE_MPRQ_BYTES_MASK;
}

/** The most packets (and CQEs) one striding receive takes: @p max_rx_pkts, 0 meaning a ring's worth. */
OGDA_DEV_FN uint32_t ogda_dev_eth_rx_stride_limit(const struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts)
{
	uint32_t ring = rxq->cq.cqe_num < rxq->pkt_num ? rxq->cq.cqe_num : rxq->pkt_num;

	return max_rx_pkts == 0 || max_rx_pkts > ring ? ring : max_rx_pkts;
}

/**
 * Retires @p ncqe CQEs from @p ci (the CQ doorbell record moves past them) and hands the WQEs the
 * NIC finished with back (the RQ doorbell record, in WQEs, behind a release fence).
 */
OGDA_DEV_FN void ogda_dev_eth_rx_stride_release(struct doca_gpu_eth_rxq *rxq, uint64_t ci, uint32_t ncqe)
{
	const uint8_t *last;
	uint32_t bc;
	uint16_t end, done;

	if (ncqe == 0)
		return;
	last = ogda_dev_cqe_at(&rxq->cq, ci + ncqe - 1u);
	bc = ogda_dev_eth_rx_be32(last + OGDA_DEV_ETH_RX_CQE_BYTE_CNT);
	end = ogda_dev_eth_rx_cqe_wqe_id(last);
	/* A filler, or a packet in the last stride, ends its WQE: the NIC is done with it too. */
	if ((bc & OPENGDA_MLX5_CQE_MPRQ_FILLER) != 0u ||
	    ogda_dev_eth_rx_cqe_counter(last) + ((bc >> OPENGDA_MLX5_CQE_MPRQ_STRIDES_SHIFT) & OPENGDA_MLX5_CQE_MPRQ_STRIDES_MASK) >=
		    rxq->wqe_strides_num)
		end++;
	done = (uint16_t)(end - rxq->wqe_id_last); /* the 16-bit counter wraps */
	rxq->cq.cqe_ci = ci + ncqe;
	ogda_dev_store_nic_u32(rxq->cq.dbrec, opengda_mlx5_cq_dbr_set_ci_value((uint32_t)(ci + ncqe)));
	rxq->wqe_id_update = done;
	if (done == 0)
		return;
	rxq->wqe_id_last = end;
	rxq->wqe_pi += done;
	ogda_dev_fence_nic_release();
	ogda_dev_store_nic_u32(rxq->wqe_db_rec, opengda_mlx5_htobe32((uint32_t)(rxq->wqe_pi & OPENGDA_MLX5_QP_DBR_MASK)));
}

/**
 * Thread-scope receive of a striding queue: as ogda_dev_eth_rx_recv (limits, timeout, error CQE),
 * counting packets and skipping fillers. @p pkt_idx (may be NULL) gets each packet's index.
 */
OGDA_DEV_FN int ogda_dev_eth_rx_stride_recv(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
					    uint64_t *first_pkt_idx, uint32_t *pkt_num,
					    struct doca_gpu_dev_eth_rxq_attr *attr, int rx_attr, uint64_t *pkt_idx)
{
	uint64_t ci = rxq->cq.cqe_ci, deadline = ogda_dev_deadline(timeout_ns), first = DOCA_GPUNETIO_ETH_RX_NO_PKT;
	uint32_t limit = ogda_dev_eth_rx_stride_limit(rxq, max_rx_pkts), n = 0, k = 0;
	int rc = 0;

	for (;;) {
		while (n < limit && k < rxq->cq.cqe_num) {
			int st = ogda_dev_eth_rx_cqe_state(rxq, ci + k);
			const uint8_t *cqe;

			if (st == 0)
				break;
			if (st < 0) {
				rc = st;
				break;
			}
			cqe = ogda_dev_cqe_at(&rxq->cq, ci + k);
			k++;
			if (ogda_dev_eth_rx_cqe_is_filler(cqe))
				continue;
			if (n == 0)
				first = ogda_dev_eth_rx_stride_pkt_idx(rxq, cqe);
			if (pkt_idx != 0)
				pkt_idx[n] = ogda_dev_eth_rx_stride_pkt_idx(rxq, cqe);
			if (attr != 0)
				ogda_dev_eth_rx_stride_attr(cqe, rx_attr, &attr[n]);
			n++;
		}
		if (n >= limit || k >= rxq->cq.cqe_num || rc != 0 || ogda_dev_expired(deadline))
			break;
		ogda_dev_spin_pause();
	}
	*first_pkt_idx = first;
	*pkt_num = n;
	ogda_dev_eth_rx_stride_release(rxq, ci, k);
	return rc;
}

#endif /* OGDA_DEV_ETH_RX_STRIDE_H */
