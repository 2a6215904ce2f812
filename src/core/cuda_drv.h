/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CUDA driver API, loaded at run time from libcuda.so.1. The library never links
 * libcuda or the CUDA runtime: on a machine without a GPU driver every entry point here
 * reports DOCA_ERROR_NOT_FOUND and the rest of OpenGDA keeps working on host threads.
 *
 * It lives in core because both the software NIC (GPU memory copies) and the GPU layer
 * (memory, doorbell mapping) use it, and the software NIC sits below the GPU layer.
 */
#ifndef OGDA_CORE_CUDA_DRV_H_
#define OGDA_CORE_CUDA_DRV_H_

#include "doca_error.h"

#include <stddef.h>

#ifdef OGDA_HAVE_CUDA_H
#include <cuda.h>

/* Entry points in use; extend as layers need more. Names are the ABI symbols (_v2 where versioned). */
struct ogda_cuda_drv {
	CUresult (*init)(unsigned int flags);
	CUresult (*driver_get_version)(int *version);
	CUresult (*device_get_count)(int *count);
	CUresult (*device_get)(CUdevice *dev, int ordinal);
	CUresult (*device_get_name)(char *name, int len, CUdevice dev);
	CUresult (*device_get_attribute)(int *value, CUdevice_attribute attr, CUdevice dev);
	CUresult (*device_get_pci_bus_id)(char *bus_id, int len, CUdevice dev);
	CUresult (*device_total_mem)(size_t *bytes, CUdevice dev);
	CUresult (*get_error_name)(CUresult err, const char **name);
	/* Software NIC memory copies (swnic_memcpy.c): a private non-blocking stream per thread. */
	CUresult (*device_primary_ctx_retain)(CUcontext *ctx, CUdevice dev);
	CUresult (*ctx_get_current)(CUcontext *ctx);
	CUresult (*ctx_set_current)(CUcontext ctx);
	CUresult (*stream_create)(CUstream *stream, unsigned int flags);
	CUresult (*stream_destroy)(CUstream stream);
	CUresult (*stream_synchronize)(CUstream stream);
	CUresult (*memcpy_async)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream);
	/* Software NIC memory kind detection (swnic_mem.c): MEMORY_TYPE and IS_MANAGED. */
	CUresult (*pointer_get_attribute)(void *data, CUpointer_attribute attribute, CUdeviceptr ptr);
	/* GPU handle, memory and doorbell mapping (src/gpunetio/gpu*.c). */
	CUresult (*device_get_by_pci_bus_id)(CUdevice *dev, const char *pci_bus_id);
	CUresult (*device_primary_ctx_release)(CUdevice dev);
	CUresult (*mem_alloc)(CUdeviceptr *dptr, size_t bytes);
	CUresult (*mem_free)(CUdeviceptr dptr);
	CUresult (*pointer_set_attribute)(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr);
	CUresult (*mem_host_register)(void *p, size_t bytes, unsigned int flags);
	CUresult (*mem_host_unregister)(void *p);
	CUresult (*mem_host_get_device_pointer)(CUdeviceptr *dptr, void *p, unsigned int flags);
	CUresult (*memset_d8_async)(CUdeviceptr dst, unsigned char value, size_t n, CUstream stream);
	/* Software NIC CUDA IPC between processes of one host (swnic_ipc.c); optional: NULL when missing. */
	CUresult (*ipc_get_mem_handle)(CUipcMemHandle *handle, CUdeviceptr dptr);
	CUresult (*ipc_open_mem_handle)(CUdeviceptr *dptr, CUipcMemHandle handle, unsigned int flags);
	CUresult (*ipc_close_mem_handle)(CUdeviceptr dptr);
	CUresult (*mem_get_address_range)(CUdeviceptr *base, size_t *size, CUdeviceptr dptr);
	/* Deferred copies (swnic_mem_defer.c); optional: NULL when missing. */
	CUresult (*stream_query)(CUstream stream);
	CUresult (*event_create)(CUevent *event, unsigned int flags);
	CUresult (*event_record)(CUevent event, CUstream stream);
	CUresult (*event_query)(CUevent event);
	CUresult (*event_destroy)(CUevent event);
	/* Optional (drivers from CUDA 11.7 on): NULL when the driver lacks it. */
	CUresult (*mem_get_handle_for_address_range)(void *handle, CUdeviceptr dptr, size_t size,
						     CUmemRangeHandleType type, unsigned long long flags);
};

/*
 * Loads libcuda.so.1 and calls cuInit(0), once per process.
 * DOCA_ERROR_NOT_FOUND: no driver library (or OPENGDA_DISABLE_CUDA=1).
 * DOCA_ERROR_DRIVER: the library loaded but cuInit failed (e.g. the toolkit's stub library,
 * CUDA_ERROR_STUB_LIBRARY, or no device/driver mismatch); ogda_cuda_drv_status() says why.
 */
doca_error_t ogda_cuda_drv_get(const struct ogda_cuda_drv **drv);
#endif /* OGDA_HAVE_CUDA_H */

/* Whether this build can talk to the CUDA driver at all (built with cuda.h). */
int ogda_cuda_drv_built_in(void);

/* Loads the driver like ogda_cuda_drv_get() and returns the outcome, for reports. */
doca_error_t ogda_cuda_drv_probe(void);

/* One line describing the state of the driver: version, or why it is unavailable. */
const char *ogda_cuda_drv_status(void);

#endif /* OGDA_CORE_CUDA_DRV_H_ */
