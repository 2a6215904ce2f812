/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_verbs_twosided_bw: the CUDA kernel around twosided_bw_thread() (blocks x threads on each side). */
#include <cuda_runtime_api.h>

#include "twosided_bw_body.h"

__global__ void twosided_bw_kernel(struct twosided_bw_args a)
{
	const struct ex_lane l = ex_lane_here();

	twosided_bw_thread(&a, &l);
}

extern "C" int twosided_bw_launch(const void *arg, uint32_t blocks, uint32_t threads)
{
	twosided_bw_kernel<<<blocks, threads>>>(*(const struct twosided_bw_args *)arg);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
