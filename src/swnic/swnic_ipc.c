/* SPDX-License-Identifier: BSD-3-Clause */
/* CUDA IPC for the software NIC's same-host fabric (swnic_ipc.h). */
#include "swnic/swnic_ipc.h"

#include "core/env.h"
#include "core/log.h"

#include <stdio.h>
#include <string.h>

#ifdef OGDA_HAVE_CUDA_H

#include "core/cuda_drv.h"
#include "swnic/swnic_mem_int.h"

#include <pthread.h>

static const struct ogda_cuda_drv *ipc_drv(void)
{
	const struct ogda_cuda_drv *drv = NULL;

	if (ogda_cuda_drv_get(&drv) != DOCA_SUCCESS || drv->ipc_get_mem_handle == NULL ||
	    drv->ipc_open_mem_handle == NULL || drv->ipc_close_mem_handle == NULL || drv->mem_get_address_range == NULL)
		return NULL;
	return drv;
}

bool swnic_ipc_available(void)
{
	bool on;

	if (ogda_env_get_bool(SWNIC_ENV_IPC, true, &on) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: expected a boolean (0 sends GPU payloads as bytes); using 1", SWNIC_ENV_IPC);
		on = true;
	}
	return on && ipc_drv() != NULL;
}

/* Makes ctx current; *prev gets the context current before (restore it with ctx_set_current). */
static bool ctx_enter(const struct ogda_cuda_drv *drv, CUcontext ctx, CUcontext *prev)
{
	if (drv->ctx_get_current(prev) != CUDA_SUCCESS)
		*prev = NULL;
	return drv->ctx_set_current(ctx) == CUDA_SUCCESS;
}

/*
 * Fills cache with the allocation holding addr (buffer id known). The address-range and IPC
 * calls need a current context: the primary context of the memory's GPU, made current here
 * because the engine thread has none of its own.
 */
static doca_error_t export_fill(const struct ogda_cuda_drv *drv, struct swnic_ipc_export_cache *c, uint64_t addr,
				unsigned long long id)
{
	CUcontext ctx = NULL, prev = NULL;
	CUdeviceptr base = 0;
	size_t size = 0;
	CUipcMemHandle h;
	int ordinal = -1;
	CUdevice dev;
	bool ok;

	memset(c, 0, sizeof(*c));
	c->valid = true;
	c->buffer_id = id;
	if (drv->pointer_get_attribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, (CUdeviceptr)addr) !=
		    CUDA_SUCCESS ||
	    drv->device_get(&dev, ordinal) != CUDA_SUCCESS || swnic_cuda_primary_ctx(drv, ordinal, &ctx) != DOCA_SUCCESS)
		return DOCA_ERROR_NOT_SUPPORTED;
	ok = ctx_enter(drv, ctx, &prev) && drv->mem_get_address_range(&base, &size, (CUdeviceptr)addr) == CUDA_SUCCESS &&
	     /* Only cuMemAlloc memory has a legacy IPC handle (not VMM, managed or host memory). */
	     drv->ipc_get_mem_handle(&h, base) == CUDA_SUCCESS &&
	     drv->device_get_pci_bus_id(c->bus_id, (int)sizeof(c->bus_id), dev) == CUDA_SUCCESS;
	drv->ctx_set_current(prev);
	if (!ok)
		return DOCA_ERROR_NOT_SUPPORTED;
	_Static_assert(sizeof(h) == SWNIC_IPC_HANDLE_LEN, "CUipcMemHandle is 64 bytes");
	c->base = (uint64_t)base;
	c->size = (uint64_t)size;
	memcpy(c->handle, &h, sizeof(h));
	c->bus_id[sizeof(c->bus_id) - 1] = '\0';
	c->exportable = true;
	return DOCA_SUCCESS;
}

doca_error_t swnic_ipc_export(struct swnic_ipc_export_cache *cache, uint64_t addr, uint64_t len, uint64_t mr_addr,
			      uint64_t mr_len, struct swnic_ipc_ref *ref)
{
	const struct ogda_cuda_drv *drv = ipc_drv();
	unsigned long long id = 0;

	if (cache == NULL || ref == NULL || len == 0) {
		OGDA_LOG_ERR("IPC export: bad argument (cache %p, ref %p, len %llu)", (void *)cache, (void *)ref,
			     (unsigned long long)len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (drv == NULL)
		return DOCA_ERROR_NOT_SUPPORTED;
	if (drv->pointer_get_attribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, (CUdeviceptr)addr) != CUDA_SUCCESS)
		return DOCA_ERROR_NOT_SUPPORTED;
	if (!cache->valid || cache->buffer_id != id) {
		if (export_fill(drv, cache, addr, id) != DOCA_SUCCESS) {
			OGDA_LOG_DBG("GPU memory at 0x%llx has no IPC handle: its payloads travel as bytes",
				     (unsigned long long)addr);
			cache->exportable = false;
		}
	}
	if (!cache->exportable)
		return DOCA_ERROR_NOT_SUPPORTED;
	if (addr < cache->base || len > cache->size || addr - cache->base > cache->size - len)
		return DOCA_ERROR_NOT_SUPPORTED; /* spans allocations: no one handle covers it */
	/* The handle opens the whole allocation: only when the application registered all of it. */
	if (mr_addr > cache->base || mr_addr + mr_len < cache->base + cache->size)
		return DOCA_ERROR_NOT_PERMITTED;
	memcpy(ref->handle, cache->handle, sizeof(ref->handle));
	memcpy(ref->bus_id, cache->bus_id, sizeof(ref->bus_id));
	ref->offset = addr - cache->base;
	return DOCA_SUCCESS;
}

/* ---- responder: opened handles, process-wide ---- */

struct swnic_ipc_map {
	bool used;
	uint8_t handle[SWNIC_IPC_HANDLE_LEN];
	CUcontext ctx;     /* the context it was opened in, current again to close it */
	CUdeviceptr base;
	uint64_t size;
	unsigned refs;
	uint64_t last_use; /* tick of its last map, for LRU */
};

static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct swnic_ipc_map maps[SWNIC_IPC_MAPS];
static uint64_t maps_tick;

/* A free entry, closing the least recently used idle mapping when none is. Under maps_lock. */
static struct swnic_ipc_map *entry_free(const struct ogda_cuda_drv *drv)
{
	struct swnic_ipc_map *lru = NULL;
	unsigned i;

	for (i = 0; i < SWNIC_IPC_MAPS; i++) {
		if (!maps[i].used)
			return &maps[i];
		if (maps[i].refs == 0 && (lru == NULL || maps[i].last_use < lru->last_use))
			lru = &maps[i];
	}
	if (lru != NULL) {
		CUcontext prev = NULL;

		if (ctx_enter(drv, lru->ctx, &prev))
			drv->ipc_close_mem_handle(lru->base);
		drv->ctx_set_current(prev);
		memset(lru, 0, sizeof(*lru));
	}
	return lru;
}

/* Opens ref's handle on the GPU its bus ID names. Under maps_lock. */
static doca_error_t map_open(const struct ogda_cuda_drv *drv, const struct swnic_ipc_ref *ref, CUcontext *ctx_out,
			     CUdeviceptr *base, size_t *size, char *why, size_t why_cap)
{
	CUcontext ctx = NULL, prev = NULL;
	CUipcMemHandle h;
	CUdeviceptr b = 0;
	CUdevice dev;
	CUresult rc;
	const char *name = NULL;
	doca_error_t err;

	if (drv->device_get_by_pci_bus_id(&dev, ref->bus_id) != CUDA_SUCCESS) {
		snprintf(why, why_cap, "GPU %s is not visible in this process", ref->bus_id);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = swnic_cuda_primary_ctx(drv, (int)dev, &ctx);
	if (err != DOCA_SUCCESS) {
		snprintf(why, why_cap, "no context on GPU %s", ref->bus_id);
		return err;
	}
	memcpy(&h, ref->handle, sizeof(h));
	rc = ctx_enter(drv, ctx, &prev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
	if (rc == CUDA_SUCCESS)
		rc = drv->ipc_open_mem_handle(&b, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
	if (rc == CUDA_SUCCESS && drv->mem_get_address_range(base, size, b) != CUDA_SUCCESS) {
		drv->ipc_close_mem_handle(b);
		rc = CUDA_ERROR_INVALID_VALUE;
	}
	drv->ctx_set_current(prev);
	if (rc != CUDA_SUCCESS) {
		if (drv->get_error_name(rc, &name) != CUDA_SUCCESS || name == NULL)
			name = "unknown CUDA error";
		snprintf(why, why_cap, "the IPC handle of GPU %s does not open here: %s", ref->bus_id, name);
		return DOCA_ERROR_DRIVER;
	}
	*ctx_out = ctx;
	return DOCA_SUCCESS;
}

doca_error_t swnic_ipc_map(const struct swnic_ipc_ref *ref, uint64_t len, void **ptr, struct swnic_ipc_map **map,
			   char *why, size_t why_cap)
{
	const struct ogda_cuda_drv *drv = ipc_drv();
	struct swnic_ipc_map *m = NULL;
	CUcontext ctx = NULL;
	CUdeviceptr base = 0;
	size_t size = 0;
	doca_error_t err = DOCA_SUCCESS;
	unsigned i;

	if (ref == NULL || ptr == NULL || map == NULL || why == NULL || why_cap == 0) {
		OGDA_LOG_ERR("IPC map: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*map = NULL;
	if (memchr(ref->bus_id, '\0', sizeof(ref->bus_id)) == NULL) {
		snprintf(why, why_cap, "the GPU bus ID is not terminated");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (drv == NULL) {
		snprintf(why, why_cap, "no CUDA driver with IPC in this process: %s", ogda_cuda_drv_status());
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	pthread_mutex_lock(&maps_lock);
	for (i = 0; i < SWNIC_IPC_MAPS && m == NULL; i++)
		if (maps[i].used && memcmp(maps[i].handle, ref->handle, sizeof(ref->handle)) == 0)
			m = &maps[i];
	if (m == NULL) {
		m = entry_free(drv);
		if (m == NULL) {
			snprintf(why, why_cap, "all %u IPC mappings are in use", SWNIC_IPC_MAPS);
			err = DOCA_ERROR_FULL;
		} else {
			err = map_open(drv, ref, &ctx, &base, &size, why, why_cap);
			if (err == DOCA_SUCCESS) {
				m->used = true;
				m->ctx = ctx;
				memcpy(m->handle, ref->handle, sizeof(m->handle));
				m->base = base;
				m->size = (uint64_t)size;
			}
		}
	}
	if (err == DOCA_SUCCESS && (len > m->size || ref->offset > m->size - len)) {
		snprintf(why, why_cap, "payload %llu+%llu outside the %llu-byte allocation its handle opens",
			 (unsigned long long)ref->offset, (unsigned long long)len, (unsigned long long)m->size);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err == DOCA_SUCCESS) {
		m->refs++;
		m->last_use = ++maps_tick;
		*ptr = (void *)(uintptr_t)(m->base + ref->offset);
		*map = m;
	}
	pthread_mutex_unlock(&maps_lock);
	return err;
}

void swnic_ipc_unmap(struct swnic_ipc_map *map)
{
	if (map == NULL)
		return;
	pthread_mutex_lock(&maps_lock);
	if (map->refs > 0)
		map->refs--;
	pthread_mutex_unlock(&maps_lock);
}


#else /* !OGDA_HAVE_CUDA_H */

bool swnic_ipc_available(void)
{
	return false;
}

doca_error_t swnic_ipc_export(struct swnic_ipc_export_cache *cache, uint64_t addr, uint64_t len, uint64_t mr_addr,
			      uint64_t mr_len, struct swnic_ipc_ref *ref)
{
	(void)cache;
	(void)addr;
	(void)len;
	(void)mr_addr;
	(void)mr_len;
	(void)ref;
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t swnic_ipc_map(const struct swnic_ipc_ref *ref, uint64_t len, void **ptr, struct swnic_ipc_map **map,
			   char *why, size_t why_cap)
{
	(void)ref;
	(void)len;
	(void)ptr;
	if (map != NULL)
		*map = NULL;
	if (why != NULL && why_cap > 0)
		snprintf(why, why_cap, "this build has no CUDA headers: GPU memory of other processes cannot be mapped");
	return DOCA_ERROR_NOT_SUPPORTED;
}

void swnic_ipc_unmap(struct swnic_ipc_map *map)
{
	(void)map;
}


#endif /* OGDA_HAVE_CUDA_H */
