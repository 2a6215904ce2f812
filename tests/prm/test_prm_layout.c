/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The PRM layout engine: raw bit access, checked set/get by path, nested layouts, byte
 * strings, and the accumulating writer/reader. Expected bytes are written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/log.h"
#include "prm/prm_layout.h"

/* An embedded layout: 8 bytes. */
static const struct prm_field inner_fields[] = {
	PRM_BITS("a", 0, 31, 28),
	PRM_BITS("b", 1, 3, 0),
};
static const struct prm_layout inner_layout = PRM_LAYOUT("inner", 8, inner_fields);

/* 32 bytes exercising every kind of field. */
static const struct prm_field outer_fields[] = {
	PRM_BITS("msb", 0, 31, 31),                 /* bit 0 */
	PRM_BITS("cross_byte", 0, 20, 13),          /* bits 11..18 */
	{"cross_dword", 28u, 8u, NULL},             /* bits 28..35: dw0 [3:0] + dw1 [31:28] */
	PRM_BITS("lsb", 1, 0, 0),                   /* bit 63 */
	PRM_U64("u64", 8),
	PRM_SUB("sub", 0x10, inner_layout, 8),
	{"bytes", 0x18u * 8u, 32u, NULL},           /* 4 aligned bytes */
	{"odd", 0x1cu * 8u + 4u, 16u, NULL},        /* 2 bytes, not byte aligned */
};
static const struct prm_layout outer_layout = PRM_LAYOUT("outer", 32, outer_fields);

static int quiet_logs(void **state)
{
	(void)state;
	/* Bad input is logged on purpose here; keep the test output readable. */
	ogda_log_set_level(OGDA_LOG_CRIT);
	return 0;
}

/* Independent model of the MSB-first convention, one bit at a time. */
static void model_set(uint8_t *buf, uint32_t off, uint32_t width, uint64_t v)
{
	uint32_t i;

	for (i = 0; i < width; i++) {
		uint32_t pos = off + i;               /* i-th bit of the field in memory order */
		unsigned bit = (unsigned)((v >> (width - 1u - i)) & 1u);
		uint8_t mask = (uint8_t)(1u << (7u - pos % 8u));

		buf[pos / 8u] = bit ? (uint8_t)(buf[pos / 8u] | mask) : (uint8_t)(buf[pos / 8u] & ~mask);
	}
}

static void test_bits_known_bytes(void **state)
{
	uint8_t buf[16] = {0};
	const uint8_t exp12[16] = {0x0a, 0xbc};
	const uint8_t exp64[16] = {0, 0, 0, 0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};

	(void)state;
	/* 12 bits at bit 4: 0xabc lands as 0x0a 0xbc. */
	prm_bits_set(buf, 4, 12, 0xabc);
	assert_memory_equal(buf, exp12, sizeof(buf));
	assert_int_equal(prm_bits_get(buf, 4, 12), 0xabc);
	assert_int_equal(prm_bits_get(buf, 0, 8), 0x0a);

	memset(buf, 0, sizeof(buf));
	prm_bits_set(buf, 32, 64, 0x0123456789abcdefull);
	assert_memory_equal(buf, exp64, sizeof(buf));
	assert_true(prm_bits_get(buf, 32, 64) == 0x0123456789abcdefull);

	/* A single bit at the very end of a byte. */
	memset(buf, 0, sizeof(buf));
	prm_bits_set(buf, 15, 1, 1);
	assert_int_equal(buf[1], 0x01);
	assert_int_equal(buf[0], 0x00);
}

/* Every width 1..64 at every offset 0..71, on a patterned buffer, against the model. */
static void test_bits_all_widths_and_offsets(void **state)
{
	const uint64_t pattern = 0xf0e1d2c3b4a59687ull;
	uint32_t width, off;

	(void)state;
	for (width = 1; width <= 64; width++) {
		uint64_t mask = width == 64 ? ~0ull : ((1ull << width) - 1u);

		for (off = 0; off < 72; off++) {
			uint8_t got[24], exp[24];
			uint64_t v = (pattern ^ ((uint64_t)off * 0x9e3779b97f4a7c15ull)) & mask;
			size_t i;

			for (i = 0; i < sizeof(got); i++)
				got[i] = exp[i] = (uint8_t)(0x5a ^ (i * 37u));
			prm_bits_set(got, off, width, v);
			model_set(exp, off, width, v);
			assert_memory_equal(got, exp, sizeof(got)); /* neighbours untouched too */
			assert_true(prm_bits_get(got, off, width) == v);
		}
	}
}

static void test_set_crossing_byte_and_dword(void **state)
{
	uint8_t buf[32];
	uint8_t exp[32];

	(void)state;
	memset(buf, 0, sizeof(buf));
	memset(exp, 0, sizeof(exp));
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "cross_byte", 0xff), DOCA_SUCCESS);
	exp[1] = 0x1f;
	exp[2] = 0xe0;
	assert_memory_equal(buf, exp, sizeof(buf));

	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "cross_dword", 0xa5), DOCA_SUCCESS);
	exp[3] = 0x0a;
	exp[4] = 0x50;
	assert_memory_equal(buf, exp, sizeof(buf));

	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "msb", 1), DOCA_SUCCESS);
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "lsb", 1), DOCA_SUCCESS);
	exp[0] = 0x80;
	exp[7] = 0x01;
	assert_memory_equal(buf, exp, sizeof(buf));
}

static void test_set_leaves_neighbours(void **state)
{
	uint8_t buf[32];
	uint8_t exp[32];
	uint64_t v = 0;

	(void)state;
	memset(buf, 0xff, sizeof(buf));
	memset(exp, 0xff, sizeof(exp));
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "cross_byte", 0), DOCA_SUCCESS);
	exp[1] = 0xe0;
	exp[2] = 0x1f;
	assert_memory_equal(buf, exp, sizeof(buf));
	assert_int_equal(prm_get(&outer_layout, buf, sizeof(buf), "cross_byte", &v), DOCA_SUCCESS);
	assert_int_equal(v, 0);
	assert_int_equal(prm_get(&outer_layout, buf, sizeof(buf), "cross_dword", &v), DOCA_SUCCESS);
	assert_int_equal(v, 0xff);
}

static void test_set_rejects_too_wide_value(void **state)
{
	uint8_t buf[32] = {0};
	const uint8_t zero[32] = {0};
	uint64_t v = 0;

	(void)state;
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "cross_byte", 0x100), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "msb", 2), DOCA_ERROR_INVALID_VALUE);
	assert_memory_equal(buf, zero, sizeof(buf));
	/* The widest value that fits is accepted; a 64-bit field takes any value. */
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "cross_byte", 0xff), DOCA_SUCCESS);
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "u64", UINT64_MAX), DOCA_SUCCESS);
	assert_int_equal(prm_get(&outer_layout, buf, sizeof(buf), "u64", &v), DOCA_SUCCESS);
	assert_true(v == UINT64_MAX);
}

static void test_unknown_paths(void **state)
{
	uint8_t buf[32] = {0};
	uint64_t v = 0;
	struct prm_loc loc;

	(void)state;
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "nope", 1), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_get(&outer_layout, buf, sizeof(buf), "sub.zz", &v), DOCA_ERROR_NOT_FOUND);
	/* A scalar has no children; a prefix of a name is not the name. */
	assert_int_equal(prm_resolve(&outer_layout, "msb.a", &loc), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_resolve(&outer_layout, "ms", &loc), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_resolve(&outer_layout, "sub.", &loc), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_resolve(&outer_layout, "", &loc), DOCA_ERROR_NOT_FOUND);
	/* An embedded layout as a whole is not a scalar. */
	assert_int_equal(prm_resolve(&outer_layout, "sub", &loc), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "sub", 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_get(&outer_layout, buf, sizeof(buf), "sub", &v), DOCA_ERROR_INVALID_VALUE);
}

static void test_null_and_short(void **state)
{
	uint8_t buf[32] = {0};
	uint64_t v = 7;
	struct prm_loc loc;

	(void)state;
	assert_int_equal(prm_set(NULL, buf, sizeof(buf), "msb", 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_set(&outer_layout, NULL, sizeof(buf), "msb", 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), NULL, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_get(&outer_layout, buf, sizeof(buf), "msb", NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_get(NULL, buf, sizeof(buf), "msb", &v), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_resolve(&outer_layout, "msb", NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_resolve(NULL, "msb", &loc), DOCA_ERROR_INVALID_VALUE);
	/* One byte short of the layout. */
	assert_int_equal(prm_set(&outer_layout, buf, 31, "msb", 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_get(&outer_layout, buf, 31, "msb", &v), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(buf[0], 0);
	assert_int_equal(v, 7);
}

static void test_nested_path(void **state)
{
	uint8_t buf[32] = {0};
	uint8_t exp[32] = {0};
	struct prm_loc loc;
	uint64_t v = 0;

	(void)state;
	assert_int_equal(prm_resolve(&outer_layout, "sub.a", &loc), DOCA_SUCCESS);
	assert_int_equal(loc.bit_off, 0x10 * 8);
	assert_int_equal(loc.width, 4);
	assert_int_equal(prm_resolve(&outer_layout, "sub.b", &loc), DOCA_SUCCESS);
	assert_int_equal(loc.bit_off, 0x10 * 8 + 32 + 28);
	assert_int_equal(loc.width, 4);

	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "sub.a", 0xf), DOCA_SUCCESS);
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "sub.b", 0x9), DOCA_SUCCESS);
	exp[0x10] = 0xf0;
	exp[0x17] = 0x09;
	assert_memory_equal(buf, exp, sizeof(buf));
	assert_int_equal(prm_get(&outer_layout, buf, sizeof(buf), "sub.b", &v), DOCA_SUCCESS);
	assert_int_equal(v, 9);
	assert_int_equal(prm_set(&outer_layout, buf, sizeof(buf), "sub.b", 0x10), DOCA_ERROR_INVALID_VALUE);
}

static void test_bytes(void **state)
{
	uint8_t buf[32] = {0};
	uint8_t exp[32] = {0};
	const uint8_t four[4] = {0xde, 0xad, 0xbe, 0xef};
	const uint8_t eight[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	uint8_t back[8] = {0};
	struct prm_writer w;
	struct prm_reader r;

	(void)state;
	prm_writer_init(&w, &outer_layout, buf, sizeof(buf));
	prm_w_bytes(&w, "bytes", four, sizeof(four));
	prm_w_bytes(&w, "sub", eight, sizeof(eight)); /* a whole embedded layout, byte aligned */
	assert_int_equal(w.err, DOCA_SUCCESS);
	memcpy(exp + 0x18, four, 4);
	memcpy(exp + 0x10, eight, 8);
	assert_memory_equal(buf, exp, sizeof(buf));

	prm_reader_init(&r, &outer_layout, buf, sizeof(buf));
	prm_r_bytes(&r, "bytes", back, 4);
	assert_int_equal(r.err, DOCA_SUCCESS);
	assert_memory_equal(back, four, 4);

	/* Wrong size, misaligned field, NULL source/destination. */
	prm_writer_init(&w, &outer_layout, buf, sizeof(buf));
	prm_w_bytes(&w, "bytes", four, 3);
	assert_int_equal(w.err, DOCA_ERROR_INVALID_VALUE);
	prm_writer_init(&w, &outer_layout, buf, sizeof(buf));
	prm_w_bytes(&w, "odd", four, 2);
	assert_int_equal(w.err, DOCA_ERROR_INVALID_VALUE);
	prm_writer_init(&w, &outer_layout, buf, sizeof(buf));
	prm_w_bytes(&w, "bytes", NULL, 4);
	assert_int_equal(w.err, DOCA_ERROR_INVALID_VALUE);
	prm_reader_init(&r, &outer_layout, buf, sizeof(buf));
	prm_r_bytes(&r, "odd", back, 2);
	assert_int_equal(r.err, DOCA_ERROR_INVALID_VALUE);
	prm_reader_init(&r, &outer_layout, buf, sizeof(buf));
	prm_r_bytes(&r, "bytes", NULL, 4);
	assert_int_equal(r.err, DOCA_ERROR_INVALID_VALUE);
	prm_reader_init(&r, &outer_layout, buf, sizeof(buf));
	prm_r_bytes(&r, "bytes", back, 8);
	assert_int_equal(r.err, DOCA_ERROR_INVALID_VALUE);
	prm_reader_init(&r, &outer_layout, buf, sizeof(buf));
	prm_r_bytes(&r, "missing", back, 4);
	assert_int_equal(r.err, DOCA_ERROR_NOT_FOUND);
}

static void test_writer_keeps_first_error(void **state)
{
	uint8_t buf[40];
	uint8_t exp[40];
	struct prm_writer w;

	(void)state;
	memset(buf, 0xcc, sizeof(buf));
	prm_writer_init(&w, &outer_layout, buf, sizeof(buf));
	/* Init zeroes exactly the layout's 32 bytes. */
	memset(exp, 0, 32);
	memset(exp + 32, 0xcc, 8);
	assert_memory_equal(buf, exp, sizeof(buf));

	prm_w(&w, "msb", 1);
	prm_w(&w, "nope", 1);           /* first error: NOT_FOUND */
	prm_w(&w, "cross_byte", 0x100); /* would be INVALID_VALUE */
	prm_w(&w, "lsb", 1);            /* not applied */
	assert_int_equal(w.err, DOCA_ERROR_NOT_FOUND);
	exp[0] = 0x80;
	assert_memory_equal(buf, exp, sizeof(buf));
}

static void test_writer_init_rejects_bad_buffers(void **state)
{
	uint8_t buf[32];
	uint8_t exp[32];
	struct prm_writer w;

	(void)state;
	memset(buf, 0xcc, sizeof(buf));
	memset(exp, 0xcc, sizeof(exp));
	prm_writer_init(&w, &outer_layout, buf, 31);
	assert_int_equal(w.err, DOCA_ERROR_INVALID_VALUE);
	prm_w(&w, "msb", 1);
	assert_memory_equal(buf, exp, sizeof(buf)); /* nothing zeroed, nothing written */
	prm_writer_init(&w, &outer_layout, NULL, 32);
	assert_int_equal(w.err, DOCA_ERROR_INVALID_VALUE);
	prm_writer_init(&w, NULL, buf, sizeof(buf));
	assert_int_equal(w.err, DOCA_ERROR_INVALID_VALUE);
	prm_w(&w, "msb", 1);
	assert_memory_equal(buf, exp, sizeof(buf));
}

static void test_reader_keeps_first_error(void **state)
{
	uint8_t buf[32] = {0};
	struct prm_reader r;

	(void)state;
	buf[0] = 0x80;
	buf[7] = 0x01;
	prm_reader_init(&r, &outer_layout, buf, sizeof(buf));
	assert_int_equal(prm_r(&r, "msb"), 1);
	assert_int_equal(prm_r(&r, "missing"), 0);
	assert_int_equal(r.err, DOCA_ERROR_NOT_FOUND);
	assert_int_equal(prm_r(&r, "lsb"), 0); /* every read after the error yields 0 */
	assert_int_equal(r.err, DOCA_ERROR_NOT_FOUND);

	prm_reader_init(&r, &outer_layout, buf, 8);
	assert_int_equal(r.err, DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(prm_r(&r, "msb"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bits_known_bytes),
		cmocka_unit_test(test_bits_all_widths_and_offsets),
		cmocka_unit_test(test_set_crossing_byte_and_dword),
		cmocka_unit_test(test_set_leaves_neighbours),
		cmocka_unit_test(test_set_rejects_too_wide_value),
		cmocka_unit_test(test_unknown_paths),
		cmocka_unit_test(test_null_and_short),
		cmocka_unit_test(test_nested_path),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_writer_keeps_first_error),
		cmocka_unit_test(test_writer_init_rejects_bad_buffers),
		cmocka_unit_test(test_reader_keeps_first_error),
	};

	return cmocka_run_group_tests(tests, quiet_logs, NULL);
}
