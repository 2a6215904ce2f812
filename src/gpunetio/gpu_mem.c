/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpu_mem_alloc() and friends, and the copies the export code uses.
 *
 * Every allocation is recorded on its handle with what free needs. Alignment is honoured
 * exactly: device memory is over-allocated by alignment - 1 and the address rounded up; host
 * memory comes from posix_memalign. Host memory the GPU reaches is page-aligned and
 * page-rounded, because pinning works on whole pages and two registrations may not share one.
 * GPU_CPU without GDRCopy falls back to CPU_GPU (pinned host memory mapped for the GPU): both
 * pointers work, but device code then reads over PCIe. A warning says so once per process.
 */
#include "gpunetio/gpu_int.h"

#include "core/cuda_drv.h"
#include "core/log.h"
#include "gpunetio/gdrcopy.h"
#include "sdk/sdk_forward.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct ogda_gpu_alloc {
	struct ogda_gpu_alloc *next;
	enum doca_gpu_mem_type type; /* what was made (a GPU_CPU fallback is CPU_GPU) */
	void *gpu_ptr;               /* what the caller got */
	void *cpu_ptr;
	size_t size;                 /* usable bytes from gpu_ptr (rounded up as described above) */
	void *host_base;             /* host memory to free: host handle and CPU_GPU */
	uint64_t dev_base;           /* cuMemAlloc result: GPU and GPU_CPU */
	bool host_registered;        /* host_base is cuMemHostRegister'ed */
	struct ogda_gdr_mapping gdr; /* GPU_CPU through GDRCopy */
};

static size_t round_up(size_t v, size_t align)
{
	return (v + align - 1) & ~(align - 1);
}

static void alloc_link(struct doca_gpu *gpu, struct ogda_gpu_alloc *a)
{
	pthread_mutex_lock(&gpu->lock);
	a->next = gpu->allocs;
	gpu->allocs = a;
	pthread_mutex_unlock(&gpu->lock);
}

/* Unlinks and returns the allocation whose GPU address is @gpu_ptr, or NULL. */
static struct ogda_gpu_alloc *alloc_unlink(struct doca_gpu *gpu, const void *gpu_ptr)
{
	struct ogda_gpu_alloc **pp, *a = NULL;

	pthread_mutex_lock(&gpu->lock);
	for (pp = &gpu->allocs; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->gpu_ptr == gpu_ptr) {
			a = *pp;
			*pp = a->next;
			break;
		}
	}
	pthread_mutex_unlock(&gpu->lock);
	return a;
}

static doca_error_t alloc_host_handle(struct ogda_gpu_alloc *a, size_t size, size_t alignment)
{
	void *p = NULL;

	/* posix_memalign wants a multiple of sizeof(void *); a larger power of two is still exact. */
	if (alignment < sizeof(void *))
		alignment = sizeof(void *);
	if (posix_memalign(&p, alignment, size) != 0) {
		OGDA_LOG_ERR("cannot allocate %zu bytes aligned to %zu", size, alignment);
		return DOCA_ERROR_NO_MEMORY;
	}
	memset(p, 0, size);
	a->host_base = p;
	a->gpu_ptr = p;
	a->cpu_ptr = a->type == DOCA_GPU_MEM_TYPE_GPU ? NULL : p;
	a->size = size;
	return DOCA_SUCCESS;
}

#ifdef OGDA_HAVE_CUDA_H
static doca_error_t release_cuda(const struct doca_gpu *gpu, struct ogda_gpu_alloc *a)
{
	const struct ogda_cuda_drv *drv = NULL;
	doca_error_t ret = DOCA_SUCCESS;
	CUresult rc;

	if (ogda_gpu_drv_enter(gpu, &drv) != DOCA_SUCCESS)
		return DOCA_ERROR_DRIVER;
	if (a->gdr.map != NULL && ogda_gdrcopy_unmap(&a->gdr) != DOCA_SUCCESS)
		ret = DOCA_ERROR_DRIVER;
	if (a->dev_base != 0) {
		rc = drv->mem_free((CUdeviceptr)a->dev_base);
		if (rc != CUDA_SUCCESS) {
			OGDA_LOG_ERR("GPU %s: cuMemFree(%p) failed: %s", gpu->info.pci_bus_id, a->gpu_ptr,
				     ogda_gpu_cu_err(drv, rc));
			ret = DOCA_ERROR_DRIVER;
		}
	}
	if (a->host_registered) {
		rc = drv->mem_host_unregister(a->host_base);
		if (rc != CUDA_SUCCESS) {
			/* Freeing pinned memory the driver still maps would hand it to malloc while mapped. */
			OGDA_LOG_ERR("GPU %s: cuMemHostUnregister(%p) failed: %s; the memory is leaked",
				     gpu->info.pci_bus_id, a->host_base, ogda_gpu_cu_err(drv, rc));
			return DOCA_ERROR_DRIVER;
		}
	}
	free(a->host_base);
	return ret;
}

static doca_error_t alloc_device(const struct doca_gpu *gpu, const struct ogda_cuda_drv *drv, struct ogda_gpu_alloc *a,
				 size_t size, size_t alignment, bool cpu_map)
{
	const int sync_memops = 1;
	CUdeviceptr base = 0;
	uint64_t aligned;
	doca_error_t err;
	CUresult rc;

	/* GDRCopy pins whole GPU pages; dmabuf export works on whole host pages. */
	if (cpu_map && alignment < OGDA_GDR_GPU_PAGE_SIZE)
		alignment = OGDA_GDR_GPU_PAGE_SIZE;
	size = round_up(size, cpu_map ? OGDA_GDR_GPU_PAGE_SIZE : ogda_gpu_host_page_size());
	rc = drv->mem_alloc(&base, size + alignment - 1);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: cuMemAlloc(%zu) failed: %s", gpu->info.pci_bus_id, size + alignment - 1,
			     ogda_gpu_cu_err(drv, rc));
		return rc == CUDA_ERROR_OUT_OF_MEMORY ? DOCA_ERROR_NO_MEMORY : DOCA_ERROR_DRIVER;
	}
	a->dev_base = (uint64_t)base;
	aligned = round_up((size_t)base, alignment);
	a->gpu_ptr = (void *)(uintptr_t)aligned;
	a->size = size;
	/* Synchronous copies on this memory must wait for the NIC's and kernels' writes. */
	rc = drv->pointer_set_attribute(&sync_memops, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, base);
	if (rc == CUDA_SUCCESS)
		rc = drv->memset_d8_async((CUdeviceptr)aligned, 0, size, (CUstream)gpu->cu_stream);
	if (rc == CUDA_SUCCESS)
		rc = drv->stream_synchronize((CUstream)gpu->cu_stream);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: cannot prepare %zu bytes of device memory: %s", gpu->info.pci_bus_id, size,
			     ogda_gpu_cu_err(drv, rc));
		release_cuda(gpu, a);
		return DOCA_ERROR_DRIVER;
	}
	if (cpu_map) {
		err = ogda_gdrcopy_map(aligned, size, &a->gdr);
		if (err != DOCA_SUCCESS) {
			release_cuda(gpu, a);
			return err;
		}
		a->cpu_ptr = a->gdr.cpu;
	}
	return DOCA_SUCCESS;
}

static doca_error_t alloc_pinned_host(const struct doca_gpu *gpu, const struct ogda_cuda_drv *drv,
				      struct ogda_gpu_alloc *a, size_t size, size_t alignment)
{
	size_t page = ogda_gpu_host_page_size();
	CUdeviceptr dptr = 0;
	void *p = NULL;
	CUresult rc;

	if (alignment < page)
		alignment = page;
	size = round_up(size, page);
	if (posix_memalign(&p, alignment, size) != 0) {
		OGDA_LOG_ERR("cannot allocate %zu bytes of host memory aligned to %zu", size, alignment);
		return DOCA_ERROR_NO_MEMORY;
	}
	memset(p, 0, size);
	a->host_base = p;
	rc = drv->mem_host_register(p, size, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP);
	if (rc == CUDA_SUCCESS) {
		a->host_registered = true;
		rc = drv->mem_host_get_device_pointer(&dptr, p, 0);
	}
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: cannot pin and map %zu bytes of host memory: %s", gpu->info.pci_bus_id, size,
			     ogda_gpu_cu_err(drv, rc));
		release_cuda(gpu, a);
		return DOCA_ERROR_DRIVER;
	}
	a->gpu_ptr = (void *)(uintptr_t)dptr;
	a->cpu_ptr = p;
	a->size = size;
	return DOCA_SUCCESS;
}

static doca_error_t alloc_cuda(const struct doca_gpu *gpu, struct ogda_gpu_alloc *a, size_t size, size_t alignment)
{
	static atomic_bool fallback_warned;
	const struct ogda_cuda_drv *drv = NULL;
	doca_error_t err;

	err = ogda_gpu_drv_enter(gpu, &drv);
	if (err != DOCA_SUCCESS)
		return err;
	if (a->type == DOCA_GPU_MEM_TYPE_GPU_CPU && !gpu->info.gdrcopy) {
		if (!atomic_exchange(&fallback_warned, true))
			OGDA_LOG_WARN("GDRCopy is not available: DOCA_GPU_MEM_TYPE_GPU_CPU memory is pinned host "
				      "memory mapped for the GPU (CPU_GPU) instead");
		a->type = DOCA_GPU_MEM_TYPE_CPU_GPU;
	}
	if (a->type == DOCA_GPU_MEM_TYPE_CPU_GPU)
		return alloc_pinned_host(gpu, drv, a, size, alignment);
	return alloc_device(gpu, drv, a, size, alignment, a->type == DOCA_GPU_MEM_TYPE_GPU_CPU);
}
#endif /* OGDA_HAVE_CUDA_H */

static doca_error_t alloc_release(const struct doca_gpu *gpu, struct ogda_gpu_alloc *a)
{
	if (gpu->info.is_host) {
		free(a->host_base);
		return DOCA_SUCCESS;
	}
#ifdef OGDA_HAVE_CUDA_H
	return release_cuda(gpu, a);
#else
	return DOCA_ERROR_NOT_SUPPORTED;
#endif
}

doca_error_t doca_gpu_mem_alloc(struct doca_gpu *gpu_dev, size_t size, size_t alignment, enum doca_gpu_mem_type mtype,
				void **memptr_gpu, void **memptr_cpu)
{
	OGDA_SDK_FORWARD(doca_gpu_mem_alloc, (gpu_dev, size, alignment, mtype, memptr_gpu, memptr_cpu));
	struct ogda_gpu_alloc *a;
	doca_error_t err;

	if (gpu_dev == NULL || memptr_gpu == NULL) {
		OGDA_LOG_ERR("gpu_dev and memptr_gpu must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mtype != DOCA_GPU_MEM_TYPE_GPU && mtype != DOCA_GPU_MEM_TYPE_GPU_CPU && mtype != DOCA_GPU_MEM_TYPE_CPU_GPU) {
		OGDA_LOG_ERR("unknown memory type %d", (int)mtype);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mtype != DOCA_GPU_MEM_TYPE_GPU && memptr_cpu == NULL) {
		OGDA_LOG_ERR("memory type %d has a CPU address: memptr_cpu must not be NULL", (int)mtype);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (alignment == 0)
		alignment = ogda_gpu_host_page_size();
	if ((alignment & (alignment - 1)) != 0) {
		OGDA_LOG_ERR("alignment %zu is not a power of two", alignment);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Leaves room for every rounding below: alignment, host page and GPU page. */
	if (alignment > SIZE_MAX / 4) {
		OGDA_LOG_ERR("alignment %zu is too large", alignment);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (size == 0 || size > SIZE_MAX / 4 - alignment) {
		OGDA_LOG_ERR("size %zu is zero or too large", size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		OGDA_LOG_ERR("out of memory for an allocation record");
		return DOCA_ERROR_NO_MEMORY;
	}
	a->type = mtype;
	if (gpu_dev->info.is_host) {
		err = alloc_host_handle(a, size, alignment);
	} else {
#ifdef OGDA_HAVE_CUDA_H
		err = alloc_cuda(gpu_dev, a, size, alignment);
#else
		err = DOCA_ERROR_NOT_SUPPORTED;
#endif
	}
	if (err != DOCA_SUCCESS) {
		free(a);
		return err;
	}
	alloc_link(gpu_dev, a);
	*memptr_gpu = a->gpu_ptr;
	if (memptr_cpu != NULL)
		*memptr_cpu = a->cpu_ptr;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_mem_free(struct doca_gpu *gpu_dev, void *memptr_gpu)
{
	OGDA_SDK_FORWARD(doca_gpu_mem_free, (gpu_dev, memptr_gpu));
	struct ogda_gpu_alloc *a;
	doca_error_t err;

	if (gpu_dev == NULL || memptr_gpu == NULL) {
		OGDA_LOG_ERR("gpu_dev and memptr_gpu must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = alloc_unlink(gpu_dev, memptr_gpu);
	if (a == NULL) {
		OGDA_LOG_ERR("%p is not memory of this GPU handle (doca_gpu_mem_alloc's GPU address)", memptr_gpu);
		return DOCA_ERROR_NOT_FOUND;
	}
	err = alloc_release(gpu_dev, a);
	free(a);
	return err;
}

/* Whether [p, p + len) lies in device memory this handle allocated. */
static bool range_in_device_alloc(struct doca_gpu *gpu, uintptr_t p, size_t len)
{
	struct ogda_gpu_alloc *a;
	bool found = false;

	pthread_mutex_lock(&gpu->lock);
	for (a = gpu->allocs; a != NULL && !found; a = a->next) {
		uintptr_t start = (uintptr_t)a->gpu_ptr;

		found = a->dev_base != 0 && p >= start && len <= a->size && p - start <= a->size - len;
	}
	pthread_mutex_unlock(&gpu->lock);
	return found;
}

/*
 * The driver exports whole host pages (cuMemGetHandleForAddressRange wants address and size
 * aligned to the host page size): the address must be page-aligned and the size is rounded up,
 * which stays inside the allocation because device allocations are page-rounded.
 */
doca_error_t doca_gpu_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size, int *dmabuf_fd)
{
	OGDA_SDK_FORWARD(doca_gpu_dmabuf_fd, (gpu_dev, memptr_gpu, size, dmabuf_fd));
	size_t page = ogda_gpu_host_page_size();

	if (gpu_dev == NULL || memptr_gpu == NULL || size == 0 || dmabuf_fd == NULL) {
		OGDA_LOG_ERR("gpu_dev, memptr_gpu and dmabuf_fd must not be NULL, size not 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (gpu_dev->info.is_host) {
		OGDA_LOG_ERR("a host handle has no GPU memory to export as a dmabuf");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (!gpu_dev->info.dmabuf_supported) {
		OGDA_LOG_ERR("GPU %s or its driver cannot export dmabufs", gpu_dev->info.pci_bus_id);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if ((uintptr_t)memptr_gpu % page != 0 || size > SIZE_MAX - page) {
		OGDA_LOG_ERR("dmabuf range %p + %zu: the address must be aligned to the %zu-byte host page", memptr_gpu,
			     size, page);
		return DOCA_ERROR_INVALID_VALUE;
	}
	size = round_up(size, page);
	if (!range_in_device_alloc(gpu_dev, (uintptr_t)memptr_gpu, size)) {
		OGDA_LOG_ERR("dmabuf range %p + %zu is not inside device memory of GPU %s", memptr_gpu, size,
			     gpu_dev->info.pci_bus_id);
		return DOCA_ERROR_INVALID_VALUE;
	}
#ifdef OGDA_HAVE_CUDA_H
	{
		const struct ogda_cuda_drv *drv = NULL;
		doca_error_t err;
		int fd = -1;
		CUresult rc;

		err = ogda_gpu_drv_enter(gpu_dev, &drv);
		if (err != DOCA_SUCCESS)
			return err;
		rc = drv->mem_get_handle_for_address_range(&fd, (CUdeviceptr)(uintptr_t)memptr_gpu, size,
							   CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
		if (rc != CUDA_SUCCESS) {
			OGDA_LOG_ERR("GPU %s: dmabuf export of %p + %zu failed: %s", gpu_dev->info.pci_bus_id, memptr_gpu,
				     size, ogda_gpu_cu_err(drv, rc));
			return rc == CUDA_ERROR_NOT_SUPPORTED ? DOCA_ERROR_NOT_SUPPORTED : DOCA_ERROR_DRIVER;
		}
		*dmabuf_fd = fd;
		return DOCA_SUCCESS;
	}
#else
	return DOCA_ERROR_NOT_SUPPORTED;
#endif
}

bool ogda_gpu_is_device_ptr(const struct doca_gpu *gpu, const void *addr)
{
	if (gpu == NULL || addr == NULL || gpu->info.is_host)
		return false;
#ifdef OGDA_HAVE_CUDA_H
	{
		const struct ogda_cuda_drv *drv = NULL;
		unsigned int type = 0;

		if (ogda_cuda_drv_get(&drv) != DOCA_SUCCESS)
			return false;
		/* Host memory the driver does not know fails the query: not device memory. */
		return drv->pointer_get_attribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)addr) ==
			       CUDA_SUCCESS &&
		       type == CU_MEMORYTYPE_DEVICE;
	}
#else
	return false;
#endif
}

bool ogda_gpu_addr_is_device(const void *addr)
{
#ifdef OGDA_HAVE_CUDA_H
	const struct ogda_cuda_drv *drv = NULL;
	unsigned int type = 0;

	/* No driver, or memory it does not know (not initialised: nobody allocated any): host memory. */
	if (addr == NULL || ogda_cuda_drv_get(&drv) != DOCA_SUCCESS)
		return false;
	return drv->pointer_get_attribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)addr) ==
		       CUDA_SUCCESS &&
	       type == CU_MEMORYTYPE_DEVICE;
#else
	(void)addr;
	return false;
#endif
}

#ifdef OGDA_HAVE_CUDA_H
/* On the handle's own non-blocking stream: never queued behind a kernel that waits for the CPU. */
static doca_error_t copy_cuda(const struct doca_gpu *gpu, void *dst, const void *src, size_t len)
{
	const struct ogda_cuda_drv *drv = NULL;
	doca_error_t err;
	CUresult rc;

	err = ogda_gpu_drv_enter(gpu, &drv);
	if (err != DOCA_SUCCESS)
		return err;
	rc = drv->memcpy_async((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, len, (CUstream)gpu->cu_stream);
	if (rc == CUDA_SUCCESS)
		rc = drv->stream_synchronize((CUstream)gpu->cu_stream);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: copy of %zu bytes %p -> %p failed: %s", gpu->info.pci_bus_id, len, src, dst,
			     ogda_gpu_cu_err(drv, rc));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}
#endif

static doca_error_t copy_any(const struct doca_gpu *gpu, void *dst, const void *src, size_t len)
{
	if (gpu == NULL || dst == NULL || src == NULL) {
		OGDA_LOG_ERR("gpu, destination and source must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (len == 0)
		return DOCA_SUCCESS;
	if (gpu->info.is_host) {
		/*
		 * A one-byte read is how a CPU checks a CQE's owner byte in "device" memory, which
		 * another thread (the software NIC) publishes last with a release store: an acquire
		 * load, so the CQE read next is ordered after it (as a DMA read of the written line).
		 */
		if (len == 1)
			*(uint8_t *)dst = __atomic_load_n((const uint8_t *)src, __ATOMIC_ACQUIRE);
		else
			memmove(dst, src, len);
		return DOCA_SUCCESS;
	}
#ifdef OGDA_HAVE_CUDA_H
	return copy_cuda(gpu, dst, src, len);
#else
	return DOCA_ERROR_NOT_SUPPORTED;
#endif
}

doca_error_t ogda_gpu_copy_to_dev(const struct doca_gpu *gpu, void *dst_dev, const void *src, size_t len)
{
	return copy_any(gpu, dst_dev, src, len);
}

doca_error_t ogda_gpu_dup_to_dev(struct doca_gpu *gpu, const void *src, size_t len, void **dev)
{
	void *cpu = NULL;
	doca_error_t err = doca_gpu_mem_alloc(gpu, len, 64, DOCA_GPU_MEM_TYPE_GPU, dev, &cpu);

	if (err != DOCA_SUCCESS)
		return err;
	err = copy_any(gpu, *dev, src, len);
	if (err != DOCA_SUCCESS) {
		(void)doca_gpu_mem_free(gpu, *dev);
		*dev = NULL;
	}
	return err;
}

doca_error_t ogda_gpu_copy_from_dev(const struct doca_gpu *gpu, void *dst, const void *src_dev, size_t len)
{
	return copy_any(gpu, dst, src_dev, len);
}

doca_error_t ogda_gpu_memset_dev(const struct doca_gpu *gpu, void *dst_dev, uint8_t byte, size_t len)
{
	if (gpu == NULL || dst_dev == NULL) {
		OGDA_LOG_ERR("gpu and dst_dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (len == 0)
		return DOCA_SUCCESS;
	if (gpu->info.is_host) {
		memset(dst_dev, byte, len);
		return DOCA_SUCCESS;
	}
#ifdef OGDA_HAVE_CUDA_H
	{
		const struct ogda_cuda_drv *drv = NULL;
		doca_error_t err;
		CUresult rc;

		err = ogda_gpu_drv_enter(gpu, &drv);
		if (err != DOCA_SUCCESS)
			return err;
		rc = drv->memset_d8_async((CUdeviceptr)(uintptr_t)dst_dev, byte, len, (CUstream)gpu->cu_stream);
		if (rc == CUDA_SUCCESS)
			rc = drv->stream_synchronize((CUstream)gpu->cu_stream);
		if (rc != CUDA_SUCCESS) {
			OGDA_LOG_ERR("GPU %s: memset of %zu bytes at %p failed: %s", gpu->info.pci_bus_id, len, dst_dev,
				     ogda_gpu_cu_err(drv, rc));
			return DOCA_ERROR_DRIVER;
		}
		return DOCA_SUCCESS;
	}
#else
	return DOCA_ERROR_NOT_SUPPORTED;
#endif
}

doca_error_t doca_gpu_get_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size, int *dmabuf_fd)
{
	return doca_gpu_dmabuf_fd(gpu_dev, memptr_gpu, size, dmabuf_fd);
}
