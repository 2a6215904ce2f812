/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compile check of the Ethernet receive-queue device API (doca_gpunetio_dev_eth_rxq.cuh): kernels
 * calling every name the way the SDK's gpunetio_simple_receive and packet-processing kernels do
 * (shared outputs in block scope, one thread in thread scope), each scope, MCST mode and attribute
 * kind. Not run.
 */
#include <stdint.h>

#include "device/doca_gpunetio_dev_eth_rxq.cuh"

#define MAX_PKTS 64

template <enum doca_gpu_dev_eth_exec_scope scope, enum doca_gpu_dev_eth_mcst_mode mcst,
	  enum doca_gpu_dev_eth_rxq_attr_type attr_kind>
__global__ void k_recv(struct doca_gpu_eth_rxq *rxq, const uint32_t *exit_flag, uint64_t *sum)
{
	__shared__ uint64_t first;
	__shared__ uint32_t num;
	__shared__ struct doca_gpu_dev_eth_rxq_attr attr[MAX_PKTS];
	doca_error_t ret = DOCA_SUCCESS;

	while (*(volatile const uint32_t *)exit_flag == 0) {
		if (scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD) {
			if (threadIdx.x == 0)
				ret = doca_gpu_dev_eth_rxq_recv<scope, mcst, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, attr_kind>(
					rxq, MAX_PKTS, 500000, &first, &num, attr);
			__syncthreads();
		} else if (scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP) {
			if (threadIdx.x < 32)
				ret = doca_gpu_dev_eth_rxq_recv<scope, mcst, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, attr_kind>(
					rxq, MAX_PKTS, 500000, &first, &num, attr);
			__syncthreads();
		} else {
			ret = doca_gpu_dev_eth_rxq_recv<scope, mcst, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, attr_kind>(
				rxq, MAX_PKTS, 500000, &first, &num, attr);
		}
		if (ret != DOCA_SUCCESS)
			break;
		for (uint32_t i = threadIdx.x; i < num; i += blockDim.x) {
			const uint8_t *p = (const uint8_t *)doca_gpu_dev_eth_rxq_get_pkt_addr(rxq, first + i);

			sum[blockIdx.x] += p[12] + attr[i].bytes + doca_gpu_dev_eth_rxq_get_pkt_bytes(rxq, first + i) +
					   doca_gpu_dev_eth_rxq_get_pkt_ts(rxq, first + i) +
					   doca_gpu_dev_eth_rxq_get_pkt_mkey(rxq);
		}
		__syncthreads();
	}
}

template __global__ void k_recv<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD, DOCA_GPUNETIO_ETH_MCST_DISABLED,
				DOCA_GPUNETIO_ETH_RX_ATTR_NONE>(struct doca_gpu_eth_rxq *, const uint32_t *, uint64_t *);
template __global__ void k_recv<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP, DOCA_GPUNETIO_ETH_MCST_AUTO,
				DOCA_GPUNETIO_ETH_RX_ATTR_TS>(struct doca_gpu_eth_rxq *, const uint32_t *, uint64_t *);
template __global__ void k_recv<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK, DOCA_GPUNETIO_ETH_MCST_ENABLED,
				DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(struct doca_gpu_eth_rxq *, const uint32_t *, uint64_t *);

/* Defaults left out, as the SDK's samples write a thread-scope receive. */
__global__ void k_defaults(struct doca_gpu_eth_rxq *rxq, uint64_t *out)
{
	uint64_t first = 0;
	uint32_t num = 0;

	if (doca_gpu_dev_eth_rxq_recv(rxq, 0, 1000, &first, &num, nullptr) == DOCA_SUCCESS && num != 0)
		out[0] = first;
}
