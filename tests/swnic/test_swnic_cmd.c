/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command executor's front: dispatch and length checks, the failure mailbox,
 * QUERY_HCA_CAP (every page parses back to the model, and the bytes sit where the PRM
 * puts them), the GID queries, and the PD / UAR commands.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "cmd_fixture.h"
#include "prm/prm_cmd.h"
#include "prm/prm_gid.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_pd_uar.h"
#include "swnic/swnic_ctl.h"

static uint32_t be32_at(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* A failed command's out mailbox: status, syndrome, and zeros up to the command's out size. */
static void assert_fail_mailbox(const uint8_t *out, size_t out_size, uint8_t status, uint32_t syndrome)
{
	size_t i;

	assert_int_equal(out[0], status);
	assert_int_equal(out[1], 0);
	assert_int_equal(out[2], 0);
	assert_int_equal(out[3], 0);
	assert_int_equal(be32_at(out + 4), syndrome);
	for (i = 8; i < out_size; i++)
		assert_int_equal(out[i], 0);
}

static void test_unknown_opcode_is_bad_op(void **state)
{
	struct cfx *f = *state;
	uint8_t in[16] = {0x09, 0x99}, out[16];
	uint32_t synd = 0;

	memset(out, 0xaa, sizeof(out));
	assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), &synd), PRM_STATUS_BAD_OP);
	assert_int_equal(synd, SWNIC_SYND_UNKNOWN_OPCODE);
	assert_fail_mailbox(out, sizeof(out), PRM_STATUS_BAD_OP, SWNIC_SYND_UNKNOWN_OPCODE);
	assert_int_equal(swnic_cmd_exec(f->nic, in, sizeof(in), out, sizeof(out)), DOCA_ERROR_NOT_SUPPORTED);
}

static void test_unmodelled_opcodes_are_bad_op(void **state)
{
	static const uint16_t ops[] = {PRM_CMD_CREATE_SRQ, PRM_CMD_SQD_RTS_QP, PRM_CMD_CREATE_DCT,
				       PRM_CMD_CREATE_MKEY, PRM_CMD_QUERY_ADAPTER, PRM_CMD_QUERY_SRQ,
				       PRM_CMD_QUERY_NIC_VPORT_CONTEXT, 0x0000, 0xffff};
	struct cfx *f = *state;
	uint8_t in[0x110], out[0x110];
	uint32_t synd = 0;
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		memset(in, 0, sizeof(in));
		in[0] = (uint8_t)(ops[i] >> 8);
		in[1] = (uint8_t)ops[i];
		assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), &synd), PRM_STATUS_BAD_OP);
		assert_int_equal(synd, SWNIC_SYND_UNKNOWN_OPCODE);
	}
}

static void test_short_input_is_bad_input_len(void **state)
{
	struct cfx *f = *state;
	struct prm_query_hca_cap_params q = {.cap_type = PRM_HCA_CAP_GENERAL, .current = 1};
	uint8_t in[0x110], out[PRM_QUERY_HCA_CAP_OUT_SIZE];
	uint32_t synd = 0;

	/* Too short for a header. */
	memset(in, 0, sizeof(in));
	memset(out, 0xaa, sizeof(out));
	assert_int_equal(cfx_exec(f, in, 7, out, sizeof(out), &synd), PRM_STATUS_BAD_INPUT_LEN);
	assert_int_equal(synd, SWNIC_SYND_IN_TOO_SHORT);
	assert_fail_mailbox(out, 16, PRM_STATUS_BAD_INPUT_LEN, SWNIC_SYND_IN_TOO_SHORT);
	/* A header but not the whole command. */
	assert_int_equal(prm_query_hca_cap_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(cfx_exec(f, in, 15, out, sizeof(out), &synd), PRM_STATUS_BAD_INPUT_LEN);
	assert_int_equal(synd, SWNIC_SYND_IN_TOO_SHORT);
	/* CREATE_QP one byte short of 0x110. */
	memset(in, 0, sizeof(in));
	in[0] = 0x05;
	assert_int_equal(cfx_exec(f, in, 0x10f, out, 16, &synd), PRM_STATUS_BAD_INPUT_LEN);
	assert_int_equal(swnic_cmd_exec(f->nic, in, 0x10f, out, 16), DOCA_ERROR_INVALID_VALUE);
}

static void test_short_output_is_bad_output_len(void **state)
{
	struct cfx *f = *state;
	struct prm_query_hca_cap_params q = {.cap_type = PRM_HCA_CAP_GENERAL, .current = 1};
	uint8_t in[16], out[0x100];
	uint32_t synd = 0;

	assert_int_equal(prm_query_hca_cap_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	memset(out, 0xaa, sizeof(out));
	assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), &synd), PRM_STATUS_BAD_OUTPUT_LEN);
	assert_int_equal(synd, SWNIC_SYND_OUT_TOO_SHORT);
	assert_fail_mailbox(out, sizeof(out), PRM_STATUS_BAD_OUTPUT_LEN, SWNIC_SYND_OUT_TOO_SHORT);
	/* Not even room for the status: nothing is written. */
	memset(out, 0xaa, sizeof(out));
	assert_int_equal(swnic_cmd_exec(f->nic, in, sizeof(in), out, 7), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(out[0], 0xaa);
	assert_int_equal(out[6], 0xaa);
}

static void test_null_arguments(void **state)
{
	struct cfx *f = *state;
	uint8_t in[16] = {0}, out[16];

	assert_int_equal(swnic_cmd_exec(NULL, in, sizeof(in), out, sizeof(out)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_cmd_exec(f->nic, NULL, sizeof(in), out, sizeof(out)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_cmd_exec(f->nic, in, sizeof(in), NULL, sizeof(out)), DOCA_ERROR_INVALID_VALUE);
}

/* ---- QUERY_HCA_CAP ---- */

static uint8_t query_cap(struct cfx *f, uint16_t type, uint8_t current, uint8_t *out, uint32_t *synd)
{
	struct prm_query_hca_cap_params q = {.cap_type = type, .current = current};
	uint8_t in[PRM_QUERY_HCA_CAP_IN_SIZE];

	assert_int_equal(prm_query_hca_cap_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	return cfx_exec(f, in, sizeof(in), out, PRM_QUERY_HCA_CAP_OUT_SIZE, synd);
}

static void test_caps_general(void **state)
{
	static uint8_t out[PRM_QUERY_HCA_CAP_OUT_SIZE], max[PRM_QUERY_HCA_CAP_OUT_SIZE];
	struct cfx *f = *state;
	struct prm_hca_cap_general g;

	assert_int_equal(query_cap(f, PRM_HCA_CAP_GENERAL, 1, out, NULL), PRM_STATUS_OK);
	assert_int_equal(prm_hca_cap_general_parse(out, sizeof(out), &g), DOCA_SUCCESS);
	assert_memory_equal(&g, &f->nic->cap_general, sizeof(g));
	/* The model, field by field. */
	assert_int_equal(g.port_type, PRM_HCA_PORT_TYPE_ETH);
	assert_int_equal(g.roce, 1);
	assert_int_equal(g.rc, 1);
	assert_int_equal(g.uc, 1);
	assert_int_equal(g.ud, 0);
	assert_int_equal(g.xrc, 0);
	assert_int_equal(g.atomic, 1);
	assert_int_equal(g.cd, 1);
	assert_int_equal(g.cqe_version, 1);
	assert_int_equal(g.log_max_msg, 30);
	assert_int_equal(g.log_bf_reg_size, 9);
	assert_int_equal(g.bf, 1);
	assert_int_equal(g.uar_4k, 1);
	assert_int_equal(g.max_wqe_sz_sq, 1024);
	assert_int_equal(g.max_wqe_sz_rq, 512);
	assert_int_equal(g.log_max_qp_sz, 15);
	assert_int_equal(g.log_max_cq_sz, 22);
	assert_int_equal(g.log_max_qp, 16);
	assert_int_equal(g.log_max_cq, 16);
	assert_int_equal(g.log_max_pd, 16);
	assert_int_equal(g.log_max_srq, 16);
	assert_int_equal(g.log_max_srq_sz, 15);
	assert_int_equal(g.log_max_ra_req_qp, 4);
	assert_int_equal(g.log_max_ra_res_qp, 4);
	assert_int_equal(g.num_ports, 1);
	assert_int_equal(g.cq_oi, 1);
	assert_int_equal(g.cq_resize, 0);
	assert_int_equal(g.hca_cap_2, 1);
	/* Where reference/mlx5.md B.9 puts them (cmd_hca_cap at byte 0x10 of the out). */
	assert_int_equal(out[0x10 + 0x11], 15);                /* log_max_qp_sz */
	assert_int_equal(out[0x10 + 0x19], 22);                /* log_max_cq_sz */
	assert_int_equal(out[0x10 + 0x36] & 0x03, 1);          /* port_type ETH */
	assert_int_equal(out[0x10 + 0x38] & 0x1f, 30);         /* log_max_msg */
	assert_int_equal(out[0x10 + 0x3f] & 0x0f, 1);          /* cqe_version */
	assert_int_equal(out[0x10 + 0x43] & 0x06, 0x06);       /* roce, atomic */
	assert_int_equal(out[0x10 + 0x48] & 0x80, 0x80);       /* uar_4k */
	assert_int_equal(out[0x10 + 0x4c] & 0x80, 0x80);       /* bf */
	assert_int_equal(out[0x10 + 0x4d] & 0x1f, 9);          /* log_bf_reg_size */
	assert_int_equal(out[0], PRM_STATUS_OK);
	/* Maximum and current capabilities are the same model. */
	assert_int_equal(query_cap(f, PRM_HCA_CAP_GENERAL, 0, max, NULL), PRM_STATUS_OK);
	assert_memory_equal(out, max, sizeof(out));
}

static void test_caps_roce_atomic_general2(void **state)
{
	static uint8_t out[PRM_QUERY_HCA_CAP_OUT_SIZE];
	struct cfx *f = *state;
	struct prm_hca_cap_roce r;
	struct prm_hca_cap_atomic a;
	struct prm_hca_cap_general_2 g2;

	assert_int_equal(query_cap(f, PRM_HCA_CAP_ROCE, 1, out, NULL), PRM_STATUS_OK);
	assert_int_equal(prm_hca_cap_roce_parse(out, sizeof(out), &r), DOCA_SUCCESS);
	assert_memory_equal(&r, &f->nic->cap_roce, sizeof(r));
	assert_int_equal(r.roce_version, 1u << PRM_ROCE_VERSION_2);
	assert_int_equal(r.r_roce_dest_udp_port, 4791);
	assert_int_equal(r.r_roce_min_src_udp_port, 0xc000);
	assert_int_equal(r.r_roce_max_src_udp_port, 0xffff);
	assert_int_equal(r.roce_address_table_size, 1);

	assert_int_equal(query_cap(f, PRM_HCA_CAP_ATOMIC, 1, out, NULL), PRM_STATUS_OK);
	assert_int_equal(prm_hca_cap_atomic_parse(out, sizeof(out), &a), DOCA_SUCCESS);
	assert_memory_equal(&a, &f->nic->cap_atomic, sizeof(a));
	assert_int_equal(a.atomic_size_qp, 0x0c);      /* 4 and 8 bytes */
	assert_int_equal(a.atomic_operations, 0x0f);   /* CS, FA, masked CS, masked FA */
	assert_int_equal(a.atomic_req_8B_endianness_mode, 1);

	assert_int_equal(query_cap(f, PRM_HCA_CAP_GENERAL_2, 1, out, NULL), PRM_STATUS_OK);
	assert_int_equal(prm_hca_cap_general_2_parse(out, sizeof(out), &g2), DOCA_SUCCESS);
	assert_memory_equal(&g2, &f->nic->cap_general_2, sizeof(g2));
	assert_int_equal(g2.send_dbr_mode_no_dbr_ext, 1);
	assert_int_equal(g2.send_dbr_mode_no_dbr_int, 0);
}

static void test_caps_bad_type_and_other_function(void **state)
{
	static uint8_t out[PRM_QUERY_HCA_CAP_OUT_SIZE];
	struct prm_query_hca_cap_params q = {.cap_type = PRM_HCA_CAP_GENERAL, .current = 1, .other_function = 1};
	struct cfx *f = *state;
	uint8_t in[PRM_QUERY_HCA_CAP_IN_SIZE];
	uint32_t synd = 0;

	assert_int_equal(query_cap(f, PRM_HCA_CAP_ODP, 1, out, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_CAP_TYPE);
	assert_fail_mailbox(out, sizeof(out), PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CAP_TYPE);
	assert_int_equal(query_cap(f, PRM_HCA_CAP_ETH_OFFLOADS, 0, out, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_CAP_TYPE);
	assert_int_equal(prm_query_hca_cap_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_OTHER_FUNCTION);
}

/* ---- GIDs ---- */

static void test_query_roce_address(void **state)
{
	struct cfx *f = *state;
	struct prm_query_roce_address_params q = {.roce_address_index = 0, .vhca_port_num = 1};
	struct prm_roce_address_params a;
	uint8_t in[PRM_QUERY_ROCE_ADDRESS_IN_SIZE], out[PRM_QUERY_ROCE_ADDRESS_OUT_SIZE];
	const uint8_t *gid = f->nic->gid;
	const uint8_t mac[6] = {0x02, gid[10], gid[11], gid[13], gid[14], gid[15]};
	uint32_t synd = 0;

	assert_int_equal(prm_query_roce_address_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), NULL), PRM_STATUS_OK);
	assert_int_equal(prm_query_roce_address_out_parse(out, sizeof(out), &a), DOCA_SUCCESS);
	assert_memory_equal(a.source_l3_address, gid, 16);
	assert_memory_equal(a.source_mac, mac, 6);
	assert_int_equal(a.roce_version, PRM_ROCE_ADDR_VERSION_2);
	assert_int_equal(a.roce_l3_type, PRM_ROCE_L3_TYPE_IPV6);
	assert_int_equal(a.vlan_valid, 0);

	q.roce_address_index = 1;
	assert_int_equal(prm_query_roce_address_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_GID_INDEX);
	q.roce_address_index = 0;
	q.vhca_port_num = 2;
	assert_int_equal(prm_query_roce_address_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_PORT);
}

static void test_query_hca_vport_gid(void **state)
{
	struct cfx *f = *state;
	struct prm_query_hca_vport_gid_params q = {.port_num = 1, .gid_index = 0};
	struct prm_hca_vport_gid_params g;
	uint8_t in[PRM_QUERY_HCA_VPORT_GID_IN_SIZE], out[PRM_QUERY_HCA_VPORT_GID_OUT_SIZE];
	uint32_t synd = 0;

	assert_int_equal(prm_query_hca_vport_gid_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), NULL), PRM_STATUS_OK);
	assert_int_equal(prm_query_hca_vport_gid_out_parse(out, sizeof(out), &g), DOCA_SUCCESS);
	assert_int_equal(g.gids_num, 1);
	assert_memory_equal(g.gid, f->nic->gid, 16);

	q.gid_index = 3;
	assert_int_equal(prm_query_hca_vport_gid_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_GID_INDEX);
	q.gid_index = 0;
	q.other_vport = 1;
	q.vport_number = 2;
	assert_int_equal(prm_query_hca_vport_gid_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(cfx_exec(f, in, sizeof(in), out, sizeof(out), &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_OTHER_FUNCTION);
}

/* ---- PD and UAR ---- */

static uint8_t alloc_cmd(struct cfx *f, uint16_t opcode, uint32_t *id, uint32_t *synd)
{
	uint8_t in[16], out[16];
	uint8_t st;

	if (opcode == PRM_CMD_ALLOC_PD)
		assert_int_equal(prm_alloc_pd_in_build(0, in, sizeof(in)), DOCA_SUCCESS);
	else
		assert_int_equal(prm_alloc_uar_in_build(0, in, sizeof(in)), DOCA_SUCCESS);
	st = cfx_exec(f, in, sizeof(in), out, sizeof(out), synd);
	if (st == PRM_STATUS_OK)
		*id = be32_at(out + 8) & 0xffffff;
	return st;
}

static void test_alloc_dealloc_pd(void **state)
{
	struct cfx *f = *state;
	uint32_t pdn = 0, pdn2 = 0, synd = 0, lkey = 0, rkey = 0;
	static uint8_t buf[64];

	/* The fixture took the first PD number. */
	assert_int_equal(f->pdn, SWNIC_PD_BASE);
	assert_int_equal(alloc_cmd(f, PRM_CMD_ALLOC_PD, &pdn, NULL), PRM_STATUS_OK);
	assert_int_equal(pdn, SWNIC_PD_BASE + 1);
	assert_int_equal(alloc_cmd(f, PRM_CMD_ALLOC_PD, &pdn2, NULL), PRM_STATUS_OK);
	assert_int_equal(pdn2, SWNIC_PD_BASE + 2);
	/* A PD that holds an MR cannot go. */
	assert_int_equal(swnic_mr_register(f->nic, pdn, buf, sizeof(buf), 0, &lkey, &rkey), DOCA_SUCCESS);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_PD, pdn, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_PD_IN_USE);
	assert_int_equal(swnic_mr_deregister(f->nic, lkey), DOCA_SUCCESS);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_PD, pdn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_PD, pdn, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_PD);
	/* The lowest free number is reused. */
	assert_int_equal(alloc_cmd(f, PRM_CMD_ALLOC_PD, &pdn, NULL), PRM_STATUS_OK);
	assert_int_equal(pdn, SWNIC_PD_BASE + 1);
}

static void test_alloc_dealloc_uar(void **state)
{
	struct cfx *f = *state;
	struct prm_create_cq_params p;
	uint32_t uar = 0, synd = 0, cqn = 0;

	assert_int_equal(f->uar, SWNIC_UAR_BASE);
	assert_int_equal(alloc_cmd(f, PRM_CMD_ALLOC_UAR, &uar, NULL), PRM_STATUS_OK);
	assert_int_equal(uar, SWNIC_UAR_BASE + 1);
	/* A UAR a CQ names cannot go. */
	cfx_cq_params(f, &p, 2);
	p.cqc.uar_page = uar;
	assert_int_equal(cfx_create_cq(f, &p, &cqn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_UAR, uar, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_UAR_IN_USE);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, cqn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_UAR, uar, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_UAR, uar, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_UAR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unknown_opcode_is_bad_op, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_unmodelled_opcodes_are_bad_op, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_short_input_is_bad_input_len, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_short_output_is_bad_output_len, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_null_arguments, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_caps_general, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_caps_roce_atomic_general2, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_caps_bad_type_and_other_function, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_query_roce_address, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_query_hca_vport_gid, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_alloc_dealloc_pd, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_alloc_dealloc_uar, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
