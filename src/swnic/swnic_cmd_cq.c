/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQ commands: CREATE_CQ (ring and doorbell record in host umems), DESTROY_CQ (refused
 * while a QP completes to the CQ), QUERY_CQ and MODIFY_CQ (moderation and overrun-ignore;
 * resize is not modelled, cq_resize = 0).
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "swnic/swnic_event.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>

void swnic_cmd_cq_free(struct swnic_cq_obj *o)
{
	struct swnic_cq *cq = &o->cq;

	atomic_fetch_sub(&cq->uar->refs, 1);
	atomic_fetch_sub(&cq->umem->refs, 1);
	atomic_fetch_sub(&cq->dbr_umem->refs, 1);
	pthread_mutex_destroy(&cq->lock);
	free(o);
}

static uint8_t check_cqc(struct swnic_cmd *c, const struct prm_cqc_params *q)
{
	const struct prm_hca_cap_general *g = &c->nic->cap_general;

	if (q->cqe_sz != PRM_CQE_SIZE_64 && q->cqe_sz != PRM_CQE_SIZE_128)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQE_SIZE,
				      "cqe_sz %u: only 0 (64 B) and 1 (128 B)", q->cqe_sz);
	if (q->cqe_comp_en)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_CQE_COMP, "CQE compression is not modelled");
	if (q->log_cq_size > g->log_max_cq_sz)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQ_SIZE,
				      "log_cq_size %u exceeds log_max_cq_sz %u", q->log_cq_size, g->log_max_cq_sz);
	if (q->c_eqn != SWNIC_EQN)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_EQN,
				      "c_eqn %u: the completion EQ is %u", q->c_eqn, SWNIC_EQN);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_create_cq(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct prm_create_cq_params p;
	struct swnic_umem *umem = NULL, *dbr_umem = NULL;
	_Atomic uint32_t *dbr = NULL;
	struct swnic_cq_obj *o;
	struct swnic_uar *uar;
	uint8_t *ring = NULL;
	uint32_t cqe_size, cqn = 0;
	doca_error_t err;
	uint8_t st;

	if (prm_create_cq_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = check_cqc(c, &p.cqc);
	if (st != PRM_STATUS_OK)
		return st;
	cqe_size = p.cqc.cqe_sz == PRM_CQE_SIZE_128 ? 128u : 64u;
	o = calloc(1, sizeof(*o));
	if (o == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate a CQ");

	pthread_rwlock_wrlock(&nic->lock);
	uar = swnic_table_lookup(&nic->uars, p.cqc.uar_page);
	if (uar == NULL)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_UAR, "no UAR page 0x%x", p.cqc.uar_page);
	if (st == PRM_STATUS_OK)
		st = swnic_cmd_place_queue(c, p.cq_umem_valid, p.cq_umem_id, p.cq_umem_offset,
					   (uint64_t)cqe_size << p.cqc.log_cq_size, &umem, &ring);
	if (st == PRM_STATUS_OK)
		st = swnic_cmd_place_dbr(c, p.cqc.dbr_umem_valid, p.cqc.dbr_umem_id, p.cqc.dbr_addr, 8, 8, &dbr_umem,
					 &dbr);
	if (st == PRM_STATUS_OK) {
		err = swnic_table_insert(&nic->cqs, o, &cqn);
		if (err != DOCA_SUCCESS)
			st = swnic_cmd_table_fail(c, err, "CQ");
	}
	if (st != PRM_STATUS_OK) {
		pthread_rwlock_unlock(&nic->lock);
		free(o);
		return st;
	}
	o->cq.cqn = cqn;
	pthread_mutex_init(&o->cq.lock, NULL);
	o->cq.ring = ring;
	o->cq.log_size = p.cqc.log_cq_size;
	o->cq.cqe_size = cqe_size;
	o->cq.collapsed = p.cqc.cc != 0;
	o->cq.overrun_ignore = p.cqc.oi != 0;
	o->cq.dbr = dbr;
	o->cq.uar = uar;
	o->cq.umem = umem;
	o->cq.dbr_umem = dbr_umem;
	atomic_init(&o->cq.produced, 0);
	atomic_init(&o->cq.in_error, false);
	atomic_init(&o->cq.refs, 0);
	o->cq.nic = nic;
	atomic_init(&o->cq.comp_subs, 0);
	swnic_cq_arm_init(&o->cq);
	o->cqc = p.cqc;
	atomic_fetch_add(&uar->refs, 1);
	atomic_fetch_add(&umem->refs, 1);
	atomic_fetch_add(&dbr_umem->refs, 1);
	pthread_rwlock_unlock(&nic->lock);

	OGDA_LOG_DBG("%s: CQ 0x%x: %u x %u B%s%s", nic->name, cqn, 1u << p.cqc.log_cq_size, cqe_size,
		     p.cqc.cc ? ", collapsed" : "", p.cqc.oi ? ", overrun ignored" : "");
	if (prm_create_cq_out_build(cqn, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_fail(c, PRM_STATUS_INTERNAL_ERR, SWNIC_SYND_INTERNAL, "cannot build the reply");
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_destroy_cq(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct swnic_cq_obj *o;
	uint32_t cqn = 0;
	uint16_t uid;
	unsigned int refs;

	if (prm_destroy_cq_in_parse(c->in, c->inlen, &uid, &cqn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&nic->lock);
	o = swnic_table_lookup(&nic->cqs, cqn);
	if (o == NULL) {
		pthread_rwlock_unlock(&nic->lock);
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQN, "no CQ 0x%x", cqn);
	}
	/* refs: QPs completing to the CQ and engine lookups in flight; both keep it alive. */
	refs = atomic_load(&o->cq.refs);
	if (refs != 0) {
		pthread_rwlock_unlock(&nic->lock);
		return swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_CQ_IN_USE, "CQ 0x%x is used by %u QPs",
				      cqn, refs);
	}
	swnic_table_remove(&nic->cqs, cqn);
	pthread_rwlock_unlock(&nic->lock);
	/* Its subscriptions end before it is freed: the arm scan holds no other way to it. */
	swnic_event_forget(nic, SWNIC_EVOBJ_CQ, cqn);
	swnic_cmd_cq_free(o);
	return prm_destroy_cq_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_query_cq(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct prm_cqc_params q;
	struct swnic_cq_obj *o;
	uint32_t cqn = 0;
	uint16_t uid;

	if (prm_query_cq_in_parse(c->in, c->inlen, &uid, &cqn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_rdlock(&nic->lock);
	o = swnic_table_lookup(&nic->cqs, cqn);
	if (o == NULL) {
		pthread_rwlock_unlock(&nic->lock);
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQN, "no CQ 0x%x", cqn);
	}
	pthread_mutex_lock(&o->cq.lock);
	q = o->cqc;
	q.oi = o->cq.overrun_ignore ? 1 : 0;
	pthread_mutex_unlock(&o->cq.lock);
	q.status = atomic_load(&o->cq.in_error) ? PRM_CQC_STATUS_OVERFLOW : PRM_CQC_STATUS_OK;
	q.producer_counter = atomic_load(&o->cq.produced) & 0xffffffu;
	q.consumer_counter = be32toh(atomic_load_explicit(&o->cq.dbr[0], memory_order_acquire)) & 0xffffffu;
	pthread_rwlock_unlock(&nic->lock);
	if (prm_query_cq_out_build(&q, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_modify_cq(struct swnic_cmd *c)
{
	const uint32_t known = PRM_MODIFY_CQ_SELECT_PERIOD | PRM_MODIFY_CQ_SELECT_COUNT | PRM_MODIFY_CQ_SELECT_OI;
	struct swnic *nic = c->nic;
	struct prm_modify_cq_params p;
	struct swnic_cq_obj *o;

	if (prm_modify_cq_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	if (p.op_mod == PRM_MODIFY_CQ_OP_RESIZE)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_CQ_RESIZE, "CQ resize is not modelled");
	if (p.op_mod != PRM_MODIFY_CQ_OP_MODIFY)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_OP_MOD, "op_mod %u", p.op_mod);
	if ((p.modify_field_select & ~known) != 0)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_FIELD_SELECT,
				      "modify_field_select 0x%x has bits beyond 0x%x", p.modify_field_select, known);
	pthread_rwlock_rdlock(&nic->lock);
	o = swnic_table_lookup(&nic->cqs, p.cqn);
	if (o == NULL) {
		pthread_rwlock_unlock(&nic->lock);
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQN, "no CQ 0x%x", p.cqn);
	}
	/* Under the CQ lock: CQE production reads overrun_ignore with it held. */
	pthread_mutex_lock(&o->cq.lock);
	if (p.modify_field_select & PRM_MODIFY_CQ_SELECT_PERIOD)
		o->cqc.cq_period = p.cqc.cq_period;
	if (p.modify_field_select & PRM_MODIFY_CQ_SELECT_COUNT)
		o->cqc.cq_max_count = p.cqc.cq_max_count;
	if (p.modify_field_select & PRM_MODIFY_CQ_SELECT_OI) {
		o->cqc.oi = p.cqc.oi;
		o->cq.overrun_ignore = p.cqc.oi != 0;
	}
	pthread_mutex_unlock(&o->cq.lock);
	pthread_rwlock_unlock(&nic->lock);
	return prm_modify_cq_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}
