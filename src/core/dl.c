/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "core/dl.h"

#include "core/env.h"
#include "core/log.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct runtime_lib {
	const char *label;
	const char *soname;
	const char *disable_env;
	pthread_once_t once;
	void *handle;
	struct ogda_runtime_lib_info info;
};

static struct runtime_lib runtime_libs[OGDA_LIB_COUNT] = {
	[OGDA_LIB_CUDA] = {"CUDA driver", "libcuda.so.1", "OPENGDA_DISABLE_CUDA", PTHREAD_ONCE_INIT, NULL, {0}},
	[OGDA_LIB_IBVERBS] = {"rdma-core verbs", "libibverbs.so.1", "OPENGDA_DISABLE_IBVERBS", PTHREAD_ONCE_INIT, NULL, {0}},
	[OGDA_LIB_MLX5] = {"rdma-core mlx5", "libmlx5.so.1", "OPENGDA_DISABLE_MLX5", PTHREAD_ONCE_INIT, NULL, {0}},
	[OGDA_LIB_GDRAPI] = {"GDRCopy", "libgdrapi.so.2", "OPENGDA_DISABLE_GDRCOPY", PTHREAD_ONCE_INIT, NULL, {0}},
};

doca_error_t ogda_dl_open(const char *soname, void **handle)
{
	void *h;

	if (soname == NULL || handle == NULL) {
		OGDA_LOG_ERR("soname and handle must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		OGDA_LOG_DBG("dlopen(%s) failed: %s", soname, dlerror());
		return DOCA_ERROR_NOT_FOUND;
	}
	*handle = h;
	return DOCA_SUCCESS;
}

doca_error_t ogda_dl_resolve(void *handle, const struct ogda_dl_sym *syms, size_t count)
{
	size_t i;

	if (handle == NULL || (syms == NULL && count != 0)) {
		OGDA_LOG_ERR("handle and symbol table must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < count; i++) {
		*syms[i].slot = dlsym(handle, syms[i].name);
		if (*syms[i].slot == NULL && !syms[i].optional) {
			OGDA_LOG_ERR("required symbol %s is missing from the loaded library", syms[i].name);
			for (i = 0; i < count; i++)
				*syms[i].slot = NULL;
			return DOCA_ERROR_NOT_FOUND;
		}
	}
	return DOCA_SUCCESS;
}

static void runtime_lib_load(struct runtime_lib *lib)
{
	struct ogda_runtime_lib_info *info = &lib->info;
	struct link_map *map = NULL;
	bool disabled = false;
	const char *why;

	info->label = lib->label;
	info->soname = lib->soname;
	if (ogda_env_get_bool(lib->disable_env, false, &disabled) != DOCA_SUCCESS)
		OGDA_LOG_WARN("%s must be 0 or 1; ignoring it", lib->disable_env);
	if (disabled) {
		info->disabled = true;
		snprintf(info->error, sizeof(info->error), "disabled by %s", lib->disable_env);
		OGDA_LOG_INFO("%s (%s) disabled by %s", lib->label, lib->soname, lib->disable_env);
		return;
	}
	lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (lib->handle == NULL) {
		why = dlerror();
		snprintf(info->error, sizeof(info->error), "%s", why ? why : "not found");
		OGDA_LOG_INFO("%s (%s) not available: %s", lib->label, lib->soname, info->error);
		return;
	}
	info->loaded = true;
	if (dlinfo(lib->handle, RTLD_DI_LINKMAP, &map) == 0 && map != NULL && map->l_name != NULL)
		snprintf(info->path, sizeof(info->path), "%s", map->l_name);
	OGDA_LOG_INFO("%s loaded from %s", lib->label, info->path);
}

/* pthread_once takes no argument, so each library gets a trampoline. */
#define RUNTIME_LIB_ONCE(idx)                                                                      \
	static void runtime_lib_once_##idx(void) { runtime_lib_load(&runtime_libs[idx]); }
RUNTIME_LIB_ONCE(OGDA_LIB_CUDA)
RUNTIME_LIB_ONCE(OGDA_LIB_IBVERBS)
RUNTIME_LIB_ONCE(OGDA_LIB_MLX5)
RUNTIME_LIB_ONCE(OGDA_LIB_GDRAPI)

static void (*const runtime_lib_once_fns[OGDA_LIB_COUNT])(void) = {
	[OGDA_LIB_CUDA] = runtime_lib_once_OGDA_LIB_CUDA,
	[OGDA_LIB_IBVERBS] = runtime_lib_once_OGDA_LIB_IBVERBS,
	[OGDA_LIB_MLX5] = runtime_lib_once_OGDA_LIB_MLX5,
	[OGDA_LIB_GDRAPI] = runtime_lib_once_OGDA_LIB_GDRAPI,
};

static struct runtime_lib *runtime_lib_get(enum ogda_runtime_lib lib)
{
	if ((unsigned int)lib >= OGDA_LIB_COUNT) {
		OGDA_LOG_ERR("unknown runtime library id %d", (int)lib);
		return NULL;
	}
	pthread_once(&runtime_libs[lib].once, runtime_lib_once_fns[lib]);
	return &runtime_libs[lib];
}

doca_error_t ogda_runtime_lib_open(enum ogda_runtime_lib lib, void **handle)
{
	struct runtime_lib *l;

	if (handle == NULL) {
		OGDA_LOG_ERR("handle must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	l = runtime_lib_get(lib);
	if (l == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (l->handle == NULL)
		return DOCA_ERROR_NOT_FOUND;
	*handle = l->handle;
	return DOCA_SUCCESS;
}

doca_error_t ogda_runtime_lib_query(enum ogda_runtime_lib lib, struct ogda_runtime_lib_info *info)
{
	struct runtime_lib *l;

	if (info == NULL) {
		OGDA_LOG_ERR("info must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	l = runtime_lib_get(lib);
	if (l == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*info = l->info;
	return DOCA_SUCCESS;
}
