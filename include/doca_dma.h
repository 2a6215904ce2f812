/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_dma.h
 * @brief DOCA DMA: a context that copies between buffers, with a GPU data path (CUDA kernels or
 *        host threads copy between doca_buf_arr elements, doca_gpunetio_dev_dma.cuh) or a CPU
 *        data path (memcpy tasks between doca_bufs, completed through doca_pe_progress()).
 *
 * Names as in DOCA. The copy engine is the NIC's: the context owns an RC QP connected to itself
 * (DOCA Verbs objects on the device's protection domain), and a copy is an RDMA WRITE from the
 * source to the destination, so any mlx5 NIC (and the software NIC) does it, not only a
 * BlueField. Consequences, also in docs/dma.md and docs/compatibility.md:
 * - the destination's mmap must grant DOCA_ACCESS_FLAG_RDMA_WRITE (the write enters through the
 *   responder side); without it the copy completes with a remote-access error;
 * - source and destination must be mmaps started on the context's device.
 *
 * Data paths. With doca_ctx_set_datapath_on_gpu() (a GPU, or a host handle from
 * opengda_gpu_create_host() for host threads), start builds the QP for that executor and
 * doca_dma_get_gpu_handle() gives its device handle. Without one, the context runs CPU tasks:
 * configure them (doca_dma_task_memcpy_set_conf()), connect the context to a progress engine
 * (doca_pe_connect_ctx()), start; then doca_dma_task_memcpy_alloc_init(), doca_task_submit()
 * and doca_pe_progress(), which runs the completion or error callback on its thread. A task
 * copies its source's data segment to its destination's tail (after its data segment), whose
 * data length then grows by the bytes copied. doca_ctx_stop() with tasks allocated answers
 * DOCA_ERROR_IN_PROGRESS: the context is STOPPING, its tasks in flight complete (callbacks run),
 * and it becomes IDLE in doca_pe_progress() once every task is freed.
 */
#ifndef DOCA_DMA_H_
#define DOCA_DMA_H_

#include <stdint.h>

#include "doca_buf.h"
#include "doca_ctx.h"
#include "doca_error.h"
#include "doca_pe.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_ctx;
struct doca_dma;
struct doca_gpu_dma;
/** @brief A DMA memcpy task (CPU data path). */
struct doca_dma_task_memcpy;

/**
 * @brief The completion (and error) callback of memcpy tasks: runs in doca_pe_progress(), with
 *        the task the application's again (submit it anew, free it, or keep it). Do not call
 *        doca_pe_progress() from it.
 * @param task            The task; doca_task_get_status() on doca_dma_task_memcpy_as_task(task)
 *                        gives its outcome (DOCA_ERROR_IO_FAILED for an error completion of the
 *                        NIC, DOCA_ERROR_TIME_OUT for a task a stop gave up on).
 * @param task_user_data  What the task was allocated with.
 * @param ctx_user_data   What doca_ctx_set_user_data() set.
 */
typedef void (*doca_dma_task_memcpy_completion_cb_t)(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
						     union doca_data ctx_user_data);

/** Largest number of copies in flight OpenGDA lets a doca_dma queue hold. */
#define OPENGDA_DMA_MAX_QUEUE_SIZE 32768u
/** Copies in flight by default. */
#define OPENGDA_DMA_DEFAULT_QUEUE_SIZE 1024u
/** Default bound of every device-side wait of a doca_dma: 10 s. */
#define OPENGDA_DMA_DEFAULT_WAIT_TIMEOUT_NS 10000000000ull

/**
 * @brief Creates a DMA context on @p dev (from doca_dev_open() or doca_verbs_dev_open()).
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_dma_create(struct doca_dev *dev, struct doca_dma **dma);

/**
 * @brief Destroys a DMA context. @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE
 *        unless it is IDLE (doca_ctx_stop first, and for a STOPPING one, let it drain).
 */
doca_error_t doca_dma_destroy(struct doca_dma *dma);

/** @brief The context of @p dma (doca_ctx_start / _stop / _set_datapath_on_gpu); NULL for NULL. */
struct doca_ctx *doca_dma_as_ctx(struct doca_dma *dma);

/**
 * @brief The device handle for doca_gpu_dev_dma_memcpy(): in GPU memory for a GPU, in host
 *        memory for a host handle.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE before start or without a GPU
 *         data path.
 */
doca_error_t doca_dma_get_gpu_handle(struct doca_dma *dma, struct doca_gpu_dma **dma_gpu);

/**
 * @brief Bytes one queue entry copies at most (1 GiB, the NIC's largest message);
 *        doca_gpu_dev_dma_memcpy splits a larger copy over several entries.
 * @return DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_dma_cap_task_memcpy_get_max_buf_size(const struct doca_devinfo *devinfo, uint64_t *max_buf_size);

/**
 * @brief Whether @p devinfo can run a DMA context, either data path (every mlx5 device and the
 *        software NIC: DOCA_SUCCESS). @return DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_dma_cap_task_memcpy_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The most memcpy tasks doca_dma_task_memcpy_set_conf() accepts (OPENGDA_DMA_MAX_QUEUE_SIZE).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_dma_cap_get_max_num_tasks(struct doca_dma *dma, uint32_t *max_num_tasks);

/**
 * @brief Configures CPU memcpy tasks (IDLE only): both callbacks and how many tasks may exist at
 *        once (allocated, in flight included). A context so configured and without a GPU data
 *        path starts with a CPU data path (connect it to a progress engine first).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL (callbacks included) or
 *         @p num_memcpy_tasks outside 1..OPENGDA_DMA_MAX_QUEUE_SIZE; DOCA_ERROR_BAD_STATE when
 *         not IDLE.
 */
doca_error_t doca_dma_task_memcpy_set_conf(struct doca_dma *dma,
					   doca_dma_task_memcpy_completion_cb_t task_completion_cb,
					   doca_dma_task_memcpy_completion_cb_t task_error_cb, uint32_t num_memcpy_tasks);

/**
 * @brief Allocates a memcpy task of a RUNNING context with a CPU data path. @p src and @p dst
 *        are checked when it is submitted (doca_task_submit(): a source data segment of at most
 *        1 GiB that fits the destination's tail, both buffers of mmaps registered on the
 *        context's device; DOCA_ERROR_INVALID_VALUE otherwise).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL @p dma or @p task;
 *         DOCA_ERROR_BAD_STATE when the context is not RUNNING with a CPU data path;
 *         DOCA_ERROR_NO_MEMORY when num_memcpy_tasks tasks are allocated already.
 */
doca_error_t doca_dma_task_memcpy_alloc_init(struct doca_dma *dma, const struct doca_buf *src, struct doca_buf *dst,
					     union doca_data user_data, struct doca_dma_task_memcpy **task);

/** @brief The task as a generic task (doca_task_submit(), doca_task_free()); NULL for NULL. */
struct doca_task *doca_dma_task_memcpy_as_task(struct doca_dma_task_memcpy *task);

/** @brief Sets the task's source (checked at submit; NULL task: logged, nothing done). */
void doca_dma_task_memcpy_set_src(struct doca_dma_task_memcpy *task, const struct doca_buf *src);

/** @brief The task's source (NULL for NULL). */
const struct doca_buf *doca_dma_task_memcpy_get_src(const struct doca_dma_task_memcpy *task);

/** @brief Sets the task's destination (checked at submit; NULL task: logged, nothing done). */
void doca_dma_task_memcpy_set_dst(struct doca_dma_task_memcpy *task, struct doca_buf *dst);

/** @brief The task's destination (NULL for NULL). */
struct doca_buf *doca_dma_task_memcpy_get_dst(const struct doca_dma_task_memcpy *task);

/**
 * @brief OpenGDA: copies that may be in flight at once (WQEBBs of the QP; rounded up to a power
 *        of two; default OPENGDA_DMA_DEFAULT_QUEUE_SIZE). Device code must commit at least every
 *        this many enqueued copies. @return DOCA_ERROR_INVALID_VALUE (NULL, 0 or above
 *        OPENGDA_DMA_MAX_QUEUE_SIZE); DOCA_ERROR_BAD_STATE when running.
 */
doca_error_t opengda_dma_set_queue_size(struct doca_dma *dma, uint32_t num_copies);

/**
 * @brief OpenGDA: bound of every device-side wait (free queue slots, opengda_gpu_dev_dma_wait);
 *        0 waits for ever. Default OPENGDA_DMA_DEFAULT_WAIT_TIMEOUT_NS.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when running.
 */
doca_error_t opengda_dma_set_wait_timeout(struct doca_dma *dma, uint64_t timeout_ns);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_DMA_H_ */
