/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exporting a contiguous SRQ to device code (OpenGDA; the DOCA SDK exports none): its ring and
 * doorbell record made reachable for the executing threads, and struct opengda_gpu_dev_verbs_srq
 * (include/doca_gpunetio_verbs_dev.h) built on the host and copied to the device once.
 *
 * Only CONTIGUOUS SRQs: device code posts in ring order (ogda_dev_rq.h), which a linked-list
 * SRQ does not follow. An export counts as a user of the SRQ, so doca_verbs_srq_destroy()
 * refuses (IN_USE) until it is unexported.
 */
#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"
#include "doca_gpunetio_verbs_dev.h"
#include "opengda_gpunetio.h"
#include "opengda_mlx5.h"
#include "verbs/verbs_priv.h"

#include <stdatomic.h>
#include <stdlib.h>

#define DEV_SRQ_ALIGN 64u

struct opengda_gpu_verbs_srq {
	struct doca_gpu *gpu;
	struct doca_verbs_srq *srq;
	struct opengda_gpu_dev_verbs_srq view;     /* host copy */
	struct opengda_gpu_dev_verbs_srq *view_dev; /* device copy (get_srq_dev) */
	void *ring_host, *dbr_host;                /* host ranges mapped (NULL: used as is) */
};

/* Host memory is mapped for the executing threads; device memory is used as is. */
static doca_error_t map_range(struct opengda_gpu_verbs_srq *e, void *addr, size_t len, void **host, void **dev)
{
	doca_error_t err;

	if (ogda_gpu_is_device_ptr(e->gpu, addr)) {
		*dev = addr;
		return DOCA_SUCCESS;
	}
	err = ogda_gpu_map_host(e->gpu, addr, len, dev);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("export_srq: SRQ 0x%x: cannot make %zu bytes at %p reachable for the GPU: %s", e->srq->srqn,
			     len, addr, doca_error_get_descr(err));
		return err;
	}
	*host = addr;
	return DOCA_SUCCESS;
}

static void release(struct opengda_gpu_verbs_srq *e)
{
	if (e->ring_host != NULL && ogda_gpu_unmap_host(e->gpu, e->ring_host) != DOCA_SUCCESS)
		OGDA_LOG_ERR("unexport_srq: SRQ 0x%x: could not release the ring mapping", e->srq->srqn);
	if (e->dbr_host != NULL && ogda_gpu_unmap_host(e->gpu, e->dbr_host) != DOCA_SUCCESS)
		OGDA_LOG_ERR("unexport_srq: SRQ 0x%x: could not release the record mapping", e->srq->srqn);
	if (e->view_dev != NULL && doca_gpu_mem_free(e->gpu, e->view_dev) != DOCA_SUCCESS)
		OGDA_LOG_ERR("unexport_srq: SRQ 0x%x: could not free the device view", e->srq->srqn);
}

static doca_error_t check_srq(struct doca_verbs_srq *srq)
{
	uint32_t producer = 0;

	if (srq->init.type != DOCA_VERBS_SRQ_TYPE_CONTIGUOUS) {
		OGDA_LOG_ERR("export_srq: SRQ 0x%x is a linked-list SRQ; device code refills CONTIGUOUS SRQs only",
			     srq->srqn);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (srq->ring == NULL || srq->dbr == NULL || srq->nwqe == 0) {
		OGDA_LOG_ERR("export_srq: SRQ 0x%x has no ring or doorbell record", srq->srqn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (verbs_mem_read(&producer, &srq->dbr[OPENGDA_MLX5_RCV_DBR], sizeof(producer)) != DOCA_SUCCESS)
		return DOCA_ERROR_DRIVER;
	if (producer != 0) {
		OGDA_LOG_ERR("export_srq: SRQ 0x%x has receives posted already: export a fresh SRQ", srq->srqn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t opengda_gpu_verbs_export_srq(struct doca_gpu *gpu_dev, struct doca_verbs_srq *srq,
					  struct opengda_gpu_verbs_srq **srq_out)
{
	struct opengda_gpu_verbs_srq *e;
	void *ring_dev = NULL, *dbr_dev = NULL;
	doca_error_t err;

	if (gpu_dev == NULL || srq == NULL || srq_out == NULL) {
		OGDA_LOG_ERR("export_srq: NULL %s", gpu_dev == NULL ? "GPU handle" : srq == NULL ? "SRQ" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_srq(srq);
	if (err != DOCA_SUCCESS)
		return err;
	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		OGDA_LOG_ERR("export_srq: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	e->gpu = gpu_dev;
	e->srq = srq;
	err = map_range(e, srq->ring, (size_t)srq->nwqe * srq->stride, &e->ring_host, &ring_dev);
	if (err == DOCA_SUCCESS)
		err = map_range(e, srq->dbr, 2 * sizeof(uint32_t), &e->dbr_host, &dbr_dev);
	if (err != DOCA_SUCCESS) {
		release(e);
		free(e);
		return err;
	}
	e->view.rq_num = srq->srqn;
	e->view.rq_wqe_num = srq->nwqe;
	e->view.rq_wqe_mask = srq->nwqe - 1u;
	e->view.rcv_wqe_size = srq->stride;
	e->view.rq_wqe_daddr = ring_dev;
	e->view.rq_dbrec = (uint32_t *)dbr_dev + OPENGDA_MLX5_RCV_DBR;
	atomic_fetch_add(&srq->users, 1);
	ogda_gpu_export_get(gpu_dev);
	*srq_out = e;
	return DOCA_SUCCESS;
}

doca_error_t opengda_gpu_verbs_srq_set_wait_timeout(struct opengda_gpu_verbs_srq *srq, uint64_t timeout_ns)
{
	if (srq == NULL) {
		OGDA_LOG_ERR("srq_set_wait_timeout: NULL SRQ");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (srq->view_dev != NULL) {
		OGDA_LOG_ERR("srq_set_wait_timeout: SRQ 0x%x: the device view exists already; set the bound before "
			     "opengda_gpu_verbs_get_srq_dev", srq->srq->srqn);
		return DOCA_ERROR_BAD_STATE;
	}
	srq->view.ogda_wait_timeout_ns = timeout_ns;
	return DOCA_SUCCESS;
}

doca_error_t opengda_gpu_verbs_get_srq_dev(struct opengda_gpu_verbs_srq *srq, struct opengda_gpu_dev_verbs_srq **srq_dev)
{
	void *dev = NULL;
	doca_error_t err;

	if (srq == NULL || srq_dev == NULL) {
		OGDA_LOG_ERR("get_srq_dev: NULL %s", srq == NULL ? "SRQ" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (srq->view_dev == NULL) {
		err = doca_gpu_mem_alloc(srq->gpu, sizeof(srq->view), DEV_SRQ_ALIGN, DOCA_GPU_MEM_TYPE_GPU, &dev, NULL);
		if (err != DOCA_SUCCESS) {
			OGDA_LOG_ERR("get_srq_dev: SRQ 0x%x: cannot allocate the device view", srq->srq->srqn);
			return err;
		}
		err = ogda_gpu_copy_to_dev(srq->gpu, dev, &srq->view, sizeof(srq->view));
		if (err != DOCA_SUCCESS) {
			OGDA_LOG_ERR("get_srq_dev: SRQ 0x%x: cannot write the device view", srq->srq->srqn);
			(void)doca_gpu_mem_free(srq->gpu, dev);
			return err;
		}
		srq->view_dev = dev;
	}
	*srq_dev = srq->view_dev;
	return DOCA_SUCCESS;
}

doca_error_t opengda_gpu_verbs_unexport_srq(struct doca_gpu *gpu_dev, struct opengda_gpu_verbs_srq *srq)
{
	if (gpu_dev == NULL || srq == NULL) {
		OGDA_LOG_ERR("unexport_srq: NULL %s", gpu_dev == NULL ? "GPU handle" : "SRQ");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (srq->gpu != gpu_dev) {
		OGDA_LOG_ERR("unexport_srq: SRQ 0x%x was exported with another GPU handle", srq->srq->srqn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	release(srq);
	atomic_fetch_sub(&srq->srq->users, 1);
	ogda_gpu_export_put(gpu_dev);
	free(srq);
	return DOCA_SUCCESS;
}
