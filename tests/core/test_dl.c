/* SPDX-License-Identifier: BSD-3-Clause */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/dl.h"

static void opens_and_resolves_libc(void **state)
{
	size_t (*my_strlen)(const char *) = NULL;
	void *opt = (void *)1;
	const struct ogda_dl_sym syms[] = {
		{"strlen", (void **)&my_strlen, false},
		{"opengda_no_such_symbol", &opt, true},
	};
	void *h = NULL;

	(void)state;
	assert_int_equal(ogda_dl_open("libc.so.6", &h), DOCA_SUCCESS);
	assert_non_null(h);
	assert_int_equal(ogda_dl_resolve(h, syms, 2), DOCA_SUCCESS);
	assert_non_null(my_strlen);
	assert_int_equal(my_strlen("abcd"), 4);
	assert_null(opt); /* optional and missing: NULL, not an error */
}

static void missing_required_symbol_clears_all_slots(void **state)
{
	void *a = (void *)1, *b = (void *)1;
	const struct ogda_dl_sym syms[] = {
		{"strlen", &a, false},
		{"opengda_no_such_symbol", &b, false},
	};
	void *h = NULL;

	(void)state;
	assert_int_equal(ogda_dl_open("libc.so.6", &h), DOCA_SUCCESS);
	assert_int_equal(ogda_dl_resolve(h, syms, 2), DOCA_ERROR_NOT_FOUND);
	assert_null(a);
	assert_null(b);
}

static void missing_library_is_not_found(void **state)
{
	void *h = NULL;

	(void)state;
	assert_int_equal(ogda_dl_open("libopengda-does-not-exist.so.9", &h), DOCA_ERROR_NOT_FOUND);
	assert_null(h);
}

static void bad_arguments(void **state)
{
	struct ogda_runtime_lib_info info;
	void *h = NULL;

	(void)state;
	assert_int_equal(ogda_dl_open(NULL, &h), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dl_open("libc.so.6", NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dl_resolve(NULL, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_runtime_lib_open(OGDA_LIB_COUNT, &h), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_runtime_lib_open((enum ogda_runtime_lib)-1, &h), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_runtime_lib_open(OGDA_LIB_CUDA, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_runtime_lib_query(OGDA_LIB_CUDA, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_runtime_lib_query(OGDA_LIB_COUNT, &info), DOCA_ERROR_INVALID_VALUE);
}

static void disabled_library_is_hidden(void **state)
{
	struct ogda_runtime_lib_info info;
	void *h = NULL;

	(void)state;
	/* First use of GDRCopy in this process: the variable is read now. */
	setenv("OPENGDA_DISABLE_GDRCOPY", "1", 1);
	assert_int_equal(ogda_runtime_lib_open(OGDA_LIB_GDRAPI, &h), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(ogda_runtime_lib_query(OGDA_LIB_GDRAPI, &info), DOCA_SUCCESS);
	assert_true(info.disabled);
	assert_false(info.loaded);
	assert_string_equal(info.soname, "libgdrapi.so.2");
	assert_string_equal(info.error, "disabled by OPENGDA_DISABLE_GDRCOPY");
}

static void report_matches_loader_outcome(void **state)
{
	struct ogda_runtime_lib_info info;
	void *h = NULL;
	doca_error_t err;

	(void)state;
	/* libibverbs may or may not be installed; the report must agree with the outcome either way. */
	err = ogda_runtime_lib_open(OGDA_LIB_IBVERBS, &h);
	assert_int_equal(ogda_runtime_lib_query(OGDA_LIB_IBVERBS, &info), DOCA_SUCCESS);
	assert_string_equal(info.soname, "libibverbs.so.1");
	if (err == DOCA_SUCCESS) {
		assert_true(info.loaded);
		assert_non_null(h);
		assert_non_null(strstr(info.path, "libibverbs"));
	} else {
		assert_int_equal(err, DOCA_ERROR_NOT_FOUND);
		assert_false(info.loaded);
		assert_true(strlen(info.error) > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(opens_and_resolves_libc),
		cmocka_unit_test(missing_required_symbol_clears_all_slots),
		cmocka_unit_test(missing_library_is_not_found),
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(disabled_library_is_hidden),
		cmocka_unit_test(report_matches_loader_outcome),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
