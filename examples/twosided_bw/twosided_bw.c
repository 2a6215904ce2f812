/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_twosided_bw: bandwidth of two-sided SENDs from many threads sharing one QP into
 * receives posted by as many threads of the server's device code (DOCA GPUNetIO's
 * gpunetio_verbs_twosided_bw sample; twosided_bw_body.h says how the rounds go).
 *
 * Each side's buffer holds one slot of the largest message per thread, then the flag word (the
 * client's, written by the server) and the server's flag source. The client fills slot t with
 * the pattern of (row, t), its first 4 bytes replaced by t; after a pass the server checks its
 * device code's status, and that its slots hold every client slot once, byte for byte.
 */
#include <stdlib.h>
#include <string.h>

#include "ex_run.h"
#include "ex_slots.h"
#include "sample_util.h"
#include "twosided_bw_body.h"

int twosided_bw_launch(const void *arg, uint32_t blocks, uint32_t threads);

/* The receive queue holds one round: a receive per thread of the launch. */
#define RQ_NWQE 8192u
#define ID_BYTES 4u

static const struct ex_spec spec = {
	.name = "gpunetio_verbs_twosided_bw",
	.id = 7,
	.what = "Bandwidth of doca_gpu_dev_verbs_send from blocks x threads threads into receives that as many\n"
		"server threads post (doca_gpu_dev_verbs_recv / recv_wait); the server checks every byte. Start\n"
		"the server first or second: the client retries for --timeout seconds.",
	.server_runs_kernel = true,
	.scope_option = true,
	.min_size = 8,
	.max_size = 1u << 16,
	.iters = 2048,
	.iters_split = true,
	.gpu_blocks = 2,
	.gpu_threads = 256,
	.host_blocks = 2,
	.host_threads = 4,
	.max_threads = 1024,
	.rq_nwqe = RQ_NWQE,
};

static struct twosided_bw_args server_args;

static uint64_t flag_off(const struct ex_ctx *x)
{
	return ex_slots_buf_bytes(x);
}

static uint64_t buf_bytes(const struct ex_ctx *x)
{
	return ex_slots_buf_bytes(x) + 2 * sizeof(uint64_t);
}

/* Per-thread results, then (server) the count of receives posted. */
static uint64_t aux_bytes(const struct ex_ctx *x)
{
	return ex_slots(x) * sizeof(struct ex_thread_result) + sizeof(uint64_t);
}

static int check_config(struct ex_ctx *x)
{
	if (ex_slots(x) > RQ_NWQE) {
		sample_err("-b %u -t %u: one round needs a receive per thread, more than the %u the receive queue holds",
			   x->blocks, x->threads, RQ_NWQE);
		return -1;
	}
	if (x->cfg.min_size < ID_BYTES) {
		sample_err("--min-size %llu: messages carry their sender in their first %u bytes",
			   (unsigned long long)x->cfg.min_size, ID_BYTES);
		return -1;
	}
	return 0;
}

static void host_fn(const struct ex_lane *l, void *arg)
{
	twosided_bw_thread(arg, l);
}

static ex_cuda_launch_fn cuda_launch(void)
{
#ifdef EX_HAVE_CUDA
	return twosided_bw_launch;
#else
	return NULL;
#endif
}

/* What client slot t sends: the pattern of (row, t) with t in its first bytes. */
static void message_of(struct ex_ctx *x, const struct ex_step *s, uint32_t t, uint8_t *m)
{
	ex_pattern_fill(x, m, s->size, ex_pattern_id(s->row, t));
	memcpy(m, &t, ID_BYTES);
}

static void args_of(struct ex_ctx *x, const struct ex_step *s, struct twosided_bw_args *a)
{
	memset(a, 0, sizeof(*a));
	a->qp = x->dqp;
	a->local = ex_laddr(x, 0);
	a->size = s->size;
	a->nthreads = ex_slots(x);
	a->rounds = (uint32_t)(x->cfg.iters / a->nthreads);
	a->server = x->server;
	a->scope = x->cfg.scope;
	a->sharing = ex_sharing(x, x->blocks, x->threads);
	a->pass = 2u * s->row + (s->timed ? 2u : 1u);
	a->flag = (uint64_t *)(void *)(x->buf.dev + flag_off(x));
	a->flag_src = (uint64_t *)(void *)(x->buf.dev + flag_off(x) + sizeof(uint64_t));
	a->flag_laddr = ex_laddr(x, flag_off(x) + sizeof(uint64_t));
	a->flag_raddr = ex_raddr(x, flag_off(x));
	a->timeout_ns = ex_timeout_ns(x);
	a->res = (struct ex_thread_result *)x->aux.dev;
	a->posted = (uint64_t *)(void *)(x->aux.dev + ex_slots(x) * sizeof(struct ex_thread_result));
}

static int server_begin(struct ex_ctx *x, const struct ex_step *s)
{
	if (ex_slots_clear(x, s) != 0 || ex_buf_fill(x, &x->aux, 0, 0, x->aux.len) != 0)
		return -1;
	args_of(x, s, &server_args);
	/* Its threads post the first round's receives and tell the client, which waits for that. */
	return ex_launch_start(x, x->blocks, x->threads, host_fn, cuda_launch(), &server_args);
}

/* Every slot holds one client slot's message, each client slot once, byte for byte. */
static int check_slots(struct ex_ctx *x, const struct ex_step *s)
{
	const uint32_t n = (uint32_t)ex_slots(x);
	uint8_t *got = malloc(s->size), *want = malloc(s->size);
	bool *seen = calloc(n, sizeof(*seen));
	int rc = 0;

	if (got == NULL || want == NULL || seen == NULL)
		rc = ex_fail(x, "out of memory");
	for (uint32_t t = 0; t < n && rc == 0; t++) {
		uint32_t id;

		rc = ex_buf_read(x, &x->buf, (uint64_t)t * s->size, got, s->size);
		if (rc != 0)
			break;
		memcpy(&id, got, ID_BYTES);
		if (id >= n || seen[id]) {
			rc = ex_fail(x, "server slot %u: holds message %u, %s", t, id,
				     id >= n ? "which no client thread sent" : "received twice");
			break;
		}
		seen[id] = true;
		message_of(x, s, id, want);
		for (uint64_t i = 0; i < s->size && rc == 0; i++)
			if (got[i] != want[i])
				rc = ex_fail(x, "server slot %u (message of client thread %u): byte %llu of %llu is 0x%02x, "
					     "expected 0x%02x", t, id, (unsigned long long)i, (unsigned long long)s->size,
					     got[i], want[i]);
	}
	if (rc == 0)
		x->checked_bytes += (uint64_t)n * s->size;
	free(got);
	free(want);
	free(seen);
	return rc;
}

static int server_end(struct ex_ctx *x, const struct ex_step *s)
{
	uint64_t ns = 0, done = 0;

	if (ex_launch_finish(x, &ns) != 0 ||
	    ex_results_collect(x, ex_slots(x), server_args.rounds, "receive", &done) != 0)
		return -1;
	return check_slots(x, s);
}

static int client_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r)
{
	const uint32_t n = (uint32_t)ex_slots(x);
	struct twosided_bw_args a;
	uint8_t *m = malloc(s->size);
	uint64_t done = 0;
	int rc = 0;

	if (m == NULL)
		return ex_fail(x, "out of memory");
	for (uint32_t t = 0; t < n && rc == 0; t++) {
		message_of(x, s, t, m);
		if (t == n - 1)
			ex_test_corrupt(m, s->size);
		rc = ex_buf_write(x, &x->buf, (uint64_t)t * s->size, m, s->size);
	}
	free(m);
	if (rc != 0 || ex_buf_fill(x, &x->aux, 0, 0, x->aux.len) != 0)
		return -1;
	args_of(x, s, &a);
	if (ex_launch(x, x->blocks, x->threads, host_fn, cuda_launch(), &a, &r->ns) != 0 ||
	    ex_results_collect(x, n, a.rounds, "send", &done) != 0)
		return -1;
	r->iters = done;
	r->threads = n;
	return 0;
}

static const struct ex_ops ops = {
	.spec = &spec,
	.metric = EX_METRIC_BW,
	.buf_bytes = buf_bytes,
	.aux_bytes = aux_bytes,
	.check_config = check_config,
	.server_begin = server_begin,
	.server_end = server_end,
	.client_run = client_run,
};

int main(int argc, char **argv)
{
	return ex_main(&ops, argc, argv);
}
