/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GDRCopy through dlopen: the library is never linked, so its types are declared here from its
 * documented ABI. One gdrdrv connection is shared by every pinned range and closed when the
 * last one is released, so an idle process holds no file descriptor on /dev/gdrdrv.
 */
#include "gpunetio/gdrcopy.h"

#include "core/dl.h"
#include "core/env.h"
#include "core/log.h"

#include <pthread.h>
#include <string.h>

#define GDRCOPY_DISABLE_ENV "DOCA_GPUNETIO_DISABLE_GDRCOPY"

/* gdr_mh_t: a struct of one unsigned long, passed by value. */
struct gdr_mh {
	unsigned long h;
};

/*
 * gdr_info_t as far as every libgdrapi 2.x fills it (va comes first in all layouts); the spare
 * tail leaves room for fields a newer library may append.
 */
struct gdr_info_prefix {
	uint64_t va;
	uint64_t mapped_size;
	uint32_t page_size;
	uint64_t tm_cycles;
	uint32_t cycles_per_ms;
	uint32_t flags;
	uint8_t spare[64];
};

static struct {
	void *(*open)(void);
	int (*close)(void *g);
	int (*pin_buffer)(void *g, unsigned long addr, size_t size, uint64_t p2p_token, uint32_t va_space,
			  struct gdr_mh *handle);
	int (*unpin_buffer)(void *g, struct gdr_mh handle);
	int (*get_info)(void *g, struct gdr_mh handle, struct gdr_info_prefix *info);
	int (*map)(void *g, struct gdr_mh handle, void **va, size_t size);
	int (*unmap)(void *g, struct gdr_mh handle, void *va, size_t size);
} gdr;

static pthread_once_t gdr_once = PTHREAD_ONCE_INIT;
static bool gdr_usable;

static pthread_mutex_t gdr_lock = PTHREAD_MUTEX_INITIALIZER;
static void *gdr_shared; /* gdr_t while any range is pinned */
static unsigned long gdr_npins;

static void gdrcopy_load(void)
{
	const struct ogda_dl_sym syms[] = {
		{"gdr_open", (void **)&gdr.open, false},
		{"gdr_close", (void **)&gdr.close, false},
		{"gdr_pin_buffer", (void **)&gdr.pin_buffer, false},
		{"gdr_unpin_buffer", (void **)&gdr.unpin_buffer, false},
		{"gdr_get_info", (void **)&gdr.get_info, false},
		{"gdr_map", (void **)&gdr.map, false},
		{"gdr_unmap", (void **)&gdr.unmap, false},
	};
	bool disabled = false;
	void *handle = NULL;
	void *probe;

	if (ogda_env_get_bool(GDRCOPY_DISABLE_ENV, false, &disabled) != DOCA_SUCCESS)
		OGDA_LOG_WARN("%s must be 0 or 1; ignoring it", GDRCOPY_DISABLE_ENV);
	if (disabled) {
		OGDA_LOG_INFO("GDRCopy disabled by %s", GDRCOPY_DISABLE_ENV);
		return;
	}
	if (ogda_runtime_lib_open(OGDA_LIB_GDRAPI, &handle) != DOCA_SUCCESS)
		return; /* absent or disabled: dl.c logged why */
	if (ogda_dl_resolve(handle, syms, sizeof(syms) / sizeof(syms[0])) != DOCA_SUCCESS)
		return;
	/* The library alone is not enough: the gdrdrv module must answer. */
	probe = gdr.open();
	if (probe == NULL) {
		OGDA_LOG_INFO("GDRCopy library loaded but gdr_open failed (is the gdrdrv module loaded?)");
		return;
	}
	gdr.close(probe);
	gdr_usable = true;
}

bool ogda_gdrcopy_available(void)
{
	pthread_once(&gdr_once, gdrcopy_load);
	return gdr_usable;
}

static void shared_release_locked(void)
{
	if (gdr_npins == 0 && gdr_shared != NULL) {
		gdr.close(gdr_shared);
		gdr_shared = NULL;
	}
}

doca_error_t ogda_gdrcopy_map(uint64_t gpu_addr, size_t len, struct ogda_gdr_mapping *mapping)
{
	struct gdr_info_prefix info;
	struct gdr_mh mh = {0};
	void *va = NULL;
	int rc;

	if (mapping == NULL || gpu_addr == 0 || len == 0) {
		OGDA_LOG_ERR("mapping, GPU address and length must be given");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (gpu_addr % OGDA_GDR_GPU_PAGE_SIZE != 0 || len % OGDA_GDR_GPU_PAGE_SIZE != 0) {
		OGDA_LOG_ERR("GDRCopy range 0x%llx + %zu is not aligned to the %zu-byte GPU page",
			     (unsigned long long)gpu_addr, len, OGDA_GDR_GPU_PAGE_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!ogda_gdrcopy_available()) {
		OGDA_LOG_ERR("GDRCopy is not available");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	pthread_mutex_lock(&gdr_lock);
	if (gdr_shared == NULL)
		gdr_shared = gdr.open();
	if (gdr_shared == NULL) {
		pthread_mutex_unlock(&gdr_lock);
		OGDA_LOG_ERR("gdr_open failed");
		return DOCA_ERROR_DRIVER;
	}
	rc = gdr.pin_buffer(gdr_shared, (unsigned long)gpu_addr, len, 0, 0, &mh);
	if (rc != 0) {
		shared_release_locked();
		pthread_mutex_unlock(&gdr_lock);
		OGDA_LOG_ERR("gdr_pin_buffer(0x%llx, %zu) failed: %d", (unsigned long long)gpu_addr, len, rc);
		return DOCA_ERROR_DRIVER;
	}
	rc = gdr.map(gdr_shared, mh, &va, len);
	memset(&info, 0, sizeof(info));
	if (rc == 0)
		rc = gdr.get_info(gdr_shared, mh, &info);
	/* The mapping starts at the first pinned GPU page; our range must begin inside it. */
	if (rc == 0 && (info.va > gpu_addr || gpu_addr - info.va >= len))
		rc = -1;
	if (rc != 0) {
		if (va != NULL)
			gdr.unmap(gdr_shared, mh, va, len);
		gdr.unpin_buffer(gdr_shared, mh);
		shared_release_locked();
		pthread_mutex_unlock(&gdr_lock);
		OGDA_LOG_ERR("gdr_map of 0x%llx + %zu failed: %d", (unsigned long long)gpu_addr, len, rc);
		return DOCA_ERROR_DRIVER;
	}
	gdr_npins++;
	pthread_mutex_unlock(&gdr_lock);
	mapping->handle = mh.h;
	mapping->map = va;
	mapping->len = len;
	mapping->cpu = (uint8_t *)va + (gpu_addr - info.va);
	return DOCA_SUCCESS;
}

doca_error_t ogda_gdrcopy_unmap(struct ogda_gdr_mapping *mapping)
{
	struct gdr_mh mh;
	int rc_unmap;
	int rc_unpin;

	if (mapping == NULL || mapping->map == NULL) {
		OGDA_LOG_ERR("mapping must be one made by ogda_gdrcopy_map");
		return DOCA_ERROR_INVALID_VALUE;
	}
	mh.h = mapping->handle;
	pthread_mutex_lock(&gdr_lock);
	if (gdr_shared == NULL || gdr_npins == 0) {
		pthread_mutex_unlock(&gdr_lock);
		OGDA_LOG_ERR("no GDRCopy range is pinned");
		return DOCA_ERROR_BAD_STATE;
	}
	rc_unmap = gdr.unmap(gdr_shared, mh, mapping->map, mapping->len);
	rc_unpin = gdr.unpin_buffer(gdr_shared, mh);
	gdr_npins--;
	shared_release_locked();
	pthread_mutex_unlock(&gdr_lock);
	memset(mapping, 0, sizeof(*mapping));
	if (rc_unmap != 0 || rc_unpin != 0) {
		OGDA_LOG_ERR("gdr_unmap/gdr_unpin_buffer failed: %d/%d", rc_unmap, rc_unpin);
		return DOCA_ERROR_DRIVER;
	}
	return DOCA_SUCCESS;
}
