/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU memory across processes of one host (docs/swnic.md §11.9): a WRITE whose payload is
 * one piece of GPU memory travels on a shared-memory channel as a CUDA IPC handle of the
 * allocation holding it, and the responder copies it GPU to GPU into its target, instead
 * of a copy to host memory on each side.
 *
 * Requester (swnic_ipc_export): the payload must lie in an allocation of cuMemAlloc (an IPC
 * handle exists only for those) and the requester's MR must cover that whole allocation:
 * the handle lets the peer map all of it, so memory the application did not register is
 * never handed out. Otherwise the payload travels as bytes (the caller copies it) and
 * ipc_refused counts it. Handles are cached per pipe by the allocation's buffer ID, which
 * the driver never reuses within a process, so a freed and reallocated range is never
 * described by an old handle.
 *
 * Responder (swnic_ipc_map): handles are opened once per process and kept (up to
 * SWNIC_IPC_MAPS, the least recently used idle one closed first); the payload's range is
 * checked against the size of the allocation the handle opened. An open mapping keeps the
 * exporter's allocation alive until it is closed, so the cache is small.
 *
 * OPENGDA_SWNIC_IPC=0 turns the path off (every GPU payload travels as bytes).
 */
#ifndef OGDA_SWNIC_IPC_H_
#define OGDA_SWNIC_IPC_H_

#include "doca_error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SWNIC_IPC_HANDLE_LEN 64u /* CU_IPC_HANDLE_SIZE */
#define SWNIC_IPC_BUS_ID_LEN 16u /* "dddd:bb:dd.f" and its NUL */
#define SWNIC_IPC_MAPS 32u       /* handles a process keeps open as a responder */
#define SWNIC_ENV_IPC "OPENGDA_SWNIC_IPC"

/* What the responder needs to read a payload in the requester's GPU memory. */
struct swnic_ipc_ref {
	uint8_t handle[SWNIC_IPC_HANDLE_LEN]; /* the allocation's CUipcMemHandle */
	char bus_id[SWNIC_IPC_BUS_ID_LEN];    /* PCI bus ID of its GPU, NUL-terminated */
	uint64_t offset;                      /* of the payload from the allocation's start */
};

/* A requester's last exported allocation (one per pipe; zeroed: empty). */
struct swnic_ipc_export_cache {
	bool valid;
	bool exportable;       /* false: known not to be exportable (not cuMemAlloc memory) */
	uint64_t buffer_id;    /* CU_POINTER_ATTRIBUTE_BUFFER_ID */
	uint64_t base, size;   /* the allocation */
	uint8_t handle[SWNIC_IPC_HANDLE_LEN];
	char bus_id[SWNIC_IPC_BUS_ID_LEN];
};

/* OPENGDA_SWNIC_IPC (boolean, default on) and a CUDA driver with the IPC calls. */
bool swnic_ipc_available(void);

/*
 * The reference for the payload [addr, addr + len) of GPU memory inside the MR
 * [mr_addr, mr_addr + mr_len). DOCA_SUCCESS: *ref filled. DOCA_ERROR_NOT_PERMITTED: the MR
 * does not cover the whole allocation. DOCA_ERROR_NOT_SUPPORTED: no IPC handle for this
 * memory (no driver, not cuMemAlloc memory, the driver refused). Neither logs more than a
 * debug line: the caller sends bytes instead.
 */
doca_error_t swnic_ipc_export(struct swnic_ipc_export_cache *cache, uint64_t addr, uint64_t len, uint64_t mr_addr,
			      uint64_t mr_len, struct swnic_ipc_ref *ref);

struct swnic_ipc_map;

/*
 * Maps ref's allocation in this process (or finds it mapped) and returns the device address
 * of its payload of len bytes in *ptr; *map is held until swnic_ipc_unmap. Errors (why
 * says which): DOCA_ERROR_INVALID_VALUE when the range lies outside the allocation or the
 * reference is malformed; DOCA_ERROR_NOT_SUPPORTED / DOCA_ERROR_DRIVER when this process
 * cannot open the handle (no such GPU here, no driver, the driver refused);
 * DOCA_ERROR_FULL when SWNIC_IPC_MAPS mappings are all in use.
 */
doca_error_t swnic_ipc_map(const struct swnic_ipc_ref *ref, uint64_t len, void **ptr, struct swnic_ipc_map **map,
			   char *why, size_t why_cap);
void swnic_ipc_unmap(struct swnic_ipc_map *map);

#endif /* OGDA_SWNIC_IPC_H_ */
