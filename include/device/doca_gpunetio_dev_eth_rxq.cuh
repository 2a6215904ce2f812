/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_eth_rxq.cuh
 * @brief DOCA GPUNetIO Ethernet receive queue, device side: the SDK 3.2+ ("Gen-B") names, template
 *        parameters and defaults, on the C core include/device/ogda_dev_eth_rx.h.
 *
 * doca_gpu_dev_eth_rxq_recv<exec_scope, mcst_mode, nic_handler, rx_attr>(rxq, max_rx_pkts,
 * timeout_ns, &first_pkt_idx, &pkt_num, attr) and its _thread / _warp / _block forms; the packet
 * accessors get_pkt_addr, get_pkt_mkey, get_pkt_ts, get_pkt_bytes, get_pkt_cqe.
 *
 * Scopes: THREAD — one thread calls. WARP — all 32 lanes of a warp call (full mask); each lane
 * looks at its own CQE of a run of 32 and the run's ready prefix is agreed with a ballot. BLOCK —
 * every thread of the block calls; the first warp receives as in WARP scope, the others wait at a
 * barrier. In WARP and BLOCK scope every calling thread gets the same *first_pkt_idx, *pkt_num
 * and return value (through its own pointers, which may point to the same shared variables);
 * attr[i] is written once, for packet i, by the thread that read its CQE.
 *
 * Limits: max_rx_pkts = 0 is a ring's worth, timeout_ns = 0 no time limit (both 0: wait for a
 * ring's worth). The timeout is measured from the call on %globaltimer. Returns DOCA_SUCCESS,
 * DOCA_ERROR_DRIVER when an error CQE ended the receive (the packets before it are returned) or
 * the MCST DUMP completed in error, DOCA_ERROR_TIME_OUT when the DUMP's CQE did not come within
 * the MCST queue's wait bound.
 *
 * MCST (ENABLED, or AUTO on a queue with need_mcst), after a receive that got packets
 * (ogda_dev_eth_rx_mcst.h): on a queue with an MCST queue (mcst_qp), one DUMP of a packet-buffer
 * byte posted on it and waited for, by one thread of the group; without one, a system-scope
 * fence in every calling thread. The MCST queue rings its doorbell as it was built (GPU_SM_DB, or
 * CPU_PROXY after doca_eth_rxq_gpu_set_uar_on_cpu); the nic_handler template parameter is
 * accepted and not used.
 *
 * Striding queues (striding_rq 1, ogda_dev_eth_rx_stride.h): the first packet index is
 * (wqe_id & wqe_mask) * wqe_strides_num + the CQE's stride; filler CQEs are retired, not returned;
 * the RQ doorbell record moves by the WQEs the NIC finished with; attr bytes are byte_cnt [15:0].
 * get_pkt_addr(first + i) is packet i when every packet takes one stride (the SDK's
 * configuration); get_pkt_cqe / _ts / _bytes index the CQ by packet and hold only then.
 *
 * C++17, device code only.
 */
#ifndef DOCA_GPUNETIO_DEV_ETH_RXQ_CUH
#define DOCA_GPUNETIO_DEV_ETH_RXQ_CUH

#include "../doca_error.h"
#include "../doca_gpunetio_eth_def.h"
#include "ogda_dev_eth_rx.h"
#include "ogda_dev_eth_rx_mcst.h"

namespace ogda_cuh {

__device__ static __forceinline__ doca_error_t eth_rx_status(int rc)
{
	if (rc == 0)
		return DOCA_SUCCESS;
	return rc == -OPENGDA_DEV_ETIMEDOUT ? DOCA_ERROR_TIME_OUT : DOCA_ERROR_DRIVER;
}

/**
 * The MCST step of a group receive of @p n packets: the DUMP by the group's @p leader alone (one
 * poster per queue: the send protocol runs EXCLUSIVE), the fallback fence by every thread. The
 * caller shares the leader's result with the group.
 */
template <enum doca_gpu_dev_eth_mcst_mode mcst_mode>
__device__ static __forceinline__ int eth_rx_mcst(struct doca_gpu_eth_rxq *rxq, uint32_t n, bool leader)
{
	if (mcst_mode == DOCA_GPUNETIO_ETH_MCST_DISABLED || (!leader && rxq->mcst_qp != nullptr))
		return 0;
	return ogda_dev_eth_rx_mcst(rxq, n, (int)mcst_mode);
}

/** Results of a group receive, passed from the receiving warp to every caller. */
struct eth_rx_result {
	uint64_t first;
	uint32_t num;
	int rc;
};

/**
 * The warp receive of a striding queue: lane i reads CQE ci + k + i; the ready prefix is cut
 * after the packet that reaches the limit, fillers in it are retired and not counted, and each
 * packet's attributes go to attr[its rank among the packets].
 */
template <enum doca_gpu_dev_eth_rxq_attr_type rx_attr>
__device__ static __forceinline__ eth_rx_result eth_rx_warp_stride(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts,
								   uint64_t timeout_ns,
								   struct doca_gpu_dev_eth_rxq_attr *attr)
{
	const uint32_t full = 0xffffffffu, lane = threadIdx.x & 31u, below = (1u << lane) - 1u;
	uint64_t ci = rxq->cq.cqe_ci, deadline = lane == 0 ? ogda_dev_deadline(timeout_ns) : 0;
	uint32_t limit = ogda_dev_eth_rx_stride_limit(rxq, max_rx_pkts), n = 0, k = 0;
	eth_rx_result r = {DOCA_GPUNETIO_ETH_RX_NO_PKT, 0, 0};

	for (;;) {
		int st = k + lane < rxq->cq.cqe_num ? ogda_dev_eth_rx_cqe_state(rxq, ci + k + lane) : 0;
		const uint8_t *cqe = ogda_dev_cqe_at(&rxq->cq, ci + k + lane);
		int pkt = st == 1 && !ogda_dev_eth_rx_cqe_is_filler(cqe);
		uint32_t ready = __ballot_sync(full, st == 1);
		uint32_t bad = __ballot_sync(full, st < 0);
		uint32_t run = ready == full ? 32u : (uint32_t)(__ffs(~ready) - 1);
		uint32_t pkts = __ballot_sync(full, pkt) & (run == 32u ? full : (1u << run) - 1u);
		uint32_t rank = __popc(pkts & below);
		/* the run ends after the packet that reaches the limit (ranks are a prefix count) */
		uint32_t take = __popc(__ballot_sync(full, lane < run && rank < limit - n));
		int stop;

		pkts &= take == 32u ? full : (1u << take) - 1u;
		if (lane < take && pkt) {
			if (attr != nullptr)
				ogda_dev_eth_rx_stride_attr(cqe, (int)rx_attr, &attr[n + rank]);
			if (n == 0 && rank == 0)
				r.first = ogda_dev_eth_rx_stride_pkt_idx(rxq, cqe);
		}
		r.first = __shfl_sync(full, r.first, pkts != 0 ? __ffs(pkts) - 1 : 0);
		/* An error CQE right after the ready run ends the receive. */
		if (take == run && bad != 0 && (uint32_t)(__ffs(bad) - 1) == run)
			r.rc = __shfl_sync(full, st, run);
		n += __popc(pkts);
		k += take;
		stop = n >= limit || k >= rxq->cq.cqe_num || r.rc != 0 ||
		       (lane == 0 && take == 0 && ogda_dev_expired(deadline));
		if (__shfl_sync(full, stop, 0) || n >= limit || k >= rxq->cq.cqe_num || r.rc != 0)
			break;
		if (take == 0)
			ogda_dev_spin_pause();
	}
	r.num = n;
	__syncwarp(full);
	if (lane == 0)
		ogda_dev_eth_rx_stride_release(rxq, ci, k);
	__syncwarp(full);
	return r;
}

/**
 * The warp receive: all 32 lanes call. Lane i reads CQE ci + n + i; the ready prefix of the 32
 * (a ballot) joins the batch. Lane 0 decides the timeout for all.
 */
template <enum doca_gpu_dev_eth_rxq_attr_type rx_attr>
__device__ static __forceinline__ eth_rx_result eth_rx_warp(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts,
							    uint64_t timeout_ns, struct doca_gpu_dev_eth_rxq_attr *attr)
{
	const uint32_t full = 0xffffffffu, lane = threadIdx.x & 31u;
	uint64_t ci = rxq->cq.cqe_ci, deadline = lane == 0 ? ogda_dev_deadline(timeout_ns) : 0;
	uint32_t limit = ogda_dev_eth_rx_limit(rxq, max_rx_pkts), n = 0;
	eth_rx_result r = {DOCA_GPUNETIO_ETH_RX_NO_PKT, 0, 0};

	if (rxq->striding_rq)
		return eth_rx_warp_stride<rx_attr>(rxq, max_rx_pkts, timeout_ns, attr);
	for (;;) {
		int st = n + lane < limit ? ogda_dev_eth_rx_cqe_state(rxq, ci + n + lane) : 0;
		uint32_t ready = __ballot_sync(full, st == 1);
		uint32_t bad = __ballot_sync(full, st < 0);
		uint32_t run = ready == full ? 32u : (uint32_t)(__ffs(~ready) - 1);
		int stop;

		if (lane < run && attr != nullptr)
			ogda_dev_eth_rx_attr(rxq, ci + n + lane, (int)rx_attr, &attr[n + lane]);
		/* An error CQE right after the ready run ends the receive. */
		if (bad != 0 && (uint32_t)(__ffs(bad) - 1) == run)
			r.rc = __shfl_sync(full, st, run);
		n += run;
		stop = n >= limit || r.rc != 0 || (lane == 0 && run == 0 && ogda_dev_expired(deadline));
		if (__shfl_sync(full, stop, 0) || n >= limit || r.rc != 0)
			break;
		if (run == 0)
			ogda_dev_spin_pause();
	}
	r.num = n;
	if (n != 0)
		r.first = ogda_dev_eth_rx_pkt_idx(rxq, ci);
	__syncwarp(full);
	if (lane == 0)
		ogda_dev_eth_rx_release(rxq, ci, n);
	__syncwarp(full);
	return r;
}

} /* namespace ogda_cuh */

/** Thread scope: one thread receives. */
template <enum doca_gpu_dev_eth_mcst_mode mcst_mode = DOCA_GPUNETIO_ETH_MCST_DISABLED,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_rxq_attr_type rx_attr = DOCA_GPUNETIO_ETH_RX_ATTR_NONE>
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_rxq_recv_thread(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
				 uint64_t *out_first_pkt_idx, uint32_t *out_pkt_num,
				 struct doca_gpu_dev_eth_rxq_attr *out_attr)
{
	int rc = ogda_dev_eth_rx_recv_mcst(rxq, max_rx_pkts, timeout_ns, out_first_pkt_idx, out_pkt_num, out_attr,
					   (int)rx_attr, (int)mcst_mode);

	(void)nic_handler;
	return ogda_cuh::eth_rx_status(rc);
}

/** Warp scope: the 32 lanes of one warp receive together. */
template <enum doca_gpu_dev_eth_mcst_mode mcst_mode = DOCA_GPUNETIO_ETH_MCST_DISABLED,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_rxq_attr_type rx_attr = DOCA_GPUNETIO_ETH_RX_ATTR_NONE>
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_rxq_recv_warp(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
			       uint64_t *out_first_pkt_idx, uint32_t *out_pkt_num,
			       struct doca_gpu_dev_eth_rxq_attr *out_attr)
{
	ogda_cuh::eth_rx_result r = ogda_cuh::eth_rx_warp<rx_attr>(rxq, max_rx_pkts, timeout_ns, out_attr);
	int m = ogda_cuh::eth_rx_mcst<mcst_mode>(rxq, r.num, (threadIdx.x & 31u) == 0);

	(void)nic_handler;
	m = __shfl_sync(0xffffffffu, m, 0);
	if (r.rc == 0)
		r.rc = m;
	*out_first_pkt_idx = r.first;
	*out_pkt_num = r.num;
	return ogda_cuh::eth_rx_status(r.rc);
}

/** Block scope: every thread of the block calls; the first warp receives. */
template <enum doca_gpu_dev_eth_mcst_mode mcst_mode = DOCA_GPUNETIO_ETH_MCST_DISABLED,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_rxq_attr_type rx_attr = DOCA_GPUNETIO_ETH_RX_ATTR_NONE>
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_rxq_recv_block(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
				uint64_t *out_first_pkt_idx, uint32_t *out_pkt_num,
				struct doca_gpu_dev_eth_rxq_attr *out_attr)
{
	__shared__ ogda_cuh::eth_rx_result shared_r;
	__shared__ int shared_mcst;
	uint32_t tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
	ogda_cuh::eth_rx_result r;
	int m;

	(void)nic_handler;
	if (tid < 32u) {
		r = ogda_cuh::eth_rx_warp<rx_attr>(rxq, max_rx_pkts, timeout_ns, out_attr);
		if (tid == 0)
			shared_r = r;
	}
	__syncthreads();
	r = shared_r;
	m = ogda_cuh::eth_rx_mcst<mcst_mode>(rxq, r.num, tid == 0);
	if (tid == 0)
		shared_mcst = m;
	__syncthreads();
	if (r.rc == 0)
		r.rc = shared_mcst;
	__syncthreads(); /* every thread has its copy before a next receive rewrites shared_r */
	*out_first_pkt_idx = r.first;
	*out_pkt_num = r.num;
	return ogda_cuh::eth_rx_status(r.rc);
}

/**
 * Receives up to @p max_rx_pkts packets (0: no limit but the ring) within @p timeout_ns (0: no
 * time limit) in @p exec_scope; see the file comment.
 */
template <enum doca_gpu_dev_eth_exec_scope exec_scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD,
	  enum doca_gpu_dev_eth_mcst_mode mcst_mode = DOCA_GPUNETIO_ETH_MCST_DISABLED,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_rxq_attr_type rx_attr = DOCA_GPUNETIO_ETH_RX_ATTR_NONE>
__device__ static __forceinline__ doca_error_t
doca_gpu_dev_eth_rxq_recv(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns,
			  uint64_t *out_first_pkt_idx, uint32_t *out_pkt_num, struct doca_gpu_dev_eth_rxq_attr *out_attr)
{
	if (exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP)
		return doca_gpu_dev_eth_rxq_recv_warp<mcst_mode, nic_handler, rx_attr>(
			rxq, max_rx_pkts, timeout_ns, out_first_pkt_idx, out_pkt_num, out_attr);
	if (exec_scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK)
		return doca_gpu_dev_eth_rxq_recv_block<mcst_mode, nic_handler, rx_attr>(
			rxq, max_rx_pkts, timeout_ns, out_first_pkt_idx, out_pkt_num, out_attr);
	return doca_gpu_dev_eth_rxq_recv_thread<mcst_mode, nic_handler, rx_attr>(rxq, max_rx_pkts, timeout_ns,
										  out_first_pkt_idx, out_pkt_num, out_attr);
}

/** Address of packet @p packet_idx (an index a receive returned, plus its offset in the batch). */
__device__ static __forceinline__ uint64_t doca_gpu_dev_eth_rxq_get_pkt_addr(const struct doca_gpu_eth_rxq *rxq,
									     uint64_t packet_idx)
{
	return ogda_dev_eth_rx_pkt_addr(rxq, packet_idx);
}

/** Key of the packet buffers, big-endian (to send a packet on from its buffer). */
__device__ static __forceinline__ uint32_t doca_gpu_dev_eth_rxq_get_pkt_mkey(const struct doca_gpu_eth_rxq *rxq)
{
	return rxq->pkt_mkey;
}

/**
 * The CQE of packet @p packet_idx. The CQ has a CQE per packet buffer, so it stays valid until the
 * ring comes round again (as the SDK warns, a later receive may overwrite it).
 */
__device__ static __forceinline__ const uint8_t *doca_gpu_dev_eth_rxq_get_pkt_cqe(const struct doca_gpu_eth_rxq *rxq,
										  uint64_t packet_idx)
{
	return ogda_dev_cqe_at(&rxq->cq, packet_idx);
}

/** Time stamp of packet @p packet_idx in nanoseconds. */
__device__ static __forceinline__ uint64_t doca_gpu_dev_eth_rxq_get_pkt_ts(const struct doca_gpu_eth_rxq *rxq,
									   uint64_t packet_idx)
{
	return ogda_dev_eth_rx_cqe_ts_ns(doca_gpu_dev_eth_rxq_get_pkt_cqe(rxq, packet_idx));
}

/** Frame length of packet @p packet_idx. */
__device__ static __forceinline__ uint32_t doca_gpu_dev_eth_rxq_get_pkt_bytes(const struct doca_gpu_eth_rxq *rxq,
									     uint64_t packet_idx)
{
	uint32_t bc = ogda_dev_eth_rx_be32(doca_gpu_dev_eth_rxq_get_pkt_cqe(rxq, packet_idx) + OGDA_DEV_ETH_RX_CQE_BYTE_CNT);

	return rxq->striding_rq ? bc & OPENGDA_MLX5_CQE_MPRQ_BYTES_MASK : bc;
}

#endif /* DOCA_GPUNETIO_DEV_ETH_RXQ_CUH */
