/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RMP commands: the shared receive queue QPs attach to with qpc.rq_type = SRQ and
 * qpc.srqn_rmpn_xrqn = rmpn. The WQ lives in a host umem (linked-list or cyclic, strides of
 * 16..512 bytes), its doorbell record is one 4-byte word (the producer counter).
 *
 * RMP states: RST -> RDY, RDY -> RDY (limit watermark), any -> ERR, ERR -> RST. The state
 * is recorded and reported; receive WQEs are consumed whatever it is.
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_rmp.h"
#include "swnic/swnic_event.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>

#define RMP_MIN_LOG_STRIDE 4u   /* 16 B: one data segment */
#define RMP_MAX_LOG_STRIDE 9u   /* 512 B: max_wqe_sz_rq */

void swnic_cmd_srq_free(struct swnic_srq_obj *o)
{
	struct swnic_srq *srq = &o->srq;

	atomic_fetch_sub(&srq->pd->refs, 1);
	atomic_fetch_sub(&srq->umem->refs, 1);
	atomic_fetch_sub(&srq->dbr_umem->refs, 1);
	pthread_mutex_destroy(&srq->rq.lock);
	free(o);
}

static bool state_known(uint8_t state)
{
	return state == PRM_RMP_STATE_RST || state == PRM_RMP_STATE_RDY || state == PRM_RMP_STATE_ERR;
}

static uint8_t check_rmpc(struct swnic_cmd *c, const struct prm_rmpc_params *r)
{
	const struct prm_wq_params *wq = &r->wq;

	if (r->state != PRM_RMP_STATE_RST && r->state != PRM_RMP_STATE_RDY)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RMP_STATE,
				      "an RMP is created in RST or RDY, not state %u", r->state);
	if (wq->wq_type != PRM_WQ_TYPE_LINKED_LIST && wq->wq_type != PRM_WQ_TYPE_CYCLIC)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_WQ_TYPE,
				      "wq_type %u: striding WQs are not modelled", wq->wq_type);
	if (wq->log_wq_sz > c->nic->cap_general.log_max_srq_sz)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_WQ_SIZE,
				      "log_wq_sz %u exceeds log_max_srq_sz %u", wq->log_wq_sz,
				      c->nic->cap_general.log_max_srq_sz);
	if (wq->log_wq_stride < RMP_MIN_LOG_STRIDE || wq->log_wq_stride > RMP_MAX_LOG_STRIDE)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_WQ_STRIDE,
				      "log_wq_stride %u: WQEs are 16 (4) .. 512 (9) bytes", wq->log_wq_stride);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_create_rmp(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct prm_create_rmp_params p;
	const struct prm_wq_params *wq = &p.rmpc.wq;
	struct swnic_umem *umem = NULL, *dbr_umem = NULL;
	_Atomic uint32_t *dbr = NULL;
	struct swnic_srq_obj *o;
	struct swnic_pd *pd;
	uint8_t *ring = NULL;
	uint32_t rmpn = 0;
	doca_error_t err;
	uint8_t st;

	if (prm_create_rmp_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = check_rmpc(c, &p.rmpc);
	if (st != PRM_STATUS_OK)
		return st;
	o = calloc(1, sizeof(*o));
	if (o == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate an RMP");

	pthread_rwlock_wrlock(&nic->lock);
	pd = swnic_table_lookup(&nic->pds, wq->pd);
	if (pd == NULL)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_PD, "no PD 0x%x", wq->pd);
	if (st == PRM_STATUS_OK)
		st = swnic_cmd_place_queue(c, wq->wq_umem_valid, wq->wq_umem_id, wq->wq_umem_offset,
					   (uint64_t)1 << (wq->log_wq_sz + wq->log_wq_stride), &umem, &ring);
	if (st == PRM_STATUS_OK)
		st = swnic_cmd_place_dbr(c, wq->dbr_umem_valid, wq->dbr_umem_id, wq->dbr_addr, 4, 4, &dbr_umem, &dbr);
	if (st == PRM_STATUS_OK) {
		err = swnic_table_insert(&nic->srqs, o, &rmpn);
		if (err != DOCA_SUCCESS)
			st = swnic_cmd_table_fail(c, err, "RMP");
	}
	if (st != PRM_STATUS_OK) {
		pthread_rwlock_unlock(&nic->lock);
		free(o);
		return st;
	}
	o->srq.srqn = rmpn;
	o->srq.pd = pd;
	o->srq.rq.ring = ring;
	o->srq.rq.log_size = wq->log_wq_sz;
	o->srq.rq.log_stride = wq->log_wq_stride - RMP_MIN_LOG_STRIDE;
	o->srq.rq.dbr = dbr;
	o->srq.rq.ci = 0;
	o->srq.rq.wq_type = wq->wq_type; /* the responder follows a linked list or the ring */
	o->srq.rq.head = 0;
	pthread_mutex_init(&o->srq.rq.lock, NULL);
	o->srq.umem = umem;
	o->srq.dbr_umem = dbr_umem;
	atomic_init(&o->srq.refs, 0);
	o->rmpc = p.rmpc;
	atomic_fetch_add(&pd->refs, 1);
	atomic_fetch_add(&umem->refs, 1);
	atomic_fetch_add(&dbr_umem->refs, 1);
	pthread_rwlock_unlock(&nic->lock);

	OGDA_LOG_DBG("%s: RMP 0x%x: %u x %u B", nic->name, rmpn, 1u << wq->log_wq_sz, 1u << wq->log_wq_stride);
	if (prm_create_rmp_out_build(rmpn, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_fail(c, PRM_STATUS_INTERNAL_ERR, SWNIC_SYND_INTERNAL, "cannot build the reply");
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_destroy_rmp(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct swnic_srq_obj *o;
	uint32_t rmpn = 0;
	uint16_t uid;
	unsigned int refs;

	if (prm_destroy_rmp_in_parse(c->in, c->inlen, &uid, &rmpn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&nic->lock);
	o = swnic_table_lookup(&nic->srqs, rmpn);
	if (o == NULL) {
		pthread_rwlock_unlock(&nic->lock);
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RMPN, "no RMP 0x%x", rmpn);
	}
	refs = atomic_load(&o->srq.refs);
	if (refs != 0) {
		pthread_rwlock_unlock(&nic->lock);
		return swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_RMP_IN_USE,
				      "RMP 0x%x has %u QPs attached", rmpn, refs);
	}
	swnic_table_remove(&nic->srqs, rmpn);
	pthread_rwlock_unlock(&nic->lock);
	swnic_event_forget(nic, SWNIC_EVOBJ_RMP, rmpn);
	swnic_cmd_srq_free(o);
	return prm_destroy_rmp_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_query_rmp(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct prm_rmpc_params r;
	struct swnic_srq_obj *o;
	uint32_t rmpn = 0;
	uint16_t uid;

	if (prm_query_rmp_in_parse(c->in, c->inlen, &uid, &rmpn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_rdlock(&nic->lock);
	o = swnic_table_lookup(&nic->srqs, rmpn);
	if (o == NULL) {
		pthread_rwlock_unlock(&nic->lock);
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RMPN, "no RMP 0x%x", rmpn);
	}
	/* rq.lock guards the consumer counter and the recorded context alike. */
	pthread_mutex_lock(&o->srq.rq.lock);
	r = o->rmpc;
	r.wq.hw_counter = o->srq.rq.ci;
	pthread_mutex_unlock(&o->srq.rq.lock);
	r.wq.sw_counter = be32toh(atomic_load_explicit(&o->srq.rq.dbr[0], memory_order_acquire));
	pthread_rwlock_unlock(&nic->lock);
	if (prm_query_rmp_out_build(&r, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

static bool rmp_transition_ok(uint8_t from, uint8_t to)
{
	switch (to) {
	case PRM_RMP_STATE_ERR:
		return true;
	case PRM_RMP_STATE_RDY:
		return from == PRM_RMP_STATE_RST || from == PRM_RMP_STATE_RDY;
	case PRM_RMP_STATE_RST:
		return from == PRM_RMP_STATE_ERR || from == PRM_RMP_STATE_RST;
	default:
		return false;
	}
}

uint8_t swnic_cmd_modify_rmp(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct prm_modify_rmp_params p;
	struct swnic_srq_obj *o;
	uint8_t cur, st = PRM_STATUS_OK;

	if (prm_modify_rmp_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	if (!state_known(p.rmp_state) || !state_known(p.rmpc.state))
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RMP_STATE,
				      "RMP states are RST (0), RDY (1) and ERR (3): got %u -> %u", p.rmp_state,
				      p.rmpc.state);
	if ((p.bitmask & ~(uint64_t)PRM_RMP_BITMASK_LWM) != 0)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_FIELD_SELECT,
				      "bitmask 0x%llx: only the limit watermark (0x1) is modifiable",
				      (unsigned long long)p.bitmask);
	pthread_rwlock_rdlock(&nic->lock);
	o = swnic_table_lookup(&nic->srqs, p.rmpn);
	if (o == NULL) {
		pthread_rwlock_unlock(&nic->lock);
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RMPN, "no RMP 0x%x", p.rmpn);
	}
	pthread_mutex_lock(&o->srq.rq.lock);
	cur = o->rmpc.state;
	if (p.rmp_state != cur)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_RMP_STATE,
				    "RMP 0x%x is in state %u, the command says %u", p.rmpn, cur, p.rmp_state);
	else if (!rmp_transition_ok(cur, p.rmpc.state))
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_RMP_STATE,
				    "RMP 0x%x cannot go from state %u to %u", p.rmpn, cur, p.rmpc.state);
	if (st == PRM_STATUS_OK) {
		o->rmpc.state = p.rmpc.state;
		if (p.bitmask & PRM_RMP_BITMASK_LWM)
			o->rmpc.wq.lwm = p.rmpc.wq.lwm;
	}
	pthread_mutex_unlock(&o->srq.rq.lock);
	pthread_rwlock_unlock(&nic->lock);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_modify_rmp_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}
