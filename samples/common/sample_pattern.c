/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

#include "sample_pattern.h"

#include <time.h>
#include <unistd.h>

/* splitmix64 step: a well-mixed 64-bit stream from a counter. */
static uint64_t mix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Byte i of the pattern of (seed, iter), produced in order by the caller's loop. */
struct pattern_gen {
	uint64_t state;
	uint64_t word;
	uint32_t iter;
};

static void gen_init(struct pattern_gen *g, uint64_t seed, uint32_t iter)
{
	g->state = seed ^ ((uint64_t)iter * 0xd1b54a32d192ed03ull);
	g->word = 0;
	g->iter = iter;
}

static uint8_t gen_byte(struct pattern_gen *g, size_t i)
{
	uint8_t b;

	if ((i & 7u) == 0)
		g->word = mix64(&g->state);
	b = (uint8_t)(g->word >> ((i & 7u) * 8u));
	/* The iteration number in the first four bytes keeps iterations distinct even for tiny sizes. */
	if (i < 4)
		b ^= (uint8_t)(g->iter >> (i * 8u));
	return b;
}

void sample_pattern_fill(void *buf, size_t len, uint64_t seed, uint32_t iter)
{
	uint8_t *p = buf;
	struct pattern_gen g;
	size_t i;

	gen_init(&g, seed, iter);
	for (i = 0; i < len; i++)
		p[i] = gen_byte(&g, i);
}

int sample_pattern_check(const void *buf, size_t len, uint64_t seed, uint32_t iter, size_t *bad_off, uint8_t *got,
			 uint8_t *want)
{
	const volatile uint8_t *p = buf;
	struct pattern_gen g;
	size_t i;

	gen_init(&g, seed, iter);
	for (i = 0; i < len; i++) {
		uint8_t w = gen_byte(&g, i), b = p[i];

		if (b != w) {
			*bad_off = i;
			*got = b;
			*want = w;
			return -1;
		}
	}
	return 0;
}

uint64_t sample_pattern_new_seed(void)
{
	struct timespec ts;
	uint64_t s;

	clock_gettime(CLOCK_REALTIME, &ts);
	s = ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 16);
	return mix64(&s);
}
