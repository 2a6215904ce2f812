/* SPDX-License-Identifier: BSD-3-Clause */
#include "ex_gpu.h"

#include <string.h>

#include "doca_gpunetio.h"
#include "ex_cuda.h"
#include "opengda_gpunetio.h"
#include "sample_util.h"

int ex_gpu_open(const char *bus, bool host, const char *kernel_line, struct doca_gpu **gpu, bool *on_gpu)
{
	struct ex_gpu_desc g;
	char why[256];
	doca_error_t err;

	*on_gpu = false;
	if (!host && ex_cuda_open(bus, &g, why, sizeof(why)) == 0) {
		*on_gpu = true;
		sample_info("GPU %s (%s): %s", g.bus_id, g.name, kernel_line);
		err = doca_gpu_create(g.bus_id, gpu);
		if (err != DOCA_SUCCESS)
			sample_err_doca("doca_gpu_create", err);
		return err == DOCA_SUCCESS ? 0 : -1;
	}
	sample_info("no GPU used (%s): host threads run the device code", host ? "--host" : why);
	err = opengda_gpu_create_host(gpu);
	if (err != DOCA_SUCCESS)
		sample_err_doca("opengda_gpu_create_host", err);
	return err == DOCA_SUCCESS ? 0 : -1;
}

int ex_gpu_io(bool on_gpu, void *gpu_ptr, void *cpu_ptr, void *host, size_t len, bool to_mem)
{
	void *mem = cpu_ptr != NULL ? cpu_ptr : gpu_ptr;

	if (cpu_ptr == NULL && on_gpu)
		return to_mem ? ex_cuda_to_dev(gpu_ptr, host, len) : ex_cuda_to_host(host, gpu_ptr, len);
	if (to_mem)
		memcpy(mem, host, len);
	else
		memcpy(host, mem, len);
	return 0;
}
