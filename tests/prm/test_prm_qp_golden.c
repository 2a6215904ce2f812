/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Golden images of the QP commands: each field lands at exactly the bytes and bits of
 * reference/mlx5.md B.9, and nothing else in the image is non-zero. Expected images are
 * built from hand-written absolute positions (test_prm_qp_expect.c) or literal bytes.
 */
#include "test_prm_qp_expect.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define LONG_SIZE 0x110u
#define SHORT_SIZE 0x10u

/* Reports the first differing byte, which names the misplaced field far better than a bool. */
static void assert_image(const uint8_t *got, const uint8_t *want, size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			print_error("%s: byte 0x%zx is 0x%02x, expected 0x%02x\n", what, i, got[i], want[i]);
			fail();
		}
	}
}

/* The qpc fields each command carries, as documented in prm_qp.h (test names: "rmac" is one). */
static const char *const create_names[] = {
	"st", "pm_state", "wq_signature", "pd", "log_rq_size", "log_rq_stride", "no_sq", "log_sq_size",
	"ts_format", "counter_set_id", "uar_page", "send_dbr_mode", "user_index", "log_page_size",
	"cd_slave_receive", "cd_slave_send", "cd_master", "cqn_snd", "cqn_rcv", "dbr_addr", "rq_type",
	"srqn_rmpn_xrqn", "cs_req", "cs_res", "dbr_umem_valid", "dbr_umem_id",
};
static const char *const rst2init_names[] = {
	"pm_state", "counter_set_id", "primary_address_path.pkey_index", "primary_address_path.vhca_port_num",
	"atomic_mode", "rre", "rwe", "rae", "q_key",
};
static const char *const init2init_names[] = {
	"counter_set_id", "primary_address_path.pkey_index", "primary_address_path.vhca_port_num",
	"rre", "rwe", "rae", "q_key",
};
static const char *const init2rtr_names[] = {
	"mtu", "log_msg_max", "remote_qpn", "log_rra_max", "min_rnr_nak", "next_rcv_psn",
	"primary_address_path.fl", "primary_address_path.free_ar", "primary_address_path.pkey_index",
	"primary_address_path.grh", "primary_address_path.mlid", "primary_address_path.rlid",
	"primary_address_path.src_addr_index", "primary_address_path.stat_rate", "primary_address_path.hop_limit",
	"primary_address_path.tclass", "primary_address_path.flow_label", "primary_address_path.rgid_rip",
	"primary_address_path.f_dscp", "primary_address_path.f_ecn", "primary_address_path.f_eth_prio",
	"primary_address_path.ecn", "primary_address_path.dscp", "primary_address_path.udp_sport",
	"primary_address_path.dei_cfi", "primary_address_path.eth_prio", "primary_address_path.sl",
	"primary_address_path.vhca_port_num", "primary_address_path.rmac",
};
static const char *const rtr2rts_names[] = {
	"log_ack_req_freq", "log_sra_max", "retry_count", "rnr_retry", "next_send_psn",
	"primary_address_path.ack_timeout",
};
static const char *const rts2rts_names[] = {
	"pm_state", "rre", "rwe", "rae", "min_rnr_nak", "primary_address_path.ack_timeout",
};
static const char *const sqerr2rts_names[] = {"rre", "rwe", "rae", "min_rnr_nak"};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const struct qp_expect *must_find(const char *name)
{
	const struct qp_expect *e = qp_expect_find(name);

	if (e == NULL) {
		print_error("no expectation for '%s'\n", name);
		fail();
	}
	return e;
}

static void img_header(uint8_t *img, uint16_t opcode, uint16_t uid)
{
	img_set(img, 0, 31, 16, opcode);
	img_set(img, 0, 15, 0, uid);
}

/* ---- CREATE_QP ------------------------------------------------------------------------------ */

/* Literal bytes for a few B.9 rows, independent of every helper. */
static void test_create_qp_in_literal_bytes(void **state)
{
	struct prm_create_qp_params p;
	uint8_t buf[LONG_SIZE];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.qpc.log_sq_size = 6;     /* dw8 [14:11] -> byte 0x22 = 6 << 3 */
	p.qpc.st = PRM_QP_ST_DCI;  /* byte 0x19 */
	p.qpc.pm_state = PRM_QP_PM_MIGRATED; /* dw6 [12:11] -> byte 0x1a = 0x18 */
	p.qpc.pd = 0x123456;       /* bytes 0x1d-0x1f */
	p.qpc.dbr_umem_id = 0xa1b2c3d4; /* bytes 0xfc-0xff */
	p.wq_umem_offset = 0x0102030405060708ull; /* bytes 0x100-0x107 */
	p.wq_umem_id = 0xcafef00d; /* bytes 0x108-0x10b */
	p.wq_umem_valid = 1;       /* byte 0x10c bit 7 */
	assert_int_equal(prm_create_qp_in_build(&p, buf, sizeof(buf)), DOCA_SUCCESS);

	assert_int_equal(buf[0x00], 0x05);
	assert_int_equal(buf[0x01], 0x00);
	assert_int_equal(buf[0x19], 0x05);
	assert_int_equal(buf[0x1a], 0x18);
	assert_int_equal(buf[0x1d], 0x12);
	assert_int_equal(buf[0x1e], 0x34);
	assert_int_equal(buf[0x1f], 0x56);
	assert_int_equal(buf[0x22], 0x30);
	assert_int_equal(buf[0x23], 0x00);
	assert_int_equal(buf[0xfc], 0xa1);
	assert_int_equal(buf[0xff], 0xd4);
	assert_int_equal(buf[0x100], 0x01);
	assert_int_equal(buf[0x107], 0x08);
	assert_int_equal(buf[0x108], 0xca);
	assert_int_equal(buf[0x10b], 0x0d);
	assert_int_equal(buf[0x10c], 0x80);
	assert_int_equal(buf[0x10d], 0x00);
}

/* One field at a time at all ones: catches a field placed or sized wrong, or two swapped. */
static void test_create_qp_in_each_field(void **state)
{
	uint8_t buf[LONG_SIZE], want[LONG_SIZE];
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(create_names); i++) {
		const struct qp_expect *e = must_find(create_names[i]);
		struct prm_create_qp_params p;
		static const uint8_t ff[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

		memset(&p, 0, sizeof(p));
		qpc_member_store(&p.qpc, e, qp_expect_ones(e), ff);
		assert_int_equal(prm_create_qp_in_build(&p, buf, sizeof(buf)), DOCA_SUCCESS);
		memset(want, 0, sizeof(want));
		img_header(want, 0x500, 0);
		img_put_ones(want, e);
		assert_image(buf, want, sizeof(buf), e->path);
	}
}

static void create_all_ones_image(uint8_t *want)
{
	size_t i;

	memset(want, 0, LONG_SIZE);
	img_header(want, 0x500, 0xffff);
	img_set(want, 4, 31, 0, 0xffffffffu);          /* opt_param_mask 0x10 */
	for (i = 0; i < NELEM(create_names); i++)
		img_put_ones(want, must_find(create_names[i]));
	img_set(want, 64, 63, 0, ~0ull);               /* wq_umem_offset 0x100 */
	img_set(want, 66, 31, 0, 0xffffffffu);         /* wq_umem_id 0x108 */
	img_set(want, 67, 31, 31, 1);                  /* wq_umem_valid 0x10c [31] */
}

/* Every CREATE_QP field at all ones; every other qpc field too, which must not appear. */
static void test_create_qp_in_all_fields(void **state)
{
	uint8_t buf[LONG_SIZE], want[LONG_SIZE];
	struct prm_create_qp_params p;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.uid = 0xffff;
	p.opt_param_mask = 0xffffffffu;
	qpc_fill_ones(&p.qpc);
	p.wq_umem_offset = ~0ull;
	p.wq_umem_id = 0xffffffffu;
	p.wq_umem_valid = 1;
	assert_int_equal(prm_create_qp_in_build(&p, buf, sizeof(buf)), DOCA_SUCCESS);
	create_all_ones_image(want);
	assert_image(buf, want, sizeof(buf), "create_qp_in all ones");
}

static void test_create_qp_out_qpn(void **state)
{
	static const uint8_t want[SHORT_SIZE] = {0x03, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef, 0x00, 0xab, 0xcd, 0xef};
	uint8_t buf[SHORT_SIZE];

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(prm_create_qp_out_build(0x03, 0xdeadbeef, 0xabcdef, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_image(buf, want, sizeof(buf), "create_qp_out");
}

/* ---- Short commands --------------------------------------------------------------------------- */

static void test_destroy_qp_in(void **state)
{
	static const uint8_t want[SHORT_SIZE] = {0x05, 0x01, 0xff, 0xff, 0, 0, 0, 0, 0x00, 0xff, 0xff, 0xff};
	uint8_t buf[SHORT_SIZE];

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(prm_destroy_qp_in_build(0xffff, 0xffffff, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_image(buf, want, sizeof(buf), "destroy_qp_in");
}

static void test_query_qp_in(void **state)
{
	static const uint8_t want[SHORT_SIZE] = {0x05, 0x0b, 0x12, 0x34, 0, 0, 0, 0, 0x00, 0x65, 0x43, 0x21};
	uint8_t buf[SHORT_SIZE];

	(void)state;
	assert_int_equal(prm_query_qp_in_build(0x1234, 0x654321, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_image(buf, want, sizeof(buf), "query_qp_in");
}

static void test_2err_2rst_in(void **state)
{
	static const uint8_t want_err[SHORT_SIZE] = {0x05, 0x07, 0xff, 0xff, 0, 0, 0, 0, 0x00, 0xff, 0xff, 0xff};
	static const uint8_t want_rst[SHORT_SIZE] = {0x05, 0x0a, 0x00, 0x07, 0, 0, 0, 0, 0x00, 0x00, 0x01, 0x02};
	struct prm_modify_qp_params p;
	uint8_t buf[SHORT_SIZE];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.opcode = PRM_CMD_2ERR_QP;
	p.uid = 0xffff;
	p.qpn = 0xffffff;
	qpc_fill_ones(&p.qpc); /* 2ERR carries no qpc: must not matter */
	assert_int_equal(prm_modify_qp_in_build(&p, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_image(buf, want_err, sizeof(buf), "qp_2err_in");

	p.opcode = PRM_CMD_2RST_QP;
	p.uid = 7;
	p.qpn = 0x102;
	assert_int_equal(prm_modify_qp_in_build(&p, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_image(buf, want_rst, sizeof(buf), "qp_2rst_in");
}

static void test_status_outs(void **state)
{
	static const uint16_t opcodes[] = {
		PRM_CMD_DESTROY_QP, PRM_CMD_RST2INIT_QP, PRM_CMD_INIT2INIT_QP, PRM_CMD_INIT2RTR_QP,
		PRM_CMD_RTR2RTS_QP, PRM_CMD_RTS2RTS_QP, PRM_CMD_SQERR2RTS_QP, PRM_CMD_2ERR_QP, PRM_CMD_2RST_QP,
		PRM_CMD_CREATE_QP,
	};
	static const uint8_t want[SHORT_SIZE] = {0x10, 0, 0, 0, 0x01, 0x23, 0x45, 0x67};
	uint8_t buf[LONG_SIZE];
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(opcodes); i++) {
		memset(buf, 0x5a, sizeof(buf));
		assert_int_equal(prm_qp_status_out_build(opcodes[i], 0x10, 0x01234567, buf, SHORT_SIZE), DOCA_SUCCESS);
		assert_image(buf, want, SHORT_SIZE, "status out");
		assert_int_equal(buf[SHORT_SIZE], 0x5a); /* nothing past the 16-byte out */
	}
	/* QUERY_QP's out is 0x110 bytes: an error reply zeroes all of it. */
	{
		uint8_t want_long[LONG_SIZE];

		memset(want_long, 0, sizeof(want_long));
		memcpy(want_long, want, sizeof(want));
		memset(buf, 0x5a, sizeof(buf));
		assert_int_equal(prm_qp_status_out_build(PRM_CMD_QUERY_QP, 0x10, 0x01234567, buf, sizeof(buf)),
				 DOCA_SUCCESS);
		assert_image(buf, want_long, sizeof(buf), "query_qp_out error");
	}
}

/* ---- QUERY_QP out: every modelled qpc field ------------------------------------------------- */

static void test_query_qp_out_each_field(void **state)
{
	static const uint8_t ff[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	uint8_t buf[LONG_SIZE], want[LONG_SIZE];
	size_t i;

	(void)state;
	for (i = 0; i < qp_expect_qpc_count; i++) {
		const struct qp_expect *e = &qp_expect_qpc[i];
		struct prm_qpc_params qpc;

		memset(&qpc, 0, sizeof(qpc));
		qpc_member_store(&qpc, e, qp_expect_ones(e), ff);
		assert_int_equal(prm_query_qp_out_build(0, 0, &qpc, buf, sizeof(buf)), DOCA_SUCCESS);
		memset(want, 0, sizeof(want));
		img_put_ones(want, e);
		assert_image(buf, want, sizeof(buf), e->path);
	}
}

static void test_query_qp_out_all_fields(void **state)
{
	uint8_t buf[LONG_SIZE], want[LONG_SIZE];
	struct prm_qpc_params qpc;
	size_t i;

	(void)state;
	memset(&qpc, 0, sizeof(qpc));
	qpc_fill_ones(&qpc);
	assert_int_equal(prm_query_qp_out_build(0xff, 0xffffffffu, &qpc, buf, sizeof(buf)), DOCA_SUCCESS);
	memset(want, 0, sizeof(want));
	img_set(want, 0, 31, 24, 0xff); /* status */
	img_set(want, 1, 31, 0, 0xffffffffu); /* syndrome */
	for (i = 0; i < qp_expect_qpc_count; i++)
		img_put_ones(want, &qp_expect_qpc[i]);
	assert_image(buf, want, sizeof(buf), "query_qp_out all ones");
}

/* ---- Transitions ------------------------------------------------------------------------------ */

struct transition_case {
	uint16_t opcode;
	const char *const *names;
	size_t n;
};

static const struct transition_case transitions[] = {
	{0x502, rst2init_names, NELEM(rst2init_names)},
	{0x50e, init2init_names, NELEM(init2init_names)},
	{0x503, init2rtr_names, NELEM(init2rtr_names)},
	{0x504, rtr2rts_names, NELEM(rtr2rts_names)},
	{0x505, rts2rts_names, NELEM(rts2rts_names)},
	{0x506, sqerr2rts_names, NELEM(sqerr2rts_names)},
};

/* Every qpc field at all ones in the params: only the transition's fields may reach the image. */
static void test_modify_all_ones(void **state)
{
	uint8_t buf[LONG_SIZE], want[LONG_SIZE];
	size_t t, i;

	(void)state;
	for (t = 0; t < NELEM(transitions); t++) {
		struct prm_modify_qp_params p;
		char what[64];

		memset(&p, 0, sizeof(p));
		p.opcode = transitions[t].opcode;
		p.uid = 0xffff;
		p.qpn = 0xffffff;
		p.opt_param_mask = 0xffffffffu;
		qpc_fill_ones(&p.qpc);
		assert_int_equal(prm_modify_qp_in_build(&p, buf, sizeof(buf)), DOCA_SUCCESS);

		memset(want, 0, sizeof(want));
		img_header(want, transitions[t].opcode, 0xffff);
		img_set(want, 2, 23, 0, 0xffffff);     /* qpn 0x09 */
		img_set(want, 4, 31, 0, 0xffffffffu);  /* opt_param_mask 0x10 */
		for (i = 0; i < transitions[t].n; i++)
			img_put_ones(want, must_find(transitions[t].names[i]));
		snprintf(what, sizeof(what), "modify 0x%x", transitions[t].opcode);
		assert_image(buf, want, sizeof(buf), what);
	}
}

/* Literal bytes for the B.9 modify rows of a typical RoCE connection. */
static void test_modify_literal_bytes(void **state)
{
	static const uint8_t gid[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55};
	static const uint8_t mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
	struct prm_modify_qp_params p;
	uint8_t buf[LONG_SIZE];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.opcode = PRM_CMD_RST2INIT_QP;
	p.qpn = 0x000abc;
	p.qpc.rre = 1;
	p.qpc.rwe = 1;
	p.qpc.rae = 1;
	p.qpc.atomic_mode = PRM_QP_ATOMIC_MODE_UP_TO_8B;
	p.qpc.primary_address_path.vhca_port_num = 1;
	assert_int_equal(prm_modify_qp_in_build(&p, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(buf[0x01], 0x02);
	assert_int_equal(buf[0x0b], 0xbc);
	assert_int_equal(buf[0xa9], 0x03); /* atomic_mode [19:16] */
	assert_int_equal(buf[0xaa], 0xe0); /* rre 15, rwe 14, rae 13 */
	assert_int_equal(buf[0x55], 0x01); /* vhca_port_num */

	memset(&p, 0, sizeof(p));
	p.opcode = PRM_CMD_INIT2RTR_QP;
	p.qpc.mtu = PRM_QP_MTU_4096;
	p.qpc.log_msg_max = 30;
	p.qpc.remote_qpn = 0x123456;
	p.qpc.next_rcv_psn = 0xabcdef;
	p.qpc.min_rnr_nak = 12;
	p.qpc.log_rra_max = 4;
	memcpy(p.qpc.primary_address_path.rgid_rip, gid, sizeof(gid));
	memcpy(p.qpc.primary_address_path.rmac, mac, sizeof(mac));
	p.qpc.primary_address_path.src_addr_index = 3;
	p.qpc.primary_address_path.hop_limit = 64;
	p.qpc.primary_address_path.udp_sport = 0xc000;
	p.qpc.primary_address_path.dscp = 26;
	p.qpc.primary_address_path.eth_prio = 3;
	p.qpc.primary_address_path.tclass = 0x68;
	assert_int_equal(prm_modify_qp_in_build(&p, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(buf[0x20], (5 << 5) | 30); /* mtu [31:29], log_msg_max [28:24] */
	assert_int_equal(buf[0x2d], 0x12);
	assert_int_equal(buf[0x2f], 0x56);
	assert_memory_equal(buf + 0x40, gid, 16);
	assert_memory_equal(buf + 0x56, mac, 6);
	assert_int_equal(buf[0x39], 3);
	assert_int_equal(buf[0x3b], 64);
	assert_int_equal(buf[0x3c], 0x06); /* tclass [27:20]: high nibble in byte 0x3c's low nibble */
	assert_int_equal(buf[0x3d], 0x80);
	assert_int_equal(buf[0x51], 26);
	assert_int_equal(buf[0x52], 0xc0);
	assert_int_equal(buf[0x53], 0x00);
	assert_int_equal(buf[0x54], 0x30); /* eth_prio [30:28] */
	assert_int_equal(buf[0xa9], 0x80); /* log_rra_max [23:21] */
	assert_int_equal(buf[0xac], 12);
	assert_int_equal(buf[0xad], 0xab);
	assert_int_equal(buf[0xaf], 0xef);

	memset(&p, 0, sizeof(p));
	p.opcode = PRM_CMD_RTR2RTS_QP;
	p.qpc.next_send_psn = 0x010203;
	p.qpc.retry_count = 7;
	p.qpc.rnr_retry = 7;
	p.qpc.primary_address_path.ack_timeout = 20;
	p.qpc.log_sra_max = 4;
	p.qpc.log_ack_req_freq = 0;
	assert_int_equal(prm_modify_qp_in_build(&p, buf, sizeof(buf)), DOCA_SUCCESS);
	assert_int_equal(buf[0x91], 0x01);
	assert_int_equal(buf[0x93], 0x03);
	assert_int_equal(buf[0x89], 0x87); /* log_sra_max 4 [23:21], retry_count 7 [18:16] */
	assert_int_equal(buf[0x8a], 0xe0); /* rnr_retry [15:13] */
	assert_int_equal(buf[0x38], 20 << 3); /* ack_timeout [31:27] */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_qp_in_literal_bytes),
		cmocka_unit_test(test_create_qp_in_each_field),
		cmocka_unit_test(test_create_qp_in_all_fields),
		cmocka_unit_test(test_create_qp_out_qpn),
		cmocka_unit_test(test_destroy_qp_in),
		cmocka_unit_test(test_query_qp_in),
		cmocka_unit_test(test_2err_2rst_in),
		cmocka_unit_test(test_status_outs),
		cmocka_unit_test(test_query_qp_out_each_field),
		cmocka_unit_test(test_query_qp_out_all_fields),
		cmocka_unit_test(test_modify_all_ones),
		cmocka_unit_test(test_modify_literal_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
