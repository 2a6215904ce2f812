/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_buf.h
 * @brief A doca_buf_arr as device code sees it (doca_buf_arr_get_gpu_handle()), and its accessors,
 *        for CUDA and for host threads.
 *
 * The host lays the array out once at doca_buf_arr_start(): one 16-byte doca_gpu_buf per element
 * (address and memory key), then the header, in memory of the array's target (GPU memory for a
 * CUDA device, host memory for a host handle). Device code only reads it, so the accessors are
 * plain loads; they check the index against the element count, which costs one compare.
 * The DOCA names are in doca_gpunetio_dev_buf.cuh.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_BUF_H
#define OGDA_DEV_BUF_H

#include "ogda_dev_port.h"

#include <stdint.h>
#if !defined(__CUDACC__)
#include <stdlib.h>
#endif

#include "doca_error.h"
#include "opengda_mlx5.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One element of a buffer array. */
struct doca_gpu_buf {
	uint64_t addr; /**< Address of the element's first byte, valid for the executing threads. */
	uint32_t mkey; /**< Memory key of the array's mmap on its first device, CPU byte order. */
	uint32_t mkey_be; /**< The same key big-endian, as WQEs and the Gen-B Ethernet API take it. */
};

/** The device handle of a doca_buf_arr. */
struct doca_gpu_buf_arr {
	struct doca_gpu_buf *bufs; /**< num_elem elements. */
	uint64_t num_elem;         /**< Number of elements. */
	uint64_t elem_size;        /**< Bytes per element. */
	uint64_t base_addr;        /**< Address of element 0. */
	uint32_t mkey;             /**< Key of every element (CPU byte order). */
	uint32_t mkey_be;          /**< The same key big-endian. */
};

/** Element @p idx; DOCA_ERROR_INVALID_VALUE for NULL arguments or an index past the end. */
OGDA_DEV_FN doca_error_t ogda_dev_buf_get(const struct doca_gpu_buf_arr *arr, uint64_t idx, struct doca_gpu_buf **buf)
{
	if (arr == NULL || buf == NULL || idx >= arr->num_elem)
		return DOCA_ERROR_INVALID_VALUE;
	*buf = &arr->bufs[idx];
	return DOCA_SUCCESS;
}

/** The address of an element; DOCA_ERROR_INVALID_VALUE for NULL arguments. */
OGDA_DEV_FN doca_error_t ogda_dev_buf_addr(const struct doca_gpu_buf *buf, uintptr_t *addr)
{
	if (buf == NULL || addr == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*addr = (uintptr_t)buf->addr;
	return DOCA_SUCCESS;
}

/** The memory key of an element (CPU byte order); DOCA_ERROR_INVALID_VALUE for NULL arguments. */
OGDA_DEV_FN doca_error_t ogda_dev_buf_mkey(const struct doca_gpu_buf *buf, uint32_t *mkey)
{
	if (buf == NULL || mkey == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*mkey = buf->mkey;
	return DOCA_SUCCESS;
}

/**
 * A descriptor for @p addr under memory key @p mkey (CPU byte order, as doca_gpu_dev_buf_get_mkey
 * gives it), for memory no buffer array covers. It comes from the executing threads' heap (in a
 * kernel, CUDA's device heap, whose size cudaLimitMallocHeapSize sets; on host threads, malloc)
 * and lives until ogda_dev_buf_destroy. DOCA_ERROR_INVALID_VALUE for NULL @p buf;
 * DOCA_ERROR_NO_MEMORY when the heap is exhausted.
 */
OGDA_DEV_FN doca_error_t ogda_dev_buf_create(uintptr_t addr, uint32_t mkey, struct doca_gpu_buf **buf)
{
	struct doca_gpu_buf *b;

	if (buf == 0)
		return DOCA_ERROR_INVALID_VALUE;
	b = (struct doca_gpu_buf *)malloc(sizeof(*b));
	if (b == 0)
		return DOCA_ERROR_NO_MEMORY;
	b->addr = (uint64_t)addr;
	b->mkey = mkey;
	b->mkey_be = opengda_mlx5_htobe32(mkey);
	*buf = b;
	return DOCA_SUCCESS;
}

/** Frees a descriptor from ogda_dev_buf_create (not one of a buffer array); DOCA_ERROR_INVALID_VALUE for NULL. */
OGDA_DEV_FN doca_error_t ogda_dev_buf_destroy(struct doca_gpu_buf *buf)
{
	if (buf == 0)
		return DOCA_ERROR_INVALID_VALUE;
	free(buf);
	return DOCA_SUCCESS;
}

#ifdef __cplusplus
}
#endif

#endif /* OGDA_DEV_BUF_H */
