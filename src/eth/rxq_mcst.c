/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MCST queue of a doca_eth_rxq (doca_eth_rxq_gpu_enable_mcst_qp): a small RC QP connected to
 * itself on the queue's device, built with the high-level Verbs export (doca_gpunetio_high_level.h)
 * on the device's library PD, the PD the packet buffer's mmap is registered on. Device code posts
 * one signaled DUMP of a byte of the packet buffer on it after a receive that got packets and
 * waits for its CQE (ogda_dev_eth_rx_mcst.h): once the NIC has executed a read of that memory,
 * its earlier writes there are visible to the GPU. A DUMP is local, so the loopback connection
 * grants the peer nothing; it only has to bring the QP to RTS.
 *
 * Why an exported Verbs QP and not a bare SQ: the send protocol of device code
 * (ogda_dev_sq.h, ogda_dev_send.h) runs on a struct doca_gpu_dev_verbs_qp, with its doorbell
 * modes (GPU_SM_DB, CPU_PROXY through doca_gpu_verbs_cpu_proxy_progress) and its bounded waits;
 * the export builds exactly that view, as doca_dma does for its copy QP.
 */
#include "eth/rxq_priv.h"

#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"
#include "verbs/verbs_priv.h"

#include "doca_gpunetio_high_level.h"
#include "opengda.h"
#include "opengda_gpunetio.h"

#include <stdbool.h>
#include <stddef.h>

/* Every DUMP is waited for before the next is posted: a few WQEBBs are plenty. */
#define MCST_SQ_WQES 8u

doca_error_t eth_rxq_mcst_create(struct doca_eth_rxq *q, struct doca_gpu_dev_verbs_qp **view)
{
	struct doca_gpu_verbs_qp_init_attr_hl a = {0};
	struct doca_gpu_verbs_qp_hl *hl = NULL;
	struct doca_verbs_pd *pd = NULL;
	const char *step = "the library PD";
	doca_error_t err;

	*view = NULL;
	err = verbs_dev_lib_pd(q->dev, &pd);
	if (err == DOCA_SUCCESS) {
		a.gpu_dev = q->ctx.gpu;
		a.verbs_pd = pd;
		a.sq_nwqe = MCST_SQ_WQES;
		a.nic_handler = q->uar_on_cpu ? DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY
					      : DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO;
		a.send_dbr_mode_ext = DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR;
		step = "the QP";
		err = doca_gpu_verbs_create_qp_hl(&a, &hl);
	}
	if (err == DOCA_SUCCESS) {
		step = "the wait bound";
		err = opengda_gpu_verbs_qp_set_wait_timeout(hl->qp_gverbs, OPENGDA_ETH_RXQ_MCST_WAIT_TIMEOUT_NS);
	}
	if (err == DOCA_SUCCESS) {
		step = "the loopback connection";
		err = verbs_qp_connect_self(pd, hl->qp, false); /* a DUMP is local: grant nothing */
	}
	if (err == DOCA_SUCCESS) {
		step = "the device view";
		err = doca_gpu_verbs_get_qp_dev(hl->qp_gverbs, view);
	}
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("eth_rxq: cannot create the MCST queue (%s): %s", step, doca_error_get_descr(err));
		if (hl != NULL)
			(void)doca_gpu_verbs_destroy_qp_hl(hl);
		*view = NULL;
		return err;
	}
	q->res.mcst = hl;
	OGDA_LOG_DBG("eth_rxq: MCST queue QP 0x%x, handler %d", (*view)->sq_num, (int)hl->nic_handler);
	return DOCA_SUCCESS;
}

void eth_rxq_mcst_destroy(struct doca_eth_rxq *q)
{
	if (q->res.mcst == NULL)
		return;
	pthread_mutex_lock(&q->proxy_lock); /* no proxy step runs on a QP that goes */
	(void)doca_gpu_verbs_destroy_qp_hl(q->res.mcst);
	q->res.mcst = NULL;
	pthread_mutex_unlock(&q->proxy_lock);
}

doca_error_t eth_rxq_mcst_progress(struct doca_eth_rxq *q)
{
	doca_error_t err = DOCA_SUCCESS;
	bool progressed = false;

	pthread_mutex_lock(&q->proxy_lock);
	if (q->res.mcst != NULL && q->res.mcst->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY)
		err = doca_gpu_verbs_cpu_proxy_progress(q->res.mcst->qp_gverbs, &progressed);
	pthread_mutex_unlock(&q->proxy_lock);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("doca_eth_rxq_gpu_cpu_proxy_progress: the MCST queue: %s", doca_error_get_descr(err));
	return err;
}
