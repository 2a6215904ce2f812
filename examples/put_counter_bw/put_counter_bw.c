/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_put_counter_bw: bandwidth of doca_gpu_dev_verbs_put_counter from many threads
 * sharing one QP group (the data QP and its core-direct companion, as DOCA GPUNetIO's setup guide
 * names the sample). Each client thread puts its slot msgs_per_thread times, each put followed by
 * a counter increment the companion issues once the put has completed; the server clears its
 * slots and its counter before each pass and checks every byte of every slot, and that the
 * counter is exactly -i.
 */
#include <string.h>

#include "ex_run.h"
#include "ex_slots.h"
#include "put_counter_bw_body.h"
#include "sample_util.h"

int put_counter_bw_launch(const void *arg, uint32_t blocks, uint32_t threads);

static const struct ex_spec spec = {
	.name = "gpunetio_verbs_put_counter_bw",
	.id = 8,
	.what = "Bandwidth of doca_gpu_dev_verbs_put_counter (put, then a counter increment by the companion QP\n"
		"once it completed) from blocks x threads threads; the server checks every byte and the counter.\n"
		"Start the server first or second: the client retries for --timeout seconds.",
	.scope_option = false,
	.min_size = 1,
	.max_size = 1u << 20,
	.iters = 2048,
	.iters_split = true,
	.gpu_blocks = 2,
	.gpu_threads = 256,
	.host_blocks = 2,
	.host_threads = 4,
	.max_threads = 1024,
	.qp_group = true,
};

/* After the slots: the server's counter, then the client's landing word for the old values. */
static uint64_t counter_off(const struct ex_ctx *x)
{
	return ex_slots_buf_bytes(x);
}

static uint64_t buf_bytes(const struct ex_ctx *x)
{
	return ex_slots_buf_bytes(x) + 2 * sizeof(uint64_t);
}

static void host_fn(const struct ex_lane *l, void *arg)
{
	put_counter_bw_thread(arg, l);
}

static ex_cuda_launch_fn cuda_launch(void)
{
#ifdef EX_HAVE_CUDA
	return put_counter_bw_launch;
#else
	return NULL;
#endif
}

static int server_begin(struct ex_ctx *x, const struct ex_step *s)
{
	if (ex_slots_clear(x, s) != 0)
		return -1;
	return ex_buf_fill(x, &x->buf, counter_off(x), 0, sizeof(uint64_t));
}

static int server_end(struct ex_ctx *x, const struct ex_step *s)
{
	uint64_t counter = 0;

	if (ex_buf_read(x, &x->buf, counter_off(x), &counter, sizeof(counter)) != 0)
		return -1;
	if (counter != x->cfg.iters)
		return ex_fail(x, "the counter is %llu after the pass, expected %u (one per completed put)",
			       (unsigned long long)counter, x->cfg.iters);
	x->checked_bytes += sizeof(counter);
	/* The slots are checked up to, not including, the counter: it is not zero. */
	return ex_slots_check_range(x, s, "server", counter_off(x));
}

static int client_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r)
{
	const uint64_t n = ex_slots(x);
	struct put_counter_bw_args a;
	uint64_t done = 0;

	if (ex_slots_fill(x, s) != 0 || ex_buf_fill(x, &x->aux, 0, 0, x->aux.len) != 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp = x->dqp;
	a.comp = x->dcomp;
	a.local = ex_laddr(x, 0);
	a.remote = ex_raddr(x, 0);
	a.counter_raddr = ex_raddr(x, counter_off(x));
	a.counter_laddr = ex_laddr(x, counter_off(x) + sizeof(uint64_t));
	a.size = s->size;
	a.msgs_per_thread = (uint32_t)(x->cfg.iters / n);
	a.sharing = ex_sharing(x, x->blocks, x->threads);
	a.res = (struct ex_thread_result *)x->aux.dev;
	if (ex_launch(x, x->blocks, x->threads, host_fn, cuda_launch(), &a, &r->ns) != 0 ||
	    ex_results_collect(x, n, a.msgs_per_thread, "put_counter", &done) != 0)
		return -1;
	r->iters = done;
	r->threads = (uint32_t)n;
	return 0;
}

static const struct ex_ops ops = {
	.spec = &spec,
	.metric = EX_METRIC_BW,
	.buf_bytes = buf_bytes,
	.aux_bytes = ex_slots_aux_bytes,
	.server_begin = server_begin,
	.server_end = server_end,
	.client_run = client_run,
};

int main(int argc, char **argv)
{
	return ex_main(&ops, argc, argv);
}
