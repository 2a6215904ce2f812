/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/cuda_drv.h"

#include "core/dl.h"
#include "core/log.h"

#include <pthread.h>
#include <stdio.h>

static pthread_once_t drv_once = PTHREAD_ONCE_INIT;
static doca_error_t drv_result = DOCA_ERROR_NOT_SUPPORTED;
static char drv_status[320] = "built without CUDA headers";

#ifdef OGDA_HAVE_CUDA_H
static struct ogda_cuda_drv drv;

static void drv_load(void)
{
	const struct ogda_dl_sym syms[] = {
		{"cuInit", (void **)&drv.init, false},
		{"cuDriverGetVersion", (void **)&drv.driver_get_version, false},
		{"cuDeviceGetCount", (void **)&drv.device_get_count, false},
		{"cuDeviceGet", (void **)&drv.device_get, false},
		{"cuDeviceGetName", (void **)&drv.device_get_name, false},
		{"cuDeviceGetAttribute", (void **)&drv.device_get_attribute, false},
		{"cuDeviceGetPCIBusId", (void **)&drv.device_get_pci_bus_id, false},
		{"cuDeviceTotalMem_v2", (void **)&drv.device_total_mem, false},
		{"cuGetErrorName", (void **)&drv.get_error_name, false},
		{"cuDevicePrimaryCtxRetain", (void **)&drv.device_primary_ctx_retain, false},
		{"cuCtxGetCurrent", (void **)&drv.ctx_get_current, false},
		{"cuCtxSetCurrent", (void **)&drv.ctx_set_current, false},
		{"cuStreamCreate", (void **)&drv.stream_create, false},
		{"cuStreamDestroy_v2", (void **)&drv.stream_destroy, false},
		{"cuStreamSynchronize", (void **)&drv.stream_synchronize, false},
		{"cuMemcpyAsync", (void **)&drv.memcpy_async, false},
		{"cuPointerGetAttribute", (void **)&drv.pointer_get_attribute, false},
		{"cuDeviceGetByPCIBusId", (void **)&drv.device_get_by_pci_bus_id, false},
		{"cuDevicePrimaryCtxRelease_v2", (void **)&drv.device_primary_ctx_release, false},
		{"cuMemAlloc_v2", (void **)&drv.mem_alloc, false},
		{"cuMemFree_v2", (void **)&drv.mem_free, false},
		{"cuPointerSetAttribute", (void **)&drv.pointer_set_attribute, false},
		{"cuMemHostRegister_v2", (void **)&drv.mem_host_register, false},
		{"cuMemHostUnregister", (void **)&drv.mem_host_unregister, false},
		{"cuMemHostGetDevicePointer_v2", (void **)&drv.mem_host_get_device_pointer, false},
		{"cuMemsetD8Async", (void **)&drv.memset_d8_async, false},
		{"cuMemGetHandleForAddressRange", (void **)&drv.mem_get_handle_for_address_range, true},
		{"cuIpcGetMemHandle", (void **)&drv.ipc_get_mem_handle, true},
		{"cuIpcOpenMemHandle_v2", (void **)&drv.ipc_open_mem_handle, true},
		{"cuIpcCloseMemHandle", (void **)&drv.ipc_close_mem_handle, true},
		{"cuMemGetAddressRange_v2", (void **)&drv.mem_get_address_range, true},
		{"cuStreamQuery", (void **)&drv.stream_query, true},
		{"cuEventCreate", (void **)&drv.event_create, true},
		{"cuEventRecord", (void **)&drv.event_record, true},
		{"cuEventQuery", (void **)&drv.event_query, true},
		{"cuEventDestroy_v2", (void **)&drv.event_destroy, true},
	};
	struct ogda_runtime_lib_info info;
	const char *name = NULL;
	void *handle = NULL;
	int version = 0;
	CUresult rc;

	drv_result = ogda_runtime_lib_open(OGDA_LIB_CUDA, &handle);
	if (drv_result != DOCA_SUCCESS) {
		ogda_runtime_lib_query(OGDA_LIB_CUDA, &info);
		snprintf(drv_status, sizeof(drv_status), "CUDA driver not available: %s", info.error);
		return;
	}
	drv_result = ogda_dl_resolve(handle, syms, sizeof(syms) / sizeof(syms[0]));
	if (drv_result != DOCA_SUCCESS) {
		snprintf(drv_status, sizeof(drv_status), "libcuda.so.1 lacks required driver entry points");
		return;
	}
	rc = drv.init(0);
	if (rc != CUDA_SUCCESS) {
		if (drv.get_error_name(rc, &name) != CUDA_SUCCESS || name == NULL)
			name = "unknown";
		snprintf(drv_status, sizeof(drv_status), "cuInit failed: %s (%d)", name, (int)rc);
		OGDA_LOG_INFO("%s", drv_status);
		drv_result = DOCA_ERROR_DRIVER;
		return;
	}
	drv.driver_get_version(&version);
	snprintf(drv_status, sizeof(drv_status), "CUDA driver %d.%d", version / 1000, (version % 1000) / 10);
	drv_result = DOCA_SUCCESS;
}

doca_error_t ogda_cuda_drv_get(const struct ogda_cuda_drv **out)
{
	if (out == NULL) {
		OGDA_LOG_ERR("out must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_once(&drv_once, drv_load);
	if (drv_result == DOCA_SUCCESS)
		*out = &drv;
	return drv_result;
}

int ogda_cuda_drv_built_in(void)
{
	return 1;
}
#else
static void drv_load(void)
{
}

int ogda_cuda_drv_built_in(void)
{
	return 0;
}
#endif /* OGDA_HAVE_CUDA_H */

doca_error_t ogda_cuda_drv_probe(void)
{
	pthread_once(&drv_once, drv_load);
	return drv_result;
}

const char *ogda_cuda_drv_status(void)
{
	pthread_once(&drv_once, drv_load);
	return drv_status;
}
