/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device interface over a ConnectX through rdma-core DevX (libibverbs.so.1 and
 * libmlx5.so.1 loaded at run time, see rdma_core.h). Every command op hands the PRM bytes
 * built in src/prm to mlx5dv_devx_obj_* / mlx5dv_devx_general_cmd unchanged; PDs and MRs
 * are ibv objects (pdn through mlx5dv_init_obj); UMEMs are mlx5dv_devx_umem_reg[_ex]
 * (dmabuf when rdma-core has it); UARs are mlx5dv_devx_alloc_uar; events come from a DevX
 * event channel; the RoCE next-hop MAC comes from an ibv address handle (the kernel's
 * neighbour resolution).
 *
 * Behaviour of the ops, beyond devx.h's conventions:
 *  - general_cmd / obj_*: a failed command whose out mailbox came back (kernel errno
 *    EREMOTEIO) returns prm_cmd_out_status()'s mapping of it; a failure without a status
 *    (older kernels, errors before the device) is DOCA_ERROR_DRIVER with errno logged. The
 *    same commands as on the software NIC are refused before rdma-core (object commands
 *    through general_cmd: NOT_SUPPORTED; obj_create of anything but CREATE_CQ / CREATE_QP /
 *    CREATE_RMP / ALLOC_PD: NOT_SUPPORTED; modify / query commands of another kind or
 *    naming another object: INVALID_VALUE).
 *  - Destroys (obj_destroy, umem_dereg) refused with EINVAL or EBUSY are DOCA_ERROR_IN_USE
 *    (the kernel reports the device's BAD_RES_STATE as EINVAL); pd_free with EBUSY too. The
 *    object stays valid.
 *  - mr_reg / umem_reg with a dmabuf fd use ibv_reg_dmabuf_mr (addr is the iova) and
 *    mlx5dv_devx_umem_reg_ex with MLX5DV_UMEM_MASK_DMABUF (the dmabuf offset goes in addr,
 *    as rdma-core documents; pgsz_bitmap = every page size from the system page up);
 *    DOCA_ERROR_NOT_SUPPORTED when the loaded rdma-core lacks the entry point.
 *  - uar_alloc: BF -> MLX5DV_UAR_ALLOC_TYPE_BF, NC -> _NC, NC_DEDICATED ->
 *    MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED (rdma-core 45+; an older library's EOPNOTSUPP /
 *    EINVAL is DOCA_ERROR_NOT_SUPPORTED). bf_reg_size is 512 (two 256-byte halves from
 *    reg_addr), the geometry rdma-core maps.
 *  - event_channel_create makes the channel fd O_NONBLOCK; event_read decodes the EQE that
 *    follows the cookie (type byte 1; object number at event data byte 0 for CQ errors,
 *    byte 24 otherwise); syndrome is always 0.
 *  - resolve_rmac keeps one PD per device for its address handles (freed with the device).
 *  - Any rdma-core entry point missing from the loaded library makes the op that needs it
 *    return DOCA_ERROR_NOT_SUPPORTED; other rdma-core failures are DOCA_ERROR_DRIVER.
 *  - Every handle keeps the device: close() with objects alive is safe, the ibv_context
 *    is closed (if owned) when the last of them is released.
 */
#ifndef OGDA_DEVX_HW_H_
#define OGDA_DEVX_HW_H_

#include "devx/devx.h"
#include "devx/rdma_core.h"
#include "doca_error.h"

#include <infiniband/verbs.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Lists the mlx5 devices rdma-core sees (mlx5dv_is_supported), up to max; *count is the
 * number found. No rdma-core, or no RDMA subsystem: zero devices and DOCA_SUCCESS.
 */
doca_error_t ogda_devx_hw_list(struct ogda_ibdev_entry *entries, size_t max, size_t *count);

/* Opens the mlx5 device of that name with DevX (mlx5dv_open_device); DOCA_ERROR_NOT_FOUND if absent. */
doca_error_t ogda_devx_hw_open(const char *ibdev_name, struct ogda_devx **dev);

/* Opens an rdma-core device (DOCA_ERROR_NOT_SUPPORTED when it is not mlx5). */
doca_error_t ogda_devx_hw_open_ibv_device(struct ibv_device *ibv_dev, struct ogda_devx **dev);

/* Wraps an open ibv_context; closing the device leaves the context open (the caller owns it). */
doca_error_t ogda_devx_hw_import(struct ibv_context *ctx, struct ogda_devx **dev);

/* Wraps an ibv_pd of dev's context; pd_free of the result leaves the ibv_pd allocated. */
doca_error_t ogda_devx_hw_pd_import(struct ogda_devx *dev, struct ibv_pd *ibv_pd, struct ogda_devx_pd **pd,
				    uint32_t *pdn);

/* The ibv objects under a hardware device / PD; NULL for a software NIC's. */
struct ibv_context *ogda_devx_hw_ibv_context(const struct ogda_devx *dev);
struct ibv_pd *ogda_devx_hw_ibv_pd(const struct ogda_devx_pd *pd);

/* True for a device opened through this file. */
bool ogda_devx_is_hw(const struct ogda_devx *dev);
/*
 * A device of the ConnectX path whose rdma-core is OpenGDA's front end: the software NIC answers
 * behind it, so what must live in host memory for the software NIC (queues) does here too.
 */
bool ogda_devx_is_front(const struct ogda_devx *dev);
/*
 * Whether the NIC behind dev executes queues from host memory only: the software NIC, in this
 * process or behind the front end. Where queues go is decided here for every family.
 */
bool ogda_devx_host_queues_only(const struct ogda_devx *dev);

#endif /* OGDA_DEVX_HW_H_ */
