/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_verbs_put_bw: the CUDA kernel around ex_slot_thread() (RDMA WRITE). */
#include <cuda_runtime_api.h>

#include "ex_slot_body.h"

__global__ void put_bw_kernel(struct ex_slot_args a)
{
	const struct ex_lane l = ex_lane_here();

	ex_slot_thread(&a, &l);
}

extern "C" int put_bw_launch(const void *arg, uint32_t blocks, uint32_t threads)
{
	put_bw_kernel<<<blocks, threads>>>(*(const struct ex_slot_args *)arg);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
