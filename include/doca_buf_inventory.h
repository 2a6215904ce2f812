/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_buf_inventory.h
 * @brief DOCA Core buffer inventory: a fixed pool of doca_buf descriptors (doca_buf.h), each
 *        pointed at a range of a started doca_mmap when it is taken.
 *
 * Create with a number of elements, start, take buffers with doca_buf_inventory_buf_get_by_addr()
 * (an empty data segment at the start of the range: a destination) or
 * doca_buf_inventory_buf_get_by_data() (the whole range as data: a source), give them back with
 * doca_buf_dec_refcount(). The range must lie inside the mmap's range; the mmap stays held
 * (doca_mmap_stop() refuses) while a buffer points into it.
 *
 * Differences from DOCA (docs/doca-core.md): no buffer duplication (buf_dup), no user data, no
 * expansion. Taking and giving back buffers is thread-safe; create, start, stop and destroy are
 * not. With DOCA_SDK_LIB_PATH (docs/sdk-forwarding.md) every function here and in doca_buf.h
 * is the SDK's.
 */
#ifndef DOCA_BUF_INVENTORY_H_
#define DOCA_BUF_INVENTORY_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_buf.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_mmap;
/** @brief A buffer inventory. */
struct doca_buf_inventory;

/**
 * @brief Creates a stopped inventory of @p num_elements buffers.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL, 0 or more than UINT32_MAX elements;
 *         DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **inventory);

/**
 * @brief Destroys an inventory whose buffers are all back (started or not).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_IN_USE while buffers are
 *         out (doca_buf_dec_refcount() them first).
 */
doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory);

/**
 * @brief Lets buffers be taken.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when started.
 */
doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory);

/**
 * @brief Stops taking buffers (those out stay valid and still come back).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not started.
 */
doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory);

/**
 * @brief Takes a buffer of [@p addr, @p addr + @p len) with the data segment
 *        [@p data, @p data + @p data_len), one reference.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL, a range outside the mmap's or a data
 *         segment outside the range (logged); DOCA_ERROR_BAD_STATE for an inventory or mmap not
 *         started; DOCA_ERROR_NO_MEMORY when every buffer is out.
 */
doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory, struct doca_mmap *mmap,
						void *addr, size_t len, void *data, size_t data_len, struct doca_buf **buf);

/**
 * @brief Takes a buffer of [@p addr, @p addr + @p len) with an empty data segment at @p addr:
 *        a destination. Errors as doca_buf_inventory_buf_get_by_args().
 */
static inline doca_error_t doca_buf_inventory_buf_get_by_addr(struct doca_buf_inventory *inventory,
							      struct doca_mmap *mmap, void *addr, size_t len,
							      struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(inventory, mmap, addr, len, addr, 0, buf);
}

/**
 * @brief Takes a buffer whose range and data segment are both [@p data, @p data + @p data_len):
 *        a source. Errors as doca_buf_inventory_buf_get_by_args().
 */
static inline doca_error_t doca_buf_inventory_buf_get_by_data(struct doca_buf_inventory *inventory,
							      struct doca_mmap *mmap, void *data, size_t data_len,
							      struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(inventory, mmap, data, data_len, data, data_len, buf);
}

/**
 * @brief The number of buffers the inventory holds.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory,
						 uint32_t *num_of_elements);

/**
 * @brief The number of buffers not taken.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
						      uint32_t *num_of_free_elements);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_INVENTORY_H_ */
