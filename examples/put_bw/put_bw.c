/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_put_bw: bandwidth of high-level puts from many threads sharing one QP.
 *
 * The client's threads each own a slot of the message size in both buffers; every thread puts
 * its slot msgs_per_thread times (-i messages in all per size) and waits for each completion.
 * The server clears its buffer before each pass and checks every byte of every slot after it.
 */
#include "ex_run.h"
#include "ex_slots.h"
#include "sample_util.h"

int put_bw_launch(const void *arg, uint32_t blocks, uint32_t threads);

static const struct ex_spec spec = {
	.name = "gpunetio_verbs_put_bw",
	.id = 1,
	.what = "Bandwidth of doca_gpu_dev_verbs_put from blocks x threads threads sharing one QP; the server\n"
		"checks every byte. Start the server first or second: the client retries for --timeout seconds.",
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

static void host_fn(const struct ex_lane *l, void *arg)
{
	ex_slot_thread(arg, l);
}

static ex_cuda_launch_fn cuda_launch(void)
{
#ifdef EX_HAVE_CUDA
	return put_bw_launch;
#else
	return NULL;
#endif
}

static int server_end(struct ex_ctx *x, const struct ex_step *s)
{
	return ex_slots_check(x, s, "server");
}

static int client_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r)
{
	if (ex_slots_fill(x, s) != 0)
		return -1;
	return ex_slots_run(x, s, r, EX_OP_WRITE, host_fn, cuda_launch());
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
