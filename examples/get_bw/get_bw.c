/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_get_bw: bandwidth of high-level gets (RDMA READ) from many threads sharing one
 * QP.
 *
 * The server holds the data: before each pass it fills slot t of its buffer with the pattern of
 * (row, t). Each client thread reads the server's slot of its index into its own slot
 * msgs_per_thread times (-i reads in all per size) and waits for each completion. The client
 * clears its buffer before each pass and checks every byte of every slot after it; the server
 * checks that its buffer is unchanged (nothing wrote to it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_run.h"
#include "get_bw_body.h"
#include "sample_util.h"

int get_bw_launch(const void *arg, uint32_t blocks, uint32_t threads);

static const struct ex_spec spec = {
	.name = "gpunetio_verbs_get_bw",
	.id = 4,
	.what = "Bandwidth of doca_gpu_dev_verbs_get (RDMA READ) from blocks x threads threads sharing one QP;\n"
		"the client checks every byte it read, the server that its data is unchanged. Start the\n"
		"server first or second: the client retries for --timeout seconds.",
	.scope_option = true,
	.min_size = 1,
	.max_size = 1u << 20,
	.iters = 2048,
	.iters_split = true,
	.gpu_blocks = 2,
	.gpu_threads = 256,
	.host_blocks = 2,
	.host_threads = 4,
	.max_threads = 1024,
};

static uint64_t slots(const struct ex_ctx *x)
{
	return (uint64_t)x->blocks * x->threads;
}

static uint64_t buf_bytes(const struct ex_ctx *x)
{
	return slots(x) * x->cfg.max_size;
}

static uint64_t aux_bytes(const struct ex_ctx *x)
{
	return x->server ? 0 : slots(x) * sizeof(struct ex_thread_result);
}

/*
 * What the server puts in slot t: the pattern of (row, t); the last slot goes through the
 * corruption hook (the server sends the data here), so the client's check can be made to fail.
 */
static void server_slot_data(struct ex_ctx *x, const struct ex_step *s, uint64_t t, uint8_t *p)
{
	ex_pattern_fill(x, p, s->size, ex_pattern_id(s->row, (uint32_t)t));
	if (t == slots(x) - 1)
		ex_test_corrupt(p, s->size);
}

static int server_begin(struct ex_ctx *x, const struct ex_step *s)
{
	uint8_t *src = malloc(s->size);
	uint64_t t;
	int rc = 0;

	if (src == NULL)
		return ex_fail(x, "out of memory");
	for (t = 0; t < slots(x) && rc == 0; t++) {
		server_slot_data(x, s, t, src);
		rc = ex_buf_write(x, &x->buf, t * s->size, src, s->size);
	}
	free(src);
	return rc;
}

/* Reads only: every slot must still hold what server_begin put there. */
static int server_end(struct ex_ctx *x, const struct ex_step *s)
{
	uint8_t *want = malloc(s->size), *got = malloc(s->size);
	uint64_t t;
	int rc = 0;

	if (want == NULL || got == NULL) {
		rc = ex_fail(x, "out of memory");
		goto out;
	}
	for (t = 0; t < slots(x) && rc == 0; t++) {
		server_slot_data(x, s, t, want);
		rc = ex_buf_read(x, &x->buf, t * s->size, got, s->size);
		for (uint64_t i = 0; i < s->size && rc == 0; i++)
			if (got[i] != want[i])
				rc = ex_fail(x, "server slot %llu changed: byte %llu of %llu is 0x%02x, was 0x%02x",
					     (unsigned long long)t, (unsigned long long)i, (unsigned long long)s->size,
					     got[i], want[i]);
		if (rc == 0)
			x->checked_bytes += s->size;
	}
out:
	free(want);
	free(got);
	return rc;
}

/* Every slot of the client's buffer holds the server's pattern for it, and nothing lies past the last one. */
static int client_check(struct ex_ctx *x, const struct ex_step *s)
{
	uint64_t used = slots(x) * s->size, rest = x->buf.len - used, t;
	uint8_t *tmp = malloc(s->size), probe[256];
	int rc = 0;

	if (tmp == NULL)
		return ex_fail(x, "out of memory");
	for (t = 0; t < slots(x) && rc == 0; t++) {
		char what[96];

		snprintf(what, sizeof(what), "client slot %llu", (unsigned long long)t);
		rc = ex_buf_read(x, &x->buf, t * s->size, tmp, s->size);
		if (rc == 0)
			rc = ex_pattern_check(x, tmp, s->size, ex_pattern_id(s->row, (uint32_t)t), what);
	}
	free(tmp);
	if (rc != 0 || rest == 0)
		return rc;
	/* A read longer than its message would have landed here. */
	rest = rest < sizeof(probe) ? rest : sizeof(probe);
	if (ex_buf_read(x, &x->buf, used, probe, rest) != 0)
		return -1;
	for (uint64_t i = 0; i < rest; i++)
		if (probe[i] != 0)
			return ex_fail(x, "byte %llu past the last slot was written (0x%02x)",
				       (unsigned long long)(used + i), probe[i]);
	return 0;
}

static void host_fn(const struct ex_lane *l, void *arg)
{
	get_bw_thread(arg, l);
}

static ex_cuda_launch_fn cuda_launch(void)
{
#ifdef EX_HAVE_CUDA
	return get_bw_launch;
#else
	return NULL;
#endif
}

static int client_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r)
{
	const uint64_t n = slots(x);
	struct ex_thread_result *res = calloc(n, sizeof(*res));
	struct get_bw_args a;
	uint64_t t, done = 0;
	int rc = -1;

	if (res == NULL) {
		ex_fail(x, "out of memory");
		goto out;
	}
	/* Cleared first, so every byte checked afterwards is one a read brought. */
	if (ex_buf_fill(x, &x->buf, 0, 0, x->buf.len) != 0 || ex_buf_fill(x, &x->aux, 0, 0, x->aux.len) != 0)
		goto out;
	memset(&a, 0, sizeof(a));
	a.qp = x->dqp;
	a.local = ex_laddr(x, 0);
	a.remote = ex_raddr(x, 0);
	a.size = s->size;
	a.msgs_per_thread = (uint32_t)(x->cfg.iters / n);
	a.scope = x->cfg.scope;
	a.sharing = ex_sharing(x, x->blocks, x->threads);
	a.res = (struct ex_thread_result *)x->aux.dev;
	if (ex_launch(x, x->blocks, x->threads, host_fn, cuda_launch(), &a, &r->ns) != 0 ||
	    ex_buf_read(x, &x->aux, 0, res, n * sizeof(*res)) != 0)
		goto out;
	for (t = 0; t < n; t++) {
		if (res[t].rc != 0) {
			ex_fail(x, "thread %llu: get %u of %u failed: %s", (unsigned long long)t, res[t].done + 1,
				a.msgs_per_thread, ex_dev_error_str(res[t].rc));
			goto out;
		}
		done += res[t].done;
	}
	if (done != x->cfg.iters) {
		ex_fail(x, "%llu of %u gets completed", (unsigned long long)done, x->cfg.iters);
		goto out;
	}
	if (client_check(x, s) != 0)
		goto out;
	r->iters = done;
	r->threads = (uint32_t)n;
	rc = 0;
out:
	free(res);
	return rc;
}

static const struct ex_ops ops = {
	.spec = &spec,
	.metric = EX_METRIC_BW,
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
