/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_rdma_client_server_write: what the host part (rdma_csw.c) and the CUDA part
 * (rdma_csw_kernel.cu, built where nvcc exists) share.
 */
#ifndef RDMA_CSW_H_
#define RDMA_CSW_H_

#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CSW_A_ELEM 1024u
#define CSW_BC_ELEM 512u
#define CSW_FLAG_TIMEOUT_NS 60000000000ull

struct doca_gpu_dev_rdma;
struct doca_gpu_buf_arr;

/* What a kernel reports (in memory both sides read): its first error and the receive reports. */
struct csw_result {
	uint32_t err;
	uint32_t n;
	uint32_t imm[1024];
	uint32_t conn[1024];
};

/*
 * The server's kernel: one block of n threads posts the n receives (weak: each thread at its
 * position; strong: thread 0 in order), thread 0 raises the flag, reports the receives and waits.
 * Returns 0, or -1 with an error line (launch, a kernel that does not end).
 */
int csw_cuda_server(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_buf_arr *a, struct doca_gpu_buf_arr *flag,
		    uint32_t n, int weak, struct csw_result *res);

/*
 * The client's kernel: thread 0 waits for the flag (bounded), then two threads post the writes
 * and sends at weak positions, thread 0 commits and waits.
 */
int csw_cuda_client(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_buf_arr *peer_a, struct doca_gpu_buf_arr *b,
		    struct doca_gpu_buf_arr *c, const volatile uint32_t *flag, uint32_t n, struct csw_result *res);

#ifdef __cplusplus
}
#endif

#endif /* RDMA_CSW_H_ */
