/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_verbs_cq.cuh
 * @brief DOCA GPUNetIO device API: completion polling, over the C core (ogda_dev_cq.h).
 *
 * Return values (deliberately richer than DOCA's 0 / EBUSY / -EIO, still negative on error):
 * 0 done; EBUSY not yet (poll_one only); OPENGDA_DEV_CQE_ERROR(syndrome) for an error CQE
 * (requester or responder; test with OPENGDA_DEV_IS_CQE_ERROR, read the syndrome with
 * OPENGDA_DEV_CQE_ERROR_SYNDROME); -OPENGDA_DEV_ETIMEDOUT when the CQ's wait bound
 * (ogda_wait_timeout_ns, set on the host) passed. Waits never spin without that bound when one
 * is set. cq_print_cqe_err is always compiled (DOCA only with DOCA_GPUNETIO_VERBS_ENABLE_DEBUG).
 * The two-sided additions (qp_get_cq_rq, poll_cq with a CQE pointer, cqe_is_inline,
 * cqe_get_bytes, cqe_get_inl_data) are the DOCA GPUNetIO SDK's; opengda_gpu_dev_verbs_cqe_get_imm
 * is OpenGDA's.
 *
 * C++17, device code only.
 */
#ifndef DOCA_GPUNETIO_DEV_VERBS_CQ_CUH
#define DOCA_GPUNETIO_DEV_VERBS_CQ_CUH

#include "doca_gpunetio_dev_verbs_common.cuh"
#include "ogda_dev_cq.h"

/**
 * The mlx5 64-byte CQE, as rdma-core's <infiniband/mlx5dv.h> declares it (the DOCA SDK's CQE
 * functions take it). Declared, not defined: kernels that read its fields include mlx5dv.h; the
 * helpers below read the bytes themselves.
 */
struct mlx5_cqe64;

/** The send CQ of @p qp. */
__device__ static __forceinline__ struct doca_gpu_dev_verbs_cq *
doca_gpu_dev_verbs_qp_get_cq_sq(struct doca_gpu_dev_verbs_qp *qp)
{
	return &qp->cq_sq;
}

/** The receive CQ of @p qp (two-sided; zeroed when the QP was exported without one). */
__device__ static __forceinline__ struct doca_gpu_dev_verbs_cq *
doca_gpu_dev_verbs_qp_get_cq_rq(struct doca_gpu_dev_verbs_qp *qp)
{
	return &qp->cq_rq;
}

/** (cqe_idx + increment) within the 24-bit CQ consumer-index space. */
__device__ static __forceinline__ uint32_t doca_gpu_dev_verbs_cqe_idx_inc_mask(uint32_t cqe_idx, uint32_t increment)
{
	return (cqe_idx + increment) & DOCA_GPUNETIO_VERBS_CQE_CI_MASK;
}

/** Prints the fields of an error CQE (any pointer to its 64 bytes). */
__device__ static __forceinline__ void doca_gpu_dev_verbs_cq_print_cqe_err(const void *cqe64)
{
	const uint8_t *c = (const uint8_t *)cqe64;

	printf("OpenGDA: completion with error: syndrome=%#x vendor_err_synd=%#x hw_err_synd=%#x "
	       "hw_synd_type=%#x wqe_counter=%u opcode=%u\n",
	       c[OPENGDA_MLX5_ERR_CQE_SYNDROME], c[OPENGDA_MLX5_ERR_CQE_VENDOR_ERR_SYND],
	       c[OPENGDA_MLX5_ERR_CQE_HW_ERR_SYND], c[OPENGDA_MLX5_ERR_CQE_HW_SYND_TYPE],
	       (unsigned int)(((unsigned int)c[60] << 8) | c[61]), (unsigned int)(c[63] >> 4));
}

/** Whether CQE index @p cons_index has arrived, without waiting: 0, EBUSY or an error. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ int doca_gpu_dev_verbs_poll_one_cq_at(struct doca_gpu_dev_verbs_cq *cq,
									uint64_t cons_index)
{
	return ogda_dev_cq_poll_one_at(cq, cons_index, (int)resource_sharing_mode);
}

/** Waits for CQE index @p cons_index (a non-collapsed CQ): 0 or an error. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ int doca_gpu_dev_verbs_poll_cq_at(struct doca_gpu_dev_verbs_cq *cq,
								    uint64_t cons_index)
{
	return ogda_dev_cq_poll_at(cq, cons_index, (int)resource_sharing_mode);
}

/** Waits for WQE @p cons_index of @p qp on its collapsed send CQ: 0 or an error. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ int doca_gpu_dev_verbs_poll_cq_collapsed_at(struct doca_gpu_dev_verbs_qp *qp,
									      uint64_t cons_index)
{
	return ogda_dev_cq_poll_collapsed_at(qp, cons_index, (int)resource_sharing_mode);
}

/** Waits for the next @p count completions after the consumer index: 0 or an error. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ>
__device__ static __forceinline__ int doca_gpu_dev_verbs_poll_cq(struct doca_gpu_dev_verbs_cq *cq, uint32_t count)
{
	if (count == 0)
		return 0;
	return ogda_dev_cq_poll_at(cq, ogda_dev_load_relaxed_u64(&cq->cqe_ci) + count - 1, (int)resource_sharing_mode);
}

/**
 * Waits for (BLOCKING_MODE_ENABLED) or looks once for CQE index @p cons_index and returns a
 * pointer to it in @p cqe (also for an error CQE; not on EBUSY or a timeout). qp_type selects
 * nothing here: receive and send CQs are polled alike, RESP_ERR and REQ_ERR both return
 * OPENGDA_DEV_CQE_ERROR(syndrome).
 */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode =
		  DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_qp_type qp_type = DOCA_GPUNETIO_VERBS_QP_SQ,
	  enum doca_gpu_dev_verbs_blocking_mode blocking_mode = DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED>
__device__ static __forceinline__ int doca_gpu_dev_verbs_poll_cq(struct doca_gpu_dev_verbs_cq *cq, uint64_t cons_index,
								 struct mlx5_cqe64 **cqe)
{
	int rc = blocking_mode == DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED
			 ? ogda_dev_cq_poll_at(cq, cons_index, (int)resource_sharing_mode)
			 : ogda_dev_cq_poll_one_at(cq, cons_index, (int)resource_sharing_mode);

	if (cqe != nullptr && rc != OPENGDA_DEV_EBUSY && rc != -OPENGDA_DEV_ETIMEDOUT)
		*cqe = (struct mlx5_cqe64 *)ogda_dev_cqe_at(cq, cons_index + cq->cqe_rsvd);
	return rc;
}

/* ---- CQE contents (receive completions) -------------------------------------------------------- */

/** Whether the NIC scattered the message into the CQE itself (32 bytes, at its start). */
__device__ static __forceinline__ bool doca_gpu_dev_verbs_cqe_is_inline(struct mlx5_cqe64 *cqe)
{
	return (((const uint8_t *)cqe)[63] & DOCA_GPUNETIO_MLX5_INLINE_SCATTER_32) != 0;
}

/** The byte count of a receive completion (the message length). */
__device__ static __forceinline__ uint32_t doca_gpu_dev_verbs_cqe_get_bytes(struct mlx5_cqe64 *cqe)
{
	return opengda_mlx5_cqe_byte_cnt((const struct opengda_mlx5_cqe64 *)(const void *)cqe);
}

/** The 32 bytes of inline (scatter-to-CQE) data at the start of the CQE. */
__device__ static __forceinline__ uint8_t *doca_gpu_dev_verbs_cqe_get_inl_data(struct mlx5_cqe64 *cqe)
{
	return (uint8_t *)cqe;
}

/**
 * The immediate of a SEND_IMM / WRITE_IMM completion, in host order (OpenGDA: the SDK has no
 * getter; its samples read imm_inval_pkey, which is big-endian).
 */
__device__ static __forceinline__ uint32_t opengda_gpu_dev_verbs_cqe_get_imm(struct mlx5_cqe64 *cqe)
{
	return opengda_mlx5_cqe_imm((const struct opengda_mlx5_cqe64 *)(const void *)cqe);
}

/**
 * Consumes @p cqe_num completions by hand: advances the consumer index and, unless the CQ
 * ignores overrun (@p is_overrun), writes it to the CQ doorbell record. Returns the new consumer
 * index in the 24-bit doorbell space. The 64-bit cqe_ci stays unmasked (polls compare with it).
 */
template <bool is_overrun>
__device__ static __forceinline__ uint32_t doca_gpu_dev_verbs_cq_update_dbrec(struct doca_gpu_dev_verbs_cq *cq,
									      uint32_t cqe_num)
{
	uint64_t ci = ogda_dev_load_relaxed_u64(&cq->cqe_ci) + cqe_num;

	if constexpr (!is_overrun) {
		/* CQEs read before this point are consumed before the NIC may reuse their slots. */
		ogda_dev_fence_nic_release();
		ogda_dev_store_nic_u32(cq->dbrec, opengda_mlx5_cq_dbr_set_ci_value((uint32_t)(ci + cq->cqe_rsvd)));
	}
	ogda_dev_store_relaxed_u64(&cq->cqe_ci, ci);
	return (uint32_t)ci & DOCA_GPUNETIO_VERBS_CQE_CI_MASK;
}

#endif /* DOCA_GPUNETIO_DEV_VERBS_CQ_CUH */
