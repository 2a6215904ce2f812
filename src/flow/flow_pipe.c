/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipes: one NIC RX flow table each.
 *
 *   table   level by position (flow_priv.h FLOW_LEVEL_*), 2^log_size flow indices: the entries'
 *           indices [0, slots) and, for a DROP or RSS miss, a catch-all at index slots; a PIPE
 *           miss is the table's miss action (go to that table), a kernel miss its default.
 *   groups  BASIC: one group over [0, slots) whose criteria are the template's mask (fixed and
 *           per-entry fields); CONTROL: one group per entry (flow_entry.c), so that every entry
 *           keeps its own mask and the flow index order is the priority order; the catch-all's
 *           group has no criteria.
 *   root    the root pipe's table is made the NIC's root (SET_FLOW_TABLE_ROOT) and released
 *           before anything else goes.
 */
#include "flow/flow_priv.h"

#include "core/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool flow_pipe_is_live(const struct doca_flow_pipe *pipe)
{
	const struct doca_flow_port *port;
	const struct doca_flow_pipe *p;

	for (port = flow_g.ports; port != NULL; port = port->next)
		for (p = port->pipes; p != NULL; p = p->next)
			if (p == pipe)
				return true;
	return false;
}

bool flow_pipe_can_forward(const struct doca_flow_pipe *from, const struct doca_flow_pipe *to, const char *who)
{
	if (to->level > from->level)
		return true;
	OGDA_LOG_ERR("%s: pipe \"%s\" (table level %u) cannot forward to pipe \"%s\" (level %u): a table forwards only "
		     "to deeper tables; create the pipes that are forwarded to before the pipes that forward to them",
		     who, from->name, (unsigned)from->level, to->name, (unsigned)to->level);
	return false;
}

static bool is_terminal(enum flow_dest_kind k)
{
	return k == FLOW_DEST_RSS || k == FLOW_DEST_DROP || k == FLOW_DEST_KERNEL;
}

/* The table level of a new pipe (see FLOW_LEVEL_* in flow_priv.h). */
static doca_error_t pick_level(struct doca_flow_pipe *p, const char *who)
{
	const struct doca_flow_pipe *q;
	unsigned level = 0x100;

	if (p->is_root) {
		p->level = FLOW_LEVEL_ROOT;
		return DOCA_SUCCESS;
	}
	if (p->fwd.kind == FLOW_DEST_PIPE)
		level = p->fwd.pipe->level;
	if (p->miss.kind == FLOW_DEST_PIPE && p->miss.pipe->level < level)
		level = p->miss.pipe->level;
	if (level == 0x100 && p->type == DOCA_FLOW_PIPE_BASIC && is_terminal(p->fwd.kind)) {
		p->level = FLOW_LEVEL_LEAF;
		return DOCA_SUCCESS;
	}
	if (level == 0x100) {
		/* Entries choose: sit above every pipe that exists, so that they can reach it. */
		level = FLOW_LEVEL_MID + 1;
		for (q = p->port->pipes; q != NULL; q = q->next)
			if (!q->is_root && q->level < level)
				level = q->level;
	}
	if (level <= FLOW_LEVEL_ROOT + 1u) {
		OGDA_LOG_ERR("%s: no table level is left above the pipes it forwards to (chains are at most %u deep)",
			     who, FLOW_LEVEL_LEAF - FLOW_LEVEL_ROOT - 1u);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	p->level = (uint8_t)(level - 1);
	return DOCA_SUCCESS;
}

static uint8_t log2_ceil(uint32_t n)
{
	uint8_t l = 0;

	while ((1u << l) < n)
		l++;
	return l;
}

/* The catch-all of a DROP or RSS miss, at flow index slots. */
static doca_error_t make_miss_entry(struct doca_flow_pipe *p)
{
	struct flow_fields none = {0};
	struct flow_spec any = {0};
	struct flow_hw_action act;
	doca_error_t err;

	err = flow_hw_group_create(p->port, p->table_id, p->slots, p->slots, &none, &p->miss_group, &p->miss_group_id);
	if (err != DOCA_SUCCESS)
		return err;
	flow_dest_action(&p->miss, &act);
	return flow_hw_fte_set(p->port, p->table_id, p->miss_group_id, p->slots, &any, &act, &p->miss_fte);
}

static doca_error_t make_table(struct doca_flow_pipe *p)
{
	bool catch_all = p->miss.kind == FLOW_DEST_DROP || p->miss.kind == FLOW_DEST_RSS;
	struct flow_fields criteria;
	doca_error_t err;

	p->log_size = log2_ceil(p->nr_entries + (catch_all ? 1u : 0u));
	p->slots = (1u << p->log_size) - (catch_all ? 1u : 0u);
	p->slot = calloc(p->slots, sizeof(*p->slot));
	if (p->type == DOCA_FLOW_PIPE_CONTROL)
		p->order = calloc(p->nr_entries, sizeof(*p->order));
	if (p->slot == NULL || (p->type == DOCA_FLOW_PIPE_CONTROL && p->order == NULL)) {
		OGDA_LOG_ERR("pipe \"%s\": out of memory", p->name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = flow_hw_table_create(p->port, p->level, p->log_size, p->miss.kind == FLOW_DEST_PIPE ? p->miss.pipe : NULL,
				   &p->table, &p->table_id);
	if (err == DOCA_SUCCESS && p->type == DOCA_FLOW_PIPE_BASIC) {
		criteria = p->tmpl.fixed.m;
		flow_fields_or(&criteria, &p->tmpl.chg);
		err = flow_hw_group_create(p->port, p->table_id, 0, p->slots - 1, &criteria, &p->group, &p->group_id);
	}
	if (err == DOCA_SUCCESS && catch_all)
		err = make_miss_entry(p);
	if (err == DOCA_SUCCESS && p->is_root)
		err = flow_hw_root_attach(p);
	return err;
}

void flow_pipe_clear(struct doca_flow_pipe *p)
{
	uint32_t i;

	flow_port_forget_pipe(p->port, p);
	for (i = 0; p->slot != NULL && i < p->slots; i++) {
		struct doca_flow_pipe_entry *e = p->slot[i];

		if (e == NULL)
			continue;
		p->slot[i] = NULL;
		flow_entry_unplug(e);
		e->dead = true;
		flow_entry_release(e);
	}
	p->nr_live = 0;
	flow_hw_destroy(p->port, &p->miss_fte, "flow table entry (miss)");
	flow_dest_put(p->port, &p->fwd);
	flow_dest_put(p->port, &p->miss);
}

void flow_pipe_free(struct doca_flow_pipe *p)
{
	struct doca_flow_pipe **pp;

	flow_hw_root_detach(p);
	flow_hw_destroy(p->port, &p->miss_group, "flow group (miss)");
	flow_hw_destroy(p->port, &p->group, "flow group");
	flow_hw_destroy(p->port, &p->table, "flow table");
	for (pp = &p->port->pipes; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	if (p->port->root == p)
		p->port->root = NULL;
	free(p->slot);
	free(p->order);
	free(p);
}

/* Checks what the configuration and forwards ask for, and fills the pipe's description. */
static doca_error_t describe(struct doca_flow_pipe *p, const struct doca_flow_pipe_cfg *cfg,
			     const struct doca_flow_fwd *fwd, const struct doca_flow_fwd *fwd_miss, const char *who)
{
	doca_error_t err;

	if (cfg->is_root && p->port->root != NULL) {
		OGDA_LOG_ERR("%s: the port has a root pipe already (\"%s\")", who, p->port->root->name);
		return DOCA_ERROR_ALREADY_EXIST;
	}
	if (cfg->type == DOCA_FLOW_PIPE_CONTROL) {
		if (fwd != NULL && fwd->type != DOCA_FLOW_FWD_NONE) {
			OGDA_LOG_ERR("%s: a CONTROL pipe takes no fwd (each entry gives its own): pass NULL", who);
			return DOCA_ERROR_INVALID_VALUE;
		}
	} else {
		err = flow_match_template(cfg->has_match ? &cfg->match : NULL, cfg->has_mask ? &cfg->mask : NULL,
					  &p->tmpl, who);
		if (err != DOCA_SUCCESS)
			return err;
	}
	err = flow_dest_get(p->port, fwd, FLOW_FWD_PIPE, &p->fwd, who);
	if (err == DOCA_SUCCESS)
		err = flow_dest_get(p->port, fwd_miss, FLOW_FWD_MISS, &p->miss, who);
	if (err == DOCA_SUCCESS)
		err = pick_level(p, who);
	return err;
}

doca_error_t doca_flow_pipe_create(const struct doca_flow_pipe_cfg *cfg, const struct doca_flow_fwd *fwd,
				   const struct doca_flow_fwd *fwd_miss, struct doca_flow_pipe **pipe)
{
	char who[FLOW_NAME_MAX + 48];
	struct doca_flow_pipe *p;
	doca_error_t err;

	if (cfg == NULL || pipe == NULL) {
		OGDA_LOG_ERR("doca_flow_pipe_create: %s must not be NULL", cfg == NULL ? "cfg" : "pipe");
		return DOCA_ERROR_INVALID_VALUE;
	}
	snprintf(who, sizeof(who), "doca_flow_pipe_create: pipe \"%s\"", cfg->name);
	err = flow_lock_inited(__func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (!flow_port_is_live(cfg->port)) {
		flow_unlock();
		OGDA_LOG_ERR("%s: the configuration's port is not started", who);
		return DOCA_ERROR_INVALID_VALUE;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		flow_unlock();
		OGDA_LOG_ERR("%s: out of memory", who);
		return DOCA_ERROR_NO_MEMORY;
	}
	p->port = cfg->port;
	memcpy(p->name, cfg->name, sizeof(p->name));
	p->type = cfg->type;
	p->is_root = cfg->is_root;
	p->counter = cfg->counter;
	p->user_ctx = cfg->user_ctx;
	p->nr_entries = cfg->nr_entries;
	err = describe(p, cfg, fwd, fwd_miss, who);
	if (err == DOCA_SUCCESS) {
		/* Linked first: the teardown of a half-made pipe is the ordinary one. */
		p->next = p->port->pipes;
		p->port->pipes = p;
		if (p->is_root)
			p->port->root = p;
		err = make_table(p);
		if (err != DOCA_SUCCESS) {
			flow_pipe_clear(p);
			flow_pipe_free(p);
		}
	} else {
		flow_dest_put(p->port, &p->fwd);
		flow_dest_put(p->port, &p->miss);
		free(p);
	}
	if (err != DOCA_SUCCESS) {
		flow_unlock();
		OGDA_LOG_DBG("%s: not created: %s", who, doca_error_get_descr(err)); /* the cause is logged */
		return err;
	}
	*pipe = p;
	flow_unlock();
	OGDA_LOG_DBG("%s: %s, level %u, 2^%u indices, table 0x%x%s", who, p->type == DOCA_FLOW_PIPE_BASIC ? "BASIC" : "CONTROL",
		     (unsigned)p->level, (unsigned)p->log_size, p->table_id, p->is_root ? ", root" : "");
	return DOCA_SUCCESS;
}

void doca_flow_pipe_destroy(struct doca_flow_pipe *pipe)
{
	if (pipe == NULL) {
		OGDA_LOG_ERR("doca_flow_pipe_destroy: pipe must not be NULL");
		return;
	}
	if (flow_lock_inited(__func__) != DOCA_SUCCESS)
		return;
	if (!flow_pipe_is_live(pipe)) {
		OGDA_LOG_ERR("doca_flow_pipe_destroy: not a pipe (destroyed already?)");
	} else if (pipe->refs > 0) {
		OGDA_LOG_ERR("doca_flow_pipe_destroy: pipe \"%s\" is not destroyed: %u forward(s) of other pipes and "
			     "entries still name it (remove those first)", pipe->name, pipe->refs);
	} else {
		flow_hw_root_detach(pipe);
		flow_pipe_clear(pipe);
		flow_pipe_free(pipe);
	}
	flow_unlock();
}
