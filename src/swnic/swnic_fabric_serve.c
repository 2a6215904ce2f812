/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One incoming fabric connection (swnic_fabric_server.c gives each its thread): reads
 * request frames, validates every field, executes the request on this NIC and sends the
 * response. A frame that fails validation is never executed and closes its connection
 * (one log line).
 *
 * Payload memory: a request is judged from its header (swnic_responder_check) before its
 * payload is read, so a stranger's or a refused request costs none (docs/swnic.md §11.4):
 * a small refused payload is read and dropped, a large one not kept (answer, then close).
 * A large WRITE streams into its target a chunk at a time; other payloads are buffered
 * whole up to SWNIC_FABRIC_MAX_BUFFERED.
 *
 * Deadlines, so that nobody can hold a serving thread for free:
 *  - handshake: until it has authenticated with the shared secret (swnic_fabric_auth.c)
 *    or one of its requests has passed the responder's admission, a connection must
 *    complete the handshake and deliver every request header before accept + the
 *    handshake timeout;
 *    a stranger that connects and idles, or only asks for QPs that are not its own, is
 *    closed then. A peer's connection (trusted) may then idle between frames for ever:
 *    requesters pool their connections.
 *  - frame: once a frame's first byte has arrived, no wait for its next bytes (or for the
 *    peer to take the response) may exceed the frame timeout.
 */
#include "swnic/swnic_fabric_priv.h"

#include "core/log.h"
#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_fabric_shm.h"
#include "swnic/swnic_sock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define PAYLOAD_FIRST_CHUNK (64u * 1024u)
#define PAYLOAD_KEEP_MAX (1u << 20) /* larger buffers are freed after their frame */
#define LINGER_MS 1000u /* longest drop of an unread payload before a close (linger_close) */

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

/* Resizes b's payload buffer to n bytes (0: frees it), keeping the fabric's count of payload bytes held. */
static doca_error_t buf_resize(struct swnic_fabric *f, struct conn_buffers *b, size_t n)
{
	uint_fast64_t now, hwm;
	uint8_t *p = NULL;

	if (n > 0) {
		p = realloc(b->payload, n);
		if (p == NULL)
			return DOCA_ERROR_NO_MEMORY;
	} else {
		free(b->payload);
	}
	if (n >= b->payload_cap) {
		now = atomic_fetch_add(&f->stats.payload_buffered, n - b->payload_cap) + (n - b->payload_cap);
		hwm = atomic_load(&f->stats.payload_buffered_hwm);
		while (now > hwm && !atomic_compare_exchange_weak(&f->stats.payload_buffered_hwm, &hwm, now))
			;
	} else {
		atomic_fetch_sub(&f->stats.payload_buffered, b->payload_cap - n);
	}
	b->payload = p;
	b->payload_cap = n;
	return DOCA_SUCCESS;
}

/* Receives len payload bytes into b->payload, growing it as data arrives; *done: how many came. */
static doca_error_t recv_payload(struct swnic_server_conn *sc, struct conn_buffers *b, uint32_t len, size_t *done_out)
{
	size_t done = 0;
	doca_error_t err = DOCA_SUCCESS;

	while (done < len) {
		size_t got = 0;
		size_t upto;

		if (done == b->payload_cap) {
			size_t n = b->payload_cap ? b->payload_cap * 2 : PAYLOAD_FIRST_CHUNK;

			if (n > len)
				n = len;
			err = buf_resize(sc->fabric, b, n);
			if (err != DOCA_SUCCESS)
				break;
		}
		upto = b->payload_cap < len ? b->payload_cap : len;
		err = swnic_sock_recv_all(sc->fd, b->payload + done, upto - done, frame_deadline(sc, false), &got);
		done += got;
		if (err != DOCA_SUCCESS)
			break;
	}
	*done_out = done;
	return err;
}

/* closing: the connection ends after this response; the peer must not send on it again. */
static doca_error_t send_response(struct swnic_server_conn *sc, uint64_t id, const struct swnic_resp *resp,
				  void *read_buf, bool closing)
{
	uint8_t hdr[SWNIC_FRAME_RESP_HDR_LEN];
	struct iovec iov[2];
	doca_error_t err;

	err = swnic_frame_encode_resp(id, resp, sc->fabric->max_msg, hdr);
	if (err != DOCA_SUCCESS)
		return err;
	if (closing)
		swnic_frame_mark_closing(hdr);
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
	if (err == DOCA_ERROR_NO_MEMORY)
		snprintf(why, sizeof(why), "no memory for the %s after %zu of %zu bytes", what, got, want);
	else
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

void swnic_fabric_check_header(struct swnic_fabric *f, const struct swnic_req *req, struct swnic_req_verdict *v)
{
	doca_error_t err;

	memset(v, 0, sizeof(*v));
	if (f->responder != NULL && f->check == NULL)
		return; /* a test's responder without a header check: ACK, nothing streamed */
	if (f->check != NULL)
		err = f->check(f->responder_ctx, f->nic, req, v);
	else
		err = swnic_responder_check(f->nic, req, v);
	if (err != DOCA_SUCCESS || v->status > SWNIC_RESP_NO_QP) {
		OGDA_LOG_ERR("%s: header check failed on op %u to QP 0x%x (%s, status %u); answering REMOTE_OP",
			     f->nic->name, req->op, req->dst_qpn, doca_error_get_name(err), v->status);
		memset(v, 0, sizeof(*v));
		v->status = SWNIC_RESP_NAK_REMOTE_OP;
	}
}

/* Sends the answer to a request and counts it served. false: the connection is finished. */
static bool answer(struct swnic_server_conn *sc, const struct swnic_frame_prefix *prefix,
		   const struct swnic_resp *resp, void *read_buf, bool closing)
{
	struct swnic_fabric *f = sc->fabric;
	doca_error_t err;

	atomic_fetch_add(&f->stats.frames_served, 1);
	if (resp->status != SWNIC_RESP_NO_QP)
		atomic_store(&sc->trusted, true);
	err = send_response(sc, prefix->request_id, resp, read_buf, closing);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_DBG("%s: fabric: response to %s not sent: %s", f->nic->name, sc->peer,
			     doca_error_get_name(err));
		return false;
	}
	return true;
}

/*
 * Ends a connection whose peer may still be sending a payload nobody will read. Closing
 * with unread bytes would reset the connection, and a reset may discard the answer just
 * sent before the peer reads it; so the answer is followed by a FIN, and what the peer
 * still sends is dropped through a small scratch buffer (never kept) until it stops or
 * LINGER_MS pass.
 */
static void linger_close(struct swnic_server_conn *sc)
{
	uint8_t scratch[16384];
	uint64_t deadline = swnic_deadline_after(LINGER_MS * 1000000ull);
	size_t got;

	shutdown(sc->fd, SHUT_WR);
	while (swnic_sock_recv_all(sc->fd, scratch, sizeof(scratch), deadline, &got) == DOCA_SUCCESS)
		;
}

/*
 * A request refused from its header: its payload is never executed. A small one is read
 * and dropped, so a peer's NAK costs no reconnection; a large one is not read at all: the
 * answer goes out and the connection closes.
 */
static bool refuse(struct swnic_server_conn *sc, struct conn_buffers *b, const struct swnic_frame_prefix *prefix,
		   uint8_t status)
{
	struct swnic_fabric *f = sc->fabric;
	struct swnic_resp resp;
	doca_error_t err;
	size_t got;

	memset(&resp, 0, sizeof(resp));
	resp.status = status;
	if (prefix->payload_len <= SWNIC_FABRIC_DRAIN_MAX) {
		err = recv_payload(sc, b, prefix->payload_len, &got);
		if (err != DOCA_SUCCESS) {
			recv_failed(sc, err, "payload", got, prefix->payload_len);
			return false;
		}
		return answer(sc, prefix, &resp, NULL, false);
	}
	OGDA_LOG_WARN("%s: fabric: request from %s refused (status %u) before its %u-byte payload; closing the connection",
		      f->nic->name, sc->peer, status, prefix->payload_len);
	if (answer(sc, prefix, &resp, NULL, true))
		linger_close(sc);
	return false;
}

/*
 * A WRITE larger than a chunk, already judged from its header: each chunk, as it arrives,
 * is executed as the WRITE of its part of the target at the PSN of its first packet (a
 * chunk is a whole number of MTUs), as the packets of the message would be. The first
 * chunk that is not acknowledged ends the message: its answer goes out, the rest is not
 * read and the connection closes.
 */
static bool serve_streamed(struct swnic_server_conn *sc, struct conn_buffers *b, const struct swnic_frame_prefix *prefix,
			   const struct swnic_req *req, uint32_t mtu_bytes)
{
	struct swnic_fabric *f = sc->fabric;
	struct swnic_req part = *req;
	struct swnic_resp resp;
	uint32_t off = 0;
	doca_error_t err;
	size_t got;

	memset(&resp, 0, sizeof(resp));
	while (off < req->len && resp.status == SWNIC_RESP_ACK) {
		uint32_t n = req->len - off < SWNIC_FABRIC_STREAM_CHUNK ? req->len - off : SWNIC_FABRIC_STREAM_CHUNK;

		err = recv_payload(sc, b, n, &got);
		if (err != DOCA_SUCCESS) {
			recv_failed(sc, err, "payload", off + got, req->len);
			return false;
		}
		part.raddr = req->raddr + off;
		part.len = n;
		part.psn = (req->psn + off / mtu_bytes) & 0xffffffu;
		part.payload = b->payload;
		swnic_fabric_respond(f->nic, f, &part, &resp, NULL);
		off += n;
	}
	if (!answer(sc, prefix, &resp, NULL, off < req->len))
		return false;
	if (off < req->len) {
		OGDA_LOG_DBG("%s: fabric: WRITE from %s refused after %u of %u bytes; closing the connection",
			     f->nic->name, sc->peer, off, req->len);
		linger_close(sc);
		return false;
	}
	return true;
}

/* Reads, validates and serves one frame. false: the connection is finished. */
static bool serve_one(struct swnic_server_conn *sc, struct conn_buffers *b)
{
	struct swnic_fabric *f = sc->fabric;
	struct swnic_frame_prefix prefix;
	struct swnic_req_verdict verdict;
	struct swnic_req req;
	struct swnic_resp resp;
	void *read_buf = NULL;
	doca_error_t err;
	size_t got;
	bool ok;

	if (!read_request(sc, &prefix, &req))
		return false;
	if (prefix.payload_len > 0) {
		swnic_fabric_check_header(f, &req, &verdict);
		if (verdict.status != SWNIC_RESP_ACK)
			return refuse(sc, b, &prefix, verdict.status);
		atomic_store(&sc->trusted, true);
		if (req.op == SWNIC_REQ_WRITE && req.len > SWNIC_FABRIC_STREAM_CHUNK && verdict.mtu_bytes != 0 &&
		    SWNIC_FABRIC_STREAM_CHUNK % verdict.mtu_bytes == 0)
			return serve_streamed(sc, b, &prefix, &req, verdict.mtu_bytes);
		if (prefix.payload_len > SWNIC_FABRIC_MAX_BUFFERED) {
			OGDA_LOG_ERR("%s: fabric: op %u of %u bytes from %s: over the %u bytes the fabric buffers",
				     f->nic->name, req.op, req.len, sc->peer, SWNIC_FABRIC_MAX_BUFFERED);
			return refuse(sc, b, &prefix, SWNIC_RESP_NAK_INVALID_REQ);
		}
	}
	err = recv_payload(sc, b, prefix.payload_len, &got);
	if (err != DOCA_SUCCESS) {
		recv_failed(sc, err, "payload", got, prefix.payload_len);
		return false;
	}
	req.payload = prefix.payload_len > 0 ? b->payload : NULL;
	if (!swnic_fabric_fault_pass(f, &req))
		return false; /* a test's lossy link: no answer, the connection goes */
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
	ok = answer(sc, &prefix, &resp, read_buf, false);
	free(read_buf);
	if (b->payload_cap > PAYLOAD_KEEP_MAX)
		buf_resize(f, b, 0);
	return ok;
}

void *swnic_fabric_serve_conn(void *arg)
{
	struct swnic_server_conn *sc = arg;
	struct conn_buffers b = {NULL, 0};

	if (swnic_fabric_auth_server(sc)) {
		if (sc->unix_conn)
			swnic_fabric_shm_serve(sc);
		else
			while (serve_one(sc, &b))
				;
	}
	buf_resize(sc->fabric, &b, 0);
	/* Wake up the peer now; the fd itself is closed by whoever joins this thread. */
	shutdown(sc->fd, SHUT_RDWR);
	atomic_store(&sc->done, true);
	return NULL;
}
