/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_verbs_counter.cuh
 * @brief DOCA GPUNetIO device API: operations with a completion counter on a companion QP, and
 *        submits over several QPs.
 *
 * A *_counter call posts its operation on @p qp, then on @p companion_qp (created with
 * core-direct enabled) a WAIT for @p qp's send CQ to reach the operation's last WQE followed by
 * an 8-byte fetch-and-add of @p counter_val at @p counter_raddr: the remote counter moves only
 * once the operation has completed, without the GPU polling (mlx5 cross-channel). Both QPs are
 * rung (unless SKIP_DB_RINGING).
 *
 * Deliberate differences from DOCA:
 * - The functions return int (0 or the first error met while waiting for ring space on either
 *   QP; on an error of the main operation no counter part is posted).
 * - A trailing exec_scope template parameter (default THREAD) makes them callable by a warp or a
 *   block: the group posts its operations as one range, then its leader posts ONE companion
 *   WAIT + fetch-and-add whose value is the sum of the calling threads' counter_val (each call
 *   still adds its own counter_val, as in DOCA) and that waits for the range's last WQE.
 *   companion_qp and counter_raddr / counter_laddr are taken from the leader.
 * - get_counter appends no DUMP (as DOCA's).
 *
 * C++17, device code only.
 */
#ifndef DOCA_GPUNETIO_DEV_VERBS_COUNTER_CUH
#define DOCA_GPUNETIO_DEV_VERBS_COUNTER_CUH

#include "doca_gpunetio_dev_verbs_onesided.cuh"

/* ---- submit over several QPs ----------------------------------------------------------------- */

template <unsigned int num_qps,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static __forceinline__ void doca_gpu_dev_verbs_submit_db_multi_qps(struct doca_gpu_dev_verbs_qp **qps,
									      uint64_t *prod_indices,
									      uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	for (unsigned int i = 0; i < num_qps; i++)
		doca_gpu_dev_verbs_submit_db<resource_sharing_mode, sync_scope>(qps[i], prod_indices[i], code_opt);
}

template <unsigned int num_qps,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static __forceinline__ void
doca_gpu_dev_verbs_submit_db_multi_qps_no_dbr(struct doca_gpu_dev_verbs_qp **qps, uint64_t *prod_indices,
					      uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	for (unsigned int i = 0; i < num_qps; i++)
		doca_gpu_dev_verbs_submit_db_no_dbr<resource_sharing_mode, sync_scope>(qps[i], prod_indices[i],
										       code_opt);
}

template <unsigned int num_qps,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static __forceinline__ void doca_gpu_dev_verbs_submit_proxy_multi_qps(struct doca_gpu_dev_verbs_qp **qps,
										 uint64_t *prod_indices)
{
	for (unsigned int i = 0; i < num_qps; i++)
		doca_gpu_dev_verbs_submit_proxy<resource_sharing_mode, sync_scope>(qps[i], prod_indices[i]);
}

/** Submits each QP of @p qps up to its producer index through @p nic_handler (AUTO: each QP's). */
template <unsigned int num_qps,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static __forceinline__ void doca_gpu_dev_verbs_submit_multi_qps(struct doca_gpu_dev_verbs_qp **qps,
									   uint64_t *prod_indices,
									   uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	for (unsigned int i = 0; i < num_qps; i++)
		doca_gpu_dev_verbs_submit<resource_sharing_mode, sync_scope, nic_handler>(qps[i], prod_indices[i],
											  code_opt);
}

namespace ogda_cuh {
/**
 * Runs @p main_post(&group_last) (the operation, at @p scope), then the leader posts the
 * companion part for the group's last WQE with the group's sum of counter values.
 */
template <enum doca_gpu_dev_verbs_exec_scope scope, typename MainPost>
__device__ static __forceinline__ int
with_counter(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_qp *companion_qp,
	     struct doca_gpu_dev_verbs_addr counter_raddr, struct doca_gpu_dev_verbs_addr counter_laddr,
	     uint64_t counter_val, int sharing, uint32_t handler, uint32_t code_opt, MainPost main_post)
{
	const uint64_t sum = group_sum<scope>(counter_val);
	uint64_t last = 0;
	int rc = main_post(&last), crc = 0;

	if (rc != 0)
		return rc; /* uniform across the group */
	if (is_leader<scope>())
		crc = ogda_dev_op_counter(companion_qp, qp, last, counter_raddr, counter_laddr, sum, sharing, handler,
					  code_opt);
	return group_bcast<scope>(crc);
}
} /* namespace ogda_cuh */

/** put, then counter_val added at counter_raddr once the put has completed. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int doca_gpu_dev_verbs_put_counter(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr,
	size_t size, struct doca_gpu_dev_verbs_qp *companion_qp, struct doca_gpu_dev_verbs_addr counter_raddr,
	struct doca_gpu_dev_verbs_addr counter_laddr, uint64_t counter_val, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	const int sharing = (int)resource_sharing_mode;
	const uint32_t handler = (uint32_t)nic_handler;

	return ogda_cuh::with_counter<exec_scope>(qp, companion_qp, counter_raddr, counter_laddr, counter_val, sharing,
						  handler, code_opt, [&](uint64_t *last) {
							  return ogda_cuh::put_impl<exec_scope>(
								  qp, raddr, laddr, size, sharing, handler, code_opt,
								  nullptr, last);
						  });
}

/** p, then the counter. */
template <typename T, enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int
doca_gpu_dev_verbs_p_counter(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, T value,
			     struct doca_gpu_dev_verbs_qp *companion_qp, struct doca_gpu_dev_verbs_addr counter_raddr,
			     struct doca_gpu_dev_verbs_addr counter_laddr, uint64_t counter_val,
			     uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	const int sharing = (int)resource_sharing_mode;
	const uint32_t handler = (uint32_t)nic_handler;

	return ogda_cuh::with_counter<exec_scope>(qp, companion_qp, counter_raddr, counter_laddr, counter_val, sharing,
						  handler, code_opt, [&](uint64_t *last) {
							  return ogda_cuh::p_impl<exec_scope, T>(
								  qp, raddr, value, sharing, handler, code_opt, nullptr,
								  last);
						  });
}

/** put_signal, then the counter (after the signal). */
template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int doca_gpu_dev_verbs_put_signal_counter(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr,
	size_t size, struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr,
	uint64_t sig_val, struct doca_gpu_dev_verbs_qp *companion_qp, struct doca_gpu_dev_verbs_addr counter_raddr,
	struct doca_gpu_dev_verbs_addr counter_laddr, uint64_t counter_val, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	static_assert(sig_op == DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD, "only SIGNAL_OP_ADD exists");
	const int sharing = (int)resource_sharing_mode;
	const uint32_t handler = (uint32_t)nic_handler;

	return ogda_cuh::with_counter<exec_scope>(qp, companion_qp, counter_raddr, counter_laddr, counter_val, sharing,
						  handler, code_opt, [&](uint64_t *last) {
							  return ogda_cuh::put_signal_impl<exec_scope>(
								  qp, raddr, laddr, size, sig_raddr, sig_laddr, sig_val,
								  sharing, handler, code_opt, nullptr, last);
						  });
}

/** signal, then the counter. */
template <enum doca_gpu_dev_verbs_signal_op sig_op,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int doca_gpu_dev_verbs_signal_counter(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr sig_raddr,
	struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val, struct doca_gpu_dev_verbs_qp *companion_qp,
	struct doca_gpu_dev_verbs_addr counter_raddr, struct doca_gpu_dev_verbs_addr counter_laddr,
	uint64_t counter_val, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	static_assert(sig_op == DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD, "only SIGNAL_OP_ADD exists");
	const int sharing = (int)resource_sharing_mode;
	const uint32_t handler = (uint32_t)nic_handler;

	return ogda_cuh::with_counter<exec_scope>(qp, companion_qp, counter_raddr, counter_laddr, counter_val, sharing,
						  handler, code_opt, [&](uint64_t *last) {
							  return ogda_cuh::signal_impl<exec_scope>(
								  qp, sig_raddr, sig_laddr, sig_val, sharing, handler,
								  code_opt, nullptr, last);
						  });
}

/** get (RDMA READ, no DUMP), then the counter once the read has completed. */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = OGDA_CUH_SHARING_DEFAULT,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static __forceinline__ int doca_gpu_dev_verbs_get_counter(
	struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr,
	size_t size, struct doca_gpu_dev_verbs_qp *companion_qp, struct doca_gpu_dev_verbs_addr counter_raddr,
	struct doca_gpu_dev_verbs_addr counter_laddr, uint64_t counter_val, uint32_t code_opt = OGDA_CUH_OPT_DEFAULT)
{
	const int sharing = (int)resource_sharing_mode;
	const uint32_t handler = (uint32_t)nic_handler;

	return ogda_cuh::with_counter<exec_scope>(qp, companion_qp, counter_raddr, counter_laddr, counter_val, sharing,
						  handler, code_opt, [&](uint64_t *last) {
							  return ogda_cuh::get_impl<exec_scope>(
								  qp, raddr, laddr, size, laddr, false, sharing,
								  handler, code_opt, nullptr, last);
						  });
}

#endif /* DOCA_GPUNETIO_DEV_VERBS_COUNTER_CUH */
