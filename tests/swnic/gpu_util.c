/* SPDX-License-Identifier: BSD-3-Clause */
#include "gpu_util.h"

#ifdef OGDA_HAVE_CUDA_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dlfcn.h>

struct gpu_driver cu;

int gpu_open(size_t dev_bytes)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	CUdevice d;

	if (h == NULL) {
		print_message("no CUDA driver: %s\n", dlerror());
		return -1;
	}
	*(void **)&cu.init = dlsym(h, "cuInit");
	*(void **)&cu.device_get = dlsym(h, "cuDeviceGet");
	*(void **)&cu.primary_retain = dlsym(h, "cuDevicePrimaryCtxRetain");
	*(void **)&cu.ctx_set = dlsym(h, "cuCtxSetCurrent");
	*(void **)&cu.ctx_get = dlsym(h, "cuCtxGetCurrent");
	*(void **)&cu.mem_alloc = dlsym(h, "cuMemAlloc_v2");
	*(void **)&cu.mem_free = dlsym(h, "cuMemFree_v2");
	*(void **)&cu.memset_d8 = dlsym(h, "cuMemsetD8_v2");
	*(void **)&cu.dtoh = dlsym(h, "cuMemcpyDtoH_v2");
	*(void **)&cu.htod = dlsym(h, "cuMemcpyHtoD_v2");
	if (cu.init == NULL || cu.device_get == NULL || cu.primary_retain == NULL || cu.ctx_set == NULL ||
	    cu.ctx_get == NULL || cu.mem_alloc == NULL || cu.mem_free == NULL || cu.memset_d8 == NULL ||
	    cu.dtoh == NULL || cu.htod == NULL || cu.init(0) != CUDA_SUCCESS || cu.device_get(&d, 0) != CUDA_SUCCESS ||
	    cu.primary_retain(&cu.ctx, d) != CUDA_SUCCESS || cu.ctx_set(cu.ctx) != CUDA_SUCCESS ||
	    cu.mem_alloc(&cu.dev, dev_bytes) != CUDA_SUCCESS) {
		print_message("CUDA driver present but device 0 not usable\n");
		return -1;
	}
	cu.base = (uint8_t *)(uintptr_t)cu.dev;
	return 0;
}

int gpu_teardown(void **state)
{
	(void)state;
	if (cu.mem_free != NULL && cu.dev != 0)
		cu.mem_free(cu.dev);
	return 0;
}
#endif /* OGDA_HAVE_CUDA_H */
