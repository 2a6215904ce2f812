/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_verbs_common.cuh
 * @brief DOCA GPUNetIO device API: small helpers (byte order, clock, fences, atomics, copies).
 *
 * Names, template parameters and argument lists are DOCA's, so kernels written for DOCA compile
 * unchanged. The bodies are OpenGDA's; where a helper exists in the C core
 * (include/device/ogda_dev_port.h) it is used, so there is one definition of each primitive.
 *
 * Deliberate differences from DOCA:
 * - fence_acquire / fence_release are `fence.acq_rel` at the requested scope on every
 *   architecture (THREAD scope: nothing); DOCA emulates them with a dummy load or store below sm_90.
 * - async_store_release: `st.async.mmio.release` on sm_100 and later; below that a system-scope
 *   release fence followed by the plain MMIO (or relaxed system) store, so callers on any
 *   architecture get the same ordering. It exists without and with a <sync_scope> template
 *   argument (DOCA has had both forms).
 * - memcpy_inl_aligned_data<T> really copies (DOCA's loop moves the pointers only).
 * - atomic_max / atomic_add / atomic_read accept any 4- or 8-byte integer type.
 *
 * C++17, device code only.
 */
#ifndef DOCA_GPUNETIO_DEV_VERBS_COMMON_CUH
#define DOCA_GPUNETIO_DEV_VERBS_COMMON_CUH

#if !defined(__CUDACC__)
#error "doca_gpunetio_dev_verbs_*.cuh is CUDA device code: compile it with nvcc"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <type_traits>

#include "../doca_gpunetio_verbs_dev.h"
#include "ogda_dev_port.h"

/** Volatile access to an lvalue (used by DOCA sample kernels for flags they poll). */
#ifndef DOCA_GPUNETIO_VOLATILE
#define DOCA_GPUNETIO_VOLATILE(x) (*(volatile __typeof__(x) *)&(x))
#endif

/* ---- clock, lane, byte order ----------------------------------------------------------------- */

/** Nanoseconds of the GPU global timer. */
__device__ static __forceinline__ uint64_t doca_gpu_dev_verbs_query_globaltimer()
{
	return ogda_dev_now_ns();
}

/** Lane of the calling thread in its warp (0..31). */
__device__ static __forceinline__ unsigned int doca_gpu_dev_verbs_get_lane_id()
{
	unsigned int lane;

	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	return lane;
}

__device__ static __forceinline__ uint16_t doca_gpu_dev_verbs_bswap16(uint16_t x)
{
	/* Bytes 1, 0 of x into bytes 0, 1; the upper bytes come from the zero operand. */
	return (uint16_t)__byte_perm((unsigned int)x, 0u, 0x4401u);
}

__device__ static __forceinline__ uint32_t doca_gpu_dev_verbs_bswap32(uint32_t x)
{
	return __byte_perm(x, 0u, 0x0123u);
}

__device__ static __forceinline__ uint64_t doca_gpu_dev_verbs_bswap64(uint64_t x)
{
	uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);

	return ((uint64_t)__byte_perm(lo, 0u, 0x0123u) << 32) | __byte_perm(hi, 0u, 0x0123u);
}

/* ---- stores to the NIC and fences ------------------------------------------------------------ */

/** Relaxed system-scope MMIO store of 8 bytes (a doorbell register). */
__device__ static __forceinline__ void doca_gpu_dev_verbs_store_relaxed_mmio(uint64_t *ptr, uint64_t val)
{
	ogda_dev_store_doorbell_u64(ptr, val);
}

/** Acquire side of a fence at @p sync_scope (THREAD: no fence). */
template <enum doca_gpu_dev_verbs_sync_scope sync_scope>
__device__ static __forceinline__ void doca_gpu_dev_verbs_fence_acquire()
{
	if constexpr (sync_scope == DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS)
		asm volatile("fence.acq_rel.sys;" ::: "memory");
	else if constexpr (sync_scope == DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU)
		asm volatile("fence.acq_rel.gpu;" ::: "memory");
	else if constexpr (sync_scope == DOCA_GPUNETIO_VERBS_SYNC_SCOPE_CTA)
		asm volatile("fence.acq_rel.cta;" ::: "memory");
}

/** Release side of a fence at @p sync_scope (THREAD: no fence). */
template <enum doca_gpu_dev_verbs_sync_scope sync_scope>
__device__ static __forceinline__ void doca_gpu_dev_verbs_fence_release()
{
	doca_gpu_dev_verbs_fence_acquire<sync_scope>();
}

/** Release store of a 4-byte word the NIC reads (a doorbell record). */
__device__ static __forceinline__ void doca_gpu_dev_verbs_async_store_release(uint32_t *ptr, uint32_t val)
{
#if __CUDA_ARCH__ >= 1000
	asm volatile("st.async.mmio.release.sys.global.b32 [%0], %1;" ::"l"(ptr), "r"(val) : "memory");
#else
	ogda_dev_fence_nic_release();
	ogda_dev_store_nic_u32(ptr, val);
#endif
}

/** Release store of an 8-byte doorbell. */
__device__ static __forceinline__ void doca_gpu_dev_verbs_async_store_release(uint64_t *ptr, uint64_t val)
{
#if __CUDA_ARCH__ >= 1000
	asm volatile("st.async.mmio.release.sys.global.b64 [%0], %1;" ::"l"(ptr), "l"(val) : "memory");
#else
	ogda_dev_fence_nic_release();
	ogda_dev_store_doorbell_u64(ptr, val);
#endif
}

/** Scoped form; the store is always released at system scope (the NIC is the reader). */
template <enum doca_gpu_dev_verbs_sync_scope sync_scope>
__device__ static __forceinline__ void doca_gpu_dev_verbs_async_store_release(uint32_t *ptr, uint32_t val)
{
	doca_gpu_dev_verbs_async_store_release(ptr, val);
}

template <enum doca_gpu_dev_verbs_sync_scope sync_scope>
__device__ static __forceinline__ void doca_gpu_dev_verbs_async_store_release(uint64_t *ptr, uint64_t val)
{
	doca_gpu_dev_verbs_async_store_release(ptr, val);
}

/* ---- copies ---------------------------------------------------------------------------------- */

/** Whether @p ptr is a multiple of @p alignment (a power of two). */
__device__ static __forceinline__ bool doca_gpu_dev_verbs_isaligned(const void *ptr, size_t alignment)
{
	return ((uintptr_t)ptr & (alignment - 1)) == 0;
}

/**
 * Copies @p bytes in 4-, then 2-, then 1-byte units. Both buffers must be aligned for the units
 * their size implies (DOCA's "natural alignment"): no alignment is checked here.
 */
__device__ static __forceinline__ void doca_gpu_dev_verbs_memcpy_aligned_data(void *dst, const void *src, size_t bytes)
{
	uint8_t *d = (uint8_t *)dst;
	const uint8_t *s = (const uint8_t *)src;

	for (; bytes >= 4; bytes -= 4, d += 4, s += 4)
		*(uint32_t *)d = *(const uint32_t *)s;
	if (bytes >= 2) {
		*(uint16_t *)d = *(const uint16_t *)s;
		bytes -= 2;
		d += 2;
		s += 2;
	}
	if (bytes)
		*d = *s;
}

/** Copies @p bytes between buffers of any alignment, each step in the widest unit both allow. */
__device__ static __forceinline__ void doca_gpu_dev_verbs_memcpy_data(void *dst, const void *src, size_t bytes)
{
	uint8_t *d = (uint8_t *)dst;
	const uint8_t *s = (const uint8_t *)src;

	while (bytes) {
		uintptr_t both = (uintptr_t)d | (uintptr_t)s;
		size_t step;

		if (bytes >= 8 && (both & 7) == 0) {
			*(uint64_t *)d = *(const uint64_t *)s;
			step = 8;
		} else if (bytes >= 4 && (both & 3) == 0) {
			*(uint32_t *)d = *(const uint32_t *)s;
			step = 4;
		} else if (bytes >= 2 && (both & 1) == 0) {
			*(uint16_t *)d = *(const uint16_t *)s;
			step = 2;
		} else {
			*d = *s;
			step = 1;
		}
		d += step;
		s += step;
		bytes -= step;
	}
}

/** Copies @p bytes in units of T (both buffers T-aligned); a tail shorter than T is copied bytewise. */
template <typename T>
__device__ static __forceinline__ void doca_gpu_dev_verbs_memcpy_inl_aligned_data(T *dst, const T *src, size_t bytes)
{
	size_t n = bytes / sizeof(T), i;

	for (i = 0; i < n; i++)
		dst[i] = src[i];
	for (i = n * sizeof(T); i < bytes; i++)
		((uint8_t *)dst)[i] = ((const uint8_t *)src)[i];
}

/* ---- atomics at a sharing scope -------------------------------------------------------------- */

namespace ogda_cuh {
/** The integer type CUDA's atomic intrinsics take for a T of the same size and signedness. */
template <typename T, bool is_signed = std::is_signed<T>::value, size_t size = sizeof(T)>
struct atomic_word;
template <typename T>
struct atomic_word<T, false, 4> {
	typedef unsigned int type;
};
template <typename T>
struct atomic_word<T, true, 4> {
	typedef int type;
};
template <typename T>
struct atomic_word<T, false, 8> {
	typedef unsigned long long type;
};
template <typename T>
struct atomic_word<T, true, 8> {
	typedef long long type;
};
} /* namespace ogda_cuh */

/**
 * *ptr = max(*ptr, val); returns the old value. EXCLUSIVE is a plain read-modify-write. With
 * @p need_fence_acquire the caller's later accesses are ordered after the update.
 */
template <typename T, enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode,
	  bool need_fence_acquire = false>
__device__ static __forceinline__ T doca_gpu_dev_verbs_atomic_max(T *ptr, T val)
{
	typedef typename ogda_cuh::atomic_word<T>::type W;
	T old;

	if constexpr (resource_sharing_mode == DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE) {
		old = *ptr;
		if (val > old)
			*ptr = val;
		return old;
	} else if constexpr (resource_sharing_mode == DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA) {
		old = (T)atomicMax_block((W *)ptr, (W)val);
		if (need_fence_acquire)
			doca_gpu_dev_verbs_fence_acquire<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_CTA>();
	} else {
		old = (T)atomicMax((W *)ptr, (W)val);
		if (need_fence_acquire)
			doca_gpu_dev_verbs_fence_acquire<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>();
	}
	return old;
}

/** *ptr += val; returns the old value. EXCLUSIVE is a plain read-modify-write. */
template <typename T, enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode>
__device__ static __forceinline__ T doca_gpu_dev_verbs_atomic_add(T *ptr, T val)
{
	/* Two's complement: the unsigned intrinsic adds signed values too. */
	typedef typename ogda_cuh::atomic_word<T, false>::type W;

	if constexpr (resource_sharing_mode == DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE) {
		T old = *ptr;

		*ptr = (T)(old + val);
		return old;
	} else if constexpr (resource_sharing_mode == DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA) {
		return (T)atomicAdd_block((W *)ptr, (W)val);
	} else {
		return (T)atomicAdd((W *)ptr, (W)val);
	}
}

/** Reads a word other threads update (a fresh load, never a cached register). */
template <typename T, enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode>
__device__ static __forceinline__ T doca_gpu_dev_verbs_atomic_read(T *ptr)
{
	if constexpr (resource_sharing_mode == DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE)
		return *ptr;
	else
		return *(volatile T *)ptr;
}

/**
 * Spinlock, kept for DOCA compatibility (OpenGDA's submit path does not use it: it never makes a
 * thread spin on another). EXCLUSIVE only marks the word.
 */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode>
__device__ static __forceinline__ void doca_gpu_dev_verbs_lock(int *lock)
{
	if constexpr (resource_sharing_mode == DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE) {
		*lock = 1;
	} else {
		while (!ogda_dev_try_lock(lock, (int)resource_sharing_mode))
			ogda_dev_spin_pause();
	}
}

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode>
__device__ static __forceinline__ void doca_gpu_dev_verbs_unlock(int *lock)
{
	if constexpr (resource_sharing_mode == DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE)
		*lock = 0;
	else
		ogda_dev_unlock(lock, (int)resource_sharing_mode);
}

/* ---- relaxed loads --------------------------------------------------------------------------- */

/** Relaxed system-scope loads of memory the NIC writes (CQEs), bypassing L1. */
__device__ static __forceinline__ uint8_t doca_gpu_dev_verbs_load_relaxed_sys_global(uint8_t *ptr)
{
	uint16_t v;

	asm volatile("ld.relaxed.sys.global.L1::no_allocate.b8 %0, [%1];" : "=h"(v) : "l"(ptr) : "memory");
	return (uint8_t)v;
}

__device__ static __forceinline__ uint16_t doca_gpu_dev_verbs_load_relaxed_sys_global(uint16_t *ptr)
{
	uint16_t v;

	asm volatile("ld.relaxed.sys.global.L1::no_allocate.b16 %0, [%1];" : "=h"(v) : "l"(ptr) : "memory");
	return v;
}

__device__ static __forceinline__ uint32_t doca_gpu_dev_verbs_load_relaxed_sys_global(uint32_t *ptr)
{
	uint32_t v;

	asm volatile("ld.relaxed.sys.global.L1::no_allocate.b32 %0, [%1];" : "=r"(v) : "l"(ptr) : "memory");
	return v;
}

__device__ static __forceinline__ uint64_t doca_gpu_dev_verbs_load_relaxed_sys_global(uint64_t *ptr)
{
	uint64_t v;

	asm volatile("ld.relaxed.sys.global.L1::no_allocate.b64 %0, [%1];" : "=l"(v) : "l"(ptr) : "memory");
	return v;
}

/** Relaxed load at the sharing scope of a word other threads update (cqe_ci, indices). */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode>
__device__ static __forceinline__ uint64_t doca_gpu_dev_verbs_load_relaxed(uint64_t *ptr)
{
	uint64_t v;

	if constexpr (resource_sharing_mode == DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE)
		v = ogda_dev_load_relaxed_u64(ptr);
	else if constexpr (resource_sharing_mode == DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA)
		asm volatile("ld.relaxed.cta.u64 %0, [%1];" : "=l"(v) : "l"(ptr) : "memory");
	else
		asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(ptr) : "memory");
	return v;
}

/* ---- arithmetic ------------------------------------------------------------------------------ */

/** ceil(x / 2^denominator_shift). */
__device__ static __forceinline__ uint64_t doca_gpu_dev_verbs_div_ceil_aligned_pow2(uint64_t x,
										    unsigned int denominator_shift)
{
	uint64_t rem = x & ((1ull << denominator_shift) - 1ull);

	return (x >> denominator_shift) + (rem != 0);
}

/** ceil(x / 2^denominator_shift) when the result fits in 32 bits. */
__device__ static __forceinline__ uint32_t doca_gpu_dev_verbs_div_ceil_aligned_pow2_32bits(uint64_t x,
											   int denominator_shift)
{
	uint64_t rem = x & ((1ull << denominator_shift) - 1ull);

	return (uint32_t)(x >> denominator_shift) + (rem != 0);
}

#endif /* DOCA_GPUNETIO_DEV_VERBS_COMMON_CUH */
