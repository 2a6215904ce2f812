/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_write_bw: bandwidth of RDMA WRITEs posted with the low-level API, one doorbell
 * per round of one WQE per thread (DOCA's write_bw).
 *
 * The client's threads each own a slot of the message size in both buffers; each round every
 * thread writes its slot once (-i writes in all per size, -i / threads rounds). The server clears
 * its buffer before each pass and checks every byte of every slot after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_run.h"
#include "ex_slots.h"
#include "sample_util.h"
#include "write_bw_body.h"

int write_bw_launch(const void *arg, uint32_t blocks, uint32_t threads);

static const struct ex_spec spec = {
	.name = "gpunetio_verbs_write_bw",
	.id = 2,
	.what = "Bandwidth of RDMA WRITEs through the low-level API: each round every thread of the block prepares\n"
		"one WQE, then one thread publishes the round and rings the doorbell once; only the last\n"
		"completion is waited for. The server checks every byte. Start the server first or second:\n"
		"the client retries for --timeout seconds.",
	.scope_option = false,
	.min_size = 1,
	.max_size = 1u << 20,
	.iters = 2048,
	.iters_split = true,
	.gpu_blocks = 1,
	.gpu_threads = 512,
	.host_blocks = 1,
	.host_threads = 8,
	.max_threads = 1024,
};

static int server_end(struct ex_ctx *x, const struct ex_step *s)
{
	return ex_slots_check(x, s, "server");
}

static void host_fn(const struct ex_lane *l, void *arg)
{
	write_bw_thread(arg, l);
}

static ex_cuda_launch_fn cuda_launch(void)
{
#ifdef EX_HAVE_CUDA
	return write_bw_launch;
#else
	return NULL;
#endif
}

/*
 * Only the last completion is waited for, so a failed write usually surfaces as a flushed last
 * WQE: name the QP's first error completion too, the one that says what went wrong.
 */
static const char *first_error(const struct ex_ctx *x, char *buf, size_t len)
{
	struct doca_gpu_verbs_qp_error_info e;

	buf[0] = '\0';
	if (doca_gpu_verbs_query_last_error(x->qp->qp_gverbs, &e) == DOCA_SUCCESS && e.has_error && e.wqe_counter >= 0)
		snprintf(buf, len, "; the first error completion: WQE %d, syndrome 0x%02x (%s)", e.wqe_counter,
			 e.syndrome, ibv_wc_status_str(sample_wc_status_from_syndrome((uint8_t)e.syndrome)));
	return buf;
}

static int client_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r)
{
	const uint64_t n = ex_slots(x);
	struct ex_thread_result *res = calloc(n, sizeof(*res));
	struct write_bw_args a;
	uint64_t t, done = 0;
	int rc = -1;

	if (res == NULL) {
		ex_fail(x, "out of memory");
		goto out;
	}
	if (ex_slots_fill(x, s) != 0 || ex_buf_fill(x, &x->aux, 0, 0, x->aux.len) != 0)
		goto out;
	memset(&a, 0, sizeof(a));
	a.qp = x->dqp;
	a.local = ex_laddr(x, 0);
	a.remote = ex_raddr(x, 0);
	a.size = s->size;
	a.rounds = (uint32_t)(x->cfg.iters / n);
	/* One poster per block: the QP is the block leader's alone unless several blocks share it. */
	a.sharing = ex_sharing(x, x->blocks, 1);
	a.res = (struct ex_thread_result *)x->aux.dev;
	if (ex_launch(x, x->blocks, x->threads, host_fn, cuda_launch(), &a, &r->ns) != 0 ||
	    ex_buf_read(x, &x->aux, 0, res, n * sizeof(*res)) != 0)
		goto out;
	for (t = 0; t < n; t++) {
		if (res[t].rc != 0) {
			char first[160];

			ex_fail(x, "thread %llu (block %llu): %s, after posting %u of %u writes%s", (unsigned long long)t,
				(unsigned long long)(t / x->threads), ex_dev_error_str(res[t].rc), res[t].done,
				a.rounds, first_error(x, first, sizeof(first)));
			goto out;
		}
		done += res[t].done;
	}
	if (done != x->cfg.iters) {
		ex_fail(x, "%llu of %u writes completed", (unsigned long long)done, x->cfg.iters);
		goto out;
	}
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
	.buf_bytes = ex_slots_buf_bytes,
	.aux_bytes = ex_slots_aux_bytes,
	.server_begin = ex_slots_clear,
	.server_end = server_end,
	.client_run = client_run,
};

int main(int argc, char **argv)
{
	return ex_main(&ops, argc, argv);
}
