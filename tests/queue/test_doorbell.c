/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Doorbell records, UAR doorbell values and offsets, byte order and index helpers
 * (reference/mlx5.md B.1, B.7, B.8). Values are checked as the bytes they put in memory.
 */
/* First, so that the header is compiled on its own with -pedantic. */
#include "opengda_mlx5.h"

#include "queue_test_util.h"

/* The bytes a 32-bit or 64-bit value occupies in memory. */
static void expect_bytes32(uint32_t v, const uint8_t expected[4])
{
	uint8_t b[4];

	memcpy(b, &v, sizeof(b));
	assert_memory_equal(b, expected, 4);
}

static void expect_bytes64(uint64_t v, const uint8_t expected[8])
{
	uint8_t b[8];

	memcpy(b, &v, sizeof(b));
	assert_memory_equal(b, expected, 8);
}

static void test_byte_order(void **state)
{
	(void)state;
	assert_int_equal(opengda_mlx5_bswap16(0x1234), 0x3412);
	assert_int_equal(opengda_mlx5_bswap32(0x12345678u), 0x78563412u);
	assert_int_equal(opengda_mlx5_bswap64(0x0102030405060708ull), 0x0807060504030201ull);
	expect_bytes32(opengda_mlx5_htobe32(0x12345678u), (const uint8_t[]){0x12, 0x34, 0x56, 0x78});
	expect_bytes64(opengda_mlx5_htobe64(0x0102030405060708ull),
		       (const uint8_t[]){0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08});
	assert_int_equal(opengda_mlx5_be32toh(opengda_mlx5_htobe32(0xcafef00du)), 0xcafef00du);
	assert_int_equal(opengda_mlx5_be16toh(opengda_mlx5_htobe16(0xbeef)), 0xbeef);
	expect_bytes64(opengda_mlx5_pack_words(opengda_mlx5_htobe32(0x11223344u), opengda_mlx5_htobe32(0x55667788u)),
		       (const uint8_t[]){0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88});
}

/* QP DBR: word 0 RQ, word 1 (byte 4) SQ, BE32 of the 16-bit producer counter. */
static void test_qp_dbr(void **state)
{
	uint32_t dbr[2];
	uint8_t bytes[8];
	static const uint8_t expected[8] = {0xee, 0xee, 0xee, 0xee, 0x00, 0x00, 0x23, 0x45};

	(void)state;
	assert_int_equal(OPENGDA_MLX5_RCV_DBR, 0);
	assert_int_equal(OPENGDA_MLX5_SND_DBR, 1);
	memset(dbr, 0xee, sizeof(dbr));
	dbr[OPENGDA_MLX5_SND_DBR] = opengda_mlx5_qp_dbr_value(0x12345); /* counter wraps to 0x2345 */
	memcpy(bytes, dbr, sizeof(bytes));
	assert_memory_equal(bytes, expected, 8);
	expect_bytes32(opengda_mlx5_qp_dbr_value(0xffff), (const uint8_t[]){0x00, 0x00, 0xff, 0xff});
}

/* CQ DBR: word 0 SET_CI = ci & 0xffffff; word 1 ARM = sn << 28 | cmd | ci. */
static void test_cq_dbr(void **state)
{
	(void)state;
	assert_int_equal(OPENGDA_MLX5_CQ_SET_CI, 0);
	assert_int_equal(OPENGDA_MLX5_CQ_ARM_DB, 1);
	expect_bytes32(opengda_mlx5_cq_dbr_set_ci_value(0x1234567u), (const uint8_t[]){0x00, 0x23, 0x45, 0x67});
	expect_bytes32(opengda_mlx5_cq_dbr_arm_value(1, 0, 0x123456), (const uint8_t[]){0x10, 0x12, 0x34, 0x56});
	expect_bytes32(opengda_mlx5_cq_dbr_arm_value(3, 1, 0xffffffffu), (const uint8_t[]){0x31, 0xff, 0xff, 0xff});
	/* sn keeps 2 bits: 5 -> 1. */
	assert_int_equal(opengda_mlx5_cq_arm_word(5, 1, 7), 0x11000007u);
	assert_int_equal(OPENGDA_MLX5_CQ_DB_REQ_NOT_SOL, 0x01000000u);
	assert_int_equal(OPENGDA_MLX5_CQ_DB_REQ_NOT, 0);
}

/* CQ arm doorbell at UAR + 0x20: 8 big-endian bytes of (arm word << 32) | cqn. */
static void test_cq_uar_doorbell(void **state)
{
	uint64_t db = opengda_mlx5_cq_uar_arm_value(2, 1, 0x000102, 0x00abcd);

	(void)state;
	assert_int_equal(OPENGDA_MLX5_UAR_CQ_DOORBELL, 0x20);
	expect_bytes64(db, (const uint8_t[]){0x21, 0x00, 0x01, 0x02, 0x00, 0x00, 0xab, 0xcd});
	assert_int_equal(opengda_mlx5_cq_uar_arm_word(db), 0x21000102u);
	assert_int_equal(opengda_mlx5_cq_uar_arm_cqn(db), 0xabcd);
	/* The value a host stores with one 64-bit big-endian write, as rdma-core does. */
	assert_int_equal(opengda_mlx5_be64toh(db), 0x210001020000abcdull);
}

/* QP doorbell: the first 8 bytes of a ctrl segment. */
static void test_qp_uar_doorbell(void **state)
{
	struct qt_ring r;
	uint64_t db = opengda_mlx5_qp_uar_db_value(0x1234, 0x00abcd);
	uint8_t ctrl_bytes[8];

	(void)state;
	/* NVSHMEM / DOCA form: {BE32(pi << 8), BE32(qpn << 8)}, opcode and DS 0. */
	expect_bytes64(db, (const uint8_t[]){0x00, 0x12, 0x34, 0x00, 0x00, 0xab, 0xcd, 0x00});
	assert_int_equal(opengda_mlx5_qp_uar_db_wqe_index(db), 0x1234);
	assert_int_equal(opengda_mlx5_qp_uar_db_qpn(db), 0xabcd);

	/* rdma-core form: the ctrl bytes of the last WQE posted. */
	qt_ring_init(&r, 2);
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&r.sq, 0x0203, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, 1, 2, 3, 4, 5), 3);
	db = opengda_mlx5_qp_uar_db_from_ctrl(
		(const struct opengda_mlx5_wqe_ctrl_seg *)opengda_mlx5_sq_wqebb(&r.sq, 0x0203));
	memcpy(ctrl_bytes, opengda_mlx5_sq_wqebb(&r.sq, 0x0203), 8);
	expect_bytes64(db, (const uint8_t[]){0x00, 0x02, 0x03, 0x08, 0x00, 0xab, 0xcd, 0x03});
	expect_bytes64(db, ctrl_bytes);
	assert_int_equal(opengda_mlx5_qp_uar_db_wqe_index(db), 0x0203);
	assert_int_equal(opengda_mlx5_qp_uar_db_qpn(db), 0xabcd);
}

static void test_uar_offsets(void **state)
{
	(void)state;
	assert_int_equal(OPENGDA_MLX5_UAR_PAGE_SIZE, 4096);
	assert_int_equal(OPENGDA_MLX5_UAR_DBR_LESS_OFFSET, 0x600);
	assert_int_equal(OPENGDA_MLX5_UAR_BF_OFFSET, 0x800);
	/* bf_reg_size 512: halves of 256 bytes. */
	assert_int_equal(opengda_mlx5_uar_bf_offset(0, 512, 0), 0x800);
	assert_int_equal(opengda_mlx5_uar_bf_offset(0, 512, 1), 0x900);
	assert_int_equal(opengda_mlx5_uar_bf_offset(1, 512, 0), 0xa00);
	assert_int_equal(opengda_mlx5_uar_bf_offset(3, 512, 1), 0xf00);
	assert_int_equal(opengda_mlx5_uar_bf_offset(4, 512, 0), OPENGDA_MLX5_EINVAL); /* past the page */
	assert_int_equal(opengda_mlx5_uar_bf_offset(7, 256, 1), 0xf80);
	assert_int_equal(opengda_mlx5_uar_bf_offset(0, 512, 2), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_uar_bf_offset(0, 0, 0), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_uar_bf_offset(0, 384, 0), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_uar_bf_offset(0xffffffffu, 512, 0), OPENGDA_MLX5_EINVAL);
}

static void test_geometry(void **state)
{
	(void)state;
	assert_int_equal(OPENGDA_MLX5_SEND_WQE_BB, 64);
	assert_int_equal(1u << OPENGDA_MLX5_SEND_WQE_SHIFT, 64);
	assert_int_equal(OPENGDA_MLX5_SEND_WQE_DS, 16);
	assert_int_equal(OPENGDA_MLX5_SEND_WQE_MAX_WQEBBS, 16);
	assert_int_equal(OPENGDA_MLX5_WQE_CTRL_DS_MASK, 0x3f);
	assert_int_equal(OPENGDA_MLX5_INLINE_SEG, 0x80000000u);
	assert_int_equal(OPENGDA_MLX5_INVALID_LKEY, 0x100);
	assert_int_equal(opengda_mlx5_wqebbs_from_ds(1), 1);
	assert_int_equal(opengda_mlx5_wqebbs_from_ds(4), 1);
	assert_int_equal(opengda_mlx5_wqebbs_from_ds(5), 2);
	assert_int_equal(opengda_mlx5_wqebbs_from_ds(9), 3);
	assert_int_equal(opengda_mlx5_wqebbs_from_ds(63), 16);
	assert_int_equal(opengda_mlx5_inline_ds(0), 1);
	assert_int_equal(opengda_mlx5_inline_ds(12), 1);
	assert_int_equal(opengda_mlx5_inline_ds(13), 2);
	assert_int_equal(opengda_mlx5_inline_ds(28), 2);
	assert_int_equal(opengda_mlx5_inline_ds(29), 3);
	assert_int_equal(opengda_mlx5_sq_pi_advance(0xfffe, 5), 0x0000);
	assert_int_equal(opengda_mlx5_sq_pi_advance(7, 3), 8);
}

static void test_ctrl_bits(void **state)
{
	struct opengda_mlx5_wqe_ctrl_seg c;

	(void)state;
	assert_int_equal(opengda_mlx5_fm_ce_se(OPENGDA_MLX5_FENCE_MODE_SMALL_AND_FENCE, OPENGDA_MLX5_CE_ALWAYS, 1), 0x8a);
	assert_int_equal(opengda_mlx5_fm_ce_se(OPENGDA_MLX5_FENCE_MODE_FENCE, OPENGDA_MLX5_CE_ALWAYS, 0), 0x48);
	assert_int_equal(opengda_mlx5_fm_ce_se(OPENGDA_MLX5_FENCE_MODE_INITIATOR_SMALL, OPENGDA_MLX5_CE_ALWAYS_AND_EQE, 0),
			 0x2c);
	assert_int_equal(opengda_mlx5_fm_ce_se(OPENGDA_MLX5_FENCE_MODE_STRONG_ORDERING, OPENGDA_MLX5_CE_FIRST_ERROR, 0),
			 0x64);
	assert_int_equal(opengda_mlx5_fm_ce_se(0, OPENGDA_MLX5_CE_ERROR_ONLY, 0), 0);
	assert_int_equal(opengda_mlx5_fm_ce_se(5, 0, 0), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_fm_ce_se(0, 4, 0), OPENGDA_MLX5_EINVAL);
	assert_int_equal(OPENGDA_MLX5_WQE_CTRL_FM_INITIATOR_SMALL, 0x20);
	assert_int_equal(OPENGDA_MLX5_WQE_CTRL_FM_STRONG_ORDERING, 0x60);
	assert_int_equal(OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE_EQE, 0x0c);
	assert_int_equal(opengda_mlx5_masked_atomic_opmod(4), 0x08);
	assert_int_equal(opengda_mlx5_masked_atomic_opmod(8), 0x09);
	assert_int_equal(opengda_mlx5_masked_atomic_opmod(16), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_masked_atomic_opmod(2), OPENGDA_MLX5_EINVAL);

	/* Every ctrl field back out of an encoded segment. */
	assert_int_equal(opengda_mlx5_ctrl_seg_write(&c, 0x09, 0xfedc, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 0xfffffe, 63,
						     0x8e, 0x01020304u),
			 0);
	assert_int_equal(opengda_mlx5_ctrl_opmod(&c), 0x09);
	assert_int_equal(opengda_mlx5_ctrl_wqe_index(&c), 0xfedc);
	assert_int_equal(opengda_mlx5_ctrl_opcode(&c), 0x14);
	assert_int_equal(opengda_mlx5_ctrl_qpn(&c), 0xfffffe);
	assert_int_equal(opengda_mlx5_ctrl_ds(&c), 63);
	assert_int_equal(opengda_mlx5_ctrl_ds_byte(&c), 63);
	assert_int_equal(opengda_mlx5_ctrl_fence(&c), 4);
	assert_int_equal(opengda_mlx5_ctrl_ce(&c), 3);
	assert_int_equal(opengda_mlx5_ctrl_se(&c), 1);
	assert_int_equal(opengda_mlx5_ctrl_imm(&c), 0x01020304u);
	expect_bytes32(c.imm, (const uint8_t[]){0x01, 0x02, 0x03, 0x04});
}

/* Values written out from reference/mlx5.md B.3 and B.6, independently of the header. */
static void test_opcode_values(void **state)
{
	(void)state;
	assert_int_equal(OPENGDA_MLX5_OPCODE_NOP, 0x00);
	assert_int_equal(OPENGDA_MLX5_OPCODE_SEND_INVAL, 0x01);
	assert_int_equal(OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0x08);
	assert_int_equal(OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM, 0x09);
	assert_int_equal(OPENGDA_MLX5_OPCODE_SEND, 0x0a);
	assert_int_equal(OPENGDA_MLX5_OPCODE_SEND_IMM, 0x0b);
	assert_int_equal(OPENGDA_MLX5_OPCODE_LSO, 0x0e);
	assert_int_equal(OPENGDA_MLX5_OPCODE_WAIT, 0x0f);
	assert_int_equal(OPENGDA_MLX5_OPCODE_RDMA_READ, 0x10);
	assert_int_equal(OPENGDA_MLX5_OPCODE_ATOMIC_CS, 0x11);
	assert_int_equal(OPENGDA_MLX5_OPCODE_ATOMIC_FA, 0x12);
	assert_int_equal(OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 0x14);
	assert_int_equal(OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 0x15);
	assert_int_equal(OPENGDA_MLX5_OPCODE_RECV_EN, 0x16);
	assert_int_equal(OPENGDA_MLX5_OPCODE_SEND_EN, 0x17);
	assert_int_equal(OPENGDA_MLX5_OPCODE_BIND_MW, 0x18);
	assert_int_equal(OPENGDA_MLX5_OPCODE_LOCAL_INVAL, 0x1b);
	assert_int_equal(OPENGDA_MLX5_OPCODE_CONFIG_CMD, 0x1f);
	assert_int_equal(OPENGDA_MLX5_OPCODE_SET_PSV, 0x20);
	assert_int_equal(OPENGDA_MLX5_OPCODE_DUMP, 0x23);
	assert_int_equal(OPENGDA_MLX5_OPCODE_UMR, 0x25);
	assert_int_equal(OPENGDA_MLX5_OPMOD_WAIT_CQ_PI, 0);
	assert_int_equal(OPENGDA_MLX5_OPMOD_WAIT_DATA, 1);
	assert_int_equal(OPENGDA_MLX5_OPMOD_WAIT_TIME, 2);
	assert_int_equal(OPENGDA_MLX5_CQE_REQ, 0);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_WR_IMM, 1);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_SEND, 2);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_SEND_IMM, 3);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_SEND_INV, 4);
	assert_int_equal(OPENGDA_MLX5_CQE_RESIZE_CQ, 5);
	assert_int_equal(OPENGDA_MLX5_CQE_NO_PACKET, 6);
	assert_int_equal(OPENGDA_MLX5_CQE_SIG_ERR, 12);
	assert_int_equal(OPENGDA_MLX5_CQE_REQ_ERR, 13);
	assert_int_equal(OPENGDA_MLX5_CQE_RESP_ERR, 14);
	assert_int_equal(OPENGDA_MLX5_CQE_INVALID, 15);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, 0x01);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, 0x02);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, 0x04);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR, 0x05);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_MW_BIND_ERR, 0x06);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_BAD_RESP_ERR, 0x10);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR, 0x11);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0x12);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, 0x13);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR, 0x14);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR, 0x15);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, 0x16);
	assert_int_equal(OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR, 0x22);
	assert_int_equal(OPENGDA_MLX5_CQE_OP_OWN_INIT, 0xf1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_byte_order),
		cmocka_unit_test(test_qp_dbr),
		cmocka_unit_test(test_cq_dbr),
		cmocka_unit_test(test_cq_uar_doorbell),
		cmocka_unit_test(test_qp_uar_doorbell),
		cmocka_unit_test(test_uar_offsets),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_ctrl_bits),
		cmocka_unit_test(test_opcode_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
