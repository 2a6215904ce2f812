/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/* doca_verbs_server_client: resources, the out-of-band handshake and the QP connection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_oob.h"
#include "sample_pattern.h"
#include "sample_util.h"
#include "sc_run.h"

#define SC_BUF_ALIGN 4096u

static int is_server(const struct sc_run *r)
{
	return r->cfg->server_ip == NULL;
}

int sc_setup(struct sc_run *r, const struct sc_config *cfg)
{
	struct sample_qp_cfg qc;
	doca_error_t err;
	size_t need = (size_t)cfg->size * cfg->iters;

	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	r->listen_fd = -1;
	r->fd = -1;
	if (sample_dev_open(cfg->device, cfg->gid_index, &r->dev) != 0)
		return -1;
	/* One CQ for both directions: at most iters sends and iters receives are outstanding. */
	if (sample_cq_create(&r->dev, 2 * cfg->iters, &r->cq) != 0)
		return -1;
	memset(&qc, 0, sizeof(qc));
	qc.qp_type = cfg->qp_type;
	qc.sq_wr = cfg->iters;
	qc.rq_wr = cfg->op == SC_OP_SEND && cfg->server_ip == NULL ? cfg->iters : 0;
	qc.send_cq = r->cq;
	qc.recv_cq = r->cq;
	if (sample_qp_create(&r->dev, &qc, &r->qp) != 0)
		return -1;
	r->buf_len = (need + SC_BUF_ALIGN - 1) / SC_BUF_ALIGN * SC_BUF_ALIGN;
	r->buf = aligned_alloc(SC_BUF_ALIGN, r->buf_len);
	if (r->buf == NULL) {
		sample_err("cannot allocate %zu bytes", r->buf_len);
		return -1;
	}
	memset(r->buf, 0, r->buf_len);
	err = opengda_mr_create(r->dev.pd, r->buf, r->buf_len,
				IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ, &r->mr);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("opengda_mr_create", err);
		return -1;
	}
	(void)opengda_mr_get_lkey(r->mr, &r->lkey);
	(void)opengda_mr_get_rkey(r->mr, &r->rkey);
	r->seed = sample_pattern_new_seed();
	r->psn = (uint32_t)(r->seed >> 40) & 0xffffffu;
	return 0;
}

static void fill_hello(const struct sc_run *r, struct sc_hello *h)
{
	uint32_t qpn = 0;

	memset(h, 0, sizeof(*h));
	(void)doca_verbs_qp_get_qpn(r->qp, &qpn);
	h->addr = (uint64_t)(uintptr_t)r->buf;
	h->len = (uint32_t)r->buf_len;
	h->rkey = r->rkey;
	h->qpn = qpn;
	h->psn = r->psn;
	h->gid = r->dev.gid;
	h->lid = r->dev.port.lid;
	h->mtu = (uint8_t)r->dev.port.active_mtu;
	h->link_layer = (uint8_t)r->dev.port.link_layer;
	h->op = (uint8_t)r->cfg->op;
	h->qp_type = (uint8_t)r->cfg->qp_type;
	h->size = r->cfg->size;
	h->iters = r->cfg->iters;
	h->seed = r->seed;
}

static int send_hello(struct sc_run *r)
{
	uint8_t wire[SC_HELLO_LEN];
	struct sc_hello h;

	fill_hello(r, &h);
	sc_hello_encode(&h, wire);
	return sample_oob_send(r->fd, SC_MSG_HELLO, wire, sizeof(wire), r->cfg->timeout_ms);
}

static int recv_hello(struct sc_run *r)
{
	uint8_t wire[SC_HELLO_LEN];

	if (sc_recv(r, SC_MSG_HELLO, wire, sizeof(wire), r->cfg->timeout_ms, "connection info") != 0)
		return -1;
	sc_hello_decode(wire, &r->peer);
	return sc_hello_check(&r->peer, r->cfg, (uint8_t)r->dev.port.link_layer, sc_peer_role(r));
}

/* Server: wait for the client, learn its parameters and seed, answer with ours. */
static int server_handshake(struct sc_run *r)
{
	uint16_t port = 0;
	uint32_t i;

	if (sample_oob_listen(r->cfg->port, &r->listen_fd, &port) != 0)
		return -1;
	sample_info("server on %s listening on port %u", r->dev.name, port);
	if (sample_oob_accept(r->listen_fd, r->cfg->timeout_ms * SC_ACCEPT_TIMEOUTS, &r->fd) != 0)
		return -1;
	if (recv_hello(r) != 0)
		return -1;
	r->seed = r->peer.seed;
	/* What the client will read must be in place before it learns our address. */
	if (r->cfg->op == SC_OP_READ)
		for (i = 0; i < r->cfg->iters; i++)
			sample_pattern_fill(sc_slot(r, i), r->cfg->size, r->seed, i);
	return send_hello(r);
}

/* Client: connect (retrying while the server starts), send ours, check the server's. */
static int client_handshake(struct sc_run *r)
{
	uint32_t i;

	if (sample_oob_connect(r->cfg->server_ip, r->cfg->port, r->cfg->timeout_ms, &r->fd) != 0)
		return -1;
	if (r->cfg->op != SC_OP_READ)
		for (i = 0; i < r->cfg->iters; i++)
			sample_pattern_fill(sc_slot(r, i), r->cfg->size, r->seed, i);
	if (send_hello(r) != 0 || recv_hello(r) != 0)
		return -1;
	if (r->peer.seed != r->seed) {
		sample_err("the server echoed pattern seed 0x%llx, 0x%llx was sent", (unsigned long long)r->peer.seed,
			   (unsigned long long)r->seed);
		return -1;
	}
	return 0;
}

int sc_connect(struct sc_run *r)
{
	struct sample_peer peer;
	enum doca_verbs_mtu_size mtu = DOCA_VERBS_MTU_SIZE_256_BYTES;
	char lgid[64], pgid[64];
	uint32_t qpn = 0;

	if ((is_server(r) ? server_handshake(r) : client_handshake(r)) != 0)
		return -1;
	memset(&peer, 0, sizeof(peer));
	peer.qpn = r->peer.qpn;
	peer.psn = r->peer.psn;
	peer.gid = r->peer.gid;
	peer.lid = r->peer.lid;
	peer.mtu = (enum doca_verbs_mtu_size)r->peer.mtu;
	sample_gid_str(&r->dev.gid, lgid, sizeof(lgid));
	sample_gid_str(&peer.gid, pgid, sizeof(pgid));
	(void)doca_verbs_qp_get_qpn(r->qp, &qpn);
	sample_info("local QP 0x%x GID %s LID %u MTU %u <-> peer QP 0x%x GID %s LID %u MTU %u", qpn, lgid,
		    r->dev.port.lid, sample_mtu_bytes(r->dev.port.active_mtu), peer.qpn, pgid, peer.lid,
		    sample_mtu_bytes(peer.mtu));
	if (sample_qp_connect(&r->dev, r->qp, r->cfg->qp_type, r->psn, &peer, false) != 0)
		return -1;
	/* What the device applied, read back. */
	if (sample_qp_query_path_mtu(r->qp, &mtu) != 0)
		return -1;
	sample_info("QP 0x%x connected (%s, path MTU %u)", qpn, sc_qp_type_name(r->cfg->qp_type),
		    sample_mtu_bytes(mtu));
	return 0;
}

void sc_teardown(struct sc_run *r)
{
	doca_error_t err;

	if (r->qp != NULL && (err = doca_verbs_qp_destroy(r->qp)) != DOCA_SUCCESS)
		sample_err_doca("doca_verbs_qp_destroy", err);
	r->qp = NULL;
	if (r->cq != NULL && (err = doca_verbs_cq_destroy(r->cq)) != DOCA_SUCCESS)
		sample_err_doca("doca_verbs_cq_destroy", err);
	r->cq = NULL;
	if (r->mr != NULL && (err = opengda_mr_destroy(r->mr)) != DOCA_SUCCESS)
		sample_err_doca("opengda_mr_destroy", err);
	r->mr = NULL;
	sample_dev_close(&r->dev);
	free(r->buf);
	r->buf = NULL;
	sample_oob_close(&r->fd);
	sample_oob_close(&r->listen_fd);
}
