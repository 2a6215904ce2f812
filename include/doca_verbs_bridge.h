/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_verbs_bridge.h
 * @brief Interoperation of DOCA Verbs with libibverbs objects, and a CPU data path that
 *        takes ibv_send_wr / ibv_recv_wr and returns ibv_wc.
 *
 * The ibv_* import functions need a ConnectX (rdma-core) device; a software NIC has no
 * ibv_context. The data path works on every device: it writes mlx5 WQEs into the QP's
 * send queue, rings its doorbell, and reads CQEs, exactly as a GPU thread would.
 *
 * Data-path rules (as ibv_post_send / ibv_poll_cq): one thread at a time per QP and per CQ
 * (the caller serialises); return values are 0 or an errno value for the posts, and the
 * number of completions or a negative value for the poll; *bad_wr names the first request
 * not posted.
 */
#ifndef DOCA_VERBS_BRIDGE_H_
#define DOCA_VERBS_BRIDGE_H_

#include <infiniband/verbs.h>
#include <stdint.h>

#include "doca_error.h"
#include "doca_verbs.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Opens a context on an rdma-core device (DOCA owns the resulting ibv_context).
 * @param [in] ibv_dev  From ibv_get_device_list(); must be an mlx5 device.
 * @param [in] flags    0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NOT_SUPPORTED (not mlx5);
 *         DOCA_ERROR_DRIVER; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_bridge_verbs_context_create(struct ibv_device *ibv_dev, uint32_t flags,
						    struct doca_verbs_context **verbs_context);

/**
 * @brief Wraps an open ibv_context. The caller keeps ownership: it must stay open until the
 *        DOCA context is destroyed. It must have been opened with DevX enabled
 *        (mlx5dv_open_device(MLX5DV_CONTEXT_FLAGS_DEVX)) for objects to be created.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NOT_SUPPORTED; DOCA_ERROR_DRIVER;
 *         DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_bridge_verbs_context_import(struct ibv_context *ibv_ctx, uint32_t flags,
						    struct doca_verbs_context **verbs_context);

/**
 * @brief Wraps an ibv_pd (the caller keeps ownership). It belongs to the DOCA context that
 *        imported its ibv_context, or to a context imported for it and released with it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_DRIVER; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_bridge_verbs_pd_import(struct ibv_pd *pd, struct doca_verbs_pd **verbs_pd);

/**
 * @brief The ibv_pd under a DOCA PD (for ibv_reg_mr()).
 * @return The ibv_pd; NULL (logged) for NULL or a PD of a software NIC, which has none:
 *         register memory with opengda_mr_create() there.
 */
struct ibv_pd *doca_verbs_bridge_verbs_pd_get_ibv_pd(const struct doca_verbs_pd *verbs_pd);

/**
 * @brief Posts send work requests.
 *
 * Opcodes: IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_SEND, IBV_WR_SEND_WITH_IMM,
 * IBV_WR_RDMA_READ, IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD. Flags:
 * IBV_SEND_SIGNALED, IBV_SEND_INLINE, IBV_SEND_FENCE, IBV_SEND_SOLICITED.
 *
 * @return 0; EINVAL (NULL, unknown opcode, too many SGEs, inline above the QP's limit,
 *         QP not in RTS (RTR/INIT: posted, executed once in RTS), atomic length not 8);
 *         ENOMEM (send queue full).
 */
int doca_verbs_bridge_post_send(struct doca_verbs_qp *verbs_qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);

/**
 * @brief Posts receive work requests to the QP's RQ (or, for a QP with an SRQ, EINVAL:
 *        post to the SRQ through its ring).
 * @return 0; EINVAL; ENOMEM (receive queue full).
 */
int doca_verbs_bridge_post_recv(struct doca_verbs_qp *verbs_qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);

/**
 * @brief Polls up to num_entries completions.
 *
 * Error CQEs map to ibv_wc_status as libmlx5 maps them (LOC_LEN, LOC_QP_OP, LOC_PROT,
 * WR_FLUSH_ERR, MW_BIND, BAD_RESP, LOC_ACCESS, REM_INV_REQ, REM_ACCESS, REM_OP, RETRY_EXC,
 * RNR_RETRY_EXC, REM_ABORT); vendor_err carries the vendor syndrome.
 *
 * @return The number of completions written (0 when none); -EINVAL for bad arguments.
 */
int doca_verbs_bridge_poll_cq(struct doca_verbs_cq *verbs_cq, int num_entries, struct ibv_wc *ibv_wc);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_VERBS_BRIDGE_H_ */
