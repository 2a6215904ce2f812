// SPDX-License-Identifier: BSD-3-Clause
// GPU cost per posted WQE (bench, not a test): how many RDMA-WRITE WQEs per second CUDA threads post
// through the device API into a QP that no NIC consumes. The setup is the one of
// reference/performance-anchors.md: SQ ring (4096 WQEBBs), doorbell record and readiness words in GPU
// memory, doorbell register = 8 bytes of mapped pinned host memory (each doorbell is a PCIe write, as to
// a NIC's UAR), handler GPU_SM_DB, SKIP_AVAILABILITY_CHECK (no CQ is polled), 64-byte writes. The ring
// has 65536 WQEBBs (the anchors used 4096) and a launch posts at most that many WQEs: without a CQ to wait
// on, more would reuse slots still being published.
// Best of three timed launches after a warm-up. A device-to-device copy of the same launch shape is
// timed in the same run as the baseline the figures are read against.
//
// Build (GPU machine): nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude bench/gpu_post_bench.cu -o gpu_post_bench
// Run: ./gpu_post_bench [--quick]
#include "doca_gpunetio_device.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CK(call)                                                                                 \
	do {                                                                                     \
		cudaError_t e_ = (call);                                                         \
		if (e_ != cudaSuccess) {                                                         \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
			exit(2);                                                                 \
		}                                                                                \
	} while (0)

// 2^16 WQEBBs, the largest ring: one launch never posts more than a ring's worth, so no slot is
// reused while an earlier WQE in it is unpublished (there is no NIC, hence no availability check).
static constexpr uint32_t kRing = 65536;
static constexpr uint32_t kLogRing = 16;
static constexpr uint32_t kCodeOpt = DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_AVAILABILITY_CHECK;

struct fake_qp {
	doca_gpu_dev_verbs_qp *dev; // device struct
	uint8_t *ring;
	uint64_t *slots;
	uint32_t *dbr;
	uint64_t *db_host; // pinned host doorbell word
	uint64_t *db_dev;
	uint8_t *cq;
};

static void fake_qp_init(fake_qp *f, uint32_t qpn)
{
	doca_gpu_dev_verbs_qp h;
	memset(&h, 0, sizeof(h));
	CK(cudaMalloc(&f->ring, kRing * 64));
	CK(cudaMalloc(&f->slots, kRing * sizeof(uint64_t)));
	CK(cudaMalloc(&f->dbr, 64));
	CK(cudaMalloc(&f->cq, kRing * 64));
	CK(cudaMemset(f->ring, 0, kRing * 64));
	CK(cudaMemset(f->slots, 0, kRing * sizeof(uint64_t)));
	CK(cudaMemset(f->dbr, 0, 64));
	CK(cudaMemset(f->cq, 0xff, kRing * 64));
	CK(cudaHostAlloc(&f->db_host, 64, cudaHostAllocMapped));
	CK(cudaHostGetDevicePointer((void **)&f->db_dev, f->db_host, 0));
	h.sq_num = qpn;
	h.sq_num_shift8 = qpn << 8;
	h.sq_num_shift8_be = __builtin_bswap32(qpn << 8);
	h.sq_num_shift8_be_1ds = __builtin_bswap32(qpn << 8 | 1);
	h.sq_num_shift8_be_2ds = __builtin_bswap32(qpn << 8 | 2);
	h.sq_num_shift8_be_3ds = __builtin_bswap32(qpn << 8 | 3);
	h.sq_num_shift8_be_4ds = __builtin_bswap32(qpn << 8 | 4);
	h.sq_num_shift8_be_5ds = __builtin_bswap32(qpn << 8 | 5);
	h.sq_wqe_num = kRing;
	h.sq_wqe_mask = kRing - 1;
	h.sq_log_wqe_num = kLogRing;
	h.sq_wqe_daddr = f->ring;
	h.sq_dbrec = f->dbr + 1;
	h.sq_db = f->db_dev;
	h.ogda_ready_slots = f->slots;
	h.cq_sq.cqe_daddr = f->cq;
	h.cq_sq.cqe_num = kRing;
	h.cq_sq.cqe_mask = kRing - 1;
	h.cq_sq.cqe_log_num = kLogRing;
	h.cq_sq.cqe_size = 64;
	h.nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB;
	h.mem_type = DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU;
	CK(cudaMalloc(&f->dev, sizeof(h)));
	CK(cudaMemcpy(f->dev, &h, sizeof(h), cudaMemcpyHostToDevice));
}

static void fake_qp_fini(fake_qp *f)
{
	cudaFree(f->dev);
	cudaFree(f->ring);
	cudaFree(f->slots);
	cudaFree(f->dbr);
	cudaFree(f->cq);
	cudaFreeHost(f->db_host);
}

// ---- kernels --------------------------------------------------------------------------------------

__device__ static doca_gpu_dev_verbs_addr addr_of(uint64_t a, uint32_t key)
{
	doca_gpu_dev_verbs_addr r;
	r.addr = a;
	r.key = key;
	return r;
}

// Every thread (or warp / block call) posts `iters` 64-byte puts into one QP shared GPU-wide.
template <enum doca_gpu_dev_verbs_resource_sharing_mode S, enum doca_gpu_dev_verbs_exec_scope E>
__global__ void k_put(doca_gpu_dev_verbs_qp *qp, int iters)
{
	doca_gpu_dev_verbs_ticket_t t;
	uint64_t off = (uint64_t)(blockIdx.x * blockDim.x + threadIdx.x) * 64;

	for (int i = 0; i < iters; i++)
		doca_gpu_dev_verbs_put<S, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB, E>(
			qp, addr_of(0x10000000ull + off, 0x11), addr_of(0x20000000ull + off, 0x22), 64, &t, kCodeOpt);
}

// Thread 0 of each block posts into the block's own QP (exclusive).
__global__ void k_put_excl(doca_gpu_dev_verbs_qp *qps, int iters)
{
	doca_gpu_dev_verbs_ticket_t t;

	if (threadIdx.x != 0)
		return;
	for (int i = 0; i < iters; i++)
		doca_gpu_dev_verbs_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE,
				       DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
			&qps[blockIdx.x], addr_of(0x10000000ull, 0x11), addr_of(0x20000000ull, 0x22), 64, &t, kCodeOpt);
}

// All threads of each block post into the block's own QP (CTA sharing).
__global__ void k_put_cta(doca_gpu_dev_verbs_qp *qps, int iters)
{
	doca_gpu_dev_verbs_ticket_t t;
	uint64_t off = (uint64_t)threadIdx.x * 64;

	for (int i = 0; i < iters; i++)
		doca_gpu_dev_verbs_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA,
				       DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
			&qps[blockIdx.x], addr_of(0x10000000ull + off, 0x11), addr_of(0x20000000ull + off, 0x22), 64, &t,
			kCodeOpt);
}

// Low level, one thread, exclusive: `batch` prepare_write per submit.
__global__ void k_lowlevel(doca_gpu_dev_verbs_qp *qp, int rounds, int batch)
{
	for (int r = 0; r < rounds; r++) {
		uint64_t base = doca_gpu_dev_verbs_reserve_wq_slots<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE>(
			qp, (uint32_t)batch, kCodeOpt);
		for (int k = 0; k < batch; k++)
			doca_gpu_dev_verbs_wqe_prepare_write(qp, doca_gpu_dev_verbs_get_wqe_ptr(qp, base + k), base + k,
							     DOCA_GPUNETIO_IB_MLX5_OPCODE_RDMA_WRITE,
							     DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_UPDATE, 0, 0x10000000ull + k * 64,
							     0x11, 0x20000000ull + k * 64, 0x22, 64);
		doca_gpu_dev_verbs_mark_wqes_ready<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE>(qp, base,
												      base + batch - 1);
		doca_gpu_dev_verbs_submit<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE,
					  DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB>(
			qp, base + batch);
	}
}

// Baseline: the same launch shape writing 64-byte WQE-sized records into the ring with one atomic
// slot reservation each, no readiness and no doorbell: the floor of any posting path.
__global__ void k_baseline_store(doca_gpu_dev_verbs_qp *qp, int iters)
{
	for (int i = 0; i < iters; i++) {
		uint64_t idx = atomicAdd((unsigned long long *)&qp->sq_rsvd_index, 1ull);
		uint64_t *w = (uint64_t *)(qp->sq_wqe_daddr + ((idx & qp->sq_wqe_mask) << 6));
		for (int k = 0; k < 8; k++)
			w[k] = idx + k;
	}
}

// Single-operation kernels for the static instruction counts (cuobjdump -sass -fun <name>).
__global__ void one_put_thread_gpu(doca_gpu_dev_verbs_qp *qp)
{
	doca_gpu_dev_verbs_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB,
			       DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(qp, addr_of(1, 2), addr_of(3, 4), 64, kCodeOpt);
}
__global__ void one_put_warp_gpu(doca_gpu_dev_verbs_qp *qp)
{
	doca_gpu_dev_verbs_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB,
			       DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>(qp, addr_of(1, 2), addr_of(3, 4), 64, kCodeOpt);
}
__global__ void one_put_block_gpu(doca_gpu_dev_verbs_qp *qp)
{
	doca_gpu_dev_verbs_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB,
			       DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK>(qp, addr_of(1, 2), addr_of(3, 4), 64, kCodeOpt);
}
__global__ void one_put_thread_excl(doca_gpu_dev_verbs_qp *qp)
{
	doca_gpu_dev_verbs_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE,
			       DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(
		qp, addr_of(1, 2), addr_of(3, 4), 64, kCodeOpt);
}

// ---- harness --------------------------------------------------------------------------------------

template <typename P, typename F>
static double best_of_three_ms(P prep, F launch)
{
	cudaEvent_t a, b;
	float best = 1e30f;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	prep();
	launch(); // warm-up
	CK(cudaDeviceSynchronize());
	for (int r = 0; r < 3; r++) {
		float ms;
		prep();
		CK(cudaDeviceSynchronize());
		CK(cudaEventRecord(a));
		launch();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		CK(cudaEventElapsedTime(&ms, a, b));
		if (ms < best)
			best = ms;
	}
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return best;
}

// After the last launch of a configuration: every reserved WQE was published and rung.
static bool all_rung(const doca_gpu_dev_verbs_qp *dev, uint64_t expected)
{
	uint64_t idx[3];

	CK(cudaMemcpy(idx, dev, sizeof(idx), cudaMemcpyDeviceToHost));
	if (idx[0] == expected && idx[1] == expected && idx[2] == expected)
		return true;
	printf("  ! indices rsvd %llu ready %llu rung %llu, expected %llu\n", (unsigned long long)idx[0],
	       (unsigned long long)idx[1], (unsigned long long)idx[2], (unsigned long long)expected);
	return false;
}

static int g_bad;

static void report(const char *what, int blocks, int threads, double wqes, double ms, double base_mwqes)
{
	double mwqes = wqes / (ms * 1e3);
	printf("%-44s %5d x %-5d %12.0f WQEs %9.3f ms %10.3f M WQE/s  %6.3f x baseline\n", what, blocks, threads, wqes,
	       ms, mwqes, base_mwqes > 0 ? mwqes / base_mwqes : 0.0);
}

// Indices and readiness back to zero so every launch starts alike (stale readiness words from an
// earlier launch could otherwise match a later index).
static void reset_qp(doca_gpu_dev_verbs_qp *dev, uint64_t *slots)
{
	CK(cudaMemset(slots, 0, kRing * sizeof(uint64_t)));
	CK(cudaMemset(dev, 0, 3 * sizeof(uint64_t)));
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	int iters = quick ? 4 : 32;
	cudaDeviceProp prop;
	const int nqps = 132;
	fake_qp one, many[nqps];
	doca_gpu_dev_verbs_qp *many_dev;

	CK(cudaGetDeviceProperties(&prop, 0));
	printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
	fake_qp_init(&one, 0x100);
	CK(cudaMalloc(&many_dev, nqps * sizeof(doca_gpu_dev_verbs_qp)));
	for (int i = 0; i < nqps; i++) {
		fake_qp_init(&many[i], 0x200 + i);
		CK(cudaMemcpy(&many_dev[i], many[i].dev, sizeof(doca_gpu_dev_verbs_qp), cudaMemcpyDeviceToDevice));
	}
	const int shapes[][2] = {{1, 1}, {1, 32}, {1, 256}, {4, 256}, {132, 256}};
	auto reset_one = [&] { reset_qp(one.dev, one.slots); };
	auto reset_many = [&] {
		for (int i = 0; i < nqps; i++)
			reset_qp(&many_dev[i], many[i].slots);
	};
	printf("%-44s %-13s %17s %12s %16s\n", "operation", "blocks x thr", "posted", "time", "rate");
	for (auto &s : shapes) {
		int b = s[0], t = s[1];
		int it = (int)(kRing / (uint32_t)(b * t)) < iters * 256 ? (int)(kRing / (uint32_t)(b * t)) : iters * 256;
		double wqes = (double)b * t * it;
		double base_ms = best_of_three_ms(reset_one, [&] { k_baseline_store<<<b, t>>>(one.dev, it); });
		double base = wqes / (base_ms * 1e3);
		report("baseline: atomic slot + 64 B store", b, t, wqes, base_ms, base);
		report("put, thread scope, shared GPU", b, t, wqes, best_of_three_ms(reset_one, [&] {
			       k_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
				       <<<b, t>>>(one.dev, it);
		       }), base);
		g_bad += !all_rung(one.dev, (uint64_t)wqes);
		if (t >= 32) {
			report("put, warp scope, shared GPU", b, t, wqes, best_of_three_ms(reset_one, [&] {
				       k_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>
					       <<<b, t>>>(one.dev, it);
			       }), base);
			g_bad += !all_rung(one.dev, (uint64_t)wqes);
			report("put, block scope, shared GPU", b, t, wqes, best_of_three_ms(reset_one, [&] {
				       k_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK>
					       <<<b, t>>>(one.dev, it);
			       }), base);
			g_bad += !all_rung(one.dev, (uint64_t)wqes);
			report("put, thread scope, CTA-shared QP per block", b, t, wqes,
			       best_of_three_ms(reset_many, [&] { k_put_cta<<<b, t>>>(many_dev, it); }), base);
			for (int i = 0; i < b; i++)
				g_bad += !all_rung(&many_dev[i], (uint64_t)t * it);
		}
	}
	const int excl_blocks[] = {1, 16, 132};
	for (int b : excl_blocks) {
		int it = iters * 256;
		report("put, thread scope, exclusive QP per block", b, 1, (double)b * it,
		       best_of_three_ms(reset_many, [&] { k_put_excl<<<b, 32>>>(many_dev, it); }), 0);
	}
	const int batches[] = {1, 8, 32, 128};
	for (int k : batches) {
		int rounds = (quick ? 4096 : 65536) / k;
		char name[64];
		snprintf(name, sizeof(name), "low level: %d prepare_write per submit", k);
		report(name, 1, 1, (double)rounds * k,
		       best_of_three_ms(reset_one, [&] { k_lowlevel<<<1, 1>>>(one.dev, rounds, k); }), 0);
	}
	// The instruction-count kernels must exist in the binary: launch each once.
	one_put_thread_gpu<<<1, 1>>>(one.dev);
	one_put_warp_gpu<<<1, 32>>>(one.dev);
	one_put_block_gpu<<<1, 64>>>(one.dev);
	one_put_thread_excl<<<1, 1>>>(one.dev);
	CK(cudaDeviceSynchronize());
	unsigned long long rung = 0;
	memcpy(&rung, (const void *)one.db_host, sizeof(rung));
	printf("last doorbell word: 0x%016llx\n", rung);
	printf("%s\n", g_bad ? "INDEX CHECK FAILED" : "every configuration: all reserved WQEs published and rung");
	fake_qp_fini(&one);
	for (int i = 0; i < nqps; i++)
		fake_qp_fini(&many[i]);
	cudaFree(many_dev);
	return g_bad ? 1 : 0;
}
