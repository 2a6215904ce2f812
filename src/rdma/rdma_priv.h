/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma (doca_rdma.h): the context (rdma.c: attributes, start, stop, device handle) and its
 * connections (rdma_conn.c: out-of-band export and connect).
 */
#ifndef OGDA_RDMA_RDMA_PRIV_H_
#define OGDA_RDMA_RDMA_PRIV_H_

#include "doca_core/core_priv.h"

#include "doca_gpunetio_high_level.h"
#include "doca_rdma.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

/* What doca_rdma_export hands the peer (host byte order; a magic and a version reject the rest). */
#define RDMA_CONN_MAGIC 0x4f47444152444d41ull /* "OGDARDMA" */
#define RDMA_CONN_VERSION 1u

struct rdma_conn_details {
	uint64_t magic;
	uint32_t version;
	uint32_t qpn;
	uint8_t gid[16];
	uint32_t lid;
	uint32_t psn;
};

/* Where a connection made by the connection manager (rdma_cm.c) stands. */
enum rdma_cm_state {
	RDMA_CM_NONE,        /* free, or made out of band */
	RDMA_CM_CONNECTING,  /* client: TCP connect in progress */
	RDMA_CM_REQ_SENT,    /* client: waiting for accept or reject */
	RDMA_CM_WAIT_REQ,    /* server: connection accepted, its request not read yet */
	RDMA_CM_REQUESTED,   /* server: request_cb ran; waiting for doca_rdma_connection_accept / _reject */
	RDMA_CM_ACCEPTED,    /* server: accepted; waiting for the client's confirmation */
	RDMA_CM_ESTABLISHED, /* both: established_cb ran */
	RDMA_CM_CLOSED,      /* disconnected or failed after the QP was connected: not reused */
};

/* The peer of a connection-manager connection, and a doca_rdma_addr's text form. */
struct doca_rdma_addr {
	enum doca_rdma_addr_type type;
	uint16_t port;
	char text[64];
	struct sockaddr_storage sa;
	socklen_t sa_len;
};

struct doca_rdma_connection {
	struct doca_rdma *rdma;
	uint32_t id;
	bool exported, connected;
	struct doca_gpu_verbs_qp_hl *qp;
	struct rdma_conn_details local;
	/* connection manager */
	struct rdma_conn_details remote; /* the requester's (server side) */
	enum rdma_cm_state cm;
	int fd;                   /* its TCP connection, -1 when none */
	uint64_t deadline_ns;     /* of the attempt in progress */
	union doca_data user_data;
	struct doca_rdma_addr peer;
	bool has_peer;
	size_t rx_len;            /* bytes of rx received */
	uint8_t rx[512];          /* one wire message (rdma_cm.c) */
};

struct doca_rdma {
	struct doca_ctx ctx; /* first: doca_rdma_as_ctx, and back in the ops */
	struct doca_dev *dev;
	uint32_t permissions, gid_index, sq_size, rq_size, nconn;
	uint64_t wait_timeout_ns;
	/* while running */
	struct doca_verbs_pd *pd;
	struct doca_rdma_connection *conns; /* nconn */
	struct doca_gpu_dev_rdma *handle;   /* in the data path's memory */
	/* connection manager (rdma_cm.c) */
	doca_rdma_connection_request_cb_t cm_request_cb;
	doca_rdma_connection_established_cb_t cm_established_cb;
	doca_rdma_connection_failure_cb_t cm_failure_cb;
	doca_rdma_connection_disconnection_cb_t cm_disconnect_cb;
	uint16_t cm_timeout_ms;
	int listen_fd; /* -1 when not listening */
	uint16_t listen_port;
	/* the receive side every connection shares (rdma_recv.c) */
	struct doca_verbs_srq *srq;
	struct doca_verbs_cq *recv_cq;
	struct opengda_gpu_verbs_srq *srq_export;
	struct opengda_gpu_dev_verbs_srq *srq_dev;
};

/* A free connection with its local details filled in (export, connection manager); NULL when none. */
struct doca_rdma_connection *rdma_conn_take(struct doca_rdma *rdma, const char *func);
/* Connects @c's QP to the peer whose details (from the peer's export) are given. */
doca_error_t rdma_conn_link(struct doca_rdma_connection *c, const struct rdma_conn_details *peer);
/* Whether the context runs. */
bool rdma_running(const struct doca_rdma *rdma);

/* Connection manager: the context's progress (doca_pe_progress) and its end at stop. */
uint8_t rdma_cm_progress(struct doca_ctx *ctx);
void rdma_cm_close_all(struct doca_rdma *rdma);

/* The shared SRQ and receive CQ, exported (start); and their release (stop, failed start). */
doca_error_t rdma_recv_create(struct doca_rdma *r);
void rdma_recv_destroy(struct doca_rdma *r);

#endif /* OGDA_RDMA_RDMA_PRIV_H_ */
