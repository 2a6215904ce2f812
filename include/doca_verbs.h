/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_verbs.h
 * @brief DOCA Verbs: RDMA objects on an mlx5 device (ConnectX or the software NIC).
 *
 * Object model (the DOCA Verbs guide's): a struct doca_verbs_context opened on a device is
 * the root; PDs, UMEMs, UARs, CQs, QPs, SRQs, AH attributes and completion channels are
 * created under it. Each object is built from mlx5 PRM commands executed by the device, so
 * the same calls run on a ConnectX (through rdma-core DevX) and on the software NIC.
 *
 * Conventions:
 *  - Functions returning doca_error_t check every argument; bad input returns
 *    DOCA_ERROR_INVALID_VALUE and logs one line. Destroying an object that other objects
 *    still use returns DOCA_ERROR_IN_USE and leaves it intact. Destroying twice is
 *    undefined (as free()): the handle is gone after a successful destroy.
 *  - Getters that return a value (DOCA's shape) return 0 / NULL and log for a NULL object.
 *  - Where DOCA 2.0 and 3.0 differ, the context-rooted shape of the DOCA Verbs guide is
 *    used; docs/compatibility.md lists every difference.
 */
#ifndef DOCA_VERBS_H_
#define DOCA_VERBS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doca_dev.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/** @name Opaque objects */
/** @{ */
struct doca_verbs_context;      /**< An open device: the root of every other object. */
struct doca_verbs_device_attr;  /**< Device limits, from doca_verbs_query_device(). */
struct doca_verbs_pd;           /**< Protection domain. */
struct doca_verbs_umem;         /**< Registered memory for queues and doorbell records. */
struct doca_verbs_uar;          /**< A doorbell page (User Access Region). */
struct doca_verbs_cq_attr;      /**< CQ creation attributes. */
struct doca_verbs_cq;           /**< Completion queue. */
struct doca_verbs_qp_init_attr; /**< QP creation attributes. */
struct doca_verbs_qp_attr;      /**< QP modify / query attributes. */
struct doca_verbs_qp;           /**< Queue pair (RC or UC). */
struct doca_verbs_ah_attr;      /**< Address of a remote QP: GID / LID and path fields. */
struct doca_verbs_srq_init_attr;/**< SRQ creation attributes. */
struct doca_verbs_srq;          /**< Shared receive queue. */
struct doca_verbs_comp_channel; /**< Completion channel: completion events of armed CQs. */
/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Constants and enums (values as in DOCA) */
/** @{ */

/** @brief RC queue pair type. */
#define DOCA_VERBS_QP_TYPE_RC 0x0
/** @brief UC queue pair type (OpenGDA value; DOCA's open release accepts RC only). */
#define DOCA_VERBS_QP_TYPE_UC 0x1

/** @brief Length of a GID in bytes. */
#define DOCA_VERBS_GID_BYTE_LENGTH 16

/** @brief dmabuf_fd value meaning "no dmabuf: register the address". */
#define DOCA_VERBS_DMABUF_INVALID_FD 0xFFFFFFFF

/** @brief A GID (RoCE: an IPv6 or IPv4-mapped address; IB: subnet prefix + GUID). */
struct doca_verbs_gid {
	uint8_t raw[DOCA_VERBS_GID_BYTE_LENGTH]; /**< Network byte order. */
};

/** @brief UAR page kinds. */
enum doca_verbs_uar_allocation_type {
	DOCA_VERBS_UAR_ALLOCATION_TYPE_BLUEFLAME = 0,         /**< Write-combining (BlueFlame). */
	DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE = 1,          /**< Uncached. */
	DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE_DEDICATED = 2,/**< Uncached, not shared with others. */
};

/** @brief QP ordering semantic. */
enum doca_verbs_qp_ordering_semantic {
	DOCA_VERBS_QP_ORDERING_SEMANTIC_IBTA = 0x0,    /**< InfiniBand ordering. */
	DOCA_VERBS_QP_ORDERING_SEMANTIC_OOO_RW = 0x1,  /**< Reads and writes may complete out of order. */
	DOCA_VERBS_QP_ORDERING_SEMANTIC_OOO_ALL = 0x2, /**< Everything may complete out of order. */
};

/** @brief QP states. */
enum doca_verbs_qp_state {
	DOCA_VERBS_QP_STATE_RST = 0x0,
	DOCA_VERBS_QP_STATE_INIT = 0x1,
	DOCA_VERBS_QP_STATE_RTR = 0x2,
	DOCA_VERBS_QP_STATE_RTS = 0x3,
	DOCA_VERBS_QP_STATE_ERR = 0x4,
};

/** @brief Address types of an AH attribute. */
enum doca_verbs_addr_type {
	DOCA_VERBS_ADDR_TYPE_IPv4,      /**< RoCE v2 over IPv4 (GID is IPv4-mapped). */
	DOCA_VERBS_ADDR_TYPE_IPv6,      /**< RoCE v2 over IPv6. */
	DOCA_VERBS_ADDR_TYPE_IB_GRH,    /**< InfiniBand with a global route header. */
	DOCA_VERBS_ADDR_TYPE_IB_NO_GRH, /**< InfiniBand, LID routed. */
};

/** @brief Path MTU. */
enum doca_verbs_mtu_size {
	DOCA_VERBS_MTU_SIZE_256_BYTES = 0x0,
	DOCA_VERBS_MTU_SIZE_512_BYTES = 0x1,
	DOCA_VERBS_MTU_SIZE_1K_BYTES = 0x2,
	DOCA_VERBS_MTU_SIZE_2K_BYTES = 0x3,
	DOCA_VERBS_MTU_SIZE_4K_BYTES = 0x4,
	DOCA_VERBS_MTU_SIZE_RAW_ETHERNET = 0x5, /**< Reserved. */
};

/** @brief CQ overrun. */
enum doca_verbs_cq_overrun {
	DOCA_VERBS_CQ_DISABLE_OVERRUN = 0, /**< Overrun is an error (the default). */
	DOCA_VERBS_CQ_ENABLE_OVERRUN = 1,  /**< Overrun is ignored (GPU data paths need this). */
};

/** @brief SRQ kinds. */
enum doca_verbs_srq_type {
	DOCA_VERBS_SRQ_TYPE_LINKED_LIST, /**< WQEs linked by a next segment. */
	DOCA_VERBS_SRQ_TYPE_CONTIGUOUS,  /**< A cyclic ring like a QP's RQ (external data path). */
};

/** @brief Remote atomic support of a QP (DOCA 2.0 name). */
enum doca_verbs_qp_atomic_type {
	DOCA_VERBS_QP_ATOMIC_TYPE_NONE = 0x0,         /**< Remote atomics refused. */
	DOCA_VERBS_QP_ATOMIC_TYPE_IB_SPEC = 0x1,      /**< 8-byte atomics as the IB spec defines. */
	DOCA_VERBS_QP_ATOMIC_TYPE_UP_TO_8BYTES = 0x3, /**< Masked atomics of up to 8 bytes. */
};

/** @brief Remote atomic mode of a QP (DOCA 3.0 name; same field as doca_verbs_qp_atomic_type). */
enum doca_verbs_qp_atomic_mode {
	DOCA_VERBS_QP_ATOMIC_MODE_NONE = 0x0,
	DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC = 0x1,
	DOCA_VERBS_QP_ATOMIC_MODE_ONLY_8BYTES = 0x2,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_8BYTES = 0x3,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_16BYTES = 0x4,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_32BYTES = 0x5,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_64BYTES = 0x6,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_128BYTES = 0x7,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_256BYTES = 0x8,
};

/** @brief Send doorbell-record mode of a QP. */
enum doca_verbs_qp_send_dbr_mode {
	DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID = 0x0,  /**< The NIC reads the SQ doorbell record. */
	DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT = 0x1, /**< DBR-less: the doorbell alone carries the index. */
};

/** @brief Async event types (values of ibv_event_type). */
enum doca_verbs_async_event_type {
	DOCA_VERBS_EVENT_CQ_ERR = 0,        /**< CQ overrun: the CQ no longer completes. */
	DOCA_VERBS_EVENT_QP_FATAL = 1,      /**< A QP moved to ERR after a local error. */
	DOCA_VERBS_EVENT_QP_REQ_ERR = 2,    /**< The responder saw an invalid request. */
	DOCA_VERBS_EVENT_QP_ACCESS_ERR = 3, /**< The responder saw a remote access violation. */
	DOCA_VERBS_EVENT_SRQ_ERR = 14,      /**< An SRQ moved to ERR. */
};

/** @brief An async event from doca_verbs_get_async_event(); acknowledge it once. */
struct doca_verbs_async_event {
	union {
		struct doca_verbs_cq *cq;   /**< DOCA_VERBS_EVENT_CQ_ERR */
		struct doca_verbs_qp *qp;   /**< QP events */
		struct doca_verbs_srq *srq; /**< DOCA_VERBS_EVENT_SRQ_ERR */
	} element;                          /**< The object the event names. */
	enum doca_verbs_async_event_type event_type; /**< What happened. */
	uint8_t syndrome;                   /**< OpenGDA: the error CQE syndrome behind it, 0 if unknown. */
	struct doca_verbs_context *context; /**< The context it came from (used by the ack). */
};

/** @} */

/* ------------------------------------------------------------------------------------------ */
/**
 * @name QP attribute mask bits (doca_verbs_qp_modify(), doca_verbs_qp_query())
 *
 * Required (R) and optional (O) attributes per transition, RC / UC:
 *  - RST->INIT: R next_state, allow_remote_write, allow_remote_read (RC), atomic (RC),
 *    pkey_index, port_num.
 *  - INIT->INIT: O allow_remote_write, allow_remote_read (RC), atomic (RC), pkey_index, port_num.
 *  - INIT->RTR: R next_state, rq_psn, dest_qp_num, path_mtu, ah_attr, min_rnr_timer (RC);
 *    O allow_remote_write, allow_remote_read (RC), atomic (RC), pkey_index,
 *    max_dest_rd_atomic (RC).
 *  - RTR->RTS: R next_state, sq_psn, ack_timeout (RC), retry_cnt (RC), rnr_retry (RC);
 *    O allow_remote_write, min_rnr_timer (RC), max_rd_atomic (RC).
 *  - RTS->RTS: O allow_remote_write, allow_remote_read (RC), atomic (RC), min_rnr_timer (RC).
 *    DOCA also lists ah_attr here; an mlx5 RTS2RTS command carries no primary path, so it
 *    is refused with DOCA_ERROR_NOT_SUPPORTED (re-path a QP through RST).
 *  - any->ERR, any->RST: R next_state.
 * A required attribute missing from the mask, or an attribute the transition does not take,
 * is DOCA_ERROR_INVALID_VALUE with a log line naming it. CURRENT_STATE, when given, must
 * equal the QP's state. PATH_MTU above the port's active MTU is refused: take the smaller
 * of both ends' doca_verbs port MTU (opengda_verbs_query_port()).
 */
/** @{ */
#define DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_WRITE (1 << 0)
#define DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_READ (1 << 1)
#define DOCA_VERBS_QP_ATTR_PKEY_INDEX (1 << 2)
#define DOCA_VERBS_QP_ATTR_MIN_RNR_TIMER (1 << 3)
#define DOCA_VERBS_QP_ATTR_PORT_NUM (1 << 4)
#define DOCA_VERBS_QP_ATTR_NEXT_STATE (1 << 5)
#define DOCA_VERBS_QP_ATTR_CURRENT_STATE (1 << 6)
#define DOCA_VERBS_QP_ATTR_PATH_MTU (1 << 7)
#define DOCA_VERBS_QP_ATTR_RQ_PSN (1 << 8)
#define DOCA_VERBS_QP_ATTR_SQ_PSN (1 << 9)
#define DOCA_VERBS_QP_ATTR_DEST_QP_NUM (1 << 10)
#define DOCA_VERBS_QP_ATTR_ACK_TIMEOUT (1 << 11)
#define DOCA_VERBS_QP_ATTR_RETRY_CNT (1 << 12)
#define DOCA_VERBS_QP_ATTR_RNR_RETRY (1 << 13)
#define DOCA_VERBS_QP_ATTR_AH_ATTR (1 << 14)
#define DOCA_VERBS_QP_ATTR_ATOMIC_MODE (1 << 15)
/** @brief DOCA 2.0 name of DOCA_VERBS_QP_ATTR_ATOMIC_MODE (allow_remote_atomic). */
#define DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_ATOMIC DOCA_VERBS_QP_ATTR_ATOMIC_MODE
#define DOCA_VERBS_QP_ATTR_MAX_QP_RD_ATOMIC (1 << 16)
#define DOCA_VERBS_QP_ATTR_MAX_DEST_RD_ATOMIC (1 << 17)
/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Context */
/** @{ */

/**
 * @brief Opens a DOCA Verbs context on a device.
 * @param [in] devinfo  An entry of doca_devinfo_create_list().
 * @param [in] flags    0 (no flag is defined).
 * @param [out] verbs_context  The context; destroy it with doca_verbs_context_destroy().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, unknown flags); DOCA_ERROR_DRIVER
 *         (the device refused to open or to report its capabilities); DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_context_create(struct doca_devinfo *devinfo, uint32_t flags,
				       struct doca_verbs_context **verbs_context);

/**
 * @brief Closes a context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_IN_USE while objects
 *         created under it (PD, CQ, QP, SRQ, UMEM, UAR, AH attr, completion channel, open
 *         doca_dev, unacknowledged async events) still exist.
 */
doca_error_t doca_verbs_context_destroy(struct doca_verbs_context *verbs_context);

/**
 * @brief The device limits of a context.
 * @param [out] verbs_device_attr  Free with doca_verbs_device_attr_free().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_query_device(struct doca_verbs_context *verbs_context,
				     struct doca_verbs_device_attr **verbs_device_attr);

/** @brief Frees device attributes. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_verbs_device_attr_free(struct doca_verbs_device_attr *verbs_device_attr);

/** @brief Maximum number of QPs. */
uint32_t doca_verbs_device_attr_get_max_qp(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum WQEs of a send or receive queue. */
uint32_t doca_verbs_device_attr_get_max_qp_wr(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum scatter/gather entries of a work request. */
uint32_t doca_verbs_device_attr_get_max_sge(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum number of CQs. */
uint32_t doca_verbs_device_attr_get_max_cq(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum entries of a CQ. */
uint32_t doca_verbs_device_attr_get_max_cqe(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief 1 when the device scatters small receives (up to 32 bytes) into the CQE (see doca_verbs_qp_init_attr_set_cqe_inline). */
uint8_t doca_verbs_device_attr_get_is_cqe_inline_supported(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum number of memory regions. */
uint32_t doca_verbs_device_attr_get_max_mr(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum number of PDs. */
uint32_t doca_verbs_device_attr_get_max_pd(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum number of address handles (as many as QPs: each QP holds its own path). */
uint32_t doca_verbs_device_attr_get_max_ah(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum number of SRQs. */
uint32_t doca_verbs_device_attr_get_max_srq(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum WQEs of an SRQ. */
uint32_t doca_verbs_device_attr_get_max_srq_wr(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum scatter entries of an SRQ receive. */
uint32_t doca_verbs_device_attr_get_max_srq_sge(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Size of the P_Key table. */
uint16_t doca_verbs_device_attr_get_max_pkeys(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief 1 when the device supports DBR-less send queues (DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT). */
uint8_t doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum outstanding RDMA reads / atomics a QP receives as responder. */
uint8_t doca_verbs_device_attr_get_max_qp_rd_atom(const struct doca_verbs_device_attr *verbs_device_attr);
/** @brief Maximum outstanding RDMA reads / atomics a QP initiates. */
uint8_t doca_verbs_device_attr_get_max_qp_init_rd_atom(const struct doca_verbs_device_attr *verbs_device_attr);
/**
 * @brief Whether a QP type is supported.
 * @return DOCA_SUCCESS when it is; DOCA_ERROR_NOT_SUPPORTED when not; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_verbs_device_attr_get_is_qp_type_supported(const struct doca_verbs_device_attr *verbs_device_attr,
							     uint32_t qp_type);

/**
 * @brief Opens a doca_dev on the device of a PD (for doca_gpu_verbs_export_qp() and friends).
 * @param [out] dev  Close with doca_verbs_dev_close(); the PD cannot be destroyed before.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_dev_open(struct doca_verbs_pd *verbs_pd, struct doca_dev **dev);

/** @brief Closes a device from doca_verbs_dev_open(). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_dev_close(struct doca_dev *dev);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Protection domain */
/** @{ */

/**
 * @brief Creates a PD.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_DRIVER; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_pd_create(struct doca_verbs_context *verbs_context, struct doca_verbs_pd **verbs_pd);

/**
 * @brief Destroys a PD.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_IN_USE while QPs, SRQs,
 *         memory regions or a doca_dev use it.
 */
doca_error_t doca_verbs_pd_destroy(struct doca_verbs_pd *verbs_pd);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name UMEM: memory for queues and doorbell records */
/** @{ */

/**
 * @brief Registers memory for queues (external umem) or doorbell records.
 * @param [in] address       Start (host or GPU memory), or the iova when dmabuf_fd is given.
 * @param [in] size          Bytes, > 0.
 * @param [in] access_flags  IBV_ACCESS_* bits (LOCAL_WRITE is what queues need).
 * @param [in] dmabuf_fd     A dmabuf fd (>= 0), or (int)DOCA_VERBS_DMABUF_INVALID_FD (-1) for none.
 * @param [in] dmabuf_offset Offset of address inside the dmabuf.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (also for a negative dmabuf_fd other than
 *         (int)DOCA_VERBS_DMABUF_INVALID_FD); DOCA_ERROR_NOT_SUPPORTED (dmabuf on the software
 *         NIC); DOCA_ERROR_DRIVER; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_umem_create(struct doca_verbs_context *verbs_context, void *address, size_t size,
				    uint32_t access_flags, int dmabuf_fd, size_t dmabuf_offset,
				    struct doca_verbs_umem **umem);

/** @brief Deregisters a UMEM. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_IN_USE while a queue lies in it. */
doca_error_t doca_verbs_umem_destroy(struct doca_verbs_umem *umem);
/** @brief The UMEM id the PRM commands use. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_umem_get_id(const struct doca_verbs_umem *umem, uint32_t *umem_id);
/** @brief The registered size. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_umem_get_size(const struct doca_verbs_umem *umem, size_t *umem_size);
/** @brief The registered address. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_umem_get_address(const struct doca_verbs_umem *umem, void **umem_address);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name UAR: doorbell pages */
/** @{ */

/**
 * @brief Allocates a UAR page.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NOT_SUPPORTED (NONCACHE_DEDICATED
 *         where rdma-core lacks it); DOCA_ERROR_DRIVER; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_uar_create(struct doca_verbs_context *verbs_context,
				   enum doca_verbs_uar_allocation_type allocation_type, struct doca_verbs_uar **uar);
/** @brief Frees a UAR page. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_IN_USE while a CQ or QP uses it. */
doca_error_t doca_verbs_uar_destroy(struct doca_verbs_uar *uar);
/** @brief The UAR page id (qpc.uar_page / cqc.uar_page). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_uar_id_get(const struct doca_verbs_uar *uar, uint32_t *uar_id);
/** @brief The doorbell / BlueFlame register (page + 0x800). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_uar_reg_addr_get(const struct doca_verbs_uar *uar, void **reg_addr);
/** @brief The DBR-less doorbell (page + 0x600). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_uar_dbr_less_addr_get(const struct doca_verbs_uar *uar, void **dbr_less_addr);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Completion queue */
/** @{ */

/** @brief Creates CQ attributes (size 0: must be set). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NO_MEMORY. */
doca_error_t doca_verbs_cq_attr_create(struct doca_verbs_cq_attr **verbs_cq_attr);
/** @brief Frees CQ attributes. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_cq_attr_destroy(struct doca_verbs_cq_attr *verbs_cq_attr);
/** @brief Number of CQEs, >= 1 (rounded up to a power of two, checked against max_cqe at create). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_cq_attr_set_cq_size(struct doca_verbs_cq_attr *cq_attr, uint32_t cq_size);
/** @brief User data returned with completion events. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_cq_attr_set_cq_context(struct doca_verbs_cq_attr *cq_attr, void *cq_context);
/**
 * @brief Places the CQE ring in a user UMEM at an offset (honoured exactly).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL umem, offset not 64-byte aligned
 *         or beyond the UMEM; the fit of the whole ring is checked at create).
 */
doca_error_t doca_verbs_cq_attr_set_external_umem(struct doca_verbs_cq_attr *cq_attr,
						  struct doca_verbs_umem *external_umem, uint64_t external_umem_offset);
/** @brief Places the doorbell record (8 bytes, 8-byte aligned) in a user UMEM. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_cq_attr_set_external_dbr_umem(struct doca_verbs_cq_attr *cq_attr,
						      struct doca_verbs_umem *external_dbr_umem,
						      uint64_t external_dbr_umem_offset);
/** @brief Uses a user UAR for the CQ doorbell. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_cq_attr_set_external_uar(struct doca_verbs_cq_attr *cq_attr,
						 struct doca_verbs_uar *external_uar);
/** @brief Overrun mode. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a value outside the enum. */
doca_error_t doca_verbs_cq_attr_set_cq_overrun(struct doca_verbs_cq_attr *cq_attr, enum doca_verbs_cq_overrun overrun);
/** @brief Collapsed CQ (1: every CQE goes to entry 0). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for values other than 0 / 1. */
doca_error_t doca_verbs_cq_attr_set_cq_collapsed(struct doca_verbs_cq_attr *cq_attr, uint8_t cc);
/** @brief Completion channel for the CQ's events (NULL: none). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_cq_attr_set_comp_channel(struct doca_verbs_cq_attr *cq_attr,
						 struct doca_verbs_comp_channel *comp_channel);
/** @brief 1: the data path is run outside DOCA Verbs (GPU, DPA). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for values other than 0 / 1. */
doca_error_t doca_verbs_cq_attr_set_external_datapath_en(struct doca_verbs_cq_attr *cq_attr,
							 uint8_t external_datapath_en);

/**
 * @brief Creates a CQ.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (size 0 or above max_cqe, ring or DBR not
 *         fitting its UMEM, objects of another context); DOCA_ERROR_DRIVER (the device
 *         refused CREATE_CQ: its syndrome is logged); DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_cq_create(struct doca_verbs_context *verbs_context, struct doca_verbs_cq_attr *verbs_cq_attr,
				  struct doca_verbs_cq **verbs_cq);
/**
 * @brief Destroys a CQ.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_IN_USE (with a log line) while it is
 *         exported to the GPU as the send CQ of a QP (doca_gpu_verbs_export_qp(), high-level QPs;
 *         until doca_gpu_verbs_unexport_qp()), while QPs complete to it, or while completion /
 *         async events of it are not acknowledged.
 */
doca_error_t doca_verbs_cq_destroy(struct doca_verbs_cq *verbs_cq);
/**
 * @brief The CQE ring.
 * @param [out] cq_buf          First CQE.
 * @param [out] cq_num_entries  Number of CQEs (a power of two).
 * @param [out] cq_entry_size   Bytes per CQE (64).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t doca_verbs_cq_get_wq(struct doca_verbs_cq *verbs_cq, void **cq_buf, uint32_t *cq_num_entries,
				  uint8_t *cq_entry_size);
/**
 * @brief The CQ's doorbells.
 * @param [out] uar_db_reg  The CQ doorbell in the UAR page (page + 0x20), for arming.
 * @param [out] ci_dbr      Consumer-index doorbell record (big-endian, 24 bits).
 * @param [out] arm_dbr     Arm doorbell record.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t doca_verbs_cq_get_dbr_addr(struct doca_verbs_cq *verbs_cq, uint64_t **uar_db_reg, uint32_t **ci_dbr,
					uint32_t **arm_dbr);
/** @brief The CQ number. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_cq_get_cqn(const struct doca_verbs_cq *verbs_cq, uint32_t *cqn);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Completion channel */
/** @{ */

/** @brief Creates a completion channel. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_DRIVER; DOCA_ERROR_NO_MEMORY. */
doca_error_t doca_verbs_comp_channel_create(struct doca_verbs_context *verbs_context,
					    struct doca_verbs_comp_channel **verbs_comp_channel);
/** @brief Destroys a completion channel. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_IN_USE while a CQ uses it. */
doca_error_t doca_verbs_comp_channel_destroy(struct doca_verbs_comp_channel *verbs_comp_channel);
/**
 * @brief The channel's file descriptor, readable (poll / epoll POLLIN) while events are pending.
 * @return The fd; doca_event_invalid_handle (logged) for NULL.
 */
doca_event_handle_t doca_verbs_comp_channel_get_handle(struct doca_verbs_comp_channel *verbs_comp_channel);
/**
 * @brief Takes the next completion event. Arm the CQ again (opengda_verbs_cq_arm()) to get the next one.
 * @param [out] verbs_cq    The CQ that completed.
 * @param [out] cq_context  Its doca_verbs_cq_attr_set_cq_context() value.
 * @return DOCA_SUCCESS; DOCA_ERROR_AGAIN when none is pending (never blocks: wait on the
 *         handle); DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t doca_verbs_get_cq_event(struct doca_verbs_comp_channel *verbs_comp_channel,
				     struct doca_verbs_cq **verbs_cq, void **cq_context);
/**
 * @brief Acknowledges completion events of a CQ (DOCA returns void; callers may ignore the result).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or more events than were taken.
 */
doca_error_t doca_verbs_ack_cq_events(struct doca_verbs_cq *verbs_cq, unsigned int nevents);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Async events */
/** @{ */

/**
 * @brief Takes the next async event of a context (QP and CQ errors).
 * @return DOCA_SUCCESS; DOCA_ERROR_AGAIN when none is pending (never blocks: wait on
 *         opengda_verbs_context_get_async_handle()); DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t doca_verbs_get_async_event(struct doca_verbs_context *verbs_context,
					struct doca_verbs_async_event *async_event);
/**
 * @brief Acknowledges an async event (DOCA returns void; callers may ignore the result).
 *        An event that names no object (a port or device event) is acknowledged as such.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL, an event acknowledged already, or a
 *         CQ / QP / SRQ event whose element is NULL.
 */
doca_error_t doca_verbs_ack_async_event(struct doca_verbs_async_event *async_event);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name QP creation attributes */
/** @{ */

/** @brief Creates QP init attributes (RC, sq_wr and rq_wr 0, 1 SGE each, no inline, DBR valid). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NO_MEMORY. */
doca_error_t doca_verbs_qp_init_attr_create(struct doca_verbs_qp_init_attr **verbs_qp_init_attr);
/** @brief Frees QP init attributes. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_destroy(struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief The PD (required). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_pd(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_verbs_pd *pd);
/** @brief The PD. */
struct doca_verbs_pd *doca_verbs_qp_init_attr_get_pd(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief Send CQ (required when sq_wr > 0). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_send_cq(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						 struct doca_verbs_cq *send_cq);
/** @brief Send CQ. */
struct doca_verbs_cq *doca_verbs_qp_init_attr_get_send_cq(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief Receive CQ (required when rq_wr > 0 or an SRQ is set). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_receive_cq(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						    struct doca_verbs_cq *receive_cq);
/** @brief Receive CQ. */
struct doca_verbs_cq *doca_verbs_qp_init_attr_get_receive_cq(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief 1: every send WQE requests a CQE. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for values other than 0 / 1. */
doca_error_t doca_verbs_qp_init_attr_set_sq_sig_all(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, int sq_sig_all);
/** @brief sq_sig_all. */
int doca_verbs_qp_init_attr_get_sq_sig_all(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief Send queue size in WQEs (rounded up to a power of two; checked against max_qp_wr at create). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_sq_wr(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t sq_wr);
/** @brief Send queue size as set. */
uint32_t doca_verbs_qp_init_attr_get_sq_wr(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief Receive queue size in WQEs (0: no RQ). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_rq_wr(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t rq_wr);
/** @brief Receive queue size as set. */
uint32_t doca_verbs_qp_init_attr_get_rq_wr(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief SGEs per send WQE, >= 1. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_send_max_sges(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						       uint32_t send_max_sges);
/** @brief SGEs per send WQE. */
uint32_t doca_verbs_qp_init_attr_get_send_max_sges(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief SGEs per receive WQE, >= 1. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_receive_max_sges(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							  uint32_t receive_max_sges);
/** @brief SGEs per receive WQE. */
uint32_t doca_verbs_qp_init_attr_get_receive_max_sges(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief Largest inline payload in bytes (0: none). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_max_inline_data(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							 uint32_t max_inline_data);
/** @brief Largest inline payload. */
uint32_t doca_verbs_qp_init_attr_get_max_inline_data(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief User index (24 bits) reported in CQEs. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE above 0xffffff. */
doca_error_t doca_verbs_qp_init_attr_set_user_index(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						    uint32_t user_index);
/** @brief User index. */
uint32_t doca_verbs_qp_init_attr_get_user_index(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief DOCA_VERBS_QP_TYPE_RC or DOCA_VERBS_QP_TYPE_UC. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_qp_type(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t qp_type);
/** @brief QP type. */
uint32_t doca_verbs_qp_init_attr_get_qp_type(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief Places RQ + SQ in a user UMEM at an offset (honoured exactly). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_external_umem(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						       struct doca_verbs_umem *external_umem,
						       uint64_t external_umem_offset);
/** @brief The external UMEM and offset (NULL / 0 when none). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_get_external_umem(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						       struct doca_verbs_umem **external_umem,
						       uint64_t *external_umem_offset);
/** @brief Places the doorbell record (8 bytes, 8-byte aligned) in a user UMEM. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_external_dbr_umem(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							   struct doca_verbs_umem *external_dbr_umem,
							   uint64_t external_dbr_umem_offset);
/** @brief DOCA 3.0 name of doca_verbs_qp_init_attr_set_external_dbr_umem(). */
doca_error_t doca_verbs_qp_init_attr_set_external_umem_dbr(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							   struct doca_verbs_umem *external_umem_dbr,
							   uint64_t external_umem_dbr_offset);
/** @brief Uses a user UAR for the QP doorbell. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_external_uar(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						      struct doca_verbs_uar *external_uar);
/** @brief The external UAR (NULL when none). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_get_external_uar(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						      struct doca_verbs_uar **external_uar);
/** @brief User data of the QP. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_qp_context(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, void *qp_context);
/** @brief User data of the QP. */
void *doca_verbs_qp_init_attr_get_qp_context(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief Receives from an SRQ instead of an own RQ. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_srq(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_verbs_srq *srq);
/** @brief The SRQ. */
struct doca_verbs_srq *doca_verbs_qp_init_attr_get_srq(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief 1: the QP may post cross-channel WQEs (WAIT on a CQ). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for values other than 0 / 1. */
doca_error_t doca_verbs_qp_init_attr_set_core_direct_master(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							    uint8_t core_direct_master);
/** @brief core_direct_master. */
uint8_t doca_verbs_qp_init_attr_get_core_direct_master(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/** @brief Send DBR mode (NO_DBR_EXT needs the device capability). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_set_send_dbr_mode(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						       enum doca_verbs_qp_send_dbr_mode send_dbr_mode);
/** @brief Send DBR mode. */
enum doca_verbs_qp_send_dbr_mode doca_verbs_qp_init_attr_get_send_dbr_mode(
	const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/**
 * @brief Emulate DBR-less mode in software on a device without it: the QP is created with a
 *        valid DBR that the data path keeps updated (GPUNetIO's NO_DBR_SW_EMULATED).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t doca_verbs_qp_init_attr_set_emulate_no_dbr_ext(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							    bool emulate_no_dbr_ext);
/** @brief emulate_no_dbr_ext. */
bool doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/**
 * @brief Ordering semantic. IBTA is what both devices provide; the relaxed semantics are
 *        accepted (in-order execution satisfies them) and reported back as set.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t doca_verbs_qp_init_attr_set_ordering_semantic(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							   enum doca_verbs_qp_ordering_semantic ordering_semantic);
/** @brief Ordering semantic. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_init_attr_get_ordering_semantic(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							   enum doca_verbs_qp_ordering_semantic *ordering_semantic);
/** @brief 1: the data path is run outside DOCA Verbs (GPU, DPA). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for values other than 0 / 1. */
doca_error_t doca_verbs_qp_init_attr_set_external_datapath_en(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							      uint8_t external_datapath_en);
/**
 * @brief 1: receives of up to 32 bytes are scattered into their 64-byte CQE (qpc.cs_res
 *        DATA32_CQE; the CQE's op_own carries the inline-scatter bit) instead of the receive
 *        buffers. Needs doca_verbs_device_attr_get_is_cqe_inline_supported().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or values other than 0 / 1.
 */
doca_error_t doca_verbs_qp_init_attr_set_cqe_inline(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						    uint8_t cqe_inline);
/** @brief Scatter-to-CQE setting. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_verbs_qp_init_attr_get_cqe_inline(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						    uint8_t *cqe_inline);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name QP modify / query attributes */
/** @{ */

/** @brief Creates QP attributes (all zero, next_state RST). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NO_MEMORY. */
doca_error_t doca_verbs_qp_attr_create(struct doca_verbs_qp_attr **verbs_qp_attr);
/** @brief Frees QP attributes. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_destroy(struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Target state. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE outside the enum. */
doca_error_t doca_verbs_qp_attr_set_next_state(struct doca_verbs_qp_attr *verbs_qp_attr, enum doca_verbs_qp_state next_state);
/** @brief Target state. */
enum doca_verbs_qp_state doca_verbs_qp_attr_get_next_state(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Expected current state (checked when in the mask); query fills it. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_current_state(struct doca_verbs_qp_attr *verbs_qp_attr,
						  enum doca_verbs_qp_state current_state);
/** @brief Current state. */
enum doca_verbs_qp_state doca_verbs_qp_attr_get_current_state(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Path MTU (256 .. 4K). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_path_mtu(struct doca_verbs_qp_attr *verbs_qp_attr, enum doca_verbs_mtu_size path_mtu);
/** @brief Path MTU. */
enum doca_verbs_mtu_size doca_verbs_qp_attr_get_path_mtu(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Receive PSN (24 bits). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE above 0xffffff. */
doca_error_t doca_verbs_qp_attr_set_rq_psn(struct doca_verbs_qp_attr *verbs_qp_attr, uint32_t rq_psn);
/** @brief Receive PSN. */
uint32_t doca_verbs_qp_attr_get_rq_psn(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Send PSN (24 bits). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE above 0xffffff. */
doca_error_t doca_verbs_qp_attr_set_sq_psn(struct doca_verbs_qp_attr *verbs_qp_attr, uint32_t sq_psn);
/** @brief Send PSN. */
uint32_t doca_verbs_qp_attr_get_sq_psn(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Remote QP number (24 bits). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE above 0xffffff. */
doca_error_t doca_verbs_qp_attr_set_dest_qp_num(struct doca_verbs_qp_attr *verbs_qp_attr, uint32_t dest_qp_num);
/** @brief Remote QP number. */
uint32_t doca_verbs_qp_attr_get_dest_qp_num(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Remote writes allowed (0 / 1). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_allow_remote_write(struct doca_verbs_qp_attr *verbs_qp_attr, int allow_remote_write);
/** @brief Remote writes allowed. */
int doca_verbs_qp_attr_get_allow_remote_write(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Remote reads allowed (0 / 1). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_allow_remote_read(struct doca_verbs_qp_attr *verbs_qp_attr, int allow_remote_read);
/** @brief Remote reads allowed. */
int doca_verbs_qp_attr_get_allow_remote_read(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Remote atomics (mask bit DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_ATOMIC). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_allow_remote_atomic(struct doca_verbs_qp_attr *verbs_qp_attr,
							enum doca_verbs_qp_atomic_type allow_remote_atomic);
/** @brief Remote atomic mode (a doca_verbs_qp_atomic_mode value). */
enum doca_verbs_qp_atomic_type doca_verbs_qp_attr_get_allow_remote_atomic(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Remote atomic mode (mask bit DOCA_VERBS_QP_ATTR_ATOMIC_MODE). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_atomic_mode(struct doca_verbs_qp_attr *verbs_qp_attr,
						enum doca_verbs_qp_atomic_mode atomic_mode);
/** @brief Remote address (copied when the QP is modified, so the AH attr may be destroyed afterwards). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_ah_attr(struct doca_verbs_qp_attr *verbs_qp_attr, struct doca_verbs_ah_attr *ah_attr);
/** @brief Remote address (query: an AH attr owned by the QP attr). */
struct doca_verbs_ah_attr *doca_verbs_qp_attr_get_ah_attr(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief P_Key index. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_pkey_index(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t pkey_index);
/** @brief P_Key index. */
uint16_t doca_verbs_qp_attr_get_pkey_index(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Port number (1-based). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for 0. */
doca_error_t doca_verbs_qp_attr_set_port_num(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t port_num);
/** @brief Port number. */
uint16_t doca_verbs_qp_attr_get_port_num(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Local ACK timeout exponent (4.096 us << value; 0..31). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_ack_timeout(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t ack_timeout);
/** @brief Local ACK timeout. */
uint16_t doca_verbs_qp_attr_get_ack_timeout(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Transport retries (0..7). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_retry_cnt(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t retry_cnt);
/** @brief Transport retries. */
uint16_t doca_verbs_qp_attr_get_retry_cnt(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief RNR retries (0..7; 7 = infinite). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_rnr_retry(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t rnr_retry);
/** @brief RNR retries. */
uint16_t doca_verbs_qp_attr_get_rnr_retry(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Minimum RNR NAK timer code (0..31). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_min_rnr_timer(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t min_rnr_timer);
/** @brief Minimum RNR NAK timer code. */
uint16_t doca_verbs_qp_attr_get_min_rnr_timer(const struct doca_verbs_qp_attr *verbs_qp_attr);
/** @brief Outstanding reads / atomics as requester (rounded up to a power of two). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_max_rd_atomic(struct doca_verbs_qp_attr *verbs_qp_attr, uint8_t max_rd_atomic);
/** @brief Outstanding reads / atomics as responder (rounded up to a power of two). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_attr_set_max_dest_rd_atomic(struct doca_verbs_qp_attr *verbs_qp_attr,
						       uint8_t max_dest_rd_atomic);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Queue pair */
/** @{ */

/**
 * @brief Creates a QP in RST.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (missing PD or CQ, sizes above the device
 *         limits, inline above the WQE size, objects of another context, external memory
 *         that does not fit); DOCA_ERROR_NOT_SUPPORTED (QP type, NO_DBR_EXT on a device
 *         without it); DOCA_ERROR_DRIVER (CREATE_QP refused: syndrome logged); DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_qp_create(struct doca_verbs_context *verbs_context,
				  struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_verbs_qp **verbs_qp);
/**
 * @brief Destroys a QP.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_IN_USE (with a log line) while it is
 *         exported to the GPU (doca_gpu_verbs_export_qp(), high-level QPs; until
 *         doca_gpu_verbs_unexport_qp() or doca_gpu_verbs_destroy_qp_hl()) or while its async events
 *         are not acknowledged.
 */
doca_error_t doca_verbs_qp_destroy(struct doca_verbs_qp *verbs_qp);
/**
 * @brief Moves a QP to another state and/or changes attributes (see the mask section).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (mask, values, path MTU above the port's);
 *         DOCA_ERROR_BAD_STATE (transition not allowed from the current state, or
 *         CURRENT_STATE differs); DOCA_ERROR_DRIVER (device refused: syndrome logged).
 */
doca_error_t doca_verbs_qp_modify(struct doca_verbs_qp *verbs_qp, struct doca_verbs_qp_attr *verbs_qp_attr, int attr_mask);
/**
 * @brief Reads the QP's attributes from the device (QUERY_QP).
 * @param [out] verbs_qp_attr       Filled: states, MTU, PSNs, remote QPN, access, AH, timers.
 * @param [out] verbs_qp_init_attr  Filled with the creation attributes.
 * @param [out] attr_mask           The DOCA_VERBS_QP_ATTR_* bits filled.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_DRIVER.
 */
doca_error_t doca_verbs_qp_query(struct doca_verbs_qp *verbs_qp, struct doca_verbs_qp_attr *verbs_qp_attr,
				 struct doca_verbs_qp_init_attr *verbs_qp_init_attr, int *attr_mask);
/**
 * @brief The QP's rings.
 * @param [out] sq_buf           First send WQE basic block (NULL without an SQ).
 * @param [out] sq_num_entries   Send WQE basic blocks (64 B each).
 * @param [out] rq_buf           First receive WQE (NULL without an RQ).
 * @param [out] rq_num_entries   Receive WQEs.
 * @param [out] rwqe_size_bytes  Bytes per receive WQE.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t doca_verbs_qp_get_wq(const struct doca_verbs_qp *verbs_qp, void **sq_buf, uint32_t *sq_num_entries,
				  void **rq_buf, uint32_t *rq_num_entries, uint32_t *rwqe_size_bytes);
/** @brief The doorbell record: [0] RQ counter, [1] SQ counter (big-endian). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_get_dbr_addr(const struct doca_verbs_qp *verbs_qp, void **dbr_addr);
/** @brief The doorbell register (UAR page + 0x800). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_get_uar_addr(const struct doca_verbs_qp *verbs_qp, void **uar_addr);
/** @brief The QP number. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_get_qpn(const struct doca_verbs_qp *verbs_qp, uint32_t *qpn);
/** @brief The send DBR mode the QP was created with. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_qp_get_send_dbr_mode(const struct doca_verbs_qp *verbs_qp,
					     enum doca_verbs_qp_send_dbr_mode *send_dbr_mode);
/** @brief Whether DBR-less mode is emulated in software for this QP. */
bool doca_verbs_qp_get_emulate_no_dbr_ext(const struct doca_verbs_qp *verbs_qp);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Address handle attributes */
/** @{ */

/** @brief Creates AH attributes (IPv6, hop limit 64, everything else 0). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NO_MEMORY. */
doca_error_t doca_verbs_ah_attr_create(struct doca_verbs_context *verbs_context, struct doca_verbs_ah_attr **verbs_ah);
/** @brief Frees AH attributes. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_ah_attr_destroy(struct doca_verbs_ah_attr *verbs_ah);
/** @brief Remote GID (RoCE, IB with GRH). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_ah_attr_set_gid(struct doca_verbs_ah_attr *verbs_ah, struct doca_verbs_gid gid);
/** @brief Remote GID (all zero for NULL). */
struct doca_verbs_gid doca_verbs_ah_get_gid(const struct doca_verbs_ah_attr *verbs_ah);
/** @brief Address type. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE outside the enum. */
doca_error_t doca_verbs_ah_attr_set_addr_type(struct doca_verbs_ah_attr *verbs_ah, enum doca_verbs_addr_type addr_type);
/** @brief Address type. */
enum doca_verbs_addr_type doca_verbs_ah_get_addr_type(const struct doca_verbs_ah_attr *verbs_ah);
/** @brief Destination LID (IB, 16 bits). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE above 0xffff. */
doca_error_t doca_verbs_ah_attr_set_dlid(struct doca_verbs_ah_attr *verbs_ah, uint32_t dlid);
/** @brief Destination LID. */
uint32_t doca_verbs_ah_get_dlid(const struct doca_verbs_ah_attr *verbs_ah);
/** @brief Service level (0..15). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_ah_attr_set_sl(struct doca_verbs_ah_attr *verbs_ah, uint8_t sl);
/** @brief Service level. */
uint8_t doca_verbs_ah_get_sl(const struct doca_verbs_ah_attr *verbs_ah);
/** @brief Local GID index (checked against the GID table at modify). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_ah_attr_set_sgid_index(struct doca_verbs_ah_attr *verbs_ah, uint8_t sgid_index);
/** @brief Local GID index. */
uint8_t doca_verbs_ah_get_sgid_index(const struct doca_verbs_ah_attr *verbs_ah);
/** @brief Static rate code (0: port rate; 0..63). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_ah_attr_set_static_rate(struct doca_verbs_ah_attr *verbs_ah, uint8_t static_rate);
/** @brief Static rate code. */
uint8_t doca_verbs_ah_get_static_rate(const struct doca_verbs_ah_attr *verbs_ah);
/** @brief Hop limit (IPv6) / TTL (IPv4). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_ah_attr_set_hop_limit(struct doca_verbs_ah_attr *verbs_ah, uint8_t hop_limit);
/** @brief Hop limit. */
uint8_t doca_verbs_ah_get_hop_limit(const struct doca_verbs_ah_attr *verbs_ah);
/** @brief Traffic class (DSCP << 2 | ECN). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_ah_attr_set_traffic_class(struct doca_verbs_ah_attr *verbs_ah, uint8_t traffic_class);
/** @brief Traffic class. */
uint8_t doca_verbs_ah_get_traffic_class(const struct doca_verbs_ah_attr *verbs_ah);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Shared receive queue */
/** @{ */

/** @brief Creates SRQ init attributes (linked list, 1 SGE). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NO_MEMORY. */
doca_error_t doca_verbs_srq_init_attr_create(struct doca_verbs_srq_init_attr **verbs_srq_init_attr);
/** @brief Frees SRQ init attributes. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_srq_init_attr_destroy(struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
/** @brief WQEs, >= 1 (rounded up to a power of two; checked against max_srq_wr at create). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_srq_init_attr_set_srq_wr(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, uint32_t srq_wr);
/** @brief WQEs as set. */
uint32_t doca_verbs_srq_init_attr_get_srq_wr(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
/** @brief SGEs per WQE, >= 1. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_srq_init_attr_set_receive_max_sges(struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
							   uint32_t receive_max_sges);
/** @brief SGEs per WQE. */
uint32_t doca_verbs_srq_init_attr_get_receive_max_sges(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
/** @brief SRQ kind. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE outside the enum. */
doca_error_t doca_verbs_srq_init_attr_set_type(struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
					       enum doca_verbs_srq_type srq_type);
/** @brief SRQ kind. */
enum doca_verbs_srq_type doca_verbs_srq_init_attr_get_type(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
/** @brief The PD (required). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_srq_init_attr_set_pd(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_verbs_pd *pd);
/** @brief The PD. */
struct doca_verbs_pd *doca_verbs_srq_init_attr_get_pd(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
/** @brief Places the ring in a user UMEM at an offset (honoured exactly). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_srq_init_attr_set_external_umem(struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
							struct doca_verbs_umem *external_umem, uint64_t external_umem_offset);
/** @brief The external UMEM and offset (NULL / 0 when none). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_srq_init_attr_get_external_umem(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
							struct doca_verbs_umem **external_umem,
							uint64_t *external_umem_offset);
/** @brief 1: the data path is run outside DOCA Verbs. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for values other than 0 / 1. */
doca_error_t doca_verbs_srq_init_attr_set_external_datapath_en(struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
							       uint8_t external_datapath_en);

/**
 * @brief Creates an SRQ (an RMP on the device).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (no PD, sizes above the device limits);
 *         DOCA_ERROR_DRIVER; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_verbs_srq_create(struct doca_verbs_context *verbs_context,
				   struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_verbs_srq **verbs_srq);
/** @brief Destroys an SRQ. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_IN_USE while QPs use it. */
doca_error_t doca_verbs_srq_destroy(struct doca_verbs_srq *verbs_srq);
/** @brief Reads the SRQ's attributes from the device (QUERY_RMP). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_DRIVER. */
doca_error_t doca_verbs_srq_query(struct doca_verbs_srq *verbs_srq, struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
/** @brief The SRQ number. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_srq_get_srqn(const struct doca_verbs_srq *verbs_srq, uint32_t *srqn);
/** @brief The ring: first WQE, WQEs, bytes per WQE. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_srq_get_wq(const struct doca_verbs_srq *verbs_srq, void **srq_buf, uint32_t *srq_num_entries,
				   uint32_t *rwqe_size_bytes);
/** @brief The doorbell record (big-endian WQE counter). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t doca_verbs_srq_get_dbr_addr(const struct doca_verbs_srq *verbs_srq, void **dbr_addr);

/** @} */

#ifdef __cplusplus
}
#endif

/* The open releases' shapes of the calls above (C++ overloads, C11 dispatch). */
#include "doca_verbs_open_api.h"

#endif /* DOCA_VERBS_H_ */
