/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_simple_send in a build without nvcc: there is no kernel, and ex_cuda_open() has
 * already said so, so this is never reached. */
#include "sample_util.h"
#include "simple_send.h"

int simple_send_launch(const struct simple_send_args *a, uint32_t blocks, uint32_t threads_per_block)
{
	(void)a, (void)blocks, (void)threads_per_block;
	sample_err("this build has no CUDA kernels");
	return -1;
}
