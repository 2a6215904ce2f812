/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP commands: round trips (params -> bytes -> params), layouts by name, and rejection of
 * bad input. Golden byte images are in test_prm_qp_golden.c.
 */
#include "test_prm_qp_expect.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define LONG_SIZE 0x110u
#define SHORT_SIZE 0x10u
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const uint16_t modify_opcodes[] = {
	PRM_CMD_RST2INIT_QP, PRM_CMD_INIT2INIT_QP, PRM_CMD_INIT2RTR_QP, PRM_CMD_RTR2RTS_QP,
	PRM_CMD_RTS2RTS_QP, PRM_CMD_SQERR2RTS_QP, PRM_CMD_2ERR_QP, PRM_CMD_2RST_QP,
};

/* Deterministic pseudo-random values so that every field holds something distinctive. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Random value per field, masked to the field's width; never zero so a dropped field shows. */
static void qpc_fill_random(struct prm_qpc_params *qpc)
{
	size_t i;

	memset(qpc, 0, sizeof(*qpc));
	for (i = 0; i < qp_expect_qpc_count; i++) {
		const struct qp_expect *e = &qp_expect_qpc[i];
		uint8_t bytes[16];
		uint64_t v = next_rand() & qp_expect_ones(e);
		size_t k;

		for (k = 0; k < sizeof(bytes); k++)
			bytes[k] = (uint8_t)(next_rand() | 1u);
		qpc_member_store(qpc, e, v == 0 ? 1 : v, bytes);
	}
}

/* Library path names -> test table entries ("rmac_47_32" and "rmac_31_0" are one "rmac" entry). */
static const struct qp_expect *expect_for_lib_path(const char *path)
{
	static const char *const suffixes[] = {".rmac_47_32", ".rmac_31_0"};
	char name[96];
	size_t i, n = strlen(path);

	for (i = 0; i < NELEM(suffixes); i++) {
		size_t s = strlen(suffixes[i]);

		if (n > s && strcmp(path + n - s, suffixes[i]) == 0 && n - s + 6 < sizeof(name)) {
			memcpy(name, path, n - s);
			memcpy(name + n - s, ".rmac", 6);
			return qp_expect_find(name);
		}
	}
	return qp_expect_find(path);
}

/* Expected parse result: only the fields of the command's set survive a round trip. */
static void qpc_project(struct prm_qpc_params *dst, const struct prm_qpc_params *src, uint16_t opcode)
{
	const struct prm_qpc_field_set *set = NULL;
	size_t i;

	memset(dst, 0, sizeof(*dst));
	assert_int_equal(prm_qp_cmd_qpc_fields(opcode, &set), DOCA_SUCCESS);
	for (i = 0; i < set->npaths; i++) {
		const struct qp_expect *e = expect_for_lib_path(set->paths[i]);

		assert_non_null(e);
		qpc_member_copy(dst, src, e);
	}
}

static void assert_qpc_equal(const struct prm_qpc_params *got, const struct prm_qpc_params *want)
{
	size_t i;

	for (i = 0; i < qp_expect_qpc_count; i++) {
		const struct qp_expect *e = &qp_expect_qpc[i];

		if (memcmp((const uint8_t *)got + e->off, (const uint8_t *)want + e->off, e->size) != 0) {
			print_error("qpc.%s differs\n", e->path);
			fail();
		}
	}
	/* Both sides were zeroed first, so padding matches too. */
	assert_memory_equal(got, want, sizeof(*got));
}

/* ---- Coverage of the test table itself --------------------------------------------------------- */

/* The hand-written table covers every modelled field, so the golden tests miss none. */
static void test_expect_table_covers_all_fields(void **state)
{
	size_t i, mac_halves = 0;

	(void)state;
	for (i = 0; i < prm_qpc_fields_all.npaths; i++) {
		const char *path = prm_qpc_fields_all.paths[i];

		if (expect_for_lib_path(path) == NULL) {
			print_error("no expectation for qpc.%s\n", path);
			fail();
		}
		if (strstr(path, ".rmac_") != NULL)
			mac_halves++;
	}
	assert_int_equal(mac_halves, 4);
	assert_int_equal(prm_qpc_fields_all.npaths, qp_expect_qpc_count + 2);
}

/* ---- Layouts by name --------------------------------------------------------------------------- */

static void assert_loc(const struct prm_layout *l, const char *path, uint32_t byte_bit, uint32_t width)
{
	struct prm_loc loc;

	assert_int_equal(prm_resolve(l, path, &loc), DOCA_SUCCESS);
	assert_int_equal(loc.bit_off, byte_bit);
	assert_int_equal(loc.width, width);
}

static void test_layouts_by_name(void **state)
{
	(void)state;
	assert_int_equal(prm_ads_layout.size, 0x2c);
	assert_int_equal(prm_qpc_layout.size, 0xe8);
	assert_int_equal(prm_create_qp_in_layout.size, 272);
	assert_int_equal(prm_query_qp_out_layout.size, 272);
	assert_int_equal(prm_init2rtr_qp_in_layout.size, 272);
	assert_int_equal(prm_qp_2err_in_layout.size, 16);
	assert_int_equal(prm_create_qp_out_layout.size, 16);
	/* Bit offsets from the MSB of byte 0: byte * 8 + (31 - hi) within the dword's first byte. */
	assert_loc(&prm_create_qp_in_layout, "qpc.log_sq_size", 0x20 * 8 + 31 - 14, 4);
	assert_loc(&prm_create_qp_in_layout, "qpc.dbr_umem_id", 0xfc * 8, 32);
	assert_loc(&prm_create_qp_in_layout, "wq_umem_offset", 0x100 * 8, 64);
	assert_loc(&prm_create_qp_in_layout, "wq_umem_valid", 0x10c * 8, 1);
	assert_loc(&prm_rtr2rts_qp_in_layout, "qpc.primary_address_path.ack_timeout", 0x38 * 8, 5);
	assert_loc(&prm_init2rtr_qp_in_layout, "qpc.primary_address_path.udp_sport", 0x52 * 8, 16);
	assert_loc(&prm_init2rtr_qp_in_layout, "qpc.secondary_address_path.rlid", 0x62 * 8, 16);
	assert_loc(&prm_rst2init_qp_in_layout, "qpc.cd_master", 0xab * 8 + 7, 1);
	assert_loc(&prm_query_qp_out_layout, "qpc.state", 0x18 * 8, 4);
	assert_loc(&prm_qp_2rst_in_layout, "qpn", 0x08 * 8 + 8, 24);
	assert_loc(&prm_create_qp_out_layout, "qpn", 0x08 * 8 + 8, 24);
}

static void test_layout_for_opcode(void **state)
{
	(void)state;
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_CREATE_QP, false), &prm_create_qp_in_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_CREATE_QP, true), &prm_create_qp_out_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_DESTROY_QP, false), &prm_destroy_qp_in_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_QUERY_QP, true), &prm_query_qp_out_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_RST2INIT_QP, false), &prm_rst2init_qp_in_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_INIT2INIT_QP, false), &prm_init2init_qp_in_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_INIT2RTR_QP, false), &prm_init2rtr_qp_in_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_RTR2RTS_QP, true), &prm_rtr2rts_qp_out_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_RTS2RTS_QP, false), &prm_rts2rts_qp_in_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_SQERR2RTS_QP, false), &prm_sqerr2rts_qp_in_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_2ERR_QP, false), &prm_qp_2err_in_layout);
	assert_ptr_equal(prm_qp_layout_for_opcode(PRM_CMD_2RST_QP, true), &prm_qp_2rst_out_layout);
	assert_null(prm_qp_layout_for_opcode(PRM_CMD_CREATE_CQ, false));
	assert_null(prm_qp_layout_for_opcode(PRM_CMD_SQD_RTS_QP, false));
	assert_null(prm_qp_layout_for_opcode(0xffff, true));

	assert_true(prm_qp_is_modify_opcode(PRM_CMD_RST2INIT_QP));
	assert_true(prm_qp_is_modify_opcode(PRM_CMD_2RST_QP));
	assert_false(prm_qp_is_modify_opcode(PRM_CMD_CREATE_QP));
	assert_false(prm_qp_is_modify_opcode(PRM_CMD_QUERY_QP));
	assert_false(prm_qp_is_modify_opcode(0));
}

static void test_enums(void **state)
{
	(void)state;
	assert_int_equal(PRM_QP_OPTPAR_RRE, 0x2);
	assert_int_equal(PRM_QP_OPTPAR_RAE, 0x4);
	assert_int_equal(PRM_QP_OPTPAR_RWE, 0x8);
	assert_int_equal(PRM_QP_OPTPAR_PKEY_INDEX, 0x10);
	assert_int_equal(PRM_QP_OPTPAR_Q_KEY, 0x20);
	assert_int_equal(PRM_QP_OPTPAR_RNR_TIMEOUT, 0x40);
	assert_int_equal(PRM_QP_OPTPAR_PRIMARY_ADDR_PATH, 0x80);
	assert_int_equal(PRM_QP_OPTPAR_SRA_MAX, 0x100);
	assert_int_equal(PRM_QP_OPTPAR_RRA_MAX, 0x200);
	assert_int_equal(PRM_QP_OPTPAR_PM_STATE, 0x400);
	assert_int_equal(PRM_QP_OPTPAR_RETRY_COUNT, 0x1000);
	assert_int_equal(PRM_QP_OPTPAR_RNR_RETRY, 0x2000);
	assert_int_equal(PRM_QP_OPTPAR_ACK_TIMEOUT, 0x4000);
	assert_int_equal(PRM_QP_OPTPAR_COUNTER_SET_ID, 1 << 25);
	assert_int_equal(PRM_QP_ST_RC, 0);
	assert_int_equal(PRM_QP_ST_UD, 2);
	assert_int_equal(PRM_QP_ST_DCI, 5);
	assert_int_equal(PRM_QP_STATE_RTS, 3);
	assert_int_equal(PRM_QP_STATE_ERR, 6);
	assert_int_equal(PRM_QP_STATE_SQD, 7);
	assert_int_equal(PRM_QP_RQ_ZERO_LEN, 3);
	assert_int_equal(PRM_QP_MTU_256, 1);
	assert_int_equal(PRM_QP_MTU_4096, 5);
	assert_int_equal(PRM_QP_ATOMIC_MODE_UP_TO_8B, 3);
}

/* ---- Round trips --------------------------------------------------------------------------------- */

static void test_roundtrip_create_qp(void **state)
{
	struct prm_create_qp_params in, out;
	struct prm_qpc_params want_qpc;
	uint8_t buf[LONG_SIZE];
	int rep;

	(void)state;
	for (rep = 0; rep < 8; rep++) {
		memset(&in, 0, sizeof(in));
		in.uid = (uint16_t)next_rand();
		in.opt_param_mask = (uint32_t)next_rand();
		qpc_fill_random(&in.qpc);
		in.wq_umem_offset = next_rand();
		in.wq_umem_id = (uint32_t)next_rand();
		in.wq_umem_valid = 1;
		assert_int_equal(prm_create_qp_in_build(&in, buf, sizeof(buf)), DOCA_SUCCESS);
		assert_int_equal(prm_create_qp_in_parse(buf, sizeof(buf), &out), DOCA_SUCCESS);
		assert_int_equal(out.uid, in.uid);
		assert_int_equal(out.opt_param_mask, in.opt_param_mask);
		assert_int_equal(out.wq_umem_offset, in.wq_umem_offset);
		assert_int_equal(out.wq_umem_id, in.wq_umem_id);
		assert_int_equal(out.wq_umem_valid, 1);
		qpc_project(&want_qpc, &in.qpc, PRM_CMD_CREATE_QP);
		assert_qpc_equal(&out.qpc, &want_qpc);
	}
}

static void test_roundtrip_create_qp_out(void **state)
{
	uint8_t buf[SHORT_SIZE], status = 0xaa;
	uint32_t qpn = 0, syndrome = 0;

	(void)state;
	assert_int_equal(prm_create_qp_out_build(0, 0x11223344, 0x00c0ffee & 0xffffff, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_create_qp_out_parse(buf, sizeof(buf), &qpn), DOCA_SUCCESS);
	assert_int_equal(qpn, 0xc0ffee);
	assert_int_equal(prm_qp_status_out_parse(PRM_CMD_CREATE_QP, buf, sizeof(buf), &status, &syndrome),
			 DOCA_SUCCESS);
	assert_int_equal(status, 0);
	assert_int_equal(syndrome, 0x11223344);
}

/* Out parsers look at the status first: a failed command yields its mapped error, no payload. */
static void test_out_parsers_check_status(void **state)
{
	struct prm_qpc_params qpc, before;
	uint8_t buf[LONG_SIZE];
	uint32_t qpn = 0x4242;

	(void)state;
	assert_int_equal(prm_create_qp_out_build(PRM_STATUS_BAD_PARAM, 0x77, 0x123, buf, SHORT_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_create_qp_out_parse(buf, SHORT_SIZE, &qpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(qpn, 0x4242);
	assert_int_equal(prm_create_qp_out_build(PRM_STATUS_NO_RESOURCES, 0x77, 0x123, buf, SHORT_SIZE),
			 DOCA_SUCCESS);
	assert_int_equal(prm_create_qp_out_parse(buf, SHORT_SIZE, &qpn), DOCA_ERROR_NO_MEMORY);
	assert_int_equal(qpn, 0x4242);

	memset(&qpc, 0, sizeof(qpc));
	qpc.state = PRM_QP_STATE_RTS;
	memset(&before, 0x66, sizeof(before));
	memcpy(&qpc, &before, sizeof(qpc));
	assert_int_equal(prm_qp_status_out_build(PRM_CMD_QUERY_QP, PRM_STATUS_BAD_RESOURCE, 9, buf, sizeof(buf)),
			 DOCA_SUCCESS);
	assert_int_equal(prm_query_qp_out_parse(buf, sizeof(buf), &qpc), DOCA_ERROR_NOT_FOUND);
	assert_memory_equal(&qpc, &before, sizeof(qpc));
}

static void test_roundtrip_destroy_query_in(void **state)
{
	uint8_t buf[SHORT_SIZE];
	uint16_t uid = 0;
	uint32_t qpn = 0;

	(void)state;
	assert_int_equal(prm_destroy_qp_in_build(0xbeef, 0x345678, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_destroy_qp_in_parse(buf, sizeof(buf), &uid, &qpn), DOCA_SUCCESS);
	assert_int_equal(uid, 0xbeef);
	assert_int_equal(qpn, 0x345678);
	assert_int_equal(prm_query_qp_in_build(0x1234, 0xfedcba, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_query_qp_in_parse(buf, sizeof(buf), &uid, &qpn), DOCA_SUCCESS);
	assert_int_equal(uid, 0x1234);
	assert_int_equal(qpn, 0xfedcba);
}

static void test_roundtrip_query_qp_out(void **state)
{
	struct prm_qpc_params in, out;
	uint8_t buf[LONG_SIZE], status = 0xaa;
	uint32_t syndrome = 1;
	int rep;

	(void)state;
	for (rep = 0; rep < 8; rep++) {
		qpc_fill_random(&in);
		assert_int_equal(prm_query_qp_out_build(0, 0, &in, buf, sizeof(buf)), DOCA_SUCCESS);
		assert_int_equal(prm_query_qp_out_parse(buf, sizeof(buf), &out), DOCA_SUCCESS);
		assert_qpc_equal(&out, &in); /* QUERY_QP carries every modelled field */
		assert_int_equal(prm_qp_status_out_parse(PRM_CMD_QUERY_QP, buf, sizeof(buf), &status, &syndrome),
				 DOCA_SUCCESS);
		assert_int_equal(status, 0);
		assert_int_equal(syndrome, 0);
	}
}

static void test_roundtrip_modify(void **state)
{
	uint8_t buf[LONG_SIZE];
	size_t t;

	(void)state;
	for (t = 0; t < NELEM(modify_opcodes); t++) {
		struct prm_modify_qp_params in, out;
		struct prm_qpc_params want_qpc;
		bool has_qpc = modify_opcodes[t] != PRM_CMD_2ERR_QP && modify_opcodes[t] != PRM_CMD_2RST_QP;

		memset(&in, 0, sizeof(in));
		in.opcode = modify_opcodes[t];
		in.uid = (uint16_t)next_rand();
		in.qpn = (uint32_t)next_rand() & 0xffffff;
		in.opt_param_mask = has_qpc ? (uint32_t)next_rand() : 0;
		qpc_fill_random(&in.qpc);
		assert_int_equal(prm_modify_qp_in_build(&in, buf, sizeof(buf)), DOCA_SUCCESS);
		memset(&out, 0x77, sizeof(out));
		assert_int_equal(prm_modify_qp_in_parse(buf, sizeof(buf), &out), DOCA_SUCCESS);
		assert_int_equal(out.opcode, in.opcode);
		assert_int_equal(out.uid, in.uid);
		assert_int_equal(out.qpn, in.qpn);
		assert_int_equal(out.opt_param_mask, in.opt_param_mask);
		qpc_project(&want_qpc, &in.qpc, in.opcode);
		assert_qpc_equal(&out.qpc, &want_qpc);
	}
}

static void test_roundtrip_status_out(void **state)
{
	uint8_t buf[LONG_SIZE], status = 0;
	uint32_t syndrome = 0;
	size_t t;

	(void)state;
	for (t = 0; t < NELEM(modify_opcodes); t++) {
		assert_int_equal(prm_qp_status_out_build(modify_opcodes[t], PRM_STATUS_BAD_QP_STATE, 0x5eed, buf,
							 sizeof(buf)), DOCA_SUCCESS);
		assert_int_equal(prm_qp_status_out_parse(modify_opcodes[t], buf, SHORT_SIZE, &status, &syndrome),
				 DOCA_SUCCESS);
		assert_int_equal(status, PRM_STATUS_BAD_QP_STATE);
		assert_int_equal(syndrome, 0x5eed);
	}
}

/* ---- Field sets ------------------------------------------------------------------------------------ */

static void test_cmd_qpc_fields(void **state)
{
	const struct prm_qpc_field_set *set = NULL;

	(void)state;
	assert_int_equal(prm_qp_cmd_qpc_fields(PRM_CMD_QUERY_QP, &set), DOCA_SUCCESS);
	assert_ptr_equal(set, &prm_qpc_fields_all);
	assert_int_equal(prm_qp_cmd_qpc_fields(PRM_CMD_RTR2RTS_QP, &set), DOCA_SUCCESS);
	assert_int_equal(set->npaths, 6);
	assert_int_equal(prm_qp_cmd_qpc_fields(PRM_CMD_2ERR_QP, &set), DOCA_SUCCESS);
	assert_int_equal(set->npaths, 0);
	assert_int_equal(prm_qp_cmd_qpc_fields(PRM_CMD_DESTROY_QP, &set), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_qp_cmd_qpc_fields(0x123, &set), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_qp_cmd_qpc_fields(PRM_CMD_CREATE_QP, NULL), DOCA_ERROR_INVALID_VALUE);
}

/* ---- Bad input ------------------------------------------------------------------------------------- */

static void test_null_pointers(void **state)
{
	struct prm_create_qp_params cp;
	struct prm_modify_qp_params mp;
	struct prm_qpc_params qpc;
	uint8_t buf[LONG_SIZE], status;
	uint16_t uid;
	uint32_t qpn, syndrome;

	(void)state;
	memset(&cp, 0, sizeof(cp));
	memset(&mp, 0, sizeof(mp));
	memset(&qpc, 0, sizeof(qpc));
	mp.opcode = PRM_CMD_RST2INIT_QP;
	assert_int_equal(prm_create_qp_in_build(NULL, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_qp_in_build(&cp, NULL, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_qp_in_parse(NULL, sizeof(buf), &cp), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_qp_in_parse(buf, sizeof(buf), NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_qp_out_build(0, 0, 1, NULL, SHORT_SIZE), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_qp_out_parse(NULL, SHORT_SIZE, &qpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_qp_out_parse(buf, SHORT_SIZE, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_qp_in_build(0, 1, NULL, SHORT_SIZE), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_qp_in_parse(NULL, SHORT_SIZE, &uid, &qpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_qp_in_parse(buf, SHORT_SIZE, NULL, &qpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_qp_in_parse(buf, SHORT_SIZE, &uid, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_in_build(0, 1, NULL, SHORT_SIZE), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_in_parse(NULL, SHORT_SIZE, &uid, &qpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_out_build(0, 0, NULL, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_out_build(0, 0, &qpc, NULL, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_out_parse(NULL, sizeof(buf), &qpc), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_out_parse(buf, sizeof(buf), NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_modify_qp_in_build(NULL, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_modify_qp_in_build(&mp, NULL, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_modify_qp_in_parse(NULL, sizeof(buf), &mp), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_modify_qp_in_parse(buf, sizeof(buf), NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_qp_status_out_build(PRM_CMD_DESTROY_QP, 0, 0, NULL, SHORT_SIZE), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_qp_status_out_parse(PRM_CMD_DESTROY_QP, NULL, SHORT_SIZE, &status, &syndrome),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_qp_status_out_parse(PRM_CMD_DESTROY_QP, buf, SHORT_SIZE, NULL, &syndrome),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_qp_status_out_parse(PRM_CMD_DESTROY_QP, buf, SHORT_SIZE, &status, NULL),
			 DOCA_ERROR_INVALID_VALUE);
}

static void test_short_buffers(void **state)
{
	struct prm_create_qp_params cp;
	struct prm_modify_qp_params mp;
	struct prm_qpc_params qpc;
	uint8_t buf[LONG_SIZE], status;
	uint16_t uid;
	uint32_t qpn, syndrome;
	size_t t;

	(void)state;
	memset(&cp, 0, sizeof(cp));
	memset(&qpc, 0, sizeof(qpc));
	assert_int_equal(prm_create_qp_in_build(&cp, buf, LONG_SIZE - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_qp_in_build(&cp, buf, LONG_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_create_qp_in_parse(buf, LONG_SIZE - 1, &cp), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_qp_out_build(0, 0, 1, buf, SHORT_SIZE - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_qp_out_parse(buf, SHORT_SIZE - 1, &qpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_qp_in_build(0, 1, buf, SHORT_SIZE - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_qp_in_build(0, 1, buf, SHORT_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_destroy_qp_in_parse(buf, SHORT_SIZE - 1, &uid, &qpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_in_build(0, 1, buf, SHORT_SIZE - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_in_build(0, 1, buf, SHORT_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_query_qp_in_parse(buf, SHORT_SIZE - 1, &uid, &qpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_out_build(0, 0, &qpc, buf, LONG_SIZE - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_out_build(0, 0, &qpc, buf, LONG_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_query_qp_out_parse(buf, LONG_SIZE - 1, &qpc), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_qp_status_out_build(PRM_CMD_QUERY_QP, 1, 2, buf, LONG_SIZE - 1),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_qp_status_out_parse(PRM_CMD_QUERY_QP, buf, LONG_SIZE - 1, &status, &syndrome),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_qp_status_out_parse(PRM_CMD_DESTROY_QP, buf, SHORT_SIZE - 1, &status, &syndrome),
			 DOCA_ERROR_INVALID_VALUE);
	for (t = 0; t < NELEM(modify_opcodes); t++) {
		size_t need = prm_qp_layout_for_opcode(modify_opcodes[t], false)->size;

		memset(&mp, 0, sizeof(mp));
		mp.opcode = modify_opcodes[t];
		assert_int_equal(prm_modify_qp_in_build(&mp, buf, need - 1), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(prm_modify_qp_in_build(&mp, buf, need), DOCA_SUCCESS);
		assert_int_equal(prm_modify_qp_in_parse(buf, need - 1, &mp), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(prm_modify_qp_in_parse(buf, need, &mp), DOCA_SUCCESS);
	}
	assert_int_equal(prm_modify_qp_in_parse(buf, 1, &mp), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_modify_qp_in_parse(buf, 0, &mp), DOCA_ERROR_INVALID_VALUE);
}

static void assert_zero(const uint8_t *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (buf[i] != 0) {
			print_error("byte 0x%zx left at 0x%02x after a failed build\n", i, buf[i]);
			fail();
		}
}

/* Each field one past its width: rejected, and the failed image is left all zero. */
static void test_value_too_wide(void **state)
{
	static const uint8_t zero16[16] = {0};
	uint8_t buf[LONG_SIZE];
	size_t i, checked = 0;

	(void)state;
	for (i = 0; i < qp_expect_qpc_count; i++) {
		const struct qp_expect *e = &qp_expect_qpc[i];
		struct prm_qpc_params qpc;

		if (e->kind == QP_EXPECT_BYTES || qp_expect_width(e) >= e->size * 8u)
			continue;
		memset(&qpc, 0, sizeof(qpc));
		qpc_member_store(&qpc, e, 1ull << qp_expect_width(e), zero16);
		memset(buf, 0x5a, sizeof(buf));
		if (prm_query_qp_out_build(0, 0, &qpc, buf, sizeof(buf)) != DOCA_ERROR_INVALID_VALUE) {
			print_error("qpc.%s accepted a value one bit too wide\n", e->path);
			fail();
		}
		assert_zero(buf, sizeof(buf));
		checked++;
	}
	assert_true(checked > 60);

	/* An out-of-range value: log_sq_size = 16 in a 4-bit field, through CREATE_QP. */
	{
		struct prm_create_qp_params p;

		memset(&p, 0, sizeof(p));
		p.qpc.log_sq_size = 16;
		assert_int_equal(prm_create_qp_in_build(&p, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
		p.qpc.log_sq_size = 15;
		p.wq_umem_valid = 2;
		assert_int_equal(prm_create_qp_in_build(&p, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	}
	assert_int_equal(prm_create_qp_out_build(0, 0, 0x1000000, buf, SHORT_SIZE), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_qp_in_build(0, 0x1000000, buf, SHORT_SIZE), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_in_build(0, 0x1000000, buf, SHORT_SIZE), DOCA_ERROR_INVALID_VALUE);
	{
		struct prm_modify_qp_params mp;

		memset(&mp, 0, sizeof(mp));
		mp.opcode = PRM_CMD_RTR2RTS_QP;
		mp.qpc.retry_count = 8; /* 3 bits */
		assert_int_equal(prm_modify_qp_in_build(&mp, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
		mp.qpc.retry_count = 7;
		mp.qpn = 0x1000000;
		assert_int_equal(prm_modify_qp_in_build(&mp, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
		/* A too-wide field outside the transition's set is not carried, so not checked. */
		mp.qpn = 1;
		mp.qpc.log_sq_size = 16;
		assert_int_equal(prm_modify_qp_in_build(&mp, buf, sizeof(buf)), DOCA_SUCCESS);
	}
}

static void test_unknown_field_path(void **state)
{
	uint8_t buf[LONG_SIZE];
	uint64_t v;

	(void)state;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(prm_set(&prm_create_qp_in_layout, buf, sizeof(buf), "qpc.no_such_field", 1),
			 DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_set(&prm_init2rtr_qp_in_layout, buf, sizeof(buf), "qpc.primary_address_path.bogus", 1),
			 DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_get(&prm_query_qp_out_layout, buf, sizeof(buf), "qpc.tertiary_address_path.rlid", &v),
			 DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_set(&prm_destroy_qp_in_layout, buf, SHORT_SIZE, "qpc", 1), DOCA_ERROR_NOT_FOUND);
	/* An embedded layout as a whole is not a scalar. */
	assert_int_equal(prm_set(&prm_create_qp_in_layout, buf, sizeof(buf), "qpc.primary_address_path", 1),
			 DOCA_ERROR_INVALID_VALUE);
	/* And the named paths do work. */
	assert_int_equal(prm_set(&prm_create_qp_in_layout, buf, sizeof(buf), "qpc.log_sq_size", 16),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_set(&prm_create_qp_in_layout, buf, sizeof(buf), "qpc.log_sq_size", 15), DOCA_SUCCESS);
	assert_int_equal(buf[0x22], 0x78);
	assert_int_equal(prm_get(&prm_create_qp_in_layout, buf, sizeof(buf), "qpc.log_sq_size", &v), DOCA_SUCCESS);
	assert_int_equal(v, 15);
}

static void test_wrong_opcode_to_parser(void **state)
{
	struct prm_create_qp_params cp, cp_before;
	struct prm_modify_qp_params mp, mp_before;
	uint8_t buf[LONG_SIZE];
	uint16_t uid = 0x1111;
	uint32_t qpn = 0x2222;

	(void)state;
	memset(&cp, 0x33, sizeof(cp));
	memcpy(&cp_before, &cp, sizeof(cp));
	memset(&mp, 0x44, sizeof(mp));
	memcpy(&mp_before, &mp, sizeof(mp));

	/* A destroy image to the create, query and modify parsers. */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(prm_destroy_qp_in_build(1, 2, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_create_qp_in_parse(buf, sizeof(buf), &cp), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_qp_in_parse(buf, sizeof(buf), &uid, &qpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_modify_qp_in_parse(buf, sizeof(buf), &mp), DOCA_ERROR_INVALID_VALUE);
	/* A create image to the modify and destroy parsers. */
	{
		struct prm_create_qp_params zero;

		memset(&zero, 0, sizeof(zero));
		assert_int_equal(prm_create_qp_in_build(&zero, buf, sizeof(buf)), DOCA_SUCCESS);
	}
	assert_int_equal(prm_modify_qp_in_parse(buf, sizeof(buf), &mp), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_qp_in_parse(buf, sizeof(buf), &uid, &qpn), DOCA_ERROR_INVALID_VALUE);
	/* A query image to the destroy parser. */
	assert_int_equal(prm_query_qp_in_build(1, 2, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_destroy_qp_in_parse(buf, sizeof(buf), &uid, &qpn), DOCA_ERROR_INVALID_VALUE);
	/* An unknown opcode. */
	memset(buf, 0, sizeof(buf));
	buf[0] = 0x09;
	buf[1] = 0x99;
	assert_int_equal(prm_modify_qp_in_parse(buf, sizeof(buf), &mp), DOCA_ERROR_INVALID_VALUE);

	/* Outputs are untouched by a failed parse. */
	assert_int_equal(uid, 0x1111);
	assert_int_equal(qpn, 0x2222);
	assert_memory_equal(&mp, &mp_before, sizeof(mp));
	assert_memory_equal(&cp, &cp_before, sizeof(cp));
}

static void test_non_modify_opcode_to_modify_build(void **state)
{
	static const uint16_t bad[] = {PRM_CMD_CREATE_QP, PRM_CMD_DESTROY_QP, PRM_CMD_QUERY_QP,
				       PRM_CMD_SQD_RTS_QP, PRM_CMD_CREATE_CQ, 0, 0xffff};
	struct prm_modify_qp_params mp;
	uint8_t buf[LONG_SIZE];
	size_t i;

	(void)state;
	memset(&mp, 0, sizeof(mp));
	for (i = 0; i < NELEM(bad); i++) {
		mp.opcode = bad[i];
		assert_int_equal(prm_modify_qp_in_build(&mp, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	}
	/* 2ERR/2RST have nowhere to put an opt_param_mask. */
	mp.opcode = PRM_CMD_2ERR_QP;
	mp.opt_param_mask = PRM_QP_OPTPAR_RRE;
	assert_int_equal(prm_modify_qp_in_build(&mp, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
	/* Status outs know only QP commands. */
	assert_int_equal(prm_qp_status_out_build(PRM_CMD_CREATE_CQ, 0, 0, buf, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expect_table_covers_all_fields),
		cmocka_unit_test(test_layouts_by_name),
		cmocka_unit_test(test_layout_for_opcode),
		cmocka_unit_test(test_enums),
		cmocka_unit_test(test_roundtrip_create_qp),
		cmocka_unit_test(test_roundtrip_create_qp_out),
		cmocka_unit_test(test_out_parsers_check_status),
		cmocka_unit_test(test_roundtrip_destroy_query_in),
		cmocka_unit_test(test_roundtrip_query_qp_out),
		cmocka_unit_test(test_roundtrip_modify),
		cmocka_unit_test(test_roundtrip_status_out),
		cmocka_unit_test(test_cmd_qpc_fields),
		cmocka_unit_test(test_null_pointers),
		cmocka_unit_test(test_short_buffers),
		cmocka_unit_test(test_value_too_wide),
		cmocka_unit_test(test_unknown_field_path),
		cmocka_unit_test(test_wrong_opcode_to_parser),
		cmocka_unit_test(test_non_modify_opcode_to_modify_build),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
