/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU proxy: device code publishes its producer index (a monotonic 64-bit count of WQEBBs)
 * in the QP's mailbox and the CPU turns it into NIC doorbells.
 *
 *   CPU_PROXY            record (unless DBR-less), then the 8-byte doorbell {pi << 8, qpn << 8}.
 *   NO_DBR_SW_EMULATED   device code rang already; the CPU brings the record up to date and
 *                        rings once more, so a NIC that recovers from the record finds it current.
 *
 * Order: the mailbox is read with acquire (it publishes the WQE stores), the record and the
 * register are written with release stores fenced on both sides, which is what the software
 * NIC's engine (acquire loads) and a write-combining UAR mapping each need.
 */
#include "gpunetio/gverbs_qp.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "verbs/verbs_util.h"
#include "sdk/sdk_forward.h"

bool ogda_proxy_ring_once(const uint64_t *mailbox, uint32_t *dbr, uint64_t *reg, uint32_t sqn, uint64_t *last_pi)
{
	uint64_t pi = __atomic_load_n(mailbox, __ATOMIC_ACQUIRE);

	if (pi <= *last_pi)
		return false;
	if (dbr != NULL)
		__atomic_store_n(dbr, opengda_mlx5_qp_dbr_value((uint32_t)pi), __ATOMIC_RELEASE);
	VERBS_MMIO_FENCE();
	__atomic_store_n(reg, opengda_mlx5_qp_uar_db_value((uint16_t)pi, sqn), __ATOMIC_RELEASE);
	VERBS_MMIO_FENCE();
	*last_pi = pi;
	return true;
}

void gverbs_proxy_step(struct doca_gpu_verbs_qp *gq, bool *progressed)
{
	bool rang;

	pthread_mutex_lock(&gq->proxy_lock);
	rang = ogda_proxy_ring_once(gq->mailbox_cpu, gq->dbr_send_cpu, gq->db_reg_cpu, gq->qp_cpu.sq_num, &gq->last_pi);
	if (rang)
		gq->rings++;
	pthread_mutex_unlock(&gq->proxy_lock);
	if (progressed != NULL)
		*progressed = rang;
}

void gverbs_proxy_rewind(struct doca_gpu_verbs_qp *gq)
{
	pthread_mutex_lock(&gq->proxy_lock);
	if (gq->mailbox_cpu != NULL)
		__atomic_store_n(gq->mailbox_cpu, 0, __ATOMIC_RELEASE);
	gq->last_pi = 0;
	pthread_mutex_unlock(&gq->proxy_lock);
}

uint64_t gverbs_proxy_rings(struct doca_gpu_verbs_qp *gq)
{
	uint64_t n;

	pthread_mutex_lock(&gq->proxy_lock);
	n = gq->rings;
	pthread_mutex_unlock(&gq->proxy_lock);
	return n;
}

doca_error_t doca_gpu_verbs_cpu_proxy_progress(struct doca_gpu_verbs_qp *qp, bool *out_progressed)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_cpu_proxy_progress, (qp, out_progressed));
	if (out_progressed != NULL)
		*out_progressed = false;
	if (qp == NULL) {
		OGDA_LOG_ERR("cpu_proxy_progress: NULL QP");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!gverbs_qp_needs_proxy(qp)) {
		OGDA_LOG_ERR("cpu_proxy_progress: QP 0x%x has handler %d and rings its own doorbells: no proxy needed",
			     qp->qp_cpu.sq_num, (int)qp->nic_handler);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	gverbs_proxy_step(qp, out_progressed);
	return DOCA_SUCCESS;
}
