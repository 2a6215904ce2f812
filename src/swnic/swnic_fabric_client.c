/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Requester side of the TCP fabric. A request takes an idle connection to its destination
 * (or opens one), owns it for the whole request/response exchange, and gives it back;
 * concurrent requesters therefore never share a connection, and a response always
 * belongs to the request just sent on it (the request id double-checks that). Any failure
 * closes the connection, so a late or partial response can never be read by the next user.
 *
 * The attempt's timeout bounds progress, as an RC requester's ack timeout bounds each
 * packet, not the message: connecting must finish within it, and while bytes move (the
 * request, the response, READ data) the timeout runs from the last byte that moved. Only
 * the wait for the response header, while the responder executes the request and no
 * byte can move, has a budget that grows with the message: the timeout plus
 * len / SWNIC_FABRIC_EXEC_MIN_RATE. A peer that stops answering is found within one
 * timeout of its last byte (plus that budget if it stops while executing).
 */
#include "swnic/swnic_fabric_priv.h"

#include "core/log.h"
#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_fabric_shm.h"
#include "swnic/swnic_sock.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static bool same_endpoint(const struct swnic_endpoint *a, const struct swnic_endpoint *b)
{
	return a->ipv4 == b->ipv4 && a->port == b->port;
}

/* An idle connection is dead if the peer closed it, or sent something nobody asked for. */
static bool idle_conn_alive(int fd)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};

	return poll(&pfd, 1, 0) == 0;
}

static void unlink_conn(struct swnic_fabric *f, struct swnic_client_conn *c)
{
	struct swnic_client_conn **pp;

	for (pp = &f->client_conns; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			return;
		}
	}
}

static void conn_free(struct swnic_client_conn *c)
{
	if (c->map != NULL) {
		swnic_shm_unmap(c->map);
		free(c->map);
	}
	if (c->fd >= 0)
		close(c->fd);
	free(c);
}

static void conn_release(struct swnic_fabric *f, struct swnic_client_conn *c, bool reusable)
{
	struct swnic_client_conn *o;
	unsigned idle = 0;

	pthread_mutex_lock(&f->client_lock);
	for (o = f->client_conns; o != NULL; o = o->next) {
		if (!o->busy && o->shm == c->shm && same_endpoint(&o->ep, &c->ep))
			idle++;
	}
	c->busy = false;
	if (!reusable || f->closing || idle >= SWNIC_FABRIC_MAX_IDLE_PER_PEER) {
		unlink_conn(f, c);
		conn_free(c);
	}
	pthread_mutex_unlock(&f->client_lock);
}

/*
 * A channel's or connection's first steps: connect (TCP, or the Unix socket of ep's
 * shared-memory fabric), the handshake, and for shm the channel's offer.
 */
static doca_error_t conn_open(struct swnic_client_conn *c, uint64_t deadline, int *fd)
{
	doca_error_t err;

	if (!c->shm)
		return swnic_sock_connect(&c->ep, deadline, fd);
	c->map = calloc(1, sizeof(*c->map));
	if (c->map == NULL)
		return DOCA_ERROR_NO_MEMORY;
	c->map->memfd = -1;
	err = swnic_sock_connect_unix(&c->ep, deadline, fd);
	if (err != DOCA_SUCCESS) {
		free(c->map);
		c->map = NULL;
	}
	return err;
}

static doca_error_t conn_acquire(struct swnic_fabric *f, const struct swnic_endpoint *ep, uint64_t deadline,
				 bool shm, struct swnic_client_conn **out)
{
	struct swnic_client_conn *c, *next, *fresh;
	doca_error_t err;
	int fd;

	/* A new connection is listed (busy, fd -1) while it connects, so no other requester
	 * takes it and destroy knows it exists. */
	fresh = calloc(1, sizeof(*fresh));
	if (fresh == NULL) {
		OGDA_LOG_ERR("%s: fabric: out of memory for a connection", f->nic->name);
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_mutex_lock(&f->client_lock);
	if (f->closing) {
		pthread_mutex_unlock(&f->client_lock);
		free(fresh);
		return DOCA_ERROR_NOT_CONNECTED;
	}
	for (c = f->client_conns; c != NULL; c = next) {
		next = c->next;
		if (c->busy || c->shm != shm || !same_endpoint(&c->ep, ep))
			continue;
		if (!idle_conn_alive(c->fd)) {
			unlink_conn(f, c);
			conn_free(c);
			continue;
		}
		c->busy = true;
		pthread_mutex_unlock(&f->client_lock);
		free(fresh);
		*out = c;
		return DOCA_SUCCESS;
	}
	fresh->ep = *ep;
	fresh->fd = -1;
	fresh->busy = true;
	fresh->shm = shm;
	fresh->next = f->client_conns;
	f->client_conns = fresh;
	pthread_mutex_unlock(&f->client_lock);

	err = conn_open(fresh, deadline, &fd);
	pthread_mutex_lock(&f->client_lock);
	if (err == DOCA_SUCCESS && f->closing) {
		close(fd);
		err = DOCA_ERROR_NOT_CONNECTED;
	}
	if (err == DOCA_SUCCESS)
		fresh->fd = fd; /* from here destroy can shut it down, also during the handshake */
	pthread_mutex_unlock(&f->client_lock);
	if (err == DOCA_SUCCESS)
		err = swnic_fabric_auth_client(f, fd, ep, deadline);
	if (err == DOCA_SUCCESS && shm)
		err = swnic_fabric_shm_open(f, fd, deadline, fresh->map);
	if (err != DOCA_SUCCESS) {
		conn_release(f, fresh, false);
		return err;
	}
	atomic_fetch_add(shm ? &f->stats.shm_channels_opened : &f->stats.conns_opened, 1);
	*out = fresh;
	return DOCA_SUCCESS;
}

doca_error_t swnic_fabric_recv_resp(struct swnic_fabric *f, struct swnic_client_conn *c, const struct swnic_req *req,
				    uint64_t request_id, struct swnic_resp *resp, void *read_buf,
				    uint64_t first_deadline_ns, uint64_t timeout_ns, bool *closing)
{
	uint8_t hdr[SWNIC_FRAME_MAX_HDR_LEN];
	struct swnic_frame_prefix prefix;
	char why[SWNIC_FRAME_WHY_LEN];
	doca_error_t err;

	*closing = true;
	err = swnic_sock_recv_all(c->fd, hdr, SWNIC_FRAME_PREFIX_LEN, first_deadline_ns, NULL);
	if (err != DOCA_SUCCESS)
		return err;
	err = swnic_frame_decode_prefix(hdr, SWNIC_FRAME_PREFIX_LEN, f->max_msg, &prefix, why, sizeof(why));
	if (err == DOCA_SUCCESS && prefix.type != SWNIC_FRAME_RESP) {
		snprintf(why, sizeof(why), "frame type %u where a response was expected", prefix.type);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err == DOCA_SUCCESS) {
		err = swnic_sock_recv_all_idle(c->fd, hdr + SWNIC_FRAME_PREFIX_LEN,
					       prefix.header_len - SWNIC_FRAME_PREFIX_LEN, timeout_ns);
		if (err != DOCA_SUCCESS)
			return err;
		err = swnic_frame_decode_resp(hdr, prefix.header_len, f->max_msg, &prefix, resp, why, sizeof(why));
	}
	if (err == DOCA_SUCCESS)
		err = swnic_frame_check_resp(req, request_id, &prefix, resp, why, sizeof(why));
	if (err != DOCA_SUCCESS) {
		char where[40];

		swnic_endpoint_format(&c->ep, where, sizeof(where));
		OGDA_LOG_ERR("%s: fabric: bad response from %s: %s; closing the connection", f->nic->name, where,
			     why);
		memset(resp, 0, sizeof(*resp));
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Validated above: read_len <= req->len, the size of read_buf. */
	if (resp->read_len > 0) {
		err = swnic_sock_recv_all_idle(c->fd, read_buf, resp->read_len, timeout_ns);
		if (err != DOCA_SUCCESS)
			return err;
	}
	*closing = (prefix.flags & SWNIC_FRAME_FLAG_CLOSING) != 0;
	return DOCA_SUCCESS;
}

/*
 * One request / response exchange on c, each step bounded by progress (timeout_ns without a
 * byte moving). Any error leaves the connection unusable, and so does a request the server
 * refused from its header: it answers without keeping a large payload and closes (the answer
 * says so), so the send may even fail while the answer is already on its way.
 */
static doca_error_t exchange(struct swnic_fabric *f, struct swnic_client_conn *c, const struct swnic_req *req,
			     struct swnic_resp *resp, void *read_buf, uint64_t timeout_ns, bool *reusable)
{
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	struct iovec iov[2];
	uint64_t id = atomic_fetch_add(&f->next_request_id, 1);
	bool sent_all, closing;
	doca_error_t err;

	err = swnic_frame_encode_req(id, req, f->max_msg, hdr);
	if (err != DOCA_SUCCESS)
		return err;
	iov[0].iov_base = hdr;
	iov[0].iov_len = SWNIC_FRAME_REQ_HDR_LEN;
	iov[1].iov_base = (void *)(uintptr_t)req->payload;
	iov[1].iov_len = swnic_req_payload_len(req);
	err = swnic_sock_send_all_idle(c->fd, iov, 2, timeout_ns);
	sent_all = err == DOCA_SUCCESS;
	*reusable = false;
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_CONNECTION_RESET)
		return err;

	err = swnic_fabric_recv_resp(f, c, req, id, resp, read_buf,
				     swnic_deadline_after(swnic_fabric_exec_budget_ns(timeout_ns, req->len)), timeout_ns,
				     &closing);
	if (err == DOCA_ERROR_INVALID_VALUE)
		return DOCA_ERROR_CONNECTION_RESET; /* logged */
	if (err != DOCA_SUCCESS)
		return sent_all ? err : DOCA_ERROR_CONNECTION_RESET;
	if (!sent_all && resp->status == SWNIC_RESP_ACK) {
		char where[40];

		swnic_endpoint_format(&c->ep, where, sizeof(where));
		OGDA_LOG_ERR("%s: fabric: bad response from %s: an ACK to a request whose payload was not all sent; "
			     "closing the connection", f->nic->name, where);
		memset(resp, 0, sizeof(*resp));
		return DOCA_ERROR_CONNECTION_RESET;
	}
	/* Reused only when all was sent and the server keeps the connection. */
	*reusable = sent_all && !closing;
	return DOCA_SUCCESS;
}

/* Whether ep's Unix socket failed lately: then TCP is taken without trying again. */
static bool shm_refused(struct swnic_fabric *f, const struct swnic_endpoint *ep)
{
	uint64_t now = swnic_sock_now_ns();
	bool refused = false;
	unsigned i;

	pthread_mutex_lock(&f->client_lock);
	for (i = 0; i < SWNIC_FABRIC_SHM_REFUSED_SLOTS; i++) {
		if (f->shm_refused[i].until_ns > now && same_endpoint(&f->shm_refused[i].ep, ep))
			refused = true;
	}
	pthread_mutex_unlock(&f->client_lock);
	return refused;
}

/*
 * No channel to ep could be opened: the request goes over TCP, and so do the next ones for
 * SWNIC_FABRIC_SHM_RETRY_NS. A peer on another host (its Unix socket does not exist here)
 * is the expected case; anything else is worth a warning.
 */
static void shm_refuse(struct swnic_fabric *f, const struct swnic_endpoint *ep, doca_error_t why)
{
	uint64_t now = swnic_sock_now_ns();
	unsigned i, slot = 0;
	char where[40];

	swnic_endpoint_format(ep, where, sizeof(where));
	if (why == DOCA_ERROR_NOT_CONNECTED)
		OGDA_LOG_INFO("%s: fabric: %s is not reachable through shared memory (not on this host, or "
			      "%s=0 there); using TCP", f->nic->name, where, SWNIC_ENV_SHM);
	else
		OGDA_LOG_WARN("%s: fabric: no shared-memory channel to %s (%s); using TCP", f->nic->name, where,
			      doca_error_get_name(why));
	atomic_fetch_add(&f->stats.shm_fallbacks, 1);
	pthread_mutex_lock(&f->client_lock);
	for (i = 0; i < SWNIC_FABRIC_SHM_REFUSED_SLOTS; i++) {
		if (same_endpoint(&f->shm_refused[i].ep, ep) || f->shm_refused[i].until_ns < f->shm_refused[slot].until_ns) {
			slot = i;
			if (same_endpoint(&f->shm_refused[i].ep, ep))
				break;
		}
	}
	f->shm_refused[slot].ep = *ep;
	f->shm_refused[slot].until_ns = now + SWNIC_FABRIC_SHM_RETRY_NS;
	pthread_mutex_unlock(&f->client_lock);
}

doca_error_t swnic_fabric_client_take(struct swnic_fabric *f, const struct swnic_endpoint *ep, uint64_t deadline,
				      struct swnic_client_conn **out)
{
	doca_error_t err;

	if (f->shm && !shm_refused(f, ep)) {
		err = conn_acquire(f, ep, deadline, true, out);
		if (err == DOCA_SUCCESS)
			return DOCA_SUCCESS;
		shm_refuse(f, ep, err);
	}
	return conn_acquire(f, ep, deadline, false, out);
}

void swnic_fabric_client_give_back(struct swnic_fabric *f, struct swnic_client_conn *c, bool reusable)
{
	conn_release(f, c, reusable);
}

doca_error_t swnic_fabric_client_deliver(struct swnic_fabric *f, const struct swnic_endpoint *ep,
					 const struct swnic_req *req, struct swnic_resp *resp, void *read_buf,
					 uint64_t timeout_ns)
{
	uint64_t deadline = swnic_deadline_after(timeout_ns);
	struct swnic_client_conn *c;
	bool reusable = false, via_shm = false;
	char where[40];
	doca_error_t err = DOCA_SUCCESS;

	/* Counted in client_busy from here to the end: destroy frees f only after the last
	 * requester has left, so nothing below may touch f after the final decrement. */
	pthread_mutex_lock(&f->client_lock);
	if (f->closing) {
		pthread_mutex_unlock(&f->client_lock);
		memset(resp, 0, sizeof(*resp));
		return DOCA_ERROR_NOT_CONNECTED;
	}
	f->client_busy++;
	pthread_mutex_unlock(&f->client_lock);

	if (f->shm && swnic_shm_fits(req) && !shm_refused(f, ep)) {
		err = conn_acquire(f, ep, deadline, true, &c);
		if (err == DOCA_SUCCESS) {
			via_shm = true;
			err = swnic_fabric_shm_exchange(f, c, req, resp, read_buf, timeout_ns, &reusable);
			conn_release(f, c, err == DOCA_SUCCESS && reusable);
		} else {
			shm_refuse(f, ep, err);
		}
	}
	if (!via_shm) {
		err = conn_acquire(f, ep, deadline, false, &c);
		if (err == DOCA_SUCCESS) {
			err = exchange(f, c, req, resp, read_buf, timeout_ns, &reusable);
			conn_release(f, c, err == DOCA_SUCCESS && reusable);
		}
	}
	if (err != DOCA_SUCCESS) {
		memset(resp, 0, sizeof(*resp));
		atomic_fetch_add(&f->stats.tcp_failures, 1);
		swnic_endpoint_format(ep, where, sizeof(where));
		/* Expected when a peer dies: the engine counts a transport retry; no error log. */
		OGDA_LOG_DBG("%s: op %u to %s QP 0x%x failed: %s", f->nic->name, req->op, where, req->dst_qpn,
			     doca_error_get_name(err));
		/* Local trouble (no socket, no memory) is also a peer this NIC cannot reach now. */
		if (err != DOCA_ERROR_CONNECTION_RESET && err != DOCA_ERROR_TIME_OUT && err != DOCA_ERROR_INVALID_VALUE)
			err = DOCA_ERROR_NOT_CONNECTED;
	} else {
		atomic_fetch_add(via_shm ? &f->stats.shm_deliveries : &f->stats.tcp_deliveries, 1);
		OGDA_LOG_DBG("%s: op %u to QP 0x%x over %s: status %u, read %u", f->nic->name, req->op,
			     req->dst_qpn, via_shm ? "shared memory" : "TCP", resp->status, resp->read_len);
	}

	pthread_mutex_lock(&f->client_lock);
	if (--f->client_busy == 0)
		pthread_cond_broadcast(&f->client_idle);
	pthread_mutex_unlock(&f->client_lock);
	return err;
}

void swnic_fabric_client_close_all(struct swnic_fabric *f)
{
	struct swnic_client_conn *c, *next;

	pthread_mutex_lock(&f->client_lock);
	f->closing = true;
	/* Wake requesters blocked on their sockets; they fail and leave. */
	for (c = f->client_conns; c != NULL; c = c->next) {
		if (c->busy && c->fd >= 0)
			shutdown(c->fd, SHUT_RDWR);
	}
	while (f->client_busy > 0)
		pthread_cond_wait(&f->client_idle, &f->client_lock);
	for (c = f->client_conns; c != NULL; c = next) {
		next = c->next;
		conn_free(c);
	}
	f->client_conns = NULL;
	pthread_mutex_unlock(&f->client_lock);
}
