/* SPDX-License-Identifier: BSD-3-Clause */
/* Checking that bad input is refused and logged, for the DOCA Verbs tests (needs cmocka.h). */
#ifndef OGDA_TESTS_VERBS_LOGGED_H_
#define OGDA_TESTS_VERBS_LOGGED_H_

#include "test_util.h"

#include <stdint.h>
#include <string.h>

/*
 * Calls call with stderr captured, then checks its result (integers, enums, pointers
 * alike) and that the log names subject: bad input logs one line naming its function.
 */
#define LOGGED_EQ(call, expected, subject)                                                         \
	do {                                                                                       \
		char log_buf_[2048];                                                               \
		uintptr_t got_;                                                                    \
		stderr_capture_begin();                                                            \
		got_ = (uintptr_t)(call);                                                          \
		stderr_capture_end(log_buf_, sizeof(log_buf_));                                    \
		assert_int_equal(got_, (uintptr_t)(expected));                                     \
		if (strstr(log_buf_, (subject)) == NULL)                                           \
			fail_msg("log \"%s\" does not name \"%s\"", log_buf_, (subject));          \
	} while (0)

#endif /* OGDA_TESTS_VERBS_LOGGED_H_ */
