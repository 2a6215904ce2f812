/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NIC receive flow tables in the command executor: CREATE_FLOW_TABLE / DESTROY_FLOW_TABLE,
 * SET_FLOW_TABLE_ROOT, CREATE_FLOW_GROUP / DESTROY_FLOW_GROUP, SET_FLOW_TABLE_ENTRY /
 * DELETE_FLOW_TABLE_ENTRY, ALLOC / DEALLOC / QUERY_FLOW_COUNTER. Only NIC_RX tables and criteria
 * on the outer L2-L4 headers are modelled (anything else is refused with BAD_PARAM, never
 * ignored). As on a ConnectX, a table forwards only to tables of a higher level, a group's range
 * lies inside its table and does not overlap another's, and an entry lies inside its group.
 * Matching itself is swnic_steer.c's.
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_flow.h"
#include "swnic/swnic_steer.h"

#include <stdlib.h>
#include <string.h>

static struct swnic_ft *ft_get(struct swnic_steer *s, uint8_t type, uint32_t id)
{
	return type == PRM_FLOW_TABLE_NIC_RX ? swnic_table_lookup(&s->fts, id) : NULL;
}

uint8_t swnic_cmd_create_flow_table(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_create_flow_table_params p;
	struct swnic_ft *ft, *miss = NULL;
	uint32_t id = 0;
	doca_error_t err;
	uint8_t st = PRM_STATUS_OK;

	if (prm_create_flow_table_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	if (p.table_type != PRM_FLOW_TABLE_NIC_RX)
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FT, "table_type (NIC_RX is modelled)", p.table_type);
	if (p.ctx.log_size > SWNIC_FT_MAX_LOG_SIZE)
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FT, "log_size above 16:", p.ctx.log_size);
	if (p.ctx.table_miss_action != PRM_FLOW_TABLE_MISS_DEFAULT && p.ctx.table_miss_action != PRM_FLOW_TABLE_MISS_GOTO_TBL)
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FT, "table_miss_action", p.ctx.table_miss_action);
	ft = calloc(1, sizeof(*ft));
	if (ft != NULL)
		ft->fte = calloc((size_t)1 << p.ctx.log_size, sizeof(*ft->fte));
	if (ft == NULL || ft->fte == NULL) {
		free(ft);
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate a flow table");
	}
	pthread_rwlock_wrlock(&s->lock);
	if (p.ctx.table_miss_action == PRM_FLOW_TABLE_MISS_GOTO_TBL) {
		miss = ft_get(s, p.table_type, p.ctx.table_miss_id);
		if (miss == NULL || miss->level <= p.ctx.level)
			st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_FT,
					    "table_miss_id 0x%x: no table of a level above %u", p.ctx.table_miss_id,
					    p.ctx.level);
	}
	if (st == PRM_STATUS_OK) {
		err = swnic_table_insert(&s->fts, ft, &id);
		if (err != DOCA_SUCCESS)
			st = swnic_cmd_table_fail(c, err, "flow table");
	}
	if (st == PRM_STATUS_OK) {
		ft->id = id;
		ft->level = p.ctx.level;
		ft->log_size = p.ctx.log_size;
		ft->miss_action = p.ctx.table_miss_action;
		ft->miss = miss;
		if (miss != NULL)
			atomic_fetch_add(&miss->refs, 1);
	}
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK) {
		free(ft->fte);
		free(ft);
		return st;
	}
	if (prm_create_flow_table_out_build(id, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_destroy_flow_table(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_flow_table_ref p;
	struct swnic_ft *ft;
	uint8_t st = PRM_STATUS_OK;

	if (prm_destroy_flow_table_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&s->lock);
	ft = ft_get(s, p.table_type, p.table_id);
	if (ft == NULL) {
		st = swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FT, "no flow table", p.table_id);
	} else if (atomic_load(&ft->refs) != 0) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_FT_IN_USE,
				    "flow table 0x%x: %u groups, entries or tables name it, or it is the root", p.table_id,
				    atomic_load(&ft->refs));
	} else {
		(void)swnic_table_remove(&s->fts, p.table_id);
		if (ft->miss != NULL)
			atomic_fetch_sub(&ft->miss->refs, 1);
	}
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK)
		return st;
	free(ft->fte);
	free(ft);
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_set_flow_table_root(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_set_flow_table_root_params p;
	struct swnic_ft *ft = NULL;
	uint8_t st = PRM_STATUS_OK;

	if (prm_set_flow_table_root_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&s->lock);
	if (p.op_mod == 0) { /* op_mod 1: disconnect the root */
		ft = ft_get(s, p.table_type, p.table_id);
		if (ft == NULL)
			st = swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FT, "no NIC RX flow table", p.table_id);
	}
	if (st == PRM_STATUS_OK) {
		if (s->root != NULL)
			atomic_fetch_sub(&s->root->refs, 1);
		s->root = ft;
		if (ft != NULL)
			atomic_fetch_add(&ft->refs, 1);
	}
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

/* Whether [start, end] overlaps a group of ft (under the steer lock). */
static bool fg_overlaps(struct swnic_steer *s, const struct swnic_ft *ft, uint32_t start, uint32_t end)
{
	uint32_t i;

	for (i = 0; i < s->fgs.cap; i++) {
		const struct swnic_fg *g = s->fgs.slots[i];

		if (g != NULL && g->ft == ft && start <= g->end && g->start <= end)
			return true;
	}
	return false;
}

uint8_t swnic_cmd_create_flow_group(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_create_flow_group_params p;
	struct swnic_ft *ft;
	struct swnic_fg *fg;
	uint32_t id = 0;
	doca_error_t err;
	uint8_t st = PRM_STATUS_OK;

	if (prm_create_flow_group_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	if ((p.match_criteria_enable & ~(uint32_t)PRM_MATCH_CRITERIA_OUTER) != 0 ||
	    !prm_match_param_outer_only((const uint8_t *)c->in + PRM_FLOW_GROUP_CRITERIA_OFFSET,
					c->inlen - PRM_FLOW_GROUP_CRITERIA_OFFSET))
		return swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FG, "criteria beyond the outer headers are not modelled: enable",
			   p.match_criteria_enable);
	fg = calloc(1, sizeof(*fg));
	if (fg == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate a flow group");
	if ((p.match_criteria_enable & PRM_MATCH_CRITERIA_OUTER) &&
	    prm_match_lyr_2_4_build(&p.match_criteria, fg->mask, SWNIC_MATCH_BYTES) != DOCA_SUCCESS) {
		free(fg);
		return swnic_cmd_malformed(c);
	}
	pthread_rwlock_wrlock(&s->lock);
	ft = ft_get(s, p.table_type, p.table_id);
	if (ft == NULL)
		st = swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FT, "no flow table", p.table_id);
	else if (p.start_flow_index > p.end_flow_index || p.end_flow_index >= (1u << ft->log_size) ||
		 fg_overlaps(s, ft, p.start_flow_index, p.end_flow_index))
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_FG,
				    "flow indices %u..%u: outside table 0x%x's %u entries or overlapping a group",
				    p.start_flow_index, p.end_flow_index, p.table_id, 1u << ft->log_size);
	if (st == PRM_STATUS_OK) {
		err = swnic_table_insert(&s->fgs, fg, &id);
		if (err != DOCA_SUCCESS)
			st = swnic_cmd_table_fail(c, err, "flow group");
	}
	if (st == PRM_STATUS_OK) {
		fg->id = id;
		fg->ft = ft;
		fg->start = p.start_flow_index;
		fg->end = p.end_flow_index;
		atomic_fetch_add(&ft->refs, 1);
	}
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK) {
		free(fg);
		return st;
	}
	if (prm_create_flow_group_out_build(id, c->out, c->outlen) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_destroy_flow_group(struct swnic_cmd *c)
{
	struct swnic_steer *s = c->nic->steer;
	struct prm_destroy_flow_group_params p;
	struct swnic_fg *fg;
	uint8_t st = PRM_STATUS_OK;

	if (prm_destroy_flow_group_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	pthread_rwlock_wrlock(&s->lock);
	fg = swnic_table_lookup(&s->fgs, p.group_id);
	if (fg == NULL || fg->ft != ft_get(s, p.table_type, p.table_id)) {
		st = swnic_cmd_bad_param(c, SWNIC_SYND_BAD_FG, "no such group in the table: group", p.group_id);
	} else if (fg->ftes != 0) {
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_RES_STATE, SWNIC_SYND_FG_IN_USE, "flow group 0x%x holds %u entries",
				    p.group_id, fg->ftes);
	} else {
		(void)swnic_table_remove(&s->fgs, p.group_id);
		atomic_fetch_sub(&fg->ft->refs, 1);
	}
	pthread_rwlock_unlock(&s->lock);
	if (st != PRM_STATUS_OK)
		return st;
	free(fg);
	return prm_cmd_empty_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}
