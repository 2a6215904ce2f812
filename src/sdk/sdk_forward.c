/* SPDX-License-Identifier: BSD-3-Clause */
#include "sdk/sdk_forward.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <dlfcn.h>

#include "core/dl.h"
#include "core/log.h"

/*
 * The SDK libraries, in load order: libdoca_common first, because the others need it
 * and the loader then finds it already loaded (by soname) instead of searching for it.
 */
enum sdk_lib { SDK_COMMON, SDK_VERBS, SDK_GPUNETIO, SDK_ETH, SDK_LIB_COUNT };

static const char *const sdk_lib_names[SDK_LIB_COUNT] = {
	[SDK_COMMON] = "libdoca_common.so",
	[SDK_VERBS] = "libdoca_verbs.so",
	[SDK_GPUNETIO] = "libdoca_gpunetio.so",
	[SDK_ETH] = "libdoca_eth.so",
};

struct sdk_fn_entry {
	enum sdk_lib lib;
	const char *name;
	const char *label; /* constructors only */
};

static const struct sdk_fn_entry sdk_fns[OGDA_SDK_FN_COUNT] = {
#define OGDA_SDK_FN(lib, name, label) [OGDA_SDK_FN_##name] = {SDK_##lib, #name, label},
#include "sdk/sdk_forward_table.h"
#undef OGDA_SDK_FN
};

/* Written once under sdk_once, read-only afterwards. */
static pthread_once_t sdk_once = PTHREAD_ONCE_INIT;
static const char *sdk_path;          /* DOCA_SDK_LIB_PATH, NULL when unset or empty */
static bool sdk_active;               /* every library and symbol found */
static void *sdk_handles[SDK_LIB_COUNT];
static void *sdk_slots[OGDA_SDK_FN_COUNT];

static bool sdk_open_libs(void)
{
	char file[4096];
	int i;

	for (i = 0; i < SDK_LIB_COUNT; i++) {
		int n = snprintf(file, sizeof(file), "%s/%s", sdk_path, sdk_lib_names[i]);

		if (n < 0 || (size_t)n >= sizeof(file) || ogda_dl_open(file, &sdk_handles[i]) != DOCA_SUCCESS) {
			OGDA_LOG_ERR("Failed to find %s library %s (%s=%s)", sdk_lib_names[i], file, OGDA_SDK_ENV,
				     sdk_path);
			return false;
		}
	}
	return true;
}

static bool sdk_resolve(void)
{
	int i;

	for (i = 0; i < OGDA_SDK_FN_COUNT; i++) {
		const struct sdk_fn_entry *e = &sdk_fns[i];

		sdk_slots[i] = dlsym(sdk_handles[e->lib], e->name);
		if (sdk_slots[i] == NULL) {
			OGDA_LOG_ERR("Failed to find symbol %s in %s/%s (%s=%s)", e->name, sdk_path,
				     sdk_lib_names[e->lib], OGDA_SDK_ENV, sdk_path);
			return false;
		}
	}
	return true;
}

static void sdk_init(void)
{
	const char *path = getenv(OGDA_SDK_ENV);
	int i;

	if (path == NULL || path[0] == '\0')
		return;
	sdk_path = path;
	if (sdk_open_libs() && sdk_resolve()) {
		sdk_active = true;
		return;
	}
	/* All or nothing: a half-forwarded API would hand SDK objects to our code. */
	for (i = 0; i < OGDA_SDK_FN_COUNT; i++)
		sdk_slots[i] = NULL;
	for (i = 0; i < SDK_LIB_COUNT; i++) {
		if (sdk_handles[i] != NULL)
			dlclose(sdk_handles[i]);
		sdk_handles[i] = NULL;
	}
}

int ogda_sdk_in_use(void)
{
	pthread_once(&sdk_once, sdk_init);
	return sdk_active;
}

void *ogda_sdk_fn(enum ogda_sdk_fn fn, const char *file, int line, const char *func)
{
	const char *label;

	pthread_once(&sdk_once, sdk_init);
	if ((unsigned int)fn >= OGDA_SDK_FN_COUNT) {
		OGDA_LOG_ERR("forwarded function index %d is out of range", (int)fn);
		return NULL;
	}
	label = sdk_fns[fn].label;
	if (label != NULL && sdk_path != NULL) {
		if (sdk_active)
			OGDA_LOG_WARN("Env var %s set to %s. DOCA SDK is in use", OGDA_SDK_ENV, sdk_path);
		else
			OGDA_LOG_WARN("Env var %s set to %s, but DOCA SDK libraries not found. DOCA SDK is not in use",
				      OGDA_SDK_ENV, sdk_path);
		if (OGDA_LOG_INFO <= ogda_log_level())
			ogda_log_write(OGDA_LOG_INFO, file, line, func, "Use DOCA %s %s", label,
				       sdk_active ? "SDK" : "open");
	}
	return sdk_slots[fn];
}
