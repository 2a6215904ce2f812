/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command header, out-mailbox status and its doca_error_t mapping, the names used in
 * log lines, the parameter-map helpers, and a consistency check of every field table of
 * every command (fields inside their layout, no overlaps, unique names).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_qp.h"
#include "prm/prm_cq.h"
#include "prm/prm_gid.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_flow.h"
#include "prm/prm_rmp.h"
#include "prm/prm_rq.h"
#include "prm/prm_tir.h"
#include "test_util.h"

static int quiet_logs(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

static void test_hdr_layouts(void **state)
{
	struct prm_loc loc;

	(void)state;
	assert_int_equal(prm_cmd_hdr_layout.size, 8);
	assert_int_equal(prm_cmd_out_hdr_layout.size, 8);
	assert_int_equal(prm_resolve(&prm_cmd_hdr_layout, "opcode", &loc), DOCA_SUCCESS);
	assert_int_equal(loc.bit_off, 0);
	assert_int_equal(loc.width, 16);
	assert_int_equal(prm_resolve(&prm_cmd_hdr_layout, "uid", &loc), DOCA_SUCCESS);
	assert_int_equal(loc.bit_off, 16);
	assert_int_equal(loc.width, 16);
	assert_int_equal(prm_resolve(&prm_cmd_hdr_layout, "op_mod", &loc), DOCA_SUCCESS);
	assert_int_equal(loc.bit_off, 48);
	assert_int_equal(loc.width, 16);
	assert_int_equal(prm_resolve(&prm_cmd_out_hdr_layout, "status", &loc), DOCA_SUCCESS);
	assert_int_equal(loc.bit_off, 0);
	assert_int_equal(loc.width, 8);
	assert_int_equal(prm_resolve(&prm_cmd_out_hdr_layout, "syndrome", &loc), DOCA_SUCCESS);
	assert_int_equal(loc.bit_off, 32);
	assert_int_equal(loc.width, 32);
}

static void test_in_peek(void **state)
{
	const uint8_t in[16] = {0x04, 0x00, 0x12, 0x34, 0xff, 0xff, 0x00, 0x01};
	uint16_t opcode = 0, op_mod = 0, uid = 0;

	(void)state;
	assert_int_equal(prm_cmd_in_peek(in, sizeof(in), &opcode, &op_mod, &uid), DOCA_SUCCESS);
	assert_int_equal(opcode, PRM_CMD_CREATE_CQ);
	assert_int_equal(op_mod, 1);
	assert_int_equal(uid, 0x1234);
	/* Each output is optional; 8 bytes are enough. */
	opcode = 0;
	assert_int_equal(prm_cmd_in_peek(in, 8, &opcode, NULL, NULL), DOCA_SUCCESS);
	assert_int_equal(opcode, 0x400);
	assert_int_equal(prm_cmd_in_peek(in, 7, &opcode, &op_mod, &uid), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_cmd_in_peek(NULL, 16, &opcode, &op_mod, &uid), DOCA_ERROR_INVALID_VALUE);
}

static void test_in_expect(void **state)
{
	uint8_t in[16] = {0x08, 0x01};

	(void)state;
	assert_int_equal(prm_cmd_in_expect(in, sizeof(in), &prm_dealloc_pd_in_layout, PRM_CMD_DEALLOC_PD),
			 DOCA_SUCCESS);
	assert_int_equal(prm_cmd_in_expect(in, sizeof(in), &prm_alloc_pd_in_layout, PRM_CMD_ALLOC_PD),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_cmd_in_expect(in, 15, &prm_dealloc_pd_in_layout, PRM_CMD_DEALLOC_PD),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_cmd_in_expect(NULL, 16, &prm_dealloc_pd_in_layout, PRM_CMD_DEALLOC_PD),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_cmd_in_expect(in, 16, NULL, PRM_CMD_DEALLOC_PD), DOCA_ERROR_INVALID_VALUE);
}

struct status_case {
	uint8_t status;
	doca_error_t err;
	const char *name;
};

/* The documented table, value by value (status values from the PRM / Linux device.h). */
static const struct status_case status_cases[] = {
	{0x00, DOCA_SUCCESS, "OK"},
	{0x01, DOCA_ERROR_DRIVER, "INTERNAL_ERR"},
	{0x02, DOCA_ERROR_NOT_SUPPORTED, "BAD_OP"},
	{0x03, DOCA_ERROR_INVALID_VALUE, "BAD_PARAM"},
	{0x04, DOCA_ERROR_BAD_STATE, "BAD_SYS_STATE"},
	{0x05, DOCA_ERROR_NOT_FOUND, "BAD_RESOURCE"},
	{0x06, DOCA_ERROR_IN_USE, "RESOURCE_BUSY"},
	{0x08, DOCA_ERROR_FULL, "EXCEED_LIM"},
	{0x09, DOCA_ERROR_BAD_STATE, "BAD_RES_STATE"},
	{0x0a, DOCA_ERROR_NOT_FOUND, "BAD_INDEX"},
	{0x0f, DOCA_ERROR_NO_MEMORY, "NO_RESOURCES"},
	{0x10, DOCA_ERROR_BAD_STATE, "BAD_QP_STATE"},
	{0x30, DOCA_ERROR_INVALID_VALUE, "BAD_PKT"},
	{0x40, DOCA_ERROR_INVALID_VALUE, "BAD_SIZE"},
	{0x50, DOCA_ERROR_INVALID_VALUE, "BAD_INPUT_LEN"},
	{0x51, DOCA_ERROR_INVALID_VALUE, "BAD_OUTPUT_LEN"},
	{0x07, DOCA_ERROR_UNKNOWN, "UNKNOWN_STATUS"},
	{0xff, DOCA_ERROR_UNKNOWN, "UNKNOWN_STATUS"},
};

static void test_status_mapping(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(status_cases) / sizeof(status_cases[0]); i++) {
		const struct status_case *c = &status_cases[i];
		uint8_t out[16] = {0};
		uint8_t status = 0xee;
		uint32_t syndrome = 0;

		out[0] = c->status;
		out[4] = 0x0b;
		out[5] = 0xad;
		out[6] = 0xf0;
		out[7] = (uint8_t)(0x0d + i);
		assert_int_equal(prm_cmd_out_status(out, sizeof(out), &status, &syndrome), c->err);
		assert_int_equal(status, c->status);
		assert_int_equal(syndrome, 0x0badf00du + i);
		assert_int_equal(prm_cmd_status_to_doca(c->status), c->err);
		assert_string_equal(prm_cmd_status_name(c->status), c->name);
	}
}

static void test_out_status_bad_input(void **state)
{
	uint8_t out[8] = {0x03};
	uint8_t status = 0xee;
	uint32_t syndrome = 0x1234;

	(void)state;
	assert_int_equal(prm_cmd_out_status(out, 7, &status, &syndrome), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(status, 0xee); /* untouched */
	assert_int_equal(syndrome, 0x1234);
	assert_int_equal(prm_cmd_out_status(NULL, 8, &status, &syndrome), DOCA_ERROR_INVALID_VALUE);
	/* Outputs are optional; the mapping still comes back. */
	assert_int_equal(prm_cmd_out_status(out, 8, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	out[0] = 0x00;
	assert_int_equal(prm_cmd_out_status(out, 8, NULL, NULL), DOCA_SUCCESS);
}

static void test_out_set_status(void **state)
{
	uint8_t out[24];
	uint8_t exp[24];
	uint8_t status = 0;
	uint32_t syndrome = 0;

	(void)state;
	memset(out, 0xee, sizeof(out));
	memset(exp, 0xee, sizeof(exp));
	assert_int_equal(prm_cmd_out_set_status(out, sizeof(out), PRM_STATUS_BAD_PARAM, 0x11223344), DOCA_SUCCESS);
	exp[0] = 0x03;
	exp[1] = 0x00;
	exp[2] = 0x00;
	exp[3] = 0x00;
	exp[4] = 0x11;
	exp[5] = 0x22;
	exp[6] = 0x33;
	exp[7] = 0x44;
	assert_memory_equal(out, exp, sizeof(out));
	assert_int_equal(prm_cmd_out_status(out, sizeof(out), &status, &syndrome), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(status, 0x03);
	assert_int_equal(syndrome, 0x11223344);

	memset(out, 0xee, sizeof(out));
	assert_int_equal(prm_cmd_out_set_status(out, 7, 1, 1), DOCA_ERROR_INVALID_VALUE);
	memset(exp, 0xee, sizeof(exp));
	assert_memory_equal(out, exp, sizeof(out));
	assert_int_equal(prm_cmd_out_set_status(NULL, 8, 1, 1), DOCA_ERROR_INVALID_VALUE);
}

static void test_out_check_logs_failure(void **state)
{
	uint8_t out[16] = {0};
	char log[512];

	(void)state;
	assert_int_equal(prm_cmd_out_set_status(out, sizeof(out), PRM_STATUS_BAD_PARAM, 0x12345678), DOCA_SUCCESS);
	ogda_log_set_level(OGDA_LOG_ERR);
	stderr_capture_begin();
	assert_int_equal(prm_cmd_out_check(out, sizeof(out), 16, PRM_CMD_CREATE_CQ), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(log, sizeof(log));
	ogda_log_set_level(OGDA_LOG_CRIT);
	assert_non_null(strstr(log, "CREATE_CQ failed: BAD_PARAM (syndrome 0x12345678)"));

	/* Success is silent. */
	memset(out, 0, sizeof(out));
	ogda_log_set_level(OGDA_LOG_ERR);
	stderr_capture_begin();
	assert_int_equal(prm_cmd_out_check(out, sizeof(out), 16, PRM_CMD_CREATE_CQ), DOCA_SUCCESS);
	stderr_capture_end(log, sizeof(log));
	ogda_log_set_level(OGDA_LOG_CRIT);
	assert_string_equal(log, "");

	/* Shorter than the command's output. */
	assert_int_equal(prm_cmd_out_check(out, 15, 16, PRM_CMD_CREATE_CQ), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_cmd_out_check(NULL, 16, 16, PRM_CMD_CREATE_CQ), DOCA_ERROR_INVALID_VALUE);
}

static void test_empty_out(void **state)
{
	uint8_t out[20];
	uint8_t exp[20];

	(void)state;
	memset(out, 0xee, sizeof(out));
	memset(exp, 0, 16);
	memset(exp + 16, 0xee, 4);
	assert_int_equal(prm_cmd_empty_out_build(out, sizeof(out)), DOCA_SUCCESS);
	assert_memory_equal(out, exp, sizeof(out));
	assert_int_equal(prm_cmd_empty_out_parse(out, 16, PRM_CMD_DESTROY_CQ), DOCA_SUCCESS);
	out[0] = PRM_STATUS_RESOURCE_BUSY;
	assert_int_equal(prm_cmd_empty_out_parse(out, 16, PRM_CMD_DESTROY_CQ), DOCA_ERROR_IN_USE);
	assert_int_equal(prm_cmd_empty_out_build(out, 15), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_cmd_empty_out_build(NULL, 16), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_cmd_empty_out_parse(out, 15, PRM_CMD_DESTROY_CQ), DOCA_ERROR_INVALID_VALUE);
}

static void test_opcode_names(void **state)
{
	(void)state;
	assert_string_equal(prm_cmd_opcode_name(0x100), "QUERY_HCA_CAP");
	assert_string_equal(prm_cmd_opcode_name(0x400), "CREATE_CQ");
	assert_string_equal(prm_cmd_opcode_name(0x401), "DESTROY_CQ");
	assert_string_equal(prm_cmd_opcode_name(0x402), "QUERY_CQ");
	assert_string_equal(prm_cmd_opcode_name(0x403), "MODIFY_CQ");
	assert_string_equal(prm_cmd_opcode_name(0x500), "CREATE_QP");
	assert_string_equal(prm_cmd_opcode_name(0x507), "2ERR_QP");
	assert_string_equal(prm_cmd_opcode_name(0x50a), "2RST_QP");
	assert_string_equal(prm_cmd_opcode_name(0x760), "QUERY_ROCE_ADDRESS");
	assert_string_equal(prm_cmd_opcode_name(0x764), "QUERY_HCA_VPORT_GID");
	assert_string_equal(prm_cmd_opcode_name(0x800), "ALLOC_PD");
	assert_string_equal(prm_cmd_opcode_name(0x801), "DEALLOC_PD");
	assert_string_equal(prm_cmd_opcode_name(0x802), "ALLOC_UAR");
	assert_string_equal(prm_cmd_opcode_name(0x803), "DEALLOC_UAR");
	assert_string_equal(prm_cmd_opcode_name(0x90c), "CREATE_RMP");
	assert_string_equal(prm_cmd_opcode_name(0x90d), "MODIFY_RMP");
	assert_string_equal(prm_cmd_opcode_name(0x90e), "DESTROY_RMP");
	assert_string_equal(prm_cmd_opcode_name(0x90f), "QUERY_RMP");
	assert_string_equal(prm_cmd_opcode_name(0x900), "CREATE_TIR");
	assert_string_equal(prm_cmd_opcode_name(0x902), "DESTROY_TIR");
	assert_string_equal(prm_cmd_opcode_name(0x908), "CREATE_RQ");
	assert_string_equal(prm_cmd_opcode_name(0x909), "MODIFY_RQ");
	assert_string_equal(prm_cmd_opcode_name(0x90a), "DESTROY_RQ");
	assert_string_equal(prm_cmd_opcode_name(0x90b), "QUERY_RQ");
	assert_string_equal(prm_cmd_opcode_name(0x916), "CREATE_RQT");
	assert_string_equal(prm_cmd_opcode_name(0x918), "DESTROY_RQT");
	assert_string_equal(prm_cmd_opcode_name(0x92f), "SET_FLOW_TABLE_ROOT");
	assert_string_equal(prm_cmd_opcode_name(0x930), "CREATE_FLOW_TABLE");
	assert_string_equal(prm_cmd_opcode_name(0x931), "DESTROY_FLOW_TABLE");
	assert_string_equal(prm_cmd_opcode_name(0x933), "CREATE_FLOW_GROUP");
	assert_string_equal(prm_cmd_opcode_name(0x934), "DESTROY_FLOW_GROUP");
	assert_string_equal(prm_cmd_opcode_name(0x936), "SET_FLOW_TABLE_ENTRY");
	assert_string_equal(prm_cmd_opcode_name(0x937), "QUERY_FLOW_TABLE_ENTRY");
	assert_string_equal(prm_cmd_opcode_name(0x938), "DELETE_FLOW_TABLE_ENTRY");
	assert_string_equal(prm_cmd_opcode_name(0x939), "ALLOC_FLOW_COUNTER");
	assert_string_equal(prm_cmd_opcode_name(0x93a), "DEALLOC_FLOW_COUNTER");
	assert_string_equal(prm_cmd_opcode_name(0x93b), "QUERY_FLOW_COUNTER");
	assert_string_equal(prm_cmd_opcode_name(0x999), "UNKNOWN_OPCODE");
	assert_string_equal(prm_cmd_opcode_name(0), "UNKNOWN_OPCODE");
}

/* A small layout and struct for the parameter-map helpers. */
static const struct prm_field map_fields[] = {
	PRM_BITS("f8", 0, 31, 24),
	PRM_BITS("f24", 0, 23, 0),
	PRM_DW("f32", 1),
	PRM_U64("f64", 8),
};
static const struct prm_layout map_layout = PRM_LAYOUT("map_test", 16, map_fields);

struct map_params {
	uint8_t f8;
	uint32_t f24;
	uint32_t f32;
	uint64_t f64;
};

static const struct prm_param_map map_ok[] = {
	PRM_MAP(struct map_params, f8, "f8"),
	PRM_MAP(struct map_params, f24, "f24"),
	PRM_MAP(struct map_params, f32, "f32"),
	PRM_MAP(struct map_params, f64, "f64"),
};

/* f24 read into a 1-byte member: a table defect that the reader must report. */
static const struct prm_param_map map_narrow[] = {
	PRM_MAP(struct map_params, f8, "f24"),
};

static void test_param_map(void **state)
{
	const struct map_params p = {0xa1, 0xb2c3d4, 0x01020304, 0x1122334455667788ull};
	const uint8_t exp[16] = {0xa1, 0xb2, 0xc3, 0xd4, 0x01, 0x02, 0x03, 0x04,
				 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
	struct map_params back = {0};
	struct map_params bad = p;
	uint8_t buf[16];
	struct prm_writer w;
	struct prm_reader r;

	(void)state;
	prm_writer_init(&w, &map_layout, buf, sizeof(buf));
	prm_w_map(&w, map_ok, PRM_MAP_COUNT(map_ok), &p);
	assert_int_equal(w.err, DOCA_SUCCESS);
	assert_memory_equal(buf, exp, sizeof(buf));

	prm_reader_init(&r, &map_layout, buf, sizeof(buf));
	prm_r_map(&r, map_ok, PRM_MAP_COUNT(map_ok), &back);
	assert_int_equal(r.err, DOCA_SUCCESS);
	assert_int_equal(back.f8, p.f8);
	assert_int_equal(back.f24, p.f24);
	assert_int_equal(back.f32, p.f32);
	assert_true(back.f64 == p.f64);

	/* A member value wider than its field. */
	bad.f24 = 0x1000000;
	prm_writer_init(&w, &map_layout, buf, sizeof(buf));
	prm_w_map(&w, map_ok, PRM_MAP_COUNT(map_ok), &bad);
	assert_int_equal(w.err, DOCA_ERROR_INVALID_VALUE);

	/* A field value that does not fit the member. */
	prm_reader_init(&r, &map_layout, exp, sizeof(exp));
	prm_r_map(&r, map_narrow, PRM_MAP_COUNT(map_narrow), &back);
	assert_int_equal(r.err, DOCA_ERROR_INVALID_VALUE);

	/* NULL map or parameters. */
	prm_writer_init(&w, &map_layout, buf, sizeof(buf));
	prm_w_map(&w, NULL, 1, &p);
	assert_int_equal(w.err, DOCA_ERROR_INVALID_VALUE);
	prm_reader_init(&r, &map_layout, exp, sizeof(exp));
	prm_r_map(&r, map_ok, PRM_MAP_COUNT(map_ok), NULL);
	assert_int_equal(r.err, DOCA_ERROR_INVALID_VALUE);
}

/*
 * Every field table: fields lie inside their layout, scalars are 1..64 bits, wider plain
 * fields are whole bytes, embedded layouts match their size, no two fields overlap and
 * names are unique. A typo in a table breaks one of these.
 */
static void check_layout(const struct prm_layout *l)
{
	size_t i, j;

	assert_non_null(l->name);
	assert_true(l->nfields > 0);
	for (i = 0; i < l->nfields; i++) {
		const struct prm_field *f = &l->fields[i];

		if ((uint64_t)f->bit_off + f->width > (uint64_t)l->size * 8u)
			fail_msg("%s.%s ends past the layout's %zu bytes", l->name, f->name, l->size);
		if (f->sub != NULL) {
			if (f->width != f->sub->size * 8u || (f->bit_off & 7u) != 0)
				fail_msg("%s.%s: embedded %s misplaced", l->name, f->name, f->sub->name);
			check_layout(f->sub);
		} else if (f->width == 0 || (f->width > 64 && ((f->width & 7u) != 0 || (f->bit_off & 7u) != 0))) {
			fail_msg("%s.%s has width %u", l->name, f->name, f->width);
		}
		for (j = i + 1; j < l->nfields; j++) {
			const struct prm_field *g = &l->fields[j];

			if (strcmp(f->name, g->name) == 0)
				fail_msg("%s: field %s twice", l->name, f->name);
			if (f->bit_off < g->bit_off + g->width && g->bit_off < f->bit_off + f->width)
				fail_msg("%s: %s overlaps %s", l->name, f->name, g->name);
		}
	}
}

static void test_tables_consistent(void **state)
{
	const struct prm_layout *layouts[] = {
		&prm_cmd_hdr_layout,
		&prm_cmd_out_hdr_layout,
		&prm_query_hca_cap_in_layout,
		&prm_query_hca_cap_out_general_layout,
		&prm_query_hca_cap_out_roce_layout,
		&prm_query_hca_cap_out_atomic_layout,
		&prm_query_hca_cap_out_general_2_layout,
		&prm_alloc_pd_in_layout,
		&prm_alloc_pd_out_layout,
		&prm_dealloc_pd_in_layout,
		&prm_dealloc_pd_out_layout,
		&prm_alloc_uar_in_layout,
		&prm_alloc_uar_out_layout,
		&prm_dealloc_uar_in_layout,
		&prm_dealloc_uar_out_layout,
		&prm_create_cq_in_layout,
		&prm_create_cq_out_layout,
		&prm_destroy_cq_in_layout,
		&prm_destroy_cq_out_layout,
		&prm_query_cq_in_layout,
		&prm_query_cq_out_layout,
		&prm_modify_cq_in_layout,
		&prm_modify_cq_out_layout,
		&prm_create_rmp_in_layout,
		&prm_create_rmp_out_layout,
		&prm_destroy_rmp_in_layout,
		&prm_destroy_rmp_out_layout,
		&prm_query_rmp_in_layout,
		&prm_query_rmp_out_layout,
		&prm_modify_rmp_in_layout,
		&prm_modify_rmp_out_layout,
		&prm_query_roce_address_in_layout,
		&prm_query_roce_address_out_layout,
		&prm_query_hca_vport_gid_in_layout,
		&prm_query_hca_vport_gid_out_layout,
		&prm_create_qp_in_layout,
		&prm_create_qp_out_layout,
		&prm_destroy_qp_in_layout,
		&prm_destroy_qp_out_layout,
		&prm_query_qp_in_layout,
		&prm_query_qp_out_layout,
		&prm_rst2init_qp_in_layout,
		&prm_rst2init_qp_out_layout,
		&prm_init2init_qp_in_layout,
		&prm_init2init_qp_out_layout,
		&prm_init2rtr_qp_in_layout,
		&prm_init2rtr_qp_out_layout,
		&prm_rtr2rts_qp_in_layout,
		&prm_rtr2rts_qp_out_layout,
		&prm_rts2rts_qp_in_layout,
		&prm_rts2rts_qp_out_layout,
		&prm_sqerr2rts_qp_in_layout,
		&prm_sqerr2rts_qp_out_layout,
		&prm_qp_2err_in_layout,
		&prm_qp_2err_out_layout,
		&prm_qp_2rst_in_layout,
		&prm_qp_2rst_out_layout,
		&prm_rqc_layout,
		&prm_create_rq_in_layout,
		&prm_create_rq_out_layout,
		&prm_modify_rq_in_layout,
		&prm_modify_rq_out_layout,
		&prm_destroy_rq_in_layout,
		&prm_destroy_rq_out_layout,
		&prm_query_rq_in_layout,
		&prm_query_rq_out_layout,
		&prm_rqtc_layout,
		&prm_rq_num_layout,
		&prm_create_rqt_in_layout,
		&prm_create_rqt_out_layout,
		&prm_destroy_rqt_in_layout,
		&prm_destroy_rqt_out_layout,
		&prm_rx_hash_field_select_layout,
		&prm_tirc_layout,
		&prm_create_tir_in_layout,
		&prm_create_tir_out_layout,
		&prm_destroy_tir_in_layout,
		&prm_destroy_tir_out_layout,
		&prm_match_lyr_2_4_layout,
		&prm_match_param_layout,
		&prm_flow_table_context_layout,
		&prm_create_flow_table_in_layout,
		&prm_create_flow_table_out_layout,
		&prm_destroy_flow_table_in_layout,
		&prm_destroy_flow_table_out_layout,
		&prm_set_flow_table_root_in_layout,
		&prm_set_flow_table_root_out_layout,
		&prm_create_flow_group_in_layout,
		&prm_create_flow_group_out_layout,
		&prm_destroy_flow_group_in_layout,
		&prm_destroy_flow_group_out_layout,
		&prm_flow_context_layout,
		&prm_dest_format_layout,
		&prm_flow_counter_list_layout,
		&prm_set_fte_in_layout,
		&prm_set_fte_out_layout,
		&prm_delete_fte_in_layout,
		&prm_delete_fte_out_layout,
		&prm_query_fte_in_layout,
		&prm_query_fte_out_layout,
		&prm_alloc_flow_counter_in_layout,
		&prm_alloc_flow_counter_out_layout,
		&prm_dealloc_flow_counter_in_layout,
		&prm_dealloc_flow_counter_out_layout,
		&prm_query_flow_counter_in_layout,
		&prm_query_flow_counter_out_layout,
		&prm_traffic_counter_layout,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		check_layout(layouts[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdr_layouts),
		cmocka_unit_test(test_in_peek),
		cmocka_unit_test(test_in_expect),
		cmocka_unit_test(test_status_mapping),
		cmocka_unit_test(test_out_status_bad_input),
		cmocka_unit_test(test_out_set_status),
		cmocka_unit_test(test_out_check_logs_failure),
		cmocka_unit_test(test_empty_out),
		cmocka_unit_test(test_opcode_names),
		cmocka_unit_test(test_param_map),
		cmocka_unit_test(test_tables_consistent),
	};

	return cmocka_run_group_tests(tests, quiet_logs, NULL);
}
