/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Byte identity at the DOCA Verbs API level: one doca_verbs_* call sequence (context, PD,
 * CQ, QP, RST -> INIT -> RTR -> RTS, query, destroy) runs on devinfo "swnic0" and on the
 * ConnectX "mlx5_0" of the fake rdma-core. The software NIC's device ops are recorded by
 * wrapping ogda_devx_sw_open at link time (-Wl,--wrap, see CMakeLists.txt: no seam in the
 * library); the ConnectX side is recorded by the fake where rdma-core receives the calls.
 * The two command streams must be byte-identical, next-hop resolutions included. PD
 * allocations are left out of the comparison: the ConnectX device keeps one more PD for
 * its address handles (hw_roce.c); the numbers of the PDs the sequence uses appear in the
 * command bytes, which are compared.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "devx/hw.h"
#include "devx/sw.h"
#include "doca_dev.h"
#include "doca_verbs.h"
#include "fake_rdma_core.h"
#include "prm/prm_cmd.h"
#include "sw_record.h"

#define A(x) DOCA_VERBS_QP_ATTR_##x

/* A software NIC GID (format of swnic_gid.h: 127.0.0.1:4660): both devices resolve it. */
static const uint8_t peer_gid[16] = {0xfd, 0x4f, 0x47, 0x44, 0x41, 0x01, 0, 0, 0, 0, 0x12, 0x34, 127, 0, 0, 1};
#define PEER_QPN 0x2a5u

static struct cmd_log sw_cmds;
static bool record_sw;

doca_error_t __real_ogda_devx_sw_open(uint32_t index, struct ogda_devx **dev);
doca_error_t __wrap_ogda_devx_sw_open(uint32_t index, struct ogda_devx **dev);

/* Every software NIC the library opens while record_sw is set records its ops. */
doca_error_t __wrap_ogda_devx_sw_open(uint32_t index, struct ogda_devx **dev)
{
	doca_error_t err = __real_ogda_devx_sw_open(index, dev);

	if (err == DOCA_SUCCESS && record_sw)
		sw_record_wrap(*dev, &sw_cmds);
	return err;
}

static struct doca_devinfo *find(struct doca_devinfo **list, uint32_t n, const char *name)
{
	char buf[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(doca_devinfo_get_ibdev_name(list[i], buf, sizeof(buf)), DOCA_SUCCESS);
		if (strcmp(buf, name) == 0)
			return list[i];
	}
	fail_msg("no device %s in the list", name);
	return NULL;
}

static void modify(struct doca_verbs_context *ctx, struct doca_verbs_qp *qp, int step)
{
	struct doca_verbs_qp_attr *a = NULL;
	struct doca_verbs_ah_attr *ah = NULL;
	struct doca_verbs_gid gid;
	int mask = 0;

	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	switch (step) {
	case 0:
		assert_int_equal(doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_INIT), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_allow_remote_write(a, 1), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_allow_remote_read(a, 1), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_atomic_mode(a, DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_pkey_index(a, 0), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_port_num(a, 1), DOCA_SUCCESS);
		mask = A(NEXT_STATE) | A(ALLOW_REMOTE_WRITE) | A(ALLOW_REMOTE_READ) | A(ATOMIC_MODE) | A(PKEY_INDEX) |
		       A(PORT_NUM);
		break;
	case 1:
		memcpy(gid.raw, peer_gid, sizeof(gid.raw));
		assert_int_equal(doca_verbs_ah_attr_create(ctx, &ah), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_ah_attr_set_gid(ah, gid), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_ah_attr_set_addr_type(ah, DOCA_VERBS_ADDR_TYPE_IPv6), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_ah_attr_set_sgid_index(ah, 0), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_ah_attr_set_hop_limit(ah, 64), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTR), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_rq_psn(a, 0x1000), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_dest_qp_num(a, PEER_QPN), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_path_mtu(a, DOCA_VERBS_MTU_SIZE_1K_BYTES), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_ah_attr(a, ah), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_min_rnr_timer(a, 12), DOCA_SUCCESS);
		mask = A(NEXT_STATE) | A(RQ_PSN) | A(DEST_QP_NUM) | A(PATH_MTU) | A(AH_ATTR) | A(MIN_RNR_TIMER);
		break;
	default:
		assert_int_equal(doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTS), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_sq_psn(a, 0x2000), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_ack_timeout(a, 14), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_retry_cnt(a, 7), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_set_rnr_retry(a, 7), DOCA_SUCCESS);
		mask = A(NEXT_STATE) | A(SQ_PSN) | A(ACK_TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY);
		break;
	}
	assert_int_equal(doca_verbs_qp_modify(qp, a, mask), DOCA_SUCCESS);
	if (ah != NULL)
		assert_int_equal(doca_verbs_ah_attr_destroy(ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

/* The same calls on whichever device name names; returns the QP number it got. */
static uint32_t run_sequence(const char *name)
{
	struct doca_devinfo **list = NULL;
	struct doca_verbs_context *ctx = NULL;
	struct doca_verbs_pd *pd = NULL;
	struct doca_verbs_cq_attr *ca = NULL;
	struct doca_verbs_cq *cq = NULL;
	struct doca_verbs_qp_init_attr *ia = NULL, *qia = NULL;
	struct doca_verbs_qp_attr *qa = NULL;
	struct doca_verbs_qp *qp = NULL;
	uint32_t n = 0, qpn = 0;
	int mask = 0;

	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_context_create(find(list, n, name), 0, &ctx), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_create(ctx, &pd), DOCA_SUCCESS);

	assert_int_equal(doca_verbs_cq_attr_create(&ca), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(ca, 64), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(ctx, ca, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(ca), DOCA_SUCCESS);

	assert_int_equal(doca_verbs_qp_init_attr_create(&ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_pd(ia, pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_qp_type(ia, DOCA_VERBS_QP_TYPE_RC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_cq(ia, cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_cq(ia, cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_wr(ia, 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(ia, 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_create(ctx, ia, &qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(qp, &qpn), DOCA_SUCCESS);

	modify(ctx, qp, 0);
	modify(ctx, qp, 1);
	modify(ctx, qp, 2);

	assert_int_equal(doca_verbs_qp_attr_create(&qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_create(&qia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_query(qp, qa, qia, &mask), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_current_state(qa), DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_qp_attr_get_dest_qp_num(qa), PEER_QPN);
	assert_int_equal(doca_verbs_qp_attr_destroy(qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(qia), DOCA_SUCCESS);

	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_destroy(pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_context_destroy(ctx), DOCA_SUCCESS);
	assert_int_equal(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
	return qpn;
}

static void test_api_streams_identical(void **state)
{
	const struct cmd_log *hw_cmds = fake_rdma_core_log();
	struct fake_rdma_core_counts c;
	uint32_t sw_qpn, hw_qpn;

	(void)state;
	cmd_log_init(&sw_cmds);
	fake_rdma_core_install(); /* the list holds mlx5_0 and swnic0 */
	record_sw = true;
	sw_record_replay_random();
	sw_qpn = run_sequence("swnic0");
	record_sw = false;
	cmd_log_clear(fake_rdma_core_log()); /* nothing of the software run belongs there */
	sw_record_replay_random();
	hw_qpn = run_sequence(FAKE_MLX5_NAME);
	fake_rdma_core_counts(&c);
	fake_rdma_core_uninstall();

	if (getenv("DEVX_IDENTITY_DUMP") != NULL) {
		cmd_log_dump(&sw_cmds, "swnic0");
		cmd_log_dump(hw_cmds, FAKE_MLX5_NAME);
	}
	assert_int_equal(sw_qpn, hw_qpn);
	assert_int_equal(c.contexts + c.pds + c.mrs + c.umems + c.uars + c.objs + c.channels, 0);
	/* What the sequence must have sent (so that an empty stream cannot pass). */
	assert_true(cmd_log_count(hw_cmds, CMD_GENERAL, PRM_CMD_QUERY_HCA_CAP) >= 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_CREATE, PRM_CMD_CREATE_CQ), 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_CREATE, PRM_CMD_CREATE_QP), 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_MODIFY, PRM_CMD_RST2INIT_QP), 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_MODIFY, PRM_CMD_INIT2RTR_QP), 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_MODIFY, PRM_CMD_RTR2RTS_QP), 1);
	assert_true(cmd_log_count(hw_cmds, CMD_QUERY, PRM_CMD_QUERY_QP) >= 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_DESTROY, 0), 2);
	assert_true(cmd_log_count(hw_cmds, CMD_RESOLVE, 0) >= 1);
	/* The verbs PD on both; the ConnectX device adds the one its address handles use. */
	assert_int_equal(cmd_log_count(&sw_cmds, CMD_PD_ALLOC, 0), 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_PD_ALLOC, 0), 2);
	assert_true(cmd_log_count(hw_cmds, CMD_UMEM_REG, 0) >= 1);
	assert_true(cmd_log_count(hw_cmds, CMD_UAR_ALLOC, 0) >= 1);

	/* PD numbers stay pinned: they are in the CREATE_QP bytes compared here. */
	cmd_log_assert_equal_skipping(&sw_cmds, hw_cmds, 1u << CMD_PD_ALLOC | 1u << CMD_PD_FREE);
	cmd_log_fini(&sw_cmds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_streams_identical),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
