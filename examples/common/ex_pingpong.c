/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frame of the ping-pong latency examples (write_lat: RDMA writes polled in memory;
 * send_lat: SENDs into posted receives): one device thread on each side, perftest style.
 *
 * Each side's buffer holds a receive slot (offset 0) and a send slot (offset max size), both of
 * the largest message size. Before a pass each side clears its receive slot and fills its send
 * slot with its pattern except the last byte, which the device code stamps with the round trip
 * (ex_pingpong_stamp). The server's device code starts in server_begin and waits for the client's
 * first message; the client's runs in client_run. After the pass each side checks its device
 * code's status and round trips, and every byte of its receive slot: the peer's pattern, the
 * last round trip's stamp, and untouched bytes after the message.
 */
#include "ex_pingpong.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_util.h"

/* Pattern slots: what each side sends. */
enum { CLIENT_SLOT = 0, SERVER_SLOT = 1 };

#define RECV_OFF 0u
/* Bytes after the message checked to be still zero (a put longer than its message). */
#define TAIL_PROBE 256u


/* The server's launch arguments: its device code reads them until server_end. */
static struct ex_pingpong_args server_args;
static const struct ex_pingpong *pp; /* the example running */

static uint64_t send_off(const struct ex_ctx *x)
{
	return x->cfg.max_size;
}

static uint64_t buf_bytes(const struct ex_ctx *x)
{
	return 2 * x->cfg.max_size;
}

static uint64_t aux_bytes(const struct ex_ctx *x)
{
	(void)x;
	return sizeof(struct ex_thread_result);
}

static int check_config(struct ex_ctx *x)
{
	if (x->blocks != 1 || x->threads != 1) {
		sample_err("-b %u -t %u: %s runs one thread on each side", x->blocks, x->threads, pp->spec->name);
		return -1;
	}
	return 0;
}

static void host_fn(const struct ex_lane *l, void *arg)
{
	pp->host_thread(arg, l);
}

static ex_cuda_launch_fn cuda_launch(void)
{
	return pp->cuda_launch;
}

/*
 * Clears the receive slot and the result, fills the send slot with this side's pattern (its last
 * byte 0 until the device code stamps it), and sets up the device code's arguments.
 */
static int prepare(struct ex_ctx *x, const struct ex_step *s, struct ex_pingpong_args *a)
{
	uint8_t *msg = malloc(s->size);
	int rc = -1;

	if (msg == NULL)
		return ex_fail(x, "out of memory");
	ex_pattern_fill(x, msg, s->size - 1, ex_pattern_id(s->row, x->server ? SERVER_SLOT : CLIENT_SLOT));
	msg[s->size - 1] = 0;
	/* The test hook flips the last of the bytes it is given: here byte 0, not the stamp (a wrong
	 * stamp would only stall the server until --timeout). */
	if (!x->server)
		ex_test_corrupt(msg, 1);
	if (ex_buf_fill(x, &x->buf, RECV_OFF, 0, x->cfg.max_size) == 0 &&
	    ex_buf_write(x, &x->buf, send_off(x), msg, s->size) == 0 && ex_buf_fill(x, &x->aux, 0, 0, x->aux.len) == 0)
		rc = 0;
	free(msg);
	if (rc != 0)
		return -1;
	memset(a, 0, sizeof(*a));
	a->qp = x->dqp;
	a->send = ex_laddr(x, send_off(x));
	a->remote = ex_raddr(x, RECV_OFF);
	a->recv = ex_laddr(x, RECV_OFF);
	a->send_last = x->buf.dev + send_off(x) + s->size - 1;
	a->recv_last = x->buf.dev + RECV_OFF + s->size - 1;
	a->size = s->size;
	a->round_trips = x->cfg.iters;
	a->initiator = !x->server;
	a->timeout_ns = ex_timeout_ns(x);
	a->res = (struct ex_thread_result *)x->aux.dev;
	return 0;
}

/* Every byte of the receive slot: the peer's pattern ending in the last stamp, then zeros. */
static int check_received(struct ex_ctx *x, const struct ex_step *s, const char *side)
{
	const uint64_t room = x->cfg.max_size - s->size;
	const uint64_t tail = room < TAIL_PROBE ? room : TAIL_PROBE;
	uint8_t *got = malloc(s->size + tail), *want = malloc(s->size);
	int rc = -1;

	if (got == NULL || want == NULL) {
		ex_fail(x, "out of memory");
		goto out;
	}
	if (ex_buf_read(x, &x->buf, RECV_OFF, got, s->size + tail) != 0)
		goto out;
	ex_pattern_fill(x, want, s->size, ex_pattern_id(s->row, x->server ? CLIENT_SLOT : SERVER_SLOT));
	want[s->size - 1] = ex_pingpong_stamp(x->cfg.iters);
	rc = 0;
	for (uint64_t i = 0; rc == 0 && i < s->size; i++)
		if (got[i] != want[i])
			rc = ex_fail(x, "%s receive slot: byte %llu of %llu%s is 0x%02x, expected 0x%02x", side,
				     (unsigned long long)i, (unsigned long long)s->size,
				     i == s->size - 1 ? " (the stamp)" : "", got[i], want[i]);
	for (uint64_t i = 0; rc == 0 && i < tail; i++)
		if (got[s->size + i] != 0)
			rc = ex_fail(x, "%s receive slot: byte %llu, past the %llu-byte message, was written (0x%02x)",
				     side, (unsigned long long)(s->size + i), (unsigned long long)s->size,
				     got[s->size + i]);
	if (rc == 0)
		x->checked_bytes += s->size;
out:
	free(got);
	free(want);
	return rc;
}

/* The pass on this side: the device code's status and round trips, then the received bytes. */
static int check_pass(struct ex_ctx *x, const struct ex_step *s)
{
	const char *side = x->server ? "server" : "client";
	struct ex_thread_result res;

	if (ex_buf_read(x, &x->aux, 0, &res, sizeof(res)) != 0)
		return -1;
	if (res.rc != 0)
		return ex_fail(x, "%s: the device code stopped after %u of %u round trips: %s", side, res.done,
			       x->cfg.iters, ex_dev_error_str(res.rc));
	if (res.done != x->cfg.iters)
		return ex_fail(x, "%s: the device code did %u of %u round trips", side, res.done, x->cfg.iters);
	return check_received(x, s, side);
}

static int server_begin(struct ex_ctx *x, const struct ex_step *s)
{
	if (prepare(x, s, &server_args) != 0)
		return -1;
	/* It waits for the client's first message, which follows the frame's STEP_READY. */
	return ex_launch_start(x, 1, 1, host_fn, cuda_launch(), &server_args);
}

static int server_end(struct ex_ctx *x, const struct ex_step *s)
{
	uint64_t ns = 0;

	if (ex_launch_finish(x, &ns) != 0)
		return -1;
	return check_pass(x, s);
}

static int client_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r)
{
	struct ex_pingpong_args a;

	if (prepare(x, s, &a) != 0 || ex_launch(x, 1, 1, host_fn, cuda_launch(), &a, &r->ns) != 0 ||
	    check_pass(x, s) != 0)
		return -1;
	r->iters = x->cfg.iters;
	r->threads = 1;
	return 0;
}

static struct ex_ops ops = {
	.metric = EX_METRIC_PINGPONG,
	.buf_bytes = buf_bytes,
	.aux_bytes = aux_bytes,
	.check_config = check_config,
	.server_begin = server_begin,
	.server_end = server_end,
	.client_run = client_run,
};

int ex_pingpong_main(const struct ex_pingpong *example, int argc, char **argv)
{
	pp = example;
	ops.spec = example->spec;
	return ex_main(&ops, argc, argv);
}
