/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RMP commands: every rmpc and wq field at its byte (rmpc at 0x20 of the mailbox, wq at
 * 0x30 of the rmpc, so the wq starts at byte 0x50), round trips, bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_rmp.h"

#define BIG 0x110u
#define WQ(byte) (0x50u + (byte))

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

#define WQ_MEMBERS(X)                                                                              \
	X(wq_type) X(wq_signature) X(end_padding_mode) X(cd_slave) X(page_offset) X(lwm) X(pd)           \
	X(uar_page) X(hw_counter) X(sw_counter) X(log_wq_stride) X(log_wq_pg_sz) X(log_wq_sz)            \
	X(dbr_umem_valid) X(wq_umem_valid) X(dbr_umem_id) X(wq_umem_id)
#define SAME(m) assert_int_equal(a->wq.m, b->wq.m);

static void assert_rmpc_equal(const struct prm_rmpc_params *a, const struct prm_rmpc_params *b)
{
	assert_int_equal(a->state, b->state);
	assert_int_equal(a->basic_cyclic_rcv_wqe, b->basic_cyclic_rcv_wqe);
	WQ_MEMBERS(SAME)
	assert_true(a->wq.dbr_addr == b->wq.dbr_addr);
	assert_true(a->wq.wq_umem_offset == b->wq.wq_umem_offset);
}

static void fill_rmpc(struct prm_rmpc_params *r)
{
	memset(r, 0, sizeof(*r));
	r->state = PRM_RMP_STATE_RDY;
	r->basic_cyclic_rcv_wqe = 1;
	r->wq.wq_type = PRM_WQ_TYPE_CYCLIC;
	r->wq.wq_signature = 1;
	r->wq.end_padding_mode = PRM_WQ_END_PAD_ALIGN;
	r->wq.cd_slave = 1;
	r->wq.page_offset = 0x15;
	r->wq.lwm = 0x1234;
	r->wq.pd = 0x00abcd;
	r->wq.uar_page = 0x123456;
	r->wq.dbr_addr = 0x8877665544332211ull;
	r->wq.hw_counter = 0x01020304;
	r->wq.sw_counter = 0x05060708;
	r->wq.log_wq_stride = 6;
	r->wq.log_wq_pg_sz = 0x0c;
	r->wq.log_wq_sz = 0x0a;
	r->wq.dbr_umem_valid = 1;
	r->wq.wq_umem_valid = 1;
	r->wq.dbr_umem_id = 0xa1a2a3a4;
	r->wq.wq_umem_id = 0xb1b2b3b4;
	r->wq.wq_umem_offset = 0xc1c2c3c4c5c6c7c8ull;
}

/* The rmpc image of fill_rmpc(), into a mailbox whose rmpc starts at 0x20. */
static void expect_rmpc(uint8_t *exp)
{
	unsigned i;

	exp[0x21] = 0x10;                     /* state rmpc dw0 [23:20] = RDY */
	exp[0x24] = 0x80;                     /* basic_cyclic_rcv_wqe rmpc dw1 [31] */
	exp[WQ(0x00)] = 0x10 | 0x08 | 0x02 | 0x01; /* wq_type=1, wq_signature, end_padding_mode=1, cd_slave */
	exp[WQ(0x05)] = 0x15;                 /* page_offset dw1 [20:16] */
	exp[WQ(0x06)] = 0x12;                 /* lwm dw1 [15:0] */
	exp[WQ(0x07)] = 0x34;
	exp[WQ(0x09)] = 0x00;                 /* pd dw2 [23:0] */
	exp[WQ(0x0a)] = 0xab;
	exp[WQ(0x0b)] = 0xcd;
	exp[WQ(0x0d)] = 0x12;                 /* uar_page dw3 [23:0] */
	exp[WQ(0x0e)] = 0x34;
	exp[WQ(0x0f)] = 0x56;
	for (i = 0; i < 8; i++) {
		exp[WQ(0x10) + i] = (uint8_t)(0x88 - 0x11 * i); /* dbr_addr */
		exp[WQ(0x30) + i] = (uint8_t)(0xc1 + i);        /* wq_umem_offset */
	}
	for (i = 0; i < 4; i++) {
		exp[WQ(0x18) + i] = (uint8_t)(0x01 + i); /* hw_counter dw6 */
		exp[WQ(0x1c) + i] = (uint8_t)(0x05 + i); /* sw_counter dw7 */
		exp[WQ(0x28) + i] = (uint8_t)(0xa1 + i); /* dbr_umem_id dw10 */
		exp[WQ(0x2c) + i] = (uint8_t)(0xb1 + i); /* wq_umem_id dw11 */
	}
	exp[WQ(0x21)] = 0x06;                 /* log_wq_stride dw8 [19:16] */
	exp[WQ(0x22)] = 0x0c;                 /* log_wq_pg_sz dw8 [12:8] */
	exp[WQ(0x23)] = 0x0a;                 /* log_wq_sz dw8 [4:0] */
	exp[WQ(0x24)] = 0xc0;                 /* dbr_umem_valid [31], wq_umem_valid [30] */
}

static void test_create_rmp_in_golden(void **state)
{
	struct prm_create_rmp_params p;
	uint8_t in[BIG + 8];
	uint8_t exp[BIG + 8];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.uid = 0x0033;
	fill_rmpc(&p.rmpc);
	memset(in, 0xee, sizeof(in));
	memset(exp, 0, BIG);
	memset(exp + BIG, 0xee, 8);
	exp[0x00] = 0x09; /* opcode 0x90c */
	exp[0x01] = 0x0c;
	exp[0x03] = 0x33; /* uid */
	expect_rmpc(exp);
	assert_int_equal(prm_create_rmp_in_build(&p, in, BIG), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
}

static void test_modify_rmp_in_golden(void **state)
{
	struct prm_modify_rmp_params p;
	uint8_t in[BIG];
	uint8_t exp[BIG];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.rmp_state = PRM_RMP_STATE_RDY;
	p.rmpn = 0x0a0b0c;
	p.bitmask = PRM_RMP_BITMASK_LWM;
	p.rmpc.wq.lwm = 0x0040;
	memset(exp, 0, sizeof(exp));
	exp[0x00] = 0x09; /* opcode 0x90d */
	exp[0x01] = 0x0d;
	exp[0x08] = 0x10; /* rmp_state dw2 [31:28] */
	exp[0x09] = 0x0a; /* rmpn dw2 [23:0] */
	exp[0x0a] = 0x0b;
	exp[0x0b] = 0x0c;
	exp[0x17] = 0x01; /* bitmask.lwm: bit 0 of the 64-bit mask at 0x10 */
	exp[WQ(0x07)] = 0x40; /* ctx.wq.lwm */
	assert_int_equal(prm_modify_rmp_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
}

static void test_query_rmp_out_golden(void **state)
{
	struct prm_rmpc_params r;
	uint8_t out[BIG];
	uint8_t exp[BIG];

	(void)state;
	fill_rmpc(&r);
	memset(out, 0xee, sizeof(out));
	memset(exp, 0, sizeof(exp));
	expect_rmpc(exp);
	assert_int_equal(prm_query_rmp_out_build(&r, out, sizeof(out)), DOCA_SUCCESS);
	assert_memory_equal(out, exp, sizeof(out));
}

static void test_small_cmds_golden(void **state)
{
	const uint8_t destroy_in[16] = {0x09, 0x0e, 0x00, 0x01, 0, 0, 0, 0, 0x00, 0x12, 0x34, 0x56};
	const uint8_t query_in[16] = {0x09, 0x0f, 0x00, 0x00, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x07};
	const uint8_t create_out[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0xff, 0x00, 0xff};
	const uint8_t empty_out[16] = {0};
	uint8_t buf[16];

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_destroy_rmp_in_build(1, 0x123456, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, destroy_in, sizeof(buf));
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_query_rmp_in_build(0, 7, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, query_in, sizeof(buf));
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_create_rmp_out_build(0xff00ff, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, create_out, sizeof(buf));
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_destroy_rmp_out_build(buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, empty_out, sizeof(buf));
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_modify_rmp_out_build(buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, empty_out, sizeof(buf));
}

static void test_round_trips(void **state)
{
	struct prm_create_rmp_params c, c_back;
	struct prm_modify_rmp_params m, m_back;
	struct prm_rmpc_params q, q_back;
	uint8_t buf[BIG];
	uint16_t uid = 0;
	uint32_t rmpn = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.uid = 0xbeef;
	fill_rmpc(&c.rmpc);
	memset(&c_back, 0x5a, sizeof(c_back));
	assert_int_equal(prm_create_rmp_in_build(&c, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_create_rmp_in_parse(buf, sizeof(buf), &c_back), DOCA_SUCCESS);
	assert_int_equal(c_back.uid, c.uid);
	assert_rmpc_equal(&c_back.rmpc, &c.rmpc);

	memset(&m, 0, sizeof(m));
	m.uid = 0x0101;
	m.rmp_state = PRM_RMP_STATE_ERR;
	m.rmpn = 0xffffff;
	m.bitmask = 0x8000000000000001ull;
	fill_rmpc(&m.rmpc);
	m.rmpc.wq.wq_type = PRM_WQ_TYPE_CYCLIC_STRIDING;
	memset(&m_back, 0x5a, sizeof(m_back));
	assert_int_equal(prm_modify_rmp_in_build(&m, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_modify_rmp_in_parse(buf, sizeof(buf), &m_back), DOCA_SUCCESS);
	assert_int_equal(m_back.uid, m.uid);
	assert_int_equal(m_back.rmp_state, m.rmp_state);
	assert_int_equal(m_back.rmpn, m.rmpn);
	assert_true(m_back.bitmask == m.bitmask);
	assert_rmpc_equal(&m_back.rmpc, &m.rmpc);

	fill_rmpc(&q);
	memset(&q_back, 0x5a, sizeof(q_back));
	assert_int_equal(prm_query_rmp_out_build(&q, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_query_rmp_out_parse(buf, sizeof(buf), &q_back), DOCA_SUCCESS);
	assert_rmpc_equal(&q_back, &q);

	assert_int_equal(prm_destroy_rmp_in_build(0x11, 0x222222, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_destroy_rmp_in_parse(buf, 16, &uid, &rmpn), DOCA_SUCCESS);
	assert_int_equal(uid, 0x11);
	assert_int_equal(rmpn, 0x222222);
	assert_int_equal(prm_query_rmp_in_build(0x12, 0x333333, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_query_rmp_in_parse(buf, 16, &uid, &rmpn), DOCA_SUCCESS);
	assert_int_equal(uid, 0x12);
	assert_int_equal(rmpn, 0x333333);
	assert_int_equal(prm_create_rmp_out_build(0x444444, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_create_rmp_out_parse(buf, 16, &rmpn), DOCA_SUCCESS);
	assert_int_equal(rmpn, 0x444444);
	assert_int_equal(prm_destroy_rmp_out_build(buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_destroy_rmp_out_parse(buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_modify_rmp_out_build(buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_modify_rmp_out_parse(buf, 16), DOCA_SUCCESS);
}

static void test_bad_input(void **state)
{
	struct prm_create_rmp_params c;
	struct prm_create_rmp_params back;
	struct prm_rmpc_params q;
	uint8_t buf[BIG];
	uint16_t uid = 0x5555;
	uint32_t rmpn = 0x5555;

	(void)state;
	memset(&c, 0, sizeof(c));
	fill_rmpc(&c.rmpc);
	assert_int_equal(prm_create_rmp_in_build(&c, buf, BIG - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rmp_in_build(&c, NULL, BIG), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rmp_in_build(NULL, buf, BIG), DOCA_ERROR_INVALID_VALUE);
	c.rmpc.wq.log_wq_stride = 0x10; /* 4 bits */
	assert_int_equal(prm_create_rmp_in_build(&c, buf, BIG), DOCA_ERROR_INVALID_VALUE);
	c.rmpc.wq.log_wq_stride = 4;
	c.rmpc.wq.pd = 0x1000000; /* 24 bits */
	assert_int_equal(prm_create_rmp_in_build(&c, buf, BIG), DOCA_ERROR_INVALID_VALUE);
	c.rmpc.wq.pd = 1;
	c.rmpc.state = 0x10; /* 4 bits */
	assert_int_equal(prm_create_rmp_in_build(&c, buf, BIG), DOCA_ERROR_INVALID_VALUE);
	c.rmpc.state = PRM_RMP_STATE_RST;
	assert_int_equal(prm_create_rmp_in_build(&c, buf, BIG), DOCA_SUCCESS);

	memset(&back, 0x5a, sizeof(back));
	assert_int_equal(prm_create_rmp_in_parse(buf, BIG - 1, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rmp_in_parse(buf, BIG, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_modify_rmp_in_parse(buf, BIG, (struct prm_modify_rmp_params *)NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(back.uid, 0x5a5a);
	assert_int_equal(prm_query_rmp_in_build(0, 1, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_destroy_rmp_in_parse(buf, 16, &uid, &rmpn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rmp_in_parse(buf, BIG, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(uid, 0x5555);
	assert_int_equal(rmpn, 0x5555);
	assert_int_equal(back.uid, 0x5a5a);

	assert_int_equal(prm_create_rmp_out_build(9, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_cmd_out_set_status(buf, 16, PRM_STATUS_NO_RESOURCES, 3), DOCA_SUCCESS);
	assert_int_equal(prm_create_rmp_out_parse(buf, 16, &rmpn), DOCA_ERROR_NO_MEMORY);
	assert_int_equal(rmpn, 0x5555);
	fill_rmpc(&q);
	assert_int_equal(prm_query_rmp_out_build(&q, buf, BIG), DOCA_SUCCESS);
	assert_int_equal(prm_cmd_out_set_status(buf, BIG, PRM_STATUS_BAD_INDEX, 4), DOCA_SUCCESS);
	memset(&q, 0x5a, sizeof(q));
	assert_int_equal(prm_query_rmp_out_parse(buf, BIG, &q), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(q.state, 0x5a);
	assert_int_equal(prm_cmd_out_set_status(buf, BIG, PRM_STATUS_OK, 0), DOCA_SUCCESS);
	assert_int_equal(prm_query_rmp_out_parse(buf, BIG - 1, &q), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_rmp_out_parse(buf, BIG, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(q.state, 0x5a);
	assert_int_equal(prm_cmd_out_set_status(buf, 16, PRM_STATUS_BAD_SYS_STATE, 0), DOCA_SUCCESS);
	assert_int_equal(prm_modify_rmp_out_parse(buf, 16), DOCA_ERROR_BAD_STATE);
	assert_int_equal(prm_destroy_rmp_out_parse(buf, 15), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_rmp_in_golden),
		cmocka_unit_test(test_modify_rmp_in_golden),
		cmocka_unit_test(test_query_rmp_out_golden),
		cmocka_unit_test(test_small_cmds_golden),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
