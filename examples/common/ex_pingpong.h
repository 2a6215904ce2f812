/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ping-pong latency examples' shared frame (ex_pingpong.c) and the arguments of their one
 * device thread per side. The per-thread code (write_lat_body.h, send_lat_body.h) is compiled
 * into a CUDA kernel and into a host-thread function; this frame prepares and checks the buffers
 * around it.
 */
#ifndef EX_PINGPONG_H_
#define EX_PINGPONG_H_

#include <stdint.h>

#include "ex_dev_ops.h"
#if !defined(__CUDACC__)
#include "ex_run.h"
#endif

struct ex_pingpong_args {
	struct doca_gpu_dev_verbs_qp *qp;
	struct doca_gpu_dev_verbs_addr send;   /* this side's send slot */
	struct doca_gpu_dev_verbs_addr remote; /* the peer's receive slot (RDMA writes) */
	struct doca_gpu_dev_verbs_addr recv;   /* this side's receive slot (receives) */
	uint8_t *send_last;                    /* the last byte of this side's send slot */
	const uint8_t *recv_last;              /* the last byte of this side's receive slot */
	uint64_t size;                         /* message bytes (>= 1) */
	uint32_t round_trips;
	int32_t initiator;                     /* 1: the client, which sends first */
	uint64_t timeout_ns;                   /* bound of each wait */
	struct ex_thread_result *res;          /* rc and completed round trips */
};

/* The stamp of round trip i (1-based): 1..255, never 0 (a cleared slot never matches). */
OGDA_DEV_FN uint8_t ex_pingpong_stamp(uint32_t i)
{
	return (uint8_t)((i - 1u) % 255u + 1u);
}

#if !defined(__CUDACC__)
/* One ping-pong example: its spec and its device thread (host function, CUDA launcher or NULL). */
struct ex_pingpong {
	const struct ex_spec *spec;
	void (*host_thread)(const struct ex_pingpong_args *a, const struct ex_lane *l);
	ex_cuda_launch_fn cuda_launch;
};

/* Runs the example (ex_main with the ping-pong frame): the process exit code. */
int ex_pingpong_main(const struct ex_pingpong *example, int argc, char **argv);
#endif

#endif /* EX_PINGPONG_H_ */
