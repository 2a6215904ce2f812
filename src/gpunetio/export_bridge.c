/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpu_verbs_bridge_export_qp (DOCA GPUNetIO SDK): a device QP built from the raw fields of a
 * QP created outside DOCA Verbs (rdma-core's mlx5dv, another driver). Every address is already
 * the one the executing threads use (GPU memory, or host memory mapped for them): nothing is
 * mapped here. The GPU rings the doorbell itself (GPU_SM_DB, GPU_SM_BF, GPU_SM_NO_DBR; AUTO picks
 * by send_dbr_mode_ext): a CPU proxy needs the QP's CPU-side doorbell, which raw fields do not
 * give. Such an export has no verbs QP (gq->qp == NULL): query_last_error and
 * reset_tracking_and_memory refuse it, and destroying the QP is the caller's business.
 */
#include "gpunetio/gverbs_qp.h"

#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda_mlx5.h"

#include <stdlib.h>
#include <string.h>

static bool pow2(uint32_t v)
{
	return v != 0 && (v & (v - 1u)) == 0;
}

static uint32_t log2_of(uint32_t v)
{
	uint32_t l = 0;

	while ((1u << l) < v)
		l++;
	return l;
}

static void fill_cq(struct doca_gpu_dev_verbs_cq *c, uint32_t cqn, void *cqe_addr, uint32_t cqe_num, uint32_t *dbrec)
{
	c->cqe_daddr = cqe_addr;
	c->cq_num = cqn;
	c->cqe_num = cqe_num;
	c->cqe_mask = cqe_num - 1u;
	c->cqe_size = 64;
	c->cqe_log_num = (uint8_t)log2_of(cqe_num);
	c->dbrec = dbrec;
	c->mem_type = DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU;
}

static doca_error_t check(struct doca_gpu *gpu, void *sq_wqe_addr, uint32_t sq_wqe_num, uint64_t *sq_db,
			  void *sq_cqe_addr, uint32_t sq_cqe_num, void *rq_wqe_addr, uint32_t rq_wqe_num,
			  uint32_t *rq_dbrec, uint32_t rcv_wqe_size, void *rq_cqe_addr, uint32_t rq_cqe_num,
			  enum doca_gpu_dev_verbs_nic_handler h, uint8_t mode, struct doca_gpu_verbs_qp **out)
{
	if (gpu == NULL || sq_wqe_addr == NULL || sq_db == NULL || sq_cqe_addr == NULL || out == NULL) {
		OGDA_LOG_ERR("bridge_export_qp: NULL GPU handle, SQ ring, doorbell, SQ CQ ring or output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!pow2(sq_wqe_num) || !pow2(sq_cqe_num) || sq_cqe_num < sq_wqe_num) {
		OGDA_LOG_ERR("bridge_export_qp: SQ of %u WQEBBs, SQ CQ of %u CQEs: both powers of two, one CQE per WQEBB",
			     sq_wqe_num, sq_cqe_num);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rq_wqe_num != 0 && (rq_wqe_addr == NULL || rq_dbrec == NULL || rq_cqe_addr == NULL || !pow2(rq_wqe_num) ||
				!pow2(rq_cqe_num) || rq_cqe_num < rq_wqe_num || rcv_wqe_size < 16u || !pow2(rcv_wqe_size))) {
		OGDA_LOG_ERR("bridge_export_qp: receive side needs ring, record and CQ ring, powers of two (RQ %u, CQ %u, "
			     "one CQE per receive) and receive WQEs of 16 bytes or more (%u)", rq_wqe_num, rq_cqe_num,
			     rcv_wqe_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY ||
	    (h != DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO && h != DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB &&
	     h != DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF && h != DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR)) {
		OGDA_LOG_ERR("bridge_export_qp: handler %d: a bridged QP is rung by the GPU (AUTO, GPU_SM_DB, GPU_SM_BF, "
			     "GPU_SM_NO_DBR)", (int)h);
		return h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY ? DOCA_ERROR_NOT_SUPPORTED : DOCA_ERROR_INVALID_VALUE;
	}
	if (mode != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR && mode != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW) {
		OGDA_LOG_ERR("bridge_export_qp: send_dbr_mode_ext %u: VALID_DBR or NO_DBR_HW (emulation needs a CPU "
			     "service and the CPU-side record)", mode);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_verbs_bridge_export_qp(struct doca_gpu *gpu_dev, uint32_t sq_qpn, void *sq_wqe_addr,
					     uint32_t sq_wqe_num, uint32_t *sq_dbrec, uint64_t *sq_db, size_t uar_size,
					     uint32_t sq_cqn, void *sq_cqe_addr, uint32_t sq_cqe_num,
					     uint32_t *sq_cq_dbrec, uint32_t rq_qpn, void *rq_wqe_addr,
					     uint32_t rq_wqe_num, uint32_t *rq_dbrec, uint32_t rcv_wqe_size,
					     uint32_t rq_cqn, void *rq_cqe_addr, uint32_t rq_cqe_num,
					     uint32_t *rq_cq_dbrec, enum doca_gpu_dev_verbs_nic_handler nic_handler,
					     uint8_t send_dbr_mode_ext, struct doca_gpu_verbs_qp **qp_out)
{
	bool valid = send_dbr_mode_ext == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR;
	struct doca_gpu_dev_verbs_qp *v;
	struct doca_gpu_verbs_qp *gq;
	size_t slots_len = (size_t)sq_wqe_num * sizeof(uint64_t);
	doca_error_t err;

	(void)uar_size; /* the doorbell is one 8-byte store at sq_db */
	err = check(gpu_dev, sq_wqe_addr, sq_wqe_num, sq_db, sq_cqe_addr, sq_cqe_num, rq_wqe_addr, rq_wqe_num, rq_dbrec,
		    rcv_wqe_size, rq_cqe_addr, rq_cqe_num, nic_handler, send_dbr_mode_ext, qp_out);
	if (err == DOCA_SUCCESS && valid && sq_dbrec == NULL) {
		OGDA_LOG_ERR("bridge_export_qp: VALID_DBR needs the send doorbell record");
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err != DOCA_SUCCESS)
		return err;
	gq = calloc(1, sizeof(*gq));
	if (gq == NULL) {
		OGDA_LOG_ERR("bridge_export_qp: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	gq->gpu = gpu_dev;
	gq->dbr_mode = (enum doca_gpu_verbs_send_dbr_mode_ext)send_dbr_mode_ext;
	gq->nic_handler = !valid ? DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR
			  : nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO ? DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB
										: nic_handler;
	pthread_mutex_init(&gq->proxy_lock, NULL);
	err = doca_gpu_mem_alloc(gpu_dev, slots_len, sizeof(uint64_t), DOCA_GPU_MEM_TYPE_GPU, &gq->ready_slots, NULL);
	if (err == DOCA_SUCCESS)
		err = ogda_gpu_memset_dev(gpu_dev, gq->ready_slots, 0, slots_len);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("bridge_export_qp: QP 0x%x: cannot allocate the readiness slots", sq_qpn);
		if (gq->ready_slots != NULL)
			(void)doca_gpu_mem_free(gpu_dev, gq->ready_slots);
		pthread_mutex_destroy(&gq->proxy_lock);
		free(gq);
		return err;
	}
	v = &gq->qp_cpu;
	v->sq_num = sq_qpn;
	v->sq_num_shift8 = sq_qpn << 8;
	v->sq_num_shift8_be = opengda_mlx5_htobe32(sq_qpn << 8);
	v->sq_num_shift8_be_1ds = opengda_mlx5_htobe32(sq_qpn << 8 | 1u);
	v->sq_num_shift8_be_2ds = opengda_mlx5_htobe32(sq_qpn << 8 | 2u);
	v->sq_num_shift8_be_3ds = opengda_mlx5_htobe32(sq_qpn << 8 | 3u);
	v->sq_num_shift8_be_4ds = opengda_mlx5_htobe32(sq_qpn << 8 | 4u);
	v->sq_num_shift8_be_5ds = opengda_mlx5_htobe32(sq_qpn << 8 | 5u);
	v->sq_wqe_num = sq_wqe_num;
	v->sq_wqe_mask = sq_wqe_num - 1u;
	v->sq_log_wqe_num = log2_of(sq_wqe_num);
	v->sq_wqe_daddr = sq_wqe_addr;
	v->sq_dbrec = valid ? sq_dbrec : NULL;
	v->sq_db = sq_db;
	v->ogda_ready_slots = gq->ready_slots;
	v->nic_handler = gq->nic_handler;
	v->mem_type = ogda_gpu_is_device_ptr(gpu_dev, sq_wqe_addr) || !gpu_dev->info.is_host
			      ? DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU
			      : DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST;
	v->send_dbr_mode_ext = gq->dbr_mode;
	fill_cq(&v->cq_sq, sq_cqn, sq_cqe_addr, sq_cqe_num, sq_cq_dbrec);
	if (rq_wqe_num != 0) {
		v->rq_num = rq_qpn;
		v->rq_wqe_num = rq_wqe_num;
		v->rq_wqe_mask = rq_wqe_num - 1u;
		v->rq_wqe_daddr = rq_wqe_addr;
		v->rq_dbrec = rq_dbrec;
		v->rcv_wqe_size = rcv_wqe_size;
		fill_cq(&v->cq_rq, rq_cqn, rq_cqe_addr, rq_cqe_num, rq_cq_dbrec);
	}
	if (gpu_dev->info.is_host) {
		v->cq_sq.mem_type = DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST;
		v->cq_rq.mem_type = DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST;
	}
	(void)gverbs_registry_add(gq); /* no verbs QP: never refused */
	ogda_gpu_export_get(gpu_dev);
	*qp_out = gq;
	return DOCA_SUCCESS;
}

doca_error_t gverbs_bridge_unexport(struct doca_gpu_verbs_qp *gq)
{
	if (!gverbs_registry_remove(gq)) {
		OGDA_LOG_ERR("unexport_qp: bridged QP 0x%x is being unexported by another thread", gq->qp_cpu.sq_num);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (gq->ready_slots != NULL && doca_gpu_mem_free(gq->gpu, gq->ready_slots) != DOCA_SUCCESS)
		OGDA_LOG_ERR("unexport_qp: bridged QP 0x%x: could not free the readiness slots", gq->qp_cpu.sq_num);
	if (gq->qp_gpu != NULL && doca_gpu_mem_free(gq->gpu, gq->qp_gpu) != DOCA_SUCCESS)
		OGDA_LOG_ERR("unexport_qp: bridged QP 0x%x: could not free the device QP", gq->qp_cpu.sq_num);
	pthread_mutex_destroy(&gq->proxy_lock);
	ogda_gpu_export_put(gq->gpu);
	free(gq);
	return DOCA_SUCCESS;
}
