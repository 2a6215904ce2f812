/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma's connection manager on the software NIC, both ends in this process on loopback:
 * listen / connect_to_addr / accept with the callbacks from doca_pe_progress, data over the
 * connections made (a write with immediate reported on the server's connection id, two clients
 * on one server), reject, a refused address, the request timeout, disconnect and a peer that
 * stops, addresses, and bad input on every call.
 */
#include "rdma_fixture.h"

#include "doca_ctx.h"
#include "doca_pe.h"

#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

/* What one side's callbacks saw. */
struct cm_seen {
	int requests, established, failures, disconnects;
	struct doca_rdma_connection *last;
	union doca_data last_user;
	bool accept, reject; /* what request_cb does */
};

struct cm_side {
	struct rfx_side s;
	struct doca_pe *pe;
	struct cm_seen seen;
};

static void on_request(struct doca_rdma_connection *c, union doca_data ctx_user)
{
	struct cm_seen *w = ctx_user.ptr;
	char hello[] = "hello";

	w->requests++;
	w->last = c;
	if (w->accept)
		assert_int_equal(doca_rdma_connection_accept(c, hello, sizeof(hello)), DOCA_SUCCESS);
	else if (w->reject)
		assert_int_equal(doca_rdma_connection_reject(c), DOCA_SUCCESS);
}

static void on_established(struct doca_rdma_connection *c, union doca_data user, union doca_data ctx_user)
{
	struct cm_seen *w = ctx_user.ptr;

	w->established++;
	w->last = c;
	w->last_user = user;
}

static void on_failure(struct doca_rdma_connection *c, union doca_data user, union doca_data ctx_user)
{
	struct cm_seen *w = ctx_user.ptr;

	w->failures++;
	w->last = c;
	w->last_user = user;
}

static void on_disconnect(struct doca_rdma_connection *c, union doca_data user, union doca_data ctx_user)
{
	struct cm_seen *w = ctx_user.ptr;

	w->disconnects++;
	w->last = c;
	w->last_user = user;
}

static void side_start(struct cm_side *x, uint16_t nconn, uint16_t timeout_ms)
{
	struct doca_rdma *r;
	union doca_data me = {.ptr = &x->seen};

	assert_int_equal(doca_rdma_create(x->s.f->dev, &x->s.rdma), DOCA_SUCCESS);
	r = x->s.rdma;
	assert_int_equal(doca_rdma_set_permissions(r, RFX_ACCESS), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_set_recv_queue_size(r, 64), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_set_max_num_connections(r, nconn), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_set_connection_state_callbacks(r, on_request, on_established, on_failure, on_disconnect),
			 DOCA_SUCCESS);
	if (timeout_ms != 0)
		assert_int_equal(doca_rdma_set_connection_request_timeout(r, timeout_ms), DOCA_SUCCESS);
	assert_int_equal(opengda_rdma_set_wait_timeout(r, 5000000000ull), DOCA_SUCCESS);
	assert_int_equal(doca_pe_create(&x->pe), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(x->pe, doca_rdma_as_ctx(r)), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_user_data(doca_rdma_as_ctx(r), me), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_rdma_as_ctx(r), x->s.f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_rdma_as_ctx(r)), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_get_gpu_handle(r, &x->s.h), DOCA_SUCCESS);
}

static void side_stop(struct cm_side *x)
{
	if (x->s.rdma == NULL)
		return;
	assert_int_equal(doca_ctx_stop(doca_rdma_as_ctx(x->s.rdma)), DOCA_SUCCESS);
	while (doca_pe_progress(x->pe) != 0)
		;
	assert_int_equal(doca_rdma_destroy(x->s.rdma), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(x->pe), DOCA_SUCCESS);
	x->s.rdma = NULL;
}

/* Progresses every side until @done says so (5 s at most). */
static bool progress_until(struct cm_side **sides, int n, bool (*done)(void *), void *arg)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		for (int i = 0; i < n; i++)
			(void)doca_pe_progress(sides[i]->pe);
		if (done(arg))
			return true;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 5)
			return false;
		usleep(100);
	}
}

static bool two_established(void *arg)
{
	struct cm_side **p = arg;

	return p[0]->seen.established >= 1 && p[1]->seen.established >= 1;
}

static bool failed(void *arg)
{
	return ((struct cm_seen *)arg)->failures > 0;
}

static bool disconnected(void *arg)
{
	return ((struct cm_seen *)arg)->disconnects > 0;
}

/* A port for this test run: its own process's, so parallel runs do not meet. */
static uint16_t listen_somewhere(struct cm_side *srv)
{
	for (uint32_t k = 0; k < 200; k++) {
		uint16_t port = (uint16_t)(20000u + ((uint32_t)getpid() * 7u + k * 131u) % 30000u);

		if (doca_rdma_start_listen_to_port(srv->s.rdma, port) == DOCA_SUCCESS)
			return port;
	}
	fail_msg("no free TCP port");
	return 0;
}

struct cm_fx {
	struct cm_side srv, cli, cli2;
};

static int fx_setup(void **state)
{
	struct cm_fx *x = calloc(1, sizeof(*x));
	void *st;

	assert_non_null(x);
	assert_int_equal(cfx_setup(&st), 0);
	x->srv.s.f = st;
	assert_int_equal(cfx_setup(&st), 0);
	x->cli.s.f = st;
	x->cli2.s.f = x->cli.s.f;
	*state = x;
	return 0;
}

static int fx_teardown(void **state)
{
	struct cm_fx *x = *state;
	void *st;

	side_stop(&x->cli2);
	side_stop(&x->cli);
	side_stop(&x->srv);
	st = x->srv.s.f;
	assert_int_equal(cfx_teardown(&st), 0);
	st = x->cli.s.f;
	assert_int_equal(cfx_teardown(&st), 0);
	free(x);
	return 0;
}

/* Client @cli connects to the server on @port (user data @ud) and both see it established. */
static void connect_one(struct cm_side *srv, struct cm_side *cli, uint16_t port, uint64_t ud)
{
	struct doca_rdma_addr *addr = NULL;
	struct cm_side *pair[2] = {srv, cli};
	int before_srv = srv->seen.established, before_cli = cli->seen.established;

	assert_int_equal(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &addr), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connect_to_addr(cli->s.rdma, addr, (union doca_data){.u64 = ud}), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_addr_destroy(addr), DOCA_SUCCESS); /* the connection keeps its own copy */
	srv->seen.established = cli->seen.established = 0;
	assert_true(progress_until(pair, 2, two_established, pair));
	srv->seen.established += before_srv;
	cli->seen.established += before_cli;
	assert_int_equal(cli->seen.last_user.u64, ud);
}

/* Accept, data over the connection, a second client on connection 1, the peers' addresses. */
static void test_cm_accept(void **state)
{
	struct cm_fx *x = *state;
	struct doca_gpu_dev_rdma_r *r = NULL;
	struct doca_rdma_addr *peer = NULL;
	enum doca_rdma_addr_type type;
	const char *text = NULL;
	uint16_t port, pport = 0;
	uint32_t id = 9, n = 0, imm[2], conn[2];

	side_start(&x->srv, 2, 0);
	side_start(&x->cli, 1, 0);
	side_start(&x->cli2, 1, 0);
	x->srv.seen.accept = true;
	port = listen_somewhere(&x->srv);
	connect_one(&x->srv, &x->cli, port, 0x77);
	assert_int_equal(x->srv.seen.requests, 1);
	assert_int_equal(doca_rdma_connection_get_id(x->srv.seen.last, &id), DOCA_SUCCESS);
	assert_int_equal(id, 0);
	assert_int_equal(doca_rdma_connection_get_addr(x->srv.seen.last, &peer), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_addr_get_params(peer, &type, &text, &pport), DOCA_SUCCESS);
	assert_int_equal(type, DOCA_RDMA_ADDR_TYPE_IPv4);
	assert_string_equal(text, "127.0.0.1");
	assert_int_not_equal(pport, 0);
	assert_int_equal(doca_rdma_connection_get_addr(x->cli.seen.last, &peer), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_addr_get_params(peer, &type, &text, &pport), DOCA_SUCCESS);
	assert_int_equal(pport, port);
	connect_one(&x->srv, &x->cli2, port, 0x88);
	assert_int_equal(doca_rdma_connection_get_id(x->srv.seen.last, &id), DOCA_SUCCESS);
	assert_int_equal(id, 1);

	/* Data: each client writes with immediate into the server's buffer; ids tell them apart. */
	rfx_share(&x->srv.s, &x->cli.s);
	rfx_share(&x->cli.s, &x->srv.s);
	dmafx_fill(x->cli.s.f->buf, RFX_ELEM * 2, 3);
	assert_int_equal(ogda_dev_rdma_get_recv(x->srv.s.h, &r), DOCA_SUCCESS);
	for (int k = 0; k < 2; k++)
		assert_int_equal(ogda_dev_rdma_recv(r, NULL, 0, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv_commit_strong(r), DOCA_SUCCESS);
	for (uint32_t k = 0; k < 2; k++) {
		struct doca_gpu_dev_rdma *h = k == 0 ? x->cli.s.h : x->cli2.s.h;

		assert_int_equal(ogda_dev_rdma_xfer(h, 0, rfx_remote(&x->cli.s, k), 0, rfx_local(&x->cli.s, k), 0, RFX_ELEM,
						    htonl(0x100 + k), DOCA_GPU_RDMA_WRITE_FLAG_IMM, 0, 0, 0),
				 DOCA_SUCCESS);
		assert_int_equal(ogda_dev_rdma_commit_strong(h, 0), DOCA_SUCCESS);
		assert_int_equal(ogda_dev_rdma_wait_all(h, &n), DOCA_SUCCESS);
		assert_int_equal(n, 1);
	}
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, imm, conn), DOCA_SUCCESS);
	assert_int_equal(n, 2);
	assert_int_equal(imm[0], htonl(0x100));
	assert_int_equal(conn[0], 0);
	assert_int_equal(imm[1], htonl(0x101));
	assert_int_equal(conn[1], 1);
	assert_memory_equal(x->srv.s.f->buf, x->cli.s.f->buf, RFX_ELEM * 2);
	rfx_unshare(&x->cli.s, &x->srv.s);
	rfx_unshare(&x->srv.s, &x->cli.s);
	assert_int_equal(x->cli.seen.failures + x->srv.seen.failures, 0);
}

/* A rejected request: the client's failure callback; the server's connection is free again. */
static void test_cm_reject(void **state)
{
	struct cm_fx *x = *state;
	struct doca_rdma_addr *addr = NULL;
	uint16_t port;
	uint32_t id = 9;

	side_start(&x->srv, 1, 0);
	side_start(&x->cli, 1, 0);
	side_start(&x->cli2, 1, 0);
	x->srv.seen.reject = true;
	port = listen_somewhere(&x->srv);
	assert_int_equal(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &addr), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connect_to_addr(x->cli.s.rdma, addr, (union doca_data){.u64 = 5}), DOCA_SUCCESS);
	struct cm_side *both[2] = {&x->srv, &x->cli};
	assert_true(progress_until(both, 2, failed, &x->cli.seen));
	assert_int_equal(x->srv.seen.requests, 1);
	assert_int_equal(x->cli.seen.last_user.u64, 5);
	assert_int_equal(x->cli.seen.established, 0);
	/* The only server connection was freed by the reject: the next client gets it. */
	x->srv.seen.reject = false;
	x->srv.seen.accept = true;
	connect_one(&x->srv, &x->cli2, port, 6);
	assert_int_equal(doca_rdma_connection_get_id(x->srv.seen.last, &id), DOCA_SUCCESS);
	assert_int_equal(id, 0);
	assert_int_equal(doca_rdma_stop_listen_to_port(x->srv.s.rdma, port), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_addr_destroy(addr), DOCA_SUCCESS);
}

/* Nobody listens: the failure callback (or the call's own error); a silent server: the timeout. */
static void test_cm_refused_timeout(void **state)
{
	struct cm_fx *x = *state;
	struct doca_rdma_addr *addr = NULL;
	struct cm_side *both[2] = {&x->srv, &x->cli};
	uint16_t port, t = 0;
	doca_error_t err;

	side_start(&x->srv, 1, 0);
	side_start(&x->cli, 1, 300);
	assert_int_equal(doca_rdma_get_connection_request_timeout(x->cli.s.rdma, &t), DOCA_SUCCESS);
	assert_int_equal(t, 300);
	port = listen_somewhere(&x->srv);
	assert_int_equal(doca_rdma_stop_listen_to_port(x->srv.s.rdma, port), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &addr), DOCA_SUCCESS);
	err = doca_rdma_connect_to_addr(x->cli.s.rdma, addr, (union doca_data){.u64 = 1});
	if (err == DOCA_SUCCESS)
		assert_true(progress_until(both, 2, failed, &x->cli.seen));
	else
		assert_int_equal(err, DOCA_ERROR_CONNECTION_ABORTED);
	/* A server whose application never answers: the client gives up after 300 ms. */
	x->cli.seen.failures = 0;
	assert_int_equal(doca_rdma_start_listen_to_port(x->srv.s.rdma, port), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connect_to_addr(x->cli.s.rdma, addr, (union doca_data){.u64 = 2}), DOCA_SUCCESS);
	assert_true(progress_until(both, 2, failed, &x->cli.seen));
	assert_int_equal(x->srv.seen.requests, 1);
	assert_int_equal(x->cli.seen.last_user.u64, 2);
	/* The server's pending request is answered too late: the requester is gone. */
	assert_int_not_equal(doca_rdma_connection_accept(x->srv.seen.last, NULL, 0), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_addr_destroy(addr), DOCA_SUCCESS);
}

/* Disconnect runs the peer's callback; a peer that stops does too. */
static void test_cm_disconnect(void **state)
{
	struct cm_fx *x = *state;
	struct cm_side *both[2] = {&x->srv, &x->cli};
	struct cm_side *srv2[2] = {&x->srv, &x->cli2};
	uint16_t port;

	side_start(&x->srv, 2, 0);
	side_start(&x->cli, 1, 0);
	side_start(&x->cli2, 1, 0);
	x->srv.seen.accept = true;
	port = listen_somewhere(&x->srv);
	connect_one(&x->srv, &x->cli, port, 0x31);
	assert_int_equal(doca_rdma_connection_disconnect(x->cli.seen.last), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connection_disconnect(x->cli.seen.last), DOCA_ERROR_BAD_STATE);
	assert_true(progress_until(both, 2, disconnected, &x->srv.seen));
	assert_int_equal(x->cli.seen.disconnects, 0);
	/* The second client's context stops without a word: the server learns it all the same. */
	connect_one(&x->srv, &x->cli2, port, 0x32);
	x->srv.seen.disconnects = 0;
	side_stop(&x->cli2);
	assert_true(progress_until(srv2, 1, disconnected, &x->srv.seen));
	assert_int_equal(x->srv.seen.disconnects, 1);
}

/* Bad input and wrong states on every call. */
static void test_cm_bad_input(void **state)
{
	struct cm_fx *x = *state;
	struct doca_rdma_addr *addr = NULL;
	struct doca_rdma_connection *c = NULL;
	struct doca_rdma *bare = NULL;
	enum doca_rdma_addr_type type;
	const char *text;
	const void *d;
	size_t l;
	uint16_t port = 0, t;
	union doca_data u;

	assert_int_equal(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "::1", 1, &addr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv6, "10.0.0.1", 1, &addr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "10.0.0.1", 0, &addr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_addr_create((enum doca_rdma_addr_type)7, "10.0.0.1", 1, &addr),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, NULL, 1, &addr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_GID, "::ffff:127.0.0.1", 9, &addr), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_addr_get_params(addr, &type, &text, &port), DOCA_SUCCESS);
	assert_int_equal(type, DOCA_RDMA_ADDR_TYPE_GID);
	assert_string_equal(text, "::ffff:127.0.0.1");
	assert_int_equal(port, 9);
	assert_int_equal(doca_rdma_addr_get_params(addr, NULL, &text, &port), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_addr_destroy(NULL), DOCA_ERROR_INVALID_VALUE);

	/* A context without an engine or callbacks cannot listen or connect. */
	assert_int_equal(doca_rdma_create(x->srv.s.f->dev, &bare), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_start_listen_to_port(bare, 4000), DOCA_ERROR_BAD_STATE); /* not running */
	assert_int_equal(doca_rdma_set_connection_request_timeout(bare, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_rdma_as_ctx(bare), x->srv.s.f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_rdma_as_ctx(bare)), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_start_listen_to_port(bare, 4000), DOCA_ERROR_BAD_STATE); /* no engine */
	assert_int_equal(doca_rdma_connect_to_addr(bare, addr, u), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_rdma_set_connection_state_callbacks(bare, NULL, NULL, NULL, NULL), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_rdma_set_connection_request_timeout(bare, 10), DOCA_ERROR_BAD_STATE);
	/* An out-of-band connection has no peer address and is not the connection manager's. */
	assert_int_equal(doca_rdma_export(bare, &d, &l, &c), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connection_get_addr(c, &addr), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(doca_rdma_connection_accept(c, NULL, 0), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_rdma_connection_reject(c), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_rdma_connection_disconnect(c), DOCA_ERROR_BAD_STATE);
	u.u64 = 42;
	assert_int_equal(doca_rdma_connection_set_user_data(c, u), DOCA_SUCCESS);
	u.u64 = 0;
	assert_int_equal(doca_rdma_connection_get_user_data(c, &u), DOCA_SUCCESS);
	assert_int_equal(u.u64, 42);
	assert_int_equal(doca_ctx_stop(doca_rdma_as_ctx(bare)), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_destroy(bare), DOCA_SUCCESS);

	/* A full context: listening twice, stopping the wrong port, accept's limits. */
	side_start(&x->srv, 1, 0);
	port = listen_somewhere(&x->srv);
	assert_int_equal(doca_rdma_start_listen_to_port(x->srv.s.rdma, port), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_rdma_stop_listen_to_port(x->srv.s.rdma, (uint16_t)(port + 1)), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(doca_rdma_start_listen_to_port(NULL, port), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_start_listen_to_port(x->srv.s.rdma, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_connect_to_addr(x->srv.s.rdma, NULL, u), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_connection_accept(NULL, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_connection_get_user_data(NULL, &u), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_get_connection_request_timeout(x->srv.s.rdma, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_get_connection_request_timeout(x->srv.s.rdma, &t), DOCA_SUCCESS);
	assert_int_equal(t, OPENGDA_RDMA_CM_DEFAULT_TIMEOUT_MS);
	/* The only connection is the listener's to give: the context's own connect finds none free. */
	assert_int_equal(doca_rdma_export(x->srv.s.rdma, &d, &l, &c), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connect_to_addr(x->srv.s.rdma, addr, u), DOCA_ERROR_FULL);
	assert_int_equal(doca_rdma_addr_destroy(addr), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cm_accept, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_cm_reject, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_cm_refused_timeout, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_cm_disconnect, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_cm_bad_input, fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
