/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device interface over the software NIC (src/swnic): every command op hands the PRM
 * bytes to the NIC's command executor, exactly the bytes a ConnectX would receive.
 *
 * Differences from the ConnectX implementation, by design of the model:
 *  - mr_reg / umem_reg with a dmabuf fd: DOCA_ERROR_NOT_SUPPORTED. The software NIC moves
 *    bytes through process addresses (host, or GPU through the CUDA driver); it cannot map
 *    a dmabuf back to an address. Register the address itself (dmabuf_fd = -1).
 *  - general_cmd executes commands that create no object (QUERY_HCA_CAP,
 *    QUERY_ROCE_ADDRESS, QUERY_HCA_VPORT_GID, and any unknown opcode, which fails with PRM
 *    status BAD_OP); object commands must go through obj_create / pd_alloc (the kernel's
 *    DevX whitelist draws the same line): DOCA_ERROR_NOT_SUPPORTED, nothing executed.
 *  - obj_create accepts CREATE_CQ, CREATE_QP, CREATE_RMP and ALLOC_PD. obj_modify and
 *    obj_query accept only the commands of the object's own kind that name the object
 *    itself (DOCA_ERROR_INVALID_VALUE otherwise, nothing executed).
 *  - Every object keeps the NIC alive: closing the device while objects exist is safe;
 *    the NIC goes away with the last of them. Event channels too.
 *  - Event channels are the NIC's own (src/swnic/swnic_event.h): an eventfd, readable
 *    while events are pending. event_subscribe takes CQs (COMP, CQ_ERROR), QPs
 *    (WQ_CATAS_ERROR, WQ_INVAL_REQ_ERROR, WQ_ACCESS_ERROR) and RMPs (SRQ_CATAS_ERROR) of
 *    the channel's device; a second subscription of one channel to one object is
 *    DOCA_ERROR_ALREADY_EXIST. A CQ fires COMP after it is armed the mlx5 way; the rule
 *    the model uses to see the arm is in docs/swnic.md ("Events").
 *  - query_port reports the port MTU of OPENGDA_SWNIC_MTU (default 4096) as both the
 *    active and the max MTU.
 *  - resolve_rmac: a software NIC GID (the only kind the fabric reaches) resolves to
 *    {0x02, 0x00, gid[12], gid[13], gid[14], gid[15]}; any other GID is
 *    DOCA_ERROR_NOT_FOUND. The NIC ignores qpc rmac, so the value only needs to be stable.
 */
#ifndef OGDA_DEVX_SW_H_
#define OGDA_DEVX_SW_H_

#include "devx/devx.h"
#include "doca_error.h"

#include <stdint.h>

/* Opens software NIC number index (see swnic_open: creates it on first open). */
doca_error_t ogda_devx_sw_open(uint32_t index, struct ogda_devx **dev);

struct swnic;
/* The software NIC behind dev, or NULL when dev is not one (a ConnectX). */
struct swnic *ogda_devx_sw_nic(struct ogda_devx *dev);

#endif /* OGDA_DEVX_SW_H_ */
