/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_atomic_lat: round trips and rate of 8-byte fetch-and-adds
 * (doca_gpu_dev_verbs_signal<DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD>) on a counter in the server's
 * buffer. Two rows:
 *   latency  one thread (a 1 x 1 launch whatever the geometry): -i fetch-adds of 1, each waited
 *            for; op k must see the counter at exactly k.
 *   rate     blocks x threads threads share the QP and -i fetch-adds evenly; the old values of
 *            all of them must be a permutation of 0..N-1 (every add atomic, none lost or doubled).
 * Each (row, pass) has its own counter in the server's buffer; the server clears the buffer
 * before the pass and afterwards checks that the counter is exactly -i and every other byte is
 * still zero. The client's threads each have their own 8-byte landing slot for the old values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_lat_body.h"
#include "ex_run.h"
#include "opengda_mlx5.h"
#include "sample_util.h"

int atomic_lat_launch(const void *arg, uint32_t blocks, uint32_t threads);

enum { ROW_LATENCY, ROW_RATE, ROWS };

/* The server's buffer: a counter per (row, pass), then bytes no fetch-add may touch. */
#define COUNTER_BYTES sizeof(uint64_t)
#define SERVER_BUF_BYTES 64u

static const struct ex_spec spec = {
	.name = "gpunetio_verbs_atomic_lat",
	.id = 5,
	.what = "Latency and rate of 8-byte fetch-and-adds (doca_gpu_dev_verbs_signal, SIGNAL_OP_ADD) on a counter\n"
		"in the server's buffer: one thread's round trips, then blocks x threads threads sharing one QP.\n"
		"The client checks every old value, the server the counter. -i is shared evenly by the rate\n"
		"row's threads. Start the server first or second: the client retries for --timeout seconds.",
	.latency = true,
	.scope_option = true,
	.fixed_size = true,
	.min_size = COUNTER_BYTES,
	.max_size = COUNTER_BYTES,
	/* 1024, not 1000: a multiple of both default geometries (2 x 256 kernels, 2 x 4 host threads). */
	.iters = 1024,
	.iters_split = true,
	.gpu_blocks = 2,
	.gpu_threads = 256,
	.host_blocks = 2,
	.host_threads = 4,
	.max_threads = 1024,
};

static const char *row_label(uint32_t row)
{
	return row == ROW_LATENCY ? "latency" : "rate";
}

static const char *pass_name(const struct ex_step *s)
{
	return s->timed ? "timed" : "warm-up";
}

static uint32_t nrows(const struct ex_ctx *x)
{
	(void)x;
	return ROWS;
}

static uint64_t row_size(const struct ex_ctx *x, uint32_t row)
{
	(void)x;
	(void)row;
	return COUNTER_BYTES;
}

/* Threads of the rate row (the latency row uses one of them). */
static uint64_t slots(const struct ex_ctx *x)
{
	return (uint64_t)x->blocks * x->threads;
}

static size_t counter_offset(const struct ex_step *s)
{
	return (s->row * 2u + (s->timed ? 1u : 0u)) * COUNTER_BYTES;
}

/* Server: the counters; client: one landing slot per thread. */
static uint64_t buf_bytes(const struct ex_ctx *x)
{
	return x->server ? SERVER_BUF_BYTES : slots(x) * COUNTER_BYTES;
}

/* Client: per-thread results, then the old value of every operation. */
static uint64_t results_bytes(const struct ex_ctx *x)
{
	return slots(x) * sizeof(struct atomic_lat_result);
}

static uint64_t aux_bytes(const struct ex_ctx *x)
{
	return x->server ? 0 : results_bytes(x) + (uint64_t)x->cfg.iters * sizeof(uint64_t);
}

static int server_begin(struct ex_ctx *x, const struct ex_step *s)
{
	(void)s;
	return ex_buf_fill(x, &x->buf, 0, 0, x->buf.len);
}

/* This pass's counter went up by exactly one per operation, and nothing else was touched. */
static int server_end(struct ex_ctx *x, const struct ex_step *s)
{
	const size_t off = counter_offset(s);
	uint8_t b[SERVER_BUF_BYTES];
	uint64_t counter;
	size_t i;

	if (ex_buf_read(x, &x->buf, 0, b, sizeof(b)) != 0)
		return -1;
	memcpy(&counter, b + off, sizeof(counter));
	if (counter != x->cfg.iters)
		return ex_fail(x, "%s row, %s pass: the counter (bytes %zu..%zu of the server's buffer) is %llu, expected %u "
			       "(one fetch-add of 1 per operation)",
			       row_label(s->row), pass_name(s), off, off + COUNTER_BYTES - 1, (unsigned long long)counter,
			       x->cfg.iters);
	for (i = 0; i < sizeof(b); i++)
		if ((i < off || i >= off + COUNTER_BYTES) && b[i] != 0)
			return ex_fail(x, "%s row, %s pass: byte %zu of the server's buffer is 0x%02x, expected 0 (only bytes "
				       "%zu..%zu are this pass's counter)",
				       row_label(s->row), pass_name(s), i, b[i], off, off + COUNTER_BYTES - 1);
	x->checked_bytes += sizeof(b);
	return 0;
}

/*
 * The old values tile [0, span): op i found the counter at olds[i] and moved it by its addend,
 * so the ranges [old, old + addend) must be disjoint and inside [0, span), span being the sum of
 * the addends. With every addend 1 this is "a permutation of 0..N-1"; disjoint ranges whose
 * lengths add up to span cover it, so no value can be missing once none is doubled.
 */
static int check_olds(struct ex_ctx *x, const struct ex_step *s, const uint64_t *olds, uint64_t n, uint32_t per_thread,
		      uint64_t bump_op)
{
	const uint64_t span = n + (bump_op < n ? 1 : 0);
	uint8_t *seen = calloc((size_t)(span + 7) / 8, 1);
	uint64_t i, v;
	int rc = 0;

	if (seen == NULL)
		return ex_fail(x, "out of memory");
	for (i = 0; i < n && rc == 0; i++) {
		const uint64_t add = i == bump_op ? 2 : 1;

		if (olds[i] > span - add) {
			rc = ex_fail(x, "%s row, %s pass: thread %llu's fetch-add %llu returned %llu, outside 0..%llu "
				     "(the counter's values during the pass)",
				     row_label(s->row), pass_name(s), (unsigned long long)(i / per_thread),
				     (unsigned long long)(i % per_thread), (unsigned long long)olds[i],
				     (unsigned long long)(span - 1));
			break;
		}
		for (v = olds[i]; v < olds[i] + add; v++) {
			if (seen[v / 8] & (1u << (v % 8))) {
				rc = ex_fail(x, "%s row, %s pass: old value %llu came back twice (the second time to "
					     "thread %llu's fetch-add %llu): an add was not atomic",
					     row_label(s->row), pass_name(s), (unsigned long long)v,
					     (unsigned long long)(i / per_thread), (unsigned long long)(i % per_thread));
				break;
			}
			seen[v / 8] |= (uint8_t)(1u << (v % 8));
		}
	}
	free(seen);
	if (rc == 0)
		x->checked_bytes += n * sizeof(uint64_t);
	return rc;
}

static bool is_flush(int32_t rc)
{
	return OPENGDA_DEV_IS_CQE_ERROR(rc) && OPENGDA_DEV_CQE_ERROR_SYNDROME(rc) == OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR;
}

/* The thread whose error to report: the first that is not a flush (flushes only follow the error
 * that moved the QP to the error state), else the first; n when no thread failed. */
static uint64_t failed_thread(const struct atomic_lat_result *res, uint64_t n)
{
	uint64_t t, first = n;

	for (t = 0; t < n; t++) {
		if (res[t].rc == 0)
			continue;
		if (!is_flush(res[t].rc))
			return t;
		if (first == n)
			first = t;
	}
	return first;
}

/* Errors and the latency row's own sequence check, thread by thread. */
static int check_results(struct ex_ctx *x, const struct ex_step *s, const struct atomic_lat_result *res, uint64_t n,
			 uint32_t per_thread)
{
	uint64_t t = failed_thread(res, n), done = 0;

	if (t < n)
		return ex_fail(x, "%s row: thread %llu: fetch-add %u of %u failed: %s", row_label(s->row),
			       (unsigned long long)t, res[t].done + 1, per_thread, ex_dev_error_str(res[t].rc));
	for (t = 0; t < n; t++) {
		if (res[t].bad != 0)
			return ex_fail(x, "%s row, %s pass: fetch-add %u returned %llu, expected %u (the counter before "
				       "it); %u of %u fetch-adds saw a wrong value",
				       row_label(s->row), pass_name(s), res[t].first_bad,
				       (unsigned long long)res[t].first_bad_value, res[t].first_bad, res[t].bad,
				       per_thread);
		done += res[t].done;
	}
	if (done != x->cfg.iters)
		return ex_fail(x, "%s row: %llu of %u fetch-adds completed", row_label(s->row), (unsigned long long)done,
			       x->cfg.iters);
	return 0;
}

static void host_fn(const struct ex_lane *l, void *arg)
{
	atomic_lat_thread(arg, l);
}

static ex_cuda_launch_fn cuda_launch(void)
{
#ifdef EX_HAVE_CUDA
	return atomic_lat_launch;
#else
	return NULL;
#endif
}

static int client_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r)
{
	const int latency = s->row == ROW_LATENCY;
	const uint32_t blocks = latency ? 1 : x->blocks, threads = latency ? 1 : x->threads;
	const uint64_t n = (uint64_t)blocks * threads, total = x->cfg.iters;
	struct atomic_lat_result *res = calloc(n, sizeof(*res));
	uint64_t *olds = malloc(total * sizeof(*olds));
	struct atomic_lat_args a;
	uint8_t corrupt = 0;
	int rc = -1;

	if (res == NULL || olds == NULL) {
		ex_fail(x, "out of memory");
		goto out;
	}
	if (ex_buf_fill(x, &x->aux, 0, 0, x->aux.len) != 0 || ex_buf_fill(x, &x->buf, 0, 0, x->buf.len) != 0)
		goto out;
	memset(&a, 0, sizeof(a));
	a.qp = x->dqp;
	a.local = ex_laddr(x, 0);
	a.counter = ex_raddr(x, counter_offset(s));
	a.ops_per_thread = (uint32_t)(total / n);
	/* One thread posts alone: thread scope, no sharing, whatever -e says for the rate row. */
	a.scope = latency ? DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD : x->cfg.scope;
	a.sharing = ex_sharing(x, blocks, threads);
	a.sequence = latency;
	a.bump_op = ATOMIC_LAT_NO_BUMP;
	if (!latency) {
		/* Test hook: the last thread's first fetch-add adds 2, which only the server can see. */
		ex_test_corrupt(&corrupt, sizeof(corrupt));
		if (corrupt != 0)
			a.bump_op = (n - 1) * a.ops_per_thread;
	}
	a.res = (struct atomic_lat_result *)x->aux.dev;
	a.olds = (uint64_t *)(x->aux.dev + results_bytes(x));
	if (ex_launch(x, blocks, threads, host_fn, cuda_launch(), &a, &r->ns) != 0 ||
	    ex_buf_read(x, &x->aux, 0, res, n * sizeof(*res)) != 0 ||
	    ex_buf_read(x, &x->aux, results_bytes(x), olds, total * sizeof(*olds)) != 0)
		goto out;
	if (check_results(x, s, res, n, a.ops_per_thread) != 0 ||
	    check_olds(x, s, olds, total, a.ops_per_thread, a.bump_op) != 0)
		goto out;
	r->iters = total;
	r->threads = (uint32_t)n;
	rc = 0;
out:
	free(res);
	free(olds);
	return rc;
}

static const struct ex_ops ops = {
	.spec = &spec,
	.metric = EX_METRIC_RTT_RATE,
	.row_title = "mode",
	.row_label = row_label,
	.nrows = nrows,
	.row_size = row_size,
	.buf_bytes = buf_bytes,
	.aux_bytes = aux_bytes,
	.server_begin = server_begin,
	.server_end = server_end,
	.client_run = client_run,
};

int main(int argc, char **argv)
{
	return ex_main(&ops, argc, argv);
}
