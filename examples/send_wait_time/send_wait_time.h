/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_send_wait_time: what the kernel and the host threads share. SWT_BURSTS bursts of
 * SWT_THREADS frames: thread t sends frame b * SWT_THREADS + t of burst b, not before wot[b]; the
 * last thread of each burst asks for a completion.
 */
#ifndef SEND_WAIT_TIME_H_
#define SEND_WAIT_TIME_H_

#include <stdint.h>

#include "doca_gpunetio_eth_def.h"

#define SWT_BURSTS 8u
#define SWT_THREADS 32u

struct swt_args {
	struct doca_gpu_eth_txq *txq;
	uint64_t frames;             /* frame 0 (device address for a kernel) */
	uint32_t mkey_be;
	uint32_t frame_len;
	uint32_t slot;
	uint64_t wot[SWT_BURSTS];    /* doca_eth_txq_calculate_timestamp values */
	int32_t *status;             /* 0, or the poll's error */
};

#ifdef __cplusplus
extern "C" {
#endif
/* Launches the kernel: 1 block of SWT_THREADS threads. 0, or -1. */
int swt_launch(const struct swt_args *a);
#ifdef __cplusplus
}
#endif

#endif /* SEND_WAIT_TIME_H_ */
