/* SPDX-License-Identifier: BSD-3-Clause */
/* ALLOC/DEALLOC_PD and ALLOC/DEALLOC_UAR: exact bytes, round trips, bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_pd_uar.h"

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

static void test_ins_golden(void **state)
{
	const uint8_t alloc_pd[16] = {0x08, 0x00, 0x00, 0x07};
	const uint8_t dealloc_pd[16] = {0x08, 0x01, 0x12, 0x34, 0, 0, 0, 0, 0x00, 0x12, 0x34, 0x56};
	const uint8_t alloc_uar[16] = {0x08, 0x02, 0xff, 0xff};
	const uint8_t dealloc_uar[16] = {0x08, 0x03, 0x00, 0x00, 0, 0, 0, 0, 0x00, 0xab, 0xcd, 0xef};
	uint8_t in[20];
	uint8_t tail[4];

	(void)state;
	memset(tail, 0xee, sizeof(tail));
	memset(in, 0xee, sizeof(in));
	assert_int_equal(prm_alloc_pd_in_build(0x0007, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, alloc_pd, 16);
	assert_memory_equal(in + 16, tail, 4); /* nothing past the 16-byte mailbox */
	assert_int_equal(prm_dealloc_pd_in_build(0x1234, 0x123456, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, dealloc_pd, 16);
	assert_int_equal(prm_alloc_uar_in_build(0xffff, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, alloc_uar, 16);
	assert_int_equal(prm_dealloc_uar_in_build(0, 0xabcdef, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, dealloc_uar, 16);
	assert_memory_equal(in + 16, tail, 4);
}

static void test_outs_golden(void **state)
{
	uint8_t exp[16] = {0};
	uint8_t out[16];

	(void)state;
	memset(out, 0xee, sizeof(out));
	assert_int_equal(prm_alloc_pd_out_build(0xabcdef, out, sizeof(out)), DOCA_SUCCESS);
	exp[9] = 0xab;
	exp[10] = 0xcd;
	exp[11] = 0xef;
	assert_memory_equal(out, exp, sizeof(out));

	memset(out, 0xee, sizeof(out));
	assert_int_equal(prm_alloc_uar_out_build(0x000102, out, sizeof(out)), DOCA_SUCCESS);
	memset(exp, 0, sizeof(exp));
	exp[10] = 0x01;
	exp[11] = 0x02;
	assert_memory_equal(out, exp, sizeof(out));

	memset(out, 0xee, sizeof(out));
	assert_int_equal(prm_dealloc_pd_out_build(out, sizeof(out)), DOCA_SUCCESS);
	memset(exp, 0, sizeof(exp));
	assert_memory_equal(out, exp, sizeof(out));
	memset(out, 0xee, sizeof(out));
	assert_int_equal(prm_dealloc_uar_out_build(out, sizeof(out)), DOCA_SUCCESS);
	assert_memory_equal(out, exp, sizeof(out));
}

static void test_round_trips(void **state)
{
	uint8_t buf[16];
	uint16_t uid = 0;
	uint32_t obj = 0;

	(void)state;
	assert_int_equal(prm_alloc_pd_in_build(0x4321, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_pd_in_parse(buf, sizeof(buf), &uid), DOCA_SUCCESS);
	assert_int_equal(uid, 0x4321);
	assert_int_equal(prm_dealloc_pd_in_build(0x0102, 0xfedcba, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_dealloc_pd_in_parse(buf, sizeof(buf), &uid, &obj), DOCA_SUCCESS);
	assert_int_equal(uid, 0x0102);
	assert_int_equal(obj, 0xfedcba);
	assert_int_equal(prm_alloc_uar_in_build(0x0a0b, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_uar_in_parse(buf, sizeof(buf), &uid), DOCA_SUCCESS);
	assert_int_equal(uid, 0x0a0b);
	assert_int_equal(prm_dealloc_uar_in_build(0x0c0d, 0x000777, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_dealloc_uar_in_parse(buf, sizeof(buf), &uid, &obj), DOCA_SUCCESS);
	assert_int_equal(uid, 0x0c0d);
	assert_int_equal(obj, 0x000777);

	assert_int_equal(prm_alloc_pd_out_build(0x00ffff, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_pd_out_parse(buf, sizeof(buf), &obj), DOCA_SUCCESS);
	assert_int_equal(obj, 0x00ffff);
	assert_int_equal(prm_alloc_uar_out_build(0xffffff, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_uar_out_parse(buf, sizeof(buf), &obj), DOCA_SUCCESS);
	assert_int_equal(obj, 0xffffff);
	assert_int_equal(prm_dealloc_pd_out_build(buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_dealloc_pd_out_parse(buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_dealloc_uar_out_build(buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_dealloc_uar_out_parse(buf, sizeof(buf)), DOCA_SUCCESS);
}

static void test_bad_input(void **state)
{
	uint8_t buf[16];
	uint16_t uid = 0x5555;
	uint32_t obj = 0x5555;

	(void)state;
	/* Too wide, short, NULL. */
	assert_int_equal(prm_dealloc_pd_in_build(0, 0x1000000, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_alloc_pd_out_build(0x1000000, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_alloc_pd_in_build(0, buf, 15), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_alloc_pd_in_build(0, NULL, 16), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_alloc_uar_out_build(1, buf, 15), DOCA_ERROR_INVALID_VALUE);

	/* Wrong opcode to a parser: an ALLOC_PD in read as DEALLOC_PD or ALLOC_UAR. */
	assert_int_equal(prm_alloc_pd_in_build(1, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_dealloc_pd_in_parse(buf, sizeof(buf), &uid, &obj), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_alloc_uar_in_parse(buf, sizeof(buf), &uid), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(uid, 0x5555);
	assert_int_equal(obj, 0x5555);
	assert_int_equal(prm_alloc_pd_in_parse(buf, 15, &uid), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_alloc_pd_in_parse(buf, sizeof(buf), NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_dealloc_uar_in_parse(buf, sizeof(buf), &uid, NULL), DOCA_ERROR_INVALID_VALUE);

	/* A failed command: the mapped error, outputs untouched. */
	assert_int_equal(prm_alloc_pd_out_build(0x123, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_cmd_out_set_status(buf, sizeof(buf), PRM_STATUS_EXCEED_LIM, 7), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_pd_out_parse(buf, sizeof(buf), &obj), DOCA_ERROR_FULL);
	assert_int_equal(obj, 0x5555);
	assert_int_equal(prm_cmd_out_set_status(buf, sizeof(buf), PRM_STATUS_NO_RESOURCES, 7), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_uar_out_parse(buf, sizeof(buf), &obj), DOCA_ERROR_NO_MEMORY);
	assert_int_equal(prm_cmd_out_set_status(buf, sizeof(buf), PRM_STATUS_BAD_RESOURCE, 7), DOCA_SUCCESS);
	assert_int_equal(prm_dealloc_pd_out_parse(buf, sizeof(buf)), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_cmd_out_set_status(buf, sizeof(buf), PRM_STATUS_RESOURCE_BUSY, 7), DOCA_SUCCESS);
	assert_int_equal(prm_dealloc_uar_out_parse(buf, sizeof(buf)), DOCA_ERROR_IN_USE);
	assert_int_equal(prm_alloc_pd_out_parse(buf, 15, &obj), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_alloc_pd_out_parse(buf, sizeof(buf), NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(obj, 0x5555);
}

/* ALLOC / DEALLOC_TRANSPORT_DOMAIN: opcodes 0x816 / 0x817, the domain at dw2 [23:0]. */
static void test_transport_domain(void **state)
{
	uint8_t b[PRM_PD_UAR_CMD_SIZE], exp[PRM_PD_UAR_CMD_SIZE];
	uint32_t td = 0;
	uint16_t uid = 0;

	(void)state;
	memset(exp, 0, sizeof(exp));
	exp[0] = 0x08, exp[1] = 0x16, exp[3] = 0x05;
	assert_int_equal(prm_alloc_td_in_build(5, b, sizeof(b)), DOCA_SUCCESS);
	assert_memory_equal(b, exp, sizeof(b));
	assert_int_equal(prm_alloc_td_in_parse(b, sizeof(b), &uid), DOCA_SUCCESS);
	assert_int_equal(uid, 5);
	exp[1] = 0x17, exp[3] = 0, exp[9] = 0xab, exp[10] = 0xcd, exp[11] = 0xef;
	assert_int_equal(prm_dealloc_td_in_build(0, 0xabcdef, b, sizeof(b)), DOCA_SUCCESS);
	assert_memory_equal(b, exp, sizeof(b));
	assert_int_equal(prm_dealloc_td_in_parse(b, sizeof(b), &uid, &td), DOCA_SUCCESS);
	assert_int_equal(td, 0xabcdef);
	assert_int_equal(prm_alloc_td_out_build(0x123456, b, sizeof(b)), DOCA_SUCCESS);
	assert_int_equal(b[0], 0);
	assert_int_equal(b[9], 0x12);
	assert_int_equal(prm_alloc_td_out_parse(b, sizeof(b), &td), DOCA_SUCCESS);
	assert_int_equal(td, 0x123456);
	assert_int_equal(prm_dealloc_td_in_build(0, 0x1000000, b, sizeof(b)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_alloc_td_in_parse(b, 4, &uid), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ins_golden),
		cmocka_unit_test(test_outs_golden),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_transport_domain),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
