/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side of an exported QP (two-sided receives posted by device code): its receive
 * queue, the receive half of its doorbell record and its receive CQ, made reachable for the
 * executing threads, and the receive block of struct doca_gpu_dev_verbs_qp (rq_*, cq_rq).
 *
 * Device code tracks receive completions by index (receive i completes as CQE i of the receive
 * CQ, include/device/ogda_dev_rq.h), so the receive CQ must be the QP's alone (not its send CQ),
 * not collapsed, with one entry per receive WQE; the RQ must be fresh (nothing posted).
 */
#include "gpunetio/gverbs_qp.h"

#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda_mlx5.h"
#include "verbs/verbs_priv.h"
#include "verbs/verbs_util.h"

#include <stdatomic.h>

doca_error_t gverbs_rq_check(const struct doca_verbs_qp *qp, const struct doca_verbs_cq *cq_sq,
			     const struct doca_verbs_cq *cq_rq)
{
	uint32_t dbr_rcv = 0, nwqe;

	if (cq_rq == NULL)
		return DOCA_SUCCESS;
	nwqe = qp->init.srq != NULL ? qp->init.srq->nwqe : qp->rq_wqes;
	if (qp->init.srq == NULL && (qp->rq == NULL || qp->rq_wqes == 0)) {
		OGDA_LOG_ERR("export_qp: QP 0x%x has no receive queue (rq_wr 0) and no SRQ", qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->init.receive_cq != cq_rq || cq_rq == cq_sq) {
		OGDA_LOG_ERR("export_qp: CQ 0x%x is not a receive CQ of QP 0x%x of its own (device code counts receive "
			     "completions by index: the receive CQ must not be the send CQ)", cq_rq->cqn, qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cq_rq->cqe_size != OPENGDA_MLX5_SEND_WQE_BB || cq_rq->attr.collapsed || cq_rq->ncqe < nwqe) {
		OGDA_LOG_ERR("export_qp: receive CQ 0x%x of QP 0x%x needs 64-byte CQEs, no collapse and at least %u "
			     "entries (one per receive WQE); it has %u-byte CQEs, %u entries%s", cq_rq->cqn, qp->qpn,
			     nwqe, cq_rq->cqe_size, cq_rq->ncqe, cq_rq->attr.collapsed ? ", collapsed" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->init.srq != NULL)
		return DOCA_SUCCESS; /* the SRQ's freshness is export_srq's business */
	if (qp->dbr != NULL &&
	    verbs_mem_read(&dbr_rcv, &qp->dbr[OPENGDA_MLX5_RCV_DBR], sizeof(dbr_rcv)) != DOCA_SUCCESS)
		return DOCA_ERROR_DRIVER;
	if (qp->dbr == NULL || qp->rq_pi != 0 || dbr_rcv != 0) {
		OGDA_LOG_ERR("export_qp: QP 0x%x: %s", qp->qpn,
			     qp->dbr == NULL ? "no doorbell record for its receive queue"
					     : "receives were posted already: export a fresh QP");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t gverbs_rq_build(struct doca_gpu_verbs_qp *gq)
{
	struct doca_gpu_dev_verbs_qp *v = &gq->qp_cpu;
	struct doca_verbs_qp *qp = gq->qp;
	struct doca_verbs_cq *cq = gq->cq_rq;
	void *rq_dev = NULL, *dbr_dev = NULL, *cq_dev = NULL, *cq_dbr_dev = NULL;
	doca_error_t err;

	if (cq == NULL)
		return DOCA_SUCCESS;
	err = gverbs_map_queue(gq, cq->ring, (size_t)cq->ncqe * cq->cqe_size, "receive CQ ring", &gq->cq_rq_map, &cq_dev);
	if (err == DOCA_SUCCESS)
		err = gverbs_map_queue(gq, cq->dbr, 2 * sizeof(uint32_t), "receive CQ doorbell record", &gq->cq_rq_dbr_map,
				       &cq_dbr_dev);
	if (err != DOCA_SUCCESS)
		return err;
	/* On an SRQ only the completions are the QP's: the receive block stays empty. */
	if (qp->init.srq != NULL)
		goto cq_view;
	err = gverbs_map_queue(gq, qp->rq, (size_t)qp->rq_wqes * qp->rq_stride, "receive queue", &gq->rq_map, &rq_dev);
	if (err == DOCA_SUCCESS)
		err = gverbs_map_queue(gq, qp->dbr, 2 * sizeof(uint32_t), "doorbell record", &gq->rq_dbr_map, &dbr_dev);
	if (err != DOCA_SUCCESS)
		return err;
	v->rq_num = qp->qpn;
	v->rq_wqe_num = qp->rq_wqes;
	v->rq_wqe_mask = qp->rq_wqes - 1u;
	v->rq_wqe_daddr = rq_dev;
	v->rq_dbrec = (uint32_t *)dbr_dev + OPENGDA_MLX5_RCV_DBR;
	v->rcv_wqe_size = qp->rq_stride;
cq_view:
	gverbs_fill_cq_view(gq->gpu, &v->cq_rq, cq, cq_dev, cq_dbr_dev);
	v->cq_rq.ogda_wait_timeout_ns = v->ogda_wait_timeout_ns;
	atomic_fetch_add(&cq->gpu_exports, 1);
	return DOCA_SUCCESS;
}

void gverbs_rq_release(struct doca_gpu_verbs_qp *gq)
{
	gverbs_unmap(gq, &gq->rq_map);
	gverbs_unmap(gq, &gq->rq_dbr_map);
	gverbs_unmap(gq, &gq->cq_rq_map);
	gverbs_unmap(gq, &gq->cq_rq_dbr_map);
	if (gq->cq_rq != NULL && gq->qp_cpu.cq_rq.cqe_num != 0) {
		atomic_fetch_sub(&gq->cq_rq->gpu_exports, 1);
		gq->qp_cpu.cq_rq.cqe_num = 0;
	}
}
