/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A pipe: one requester QP's ordered path to a NIC of another process, with up to
 * SWNIC_SHM_SLOTS requests in flight (docs/swnic.md §11.7). It holds one connection of the
 * pool (swnic_fabric_client.c) while it is in use — a shared-memory channel to a process of
 * this host, else TCP — so the QP's requests are executed by one server thread in the order
 * they were posted, as RC requires; answers are taken in the same order.
 *
 * Over TCP the requests and answers in flight are bounded in bytes (SWNIC_PIPE_TCP_BYTES):
 * the server answers each request before it reads the next, so as long as every answer in
 * flight fits the requester's socket buffer the server never blocks on a full socket while
 * the requester blocks sending: neither side can wait for the other. A larger message is
 * not carried (NOT_SUPPORTED): it goes alone, streamed by swnic_fabric_deliver.
 *
 * The pipe does not decide what a failure means: the requester (swnic_window.c) retries from
 * the oldest request (go-back-N). Before it resends, it resets the pipe with drain, so every
 * request sent earlier has been answered (and, if it ran at all, ran) before its copy goes
 * out again; the responder's PSN check then acknowledges a copy of a request that ran
 * without running it twice.
 *
 * One thread uses a pipe at a time (the QP's engine thread). Pipes are finished before their
 * NIC's fabric is destroyed (the engine goes first, swnic_core.c).
 */
#ifndef OGDA_SWNIC_FABRIC_PIPE_H_
#define OGDA_SWNIC_FABRIC_PIPE_H_

#include "doca_error.h"
#include "swnic/swnic.h"
#include "swnic/swnic_fabric_shm.h"

#include <stdbool.h>
#include <stdint.h>

/* A pipe with nothing in flight gives its channel back to the pool after this long. */
#define SWNIC_PIPE_IDLE_NS 100000000ull
/* Over TCP: request headers, payloads, answers and READ data in flight, at most (bytes). */
#define SWNIC_PIPE_TCP_BYTES (64u * 1024u)

struct swnic_fabric_pipe {
	struct swnic *nic;               /* the requester's NIC */
	struct swnic_client_conn *conn;  /* the channel, NULL when none is held */
	uint8_t gid[16];                 /* destination of the channel held */
	uint8_t direct_gid[16];          /* last destination found in this process (delivered directly) */
	bool direct_known;
	uint32_t posted, answered;       /* requests sent / answers taken on the channel held */
	uint32_t data_head, data_tail;   /* the data area as a ring: next free byte, oldest live byte */
	uint32_t tcp_bytes;              /* TCP: bytes of the requests in flight and their answers */
	bool closing;                    /* TCP: the server closes after an answer taken; post nothing more */
	uint8_t *scratch;                /* TCP: where a drain puts READ data nobody wants, and GPU
					    payloads go through on their way to the socket */
	bool ipc_ok;                     /* shm: GPU payloads may go as CUDA IPC references */
	struct swnic_ipc_export_cache ipc_cache;
	uint64_t last_use_ns;
	struct {
		struct swnic_req req;    /* as posted, without its payload: what the answer is checked against */
		uint64_t request_id;
		uint64_t deadline_ns;    /* the answer is due by then */
		uint64_t timeout_ns;     /* progress bound while the answer arrives */
		uint32_t data_off, data_len; /* shm: its data range; TCP: its bytes in tcp_bytes */
	} inflight[SWNIC_SHM_SLOTS];
};

/* An empty pipe for requests of nic. */
void swnic_fabric_pipe_init(struct swnic_fabric_pipe *p, struct swnic *nic);

/* Requests posted and not answered yet. */
static inline uint32_t swnic_fabric_pipe_outstanding(const struct swnic_fabric_pipe *p)
{
	return p->posted - p->answered;
}

/*
 * Sends req to the QP req->dst_qpn of the NIC whose GID is gid, behind the requests in
 * flight; its answer is due timeout_ns plus the message's execution budget from now.
 * DOCA_SUCCESS: posted. *by_reference false: req->payload has been copied, the caller may
 * release it; true: the payload stays where it is until the answer is taken (a GPU payload
 * sent as a CUDA IPC reference, swnic_ipc.h), so the caller holds its MR until then.
 * A GPU payload (req->payload_kind OGDA_MEM_GPU, a WRITE or WRITE_IMM) needs payload_mr,
 * the attributes of the MR held for it: on a shared-memory channel it goes by reference
 * when swnic_ipc_export allows, else it is copied into the channel, or over TCP into the
 * pipe's buffer.
 * DOCA_ERROR_AGAIN: no room now (slots or data area): take answers first.
 * DOCA_ERROR_NOT_SUPPORTED: not through a pipe (a NIC of this process, a message larger than
 * a channel, or over TCP larger than SWNIC_PIPE_TCP_BYTES): deliver it with
 * swnic_fabric_deliver once nothing is in flight (a GPU payload as host bytes).
 * DOCA_ERROR_NOT_CONNECTED / CONNECTION_RESET / TIME_OUT: no channel could be opened;
 * nothing was sent (a transport failure of the attempt).
 * DOCA_ERROR_IO_FAILED: a GPU payload could not be read into host memory (logged); nothing
 * was sent.
 * DOCA_ERROR_INVALID_VALUE: req is malformed (logged); nothing was sent.
 */
doca_error_t swnic_fabric_pipe_post(struct swnic_fabric_pipe *p, const uint8_t gid[16], const struct swnic_req *req,
				    const struct swnic_mr *payload_mr, uint64_t timeout_ns, bool *by_reference);

/*
 * The answer to the oldest request in flight, which must be req (as posted). block: wait for
 * it (OPENGDA_SWNIC_POLL) until it is due; else only look.
 * DOCA_SUCCESS: *resp holds it (READ data copied to read_buf, req->len bytes).
 * DOCA_ERROR_AGAIN: not yet (block false).
 * DOCA_ERROR_TIME_OUT / CONNECTION_RESET: no answer in time, the peer hung up, or the answer
 * was malformed (logged): the channel is dropped and every request in flight is forgotten.
 * DOCA_ERROR_BAD_STATE: nothing is in flight.
 */
doca_error_t swnic_fabric_pipe_answer(struct swnic_fabric_pipe *p, const struct swnic_req *req,
				      struct swnic_resp *resp, void *read_buf, bool block);

/*
 * Forgets every request in flight. drain: first waits (each until it is due) for their
 * answers and drops them, so none of them can still run once this returns, and keeps the
 * channel; a channel that does not answer in time is dropped. Without drain the channel is
 * dropped at once.
 */
void swnic_fabric_pipe_reset(struct swnic_fabric_pipe *p, bool drain);

/* Gives the channel back to the pool when nothing has been in flight for SWNIC_PIPE_IDLE_NS. */
void swnic_fabric_pipe_idle(struct swnic_fabric_pipe *p, uint64_t now_ns);

/* Drops whatever is in flight and gives the channel back; the pipe may be used again. */
void swnic_fabric_pipe_fini(struct swnic_fabric_pipe *p);

#endif /* OGDA_SWNIC_FABRIC_PIPE_H_ */
