/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_send_wait_time in a build without nvcc: no kernel (ex_cuda_open() said so first). */
#include "sample_util.h"
#include "send_wait_time.h"

int swt_launch(const struct swt_args *a)
{
	(void)a;
	sample_err("this build has no CUDA kernels");
	return -1;
}
