/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device copy of an exported QP's view (get_qp_dev) and the OpenGDA accessors of an
 * exported QP. The copy is made once; afterwards only the wait bound is rewritten when it
 * changes, because device code keeps its indices in that copy.
 */
#include "gpunetio/gverbs_qp.h"

#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"
#include "sdk/sdk_forward.h"

#include <stddef.h>

#define DEV_QP_ALIGN 64u

doca_error_t gverbs_qp_sync_dev(struct doca_gpu_verbs_qp *gq)
{
	doca_error_t err;

	if (gq->qp_gpu == NULL)
		return DOCA_SUCCESS;
	err = ogda_gpu_copy_to_dev(gq->gpu, gq->qp_gpu, &gq->qp_cpu, sizeof(gq->qp_cpu));
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("QP 0x%x: cannot write the device QP: %s", gq->qp_cpu.sq_num, doca_error_get_descr(err));
		return err;
	}
	gq->qp_gpu_timeout_ns = gq->qp_cpu.ogda_wait_timeout_ns;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_verbs_get_qp_dev(struct doca_gpu_verbs_qp *qp, struct doca_gpu_dev_verbs_qp **qp_gpu)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_get_qp_dev, (qp, qp_gpu));
	const size_t qp_off = offsetof(struct doca_gpu_dev_verbs_qp, ogda_wait_timeout_ns);
	const size_t cq_off = offsetof(struct doca_gpu_dev_verbs_qp, cq_sq) +
			      offsetof(struct doca_gpu_dev_verbs_cq, ogda_wait_timeout_ns);
	const size_t cq_rq_off = offsetof(struct doca_gpu_dev_verbs_qp, cq_rq) +
				 offsetof(struct doca_gpu_dev_verbs_cq, ogda_wait_timeout_ns);
	const uint64_t t = qp != NULL ? qp->qp_cpu.ogda_wait_timeout_ns : 0;
	void *dev = NULL;
	doca_error_t err;

	if (qp == NULL || qp_gpu == NULL) {
		OGDA_LOG_ERR("get_qp_dev: NULL %s", qp == NULL ? "QP" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->qp_gpu == NULL) {
		err = doca_gpu_mem_alloc(qp->gpu, sizeof(qp->qp_cpu), DEV_QP_ALIGN, DOCA_GPU_MEM_TYPE_GPU, &dev, NULL);
		if (err != DOCA_SUCCESS) {
			OGDA_LOG_ERR("get_qp_dev: QP 0x%x: cannot allocate the device QP", qp->qp_cpu.sq_num);
			return err;
		}
		qp->qp_gpu = dev;
		err = gverbs_qp_sync_dev(qp);
		if (err != DOCA_SUCCESS) {
			(void)doca_gpu_mem_free(qp->gpu, qp->qp_gpu);
			qp->qp_gpu = NULL;
			return err;
		}
	} else if (qp->qp_gpu_timeout_ns != qp->qp_cpu.ogda_wait_timeout_ns) {
		/* Only the bound changes (QP and CQ copies): the indices device code keeps stay as they are. */
		err = ogda_gpu_copy_to_dev(qp->gpu, (uint8_t *)qp->qp_gpu + qp_off, &t, sizeof(t));
		if (err == DOCA_SUCCESS)
			err = ogda_gpu_copy_to_dev(qp->gpu, (uint8_t *)qp->qp_gpu + cq_off, &t, sizeof(t));
		if (err == DOCA_SUCCESS)
			err = ogda_gpu_copy_to_dev(qp->gpu, (uint8_t *)qp->qp_gpu + cq_rq_off, &t, sizeof(t));
		if (err != DOCA_SUCCESS) {
			OGDA_LOG_ERR("get_qp_dev: QP 0x%x: cannot update the wait timeout", qp->qp_cpu.sq_num);
			return err;
		}
		qp->qp_gpu_timeout_ns = qp->qp_cpu.ogda_wait_timeout_ns;
	}
	*qp_gpu = qp->qp_gpu;
	return DOCA_SUCCESS;
}

doca_error_t opengda_gpu_verbs_qp_set_wait_timeout(struct doca_gpu_verbs_qp *qp, uint64_t timeout_ns)
{
	if (qp == NULL) {
		OGDA_LOG_ERR("qp_set_wait_timeout: NULL QP");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Waits on the CQ read the bound there: both copies follow. */
	qp->qp_cpu.ogda_wait_timeout_ns = timeout_ns;
	qp->qp_cpu.cq_sq.ogda_wait_timeout_ns = timeout_ns;
	qp->qp_cpu.cq_rq.ogda_wait_timeout_ns = timeout_ns;
	return DOCA_SUCCESS;
}

doca_error_t opengda_gpu_verbs_qp_get_nic_handler(const struct doca_gpu_verbs_qp *qp,
						  enum doca_gpu_dev_verbs_nic_handler *nic_handler)
{
	if (qp == NULL || nic_handler == NULL) {
		OGDA_LOG_ERR("qp_get_nic_handler: NULL %s", qp == NULL ? "QP" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*nic_handler = qp->nic_handler;
	return DOCA_SUCCESS;
}

doca_error_t opengda_gpu_verbs_qp_get_verbs_qp(const struct doca_gpu_verbs_qp *qp, struct doca_verbs_qp **verbs_qp)
{
	if (qp == NULL || verbs_qp == NULL) {
		OGDA_LOG_ERR("qp_get_verbs_qp: NULL %s", qp == NULL ? "QP" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*verbs_qp = qp->qp;
	return DOCA_SUCCESS;
}

doca_error_t opengda_gpu_verbs_qp_has_own_service(const struct doca_gpu_verbs_qp *qp, bool *has_service)
{
	if (qp == NULL || has_service == NULL) {
		OGDA_LOG_ERR("qp_has_own_service: NULL %s", qp == NULL ? "QP" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*has_service = qp->own_service != NULL;
	return DOCA_SUCCESS;
}
