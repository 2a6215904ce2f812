/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Send events of a doca_eth_txq delivered by the progress engine: when device code does not poll
 * the completions (no doca_eth_txq_gpu_set_completion_on_gpu), doca_pe_progress() consumes the CQ
 * on the CPU and calls the notify callback for each completed NOTIFY send and the error callback
 * for an error completion.
 */
#include "eth/eth_priv.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "sdk/sdk_forward.h"

#include <stddef.h>
#include <string.h>

#define EVENTS_PER_PROGRESS 64u /* completions one progress call delivers at most */

/* Whether a CQE whose owner byte is @op_own holds a completion for consumer index @ci. */
static bool cqe_ready(uint8_t op_own, uint64_t ci, uint32_t log_cqes)
{
	return (op_own >> 4) != OPENGDA_MLX5_CQE_INVALID && (op_own & 1u) == ((ci >> log_cqes) & 1u);
}

/*
 * CQE @ci into @cqe if the NIC has written it (owner bit of that lap), else false. In place from
 * the CPU mapping; from GPU memory without one, the owner byte first and then the whole CQE, each
 * a synchronous copy, so that a CQE seen valid was complete before it was read.
 */
static bool cqe_fetch(const struct doca_eth_txq *t, uint64_t ci, struct opengda_mlx5_cqe64 *cqe)
{
	const struct eth_txq_res *r = &t->res;
	size_t off = (size_t)((ci & ((1u << r->log_cqes) - 1u)) << 6);
	uint8_t op_own;

	if (r->cqes_cpu != NULL) {
		const struct opengda_mlx5_cqe64 *c = (const struct opengda_mlx5_cqe64 *)(const void *)(r->cqes_cpu + off);

		op_own = __atomic_load_n(&c->op_own, __ATOMIC_ACQUIRE);
		if (!cqe_ready(op_own, ci, r->log_cqes))
			return false;
		memcpy(cqe, c, sizeof(*cqe));
		cqe->op_own = op_own;
		return true;
	}
	if (ogda_gpu_copy_from_dev(t->ctx.gpu, &op_own, r->cqes_gpu + off + offsetof(struct opengda_mlx5_cqe64, op_own),
				   1) != DOCA_SUCCESS)
		return false; /* logged by the copy */
	if (!cqe_ready(op_own, ci, r->log_cqes))
		return false;
	if (ogda_gpu_copy_from_dev(t->ctx.gpu, cqe, r->cqes_gpu + off, sizeof(*cqe)) != DOCA_SUCCESS)
		return false;
	cqe->op_own = op_own;
	return true;
}

uint8_t eth_txq_progress(struct doca_ctx *ctx)
{
	struct doca_eth_txq *t = (struct doca_eth_txq *)ctx;
	struct eth_txq_res *r = &t->res;
	struct opengda_mlx5_cqe64 c;
	const struct opengda_mlx5_cqe64 *cqe = &c;
	uint32_t n;
	uint8_t progressed = 0;

	if (ctx->gpu == NULL) /* CPU data path: the CQEs complete send tasks */
		return eth_txq_cpu_progress(t);
	if (t->completion_on_gpu || r->cqes_gpu == NULL)
		return 0;
	for (n = 0; n < EVENTS_PER_PROGRESS; n++) {
		if (!cqe_fetch(t, r->cpu_cq_ci, &c))
			break;
		if ((cqe->op_own >> 4) == OPENGDA_MLX5_CQE_REQ_ERR) {
			struct doca_eth_txq_gpu_event_error_send_packet ev = {opengda_mlx5_cqe_wqe_counter(cqe)};

			OGDA_LOG_ERR("eth_txq: send 0x%x failed, syndrome 0x%02x", ev.position,
				     ((const uint8_t *)cqe)[OPENGDA_MLX5_ERR_CQE_SYNDROME]);
			if (t->error_cb != NULL)
				t->error_cb(&ev, t->error_data);
		} else {
			struct doca_eth_txq_gpu_event_notify_send_packet ev = {opengda_mlx5_cqe_wqe_counter(cqe),
										opengda_mlx5_cqe_timestamp(cqe)};

			if (t->notify_cb != NULL)
				t->notify_cb(&ev, t->notify_data);
		}
		r->cpu_cq_ci++;
		progressed = 1;
	}
	return progressed;
}

static doca_error_t register_check(const struct doca_eth_txq *txq, const void *cb, const char *func)
{
	if (txq == NULL || cb == NULL) {
		OGDA_LOG_ERR("%s: eth_txq and the callback must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&txq->ctx.state) != DOCA_CTX_STATE_IDLE) {
		OGDA_LOG_ERR("%s: the queue is started; stop it first", func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_gpu_event_notify_send_packet_register(struct doca_eth_txq *eth_txq,
								doca_eth_txq_gpu_event_notify_send_packet_cb_t cb,
								union doca_data user_data)
{
	OGDA_SDK_FORWARD(doca_eth_txq_gpu_event_notify_send_packet_register, (eth_txq, cb, user_data));
	doca_error_t err = register_check(eth_txq, (const void *)cb, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	eth_txq->notify_cb = cb;
	eth_txq->notify_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_gpu_event_error_send_packet_register(struct doca_eth_txq *eth_txq,
							       doca_eth_txq_gpu_event_error_send_packet_cb_t cb,
							       union doca_data user_data)
{
	OGDA_SDK_FORWARD(doca_eth_txq_gpu_event_error_send_packet_register, (eth_txq, cb, user_data));
	doca_error_t err = register_check(eth_txq, (const void *)cb, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	eth_txq->error_cb = cb;
	eth_txq->error_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_position(
	const struct doca_eth_txq_gpu_event_notify_send_packet *event, uint16_t *position)
{
	OGDA_SDK_FORWARD(doca_eth_txq_gpu_event_notify_send_packet_get_position, (event, position));
	if (event == NULL || position == NULL) {
		OGDA_LOG_ERR("%s: event and position must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*position = event->position;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_timestamp(
	const struct doca_eth_txq_gpu_event_notify_send_packet *event, uint64_t *timestamp)
{
	OGDA_SDK_FORWARD(doca_eth_txq_gpu_event_notify_send_packet_get_timestamp, (event, timestamp));
	if (event == NULL || timestamp == NULL) {
		OGDA_LOG_ERR("%s: event and timestamp must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*timestamp = event->timestamp;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_txq_gpu_event_error_send_packet_get_position(
	const struct doca_eth_txq_gpu_event_error_send_packet *event, uint16_t *position)
{
	OGDA_SDK_FORWARD(doca_eth_txq_gpu_event_error_send_packet_get_position, (event, position));
	if (event == NULL || position == NULL) {
		OGDA_LOG_ERR("%s: event and position must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*position = event->position;
	return DOCA_SUCCESS;
}
