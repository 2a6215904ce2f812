/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for the fabric's shared-secret
 * handshake (swnic_fabric_auth.c). Self-contained, so the software NIC needs no crypto
 * library; tested against the FIPS 180-4 and RFC 4231 vectors.
 */
#ifndef OGDA_SWNIC_HMAC_H_
#define OGDA_SWNIC_HMAC_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SWNIC_SHA256_LEN 32u
#define SWNIC_SHA256_BLOCK 64u

/** Running SHA-256 state; initialise with swnic_sha256_init. */
struct swnic_sha256 {
	uint32_t h[8];
	uint64_t total;                 /**< bytes hashed so far */
	uint8_t block[SWNIC_SHA256_BLOCK];
	size_t fill;                    /**< bytes waiting in block */
};

/** @brief Starts a hash. */
void swnic_sha256_init(struct swnic_sha256 *s);
/** @brief Hashes len more bytes of data (data may be NULL when len is 0). */
void swnic_sha256_update(struct swnic_sha256 *s, const void *data, size_t len);
/** @brief Finishes the hash into out; s must be initialised again before reuse. */
void swnic_sha256_final(struct swnic_sha256 *s, uint8_t out[SWNIC_SHA256_LEN]);

/** One piece of an HMAC's message (the message is the pieces one after another). */
struct swnic_hmac_part {
	const void *data;
	size_t len;
};

/**
 * @brief HMAC-SHA256 with key (any length) over the concatenation of nparts parts.
 */
void swnic_hmac_sha256(const void *key, size_t key_len, const struct swnic_hmac_part *parts, size_t nparts,
		       uint8_t out[SWNIC_SHA256_LEN]);

/** @brief Compares n bytes in time independent of where they differ; true when equal. */
bool swnic_ct_equal(const uint8_t *a, const uint8_t *b, size_t n);

#endif /* OGDA_SWNIC_HMAC_H_ */
