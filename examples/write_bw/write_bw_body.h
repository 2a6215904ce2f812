/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_write_bw, per thread: the low-level API as DOCA's write_bw uses it. Each round,
 * the block's leader (thread 0) reserves one WQEBB per thread of the block, every thread prepares
 * an RDMA WRITE of its slot at base + tid, and after a block barrier the leader publishes the
 * round and rings the doorbell once. Every WQE is signaled and the send CQ completes in order,
 * so only the last round's last WQE is waited for. Compiled into the CUDA kernel and into the
 * host-thread function alike; the four QP steps below are DOCA's low-level names in the kernel
 * and the C core they are built on in host threads.
 */
#ifndef WRITE_BW_BODY_H_
#define WRITE_BW_BODY_H_

#include "ex_dev_ops.h"

struct write_bw_args {
	struct doca_gpu_dev_verbs_qp *qp;
	struct doca_gpu_dev_verbs_addr local;  /* this side's buffer: slot t at + t x size */
	struct doca_gpu_dev_verbs_addr remote; /* the server's buffer */
	uint64_t size;                         /* at most 1 GiB: one WQE per write */
	uint32_t rounds;                       /* writes per thread */
	int32_t sharing; /* OGDA_DEV_SHARE_EXCLUSIVE (one block, one poster) or _GPU */
	struct ex_thread_result *res; /* one per thread */
};

#if defined(__CUDACC__)

namespace write_bw_dev {

/* Reserve count WQEBBs and wait until they may be written; on an error completion the slots
 * are published as NOPs so that later WQEs are not stranded (as the core's post_begin). */
template <doca_gpu_dev_verbs_resource_sharing_mode S>
__device__ __forceinline__ int reserve(struct doca_gpu_dev_verbs_qp *qp, uint32_t count, uint64_t *base)
{
	int rc = 0;
	uint32_t k;

	*base = doca_gpu_dev_verbs_reserve_wq_slots<S>(qp, count, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT, &rc);
	if (OPENGDA_DEV_IS_CQE_ERROR(rc)) {
		for (k = 0; k < count; k++)
			doca_gpu_dev_verbs_wqe_prepare_nop(qp, doca_gpu_dev_verbs_get_wqe_ptr(qp, *base + k), *base + k,
							   DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_UPDATE);
		doca_gpu_dev_verbs_mark_wqes_ready<S>(qp, *base, *base + count - 1);
		doca_gpu_dev_verbs_submit<S>(qp, *base + count);
	}
	return rc;
}

template <doca_gpu_dev_verbs_resource_sharing_mode S>
__device__ __forceinline__ void publish(struct doca_gpu_dev_verbs_qp *qp, uint64_t base, uint32_t count)
{
	doca_gpu_dev_verbs_mark_wqes_ready<S>(qp, base, base + count - 1);
	doca_gpu_dev_verbs_submit<S, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>(
		qp, base + count);
}

} /* namespace write_bw_dev */

__device__ static __forceinline__ int write_bw_reserve(struct doca_gpu_dev_verbs_qp *qp, uint32_t count, int sharing,
						       uint64_t *base)
{
	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE)
		return write_bw_dev::reserve<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE>(qp, count, base);
	return write_bw_dev::reserve<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(qp, count, base);
}

__device__ static __forceinline__ void write_bw_prepare(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx,
							struct doca_gpu_dev_verbs_addr raddr,
							struct doca_gpu_dev_verbs_addr laddr, uint64_t size)
{
	doca_gpu_dev_verbs_wqe_prepare_write(qp, doca_gpu_dev_verbs_get_wqe_ptr(qp, idx), idx,
					     DOCA_GPUNETIO_IB_MLX5_OPCODE_RDMA_WRITE,
					     DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_UPDATE, 0, raddr.addr, raddr.key, laddr.addr,
					     laddr.key, (uint32_t)size);
}

__device__ static __forceinline__ void write_bw_publish(struct doca_gpu_dev_verbs_qp *qp, uint64_t base,
							uint32_t count, int sharing)
{
	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE)
		write_bw_dev::publish<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE>(qp, base, count);
	else
		write_bw_dev::publish<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(qp, base, count);
}

__device__ static __forceinline__ int write_bw_wait(struct doca_gpu_dev_verbs_qp *qp, uint64_t ticket, int sharing)
{
	if (sharing == OGDA_DEV_SHARE_EXCLUSIVE)
		return doca_gpu_dev_verbs_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE>(qp, ticket);
	return doca_gpu_dev_verbs_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(qp, ticket);
}

#else /* host threads: the C core */

static inline int write_bw_reserve(struct doca_gpu_dev_verbs_qp *qp, uint32_t count, int sharing, uint64_t *base)
{
	return ogda_dev_post_begin(qp, count, sharing, EX_HANDLER, 0, base);
}

static inline void write_bw_prepare(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, struct doca_gpu_dev_verbs_addr raddr,
				    struct doca_gpu_dev_verbs_addr laddr, uint64_t size)
{
	(void)ogda_dev_prep_xfer(qp, idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, raddr, laddr, size);
}

static inline void write_bw_publish(struct doca_gpu_dev_verbs_qp *qp, uint64_t base, uint32_t count, int sharing)
{
	ogda_dev_post_end(qp, base, count, sharing, EX_HANDLER, 0);
}

static inline int write_bw_wait(struct doca_gpu_dev_verbs_qp *qp, uint64_t ticket, int sharing)
{
	return ogda_dev_op_wait(qp, ticket, sharing);
}

#endif

/* The leader's word to its block: the round's first WQE index, or (top bit set) its error. */
#define WRITE_BW_FAILED (1ull << 63)

OGDA_DEV_FN uint64_t write_bw_word(int rc, uint64_t base)
{
	return rc == 0 ? base : WRITE_BW_FAILED | (uint32_t)rc;
}

OGDA_DEV_FN int write_bw_word_rc(uint64_t w)
{
	return (w & WRITE_BW_FAILED) ? (int)(uint32_t)w : 0;
}

OGDA_DEV_FN void write_bw_thread(const struct write_bw_args *a, const struct ex_lane *l)
{
	const uint64_t slot = EX_LANE_GLOBAL(l);
	const uint32_t count = l->nthreads;
	struct doca_gpu_dev_verbs_addr laddr = a->local, raddr = a->remote;
	uint64_t word = 0, last = 0;
	uint32_t r, done = 0;
	int rc = 0;

	laddr.addr += slot * a->size;
	raddr.addr += slot * a->size;
	for (r = 0; r < a->rounds; r++) {
		uint64_t base = 0;

		if (l->tid == 0) {
			rc = count > a->qp->sq_wqe_num ? EX_DEV_EGROUP : write_bw_reserve(a->qp, count, a->sharing, &base);
			word = write_bw_word(rc, base);
		}
		word = ex_block_bcast(l, word); /* thread 0's word */
		rc = write_bw_word_rc(word);
		if (rc != 0)
			break; /* the whole block leaves together */
		base = word;
		write_bw_prepare(a->qp, base + l->tid, raddr, laddr, a->size);
		done++;
		/* Every thread's WQE is written before the leader publishes the round. */
		ex_block_sync(l);
		if (l->tid == 0)
			write_bw_publish(a->qp, base, count, a->sharing);
		last = base + count - 1;
	}
	/* The send CQ completes in order: the last WQE's completion covers the block's rounds. */
	if (rc == 0 && a->rounds > 0) {
		if (l->tid == 0)
			word = write_bw_word(write_bw_wait(a->qp, last, a->sharing), 0);
		rc = write_bw_word_rc(ex_block_bcast(l, word));
	}
	a->res[slot].rc = rc;
	a->res[slot].done = done;
}

#endif /* WRITE_BW_BODY_H_ */
