/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Small pieces the GPU data-path tests share: short names for the template arguments of the
 * device API, a host-side device array, and device-side reads of memory the NIC wrote.
 */
#ifndef OGDA_TESTS_GPU_GPU_DEV_UTIL_CUH_
#define OGDA_TESTS_GPU_GPU_DEV_UTIL_CUH_

#include "doca_gpunetio_device.h"
#include "gpu_dev_fixture.h"

#include <cuda_runtime.h>

#include <stdint.h>
#include <string.h>

typedef enum doca_gpu_dev_verbs_resource_sharing_mode sharing_t;
typedef enum doca_gpu_dev_verbs_exec_scope scope_t;
typedef enum doca_gpu_dev_verbs_nic_handler handler_t;
typedef struct doca_gpu_dev_verbs_addr addr_t;

#define SH_EXCL DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE
#define SH_CTA DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA
#define SH_GPU DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU
#define SC_THREAD DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD
#define SC_WARP DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP
#define SC_BLOCK DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK
#define H_AUTO DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO
#define H_PROXY DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY
#define H_DB DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB
#define H_BF DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF
#define H_NODBR DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR
#define M_VALID DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR
#define M_NODBR DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW
#define M_EMUL DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED

/* An array in GPU memory, zeroed, freed with the object. */
template <typename T>
struct dev_array {
	T *p = nullptr;
	size_t n = 0;

	explicit dev_array(size_t count) : n(count)
	{
		if (cudaMalloc((void **)&p, count * sizeof(T)) != cudaSuccess || cudaMemset(p, 0, count * sizeof(T)) != cudaSuccess)
			p = nullptr;
	}
	~dev_array()
	{
		if (p != nullptr)
			(void)cudaFree(p);
	}
	dev_array(const dev_array &) = delete;
	dev_array &operator=(const dev_array &) = delete;
	bool ok() const { return p != nullptr; }
	bool get(T *host) const { return cudaMemcpy(host, p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess; }
	bool put(const T *host) { return cudaMemcpy(p, host, n * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess; }
};

/* addr + off (same key). */
__host__ __device__ static inline addr_t addr_at(addr_t a, uint64_t off)
{
	a.addr += off;
	return a;
}

/*
 * Number of bytes of [a, a + len) that differ from [b, b + len), read at system scope: the NIC
 * wrote them with copies on its own stream, so nothing may come from a stale cache line.
 */
__device__ static inline uint32_t dev_count_diff(uint64_t a, uint64_t b, uint32_t len)
{
	uint32_t bad = 0;

	for (uint32_t i = 0; i < len; i++)
		bad += doca_gpu_dev_verbs_load_relaxed_sys_global((uint8_t *)(uintptr_t)(a + i)) !=
		       doca_gpu_dev_verbs_load_relaxed_sys_global((uint8_t *)(uintptr_t)(b + i));
	return bad;
}

/* An 8-byte word the NIC wrote (a counter, a signal), read at system scope. */
__device__ static inline uint64_t dev_read_u64(uint64_t addr)
{
	return doca_gpu_dev_verbs_load_relaxed_sys_global((uint64_t *)(uintptr_t)addr);
}

#endif /* OGDA_TESTS_GPU_GPU_DEV_UTIL_CUH_ */
