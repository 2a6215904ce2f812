/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma (doca_rdma.h) with a GPU data path. Start creates, on the device's DOCA Verbs PD (the
 * one its mmaps are registered on), one high-level QP per connection (send and receive queue,
 * exported for device code), and lays out the device handle (struct doca_gpu_dev_rdma,
 * ogda_dev_rdma.h) with their device views. Connections are then made with export / connect
 * (rdma_conn.c).
 */
#include "rdma/rdma_priv.h"

#include "gpunetio/gpunetio_priv.h"
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include "device/ogda_dev_rdma.h"
#include "opengda_gpunetio.h"

#include <stddef.h>
#include <stdlib.h>

#define RDMA_ACCESS_KNOWN                                                                          \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	 DOCA_ACCESS_FLAG_RDMA_ATOMIC)

static struct doca_rdma *rdma_of(struct doca_ctx *ctx)
{
	return (struct doca_rdma *)(void *)((char *)ctx - offsetof(struct doca_rdma, ctx));
}

static void rdma_release(struct doca_rdma *r)
{
	rdma_cm_close_all(r);
	if (r->handle != NULL)
		(void)doca_gpu_mem_free(r->ctx.gpu, r->handle);
	r->handle = NULL;
	for (uint32_t i = 0; r->conns != NULL && i < r->nconn; i++)
		if (r->conns[i].qp != NULL)
			(void)doca_gpu_verbs_destroy_qp_hl(r->conns[i].qp);
	free(r->conns);
	r->conns = NULL;
	rdma_recv_destroy(r); /* after the QPs on it */
}

static doca_error_t conn_make(struct doca_rdma *r, struct doca_rdma_connection *c, struct doca_gpu_dev_rdma *h)
{
	struct doca_gpu_verbs_qp_init_attr_hl a = {0};
	doca_error_t err;

	a.gpu_dev = r->ctx.gpu;
	a.verbs_pd = r->pd;
	a.sq_nwqe = (uint16_t)r->sq_size;
	a.nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO;
	a.send_dbr_mode_ext = DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR;
	err = ogda_hl_create_on_srq(&a, r->srq, r->recv_cq, &c->qp);
	if (err != DOCA_SUCCESS)
		return err;
	if ((err = opengda_gpu_verbs_qp_set_wait_timeout(c->qp->qp_gverbs, r->wait_timeout_ns)) != DOCA_SUCCESS ||
	    (err = doca_gpu_verbs_get_qp_dev(c->qp->qp_gverbs, &h->qp[c->id])) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_get_qpn(c->qp->qp, &h->recv.qpn[c->id])) != DOCA_SUCCESS)
		return err;
	h->nic_handler = (uint32_t)c->qp->nic_handler;
	return DOCA_SUCCESS;
}

static doca_error_t rdma_start(struct doca_ctx *ctx)
{
	struct doca_rdma *r = rdma_of(ctx);
	struct doca_gpu_dev_rdma *h;
	doca_error_t err;

	if (ctx->gpu == NULL) {
		OGDA_LOG_ERR("rdma: only the GPU data path exists here: call doca_ctx_set_datapath_on_gpu() "
			     "(a GPU, or a host handle for host threads) before starting");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = verbs_dev_lib_pd(r->dev, &r->pd);
	if (err != DOCA_SUCCESS)
		return err;
	r->conns = calloc(r->nconn, sizeof(*r->conns));
	h = calloc(1, sizeof(*h));
	if (r->conns == NULL || h == NULL) {
		free(h);
		rdma_release(r);
		OGDA_LOG_ERR("rdma: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	h->nconn = r->nconn;
	h->recv.nconn = r->nconn;
	err = rdma_recv_create(r);
	for (uint32_t i = 0; i < r->nconn && err == DOCA_SUCCESS; i++) {
		r->conns[i] = (struct doca_rdma_connection){.rdma = r, .id = i, .fd = -1};
		err = conn_make(r, &r->conns[i], h);
	}
	/*
	 * Receive completions are read through connection 0's export of the shared CQ (every export
	 * of it views the same ring; only this one's consumer state is used).
	 */
	h->recv.srq = r->srq_dev;
	if (err == DOCA_SUCCESS)
		h->recv.cq = (struct doca_gpu_dev_verbs_cq *)(void *)((char *)h->qp[0] +
								      offsetof(struct doca_gpu_dev_verbs_qp, cq_rq));
	if (err == DOCA_SUCCESS)
		err = ogda_gpu_dup_to_dev(ctx->gpu, h, sizeof(*h), (void **)&r->handle);
	free(h);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("rdma: cannot set up %u connection(s): %s", r->nconn, doca_error_get_descr(err));
		rdma_release(r);
		return err;
	}
	core_dev_use(r->dev);
	return DOCA_SUCCESS;
}

static doca_error_t rdma_stop(struct doca_ctx *ctx)
{
	struct doca_rdma *r = rdma_of(ctx);

	rdma_release(r);
	core_dev_unuse(r->dev);
	return DOCA_SUCCESS;
}

static const struct core_ctx_ops rdma_ops = {
	.kind = "rdma",
	.gpu_datapath_ok = true,
	.start = rdma_start,
	.stop = rdma_stop,
	.progress = rdma_cm_progress,
};

doca_error_t doca_rdma_create(struct doca_dev *dev, struct doca_rdma **rdma)
{
	struct doca_rdma *r;

	if (dev == NULL || rdma == NULL) {
		OGDA_LOG_ERR("rdma: dev and rdma must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ogda_sdk_in_use()) { /* dev is the SDK's: not forwarded (docs/sdk-forwarding.md) */
		OGDA_LOG_ERR("rdma: doca_rdma is not forwarded to the DOCA SDK; unset %s to use OpenGDA's", OGDA_SDK_ENV);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		OGDA_LOG_ERR("rdma: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	core_ctx_init(&r->ctx, &rdma_ops);
	r->dev = dev;
	r->permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	r->sq_size = OPENGDA_RDMA_DEFAULT_QUEUE_SIZE;
	r->rq_size = OPENGDA_RDMA_DEFAULT_QUEUE_SIZE;
	r->nconn = 1;
	r->wait_timeout_ns = OPENGDA_RDMA_DEFAULT_WAIT_TIMEOUT_NS;
	r->cm_timeout_ms = OPENGDA_RDMA_CM_DEFAULT_TIMEOUT_MS;
	r->listen_fd = -1;
	*rdma = r;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_destroy(struct doca_rdma *rdma)
{
	doca_error_t err;

	if (rdma == NULL) {
		OGDA_LOG_ERR("rdma: rdma must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = core_ctx_fini(&rdma->ctx);
	if (err != DOCA_SUCCESS)
		return err;
	free(rdma);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_rdma_as_ctx(struct doca_rdma *rdma)
{
	if (rdma == NULL) {
		OGDA_LOG_ERR("rdma: rdma must not be NULL");
		return NULL;
	}
	return &rdma->ctx;
}

doca_error_t doca_rdma_get_gpu_handle(struct doca_rdma *rdma, struct doca_gpu_dev_rdma **gpu_rdma)
{
	if (rdma == NULL || gpu_rdma == NULL) {
		OGDA_LOG_ERR("rdma: rdma and gpu_rdma must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rdma->handle == NULL) {
		OGDA_LOG_ERR("rdma: no device handle: set a GPU data path and start the context first");
		return DOCA_ERROR_BAD_STATE;
	}
	*gpu_rdma = rdma->handle;
	return DOCA_SUCCESS;
}

/* A setter's checks: the context exists and is IDLE. */
static doca_error_t idle(struct doca_rdma *rdma, const char *func)
{
	return core_ctx_check_idle(rdma != NULL ? &rdma->ctx : NULL, func);
}

static doca_error_t queue_size(struct doca_rdma *rdma, uint32_t n, uint32_t *out, const char *func)
{
	doca_error_t err = idle(rdma, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (n == 0 || n > OPENGDA_RDMA_MAX_QUEUE_SIZE) {
		OGDA_LOG_ERR("%s: %u outside 1..%u", func, n, OPENGDA_RDMA_MAX_QUEUE_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*out = n;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_permissions(struct doca_rdma *rdma, uint32_t permissions)
{
	doca_error_t err = idle(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if ((permissions & ~(uint32_t)RDMA_ACCESS_KNOWN) != 0) {
		OGDA_LOG_ERR("%s: 0x%x has bits other than LOCAL_READ_WRITE, RDMA_READ, RDMA_WRITE, RDMA_ATOMIC", __func__,
			     permissions);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->permissions = permissions;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_gid_index(struct doca_rdma *rdma, uint32_t gid_index)
{
	doca_error_t err = idle(rdma, __func__);

	if (err == DOCA_SUCCESS)
		rdma->gid_index = gid_index; /* checked against the GID table at export */
	return err;
}

doca_error_t doca_rdma_set_send_queue_size(struct doca_rdma *rdma, uint32_t send_queue_size)
{
	return queue_size(rdma, send_queue_size, rdma != NULL ? &rdma->sq_size : NULL, __func__);
}

doca_error_t doca_rdma_set_recv_queue_size(struct doca_rdma *rdma, uint32_t recv_queue_size)
{
	return queue_size(rdma, recv_queue_size, rdma != NULL ? &rdma->rq_size : NULL, __func__);
}

doca_error_t doca_rdma_set_grh_enabled(struct doca_rdma *rdma, uint8_t grh_enabled)
{
	(void)grh_enabled;
	return idle(rdma, __func__);
}

doca_error_t doca_rdma_set_max_num_connections(struct doca_rdma *rdma, uint16_t max_num_connections)
{
	doca_error_t err = idle(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (max_num_connections == 0 || max_num_connections > OPENGDA_RDMA_MAX_CONNECTIONS) {
		OGDA_LOG_ERR("%s: %u outside 1..%u", __func__, max_num_connections, OPENGDA_RDMA_MAX_CONNECTIONS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->nconn = max_num_connections;
	return DOCA_SUCCESS;
}

doca_error_t opengda_rdma_set_wait_timeout(struct doca_rdma *rdma, uint64_t timeout_ns)
{
	doca_error_t err = idle(rdma, __func__);

	if (err == DOCA_SUCCESS)
		rdma->wait_timeout_ns = timeout_ns;
	return err;
}

/* ---- getters ---------------------------------------------------------------------------------- */

/* A getter's checks: both pointers set. */
static bool get_ok(const struct doca_rdma *rdma, const void *out, const char *func)
{
	if (rdma == NULL || out == NULL) {
		OGDA_LOG_ERR("%s: rdma and the output must not be NULL", func);
		return false;
	}
	return true;
}

doca_error_t doca_rdma_get_send_queue_size(const struct doca_rdma *rdma, uint32_t *send_queue_size)
{
	if (!get_ok(rdma, send_queue_size, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*send_queue_size = rdma->sq_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_recv_queue_size(const struct doca_rdma *rdma, uint32_t *recv_queue_size)
{
	if (!get_ok(rdma, recv_queue_size, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*recv_queue_size = rdma->rq_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_permissions(struct doca_rdma *rdma, uint32_t *permissions)
{
	if (!get_ok(rdma, permissions, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*permissions = rdma->permissions;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_gid_index(const struct doca_rdma *rdma, uint32_t *gid_index)
{
	if (!get_ok(rdma, gid_index, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*gid_index = rdma->gid_index;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_grh_enabled(const struct doca_rdma *rdma, uint8_t *grh_enabled)
{
	if (!get_ok(rdma, grh_enabled, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*grh_enabled = 1; /* always carried (doca_rdma_set_grh_enabled) */
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_max_num_connections(struct doca_rdma *rdma, uint16_t *max_num_connections)
{
	if (!get_ok(rdma, max_num_connections, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*max_num_connections = (uint16_t)rdma->nconn;
	return DOCA_SUCCESS;
}
