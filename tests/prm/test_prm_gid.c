/* SPDX-License-Identifier: BSD-3-Clause */
/* QUERY_ROCE_ADDRESS and QUERY_HCA_VPORT_GID: exact bytes, round trips, bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_gid.h"

/* ::ffff:10.1.2.3 as a RoCE v2 GID. */
static const uint8_t gid_v4[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 1, 2, 3};
/* fe80::211:22ff:fe33:4455 */
static const uint8_t gid_ll[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55};

static int setup(void **state)
{
	(void)state;
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

static void test_roce_address_in_golden(void **state)
{
	const struct prm_query_roce_address_params p = {
		.uid = 0x0a0b, .roce_address_index = 0x0003, .vhca_port_num = 1};
	const uint8_t exp[16] = {0x07, 0x60, 0x0a, 0x0b, 0, 0, 0, 0, 0x00, 0x03, 0x00, 0x01};
	uint8_t in[16];

	(void)state;
	memset(in, 0xee, sizeof(in));
	assert_int_equal(prm_query_roce_address_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, exp, sizeof(in));
}

static void test_roce_address_out_golden(void **state)
{
	struct prm_roce_address_params a;
	uint8_t out[0x30 + 4];
	uint8_t exp[0x30 + 4];

	(void)state;
	memset(&a, 0, sizeof(a));
	memcpy(a.source_l3_address, gid_ll, 16);
	a.vlan_valid = 1;
	a.vlan_id = 0x123;
	a.source_mac[0] = 0x02;
	a.source_mac[1] = 0x11;
	a.source_mac[2] = 0x22;
	a.source_mac[3] = 0x33;
	a.source_mac[4] = 0x44;
	a.source_mac[5] = 0x55;
	a.roce_l3_type = PRM_ROCE_L3_TYPE_IPV6;
	a.roce_version = PRM_ROCE_ADDR_VERSION_2;
	memset(out, 0xee, sizeof(out));
	memset(exp, 0, 0x30);
	memset(exp + 0x30, 0xee, 4);
	memcpy(exp + 0x10, gid_ll, 16); /* source_l3_address at roce_address + 0 */
	exp[0x20] = 0x10 | 0x01;        /* vlan_valid dw4 [28], vlan_id [27:16] high nibble */
	exp[0x21] = 0x23;
	exp[0x22] = 0x02;               /* source_mac_47_32 dw4 [15:0] */
	exp[0x23] = 0x11;
	exp[0x24] = 0x22;               /* source_mac_31_0 dw5 */
	exp[0x25] = 0x33;
	exp[0x26] = 0x44;
	exp[0x27] = 0x55;
	exp[0x2a] = 0x01;               /* roce_l3_type dw6 [11:8] */
	exp[0x2b] = 0x02;               /* roce_version dw6 [7:0] */
	assert_int_equal(prm_query_roce_address_out_build(&a, out, 0x30), DOCA_SUCCESS);
	assert_memory_equal(out, exp, sizeof(out));
}

static void test_vport_gid_golden(void **state)
{
	const struct prm_query_hca_vport_gid_params p = {
		.uid = 0, .other_vport = 1, .port_num = 1, .vport_number = 0x0102, .gid_index = 0x0005};
	const uint8_t exp_in[16] = {0x07, 0x64, 0, 0, 0, 0, 0, 0, 0x80, 0x01, 0x01, 0x02, 0, 0, 0x00, 0x05};
	struct prm_hca_vport_gid_params o = {.gids_num = 1};
	uint8_t in[16];
	uint8_t out[0x20];
	uint8_t exp_out[0x20] = {0};

	(void)state;
	memset(in, 0xee, sizeof(in));
	assert_int_equal(prm_query_hca_vport_gid_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_memory_equal(in, exp_in, sizeof(in));

	memcpy(o.gid, gid_v4, 16);
	memset(out, 0xee, sizeof(out));
	exp_out[0x0c] = 0x00; /* gids_num dw3 [31:16] */
	exp_out[0x0d] = 0x01;
	memcpy(exp_out + 0x10, gid_v4, 16);
	assert_int_equal(prm_query_hca_vport_gid_out_build(&o, out, sizeof(out)), DOCA_SUCCESS);
	assert_memory_equal(out, exp_out, sizeof(out));
}

static void test_round_trips(void **state)
{
	const struct prm_query_roce_address_params ri = {
		.uid = 0xffff, .roce_address_index = 0xfffe, .vhca_port_num = 0xf};
	const struct prm_query_hca_vport_gid_params vi = {
		.uid = 0x1357, .other_vport = 1, .port_num = 0xf, .vport_number = 0xffff, .gid_index = 0xabcd};
	struct prm_query_roce_address_params ri_back;
	struct prm_query_hca_vport_gid_params vi_back;
	struct prm_roce_address_params a, a_back;
	struct prm_hca_vport_gid_params o, o_back;
	uint8_t buf[0x30];

	(void)state;
	memset(&ri_back, 0x5a, sizeof(ri_back));
	assert_int_equal(prm_query_roce_address_in_build(&ri, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_query_roce_address_in_parse(buf, 16, &ri_back), DOCA_SUCCESS);
	assert_int_equal(ri_back.uid, ri.uid);
	assert_int_equal(ri_back.roce_address_index, ri.roce_address_index);
	assert_int_equal(ri_back.vhca_port_num, ri.vhca_port_num);

	memset(&vi_back, 0x5a, sizeof(vi_back));
	assert_int_equal(prm_query_hca_vport_gid_in_build(&vi, buf, 16), DOCA_SUCCESS);
	assert_int_equal(prm_query_hca_vport_gid_in_parse(buf, 16, &vi_back), DOCA_SUCCESS);
	assert_int_equal(vi_back.uid, vi.uid);
	assert_int_equal(vi_back.other_vport, vi.other_vport);
	assert_int_equal(vi_back.port_num, vi.port_num);
	assert_int_equal(vi_back.vport_number, vi.vport_number);
	assert_int_equal(vi_back.gid_index, vi.gid_index);

	memset(&a, 0, sizeof(a));
	memcpy(a.source_l3_address, gid_v4, 16);
	a.vlan_valid = 1;
	a.vlan_id = 0xfff;
	memcpy(a.source_mac, "\xff\xfe\xfd\xfc\xfb\xfa", 6);
	a.roce_l3_type = PRM_ROCE_L3_TYPE_IPV4;
	a.roce_version = 0xff;
	memset(&a_back, 0x5a, sizeof(a_back));
	assert_int_equal(prm_query_roce_address_out_build(&a, buf, 0x30), DOCA_SUCCESS);
	assert_int_equal(prm_query_roce_address_out_parse(buf, 0x30, &a_back), DOCA_SUCCESS);
	assert_memory_equal(a_back.source_l3_address, a.source_l3_address, 16);
	assert_int_equal(a_back.vlan_valid, a.vlan_valid);
	assert_int_equal(a_back.vlan_id, a.vlan_id);
	assert_memory_equal(a_back.source_mac, a.source_mac, 6);
	assert_int_equal(a_back.roce_l3_type, a.roce_l3_type);
	assert_int_equal(a_back.roce_version, a.roce_version);

	memset(&o, 0, sizeof(o));
	o.gids_num = 0xffff;
	memcpy(o.gid, gid_ll, 16);
	memset(&o_back, 0x5a, sizeof(o_back));
	assert_int_equal(prm_query_hca_vport_gid_out_build(&o, buf, 0x20), DOCA_SUCCESS);
	assert_int_equal(prm_query_hca_vport_gid_out_parse(buf, 0x20, &o_back), DOCA_SUCCESS);
	assert_int_equal(o_back.gids_num, o.gids_num);
	assert_memory_equal(o_back.gid, o.gid, 16);
}

static void test_bad_input(void **state)
{
	struct prm_query_roce_address_params ri = {.roce_address_index = 1, .vhca_port_num = 0x10};
	struct prm_query_hca_vport_gid_params vi = {.port_num = 1};
	struct prm_query_hca_vport_gid_params vi_back;
	struct prm_roce_address_params a;
	struct prm_hca_vport_gid_params o = {.gids_num = 1};
	uint8_t buf[0x30];

	(void)state;
	/* Too wide: vhca_port_num and port_num are 4 bits, vlan_id 12. */
	assert_int_equal(prm_query_roce_address_in_build(&ri, buf, 16), DOCA_ERROR_INVALID_VALUE);
	vi.port_num = 0x10;
	assert_int_equal(prm_query_hca_vport_gid_in_build(&vi, buf, 16), DOCA_ERROR_INVALID_VALUE);
	memset(&a, 0, sizeof(a));
	a.vlan_id = 0x1000;
	assert_int_equal(prm_query_roce_address_out_build(&a, buf, 0x30), DOCA_ERROR_INVALID_VALUE);
	a.vlan_id = 0;
	a.roce_l3_type = 0x10;
	assert_int_equal(prm_query_roce_address_out_build(&a, buf, 0x30), DOCA_ERROR_INVALID_VALUE);

	/* Short, NULL. */
	ri.vhca_port_num = 1;
	assert_int_equal(prm_query_roce_address_in_build(&ri, buf, 15), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_roce_address_in_build(NULL, buf, 16), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_roce_address_out_build(&a, buf, 0x2f), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_roce_address_out_build(NULL, buf, 0x30), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_hca_vport_gid_out_build(&o, buf, 0x1f), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_hca_vport_gid_out_build(&o, NULL, 0x20), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_hca_vport_gid_out_build(NULL, buf, 0x20), DOCA_ERROR_INVALID_VALUE);

	/* Wrong opcode: a QUERY_ROCE_ADDRESS in read as QUERY_HCA_VPORT_GID. */
	assert_int_equal(prm_query_roce_address_in_build(&ri, buf, 16), DOCA_SUCCESS);
	memset(&vi_back, 0x5a, sizeof(vi_back));
	assert_int_equal(prm_query_hca_vport_gid_in_parse(buf, 16, &vi_back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(vi_back.gid_index, 0x5a5a);
	assert_int_equal(prm_query_roce_address_in_parse(buf, 15, (struct prm_query_roce_address_params *)&ri),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_roce_address_in_parse(buf, 16, NULL), DOCA_ERROR_INVALID_VALUE);

	/* A failed query leaves the output alone. */
	memset(&a, 0, sizeof(a));
	assert_int_equal(prm_query_roce_address_out_build(&a, buf, 0x30), DOCA_SUCCESS);
	assert_int_equal(prm_cmd_out_set_status(buf, 0x30, PRM_STATUS_BAD_INDEX, 0x99), DOCA_SUCCESS);
	memset(&a, 0x5a, sizeof(a));
	assert_int_equal(prm_query_roce_address_out_parse(buf, 0x30, &a), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(a.vlan_id, 0x5a5a);
	assert_int_equal(prm_query_roce_address_out_parse(buf, 0x2f, &a), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_roce_address_out_parse(buf, 0x30, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_hca_vport_gid_out_build(&o, buf, 0x20), DOCA_SUCCESS);
	assert_int_equal(prm_cmd_out_set_status(buf, 0x20, PRM_STATUS_BAD_PARAM, 0x98), DOCA_SUCCESS);
	memset(&o, 0x5a, sizeof(o));
	assert_int_equal(prm_query_hca_vport_gid_out_parse(buf, 0x20, &o), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(o.gids_num, 0x5a5a);
	assert_int_equal(prm_query_hca_vport_gid_out_parse(buf, 0x1f, &o), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_query_hca_vport_gid_out_parse(buf, 0x20, NULL), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roce_address_in_golden),
		cmocka_unit_test(test_roce_address_out_golden),
		cmocka_unit_test(test_vport_gid_golden),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
