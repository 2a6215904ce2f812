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
#include "ex_slots.h"
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

static void host_fn(const struct ex_lane *l, void *arg)
{
	ex_slot_thread(arg, l);
}

static ex_cuda_launch_fn cuda_launch(void)
{
#ifdef EX_HAVE_CUDA
	return get_bw_launch;
#else
	return NULL;
#endif
}

/* Reads only: every slot must still hold what ex_slots_fill put there. */
static int server_end(struct ex_ctx *x, const struct ex_step *s)
{
	return ex_slots_check(x, s, "server");
}

static int client_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r)
{
	/* Cleared first, so every byte checked afterwards is one a read brought. */
	if (ex_buf_fill(x, &x->buf, 0, 0, x->buf.len) != 0 || ex_slots_run(x, s, r, EX_OP_READ, host_fn, cuda_launch()) != 0)
		return -1;
	return ex_slots_check(x, s, "client");
}

static const struct ex_ops ops = {
	.spec = &spec,
	.metric = EX_METRIC_BW,
	.buf_bytes = ex_slots_buf_bytes,
	.aux_bytes = ex_slots_aux_bytes,
	.server_begin = ex_slots_fill,
	.server_end = server_end,
	.client_run = client_run,
};

int main(int argc, char **argv)
{
	return ex_main(&ops, argc, argv);
}
