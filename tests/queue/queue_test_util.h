/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SQ rings for the queue-format tests: a ring between two guard areas, everything filled
 * with one byte value, so that a test can check the exact image of a WQE and that no
 * other byte of the ring or of the guards changed.
 */
#ifndef OGDA_TESTS_QUEUE_TEST_UTIL_H_
#define OGDA_TESTS_QUEUE_TEST_UTIL_H_

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "opengda_mlx5.h"

#define QT_FILL 0xa5u
#define QT_GUARD 64u
#define QT_MAX_WQEBBS 16u
#define QT_MEM_SIZE (QT_GUARD + QT_MAX_WQEBBS * OPENGDA_MLX5_SEND_WQE_BB + QT_GUARD)
#define QT_QPN 0x00abcdu /* bytes 00 ab cd in every ctrl segment below */

struct qt_ring {
	_Alignas(64) uint8_t mem[QT_MEM_SIZE];
	uint32_t bytes; /* ring size */
	struct opengda_mlx5_sq sq;
};

/* A ring of 2^log_wqebbs WQEBBs right after the front guard; every byte QT_FILL. */
static inline void qt_ring_init(struct qt_ring *r, uint32_t log_wqebbs)
{
	assert_true((1u << log_wqebbs) <= QT_MAX_WQEBBS);
	memset(r->mem, QT_FILL, sizeof(r->mem));
	r->bytes = OPENGDA_MLX5_SEND_WQE_BB << log_wqebbs;
	r->sq.ring = r->mem + QT_GUARD;
	r->sq.log_wqebbs = log_wqebbs;
	r->sq.qpn = QT_QPN;
}

/*
 * The ring must hold expected[0..len) starting at ring offset start (continuing at offset 0
 * past the end); every other byte of the ring and both guards must still be QT_FILL.
 */
static inline void qt_ring_expect(const struct qt_ring *r, uint32_t start, const uint8_t *expected, uint32_t len)
{
	uint8_t image[QT_MEM_SIZE];
	uint32_t i;

	assert_true(len <= r->bytes);
	memset(image, QT_FILL, sizeof(image));
	for (i = 0; i < len; i++)
		image[QT_GUARD + (start + i) % r->bytes] = expected[i];
	assert_memory_equal(r->mem, image, sizeof(image));
}

/* The ring and guards are untouched. */
static inline void qt_ring_expect_untouched(const struct qt_ring *r)
{
	qt_ring_expect(r, 0, NULL, 0);
}

#endif /* OGDA_TESTS_QUEUE_TEST_UTIL_H_ */
