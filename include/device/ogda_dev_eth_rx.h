/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_eth_rx.h
 * @brief Ethernet receives of the device data path (C core; CUDA and host threads).
 *
 * A receive queue is cyclic: receive WQE i always names packet buffer i, all WQEs are posted
 * when the queue starts, and every packet a receive returns gives its WQE straight back to the
 * NIC (the RQ doorbell record moves by the number of packets), as the SDK's cyclic queue does.
 * The packets of one receive are consecutive buffers: the NIC fills WQEs in ring order.
 *
 * The receive reads CQEs from cqe_ci on: a CQE is the NIC's when its owner bit matches the pass
 * over the ring; its op_own byte is read first and everything else after an acquire fence. An
 * error CQE (the RQ ran into a bad key) ends the receive with the packets before it.
 *
 * One receiver per queue (the SDK's rule): cqe_ci and wqe_pi are advanced without atomics.
 *
 * A striding queue (striding_rq 1: several packets per WQE) is received by
 * ogda_dev_eth_rx_stride.h; ogda_dev_eth_rx_recv dispatches to it, the cyclic path is as above.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_ETH_RX_H
#define OGDA_DEV_ETH_RX_H

#include "ogda_dev_eth_rx_cqe.h"

#include "ogda_dev_eth_rx_stride.h"

/** Retires @p n CQEs from @p ci: cqe_ci and the CQ doorbell record move past them. */
OGDA_DEV_FN void ogda_dev_eth_rx_cq_retire(struct doca_gpu_eth_rxq *rxq, uint64_t ci, uint32_t n)
{
	rxq->cq.cqe_ci = ci + n;
	ogda_dev_store_nic_u32(rxq->cq.dbrec, opengda_mlx5_cq_dbr_set_ci_value((uint32_t)(ci + n)));
}

/**
 * Gives the next @p n WQEs of the ring back to the NIC (WQE i names buffer i for ever, so only
 * the producer counter moves): the RQ doorbell record, behind a release fence so the NIC sees
 * earlier stores (the CQ retire, the application's last use of the buffers) first.
 */
OGDA_DEV_FN void ogda_dev_eth_rx_rq_post(struct doca_gpu_eth_rxq *rxq, uint32_t n)
{
	rxq->wqe_pi += n;
	ogda_dev_fence_nic_release();
	ogda_dev_store_nic_u32(rxq->wqe_db_rec, opengda_mlx5_htobe32((uint32_t)(rxq->wqe_pi & OPENGDA_MLX5_QP_DBR_MASK)));
}

/**
 * Retires @p n CQEs from @p ci and gives their WQEs straight back to the NIC (the cyclic
 * receive: a packet is used before the ring comes round). A CPU receive queue that lends
 * buffers to the application (src/eth/rxq_cpu.c) uses the two halves separately.
 */
OGDA_DEV_FN void ogda_dev_eth_rx_release(struct doca_gpu_eth_rxq *rxq, uint64_t ci, uint32_t n)
{
	if (n == 0)
		return;
	ogda_dev_eth_rx_cq_retire(rxq, ci, n);
	ogda_dev_eth_rx_rq_post(rxq, n);
}

/** The most packets one receive returns: @p max_rx_pkts, 0 meaning a ring's worth. */
OGDA_DEV_FN uint32_t ogda_dev_eth_rx_limit(const struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts)
{
	uint32_t ring = rxq->cq.cqe_num < rxq->wqe_num ? rxq->cq.cqe_num : rxq->wqe_num;

	return max_rx_pkts == 0 || max_rx_pkts > ring ? ring : max_rx_pkts;
}

/**
 * Thread-scope receive (the SDK's recv_thread): waits until @p max_rx_pkts packets arrived (0: a
 * ring's worth) or @p timeout_ns passed since the call (0: no time limit), whichever comes first.
 * *first_pkt_idx: the first packet's index (DOCA_GPUNETIO_ETH_RX_NO_PKT when none), *pkt_num:
 * how many; @p attr (may be NULL) gets one entry per packet. Returns 0, or the encoded error of
 * an error CQE (the packets before it are returned and retired).
 */
OGDA_DEV_FN int ogda_dev_eth_rx_recv(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
				     uint64_t *first_pkt_idx, uint32_t *pkt_num, struct doca_gpu_dev_eth_rxq_attr *attr,
				     int rx_attr)
{
	uint64_t ci = rxq->cq.cqe_ci, deadline = ogda_dev_deadline(timeout_ns);
	uint32_t limit = ogda_dev_eth_rx_limit(rxq, max_rx_pkts), n = 0;
	int rc = 0;

	if (rxq->striding_rq)
		return ogda_dev_eth_rx_stride_recv(rxq, max_rx_pkts, timeout_ns, first_pkt_idx, pkt_num, attr, rx_attr, 0);
	for (;;) {
		while (n < limit) {
			int st = ogda_dev_eth_rx_cqe_state(rxq, ci + n);

			if (st == 0)
				break;
			if (st < 0) {
				rc = st;
				break;
			}
			if (attr != 0)
				ogda_dev_eth_rx_attr(rxq, ci + n, rx_attr, &attr[n]);
			n++;
		}
		if (n >= limit || rc != 0 || ogda_dev_expired(deadline))
			break;
		ogda_dev_spin_pause();
	}
	*first_pkt_idx = n != 0 ? ogda_dev_eth_rx_pkt_idx(rxq, ci) : DOCA_GPUNETIO_ETH_RX_NO_PKT;
	*pkt_num = n;
	ogda_dev_eth_rx_release(rxq, ci, n);
	return rc;
}

/**
 * ogda_dev_eth_rx_recv that also writes each packet's index to @p pkt_idx[i] (one per returned
 * packet): first + i on a cyclic queue; on a striding queue the packets' own strides, which are
 * not consecutive when packets take several strides or a filler closed a WQE.
 */
OGDA_DEV_FN int ogda_dev_eth_rx_recv_idx(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
					 uint64_t *first_pkt_idx, uint32_t *pkt_num, struct doca_gpu_dev_eth_rxq_attr *attr,
					 int rx_attr, uint64_t *pkt_idx)
{
	uint32_t i;
	int rc;

	if (rxq->striding_rq)
		return ogda_dev_eth_rx_stride_recv(rxq, max_rx_pkts, timeout_ns, first_pkt_idx, pkt_num, attr, rx_attr,
						   pkt_idx);
	rc = ogda_dev_eth_rx_recv(rxq, max_rx_pkts, timeout_ns, first_pkt_idx, pkt_num, attr, rx_attr);
	for (i = 0; i < *pkt_num; i++)
		pkt_idx[i] = *first_pkt_idx + i;
	return rc;
}

/**
 * Address of packet @p idx (idx < 2 * pkt_num, as the SDK's accessor): its buffer, or on a
 * striding queue its first stride (pkt_num strides of max_pkt_sz bytes).
 */
OGDA_DEV_FN uint64_t ogda_dev_eth_rx_pkt_addr(const struct doca_gpu_eth_rxq *rxq, uint64_t idx)
{
	uint64_t i = idx >= rxq->pkt_num ? idx - rxq->pkt_num : idx;

	return rxq->pkt_addr + (uint64_t)rxq->max_pkt_sz * i;
}

#endif /* OGDA_DEV_ETH_RX_H */
