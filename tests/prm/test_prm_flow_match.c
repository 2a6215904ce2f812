/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The flow steering match parameter: every field of fte_match_set_lyr_2_4 at its byte and bit,
 * IPv4 addresses in the low 32 bits of the 128-bit address blocks, the fte_match_param with
 * its outer headers at 0 and every other set zero, round trips and refusals. Expected bytes
 * are written out by hand from Linux mlx5_ifc.h (test_prm_flow_expect.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_flow_match.h"
#include "test_prm_flow_expect.h"

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

static void test_match_set_golden(void **state)
{
	struct prm_match_lyr_2_4 m, back;
	uint8_t buf[0x40 + 8], exp[0x40 + 8];

	(void)state;
	prm_test_fill_match(&m);
	memset(buf, 0xee, sizeof(buf));
	memset(exp, 0, 0x40);
	memset(exp + 0x40, 0xee, 8);
	prm_test_expect_match(exp, 0);
	assert_int_equal(prm_match_lyr_2_4_build(&m, buf, 0x40), DOCA_SUCCESS);
	assert_memory_equal(buf, exp, sizeof(buf));
	memset(&back, 0, sizeof(back));
	assert_int_equal(prm_match_lyr_2_4_parse(buf, 0x40, &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &m, sizeof(m));

	/* IPv4 addresses: the last 4 of the 16 bytes (ipv4_layout.ipv4 at bit 0x60). */
	prm_match_set_src_ipv4(&m, 0xc0a80001);
	prm_match_set_dst_ipv4(&m, 0x0a000002);
	assert_int_equal(prm_match_lyr_2_4_build(&m, buf, 0x40), DOCA_SUCCESS);
	for (unsigned i = 0x20; i < 0x2c; i++) {
		assert_int_equal(buf[i], 0);
		assert_int_equal(buf[i + 0x10], 0);
	}
	assert_int_equal(buf[0x2c], 0xc0);
	assert_int_equal(buf[0x2d], 0xa8);
	assert_int_equal(buf[0x2e], 0x00);
	assert_int_equal(buf[0x2f], 0x01);
	assert_int_equal(buf[0x3c], 0x0a);
	assert_int_equal(buf[0x3f], 0x02);
	assert_int_equal(prm_match_lyr_2_4_parse(buf, 0x40, &back), DOCA_SUCCESS);
	assert_int_equal(prm_match_src_ipv4(&back), 0xc0a80001);
	assert_int_equal(prm_match_dst_ipv4(&back), 0x0a000002);

	/* Refusals: values wider than their fields, short buffers, NULL. */
	m.first_vid = 0x1000;
	assert_int_equal(prm_match_lyr_2_4_build(&m, buf, 0x40), DOCA_ERROR_INVALID_VALUE);
	m.first_vid = 1;
	m.tcp_flags = 0x200;
	assert_int_equal(prm_match_lyr_2_4_build(&m, buf, 0x40), DOCA_ERROR_INVALID_VALUE);
	m.tcp_flags = 0;
	m.ip_dscp = 0x40;
	assert_int_equal(prm_match_lyr_2_4_build(&m, buf, 0x40), DOCA_ERROR_INVALID_VALUE);
	m.ip_dscp = 0;
	assert_int_equal(prm_match_lyr_2_4_build(&m, buf, 0x3f), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_match_lyr_2_4_build(NULL, buf, 0x40), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_match_lyr_2_4_parse(buf, 0x3f, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_match_lyr_2_4_parse(buf, 0x40, NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_match_param(void **state)
{
	struct prm_match_lyr_2_4 m, back;
	uint8_t buf[0x200], exp[0x200];

	(void)state;
	prm_test_fill_match(&m);
	memset(buf, 0xee, sizeof(buf));
	memset(exp, 0, sizeof(exp));
	prm_test_expect_match(exp, 0); /* outer_headers at 0; misc, inner, misc2..6 zero */
	assert_int_equal(prm_match_param_build(&m, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, exp, sizeof(buf));
	assert_true(prm_match_param_outer_only(buf, sizeof(buf)));
	assert_int_equal(prm_match_param_parse(buf, sizeof(buf), &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &m, sizeof(m));
	buf[0x40] = 1; /* misc_parameters */
	assert_false(prm_match_param_outer_only(buf, sizeof(buf)));
	buf[0x40] = 0;
	buf[0x1ff] = 1; /* the last set */
	assert_false(prm_match_param_outer_only(buf, sizeof(buf)));
	assert_false(prm_match_param_outer_only(buf, 0x1ff));
	assert_false(prm_match_param_outer_only(NULL, 0x200));
	assert_int_equal(prm_match_param_build(&m, buf, 0x1ff), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_match_param_parse(buf, 0x1ff, &back), DOCA_ERROR_INVALID_VALUE);

	/* The published offsets of the sets. */
	assert_int_equal(PRM_MATCH_MISC_OFFSET, 0x40);
	assert_int_equal(PRM_MATCH_INNER_OFFSET, 0x80);
	assert_int_equal(PRM_MATCH_MISC2_OFFSET, 0xc0);
	assert_int_equal(PRM_MATCH_MISC3_OFFSET, 0x100);
	assert_int_equal(PRM_MATCH_MISC4_OFFSET, 0x140);
	assert_int_equal(PRM_MATCH_MISC5_OFFSET, 0x180);
	assert_int_equal(prm_match_param_layout.size, 0x200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_set_golden),
		cmocka_unit_test(test_match_param),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
