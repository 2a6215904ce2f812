/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A send queue's device view over plain host memory, without a NIC: what the tests of the
 * send-queue protocol itself (ring hand-off, ringer-lock flags) post into and inspect.
 * Include after device/ogda_dev_ops.h (or a header that includes it).
 */
#ifndef OGDA_TESTS_SCRATCH_SQ_H
#define OGDA_TESTS_SCRATCH_SQ_H

#include <stdint.h>
#include <string.h>

/*
 * Points @p qp at @p ring (2^@p log_n WQEBBs, 64-byte aligned), @p slots (as many readiness
 * words), the doorbell words @p db and the record @p dbrec; QPN 0x42, GPU_SM_DB.
 */
static inline void scratch_sq_init(struct doca_gpu_dev_verbs_qp *qp, uint8_t *ring, uint64_t *slots, uint64_t *db,
				   uint32_t *dbrec, uint32_t log_n)
{
	memset(qp, 0, sizeof(*qp));
	qp->sq_num = 0x42;
	qp->sq_num_shift8_be = opengda_mlx5_htobe32(0x42u << 8);
	qp->sq_wqe_num = 1u << log_n;
	qp->sq_wqe_mask = (1u << log_n) - 1;
	qp->sq_log_wqe_num = log_n;
	qp->sq_wqe_daddr = ring;
	qp->ogda_ready_slots = slots;
	qp->sq_db = db;
	qp->sq_dbrec = dbrec;
	qp->nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB;
}

#endif /* OGDA_TESTS_SCRATCH_SQ_H */
