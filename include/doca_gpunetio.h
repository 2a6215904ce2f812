/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio.h
 * @brief DOCA GPUNetIO host API: the GPU handle, GPU-reachable memory, exporting DOCA Verbs QPs to
 *        device code, the CPU proxy and the QP error and reset functions.
 *
 * Names, enum values and signatures follow DOCA GPUNetIO 2.0. The CUDA driver is loaded at run time;
 * without it, doca_gpu_create() fails with DOCA_ERROR_NOT_FOUND and opengda_gpu_create_host()
 * (opengda_gpunetio.h) gives a handle whose "device" is the host CPU, so the same device data path
 * runs on host threads. Every function returns DOCA_SUCCESS or a documented error and logs why.
 */
#ifndef DOCA_GPUNETIO_H
#define DOCA_GPUNETIO_H

#include "doca_error.h"
#include "doca_gpunetio_verbs_def.h"
#include "doca_verbs.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu;              /**< A GPU (or the host, see opengda_gpu_create_host()). */
typedef struct doca_gpu doca_gpu_t; /**< The open release 3.0's name of a struct doca_gpu handle. */
struct doca_gpu_verbs_qp;     /**< A QP exported for device code. */
struct doca_gpu_dev_verbs_qp; /**< The device view of an exported QP (doca_gpunetio_verbs_dev.h). */

/** Memory kinds of doca_gpu_mem_alloc(). */
enum doca_gpu_mem_type {
	DOCA_GPU_MEM_TYPE_GPU = 0,     /**< GPU memory; no CPU pointer. */
	DOCA_GPU_MEM_TYPE_GPU_CPU = 1, /**< GPU memory the CPU can also reach (GDRCopy; else see docs). */
	DOCA_GPU_MEM_TYPE_CPU_GPU = 2, /**< Pinned host memory mapped for the GPU. */
};

/** The last error of an exported QP, from doca_gpu_verbs_query_last_error(). */
struct doca_gpu_verbs_qp_error_info {
	bool has_error;      /**< The QP is in the error state or its CQ holds an error completion. */
	int syndrome;        /**< Syndrome of the first error completion (mlx5 CQE syndrome), 0 if none. */
	int vendor_err_synd; /**< Vendor syndrome of that completion. */
	int hw_err_synd;     /**< Hardware syndrome of that completion. */
	int hw_synd_type;    /**< Hardware syndrome type of that completion. */
	int wqe_counter;     /**< WQE index (16 bits) of the failing WQE, -1 if none. */
};

/** A CPU service thread that drives exported QPs (CPU proxy and emulated DBR-less modes). */
typedef void *doca_gpu_verbs_service_t;

/**
 * @brief Opens the GPU at @p gpu_bus_id through the CUDA driver and probes what it can do:
 *        dmabuf export, GPUDirect RDMA write ordering, compute capability.
 * @param [in]  gpu_bus_id PCIe address, e.g. "0000:17:00.0" (the domain may be omitted).
 * @param [out] gpu_dev    The handle.
 * @return DOCA_ERROR_INVALID_VALUE (NULL argument), DOCA_ERROR_NOT_FOUND (no CUDA driver, or no GPU at
 *         that address), DOCA_ERROR_DRIVER (the driver refused), DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_gpu_create(const char *gpu_bus_id, struct doca_gpu **gpu_dev);

/**
 * @brief Releases a handle.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_IN_USE while memory or exported QPs remain.
 */
doca_error_t doca_gpu_destroy(struct doca_gpu *gpu_dev);

/**
 * @brief Allocates memory of kind @p mtype, aligned to exactly @p alignment.
 * @param [in]  alignment  A power of two, or 0 for the host page size.
 * @param [out] memptr_gpu Address for device code (always set on success).
 * @param [out] memptr_cpu Address for the CPU (NULL for DOCA_GPU_MEM_TYPE_GPU); may be NULL for GPU.
 * @return DOCA_ERROR_INVALID_VALUE (bad argument), DOCA_ERROR_NO_MEMORY, DOCA_ERROR_DRIVER.
 */
doca_error_t doca_gpu_mem_alloc(struct doca_gpu *gpu_dev, size_t size, size_t alignment, enum doca_gpu_mem_type mtype,
				void **memptr_gpu, void **memptr_cpu);

/**
 * @brief Frees memory from doca_gpu_mem_alloc(), given its GPU address.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NOT_FOUND for an address it did not allocate.
 */
doca_error_t doca_gpu_mem_free(struct doca_gpu *gpu_dev, void *memptr_gpu);

/**
 * @brief Exports GPU memory as a dmabuf file descriptor (for memory registration). The caller closes it.
 * @return DOCA_ERROR_NOT_SUPPORTED when the GPU, driver or kernel cannot export dmabufs (and on a
 *         host handle), DOCA_ERROR_INVALID_VALUE for bad arguments.
 */
doca_error_t doca_gpu_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size, int *dmabuf_fd);
/** @brief The open release 3.0's name of doca_gpu_dmabuf_fd(). @return as doca_gpu_dmabuf_fd(). */
doca_error_t doca_gpu_get_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size, int *dmabuf_fd);

/**
 * @brief Whether the GPU can map the doorbell register at @p db (tries a mapping and undoes it).
 * @return DOCA_ERROR_INVALID_VALUE for NULL arguments. No CUDA driver: *out_can_register = false.
 */
doca_error_t doca_gpu_verbs_can_gpu_register_uar(void *db, bool *out_can_register);

/**
 * @brief Maps the doorbell register at @p sq_db for the GPU; reference-counted per address.
 * @return DOCA_ERROR_DRIVER when the mapping fails, DOCA_ERROR_NOT_FOUND without a CUDA driver.
 */
doca_error_t doca_gpu_verbs_export_uar(uint64_t *sq_db, uint64_t **uar_addr_gpu);

/**
 * @brief Drops one reference on a doorbell mapping from doca_gpu_verbs_export_uar().
 * @return DOCA_ERROR_NOT_FOUND for an address that is not mapped.
 */
doca_error_t doca_gpu_verbs_unexport_uar(uint64_t *uar_addr_gpu);

/**
 * @brief Exports @p qp (and its send CQ @p cq_sq) for device code.
 *
 * Resolves @p nic_handler (AUTO: GPU doorbells when the GPU can map the UAR, else the CPU proxy,
 * whose service the library then starts itself), maps the queues for the executing threads, and
 * builds the device QP. The QP must have been created with a send queue and @p cq_sq as its send CQ.
 *
 * @param [in] gpu_qp_umem_dev_ptr Accepted for compatibility; unused (the QP knows its memory).
 * @param [in] send_dbr_mode_ext   Must match the QP's send-DBR mode (NO_DBR_HW needs a DBR-less QP).
 * @return DOCA_ERROR_INVALID_VALUE (bad argument, CQ not the QP's send CQ, handler/mode mismatch),
 *         DOCA_ERROR_NOT_SUPPORTED (handler the device or GPU cannot do), DOCA_ERROR_NO_MEMORY,
 *         DOCA_ERROR_DRIVER.
 */
doca_error_t doca_gpu_verbs_export_qp(struct doca_gpu *gpu_dev, struct doca_verbs_qp *qp,
				      enum doca_gpu_dev_verbs_nic_handler nic_handler, void *gpu_qp_umem_dev_ptr,
				      struct doca_verbs_cq *cq_sq, enum doca_gpu_verbs_send_dbr_mode_ext send_dbr_mode_ext,
				      struct doca_gpu_verbs_qp **qp_out);

/**
 * @brief Builds the device QP of a QP created outside DOCA Verbs from its raw fields (DOCA GPUNetIO
 *        SDK). Every address must be the one the executing threads use (GPU memory, or host memory
 *        mapped for them); nothing is mapped. The GPU rings the doorbell @p sq_db itself: handler
 *        AUTO (GPU_SM_DB, or GPU_SM_NO_DBR for NO_DBR_HW), GPU_SM_DB, GPU_SM_BF or GPU_SM_NO_DBR;
 *        CPU_PROXY and NO_DBR_SW_EMULATED need the CPU side of the QP and are refused.
 *
 * @param sq_qpn, sq_wqe_addr, sq_wqe_num, sq_dbrec, sq_db, uar_size  send queue: QP number, ring
 *        of sq_wqe_num 64-byte WQEBBs (a power of two), send doorbell-record word (DBR + 4; NULL
 *        with NO_DBR_HW), doorbell register, size of the UAR mapping (not used).
 * @param sq_cqn, sq_cqe_addr, sq_cqe_num, sq_cq_dbrec  send CQ of 64-byte CQEs, at least one per WQEBB.
 * @param rq_qpn, rq_wqe_addr, rq_wqe_num, rq_dbrec, rcv_wqe_size  receive queue (rq_wqe_num 0:
 *        none): ring, receive doorbell-record word (DBR + 0), bytes per receive WQE (typically 16).
 * @param rq_cqn, rq_cqe_addr, rq_cqe_num, rq_cq_dbrec  receive CQ, at least one CQE per receive WQE.
 * @return DOCA_ERROR_INVALID_VALUE (NULL, sizes that are not powers of two, CQs too small),
 *         DOCA_ERROR_NOT_SUPPORTED (CPU proxy, emulated DBR-less mode), DOCA_ERROR_NO_MEMORY.
 *         Undo with doca_gpu_verbs_unexport_qp(); query_last_error and reset_tracking_and_memory
 *         answer DOCA_ERROR_NOT_SUPPORTED for a bridged QP.
 */
doca_error_t doca_gpu_verbs_bridge_export_qp(struct doca_gpu *gpu_dev, uint32_t sq_qpn, void *sq_wqe_addr,
					     uint32_t sq_wqe_num, uint32_t *sq_dbrec, uint64_t *sq_db, size_t uar_size,
					     uint32_t sq_cqn, void *sq_cqe_addr, uint32_t sq_cqe_num,
					     uint32_t *sq_cq_dbrec, uint32_t rq_qpn, void *rq_wqe_addr,
					     uint32_t rq_wqe_num, uint32_t *rq_dbrec, uint32_t rcv_wqe_size,
					     uint32_t rq_cqn, void *rq_cqe_addr, uint32_t rq_cqe_num,
					     uint32_t *rq_cq_dbrec, enum doca_gpu_dev_verbs_nic_handler nic_handler,
					     uint8_t send_dbr_mode_ext, struct doca_gpu_verbs_qp **qp_out);

/** @brief Undoes doca_gpu_verbs_export_qp(). @return DOCA_ERROR_INVALID_VALUE for NULL or a foreign QP. */
doca_error_t doca_gpu_verbs_unexport_qp(struct doca_gpu *gpu_dev, struct doca_gpu_verbs_qp *qp);

/**
 * @brief The device QP to pass to kernels (GPU memory; host memory on a host handle).
 * @return DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_gpu_verbs_get_qp_dev(struct doca_gpu_verbs_qp *qp, struct doca_gpu_dev_verbs_qp **qp_gpu);

/**
 * @brief Lays the device QPs of @p qps out as one array (qp_gpus[i] is QP i) in device memory.
 * @return DOCA_ERROR_INVALID_VALUE (NULL, n == 0, QPs of another GPU), DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_gpu_verbs_export_multi_qps_dev(struct doca_gpu *gpu_dev, struct doca_gpu_verbs_qp **qps, uint32_t n,
						 struct doca_gpu_dev_verbs_qp **qp_gpus);

/** @brief Frees an array from doca_gpu_verbs_export_multi_qps_dev(). */
doca_error_t doca_gpu_verbs_unexport_multi_qps_dev(struct doca_gpu *gpu_dev, struct doca_gpu_verbs_qp **qps, uint32_t n,
						   struct doca_gpu_dev_verbs_qp *qp_gpus);

/**
 * @brief One step of the CPU proxy for @p qp: rings the doorbell for work the device published
 *        (CPU_PROXY), or brings the doorbell record up to date (NO_DBR_SW_EMULATED).
 * @param [out] out_progressed Optional: set to whether anything was rung.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NOT_SUPPORTED for a QP that needs no proxy.
 */
doca_error_t doca_gpu_verbs_cpu_proxy_progress(struct doca_gpu_verbs_qp *qp, bool *out_progressed);

/** @brief Starts a service thread (CPU proxy for the QPs it monitors). */
doca_error_t doca_gpu_verbs_create_service(doca_gpu_verbs_service_t *out_service);

/**
 * @brief Adds @p qp to the QPs @p service drives.
 * @return DOCA_ERROR_INVALID_VALUE (NULL), DOCA_ERROR_ALREADY_EXIST (already monitored),
 *         DOCA_ERROR_NOT_SUPPORTED (a QP that needs no proxy).
 */
doca_error_t doca_gpu_verbs_service_monitor_qp(doca_gpu_verbs_service_t service, struct doca_gpu_verbs_qp *qp);

/** @brief Stops and frees a service thread. */
doca_error_t doca_gpu_verbs_destroy_service(doca_gpu_verbs_service_t service);

/**
 * @brief Reports the QP's first error: its state (QUERY_QP) and the syndrome and WQE index of the
 *        first error completion in its send CQ.
 */
doca_error_t doca_gpu_verbs_query_last_error(struct doca_gpu_verbs_qp *qp, struct doca_gpu_verbs_qp_error_info *error_info);

/**
 * @brief Resets the device view after the QP went through RESET and back to RTS: indices to zero,
 *        ring and readiness cleared, CQEs invalidated. No kernel may use the QP meanwhile.
 *        DOCA_ERROR_NOT_SUPPORTED for a QP exported with its receive queue (unexport and export it
 *        again) and for a bridged QP.
 */
doca_error_t doca_gpu_verbs_reset_tracking_and_memory(struct doca_gpu_verbs_qp *qp);

/** @brief The library's version, DOCA_GPUNETIO_MAKE_VERSION(major, minor, patch). */
doca_error_t doca_gpu_verbs_get_library_version(uint32_t *version);

/**
 * @brief Checks that device code compiled against @p device_code_version (DOCA_GPUNETIO_DEVICE_CODE_VERSION)
 *        works with this library. @return DOCA_ERROR_NOT_SUPPORTED when it does not.
 */
doca_error_t doca_gpu_verbs_check_device_code_compatibility(uint32_t device_code_version);

/** @brief As doca_gpu_verbs_check_device_code_compatibility(), for host code. */
doca_error_t doca_gpu_verbs_check_host_code_compatibility(uint32_t host_code_version);

#ifdef __cplusplus
}
#endif

/* Semaphores: DOCA declares them here; they need enum doca_gpu_mem_type above. */
#include "doca_gpunetio_semaphore.h"

#endif /* DOCA_GPUNETIO_H */
