/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QUERY_HCA_CAP: the in mailbox and the four capability pages, byte for byte against
 * hand-built images (capability page at byte 0x10 of the out), round trips, bad input.
 * The caps of reference/mlx5.md B.9 are checked at exactly the bytes that table gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_hca_cap.h"

#define OUT_SIZE 0x1010u
#define CAP(byte) (0x10u + (byte)) /* absolute offset of a byte of the capability page */

static uint8_t out[OUT_SIZE + 16];
static uint8_t exp_img[OUT_SIZE + 16];

/* Field-by-field comparisons (struct padding makes memcmp meaningless). */
#define GENERAL_MEMBERS(X)                                                                         \
	X(hca_cap_2) X(vhca_id) X(log_max_srq_sz) X(log_max_qp_sz) X(log_max_qp) X(log_max_srq)         \
	X(max_sgl_for_optimized_performance) X(log_max_cq_sz) X(log_max_cq) X(log_max_mkey)             \
	X(log_max_mrw_sz) X(log_max_ra_req_qp) X(log_max_ra_res_qp) X(gid_table_size)                   \
	X(pkey_table_size) X(local_ca_ack_delay) X(port_type) X(num_ports) X(log_max_msg)              \
	X(cqe_version) X(roce) X(atomic) X(cq_oi) X(cq_resize) X(cq_moderation) X(cd) X(xrc) X(ud)      \
	X(uc) X(rc) X(uar_4k) X(uar_sz) X(log_pg_sz) X(bf) X(log_bf_reg_size) X(max_wqe_sz_sq)          \
	X(max_wqe_sz_rq) X(log_max_transport_domain) X(log_max_pd) X(basic_cyclic_rcv_wqe)             \
	X(log_max_rmp) X(log_max_wq_sz) X(log_max_uctx) X(log_max_umem) X(log_uar_page_sz)              \
	X(num_of_uars_per_page)
#define ROCE_MEMBERS(X)                                                                            \
	X(roce_apm) X(sw_r_roce_src_udp_port) X(qp_ts_format) X(l3_type) X(roce_version)               \
	X(r_roce_dest_udp_port) X(r_roce_max_src_udp_port) X(r_roce_min_src_udp_port)                  \
	X(roce_address_table_size)
#define ATOMIC_MEMBERS(X)                                                                          \
	X(atomic_req_8B_endianness_mode) X(supported_atomic_req_8B_endianness_mode_1)                  \
	X(atomic_operations) X(atomic_size_qp) X(atomic_size_dc)
#define GENERAL_2_MEMBERS(X)                                                                       \
	X(send_dbr_mode_no_dbr_int) X(send_dbr_mode_no_dbr_ext) X(log_max_send_dbr_less_qp_sq)
#define SAME(m) assert_int_equal(a->m, b->m);

static void assert_general_equal(const struct prm_hca_cap_general *a, const struct prm_hca_cap_general *b)
{
	GENERAL_MEMBERS(SAME)
}

static void assert_roce_equal(const struct prm_hca_cap_roce *a, const struct prm_hca_cap_roce *b)
{
	ROCE_MEMBERS(SAME)
}

static void assert_atomic_equal(const struct prm_hca_cap_atomic *a, const struct prm_hca_cap_atomic *b)
{
	ATOMIC_MEMBERS(SAME)
}

static void assert_general_2_equal(const struct prm_hca_cap_general_2 *a, const struct prm_hca_cap_general_2 *b)
{
	GENERAL_2_MEMBERS(SAME)
}

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

static void test_cap_type_values(void **state)
{
	(void)state;
	assert_int_equal(PRM_HCA_CAP_GENERAL, 0x0);
	assert_int_equal(PRM_HCA_CAP_ETH_OFFLOADS, 0x1);
	assert_int_equal(PRM_HCA_CAP_ATOMIC, 0x3);
	assert_int_equal(PRM_HCA_CAP_ROCE, 0x4);
	assert_int_equal(PRM_HCA_CAP_GENERAL_2, 0x20);
	assert_int_equal(PRM_QUERY_HCA_CAP_OUT_SIZE, OUT_SIZE);
}

static void test_query_hca_cap_in_golden(void **state)
{
	const struct prm_query_hca_cap_params p = {
		.uid = 0x0005, .cap_type = PRM_HCA_CAP_ROCE, .current = 1, .other_function = 1, .function_id = 0xbeef};
	const uint8_t exp[16] = {0x01, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x09,
				 0x80, 0x00, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x00};
	const struct prm_query_hca_cap_params g2 = {.cap_type = PRM_HCA_CAP_GENERAL_2, .current = 1};
	const uint8_t exp_g2[16] = {0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x41};
	uint8_t in[16];

	(void)state;
	memset(in, 0xee, sizeof(in));
	assert_int_equal(prm_query_hca_cap_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(exp));
	assert_int_equal(prm_query_hca_cap_in_build(&g2, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, exp_g2, sizeof(exp_g2));
}

static void test_query_hca_cap_in_round_trip(void **state)
{
	const struct prm_query_hca_cap_params p = {
		.uid = 0xa55a, .cap_type = PRM_HCA_CAP_ATOMIC, .current = 0, .other_function = 1, .function_id = 7};
	struct prm_query_hca_cap_params back;
	uint8_t in[16];

	(void)state;
	memset(&back, 0xff, sizeof(back));
	assert_int_equal(prm_query_hca_cap_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(prm_query_hca_cap_in_parse(in, sizeof(in), &back), DOCA_SUCCESS);
	assert_int_equal(back.uid, p.uid);
	assert_int_equal(back.cap_type, p.cap_type);
	assert_int_equal(back.current, p.current);
	assert_int_equal(back.other_function, p.other_function);
	assert_int_equal(back.function_id, p.function_id);
}

static void test_query_hca_cap_in_bad_input(void **state)
{
	struct prm_query_hca_cap_params p = {.cap_type = PRM_HCA_CAP_GENERAL, .current = 1};
	struct prm_query_hca_cap_params back = {0};
	uint8_t in[16];

	(void)state;
	assert_int_equal(prm_query_hca_cap_in_build(&p, in, 15), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_hca_cap_in_build(&p, NULL, 16), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_hca_cap_in_build(NULL, in, 16), DOCA_ERROR_INVALID_VALUE);
	p.cap_type = 0x8000;
	assert_int_equal(prm_query_hca_cap_in_build(&p, in, 16), DOCA_ERROR_INVALID_VALUE);
	p.cap_type = 0;
	p.current = 2;
	assert_int_equal(prm_query_hca_cap_in_build(&p, in, 16), DOCA_ERROR_INVALID_VALUE);
	p.current = 1;
	assert_int_equal(prm_query_hca_cap_in_build(&p, in, 16), DOCA_SUCCESS);
	assert_int_equal(prm_query_hca_cap_in_parse(in, 15, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_hca_cap_in_parse(in, 16, NULL), DOCA_ERROR_INVALID_VALUE);
	in[1] = 0x01; /* QUERY_ADAPTER */
	assert_int_equal(prm_query_hca_cap_in_parse(in, 16, &back), DOCA_ERROR_INVALID_VALUE);
}

/* The B.9 caps table: byte and bits given there, relative to the capability page. */
static void test_general_b9_golden(void **state)
{
	struct prm_hca_cap_general caps = {0};

	(void)state;
	caps.log_max_qp_sz = 0x16;
	caps.log_max_cq_sz = 0x17;
	caps.log_max_ra_req_qp = 0x05;
	caps.log_max_ra_res_qp = 0x06;
	caps.port_type = PRM_HCA_PORT_TYPE_ETH;
	caps.log_max_msg = 0x1e;
	caps.cqe_version = 1;
	caps.roce = 1;
	caps.atomic = 1;
	caps.uar_4k = 1;
	caps.bf = 1;
	caps.log_bf_reg_size = 9;
	memset(out, 0xee, sizeof(out));
	memset(exp_img, 0, OUT_SIZE);
	memset(exp_img + OUT_SIZE, 0xee, 16);
	exp_img[CAP(0x11)] = 0x16;        /* log_max_qp_sz dw4 [23:16] */
	exp_img[CAP(0x19)] = 0x17;        /* log_max_cq_sz dw6 [23:16] */
	exp_img[CAP(0x29)] = 0x05;        /* log_max_ra_req_qp */
	exp_img[CAP(0x2b)] = 0x06;        /* log_max_ra_res_qp */
	exp_img[CAP(0x36)] = 0x01;        /* port_type dw13 [9:8] */
	exp_img[CAP(0x38)] = 0x1e;        /* log_max_msg [28:24] */
	exp_img[CAP(0x3f)] = 0x01;        /* cqe_version [3:0] */
	exp_img[CAP(0x43)] = 0x04 | 0x02; /* roce bit 2, atomic bit 1 */
	exp_img[CAP(0x48)] = 0x80;        /* uar_4k [31] */
	exp_img[CAP(0x4c)] = 0x80;        /* bf [31] */
	exp_img[CAP(0x4d)] = 0x09;        /* log_bf_reg_size dw19 [20:16] */
	assert_int_equal(prm_hca_cap_general_build(&caps, out, OUT_SIZE), DOCA_SUCCESS);
	assert_memory_equal(out, exp_img, sizeof(out));
}

static void fill_general(struct prm_hca_cap_general *c)
{
	memset(c, 0, sizeof(*c));
	c->hca_cap_2 = 1;
	c->vhca_id = 0x1234;
	c->log_max_srq_sz = 0x0f;
	c->log_max_qp = 0x11;
	c->log_max_srq = 0x12;
	c->max_sgl_for_optimized_performance = 0x08;
	c->log_max_cq = 0x13;
	c->log_max_mkey = 0x2a;
	c->log_max_mrw_sz = 0x40;
	c->gid_table_size = 0x0180;
	c->pkey_table_size = 0x0002;
	c->local_ca_ack_delay = 0x10;
	c->num_ports = 0x02;
	c->cq_oi = 1;
	c->cq_resize = 1;
	c->cq_moderation = 1;
	c->cd = 1;
	c->xrc = 1;
	c->ud = 1;
	c->uc = 1;
	c->rc = 1;
	c->uar_sz = 0x06;
	c->log_pg_sz = 0x0c;
	c->max_wqe_sz_sq = 0x0400;
	c->max_wqe_sz_rq = 0x0200;
	c->log_max_transport_domain = 0x10;
	c->log_max_pd = 0x17;
	c->basic_cyclic_rcv_wqe = 1;
	c->log_max_rmp = 0x12;
	c->log_max_wq_sz = 0x11;
	c->log_max_uctx = 0x0a;
	c->log_max_umem = 0x14;
	c->log_uar_page_sz = 0x0102;
	c->num_of_uars_per_page = 0x01020304;
}

/* The other general caps, at their mlx5_ifc.h positions. */
static void test_general_rest_golden(void **state)
{
	struct prm_hca_cap_general caps;

	(void)state;
	fill_general(&caps);
	memset(exp_img, 0, OUT_SIZE);
	exp_img[CAP(0x04)] = 0x80;                              /* hca_cap_2 dw1 [31] */
	exp_img[CAP(0x06)] = 0x12;                              /* vhca_id dw1 [15:0] */
	exp_img[CAP(0x07)] = 0x34;
	exp_img[CAP(0x10)] = 0x0f;                              /* log_max_srq_sz dw4 [31:24] */
	exp_img[CAP(0x13)] = 0x11;                              /* log_max_qp dw4 [4:0] */
	exp_img[CAP(0x15)] = 0x12;                              /* log_max_srq dw5 [20:16] */
	exp_img[CAP(0x18)] = 0x08;                              /* max_sgl_for_optimized_performance */
	exp_img[CAP(0x1b)] = 0x13;                              /* log_max_cq dw6 [4:0] */
	exp_img[CAP(0x1d)] = 0x2a;                              /* log_max_mkey dw7 [21:16] */
	exp_img[CAP(0x21)] = 0x40;                              /* log_max_mrw_sz dw8 [22:16] */
	exp_img[CAP(0x2e)] = 0x01;                              /* gid_table_size dw11 [15:0] */
	exp_img[CAP(0x2f)] = 0x80;
	exp_img[CAP(0x33)] = 0x02;                              /* pkey_table_size dw12 [15:0] */
	exp_img[CAP(0x35)] = 0x10;                              /* local_ca_ack_delay dw13 [20:16] */
	exp_img[CAP(0x37)] = 0x02;                              /* num_ports dw13 [7:0] */
	exp_img[CAP(0x44)] = 0xe0;                              /* cq_oi, cq_resize, cq_moderation */
	exp_img[CAP(0x45)] = 0x08;                              /* cd dw17 [19] */
	exp_img[CAP(0x47)] = 0x0f;                              /* xrc ud uc rc */
	exp_img[CAP(0x49)] = 0x06;                              /* uar_sz dw18 [21:16] */
	exp_img[CAP(0x4b)] = 0x0c;                              /* log_pg_sz dw18 [7:0] */
	exp_img[CAP(0x52)] = 0x04;                              /* max_wqe_sz_sq dw20 [15:0] */
	exp_img[CAP(0x56)] = 0x02;                              /* max_wqe_sz_rq dw21 [15:0] */
	exp_img[CAP(0x64)] = 0x10;                              /* log_max_transport_domain */
	exp_img[CAP(0x65)] = 0x17;                              /* log_max_pd dw25 [20:16] */
	exp_img[CAP(0x70)] = 0x80 | 0x12;                       /* basic_cyclic_rcv_wqe, log_max_rmp */
	exp_img[CAP(0x7b)] = 0x11;                              /* log_max_wq_sz dw30 [4:0] */
	exp_img[CAP(0x8c)] = 0x0a;                              /* log_max_uctx dw35 [28:24] */
	exp_img[CAP(0x8d)] = 0x14;                              /* log_max_umem dw35 [20:16] */
	exp_img[CAP(0x92)] = 0x01;                              /* log_uar_page_sz dw36 [15:0] */
	exp_img[CAP(0x93)] = 0x02;
	exp_img[CAP(0xa4)] = 0x01;                              /* num_of_uars_per_page dw41 */
	exp_img[CAP(0xa5)] = 0x02;
	exp_img[CAP(0xa6)] = 0x03;
	exp_img[CAP(0xa7)] = 0x04;
	assert_int_equal(prm_hca_cap_general_build(&caps, out, OUT_SIZE), DOCA_SUCCESS);
	assert_memory_equal(out, exp_img, OUT_SIZE);
}

static void test_general_round_trip(void **state)
{
	struct prm_hca_cap_general caps, back;

	(void)state;
	fill_general(&caps);
	caps.log_max_qp_sz = 0x16;
	caps.log_max_cq_sz = 0x17;
	caps.log_max_ra_req_qp = 0x3f;
	caps.log_max_ra_res_qp = 0x21;
	caps.port_type = 3;
	caps.log_max_msg = 0x1f;
	caps.cqe_version = 0xf;
	caps.roce = 1;
	caps.atomic = 1;
	caps.uar_4k = 1;
	caps.bf = 1;
	caps.log_bf_reg_size = 0x1f;
	memset(&back, 0xff, sizeof(back));
	assert_int_equal(prm_hca_cap_general_build(&caps, out, OUT_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_hca_cap_general_parse(out, OUT_SIZE, &back), DOCA_SUCCESS);
	assert_general_equal(&back, &caps);
}

static void test_roce_golden_and_round_trip(void **state)
{
	const struct prm_hca_cap_roce caps = {
		.roce_apm = 1,
		.sw_r_roce_src_udp_port = 1,
		.qp_ts_format = 2,
		.l3_type = 0x6,
		.roce_version = 0x05,
		.r_roce_dest_udp_port = 4791,
		.r_roce_max_src_udp_port = 0xffff,
		.r_roce_min_src_udp_port = 0xc000,
		.roce_address_table_size = 0x0100,
	};
	struct prm_hca_cap_roce back;

	(void)state;
	memset(exp_img, 0, OUT_SIZE);
	exp_img[CAP(0x00)] = 0x88; /* roce_apm [31], sw_r_roce_src_udp_port [27] */
	exp_img[CAP(0x03)] = 0x02; /* qp_ts_format dw0 [1:0] */
	exp_img[CAP(0x11)] = 0x06; /* l3_type dw4 [19:16] */
	exp_img[CAP(0x13)] = 0x05; /* roce_version dw4 [7:0] */
	exp_img[CAP(0x16)] = 0x12; /* r_roce_dest_udp_port dw5 [15:0] = 4791 */
	exp_img[CAP(0x17)] = 0xb7;
	exp_img[CAP(0x18)] = 0xff; /* r_roce_max_src_udp_port dw6 [31:16] */
	exp_img[CAP(0x19)] = 0xff;
	exp_img[CAP(0x1a)] = 0xc0; /* r_roce_min_src_udp_port dw6 [15:0] */
	exp_img[CAP(0x1b)] = 0x00;
	exp_img[CAP(0x1e)] = 0x01; /* roce_address_table_size dw7 [15:0] */
	assert_int_equal(prm_hca_cap_roce_build(&caps, out, OUT_SIZE), DOCA_SUCCESS);
	assert_memory_equal(out, exp_img, OUT_SIZE);
	memset(&back, 0xff, sizeof(back));
	assert_int_equal(prm_hca_cap_roce_parse(out, OUT_SIZE, &back), DOCA_SUCCESS);
	assert_roce_equal(&back, &caps);
}

static void test_atomic_golden_and_round_trip(void **state)
{
	const struct prm_hca_cap_atomic caps = {
		.atomic_req_8B_endianness_mode = 1,
		.supported_atomic_req_8B_endianness_mode_1 = 1,
		.atomic_operations = 0x00cf,
		.atomic_size_qp = 0x0048,
		.atomic_size_dc = 0x0108,
	};
	struct prm_hca_cap_atomic back;

	(void)state;
	memset(exp_img, 0, OUT_SIZE);
	exp_img[CAP(0x08)] = 0x40 | 0x02; /* endianness mode dw2 [31:30], supported_..._1 [25] */
	exp_img[CAP(0x13)] = 0xcf;        /* atomic_operations dw4 [15:0] */
	exp_img[CAP(0x17)] = 0x48;        /* atomic_size_qp dw5 [15:0] */
	exp_img[CAP(0x1a)] = 0x01;        /* atomic_size_dc dw6 [15:0] */
	exp_img[CAP(0x1b)] = 0x08;
	assert_int_equal(prm_hca_cap_atomic_build(&caps, out, OUT_SIZE), DOCA_SUCCESS);
	assert_memory_equal(out, exp_img, OUT_SIZE);
	memset(&back, 0xff, sizeof(back));
	assert_int_equal(prm_hca_cap_atomic_parse(out, OUT_SIZE, &back), DOCA_SUCCESS);
	assert_atomic_equal(&back, &caps);
}

static void test_general_2_golden_and_round_trip(void **state)
{
	const struct prm_hca_cap_general_2 caps = {
		.send_dbr_mode_no_dbr_int = 1,
		.send_dbr_mode_no_dbr_ext = 1,
		.log_max_send_dbr_less_qp_sq = 0x0c,
	};
	struct prm_hca_cap_general_2 back;

	(void)state;
	memset(exp_img, 0, OUT_SIZE);
	exp_img[CAP(0x5c)] = 0x80 | 0x40 | 0x0c; /* dw23: no_dbr_int [31], no_dbr_ext [30], [28:24] */
	assert_int_equal(prm_hca_cap_general_2_build(&caps, out, OUT_SIZE), DOCA_SUCCESS);
	assert_memory_equal(out, exp_img, OUT_SIZE);
	memset(&back, 0xff, sizeof(back));
	assert_int_equal(prm_hca_cap_general_2_parse(out, OUT_SIZE, &back), DOCA_SUCCESS);
	assert_general_2_equal(&back, &caps);
}

static void test_caps_bad_input(void **state)
{
	struct prm_hca_cap_general caps, back;
	struct prm_hca_cap_roce roce = {0};

	(void)state;
	fill_general(&caps);
	assert_int_equal(prm_hca_cap_general_build(&caps, out, OUT_SIZE - 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_hca_cap_general_build(&caps, NULL, OUT_SIZE), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_hca_cap_general_build(NULL, out, OUT_SIZE), DOCA_ERROR_INVALID_VALUE);
	caps.log_max_qp = 0x20; /* 5-bit field */
	assert_int_equal(prm_hca_cap_general_build(&caps, out, OUT_SIZE), DOCA_ERROR_INVALID_VALUE);
	caps.log_max_qp = 0x11;
	caps.port_type = 4; /* 2-bit field */
	assert_int_equal(prm_hca_cap_general_build(&caps, out, OUT_SIZE), DOCA_ERROR_INVALID_VALUE);
	roce.l3_type = 0x10; /* 4-bit field */
	assert_int_equal(prm_hca_cap_roce_build(&roce, out, OUT_SIZE), DOCA_ERROR_INVALID_VALUE);

	/* A failed query: the mapped error, and the caller's struct untouched. */
	fill_general(&caps);
	assert_int_equal(prm_hca_cap_general_build(&caps, out, OUT_SIZE), DOCA_SUCCESS);
	assert_int_equal(prm_cmd_out_set_status(out, OUT_SIZE, PRM_STATUS_BAD_OP, 0x42), DOCA_SUCCESS);
	memset(&back, 0x5a, sizeof(back));
	assert_int_equal(prm_hca_cap_general_parse(out, OUT_SIZE, &back), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(back.log_max_qp, 0x5a);
	assert_int_equal(prm_cmd_out_set_status(out, OUT_SIZE, PRM_STATUS_OK, 0), DOCA_SUCCESS);
	assert_int_equal(prm_hca_cap_general_parse(out, OUT_SIZE - 1, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_hca_cap_general_parse(NULL, OUT_SIZE, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_hca_cap_general_parse(out, OUT_SIZE, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(back.log_max_qp, 0x5a);
	assert_int_equal(prm_hca_cap_general_parse(out, OUT_SIZE, &back), DOCA_SUCCESS);
	assert_int_equal(back.log_max_qp, 0x11);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cap_type_values),
		cmocka_unit_test(test_query_hca_cap_in_golden),
		cmocka_unit_test(test_query_hca_cap_in_round_trip),
		cmocka_unit_test(test_query_hca_cap_in_bad_input),
		cmocka_unit_test(test_general_b9_golden),
		cmocka_unit_test(test_general_rest_golden),
		cmocka_unit_test(test_general_round_trip),
		cmocka_unit_test(test_roce_golden_and_round_trip),
		cmocka_unit_test(test_atomic_golden_and_round_trip),
		cmocka_unit_test(test_general_2_golden_and_round_trip),
		cmocka_unit_test(test_caps_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
