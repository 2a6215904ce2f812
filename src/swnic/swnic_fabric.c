/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric: an endpoint per NIC instance (a TCP listener whose address the GID carries,
 * and a Unix listener of the same name for peers on this host) and delivery of requests to
 * the NIC a GID names: directly when it lives in this process, through shared memory when it
 * lives on this host (swnic_fabric_shm.h), over TCP otherwise.
 */
#include "swnic/swnic_fabric_priv.h"

#include "core/env.h"
#include "core/log.h"
#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_fabric_shm.h"
#include "swnic/swnic_sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define SWNIC_ADDR_ENV "OPENGDA_SWNIC_ADDR"
#define SWNIC_HANDSHAKE_ENV "OPENGDA_SWNIC_HANDSHAKE_TIMEOUT_MS"
#define SWNIC_FRAME_ENV "OPENGDA_SWNIC_FRAME_TIMEOUT_MS"
#define SWNIC_SECRET_ENV "OPENGDA_SWNIC_SECRET"
#define SWNIC_DEFAULT_IPV4 0x7f000001u /* 127.0.0.1 */
#define SWNIC_LISTEN_BACKLOG 64

/* Parses "a.b.c.d" or "a.b.c.d:port" (port 0 = chosen by the kernel). */
static doca_error_t parse_addr(const char *s, uint32_t *ipv4, uint16_t *port)
{
	char host[INET_ADDRSTRLEN];
	const char *colon = strchr(s, ':');
	size_t hlen = colon ? (size_t)(colon - s) : strlen(s);
	struct in_addr in;

	*port = 0;
	if (hlen == 0 || hlen >= sizeof(host))
		return DOCA_ERROR_INVALID_VALUE;
	memcpy(host, s, hlen);
	host[hlen] = '\0';
	if (inet_pton(AF_INET, host, &in) != 1)
		return DOCA_ERROR_INVALID_VALUE;
	*ipv4 = ntohl(in.s_addr);
	if (colon != NULL) {
		char *end = NULL;
		unsigned long v;

		if (colon[1] < '0' || colon[1] > '9')
			return DOCA_ERROR_INVALID_VALUE;
		errno = 0;
		v = strtoul(colon + 1, &end, 10);
		if (errno != 0 || *end != '\0' || v > 65535)
			return DOCA_ERROR_INVALID_VALUE;
		*port = (uint16_t)v;
	}
	return DOCA_SUCCESS;
}

/*
 * The address this instance listens on: 127.0.0.1 with a kernel-chosen port, or
 * OPENGDA_SWNIC_ADDR=ip[:port], where instance i takes port + i.
 */
static doca_error_t choose_endpoint(uint32_t index, uint32_t *ipv4, uint16_t *port)
{
	const char *s = getenv(SWNIC_ADDR_ENV); /* a string knob: env.h parses numbers and booleans only */
	uint16_t base = 0;

	*ipv4 = SWNIC_DEFAULT_IPV4;
	*port = 0;
	if (s == NULL || *s == '\0')
		return DOCA_SUCCESS;
	if (parse_addr(s, ipv4, &base) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s='%s': expected an IPv4 address with an optional port, e.g. 10.0.0.5:18515",
			     SWNIC_ADDR_ENV, s);
		return DOCA_ERROR_BAD_CONFIG;
	}
	/* The GID must name an address peers can reach: no wildcard, broadcast or multicast. */
	if (*ipv4 == 0 || *ipv4 == 0xffffffffu || (*ipv4 >> 28) == 0xe) {
		OGDA_LOG_ERR("%s='%s': the address goes into the GID, so it must be one peers can connect to",
			     SWNIC_ADDR_ENV, s);
		return DOCA_ERROR_BAD_CONFIG;
	}
	if (base != 0) {
		if ((uint32_t)base + index > 65535u) {
			OGDA_LOG_ERR("%s='%s': port %u + instance %u is over 65535", SWNIC_ADDR_ENV, s, base, index);
			return DOCA_ERROR_BAD_CONFIG;
		}
		*port = (uint16_t)(base + index);
	}
	return DOCA_SUCCESS;
}

static doca_error_t open_listener(struct swnic_fabric *f, uint32_t ipv4, uint16_t port)
{
	struct sockaddr_in sa;
	socklen_t slen = sizeof(sa);
	char where[40];
	int one = 1;
	int e;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(ipv4);
	f->ep.ipv4 = ipv4;
	f->ep.port = port;
	swnic_endpoint_format(&f->ep, where, sizeof(where));
	f->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (f->listen_fd < 0) {
		OGDA_LOG_ERR("%s: fabric socket(): %s", f->nic->name, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	/* A restarted server may reuse its fixed port while old connections sit in TIME_WAIT. */
	setsockopt(f->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(f->listen_fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(f->listen_fd, SWNIC_LISTEN_BACKLOG) < 0) {
		e = errno;
		OGDA_LOG_ERR("%s: cannot listen on %s (set %s to choose another): %s", f->nic->name, where,
			     SWNIC_ADDR_ENV, strerror(e));
		if (e == EADDRINUSE)
			return DOCA_ERROR_IN_USE;
		return e == EADDRNOTAVAIL ? DOCA_ERROR_BAD_CONFIG : DOCA_ERROR_OPERATING_SYSTEM;
	}
	if (getsockname(f->listen_fd, (struct sockaddr *)&sa, &slen) < 0) {
		OGDA_LOG_ERR("%s: getsockname on the fabric listener: %s", f->nic->name, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	f->ep.port = ntohs(sa.sin_port);
	return DOCA_SUCCESS;
}

/*
 * The shared-memory fabric's Unix listener (swnic_fabric_shm.h), named after the TCP
 * endpoint. Without one (OPENGDA_SWNIC_SHM=0, or the name is taken) peers on this host use TCP.
 */
static void open_unix_listener(struct swnic_fabric *f)
{
	struct sockaddr_un sa;
	socklen_t slen;
	char where[40];

	if (!f->shm)
		return;
	swnic_sock_unix_name(&f->ep, &sa, &slen);
	f->unix_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (f->unix_fd >= 0 && bind(f->unix_fd, (const struct sockaddr *)&sa, slen) == 0 &&
	    listen(f->unix_fd, SWNIC_LISTEN_BACKLOG) == 0)
		return;
	swnic_endpoint_format(&f->ep, where, sizeof(where));
	OGDA_LOG_WARN("%s: no shared-memory endpoint for %s (%s): peers on this host will use TCP", f->nic->name,
		      where, strerror(errno));
	if (f->unix_fd >= 0)
		close(f->unix_fd);
	f->unix_fd = -1;
}

/* The serving deadlines (docs/swnic.md §4); a bad value logs and falls back to the default. */
static void read_deadlines(struct swnic_fabric *f)
{
	long v;

	if (ogda_env_get_long(SWNIC_HANDSHAKE_ENV, 1, 3600000, SWNIC_FABRIC_HANDSHAKE_TIMEOUT_MS, &v) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s must be 1..3600000 ms (time a new connection has for its first exchange); using %d",
			     SWNIC_HANDSHAKE_ENV, SWNIC_FABRIC_HANDSHAKE_TIMEOUT_MS);
	f->handshake_timeout_ns = (uint64_t)v * 1000000ull;
	if (ogda_env_get_long(SWNIC_FRAME_ENV, 1, 3600000, SWNIC_FABRIC_FRAME_TIMEOUT_MS, &v) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s must be 1..3600000 ms (longest stall inside a frame); using %d", SWNIC_FRAME_ENV,
			     SWNIC_FABRIC_FRAME_TIMEOUT_MS);
	f->frame_timeout_ns = (uint64_t)v * 1000000ull;
}

/*
 * OPENGDA_SWNIC_SECRET: unset or empty, no authentication; too short, the NIC fails to open
 * (falling back to no authentication would be worse than not starting).
 */
static doca_error_t read_secret(struct swnic_fabric *f)
{
	const char *s = getenv(SWNIC_SECRET_ENV); /* a string knob: env.h parses numbers and booleans only */

	if (s == NULL || *s == '\0')
		return DOCA_SUCCESS;
	if (strlen(s) < SWNIC_FABRIC_SECRET_MIN) {
		OGDA_LOG_ERR("%s is %zu bytes: at least %u are required", SWNIC_SECRET_ENV, strlen(s),
			     SWNIC_FABRIC_SECRET_MIN);
		return DOCA_ERROR_BAD_CONFIG;
	}
	f->secret = strdup(s);
	if (f->secret == NULL) {
		OGDA_LOG_ERR("%s: out of memory for %s", f->nic->name, SWNIC_SECRET_ENV);
		return DOCA_ERROR_NO_MEMORY;
	}
	f->secret_len = strlen(s);
	return DOCA_SUCCESS;
}

static void fabric_free(struct swnic_fabric *f)
{
	if (f->secret != NULL) {
		memset(f->secret, 0, f->secret_len);
		free(f->secret);
	}
	if (f->listen_fd >= 0)
		close(f->listen_fd);
	if (f->unix_fd >= 0)
		close(f->unix_fd);
	if (f->wake_pipe[0] >= 0)
		close(f->wake_pipe[0]);
	if (f->wake_pipe[1] >= 0)
		close(f->wake_pipe[1]);
	pthread_cond_destroy(&f->client_idle);
	pthread_mutex_destroy(&f->client_lock);
	pthread_mutex_destroy(&f->server_lock);
	free(f);
}

static uint64_t max_msg_of(const struct swnic *nic)
{
	uint8_t log_max = nic->cap_general.log_max_msg;

	/* 0 means the caps are not filled in (yet): fall back to the fabric's own cap. */
	if (log_max == 0 || log_max >= 30)
		return SWNIC_FABRIC_MAX_MSG_CAP;
	return 1ull << log_max;
}

doca_error_t swnic_fabric_create_opts(struct swnic *nic, const struct swnic_fabric_opts *opts,
				      struct swnic_fabric **fabric, uint8_t gid[16])
{
	struct swnic_fabric *f;
	uint32_t ipv4;
	uint16_t port;
	doca_error_t err;
	char where[40];

	if (nic == NULL || fabric == NULL || gid == NULL) {
		OGDA_LOG_ERR("fabric create: NULL argument (nic %p, fabric %p, gid %p)", (void *)nic,
			     (void *)fabric, (void *)gid);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (nic->index > 0xffffu) {
		OGDA_LOG_ERR("fabric create: NIC index %u does not fit the GID's 16 bits", nic->index);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = choose_endpoint(nic->index, &ipv4, &port);
	if (err != DOCA_SUCCESS)
		return err;
	f = calloc(1, sizeof(*f));
	if (f == NULL) {
		OGDA_LOG_ERR("fabric create: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	f->nic = nic;
	f->listen_fd = -1;
	f->unix_fd = -1;
	f->wake_pipe[0] = f->wake_pipe[1] = -1;
	f->max_msg = max_msg_of(nic);
	read_deadlines(f);
	swnic_poll_cfg_read_woken(&f->poll);
	f->shm = swnic_shm_enabled();
	if (opts != NULL) {
		f->responder = opts->responder;
		f->responder_ctx = opts->responder_ctx;
		f->check = opts->check;
	}
	atomic_init(&f->next_request_id, 1);
	pthread_mutex_init(&f->server_lock, NULL);
	pthread_mutex_init(&f->client_lock, NULL);
	pthread_cond_init(&f->client_idle, NULL);
	err = read_secret(f);
	if (err != DOCA_SUCCESS)
		goto fail;
	err = open_listener(f, ipv4, port);
	if (err != DOCA_SUCCESS)
		goto fail;
	f->ep.nic_index = (uint16_t)nic->index;
	open_unix_listener(f);
	if (pipe(f->wake_pipe) < 0 || fcntl(f->wake_pipe[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(f->wake_pipe[1], F_SETFD, FD_CLOEXEC) < 0) {
		OGDA_LOG_ERR("%s: fabric pipe(): %s", nic->name, strerror(errno));
		err = DOCA_ERROR_OPERATING_SYSTEM;
		goto fail;
	}
	err = swnic_fabric_server_start(f);
	if (err != DOCA_SUCCESS)
		goto fail;
	swnic_gid_encode(&f->ep, gid);
	swnic_endpoint_format(&f->ep, where, sizeof(where));
	OGDA_LOG_INFO("%s: fabric endpoint %s%s%s", nic->name, where,
		      f->unix_fd >= 0 ? " (peers on this host: shared memory)" : "",
		      f->secret_len > 0 ? ", connections authenticated with the shared secret" : "");
	*fabric = f;
	return DOCA_SUCCESS;
fail:
	fabric_free(f);
	return err;
}

doca_error_t swnic_fabric_create(struct swnic *nic, struct swnic_fabric **fabric, uint8_t gid[16])
{
	return swnic_fabric_create_opts(nic, NULL, fabric, gid);
}

void swnic_fabric_destroy(struct swnic_fabric *fabric)
{
	if (fabric == NULL)
		return;
	/* Incoming first: no responder call runs on this NIC after this line. */
	swnic_fabric_server_stop(fabric);
	/* Then outgoing: requesters still waiting get CONNECTION_RESET. */
	swnic_fabric_client_close_all(fabric);
	fabric_free(fabric);
}

doca_error_t swnic_fabric_get_endpoint(const struct swnic_fabric *fabric, struct swnic_endpoint *ep)
{
	if (fabric == NULL || ep == NULL) {
		OGDA_LOG_ERR("fabric endpoint: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*ep = fabric->ep;
	return DOCA_SUCCESS;
}

uint64_t swnic_fabric_max_msg(const struct swnic_fabric *fabric)
{
	return fabric != NULL ? fabric->max_msg : 0;
}

doca_error_t swnic_fabric_get_stats(struct swnic_fabric *fabric, struct swnic_fabric_stats *s)
{
	if (fabric == NULL || s == NULL) {
		OGDA_LOG_ERR("fabric stats: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	s->conns_accepted = atomic_load(&fabric->stats.conns_accepted);
	s->conns_refused = atomic_load(&fabric->stats.conns_refused);
	s->conns_evicted = atomic_load(&fabric->stats.conns_evicted);
	s->conns_timed_out = atomic_load(&fabric->stats.conns_timed_out);
	s->frames_served = atomic_load(&fabric->stats.frames_served);
	s->frames_rejected = atomic_load(&fabric->stats.frames_rejected);
	s->payload_buffered = atomic_load(&fabric->stats.payload_buffered);
	s->payload_buffered_hwm = atomic_load(&fabric->stats.payload_buffered_hwm);
	s->auth_failures = atomic_load(&fabric->stats.auth_failures);
	s->conns_opened = atomic_load(&fabric->stats.conns_opened);
	s->direct_deliveries = atomic_load(&fabric->stats.direct_deliveries);
	s->tcp_deliveries = atomic_load(&fabric->stats.tcp_deliveries);
	s->tcp_failures = atomic_load(&fabric->stats.tcp_failures);
	s->shm_channels_opened = atomic_load(&fabric->stats.shm_channels_opened);
	s->shm_deliveries = atomic_load(&fabric->stats.shm_deliveries);
	s->shm_fallbacks = atomic_load(&fabric->stats.shm_fallbacks);
	s->pipe_inflight_hwm = atomic_load(&fabric->stats.pipe_inflight_hwm);
	s->pipe_go_backs = atomic_load(&fabric->stats.pipe_go_backs);
	s->ipc_payloads_sent = atomic_load(&fabric->stats.ipc_payloads_sent);
	s->ipc_payloads_served = atomic_load(&fabric->stats.ipc_payloads_served);
	s->ipc_refused = atomic_load(&fabric->stats.ipc_refused);
	return DOCA_SUCCESS;
}

doca_error_t swnic_fabric_set_fault_hook(struct swnic_fabric *fabric, swnic_fabric_fault_fn fn, void *ctx)
{
	if (fabric == NULL) {
		OGDA_LOG_ERR("fabric fault hook: NULL fabric");
		return DOCA_ERROR_INVALID_VALUE;
	}
	atomic_store(&fabric->fault_ctx, ctx);
	atomic_store(&fabric->fault_fn, fn);
	return DOCA_SUCCESS;
}

bool swnic_fabric_fault_pass(struct swnic_fabric *f, const struct swnic_req *req)
{
	swnic_fabric_fault_fn fn = atomic_load(&f->fault_fn);
	uint32_t stall_ms = 0;

	if (fn == NULL)
		return true;
	switch (fn(atomic_load(&f->fault_ctx), req, &stall_ms)) {
	case SWNIC_FABRIC_FAULT_CUT:
		OGDA_LOG_INFO("%s: fabric: fault hook: connection cut at op %u psn 0x%x", f->nic->name, req->op, req->psn);
		return false;
	case SWNIC_FABRIC_FAULT_STALL: {
		struct timespec ts = {(time_t)(stall_ms / 1000u), (long)(stall_ms % 1000u) * 1000000L};

		OGDA_LOG_INFO("%s: fabric: fault hook: op %u psn 0x%x stalls %u ms", f->nic->name, req->op, req->psn,
			      stall_ms);
		nanosleep(&ts, NULL);
		return true;
	}
	default:
		return true;
	}
}

void swnic_fabric_respond(struct swnic *nic, struct swnic_fabric *fabric, const struct swnic_req *req,
			  struct swnic_resp *resp, void *read_buf)
{
	doca_error_t err;

	memset(resp, 0, sizeof(*resp));
	if (fabric != NULL && fabric->responder != NULL)
		err = fabric->responder(fabric->responder_ctx, nic, req, resp, read_buf);
	else
		err = swnic_responder_execute(nic, req, resp, read_buf);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: responder failed on op %u to QP 0x%x: %s; answering REMOTE_OP", nic->name, req->op,
			     req->dst_qpn, doca_error_get_name(err));
		goto remote_op;
	}
	if (resp->status > SWNIC_RESP_NO_QP ||
	    resp->read_len > (req->op == SWNIC_REQ_READ ? req->len : 0)) {
		OGDA_LOG_ERR("%s: responder verdict out of range (status %u, read_len %u for op %u, len %u)",
			     nic->name, resp->status, resp->read_len, req->op, req->len);
		goto remote_op;
	}
	return;
remote_op:
	memset(resp, 0, sizeof(*resp));
	resp->status = SWNIC_RESP_NAK_REMOTE_OP;
}

doca_error_t swnic_fabric_deliver(struct swnic *nic, const uint8_t dst_gid[16], const struct swnic_req *req,
				  struct swnic_resp *resp, void *read_buf, uint64_t timeout_ns)
{
	struct swnic_fabric *f;
	struct swnic_endpoint ep;
	struct swnic *dst;
	char why[SWNIC_FRAME_WHY_LEN];
	doca_error_t err;

	if (nic == NULL || nic->fabric == NULL || dst_gid == NULL || req == NULL || resp == NULL ||
	    timeout_ns == 0) {
		OGDA_LOG_ERR("fabric deliver: bad argument (nic %p, fabric %p, gid %p, req %p, resp %p, timeout %llu ns)",
			     (void *)nic, nic ? (void *)nic->fabric : NULL, (const void *)dst_gid,
			     (const void *)req, (void *)resp, (unsigned long long)timeout_ns);
		return DOCA_ERROR_INVALID_VALUE;
	}
	f = nic->fabric;
	err = swnic_req_check(req, f->max_msg, why, sizeof(why));
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: fabric deliver: %s", nic->name, why);
		return err;
	}
	if (req->op == SWNIC_REQ_READ && req->len > 0 && read_buf == NULL) {
		OGDA_LOG_ERR("%s: fabric deliver: READ of %u bytes without a buffer", nic->name, req->len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(resp, 0, sizeof(*resp));
	err = swnic_gid_decode(dst_gid, &ep);
	if (err != DOCA_SUCCESS)
		return err;
	dst = swnic_find_by_gid(dst_gid);
	if (dst != NULL) {
		OGDA_LOG_DBG("%s: op %u to %s QP 0x%x, direct", nic->name, req->op, dst->name, req->dst_qpn);
		swnic_fabric_respond(dst, dst->fabric, req, resp, read_buf);
		swnic_close(dst);
		atomic_fetch_add(&f->stats.direct_deliveries, 1);
		return DOCA_SUCCESS;
	}
	return swnic_fabric_client_deliver(f, &ep, req, resp, read_buf, timeout_ns);
}
