/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compile check of the two-sided device API (doca_gpunetio_dev_verbs_twosided.cuh and the RQ
 * additions of the low-level headers): kernels that call every name the DOCA GPUNetIO SDK's
 * two-sided path has, with each sharing mode, scope, NIC handler, MCST and blocking mode, written
 * the way SDK kernels write them (defaults left out), plus OpenGDA's SRQ functions. Not run.
 */
#include <stdint.h>

#include "doca_gpunetio_device.h"

#define SH_EXCL DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE
#define SH_CTA DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA
#define SH_GPU DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU
#define SC_THREAD DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD
#define SC_WARP DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP
#define SC_BLOCK DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK
#define H_AUTO DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO
#define H_PROXY DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY
#define H_DB DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB
#define RQ DOCA_GPUNETIO_VERBS_QP_RQ
#define SQ DOCA_GPUNETIO_VERBS_QP_SQ

typedef enum doca_gpu_dev_verbs_resource_sharing_mode sharing_t;
typedef enum doca_gpu_dev_verbs_nic_handler handler_t;
typedef enum doca_gpu_dev_verbs_exec_scope scope_t;

/* As the SDK's twosided_bw sample writes them. */
__global__ void k_sample_style(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr buf,
			       struct doca_gpu_dev_verbs_addr flag, uint32_t size, uint32_t *out)
{
	doca_gpu_dev_verbs_ticket_t t;
	struct mlx5_cqe64 *cqe = nullptr;
	struct doca_gpu_dev_verbs_addr mine = {buf.addr + threadIdx.x * size, buf.key};

	doca_gpu_dev_verbs_recv<SH_GPU, H_AUTO>(qp, mine, size, &t);
	doca_gpu_dev_verbs_recv_wait<SH_GPU, H_AUTO, DOCA_GPUNETIO_VERBS_MCST_ENABLED>(qp, flag, &t, &cqe);
	if (doca_gpu_dev_verbs_cqe_is_inline(cqe))
		out[threadIdx.x] = doca_gpu_dev_verbs_cqe_get_inl_data(cqe)[0];
	out[threadIdx.x] += doca_gpu_dev_verbs_cqe_get_bytes(cqe) + opengda_gpu_dev_verbs_cqe_get_imm(cqe);
	doca_gpu_dev_verbs_send<SH_GPU, H_AUTO>(qp, mine, size, &t);
	doca_gpu_dev_verbs_recv_wait(qp, flag, &cqe);
}

template <sharing_t sh, handler_t h, scope_t sc>
__global__ void k_send_recv(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr a, int *rc)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	rc[0] = doca_gpu_dev_verbs_send<sh, h, sc>(qp, a, 64, &t);
	rc[1] = doca_gpu_dev_verbs_recv<sh, h, sc>(qp, a, 64, &t);
}
template __global__ void k_send_recv<SH_EXCL, H_AUTO, SC_THREAD>(struct doca_gpu_dev_verbs_qp *,
								  struct doca_gpu_dev_verbs_addr, int *);
template __global__ void k_send_recv<SH_CTA, H_DB, SC_THREAD>(struct doca_gpu_dev_verbs_qp *,
							       struct doca_gpu_dev_verbs_addr, int *);
template __global__ void k_send_recv<SH_GPU, H_PROXY, SC_THREAD>(struct doca_gpu_dev_verbs_qp *,
								  struct doca_gpu_dev_verbs_addr, int *);
template __global__ void k_send_recv<SH_GPU, H_AUTO, SC_WARP>(struct doca_gpu_dev_verbs_qp *,
							       struct doca_gpu_dev_verbs_addr, int *);
template __global__ void k_send_recv<SH_GPU, H_AUTO, SC_BLOCK>(struct doca_gpu_dev_verbs_qp *,
								struct doca_gpu_dev_verbs_addr, int *);

__global__ void k_scoped_names(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr a, int *rc)
{
	doca_gpu_dev_verbs_ticket_t t;
	struct mlx5_cqe64 *cqe;

	rc[0] = doca_gpu_dev_verbs_send_thread(qp, a, 8, &t);
	rc[1] = doca_gpu_dev_verbs_send_warp(qp, a, 8, &t);
	rc[2] = doca_gpu_dev_verbs_recv_thread(qp, a, 8, &t);
	rc[3] = doca_gpu_dev_verbs_recv_warp(qp, a, 8, &t);
	rc[4] = doca_gpu_dev_verbs_recv_wait<SH_GPU, H_AUTO, DOCA_GPUNETIO_VERBS_MCST_DISABLED,
					     DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED>(qp, a, &t, &cqe);
	rc[5] = doca_gpu_dev_verbs_recv_wait<SH_CTA, H_DB, DOCA_GPUNETIO_VERBS_MCST_ENABLED>(qp, a, &cqe);
}

/* The low-level sequence for receives and for sends with immediates (0 to 3 SGEs). */
__global__ void k_lowlevel(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr a, int *rc)
{
	struct mlx5_cqe64 *cqe = nullptr;
	uint64_t r = doca_gpu_dev_verbs_reserve_wq_slots<SH_GPU, RQ>(qp, 1);
	struct doca_gpunetio_ib_mlx5_wqe_data_seg *rw = doca_gpu_dev_verbs_get_rwqe_ptr(qp, (uint16_t)r);
	uint64_t s;
	struct doca_gpu_dev_verbs_wqe *w;
	const auto imm = DOCA_GPUNETIO_IB_MLX5_OPCODE_SEND_IMM;
	const auto ce = DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_UPDATE;

	doca_gpu_dev_verbs_wqe_prepare_recv(qp, rw, a.addr, a.key, 64);
	rc[0] = doca_gpu_dev_verbs_wait_until_slot_available<SH_GPU, RQ>(qp, r);
	rc[1] = doca_gpu_dev_verbs_mark_wqes_ready<SH_GPU, RQ>(qp, r, r);
	rc[2] = doca_gpu_dev_verbs_submit<SH_GPU, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU, H_AUTO, RQ>(qp, r + 1);

	s = doca_gpu_dev_verbs_reserve_wq_slots<SH_GPU, SQ>(qp, 4);
	w = doca_gpu_dev_verbs_get_wqe_ptr(qp, s);
	doca_gpu_dev_verbs_wqe_prepare_send(qp, w, s, imm, ce, 0x01000000u);
	w = doca_gpu_dev_verbs_get_wqe_ptr(qp, s + 1);
	doca_gpu_dev_verbs_wqe_prepare_send(qp, w, s + 1, DOCA_GPUNETIO_IB_MLX5_OPCODE_SEND, ce, 0, a.addr, a.key, 1);
	w = doca_gpu_dev_verbs_get_wqe_ptr(qp, s + 2);
	doca_gpu_dev_verbs_wqe_prepare_send(qp, w, s + 2, imm, ce, 7, a.addr, a.key, 1, a.addr + 8, a.key, 2);
	w = doca_gpu_dev_verbs_get_wqe_ptr(qp, s + 3);
	doca_gpu_dev_verbs_wqe_prepare_send(qp, w, s + 3, imm, ce, 9, a.addr, a.key, 1, a.addr + 8, a.key, 2,
					    a.addr + 16, a.key, 3);
	doca_gpu_dev_verbs_mark_wqes_ready<SH_GPU>(qp, s, s + 3);
	doca_gpu_dev_verbs_submit<SH_GPU, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU, H_AUTO, SQ>(qp, s + 4);

	rc[3] = doca_gpu_dev_verbs_poll_one_cq_at<SH_GPU, RQ>(doca_gpu_dev_verbs_qp_get_cq_rq(qp), r);
	rc[4] = doca_gpu_dev_verbs_poll_cq_at<SH_GPU, RQ>(doca_gpu_dev_verbs_qp_get_cq_rq(qp), r);
	rc[5] = doca_gpu_dev_verbs_poll_cq<SH_GPU, RQ, DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED>(
		doca_gpu_dev_verbs_qp_get_cq_rq(qp), r, &cqe);
	rc[6] = doca_gpu_dev_verbs_poll_cq<SH_EXCL, SQ>(doca_gpu_dev_verbs_qp_get_cq_sq(qp), s + 3, &cqe);
}

/* OpenGDA: a contiguous SRQ refilled by kernels. */
template <scope_t sc>
__global__ void k_srq(struct opengda_gpu_dev_verbs_srq *srq, struct doca_gpu_dev_verbs_addr a, int *rc)
{
	doca_gpu_dev_verbs_ticket_t t;
	uint64_t i;

	rc[0] = opengda_gpu_dev_verbs_srq_recv<SH_GPU, sc>(srq, a, 64, &t);
	rc[1] = opengda_gpu_dev_verbs_srq_recv_thread(srq, a, 64, &t);
	rc[2] = opengda_gpu_dev_verbs_srq_recv_warp<SH_CTA>(srq, a, 64, &t);
	i = opengda_gpu_dev_verbs_srq_reserve_wq_slots(srq, 1);
	opengda_gpu_dev_verbs_srq_wqe_prepare_recv(srq, opengda_gpu_dev_verbs_srq_get_rwqe_ptr(srq, i), a.addr, a.key, 8);
	rc[3] = opengda_gpu_dev_verbs_srq_mark_wqes_ready(srq, i, i);
	rc[4] = opengda_gpu_dev_verbs_srq_submit(srq);
}
template __global__ void k_srq<SC_THREAD>(struct opengda_gpu_dev_verbs_srq *, struct doca_gpu_dev_verbs_addr, int *);
template __global__ void k_srq<SC_WARP>(struct opengda_gpu_dev_verbs_srq *, struct doca_gpu_dev_verbs_addr, int *);
template __global__ void k_srq<SC_BLOCK>(struct opengda_gpu_dev_verbs_srq *, struct doca_gpu_dev_verbs_addr, int *);
