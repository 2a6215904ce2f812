/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One incoming fabric connection (swnic_fabric_server.c gives each its thread): reads
 * request frames, validates every field, executes the request on this NIC and sends the
 * response. A frame that fails validation is never executed and closes its connection
 * (one log line).
 *
 * Deadlines, so that nobody can hold a serving thread for free:
 *  - handshake: until one of its requests has passed the responder's admission, a
 *    connection must deliver every request header before accept + the handshake timeout;
 *    a stranger that connects and idles, or only asks for QPs that are not its own, is
 *    closed then. A peer's connection (trusted) may then idle between frames for ever:
 *    requesters pool their connections.
 *  - frame: once a frame's first byte has arrived, no wait for its next bytes (or for the
 *    peer to take the response) may exceed the frame timeout.
 */
#include "swnic/swnic_fabric_priv.h"

#include "core/log.h"
#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_sock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define PAYLOAD_FIRST_CHUNK (64u * 1024u)
#define PAYLOAD_KEEP_MAX (1u << 20) /* larger buffers are freed after their frame */

struct conn_buffers {
	uint8_t *payload;
	size_t payload_cap;
};

static void reject(struct swnic_server_conn *sc, const char *why)
{
	struct swnic_fabric *f = sc->fabric;

	atomic_fetch_add(&f->stats.frames_rejected, 1);
	OGDA_LOG_ERR("%s: fabric: rejected frame from %s: %s; closing the connection", f->nic->name, sc->peer, why);
}

/* Waiting between frames: a stranger only until its handshake deadline. */
static uint64_t idle_deadline(const struct swnic_server_conn *sc)
{
	return atomic_load(&sc->trusted) ? SWNIC_SOCK_NO_DEADLINE : sc->handshake_deadline;
}

/* The next bytes of a frame: within the frame timeout, and a stranger's header within its handshake. */
static uint64_t frame_deadline(const struct swnic_server_conn *sc, bool header)
{
	uint64_t d = swnic_deadline_after(sc->fabric->frame_timeout_ns);

	if (header && !atomic_load(&sc->trusted) && sc->handshake_deadline < d)
		d = sc->handshake_deadline;
	return d;
}

/* Receives len payload bytes into b->payload, growing it as data arrives. */
static doca_error_t recv_payload(struct swnic_server_conn *sc, struct conn_buffers *b, uint32_t len)
{
	size_t done = 0;

	while (done < len) {
		size_t got = 0;
		size_t upto;
		doca_error_t err;

		if (done == b->payload_cap) {
			size_t n = b->payload_cap ? b->payload_cap * 2 : PAYLOAD_FIRST_CHUNK;
			uint8_t *p;

			if (n > len)
				n = len;
			p = realloc(b->payload, n);
			if (p == NULL)
				return DOCA_ERROR_NO_MEMORY;
			b->payload = p;
			b->payload_cap = n;
		}
		upto = b->payload_cap < len ? b->payload_cap : len;
		err = swnic_sock_recv_all(sc->fd, b->payload + done, upto - done, frame_deadline(sc, false), &got);
		done += got;
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

static doca_error_t send_response(struct swnic_server_conn *sc, uint64_t id, const struct swnic_resp *resp,
				  void *read_buf)
{
	uint8_t hdr[SWNIC_FRAME_RESP_HDR_LEN];
	struct iovec iov[2];
	doca_error_t err;

	err = swnic_frame_encode_resp(id, resp, sc->fabric->max_msg, hdr);
	if (err != DOCA_SUCCESS)
		return err;
	iov[0].iov_base = hdr;
	iov[0].iov_len = sizeof(hdr);
	iov[1].iov_base = read_buf;
	iov[1].iov_len = resp->read_len;
	return swnic_sock_send_all(sc->fd, iov, 2, frame_deadline(sc, false));
}

/* A receive that failed: the peer left, a deadline passed, or the frame was cut short. */
static void recv_failed(struct swnic_server_conn *sc, doca_error_t err, const char *what, size_t got, size_t want)
{
	struct swnic_fabric *f = sc->fabric;
	char why[SWNIC_FRAME_WHY_LEN];

	if (err == DOCA_ERROR_TIME_OUT) {
		atomic_fetch_add(&f->stats.conns_timed_out, 1);
		OGDA_LOG_WARN("%s: fabric: %s from %s: %zu of %zu bytes before the deadline; closing the connection",
			      f->nic->name, what, sc->peer, got, want);
		return;
	}
	snprintf(why, sizeof(why), "truncated %s: %zu of %zu bytes", what, got, want);
	reject(sc, why);
}

/* Reads and validates one request header into req. false: the connection is finished. */
static bool read_request(struct swnic_server_conn *sc, struct swnic_frame_prefix *prefix, struct swnic_req *req)
{
	struct swnic_fabric *f = sc->fabric;
	uint8_t hdr[SWNIC_FRAME_MAX_HDR_LEN];
	char why[SWNIC_FRAME_WHY_LEN];
	size_t got = 0;
	doca_error_t err;

	/* The first byte may take as long as the connection may idle; the rest is a frame. */
	err = swnic_sock_recv_all(sc->fd, hdr, 1, idle_deadline(sc), &got);
	if (err == DOCA_ERROR_TIME_OUT) {
		atomic_fetch_add(&f->stats.conns_timed_out, 1);
		OGDA_LOG_WARN("%s: fabric: %s completed no exchange within the handshake deadline; closing the connection",
			      f->nic->name, sc->peer);
		return false;
	}
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_DBG("%s: fabric: %s closed its connection", f->nic->name, sc->peer);
		return false;
	}
	err = swnic_sock_recv_all(sc->fd, hdr + 1, SWNIC_FRAME_PREFIX_LEN - 1, frame_deadline(sc, true), &got);
	if (err != DOCA_SUCCESS) {
		recv_failed(sc, err, "header", got + 1, SWNIC_FRAME_PREFIX_LEN);
		return false;
	}
	err = swnic_frame_decode_prefix(hdr, SWNIC_FRAME_PREFIX_LEN, f->max_msg, prefix, why, sizeof(why));
	if (err == DOCA_SUCCESS && prefix->type != SWNIC_FRAME_REQ) {
		snprintf(why, sizeof(why), "frame type %u where a request was expected", prefix->type);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err != DOCA_SUCCESS) {
		reject(sc, why);
		return false;
	}
	err = swnic_sock_recv_all(sc->fd, hdr + SWNIC_FRAME_PREFIX_LEN, prefix->header_len - SWNIC_FRAME_PREFIX_LEN,
				  frame_deadline(sc, true), &got);
	if (err != DOCA_SUCCESS) {
		recv_failed(sc, err, "header", SWNIC_FRAME_PREFIX_LEN + got, prefix->header_len);
		return false;
	}
	err = swnic_frame_decode_req(hdr, prefix->header_len, f->max_msg, prefix, req, why, sizeof(why));
	if (err != DOCA_SUCCESS) {
		reject(sc, why);
		return false;
	}
	return true;
}

/* Reads, validates and serves one frame. false: the connection is finished. */
static bool serve_one(struct swnic_server_conn *sc, struct conn_buffers *b)
{
	struct swnic_fabric *f = sc->fabric;
	struct swnic_frame_prefix prefix;
	struct swnic_req req;
	struct swnic_resp resp;
	void *read_buf = NULL;
	doca_error_t err;

	if (!read_request(sc, &prefix, &req))
		return false;
	err = recv_payload(sc, b, prefix.payload_len);
	if (err != DOCA_SUCCESS) {
		/* got is not tracked across chunks: say what was announced. */
		recv_failed(sc, err, "payload", 0, prefix.payload_len);
		return false;
	}
	req.payload = prefix.payload_len > 0 ? b->payload : NULL;
	if (req.op == SWNIC_REQ_READ && req.len > 0) {
		read_buf = malloc(req.len);
		if (read_buf == NULL) {
			OGDA_LOG_ERR("%s: fabric: no memory for a %u-byte read from %s", f->nic->name, req.len,
				     sc->peer);
			memset(&resp, 0, sizeof(resp));
			resp.status = SWNIC_RESP_NAK_REMOTE_OP;
		}
	}
	if (read_buf != NULL || req.op != SWNIC_REQ_READ || req.len == 0)
		swnic_fabric_respond(f->nic, f, &req, &resp, read_buf);
	atomic_fetch_add(&f->stats.frames_served, 1);
	if (resp.status != SWNIC_RESP_NO_QP)
		atomic_store(&sc->trusted, true);
	err = send_response(sc, prefix.request_id, &resp, read_buf);
	free(read_buf);
	if (b->payload_cap > PAYLOAD_KEEP_MAX) {
		free(b->payload);
		b->payload = NULL;
		b->payload_cap = 0;
	}
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_DBG("%s: fabric: response to %s not sent: %s", f->nic->name, sc->peer,
			     doca_error_get_name(err));
		return false;
	}
	return true;
}

void *swnic_fabric_serve_conn(void *arg)
{
	struct swnic_server_conn *sc = arg;
	struct conn_buffers b = {NULL, 0};

	while (serve_one(sc, &b))
		;
	free(b.payload);
	/* Wake up the peer now; the fd itself is closed by whoever joins this thread. */
	shutdown(sc->fd, SHUT_RDWR);
	atomic_store(&sc->done, true);
	return NULL;
}
