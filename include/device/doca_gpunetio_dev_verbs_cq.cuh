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
 *
 * C++17, device code only.
 */
#ifndef DOCA_GPUNETIO_DEV_VERBS_CQ_CUH
#define DOCA_GPUNETIO_DEV_VERBS_CQ_CUH

#include "doca_gpunetio_dev_verbs_common.cuh"
#include "ogda_dev_cq.h"

/** The send CQ of @p qp. */
__device__ static __forceinline__ struct doca_gpu_dev_verbs_cq *
doca_gpu_dev_verbs_qp_get_cq_sq(struct doca_gpu_dev_verbs_qp *qp)
{
	return &qp->cq_sq;
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
