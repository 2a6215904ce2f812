/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_simple_receive in a build without nvcc: there is no kernel, and ex_cuda_open() has
 * already said so, so this is never reached. */
#include "sample_util.h"
#include "simple_receive.h"

int simple_receive_launch(const struct simple_receive_args *a)
{
	(void)a;
	sample_err("this build has no CUDA kernels");
	return -1;
}
