/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * Test patterns both ends of a transfer can compute: the bytes of iteration `iter` follow
 * from (seed, iter) alone, so a receiver checks what arrived without being sent the
 * expected bytes, and no two iterations carry the same bytes (their first four bytes
 * carry the iteration number).
 */
#ifndef SAMPLE_PATTERN_H_
#define SAMPLE_PATTERN_H_

#include <stddef.h>
#include <stdint.h>

/* Writes the pattern of (seed, iter) into buf[0..len). */
void sample_pattern_fill(void *buf, size_t len, uint64_t seed, uint32_t iter);

/*
 * Compares buf[0..len) with the pattern of (seed, iter). Returns 0 when equal, else -1
 * with *bad_off the first differing offset and *got / *want its bytes. Reads through a
 * volatile pointer, so it may be called repeatedly on memory a NIC is writing.
 */
int sample_pattern_check(const void *buf, size_t len, uint64_t seed, uint32_t iter, size_t *bad_off, uint8_t *got,
			 uint8_t *want);

/* A seed that differs between runs (time and process id). */
uint64_t sample_pattern_new_seed(void);

#endif /* SAMPLE_PATTERN_H_ */
