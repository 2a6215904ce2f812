/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the fuzz targets share: a cursor over libFuzzer's input (big-endian reads that
 * return 0 past the end, so every input is a valid program for the target), a heap copy of
 * exactly n bytes (so that AddressSanitizer sees any read past what the code was given),
 * and the check that turns a broken contract into a crash libFuzzer reports.
 */
#ifndef OGDA_FUZZ_INPUT_H_
#define OGDA_FUZZ_INPUT_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

struct fuzz_cursor {
	const uint8_t *p;
	size_t left;
};

static inline uint8_t fuzz_u8(struct fuzz_cursor *c)
{
	uint8_t v = 0;

	if (c->left > 0) {
		v = c->p[0];
		c->p++;
		c->left--;
	}
	return v;
}

static inline uint16_t fuzz_be16(struct fuzz_cursor *c)
{
	uint16_t hi = fuzz_u8(c);

	return (uint16_t)((hi << 8) | fuzz_u8(c));
}

/* A malloc'd copy of the next n bytes (fewer when the input ends; *got says how many). */
static inline uint8_t *fuzz_take(struct fuzz_cursor *c, size_t n, size_t *got)
{
	uint8_t *buf;

	if (n > c->left)
		n = c->left;
	buf = malloc(n > 0 ? n : 1);
	if (buf == NULL)
		abort();
	if (n > 0)
		memcpy(buf, c->p, n);
	c->p += n;
	c->left -= n;
	*got = n;
	return buf;
}

/*
 * Every refused input logs an error line, which would drown the fuzzer's output and slow
 * it down: the library logs only EMERG unless OGDA_FUZZ_LOG is set. For LLVMFuzzerInitialize.
 */
static inline void fuzz_quiet_logs(void)
{
	if (getenv("OGDA_FUZZ_LOG") == NULL)
		ogda_log_set_level(OGDA_LOG_EMERG);
}

/* A contract the code documents does not hold: report it and crash, so libFuzzer keeps the input. */
#define FUZZ_CHECK(cond)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: contract broken: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#endif /* OGDA_FUZZ_INPUT_H_ */
