/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_send's kernel, written as the SDK sample's shared-queue mode: every thread
 * sends with doca_gpu_dev_eth_txq_send<GPU, GPU, AUTO, BLOCK>, the last frame of each thread is
 * NOTIFY, and thread 0 of block 0 waits for the last completion of the grid (POLL_LAST).
 */
#include <cuda_runtime_api.h>

#include "device/doca_gpunetio_dev_eth_txq.cuh"
#include "simple_send.h"

/*
 * -e (OpenGDA's addition to the sample): every warp sends its frames k as one enhanced
 * multi-packet send WQE of 32 packets. Lane 0 reserves the WQE's WQEBBs, every lane writes its
 * packet (wqe_prepare_send_empw), lane 0 marks them ready and submits; the last WQE of each warp
 * is NOTIFY. Thread 0 of the grid waits for the last of the warps' completions.
 */
__global__ void simple_send_empw_kernel(struct simple_send_args a)
{
	const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32u;
	const uint32_t nbb = ogda_dev_eth_empw_wqebbs(SIMPLE_SEND_EMPW_FRAMES);
	uint32_t k, done = 0;
	uint64_t base = 0;
	doca_error_t err, mine;

	for (k = 0; k < a.per_thread; k++) {
		const uint64_t frame = a.frames + (uint64_t)(tid * a.per_thread + k) * a.slot;
		const enum doca_gpu_eth_send_flags f =
			k == a.per_thread - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE;

		if (lane == 0)
			base = doca_gpu_dev_eth_txq_reserve_wq_slots(a.txq, nbb);
		base = __shfl_sync(0xffffffffu, base, 0);
		mine = doca_gpu_dev_eth_txq_wqe_prepare_send_empw(
			a.txq, doca_gpu_dev_eth_txq_get_wqe_ptr(a.txq, (uint16_t)base), (uint16_t)base,
			SIMPLE_SEND_EMPW_FRAMES, lane, frame, a.mkey_be, a.frame_len, f);
		if (mine != DOCA_SUCCESS) /* a -e bug, not a wire error: reported over any later status */
			atomicExch((int *)a.status, -(int)mine);
		__syncwarp();
		if (lane == 0) {
			doca_gpu_dev_eth_txq_mark_wqes_ready(a.txq, base, base + nbb - 1);
			doca_gpu_dev_eth_txq_submit(a.txq, base + nbb);
		}
	}
	if (tid == 0) {
		err = doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_LAST>(
			a.txq, a.threads / SIMPLE_SEND_EMPW_FRAMES, DOCA_GPUNETIO_ETH_WAIT_FLAG_B, &done);
		if (err != DOCA_SUCCESS)
			atomicExch((int *)a.status, -(int)err);
		else
			atomicCAS((int *)a.status, 1, 0); /* 1: not yet set (eth_sample_open) */
	}
}

__global__ void simple_send_kernel(struct simple_send_args a)
{
	const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t k, done = 0;
	doca_error_t err;

	for (k = 0; k < a.per_thread; k++) {
		const uint64_t frame = a.frames + (uint64_t)(tid * a.per_thread + k) * a.slot;
		const enum doca_gpu_eth_send_flags f =
			k == a.per_thread - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE;

		doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
					  DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK>(
			a.txq, frame, a.mkey_be, a.frame_len, f);
	}
	if (tid == 0) {
		/* One NOTIFY per thread; the grid's last retires every earlier one. */
		err = doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_LAST>(
			a.txq, a.threads, DOCA_GPUNETIO_ETH_WAIT_FLAG_B, &done);
		*a.status = err == DOCA_SUCCESS ? 0 : -(int32_t)err;
	}
}

extern "C" int simple_send_launch(const struct simple_send_args *a, uint32_t blocks, uint32_t threads_per_block)
{
	if (a->empw != 0)
		simple_send_empw_kernel<<<blocks, threads_per_block>>>(*a);
	else
		simple_send_kernel<<<blocks, threads_per_block>>>(*a);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
