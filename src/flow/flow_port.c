/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Flow ports: the port configuration, start (the device's interface, a transport domain for
 * the port's TIRs), stop and flush (every pipe, entry and RSS object, in the order the NIC
 * accepts: the root table is released first, entries before the tables they name, tables before
 * the deeper tables their misses name), and the completion queues of doca_flow_entries_process().
 */
#include "flow/flow_priv.h"

#include "core/log.h"
#include "devx/devx.h"
#include "doca_core/core_priv.h"

#include <stdlib.h>
#include <string.h>

doca_error_t doca_flow_port_cfg_create(struct doca_flow_port_cfg **cfg)
{
	if (cfg == NULL) {
		OGDA_LOG_ERR("doca_flow_port_cfg_create: cfg must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*cfg = calloc(1, sizeof(**cfg));
	if (*cfg == NULL) {
		OGDA_LOG_ERR("doca_flow_port_cfg_create: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_port_cfg_destroy(struct doca_flow_port_cfg *cfg)
{
	if (cfg == NULL) {
		OGDA_LOG_ERR("doca_flow_port_cfg_destroy: cfg must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	free(cfg);
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_port_cfg_set_port_id(struct doca_flow_port_cfg *cfg, uint16_t port_id)
{
	if (cfg == NULL) {
		OGDA_LOG_ERR("doca_flow_port_cfg_set_port_id: cfg must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->port_id = port_id;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_port_cfg_set_dev(struct doca_flow_port_cfg *cfg, struct doca_dev *dev)
{
	if (cfg == NULL || dev == NULL) {
		OGDA_LOG_ERR("doca_flow_port_cfg_set_dev: %s must not be NULL", cfg == NULL ? "cfg" : "dev");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->dev = dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_flow_port_cfg_set_devargs(struct doca_flow_port_cfg *cfg, const char *devargs)
{
	if (cfg == NULL || devargs == NULL) {
		OGDA_LOG_ERR("doca_flow_port_cfg_set_devargs: %s must not be NULL", cfg == NULL ? "cfg" : "devargs");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (devargs[0] != '\0') {
		OGDA_LOG_ERR("doca_flow_port_cfg_set_devargs: DPDK ports (\"%s\") are not supported: name the device "
			     "with doca_flow_port_cfg_set_dev()", devargs);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

bool flow_port_is_live(const struct doca_flow_port *port)
{
	const struct doca_flow_port *p;

	for (p = flow_g.ports; p != NULL; p = p->next)
		if (p == port)
			return true;
	return false;
}

doca_error_t doca_flow_port_start(const struct doca_flow_port_cfg *cfg, struct doca_flow_port **port)
{
	struct ogda_devx_pd *pd = NULL;
	struct doca_flow_port *p, *q;
	doca_error_t err;

	if (cfg == NULL || port == NULL) {
		OGDA_LOG_ERR("doca_flow_port_start: %s must not be NULL", cfg == NULL ? "cfg" : "port");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cfg->dev == NULL) {
		OGDA_LOG_ERR("doca_flow_port_start: the configuration names no device (doca_flow_port_cfg_set_dev())");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = flow_lock_inited(__func__);
	if (err != DOCA_SUCCESS)
		return err;
	for (q = flow_g.ports; q != NULL; q = q->next) {
		if (q->port_id == cfg->port_id || q->dev == cfg->dev) {
			flow_unlock();
			OGDA_LOG_ERR("doca_flow_port_start: a started port has %s already (port %u)",
				     q->port_id == cfg->port_id ? "this port id" : "this device", (unsigned)q->port_id);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	}
	p = calloc(1, sizeof(*p));
	if (p != NULL)
		p->cqs = calloc(flow_g.cfg.pipe_queues, sizeof(*p->cqs));
	if (p == NULL || p->cqs == NULL) {
		free(p);
		flow_unlock();
		OGDA_LOG_ERR("doca_flow_port_start: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	p->nr_cqs = flow_g.cfg.pipe_queues;
	p->port_id = cfg->port_id;
	p->dev = cfg->dev;
	err = core_dev_resolve(p->dev, &p->devx, &pd, NULL);
	if (err == DOCA_SUCCESS) {
		core_dev_use(p->dev);
		err = flow_hw_td_alloc(p);
		if (err != DOCA_SUCCESS)
			core_dev_unuse(p->dev);
	}
	if (err != DOCA_SUCCESS) {
		free(p->cqs);
		free(p);
		flow_unlock();
		OGDA_LOG_ERR("doca_flow_port_start: cannot start port %u on %s: %s", (unsigned)cfg->port_id,
			     core_dev_name(cfg->dev), doca_error_get_descr(err));
		return err;
	}
	p->next = flow_g.ports;
	flow_g.ports = p;
	*port = p;
	flow_unlock();
	OGDA_LOG_DBG("doca_flow_port_start: port %u on %s, transport domain 0x%x", (unsigned)p->port_id,
		     core_dev_name(p->dev), p->tdn);
	return DOCA_SUCCESS;
}

doca_error_t flow_port_post(struct doca_flow_port *port, uint16_t queue, struct doca_flow_pipe_entry *entry,
			    enum doca_flow_entry_op op, enum doca_flow_entry_status status)
{
	struct flow_cq *cq = &port->cqs[queue];

	if (cq->n == cq->cap) {
		size_t cap = cq->cap == 0 ? 64 : cq->cap * 2;
		struct flow_completion *c = realloc(cq->c, cap * sizeof(*c));

		if (c == NULL) {
			OGDA_LOG_ERR("port %u: out of memory for a completion", (unsigned)port->port_id);
			return DOCA_ERROR_NO_MEMORY;
		}
		cq->c = c;
		cq->cap = cap;
	}
	cq->c[cq->n++] = (struct flow_completion){.entry = entry, .op = op, .status = status};
	entry->pending++;
	return DOCA_SUCCESS;
}

void flow_port_forget_pipe(struct doca_flow_port *port, const struct doca_flow_pipe *pipe)
{
	uint16_t q;
	size_t i, k;

	for (q = 0; q < port->nr_cqs; q++) {
		struct flow_cq *cq = &port->cqs[q];

		for (i = 0, k = 0; i < cq->n; i++) {
			struct doca_flow_pipe_entry *e = cq->c[i].entry;

			if (e->pipe != pipe) {
				cq->c[k++] = cq->c[i];
				continue;
			}
			e->pending--;
			flow_entry_release(e);
		}
		cq->n = k;
	}
}

/* Every pipe's entries and miss out of the NIC, then the tables, shallowest first. */
static void flush_pipes(struct doca_flow_port *port)
{
	struct doca_flow_pipe *p, *best;
	uint32_t level;

	if (port->root != NULL)
		flow_hw_root_detach(port->root);
	for (p = port->pipes; p != NULL; p = p->next)
		flow_pipe_clear(p);
	while (port->pipes != NULL) {
		best = NULL;
		level = 0x100;
		for (p = port->pipes; p != NULL; p = p->next) {
			if (p->level < level) {
				level = p->level;
				best = p;
			}
		}
		flow_pipe_free(best);
	}
}

void flow_port_teardown(struct doca_flow_port *port)
{
	struct doca_flow_port **pp;
	uint16_t q;
	size_t i;

	flush_pipes(port);
	for (q = 0; q < port->nr_cqs; q++) {
		for (i = 0; i < port->cqs[q].n; i++) {
			struct doca_flow_pipe_entry *e = port->cqs[q].c[i].entry;

			e->pending--;
			flow_entry_release(e);
		}
		free(port->cqs[q].c);
	}
	free(port->cqs);
	while (port->rss != NULL) {
		OGDA_LOG_WARN("port %u: RSS object TIR 0x%x still held at stop", (unsigned)port->port_id,
			      port->rss->tirn);
		port->rss->refs = 1;
		flow_rss_put(port, port->rss);
	}
	flow_hw_destroy(port, &port->kernel_table, "flow table (kernel)");
	flow_hw_destroy(port, &port->td, "transport domain");
	core_dev_unuse(port->dev);
	for (pp = &flow_g.ports; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == port) {
			*pp = port->next;
			break;
		}
	}
	OGDA_LOG_DBG("port %u stopped", (unsigned)port->port_id);
	free(port);
}

doca_error_t doca_flow_port_stop(struct doca_flow_port *port)
{
	doca_error_t err;

	if (port == NULL) {
		OGDA_LOG_ERR("doca_flow_port_stop: port must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = flow_lock_inited(__func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (!flow_port_is_live(port)) {
		flow_unlock();
		OGDA_LOG_ERR("doca_flow_port_stop: not a started port");
		return DOCA_ERROR_INVALID_VALUE;
	}
	flow_port_teardown(port);
	flow_unlock();
	return DOCA_SUCCESS;
}

void doca_flow_port_pipes_flush(struct doca_flow_port *port)
{
	if (port == NULL) {
		OGDA_LOG_ERR("doca_flow_port_pipes_flush: port must not be NULL");
		return;
	}
	if (flow_lock_inited(__func__) != DOCA_SUCCESS)
		return;
	if (!flow_port_is_live(port))
		OGDA_LOG_ERR("doca_flow_port_pipes_flush: not a started port");
	else
		flush_pipes(port);
	flow_unlock();
}

doca_error_t doca_flow_entries_process(struct doca_flow_port *port, uint16_t pipe_queue, uint64_t timeout,
				       uint32_t max_processed_entries)
{
	doca_flow_entry_process_cb cb;
	struct flow_completion *take = NULL;
	struct flow_cq *cq;
	size_t n, i;
	doca_error_t err;

	(void)timeout; /* every operation is in the NIC already */
	if (port == NULL) {
		OGDA_LOG_ERR("doca_flow_entries_process: port must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = flow_lock_inited(__func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (!flow_port_is_live(port) || pipe_queue >= port->nr_cqs) {
		flow_unlock();
		OGDA_LOG_ERR("doca_flow_entries_process: %s", !flow_port_is_live(port) ? "not a started port"
										      : "pipe_queue out of range");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq = &port->cqs[pipe_queue];
	n = cq->n;
	if (max_processed_entries != 0 && n > max_processed_entries)
		n = max_processed_entries;
	if (n > 0) {
		take = malloc(n * sizeof(*take));
		if (take == NULL) {
			flow_unlock();
			OGDA_LOG_ERR("doca_flow_entries_process: out of memory");
			return DOCA_ERROR_NO_MEMORY;
		}
		memcpy(take, cq->c, n * sizeof(*take));
		memmove(cq->c, cq->c + n, (cq->n - n) * sizeof(*take));
		cq->n -= n;
	}
	cb = flow_g.cfg.entry_cb;
	flow_unlock();
	/* Callbacks run unlocked: they may add and remove entries. */
	for (i = 0; i < n && cb != NULL; i++)
		cb(take[i].entry, pipe_queue, take[i].status, take[i].op, take[i].entry->usr_ctx);
	pthread_mutex_lock(&flow_g.lock);
	for (i = 0; i < n; i++) {
		take[i].entry->pending--;
		flow_entry_release(take[i].entry);
	}
	pthread_mutex_unlock(&flow_g.lock);
	free(take);
	return DOCA_SUCCESS;
}
