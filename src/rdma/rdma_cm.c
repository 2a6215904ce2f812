/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma's connection manager: doca_rdma_start_listen_to_port() on the server,
 * doca_rdma_connect_to_addr() on the client, accept / reject / disconnect, and the state
 * callbacks, all driven by doca_pe_progress() (the context's progress op) on the engine's thread.
 *
 * It does what RDMA-CM does for these calls, over a TCP connection to the given address and port
 * instead of the InfiniBand CM protocol (OpenGDA's QPs are DevX objects that librdmacm cannot own,
 * and the software NIC has no CM agent): the client sends a request with its connection details
 * (the same as doca_rdma_export gives), the server's request_cb decides; an accept connects the
 * server's QP and answers with its details and private data, the client connects its QP and
 * confirms, and both run established_cb. A reject, a refused or broken TCP connection or the
 * timeout runs the client's failure_cb; a disconnect (or the peer's end) runs the other side's
 * disconnect callback. Both ends must run OpenGDA; the channel works the same on a ConnectX host.
 *
 * Every message is one fixed-size record (struct cm_msg) in host byte order, checked by magic
 * and version; sockets are non-blocking and a record that cannot be sent whole fails the attempt.
 */
#define _GNU_SOURCE /* accept4 */
#include "rdma/rdma_priv.h"

#include "core/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CM_MAGIC 0x4d43414452444f47ull /* "GODRDACM" */
#define CM_VERSION 1u
#define CM_BACKLOG 64

enum cm_type { CM_REQ = 1, CM_REP = 2, CM_REJ = 3, CM_RTU = 4, CM_DREQ = 5 };

struct cm_msg {
	uint64_t magic;
	uint32_t version;
	uint32_t type;
	struct rdma_conn_details details;
	uint32_t priv_len;
	uint8_t priv[OPENGDA_RDMA_CM_PRIVATE_DATA_MAX];
};

_Static_assert(sizeof(struct cm_msg) <= sizeof(((struct doca_rdma_connection *)0)->rx), "receive buffer too small");

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static union doca_data ctx_data(const struct doca_rdma *r)
{
	return r->ctx.user_data;
}

static bool send_fd(int fd, enum cm_type type, const struct rdma_conn_details *d, const void *priv, uint32_t len)
{
	struct cm_msg m;

	memset(&m, 0, sizeof(m));
	m.magic = CM_MAGIC;
	m.version = CM_VERSION;
	m.type = (uint32_t)type;
	if (d != NULL)
		m.details = *d;
	m.priv_len = len;
	if (len != 0)
		memcpy(m.priv, priv, len);
	return send(fd, &m, sizeof(m), MSG_NOSIGNAL | MSG_DONTWAIT) == (ssize_t)sizeof(m);
}

static bool cm_send(struct doca_rdma_connection *c, enum cm_type type, const void *priv, uint32_t len)
{
	return send_fd(c->fd, type, &c->local, priv, len);
}

/* 1: a whole message is in c->rx (checked); 0: not yet; -1: the peer is gone or sent garbage. */
static int cm_recv(struct doca_rdma_connection *c, struct cm_msg *m)
{
	while (c->rx_len < sizeof(*m)) {
		ssize_t n = recv(c->fd, c->rx + c->rx_len, sizeof(*m) - c->rx_len, MSG_DONTWAIT);

		if (n > 0) {
			c->rx_len += (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return 0;
		return -1; /* end of stream or error */
	}
	memcpy(m, c->rx, sizeof(*m));
	c->rx_len = 0;
	if (m->magic != CM_MAGIC || m->version != CM_VERSION || m->priv_len > sizeof(m->priv)) {
		OGDA_LOG_ERR("rdma: connection %u: the peer is not OpenGDA's connection manager", c->id);
		return -1;
	}
	return 1;
}

/*
 * Ends the connection-manager part of @c: closes its socket; a connection whose QP was never
 * connected is free again, one whose QP was is closed for good (its QP points at the peer).
 */
static void cm_release(struct doca_rdma_connection *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->rx_len = 0;
	if (c->connected) {
		c->cm = RDMA_CM_CLOSED;
		return;
	}
	c->cm = RDMA_CM_NONE;
	c->exported = false;
	c->has_peer = false;
	c->user_data.u64 = 0;
}

static void cm_fail(struct doca_rdma_connection *c, const char *why)
{
	struct doca_rdma *r = c->rdma;

	OGDA_LOG_ERR("rdma: connection %u to %s port %u failed: %s", c->id, c->peer.text, c->peer.port, why);
	if (r->cm_failure_cb != NULL)
		r->cm_failure_cb(c, c->user_data, ctx_data(r));
	cm_release(c);
}

static void cm_establish(struct doca_rdma_connection *c)
{
	struct doca_rdma *r = c->rdma;

	c->cm = RDMA_CM_ESTABLISHED;
	if (r->cm_established_cb != NULL)
		r->cm_established_cb(c, c->user_data, ctx_data(r));
}

static void peer_from_socket(struct doca_rdma_connection *c, const struct sockaddr_storage *sa, socklen_t len)
{
	const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)(const void *)sa;
	struct sockaddr_in *v4 = (struct sockaddr_in *)(void *)&c->peer.sa;
	const void *ip;

	memset(&c->peer, 0, sizeof(c->peer));
	c->peer.sa = *sa;
	c->peer.sa_len = len;
	/* An IPv4 peer of the dual-stack listener arrives IPv4-mapped: keep it as the IPv4 host. */
	if (sa->ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
		memset(&c->peer.sa, 0, sizeof(c->peer.sa));
		v4->sin_family = AF_INET;
		v4->sin_port = v6->sin6_port;
		memcpy(&v4->sin_addr, &v6->sin6_addr.s6_addr[12], 4);
		c->peer.sa_len = sizeof(*v4);
	}
	if (c->peer.sa.ss_family == AF_INET6) {
		c->peer.type = DOCA_RDMA_ADDR_TYPE_IPv6;
		c->peer.port = ntohs(v6->sin6_port);
		ip = &v6->sin6_addr;
	} else {
		c->peer.type = DOCA_RDMA_ADDR_TYPE_IPv4;
		c->peer.port = ntohs(v4->sin_port);
		ip = &v4->sin_addr;
	}
	if (inet_ntop(c->peer.sa.ss_family, ip, c->peer.text, sizeof(c->peer.text)) == NULL)
		strcpy(c->peer.text, "?");
	c->has_peer = true;
}

/* ---- progress -------------------------------------------------------------------------------- */

static int accept_new(struct doca_rdma *r)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	struct doca_rdma_connection *c;
	int fd = accept4(r->listen_fd, (struct sockaddr *)&sa, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return 0;
	c = rdma_conn_take(r, "listen");
	if (c == NULL) {
		(void)send_fd(fd, CM_REJ, NULL, NULL, 0); /* the requester's failure_cb tells it */
		close(fd);
		return 1;
	}
	c->fd = fd;
	c->cm = RDMA_CM_WAIT_REQ;
	c->deadline_ns = now_ns() + (uint64_t)r->cm_timeout_ms * 1000000ull;
	peer_from_socket(c, &sa, len);
	return 1;
}

static int progress_connecting(struct doca_rdma_connection *c)
{
	struct pollfd p = {.fd = c->fd, .events = POLLOUT};
	int soerr = 0;
	socklen_t l = sizeof(soerr);

	if (poll(&p, 1, 0) <= 0)
		return 0;
	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &l) != 0 || soerr != 0 || (p.revents & POLLERR)) {
		cm_fail(c, soerr != 0 ? strerror(soerr) : "the TCP connection failed");
		return 1;
	}
	if (!cm_send(c, CM_REQ, NULL, 0)) {
		cm_fail(c, "cannot send the request");
		return 1;
	}
	c->cm = RDMA_CM_REQ_SENT;
	return 1;
}

static int progress_msg(struct doca_rdma_connection *c)
{
	struct doca_rdma *r = c->rdma;
	struct cm_msg m;
	int got = cm_recv(c, &m);

	if (got == 0)
		return 0;
	if (got < 0) {
		if (c->cm == RDMA_CM_ESTABLISHED) {
			if (r->cm_disconnect_cb != NULL)
				r->cm_disconnect_cb(c, c->user_data, ctx_data(r));
			cm_release(c);
		} else if (c->cm == RDMA_CM_WAIT_REQ) {
			cm_release(c); /* the application never saw it */
		} else {
			cm_fail(c, "the peer closed the connection");
		}
		return 1;
	}
	switch (c->cm) {
	case RDMA_CM_WAIT_REQ:
		if (m.type != CM_REQ)
			break;
		c->remote = m.details;
		c->cm = RDMA_CM_REQUESTED;
		r->cm_request_cb(c, ctx_data(r));
		return 1;
	case RDMA_CM_REQ_SENT:
		if (m.type == CM_REJ) {
			cm_fail(c, "rejected by the peer");
			return 1;
		}
		if (m.type != CM_REP)
			break;
		if (rdma_conn_link(c, &m.details) != DOCA_SUCCESS) {
			(void)cm_send(c, CM_REJ, NULL, 0);
			cm_fail(c, "cannot connect the QP to the peer's");
			return 1;
		}
		if (!cm_send(c, CM_RTU, NULL, 0)) {
			cm_fail(c, "cannot confirm the connection");
			return 1;
		}
		cm_establish(c);
		return 1;
	case RDMA_CM_ACCEPTED:
		if (m.type != CM_RTU)
			break;
		cm_establish(c);
		return 1;
	case RDMA_CM_ESTABLISHED:
		if (m.type != CM_DREQ)
			break;
		if (r->cm_disconnect_cb != NULL)
			r->cm_disconnect_cb(c, c->user_data, ctx_data(r));
		cm_release(c);
		return 1;
	default:
		break;
	}
	OGDA_LOG_ERR("rdma: connection %u: unexpected message %u from the peer", c->id, m.type);
	if (c->cm == RDMA_CM_WAIT_REQ)
		cm_release(c);
	else
		cm_fail(c, "protocol error");
	return 1;
}

static int progress_conn(struct doca_rdma_connection *c)
{
	bool waiting = c->cm == RDMA_CM_CONNECTING || c->cm == RDMA_CM_REQ_SENT || c->cm == RDMA_CM_WAIT_REQ ||
		       c->cm == RDMA_CM_ACCEPTED;

	if (c->fd < 0 || c->cm == RDMA_CM_REQUESTED)
		return 0; /* the application decides */
	if (waiting && now_ns() > c->deadline_ns) {
		if (c->cm == RDMA_CM_WAIT_REQ)
			cm_release(c);
		else
			cm_fail(c, "timed out (doca_rdma_set_connection_request_timeout)");
		return 1;
	}
	if (c->cm == RDMA_CM_CONNECTING)
		return progress_connecting(c);
	return progress_msg(c);
}

uint8_t rdma_cm_progress(struct doca_ctx *ctx)
{
	struct doca_rdma *r = (struct doca_rdma *)(void *)ctx; /* ctx is its first member */
	int did = 0;

	if (r->conns == NULL)
		return 0;
	while (r->listen_fd >= 0 && accept_new(r))
		did = 1;
	for (uint32_t i = 0; i < r->nconn; i++)
		did |= progress_conn(&r->conns[i]);
	return (uint8_t)did;
}

void rdma_cm_close_all(struct doca_rdma *r)
{
	if (r->listen_fd >= 0)
		close(r->listen_fd);
	r->listen_fd = -1;
	for (uint32_t i = 0; r->conns != NULL && i < r->nconn; i++)
		if (r->conns[i].fd >= 0) {
			close(r->conns[i].fd);
			r->conns[i].fd = -1;
		}
}

/* ---- the API ---------------------------------------------------------------------------------- */

/* What listen and connect need: a running context on an engine, with callbacks. */
static doca_error_t cm_ready(struct doca_rdma *r, bool listen, const char *func)
{
	if (!rdma_running(r)) {
		OGDA_LOG_ERR("rdma: %s: start the context first", func);
		return DOCA_ERROR_BAD_STATE;
	}
	if (r->ctx.pe == NULL) {
		OGDA_LOG_ERR("rdma: %s: connect the context to a doca_pe (doca_pe_connect_ctx) first: its progress runs "
			     "the connection callbacks", func);
		return DOCA_ERROR_BAD_STATE;
	}
	if (r->cm_established_cb == NULL || r->cm_failure_cb == NULL || (listen && r->cm_request_cb == NULL)) {
		OGDA_LOG_ERR("rdma: %s: set the connection callbacks first (doca_rdma_set_connection_state_callbacks)",
			     func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

static int listen_socket(uint16_t port)
{
	struct sockaddr_in6 v6 = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_ANY_INIT};
	struct sockaddr_in v4 = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_ANY)};
	int one = 1, zero = 0;
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd >= 0) { /* dual stack: IPv4 peers arrive as mapped addresses */
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, (struct sockaddr *)&v6, sizeof(v6)) == 0 && listen(fd, CM_BACKLOG) == 0)
			return fd;
		close(fd);
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&v4, sizeof(v4)) == 0 && listen(fd, CM_BACKLOG) == 0)
		return fd;
	close(fd);
	return -1;
}

doca_error_t doca_rdma_start_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	doca_error_t err;

	if (rdma == NULL || port == 0) {
		OGDA_LOG_ERR("rdma: start_listen_to_port: NULL context or port 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((err = cm_ready(rdma, true, "start_listen_to_port")) != DOCA_SUCCESS)
		return err;
	if (rdma->listen_fd >= 0) {
		OGDA_LOG_ERR("rdma: start_listen_to_port: listening on port %u already", rdma->listen_port);
		return DOCA_ERROR_BAD_STATE;
	}
	rdma->listen_fd = listen_socket(port);
	if (rdma->listen_fd < 0) {
		OGDA_LOG_ERR("rdma: start_listen_to_port: cannot listen on TCP port %u: %s", port, strerror(errno));
		return DOCA_ERROR_CONNECTION_ABORTED;
	}
	rdma->listen_port = port;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_stop_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	if (rdma == NULL) {
		OGDA_LOG_ERR("rdma: stop_listen_to_port: NULL context");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rdma->listen_fd < 0 || rdma->listen_port != port) {
		OGDA_LOG_ERR("rdma: stop_listen_to_port: not listening on port %u", port);
		return DOCA_ERROR_NOT_FOUND;
	}
	close(rdma->listen_fd);
	rdma->listen_fd = -1;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connect_to_addr(struct doca_rdma *rdma, struct doca_rdma_addr *addr,
				       union doca_data connection_user_data)
{
	struct doca_rdma_connection *c;
	doca_error_t err;

	if (rdma == NULL || addr == NULL) {
		OGDA_LOG_ERR("rdma: connect_to_addr: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((err = cm_ready(rdma, false, "connect_to_addr")) != DOCA_SUCCESS)
		return err;
	c = rdma_conn_take(rdma, "connect_to_addr");
	if (c == NULL)
		return DOCA_ERROR_FULL;
	c->user_data = connection_user_data;
	c->peer = *addr;
	c->has_peer = true;
	c->fd = socket(addr->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0 ||
	    (connect(c->fd, (const struct sockaddr *)&addr->sa, addr->sa_len) != 0 && errno != EINPROGRESS)) {
		OGDA_LOG_ERR("rdma: connect_to_addr: cannot reach %s port %u: %s", addr->text, addr->port, strerror(errno));
		cm_release(c);
		return DOCA_ERROR_CONNECTION_ABORTED;
	}
	c->cm = RDMA_CM_CONNECTING;
	c->deadline_ns = now_ns() + (uint64_t)rdma->cm_timeout_ms * 1000000ull;
	return DOCA_SUCCESS;
}

/* Whether the other end of @fd closed it (nothing else is sent while a request waits). */
static bool peer_gone(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN | POLLRDHUP};

	return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLIN)) != 0;
}

static doca_error_t requested(struct doca_rdma_connection *c, const char *func)
{
	if (c == NULL) {
		OGDA_LOG_ERR("rdma: %s: NULL connection", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (c->cm != RDMA_CM_REQUESTED) {
		OGDA_LOG_ERR("rdma: %s: connection %u is not a pending connection request", func, c->id);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_accept(struct doca_rdma_connection *rdma_connection, void *private_data,
					 uint8_t private_data_len)
{
	struct doca_rdma_connection *c = rdma_connection;
	doca_error_t err = requested(c, "connection_accept");

	if (err != DOCA_SUCCESS)
		return err;
	if ((private_data == NULL && private_data_len != 0) || private_data_len > OPENGDA_RDMA_CM_PRIVATE_DATA_MAX) {
		OGDA_LOG_ERR("rdma: connection_accept: private data NULL with %u bytes, or more than %u bytes",
			     private_data_len, OPENGDA_RDMA_CM_PRIVATE_DATA_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (peer_gone(c->fd)) {
		OGDA_LOG_ERR("rdma: connection_accept: connection %u: the requester is gone (it gave up or ended)",
			     c->id);
		cm_release(c);
		return DOCA_ERROR_CONNECTION_ABORTED;
	}
	err = rdma_conn_link(c, &c->remote);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("rdma: connection_accept: connection %u: cannot connect the QP to the requester's: %s", c->id,
			     doca_error_get_descr(err));
		(void)cm_send(c, CM_REJ, NULL, 0);
		cm_release(c);
		return err;
	}
	if (!cm_send(c, CM_REP, private_data, private_data_len)) {
		OGDA_LOG_ERR("rdma: connection_accept: connection %u: the requester is gone", c->id);
		cm_release(c);
		return DOCA_ERROR_CONNECTION_ABORTED;
	}
	c->cm = RDMA_CM_ACCEPTED;
	c->deadline_ns = now_ns() + (uint64_t)c->rdma->cm_timeout_ms * 1000000ull;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_reject(struct doca_rdma_connection *rdma_connection)
{
	doca_error_t err = requested(rdma_connection, "connection_reject");

	if (err != DOCA_SUCCESS)
		return err;
	(void)cm_send(rdma_connection, CM_REJ, NULL, 0); /* a requester already gone needs no answer */
	cm_release(rdma_connection);
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_disconnect(struct doca_rdma_connection *rdma_connection)
{
	struct doca_rdma_connection *c = rdma_connection;

	if (c == NULL) {
		OGDA_LOG_ERR("rdma: connection_disconnect: NULL connection");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (c->cm != RDMA_CM_ESTABLISHED) {
		OGDA_LOG_ERR("rdma: connection_disconnect: connection %u is not established by the connection manager",
			     c->id);
		return DOCA_ERROR_BAD_STATE;
	}
	(void)cm_send(c, CM_DREQ, NULL, 0); /* a peer already gone learnt it from the closed socket */
	cm_release(c);
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_connection_state_callbacks(struct doca_rdma *rdma,
						      doca_rdma_connection_request_cb_t doca_rdma_connect_request_cb,
						      doca_rdma_connection_established_cb_t doca_rdma_connect_established_cb,
						      doca_rdma_connection_failure_cb_t doca_rdma_connect_failure_cb,
						      doca_rdma_connection_disconnection_cb_t doca_rdma_disconnect_cb)
{
	doca_error_t err = core_ctx_check_idle(rdma != NULL ? &rdma->ctx : NULL, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	rdma->cm_request_cb = doca_rdma_connect_request_cb;
	rdma->cm_established_cb = doca_rdma_connect_established_cb;
	rdma->cm_failure_cb = doca_rdma_connect_failure_cb;
	rdma->cm_disconnect_cb = doca_rdma_disconnect_cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_connection_request_timeout(struct doca_rdma *rdma, uint16_t timeout)
{
	doca_error_t err = core_ctx_check_idle(rdma != NULL ? &rdma->ctx : NULL, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (timeout == 0) {
		OGDA_LOG_ERR("%s: a timeout of 0 ms", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->cm_timeout_ms = timeout;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_connection_request_timeout(const struct doca_rdma *rdma, uint16_t *timeout)
{
	if (rdma == NULL || timeout == NULL) {
		OGDA_LOG_ERR("rdma: get_connection_request_timeout: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*timeout = rdma->cm_timeout_ms;
	return DOCA_SUCCESS;
}
