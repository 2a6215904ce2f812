/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The GPU handle without a GPU: host handles, doca_gpu_create with the driver switched off
 * (OPENGDA_DISABLE_CUDA=1), bus id parsing, destroy while in use, export counting, versions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpu_test_log.h"
#include "gpunetio/gpu_int.h"

#include <stdlib.h>
#include <unistd.h>

static struct doca_gpu *const SENTINEL_GPU = (struct doca_gpu *)(uintptr_t)0x5a5a5a5a;

static void test_create_host_info(void **state)
{
	struct opengda_gpu_info info;
	struct doca_gpu *gpu = NULL;
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);

	(void)state;
	assert_int_equal(opengda_gpu_create_host(&gpu), DOCA_SUCCESS);
	assert_non_null(gpu);
	memset(&info, 0xa5, sizeof(info));
	assert_int_equal(opengda_gpu_get_info(gpu, &info), DOCA_SUCCESS);
	assert_true(info.is_host);
	assert_int_equal(info.ordinal, -1);
	assert_string_equal(info.name, "host");
	assert_string_equal(info.pci_bus_id, "");
	assert_int_equal(info.cc_major, 0);
	assert_int_equal(info.cc_minor, 0);
	assert_false(info.dmabuf_supported);
	assert_true(info.rdma_writes_ordered);
	assert_false(info.gdrcopy);
	assert_true(pages > 0 && page > 0);
	assert_int_equal(info.total_mem, (size_t)pages * (size_t)page);
	/* What the rest of src/gpunetio reads directly. */
	assert_int_equal(gpu->ordinal, -1);
	assert_null(gpu->cu_ctx);
	assert_null(gpu->cu_stream);
	assert_null(gpu->allocs);
	assert_null(gpu->hostmaps);
	assert_int_equal(gpu->nexports, 0);
	assert_int_equal(ogda_gpu_ctx_enter(gpu), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_destroy(gpu), DOCA_SUCCESS);
}

static void test_bad_input(void **state)
{
	struct opengda_gpu_info info;
	struct doca_gpu *gpu = NULL;

	(void)state;
	EXPECT_LOGGED_ERR(opengda_gpu_create_host(NULL), DOCA_ERROR_INVALID_VALUE, "opengda_gpu_create_host");
	EXPECT_LOGGED_ERR(doca_gpu_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_gpu_destroy");
	EXPECT_LOGGED_ERR(ogda_gpu_ctx_enter(NULL), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_ctx_enter");
	assert_int_equal(opengda_gpu_create_host(&gpu), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(opengda_gpu_get_info(NULL, &info), DOCA_ERROR_INVALID_VALUE, "opengda_gpu_get_info");
	EXPECT_LOGGED_ERR(opengda_gpu_get_info(gpu, NULL), DOCA_ERROR_INVALID_VALUE, "opengda_gpu_get_info");
	assert_int_equal(doca_gpu_destroy(gpu), DOCA_SUCCESS);
}

static void test_create_bad_input(void **state)
{
	static const char *const malformed[] = {
		"",              /* empty */
		"0000:17:00",    /* no function */
		"17:00",         /* no function */
		"17.00.0",       /* wrong separators */
		"xyz",           /* not hex */
		"0000:17:00.8",  /* function > 7 */
		"0000:17:20.0",  /* device > 0x1f */
		"0000:117:00.0", /* bus of 3 digits */
		"0000:17:00.0 ", /* trailing space */
		" 0000:17:00.0", /* leading space */
		"123456789:17:00.0", /* domain of 9 digits */
		":17:00.0",      /* empty domain */
		"0000::00.0",    /* empty bus */
		"0000:17:00.0.0",
		"0000:17:00.10",
		"0x00:17:00.0",
		"0000:17:00:00.0",
	};
	struct doca_gpu *gpu = SENTINEL_GPU;
	size_t i;

	(void)state;
	EXPECT_LOGGED_ERR(doca_gpu_create(NULL, &gpu), DOCA_ERROR_INVALID_VALUE, "doca_gpu_create");
	EXPECT_LOGGED_ERR(doca_gpu_create("0000:17:00.0", NULL), DOCA_ERROR_INVALID_VALUE, "doca_gpu_create");
	for (i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		print_message("bus id \"%s\"\n", malformed[i]);
		EXPECT_LOGGED_ERR(doca_gpu_create(malformed[i], &gpu), DOCA_ERROR_INVALID_VALUE,
				  "ogda_gpu_bus_id_normalise");
		assert_ptr_equal(gpu, SENTINEL_GPU);
	}
}

/* OPENGDA_DISABLE_CUDA=1: a well-formed address finds no driver. */
static void test_create_without_driver(void **state)
{
	static const char *const ids[] = {"0000:17:00.0", "17:00.0", "0000:AB:1f.7", "0000:ab:1F.7", "10000:3b:00.0"};
	struct doca_gpu *gpu = SENTINEL_GPU;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
#ifdef OGDA_HAVE_CUDA_H
		EXPECT_LOGGED_ERR(doca_gpu_create(ids[i], &gpu), DOCA_ERROR_NOT_FOUND, "gpu_open_cuda");
#else
		EXPECT_LOGGED_ERR(doca_gpu_create(ids[i], &gpu), DOCA_ERROR_NOT_FOUND, "doca_gpu_create");
#endif
		assert_ptr_equal(gpu, SENTINEL_GPU);
	}
}

static void check_normalised(const char *in, const char *want)
{
	char out[OGDA_GPU_BUS_ID_LEN];

	memset(out, 'x', sizeof(out));
	assert_int_equal(ogda_gpu_bus_id_normalise(in, out), DOCA_SUCCESS);
	assert_string_equal(out, want);
}

static void test_bus_id_normalise(void **state)
{
	char out[OGDA_GPU_BUS_ID_LEN];

	(void)state;
	check_normalised("0000:17:00.0", "0000:17:00.0");
	check_normalised("17:00.0", "0000:17:00.0");
	check_normalised("0000:AB:1F.7", "0000:ab:1f.7");
	check_normalised("0000:aB:1f.7", "0000:ab:1f.7");
	check_normalised("1:2:3.4", "0001:02:03.4");
	check_normalised("3b:0.1", "0000:3b:00.1");
	check_normalised("10000:3B:00.0", "10000:3b:00.0");
	check_normalised("ffffffff:ff:1f.7", "ffffffff:ff:1f.7");
	EXPECT_LOGGED_ERR(ogda_gpu_bus_id_normalise(NULL, out), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_bus_id_normalise");
	EXPECT_LOGGED_ERR(ogda_gpu_bus_id_normalise("17:00.0", NULL), DOCA_ERROR_INVALID_VALUE,
			  "ogda_gpu_bus_id_normalise");
}

static void test_destroy_in_use(void **state)
{
	struct doca_gpu *gpu = NULL;
	void *gptr = NULL, *cptr = NULL, *dev = NULL;
	char *page_buf = NULL;
	long page = sysconf(_SC_PAGESIZE);

	(void)state;
	assert_int_equal(opengda_gpu_create_host(&gpu), DOCA_SUCCESS);

	/* A live allocation. */
	assert_int_equal(doca_gpu_mem_alloc(gpu, 64, 0, DOCA_GPU_MEM_TYPE_CPU_GPU, &gptr, &cptr), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_IN_USE, "doca_gpu_destroy");
	assert_int_equal(doca_gpu_mem_free(gpu, gptr), DOCA_SUCCESS);

	/* A live export. */
	ogda_gpu_export_get(gpu);
	ogda_gpu_export_get(gpu);
	assert_int_equal(gpu->nexports, 2);
	EXPECT_LOGGED_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_IN_USE, "doca_gpu_destroy");
	ogda_gpu_export_put(gpu);
	EXPECT_LOGGED_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_IN_USE, "doca_gpu_destroy");
	ogda_gpu_export_put(gpu);
	assert_int_equal(gpu->nexports, 0);

	/* A live host mapping. */
	assert_int_equal(posix_memalign((void **)&page_buf, (size_t)page, (size_t)page), 0);
	assert_int_equal(ogda_gpu_map_host(gpu, page_buf, 8, &dev), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_IN_USE, "doca_gpu_destroy");
	assert_int_equal(ogda_gpu_unmap_host(gpu, page_buf), DOCA_SUCCESS);
	free(page_buf);

	assert_int_equal(doca_gpu_destroy(gpu), DOCA_SUCCESS);
}

static void test_export_counting(void **state)
{
	struct doca_gpu *gpu = NULL;
	char log[4096];

	(void)state;
	assert_int_equal(opengda_gpu_create_host(&gpu), DOCA_SUCCESS);
	/* A release without a take is a bug in the caller: logged, and the count stays at 0. */
	stderr_capture_begin();
	ogda_gpu_export_put(gpu);
	stderr_capture_end(log, sizeof(log));
	gpu_test_check_one_err_line(log, "ogda_gpu_export_put");
	assert_int_equal(gpu->nexports, 0);
	stderr_capture_begin();
	ogda_gpu_export_get(NULL);
	stderr_capture_end(log, sizeof(log));
	gpu_test_check_one_err_line(log, "ogda_gpu_export_get");
	stderr_capture_begin();
	ogda_gpu_export_put(NULL);
	stderr_capture_end(log, sizeof(log));
	gpu_test_check_one_err_line(log, "ogda_gpu_export_put");
	assert_int_equal(doca_gpu_destroy(gpu), DOCA_SUCCESS);
}

static void test_library_version(void **state)
{
	uint32_t v = 0;

	(void)state;
	assert_int_equal(DOCA_GPUNETIO_MAKE_VERSION(2, 0, 1), 0x00020001u);
	assert_int_equal(DOCA_GPUNETIO_MAKE_VERSION(1, 2, 3), 0x00010203u);
	assert_int_equal(DOCA_GPUNETIO_MAKE_VERSION(0xff, 0xff, 0xff), 0x00ffffffu);
	assert_int_equal(doca_gpu_verbs_get_library_version(&v), DOCA_SUCCESS);
	assert_int_equal(v, 0x00020001u);
	assert_int_equal(v, DOCA_GPUNETIO_VERSION);
	EXPECT_LOGGED_ERR(doca_gpu_verbs_get_library_version(NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_verbs_get_library_version");
}

static void check_compat_boundaries(doca_error_t (*check)(uint32_t))
{
	static const uint32_t accepted[] = {
		0x00020000u, /* the minimum, 2.0.0 */
		0x00020001u, /* this library */
		0x00020100u, 0x000200ffu, 0x0002ffffu, /* newer minor or patch of the same major */
	};
	static const uint32_t refused[] = {
		0x0001ffffu, /* just below the minimum: 1.255.255 */
		0x00000000u, 0x00010000u, 0x00000200u, /* older, and the open release's "0.2.0" */
		0x00030000u, /* next major */
		0x01020000u, /* bits above the major byte make a larger major */
		0xffffffffu,
	};
	size_t i;

	for (i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		print_message("accept 0x%08x\n", accepted[i]);
		assert_int_equal(check(accepted[i]), DOCA_SUCCESS);
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		print_message("refuse 0x%08x\n", refused[i]);
		EXPECT_LOGGED_ERR(check(refused[i]), DOCA_ERROR_NOT_SUPPORTED, "check_compat");
	}
}

static void test_code_compatibility(void **state)
{
	(void)state;
	assert_int_equal(DOCA_GPUNETIO_MIN_COMPAT_DEVICE_CODE_VERSION, 0x00020000u);
	assert_int_equal(DOCA_GPUNETIO_MIN_COMPAT_HOST_CODE_VERSION, 0x00020000u);
	assert_int_equal(doca_gpu_verbs_check_device_code_compatibility(DOCA_GPUNETIO_DEVICE_CODE_VERSION),
			 DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_check_host_code_compatibility(DOCA_GPUNETIO_HOST_CODE_VERSION), DOCA_SUCCESS);
	check_compat_boundaries(doca_gpu_verbs_check_device_code_compatibility);
	check_compat_boundaries(doca_gpu_verbs_check_host_code_compatibility);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_host_info),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_create_bad_input),
		cmocka_unit_test(test_create_without_driver),
		cmocka_unit_test(test_bus_id_normalise),
		cmocka_unit_test(test_destroy_in_use),
		cmocka_unit_test(test_export_counting),
		cmocka_unit_test(test_library_version),
		cmocka_unit_test(test_code_compatibility),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
