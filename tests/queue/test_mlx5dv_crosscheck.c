/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cross-check against rdma-core's installed <infiniband/mlx5dv.h>, an independent
 * definition of the same formats: structure offsets, constant values, and the bytes its
 * inline encoders (mlx5dv_set_ctrl_seg, mlx5dv_set_data_seg) and CQE accessors produce.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* htobe32 and friends, used inside mlx5dv.h */
#endif

#include "queue_test_util.h"

#include <infiniband/mlx5dv.h>

#define SAME_OFFSET(ours, theirs, member_ours, member_theirs)                                                     \
	assert_int_equal(offsetof(struct ours, member_ours), offsetof(struct theirs, member_theirs))

static void test_layouts(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct opengda_mlx5_wqe_ctrl_seg), sizeof(struct mlx5_wqe_ctrl_seg));
	SAME_OFFSET(opengda_mlx5_wqe_ctrl_seg, mlx5_wqe_ctrl_seg, qpn_ds, qpn_ds);
	SAME_OFFSET(opengda_mlx5_wqe_ctrl_seg, mlx5_wqe_ctrl_seg, signature, signature);
	SAME_OFFSET(opengda_mlx5_wqe_ctrl_seg, mlx5_wqe_ctrl_seg, dci_stream_channel_id, dci_stream_channel_id);
	SAME_OFFSET(opengda_mlx5_wqe_ctrl_seg, mlx5_wqe_ctrl_seg, fm_ce_se, fm_ce_se);
	SAME_OFFSET(opengda_mlx5_wqe_ctrl_seg, mlx5_wqe_ctrl_seg, imm, imm);
	assert_int_equal(sizeof(struct opengda_mlx5_wqe_raddr_seg), sizeof(struct mlx5_wqe_raddr_seg));
	SAME_OFFSET(opengda_mlx5_wqe_raddr_seg, mlx5_wqe_raddr_seg, rkey, rkey);
	assert_int_equal(sizeof(struct opengda_mlx5_wqe_data_seg), sizeof(struct mlx5_wqe_data_seg));
	SAME_OFFSET(opengda_mlx5_wqe_data_seg, mlx5_wqe_data_seg, lkey, lkey);
	SAME_OFFSET(opengda_mlx5_wqe_data_seg, mlx5_wqe_data_seg, addr, addr);
	assert_int_equal(sizeof(struct opengda_mlx5_wqe_atomic_seg), sizeof(struct mlx5_wqe_atomic_seg));
	SAME_OFFSET(opengda_mlx5_wqe_atomic_seg, mlx5_wqe_atomic_seg, compare, compare);
	assert_int_equal(sizeof(struct opengda_mlx5_wqe_inl_data_seg), sizeof(struct mlx5_wqe_inl_data_seg));

	assert_int_equal(sizeof(struct opengda_mlx5_cqe64), sizeof(struct mlx5_cqe64));
	SAME_OFFSET(opengda_mlx5_cqe64, mlx5_cqe64, srqn_uidx, srqn_uidx);
	SAME_OFFSET(opengda_mlx5_cqe64, mlx5_cqe64, imm_inval_pkey, imm_inval_pkey);
	SAME_OFFSET(opengda_mlx5_cqe64, mlx5_cqe64, byte_cnt, byte_cnt);
	SAME_OFFSET(opengda_mlx5_cqe64, mlx5_cqe64, timestamp, timestamp);
	SAME_OFFSET(opengda_mlx5_cqe64, mlx5_cqe64, sop_drop_qpn, sop_drop_qpn);
	SAME_OFFSET(opengda_mlx5_cqe64, mlx5_cqe64, wqe_counter, wqe_counter);
	SAME_OFFSET(opengda_mlx5_cqe64, mlx5_cqe64, signature, signature);
	SAME_OFFSET(opengda_mlx5_cqe64, mlx5_cqe64, op_own, op_own);

	assert_int_equal(sizeof(struct opengda_mlx5_err_cqe), sizeof(struct mlx5_err_cqe));
	SAME_OFFSET(opengda_mlx5_err_cqe, mlx5_err_cqe, srqn, srqn);
	SAME_OFFSET(opengda_mlx5_err_cqe, mlx5_err_cqe, vendor_err_synd, vendor_err_synd);
	SAME_OFFSET(opengda_mlx5_err_cqe, mlx5_err_cqe, syndrome, syndrome);
	SAME_OFFSET(opengda_mlx5_err_cqe, mlx5_err_cqe, s_wqe_opcode_qpn, s_wqe_opcode_qpn);
	SAME_OFFSET(opengda_mlx5_err_cqe, mlx5_err_cqe, wqe_counter, wqe_counter);
	SAME_OFFSET(opengda_mlx5_err_cqe, mlx5_err_cqe, op_own, op_own);
}

static void test_constants(void **state)
{
	(void)state;
	assert_int_equal(OPENGDA_MLX5_OPCODE_NOP, MLX5_OPCODE_NOP);
	assert_int_equal(OPENGDA_MLX5_OPCODE_SEND_INVAL, MLX5_OPCODE_SEND_INVAL);
	assert_int_equal(OPENGDA_MLX5_OPCODE_RDMA_WRITE, MLX5_OPCODE_RDMA_WRITE);
	assert_int_equal(OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM, MLX5_OPCODE_RDMA_WRITE_IMM);
	assert_int_equal(OPENGDA_MLX5_OPCODE_SEND, MLX5_OPCODE_SEND);
	assert_int_equal(OPENGDA_MLX5_OPCODE_SEND_IMM, MLX5_OPCODE_SEND_IMM);
	assert_int_equal(OPENGDA_MLX5_OPCODE_LSO, MLX5_OPCODE_TSO);
	assert_int_equal(OPENGDA_MLX5_OPCODE_RDMA_READ, MLX5_OPCODE_RDMA_READ);
	assert_int_equal(OPENGDA_MLX5_OPCODE_ATOMIC_CS, MLX5_OPCODE_ATOMIC_CS);
	assert_int_equal(OPENGDA_MLX5_OPCODE_ATOMIC_FA, MLX5_OPCODE_ATOMIC_FA);
	assert_int_equal(OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, MLX5_OPCODE_ATOMIC_MASKED_CS);
	assert_int_equal(OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, MLX5_OPCODE_ATOMIC_MASKED_FA);
	assert_int_equal(OPENGDA_MLX5_OPCODE_FMR, MLX5_OPCODE_FMR);
	assert_int_equal(OPENGDA_MLX5_OPCODE_LOCAL_INVAL, MLX5_OPCODE_LOCAL_INVAL);
	assert_int_equal(OPENGDA_MLX5_OPCODE_CONFIG_CMD, MLX5_OPCODE_CONFIG_CMD);
	assert_int_equal(OPENGDA_MLX5_OPCODE_SET_PSV, MLX5_OPCODE_SET_PSV);
	assert_int_equal(OPENGDA_MLX5_OPCODE_UMR, MLX5_OPCODE_UMR);
	assert_int_equal(OPENGDA_MLX5_OPCODE_TAG_MATCHING, MLX5_OPCODE_TAG_MATCHING);
	assert_int_equal(OPENGDA_MLX5_OPCODE_FLOW_TBL_ACCESS, MLX5_OPCODE_FLOW_TBL_ACCESS);
	assert_int_equal(OPENGDA_MLX5_OPCODE_MMO, MLX5_OPCODE_MMO);

	assert_int_equal(OPENGDA_MLX5_CQE_REQ, MLX5_CQE_REQ);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_WR_IMM, MLX5_CQE_RESP_WR_IMM);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_SEND, MLX5_CQE_RESP_SEND);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_SEND_IMM, MLX5_CQE_RESP_SEND_IMM);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_SEND_INV, MLX5_CQE_RESP_SEND_INV);
	assert_int_equal(OPENGDA_MLX5_CQE_RESIZE_CQ, MLX5_CQE_RESIZE_CQ);
	assert_int_equal(OPENGDA_MLX5_CQE_NO_PACKET, MLX5_CQE_NO_PACKET);
	assert_int_equal(OPENGDA_MLX5_CQE_SIG_ERR, MLX5_CQE_SIG_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_REQ_ERR, MLX5_CQE_REQ_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_ERR, MLX5_CQE_RESP_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_INVALID, MLX5_CQE_INVALID);
	assert_int_equal(OPENGDA_MLX5_CQE_OWNER_MASK, MLX5_CQE_OWNER_MASK);
	assert_int_equal(OPENGDA_MLX5_CQE_INLINE_SCATTER_32, MLX5_INLINE_SCATTER_32);
	assert_int_equal(OPENGDA_MLX5_CQE_INLINE_SCATTER_64, MLX5_INLINE_SCATTER_64);

	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_MW_BIND_ERR, MLX5_CQE_SYNDROME_MW_BIND_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_BAD_RESP_ERR, MLX5_CQE_SYNDROME_BAD_RESP_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR, MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR, MLX5_CQE_SYNDROME_REMOTE_OP_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR, MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR, MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR);

	assert_int_equal(OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, MLX5_WQE_CTRL_CQ_UPDATE);
	assert_int_equal(OPENGDA_MLX5_WQE_CTRL_SOLICITED, MLX5_WQE_CTRL_SOLICITED);
	assert_int_equal(OPENGDA_MLX5_WQE_CTRL_FM_SMALL_AND_FENCE, MLX5_WQE_CTRL_FENCE);
	assert_int_equal(OPENGDA_MLX5_WQE_CTRL_FM_INITIATOR_SMALL, MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE);
	assert_int_equal(OPENGDA_MLX5_SEND_WQE_BB, MLX5_SEND_WQE_BB);
	assert_int_equal(OPENGDA_MLX5_SEND_WQE_SHIFT, MLX5_SEND_WQE_SHIFT);
	assert_int_equal(OPENGDA_MLX5_INVALID_LKEY, MLX5_INVALID_LKEY);
	assert_int_equal(OPENGDA_MLX5_INLINE_SEG, MLX5_INLINE_SEG);
	assert_int_equal(OPENGDA_MLX5_UAR_CQ_DOORBELL, MLX5_CQ_DOORBELL);
	assert_int_equal(OPENGDA_MLX5_CQ_DB_REQ_NOT_SOL, MLX5_CQ_DB_REQ_NOT_SOL);
	assert_int_equal(OPENGDA_MLX5_CQ_DB_REQ_NOT, MLX5_CQ_DB_REQ_NOT);
	assert_int_equal(OPENGDA_MLX5_RCV_DBR, MLX5_RCV_DBR);
	assert_int_equal(OPENGDA_MLX5_SND_DBR, MLX5_SND_DBR);
}

/* Our ctrl encoder and rdma-core's give the same 16 bytes (rdma-core takes imm already big-endian). */
static void test_ctrl_seg_same_bytes(void **state)
{
	static const struct {
		uint16_t pi;
		uint8_t opcode, opmod, fm_ce_se, ds;
		uint32_t qpn, imm;
	} cases[] = {
		{0x0000, MLX5_OPCODE_RDMA_WRITE, 0, 0x08, 3, 0x000001, 0},
		{0x1236, MLX5_OPCODE_RDMA_WRITE_IMM, 0, 0x0a, 3, 0x00abcd, 0xdeadbeef},
		{0xffff, MLX5_OPCODE_ATOMIC_MASKED_CS, 0x09, 0x88, 5, 0xfffffe, 0},
		{0x8001, MLX5_OPCODE_SEND_IMM, 0, 0x2c, 63, 0x123456, 0x01020304},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mlx5_wqe_ctrl_seg theirs;
		struct opengda_mlx5_wqe_ctrl_seg ours;

		memset(&theirs, 0, sizeof(theirs));
		mlx5dv_set_ctrl_seg(&theirs, cases[i].pi, cases[i].opcode, cases[i].opmod, cases[i].qpn,
				    cases[i].fm_ce_se, cases[i].ds, 0, htobe32(cases[i].imm));
		assert_int_equal(opengda_mlx5_ctrl_seg_write(&ours, cases[i].opmod, cases[i].pi, cases[i].opcode,
							     cases[i].qpn, cases[i].ds, cases[i].fm_ce_se, cases[i].imm),
				 0);
		assert_memory_equal(&ours, &theirs, 16);
	}
}

static void test_data_seg_same_bytes(void **state)
{
	struct mlx5_wqe_data_seg theirs;
	struct opengda_mlx5_wqe_data_seg ours;

	(void)state;
	mlx5dv_set_data_seg(&theirs, 0x7fffffff, 0x0badf00d, 0x0102030405060708ull);
	assert_int_equal(opengda_mlx5_data_seg_write(&ours, 0x7fffffff, 0x0badf00d, 0x0102030405060708ull), 0);
	assert_memory_equal(&ours, &theirs, 16);
}

/* rdma-core's CQE accessors read our CQEs the same way ours do. */
static void test_cqe_accessors_agree(void **state)
{
	struct opengda_mlx5_cqe_fields f = {0};
	union {
		struct opengda_mlx5_cqe64 ours;
		struct mlx5_cqe64 theirs;
	} cqe;

	(void)state;
	f.opcode = OPENGDA_MLX5_CQE_RESP_SEND_IMM;
	f.se = 1;
	f.qpn = 0x00abcd;
	f.wqe_counter = 0x4321;
	assert_int_equal(opengda_mlx5_cqe_write(&cqe.ours, &f, 1), 0);
	assert_int_equal(mlx5dv_get_cqe_opcode(&cqe.theirs), opengda_mlx5_cqe_opcode(&cqe.ours));
	assert_int_equal(mlx5dv_get_cqe_owner(&cqe.theirs), opengda_mlx5_cqe_owner(&cqe.ours));
	assert_int_equal(mlx5dv_get_cqe_se(&cqe.theirs), opengda_mlx5_cqe_se(&cqe.ours));
	assert_int_equal(mlx5dv_get_cqe_format(&cqe.theirs), opengda_mlx5_cqe_format(&cqe.ours));
	assert_int_equal(be16toh(cqe.theirs.wqe_counter), 0x4321);
	assert_int_equal(be32toh(cqe.theirs.sop_drop_qpn) & 0xffffff, 0xabcd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_ctrl_seg_same_bytes),
		cmocka_unit_test(test_data_seg_same_bytes),
		cmocka_unit_test(test_cqe_accessors_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
