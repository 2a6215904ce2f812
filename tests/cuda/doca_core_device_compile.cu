/* SPDX-License-Identifier: BSD-3-Clause */
/* Compile check: every DOCA Core / semaphore device name in a __global__ kernel (no GPU needed). */
#include "device/doca_gpunetio_dev_buf.cuh"
#include "device/doca_gpunetio_dev_sem.cuh"

__global__ void doca_core_device_names(struct doca_gpu_buf_arr *arr, struct doca_gpu_semaphore_gpu *sem,
				       uint64_t *out)
{
	struct doca_gpu_buf *buf = nullptr;
	uintptr_t addr = 0;
	uint32_t mkey = 0, n = 0;
	uint64_t b = 0;
	enum doca_gpu_semaphore_status st = DOCA_GPU_SEMAPHORE_STATUS_FREE;
	void *ci = nullptr;
	int err = 0;

	err |= doca_gpu_dev_buf_get_buf(arr, threadIdx.x, &buf);
	err |= doca_gpu_dev_buf_get_addr(buf, &addr);
	err |= doca_gpu_dev_buf_get_mkey(buf, &mkey);
	{
		struct doca_gpu_buf *own = nullptr;

		err |= doca_gpu_dev_buf_create(addr, mkey, &own);
		err |= opengda_gpu_dev_buf_destroy(own);
	}
	err |= doca_gpu_dev_semaphore_set_status(sem, threadIdx.x, DOCA_GPU_SEMAPHORE_STATUS_READY);
	err |= doca_gpu_dev_semaphore_set_status_cas(sem, threadIdx.x, DOCA_GPU_SEMAPHORE_STATUS_READY,
						     DOCA_GPU_SEMAPHORE_STATUS_DONE);
	err |= doca_gpu_dev_semaphore_get_status(sem, threadIdx.x, &st);
	err |= doca_gpu_dev_semaphore_set_packet_info(sem, threadIdx.x, DOCA_GPU_SEMAPHORE_STATUS_HOLD, 1, 2);
	err |= doca_gpu_dev_semaphore_get_packet_info(sem, threadIdx.x, &st, &n, &b);
	err |= doca_gpu_dev_semaphore_get_packet_info_status(sem, threadIdx.x, DOCA_GPU_SEMAPHORE_STATUS_HOLD, &n, &b);
	err |= doca_gpu_dev_semaphore_get_custom_info_addr(sem, threadIdx.x, &ci);
	out[threadIdx.x] = addr + mkey + n + b + (uint64_t)st + (uint64_t)(uintptr_t)ci + (uint64_t)err;
}
