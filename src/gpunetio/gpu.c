/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The GPU handle. A CUDA device is opened through the driver API with its primary context
 * retained (the context CUDA runtime programs use too, so memory and mappings are shared with
 * them) and its capabilities probed once. A host handle stands in for a GPU where there is none.
 * Destroy refuses while memory, host mappings or exports remain, so nothing that device code may
 * still use is released under it.
 */
#include "gpunetio/gpu_int.h"

#include "core/cuda_drv.h"
#include "core/log.h"
#include "gpunetio/gdrcopy.h"
#include "sdk/sdk_forward.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t ogda_gpu_host_page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096u;
}

/* Reads 1..max_digits hexadecimal digits at *p; fails on none or on more than max_digits. */
static bool parse_hex(const char **p, unsigned int max_digits, unsigned long *out)
{
	unsigned long v = 0;
	unsigned int n = 0;
	int c;

	while (isxdigit((unsigned char)**p)) {
		if (n == max_digits)
			return false;
		c = tolower((unsigned char)**p);
		v = v * 16 + (unsigned long)(isdigit(c) ? c - '0' : c - 'a' + 10);
		(*p)++;
		n++;
	}
	*out = v;
	return n > 0;
}

doca_error_t ogda_gpu_bus_id_normalise(const char *in, char out[OGDA_GPU_BUS_ID_LEN])
{
	unsigned long first, second, domain, bus, device, function;
	const char *p = in;

	if (in == NULL || out == NULL) {
		OGDA_LOG_ERR("bus id and output must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* The first field is the domain (up to 8 digits) or, without one, the bus. */
	if (!parse_hex(&p, 8, &first) || *p++ != ':' || !parse_hex(&p, 2, &second))
		goto bad;
	if (*p == ':') {
		p++;
		domain = first;
		bus = second;
		if (!parse_hex(&p, 2, &device))
			goto bad;
	} else {
		domain = 0;
		bus = first;
		device = second;
	}
	if (bus > 0xff || device > 0x1f || *p++ != '.' || !parse_hex(&p, 1, &function) || function > 7 || *p != '\0')
		goto bad;
	snprintf(out, OGDA_GPU_BUS_ID_LEN, "%04lx:%02lx:%02lx.%lx", domain, bus, device, function);
	return DOCA_SUCCESS;
bad:
	OGDA_LOG_ERR("\"%s\" is not a PCIe address of the form [domain:]bus:device.function", in);
	return DOCA_ERROR_INVALID_VALUE;
}

static void gpu_free(struct doca_gpu *gpu)
{
	pthread_mutex_destroy(&gpu->lock);
	free(gpu);
}

static doca_error_t gpu_alloc(struct doca_gpu **out)
{
	struct doca_gpu *gpu = calloc(1, sizeof(*gpu));

	if (gpu == NULL) {
		OGDA_LOG_ERR("out of memory for a GPU handle");
		return DOCA_ERROR_NO_MEMORY;
	}
	if (pthread_mutex_init(&gpu->lock, NULL) != 0) {
		free(gpu);
		OGDA_LOG_ERR("cannot initialise the GPU handle's lock");
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	gpu->ordinal = -1;
	gpu->cu_device = -1;
	gpu->info.ordinal = -1;
	*out = gpu;
	return DOCA_SUCCESS;
}

#ifdef OGDA_HAVE_CUDA_H
const char *ogda_gpu_cu_err(const struct ogda_cuda_drv *drv, CUresult rc)
{
	const char *name = NULL;

	if (drv == NULL || drv->get_error_name(rc, &name) != CUDA_SUCCESS || name == NULL)
		return "unknown CUDA error";
	return name;
}

doca_error_t ogda_gpu_drv_enter(const struct doca_gpu *gpu, const struct ogda_cuda_drv **drv)
{
	doca_error_t err;
	CUresult rc;

	if (gpu == NULL || drv == NULL || gpu->info.is_host || gpu->cu_ctx == NULL) {
		OGDA_LOG_ERR("a GPU handle (not a host handle) and an output are needed");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = ogda_cuda_drv_get(drv);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: %s", gpu->info.pci_bus_id, ogda_cuda_drv_status());
		return err;
	}
	rc = (*drv)->ctx_set_current((CUcontext)gpu->cu_ctx);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: cannot make its context current: %s", gpu->info.pci_bus_id,
			     ogda_gpu_cu_err(*drv, rc));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

/* The ordinal of @dev: CUdevice values are ordinals in practice, but the driver does not promise it. */
static int gpu_ordinal(const struct ogda_cuda_drv *drv, CUdevice dev)
{
	CUdevice d;
	int count = 0;
	int i;

	if (drv->device_get_count(&count) == CUDA_SUCCESS)
		for (i = 0; i < count; i++)
			if (drv->device_get(&d, i) == CUDA_SUCCESS && d == dev)
				return i;
	return (int)dev;
}

/* An attribute the driver may not know (older drivers): 0 then. */
static int gpu_attr_or_zero(const struct ogda_cuda_drv *drv, CUdevice dev, CUdevice_attribute attr)
{
	int v = 0;

	if (drv->device_get_attribute(&v, attr, dev) != CUDA_SUCCESS)
		return 0;
	return v;
}

static doca_error_t gpu_probe(const struct ogda_cuda_drv *drv, struct doca_gpu *gpu, const char *bus_id)
{
	struct opengda_gpu_info *info = &gpu->info;
	CUdevice dev = (CUdevice)gpu->cu_device;
	char raw_bus_id[OGDA_GPU_BUS_ID_LEN];
	CUresult rc;

	rc = drv->device_get_attribute(&info->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
	if (rc == CUDA_SUCCESS)
		rc = drv->device_get_attribute(&info->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
	if (rc == CUDA_SUCCESS)
		rc = drv->device_total_mem(&info->total_mem, dev);
	if (rc == CUDA_SUCCESS)
		rc = drv->device_get_name(info->name, (int)sizeof(info->name), dev);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: cannot query the device: %s", bus_id, ogda_gpu_cu_err(drv, rc));
		return DOCA_ERROR_DRIVER;
	}
	info->name[sizeof(info->name) - 1] = '\0';
	/* The driver's own spelling of the address, normalised; the caller's when it gives none. */
	if (drv->device_get_pci_bus_id(raw_bus_id, (int)sizeof(raw_bus_id), dev) != CUDA_SUCCESS ||
	    ogda_gpu_bus_id_normalise(raw_bus_id, info->pci_bus_id) != DOCA_SUCCESS)
		snprintf(info->pci_bus_id, sizeof(info->pci_bus_id), "%s", bus_id);
	info->dmabuf_supported = gpu_attr_or_zero(drv, dev, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED) != 0 &&
				 drv->mem_get_handle_for_address_range != NULL;
	info->rdma_writes_ordered = gpu_attr_or_zero(drv, dev, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING) !=
				    CU_GPU_DIRECT_RDMA_WRITES_ORDERING_NONE;
	info->gdrcopy = ogda_gdrcopy_available();
	return DOCA_SUCCESS;
}

/* Primary context and copy stream; on failure nothing is left retained. */
static doca_error_t gpu_ctx_open(const struct ogda_cuda_drv *drv, struct doca_gpu *gpu)
{
	CUcontext ctx = NULL;
	CUstream stream = NULL;
	CUresult rc;

	rc = drv->device_primary_ctx_retain(&ctx, (CUdevice)gpu->cu_device);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: cannot retain its primary context: %s", gpu->info.pci_bus_id,
			     ogda_gpu_cu_err(drv, rc));
		return DOCA_ERROR_DRIVER;
	}
	rc = drv->ctx_set_current(ctx);
	if (rc == CUDA_SUCCESS)
		rc = drv->stream_create(&stream, CU_STREAM_NON_BLOCKING);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: cannot create a copy stream: %s", gpu->info.pci_bus_id, ogda_gpu_cu_err(drv, rc));
		drv->device_primary_ctx_release((CUdevice)gpu->cu_device);
		return DOCA_ERROR_DRIVER;
	}
	gpu->cu_ctx = ctx;
	gpu->cu_stream = stream;
	return DOCA_SUCCESS;
}

static void gpu_ctx_close(struct doca_gpu *gpu)
{
	const struct ogda_cuda_drv *drv = NULL;
	CUcontext prev = NULL;

	if (ogda_cuda_drv_get(&drv) != DOCA_SUCCESS)
		return; /* cannot happen: the handle was opened through it */
	if (drv->ctx_get_current(&prev) != CUDA_SUCCESS)
		prev = NULL;
	if (drv->ctx_set_current((CUcontext)gpu->cu_ctx) == CUDA_SUCCESS)
		drv->stream_destroy((CUstream)gpu->cu_stream);
	/* Leave no thread pointing at a context that the release below may destroy. */
	drv->ctx_set_current(prev == (CUcontext)gpu->cu_ctx ? NULL : prev);
	if (drv->device_primary_ctx_release((CUdevice)gpu->cu_device) != CUDA_SUCCESS)
		OGDA_LOG_WARN("GPU %s: releasing its primary context failed", gpu->info.pci_bus_id);
}

static doca_error_t gpu_open_cuda(const char *bus_id, struct doca_gpu **out)
{
	const struct ogda_cuda_drv *drv = NULL;
	struct doca_gpu *gpu = NULL;
	doca_error_t err;
	CUdevice dev;
	CUresult rc;

	err = ogda_cuda_drv_get(&drv);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("cannot open GPU %s: %s", bus_id, ogda_cuda_drv_status());
		return err;
	}
	rc = drv->device_get_by_pci_bus_id(&dev, bus_id);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("no CUDA device at %s: %s", bus_id, ogda_gpu_cu_err(drv, rc));
		return DOCA_ERROR_NOT_FOUND;
	}
	err = gpu_alloc(&gpu);
	if (err != DOCA_SUCCESS)
		return err;
	gpu->cu_device = (int)dev;
	gpu->ordinal = gpu_ordinal(drv, dev);
	gpu->info.ordinal = gpu->ordinal;
	err = gpu_probe(drv, gpu, bus_id);
	if (err == DOCA_SUCCESS)
		err = gpu_ctx_open(drv, gpu);
	if (err != DOCA_SUCCESS) {
		gpu_free(gpu);
		return err;
	}
	OGDA_LOG_INFO("GPU %s (%s, sm_%d%d): dmabuf %s, RDMA writes %s, GDRCopy %s", gpu->info.pci_bus_id,
		      gpu->info.name, gpu->info.cc_major, gpu->info.cc_minor, gpu->info.dmabuf_supported ? "yes" : "no",
		      gpu->info.rdma_writes_ordered ? "ordered" : "need a flush", gpu->info.gdrcopy ? "yes" : "no");
	*out = gpu;
	return DOCA_SUCCESS;
}
#endif /* OGDA_HAVE_CUDA_H */

doca_error_t doca_gpu_create(const char *gpu_bus_id, struct doca_gpu **gpu_dev)
{
	OGDA_SDK_FORWARD(doca_gpu_create, (gpu_bus_id, gpu_dev));
	char bus_id[OGDA_GPU_BUS_ID_LEN];
	doca_error_t err;

	if (gpu_bus_id == NULL || gpu_dev == NULL) {
		OGDA_LOG_ERR("gpu_bus_id and gpu_dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = ogda_gpu_bus_id_normalise(gpu_bus_id, bus_id);
	if (err != DOCA_SUCCESS)
		return err;
#ifdef OGDA_HAVE_CUDA_H
	return gpu_open_cuda(bus_id, gpu_dev);
#else
	OGDA_LOG_ERR("cannot open GPU %s: built without CUDA headers", bus_id);
	return DOCA_ERROR_NOT_FOUND;
#endif
}

doca_error_t opengda_gpu_create_host(struct doca_gpu **gpu_dev)
{
	struct doca_gpu *gpu = NULL;
	long pages = sysconf(_SC_PHYS_PAGES);
	doca_error_t err;

	if (gpu_dev == NULL) {
		OGDA_LOG_ERR("gpu_dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = gpu_alloc(&gpu);
	if (err != DOCA_SUCCESS)
		return err;
	gpu->info.is_host = true;
	snprintf(gpu->info.name, sizeof(gpu->info.name), "host");
	/* The "device memory" of the host is its physical memory. */
	gpu->info.total_mem = pages > 0 ? (size_t)pages * ogda_gpu_host_page_size() : 0;
	/* The NIC writes host memory coherently: data is visible before its completion. */
	gpu->info.rdma_writes_ordered = true;
	*gpu_dev = gpu;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_destroy(struct doca_gpu *gpu_dev)
{
	OGDA_SDK_FORWARD(doca_gpu_destroy, (gpu_dev));
	bool allocs, hostmaps;
	uint32_t nexports;

	if (gpu_dev == NULL) {
		OGDA_LOG_ERR("gpu_dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&gpu_dev->lock);
	allocs = gpu_dev->allocs != NULL;
	hostmaps = gpu_dev->hostmaps != NULL;
	nexports = gpu_dev->nexports;
	pthread_mutex_unlock(&gpu_dev->lock);
	if (allocs || hostmaps || nexports != 0) {
		OGDA_LOG_ERR("GPU handle %s is in use: %s%s%u exported QPs or arrays",
			     gpu_dev->info.is_host ? "host" : gpu_dev->info.pci_bus_id, allocs ? "memory allocations, " : "",
			     hostmaps ? "host mappings, " : "", nexports);
		return DOCA_ERROR_IN_USE;
	}
#ifdef OGDA_HAVE_CUDA_H
	if (!gpu_dev->info.is_host)
		gpu_ctx_close(gpu_dev);
#endif
	gpu_free(gpu_dev);
	return DOCA_SUCCESS;
}

doca_error_t opengda_gpu_get_info(const struct doca_gpu *gpu_dev, struct opengda_gpu_info *info)
{
	if (gpu_dev == NULL || info == NULL) {
		OGDA_LOG_ERR("gpu_dev and info must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*info = gpu_dev->info;
	return DOCA_SUCCESS;
}

doca_error_t ogda_gpu_ctx_enter(const struct doca_gpu *gpu)
{
	if (gpu == NULL) {
		OGDA_LOG_ERR("gpu must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (gpu->info.is_host)
		return DOCA_SUCCESS;
#ifdef OGDA_HAVE_CUDA_H
	{
		const struct ogda_cuda_drv *drv = NULL;

		return ogda_gpu_drv_enter(gpu, &drv);
	}
#else
	OGDA_LOG_ERR("built without CUDA headers: no GPU context");
	return DOCA_ERROR_NOT_SUPPORTED;
#endif
}

void ogda_gpu_export_get(struct doca_gpu *gpu)
{
	if (gpu == NULL) {
		OGDA_LOG_ERR("gpu must not be NULL");
		return;
	}
	pthread_mutex_lock(&gpu->lock);
	gpu->nexports++;
	pthread_mutex_unlock(&gpu->lock);
}

void ogda_gpu_export_put(struct doca_gpu *gpu)
{
	bool underflow;

	if (gpu == NULL) {
		OGDA_LOG_ERR("gpu must not be NULL");
		return;
	}
	pthread_mutex_lock(&gpu->lock);
	underflow = gpu->nexports == 0;
	if (!underflow)
		gpu->nexports--;
	pthread_mutex_unlock(&gpu->lock);
	if (underflow)
		OGDA_LOG_ERR("GPU handle %s: export released more often than taken",
			     gpu->info.is_host ? "host" : gpu->info.pci_bus_id);
}
