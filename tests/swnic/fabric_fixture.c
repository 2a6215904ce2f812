/* SPDX-License-Identifier: BSD-3-Clause */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fabric_fixture.h"

#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_gid.h"
#include "swnic/swnic_sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* The verdict on a request's target: QP 0x200 only, rkey FFX_RKEY, inside the region. */
static uint8_t ffx_target_status(const struct swnic_req *req)
{
	uint64_t size = req->op >= SWNIC_REQ_ATOMIC_CS ? req->atomic_size : req->len;

	if (req->dst_qpn != 0x200)
		return SWNIC_RESP_NO_QP;
	if (req->rkey != FFX_RKEY || req->raddr > FFX_REGION_SIZE || size > FFX_REGION_SIZE - req->raddr)
		return SWNIC_RESP_NAK_REMOTE_ACCESS;
	return SWNIC_RESP_ACK;
}

/* The fixture's header check: the responder's target checks; 4 KiB MTU. */
static doca_error_t ffx_check(void *ctx, struct swnic *nic, const struct swnic_req *req,
			      struct swnic_req_verdict *verdict)
{
	(void)ctx;
	(void)nic;
	verdict->status = ffx_target_status(req);
	verdict->mtu_bytes = 4096;
	return DOCA_SUCCESS;
}

/* The fixture's responder: one region at x->region, addresses are offsets into it. */
static doca_error_t ffx_respond(void *ctx, struct swnic *nic, const struct swnic_req *req, struct swnic_resp *resp,
				void *read_buf)
{
	struct ffx *x = ctx;
	uint8_t *p;

	(void)nic;
	atomic_fetch_add(&x->calls, 1);
	if (atomic_load(&x->mode) == FFX_DIE)
		raise(SIGKILL);
	memset(resp, 0, sizeof(*resp));
	resp->status = ffx_target_status(req);
	if (resp->status != SWNIC_RESP_ACK)
		return DOCA_SUCCESS;
	p = x->region + req->raddr;
	pthread_mutex_lock(&x->lock);
	switch (req->op) {
	case SWNIC_REQ_WRITE:
	case SWNIC_REQ_WRITE_IMM:
	case SWNIC_REQ_SEND:
	case SWNIC_REQ_SEND_IMM:
		if (req->len)
			memcpy(p, req->payload, req->len);
		break;
	case SWNIC_REQ_READ:
		if (req->len)
			memcpy(read_buf, p, req->len);
		resp->read_len = req->len;
		break;
	case SWNIC_REQ_ATOMIC_FA: {
		uint64_t v;

		memcpy(&v, p, 8);
		resp->atomic_orig = v;
		v += req->swap_add;
		memcpy(p, &v, 8);
		break;
	}
	case SWNIC_REQ_ATOMIC_CS: {
		uint64_t v;

		memcpy(&v, p, 8);
		resp->atomic_orig = v;
		if (v == req->compare)
			memcpy(p, &req->swap_add, 8);
		break;
	}
	default:
		resp->status = SWNIC_RESP_NAK_INVALID_REQ;
		break;
	}
	pthread_mutex_unlock(&x->lock);
	return DOCA_SUCCESS;
}

doca_error_t ffx_create(struct ffx *x, uint32_t index, uint8_t log_max_msg)
{
	struct swnic_fabric_opts opts = {.responder = ffx_respond, .responder_ctx = x, .check = ffx_check};
	doca_error_t err;

	memset(x, 0, sizeof(*x));
	snprintf(x->nic.name, sizeof(x->nic.name), "ffx%u", index);
	x->nic.index = index;
	x->nic.cap_general.log_max_msg = log_max_msg;
	x->region = malloc(FFX_REGION_SIZE);
	if (x->region == NULL)
		return DOCA_ERROR_NO_MEMORY;
	memset(x->region, 0xee, FFX_REGION_SIZE);
	pthread_mutex_init(&x->lock, NULL);
	atomic_init(&x->calls, 0);
	atomic_init(&x->mode, FFX_SERVE);
	err = swnic_fabric_create_opts(&x->nic, &opts, &x->fabric, x->gid);
	if (err != DOCA_SUCCESS) {
		free(x->region);
		pthread_mutex_destroy(&x->lock);
		x->region = NULL;
		x->fabric = NULL;
		return err;
	}
	x->nic.fabric = x->fabric;
	return DOCA_SUCCESS;
}

void ffx_destroy(struct ffx *x)
{
	swnic_fabric_destroy(x->fabric);
	x->fabric = NULL;
	x->nic.fabric = NULL;
	free(x->region);
	pthread_mutex_destroy(&x->lock);
	x->region = NULL;
}

void ffx_sync(struct ffx *x)
{
	pthread_mutex_lock(&x->lock);
	pthread_mutex_unlock(&x->lock);
}

struct swnic_req ffx_req(uint8_t op, uint64_t raddr, uint32_t len)
{
	struct swnic_req r;

	memset(&r, 0, sizeof(r));
	r.op = op;
	r.src_qpn = 0x201;
	r.dst_qpn = 0x200;
	r.raddr = raddr;
	r.rkey = FFX_RKEY;
	r.len = len;
	if (op >= SWNIC_REQ_ATOMIC_CS) {
		r.atomic_size = 8;
		r.len = 8;
	}
	return r;
}

struct swnic_fabric_stats ffx_stats(struct ffx *x)
{
	struct swnic_fabric_stats s;

	memset(&s, 0, sizeof(s));
	(void)swnic_fabric_get_stats(x->fabric, &s);
	return s;
}

uint64_t ffx_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t ffx_ms_since(uint64_t start_ns)
{
	return (ffx_now_ns() - start_ns) / 1000000ull;
}

bool ffx_peer_closed(int fd, int timeout_ms)
{
	uint8_t sink[4096];

	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		ssize_t n;

		if (poll(&pfd, 1, timeout_ms) <= 0)
			return false;
		n = recv(fd, sink, sizeof(sink), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			return true;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return false;
		/* data (a response) arrived: the connection was not closed */
		if (n > 0)
			return false;
	}
}

static int connect_ep(const struct swnic_endpoint *ep)
{
	struct sockaddr_in sa;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(ep->port);
	sa.sin_addr.s_addr = htonl(ep->ipv4);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The client's half of a handshake without a secret; fd closed on failure. */
static int hello(int fd)
{
	struct swnic_frame_hello h;
	uint8_t buf[SWNIC_FRAME_HELLO_HDR_LEN];
	char why[SWNIC_FRAME_WHY_LEN];

	memset(&h, 0, sizeof(h));
	memset(h.nonce, 0x5e, sizeof(h.nonce));
	swnic_frame_encode_hello(&h, buf);
	if (fd < 0 || send(fd, buf, sizeof(buf), MSG_NOSIGNAL) != (ssize_t)sizeof(buf) ||
	    recv(fd, buf, sizeof(buf), MSG_WAITALL) != (ssize_t)sizeof(buf) ||
	    swnic_frame_decode_hello(buf, sizeof(buf), &h, why, sizeof(why)) != DOCA_SUCCESS || h.secret) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int ffx_connect_silent(const struct ffx *x)
{
	struct swnic_endpoint ep;

	if (swnic_fabric_get_endpoint(x->fabric, &ep) != DOCA_SUCCESS)
		return -1;
	return connect_ep(&ep);
}

int ffx_connect_raw(const struct ffx *x)
{
	return hello(ffx_connect_silent(x));
}

int ffx_connect_unix_raw(const struct ffx *x)
{
	struct swnic_endpoint ep;
	struct sockaddr_un sa;
	socklen_t slen;
	int fd;

	if (swnic_fabric_get_endpoint(x->fabric, &ep) != DOCA_SUCCESS)
		return -1;
	swnic_sock_unix_name(&ep, &sa, &slen);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, slen) < 0) {
		close(fd);
		return -1;
	}
	return hello(fd);
}

void ffx_check_region(struct ffx *x, size_t from, size_t to, uint8_t fill)
{
	size_t i;

	ffx_sync(x);
	for (i = from; i < to; i++) {
		if (x->region[i] != fill)
			fail_msg("region byte %zu is 0x%02x, expected 0x%02x", i, x->region[i], fill);
	}
}

void ffx_write_read_atomics(struct ffx *a, struct ffx *b, uint64_t timeout_ns)
{
	struct swnic_resp resp;
	struct swnic_req req;
	uint8_t data[100], back[100];
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 1);

	req = ffx_req(SWNIC_REQ_WRITE, 16, sizeof(data));
	req.payload = data;
	assert_int_equal(swnic_fabric_deliver(&a->nic, b->gid, &req, &resp, NULL, timeout_ns), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	ffx_sync(b);
	assert_memory_equal(b->region + 16, data, sizeof(data));
	ffx_check_region(b, 0, 16, 0xee);
	ffx_check_region(b, 116, 4096, 0xee);

	memset(back, 0, sizeof(back));
	req = ffx_req(SWNIC_REQ_READ, 16, sizeof(back));
	assert_int_equal(swnic_fabric_deliver(&a->nic, b->gid, &req, &resp, back, timeout_ns), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_int_equal(resp.read_len, sizeof(back));
	assert_memory_equal(back, data, sizeof(data));

	v = 1000;
	memcpy(b->region + 256, &v, 8);
	ffx_sync(b);
	req = ffx_req(SWNIC_REQ_ATOMIC_FA, 256, 8);
	req.swap_add = 0x10;
	assert_int_equal(swnic_fabric_deliver(&a->nic, b->gid, &req, &resp, NULL, timeout_ns), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_true(resp.atomic_orig == 1000);
	ffx_sync(b);
	memcpy(&v, b->region + 256, 8);
	assert_true(v == 1016);

	req = ffx_req(SWNIC_REQ_ATOMIC_CS, 256, 8);
	req.compare = 1016;
	req.swap_add = 0xfeedfacecafebeefull;
	assert_int_equal(swnic_fabric_deliver(&a->nic, b->gid, &req, &resp, NULL, timeout_ns), DOCA_SUCCESS);
	assert_true(resp.atomic_orig == 1016);
	ffx_sync(b);
	memcpy(&v, b->region + 256, 8);
	assert_true(v == 0xfeedfacecafebeefull);

	/* a NAK travels back as a verdict, not a transport error, and writes nothing */
	req = ffx_req(SWNIC_REQ_WRITE, 4096, sizeof(data));
	req.payload = data;
	req.rkey = FFX_RKEY + 1;
	assert_int_equal(swnic_fabric_deliver(&a->nic, b->gid, &req, &resp, NULL, timeout_ns), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NAK_REMOTE_ACCESS);
	ffx_check_region(b, 4096, 4096 + sizeof(data), 0xee);

	/* zero-length write: a frame with no payload */
	req = ffx_req(SWNIC_REQ_WRITE, 0, 0);
	assert_int_equal(swnic_fabric_deliver(&a->nic, b->gid, &req, &resp, NULL, timeout_ns), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
}

bool ffx_shm_expected(void)
{
	const char *s = getenv("OPENGDA_SWNIC_SHM");

	return s == NULL || strcmp(s, "0") != 0;
}

uint64_t ffx_delivered(const struct swnic_fabric_stats *s)
{
	return ffx_shm_expected() ? s->shm_deliveries : s->tcp_deliveries;
}

int ffx_connect_gid(const uint8_t gid[16])
{
	struct swnic_endpoint ep;

	if (swnic_gid_decode(gid, &ep) != DOCA_SUCCESS)
		return -1;
	return hello(connect_ep(&ep));
}

bool ffx_hello_serve(int fd)
{
	struct swnic_frame_hello h;
	uint8_t buf[SWNIC_FRAME_HELLO_HDR_LEN];
	char why[SWNIC_FRAME_WHY_LEN];

	if (recv(fd, buf, sizeof(buf), MSG_WAITALL) != (ssize_t)sizeof(buf) ||
	    swnic_frame_decode_hello(buf, sizeof(buf), &h, why, sizeof(why)) != DOCA_SUCCESS)
		return false;
	memset(&h, 0, sizeof(h));
	swnic_frame_encode_hello(&h, buf);
	return send(fd, buf, sizeof(buf), MSG_NOSIGNAL) == (ssize_t)sizeof(buf);
}

int ffx_listen_raw(uint8_t gid[16])
{
	struct sockaddr_in sa;
	socklen_t slen = sizeof(sa);
	struct swnic_endpoint ep;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(0x7f000001u);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 8) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &slen) < 0) {
		close(fd);
		return -1;
	}
	ep.ipv4 = 0x7f000001u;
	ep.port = ntohs(sa.sin_port);
	ep.nic_index = 9;
	swnic_gid_encode(&ep, gid);
	return fd;
}
