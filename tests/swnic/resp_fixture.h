/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture for the responder tests: a software NIC with PDs, MRs, CQs, QPs and SRQs made
 * through its own control path (PRM command bytes from src/prm executed by
 * swnic_cmd_exec, memory registered with swnic_ctl.h), plus helpers that post receive
 * WQEs byte by byte and read CQEs back.
 *
 * All queue memory lives in one host arena registered as a single umem.
 */
#ifndef OGDA_TESTS_SWNIC_RESP_FIXTURE_H_
#define OGDA_TESTS_SWNIC_RESP_FIXTURE_H_

#include "swnic/swnic.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FIX_ARENA_SIZE (4u << 20)

struct fix {
	struct swnic *nic;
	uint32_t pdn[2];
	uint32_t uar;
	uint8_t *uar_page;
	uint8_t *arena;
	size_t used;
	uint32_t umem;
};

struct fix_cq {
	uint32_t cqn;
	uint8_t *ring;
	uint32_t log_size;
	_Atomic uint32_t *dbr;
};

/* What fix_qp_create makes; fix_qp_cfg_default() gives an RC QP in RTS with every right. */
struct fix_qp_cfg {
	uint8_t st;              /* PRM_QP_ST_RC / _UC */
	uint32_t pdn;
	uint8_t log_rq_size;     /* own RQ entries (log2) */
	uint8_t log_rq_stride;   /* own RQ entry = 16 << log_rq_stride bytes */
	bool zero_rq;            /* rq_type ZERO_LEN: no receive queue at all */
	uint32_t srqn;           /* != 0: receive from this SRQ (rq_type SRQ) */
	uint32_t user_index;
	uint8_t rwe, rre, rae;
	uint8_t atomic_mode;
	uint8_t log_msg_max;     /* INIT2RTR log_msg_max */
	uint8_t state;           /* stop in PRM_QP_STATE_RST / INIT / RTR / RTS */
	struct fix_cq *cq;       /* send and receive CQ */
};

struct fix_qp {
	uint32_t qpn;
	uint8_t *rq;
	uint32_t log_rq_size;
	uint32_t rq_stride;
	_Atomic uint32_t *dbr;
	uint16_t rq_pi;
};

struct fix_srq {
	uint32_t srqn;
	uint8_t *ring;
	uint32_t log_size;
	uint32_t stride;
	bool linked;
	_Atomic uint32_t *dbr;
	uint16_t pi;
};

/* One receive scatter entry as a test writes it. */
struct fix_sge {
	void *addr;
	uint32_t len;
	uint32_t lkey;
};

/* Opens software NIC 0 and makes two PDs, a UAR and the umem arena; asserts on failure. */
void fix_open(struct fix *f);
void fix_close(struct fix *f);
/* fix_open, then fix_cq_create of a CQ of 2^log_cq_size entries: how the responder tests start. */
void fix_open_with_cq(struct fix *f, uint32_t log_cq_size, struct fix_cq *cq);
/* cmocka teardown for a test state whose first member is its struct fix: fix_close of it. */
int fix_teardown(void **state);

/* A host buffer registered in PD pdn_idx (0 or 1) with access; returns the key (lkey == rkey). */
uint32_t fix_mr(struct fix *f, int pdn_idx, void *buf, size_t len, uint32_t access);

/* A CQ with overrun ignored (cqc.oi = 1): the tests never update SET_CI. */
void fix_cq_create(struct fix *f, uint32_t log_size, struct fix_cq *cq);
/* The same with overrun detection (cqc.oi = 0). */
void fix_cq_create_checked(struct fix *f, uint32_t log_size, struct fix_cq *cq);
/* The 64-byte entry idx of the CQ. */
uint8_t *fix_cqe(const struct fix_cq *cq, uint32_t idx);

void fix_qp_cfg_default(struct fix *f, struct fix_cq *cq, struct fix_qp_cfg *cfg);
void fix_qp_create(struct fix *f, const struct fix_qp_cfg *cfg, struct fix_qp *qp);
/* Runs the transition command opcode (PRM_CMD_2ERR_QP, ...) with no attribute. */
void fix_qp_transition(struct fix *f, const struct fix_qp *qp, uint16_t opcode);

/* An RMP of 2^log_size WQEs of 16 << log_stride bytes; linked: wq_type LINKED_LIST. */
void fix_srq_create(struct fix *f, uint32_t log_size, uint32_t log_stride, bool linked, struct fix_srq *srq);

/*
 * Writes a receive WQE with n entries (terminated with MLX5_INVALID_LKEY when shorter
 * than the entry) at the producer position and rings the RQ DBR. For a linked-list SRQ
 * the WQE goes to slot pi and its next segment names slot pi + 1.
 */
void fix_rq_post(struct fix_qp *qp, const struct fix_sge *sge, uint32_t n);
void fix_srq_post(struct fix_srq *srq, const struct fix_sge *sge, uint32_t n);

/*
 * A request with the defaults the tests share: dst_qpn, op, len 0, from the QP's connected
 * peer at the PSN it expects next (the QP as it is now: build the request right before
 * executing it).
 */
struct swnic_req fix_req(uint32_t dst_qpn, uint8_t op);
/* Sets r's source (dst_qpn's connected peer) and PSN (the one it expects now). */
void fix_req_sequence(struct swnic_req *r);
/* swnic_responder_execute of a copy of req made in sequence (fix_req_sequence). */
doca_error_t fix_execute(struct swnic *nic, const struct swnic_req *req, struct swnic_resp *resp, void *read_buf);

/* Big-endian readers for CQE assertions. */
uint32_t fix_be32(const uint8_t *p);
uint16_t fix_be16(const uint8_t *p);

#endif /* OGDA_TESTS_SWNIC_RESP_FIXTURE_H_ */
