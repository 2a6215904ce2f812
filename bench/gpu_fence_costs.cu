// SPDX-License-Identifier: BSD-3-Clause
// What the pieces of a post cost on this GPU (bench, not a test): one thread, a loop of one
// primitive, nanoseconds per iteration. The doorbell is 8 bytes of mapped pinned host memory, as
// in bench/gpu_post_bench.cu. Used to decide which fences and round trips the posting path can
// afford; the figures are recorded with the post-rate results in bench/results/.
//
// The second part times the phases of one shared-QP post (reserve, write, publish and ring) as
// the library runs them, with clock64() in the posting thread, for one thread and for a warp, and
// the primitives of the uncontended single-thread path one by one.
//
// Build (GPU machine): nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude bench/gpu_fence_costs.cu -o gpu_fence_costs
#include "doca_gpunetio_device.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#define CK(call)                                                                                   \
	do {                                                                                       \
		cudaError_t e_ = (call);                                                           \
		if (e_ != cudaSuccess) {                                                           \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
			exit(2);                                                                   \
		}                                                                                  \
	} while (0)

struct ctx {
	uint64_t *db;	 // mapped pinned host word
	uint64_t *word;	 // GPU memory, a few lines apart
	uint8_t *ring;	 // GPU memory, 64 B slots
	uint32_t *dbr;	 // GPU memory
};

__device__ static __forceinline__ void mmio(uint64_t *p, uint64_t v)
{
	asm volatile("st.mmio.relaxed.sys.global.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ static __forceinline__ void wqe(uint8_t *ring, uint64_t i)
{
	uint8_t *w = ring + ((i & 4095) << 6);
	for (int k = 0; k < 4; k++)
		asm volatile("st.weak.global.cs.v2.b64 [%0], {%1, %2};" ::"l"(w + 16 * k), "l"(i), "l"(i + k) : "memory");
}

__device__ static __forceinline__ void seg_cs(uint8_t *p, uint64_t a, uint64_t b)
{
	asm volatile("st.weak.global.cs.v2.b64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b));
}
// Ring word of the two-atomic sketch: (index << 1) | held. Takes it (acquire CAS from the index
// with the bit clear to the next index with the bit set), as a shared post would publish and lock.
__device__ static __forceinline__ void lock_take(uint64_t *w, uint64_t base)
{
	uint64_t seen;
	(void)base;
	asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(seen) : "l"(w) : "memory");
	asm volatile("atom.acquire.gpu.global.cas.b64 %0, [%1], %2, %3;"
		     : "=l"(seen)
		     : "l"(w), "l"(seen & ~1ull), "l"((seen & ~1ull) + 3)
		     : "memory");
}
__device__ static __forceinline__ uint64_t lock_let_go(uint64_t *w, uint64_t base)
{
	uint64_t seen;
	(void)base;
	asm volatile("atom.release.gpu.global.and.b64 %0, [%1], %2;" : "=l"(seen) : "l"(w), "l"(~1ull) : "memory");
	return seen & 1;
}

template <int V>
__global__ void k(ctx c, int n, uint64_t *sink)
{
	uint64_t acc = 0;
	for (int i = 0; i < n; i++) {
		if constexpr (V == 0) { // doorbell alone
			mmio(c.db, i);
		} else if constexpr (V == 1) { // fence.release.sys + doorbell
			asm volatile("fence.release.sys;" ::: "memory");
			mmio(c.db, i);
		} else if constexpr (V == 2) { // fence.release.gpu + doorbell
			asm volatile("fence.release.gpu;" ::: "memory");
			mmio(c.db, i);
		} else if constexpr (V == 3) { // fence.sc.gpu + doorbell
			asm volatile("fence.sc.gpu;" ::: "memory");
			mmio(c.db, i);
		} else if constexpr (V == 4) { // atomic add round trip (value used)
			acc += atomicAdd((unsigned long long *)c.word, 1ull + (acc & 1));
		} else if constexpr (V == 5) { // acq_rel CAS round trip
			uint64_t seen;
			asm volatile("atom.acq_rel.gpu.global.cas.b64 %0, [%1], %2, %3;"
				     : "=l"(seen)
				     : "l"(c.word), "l"(acc), "l"(acc + 1)
				     : "memory");
			acc = seen + 1;
		} else if constexpr (V == 6) { // relaxed load round trip (L2)
			uint64_t v;
			asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(c.word + (acc & 1)) : "memory");
			acc += v + 1;
		} else if constexpr (V == 7) { // floor, system scope
			wqe(c.ring, i);
			asm volatile("fence.release.sys;" ::: "memory");
			asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(c.dbr), "r"((uint32_t)i) : "memory");
			mmio(c.db, i);
		} else if constexpr (V == 8) { // floor, GPU scope
			wqe(c.ring, i);
			asm volatile("fence.release.gpu;" ::: "memory");
			asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(c.dbr), "r"((uint32_t)i) : "memory");
			mmio(c.db, i);
		} else if constexpr (V == 9) { // doorbell then an atomic round trip
			mmio(c.db, i);
			acc += atomicAdd((unsigned long long *)c.word, 1ull + (acc & 1));
		} else if constexpr (V == 10) { // doorbell then fence.sc.gpu then an atomic
			mmio(c.db, i);
			asm volatile("fence.sc.gpu;" ::: "memory");
			acc += atomicAdd((unsigned long long *)c.word, 1ull + (acc & 1));
		} else if constexpr (V == 11) { // WQE stores then fence.release.gpu (no doorbell)
			wqe(c.ring, i);
			asm volatile("fence.release.gpu;" ::: "memory");
		} else if constexpr (V == 12) { // WQE stores then fence.sc.gpu (no doorbell)
			wqe(c.ring, i);
			asm volatile("fence.sc.gpu;" ::: "memory");
		} else if constexpr (V == 13) { // st.release.gpu (a slot word) + fence.sc.gpu + relaxed load
			uint64_t v;
			asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(c.word + 16), "l"((uint64_t)i) : "memory");
			asm volatile("fence.sc.gpu;" ::: "memory");
			asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(c.word + 32) : "memory");
			acc += v;
		} else if constexpr (V >= 14 && V <= 18) { // store throughput: 128 WQEs of one thread
			for (int w = 0; w < 128; w++) {
				uint8_t *p = c.ring + (((uint64_t)i * 128 + w) & 4095) * 64;
				if constexpr (V == 14 || V == 17) {
					for (int s = 0; s < 3; s++)
						seg_cs(p + 16 * s, i + w, w + s);
				} else if constexpr (V == 15) {
					for (int s = 0; s < 4; s++)
						seg_cs(p + 16 * s, i + w, w + s);
				} else if constexpr (V == 16) {
					for (int s = 0; s < 3; s++)
						asm volatile("st.global.v2.b64 [%0], {%1, %2};" ::"l"(p + 16 * s), "l"((uint64_t)i + w),
							     "l"((uint64_t)w + s));
				} else {
					for (int s = 0; s < 6; s++)
						asm volatile("st.global.b64 [%0], %1;" ::"l"(p + 8 * s), "l"((uint64_t)i + w + s));
				}
			}
			if constexpr (V != 17)
				asm volatile("fence.release.gpu;" ::: "memory");
		} else if constexpr (V == 19 || V == 21 || V == 22) { // a warp: 32 WQEs, 3 segments each
			uint32_t lane = threadIdx.x;
			uint64_t base = (uint64_t)i * 32;
			if constexpr (V == 22) {
				if (lane == 0)
					base = atomicAdd((unsigned long long *)c.word, 32ull);
				base = __shfl_sync(0xffffffffu, base, 0);
			}
			uint8_t *p = c.ring + ((base + lane) & 4095) * 64;
			for (int s = 0; s < 3; s++)
				seg_cs(p + 16 * s, base + lane, s);
			__syncwarp();
			if constexpr (V == 21)
				asm volatile("fence.release.gpu;" ::: "memory");
			if (lane == 0) {
				if constexpr (V == 22)
					lock_take(c.word + 16, base);
				if constexpr (V != 21)
					asm volatile("fence.release.gpu;" ::: "memory");
				asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(c.dbr), "r"((uint32_t)base) : "memory");
				mmio(c.db, base);
				if constexpr (V == 22)
					acc += lock_let_go(c.word + 16, base);
			}
			__syncwarp();
		} else if constexpr (V == 20) { // a warp, 32 WQEs written as 4 contiguous 512-byte stores
			uint32_t lane = threadIdx.x;
			uint64_t base = (uint64_t)i * 32;
			uint8_t *p = c.ring + (base & 4095) * 64;
			for (int s = 0; s < 4; s++)
				seg_cs(p + 512 * s + 16 * lane, base + lane, s);
			__syncwarp();
			if (lane == 0) {
				asm volatile("fence.release.gpu;" ::: "memory");
				asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(c.dbr), "r"((uint32_t)base) : "memory");
				mmio(c.db, base);
			}
			__syncwarp();
		} else if constexpr (V == 23 || V == 24) { // one thread, a two-atomic shared post
			uint64_t base = atomicAdd((unsigned long long *)c.word, 1ull);
			wqe(c.ring, base);
			lock_take(c.word + 16, base);
			asm volatile("fence.release.gpu;" ::: "memory");
			asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(c.dbr), "r"((uint32_t)base) : "memory");
			mmio(c.db, base);
			if constexpr (V == 23)
				acc += lock_let_go(c.word + 16, base);
			else
				asm volatile("red.release.gpu.global.and.b64 [%0], %1;" ::"l"(c.word + 16), "l"(~1ull) : "memory");
		}
	}
	if (acc == 0xdeadbeef)
		*sink = acc;
}

static const char *names[] = {
	"doorbell store alone",
	"fence.release.sys + doorbell",
	"fence.release.gpu + doorbell",
	"fence.sc.gpu + doorbell",
	"atomicAdd round trip",
	"atom.acq_rel.gpu.cas round trip",
	"ld.relaxed.gpu round trip",
	"floor: 64 B WQE, fence.release.sys, DBR, doorbell",
	"floor: 64 B WQE, fence.release.gpu, DBR, doorbell",
	"doorbell + atomicAdd round trip",
	"doorbell + fence.sc.gpu + atomicAdd",
	"64 B WQE + fence.release.gpu",
	"64 B WQE + fence.sc.gpu",
	"st.release.gpu + fence.sc.gpu + ld.relaxed",
	"128 WQEs x 3 st.cs.v2.b64, fence.release.gpu",
	"128 WQEs x 4 st.cs.v2.b64, fence.release.gpu",
	"128 WQEs x 3 st.v2.b64, fence.release.gpu",
	"128 WQEs x 3 st.cs.v2.b64, no fence",
	"128 WQEs x 6 st.b64, fence.release.gpu",
	"warp: 32 WQEs x 3 segs, lane 0 fence+DBR+db",
	"warp: 32 WQEs as 4x512 B contiguous, lane 0 ring",
	"warp: 32 WQEs, warp-wide fence, lane 0 DBR+db",
	"warp: reserve + 32 WQEs + lock CAS + ring + let-go",
	"thread: reserve, WQE, lock CAS, ring, let-go atom",
	"thread: reserve, WQE, lock CAS, ring, let-go red",
};
// Operations per loop iteration (WQEs), and threads per launch, of each primitive.
static const int per_iter[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 128, 128, 128, 128, 128, 32, 32, 32, 32, 1, 1};
static const int threads_of[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 32, 32, 32, 32, 1, 1};

template <int V>
static void run(ctx c, uint64_t *sink)
{
	const int n = 20000;
	cudaEvent_t a, b;
	float best = 1e30f;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	const int n_it = per_iter[V] > 1 ? n / 16 : n;
	k<V><<<1, threads_of[V]>>>(c, 100, sink);
	CK(cudaDeviceSynchronize());
	for (int r = 0; r < 3; r++) {
		float ms;
		CK(cudaEventRecord(a));
		k<V><<<1, threads_of[V]>>>(c, n_it, sink);
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		CK(cudaEventElapsedTime(&ms, a, b));
		best = ms < best ? ms : best;
	}
	printf("%-52s %8.1f ns%s\n", names[V], best * 1e6 / n_it / per_iter[V], per_iter[V] > 1 ? " per WQE" : "");
}

template <int... V>
static void run_all(ctx c, uint64_t *sink, std::integer_sequence<int, V...>)
{
	(run<V>(c, sink), ...);
}

// Phases of a shared-QP post by lane 0 (for a warp: the group's post, lanes write their WQE).
template <bool WARP>
__global__ void k_phases(doca_gpu_dev_verbs_qp *qp, int n, unsigned long long *cyc)
{
	unsigned long long acc[4] = {0, 0, 0, 0};
	const uint32_t lane = threadIdx.x & 31u;
	const uint32_t cnt = WARP ? 32u : 1u;
	doca_gpu_dev_verbs_addr ra = {0x1000, 0x11}, la = {0x2000, 0x22};

	for (int i = 0; i < n; i++) {
		long long t0 = clock64(), t1, t2, t3, t4;
		uint64_t base = 0;
		if (lane == 0)
			base = ogda_dev_sq_reserve(qp, cnt, OGDA_DEV_SHARE_GPU);
		if (WARP)
			base = __shfl_sync(0xffffffffu, base, 0);
		t1 = clock64();
		ogda_dev_prep_xfer(qp, base + (WARP ? lane : 0), OPENGDA_MLX5_OPCODE_RDMA_WRITE, ra, la, 64);
		if (WARP)
			__syncwarp();
		t2 = clock64();
		if (lane == 0)
			ogda_dev_sq_post_shared(qp, base, base + cnt - 1, OGDA_DEV_SHARE_GPU,
						DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB);
		t3 = clock64();
		if (WARP)
			__syncwarp();
		t4 = clock64();
		acc[0] += t1 - t0;
		acc[1] += t2 - t1;
		acc[2] += t3 - t2;
		acc[3] += t4 - t3;
	}
	if (threadIdx.x == 0)
		for (int k = 0; k < 4; k++)
			cyc[k] = acc[k];
}

// The single-thread shared post taken apart, primitive by primitive, in the order of the
// library's uncontended path (ogda_dev_sq_post_shared with a plain doorbell: the fence first, then
// lock, publish and the read of the last index rung in flight together, one acquire fence, the
// doorbell, the let-go).
__global__ void k_steps(doca_gpu_dev_verbs_qp *qp, int n, unsigned long long *cyc)
{
	unsigned long long acc[7] = {0};
	uint64_t sink = 0;
	doca_gpu_dev_verbs_addr ra = {0x1000, 0x11}, la = {0x2000, 0x22};

	for (int i = 0; i < n; i++) {
		long long t[8];
		t[0] = clock64();
		uint64_t base = ogda_dev_atomic_add_u64(&qp->sq_rsvd_index, 1, OGDA_DEV_SHARE_GPU);
		sink += base;
		t[1] = clock64();
		ogda_dev_prep_xfer(qp, base, OPENGDA_MLX5_OPCODE_RDMA_WRITE, ra, la, 64);
		t[2] = clock64();
		ogda_dev_sq_fence_before_db(qp);
		t[3] = clock64();
		sink += ogda_dev_atomic_or_relaxed_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_HELD, OGDA_DEV_SHARE_GPU);
		sink += ogda_dev_atomic_cas_relaxed_u64(&qp->sq_ready_index, base, base + 1, OGDA_DEV_SHARE_GPU);
		sink += ogda_dev_load_relaxed_u64(&qp->sq_wqe_pi);
		ogda_dev_fence_acquire_scope(OGDA_DEV_SHARE_GPU);
		t[4] = clock64();
		ogda_dev_store_nic_u32(qp->sq_dbrec, opengda_mlx5_qp_dbr_value((uint32_t)(base + 1)));
		ogda_dev_store_doorbell_u64(qp->sq_db, ogda_dev_sq_db_value(qp, base + 1));
		t[5] = clock64();
		ogda_dev_store_relaxed_u64(&qp->sq_wqe_pi, base + 1);
		t[6] = clock64();
		sink += ogda_dev_atomic_cas_release_i32(&qp->sq_lock, OGDA_DEV_SQ_LOCK_HELD, 0, OGDA_DEV_SHARE_GPU);
		t[7] = clock64();
		for (int k = 0; k < 7; k++)
			acc[k] += t[k + 1] - t[k];
	}
	for (int k = 0; k < 7; k++)
		cyc[k] = acc[k];
	if (sink == 1)
		cyc[12] = sink;
}

static void steps(doca_gpu_dev_verbs_qp *dev, unsigned long long *cyc, int khz)
{
	const int n = 2048;
	unsigned long long out[13];
	const char *st[] = {"atomicAdd reserve",	     "WQE stores",	   "fence.release.gpu (first)",
			    "lock | publish | ld rung, acquire", "DBR + doorbell", "st sq_wqe_pi",
			    "let go (CAS release)"};
	k_steps<<<1, 1>>>(dev, n, cyc);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(out, cyc, sizeof(out), cudaMemcpyDeviceToHost));
	for (int k = 0; k < 7; k++)
		printf("step %-34s %8.1f ns\n", st[k], out[k] / (double)n / (khz / 1e6));
}

static void phases(bool warp)
{
	const int n = 2048;
	doca_gpu_dev_verbs_qp h = {}, *dev;
	uint64_t *host, *db;
	unsigned long long *cyc, out[4];
	int khz;
	CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
	CK(cudaHostAlloc(&host, 64, cudaHostAllocMapped));
	CK(cudaHostGetDevicePointer((void **)&db, host, 0));
	CK(cudaMalloc(&h.sq_wqe_daddr, 65536 * 64));
	CK(cudaMalloc(&h.ogda_ready_slots, 65536 * 8));
	CK(cudaMemset(h.ogda_ready_slots, 0, 65536 * 8));
	CK(cudaMalloc(&h.sq_dbrec, 64));
	h.sq_db = db;
	h.sq_wqe_num = 65536;
	h.sq_wqe_mask = 65535;
	h.sq_log_wqe_num = 16;
	h.sq_num_shift8_be = __builtin_bswap32(0x100 << 8);
	h.nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB;
	h.mem_type = DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU;
	CK(cudaMalloc(&dev, sizeof(h)));
	CK(cudaMemcpy(dev, &h, sizeof(h), cudaMemcpyHostToDevice));
	CK(cudaMalloc(&cyc, 16 * sizeof(unsigned long long)));
	k_phases<false><<<1, 1>>>(dev, 8, cyc); // warm-up
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(dev, &h, sizeof(h), cudaMemcpyHostToDevice));
	CK(cudaMemset(h.ogda_ready_slots, 0, 65536 * 8));
	if (warp)
		k_phases<true><<<1, 32>>>(dev, n, cyc);
	else
		k_phases<false><<<1, 1>>>(dev, n, cyc);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(out, cyc, sizeof(out), cudaMemcpyDeviceToHost));
	const char *ph[] = {"reserve", "write WQE", "publish + ring", "group leaves"};
	for (int k = 0; k < 4; k++)
		printf("%s post, %-22s %8.1f ns\n", warp ? "warp  " : "thread", ph[k], out[k] / (double)n / (khz / 1e6));
	if (!warp) {
		CK(cudaMemcpy(dev, &h, sizeof(h), cudaMemcpyHostToDevice));
		CK(cudaMemset(h.ogda_ready_slots, 0, 65536 * 8));
		steps(dev, cyc, khz);
	}
}

int main()
{
	ctx c;
	uint64_t *host, *sink;
	CK(cudaHostAlloc(&host, 64, cudaHostAllocMapped));
	CK(cudaHostGetDevicePointer((void **)&c.db, host, 0));
	CK(cudaMalloc(&c.word, 4096));
	CK(cudaMemset(c.word, 0, 4096));
	CK(cudaMalloc(&c.ring, 4096 * 64));
	CK(cudaMalloc(&c.dbr, 64));
	CK(cudaMalloc(&sink, 64));
	run_all(c, sink, std::make_integer_sequence<int, 25>{});
	phases(false);
	phases(true);
	return 0;
}
