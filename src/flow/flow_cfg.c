/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Flow's global configuration (doca_flow_cfg_*), doca_flow_init / doca_flow_destroy, the
 * process-wide lock, and the kernel forward target.
 */
#include "flow/flow_priv.h"

#include "core/log.h"

#include <stdlib.h>
#include <string.h>

struct flow_global flow_g = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* 0x6d5a repeated: Toeplitz with this key gives a flow's two directions the same hash. */
const uint8_t flow_default_rss_key[FLOW_RSS_KEY_LEN] = {
	0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a,
	0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a,
	0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a,
};

/* The one kernel target doca_flow_get_target() hands out. */
struct doca_flow_target flow_kernel_target = {.type = DOCA_FLOW_TARGET_KERNEL};

doca_error_t flow_lock_inited(const char *func)
{
	pthread_mutex_lock(&flow_g.lock);
	if (!flow_g.inited) {
		pthread_mutex_unlock(&flow_g.lock);
		OGDA_LOG_ERR("%s: DOCA Flow is not initialised: call doca_flow_init() first", func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

void flow_unlock(void)
{
	pthread_mutex_unlock(&flow_g.lock);
}

doca_error_t doca_flow_cfg_create(struct doca_flow_cfg **cfg)
{
	struct doca_flow_cfg *c;

	if (cfg == NULL) {
		OGDA_LOG_ERR("doca_flow_cfg_create: cfg must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		OGDA_LOG_ERR("doca_flow_cfg_create: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	c->v.pipe_queues = 1;
	c->v.queue_depth = 128;
	c->v.isolated = true;
	memcpy(c->v.rss_key, flow_default_rss_key, FLOW_RSS_KEY_LEN);
	*cfg = c;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_cfg_destroy(struct doca_flow_cfg *cfg)
{
	if (cfg == NULL) {
		OGDA_LOG_ERR("doca_flow_cfg_destroy: cfg must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	free(cfg);
	return DOCA_SUCCESS;
}

#define CFG_CHECK(cfg, func)                                                                       \
	do {                                                                                       \
		if ((cfg) == NULL) {                                                               \
			OGDA_LOG_ERR("%s: cfg must not be NULL", func);                            \
			return DOCA_ERROR_INVALID_VALUE;                                           \
		}                                                                                  \
	} while (0)

doca_error_t doca_flow_cfg_set_pipe_queues(struct doca_flow_cfg *cfg, uint16_t pipe_queues)
{
	CFG_CHECK(cfg, __func__);
	if (pipe_queues == 0 || pipe_queues > FLOW_PIPE_QUEUES_MAX) {
		OGDA_LOG_ERR("%s: %u pipe queues: 1 .. %u", __func__, (unsigned)pipe_queues, FLOW_PIPE_QUEUES_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->v.pipe_queues = pipe_queues;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_cfg_set_nr_counters(struct doca_flow_cfg *cfg, uint32_t nr_counters)
{
	CFG_CHECK(cfg, __func__);
	cfg->v.nr_counters = nr_counters;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_cfg_set_nr_meters(struct doca_flow_cfg *cfg, uint32_t nr_meters)
{
	CFG_CHECK(cfg, __func__);
	if (nr_meters != 0) {
		OGDA_LOG_ERR("%s: meters are not supported (asked for %u)", __func__, nr_meters);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_cfg_set_queue_depth(struct doca_flow_cfg *cfg, uint32_t queue_depth)
{
	CFG_CHECK(cfg, __func__);
	if (queue_depth == 0 || queue_depth > FLOW_QUEUE_DEPTH_MAX) {
		OGDA_LOG_ERR("%s: queue depth %u: 1 .. %u", __func__, queue_depth, FLOW_QUEUE_DEPTH_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->v.queue_depth = queue_depth;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_cfg_set_cb_entry_process(struct doca_flow_cfg *cfg, doca_flow_entry_process_cb cb)
{
	CFG_CHECK(cfg, __func__);
	cfg->v.entry_cb = cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_cfg_set_cb_pipe_process(struct doca_flow_cfg *cfg, doca_flow_pipe_process_cb cb)
{
	CFG_CHECK(cfg, __func__);
	cfg->v.pipe_cb = cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_cfg_set_rss_key(struct doca_flow_cfg *cfg, const uint8_t *rss_key, uint32_t rss_key_len)
{
	CFG_CHECK(cfg, __func__);
	if (rss_key == NULL || rss_key_len != FLOW_RSS_KEY_LEN) {
		OGDA_LOG_ERR("%s: the key must be %u bytes (got %s, %u bytes)", __func__, FLOW_RSS_KEY_LEN,
			     rss_key == NULL ? "NULL" : "a key", rss_key_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(cfg->v.rss_key, rss_key, FLOW_RSS_KEY_LEN);
	return DOCA_SUCCESS;
}

/* One word of the mode string: notes "vnf" and "isolated"; refuses modes not offered and unknown words. */
static doca_error_t mode_word(const char *w, size_t len, bool *vnf, bool *isolated)
{
	static const char *const options[] = {"hws", "use_doca_eth", "expert"};
	static const char *const modes_not_offered[] = {"switch", "remote_vnf"};
	size_t i;

	if (len == 3 && strncmp(w, "vnf", 3) == 0) {
		if (*vnf) {
			OGDA_LOG_ERR("doca_flow_cfg_set_mode_args: \"vnf\" given twice");
			return DOCA_ERROR_INVALID_VALUE;
		}
		*vnf = true;
		return DOCA_SUCCESS;
	}
	if (len == 8 && strncmp(w, "isolated", 8) == 0) {
		*isolated = true;
		return DOCA_SUCCESS;
	}
	for (i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (strlen(options[i]) == len && strncmp(w, options[i], len) == 0)
			return DOCA_SUCCESS;
	for (i = 0; i < sizeof(modes_not_offered) / sizeof(modes_not_offered[0]); i++) {
		if (strlen(modes_not_offered[i]) == len && strncmp(w, modes_not_offered[i], len) == 0) {
			OGDA_LOG_ERR("doca_flow_cfg_set_mode_args: mode \"%s\" is not supported (only \"vnf\")",
				     modes_not_offered[i]);
			return DOCA_ERROR_NOT_SUPPORTED;
		}
	}
	OGDA_LOG_ERR("doca_flow_cfg_set_mode_args: unknown word \"%.*s\" (known: vnf, hws, isolated, use_doca_eth, "
		     "expert)", (int)len, w);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t doca_flow_cfg_set_mode_args(struct doca_flow_cfg *cfg, const char *mode_args)
{
	bool vnf = false, isolated = false;
	const char *p, *end;
	doca_error_t err;

	CFG_CHECK(cfg, __func__);
	if (mode_args == NULL) {
		OGDA_LOG_ERR("%s: mode_args must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (p = mode_args; *p != '\0'; p = *end == ',' ? end + 1 : end) {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		if (end == p) {
			OGDA_LOG_ERR("%s: empty word in \"%s\"", __func__, mode_args);
			return DOCA_ERROR_INVALID_VALUE;
		}
		err = mode_word(p, (size_t)(end - p), &vnf, &isolated);
		if (err != DOCA_SUCCESS)
			return err;
	}
	if (!vnf) {
		OGDA_LOG_ERR("%s: \"%s\" names no mode: it must hold \"vnf\"", __func__, mode_args);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->v.isolated = isolated;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_init(struct doca_flow_cfg *cfg)
{
	if (cfg == NULL) {
		OGDA_LOG_ERR("doca_flow_init: cfg must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&flow_g.lock);
	if (flow_g.inited) {
		pthread_mutex_unlock(&flow_g.lock);
		OGDA_LOG_ERR("doca_flow_init: DOCA Flow is initialised already (doca_flow_destroy() first)");
		return DOCA_ERROR_BAD_STATE;
	}
	flow_g.cfg = cfg->v;
	flow_g.counters_used = 0;
	flow_g.ports = NULL;
	flow_g.inited = true;
	pthread_mutex_unlock(&flow_g.lock);
	OGDA_LOG_DBG("doca_flow_init: %u pipe queue(s), counters %u (0: no limit)", (unsigned)cfg->v.pipe_queues,
		     cfg->v.nr_counters);
	return DOCA_SUCCESS;
}

void doca_flow_destroy(void)
{
	pthread_mutex_lock(&flow_g.lock);
	if (!flow_g.inited) {
		pthread_mutex_unlock(&flow_g.lock);
		OGDA_LOG_DBG("doca_flow_destroy: DOCA Flow is not initialised");
		return;
	}
	while (flow_g.ports != NULL) {
		OGDA_LOG_WARN("doca_flow_destroy: port %u is still started: stopping it",
			      (unsigned)flow_g.ports->port_id);
		flow_port_teardown(flow_g.ports);
	}
	flow_g.inited = false;
	pthread_mutex_unlock(&flow_g.lock);
}

doca_error_t doca_flow_get_target(enum doca_flow_target_type type, struct doca_flow_target **target)
{
	if (target == NULL) {
		OGDA_LOG_ERR("doca_flow_get_target: target must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (type != DOCA_FLOW_TARGET_KERNEL) {
		OGDA_LOG_ERR("doca_flow_get_target: target type %d is not supported (only DOCA_FLOW_TARGET_KERNEL)",
			     (int)type);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	*target = &flow_kernel_target;
	return DOCA_SUCCESS;
}
