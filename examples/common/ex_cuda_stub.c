/* SPDX-License-Identifier: BSD-3-Clause */
/* ex_cuda.h for a build without nvcc: no GPU can be used, and nothing here is ever reached
 * after ex_cuda_open() has said so. */
#include "ex_cuda.h"

#include <stdio.h>
#include <string.h>

#include "sample_util.h"

int ex_cuda_open(const char *bus_id, struct ex_gpu_desc *out, char *why, size_t why_len)
{
	(void)bus_id;
	memset(out, 0, sizeof(*out));
	snprintf(why, why_len, "this build has no CUDA compiler, so the examples carry no kernels");
	return -1;
}

static int no_cuda(void)
{
	sample_err("this build has no CUDA support");
	return -1;
}

int ex_cuda_to_host(void *dst, const void *src_dev, size_t len)
{
	(void)dst, (void)src_dev, (void)len;
	return no_cuda();
}

int ex_cuda_to_dev(void *dst_dev, const void *src, size_t len)
{
	(void)dst_dev, (void)src, (void)len;
	return no_cuda();
}

int ex_cuda_fill(void *dst_dev, uint8_t v, size_t len)
{
	(void)dst_dev, (void)v, (void)len;
	return no_cuda();
}

int ex_cuda_begin(void)
{
	return no_cuda();
}

int ex_cuda_end(uint32_t timeout_s, uint64_t *ns)
{
	(void)timeout_s, (void)ns;
	return no_cuda();
}

const char *ex_cuda_launch_error(void)
{
	return "this build has no CUDA support";
}
