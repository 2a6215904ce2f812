/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_verbs_write_bw: the CUDA kernel around write_bw_thread(). */
#include <cuda_runtime_api.h>

#include "write_bw_body.h"

__global__ void write_bw_kernel(struct write_bw_args a)
{
	const struct ex_lane l = ex_lane_here();

	write_bw_thread(&a, &l);
}

extern "C" int write_bw_launch(const void *arg, uint32_t blocks, uint32_t threads)
{
	write_bw_kernel<<<blocks, threads>>>(*(const struct write_bw_args *)arg);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
