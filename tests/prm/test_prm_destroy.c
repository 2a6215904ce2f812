/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The destroy command kept for a created object (as the kernel's devx_obj_build_destroy_cmd
 * builds it): the right opcode, the create's uid, the object number from the out mailbox
 * (flow_index from the in mailbox for an entry), table_type / table_id carried over for flow
 * groups and entries; commands that create nothing are refused.
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
#include "prm/prm_destroy.h"
#include "prm/prm_flow.h"
#include "prm/prm_rq.h"
#include "prm/prm_sq.h"
#include "prm/prm_tir.h"

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

static uint8_t in[0x400], out[0x10], d[0x40], e[0x40];

/* A 16-byte destroy: opcode, uid, the 24-bit number in dw2 [23:0]. */
static void expect_small(uint16_t opcode, uint16_t uid, uint32_t id)
{
	memset(e, 0, sizeof(e));
	e[0] = (uint8_t)(opcode >> 8);
	e[1] = (uint8_t)opcode;
	e[2] = (uint8_t)(uid >> 8);
	e[3] = (uint8_t)uid;
	e[9] = (uint8_t)(id >> 16);
	e[10] = (uint8_t)(id >> 8);
	e[11] = (uint8_t)id;
}

static void destroy_ok(size_t inlen, size_t want_len, uint32_t want_id)
{
	size_t len = 0;
	uint32_t id = 0;

	memset(d, 0xee, sizeof(d));
	assert_int_equal(prm_destroy_cmd_build(in, inlen, out, sizeof(out), d, sizeof(d), &len, &id), DOCA_SUCCESS);
	assert_int_equal(len, want_len);
	assert_int_equal(id, want_id);
	assert_memory_equal(d, e, want_len);
	id = 0;
	assert_int_equal(prm_created_obj_id(in, inlen, out, sizeof(out), &id), DOCA_SUCCESS);
	assert_int_equal(id, want_id);
}

static void test_queues_and_tirs(void **state)
{
	struct prm_create_rq_params *rq = calloc(1, sizeof(*rq));
	struct prm_create_rqt_params *rqt = calloc(1, sizeof(*rqt));
	struct prm_create_tir_params tir;
	struct prm_create_tis_params tis;

	(void)state;
	assert_non_null(rq);
	assert_non_null(rqt);
	rq->uid = 0x0102;
	assert_int_equal(prm_create_rq_in_build(rq, in, PRM_RQ_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_create_rq_out_build(0x0a0b0c, out, sizeof(out)), DOCA_SUCCESS);
	expect_small(0x90a, 0x0102, 0x0a0b0c); /* DESTROY_RQ */
	destroy_ok(PRM_RQ_CMD_SIZE, 0x10, 0x0a0b0c);

	rqt->uid = 0x0304;
	rqt->rqtc.rqt_actual_size = 1;
	assert_int_equal(prm_create_rqt_in_build(rqt, in, prm_create_rqt_in_size(1)), DOCA_SUCCESS);
	assert_int_equal(prm_create_rqt_out_build(0x0d0e0f, out, sizeof(out)), DOCA_SUCCESS);
	expect_small(0x918, 0x0304, 0x0d0e0f); /* DESTROY_RQT */
	destroy_ok(prm_create_rqt_in_size(1), 0x10, 0x0d0e0f);

	memset(&tir, 0, sizeof(tir));
	tir.uid = 0x0506;
	assert_int_equal(prm_create_tir_in_build(&tir, in, PRM_TIR_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_create_tir_out_build(0x101112, out, sizeof(out)), DOCA_SUCCESS);
	expect_small(0x902, 0x0506, 0x101112); /* DESTROY_TIR */
	destroy_ok(PRM_TIR_CMD_SIZE, 0x10, 0x101112);

	memset(&tis, 0, sizeof(tis));
	tis.uid = 0x0708;
	assert_int_equal(prm_create_tis_in_build(&tis, in, PRM_TIS_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_create_tis_out_build(0x131415, out, sizeof(out)), DOCA_SUCCESS);
	expect_small(0x914, 0x0708, 0x131415); /* DESTROY_TIS */
	destroy_ok(PRM_TIS_CMD_SIZE, 0x10, 0x131415);
	free(rq);
	free(rqt);
}

static void test_flow_objects(void **state)
{
	struct prm_create_flow_table_params ft;
	struct prm_create_flow_group_params *fg = calloc(1, sizeof(*fg));
	struct prm_set_fte_params *fte = calloc(1, sizeof(*fte));
	uint8_t *big = calloc(1, 0x358);
	size_t len = 0;

	(void)state;
	assert_non_null(fg);
	assert_non_null(fte);
	assert_non_null(big);

	/* CREATE_FLOW_TABLE -> DESTROY_FLOW_TABLE (0x931): table_type from the in, table_id from the out. */
	memset(&ft, 0, sizeof(ft));
	ft.uid = 0x2122;
	ft.table_type = PRM_FLOW_TABLE_NIC_TX;
	ft.ctx.log_size = 4;
	assert_int_equal(prm_create_flow_table_in_build(&ft, in, PRM_FLOW_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_create_flow_table_out_build(0x232425, out, sizeof(out)), DOCA_SUCCESS);
	memset(e, 0, sizeof(e));
	e[0x00] = 0x09;
	e[0x01] = 0x31;
	e[0x02] = 0x21;
	e[0x03] = 0x22;
	e[0x10] = 0x01; /* table_type dw4 [31:24] */
	e[0x15] = 0x23; /* table_id dw5 [23:0] */
	e[0x16] = 0x24;
	e[0x17] = 0x25;
	destroy_ok(PRM_FLOW_CMD_SIZE, 0x40, 0x232425);

	/* CREATE_FLOW_GROUP -> DESTROY_FLOW_GROUP (0x934): table_type, table_id, group_id dw6. */
	fg->uid = 0x3132;
	fg->table_type = PRM_FLOW_TABLE_NIC_RX;
	fg->table_id = 0x333435;
	fg->end_flow_index = 7;
	assert_int_equal(prm_create_flow_group_in_build(fg, in, PRM_CREATE_FLOW_GROUP_IN_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_create_flow_group_out_build(0x363738, out, sizeof(out)), DOCA_SUCCESS);
	memset(e, 0, sizeof(e));
	e[0x00] = 0x09;
	e[0x01] = 0x34;
	e[0x02] = 0x31;
	e[0x03] = 0x32;
	e[0x15] = 0x33;
	e[0x16] = 0x34;
	e[0x17] = 0x35;
	e[0x19] = 0x36; /* group_id dw6 */
	e[0x1a] = 0x37;
	e[0x1b] = 0x38;
	destroy_ok(PRM_CREATE_FLOW_GROUP_IN_SIZE, 0x40, 0x363738);

	/* SET_FLOW_TABLE_ENTRY -> DELETE_FLOW_TABLE_ENTRY (0x938): table_type, table_id, flow_index. */
	fte->uid = 0x4142;
	fte->table_type = PRM_FLOW_TABLE_SNIFFER_TX;
	fte->table_id = 0x434445;
	fte->flow_index = 0x46474849;
	fte->ctx.action = PRM_FLOW_ACTION_FWD_DEST;
	fte->ctx.destination_list_size = 2;
	fte->ctx.flow_counter_list_size = 1;
	assert_int_equal(prm_set_fte_in_build(fte, big, 0x358), DOCA_SUCCESS);
	assert_int_equal(prm_cmd_empty_out_build(out, sizeof(out)), DOCA_SUCCESS);
	memset(e, 0, sizeof(e));
	e[0x00] = 0x09;
	e[0x01] = 0x38;
	e[0x02] = 0x41;
	e[0x03] = 0x42;
	e[0x10] = 0x06;
	e[0x15] = 0x43;
	e[0x16] = 0x44;
	e[0x17] = 0x45;
	e[0x20] = 0x46; /* flow_index dw8 */
	e[0x21] = 0x47;
	e[0x22] = 0x48;
	e[0x23] = 0x49;
	memset(d, 0xee, sizeof(d));
	assert_int_equal(prm_destroy_cmd_build(big, 0x358, out, sizeof(out), d, sizeof(d), &len, NULL), DOCA_SUCCESS);
	assert_int_equal(len, 0x40);
	assert_memory_equal(d, e, sizeof(e));
	/* The same command as a modify (op_mod 1) creates nothing. */
	big[7] = PRM_SET_FTE_OP_MOD_MODIFY;
	assert_int_equal(prm_destroy_cmd_build(big, 0x358, out, sizeof(out), d, sizeof(d), &len, NULL),
			 DOCA_ERROR_NOT_SUPPORTED);

	/* ALLOC_FLOW_COUNTER -> DEALLOC_FLOW_COUNTER (0x93a), the full 32-bit id in dw2. */
	assert_int_equal(prm_alloc_flow_counter_in_build(0x5152, 0, in, 0x10), DOCA_SUCCESS);
	assert_int_equal(prm_alloc_flow_counter_out_build(0x89abcdef, out, sizeof(out)), DOCA_SUCCESS);
	memset(e, 0, sizeof(e));
	e[0x00] = 0x09;
	e[0x01] = 0x3a;
	e[0x02] = 0x51;
	e[0x03] = 0x52;
	e[0x08] = 0x89;
	e[0x09] = 0xab;
	e[0x0a] = 0xcd;
	e[0x0b] = 0xef;
	destroy_ok(0x10, 0x10, 0x89abcdef);
	free(fg);
	free(fte);
	free(big);
}

static void test_refusals(void **state)
{
	struct prm_create_flow_table_params ft;
	size_t len = 0;
	uint32_t id = 0;

	(void)state;
	/* A command that creates nothing. */
	memset(in, 0, sizeof(in));
	in[0] = 0x01; /* QUERY_HCA_CAP */
	memset(out, 0, sizeof(out));
	assert_int_equal(prm_destroy_cmd_build(in, 0x10, out, sizeof(out), d, sizeof(d), &len, &id),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(prm_created_obj_id(in, 0x10, out, sizeof(out), &id), DOCA_ERROR_NOT_SUPPORTED);
	/* A create that failed: its status decides. */
	memset(&ft, 0, sizeof(ft));
	assert_int_equal(prm_create_flow_table_in_build(&ft, in, PRM_FLOW_CMD_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_create_flow_table_out_build(5, out, sizeof(out)), DOCA_SUCCESS);
	out[0] = PRM_STATUS_BAD_PARAM;
	assert_int_equal(prm_destroy_cmd_build(in, PRM_FLOW_CMD_SIZE, out, sizeof(out), d, sizeof(d), &len, &id),
			 DOCA_ERROR_INVALID_VALUE);
	out[0] = PRM_STATUS_OK;
	/* Short inputs and a destroy buffer too small for the flow table's 64 bytes. */
	assert_int_equal(prm_destroy_cmd_build(in, PRM_FLOW_CMD_SIZE - 1, out, sizeof(out), d, sizeof(d), &len, &id),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_cmd_build(in, PRM_FLOW_CMD_SIZE, out, sizeof(out), d, 0x3f, &len, &id),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_cmd_build(in, 4, out, sizeof(out), d, sizeof(d), &len, &id),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_cmd_build(in, PRM_FLOW_CMD_SIZE, out, sizeof(out), NULL, sizeof(d), &len, &id),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_created_obj_id(in, PRM_FLOW_CMD_SIZE, out, sizeof(out), NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_cmd_build(in, PRM_FLOW_CMD_SIZE, out, sizeof(out), d, 0x40, &len, &id),
			 DOCA_SUCCESS);
	assert_int_equal(id, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queues_and_tirs),
		cmocka_unit_test(test_flow_objects),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
