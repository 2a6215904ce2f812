/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU data path, completion side: CQEs become ibv_wc entries the way libmlx5 fills them.
 *
 * Requester CQEs name the WQE by wqe_counter; its wr_id, ibv opcode and byte_len were
 * recorded at post time under that WQEBB index (bridge_post.c), and the WQE's ctrl
 * segment, still in the ring, gives its size so that sq_ci moves past it (one CQE also
 * retires the unsignaled WQEs before it). Responder CQEs consume the QP's receive WQEs in
 * order; for a QP with an SRQ the wr_id is the SRQ WQE index from the CQE.
 *
 * Collapsed CQs (cqc.cc) write every CQE to entry 0 and are not pollable by index: this
 * poller refuses them (-EINVAL); their users read entry 0 themselves.
 */
#include "verbs/verbs_priv.h"
#include "verbs/verbs_util.h"

#include "core/log.h"
#include "doca_verbs_bridge.h"
#include "opengda_mlx5.h"
#include "sdk/sdk_forward.h"

#include <errno.h>
#include <string.h>

/* ibv_wc_status of an error CQE syndrome, as libmlx5's mlx5_handle_error_cqe maps it. */
static enum ibv_wc_status wc_status_from_syndrome(uint8_t syndrome)
{
	switch (syndrome) {
	case OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR:
		return IBV_WC_LOC_LEN_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR:
		return IBV_WC_LOC_QP_OP_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR:
		return IBV_WC_LOC_PROT_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR:
		return IBV_WC_WR_FLUSH_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_MW_BIND_ERR:
		return IBV_WC_MW_BIND_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_BAD_RESP_ERR:
		return IBV_WC_BAD_RESP_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR:
		return IBV_WC_LOC_ACCESS_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR:
		return IBV_WC_REM_INV_REQ_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR:
		return IBV_WC_REM_ACCESS_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR:
		return IBV_WC_REM_OP_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR:
		return IBV_WC_RETRY_EXC_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR:
		return IBV_WC_RNR_RETRY_EXC_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR:
		return IBV_WC_REM_ABORT_ERR;
	default:
		return IBV_WC_GENERAL_ERR;
	}
}

static uint32_t log2_u32(uint32_t pow2)
{
	uint32_t l = 0;

	while ((1u << l) < pow2)
		l++;
	return l;
}

/* Requester completion (good or error): the WQE at wqe_counter, and everything before it, retire. */
static bool fill_requester(struct doca_verbs_qp *qp, const struct opengda_mlx5_cqe_fields *f, struct ibv_wc *wc)
{
	struct opengda_mlx5_sq sq = {.ring = qp->sq, .log_wqebbs = log2_u32(qp->sq_wqebbs), .qpn = qp->qpn};
	const struct opengda_mlx5_wqe_ctrl_seg *ctrl;
	uint32_t idx, ds;
	uint8_t op;

	if (qp->sq == NULL || qp->sq_wqebbs == 0 || qp->sq_wrid == NULL) {
		OGDA_LOG_ERR("bridge_poll_cq: requester CQE for QP 0x%x, which has no send queue", qp->qpn);
		return false;
	}
	idx = f->wqe_counter & (qp->sq_wqebbs - 1);
	ctrl = opengda_mlx5_sq_seg(&sq, f->wqe_counter, 0);
	op = opengda_mlx5_ctrl_opcode(ctrl);
	ds = opengda_mlx5_ctrl_ds(ctrl);
	wc->wr_id = qp->sq_wrid[idx];
	wc->opcode = (enum ibv_wc_opcode)qp->sq_wqe_opcode[idx];
	if (f->opcode == OPENGDA_MLX5_CQE_REQ) {
		wc->status = IBV_WC_SUCCESS;
		wc->byte_len = qp->sq_wqe_len[idx];
		if (op == OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM || op == OPENGDA_MLX5_OPCODE_SEND_IMM)
			wc->wc_flags |= IBV_WC_WITH_IMM;
	}
	__atomic_store_n(&qp->sq_ci, (uint16_t)(f->wqe_counter + opengda_mlx5_wqebbs_from_ds(ds ? ds : 1u)),
			 __ATOMIC_RELEASE);
	return true;
}

/* Responder completion (good or error): the next receive WQE of the QP, or the SRQ WQE named. */
static bool fill_responder(struct doca_verbs_qp *qp, const struct opengda_mlx5_cqe_fields *f, struct ibv_wc *wc)
{
	if (qp->init.srq != NULL) {
		wc->wr_id = f->wqe_counter;
	} else {
		uint32_t ci = __atomic_load_n(&qp->rq_ci, __ATOMIC_RELAXED);

		if (qp->rq_wrid == NULL || qp->rq_wqes == 0) {
			OGDA_LOG_ERR("bridge_poll_cq: responder CQE for QP 0x%x, which has no receive queue", qp->qpn);
			return false;
		}
		wc->wr_id = qp->rq_wrid[ci & (qp->rq_wqes - 1)];
		__atomic_store_n(&qp->rq_ci, ci + 1, __ATOMIC_RELEASE);
	}
	wc->opcode = IBV_WC_RECV;
	if (f->opcode == OPENGDA_MLX5_CQE_RESP_ERR)
		return true;
	wc->status = IBV_WC_SUCCESS;
	wc->byte_len = f->byte_cnt;
	switch (f->opcode) {
	case OPENGDA_MLX5_CQE_RESP_WR_IMM:
		wc->opcode = IBV_WC_RECV_RDMA_WITH_IMM;
		wc->wc_flags |= IBV_WC_WITH_IMM;
		wc->imm_data = opengda_mlx5_htobe32(f->imm); /* network order, as ibv reports it */
		break;
	case OPENGDA_MLX5_CQE_RESP_SEND_IMM:
		wc->wc_flags |= IBV_WC_WITH_IMM;
		wc->imm_data = opengda_mlx5_htobe32(f->imm);
		break;
	case OPENGDA_MLX5_CQE_RESP_SEND_INV:
		wc->wc_flags |= IBV_WC_WITH_INV;
		wc->invalidated_rkey = f->imm;
		break;
	default:
		break;
	}
	return true;
}

/* One CQE into *wc. False when it produced no work completion (logged; the CQE is consumed). */
static bool fill_wc(struct doca_verbs_cq *cq, const struct opengda_mlx5_cqe64 *cqe, struct ibv_wc *wc)
{
	struct opengda_mlx5_cqe_fields f;
	struct doca_verbs_qp *qp;

	opengda_mlx5_cqe_read(cqe, &f);
	if (opengda_mlx5_cqe_format(cqe) != OPENGDA_MLX5_CQE_FORMAT_NORMAL) {
		OGDA_LOG_ERR("bridge_poll_cq: CQ 0x%x: CQE format %u is not supported", cq->cqn,
			     opengda_mlx5_cqe_format(cqe));
		return false;
	}
	qp = verbs_cq_find_qp(cq, f.qpn);
	if (qp == NULL) {
		OGDA_LOG_ERR("bridge_poll_cq: CQ 0x%x: CQE for QP 0x%x, which does not complete to it", cq->cqn, f.qpn);
		return false;
	}
	memset(wc, 0, sizeof(*wc));
	wc->qp_num = qp->qpn;
	wc->src_qp = qp->cur.dest_qp_num;
	if (f.opcode == OPENGDA_MLX5_CQE_REQ_ERR || f.opcode == OPENGDA_MLX5_CQE_RESP_ERR) {
		wc->status = wc_status_from_syndrome(f.syndrome);
		wc->vendor_err = f.vendor_syndrome;
	}
	switch (f.opcode) {
	case OPENGDA_MLX5_CQE_REQ:
	case OPENGDA_MLX5_CQE_REQ_ERR:
		return fill_requester(qp, &f, wc);
	case OPENGDA_MLX5_CQE_RESP_WR_IMM:
	case OPENGDA_MLX5_CQE_RESP_SEND:
	case OPENGDA_MLX5_CQE_RESP_SEND_IMM:
	case OPENGDA_MLX5_CQE_RESP_SEND_INV:
	case OPENGDA_MLX5_CQE_RESP_ERR:
		return fill_responder(qp, &f, wc);
	default:
		OGDA_LOG_ERR("bridge_poll_cq: CQ 0x%x: CQE opcode %u is not supported", cq->cqn, f.opcode);
		return false;
	}
}

int doca_verbs_bridge_poll_cq(struct doca_verbs_cq *verbs_cq, int num_entries, struct ibv_wc *ibv_wc)
{
	OGDA_SDK_FORWARD(doca_verbs_bridge_poll_cq, (verbs_cq, num_entries, ibv_wc));
	uint32_t consumed = 0;
	int n = 0;

	if (verbs_cq == NULL || ibv_wc == NULL || num_entries < 0) {
		OGDA_LOG_ERR("bridge_poll_cq: %s", verbs_cq == NULL ? "NULL CQ"
						   : ibv_wc == NULL ? "NULL ibv_wc array" : "negative num_entries");
		return -EINVAL;
	}
	if (verbs_cq->attr.collapsed) {
		OGDA_LOG_ERR("bridge_poll_cq: CQ 0x%x is collapsed (every CQE in entry 0): read entry 0 instead",
			     verbs_cq->cqn);
		return -EINVAL;
	}
	if (verbs_cq->ring == NULL || verbs_cq->ncqe == 0 || verbs_cq->dbr == NULL ||
	    (verbs_cq->cqe_size != 64 && verbs_cq->cqe_size != 128)) {
		OGDA_LOG_ERR("bridge_poll_cq: CQ 0x%x has no CQE ring", verbs_cq->cqn);
		return -EINVAL;
	}
	if ((verbs_cq->attr.umem != NULL &&
	     !verbs_cpu_accessible(verbs_cq->ring, (size_t)verbs_cq->ncqe * verbs_cq->cqe_size)) ||
	    (verbs_cq->attr.dbr_umem != NULL && !verbs_cpu_accessible(verbs_cq->dbr, 8))) {
		OGDA_LOG_ERR("bridge_poll_cq: CQ 0x%x has its ring or doorbell record in GPU memory: use the GPU data path",
			     verbs_cq->cqn);
		return -EINVAL;
	}
	while (n < num_entries) {
		/* A 128-byte entry carries its 64-byte CQE in the second half. */
		const struct opengda_mlx5_cqe64 *cqe = (const struct opengda_mlx5_cqe64 *)(const void *)(
			verbs_cq->ring + (size_t)(verbs_cq->ci & (verbs_cq->ncqe - 1)) * verbs_cq->cqe_size +
			(verbs_cq->cqe_size - sizeof(struct opengda_mlx5_cqe64)));

		/* Acquire: the fields before the owner byte are read after it. */
		if (!opengda_mlx5_op_own_is_sw_owned(__atomic_load_n(&cqe->op_own, __ATOMIC_ACQUIRE), verbs_cq->ci,
						     verbs_cq->log_ncqe))
			break;
		if (fill_wc(verbs_cq, cqe, &ibv_wc[n]))
			n++;
		verbs_cq->ci = opengda_mlx5_cq_ci_next(verbs_cq->ci);
		consumed++;
	}
	if (consumed != 0)
		__atomic_store_n(&verbs_cq->dbr[OPENGDA_MLX5_CQ_SET_CI], opengda_mlx5_cq_dbr_set_ci_value(verbs_cq->ci),
				 __ATOMIC_RELEASE);
	return n;
}
