/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file opengda_gpunetio.h
 * @brief OpenGDA extensions of the GPUNetIO host API (functions DOCA does not define).
 */
#ifndef OPENGDA_GPUNETIO_H
#define OPENGDA_GPUNETIO_H

#include "doca_gpunetio.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief A handle whose "GPU" is the host CPU: the device data path runs on host threads.
 *
 * doca_gpu_mem_alloc() returns host memory (GPU and CPU pointers equal) for every type, exports
 * place device QPs in host memory and doorbells are written from the CPU. Works without a CUDA
 * driver; this is how tests and examples run on machines without a GPU.
 *
 * @return DOCA_ERROR_INVALID_VALUE for NULL, DOCA_ERROR_NO_MEMORY.
 */
doca_error_t opengda_gpu_create_host(struct doca_gpu **gpu_dev);

/** What doca_gpu_create() found out about a GPU. */
struct opengda_gpu_info {
	bool is_host;               /**< A host handle (opengda_gpu_create_host()). */
	int ordinal;                /**< CUDA device ordinal; -1 for a host handle. */
	char name[96];              /**< Device name ("host" for a host handle). */
	char pci_bus_id[32];        /**< Normalised PCIe address ("" for a host handle). */
	int cc_major;               /**< Compute capability, major (0 for a host handle). */
	int cc_minor;               /**< Compute capability, minor. */
	bool dmabuf_supported;      /**< CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED. */
	bool rdma_writes_ordered;   /**< GPUDirect RDMA writes are ordered to the GPU's own scope or wider. */
	bool gdrcopy;               /**< GDRCopy (libgdrapi.so.2 and /dev/gdrdrv) is usable. */
	size_t total_mem;           /**< Device memory in bytes. */
};

/** @brief Fills @p info for @p gpu_dev. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t opengda_gpu_get_info(const struct doca_gpu *gpu_dev, struct opengda_gpu_info *info);

/**
 * @brief doca_gpu_verbs_export_qp() with the receive side: also exports @p qp's receive queue and
 *        its receive CQ @p cq_rq (the DOCA GPUNetIO SDK's `cq_rq` argument), so device code posts
 *        receives (doca_gpu_dev_verbs_recv*) and waits for them (recv_wait). The SDK's
 *        export_qp has another argument list than the open release's, which this library keeps;
 *        doca_gpu_verbs_export_qp() takes the receive CQ along by itself when the QP has a
 *        receive queue of its own completing to a CQ of its own that fits.
 *
 * @p cq_rq must be the QP's receive CQ, not its send CQ, not collapsed, with 64-byte CQEs and at
 * least one entry per receive WQE (of its RQ, or of its SRQ); the QP must have a receive queue of
 * its own with nothing posted yet, or be on an SRQ (then only the receive CQ is exported: device
 * code refills the SRQ through opengda_gpu_verbs_export_srq()). Receives are 16-byte WQEs of one data segment (entries of QPs created with more
 * receive SGEs are terminated after the first). While exported, @p cq_rq refuses destruction.
 * @return DOCA_ERROR_INVALID_VALUE (NULL, or a CQ or QP that does not fit, with a log line), and
 *         doca_gpu_verbs_export_qp()'s errors.
 */
doca_error_t opengda_gpu_verbs_export_qp_rq(struct doca_gpu *gpu_dev, struct doca_verbs_qp *qp,
					    enum doca_gpu_dev_verbs_nic_handler nic_handler, struct doca_verbs_cq *cq_sq,
					    struct doca_verbs_cq *cq_rq,
					    enum doca_gpu_verbs_send_dbr_mode_ext send_dbr_mode_ext,
					    struct doca_gpu_verbs_qp **qp_out);

/** A contiguous SRQ exported to device code (opengda_gpu_verbs_export_srq). */
struct opengda_gpu_verbs_srq;
struct doca_verbs_srq;
struct opengda_gpu_dev_verbs_srq;

/**
 * @brief Exports a CONTIGUOUS SRQ so that device code refills it (opengda_gpu_dev_verbs_srq_* in
 *        doca_gpunetio_dev_verbs_twosided.cuh; the DOCA SDK has no GPU-side SRQ). QPs created on
 *        the SRQ consume its receives and complete them on their own receive CQs: export each
 *        with opengda_gpu_verbs_export_qp_rq() to poll them from device code.
 *
 * Device code cannot see which SRQ slots the NIC has consumed (completions land on several
 * CQs), so it must refill a slot only after consuming the completion of the receive the slot
 * held (the CQE's wqe_counter is the slot's index). The SRQ must be fresh. While exported, the
 * SRQ counts one more user: doca_verbs_srq_destroy() refuses with DOCA_ERROR_IN_USE.
 * @return DOCA_ERROR_INVALID_VALUE (NULL, SRQ with receives posted), DOCA_ERROR_NOT_SUPPORTED
 *         (linked-list SRQ), DOCA_ERROR_NO_MEMORY, or a mapping error.
 */
doca_error_t opengda_gpu_verbs_export_srq(struct doca_gpu *gpu_dev, struct doca_verbs_srq *srq,
					  struct opengda_gpu_verbs_srq **srq_out);

/**
 * @brief Bounds the waits of device code on @p srq (publishing in order, the record lock); call
 *        before opengda_gpu_verbs_get_srq_dev(). @return DOCA_ERROR_INVALID_VALUE for NULL,
 *        DOCA_ERROR_BAD_STATE once the device view exists.
 */
doca_error_t opengda_gpu_verbs_srq_set_wait_timeout(struct opengda_gpu_verbs_srq *srq, uint64_t timeout_ns);

/** @brief The device view of @p srq to pass to kernels. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t opengda_gpu_verbs_get_srq_dev(struct opengda_gpu_verbs_srq *srq,
					   struct opengda_gpu_dev_verbs_srq **srq_dev);

/** @brief Undoes opengda_gpu_verbs_export_srq(). @return DOCA_ERROR_INVALID_VALUE for NULL or another GPU. */
doca_error_t opengda_gpu_verbs_unexport_srq(struct doca_gpu *gpu_dev, struct opengda_gpu_verbs_srq *srq);

/**
 * @brief Bounds every wait of device code on @p qp (poll_cq_at, wait, get_wait, slot availability):
 *        after @p timeout_ns nanoseconds it returns -ETIMEDOUT instead of waiting on. 0 (the
 *        default) waits for ever, as DOCA does. Applies to device views obtained afterwards
 *        (call it before doca_gpu_verbs_get_qp_dev() or export_multi_qps_dev()).
 * @return DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t opengda_gpu_verbs_qp_set_wait_timeout(struct doca_gpu_verbs_qp *qp, uint64_t timeout_ns);

/** @brief The handler an exported QP uses (AUTO resolved). @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t opengda_gpu_verbs_qp_get_nic_handler(const struct doca_gpu_verbs_qp *qp,
						  enum doca_gpu_dev_verbs_nic_handler *nic_handler);

/** @brief The DOCA Verbs QP behind an exported QP. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t opengda_gpu_verbs_qp_get_verbs_qp(const struct doca_gpu_verbs_qp *qp, struct doca_verbs_qp **verbs_qp);

/**
 * @brief Whether the library started a proxy service for @p qp itself (AUTO fell back to the CPU
 *        proxy, or NO_DBR_SW_EMULATED). Such a service stops when the QP is unexported.
 */
doca_error_t opengda_gpu_verbs_qp_has_own_service(const struct doca_gpu_verbs_qp *qp, bool *has_service);

#ifdef __cplusplus
}
#endif

#endif /* OPENGDA_GPUNETIO_H */
