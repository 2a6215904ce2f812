/* SPDX-License-Identifier: BSD-3-Clause */
#include "prm/prm_wqe.h"

#include "core/log.h"
#include "opengda_mlx5.h"

#include <stddef.h>
#include <string.h>

const char *prm_wqe_opcode_name(uint8_t opcode)
{
	switch (opcode) {
	case OPENGDA_MLX5_OPCODE_NOP: return "NOP";
	case OPENGDA_MLX5_OPCODE_SEND_INVAL: return "SEND_INVAL";
	case OPENGDA_MLX5_OPCODE_RDMA_WRITE: return "RDMA_WRITE";
	case OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM: return "RDMA_WRITE_IMM";
	case OPENGDA_MLX5_OPCODE_SEND: return "SEND";
	case OPENGDA_MLX5_OPCODE_SEND_IMM: return "SEND_IMM";
	case OPENGDA_MLX5_OPCODE_LSO: return "LSO";
	case OPENGDA_MLX5_OPCODE_WAIT: return "WAIT";
	case OPENGDA_MLX5_OPCODE_RDMA_READ: return "RDMA_READ";
	case OPENGDA_MLX5_OPCODE_ATOMIC_CS: return "ATOMIC_CS";
	case OPENGDA_MLX5_OPCODE_ATOMIC_FA: return "ATOMIC_FA";
	case OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS: return "ATOMIC_MASKED_CS";
	case OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA: return "ATOMIC_MASKED_FA";
	case OPENGDA_MLX5_OPCODE_RECV_EN: return "RECV_EN";
	case OPENGDA_MLX5_OPCODE_SEND_EN: return "SEND_EN";
	case OPENGDA_MLX5_OPCODE_BIND_MW: return "BIND_MW";
	case OPENGDA_MLX5_OPCODE_FMR: return "FMR";
	case OPENGDA_MLX5_OPCODE_LOCAL_INVAL: return "LOCAL_INVAL";
	case OPENGDA_MLX5_OPCODE_CONFIG_CMD: return "CONFIG_CMD";
	case OPENGDA_MLX5_OPCODE_SET_PSV: return "SET_PSV";
	case OPENGDA_MLX5_OPCODE_GET_PSV: return "GET_PSV";
	case OPENGDA_MLX5_OPCODE_CHECK_PSV: return "CHECK_PSV";
	case OPENGDA_MLX5_OPCODE_DUMP: return "DUMP";
	case OPENGDA_MLX5_OPCODE_UMR: return "UMR";
	case OPENGDA_MLX5_OPCODE_RGET_PSV: return "RGET_PSV";
	case OPENGDA_MLX5_OPCODE_RCHECK_PSV: return "RCHECK_PSV";
	case OPENGDA_MLX5_OPCODE_TAG_MATCHING: return "TAG_MATCHING";
	case OPENGDA_MLX5_OPCODE_ENHANCED_MPSW: return "ENHANCED_MPSW";
	case OPENGDA_MLX5_OPCODE_FLOW_TBL_ACCESS: return "FLOW_TBL_ACCESS";
	case OPENGDA_MLX5_OPCODE_ACCESS_ASO: return "ACCESS_ASO";
	case OPENGDA_MLX5_OPCODE_MMO: return "MMO";
	default: return "UNKNOWN";
	}
}

/* Copies the WQE's ds * 16 bytes out of the ring, WQEBB by WQEBB, wrapping at the end. */
static void copy_from_ring(const uint8_t *ring, uint32_t mask, uint32_t slot, uint8_t *dst, uint32_t size)
{
	uint32_t off;

	for (off = 0; off < size; off += OPENGDA_MLX5_SEND_WQE_BB) {
		uint32_t n = size - off < OPENGDA_MLX5_SEND_WQE_BB ? size - off : OPENGDA_MLX5_SEND_WQE_BB;
		uint32_t s = (slot + (off >> OPENGDA_MLX5_SEND_WQE_SHIFT)) & mask;

		memcpy(dst + off, ring + ((size_t)s << OPENGDA_MLX5_SEND_WQE_SHIFT), n);
	}
}

/* Checks that a segment of seg_size bytes fits at *off, then advances *off past it. */
static doca_error_t take_segment(const struct prm_wqe *w, uint32_t *off, uint32_t seg_size, const char *what)
{
	if (*off + seg_size > w->size) {
		OGDA_LOG_ERR("%s WQE 0x%x: DS %u too small for its %s segment", prm_wqe_opcode_name(w->opcode),
			     (unsigned)w->wqe_index, (unsigned)w->ds, what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*off += seg_size;
	return DOCA_SUCCESS;
}

static doca_error_t parse_raddr(struct prm_wqe *w, uint32_t *off)
{
	struct opengda_mlx5_wqe_raddr_seg seg;
	uint32_t at = *off;
	doca_error_t rc = take_segment(w, off, sizeof(seg), "remote address");

	if (rc != DOCA_SUCCESS)
		return rc;
	memcpy(&seg, w->bytes + at, sizeof(seg));
	w->has_raddr = true;
	w->raddr = opengda_mlx5_raddr_seg_raddr(&seg);
	w->rkey = opengda_mlx5_raddr_seg_rkey(&seg);
	return DOCA_SUCCESS;
}

/* Data segments up to the WQE end: pointers, and inline chunks where allowed. */
static doca_error_t parse_data(struct prm_wqe *w, uint32_t off, bool inline_allowed)
{
	while (off < w->size) {
		struct prm_wqe_data *d = &w->data[w->ndata];
		struct opengda_mlx5_wqe_inl_data_seg hdr;

		if (w->ndata == PRM_WQE_MAX_DATA) {
			OGDA_LOG_ERR("WQE 0x%x has more than %u data segments", (unsigned)w->wqe_index,
				     PRM_WQE_MAX_DATA);
			return DOCA_ERROR_INVALID_VALUE;
		}
		memcpy(&hdr, w->bytes + off, sizeof(hdr));
		if (opengda_mlx5_seg_is_inline(hdr.byte_count)) {
			uint32_t len = opengda_mlx5_inline_len(&hdr);

			if (!inline_allowed) {
				OGDA_LOG_ERR("%s WQE 0x%x: inline data where only pointer segments are allowed",
					     prm_wqe_opcode_name(w->opcode), (unsigned)w->wqe_index);
				return DOCA_ERROR_INVALID_VALUE;
			}
			if (len > w->size - off - OPENGDA_MLX5_INLINE_HDR_SIZE) {
				OGDA_LOG_ERR("WQE 0x%x: inline length %u at offset %u runs past the WQE end (%u B)",
					     (unsigned)w->wqe_index, (unsigned)len, (unsigned)off, (unsigned)w->size);
				return DOCA_ERROR_INVALID_VALUE;
			}
			d->kind = PRM_WQE_DATA_INLINE;
			d->byte_count = len;
			d->inline_offset = off + OPENGDA_MLX5_INLINE_HDR_SIZE;
			off += opengda_mlx5_inline_ds(len) * OPENGDA_MLX5_SEND_WQE_DS;
		} else {
			struct opengda_mlx5_wqe_data_seg seg;

			memcpy(&seg, w->bytes + off, sizeof(seg));
			d->kind = PRM_WQE_DATA_PTR;
			d->byte_count = opengda_mlx5_data_seg_byte_count(&seg);
			d->lkey = opengda_mlx5_data_seg_lkey(&seg);
			d->addr = opengda_mlx5_data_seg_addr(&seg);
			off += sizeof(seg);
		}
		w->ndata++;
	}
	return DOCA_SUCCESS;
}

/* Operand size of a masked atomic from its opmod (0x08 | (log2(size) - 2)). */
static doca_error_t masked_atomic_size(const struct prm_wqe *w, uint32_t *size)
{
	if (w->opmod == OPENGDA_MLX5_OPMOD_EXT_ATOMIC_4B) {
		*size = 4;
		return DOCA_SUCCESS;
	}
	if (w->opmod == OPENGDA_MLX5_OPMOD_EXT_ATOMIC_8B) {
		*size = 8;
		return DOCA_SUCCESS;
	}
	OGDA_LOG_ERR("%s WQE 0x%x: opmod 0x%x (operand size) not supported", prm_wqe_opcode_name(w->opcode),
		     (unsigned)w->wqe_index, (unsigned)w->opmod);
	return DOCA_ERROR_NOT_SUPPORTED;
}

static doca_error_t parse_atomic(struct prm_wqe *w, uint32_t off)
{
	struct prm_wqe_atomic *a = &w->atomic;
	uint32_t at;
	doca_error_t rc = parse_raddr(w, &off);

	if (rc != DOCA_SUCCESS)
		return rc;
	at = off;
	a->masked = w->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS || w->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA;
	if (w->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_CS || w->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_FA) {
		struct opengda_mlx5_wqe_atomic_seg seg;

		rc = take_segment(w, &off, sizeof(seg), "atomic");
		if (rc != DOCA_SUCCESS)
			return rc;
		memcpy(&seg, w->bytes + at, sizeof(seg));
		a->size = 8;
		a->swap_add = opengda_mlx5_atomic_seg_swap_add(&seg);
		if (w->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_CS) {
			a->compare = opengda_mlx5_atomic_seg_compare(&seg);
			a->swap_mask = UINT64_MAX;
			a->compare_mask = UINT64_MAX;
		}
	} else {
		rc = masked_atomic_size(w, &a->size);
		if (rc != DOCA_SUCCESS)
			return rc;
		if (w->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS && a->size == 4) {
			struct opengda_mlx5_wqe_masked_cs4_seg seg;

			rc = take_segment(w, &off, sizeof(seg), "masked compare-swap");
			if (rc != DOCA_SUCCESS)
				return rc;
			memcpy(&seg, w->bytes + at, sizeof(seg));
			a->swap_add = opengda_mlx5_be32toh(seg.swap);
			a->compare = opengda_mlx5_be32toh(seg.compare);
			a->swap_mask = opengda_mlx5_be32toh(seg.swap_mask);
			a->compare_mask = opengda_mlx5_be32toh(seg.compare_mask);
		} else if (w->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS) {
			struct opengda_mlx5_wqe_masked_cs8_seg seg;

			rc = take_segment(w, &off, sizeof(seg), "masked compare-swap");
			if (rc != DOCA_SUCCESS)
				return rc;
			memcpy(&seg, w->bytes + at, sizeof(seg));
			a->swap_add = opengda_mlx5_be64toh(seg.swap);
			a->compare = opengda_mlx5_be64toh(seg.compare);
			a->swap_mask = opengda_mlx5_be64toh(seg.swap_mask);
			a->compare_mask = opengda_mlx5_be64toh(seg.compare_mask);
		} else if (a->size == 4) {
			struct opengda_mlx5_wqe_masked_fa4_seg seg;

			rc = take_segment(w, &off, sizeof(seg), "masked fetch-add");
			if (rc != DOCA_SUCCESS)
				return rc;
			memcpy(&seg, w->bytes + at, sizeof(seg));
			a->swap_add = opengda_mlx5_be32toh(seg.add);
			a->field_boundary = opengda_mlx5_be32toh(seg.field_boundary);
		} else {
			struct opengda_mlx5_wqe_masked_fa8_seg seg;

			rc = take_segment(w, &off, sizeof(seg), "masked fetch-add");
			if (rc != DOCA_SUCCESS)
				return rc;
			memcpy(&seg, w->bytes + at, sizeof(seg));
			a->swap_add = opengda_mlx5_be64toh(seg.add);
			a->field_boundary = opengda_mlx5_be64toh(seg.field_boundary);
		}
	}
	w->has_atomic = true;
	/* The result buffer: every atomic carries one pointer segment after its operands. */
	at = off;
	rc = take_segment(w, &at, sizeof(struct opengda_mlx5_wqe_data_seg), "result data");
	if (rc != DOCA_SUCCESS)
		return rc;
	return parse_data(w, off, false);
}

static doca_error_t parse_wait(struct prm_wqe *w, uint32_t off)
{
	struct prm_wqe_wait *wt = &w->wait;
	uint32_t at = off;
	doca_error_t rc;

	if (w->opmod == OPENGDA_MLX5_OPMOD_WAIT_CQ_PI) {
		struct opengda_mlx5_wqe_wait_cq_seg seg;

		rc = take_segment(w, &off, sizeof(seg), "wait-on-CQ");
		if (rc != DOCA_SUCCESS)
			return rc;
		memcpy(&seg, w->bytes + at, sizeof(seg));
		wt->cqn = opengda_mlx5_wait_cq_seg_cqn(&seg);
		wt->max_index = opengda_mlx5_wait_cq_seg_max_index(&seg);
	} else if (w->opmod == OPENGDA_MLX5_OPMOD_WAIT_DATA || w->opmod == OPENGDA_MLX5_OPMOD_WAIT_TIME) {
		struct opengda_mlx5_wqe_wait_data_seg seg;

		rc = take_segment(w, &off, sizeof(seg), "wait-on-data");
		if (rc != DOCA_SUCCESS)
			return rc;
		memcpy(&seg, w->bytes + at, sizeof(seg));
		wt->operation = opengda_mlx5_be32toh(seg.operation);
		wt->lkey = opengda_mlx5_be32toh(seg.lkey);
		wt->va = ((uint64_t)opengda_mlx5_be32toh(seg.va_high) << 32) | opengda_mlx5_be32toh(seg.va_low);
		wt->value = opengda_mlx5_be64toh(seg.value);
		wt->mask = opengda_mlx5_be64toh(seg.mask);
	} else {
		OGDA_LOG_ERR("WAIT WQE 0x%x: opmod %u not supported", (unsigned)w->wqe_index, (unsigned)w->opmod);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	w->has_wait = true;
	return DOCA_SUCCESS;
}

/*
 * Ethernet segment (opengda_mlx5.h): checksum flags, and the inline packet head, which starts
 * at its byte 14 and runs on past it, padded so that the next segment starts on 16 bytes.
 */
static doca_error_t parse_eth(struct prm_wqe *w, uint32_t off)
{
	struct opengda_mlx5_wqe_eth_seg seg;
	uint32_t at = off, n, end;
	doca_error_t rc = take_segment(w, &off, sizeof(seg), "Ethernet");

	if (rc != DOCA_SUCCESS)
		return rc;
	memcpy(&seg, w->bytes + at, sizeof(seg));
	n = opengda_mlx5_eth_seg_inline_hdr_sz(&seg);
	w->has_eth = true;
	w->eth.cs_flags = seg.cs_flags;
	w->eth.mss = opengda_mlx5_be16toh(seg.mss);
	w->eth.inline_hdr_sz = (uint16_t)n;
	w->eth.inline_hdr_offset = at + (uint32_t)offsetof(struct opengda_mlx5_wqe_eth_seg, inline_hdr_start);
	if (n > 2) {
		end = w->eth.inline_hdr_offset + n;
		if (end > w->size) {
			OGDA_LOG_ERR("SEND WQE 0x%x: %u inline header bytes run past the WQE end (%u B)",
				     (unsigned)w->wqe_index, (unsigned)n, (unsigned)w->size);
			return DOCA_ERROR_INVALID_VALUE;
		}
		off = (end + OPENGDA_MLX5_SEND_WQE_DS - 1u) & ~(OPENGDA_MLX5_SEND_WQE_DS - 1u);
	}
	return parse_data(w, off, true);
}

/*
 * Enhanced multi-packet send (Ethernet SQ only): ctrl, an Ethernet segment without inline header
 * (its checksum flags apply to every packet), then one data segment per packet, 4 per WQEBB.
 * A segment may be a pointer or an inline chunk; the SDK writes a zero-length packet as an empty
 * inline chunk (byte_count 0x80000000). opmod 0 is the only enhanced MPW mode.
 */
static doca_error_t parse_empw(struct prm_wqe *w, uint32_t off)
{
	doca_error_t rc;

	if (w->opmod != 0) {
		OGDA_LOG_ERR("ENHANCED_MPSW WQE 0x%x: opmod 0x%x not supported (0 only)", (unsigned)w->wqe_index,
			     (unsigned)w->opmod);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	rc = parse_eth(w, off);
	if (rc != DOCA_SUCCESS)
		return rc;
	if (w->eth.inline_hdr_sz != 0) {
		OGDA_LOG_ERR("ENHANCED_MPSW WQE 0x%x: %u inline header bytes (an eMPW carries none)",
			     (unsigned)w->wqe_index, (unsigned)w->eth.inline_hdr_sz);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (w->ndata == 0) {
		OGDA_LOG_ERR("ENHANCED_MPSW WQE 0x%x: DS %u leaves no data segment", (unsigned)w->wqe_index,
			     (unsigned)w->ds);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Splits the copied WQE by opcode; on an Ethernet SQ (eth) a SEND carries an Ethernet segment. */
static doca_error_t parse_body(struct prm_wqe *w, bool eth)
{
	uint32_t off = sizeof(struct opengda_mlx5_wqe_ctrl_seg);
	doca_error_t rc;

	if (eth && w->opcode == OPENGDA_MLX5_OPCODE_SEND)
		return parse_eth(w, off);
	if (eth && w->opcode == OPENGDA_MLX5_OPCODE_ENHANCED_MPSW)
		return parse_empw(w, off);
	switch (w->opcode) {
	case OPENGDA_MLX5_OPCODE_NOP:
		return DOCA_SUCCESS; /* the NIC ignores everything after the ctrl segment */
	case OPENGDA_MLX5_OPCODE_SEND:
	case OPENGDA_MLX5_OPCODE_SEND_IMM:
	case OPENGDA_MLX5_OPCODE_SEND_INVAL:
	case OPENGDA_MLX5_OPCODE_DUMP:
		return parse_data(w, off, true);
	case OPENGDA_MLX5_OPCODE_RDMA_WRITE:
	case OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM:
	case OPENGDA_MLX5_OPCODE_RDMA_READ:
		rc = parse_raddr(w, &off);
		if (rc != DOCA_SUCCESS)
			return rc;
		return parse_data(w, off, w->opcode != OPENGDA_MLX5_OPCODE_RDMA_READ);
	case OPENGDA_MLX5_OPCODE_ATOMIC_CS:
	case OPENGDA_MLX5_OPCODE_ATOMIC_FA:
	case OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS:
	case OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA:
		return parse_atomic(w, off);
	case OPENGDA_MLX5_OPCODE_WAIT:
		return parse_wait(w, off);
	default:
		OGDA_LOG_ERR("WQE 0x%x: opcode 0x%02x (%s) not supported", (unsigned)w->wqe_index, (unsigned)w->opcode,
			     prm_wqe_opcode_name(w->opcode));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
}

static doca_error_t decode(const void *sq_ring, uint32_t log_sq_wqebbs, uint16_t wqe_index, struct prm_wqe *out,
			   bool eth)
{
	const uint8_t *ring = sq_ring;
	struct opengda_mlx5_wqe_ctrl_seg ctrl;
	uint32_t nwqebbs, mask, slot, ds;

	if (sq_ring == NULL || out == NULL) {
		OGDA_LOG_ERR("sq_ring and out must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (log_sq_wqebbs > OPENGDA_MLX5_SQ_MAX_LOG_WQEBBS) {
		OGDA_LOG_ERR("log_sq_wqebbs %u exceeds %u", (unsigned)log_sq_wqebbs, OPENGDA_MLX5_SQ_MAX_LOG_WQEBBS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	nwqebbs = 1u << log_sq_wqebbs;
	mask = nwqebbs - 1u;
	slot = wqe_index & mask;
	memcpy(&ctrl, ring + ((size_t)slot << OPENGDA_MLX5_SEND_WQE_SHIFT), sizeof(ctrl));

	/* The DS field is 6 bits wide; bits 7:6 set would mean a WQE beyond 63 octowords. */
	ds = opengda_mlx5_ctrl_ds_byte(&ctrl);
	if (ds == 0u || ds > OPENGDA_MLX5_WQE_MAX_DS) {
		OGDA_LOG_ERR("WQE in slot %u: DS %u outside 1..%u", (unsigned)slot, (unsigned)ds,
			     OPENGDA_MLX5_WQE_MAX_DS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (opengda_mlx5_wqebbs_from_ds(ds) > nwqebbs) {
		OGDA_LOG_ERR("WQE in slot %u: DS %u needs %u WQEBBs, ring has %u", (unsigned)slot, (unsigned)ds,
			     (unsigned)opengda_mlx5_wqebbs_from_ds(ds), (unsigned)nwqebbs);
		return DOCA_ERROR_INVALID_VALUE;
	}

	memset(out, 0, sizeof(*out));
	out->size = ds * OPENGDA_MLX5_SEND_WQE_DS;
	out->wqebbs = opengda_mlx5_wqebbs_from_ds(ds);
	copy_from_ring(ring, mask, slot, out->bytes, out->size);

	out->opcode = opengda_mlx5_ctrl_opcode(&ctrl);
	out->opmod = opengda_mlx5_ctrl_opmod(&ctrl);
	out->wqe_index = opengda_mlx5_ctrl_wqe_index(&ctrl);
	out->qpn = opengda_mlx5_ctrl_qpn(&ctrl);
	out->ds = (uint8_t)ds;
	out->fm_ce_se = ctrl.fm_ce_se;
	out->fence = opengda_mlx5_ctrl_fence(&ctrl);
	out->ce = opengda_mlx5_ctrl_ce(&ctrl);
	out->se = opengda_mlx5_ctrl_se(&ctrl);
	out->signature = ctrl.signature;
	out->imm = opengda_mlx5_ctrl_imm(&ctrl);
	if (out->fence > OPENGDA_MLX5_FENCE_MODE_SMALL_AND_FENCE) {
		OGDA_LOG_ERR("WQE 0x%x: undefined fence mode %u", (unsigned)out->wqe_index, (unsigned)out->fence);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return parse_body(out, eth);
}

doca_error_t prm_wqe_decode(const void *sq_ring, uint32_t log_sq_wqebbs, uint16_t wqe_index, struct prm_wqe *out)
{
	return decode(sq_ring, log_sq_wqebbs, wqe_index, out, false);
}

doca_error_t prm_wqe_decode_eth(const void *sq_ring, uint32_t log_sq_wqebbs, uint16_t wqe_index, struct prm_wqe *out)
{
	return decode(sq_ring, log_sq_wqebbs, wqe_index, out, true);
}
