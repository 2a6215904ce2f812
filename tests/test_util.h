/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers shared by the CPU tests. */
#ifndef OGDA_TESTS_TEST_UTIL_H_
#define OGDA_TESTS_TEST_UTIL_H_

#include <stddef.h>

/*
 * Redirects stderr into a temporary file until stderr_capture_end(), which returns what was
 * written (NUL-terminated, at most cap-1 bytes) and restores stderr.
 */
void stderr_capture_begin(void);
const char *stderr_capture_end(char *buf, size_t cap);

/* Whether log is exactly one line, an ERR line holding needle. */
int test_log_one_err(const char *log, const char *needle);

/*
 * (cmocka, include after <cmocka.h>) Runs call with stderr captured; asserts it returned want and
 * logged exactly one ERR line holding needle.
 */
#define TEST_EXPECT_ERR(call, want, needle)                                                        \
	do {                                                                                       \
		char log_[4096];                                                                   \
		doca_error_t got_;                                                                 \
		stderr_capture_begin();                                                            \
		got_ = (call);                                                                     \
		stderr_capture_end(log_, sizeof(log_));                                            \
		assert_int_equal(got_, (want));                                                    \
		if (!test_log_one_err(log_, (needle)))                                             \
			fail_msg("expected one ERR line holding \"%s\", got: %s", (needle), log_);   \
	} while (0)

#endif
