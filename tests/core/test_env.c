/* SPDX-License-Identifier: BSD-3-Clause */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "core/env.h"

#define VAR "OPENGDA_TEST_KNOB"

static void long_unset_and_empty_give_default(void **state)
{
	long v = 0;

	(void)state;
	unsetenv(VAR);
	assert_int_equal(ogda_env_get_long(VAR, 0, 10, 7, &v), DOCA_SUCCESS);
	assert_int_equal(v, 7);
	setenv(VAR, "", 1);
	assert_int_equal(ogda_env_get_long(VAR, 0, 10, 5, &v), DOCA_SUCCESS);
	assert_int_equal(v, 5);
}

static void long_parses_decimal_hex_octal(void **state)
{
	long v = 0;

	(void)state;
	setenv(VAR, "9", 1);
	assert_int_equal(ogda_env_get_long(VAR, 0, 100, 1, &v), DOCA_SUCCESS);
	assert_int_equal(v, 9);
	setenv(VAR, "0x10", 1);
	assert_int_equal(ogda_env_get_long(VAR, 0, 100, 1, &v), DOCA_SUCCESS);
	assert_int_equal(v, 16);
	setenv(VAR, "010", 1);
	assert_int_equal(ogda_env_get_long(VAR, 0, 100, 1, &v), DOCA_SUCCESS);
	assert_int_equal(v, 8);
	setenv(VAR, "-3", 1);
	assert_int_equal(ogda_env_get_long(VAR, -5, 100, 1, &v), DOCA_SUCCESS);
	assert_int_equal(v, -3);
}

static void long_rejects_garbage_and_range(void **state)
{
	static const char *const bad[] = {"x", "1x", " ", "11", "-1", "99999999999999999999999"};
	size_t i;
	long v;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 123;
		setenv(VAR, bad[i], 1);
		assert_int_equal(ogda_env_get_long(VAR, 0, 10, 4, &v), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(v, 4);
	}
	unsetenv(VAR);
}

static void bool_accepts_words_any_case(void **state)
{
	static const char *const yes[] = {"1", "yes", "TRUE", "On"};
	static const char *const no[] = {"0", "No", "false", "OFF"};
	bool b;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		setenv(VAR, yes[i], 1);
		assert_int_equal(ogda_env_get_bool(VAR, false, &b), DOCA_SUCCESS);
		assert_true(b);
		setenv(VAR, no[i], 1);
		assert_int_equal(ogda_env_get_bool(VAR, true, &b), DOCA_SUCCESS);
		assert_false(b);
	}
	setenv(VAR, "maybe", 1);
	assert_int_equal(ogda_env_get_bool(VAR, true, &b), DOCA_ERROR_INVALID_VALUE);
	assert_true(b);
	unsetenv(VAR);
	assert_int_equal(ogda_env_get_bool(VAR, false, &b), DOCA_SUCCESS);
	assert_false(b);
}

static void word_picks_index_or_default(void **state)
{
	static const char *const words[] = {"adaptive", "spin", "sleep"};
	unsigned w;

	(void)state;
	unsetenv(VAR);
	assert_int_equal(ogda_env_get_word(VAR, words, 3, 0, &w), DOCA_SUCCESS);
	assert_int_equal(w, 0);
	setenv(VAR, "SLEEP", 1);
	assert_int_equal(ogda_env_get_word(VAR, words, 3, 0, &w), DOCA_SUCCESS);
	assert_int_equal(w, 2);
	setenv(VAR, "spinning", 1);
	assert_int_equal(ogda_env_get_word(VAR, words, 3, 1, &w), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(w, 1);
	unsetenv(VAR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(long_unset_and_empty_give_default),
		cmocka_unit_test(long_parses_decimal_hex_octal),
		cmocka_unit_test(long_rejects_garbage_and_range),
		cmocka_unit_test(bool_accepts_words_any_case),
		cmocka_unit_test(word_picks_index_or_default),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
