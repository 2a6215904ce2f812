/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Doorbell registers (UAR pages) mapped for the GPU.
 *
 * A ConnectX UAR is device memory mapped into the process, which the driver registers only with
 * CU_MEMHOSTREGISTER_IOMEMORY; the software NIC's UAR is ordinary host memory, which refuses
 * IOMEMORY. So the register page is tried with IOMEMORY first, then without. Several doorbells
 * share one page (the DB register, the BlueFlame buffers, the DBR-less doorbell) and the driver
 * registers a page once, so mappings are kept per page and reference-counted under a mutex.
 * These functions take no GPU handle: they use the calling thread's CUDA context, or else the
 * primary context of device 0, as the CUDA runtime would.
 *
 * can_register answers for the page it is asked about (the open release cached one answer for
 * the whole process, which is wrong when UARs of a ConnectX and of the software NIC coexist);
 * answers are cached per page, since registering and unregistering a page costs a system call.
 */
#include "gpunetio/gpu_int.h"

#include "core/cuda_drv.h"
#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>

#ifdef OGDA_HAVE_CUDA_H
struct uar_map {
	struct uar_map *next;
	uintptr_t page;     /* host address of the register page */
	uintptr_t dev_page; /* where the GPU sees it */
	uint32_t refs;
	bool ours;          /* registered here (not by someone else), so unregistered here */
	CUcontext ctx;      /* the context it was registered in */
};

struct uar_probe {
	struct uar_probe *next;
	uintptr_t page;
	bool can_register;
};

static pthread_mutex_t uar_lock = PTHREAD_MUTEX_INITIALIZER;
static struct uar_map *uar_maps;
static struct uar_probe *uar_probes;
static CUcontext uar_fallback_ctx; /* primary context of device 0, retained once when needed */

static uintptr_t page_of(const void *p)
{
	return (uintptr_t)p & ~(uintptr_t)(ogda_gpu_host_page_size() - 1);
}

/* The calling thread's context, or device 0's primary context made current. Under uar_lock. */
static doca_error_t uar_ctx_locked(const struct ogda_cuda_drv *drv, CUcontext *ctx)
{
	CUdevice dev;
	CUresult rc;

	if (drv->ctx_get_current(ctx) == CUDA_SUCCESS && *ctx != NULL)
		return DOCA_SUCCESS;
	if (uar_fallback_ctx == NULL) {
		rc = drv->device_get(&dev, 0);
		if (rc == CUDA_SUCCESS)
			rc = drv->device_primary_ctx_retain(&uar_fallback_ctx, dev);
		if (rc != CUDA_SUCCESS) {
			uar_fallback_ctx = NULL;
			OGDA_LOG_ERR("no current CUDA context and none for device 0: %s", ogda_gpu_cu_err(drv, rc));
			return DOCA_ERROR_DRIVER;
		}
	}
	rc = drv->ctx_set_current(uar_fallback_ctx);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("cannot make device 0's context current: %s", ogda_gpu_cu_err(drv, rc));
		return DOCA_ERROR_DRIVER;
	}
	*ctx = uar_fallback_ctx;
	return DOCA_SUCCESS;
}

/*
 * Registers the page for the GPU (IOMEMORY first) and finds its device address. A page someone
 * else registered is used as it is (*ours = false). Failures are logged at @level.
 */
static doca_error_t uar_page_map(const struct ogda_cuda_drv *drv, uintptr_t page, int level, uintptr_t *dev_page,
				 bool *ours)
{
	const unsigned int mapped = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP;
	size_t len = ogda_gpu_host_page_size();
	CUdeviceptr dptr = 0;
	bool io = true;
	CUresult rc;

	rc = drv->mem_host_register((void *)page, len, mapped | CU_MEMHOSTREGISTER_IOMEMORY);
	if (rc != CUDA_SUCCESS && rc != CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED) {
		io = false;
		rc = drv->mem_host_register((void *)page, len, mapped);
	}
	if (rc != CUDA_SUCCESS && rc != CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED) {
		OGDA_LOG(level, "cannot register doorbell page %p for the GPU: %s", (void *)page, ogda_gpu_cu_err(drv, rc));
		return DOCA_ERROR_DRIVER;
	}
	*ours = rc == CUDA_SUCCESS;
	rc = drv->mem_host_get_device_pointer(&dptr, (void *)page, 0);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG(level, "doorbell page %p has no GPU address: %s", (void *)page, ogda_gpu_cu_err(drv, rc));
		if (*ours)
			drv->mem_host_unregister((void *)page);
		return DOCA_ERROR_DRIVER;
	}
	*dev_page = (uintptr_t)dptr;
	OGDA_LOG_DBG("doorbell page %p is at %p for the GPU (%s)", (void *)page, (void *)dptr,
		     !*ours ? "registered elsewhere" : io ? "I/O memory" : "host memory");
	return DOCA_SUCCESS;
}

static struct uar_map *uar_map_find_page(uintptr_t page)
{
	struct uar_map *m;

	for (m = uar_maps; m != NULL; m = m->next)
		if (m->page == page)
			return m;
	return NULL;
}

static bool uar_probe_locked(const struct ogda_cuda_drv *drv, uintptr_t page)
{
	struct uar_probe *p;
	uintptr_t dev_page;
	CUcontext ctx;
	bool ours = false;
	bool can;

	if (uar_map_find_page(page) != NULL)
		return true;
	for (p = uar_probes; p != NULL; p = p->next)
		if (p->page == page)
			return p->can_register;
	if (uar_ctx_locked(drv, &ctx) != DOCA_SUCCESS)
		return false; /* not cached: a context may appear later */
	can = uar_page_map(drv, page, OGDA_LOG_INFO, &dev_page, &ours) == DOCA_SUCCESS;
	if (can && ours)
		drv->mem_host_unregister((void *)page);
	p = calloc(1, sizeof(*p));
	if (p != NULL) {
		p->page = page;
		p->can_register = can;
		p->next = uar_probes;
		uar_probes = p;
	}
	return can;
}
#endif /* OGDA_HAVE_CUDA_H */

doca_error_t doca_gpu_verbs_can_gpu_register_uar(void *db, bool *out_can_register)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_can_gpu_register_uar, (db, out_can_register));
	if (db == NULL || out_can_register == NULL) {
		OGDA_LOG_ERR("db and out_can_register must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*out_can_register = false;
#ifdef OGDA_HAVE_CUDA_H
	{
		const struct ogda_cuda_drv *drv = NULL;

		if (ogda_cuda_drv_get(&drv) != DOCA_SUCCESS) {
			OGDA_LOG_INFO("no CUDA driver: the GPU cannot map doorbell %p (%s)", db, ogda_cuda_drv_status());
			return DOCA_SUCCESS;
		}
		pthread_mutex_lock(&uar_lock);
		*out_can_register = uar_probe_locked(drv, page_of(db));
		pthread_mutex_unlock(&uar_lock);
	}
#endif
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_verbs_export_uar(uint64_t *sq_db, uint64_t **uar_addr_gpu)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_export_uar, (sq_db, uar_addr_gpu));
	if (sq_db == NULL || uar_addr_gpu == NULL) {
		OGDA_LOG_ERR("sq_db and uar_addr_gpu must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
#ifdef OGDA_HAVE_CUDA_H
	{
		const struct ogda_cuda_drv *drv = NULL;
		uintptr_t page = page_of(sq_db);
		struct uar_map *m;
		doca_error_t err;
		CUcontext ctx = NULL;

		err = ogda_cuda_drv_get(&drv);
		if (err != DOCA_SUCCESS) {
			OGDA_LOG_ERR("cannot map doorbell %p for the GPU: %s", (void *)sq_db, ogda_cuda_drv_status());
			return DOCA_ERROR_NOT_FOUND;
		}
		pthread_mutex_lock(&uar_lock);
		m = uar_map_find_page(page);
		if (m != NULL) {
			m->refs++;
		} else {
			m = calloc(1, sizeof(*m));
			err = m == NULL ? DOCA_ERROR_NO_MEMORY : uar_ctx_locked(drv, &ctx);
			if (err == DOCA_SUCCESS)
				err = uar_page_map(drv, page, OGDA_LOG_ERR, &m->dev_page, &m->ours);
			if (err != DOCA_SUCCESS) {
				pthread_mutex_unlock(&uar_lock);
				if (m == NULL)
					OGDA_LOG_ERR("out of memory for a doorbell mapping record");
				free(m);
				return err;
			}
			m->page = page;
			m->ctx = ctx;
			m->refs = 1;
			m->next = uar_maps;
			uar_maps = m;
		}
		*uar_addr_gpu = (uint64_t *)(m->dev_page + ((uintptr_t)sq_db - page));
		pthread_mutex_unlock(&uar_lock);
		return DOCA_SUCCESS;
	}
#else
	OGDA_LOG_ERR("cannot map doorbell %p for the GPU: built without CUDA headers", (void *)sq_db);
	return DOCA_ERROR_NOT_FOUND;
#endif
}

doca_error_t doca_gpu_verbs_unexport_uar(uint64_t *uar_addr_gpu)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_unexport_uar, (uar_addr_gpu));
	if (uar_addr_gpu == NULL) {
		OGDA_LOG_ERR("uar_addr_gpu must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
#ifdef OGDA_HAVE_CUDA_H
	{
		size_t page_len = ogda_gpu_host_page_size();
		const struct ogda_cuda_drv *drv = NULL;
		uintptr_t a = (uintptr_t)uar_addr_gpu;
		struct uar_map **pp, *m = NULL;
		doca_error_t err = DOCA_SUCCESS;
		CUcontext prev = NULL;
		CUresult rc;

		pthread_mutex_lock(&uar_lock);
		for (pp = &uar_maps; *pp != NULL; pp = &(*pp)->next) {
			if (a >= (*pp)->dev_page && a - (*pp)->dev_page < page_len) {
				m = *pp;
				break;
			}
		}
		if (m == NULL) {
			pthread_mutex_unlock(&uar_lock);
			OGDA_LOG_ERR("%p is not a doorbell address from doca_gpu_verbs_export_uar", (void *)uar_addr_gpu);
			return DOCA_ERROR_NOT_FOUND;
		}
		if (--m->refs > 0) {
			pthread_mutex_unlock(&uar_lock);
			return DOCA_SUCCESS;
		}
		*pp = m->next;
		/* A mapping exists, so the driver loaded; unregister in the context that registered. */
		if (m->ours && ogda_cuda_drv_get(&drv) == DOCA_SUCCESS) {
			if (drv->ctx_get_current(&prev) != CUDA_SUCCESS)
				prev = NULL;
			drv->ctx_set_current(m->ctx);
			rc = drv->mem_host_unregister((void *)m->page);
			drv->ctx_set_current(prev);
			if (rc != CUDA_SUCCESS) {
				OGDA_LOG_ERR("cannot unregister doorbell page %p: %s", (void *)m->page, ogda_gpu_cu_err(drv, rc));
				err = DOCA_ERROR_DRIVER;
			}
		}
		pthread_mutex_unlock(&uar_lock);
		free(m);
		return err;
	}
#else
	OGDA_LOG_ERR("%p is not a doorbell address from doca_gpu_verbs_export_uar", (void *)uar_addr_gpu);
	return DOCA_ERROR_NOT_FOUND;
#endif
}
