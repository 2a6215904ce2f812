/* SPDX-License-Identifier: BSD-3-Clause */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "doca_error.h"

/* DOCA's values, written out independently of the header so a renumbering fails here. */
static const struct {
	int value;
	const char *name;
} expected[] = {
	{0, "DOCA_SUCCESS"},
	{1, "DOCA_ERROR_UNKNOWN"},
	{2, "DOCA_ERROR_NOT_PERMITTED"},
	{3, "DOCA_ERROR_IN_USE"},
	{4, "DOCA_ERROR_NOT_SUPPORTED"},
	{5, "DOCA_ERROR_AGAIN"},
	{6, "DOCA_ERROR_INVALID_VALUE"},
	{7, "DOCA_ERROR_NO_MEMORY"},
	{8, "DOCA_ERROR_INITIALIZATION"},
	{9, "DOCA_ERROR_TIME_OUT"},
	{10, "DOCA_ERROR_SHUTDOWN"},
	{11, "DOCA_ERROR_CONNECTION_RESET"},
	{12, "DOCA_ERROR_CONNECTION_ABORTED"},
	{13, "DOCA_ERROR_CONNECTION_INPROGRESS"},
	{14, "DOCA_ERROR_NOT_CONNECTED"},
	{15, "DOCA_ERROR_NO_LOCK"},
	{16, "DOCA_ERROR_NOT_FOUND"},
	{17, "DOCA_ERROR_IO_FAILED"},
	{18, "DOCA_ERROR_BAD_STATE"},
	{19, "DOCA_ERROR_UNSUPPORTED_VERSION"},
	{20, "DOCA_ERROR_OPERATING_SYSTEM"},
	{21, "DOCA_ERROR_DRIVER"},
	{22, "DOCA_ERROR_UNEXPECTED"},
	{23, "DOCA_ERROR_ALREADY_EXIST"},
	{24, "DOCA_ERROR_FULL"},
	{25, "DOCA_ERROR_EMPTY"},
	{26, "DOCA_ERROR_IN_PROGRESS"},
	{27, "DOCA_ERROR_TOO_BIG"},
	{28, "DOCA_ERROR_AUTHENTICATION"},
	{29, "DOCA_ERROR_BAD_CONFIG"},
	{30, "DOCA_ERROR_SKIPPED"},
	{31, "DOCA_ERROR_DEVICE_FATAL_ERROR"},
};

static void enum_values_match_doca(void **state)
{
	(void)state;
	assert_int_equal(DOCA_SUCCESS, 0);
	assert_int_equal(DOCA_ERROR_INVALID_VALUE, 6);
	assert_int_equal(DOCA_ERROR_TIME_OUT, 9);
	assert_int_equal(DOCA_ERROR_NOT_FOUND, 16);
	assert_int_equal(DOCA_ERROR_BAD_STATE, 18);
	assert_int_equal(DOCA_ERROR_DRIVER, 21);
	assert_int_equal(DOCA_ERROR_DEVICE_FATAL_ERROR, 31);
	assert_int_equal(DOCA_ERROR_COUNT, 32);
	assert_int_equal(sizeof(expected) / sizeof(expected[0]), DOCA_ERROR_COUNT);
}

static void every_value_has_its_name(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
		assert_string_equal(doca_error_get_name((doca_error_t)expected[i].value), expected[i].name);
}

static void descriptions_are_distinct_and_nonempty(void **state)
{
	int i, j;

	(void)state;
	for (i = 0; i < DOCA_ERROR_COUNT; i++) {
		const char *d = doca_error_get_descr((doca_error_t)i);

		assert_non_null(d);
		assert_true(strlen(d) > 3);
		for (j = 0; j < i; j++)
			assert_string_not_equal(d, doca_error_get_descr((doca_error_t)j));
	}
	assert_string_equal(doca_error_get_descr(DOCA_ERROR_TIME_OUT), "Timer expired waiting for a resource");
}

static void out_of_range_is_unrecognized(void **state)
{
	(void)state;
	assert_string_equal(doca_error_get_name((doca_error_t)32), "DOCA_ERROR_UNRECOGNIZED");
	assert_string_equal(doca_error_get_name((doca_error_t)-1), "DOCA_ERROR_UNRECOGNIZED");
	assert_string_equal(doca_error_get_descr((doca_error_t)1000), "Unrecognized error code");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(enum_values_match_doca),
		cmocka_unit_test(every_value_has_its_name),
		cmocka_unit_test(descriptions_are_distinct_and_nonempty),
		cmocka_unit_test(out_of_range_is_unrecognized),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
