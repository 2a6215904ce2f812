/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * WQEs longer than one WQEBB that start near the end of the SQ ring continue at slot 0:
 * the encoders must write them there, the decoder must read them back from there, and
 * neither may touch a byte outside the ring.
 */
#include "queue_test_util.h"

#include <stdlib.h>

#include "prm/prm_wqe.h"

#define RADDR 0x1122334455667788ull
#define RKEY 0xaabbccddu
#define LADDR 0x0102030405060708ull
#define LKEY 0x0badf00du

static struct qt_ring ring;
static struct prm_wqe wqe;

static uint8_t payload_byte(uint32_t i)
{
	return (uint8_t)(i * 7u + 3u);
}

/* Masked CS 8 B at WQE index 0xffff of a 4-WQEBB ring: slot 3, its data segment in slot 0. */
static void test_masked_cs8_wraps(void **state)
{
	static const uint8_t expected[80] = {
		/*  0 */ 0x09, 0xff, 0xff, 0x14, /* opmod 0x09 | index 0xffff | ATOMIC_MASKED_CS */
		/*  4 */ 0x00, 0xab, 0xcd, 0x05,
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ 0x00, 0x00, 0x00, 0x00,
		/* 16 */ 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		/* 24 */ 0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x00, 0x00, 0x00,
		/* 32 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, /* swap 1 */
		/* 40 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* compare 0 */
		/* 48 */ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* swap mask */
		/* 56 */ 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, /* compare mask */
		/* 64: ring offset 0 */
		/* 64 */ 0x00, 0x00, 0x00, 0x08, 0x0b, 0xad, 0xf0, 0x0d,
		/* 72 */ 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};

	(void)state;
	qt_ring_init(&ring, 2);
	assert_int_equal(opengda_mlx5_wqe_masked_cs8(&ring.sq, 0xffff, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY, 0,
						     1, 0xffffffffull, UINT64_MAX, LADDR, LKEY),
			 5);
	qt_ring_expect(&ring, 192, expected, sizeof(expected));
	assert_int_equal(opengda_mlx5_sq_pi_advance(0xffff, 5), 0x0001);

	assert_int_equal(prm_wqe_decode(ring.sq.ring, 2, 0xffff, &wqe), DOCA_SUCCESS);
	assert_memory_equal(wqe.bytes, expected, sizeof(expected));
	assert_int_equal(wqe.wqe_index, 0xffff);
	assert_int_equal(wqe.wqebbs, 2);
	assert_int_equal(wqe.atomic.swap_add, 1);
	assert_int_equal(wqe.atomic.compare, 0);
	assert_int_equal(wqe.atomic.swap_mask, UINT64_MAX);
	assert_int_equal(wqe.atomic.compare_mask, 0xffffffffull);
	assert_int_equal(wqe.ndata, 1);
	assert_int_equal(wqe.data[0].byte_count, 8);
	assert_int_equal(wqe.data[0].lkey, LKEY);
	assert_int_equal(wqe.data[0].addr, LADDR);
}

/* 100 inline bytes from slot 3 of 4: DS 9 = 3 WQEBBs (slots 3, 0, 1), 8 bytes of padding. */
static void test_long_inline_wraps(void **state)
{
	uint8_t payload[100];
	uint8_t expected[144] = {
		/*  0 */ 0x00, 0x00, 0x03, 0x08, /* index 3 | RDMA_WRITE */
		/*  4 */ 0x00, 0xab, 0xcd, 0x09, /* ds 9 = 2 + ceil((4 + 100) / 16) */
		/*  8 */ 0x00, 0x00, 0x00, 0x08,
		/* 12 */ 0x00, 0x00, 0x00, 0x00,
		/* 16 */ 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		/* 24 */ 0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x00, 0x00, 0x00,
		/* 32 */ 0x80, 0x00, 0x00, 0x64, /* inline | 100 */
		/* 36..135: payload (filled below); 136..143: zero padding */
	};
	uint32_t i;

	(void)state;
	for (i = 0; i < sizeof(payload); i++) {
		payload[i] = payload_byte(i);
		expected[36 + i] = payload_byte(i);
	}
	qt_ring_init(&ring, 2);
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&ring.sq, 3, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
							    payload, sizeof(payload)),
			 9);
	qt_ring_expect(&ring, 192, expected, sizeof(expected));

	assert_int_equal(prm_wqe_decode(ring.sq.ring, 2, 3, &wqe), DOCA_SUCCESS);
	assert_int_equal(wqe.size, 144);
	assert_int_equal(wqe.wqebbs, 3);
	assert_memory_equal(wqe.bytes, expected, sizeof(expected));
	assert_int_equal(wqe.ndata, 1);
	assert_int_equal(wqe.data[0].kind, PRM_WQE_DATA_INLINE);
	assert_int_equal(wqe.data[0].byte_count, 100);
	assert_int_equal(wqe.data[0].inline_offset, 36);
	assert_memory_equal(wqe.bytes + 36, payload, sizeof(payload));
}

/*
 * The largest inline RDMA WRITE, 972 bytes (DS 63, 16 WQEBBs), in a 16-WQEBB ring from slot
 * 9: it covers slots 9-15 and 0-8 except the last 16 bytes of slot 8. One byte more needs
 * DS 64, which the 6-bit field cannot express.
 */
static void test_max_inline_fills_ring(void **state)
{
	static uint8_t payload[973];
	static uint8_t expected[1008];
	static const uint8_t head[36] = {
		0x00, 0x00, 0x09, 0x08, 0x00, 0xab, 0xcd, 0x3f, /* index 9 | RDMA_WRITE; ds 63 */
		0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x03, 0xcc, /* inline | 972 */
	};
	uint32_t i;

	(void)state;
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = payload_byte(i);
	memcpy(expected, head, sizeof(head));
	memcpy(expected + 36, payload, 972); /* 4 + 972 = 976 = 61 octowords: no padding */

	qt_ring_init(&ring, 4);
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&ring.sq, 9, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
							    payload, 973),
			 OPENGDA_MLX5_EINVAL);
	qt_ring_expect_untouched(&ring);
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&ring.sq, 9, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, RADDR, RKEY,
							    payload, 972),
			 63);
	qt_ring_expect(&ring, 9 * 64, expected, sizeof(expected));

	assert_int_equal(prm_wqe_decode(ring.sq.ring, 4, 9, &wqe), DOCA_SUCCESS);
	assert_int_equal(wqe.ds, 63);
	assert_int_equal(wqe.wqebbs, 16);
	assert_memory_equal(wqe.bytes, expected, sizeof(expected));
	assert_int_equal(wqe.data[0].byte_count, 972);
}

/* The ring-aware inline writer on its own: a 64-byte ring, header at offset 48. */
static void test_inline_seg_write_ring(void **state)
{
	static const uint8_t payload[20] = {0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9,
					    0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3};
	static const uint8_t expected[32] = {
		/* ring offset 48 */ 0x80, 0x00, 0x00, 0x14, 0xb0, 0xb1, 0xb2, 0xb3,
		/* ring offset 56 */ 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb,
		/* ring offset  0 */ 0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3,
		/* ring offset  8 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};

	(void)state;
	qt_ring_init(&ring, 0);
	assert_int_equal(opengda_mlx5_inline_seg_write_ring(ring.sq.ring, 64, 48, payload, sizeof(payload)), 2);
	qt_ring_expect(&ring, 48, expected, sizeof(expected));
}

/*
 * The decoder reads a wrapping WQE from a ring allocated to its exact size: under
 * AddressSanitizer any read past either end fails the test.
 */
static void test_decode_reads_only_the_ring(void **state)
{
	struct opengda_mlx5_sq sq;
	uint8_t payload[60];
	uint32_t i;

	(void)state;
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = payload_byte(i);
	sq.ring = aligned_alloc(64, 4 * 64);
	assert_non_null(sq.ring);
	memset(sq.ring, 0, 4 * 64);
	sq.log_wqebbs = 2;
	sq.qpn = QT_QPN;

	/* 60 inline bytes from slot 2: DS 6, slots 2-3: ends exactly at the ring end. */
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&sq, 0x4402, 0, RADDR, RKEY, payload, 60), 6);
	assert_int_equal(prm_wqe_decode(sq.ring, 2, 0x4402, &wqe), DOCA_SUCCESS);
	assert_memory_equal(wqe.bytes + 36, payload, 60);

	/* Masked CS from slot 3: continues at slot 0. */
	assert_int_equal(opengda_mlx5_wqe_masked_cs8(&sq, 0x4403, 0, RADDR, RKEY, 5, 6, 7, 8, LADDR, LKEY), 5);
	assert_int_equal(prm_wqe_decode(sq.ring, 2, 0x4403, &wqe), DOCA_SUCCESS);
	assert_int_equal(wqe.atomic.compare, 5);
	assert_int_equal(wqe.atomic.swap_add, 6);
	assert_int_equal(wqe.atomic.compare_mask, 7);
	assert_int_equal(wqe.atomic.swap_mask, 8);
	assert_int_equal(wqe.data[0].addr, LADDR);
	free(sq.ring);
}

/* In a 1-WQEBB ring every index maps to slot 0. */
static void test_single_slot_ring(void **state)
{
	(void)state;
	qt_ring_init(&ring, 0);
	assert_ptr_equal(opengda_mlx5_sq_wqebb(&ring.sq, 0x1235), ring.sq.ring);
	assert_int_equal(opengda_mlx5_wqe_send(&ring.sq, 0x1235, 0, LADDR, LKEY, 4), 2);
	assert_int_equal(prm_wqe_decode(ring.sq.ring, 0, 0x1235, &wqe), DOCA_SUCCESS);
	assert_int_equal(wqe.wqe_index, 0x1235);
	assert_int_equal(wqe.data[0].byte_count, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_masked_cs8_wraps),
		cmocka_unit_test(test_long_inline_wraps),
		cmocka_unit_test(test_max_inline_fills_ring),
		cmocka_unit_test(test_inline_seg_write_ring),
		cmocka_unit_test(test_decode_reads_only_the_ring),
		cmocka_unit_test(test_single_slot_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
