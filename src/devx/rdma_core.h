/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rdma-core (libibverbs) loaded at run time. Only the types come from the installed
 * headers; the library is dlopen'd, so OpenGDA runs where rdma-core is absent.
 * The ConnectX device (hw.c) extends this table with the verbs and DevX calls it uses.
 */
#ifndef OGDA_DEVX_RDMA_CORE_H_
#define OGDA_DEVX_RDMA_CORE_H_

#include "doca_error.h"

#include <infiniband/verbs.h>
#include <stddef.h>

struct ogda_ibv {
	struct ibv_device **(*get_device_list)(int *num_devices);
	void (*free_device_list)(struct ibv_device **list);
	const char *(*get_device_name)(struct ibv_device *device);
	__be64 (*get_device_guid)(struct ibv_device *device);
};

/* Loads libibverbs.so.1 once. DOCA_ERROR_NOT_FOUND when absent or disabled. */
doca_error_t ogda_ibv_get(const struct ogda_ibv **ibv);

#define OGDA_IBDEV_NAME_MAX 64

struct ogda_ibdev_entry {
	char name[OGDA_IBDEV_NAME_MAX];
	uint64_t guid; /* host order */
};

/*
 * Lists the RDMA devices rdma-core sees, up to max entries; *count is the number found.
 * No libibverbs, or a kernel without the RDMA subsystem (ibv_get_device_list returns NULL
 * with ENOSYS), means zero devices and DOCA_SUCCESS: that is a machine without NICs, not an
 * error. *why (optional) gets a one-line explanation when the count is zero.
 */
doca_error_t ogda_ibdev_list(struct ogda_ibdev_entry *entries, size_t max, size_t *count, const char **why);

#endif /* OGDA_DEVX_RDMA_CORE_H_ */
