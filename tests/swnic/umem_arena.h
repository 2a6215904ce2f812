/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host arena the software NIC fixtures (cmd_fixture, resp_fixture, swnic_fixture) keep
 * their queue memory in: one page-aligned buffer registered as a single umem, carved
 * front to back. Header-only so that every target built from one of those fixtures (the
 * benchmark included) gets it without another source file. Include after <cmocka.h>.
 */
#ifndef OGDA_TESTS_SWNIC_UMEM_ARENA_H_
#define OGDA_TESTS_SWNIC_UMEM_ARENA_H_

#include "swnic/swnic_ctl.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A zeroed, page-aligned arena of size bytes registered on nic as *umem (asserts on failure). */
static inline uint8_t *umem_arena_register(struct swnic *nic, size_t size, uint32_t *umem)
{
	uint8_t *arena = aligned_alloc(4096, size);

	assert_non_null(arena);
	memset(arena, 0, size);
	assert_int_equal(swnic_umem_register(nic, arena, size, OGDA_ACCESS_LOCAL_WRITE, umem), DOCA_SUCCESS);
	return arena;
}

/*
 * Zeroes size bytes at the first multiple of align at or past *used, moves *used past them
 * and returns their offset in the umem; asserts they fit in the arena's arena_size bytes.
 */
static inline uint64_t umem_arena_alloc(uint8_t *arena, size_t arena_size, size_t *used, size_t size, size_t align)
{
	size_t off = (*used + align - 1) & ~(align - 1);

	assert_true(off + size <= arena_size);
	*used = off + size;
	memset(arena + off, 0, size);
	return off;
}

#endif /* OGDA_TESTS_SWNIC_UMEM_ARENA_H_ */
