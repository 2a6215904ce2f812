/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_eth_rxq.h
 * @brief DOCA Ethernet receive queue (DOCA names): a context whose receive queue the NIC fills
 *        with frames steered to it (DOCA Flow, doca_flow.h) and device code empties.
 *
 * Life cycle: doca_eth_rxq_create(), doca_eth_rxq_set_type(), the packet buffer
 * (doca_eth_rxq_estimate_packet_buf_size(), a doca_mmap over GPU or host memory,
 * doca_eth_rxq_set_pkt_buf()), then one of two data paths, and doca_ctx_start();
 * doca_eth_rxq_apply_queue_id() gives the id DOCA Flow forwards to (both data paths).
 *
 * GPU data path (type CYCLIC): doca_ctx_set_datapath_on_gpu() on doca_eth_rxq_as_doca_ctx(),
 * then doca_eth_rxq_get_gpu_handle() for device code (doca_gpunetio_dev_eth_rxq.cuh, or the C
 * core include/device/ogda_dev_eth_rx.h on host threads).
 *
 * CPU data path (type MANAGED_MEMPOOL, no doca_ctx_set_datapath_on_gpu()):
 * doca_eth_rxq_event_managed_recv_register() and doca_pe_connect_ctx() before start; every
 * doca_pe_progress() hands each packet that arrived to the success handler as a doca_buf (its
 * data is the frame) and each error completion to the error handler. The application gives a
 * packet back with doca_buf_dec_refcount(); only then is its buffer posted to the NIC again, in
 * ring order (a buffer held for ever stalls the queue one ring later: further frames are dropped
 * and counted by the port). doca_ctx_stop() with packets still held leaves the queue STOPPING
 * (no more packets are delivered) until they are given back; doca_pe_progress() then stops it.
 *
 * CPU data path with receive tasks (type REGULAR, no doca_ctx_set_datapath_on_gpu()):
 * doca_eth_rxq_task_recv_set_conf() and doca_pe_connect_ctx() before start, no packet buffer;
 * once started, each doca_eth_rxq_task_recv_allocate_init() task names a doca_buf of the
 * application's (from a doca_buf_inventory over a doca_mmap registered on the device), and each
 * doca_task_submit() posts one receive WQE naming that buffer. doca_pe_progress() completes the
 * tasks in submit order: the buffer's data is the frame (data_len its bytes). doca_ctx_stop()
 * with tasks in flight flushes them (error callback, DOCA_ERROR_SHUTDOWN) in doca_pe_progress().
 *
 * Start creates, through the device interface (software NIC or ConnectX alike), a CQ and an RQ
 * whose WQEs name the packet buffers (PRM CREATE_CQ, CREATE_RQ, MODIFY_RQ RST to RDY); all WQEs
 * are posted at start (REGULAR: none; the receive tasks post them).
 *
 * Differences from DOCA (docs/ethernet.md): CYCLIC is for the GPU data path, MANAGED_MEMPOOL and
 * REGULAR for the CPU one; no striding RQ by default
 * (opengda_eth_rxq_set_striding()); the MCST DUMP queue (doca_eth_rxq_gpu_enable_mcst_qp()) is a
 * loopback RC QP exported as mcst_qp in the handle. The CPU data path's functions are not
 * forwarded to a DOCA SDK (DOCA_SDK_LIB_PATH): in SDK mode they answer DOCA_ERROR_NOT_SUPPORTED.
 *
 * Every function checks its arguments and logs why it fails.
 */
#ifndef DOCA_ETH_RXQ_H_
#define DOCA_ETH_RXQ_H_

#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_ctx;
struct doca_mmap;
/** @brief An Ethernet receive queue. */
struct doca_eth_rxq;

/** @brief Receive queue types. */
enum doca_eth_rxq_type {
	DOCA_ETH_RXQ_TYPE_CYCLIC = 0,          /**< Buffers reused in ring order; the GPU data path's type. */
	DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL = 1, /**< CPU data path: packets lent as doca_buf from doca_pe_progress(). */
	DOCA_ETH_RXQ_TYPE_REGULAR = 2,         /**< CPU data path: receive tasks, each with a buffer of its own. */
};

/** @brief Who consumes the queue. */
enum doca_eth_rxq_data_path_type {
	DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU = 0, /**< A CPU thread, through doca_pe_progress() (MANAGED_MEMPOOL, REGULAR). */
	DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU = 1, /**< Device code. */
};

/** @brief Largest burst (packet buffers) of a queue: 2^15. */
#define OPENGDA_ETH_RXQ_MAX_BURST 32768u
/** @brief Largest packet a queue takes (a jumbo frame). */
#define OPENGDA_ETH_RXQ_MAX_PACKET_SIZE 16384u
/** @brief Most receive tasks a REGULAR queue can allocate (doca_eth_rxq_task_recv_set_conf()). */
#define OPENGDA_ETH_RXQ_MAX_TASKS 65536u

/**
 * @brief Creates a receive queue on @p dev holding up to @p max_burst_size packets (rounded up to
 *        a power of two) of up to @p max_packet_size bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or out-of-range sizes; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_eth_rxq_create(struct doca_dev *dev, uint32_t max_burst_size, uint32_t max_packet_size,
				 struct doca_eth_rxq **eth_rxq);
/** @brief Destroys a stopped queue. @return DOCA_ERROR_BAD_STATE while started. */
doca_error_t doca_eth_rxq_destroy(struct doca_eth_rxq *eth_rxq);
/** @brief The queue's context (NULL, logged, for NULL). */
struct doca_ctx *doca_eth_rxq_as_doca_ctx(struct doca_eth_rxq *eth_rxq);

/**
 * @brief Sets the type: CYCLIC (GPU data path, the default), MANAGED_MEMPOOL or REGULAR (CPU data path).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for an unknown type or NULL; DOCA_ERROR_BAD_STATE
 *         when started.
 */
doca_error_t doca_eth_rxq_set_type(struct doca_eth_rxq *eth_rxq, enum doca_eth_rxq_type type);
/** @brief Changes the burst size (queue not started). */
doca_error_t doca_eth_rxq_set_max_burst_size(struct doca_eth_rxq *eth_rxq, uint32_t max_burst_size);
/** @brief Changes the largest packet size (queue not started). */
doca_error_t doca_eth_rxq_set_max_packet_size(struct doca_eth_rxq *eth_rxq, uint16_t max_packet_size);

/**
 * @brief Bytes of packet buffer a queue of @p type needs: for CYCLIC and MANAGED_MEMPOOL,
 *        @p max_burst_size rounded up to a power of two, times @p max_packet_size plus
 *        @p head_size and @p tail_size. @p rate, @p pkt_max_time and @p log_max_lro_pkt_sz are
 *        accepted (LRO is not offered: must be 0).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or out-of-range values;
 *         DOCA_ERROR_NOT_SUPPORTED for REGULAR (it has no packet buffer: each receive task brings
 *         its own).
 */
doca_error_t doca_eth_rxq_estimate_packet_buf_size(enum doca_eth_rxq_type type, uint32_t rate, uint16_t pkt_max_time,
						   uint32_t max_packet_size, uint32_t max_burst_size,
						   uint8_t log_max_lro_pkt_sz, uint16_t head_size, uint16_t tail_size,
						   uint32_t *buf_size);
/**
 * @brief The packet buffer: @p size bytes at @p offset in @p mmap (started, local read-write). It
 *        must hold the estimated size; checked at start. A REGULAR queue does not use one: start
 *        logs a warning and leaves it unused (the mmap stays held until replaced or destroyed).
 */
doca_error_t doca_eth_rxq_set_pkt_buf(struct doca_eth_rxq *eth_rxq, struct doca_mmap *mmap, uint32_t mmap_offset,
				      uint32_t mmap_len);

/**
 * @brief DOCA_SUCCESS for (CYCLIC, GPU), (MANAGED_MEMPOOL, CPU) and (REGULAR, CPU);
 *        DOCA_ERROR_NOT_SUPPORTED for the others; DOCA_ERROR_INVALID_VALUE for NULL or an unknown
 *        data path type.
 */
doca_error_t doca_eth_rxq_cap_is_type_supported(const struct doca_devinfo *devinfo, enum doca_eth_rxq_type type,
						enum doca_eth_rxq_data_path_type data_path_type);
/** @brief OPENGDA_ETH_RXQ_MAX_BURST. */
doca_error_t doca_eth_rxq_cap_get_max_burst_size(const struct doca_devinfo *devinfo, uint32_t *max_burst_size);
/** @brief OPENGDA_ETH_RXQ_MAX_PACKET_SIZE. */
doca_error_t doca_eth_rxq_cap_get_max_packet_size(const struct doca_devinfo *devinfo, uint16_t *max_packet_size);

/**
 * @brief Gives the queue the id DOCA Flow's RSS forwarding names (fwd.rss.queues_array). Before
 *        start the id is kept and registered when the queue starts; on a started queue it is
 *        registered at once. Ids are per device. @return DOCA_ERROR_ALREADY_EXIST when another
 *        started queue of the device has it.
 */
doca_error_t doca_eth_rxq_apply_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t queue_id);
/** @brief The queue's id (DOCA 2.x name); DOCA_ERROR_BAD_STATE when none was applied. */
doca_error_t doca_eth_rxq_get_flow_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t *flow_queue_id);

/* ---- CPU data path: managed receive events (DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL) ---- */

struct doca_buf;
/**
 * @brief One managed receive: what the handler is called with. Valid during the handler only
 *        (the queue reuses it for the next packet).
 */
struct doca_eth_rxq_event_managed_recv;

/**
 * @brief A managed receive handler.
 * @param [in] event_managed_recv The event (status, flow tag, RSS hash, time stamp), valid during the call.
 * @param [in] pkt The packet: a doca_buf whose data is the frame (data_len its bytes), lent to the
 *        application until doca_buf_dec_refcount() takes its count to 0. NULL for an error
 *        completion (the NIC wrote nothing the application could use).
 * @param [in] event_user_data The user data given to doca_eth_rxq_event_managed_recv_register().
 */
typedef void (*doca_eth_rxq_event_managed_recv_handler_cb_t)(struct doca_eth_rxq_event_managed_recv *event_managed_recv,
							     struct doca_buf *pkt, union doca_data event_user_data);

/**
 * @brief Registers the managed receive handlers of a CPU-data-path queue (not started). Both are
 *        needed: every completion reaches one of them, from doca_pe_progress().
 * @param [in] eth_rxq The queue (type MANAGED_MEMPOOL when it starts).
 * @param [in] user_data Passed to the handlers.
 * @param [in] success_event_handler Called for each packet received.
 * @param [in] error_event_handler Called for each error completion (the RQ is then in error:
 *        later frames are dropped; stop and start the queue).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments; DOCA_ERROR_BAD_STATE when
 *         started; DOCA_ERROR_NOT_SUPPORTED in SDK mode.
 */
doca_error_t doca_eth_rxq_event_managed_recv_register(struct doca_eth_rxq *eth_rxq, union doca_data user_data,
						      doca_eth_rxq_event_managed_recv_handler_cb_t success_event_handler,
						      doca_eth_rxq_event_managed_recv_handler_cb_t error_event_handler);

/**
 * @brief The event's outcome: DOCA_SUCCESS for a packet; DOCA_ERROR_IO_FAILED for an error
 *        completion (its syndrome is logged); DOCA_ERROR_INVALID_VALUE (logged) for NULL.
 */
doca_error_t doca_eth_rxq_event_managed_recv_get_status(const struct doca_eth_rxq_event_managed_recv *event_managed_recv);

/**
 * @brief The flow tag of the steering rule that delivered the packet (0 when none set one).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_rxq_event_managed_recv_get_flow_tag(const struct doca_eth_rxq_event_managed_recv *event_managed_recv,
							  uint32_t *flow_tag);

/**
 * @brief The RSS hash the NIC computed for the packet (0 when steered without RSS).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_rxq_event_managed_recv_get_rx_hash(const struct doca_eth_rxq_event_managed_recv *event_managed_recv,
							 uint32_t *rx_hash);

/**
 * @brief The packet's receive time stamp, in nanoseconds of the NIC clock (CLOCK_REALTIME on the
 *        software NIC).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_rxq_event_managed_recv_get_timestamp(const struct doca_eth_rxq_event_managed_recv *event_managed_recv,
							   uint64_t *timestamp);

/* ---- CPU data path: receive tasks (DOCA_ETH_RXQ_TYPE_REGULAR) ---- */

struct doca_task;
/** @brief A receive task: one frame into one doca_buf of the application's. */
struct doca_eth_rxq_task_recv;

/**
 * @brief A receive task's completion callback (success and error alike; doca_task_get_status()
 *        on doca_eth_rxq_task_recv_as_doca_task() tells which). Runs in doca_pe_progress(); the
 *        task is the application's again: it may resubmit it, free it or keep it.
 * @param [in] task_recv The completed task.
 * @param [in] task_user_data The task's user data (doca_eth_rxq_task_recv_allocate_init()).
 * @param [in] ctx_user_data The queue context's user data (doca_ctx_set_user_data()).
 */
typedef void (*doca_eth_rxq_task_recv_completion_cb_t)(struct doca_eth_rxq_task_recv *task_recv,
						       union doca_data task_user_data, union doca_data ctx_user_data);

/**
 * @brief Configures the receive tasks of a REGULAR queue (not started). Both callbacks are needed:
 *        every task's outcome reaches one of them.
 * @param [in] eth_rxq The queue.
 * @param [in] task_completion_cb Called for each frame received.
 * @param [in] task_error_cb Called for each task that failed (DOCA_ERROR_IO_FAILED: the NIC
 *        reported an error, or the RQ was in error already) or was flushed by doca_ctx_stop()
 *        (DOCA_ERROR_SHUTDOWN).
 * @param [in] task_recv_num Tasks the queue can allocate, 1 .. OPENGDA_ETH_RXQ_MAX_TASKS.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments or a number out of range;
 *         DOCA_ERROR_BAD_STATE when started; DOCA_ERROR_NOT_SUPPORTED in SDK mode.
 */
doca_error_t doca_eth_rxq_task_recv_set_conf(struct doca_eth_rxq *eth_rxq,
					     doca_eth_rxq_task_recv_completion_cb_t task_completion_cb,
					     doca_eth_rxq_task_recv_completion_cb_t task_error_cb, uint32_t task_recv_num);

/**
 * @brief Allocates a receive task of a RUNNING REGULAR queue with a CPU data path.
 * @param [in] eth_rxq The queue.
 * @param [in] pkt The buffer the frame goes to (may be NULL here; checked at submit): a doca_buf
 *        whose mmap is registered on the queue's device, with at least max_packet_size bytes from
 *        its data address to its end.
 * @param [in] user_data The task's user data.
 * @param [out] task_recv The task.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments; DOCA_ERROR_NOT_SUPPORTED for a
 *         queue with a GPU data path or of another type, and in SDK mode; DOCA_ERROR_BAD_STATE when
 *         not RUNNING; DOCA_ERROR_NO_MEMORY when all task_recv_num tasks are allocated.
 */
doca_error_t doca_eth_rxq_task_recv_allocate_init(struct doca_eth_rxq *eth_rxq, struct doca_buf *pkt,
						  union doca_data user_data, struct doca_eth_rxq_task_recv **task_recv);

/** @brief The task as a doca_task (doca_task_submit(), doca_task_free(), ...); NULL, logged, for NULL. */
struct doca_task *doca_eth_rxq_task_recv_as_doca_task(struct doca_eth_rxq_task_recv *task_recv);

/**
 * @brief Gives an allocated task another buffer (the SDK's returns void).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE for a task in flight or freed.
 */
doca_error_t doca_eth_rxq_task_recv_set_pkt(struct doca_eth_rxq_task_recv *task_recv, struct doca_buf *pkt);

/** @brief The task's buffer. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments. */
doca_error_t doca_eth_rxq_task_recv_get_pkt(const struct doca_eth_rxq_task_recv *task_recv, struct doca_buf **pkt);

/**
 * @brief Whether the NIC found the received frame's L3 header good (IPv4 header checksum right,
 *        IPv6 parsed): 1 or 0; 0 for a task that did not complete successfully.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_rxq_task_recv_get_l3_ok(const struct doca_eth_rxq_task_recv *task_recv, uint8_t *l3_ok);

/**
 * @brief Whether the NIC found the received frame's TCP / UDP checksum right: 1 or 0; 0 for a
 *        task that did not complete successfully.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_rxq_task_recv_get_l4_ok(const struct doca_eth_rxq_task_recv *task_recv, uint8_t *l4_ok);

/**
 * @brief The flow tag of the steering rule that delivered the frame (0 when none set one).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_rxq_task_recv_get_flow_tag(const struct doca_eth_rxq_task_recv *task_recv, uint32_t *flow_tag);

/**
 * @brief The RSS hash the NIC computed for the frame (0 when steered without RSS).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_rxq_task_recv_get_rx_hash(const struct doca_eth_rxq_task_recv *task_recv, uint32_t *rx_hash);

/**
 * @brief The frame's receive time stamp, in nanoseconds of the NIC clock (CLOCK_REALTIME on the
 *        software NIC).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_rxq_task_recv_get_timestamp(const struct doca_eth_rxq_task_recv *task_recv, uint64_t *timestamp);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_RXQ_H_ */
