/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where received frames go, in the command executor: CREATE_RQT / DESTROY_RQT (a list of RQs)
 * and CREATE_TIR / DESTROY_TIR (one RQ, or an RQT with an RSS hash). A TIR belongs to a transport
 * domain (referenced, so the domain cannot go while the TIR exists). Objects are reference
 * counted: an RQ named by an RQT or a TIR, an RQT named by a TIR, and a TIR named by a flow table
 * entry cannot be destroyed (BAD_RES_STATE).
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_tir.h"
#include "swnic/swnic_steer.h"

#include <stdlib.h>
#include <string.h>

uint8_t swnic_cmd_create_rqt(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_create_rqt_params *p;
	struct swnic_rqt *rqt;
	uint32_t rqtn = 0, i;
	doca_error_t err;
	uint8_t st = PRM_STATUS_OK;

	p = malloc(sizeof(*p));
	rqt = calloc(1, sizeof(*rqt));
	if (p == NULL || rqt == NULL) {
		free(p);
		free(rqt);
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate an RQT");
	}
	if (prm_create_rqt_in_parse(c->in, c->inlen, p) != DOCA_SUCCESS) {
		free(p);
		free(rqt);
		return swnic_cmd_malformed(c);
	}
	if (p->rqtc.rqt_actual_size == 0 || p->rqtc.rqt_actual_size > SWNIC_RQT_MAX ||
	    p->rqtc.rqt_actual_size > p->rqtc.rqt_max_size) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQTN,
				    "rqt_actual_size %u (max_size %u): 1..%u RQs", p->rqtc.rqt_actual_size,
				    p->rqtc.rqt_max_size, SWNIC_RQT_MAX);
		free(p);
		free(rqt);
		return st;
	}
	pthread_rwlock_wrlock(&s->lock);
	for (i = 0; i < p->rqtc.rqt_actual_size && st == PRM_STATUS_OK; i++) {
		rqt->rq[i] = swnic_table_lookup(&s->rqs, p->rqtc.rq_num[i]);
		if (rqt->rq[i] == NULL)
			st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQN, "RQT entry %u: no RQ 0x%x", i,
					    p->rqtc.rq_num[i]);
	}
	if (st == PRM_STATUS_OK) {
		err = swnic_table_insert(&s->rqts, rqt, &rqtn);
		if (err != DOCA_SUCCESS)
			st = swnic_cmd_table_fail(c, err, "RQT");
	}
	if (st == PRM_STATUS_OK) {
		rqt->rqtn = rqtn;
		rqt->n = p->rqtc.rqt_actual_size;
		for (i = 0; i < rqt->n; i++)
			atomic_fetch_add(&rqt->rq[i]->refs, 1);
	}
	pthread_rwlock_unlock(&s->lock);
	free(p);
	if (st != PRM_STATUS_OK) {
		free(rqt);
		return st;
	}
	if (prm_create_rqt_out_build(rqtn, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_destroy_rqt(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct swnic_rqt *rqt;
	uint32_t rqtn = 0, i;
	uint16_t uid;
	uint8_t st = PRM_STATUS_OK;

	if (prm_destroy_rqt_in_parse(c->in, c->inlen, &uid, &rqtn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&s->lock);
	rqt = swnic_table_lookup(&s->rqts, rqtn);
	if (rqt == NULL) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQTN, "no RQT 0x%x", rqtn);
	} else if (atomic_load(&rqt->refs) != 0) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_RQT_IN_USE, "RQT 0x%x: %u TIRs spread over it",
				    rqtn, atomic_load(&rqt->refs));
	} else {
		(void)swnic_table_remove(&s->rqts, rqtn);
		for (i = 0; i < rqt->n; i++)
			atomic_fetch_sub(&rqt->rq[i]->refs, 1);
	}
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK)
		return st;
	free(rqt);
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

static uint8_t check_tirc(struct swnic_cmd *c, const struct prm_tirc_params *t)
{
	const struct prm_rx_hash_field_select *h = &t->rx_hash_field_selector_outer;

	if (t->disp_type != PRM_TIR_DISP_DIRECT && t->disp_type != PRM_TIR_DISP_INDIRECT)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TIRN, "disp_type %u", t->disp_type);
	if (t->lro_enable_mask != 0 || t->tunneled_offload_en != 0)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TIRN,
				      "LRO (mask 0x%x) and tunnel offloads are not modelled", t->lro_enable_mask);
	if (t->disp_type == PRM_TIR_DISP_INDIRECT &&
	    (t->rx_hash_fn != PRM_RX_HASH_FN_TOEPLITZ && t->rx_hash_fn != PRM_RX_HASH_FN_NONE))
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TIRN,
				      "rx_hash_fn %u: Toeplitz (or none: the first RQ) is modelled", t->rx_hash_fn);
	if (h->selected_fields & ~(uint32_t)(PRM_RX_HASH_SRC_IP | PRM_RX_HASH_DST_IP | PRM_RX_HASH_L4_SPORT |
					       PRM_RX_HASH_L4_DPORT))
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TIRN,
				      "selected_fields 0x%x: addresses and ports are modelled", h->selected_fields);
	return PRM_STATUS_OK;
}

/* The transport domain a TIR belongs to, referenced (nic->lock inside). */
static bool td_take(struct swnic *nic, uint32_t id, int delta)
{
	struct swnic_td *td;

	pthread_rwlock_wrlock(&nic->lock);
	td = swnic_table_lookup(&nic->tds, id);
	if (td != NULL) {
		if (delta > 0)
			atomic_fetch_add(&td->refs, 1);
		else
			atomic_fetch_sub(&td->refs, 1);
	}
	pthread_rwlock_unlock(&nic->lock);
	return td != NULL;
}

uint8_t swnic_cmd_create_tir(struct swnic_cmd *c)
{
	struct swnic *nic = c->nic;
	struct swnic_steer *s = nic->steer;
	struct prm_create_tir_params p;
	struct swnic_tir *tir;
	uint32_t tirn = 0;
	doca_error_t err;
	uint8_t st;

	if (prm_create_tir_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = check_tirc(c, &p.tirc);
	if (st != PRM_STATUS_OK)
		return st;
	tir = calloc(1, sizeof(*tir));
	if (tir == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate a TIR");
	if (!td_take(nic, p.tirc.transport_domain, +1)) {
		free(tir);
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TD, "no transport domain 0x%x",
				      p.tirc.transport_domain);
	}
	tir->disp = p.tirc.disp_type;
	tir->toeplitz = p.tirc.rx_hash_fn == PRM_RX_HASH_FN_TOEPLITZ;
	tir->symmetric = p.tirc.rx_hash_symmetric != 0;
	memcpy(tir->key, p.tirc.rx_hash_toeplitz_key, SWNIC_RSS_KEY_BYTES);
	tir->l3_type = p.tirc.rx_hash_field_selector_outer.l3_prot_type;
	tir->l4_type = p.tirc.rx_hash_field_selector_outer.l4_prot_type;
	tir->fields = p.tirc.rx_hash_field_selector_outer.selected_fields;
	tir->td = p.tirc.transport_domain;
	pthread_rwlock_wrlock(&s->lock);
	if (tir->disp == PRM_TIR_DISP_DIRECT) {
		tir->rq = swnic_table_lookup(&s->rqs, p.tirc.inline_rqn);
		if (tir->rq == NULL)
			st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQN, "inline_rqn 0x%x names no RQ",
					    p.tirc.inline_rqn);
	} else {
		tir->rqt = swnic_table_lookup(&s->rqts, p.tirc.indirect_table);
		if (tir->rqt == NULL)
			st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RQTN,
					    "indirect_table 0x%x names no RQT", p.tirc.indirect_table);
	}
	if (st == PRM_STATUS_OK) {
		err = swnic_table_insert(&s->tirs, tir, &tirn);
		if (err != DOCA_SUCCESS)
			st = swnic_cmd_table_fail(c, err, "TIR");
	}
	if (st == PRM_STATUS_OK) {
		tir->tirn = tirn;
		if (tir->rq != NULL)
			atomic_fetch_add(&tir->rq->refs, 1);
		if (tir->rqt != NULL)
			atomic_fetch_add(&tir->rqt->refs, 1);
	}
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK) {
		(void)td_take(nic, tir->td, -1);
		free(tir);
		return st;
	}
	if (prm_create_tir_out_build(tirn, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_destroy_tir(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct swnic_tir *tir;
	uint32_t tirn = 0;
	uint16_t uid;
	uint8_t st = PRM_STATUS_OK;

	if (prm_destroy_tir_in_parse(c->in, c->inlen, &uid, &tirn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&s->lock);
	tir = swnic_table_lookup(&s->tirs, tirn);
	if (tir == NULL) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_TIRN, "no TIR 0x%x", tirn);
	} else if (atomic_load(&tir->refs) != 0) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_TIR_IN_USE,
				    "TIR 0x%x: %u flow table entries forward to it", tirn, atomic_load(&tir->refs));
	} else {
		(void)swnic_table_remove(&s->tirs, tirn);
		if (tir->rq != NULL)
			atomic_fetch_sub(&tir->rq->refs, 1);
		if (tir->rqt != NULL)
			atomic_fetch_sub(&tir->rqt->refs, 1);
	}
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK)
		return st;
	(void)td_take(c->nic, tir->td, -1);
	free(tir);
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}
