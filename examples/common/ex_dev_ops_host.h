/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ex_dev_ops.h on host threads: the C core of the device data path. Included by ex_dev_ops.h
 * only.
 */
#ifndef EX_DEV_OPS_HOST_H_
#define EX_DEV_OPS_HOST_H_

#define EX_HANDLER ((uint32_t)DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO)

static inline uint32_t ex_op_nwqe(const struct ex_op *op)
{
	switch (op->kind) {
	case EX_OP_READ: return ogda_dev_get_nwqe(op->size, 0);
	case EX_OP_FADD: return 1;
	default: return ogda_dev_xfer_nwqe(op->size);
	}
}

static inline void ex_op_prep(struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, const struct ex_op *op)
{
	switch (op->kind) {
	case EX_OP_READ:
		ogda_dev_prep_get(qp, idx, op->raddr, op->laddr, op->size, 0);
		break;
	case EX_OP_FADD:
		ogda_dev_prep_signal(qp, idx, op->raddr, op->laddr, op->size);
		break;
	case EX_OP_SEND:
		ogda_dev_prep_send(qp, idx, op->laddr, op->size);
		break;
	default:
		ogda_dev_prep_xfer(qp, idx, OPENGDA_MLX5_OPCODE_RDMA_WRITE, op->raddr, op->laddr, op->size);
		break;
	}
}

/* One thread posts alone. */
static inline int ex_thread_post(struct doca_gpu_dev_verbs_qp *qp, const struct ex_op *op, int sharing,
				 uint64_t *ticket)
{
	switch (op->kind) {
	case EX_OP_READ:
		return ogda_dev_op_get(qp, op->raddr, op->laddr, op->size, 0, sharing, EX_HANDLER, 0, ticket);
	case EX_OP_FADD:
		return ogda_dev_op_signal(qp, op->raddr, op->laddr, op->size, sharing, EX_HANDLER, 0, ticket);
	case EX_OP_SEND:
		return ogda_dev_op_send(qp, op->laddr, op->size, sharing, EX_HANDLER, 0, ticket);
	default:
		return ogda_dev_op_put(qp, op->raddr, op->laddr, op->size, sharing, EX_HANDLER, 0, ticket);
	}
}

/*
 * The threads of grp post together: the leader (rank 0) reserves size x n WQEBBs once, each
 * thread prepares its n at base + rank x n, the leader publishes the range and rings once.
 * Every thread of the group posts an operation of the same WQE count.
 */
static inline int ex_group_post(struct ex_host_group *grp, uint32_t rank, uint32_t size,
				struct doca_gpu_dev_verbs_qp *qp, const struct ex_op *op, int sharing, uint64_t *ticket)
{
	const uint32_t n = ex_op_nwqe(op);
	uint64_t base;
	int rc;

	if (rank == 0) {
		grp->base = 0;
		grp->rc = (uint64_t)n * size > qp->sq_wqe_num
				  ? EX_DEV_EGROUP
				  : ogda_dev_post_begin(qp, n * size, sharing, EX_HANDLER, 0, &grp->base);
	}
	pthread_barrier_wait(&grp->barrier);
	base = grp->base;
	rc = grp->rc;
	*ticket = base + (uint64_t)rank * n + n - 1;
	if (rc == 0)
		ex_op_prep(qp, base + (uint64_t)rank * n, op);
	/* The barrier orders every thread's WQE stores before the leader's publication. */
	pthread_barrier_wait(&grp->barrier);
	if (rc == 0 && rank == 0)
		ogda_dev_post_end(qp, base, n * size, sharing, EX_HANDLER, 0);
	return rc;
}

/* Posts op at the given scope (every thread of the group calls). */
static inline int ex_post(const struct ex_lane *l, int scope, struct doca_gpu_dev_verbs_qp *qp, const struct ex_op *op,
			  int sharing, uint64_t *ticket)
{
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP)
		return ex_group_post(l->warp, l->tid % EX_HOST_WARP, l->warp_size, qp, op, sharing, ticket);
	if (scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK)
		return ex_group_post(l->blk, l->tid, l->nthreads, qp, op, sharing, ticket);
	return ex_thread_post(qp, op, sharing, ticket);
}

/*
 * Posts one receive of size bytes at laddr per calling thread; *ticket: its receive index. Warp
 * and block: the leader reserves for the group once, each thread writes its own receive, the
 * leader publishes and writes the receive doorbell record once.
 */
static inline int ex_recv(const struct ex_lane *l, int scope, struct doca_gpu_dev_verbs_qp *qp,
			  struct doca_gpu_dev_verbs_addr laddr, uint32_t size, int sharing, uint64_t *ticket)
{
	struct ogda_dev_rq rq = ogda_dev_qp_rq(qp);
	struct ex_host_group *grp = scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP    ? l->warp
				    : scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK ? l->blk
										    : NULL;
	uint32_t rank = scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP ? l->tid % EX_HOST_WARP : l->tid;
	uint32_t count = scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP ? l->warp_size : l->nthreads;
	int rc;

	if (grp == NULL)
		return ogda_dev_rq_op_recv(&rq, laddr, size, sharing, ticket);
	if (rank == 0) {
		grp->base = 0;
		grp->rc = count > rq.wqe_num ? EX_DEV_EGROUP : ogda_dev_rq_post_begin(&rq, count, sharing, &grp->base);
	}
	pthread_barrier_wait(&grp->barrier);
	rc = grp->rc;
	*ticket = grp->base + rank;
	if (rc == 0)
		ogda_dev_rwqe_write(&rq, ogda_dev_rwqe_ptr(&rq, *ticket), laddr.addr, laddr.key, size);
	/* The barrier orders every thread's receive WQE before the leader's publication. */
	pthread_barrier_wait(&grp->barrier);
	if (rc == 0 && rank == 0)
		grp->rc = ogda_dev_rq_post_end(&rq, grp->base, count, sharing);
	pthread_barrier_wait(&grp->barrier);
	rc = grp->rc;
	pthread_barrier_wait(&grp->barrier);
	return rc;
}

/* Waits for receive ticket; *bytes: its byte count. 0, or the completion's error. */
static inline int ex_recv_wait(struct doca_gpu_dev_verbs_qp *qp, uint64_t ticket, int sharing, uint32_t *bytes)
{
	int rc = ogda_dev_recv_wait_index(qp, ticket, sharing);

	*bytes = rc == 0 ? opengda_mlx5_cqe_byte_cnt(ogda_dev_recv_cqe(qp, ticket)) : 0;
	return rc;
}

/*
 * put_counter at thread scope: the put on qp, then on its companion comp a WAIT for the put's
 * completion and a fetch-and-add of 1 on the peer's counter (old value to counter_laddr).
 */
static inline int ex_put_counter(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_qp *comp,
				 const struct ex_op *op, struct doca_gpu_dev_verbs_addr counter_raddr,
				 struct doca_gpu_dev_verbs_addr counter_laddr, int sharing)
{
	uint64_t t = 0;
	int rc = ogda_dev_op_put(qp, op->raddr, op->laddr, op->size, sharing, EX_HANDLER, 0, &t);

	return rc != 0 ? rc : ogda_dev_op_counter(comp, qp, t, counter_raddr, counter_laddr, 1, sharing, EX_HANDLER, 0);
}

/* Waits until everything posted on qp so far has completed. */
static inline int ex_wait_all(struct doca_gpu_dev_verbs_qp *qp, int sharing)
{
	return ogda_dev_op_wait_all(qp, sharing);
}

/* Waits until the WQE of ticket (and every earlier one) has completed. */
static inline int ex_wait(struct doca_gpu_dev_verbs_qp *qp, uint64_t ticket, int sharing)
{
	return ogda_dev_op_wait(qp, ticket, sharing);
}

/* Whether flag is set in any thread of the scope's group (every thread of the group calls). */
static inline int ex_group_any(const struct ex_lane *l, int scope, int flag)
{
	struct ex_host_group *g = scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP    ? l->warp
				  : scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK ? l->blk
										  : NULL;
	const uint32_t rank = scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP ? l->tid % EX_HOST_WARP : l->tid;
	int any;

	if (g == NULL)
		return flag;
	pthread_barrier_wait(&g->barrier);
	if (flag)
		__atomic_fetch_or(&g->any, 1u, __ATOMIC_RELAXED);
	pthread_barrier_wait(&g->barrier);
	any = __atomic_load_n(&g->any, __ATOMIC_RELAXED) != 0;
	pthread_barrier_wait(&g->barrier);
	if (rank == 0)
		__atomic_store_n(&g->any, 0, __ATOMIC_RELAXED);
	return any;
}

/* Barrier of the block. */
static inline void ex_block_sync(const struct ex_lane *l)
{
	pthread_barrier_wait(&l->blk->barrier);
}

/* Thread 0's v, in every thread of the block. */
static inline uint64_t ex_block_bcast(const struct ex_lane *l, uint64_t v)
{
	if (l->tid == 0)
		l->blk->word = v;
	pthread_barrier_wait(&l->blk->barrier);
	v = l->blk->word;
	pthread_barrier_wait(&l->blk->barrier);
	return v;
}

#endif /* EX_DEV_OPS_HOST_H_ */
