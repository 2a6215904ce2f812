/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_verbs_put_counter_bw: the CUDA kernel around put_counter_bw_thread() (the client's threads). */
#include <cuda_runtime_api.h>

#include "put_counter_bw_body.h"

__global__ void put_counter_bw_kernel(struct put_counter_bw_args a)
{
	const struct ex_lane l = ex_lane_here();

	put_counter_bw_thread(&a, &l);
}

extern "C" int put_counter_bw_launch(const void *arg, uint32_t blocks, uint32_t threads)
{
	put_counter_bw_kernel<<<blocks, threads>>>(*(const struct put_counter_bw_args *)arg);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
