/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pieces of the responder (swnic_responder_execute) shared by its files:
 *   swnic_exec_resp.c         request checks, WRITE / READ, dispatch
 *   swnic_exec_resp_atomic.c  the atomics (arithmetic and execution on host or GPU memory)
 *   swnic_exec_resp_recv.c    receive WQE consumption, scatter and responder CQEs
 */
#ifndef OGDA_SWNIC_EXEC_RESP_INT_H_
#define OGDA_SWNIC_EXEC_RESP_INT_H_

#include "swnic/swnic.h"
#include "swnic/swnic_mem_access.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * The value an atomic leaves in memory, given the value old it found there (both
 * truncated to req->atomic_size bytes). Returns false when memory must stay unchanged
 * (a compare that did not match). Pure: no memory access.
 */
bool swnic_resp_atomic_compute(const struct swnic_req *req, uint64_t old, uint64_t *new_value);

/*
 * Executes the atomic req on memory of mr (already checked for range, right and
 * alignment), atomically with respect to every other responder call. *orig receives the
 * value found, in host order. Returns an enum swnic_resp_status.
 */
uint8_t swnic_resp_atomic_execute(const struct swnic_req *req, const struct swnic_mr *mr, uint64_t *orig);

/*
 * SEND / SEND_IMM / WRITE_IMM: consumes one receive WQE of qp (its RQ or its SRQ), places
 * the data (scatter for sends, each receive buffer's MR held while it is written; for
 * WRITE_IMM the already checked and held target write) and produces the responder CQE.
 * Returns an enum swnic_resp_status.
 */
uint8_t swnic_resp_receive(struct swnic *nic, struct swnic_qp *qp, const struct swnic_req *req,
			   const struct swnic_mr_hold *write);

/* ---- admission (swnic_exec_resp_peer.c) ---- */

enum swnic_resp_admit {
	SWNIC_RESP_ADMIT_NEW,        /* the connected peer, the expected PSN (UC: any PSN) */
	SWNIC_RESP_ADMIT_DUPLICATE,  /* the connected peer, a PSN already executed (RC) */
	SWNIC_RESP_ADMIT_DROP,       /* another sender, or a PSN ahead: answered NO_QP */
};

/* The responder's PSN window for one request. */
struct swnic_resp_seq {
	uint32_t expected;           /* qp->next_rcv_psn when the request was admitted */
	uint32_t next;               /* expected PSN after it */
};

/* Bytes of a qpc.mtu (enum prm_qp_mtu); 1024 for a value out of range. */
uint32_t swnic_mtu_bytes(uint8_t mtu);
/* PSNs a request occupies: 1 for atomics and empty messages, one per MTU otherwise. */
uint32_t swnic_req_psn_count(uint8_t mtu, uint8_t op, uint64_t len);

/*
 * Checks that req comes from qp's connected peer (remote QPN and GID of INIT2RTR) and
 * where its PSN lies. Takes qp->lock; the caller holds qp->resp_lock, so that requests
 * to one QP are admitted and executed one at a time.
 */
enum swnic_resp_admit swnic_resp_admit(struct swnic_qp *qp, const struct swnic_req *req, struct swnic_resp_seq *seq);
/* After an executed (ACKed) new request: the QP expects seq->next. Takes qp->lock. */
void swnic_resp_advance(struct swnic_qp *qp, const struct swnic_resp_seq *seq);

/* Verdict for a failed key check (swnic_mr_resolve's error). */
uint8_t swnic_resp_key_verdict(doca_error_t err);

#endif /* OGDA_SWNIC_EXEC_RESP_INT_H_ */
