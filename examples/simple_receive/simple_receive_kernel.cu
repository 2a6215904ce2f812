/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_receive's kernel, written as the SDK sample: one block of 32 threads loops on
 * doca_gpu_dev_eth_rxq_recv<scope, MCST_AUTO, AUTO, RX_ATTR_ALL> (up to 2048 packets or 500 us),
 * then each thread looks at its share of the packets. Thread scope: thread 0 receives; warp and
 * block scope: the 32 threads receive together.
 */
#include <cuda_runtime_api.h>

#include "device/doca_gpunetio_dev_eth_rxq.cuh"
#include "simple_receive.h"

template <enum doca_gpu_dev_eth_exec_scope scope>
__global__ void simple_receive_kernel(struct simple_receive_args a)
{
	__shared__ uint64_t first;
	__shared__ uint32_t num;
	__shared__ int stop;
	__shared__ struct doca_gpu_dev_eth_rxq_attr attr[SR_MAX_PKTS];
	__shared__ unsigned long long packets, bytes, tagged;
	doca_error_t err = DOCA_SUCCESS;

	if (threadIdx.x == 0) {
		packets = 0;
		bytes = 0;
		tagged = 0;
		stop = 0;
	}
	__syncthreads();
	while (!stop) {
		if (scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD) {
			if (threadIdx.x == 0)
				err = doca_gpu_dev_eth_rxq_recv<scope, DOCA_GPUNETIO_ETH_MCST_AUTO,
								DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
								DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(a.rxq, SR_MAX_PKTS, SR_TIMEOUT_NS,
											     &first, &num, attr);
		} else {
			err = doca_gpu_dev_eth_rxq_recv<scope, DOCA_GPUNETIO_ETH_MCST_AUTO, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
							DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(a.rxq, SR_MAX_PKTS, SR_TIMEOUT_NS,
										     &first, &num, attr);
		}
		__syncthreads();
		if (threadIdx.x == 0 && err != DOCA_SUCCESS) {
			a.stats->status = -(int32_t)err;
			stop = 1;
		}
		for (uint32_t i = threadIdx.x; i < num; i += blockDim.x) {
			const uint8_t *p = (const uint8_t *)doca_gpu_dev_eth_rxq_get_pkt_addr(a.rxq, first + i);

			atomicAdd(&packets, 1ull);
			atomicAdd(&bytes, (unsigned long long)attr[i].bytes);
			if (simple_receive_tagged(p, attr[i].bytes))
				atomicAdd(&tagged, 1ull);
		}
		__syncthreads();
		if (threadIdx.x == 0) {
			a.stats->packets = packets;
			a.stats->bytes = bytes;
			a.stats->tagged = tagged;
			__threadfence_system();
			if ((a.want != 0 && packets >= a.want) || *(volatile uint32_t *)a.exit_flag != 0)
				stop = 1;
		}
		__syncthreads();
	}
	if (threadIdx.x == 0) {
		__threadfence_system();
		a.stats->done = 1;
	}
}

extern "C" int simple_receive_launch(const struct simple_receive_args *a)
{
	if (a->scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP)
		simple_receive_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP><<<1, 32>>>(*a);
	else if (a->scope == DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK)
		simple_receive_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK><<<1, 32>>>(*a);
	else
		simple_receive_kernel<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD><<<1, 32>>>(*a);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
