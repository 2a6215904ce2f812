/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Start and stop of a doca_eth_txq: one block of queue memory (SQ ring, CQ ring, the two doorbell
 * records) registered as a umem, a UAR, then CREATE_CQ, ALLOC_TRANSPORT_DOMAIN, CREATE_TIS, CREATE_SQ and MODIFY_SQ
 * RST -> RDY through the device interface, and the device handle (struct doca_gpu_eth_txq) that
 * device code posts through. A queue without a GPU data path (CPU data path, txq_cpu.c) is the
 * same queue built for a host handle of its own. Stop destroys them in reverse order. Every command is the PRM image
 * built in src/prm, so the software NIC and a ConnectX receive the same bytes.
 */
#include "eth/eth_priv.h"

#include "core/log.h"
#include "devx/devx.h"
#include "devx/hw.h"
#include "devx/sw.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda_mlx5.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_sq.h"
#include "verbs/verbs_priv.h"

#include <string.h>

#define QMEM_ALIGN 4096u
#define DBR_BYTES 64u      /* SQ record at +0, CQ record at +8 */
#define HANDLE_ALIGN 64u

/* The queue memory block: [SQ ring][CQ ring][DBRs]. */
struct layout {
	uint32_t log_wqebbs, log_cqes;
	size_t sq_off, cq_off, dbr_off, len;
};

static void plan(const struct doca_eth_txq *t, struct layout *l)
{
	/* One WQEBB per send; at least 64 so that a small burst still leaves room to keep posting. */
	l->log_wqebbs = eth_log2_ceil(t->max_burst < 64 ? 64 : t->max_burst);
	l->log_cqes = l->log_wqebbs;
	l->sq_off = 0;
	l->cq_off = (size_t)OPENGDA_MLX5_SEND_WQE_BB << l->log_wqebbs;
	l->dbr_off = l->cq_off + ((size_t)64 << l->log_cqes);
	l->len = (l->dbr_off + DBR_BYTES + QMEM_ALIGN - 1) & ~(size_t)(QMEM_ALIGN - 1);
}

static doca_error_t create_tis_sq(struct doca_eth_txq *t, const struct layout *l, uint32_t pdn, uint32_t umem_id,
				  uint32_t uar_page)
{
	struct eth_txq_res *r = &t->res;
	struct prm_create_tis_params tp;
	struct prm_create_sq_params sp;
	struct prm_modify_sq_params mp;
	uint8_t in[PRM_SQ_CMD_SIZE], out[PRM_SQ_SMALL_CMD_SIZE] = {0};
	doca_error_t err;

	err = prm_alloc_td_in_build(0, in, PRM_SQ_SMALL_CMD_SIZE);
	if (err == DOCA_SUCCESS)
		err = eth_run_create(r->qm.devx, in, PRM_SQ_SMALL_CMD_SIZE, out, sizeof(out), &r->td, "ALLOC_TRANSPORT_DOMAIN");
	if (err == DOCA_SUCCESS)
		err = prm_alloc_td_out_parse(out, sizeof(out), &r->tdn);
	if (err != DOCA_SUCCESS)
		return err;
	memset(&tp, 0, sizeof(tp));
	memset(out, 0, sizeof(out));
	tp.tisc.pd = pdn;
	tp.tisc.transport_domain = r->tdn;
	err = prm_create_tis_in_build(&tp, in, PRM_TIS_CMD_SIZE);
	if (err == DOCA_SUCCESS)
		err = eth_run_create(r->qm.devx, in, PRM_TIS_CMD_SIZE, out, sizeof(out), &r->tis, "CREATE_TIS");
	if (err == DOCA_SUCCESS)
		err = prm_create_tis_out_parse(out, sizeof(out), &r->tisn);
	if (err != DOCA_SUCCESS)
		return err;

	memset(&sp, 0, sizeof(sp));
	sp.sqc.flush_in_error_en = 1;
	sp.sqc.allow_multi_pkt_send_wqe = 1; /* the device API's enhanced multi-packet send */
	sp.sqc.min_wqe_inline_mode = PRM_SQ_INLINE_NONE;
	sp.sqc.state = PRM_SQ_STATE_RST;
	sp.sqc.cqn = r->qm.cqn;
	sp.sqc.tis_lst_sz = 1;
	sp.sqc.tis_num_0 = r->tisn;
	sp.sqc.wq.wq_type = PRM_WQ_TYPE_CYCLIC;
	sp.sqc.wq.pd = pdn;
	sp.sqc.wq.uar_page = uar_page;
	sp.sqc.wq.dbr_addr = l->dbr_off;
	sp.sqc.wq.log_wq_stride = OPENGDA_MLX5_SEND_WQE_SHIFT;
	sp.sqc.wq.log_wq_sz = (uint8_t)l->log_wqebbs;
	sp.sqc.wq.dbr_umem_valid = 1;
	sp.sqc.wq.wq_umem_valid = 1;
	sp.sqc.wq.dbr_umem_id = umem_id;
	sp.sqc.wq.wq_umem_id = umem_id;
	sp.sqc.wq.wq_umem_offset = l->sq_off;
	memset(out, 0, sizeof(out));
	err = prm_create_sq_in_build(&sp, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = eth_run_create(r->qm.devx, in, sizeof(in), out, sizeof(out), &r->sq, "CREATE_SQ");
	if (err == DOCA_SUCCESS)
		err = prm_create_sq_out_parse(out, sizeof(out), &r->sqn);
	if (err != DOCA_SUCCESS)
		return err;

	memset(&mp, 0, sizeof(mp));
	mp.sq_state = PRM_SQ_STATE_RST;
	mp.sqn = r->sqn;
	mp.sqc.state = PRM_SQ_STATE_RDY;
	memset(out, 0, sizeof(out));
	err = prm_modify_sq_in_build(&mp, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = verbs_cmd_result(r->qm.devx->ops->obj_modify(r->sq, in, sizeof(in), out, sizeof(out)), out, sizeof(out),
				       "MODIFY_SQ");
	return err;
}

/* The device view: the shared protocol's QP fields over this SQ and its CQ. */
static void fill_view(struct doca_eth_txq *t, const struct layout *l)
{
	struct eth_txq_res *r = &t->res;
	struct doca_gpu_dev_verbs_qp *v = &t->view.qp;
	struct doca_gpu_dev_verbs_cq *c = &v->cq_sq;
	uint8_t *g = r->qm.mem_gpu;
	uint32_t n = 1u << l->log_wqebbs;

	memset(&t->view, 0, sizeof(t->view));
	v->sq_num = r->sqn;
	v->sq_num_shift8 = r->sqn << 8;
	v->sq_num_shift8_be = opengda_mlx5_htobe32(r->sqn << 8);
	v->sq_num_shift8_be_1ds = opengda_mlx5_htobe32(r->sqn << 8 | 1u);
	v->sq_num_shift8_be_2ds = opengda_mlx5_htobe32(r->sqn << 8 | 2u);
	v->sq_num_shift8_be_3ds = opengda_mlx5_htobe32(r->sqn << 8 | 3u);
	v->sq_num_shift8_be_4ds = opengda_mlx5_htobe32(r->sqn << 8 | 4u);
	v->sq_num_shift8_be_5ds = opengda_mlx5_htobe32(r->sqn << 8 | 5u);
	v->sq_wqe_num = n;
	v->sq_wqe_mask = n - 1u;
	v->sq_log_wqe_num = l->log_wqebbs;
	v->sq_wqe_daddr = g + l->sq_off;
	v->sq_dbrec = (uint32_t *)(void *)(g + l->dbr_off) + OPENGDA_MLX5_SND_DBR;
	v->sq_db = t->uar_on_cpu ? r->mailbox_gpu : r->db_gpu;
	v->ogda_pi_mailbox = t->uar_on_cpu ? r->mailbox_gpu : NULL;
	v->ogda_ready_slots = r->ready_slots;
	v->nic_handler = t->uar_on_cpu ? DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY : DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB;
	v->mem_type = r->qm.in_gpu ? DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU : DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST;
	v->send_dbr_mode_ext = DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR;
	c->cqe_daddr = g + l->cq_off;
	c->cq_num = r->qm.cqn;
	c->cqe_num = 1u << l->log_cqes;
	c->cqe_mask = c->cqe_num - 1u;
	c->cqe_size = 64;
	c->cqe_log_num = (uint8_t)l->log_cqes;
	c->dbrec = (uint32_t *)(void *)(g + l->dbr_off + 8u);
	c->ogda_flags = OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC; /* keeps SET_CI current, as DOCA's poll does */
	c->mem_type = v->mem_type;
	t->view.enable_l3_cs_offload = t->l3_csum;
	t->view.enable_l4_cs_offload = t->l4_csum;
	t->view.cs_flags = (uint8_t)((t->l3_csum ? DOCA_GPUNETIO_ETH_L3_CSUM : 0u) |
				     (t->l4_csum ? DOCA_GPUNETIO_ETH_L4_CSUM : 0u));
}

static void release(struct doca_eth_txq *t)
{
	struct eth_txq_res *r = &t->res;
	struct doca_gpu *gpu = eth_txq_exec(t);
	struct ogda_devx *devx = r->qm.devx;

	if (r->sq != NULL)
		(void)devx->ops->obj_destroy(r->sq);
	if (r->tis != NULL)
		(void)devx->ops->obj_destroy(r->tis);
	if (r->td != NULL)
		(void)devx->ops->obj_destroy(r->td);
	eth_queue_mem_release(&r->qm); /* the CQ names the UAR: it goes first */
	if (r->handle != NULL)
		(void)doca_gpu_mem_free(gpu, r->handle);
	if (r->ready_slots != NULL)
		(void)doca_gpu_mem_free(gpu, r->ready_slots);
	(void)ogda_gpu_doorbell_unmap(gpu, &r->db_map); /* logs a failure; nothing for a CPU proxy */
	if (r->mailbox_gpu != NULL)
		(void)doca_gpu_mem_free(gpu, r->mailbox_gpu);
	if (r->uar != NULL)
		(void)devx->ops->uar_free(r->uar);
	eth_txq_cpu_release(t); /* the host handle last: the memory above was allocated through it */
	if (r->dev_used)
		core_dev_unuse(t->dev);
	memset(r, 0, sizeof(*r));
}

/*
 * Where the CPU reaches the queue memory: the CQ ring for progress-engine events (read in place,
 * or copied from GPU memory that has no CPU mapping: txq_event.c) and the SQ doorbell record the
 * CPU proxy writes, which needs memory the CPU can store to.
 */
static doca_error_t cpu_reach(struct doca_eth_txq *t, const struct layout *l)
{
	struct eth_txq_res *r = &t->res;
	uint8_t *cpu = r->qm.mem_cpu;

	r->log_cqes = l->log_cqes;
	r->cqes_gpu = (uint8_t *)r->qm.mem_gpu + l->cq_off;
	if (cpu == NULL) {
		if (t->uar_on_cpu) {
			OGDA_LOG_ERR("eth_txq: the CPU proxy (doca_eth_txq_gpu_set_uar_on_cpu) writes the doorbell record, "
				     "which a queue in GPU memory without a CPU mapping keeps out of its reach: use "
				     "DOCA_GPU_MEM_TYPE_GPU_CPU or CPU_GPU");
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		return DOCA_SUCCESS;
	}
	r->cqes_cpu = cpu + l->cq_off;
	r->dbr_cpu = (uint32_t *)(void *)(cpu + l->dbr_off) + OPENGDA_MLX5_SND_DBR;
	return DOCA_SUCCESS;
}

/* CPU proxy: the host word device code publishes its producer index in (pinned, GPU-mapped). */
static doca_error_t make_mailbox(struct doca_eth_txq *t)
{
	struct eth_txq_res *r = &t->res;
	void *cpu = NULL;
	doca_error_t err = doca_gpu_mem_alloc(eth_txq_exec(t), sizeof(uint64_t), sizeof(uint64_t), DOCA_GPU_MEM_TYPE_CPU_GPU,
					      &r->mailbox_gpu, &cpu);

	if (err != DOCA_SUCCESS) {
		r->mailbox_gpu = NULL;
		return err;
	}
	r->mailbox_cpu = cpu;
	__atomic_store_n(r->mailbox_cpu, 0, __ATOMIC_RELEASE);
	r->last_pi = 0;
	return DOCA_SUCCESS;
}

static doca_error_t make_handle(struct doca_eth_txq *t, const struct layout *l)
{
	struct eth_txq_res *r = &t->res;
	struct doca_gpu *gpu = eth_txq_exec(t);
	size_t slots = ((size_t)8u << l->log_wqebbs);
	void *h = NULL;
	doca_error_t err;

	err = doca_gpu_mem_alloc(gpu, slots, 8, DOCA_GPU_MEM_TYPE_GPU, &r->ready_slots, NULL);
	if (err != DOCA_SUCCESS) {
		r->ready_slots = NULL;
		return err;
	}
	err = ogda_gpu_memset_dev(gpu, r->ready_slots, 0, slots);
	if (err != DOCA_SUCCESS)
		return err;
	fill_view(t, l);
	err = doca_gpu_mem_alloc(gpu, sizeof(t->view), HANDLE_ALIGN, DOCA_GPU_MEM_TYPE_GPU, &h, NULL);
	if (err != DOCA_SUCCESS)
		return err;
	r->handle = h;
	return ogda_gpu_copy_to_dev(gpu, h, &t->view, sizeof(t->view));
}

doca_error_t eth_txq_start(struct doca_ctx *ctx)
{
	struct doca_eth_txq *t = (struct doca_eth_txq *)ctx;
	struct eth_txq_res *r = &t->res;
	struct ogda_devx_uar_info uar = {0};
	struct ogda_devx_pd *pd = NULL;
	uint32_t pdn = 0;
	struct layout l;
	doca_error_t err;

	/* CPU data path: the same queue, built for a host handle of its own (txq_cpu.c) */
	if (ctx->gpu == NULL && (err = eth_txq_cpu_prepare(t)) != DOCA_SUCCESS)
		return err;
	err = core_dev_resolve(t->dev, &r->qm.devx, &pd, &pdn);
	r->qm.gpu = eth_txq_exec(t);
	if (err != DOCA_SUCCESS) {
		eth_txq_cpu_release(t);
		return err;
	}
	core_dev_use(t->dev);
	r->dev_used = true;
	plan(t, &l);
	/* the CPU data path's rings are host memory: its handle's "GPU memory" would be taken for a GPU's */
	err = eth_queue_mem_alloc(&r->qm, ctx->gpu == NULL ? DOCA_GPU_MEM_TYPE_CPU_GPU : t->sq_mem_type, l.len,
				  l.cq_off, l.log_cqes, "eth_txq");
	if (err == DOCA_SUCCESS)
		err = eth_queue_mem_publish(&r->qm, "eth_txq");
	if (err == DOCA_SUCCESS)
		err = cpu_reach(t, &l);
	if (err == DOCA_SUCCESS)
		err = r->qm.devx->ops->uar_alloc(r->qm.devx, OGDA_DEVX_UAR_NC, &r->uar, &uar);
	if (err == DOCA_SUCCESS) {
		r->db_cpu = uar.reg_addr;
		/*
		 * A ConnectX UAR is device memory: the Verbs export's I/O-memory mapping, shared per page
		 * (a host mapping for the software NIC and for the CPU data path's host handle).
		 */
		err = t->uar_on_cpu ? make_mailbox(t)
				    : ogda_gpu_doorbell_map(eth_txq_exec(t), uar.base_addr, uar.reg_addr,
							    ogda_devx_host_queues_only(r->qm.devx), &r->db_map, &r->db_gpu);
	}
	if (err == DOCA_SUCCESS)
		err = eth_queue_cq_create(&r->qm, l.log_cqes, l.cq_off, l.dbr_off + 8u, uar.page_id, "eth_txq");
	if (err == DOCA_SUCCESS)
		err = create_tis_sq(t, &l, pdn, r->qm.umem_id, uar.page_id);
	if (err == DOCA_SUCCESS)
		err = make_handle(t, &l);
	if (err == DOCA_SUCCESS && ctx->gpu == NULL)
		err = eth_txq_cpu_init(t, 1u << l.log_wqebbs);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("eth_txq: cannot start on %s: %s", core_dev_name(t->dev), doca_error_get_descr(err));
		release(t);
		return err;
	}
	OGDA_LOG_DBG("eth_txq: SQ 0x%x (2^%u WQEBBs), CQ 0x%x, TIS 0x%x on %s", r->sqn, l.log_wqebbs, r->qm.cqn, r->tisn,
		     core_dev_name(t->dev));
	return DOCA_SUCCESS;
}

doca_error_t eth_txq_stop(struct doca_ctx *ctx)
{
	struct doca_eth_txq *t = (struct doca_eth_txq *)ctx;

	pthread_mutex_lock(&t->proxy_lock); /* no proxy step runs while the queue goes */
	release(t);
	pthread_mutex_unlock(&t->proxy_lock);
	return DOCA_SUCCESS;
}
