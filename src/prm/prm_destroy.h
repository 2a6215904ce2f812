/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command that undoes a create, built from the create command's input and output
 * mailboxes, the way the Linux kernel keeps one for every DevX object
 * (drivers/infiniband/hw/mlx5/devx.c, devx_obj_build_destroy_cmd): the create's uid, the
 * object number from the out mailbox (for a flow table entry: flow_index from the in
 * mailbox), and for flow groups and entries the table_type / table_id of the create's input.
 *
 *   CREATE_CQ -> DESTROY_CQ        CREATE_QP -> DESTROY_QP          CREATE_RMP -> DESTROY_RMP
 *   ALLOC_PD -> DEALLOC_PD         ALLOC_TRANSPORT_DOMAIN -> DEALLOC_TRANSPORT_DOMAIN
 *   CREATE_TIS -> DESTROY_TIS      CREATE_SQ -> DESTROY_SQ          CREATE_RQ -> DESTROY_RQ
 *   CREATE_RQT -> DESTROY_RQT      CREATE_TIR -> DESTROY_TIR
 *   CREATE_FLOW_TABLE -> DESTROY_FLOW_TABLE     CREATE_FLOW_GROUP -> DESTROY_FLOW_GROUP
 *   SET_FLOW_TABLE_ENTRY (op_mod 0) -> DELETE_FLOW_TABLE_ENTRY
 *   ALLOC_FLOW_COUNTER -> DEALLOC_FLOW_COUNTER
 *
 * Used by device models that stand in for the kernel (the software NIC binding, the test
 * double of rdma-core).
 */
#ifndef OGDA_PRM_DESTROY_H_
#define OGDA_PRM_DESTROY_H_

#include "doca_error.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_DESTROY_CMD_MAX 0x40u       /* the longest destroy input (flow table, group, entry) */

/*
 * The number of the object a successful create made (cqn, qpn, ..., table_id, group_id,
 * flow_index, flow_counter_id). DOCA_ERROR_NOT_SUPPORTED for a command that creates nothing
 * listed above (logged at debug level only); a failed or short out mailbox is the out
 * parser's error.
 */
doca_error_t prm_created_obj_id(const void *create_in, size_t inlen, const void *create_out, size_t outlen,
				uint32_t *obj_id);

/*
 * Writes the destroy command of that object into destroy_in (len bytes, at least
 * *destroy_len: 16 bytes, 64 for flow tables, groups and entries) and its length into
 * *destroy_len; obj_id (may be NULL) receives the object number. Errors as above, and
 * DOCA_ERROR_INVALID_VALUE for NULL arguments or a short destroy buffer.
 */
doca_error_t prm_destroy_cmd_build(const void *create_in, size_t inlen, const void *create_out, size_t outlen,
				   void *destroy_in, size_t len, size_t *destroy_len, uint32_t *obj_id);

#endif /* OGDA_PRM_DESTROY_H_ */
