/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * doca_verbs_wait_cq_wr: QP3's send queue and CQ, driven directly with the recipes of
 * include/opengda_mlx5.h. A WAIT work request has no ibv_send_wr form, so the bridge cannot
 * post it; and once one WQE is written outside the bridge, the bridge's producer index for
 * that QP is stale. So every WQE of QP3 is written here, and its CQ is read here too.
 */
#include <string.h>

#include "sample_util.h"
#include "wcw.h"

static uint32_t log2_pow2(uint32_t v)
{
	uint32_t l = 0;

	while ((1u << l) < v)
		l++;
	return l;
}

int wcw_sq_open(struct doca_verbs_qp *qp, struct wcw_sq *s)
{
	void *sq_buf = NULL, *rq_buf = NULL, *dbr = NULL, *uar = NULL;
	uint32_t sq_n = 0, rq_n = 0, rwqe = 0, qpn = 0;
	doca_error_t err;

	memset(s, 0, sizeof(*s));
	err = doca_verbs_qp_get_wq(qp, &sq_buf, &sq_n, &rq_buf, &rq_n, &rwqe);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_get_dbr_addr(qp, &dbr);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_get_uar_addr(qp, &uar);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_get_qpn(qp, &qpn);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("reading QP3's queue addresses", err);
		return -1;
	}
	if (sq_buf == NULL || sq_n == 0 || (sq_n & (sq_n - 1)) != 0 || dbr == NULL || uar == NULL) {
		sample_err("QP3 has no usable send queue (ring %p, %u WQEBBs, DBR %p, UAR %p)", sq_buf, sq_n, dbr, uar);
		return -1;
	}
	s->sq.ring = sq_buf;
	s->sq.log_wqebbs = log2_pow2(sq_n);
	s->sq.qpn = qpn;
	s->dbr = dbr;
	s->uar_reg = uar;
	s->pi = 0;
	return 0;
}

int wcw_sq_post_wait_cq(struct wcw_sq *s, uint32_t cqn, uint32_t max_index)
{
	/* No CQE for the WAIT itself: the send behind it reports the chain. */
	int ds = opengda_mlx5_wqe_wait_cq(&s->sq, s->pi, 0, cqn, max_index);

	if (ds < 0) {
		sample_err("writing the WAIT WQE (CQ 0x%x, index %u) was refused", cqn, max_index);
		return -1;
	}
	s->pi = opengda_mlx5_sq_pi_advance(s->pi, (uint32_t)ds);
	return 0;
}

int wcw_sq_post_send(struct wcw_sq *s, uint64_t laddr, uint32_t lkey, uint32_t len)
{
	int ds = opengda_mlx5_wqe_send(&s->sq, s->pi, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, laddr, lkey, len);

	if (ds < 0) {
		sample_err("writing the SEND WQE (%u bytes) was refused", len);
		return -1;
	}
	s->pi = opengda_mlx5_sq_pi_advance(s->pi, (uint32_t)ds);
	return 0;
}

void wcw_sq_ring(struct wcw_sq *s)
{
	/* WQE stores, barrier, doorbell record, barrier, doorbell register (opengda_mlx5.h). */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&s->dbr[OPENGDA_MLX5_SND_DBR], opengda_mlx5_qp_dbr_value(s->pi), __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(s->uar_reg, opengda_mlx5_qp_uar_db_value(s->pi, s->sq.qpn), __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

int wcw_cq_open(struct doca_verbs_cq *cq, struct wcw_cq *c)
{
	void *ring = NULL;
	uint64_t *uar_db = NULL;
	uint32_t *ci_dbr = NULL, *arm_dbr = NULL;
	doca_error_t err;

	memset(c, 0, sizeof(*c));
	err = doca_verbs_cq_get_wq(cq, &ring, &c->ncqe, &c->entry_size);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_cq_get_dbr_addr(cq, &uar_db, &ci_dbr, &arm_dbr);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_cq_get_cqn(cq, &c->cqn);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("reading a CQ's addresses", err);
		return -1;
	}
	if (ring == NULL || ci_dbr == NULL || c->ncqe == 0 || (c->ncqe & (c->ncqe - 1)) != 0 ||
	    (c->entry_size != 64 && c->entry_size != 128)) {
		sample_err("CQ 0x%x has no usable ring (%u entries of %u bytes)", c->cqn, c->ncqe, c->entry_size);
		return -1;
	}
	c->ring = ring;
	c->log_ncqe = log2_pow2(c->ncqe);
	c->ci_dbr = ci_dbr;
	return 0;
}

/* The 64-byte CQE of the entry at the consumer index (the second half of a 128-byte entry). */
static const struct opengda_mlx5_cqe64 *cq_current(const struct wcw_cq *c)
{
	size_t entry = (size_t)(c->ci & (c->ncqe - 1u)) * c->entry_size;

	return (const struct opengda_mlx5_cqe64 *)(const void *)(c->ring + entry + c->entry_size -
								   sizeof(struct opengda_mlx5_cqe64));
}

int wcw_cq_peek(const struct wcw_cq *c)
{
	return opengda_mlx5_cqe_is_sw_owned(cq_current(c), c->ci, c->log_ncqe);
}

int wcw_cq_poll(struct wcw_cq *c, int timeout_ms, const char *what, struct opengda_mlx5_cqe_fields *f)
{
	int64_t deadline = sample_now_ms() + timeout_ms;

	while (!wcw_cq_peek(c)) {
		if (sample_now_ms() >= deadline) {
			sample_err("%s: no completion within %d ms", what, timeout_ms);
			return -1;
		}
		sample_sleep_us(20);
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE); /* the CQE's other fields after its owner byte */
	opengda_mlx5_cqe_read(cq_current(c), f);
	c->ci = opengda_mlx5_cq_ci_next(c->ci);
	__atomic_store_n(c->ci_dbr, opengda_mlx5_cq_dbr_set_ci_value(c->ci), __ATOMIC_RELEASE);
	if (f->opcode == OPENGDA_MLX5_CQE_REQ_ERR || f->opcode == OPENGDA_MLX5_CQE_RESP_ERR) {
		sample_err("%s: completion error: %s (syndrome 0x%02x), vendor_err 0x%x, QP 0x%x, WQE %u", what,
			   ibv_wc_status_str(sample_wc_status_from_syndrome(f->syndrome)), f->syndrome,
			   f->vendor_syndrome, f->qpn, f->wqe_counter);
		return -1;
	}
	return 0;
}
