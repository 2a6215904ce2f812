/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_send: what the kernel (simple_send_kernel.cu) and the host threads
 * (simple_send.c) share. Every sender thread sends `per_thread` frames of its own slot of the
 * frame buffer, in shared-queue mode (sharing GPU); the last frame of each thread asks for a
 * completion (NOTIFY), and one thread then polls them all.
 */
#ifndef SIMPLE_SEND_H_
#define SIMPLE_SEND_H_

#include <stdint.h>

#include "doca_gpunetio_eth_def.h"

struct simple_send_args {
	struct doca_gpu_eth_txq *txq;
	uint64_t frames;        /* address of frame 0 (device address for a kernel) */
	uint32_t mkey_be;
	uint32_t frame_len;     /* bytes of every frame */
	uint32_t slot;          /* bytes between consecutive frames */
	uint32_t per_thread;    /* frames each thread sends */
	uint32_t threads;       /* sender threads in all */
	uint32_t empw;          /* 0: one SEND per frame; else frames per enhanced multi-packet send (a warp's) */
	int32_t *status;        /* 0, or the first error a poll returned (host-visible memory) */
};

/* Frames of one enhanced multi-packet send in -e mode: one per thread of a warp. */
#define SIMPLE_SEND_EMPW_FRAMES 32u

#ifdef __cplusplus
extern "C" {
#endif
/* Launches the kernel: blocks x threads_per_block senders. 0, or -1 (launch error). */
int simple_send_launch(const struct simple_send_args *a, uint32_t blocks, uint32_t threads_per_block);
#ifdef __cplusplus
}
#endif

#endif /* SIMPLE_SEND_H_ */
