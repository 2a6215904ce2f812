/* SPDX-License-Identifier: BSD-3-Clause */
/* Queue memory and CQs of Ethernet queues (eth_queue_mem.h). */
#include "eth/eth_queue_mem.h"

#include "core/log.h"
#include "devx/devx.h"
#include "devx/hw.h"
#include "opengda_mlx5.h"
#include "prm/prm_cq.h"
#include "sdk/sdk_forward.h"
#include "verbs/verbs_priv.h"

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

doca_error_t eth_queue_mem_alloc(struct eth_queue_mem *qm, enum doca_gpu_mem_type mtype, size_t len, size_t cq_off,
				 uint32_t log_cqes, const char *what)
{
	doca_error_t err;
	size_t i;

	if (ogda_devx_host_queues_only(qm->devx) && mtype != DOCA_GPU_MEM_TYPE_CPU_GPU) {
		OGDA_LOG_INFO("%s: the software NIC reads queues from host memory: using CPU_GPU memory for the queue",
			      what);
		mtype = DOCA_GPU_MEM_TYPE_CPU_GPU;
	}
	if (mtype != DOCA_GPU_MEM_TYPE_CPU_GPU) {
		/* Device-memory queues need dmabuf umems on a ConnectX: not built yet. */
		OGDA_LOG_ERR("%s: queues in GPU memory are not supported yet; use DOCA_GPU_MEM_TYPE_CPU_GPU", what);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	len = (len + QMEM_ALIGN - 1) & ~(size_t)(QMEM_ALIGN - 1);
	err = doca_gpu_mem_alloc(qm->gpu, len, QMEM_ALIGN, mtype, &qm->mem_gpu, &qm->mem_cpu);
	if (err != DOCA_SUCCESS) {
		qm->mem_gpu = NULL;
		qm->mem_cpu = NULL;
		OGDA_LOG_ERR("%s: cannot allocate %zu bytes of queue memory", what, len);
		return err;
	}
	qm->len = len;
	memset(qm->mem_cpu, 0, len);
	for (i = 0; i < ((size_t)1 << log_cqes); i++) /* every CQE invalid, owner 1: nothing to poll */
		((uint8_t *)qm->mem_cpu)[cq_off + i * 64u + 63u] = OPENGDA_MLX5_CQE_OP_OWN_INIT;
	return qm->devx->ops->umem_reg(qm->devx, qm->mem_cpu, len, OGDA_ACCESS_LOCAL_WRITE, -1, 0, &qm->umem,
				       &qm->umem_id);
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
