/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compile check of the DOCA-compatible device API (include/doca_gpunetio_device.h): kernels per
 * header that call every device name of reference/doca-api-names.md with every template
 * combination that selects different code: each sharing mode at thread, warp and block scope;
 * each NIC handler; each mcst / blocking mode; both masked-atomic sizes; each sync scope of the
 * doorbell helpers. Calls are written the way DOCA kernels write them (defaults left out, results
 * ignored in places), so a signature that drifts from DOCA's fails the build.
 *
 * Every operation is a kernel of its own (templates instantiated explicitly at the end of each
 * section): each operation inlines the whole posting path, and ptxas time grows much faster
 * than linearly with the code reachable from one kernel. Not run: there is no GPU here
 * (tests/gpu runs kernels).
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
#define H_BF DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF
#define H_NODBR DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR
#define SIG_ADD DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD
#define MCST_ON DOCA_GPUNETIO_VERBS_MCST_ENABLED
#define MCST_OFF DOCA_GPUNETIO_VERBS_MCST_DISABLED
#define BLOCKING DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED
#define CE DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_UPDATE

typedef enum doca_gpu_dev_verbs_resource_sharing_mode sharing_t;
typedef enum doca_gpu_dev_verbs_nic_handler handler_t;
typedef enum doca_gpu_dev_verbs_exec_scope scope_t;
typedef enum doca_gpu_dev_verbs_sync_scope sync_t;
typedef struct doca_gpu_dev_verbs_addr addr_t;

/* What every kernel gets: two QPs, addresses and a place for results. */
struct args {
	struct doca_gpu_dev_verbs_qp *qp;
	struct doca_gpu_dev_verbs_qp *companion;
	addr_t raddr, laddr, sig_raddr, sig_laddr, daddr, cnt_raddr, cnt_laddr;
	size_t size;
	uint64_t *out;
};

/* Result of one thread, so nothing is optimised away. */
__device__ __forceinline__ void out(const struct args &a, uint64_t v)
{
	a.out[threadIdx.x] = v;
}

/* ---- one-sided operations at (sharing, handler, scope) --------------------------------------- */

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_put(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_put<S, H, E>(a.qp, a.raddr, a.laddr, a.size, &t);

	out(a, t + (uint64_t)rc);
}

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_p(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_p<uint32_t, S, H, E>(a.qp, a.raddr, 7u, &t);

	out(a, t + (uint64_t)rc);
}

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_put_signal(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_put_signal<SIG_ADD, S, H, E>(a.qp, a.raddr, a.laddr, a.size, a.sig_raddr,
								 a.sig_laddr, 1, &t);

	out(a, t + (uint64_t)rc);
}

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_p_signal(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_p_signal<uint64_t, SIG_ADD, S, H, E>(a.qp, a.raddr, 7ull, a.sig_raddr, a.sig_laddr,
									 1, &t);

	out(a, t + (uint64_t)rc);
}

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_signal(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_signal<SIG_ADD, S, H, E>(a.qp, a.sig_raddr, a.sig_laddr, 1, &t);

	out(a, t + (uint64_t)rc);
}

template <sharing_t S, handler_t H, scope_t E, enum doca_gpu_dev_verbs_mcst_mode M,
	  enum doca_gpu_dev_verbs_blocking_mode B>
__global__ void k_get(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_get<S, H, E, M, B>(a.qp, a.raddr, a.laddr, a.size, a.daddr, &t);

	out(a, t + (uint64_t)rc);
}

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_fence(struct args a)
{
	out(a, doca_gpu_dev_verbs_fence<S, H, E>(a.qp));
}

#define ONESIDED_OPS(S, H, E)                                                                                          \
	template __global__ void k_put<S, H, E>(struct args);                                                          \
	template __global__ void k_p<S, H, E>(struct args);                                                            \
	template __global__ void k_put_signal<S, H, E>(struct args);                                                   \
	template __global__ void k_p_signal<S, H, E>(struct args);                                                     \
	template __global__ void k_signal<S, H, E>(struct args);                                                       \
	template __global__ void k_get<S, H, E, MCST_ON, BLOCKING>(struct args);                                       \
	template __global__ void k_fence<S, H, E>(struct args);

/* Each sharing mode at each scope (AUTO handler). */
ONESIDED_OPS(SH_EXCL, H_AUTO, SC_THREAD)
ONESIDED_OPS(SH_EXCL, H_AUTO, SC_WARP)
ONESIDED_OPS(SH_EXCL, H_AUTO, SC_BLOCK)
ONESIDED_OPS(SH_CTA, H_AUTO, SC_THREAD)
ONESIDED_OPS(SH_CTA, H_AUTO, SC_WARP)
ONESIDED_OPS(SH_CTA, H_AUTO, SC_BLOCK)
ONESIDED_OPS(SH_GPU, H_AUTO, SC_THREAD)
ONESIDED_OPS(SH_GPU, H_AUTO, SC_WARP)
ONESIDED_OPS(SH_GPU, H_AUTO, SC_BLOCK)
/* Each explicit handler (the handler only changes the submit path). */
ONESIDED_OPS(SH_GPU, H_PROXY, SC_THREAD)
ONESIDED_OPS(SH_GPU, H_DB, SC_WARP)
ONESIDED_OPS(SH_CTA, H_BF, SC_THREAD)
ONESIDED_OPS(SH_EXCL, H_NODBR, SC_BLOCK)
/* get's other mcst / blocking combinations. */
template __global__ void
	k_get<SH_GPU, H_AUTO, SC_THREAD, MCST_OFF, DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED>(struct args);
template __global__ void k_get<SH_GPU, H_AUTO, SC_WARP, MCST_OFF, BLOCKING>(struct args);
template __global__ void
	k_get<SH_CTA, H_AUTO, SC_BLOCK, MCST_ON, DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED>(struct args);

/* The scope-named variants. */
__global__ void k_named_put(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_put_thread<SH_GPU, H_AUTO>(a.qp, a.raddr, a.laddr, a.size, &t);

	rc += doca_gpu_dev_verbs_put_warp<SH_CTA, H_DB>(a.qp, a.raddr, a.laddr, a.size, &t, 0);
	out(a, t + (uint64_t)rc);
}

__global__ void k_named_p(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_p_thread<uint16_t, SH_EXCL>(a.qp, a.raddr, (uint16_t)3, &t);

	rc += doca_gpu_dev_verbs_p_warp<uint8_t, SH_GPU>(a.qp, a.raddr, (uint8_t)3, &t);
	out(a, t + (uint64_t)rc);
}

__global__ void k_named_put_signal(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_put_signal_thread<SIG_ADD>(a.qp, a.raddr, a.laddr, a.size, a.sig_raddr, a.sig_laddr,
							       1, &t);

	rc += doca_gpu_dev_verbs_put_signal_warp<SIG_ADD, SH_GPU, H_AUTO>(a.qp, a.raddr, a.laddr, a.size, a.sig_raddr,
									  a.sig_laddr, 1, &t);
	out(a, t + (uint64_t)rc);
}

__global__ void k_named_signal(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_signal_thread<SIG_ADD>(a.qp, a.sig_raddr, a.sig_laddr, 1, &t);

	rc += doca_gpu_dev_verbs_signal_warp<SIG_ADD, SH_EXCL>(a.qp, a.sig_raddr, a.sig_laddr, 1, &t);
	out(a, t + (uint64_t)rc);
}

__global__ void k_named_get(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_get_thread<SH_GPU, H_AUTO, MCST_ON>(a.qp, a.raddr, a.laddr, a.size, a.daddr, &t);

	rc += doca_gpu_dev_verbs_get_warp<SH_GPU, H_AUTO, MCST_OFF, BLOCKING>(a.qp, a.raddr, a.laddr, a.size, a.daddr,
									      &t);
	out(a, t + (uint64_t)rc);
}

__global__ void k_get_wait(struct args a)
{
	int rc = doca_gpu_dev_verbs_get_wait<SH_GPU, H_AUTO, MCST_ON>(a.qp, a.daddr, a.out[0]);

	rc += doca_gpu_dev_verbs_get_wait<SH_CTA, H_AUTO, MCST_ON>(a.qp, a.daddr);
	rc += doca_gpu_dev_verbs_get_wait<SH_EXCL>(a.qp, a.daddr, a.out[0]);
	rc += doca_gpu_dev_verbs_get_wait(a.qp, a.daddr);
	out(a, rc);
}

__global__ void k_wait(struct args a)
{
	int rc = doca_gpu_dev_verbs_wait<SH_CTA>(a.qp, a.out[0]);

	rc += doca_gpu_dev_verbs_wait<SH_EXCL, H_AUTO>(a.qp);
	rc += doca_gpu_dev_verbs_wait(a.qp, a.out[1]);
	rc += doca_gpu_dev_verbs_wait(a.qp);
	out(a, rc);
}

/* Defaults only, results ignored, ticket-less overloads: how DOCA's samples call. */
__global__ void k_defaults_put(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	doca_gpu_dev_verbs_put(a.qp, a.raddr, a.laddr, a.size, &t);
	doca_gpu_dev_verbs_put(a.qp, a.raddr, a.laddr, a.size);
	doca_gpu_dev_verbs_put<SH_GPU, H_AUTO, SC_WARP>(a.qp, a.raddr, a.laddr, a.size,
							DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING);
	out(a, t);
}

__global__ void k_defaults_p(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	doca_gpu_dev_verbs_p<uint64_t>(a.qp, a.raddr, 1ull, &t);
	doca_gpu_dev_verbs_p<uint32_t, SH_CTA>(a.qp, a.raddr, 1u);
	out(a, t);
}

__global__ void k_defaults_signals(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	doca_gpu_dev_verbs_put_signal<SIG_ADD>(a.qp, a.raddr, a.laddr, a.size, a.sig_raddr, a.sig_laddr, 1, &t);
	doca_gpu_dev_verbs_put_signal<SIG_ADD>(a.qp, a.raddr, a.laddr, a.size, a.sig_raddr, a.sig_laddr, 1);
	out(a, t);
}

__global__ void k_defaults_p_signal(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	doca_gpu_dev_verbs_p_signal<uint32_t, SIG_ADD>(a.qp, a.raddr, 1u, a.sig_raddr, a.sig_laddr, 1, &t);
	doca_gpu_dev_verbs_p_signal<uint8_t, SIG_ADD>(a.qp, a.raddr, (uint8_t)1, a.sig_raddr, a.sig_laddr, 1);
	out(a, t);
}

__global__ void k_defaults_signal(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	doca_gpu_dev_verbs_signal<SIG_ADD>(a.qp, a.sig_raddr, a.sig_laddr, 1, &t);
	doca_gpu_dev_verbs_signal<SIG_ADD>(a.qp, a.sig_raddr, a.sig_laddr, 1);
	out(a, t);
}

__global__ void k_defaults_get_fence(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	doca_gpu_dev_verbs_get(a.qp, a.raddr, a.laddr, a.size, a.daddr, &t);
	doca_gpu_dev_verbs_fence(a.qp);
	out(a, t);
}

/* Small kernels whose register counts -Xptxas -v reports for put at each scope. */
__global__ void put_thread_kernel(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_put<SH_GPU, H_AUTO, SC_THREAD>(a.qp, a.raddr, a.laddr, a.size, &t);

	out(a, t + (uint64_t)rc);
}

__global__ void put_warp_kernel(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_put<SH_GPU, H_AUTO, SC_WARP>(a.qp, a.raddr, a.laddr, a.size, &t);

	out(a, t + (uint64_t)rc);
}

__global__ void put_block_kernel(struct args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_put<SH_GPU, H_AUTO, SC_BLOCK>(a.qp, a.raddr, a.laddr, a.size, &t);

	out(a, t + (uint64_t)rc);
}

/* ---- counter operations and multi-QP submits ------------------------------------------------- */

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_put_counter(struct args a)
{
	out(a, doca_gpu_dev_verbs_put_counter<S, H, E>(a.qp, a.raddr, a.laddr, a.size, a.companion, a.cnt_raddr,
						       a.cnt_laddr, 1));
}

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_p_counter(struct args a)
{
	out(a, doca_gpu_dev_verbs_p_counter<uint32_t, S, H, E>(a.qp, a.raddr, 5u, a.companion, a.cnt_raddr, a.cnt_laddr,
							       1));
}

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_put_signal_counter(struct args a)
{
	out(a, doca_gpu_dev_verbs_put_signal_counter<SIG_ADD, S, H, E>(a.qp, a.raddr, a.laddr, a.size, a.sig_raddr,
								       a.sig_laddr, 1, a.companion, a.cnt_raddr,
								       a.cnt_laddr, 1));
}

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_signal_counter(struct args a)
{
	out(a, doca_gpu_dev_verbs_signal_counter<SIG_ADD, S, H, E>(a.qp, a.sig_raddr, a.sig_laddr, 1, a.companion,
								   a.cnt_raddr, a.cnt_laddr, 1));
}

template <sharing_t S, handler_t H, scope_t E>
__global__ void k_get_counter(struct args a)
{
	out(a, doca_gpu_dev_verbs_get_counter<S, H, E>(a.qp, a.raddr, a.laddr, a.size, a.companion, a.cnt_raddr,
						       a.cnt_laddr, 1, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT));
}

#define COUNTER_OPS(S, H, E)                                                                                           \
	template __global__ void k_put_counter<S, H, E>(struct args);                                                  \
	template __global__ void k_p_counter<S, H, E>(struct args);                                                    \
	template __global__ void k_put_signal_counter<S, H, E>(struct args);                                           \
	template __global__ void k_signal_counter<S, H, E>(struct args);                                               \
	template __global__ void k_get_counter<S, H, E>(struct args);

COUNTER_OPS(SH_EXCL, H_AUTO, SC_THREAD)
COUNTER_OPS(SH_EXCL, H_AUTO, SC_WARP)
COUNTER_OPS(SH_EXCL, H_AUTO, SC_BLOCK)
COUNTER_OPS(SH_CTA, H_AUTO, SC_THREAD)
COUNTER_OPS(SH_CTA, H_AUTO, SC_WARP)
COUNTER_OPS(SH_CTA, H_AUTO, SC_BLOCK)
COUNTER_OPS(SH_GPU, H_AUTO, SC_THREAD)
COUNTER_OPS(SH_GPU, H_AUTO, SC_WARP)
COUNTER_OPS(SH_GPU, H_AUTO, SC_BLOCK)
COUNTER_OPS(SH_GPU, H_PROXY, SC_THREAD)
COUNTER_OPS(SH_CTA, H_DB, SC_WARP)
COUNTER_OPS(SH_GPU, H_BF, SC_THREAD)
COUNTER_OPS(SH_EXCL, H_NODBR, SC_BLOCK)

__global__ void k_multi_submits(struct args a)
{
	struct doca_gpu_dev_verbs_qp *qps[2] = { a.qp, a.companion };
	uint64_t pis[2] = { a.out[0], a.out[1] };

	doca_gpu_dev_verbs_submit_multi_qps<2>(qps, pis);
	doca_gpu_dev_verbs_submit_multi_qps<2, SH_CTA, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS, H_DB>(qps, pis);
	doca_gpu_dev_verbs_submit_multi_qps<2, SH_EXCL, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU, H_PROXY>(qps, pis, 0);
	doca_gpu_dev_verbs_submit_db_multi_qps<2, SH_GPU>(qps, pis);
	doca_gpu_dev_verbs_submit_db_multi_qps<2, SH_EXCL, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS>(
		qps, pis, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING);
	doca_gpu_dev_verbs_submit_db_multi_qps_no_dbr<2, SH_CTA>(qps, pis);
	doca_gpu_dev_verbs_submit_proxy_multi_qps<2>(qps, pis);
}

/* ---- qp: slots, readiness, doorbells, submit, WQE builders ----------------------------------- */

template <sharing_t S>
__global__ void k_slots(struct args a)
{
	int status = 0;
	uint64_t base = doca_gpu_dev_verbs_reserve_wq_slots<S>(a.qp, 2);

	base += doca_gpu_dev_verbs_reserve_wq_slots<S, DOCA_GPUNETIO_VERBS_QP_SQ>(
		a.qp, 1, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_AVAILABILITY_CHECK, &status);
	base += (uint64_t)status + (uint64_t)doca_gpu_dev_verbs_wait_until_slot_available<S>(a.qp, base);
	doca_gpu_dev_verbs_mark_wqes_ready<S>(a.qp, base, base);
	doca_gpu_dev_verbs_mark_wqes_ready<S, DOCA_GPUNETIO_VERBS_QP_SQ, DOCA_GPUNETIO_VERBS_READY_MODE_DEFAULT>(
		a.qp, base, base + 1);
	doca_gpu_dev_verbs_mark_wqes_ready<S, DOCA_GPUNETIO_VERBS_QP_SQ, DOCA_GPUNETIO_VERBS_READY_MODE_LD_ST>(
		a.qp, base, base + 1, 0);
	doca_gpu_dev_verbs_ring_proxy<S>(a.qp, base + 1);
	out(a, base);
}

template __global__ void k_slots<SH_EXCL>(struct args);
template __global__ void k_slots<SH_CTA>(struct args);
template __global__ void k_slots<SH_GPU>(struct args);

template <sharing_t S, handler_t H>
__global__ void k_submit(struct args a)
{
	doca_gpu_dev_verbs_submit<S, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS, H>(a.qp, a.out[0]);
}

#define SUBMIT_HANDLERS(S)                                                                                             \
	template __global__ void k_submit<S, H_AUTO>(struct args);                                                     \
	template __global__ void k_submit<S, H_PROXY>(struct args);                                                    \
	template __global__ void k_submit<S, H_DB>(struct args);                                                       \
	template __global__ void k_submit<S, H_BF>(struct args);                                                       \
	template __global__ void k_submit<S, H_NODBR>(struct args);

SUBMIT_HANDLERS(SH_EXCL)
SUBMIT_HANDLERS(SH_CTA)
SUBMIT_HANDLERS(SH_GPU)

template <sharing_t S>
__global__ void k_submit_named(struct args a)
{
	__shared__ struct doca_gpu_dev_verbs_wqe wqe;

	doca_gpu_dev_verbs_submit_db<S>(a.qp, a.out[0]);
	doca_gpu_dev_verbs_submit_db_no_dbr<S>(a.qp, a.out[0]);
	doca_gpu_dev_verbs_submit_bf<S>(a.qp, a.out[0], &wqe);
	doca_gpu_dev_verbs_submit_bf_warp<S>(a.qp, a.out[0], &wqe);
	doca_gpu_dev_verbs_submit_proxy<S>(a.qp, a.out[0]);
}

template __global__ void k_submit_named<SH_EXCL>(struct args);
template __global__ void k_submit_named<SH_CTA>(struct args);
template __global__ void k_submit_named<SH_GPU>(struct args);

/* The sync_scope and code_opt arguments of the submit family, with their defaults. */
__global__ void k_submit_scopes(struct args a)
{
	__shared__ struct doca_gpu_dev_verbs_wqe wqe;
	const uint64_t pi = a.out[0];

	doca_gpu_dev_verbs_submit(a.qp, pi);
	doca_gpu_dev_verbs_submit<SH_GPU, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU, H_AUTO, DOCA_GPUNETIO_VERBS_QP_SQ>(
		a.qp, pi, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_CPU_PROXY_UPDATE_PI);
	doca_gpu_dev_verbs_submit<SH_CTA, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_CTA>(
		a.qp, pi, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING);
	doca_gpu_dev_verbs_submit<SH_EXCL, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_THREAD, H_DB>(a.qp, pi);
	doca_gpu_dev_verbs_submit_db<SH_GPU, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS, DOCA_GPUNETIO_VERBS_QP_SQ>(a.qp, pi,
													    0);
	doca_gpu_dev_verbs_submit_db_no_dbr<SH_GPU, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS, DOCA_GPUNETIO_VERBS_QP_SQ>(a.qp,
														   pi);
	doca_gpu_dev_verbs_submit_bf<SH_EXCL, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>(a.qp, pi, &wqe, 0);
	doca_gpu_dev_verbs_submit_proxy<SH_GPU, DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS>(
		a.qp, pi, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_CPU_PROXY_UPDATE_PI);
}

template <sync_t Y>
__global__ void k_doorbells(struct args a)
{
	__shared__ struct doca_gpu_dev_verbs_wqe wqe;
	const uint64_t pi = a.out[0];

	doca_gpu_dev_verbs_update_dbr<Y>(a.qp, (uint32_t)pi);
	doca_gpu_dev_verbs_update_dbr<Y, DOCA_GPUNETIO_VERBS_QP_SQ>(
		a.qp, (uint32_t)pi, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_ASYNC_STORE_RELEASE);
	doca_gpu_dev_verbs_ring_db<Y>(a.qp, pi);
	doca_gpu_dev_verbs_ring_db<Y>(a.qp, pi, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_ASYNC_STORE_RELEASE);
	doca_gpu_dev_verbs_ring_bf<Y>(a.qp, &wqe);
	doca_gpu_dev_verbs_ring_bf_warp<Y>(a.qp, &wqe);
}

template __global__ void k_doorbells<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS>(struct args);
template __global__ void k_doorbells<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>(struct args);
template __global__ void k_doorbells<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_CTA>(struct args);
template __global__ void k_doorbells<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_THREAD>(struct args);

__global__ void k_doorbell_defaults(struct args a)
{
	const uint64_t pi = a.out[0];

	doca_gpu_dev_verbs_update_dbr(a.qp, (uint32_t)pi);
	doca_gpu_dev_verbs_ring_db(a.qp, pi);
	doca_gpu_dev_verbs_ring_bf(a.qp, doca_gpu_dev_verbs_get_wqe_ptr(a.qp, pi - 1));
	out(a, doca_gpu_dev_verbs_prepare_dbr((uint32_t)pi) + doca_gpu_dev_verbs_prepare_db(a.qp, pi));
}

__global__ void k_builders(struct args a)
{
	struct doca_gpu_dev_verbs_qp *qp = a.qp;
	const uint64_t idx = a.out[0];
	struct doca_gpu_dev_verbs_wqe *w0 = doca_gpu_dev_verbs_get_wqe_ptr(qp, idx);
	struct doca_gpu_dev_verbs_wqe *w1 = doca_gpu_dev_verbs_get_wqe_ptr(qp, (uint16_t)(idx + 1));
	uint64_t seg[2] = { 1, 2 };

	doca_gpu_dev_verbs_store_wqe_seg((uint64_t *)w0, seg);
	doca_gpu_dev_verbs_wqe_prepare_nop(qp, w0, idx, CE);
	doca_gpu_dev_verbs_wqe_prepare_write(qp, w0, idx, DOCA_GPUNETIO_IB_MLX5_OPCODE_RDMA_WRITE, CE, 0, a.raddr.addr,
					     a.raddr.key, a.laddr.addr, a.laddr.key, 64);
	doca_gpu_dev_verbs_wqe_prepare_write(qp, w0, (uint16_t)idx, DOCA_GPUNETIO_IB_MLX5_OPCODE_RDMA_WRITE_IMM,
					     DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_UPDATE_FENCE, 0x01020304u, a.raddr.addr,
					     a.raddr.key, a.laddr.addr, a.laddr.key, 64, a.daddr.addr, a.daddr.key, 8);
	doca_gpu_dev_verbs_prepare_inl_rdma_write_wqe_header(qp, w0, idx, CE, a.raddr.addr, a.raddr.key, 4);
	doca_gpu_dev_verbs_prepare_inl_rdma_write_wqe_data<uint32_t>(qp, w0, 0xabcdu);
	doca_gpu_dev_verbs_prepare_inl_rdma_write_wqe_data<uint64_t>(qp, w0, 0xabcdull);
	(void)doca_gpu_dev_verbs_wqe_prepare_write_inl(qp, w0, idx, CE, a.raddr.addr, a.raddr.key, a.laddr.addr, 20);
	doca_gpu_dev_verbs_wqe_prepare_read(qp, w0, idx, CE, a.raddr.addr, a.raddr.key, a.laddr.addr, a.laddr.key, 64);
	doca_gpu_dev_verbs_wqe_prepare_read(qp, w0, idx, CE, a.raddr.addr, a.raddr.key, a.laddr.addr, a.laddr.key, 64,
					    a.daddr.addr, a.daddr.key, 8);
	doca_gpu_dev_verbs_wqe_prepare_atomic(qp, w0, idx, DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_FA, CE, a.sig_raddr.addr,
					      a.sig_raddr.key, a.sig_laddr.addr, a.sig_laddr.key, 8, 1, 0);
	doca_gpu_dev_verbs_wqe_prepare_atomic(qp, w0, idx, DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_CS, CE, a.sig_raddr.addr,
					      a.sig_raddr.key, a.sig_laddr.addr, a.sig_laddr.key, 8, 1, 2);
	doca_gpu_dev_verbs_wqe_prepare_atomic_ext(qp, w0, w1, idx, DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_MASKED_FA, CE,
						  a.sig_raddr.addr, a.sig_raddr.key, a.sig_laddr.addr, a.sig_laddr.key,
						  1, 0x80, 0, 0, 0, 0);
	doca_gpu_dev_verbs_wqe_prepare_atomic_ext<DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_4>(
		qp, w0, w1, idx, DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_MASKED_CS, CE, a.sig_raddr.addr, a.sig_raddr.key,
		a.sig_laddr.addr, a.sig_laddr.key, 0, 0, 5, 6, 0xff, 0xff);
	doca_gpu_dev_verbs_wqe_prepare_atomic_ext<DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_8>(
		qp, w0, w1, idx, DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_MASKED_FA, CE, a.sig_raddr.addr, a.sig_raddr.key,
		a.sig_laddr.addr, a.sig_laddr.key, 1, 0x8000, 0, 0, 0, 0);
	doca_gpu_dev_verbs_wqe_prepare_atomic_ext<DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_8>(
		qp, w0, w1, idx, DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_MASKED_CS, CE, a.sig_raddr.addr, a.sig_raddr.key,
		a.sig_laddr.addr, a.sig_laddr.key, 0, 0, 5, 6, ~0ull, ~0ull);
	doca_gpu_dev_verbs_wqe_prepare_wait(qp, w0, idx, CE, 17, a.companion->cq_sq.cq_num);
	doca_gpu_dev_verbs_wqe_prepare_dump(qp, w0, idx, CE, a.daddr.addr, a.daddr.key, 1);
}

/* ---- cq -------------------------------------------------------------------------------------- */

template <sharing_t S>
__global__ void k_polls(struct args a)
{
	struct doca_gpu_dev_verbs_cq *cq = doca_gpu_dev_verbs_qp_get_cq_sq(a.qp);
	const uint64_t idx = a.out[0];
	int rc = doca_gpu_dev_verbs_poll_one_cq_at<S>(cq, idx);

	rc += doca_gpu_dev_verbs_poll_one_cq_at<S, DOCA_GPUNETIO_VERBS_QP_SQ>(cq, idx + 1);
	rc += doca_gpu_dev_verbs_poll_cq_at<S>(cq, idx);
	rc += doca_gpu_dev_verbs_poll_cq_collapsed_at<S>(a.qp, idx);
	rc += doca_gpu_dev_verbs_poll_cq<S>(cq, 4);
	out(a, rc);
}

template __global__ void k_polls<SH_EXCL>(struct args);
template __global__ void k_polls<SH_CTA>(struct args);
template __global__ void k_polls<SH_GPU>(struct args);

__global__ void k_cq(struct args a)
{
	struct doca_gpu_dev_verbs_cq *cq = doca_gpu_dev_verbs_qp_get_cq_sq(a.qp);
	const uint64_t idx = a.out[0];
	uint64_t acc = 0;
	int rc;

	/* Defaults, as DOCA's samples call them. */
	rc = doca_gpu_dev_verbs_poll_cq_at(cq, idx);
	rc |= doca_gpu_dev_verbs_poll_cq_collapsed_at(a.qp, idx);
	if (OPENGDA_DEV_IS_CQE_ERROR(rc))
		doca_gpu_dev_verbs_cq_print_cqe_err(cq->cqe_daddr);
	acc += doca_gpu_dev_verbs_cqe_idx_inc_mask((uint32_t)idx, 3);
	acc += doca_gpu_dev_verbs_cq_update_dbrec<true>(cq, 1);
	acc += doca_gpu_dev_verbs_cq_update_dbrec<false>(cq, 1);
	out(a, acc + (uint64_t)rc);
}

/* ---- common ---------------------------------------------------------------------------------- */

template <sharing_t S>
__global__ void k_atomics(uint64_t *w64, uint32_t *w32, int *lock, long long *s64)
{
	uint64_t acc = 0;

	acc += doca_gpu_dev_verbs_atomic_max<uint64_t, S>(w64, 5ull);
	acc += doca_gpu_dev_verbs_atomic_max<uint64_t, S, true>(w64, 6ull);
	acc += doca_gpu_dev_verbs_atomic_max<uint32_t, S>(w32, 5u);
	acc += (uint64_t)doca_gpu_dev_verbs_atomic_max<long long, S>(s64, -5ll);
	acc += doca_gpu_dev_verbs_atomic_add<uint64_t, S>(w64, 1ull);
	acc += doca_gpu_dev_verbs_atomic_add<uint32_t, S>(w32, 1u);
	acc += (uint64_t)doca_gpu_dev_verbs_atomic_add<long long, S>(s64, -1ll);
	acc += doca_gpu_dev_verbs_atomic_read<uint64_t, S>(w64);
	acc += doca_gpu_dev_verbs_atomic_read<uint32_t, S>(w32);
	acc += doca_gpu_dev_verbs_load_relaxed<S>(w64);
	doca_gpu_dev_verbs_lock<S>(lock);
	doca_gpu_dev_verbs_unlock<S>(lock);
	w64[threadIdx.x + 8] = acc;
}

template __global__ void k_atomics<SH_EXCL>(uint64_t *, uint32_t *, int *, long long *);
template __global__ void k_atomics<SH_CTA>(uint64_t *, uint32_t *, int *, long long *);
template __global__ void k_atomics<SH_GPU>(uint64_t *, uint32_t *, int *, long long *);

template <sync_t Y>
__device__ __forceinline__ void fences(uint64_t *w64, uint32_t *w32)
{
	doca_gpu_dev_verbs_fence_acquire<Y>();
	doca_gpu_dev_verbs_fence_release<Y>();
	doca_gpu_dev_verbs_async_store_release<Y>(w64, 1ull);
	doca_gpu_dev_verbs_async_store_release<Y>(w32, 1u);
}

__global__ void k_common(uint64_t *w64, uint32_t *w32, uint8_t *bytes)
{
	uint64_t acc = doca_gpu_dev_verbs_query_globaltimer() + doca_gpu_dev_verbs_get_lane_id();

	acc += doca_gpu_dev_verbs_bswap16((uint16_t)acc) + doca_gpu_dev_verbs_bswap32((uint32_t)acc) +
	       doca_gpu_dev_verbs_bswap64(acc);
	doca_gpu_dev_verbs_store_relaxed_mmio(w64 + 1, acc);
	fences<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS>(w64, w32);
	fences<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>(w64, w32);
	fences<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_CTA>(w64, w32);
	fences<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_THREAD>(w64, w32);
	doca_gpu_dev_verbs_async_store_release(w64, acc);
	doca_gpu_dev_verbs_async_store_release(w32, (uint32_t)acc);
	doca_gpu_dev_verbs_memcpy_data(bytes + 1, bytes + 64, 13);
	doca_gpu_dev_verbs_memcpy_aligned_data(bytes + 128, bytes + 192, 11);
	doca_gpu_dev_verbs_memcpy_inl_aligned_data<uint32_t>((uint32_t *)(bytes + 256), (uint32_t *)(bytes + 320), 10);
	doca_gpu_dev_verbs_memcpy_inl_aligned_data<uint64_t>((uint64_t *)(bytes + 384), (uint64_t *)(bytes + 448), 16);
	acc += doca_gpu_dev_verbs_isaligned(bytes + 3, 4) ? 1 : 0;
	acc += doca_gpu_dev_verbs_load_relaxed_sys_global(bytes) +
	       doca_gpu_dev_verbs_load_relaxed_sys_global((uint16_t *)(bytes + 2)) +
	       doca_gpu_dev_verbs_load_relaxed_sys_global(w32) + doca_gpu_dev_verbs_load_relaxed_sys_global(w64);
	acc += doca_gpu_dev_verbs_div_ceil_aligned_pow2(acc, DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE_SHIFT) +
	       doca_gpu_dev_verbs_div_ceil_aligned_pow2_32bits(acc, DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE_SHIFT);
	DOCA_GPUNETIO_VOLATILE(bytes[500]) = (uint8_t)acc;
	w64[threadIdx.x] = acc;
}
