/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ALLOC / DEALLOC_TRANSPORT_DOMAIN, CREATE_TIS / DESTROY_TIS and the Ethernet send queue: CREATE_SQ, MODIFY_SQ, DESTROY_SQ.
 *
 * An SQ is kept as a QP object of st SWNIC_QP_ST_ETH in the QP number space (SQ numbers and
 * QP numbers share it on a ConnectX too), so the engine watches its doorbells and runs its
 * ring exactly as a QP's send queue. Its states map onto the QP states the engine knows:
 * RST -> RST, RDY -> RTS, ERR -> ERR. The ring is at wq_umem + wq_umem_offset, the doorbell
 * record at dbr_umem + dbr_addr, word 1 (MLX5_SND_DBR) holding the producer counter. A TIS
 * belongs to a transport domain and a PD; an SQ names one TIS.
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_cmd.h"
#include "prm/prm_pd_uar.h"

#include <stdlib.h>
#include <string.h>

void swnic_cmd_tis_free(struct swnic_tis *tis)
{
	atomic_fetch_sub(&tis->pd->refs, 1);
	atomic_fetch_sub(&tis->td->refs, 1);
	free(tis);
}

uint8_t swnic_cmd_alloc_td(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct swnic_td *td = calloc(1, sizeof(*td));
	uint32_t id = 0;
	doca_error_t err;
	uint16_t uid;

	if (td == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate a transport domain");
	if (prm_alloc_td_in_parse(c->in, c->inlen, &uid) != DOCA_SUCCESS) {
		free(td);
		return swnic_cmd_malformed(c);
	}
	pthread_rwlock_wrlock(&nic->lock);
	err = swnic_table_insert(&nic->tds, td, &id);
	pthread_rwlock_unlock(&nic->lock);
	if (err != DOCA_SUCCESS) {
		free(td);
		return swnic_cmd_table_fail(c, err, "transport domain");
	}
	td->id = id;
	atomic_init(&td->refs, 0);
	return prm_alloc_td_out_build(id, c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_dealloc_td(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct swnic_td *td;
	uint32_t id = 0;
	uint16_t uid;
	uint8_t st = PRM_STATUS_OK;

	if (prm_dealloc_td_in_parse(c->in, c->inlen, &uid, &id) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&nic->lock);
	td = swnic_table_lookup(&nic->tds, id);
	if (td == NULL)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TD, "no transport domain 0x%x", id);
	else if (atomic_load(&td->refs) != 0)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_TD_IN_USE,
				    "transport domain 0x%x: %u TISs belong to it", id, atomic_load(&td->refs));
	else
		(void)swnic_table_remove(&nic->tds, id);
	pthread_rwlock_unlock(&nic->lock);
	if (st != PRM_STATUS_OK)
		return st;
	free(td);
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_create_tis(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct prm_create_tis_params p;
	struct swnic_tis *tis;
	uint32_t tisn = 0;
	doca_error_t err;
	uint8_t st = PRM_STATUS_OK;

	if (prm_create_tis_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	tis = calloc(1, sizeof(*tis));
	if (tis == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate a TIS");
	pthread_rwlock_wrlock(&nic->lock);
	tis->pd = swnic_table_lookup(&nic->pds, p.tisc.pd);
	tis->td = swnic_table_lookup(&nic->tds, p.tisc.transport_domain);
	if (tis->pd == NULL) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_PD, "no PD 0x%x", p.tisc.pd);
	} else if (tis->td == NULL) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TD, "no transport domain 0x%x",
				    p.tisc.transport_domain);
	} else {
		err = swnic_table_insert(&nic->tises, tis, &tisn);
		if (err != DOCA_SUCCESS)
			st = swnic_cmd_table_fail(c, err, "TIS");
	}
	if (st == PRM_STATUS_OK) {
		tis->tisn = tisn;
		atomic_init(&tis->refs, 0);
		atomic_fetch_add(&tis->pd->refs, 1);
		atomic_fetch_add(&tis->td->refs, 1);
	}
	pthread_rwlock_unlock(&nic->lock);
	if (st != PRM_STATUS_OK) {
		free(tis);
		return st;
	}
	if (prm_create_tis_out_build(tisn, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_destroy_tis(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct swnic_tis *tis;
	uint32_t tisn = 0;
	uint16_t uid;
	uint8_t st = PRM_STATUS_OK;

	if (prm_destroy_tis_in_parse(c->in, c->inlen, &uid, &tisn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&nic->lock);
	tis = swnic_table_lookup(&nic->tises, tisn);
	if (tis == NULL)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TISN, "no TIS 0x%x", tisn);
	else if (atomic_load(&tis->refs) != 0)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_TIS_IN_USE, "TIS 0x%x: %u SQs send through it",
				    tisn, atomic_load(&tis->refs));
	else
		(void)swnic_table_remove(&nic->tises, tisn);
	pthread_rwlock_unlock(&nic->lock);
	if (st != PRM_STATUS_OK)
		return st;
	swnic_cmd_tis_free(tis);
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

static uint8_t check_sqc(struct swnic_cmd *c, const struct prm_sqc_params *q)
{
	if (q->wq.wq_type != PRM_WQ_TYPE_CYCLIC || q->wq.log_wq_stride != OPENGDA_MLX5_SEND_WQE_SHIFT)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_SQ_WQ,
				      "wq_type %u, log_wq_stride %u: an SQ is a cyclic ring of 64-byte WQEBBs",
				      q->wq.wq_type, q->wq.log_wq_stride);
	if (q->wq.log_wq_sz > c->nic->cap_general.log_max_qp_sz)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_SQ_SIZE, "log_wq_sz %u exceeds %u",
				      q->wq.log_wq_sz, c->nic->cap_general.log_max_qp_sz);
	if (q->tis_lst_sz != 1)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TISN, "tis_lst_sz %u: one TIS is modelled",
				      q->tis_lst_sz);
	if (q->state != PRM_SQ_STATE_RST)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_SQ_STATE, "an SQ is created in RST, not %u",
				      q->state);
	return PRM_STATUS_OK;
}

/* Looks up everything the SQ names and fills it in, under nic->lock. */
static uint8_t sq_fill(struct swnic_cmd *c, const struct prm_sqc_params *q, struct swnic_qp *qp)
{
	struct swnic *nic = c->nic;
	uint64_t bytes = (uint64_t)OPENGDA_MLX5_SEND_WQE_BB << q->wq.log_wq_sz;
	uint8_t st;

	qp->pd = swnic_table_lookup(&nic->pds, q->wq.pd);
	if (qp->pd == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_PD, "no PD 0x%x", q->wq.pd);
	qp->uar = swnic_table_lookup(&nic->uars, q->wq.uar_page);
	if (qp->uar == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_UAR, "no UAR page 0x%x", q->wq.uar_page);
	qp->send_cq = swnic_table_lookup(&nic->cqs, q->cqn);
	if (qp->send_cq == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQ_REF, "cqn 0x%x names no CQ", q->cqn);
	qp->tis = swnic_table_lookup(&nic->tises, q->tis_num_0);
	if (qp->tis == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TISN, "no TIS 0x%x", q->tis_num_0);
	st = swnic_cmd_place_queue(c, q->wq.wq_umem_valid, q->wq.wq_umem_id, q->wq.wq_umem_offset, bytes, &qp->wq_umem,
				   &qp->sq);
	if (st != PRM_STATUS_OK)
		return st;
	return swnic_cmd_place_dbr(c, q->wq.dbr_umem_valid, q->wq.dbr_umem_id, q->wq.dbr_addr, 8, 8, &qp->dbr_umem,
				   &qp->dbr);
}

static void sq_take_refs(struct swnic_qp *qp)
{
	atomic_fetch_add(&qp->pd->refs, 1);
	atomic_fetch_add(&qp->uar->refs, 1);
	atomic_fetch_add(&qp->send_cq->refs, 1);
	atomic_fetch_add(&qp->tis->refs, 1);
	atomic_fetch_add(&qp->wq_umem->refs, 1);
	atomic_fetch_add(&qp->dbr_umem->refs, 1);
}

uint8_t swnic_cmd_create_sq(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct prm_create_sq_params p;
	struct swnic_qp_obj *o;
	struct swnic_qp *qp;
	uint32_t sqn = 0;
	doca_error_t err;
	uint8_t st;

	if (prm_create_sq_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = check_sqc(c, &p.sqc);
	if (st != PRM_STATUS_OK)
		return st;
	o = calloc(1, sizeof(*o));
	if (o == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate an SQ");
	qp = &o->qp;
	pthread_rwlock_wrlock(&nic->lock);
	st = sq_fill(c, &p.sqc, qp);
	if (st == PRM_STATUS_OK) {
		err = swnic_qpn_table_insert(&nic->qps, o, &sqn);
		if (err != DOCA_SUCCESS)
			st = swnic_cmd_table_fail(c, err, "SQ");
	}
	if (st != PRM_STATUS_OK) {
		pthread_rwlock_unlock(&nic->lock);
		free(o);
		return st;
	}
	qp->qpn = sqn;
	qp->nic = nic;
	qp->st = SWNIC_QP_ST_ETH;
	qp->user_index = p.sqc.user_index;
	qp->log_sq_wqebbs = p.sqc.wq.log_wq_sz;
	qp->send_dbr_mode = PRM_QP_SEND_DBR_VALID;
	qp->cd_master = p.sqc.cd_master != 0;
	qp->allow_multi_pkt_send = p.sqc.allow_multi_pkt_send_wqe != 0;
	pthread_mutex_init(&qp->lock, NULL);
	pthread_mutex_init(&qp->resp_lock, NULL);
	pthread_mutex_init(&qp->rq.lock, NULL);
	atomic_init(&qp->state, PRM_QP_STATE_RST);
	atomic_init(&qp->refs, 0);
	sq_take_refs(qp);
	pthread_rwlock_unlock(&nic->lock);

	err = swnic_engine_attach_qp(nic->engine, qp);
	if (err != DOCA_SUCCESS) {
		pthread_rwlock_wrlock(&nic->lock);
		swnic_qpn_table_remove(&nic->qps, sqn);
		pthread_rwlock_unlock(&nic->lock);
		swnic_cmd_qp_free(o);
		return swnic_cmd_fail(c, PRM_STATUS_INTERNAL_ERR, SWNIC_SYND_INTERNAL, "the engine refused the SQ: %s",
				      doca_error_get_name(err));
	}
	OGDA_LOG_DBG("%s: Ethernet SQ 0x%x, 2^%u WQEBBs, CQ 0x%x, TIS 0x%x", nic->name, sqn, p.sqc.wq.log_wq_sz,
		     p.sqc.cqn, p.sqc.tis_num_0);
	if (prm_create_sq_out_build(sqn, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

static uint8_t qp_state_of(uint8_t sq_state)
{
	return sq_state == PRM_SQ_STATE_RDY ? PRM_QP_STATE_RTS
	       : sq_state == PRM_SQ_STATE_ERR ? PRM_QP_STATE_ERR
					      : PRM_QP_STATE_RST;
}

/* RST -> RDY, RDY -> ERR, RDY / ERR -> RST (as a ConnectX allows them). */
static bool transition_ok(uint8_t from, uint8_t to)
{
	return (from == PRM_SQ_STATE_RST && to == PRM_SQ_STATE_RDY) ||
	       (from == PRM_SQ_STATE_RDY && (to == PRM_SQ_STATE_ERR || to == PRM_SQ_STATE_RST)) ||
	       (from == PRM_SQ_STATE_ERR && to == PRM_SQ_STATE_RST);
}

uint8_t swnic_cmd_modify_sq(struct swnic_cmd *c)
{
	struct prm_modify_sq_params p;
	struct swnic_qp *qp;
	uint8_t old, st = PRM_STATUS_OK;

	if (prm_modify_sq_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	qp = swnic_qp_acquire(c->nic, p.sqn);
	if (qp != NULL && qp->st != SWNIC_QP_ST_ETH) {
		swnic_qp_release(qp);
		qp = NULL;
	}
	if (qp == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_SQN, "no SQ 0x%x", p.sqn);
	pthread_mutex_lock(&qp->lock);
	old = atomic_load(&qp->state);
	if (qp_state_of(p.sq_state) != old || p.sq_state == 2 || p.sq_state > PRM_SQ_STATE_ERR)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_SQ_STATE,
				    "SQ 0x%x: sq_state %u is not its current state", p.sqn, p.sq_state);
	else if (!transition_ok(p.sq_state, p.sqc.state))
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_SQ_STATE, "SQ 0x%x: no transition %u -> %u",
				    p.sqn, p.sq_state, p.sqc.state);
	else
		atomic_store(&qp->state, qp_state_of(p.sqc.state));
	pthread_mutex_unlock(&qp->lock);
	if (st == PRM_STATUS_OK)
		swnic_engine_qp_modified(c->nic->engine, qp, old); /* outside qp->lock: ERR flushes, RST rewinds */
	swnic_qp_release(qp);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_destroy_sq(struct swnic_cmd *c)
{
	uint32_t sqn = 0;
	uint16_t uid;
	uint8_t st;

	if (prm_destroy_sq_in_parse(c->in, c->inlen, &uid, &sqn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = swnic_cmd_destroy_queue(c, sqn, true);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}
