/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Expected positions of every modelled qpc field inside a QP command whose qpc starts at
 * byte 0x18 (create_qp_in, query_qp_out and the modify commands), written out by hand from
 * reference/mlx5.md B.9 and mlx5_ifc qpc_bits/ads_bits as ABSOLUTE dword numbers and bit
 * ranges. They are deliberately not derived from the library's tables, and the image
 * helpers below set bits with their own arithmetic.
 */
#ifndef OGDA_TEST_PRM_QP_EXPECT_H_
#define OGDA_TEST_PRM_QP_EXPECT_H_

#include "prm/prm_qp.h"

#include <stddef.h>
#include <stdint.h>

enum qp_expect_kind {
	QP_EXPECT_BITS,  /* dw [hi:lo]; hi - lo + 1 == 64 means dw and dw + 1 whole */
	QP_EXPECT_BYTES, /* nbytes copied at absolute byte `byte` (GID, MAC) */
};

struct qp_expect {
	const char *path;   /* qpc path, as in prm_qp.h ("primary_address_path.rlid") */
	size_t off;         /* member offset in struct prm_qpc_params */
	size_t size;        /* member size in bytes */
	enum qp_expect_kind kind;
	unsigned dw, hi, lo;
	unsigned byte, nbytes;
};

extern const struct qp_expect qp_expect_qpc[];
extern const size_t qp_expect_qpc_count;

const struct qp_expect *qp_expect_find(const char *path);

/* Field width in bits (BYTES: nbytes * 8). */
unsigned qp_expect_width(const struct qp_expect *e);

/* Sets dw [hi:lo] of a big-endian image; width 64 spans dw and dw + 1. */
void img_set(uint8_t *img, unsigned dw, unsigned hi, unsigned lo, uint64_t value);

/* Puts the field of e into img: value for BITS, `bytes` for BYTES. */
void img_put(uint8_t *img, const struct qp_expect *e, uint64_t value, const uint8_t *bytes);

/* Stores value (or bytes) into the member of qpc that e describes. */
void qpc_member_store(struct prm_qpc_params *qpc, const struct qp_expect *e, uint64_t value, const uint8_t *bytes);

/* Copies the member that e describes from src to dst. */
void qpc_member_copy(struct prm_qpc_params *dst, const struct prm_qpc_params *src, const struct qp_expect *e);

/* All ones of the field's width. */
uint64_t qp_expect_ones(const struct qp_expect *e);

/* Sets every modelled qpc field to all ones of its width (GID/MAC bytes 0xff). */
void qpc_fill_ones(struct prm_qpc_params *qpc);

/* Adds every field of e to img at all ones. */
void img_put_ones(uint8_t *img, const struct qp_expect *e);

#endif /* OGDA_TEST_PRM_QP_EXPECT_H_ */
