/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dev.h on the software NIC: the device list and its environment knobs, names,
 * opening and closing devices, the swnic flag.
 *
 * One source, four executables (tests/verbs/CMakeLists.txt), told apart by VERBS_DEV_CASE
 * and run with their environment:
 *   1  OPENGDA_SWNIC_COUNT=2                          list, names, open/close, bad input
 *   2  OPENGDA_SWNIC_COUNT=0                          no device at all -> NOT_FOUND
 *   3  OPENGDA_SWNIC_COUNT=2 OPENGDA_DEVICE=swnic1    swnic1 moved to the front
 *   4  OPENGDA_SWNIC_COUNT=2 OPENGDA_DEVICE=nosuch    warning, order kept
 * ConnectX devices, when rdma-core finds any, come first: expectations count them.
 */
#include "verbs_fixture.h"

#include "devx/hw.h"
#include "test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifndef VERBS_DEV_CASE
#define VERBS_DEV_CASE 1
#endif

#if VERBS_DEV_CASE != 3
static char logbuf[8192];
#endif

/* ConnectX devices rdma-core lists here (0 on a machine without any). */
static uint32_t hw_count(void)
{
	struct ogda_ibdev_entry hw[64];
	size_t n = 0;

	if (ogda_devx_hw_list(hw, 64, &n) != DOCA_SUCCESS)
		return 0;
	return (uint32_t)n;
}

static inline void name_of(struct doca_devinfo *d, char *buf)
{
	assert_int_equal(doca_devinfo_get_ibdev_name(d, buf, DOCA_DEVINFO_IBDEV_NAME_SIZE), DOCA_SUCCESS);
}

#if VERBS_DEV_CASE == 1

/* Two software NICs after the ConnectX devices, in index order, NULL-terminated. */
static void test_list_two_swnics(void **state)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0, nhw = hw_count();
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	bool sw;

	(void)state;
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	assert_int_equal(n, nhw + 2u);
	assert_null(list[n]);
	for (uint32_t i = 0; i < nhw; i++) {
		assert_int_equal(opengda_devinfo_is_swnic(list[i], &sw), DOCA_SUCCESS);
		assert_false(sw);
	}
	name_of(list[nhw], name);
	assert_string_equal(name, "swnic0");
	name_of(list[nhw + 1], name);
	assert_string_equal(name, "swnic1");
	sw = false;
	assert_int_equal(opengda_devinfo_is_swnic(list[nhw], &sw), DOCA_SUCCESS);
	assert_true(sw);
	sw = false;
	assert_int_equal(opengda_devinfo_is_swnic(list[nhw + 1], &sw), DOCA_SUCCESS);
	assert_true(sw);
	assert_int_equal(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
}

static void test_list_bad_input(void **state)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 77;

	(void)state;
	stderr_capture_begin();
	assert_int_equal(doca_devinfo_create_list(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_devinfo_create_list(&list, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_devinfo_destroy_list(NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(list);
	assert_int_equal(n, 77);
	assert_non_null(strstr(logbuf, "dev_list and nb_devs must not be NULL"));
	assert_non_null(strstr(logbuf, "dev_list must not be NULL"));
}

/* The name fits a buffer of strlen + 1 bytes exactly; one byte less is refused, buffer untouched. */
static void test_ibdev_name_buffer_sizes(void **state)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	struct doca_devinfo *d;
	char buf[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	(void)state;
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	d = list[hw_count()];
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(doca_devinfo_get_ibdev_name(d, buf, 7), DOCA_SUCCESS);
	assert_memory_equal(buf, "swnic0\0xx", 9);
	memset(buf, 'x', sizeof(buf));
	stderr_capture_begin();
	assert_int_equal(doca_devinfo_get_ibdev_name(d, buf, 6), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_devinfo_get_ibdev_name(d, buf, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_devinfo_get_ibdev_name(NULL, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_devinfo_get_ibdev_name(d, NULL, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 'x');
	assert_non_null(strstr(logbuf, "swnic0: a buffer of 6 bytes cannot hold the name (7 bytes with its NUL)"));
	assert_non_null(strstr(logbuf, "swnic0: a buffer of 0 bytes"));
	assert_non_null(strstr(logbuf, "devinfo and ibdev_name must not be NULL"));
	assert_int_equal(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
}

static void test_is_swnic_bad_input(void **state)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	bool sw = true;

	(void)state;
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(opengda_devinfo_is_swnic(NULL, &sw), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_devinfo_is_swnic(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_true(sw);
	assert_non_null(strstr(logbuf, "devinfo and is_swnic must not be NULL"));
	assert_int_equal(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
}

/* An open device keeps its own devinfo: it outlives the list it was opened from. */
static void test_dev_open_close(void **state)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0, nhw = hw_count();
	struct doca_dev *dev0 = NULL, *dev1 = NULL;
	struct doca_devinfo *info;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	bool sw = false;

	(void)state;
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	assert_int_equal(doca_dev_open(list[nhw], &dev0), DOCA_SUCCESS);
	assert_int_equal(doca_dev_open(list[nhw + 1], &dev1), DOCA_SUCCESS);
	assert_non_null(dev0);
	assert_non_null(dev1);
	assert_int_equal(doca_devinfo_destroy_list(list), DOCA_SUCCESS);

	info = doca_dev_as_devinfo(dev0);
	assert_non_null(info);
	name_of(info, name);
	assert_string_equal(name, "swnic0");
	assert_int_equal(opengda_devinfo_is_swnic(info, &sw), DOCA_SUCCESS);
	assert_true(sw);
	info = doca_dev_as_devinfo(dev1);
	name_of(info, name);
	assert_string_equal(name, "swnic1");

	/* A devinfo of an open device opens a context, like a list entry. */
	{
		struct doca_verbs_context *ctx = NULL;

		assert_int_equal(doca_verbs_context_create(info, 0, &ctx), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_context_destroy(ctx), DOCA_SUCCESS);
	}
	assert_int_equal(doca_dev_close(dev0), DOCA_SUCCESS);
	assert_int_equal(doca_dev_close(dev1), DOCA_SUCCESS);
}

static void test_dev_bad_input(void **state)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	struct doca_dev *dev = NULL;

	(void)state;
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_dev_open(NULL, &dev), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dev_open(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dev_close(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_null(doca_dev_as_devinfo(NULL));
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(dev);
	assert_non_null(strstr(logbuf, "devinfo and dev must not be NULL"));
	assert_non_null(strstr(logbuf, "dev must not be NULL"));

	/* A device from doca_dev_open() is not closed by doca_verbs_dev_close(). */
	assert_int_equal(doca_dev_open(list[hw_count()], &dev), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_dev_close(dev), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_dev_close(NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "swnic0: this device was opened with doca_dev_open(): close it with doca_dev_close()"));
	assert_int_equal(doca_dev_close(dev), DOCA_SUCCESS);
	assert_int_equal(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
}

/* Two lists are independent copies: destroying one leaves the other usable. */
static void test_two_lists(void **state)
{
	struct doca_devinfo **a = NULL, **b = NULL;
	uint32_t na = 0, nb = 0;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	(void)state;
	assert_int_equal(doca_devinfo_create_list(&a, &na), DOCA_SUCCESS);
	assert_int_equal(doca_devinfo_create_list(&b, &nb), DOCA_SUCCESS);
	assert_int_equal(na, nb);
	assert_ptr_not_equal(a, b);
	assert_int_equal(doca_devinfo_destroy_list(a), DOCA_SUCCESS);
	name_of(b[nb - 1], name);
	assert_string_equal(name, "swnic1");
	assert_int_equal(doca_devinfo_destroy_list(b), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_two_swnics),   cmocka_unit_test(test_list_bad_input),
		cmocka_unit_test(test_ibdev_name_buffer_sizes), cmocka_unit_test(test_is_swnic_bad_input),
		cmocka_unit_test(test_dev_open_close),    cmocka_unit_test(test_dev_bad_input),
		cmocka_unit_test(test_two_lists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#elif VERBS_DEV_CASE == 2

/* OPENGDA_SWNIC_COUNT=0 and no ConnectX: no device at all, said in the log. */
static void test_no_device(void **state)
{
	struct doca_devinfo **list = (struct doca_devinfo **)(uintptr_t)0x1;
	uint32_t n = 99;

	(void)state;
	if (hw_count() != 0)
		skip(); /* a ConnectX is present: the list is not empty */
	stderr_capture_begin();
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_ERROR_NOT_FOUND);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_ptr_equal(list, (struct doca_devinfo **)(uintptr_t)0x1);
	assert_int_equal(n, 99);
	assert_non_null(strstr(logbuf, "no device: rdma-core found no mlx5 device and OPENGDA_SWNIC_COUNT is 0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_device)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#elif VERBS_DEV_CASE == 3

/* OPENGDA_DEVICE=swnic1: swnic1 first, the others after it in their order. */
static void test_default_device_first(void **state)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0, nhw = hw_count();
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	(void)state;
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	assert_int_equal(n, nhw + 2u);
	name_of(list[0], name);
	assert_string_equal(name, "swnic1");
	name_of(list[n - 1], name);
	assert_string_equal(name, "swnic0");
	for (uint32_t i = 1; i <= nhw; i++) {
		bool sw = true;

		assert_int_equal(opengda_devinfo_is_swnic(list[i], &sw), DOCA_SUCCESS);
		assert_false(sw);
	}
	assert_null(list[n]);
	/* The default device is the one a sample opening list[0] gets. */
	{
		struct doca_dev *dev = NULL;

		assert_int_equal(doca_dev_open(list[0], &dev), DOCA_SUCCESS);
		name_of(doca_dev_as_devinfo(dev), name);
		assert_string_equal(name, "swnic1");
		assert_int_equal(doca_dev_close(dev), DOCA_SUCCESS);
	}
	assert_int_equal(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_default_device_first)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#elif VERBS_DEV_CASE == 4

/* OPENGDA_DEVICE names no device: one warning naming it, the order unchanged. */
static void test_unknown_default_device(void **state)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0, nhw = hw_count();
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	(void)state;
	assert_int_equal(opengda_log_set_level(4), DOCA_SUCCESS); /* warnings */
	stderr_capture_begin();
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_int_equal(opengda_log_set_level(3), DOCA_SUCCESS);
	assert_non_null(strstr(logbuf, "WARN"));
	assert_non_null(strstr(logbuf, "OPENGDA_DEVICE=nosuch names no device; the list keeps its order"));
	assert_int_equal(n, nhw + 2u);
	name_of(list[nhw], name);
	assert_string_equal(name, "swnic0");
	name_of(list[nhw + 1], name);
	assert_string_equal(name, "swnic1");
	assert_int_equal(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_unknown_default_device)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
