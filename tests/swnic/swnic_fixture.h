/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture for the engine and requester tests: a software NIC whose PDs, MRs, CQs and QPs
 * are made through its own control path (PRM command bytes from src/prm executed by
 * swnic_cmd_exec, memory registered with swnic_ctl.h), plus a producer that writes WQEs
 * with the include/opengda_mlx5.h recipes and rings doorbells the ways real producers do
 * (rdma-core, NVSHMEM / DOCA, BlueFlame, DBR-less), and a CQ consumer that checks
 * ownership like rdma-core.
 *
 * Queue memory lives in one host arena registered as a single umem.
 */
#ifndef OGDA_TESTS_SWNIC_FIXTURE_H_
#define OGDA_TESTS_SWNIC_FIXTURE_H_

#include "opengda_mlx5.h"
#include "swnic/swnic.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FX_ARENA_SIZE (8u << 20)
#define FX_POLL_TIMEOUT_MS 5000u

struct fx {
	struct swnic *nic;
	uint32_t pdn;
	uint32_t uar;          /* the default UAR page, shared by QPs that do not ask for their own */
	uint8_t *uar_page;
	uint8_t *arena;
	size_t used;
	uint32_t umem;
};

struct fx_cq_cfg {
	uint32_t log_size;
	bool cqe128;           /* cqe_sz = 1 */
	bool collapsed;        /* cc */
	bool oi;               /* overrun ignore */
};

struct fx_cq {
	uint32_t cqn;
	uint8_t *ring;
	uint32_t log_size;
	uint32_t cqe_size;
	bool collapsed;
	_Atomic uint32_t *dbr;
	uint32_t ci;           /* consumer index */
};

/* Ring styles of the producer. */
enum fx_ring {
	FX_RING_CTRL,          /* rdma-core: first 8 bytes of the last WQE's ctrl segment, halves alternate */
	FX_RING_PI,            /* NVSHMEM / DOCA: {BE32(pi << 8), BE32(qpn << 8)} */
	FX_RING_BF,            /* BlueFlame: the whole last WQE copied to the register half */
	FX_RING_DBR_LESS,      /* {pi, qpn} at UAR + 0x600, no DBR write (send_dbr_mode NO_DBR_EXT) */
	FX_RING_DBR_ONLY,      /* only the DBR is written: the NIC must not execute */
};

struct fx_qp_cfg {
	uint8_t st;            /* PRM_QP_ST_RC / UC */
	uint32_t log_sq;       /* WQEBBs (log2) */
	uint32_t log_rq;       /* own RQ entries (log2); ignored with no_rq */
	uint32_t log_rq_stride;
	bool no_rq;            /* zero-length RQ */
	bool cd_master;
	bool own_uar;          /* a UAR page of its own instead of the shared one */
	uint8_t send_dbr_mode; /* enum prm_qp_send_dbr_mode */
	uint32_t user_index;
	struct fx_cq *scq, *rcq;
};

struct fx_qp {
	struct fx *f;
	uint32_t qpn;
	uint32_t uar;
	uint8_t *uar_page;
	uint32_t bf_half;      /* the register half the next ring uses */
	struct opengda_mlx5_sq sqd;
	uint16_t pi;           /* producer index (next free WQEBB) */
	uint16_t last;         /* index of the last WQE posted */
	uint8_t *rq;
	uint32_t log_rq, rq_stride;
	uint16_t rq_pi;
	_Atomic uint32_t *dbr;
	uint8_t send_dbr_mode;
	struct fx_cq *scq, *rcq;
};

/* Connection attributes for fx_qp_connect (fx_conn_default: every right, fast retries). */
struct fx_conn {
	uint8_t mtu, log_msg_max;
	uint8_t retry_count, rnr_retry, min_rnr_nak, ack_timeout;
	uint8_t rwe, rre, rae, atomic_mode;
	uint32_t remote_qpn;
	uint8_t rgid[16];
};

/* Opens software NIC 0 with a PD, a UAR and the umem arena; asserts on failure. */
void fx_open(struct fx *f);
void fx_close(struct fx *f);

/* A host buffer registered with access; returns the key (lkey == rkey). */
uint32_t fx_mr(struct fx *f, void *buf, size_t len, uint32_t access);

void fx_cq_create(struct fx *f, const struct fx_cq_cfg *cfg, struct fx_cq *cq);
/* The CQE64 of entry idx (the second half of a 128-byte entry). */
struct opengda_mlx5_cqe64 *fx_cqe(const struct fx_cq *cq, uint32_t idx);
/*
 * Waits up to timeout_ms for the CQE at cq->ci (owner and opcode as rdma-core checks
 * them), reads it into *out, advances ci and SET_CI. False on timeout.
 */
bool fx_poll(struct fx_cq *cq, uint32_t timeout_ms, struct opengda_mlx5_cqe_fields *out);
/* fx_poll without giving the CPU up between looks (benchmarks: a sleep is longer than a CQE takes);
 * timeout_ms 0: one look. */
bool fx_poll_spin(struct fx_cq *cq, uint32_t timeout_ms, struct opengda_mlx5_cqe_fields *out);
/* fx_poll that must succeed. */
void fx_poll_ok(struct fx_cq *cq, struct opengda_mlx5_cqe_fields *out);
/* True when no CQE shows up at cq->ci within ms. */
bool fx_no_cqe(struct fx_cq *cq, uint32_t ms);

void fx_qp_cfg_default(struct fx_qp_cfg *cfg, struct fx_cq *scq, struct fx_cq *rcq);
void fx_qp_create(struct fx *f, const struct fx_qp_cfg *cfg, struct fx_qp *qp);
void fx_qp_destroy(struct fx *f, struct fx_qp *qp);
void fx_conn_default(struct fx *f, struct fx_conn *c, uint32_t remote_qpn);
/*
 * fx_conn_default for a QP of another process's NIC (gid): 4 KiB MTU, 1 GiB messages, 3
 * transport retries of about 1 s each (a loaded, sanitized machine must not time out), RNR
 * retried until OPENGDA_SWNIC_RNR_MAX_MS with a 10 us delay.
 */
void fx_conn_remote(struct fx *f, struct fx_conn *c, uint32_t remote_qpn, const uint8_t gid[16]);
/* All n bytes through a pipe or socket, in (out 0) or out (out 1); a short transfer fails the test. */
void fx_xfer(int fd, void *p, size_t n, int out);
/* RST2INIT, INIT2RTR, RTR2RTS with c; stop_at = PRM_QP_STATE_INIT / RTR / RTS. */
void fx_qp_connect(struct fx *f, struct fx_qp *qp, const struct fx_conn *c, uint8_t stop_at);
void fx_qp_modify(struct fx *f, struct fx_qp *qp, uint16_t opcode, const struct fx_conn *c);
/*
 * An RC responder QP of its own for requester qp (a responder executes only its connected
 * peer's requests): creates one on cq (default config) connected to qp, then connects qp
 * to it with fx_conn_default up to stop_at. Returns the responder's QPN.
 */
uint32_t fx_qp_connect_new_peer(struct fx *f, struct fx_qp *qp, struct fx_cq *cq, uint8_t stop_at);
/* The QP's state and counters, read from the NIC's object. */
uint8_t fx_qp_state(struct fx *f, const struct fx_qp *qp);
void fx_qp_counters(struct fx *f, const struct fx_qp *qp, uint64_t *wqes, uint64_t *errors, uint64_t *rnr,
		    uint64_t *transport);

/* Takes the WQE slot at qp->pi for a WQE of ds octowords: returns its index, advances pi. */
uint16_t fx_take(struct fx_qp *qp, uint32_t ds);
/* Rings for everything posted so far, in the given style. */
void fx_ring(struct fx_qp *qp, enum fx_ring how);

/* One gather / scatter entry of a WQE as a test writes it. */
struct fx_sge {
	void *addr;
	uint32_t len;
	uint32_t lkey;
};

/*
 * Writes a WQE of ctrl [+ raddr] + n pointer segments at qp->pi (segments wrap at the ring
 * end) and advances pi; with_raddr for RDMA opcodes. Returns the WQE index.
 */
uint16_t fx_post_sges(struct fx_qp *qp, uint8_t opcode, uint8_t fm_ce_se, uint32_t imm, bool with_raddr,
		      uint64_t raddr, uint32_t rkey, const struct fx_sge *sge, uint32_t n);

/* Receive WQE of one scatter entry at the RQ producer position; updates the RQ DBR. */
void fx_rq_post(struct fx_qp *qp, void *addr, uint32_t len, uint32_t lkey);

/*
 * Two RC QPs on one NIC, connected to each other: a (requester, send CQ acq) and b
 * (responder, CQ bcq), both in RTS with fx_conn_default() unless conn_a / conn_b change
 * it first (called with the QPNs filled in; may be NULL). a's SQ has 2^log_sq WQEBBs.
 */
struct fx_pair {
	struct fx f;
	struct fx_cq acq, bcq;
	struct fx_qp a, b;
	struct fx_conn ca, cb;
};
typedef void (*fx_conn_hook)(struct fx_pair *p, struct fx_conn *c);
void fx_pair_open(struct fx_pair *p, uint32_t log_sq, const struct fx_cq_cfg *acq_cfg, fx_conn_hook conn_a,
		  fx_conn_hook conn_b);
void fx_pair_close(struct fx_pair *p);

/* A pointer as the 64-bit address WQEs carry. */
uint64_t fx_va(const void *p);
/* Fails the test unless every one of the n bytes at p is v. */
void fx_assert_all(const uint8_t *p, size_t n, uint8_t v);

/* Milliseconds since an arbitrary start (CLOCK_MONOTONIC). */
uint64_t fx_ms(void);
void fx_sleep_ms(uint32_t ms);

#endif /* OGDA_TESTS_SWNIC_FIXTURE_H_ */
