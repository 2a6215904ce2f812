/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_receive: what the kernel (simple_receive_kernel.cu) and the host threads
 * (simple_receive.c) share. One receiver (a block of 32 threads on a GPU, one host thread
 * otherwise) loops on the receive queue until `want` packets arrived or the exit flag is set,
 * counting packets, bytes, and the packets whose UDP payload starts with "pkt ".
 */
#ifndef SIMPLE_RECEIVE_H_
#define SIMPLE_RECEIVE_H_

#include <stdint.h>

#include "device/ogda_dev_port.h"
#include "doca_gpunetio_eth_def.h"

#define SR_MAX_PKTS 2048u           /* packets one receive returns at most */
#define SR_TIMEOUT_NS 500000ull     /* a receive returns after 500 us whatever it got */

struct simple_receive_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t tagged;      /* UDP payload starting with "pkt " */
	int32_t status;       /* 0, or the error of a receive */
	uint32_t done;        /* 1 when the receiver left its loop */
};

struct simple_receive_args {
	struct doca_gpu_eth_rxq *rxq;
	uint64_t want;                       /* stop after this many packets (0: only the exit flag) */
	volatile uint32_t *exit_flag;        /* host-visible: 1 asks the receiver to stop */
	struct simple_receive_stats *stats;  /* host-visible */
	int scope;                           /* enum doca_gpu_dev_eth_exec_scope (kernel) */
};

/* The UDP payload of a frame starts with "pkt " (Ethernet, IPv4 without options, UDP). */
OGDA_DEV_FN int simple_receive_tagged(const uint8_t *p, uint32_t len)
{
	return len >= 46 && p[12] == 0x08 && p[13] == 0x00 && p[23] == 17 && p[42] == 'p' && p[43] == 'k' &&
	       p[44] == 't' && p[45] == ' ';
}

#ifdef __cplusplus
extern "C" {
#endif
/* Launches the persistent receive kernel (1 block of 32 threads). 0, or -1 (launch error). */
int simple_receive_launch(const struct simple_receive_args *a);
#ifdef __cplusplus
}
#endif

#endif /* SIMPLE_RECEIVE_H_ */
