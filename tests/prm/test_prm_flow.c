/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NIC RX flow steering commands: CREATE/DESTROY_FLOW_TABLE, SET_FLOW_TABLE_ROOT, CREATE/DESTROY_FLOW_GROUP,
 * SET/DELETE/QUERY_FLOW_TABLE_ENTRY with their destination and counter lists, and the flow
 * counter commands: every field at its byte, round trips, refusals. Expected bytes are
 * written out by hand from Linux mlx5_ifc.h (the structs named in each test). The match
 * parameter itself is test_prm_flow_match.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_flow.h"
#include "test_prm_flow_expect.h"

#define SMALL 0x10u
#define FLOW_IN 0x40u           /* create/destroy_flow_table_in, set_flow_table_root_in, ... */
#define FG_IN 0x400u            /* create_flow_group_in */
#define FTE_FIXED 0x340u        /* set_fte_in before the destination list */

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

static void test_flow_table_golden(void **state)
{
	struct prm_create_flow_table_params p, back;
	struct prm_flow_table_ref ref, rback;
	struct prm_set_flow_table_root_params root, roback;
	uint8_t in[FLOW_IN + 8], exp[FLOW_IN + 8];
	uint32_t id = 0;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.uid = 0x0a0b;
	p.table_type = PRM_FLOW_TABLE_NIC_TX;
	p.ctx.table_miss_action = PRM_FLOW_TABLE_MISS_GOTO_TBL;
	p.ctx.level = 0x3c;
	p.ctx.log_size = 0x10;
	p.ctx.table_miss_id = 0xabcdef;
	memset(in, 0xee, sizeof(in));
	memset(exp, 0, FLOW_IN);
	memset(exp + FLOW_IN, 0xee, 8);
	exp[0x00] = 0x09; /* CREATE_FLOW_TABLE 0x930 */
	exp[0x01] = 0x30;
	exp[0x02] = 0x0a;
	exp[0x03] = 0x0b;
	exp[0x10] = 0x01; /* table_type dw4 [31:24] */
	/* flow_table_context at 0x18: table_miss_action [27:24], level [23:16], log_size [7:0] */
	exp[0x18] = 0x01;
	exp[0x19] = 0x3c;
	exp[0x1b] = 0x10;
	exp[0x1d] = 0xab; /* table_miss_id ctx dw1 [23:0] */
	exp[0x1e] = 0xcd;
	exp[0x1f] = 0xef;
	assert_int_equal(prm_create_flow_table_in_build(&p, in, FLOW_IN), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	memset(&back, 0, sizeof(back));
	assert_int_equal(prm_create_flow_table_in_parse(in, FLOW_IN, &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &p, sizeof(p));
	p.ctx.table_miss_action = 0x10;
	assert_int_equal(prm_create_flow_table_in_build(&p, in, FLOW_IN), DOCA_ERROR_INVALID_VALUE);
	p.ctx.table_miss_action = 0;
	assert_int_equal(prm_create_flow_table_in_build(&p, in, FLOW_IN - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_flow_table_in_parse(in, FLOW_IN - 1, &back), DOCA_ERROR_INVALID_VALUE);

	/* create_flow_table_out table_id dw2 [23:0] */
	assert_int_equal(prm_create_flow_table_out_build(0x123456, in, SMALL), DOCA_SUCCESS);
	assert_int_equal(in[0], 0);
	assert_int_equal(in[9], 0x12);
	assert_int_equal(in[10], 0x34);
	assert_int_equal(in[11], 0x56);
	assert_int_equal(prm_create_flow_table_out_parse(in, SMALL, &id), DOCA_SUCCESS);
	assert_int_equal(id, 0x123456);

	/* DESTROY_FLOW_TABLE: table_type dw4 [31:24], table_id dw5 [23:0] */
	memset(&ref, 0, sizeof(ref));
	ref.uid = 0x0c0d;
	ref.table_type = PRM_FLOW_TABLE_FDB;
	ref.table_id = 0x654321;
	memset(exp, 0, FLOW_IN);
	exp[0x00] = 0x09;
	exp[0x01] = 0x31;
	exp[0x02] = 0x0c;
	exp[0x03] = 0x0d;
	exp[0x10] = 0x04;
	exp[0x15] = 0x65;
	exp[0x16] = 0x43;
	exp[0x17] = 0x21;
	memset(in, 0xee, sizeof(in));
	assert_int_equal(prm_destroy_flow_table_in_build(&ref, in, FLOW_IN), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	memset(&rback, 0, sizeof(rback));
	assert_int_equal(prm_destroy_flow_table_in_parse(in, FLOW_IN, &rback), DOCA_SUCCESS);
	assert_memory_equal(&rback, &ref, sizeof(ref));
	assert_int_equal(prm_create_flow_table_in_parse(in, FLOW_IN, &back), DOCA_ERROR_INVALID_VALUE);

	/* SET_FLOW_TABLE_ROOT: op_mod dw1 [15:0], table_type, table_id, underlay_qpn dw6 [23:0] */
	memset(&root, 0, sizeof(root));
	root.uid = 0x0e0f;
	root.op_mod = 1;
	root.table_type = PRM_FLOW_TABLE_NIC_RX;
	root.table_id = 0x0a0b0c;
	root.underlay_qpn = 0x102030;
	memset(exp, 0, FLOW_IN);
	exp[0x00] = 0x09;
	exp[0x01] = 0x2f;
	exp[0x02] = 0x0e;
	exp[0x03] = 0x0f;
	exp[0x07] = 0x01;
	exp[0x15] = 0x0a;
	exp[0x16] = 0x0b;
	exp[0x17] = 0x0c;
	exp[0x19] = 0x10;
	exp[0x1a] = 0x20;
	exp[0x1b] = 0x30;
	memset(in, 0xee, sizeof(in));
	assert_int_equal(prm_set_flow_table_root_in_build(&root, in, FLOW_IN), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	memset(&roback, 0, sizeof(roback));
	assert_int_equal(prm_set_flow_table_root_in_parse(in, FLOW_IN, &roback), DOCA_SUCCESS);
	assert_memory_equal(&roback, &root, sizeof(root));
	root.table_id = 0x1000000;
	assert_int_equal(prm_set_flow_table_root_in_build(&root, in, FLOW_IN), DOCA_ERROR_INVALID_VALUE);
}

static void test_flow_group_golden(void **state)
{
	struct prm_create_flow_group_params *p = calloc(1, sizeof(*p)), *back = calloc(1, sizeof(*back));
	struct prm_destroy_flow_group_params d, dback;
	uint8_t *in = malloc(FG_IN + 8), *exp = calloc(1, FG_IN + 8);
	uint32_t id = 0;

	(void)state;
	assert_non_null(p);
	assert_non_null(back);
	assert_non_null(in);
	assert_non_null(exp);
	p->uid = 0x1112;
	p->table_type = PRM_FLOW_TABLE_SNIFFER_RX;
	p->table_id = 0x131415;
	p->start_flow_index = 0x16171819;
	p->end_flow_index = 0x1a1b1c1d;
	p->match_criteria_enable = 0x7f;
	prm_test_fill_match(&p->match_criteria);
	memset(in, 0xee, FG_IN + 8);
	memset(exp + FG_IN, 0xee, 8);
	exp[0x00] = 0x09; /* CREATE_FLOW_GROUP 0x933 */
	exp[0x01] = 0x33;
	exp[0x02] = 0x11;
	exp[0x03] = 0x12;
	exp[0x10] = 0x05; /* table_type dw4 [31:24] */
	exp[0x15] = 0x13; /* table_id dw5 [23:0] */
	exp[0x16] = 0x14;
	exp[0x17] = 0x15;
	exp[0x1c] = 0x16; /* start_flow_index dw7 */
	exp[0x1d] = 0x17;
	exp[0x1e] = 0x18;
	exp[0x1f] = 0x19;
	exp[0x24] = 0x1a; /* end_flow_index dw9 */
	exp[0x25] = 0x1b;
	exp[0x26] = 0x1c;
	exp[0x27] = 0x1d;
	exp[0x3f] = 0x7f; /* match_criteria_enable dw15 [7:0] */
	prm_test_expect_match(exp, 0x40); /* match_criteria.outer_headers at bit 0x200 */
	assert_int_equal(prm_create_flow_group_in_build(p, in, FG_IN), DOCA_SUCCESS);
	assert_memory_equal(in, exp, FG_IN + 8);
	assert_int_equal(prm_create_flow_group_in_parse(in, FG_IN, back), DOCA_SUCCESS);
	assert_memory_equal(back, p, sizeof(*p));
	assert_true(prm_match_param_outer_only(in + 0x40, 0x200));

	/* Refusals. */
	assert_int_equal(prm_create_flow_group_in_build(p, in, FG_IN - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_flow_group_in_parse(in, FG_IN - 1, back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_flow_group_in_build(NULL, in, FG_IN), DOCA_ERROR_INVALID_VALUE);
	p->match_criteria.ip_version = 0x10;
	assert_int_equal(prm_create_flow_group_in_build(p, in, FG_IN), DOCA_ERROR_INVALID_VALUE);
	p->match_criteria.ip_version = 4;
	p->table_id = 0x1000000;
	assert_int_equal(prm_create_flow_group_in_build(p, in, FG_IN), DOCA_ERROR_INVALID_VALUE);

	/* create_flow_group_out group_id dw2 [23:0] */
	assert_int_equal(prm_create_flow_group_out_build(0x00beef, in, SMALL), DOCA_SUCCESS);
	assert_int_equal(in[10], 0xbe);
	assert_int_equal(in[11], 0xef);
	assert_int_equal(prm_create_flow_group_out_parse(in, SMALL, &id), DOCA_SUCCESS);
	assert_int_equal(id, 0xbeef);

	/* DESTROY_FLOW_GROUP: table_type, table_id, group_id dw6 */
	memset(&d, 0, sizeof(d));
	d.uid = 0x2122;
	d.table_type = PRM_FLOW_TABLE_NIC_TX;
	d.table_id = 0x232425;
	d.group_id = 0x26272829;
	memset(exp, 0, FLOW_IN);
	exp[0x00] = 0x09;
	exp[0x01] = 0x34;
	exp[0x02] = 0x21;
	exp[0x03] = 0x22;
	exp[0x10] = 0x01;
	exp[0x15] = 0x23;
	exp[0x16] = 0x24;
	exp[0x17] = 0x25;
	exp[0x18] = 0x26;
	exp[0x19] = 0x27;
	exp[0x1a] = 0x28;
	exp[0x1b] = 0x29;
	assert_int_equal(prm_destroy_flow_group_in_build(&d, in, FLOW_IN), DOCA_SUCCESS);
	assert_memory_equal(in, exp, FLOW_IN);
	memset(&dback, 0, sizeof(dback));
	assert_int_equal(prm_destroy_flow_group_in_parse(in, FLOW_IN, &dback), DOCA_SUCCESS);
	assert_memory_equal(&dback, &d, sizeof(d));
	free(p);
	free(back);
	free(in);
	free(exp);
}

static void fill_fte(struct prm_set_fte_params *p)
{
	memset(p, 0, sizeof(*p));
	p->uid = 0x3132;
	p->op_mod = PRM_SET_FTE_OP_MOD_MODIFY;
	p->table_type = PRM_FLOW_TABLE_ESW_INGRESS_ACL;
	p->table_id = 0x333435;
	p->ignore_flow_level = 1;
	p->modify_enable_mask = PRM_SET_FTE_MODIFY_ACTION | PRM_SET_FTE_MODIFY_FLOW_TAG |
				PRM_SET_FTE_MODIFY_DESTINATION_LIST | PRM_SET_FTE_MODIFY_FLOW_COUNTERS;
	p->flow_index = 0x01020304;
	p->ctx.group_id = 0x0a0b0c0d;
	p->ctx.flow_tag = 0xfedcba;
	p->ctx.action = PRM_FLOW_ACTION_ALLOW | PRM_FLOW_ACTION_DROP | PRM_FLOW_ACTION_FWD_DEST | PRM_FLOW_ACTION_COUNT;
	p->ctx.destination_list_size = 2;
	p->ctx.flow_counter_list_size = 1;
	prm_test_fill_match(&p->ctx.match_value);
	p->ctx.dest[0].type = PRM_FLOW_DEST_TIR;
	p->ctx.dest[0].id = 0x111213;
	p->ctx.dest[1].type = PRM_FLOW_DEST_FLOW_TABLE;
	p->ctx.dest[1].id = 0x212223;
	p->ctx.counter_id[0] = 0x31323334;
}

/* The flow context of fill_fte() and its list, at base. */
static void expect_flow_context(uint8_t *exp, size_t base)
{
	uint8_t *e = exp + base;

	e[0x04] = 0x0a; /* group_id dw1 */
	e[0x05] = 0x0b;
	e[0x06] = 0x0c;
	e[0x07] = 0x0d;
	e[0x09] = 0xfe; /* flow_tag dw2 [23:0] */
	e[0x0a] = 0xdc;
	e[0x0b] = 0xba;
	e[0x0f] = 0x0f; /* action dw3 [15:0]: ALLOW 1 | DROP 2 | FWD_DEST 4 | COUNT 8 */
	e[0x13] = 0x02; /* destination_list_size dw4 [23:0] */
	e[0x17] = 0x01; /* flow_counter_list_size dw5 [23:0] */
	prm_test_expect_match(exp, base + 0x40); /* match_value at bit 0x200 */
	e[0x300] = 0x02; /* destination[0]: destination_type [31:24] = TIR, destination_id [23:0] */
	e[0x301] = 0x11;
	e[0x302] = 0x12;
	e[0x303] = 0x13;
	e[0x308] = 0x01; /* destination[1]: FLOW_TABLE */
	e[0x309] = 0x21;
	e[0x30a] = 0x22;
	e[0x30b] = 0x23;
	e[0x310] = 0x31; /* then the counter: flow_counter_list.flow_counter_id dw0 */
	e[0x311] = 0x32;
	e[0x312] = 0x33;
	e[0x313] = 0x34;
}

static void test_set_fte_golden(void **state)
{
	struct prm_set_fte_params *p = calloc(1, sizeof(*p)), *back = calloc(1, sizeof(*back));
	size_t len = 0x358;
	uint8_t *in = malloc(len + 8), *exp = calloc(1, len + 8);

	(void)state;
	assert_non_null(p);
	assert_non_null(back);
	assert_non_null(in);
	assert_non_null(exp);
	assert_int_equal(prm_set_fte_in_size(2, 1), 0x358);
	assert_int_equal(prm_set_fte_in_size(0, 0), 0x340);
	assert_int_equal(prm_set_fte_in_size(8, 4), 0x3a0);
	assert_int_equal(prm_set_fte_in_size(9, 0), 0);
	assert_int_equal(prm_set_fte_in_size(0, 5), 0);
	fill_fte(p);
	memset(in, 0xee, len + 8);
	memset(exp + len, 0xee, 8);
	exp[0x00] = 0x09; /* SET_FLOW_TABLE_ENTRY 0x936 */
	exp[0x01] = 0x36;
	exp[0x02] = 0x31;
	exp[0x03] = 0x32;
	exp[0x07] = 0x01; /* op_mod dw1 [15:0] */
	exp[0x10] = 0x03; /* table_type dw4 [31:24] */
	exp[0x15] = 0x33; /* table_id dw5 [23:0] */
	exp[0x16] = 0x34;
	exp[0x17] = 0x35;
	exp[0x18] = 0x80; /* ignore_flow_level dw6 [31] */
	exp[0x1b] = 0x0f; /* modify_enable_mask dw6 [7:0] */
	exp[0x20] = 0x01; /* flow_index dw8 */
	exp[0x21] = 0x02;
	exp[0x22] = 0x03;
	exp[0x23] = 0x04;
	expect_flow_context(exp, 0x40); /* flow_context at bit 0x200 */
	assert_int_equal(prm_set_fte_in_build(p, in, len), DOCA_SUCCESS);
	assert_memory_equal(in, exp, len + 8);
	assert_int_equal(prm_set_fte_in_parse(in, len, back), DOCA_SUCCESS);
	assert_memory_equal(back, p, sizeof(*p));
	free(p);
	free(back);
	free(in);
	free(exp);
}

static void test_set_fte_lists(void **state)
{
	struct prm_set_fte_params *p = calloc(1, sizeof(*p)), *back = calloc(1, sizeof(*back));
	size_t len = 0x3a0;
	uint8_t *in = calloc(1, len + 16);
	uint32_t i;

	(void)state;
	assert_non_null(p);
	assert_non_null(back);
	assert_non_null(in);
	fill_fte(p);
	p->ctx.destination_list_size = PRM_FTE_MAX_DESTS;
	p->ctx.flow_counter_list_size = PRM_FTE_MAX_COUNTERS;
	for (i = 0; i < PRM_FTE_MAX_DESTS; i++) {
		p->ctx.dest[i].type = PRM_FLOW_DEST_TIR;
		p->ctx.dest[i].id = 0x100 + i;
	}
	for (i = 0; i < PRM_FTE_MAX_COUNTERS; i++)
		p->ctx.counter_id[i] = 0xc0000000u + i;
	assert_int_equal(prm_set_fte_in_build(p, in, len), DOCA_SUCCESS);
	/* The last destination at 0x340 + 7 * 8, the last counter at 0x340 + 11 * 8. */
	assert_int_equal(in[0x378], 0x02);
	assert_int_equal(in[0x37b], 0x07);
	assert_int_equal(in[0x398], 0xc0);
	assert_int_equal(in[0x39b], 0x03);
	assert_int_equal(prm_set_fte_in_parse(in, len, back), DOCA_SUCCESS);
	assert_memory_equal(back, p, sizeof(*p));

	/* Lists longer than the parameters hold, buffers shorter than the lists. */
	assert_int_equal(prm_set_fte_in_build(p, in, len - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_set_fte_in_parse(in, len - 1, back), DOCA_ERROR_INVALID_VALUE);
	p->ctx.destination_list_size = PRM_FTE_MAX_DESTS + 1;
	assert_int_equal(prm_set_fte_in_build(p, in, len + 16), DOCA_ERROR_INVALID_VALUE);
	p->ctx.destination_list_size = 0;
	p->ctx.flow_counter_list_size = PRM_FTE_MAX_COUNTERS + 1;
	assert_int_equal(prm_set_fte_in_build(p, in, len + 16), DOCA_ERROR_INVALID_VALUE);
	in[0x53] = PRM_FTE_MAX_DESTS + 1; /* destination_list_size in the mailbox */
	assert_int_equal(prm_set_fte_in_parse(in, len + 16, back), DOCA_ERROR_INVALID_VALUE);
	in[0x53] = PRM_FTE_MAX_DESTS;
	in[0x50] = 0x80; /* extended_destination: 16-byte entries */
	assert_int_equal(prm_set_fte_in_parse(in, len, back), DOCA_ERROR_INVALID_VALUE);
	in[0x50] = 0x00;
	assert_int_equal(prm_set_fte_in_parse(in, len, back), DOCA_SUCCESS);

	/* Values wider than their fields; NULL; wrong opcode. */
	fill_fte(p);
	p->ctx.flow_tag = 0x1000000;
	assert_int_equal(prm_set_fte_in_build(p, in, len), DOCA_ERROR_INVALID_VALUE);
	p->ctx.flow_tag = 1;
	p->ctx.dest[1].id = 0x1000000;
	assert_int_equal(prm_set_fte_in_build(p, in, len), DOCA_ERROR_INVALID_VALUE);
	p->ctx.dest[1].id = 1;
	p->ctx.match_value.udp_sport = 0; /* fine */
	p->table_id = 0x1000000;
	assert_int_equal(prm_set_fte_in_build(p, in, len), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_set_fte_in_build(NULL, in, len), DOCA_ERROR_INVALID_VALUE);
	p->table_id = 1;
	assert_int_equal(prm_set_fte_in_build(p, in, len), DOCA_SUCCESS);
	in[1] = 0x38; /* DELETE_FLOW_TABLE_ENTRY */
	assert_int_equal(prm_set_fte_in_parse(in, len, back), DOCA_ERROR_INVALID_VALUE);
	free(p);
	free(back);
	free(in);
}

static void test_fte_delete_query(void **state)
{
	struct prm_set_fte_params *p = calloc(1, sizeof(*p));
	struct prm_flow_context_params *ctx = calloc(1, sizeof(*ctx));
	struct prm_fte_ref ref, back;
	size_t len = 0x358;
	uint8_t *out = malloc(len), *exp = calloc(1, len);
	uint8_t in[FLOW_IN], e[FLOW_IN];

	(void)state;
	assert_non_null(p);
	assert_non_null(ctx);
	assert_non_null(out);
	assert_non_null(exp);
	memset(&ref, 0, sizeof(ref));
	ref.uid = 0x4142;
	ref.table_type = PRM_FLOW_TABLE_NIC_TX;
	ref.table_id = 0x434445;
	ref.flow_index = 0x46474849;
	memset(e, 0, sizeof(e));
	e[0x00] = 0x09; /* DELETE_FLOW_TABLE_ENTRY 0x938 */
	e[0x01] = 0x38;
	e[0x02] = 0x41;
	e[0x03] = 0x42;
	e[0x10] = 0x01; /* table_type dw4 [31:24] */
	e[0x15] = 0x43; /* table_id dw5 [23:0] */
	e[0x16] = 0x44;
	e[0x17] = 0x45;
	e[0x20] = 0x46; /* flow_index dw8 */
	e[0x21] = 0x47;
	e[0x22] = 0x48;
	e[0x23] = 0x49;
	memset(in, 0xee, sizeof(in));
	assert_int_equal(prm_delete_fte_in_build(&ref, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, e, sizeof(in));
	memset(&back, 0, sizeof(back));
	assert_int_equal(prm_delete_fte_in_parse(in, sizeof(in), &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &ref, sizeof(ref));
	assert_int_equal(prm_query_fte_in_parse(in, sizeof(in), &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_delete_fte_in_build(&ref, in, FLOW_IN - 1), DOCA_ERROR_INVALID_VALUE);

	e[0x01] = 0x37; /* QUERY_FLOW_TABLE_ENTRY 0x937: the same fields */
	assert_int_equal(prm_query_fte_in_build(&ref, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, e, sizeof(in));
	assert_int_equal(prm_query_fte_in_parse(in, sizeof(in), &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &ref, sizeof(ref));

	/* query_fte_out: the flow context at bit 0x200 after the out header. */
	fill_fte(p);
	expect_flow_context(exp, 0x40);
	memset(out, 0xee, len);
	assert_int_equal(prm_query_fte_out_build(&p->ctx, out, len), DOCA_SUCCESS);
	assert_memory_equal(out, exp, len);
	assert_int_equal(prm_query_fte_out_parse(out, len, ctx), DOCA_SUCCESS);
	assert_memory_equal(ctx, &p->ctx, sizeof(*ctx));
	assert_int_equal(prm_query_fte_out_build(&p->ctx, out, len - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_fte_out_parse(out, len - 1, ctx), DOCA_ERROR_INVALID_VALUE);
	out[0] = PRM_STATUS_BAD_INDEX;
	assert_int_equal(prm_query_fte_out_parse(out, len, ctx), DOCA_ERROR_NOT_FOUND);
	free(p);
	free(ctx);
	free(out);
	free(exp);
}

static void test_flow_counters(void **state)
{
	struct prm_query_flow_counter_params q, qback;
	struct prm_traffic_counter c[2], cback[2];
	uint8_t b[0x30 + 8], e[0x30 + 8];
	uint32_t id = 0;
	uint16_t uid = 0;
	uint8_t bulk = 0;
	unsigned i;

	(void)state;
	/* ALLOC_FLOW_COUNTER in: flow_counter_bulk dw3 [7:0]; out: flow_counter_id dw2 */
	assert_int_equal(prm_alloc_flow_counter_in_build(0x5152, 0x53, b, SMALL), DOCA_SUCCESS);
	memset(e, 0, SMALL);
	e[0x00] = 0x09;
	e[0x01] = 0x39;
	e[0x02] = 0x51;
	e[0x03] = 0x52;
	e[0x0f] = 0x53;
	assert_memory_equal(b, e, SMALL);
	assert_int_equal(prm_alloc_flow_counter_in_parse(b, SMALL, &uid, &bulk), DOCA_SUCCESS);
	assert_int_equal(uid, 0x5152);
	assert_int_equal(bulk, 0x53);
	assert_int_equal(prm_alloc_flow_counter_in_parse(b, SMALL - 1, &uid, &bulk), DOCA_ERROR_INVALID_VALUE);
	memset(b, 0xee, SMALL);
	assert_int_equal(prm_alloc_flow_counter_out_build(0x89abcdef, b, SMALL), DOCA_SUCCESS);
	memset(e, 0, SMALL);
	e[0x08] = 0x89;
	e[0x09] = 0xab;
	e[0x0a] = 0xcd;
	e[0x0b] = 0xef;
	assert_memory_equal(b, e, SMALL);
	assert_int_equal(prm_alloc_flow_counter_out_parse(b, SMALL, &id), DOCA_SUCCESS);
	assert_int_equal(id, 0x89abcdef);

	/* DEALLOC_FLOW_COUNTER: flow_counter_id dw2 */
	assert_int_equal(prm_dealloc_flow_counter_in_build(0x0102, 0x89abcdef, b, SMALL), DOCA_SUCCESS);
	e[0x00] = 0x09;
	e[0x01] = 0x3a;
	e[0x02] = 0x01;
	e[0x03] = 0x02;
	assert_memory_equal(b, e, SMALL);
	assert_int_equal(prm_dealloc_flow_counter_in_parse(b, SMALL, &uid, &id), DOCA_SUCCESS);
	assert_int_equal(id, 0x89abcdef);
	assert_int_equal(prm_alloc_flow_counter_in_parse(b, SMALL, &uid, &bulk), DOCA_ERROR_INVALID_VALUE);

	/* QUERY_FLOW_COUNTER in: clear dw6 [31], num_of_counters dw6 [15:0], flow_counter_id dw7 */
	memset(&q, 0, sizeof(q));
	q.uid = 0x6162;
	q.clear = 1;
	q.num_of_counters = 0x0102;
	q.flow_counter_id = 0x63646566;
	memset(e, 0, sizeof(e));
	e[0x00] = 0x09;
	e[0x01] = 0x3b;
	e[0x02] = 0x61;
	e[0x03] = 0x62;
	e[0x18] = 0x80;
	e[0x1a] = 0x01;
	e[0x1b] = 0x02;
	e[0x1c] = 0x63;
	e[0x1d] = 0x64;
	e[0x1e] = 0x65;
	e[0x1f] = 0x66;
	memset(b, 0xee, sizeof(b));
	assert_int_equal(prm_query_flow_counter_in_build(&q, b, 0x20), DOCA_SUCCESS);
	assert_memory_equal(b, e, 0x20);
	assert_int_equal(b[0x20], 0xee);
	memset(&qback, 0, sizeof(qback));
	assert_int_equal(prm_query_flow_counter_in_parse(b, 0x20, &qback), DOCA_SUCCESS);
	assert_memory_equal(&qback, &q, sizeof(q));
	assert_int_equal(prm_query_flow_counter_in_build(&q, b, 0x1f), DOCA_ERROR_INVALID_VALUE);
	q.clear = 2;
	assert_int_equal(prm_query_flow_counter_in_build(&q, b, 0x20), DOCA_ERROR_INVALID_VALUE);

	/* QUERY_FLOW_COUNTER out: traffic_counter[] at 0x10, packets then octets, 64 bits each */
	assert_int_equal(prm_query_flow_counter_out_size(1), 0x20);
	assert_int_equal(prm_query_flow_counter_out_size(2), 0x30);
	assert_int_equal(prm_query_flow_counter_out_size(0), 0);
	assert_int_equal(prm_query_flow_counter_out_size(PRM_QUERY_FLOW_COUNTER_MAX + 1), 0);
	c[0].packets = 0x0102030405060708ull;
	c[0].octets = 0x1112131415161718ull;
	c[1].packets = 0x2122232425262728ull;
	c[1].octets = 0x3132333435363738ull;
	memset(e, 0, sizeof(e));
	memset(e + 0x30, 0xee, 8);
	for (i = 0; i < 8; i++) {
		e[0x10 + i] = (uint8_t)(0x01 + i);
		e[0x18 + i] = (uint8_t)(0x11 + i);
		e[0x20 + i] = (uint8_t)(0x21 + i);
		e[0x28 + i] = (uint8_t)(0x31 + i);
	}
	memset(b, 0xee, sizeof(b));
	assert_int_equal(prm_query_flow_counter_out_build(c, 2, b, 0x30), DOCA_SUCCESS);
	assert_memory_equal(b, e, sizeof(b));
	memset(cback, 0, sizeof(cback));
	assert_int_equal(prm_query_flow_counter_out_parse(b, 0x30, cback, 2), DOCA_SUCCESS);
	assert_memory_equal(cback, c, sizeof(c));
	assert_int_equal(prm_query_flow_counter_out_build(c, 2, b, 0x2f), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_flow_counter_out_build(c, 0, b, 0x30), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_flow_counter_out_parse(b, 0x2f, cback, 2), DOCA_ERROR_INVALID_VALUE);
	b[0] = PRM_STATUS_BAD_PARAM;
	assert_int_equal(prm_query_flow_counter_out_parse(b, 0x30, cback, 2), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow_table_golden),
		cmocka_unit_test(test_flow_group_golden),
		cmocka_unit_test(test_set_fte_golden),
		cmocka_unit_test(test_set_fte_lists),
		cmocka_unit_test(test_fte_delete_query),
		cmocka_unit_test(test_flow_counters),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
