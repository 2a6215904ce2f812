/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TIS and SQ commands: every tisc and sqc field at its byte (tisc and sqc at 0x20 of the
 * mailbox, the sqc's wq at 0x30, so the wq starts at byte 0x50), round trips, bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_sq.h"

#define BIG PRM_SQ_CMD_SIZE
#define SQC(byte) (0x20u + (byte))
#define WQ(byte) (0x50u + (byte))

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

static void fill_sqc(struct prm_sqc_params *q)
{
	memset(q, 0, sizeof(*q));
	q->rlky = 1;
	q->cd_master = 1;
	q->fre = 1;
	q->flush_in_error_en = 1;
	q->allow_multi_pkt_send_wqe = 1;
	q->min_wqe_inline_mode = PRM_SQ_INLINE_L2;
	q->state = PRM_SQ_STATE_RDY;
	q->allow_swp = 1;
	q->ts_format = 2;
	q->user_index = 0x123456;
	q->cqn = 0x00abcd;
	q->packet_pacing_rate_limit_index = 0x4321;
	q->tis_lst_sz = 1;
	q->tis_num_0 = 0x0a0b0c;
	q->wq.wq_type = PRM_WQ_TYPE_CYCLIC;
	q->wq.pd = 0x000077;
	q->wq.uar_page = 0x000102;
	q->wq.dbr_addr = 0x40;
	q->wq.log_wq_stride = 6;
	q->wq.log_wq_sz = 0x0d;
	q->wq.dbr_umem_valid = 1;
	q->wq.wq_umem_valid = 1;
	q->wq.dbr_umem_id = 0xa1a2a3a4;
	q->wq.wq_umem_id = 0xb1b2b3b4;
	q->wq.wq_umem_offset = 0x1000;
}

/* The image of fill_sqc() in a mailbox whose sqc starts at 0x20. */
static void expect_sqc(uint8_t *exp)
{
	unsigned i;

	/* dw0: rlky [31] cd_master [30] fre [29] flush_in_error_en [28] multi_pkt [27], inline [26:24] = 1 */
	exp[SQC(0x00)] = 0x80 | 0x40 | 0x20 | 0x10 | 0x08 | 0x01;
	exp[SQC(0x01)] = 0x10 | 0x04; /* state [23:20] = RDY, allow_swp [18] */
	exp[SQC(0x03)] = 0x20;        /* ts_format [5:4] = 2 */
	exp[SQC(0x05)] = 0x12;        /* user_index dw1 [23:0] */
	exp[SQC(0x06)] = 0x34;
	exp[SQC(0x07)] = 0x56;
	exp[SQC(0x0a)] = 0xab;        /* cqn dw2 [23:0] */
	exp[SQC(0x0b)] = 0xcd;
	exp[SQC(0x1e)] = 0x43;        /* packet_pacing_rate_limit_index dw7 [15:0] */
	exp[SQC(0x1f)] = 0x21;
	exp[SQC(0x21)] = 0x01;        /* tis_lst_sz dw8 [31:16] */
	exp[SQC(0x2d)] = 0x0a;        /* tis_num_0 dw11 [23:0] */
	exp[SQC(0x2e)] = 0x0b;
	exp[SQC(0x2f)] = 0x0c;
	exp[WQ(0x00)] = 0x10;         /* wq_type CYCLIC */
	exp[WQ(0x0b)] = 0x77;         /* pd */
	exp[WQ(0x0e)] = 0x01;         /* uar_page */
	exp[WQ(0x0f)] = 0x02;
	exp[WQ(0x17)] = 0x40;         /* dbr_addr */
	exp[WQ(0x21)] = 0x06;         /* log_wq_stride */
	exp[WQ(0x23)] = 0x0d;         /* log_wq_sz */
	exp[WQ(0x24)] = 0xc0;         /* dbr_umem_valid, wq_umem_valid */
	for (i = 0; i < 4; i++) {
		exp[WQ(0x28) + i] = (uint8_t)(0xa1 + i);
		exp[WQ(0x2c) + i] = (uint8_t)(0xb1 + i);
	}
	exp[WQ(0x36)] = 0x10;         /* wq_umem_offset 0x1000 */
}

static void assert_sqc_equal(const struct prm_sqc_params *a, const struct prm_sqc_params *b)
{
	assert_memory_equal(a, b, sizeof(*a));
}

static void test_create_sq_in_golden(void **state)
{
	struct prm_create_sq_params p, back;
	uint8_t in[BIG + 8], exp[BIG + 8];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.uid = 0x0033;
	fill_sqc(&p.sqc);
	memset(in, 0xee, sizeof(in));
	memset(exp, 0, BIG);
	memset(exp + BIG, 0xee, 8);
	exp[0x00] = 0x09; /* opcode 0x904 */
	exp[0x01] = 0x04;
	exp[0x03] = 0x33;
	expect_sqc(exp);
	assert_int_equal(prm_create_sq_in_build(&p, in, BIG), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	memset(&back, 0, sizeof(back));
	assert_int_equal(prm_create_sq_in_parse(in, BIG, &back), DOCA_SUCCESS);
	assert_int_equal(back.uid, 0x33);
	assert_sqc_equal(&back.sqc, &p.sqc);
}

static void test_modify_sq_in_golden(void **state)
{
	struct prm_modify_sq_params p, back;
	uint8_t in[BIG], exp[BIG];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.sq_state = PRM_SQ_STATE_RST;
	p.sqn = 0x00beef;
	p.modify_bitmask = 0x0102030405060708ull;
	p.sqc.state = PRM_SQ_STATE_RDY;
	memset(exp, 0, sizeof(exp));
	exp[0x00] = 0x09; /* opcode 0x905 */
	exp[0x01] = 0x05;
	exp[0x0a] = 0xbe; /* sq_state [31:28] = RST, sqn [23:0] */
	exp[0x0b] = 0xef;
	for (unsigned i = 0; i < 8; i++)
		exp[0x10 + i] = (uint8_t)(i + 1);
	exp[SQC(0x01)] = 0x10; /* sqc.state RDY */
	assert_int_equal(prm_modify_sq_in_build(&p, in, BIG), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	p.sq_state = PRM_SQ_STATE_ERR;
	assert_int_equal(prm_modify_sq_in_build(&p, in, BIG), DOCA_SUCCESS);
	assert_int_equal(in[0x08], 0x30);
	assert_int_equal(prm_modify_sq_in_parse(in, BIG, &back), DOCA_SUCCESS);
	assert_int_equal(back.sq_state, PRM_SQ_STATE_ERR);
	assert_int_equal(back.sqn, 0xbeef);
	assert_true(back.modify_bitmask == p.modify_bitmask);
	assert_int_equal(back.sqc.state, PRM_SQ_STATE_RDY);
}

static void test_create_tis_in_golden(void **state)
{
	struct prm_create_tis_params p, back;
	uint8_t in[PRM_TIS_CMD_SIZE], exp[PRM_TIS_CMD_SIZE];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.uid = 7;
	p.tisc.prio = 5;
	p.tisc.transport_domain = 0x112233;
	p.tisc.pd = 0x445566;
	memset(exp, 0, sizeof(exp));
	exp[0x00] = 0x09; /* opcode 0x912 */
	exp[0x01] = 0x12;
	exp[0x03] = 0x07;
	exp[0x21] = 0x05;                      /* prio tisc dw0 [19:16] */
	exp[0x45] = 0x11;                      /* transport_domain tisc dw9 [23:0] */
	exp[0x46] = 0x22;
	exp[0x47] = 0x33;
	exp[0x4d] = 0x44;                      /* pd tisc dw11 [23:0] */
	exp[0x4e] = 0x55;
	exp[0x4f] = 0x66;
	assert_int_equal(prm_create_tis_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	assert_int_equal(prm_create_tis_in_parse(in, sizeof(in), &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &p, sizeof(p));
}

static void test_small_commands(void **state)
{
	uint8_t b[PRM_SQ_SMALL_CMD_SIZE];
	uint32_t n = 0;
	uint16_t uid = 0;

	(void)state;
	assert_int_equal(prm_destroy_sq_in_build(3, 0x123456, b, sizeof(b)), DOCA_SUCCESS);
	assert_int_equal(b[0] << 8 | b[1], PRM_CMD_DESTROY_SQ);
	assert_int_equal(b[9] << 16 | b[10] << 8 | b[11], 0x123456);
	assert_int_equal(prm_destroy_sq_in_parse(b, sizeof(b), &uid, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0x123456);
	assert_int_equal(uid, 3);
	assert_int_equal(prm_destroy_tis_in_build(0, 0xabcdef, b, sizeof(b)), DOCA_SUCCESS);
	assert_int_equal(b[0] << 8 | b[1], PRM_CMD_DESTROY_TIS);
	assert_int_equal(prm_destroy_tis_in_parse(b, sizeof(b), &uid, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0xabcdef);
	assert_int_equal(prm_create_sq_out_build(0x00aa55, b, sizeof(b)), DOCA_SUCCESS);
	assert_int_equal(b[0], 0);
	assert_int_equal(b[10], 0xaa);
	assert_int_equal(prm_create_sq_out_parse(b, sizeof(b), &n), DOCA_SUCCESS);
	assert_int_equal(n, 0xaa55);
	assert_int_equal(prm_create_tis_out_build(0x000042, b, sizeof(b)), DOCA_SUCCESS);
	assert_int_equal(prm_create_tis_out_parse(b, sizeof(b), &n), DOCA_SUCCESS);
	assert_int_equal(n, 0x42);
	/* A failed command parses as its mapped error. */
	b[0] = PRM_STATUS_BAD_PARAM;
	assert_int_equal(prm_create_tis_out_parse(b, sizeof(b), &n), DOCA_ERROR_INVALID_VALUE);
}

static void test_bad_input(void **state)
{
	struct prm_create_sq_params p;
	uint8_t in[BIG];

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(prm_create_sq_in_build(NULL, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_sq_in_build(&p, in, BIG - 1), DOCA_ERROR_INVALID_VALUE);
	p.sqc.cqn = 0x1000000; /* 25 bits in a 24-bit field */
	assert_int_equal(prm_create_sq_in_build(&p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p.sqc.cqn = 1;
	assert_int_equal(prm_create_sq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	in[1] = 0x05; /* MODIFY_SQ opcode: the CREATE_SQ parser refuses it */
	assert_int_equal(prm_create_sq_in_parse(in, sizeof(in), &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_sq_in_parse(in, 8, &p), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_sq_in_golden),
		cmocka_unit_test(test_modify_sq_in_golden),
		cmocka_unit_test(test_create_tis_in_golden),
		cmocka_unit_test(test_small_commands),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
