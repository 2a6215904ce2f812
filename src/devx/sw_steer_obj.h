/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive-steering objects in the software NIC's device binding (sw.c): RQs, RQTs, TIRs, flow
 * tables, flow groups, flow table entries and flow counters. Their destroy commands need more than
 * the object number (a group: its table; an entry: its table and flow index), so the binding keeps
 * what the create command said, as the kernel keeps a destroy mailbox per DevX object.
 */
#ifndef OGDA_DEVX_SW_STEER_OBJ_H_
#define OGDA_DEVX_SW_STEER_OBJ_H_

#include "doca_error.h"
#include "prm/prm_destroy.h"
#include "prm/prm_layout.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct swnic;

struct sw_steer_ref {
	uint16_t create;        /* the create opcode */
	uint32_t id;            /* rqn, rqtn, tirn, table id, group id, counter id; entry: flow index */
	uint8_t destroy_in[PRM_DESTROY_CMD_MAX]; /* its destroy command (prm_destroy.h) */
	size_t destroy_len;
};

/* Whether @opcode creates a receive-steering object. */
bool sw_steer_is_create(uint16_t opcode);
/* Whether @opcode creates, changes, queries or destroys one (refused through general_cmd). */
bool sw_steer_is_object_opcode(uint16_t opcode);
/* After a successful create: the object's number and destroy context from the command and answer. */
doca_error_t sw_steer_created(const void *in, size_t inlen, const void *out, size_t outlen, struct sw_steer_ref *ref);
/* Runs the object's destroy command; DOCA_ERROR_IN_USE while other objects name it. */
doca_error_t sw_steer_destroy(struct swnic *nic, const struct sw_steer_ref *ref);
/*
 * The layout of a modify (@query false) or query command @opcode on the object, and the field that
 * names it (*id_field); NULL when @opcode does not apply to it.
 */
const struct prm_layout *sw_steer_obj_cmd_layout(const struct sw_steer_ref *ref, uint16_t opcode, bool query,
						  const char **id_field);

#endif /* OGDA_DEVX_SW_STEER_OBJ_H_ */
