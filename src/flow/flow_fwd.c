/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA forward -> struct flow_dest: RSS (a shared TIR, flow_rss.c), another pipe of the port
 * (its flow table), drop, the kernel (not delivered to a queue), or CHANGEABLE (a pipe's forward
 * its entries give). A destination holds references: the TIR's, and the target pipe's, so that
 * neither goes while something forwards to it.
 */
#include "flow/flow_priv.h"

#include "core/log.h"

#include <string.h>

const char *flow_dest_name(enum flow_dest_kind kind)
{
	switch (kind) {
	case FLOW_DEST_NONE:
		return "none";
	case FLOW_DEST_RSS:
		return "RSS";
	case FLOW_DEST_PIPE:
		return "pipe";
	case FLOW_DEST_DROP:
		return "drop";
	case FLOW_DEST_KERNEL:
		return "kernel";
	case FLOW_DEST_CHANGEABLE:
		return "changeable";
	}
	return "?";
}

static const char *use_name(enum flow_fwd_use use)
{
	return use == FLOW_FWD_PIPE ? "fwd" : use == FLOW_FWD_MISS ? "fwd_miss" : "the entry's fwd";
}

/*
 * The port's kernel table: empty, deepest level, default miss. An entry that forwards to the
 * kernel forwards to it and misses there, as a frame no rule takes (made on first use, kept
 * until the port stops).
 */
static doca_error_t kernel_table(struct doca_flow_port *port)
{
	if (port->kernel_table != NULL)
		return DOCA_SUCCESS;
	return flow_hw_table_create(port, FLOW_LEVEL_KERNEL, 0, NULL, &port->kernel_table, &port->kernel_table_id);
}

static doca_error_t get_rss(struct doca_flow_port *port, const struct doca_flow_fwd *fwd, struct flow_dest *dest,
			    const char *who)
{
	struct flow_rss_key key;
	doca_error_t err;

	if (fwd->rss_type == DOCA_FLOW_RESOURCE_TYPE_SHARED) {
		OGDA_LOG_ERR("%s: shared RSS (rss_type SHARED, shared_rss_id %u) is not supported: use NON_SHARED", who,
			     fwd->shared_rss_id);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (fwd->rss_type != DOCA_FLOW_RESOURCE_TYPE_NONE && fwd->rss_type != DOCA_FLOW_RESOURCE_TYPE_NON_SHARED) {
		OGDA_LOG_ERR("%s: rss_type %d is not a resource type", who, (int)fwd->rss_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = flow_rss_key_from_cfg(&fwd->rss, &key, who);
	if (err == DOCA_SUCCESS)
		err = flow_rss_get(port, &key, &dest->rss, who);
	if (err == DOCA_SUCCESS)
		dest->kind = FLOW_DEST_RSS;
	return err;
}

doca_error_t flow_dest_get(struct doca_flow_port *port, const struct doca_flow_fwd *fwd, enum flow_fwd_use use,
			   struct flow_dest *dest, const char *who)
{
	memset(dest, 0, sizeof(*dest));
	if (fwd == NULL)
		return DOCA_SUCCESS;
	switch (fwd->type) {
	case DOCA_FLOW_FWD_NONE:
		return DOCA_SUCCESS;
	case DOCA_FLOW_FWD_RSS:
		return get_rss(port, fwd, dest, who);
	case DOCA_FLOW_FWD_PIPE:
		if (fwd->next_pipe == NULL || !flow_pipe_is_live(fwd->next_pipe)) {
			OGDA_LOG_ERR("%s: %s: next_pipe %s", who, use_name(use),
				     fwd->next_pipe == NULL ? "is NULL" : "is not a pipe (destroyed?)");
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (fwd->next_pipe->port != port) {
			OGDA_LOG_ERR("%s: %s: next_pipe \"%s\" belongs to another port", who, use_name(use),
				     fwd->next_pipe->name);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (fwd->next_pipe->is_root) {
			OGDA_LOG_ERR("%s: %s: next_pipe \"%s\" is the root pipe (frames start there)", who, use_name(use),
				     fwd->next_pipe->name);
			return DOCA_ERROR_INVALID_VALUE;
		}
		dest->kind = FLOW_DEST_PIPE;
		dest->pipe = fwd->next_pipe;
		dest->pipe->refs++;
		return DOCA_SUCCESS;
	case DOCA_FLOW_FWD_DROP:
		dest->kind = FLOW_DEST_DROP;
		return DOCA_SUCCESS;
	case DOCA_FLOW_FWD_TARGET:
		if (fwd->target != &flow_kernel_target) {
			OGDA_LOG_ERR("%s: %s: target is not one doca_flow_get_target() gave", who, use_name(use));
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (use != FLOW_FWD_MISS) {
			/* A miss to the kernel is the table's default; an entry forwards to the kernel table. */
			doca_error_t err = kernel_table(port);

			if (err != DOCA_SUCCESS)
				return err;
			dest->kernel_table_id = port->kernel_table_id;
		}
		dest->kind = FLOW_DEST_KERNEL;
		return DOCA_SUCCESS;
	case DOCA_FLOW_FWD_CHANGEABLE:
		if (use != FLOW_FWD_PIPE) {
			OGDA_LOG_ERR("%s: %s: CHANGEABLE is only a pipe's forward", who, use_name(use));
			return DOCA_ERROR_INVALID_VALUE;
		}
		dest->kind = FLOW_DEST_CHANGEABLE;
		return DOCA_SUCCESS;
	case DOCA_FLOW_FWD_PORT:
	case DOCA_FLOW_FWD_ORDERED_LIST_PIPE:
	case DOCA_FLOW_FWD_HASH_PIPE:
		OGDA_LOG_ERR("%s: %s: forward type %s is not supported (RSS, PIPE, DROP, TARGET kernel)", who,
			     use_name(use),
			     fwd->type == DOCA_FLOW_FWD_PORT ? "PORT"
			     : fwd->type == DOCA_FLOW_FWD_ORDERED_LIST_PIPE ? "ORDERED_LIST_PIPE" : "HASH_PIPE");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	OGDA_LOG_ERR("%s: %s: %d is not a forward type", who, use_name(use), (int)fwd->type);
	return DOCA_ERROR_INVALID_VALUE;
}

void flow_dest_put(struct doca_flow_port *port, struct flow_dest *dest)
{
	if (dest->kind == FLOW_DEST_RSS)
		flow_rss_put(port, dest->rss);
	else if (dest->kind == FLOW_DEST_PIPE && dest->pipe != NULL)
		dest->pipe->refs--;
	memset(dest, 0, sizeof(*dest));
}

void flow_dest_action(const struct flow_dest *d, struct flow_hw_action *act)
{
	memset(act, 0, sizeof(*act));
	act->kind = d->kind;
	if (d->kind == FLOW_DEST_RSS)
		act->dest_id = d->rss->tirn;
	else if (d->kind == FLOW_DEST_PIPE)
		act->dest_id = d->pipe->table_id;
	else if (d->kind == FLOW_DEST_KERNEL)
		act->dest_id = d->kernel_table_id;
}
