/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RQ commands: every rqc field at its byte (rqc at 0x20 of the mailbox, its wq at 0x30 of the
 * rqc, so the wq starts at byte 0x50), MODIFY_RQ's own fields, the small commands, round
 * trips and refusals. Expected bytes are written out by hand from Linux mlx5_ifc.h
 * (mlx5_ifc_rqc_bits, wq_bits, create/modify/destroy/query_rq_in/out).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_rq.h"

#define BIG 0x110u              /* create_rq_in / modify_rq_in / query_rq_out */
#define SMALL 0x10u
#define RQC(byte) (0x20u + (byte))
#define WQ(byte) (0x50u + (byte))

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

/* Distinct non-zero values in every field. */
static void fill_rqc(struct prm_rqc_params *q)
{
	memset(q, 0, sizeof(*q));
	q->rlky = 1;
	q->delay_drop_en = 1;
	q->scatter_fcs = 1;
	q->vsd = 1;
	q->mem_rq_type = PRM_RQ_MEM_RMP;
	q->state = PRM_RQ_STATE_ERR;
	q->flush_in_error_en = 1;
	q->ts_format = 2;
	q->user_index = 0x123456;
	q->cqn = 0x789abc;
	q->counter_set_id = 0x5a;
	q->rmpn = 0x0d0e0f;
	q->wq.wq_type = 1;
	q->wq.wq_signature = 1;
	q->wq.end_padding_mode = 1;
	q->wq.cd_slave = 1;
	q->wq.page_offset = 0x11;
	q->wq.lwm = 0x2233;
	q->wq.pd = 0x445566;
	q->wq.uar_page = 0x778899;
	q->wq.dbr_addr = 0x0102030405060708ull;
	q->wq.hw_counter = 0xa1b2c3d4;
	q->wq.sw_counter = 0xe1f20314;
	q->wq.log_wq_stride = 6;
	q->wq.log_wq_pg_sz = 0x0c;
	q->wq.log_wq_sz = 0x0d;
	q->wq.dbr_umem_valid = 1;
	q->wq.wq_umem_valid = 1;
	q->wq.log_wqe_num_of_strides = 0xa; /* 2^3 strides (-6, two's complement) */
	q->wq.two_byte_shift_en = 1;
	q->wq.log_wqe_stride_size = 5;      /* 2^11-byte strides */
	q->wq.dbr_umem_id = 0x31323334;
	q->wq.wq_umem_id = 0x41424344;
	q->wq.wq_umem_offset = 0x5152535455565758ull;
}

/* The image of fill_rqc() in a mailbox whose rqc starts at 0x20. */
static void expect_rqc(uint8_t *exp)
{
	unsigned i;

	/* dw0: rlky [31] delay_drop_en [30] scatter_fcs [29] vsd [28] mem_rq_type [27:24] = 1 */
	exp[RQC(0x00)] = 0x80 | 0x40 | 0x20 | 0x10 | 0x01;
	exp[RQC(0x01)] = 0x30 | 0x04; /* state [23:20] = 3, flush_in_error_en [18] */
	exp[RQC(0x03)] = 0x20;        /* ts_format [5:4] = 2 */
	exp[RQC(0x05)] = 0x12;        /* user_index dw1 [23:0] */
	exp[RQC(0x06)] = 0x34;
	exp[RQC(0x07)] = 0x56;
	exp[RQC(0x09)] = 0x78;        /* cqn dw2 [23:0] */
	exp[RQC(0x0a)] = 0x9a;
	exp[RQC(0x0b)] = 0xbc;
	exp[RQC(0x0c)] = 0x5a;        /* counter_set_id dw3 [31:24] */
	exp[RQC(0x11)] = 0x0d;        /* rmpn dw4 [23:0] */
	exp[RQC(0x12)] = 0x0e;
	exp[RQC(0x13)] = 0x0f;
	/* wq dw0: wq_type [31:28] = 1, wq_signature [27], end_padding_mode [26:25] = 1, cd_slave [24] */
	exp[WQ(0x00)] = 0x10 | 0x08 | 0x02 | 0x01;
	exp[WQ(0x05)] = 0x11;         /* page_offset dw1 [20:16] */
	exp[WQ(0x06)] = 0x22;         /* lwm dw1 [15:0] */
	exp[WQ(0x07)] = 0x33;
	exp[WQ(0x09)] = 0x44;         /* pd dw2 [23:0] */
	exp[WQ(0x0a)] = 0x55;
	exp[WQ(0x0b)] = 0x66;
	exp[WQ(0x0d)] = 0x77;         /* uar_page dw3 [23:0] */
	exp[WQ(0x0e)] = 0x88;
	exp[WQ(0x0f)] = 0x99;
	for (i = 0; i < 8; i++)
		exp[WQ(0x10) + i] = (uint8_t)(i + 1); /* dbr_addr at 0x10 */
	exp[WQ(0x18)] = 0xa1;         /* hw_counter dw6 */
	exp[WQ(0x19)] = 0xb2;
	exp[WQ(0x1a)] = 0xc3;
	exp[WQ(0x1b)] = 0xd4;
	exp[WQ(0x1c)] = 0xe1;         /* sw_counter dw7 */
	exp[WQ(0x1d)] = 0xf2;
	exp[WQ(0x1e)] = 0x03;
	exp[WQ(0x1f)] = 0x14;
	exp[WQ(0x21)] = 0x06;         /* log_wq_stride dw8 [19:16] */
	exp[WQ(0x22)] = 0x0c;         /* log_wq_pg_sz dw8 [12:8] */
	exp[WQ(0x23)] = 0x0d;         /* log_wq_sz dw8 [4:0] */
	exp[WQ(0x24)] = 0xc0;         /* dbr_umem_valid dw9 [31], wq_umem_valid dw9 [30] */
	exp[WQ(0x26)] = 0x0a;         /* log_wqe_num_of_strides dw9 [11:8] (bit 0x134) */
	exp[WQ(0x27)] = 0x80 | 0x05;  /* two_byte_shift_en dw9 [7] (0x138), log_wqe_stride_size [2:0] (0x13d) */
	for (i = 0; i < 4; i++) {
		exp[WQ(0x28) + i] = (uint8_t)(0x31 + i); /* dbr_umem_id dw10 */
		exp[WQ(0x2c) + i] = (uint8_t)(0x41 + i); /* wq_umem_id dw11 */
	}
	for (i = 0; i < 8; i++)
		exp[WQ(0x30) + i] = (uint8_t)(0x51 + i); /* wq_umem_offset at 0x30 */
}

static void test_create_rq_in_golden(void **state)
{
	struct prm_create_rq_params p, back;
	uint8_t in[BIG + 8], exp[BIG + 8];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.uid = 0x0102;
	fill_rqc(&p.rqc);
	memset(in, 0xee, sizeof(in));
	memset(exp, 0, BIG);
	memset(exp + BIG, 0xee, 8); /* nothing written past the command */
	exp[0x00] = 0x09;           /* opcode 0x908 */
	exp[0x01] = 0x08;
	exp[0x02] = 0x01;           /* uid dw0 [15:0] */
	exp[0x03] = 0x02;
	expect_rqc(exp);
	assert_int_equal(prm_create_rq_in_build(&p, in, BIG), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	memset(&back, 0, sizeof(back));
	assert_int_equal(prm_create_rq_in_parse(in, BIG, &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &p, sizeof(p));
}

static void test_modify_rq_in_golden(void **state)
{
	struct prm_modify_rq_params p, back;
	uint8_t in[BIG], exp[BIG];
	unsigned i;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.uid = 0x0304;
	p.rq_state = PRM_RQ_STATE_RDY;
	p.rqn = 0xbeef01;
	p.modify_bitmask = 0x0102030405060708ull;
	fill_rqc(&p.rqc);
	memset(exp, 0, sizeof(exp));
	exp[0x00] = 0x09; /* opcode 0x909 */
	exp[0x01] = 0x09;
	exp[0x02] = 0x03;
	exp[0x03] = 0x04;
	exp[0x08] = 0x10; /* rq_state dw2 [31:28] = RDY */
	exp[0x09] = 0xbe; /* rqn dw2 [23:0] */
	exp[0x0a] = 0xef;
	exp[0x0b] = 0x01;
	for (i = 0; i < 8; i++)
		exp[0x10 + i] = (uint8_t)(i + 1); /* modify_bitmask at 0x10 */
	expect_rqc(exp);
	assert_int_equal(prm_modify_rq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	memset(&back, 0, sizeof(back));
	assert_int_equal(prm_modify_rq_in_parse(in, sizeof(in), &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &p, sizeof(p));

	/* The published bitmask bits and the ERR state land where the PRM has them. */
	p.rq_state = PRM_RQ_STATE_ERR;
	p.modify_bitmask = PRM_MODIFY_RQ_BITMASK_VSD | PRM_MODIFY_RQ_BITMASK_SCATTER_FCS |
			   PRM_MODIFY_RQ_BITMASK_COUNTER_SET_ID;
	assert_int_equal(prm_modify_rq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(in[0x08], 0x30);
	assert_int_equal(in[0x17], 0x0e);
	assert_int_equal(in[0x16], 0x00);
}

static void test_query_rq_out_golden(void **state)
{
	struct prm_rqc_params q, back;
	uint8_t out[BIG], exp[BIG];

	(void)state;
	fill_rqc(&q);
	memset(exp, 0, sizeof(exp));
	expect_rqc(exp); /* rq_context at 0x20 too; status OK */
	memset(out, 0xee, sizeof(out));
	assert_int_equal(prm_query_rq_out_build(&q, out, sizeof(out)), DOCA_SUCCESS);
	assert_memory_equal(out, exp, sizeof(out));
	memset(&back, 0, sizeof(back));
	assert_int_equal(prm_query_rq_out_parse(out, sizeof(out), &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &q, sizeof(q));
	out[0] = PRM_STATUS_BAD_RES_STATE;
	assert_int_equal(prm_query_rq_out_parse(out, sizeof(out), &back), DOCA_ERROR_BAD_STATE);
	out[0] = PRM_STATUS_OK;
	assert_int_equal(prm_query_rq_out_parse(out, BIG - 1, &back), DOCA_ERROR_INVALID_VALUE);
}

/*
 * A striding RQ as rxq_start.c builds it: wq_type CYCLIC_STRIDING (3), 32-byte WQEs (next segment
 * and one data segment), 2^6 strides of 2^11 bytes; the geometry fields alone at their bytes,
 * and the strides encoding over its whole range (2^3 .. 2^16, the two's complement below 2^9).
 */
static void test_striding_wq_golden(void **state)
{
	struct prm_create_rq_params p, back;
	uint8_t in[BIG];
	uint32_t lg;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.rqc.wq.wq_type = PRM_WQ_TYPE_CYCLIC_STRIDING;
	p.rqc.wq.log_wq_stride = 5;
	p.rqc.wq.log_wqe_num_of_strides = prm_wq_strides_encode(6);
	p.rqc.wq.log_wqe_stride_size = 11 - PRM_WQ_LOG_STRIDE_SIZE_BASE;
	assert_int_equal(prm_create_rq_in_build(&p, in, BIG), DOCA_SUCCESS);
	assert_int_equal(in[WQ(0x00)], 0x30); /* wq_type [31:28] = 3 */
	assert_int_equal(in[WQ(0x21)], 0x05); /* log_wq_stride = 5 */
	assert_int_equal(in[WQ(0x26)], 0x0d); /* 6 - 9 = -3 = 0xd */
	assert_int_equal(in[WQ(0x27)], 0x05); /* 11 - 6 */
	assert_int_equal(in[WQ(0x25)], 0x00);
	memset(&back, 0, sizeof(back));
	assert_int_equal(prm_create_rq_in_parse(in, BIG, &back), DOCA_SUCCESS);
	assert_int_equal(back.rqc.wq.log_wqe_num_of_strides, 0x0d);
	assert_int_equal(prm_wq_strides_decode(back.rqc.wq.log_wqe_num_of_strides), 6);
	assert_int_equal(prm_wq_strides_encode(9), 0x0);
	assert_int_equal(prm_wq_strides_encode(16), 0x7);
	assert_int_equal(prm_wq_strides_encode(3), 0xa);
	for (lg = PRM_WQ_LOG_NUM_STRIDES_MIN; lg <= PRM_WQ_LOG_NUM_STRIDES_MAX; lg++)
		assert_int_equal(prm_wq_strides_decode(prm_wq_strides_encode(lg)), lg);
}

static void test_small_commands(void **state)
{
	uint8_t b[SMALL], exp[SMALL];
	uint32_t n = 0;
	uint16_t uid = 0;

	(void)state;
	memset(exp, 0, sizeof(exp));
	exp[0x00] = 0x09; /* DESTROY_RQ 0x90a */
	exp[0x01] = 0x0a;
	exp[0x03] = 0x07; /* uid */
	exp[0x09] = 0x12; /* rqn dw2 [23:0] */
	exp[0x0a] = 0x34;
	exp[0x0b] = 0x56;
	assert_int_equal(prm_destroy_rq_in_build(7, 0x123456, b, sizeof(b)), DOCA_SUCCESS);
	assert_memory_equal(b, exp, sizeof(b));
	assert_int_equal(prm_destroy_rq_in_parse(b, sizeof(b), &uid, &n), DOCA_SUCCESS);
	assert_int_equal(uid, 7);
	assert_int_equal(n, 0x123456);

	exp[0x01] = 0x0b; /* QUERY_RQ 0x90b, same fields */
	assert_int_equal(prm_query_rq_in_build(7, 0x123456, b, sizeof(b)), DOCA_SUCCESS);
	assert_memory_equal(b, exp, sizeof(b));
	assert_int_equal(prm_query_rq_in_parse(b, sizeof(b), &uid, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0x123456);
	/* A QUERY_RQ is not a DESTROY_RQ. */
	assert_int_equal(prm_destroy_rq_in_parse(b, sizeof(b), &uid, &n), DOCA_ERROR_INVALID_VALUE);

	memset(exp, 0, sizeof(exp));
	exp[0x09] = 0xab; /* create_rq_out rqn dw2 [23:0], status OK */
	exp[0x0a] = 0xcd;
	exp[0x0b] = 0xef;
	memset(b, 0xee, sizeof(b));
	assert_int_equal(prm_create_rq_out_build(0xabcdef, b, sizeof(b)), DOCA_SUCCESS);
	assert_memory_equal(b, exp, sizeof(b));
	assert_int_equal(prm_create_rq_out_parse(b, sizeof(b), &n), DOCA_SUCCESS);
	assert_int_equal(n, 0xabcdef);
	b[0] = PRM_STATUS_BAD_PARAM;
	assert_int_equal(prm_create_rq_out_parse(b, sizeof(b), &n), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rq_out_build(0x1000000, b, sizeof(b)), DOCA_ERROR_INVALID_VALUE);
}

static void test_bad_input(void **state)
{
	struct prm_create_rq_params p;
	struct prm_modify_rq_params m;
	uint8_t in[BIG];
	uint32_t n;
	uint16_t uid;

	(void)state;
	memset(&p, 0, sizeof(p));
	memset(&m, 0, sizeof(m));
	assert_int_equal(prm_create_rq_in_build(NULL, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rq_in_build(&p, in, BIG - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rq_in_build(&p, NULL, BIG), DOCA_ERROR_INVALID_VALUE);
	p.rqc.cqn = 0x1000000; /* 25 bits in a 24-bit field */
	assert_int_equal(prm_create_rq_in_build(&p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p.rqc.cqn = 1;
	p.rqc.state = 0x10; /* 5 bits in a 4-bit field */
	assert_int_equal(prm_create_rq_in_build(&p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p.rqc.state = PRM_RQ_STATE_RST;
	p.rqc.ts_format = 4;
	assert_int_equal(prm_create_rq_in_build(&p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p.rqc.ts_format = 0;
	m.rq_state = 0x10;
	assert_int_equal(prm_modify_rq_in_build(&m, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);

	/* Wrong opcode, short buffer, NULL output: refused, the output untouched. */
	assert_int_equal(prm_create_rq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	memset(&m, 0x5c, sizeof(m));
	assert_int_equal(prm_modify_rq_in_parse(in, sizeof(in), &m), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(m.rqn, 0x5c5c5c5c);
	assert_int_equal(prm_create_rq_in_parse(in, BIG - 1, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rq_in_parse(in, sizeof(in), NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_rq_in_build(0, 0x1000000, in, SMALL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_rq_in_build(0, 1, in, SMALL - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_destroy_rq_in_parse(in, SMALL - 1, &uid, &n), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_rq_in_golden),
		cmocka_unit_test(test_modify_rq_in_golden),
		cmocka_unit_test(test_query_rq_out_golden),
		cmocka_unit_test(test_striding_wq_golden),
		cmocka_unit_test(test_small_commands),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
