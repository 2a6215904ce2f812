/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_send_lat: ping-pong latency of two-sided SENDs, each into a receive the peer's
 * device code posted, between one device thread on each side (perftest ib_send_lat style); the
 * frame is ex_pingpong.c, the device thread send_lat_body.h.
 */
#include "ex_pingpong.h"
#include "send_lat_body.h"

int send_lat_launch(const void *arg, uint32_t blocks, uint32_t threads);

static const struct ex_spec spec = {
	.name = "gpunetio_verbs_send_lat",
	.id = 6,
	.what = "Ping-pong latency of doca_gpu_dev_verbs_send into doca_gpu_dev_verbs_recv between one thread\n"
		"on each side (perftest ib_send_lat style); both sides check every byte they receive. Start the server first or\n"
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
	.rq_nwqe = 16,
};

int main(int argc, char **argv)
{
	const struct ex_pingpong example = {
		.spec = &spec,
		.host_thread = send_lat_thread,
#ifdef EX_HAVE_CUDA
		.cuda_launch = send_lat_launch,
#endif
	};

	return ex_pingpong_main(&example, argc, argv);
}
