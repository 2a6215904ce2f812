/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bad input to the encoders (rejected, nothing written) and malformed WQEs handed to the
 * decoder (rejected with the documented error and one log line).
 */
#include "queue_test_util.h"

#include "core/log.h"
#include "prm/prm_wqe.h"
#include "test_util.h"

static struct qt_ring ring;
static struct prm_wqe wqe;

static int setup(void **state)
{
	(void)state;
	qt_ring_init(&ring, 2);
	return 0;
}

/* Runs the decoder on slot 1 (index 0x0101) and checks its result and its one log line. */
static void expect_decode(doca_error_t expected, const char *log_fragment)
{
	char log[512];
	const char *text;

	stderr_capture_begin();
	assert_int_equal(prm_wqe_decode(ring.sq.ring, ring.sq.log_wqebbs, 0x0101, &wqe), expected);
	text = stderr_capture_end(log, sizeof(log));
	if (expected == DOCA_SUCCESS) {
		assert_string_equal(text, "");
		return;
	}
	assert_non_null(strstr(text, log_fragment));
	assert_non_null(strchr(text, '\n'));
	assert_null(strchr(strchr(text, '\n') + 1, '\n'));
}

/* Overwrites the ctrl segment of slot 1: raw bytes, for shapes the encoder refuses to make. */
static void put_ctrl(uint8_t opmod, uint8_t opcode, uint8_t ds_byte, uint8_t fm_ce_se)
{
	uint8_t *c = (uint8_t *)ring.sq.ring + 64;
	const uint8_t raw[16] = {opmod, 0x01, 0x01, opcode, 0x00, 0xab, 0xcd, ds_byte, 0, 0, 0, fm_ce_se, 0, 0, 0, 0};

	memcpy(c, raw, sizeof(raw));
}

static void test_data_seg_bit31(void **state)
{
	struct opengda_mlx5_wqe_data_seg seg;
	uint8_t before[16];

	(void)state;
	memset(&seg, 0xee, sizeof(seg));
	memcpy(before, &seg, sizeof(before));
	assert_int_equal(opengda_mlx5_data_seg_write(&seg, 0x80000000u, 1, 2), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_data_seg_write(&seg, 0xffffffffu, 1, 2), OPENGDA_MLX5_EINVAL);
	assert_memory_equal(&seg, before, sizeof(before));
	assert_int_equal(opengda_mlx5_data_seg_write(NULL, 1, 1, 2), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_data_seg_write(&seg, 0x7fffffffu, 1, 2), 0);
	assert_int_equal(opengda_mlx5_data_seg_byte_count(&seg), 0x7fffffffu);

	/* Every recipe with a byte count refuses it too, and leaves the ring alone. */
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&ring.sq, 1, 0, 1, 2, 3, 4, 0x80000001u), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_wqe_rdma_read(&ring.sq, 1, 0, 1, 2, 3, 4, 0x80000000u), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_wqe_send(&ring.sq, 1, 0, 3, 4, 0x80000000u), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_wqe_dump(&ring.sq, 1, 0, 3, 4, 0x80000000u), OPENGDA_MLX5_EINVAL);
	qt_ring_expect_untouched(&ring);
}

static void test_ctrl_seg_rejects(void **state)
{
	struct opengda_mlx5_wqe_ctrl_seg c;
	uint8_t before[16];

	(void)state;
	memset(&c, 0xee, sizeof(c));
	memcpy(before, &c, sizeof(before));
	assert_int_equal(opengda_mlx5_ctrl_seg_write(&c, 0, 0, 0, 1, 0, 0, 0), OPENGDA_MLX5_EINVAL);         /* DS 0 */
	assert_int_equal(opengda_mlx5_ctrl_seg_write(&c, 0, 0, 0, 1, 64, 0, 0), OPENGDA_MLX5_EINVAL);        /* DS 64 */
	assert_int_equal(opengda_mlx5_ctrl_seg_write(&c, 0, 0, 0, 0x1000000, 1, 0, 0), OPENGDA_MLX5_EINVAL); /* qpn */
	assert_int_equal(opengda_mlx5_ctrl_seg_write(&c, 0, 0, 0, 1, 1, 0xa0, 0), OPENGDA_MLX5_EINVAL);      /* fence 5 */
	assert_int_equal(opengda_mlx5_ctrl_seg_write(&c, 0, 0, 0, 1, 1, 0x01, 0), OPENGDA_MLX5_EINVAL);      /* bit 0 */
	assert_int_equal(opengda_mlx5_ctrl_seg_write(&c, 0, 0, 0, 1, 1, 0x10, 0), OPENGDA_MLX5_EINVAL);      /* bit 4 */
	assert_int_equal(opengda_mlx5_ctrl_seg_write(NULL, 0, 0, 0, 1, 1, 0, 0), OPENGDA_MLX5_EINVAL);
	assert_memory_equal(&c, before, sizeof(before));
}

static void test_recipe_rejects(void **state)
{
	struct opengda_mlx5_sq sq = ring.sq;
	uint8_t payload[29] = {0};

	(void)state;
	assert_int_equal(opengda_mlx5_wqe_send(NULL, 0, 0, 1, 2, 3), OPENGDA_MLX5_EINVAL);
	sq.ring = (uint8_t *)ring.sq.ring + 8; /* not 16-byte aligned */
	assert_int_equal(opengda_mlx5_wqe_send(&sq, 0, 0, 1, 2, 3), OPENGDA_MLX5_EINVAL);
	sq = ring.sq;
	sq.ring = NULL;
	assert_int_equal(opengda_mlx5_wqe_send(&sq, 0, 0, 1, 2, 3), OPENGDA_MLX5_EINVAL);
	assert_null(opengda_mlx5_sq_wqebb(&sq, 0));
	sq = ring.sq;
	sq.log_wqebbs = 17;
	assert_int_equal(opengda_mlx5_wqe_send(&sq, 0, 0, 1, 2, 3), OPENGDA_MLX5_EINVAL);
	assert_null(opengda_mlx5_sq_wqebb(&sq, 0));
	sq = ring.sq;
	sq.qpn = 0x1000000;
	assert_int_equal(opengda_mlx5_wqe_send(&sq, 0, 0, 1, 2, 3), OPENGDA_MLX5_EINVAL);
	sq = ring.sq;
	assert_int_equal(opengda_mlx5_wqe_send(&sq, 0, 0xe0, 1, 2, 3), OPENGDA_MLX5_EINVAL); /* fence 7 */
	assert_int_equal(opengda_mlx5_wqe_nop(&sq, 0, 0, 0), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_wqe_nop(&sq, 0, 0, 64), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_wqe_nop(&sq, 0, 0, 17), OPENGDA_MLX5_EINVAL); /* 5 WQEBBs, ring of 4 */
	assert_int_equal(opengda_mlx5_wqe_wait_cq(&sq, 0, 0, 0x1000000, 0), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&sq, 0, 0, 1, 2, NULL, 4), OPENGDA_MLX5_EINVAL);
	/* 29 inline bytes need DS 5: two WQEBBs, so a 1-WQEBB ring cannot hold them. */
	sq.log_wqebbs = 0;
	assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&sq, 0, 0, 1, 2, payload, 29), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_wqe_masked_cs8(&sq, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8), OPENGDA_MLX5_EINVAL);
	qt_ring_expect_untouched(&ring);
}

static void test_inline_rejects(void **state)
{
	uint8_t buf[64];
	static uint8_t big[1024];

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(opengda_mlx5_inline_seg_write(buf, NULL, 1), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_inline_seg_write(NULL, big, 1), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_inline_seg_write(buf, big, OPENGDA_MLX5_INLINE_MAX_LEN + 1), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_inline_seg_write(buf, NULL, 0), 1);
	assert_int_equal(opengda_mlx5_inline_len((const struct opengda_mlx5_wqe_inl_data_seg *)buf), 0);
	assert_int_equal(buf[0], 0x80);

	assert_int_equal(opengda_mlx5_inline_seg_write_ring(NULL, 64, 0, big, 4), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_inline_seg_write_ring(ring.sq.ring, 0, 0, big, 4), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_inline_seg_write_ring(ring.sq.ring, 96, 0, big, 4), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_inline_seg_write_ring(ring.sq.ring, 256, 8, big, 4), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_inline_seg_write_ring(ring.sq.ring, 256, 256, big, 4), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_inline_seg_write_ring(ring.sq.ring, 64, 0, big, 61), OPENGDA_MLX5_EINVAL);
	qt_ring_expect_untouched(&ring);
	assert_int_equal(opengda_mlx5_wqe_signature(NULL, 16), OPENGDA_MLX5_EINVAL);
}

static void test_decode_null_and_log(void **state)
{
	char log[512];

	(void)state;
	stderr_capture_begin();
	assert_int_equal(prm_wqe_decode(NULL, 2, 0, &wqe), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_wqe_decode(ring.sq.ring, 2, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_wqe_decode(ring.sq.ring, 17, 0, &wqe), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "log_sq_wqebbs 17"));
}

static void test_decode_ds_zero(void **state)
{
	(void)state;
	put_ctrl(0, OPENGDA_MLX5_OPCODE_SEND, 0, 0);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "DS 0 outside 1..63");
}

static void test_decode_ds_too_large(void **state)
{
	(void)state;
	put_ctrl(0, OPENGDA_MLX5_OPCODE_SEND, 0x40, 0); /* 64: bit 6 set */
	expect_decode(DOCA_ERROR_INVALID_VALUE, "DS 64 outside 1..63");
	/* DS 17 is 5 WQEBBs: more than the 4-WQEBB ring holds. */
	put_ctrl(0, OPENGDA_MLX5_OPCODE_SEND, 17, 0);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "needs 5 WQEBBs, ring has 4");
	put_ctrl(0, OPENGDA_MLX5_OPCODE_NOP, 16, 0);
	expect_decode(DOCA_SUCCESS, NULL);
}

static void test_decode_unknown_opcode(void **state)
{
	(void)state;
	put_ctrl(0, 0x07, 1, 0);
	expect_decode(DOCA_ERROR_NOT_SUPPORTED, "opcode 0x07 (UNKNOWN) not supported");
	put_ctrl(0, 0xff, 1, 0);
	expect_decode(DOCA_ERROR_NOT_SUPPORTED, "opcode 0xff (UNKNOWN)");
	put_ctrl(0, OPENGDA_MLX5_OPCODE_UMR, 4, 0);
	expect_decode(DOCA_ERROR_NOT_SUPPORTED, "opcode 0x25 (UMR) not supported");
	put_ctrl(0, OPENGDA_MLX5_OPCODE_LSO, 4, 0);
	expect_decode(DOCA_ERROR_NOT_SUPPORTED, "(LSO)");
	put_ctrl(3, OPENGDA_MLX5_OPCODE_WAIT, 2, 0);
	expect_decode(DOCA_ERROR_NOT_SUPPORTED, "opmod 3 not supported");
	put_ctrl(0x0a, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 8, 0); /* 16-byte extended atomic */
	expect_decode(DOCA_ERROR_NOT_SUPPORTED, "opmod 0xa");
}

static void test_decode_ds_too_small(void **state)
{
	(void)state;
	put_ctrl(0, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 1, 0);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "RDMA_WRITE WQE 0x101: DS 1 too small for its remote address segment");
	put_ctrl(0, OPENGDA_MLX5_OPCODE_ATOMIC_CS, 2, 0);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "too small for its atomic segment");
	put_ctrl(0, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 3, 0);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "too small for its result data segment");
	put_ctrl(0x09, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 3, 0); /* 32-byte operands need DS 4 + data */
	expect_decode(DOCA_ERROR_INVALID_VALUE, "too small for its masked compare-swap segment");
	put_ctrl(0x09, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 4, 0);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "too small for its result data segment");
	put_ctrl(OPENGDA_MLX5_OPMOD_WAIT_CQ_PI, OPENGDA_MLX5_OPCODE_WAIT, 1, 0);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "too small for its wait-on-CQ segment");
	put_ctrl(OPENGDA_MLX5_OPMOD_WAIT_DATA, OPENGDA_MLX5_OPCODE_WAIT, 2, 0);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "too small for its wait-on-data segment");
}

static void test_decode_inline_past_end(void **state)
{
	uint8_t *wq = (uint8_t *)ring.sq.ring + 64;
	static const uint8_t hdr13[4] = {0x80, 0x00, 0x00, 0x0d};
	static const uint8_t hdr12[4] = {0x80, 0x00, 0x00, 0x0c};
	static const uint8_t huge[4] = {0xff, 0xff, 0xff, 0xff};

	(void)state;
	/* DS 3 holds ctrl + raddr + 16 bytes: room for 12 inline bytes, not 13. */
	put_ctrl(0, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 3, 0);
	memcpy(wq + 32, hdr13, 4);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "inline length 13 at offset 32 runs past the WQE end (48 B)");
	memcpy(wq + 32, huge, 4);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "inline length 2147483647");
	memcpy(wq + 32, hdr12, 4);
	expect_decode(DOCA_SUCCESS, NULL);
	assert_int_equal(wqe.data[0].byte_count, 12);
}

static void test_decode_inline_not_allowed(void **state)
{
	uint8_t *wq = (uint8_t *)ring.sq.ring + 64;
	static const uint8_t hdr[4] = {0x80, 0x00, 0x00, 0x08};

	(void)state;
	put_ctrl(0, OPENGDA_MLX5_OPCODE_RDMA_READ, 3, 0);
	memcpy(wq + 32, hdr, 4);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "RDMA_READ WQE 0x101: inline data where only pointer");
	put_ctrl(0, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 4, 0);
	memcpy(wq + 48, hdr, 4);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "ATOMIC_FA WQE 0x101: inline data");
}

static void test_decode_bad_fence(void **state)
{
	(void)state;
	put_ctrl(0, OPENGDA_MLX5_OPCODE_NOP, 1, 0xa0);
	expect_decode(DOCA_ERROR_INVALID_VALUE, "undefined fence mode 5");
	put_ctrl(0, OPENGDA_MLX5_OPCODE_NOP, 1, 0x80);
	expect_decode(DOCA_SUCCESS, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_data_seg_bit31, setup),
		cmocka_unit_test_setup(test_ctrl_seg_rejects, setup),
		cmocka_unit_test_setup(test_recipe_rejects, setup),
		cmocka_unit_test_setup(test_inline_rejects, setup),
		cmocka_unit_test_setup(test_decode_null_and_log, setup),
		cmocka_unit_test_setup(test_decode_ds_zero, setup),
		cmocka_unit_test_setup(test_decode_ds_too_large, setup),
		cmocka_unit_test_setup(test_decode_unknown_opcode, setup),
		cmocka_unit_test_setup(test_decode_ds_too_small, setup),
		cmocka_unit_test_setup(test_decode_inline_past_end, setup),
		cmocka_unit_test_setup(test_decode_inline_not_allowed, setup),
		cmocka_unit_test_setup(test_decode_bad_fence, setup),
	};

	/* Exactly the error lines, whatever DOCA_GPUNETIO_LOG says. */
	ogda_log_set_level(OGDA_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
