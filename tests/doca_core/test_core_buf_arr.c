/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf_arr with a host GPU handle: the device view (device/ogda_dev_buf.h) names every
 * element's address and the mmap's key, the accessors refuse indexes past the end, the mmap
 * cannot stop under a started array, and misuse returns the documented errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core_fixture.h"
#include "device/ogda_dev_buf.h"
#include "gpunetio/gpu_test_log.h"

#include <endian.h>

static struct doca_buf_arr *started_arr(struct cfx *f, struct doca_mmap *m, size_t n, size_t size, uint64_t off)
{
	struct doca_buf_arr *a = NULL;

	assert_int_equal(doca_buf_arr_create(n, &a), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_set_target_gpu(a, f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_set_params(a, m, size, off), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_start(a), DOCA_SUCCESS);
	return a;
}

static void test_device_view(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m = cfx_mmap(f, 0, 16384, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_buf_arr *a = started_arr(f, m, 30, 512, 256);
	struct doca_gpu_buf_arr *h = NULL;
	struct doca_gpu_buf *b = NULL;
	uint32_t key = 0, k = 0;
	uintptr_t addr = 0;

	assert_int_equal(doca_mmap_get_mkey(m, f->dev, &key), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_get_gpu_handle(a, &h), DOCA_SUCCESS);
	assert_non_null(h);
	assert_int_equal(h->num_elem, 30);
	assert_int_equal(h->elem_size, 512);
	assert_int_equal(h->base_addr, (uint64_t)(uintptr_t)(f->buf + 256));
	assert_int_equal(h->mkey, key);
	assert_int_equal(h->mkey_be, htobe32(key));
	for (uint64_t i = 0; i < 30; i++) {
		assert_int_equal(ogda_dev_buf_get(h, i, &b), DOCA_SUCCESS);
		assert_int_equal(ogda_dev_buf_addr(b, &addr), DOCA_SUCCESS);
		assert_ptr_equal((void *)addr, f->buf + 256 + i * 512);
		assert_int_equal(ogda_dev_buf_mkey(b, &k), DOCA_SUCCESS);
		assert_int_equal(k, key);
		assert_int_equal(b->mkey_be, htobe32(key));
	}
	assert_int_equal(ogda_dev_buf_get(h, 30, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_buf_get(NULL, 0, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_buf_addr(NULL, &addr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_buf_mkey(b, NULL), DOCA_ERROR_INVALID_VALUE);

	/* the mmap is held while the array is started */
	EXPECT_LOGGED_ERR(doca_mmap_stop(m), DOCA_ERROR_IN_USE, "doca_mmap_stop");
	assert_int_equal(doca_buf_arr_stop(a), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_buf_arr_get_gpu_handle(a, &h), DOCA_ERROR_BAD_STATE, "doca_buf_arr_get_gpu_handle");
	assert_int_equal(doca_buf_arr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

/* Exactly filling the mmap fits; one more element does not (DOCA: NO_MEMORY). */
static void test_size_check(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m = cfx_mmap(f, 0, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_buf_arr *a = started_arr(f, m, 8, 500, 96), *b = NULL;

	assert_int_equal(doca_buf_arr_destroy(a), DOCA_SUCCESS); /* destroy stops a started array */
	assert_int_equal(doca_buf_arr_create(9, &b), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_set_target_gpu(b, f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_set_params(b, m, 500, 96), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_buf_arr_start(b), DOCA_ERROR_NO_MEMORY, "doca_buf_arr_start");
	assert_int_equal(doca_buf_arr_set_params(b, m, 1, 4097), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_buf_arr_start(b), DOCA_ERROR_NO_MEMORY, "doca_buf_arr_start");
	assert_int_equal(doca_buf_arr_destroy(b), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS); /* nothing holds it any more */
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

static void test_state_misuse_and_bad_input(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m = NULL;
	struct doca_buf_arr *a = NULL;
	struct doca_gpu_buf_arr *h;

	EXPECT_LOGGED_ERR(doca_buf_arr_create(0, &a), DOCA_ERROR_INVALID_VALUE, "doca_buf_arr_create");
	EXPECT_LOGGED_ERR(doca_buf_arr_create(4, NULL), DOCA_ERROR_INVALID_VALUE, "doca_buf_arr_create");
	assert_int_equal(doca_buf_arr_create(4, &a), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_buf_arr_start(a), DOCA_ERROR_BAD_STATE, "doca_buf_arr_start"); /* no target */
	EXPECT_LOGGED_ERR(doca_buf_arr_set_target_gpu(a, NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_buf_arr_set_target_gpu");
	EXPECT_LOGGED_ERR(doca_buf_arr_set_target_gpu(NULL, f->gpu), DOCA_ERROR_INVALID_VALUE, "check_config");
	assert_int_equal(doca_buf_arr_set_target_gpu(a, f->gpu), DOCA_SUCCESS);
	/* an mmap not started */
	assert_int_equal(doca_mmap_create(&m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_add_dev(m, f->dev), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(m, f->buf, 4096), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_buf_arr_set_params(a, m, 0, 0), DOCA_ERROR_INVALID_VALUE, "doca_buf_arr_set_params");
	EXPECT_LOGGED_ERR(doca_buf_arr_set_params(a, NULL, 64, 0), DOCA_ERROR_INVALID_VALUE,
			  "doca_buf_arr_set_params");
	assert_int_equal(doca_buf_arr_set_params(a, m, 64, 0), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_buf_arr_start(a), DOCA_ERROR_BAD_STATE, "doca_buf_arr_start");
	assert_int_equal(doca_mmap_start(m), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_start(a), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_buf_arr_start(a), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_buf_arr_set_params(a, m, 64, 0), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_buf_arr_set_target_gpu(a, f->gpu), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_buf_arr_get_gpu_handle(a, NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_buf_arr_get_gpu_handle");
	EXPECT_LOGGED_ERR(doca_buf_arr_get_gpu_handle(NULL, &h), DOCA_ERROR_INVALID_VALUE,
			  "doca_buf_arr_get_gpu_handle");
	assert_int_equal(doca_buf_arr_stop(a), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_buf_arr_stop(a), DOCA_ERROR_BAD_STATE, "doca_buf_arr_stop");
	EXPECT_LOGGED_ERR(doca_buf_arr_stop(NULL), DOCA_ERROR_INVALID_VALUE, "doca_buf_arr_stop");
	EXPECT_LOGGED_ERR(doca_buf_arr_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_buf_arr_destroy");
	assert_int_equal(doca_buf_arr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_device_view, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_size_check, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_state_misuse_and_bad_input, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
