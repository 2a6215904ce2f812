/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/* doca_verbs_server_client: the state of one run and its phases. */
#ifndef SC_RUN_H_
#define SC_RUN_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample_verbs.h"
#include "sc_config.h"
#include "sc_proto.h"

struct sc_run {
	const struct sc_config *cfg;
	struct sample_dev dev;
	struct doca_verbs_cq *cq;  /* send and receive completions */
	struct doca_verbs_qp *qp;
	uint8_t *buf;              /* iters slots of size bytes */
	size_t buf_len;
	struct opengda_mr *mr;
	uint32_t lkey;
	uint32_t rkey;
	uint32_t psn;              /* this side's first send PSN */
	uint64_t seed;             /* the client's pattern seed (the server learns it from HELLO) */
	int listen_fd;
	int fd;                    /* the out-of-band connection */
	bool done_sent;            /* this side's verdict went out */
	struct sc_hello peer;
};

/* Opens the device and creates CQ, QP, buffer and memory region. Returns 0 or -1 (error line printed). */
int sc_setup(struct sc_run *r, const struct sc_config *cfg);
/* Connects out of band, exchanges HELLOs and brings the QP to RTS. Returns 0 or -1. */
int sc_connect(struct sc_run *r);
/* Releases everything sc_setup() and sc_connect() created (safe on a partly set-up run). */
void sc_teardown(struct sc_run *r);

/* The server's data phase and DONE exchange. Returns 0 when both ends succeeded. */
int sc_server_run(struct sc_run *r);
/* The client's data phase and DONE exchange. Returns 0 when both ends succeeded. */
int sc_client_run(struct sc_run *r);

/*
 * Receives the message of the given type and length. A DONE in its place is the peer
 * giving up: its reason is printed. Returns 0 or -1 (error line printed).
 */
int sc_recv(struct sc_run *r, enum sc_msg_type type, void *payload, uint32_t len, int timeout_ms, const char *what);
/* Sends this side's verdict (failed: the first error line is the reason). Returns 0 or -1. */
int sc_send_done(struct sc_run *r, bool failed, uint32_t verified);
/* Receives the peer's verdict. Returns 0 when the peer succeeded and verified every message. */
int sc_recv_done(struct sc_run *r);
/* After a failure: tells a connected peer that has not had this side's verdict, without waiting. */
void sc_abort(struct sc_run *r);

/* "client" or "server": the other end. */
static inline const char *sc_peer_role(const struct sc_run *r)
{
	return r->cfg->server_ip == NULL ? "client" : "server";
}

/* Slot i of the buffer. */
static inline uint8_t *sc_slot(const struct sc_run *r, uint32_t i)
{
	return r->buf + (size_t)i * r->cfg->size;
}

#endif /* SC_RUN_H_ */
