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

#endif
