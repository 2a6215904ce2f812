/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unpredictable numbers for the software NIC's identifiers and the fabric handshake: key
 * variants, QPNs, nonces. They come from the kernel (getrandom), never from rand(), so a
 * peer that sees some values cannot derive the others.
 */
#ifndef OGDA_SWNIC_RANDOM_H_
#define OGDA_SWNIC_RANDOM_H_

#include "doca_error.h"

#include <stddef.h>
#include <stdint.h>

/**
 * @brief Fills buf with len bytes from the kernel's random source.
 *
 * @return DOCA_SUCCESS, DOCA_ERROR_INVALID_VALUE for a NULL buf with len > 0, or
 *         DOCA_ERROR_OPERATING_SYSTEM when the kernel gives no random bytes (logged).
 */
doca_error_t swnic_random_bytes(void *buf, size_t len);

/**
 * @brief A random 32-bit value. Should the kernel fail (logged by swnic_random_bytes), a
 * value mixed from the clock and a counter: identifiers stay distinct, only less secret.
 */
uint32_t swnic_random_u32(void);

/** Fills buf with len bytes; a replacement random source. */
typedef void (*swnic_random_source_fn)(void *buf, size_t len);
/**
 * @brief Replaces the kernel as the random source (NULL restores it). A seam for tests
 * that compare two runs byte for byte and need the same QPNs and keys in both.
 */
void swnic_random_set_source(swnic_random_source_fn source);

#endif /* OGDA_SWNIC_RANDOM_H_ */
