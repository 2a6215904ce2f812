/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_verbs_atomic_lat: the CUDA kernel around atomic_lat_thread(). */
#include <cuda_runtime_api.h>

#include "atomic_lat_body.h"

__global__ void atomic_lat_kernel(struct atomic_lat_args a)
{
	const struct ex_lane l = ex_lane_here();

	atomic_lat_thread(&a, &l);
}

extern "C" int atomic_lat_launch(const void *arg, uint32_t blocks, uint32_t threads)
{
	atomic_lat_kernel<<<blocks, threads>>>(*(const struct atomic_lat_args *)arg);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
