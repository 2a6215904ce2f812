/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive root attached by command (SET_FLOW_TABLE_ROOT through general_cmd): the software
 * NIC's rx_root_attach / rx_root_detach, and the ConnectX binding's when the NIC behind it is the
 * software NIC behind OpenGDA's rdma-core front end (rx_root_cmd.c).
 */
#ifndef OGDA_DEVX_RX_ROOT_CMD_H_
#define OGDA_DEVX_RX_ROOT_CMD_H_

#include "devx/devx.h"

#include <stdbool.h>
#include <stdint.h>

#define OGDA_RX_ROOT_CMD_TAG 0x4f47444152524d44ull /* "OGDARRMD" */

doca_error_t ogda_devx_rx_root_cmd_attach(struct ogda_devx *dev, struct ogda_devx_obj *table, uint32_t table_id,
					  struct ogda_devx_rx_root **root);
doca_error_t ogda_devx_rx_root_cmd_detach(struct ogda_devx_rx_root *root);
/* Whether @root was made by ogda_devx_rx_root_cmd_attach (its first word is the tag). */
bool ogda_devx_rx_root_is_cmd(const struct ogda_devx_rx_root *root);

#endif /* OGDA_DEVX_RX_ROOT_CMD_H_ */
