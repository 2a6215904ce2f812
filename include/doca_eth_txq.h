/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_eth_txq.h
 * @brief DOCA Ethernet send queue (DOCA names): a context whose send queue a GPU (or host
 *        threads, through the same device code) fills with Ethernet frames.
 *
 * Life cycle: doca_eth_txq_create(), configuration (burst size, checksum offloads, queue memory),
 * a data path, doca_ctx_start() on doca_eth_txq_as_doca_ctx(); doca_ctx_stop() and
 * doca_eth_txq_destroy() undo it. Start creates, through the device interface (software NIC or
 * ConnectX alike), a CQ, a TIS and an Ethernet SQ (PRM CREATE_CQ, CREATE_TIS, CREATE_SQ,
 * MODIFY_SQ RST to RDY).
 *
 * GPU data path: doca_ctx_set_datapath_on_gpu(), then doca_eth_txq_get_gpu_handle() for device
 * code (doca_gpunetio_dev_eth_txq.cuh, or the C core include/device/ogda_dev_eth.h on host
 * threads).
 *
 * CPU data path (no doca_ctx_set_datapath_on_gpu()): doca_eth_txq_task_send_set_conf() and
 * doca_pe_connect_ctx() before start; then doca_eth_txq_task_send_allocate_init() with a doca_buf
 * whose data is the frame (its mmap registered on the queue's device),
 * doca_task_submit(doca_eth_txq_task_send_as_doca_task()), the callback from doca_pe_progress(),
 * doca_task_free(). The WQEs are written by the same C core device code uses, so the checksum
 * offloads apply alike. At most a ring of max(64, max_burst_size) sends is in flight: a submit
 * beyond it answers DOCA_ERROR_AGAIN at once (progress the engine, submit again).
 *
 * On the software NIC the frames leave through the Linux interface its Ethernet port is attached
 * to (OPENGDA_SWNIC_ETH_IFACE or opengda_eth_port_attach(); docs/ethernet.md).
 *
 * Differences from DOCA (docs/ethernet.md): one buffer per send task, no inline data, no LSO;
 * the CPU data path's functions are not forwarded to a DOCA SDK (DOCA_SDK_LIB_PATH): in SDK mode
 * they answer DOCA_ERROR_NOT_SUPPORTED.
 *
 * Every function checks its arguments and logs why it fails.
 */
#ifndef DOCA_ETH_TXQ_H_
#define DOCA_ETH_TXQ_H_

#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_ctx;
/** @brief An Ethernet send queue. */
struct doca_eth_txq;

/** @brief How a device schedules sends by time (wait-on-time). */
enum doca_eth_wait_on_time_type {
	DOCA_ETH_WAIT_ON_TIME_TYPE_NONE = 0,   /**< Not supported. */
	DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE = 1, /**< WAIT WQEs on the NIC clock (what the GPU data path uses). */
	DOCA_ETH_WAIT_ON_TIME_TYPE_DPDK = 2,   /**< DPDK's scheme (not offered here). */
};

/** @brief Largest burst (send descriptors) a queue takes: one WQEBB per packet, 2^15 WQEBBs. */
#define OPENGDA_ETH_TXQ_MAX_BURST 32768u
/** @brief Most send tasks a CPU-data-path queue allocates (doca_eth_txq_task_send_set_conf()). */
#define OPENGDA_ETH_TXQ_MAX_TASKS 65536u

/** @brief Send queue types. */
enum doca_eth_txq_type {
	DOCA_ETH_TXQ_TYPE_REGULAR = 0, /**< One packet per send (the default and only type). */
};

/** @brief Who fills the queue. */
enum doca_eth_txq_data_path_type {
	DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU = 0, /**< A CPU thread, with send tasks and doca_pe_progress(). */
	DOCA_ETH_TXQ_DATA_PATH_TYPE_GPU = 1, /**< Device code (doca_ctx_set_datapath_on_gpu()). */
};

/**
 * @brief Creates a send queue on @p dev for bursts of up to @p max_burst_size packets.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments or a burst size of 0 or above
 *         OPENGDA_ETH_TXQ_MAX_BURST; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_eth_txq_create(struct doca_dev *dev, uint32_t max_burst_size, struct doca_eth_txq **eth_txq);

/**
 * @brief Destroys a queue that is not started.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE while started.
 */
doca_error_t doca_eth_txq_destroy(struct doca_eth_txq *eth_txq);

/** @brief The queue's context (doca_ctx_start / stop / set_datapath_on_gpu); NULL for NULL. */
struct doca_ctx *doca_eth_txq_as_doca_ctx(struct doca_eth_txq *eth_txq);

/**
 * @brief Changes the burst size (queue not started).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE as for create; DOCA_ERROR_BAD_STATE when started.
 */
doca_error_t doca_eth_txq_set_max_burst_size(struct doca_eth_txq *eth_txq, uint32_t max_burst_size);

/**
 * @brief The largest burst size the device takes for a queue.
 * @param [in] devinfo The device.
 * @param [in] max_send_buf_list_len Buffers per packet (1 or 2 on the GPU data path).
 * @param [in] max_inline_size Inline bytes per packet (0 on the GPU data path).
 * @param [out] max_burst_size The answer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments; DOCA_ERROR_NOT_SUPPORTED for a
 *         buffer list longer than 2 or inline bytes.
 */
doca_error_t doca_eth_txq_cap_get_max_burst_size(const struct doca_devinfo *devinfo, uint32_t max_send_buf_list_len,
						 uint16_t max_inline_size, uint32_t *max_burst_size);

/**
 * @brief Asks the NIC to write the IPv4 header checksum of every frame (@p enable_l3_chksum 1).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or a value other than 0 / 1;
 *         DOCA_ERROR_BAD_STATE when started.
 */
doca_error_t doca_eth_txq_set_l3_chksum_offload(struct doca_eth_txq *eth_txq, uint8_t enable_l3_chksum);

/** @brief The same for the TCP / UDP checksum. */
doca_error_t doca_eth_txq_set_l4_chksum_offload(struct doca_eth_txq *eth_txq, uint8_t enable_l4_chksum);

/**
 * @brief Whether the device can hold sends until a time: NATIVE on the software NIC (its clock is
 *        CLOCK_REALTIME), NONE on a ConnectX (not determined yet).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
doca_error_t doca_eth_txq_cap_get_wait_on_time_offload_supported(const struct doca_devinfo *devinfo,
								 enum doca_eth_wait_on_time_type *wait_on_time_mode);

/**
 * @brief Enables wait-on-time sends on the queue (not started).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when started;
 *         DOCA_ERROR_NOT_SUPPORTED when the device has no NATIVE wait-on-time.
 */
doca_error_t doca_eth_txq_set_wait_on_time_offload(struct doca_eth_txq *eth_txq);

/**
 * @brief The value a wait-on-time WQE carries for @p timestamp_ns (CLOCK_REALTIME nanoseconds):
 *        big-endian (seconds << 32 | nanoseconds), what device code passes to wait_send.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments; DOCA_ERROR_BAD_STATE unless
 *         wait-on-time was enabled.
 */
doca_error_t doca_eth_txq_calculate_timestamp(struct doca_eth_txq *eth_txq, uint64_t timestamp_ns,
					      uint64_t *wait_on_time_ts);

/* ---- CPU data path: send tasks ---- */

struct doca_buf;
struct doca_task;
/** @brief A send task: one frame from one doca_buf. */
struct doca_eth_txq_task_send;

/**
 * @brief A send task's completion (or error) callback, run from doca_pe_progress(). The task is
 *        the application's again: submit it anew, or doca_task_free() it.
 * @param [in] task_send The task; doca_task_get_status() on its doca_task gives the outcome
 *        (DOCA_SUCCESS, or DOCA_ERROR_IO_FAILED for an error completion).
 * @param [in] task_user_data The user data of the task.
 * @param [in] ctx_user_data The user data of the queue's context.
 */
typedef void (*doca_eth_txq_task_send_completion_cb_t)(struct doca_eth_txq_task_send *task_send,
							union doca_data task_user_data, union doca_data ctx_user_data);

/**
 * @brief Whether the device offers a send queue of @p type for @p data_path_type: REGULAR on the
 *        CPU and on the GPU.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or an unknown type;
 *         DOCA_ERROR_NOT_SUPPORTED in SDK mode.
 */
doca_error_t doca_eth_txq_cap_is_type_supported(const struct doca_devinfo *devinfo, enum doca_eth_txq_type type,
						enum doca_eth_txq_data_path_type data_path_type);

/**
 * @brief Sets the queue's type (not started): DOCA_ETH_TXQ_TYPE_REGULAR, the default.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or an unknown type; DOCA_ERROR_BAD_STATE
 *         when started; DOCA_ERROR_NOT_SUPPORTED in SDK mode.
 */
doca_error_t doca_eth_txq_set_type(struct doca_eth_txq *eth_txq, enum doca_eth_txq_type type);

/**
 * @brief Configures send tasks (not started): the CPU data path. Both callbacks are needed.
 * @param [in] eth_txq The queue.
 * @param [in] task_completion_cb Run for each send that completed.
 * @param [in] task_error_cb Run for each send that failed (the queue is then in error: later
 *        sends fail too, flushed; stop and start it).
 * @param [in] task_send_num Tasks the queue can allocate, 1 .. OPENGDA_ETH_TXQ_MAX_TASKS.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or an out-of-range number;
 *         DOCA_ERROR_BAD_STATE when started; DOCA_ERROR_NOT_SUPPORTED in SDK mode.
 */
doca_error_t doca_eth_txq_task_send_set_conf(struct doca_eth_txq *eth_txq,
					     doca_eth_txq_task_send_completion_cb_t task_completion_cb,
					     doca_eth_txq_task_send_completion_cb_t task_error_cb, uint32_t task_send_num);

/**
 * @brief Allocates a send task of a RUNNING CPU-data-path queue.
 * @param [in] eth_txq The queue.
 * @param [in] pkt The frame: the buffer's data (1 byte or more; Ethernet header first), its mmap
 *        registered on the queue's device. Checked when the task is submitted.
 * @param [in] user_data The task's user data.
 * @param [out] task_send The task.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE unless the queue
 *         is RUNNING with a CPU data path; DOCA_ERROR_NO_MEMORY when all tasks are allocated;
 *         DOCA_ERROR_NOT_SUPPORTED in SDK mode.
 *
 * doca_task_submit() on the task answers DOCA_ERROR_INVALID_VALUE for a missing or empty packet
 * or one whose mmap is not on the queue's device, and DOCA_ERROR_AGAIN while a ring of sends is
 * in flight.
 */
doca_error_t doca_eth_txq_task_send_allocate_init(struct doca_eth_txq *eth_txq, struct doca_buf *pkt,
						  union doca_data user_data, struct doca_eth_txq_task_send **task_send);

/** @brief The task as a doca_task (doca_task_submit, doca_task_free); NULL, logged, for NULL. */
struct doca_task *doca_eth_txq_task_send_as_doca_task(struct doca_eth_txq_task_send *task_send);

/** @brief The task's packet. @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments. */
doca_error_t doca_eth_txq_task_send_get_pkt(const struct doca_eth_txq_task_send *task_send, struct doca_buf **pkt);

/**
 * @brief Changes the task's packet (a task not in flight).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments; DOCA_ERROR_BAD_STATE for a
 *         task in flight or freed.
 */
doca_error_t doca_eth_txq_task_send_set_pkt(struct doca_eth_txq_task_send *task_send, struct doca_buf *pkt);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_TXQ_H_ */
