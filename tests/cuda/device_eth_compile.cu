/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compile check of the Ethernet send-queue device API (doca_gpunetio_dev_eth_txq.cuh): kernels
 * calling every name, written the way the SDK's gpunetio_simple_send sample writes them (defaults
 * left out), with each sharing mode and scope. Not run.
 */
#include <stdint.h>

#include "device/doca_gpunetio_dev_eth_txq.cuh"

/* Shared-queue mode of the sample: every thread sends, the last of each scope asks for a CQE. */
template <enum doca_gpu_dev_eth_exec_scope scope>
__global__ void k_shared(struct doca_gpu_eth_txq *txq, uint64_t addr, uint32_t mkey, uint32_t size, uint32_t *out)
{
	enum doca_gpu_eth_send_flags f = (threadIdx.x == blockDim.x - 1) ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY
									  : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE;
	doca_gpu_dev_eth_ticket_t t = 0;
	uint32_t done = 0;

	doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
				  DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, scope>(txq, addr + threadIdx.x * size, mkey, size, f,
									     &t);
	__syncthreads();
	if (threadIdx.x == 0)
		doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_LAST>(txq, gridDim.x,
										    DOCA_GPUNETIO_ETH_WAIT_FLAG_B, &done);
	out[threadIdx.x] = (uint32_t)t + done;
}

template __global__ void k_shared<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>(struct doca_gpu_eth_txq *, uint64_t, uint32_t,
								       uint32_t, uint32_t *);
template __global__ void k_shared<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP>(struct doca_gpu_eth_txq *, uint64_t, uint32_t,
								     uint32_t, uint32_t *);
template __global__ void k_shared<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK>(struct doca_gpu_eth_txq *, uint64_t, uint32_t,
								      uint32_t, uint32_t *);

/* Non-shared mode of the sample: the low-level calls, one thread per WQE, caller-owned indices. */
__global__ void k_low_level(struct doca_gpu_eth_txq *txq, uint64_t addr, uint32_t mkey, uint32_t size, uint64_t *wot)
{
	uint64_t base = doca_gpu_dev_eth_txq_reserve_wq_slots<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA>(txq, 1);
	struct doca_gpu_dev_eth_txq_wqe *w = doca_gpu_dev_eth_txq_get_wqe_ptr(txq, (uint16_t)base);

	doca_gpu_dev_eth_txq_wqe_prepare_send(txq, w, (uint16_t)base, addr, mkey, size, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
	doca_gpu_dev_eth_txq_wqe_prepare_send(txq, w, (uint16_t)base, addr, mkey, 14, addr + 64, mkey, size);
	/* enhanced multi-packet send: an int ds_num / ds_idx, as a kernel's loop variables are */
	for (int ds = 0; ds < 8; ds++)
		doca_gpu_dev_eth_txq_wqe_prepare_send_empw(txq, w, (uint16_t)base, 8, ds, addr + 64 * ds, mkey, size,
							   ds == 0 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY
								   : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
	doca_gpu_dev_eth_txq_wqe_prepare_send_empw(txq, w, (uint16_t)base, 1, 0, addr, mkey, 0);
	doca_gpu_dev_eth_txq_mark_wqes_ready<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA>(txq, base, base);
	doca_gpu_dev_eth_txq_submit<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA, DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA,
				    DOCA_GPUNETIO_ETH_NIC_HANDLER_GPU_SM_DB>(txq, base + 1);
	doca_gpu_dev_eth_txq_poll_completion_at(txq, threadIdx.x, DOCA_GPUNETIO_ETH_WAIT_FLAG_NB);
	doca_gpu_dev_eth_txq_calculate_timestamp(txq, 1234567890123ull, &wot[threadIdx.x]);
	doca_gpu_dev_eth_txq_wqe_prepare_wait_time(txq, w, (uint16_t)base, wot[threadIdx.x]);
	doca_gpu_dev_eth_txq_wait_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA, DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA,
				       DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK>(
		txq, wot[threadIdx.x], addr, mkey, size, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
	doca_gpu_dev_eth_txq_wait_send(txq, wot[threadIdx.x], addr, mkey, size, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
	doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_EXCLUSIVE>(txq, addr, mkey, size,
										     DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
}
