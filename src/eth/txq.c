/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_txq: the send queue object and its configuration. What start builds is in
 * txq_start.c.
 */
#include "eth/eth_priv.h"

#include "core/log.h"
#include "device/ogda_dev_eth.h"
#include "gpunetio/gpunetio_priv.h"
#include "sdk/sdk_forward.h"
#include "verbs/verbs_priv.h"

#include <stdlib.h>

static const struct core_ctx_ops txq_ops = {
	.kind = "eth_txq",
	.gpu_datapath_ok = true,
	.start = eth_txq_start,
	.stop = eth_txq_stop,
	.progress = eth_txq_progress,
	.task_submit = eth_txq_task_submit,   /* CPU data path (txq_cpu.c) */
	.task_release = eth_txq_task_release,
};

static bool burst_ok(uint32_t n, const char *func)
{
	if (n == 0 || n > OPENGDA_ETH_TXQ_MAX_BURST) {
		OGDA_LOG_ERR("%s: max_burst_size %u outside 1..%u", func, n, OPENGDA_ETH_TXQ_MAX_BURST);
		return false;
	}
	return true;
}

/* The queue exists and is IDLE (every setter's first step). */
static doca_error_t check_idle(const struct doca_eth_txq *txq, const char *func)
{
	if (txq == NULL) {
		OGDA_LOG_ERR("%s: eth_txq must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&txq->ctx.state) != DOCA_CTX_STATE_IDLE) {
		OGDA_LOG_ERR("%s: the queue is started; stop it first", func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_create(struct doca_dev *dev, uint32_t max_burst_size, struct doca_eth_txq **eth_txq)
{
	OGDA_SDK_FORWARD(doca_eth_txq_create, (dev, max_burst_size, eth_txq));
	struct doca_eth_txq *t;

	if (dev == NULL || eth_txq == NULL) {
		OGDA_LOG_ERR("%s: dev and eth_txq must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!burst_ok(max_burst_size, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	t = calloc(1, sizeof(*t));
	if (t == NULL) {
		OGDA_LOG_ERR("%s: out of memory", __func__);
		return DOCA_ERROR_NO_MEMORY;
	}
	core_ctx_init(&t->ctx, &txq_ops);
	pthread_mutex_init(&t->proxy_lock, NULL);
	t->dev = dev;
	t->max_burst = max_burst_size;
	t->sq_mem_type = DOCA_GPU_MEM_TYPE_GPU; /* DOCA's default */
	*eth_txq = t;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_destroy(struct doca_eth_txq *eth_txq)
{
	OGDA_SDK_FORWARD(doca_eth_txq_destroy, (eth_txq));
	doca_error_t err;

	if (eth_txq == NULL) {
		OGDA_LOG_ERR("%s: eth_txq must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = core_ctx_fini(&eth_txq->ctx);
	if (err != DOCA_SUCCESS)
		return err;
	pthread_mutex_destroy(&eth_txq->proxy_lock);
	free(eth_txq);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_eth_txq_as_doca_ctx(struct doca_eth_txq *eth_txq)
{
	OGDA_SDK_FORWARD(doca_eth_txq_as_doca_ctx, (eth_txq));
	if (eth_txq == NULL) {
		OGDA_LOG_ERR("%s: eth_txq must not be NULL", __func__);
		return NULL;
	}
	return &eth_txq->ctx;
}

doca_error_t doca_eth_txq_set_max_burst_size(struct doca_eth_txq *eth_txq, uint32_t max_burst_size)
{
	OGDA_SDK_FORWARD(doca_eth_txq_set_max_burst_size, (eth_txq, max_burst_size));
	doca_error_t err = check_idle(eth_txq, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (!burst_ok(max_burst_size, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	eth_txq->max_burst = max_burst_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_cap_get_max_burst_size(const struct doca_devinfo *devinfo, uint32_t max_send_buf_list_len,
						 uint16_t max_inline_size, uint32_t *max_burst_size)
{
	OGDA_SDK_FORWARD(doca_eth_txq_cap_get_max_burst_size, (devinfo, max_send_buf_list_len, max_inline_size, max_burst_size));
	if (devinfo == NULL || max_burst_size == NULL) {
		OGDA_LOG_ERR("%s: devinfo and max_burst_size must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (max_send_buf_list_len == 0 || max_send_buf_list_len > 2 || max_inline_size != 0) {
		OGDA_LOG_ERR("%s: %u buffers and %u inline bytes per packet: the GPU data path sends 1 or 2 "
			     "buffers and no inline bytes", __func__, max_send_buf_list_len, max_inline_size);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	*max_burst_size = OPENGDA_ETH_TXQ_MAX_BURST;
	return DOCA_SUCCESS;
}

static doca_error_t set_flag(struct doca_eth_txq *txq, uint8_t v, uint8_t *field, const char *func)
{
	doca_error_t err = check_idle(txq, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (v > 1) {
		OGDA_LOG_ERR("%s: %u: 0 disables, 1 enables", func, v);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*field = v;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_set_l3_chksum_offload(struct doca_eth_txq *eth_txq, uint8_t enable_l3_chksum)
{
	OGDA_SDK_FORWARD(doca_eth_txq_set_l3_chksum_offload, (eth_txq, enable_l3_chksum));
	return set_flag(eth_txq, enable_l3_chksum, eth_txq != NULL ? &eth_txq->l3_csum : NULL, __func__);
}

doca_error_t doca_eth_txq_set_l4_chksum_offload(struct doca_eth_txq *eth_txq, uint8_t enable_l4_chksum)
{
	OGDA_SDK_FORWARD(doca_eth_txq_set_l4_chksum_offload, (eth_txq, enable_l4_chksum));
	return set_flag(eth_txq, enable_l4_chksum, eth_txq != NULL ? &eth_txq->l4_csum : NULL, __func__);
}

doca_error_t doca_eth_txq_gpu_set_sq_mem_type(struct doca_eth_txq *eth_txq, enum doca_gpu_mem_type mtype)
{
	OGDA_SDK_FORWARD(doca_eth_txq_gpu_set_sq_mem_type, (eth_txq, mtype));
	doca_error_t err = check_idle(eth_txq, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (mtype != DOCA_GPU_MEM_TYPE_GPU && mtype != DOCA_GPU_MEM_TYPE_GPU_CPU && mtype != DOCA_GPU_MEM_TYPE_CPU_GPU) {
		OGDA_LOG_ERR("%s: unknown memory type %d", __func__, (int)mtype);
		return DOCA_ERROR_INVALID_VALUE;
	}
	eth_txq->sq_mem_type = mtype;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_get_gpu_handle(const struct doca_eth_txq *eth_txq, struct doca_gpu_eth_txq **eth_txq_ext)
{
	OGDA_SDK_FORWARD(doca_eth_txq_get_gpu_handle, (eth_txq, eth_txq_ext));
	if (eth_txq == NULL || eth_txq_ext == NULL) {
		OGDA_LOG_ERR("%s: eth_txq and eth_txq_ext must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&eth_txq->ctx.state) != DOCA_CTX_STATE_RUNNING || eth_txq->res.handle == NULL) {
		OGDA_LOG_ERR("%s: the queue is not started", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	if (eth_txq->ctx.gpu == NULL) { /* its send tasks post on it: no second poster */
		OGDA_LOG_ERR("%s: the queue has a CPU data path (send tasks): no GPU handle", __func__);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	*eth_txq_ext = eth_txq->res.handle;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_cap_get_wait_on_time_offload_supported(const struct doca_devinfo *devinfo,
								 enum doca_eth_wait_on_time_type *wait_on_time_mode)
{
	OGDA_SDK_FORWARD(doca_eth_txq_cap_get_wait_on_time_offload_supported, (devinfo, wait_on_time_mode));
	if (devinfo == NULL || wait_on_time_mode == NULL) {
		OGDA_LOG_ERR("%s: devinfo and wait_on_time_mode must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*wait_on_time_mode = devinfo->swnic ? DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE : DOCA_ETH_WAIT_ON_TIME_TYPE_NONE;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_set_wait_on_time_offload(struct doca_eth_txq *eth_txq)
{
	OGDA_SDK_FORWARD(doca_eth_txq_set_wait_on_time_offload, (eth_txq));
	enum doca_eth_wait_on_time_type type = DOCA_ETH_WAIT_ON_TIME_TYPE_NONE;
	doca_error_t err = check_idle(eth_txq, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	(void)doca_eth_txq_cap_get_wait_on_time_offload_supported(&eth_txq->dev->info, &type);
	if (type != DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE) {
		OGDA_LOG_ERR("%s: %s has no native wait-on-time", __func__, core_dev_name(eth_txq->dev));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	eth_txq->wait_on_time = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_calculate_timestamp(struct doca_eth_txq *eth_txq, uint64_t timestamp_ns,
					      uint64_t *wait_on_time_ts)
{
	OGDA_SDK_FORWARD(doca_eth_txq_calculate_timestamp, (eth_txq, timestamp_ns, wait_on_time_ts));
	if (eth_txq == NULL || wait_on_time_ts == NULL) {
		OGDA_LOG_ERR("%s: eth_txq and wait_on_time_ts must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!eth_txq->wait_on_time) {
		OGDA_LOG_ERR("%s: wait-on-time is not enabled (doca_eth_txq_set_wait_on_time_offload)", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	*wait_on_time_ts = ogda_dev_eth_calculate_timestamp(timestamp_ns);
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_gpu_set_uar_on_cpu(struct doca_eth_txq *eth_txq)
{
	OGDA_SDK_FORWARD(doca_eth_txq_gpu_set_uar_on_cpu, (eth_txq));
	doca_error_t err = check_idle(eth_txq, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	eth_txq->uar_on_cpu = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_gpu_cpu_proxy_progress(struct doca_eth_txq *eth_txq)
{
	OGDA_SDK_FORWARD(doca_eth_txq_gpu_cpu_proxy_progress, (eth_txq));
	if (eth_txq == NULL) {
		OGDA_LOG_ERR("%s: eth_txq must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!eth_txq->uar_on_cpu) {
		OGDA_LOG_ERR("%s: the queue rings its own doorbells (no doca_eth_txq_gpu_set_uar_on_cpu)", __func__);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	pthread_mutex_lock(&eth_txq->proxy_lock);
	if (atomic_load(&eth_txq->ctx.state) != DOCA_CTX_STATE_RUNNING || eth_txq->res.mailbox_cpu == NULL) {
		pthread_mutex_unlock(&eth_txq->proxy_lock);
		OGDA_LOG_ERR("%s: the queue is not started", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	(void)ogda_proxy_ring_once(eth_txq->res.mailbox_cpu, eth_txq->res.dbr_cpu, eth_txq->res.db_cpu,
				   eth_txq->res.sqn, &eth_txq->res.last_pi);
	pthread_mutex_unlock(&eth_txq->proxy_lock);
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_gpu_set_completion_on_gpu(struct doca_eth_txq *eth_txq)
{
	OGDA_SDK_FORWARD(doca_eth_txq_gpu_set_completion_on_gpu, (eth_txq));
	doca_error_t err = check_idle(eth_txq, __func__);

	if (err == DOCA_SUCCESS)
		eth_txq->completion_on_gpu = true; /* the progress engine leaves the CQ alone */
	return err;
}
