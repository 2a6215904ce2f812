/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_send_wait_time's kernel, as the SDK sample writes it: 1 block x 32 threads, every burst
 * sent with wait_send<CTA, CTA, AUTO, BLOCK>, then thread 0 polls the bursts' completions.
 */
#include <cuda_runtime_api.h>

#include "device/doca_gpunetio_dev_eth_txq.cuh"
#include "send_wait_time.h"

__global__ void swt_kernel(struct swt_args a)
{
	uint32_t b, done = 0;
	doca_error_t err;

	for (b = 0; b < SWT_BURSTS; b++) {
		const uint64_t frame = a.frames + (uint64_t)(b * SWT_THREADS + threadIdx.x) * a.slot;

		doca_gpu_dev_eth_txq_wait_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA, DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA,
					       DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK>(
			a.txq, a.wot[b], frame, a.mkey_be, a.frame_len,
			threadIdx.x == SWT_THREADS - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
	}
	if (threadIdx.x == 0) {
		err = doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_ALL,
							   DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA>(
			a.txq, SWT_BURSTS, DOCA_GPUNETIO_ETH_WAIT_FLAG_B, &done);
		*a.status = err == DOCA_SUCCESS ? 0 : -(int32_t)err;
	}
}

extern "C" int swt_launch(const struct swt_args *a)
{
	swt_kernel<<<1, SWT_THREADS>>>(*a);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
