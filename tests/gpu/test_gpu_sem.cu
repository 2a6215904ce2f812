/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU test: a semaphore in CPU_GPU memory between a host producer (doca_gpu_semaphore_* host API)
 * and a CUDA kernel consumer (doca_gpunetio_dev_sem.cuh), both ways: the host writes numbered
 * records into the custom info and sets READY; each kernel thread owns one item, checks every
 * record it takes (sequence and checksum, in order), frees the item and at EXIT reports its count.
 * Exit 0 on success, 1 on a wrong record or count, 2 when the GPU or a call fails, 3 on timeout.
 */
#include "device/doca_gpunetio_dev_sem.cuh"
#include "doca_gpunetio.h"

#include <cuda_runtime.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

#define ITEMS 32u
#define ROUNDS 1000u
#define WAIT_NS (20ull * 1000 * 1000 * 1000)

struct record {
	unsigned long long seq;
	unsigned long long check;
};

__global__ void consume(struct doca_gpu_semaphore_gpu *sem, unsigned long long *counts, int *bad)
{
	uint32_t i = threadIdx.x;
	unsigned long long next = 0, deadline = ogda_dev_deadline(WAIT_NS);
	enum doca_gpu_semaphore_status st;
	void *p;

	for (;;) {
		if (doca_gpu_dev_semaphore_get_status(sem, i, &st) != DOCA_SUCCESS) {
			atomicAdd(bad, 1);
			return;
		}
		if (st == DOCA_GPU_SEMAPHORE_STATUS_EXIT)
			break;
		if (st == DOCA_GPU_SEMAPHORE_STATUS_READY) {
			struct record *r;

			doca_gpu_dev_semaphore_get_custom_info_addr(sem, i, &p);
			r = (struct record *)p;
			if (r->seq != next * ITEMS + i || r->check != r->seq * 3 + 1)
				atomicAdd(bad, 1);
			next++;
			doca_gpu_dev_semaphore_set_status(sem, i, DOCA_GPU_SEMAPHORE_STATUS_FREE);
		} else if (ogda_dev_expired(deadline)) {
			atomicAdd(bad, 1000000);
			return;
		}
	}
	counts[i] = next;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

#define CHECK(call)                                                                                \
	do {                                                                                       \
		if (!(call)) {                                                                     \
			fprintf(stderr, "gpu_semaphore: %s failed\n", #call);                     \
			return 2;                                                                  \
		}                                                                                  \
	} while (0)

int main(void)
{
	char bus[32];
	struct doca_gpu *gpu = NULL;
	struct doca_gpu_semaphore *sem = NULL;
	struct doca_gpu_semaphore_gpu *h = NULL;
	unsigned long long *counts = NULL, host_counts[ITEMS], deadline;
	int *bad = NULL, host_bad = 0;

	CHECK(cudaFree(0) == cudaSuccess);
	CHECK(cudaDeviceGetPCIBusId(bus, sizeof(bus), 0) == cudaSuccess);
	CHECK(doca_gpu_create(bus, &gpu) == DOCA_SUCCESS);
	CHECK(doca_gpu_semaphore_create(gpu, &sem) == DOCA_SUCCESS);
	CHECK(doca_gpu_semaphore_set_memory_type(sem, DOCA_GPU_MEM_TYPE_CPU_GPU) == DOCA_SUCCESS);
	CHECK(doca_gpu_semaphore_set_items_num(sem, ITEMS) == DOCA_SUCCESS);
	CHECK(doca_gpu_semaphore_set_custom_info(sem, sizeof(struct record), DOCA_GPU_MEM_TYPE_CPU_GPU) == DOCA_SUCCESS);
	CHECK(doca_gpu_semaphore_start(sem) == DOCA_SUCCESS);
	CHECK(doca_gpu_semaphore_get_gpu_handle(sem, &h) == DOCA_SUCCESS);
	CHECK(cudaMalloc(&counts, sizeof(host_counts)) == cudaSuccess);
	CHECK(cudaMalloc(&bad, sizeof(int)) == cudaSuccess);
	CHECK(cudaMemset(bad, 0, sizeof(int)) == cudaSuccess);
	consume<<<1, ITEMS>>>(h, counts, bad);
	CHECK(cudaGetLastError() == cudaSuccess);

	deadline = now_ns() + WAIT_NS;
	for (uint32_t round = 0; round <= ROUNDS; round++) {
		for (uint32_t i = 0; i < ITEMS; i++) {
			enum doca_gpu_semaphore_status st;
			void *p;

			do {
				CHECK(doca_gpu_semaphore_get_status(sem, i, &st) == DOCA_SUCCESS);
				if (now_ns() > deadline) {
					fprintf(stderr, "gpu_semaphore: item %u stuck in status %d\n", i, (int)st);
					return 3;
				}
			} while (st != DOCA_GPU_SEMAPHORE_STATUS_FREE);
			if (round == ROUNDS) {
				CHECK(doca_gpu_semaphore_set_status(sem, i, DOCA_GPU_SEMAPHORE_STATUS_EXIT) == DOCA_SUCCESS);
				continue;
			}
			CHECK(doca_gpu_semaphore_get_custom_info_addr(sem, i, &p) == DOCA_SUCCESS);
			((struct record *)p)->seq = (unsigned long long)round * ITEMS + i;
			((struct record *)p)->check = ((unsigned long long)round * ITEMS + i) * 3 + 1;
			CHECK(doca_gpu_semaphore_set_status(sem, i, DOCA_GPU_SEMAPHORE_STATUS_READY) == DOCA_SUCCESS);
		}
	}
	CHECK(cudaDeviceSynchronize() == cudaSuccess);
	CHECK(cudaMemcpy(host_counts, counts, sizeof(host_counts), cudaMemcpyDeviceToHost) == cudaSuccess);
	CHECK(cudaMemcpy(&host_bad, bad, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
	for (uint32_t i = 0; i < ITEMS; i++) {
		if (host_counts[i] != ROUNDS) {
			fprintf(stderr, "gpu_semaphore: thread %u took %llu records, not %u\n", i, host_counts[i], ROUNDS);
			return 1;
		}
	}
	if (host_bad != 0) {
		fprintf(stderr, "gpu_semaphore: %d wrong records or timeouts in the kernel\n", host_bad);
		return 1;
	}
	CHECK(doca_gpu_semaphore_stop(sem) == DOCA_SUCCESS);
	CHECK(doca_gpu_semaphore_destroy(sem) == DOCA_SUCCESS);
	cudaFree(counts);
	cudaFree(bad);
	CHECK(doca_gpu_destroy(gpu) == DOCA_SUCCESS);
	printf("gpu_semaphore: %u records through %u items, host -> kernel, all intact and in order\n", ROUNDS * ITEMS,
	       ITEMS);
	return 0;
}
