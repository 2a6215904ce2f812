/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_send.h
 * @brief Two-sided sends of the device data path (C core; CUDA and host threads): the SEND /
 *        SEND_IMM WQE builder, and send and recv_wait on top of the send-queue protocol.
 *
 * Sends are posted exactly as the one-sided operations are (ogda_dev_ops.h: ogda_dev_post_begin,
 * ogda_dev_post_end, hence ogda_dev_sq.h's reservation, readiness and doorbell): only the WQE
 * differs. A SEND is one WQEBB: ctrl and up to three data segments (no segment: a message of
 * zero bytes, with SEND_IMM "an immediate without data").
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_SEND_H
#define OGDA_DEV_SEND_H

#include "ogda_dev_ops.h"
#include "ogda_dev_rq.h"

/** Largest number of gather entries of a device SEND (ctrl + 3 data segments = one WQEBB). */
#define OGDA_DEV_SEND_MAX_SGE 3u

/** One gather entry of a SEND: address, big-endian lkey, length. */
struct ogda_dev_sge {
	uint64_t addr;
	uint32_t lkey_be;
	uint32_t bytes;
};

/**
 * SEND or SEND_IMM (@p opcode) gathering @p nsge (0 to 3) entries; @p imm_be is written to the
 * ctrl segment as given (network order). One WQEBB.
 */
OGDA_DEV_FN void ogda_dev_wqe_send(const struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe,
				   uint64_t idx, uint8_t opcode, uint8_t fm_ce_se, uint32_t imm_be,
				   const struct ogda_dev_sge *sge, uint32_t nsge)
{
	uint8_t *w = (uint8_t *)wqe;
	uint32_t k;

	if (nsge > OGDA_DEV_SEND_MAX_SGE)
		nsge = OGDA_DEV_SEND_MAX_SGE;
	ogda_dev_store_seg(w, ogda_dev_ctrl_lo(idx, opcode, 0, ogda_dev_qpn_ds(qp, 1u + nsge)),
			   ogda_dev_ctrl_hi(fm_ce_se, imm_be));
	for (k = 0; k < nsge; k++)
		ogda_dev_store_dseg(w + 16 * (k + 1), sge[k].addr, sge[k].lkey_be, sge[k].bytes);
}

/** SENDs of @p size bytes at @p laddr, split in 1 GiB messages (0 bytes: one empty SEND). */
OGDA_DEV_FN uint32_t ogda_dev_prep_send(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx,
					struct doca_gpu_dev_verbs_addr laddr, uint64_t size)
{
	uint32_t n = ogda_dev_xfer_nwqe(size), k;

	for (k = 0; k < n; k++) {
		uint64_t off = (uint64_t)k * OGDA_DEV_MAX_MSG;
		struct ogda_dev_sge s;

		s.addr = laddr.addr + off;
		s.lkey_be = laddr.key;
		s.bytes = (uint32_t)(size - off < OGDA_DEV_MAX_MSG ? size - off : OGDA_DEV_MAX_MSG);
		ogda_dev_wqe_send(qp, ogda_dev_wqe_ptr(qp, idx + k), idx + k, OPENGDA_MLX5_OPCODE_SEND, OGDA_DEV_CQ_UPDATE,
				  0, &s, size == 0 ? 0u : 1u);
	}
	return n;
}

/** send (thread scope): @p size bytes at @p laddr as one message per GiB; ticket = last WQE. */
OGDA_DEV_FN int ogda_dev_op_send(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr laddr, uint64_t size,
				 int sharing, uint32_t handler, uint32_t code_opt, uint64_t *ticket)
{
	uint32_t n = ogda_dev_xfer_nwqe(size);
	uint64_t base;
	int rc = ogda_dev_post_begin(qp, n, sharing, handler, code_opt, &base);

	ogda_dev_set_ticket(ticket, base + n - 1);
	if (rc != 0)
		return rc;
	ogda_dev_prep_send(qp, base, laddr, size);
	ogda_dev_post_end(qp, base, n, sharing, handler, code_opt);
	return 0;
}

/** send_imm (thread scope, OpenGDA): one SEND_IMM of @p nsge entries carrying @p imm_be. */
OGDA_DEV_FN int ogda_dev_op_send_imm(struct doca_gpu_dev_verbs_qp *qp, const struct ogda_dev_sge *sge, uint32_t nsge,
				     uint32_t imm_be, int sharing, uint32_t handler, uint32_t code_opt, uint64_t *ticket)
{
	uint64_t base;
	int rc = ogda_dev_post_begin(qp, 1, sharing, handler, code_opt, &base);

	ogda_dev_set_ticket(ticket, base);
	if (rc != 0)
		return rc;
	ogda_dev_wqe_send(qp, ogda_dev_wqe_ptr(qp, base), base, OPENGDA_MLX5_OPCODE_SEND_IMM, OGDA_DEV_CQ_UPDATE, imm_be,
			  sge, nsge);
	ogda_dev_post_end(qp, base, 1, sharing, handler, code_opt);
	return 0;
}

/**
 * The memory-consistency fence of a receive ("MCST", for GPUs that do not order the NIC's writes
 * before its CQE): a signaled one-byte DUMP of @p daddr on the send queue, waited for. Its
 * completion means every earlier write of the NIC to this GPU is visible.
 */
OGDA_DEV_FN int ogda_dev_op_dump_fence(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr daddr,
				       int sharing, uint32_t handler)
{
	uint64_t base;
	int rc = ogda_dev_post_begin(qp, 1, sharing, handler, 0, &base);

	if (rc != 0)
		return rc;
	ogda_dev_wqe_dump(qp, base, OGDA_DEV_CQ_UPDATE, daddr.addr, daddr.key, 1);
	ogda_dev_post_end(qp, base, 1, sharing, handler, 0);
	return ogda_dev_qp_wait_index(qp, base, sharing);
}

/**
 * recv_wait: waits for receive @p idx (own RQ) and returns its CQE in @p cqe (optional, also on
 * an error completion). With @p dump, once the receive has completed, the DUMP fence
 * (ogda_dev_op_dump_fence): the NIC's writes of the message are then visible, whatever the GPU's
 * ordering of them against the CQE. With @p blocking 0, one look: OPENGDA_DEV_EBUSY when not
 * there yet.
 */
OGDA_DEV_FN int ogda_dev_op_recv_wait(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr daddr,
				      uint64_t idx, int dump, int blocking, int sharing, uint32_t handler,
				      struct opengda_mlx5_cqe64 **cqe)
{
	int rc = blocking ? ogda_dev_recv_wait_index(qp, idx, sharing) : ogda_dev_cq_poll_one_at(&qp->cq_rq, idx, sharing);

	if (rc == OPENGDA_DEV_EBUSY || rc == -OPENGDA_DEV_ETIMEDOUT)
		return rc;
	if (cqe != 0)
		*cqe = ogda_dev_recv_cqe(qp, idx);
	if (rc == 0 && dump)
		rc = ogda_dev_op_dump_fence(qp, daddr, sharing, handler);
	return rc;
}

#endif /* OGDA_DEV_SEND_H */
