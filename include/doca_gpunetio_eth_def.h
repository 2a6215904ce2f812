/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_gpunetio_eth_def.h
 * @brief Definitions of the DOCA GPUNetIO Ethernet device API (SDK 3.2+ "Gen-B" names and
 *        values): flags, scopes, handlers, and the device-side send and receive queues.
 *
 * struct doca_gpu_eth_txq differs from the SDK's in layout (docs/ethernet.md): its send queue and
 * CQ are a struct doca_gpu_dev_verbs_qp, so that Ethernet sends run on the same send-queue
 * protocol (include/device/ogda_dev_sq.h) as every other device post. Kernels use the functions
 * of doca_gpunetio_dev_eth_txq.cuh, never the fields, so they compile unchanged.
 *
 * device-code: yes
 */
#ifndef DOCA_GPUNETIO_ETH_DEF_H
#define DOCA_GPUNETIO_ETH_DEF_H

#include <stdint.h>

#include "doca_gpunetio_verbs_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Per-send flags. */
enum doca_gpu_eth_send_flags {
	DOCA_GPUNETIO_ETH_SEND_FLAG_NONE = 0,   /**< A completion only on error. */
	DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY = 1, /**< A completion (CQE) for this send. */
};

/** @brief Waiting modes of the poll functions. */
enum doca_gpu_dev_eth_wait_flags {
	DOCA_GPUNETIO_ETH_WAIT_FLAG_NB = 0, /**< Look once. */
	DOCA_GPUNETIO_ETH_WAIT_FLAG_B = 1,  /**< Wait (bounded by the queue's wait bound, if set). */
};

/** @brief Which threads call a function together. */
enum doca_gpu_dev_eth_exec_scope {
	DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD = 0,
	DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP = 1,
	DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK = 2,
};

/** @brief Scope of the memory fences. */
enum doca_gpu_dev_eth_sync_scope {
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_SYS = 0,
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU = 1,
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA = 2,
};

/** @brief Who else posts to the queue. */
enum doca_gpu_dev_eth_resource_sharing_mode {
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_EXCLUSIVE = 0,
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA = 1,
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU = 2,
};

/** @brief How the NIC learns of new sends. */
enum doca_gpu_dev_eth_nic_handler {
	DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO = 0,      /**< The queue's own handler. */
	DOCA_GPUNETIO_ETH_NIC_HANDLER_CPU_PROXY = 1, /**< A CPU thread rings (doca_eth_txq_gpu_set_uar_on_cpu). */
	DOCA_GPUNETIO_ETH_NIC_HANDLER_GPU_SM_DB = 2, /**< The GPU rings the doorbell. */
};

/** @brief What poll_completion waits for. */
enum doca_gpu_dev_eth_cq_poll_mode {
	DOCA_GPUNETIO_ETH_CQ_POLL_ALL = 0,  /**< Every one of the CQEs. */
	DOCA_GPUNETIO_ETH_CQ_POLL_LAST = 1, /**< The last one (earlier ones are retired with it). */
};

/** @brief A send's ticket: the index of its WQE. */
typedef uint64_t doca_gpu_dev_eth_ticket_t;

/** @brief IPv4 header checksum flag of the Ethernet segment. */
#define DOCA_GPUNETIO_ETH_L3_CSUM (1u << 6)
/** @brief TCP / UDP checksum flag of the Ethernet segment. */
#define DOCA_GPUNETIO_ETH_L4_CSUM (1u << 7)

/** @brief The device-side Ethernet send queue (filled by doca_ctx_start()). */
struct doca_gpu_eth_txq {
	struct doca_gpu_dev_verbs_qp qp; /**< SQ (sq_*) and its CQ (qp.cq_sq), run by the shared protocol. */
	uint64_t cq_rsvd_index;          /**< CQEs reserved by poll_completion callers. */
	uint8_t enable_l3_cs_offload;    /**< 1: every send asks for the IPv4 header checksum. */
	uint8_t enable_l4_cs_offload;    /**< 1: every send asks for the TCP / UDP checksum. */
	uint8_t cs_flags;                /**< The two above as Ethernet-segment flags. */
	uint8_t reserved;
};

/** @brief Memory consistency of received data (the DUMP fence of GPUs before sm_90). */
enum doca_gpu_dev_eth_mcst_mode {
	DOCA_GPUNETIO_ETH_MCST_DISABLED = 0, /**< No fence. */
	DOCA_GPUNETIO_ETH_MCST_ENABLED,      /**< Fence after every receive. */
	DOCA_GPUNETIO_ETH_MCST_AUTO,         /**< Fence when the queue asks for it (need_mcst). */
};

/** @brief Per-packet attributes a receive fills. */
enum doca_gpu_dev_eth_rxq_attr_type {
	DOCA_GPUNETIO_ETH_RX_ATTR_NONE = 0, /**< None. */
	DOCA_GPUNETIO_ETH_RX_ATTR_TS,       /**< The time stamp. */
	DOCA_GPUNETIO_ETH_RX_ATTR_ALL,      /**< The time stamp and the byte count. */
};

/** @brief out_first_pkt_idx of a receive that got no packet. */
#define DOCA_GPUNETIO_ETH_RX_NO_PKT (~(uint64_t)0)

/** @brief Attributes of one received packet (the receive's out_attr[i] for its i-th packet). */
struct doca_gpu_dev_eth_rxq_attr {
	uint64_t timestamp_ns; /**< When the NIC received it (its clock in nanoseconds). */
	uint32_t bytes;        /**< Frame length. */
	uint32_t padding;
};

/**
 * @brief The device-side Ethernet receive queue (filled by doca_ctx_start()).
 *
 * Cyclic (striding_rq 0): WQE i receives into packet buffer i (pkt_addr + i * max_pkt_sz) for
 * ever. Striding (striding_rq 1, opengda_eth_rxq_set_striding()): WQE w names wqe_strides_num
 * strides of max_pkt_sz bytes, stride s of it being packet index w * wqe_strides_num + s; a
 * packet takes one or more consecutive strides of one WQE. Either way a receive hands the
 * buffers of what it returns back to the NIC at once, so a kernel reads a packet before the ring
 * comes round again (as the SDK's cyclic queue).
 */
struct doca_gpu_eth_rxq {
	uint64_t pkt_addr;        /**< First packet buffer (stride). */
	uint32_t pkt_mkey;        /**< Key of the packet buffers, big-endian (for sending them on). */
	uint32_t pkt_num;         /**< Packet buffers: WQEs, or WQEs x strides (a power of two). */
	uint32_t max_pkt_sz;      /**< Bytes per packet buffer (the stride of a striding queue). */
	uint8_t striding_rq;      /**< 0: one WQE per packet; 1: striding (multi-packet) WQEs. */
	uint8_t need_mcst;        /**< 1: MCST_AUTO fences (doca_eth_rxq_gpu_enable_mcst_qp). */
	uint16_t reserved0;
	uint8_t *wqe_addr;        /**< Receive WQEs (16 bytes; 32 when striding: next + data segment). */
	uint32_t *wqe_db_rec;     /**< RQ doorbell record (producer counter in WQEs, big-endian). */
	uint64_t wqe_pi;          /**< Producer counter last written. */
	uint32_t wqe_num;         /**< Receive WQEs. */
	uint32_t wqe_mask;        /**< wqe_num - 1. */
	uint32_t wqe_strides_num; /**< Strides per WQE (striding; else 1). */
	uint16_t wqe_id_last;     /**< Striding: counter of the first WQE not yet handed back. */
	uint16_t wqe_id_update;   /**< Striding: WQEs the last receive handed back. */
	struct doca_gpu_dev_verbs_cq cq; /**< The receive CQ (cqe_ci: next CQE to read). */
	uint32_t rqn;             /**< RQ number. */
	uint32_t reserved1;
	/**
	 * The MCST queue (doca_eth_rxq_gpu_enable_mcst_qp): a loopback QP on which an MCST receive
	 * posts one DUMP of a packet-buffer byte and waits for it; NULL without one (MCST is then a
	 * system-scope fence).
	 */
	struct doca_gpu_dev_verbs_qp *mcst_qp;
};

#ifdef __cplusplus
}
#endif

#endif /* DOCA_GPUNETIO_ETH_DEF_H */
