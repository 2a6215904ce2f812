/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dma (doca_dma.h). Start builds, on the device's DOCA Verbs PD (the one its mmaps are
 * registered on), a high-level QP (doca_gpunetio_high_level.h: queue memory where the executing
 * threads and the NIC both reach it, exported for device code) and connects it to itself; the
 * device handle (struct doca_gpu_dma, ogda_dev_dma.h) points at its device view. A copy is then
 * an RDMA WRITE from the source key to the destination key, executed by the NIC.
 *
 * Two data paths on that one construction: a GPU's (doca_ctx_set_datapath_on_gpu; kernels or
 * host threads post through the device handle), and the CPU's, for memcpy tasks
 * (doca_dma_task_memcpy_set_conf, a progress engine, no GPU): the QP is then built for a private
 * host handle, and dma_task.c posts on it with the same device core, on the engine's thread.
 */
#include "dma/dma_priv.h"
#include "gpunetio/gpunetio_priv.h"
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include "device/ogda_dev_dma.h"
#include "doca_gpunetio_high_level.h"
#include "opengda.h"
#include "opengda_gpunetio.h"

#include <stddef.h>
#include <stdlib.h>

static doca_error_t handle_make(struct doca_dma *d, struct doca_gpu *gpu)
{
	struct doca_gpu_dma h = {.nic_handler = (uint32_t)d->qp->nic_handler};
	doca_error_t err = doca_gpu_verbs_get_qp_dev(d->qp->qp_gverbs, &h.qp);

	if (err != DOCA_SUCCESS)
		return err;
	return ogda_gpu_dup_to_dev(gpu, &h, sizeof(h), (void **)&d->handle);
}

/* The executor the QP is built for: the GPU data path's, or the CPU path's host handle. */
static struct doca_gpu *dma_gpu(const struct doca_dma *d)
{
	return d->ctx.gpu != NULL ? d->ctx.gpu : d->host;
}

static void dma_release(struct doca_dma *d)
{
	dma_tasks_destroy(d);
	if (d->handle != NULL)
		(void)doca_gpu_mem_free(dma_gpu(d), d->handle);
	if (d->qp != NULL)
		(void)doca_gpu_verbs_destroy_qp_hl(d->qp);
	if (d->host != NULL)
		(void)doca_gpu_destroy(d->host);
	d->handle = NULL;
	d->qp = NULL;
	d->host = NULL;
}

/*
 * Without a GPU data path the context runs CPU tasks: they need their configuration and an
 * engine to complete in; the QP is built for a host handle of its own (host memory queues,
 * posted from the engine's thread).
 */
static doca_error_t cpu_path_prepare(struct doca_dma *d)
{
	if (d->num_tasks == 0) {
		OGDA_LOG_ERR("dma: no data path: call doca_dma_task_memcpy_set_conf() (CPU tasks) or "
			     "doca_ctx_set_datapath_on_gpu() (a GPU, or a host handle for host threads) before starting");
		return DOCA_ERROR_BAD_STATE;
	}
	return core_ctx_cpu_datapath(&d->ctx, &d->host);
}

static doca_error_t dma_start(struct doca_ctx *ctx)
{
	struct doca_dma *d = dma_of(ctx);
	struct doca_gpu_verbs_qp_init_attr_hl a = {0};
	struct doca_verbs_pd *pd;
	uint32_t nwqe = ctx->gpu != NULL ? d->queue_size : d->num_tasks;
	doca_error_t err;

	if (ctx->gpu == NULL && (err = cpu_path_prepare(d)) != DOCA_SUCCESS)
		return err;
	err = verbs_dev_lib_pd(d->dev, &pd);
	if (err != DOCA_SUCCESS) {
		dma_release(d);
		return err;
	}
	a.gpu_dev = dma_gpu(d);
	a.verbs_pd = pd;
	a.sq_nwqe = (uint16_t)(nwqe > UINT16_MAX ? UINT16_MAX : nwqe);
	a.nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO;
	a.send_dbr_mode_ext = DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR;
	err = doca_gpu_verbs_create_qp_hl(&a, &d->qp);
	if (err != DOCA_SUCCESS)
		return err;
	if ((err = opengda_gpu_verbs_qp_set_wait_timeout(d->qp->qp_gverbs, d->wait_timeout_ns)) != DOCA_SUCCESS ||
	    (err = verbs_qp_connect_self(pd, d->qp->qp, true)) != DOCA_SUCCESS || (err = handle_make(d, dma_gpu(d))) != DOCA_SUCCESS ||
	    (ctx->gpu == NULL && (err = dma_tasks_create(d)) != DOCA_SUCCESS)) {
		OGDA_LOG_ERR("dma: cannot set up the copy QP: %s", doca_error_get_descr(err));
		dma_release(d);
		return err;
	}
	core_dev_use(d->dev);
	OGDA_LOG_DBG("dma: running on %s, %s data path, %u copies in flight, handler %d", core_dev_name(d->dev),
		     ctx->gpu != NULL ? "GPU" : "CPU", nwqe, (int)d->qp->nic_handler);
	return DOCA_SUCCESS;
}

static doca_error_t dma_stop(struct doca_ctx *ctx)
{
	struct doca_dma *d = dma_of(ctx);

	dma_release(d);
	core_dev_unuse(d->dev);
	return DOCA_SUCCESS;
}

static const struct core_ctx_ops dma_ops = {
	.kind = "dma",
	.gpu_datapath_ok = true,
	.start = dma_start,
	.stop = dma_stop,
	.progress = dma_tasks_progress,
	.task_submit = dma_task_submit,
	.task_release = dma_task_release,
};

doca_error_t doca_dma_create(struct doca_dev *dev, struct doca_dma **dma)
{
	struct doca_dma *d;

	if (dev == NULL || dma == NULL) {
		OGDA_LOG_ERR("dma: dev and dma must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ogda_sdk_in_use()) { /* dev is the SDK's: not forwarded (docs/sdk-forwarding.md) */
		OGDA_LOG_ERR("dma: doca_dma is not forwarded to the DOCA SDK; unset %s to use OpenGDA's", OGDA_SDK_ENV);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		OGDA_LOG_ERR("dma: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	core_ctx_init(&d->ctx, &dma_ops);
	d->dev = dev;
	d->queue_size = OPENGDA_DMA_DEFAULT_QUEUE_SIZE;
	d->wait_timeout_ns = OPENGDA_DMA_DEFAULT_WAIT_TIMEOUT_NS;
	*dma = d;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_destroy(struct doca_dma *dma)
{
	doca_error_t err;

	if (dma == NULL) {
		OGDA_LOG_ERR("dma: dma must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = core_ctx_fini(&dma->ctx);
	if (err != DOCA_SUCCESS)
		return err;
	free(dma);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_dma_as_ctx(struct doca_dma *dma)
{
	if (dma == NULL) {
		OGDA_LOG_ERR("dma: dma must not be NULL");
		return NULL;
	}
	return &dma->ctx;
}

doca_error_t doca_dma_get_gpu_handle(struct doca_dma *dma, struct doca_gpu_dma **dma_gpu)
{
	if (dma == NULL || dma_gpu == NULL) {
		OGDA_LOG_ERR("dma: dma and dma_gpu must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dma->handle == NULL || dma->ctx.gpu == NULL) {
		OGDA_LOG_ERR("dma: no device handle: set a GPU data path and start the context first");
		return DOCA_ERROR_BAD_STATE;
	}
	*dma_gpu = dma->handle;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_cap_task_memcpy_get_max_buf_size(const struct doca_devinfo *devinfo, uint64_t *max_buf_size)
{
	if (devinfo == NULL || max_buf_size == NULL) {
		OGDA_LOG_ERR("dma: devinfo and max_buf_size must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*max_buf_size = DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_cap_task_memcpy_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL) {
		OGDA_LOG_ERR("dma: devinfo must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t opengda_dma_set_queue_size(struct doca_dma *dma, uint32_t num_copies)
{
	doca_error_t err = core_ctx_check_idle(dma != NULL ? &dma->ctx : NULL, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (num_copies == 0 || num_copies > OPENGDA_DMA_MAX_QUEUE_SIZE) {
		OGDA_LOG_ERR("%s: %u copies outside 1..%u", __func__, num_copies, OPENGDA_DMA_MAX_QUEUE_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	dma->queue_size = num_copies;
	return DOCA_SUCCESS;
}

doca_error_t opengda_dma_set_wait_timeout(struct doca_dma *dma, uint64_t timeout_ns)
{
	doca_error_t err = core_ctx_check_idle(dma != NULL ? &dma->ctx : NULL, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	dma->wait_timeout_ns = timeout_ns;
	return DOCA_SUCCESS;
}
