/* SPDX-License-Identifier: BSD-3-Clause */
/* rdma_csw.h for a build without nvcc: ex_cuda_open() says no GPU, so these are never reached. */
#include "rdma_csw.h"

#include "sample_util.h"

int csw_cuda_server(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_buf_arr *a, struct doca_gpu_buf_arr *flag,
		    uint32_t n, int weak, struct csw_result *res)
{
	(void)rdma, (void)a, (void)flag, (void)n, (void)weak, (void)res;
	sample_err("this build has no CUDA support");
	return -1;
}

int csw_cuda_client(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_buf_arr *peer_a, struct doca_gpu_buf_arr *b,
		    struct doca_gpu_buf_arr *c, const volatile uint32_t *flag, uint32_t n, struct csw_result *res)
{
	(void)rdma, (void)peer_a, (void)b, (void)c, (void)flag, (void)n, (void)res;
	sample_err("this build has no CUDA support");
	return -1;
}
