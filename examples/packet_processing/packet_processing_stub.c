/* SPDX-License-Identifier: BSD-3-Clause */
/* gpu_packet_processing in a build without nvcc: there are no kernels, and ex_cuda_open() has
 * already said so, so this is never reached. */
#include "gpp.h"
#include "sample_util.h"

int gpp_launch(const struct gpp_args *a)
{
	(void)a;
	sample_err("this build has no CUDA kernels");
	return -1;
}
