/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_wqe.h
 * @brief WQE builders of the device data path (C core; CUDA and host threads).
 *
 * Each builder writes whole 16-byte segments of one WQE into its ring slot. Keys arrive
 * big-endian (DOCA_GPUNETIO_VERBS_MKEY_SWAPPED); addresses and lengths in host order. Formats are
 * those of include/opengda_mlx5.h (reference/mlx5.md B.2-B.5); the less frequent WQEs (masked
 * atomics, WAIT, DUMP, NOP) use its checked recipes directly, the hot ones are written here as
 * straight 16-byte stores.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_WQE_H
#define OGDA_DEV_WQE_H

#include "../doca_gpunetio_verbs_dev.h"
#include "../opengda_mlx5.h"
#include "ogda_dev_port.h"

/** Address of the WQEBB that index @p idx maps to. */
OGDA_DEV_FN struct doca_gpu_dev_verbs_wqe *ogda_dev_wqe_ptr(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx)
{
	uint8_t *ring = (uint8_t *)ogda_dev_ro_ptr((void *const *)&qp->sq_wqe_daddr);

	return (struct doca_gpu_dev_verbs_wqe *)(ring + ((idx & ogda_dev_ro_u32(&qp->sq_wqe_mask)) << 6));
}

/**
 * Stores one 16-byte segment given as two 8-byte halves in memory order. On the GPU a streaming
 * (evict-first) 16-byte store written as an asm statement without a memory clobber: the compiler
 * then need not assume the store may change the QP's fields, so it does not reload them after
 * every segment, which serialised a batch of WQEs on L1 latency. The fences and atomics that
 * publish WQEs are asm statements with memory clobbers (and volatile asm statements keep their
 * order), so no WQE store moves past them; nothing in the data path reads a WQE back before one.
 */
OGDA_DEV_FN void ogda_dev_store_seg(void *dst, uint64_t lo, uint64_t hi)
{
#if defined(__CUDACC__)
	asm volatile("st.weak.global.cs.v2.b64 [%0], {%1, %2};" ::"l"(dst), "l"(lo), "l"(hi));
#else
	uint64_t *d = (uint64_t *)dst;
	d[0] = lo;
	d[1] = hi;
#endif
}

/**
 * BE32(opmod << 24 | (idx & 0xffff) << 8 | opcode): the first word of a ctrl segment. On the GPU
 * one byte permute picks the four bytes straight from idx and the constants (memory order: opmod,
 * idx[15:8], idx[7:0], opcode) instead of shift, mask, or and a byte swap: this word is built for
 * every WQE, and in a batch of WQEs the instructions per WQE are what bounds one thread.
 */
OGDA_DEV_FN uint32_t ogda_dev_ctrl_word0(uint32_t idx, uint8_t opcode, uint8_t opmod)
{
#if defined(__CUDA_ARCH__)
	return __byte_perm(idx, (uint32_t)opmod | (uint32_t)opcode << 8, 0x5014);
#else
	return opengda_mlx5_htobe32(((uint32_t)opmod << 24) | ((idx & 0xffff) << 8) | opcode);
#endif
}

/** BE32((idx & 0xffff) << 8): the producer-index word of a doorbell (one byte permute on the GPU). */
OGDA_DEV_FN uint32_t ogda_dev_be32_idx16_shift8(uint32_t idx)
{
#if defined(__CUDA_ARCH__)
	return __byte_perm(idx, 0, 0x4014);
#else
	return opengda_mlx5_htobe32((idx & 0xffff) << 8);
#endif
}

/** First 8 bytes of a ctrl segment: BE32(opmod << 24 | idx << 8 | opcode), then qpn_ds (already BE). */
OGDA_DEV_FN uint64_t ogda_dev_ctrl_lo(uint64_t idx, uint8_t opcode, uint8_t opmod, uint32_t qpn_ds_be)
{
	return opengda_mlx5_pack_words(ogda_dev_ctrl_word0((uint32_t)idx, opcode, opmod), qpn_ds_be);
}

/** Last 8 bytes of a ctrl segment: signature 0, reserved, fm_ce_se, immediate (BE as given). */
OGDA_DEV_FN uint64_t ogda_dev_ctrl_hi(uint8_t fm_ce_se, uint32_t imm_be)
{
	/* Word 2 in memory order is {0, 0, 0, fm_ce_se}: fm_ce_se is its last byte. */
#if OPENGDA_MLX5_BIG_ENDIAN_HOST
	uint32_t w2 = fm_ce_se;
#else
	uint32_t w2 = (uint32_t)fm_ce_se << 24;
#endif
	return opengda_mlx5_pack_words(w2, imm_be);
}

/** qpn_ds of @p qp for a WQE of @p ds 16-byte units. */
OGDA_DEV_FN uint32_t ogda_dev_qpn_ds(const struct doca_gpu_dev_verbs_qp *qp, uint32_t ds)
{
	return ogda_dev_ro_u32(&qp->sq_num_shift8_be) | opengda_mlx5_htobe32(ds);
}

/** Remote-address segment. */
OGDA_DEV_FN void ogda_dev_store_raddr(void *dst, uint64_t raddr, uint32_t rkey_be)
{
	ogda_dev_store_seg(dst, opengda_mlx5_htobe64(raddr), opengda_mlx5_pack_words(rkey_be, 0));
}

/** Data (scatter/gather) segment. */
OGDA_DEV_FN void ogda_dev_store_dseg(void *dst, uint64_t addr, uint32_t lkey_be, uint32_t bytes)
{
	ogda_dev_store_seg(dst, opengda_mlx5_pack_words(opengda_mlx5_htobe32(bytes), lkey_be), opengda_mlx5_htobe64(addr));
}

/**
 * RDMA WRITE / WRITE_IMM / READ with one or two gather entries (@p size1 == 0: one).
 * One WQEBB: ctrl, raddr, data, data.
 */
OGDA_DEV_FN void ogda_dev_wqe_rdma(const struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe,
				   uint64_t idx, uint8_t opcode, uint8_t fm_ce_se, uint32_t imm_be, uint64_t raddr,
				   uint32_t rkey_be, uint64_t laddr0, uint32_t lkey0_be, uint32_t size0,
				   uint64_t laddr1, uint32_t lkey1_be, uint32_t size1)
{
	uint8_t *w = (uint8_t *)wqe;
	uint32_t ds = size1 ? 4u : 3u;

	ogda_dev_store_seg(w, ogda_dev_ctrl_lo(idx, opcode, 0, ogda_dev_qpn_ds(qp, ds)), ogda_dev_ctrl_hi(fm_ce_se, imm_be));
	ogda_dev_store_raddr(w + 16, raddr, rkey_be);
	ogda_dev_store_dseg(w + 32, laddr0, lkey0_be, size0);
	if (size1)
		ogda_dev_store_dseg(w + 48, laddr1, lkey1_be, size1);
}

/**
 * RDMA WRITE of @p len <= DOCA_GPUNETIO_VERBS_MAX_INLINE_SIZE bytes carried in the WQE
 * (inline segment at byte 32). One WQEBB.
 */
OGDA_DEV_FN void ogda_dev_wqe_write_inl(const struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe,
					uint64_t idx, uint8_t opcode, uint8_t fm_ce_se, uint32_t imm_be, uint64_t raddr,
					uint32_t rkey_be, const void *data, uint32_t len)
{
	uint8_t *w = (uint8_t *)wqe;
	uint8_t seg[32] = {0};
	uint32_t hdr = opengda_mlx5_htobe32(len | OPENGDA_MLX5_INLINE_SEG);
	uint32_t ds = 2u + (OPENGDA_MLX5_INLINE_HDR_SIZE + len + 15u) / 16u;
	uint64_t lo, hi;

	ogda_dev_store_seg(w, ogda_dev_ctrl_lo(idx, opcode, 0, ogda_dev_qpn_ds(qp, ds)), ogda_dev_ctrl_hi(fm_ce_se, imm_be));
	ogda_dev_store_raddr(w + 16, raddr, rkey_be);
	opengda_mlx5_copy_bytes(seg, &hdr, 4);
	opengda_mlx5_copy_bytes(seg + 4, data, len);
	opengda_mlx5_copy_bytes(&lo, seg, 8);
	opengda_mlx5_copy_bytes(&hi, seg + 8, 8);
	ogda_dev_store_seg(w + 32, lo, hi);
	if (len > 12) {
		opengda_mlx5_copy_bytes(&lo, seg + 16, 8);
		opengda_mlx5_copy_bytes(&hi, seg + 24, 8);
		ogda_dev_store_seg(w + 48, lo, hi);
	}
}

/** Standard 8-byte atomic (ATOMIC_FA: @p swap_add is the addend; ATOMIC_CS). One WQEBB. */
OGDA_DEV_FN void ogda_dev_wqe_atomic(const struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe,
				     uint64_t idx, uint8_t opcode, uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey_be,
				     uint64_t laddr, uint32_t lkey_be, uint64_t swap_add, uint64_t compare)
{
	uint8_t *w = (uint8_t *)wqe;

	ogda_dev_store_seg(w, ogda_dev_ctrl_lo(idx, opcode, 0, ogda_dev_qpn_ds(qp, 4)), ogda_dev_ctrl_hi(fm_ce_se, 0));
	ogda_dev_store_raddr(w + 16, raddr, rkey_be);
	ogda_dev_store_seg(w + 32, opengda_mlx5_htobe64(swap_add), opengda_mlx5_htobe64(compare));
	ogda_dev_store_dseg(w + 48, laddr, lkey_be, 8);
}

/** The ring as opengda_mlx5.h's recipes see it. */
OGDA_DEV_FN struct opengda_mlx5_sq ogda_dev_mlx5_sq(const struct doca_gpu_dev_verbs_qp *qp)
{
	struct opengda_mlx5_sq sq;

	sq.ring = qp->sq_wqe_daddr;
	sq.log_wqebbs = qp->sq_log_wqe_num;
	sq.qpn = qp->sq_num;
	return sq;
}

/** NOP. One WQEBB. */
OGDA_DEV_FN void ogda_dev_wqe_nop(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, uint8_t fm_ce_se)
{
	struct opengda_mlx5_sq sq = ogda_dev_mlx5_sq(qp);

	(void)opengda_mlx5_wqe_nop(&sq, (uint16_t)idx, fm_ce_se, 1);
}

/** Local DUMP of one byte (makes earlier RDMA READ data visible before its completion). */
OGDA_DEV_FN void ogda_dev_wqe_dump(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, uint8_t fm_ce_se,
				   uint64_t addr, uint32_t lkey_be, uint32_t len)
{
	struct opengda_mlx5_sq sq = ogda_dev_mlx5_sq(qp);

	(void)opengda_mlx5_wqe_dump(&sq, (uint16_t)idx, fm_ce_se, addr, opengda_mlx5_be32toh(lkey_be), len);
}

/** Cross-channel WAIT until CQ @p cqn has produced its CQE number @p max_index. One WQEBB. */
OGDA_DEV_FN void ogda_dev_wqe_wait(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, uint8_t fm_ce_se,
				   uint32_t cqn, uint32_t max_index)
{
	struct opengda_mlx5_sq sq = ogda_dev_mlx5_sq(qp);

	(void)opengda_mlx5_wqe_wait_cq(&sq, (uint16_t)idx, fm_ce_se, cqn, max_index);
}

/**
 * Masked (extended) atomic of 4 or 8 bytes. FA: @p value is the addend, @p value_mask the field
 * boundary. CS: @p value is the swap value, @p compare the compare value, with their masks.
 * The 8-byte masked CS spans two WQEBBs; every other form one.
 * @return WQEBBs used.
 */
OGDA_DEV_FN uint32_t ogda_dev_wqe_atomic_ext(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, uint8_t opcode,
					     uint32_t bytes, uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey_be,
					     uint64_t laddr, uint32_t lkey_be, uint64_t value, uint64_t compare,
					     uint64_t value_mask, uint64_t compare_mask)
{
	struct opengda_mlx5_sq sq = ogda_dev_mlx5_sq(qp);
	uint32_t rkey = opengda_mlx5_be32toh(rkey_be), lkey = opengda_mlx5_be32toh(lkey_be);
	uint16_t i = (uint16_t)idx;

	if (opcode == OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA) {
		if (bytes == 4)
			(void)opengda_mlx5_wqe_masked_fa4(&sq, i, fm_ce_se, raddr, rkey, (uint32_t)value,
							  (uint32_t)value_mask, laddr, lkey);
		else
			(void)opengda_mlx5_wqe_masked_fa8(&sq, i, fm_ce_se, raddr, rkey, value, value_mask, laddr, lkey);
		return 1;
	}
	if (bytes == 4) {
		(void)opengda_mlx5_wqe_masked_cs4(&sq, i, fm_ce_se, raddr, rkey, (uint32_t)compare, (uint32_t)value,
						  (uint32_t)compare_mask, (uint32_t)value_mask, laddr, lkey);
		return 1;
	}
	(void)opengda_mlx5_wqe_masked_cs8(&sq, i, fm_ce_se, raddr, rkey, compare, value, compare_mask, value_mask, laddr,
					  lkey);
	return 2;
}

#endif /* OGDA_DEV_WQE_H */
