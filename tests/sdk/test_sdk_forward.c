/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA_SDK_LIB_PATH forwarding (src/sdk): one program, run by CTest once per case with the
 * environment of that case (tests/sdk/CMakeLists.txt). SDK_TEST_CASE says which:
 *   sdk    the path holds the stand-in SDK: calls reach it, the log says "DOCA SDK is in use"
 *   nodir  the directory does not exist: "Failed to find libdoca_common.so library ..."
 *   nolib  only libdoca_common.so is there: the error names libdoca_verbs.so
 *   nosym  the stand-in lacks doca_verbs_cq_create: the error names the symbol
 *   unset  no DOCA_SDK_LIB_PATH: nothing is logged about the SDK
 * In every case but sdk our implementation answers (a real CQ attribute object).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "doca_gpunetio.h"
#include "doca_verbs.h"
#include "sdk/sdk_forward.h"
#include "sdk_standin.h"
#include "test_util.h"

static const char *test_case(void)
{
	const char *c = getenv("SDK_TEST_CASE");

	return c != NULL ? c : "unset";
}

/* Creates a CQ attribute object with the log captured at INFO; returns the log. */
static const char *create_cq_attr(struct doca_verbs_cq_attr **attr, char *log, size_t cap)
{
	ogda_log_set_level(OGDA_LOG_INFO);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_attr_create(attr), DOCA_SUCCESS);
	return stderr_capture_end(log, cap);
}

static void test_forwarded_to_sdk(void **state)
{
	const char *path = getenv(OGDA_SDK_ENV);
	struct doca_verbs_cq_attr *attr = NULL;
	struct doca_gpu *gpu = NULL;
	char lib[4096], expect[4352], log[8192];
	standin_calls_fn calls;
	void *common;

	(void)state;
	assert_non_null(path);
	create_cq_attr(&attr, log, sizeof(log));
	/* The stand-in's object came back, and the log says so in the open release's words. */
	assert_ptr_equal(attr, (void *)STANDIN_CQ_ATTR);
	snprintf(expect, sizeof(expect), "[WARN] src/sdk/sdk_forward.c");
	assert_non_null(strstr(log, expect));
	snprintf(expect, sizeof(expect), "Env var DOCA_SDK_LIB_PATH set to %s. DOCA SDK is in use", path);
	assert_non_null(strstr(log, expect));
	assert_non_null(strstr(log, "[INFO] src/verbs/"));
	assert_non_null(strstr(log, "doca_verbs_cq_attr_create(): Use DOCA Verbs CQ Attr SDK"));
	assert_null(strstr(log, "[ERR]"));
	assert_true(ogda_sdk_in_use());

	/* Calls on the SDK's object go to the SDK (ours would dereference the marker). */
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(attr, 64), STANDIN_ANSWER);
	assert_int_equal(doca_verbs_cq_attr_destroy(attr), STANDIN_ANSWER);
	assert_int_equal(doca_gpu_create("81:00.0", &gpu), DOCA_SUCCESS);
	assert_ptr_equal(gpu, (void *)STANDIN_GPU);
	assert_int_equal(doca_gpu_destroy(gpu), STANDIN_ANSWER);

	/* The stand-in counted each call once (already loaded: dlopen returns the same copy). */
	snprintf(lib, sizeof(lib), "%s/libdoca_common.so", path);
	common = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(common);
	*(void **)&calls = dlsym(common, "standin_calls");
	assert_non_null(calls);
	assert_int_equal(calls("doca_verbs_cq_attr_create"), 1);
	assert_int_equal(calls("doca_verbs_cq_attr_set_cq_size"), 1);
	assert_int_equal(calls("doca_verbs_cq_attr_destroy"), 1);
	assert_int_equal(calls("doca_gpu_create"), 1);
	assert_int_equal(calls("doca_gpu_destroy"), 1);
	dlclose(common);
}

static void test_falls_back_to_open(void **state)
{
	const char *path = getenv(OGDA_SDK_ENV);
	const char *c = test_case();
	struct doca_verbs_cq_attr *attr = NULL;
	char expect[4352], log[8192];

	(void)state;
	create_cq_attr(&attr, log, sizeof(log));
	assert_non_null(attr);
	assert_ptr_not_equal(attr, (void *)STANDIN_CQ_ATTR);
	assert_false(ogda_sdk_in_use());
	/* Our implementation answers: a real object that takes a size and is destroyed. */
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(attr, 64), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(attr), DOCA_SUCCESS);

	if (strcmp(c, "unset") == 0) {
		assert_true(path == NULL || path[0] == '\0');
		assert_null(strstr(log, "SDK"));
		assert_null(strstr(log, "Use DOCA"));
		return;
	}
	assert_non_null(path);
	if (strcmp(c, "nodir") == 0 || strcmp(c, "nolib") == 0) {
		const char *lib = strcmp(c, "nodir") == 0 ? "libdoca_common.so" : "libdoca_verbs.so";

		snprintf(expect, sizeof(expect), "[ERR] src/sdk/sdk_forward.c");
		assert_non_null(strstr(log, expect));
		snprintf(expect, sizeof(expect), "Failed to find %s library %s/%s (DOCA_SDK_LIB_PATH=%s)", lib, path,
			 lib, path);
	} else {
		snprintf(expect, sizeof(expect),
			 "Failed to find symbol doca_verbs_cq_create in %s/libdoca_verbs.so (DOCA_SDK_LIB_PATH=%s)", path,
			 path);
	}
	assert_non_null(strstr(log, expect));
	snprintf(expect, sizeof(expect),
		 "Env var DOCA_SDK_LIB_PATH set to %s, but DOCA SDK libraries not found. DOCA SDK is not in use", path);
	assert_non_null(strstr(log, expect));
	assert_non_null(strstr(log, "doca_verbs_cq_attr_create(): Use DOCA Verbs CQ Attr open"));

	/* The libraries are looked for once: a second constructor logs no new error. */
	ogda_log_set_level(OGDA_LOG_INFO);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_attr_create(&attr), DOCA_SUCCESS);
	stderr_capture_end(log, sizeof(log));
	assert_null(strstr(log, "Failed to find"));
	assert_int_equal(doca_verbs_cq_attr_destroy(attr), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest sdk[] = {cmocka_unit_test(test_forwarded_to_sdk)};
	const struct CMUnitTest open[] = {cmocka_unit_test(test_falls_back_to_open)};

	if (strcmp(test_case(), "sdk") == 0)
		return cmocka_run_group_tests(sdk, NULL, NULL);
	return cmocka_run_group_tests(open, NULL, NULL);
}
