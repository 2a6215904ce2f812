/* SPDX-License-Identifier: BSD-3-Clause */
/* Initial engine test; the full suite replaces it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "prm/prm_layout.h"

static void bits_round_trip(void **state)
{
	uint8_t buf[8] = {0};

	(void)state;
	prm_bits_set(buf, 4, 8, 0xab);
	assert_int_equal(buf[0], 0x0a);
	assert_int_equal(buf[1], 0xb0);
	assert_int_equal(prm_bits_get(buf, 4, 8), 0xab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(bits_round_trip)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
