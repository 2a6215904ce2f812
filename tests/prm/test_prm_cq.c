/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQ commands. The CREATE_CQ golden test sets every field of reference/mlx5.md B.9's
 * CREATE_CQ table and compares the whole 272-byte mailbox against an image built here
 * with explicit byte offsets; the remaining cqc fields are pinned through QUERY_CQ's out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"

#define BIG 0x110u

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

#define CQC_MEMBERS(X)                                                                             \
	X(status) X(dbr_umem_valid) X(cqe_sz) X(cc) X(scqe_break_moderation_en) X(oi) X(cq_period_mode)  \
	X(cqe_comp_en) X(mini_cqe_res_format) X(st) X(dbr_umem_id) X(page_offset) X(log_cq_size)         \
	X(uar_page) X(cq_period) X(cq_max_count) X(c_eqn) X(log_page_size) X(last_notified_index)        \
	X(last_solicit_index) X(consumer_counter) X(producer_counter)
#define SAME(m) assert_int_equal(a->m, b->m);

static void assert_cqc_equal(const struct prm_cqc_params *a, const struct prm_cqc_params *b)
{
	CQC_MEMBERS(SAME)
	assert_true(a->dbr_addr == b->dbr_addr);
}

/* Every cqc field non-zero and at its widest useful value. */
static void fill_cqc(struct prm_cqc_params *c)
{
	memset(c, 0, sizeof(*c));
	c->status = 0xa;
	c->dbr_umem_valid = 1;
	c->cqe_sz = 7;
	c->cc = 1;
	c->scqe_break_moderation_en = 1;
	c->oi = 1;
	c->cq_period_mode = 3;
	c->cqe_comp_en = 1;
	c->mini_cqe_res_format = 3;
	c->st = 0xb;
	c->dbr_umem_id = 0xfedcba98;
	c->page_offset = 0x3f;
	c->log_cq_size = 0x1f;
	c->uar_page = 0xffffff;
	c->cq_period = 0xfff;
	c->cq_max_count = 0xffff;
	c->c_eqn = 0xff;
	c->log_page_size = 0x1f;
	c->last_notified_index = 0x123456;
	c->last_solicit_index = 0x234567;
	c->consumer_counter = 0x345678;
	c->producer_counter = 0x456789;
	c->dbr_addr = 0xffffffffffffffffull;
}

static void test_create_cq_in_golden_b9(void **state)
{
	struct prm_create_cq_params p;
	uint8_t in[BIG + 8];
	uint8_t exp[BIG + 8];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.uid = 0x0102;
	p.cqc.dbr_umem_valid = 1;
	p.cqc.cqe_sz = PRM_CQE_SIZE_128;
	p.cqc.cc = 1;
	p.cqc.oi = 1;
	p.cqc.cqe_comp_en = 1;
	p.cqc.dbr_umem_id = 0x11223344;
	p.cqc.page_offset = 0x2a;
	p.cqc.log_cq_size = 0x0c;
	p.cqc.uar_page = 0xabcdef;
	p.cqc.c_eqn = 0x7e;
	p.cqc.log_page_size = 0x04;
	p.cqc.dbr_addr = 0x0102030405060708ull;
	p.cq_umem_offset = 0x1112131415161718ull;
	p.cq_umem_id = 0x21222324;
	p.cq_umem_valid = 1;

	memset(in, 0xee, sizeof(in));
	memset(exp, 0, BIG);
	memset(exp + BIG, 0xee, 8);
	exp[0x00] = 0x04; /* opcode 0x400 */
	exp[0x01] = 0x00;
	exp[0x02] = 0x01; /* uid */
	exp[0x03] = 0x02;
	exp[0x10] = 0x02; /* cqc.dbr_umem_valid dw4 [25] */
	exp[0x11] = 0x20 | 0x10 | 0x02; /* cqe_sz [23:21] = 1, cc [20], oi [17] */
	exp[0x12] = 0x40; /* cqe_comp_en [14] */
	exp[0x14] = 0x11; /* cqc.dbr_umem_id dw5 */
	exp[0x15] = 0x22;
	exp[0x16] = 0x33;
	exp[0x17] = 0x44;
	exp[0x1a] = 0x0a; /* page_offset dw6 [11:6] = 0b101010 */
	exp[0x1b] = 0x80;
	exp[0x1c] = 0x0c; /* log_cq_size dw7 [28:24] */
	exp[0x1d] = 0xab; /* uar_page dw7 [23:0] */
	exp[0x1e] = 0xcd;
	exp[0x1f] = 0xef;
	exp[0x27] = 0x7e; /* c_eqn dw9 [7:0] */
	exp[0x28] = 0x04; /* log_page_size dw10 [28:24] */
	for (unsigned i = 0; i < 8; i++) {
		exp[0x48 + i] = (uint8_t)(0x01 + i); /* cqc.dbr_addr */
		exp[0x50 + i] = (uint8_t)(0x11 + i); /* cq_umem_offset */
	}
	exp[0x58] = 0x21; /* cq_umem_id dw22 */
	exp[0x59] = 0x22;
	exp[0x5a] = 0x23;
	exp[0x5b] = 0x24;
	exp[0x5c] = 0x80; /* cq_umem_valid dw23 [31] */
	assert_int_equal(prm_create_cq_in_build(&p, in, BIG), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
}

/* The cqc fields not in the B.9 table, through QUERY_CQ's out (cqc at 0x10 as well). */
static void test_query_cq_out_golden(void **state)
{
	struct prm_cqc_params c;
	uint8_t out[BIG];
	uint8_t exp[BIG];

	(void)state;
	memset(&c, 0, sizeof(c));
	c.status = PRM_CQC_STATUS_OVERFLOW;
	c.scqe_break_moderation_en = 1;
	c.cq_period_mode = 3;
	c.mini_cqe_res_format = 2;
	c.st = PRM_CQ_STATE_ALWAYS_ARMED;
	c.cq_period = 0xabc;
	c.cq_max_count = 0x1234;
	c.last_notified_index = 0x010203;
	c.last_solicit_index = 0x040506;
	c.consumer_counter = 0x070809;
	c.producer_counter = 0x0a0b0c;
	memset(out, 0xee, sizeof(out));
	memset(exp, 0, sizeof(exp));
	exp[0x10] = 0x90;        /* status dw0 [31:28] = 9 */
	exp[0x11] = 0x04 | 0x01; /* scqe_break_moderation_en [18], cq_period_mode bit 16 */
	exp[0x12] = 0x80 | 0x20 | 0x0b; /* cq_period_mode bit 15, mini_cqe_res_format [13:12], st [11:8] */
	exp[0x20] = 0x0a;        /* cq_period cqc dw4 [27:16] */
	exp[0x21] = 0xbc;
	exp[0x22] = 0x12;        /* cq_max_count cqc dw4 [15:0] */
	exp[0x23] = 0x34;
	exp[0x31] = 0x01;        /* last_notified_index cqc dw8 [23:0] */
	exp[0x32] = 0x02;
	exp[0x33] = 0x03;
	exp[0x35] = 0x04;        /* last_solicit_index cqc dw9 */
	exp[0x36] = 0x05;
	exp[0x37] = 0x06;
	exp[0x39] = 0x07;        /* consumer_counter cqc dw10 */
	exp[0x3a] = 0x08;
	exp[0x3b] = 0x09;
	exp[0x3d] = 0x0a;        /* producer_counter cqc dw11 */
	exp[0x3e] = 0x0b;
	exp[0x3f] = 0x0c;
	assert_int_equal(prm_query_cq_out_build(&c, out, sizeof(out)), DOCA_SUCCESS);
	assert_memory_equal(out, exp, sizeof(out));
}

static void test_small_cmds_golden(void **state)
{
	const uint8_t destroy_in[16] = {0x04, 0x01, 0x00, 0x09, 0, 0, 0, 0, 0x00, 0x00, 0x01, 0x02};
	const uint8_t query_in[16] = {0x04, 0x02, 0x00, 0x00, 0, 0, 0, 0, 0x00, 0xff, 0xff, 0xff};
	const uint8_t create_out[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x2a};
	const uint8_t empty_out[16] = {0};
	uint8_t buf[16];

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_destroy_cq_in_build(9, 0x102, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, destroy_in, sizeof(buf));
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_query_cq_in_build(0, 0xffffff, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, query_in, sizeof(buf));
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_create_cq_out_build(0x2a, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, create_out, sizeof(buf));
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_destroy_cq_out_build(buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, empty_out, sizeof(buf));
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(prm_modify_cq_out_build(buf, sizeof(buf)), DOCA_SUCCESS);
	assert_memory_equal(buf, empty_out, sizeof(buf));
}

static void test_modify_cq_in_golden(void **state)
{
	struct prm_modify_cq_params p;
	uint8_t in[BIG];
	uint8_t exp[BIG];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.op_mod = PRM_MODIFY_CQ_OP_MODIFY;
	p.cqn = 0x000102;
	p.modify_field_select = PRM_MODIFY_CQ_SELECT_PERIOD | PRM_MODIFY_CQ_SELECT_COUNT;
	p.cqc.cq_period = 0x010;
	p.cqc.cq_max_count = 0x0020;
	p.cq_umem_valid = 1;
	memset(exp, 0, sizeof(exp));
	exp[0x00] = 0x04; /* opcode 0x403 */
	exp[0x01] = 0x03;
	exp[0x0a] = 0x01; /* cqn dw2 [23:0] */
	exp[0x0b] = 0x02;
	exp[0x0f] = 0x03; /* modify_field_select dw3 */
	exp[0x20] = 0x00; /* cq_period cqc dw4 [27:16] */
	exp[0x21] = 0x10;
	exp[0x22] = 0x00; /* cq_max_count cqc dw4 [15:0] */
	exp[0x23] = 0x20;
	exp[0x5c] = 0x80; /* cq_umem_valid dw23 [31] */
	assert_int_equal(prm_modify_cq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));

	p.op_mod = PRM_MODIFY_CQ_OP_RESIZE;
	assert_int_equal(prm_modify_cq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	exp[0x07] = 0x01; /* op_mod dw1 [15:0] */
	assert_memory_equal(in, exp, sizeof(in));
}

static void test_round_trips(void **state)
{
	struct prm_create_cq_params c, c_back;
	struct prm_modify_cq_params m, m_back;
	struct prm_cqc_params q, q_back;
	uint8_t buf[BIG];
	uint16_t uid = 0;
	uint32_t cqn = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.uid = 0xfffe;
	fill_cqc(&c.cqc);
	c.cq_umem_offset = 0x8000000000000001ull;
	c.cq_umem_id = 0xffffffff;
	c.cq_umem_valid = 1;
	memset(&c_back, 0x5a, sizeof(c_back));
	assert_int_equal(prm_create_cq_in_build(&c, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_create_cq_in_parse(buf, sizeof(buf), &c_back), DOCA_SUCCESS);
	assert_int_equal(c_back.uid, c.uid);
	assert_cqc_equal(&c_back.cqc, &c.cqc);
	assert_true(c_back.cq_umem_offset == c.cq_umem_offset);
	assert_int_equal(c_back.cq_umem_id, c.cq_umem_id);
	assert_int_equal(c_back.cq_umem_valid, c.cq_umem_valid);

	memset(&m, 0, sizeof(m));
	m.uid = 3;
	m.op_mod = PRM_MODIFY_CQ_OP_RESIZE;
	m.cqn = 0xabcdef;
	m.modify_field_select = 0xffffffff;
	fill_cqc(&m.cqc);
	m.cq_umem_valid = 1;
	memset(&m_back, 0x5a, sizeof(m_back));
	assert_int_equal(prm_modify_cq_in_build(&m, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_modify_cq_in_parse(buf, sizeof(buf), &m_back), DOCA_SUCCESS);
	assert_int_equal(m_back.uid, m.uid);
	assert_int_equal(m_back.op_mod, m.op_mod);
	assert_int_equal(m_back.cqn, m.cqn);
	assert_int_equal(m_back.modify_field_select, m.modify_field_select);
	assert_cqc_equal(&m_back.cqc, &m.cqc);
	assert_int_equal(m_back.cq_umem_valid, m.cq_umem_valid);

	fill_cqc(&q);
	memset(&q_back, 0x5a, sizeof(q_back));
	assert_int_equal(prm_query_cq_out_build(&q, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(prm_query_cq_out_parse(buf, sizeof(buf), &q_back), DOCA_SUCCESS);
	assert_cqc_equal(&q_back, &q);

	assert_int_equal(prm_destroy_cq_in_build(0x77, 0x123456, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_destroy_cq_in_parse(buf, 16, &uid, &cqn), DOCA_SUCCESS);
	assert_int_equal(uid, 0x77);
	assert_int_equal(cqn, 0x123456);
	assert_int_equal(prm_query_cq_in_build(0x78, 0x654321, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_query_cq_in_parse(buf, 16, &uid, &cqn), DOCA_SUCCESS);
	assert_int_equal(uid, 0x78);
	assert_int_equal(cqn, 0x654321);
	assert_int_equal(prm_create_cq_out_build(0xfffffe, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_create_cq_out_parse(buf, 16, &cqn), DOCA_SUCCESS);
	assert_int_equal(cqn, 0xfffffe);
	assert_int_equal(prm_destroy_cq_out_build(buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_destroy_cq_out_parse(buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_modify_cq_out_build(buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_modify_cq_out_parse(buf, 16), DOCA_SUCCESS);
}

static void test_bad_input(void **state)
{
	struct prm_create_cq_params c;
	struct prm_create_cq_params back;
	struct prm_cqc_params q;
	uint8_t buf[BIG];
	uint16_t uid = 0x5555;
	uint32_t cqn = 0x5555;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(prm_create_cq_in_build(&c, buf, BIG - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_cq_in_build(&c, NULL, BIG), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_cq_in_build(NULL, buf, BIG), DOCA_ERROR_INVALID_VALUE);
	c.cqc.log_cq_size = 0x20; /* 5 bits */
	assert_int_equal(prm_create_cq_in_build(&c, buf, BIG), DOCA_ERROR_INVALID_VALUE);
	c.cqc.log_cq_size = 4;
	c.cqc.uar_page = 0x1000000; /* 24 bits */
	assert_int_equal(prm_create_cq_in_build(&c, buf, BIG), DOCA_ERROR_INVALID_VALUE);
	c.cqc.uar_page = 1;
	c.cqc.page_offset = 0x40; /* 6 bits */
	assert_int_equal(prm_create_cq_in_build(&c, buf, BIG), DOCA_ERROR_INVALID_VALUE);
	c.cqc.page_offset = 0;
	c.cq_umem_valid = 2; /* 1 bit */
	assert_int_equal(prm_create_cq_in_build(&c, buf, BIG), DOCA_ERROR_INVALID_VALUE);
	c.cq_umem_valid = 1;
	assert_int_equal(prm_destroy_cq_in_build(0, 0x1000000, buf, 16), DOCA_ERROR_INVALID_VALUE);

	/* Parsers: short, NULL, wrong opcode; the caller's struct stays untouched. */
	assert_int_equal(prm_create_cq_in_build(&c, buf, BIG), DOCA_SUCCESS);
	memset(&back, 0x5a, sizeof(back));
	assert_int_equal(prm_create_cq_in_parse(buf, BIG - 1, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_cq_in_parse(NULL, BIG, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_cq_in_parse(buf, BIG, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_modify_cq_in_parse(buf, BIG, (struct prm_modify_cq_params *)NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(back.uid, 0x5a5a);
	assert_int_equal(prm_destroy_cq_in_build(1, 2, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_query_cq_in_parse(buf, 16, &uid, &cqn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_cq_in_parse(buf, BIG, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(uid, 0x5555);
	assert_int_equal(cqn, 0x5555);
	assert_int_equal(back.uid, 0x5a5a);

	/* A failed CREATE_CQ / QUERY_CQ. */
	assert_int_equal(prm_create_cq_out_build(5, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_cmd_out_set_status(buf, 16, PRM_STATUS_BAD_PARAM, 0x1), DOCA_SUCCESS);
	assert_int_equal(prm_create_cq_out_parse(buf, 16, &cqn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(cqn, 0x5555);
	fill_cqc(&q);
	assert_int_equal(prm_query_cq_out_build(&q, buf, BIG), DOCA_SUCCESS);
	assert_int_equal(prm_cmd_out_set_status(buf, BIG, PRM_STATUS_BAD_RESOURCE, 0x2), DOCA_SUCCESS);
	memset(&q, 0x5a, sizeof(q));
	assert_int_equal(prm_query_cq_out_parse(buf, BIG, &q), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(q.log_cq_size, 0x5a);
	assert_int_equal(prm_cmd_out_set_status(buf, BIG, PRM_STATUS_OK, 0), DOCA_SUCCESS);
	assert_int_equal(prm_query_cq_out_parse(buf, BIG - 1, &q), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(q.log_cq_size, 0x5a);
	assert_int_equal(prm_cmd_out_set_status(buf, 16, PRM_STATUS_BAD_RES_STATE, 0), DOCA_SUCCESS);
	assert_int_equal(prm_destroy_cq_out_parse(buf, 16), DOCA_ERROR_BAD_STATE);
	assert_int_equal(prm_modify_cq_out_parse(buf, 15), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_cq_in_golden_b9),
		cmocka_unit_test(test_query_cq_out_golden),
		cmocka_unit_test(test_small_cmds_golden),
		cmocka_unit_test(test_modify_cq_in_golden),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
