/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side of a doca_rdma: one CONTIGUOUS SRQ and one receive CQ shared by every
 * connection's QP, so that device code posts receives without naming a connection (as DOCA's
 * doca_gpu_dev_rdma_recv_* take none) and a send or write with immediate arriving on any
 * connection consumes the next posted receive.
 *
 * Why this works with device code counting completions by index (ogda_dev_rdma.h): the NIC takes
 * the SRQ's WQEs in ring order, and every take is followed by a CQE on the shared CQ, so when CQE
 * number k exists at least k + 1 WQEs have been taken and WQE k is free to be written again. The
 * CQE names the QP it arrived on, which device code maps to the connection index (the handle's
 * QPN table). The CQ has one entry per SRQ WQE and ignores overrun.
 *
 * Both live in the library's queue memory (host memory, made reachable for the executing threads
 * when they are a GPU's); on a ConnectX a GPU reads them across PCIe. Receives are not the hot
 * path of this API (sends and writes are, on GPU-memory queues).
 */
#include "rdma/rdma_priv.h"

#include "gpunetio/gpunetio_priv.h"
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "opengda_gpunetio.h"

static doca_error_t srq_make(struct doca_rdma *r)
{
	struct doca_verbs_srq_init_attr *a = NULL;
	doca_error_t err = doca_verbs_srq_init_attr_create(&a);

	if (err != DOCA_SUCCESS)
		return err;
	if ((err = doca_verbs_srq_init_attr_set_srq_wr(a, r->rq_size)) == DOCA_SUCCESS &&
	    (err = doca_verbs_srq_init_attr_set_receive_max_sges(a, 1)) == DOCA_SUCCESS &&
	    (err = doca_verbs_srq_init_attr_set_type(a, DOCA_VERBS_SRQ_TYPE_CONTIGUOUS)) == DOCA_SUCCESS &&
	    (err = doca_verbs_srq_init_attr_set_pd(a, r->pd)) == DOCA_SUCCESS)
		err = doca_verbs_srq_create(r->pd->ctx, a, &r->srq);
	(void)doca_verbs_srq_init_attr_destroy(a);
	return err;
}

static doca_error_t cq_make(struct doca_rdma *r, uint32_t ncqe)
{
	struct doca_verbs_cq_attr *a = NULL;
	doca_error_t err = doca_verbs_cq_attr_create(&a);

	if (err != DOCA_SUCCESS)
		return err;
	if ((err = doca_verbs_cq_attr_set_cq_size(a, ncqe)) == DOCA_SUCCESS &&
	    (err = doca_verbs_cq_attr_set_cq_overrun(a, DOCA_VERBS_CQ_ENABLE_OVERRUN)) == DOCA_SUCCESS)
		err = doca_verbs_cq_create(r->pd->ctx, a, &r->recv_cq);
	(void)doca_verbs_cq_attr_destroy(a);
	return err;
}

doca_error_t rdma_recv_create(struct doca_rdma *r)
{
	doca_error_t err = srq_make(r);

	if (err == DOCA_SUCCESS)
		err = cq_make(r, r->srq->nwqe); /* the SRQ rounded rq_size up: one CQE per WQE */
	if (err == DOCA_SUCCESS)
		err = opengda_gpu_verbs_export_srq(r->ctx.gpu, r->srq, &r->srq_export);
	if (err == DOCA_SUCCESS)
		err = opengda_gpu_verbs_srq_set_wait_timeout(r->srq_export, r->wait_timeout_ns);
	if (err == DOCA_SUCCESS)
		err = opengda_gpu_verbs_get_srq_dev(r->srq_export, &r->srq_dev);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("rdma: cannot make the shared receive queue (%u receives): %s", r->rq_size,
			     doca_error_get_descr(err));
	return err;
}

void rdma_recv_destroy(struct doca_rdma *r)
{
	if (r->srq_export != NULL)
		(void)opengda_gpu_verbs_unexport_srq(r->ctx.gpu, r->srq_export);
	r->srq_export = NULL;
	r->srq_dev = NULL;
	if (r->srq != NULL)
		(void)doca_verbs_srq_destroy(r->srq);
	r->srq = NULL;
	if (r->recv_cq != NULL)
		(void)doca_verbs_cq_destroy(r->recv_cq);
	r->recv_cq = NULL;
}
