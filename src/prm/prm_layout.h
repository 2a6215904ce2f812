/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PRM layouts as data: a command or context is a table of named fields, each with a bit
 * offset and a width, in the convention of the mlx5 Programmer's Reference Manual.
 *
 * All PRM structures are big-endian. Bit offsets count from the most significant bit of
 * byte 0 (the MLX5_SET convention): a field written "dwN [hi:lo]" in reference/mlx5.md
 * starts at bit N*32 + (31 - hi) and is hi - lo + 1 bits wide.
 *
 * A field may itself be a layout (a context embedded in a command, an address path in a
 * QP context); paths such as "qpc.primary_address_path.rlid" walk into it.
 *
 * The same tables drive the builders (parameters -> bytes), the parsers (bytes ->
 * parameters) used by the software NIC, and the golden tests.
 */
#ifndef OGDA_PRM_LAYOUT_H_
#define OGDA_PRM_LAYOUT_H_

#include "doca_error.h"

#include <stddef.h>
#include <stdint.h>

struct prm_layout;

struct prm_field {
	const char *name;
	uint32_t bit_off;               /* from the MSB of byte 0 of the enclosing layout */
	uint32_t width;                 /* bits: 1..64, or the size of sub in bits */
	const struct prm_layout *sub;   /* non-NULL for an embedded layout */
};

struct prm_layout {
	const char *name;               /* e.g. "create_qp_in" */
	size_t size;                    /* bytes */
	const struct prm_field *fields;
	size_t nfields;
};

/* A resolved field: absolute position inside the outermost buffer. */
struct prm_loc {
	uint32_t bit_off;
	uint32_t width;
};

/* "dwN [hi:lo]" */
#define PRM_BITS(fname, dw, hi, lo) {(fname), (uint32_t)(dw) * 32u + 31u - (hi), (hi) - (lo) + 1u, NULL}
/* A whole 32-bit word. */
#define PRM_DW(fname, dw) PRM_BITS(fname, dw, 31, 0)
/* A 64-bit field starting at a byte offset (always dword aligned in the PRM). */
#define PRM_U64(fname, byte) {(fname), (uint32_t)(byte) * 8u, 64u, NULL}
/*
 * An embedded layout of size_bytes at a byte offset. The size is given, not read from the
 * layout, so the entry stays a constant expression in files other than the layout's own;
 * prm_layout_check() (and the tests) verify it matches layout.size.
 */
#define PRM_SUB(fname, byte, layout, size_bytes) {(fname), (uint32_t)(byte) * 8u, (uint32_t)(size_bytes) * 8u, &(layout)}

#define PRM_LAYOUT(lname, lsize, ftable) {(lname), (lsize), (ftable), sizeof(ftable) / sizeof((ftable)[0])}

/* Raw accessors; callers guarantee the range lies inside the buffer and width is 1..64. */
void prm_bits_set(void *buf, uint32_t bit_off, uint32_t width, uint64_t value);
uint64_t prm_bits_get(const void *buf, uint32_t bit_off, uint32_t width);

/*
 * Resolves a dotted path to an absolute location. DOCA_ERROR_NOT_FOUND for an unknown
 * field (logged), DOCA_ERROR_INVALID_VALUE for NULL arguments or a path that names an
 * embedded layout as a whole.
 */
doca_error_t prm_resolve(const struct prm_layout *layout, const char *path, struct prm_loc *loc);

/*
 * Checked set/get by path. Set rejects a value wider than the field with
 * DOCA_ERROR_INVALID_VALUE; both reject a buffer shorter than the layout.
 */
doca_error_t prm_set(const struct prm_layout *layout, void *buf, size_t buf_len, const char *path, uint64_t value);
doca_error_t prm_get(const struct prm_layout *layout, const void *buf, size_t buf_len, const char *path,
		     uint64_t *value);

/*
 * Accumulating writer and reader for builders and parsers: each call is a no-op once an
 * error has been recorded, and the first error is kept, so a builder is a flat list of
 * prm_w() calls followed by one check of w.err.
 */
struct prm_writer {
	const struct prm_layout *layout;
	void *buf;
	size_t len;
	doca_error_t err;
};

struct prm_reader {
	const struct prm_layout *layout;
	const void *buf;
	size_t len;
	doca_error_t err;
};

/* Zeroes layout->size bytes of buf (when len allows) and starts a writer. */
void prm_writer_init(struct prm_writer *w, const struct prm_layout *layout, void *buf, size_t len);
void prm_w(struct prm_writer *w, const char *path, uint64_t value);

void prm_reader_init(struct prm_reader *r, const struct prm_layout *layout, const void *buf, size_t len);
uint64_t prm_r(struct prm_reader *r, const char *path);

/* Copies a byte string (GIDs, MACs) to/from a byte-aligned field of exactly n bytes. */
void prm_w_bytes(struct prm_writer *w, const char *path, const void *src, size_t n);
void prm_r_bytes(struct prm_reader *r, const char *path, void *dst, size_t n);

#endif /* OGDA_PRM_LAYOUT_H_ */
