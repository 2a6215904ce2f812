/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file opengda.h
 * @brief OpenGDA extensions to the DOCA API: version, logging, memory registration on any
 *        device, port and GID queries, CQ arming and the async-event handle.
 *
 * Functions that DOCA does not define carry the `opengda_` prefix.
 */
#ifndef OPENGDA_H_
#define OPENGDA_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"
#include "doca_verbs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Library version as major<<16 | minor<<8 | patch (DOCA's encoding). */
uint32_t opengda_version(void);

/** @brief Library version as a string, e.g. "0.1.0". Never NULL. */
const char *opengda_version_string(void);

/**
 * @brief Sets the logging threshold (syslog levels: 0 EMERG ... 3 ERR ... 7 DEBUG).
 *
 * Overrides DOCA_GPUNETIO_LOG for the rest of the process. Messages are written to
 * stderr, one line each: UTC time, level, file:line, function, message.
 *
 * @param level  0..7.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE outside 0..7 (level unchanged).
 */
doca_error_t opengda_log_set_level(int level);

/**
 * @brief Current logging threshold.
 *
 * The first call reads DOCA_GPUNETIO_LOG; unset means 3 (errors only). This differs from
 * DOCA, whose default is 0: OpenGDA reports every error it returns unless told not to.
 *
 * @return 0..7.
 */
int opengda_log_get_level(void);

/* ------------------------------------------------------------------------------------------ */
/** @name Memory regions on any device
 *
 * DOCA registers data memory with ibv_reg_mr(), which cannot reach a software NIC. These
 * functions register on whatever device the PD belongs to.
 */
/** @{ */

/** @brief A registered memory region. */
struct opengda_mr;

/**
 * @brief Registers host or GPU memory.
 * @param [in] pd      The protection domain.
 * @param [in] addr    Start (host memory, or GPU memory: the software NIC reaches it through
 *                     the CUDA driver, a ConnectX through GPUDirect RDMA).
 * @param [in] len     Bytes, > 0.
 * @param [in] access  IBV_ACCESS_LOCAL_WRITE / REMOTE_WRITE / REMOTE_READ / REMOTE_ATOMIC;
 *                     REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE (as ibv_reg_mr).
 * @param [out] mr     The region; release it with opengda_mr_destroy().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_DRIVER; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t opengda_mr_create(struct doca_verbs_pd *pd, void *addr, size_t len, uint32_t access,
			       struct opengda_mr **mr);

/**
 * @brief Registers memory exported as a dmabuf (ConnectX only).
 * @param [in] fd      The dmabuf file descriptor (e.g. from doca_gpu_dmabuf_fd()).
 * @param [in] offset  Offset of the region inside the dmabuf.
 * @param [in] len     Bytes, > 0.
 * @param [in] iova    The address remote peers and local SGEs use for the first byte.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_NOT_SUPPORTED (software NIC,
 *         or rdma-core without ibv_reg_dmabuf_mr); DOCA_ERROR_DRIVER; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t opengda_mr_create_dmabuf(struct doca_verbs_pd *pd, int fd, uint64_t offset, size_t len, uint64_t iova,
				      uint32_t access, struct opengda_mr **mr);

/** @brief The local key (for SGEs). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t opengda_mr_get_lkey(const struct opengda_mr *mr, uint32_t *lkey);

/** @brief The remote key (for peers). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t opengda_mr_get_rkey(const struct opengda_mr *mr, uint32_t *rkey);

/** @brief Deregisters a region. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_DRIVER. */
doca_error_t opengda_mr_destroy(struct opengda_mr *mr);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Port, GID, arming, async handle */
/** @{ */

/** @brief Link layers (ibv values). */
enum opengda_link_layer {
	OPENGDA_LINK_LAYER_INFINIBAND = 1,
	OPENGDA_LINK_LAYER_ETHERNET = 2,
};

/** @brief Port attributes. */
struct opengda_port_attr {
	uint8_t state;                        /**< ibv_port_state: 4 = ACTIVE. */
	enum opengda_link_layer link_layer;   /**< RoCE (Ethernet) or InfiniBand. */
	enum doca_verbs_mtu_size active_mtu;  /**< The MTU a QP's path_mtu may use at most. */
	enum doca_verbs_mtu_size max_mtu;     /**< The largest MTU the port supports. */
	uint16_t lid;                         /**< InfiniBand LID (0 on Ethernet). */
	uint32_t gid_tbl_len;                 /**< GID table entries. */
};

/**
 * @brief Port attributes of a context's device.
 * @param [in] port_num  1-based port number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_DRIVER.
 */
doca_error_t opengda_verbs_query_port(struct doca_verbs_context *verbs_context, uint16_t port_num,
				      struct opengda_port_attr *attr);

/**
 * @brief A local GID (to give the peer for its AH attribute).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (index beyond the table); DOCA_ERROR_DRIVER.
 */
doca_error_t opengda_verbs_query_gid(struct doca_verbs_context *verbs_context, uint16_t port_num, uint32_t gid_index,
				     struct doca_verbs_gid *gid);

/**
 * @brief Arms a CQ: its next completion (or, with solicited_only, its next solicited or
 *        error completion) raises one event on its completion channel. A CQE already
 *        present beyond the consumer index raises the event at once.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, or a CQ without a completion channel).
 */
doca_error_t opengda_verbs_cq_arm(struct doca_verbs_cq *verbs_cq, bool solicited_only);

/**
 * @brief The context's async-event fd, readable (poll / epoll POLLIN) while
 *        doca_verbs_get_async_event() has an event to return.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t opengda_verbs_context_get_async_handle(struct doca_verbs_context *verbs_context,
						    doca_event_handle_t *handle);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Ethernet port of the software NIC */
/** @{ */

struct doca_dev;

/** @brief Counters of a software NIC's Ethernet port (since the NIC was created). */
struct opengda_eth_port_stats {
	uint64_t tx_packets; /**< Frames handed to the interface. */
	uint64_t tx_bytes;   /**< Their bytes. */
	uint64_t tx_dropped; /**< Frames sent while no interface was attached (the wire is down). */
	uint64_t tx_errors;  /**< Frames the interface refused. */
	uint64_t rx_frames;      /**< Frames that arrived on the interface. */
	uint64_t rx_delivered;   /**< Placed in a receive queue (a frame sent to two queues counts twice). */
	uint64_t rx_missed;      /**< No flow table, or no entry matched: not delivered (Linux still sees it). */
	uint64_t rx_dropped;     /**< A flow table entry dropped them. */
	uint64_t rx_queue_drops; /**< A receive queue could not take them (no WQE posted, too long, not ready). */
	uint64_t rx_errors;      /**< Receive socket errors (interface down or deleted, ...); the first is logged. */
};

/**
 * @brief Attaches the Ethernet port of the software NIC behind @p dev to the Linux interface
 *        @p ifname (a veth end, a TAP): frames its Ethernet send queues send leave there, through
 *        an AF_PACKET socket (needs CAP_NET_RAW). Replaces an earlier attachment, including one
 *        made by OPENGDA_SWNIC_ETH_IFACE. The attachment lasts while the NIC exists (while any
 *        device handle on it is open).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or a name too long;
 *         DOCA_ERROR_NOT_SUPPORTED when @p dev is not a software NIC; DOCA_ERROR_NOT_FOUND for no
 *         such interface; DOCA_ERROR_NOT_PERMITTED without CAP_NET_RAW.
 */
doca_error_t opengda_eth_port_attach(struct doca_dev *dev, const char *ifname);

/**
 * @brief Detaches the port (frames are then dropped and counted).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NOT_SUPPORTED as above.
 */
doca_error_t opengda_eth_port_detach(struct doca_dev *dev);

/**
 * @brief The port's counters.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NOT_SUPPORTED as above.
 */
doca_error_t opengda_eth_port_get_stats(struct doca_dev *dev, struct opengda_eth_port_stats *stats);

/** @} */

/* ------------------------------------------------------------------------------------------ */
/** @name Striding Ethernet receive queues */
/** @{ */

struct doca_eth_rxq;

/** @brief Fewest and most strides per WQE of a striding receive queue. */
#define OPENGDA_ETH_RXQ_MIN_STRIDES 8u
#define OPENGDA_ETH_RXQ_MAX_STRIDES 65536u
/** @brief Largest stride (the queue's max_packet_size) of a striding receive queue. */
#define OPENGDA_ETH_RXQ_MAX_STRIDE_SIZE 8192u
/**
 * @brief Bound of the wait for a receive's MCST DUMP (doca_eth_rxq_gpu_enable_mcst_qp): a DUMP
 *        not completed by then makes the receive fail instead of hanging (10 s).
 */
#define OPENGDA_ETH_RXQ_MCST_WAIT_TIMEOUT_NS 10000000000ull

/**
 * @brief Makes an idle receive queue striding (a multi-packet RQ, what the SDK's cyclic GPU queue
 *        is on a ConnectX), or cyclic again with @p strides_per_wqe = 0.
 *
 * A striding queue keeps the same packet buffer: its max_burst (rounded up to a power of two)
 * buffers of max_packet_size bytes become strides, @p strides_per_wqe of them per receive WQE.
 * A packet takes ceil(length / stride) strides of one WQE, so frames longer than max_packet_size
 * are received (up to a whole WQE); when a packet does not fit in what is left of its WQE, a
 * filler completion closes the WQE and the packet goes to the next one (device receives skip
 * fillers). Checked at doca_ctx_start(): max_packet_size is a power of two of 64 ..
 * OPENGDA_ETH_RXQ_MAX_STRIDE_SIZE, and the queue has at least two WQEs.
 *
 * Not the default: a cyclic queue drops a frame longer than max_packet_size and keeps one CQE per
 * buffer, which existing callers of get_pkt_cqe / get_pkt_bytes rely on (docs/ethernet.md).
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL, or @p strides_per_wqe not 0 and not a
 *         power of two in OPENGDA_ETH_RXQ_MIN_STRIDES .. OPENGDA_ETH_RXQ_MAX_STRIDES;
 *         DOCA_ERROR_BAD_STATE when the queue is started.
 */
doca_error_t opengda_eth_rxq_set_striding(struct doca_eth_rxq *eth_rxq, uint32_t strides_per_wqe);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* OPENGDA_H_ */
