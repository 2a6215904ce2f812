/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_verbs_get_bw: the CUDA kernel around get_bw_thread(). */
#include <cuda_runtime_api.h>

#include "get_bw_body.h"

__global__ void get_bw_kernel(struct get_bw_args a)
{
	const struct ex_lane l = ex_lane_here();

	get_bw_thread(&a, &l);
}

extern "C" int get_bw_launch(const void *arg, uint32_t blocks, uint32_t threads)
{
	get_bw_kernel<<<blocks, threads>>>(*(const struct get_bw_args *)arg);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
