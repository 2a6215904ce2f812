/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RQT and TIR commands: every rqtc / tirc field at its byte (both contexts at 0x20 of the
 * mailbox, the RQT's rq_num list at 0x110), the length of a CREATE_RQT with its list, round
 * trips and refusals. Expected bytes are written out by hand from Linux mlx5_ifc.h
 * (mlx5_ifc_rqtc_bits, rq_num_bits, tirc_bits, rx_hash_field_select_bits, create_*_in/out).
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
#include "prm/prm_tir.h"

#define TIR_IN 0x110u           /* create_tir_in */
#define RQT_FIXED 0x110u        /* create_rqt_in before rq_num[] */
#define SMALL 0x10u
#define TIRC(byte) (0x20u + (byte))

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

static void test_rqt_size(void **state)
{
	(void)state;
	assert_int_equal(prm_create_rqt_in_size(0), 0x110);
	assert_int_equal(prm_create_rqt_in_size(1), 0x114);
	assert_int_equal(prm_create_rqt_in_size(3), 0x11c);
	assert_int_equal(prm_create_rqt_in_size(256), 0x510);
	assert_int_equal(prm_create_rqt_in_size(257), 0);
}

static void test_create_rqt_in_golden(void **state)
{
	struct prm_create_rqt_params *p = calloc(1, sizeof(*p)), *back = calloc(1, sizeof(*back));
	uint8_t in[0x11c + 8], exp[0x11c + 8];

	(void)state;
	assert_non_null(p);
	assert_non_null(back);
	p->uid = 0x0506;
	p->rqtc.rqt_max_size = 0x1234;
	p->rqtc.rqt_actual_size = 3;
	p->rqtc.rq_num[0] = 0x010203;
	p->rqtc.rq_num[1] = 0x0a0b0c;
	p->rqtc.rq_num[2] = 0xfffffe;
	p->rqtc.rq_num[3] = 0x777777; /* past rqt_actual_size: not written */
	memset(in, 0xee, sizeof(in));
	memset(exp, 0, 0x11c);
	memset(exp + 0x11c, 0xee, 8);
	exp[0x00] = 0x09; /* opcode 0x916 */
	exp[0x01] = 0x16;
	exp[0x02] = 0x05; /* uid */
	exp[0x03] = 0x06;
	exp[0x36] = 0x12; /* rqt_max_size: rqtc dw5 [15:0] at 0x20 + 0x14 */
	exp[0x37] = 0x34;
	exp[0x3b] = 0x03; /* rqt_actual_size: rqtc dw6 [15:0] */
	exp[0x111] = 0x01; /* rq_num[0] dw [23:0] at 0x20 + 0xf0 */
	exp[0x112] = 0x02;
	exp[0x113] = 0x03;
	exp[0x115] = 0x0a; /* rq_num[1] */
	exp[0x116] = 0x0b;
	exp[0x117] = 0x0c;
	exp[0x119] = 0xff; /* rq_num[2] */
	exp[0x11a] = 0xff;
	exp[0x11b] = 0xfe;
	assert_int_equal(prm_create_rqt_in_build(p, in, 0x11c), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	assert_int_equal(prm_create_rqt_in_parse(in, 0x11c, back), DOCA_SUCCESS);
	p->rqtc.rq_num[3] = 0;
	assert_memory_equal(back, p, sizeof(*p));
	free(p);
	free(back);
}

static void test_create_rqt_full_list(void **state)
{
	struct prm_create_rqt_params *p = calloc(1, sizeof(*p)), *back = calloc(1, sizeof(*back));
	size_t len = 0x510;
	uint8_t *in = calloc(1, len);
	uint32_t i;

	(void)state;
	assert_non_null(p);
	assert_non_null(back);
	assert_non_null(in);
	p->rqtc.rqt_max_size = 256;
	p->rqtc.rqt_actual_size = 256;
	for (i = 0; i < 256; i++)
		p->rqtc.rq_num[i] = 0x100 + i;
	assert_int_equal(prm_create_rqt_in_build(p, in, len), DOCA_SUCCESS);
	/* The last entry: 0x110 + 4 * 255 = 0x50c, value 0x1ff. */
	assert_int_equal(in[0x50c], 0x00);
	assert_int_equal(in[0x50d], 0x00);
	assert_int_equal(in[0x50e], 0x01);
	assert_int_equal(in[0x50f], 0xff);
	assert_int_equal(prm_create_rqt_in_parse(in, len, back), DOCA_SUCCESS);
	assert_memory_equal(back, p, sizeof(*p));
	/* One byte short of the list. */
	assert_int_equal(prm_create_rqt_in_build(p, in, len - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rqt_in_parse(in, len - 1, back), DOCA_ERROR_INVALID_VALUE);
	free(p);
	free(back);
	free(in);
}

static void test_rqt_bad_input(void **state)
{
	struct prm_create_rqt_params *p = calloc(1, sizeof(*p)), *back = calloc(1, sizeof(*back));
	uint8_t in[0x120];
	uint32_t n = 0;
	uint16_t uid = 0;

	(void)state;
	assert_non_null(p);
	assert_non_null(back);
	memset(in, 0, sizeof(in));
	p->rqtc.rqt_actual_size = 257; /* more entries than the parameters hold */
	assert_int_equal(prm_create_rqt_in_build(p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p->rqtc.rqt_actual_size = 2;
	p->rqtc.rq_num[1] = 0x1000000; /* 25 bits in a 24-bit entry */
	assert_int_equal(prm_create_rqt_in_build(p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p->rqtc.rq_num[1] = 5;
	assert_int_equal(prm_create_rqt_in_build(NULL, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rqt_in_build(p, in, 0x117), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_rqt_in_build(p, in, 0x118), DOCA_SUCCESS);
	assert_int_equal(prm_create_rqt_in_parse(in, 0x117, back), DOCA_ERROR_INVALID_VALUE);
	/* A mailbox whose rqt_actual_size exceeds what a parameters struct holds. */
	in[0x3a] = 0x01;
	in[0x3b] = 0x01;
	assert_int_equal(prm_create_rqt_in_parse(in, sizeof(in), back), DOCA_ERROR_INVALID_VALUE);
	in[0x3a] = 0x00;
	in[0x3b] = 0x02;
	in[0x01] = 0x18; /* DESTROY_RQT opcode */
	assert_int_equal(prm_create_rqt_in_parse(in, sizeof(in), back), DOCA_ERROR_INVALID_VALUE);

	/* DESTROY_RQT and CREATE_RQT out. */
	assert_int_equal(prm_destroy_rqt_in_build(3, 0x00c0de, in, SMALL), DOCA_SUCCESS);
	assert_int_equal(in[0], 0x09);
	assert_int_equal(in[1], 0x18);
	assert_int_equal(in[3], 0x03);
	assert_int_equal(in[9], 0x00);
	assert_int_equal(in[10], 0xc0);
	assert_int_equal(in[11], 0xde);
	assert_int_equal(prm_destroy_rqt_in_parse(in, SMALL, &uid, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0xc0de);
	assert_int_equal(prm_create_rqt_out_build(0x345678, in, SMALL), DOCA_SUCCESS);
	assert_int_equal(in[0], 0);
	assert_int_equal(in[9], 0x34);
	assert_int_equal(in[10], 0x56);
	assert_int_equal(in[11], 0x78);
	assert_int_equal(prm_create_rqt_out_parse(in, SMALL, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0x345678);
	in[0] = PRM_STATUS_NO_RESOURCES;
	assert_int_equal(prm_create_rqt_out_parse(in, SMALL, &n), DOCA_ERROR_NO_MEMORY);
	free(p);
	free(back);
}

static void fill_tirc(struct prm_tirc_params *t)
{
	unsigned i;

	memset(t, 0, sizeof(*t));
	t->disp_type = PRM_TIR_DISP_INDIRECT;
	t->lro_timeout_period_usecs = 0xabcd;
	t->lro_enable_mask = PRM_TIR_LRO_IPV4 | PRM_TIR_LRO_IPV6;
	t->lro_max_ip_payload_size = 0x5e;
	t->inline_rqn = 0x112233;
	t->rx_hash_symmetric = 1;
	t->tunneled_offload_en = 1;
	t->indirect_table = 0x445566;
	t->rx_hash_fn = PRM_RX_HASH_FN_TOEPLITZ;
	t->self_lb_block = PRM_TIR_SELF_LB_BLOCK_UNICAST | PRM_TIR_SELF_LB_BLOCK_MULTICAST;
	t->transport_domain = 0x778899;
	for (i = 0; i < PRM_TIR_TOEPLITZ_KEY_LEN; i++)
		t->rx_hash_toeplitz_key[i] = (uint8_t)(0x80 + i);
	t->rx_hash_field_selector_outer.l3_prot_type = PRM_RX_HASH_L3_IPV6;
	t->rx_hash_field_selector_outer.l4_prot_type = PRM_RX_HASH_L4_UDP;
	t->rx_hash_field_selector_outer.selected_fields = 0x20000000u | PRM_RX_HASH_SRC_IP | PRM_RX_HASH_DST_IP |
							  PRM_RX_HASH_L4_SPORT | PRM_RX_HASH_L4_DPORT |
							  PRM_RX_HASH_IPSEC_SPI;
	t->rx_hash_field_selector_inner.l3_prot_type = PRM_RX_HASH_L3_IPV4;
	t->rx_hash_field_selector_inner.l4_prot_type = PRM_RX_HASH_L4_UDP;
	t->rx_hash_field_selector_inner.selected_fields = PRM_RX_HASH_SRC_IP | PRM_RX_HASH_DST_IP;
}

static void test_create_tir_in_golden(void **state)
{
	struct prm_create_tir_params p, back;
	uint8_t in[TIR_IN + 8], exp[TIR_IN + 8];
	unsigned i;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.uid = 0x0708;
	fill_tirc(&p.tirc);
	memset(in, 0xee, sizeof(in));
	memset(exp, 0, TIR_IN);
	memset(exp + TIR_IN, 0xee, 8);
	exp[0x00] = 0x09;        /* opcode 0x900 */
	exp[0x01] = 0x00;
	exp[0x02] = 0x07;        /* uid */
	exp[0x03] = 0x08;
	exp[TIRC(0x04)] = 0x10;  /* disp_type dw1 [31:28] = INDIRECT */
	/* dw4: lro_timeout_period_usecs [27:12] = 0xabcd, lro_enable_mask [11:8] = 3, payload [7:0] = 0x5e */
	exp[TIRC(0x10)] = 0x0a;
	exp[TIRC(0x11)] = 0xbc;
	exp[TIRC(0x12)] = 0xd3;
	exp[TIRC(0x13)] = 0x5e;
	exp[TIRC(0x1d)] = 0x11;  /* inline_rqn dw7 [23:0] */
	exp[TIRC(0x1e)] = 0x22;
	exp[TIRC(0x1f)] = 0x33;
	exp[TIRC(0x20)] = 0xa0;  /* dw8: rx_hash_symmetric [31], tunneled_offload_en [29] */
	exp[TIRC(0x21)] = 0x44;  /* indirect_table dw8 [23:0] */
	exp[TIRC(0x22)] = 0x55;
	exp[TIRC(0x23)] = 0x66;
	exp[TIRC(0x24)] = 0x23;  /* dw9: rx_hash_fn [31:28] = TOEPLITZ (2), self_lb_block [25:24] = 3 */
	exp[TIRC(0x25)] = 0x77;  /* transport_domain dw9 [23:0] */
	exp[TIRC(0x26)] = 0x88;
	exp[TIRC(0x27)] = 0x99;
	for (i = 0; i < 40; i++)
		exp[TIRC(0x28) + i] = (uint8_t)(0x80 + i); /* rx_hash_toeplitz_key dw10..dw19 */
	/* rx_hash_field_selector_outer dw20: l3 [31] = IPV6, l4 [30] = UDP, selected_fields [29:0] */
	exp[TIRC(0x50)] = 0xe0;
	exp[TIRC(0x53)] = 0x1f;
	/* rx_hash_field_selector_inner dw21: l3 IPV4, l4 UDP, SRC_IP | DST_IP */
	exp[TIRC(0x54)] = 0x40;
	exp[TIRC(0x57)] = 0x03;
	assert_int_equal(prm_create_tir_in_build(&p, in, TIR_IN), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
	memset(&back, 0, sizeof(back));
	assert_int_equal(prm_create_tir_in_parse(in, TIR_IN, &back), DOCA_SUCCESS);
	assert_memory_equal(&back, &p, sizeof(p));

	/* A direct TIR: disp_type 0 and the RQ in inline_rqn. */
	memset(&p, 0, sizeof(p));
	p.tirc.disp_type = PRM_TIR_DISP_DIRECT;
	p.tirc.inline_rqn = 0x000042;
	p.tirc.transport_domain = 0x000009;
	assert_int_equal(prm_create_tir_in_build(&p, in, TIR_IN), DOCA_SUCCESS);
	assert_int_equal(in[TIRC(0x04)], 0x00);
	assert_int_equal(in[TIRC(0x1f)], 0x42);
	assert_int_equal(in[TIRC(0x27)], 0x09);
}

static void test_tir_small_and_bad(void **state)
{
	struct prm_create_tir_params p;
	uint8_t in[TIR_IN];
	uint32_t n = 0;
	uint16_t uid = 0;

	(void)state;
	assert_int_equal(prm_destroy_tir_in_build(9, 0xfedcba, in, SMALL), DOCA_SUCCESS);
	assert_int_equal(in[0], 0x09);
	assert_int_equal(in[1], 0x02); /* DESTROY_TIR 0x902 */
	assert_int_equal(in[3], 0x09);
	assert_int_equal(in[9], 0xfe);
	assert_int_equal(in[10], 0xdc);
	assert_int_equal(in[11], 0xba);
	assert_int_equal(prm_destroy_tir_in_parse(in, SMALL, &uid, &n), DOCA_SUCCESS);
	assert_int_equal(uid, 9);
	assert_int_equal(n, 0xfedcba);
	assert_int_equal(prm_create_tir_in_parse(in, SMALL, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_tir_out_build(0x0a0b0c, in, SMALL), DOCA_SUCCESS);
	assert_int_equal(in[9], 0x0a);
	assert_int_equal(in[10], 0x0b);
	assert_int_equal(in[11], 0x0c);
	assert_int_equal(prm_create_tir_out_parse(in, SMALL, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0x0a0b0c);
	assert_int_equal(prm_create_tir_out_parse(in, SMALL - 1, &n), DOCA_ERROR_INVALID_VALUE);

	memset(&p, 0, sizeof(p));
	assert_int_equal(prm_create_tir_in_build(NULL, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_create_tir_in_build(&p, in, TIR_IN - 1), DOCA_ERROR_INVALID_VALUE);
	p.tirc.disp_type = 0x10;
	assert_int_equal(prm_create_tir_in_build(&p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p.tirc.disp_type = 0;
	p.tirc.rx_hash_field_selector_outer.selected_fields = 0x40000000; /* 31 bits in a 30-bit field */
	assert_int_equal(prm_create_tir_in_build(&p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p.tirc.rx_hash_field_selector_outer.selected_fields = 0;
	p.tirc.self_lb_block = 4;
	assert_int_equal(prm_create_tir_in_build(&p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p.tirc.self_lb_block = 0;
	p.tirc.transport_domain = 0x1000000;
	assert_int_equal(prm_create_tir_in_build(&p, in, sizeof(in)), DOCA_ERROR_INVALID_VALUE);
	p.tirc.transport_domain = 1;
	assert_int_equal(prm_create_tir_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(prm_create_tir_in_parse(in, TIR_IN - 1, &p), DOCA_ERROR_INVALID_VALUE);
	in[1] = 0x16; /* CREATE_RQT opcode */
	assert_int_equal(prm_create_tir_in_parse(in, sizeof(in), &p), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rqt_size),
		cmocka_unit_test(test_create_rqt_in_golden),
		cmocka_unit_test(test_create_rqt_full_list),
		cmocka_unit_test(test_rqt_bad_input),
		cmocka_unit_test(test_create_tir_in_golden),
		cmocka_unit_test(test_tir_small_and_bad),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
