/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Start and stop of a doca_eth_rxq: one block of queue memory (RQ ring, CQ ring, the two doorbell
 * records) registered as a umem, CREATE_CQ, CREATE_RQ (a cyclic work queue of one 16-byte data
 * segment per packet buffer, or, striding, a cyclic striding work queue of 32-byte WQEs each
 * naming strides_per_wqe consecutive buffers) and MODIFY_RQ RST -> RDY through the device interface, every WQE
 * posted, the MCST queue when asked for (rxq_mcst.c), the queue id registered for DOCA Flow, and the
 * device handle (struct doca_gpu_eth_rxq). A queue without a GPU data path (CPU data path,
 * rxq_cpu.c) is the same queue built for a host handle of its own, whose device handle the
 * progress engine's thread receives through.
 * Stop undoes it in reverse order. The commands are the PRM images of src/prm, so the software NIC
 * and a ConnectX receive the same bytes.
 */
#include "eth/rxq_priv.h"

#include "core/log.h"
#include "devx/devx.h"
#include "eth/eth_queue_ids.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda.h"
#include "device/ogda_dev_wqe.h"
#include "opengda_mlx5.h"
#include "prm/prm_rmp.h"
#include "prm/prm_rq.h"
#include "verbs/verbs_priv.h"

#include <string.h>

#define RQ_WQE_SIZE 16u    /* one data segment */
#define RQ_LOG_STRIDE 4u
#define RQ_STRIDING_WQE_SIZE 32u /* next segment (unused by a cyclic ring) + one data segment */
#define RQ_STRIDING_LOG_STRIDE 5u
#define DBR_BYTES 64u      /* RQ record at +0, CQ record at +8 */
#define HANDLE_ALIGN 64u

/* The queue memory block: [RQ ring][CQ ring][DBRs]. */
struct layout {
	uint32_t log_n;       /* packet buffers (strides of a striding queue) = CQEs */
	uint32_t log_strides; /* strides per WQE: 0 for a cyclic queue */
	uint32_t log_wqe;     /* WQEs: log_n - log_strides */
	uint32_t wqe_size;
	size_t rq_off, cq_off, dbr_off, len;
};

static void plan(const struct doca_eth_rxq *q, struct layout *l)
{
	l->log_n = eth_log2_ceil(eth_rxq_pkt_num(q->max_burst));
	l->log_strides = q->strides_per_wqe != 0 ? eth_log2_ceil(q->strides_per_wqe) : 0;
	l->log_wqe = l->log_n > l->log_strides ? l->log_n - l->log_strides : 0;
	l->wqe_size = q->strides_per_wqe != 0 ? RQ_STRIDING_WQE_SIZE : RQ_WQE_SIZE;
	l->rq_off = 0;
	l->cq_off = (((size_t)l->wqe_size << l->log_wqe) + 63u) & ~(size_t)63u;
	l->dbr_off = l->cq_off + ((size_t)64 << l->log_n);
	l->len = l->dbr_off + DBR_BYTES;
}

/* The packet buffer: address, big-endian key, and a check that it holds every packet. */
static doca_error_t pkt_buf(const struct doca_eth_rxq *q, uint32_t n, uint64_t *addr, uint32_t *mkey)
{
	void *base = NULL;
	size_t len = 0;
	uint64_t need = (uint64_t)n * q->max_pkt;

	if (q->pkt_mmap == NULL) {
		OGDA_LOG_ERR("eth_rxq: no packet buffer: call doca_eth_rxq_set_pkt_buf() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (core_mmap_first_key(q->pkt_mmap, &base, &len, mkey) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("eth_rxq: the packet buffer's mmap is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (q->pkt_len < need) {
		OGDA_LOG_ERR("eth_rxq: the packet buffer has %u bytes; %u packets of %u bytes need %llu "
			     "(doca_eth_rxq_estimate_packet_buf_size)",
			     q->pkt_len, n, q->max_pkt, (unsigned long long)need);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*addr = (uint64_t)(uintptr_t)base + q->pkt_offset;
	return DOCA_SUCCESS;
}

/*
 * A striding queue's geometry: strides of max_packet_size bytes (a power of two the NIC can
 * stride by) and at least two WQEs, so that one WQE is always posted while the receiver still
 * holds the one the NIC last finished with.
 */
static doca_error_t striding_ok(const struct doca_eth_rxq *q, const struct layout *l)
{
	if (q->strides_per_wqe == 0)
		return DOCA_SUCCESS;
	if ((q->max_pkt & (q->max_pkt - 1u)) != 0 || q->max_pkt > OPENGDA_ETH_RXQ_MAX_STRIDE_SIZE) {
		OGDA_LOG_ERR("eth_rxq: a striding queue's stride is max_packet_size, %u: a power of two of 64 .. %u",
			     q->max_pkt, OPENGDA_ETH_RXQ_MAX_STRIDE_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (l->log_n < l->log_strides + 1u) {
		OGDA_LOG_ERR("eth_rxq: %u packet buffers make fewer than two WQEs of %u strides: raise max_burst_size "
			     "or lower the strides per WQE",
			     1u << l->log_n, q->strides_per_wqe);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Whether the queue's WQEs name buffers of its own (all but REGULAR, whose receive tasks bring theirs). */
static bool own_buffers(const struct doca_eth_rxq *q)
{
	return q->type != DOCA_ETH_RXQ_TYPE_REGULAR;
}

/*
 * Every WQE names its packet buffers (one, or its strides); all are posted (the producer counter
 * is the ring size). A striding WQE's next segment stays zero: a cyclic ring does not follow it.
 * A REGULAR queue starts with an empty ring and producer counter 0: each receive task posts its
 * WQE (rxq_task.c) with the same data segment (ogda_dev_store_dseg).
 */
static void post_all(struct doca_eth_rxq *q, const struct layout *l, uint64_t addr, uint32_t mkey)
{
	uint8_t *m = q->res.qm.stage; /* the initial ring, published before CREATE_RQ */
	uint32_t i, n = own_buffers(q) ? 1u << l->log_wqe : 0u, seg = l->wqe_size - 16u;
	uint64_t wqe_bytes = (uint64_t)q->max_pkt << l->log_strides;

	memset(m + l->rq_off, 0, (size_t)l->wqe_size << l->log_wqe);
	for (i = 0; i < n; i++)
		ogda_dev_store_dseg(m + l->rq_off + (size_t)i * l->wqe_size + seg, addr + (uint64_t)i * wqe_bytes,
				    opengda_mlx5_htobe32(mkey), (uint32_t)wqe_bytes);
	__atomic_store_n((uint32_t *)(void *)(m + l->dbr_off), opengda_mlx5_htobe32(n & OPENGDA_MLX5_QP_DBR_MASK),
			 __ATOMIC_RELEASE);
}

doca_error_t eth_rxq_rq_modify(struct doca_eth_rxq *q, uint8_t from, uint8_t to)
{
	struct eth_rxq_res *r = &q->res;
	struct prm_modify_rq_params mp;
	uint8_t in[PRM_RQ_CMD_SIZE], out[PRM_RQ_SMALL_CMD_SIZE] = {0};
	doca_error_t err;

	memset(&mp, 0, sizeof(mp));
	mp.rq_state = from;
	mp.rqn = r->rqn;
	mp.rqc.state = to;
	err = prm_modify_rq_in_build(&mp, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = verbs_cmd_result(r->qm.devx->ops->obj_modify(r->rq, in, sizeof(in), out, sizeof(out)), out, sizeof(out),
				       "MODIFY_RQ");
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("eth_rxq: MODIFY_RQ 0x%x %u -> %u failed: %s", r->rqn, from, to, doca_error_get_descr(err));
	return err;
}

static doca_error_t create_rq(struct doca_eth_rxq *q, const struct layout *l, uint32_t pdn)
{
	struct eth_rxq_res *r = &q->res;
	struct prm_create_rq_params p;
	uint8_t in[PRM_RQ_CMD_SIZE], out[PRM_RQ_SMALL_CMD_SIZE] = {0};
	doca_error_t err;

	memset(&p, 0, sizeof(p));
	p.rqc.state = PRM_RQ_STATE_RST;
	p.rqc.flush_in_error_en = 1;
	p.rqc.cqn = r->qm.cqn;
	p.rqc.wq.wq_type = PRM_WQ_TYPE_CYCLIC;
	p.rqc.wq.pd = pdn;
	p.rqc.wq.dbr_addr = l->dbr_off;
	p.rqc.wq.log_wq_stride = RQ_LOG_STRIDE;
	p.rqc.wq.log_wq_sz = (uint8_t)l->log_wqe;
	if (q->strides_per_wqe != 0) {
		p.rqc.wq.wq_type = PRM_WQ_TYPE_CYCLIC_STRIDING;
		p.rqc.wq.log_wq_stride = RQ_STRIDING_LOG_STRIDE;
		p.rqc.wq.log_wqe_num_of_strides = prm_wq_strides_encode(l->log_strides);
		p.rqc.wq.log_wqe_stride_size = (uint8_t)(eth_log2_ceil(q->max_pkt) - PRM_WQ_LOG_STRIDE_SIZE_BASE);
	}
	p.rqc.wq.dbr_umem_valid = 1;
	p.rqc.wq.wq_umem_valid = 1;
	p.rqc.wq.dbr_umem_id = r->qm.umem_id;
	p.rqc.wq.wq_umem_id = r->qm.umem_id;
	p.rqc.wq.wq_umem_offset = l->rq_off;
	err = prm_create_rq_in_build(&p, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = eth_run_create(r->qm.devx, in, sizeof(in), out, sizeof(out), &r->rq, "CREATE_RQ");
	if (err == DOCA_SUCCESS)
		err = prm_create_rq_out_parse(out, sizeof(out), &r->rqn);
	if (err != DOCA_SUCCESS)
		return err;
	return eth_rxq_rq_modify(q, PRM_RQ_STATE_RST, PRM_RQ_STATE_RDY);
}

static void fill_view(struct doca_eth_rxq *q, const struct layout *l, uint64_t addr, uint32_t mkey)
{
	struct doca_gpu_eth_rxq *v = &q->view;
	struct doca_gpu_dev_verbs_cq *c = &v->cq;
	uint8_t *g = q->res.qm.mem_gpu;
	uint32_t n = 1u << l->log_n, wqes = 1u << l->log_wqe;

	memset(v, 0, sizeof(*v));
	v->pkt_addr = addr;
	v->pkt_mkey = opengda_mlx5_htobe32(mkey);
	v->pkt_num = n;
	v->max_pkt_sz = q->max_pkt;
	v->striding_rq = q->strides_per_wqe != 0 ? 1u : 0u;
	v->need_mcst = q->need_mcst ? 1u : 0u;
	v->wqe_addr = g + l->rq_off;
	v->wqe_db_rec = (uint32_t *)(void *)(g + l->dbr_off);
	v->wqe_pi = own_buffers(q) ? wqes : 0u; /* REGULAR: the receive tasks post */
	v->wqe_num = wqes;
	v->wqe_mask = wqes - 1u;
	v->wqe_strides_num = 1u << l->log_strides;
	v->rqn = q->res.rqn;
	c->cqe_daddr = g + l->cq_off;
	c->cq_num = q->res.qm.cqn;
	c->cqe_num = n;
	c->cqe_mask = n - 1u;
	c->cqe_size = 64;
	c->cqe_log_num = (uint8_t)l->log_n;
	c->dbrec = (uint32_t *)(void *)(g + l->dbr_off + 8u);
	c->mem_type = q->res.qm.in_gpu ? DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU : DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST;
}

static void release(struct doca_eth_rxq *q)
{
	struct eth_rxq_res *r = &q->res;

	if (r->id_registered)
		ogda_eth_rxq_ids_remove(q->dev, q->queue_id);
	if (r->rq != NULL)
		(void)r->qm.devx->ops->obj_destroy(r->rq);
	if (r->qm.devx != NULL) {
		struct ogda_devx *devx = r->qm.devx;

		eth_queue_mem_release(&r->qm); /* the CQ names the UAR: it goes first */
		if (r->uar != NULL)
			(void)devx->ops->uar_free(r->uar);
	}
	if (r->handle != NULL)
		(void)doca_gpu_mem_free(eth_rxq_exec(q), r->handle);
	eth_rxq_mcst_destroy(q); /* after the handle: device code reaches it through the handle */
	eth_rxq_cpu_release(q);  /* the host handle last: the memory above was allocated through it */
	if (r->dev_used)
		core_dev_unuse(q->dev);
	memset(r, 0, sizeof(*r));
}

static doca_error_t make_handle(struct doca_eth_rxq *q, const struct layout *l, uint64_t addr, uint32_t mkey,
			       struct doca_gpu_dev_verbs_qp *mcst)
{
	void *h = NULL;
	doca_error_t err;

	fill_view(q, l, addr, mkey);
	q->view.mcst_qp = mcst;
	err = doca_gpu_mem_alloc(eth_rxq_exec(q), sizeof(q->view), HANDLE_ALIGN, DOCA_GPU_MEM_TYPE_GPU, &h, NULL);
	if (err != DOCA_SUCCESS)
		return err;
	q->res.handle = h;
	return ogda_gpu_copy_to_dev(eth_rxq_exec(q), h, &q->view, sizeof(q->view));
}

doca_error_t eth_rxq_start(struct doca_ctx *ctx)
{
	struct doca_eth_rxq *q = (struct doca_eth_rxq *)ctx;
	struct eth_rxq_res *r = &q->res;
	struct ogda_devx_uar_info uar = {0};
	struct doca_gpu_dev_verbs_qp *mcst = NULL;
	struct ogda_devx_pd *pd = NULL;
	uint32_t pdn = 0, mkey = 0;
	uint64_t addr = 0;
	struct layout l;
	doca_error_t err;

	if (ctx->gpu == NULL) {
		/* CPU data path: the same queue, built for a host handle of its own (rxq_cpu.c) */
		err = eth_rxq_cpu_prepare(q);
		if (err != DOCA_SUCCESS)
			return err;
	} else if (q->type != DOCA_ETH_RXQ_TYPE_CYCLIC) {
		OGDA_LOG_ERR("eth_rxq: a GPU data path needs DOCA_ETH_RXQ_TYPE_CYCLIC (MANAGED_MEMPOOL and REGULAR are the CPU's)");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	plan(q, &l);
	err = striding_ok(q, &l);
	if (err == DOCA_SUCCESS && own_buffers(q))
		err = pkt_buf(q, 1u << l.log_n, &addr, &mkey);
	else if (err == DOCA_SUCCESS && q->pkt_mmap != NULL)
		OGDA_LOG_WARN("eth_rxq: a REGULAR queue does not use the packet buffer of doca_eth_rxq_set_pkt_buf(): "
			      "each receive task brings its own buffer");
	if (err == DOCA_SUCCESS)
		err = core_dev_resolve(q->dev, &r->qm.devx, &pd, &pdn);
	if (err != DOCA_SUCCESS) {
		eth_rxq_cpu_release(q);
		return err;
	}
	r->qm.gpu = eth_rxq_exec(q);
	core_dev_use(q->dev);
	r->dev_used = true;
	/* the CPU data path's rings are host memory: its handle's "GPU memory" would be taken for a GPU's */
	err = eth_queue_mem_alloc(&r->qm, ctx->gpu == NULL ? DOCA_GPU_MEM_TYPE_CPU_GPU : q->rq_mem_type, l.len, l.cq_off,
				  l.log_n, "eth_rxq");
	if (err == DOCA_SUCCESS)
		err = r->qm.devx->ops->uar_alloc(r->qm.devx, OGDA_DEVX_UAR_NC, &r->uar, &uar);
	if (err == DOCA_SUCCESS)
		err = eth_queue_cq_create(&r->qm, l.log_n, l.cq_off, l.dbr_off + 8u, uar.page_id, "eth_rxq");
	if (err == DOCA_SUCCESS) {
		post_all(q, &l, addr, mkey);
		err = eth_queue_mem_publish(&r->qm, "eth_rxq");
	}
	if (err == DOCA_SUCCESS) {
		err = create_rq(q, &l, pdn);
	}
	if (err == DOCA_SUCCESS && q->need_mcst)
		err = eth_rxq_mcst_create(q, &mcst);
	if (err == DOCA_SUCCESS)
		err = make_handle(q, &l, addr, mkey, mcst);
	if (err == DOCA_SUCCESS && ctx->gpu == NULL)
		err = eth_rxq_cpu_init(q);
	if (err == DOCA_SUCCESS && q->has_queue_id) {
		err = ogda_eth_rxq_ids_add(q->dev, q->queue_id, r->rqn);
		r->id_registered = err == DOCA_SUCCESS;
	}
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("eth_rxq: cannot start on %s: %s", core_dev_name(q->dev), doca_error_get_descr(err));
		release(q);
		return err;
	}
	OGDA_LOG_DBG("eth_rxq: RQ 0x%x (2^%u packets of %u bytes, 2^%u per WQE), CQ 0x%x on %s", r->rqn, l.log_n,
		     q->max_pkt, l.log_strides, r->qm.cqn, core_dev_name(q->dev));
	return DOCA_SUCCESS;
}

doca_error_t eth_rxq_stop(struct doca_ctx *ctx)
{
	release((struct doca_eth_rxq *)ctx);
	return DOCA_SUCCESS;
}
