/* SPDX-License-Identifier: BSD-3-Clause */
/* Queue memory and CQs of Ethernet queues (eth_queue_mem.h). */
#include "eth/eth_queue_mem.h"

#include "core/log.h"
#include "devx/devx.h"
#include "devx/hw.h"
#include "device/ogda_dev_port.h"
#include "doca_core/core_priv.h"
#include "doca_gpunetio_verbs_def.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda_mlx5.h"
#include "prm/prm_cq.h"
#include "sdk/sdk_forward.h"
#include "verbs/verbs_priv.h"

#include <stdlib.h>
#include <string.h>

#define QMEM_ALIGN 4096u

doca_error_t eth_run_create(struct ogda_devx *devx, const void *in, size_t inlen, void *out, size_t outlen,
			    struct ogda_devx_obj **obj, const char *what)
{
	doca_error_t err = devx->ops->obj_create(devx, in, inlen, out, outlen, obj);

	err = verbs_cmd_result(err, out, outlen, what);
	if (err != DOCA_SUCCESS)
		*obj = NULL;
	return err;
}

/* ogda_gpu_umem_register's registration: a device-interface umem of the range or of the dmabuf. */
static doca_error_t umem_reg_gpu(void *arg, void *addr, size_t len, int dmabuf_fd)
{
	struct eth_queue_mem *qm = arg;

	return qm->devx->ops->umem_reg(qm->devx, addr, len, OGDA_ACCESS_LOCAL_WRITE, dmabuf_fd, 0, &qm->umem,
				       &qm->umem_id);
}

/*
 * Whether the block is GPU memory: what a GPU or GPU_CPU allocation gives on a GPU (GPU_CPU without
 * GDRCopy falls back to pinned host memory, which is registered as host memory), and on a host
 * handle, whose "GPU memory" stands for it (this is how the GPU path runs without a GPU).
 */
static bool block_in_gpu(const struct eth_queue_mem *qm, enum doca_gpu_mem_type mtype)
{
	if (mtype == DOCA_GPU_MEM_TYPE_CPU_GPU)
		return false;
	return qm->gpu->info.is_host || ogda_gpu_is_device_ptr(qm->gpu, qm->mem_gpu);
}

/* The host copy the initial ring is written in: the CPU mapping, or a staging buffer. */
static doca_error_t stage_init(struct eth_queue_mem *qm, size_t cq_off, uint32_t log_cqes, const char *what)
{
	size_t i;

	qm->staged = qm->mem_cpu == NULL;
	qm->stage = qm->staged ? malloc(qm->len) : qm->mem_cpu;
	if (qm->stage == NULL) {
		qm->staged = false;
		OGDA_LOG_ERR("%s: out of memory for the %zu-byte host copy of the queue", what, qm->len);
		return DOCA_ERROR_NO_MEMORY;
	}
	memset(qm->stage, 0, qm->len);
	for (i = 0; i < ((size_t)1 << log_cqes); i++) /* every CQE invalid, owner 1: nothing to poll */
		qm->stage[cq_off + i * 64u + 63u] = OPENGDA_MLX5_CQE_OP_OWN_INIT;
	return DOCA_SUCCESS;
}

static void stage_drop(struct eth_queue_mem *qm)
{
	if (qm->staged)
		free(qm->stage);
	qm->stage = NULL;
	qm->staged = false;
}

doca_error_t eth_queue_mem_alloc(struct eth_queue_mem *qm, enum doca_gpu_mem_type mtype, size_t len, size_t cq_off,
				 uint32_t log_cqes, const char *what)
{
	size_t align = QMEM_ALIGN;
	doca_error_t err;

	if (ogda_devx_host_queues_only(qm->devx) && mtype != DOCA_GPU_MEM_TYPE_CPU_GPU) {
		OGDA_LOG_INFO("%s: the software NIC reads queues from host memory: using CPU_GPU memory for the queue",
			      what);
		mtype = DOCA_GPU_MEM_TYPE_CPU_GPU;
	}
	if (mtype != DOCA_GPU_MEM_TYPE_CPU_GPU)
		align = DOCA_GPUNETIO_VERBS_PAGE_SIZE; /* whole GPU pages: what a dmabuf exports */
	len = (len + align - 1) & ~(size_t)(align - 1);
	err = doca_gpu_mem_alloc(qm->gpu, len, align, mtype, &qm->mem_gpu, &qm->mem_cpu);
	if (err != DOCA_SUCCESS) {
		qm->mem_gpu = NULL;
		qm->mem_cpu = NULL;
		OGDA_LOG_ERR("%s: cannot allocate %zu bytes of queue memory", what, len);
		return err;
	}
	qm->len = len;
	qm->in_gpu = block_in_gpu(qm, mtype);
	err = stage_init(qm, cq_off, log_cqes, what);
	if (err != DOCA_SUCCESS)
		return err;
	if (qm->in_gpu)
		err = ogda_gpu_umem_register(qm->gpu, qm->mem_gpu, len, DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_DEFAULT,
					     umem_reg_gpu, qm, what);
	else
		err = qm->devx->ops->umem_reg(qm->devx, qm->mem_cpu, len, OGDA_ACCESS_LOCAL_WRITE, -1, 0, &qm->umem,
					      &qm->umem_id);
	if (err != DOCA_SUCCESS) {
		qm->umem = NULL;
		OGDA_LOG_ERR("%s: cannot register the queue memory as a umem: %s", what, doca_error_get_descr(err));
	}
	return err;
}

doca_error_t eth_queue_mem_publish(struct eth_queue_mem *qm, const char *what)
{
	doca_error_t err = DOCA_SUCCESS;

	if (qm->stage == NULL) {
		OGDA_LOG_ERR("%s: no initial ring to publish (queue memory not allocated, or published already)", what);
		return DOCA_ERROR_BAD_STATE;
	}
	if (qm->staged) {
		err = ogda_gpu_copy_to_dev(qm->gpu, qm->mem_gpu, qm->stage, qm->len);
		if (err != DOCA_SUCCESS)
			OGDA_LOG_ERR("%s: cannot write the initial ring to GPU memory: %s", what, doca_error_get_descr(err));
	} else {
		/*
		 * Written in place: order the ring before the doorbell record the NIC reads first. The
		 * device core's NIC fence, because gcc refuses a bare fence under -fsanitize=thread
		 * (there it is a compiler barrier; the record's own store is a release store).
		 */
		ogda_dev_fence_nic_release();
	}
	stage_drop(qm);
	return err;
}

doca_error_t eth_queue_cq_create(struct eth_queue_mem *qm, uint32_t log_cqes, size_t cq_off, size_t cq_dbr_off,
				 uint32_t uar_page, const char *what)
{
	struct prm_create_cq_params p;
	uint8_t in[PRM_CREATE_CQ_IN_SIZE], out[PRM_CQ_SMALL_CMD_SIZE] = {0};
	uint32_t eqn = 0;
	doca_error_t err;

	err = qm->devx->ops->query_eqn(qm->devx, 0, &eqn);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: no completion EQ: %s", what, doca_error_get_descr(err));
		return err;
	}
	memset(&p, 0, sizeof(p));
	p.cqc.cqe_sz = PRM_CQE_SIZE_64;
	p.cqc.oi = 1; /* completions are polled by index, never overrun-checked (as DOCA's GPU queues) */
	p.cqc.log_cq_size = (uint8_t)log_cqes;
	p.cqc.uar_page = uar_page;
	p.cqc.c_eqn = (uint8_t)eqn;
	p.cqc.dbr_umem_valid = 1;
	p.cqc.dbr_umem_id = qm->umem_id;
	p.cqc.dbr_addr = cq_dbr_off;
	p.cq_umem_valid = 1;
	p.cq_umem_id = qm->umem_id;
	p.cq_umem_offset = cq_off;
	err = prm_create_cq_in_build(&p, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = eth_run_create(qm->devx, in, sizeof(in), out, sizeof(out), &qm->cq, "CREATE_CQ");
	if (err == DOCA_SUCCESS)
		err = prm_create_cq_out_parse(out, sizeof(out), &qm->cqn);
	return err;
}

void eth_queue_mem_release(struct eth_queue_mem *qm)
{
	if (qm->cq != NULL)
		(void)qm->devx->ops->obj_destroy(qm->cq);
	if (qm->umem != NULL)
		(void)qm->devx->ops->umem_dereg(qm->umem);
	stage_drop(qm);
	if (qm->mem_gpu != NULL)
		(void)doca_gpu_mem_free(qm->gpu, qm->mem_gpu);
	memset(qm, 0, sizeof(*qm));
}

doca_error_t eth_cpu_sdk_refuses(const char *func)
{
	if (!ogda_sdk_in_use())
		return DOCA_SUCCESS;
	OGDA_LOG_ERR("%s: the CPU data path is not forwarded to the DOCA SDK; unset %s to use OpenGDA's", func,
		     OGDA_SDK_ENV);
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t eth_task_conf_check(const struct doca_ctx *ctx, bool both_cbs, uint32_t num, uint32_t max,
				 const char *func)
{
	doca_error_t err = eth_cpu_sdk_refuses(func);

	if (err == DOCA_SUCCESS)
		err = core_ctx_check_idle(ctx, func);
	if (err != DOCA_SUCCESS)
		return err;
	if (!both_cbs) {
		OGDA_LOG_ERR("%s: both callbacks are needed (a task's outcome is always delivered)", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (num == 0 || num > max) {
		OGDA_LOG_ERR("%s: %u tasks outside 1..%u", func, num, max);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}
