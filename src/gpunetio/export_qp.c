/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exporting a DOCA Verbs QP to device code: checks that the QP, its send CQ, the handler and
 * the doorbell-record mode fit together, makes every queue reachable for the executing threads
 * and builds struct doca_gpu_dev_verbs_qp (include/doca_gpunetio_verbs_dev.h).
 *
 * Handler resolution (requested handler x send_dbr_mode_ext):
 *   AUTO          GPU_SM_DB (VALID_DBR) or GPU_SM_NO_DBR (NO_DBR_HW, NO_DBR_SW_EMULATED) when
 *                 the GPU can map the doorbell; else CPU_PROXY with a service of the library's own.
 *   GPU_SM_DB/BF  kept for VALID_DBR; GPU_SM_NO_DBR for the two DBR-less modes (as DOCA does).
 *   GPU_SM_NO_DBR refused for VALID_DBR (the record would never be written).
 *   CPU_PROXY     kept; the caller drives it (cpu_proxy_progress or a service).
 * NO_DBR_SW_EMULATED under GPU_SM_NO_DBR always gets a library service, which keeps the record.
 *
 * sq_dbrec is set only where device code writes the record (GPU_SM_DB, GPU_SM_BF); sq_db is
 * the QP's doorbell register (base + 0x800, or base + 0x600 for a DBR-less QP) as the
 * executing threads see it, or the proxy mailbox under CPU_PROXY.
 */
#include "gpunetio/gverbs_qp.h"

#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda_mlx5.h"
#include "verbs/verbs_priv.h"
#include "verbs/verbs_util.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

#define MAILBOX_ALIGN 64u

static pthread_mutex_t exports_lock = PTHREAD_MUTEX_INITIALIZER;
static struct doca_gpu_verbs_qp *exports; /* live exports, to refuse double exports and stale handles */
static bool force_uar_unmappable;

void ogda_gpu_export_force_uar_unmappable(bool force)
{
	__atomic_store_n(&force_uar_unmappable, force, __ATOMIC_RELAXED);
}

static bool uar_forced_unmappable(void)
{
	return __atomic_load_n(&force_uar_unmappable, __ATOMIC_RELAXED);
}

/* Adds gq unless its verbs QP is exported already (bridged exports have none). */
bool gverbs_registry_add(struct doca_gpu_verbs_qp *gq)
{
	struct doca_gpu_verbs_qp *it;

	pthread_mutex_lock(&exports_lock);
	for (it = exports; it != NULL; it = it->next_exported) {
		if (gq->qp != NULL && it->qp == gq->qp) {
			pthread_mutex_unlock(&exports_lock);
			return false;
		}
	}
	gq->next_exported = exports;
	exports = gq;
	pthread_mutex_unlock(&exports_lock);
	return true;
}

bool gverbs_registry_remove(struct doca_gpu_verbs_qp *gq)
{
	struct doca_gpu_verbs_qp **pp;

	pthread_mutex_lock(&exports_lock);
	for (pp = &exports; *pp != NULL; pp = &(*pp)->next_exported) {
		if (*pp == gq) {
			*pp = gq->next_exported;
			pthread_mutex_unlock(&exports_lock);
			return true;
		}
	}
	pthread_mutex_unlock(&exports_lock);
	return false;
}

bool gverbs_qp_is_exported(const struct doca_gpu_verbs_qp *gq)
{
	const struct doca_gpu_verbs_qp *it;
	bool found = false;

	pthread_mutex_lock(&exports_lock);
	for (it = exports; it != NULL && !found; it = it->next_exported)
		found = it == gq;
	pthread_mutex_unlock(&exports_lock);
	return found;
}

static bool qp_dbr_less(const struct doca_verbs_qp *qp)
{
	/* An emulated DBR-less QP is a valid-DBR QP for the NIC: it has a record to keep. */
	return qp->init.send_dbr_mode == DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT && !qp->init.emulate_no_dbr_ext;
}

bool gverbs_qp_needs_proxy(const struct doca_gpu_verbs_qp *gq)
{
	return gq->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY ||
	       gq->dbr_mode == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED;
}

static bool handler_valid(enum doca_gpu_dev_verbs_nic_handler h)
{
	return h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO || h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY ||
	       h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB || h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF ||
	       h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR;
}

static doca_error_t check_args(struct doca_gpu *gpu, struct doca_verbs_qp *qp,
			       enum doca_gpu_dev_verbs_nic_handler handler, struct doca_verbs_cq *cq,
			       enum doca_gpu_verbs_send_dbr_mode_ext mode, struct doca_gpu_verbs_qp **out)
{
	if (gpu == NULL || qp == NULL || cq == NULL || out == NULL) {
		OGDA_LOG_ERR("export_qp: NULL %s", gpu == NULL ? "GPU handle" : qp == NULL ? "QP"
						   : cq == NULL ? "send CQ" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!handler_valid(handler)) {
		OGDA_LOG_ERR("export_qp: %d is not a doca_gpu_dev_verbs_nic_handler value", (int)handler);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mode != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR &&
	    mode != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW &&
	    mode != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED) {
		OGDA_LOG_ERR("export_qp: %d is not a doca_gpu_verbs_send_dbr_mode_ext value", (int)mode);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* The QP must be fresh, have a send queue completing to cq, and a record mode matching mode. */
static doca_error_t check_qp(struct doca_verbs_qp *qp, struct doca_verbs_cq *cq,
			     enum doca_gpu_verbs_send_dbr_mode_ext mode)
{
	uint32_t dbr_send = 0;

	if (qp->sq == NULL || qp->sq_wqebbs == 0) {
		OGDA_LOG_ERR("export_qp: QP 0x%x has no send queue", qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->init.send_cq != cq) {
		OGDA_LOG_ERR("export_qp: CQ 0x%x is not the send CQ of QP 0x%x", cq->cqn, qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->dbr != NULL && verbs_mem_read(&dbr_send, &qp->dbr[OPENGDA_MLX5_SND_DBR], sizeof(dbr_send)) != DOCA_SUCCESS)
		return DOCA_ERROR_DRIVER;
	if (qp->sq_pi != 0 || (!qp_dbr_less(qp) && dbr_send != 0)) {
		OGDA_LOG_ERR("export_qp: QP 0x%x has posted work already (producer 0x%x): export a fresh QP, or "
			     "one moved through RST", qp->qpn, (unsigned)qp->sq_pi);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mode == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW && !qp_dbr_less(qp)) {
		OGDA_LOG_ERR("export_qp: NO_DBR_HW needs a QP created with send_dbr_mode NO_DBR_EXT (not emulated); "
			     "QP 0x%x has a doorbell record", qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mode != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW && qp_dbr_less(qp)) {
		OGDA_LOG_ERR("export_qp: QP 0x%x is DBR-less (NO_DBR_EXT): only NO_DBR_HW fits it", qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cq->cqe_size != OPENGDA_MLX5_SEND_WQE_BB) {
		OGDA_LOG_ERR("export_qp: CQ 0x%x has %u-byte CQEs; device code needs 64", cq->cqn, cq->cqe_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!cq->attr.collapsed && cq->ncqe < qp->sq_wqebbs) {
		OGDA_LOG_ERR("export_qp: CQ 0x%x has %u entries, fewer than the %u WQEs the SQ of QP 0x%x holds; device "
			     "code signals every WQE, so the CQ needs one entry per WQE (or collapse)",
			     cq->cqn, cq->ncqe, qp->sq_wqebbs, qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* The register doorbells of this QP go to, as the CPU sees it. */
static uint64_t *qp_db_register(const struct doca_verbs_qp *qp)
{
	if (qp_dbr_less(qp))
		return (uint64_t *)(void *)((uint8_t *)qp->uar->info.base_addr + OPENGDA_MLX5_UAR_DBR_LESS_OFFSET);
	return (uint64_t *)qp->uar->info.reg_addr;
}

/* Whether the executing threads can write the doorbell register themselves. */
static bool doorbell_mappable(const struct doca_gpu *gpu, uint64_t *reg)
{
	bool ok = false;

	if (uar_forced_unmappable())
		return false;
	if (gpu->info.is_host)
		return true; /* the CPU rings it */
	return doca_gpu_verbs_can_gpu_register_uar(reg, &ok) == DOCA_SUCCESS && ok;
}

static doca_error_t resolve_handler(struct doca_gpu_verbs_qp *gq, enum doca_gpu_dev_verbs_nic_handler req,
				    bool *own_service)
{
	bool valid = gq->dbr_mode == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR;
	enum doca_gpu_dev_verbs_nic_handler gpu_sm =
		valid ? DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB : DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR;

	*own_service = false;
	switch (req) {
	case DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO:
		if (doorbell_mappable(gq->gpu, qp_db_register(gq->qp))) {
			gq->nic_handler = gpu_sm;
		} else {
			gq->nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY;
			*own_service = true;
		}
		break;
	case DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB:
	case DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF:
		gq->nic_handler = valid ? req : DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR;
		break;
	case DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR:
		if (valid) {
			OGDA_LOG_ERR("export_qp: GPU_SM_NO_DBR never writes the doorbell record, which QP 0x%x in "
				     "VALID_DBR mode needs: use GPU_SM_DB, or NO_DBR_HW / NO_DBR_SW_EMULATED",
				     gq->qp->qpn);
			return DOCA_ERROR_INVALID_VALUE;
		}
		gq->nic_handler = req;
		break;
	default:
		gq->nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY;
		break;
	}
	if (gq->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR &&
	    gq->dbr_mode == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED)
		*own_service = true;
	return DOCA_SUCCESS;
}

/* Host memory is mapped for the executing threads; device memory is used as is. */
doca_error_t gverbs_map_queue(struct doca_gpu_verbs_qp *gq, void *addr, size_t len, const char *what,
			      struct gverbs_map *m, void **dev)
{
	doca_error_t err;

	if (ogda_gpu_is_device_ptr(gq->gpu, addr)) {
		*dev = addr;
		return DOCA_SUCCESS;
	}
	err = ogda_gpu_map_host(gq->gpu, addr, len, dev);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("export_qp: QP 0x%x: cannot make its %s (%zu bytes at %p) reachable for the GPU: %s",
			     gq->qp->qpn, what, len, addr, doca_error_get_descr(err));
		return err;
	}
	m->host = addr;
	m->dev = *dev;
	return DOCA_SUCCESS;
}

/* The doorbell register as the executing threads write it (ogda_gpu_doorbell_map). */
static doca_error_t map_doorbell(struct doca_gpu_verbs_qp *gq, uint64_t *reg, uint64_t **dev)
{
	doca_error_t err;

	if (uar_forced_unmappable()) {
		OGDA_LOG_ERR("export_qp: QP 0x%x: the GPU cannot map the doorbell register", gq->qp->qpn);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	/* The software NIC's UAR is a host page. */
	err = ogda_gpu_doorbell_map(gq->gpu, gq->qp->uar->info.base_addr, reg, gq->qp->ctx->info.swnic, &gq->db_map,
				    dev);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("export_qp: QP 0x%x: the GPU cannot map the doorbell register %p (%s): use AUTO or "
			     "CPU_PROXY", gq->qp->qpn, (void *)reg, doca_error_get_descr(err));
		return gq->gpu->info.is_host || gq->qp->ctx->info.swnic ? err : DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

void gverbs_unmap(struct doca_gpu_verbs_qp *gq, struct gverbs_map *m)
{
	if (m->host != NULL && ogda_gpu_unmap_host(gq->gpu, m->host) != DOCA_SUCCESS)
		OGDA_LOG_ERR("unexport_qp: QP 0x%x: could not release the mapping of %p", gq->qp->qpn, m->host);
	m->host = NULL;
}

static void free_dev(struct doca_gpu_verbs_qp *gq, void *p)
{
	if (p != NULL && doca_gpu_mem_free(gq->gpu, p) != DOCA_SUCCESS)
		OGDA_LOG_ERR("unexport_qp: QP 0x%x: could not free device memory %p", gq->qp->qpn, p);
}

/* Gives back everything export took (any subset of it). */
static void export_release(struct doca_gpu_verbs_qp *gq)
{
	gverbs_service_detach(gq);
	gverbs_unmap(gq, &gq->sq_map);
	gverbs_unmap(gq, &gq->qp_dbr_map);
	gverbs_unmap(gq, &gq->cq_map);
	gverbs_unmap(gq, &gq->cq_dbr_map);
	gverbs_rq_release(gq);
	if (ogda_gpu_doorbell_unmap(gq->gpu, &gq->db_map) != DOCA_SUCCESS)
		OGDA_LOG_ERR("unexport_qp: QP 0x%x: could not release the doorbell mapping", gq->qp->qpn);
	free_dev(gq, gq->ready_slots);
	free_dev(gq, gq->mailbox_gpu);
	free_dev(gq, gq->qp_gpu);
	pthread_mutex_destroy(&gq->proxy_lock);
}

/* Proxy modes: the CPU writes the record and the register, so both must be CPU memory. */
static doca_error_t setup_proxy(struct doca_gpu_verbs_qp *gq)
{
	struct doca_verbs_qp *qp = gq->qp;
	void *cpu = NULL, *dev = NULL;
	doca_error_t err;

	if (!qp_dbr_less(qp)) {
		if (!verbs_cpu_accessible(qp->dbr, 2 * sizeof(uint32_t))) {
			OGDA_LOG_ERR("export_qp: QP 0x%x: the CPU proxy writes the doorbell record, which is in GPU "
				     "memory: place it in host memory", qp->qpn);
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		gq->dbr_send_cpu = &qp->dbr[OPENGDA_MLX5_SND_DBR];
	}
	err = doca_gpu_mem_alloc(gq->gpu, sizeof(uint64_t), MAILBOX_ALIGN, DOCA_GPU_MEM_TYPE_CPU_GPU, &dev, &cpu);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("export_qp: QP 0x%x: cannot allocate the proxy mailbox", qp->qpn);
		return err;
	}
	gq->mailbox_gpu = dev;
	gq->mailbox_cpu = cpu;
	__atomic_store_n(gq->mailbox_cpu, 0, __ATOMIC_RELEASE);
	return DOCA_SUCCESS;
}

void gverbs_fill_cq_view(const struct doca_gpu *gpu, struct doca_gpu_dev_verbs_cq *c, const struct doca_verbs_cq *cq,
			 void *ring_dev, void *dbr_dev)
{
	c->cqe_daddr = ring_dev;
	c->cq_num = cq->cqn;
	c->cqe_num = cq->ncqe;
	c->dbrec = dbr_dev;
	c->cqe_mask = cq->ncqe - 1u;
	c->cqe_size = (uint8_t)cq->cqe_size;
	c->cqe_log_num = (uint8_t)cq->log_ncqe;
	c->ogda_flags = (uint16_t)((cq->attr.collapsed ? OPENGDA_DEV_CQ_FLAG_COLLAPSED : 0u) |
				   (cq->attr.overrun == DOCA_VERBS_CQ_DISABLE_OVERRUN ? OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC : 0u));
	c->mem_type = ogda_gpu_is_device_ptr(gpu, cq->ring) ? DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU
							    : DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST;
}

static void fill_qp_view(struct doca_gpu_verbs_qp *gq, void *sq_dev)
{
	struct doca_gpu_dev_verbs_qp *v = &gq->qp_cpu;
	uint32_t qpn = gq->qp->qpn;

	v->sq_num = qpn;
	v->sq_num_shift8 = qpn << 8;
	v->sq_num_shift8_be = opengda_mlx5_htobe32(qpn << 8);
	v->sq_num_shift8_be_1ds = opengda_mlx5_htobe32(qpn << 8 | 1u);
	v->sq_num_shift8_be_2ds = opengda_mlx5_htobe32(qpn << 8 | 2u);
	v->sq_num_shift8_be_3ds = opengda_mlx5_htobe32(qpn << 8 | 3u);
	v->sq_num_shift8_be_4ds = opengda_mlx5_htobe32(qpn << 8 | 4u);
	v->sq_num_shift8_be_5ds = opengda_mlx5_htobe32(qpn << 8 | 5u);
	v->sq_wqe_num = gq->qp->sq_wqebbs;
	v->sq_wqe_mask = gq->qp->sq_wqebbs - 1u;
	v->sq_log_wqe_num = verbs_log2_ceil(gq->qp->sq_wqebbs);
	v->sq_wqe_daddr = sq_dev;
	v->ogda_ready_slots = gq->ready_slots;
	v->ogda_pi_mailbox = gq->mailbox_gpu;
	v->nic_handler = gq->nic_handler;
	v->mem_type = ogda_gpu_is_device_ptr(gq->gpu, gq->qp->sq) ? DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU
								   : DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST;
	v->send_dbr_mode_ext = gq->dbr_mode;
}

/* Maps the queues, allocates the device-side words and fills the view. */
static doca_error_t build(struct doca_gpu_verbs_qp *gq)
{
	struct doca_verbs_qp *qp = gq->qp;
	struct doca_verbs_cq *cq = gq->cq;
	size_t slots_len = (size_t)qp->sq_wqebbs * sizeof(uint64_t);
	void *sq_dev = NULL, *cq_dev = NULL, *cq_dbr_dev = NULL, *dev = NULL;
	bool gpu_rings = gq->nic_handler != DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY;
	doca_error_t err;

	gq->db_reg_cpu = qp_db_register(qp);
	err = gverbs_map_queue(gq, qp->sq, (size_t)qp->sq_wqebbs * OPENGDA_MLX5_SEND_WQE_BB, "send queue", &gq->sq_map,
			&sq_dev);
	if (err == DOCA_SUCCESS)
		err = gverbs_map_queue(gq, cq->ring, (size_t)cq->ncqe * cq->cqe_size, "CQ ring", &gq->cq_map, &cq_dev);
	if (err == DOCA_SUCCESS)
		err = gverbs_map_queue(gq, cq->dbr, 2 * sizeof(uint32_t), "CQ doorbell record", &gq->cq_dbr_map, &cq_dbr_dev);
	if (err == DOCA_SUCCESS && (gq->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB ||
				    gq->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF)) {
		err = gverbs_map_queue(gq, qp->dbr, 2 * sizeof(uint32_t), "doorbell record", &gq->qp_dbr_map, &dev);
		if (err == DOCA_SUCCESS)
			gq->qp_cpu.sq_dbrec = (uint32_t *)dev + OPENGDA_MLX5_SND_DBR;
	}
	if (err == DOCA_SUCCESS && gpu_rings)
		err = map_doorbell(gq, qp_db_register(qp), &gq->qp_cpu.sq_db);
	if (err == DOCA_SUCCESS && gverbs_qp_needs_proxy(gq))
		err = setup_proxy(gq);
	if (err != DOCA_SUCCESS)
		return err;
	err = doca_gpu_mem_alloc(gq->gpu, slots_len, sizeof(uint64_t), DOCA_GPU_MEM_TYPE_GPU, &gq->ready_slots, NULL);
	if (err != DOCA_SUCCESS) {
		gq->ready_slots = NULL;
		OGDA_LOG_ERR("export_qp: QP 0x%x: cannot allocate %zu bytes of readiness slots", qp->qpn, slots_len);
		return err;
	}
	err = ogda_gpu_memset_dev(gq->gpu, gq->ready_slots, 0, slots_len);
	if (err != DOCA_SUCCESS)
		return err;
	if (!gpu_rings)
		gq->qp_cpu.sq_db = gq->mailbox_gpu;
	fill_qp_view(gq, sq_dev);
	gverbs_fill_cq_view(gq->gpu, &gq->qp_cpu.cq_sq, cq, cq_dev, cq_dbr_dev);
	return gverbs_rq_build(gq);
}

/* The export itself; cq_rq (may be NULL: send side only) was checked by the caller. */
static doca_error_t export_qp(struct doca_gpu *gpu_dev, struct doca_verbs_qp *qp,
			      enum doca_gpu_dev_verbs_nic_handler nic_handler, struct doca_verbs_cq *cq_sq,
			      struct doca_verbs_cq *cq_rq, enum doca_gpu_verbs_send_dbr_mode_ext send_dbr_mode_ext,
			      struct doca_gpu_verbs_qp **qp_out)
{
	struct doca_gpu_verbs_qp *gq;
	bool own_service = false;
	doca_error_t err;

	gq = calloc(1, sizeof(*gq));
	if (gq == NULL) {
		OGDA_LOG_ERR("export_qp: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	gq->gpu = gpu_dev;
	gq->qp = qp;
	gq->cq = cq_sq;
	gq->cq_rq = cq_rq;
	gq->dbr_mode = send_dbr_mode_ext;
	pthread_mutex_init(&gq->proxy_lock, NULL);
	if (!gverbs_registry_add(gq)) {
		OGDA_LOG_ERR("export_qp: QP 0x%x is exported already", qp->qpn);
		pthread_mutex_destroy(&gq->proxy_lock);
		free(gq);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* From here on the QP and CQ refuse destruction: building the export reads them. */
	verbs_export_get(qp, cq_sq);
	err = resolve_handler(gq, nic_handler, &own_service);
	if (err == DOCA_SUCCESS)
		err = build(gq);
	if (err == DOCA_SUCCESS && own_service)
		err = gverbs_service_start_own(gq);
	if (err != DOCA_SUCCESS) {
		(void)gverbs_registry_remove(gq);
		export_release(gq);
		verbs_export_put(qp, cq_sq);
		free(gq);
		return err;
	}
	ogda_gpu_export_get(gpu_dev);
	OGDA_LOG_DBG("QP 0x%x exported: handler %d, DBR mode %d, %u WQEBBs, CQ 0x%x%s", qp->qpn, (int)gq->nic_handler,
		     (int)send_dbr_mode_ext, qp->sq_wqebbs, cq_sq->cqn, own_service ? ", own proxy service" : "");
	*qp_out = gq;
	return DOCA_SUCCESS;
}

/*
 * The receive CQ the 2.0-signature export takes along: the QP's own when it has a receive queue
 * of its own, completing to a CQ of its own that fits (gverbs_rq_check); else none.
 */
static struct doca_verbs_cq *implicit_cq_rq(const struct doca_verbs_qp *qp, const struct doca_verbs_cq *cq_sq)
{
	struct doca_verbs_cq *cq_rq = qp->init.receive_cq;

	if (qp->rq == NULL || qp->init.srq != NULL || cq_rq == NULL || cq_rq == cq_sq)
		return NULL;
	if (gverbs_rq_check(qp, cq_sq, cq_rq) != DOCA_SUCCESS) {
		OGDA_LOG_DBG("export_qp: QP 0x%x: receive queue not exported (its CQ does not fit)", qp->qpn);
		return NULL;
	}
	return cq_rq;
}

doca_error_t doca_gpu_verbs_export_qp(struct doca_gpu *gpu_dev, struct doca_verbs_qp *qp,
				      enum doca_gpu_dev_verbs_nic_handler nic_handler, void *gpu_qp_umem_dev_ptr,
				      struct doca_verbs_cq *cq_sq, enum doca_gpu_verbs_send_dbr_mode_ext send_dbr_mode_ext,
				      struct doca_gpu_verbs_qp **qp_out)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_export_qp, (gpu_dev, qp, nic_handler, gpu_qp_umem_dev_ptr, cq_sq, send_dbr_mode_ext, qp_out));
	doca_error_t err;

	(void)gpu_qp_umem_dev_ptr; /* the QP knows where its memory is */
	err = check_args(gpu_dev, qp, nic_handler, cq_sq, send_dbr_mode_ext, qp_out);
	if (err == DOCA_SUCCESS)
		err = check_qp(qp, cq_sq, send_dbr_mode_ext);
	if (err != DOCA_SUCCESS)
		return err;
	return export_qp(gpu_dev, qp, nic_handler, cq_sq, implicit_cq_rq(qp, cq_sq), send_dbr_mode_ext, qp_out);
}

doca_error_t opengda_gpu_verbs_export_qp_rq(struct doca_gpu *gpu_dev, struct doca_verbs_qp *qp,
					    enum doca_gpu_dev_verbs_nic_handler nic_handler, struct doca_verbs_cq *cq_sq,
					    struct doca_verbs_cq *cq_rq,
					    enum doca_gpu_verbs_send_dbr_mode_ext send_dbr_mode_ext,
					    struct doca_gpu_verbs_qp **qp_out)
{
	doca_error_t err = check_args(gpu_dev, qp, nic_handler, cq_sq, send_dbr_mode_ext, qp_out);

	if (err == DOCA_SUCCESS)
		err = check_qp(qp, cq_sq, send_dbr_mode_ext);
	if (err == DOCA_SUCCESS && cq_rq == NULL) {
		OGDA_LOG_ERR("export_qp_rq: NULL receive CQ (use doca_gpu_verbs_export_qp for a send-only export)");
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err == DOCA_SUCCESS)
		err = gverbs_rq_check(qp, cq_sq, cq_rq);
	if (err != DOCA_SUCCESS)
		return err;
	return export_qp(gpu_dev, qp, nic_handler, cq_sq, cq_rq, send_dbr_mode_ext, qp_out);
}

doca_error_t doca_gpu_verbs_unexport_qp(struct doca_gpu *gpu_dev, struct doca_gpu_verbs_qp *qp)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_unexport_qp, (gpu_dev, qp));
	if (gpu_dev == NULL || qp == NULL) {
		OGDA_LOG_ERR("unexport_qp: NULL %s", gpu_dev == NULL ? "GPU handle" : "QP");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!gverbs_qp_is_exported(qp)) {
		OGDA_LOG_ERR("unexport_qp: %p is not an exported QP", (void *)qp);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->gpu != gpu_dev) {
		OGDA_LOG_ERR("unexport_qp: QP 0x%x was exported with another GPU handle", qp->qp_cpu.sq_num);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->qp == NULL)
		return gverbs_bridge_unexport(qp);
	if (!gverbs_registry_remove(qp)) {
		OGDA_LOG_ERR("unexport_qp: QP 0x%x is being unexported by another thread", qp->qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	export_release(qp);
	/* Only now: the release above still reads the verbs QP and CQ. */
	verbs_export_put(qp->qp, qp->cq);
	ogda_gpu_export_put(gpu_dev);
	free(qp);
	return DOCA_SUCCESS;
}
