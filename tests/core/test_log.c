/* SPDX-License-Identifier: BSD-3-Clause */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "opengda.h"
#include "test_util.h"

static char out[8192];

static void assert_matches(const char *text, const char *pattern)
{
	regex_t re;
	int rc;

	assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE), 0);
	rc = regexec(&re, text, 0, NULL, 0);
	regfree(&re);
	if (rc != 0)
		fail_msg("'%s' does not match /%s/", text, pattern);
}

/* Runs first, in a process where DOCA_GPUNETIO_LOG is empty: the default is errors only. */
static void default_level_is_errors(void **state)
{
	(void)state;
	assert_int_equal(opengda_log_get_level(), 3);
	stderr_capture_begin();
	OGDA_LOG_ERR("visible %d", 42);
	OGDA_LOG_WARN("hidden warning");
	OGDA_LOG_DBG("hidden debug");
	stderr_capture_end(out, sizeof(out));
	assert_non_null(strstr(out, "visible 42"));
	assert_null(strstr(out, "hidden"));
}

static void line_has_time_level_location_function(void **state)
{
	(void)state;
	stderr_capture_begin();
	OGDA_LOG_ERR("the message");
	stderr_capture_end(out, sizeof(out));
	/* 2026-11-21T03:40:01.123456Z [ERR] tests/core/test_log.c:51 line_has_...(): the message */
	assert_matches(out, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}Z \\[ERR\\] "
			    "tests/core/test_log\\.c:[0-9]+ line_has_time_level_location_function\\(\\): "
			    "the message\n$");
}

static void level_from_environment(void **state)
{
	(void)state;
	setenv("DOCA_GPUNETIO_LOG", "7", 1);
	ogda_log_reload_env();
	assert_int_equal(opengda_log_get_level(), 7);
	stderr_capture_begin();
	OGDA_LOG_DBG("debug now visible");
	stderr_capture_end(out, sizeof(out));
	assert_non_null(strstr(out, "[DEBUG]"));
	assert_non_null(strstr(out, "debug now visible"));

	setenv("DOCA_GPUNETIO_LOG", "0", 1);
	ogda_log_reload_env();
	stderr_capture_begin();
	OGDA_LOG_ERR("silenced");
	stderr_capture_end(out, sizeof(out));
	assert_string_equal(out, "");
	unsetenv("DOCA_GPUNETIO_LOG");
	ogda_log_reload_env();
	assert_int_equal(opengda_log_get_level(), 3);
}

static void bad_environment_value_warns_and_keeps_default(void **state)
{
	static const char *const bad[] = {"abc", "8", "-1", "3x", "99999999999999999999"};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("DOCA_GPUNETIO_LOG", bad[i], 1);
		stderr_capture_begin();
		ogda_log_reload_env();
		stderr_capture_end(out, sizeof(out));
		assert_int_equal(opengda_log_get_level(), 3);
		assert_non_null(strstr(out, "[WARN]"));
		assert_non_null(strstr(out, "DOCA_GPUNETIO_LOG must be an integer 0-7"));
	}
	unsetenv("DOCA_GPUNETIO_LOG");
	ogda_log_reload_env();
}

static void set_level_checks_range(void **state)
{
	(void)state;
	assert_int_equal(opengda_log_set_level(6), DOCA_SUCCESS);
	assert_int_equal(opengda_log_get_level(), 6);
	stderr_capture_begin();
	assert_int_equal(opengda_log_set_level(8), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_log_set_level(-1), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(out, sizeof(out));
	assert_int_equal(opengda_log_get_level(), 6);
	assert_non_null(strstr(out, "log level 8 is outside the syslog range 0-7"));
	assert_int_equal(opengda_log_set_level(3), DOCA_SUCCESS);
}

static void long_message_is_truncated_to_one_line(void **state)
{
	char big[4000];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	stderr_capture_begin();
	OGDA_LOG_ERR("%s", big);
	OGDA_LOG_ERR("next");
	stderr_capture_end(out, sizeof(out));
	assert_non_null(strstr(out, "xxx\n"));
	assert_non_null(strstr(out, "next\n"));
	assert_true(strlen(out) < 1200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_level_is_errors),
		cmocka_unit_test(line_has_time_level_location_function),
		cmocka_unit_test(level_from_environment),
		cmocka_unit_test(bad_environment_value_warns_and_keeps_default),
		cmocka_unit_test(set_level_checks_range),
		cmocka_unit_test(long_message_is_truncated_to_one_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
