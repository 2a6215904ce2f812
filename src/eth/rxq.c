/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_rxq: the receive queue object and its configuration. What start builds is in
 * rxq_start.c.
 */
#include "eth/rxq_priv.h"

#include "core/log.h"
#include "eth/eth_queue_ids.h"
#include "opengda.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>

static const struct core_ctx_ops rxq_ops = {
	.kind = "eth_rxq",
	.gpu_datapath_ok = true,
	.start = eth_rxq_start,
	.stop = eth_rxq_stop,
	.progress = eth_rxq_progress, /* the CPU data path's packets; nothing for a GPU queue */
	.busy = eth_rxq_busy,         /* packets lent to the application hold a stop */
	.task_submit = eth_rxq_task_submit,   /* receive tasks of a REGULAR queue (rxq_task.c) */
	.task_release = eth_rxq_task_release,
};

uint32_t eth_rxq_pkt_num(uint32_t max_burst)
{
	uint32_t n = 2;

	while (n < max_burst)
		n <<= 1;
	return n;
}

static bool sizes_ok(uint32_t burst, uint32_t pkt, const char *func)
{
	if (burst == 0 || burst > OPENGDA_ETH_RXQ_MAX_BURST) {
		OGDA_LOG_ERR("%s: max_burst_size %u outside 1..%u", func, burst, OPENGDA_ETH_RXQ_MAX_BURST);
		return false;
	}
	if (pkt < 64u || pkt > OPENGDA_ETH_RXQ_MAX_PACKET_SIZE) {
		OGDA_LOG_ERR("%s: max_packet_size %u outside 64..%u", func, pkt, OPENGDA_ETH_RXQ_MAX_PACKET_SIZE);
		return false;
	}
	return true;
}

/* The queue exists and is IDLE (every setter's first step). */
static doca_error_t check_idle(const struct doca_eth_rxq *rxq, const char *func)
{
	if (rxq == NULL) {
		OGDA_LOG_ERR("%s: eth_rxq must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&rxq->ctx.state) != DOCA_CTX_STATE_IDLE) {
		OGDA_LOG_ERR("%s: the queue is started; stop it first", func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_create(struct doca_dev *dev, uint32_t max_burst_size, uint32_t max_packet_size,
				 struct doca_eth_rxq **eth_rxq)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_create, (dev, max_burst_size, max_packet_size, eth_rxq));
	struct doca_eth_rxq *q;

	if (dev == NULL || eth_rxq == NULL) {
		OGDA_LOG_ERR("%s: dev and eth_rxq must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!sizes_ok(max_burst_size, max_packet_size, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	q = calloc(1, sizeof(*q));
	if (q == NULL) {
		OGDA_LOG_ERR("%s: out of memory", __func__);
		return DOCA_ERROR_NO_MEMORY;
	}
	core_ctx_init(&q->ctx, &rxq_ops);
	pthread_mutex_init(&q->proxy_lock, NULL);
	q->dev = dev;
	q->max_burst = max_burst_size;
	q->max_pkt = max_packet_size;
	q->type = DOCA_ETH_RXQ_TYPE_CYCLIC;
	q->rq_mem_type = DOCA_GPU_MEM_TYPE_GPU; /* DOCA's default */
	*eth_rxq = q;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_destroy(struct doca_eth_rxq *eth_rxq)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_destroy, (eth_rxq));
	doca_error_t err;

	if (eth_rxq == NULL) {
		OGDA_LOG_ERR("%s: eth_rxq must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = core_ctx_fini(&eth_rxq->ctx);
	if (err != DOCA_SUCCESS)
		return err;
	if (eth_rxq->pkt_mmap != NULL)
		core_mmap_release(eth_rxq->pkt_mmap);
	pthread_mutex_destroy(&eth_rxq->proxy_lock);
	free(eth_rxq);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_eth_rxq_as_doca_ctx(struct doca_eth_rxq *eth_rxq)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_as_doca_ctx, (eth_rxq));
	if (eth_rxq == NULL) {
		OGDA_LOG_ERR("%s: eth_rxq must not be NULL", __func__);
		return NULL;
	}
	return &eth_rxq->ctx;
}

static doca_error_t type_ok(enum doca_eth_rxq_type type, const char *func)
{
	if (type == DOCA_ETH_RXQ_TYPE_CYCLIC || type == DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL ||
	    type == DOCA_ETH_RXQ_TYPE_REGULAR)
		return DOCA_SUCCESS;
	OGDA_LOG_ERR("%s: unknown receive queue type %d", func, (int)type);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t doca_eth_rxq_set_type(struct doca_eth_rxq *eth_rxq, enum doca_eth_rxq_type type)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_set_type, (eth_rxq, type));
	doca_error_t err = check_idle(eth_rxq, __func__);

	if (err == DOCA_SUCCESS)
		err = type_ok(type, __func__);
	if (err == DOCA_SUCCESS)
		eth_rxq->type = type;
	return err;
}

doca_error_t doca_eth_rxq_set_max_burst_size(struct doca_eth_rxq *eth_rxq, uint32_t max_burst_size)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_set_max_burst_size, (eth_rxq, max_burst_size));
	doca_error_t err = check_idle(eth_rxq, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (!sizes_ok(max_burst_size, eth_rxq->max_pkt, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	eth_rxq->max_burst = max_burst_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_set_max_packet_size(struct doca_eth_rxq *eth_rxq, uint16_t max_packet_size)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_set_max_packet_size, (eth_rxq, max_packet_size));
	doca_error_t err = check_idle(eth_rxq, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (!sizes_ok(eth_rxq->max_burst, max_packet_size, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	eth_rxq->max_pkt = max_packet_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_estimate_packet_buf_size(enum doca_eth_rxq_type type, uint32_t rate, uint16_t pkt_max_time,
						   uint32_t max_packet_size, uint32_t max_burst_size,
						   uint8_t log_max_lro_pkt_sz, uint16_t head_size, uint16_t tail_size,
						   uint32_t *buf_size)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_estimate_packet_buf_size, (type, rate, pkt_max_time, max_packet_size,
								  max_burst_size, log_max_lro_pkt_sz, head_size, tail_size,
								  buf_size));
	uint64_t size;
	doca_error_t err;

	(void)rate;
	(void)pkt_max_time;
	if (buf_size == NULL) {
		OGDA_LOG_ERR("%s: buf_size must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = type_ok(type, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (type == DOCA_ETH_RXQ_TYPE_REGULAR) {
		/* Nothing to estimate: receive tasks bring their own buffers (rxq_task.c). */
		OGDA_LOG_ERR("%s: a REGULAR queue has no packet buffer: each receive task brings its own", __func__);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (log_max_lro_pkt_sz != 0) {
		OGDA_LOG_ERR("%s: LRO is not offered (log_max_lro_pkt_sz must be 0)", __func__);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (!sizes_ok(max_burst_size, max_packet_size + head_size + tail_size, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	size = (uint64_t)eth_rxq_pkt_num(max_burst_size) * (max_packet_size + head_size + tail_size);
	if (size > UINT32_MAX) {
		OGDA_LOG_ERR("%s: %llu bytes do not fit the 32-bit size", __func__, (unsigned long long)size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*buf_size = (uint32_t)size;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_set_pkt_buf(struct doca_eth_rxq *eth_rxq, struct doca_mmap *mmap, uint32_t mmap_offset,
				      uint32_t mmap_len)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_set_pkt_buf, (eth_rxq, mmap, mmap_offset, mmap_len));
	doca_error_t err = check_idle(eth_rxq, __func__);
	void *addr = NULL;
	size_t len = 0;
	uint32_t mkey = 0;

	if (err != DOCA_SUCCESS)
		return err;
	if (mmap == NULL || mmap_len == 0) {
		OGDA_LOG_ERR("%s: a started mmap and a non-zero length are needed", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (core_mmap_first_key(mmap, &addr, &len, &mkey) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: the mmap is not started or has no device", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	if ((uint64_t)mmap_offset + mmap_len > len) {
		OGDA_LOG_ERR("%s: [%u, +%u) is outside the mmap's %zu bytes", __func__, mmap_offset, mmap_len, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	core_mmap_hold(mmap);
	if (eth_rxq->pkt_mmap != NULL)
		core_mmap_release(eth_rxq->pkt_mmap);
	eth_rxq->pkt_mmap = mmap;
	eth_rxq->pkt_offset = mmap_offset;
	eth_rxq->pkt_len = mmap_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_cap_is_type_supported(const struct doca_devinfo *devinfo, enum doca_eth_rxq_type type,
						enum doca_eth_rxq_data_path_type data_path_type)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_cap_is_type_supported, (devinfo, type, data_path_type));
	if (devinfo == NULL) {
		OGDA_LOG_ERR("%s: devinfo must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (data_path_type != DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU && data_path_type != DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU) {
		OGDA_LOG_ERR("%s: unknown data path type %d", __func__, (int)data_path_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (type == DOCA_ETH_RXQ_TYPE_CYCLIC && data_path_type == DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU)
		return DOCA_SUCCESS;
	if ((type == DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL || type == DOCA_ETH_RXQ_TYPE_REGULAR) &&
	    data_path_type == DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU)
		return DOCA_SUCCESS;
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_eth_rxq_cap_get_max_burst_size(const struct doca_devinfo *devinfo, uint32_t *max_burst_size)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_cap_get_max_burst_size, (devinfo, max_burst_size));
	if (devinfo == NULL || max_burst_size == NULL) {
		OGDA_LOG_ERR("%s: devinfo and max_burst_size must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*max_burst_size = OPENGDA_ETH_RXQ_MAX_BURST;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_cap_get_max_packet_size(const struct doca_devinfo *devinfo, uint16_t *max_packet_size)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_cap_get_max_packet_size, (devinfo, max_packet_size));
	if (devinfo == NULL || max_packet_size == NULL) {
		OGDA_LOG_ERR("%s: devinfo and max_packet_size must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*max_packet_size = OPENGDA_ETH_RXQ_MAX_PACKET_SIZE;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_gpu_set_rq_mem_type(struct doca_eth_rxq *eth_rxq, enum doca_gpu_mem_type mtype)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_gpu_set_rq_mem_type, (eth_rxq, mtype));
	doca_error_t err = check_idle(eth_rxq, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (mtype != DOCA_GPU_MEM_TYPE_GPU && mtype != DOCA_GPU_MEM_TYPE_GPU_CPU && mtype != DOCA_GPU_MEM_TYPE_CPU_GPU) {
		OGDA_LOG_ERR("%s: unknown memory type %d", __func__, (int)mtype);
		return DOCA_ERROR_INVALID_VALUE;
	}
	eth_rxq->rq_mem_type = mtype;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_gpu_enable_mcst_qp(struct doca_eth_rxq *eth_rxq)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_gpu_enable_mcst_qp, (eth_rxq));
	doca_error_t err = check_idle(eth_rxq, __func__);

	if (err == DOCA_SUCCESS)
		eth_rxq->need_mcst = true;
	return err;
}

doca_error_t doca_eth_rxq_gpu_set_uar_on_cpu(struct doca_eth_rxq *eth_rxq)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_gpu_set_uar_on_cpu, (eth_rxq));
	doca_error_t err = check_idle(eth_rxq, __func__);

	if (err == DOCA_SUCCESS)
		eth_rxq->uar_on_cpu = true;
	return err;
}

doca_error_t doca_eth_rxq_gpu_cpu_proxy_progress(struct doca_eth_rxq *eth_rxq)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_gpu_cpu_proxy_progress, (eth_rxq));
	if (eth_rxq == NULL) {
		OGDA_LOG_ERR("%s: eth_rxq must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Not started, no MCST queue, or one that rings its own doorbell: nothing to progress. */
	return eth_rxq_mcst_progress(eth_rxq);
}

doca_error_t opengda_eth_rxq_set_striding(struct doca_eth_rxq *eth_rxq, uint32_t strides_per_wqe)
{
	doca_error_t err = check_idle(eth_rxq, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (strides_per_wqe != 0 &&
	    (strides_per_wqe < OPENGDA_ETH_RXQ_MIN_STRIDES || strides_per_wqe > OPENGDA_ETH_RXQ_MAX_STRIDES ||
	     (strides_per_wqe & (strides_per_wqe - 1u)) != 0)) {
		OGDA_LOG_ERR("%s: %u strides per WQE: 0 (cyclic) or a power of two of %u .. %u", __func__, strides_per_wqe,
			     OPENGDA_ETH_RXQ_MIN_STRIDES, OPENGDA_ETH_RXQ_MAX_STRIDES);
		return DOCA_ERROR_INVALID_VALUE;
	}
	eth_rxq->strides_per_wqe = strides_per_wqe;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_apply_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t queue_id)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_apply_queue_id, (eth_rxq, queue_id));
	doca_error_t err;

	if (eth_rxq == NULL) {
		OGDA_LOG_ERR("%s: eth_rxq must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&eth_rxq->ctx.state) == DOCA_CTX_STATE_RUNNING) {
		if (eth_rxq->res.id_registered && eth_rxq->queue_id == queue_id)
			return DOCA_SUCCESS;
		err = ogda_eth_rxq_ids_add(eth_rxq->dev, queue_id, eth_rxq->res.rqn);
		if (err != DOCA_SUCCESS)
			return err;
		if (eth_rxq->res.id_registered)
			ogda_eth_rxq_ids_remove(eth_rxq->dev, eth_rxq->queue_id);
		eth_rxq->res.id_registered = true;
	}
	eth_rxq->queue_id = queue_id;
	eth_rxq->has_queue_id = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_get_flow_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t *flow_queue_id)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_get_flow_queue_id, (eth_rxq, flow_queue_id));
	if (eth_rxq == NULL || flow_queue_id == NULL) {
		OGDA_LOG_ERR("%s: eth_rxq and flow_queue_id must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!eth_rxq->has_queue_id) {
		OGDA_LOG_ERR("%s: no queue id was applied (doca_eth_rxq_apply_queue_id)", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	*flow_queue_id = eth_rxq->queue_id;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_get_gpu_handle(const struct doca_eth_rxq *eth_rxq, struct doca_gpu_eth_rxq **eth_rxq_ext)
{
	OGDA_SDK_FORWARD(doca_eth_rxq_get_gpu_handle, (eth_rxq, eth_rxq_ext));
	if (eth_rxq == NULL || eth_rxq_ext == NULL) {
		OGDA_LOG_ERR("%s: eth_rxq and eth_rxq_ext must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&eth_rxq->ctx.state) != DOCA_CTX_STATE_RUNNING || eth_rxq->res.handle == NULL) {
		OGDA_LOG_ERR("%s: the queue is not started", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	if (eth_rxq->ctx.gpu == NULL) {
		OGDA_LOG_ERR("%s: the queue has a CPU data path (doca_pe_progress delivers its packets): no GPU handle",
			     __func__);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	*eth_rxq_ext = eth_rxq->res.handle;
	return DOCA_SUCCESS;
}
