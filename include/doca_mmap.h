/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_mmap.h
 * @brief DOCA Core memory map: one memory range registered with one or more devices.
 *
 * A map is configured (range, devices, permissions), then started: start registers the range
 * with every device added (a memory region of the device's own protection domain, through the
 * device interface, so it works on the software NIC and on a ConnectX alike) and doca_mmap_get_mkey()
 * gives the key each device knows it by. A started map cannot be reconfigured; stop it first.
 *
 * Differences from DOCA (docs/doca-core.md): no export to other PCI functions or hosts; at most OPENGDA_MMAP_MAX_DEVS devices per map; on the software NIC a dmabuf
 * range is registered by its address (the NIC reaches the memory directly).
 *
 * Every function logs why it fails. A map is not thread-safe: configure, start, stop and destroy
 * it from one thread at a time (queries of a started map may run concurrently).
 */
#ifndef DOCA_MMAP_H_
#define DOCA_MMAP_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Most devices one map can be registered with. */
#define OPENGDA_MMAP_MAX_DEVS 8

struct doca_dev;
/** @brief A memory map. */
struct doca_mmap;

/**
 * @brief Creates a map with no range and no device; permissions LOCAL_READ_WRITE.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_mmap_create(struct doca_mmap **mmap);

/**
 * @brief Destroys a stopped (or never started) map.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE while started.
 */
doca_error_t doca_mmap_destroy(struct doca_mmap *mmap);

/**
 * @brief Adds a device the range will be registered with at start.
 * @param [in] dev  A device from doca_dev_open() or doca_verbs_dev_open().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE after start;
 *         DOCA_ERROR_ALREADY_EXIST for a device already added; DOCA_ERROR_TOO_BIG beyond
 *         OPENGDA_MMAP_MAX_DEVS devices.
 */
doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev);

/**
 * @brief Removes a device added with doca_mmap_add_dev().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE after start;
 *         DOCA_ERROR_NOT_FOUND for a device not added.
 */
doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev);

/**
 * @brief Sets the range: host memory, or GPU memory (doca_gpu_mem_alloc()) that the device
 *        reaches through nvidia-peermem on a ConnectX and through the CUDA driver on the software NIC.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL addr, len 0 or a range that wraps;
 *         DOCA_ERROR_BAD_STATE after start.
 */
doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len);

/**
 * @brief Sets the range as a dmabuf (doca_gpu_dmabuf_fd()): @p len bytes at @p dmabuf_offset of
 *        the dmabuf, which the application sees at @p addr.
 *
 * A ConnectX registers the dmabuf (ibv_reg_dmabuf_mr, iova = addr). The software NIC has no dmabuf
 * import: it registers @p addr, the same memory. The descriptor stays the caller's.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a negative fd, NULL addr, len 0 or a range
 *         that wraps; DOCA_ERROR_BAD_STATE after start.
 */
doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd, void *addr, size_t dmabuf_offset,
					   size_t len);

/**
 * @brief Sets the access rights, a mask of enum doca_access_flag.
 *
 * RDMA_WRITE and RDMA_ATOMIC imply local write (the device must be able to write what peers send).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or unknown bits; DOCA_ERROR_NOT_SUPPORTED
 *         for PCI_READ_ONLY / PCI_READ_WRITE (no export); DOCA_ERROR_BAD_STATE after start.
 */
doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask);

/**
 * @brief The range set with doca_mmap_set_memrange() or doca_mmap_set_dmabuf_memrange().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when none is set.
 */
doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len);

/**
 * @brief Registers the range with every device added. On failure nothing stays registered.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when started
 *         already or no range is set; DOCA_ERROR_NOT_SUPPORTED (e.g. a dmabuf that rdma-core cannot
 *         import); DOCA_ERROR_DRIVER when a device refuses the registration; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_mmap_start(struct doca_mmap *mmap);

/**
 * @brief Deregisters the range from every device; the map can be reconfigured and started again.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when not started;
 *         DOCA_ERROR_IN_USE while a started doca_buf_arr or a doca_buf (doca_buf_inventory.h) uses
 *         the map; DOCA_ERROR_DRIVER.
 */
doca_error_t doca_mmap_stop(struct doca_mmap *mmap);

/**
 * @brief The memory key of the range on @p dev, in CPU byte order (device code takes it
 *        big-endian: htobe32()).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE before start;
 *         DOCA_ERROR_NOT_FOUND for a device the map was not registered with.
 */
doca_error_t doca_mmap_get_mkey(const struct doca_mmap *mmap, struct doca_dev *dev, uint32_t *mkey);

/**
 * @brief Describes a started map for RDMA peers: its range, its rights and the remote key of
 *        @p dev. The descriptor (valid until the map is destroyed) goes to the peer out of band,
 *        which makes a map of it with doca_mmap_create_from_export().
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE (not started, or itself a peer's
 *         map); DOCA_ERROR_NOT_PERMITTED (no RDMA right granted); DOCA_ERROR_NOT_FOUND (@p dev not
 *         added); DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc,
				   size_t *export_desc_len);

/**
 * @brief A map of a peer's memory from its doca_mmap_export_rdma() descriptor, used through
 *        @p dev: started at once (nothing is registered; buffer arrays over it carry the peer's
 *        addresses and remote key). doca_mmap_destroy() takes it down directly.
 * @param [in] user_data  Accepted, not used.
 * @return DOCA_ERROR_INVALID_VALUE (NULL, or not a descriptor of this library); DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_mmap_create_from_export(const union doca_data *user_data, const void *export_desc,
					  size_t export_desc_len, struct doca_dev *dev, struct doca_mmap **mmap);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_MMAP_H_ */
