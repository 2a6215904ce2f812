/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipe configuration (doca_flow_pipe_cfg_*): what a pipe will be, checked as it is set, so that
 * a field or feature not offered fails at the call that names it. Also the checks of monitors
 * and actions shared with the entry functions.
 */
#include "flow/flow_priv.h"

#include "core/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

doca_error_t flow_monitor_counter(const struct doca_flow_monitor *mon, bool *counter, const char *who)
{
	*counter = false;
	if (mon == NULL)
		return DOCA_SUCCESS;
	if (mon->meter_type != DOCA_FLOW_RESOURCE_TYPE_NONE) {
		OGDA_LOG_ERR("%s: meters (monitor.meter_type %d) are not supported", who, (int)mon->meter_type);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (mon->aging_sec != 0) {
		OGDA_LOG_ERR("%s: aging (monitor.aging_sec %u) is not supported", who, mon->aging_sec);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	switch (mon->counter_type) {
	case DOCA_FLOW_RESOURCE_TYPE_NONE:
		return DOCA_SUCCESS;
	case DOCA_FLOW_RESOURCE_TYPE_NON_SHARED:
		*counter = true;
		return DOCA_SUCCESS;
	case DOCA_FLOW_RESOURCE_TYPE_SHARED:
		OGDA_LOG_ERR("%s: shared counters (shared_counter_id %u) are not supported: use NON_SHARED", who,
			     mon->shared_counter.shared_counter_id);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	OGDA_LOG_ERR("%s: monitor.counter_type %d is not a resource type", who, (int)mon->counter_type);
	return DOCA_ERROR_INVALID_VALUE;
}

static bool all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return false;
	return true;
}

doca_error_t flow_actions_none(const struct doca_flow_actions *actions, const struct doca_flow_actions *mask,
			       const struct doca_flow_action_descs *descs, const char *who)
{
	if ((actions != NULL && !all_zero(actions, sizeof(*actions))) ||
	    (mask != NULL && !all_zero(mask, sizeof(*mask)))) {
		OGDA_LOG_ERR("%s: packet actions (header changes, encap / decap, meta data) are not supported", who);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (descs != NULL && descs->nb_action_desc != 0) {
		OGDA_LOG_ERR("%s: action descriptors are not supported", who);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_cfg_create(struct doca_flow_pipe_cfg **cfg, struct doca_flow_port *port)
{
	struct doca_flow_pipe_cfg *c;
	doca_error_t err;

	if (cfg == NULL || port == NULL) {
		OGDA_LOG_ERR("doca_flow_pipe_cfg_create: %s must not be NULL", cfg == NULL ? "cfg" : "port");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = flow_lock_inited(__func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (!flow_port_is_live(port)) {
		flow_unlock();
		OGDA_LOG_ERR("doca_flow_pipe_cfg_create: not a started port");
		return DOCA_ERROR_INVALID_VALUE;
	}
	flow_unlock();
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		OGDA_LOG_ERR("doca_flow_pipe_cfg_create: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	c->port = port;
	c->type = DOCA_FLOW_PIPE_BASIC;
	c->nr_entries = FLOW_DEFAULT_NR_ENTRIES;
	snprintf(c->name, sizeof(c->name), "pipe");
	*cfg = c;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_cfg_destroy(struct doca_flow_pipe_cfg *cfg)
{
	if (cfg == NULL) {
		OGDA_LOG_ERR("doca_flow_pipe_cfg_destroy: cfg must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	free(cfg);
	return DOCA_SUCCESS;
}

#define PCFG_CHECK(cfg, func)                                                                      \
	do {                                                                                       \
		if ((cfg) == NULL) {                                                               \
			OGDA_LOG_ERR("%s: cfg must not be NULL", func);                            \
			return DOCA_ERROR_INVALID_VALUE;                                           \
		}                                                                                  \
	} while (0)

doca_error_t doca_flow_pipe_cfg_set_name(struct doca_flow_pipe_cfg *cfg, const char *name)
{
	PCFG_CHECK(cfg, __func__);
	if (name == NULL) {
		OGDA_LOG_ERR("%s: name must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	snprintf(cfg->name, sizeof(cfg->name), "%s", name);
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_cfg_set_type(struct doca_flow_pipe_cfg *cfg, enum doca_flow_pipe_type type)
{
	static const char *const names[] = {"BASIC", "CONTROL", "LPM", "CT", "ACL", "ORDERED_LIST", "HASH"};

	PCFG_CHECK(cfg, __func__);
	if (type == DOCA_FLOW_PIPE_BASIC || type == DOCA_FLOW_PIPE_CONTROL) {
		cfg->type = type;
		return DOCA_SUCCESS;
	}
	if ((unsigned)type < sizeof(names) / sizeof(names[0])) {
		OGDA_LOG_ERR("%s: pipe \"%s\": type %s is not supported (BASIC, CONTROL)", __func__, cfg->name,
			     names[type]);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	OGDA_LOG_ERR("%s: %d is not a pipe type", __func__, (int)type);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t doca_flow_pipe_cfg_set_domain(struct doca_flow_pipe_cfg *cfg, enum doca_flow_pipe_domain domain)
{
	PCFG_CHECK(cfg, __func__);
	if (domain == DOCA_FLOW_PIPE_DOMAIN_DEFAULT)
		return DOCA_SUCCESS;
	if ((unsigned)domain <= DOCA_FLOW_PIPE_DOMAIN_SECURE_EGRESS) {
		OGDA_LOG_ERR("%s: pipe \"%s\": only the DEFAULT domain (received traffic) is supported (got %d)",
			     __func__, cfg->name, (int)domain);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	OGDA_LOG_ERR("%s: %d is not a pipe domain", __func__, (int)domain);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t doca_flow_pipe_cfg_set_is_root(struct doca_flow_pipe_cfg *cfg, bool is_root)
{
	PCFG_CHECK(cfg, __func__);
	cfg->is_root = is_root;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_cfg_set_match(struct doca_flow_pipe_cfg *cfg, const struct doca_flow_match *match,
					  const struct doca_flow_match *match_mask)
{
	char who[FLOW_NAME_MAX + 48];
	doca_error_t err;

	PCFG_CHECK(cfg, __func__);
	snprintf(who, sizeof(who), "%s: pipe \"%s\"", __func__, cfg->name);
	err = flow_match_check(match, match_mask, who);
	if (err != DOCA_SUCCESS)
		return err;
	cfg->has_match = match != NULL;
	cfg->has_mask = match_mask != NULL;
	memset(&cfg->match, 0, sizeof(cfg->match));
	memset(&cfg->mask, 0, sizeof(cfg->mask));
	if (match != NULL)
		cfg->match = *match;
	if (match_mask != NULL)
		cfg->mask = *match_mask;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_cfg_set_actions(struct doca_flow_pipe_cfg *cfg, struct doca_flow_actions *const *actions,
					    struct doca_flow_actions *const *actions_masks,
					    struct doca_flow_action_descs *const *action_descs, size_t nr_actions)
{
	char who[FLOW_NAME_MAX + 48];
	size_t i;
	doca_error_t err;

	PCFG_CHECK(cfg, __func__);
	snprintf(who, sizeof(who), "%s: pipe \"%s\"", __func__, cfg->name);
	if (nr_actions != 0 && actions == NULL) {
		OGDA_LOG_ERR("%s: %zu actions but actions is NULL", who, nr_actions);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < nr_actions; i++) {
		err = flow_actions_none(actions[i], actions_masks != NULL ? actions_masks[i] : NULL,
					action_descs != NULL ? action_descs[i] : NULL, who);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_cfg_set_monitor(struct doca_flow_pipe_cfg *cfg, const struct doca_flow_monitor *monitor)
{
	char who[FLOW_NAME_MAX + 48];
	bool counter;
	doca_error_t err;

	PCFG_CHECK(cfg, __func__);
	if (monitor == NULL) {
		OGDA_LOG_ERR("%s: monitor must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	snprintf(who, sizeof(who), "%s: pipe \"%s\"", __func__, cfg->name);
	err = flow_monitor_counter(monitor, &counter, who);
	if (err == DOCA_SUCCESS)
		cfg->counter = counter;
	return err;
}

doca_error_t doca_flow_pipe_cfg_set_nr_entries(struct doca_flow_pipe_cfg *cfg, uint32_t nr_entries)
{
	PCFG_CHECK(cfg, __func__);
	if (nr_entries == 0 || nr_entries > FLOW_NR_ENTRIES_MAX) {
		OGDA_LOG_ERR("%s: pipe \"%s\": %u entries: 1 .. %u", __func__, cfg->name, nr_entries,
			     FLOW_NR_ENTRIES_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->nr_entries = nr_entries;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_cfg_set_is_resizable(struct doca_flow_pipe_cfg *cfg, bool is_resizable)
{
	PCFG_CHECK(cfg, __func__);
	if (is_resizable) {
		OGDA_LOG_ERR("%s: pipe \"%s\": resizable pipes are not supported", __func__, cfg->name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_cfg_set_miss_counter(struct doca_flow_pipe_cfg *cfg, bool miss_counter)
{
	PCFG_CHECK(cfg, __func__);
	if (miss_counter) {
		OGDA_LOG_ERR("%s: pipe \"%s\": miss counters are not supported", __func__, cfg->name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_pipe_cfg_set_user_ctx(struct doca_flow_pipe_cfg *cfg, void *user_ctx)
{
	PCFG_CHECK(cfg, __func__);
	cfg->user_ctx = user_ctx;
	return DOCA_SUCCESS;
}
