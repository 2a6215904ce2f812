/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_port.h
 * @brief The few primitives the device data path needs, for CUDA and for host threads.
 *
 * The data path (ogda_dev_*.h) is plain C written against these: atomics at a sharing scope,
 * acquire/release accesses, fences named by intent, the doorbell store, a clock and a polite spin.
 * Under nvcc they are PTX (device functions); in a C11 host build they are GCC __atomic builtins,
 * which ThreadSanitizer understands, so the host-thread tests check the same ordering argument.
 *
 * Sharing scopes are DOCA's resource sharing modes: EXCLUSIVE (0) needs no atomics, CTA (1) uses
 * block-scope atomics, GPU (2) device-scope ones. Memory the NIC reads or writes is ordered with
 * system-scope fences.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_PORT_H
#define OGDA_DEV_PORT_H

#include <stdint.h>

#if defined(__CUDACC__)
#define OGDA_DEV_FN static __device__ __forceinline__
/* For the few pure helpers host code of a CUDA file also needs (reading a view it copied back). */
#define OGDA_DEV_HD_FN static __host__ __device__ __forceinline__
#else
#define OGDA_DEV_HD_FN static inline
#include <sched.h>
#include <time.h>
#include <unistd.h>
#define OGDA_DEV_FN static inline
#endif

/*
 * fence.acquire / fence.release (PTX ISA 8.6, sm_90 and later): each half of acq_rel alone.
 * On sm_90 a release fence is MEMBAR alone and an acquire fence an L1 invalidation alone, where
 * acq_rel is both. Older targets and toolkits use acq_rel.
 */
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 &&                                   \
	(__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
#define OGDA_DEV_HAVE_FENCE_ACQ_REL_SPLIT 1
#endif

/** Sharing scopes, equal to enum doca_gpu_dev_verbs_resource_sharing_mode. */
#define OGDA_DEV_SHARE_EXCLUSIVE 0
#define OGDA_DEV_SHARE_CTA 1
#define OGDA_DEV_SHARE_GPU 2

#if defined(__CUDACC__)
#define OGDA_DEV_LIKELY(x) __builtin_expect(!!(x), 1)
#define OGDA_DEV_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define OGDA_DEV_LIKELY(x) __builtin_expect(!!(x), 1)
#define OGDA_DEV_UNLIKELY(x) __builtin_expect(!!(x), 0)
#endif

/* ---- loads and stores ------------------------------------------------------------------------ */

/**
 * Load of a word other threads change (relaxed, GPU scope). Not a volatile access: volatile
 * loads are system-scope strong loads, which the SM issues one after another, so eight of them
 * cost eight L2 round trips where relaxed GPU-scope loads overlap.
 */
OGDA_DEV_FN uint64_t ogda_dev_load_relaxed_u64(const uint64_t *p)
{
#if defined(__CUDACC__)
	uint64_t v;
	asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
#else
	return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

/** Acquire load at the sharing scope: what the publisher wrote before its release is visible. */
OGDA_DEV_FN uint64_t ogda_dev_load_acquire_u64(const uint64_t *p, int sharing)
{
#if defined(__CUDACC__)
	uint64_t v;
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("ld.acquire.cta.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	else
		asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
#else
	(void)sharing;
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

/** Release store at the sharing scope. */
OGDA_DEV_FN void ogda_dev_store_release_u64(uint64_t *p, uint64_t v, int sharing)
{
#if defined(__CUDACC__)
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("st.release.cta.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
	else
		asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
	(void)sharing;
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

/*
 * Fields of a QP or CQ view that the host sets before any kernel runs and device code never
 * writes (ring addresses, masks, QPN words, doorbell pointers, handler and memory type). On the GPU
 * they are read through the read-only path (ld.global.nc) by a non-volatile asm statement without
 * a memory clobber: the compiler sees a pure function of the address, so it keeps the value in a
 * register across the WQE stores of a batch, across the fences and atomics of a post (whose memory
 * clobbers would otherwise force a reload, an L1 or L2 round trip on the serial path of every
 * post), and hoists it out of the caller's posting loop. __ldg alone did not allow the latter two.
 */
OGDA_DEV_FN uint32_t ogda_dev_ro_u32(const uint32_t *p)
{
#if defined(__CUDACC__)
	uint32_t v;

	asm("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p));
	return v;
#else
	return *p;
#endif
}

/** A read-only 64-bit field (see ogda_dev_ro_u32). */
OGDA_DEV_FN uint64_t ogda_dev_ro_u64(const uint64_t *p)
{
#if defined(__CUDACC__)
	uint64_t v;

	asm("ld.global.nc.u64 %0, [%1];" : "=l"(v) : "l"(p));
	return v;
#else
	return *p;
#endif
}

/** A read-only pointer field (see ogda_dev_ro_u32). */
OGDA_DEV_FN void *ogda_dev_ro_ptr(void *const *p)
{
	return (void *)(uintptr_t)ogda_dev_ro_u64((const uint64_t *)(const void *)p);
}

/** Relaxed store of a word other threads read. */
OGDA_DEV_FN void ogda_dev_store_relaxed_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDACC__)
	*(volatile uint64_t *)p = v;
#else
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
#endif
}

/** Load of a word the NIC writes (a CQE), relaxed at system scope; pair with ogda_dev_fence_nic_acquire(). */
OGDA_DEV_FN uint32_t ogda_dev_load_nic_u32(const void *p)
{
#if defined(__CUDACC__)
	uint32_t v;
	asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
#else
	return __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
#endif
}

/**
 * Load of the byte the NIC publishes a CQE with (op_own, written last), relaxed at system scope;
 * pair with ogda_dev_fence_nic_acquire(). On the host it is an acquire load of exactly the byte
 * the NIC's release store wrote, which is the pairing ThreadSanitizer follows.
 */
OGDA_DEV_FN uint8_t ogda_dev_load_nic_u8(const void *p)
{
#if defined(__CUDACC__)
	uint16_t v;
	asm volatile("ld.relaxed.sys.global.u8 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
	return (uint8_t)v;
#else
	return __atomic_load_n((const uint8_t *)p, __ATOMIC_ACQUIRE);
#endif
}

/** Store of a word the NIC reads (doorbell record), relaxed at system scope. */
OGDA_DEV_FN void ogda_dev_store_nic_u32(uint32_t *p, uint32_t v)
{
#if defined(__CUDACC__)
	asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

/** The doorbell: one 8-byte store to the NIC's register (MMIO on a ConnectX). */
OGDA_DEV_FN void ogda_dev_store_doorbell_u64(uint64_t *reg, uint64_t v)
{
#if defined(__CUDACC__)
	asm volatile("st.mmio.relaxed.sys.global.b64 [%0], %1;" ::"l"(reg), "l"(v) : "memory");
#else
	__atomic_store_n(reg, v, __ATOMIC_RELEASE);
#endif
}

/* ---- atomics --------------------------------------------------------------------------------- */

/** Fetch-and-add at the sharing scope; EXCLUSIVE is a plain read-modify-write. */
OGDA_DEV_FN uint64_t ogda_dev_atomic_add_u64(uint64_t *p, uint64_t v, int sharing)
{
	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		uint64_t old = ogda_dev_load_relaxed_u64(p);
		ogda_dev_store_relaxed_u64(p, old + v);
		return old;
	}
#if defined(__CUDACC__)
	if (sharing == OGDA_DEV_SHARE_CTA)
		return (uint64_t)atomicAdd_block((unsigned long long *)p, (unsigned long long)v);
	return (uint64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
	return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL);
#endif
}

/** Fetch-and-max at the sharing scope. */
OGDA_DEV_FN uint64_t ogda_dev_atomic_max_u64(uint64_t *p, uint64_t v, int sharing)
{
	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE) {
		uint64_t old = ogda_dev_load_relaxed_u64(p);
		if (v > old)
			ogda_dev_store_relaxed_u64(p, v);
		return old;
	}
#if defined(__CUDACC__)
	if (sharing == OGDA_DEV_SHARE_CTA)
		return (uint64_t)atomicMax_block((unsigned long long *)p, (unsigned long long)v);
	return (uint64_t)atomicMax((unsigned long long *)p, (unsigned long long)v);
#else
	uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
	while (old < v && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		;
	return old;
#endif
}

/** Fetch-and-max on a word a CPU thread reads (the proxy mailbox), system scope. */
OGDA_DEV_FN void ogda_dev_atomic_max_sys_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDACC__)
	atomicMax_system((unsigned long long *)p, (unsigned long long)v);
#else
	uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
	while (old < v && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
#endif
}

/**
 * Compare-and-swap at the sharing scope with acquire-release semantics; returns the value found.
 * Release matters: a thread that moves the ready index over other threads' WQEs passes on what
 * it acquired from them to the thread that later acquires the index and rings.
 */
OGDA_DEV_FN uint64_t ogda_dev_atomic_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired, int sharing)
{
#if defined(__CUDACC__)
	uint64_t seen;
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("atom.acq_rel.cta.global.cas.b64 %0, [%1], %2, %3;"
			     : "=l"(seen)
			     : "l"(p), "l"(expected), "l"(desired)
			     : "memory");
	else
		asm volatile("atom.acq_rel.gpu.global.cas.b64 %0, [%1], %2, %3;"
			     : "=l"(seen)
			     : "l"(p), "l"(expected), "l"(desired)
			     : "memory");
	return seen;
#else
	(void)sharing;
	__atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return expected;
#endif
}

/** Takes @p lock if free (acquire); never waits. Returns 1 when taken. */
OGDA_DEV_FN int ogda_dev_try_lock(int *lock, int sharing)
{
#if defined(__CUDACC__)
	int seen;
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("atom.acquire.cta.global.cas.b32 %0, [%1], 0, 1;" : "=r"(seen) : "l"(lock) : "memory");
	else
		asm volatile("atom.acquire.gpu.global.cas.b32 %0, [%1], 0, 1;" : "=r"(seen) : "l"(lock) : "memory");
	return seen == 0;
#else
	int expected = 0;
	(void)sharing;
	return __atomic_compare_exchange_n(lock, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
#endif
}

/**
 * Compare-and-swap at the sharing scope; returns the value found. Relaxed on the GPU, where the
 * caller's later fence (the ring's) turns the read into an acquire of what other threads
 * published. Host threads' fences do not (under ThreadSanitizer they are compiler barriers, and a
 * weakly ordered CPU needs the acquire itself), so there it is an acquire: free on x86.
 */
OGDA_DEV_FN uint64_t ogda_dev_atomic_cas_relaxed_u64(uint64_t *p, uint64_t expected, uint64_t desired, int sharing)
{
#if defined(__CUDACC__)
	if (sharing == OGDA_DEV_SHARE_CTA)
		return (uint64_t)atomicCAS_block((unsigned long long *)p, (unsigned long long)expected,
						 (unsigned long long)desired);
	return (uint64_t)atomicCAS((unsigned long long *)p, (unsigned long long)expected, (unsigned long long)desired);
#else
	(void)sharing;
	__atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
	return expected;
#endif
}

/**
 * Fetch-or, relaxed on the GPU (the caller orders it with fences: ogda_dev_sq_post_shared's fast
 * path). Host threads have no such fences under ThreadSanitizer, so there it is acq_rel (free on
 * x86) and the pairing stays visible to the tool. Returns the old value.
 */
OGDA_DEV_FN int ogda_dev_atomic_or_relaxed_i32(int *p, int v, int sharing)
{
#if defined(__CUDACC__)
	if (sharing == OGDA_DEV_SHARE_CTA)
		return atomicOr_block(p, v);
	return atomicOr(p, v);
#else
	(void)sharing;
	return __atomic_fetch_or(p, v, __ATOMIC_ACQ_REL);
#endif
}

/** Fetch-or with acquire semantics at the sharing scope; returns the old value. */
OGDA_DEV_FN int ogda_dev_atomic_or_acquire_i32(int *p, int v, int sharing)
{
#if defined(__CUDACC__)
	int old;
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("atom.acquire.cta.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
	else
		asm volatile("atom.acquire.gpu.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
	return old;
#else
	(void)sharing;
	return __atomic_fetch_or(p, v, __ATOMIC_ACQUIRE);
#endif
}

/** Fetch-or with release semantics at the sharing scope; returns the old value. */
OGDA_DEV_FN int ogda_dev_atomic_or_release_i32(int *p, int v, int sharing)
{
#if defined(__CUDACC__)
	int old;
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("atom.release.cta.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
	else
		asm volatile("atom.release.gpu.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
	return old;
#else
	(void)sharing;
	return __atomic_fetch_or(p, v, __ATOMIC_RELEASE);
#endif
}

/** Compare-and-swap with release semantics at the sharing scope; returns the value found. */
OGDA_DEV_FN int ogda_dev_atomic_cas_release_i32(int *p, int expected, int desired, int sharing)
{
#if defined(__CUDACC__)
	int seen;
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("atom.release.cta.global.cas.b32 %0, [%1], %2, %3;"
			     : "=r"(seen)
			     : "l"(p), "r"(expected), "r"(desired)
			     : "memory");
	else
		asm volatile("atom.release.gpu.global.cas.b32 %0, [%1], %2, %3;"
			     : "=r"(seen)
			     : "l"(p), "r"(expected), "r"(desired)
			     : "memory");
	return seen;
#else
	(void)sharing;
	__atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	return expected;
#endif
}

/** Exchange with acquire-release semantics at the sharing scope; returns the old value. */
OGDA_DEV_FN int ogda_dev_atomic_exch_acq_rel_i32(int *p, int v, int sharing)
{
#if defined(__CUDACC__)
	int old;
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("atom.acq_rel.cta.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
	else
		asm volatile("atom.acq_rel.gpu.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
	return old;
#else
	(void)sharing;
	return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL);
#endif
}

/** Releases a lock taken with ogda_dev_try_lock() (release). */
OGDA_DEV_FN void ogda_dev_unlock(int *lock, int sharing)
{
#if defined(__CUDACC__)
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("st.release.cta.global.u32 [%0], %1;" ::"l"(lock), "r"(0) : "memory");
	else
		asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(lock), "r"(0) : "memory");
#else
	(void)sharing;
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
#endif
}

/* ---- fences, named by intent ----------------------------------------------------------------- */

/*
 * ThreadSanitizer does not model fences and gcc refuses them under -fsanitize=thread. There the
 * NIC fences become compiler barriers (the host build's NIC-facing stores and loads are
 * release/acquire already, which is what TSan checks) and the hand-off fence a sequentially
 * consistent read-modify-write, which is a full barrier on the CPU as well.
 */
#if !defined(__CUDACC__) && defined(__SANITIZE_THREAD__)
#define OGDA_DEV_TSAN 1
#endif

/**
 * Between publishing and checking in the shared-QP protocol (a store, then a load of another
 * word): sequentially consistent at the sharing scope, so of two threads doing "store A; fence;
 * load B" and "store B; fence; load A" at least one sees the other's store.
 */
OGDA_DEV_FN void ogda_dev_fence_handoff(int sharing)
{
#if defined(__CUDACC__)
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("fence.sc.cta;" ::: "memory");
	else if (sharing == OGDA_DEV_SHARE_GPU)
		asm volatile("fence.sc.gpu;" ::: "memory");
#elif defined(OGDA_DEV_TSAN)
	int barrier = 0;

	if (sharing != OGDA_DEV_SHARE_EXCLUSIVE)
		(void)__atomic_fetch_add(&barrier, 0, __ATOMIC_SEQ_CST);
#else
	if (sharing != OGDA_DEV_SHARE_EXCLUSIVE)
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/** After relaxed loads that saw other threads' release stores: later reads see what they published. */
OGDA_DEV_FN void ogda_dev_fence_acquire_scope(int sharing)
{
#if defined(OGDA_DEV_HAVE_FENCE_ACQ_REL_SPLIT)
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("fence.acquire.cta;" ::: "memory");
	else
		asm volatile("fence.acquire.gpu;" ::: "memory");
#elif defined(__CUDACC__)
	if (sharing == OGDA_DEV_SHARE_CTA)
		asm volatile("fence.acq_rel.cta;" ::: "memory");
	else
		asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
	(void)sharing; /* host scans use an acquire load per slot */
#endif
}

/**
 * The one ordering point before the NIC may look: every WQE store this thread made or acquired
 * from other threads is visible at system scope before any later store (doorbell record,
 * doorbell, proxy mailbox). A release fence (sm_90: MEMBAR.SYS alone); acq_rel would also
 * invalidate L1, which makes every later load of the QP's fields an L2 round trip.
 */
OGDA_DEV_FN void ogda_dev_fence_nic_release(void)
{
#if defined(OGDA_DEV_HAVE_FENCE_ACQ_REL_SPLIT)
	asm volatile("fence.release.sys;" ::: "memory");
#elif defined(__CUDACC__)
	asm volatile("fence.acq_rel.sys;" ::: "memory");
#elif defined(OGDA_DEV_TSAN)
	__asm__ __volatile__("" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}

/**
 * Before a doorbell, when every byte the NIC will read for it (WQEs, doorbell record) is in GPU
 * memory: a release at GPU scope. The NIC reads GPU memory through the GPU's own memory system
 * (PCIe BAR reads are served by L2, the point of coherence of GPU scope), so a store performed at
 * GPU scope is what such a read returns; the fence makes the doorbell leave the SM only after the
 * WQE stores are performed there. This is the ordering NVIDIA's DOCA GPUNetIO (SYNC_SCOPE_GPU,
 * its default) and NVSHMEM's IBGDA use, and it does not wait for earlier doorbells' PCIe writes
 * as a system-scope fence does. Host memory read by the NIC needs ogda_dev_fence_nic_release().
 */
OGDA_DEV_FN void ogda_dev_fence_gpu_mem_release(void)
{
#if defined(OGDA_DEV_HAVE_FENCE_ACQ_REL_SPLIT)
	asm volatile("fence.release.gpu;" ::: "memory");
#elif defined(__CUDACC__)
	asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
	ogda_dev_fence_nic_release();
#endif
}

/** After seeing a CQE: the NIC's data and the CQE's other fields are read after it. */
OGDA_DEV_FN void ogda_dev_fence_nic_acquire(void)
{
#if defined(OGDA_DEV_HAVE_FENCE_ACQ_REL_SPLIT)
	asm volatile("fence.acquire.sys;" ::: "memory");
#elif defined(__CUDACC__)
	asm volatile("fence.acq_rel.sys;" ::: "memory");
#elif defined(OGDA_DEV_TSAN)
	__asm__ __volatile__("" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
}

/* ---- time and spinning ----------------------------------------------------------------------- */

/** Nanoseconds from a free-running clock (globaltimer on the GPU). */
OGDA_DEV_FN uint64_t ogda_dev_now_ns(void)
{
#if defined(__CUDACC__)
	uint64_t t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
#else
	struct timespec ts;
	timespec_get(&ts, TIME_UTC);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
#endif
}

/**
 * One turn of a wait loop. Host threads yield: the software NIC needs the CPU to make progress.
 * On a machine of at most 2 CPUs a yield is not enough (the scheduler gives a yielding thread
 * its turn again at once, and the application's threads outnumber the CPUs): a wait that has
 * yielded 64 times in a row sleeps 20 us a turn, so the NIC's threads get the CPU they need.
 */
OGDA_DEV_FN void ogda_dev_spin_pause(void)
{
#if defined(__CUDACC__)
#if __CUDA_ARCH__ >= 700
	__nanosleep(32);
#endif
#else
	/* __thread: valid in both C and C++ with GCC and Clang (the header is included by both). */
	static __thread uint32_t turns;
	static __thread uint64_t last_ns;
	static __thread int small = -1;
	uint64_t now;

	if (small < 0)
		small = sysconf(_SC_NPROCESSORS_ONLN) <= 2;
	if (!small) {
		sched_yield();
		return;
	}
	now = ogda_dev_now_ns();
	if (now - last_ns > 1000000u)
		turns = 0; /* more than 1 ms since the last turn: a new wait */
	last_ns = now;
	if (++turns < 64) {
		sched_yield();
	} else {
		struct timespec ts = {0, 20000};

		nanosleep(&ts, NULL);
	}
#endif
}

/** Deadline for a wait of @p timeout_ns (0: none). */
OGDA_DEV_FN uint64_t ogda_dev_deadline(uint64_t timeout_ns)
{
	return timeout_ns == 0 ? 0 : ogda_dev_now_ns() + timeout_ns;
}

/** Whether @p deadline (from ogda_dev_deadline) has passed. */
OGDA_DEV_FN int ogda_dev_expired(uint64_t deadline)
{
	return deadline != 0 && ogda_dev_now_ns() > deadline;
}

#endif /* OGDA_DEV_PORT_H */
