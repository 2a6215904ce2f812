/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_dev.h
 * @brief Device discovery: the RDMA devices DOCA Verbs can open.
 *
 * The list holds two kinds of device:
 *  - ConnectX (mlx5) devices that rdma-core finds, named as rdma-core names them ("mlx5_0"),
 *    in rdma-core's order; none when libibverbs is absent or the kernel has no RDMA subsystem;
 *  - software NICs ("swnic0", "swnic1", ...), OPENGDA_SWNIC_COUNT of them (default 1, 0 for none).
 *
 * ConnectX devices come first. The environment variable OPENGDA_DEVICE names the default
 * device: when set, that device is moved to the front of the list, so programs that open
 * the first device (the DOCA samples do when no device is given) open it. A name that
 * matches no device is reported with a warning and the order is left as it is.
 */
#ifndef DOCA_DEV_H_
#define DOCA_DEV_H_

#include <stdbool.h>
#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Buffer size for doca_devinfo_get_ibdev_name(), terminating NUL included (as in DOCA). */
#define DOCA_DEVINFO_IBDEV_NAME_SIZE 64

/** @brief Environment variable naming the default device (see the file description). */
#define OPENGDA_DEVICE_ENV "OPENGDA_DEVICE"

/** @brief A device that can be opened: a list entry, valid until its list is destroyed. */
struct doca_devinfo;

/** @brief An open device. */
struct doca_dev;

/**
 * @brief Lists the devices.
 *
 * @param [out] dev_list  Set to a NULL-terminated array of *nb_devs entries; free it with
 *                        doca_devinfo_destroy_list().
 * @param [out] nb_devs   Number of entries.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL argument; DOCA_ERROR_NOT_FOUND
 *         when there is no device at all (no ConnectX and OPENGDA_SWNIC_COUNT=0);
 *         DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs);

/**
 * @brief Frees a list from doca_devinfo_create_list().
 *
 * Devices opened from its entries stay open (they keep their own copy).
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list);

/**
 * @brief The device's RDMA name ("mlx5_0", "swnic0").
 *
 * @param [in]  devinfo     A list entry.
 * @param [out] ibdev_name  Buffer for the NUL-terminated name.
 * @param [in]  size        Its size; DOCA_DEVINFO_IBDEV_NAME_SIZE always suffices.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or a buffer too small for the name.
 */
doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size);

/**
 * @brief Opens a device.
 *
 * @param [in]  devinfo  A list entry.
 * @param [out] dev      The open device; close it with doca_dev_close().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_DRIVER when the
 *         device cannot be opened (rdma-core's reason is logged); DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev);

/**
 * @brief Closes a device from doca_dev_open() or doca_verbs_dev_open().
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_IN_USE while a started
 *         doca_mmap is registered with the device.
 */
doca_error_t doca_dev_close(struct doca_dev *dev);

/**
 * @brief The device information of an open device (owned by the device).
 *
 * @return The devinfo, or NULL (logged) for a NULL device.
 */
struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev);

/** @name Device properties
 * The software NIC has no PCI function or interface of its own; it answers with what it models
 * (docs/doca-core.md): PCI address "ffff:<index>:00.0", the IPv4 address of its fabric endpoint
 * (127.0.0.1 unless OPENGDA_SWNIC_ADDR sets another), the MAC its RoCE model derives from that
 * address (02:00 followed by the four address bytes) and the Linux interface holding that
 * address ("lo" for 127.0.0.1). A ConnectX answers from sysfs and the interface's addresses.
 */
/** @{ */

/** @brief Length of an IPv4 address. */
#define DOCA_DEVINFO_IPV4_ADDR_SIZE 4
/** @brief Length of a MAC address. */
#define DOCA_DEVINFO_MAC_ADDR_SIZE 6
/** @brief Buffer size for an interface name, terminating NUL included. */
#define DOCA_DEVINFO_IFACE_NAME_SIZE 256
/** @brief Buffer size for "dddd:bb:dd.f", terminating NUL included. */
#define DOCA_DEVINFO_PCI_ADDR_SIZE 13
/** @brief Buffer size for "bb:dd.f", terminating NUL included. */
#define DOCA_DEVINFO_PCI_BDF_SIZE 8

/**
 * @brief The PCI address, "dddd:bb:dd.f" in lower-case hexadecimal.
 * @param [out] pci_addr_str  At least DOCA_DEVINFO_PCI_ADDR_SIZE bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_OPERATING_SYSTEM when sysfs
 *         does not say.
 */
doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str);

/**
 * @brief Whether @p pci_addr_str ("dddd:bb:dd.f" or "bb:dd.f", any case) is the device's address.
 * @param [out] is_equal  1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or another format;
 *         DOCA_ERROR_OPERATING_SYSTEM when the device's address cannot be read.
 */
doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo, const char *pci_addr_str,
					    uint8_t *is_equal);

/**
 * @brief The name of the device's network interface.
 * @param [in] size  At least DOCA_DEVINFO_IFACE_NAME_SIZE.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or a small buffer; DOCA_ERROR_NOT_FOUND
 *         when no interface holds the software NIC's address; DOCA_ERROR_OPERATING_SYSTEM when
 *         sysfs or the system does not say.
 */
doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name, uint32_t size);

/**
 * @brief The MAC address (6 bytes).
 * @param [in] size  At least DOCA_DEVINFO_MAC_ADDR_SIZE.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or a small buffer; DOCA_ERROR_NOT_SUPPORTED
 *         for an interface without an Ethernet address; DOCA_ERROR_OPERATING_SYSTEM.
 */
doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo, uint8_t *mac_addr, uint32_t size);

/**
 * @brief The IPv4 address (4 bytes, network order: 127.0.0.1 is {127, 0, 0, 1}).
 * @param [in] size  At least DOCA_DEVINFO_IPV4_ADDR_SIZE.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or a small buffer; DOCA_ERROR_NOT_FOUND
 *         when the interface has none; DOCA_ERROR_OPERATING_SYSTEM.
 */
doca_error_t doca_devinfo_get_ipv4_addr(const struct doca_devinfo *devinfo, uint8_t *ipv4_addr, uint32_t size);

/** @} */

/**
 * @brief OpenGDA: whether the device is a software NIC.
 *
 * @param [in]  devinfo   A list entry or doca_dev_as_devinfo().
 * @param [out] is_swnic  true for a software NIC, false for a ConnectX.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t opengda_devinfo_is_swnic(const struct doca_devinfo *devinfo, bool *is_swnic);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_DEV_H_ */
