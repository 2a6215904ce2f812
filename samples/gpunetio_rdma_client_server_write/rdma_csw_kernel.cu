/* SPDX-License-Identifier: BSD-3-Clause */
/* gpunetio_rdma_client_server_write: the server's and the client's kernels (rdma_csw.h). */
#include "rdma_csw.h"

#include "device/doca_gpunetio_dev_rdma.cuh"
#include "ex_cuda.h"
extern "C" {
#include "sample_util.h"
}

#define CSW_KERNEL_TIMEOUT_S 120u

__device__ static void note(struct csw_result *res, doca_error_t err)
{
	if (err != DOCA_SUCCESS)
		atomicCAS(&res->err, (uint32_t)DOCA_SUCCESS, (uint32_t)err);
}

__global__ void csw_server(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_buf_arr *a, struct doca_gpu_buf_arr *flag,
			   uint32_t n, int weak, struct csw_result *res)
{
	__shared__ uint32_t curr, mask;
	struct doca_gpu_dev_rdma_r *r;
	struct doca_gpu_buf *buf = nullptr, *fb;
	uint32_t i = threadIdx.x, one = 1, fcurr, fmask;

	note(res, doca_gpu_dev_rdma_get_recv(rdma, &r));
	if (res->err != DOCA_SUCCESS)
		return;
	if (weak) {
		if (i == 0)
			note(res, doca_gpu_dev_rdma_recv_get_info(r, &curr, &mask));
		__syncthreads();
		if (i % 2)
			note(res, doca_gpu_dev_buf_get_buf(a, i, &buf));
		note(res, doca_gpu_dev_rdma_recv_weak(r, buf, i % 2 ? CSW_A_ELEM : 0, 0, 0, (curr + i) & mask));
		__syncthreads();
	}
	if (i != 0)
		return;
	for (uint32_t k = 0; !weak && k < n; k++) {
		buf = nullptr;
		if (k % 2)
			note(res, doca_gpu_dev_buf_get_buf(a, k, &buf));
		note(res, doca_gpu_dev_rdma_recv_strong(r, buf, k % 2 ? CSW_A_ELEM : 0, 0));
	}
	note(res, weak ? doca_gpu_dev_rdma_recv_commit_weak(r, n) : doca_gpu_dev_rdma_recv_commit_strong(r));
	note(res, doca_gpu_dev_buf_get_buf(flag, 0, &fb));
	if (weak) {
		note(res, doca_gpu_dev_rdma_get_info(rdma, 0, &fcurr, &fmask));
		note(res, doca_gpu_dev_rdma_write_inline_weak(rdma, 0, fb, 0, (uint8_t *)&one, 4, 0,
							      DOCA_GPU_RDMA_WRITE_FLAG_NONE, fcurr));
		note(res, doca_gpu_dev_rdma_commit_weak(rdma, 0, 1));
	} else {
		note(res, doca_gpu_dev_rdma_write_inline_strong(rdma, 0, fb, 0, (uint8_t *)&one, 4, 0,
								DOCA_GPU_RDMA_WRITE_FLAG_NONE));
		note(res, doca_gpu_dev_rdma_commit_strong(rdma, 0));
	}
	note(res, doca_gpu_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &res->n, res->imm, res->conn));
	note(res, doca_gpu_dev_rdma_wait_all(rdma, nullptr));
}

__global__ void csw_client(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_buf_arr *peer_a, struct doca_gpu_buf_arr *b,
			   struct doca_gpu_buf_arr *c, const volatile uint32_t *flag, uint32_t n, struct csw_result *res)
{
	__shared__ uint32_t curr, mask, go;
	uint32_t t = threadIdx.x;

	if (t == 0) {
		uint64_t deadline = ogda_dev_deadline(CSW_FLAG_TIMEOUT_NS);

		while (*flag == 0 && !ogda_dev_expired(deadline))
			;
		go = *flag != 0;
		if (!go)
			note(res, DOCA_ERROR_TIME_OUT);
		else
			note(res, doca_gpu_dev_rdma_get_info(rdma, 0, &curr, &mask));
	}
	__syncthreads();
	if (!go)
		return;
	for (uint32_t i = t; i < n && res->err == DOCA_SUCCESS; i += blockDim.x) {
		struct doca_gpu_buf *pa, *pb, *pc;
		uint32_t pos = (curr + 2 * i) & mask;

		note(res, doca_gpu_dev_buf_get_buf(peer_a, i, &pa));
		note(res, doca_gpu_dev_buf_get_buf(b, i, &pb));
		note(res, doca_gpu_dev_buf_get_buf(c, i, &pc));
		note(res, doca_gpu_dev_rdma_write_weak(rdma, 0, pa, CSW_BC_ELEM, pc, 0, CSW_BC_ELEM, 0,
						       DOCA_GPU_RDMA_WRITE_FLAG_NONE, pos));
		if (i % 2 == 0)
			note(res, doca_gpu_dev_rdma_write_weak(rdma, 0, pa, 0, pb, 0, CSW_BC_ELEM, __byte_perm(i, 0, 0x0123),
							       DOCA_GPU_RDMA_WRITE_FLAG_IMM, (pos + 1) & mask));
		else
			note(res, doca_gpu_dev_rdma_send_weak(rdma, 0, pb, 0, CSW_BC_ELEM, __byte_perm(i, 0, 0x0123),
							      DOCA_GPU_RDMA_SEND_FLAG_IMM, (pos + 1) & mask));
	}
	__syncthreads();
	if (t == 0 && res->err == DOCA_SUCCESS) {
		note(res, doca_gpu_dev_rdma_commit_weak(rdma, 0, 2 * n));
		note(res, doca_gpu_dev_rdma_wait_all(rdma, &res->n));
	}
}

static int launch_end(void)
{
	uint64_t ns = 0;

	return ex_cuda_end(CSW_KERNEL_TIMEOUT_S, &ns);
}

extern "C" int csw_cuda_server(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_buf_arr *a, struct doca_gpu_buf_arr *flag,
			       uint32_t n, int weak, struct csw_result *res)
{
	if (ex_cuda_begin() != 0)
		return -1;
	csw_server<<<1, n>>>(rdma, a, flag, n, weak, res);
	return launch_end();
}

extern "C" int csw_cuda_client(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_buf_arr *peer_a, struct doca_gpu_buf_arr *b,
			       struct doca_gpu_buf_arr *c, const volatile uint32_t *flag, uint32_t n, struct csw_result *res)
{
	if (ex_cuda_begin() != 0)
		return -1;
	csw_client<<<1, 2>>>(rdma, peer_a, b, c, flag, n, res);
	return launch_end();
}
