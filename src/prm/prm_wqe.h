/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Send WQE decoder for the software NIC: reads one WQE out of an SQ ring (following it
 * past the ring end when it wraps), checks its shape, and splits it into the fields the
 * engine executes. The formats are those of include/opengda_mlx5.h (reference/mlx5.md
 * B.2-B.5); the encoders there and this decoder are tested against each other and
 * against hand-written byte images.
 */
#ifndef OGDA_PRM_WQE_H_
#define OGDA_PRM_WQE_H_

#include "doca_error.h"

#include <stdbool.h>
#include <stdint.h>

/* One data segment, or inline chunk, after ctrl (+ raddr + operand segments): at most 62. */
#define PRM_WQE_MAX_DATA 62u

enum prm_wqe_data_kind {
	PRM_WQE_DATA_PTR = 0,    /* pointer segment: addr, lkey, byte_count */
	PRM_WQE_DATA_INLINE = 1, /* inline chunk: byte_count bytes at bytes[inline_offset] */
};

/* Gather (or, for READ and atomics, scatter) entries in WQE order. */
struct prm_wqe_data {
	enum prm_wqe_data_kind kind;
	uint32_t byte_count;    /* bytes described (pointer) or carried (inline) */
	uint32_t lkey;          /* pointer only */
	uint64_t addr;          /* pointer only */
	uint32_t inline_offset; /* inline only: payload offset inside prm_wqe.bytes */
};

/*
 * Atomic operands in host order. Standard CS/FA are reported in masked form so that the
 * engine has one code path: CS masks are all ones of the operand size, FA has no field
 * boundaries.
 */
struct prm_wqe_atomic {
	uint32_t size;           /* operand bytes: 8 (standard), 4 or 8 (masked) */
	bool masked;             /* opcode ATOMIC_MASKED_CS / _FA */
	uint64_t swap_add;       /* CS: swap value; FA: addend */
	uint64_t compare;        /* CS only */
	uint64_t swap_mask;      /* CS only */
	uint64_t compare_mask;   /* CS only */
	uint64_t field_boundary; /* FA only */
};

/* WAIT operands (opcode WAIT); which ones apply depends on opmod. */
struct prm_wqe_wait {
	uint32_t cqn;       /* WAIT_CQ_PI */
	uint32_t max_index; /* WAIT_CQ_PI */
	uint32_t operation; /* WAIT_DATA / WAIT_TIME: condition */
	uint32_t lkey;      /* WAIT_DATA / WAIT_TIME */
	uint64_t va;        /* WAIT_DATA / WAIT_TIME */
	uint64_t value;     /* WAIT_DATA / WAIT_TIME */
	uint64_t mask;      /* WAIT_DATA / WAIT_TIME */
};

/* Ethernet segment of a SEND on an Ethernet SQ (prm_wqe_decode_eth). */
struct prm_wqe_eth {
	uint8_t cs_flags;           /* OPENGDA_MLX5_ETH_WQE_L3_CSUM / _L4_CSUM */
	uint16_t mss;
	uint16_t inline_hdr_sz;     /* packet bytes carried in the WQE, ahead of the data segments */
	uint32_t inline_hdr_offset; /* where they start inside prm_wqe.bytes */
};

struct prm_wqe {
	uint8_t bytes[1024]; /* the WQE copied linearly; size bytes are valid */
	uint32_t size;       /* ds * 16 */
	uint32_t wqebbs;     /* ceil(ds / 4) */

	/* ctrl segment */
	uint8_t opcode;
	uint8_t opmod;
	uint16_t wqe_index;
	uint32_t qpn;
	uint8_t ds;
	uint8_t fm_ce_se; /* the raw byte; fence/ce/se below */
	uint8_t fence;
	uint8_t ce;
	uint8_t se;
	uint8_t signature;
	uint32_t imm; /* host order */

	bool has_raddr;
	uint64_t raddr;
	uint32_t rkey;

	bool has_atomic;
	struct prm_wqe_atomic atomic;

	bool has_wait;
	struct prm_wqe_wait wait;

	bool has_eth;
	struct prm_wqe_eth eth;

	uint32_t ndata;
	struct prm_wqe_data data[PRM_WQE_MAX_DATA];
};

/*
 * Decodes the WQE whose ctrl segment is in slot (wqe_index & (2^log_sq_wqebbs - 1)) of
 * sq_ring, reading WQEBBs in ring order (wrapping to slot 0) and never outside the ring
 * of 2^log_sq_wqebbs * 64 bytes. The ctrl WQE index is reported as found; the caller
 * compares it with its own counter.
 *
 * Returns:
 *   DOCA_SUCCESS;
 *   DOCA_ERROR_INVALID_VALUE for NULL arguments, log_sq_wqebbs over 16, DS 0 or over 63,
 *     a WQE larger than the ring, an undefined fence mode (5..7), a DS too small for the
 *     opcode, an inline length that runs past the WQE end, or inline data where only
 *     pointer segments are allowed (RDMA READ, atomics);
 *   DOCA_ERROR_NOT_SUPPORTED for an opcode (or WAIT / masked-atomic opmod) the software
 *     NIC does not execute; the NIC completes such a WQE with LOCAL_QP_OP.
 * On failure the contents of out are unspecified.
 */
doca_error_t prm_wqe_decode(const void *sq_ring, uint32_t log_sq_wqebbs, uint16_t wqe_index, struct prm_wqe *out);

/*
 * The same for a WQE of an Ethernet SQ: a SEND carries an Ethernet segment (checksum flags,
 * inline packet head) between its ctrl and data segments; so does an ENHANCED_MPSW (opcode
 * 0x29, opmod 0), whose data entries are one packet each (an empty inline chunk: a zero-length
 * packet); other opcodes decode as above. Also DOCA_ERROR_INVALID_VALUE for inline header bytes
 * that run past the WQE end, an eMPW with an inline header or no data segment, and
 * DOCA_ERROR_NOT_SUPPORTED for an eMPW opmod other than 0.
 */
doca_error_t prm_wqe_decode_eth(const void *sq_ring, uint32_t log_sq_wqebbs, uint16_t wqe_index, struct prm_wqe *out);

/* Name of a send opcode ("RDMA_WRITE", ...), or "UNKNOWN". Never NULL. */
const char *prm_wqe_opcode_name(uint8_t opcode);

#endif /* OGDA_PRM_WQE_H_ */
