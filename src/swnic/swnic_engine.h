/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private declarations shared by the engine (swnic_engine.c), the requester execution of
 * WQEs (swnic_exec_req*.c) and CQE production (swnic_cqe.c).
 *
 * The engine owns each QP's send-queue cursor (qp->sq_ci, sq_target, seen_db): only the
 * engine thread the QP is assigned to reads or writes them after attach. Each QP's WQEs
 * run in its window (swnic_window.h): up to 32 in flight to other processes, completed in
 * order; a WQE that waits (WAIT on a CQ, an RNR or transport retry timer) stays in its
 * struct swnic_exec across engine passes without blocking the thread.
 */
#ifndef OGDA_SWNIC_ENGINE_H_
#define OGDA_SWNIC_ENGINE_H_

#include "prm/prm_wqe.h"
#include "swnic/swnic.h"
#include "swnic/swnic_mem_access.h"
#include "swnic/swnic_poll.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Environment knobs (docs/swnic.md). */
#define SWNIC_ENV_ENGINE_THREADS "OPENGDA_SWNIC_ENGINE_THREADS"
#define SWNIC_ENV_MAX_TIMEOUT_MS "OPENGDA_SWNIC_MAX_TIMEOUT_MS"
#define SWNIC_ENV_RNR_MAX_MS "OPENGDA_SWNIC_RNR_MAX_MS"

#define SWNIC_ENGINE_THREADS_MAX 64
#define SWNIC_DEFAULT_ACK_TIMEOUT 14u   /* qpc ack_timeout 0 means this (4.096 us << 14 = 67 ms) */
#define SWNIC_RNR_RETRY_INFINITE 7u

/* Engine settings, read from the environment when the engine is created. */
struct swnic_engine_cfg {
	uint32_t threads;        /* engine threads; QPs are assigned round-robin */
	struct swnic_poll_cfg poll; /* OPENGDA_SWNIC_POLL, OPENGDA_SWNIC_POLL_SPIN_US */
	uint64_t max_timeout_ns; /* upper clamp of the per-attempt transport timeout */
	uint64_t rnr_max_ns;     /* total RNR budget when rnr_retry = 7 ("infinite") */
};

/*
 * Vendor syndromes the model writes into error CQEs (byte 54). They are the model's own
 * reason codes, meant for logs and tests; a ConnectX reports different values.
 */
enum swnic_vendor_syndrome {
	SWNIC_VSYND_NONE = 0x00,
	SWNIC_VSYND_BAD_OPCODE = 0x01,      /* opcode or opmod the model does not execute */
	SWNIC_VSYND_MALFORMED = 0x02,       /* WQE shape (DS, segments, fence) rejected */
	SWNIC_VSYND_WQE_MISMATCH = 0x03,    /* ctrl QPN / WQE index differ from the QP / counter */
	SWNIC_VSYND_WAIT_NOT_ALLOWED = 0x04, /* WAIT on a QP created without cd_master */
	SWNIC_VSYND_WAIT_BAD_CQ = 0x05,     /* WAIT names a CQ that does not exist */
	SWNIC_VSYND_TOO_MANY_SGE = 0x06,    /* more pointer segments than SWNIC_MAX_SGE */
	SWNIC_VSYND_ST = 0x07,              /* opcode the QP's transport type cannot carry */
	SWNIC_VSYND_BAD_LKEY = 0x10,        /* lkey unknown or of another PD */
	SWNIC_VSYND_LKEY_RANGE = 0x11,      /* SGE outside its MR */
	SWNIC_VSYND_LKEY_ACCESS = 0x12,     /* MR lacks LOCAL_WRITE for a READ / atomic target */
	SWNIC_VSYND_MSG_TOO_LONG = 0x20,    /* total length over 2^log_msg_max */
	SWNIC_VSYND_RESULT_TOO_SHORT = 0x21, /* atomic result SGEs shorter than the operand */
	SWNIC_VSYND_NAK = 0x30,             /* the responder NAKed (syndrome says which) */
	SWNIC_VSYND_RETRY_EXC = 0x31,       /* retry budget spent (syndrome says which) */
	SWNIC_VSYND_BAD_RESPONSE = 0x32,    /* response inconsistent with the request */
	SWNIC_VSYND_LOCAL_COPY = 0x33,      /* host/GPU copy of local data failed */
	SWNIC_VSYND_FABRIC_REJECT = 0x34,   /* the fabric refused the request as invalid */
	SWNIC_VSYND_FLUSH = 0x40,           /* WR_FLUSH_ERR after the QP entered ERR */
};

/* Connection attributes of a QP, copied under qp->lock when a WQE starts. */
struct swnic_qp_attrs {
	uint8_t st;
	uint8_t mtu;
	uint8_t log_msg_max;
	uint8_t retry_count;
	uint8_t rnr_retry;
	uint8_t min_rnr_nak;
	uint8_t ack_timeout;
	bool cd_master;
	uint32_t remote_qpn;
	uint8_t remote_gid[16];
	uint32_t psn;             /* first PSN of this WQE's request */
};

/* How one WQE ended; the engine turns it into a CQE (or not) and advances sq_ci. */
struct swnic_completion {
	uint8_t syndrome;         /* 0: success, else enum opengda_mlx5_cqe_syndrome */
	uint8_t vendor_syndrome;  /* enum swnic_vendor_syndrome */
	uint8_t wqe_opcode;
	bool signaled;            /* CE 2/3: a CQE on success too */
	uint16_t wqe_counter;     /* sq_ci of the WQE */
	uint16_t wqebbs;          /* WQEBBs the WQE occupies: how far sq_ci moves */
	uint32_t byte_cnt;
};

/* One local buffer of a gather or scatter list, after its key check. */
struct swnic_sge {
	uint64_t addr;
	uint32_t len;
	uint32_t lkey;            /* checked again, and its MR held, whenever the bytes move */
	enum ogda_mem_kind kind;
};

/* A WQE a QP is executing, kept across engine passes while it waits or retries. */
struct swnic_exec {
	bool active;              /* decoded and checked; a request may be outstanding */
	uint16_t index;           /* the WQE's producer index (its ctrl segment) */
	/* In a requester window (swnic_window.c): */
	bool posted;              /* its request is in the pipe, the answer not taken yet */
	bool sync;                /* the pipe does not carry it: delivered once it is the oldest */
	bool done;                /* over; cpl says how, completed when it is the oldest */
	struct prm_wqe wqe;
	struct swnic_qp_attrs attrs;
	struct swnic_completion cpl;  /* filled in as the WQE goes */
	struct swnic_req req;
	struct swnic_sge sge[SWNIC_MAX_SGE];
	uint32_t nsge;
	uint64_t total;           /* bytes of the message (gathered, read or atomic result) */
	uint8_t *buf;             /* staging for gathers / reads that are not one host SGE */
	size_t buf_cap;
	void *read_dst;           /* where the responder puts READ data (staging, never the SGEs) */
	bool payload_is_sge;      /* req.payload is sge[0]'s memory: its MR is held per attempt */
	/* A payload posted by reference (GPU memory through CUDA IPC): its MR held until the answer. */
	struct swnic_mr_hold ref_hold;
	uint32_t transport_tries; /* retries spent */
	uint32_t rnr_tries;
	uint64_t attempt_ns;      /* start of the current attempt */
	uint64_t next_try_ns;     /* 0: try now */
	uint64_t rnr_deadline_ns; /* rnr_retry = 7: give up after this */
};

/* What swnic_exec_req_step() needs besides the WQE. */
struct swnic_exec_ctx {
	struct swnic_qp *qp;
	const struct swnic_engine_cfg *cfg;
	const atomic_bool *abort;  /* set when the QP is being detached: stop waiting for locks */
};

enum swnic_exec_status {
	SWNIC_EXEC_DONE,      /* *cpl describes the outcome */
	SWNIC_EXEC_PENDING,   /* waiting (WAIT condition, retry timer): call again after *wake_ns */
	SWNIC_EXEC_ABORTED,   /* the QP is being detached */
};

/*
 * Executes (or continues) the WQE at qp->sq_ci, whose producer index is known to lie
 * within [sq_ci, sq_target). Never blocks beyond one fabric delivery. On PENDING, *wake_ns
 * is lowered to the time the WQE wants to be looked at again (UINT64_MAX: on any pass).
 */
enum swnic_exec_status swnic_exec_req_step(const struct swnic_exec_ctx *ctx, struct swnic_exec *x, uint64_t now_ns,
					   uint64_t *wake_ns, struct swnic_completion *cpl);
/* ---- requester window (swnic_window.c), many WQEs in flight through a pipe ---- */

struct swnic_fabric_pipe;

/*
 * Whether the WQE at index may start while earlier WQEs are in flight: an RDMA WRITE, SEND,
 * READ or atomic (with or without immediate) without a fence, on an RC or UC QP. Others wait
 * until everything before them has completed, as the fence asks.
 */
bool swnic_exec_req_pipelinable(const struct swnic_qp *qp, uint16_t index);
/*
 * Starts the WQE at index (decode, checks, PSNs, gather). PENDING: a request is ready in
 * x->req; DONE: it is over already (*cpl); ABORTED: the QP is being detached.
 */
enum swnic_exec_status swnic_exec_req_begin(const struct swnic_exec_ctx *ctx, struct swnic_exec *x, uint16_t index,
					    struct swnic_completion *cpl);

enum swnic_post_status {
	SWNIC_POST_SENT,    /* in the pipe (x->posted) */
	SWNIC_POST_FULL,    /* no room now: take answers first */
	SWNIC_POST_UNPIPED, /* the pipe does not carry it (x->sync): deliver it when it is the oldest */
	SWNIC_POST_DONE,    /* the WQE failed (*cpl) */
	SWNIC_POST_RETRY,   /* no channel: a transport failure of this attempt, retried after *wake_ns */
};

/*
 * Sends x's request (started, not posted) through pipe, behind what is in flight. oldest: x
 * is the window's oldest WQE. A later WQE whose post finds the connection broken stays
 * unposted (FULL): the oldest's answer reports the failure, once, and the window goes back.
 */
enum swnic_post_status swnic_exec_req_post(const struct swnic_exec_ctx *ctx, struct swnic_exec *x,
					   struct swnic_fabric_pipe *pipe, bool oldest, uint64_t now_ns,
					   uint64_t *wake_ns, struct swnic_completion *cpl);
/*
 * Takes the answer to x, the oldest request in the pipe (block: waits for it), and goes on
 * as a synchronous attempt would: DONE (*cpl), or PENDING with x->posted still set (no answer
 * yet) or cleared (a retry: RNR, no answer, or no such QP; every later request in flight must
 * be resent after it).
 */
enum swnic_exec_status swnic_exec_req_answer(const struct swnic_exec_ctx *ctx, struct swnic_exec *x,
					     struct swnic_fabric_pipe *pipe, bool block, uint64_t now_ns,
					     uint64_t *wake_ns, struct swnic_completion *cpl);

/* x's request is no longer in the pipe (answered, or forgotten for a resend): posted cleared. */
void swnic_exec_req_unpost(struct swnic_exec *x);

/* Forgets the WQE in progress (QP reset, error, detach) and frees staging memory. */
void swnic_exec_req_reset(struct swnic_exec *x);

/*
 * Per-attempt transport timeout of the QP: 4.096 us << ack_timeout (0 = default 14),
 * clamped to [1 ms, cfg->max_timeout_ns].
 */
uint64_t swnic_exec_ack_timeout_ns(const struct swnic_engine_cfg *cfg, uint8_t ack_timeout);
/* RNR delay of an IB min_rnr_nak code (0..31), at least 10 us. */
uint64_t swnic_exec_rnr_delay_ns(uint8_t min_rnr_nak);
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t swnic_now_ns(void);

/*
 * Wait-on-time (WAIT opmod WAIT_TIME on an Ethernet SQ; swnic_eth.c): 1 when the NIC clock
 * (CLOCK_REALTIME, as seconds << 32 | nanoseconds) has reached the WQE's value under its mask;
 * 0 when not yet, with *wake_ns (CLOCK_MONOTONIC, like now_ns) lowered to when it will; -1 for
 * a condition the model does not run (*vendor says why).
 */
int swnic_eth_wait_time_due(const struct prm_wqe_wait *w, uint64_t now_ns, uint64_t *wake_ns, uint8_t *vendor);

/* ---- swnic_cqe.c ---- */

/* Requester CQE (opcode REQ) for a successful signalled WQE. DOCA_ERROR_FULL: CQ overrun. */
doca_error_t swnic_cq_post_req(struct swnic_cq *cq, uint8_t wqe_opcode, uint32_t qpn, uint32_t user_index,
			       uint16_t wqe_counter, uint32_t byte_cnt);

/* Opcode and WQEBB count of the WQE whose ctrl segment is at index (DS 0 counts as 1 WQEBB). */
void swnic_sq_peek(const struct swnic_qp *qp, uint16_t index, uint8_t *opcode, uint16_t *wqebbs);

/*
 * Completes every WQE in [ci, target) with a WR_FLUSH_ERR CQE on the QP's send CQ (one
 * per WQE, signalled or not; each counted in the QP's wqes and errors before its CQE) and
 * returns target. Returns the number flushed in *count.
 */
uint16_t swnic_sq_flush(struct swnic_qp *qp, uint16_t ci, uint16_t target, uint32_t *count);

#endif /* OGDA_SWNIC_ENGINE_H_ */
