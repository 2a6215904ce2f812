/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host memory made reachable by a handle's threads (queue rings, doorbell records, proxy words).
 *
 * The driver pins whole pages and refuses to register a page twice, while several queues may
 * live in one registered buffer. So ranges are page-rounded and reference-counted, and a request
 * inside a mapped range reuses it. A range someone else registered (the application, or CPU_GPU
 * memory from doca_gpu_mem_alloc) is looked up, recorded as not ours and never unregistered.
 * A request that overlaps a mapped range without lying inside it is refused: the driver would
 * refuse the overlapping pages too. Host handles keep the same books (device address = host
 * address), so the rules are the same everywhere.
 */
#include "gpunetio/gpu_int.h"

#include "core/cuda_drv.h"
#include "core/log.h"

#include <stdlib.h>

struct ogda_gpu_hostmap {
	struct ogda_gpu_hostmap *next;
	uintptr_t start;     /* page-rounded host range */
	size_t len;
	uintptr_t dev_start; /* where the handle's threads see start */
	uint32_t refs;
	bool ours;           /* registered here, so unregistered here */
};

#ifdef OGDA_HAVE_CUDA_H
static doca_error_t hostmap_register(struct doca_gpu *gpu, void *addr, struct ogda_gpu_hostmap *m)
{
	const struct ogda_cuda_drv *drv = NULL;
	CUdeviceptr dptr = 0;
	doca_error_t err;
	CUresult rc;

	err = ogda_gpu_drv_enter(gpu, &drv);
	if (err != DOCA_SUCCESS)
		return err;
	rc = drv->mem_host_register((void *)m->start, m->len, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP);
	if (rc == CUDA_SUCCESS) {
		m->ours = true;
		rc = drv->mem_host_get_device_pointer(&dptr, (void *)m->start, 0);
		if (rc != CUDA_SUCCESS)
			drv->mem_host_unregister((void *)m->start);
		else
			m->dev_start = (uintptr_t)dptr;
	} else if (rc == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED) {
		/* Someone else's registration: ask for the caller's address, which it surely covers. */
		m->ours = false;
		rc = drv->mem_host_get_device_pointer(&dptr, addr, 0);
		if (rc == CUDA_SUCCESS)
			m->dev_start = (uintptr_t)dptr - ((uintptr_t)addr - m->start);
	}
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: cannot map host memory %p + %zu for the GPU: %s", gpu->info.pci_bus_id,
			     (void *)m->start, m->len, ogda_gpu_cu_err(drv, rc));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}

static doca_error_t hostmap_unregister(const struct doca_gpu *gpu, const struct ogda_gpu_hostmap *m)
{
	const struct ogda_cuda_drv *drv = NULL;
	doca_error_t err;
	CUresult rc;

	err = ogda_gpu_drv_enter(gpu, &drv);
	if (err != DOCA_SUCCESS)
		return err;
	rc = drv->mem_host_unregister((void *)m->start);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("GPU %s: cannot unmap host memory %p: %s", gpu->info.pci_bus_id, (void *)m->start,
			     ogda_gpu_cu_err(drv, rc));
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}
#endif /* OGDA_HAVE_CUDA_H */

/* Makes a new mapping of m's range: the host handle needs none. */
static doca_error_t hostmap_create(struct doca_gpu *gpu, void *addr, struct ogda_gpu_hostmap *m)
{
	if (gpu->info.is_host) {
		m->dev_start = m->start;
		m->ours = true;
		return DOCA_SUCCESS;
	}
#ifdef OGDA_HAVE_CUDA_H
	return hostmap_register(gpu, addr, m);
#else
	(void)addr;
	return DOCA_ERROR_NOT_SUPPORTED;
#endif
}

doca_error_t ogda_gpu_map_host(struct doca_gpu *gpu, void *addr, size_t len, void **dev_addr)
{
	size_t page = ogda_gpu_host_page_size();
	struct ogda_gpu_hostmap *m;
	uintptr_t a = (uintptr_t)addr;
	uintptr_t start, end;
	doca_error_t err;

	if (gpu == NULL || addr == NULL || len == 0 || dev_addr == NULL) {
		OGDA_LOG_ERR("gpu, addr and dev_addr must not be NULL, len not 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a > UINTPTR_MAX - page || len > UINTPTR_MAX - page - a) {
		OGDA_LOG_ERR("host range %p + %zu wraps around the address space", addr, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	start = a & ~(uintptr_t)(page - 1);
	end = (a + len + page - 1) & ~(uintptr_t)(page - 1);
	pthread_mutex_lock(&gpu->lock);
	for (m = gpu->hostmaps; m != NULL; m = m->next) {
		if (start >= m->start && end <= m->start + m->len) {
			m->refs++;
			*dev_addr = (void *)(m->dev_start + (a - m->start));
			pthread_mutex_unlock(&gpu->lock);
			return DOCA_SUCCESS;
		}
		if (start < m->start + m->len && end > m->start) {
			pthread_mutex_unlock(&gpu->lock);
			OGDA_LOG_ERR("host range %p + %zu overlaps the mapped range %p + %zu without lying inside it",
				     addr, len, (void *)m->start, m->len);
			return DOCA_ERROR_NOT_SUPPORTED;
		}
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		pthread_mutex_unlock(&gpu->lock);
		OGDA_LOG_ERR("out of memory for a host mapping record");
		return DOCA_ERROR_NO_MEMORY;
	}
	m->start = start;
	m->len = end - start;
	m->refs = 1;
	/* Registered under the lock, so that two callers cannot register the same pages. */
	err = hostmap_create(gpu, addr, m);
	if (err != DOCA_SUCCESS) {
		pthread_mutex_unlock(&gpu->lock);
		free(m);
		return err;
	}
	m->next = gpu->hostmaps;
	gpu->hostmaps = m;
	*dev_addr = (void *)(m->dev_start + (a - m->start));
	pthread_mutex_unlock(&gpu->lock);
	return DOCA_SUCCESS;
}

doca_error_t ogda_gpu_unmap_host(struct doca_gpu *gpu, void *addr)
{
	struct ogda_gpu_hostmap **pp, *m = NULL;
	uintptr_t a = (uintptr_t)addr;
	doca_error_t err = DOCA_SUCCESS;

	if (gpu == NULL || addr == NULL) {
		OGDA_LOG_ERR("gpu and addr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&gpu->lock);
	for (pp = &gpu->hostmaps; *pp != NULL; pp = &(*pp)->next) {
		if (a >= (*pp)->start && a - (*pp)->start < (*pp)->len) {
			m = *pp;
			break;
		}
	}
	if (m == NULL) {
		pthread_mutex_unlock(&gpu->lock);
		OGDA_LOG_ERR("host address %p is not mapped for this handle", addr);
		return DOCA_ERROR_NOT_FOUND;
	}
	if (--m->refs > 0) {
		pthread_mutex_unlock(&gpu->lock);
		return DOCA_SUCCESS;
	}
	*pp = m->next;
	/* Unregistered under the lock: a new request for these pages must not race the driver. */
#ifdef OGDA_HAVE_CUDA_H
	if (m->ours && !gpu->info.is_host)
		err = hostmap_unregister(gpu, m);
#endif
	pthread_mutex_unlock(&gpu->lock);
	free(m);
	return err;
}
