/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_eth_rx_mcst.h
 * @brief Device C core of the memory-consistency step ("MCST") after an Ethernet receive.
 *
 * A GPU before compute capability 9 may make a CQE visible before the packet data the NIC wrote
 * ahead of it. A receive with MCST ENABLED, or AUTO on a queue with need_mcst, that got packets
 * then makes the data visible. On a queue with an MCST queue (mcst_qp, built at start after
 * doca_eth_rxq_gpu_enable_mcst_qp) it posts one signaled DUMP of one byte of the packet buffer
 * (pkt_addr, pkt_mkey) and waits for its CQE, through the shared send protocol
 * (ogda_dev_op_dump_fence: post_begin / DUMP WQE / post_end, EXCLUSIVE: one receiver per
 * queue, then the QP's bounded wait). A queue without one falls back to a system-scope fence.
 *
 * Thread scope: the caller is the queue's one receiving thread (warp and block receives call
 * it from one lane).
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_ETH_RX_MCST_H
#define OGDA_DEV_ETH_RX_MCST_H

#include <stdint.h>

#include "../doca_gpunetio_eth_def.h"
#include "../doca_gpunetio_verbs_dev.h"
#include "ogda_dev_eth_rx.h"
#include "ogda_dev_send.h"

/** Whether a receive of @p n packets in @p mcst_mode (enum doca_gpu_dev_eth_mcst_mode) runs MCST. */
OGDA_DEV_FN int ogda_dev_eth_rx_mcst_wanted(const struct doca_gpu_eth_rxq *rxq, uint32_t n, int mcst_mode)
{
	return n != 0 && (mcst_mode == DOCA_GPUNETIO_ETH_MCST_ENABLED ||
			  (mcst_mode == DOCA_GPUNETIO_ETH_MCST_AUTO && rxq->need_mcst));
}

/**
 * The MCST step after a receive of @p n packets. Returns 0 (done, or nothing to do),
 * OPENGDA_DEV_CQE_ERROR(syndrome) when the DUMP completed in error, -OPENGDA_DEV_ETIMEDOUT when
 * its CQE did not come within the QP's wait bound.
 */
OGDA_DEV_FN int ogda_dev_eth_rx_mcst(struct doca_gpu_eth_rxq *rxq, uint32_t n, int mcst_mode)
{
	struct doca_gpu_dev_verbs_addr daddr;

	if (!ogda_dev_eth_rx_mcst_wanted(rxq, n, mcst_mode))
		return 0;
	if (rxq->mcst_qp == 0) {
#if defined(__CUDACC__)
		__threadfence_system();
#else
		ogda_dev_fence_nic_acquire(); /* host threads: the port's fence (a plain one under TSan) */
#endif
		return 0;
	}
	daddr.addr = rxq->pkt_addr;
	daddr.key = rxq->pkt_mkey; /* big-endian, as the DUMP's lkey */
	return ogda_dev_op_dump_fence(rxq->mcst_qp, daddr, OGDA_DEV_SHARE_EXCLUSIVE, (uint32_t)rxq->mcst_qp->nic_handler);
}

/**
 * ogda_dev_eth_rx_recv followed by the MCST step in @p mcst_mode: the thread-scope receive of
 * doca_gpu_dev_eth_rxq_recv. Returns the receive's error when it had one (its packets are still
 * returned and made visible), else the MCST step's.
 */
OGDA_DEV_FN int ogda_dev_eth_rx_recv_mcst(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
					  uint64_t *first_pkt_idx, uint32_t *pkt_num,
					  struct doca_gpu_dev_eth_rxq_attr *attr, int rx_attr, int mcst_mode)
{
	int rc = ogda_dev_eth_rx_recv(rxq, max_rx_pkts, timeout_ns, first_pkt_idx, pkt_num, attr, rx_attr);
	int m = ogda_dev_eth_rx_mcst(rxq, *pkt_num, mcst_mode);

	return rc != 0 ? rc : m;
}

#endif /* OGDA_DEV_ETH_RX_MCST_H */
