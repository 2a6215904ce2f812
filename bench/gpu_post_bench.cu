// SPDX-License-Identifier: BSD-3-Clause
// GPU cost per posted WQE (bench, not a test): how many RDMA-WRITE WQEs per second CUDA threads post
// through the device API into a QP that no NIC consumes. The setup is the one of
// reference/performance-anchors.md: SQ ring, doorbell record and readiness words in GPU memory, doorbell
// register = 8 bytes of mapped pinned host memory (each doorbell is a PCIe write, as to a NIC's UAR),
// handler GPU_SM_DB, SKIP_AVAILABILITY_CHECK (no CQ is polled), 64-byte writes. The ring has 65536
// WQEBBs (the anchors used 4096) and a launch posts at most that many WQEs: without a CQ to wait on,
// more would reuse slots still being published.
//
// Baseline, timed in the same run: the floor of this setup, a hand-written minimal post (one thread
// writes the 64-byte WQE, one system-scope release fence, doorbell record, doorbell store). Every row
// prints its rate, its ratio to the floor (one poster's floor; shared rows with many threads can
// exceed 1), the open release's figure measured on an H200 in the same setup, and the goal.
// Best of three timed launches after a warm-up. After every configuration the bench checks that every
// reserved WQE was published and rung (reserved == ready == rung index, and the last doorbell word
// names that index) on every QP it used. Static SASS counts per kernel: bench/gpu_post_sass.sh.
//
// Build (GPU machine): nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude bench/gpu_post_bench.cu -o gpu_post_bench
// Run: ./gpu_post_bench [--quick] [--sys-scope]
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

// --sys-scope: the fake QP says its ring is host memory, so the library rings behind a
// system-scope fence (as for the software NIC) instead of a GPU-scope one.
static bool g_sys_scope;

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
	h.mem_type = g_sys_scope ? DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST : DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU;
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

// All threads of each block post into the block's own QP (CTA sharing), at scope E.
template <enum doca_gpu_dev_verbs_exec_scope E>
__global__ void k_put_own(doca_gpu_dev_verbs_qp *qps, int iters)
{
	doca_gpu_dev_verbs_ticket_t t;
	uint64_t off = (uint64_t)threadIdx.x * 64;

	for (int i = 0; i < iters; i++)
		doca_gpu_dev_verbs_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB,
				       E>(&qps[blockIdx.x], addr_of(0x10000000ull + off, 0x11),
					  addr_of(0x20000000ull + off, 0x22), 64, &t, kCodeOpt);
}

// Low level, one thread, exclusive: `batch` prepare_write per submit.
__device__ static __forceinline__ void k_lowlevel_body(doca_gpu_dev_verbs_qp *qp, int rounds, int batch)
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

__global__ void k_lowlevel(doca_gpu_dev_verbs_qp *qp, int rounds, int batch)
{
	k_lowlevel_body(qp, rounds, batch);
}

// The floor: thread 0 of each block posts into the block's own QP by hand, the least any post can
// do in this setup: the 64-byte WQE (same words as the library's RDMA WRITE), one system-scope
// release fence, the doorbell record, the doorbell.
__device__ static __forceinline__ void floor_post(doca_gpu_dev_verbs_qp *qp, uint64_t pi)
{
	uint8_t *w = qp->sq_wqe_daddr + ((pi & qp->sq_wqe_mask) << 6);
	uint64_t c0 = ((uint64_t)qp->sq_num_shift8_be_3ds << 32) | __byte_perm((uint32_t)(pi << 8) | 0x08, 0, 0x0123);
	uint64_t c1 = (uint64_t)0x08 << 24;
	uint64_t r0 = __byte_perm(0x10, 0, 0x0123), r1 = 0x11;
	uint64_t d0 = ((uint64_t)0x22 << 32) | __byte_perm(64, 0, 0x0123), d1 = 0x20;

	asm volatile("st.weak.global.cs.v2.b64 [%0], {%1, %2};" ::"l"(w), "l"(c0), "l"(c1) : "memory");
	asm volatile("st.weak.global.cs.v2.b64 [%0], {%1, %2};" ::"l"(w + 16), "l"(r0), "l"(r1) : "memory");
	asm volatile("st.weak.global.cs.v2.b64 [%0], {%1, %2};" ::"l"(w + 32), "l"(d0), "l"(d1) : "memory");
	asm volatile("st.weak.global.cs.v2.b64 [%0], {%1, %2};" ::"l"(w + 48), "l"(0ull), "l"(0ull) : "memory");
#if __CUDA_ARCH__ >= 900
	asm volatile("fence.release.sys;" ::: "memory");
#else
	asm volatile("fence.acq_rel.sys;" ::: "memory");
#endif
	asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(qp->sq_dbrec),
		     "r"(__byte_perm((uint32_t)(pi + 1) & 0xffff, 0, 0x0123))
		     : "memory");
	asm volatile("st.mmio.relaxed.sys.global.b64 [%0], %1;" ::"l"(qp->sq_db),
		     "l"(((uint64_t)qp->sq_num_shift8_be << 32) | __byte_perm((uint32_t)((pi + 1) & 0xffff) << 8, 0, 0x0123))
		     : "memory");
}

__global__ void k_floor(doca_gpu_dev_verbs_qp *qps, int iters)
{
	doca_gpu_dev_verbs_qp *qp = &qps[blockIdx.x];
	uint64_t pi = qp->sq_rsvd_index;

	if (threadIdx.x != 0)
		return;
	for (int i = 0; i < iters; i++, pi++)
		floor_post(qp, pi);
	// The indices the completeness check reads.
	qp->sq_rsvd_index = qp->sq_ready_index = qp->sq_wqe_pi = pi;
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
__global__ void one_floor(doca_gpu_dev_verbs_qp *qp)
{
	floor_post(qp, 0);
}
__global__ void one_lowlevel_8(doca_gpu_dev_verbs_qp *qp)
{
	k_lowlevel_body(qp, 1, 8);
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

// After the last launch of a configuration: every reserved WQE was published and rung, and the
// doorbell register's last word names that producer index.
static bool all_rung(const fake_qp *f, const doca_gpu_dev_verbs_qp *dev, uint64_t expected)
{
	uint64_t idx[3], db;

	CK(cudaMemcpy(idx, dev, sizeof(idx), cudaMemcpyDeviceToHost));
	memcpy(&db, (const void *)f->db_host, sizeof(db));
	uint32_t db_pi = __builtin_bswap32((uint32_t)db) >> 8;
	if (idx[0] == expected && idx[1] == expected && idx[2] == expected && db_pi == (expected & 0xffff))
		return true;
	printf("  ! indices rsvd %llu ready %llu rung %llu, doorbell pi 0x%x, expected %llu\n",
	       (unsigned long long)idx[0], (unsigned long long)idx[1], (unsigned long long)idx[2], db_pi,
	       (unsigned long long)expected);
	return false;
}

static int g_bad, g_goals, g_met;
static char g_ratio[16];

// One row: rate, ratio to the floor, the open release's figure and the goal (0: none).
static void report(const char *what, int blocks, int threads, double wqes, double ms, double floor_mwqes,
		   double open_mwqes, double goal_mwqes)
{
	double mwqes = wqes / (ms * 1e3);
	char open_s[16] = "-", goal_s[24] = "-";

	if (open_mwqes > 0)
		snprintf(open_s, sizeof(open_s), "%.3g", open_mwqes);
	if (goal_mwqes > 0) {
		bool met = mwqes >= goal_mwqes;
		snprintf(goal_s, sizeof(goal_s), ">= %.3g %s", goal_mwqes, met ? "met" : "MISSED");
		g_goals++;
		g_met += met;
	}
	printf("%-44s %4d x %-4d %8.0f %9.3f %10.3f %8.3f  %7s %8s  %s\n", what, blocks, threads, wqes, ms, mwqes,
	       floor_mwqes > 0 ? mwqes / floor_mwqes : 0.0, open_s,
	       open_mwqes > 0 ? (snprintf(g_ratio, sizeof(g_ratio), "%.2fx", mwqes / open_mwqes), g_ratio) : "-",
	       goal_s);
}

// Indices, lock and readiness back to zero so every launch starts alike (stale readiness words from
// an earlier launch could otherwise match a later index).
static void reset_qp(doca_gpu_dev_verbs_qp *dev, uint64_t *slots)
{
	CK(cudaMemset(slots, 0, kRing * sizeof(uint64_t)));
	CK(cudaMemset(dev, 0, 3 * sizeof(uint64_t)));
	CK(cudaMemset(&dev->sq_lock, 0, sizeof(dev->sq_lock)));
}

// The open release's figures (reference/performance-anchors.md) and the goals, in M WQE/s.
struct shape_row {
	int blocks, threads;
	double open_rel, goal;
};

int main(int argc, char **argv)
{
	bool quick = false;
	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--quick") == 0)
			quick = true;
		else if (strcmp(argv[a], "--sys-scope") == 0)
			g_sys_scope = true;
		else {
			fprintf(stderr, "usage: %s [--quick] [--sys-scope]\n", argv[0]);
			return 2;
		}
	}
	int iters = quick ? 4 : 32;
	cudaDeviceProp prop;
	const int nqps = 132;
	fake_qp one, many[nqps];
	doca_gpu_dev_verbs_qp *many_dev;

	CK(cudaGetDeviceProperties(&prop, 0));
	printf("device: %s (sm_%d%d, %d SMs); doorbell fence scope: %s\n", prop.name, prop.major, prop.minor,
	       prop.multiProcessorCount, g_sys_scope ? "system (ring in host memory)" : "GPU (ring in GPU memory)");
	fake_qp_init(&one, 0x100);
	CK(cudaMalloc(&many_dev, nqps * sizeof(doca_gpu_dev_verbs_qp)));
	for (int i = 0; i < nqps; i++) {
		fake_qp_init(&many[i], 0x200 + i);
		CK(cudaMemcpy(&many_dev[i], many[i].dev, sizeof(doca_gpu_dev_verbs_qp), cudaMemcpyDeviceToDevice));
	}
	auto reset_one = [&] { reset_qp(one.dev, one.slots); };
	auto reset_many = [&] {
		for (int i = 0; i < nqps; i++)
			reset_qp(&many_dev[i], many[i].slots);
	};
	auto check_many = [&](int b, uint64_t each) {
		for (int i = 0; i < b; i++)
			g_bad += !all_rung(&many[i], &many_dev[i], each);
	};
	// Launches of one kernel shape never post more than the ring holds.
	auto iters_for = [&](int b, int t) {
		int per = (int)(kRing / (uint32_t)(b * t));
		return per < iters * 256 ? per : iters * 256;
	};

	// The floor: one poster, timed first.
	const int floor_it = iters * 256;
	double floor_ms = best_of_three_ms(reset_many, [&] { k_floor<<<1, 32>>>(many_dev, floor_it); });
	double floor_rate = floor_it / (floor_ms * 1e3);
	check_many(1, floor_it);
	printf("%-44s %-11s %8s %9s %10s %8s  %7s %8s  %s\n", "operation", "blocks x thr", "WQEs", "ms", "M WQE/s",
	       "x floor", "open", "vs open", "goal (M WQE/s)");
	report("floor: WQE, release fence, DBR, doorbell", 1, 1, floor_it, floor_ms, floor_rate, 0, 0);

	const shape_row thread_rows[] = {{1, 1, 0.54, 1.1}, {1, 32, 0.53, 10}, {1, 256, 1.16, 20}, {4, 256, 0.61, 30},
					 {132, 256, 0.018, 30}};
	for (auto &r : thread_rows) {
		int it = iters_for(r.blocks, r.threads);
		double wqes = (double)r.blocks * r.threads * it;
		report("put, thread scope, shared GPU", r.blocks, r.threads, wqes, best_of_three_ms(reset_one, [&] {
			       k_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
				       <<<r.blocks, r.threads>>>(one.dev, it);
		       }), floor_rate, r.open_rel, r.goal);
		g_bad += !all_rung(&one, one.dev, (uint64_t)wqes);
	}
	const shape_row warp_rows[] = {{1, 32, 16.6, 24.9}, {1, 256, 35.5, 53.25}, {4, 256, 47.4, 71.1},
				       {132, 256, 16.5, 24.75}};
	double warp_rate[4] = {0, 0, 0, 0};
	for (int k = 0; k < 4; k++) {
		const shape_row &r = warp_rows[k];
		int it = iters_for(r.blocks, r.threads);
		double wqes = (double)r.blocks * r.threads * it;
		double ms = best_of_three_ms(reset_one, [&] {
			k_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>
				<<<r.blocks, r.threads>>>(one.dev, it);
		});
		warp_rate[k] = wqes / (ms * 1e3);
		report("put, warp scope, shared GPU", r.blocks, r.threads, wqes, ms, floor_rate, r.open_rel, r.goal);
		g_bad += !all_rung(&one, one.dev, (uint64_t)wqes);
	}
	// Block scope: no open-release figure (its block scope does not exist); the goal is the warp row.
	const shape_row block_rows[] = {{1, 256, 0, 0}, {4, 256, 0, 0}, {132, 256, 0, 0}};
	for (int k = 0; k < 3; k++) {
		const shape_row &r = block_rows[k];
		int it = iters_for(r.blocks, r.threads);
		double wqes = (double)r.blocks * r.threads * it;
		report("put, block scope, shared GPU", r.blocks, r.threads, wqes, best_of_three_ms(reset_one, [&] {
			       k_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK>
				       <<<r.blocks, r.threads>>>(one.dev, it);
		       }), floor_rate, 0, warp_rate[k + 1]);
		g_bad += !all_rung(&one, one.dev, (uint64_t)wqes);
	}
	// Exclusive QP per block (thread 0 posts): the open release's figures; the floor with as many
	// blocks is timed next to each.
	const shape_row excl_rows[] = {{1, 1, 1.23, 1.845}, {16, 1, 15.7, 23.55}, {132, 1, 126, 189}};
	for (auto &r : excl_rows) {
		int it = iters * 256;
		double wqes = (double)r.blocks * it;
		double fms = best_of_three_ms(reset_many, [&] { k_floor<<<r.blocks, 32>>>(many_dev, it); });
		check_many(r.blocks, it);
		report("floor, one poster per QP", r.blocks, 1, wqes, fms, floor_rate, 0, 0);
		report("put, thread scope, exclusive QP per block", r.blocks, 1, wqes,
		       best_of_three_ms(reset_many, [&] { k_put_excl<<<r.blocks, 32>>>(many_dev, it); }), floor_rate,
		       r.open_rel, r.goal);
		check_many(r.blocks, it);
	}
	const shape_row cta_rows[] = {{1, 256, 0, 0}, {4, 256, 0, 0}, {132, 256, 0, 0}};
	for (auto &r : cta_rows) {
		int it = iters_for(1, r.threads);
		double wqes = (double)r.blocks * r.threads * it;
		report("put, thread scope, CTA-shared QP per block", r.blocks, r.threads, wqes,
		       best_of_three_ms(reset_many, [&] { k_put_own<DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD><<<r.blocks, r.threads>>>(many_dev, it); }),
		       floor_rate, 0, 0);
		check_many(r.blocks, (uint64_t)r.threads * it);
		report("put, block scope, CTA QP per block", r.blocks, r.threads, wqes,
		       best_of_three_ms(reset_many, [&] { k_put_own<DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK><<<r.blocks, r.threads>>>(many_dev, it); }),
		       floor_rate, 0, 0);
		check_many(r.blocks, (uint64_t)r.threads * it);
	}
	const int batches[] = {1, 8, 32, 128};
	const double ll_open[] = {1.42, 9.2, 23.1, 37.2};
	for (int k = 0; k < 4; k++) {
		int b = batches[k];
		int rounds = (quick ? 4096 : 65536) / b;
		char name[64];
		snprintf(name, sizeof(name), "low level: %d prepare_write per submit", b);
		report(name, 1, 1, (double)rounds * b,
		       best_of_three_ms(reset_one, [&] { k_lowlevel<<<1, 1>>>(one.dev, rounds, b); }), floor_rate,
		       ll_open[k], ll_open[k] * 1.5);
		g_bad += !all_rung(&one, one.dev, (uint64_t)rounds * b);
	}
	// The instruction-count kernels must exist in the binary: launch each once.
	reset_one();
	one_put_thread_gpu<<<1, 1>>>(one.dev);
	one_put_warp_gpu<<<1, 32>>>(one.dev);
	one_put_block_gpu<<<1, 64>>>(one.dev);
	one_put_thread_excl<<<1, 1>>>(one.dev);
	one_floor<<<1, 1>>>(one.dev);
	one_lowlevel_8<<<1, 1>>>(one.dev);
	CK(cudaDeviceSynchronize());
	printf("goals met: %d of %d\n", g_met, g_goals);
	printf("%s\n", g_bad ? "INDEX CHECK FAILED" : "every configuration: all reserved WQEs published and rung");
	fake_qp_fini(&one);
	for (int i = 0; i < nqps; i++)
		fake_qp_fini(&many[i]);
	cudaFree(many_dev);
	return g_bad ? 1 : 0;
}
