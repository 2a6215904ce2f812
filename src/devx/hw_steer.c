/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rx_root_attach / rx_root_detach on a ConnectX (devx.h).
 *
 * The Linux kernel owns the NIC RX root table and refuses SET_FLOW_TABLE_ROOT through DevX (it is
 * neither a DevX general command nor an object modify in drivers/infiniband/hw/mlx5/devx.c). A
 * DevX user's own tables are reached from the kernel's steering instead: an rdma-core flow
 * matcher of table type NIC_RX with an empty mask (criteria 0: every frame) and, under it, one rule
 * whose only action is MLX5DV_FLOW_ACTION_DEST_DEVX naming the DevX flow table object. The kernel
 * places such rules in its bypass namespace, ahead of its own RX steering, and requires the target
 * table to be deeper than its root (level 1 or more; DOCA Flow's root pipe table is level 1).
 */
#include "devx/hw_priv.h"

#include "core/log.h"
#include "devx/hw.h"
#include "devx/rx_root_cmd.h"
#include "prm/prm_flow_match.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HW_TAG_RX_ROOT 0x4f47444148575252ull /* "OGDAHWRR" */
/* The rule's priority inside the kernel's bypass namespace: the first (nothing of ours precedes it). */
#define HW_RX_ROOT_PRIORITY 0u

struct ogda_devx_rx_root {
	uint64_t tag;
	struct hw_dev *dev;
	struct mlx5dv_flow_matcher *matcher;
	struct ibv_flow *flow;
	uint32_t table_id;
};

/* An all-zero fte_match_param: the empty mask of the matcher and the rule's match value. */
static struct mlx5dv_flow_match_parameters *match_all(void)
{
	struct mlx5dv_flow_match_parameters *m = calloc(1, sizeof(*m) + PRM_MATCH_PARAM_SIZE);

	if (m != NULL)
		m->match_sz = PRM_MATCH_PARAM_SIZE;
	return m;
}

static doca_error_t need_flow_calls(const struct hw_dev *d)
{
	const struct ogda_mlx5dv *dv = &d->rc->dv;
	doca_error_t err = hw_need(d, dv->create_flow_matcher != NULL, "mlx5dv_create_flow_matcher");

	if (err == DOCA_SUCCESS)
		err = hw_need(d, dv->destroy_flow_matcher != NULL, "mlx5dv_destroy_flow_matcher");
	if (err == DOCA_SUCCESS)
		err = hw_need(d, dv->create_flow != NULL, "mlx5dv_create_flow");
	if (err == DOCA_SUCCESS)
		err = hw_need(d, dv->destroy_flow != NULL, "ibv_destroy_flow");
	return err;
}

static doca_error_t make_rule(struct hw_dev *d, struct ogda_devx_obj *table, struct ogda_devx_rx_root *r)
{
	struct mlx5dv_flow_matcher_attr attr;
	struct mlx5dv_flow_action_attr action;
	struct mlx5dv_flow_match_parameters *mask = match_all(), *value = match_all();
	doca_error_t err = DOCA_SUCCESS;

	if (mask == NULL || value == NULL) {
		OGDA_LOG_ERR("%s: out of memory for a steering rule's match", d->base.name);
		err = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	memset(&attr, 0, sizeof(attr));
	attr.type = IBV_FLOW_ATTR_NORMAL;
	attr.priority = HW_RX_ROOT_PRIORITY;
	attr.match_criteria_enable = 0; /* no criteria: every frame */
	attr.match_mask = mask;
	attr.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE;
	attr.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
	errno = 0;
	r->matcher = d->rc->dv.create_flow_matcher(d->ctx, &attr);
	if (r->matcher == NULL) {
		err = hw_driver_error(d, "mlx5dv_create_flow_matcher", errno != 0 ? errno : EIO);
		goto out;
	}
	memset(&action, 0, sizeof(action));
	action.type = MLX5DV_FLOW_ACTION_DEST_DEVX;
	action.obj = table->obj;
	errno = 0;
	r->flow = d->rc->dv.create_flow(r->matcher, value, 1, &action);
	if (r->flow == NULL) {
		err = hw_driver_error(d, "mlx5dv_create_flow", errno != 0 ? errno : EIO);
		(void)d->rc->dv.destroy_flow_matcher(r->matcher);
		r->matcher = NULL;
	}
out:
	free(mask);
	free(value);
	return err;
}

doca_error_t hw_rx_root_attach(struct ogda_devx *dev, struct ogda_devx_obj *table, uint32_t table_id,
			       struct ogda_devx_rx_root **root)
{
	struct hw_dev *d = hw_dev_of(dev);
	struct ogda_devx_rx_root *r;
	doca_error_t err;

	if (d == NULL || !hw_handle_ok(table, HW_TAG_OBJ, "flow table"))
		return DOCA_ERROR_INVALID_VALUE;
	if (ogda_devx_is_front(dev)) /* the software NIC behind the front end: no kernel owns its root */
		return ogda_devx_rx_root_cmd_attach(dev, table, table_id, root);
	if (root == NULL || table->kind != HW_OBJ_FLOW_TABLE || table->dev != d) {
		OGDA_LOG_ERR("%s: rx_root_attach needs root and a flow table object of this device", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = need_flow_calls(d);
	if (err != DOCA_SUCCESS)
		return err;
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		OGDA_LOG_ERR("%s: out of memory for a receive root record", d->base.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = make_rule(d, table, r);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot steer received frames to flow table 0x%x from the kernel's root", d->base.name,
			     table_id);
		free(r);
		return err;
	}
	r->tag = HW_TAG_RX_ROOT;
	r->dev = d;
	r->table_id = table_id;
	hw_dev_get(d);
	*root = r;
	return DOCA_SUCCESS;
}

doca_error_t hw_rx_root_detach(struct ogda_devx_rx_root *root)
{
	doca_error_t err = DOCA_SUCCESS;
	struct hw_dev *d;
	int ret;

	if (ogda_devx_rx_root_is_cmd(root))
		return ogda_devx_rx_root_cmd_detach(root);
	if (!hw_handle_ok(root, HW_TAG_RX_ROOT, "receive root"))
		return DOCA_ERROR_INVALID_VALUE;
	d = root->dev;
	/* The rule before its matcher (the kernel refuses a matcher that rules still use). */
	ret = d->rc->dv.destroy_flow(root->flow);
	if (ret != 0)
		err = hw_driver_error(d, "ibv_destroy_flow", hw_call_errno(ret));
	ret = d->rc->dv.destroy_flow_matcher(root->matcher);
	if (ret != 0 && err == DOCA_SUCCESS)
		err = hw_driver_error(d, "mlx5dv_destroy_flow_matcher", hw_call_errno(ret));
	else if (ret != 0)
		OGDA_LOG_ERR("%s: mlx5dv_destroy_flow_matcher failed too (errno %d)", d->base.name, hw_call_errno(ret));
	/* The caller cannot retry: the record goes either way (a failure is logged). */
	memset(root, 0, sizeof(*root));
	free(root);
	hw_dev_put(d);
	return err;
}
