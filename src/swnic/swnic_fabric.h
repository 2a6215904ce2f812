/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric beyond swnic.h's three calls: creation options (a responder other than
 * swnic_responder_execute, for tests and fuzzing), the endpoint, statistics and limits.
 */
#ifndef OGDA_SWNIC_FABRIC_H_
#define OGDA_SWNIC_FABRIC_H_

#include "doca_error.h"
#include "swnic/swnic.h"
#include "swnic/swnic_gid.h"

#include <stdint.h>

/* Largest message the fabric carries whatever log_max_msg says (1 GiB, ConnectX's log_max_msg 30). */
#define SWNIC_FABRIC_MAX_MSG_CAP (1ull << 30)
/*
 * Incoming connections served at once. When full, a new connection evicts the oldest one
 * that has not completed an exchange yet (a stranger's); when every connection has, the
 * new one is refused (closed) with a log line.
 */
#define SWNIC_FABRIC_MAX_SERVER_CONNS 256u
/*
 * Slowest a responder is assumed to execute a request (bytes per second): while it does,
 * no byte moves, so the requester waits timeout + len / this for the response header
 * (swnic_fabric_client.c). 128 MiB/s: 0.5 s for 64 MiB, 8 s for 1 GiB.
 */
#define SWNIC_FABRIC_EXEC_MIN_RATE (128ull << 20)
/*
 * Payload memory (docs/swnic.md §11.4). A request is judged from its header before its
 * payload is read. A WRITE larger than a chunk streams into its target a chunk at a time;
 * other payloads (SEND, SEND_IMM, WRITE_IMM) are buffered whole, up to MAX_BUFFERED
 * (larger: NAK_INVALID_REQ). A refused request's payload is read and dropped when at most
 * DRAIN_MAX bytes; a larger one is not read: the answer is sent and the connection closed.
 */
#define SWNIC_FABRIC_STREAM_CHUNK (256u * 1024u)
#define SWNIC_FABRIC_MAX_BUFFERED (16u << 20)
#define SWNIC_FABRIC_DRAIN_MAX (64u * 1024u)
/* Defaults of OPENGDA_SWNIC_HANDSHAKE_TIMEOUT_MS and OPENGDA_SWNIC_FRAME_TIMEOUT_MS. */
#define SWNIC_FABRIC_HANDSHAKE_TIMEOUT_MS 2000
#define SWNIC_FABRIC_FRAME_TIMEOUT_MS 10000
/* Shortest OPENGDA_SWNIC_SECRET accepted (bytes); a shorter one makes the NIC fail to open. */
#define SWNIC_FABRIC_SECRET_MIN 16u
/* Idle outgoing connections kept per destination endpoint. */
#define SWNIC_FABRIC_MAX_IDLE_PER_PEER 8u

/* Executes one request on nic (same contract as swnic_responder_execute). */
typedef doca_error_t (*swnic_fabric_responder_fn)(void *ctx, struct swnic *nic, const struct swnic_req *req,
						 struct swnic_resp *resp, void *read_buf);

/* Judges a request from its header (same contract as swnic_responder_check). */
typedef doca_error_t (*swnic_fabric_check_fn)(void *ctx, struct swnic *nic, const struct swnic_req *req,
					     struct swnic_req_verdict *verdict);

struct swnic_fabric_opts {
	swnic_fabric_responder_fn responder; /* NULL: swnic_responder_execute */
	void *responder_ctx;                 /* for responder and check */
	/* NULL: swnic_responder_check when responder is NULL too; with a responder of its own and
	 * no check, every header is accepted and no WRITE is streamed (tests). */
	swnic_fabric_check_fn check;
};

/* Counters, read with swnic_fabric_get_stats. */
struct swnic_fabric_stats {
	uint64_t conns_accepted;   /* incoming connections */
	uint64_t conns_refused;    /* incoming connections closed at once: too many peers */
	uint64_t conns_evicted;    /* connections closed to make room (no exchange completed yet) */
	uint64_t conns_timed_out;  /* connections closed by the handshake or frame deadline */
	uint64_t frames_served;    /* requests executed for a TCP peer */
	uint64_t frames_rejected;  /* incoming frames that failed validation (connection closed) */
	uint64_t payload_buffered; /* bytes of request payload the server holds now (all connections) */
	uint64_t payload_buffered_hwm; /* the most it ever held at once */
	uint64_t auth_failures;    /* incoming connections closed by the shared-secret handshake */
	uint64_t conns_opened;     /* outgoing connections */
	uint64_t direct_deliveries;/* requests to an instance of this process */
	uint64_t tcp_deliveries;   /* requests answered over TCP */
	uint64_t tcp_failures;     /* requests that ended in NOT_CONNECTED / CONNECTION_RESET / TIME_OUT
				      (over TCP or shared memory) */
	uint64_t shm_channels_opened; /* outgoing shared-memory channels (same-host peers) */
	uint64_t shm_deliveries;   /* requests answered through shared memory */
	uint64_t shm_fallbacks;    /* new outgoing connections that took TCP: no channel could be opened */
	uint64_t pipe_inflight_hwm; /* the most requests one QP had in flight on a pipe (swnic_fabric_pipe.h) */
	uint64_t pipe_go_backs;    /* pipes that resent everything after a retry of their oldest request */
	uint64_t ipc_payloads_sent;   /* GPU payloads sent as a CUDA IPC reference (swnic_ipc.h) */
	uint64_t ipc_payloads_served; /* GPU payloads of other processes copied GPU to GPU by this NIC */
	uint64_t ipc_refused;      /* GPU payloads sent as bytes on a channel: memory with no IPC handle,
				      or an MR that does not cover its whole allocation */
};

/* What a server does with a request, as a test's fault hook decides (swnic_fabric_set_fault_hook). */
enum swnic_fabric_fault {
	SWNIC_FABRIC_FAULT_NONE,  /* execute and answer it */
	SWNIC_FABRIC_FAULT_CUT,   /* close its connection at once: it and everything behind it is lost */
	SWNIC_FABRIC_FAULT_STALL, /* wait *stall_ms first (an answer later than the requester waits) */
};

/* A fault hook: called by the server thread for every request it has read, before it executes it. */
typedef enum swnic_fabric_fault (*swnic_fabric_fault_fn)(void *ctx, const struct swnic_req *req, uint32_t *stall_ms);

/*
 * Tests only: installs (fn NULL: removes) a hook that makes this NIC's fabric server lose or
 * delay requests, over TCP and shared memory alike, as a lossy link or a slow peer would.
 */
doca_error_t swnic_fabric_set_fault_hook(struct swnic_fabric *fabric, swnic_fabric_fault_fn fn, void *ctx);

/* swnic_fabric_create with options; opts may be NULL. */
doca_error_t swnic_fabric_create_opts(struct swnic *nic, const struct swnic_fabric_opts *opts,
				      struct swnic_fabric **fabric, uint8_t gid[16]);
doca_error_t swnic_fabric_get_endpoint(const struct swnic_fabric *fabric, struct swnic_endpoint *ep);
doca_error_t swnic_fabric_get_stats(struct swnic_fabric *fabric, struct swnic_fabric_stats *stats);
/* Largest request length this fabric accepts: min(2^log_max_msg, SWNIC_FABRIC_MAX_MSG_CAP). */
uint64_t swnic_fabric_max_msg(const struct swnic_fabric *fabric);

#endif /* OGDA_SWNIC_FABRIC_H_ */
