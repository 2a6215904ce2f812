/* SPDX-License-Identifier: BSD-3-Clause */
/* The fabric's state, shared by its files: swnic_fabric.c (lifecycle, delivery),
 * swnic_fabric_client.c (outgoing connections), swnic_fabric_server.c (the listener and
 * the set of incoming connections), swnic_fabric_serve.c (serving one of them). */
#ifndef OGDA_SWNIC_FABRIC_PRIV_H_
#define OGDA_SWNIC_FABRIC_PRIV_H_

#include "swnic/swnic_fabric.h"
#include "swnic/swnic_poll.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#define SWNIC_FABRIC_SHM_REFUSED_SLOTS 8u
#define SWNIC_FABRIC_SHM_RETRY_NS 1000000000ull /* a refused endpoint is tried again after this */

struct swnic_shm_map;

/* An outgoing connection: used by one requester at a time, then kept idle for the next. */
struct swnic_client_conn {
	struct swnic_client_conn *next;
	struct swnic_endpoint ep;
	int fd;                    /* TCP, or for a shared-memory channel its Unix socket */
	bool busy;
	bool shm;                  /* a shared-memory channel (swnic_fabric_shm.h) */
	unsigned seq;              /* shm: last request sequence number */
	struct swnic_shm_map *map; /* shm: the mapped channel */
};

/* An incoming connection and the thread that serves it. */
struct swnic_server_conn {
	struct swnic_server_conn *next;
	struct swnic_fabric *fabric;
	int fd;                    /* closed by whoever joins the thread, never by the thread */
	bool unix_conn;            /* came in on the Unix socket: a shared-memory channel follows */
	pthread_t thread;
	atomic_bool done;
	/* A request of this connection passed the responder's admission (an answer other than
	 * NO_QP): a peer, not a stranger. Until then the connection lives under the handshake
	 * deadline and is the first evicted when the server is full. */
	atomic_bool trusted;
	uint64_t handshake_deadline; /* CLOCK_MONOTONIC ns: accept + handshake timeout */
	char peer[32];
};

struct swnic_fabric {
	struct swnic *nic;
	struct swnic_endpoint ep;
	uint64_t max_msg;
	uint64_t handshake_timeout_ns; /* OPENGDA_SWNIC_HANDSHAKE_TIMEOUT_MS */
	uint64_t frame_timeout_ns;     /* OPENGDA_SWNIC_FRAME_TIMEOUT_MS */
	char *secret;                  /* OPENGDA_SWNIC_SECRET; NULL and 0 when unset */
	size_t secret_len;
	swnic_fabric_responder_fn responder;
	swnic_fabric_check_fn check;
	void *responder_ctx;
	atomic_uint_fast64_t next_request_id;
	_Atomic(swnic_fabric_fault_fn) fault_fn; /* tests (swnic_fabric_set_fault_hook) */
	_Atomic(void *) fault_ctx;

	struct swnic_poll_cfg poll;    /* how shared-memory channels wait (OPENGDA_SWNIC_POLL) */
	bool shm;                      /* OPENGDA_SWNIC_SHM: same-host peers through shared memory */

	/* server side */
	int listen_fd;
	int unix_fd;               /* the shared-memory fabric's Unix listener, -1 without one */
	int wake_pipe[2];          /* written once by destroy: the listener stops */
	pthread_t listener;
	bool listener_started;
	pthread_mutex_t server_lock; /* server_conns, server_count */
	struct swnic_server_conn *server_conns;
	unsigned server_count;

	/* client side */
	pthread_mutex_t client_lock; /* client_conns, client_busy, closing */
	pthread_cond_t client_idle;  /* client_busy reached 0 */
	struct swnic_client_conn *client_conns;
	unsigned client_busy;        /* requesters inside swnic_fabric_client_deliver */
	bool closing;
	/* Endpoints whose Unix socket did not answer lately: no channel is tried before until_ns. */
	struct {
		struct swnic_endpoint ep;
		uint64_t until_ns;
	} shm_refused[SWNIC_FABRIC_SHM_REFUSED_SLOTS];

	struct {
		atomic_uint_fast64_t conns_accepted, conns_refused, conns_evicted, conns_timed_out;
		atomic_uint_fast64_t frames_served, frames_rejected;
		atomic_uint_fast64_t payload_buffered, payload_buffered_hwm, auth_failures;
		atomic_uint_fast64_t conns_opened, direct_deliveries, tcp_deliveries, tcp_failures;
		atomic_uint_fast64_t shm_channels_opened, shm_deliveries, shm_fallbacks;
		atomic_uint_fast64_t pipe_inflight_hwm, pipe_go_backs;
		atomic_uint_fast64_t ipc_payloads_sent, ipc_payloads_served, ipc_refused;
	} stats;
};

/*
 * The fault hook's decision for req (swnic_fabric_set_fault_hook): false when the connection
 * must be closed without executing it; a stall has been slept through when it returns true.
 */
bool swnic_fabric_fault_pass(struct swnic_fabric *f, const struct swnic_req *req);

/*
 * Executes req on nic through fabric's responder (swnic_responder_execute when fabric is NULL
 * or has none). A responder failure, or a verdict that does not fit the request, becomes a
 * REMOTE_OP NAK (logged): both delivery paths then answer the same way.
 */
void swnic_fabric_respond(struct swnic *nic, struct swnic_fabric *fabric, const struct swnic_req *req,
			  struct swnic_resp *resp, void *read_buf);

/* The responder's verdict on a request from its header; a failed or nonsensical check refuses it. */
void swnic_fabric_check_header(struct swnic_fabric *f, const struct swnic_req *req, struct swnic_req_verdict *v);

/* How long the responder may take over a request of len bytes before it answers. */
static inline uint64_t swnic_fabric_exec_budget_ns(uint64_t timeout_ns, uint32_t len)
{
	uint64_t exec = (uint64_t)len * 1000000000ull / SWNIC_FABRIC_EXEC_MIN_RATE;

	return timeout_ns > UINT64_MAX - exec ? UINT64_MAX : timeout_ns + exec;
}

/* swnic_fabric_server.c: listener + one thread per incoming connection. */
doca_error_t swnic_fabric_server_start(struct swnic_fabric *fabric);
void swnic_fabric_server_stop(struct swnic_fabric *fabric);

/*
 * swnic_fabric_serve.c: the thread of one incoming connection (arg: its struct
 * swnic_server_conn). Serves frames until the peer leaves, a frame fails validation or a
 * deadline passes; then shuts the socket down and sets done.
 */
void *swnic_fabric_serve_conn(void *arg);

/*
 * swnic_fabric_auth.c: the connection handshake (hellos, and the shared-secret proofs
 * when both sides have OPENGDA_SWNIC_SECRET). Server side: within sc's handshake deadline;
 * false: the connection must close (logged); an authenticated connection becomes trusted.
 * Client side, on a freshly connected fd: DOCA_SUCCESS, a transport error
 * (TIME_OUT / CONNECTION_RESET) or DOCA_ERROR_NOT_PERMITTED (secrets do not match; logged).
 */
bool swnic_fabric_auth_server(struct swnic_server_conn *sc);
doca_error_t swnic_fabric_auth_client(struct swnic_fabric *f, int fd, const struct swnic_endpoint *ep,
				      uint64_t deadline);

/* swnic_fabric_client.c: request / response over a pooled connection to ep. */
doca_error_t swnic_fabric_client_deliver(struct swnic_fabric *fabric, const struct swnic_endpoint *ep,
					 const struct swnic_req *req, struct swnic_resp *resp, void *read_buf,
					 uint64_t timeout_ns);
void swnic_fabric_client_close_all(struct swnic_fabric *fabric);
/*
 * A connection of the pool to ep, held (busy) until given back; for a pipe
 * (swnic_fabric_pipe.c): a shared-memory channel where ep is reachable through one, else
 * TCP (as swnic_fabric_client_deliver chooses). Transport errors as connecting gives them.
 */
doca_error_t swnic_fabric_client_take(struct swnic_fabric *fabric, const struct swnic_endpoint *ep,
				      uint64_t deadline, struct swnic_client_conn **out);
/*
 * Reads the response to the request request_id (req) from TCP connection c: its prefix by
 * first_deadline_ns, the rest and READ data into read_buf each bounded by progress
 * (timeout_ns). *closing: the server closes the connection after it (or it is unusable).
 * DOCA_ERROR_INVALID_VALUE: a malformed response (logged); else the socket's errors.
 */
doca_error_t swnic_fabric_recv_resp(struct swnic_fabric *fabric, struct swnic_client_conn *c,
				    const struct swnic_req *req, uint64_t request_id, struct swnic_resp *resp,
				    void *read_buf, uint64_t first_deadline_ns, uint64_t timeout_ns, bool *closing);
/* Gives a channel back to the pool (reusable false: closes it). */
void swnic_fabric_client_give_back(struct swnic_fabric *fabric, struct swnic_client_conn *c, bool reusable);

#endif /* OGDA_SWNIC_FABRIC_PRIV_H_ */
