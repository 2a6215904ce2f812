/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * High-level QP creation (doca_gpunetio_high_level.h): the CQ, UAR, queue memory and QP a GPU (or
 * host-thread) data path needs, created with the DOCA Verbs API and exported.
 *
 * Queue memory goes where the NIC and the executing threads both reach it: GPU memory registered
 * with the NIC (dmabuf, else peer memory) on a ConnectX driven by a GPU; pinned host memory mapped
 * for the GPU on the software NIC (its rule: queues live in host memory) and whenever the CPU
 * writes the doorbell record (CPU proxy, emulated DBR-less mode); plain host memory on a host
 * handle. Every WQE the device posts is signaled, so the CQ has one entry per WQEBB, and it
 * ignores overrun, so device code never has to update the CQ doorbell record. With rq_nwqe the
 * QP also gets a receive queue of one-segment WQEs (before the SQ in the same memory) and a
 * receive CQ of its own with one entry per receive WQE; recv_inline asks for scatter-to-CQE.
 */
#include "gpunetio/gpunetio_priv.h"
#include "core/log.h"
#include "devx/hw.h"
#include "verbs/verbs_priv.h"

#include "doca_gpunetio_high_level.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

#define HL_ACCESS_LOCAL_WRITE 1u /* IBV_ACCESS_LOCAL_WRITE */
#define HL_DBR_BYTES 192u        /* QP DBR at 0, send CQ DBR at 64, receive CQ DBR at 128 */
#define HL_QP_DBR_OFF 0u
#define HL_CQ_DBR_OFF 64u
#define HL_RCQ_DBR_OFF 128u
#define HL_RWQE_BYTES 16u        /* device-posted receives: one data segment */
#define HL_MIN_RQ_BYTES 64u      /* the SQ starts WQEBB-aligned after the RQ (verbs/qp.c) */
#define HL_MAX_NWQE 32768u

/* One piece of queue memory: its allocation and its registration with the NIC. */
struct hl_mem {
	void *gpu_ptr;
	void *cpu_ptr;
	struct doca_verbs_umem *umem;
};

struct hl_priv {
	struct doca_gpu *gpu;
	struct doca_verbs_uar *uar;
	bool own_uar;
	struct hl_mem sq, cq, dbr, rcq; /* sq: the RQ (when any) then the SQ */
};

static bool handler_valid(enum doca_gpu_dev_verbs_nic_handler h)
{
	return h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO || h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY ||
	       h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB || h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF ||
	       h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR;
}

static doca_error_t check_attr(const struct doca_gpu_verbs_qp_init_attr_hl *a)
{
	if (a->gpu_dev == NULL || a->verbs_pd == NULL) {
		OGDA_LOG_ERR("create_qp_hl: gpu_dev and verbs_pd (or the open releases' net_dev or ibpd) are required");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->sq_nwqe == 0 || a->sq_nwqe > HL_MAX_NWQE) {
		OGDA_LOG_ERR("create_qp_hl: sq_nwqe %u outside 1..%u", a->sq_nwqe, HL_MAX_NWQE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!handler_valid(a->nic_handler)) {
		OGDA_LOG_ERR("create_qp_hl: unknown nic_handler %d", (int)a->nic_handler);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((unsigned)a->send_dbr_mode_ext > DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED) {
		OGDA_LOG_ERR("create_qp_hl: unknown send_dbr_mode_ext %d", (int)a->send_dbr_mode_ext);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((unsigned)a->mreg_type > DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_CUDA_PEERMEM) {
		OGDA_LOG_ERR("create_qp_hl: unknown mreg_type %d", (int)a->mreg_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->rq_nwqe > HL_MAX_NWQE) {
		OGDA_LOG_ERR("create_qp_hl: rq_nwqe %u above %u", a->rq_nwqe, HL_MAX_NWQE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->recv_inline > 1 || (a->recv_inline && a->rq_nwqe == 0)) {
		OGDA_LOG_ERR("create_qp_hl: recv_inline %u needs 0 or 1, and a receive queue (rq_nwqe %u)",
			     a->recv_inline, a->rq_nwqe);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->send_dbr_mode_ext == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW &&
	    (a->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB ||
	     a->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF)) {
		OGDA_LOG_ERR("create_qp_hl: NO_DBR_HW needs handler AUTO, GPU_SM_NO_DBR or CPU_PROXY");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/*
 * GPU memory only for a ConnectX driven by a real GPU; host memory otherwise (see top), also when
 * the "ConnectX" is the software NIC behind OpenGDA's rdma-core front end.
 */
static bool queues_in_gpu_memory(const struct doca_gpu *gpu, const struct doca_verbs_context *ctx)
{
	return !gpu->info.is_host && !ogda_devx_host_queues_only(ctx->devx);
}

struct hl_umem_reg {
	struct doca_verbs_context *ctx;
	struct hl_mem *m;
};

/* ogda_gpu_umem_register's registration: a DOCA Verbs umem of the range (or of the dmabuf). */
static doca_error_t hl_umem_reg(void *arg, void *addr, size_t len, int dmabuf_fd)
{
	struct hl_umem_reg *r = arg;

	return doca_verbs_umem_create(r->ctx, addr, len, HL_ACCESS_LOCAL_WRITE,
				      dmabuf_fd < 0 ? (int)DOCA_VERBS_DMABUF_INVALID_FD : dmabuf_fd, 0, &r->m->umem);
}

static doca_error_t mem_register(struct doca_verbs_context *ctx, struct hl_priv *p, struct hl_mem *m, size_t len,
				 bool in_gpu, enum doca_gpu_verbs_mem_reg_type reg)
{
	struct hl_umem_reg r = {ctx, m};

	if (!in_gpu)
		return doca_verbs_umem_create(ctx, m->cpu_ptr, len, HL_ACCESS_LOCAL_WRITE,
					      (int)DOCA_VERBS_DMABUF_INVALID_FD, 0, &m->umem);
	return ogda_gpu_umem_register(p->gpu, m->gpu_ptr, len, reg, hl_umem_reg, &r, "create_qp_hl");
}

static doca_error_t mem_get(struct doca_verbs_context *ctx, struct hl_priv *p, struct hl_mem *m, size_t len,
			    bool in_gpu, enum doca_gpu_verbs_mem_reg_type reg)
{
	size_t align = in_gpu ? DOCA_GPUNETIO_VERBS_PAGE_SIZE : 4096u;
	doca_error_t err = doca_gpu_mem_alloc(p->gpu, len, align, in_gpu ? DOCA_GPU_MEM_TYPE_GPU : DOCA_GPU_MEM_TYPE_CPU_GPU,
					      &m->gpu_ptr, &m->cpu_ptr);

	if (err != DOCA_SUCCESS)
		return err;
	err = ogda_gpu_memset_dev(p->gpu, m->gpu_ptr, 0, len);
	if (err == DOCA_SUCCESS)
		err = mem_register(ctx, p, m, len, in_gpu, reg);
	if (err != DOCA_SUCCESS) {
		(void)doca_gpu_mem_free(p->gpu, m->gpu_ptr);
		m->gpu_ptr = NULL;
	}
	return err;
}

static void mem_put(struct hl_priv *p, struct hl_mem *m)
{
	if (m->umem != NULL)
		(void)doca_verbs_umem_destroy(m->umem);
	if (m->gpu_ptr != NULL)
		(void)doca_gpu_mem_free(p->gpu, m->gpu_ptr);
	memset(m, 0, sizeof(*m));
}

/* NC_DEDICATED, else NC, for doorbells; BF for the BlueFlame handler. */
static doca_error_t uar_get(struct doca_verbs_context *ctx, enum doca_gpu_dev_verbs_nic_handler h,
			    struct doca_verbs_uar **uar)
{
	doca_error_t err;

	if (h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF)
		return doca_verbs_uar_create(ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_BLUEFLAME, uar);
	err = doca_verbs_uar_create(ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE_DEDICATED, uar);
	if (err != DOCA_SUCCESS)
		err = doca_verbs_uar_create(ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, uar);
	return err;
}

static doca_error_t cq_make(struct doca_verbs_context *ctx, struct hl_priv *p, struct hl_mem *ring, uint64_t dbr_off,
			    uint32_t ncqe, bool collapsed, struct doca_verbs_cq **cq)
{
	struct doca_verbs_cq_attr *a = NULL;
	doca_error_t err = doca_verbs_cq_attr_create(&a);

	if (err != DOCA_SUCCESS)
		return err;
	if ((err = doca_verbs_cq_attr_set_cq_size(a, ncqe)) == DOCA_SUCCESS &&
	    (err = doca_verbs_cq_attr_set_external_umem(a, ring->umem, 0)) == DOCA_SUCCESS &&
	    (err = doca_verbs_cq_attr_set_external_dbr_umem(a, p->dbr.umem, dbr_off)) == DOCA_SUCCESS &&
	    (err = doca_verbs_cq_attr_set_external_uar(a, p->uar)) == DOCA_SUCCESS &&
	    (err = doca_verbs_cq_attr_set_cq_overrun(a, DOCA_VERBS_CQ_ENABLE_OVERRUN)) == DOCA_SUCCESS &&
	    (err = doca_verbs_cq_attr_set_cq_collapsed(a, collapsed ? 1 : 0)) == DOCA_SUCCESS)
		err = doca_verbs_cq_create(ctx, a, cq);
	(void)doca_verbs_cq_attr_destroy(a);
	return err;
}

/*
 * The receive side of qp_make: receive CQ, RQ size, one SGE per receive, scatter-to-CQE; or, with
 * an SRQ, the SRQ and its (shared) receive CQ and no RQ of its own.
 */
static doca_error_t qp_attr_rq(struct doca_verbs_qp_init_attr *a, struct doca_verbs_cq *cq, struct doca_verbs_cq *rcq,
			       uint32_t nrwqe, uint8_t recv_inline, struct doca_verbs_srq *srq)
{
	doca_error_t err;

	if (srq != NULL) {
		if ((err = doca_verbs_qp_init_attr_set_srq(a, srq)) != DOCA_SUCCESS)
			return err;
		return doca_verbs_qp_init_attr_set_receive_cq(a, rcq);
	}
	if ((err = doca_verbs_qp_init_attr_set_receive_cq(a, rcq != NULL ? rcq : cq)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_init_attr_set_rq_wr(a, nrwqe)) != DOCA_SUCCESS)
		return err;
	if (nrwqe == 0)
		return DOCA_SUCCESS;
	if ((err = doca_verbs_qp_init_attr_set_receive_max_sges(a, 1)) != DOCA_SUCCESS)
		return err;
	return doca_verbs_qp_init_attr_set_cqe_inline(a, recv_inline);
}

static doca_error_t qp_make(struct doca_verbs_context *ctx, struct doca_verbs_pd *pd, struct hl_priv *p,
			    struct doca_verbs_cq *cq, struct doca_verbs_cq *rcq, uint32_t nwqe, uint32_t nrwqe,
			    uint8_t recv_inline, bool no_dbr, bool companion, struct doca_verbs_srq *srq,
			    struct doca_verbs_qp **qp)
{
	struct doca_verbs_qp_init_attr *a = NULL;
	doca_error_t err = doca_verbs_qp_init_attr_create(&a);

	if (err != DOCA_SUCCESS)
		return err;
	if ((err = doca_verbs_qp_init_attr_set_pd(a, pd)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_send_cq(a, cq)) == DOCA_SUCCESS &&
	    (err = qp_attr_rq(a, cq, rcq, nrwqe, recv_inline, srq)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_sq_wr(a, nwqe)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_send_max_sges(a, 1)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_qp_type(a, DOCA_VERBS_QP_TYPE_RC)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_external_umem(a, p->sq.umem, 0)) == DOCA_SUCCESS &&
	    (no_dbr || (err = doca_verbs_qp_init_attr_set_external_dbr_umem(a, p->dbr.umem, HL_QP_DBR_OFF)) ==
			       DOCA_SUCCESS) &&
	    (err = doca_verbs_qp_init_attr_set_external_uar(a, p->uar)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_send_dbr_mode(a, no_dbr ? DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT
								       : DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID)) ==
		    DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_core_direct_master(a, companion ? 1 : 0)) == DOCA_SUCCESS)
		err = doca_verbs_qp_create(ctx, a, qp);
	(void)doca_verbs_qp_init_attr_destroy(a);
	return err;
}

static void hl_teardown(struct doca_gpu_verbs_qp_hl *q)
{
	struct hl_priv *p = q->priv;

	if (q->qp_gverbs != NULL)
		(void)doca_gpu_verbs_unexport_qp(p->gpu, q->qp_gverbs);
	if (q->qp != NULL)
		(void)doca_verbs_qp_destroy(q->qp);
	if (q->cq_sq != NULL)
		(void)doca_verbs_cq_destroy(q->cq_sq);
	if (q->cq_rq != NULL)
		(void)doca_verbs_cq_destroy(q->cq_rq);
	if (p != NULL) {
		mem_put(p, &p->sq);
		mem_put(p, &p->cq);
		mem_put(p, &p->rcq);
		mem_put(p, &p->dbr);
		if (p->own_uar && p->uar != NULL)
			(void)doca_verbs_uar_destroy(p->uar);
		free(p);
	}
	memset(q, 0, sizeof(*q));
}

/*
 * @p in with verbs_pd filled from the open releases' members when it is not set: net_dev (3.0,
 * a device from doca_verbs_dev_open()) or ibpd (2.0 and 3.0, imported into the context of its
 * ibv_context, which stays pinned in @p pin until the QP holds it).
 */
static doca_error_t resolve_pd(const struct doca_gpu_verbs_qp_init_attr_hl *in, struct doca_gpu_verbs_qp_init_attr_hl *out,
			       struct doca_verbs_context **pin)
{
	*out = *in;
	*pin = NULL;
	if (out->verbs_pd != NULL)
		return DOCA_SUCCESS;
	if (in->net_dev != NULL) {
		out->verbs_pd = in->net_dev->pd;
		if (out->verbs_pd == NULL) {
			OGDA_LOG_ERR("create_qp_hl: net_dev must come from doca_verbs_dev_open()");
			return DOCA_ERROR_INVALID_VALUE;
		}
		return DOCA_SUCCESS;
	}
	if (in->ibpd != NULL)
		return verbs_open_pd_of_ibv(in->ibpd, "create_qp_hl", pin, &out->verbs_pd);
	return DOCA_SUCCESS; /* check_attr names what is missing */
}

/* Whether the device scatters small receives into CQEs (recv_inline). */
static bool cqe_inline_supported(struct doca_verbs_context *ctx)
{
	struct doca_verbs_device_attr *attr = NULL;
	bool ok;

	if (doca_verbs_query_device(ctx, &attr) != DOCA_SUCCESS)
		return false;
	ok = doca_verbs_device_attr_get_is_cqe_inline_supported(attr) != 0;
	(void)doca_verbs_device_attr_free(attr);
	return ok;
}

/*
 * Builds one high-level QP into @q; @shared_uar (group companion) reuses the main QP's UAR. With
 * @srq the QP takes its receives from that SRQ and completes them to @srq_cq (both the caller's:
 * q->cq_rq stays NULL so teardown leaves them), and a->rq_nwqe is ignored.
 */
static doca_error_t hl_build(const struct doca_gpu_verbs_qp_init_attr_hl *a, struct doca_verbs_uar *shared_uar,
			     bool companion, struct doca_verbs_srq *srq, struct doca_verbs_cq *srq_cq,
			     struct doca_gpu_verbs_qp_hl *q)
{
	struct doca_verbs_context *ctx = a->verbs_pd->ctx;
	struct hl_priv *p = calloc(1, sizeof(*p));
	bool no_dbr = a->send_dbr_mode_ext == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW;
	bool cpu_dbr = a->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY ||
		       a->send_dbr_mode_ext == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED;
	bool in_gpu = queues_in_gpu_memory(a->gpu_dev, ctx);
	uint32_t nwqe = 1, ncqe, nrwqe = 0;
	size_t rq_bytes = 0;
	doca_error_t err;

	memset(q, 0, sizeof(*q));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	q->priv = p;
	p->gpu = a->gpu_dev;
	while (nwqe < a->sq_nwqe)
		nwqe <<= 1;
	ncqe = a->cq_collapsed ? 1u : nwqe;
	if (a->rq_nwqe != 0 && !companion && srq == NULL) {
		for (nrwqe = 1; nrwqe < a->rq_nwqe || nrwqe * HL_RWQE_BYTES < HL_MIN_RQ_BYTES;)
			nrwqe <<= 1;
		rq_bytes = (size_t)nrwqe * HL_RWQE_BYTES;
	}
	if (a->recv_inline && !companion && !cqe_inline_supported(ctx)) {
		OGDA_LOG_ERR("create_qp_hl: recv_inline: %s does not scatter receives into CQEs", ctx->info.name);
		err = DOCA_ERROR_NOT_SUPPORTED;
		goto fail;
	}
	if (shared_uar != NULL) {
		p->uar = shared_uar;
	} else {
		err = uar_get(ctx, a->nic_handler, &p->uar);
		if (err != DOCA_SUCCESS)
			goto fail;
		p->own_uar = true;
	}
	if ((err = mem_get(ctx, p, &p->sq, rq_bytes + (size_t)nwqe * 64u, in_gpu, a->mreg_type)) != DOCA_SUCCESS ||
	    (err = mem_get(ctx, p, &p->cq, (size_t)ncqe * 64u, in_gpu, a->mreg_type)) != DOCA_SUCCESS ||
	    (err = mem_get(ctx, p, &p->dbr, HL_DBR_BYTES, in_gpu && !cpu_dbr, a->mreg_type)) != DOCA_SUCCESS ||
	    (err = cq_make(ctx, p, &p->cq, HL_CQ_DBR_OFF, ncqe, a->cq_collapsed, &q->cq_sq)) != DOCA_SUCCESS)
		goto fail;
	if (nrwqe != 0 &&
	    ((err = mem_get(ctx, p, &p->rcq, (size_t)nrwqe * 64u, in_gpu, a->mreg_type)) != DOCA_SUCCESS ||
	     (err = cq_make(ctx, p, &p->rcq, HL_RCQ_DBR_OFF, nrwqe, false, &q->cq_rq)) != DOCA_SUCCESS))
		goto fail;
	err = qp_make(ctx, a->verbs_pd, p, q->cq_sq, srq != NULL ? srq_cq : q->cq_rq, nwqe, nrwqe, a->recv_inline,
		      no_dbr, companion, srq, &q->qp);
	if (err != DOCA_SUCCESS)
		goto fail;
	if (srq != NULL)
		err = opengda_gpu_verbs_export_qp_rq(a->gpu_dev, q->qp, a->nic_handler, q->cq_sq, srq_cq,
						     a->send_dbr_mode_ext, &q->qp_gverbs);
	else if (q->cq_rq != NULL)
		err = opengda_gpu_verbs_export_qp_rq(a->gpu_dev, q->qp, a->nic_handler, q->cq_sq, q->cq_rq,
						     a->send_dbr_mode_ext, &q->qp_gverbs);
	else
		err = doca_gpu_verbs_export_qp(a->gpu_dev, q->qp, a->nic_handler, NULL, q->cq_sq,
					       a->send_dbr_mode_ext, &q->qp_gverbs);
	if (err != DOCA_SUCCESS)
		goto fail;
	(void)opengda_gpu_verbs_qp_get_nic_handler(q->qp_gverbs, &q->nic_handler);
	q->send_dbr_mode_ext = a->send_dbr_mode_ext;
	return DOCA_SUCCESS;
fail:
	OGDA_LOG_ERR("create_qp_hl: %s", doca_error_get_descr(err));
	hl_teardown(q);
	return err;
}

/* create_qp_hl and its SRQ form (ogda_hl_create_on_srq). */
static doca_error_t hl_create(struct doca_gpu_verbs_qp_init_attr_hl *qp_init_attr, struct doca_verbs_srq *srq,
			      struct doca_verbs_cq *srq_cq, struct doca_gpu_verbs_qp_hl **qp)
{
	struct doca_gpu_verbs_qp_hl *q;
	doca_error_t err;

	struct doca_gpu_verbs_qp_init_attr_hl a;
	struct doca_verbs_context *pin;

	if (qp_init_attr == NULL || qp == NULL) {
		OGDA_LOG_ERR("create_qp_hl: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = resolve_pd(qp_init_attr, &a, &pin);
	if (err != DOCA_SUCCESS)
		return err;
	err = check_attr(&a);
	q = err == DOCA_SUCCESS ? calloc(1, sizeof(*q)) : NULL;
	if (err == DOCA_SUCCESS && q == NULL)
		err = DOCA_ERROR_NO_MEMORY;
	if (err == DOCA_SUCCESS)
		err = hl_build(&a, NULL, false, srq, srq_cq, q);
	verbs_open_unpin(&pin); /* the QP and CQ made keep the context now */
	if (err != DOCA_SUCCESS) {
		free(q);
		return err;
	}
	*qp = q;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_verbs_create_qp_hl(struct doca_gpu_verbs_qp_init_attr_hl *qp_init_attr,
					 struct doca_gpu_verbs_qp_hl **qp)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_create_qp_hl, (qp_init_attr, qp));
	return hl_create(qp_init_attr, NULL, NULL, qp);
}

doca_error_t ogda_hl_create_on_srq(struct doca_gpu_verbs_qp_init_attr_hl *qp_init_attr, struct doca_verbs_srq *srq,
				   struct doca_verbs_cq *srq_cq, struct doca_gpu_verbs_qp_hl **qp)
{
	if (srq == NULL || srq_cq == NULL) {
		OGDA_LOG_ERR("create_qp_hl: an SRQ and its receive CQ are required");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return hl_create(qp_init_attr, srq, srq_cq, qp);
}

doca_error_t doca_gpu_verbs_destroy_qp_hl(struct doca_gpu_verbs_qp_hl *qp)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_destroy_qp_hl, (qp));
	if (qp == NULL || qp->priv == NULL) {
		OGDA_LOG_ERR("destroy_qp_hl: NULL or already destroyed QP");
		return DOCA_ERROR_INVALID_VALUE;
	}
	hl_teardown(qp);
	free(qp);
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_verbs_create_qp_group_hl(struct doca_gpu_verbs_qp_init_attr_hl *qp_init_attr,
					       struct doca_gpu_verbs_qp_group_hl **qpg)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_create_qp_group_hl, (qp_init_attr, qpg));
	struct doca_gpu_verbs_qp_group_hl *g;
	struct hl_priv *main_priv;
	doca_error_t err;

	struct doca_gpu_verbs_qp_init_attr_hl a;
	struct doca_verbs_context *pin;

	if (qp_init_attr == NULL || qpg == NULL) {
		OGDA_LOG_ERR("create_qp_group_hl: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = resolve_pd(qp_init_attr, &a, &pin);
	if (err != DOCA_SUCCESS)
		return err;
	qp_init_attr = &a;
	err = check_attr(qp_init_attr);
	g = err == DOCA_SUCCESS ? calloc(1, sizeof(*g)) : NULL;
	if (err == DOCA_SUCCESS && g == NULL)
		err = DOCA_ERROR_NO_MEMORY;
	if (err != DOCA_SUCCESS) {
		verbs_open_unpin(&pin);
		return err;
	}
	err = hl_build(qp_init_attr, NULL, false, NULL, NULL, &g->qp_main);
	if (err == DOCA_SUCCESS) {
		/*
		 * The two QPs share a UAR page only with valid doorbell records: a DBR-less or emulated
		 * QP has no record to recover a ring the other QP overwrote (docs/swnic.md §5).
		 */
		main_priv = g->qp_main.priv;
		err = hl_build(qp_init_attr,
			       qp_init_attr->send_dbr_mode_ext == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR
				       ? main_priv->uar
				       : NULL,
			       true, NULL, NULL, &g->qp_companion);
		if (err != DOCA_SUCCESS)
			hl_teardown(&g->qp_main);
	}
	verbs_open_unpin(&pin);
	if (err != DOCA_SUCCESS) {
		free(g);
		return err;
	}
	*qpg = g;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_verbs_destroy_qp_group_hl(struct doca_gpu_verbs_qp_group_hl *qpg)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_destroy_qp_group_hl, (qpg));
	if (qpg == NULL || qpg->qp_main.priv == NULL) {
		OGDA_LOG_ERR("destroy_qp_group_hl: NULL or already destroyed group");
		return DOCA_ERROR_INVALID_VALUE;
	}
	hl_teardown(&qpg->qp_companion); /* before the main QP: it borrows the main QP's UAR */
	hl_teardown(&qpg->qp_main);
	free(qpg);
	return DOCA_SUCCESS;
}

struct doca_gpu *ogda_hl_gpu(const struct doca_gpu_verbs_qp_hl *qp)
{
	const struct hl_priv *p = qp->priv;

	return p->gpu;
}
