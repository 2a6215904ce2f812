/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Run-time loading of optional dependencies. libdoca_gpunetio links none of libcuda,
 * libibverbs, libmlx5 or libgdrapi; each is opened here on first use, once per process,
 * so the library works (software NIC, host threads) on a machine that has none of them.
 */
#ifndef OGDA_CORE_DL_H_
#define OGDA_CORE_DL_H_

#include "doca_error.h"

#include <stdbool.h>
#include <stddef.h>

enum ogda_runtime_lib {
	OGDA_LIB_CUDA,     /* libcuda.so.1: the CUDA driver API */
	OGDA_LIB_IBVERBS,  /* libibverbs.so.1 */
	OGDA_LIB_MLX5,     /* libmlx5.so.1: mlx5dv / DevX */
	OGDA_LIB_GDRAPI,   /* libgdrapi.so.2: GDRCopy */
	OGDA_LIB_COUNT,
};

/* One symbol to resolve into *slot. A missing required symbol fails the whole table. */
struct ogda_dl_sym {
	const char *name;
	void **slot;
	bool optional;
};

/* What a load attempt found, for reports such as opengda-info. */
struct ogda_runtime_lib_info {
	const char *label;   /* "CUDA driver" */
	const char *soname;  /* the name asked for, e.g. "libcuda.so.1" */
	bool disabled;       /* switched off by its environment variable */
	bool loaded;
	char path[256];      /* where the loader found it, when loaded */
	char error[256];     /* dlerror() text, when not loaded */
};

/*
 * Opens (once) and returns the handle of a runtime library.
 * DOCA_ERROR_NOT_FOUND when it is absent or disabled, DOCA_ERROR_INVALID_VALUE for a bad id.
 * The env variable OPENGDA_DISABLE_<NAME> (CUDA, IBVERBS, MLX5, GDRCOPY) set to 1 hides it.
 */
doca_error_t ogda_runtime_lib_open(enum ogda_runtime_lib lib, void **handle);

/* Fills *info with the outcome of ogda_runtime_lib_open() for that library. */
doca_error_t ogda_runtime_lib_query(enum ogda_runtime_lib lib, struct ogda_runtime_lib_info *info);

/* Opens an arbitrary library by soname with RTLD_NOW | RTLD_LOCAL. */
doca_error_t ogda_dl_open(const char *soname, void **handle);

/* Resolves every entry of syms from handle; on a missing required symbol sets every slot to NULL. */
doca_error_t ogda_dl_resolve(void *handle, const struct ogda_dl_sym *syms, size_t count);

#endif /* OGDA_CORE_DL_H_ */
