/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Entries: one flow table entry each (and, in a CONTROL pipe, a group of its own with the
 * entry's mask). Adding builds the match (flow_match.c), the forward (the pipe's, or the
 * entry's own), an optional flow counter, picks a flow index (BASIC: any free one; CONTROL:
 * its place in priority order, flow_order.c) and writes SET_FLOW_TABLE_ENTRY; the entry is in
 * the NIC when the call returns, and its completion waits for doca_flow_entries_process().
 * Removing deletes them; the handle lives until its DEL completion has been delivered.
 */
#include "flow/flow_priv.h"

#include "core/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The destination an entry's FTE goes to: its own, or its pipe's. */
static const struct flow_dest *dest_of(const struct doca_flow_pipe_entry *e)
{
	return e->dest.kind != FLOW_DEST_NONE ? &e->dest : &e->pipe->fwd;
}

static doca_error_t write_at(struct doca_flow_pipe_entry *e, uint32_t index, struct ogda_devx_obj **fte,
			     struct ogda_devx_obj **group, uint32_t *group_id)
{
	struct doca_flow_pipe *p = e->pipe;
	struct flow_hw_action act;
	uint32_t gid = p->group_id;
	doca_error_t err;

	*group = NULL;
	if (p->type == DOCA_FLOW_PIPE_CONTROL) {
		err = flow_hw_group_create(p->port, p->table_id, index, index, &e->spec.m, group, &gid);
		if (err != DOCA_SUCCESS)
			return err;
	}
	flow_dest_action(dest_of(e), &act);
	act.count = e->counter != NULL;
	act.counter_id = e->counter_id;
	err = flow_hw_fte_set(p->port, p->table_id, gid, index, &e->spec, &act, fte);
	if (err != DOCA_SUCCESS) {
		flow_hw_destroy(p->port, group, "flow group");
		return err;
	}
	*group_id = gid;
	return DOCA_SUCCESS;
}

doca_error_t flow_entry_plug(struct doca_flow_pipe_entry *e, uint32_t index)
{
	struct ogda_devx_obj *fte, *group;
	uint32_t gid;
	doca_error_t err = write_at(e, index, &fte, &group, &gid);

	if (err != DOCA_SUCCESS)
		return err;
	e->fte = fte;
	e->group = group;
	e->group_id = gid;
	e->index = index;
	e->pipe->slot[index] = e;
	return DOCA_SUCCESS;
}

doca_error_t flow_entry_move(struct doca_flow_pipe_entry *e, uint32_t index)
{
	struct ogda_devx_obj *old_fte = e->fte, *old_group = e->group;
	struct doca_flow_pipe *p = e->pipe;
	uint32_t old = e->index;
	doca_error_t err;

	/* The new copy first: the entry matches without a gap, then the old one goes. */
	err = flow_entry_plug(e, index);
	if (err != DOCA_SUCCESS)
		return err;
	flow_hw_destroy(p->port, &old_fte, "flow table entry");
	flow_hw_destroy(p->port, &old_group, "flow group");
	p->slot[old] = NULL;
	return DOCA_SUCCESS;
}

void flow_entry_unplug(struct doca_flow_pipe_entry *e)
{
	struct doca_flow_port *port = e->pipe->port;

	flow_hw_destroy(port, &e->fte, "flow table entry");
	flow_hw_destroy(port, &e->group, "flow group");
	if (e->counter != NULL) {
		flow_hw_destroy(port, &e->counter, "flow counter");
		flow_g.counters_used--;
	}
	flow_dest_put(port, &e->dest);
}

void flow_entry_release(struct doca_flow_pipe_entry *e)
{
	if (e->pending == 0 && (e->removed || e->dead))
		free(e);
}

/* Checks shared by both add functions; on success *e is a new entry of @p pipe (not in the NIC). */
static doca_error_t begin(uint16_t queue, struct doca_flow_pipe *pipe, enum doca_flow_pipe_type type, void *usr_ctx,
			  struct doca_flow_pipe_entry **e, const char *who)
{
	if (!flow_pipe_is_live(pipe)) {
		OGDA_LOG_ERR("%s: not a pipe (destroyed already?)", who);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (pipe->type != type) {
		OGDA_LOG_ERR("%s: pipe \"%s\" is a %s pipe", who, pipe->name,
			     pipe->type == DOCA_FLOW_PIPE_BASIC ? "BASIC" : "CONTROL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (queue >= pipe->port->nr_cqs) {
		OGDA_LOG_ERR("%s: pipe_queue %u: the configuration has %u pipe queue(s)", who, (unsigned)queue,
			     (unsigned)pipe->port->nr_cqs);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (pipe->nr_live >= pipe->nr_entries) {
		OGDA_LOG_ERR("%s: pipe \"%s\" holds its %u entries (doca_flow_pipe_cfg_set_nr_entries())", who,
			     pipe->name, pipe->nr_entries);
		return DOCA_ERROR_FULL;
	}
	*e = calloc(1, sizeof(**e));
	if (*e == NULL) {
		OGDA_LOG_ERR("%s: out of memory", who);
		return DOCA_ERROR_NO_MEMORY;
	}
	(*e)->pipe = pipe;
	(*e)->queue = queue;
	(*e)->usr_ctx = usr_ctx;
	(*e)->status = DOCA_FLOW_ENTRY_STATUS_IN_PROCESS;
	return DOCA_SUCCESS;
}

/* The entry's forward and counter (resources it holds itself). */
static doca_error_t resources(struct doca_flow_pipe_entry *e, const struct doca_flow_fwd *fwd, bool counter,
			      const char *who)
{
	struct doca_flow_pipe *p = e->pipe;
	bool own = p->type == DOCA_FLOW_PIPE_CONTROL || p->fwd.kind == FLOW_DEST_NONE ||
		   p->fwd.kind == FLOW_DEST_CHANGEABLE;
	doca_error_t err;

	if (!own && fwd != NULL && fwd->type != DOCA_FLOW_FWD_NONE) {
		OGDA_LOG_ERR("%s: pipe \"%s\" forwards every entry (%s): the entry's fwd must be NULL (make the pipe's "
			     "fwd CHANGEABLE to choose per entry)", who, p->name, flow_dest_name(p->fwd.kind));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (own) {
		if (fwd == NULL || fwd->type == DOCA_FLOW_FWD_NONE) {
			OGDA_LOG_ERR("%s: pipe \"%s\": the entry needs a fwd (%s)", who, p->name,
				     p->type == DOCA_FLOW_PIPE_CONTROL ? "CONTROL entries forward themselves"
								       : "the pipe's fwd is CHANGEABLE / none");
			return DOCA_ERROR_INVALID_VALUE;
		}
		err = flow_dest_get(p->port, fwd, FLOW_FWD_ENTRY, &e->dest, who);
		if (err != DOCA_SUCCESS)
			return err;
		if (e->dest.kind == FLOW_DEST_PIPE && !flow_pipe_can_forward(p, e->dest.pipe, who))
			return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (counter) {
		if (flow_g.cfg.nr_counters != 0 && flow_g.counters_used >= flow_g.cfg.nr_counters) {
			OGDA_LOG_ERR("%s: all %u counters are in use (doca_flow_cfg_set_nr_counters())", who,
				     flow_g.cfg.nr_counters);
			return DOCA_ERROR_FULL;
		}
		err = flow_hw_counter_alloc(p->port, &e->counter, &e->counter_id);
		if (err != DOCA_SUCCESS)
			return err;
		flow_g.counters_used++;
	}
	return DOCA_SUCCESS;
}

/* Places the entry, reports it, hands it out; undoes everything on failure. */
static doca_error_t finish(struct doca_flow_pipe_entry *e, doca_error_t err, struct doca_flow_pipe_entry **out,
			   const char *who)
{
	struct doca_flow_pipe *p = e->pipe;
	uint32_t i;

	if (err == DOCA_SUCCESS && p->type == DOCA_FLOW_PIPE_BASIC) {
		for (i = 0; i < p->slots; i++) {
			if (p->slot[i] != NULL && memcmp(&p->slot[i]->spec, &e->spec, sizeof(e->spec)) == 0) {
				OGDA_LOG_ERR("%s: pipe \"%s\" has an entry with the same match (flow index %u)", who,
					     p->name, i);
				err = DOCA_ERROR_ALREADY_EXIST;
				break;
			}
		}
		for (i = 0; err == DOCA_SUCCESS && i < p->slots && p->slot[i] != NULL; i++)
			;
		if (err == DOCA_SUCCESS)
			err = flow_entry_plug(e, i);
	} else if (err == DOCA_SUCCESS) {
		err = flow_order_insert(p, e);
	}
	if (err == DOCA_SUCCESS) {
		p->nr_live++;
		e->status = DOCA_FLOW_ENTRY_STATUS_SUCCESS;
		err = flow_port_post(p->port, e->queue, e, DOCA_FLOW_ENTRY_OP_ADD, e->status);
		if (err != DOCA_SUCCESS) {
			if (p->type == DOCA_FLOW_PIPE_CONTROL)
				flow_order_remove(p, e);
			p->slot[e->index] = NULL;
			p->nr_live--;
		}
	}
	if (err != DOCA_SUCCESS) {
		flow_entry_unplug(e);
		free(e);
		return err;
	}
	*out = e;
	OGDA_LOG_DBG("%s: pipe \"%s\": entry at flow index %u (%s%s)", who, p->name, e->index,
		     flow_dest_name(dest_of(e)->kind), e->counter != NULL ? ", counted" : "");
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_basic_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
					    const struct doca_flow_match *match, uint8_t action_idx,
					    const struct doca_flow_actions *actions, const struct doca_flow_monitor *monitor,
					    const struct doca_flow_fwd *fwd, uint32_t flags, void *usr_ctx,
					    struct doca_flow_pipe_entry **entry)
{
	const char *who = "doca_flow_pipe_basic_add_entry";
	struct doca_flow_pipe_entry *e = NULL;
	bool counter = false;
	doca_error_t err;

	(void)flags; /* NO_WAIT or WAIT_FOR_BATCH: the entry reaches the NIC now either way */
	if (pipe == NULL || entry == NULL) {
		OGDA_LOG_ERR("%s: %s must not be NULL", who, pipe == NULL ? "pipe" : "entry");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (action_idx != 0) {
		OGDA_LOG_ERR("%s: action_idx %u: pipes have no actions here (only 0)", who, (unsigned)action_idx);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = flow_actions_none(actions, NULL, NULL, who);
	if (err == DOCA_SUCCESS)
		err = flow_monitor_counter(monitor, &counter, who);
	if (err != DOCA_SUCCESS)
		return err;
	err = flow_lock_inited(who);
	if (err != DOCA_SUCCESS)
		return err;
	err = begin(pipe_queue, pipe, DOCA_FLOW_PIPE_BASIC, usr_ctx, &e, who);
	if (err == DOCA_SUCCESS) {
		err = flow_match_basic_entry(&pipe->tmpl, match, &e->spec, who);
		if (err == DOCA_SUCCESS)
			err = resources(e, fwd, counter || pipe->counter, who);
		err = finish(e, err, entry, who);
	}
	flow_unlock();
	return err;
}

doca_error_t doca_flow_pipe_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
				      const struct doca_flow_match *match, const struct doca_flow_actions *actions,
				      const struct doca_flow_monitor *monitor, const struct doca_flow_fwd *fwd,
				      uint32_t flags, void *usr_ctx, struct doca_flow_pipe_entry **entry)
{
	return doca_flow_pipe_basic_add_entry(pipe_queue, pipe, match, 0, actions, monitor, fwd, flags, usr_ctx, entry);
}

doca_error_t doca_flow_pipe_control_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
					      const struct doca_flow_match *match,
					      const struct doca_flow_match *match_mask,
					      const struct doca_flow_match_condition *condition,
					      const struct doca_flow_actions *actions,
					      const struct doca_flow_actions *actions_mask,
					      const struct doca_flow_action_descs *action_descs,
					      const struct doca_flow_monitor *monitor, uint32_t priority,
					      const struct doca_flow_fwd *fwd, void *usr_ctx,
					      struct doca_flow_pipe_entry **entry)
{
	const char *who = "doca_flow_pipe_control_add_entry";
	struct doca_flow_pipe_entry *e = NULL;
	bool counter = false;
	doca_error_t err;

	if (pipe == NULL || entry == NULL) {
		OGDA_LOG_ERR("%s: %s must not be NULL", who, pipe == NULL ? "pipe" : "entry");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (condition != NULL) {
		OGDA_LOG_ERR("%s: match conditions are not supported (condition must be NULL)", who);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = flow_actions_none(actions, actions_mask, action_descs, who);
	if (err == DOCA_SUCCESS)
		err = flow_monitor_counter(monitor, &counter, who);
	if (err != DOCA_SUCCESS)
		return err;
	err = flow_lock_inited(who);
	if (err != DOCA_SUCCESS)
		return err;
	err = begin(pipe_queue, pipe, DOCA_FLOW_PIPE_CONTROL, usr_ctx, &e, who);
	if (err == DOCA_SUCCESS) {
		e->priority = priority;
		e->seq = pipe->seq++;
		err = flow_match_control_entry(match, match_mask, &e->spec, who);
		if (err == DOCA_SUCCESS)
			err = resources(e, fwd, counter || pipe->counter, who);
		err = finish(e, err, entry, who);
	}
	flow_unlock();
	return err;
}

/* Whether @p e is an entry in the NIC (its pipe lives and holds it at its index). */
static bool entry_is_live(const struct doca_flow_pipe_entry *e)
{
	return !e->removed && !e->dead && flow_pipe_is_live(e->pipe) && e->index < e->pipe->slots &&
	       e->pipe->slot[e->index] == e;
}

doca_error_t doca_flow_pipe_remove_entry(uint16_t pipe_queue, uint32_t flags, struct doca_flow_pipe_entry *entry)
{
	struct doca_flow_pipe *p;
	doca_error_t err;

	(void)flags;
	if (entry == NULL) {
		OGDA_LOG_ERR("doca_flow_pipe_remove_entry: entry must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = flow_lock_inited(__func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (!entry_is_live(entry)) {
		flow_unlock();
		OGDA_LOG_ERR("doca_flow_pipe_remove_entry: the entry is not in a pipe (removed already?)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	p = entry->pipe;
	if (pipe_queue >= p->port->nr_cqs) {
		flow_unlock();
		OGDA_LOG_ERR("doca_flow_pipe_remove_entry: pipe_queue %u: the configuration has %u pipe queue(s)",
			     (unsigned)pipe_queue, (unsigned)p->port->nr_cqs);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (p->type == DOCA_FLOW_PIPE_CONTROL)
		flow_order_remove(p, entry);
	p->slot[entry->index] = NULL;
	p->nr_live--;
	flow_entry_unplug(entry);
	entry->removed = true;
	err = flow_port_post(p->port, pipe_queue, entry, DOCA_FLOW_ENTRY_OP_DEL, DOCA_FLOW_ENTRY_STATUS_SUCCESS);
	if (err != DOCA_SUCCESS)
		flow_entry_release(entry); /* no completion: the handle goes now */
	flow_unlock();
	return DOCA_SUCCESS;
}

enum doca_flow_entry_status doca_flow_pipe_entry_get_status(struct doca_flow_pipe_entry *entry)
{
	enum doca_flow_entry_status s;

	if (entry == NULL) {
		OGDA_LOG_ERR("doca_flow_pipe_entry_get_status: entry must not be NULL");
		return DOCA_FLOW_ENTRY_STATUS_ERROR;
	}
	pthread_mutex_lock(&flow_g.lock);
	s = entry->status;
	pthread_mutex_unlock(&flow_g.lock);
	return s;
}

doca_error_t doca_flow_resource_query_entry(struct doca_flow_pipe_entry *entry, struct doca_flow_resource_query *data)
{
	uint64_t packets = 0, bytes = 0;
	doca_error_t err;

	if (entry == NULL || data == NULL) {
		OGDA_LOG_ERR("doca_flow_resource_query_entry: %s must not be NULL", entry == NULL ? "entry" : "data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = flow_lock_inited(__func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (!entry_is_live(entry) || entry->counter == NULL) {
		flow_unlock();
		OGDA_LOG_ERR("doca_flow_resource_query_entry: %s", !entry_is_live(entry)
			     ? "the entry is not in a pipe (removed already?)"
			     : "the entry has no counter (monitor counter_type NON_SHARED on the pipe or entry)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = flow_hw_counter_query(entry->pipe->port, entry->counter, entry->counter_id, &packets, &bytes);
	flow_unlock();
	if (err != DOCA_SUCCESS)
		return err;
	memset(data, 0, sizeof(*data));
	data->counter.total_pkts = packets;
	data->counter.total_bytes = bytes;
	return DOCA_SUCCESS;
}
