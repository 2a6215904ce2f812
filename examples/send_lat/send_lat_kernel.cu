/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_verbs_send_lat: the CUDA kernel around send_lat_thread() (one thread per side). */
#include <cuda_runtime_api.h>

#include "send_lat_body.h"

__global__ void send_lat_kernel(struct ex_pingpong_args a)
{
	const struct ex_lane l = ex_lane_here();

	send_lat_thread(&a, &l);
}

extern "C" int send_lat_launch(const void *arg, uint32_t blocks, uint32_t threads)
{
	send_lat_kernel<<<blocks, threads>>>(*(const struct ex_pingpong_args *)arg);
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
