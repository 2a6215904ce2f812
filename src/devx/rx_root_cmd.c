/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rx_root_attach / rx_root_detach by command (devx.h), for a NIC that no kernel stands in front
 * of: the software NIC, in this process or behind OpenGDA's rdma-core front end (whose libmlx5 has
 * no steering-rule functions, and passes DevX commands to the software NIC). The table becomes the
 * root itself, with the command a ConnectX's owner (the kernel) would send: SET_FLOW_TABLE_ROOT of
 * the NIC RX table, and op_mod 1 with no table to disconnect it (as Linux's fs_cmd.c). The commands
 * go through dev->ops->general_cmd, so what records or wraps the device's commands sees them.
 */
#include "devx/rx_root_cmd.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_flow.h"

#include <stdlib.h>
#include <string.h>

/* The ConnectX binding's records start with their own tag (hw_steer.c), so detach can tell. */
struct rx_root_cmd {
	uint64_t tag;
	struct ogda_devx *dev;
	uint32_t table_id;
};

static doca_error_t set_root(struct ogda_devx *dev, uint32_t table_id, bool on)
{
	struct prm_set_flow_table_root_params p;
	uint8_t in[PRM_FLOW_CMD_SIZE] = {0}, out[PRM_FLOW_SMALL_CMD_SIZE] = {0};
	uint8_t status = PRM_STATUS_OK;
	uint32_t syndrome = 0;
	doca_error_t err;

	memset(&p, 0, sizeof(p));
	p.table_type = PRM_FLOW_TABLE_NIC_RX;
	p.op_mod = on ? 0 : 1;
	p.table_id = on ? table_id : 0;
	err = prm_set_flow_table_root_in_build(&p, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = dev->ops->general_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err != DOCA_SUCCESS) {
		(void)prm_cmd_out_status(out, sizeof(out), &status, &syndrome);
		OGDA_LOG_ERR("%s: SET_FLOW_TABLE_ROOT%s of table 0x%x refused: status 0x%x, syndrome 0x%x (%s)", dev->name,
			     on ? "" : " (disconnect)", table_id, status, syndrome, doca_error_get_descr(err));
	}
	return err;
}

doca_error_t ogda_devx_rx_root_cmd_attach(struct ogda_devx *dev, struct ogda_devx_obj *table, uint32_t table_id,
			       struct ogda_devx_rx_root **root)
{
	struct rx_root_cmd *r;
	doca_error_t err;

	if (dev == NULL || table == NULL || root == NULL) {
		OGDA_LOG_ERR("rx_root_attach: dev, table and root must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		OGDA_LOG_ERR("%s: out of memory for a receive root record", dev->name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = set_root(dev, table_id, true);
	if (err != DOCA_SUCCESS) {
		free(r);
		return err;
	}
	r->tag = OGDA_RX_ROOT_CMD_TAG;
	r->dev = dev;
	r->table_id = table_id;
	*root = (struct ogda_devx_rx_root *)(void *)r;
	return DOCA_SUCCESS;
}

doca_error_t ogda_devx_rx_root_cmd_detach(struct ogda_devx_rx_root *root)
{
	struct rx_root_cmd *r = (struct rx_root_cmd *)(void *)root;
	doca_error_t err;

	if (!ogda_devx_rx_root_is_cmd(root)) {
		OGDA_LOG_ERR("rx_root_detach: not a receive root from rx_root_attach");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = set_root(r->dev, r->table_id, false);
	memset(r, 0, sizeof(*r));
	free(r); /* the caller cannot retry a refused disconnect: the record goes either way */
	return err;
}

bool ogda_devx_rx_root_is_cmd(const struct ogda_devx_rx_root *root)
{
	return root != NULL && *(const uint64_t *)(const void *)root == OGDA_RX_ROOT_CMD_TAG;
}
