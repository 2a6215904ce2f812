/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The error report of an exported QP and the reset of its device view.
 *
 * The CQE stream of the send CQ is followed from the first index device code has not consumed
 * (cqe_rsvd + cqe_ci of its device copy) while each entry holds the CQE for its index (owner
 * bit of that pass, opcode not INVALID). That finds the CQEs the NIC wrote since, and the
 * NIC's producer index. It relies on device code keeping within one ring of the NIC, which
 * its flow control does (every WQE signaled, the CQ at least as large as the SQ).
 *
 * Reset keeps the CQ's producer index in cqe_rsvd: the CQ is not reset with the QP, so the
 * NIC writes the next CQE at the index it reached, and device code finds WQE i's completion
 * at CQ index i + cqe_rsvd.
 */
#include "gpunetio/gverbs_qp.h"

#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda_mlx5.h"
#include "verbs/verbs_priv.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

#define CQE_BYTES 64u
#define FIRST_ERROR_VALID (1u << 31)

/* The send CQ ring as the host reads it: directly (host memory) or from a copy (GPU memory). */
struct cq_view {
	const uint8_t *base;
	uint8_t *img; /* owned copy of a GPU ring, or NULL */
	uint32_t n;
	uint32_t log;
};

/* The first error seen: non-flush errors win over flush errors, earlier over later. */
struct err_pick {
	bool found;
	bool flush;
	struct opengda_mlx5_cqe_fields f;
};

static doca_error_t cq_view_open(struct doca_gpu_verbs_qp *gq, struct cq_view *v)
{
	const struct doca_verbs_cq *cq = gq->cq;
	size_t len = (size_t)cq->ncqe * CQE_BYTES;
	doca_error_t err;

	memset(v, 0, sizeof(*v));
	v->n = cq->ncqe;
	v->log = cq->log_ncqe;
	v->base = cq->ring;
	if (!ogda_gpu_is_device_ptr(gq->gpu, cq->ring))
		return DOCA_SUCCESS;
	v->img = malloc(len);
	if (v->img == NULL) {
		OGDA_LOG_ERR("QP 0x%x: out of memory for a copy of CQ 0x%x", gq->qp->qpn, cq->cqn);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = ogda_gpu_copy_from_dev(gq->gpu, v->img, cq->ring, len);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("QP 0x%x: cannot read CQ 0x%x from the GPU: %s", gq->qp->qpn, cq->cqn,
			     doca_error_get_descr(err));
		free(v->img);
		v->img = NULL;
		return err;
	}
	v->base = v->img;
	return DOCA_SUCCESS;
}

static void cq_view_close(struct cq_view *v)
{
	free(v->img);
	v->img = NULL;
}

/* op_own of a slot; acquire on a live ring, so the entry's other bytes are read after it. */
static uint8_t cq_view_op_own(const struct cq_view *v, uint32_t slot)
{
	const uint8_t *p = v->base + (size_t)slot * CQE_BYTES + (CQE_BYTES - 1u);

	return v->img != NULL ? *p : __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void pick_error(const struct cq_view *v, uint32_t slot, uint32_t qpn, struct err_pick *pick)
{
	struct opengda_mlx5_cqe64 cqe;
	struct opengda_mlx5_cqe_fields f;
	bool flush;

	memcpy(&cqe, v->base + (size_t)slot * CQE_BYTES, sizeof(cqe));
	if (!opengda_mlx5_cqe_is_error(&cqe) || opengda_mlx5_cqe_qpn(&cqe) != qpn)
		return;
	opengda_mlx5_cqe_read(&cqe, &f);
	flush = f.syndrome == OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR;
	if (!pick->found || (pick->flush && !flush)) {
		pick->found = true;
		pick->flush = flush;
		pick->f = f;
	}
}

/* Follows the stream from index start; returns the index after the last CQE found. */
static uint64_t cq_walk(const struct cq_view *v, uint64_t start, uint32_t qpn, struct err_pick *pick)
{
	uint64_t i;

	for (i = start; i < start + v->n; i++) {
		uint32_t slot = (uint32_t)(i & (v->n - 1u));

		if (!opengda_mlx5_op_own_is_sw_owned(cq_view_op_own(v, slot), (uint32_t)i, v->log))
			break;
		if (pick != NULL)
			pick_error(v, slot, qpn, pick);
	}
	return i;
}

/* The CQ part of the view device code works on (its copy when there is one). */
static doca_error_t dev_cq_state(struct doca_gpu_verbs_qp *gq, struct doca_gpu_dev_verbs_cq *c)
{
	doca_error_t err;

	*c = gq->qp_cpu.cq_sq;
	if (gq->qp_gpu == NULL)
		return DOCA_SUCCESS;
	err = ogda_gpu_copy_from_dev(gq->gpu, c, &gq->qp_gpu->cq_sq, sizeof(*c));
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("QP 0x%x: cannot read the device QP: %s", gq->qp->qpn, doca_error_get_descr(err));
	return err;
}

/*
 * Walks the send CQ from the first unconsumed index: the NIC's producer index in *producer and
 * the first error CQE of this QP in *pick (either may be NULL).
 */
static doca_error_t cq_scan(struct doca_gpu_verbs_qp *gq, const struct doca_gpu_dev_verbs_cq *c, uint64_t *producer,
			    struct err_pick *pick)
{
	struct cq_view v;
	uint64_t p;
	doca_error_t err = cq_view_open(gq, &v);

	if (err != DOCA_SUCCESS)
		return err;
	if (c->ogda_flags & OPENGDA_DEV_CQ_FLAG_COLLAPSED) {
		/* Every CQE lands in entry 0: it holds the latest one. */
		if (pick != NULL && opengda_mlx5_op_own_opcode(cq_view_op_own(&v, 0)) != OPENGDA_MLX5_CQE_INVALID)
			pick_error(&v, 0, gq->qp->qpn, pick);
		p = 0;
	} else {
		p = cq_walk(&v, c->cqe_rsvd + c->cqe_ci, gq->qp->qpn, pick);
	}
	cq_view_close(&v);
	if (producer != NULL)
		*producer = p;
	return DOCA_SUCCESS;
}

static doca_error_t qp_state(struct doca_gpu_verbs_qp *gq, enum doca_verbs_qp_state *state)
{
	struct doca_verbs_qp_attr attr;
	struct doca_verbs_qp_init_attr init;
	int mask = 0;
	doca_error_t err = doca_verbs_qp_query(gq->qp, &attr, &init, &mask);

	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("QP 0x%x: QUERY_QP failed: %s", gq->qp->qpn, doca_error_get_descr(err));
		return err;
	}
	*state = attr.current_state;
	return DOCA_SUCCESS;
}

/* Device code consumed an error CQE (recorded in ogda_first_error): earlier than any in the ring. */
static void merge_device_error(uint32_t first_error, struct err_pick *pick)
{
	uint8_t syndrome = (uint8_t)(first_error >> 16);
	uint16_t counter = (uint16_t)first_error;
	bool flush = syndrome == OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR;

	if ((first_error & FIRST_ERROR_VALID) == 0)
		return;
	if (pick->found && pick->f.syndrome == syndrome && pick->f.wqe_counter == counter)
		return; /* the same CQE, still in the ring: keep its full record */
	if (pick->found && flush && !pick->flush)
		return;
	memset(&pick->f, 0, sizeof(pick->f));
	pick->found = true;
	pick->flush = flush;
	pick->f.syndrome = syndrome;
	pick->f.wqe_counter = counter;
}

doca_error_t doca_gpu_verbs_query_last_error(struct doca_gpu_verbs_qp *qp,
					     struct doca_gpu_verbs_qp_error_info *error_info)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_query_last_error, (qp, error_info));
	struct doca_gpu_dev_verbs_cq c;
	struct err_pick pick;
	enum doca_verbs_qp_state state = DOCA_VERBS_QP_STATE_RST;
	doca_error_t err;

	if (qp == NULL || error_info == NULL) {
		OGDA_LOG_ERR("query_last_error: NULL %s", qp == NULL ? "QP" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->qp == NULL) {
		OGDA_LOG_ERR("query_last_error: QP 0x%x was bridged from raw fields: its state is not known here",
			     qp->qp_cpu.sq_num);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	memset(&pick, 0, sizeof(pick));
	err = qp_state(qp, &state);
	if (err == DOCA_SUCCESS)
		err = dev_cq_state(qp, &c);
	if (err == DOCA_SUCCESS)
		err = cq_scan(qp, &c, NULL, &pick);
	if (err != DOCA_SUCCESS)
		return err;
	merge_device_error(c.ogda_first_error, &pick);
	memset(error_info, 0, sizeof(*error_info));
	error_info->has_error = state == DOCA_VERBS_QP_STATE_ERR || pick.found;
	error_info->wqe_counter = -1;
	if (pick.found) {
		error_info->syndrome = pick.f.syndrome;
		error_info->vendor_err_synd = pick.f.vendor_syndrome;
		error_info->hw_err_synd = pick.f.hw_syndrome;
		error_info->hw_synd_type = pick.f.hw_syndrome_type;
		error_info->wqe_counter = pick.f.wqe_counter;
	}
	return DOCA_SUCCESS;
}

/* Refuses a QP that is in ERR / SQD, or whose record shows work posted since it left RST. */
static doca_error_t check_resettable(struct doca_gpu_verbs_qp *gq)
{
	enum doca_verbs_qp_state state = DOCA_VERBS_QP_STATE_RST;
	uint32_t dbr_send = 0;
	doca_error_t err = qp_state(gq, &state);

	if (err != DOCA_SUCCESS)
		return err;
	if (state != DOCA_VERBS_QP_STATE_RST && state != DOCA_VERBS_QP_STATE_INIT &&
	    state != DOCA_VERBS_QP_STATE_RTR && state != DOCA_VERBS_QP_STATE_RTS) {
		OGDA_LOG_ERR("reset_tracking_and_memory: QP 0x%x is in state %d: move it to RST (and back to RTS) first",
			     gq->qp->qpn, (int)state);
		return DOCA_ERROR_BAD_STATE;
	}
	if (gq->dbr_send_cpu != NULL || gq->qp_cpu.sq_dbrec != NULL) {
		err = verbs_mem_read(&dbr_send, &gq->qp->dbr[OPENGDA_MLX5_SND_DBR], sizeof(dbr_send));
		if (err != DOCA_SUCCESS)
			return err;
		if (dbr_send != 0) {
			OGDA_LOG_ERR("reset_tracking_and_memory: QP 0x%x posted work since it left RST (doorbell record "
				     "0x%x): move it through RST first", gq->qp->qpn, opengda_mlx5_be32toh(dbr_send));
			return DOCA_ERROR_BAD_STATE;
		}
	}
	return DOCA_SUCCESS;
}

/* Sets len bytes of queue memory (host, or GPU) to byte. */
static doca_error_t queue_fill(struct doca_gpu_verbs_qp *gq, void *addr, uint8_t byte, size_t len)
{
	if (ogda_gpu_is_device_ptr(gq->gpu, addr))
		return ogda_gpu_memset_dev(gq->gpu, addr, byte, len);
	memset(addr, byte, len);
	return DOCA_SUCCESS;
}

/* Every CQ entry invalid again (op_own 0xf1); the CI record at the NIC's producer when device code keeps it. */
static doca_error_t cq_reinit(struct doca_gpu_verbs_qp *gq, uint64_t producer)
{
	struct doca_verbs_cq *cq = gq->cq;
	size_t len = (size_t)cq->ncqe * CQE_BYTES;
	uint32_t ci = opengda_mlx5_cq_dbr_set_ci_value((uint32_t)producer);
	uint8_t *img = malloc(len);
	doca_error_t err;

	if (img == NULL) {
		OGDA_LOG_ERR("reset_tracking_and_memory: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	(void)opengda_mlx5_cq_init(img, cq->log_ncqe);
	if (ogda_gpu_is_device_ptr(gq->gpu, cq->ring)) {
		err = ogda_gpu_copy_to_dev(gq->gpu, cq->ring, img, len);
	} else {
		memcpy(cq->ring, img, len);
		err = DOCA_SUCCESS;
	}
	free(img);
	if (err == DOCA_SUCCESS && (gq->qp_cpu.cq_sq.ogda_flags & OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC))
		err = verbs_mem_write(&cq->dbr[OPENGDA_MLX5_CQ_SET_CI], &ci, sizeof(ci));
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("reset_tracking_and_memory: QP 0x%x: cannot reinitialise CQ 0x%x: %s", gq->qp->qpn,
			     cq->cqn, doca_error_get_descr(err));
	return err;
}

doca_error_t doca_gpu_verbs_reset_tracking_and_memory(struct doca_gpu_verbs_qp *qp)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_reset_tracking_and_memory, (qp));
	struct doca_gpu_dev_verbs_qp *v;
	struct doca_gpu_dev_verbs_cq c;
	uint64_t producer = 0;
	doca_error_t err;

	if (qp == NULL) {
		OGDA_LOG_ERR("reset_tracking_and_memory: NULL QP");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->qp == NULL) {
		OGDA_LOG_ERR("reset_tracking_and_memory: QP 0x%x was bridged from raw fields: bridge it again instead",
			     qp->qp_cpu.sq_num);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (qp->cq_rq != NULL) {
		/* The receive side (RQ indices, receive CQ) is not rewound: refuse rather than leave it stale. */
		OGDA_LOG_ERR("reset_tracking_and_memory: QP 0x%x was exported with its receive queue: unexport it and "
			     "export it again after the reset", qp->qp->qpn);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	v = &qp->qp_cpu;
	err = check_resettable(qp);
	if (err == DOCA_SUCCESS)
		err = dev_cq_state(qp, &c);
	if (err == DOCA_SUCCESS)
		err = cq_scan(qp, &c, &producer, NULL);
	if (err != DOCA_SUCCESS)
		return err;
	gverbs_proxy_rewind(qp);
	err = queue_fill(qp, qp->qp->sq, 0, (size_t)v->sq_wqe_num * OPENGDA_MLX5_SEND_WQE_BB);
	if (err == DOCA_SUCCESS)
		err = ogda_gpu_memset_dev(qp->gpu, qp->ready_slots, 0, (size_t)v->sq_wqe_num * sizeof(uint64_t));
	if (err == DOCA_SUCCESS)
		err = cq_reinit(qp, producer);
	if (err != DOCA_SUCCESS)
		return err;
	v->sq_rsvd_index = 0;
	v->sq_ready_index = 0;
	v->sq_wqe_pi = 0;
	v->sq_lock = 0;
	v->cq_sq.cqe_ci = 0;
	v->cq_sq.cqe_rsvd = (v->cq_sq.ogda_flags & OPENGDA_DEV_CQ_FLAG_COLLAPSED) ? 0 : producer;
	v->cq_sq.ogda_first_error = 0;
	return gverbs_qp_sync_dev(qp);
}
