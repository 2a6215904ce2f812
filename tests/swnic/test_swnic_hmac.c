/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-256 against the FIPS 180-4 example vectors (one block, empty, two blocks, 896-bit,
 * a million 'a' fed in odd pieces) and HMAC-SHA256 against RFC 4231's test cases 1-7.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "swnic/swnic_hmac.h"

/* Hex string to bytes; returns the byte count. */
static size_t unhex(const char *hex, uint8_t *out)
{
	size_t n = 0;
	unsigned v;

	while (hex[0] != '\0' && sscanf(hex, "%2x", &v) == 1) {
		out[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

static void check_sha(const void *msg, size_t len, const char *hex)
{
	uint8_t want[SWNIC_SHA256_LEN], got[SWNIC_SHA256_LEN];
	struct swnic_sha256 s;

	assert_int_equal(unhex(hex, want), SWNIC_SHA256_LEN);
	swnic_sha256_init(&s);
	swnic_sha256_update(&s, msg, len);
	swnic_sha256_final(&s, got);
	assert_memory_equal(got, want, SWNIC_SHA256_LEN);
}

static void sha256_fips_vectors(void **state)
{
	static const char a[] = "a";
	uint8_t want[SWNIC_SHA256_LEN], got[SWNIC_SHA256_LEN];
	struct swnic_sha256 s;
	size_t done = 0, step = 1;

	(void)state;
	check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check_sha("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

	/* A million 'a', in pieces of 1..127 bytes: the block buffering must not matter. */
	{
		static uint8_t chunk[128];

		memset(chunk, a[0], sizeof(chunk));
		swnic_sha256_init(&s);
		while (done < 1000000) {
			size_t n = step < 1000000 - done ? step : 1000000 - done;

			swnic_sha256_update(&s, chunk, n);
			done += n;
			step = step % 127 + 1;
		}
		swnic_sha256_final(&s, got);
		unhex("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", want);
		assert_memory_equal(got, want, SWNIC_SHA256_LEN);
	}
}

struct hmac_case {
	const char *key_hex;     /* NULL: key_fill repeated key_len times */
	uint8_t key_fill;
	size_t key_len;
	const char *data;        /* NULL: data_fill repeated data_len times */
	uint8_t data_fill;
	size_t data_len;
	const char *mac_hex;     /* compared over its length (case 5 is truncated) */
};

static void hmac_rfc4231_vectors(void **state)
{
	static const struct hmac_case cases[] = {
		{NULL, 0x0b, 20, "Hi There", 0, 0, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
		{"4a656665", 0, 0, "what do ya want for nothing?", 0, 0,
		 "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		{NULL, 0xaa, 20, NULL, 0xdd, 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
		{"0102030405060708090a0b0c0d0e0f10111213141516171819", 0, 0, NULL, 0xcd, 50,
		 "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
		{NULL, 0x0c, 20, "Test With Truncation", 0, 0, "a3b6167473100ee06e0c796c2955552b"},
		{NULL, 0xaa, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 0, 0,
		 "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
		{NULL, 0xaa, 131,
		 "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
		 "hashed before being used by the HMAC algorithm.",
		 0, 0, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct hmac_case *c = &cases[i];
		uint8_t key[256], data[256], want[SWNIC_SHA256_LEN], got[SWNIC_SHA256_LEN];
		size_t key_len, data_len, mac_len;
		struct swnic_hmac_part parts[2];

		if (c->key_hex != NULL) {
			key_len = unhex(c->key_hex, key);
		} else {
			key_len = c->key_len;
			memset(key, c->key_fill, key_len);
		}
		if (c->data != NULL) {
			data_len = strlen(c->data);
			memcpy(data, c->data, data_len);
		} else {
			data_len = c->data_len;
			memset(data, c->data_fill, data_len);
		}
		mac_len = unhex(c->mac_hex, want);
		/* The message in two parts: the split must not matter. */
		parts[0].data = data;
		parts[0].len = data_len / 3;
		parts[1].data = data + data_len / 3;
		parts[1].len = data_len - data_len / 3;
		swnic_hmac_sha256(key, key_len, parts, 2, got);
		if (memcmp(got, want, mac_len) != 0)
			fail_msg("RFC 4231 test case %zu: wrong HMAC-SHA256", i + 1);
	}
}

static void ct_equal_compares(void **state)
{
	uint8_t a[32], b[32];

	(void)state;
	memset(a, 7, sizeof(a));
	memcpy(b, a, sizeof(b));
	assert_true(swnic_ct_equal(a, b, sizeof(a)));
	b[31] ^= 0x80;
	assert_false(swnic_ct_equal(a, b, sizeof(a)));
	b[31] ^= 0x80;
	b[0] ^= 1;
	assert_false(swnic_ct_equal(a, b, sizeof(a)));
	assert_true(swnic_ct_equal(a, b, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sha256_fips_vectors),
		cmocka_unit_test(hmac_rfc4231_vectors),
		cmocka_unit_test(ct_equal_compares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
