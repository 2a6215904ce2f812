/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compile-only: every device name of doca_gpunetio_dev_rdma.cuh and doca_gpunetio_dev_dma.cuh
 * (strong and weak forms, default arguments, the OpenGDA additions) called from kernels.
 */
#include "device/doca_gpunetio_dev_dma.cuh"
#include "device/doca_gpunetio_dev_rdma.cuh"

__global__ void dma_names(struct doca_gpu_dma *d, struct doca_gpu_buf_arr *a, uint32_t *o)
{
	struct doca_gpu_buf *s, *t;
	uint8_t syn = 0;
	doca_error_t e = doca_gpu_dev_buf_get_buf(a, 0, &s);

	e = e == DOCA_SUCCESS ? doca_gpu_dev_buf_get_buf(a, 1, &t) : e;
	e = e == DOCA_SUCCESS ? doca_gpu_dev_dma_memcpy(d, s, 0, t, 0, 64) : e;
	e = e == DOCA_SUCCESS ? doca_gpu_dev_dma_commit(d) : e;
	e = e == DOCA_SUCCESS ? opengda_gpu_dev_dma_wait(d, &syn) : e;
	*o = (uint32_t)e + syn;
}

__global__ void rdma_names(struct doca_gpu_dev_rdma *r, struct doca_gpu_buf_arr *a, uint32_t *o)
{
	struct doca_gpu_buf *b, *c;
	struct doca_gpu_dev_rdma_r *rr;
	uint8_t d[8] = {0}, syn;
	uint32_t p, m, n, imm[2], conn[2];
	doca_gpu_dev_buf_get_buf(a, 0, &b);
	doca_gpu_dev_buf_get_buf(a, 1, &c);
	doca_gpu_dev_rdma_write_strong(r, 0, b, 0, c, 0, 64, 1, DOCA_GPU_RDMA_WRITE_FLAG_IMM);
	doca_gpu_dev_rdma_write_weak(r, 0, b, 0, c, 0, 64, 1, DOCA_GPU_RDMA_WRITE_FLAG_NONE, 3);
	doca_gpu_dev_rdma_write_inline_strong(r, 0, b, 0, d, 8, 0, DOCA_GPU_RDMA_WRITE_FLAG_NONE);
	doca_gpu_dev_rdma_write_inline_weak(r, 0, b, 0, d, 8, 0, DOCA_GPU_RDMA_WRITE_FLAG_NONE, 1);
	doca_gpu_dev_rdma_read_strong(r, 0, b, 0, c, 0, 64);
	doca_gpu_dev_rdma_read_weak(r, 0, b, 0, c, 0, 64, 0, 2);
	doca_gpu_dev_rdma_send_strong(r, 0, b, 0, 64, 0, DOCA_GPU_RDMA_SEND_FLAG_IMM);
	doca_gpu_dev_rdma_send_weak(r, 0, b, 0, 64, 0, DOCA_GPU_RDMA_SEND_FLAG_NONE, 4);
	doca_gpu_dev_rdma_send_inline_strong(r, 0, d, 8, 0, DOCA_GPU_RDMA_SEND_FLAG_NONE);
	doca_gpu_dev_rdma_send_inline_weak(r, 0, d, 8, 0, DOCA_GPU_RDMA_SEND_FLAG_NONE, 5);
	doca_gpu_dev_rdma_commit_strong(r, 0);
	doca_gpu_dev_rdma_commit_weak(r, 0, 2);
	doca_gpu_dev_rdma_wait_all(r, &n);
	doca_gpu_dev_rdma_get_info(r, 0, &p, &m);
	doca_gpu_dev_rdma_get_recv(r, &rr);
	doca_gpu_dev_rdma_recv_strong(rr, b, 64, 0);
	doca_gpu_dev_rdma_recv_weak(rr, nullptr, 0, 0, 0, 1);
	doca_gpu_dev_rdma_recv_commit_strong(rr);
	doca_gpu_dev_rdma_recv_commit_weak(rr, 1);
	doca_gpu_dev_rdma_recv_wait_all(rr, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, imm, conn);
	doca_gpu_dev_rdma_recv_wait_all(rr, DOCA_GPU_RDMA_RECV_WAIT_FLAG_NB, &n);
	doca_gpu_dev_rdma_recv_get_info(rr, &p, &m);
	opengda_gpu_dev_rdma_last_error(r, 0, &syn);
	opengda_gpu_dev_rdma_recv_last_error(rr, &syn);
	*o = n + p + m + imm[0] + conn[0] + syn;
}
