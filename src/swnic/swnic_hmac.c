/* SPDX-License-Identifier: BSD-3-Clause */
/* SHA-256 as FIPS 180-4 §6.2 specifies it, HMAC as RFC 2104 does (swnic_hmac.h). */
#include "swnic/swnic_hmac.h"

#include "core/bytes.h"

#include <string.h>

/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32u - n));
}

/* One 64-byte block into the state (§6.2.2). */
static void compress(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh;
	unsigned t;

	for (t = 0; t < 16; t++)
		w[t] = ogda_load_be32(p + 4 * t);
	for (t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (t = 0; t < 64; t++) {
		uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void swnic_sha256_init(struct swnic_sha256 *s)
{
	/* §5.3.3: the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

	memcpy(s->h, h0, sizeof(h0));
	s->total = 0;
	s->fill = 0;
}

void swnic_sha256_update(struct swnic_sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->total += len;
	while (len > 0) {
		size_t take = SWNIC_SHA256_BLOCK - s->fill;

		if (take > len)
			take = len;
		memcpy(s->block + s->fill, p, take);
		s->fill += take;
		p += take;
		len -= take;
		if (s->fill == SWNIC_SHA256_BLOCK) {
			compress(s->h, s->block);
			s->fill = 0;
		}
	}
}

void swnic_sha256_final(struct swnic_sha256 *s, uint8_t out[SWNIC_SHA256_LEN])
{
	uint64_t bits = s->total * 8u;
	unsigned i;

	/* §5.1.1: a 1 bit, zeros up to 56 mod 64 bytes, the length in bits as 64-bit big-endian. */
	s->block[s->fill++] = 0x80;
	if (s->fill > SWNIC_SHA256_BLOCK - 8) {
		memset(s->block + s->fill, 0, SWNIC_SHA256_BLOCK - s->fill);
		compress(s->h, s->block);
		s->fill = 0;
	}
	memset(s->block + s->fill, 0, SWNIC_SHA256_BLOCK - 8 - s->fill);
	ogda_store_be64(s->block + SWNIC_SHA256_BLOCK - 8, bits);
	compress(s->h, s->block);
	for (i = 0; i < 8; i++)
		ogda_store_be32(out + 4 * i, s->h[i]);
	memset(s, 0, sizeof(*s));
}

void swnic_hmac_sha256(const void *key, size_t key_len, const struct swnic_hmac_part *parts, size_t nparts,
		       uint8_t out[SWNIC_SHA256_LEN])
{
	uint8_t k[SWNIC_SHA256_BLOCK], pad[SWNIC_SHA256_BLOCK], inner[SWNIC_SHA256_LEN];
	struct swnic_sha256 s;
	size_t i;

	/* RFC 2104 §2: a key longer than a block is hashed first; shorter ones are zero-padded. */
	memset(k, 0, sizeof(k));
	if (key_len > SWNIC_SHA256_BLOCK) {
		swnic_sha256_init(&s);
		swnic_sha256_update(&s, key, key_len);
		swnic_sha256_final(&s, k);
	} else if (key_len > 0) {
		memcpy(k, key, key_len);
	}
	for (i = 0; i < sizeof(pad); i++)
		pad[i] = k[i] ^ 0x36;
	swnic_sha256_init(&s);
	swnic_sha256_update(&s, pad, sizeof(pad));
	for (i = 0; i < nparts; i++)
		swnic_sha256_update(&s, parts[i].data, parts[i].len);
	swnic_sha256_final(&s, inner);
	for (i = 0; i < sizeof(pad); i++)
		pad[i] = k[i] ^ 0x5c;
	swnic_sha256_init(&s);
	swnic_sha256_update(&s, pad, sizeof(pad));
	swnic_sha256_update(&s, inner, sizeof(inner));
	swnic_sha256_final(&s, out);
	memset(k, 0, sizeof(k));
	memset(pad, 0, sizeof(pad));
}

bool swnic_ct_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint8_t diff = 0;
	size_t i;

	for (i = 0; i < n; i++)
		diff |= (uint8_t)(a[i] ^ b[i]);
	return diff == 0;
}
