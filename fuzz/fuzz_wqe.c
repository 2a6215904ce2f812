/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The send WQE decoder (prm_wqe_decode), which the software NIC's engine runs on every WQE
 * an application (or a GPU kernel) writes into an SQ. Input: byte 0 picks the ring size
 * (2^(b % 8) WQEBBs), bytes 1-2 the WQE index (big-endian), the rest is the ring's content
 * (zero-filled when short). The ring is a heap block of exactly its size, so a read outside
 * it is an AddressSanitizer report. A WQE the decoder accepts must describe itself
 * consistently.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_input.h"
#include "prm/prm_wqe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_wqe(const struct prm_wqe *w, uint32_t ring_bytes)
{
	uint32_t i;

	FUZZ_CHECK(w->ds > 0 && w->ds < 64);
	FUZZ_CHECK(w->size == (uint32_t)w->ds * 16u);
	FUZZ_CHECK(w->size <= ring_bytes && w->size <= sizeof(w->bytes));
	FUZZ_CHECK(w->wqebbs == (w->ds + 3u) / 4u);
	FUZZ_CHECK(w->ndata <= PRM_WQE_MAX_DATA);
	for (i = 0; i < w->ndata; i++) {
		const struct prm_wqe_data *d = &w->data[i];

		if (d->kind == PRM_WQE_DATA_INLINE)
			FUZZ_CHECK(d->inline_offset <= w->size && d->byte_count <= w->size - d->inline_offset);
		else
			FUZZ_CHECK(d->kind == PRM_WQE_DATA_PTR);
	}
	FUZZ_CHECK(prm_wqe_opcode_name(w->opcode) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_cursor c = {data, size};
	uint32_t log_wqebbs = fuzz_u8(&c) % 8u;
	uint16_t index = fuzz_be16(&c);
	uint32_t ring_bytes = 64u << log_wqebbs;
	static struct prm_wqe w; /* 2.5 KiB: off the stack */
	size_t got;
	uint8_t *content = fuzz_take(&c, ring_bytes, &got);
	uint8_t *ring = malloc(ring_bytes);

	FUZZ_CHECK(ring != NULL);
	memset(ring, 0, ring_bytes);
	memcpy(ring, content, got);
	free(content);
	if (prm_wqe_decode(ring, log_wqebbs, index, &w) == DOCA_SUCCESS)
		check_wqe(&w, ring_bytes);
	/* Argument checks: a ring too large to describe is refused, not read. */
	FUZZ_CHECK(prm_wqe_decode(ring, 17, index, &w) == DOCA_ERROR_INVALID_VALUE);
	free(ring);
	return 0;
}
