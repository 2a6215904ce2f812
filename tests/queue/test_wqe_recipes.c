/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every RC WQE recipe of reference/mlx5.md B.5: the bytes it writes (written out by hand
 * below, offset by offset, big-endian) and what prm_wqe_decode() reads back from them.
 * Each WQE goes to index 0x1236 of a 4-WQEBB ring, i.e. slot 2 at ring offset 128.
 */
#include "queue_test_util.h"

#include "prm/prm_wqe.h"

#define IDX 0x1236u
#define SLOT_OFF 128u
#define RADDR 0x1122334455667788ull
#define RKEY 0xaabbccddu
#define LADDR 0x0102030405060708ull
#define LKEY 0x0badf00du
#define LEN 0x1000u
#define IMM 0xdeadbeefu
#define CS_COMPARE 0xc0c1c2c3c4c5c6c7ull
#define CS_SWAP 0x5051525354555657ull
#define CS_SWAP_MASK 0xf0f1f2f3f4f5f6f7ull
#define CS_COMPARE_MASK 0xe0e1e2e3e4e5e6e7ull

/* Byte images shared by several recipes. */
#define B_RADDR 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88
#define B_RKEY 0xaa, 0xbb, 0xcc, 0xdd
#define B_LKEY 0x0b, 0xad, 0xf0, 0x0d
#define B_LADDR 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08
#define B_ZERO4 0x00, 0x00, 0x00, 0x00

static struct qt_ring ring;
static struct prm_wqe wqe;

static int setup(void **state)
{
	(void)state;
	qt_ring_init(&ring, 2);
	memset(&wqe, 0x5a, sizeof(wqe));
	return 0;
}

static void decode_ok(void)
{
	assert_int_equal(prm_wqe_decode(ring.sq.ring, 2, IDX, &wqe), DOCA_SUCCESS);
}

static void expect_ctrl(uint8_t opcode, uint8_t opmod, uint8_t ds, uint8_t fm_ce_se, uint32_t imm)
{
	assert_int_equal(wqe.opcode, opcode);
	assert_int_equal(wqe.opmod, opmod);
	assert_int_equal(wqe.wqe_index, IDX);
	assert_int_equal(wqe.qpn, QT_QPN);
	assert_int_equal(wqe.ds, ds);
	assert_int_equal(wqe.size, ds * 16u);
	assert_int_equal(wqe.wqebbs, (ds + 3u) / 4u);
	assert_int_equal(wqe.fm_ce_se, fm_ce_se);
	assert_int_equal(wqe.fence, fm_ce_se >> 5);
	assert_int_equal(wqe.ce, (fm_ce_se >> 2) & 3u);
	assert_int_equal(wqe.se, (fm_ce_se >> 1) & 1u);
	assert_int_equal(wqe.signature, 0);
	assert_int_equal(wqe.imm, imm);
}

static void expect_raddr(void)
{
	assert_true(wqe.has_raddr);
	assert_int_equal(wqe.raddr, RADDR);
	assert_int_equal(wqe.rkey, RKEY);
}

static void expect_one_ptr(uint32_t byte_count)
{
	assert_int_equal(wqe.ndata, 1);
	assert_int_equal(wqe.data[0].kind, PRM_WQE_DATA_PTR);
	assert_int_equal(wqe.data[0].byte_count, byte_count);
	assert_int_equal(wqe.data[0].lkey, LKEY);
	assert_int_equal(wqe.data[0].addr, LADDR);
}

static void test_rdma_write(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x08, /* opmod 0 | wqe index 0x1236 | opcode RDMA_WRITE */
		/*  4 */ 0x00, 0xab, 0xcd, 0x03, /* qpn 0xabcd | ds 3 */
		/*  8 */ 0x00, 0x00, 0x00, 0x08, /* signature, dci stream id, fm_ce_se = CE always */
		/* 12 */ B_ZERO4,                /* imm */
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,                /* raddr reserved */
		/* 32 */ 0x00, 0x00, 0x10, 0x00, /* byte_count 4096 */
		/* 36 */ B_LKEY,
		/* 40 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY, LADDR,
						     LKEY, LEN),
			 3);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0, 3, 0x08, 0);
	expect_raddr();
	expect_one_ptr(LEN);
	assert_false(wqe.has_atomic);
	assert_false(wqe.has_wait);
}

static void test_rdma_write_imm(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x09, /* opcode RDMA_WRITE_IMM */
		/*  4 */ 0x00, 0xab, 0xcd, 0x03,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ 0xde, 0xad, 0xbe, 0xef, /* imm, big-endian */
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x00, 0x00, 0x10, 0x00,
		/* 36 */ B_LKEY,
		/* 40 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_rdma_write_imm(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
							 LADDR, LKEY, LEN, IMM),
			 3);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM, 0, 3, 0x08, IMM);
	expect_raddr();
	expect_one_ptr(LEN);
}

static void test_rdma_read(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x10, /* opcode RDMA_READ */
		/*  4 */ 0x00, 0xab, 0xcd, 0x03,
		/*  8 */ 0x00, 0x00, 0x00, 0x88, /* fence SMALL_AND_FENCE (4 << 5) | CE always */
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x00, 0x00, 0x10, 0x00,
		/* 36 */ B_LKEY,
		/* 40 */ B_LADDR,
	};
	uint8_t fm = OPENGDA_MLX5_WQE_CTRL_FM_SMALL_AND_FENCE | OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE;

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_rdma_read(&ring.sq, IDX, fm, RADDR, RKEY, LADDR, LKEY, LEN), 3);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_RDMA_READ, 0, 3, 0x88, 0);
	assert_int_equal(wqe.fence, OPENGDA_MLX5_FENCE_MODE_SMALL_AND_FENCE);
	expect_raddr();
	expect_one_ptr(LEN);
}

static void test_rdma_write_inline_12(void **state)
{
	static const uint8_t payload[12] = {0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b};
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x08,
		/*  4 */ 0x00, 0xab, 0xcd, 0x03, /* ds 3: 4 + 12 bytes fit one octoword */
		/*  8 */ 0x00, 0x00, 0x00, 0x0a, /* CE always | SE */
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x80, 0x00, 0x00, 0x0c, /* inline flag | length 12 */
		/* 36 */ 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b,
	};
	uint8_t fm = OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE | OPENGDA_MLX5_WQE_CTRL_SOLICITED;

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&ring.sq, IDX, fm, RADDR, RKEY, payload, sizeof(payload)),
			 3);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0, 3, 0x0a, 0);
	expect_raddr();
	assert_int_equal(wqe.ndata, 1);
	assert_int_equal(wqe.data[0].kind, PRM_WQE_DATA_INLINE);
	assert_int_equal(wqe.data[0].byte_count, 12);
	assert_int_equal(wqe.data[0].inline_offset, 36);
	assert_memory_equal(wqe.bytes + 36, payload, sizeof(payload));
}

static void test_rdma_write_inline_28(void **state)
{
	uint8_t payload[28];
	uint8_t expected[64] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x08,
		/*  4 */ 0x00, 0xab, 0xcd, 0x04, /* ds 4: 4 + 28 bytes fill two octowords */
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x80, 0x00, 0x00, 0x1c, /* inline | 28 */
		/* 36..63: payload, filled below */
	};
	uint32_t i;

	(void)state;
	for (i = 0; i < sizeof(payload); i++) {
		payload[i] = (uint8_t)(0x60 + i);
		expected[36 + i] = (uint8_t)(0x60 + i);
	}
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
							    payload, sizeof(payload)),
			 4);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0, 4, 0x08, 0);
	expect_raddr();
	assert_int_equal(wqe.ndata, 1);
	assert_int_equal(wqe.data[0].kind, PRM_WQE_DATA_INLINE);
	assert_int_equal(wqe.data[0].byte_count, 28);
	assert_memory_equal(wqe.bytes + wqe.data[0].inline_offset, payload, sizeof(payload));
}

/* 13 bytes: one past the DS-3 limit; the 15 bytes after the payload are zero padding. */
static void test_rdma_write_inline_13_pads(void **state)
{
	static const uint8_t payload[13] = {0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66,
					    0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c};
	static const uint8_t expected[64] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x08,
		/*  4 */ 0x00, 0xab, 0xcd, 0x04,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x80, 0x00, 0x00, 0x0d,
		/* 36 */ 0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c,
		/* 49..63: zero padding (array initialiser) */
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
							    payload, sizeof(payload)),
			 4);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	assert_int_equal(wqe.data[0].byte_count, 13);
}

static void test_send(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x0a, /* opcode SEND */
		/*  4 */ 0x00, 0xab, 0xcd, 0x02, /* ds 2 */
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ 0x00, 0x00, 0x10, 0x00,
		/* 20 */ B_LKEY,
		/* 24 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_send(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, LADDR, LKEY, LEN), 2);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_SEND, 0, 2, 0x08, 0);
	assert_false(wqe.has_raddr);
	expect_one_ptr(LEN);
}

static void test_send_imm(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x0b, /* opcode SEND_IMM */
		/*  4 */ 0x00, 0xab, 0xcd, 0x02,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ 0xde, 0xad, 0xbe, 0xef,
		/* 16 */ 0x00, 0x00, 0x10, 0x00,
		/* 20 */ B_LKEY,
		/* 24 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(
		opengda_mlx5_wqe_send_imm(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, LADDR, LKEY, LEN, IMM), 2);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_SEND_IMM, 0, 2, 0x08, IMM);
	expect_one_ptr(LEN);
}

static void test_atomic_cs(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x11, /* opcode ATOMIC_CS */
		/*  4 */ 0x00, 0xab, 0xcd, 0x04,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, /* swap_add = swap */
		/* 40 */ 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, /* compare */
		/* 48 */ 0x00, 0x00, 0x00, 0x08,                         /* result: 8 bytes */
		/* 52 */ B_LKEY,
		/* 56 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_atomic_cs(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
						    CS_COMPARE, CS_SWAP, LADDR, LKEY),
			 4);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_ATOMIC_CS, 0, 4, 0x08, 0);
	expect_raddr();
	assert_true(wqe.has_atomic);
	assert_false(wqe.atomic.masked);
	assert_int_equal(wqe.atomic.size, 8);
	assert_int_equal(wqe.atomic.swap_add, CS_SWAP);
	assert_int_equal(wqe.atomic.compare, CS_COMPARE);
	assert_int_equal(wqe.atomic.swap_mask, UINT64_MAX);
	assert_int_equal(wqe.atomic.compare_mask, UINT64_MAX);
	expect_one_ptr(8);
}

static void test_atomic_fa(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x12, /* opcode ATOMIC_FA */
		/*  4 */ 0x00, 0xab, 0xcd, 0x04,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, /* addend */
		/* 40 */ B_ZERO4, B_ZERO4,                               /* compare: unused */
		/* 48 */ 0x00, 0x00, 0x00, 0x08,
		/* 52 */ B_LKEY,
		/* 56 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_atomic_fa(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY, CS_SWAP,
						    LADDR, LKEY),
			 4);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_ATOMIC_FA, 0, 4, 0x08, 0);
	expect_raddr();
	assert_int_equal(wqe.atomic.size, 8);
	assert_int_equal(wqe.atomic.swap_add, CS_SWAP);
	assert_int_equal(wqe.atomic.field_boundary, 0);
	expect_one_ptr(8);
}

static void test_masked_cs8(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x09, 0x12, 0x36, 0x14, /* opmod 0x09 (8-byte ext. atomic) | ATOMIC_MASKED_CS */
		/*  4 */ 0x00, 0xab, 0xcd, 0x05, /* ds 5: two WQEBBs */
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, /* swap */
		/* 40 */ 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, /* compare */
		/* 48 */ 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, /* swap mask */
		/* 56 */ 0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, /* compare mask */
		/* 64 */ 0x00, 0x00, 0x00, 0x08,                         /* second WQEBB: result */
		/* 68 */ B_LKEY,
		/* 72 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_masked_cs8(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
						     CS_COMPARE, CS_SWAP, CS_COMPARE_MASK, CS_SWAP_MASK, LADDR, LKEY),
			 5);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 0x09, 5, 0x08, 0);
	assert_int_equal(wqe.wqebbs, 2);
	expect_raddr();
	assert_true(wqe.atomic.masked);
	assert_int_equal(wqe.atomic.size, 8);
	assert_int_equal(wqe.atomic.swap_add, CS_SWAP);
	assert_int_equal(wqe.atomic.compare, CS_COMPARE);
	assert_int_equal(wqe.atomic.swap_mask, CS_SWAP_MASK);
	assert_int_equal(wqe.atomic.compare_mask, CS_COMPARE_MASK);
	expect_one_ptr(8);
}

static void test_masked_cs4(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x08, 0x12, 0x36, 0x14, /* opmod 0x08 (4-byte ext. atomic) | ATOMIC_MASKED_CS */
		/*  4 */ 0x00, 0xab, 0xcd, 0x04,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x50, 0x51, 0x52, 0x53, /* swap */
		/* 36 */ 0xc0, 0xc1, 0xc2, 0xc3, /* compare */
		/* 40 */ 0xf0, 0xf1, 0xf2, 0xf3, /* swap mask */
		/* 44 */ 0xe0, 0xe1, 0xe2, 0xe3, /* compare mask */
		/* 48 */ 0x00, 0x00, 0x00, 0x04, /* result: 4 bytes */
		/* 52 */ B_LKEY,
		/* 56 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_masked_cs4(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
						     0xc0c1c2c3u, 0x50515253u, 0xe0e1e2e3u, 0xf0f1f2f3u, LADDR, LKEY),
			 4);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 0x08, 4, 0x08, 0);
	expect_raddr();
	assert_true(wqe.atomic.masked);
	assert_int_equal(wqe.atomic.size, 4);
	assert_int_equal(wqe.atomic.swap_add, 0x50515253u);
	assert_int_equal(wqe.atomic.compare, 0xc0c1c2c3u);
	assert_int_equal(wqe.atomic.swap_mask, 0xf0f1f2f3u);
	assert_int_equal(wqe.atomic.compare_mask, 0xe0e1e2e3u);
	expect_one_ptr(4);
}

static void test_masked_fa4(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x08, 0x12, 0x36, 0x15, /* opmod 0x08 | ATOMIC_MASKED_FA */
		/*  4 */ 0x00, 0xab, 0xcd, 0x04,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x50, 0x51, 0x52, 0x53, /* add */
		/* 36 */ 0x80, 0x00, 0x80, 0x00, /* field boundary */
		/* 40 */ B_ZERO4, B_ZERO4,       /* reserved */
		/* 48 */ 0x00, 0x00, 0x00, 0x04,
		/* 52 */ B_LKEY,
		/* 56 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_masked_fa4(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
						     0x50515253u, 0x80008000u, LADDR, LKEY),
			 4);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 0x08, 4, 0x08, 0);
	assert_int_equal(wqe.atomic.size, 4);
	assert_int_equal(wqe.atomic.swap_add, 0x50515253u);
	assert_int_equal(wqe.atomic.field_boundary, 0x80008000u);
	expect_one_ptr(4);
}

static void test_masked_fa8(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x09, 0x12, 0x36, 0x15, /* opmod 0x09 | ATOMIC_MASKED_FA */
		/*  4 */ 0x00, 0xab, 0xcd, 0x04,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ B_RADDR,
		/* 24 */ B_RKEY,
		/* 28 */ B_ZERO4,
		/* 32 */ 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, /* add */
		/* 40 */ 0x80, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, /* field boundary */
		/* 48 */ 0x00, 0x00, 0x00, 0x08,
		/* 52 */ B_LKEY,
		/* 56 */ B_LADDR,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_masked_fa8(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
						     CS_SWAP, 0x8000000080000000ull, LADDR, LKEY),
			 4);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA, 0x09, 4, 0x08, 0);
	assert_int_equal(wqe.atomic.size, 8);
	assert_int_equal(wqe.atomic.swap_add, CS_SWAP);
	assert_int_equal(wqe.atomic.field_boundary, 0x8000000080000000ull);
	expect_one_ptr(8);
}

static void test_dump(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x23, /* opcode DUMP */
		/*  4 */ 0x00, 0xab, 0xcd, 0x02,
		/*  8 */ 0x00, 0x00, 0x00, 0x48, /* fence FENCE (2 << 5) | CE always */
		/* 12 */ B_ZERO4,
		/* 16 */ 0x00, 0x00, 0x00, 0x01,
		/* 20 */ B_LKEY,
		/* 24 */ B_LADDR,
	};
	uint8_t fm = OPENGDA_MLX5_WQE_CTRL_FM_FENCE | OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE;

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_dump(&ring.sq, IDX, fm, LADDR, LKEY, 1), 2);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_DUMP, 0, 2, 0x48, 0);
	assert_int_equal(wqe.fence, OPENGDA_MLX5_FENCE_MODE_FENCE);
	expect_one_ptr(1);
}

static void test_wait_cq(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x0f, /* opmod WAIT_CQ_PI | opcode WAIT */
		/*  4 */ 0x00, 0xab, 0xcd, 0x02,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
		/* 16 */ B_ZERO4, B_ZERO4,       /* reserved */
		/* 24 */ 0x00, 0xfe, 0xdc, 0xba, /* max_index */
		/* 28 */ 0x00, 0x00, 0x01, 0x23, /* cqn */
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_wait_cq(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, 0x123u, 0xfedcbau), 2);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_WAIT, OPENGDA_MLX5_OPMOD_WAIT_CQ_PI, 2, 0x08, 0);
	assert_true(wqe.has_wait);
	assert_int_equal(wqe.wait.cqn, 0x123u);
	assert_int_equal(wqe.wait.max_index, 0xfedcbau);
	assert_int_equal(wqe.ndata, 0);
}

/* Only the ctrl segment of a NOP is written: the rest of its DS is ignored by the NIC. */
static void test_nop(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x00, 0x12, 0x36, 0x00, /* opcode NOP */
		/*  4 */ 0x00, 0xab, 0xcd, 0x02, /* ds 2, as NVSHMEM posts it */
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ B_ZERO4,
	};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_nop(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, 2), 2);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_NOP, 0, 2, 0x08, 0);
	assert_int_equal(wqe.ndata, 0);
}

/* WAIT on data has no recipe; build it from the segment encoders. */
static void test_wait_data_segments(void **state)
{
	static const uint8_t expected[] = {
		/*  0 */ 0x01, 0x12, 0x36, 0x0f, /* opmod WAIT_DATA | opcode WAIT */
		/*  4 */ 0x00, 0xab, 0xcd, 0x03,
		/*  8 */ 0x00, 0x00, 0x00, 0x00,
		/* 12 */ B_ZERO4,
		/* 16 */ 0x00, 0x00, 0x00, 0x11,                         /* EQUAL | INVERT */
		/* 20 */ B_LKEY,
		/* 24 */ 0x01, 0x02, 0x03, 0x04,                         /* va high */
		/* 28 */ 0x05, 0x06, 0x07, 0x08,                         /* va low */
		/* 32 */ 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, /* value */
		/* 40 */ 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, /* mask */
	};
	uint8_t *wq = opengda_mlx5_sq_wqebb(&ring.sq, IDX);

	(void)state;
	assert_ptr_equal(wq, ring.mem + QT_GUARD + SLOT_OFF);
	assert_int_equal(opengda_mlx5_ctrl_seg_write((struct opengda_mlx5_wqe_ctrl_seg *)wq, OPENGDA_MLX5_OPMOD_WAIT_DATA,
						     IDX, OPENGDA_MLX5_OPCODE_WAIT, QT_QPN, 3, 0, 0),
			 0);
	opengda_mlx5_wait_data_seg_write((struct opengda_mlx5_wqe_wait_data_seg *)(wq + 16),
					 OPENGDA_MLX5_WAIT_COND_EQUAL | OPENGDA_MLX5_WAIT_COND_INVERT, LKEY, LADDR,
					 0x1112131415161718ull, 0xffffffff00000000ull);
	qt_ring_expect(&ring, SLOT_OFF, expected, sizeof(expected));
	decode_ok();
	expect_ctrl(OPENGDA_MLX5_OPCODE_WAIT, OPENGDA_MLX5_OPMOD_WAIT_DATA, 3, 0, 0);
	assert_int_equal(wqe.wait.operation, 0x11);
	assert_int_equal(wqe.wait.lkey, LKEY);
	assert_int_equal(wqe.wait.va, LADDR);
	assert_int_equal(wqe.wait.value, 0x1112131415161718ull);
	assert_int_equal(wqe.wait.mask, 0xffffffff00000000ull);
}

/* A SEND with two pointer segments and an inline chunk keeps them in WQE order. */
static void test_mixed_gather_list(void **state)
{
	uint8_t *wq = opengda_mlx5_sq_wqebb(&ring.sq, IDX);
	static const uint8_t payload[5] = {1, 2, 3, 4, 5};

	(void)state;
	assert_int_equal(opengda_mlx5_ctrl_seg_write((struct opengda_mlx5_wqe_ctrl_seg *)wq, 0, IDX,
						     OPENGDA_MLX5_OPCODE_SEND, QT_QPN, 4, 0, 0),
			 0);
	assert_int_equal(opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)(wq + 16), 10, 1, 0x1000), 0);
	assert_int_equal(opengda_mlx5_inline_seg_write(wq + 32, payload, sizeof(payload)), 1);
	assert_int_equal(opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)(wq + 48), 20, 2, 0x2000), 0);
	decode_ok();
	assert_int_equal(wqe.ndata, 3);
	assert_int_equal(wqe.data[0].kind, PRM_WQE_DATA_PTR);
	assert_int_equal(wqe.data[0].byte_count, 10);
	assert_int_equal(wqe.data[0].lkey, 1);
	assert_int_equal(wqe.data[0].addr, 0x1000);
	assert_int_equal(wqe.data[1].kind, PRM_WQE_DATA_INLINE);
	assert_int_equal(wqe.data[1].byte_count, 5);
	assert_int_equal(wqe.data[1].inline_offset, 36);
	assert_memory_equal(wqe.bytes + 36, payload, sizeof(payload));
	assert_int_equal(wqe.data[2].kind, PRM_WQE_DATA_PTR);
	assert_int_equal(wqe.data[2].byte_count, 20);
	assert_int_equal(wqe.data[2].lkey, 2);
	assert_int_equal(wqe.data[2].addr, 0x2000);
}

/* The contiguous inline writer: header, payload, zero padding to 16 bytes, nothing after. */
static void test_inline_seg_write_pads(void **state)
{
	static const uint8_t payload[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
	static const uint8_t expected5[48] = {
		/*  0 */ 0x80, 0x00, 0x00, 0x05, 1, 2, 3, 4, 5,
		/*  9 */ 0, 0, 0, 0, 0, 0, 0,
		/* 16 */ 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
		/* 32 */ 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
	};
	static const uint8_t expected13[48] = {
		/*  0 */ 0x80, 0x00, 0x00, 0x0d, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
		/* 16 */ 13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		/* 32 */ 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
	};
	_Alignas(16) uint8_t buf[48];

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(opengda_mlx5_inline_seg_write(buf, payload, 5), 1);
	assert_memory_equal(buf, expected5, sizeof(buf));
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(opengda_mlx5_inline_seg_write(buf, payload, 13), 2);
	assert_memory_equal(buf, expected13, sizeof(buf));
	assert_true(opengda_mlx5_seg_is_inline(((const struct opengda_mlx5_wqe_inl_data_seg *)buf)->byte_count));
	assert_int_equal(opengda_mlx5_inline_len((const struct opengda_mlx5_wqe_inl_data_seg *)buf), 13);
}

/* rdma-core calc_sig: the XOR of every byte of a signed WQE is 0xff. */
static void test_signature(void **state)
{
	uint8_t *wq = opengda_mlx5_sq_wqebb(&ring.sq, IDX);
	uint8_t x = 0;
	int sig;
	uint32_t i;

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&ring.sq, IDX, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY, LADDR,
						     LKEY, LEN),
			 3);
	sig = opengda_mlx5_wqe_signature(wq, 48);
	/* ~(XOR of the 48 bytes of the image in test_rdma_write). */
	assert_int_equal(sig, 0x75);
	wq[8] = (uint8_t)sig;
	for (i = 0; i < 48; i++)
		x ^= wq[i];
	assert_int_equal(x, 0xff);
	decode_ok();
	assert_int_equal(wqe.signature, 0x75);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_rdma_write, setup),
		cmocka_unit_test_setup(test_rdma_write_imm, setup),
		cmocka_unit_test_setup(test_rdma_read, setup),
		cmocka_unit_test_setup(test_rdma_write_inline_12, setup),
		cmocka_unit_test_setup(test_rdma_write_inline_28, setup),
		cmocka_unit_test_setup(test_rdma_write_inline_13_pads, setup),
		cmocka_unit_test_setup(test_send, setup),
		cmocka_unit_test_setup(test_send_imm, setup),
		cmocka_unit_test_setup(test_atomic_cs, setup),
		cmocka_unit_test_setup(test_atomic_fa, setup),
		cmocka_unit_test_setup(test_masked_cs8, setup),
		cmocka_unit_test_setup(test_masked_cs4, setup),
		cmocka_unit_test_setup(test_masked_fa4, setup),
		cmocka_unit_test_setup(test_masked_fa8, setup),
		cmocka_unit_test_setup(test_dump, setup),
		cmocka_unit_test_setup(test_wait_cq, setup),
		cmocka_unit_test_setup(test_nop, setup),
		cmocka_unit_test_setup(test_wait_data_segments, setup),
		cmocka_unit_test_setup(test_mixed_gather_list, setup),
		cmocka_unit_test_setup(test_inline_seg_write_pads, setup),
		cmocka_unit_test_setup(test_signature, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
