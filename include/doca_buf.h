/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_buf.h
 * @brief DOCA Core buffer: a descriptor of a range of a started doca_mmap, with a data segment
 *        inside it, taken from a doca_buf_inventory (doca_buf_inventory.h).
 *
 * @code
 * head                 data          data + data_len              head + len
 *  |--------------------|================|----------------------------|
 *                        data segment     tail (where a task's output lands)
 * @endcode
 *
 * A buffer starts with one reference; doca_buf_dec_refcount() to zero gives it back to its
 * inventory. While in use it holds its mmap (doca_mmap_stop() answers DOCA_ERROR_IN_USE).
 * Buffers are tasks' sources and destinations (doca_dma.h): a source's data segment is what is
 * copied; the output of a task is written to a destination's tail, and its data segment grows
 * by the bytes written.
 *
 * Differences from DOCA (docs/doca-core.md): no linked lists of buffers (chain, unchain, list
 * queries); every function checks its input (DOCA leaves some of it undefined) and logs why it
 * fails. A buffer is not thread-safe: use it from one thread at a time.
 */
#ifndef DOCA_BUF_H_
#define DOCA_BUF_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A buffer (from doca_buf_inventory_buf_get_by_*()). */
struct doca_buf;

/**
 * @brief Takes one more reference.
 * @param [out] refcount  The count before the call (may be NULL).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE for a buffer
 *         back in its inventory (count 0); DOCA_ERROR_TOO_BIG at UINT16_MAX references.
 */
doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount);

/**
 * @brief Drops one reference; at zero the buffer goes back to its inventory (and lets go of
 *        its mmap). Do not use it afterwards.
 * @param [out] refcount  The count before the call (may be NULL).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when the count
 *         is 0 already.
 */
doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount);

/**
 * @brief The number of references.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount);

/**
 * @brief The buffer's length (from head).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len);

/**
 * @brief The buffer's first byte.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head);

/**
 * @brief The length of the data segment.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len);

/**
 * @brief The first byte of the data segment.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data);

/**
 * @brief Moves the data segment to [@p data, @p data + @p data_len).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or a segment outside
 *         [head, head + len) (logged; the buffer is unchanged).
 */
doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len);

/**
 * @brief Sets the length of the data segment (its start stays).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or a segment that would end past
 *         head + len.
 */
doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len);

/**
 * @brief Sets the length of the data segment to 0 (its start stays).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_buf_reset_data_len(struct doca_buf *buf);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_H_ */
