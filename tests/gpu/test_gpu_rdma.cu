/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RDMA high-level device API in real kernels (doca_gpunetio_dev_rdma.cuh): two doca_rdma
 * contexts on the software NIC "swnic0" with a GPU data path, connected in the process, data in
 * GPU memory. Strong writes with immediate from several blocks at once (no one-block limit), a
 * commit from each block, wait_all, and the peer's receives reported by recv_wait_all: every byte,
 * every immediate once, the counts. Prints "case <name>: OK|FAIL ..." and exits 1 on a failure.
 * Run: ctest --test-dir build -L gpu -R gpu_rdma --output-on-failure
 */
#include "device/doca_gpunetio_dev_rdma.cuh"
#include "doca_buf_array.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_gpunetio.h"
#include "doca_mmap.h"
#include "doca_rdma.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 4u
#define THREADS 64u
#define N (BLOCKS * THREADS)
#define ELEM 256u
#define ACCESS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)

struct result {
	uint32_t err, n;
	uint32_t imm[N];
};

#define CHECK(what, expr)                                                                                    \
	do {                                                                                                 \
		doca_error_t e_ = (expr);                                                                    \
		if (e_ != DOCA_SUCCESS) {                                                                    \
			printf("case rdma_strong_multi_block: FAIL %s: %s\n", what, doca_error_get_name(e_)); \
			exit(1);                                                                             \
		}                                                                                            \
	} while (0)

__global__ void post_recvs(struct doca_gpu_dev_rdma *rdma, struct result *res)
{
	struct doca_gpu_dev_rdma_r *r;
	doca_error_t err = doca_gpu_dev_rdma_get_recv(rdma, &r);

	for (uint32_t i = 0; i < N && err == DOCA_SUCCESS; i++)
		err = doca_gpu_dev_rdma_recv_strong(r, nullptr, 0, 0);
	if (err == DOCA_SUCCESS)
		err = doca_gpu_dev_rdma_recv_commit_strong(r);
	res->err = (uint32_t)err;
}

__global__ void write_all(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_buf_arr *remote, struct doca_gpu_buf_arr *local,
			  struct result *res)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	struct doca_gpu_buf *rb, *lb;
	doca_error_t err = doca_gpu_dev_buf_get_buf(remote, i, &rb);

	if (err == DOCA_SUCCESS)
		err = doca_gpu_dev_buf_get_buf(local, i, &lb);
	if (err == DOCA_SUCCESS)
		err = doca_gpu_dev_rdma_write_strong(rdma, 0, rb, 0, lb, 0, ELEM, __byte_perm(i, 0, 0x0123),
						     DOCA_GPU_RDMA_WRITE_FLAG_IMM);
	if (err != DOCA_SUCCESS)
		atomicExch(&res->err, (uint32_t)err);
	__syncthreads();
	if (threadIdx.x == 0)
		(void)doca_gpu_dev_rdma_commit_strong(rdma, 0); /* every block commits what is published */
}

__global__ void wait_sender(struct doca_gpu_dev_rdma *rdma, struct result *res)
{
	res->err = (uint32_t)doca_gpu_dev_rdma_wait_all(rdma, &res->n);
}

__global__ void wait_receiver(struct doca_gpu_dev_rdma *rdma, struct result *res)
{
	struct doca_gpu_dev_rdma_r *r;
	doca_error_t err = doca_gpu_dev_rdma_get_recv(rdma, &r);

	if (err == DOCA_SUCCESS)
		err = doca_gpu_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &res->n, res->imm);
	res->err = (uint32_t)err;
}

struct side {
	struct doca_dev *dev;
	struct doca_rdma *rdma;
	struct doca_gpu_dev_rdma *h;
	uint8_t *mem;
	struct doca_mmap *mmap, *peer_mmap;
	struct doca_buf_arr *arr, *peer_arr;
	struct doca_gpu_buf_arr *local, *remote;
};

static void side_open(struct side *s, struct doca_devinfo *info, struct doca_gpu *gpu)
{
	CHECK("doca_dev_open", doca_dev_open(info, &s->dev));
	CHECK("doca_rdma_create", doca_rdma_create(s->dev, &s->rdma));
	CHECK("set_permissions", doca_rdma_set_permissions(s->rdma, ACCESS));
	CHECK("set_recv_queue_size", doca_rdma_set_recv_queue_size(s->rdma, N));
	CHECK("set_wait_timeout", opengda_rdma_set_wait_timeout(s->rdma, 5000000000ull));
	CHECK("set_datapath_on_gpu", doca_ctx_set_datapath_on_gpu(doca_rdma_as_ctx(s->rdma), gpu));
	CHECK("doca_ctx_start", doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	CHECK("get_gpu_handle", doca_rdma_get_gpu_handle(s->rdma, &s->h));
	if (cudaMalloc((void **)&s->mem, N * ELEM) != cudaSuccess || cudaMemset(s->mem, 0, N * ELEM) != cudaSuccess) {
		printf("case rdma_strong_multi_block: FAIL cudaMalloc\n");
		exit(1);
	}
	CHECK("doca_mmap_create", doca_mmap_create(&s->mmap));
	CHECK("doca_mmap_add_dev", doca_mmap_add_dev(s->mmap, s->dev));
	CHECK("doca_mmap_set_memrange", doca_mmap_set_memrange(s->mmap, s->mem, N * ELEM));
	CHECK("doca_mmap_set_permissions", doca_mmap_set_permissions(s->mmap, ACCESS));
	CHECK("doca_mmap_start", doca_mmap_start(s->mmap));
	CHECK("doca_buf_arr_create", doca_buf_arr_create(N, &s->arr));
	CHECK("set_target_gpu", doca_buf_arr_set_target_gpu(s->arr, gpu));
	CHECK("set_params", doca_buf_arr_set_params(s->arr, s->mmap, ELEM, 0));
	CHECK("doca_buf_arr_start", doca_buf_arr_start(s->arr));
	CHECK("get_gpu_handle", doca_buf_arr_get_gpu_handle(s->arr, &s->local));
}

/* a's connection to b, and b's memory mapped on a. */
static void link_to(struct side *a, struct side *b, struct doca_gpu *gpu)
{
	const void *d;
	size_t l;

	CHECK("doca_mmap_export_rdma", doca_mmap_export_rdma(b->mmap, b->dev, &d, &l));
	CHECK("create_from_export", doca_mmap_create_from_export(NULL, d, l, a->dev, &a->peer_mmap));
	CHECK("doca_buf_arr_create", doca_buf_arr_create(N, &a->peer_arr));
	CHECK("set_target_gpu", doca_buf_arr_set_target_gpu(a->peer_arr, gpu));
	CHECK("set_params", doca_buf_arr_set_params(a->peer_arr, a->peer_mmap, ELEM, 0));
	CHECK("doca_buf_arr_start", doca_buf_arr_start(a->peer_arr));
	CHECK("get_gpu_handle", doca_buf_arr_get_gpu_handle(a->peer_arr, &a->remote));
}

int main(void)
{
	struct doca_devinfo **list, *info = NULL;
	struct doca_rdma_connection *ca, *cb;
	struct side a{}, b{};
	struct doca_gpu *gpu;
	struct result *res, host;
	uint8_t *src = (uint8_t *)malloc(N * ELEM), *got = (uint8_t *)malloc(N * ELEM);
	char bus[32], name[64];
	const void *da, *db;
	size_t la, lb;
	uint32_t ndev = 0, seen[N] = {0};
	int fail = 0;

	if (cudaFree(0) != cudaSuccess || cudaDeviceGetPCIBusId(bus, sizeof(bus), 0) != cudaSuccess ||
	    cudaMallocManaged((void **)&res, sizeof(*res)) != cudaSuccess) {
		printf("case rdma_strong_multi_block: FAIL no usable GPU (this test needs one)\n");
		return 1;
	}
	CHECK("doca_devinfo_create_list", doca_devinfo_create_list(&list, &ndev));
	for (uint32_t i = 0; i < ndev; i++)
		if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) == DOCA_SUCCESS && strcmp(name, "swnic0") == 0)
			info = list[i];
	if (info == NULL) {
		printf("case rdma_strong_multi_block: FAIL no swnic0\n");
		return 1;
	}
	CHECK("doca_gpu_create", doca_gpu_create(bus, &gpu));
	side_open(&a, info, gpu);
	side_open(&b, info, gpu);
	CHECK("export a", doca_rdma_export(a.rdma, &da, &la, &ca));
	CHECK("export b", doca_rdma_export(b.rdma, &db, &lb, &cb));
	CHECK("connect a", doca_rdma_connect(a.rdma, db, lb, ca));
	CHECK("connect b", doca_rdma_connect(b.rdma, da, la, cb));
	link_to(&a, &b, gpu);
	for (uint32_t i = 0; i < N * ELEM; i++)
		src[i] = (uint8_t)(i * 7 + (i >> 8));
	cudaMemcpy(a.mem, src, N * ELEM, cudaMemcpyHostToDevice);

	memset(res, 0, sizeof(*res));
	post_recvs<<<1, 1>>>(b.h, res);
	cudaDeviceSynchronize();
	fail |= res->err != DOCA_SUCCESS;
	write_all<<<BLOCKS, THREADS>>>(a.h, a.remote, a.local, res);
	wait_sender<<<1, 1>>>(a.h, res);
	cudaDeviceSynchronize();
	host = *res;
	fail |= host.err != DOCA_SUCCESS || host.n != N;
	memset(res, 0, sizeof(*res));
	wait_receiver<<<1, 1>>>(b.h, res);
	cudaDeviceSynchronize();
	host = *res;
	fail |= host.err != DOCA_SUCCESS || host.n != N;
	for (uint32_t k = 0; k < host.n && k < N; k++) {
		uint32_t v = __builtin_bswap32(host.imm[k]);

		if (v >= N || seen[v]++)
			fail = 1;
	}
	cudaMemcpy(got, b.mem, N * ELEM, cudaMemcpyDeviceToHost);
	fail |= memcmp(got, src, N * ELEM) != 0;
	fail |= cudaGetLastError() != cudaSuccess;
	printf("case rdma_strong_multi_block: %s (%u blocks x %u threads, %u receives, err %u)\n", fail ? "FAIL" : "OK",
	       BLOCKS, THREADS, host.n, host.err);
	return fail;
}
