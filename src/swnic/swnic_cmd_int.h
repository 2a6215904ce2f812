/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the command executor (swnic_cmd*.c): the command being executed, the per-family
 * handlers, and the executor's own view of the objects it creates.
 */
#ifndef OGDA_SWNIC_SWNIC_CMD_INT_H_
#define OGDA_SWNIC_SWNIC_CMD_INT_H_

#include "prm/prm_cq.h"
#include "prm/prm_flow.h"
#include "prm/prm_qpc.h"
#include "prm/prm_rmp.h"
#include "prm/prm_rq.h"
#include "prm/prm_sq.h"
#include "prm/prm_tir.h"
#include "swnic/swnic.h"
#include "swnic/swnic_ctl.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Each object the executor creates is the shared struct (first member, what the engine
 * and the fabric see) plus the context as the commands set it, so QUERY_* can report
 * every attribute the way it was given.
 */
struct swnic_qp_obj {
	struct swnic_qp qp;
	struct prm_qpc_params qpc;
};

struct swnic_cq_obj {
	struct swnic_cq cq;
	struct prm_cqc_params cqc;
};

struct swnic_srq_obj {
	struct swnic_srq srq;
	struct prm_rmpc_params rmpc;
};

/* One command in execution. out is at least the command's out size (checked by the dispatcher). */
struct swnic_cmd {
	struct swnic *nic;
	const void *in;
	size_t inlen;
	void *out;
	size_t outlen;
	uint16_t opcode;
	uint16_t op_mod;
	uint32_t syndrome;     /* set by swnic_cmd_fail */
};

/*
 * Records a failure: logs one line naming the command and the reason, keeps the syndrome,
 * and returns status (so a handler ends with `return swnic_cmd_fail(...)`).
 */
uint8_t swnic_cmd_fail(struct swnic_cmd *c, uint8_t status, uint32_t syndrome, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* BAD_PARAM with @synd, logged as "<what> 0x<v>". */
uint8_t swnic_cmd_bad_param(struct swnic_cmd *c, uint32_t synd, const char *what, uint32_t v);

/* A parser refused the mailbox: BAD_PARAM / MALFORMED. */
uint8_t swnic_cmd_malformed(struct swnic_cmd *c);

/* Maps a table insert failure to NO_RESOURCES with its syndrome. */
uint8_t swnic_cmd_table_fail(struct swnic_cmd *c, doca_error_t err, const char *what);

/*
 * Queue placement, under nic->lock: the `bytes` of a queue at `offset` in umem `umem_id`
 * must exist, be host memory and fit. On success *umem is the umem (not yet referenced)
 * and *addr the queue's first byte.
 */
uint8_t swnic_cmd_place_queue(struct swnic_cmd *c, uint8_t umem_valid, uint32_t umem_id, uint64_t offset,
			      uint64_t bytes, struct swnic_umem **umem, uint8_t **addr);
/* The same for a doorbell record of `bytes` bytes aligned to `align`. */
uint8_t swnic_cmd_place_dbr(struct swnic_cmd *c, uint8_t dbr_umem_valid, uint32_t umem_id, uint64_t offset,
			    uint32_t bytes, uint32_t align, struct swnic_umem **umem, _Atomic uint32_t **dbr);

/* Family handlers: each returns the PRM status and, on OK, has built the out mailbox. */
uint8_t swnic_cmd_query_hca_cap(struct swnic_cmd *c);
uint8_t swnic_cmd_query_roce_address(struct swnic_cmd *c);
uint8_t swnic_cmd_query_hca_vport_gid(struct swnic_cmd *c);
uint8_t swnic_cmd_alloc_pd(struct swnic_cmd *c);
uint8_t swnic_cmd_dealloc_pd(struct swnic_cmd *c);
uint8_t swnic_cmd_alloc_uar(struct swnic_cmd *c);
uint8_t swnic_cmd_dealloc_uar(struct swnic_cmd *c);

uint8_t swnic_cmd_create_cq(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_cq(struct swnic_cmd *c);
uint8_t swnic_cmd_query_cq(struct swnic_cmd *c);
uint8_t swnic_cmd_modify_cq(struct swnic_cmd *c);

uint8_t swnic_cmd_create_qp(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_qp(struct swnic_cmd *c);
uint8_t swnic_cmd_query_qp(struct swnic_cmd *c);
uint8_t swnic_cmd_modify_qp(struct swnic_cmd *c);   /* every transition */

uint8_t swnic_cmd_create_rmp(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_rmp(struct swnic_cmd *c);
uint8_t swnic_cmd_query_rmp(struct swnic_cmd *c);
uint8_t swnic_cmd_modify_rmp(struct swnic_cmd *c);
uint8_t swnic_cmd_alloc_td(struct swnic_cmd *c);     /* swnic_cmd_sq.c */
uint8_t swnic_cmd_dealloc_td(struct swnic_cmd *c);
uint8_t swnic_cmd_create_tis(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_tis(struct swnic_cmd *c);
uint8_t swnic_cmd_create_sq(struct swnic_cmd *c);
uint8_t swnic_cmd_modify_sq(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_sq(struct swnic_cmd *c);
/* Waits (5 s at most) for the engine and responders to let go of a QP or an SQ. */
bool swnic_cmd_qp_drained(struct swnic_qp *qp);
/* DESTROY_QP (eth false) and DESTROY_SQ (eth true) of the object qpn: each refuses the other's. */
uint8_t swnic_cmd_destroy_queue(struct swnic_cmd *c, uint32_t qpn, bool eth);

/* Frees one object and drops its references (instance teardown and failed creates). */
void swnic_cmd_qp_free(struct swnic_qp_obj *o);
void swnic_cmd_cq_free(struct swnic_cq_obj *o);
void swnic_cmd_srq_free(struct swnic_srq_obj *o);
/* Ethernet receive: RQs (swnic_cmd_rq.c), RQTs and TIRs (swnic_cmd_tir.c), flow tables and groups
 * (swnic_cmd_flow.c), entries and counters (swnic_cmd_fte.c). */
uint8_t swnic_cmd_create_rq(struct swnic_cmd *c);
uint8_t swnic_cmd_modify_rq(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_rq(struct swnic_cmd *c);
uint8_t swnic_cmd_create_rqt(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_rqt(struct swnic_cmd *c);
uint8_t swnic_cmd_create_tir(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_tir(struct swnic_cmd *c);
uint8_t swnic_cmd_create_flow_table(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_flow_table(struct swnic_cmd *c);
uint8_t swnic_cmd_set_flow_table_root(struct swnic_cmd *c);
uint8_t swnic_cmd_create_flow_group(struct swnic_cmd *c);
uint8_t swnic_cmd_destroy_flow_group(struct swnic_cmd *c);
uint8_t swnic_cmd_set_fte(struct swnic_cmd *c);
uint8_t swnic_cmd_delete_fte(struct swnic_cmd *c);
uint8_t swnic_cmd_alloc_flow_counter(struct swnic_cmd *c);
uint8_t swnic_cmd_dealloc_flow_counter(struct swnic_cmd *c);
uint8_t swnic_cmd_query_flow_counter(struct swnic_cmd *c);
void swnic_cmd_tis_free(struct swnic_tis *tis);

#endif /* OGDA_SWNIC_SWNIC_CMD_INT_H_ */
