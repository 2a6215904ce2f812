/* SPDX-License-Identifier: BSD-3-Clause */
/* The fake's steering rules: flow matchers and flows of the kernel-owned tables (fake_rdma_core.h). */
#include "fake_rdma_core_priv.h"

#include "prm/prm_cmd.h"
#include "prm/prm_flow.h"
#include "prm/prm_flow_match.h"
#include "swnic/swnic_ctl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* rdma-core leaves these opaque: each provider (here, the fake) defines them. */
struct mlx5dv_flow_matcher {
	struct fake_ctx *ctx;
	int ft_type;
	int rules;
};

struct fake_flow {
	struct ibv_flow pub;
	struct mlx5dv_flow_matcher *matcher;
	uint32_t table_id;
	bool rooted; /* the software NIC's root points at table_id */
};

static bool all_zero(const struct mlx5dv_flow_match_parameters *m)
{
	const uint8_t *b = (const uint8_t *)m->match_buf;

	for (size_t i = 0; i < m->match_sz; i++)
		if (b[i] != 0)
			return false;
	return true;
}

/* What the kernel's root forwarding to the table amounts to on the NIC behind the fake. */
static int set_nic_root(struct fake_ctx *c, uint32_t table_id, bool on)
{
	struct prm_set_flow_table_root_params p;
	uint8_t in[PRM_FLOW_CMD_SIZE] = {0}, out[PRM_FLOW_SMALL_CMD_SIZE] = {0};

	memset(&p, 0, sizeof(p));
	p.table_type = PRM_FLOW_TABLE_NIC_RX;
	p.op_mod = on ? 0 : 1;
	p.table_id = on ? table_id : 0;
	if (prm_set_flow_table_root_in_build(&p, in, sizeof(in)) != DOCA_SUCCESS ||
	    swnic_cmd_exec(c->nic, in, sizeof(in), out, sizeof(out)) != DOCA_SUCCESS)
		return EINVAL;
	return 0;
}

static struct mlx5dv_flow_matcher *fake_create_flow_matcher(struct ibv_context *context,
							   struct mlx5dv_flow_matcher_attr *attr)
{
	struct mlx5dv_flow_matcher *m;
	int err;

	pthread_mutex_lock(&fake.lock);
	fake.last.matcher_type = (int)attr->type;
	fake.last.matcher_flags = attr->flags;
	fake.last.matcher_priority = attr->priority;
	fake.last.matcher_criteria = attr->match_criteria_enable;
	fake.last.matcher_comp_mask = attr->comp_mask;
	fake.last.matcher_ft_type = (int)attr->ft_type;
	fake.last.matcher_mask_sz = attr->match_mask != NULL ? attr->match_mask->match_sz : 0;
	fake.last.matcher_mask_zero = attr->match_mask != NULL && all_zero(attr->match_mask);
	pthread_mutex_unlock(&fake.lock);
	if (fake_take_failure(&err))
		return NULL;
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	m->ctx = (struct fake_ctx *)context;
	m->ft_type = (attr->comp_mask & MLX5DV_FLOW_MATCHER_MASK_FT_TYPE) ? (int)attr->ft_type : -1;
	fake_count(&fake.counts.matchers, 1);
	return m;
}

static int fake_destroy_flow_matcher(struct mlx5dv_flow_matcher *matcher)
{
	int err;

	if (fake_take_failure(&err))
		return err;
	if (matcher->rules != 0)
		return EBUSY;
	free(matcher);
	pthread_mutex_lock(&fake.lock);
	fake.last.matchers_destroyed++;
	pthread_mutex_unlock(&fake.lock);
	fake_count(&fake.counts.matchers, -1);
	return 0;
}

static struct ibv_flow *fake_create_flow(struct mlx5dv_flow_matcher *matcher,
					 struct mlx5dv_flow_match_parameters *value, size_t num_actions,
					 struct mlx5dv_flow_action_attr actions_attr[])
{
	const struct mlx5dv_devx_obj *dest = NULL;
	struct fake_flow *f;
	int err;

	if (num_actions >= 1 && actions_attr[0].type == MLX5DV_FLOW_ACTION_DEST_DEVX)
		dest = actions_attr[0].obj;
	pthread_mutex_lock(&fake.lock);
	fake.last.flow_num_actions = num_actions;
	fake.last.flow_action_type = num_actions >= 1 ? (int)actions_attr[0].type : -1;
	fake.last.flow_dest = dest;
	fake.last.flow_dest_id = dest != NULL ? dest->id : 0;
	fake.last.flow_dest_opcode = dest != NULL ? dest->create_opcode : 0;
	fake.last.flow_value_sz = value != NULL ? value->match_sz : 0;
	fake.last.flow_value_zero = value != NULL && all_zero(value);
	pthread_mutex_unlock(&fake.lock);
	if (fake_take_failure(&err))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (f == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	f->matcher = matcher;
	f->pub.context = &matcher->ctx->pub;
	/* Only a NIC RX rule to a flow table reaches the NIC's root (what this fake plays). */
	if (dest != NULL && dest->create_opcode == PRM_CMD_CREATE_FLOW_TABLE &&
	    matcher->ft_type == (int)MLX5DV_FLOW_TABLE_TYPE_NIC_RX) {
		if (set_nic_root(matcher->ctx, dest->id, true) != 0) {
			free(f);
			errno = EINVAL;
			return NULL;
		}
		f->rooted = true;
		f->table_id = dest->id;
	}
	matcher->rules++;
	cmd_log_add(&fake.log, CMD_RX_ROOT, NULL, 0, f->table_id, 1);
	fake_count(&fake.counts.flows, 1);
	return &f->pub;
}

static int fake_destroy_flow(struct ibv_flow *flow)
{
	struct fake_flow *f = (struct fake_flow *)flow;
	int err;

	if (fake_take_failure(&err))
		return err;
	if (f->rooted)
		(void)set_nic_root(f->matcher->ctx, 0, false);
	cmd_log_add(&fake.log, CMD_RX_ROOT, NULL, 0, f->table_id, 0);
	f->matcher->rules--;
	free(f);
	pthread_mutex_lock(&fake.lock);
	fake.last.flows_destroyed++;
	pthread_mutex_unlock(&fake.lock);
	fake_count(&fake.counts.flows, -1);
	return 0;
}

void fake_flow_fill(struct ogda_mlx5dv *dv)
{
	dv->create_flow_matcher = fake_create_flow_matcher;
	dv->destroy_flow_matcher = fake_destroy_flow_matcher;
	dv->create_flow = fake_create_flow;
	dv->destroy_flow = fake_destroy_flow;
}

const char *fake_rdma_core_root_rule_check(uint32_t table_id)
{
	const struct fake_rdma_core_last *l = &fake.last;

	if (l->matcher_type != IBV_FLOW_ATTR_NORMAL || l->matcher_flags != 0 || l->matcher_priority != 0)
		return "matcher: not a NORMAL rule of priority 0 without flags";
	if (l->matcher_criteria != 0 || l->matcher_mask_sz != PRM_MATCH_PARAM_SIZE || !l->matcher_mask_zero)
		return "matcher: not an empty fte_match_param mask with criteria 0";
	if (l->matcher_comp_mask != MLX5DV_FLOW_MATCHER_MASK_FT_TYPE || l->matcher_ft_type != MLX5DV_FLOW_TABLE_TYPE_NIC_RX)
		return "matcher: not of table type NIC_RX";
	if (l->flow_num_actions != 1 || l->flow_action_type != MLX5DV_FLOW_ACTION_DEST_DEVX || l->flow_dest == NULL ||
	    l->flow_dest_opcode != PRM_CMD_CREATE_FLOW_TABLE || l->flow_dest_id != table_id)
		return "rule: not one DEST_DEVX action to the flow table object";
	if (l->flow_value_sz != PRM_MATCH_PARAM_SIZE || !l->flow_value_zero)
		return "rule: not an all-zero match value";
	return NULL;
}
