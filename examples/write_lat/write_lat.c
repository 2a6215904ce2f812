/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_write_lat: ping-pong latency of RDMA writes between one device thread on each
 * side (perftest ib_write_lat style); the frame is ex_pingpong.c, the device thread
 * write_lat_body.h.
 */
#include "ex_pingpong.h"
#include "write_lat_body.h"

int write_lat_launch(const void *arg, uint32_t blocks, uint32_t threads);

static const struct ex_spec spec = {
	.name = "gpunetio_verbs_write_lat",
	.id = 3,
	.what = "Ping-pong latency of doca_gpu_dev_verbs_put between one thread on each side (perftest\n"
		"ib_write_lat style); both sides check every byte they receive. Start the server first or\n"
		"second: the client retries for --timeout seconds.",
	.latency = true,
	.server_runs_kernel = true,
	.scope_option = false,
	.min_size = 1,
	.max_size = 16u << 10,
	.iters = 1000,
	.gpu_blocks = 1,
	.gpu_threads = 1,
	.host_blocks = 1,
	.host_threads = 1,
	.max_threads = 1,
};

int main(int argc, char **argv)
{
	const struct ex_pingpong example = {
		.spec = &spec,
		.host_thread = write_lat_thread,
#ifdef EX_HAVE_CUDA
		.cuda_launch = write_lat_launch,
#endif
	};

	return ex_pingpong_main(&example, argc, argv);
}
