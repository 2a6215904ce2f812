/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file ogda_dev_dma.h
 * @brief GPU-triggered DMA copies (C core of doca_gpunetio_dev_dma.cuh; CUDA and host threads).
 *
 * A doca_dma context with a GPU data path owns one RC QP connected to itself (src/dma/dma.c).
 * A copy is an RDMA WRITE on that QP from the source buffer (local key) to the destination
 * buffer (the same NIC, its key used as the remote key): the NIC's own engine moves the bytes,
 * on a ConnectX and on the software NIC alike. Everything goes through the shared send-queue
 * protocol (ogda_dev_ops.h / ogda_dev_sq.h):
 * - memcpy reserves WQEBBs (one per GiB) with one atomic, writes them and publishes them
 *   without ringing: many threads enqueue at once, each in its own positions;
 * - commit rings once for everything published so far (any thread; concurrent commits are
 *   safe: one ringer at a time, the others flag it to look again);
 * - wait (OpenGDA) waits for every copy enqueued so far and reports the first error
 *   completion's syndrome. DOCA's header has no completion call.
 * Every wait is bounded by the QP's wait timeout (opengda_dma_set_wait_timeout), so an
 * uncommitted ring or a dead QP returns DOCA_ERROR_TIME_OUT instead of spinning for ever.
 *
 * device-code: yes
 */
#ifndef OGDA_DEV_DMA_H
#define OGDA_DEV_DMA_H

#include "ogda_dev_buf.h"
#include "ogda_dev_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The device handle of a doca_dma (doca_dma_get_gpu_handle), in memory the executing threads read. */
struct doca_gpu_dma {
	struct doca_gpu_dev_verbs_qp *qp; /**< The loopback QP's device view. */
	uint32_t nic_handler;             /**< Handler in effect (never AUTO). */
	uint32_t reserved;
};

/** A device-core return code (0, CQE error, timeout) as a doca_error_t, the syndrome in @p syndrome. */
OGDA_DEV_FN doca_error_t ogda_dev_dma_status(int rc, uint8_t *syndrome)
{
	if (rc == 0)
		return DOCA_SUCCESS;
	if (OPENGDA_DEV_IS_CQE_ERROR(rc)) {
		if (syndrome != 0)
			*syndrome = OPENGDA_DEV_CQE_ERROR_SYNDROME(rc);
		return DOCA_ERROR_IO_FAILED;
	}
	return rc == -OPENGDA_DEV_ETIMEDOUT ? DOCA_ERROR_TIME_OUT : DOCA_ERROR_UNEXPECTED;
}

/**
 * Enqueues a copy of @p len bytes from @p src + @p src_off to @p dst + @p dst_off; executed at
 * the next commit. DOCA_ERROR_INVALID_VALUE for NULL arguments; DOCA_ERROR_IO_FAILED (with the
 * syndrome in @p syndrome, optional) when an earlier copy failed and its slot was needed;
 * DOCA_ERROR_TIME_OUT when the ring stayed full (more copies than the queue holds without a
 * commit, or a stalled NIC).
 */
OGDA_DEV_FN doca_error_t ogda_dev_dma_memcpy(struct doca_gpu_dma *dma, const struct doca_gpu_buf *src,
					     uint64_t src_off, const struct doca_gpu_buf *dst, uint64_t dst_off,
					     uint64_t len, uint8_t *syndrome)
{
	struct doca_gpu_dev_verbs_addr s, d;
	uint32_t n;
	uint64_t base;
	int rc;

	if (dma == 0 || src == 0 || dst == 0)
		return DOCA_ERROR_INVALID_VALUE;
	n = ogda_dev_xfer_nwqe(len);
	rc = ogda_dev_post_begin(dma->qp, n, OGDA_DEV_SHARE_GPU, dma->nic_handler, 0, &base);
	if (rc != 0)
		return ogda_dev_dma_status(rc, syndrome);
	s.addr = src->addr + src_off;
	s.key = src->mkey_be;
	d.addr = dst->addr + dst_off;
	d.key = dst->mkey_be;
	ogda_dev_prep_xfer(dma->qp, base, OPENGDA_MLX5_OPCODE_RDMA_WRITE, d, s, len);
	ogda_dev_post_end(dma->qp, base, n, OGDA_DEV_SHARE_GPU, dma->nic_handler,
			  DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING);
	return DOCA_SUCCESS;
}

/** Makes the NIC execute every copy enqueued (and published) so far: one doorbell. */
OGDA_DEV_FN doca_error_t ogda_dev_dma_commit(struct doca_gpu_dma *dma)
{
	if (dma == 0)
		return DOCA_ERROR_INVALID_VALUE;
	ogda_dev_sq_submit(dma->qp, 0, OGDA_DEV_SHARE_GPU, dma->nic_handler);
	return DOCA_SUCCESS;
}

/**
 * Waits until every copy enqueued so far has completed (commit first). DOCA_SUCCESS; or
 * DOCA_ERROR_IO_FAILED with the syndrome of the first failed copy in @p syndrome (optional;
 * e.g. OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR for a buffer of another device, or
 * REMOTE_ACCESS_ERR for a destination its mmap does not open to RDMA writes); the QP is then in
 * error and every later copy fails: stop and start the context. DOCA_ERROR_TIME_OUT past the
 * wait bound.
 */
OGDA_DEV_FN doca_error_t ogda_dev_dma_wait(struct doca_gpu_dma *dma, uint8_t *syndrome)
{
	struct doca_gpu_dev_verbs_qp *qp;
	uint64_t rsvd;
	int rc;

	if (dma == 0)
		return DOCA_ERROR_INVALID_VALUE;
	qp = dma->qp;
	rsvd = ogda_dev_load_acquire_u64(&qp->sq_rsvd_index, OGDA_DEV_SHARE_GPU);
	if (rsvd == 0)
		return DOCA_SUCCESS;
	/* RC completes in order and the first error flushes the rest: the last CQE answers for all. */
	rc = ogda_dev_qp_wait_index(qp, rsvd - 1, OGDA_DEV_SHARE_GPU);
	if (rc != 0 && OPENGDA_DEV_IS_CQE_ERROR(rc)) {
		/* An error CQE does not move cqe_ci: the first unconsumed index is the first error. */
		uint64_t ci = ogda_dev_cq_ci(&qp->cq_sq, OGDA_DEV_SHARE_GPU);

		if (ci < rsvd - 1) {
			int first = ogda_dev_qp_wait_index(qp, ci, OGDA_DEV_SHARE_GPU);

			if (first != 0)
				rc = first;
		}
	}
	return ogda_dev_dma_status(rc, syndrome);
}

#ifdef __cplusplus
}
#endif

#endif /* OGDA_DEV_DMA_H */
