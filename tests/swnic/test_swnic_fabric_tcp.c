/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCP fabric on its own (fabric_fixture.h): requests over loopback land exactly,
 * hostile frames close the connection without reaching the responder, and every failure
 * (dead endpoint, silent peer, bad responses, shutdown) returns within its bound.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fabric_fixture.h"
#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_gid.h"
#include "test_util.h"

#define TIMEOUT_NS (5ull * 1000 * 1000 * 1000) /* generous: failures must come from the peer, not the clock */

static struct swnic_fabric_stats stats_of(struct ffx *x)
{
	struct swnic_fabric_stats s;

	assert_int_equal(swnic_fabric_get_stats(x->fabric, &s), DOCA_SUCCESS);
	return s;
}

static void tcp_write_read_atomics_land(void **state)
{
	struct ffx a, b;

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	ffx_write_read_atomics(&a, &b, TIMEOUT_NS);

	/* every request above reused one connection, served by b over TCP */
	assert_true(stats_of(&a).tcp_deliveries == 6);
	assert_true(stats_of(&a).direct_deliveries == 0);
	assert_true(stats_of(&a).conns_opened == 1);
	assert_true(stats_of(&b).frames_served == 6);
	/* The bad-rkey WRITE was refused from its header: the responder never saw it. */
	assert_int_equal(atomic_load(&b.calls), 5);
	ffx_destroy(&a);
	ffx_destroy(&b);
}

static void tcp_large_write_and_read(void **state)
{
	const uint32_t len = 3u << 20; /* larger than socket buffers and the first payload chunk */
	struct ffx a, b;
	struct swnic_resp resp;
	struct swnic_req req;
	uint8_t *data = malloc(len), *back = malloc(len);
	uint32_t i;

	(void)state;
	assert_non_null(data);
	assert_non_null(back);
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	for (i = 0; i < len; i++)
		data[i] = (uint8_t)(i ^ (i >> 8) ^ (i >> 16));
	req = ffx_req(SWNIC_REQ_WRITE, 8, len);
	req.payload = data;
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	ffx_sync(&b);
	assert_memory_equal(b.region + 8, data, len);
	ffx_check_region(&b, 0, 8, 0xee);
	ffx_check_region(&b, 8 + len, 8 + len + 64, 0xee);
	memset(back, 0, len);
	req = ffx_req(SWNIC_REQ_READ, 8, len);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, back, TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.read_len, len);
	assert_memory_equal(back, data, len);
	ffx_destroy(&a);
	ffx_destroy(&b);
	free(data);
	free(back);
}

/* ---- hostile frames ---- */

struct hostile {
	const char *name;
	uint8_t bytes[SWNIC_FRAME_REQ_HDR_LEN + 1200];
	size_t len;          /* bytes sent */
	bool half_close;     /* then shut down our sending side (truncation) */
};

static size_t encode(const struct swnic_req *r, uint8_t *buf)
{
	uint32_t plen = swnic_req_payload_len(r);

	assert_int_equal(swnic_frame_encode_req(42, r, 1ull << 30, buf), DOCA_SUCCESS);
	memset(buf + SWNIC_FRAME_REQ_HDR_LEN, 0x11, plen);
	return SWNIC_FRAME_REQ_HDR_LEN + plen;
}

static void be32_at(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The server of b (cap 64 KiB) must close on each of these without calling its responder. */
static size_t make_hostile(struct hostile *h, size_t max)
{
	static uint8_t junk[1000];
	struct swnic_req w = ffx_req(SWNIC_REQ_WRITE, 0, 1000);
	struct swnic_req rd = ffx_req(SWNIC_REQ_READ, 0, 64);
	struct swnic_req at = ffx_req(SWNIC_REQ_ATOMIC_FA, 0, 8);
	struct swnic_resp resp = {.status = SWNIC_RESP_ACK};
	size_t n = 0;

	w.payload = junk;
#define ADD(label, half) (h[n].name = (label), h[n].half_close = (half), &h[n])
	{ struct hostile *c = ADD("bad magic", false); c->len = encode(&w, c->bytes); c->bytes[1] = 'X'; n++; }
	{ struct hostile *c = ADD("version 1", false); c->len = encode(&w, c->bytes); c->bytes[4] = 1; n++; }
	{ struct hostile *c = ADD("type 3", false); c->len = encode(&w, c->bytes); c->bytes[5] = 3; n++; }
	{
		struct hostile *c = ADD("response sent to a responder", false);

		assert_int_equal(swnic_frame_encode_resp(1, &resp, 1u << 16, c->bytes), DOCA_SUCCESS);
		c->len = SWNIC_FRAME_RESP_HDR_LEN;
		n++;
	}
	{ struct hostile *c = ADD("truncated prefix", true); encode(&w, c->bytes); c->len = 10; n++; }
	{ struct hostile *c = ADD("truncated request header", true); encode(&w, c->bytes); c->len = 60; n++; }
	{ struct hostile *c = ADD("truncated payload", true); c->len = encode(&w, c->bytes) - 500; n++; }
	{
		struct hostile *c = ADD("payload over the cap", false);

		encode(&w, c->bytes);
		be32_at(c->bytes + 12, (1u << 16) + 1);
		be32_at(c->bytes + 68, (1u << 16) + 1);
		c->len = SWNIC_FRAME_REQ_HDR_LEN;
		n++;
	}
	{
		struct hostile *c = ADD("read length over the cap", false);

		c->len = encode(&rd, c->bytes);
		be32_at(c->bytes + 68, (1u << 16) + 1);
		n++;
	}
	{ struct hostile *c = ADD("op 0", false); c->len = encode(&rd, c->bytes); c->bytes[24] = 0; n++; }
	{ struct hostile *c = ADD("op 10", false); c->len = encode(&rd, c->bytes); c->bytes[24] = 10; n++; }
	{ struct hostile *c = ADD("atomic size 3", false); c->len = encode(&at, c->bytes); c->bytes[25] = 3; n++; }
	{
		struct hostile *c = ADD("payload length differs from len", false);

		c->len = encode(&w, c->bytes);
		be32_at(c->bytes + 68, 999);
		n++;
	}
#undef ADD
	assert_true(n <= max);
	return n;
}

static void tcp_hostile_frames_close_without_executing(void **state)
{
	static struct hostile cases[16];
	struct ffx b;
	size_t n, i;

	(void)state;
	assert_int_equal(ffx_create(&b, 1, 16), DOCA_SUCCESS);
	assert_true(swnic_fabric_max_msg(b.fabric) == (1u << 16));
	n = make_hostile(cases, 16);
	for (i = 0; i < n; i++) {
		uint64_t rejected = stats_of(&b).frames_rejected;
		int fd = ffx_connect_raw(&b);

		assert_true(fd >= 0);
		assert_int_equal(send(fd, cases[i].bytes, cases[i].len, MSG_NOSIGNAL), (ssize_t)cases[i].len);
		if (cases[i].half_close)
			shutdown(fd, SHUT_WR);
		if (!ffx_peer_closed(fd, 5000))
			fail_msg("case '%s': connection not closed", cases[i].name);
		close(fd);
		if (stats_of(&b).frames_rejected != rejected + 1)
			fail_msg("case '%s': not counted as rejected", cases[i].name);
	}
	assert_int_equal(atomic_load(&b.calls), 0);
	ffx_check_region(&b, 0, FFX_REGION_SIZE, 0xee);
	assert_true(stats_of(&b).frames_served == 0);

	/* The same harness does see a valid frame executed and answered. */
	{
		struct swnic_req w = ffx_req(SWNIC_REQ_WRITE, 0, 1000);
		uint8_t buf[SWNIC_FRAME_REQ_HDR_LEN + 1000], rbuf[SWNIC_FRAME_RESP_HDR_LEN];
		int fd = ffx_connect_raw(&b);
		size_t len;

		w.payload = buf; /* content set by encode() */
		len = encode(&w, buf);
		assert_int_equal(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
		assert_int_equal(recv(fd, rbuf, sizeof(rbuf), MSG_WAITALL), (ssize_t)sizeof(rbuf));
		assert_int_equal(rbuf[5], SWNIC_FRAME_RESP);
		assert_int_equal(rbuf[24], SWNIC_RESP_ACK);
		assert_int_equal(rbuf[23], 42); /* request id echoed */
		close(fd);
		assert_int_equal(atomic_load(&b.calls), 1);
		ffx_check_region(&b, 0, 1000, 0x11);
	}
	ffx_destroy(&b);
}

static void tcp_unknown_version_logs_clearly(void **state)
{
	struct swnic_req w = ffx_req(SWNIC_REQ_WRITE, 0, 0);
	uint8_t buf[SWNIC_FRAME_REQ_HDR_LEN];
	char log[2048];
	struct ffx b;
	int fd;

	(void)state;
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	encode(&w, buf);
	buf[4] = 7;
	stderr_capture_begin();
	fd = ffx_connect_raw(&b);
	assert_true(fd >= 0);
	assert_int_equal(send(fd, buf, sizeof(buf), MSG_NOSIGNAL), (ssize_t)sizeof(buf));
	assert_true(ffx_peer_closed(fd, 5000));
	close(fd);
	stderr_capture_end(log, sizeof(log));
	assert_non_null(strstr(log, "frame version 7, this build speaks version 2"));
	assert_non_null(strstr(log, "127.0.0.1:"));
	assert_int_equal(atomic_load(&b.calls), 0);
	ffx_destroy(&b);
}

/* ---- unreachable, silent and lying peers ---- */

static void tcp_dead_endpoint_not_connected(void **state)
{
	static const uint8_t roce_gid[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};
	struct ffx a, gone;
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, 0, 0);
	uint8_t gid[16];
	uint64_t t0;

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&gone, 1, 0), DOCA_SUCCESS);
	memcpy(gid, gone.gid, 16);
	ffx_destroy(&gone); /* its port is closed now */
	t0 = ffx_now_ns();
	assert_int_equal(swnic_fabric_deliver(&a.nic, gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_ERROR_NOT_CONNECTED);
	assert_true(ffx_ms_since(t0) < 5000);
	assert_int_equal(swnic_fabric_deliver(&a.nic, roce_gid, &req, &resp, NULL, TIMEOUT_NS),
			 DOCA_ERROR_NOT_CONNECTED);
	assert_true(stats_of(&a).tcp_failures == 1);
	ffx_destroy(&a);
}

static void tcp_silent_peer_times_out(void **state)
{
	const uint64_t timeout = 200ull * 1000 * 1000;
	struct ffx a;
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_ATOMIC_FA, 0, 8);
	uint8_t gid[16];
	uint64_t t0, ms;
	int lfd;

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	/* The kernel completes the handshake; nobody ever reads or answers. */
	lfd = ffx_listen_raw(gid);
	assert_true(lfd >= 0);
	t0 = ffx_now_ns();
	assert_int_equal(swnic_fabric_deliver(&a.nic, gid, &req, &resp, NULL, timeout), DOCA_ERROR_TIME_OUT);
	ms = ffx_ms_since(t0);
	assert_true(ms >= 200);
	assert_true(ms < 5000);
	assert_int_equal(resp.status, 0);
	close(lfd);
	ffx_destroy(&a);
}

/* A listener whose accept queue is full drops new SYNs: the connect itself must time out. */
static void tcp_connect_times_out(void **state)
{
	const uint64_t timeout = 200ull * 1000 * 1000;
	struct ffx a;
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, 0, 0);
	struct swnic_endpoint ep;
	struct sockaddr_in sa;
	uint8_t gid[16];
	uint64_t t0, ms;
	int lfd, fill[3], i;

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	lfd = ffx_listen_raw(gid);
	assert_true(lfd >= 0);
	assert_int_equal(listen(lfd, 0), 0);
	assert_int_equal(swnic_gid_decode(gid, &ep), DOCA_SUCCESS);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(ep.port);
	sa.sin_addr.s_addr = htonl(ep.ipv4);
	for (i = 0; i < 3; i++) {
		fill[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		assert_true(fill[i] >= 0);
		(void)connect(fill[i], (struct sockaddr *)&sa, sizeof(sa));
	}
	t0 = ffx_now_ns();
	assert_int_equal(swnic_fabric_deliver(&a.nic, gid, &req, &resp, NULL, timeout), DOCA_ERROR_TIME_OUT);
	ms = ffx_ms_since(t0);
	assert_true(ms >= 200);
	assert_true(ms < 5000);
	assert_true(stats_of(&a).tcp_failures == 1);
	for (i = 0; i < 3; i++)
		close(fill[i]);
	close(lfd);
	ffx_destroy(&a);
}

/* A fake responder that reads one request and answers with a crafted header (+ data). */
struct liar {
	int lfd;
	uint8_t reply[SWNIC_FRAME_RESP_HDR_LEN + 64];
	size_t reply_len;
	bool copy_request_id;
};

static void *liar_main(void *arg)
{
	struct liar *l = arg;
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	int fd = accept(l->lfd, NULL, NULL);

	if (fd < 0)
		return NULL;
	if (ffx_hello_serve(fd) && recv(fd, hdr, sizeof(hdr), MSG_WAITALL) == (ssize_t)sizeof(hdr)) {
		if (l->copy_request_id)
			memcpy(l->reply + 16, hdr + 16, 8);
		send(fd, l->reply, l->reply_len, MSG_NOSIGNAL);
	}
	/* Nothing unread is left here, so this is a clean close (FIN) after the reply. */
	close(fd);
	return NULL;
}

static doca_error_t lie(struct ffx *a, const struct swnic_resp *r, void (*tweak)(struct liar *), uint32_t read_len,
			uint8_t *read_buf)
{
	struct liar l;
	struct swnic_req req = ffx_req(SWNIC_REQ_READ, 0, read_len);
	struct swnic_resp resp;
	uint8_t gid[16];
	pthread_t th;
	doca_error_t err;

	memset(&l, 0, sizeof(l));
	l.lfd = ffx_listen_raw(gid);
	assert_true(l.lfd >= 0);
	assert_int_equal(swnic_frame_encode_resp(0, r, 1u << 30, l.reply), DOCA_SUCCESS);
	memset(l.reply + SWNIC_FRAME_RESP_HDR_LEN, 0x77, 64);
	l.reply_len = SWNIC_FRAME_RESP_HDR_LEN + r->read_len;
	l.copy_request_id = true;
	if (tweak)
		tweak(&l);
	assert_int_equal(pthread_create(&th, NULL, liar_main, &l), 0);
	err = swnic_fabric_deliver(&a->nic, gid, &req, &resp, read_buf, TIMEOUT_NS);
	pthread_join(th, NULL);
	close(l.lfd);
	return err;
}

static void tweak_wrong_id(struct liar *l)
{
	l->copy_request_id = false;
	l->reply[23] = 0x99;
}
static void tweak_version(struct liar *l) { l->reply[4] = SWNIC_FRAME_VERSION + 1; }
static void tweak_type_req(struct liar *l) { l->reply[5] = SWNIC_FRAME_REQ; }
static void tweak_truncate(struct liar *l) { l->reply_len = 30; }
static void tweak_short_data(struct liar *l) { l->reply_len -= 3; }

static void tcp_bad_responses_reset(void **state)
{
	struct swnic_resp ok = {.status = SWNIC_RESP_ACK, .read_len = 16};
	struct swnic_resp too_much = {.status = SWNIC_RESP_ACK, .read_len = 32};
	uint8_t buf[64];
	struct ffx a;

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	/* the harness itself: a proper answer is accepted and its data lands */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(lie(&a, &ok, NULL, 16, buf), DOCA_SUCCESS);
	assert_int_equal(buf[0], 0x77);
	assert_int_equal(buf[15], 0x77);
	assert_int_equal(buf[16], 0);

	/* more read data than asked for: refused before a byte is written to the buffer */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(lie(&a, &too_much, NULL, 16, buf), DOCA_ERROR_CONNECTION_RESET);
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[31], 0);
	assert_int_equal(lie(&a, &ok, tweak_wrong_id, 16, buf), DOCA_ERROR_CONNECTION_RESET);
	assert_int_equal(lie(&a, &ok, tweak_version, 16, buf), DOCA_ERROR_CONNECTION_RESET);
	assert_int_equal(lie(&a, &ok, tweak_type_req, 16, buf), DOCA_ERROR_CONNECTION_RESET);
	assert_int_equal(lie(&a, &ok, tweak_truncate, 16, buf), DOCA_ERROR_CONNECTION_RESET);
	assert_int_equal(lie(&a, &ok, tweak_short_data, 16, buf), DOCA_ERROR_CONNECTION_RESET);
	ffx_destroy(&a);
}

/* ---- concurrency and shutdown ---- */

struct worker {
	struct ffx *a, *b;
	uint32_t slot;
	int failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int i;

	for (i = 0; i < 200; i++) {
		uint8_t data[24], back[24];
		struct swnic_resp resp;
		struct swnic_req req;
		uint64_t off = 4096 + (uint64_t)w->slot * 64;

		memset(data, (int)(w->slot * 16 + (uint32_t)i % 16), sizeof(data));
		req = ffx_req(SWNIC_REQ_WRITE, off, sizeof(data));
		req.payload = data;
		if (swnic_fabric_deliver(&w->a->nic, w->b->gid, &req, &resp, NULL, TIMEOUT_NS) != DOCA_SUCCESS ||
		    resp.status != SWNIC_RESP_ACK)
			w->failures++;
		req = ffx_req(SWNIC_REQ_READ, off, sizeof(back));
		if (swnic_fabric_deliver(&w->a->nic, w->b->gid, &req, &resp, back, TIMEOUT_NS) != DOCA_SUCCESS ||
		    resp.read_len != sizeof(back) || memcmp(back, data, sizeof(data)) != 0)
			w->failures++;
		req = ffx_req(SWNIC_REQ_ATOMIC_FA, 0, 8);
		req.swap_add = 1;
		if (swnic_fabric_deliver(&w->a->nic, w->b->gid, &req, &resp, NULL, TIMEOUT_NS) != DOCA_SUCCESS)
			w->failures++;
	}
	return NULL;
}

static void tcp_concurrent_requesters(void **state)
{
	enum { N = 4 };
	struct worker w[N];
	pthread_t th[N];
	struct ffx a, b;
	uint64_t counter = 0;
	int i;

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	memcpy(b.region, &counter, 8);
	ffx_sync(&b);
	for (i = 0; i < N; i++) {
		w[i] = (struct worker){.a = &a, .b = &b, .slot = (uint32_t)i};
		assert_int_equal(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
	}
	for (i = 0; i < N; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(w[i].failures, 0);
	}
	/* every fetch-add executed exactly once */
	ffx_sync(&b);
	memcpy(&counter, b.region, 8);
	assert_true(counter == N * 200);
	assert_int_equal(atomic_load(&b.calls), N * 200 * 3);
	assert_true(stats_of(&a).tcp_deliveries == N * 200 * 3);
	assert_true(stats_of(&a).conns_opened <= N);
	ffx_destroy(&a);
	ffx_destroy(&b);
}

struct blocked {
	struct ffx *a;
	const uint8_t *gid;
	doca_error_t err;
	uint64_t ms;
};

static void *blocked_main(void *arg)
{
	struct blocked *bl = arg;
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, 0, 0);
	struct swnic_resp resp;
	uint64_t t0 = ffx_now_ns();

	bl->err = swnic_fabric_deliver(&bl->a->nic, bl->gid, &req, &resp, NULL, 30ull * 1000 * 1000 * 1000);
	bl->ms = ffx_ms_since(t0);
	return NULL;
}

static void tcp_destroy_fails_outstanding_request(void **state)
{
	struct blocked bl;
	struct ffx a;
	uint8_t gid[16];
	pthread_t th;
	int lfd, cfd;

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	lfd = ffx_listen_raw(gid);
	assert_true(lfd >= 0);
	bl = (struct blocked){.a = &a, .gid = gid};
	assert_int_equal(pthread_create(&th, NULL, blocked_main, &bl), 0);
	cfd = accept(lfd, NULL, NULL); /* the request is on its way; it will never be answered */
	assert_true(cfd >= 0);
	ffx_destroy(&a);
	pthread_join(th, NULL);
	assert_true(bl.err == DOCA_ERROR_CONNECTION_RESET || bl.err == DOCA_ERROR_NOT_CONNECTED);
	assert_true(bl.ms < 10000);
	close(cfd);
	close(lfd);
}

static void tcp_reconnects_after_peer_restart(void **state)
{
	struct ffx a, b;
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, 0, 0);
	struct swnic_endpoint ep;
	char addr[40];
	uint8_t old_gid[16];

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	/* b restarts on the same endpoint: a's pooled connection is dead */
	assert_int_equal(swnic_fabric_get_endpoint(b.fabric, &ep), DOCA_SUCCESS);
	memcpy(old_gid, b.gid, 16);
	ffx_destroy(&b);
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", (unsigned)(ep.port - 1)); /* index 1 adds 1 */
	setenv("OPENGDA_SWNIC_ADDR", addr, 1);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	unsetenv("OPENGDA_SWNIC_ADDR");
	assert_memory_equal(b.gid, old_gid, 16);
	/* the first request after the restart succeeds: the dead connection is noticed and replaced */
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_true(stats_of(&a).conns_opened == 2);
	assert_true(stats_of(&a).tcp_failures == 0);
	ffx_destroy(&a);
	ffx_destroy(&b);
}

/* ---- endpoint selection ---- */

static void addr_env_selects_endpoint(void **state)
{
	struct swnic_endpoint ep;
	struct ffx x, y;
	char addr[40];
	uint16_t port;

	(void)state;
	/* default: 127.0.0.1, a kernel port, the index in the GID */
	unsetenv("OPENGDA_SWNIC_ADDR");
	assert_int_equal(ffx_create(&x, 5, 0), DOCA_SUCCESS);
	assert_int_equal(swnic_fabric_get_endpoint(x.fabric, &ep), DOCA_SUCCESS);
	assert_int_equal(ep.ipv4, 0x7f000001u);
	assert_int_not_equal(ep.port, 0);
	assert_int_equal(x.gid[9], 5);
	assert_int_equal(x.gid[10], ep.port >> 8);
	assert_int_equal(x.gid[11], ep.port & 0xff);
	assert_int_equal(x.gid[12], 127);
	assert_int_equal(x.gid[15], 1);
	port = ep.port;
	ffx_destroy(&x);

	/* ip:port: instance i listens on port + i */
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", (unsigned)(port - 3));
	setenv("OPENGDA_SWNIC_ADDR", addr, 1);
	assert_int_equal(ffx_create(&x, 3, 0), DOCA_SUCCESS);
	assert_int_equal(swnic_fabric_get_endpoint(x.fabric, &ep), DOCA_SUCCESS);
	assert_int_equal(ep.port, port);
	/* the same port again is in use */
	assert_int_equal(ffx_create(&y, 3, 0), DOCA_ERROR_IN_USE);
	ffx_destroy(&x);

	/* ip only: a kernel port on that address */
	setenv("OPENGDA_SWNIC_ADDR", "127.0.0.2", 1);
	assert_int_equal(ffx_create(&x, 0, 0), DOCA_SUCCESS);
	assert_int_equal(swnic_fabric_get_endpoint(x.fabric, &ep), DOCA_SUCCESS);
	assert_int_equal(ep.ipv4, 0x7f000002u);
	assert_int_equal(x.gid[15], 2);
	ffx_destroy(&x);

	/* values that cannot be an endpoint */
	{
		static const char *const bad[] = {"localhost", "127.0.0.1:", "127.0.0.1:x", "127.0.0.1:65536",
						  "127.0.0.1:-1", "0.0.0.0", "255.255.255.255", "224.0.0.1",
						  ":5000", "1.2.3", "::1"};
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			setenv("OPENGDA_SWNIC_ADDR", bad[i], 1);
			if (ffx_create(&x, 0, 0) != DOCA_ERROR_BAD_CONFIG)
				fail_msg("OPENGDA_SWNIC_ADDR='%s' accepted", bad[i]);
		}
	}
	setenv("OPENGDA_SWNIC_ADDR", "127.0.0.1:65535", 1);
	assert_int_equal(ffx_create(&x, 1, 0), DOCA_ERROR_BAD_CONFIG); /* 65535 + 1 */
	unsetenv("OPENGDA_SWNIC_ADDR");
}

static void deliver_rejects_bad_arguments(void **state)
{
	struct ffx a, b;
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_READ, 0, 8);
	uint8_t buf[8];

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 12), DOCA_SUCCESS); /* max message 4 KiB */
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	assert_int_equal(swnic_fabric_deliver(NULL, b.gid, &req, &resp, buf, TIMEOUT_NS), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_fabric_deliver(&a.nic, NULL, &req, &resp, buf, TIMEOUT_NS), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, NULL, &resp, buf, TIMEOUT_NS), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, NULL, buf, TIMEOUT_NS), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, buf, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_ERROR_INVALID_VALUE);
	req.op = 0;
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, buf, TIMEOUT_NS), DOCA_ERROR_INVALID_VALUE);
	req = ffx_req(SWNIC_REQ_WRITE, 0, 4097);
	req.payload = buf;
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_ERROR_TOO_BIG);
	req = ffx_req(SWNIC_REQ_WRITE, 0, 8);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_ERROR_INVALID_VALUE);
	/* nothing reached b */
	assert_int_equal(atomic_load(&b.calls), 0);
	assert_true(stats_of(&a).conns_opened == 0);
	ffx_destroy(&a);
	ffx_destroy(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tcp_write_read_atomics_land),
		cmocka_unit_test(tcp_large_write_and_read),
		cmocka_unit_test(tcp_hostile_frames_close_without_executing),
		cmocka_unit_test(tcp_unknown_version_logs_clearly),
		cmocka_unit_test(tcp_dead_endpoint_not_connected),
		cmocka_unit_test(tcp_silent_peer_times_out),
		cmocka_unit_test(tcp_connect_times_out),
		cmocka_unit_test(tcp_bad_responses_reset),
		cmocka_unit_test(tcp_concurrent_requesters),
		cmocka_unit_test(tcp_destroy_fails_outstanding_request),
		cmocka_unit_test(tcp_reconnects_after_peer_restart),
		cmocka_unit_test(addr_env_selects_endpoint),
		cmocka_unit_test(deliver_rejects_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
