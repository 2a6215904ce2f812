/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The GPU handle on a real GPU through the CUDA driver: create, memory of every type, copies,
 * dmabuf export, host mappings (ours and someone else's) and doorbell export of a host page.
 * Every test skips where no CUDA driver or GPU is present, so it is harmless in CPU runs; it
 * carries the gpu label for runs on a GPU machine (ctest -L gpu).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpu_test_log.h"
#include "gpunetio/gpu_int.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef OGDA_HAVE_CUDA_H
#include "core/cuda_drv.h"

static char bus_id[OGDA_GPU_BUS_ID_LEN];

/* Opens the GPU of ordinal 0, or skips the test. */
static int setup(void **state)
{
	const struct ogda_cuda_drv *drv = NULL;
	char raw[OGDA_GPU_BUS_ID_LEN];
	struct doca_gpu *gpu = NULL;
	CUdevice dev;

	*state = NULL;
	if (ogda_cuda_drv_get(&drv) != DOCA_SUCCESS || drv->device_get(&dev, 0) != CUDA_SUCCESS ||
	    drv->device_get_pci_bus_id(raw, (int)sizeof(raw), dev) != CUDA_SUCCESS)
		return 0;
	if (ogda_gpu_bus_id_normalise(raw, bus_id) != DOCA_SUCCESS || doca_gpu_create(raw, &gpu) != DOCA_SUCCESS)
		return -1;
	*state = gpu;
	return 0;
}

static int teardown(void **state)
{
	if (*state == NULL)
		return 0;
	return doca_gpu_destroy(*state) == DOCA_SUCCESS ? 0 : -1;
}

#define GPU_OR_SKIP(state)                                                                         \
	struct doca_gpu *gpu = *(state);                                                           \
	do {                                                                                       \
		if (gpu == NULL) {                                                                 \
			print_message("no CUDA driver or GPU: skipped\n");                        \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

static void test_create_info(void **state)
{
	GPU_OR_SKIP(state);
	struct opengda_gpu_info info;
	struct doca_gpu *again = NULL;
	char short_id[OGDA_GPU_BUS_ID_LEN];
	size_t i;

	assert_int_equal(opengda_gpu_get_info(gpu, &info), DOCA_SUCCESS);
	print_message("%s %s sm_%d%d mem %zu dmabuf %d ordered %d gdrcopy %d\n", info.pci_bus_id, info.name,
		      info.cc_major, info.cc_minor, info.total_mem, info.dmabuf_supported, info.rdma_writes_ordered,
		      info.gdrcopy);
	assert_false(info.is_host);
	assert_int_equal(info.ordinal, 0);
	assert_string_equal(info.pci_bus_id, bus_id);
	assert_true(info.cc_major >= 7);
	assert_true(info.total_mem > 0);
	assert_true(strlen(info.name) > 0);
	assert_non_null(gpu->cu_ctx);
	assert_non_null(gpu->cu_stream);
	assert_int_equal(ogda_gpu_ctx_enter(gpu), DOCA_SUCCESS);

	/* The same GPU by its address without the domain and in upper case. */
	snprintf(short_id, sizeof(short_id), "%s", bus_id + 5);
	for (i = 0; short_id[i] != '\0'; i++)
		short_id[i] = (char)toupper((unsigned char)short_id[i]);
	assert_int_equal(doca_gpu_create(short_id, &again), DOCA_SUCCESS);
	assert_int_equal(again->cu_device, gpu->cu_device);
	assert_string_equal(again->info.pci_bus_id, bus_id);
	assert_int_equal(doca_gpu_destroy(again), DOCA_SUCCESS);

	EXPECT_LOGGED_ERR(doca_gpu_create("ffff:ff:1f.7", &again), DOCA_ERROR_NOT_FOUND, "gpu_open_cuda");
}

static void check_roundtrip(struct doca_gpu *gpu, void *dev, size_t len)
{
	uint8_t *pattern = malloc(len), *back = malloc(len);
	size_t i;

	assert_non_null(pattern);
	assert_non_null(back);
	/* Fresh memory reads as zero. */
	memset(back, 0xff, len);
	assert_int_equal(ogda_gpu_copy_from_dev(gpu, back, dev, len), DOCA_SUCCESS);
	for (i = 0; i < len; i++)
		if (back[i] != 0)
			fail_msg("byte %zu of fresh memory is 0x%02x", i, back[i]);
	for (i = 0; i < len; i++)
		pattern[i] = (uint8_t)(i * 13 + 5);
	assert_int_equal(ogda_gpu_copy_to_dev(gpu, dev, pattern, len), DOCA_SUCCESS);
	memset(back, 0, len);
	assert_int_equal(ogda_gpu_copy_from_dev(gpu, back, dev, len), DOCA_SUCCESS);
	assert_memory_equal(back, pattern, len);
	assert_int_equal(ogda_gpu_memset_dev(gpu, (uint8_t *)dev + 1, 0x3c, len - 2), DOCA_SUCCESS);
	assert_int_equal(ogda_gpu_copy_from_dev(gpu, back, dev, len), DOCA_SUCCESS);
	assert_int_equal(back[0], pattern[0]);
	assert_int_equal(back[1], 0x3c);
	assert_int_equal(back[len - 2], 0x3c);
	assert_int_equal(back[len - 1], pattern[len - 1]);
	free(pattern);
	free(back);
}

static void test_mem_types(void **state)
{
	GPU_OR_SKIP(state);
	static const size_t aligns[] = {1, 8, 256, 4096, 65536, 1 << 20};
	static const enum doca_gpu_mem_type types[] = {DOCA_GPU_MEM_TYPE_GPU, DOCA_GPU_MEM_TYPE_GPU_CPU,
						       DOCA_GPU_MEM_TYPE_CPU_GPU};
	size_t t, a, size;
	void *g, *c;

	for (t = 0; t < 3; t++) {
		for (a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++) {
			size = aligns[a] + 77;
			g = NULL;
			c = (void *)1;
			assert_int_equal(doca_gpu_mem_alloc(gpu, size, aligns[a], types[t], &g, &c), DOCA_SUCCESS);
			if ((uintptr_t)g % aligns[a] != 0)
				fail_msg("type %d alignment %zu: GPU address %p", (int)types[t], aligns[a], g);
			if (types[t] == DOCA_GPU_MEM_TYPE_GPU) {
				assert_null(c);
				assert_true(ogda_gpu_is_device_ptr(gpu, g));
			} else {
				assert_non_null(c);
				assert_int_equal((uintptr_t)c % aligns[a], 0);
			}
			if (types[t] == DOCA_GPU_MEM_TYPE_CPU_GPU)
				assert_false(ogda_gpu_is_device_ptr(gpu, g));
			check_roundtrip(gpu, g, size);
			/* Where there is a CPU address, it sees what the GPU address holds. */
			if (c != NULL) {
				assert_int_equal(((uint8_t *)c)[1], 0x3c);
				((uint8_t *)c)[2] = 0x99;
				__sync_synchronize(); /* drain write-combining before the GPU reads */
				{
					uint8_t b = 0;

					assert_int_equal(ogda_gpu_copy_from_dev(gpu, &b, (uint8_t *)g + 2, 1),
							 DOCA_SUCCESS);
					assert_int_equal(b, 0x99);
				}
			}
			if (a == 0)
				EXPECT_LOGGED_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_IN_USE, "doca_gpu_destroy");
			assert_int_equal(doca_gpu_mem_free(gpu, g), DOCA_SUCCESS);
		}
	}
	assert_null(gpu->allocs);
}

static void test_dmabuf(void **state)
{
	GPU_OR_SKIP(state);
	const size_t len = 2u << 20;
	void *g = NULL, *h = NULL, *hc = NULL;
	int fd = -1;

	assert_int_equal(doca_gpu_mem_alloc(gpu, len, 0, DOCA_GPU_MEM_TYPE_GPU, &g, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_mem_alloc(gpu, 4096, 0, DOCA_GPU_MEM_TYPE_CPU_GPU, &h, &hc), DOCA_SUCCESS);
	if (!gpu->info.dmabuf_supported) {
		EXPECT_LOGGED_ERR(doca_gpu_dmabuf_fd(gpu, g, len, &fd), DOCA_ERROR_NOT_SUPPORTED, "doca_gpu_dmabuf_fd");
	} else {
		assert_int_equal(doca_gpu_dmabuf_fd(gpu, g, len, &fd), DOCA_SUCCESS);
		assert_true(fd >= 0);
		close(fd);
		/* A size that is not a page multiple is rounded up inside the allocation. */
		fd = -1;
		assert_int_equal(doca_gpu_dmabuf_fd(gpu, (uint8_t *)g + 4096, 100, &fd), DOCA_SUCCESS);
		assert_true(fd >= 0);
		close(fd);
		EXPECT_LOGGED_ERR(doca_gpu_dmabuf_fd(gpu, (uint8_t *)g + 8, 4096, &fd), DOCA_ERROR_INVALID_VALUE,
				  "doca_gpu_dmabuf_fd");
		EXPECT_LOGGED_ERR(doca_gpu_dmabuf_fd(gpu, g, len + 4096, &fd), DOCA_ERROR_INVALID_VALUE,
				  "doca_gpu_dmabuf_fd");
		EXPECT_LOGGED_ERR(doca_gpu_dmabuf_fd(gpu, h, 4096, &fd), DOCA_ERROR_INVALID_VALUE, "doca_gpu_dmabuf_fd");
	}
	assert_int_equal(doca_gpu_mem_free(gpu, h), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_mem_free(gpu, g), DOCA_SUCCESS);
}

static void test_map_host(void **state)
{
	GPU_OR_SKIP(state);
	size_t pg = ogda_gpu_host_page_size();
	uint8_t *buf = NULL, b = 0;
	void *dev = NULL, *dev2 = NULL, *g = NULL, *c = NULL;
	size_t i;

	assert_int_equal(posix_memalign((void **)&buf, pg, 3 * pg), 0);
	for (i = 0; i < 3 * pg; i++)
		buf[i] = (uint8_t)i;
	assert_int_equal(ogda_gpu_map_host(gpu, buf + 10, 2 * pg, &dev), DOCA_SUCCESS);
	assert_int_equal(ogda_gpu_copy_from_dev(gpu, &b, (uint8_t *)dev + 5, 1), DOCA_SUCCESS);
	assert_int_equal(b, (uint8_t)15);
	assert_int_equal(ogda_gpu_map_host(gpu, buf + pg, 8, &dev2), DOCA_SUCCESS);
	assert_ptr_equal(dev2, (uint8_t *)dev + (pg - 10));
	assert_int_equal(ogda_gpu_unmap_host(gpu, buf + pg), DOCA_SUCCESS);
	assert_int_equal(ogda_gpu_unmap_host(gpu, buf + 10), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(ogda_gpu_unmap_host(gpu, buf + 10), DOCA_ERROR_NOT_FOUND, "ogda_gpu_unmap_host");
	/* Unregistered: the pages can be mapped again. */
	assert_int_equal(ogda_gpu_map_host(gpu, buf, 3 * pg, &dev), DOCA_SUCCESS);
	assert_int_equal(ogda_gpu_unmap_host(gpu, buf), DOCA_SUCCESS);
	free(buf);

	/* Memory someone else registered (here: CPU_GPU memory) is used, and left registered. */
	assert_int_equal(doca_gpu_mem_alloc(gpu, 2 * pg, 0, DOCA_GPU_MEM_TYPE_CPU_GPU, &g, &c), DOCA_SUCCESS);
	((uint8_t *)c)[pg + 3] = 0x77;
	assert_int_equal(ogda_gpu_map_host(gpu, (uint8_t *)c + pg + 3, 1, &dev), DOCA_SUCCESS);
	assert_ptr_equal(dev, (uint8_t *)g + pg + 3);
	assert_int_equal(ogda_gpu_unmap_host(gpu, (uint8_t *)c + pg + 3), DOCA_SUCCESS);
	b = 0;
	assert_int_equal(ogda_gpu_copy_from_dev(gpu, &b, (uint8_t *)g + pg + 3, 1), DOCA_SUCCESS);
	assert_int_equal(b, 0x77);
	assert_int_equal(doca_gpu_mem_free(gpu, g), DOCA_SUCCESS);
	assert_null(gpu->hostmaps);
}

/* A software-NIC style doorbell page: ordinary host memory, mapped without IOMEMORY. */
static void test_uar_host_page(void **state)
{
	GPU_OR_SKIP(state);
	size_t pg = ogda_gpu_host_page_size();
	uint64_t *page = NULL, *db = NULL, *bf = NULL, *db2 = NULL;
	const uint64_t value = 0x1122334455667788ull;
	bool can = false;

	assert_int_equal(posix_memalign((void **)&page, pg, pg), 0);
	memset(page, 0, pg);
	assert_int_equal(doca_gpu_verbs_can_gpu_register_uar(page + 0x600 / 8, &can), DOCA_SUCCESS);
	assert_true(can);
	assert_int_equal(doca_gpu_verbs_export_uar(page + 0x600 / 8, &db), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_export_uar(page + 0x800 / 8, &bf), DOCA_SUCCESS);
	assert_int_equal((uint8_t *)bf - (uint8_t *)db, 0x200);
	/* A write through the GPU address lands in the page. */
	assert_int_equal(ogda_gpu_copy_to_dev(gpu, db, &value, sizeof(value)), DOCA_SUCCESS);
	assert_true(page[0x600 / 8] == value);
	assert_int_equal(doca_gpu_verbs_unexport_uar(bf), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_unexport_uar(db), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_verbs_unexport_uar(db), DOCA_ERROR_NOT_FOUND, "doca_gpu_verbs_unexport_uar");
	/* Unregistered with the last reference: a fresh export registers it again. */
	assert_int_equal(doca_gpu_verbs_export_uar(page, &db2), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_unexport_uar(db2), DOCA_SUCCESS);
	free(page);
}
struct thread_uar {
	uint64_t *page;
	bool can;
	doca_error_t export_err, unexport_err;
	uint64_t *db;
};

static void *thread_uar_main(void *arg)
{
	struct thread_uar *t = arg;

	/* A fresh thread has no current CUDA context: device 0's primary context is used. */
	doca_gpu_verbs_can_gpu_register_uar(t->page, &t->can);
	t->export_err = doca_gpu_verbs_export_uar(t->page, &t->db);
	t->unexport_err = t->export_err == DOCA_SUCCESS ? doca_gpu_verbs_unexport_uar(t->db) : DOCA_ERROR_UNKNOWN;
	return NULL;
}

static void test_uar_without_current_context(void **state)
{
	GPU_OR_SKIP(state);
	struct thread_uar t = {0};
	pthread_t th;

	assert_int_equal(posix_memalign((void **)&t.page, ogda_gpu_host_page_size(), ogda_gpu_host_page_size()), 0);
	assert_int_equal(pthread_create(&th, NULL, thread_uar_main, &t), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_true(t.can);
	assert_int_equal(t.export_err, DOCA_SUCCESS);
	assert_non_null(t.db);
	assert_int_equal(t.unexport_err, DOCA_SUCCESS);
	free(t.page);
}
#endif /* OGDA_HAVE_CUDA_H */

int main(void)
{
#ifdef OGDA_HAVE_CUDA_H
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_info, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mem_types, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dmabuf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_map_host, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uar_host_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uar_without_current_context, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
#else
	print_message("built without CUDA headers: nothing to test\n");
	return 0;
#endif
}
