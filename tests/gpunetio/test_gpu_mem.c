/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU memory on the host handle: exact alignment of every type, zeroing, the allocation list
 * (foreign and double frees), dmabuf refusal, copies and memset, host mappings with reference
 * counts, and GDRCopy switched off (DOCA_GPUNETIO_DISABLE_GDRCOPY=1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpu_test_log.h"
#include "gpunetio/gdrcopy.h"
#include "gpunetio/gpu_int.h"

#include <stdlib.h>
#include <unistd.h>

#define MAX_ALIGN_SHIFT 20 /* 1 MiB */
#define NTYPES 3

static void *const SENTINEL = (void *)(uintptr_t)0x5a5a5a5a;
static const enum doca_gpu_mem_type types[NTYPES] = {DOCA_GPU_MEM_TYPE_GPU, DOCA_GPU_MEM_TYPE_GPU_CPU,
						      DOCA_GPU_MEM_TYPE_CPU_GPU};

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static void check_zero(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != 0)
			fail_msg("byte %zu of %zu is 0x%02x, not 0", i, len, p[i]);
}

/*
 * Every type, every power-of-two alignment from 1 B to 1 MiB, all live at once (so no address is
 * reused): the GPU address is a multiple of the alignment, the memory is zeroed and all of it is
 * writable (ASan checks the extent), and the CPU address is the GPU address except for GPU memory.
 */
static void test_alignment_exact(void **state)
{
	struct doca_gpu *gpu = *state;
	void *gptr[NTYPES][MAX_ALIGN_SHIFT + 1];
	size_t t, s, size, align;
	void *cptr;

	for (t = 0; t < NTYPES; t++) {
		for (s = 0; s <= MAX_ALIGN_SHIFT; s++) {
			align = (size_t)1 << s;
			size = align + 3; /* never a multiple of the alignment */
			cptr = SENTINEL;
			gptr[t][s] = NULL;
			assert_int_equal(doca_gpu_mem_alloc(gpu, size, align, types[t], &gptr[t][s], &cptr),
					 DOCA_SUCCESS);
			assert_non_null(gptr[t][s]);
			if ((uintptr_t)gptr[t][s] % align != 0)
				fail_msg("type %d alignment %zu: address %p", (int)types[t], align, gptr[t][s]);
			if (types[t] == DOCA_GPU_MEM_TYPE_GPU)
				assert_null(cptr);
			else
				assert_ptr_equal(cptr, gptr[t][s]);
			check_zero(gptr[t][s], size);
			memset(gptr[t][s], 0xee, size);
		}
	}
	for (t = 0; t < NTYPES; t++)
		for (s = 0; s <= MAX_ALIGN_SHIFT; s++)
			assert_int_equal(doca_gpu_mem_free(gpu, gptr[t][s]), DOCA_SUCCESS);
	assert_null(gpu->allocs);
}

static void test_alignment_zero_is_page(void **state)
{
	struct doca_gpu *gpu = *state;
	void *g[4], *c = NULL;
	size_t i;

	for (i = 0; i < 4; i++) {
		assert_int_equal(doca_gpu_mem_alloc(gpu, 1 + i * 1000, 0, DOCA_GPU_MEM_TYPE_CPU_GPU, &g[i], &c),
				 DOCA_SUCCESS);
		assert_int_equal((uintptr_t)g[i] % page_size(), 0);
	}
	for (i = 0; i < 4; i++)
		assert_int_equal(doca_gpu_mem_free(gpu, g[i]), DOCA_SUCCESS);
}

/* The CPU address is optional for GPU memory only. */
static void test_cpu_ptr_optional_for_gpu(void **state)
{
	struct doca_gpu *gpu = *state;
	void *g = NULL;

	assert_int_equal(doca_gpu_mem_alloc(gpu, 100, 64, DOCA_GPU_MEM_TYPE_GPU, &g, NULL), DOCA_SUCCESS);
	assert_int_equal((uintptr_t)g % 64, 0);
	assert_int_equal(doca_gpu_mem_free(gpu, g), DOCA_SUCCESS);
}

static void test_alloc_bad_input(void **state)
{
	static const size_t bad_align[] = {3, 6, 48, 100, 4097, ((size_t)1 << 20) + 1};
	struct doca_gpu *gpu = *state;
	void *g = SENTINEL, *c = SENTINEL;
	size_t i;

	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(NULL, 64, 0, DOCA_GPU_MEM_TYPE_GPU, &g, &c), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_mem_alloc");
	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, 64, 0, DOCA_GPU_MEM_TYPE_GPU, NULL, &c), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_mem_alloc");
	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, 0, 0, DOCA_GPU_MEM_TYPE_GPU, &g, &c), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_mem_alloc");
	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, 64, 0, (enum doca_gpu_mem_type)3, &g, &c), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_mem_alloc");
	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, 64, 0, (enum doca_gpu_mem_type)-1, &g, &c),
			  DOCA_ERROR_INVALID_VALUE, "doca_gpu_mem_alloc");
	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, 64, 0, DOCA_GPU_MEM_TYPE_GPU_CPU, &g, NULL),
			  DOCA_ERROR_INVALID_VALUE, "doca_gpu_mem_alloc");
	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, 64, 0, DOCA_GPU_MEM_TYPE_CPU_GPU, &g, NULL),
			  DOCA_ERROR_INVALID_VALUE, "doca_gpu_mem_alloc");
	for (i = 0; i < sizeof(bad_align) / sizeof(bad_align[0]); i++)
		EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, 64, bad_align[i], DOCA_GPU_MEM_TYPE_CPU_GPU, &g, &c),
				  DOCA_ERROR_INVALID_VALUE, "doca_gpu_mem_alloc");
	/* Sizes and alignments whose roundings would overflow. */
	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, SIZE_MAX, 0, DOCA_GPU_MEM_TYPE_CPU_GPU, &g, &c),
			  DOCA_ERROR_INVALID_VALUE, "doca_gpu_mem_alloc");
	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, SIZE_MAX / 4, 1, DOCA_GPU_MEM_TYPE_GPU, &g, &c),
			  DOCA_ERROR_INVALID_VALUE, "doca_gpu_mem_alloc");
	EXPECT_LOGGED_ERR(doca_gpu_mem_alloc(gpu, 64, (size_t)1 << (sizeof(size_t) * 8 - 1), DOCA_GPU_MEM_TYPE_GPU, &g,
					     &c),
			  DOCA_ERROR_INVALID_VALUE, "doca_gpu_mem_alloc");
	/* Nothing was written or recorded. */
	assert_ptr_equal(g, SENTINEL);
	assert_ptr_equal(c, SENTINEL);
	assert_null(gpu->allocs);
}

static void test_mem_free(void **state)
{
	struct doca_gpu *gpu = *state;
	struct doca_gpu *other = NULL;
	void *g[3], *c = NULL, *og = NULL;
	int on_stack = 0;
	void *heap = malloc(16);
	size_t i;

	assert_non_null(heap);
	for (i = 0; i < 3; i++)
		assert_int_equal(doca_gpu_mem_alloc(gpu, 256, 256, DOCA_GPU_MEM_TYPE_GPU_CPU, &g[i], &c), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_mem_free(NULL, g[0]), DOCA_ERROR_INVALID_VALUE, "doca_gpu_mem_free");
	EXPECT_LOGGED_ERR(doca_gpu_mem_free(gpu, NULL), DOCA_ERROR_INVALID_VALUE, "doca_gpu_mem_free");
	EXPECT_LOGGED_ERR(doca_gpu_mem_free(gpu, &on_stack), DOCA_ERROR_NOT_FOUND, "doca_gpu_mem_free");
	EXPECT_LOGGED_ERR(doca_gpu_mem_free(gpu, heap), DOCA_ERROR_NOT_FOUND, "doca_gpu_mem_free");
	/* Only the address the allocation returned frees it. */
	EXPECT_LOGGED_ERR(doca_gpu_mem_free(gpu, (char *)g[1] + 1), DOCA_ERROR_NOT_FOUND, "doca_gpu_mem_free");
	/* Another handle's memory is foreign too. */
	assert_int_equal(opengda_gpu_create_host(&other), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_mem_alloc(other, 64, 0, DOCA_GPU_MEM_TYPE_GPU, &og, NULL), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_mem_free(gpu, og), DOCA_ERROR_NOT_FOUND, "doca_gpu_mem_free");
	assert_int_equal(doca_gpu_mem_free(other, og), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_destroy(other), DOCA_SUCCESS);
	/* Middle, last, first: each unlinks exactly itself. */
	assert_int_equal(doca_gpu_mem_free(gpu, g[1]), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_mem_free(gpu, g[1]), DOCA_ERROR_NOT_FOUND, "doca_gpu_mem_free");
	assert_int_equal(doca_gpu_mem_free(gpu, g[2]), DOCA_SUCCESS);
	assert_non_null(gpu->allocs);
	assert_int_equal(doca_gpu_mem_free(gpu, g[0]), DOCA_SUCCESS);
	assert_null(gpu->allocs);
	EXPECT_LOGGED_ERR(doca_gpu_mem_free(gpu, g[0]), DOCA_ERROR_NOT_FOUND, "doca_gpu_mem_free");
	free(heap);
}

static void test_dmabuf(void **state)
{
	struct doca_gpu *gpu = *state;
	void *g = NULL;
	int fd = -7;

	assert_int_equal(doca_gpu_mem_alloc(gpu, 65536, 65536, DOCA_GPU_MEM_TYPE_GPU, &g, NULL), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_dmabuf_fd(gpu, g, 65536, &fd), DOCA_ERROR_NOT_SUPPORTED, "doca_gpu_dmabuf_fd");
	EXPECT_LOGGED_ERR(doca_gpu_dmabuf_fd(NULL, g, 65536, &fd), DOCA_ERROR_INVALID_VALUE, "doca_gpu_dmabuf_fd");
	EXPECT_LOGGED_ERR(doca_gpu_dmabuf_fd(gpu, NULL, 65536, &fd), DOCA_ERROR_INVALID_VALUE, "doca_gpu_dmabuf_fd");
	EXPECT_LOGGED_ERR(doca_gpu_dmabuf_fd(gpu, g, 0, &fd), DOCA_ERROR_INVALID_VALUE, "doca_gpu_dmabuf_fd");
	EXPECT_LOGGED_ERR(doca_gpu_dmabuf_fd(gpu, g, 65536, NULL), DOCA_ERROR_INVALID_VALUE, "doca_gpu_dmabuf_fd");
	assert_int_equal(fd, -7);
	assert_int_equal(doca_gpu_mem_free(gpu, g), DOCA_SUCCESS);
}

static void test_copy_memset(void **state)
{
	struct doca_gpu *gpu = *state;
	uint8_t src[100], back[100];
	uint8_t *g = NULL;
	void *c = NULL;
	size_t i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 1);
	assert_int_equal(doca_gpu_mem_alloc(gpu, 128, 0, DOCA_GPU_MEM_TYPE_GPU, (void **)&g, &c), DOCA_SUCCESS);
	assert_int_equal(ogda_gpu_memset_dev(gpu, g, 0xab, 128), DOCA_SUCCESS);
	for (i = 0; i < 128; i++)
		assert_int_equal(g[i], 0xab);
	assert_int_equal(ogda_gpu_copy_to_dev(gpu, g + 10, src, sizeof(src)), DOCA_SUCCESS);
	assert_memory_equal(g + 10, src, sizeof(src));
	assert_int_equal(g[9], 0xab);
	assert_int_equal(g[110], 0xab);
	memset(back, 0, sizeof(back));
	assert_int_equal(ogda_gpu_copy_from_dev(gpu, back, g + 10, sizeof(back)), DOCA_SUCCESS);
	assert_memory_equal(back, src, sizeof(src));
	assert_int_equal(ogda_gpu_memset_dev(gpu, g + 20, 0x00, 5), DOCA_SUCCESS);
	assert_int_equal(g[19], src[9]);
	assert_int_equal(g[20], 0);
	assert_int_equal(g[24], 0);
	assert_int_equal(g[25], src[15]);
	/* Zero bytes: nothing happens. */
	assert_int_equal(ogda_gpu_memset_dev(gpu, g, 0x11, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_gpu_copy_to_dev(gpu, g, src + 50, 0), DOCA_SUCCESS);
	assert_int_equal(g[0], 0xab);

	EXPECT_LOGGED_ERR(ogda_gpu_copy_to_dev(NULL, g, src, 1), DOCA_ERROR_INVALID_VALUE, "copy_any");
	EXPECT_LOGGED_ERR(ogda_gpu_copy_to_dev(gpu, NULL, src, 1), DOCA_ERROR_INVALID_VALUE, "copy_any");
	EXPECT_LOGGED_ERR(ogda_gpu_copy_to_dev(gpu, g, NULL, 1), DOCA_ERROR_INVALID_VALUE, "copy_any");
	EXPECT_LOGGED_ERR(ogda_gpu_copy_from_dev(NULL, back, g, 1), DOCA_ERROR_INVALID_VALUE, "copy_any");
	EXPECT_LOGGED_ERR(ogda_gpu_copy_from_dev(gpu, NULL, g, 1), DOCA_ERROR_INVALID_VALUE, "copy_any");
	EXPECT_LOGGED_ERR(ogda_gpu_copy_from_dev(gpu, back, NULL, 1), DOCA_ERROR_INVALID_VALUE, "copy_any");
	EXPECT_LOGGED_ERR(ogda_gpu_memset_dev(NULL, g, 0, 1), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_memset_dev");
	EXPECT_LOGGED_ERR(ogda_gpu_memset_dev(gpu, NULL, 0, 1), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_memset_dev");

	/* A host handle has no device memory. */
	assert_false(ogda_gpu_is_device_ptr(gpu, g));
	assert_false(ogda_gpu_is_device_ptr(NULL, g));
	assert_false(ogda_gpu_is_device_ptr(gpu, NULL));
	assert_int_equal(doca_gpu_mem_free(gpu, g), DOCA_SUCCESS);
}

/* Unmaps @addr until the mapping is gone; returns how many references it held. */
static unsigned int unmap_all(struct doca_gpu *gpu, void *addr)
{
	unsigned int n = 0;

	while (n < 100) {
		char log[4096];
		doca_error_t err;

		stderr_capture_begin();
		err = ogda_gpu_unmap_host(gpu, addr);
		stderr_capture_end(log, sizeof(log));
		if (err == DOCA_ERROR_NOT_FOUND) {
			gpu_test_check_one_err_line(log, "ogda_gpu_unmap_host");
			break;
		}
		assert_int_equal(err, DOCA_SUCCESS);
		n++;
	}
	return n;
}

static void test_map_host_refcounts(void **state)
{
	struct doca_gpu *gpu = *state;
	size_t pg = page_size();
	char *buf = NULL;
	void *dev = NULL;

	assert_int_equal(posix_memalign((void **)&buf, pg, 4 * pg), 0);

	/* A range inside a mapped one reuses it: same pages, one more reference. */
	assert_int_equal(ogda_gpu_map_host(gpu, buf + 100, 10, &dev), DOCA_SUCCESS);
	assert_ptr_equal(dev, buf + 100);
	assert_int_equal(ogda_gpu_map_host(gpu, buf + pg - 8, 8, &dev), DOCA_SUCCESS);
	assert_ptr_equal(dev, buf + pg - 8);
	assert_int_equal(ogda_gpu_map_host(gpu, buf, pg, &dev), DOCA_SUCCESS);
	assert_ptr_equal(dev, buf);
	assert_non_null(gpu->hostmaps);

	/* Overlapping without lying inside: refused. */
	EXPECT_LOGGED_ERR(ogda_gpu_map_host(gpu, buf + pg - 8, 16, &dev), DOCA_ERROR_NOT_SUPPORTED,
			  "ogda_gpu_map_host");
	EXPECT_LOGGED_ERR(ogda_gpu_map_host(gpu, buf, 2 * pg, &dev), DOCA_ERROR_NOT_SUPPORTED, "ogda_gpu_map_host");

	/* The next pages are a range of their own; a request in either page finds its range. */
	assert_int_equal(ogda_gpu_map_host(gpu, buf + pg, 2 * pg, &dev), DOCA_SUCCESS);
	assert_ptr_equal(dev, buf + pg);
	assert_int_equal(ogda_gpu_map_host(gpu, buf + 2 * pg + 5, 1, &dev), DOCA_SUCCESS);
	assert_ptr_equal(dev, buf + 2 * pg + 5);
	/* Any address inside a range drops one of its references: 3 on the first, 2 on the second. */
	assert_int_equal(unmap_all(gpu, buf + 3), 3);
	assert_int_equal(unmap_all(gpu, buf + 3 * pg - 1), 2);
	assert_null(gpu->hostmaps);
	EXPECT_LOGGED_ERR(ogda_gpu_unmap_host(gpu, buf + 3 * pg), DOCA_ERROR_NOT_FOUND, "ogda_gpu_unmap_host");

	/* After the last reference the pages can be mapped afresh. */
	assert_int_equal(ogda_gpu_map_host(gpu, buf, 4 * pg, &dev), DOCA_SUCCESS);
	assert_int_equal(unmap_all(gpu, buf + 4 * pg - 1), 1);
	free(buf);
}

static void test_map_host_bad_input(void **state)
{
	struct doca_gpu *gpu = *state;
	char buf[16];
	void *dev = SENTINEL;

	EXPECT_LOGGED_ERR(ogda_gpu_map_host(NULL, buf, 8, &dev), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_map_host");
	EXPECT_LOGGED_ERR(ogda_gpu_map_host(gpu, NULL, 8, &dev), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_map_host");
	EXPECT_LOGGED_ERR(ogda_gpu_map_host(gpu, buf, 0, &dev), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_map_host");
	EXPECT_LOGGED_ERR(ogda_gpu_map_host(gpu, buf, 8, NULL), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_map_host");
	EXPECT_LOGGED_ERR(ogda_gpu_map_host(gpu, (void *)(UINTPTR_MAX - 10), 5, &dev), DOCA_ERROR_INVALID_VALUE,
			  "ogda_gpu_map_host");
	EXPECT_LOGGED_ERR(ogda_gpu_map_host(gpu, buf, SIZE_MAX, &dev), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_map_host");
	assert_ptr_equal(dev, SENTINEL);
	assert_null(gpu->hostmaps);
	EXPECT_LOGGED_ERR(ogda_gpu_unmap_host(NULL, buf), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_unmap_host");
	EXPECT_LOGGED_ERR(ogda_gpu_unmap_host(gpu, NULL), DOCA_ERROR_INVALID_VALUE, "ogda_gpu_unmap_host");
	EXPECT_LOGGED_ERR(ogda_gpu_unmap_host(gpu, buf), DOCA_ERROR_NOT_FOUND, "ogda_gpu_unmap_host");
}

/* DOCA_GPUNETIO_DISABLE_GDRCOPY=1 is set for this test program. */
static void test_gdrcopy_disabled(void **state)
{
	struct ogda_gdr_mapping m;

	(void)state;
	memset(&m, 0, sizeof(m));
	assert_false(ogda_gdrcopy_available());
	EXPECT_LOGGED_ERR(ogda_gdrcopy_map(0x10000, 0x10000, &m), DOCA_ERROR_NOT_SUPPORTED, "ogda_gdrcopy_map");
	assert_null(m.map);
	EXPECT_LOGGED_ERR(ogda_gdrcopy_map(0x10000, 0x10000, NULL), DOCA_ERROR_INVALID_VALUE, "ogda_gdrcopy_map");
	EXPECT_LOGGED_ERR(ogda_gdrcopy_map(0, 0x10000, &m), DOCA_ERROR_INVALID_VALUE, "ogda_gdrcopy_map");
	EXPECT_LOGGED_ERR(ogda_gdrcopy_map(0x10000, 0, &m), DOCA_ERROR_INVALID_VALUE, "ogda_gdrcopy_map");
	EXPECT_LOGGED_ERR(ogda_gdrcopy_map(0x10000 + 4096, 0x10000, &m), DOCA_ERROR_INVALID_VALUE, "ogda_gdrcopy_map");
	EXPECT_LOGGED_ERR(ogda_gdrcopy_map(0x10000, 0x10000 + 4096, &m), DOCA_ERROR_INVALID_VALUE, "ogda_gdrcopy_map");
	EXPECT_LOGGED_ERR(ogda_gdrcopy_unmap(NULL), DOCA_ERROR_INVALID_VALUE, "ogda_gdrcopy_unmap");
	EXPECT_LOGGED_ERR(ogda_gdrcopy_unmap(&m), DOCA_ERROR_INVALID_VALUE, "ogda_gdrcopy_unmap");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_alignment_exact, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_alignment_zero_is_page, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_cpu_ptr_optional_for_gpu, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_alloc_bad_input, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_mem_free, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_dmabuf, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_copy_memset, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_map_host_refcounts, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_map_host_bad_input, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test(test_gdrcopy_disabled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
