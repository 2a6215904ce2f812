/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Responder side of the TCP fabric: a listener thread accepts connections and gives each
 * its own thread, which reads request frames, validates every field, executes the request
 * on this NIC and sends the response. A frame that fails validation is never executed and
 * closes its connection (one log line); payload memory grows only as bytes actually
 * arrive, so a frame that announces much and sends little costs little.
 */
#include "swnic/swnic_fabric_priv.h"

#include "core/log.h"
#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

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

/* Receives len payload bytes into b->payload, growing it as data arrives. */
static doca_error_t recv_payload(int fd, struct conn_buffers *b, uint32_t len)
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
		err = swnic_sock_recv_all(fd, b->payload + done, upto - done, SWNIC_SOCK_NO_DEADLINE, &got);
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
	return swnic_sock_send_all(sc->fd, iov, 2, SWNIC_SOCK_NO_DEADLINE);
}

/* Reads, validates and serves one frame. false: the connection is finished. */
static bool serve_one(struct swnic_server_conn *sc, struct conn_buffers *b)
{
	struct swnic_fabric *f = sc->fabric;
	uint8_t hdr[SWNIC_FRAME_MAX_HDR_LEN];
	struct swnic_frame_prefix prefix;
	struct swnic_req req;
	struct swnic_resp resp;
	char why[SWNIC_FRAME_WHY_LEN];
	void *read_buf = NULL;
	size_t got = 0;
	doca_error_t err;

	err = swnic_sock_recv_all(sc->fd, hdr, SWNIC_FRAME_PREFIX_LEN, SWNIC_SOCK_NO_DEADLINE, &got);
	if (err != DOCA_SUCCESS) {
		if (got == 0) {
			OGDA_LOG_DBG("%s: fabric: %s closed its connection", f->nic->name, sc->peer);
		} else {
			snprintf(why, sizeof(why), "truncated header: %zu of %u bytes", got, SWNIC_FRAME_PREFIX_LEN);
			reject(sc, why);
		}
		return false;
	}
	err = swnic_frame_decode_prefix(hdr, SWNIC_FRAME_PREFIX_LEN, f->max_msg, &prefix, why, sizeof(why));
	if (err == DOCA_SUCCESS && prefix.type != SWNIC_FRAME_REQ) {
		snprintf(why, sizeof(why), "frame type %u where a request was expected", prefix.type);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err != DOCA_SUCCESS) {
		reject(sc, why);
		return false;
	}
	err = swnic_sock_recv_all(sc->fd, hdr + SWNIC_FRAME_PREFIX_LEN, prefix.header_len - SWNIC_FRAME_PREFIX_LEN,
				  SWNIC_SOCK_NO_DEADLINE, &got);
	if (err != DOCA_SUCCESS) {
		snprintf(why, sizeof(why), "truncated header: %zu of %u bytes", SWNIC_FRAME_PREFIX_LEN + got,
			 prefix.header_len);
		reject(sc, why);
		return false;
	}
	err = swnic_frame_decode_req(hdr, prefix.header_len, f->max_msg, &prefix, &req, why, sizeof(why));
	if (err != DOCA_SUCCESS) {
		reject(sc, why);
		return false;
	}
	err = recv_payload(sc->fd, b, prefix.payload_len);
	if (err != DOCA_SUCCESS) {
		snprintf(why, sizeof(why), "truncated payload (%u bytes announced): %s", prefix.payload_len,
			 doca_error_get_name(err));
		reject(sc, why);
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

static void *serve_conn(void *arg)
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

static void reap_done(struct swnic_fabric *f)
{
	struct swnic_server_conn **pp, *sc;

	pthread_mutex_lock(&f->server_lock);
	pp = &f->server_conns;
	while ((sc = *pp) != NULL) {
		if (!atomic_load(&sc->done)) {
			pp = &sc->next;
			continue;
		}
		*pp = sc->next;
		f->server_count--;
		pthread_join(sc->thread, NULL);
		close(sc->fd);
		free(sc);
	}
	pthread_mutex_unlock(&f->server_lock);
}

static void accept_one(struct swnic_fabric *f)
{
	struct sockaddr_in sa;
	socklen_t slen = sizeof(sa);
	struct swnic_server_conn *sc;
	char peer[INET_ADDRSTRLEN];
	int fd;

	fd = accept(f->listen_fd, (struct sockaddr *)&sa, &slen);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) {
			struct timespec pause = {0, 10 * 1000 * 1000};

			OGDA_LOG_ERR("%s: fabric accept: %s", f->nic->name, strerror(errno));
			nanosleep(&pause, NULL); /* e.g. out of file descriptors: do not spin */
		}
		return;
	}
	reap_done(f);
	if (swnic_sock_prepare(fd) != DOCA_SUCCESS) {
		close(fd);
		return;
	}
	sc = calloc(1, sizeof(*sc));
	if (sc == NULL) {
		OGDA_LOG_ERR("%s: fabric: out of memory for a connection", f->nic->name);
		close(fd);
		return;
	}
	sc->fabric = f;
	sc->fd = fd;
	atomic_init(&sc->done, false);
	if (inet_ntop(AF_INET, &sa.sin_addr, peer, sizeof(peer)) == NULL)
		snprintf(peer, sizeof(peer), "?");
	snprintf(sc->peer, sizeof(sc->peer), "%s:%u", peer, (unsigned)ntohs(sa.sin_port));

	pthread_mutex_lock(&f->server_lock);
	if (f->server_count >= SWNIC_FABRIC_MAX_SERVER_CONNS) {
		pthread_mutex_unlock(&f->server_lock);
		atomic_fetch_add(&f->stats.conns_refused, 1);
		OGDA_LOG_WARN("%s: fabric: %u connections already served, refusing %s", f->nic->name,
			      SWNIC_FABRIC_MAX_SERVER_CONNS, sc->peer);
		close(fd);
		free(sc);
		return;
	}
	if (pthread_create(&sc->thread, NULL, serve_conn, sc) != 0) {
		pthread_mutex_unlock(&f->server_lock);
		OGDA_LOG_ERR("%s: fabric: cannot start a thread for %s", f->nic->name, sc->peer);
		close(fd);
		free(sc);
		return;
	}
	sc->next = f->server_conns;
	f->server_conns = sc;
	f->server_count++;
	pthread_mutex_unlock(&f->server_lock);
	atomic_fetch_add(&f->stats.conns_accepted, 1);
	OGDA_LOG_DBG("%s: fabric: serving %s", f->nic->name, sc->peer);
}

static void *listen_loop(void *arg)
{
	struct swnic_fabric *f = arg;

	for (;;) {
		struct pollfd pfd[2] = {
			{.fd = f->listen_fd, .events = POLLIN},
			{.fd = f->wake_pipe[0], .events = POLLIN},
		};

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			OGDA_LOG_ERR("%s: fabric listener poll: %s", f->nic->name, strerror(errno));
			break;
		}
		if (pfd[1].revents != 0)
			break;
		if (pfd[0].revents != 0)
			accept_one(f);
	}
	return NULL;
}

doca_error_t swnic_fabric_server_start(struct swnic_fabric *f)
{
	int rc = pthread_create(&f->listener, NULL, listen_loop, f);

	if (rc != 0) {
		OGDA_LOG_ERR("%s: cannot start the fabric listener thread: %s", f->nic->name, strerror(rc));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	f->listener_started = true;
	return DOCA_SUCCESS;
}

void swnic_fabric_server_stop(struct swnic_fabric *f)
{
	struct swnic_server_conn *sc, *next;
	ssize_t n;

	if (!f->listener_started)
		return;
	do {
		n = write(f->wake_pipe[1], "x", 1);
	} while (n < 0 && errno == EINTR);
	pthread_join(f->listener, NULL);
	f->listener_started = false;

	/* The listener is gone: nobody else changes the list now. */
	pthread_mutex_lock(&f->server_lock);
	for (sc = f->server_conns; sc != NULL; sc = sc->next)
		shutdown(sc->fd, SHUT_RDWR);
	sc = f->server_conns;
	f->server_conns = NULL;
	f->server_count = 0;
	pthread_mutex_unlock(&f->server_lock);
	for (; sc != NULL; sc = next) {
		next = sc->next;
		pthread_join(sc->thread, NULL);
		close(sc->fd);
		free(sc);
	}
}
