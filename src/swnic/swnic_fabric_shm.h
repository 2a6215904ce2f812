/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The same-host fabric: requests and responses through shared memory (docs/swnic.md §11.2).
 *
 * A requester that finds its destination's Unix socket (swnic_sock_connect_unix: the
 * abstract name of the destination's endpoint, reachable only from this host) runs the
 * same hello / shared-secret handshake on it as on TCP, then hands the server a sealed
 * memfd (SCM_RIGHTS) holding one channel: a control page and a data area. Each exchange:
 *
 *   requester: request header (the TCP frame's encoding) into the request's slot, payload
 *              into the data area, req_seq + 1, wake the server if it sleeps;
 *   server:    for each request up to req_seq, in order: copies the header out, validates
 *              it exactly as a TCP frame (swnic_frame_decode_req), judges it
 *              (swnic_fabric_check_header) and executes it with swnic_fabric_respond (READ
 *              data lands in the request's data range), writes the response header into
 *              the slot, resp_seq = its number, wakes the requester;
 *   requester: validates the response as one from TCP (swnic_frame_decode_resp / check_resp).
 *
 * A pooled exchange (swnic_fabric_shm_exchange) has one request in flight, as on a TCP
 * connection; a pipe (swnic_fabric_pipe.h) keeps up to SWNIC_SHM_SLOTS in flight, in order.
 * The pool of swnic_fabric_client.c holds channels as it holds connections. Waiting follows OPENGDA_SWNIC_POLL (swnic_poll.h):
 * spin, then a futex on the sequence word. A party whose peer died sees its Unix socket hang
 * up (checked at least every SWNIC_SHM_HUP_CHECK_NS while waiting): CONNECTION_RESET, as a
 * reset TCP connection. The server maps only a memfd sealed against resizing (no SIGBUS) and
 * of exactly the expected size.
 */
#ifndef OGDA_SWNIC_FABRIC_SHM_H_
#define OGDA_SWNIC_FABRIC_SHM_H_

#include "doca_error.h"
#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_fabric_priv.h"
#include "swnic/swnic_ipc.h"
#include "swnic/swnic_poll.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest payload or READ a channel carries; larger requests travel over TCP. The most the
 * TCP server buffers, so a SEND refused there as too large is refused the same way. */
#define SWNIC_SHM_DATA_CAP SWNIC_FABRIC_MAX_BUFFERED
/* Requests a channel holds at once: a pipe (swnic_fabric_pipe.h) keeps up to this many in flight. */
#define SWNIC_SHM_SLOTS 32u
#define SWNIC_SHM_CTL_SIZE 16384u
#define SWNIC_SHM_SIZE ((size_t)SWNIC_SHM_CTL_SIZE + SWNIC_SHM_DATA_CAP)
#define SWNIC_SHM_HUP_CHECK_NS 2000000ull /* longest a waiter goes without looking at its socket */
#define SWNIC_SHM_MAGIC 0x4f474433u       /* "OGD3": the offer that carries the memfd (slot ring with IPC references) */
#define SWNIC_ENV_SHM "OPENGDA_SWNIC_SHM"

/*
 * One request in the ring. Request number s (1, 2, ...) uses slot (s - 1) % SWNIC_SHM_SLOTS;
 * its payload, and its READ data on the way back, lie at data + data_off, data_len bytes
 * reserved there (the server checks the range against the data area before it uses it).
 * With ipc set (a WRITE or WRITE with immediate only), the payload is not in the data area
 * but in the requester's GPU memory that ipc_ref describes (swnic_ipc.h; data_len is 0).
 */
struct swnic_shm_slot {
	uint8_t req_hdr[SWNIC_FRAME_REQ_HDR_LEN];
	uint8_t resp_hdr[SWNIC_FRAME_RESP_HDR_LEN];
	uint32_t data_off;
	uint32_t data_len;
	uint32_t ipc;
	uint32_t reserved;
	struct swnic_ipc_ref ipc_ref;
};

/*
 * The control page at the start of a channel. req_seq is the number of the last request
 * written, resp_seq of the last one answered; the server answers in order, so every request
 * up to resp_seq has its answer in its slot, and the requester writes request s only once
 * s - resp_seq <= SWNIC_SHM_SLOTS.
 */
struct swnic_shm_ctl {
	_Alignas(64) atomic_uint req_seq;  /* bumped by the requester when requests are ready */
	atomic_uint server_sleeping;       /* the server waits in a futex on req_seq */
	_Alignas(64) atomic_uint resp_seq; /* the last request the server has answered */
	atomic_uint client_sleeping;       /* the requester waits in a futex on resp_seq */
	_Alignas(64) struct swnic_shm_slot slot[SWNIC_SHM_SLOTS];
};

_Static_assert(sizeof(struct swnic_shm_ctl) <= SWNIC_SHM_CTL_SIZE, "the slot ring must fit the control page");

static inline struct swnic_shm_slot *swnic_shm_slot_of(struct swnic_shm_ctl *ctl, unsigned seq)
{
	return &ctl->slot[(seq - 1u) % SWNIC_SHM_SLOTS];
}

/* A mapped channel. */
struct swnic_shm_map {
	int memfd;
	struct swnic_shm_ctl *ctl;
	uint8_t *data;             /* SWNIC_SHM_DATA_CAP bytes */
};

/* OPENGDA_SWNIC_SHM (boolean, default on): off keeps every other process on TCP. */
bool swnic_shm_enabled(void);
/* Whether req fits a channel (payload and READ data within SWNIC_SHM_DATA_CAP). */
bool swnic_shm_fits(const struct swnic_req *req);
/* Bytes of the data area req needs: its payload, or the data its READ brings back. */
uint32_t swnic_shm_data_need(const struct swnic_req *req);

/* Requester: a new sealed memfd of SWNIC_SHM_SIZE, mapped. */
doca_error_t swnic_shm_create(struct swnic_shm_map *m);
/* Server: maps a memfd received from a peer after checking its seals and size (why says what failed). */
doca_error_t swnic_shm_adopt(int memfd, struct swnic_shm_map *m, char *why, size_t why_cap);
void swnic_shm_unmap(struct swnic_shm_map *m);

/* The offer: SWNIC_SHM_MAGIC and the data size (BE32 each) with the memfd attached. */
doca_error_t swnic_shm_send_offer(int sock, int memfd, uint64_t deadline_ns);
/* Receives an offer; *memfd is -1 unless DOCA_SUCCESS. */
doca_error_t swnic_shm_recv_offer(int sock, uint64_t deadline_ns, int *memfd, char *why, size_t why_cap);

/* Publishes seq in word and wakes a party sleeping on it (sock: the channel's socket, see the TSan note). */
void swnic_shm_post(atomic_uint *word, atomic_uint *sleeping, unsigned seq, int sock);
/* Whether the sequence word has reached seq (with the acquire a wait that sees it gives). */
bool swnic_shm_reached(atomic_uint *word, unsigned seq);
/*
 * Waits until *word != old: DOCA_SUCCESS; DOCA_ERROR_TIME_OUT at deadline_ns;
 * DOCA_ERROR_CONNECTION_RESET when sock hung up (the peer died or the channel is shut down).
 */
doca_error_t swnic_shm_wait(atomic_uint *word, unsigned old, atomic_uint *sleeping, int sock, uint64_t deadline_ns,
			    const struct swnic_poll_cfg *poll);

/* swnic_fabric_shm_serve.c: serves the channel offered on sc's (authenticated) Unix socket. */
void swnic_fabric_shm_serve(struct swnic_server_conn *sc);

/* swnic_fabric_shm_client.c: offers a new channel (*m, mapped on success) on a fresh, authenticated Unix socket. */
doca_error_t swnic_fabric_shm_open(struct swnic_fabric *f, int fd, uint64_t deadline, struct swnic_shm_map *m);
/* One request / response exchange on a channel; *reusable as for a TCP exchange. */
doca_error_t swnic_fabric_shm_exchange(struct swnic_fabric *f, struct swnic_client_conn *c,
				       const struct swnic_req *req, struct swnic_resp *resp, void *read_buf,
				       uint64_t timeout_ns, bool *reusable);

#endif /* OGDA_SWNIC_FABRIC_SHM_H_ */
