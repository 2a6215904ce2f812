/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One scripted sequence of device ops that covers every command family: QUERY_HCA_CAP
 * (general, RoCE, general 2), an unknown opcode, PD, UMEM, UAR, EQ number, CREATE_CQ,
 * CREATE_QP, a refused destroy (CQ in use), every QP transition (RST2INIT, INIT2INIT,
 * INIT2RTR, RTR2RTS, RTS2RTS, SQERR2RTS from RTS and from ERR: the device's BAD_QP_STATE,
 * 2ERR, 2RST), QUERY_QP, QUERY_CQ, CREATE / QUERY / DESTROY_RMP, a PD as a DevX object,
 * MR, and every destroy. Each step's outcome (return value, object number, out mailbox)
 * goes to a results log, so that two devices can be compared step by step.
 */
#ifndef OGDA_TESTS_DEVX_IDENTITY_SCRIPT_H_
#define OGDA_TESTS_DEVX_IDENTITY_SCRIPT_H_

#include "cmd_log.h"
#include "devx/devx.h"

#define IDS_ARENA_SIZE (1u << 20)

/* Runs the script on dev over arena (IDS_ARENA_SIZE bytes, page aligned); leaves nothing allocated. */
void identity_script_run(struct ogda_devx *dev, uint8_t *arena, struct cmd_log *results);

#endif /* OGDA_TESTS_DEVX_IDENTITY_SCRIPT_H_ */
