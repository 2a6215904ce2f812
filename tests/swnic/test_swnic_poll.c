/* SPDX-License-Identifier: BSD-3-Clause */
/* OPENGDA_SWNIC_POLL / OPENGDA_SWNIC_POLL_SPIN_US: parsing and the idle policy of each mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <unistd.h>

#include "swnic/swnic_poll.h"

/* Reads the knobs as set to mode and spin_us (NULL: unset). */
static struct swnic_poll_cfg read_with(const char *mode, const char *spin_us)
{
	struct swnic_poll_cfg c;

	if (mode != NULL)
		setenv(SWNIC_ENV_POLL, mode, 1);
	else
		unsetenv(SWNIC_ENV_POLL);
	if (spin_us != NULL)
		setenv(SWNIC_ENV_POLL_SPIN_US, spin_us, 1);
	else
		unsetenv(SWNIC_ENV_POLL_SPIN_US);
	swnic_poll_cfg_read(&c);
	return c;
}

static void default_is_adaptive_50us(void **state)
{
	struct swnic_poll_cfg c = read_with(NULL, NULL);

	(void)state;
	assert_int_equal(c.mode, SWNIC_POLL_ADAPTIVE);
	assert_int_equal(c.spin_ns, 50000);
	assert_int_equal(swnic_poll_idle_step(&c, 0), SWNIC_IDLE_SPIN);
	assert_int_equal(swnic_poll_idle_step(&c, 60000), SWNIC_IDLE_YIELD);
	assert_int_equal(swnic_poll_idle_step(&c, SWNIC_POLL_YIELD_NS), SWNIC_IDLE_SLEEP);
}

static void sleep_mode_skips_the_yield_phase(void **state)
{
	struct swnic_poll_cfg c = read_with("sleep", "5");

	(void)state;
	assert_int_equal(c.mode, SWNIC_POLL_SLEEP);
	assert_int_equal(c.spin_ns, 5000);
	assert_int_equal(swnic_poll_idle_step(&c, 4000), SWNIC_IDLE_SPIN);
	assert_int_equal(swnic_poll_idle_step(&c, 6000), SWNIC_IDLE_SLEEP);
	c = read_with("sleep", "0");
	assert_int_equal(swnic_poll_idle_step(&c, 0), SWNIC_IDLE_SLEEP);
}

static void spin_mode_never_sleeps(void **state)
{
	struct swnic_poll_cfg c = read_with("spin", NULL);

	(void)state;
	assert_int_equal(c.mode, SWNIC_POLL_SPIN);
	assert_int_equal(swnic_poll_idle_step(&c, 10ull * 1000000000ull), SWNIC_IDLE_SPIN);
}

static void bad_values_fall_back_to_defaults(void **state)
{
	struct swnic_poll_cfg c = read_with("busy", "-1");

	(void)state;
	assert_int_equal(c.mode, SWNIC_POLL_ADAPTIVE);
	assert_int_equal(c.spin_ns, 50000);
	(void)read_with(NULL, NULL);
}

/* Woken waiters on a small machine sleep at once by default; any explicit setting wins. */
static void woken_waiters_follow_the_cpu_count(void **state)
{
	struct swnic_poll_cfg c;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	(void)state;
	unsetenv(SWNIC_ENV_POLL);
	unsetenv(SWNIC_ENV_POLL_SPIN_US);
	swnic_poll_cfg_read_woken(&c);
	if (cpus <= SWNIC_POLL_SMALL_CPUS) {
		assert_int_equal(c.mode, SWNIC_POLL_SLEEP);
		assert_int_equal(c.spin_ns, 0);
	} else {
		assert_int_equal(c.mode, SWNIC_POLL_ADAPTIVE);
		assert_int_equal(c.spin_ns, 50000);
	}
	setenv(SWNIC_ENV_POLL_SPIN_US, "7", 1);
	swnic_poll_cfg_read_woken(&c);
	assert_int_equal(c.mode, SWNIC_POLL_ADAPTIVE);
	assert_int_equal(c.spin_ns, 7000);
	unsetenv(SWNIC_ENV_POLL_SPIN_US);
	setenv(SWNIC_ENV_POLL, "spin", 1);
	swnic_poll_cfg_read_woken(&c);
	assert_int_equal(c.mode, SWNIC_POLL_SPIN);
	unsetenv(SWNIC_ENV_POLL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_is_adaptive_50us),
		cmocka_unit_test(sleep_mode_skips_the_yield_phase),
		cmocka_unit_test(spin_mode_never_sleeps),
		cmocka_unit_test(bad_values_fall_back_to_defaults),
		cmocka_unit_test(woken_waiters_follow_the_cpu_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
