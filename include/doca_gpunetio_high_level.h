/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_high_level.h
 * @brief One-call creation of GPU-ready QPs: CQ, QP, UAR and queue memory placed where the device
 *        needs them, exported for device code.
 *
 * As in DOCA GPUNetIO 2.0, except that the protection domain is a `struct doca_verbs_pd` (the root
 * objects of this library's DOCA Verbs are contexts and PDs, not ibv objects; use
 * doca_verbs_bridge_verbs_pd_import() to start from an `ibv_pd`).
 */
#ifndef DOCA_GPUNETIO_HIGH_LEVEL_H
#define DOCA_GPUNETIO_HIGH_LEVEL_H

#include "doca_gpunetio.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How the queue memory of a high-level QP is registered with the NIC. */
enum doca_gpu_verbs_mem_reg_type {
	DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_DEFAULT = 0,     /**< dmabuf when possible, else peer memory. */
	DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_CUDA_DMABUF = 1, /**< dmabuf only. */
	DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_CUDA_PEERMEM = 2,/**< Peer memory (nvidia-peermem) only. */
};

/** Creation attributes of a high-level QP. */
struct doca_gpu_verbs_qp_init_attr_hl {
	struct doca_gpu *gpu_dev;                 /**< GPU (or host handle) that will run the device code. */
	struct doca_verbs_pd *verbs_pd;           /**< Protection domain; its context is the NIC. */
	uint16_t sq_nwqe;                         /**< Send queue WQEs (rounded up to a power of two). */
	enum doca_gpu_dev_verbs_nic_handler nic_handler;   /**< Who rings the doorbell. */
	enum doca_gpu_verbs_mem_reg_type mreg_type;         /**< Queue memory registration. */
	enum doca_gpu_verbs_send_dbr_mode_ext send_dbr_mode_ext; /**< Doorbell-record mode. */
	bool cq_collapsed;                        /**< Collapse the send CQ into one entry. */
	/**
	 * Receive queue WQEs for two-sided receives posted by device code (rounded up to a power of
	 * two; 0: no receive queue). The QP gets a receive CQ of its own (one entry per receive WQE)
	 * and is exported with it (opengda_gpu_verbs_export_qp_rq()). As the DOCA GPUNetIO SDK's.
	 */
	uint16_t rq_nwqe;
	/**
	 * 1: receives of up to 32 bytes are scattered into their CQE (doca_gpu_dev_verbs_cqe_is_inline,
	 * cqe_get_inl_data). Needs rq_nwqe and the device capability
	 * (doca_verbs_device_attr_get_is_cqe_inline_supported): DOCA_ERROR_NOT_SUPPORTED otherwise.
	 */
	uint8_t recv_inline;
	/* The open releases' ways of naming the PD, used when verbs_pd is NULL (docs/open-release.md). */
	struct doca_dev *net_dev;                 /**< 3.0: a device from doca_verbs_dev_open(); its PD. */
	struct ibv_pd *ibpd;                      /**< 2.0 and 3.0: an rdma-core PD (ConnectX or the rdma-core front end). */
	enum doca_verbs_qp_ordering_semantic ordering_semantic; /**< 3.0: accepted; every semantic runs in order. */
};

/** A high-level QP: the exported QP and every object it owns. */
struct doca_gpu_verbs_qp_hl {
	struct doca_verbs_qp *qp;          /**< The DOCA Verbs QP (modify it to RTS with doca_verbs_qp_modify()). */
	struct doca_verbs_cq *cq_sq;       /**< Its send CQ. */
	struct doca_gpu_verbs_qp *qp_gverbs; /**< The exported QP; doca_gpu_verbs_get_qp_dev() gives the device view. */
	enum doca_gpu_dev_verbs_nic_handler nic_handler;         /**< Handler in effect (never AUTO). */
	enum doca_gpu_verbs_send_dbr_mode_ext send_dbr_mode_ext; /**< Doorbell-record mode in effect. */
	struct doca_verbs_cq *cq_rq;       /**< Its receive CQ (rq_nwqe > 0), else NULL. */
	void *priv;                        /**< Library-owned resources; do not touch. */
};

/** A main QP and its core-direct companion (posts WAIT + counter atomics for the *_counter calls). */
struct doca_gpu_verbs_qp_group_hl {
	struct doca_gpu_verbs_qp_hl qp_main;      /**< Data QP. */
	struct doca_gpu_verbs_qp_hl qp_companion; /**< Counter QP; connect it to the same peer. */
};

/**
 * @brief Creates CQ, UAR, queue memory and QP as the device needs them, and exports the QP.
 * @return DOCA_ERROR_INVALID_VALUE (bad attributes), DOCA_ERROR_NOT_SUPPORTED (handler or mode the
 *         device cannot do), DOCA_ERROR_NO_MEMORY, DOCA_ERROR_DRIVER.
 */
doca_error_t doca_gpu_verbs_create_qp_hl(struct doca_gpu_verbs_qp_init_attr_hl *qp_init_attr,
					 struct doca_gpu_verbs_qp_hl **qp);

/** @brief Destroys a high-level QP and everything it owns. */
doca_error_t doca_gpu_verbs_destroy_qp_hl(struct doca_gpu_verbs_qp_hl *qp);

/** @brief Creates a main QP and a companion QP (core-direct master) sharing one UAR. */
doca_error_t doca_gpu_verbs_create_qp_group_hl(struct doca_gpu_verbs_qp_init_attr_hl *qp_init_attr,
					       struct doca_gpu_verbs_qp_group_hl **qpg);

/** @brief Destroys a QP group. */
doca_error_t doca_gpu_verbs_destroy_qp_group_hl(struct doca_gpu_verbs_qp_group_hl *qpg);

/**
 * @brief Lays the device QPs of @p qp_list out as one device array (see
 *        doca_gpu_verbs_export_multi_qps_dev()).
 */
doca_error_t doca_gpu_verbs_qp_flat_list_create_hl(struct doca_gpu_verbs_qp_hl **qp_list, uint32_t num_elems,
						   struct doca_gpu_dev_verbs_qp **qp_gpus);

/** @brief Frees an array from doca_gpu_verbs_qp_flat_list_create_hl(). */
doca_error_t doca_gpu_verbs_qp_flat_list_destroy_hl(struct doca_gpu_dev_verbs_qp *qp_gpus);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_GPUNETIO_HIGH_LEVEL_H */
