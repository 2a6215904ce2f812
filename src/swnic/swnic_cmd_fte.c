/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flow table entries and flow counters in the command executor: SET_FLOW_TABLE_ENTRY,
 * DELETE_FLOW_TABLE_ENTRY, ALLOC_FLOW_COUNTER, DEALLOC_FLOW_COUNTER, QUERY_FLOW_COUNTER.
 * An entry holds references on what it names (its group's count, TIRs, tables, its counter) so
 * none of them goes while the entry exists. Actions: DROP, or FWD_DEST to 1..8 TIRs and at most
 * one deeper table; COUNT with one counter; ALLOW alone forwards nowhere.
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_flow.h"
#include "swnic/swnic_steer.h"

#include <stdlib.h>
#include <string.h>

/* Drops the references an entry holds and frees its slot. */
static void fte_clear(struct swnic_fte *e)
{
	uint32_t i;

	if (!e->used)
		return;
	for (i = 0; i < e->ndest; i++) {
		if (e->dest[i].tir != NULL)
			atomic_fetch_sub(&e->dest[i].tir->refs, 1);
		if (e->dest[i].ft != NULL)
			atomic_fetch_sub(&e->dest[i].ft->refs, 1);
	}
	if (e->counter != NULL)
		atomic_fetch_sub(&e->counter->refs, 1);
	e->fg->ftes--;
	memset(e, 0, sizeof(*e));
}

/* Builds entry e of table ft from the command's context (under the steer lock); takes its references. */
static uint8_t fte_fill(struct swnic_cmd *c, struct swnic_steer *s, const struct swnic_ft *ft, uint32_t index,
			const struct prm_flow_context_params *x, struct swnic_fte *e)
{
	uint32_t i;

	memset(e, 0, sizeof(*e));
	e->fg = swnic_table_lookup(&s->fgs, x->group_id);
	if (e->fg == NULL || e->fg->ft != ft || index < e->fg->start || index > e->fg->end)
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FTE, "flow index outside group / no group: index", index);
	if ((x->action & (PRM_FLOW_ACTION_DROP | PRM_FLOW_ACTION_FWD_DEST)) ==
	    (PRM_FLOW_ACTION_DROP | PRM_FLOW_ACTION_FWD_DEST) ||
	    (x->action & ~(uint32_t)(PRM_FLOW_ACTION_ALLOW | PRM_FLOW_ACTION_DROP | PRM_FLOW_ACTION_FWD_DEST |
				      PRM_FLOW_ACTION_COUNT)) != 0)
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FTE, "action (DROP or FWD_DEST, with COUNT, is modelled)", x->action);
	if ((x->action & PRM_FLOW_ACTION_FWD_DEST) &&
	    (x->destination_list_size == 0 || x->destination_list_size > SWNIC_FTE_MAX_DEST))
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FTE, "destination_list_size", x->destination_list_size);
	if ((x->action & PRM_FLOW_ACTION_COUNT) && x->flow_counter_list_size != 1)
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FTE, "flow_counter_list_size (one counter is modelled)",
			   x->flow_counter_list_size);
	if (prm_match_lyr_2_4_build(&x->match_value, e->value, SWNIC_MATCH_BYTES) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	for (i = 0; (x->action & PRM_FLOW_ACTION_FWD_DEST) && i < x->destination_list_size; i++) {
		struct swnic_fte_dest *d = &e->dest[i];

		if (x->dest[i].type == PRM_FLOW_DEST_TIR) {
			d->kind = PRM_FLOW_DEST_TIR;
			d->tir = swnic_table_lookup(&s->tirs, x->dest[i].id);
			if (d->tir == NULL)
				return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_TIRN, "destination: no TIR", x->dest[i].id);
		} else if (x->dest[i].type == PRM_FLOW_DEST_FLOW_TABLE) {
			d->kind = PRM_FLOW_DEST_FLOW_TABLE;
			d->ft = swnic_table_lookup(&s->fts, x->dest[i].id);
			if (d->ft == NULL || d->ft->level <= ft->level)
				return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FT, "destination: no table of a deeper level", x->dest[i].id);
		} else {
			return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FTE, "destination type (TIR and flow table are modelled)",
				   x->dest[i].type);
		}
	}
	if (x->action & PRM_FLOW_ACTION_COUNT) {
		e->counter = swnic_table_lookup(&s->counters, x->counter_id[0]);
		if (e->counter == NULL)
			return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_COUNTER, "no flow counter", x->counter_id[0]);
	}
	e->used = true;
	e->action = x->action;
	e->flow_tag = x->flow_tag & 0xffffffu;
	e->ndest = (x->action & PRM_FLOW_ACTION_FWD_DEST) ? x->destination_list_size : 0;
	for (i = 0; i < e->ndest; i++) {
		if (e->dest[i].tir != NULL)
			atomic_fetch_add(&e->dest[i].tir->refs, 1);
		if (e->dest[i].ft != NULL)
			atomic_fetch_add(&e->dest[i].ft->refs, 1);
	}
	if (e->counter != NULL)
		atomic_fetch_add(&e->counter->refs, 1);
	e->fg->ftes++;
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_set_fte(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_set_fte_params *p;
	struct swnic_fte e;
	struct swnic_ft *ft;
	uint8_t st;

	p = malloc(sizeof(*p));
	if (p == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "no memory");
	if (prm_set_fte_in_parse(c->in, c->inlen, p) != DOCA_SUCCESS) {
		free(p);
		return swnic_cmd_malformed(c);
	}
	if (!prm_match_param_outer_only((const uint8_t *)c->in + PRM_FLOW_CONTEXT_OFFSET + PRM_FLOW_CONTEXT_MATCH_OFFSET,
					PRM_MATCH_PARAM_SIZE)) {
		free(p);
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FTE, "match values beyond the outer headers are not modelled: index", 0);
	}
	pthread_rwlock_wrlock(&s->lock);
	ft = p->table_type == PRM_FLOW_TABLE_NIC_RX ? swnic_table_lookup(&s->fts, p->table_id) : NULL;
	if (ft == NULL) {
		st = swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FT, "no NIC RX flow table", p->table_id);
	} else if (p->flow_index >= (1u << ft->log_size)) {
		st = swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FTE, "flow index outside the table:", p->flow_index);
	} else if (p->op_mod == PRM_SET_FTE_OP_MOD_NEW && ft->fte[p->flow_index].used) {
		st = swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FTE, "a new entry at a used flow index:", p->flow_index);
	} else {
		st = fte_fill(c, s, ft, p->flow_index, &p->ctx, &e);
		if (st == PRM_STATUS_OK) {
			fte_clear(&ft->fte[p->flow_index]); /* a modify replaces what was there */
			ft->fte[p->flow_index] = e;
		}
	}
	pthread_rwlock_unlock(&s->lock);
	free(p);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_delete_fte(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_fte_ref p;
	struct swnic_ft *ft;
	uint8_t st = PRM_STATUS_OK;

	if (prm_delete_fte_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&s->lock);
	ft = p.table_type == PRM_FLOW_TABLE_NIC_RX ? swnic_table_lookup(&s->fts, p.table_id) : NULL;
	if (ft == NULL || p.flow_index >= (1u << ft->log_size) || !ft->fte[p.flow_index].used)
		st = swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FTE, "no entry at flow index", p.flow_index);
	else
		fte_clear(&ft->fte[p.flow_index]);
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_alloc_flow_counter(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct swnic_flow_counter *fc;
	uint32_t id = 0;
	uint16_t uid;
	uint8_t bulk;
	doca_error_t err;

	if (prm_alloc_flow_counter_in_parse(c->in, c->inlen, &uid, &bulk) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	if (bulk != 0)
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_COUNTER, "flow_counter_bulk (single counters are modelled)", bulk);
	fc = calloc(1, sizeof(*fc));
	if (fc == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate a flow counter");
	pthread_rwlock_wrlock(&s->lock);
	err = swnic_table_insert(&s->counters, fc, &id);
	if (err == DOCA_SUCCESS)
		fc->id = id;
	pthread_rwlock_unlock(&s->lock);
	if (err != DOCA_SUCCESS) {
		free(fc);
		return swnic_cmd_table_fail(c, err, "flow counter");
	}
	if (prm_alloc_flow_counter_out_build(id, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_dealloc_flow_counter(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct swnic_flow_counter *fc;
	uint32_t id = 0;
	uint16_t uid;
	uint8_t st = PRM_STATUS_OK;

	if (prm_dealloc_flow_counter_in_parse(c->in, c->inlen, &uid, &id) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&s->lock);
	fc = swnic_table_lookup(&s->counters, id);
	if (fc == NULL)
		st = swnic_cmd_bad_param(c, SWNIC_SYND_BAD_COUNTER, "no flow counter", id);
	else if (atomic_load(&fc->refs) != 0)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_COUNTER_IN_USE,
				    "flow counter 0x%x: %u entries count into it", id, atomic_load(&fc->refs));
	else
		(void)swnic_table_remove(&s->counters, id);
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK)
		return st;
	free(fc);
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_query_flow_counter(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_query_flow_counter_params p;
	struct prm_traffic_counter tc = {0, 0};
	struct swnic_flow_counter *fc;

	if (prm_query_flow_counter_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	if (p.num_of_counters > 1)
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_COUNTER, "num_of_counters (one per query is modelled)", p.num_of_counters);
	pthread_rwlock_rdlock(&s->lock);
	fc = swnic_table_lookup(&s->counters, p.flow_counter_id);
	if (fc != NULL) {
		tc.packets = p.clear ? atomic_exchange(&fc->packets, 0) : atomic_load(&fc->packets);
		tc.octets = p.clear ? atomic_exchange(&fc->bytes, 0) : atomic_load(&fc->bytes);
	}
	pthread_rwlock_unlock(&s->lock);
	if (fc == NULL)
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_COUNTER, "no flow counter", p.flow_counter_id);
	if (prm_query_flow_counter_out_build(&tc, 1, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}
