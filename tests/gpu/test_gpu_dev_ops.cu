/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU test: every one-sided operation of the device API from real CUDA kernels, under every NIC
 * handler the software NIC supports with a GPU (GPU_SM_DB, GPU_SM_BF, GPU_SM_NO_DBR on a
 * DBR-less QP, CPU_PROXY driven by a doca_gpu_verbs service, AUTO, NO_DBR_SW_EMULATED), on a
 * high-level QP whose data buffers are GPU memory: put, p of 1/2/4/8 bytes, put_signal (thread
 * and warp), p_signal, signal, get with mcst off and on (thread, blocking, warp), get_wait with
 * and without a ticket, wait without a ticket, fence (thread and warp), and put with the handler
 * named in the template. Each case checks the bytes that landed (on the host, and in the kernel
 * right after its wait returned), signal sums and fetched values, tickets, the WQEs and CQEs in
 * the rings, and that the reserved, published and rung indices and the CQ consumer index all
 * equal the number of WQEs posted so far. The 256-WQE ring wraps during the run.
 */
#include "gpu_dev_util.cuh"

#include <stdio.h>
#include <stdlib.h>

#include <memory>

#define SQ_NWQE 256u
#define BUF 65536u
/* Remote buffer R */
#define R_DATA 0u        /* 16 KiB of put / get data */
#define R_P 16384u       /* inline-write targets */
#define R_SIG 24576u     /* signal words, 8 bytes each */
/* Local buffer L */
#define L_SRC 0u         /* 16 KiB of put sources */
#define L_GET 16384u     /* 16 KiB of get destinations */
#define L_OLD 49152u     /* values fetched by signals, 8 bytes each */
#define L_DUMP 61440u    /* the byte DUMPs name */
#define NRES 64u

struct ops_args {
	struct doca_gpu_dev_verbs_qp *qp;
	addr_t l, r;
	handler_t handler; /* the QP's resolved handler */
	int *rc;
	uint64_t *tk;
	uint64_t *val;
};

/* ---- kernels --------------------------------------------------------------------------------- */

__global__ void k_put(ops_args a)
{
	static const uint32_t sizes[3] = {64, 1024, 4096};
	doca_gpu_dev_verbs_ticket_t t = 0;

	for (int k = 0; k < 3; k++) {
		a.rc[k] = doca_gpu_dev_verbs_put(a.qp, addr_at(a.r, R_DATA + 4096u * k), addr_at(a.l, L_SRC + 4096u * k),
						 sizes[k], &t);
		a.tk[k] = t;
	}
	a.rc[3] = doca_gpu_dev_verbs_wait(a.qp, t);
	a.val[0] = 0;
	for (int k = 0; k < 3; k++)
		a.val[0] += dev_count_diff(a.r.addr + R_DATA + 4096u * k, a.l.addr + L_SRC + 4096u * k, sizes[k]);
}

__global__ void k_p(ops_args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[0] = doca_gpu_dev_verbs_p<uint8_t>(a.qp, addr_at(a.r, R_P + 0), (uint8_t)0xa1, &t);
	a.tk[0] = t;
	a.rc[1] = doca_gpu_dev_verbs_p<uint16_t>(a.qp, addr_at(a.r, R_P + 16), (uint16_t)0xb2c3, &t);
	a.tk[1] = t;
	a.rc[2] = doca_gpu_dev_verbs_p<uint32_t>(a.qp, addr_at(a.r, R_P + 32), 0xd4e5f607u, &t);
	a.tk[2] = t;
	a.rc[3] = doca_gpu_dev_verbs_p<uint64_t>(a.qp, addr_at(a.r, R_P + 48), 0x0817263544536271ull, &t);
	a.tk[3] = t;
	a.rc[4] = doca_gpu_dev_verbs_wait(a.qp, t);
}

/* 8 threads: 512 B each to its own range, then +1 on one signal. */
__global__ void k_put_signal(ops_args a)
{
	const uint32_t i = threadIdx.x;
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[i] = doca_gpu_dev_verbs_put_signal<DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD>(
		a.qp, addr_at(a.r, R_DATA + 512u * i), addr_at(a.l, L_SRC + 512u * i), 512, addr_at(a.r, R_SIG + 0),
		addr_at(a.l, L_OLD + 8u * i), 1, &t);
	a.tk[i] = t;
	if (a.rc[i] == 0)
		a.rc[i] = doca_gpu_dev_verbs_wait(a.qp, t);
	a.val[i] = dev_count_diff(a.r.addr + R_DATA + 512u * i, a.l.addr + L_SRC + 512u * i, 512);
}

/* A warp: 256 B per lane, +1 each on a second signal. */
__global__ void k_put_signal_warp(ops_args a)
{
	const uint32_t i = threadIdx.x;
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[i] = doca_gpu_dev_verbs_put_signal_warp<DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD>(
		a.qp, addr_at(a.r, R_DATA + 4096u + 256u * i), addr_at(a.l, L_SRC + 4096u + 256u * i), 256,
		addr_at(a.r, R_SIG + 8), addr_at(a.l, L_OLD + 64u + 8u * i), 1, &t);
	a.tk[i] = t;
	if (a.rc[i] == 0)
		a.rc[i] = doca_gpu_dev_verbs_wait(a.qp, t);
	a.val[i] = dev_count_diff(a.r.addr + R_DATA + 4096u + 256u * i, a.l.addr + L_SRC + 4096u + 256u * i, 256);
}

/* 4 threads: an 8-byte inline value each, +1 on a third signal. */
__global__ void k_p_signal(ops_args a)
{
	const uint32_t i = threadIdx.x;
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[i] = doca_gpu_dev_verbs_p_signal<uint64_t, DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD>(
		a.qp, addr_at(a.r, R_P + 64u + 8u * i), 0x1111111111111111ull * (i + 1), addr_at(a.r, R_SIG + 16),
		addr_at(a.l, L_OLD + 320u + 8u * i), 1, &t);
	a.tk[i] = t;
	if (a.rc[i] == 0)
		a.rc[i] = doca_gpu_dev_verbs_wait(a.qp, t);
}

/* One thread: 10 adds of k + 1 on a fourth signal, each fetching the value before it. */
__global__ void k_signal(ops_args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	for (uint32_t k = 0; k < 10; k++) {
		a.rc[k] = doca_gpu_dev_verbs_signal<DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD>(
			a.qp, addr_at(a.r, R_SIG + 24), addr_at(a.l, L_OLD + 384u + 8u * k), k + 1, &t);
		a.tk[k] = t;
	}
	a.rc[10] = doca_gpu_dev_verbs_wait(a.qp, t);
	a.val[0] = dev_read_u64(a.r.addr + R_SIG + 24);
}

/* One thread reads len bytes from R_DATA + roff into L_GET + loff (mcst / blocking as given). */
template <enum doca_gpu_dev_verbs_mcst_mode M, enum doca_gpu_dev_verbs_blocking_mode B>
__global__ void k_get(ops_args a, uint32_t roff, uint32_t loff, uint32_t len)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[0] = doca_gpu_dev_verbs_get<SH_GPU, H_AUTO, SC_THREAD, M, B>(a.qp, addr_at(a.r, R_DATA + roff),
									   addr_at(a.l, L_GET + loff), len,
									   addr_at(a.l, L_DUMP), &t);
	a.tk[0] = t;
	a.rc[1] = B == DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED ? 0 : doca_gpu_dev_verbs_wait(a.qp, t);
	a.val[0] = dev_count_diff(a.l.addr + L_GET + loff, a.r.addr + R_DATA + roff, len);
}

/* A warp reads 128 B per lane with mcst on: one DUMP after the group's reads. */
__global__ void k_get_warp(ops_args a)
{
	const uint32_t i = threadIdx.x;
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[i] = doca_gpu_dev_verbs_get_warp<SH_GPU, H_AUTO, DOCA_GPUNETIO_VERBS_MCST_ENABLED>(
		a.qp, addr_at(a.r, R_DATA + 8192u + 128u * i), addr_at(a.l, L_GET + 8192u + 128u * i), 128,
		addr_at(a.l, L_DUMP), &t);
	a.tk[i] = t;
	if (a.rc[i] == 0)
		a.rc[i] = doca_gpu_dev_verbs_wait(a.qp, t);
	a.val[i] = dev_count_diff(a.l.addr + L_GET + 8192u + 128u * i, a.r.addr + R_DATA + 8192u + 128u * i, 128);
}

/* get without mcst, then get_wait with mcst (posts a DUMP, waits for it); then the ticket-less form. */
__global__ void k_get_wait(ops_args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[0] = doca_gpu_dev_verbs_get(a.qp, addr_at(a.r, R_DATA + 12288u), addr_at(a.l, L_GET + 12288u), 3000,
					 addr_at(a.l, L_DUMP), &t);
	a.tk[0] = t;
	a.rc[1] = doca_gpu_dev_verbs_get_wait<SH_GPU, H_AUTO, DOCA_GPUNETIO_VERBS_MCST_ENABLED>(a.qp, addr_at(a.l, L_DUMP),
												  t);
	a.val[0] = dev_count_diff(a.l.addr + L_GET + 12288u, a.r.addr + R_DATA + 12288u, 3000);
	a.rc[2] = doca_gpu_dev_verbs_get(a.qp, addr_at(a.r, R_DATA + 15360u), addr_at(a.l, L_GET + 15360u), 1000,
					 addr_at(a.l, L_DUMP), &t);
	a.tk[1] = t;
	a.rc[3] = doca_gpu_dev_verbs_get_wait(a.qp, addr_at(a.l, L_DUMP));
	a.val[1] = dev_count_diff(a.l.addr + L_GET + 15360u, a.r.addr + R_DATA + 15360u, 1000);
}

/* 16 threads put 256 B each without waiting; then one thread waits for the QP as a whole. */
__global__ void k_wait_all(ops_args a)
{
	const uint32_t i = threadIdx.x;
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[i] = doca_gpu_dev_verbs_put(a.qp, addr_at(a.r, R_DATA + 256u * i), addr_at(a.l, L_SRC + 256u * i), 256, &t);
	a.tk[i] = t;
	__syncthreads();
	if (i == 0) {
		a.rc[16] = doca_gpu_dev_verbs_wait(a.qp);
		a.val[0] = dev_count_diff(a.r.addr + R_DATA, a.l.addr + L_SRC, 4096);
	}
}

/* Read X, fence, overwrite X: the read must return the old bytes. */
__global__ void k_fence(ops_args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[0] = doca_gpu_dev_verbs_get(a.qp, addr_at(a.r, R_DATA), addr_at(a.l, L_GET), 4096, addr_at(a.l, L_DUMP), &t);
	a.tk[0] = t;
	a.rc[1] = doca_gpu_dev_verbs_fence(a.qp);
	a.rc[2] = doca_gpu_dev_verbs_put(a.qp, addr_at(a.r, R_DATA), addr_at(a.l, L_SRC), 4096, &t);
	a.tk[1] = t;
	a.rc[3] = doca_gpu_dev_verbs_wait(a.qp, t);
}

/* A warp: 64 B per lane, one fence for the warp, 64 B per lane again. */
__global__ void k_fence_warp(ops_args a)
{
	const uint32_t i = threadIdx.x;
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc;

	rc = doca_gpu_dev_verbs_put<SH_GPU, H_AUTO, SC_WARP>(a.qp, addr_at(a.r, R_DATA + 64u * i),
							      addr_at(a.l, L_SRC + 64u * i), 64, &t);
	a.tk[i] = t;
	if (rc == 0)
		rc = doca_gpu_dev_verbs_fence<SH_GPU, H_AUTO, SC_WARP>(a.qp);
	if (rc == 0)
		rc = doca_gpu_dev_verbs_put<SH_GPU, H_AUTO, SC_WARP>(a.qp, addr_at(a.r, R_DATA + 2048u + 64u * i),
								      addr_at(a.l, L_SRC + 2048u + 64u * i), 64, &t);
	a.tk[32 + i] = t;
	a.rc[i] = rc != 0 ? rc : doca_gpu_dev_verbs_wait(a.qp, t);
}

/* put through the handler named at compile time (the QP's own). */
template <handler_t H>
__device__ __noinline__ int put_with(ops_args a, doca_gpu_dev_verbs_ticket_t *t)
{
	return doca_gpu_dev_verbs_put<SH_GPU, H, SC_THREAD>(a.qp, addr_at(a.r, R_DATA + 14336u), addr_at(a.l, L_SRC + 14336u),
							     128, t);
}

__global__ void k_put_named(ops_args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	switch (a.handler) {
	case H_PROXY: a.rc[0] = put_with<H_PROXY>(a, &t); break;
	case H_DB: a.rc[0] = put_with<H_DB>(a, &t); break;
	case H_BF: a.rc[0] = put_with<H_BF>(a, &t); break;
	case H_NODBR: a.rc[0] = put_with<H_NODBR>(a, &t); break;
	default: a.rc[0] = -1; return;
	}
	a.tk[0] = t;
	a.rc[1] = doca_gpu_dev_verbs_wait(a.qp, t);
	a.val[0] = dev_count_diff(a.r.addr + R_DATA + 14336u, a.l.addr + L_SRC + 14336u, 128);
}

/* ---- host side ------------------------------------------------------------------------------- */

/* One handler configuration's QP, buffers and running WQE count. */
struct run {
	gdf *f;
	const gdf_handler_case *hc;
	gdf_qp q;
	bool have_qp;
	gdf_buf L, R;
	uint64_t n;      /* WQEs posted on the QP so far */
	dev_array<int> rc{NRES};
	dev_array<uint64_t> tk{NRES}, val{NRES};
	int h_rc[NRES];
	uint64_t h_tk[NRES], h_val[NRES];
	uint8_t host[BUF];
	uint8_t src[BUF];
};

static ops_args args_of(run &r)
{
	ops_args a = {r.q.dqp, gdf_laddr(&r.L, 0), gdf_raddr(&r.R, 0), r.q.handler, r.rc.p, r.tk.p, r.val.p};

	return a;
}

/* Results start as values no kernel writes, so a store that never happened fails the checks. */
static void results_reset(run &r)
{
	(void)cudaMemset(r.rc.p, 0x7f, NRES * sizeof(int));
	(void)cudaMemset(r.tk.p, 0xff, NRES * sizeof(uint64_t));
	(void)cudaMemset(r.val.p, 0xff, NRES * sizeof(uint64_t));
}

static void results_get(run &r, gdf_check *chk)
{
	GDF_EXPECT(chk, r.rc.get(r.h_rc) && r.tk.get(r.h_tk) && r.val.get(r.h_val), "cannot read the kernel's results");
}

static void expect_rc_zero(const run &r, uint32_t count, gdf_check *chk)
{
	for (uint32_t i = 0; i < count; i++)
		GDF_EXPECT(chk, r.h_rc[i] == 0, "status %u is %d (syndrome %#x)", i, r.h_rc[i],
			   OPENGDA_DEV_IS_CQE_ERROR(r.h_rc[i]) ? OPENGDA_DEV_CQE_ERROR_SYNDROME(r.h_rc[i]) : 0);
}

/* WQE idx of the ring: opcode, index and (when ds != 0) its size. */
static void expect_wqe(const run &r, uint64_t idx, uint8_t opcode, uint8_t ds, gdf_check *chk)
{
	const struct opengda_mlx5_wqe_ctrl_seg *c = gdf_qp_wqe(&r.q, false, idx);

	GDF_EXPECT(chk, opengda_mlx5_ctrl_opcode(c) == opcode && opengda_mlx5_ctrl_wqe_index(c) == (uint16_t)idx,
		   "WQE %llu: opcode %#x index %u; want %#x, %u", (unsigned long long)idx, opengda_mlx5_ctrl_opcode(c),
		   opengda_mlx5_ctrl_wqe_index(c), opcode, (unsigned)(uint16_t)idx);
	GDF_EXPECT(chk, ds == 0 || opengda_mlx5_ctrl_ds(c) == ds, "WQE %llu: %u segments; want %u",
		   (unsigned long long)idx, opengda_mlx5_ctrl_ds(c), ds);
}

/* The successful requester CQE of WQE idx, of the WQE's opcode and byte count. */
static void expect_cqe(const run &r, uint64_t idx, uint8_t wqe_opcode, uint32_t bytes, gdf_check *chk)
{
	struct opengda_mlx5_cqe_fields c;

	gdf_qp_cqe(&r.q, false, idx, &c);
	GDF_EXPECT(chk, c.opcode == OPENGDA_MLX5_CQE_REQ && c.wqe_opcode == wqe_opcode && c.wqe_counter == (uint16_t)idx &&
				c.qpn == gdf_qp_num(&r.q, false) && c.byte_cnt == bytes,
		   "CQE of WQE %llu: opcode %u, WQE opcode %#x, counter %u, QP %#x, %u bytes; want 0, %#x, %u, %#x, %u",
		   (unsigned long long)idx, c.opcode, c.wqe_opcode, c.wqe_counter, c.qpn, c.byte_cnt, wqe_opcode,
		   (unsigned)(uint16_t)idx, gdf_qp_num(&r.q, false), bytes);
}

/* Host copy of the remote (or local) buffer. */
static void read_buf(run &r, const gdf_buf *b, gdf_check *chk)
{
	GDF_EXPECT(chk, gdf_buf_read(b, 0, r.host, BUF) == 0, "cannot read a GPU buffer back");
}

static uint64_t host_u64(const run &r, size_t off)
{
	uint64_t v;

	memcpy(&v, r.host + off, 8);
	return v;
}

/* Tickets of `count` calls of `per_call` WQEs posted concurrently from index n0: each a distinct last WQE. */
static void expect_call_tickets(const run &r, uint64_t n0, uint32_t count, uint32_t per_call, gdf_check *chk)
{
	uint64_t seen = 0;

	for (uint32_t i = 0; i < count; i++) {
		uint64_t rel = r.h_tk[i] - n0;

		GDF_EXPECT(chk, rel < (uint64_t)count * per_call && rel % per_call == per_call - 1 && !(seen >> (rel / per_call) & 1),
			   "call %u: ticket %llu (from %llu): not the last WQE of a call of its own", i,
			   (unsigned long long)r.h_tk[i], (unsigned long long)n0);
		if (chk->ok)
			seen |= 1ull << (rel / per_call);
	}
}

/* Values fetched by `count` adds of 1 starting at `from`: a permutation of from .. from + count - 1. */
static void expect_fetched_permutation(const run &r, size_t off, uint32_t count, uint64_t from, gdf_check *chk)
{
	uint64_t seen = 0;

	for (uint32_t i = 0; i < count; i++) {
		uint64_t v = host_u64(r, off + 8u * i) - from;

		GDF_EXPECT(chk, v < count && !(seen >> v & 1), "add %u fetched %llu; want distinct values %llu..%llu", i,
			   (unsigned long long)(v + from), (unsigned long long)from, (unsigned long long)(from + count - 1));
		if (chk->ok)
			seen |= 1ull << v;
	}
}

/*
 * Prepares buffers for a case: all of R cleared to GDF_FILL, L_SRC the pattern, L_GET 0x22 and
 * the fetched-value slots 0x44 (so a value never fetched cannot pass for one of an earlier case).
 */
static void buffers_reset(run &r, uint32_t seed, gdf_check *chk)
{
	gdf_pattern(r.src, BUF, seed);
	GDF_EXPECT(chk, gdf_buf_write(&r.L, L_SRC, r.src + L_SRC, 16384) == 0 && gdf_buf_set(&r.L, L_GET, 0x22, 16384) == 0 &&
				gdf_buf_set(&r.L, L_OLD, 0x44, L_DUMP - L_OLD) == 0 && gdf_buf_set(&r.R, 0, GDF_FILL, BUF) == 0,
		   "cannot reset the buffers");
}

/* Runs one case: body launches and checks; then the indices must equal r.n. */
template <typename Body>
static void run_case(run &r, const char *op, Body body)
{
	char name[96];
	gdf_check chk;

	snprintf(name, sizeof(name), "ops/%s/%s", r.hc->name, op);
	gdf_check_init(&chk);
	if (!r.have_qp) {
		GDF_EXPECT(&chk, false, "no QP (an earlier case broke it and it could not be made again)");
		gdf_report(r.f, name, &chk, NULL);
		return;
	}
	results_reset(r);
	body(name, &chk);
	gdf_check_indices(&r.q, false, r.n, &chk);
	gdf_report(r.f, name, &chk, NULL);
	if (!chk.ok) {
		/* A fresh QP keeps one failure from failing every later case. */
		gdf_qp_cfg cfg = {r.hc->request, r.hc->mode, (uint16_t)SQ_NWQE, false, 0};

		gdf_qp_destroy(r.f, &r.q);
		r.have_qp = gdf_qp_create(r.f, &cfg, &r.q) == 0;
		r.n = 0;
	}
}

static void ops_for_handler(gdf *f, const gdf_handler_case *hc, run &r)
{
	const gdf_qp_cfg cfg = {hc->request, hc->mode, (uint16_t)SQ_NWQE, false, 0};
	char name[96];
	gdf_check chk;

	r.f = f;
	r.hc = hc;
	r.n = 0;
	snprintf(name, sizeof(name), "ops/%s/export", hc->name);
	gdf_check_init(&chk);
	r.have_qp = gdf_qp_create(f, &cfg, &r.q) == 0;
	GDF_EXPECT(&chk, r.have_qp, "cannot create the QP");
	if (r.have_qp)
		gdf_check_export(&r.q, hc, SQ_NWQE, GDF_WAIT_TIMEOUT_NS, &chk);
	gdf_report(f, name, &chk, gdf_handler_name(r.q.handler));

	run_case(r, "put", [&](const char *n, gdf_check *c) {
		static const uint32_t sizes[3] = {64, 1024, 4096};

		buffers_reset(r, 11, c);
		k_put<<<1, 1>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 4, c);
		GDF_EXPECT(c, r.h_val[0] == 0, "%llu bytes differed when the wait returned", (unsigned long long)r.h_val[0]);
		read_buf(r, &r.R, c);
		for (uint32_t k = 0; k < 3; k++) {
			GDF_EXPECT(c, r.h_tk[k] == r.n + k, "put %u: ticket %llu, want %llu", k, (unsigned long long)r.h_tk[k],
				   (unsigned long long)(r.n + k));
			GDF_EXPECT(c, memcmp(r.host + R_DATA + 4096u * k, r.src + L_SRC + 4096u * k, sizes[k]) == 0,
				   "put %u: bytes differ", k);
			GDF_EXPECT(c, gdf_all_check(r.host + R_DATA + 4096u * k + sizes[k], 4096u - sizes[k], GDF_FILL) < 0,
				   "put %u wrote past its %u bytes", k, sizes[k]);
			expect_wqe(r, r.n + k, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 3, c);
			expect_cqe(r, r.n + k, OPENGDA_MLX5_OPCODE_RDMA_WRITE, sizes[k], c);
		}
		r.n += 3;
	});

	run_case(r, "p_1_2_4_8", [&](const char *n, gdf_check *c) {
		static const uint8_t want[4][8] = {{0xa1},
						   {0xc3, 0xb2},
						   {0x07, 0xf6, 0xe5, 0xd4},
						   {0x71, 0x62, 0x53, 0x44, 0x35, 0x26, 0x17, 0x08}};
		static const uint32_t lens[4] = {1, 2, 4, 8};

		buffers_reset(r, 12, c);
		k_p<<<1, 1>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 5, c);
		read_buf(r, &r.R, c);
		for (uint32_t k = 0; k < 4; k++) {
			const struct opengda_mlx5_wqe_inl_data_seg *inl =
				(const struct opengda_mlx5_wqe_inl_data_seg *)(const void *)((const uint8_t *)gdf_qp_wqe(
												     &r.q, false, r.n + k) +
											     32);

			GDF_EXPECT(c, r.h_tk[k] == r.n + k, "p %u: ticket %llu", k, (unsigned long long)r.h_tk[k]);
			GDF_EXPECT(c, memcmp(r.host + R_P + 16u * k, want[k], lens[k]) == 0, "p of %u bytes: wrong bytes", lens[k]);
			GDF_EXPECT(c, gdf_all_check(r.host + R_P + 16u * k + lens[k], 16u - lens[k], GDF_FILL) < 0,
				   "p of %u bytes wrote past them", lens[k]);
			expect_wqe(r, r.n + k, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 3, c);
			GDF_EXPECT(c, opengda_mlx5_inline_len(inl) == lens[k] && memcmp((const uint8_t *)inl + 4, want[k], lens[k]) == 0,
				   "p of %u bytes: inline segment says %u bytes", lens[k], opengda_mlx5_inline_len(inl));
			expect_cqe(r, r.n + k, OPENGDA_MLX5_OPCODE_RDMA_WRITE, lens[k], c);
		}
		r.n += 4;
	});

	run_case(r, "put_signal", [&](const char *n, gdf_check *c) {
		buffers_reset(r, 13, c);
		k_put_signal<<<1, 8>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 8, c);
		for (uint32_t i = 0; i < 8; i++)
			GDF_EXPECT(c, r.h_val[i] == 0, "thread %u: %llu bytes differed when its wait returned", i,
				   (unsigned long long)r.h_val[i]);
		expect_call_tickets(r, r.n, 8, 2, c);
		read_buf(r, &r.R, c);
		GDF_EXPECT(c, memcmp(r.host + R_DATA, r.src + L_SRC, 4096) == 0, "the puts' bytes differ");
		/* The signal's start value: 8 bytes of GDF_FILL. */
		GDF_EXPECT(c, host_u64(r, R_SIG) == 0x3333333333333333ull + 8, "signal %#llx; want start + 8 calls",
			   (unsigned long long)host_u64(r, R_SIG));
		read_buf(r, &r.L, c);
		expect_fetched_permutation(r, L_OLD, 8, 0x3333333333333333ull, c);
		for (uint32_t i = 0; i < 8 && c->ok; i++) {
			expect_wqe(r, r.h_tk[i] - 1, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 3, c);
			expect_wqe(r, r.h_tk[i], OPENGDA_MLX5_OPCODE_ATOMIC_FA, 0, c);
			expect_cqe(r, r.h_tk[i] - 1, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 512, c);
			expect_cqe(r, r.h_tk[i], OPENGDA_MLX5_OPCODE_ATOMIC_FA, 8, c);
		}
		r.n += 16;
	});

	run_case(r, "put_signal_warp", [&](const char *n, gdf_check *c) {
		buffers_reset(r, 14, c);
		k_put_signal_warp<<<1, 32>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 32, c);
		for (uint32_t i = 0; i < 32; i++) {
			/* One range for the warp, in lane order: lane i's signal is WQE 2i + 1. */
			GDF_EXPECT(c, r.h_tk[i] == r.n + 2 * i + 1, "lane %u: ticket %llu; want %llu", i,
				   (unsigned long long)r.h_tk[i], (unsigned long long)(r.n + 2 * i + 1));
			GDF_EXPECT(c, r.h_val[i] == 0, "lane %u: %llu bytes differed when its wait returned", i,
				   (unsigned long long)r.h_val[i]);
		}
		read_buf(r, &r.R, c);
		GDF_EXPECT(c, memcmp(r.host + R_DATA + 4096, r.src + L_SRC + 4096, 8192) == 0, "the puts' bytes differ");
		GDF_EXPECT(c, host_u64(r, R_SIG + 8) == 0x3333333333333333ull + 32, "signal %#llx; want start + 32 calls",
			   (unsigned long long)host_u64(r, R_SIG + 8));
		read_buf(r, &r.L, c);
		expect_fetched_permutation(r, L_OLD + 64, 32, 0x3333333333333333ull, c);
		for (uint32_t i = 0; i < 32 && c->ok; i++) {
			expect_cqe(r, r.n + 2 * i, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 256, c);
			expect_cqe(r, r.n + 2 * i + 1, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 8, c);
		}
		r.n += 64;
	});

	run_case(r, "p_signal", [&](const char *n, gdf_check *c) {
		buffers_reset(r, 15, c);
		k_p_signal<<<1, 4>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 4, c);
		expect_call_tickets(r, r.n, 4, 2, c);
		read_buf(r, &r.R, c);
		for (uint32_t i = 0; i < 4; i++)
			GDF_EXPECT(c, host_u64(r, R_P + 64 + 8 * i) == 0x1111111111111111ull * (i + 1), "thread %u: value %#llx", i,
				   (unsigned long long)host_u64(r, R_P + 64 + 8 * i));
		GDF_EXPECT(c, host_u64(r, R_SIG + 16) == 0x3333333333333333ull + 4, "signal %#llx; want start + 4 calls",
			   (unsigned long long)host_u64(r, R_SIG + 16));
		read_buf(r, &r.L, c);
		expect_fetched_permutation(r, L_OLD + 320, 4, 0x3333333333333333ull, c);
		for (uint32_t i = 0; i < 4 && c->ok; i++) {
			expect_cqe(r, r.h_tk[i] - 1, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 8, c);
			expect_cqe(r, r.h_tk[i], OPENGDA_MLX5_OPCODE_ATOMIC_FA, 8, c);
		}
		r.n += 8;
	});

	run_case(r, "signal", [&](const char *n, gdf_check *c) {
		const uint64_t start = 1000;
		uint64_t sum = start;

		buffers_reset(r, 16, c);
		GDF_EXPECT(c, gdf_buf_write(&r.R, R_SIG + 24, &start, 8) == 0, "cannot set the signal");
		k_signal<<<1, 1>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 11, c);
		GDF_EXPECT(c, r.h_val[0] == start + 55, "the kernel read the signal as %llu after its wait; want %llu",
			   (unsigned long long)r.h_val[0], (unsigned long long)(start + 55));
		read_buf(r, &r.R, c);
		GDF_EXPECT(c, host_u64(r, R_SIG + 24) == start + 55, "signal %llu; want %llu",
			   (unsigned long long)host_u64(r, R_SIG + 24), (unsigned long long)(start + 55));
		read_buf(r, &r.L, c);
		for (uint32_t k = 0; k < 10; k++) {
			/* One thread, one QP: each add saw exactly the earlier ones. */
			GDF_EXPECT(c, host_u64(r, L_OLD + 384 + 8 * k) == sum, "add %u fetched %llu; want %llu", k,
				   (unsigned long long)host_u64(r, L_OLD + 384 + 8 * k), (unsigned long long)sum);
			GDF_EXPECT(c, r.h_tk[k] == r.n + k, "add %u: ticket %llu", k, (unsigned long long)r.h_tk[k]);
			expect_cqe(r, r.n + k, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 8, c);
			sum += k + 1;
		}
		r.n += 10;
	});

	/* get: mcst off (the read alone), mcst on (read + DUMP), mcst on and blocking. */
	struct get_case {
		const char *name;
		int mode; /* 0 off, 1 on, 2 on + blocking */
		uint32_t roff, loff, len;
	};
	static const get_case gets[3] = {{"get_mcst_off", 0, 0, 0, 4096}, {"get_mcst_on", 1, 4096, 4096, 2048},
					 {"get_blocking", 2, 6144, 6144, 1024}};
	for (const get_case &g : gets) {
		run_case(r, g.name, [&](const char *n, gdf_check *c) {
			const uint64_t want_ticket = r.n + (g.mode == 0 ? 0 : 1);

			buffers_reset(r, 17, c);
			GDF_EXPECT(c, gdf_buf_write(&r.R, R_DATA, r.src, 16384) == 0, "cannot fill the remote buffer");
			if (g.mode == 0)
				k_get<DOCA_GPUNETIO_VERBS_MCST_DISABLED, DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED>
					<<<1, 1>>>(args_of(r), g.roff, g.loff, g.len);
			else if (g.mode == 1)
				k_get<DOCA_GPUNETIO_VERBS_MCST_ENABLED, DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED>
					<<<1, 1>>>(args_of(r), g.roff, g.loff, g.len);
			else
				k_get<DOCA_GPUNETIO_VERBS_MCST_ENABLED, DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED>
					<<<1, 1>>>(args_of(r), g.roff, g.loff, g.len);
			gdf_sync(f, n, c);
			results_get(r, c);
			expect_rc_zero(r, 2, c);
			GDF_EXPECT(c, r.h_val[0] == 0, "%llu bytes read differed when the get returned / its wait returned",
				   (unsigned long long)r.h_val[0]);
			GDF_EXPECT(c, r.h_tk[0] == want_ticket, "ticket %llu; want %llu", (unsigned long long)r.h_tk[0],
				   (unsigned long long)want_ticket);
			read_buf(r, &r.L, c);
			GDF_EXPECT(c, memcmp(r.host + L_GET + g.loff, r.src + g.roff, g.len) == 0, "the bytes read differ");
			GDF_EXPECT(c, gdf_all_check(r.host + L_GET + g.loff + g.len, 64, 0x22) < 0, "the read wrote past %u bytes",
				   g.len);
			expect_wqe(r, r.n, OPENGDA_MLX5_OPCODE_RDMA_READ, 3, c);
			expect_cqe(r, r.n, OPENGDA_MLX5_OPCODE_RDMA_READ, g.len, c);
			if (g.mode != 0) {
				const struct opengda_mlx5_wqe_data_seg *d =
					(const struct opengda_mlx5_wqe_data_seg *)(const void *)((const uint8_t *)gdf_qp_wqe(
													 &r.q, false, r.n + 1) +
												 16);

				expect_wqe(r, r.n + 1, OPENGDA_MLX5_OPCODE_DUMP, 2, c);
				GDF_EXPECT(c, opengda_mlx5_data_seg_byte_count(d) == 1 && opengda_mlx5_data_seg_lkey(d) == r.L.lkey,
					   "DUMP: %u bytes, lkey %#x; want 1, %#x", opengda_mlx5_data_seg_byte_count(d),
					   opengda_mlx5_data_seg_lkey(d), r.L.lkey);
				expect_cqe(r, r.n + 1, OPENGDA_MLX5_OPCODE_DUMP, 0, c);
			}
			r.n += g.mode == 0 ? 1 : 2;
		});
	}

	run_case(r, "get_warp_mcst_on", [&](const char *n, gdf_check *c) {
		buffers_reset(r, 18, c);
		GDF_EXPECT(c, gdf_buf_write(&r.R, R_DATA, r.src, 16384) == 0, "cannot fill the remote buffer");
		k_get_warp<<<1, 32>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 32, c);
		for (uint32_t i = 0; i < 32; i++) {
			/* One DUMP after the warp's 32 reads; every lane's ticket is the DUMP's. */
			GDF_EXPECT(c, r.h_tk[i] == r.n + 32, "lane %u: ticket %llu; want %llu", i, (unsigned long long)r.h_tk[i],
				   (unsigned long long)(r.n + 32));
			GDF_EXPECT(c, r.h_val[i] == 0, "lane %u: %llu bytes differed after its wait", i,
				   (unsigned long long)r.h_val[i]);
		}
		read_buf(r, &r.L, c);
		GDF_EXPECT(c, memcmp(r.host + L_GET + 8192, r.src + 8192, 4096) == 0, "the bytes read differ");
		for (uint32_t i = 0; i < 32 && c->ok; i++)
			expect_cqe(r, r.n + i, OPENGDA_MLX5_OPCODE_RDMA_READ, 128, c);
		expect_wqe(r, r.n + 32, OPENGDA_MLX5_OPCODE_DUMP, 2, c);
		r.n += 33;
	});

	run_case(r, "get_wait", [&](const char *n, gdf_check *c) {
		buffers_reset(r, 19, c);
		GDF_EXPECT(c, gdf_buf_write(&r.R, R_DATA, r.src, 16384) == 0, "cannot fill the remote buffer");
		k_get_wait<<<1, 1>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 4, c);
		GDF_EXPECT(c, r.h_val[0] == 0 && r.h_val[1] == 0, "%llu / %llu bytes differed when get_wait returned",
			   (unsigned long long)r.h_val[0], (unsigned long long)r.h_val[1]);
		/* get (n), get_wait's DUMP (n + 1), get (n + 2); the ticket-less get_wait posts nothing. */
		GDF_EXPECT(c, r.h_tk[0] == r.n && r.h_tk[1] == r.n + 2, "tickets %llu, %llu; want %llu, %llu",
			   (unsigned long long)r.h_tk[0], (unsigned long long)r.h_tk[1], (unsigned long long)r.n,
			   (unsigned long long)(r.n + 2));
		expect_wqe(r, r.n + 1, OPENGDA_MLX5_OPCODE_DUMP, 2, c);
		expect_cqe(r, r.n + 2, OPENGDA_MLX5_OPCODE_RDMA_READ, 1000, c);
		read_buf(r, &r.L, c);
		GDF_EXPECT(c, memcmp(r.host + L_GET + 12288, r.src + 12288, 3000) == 0 &&
				      memcmp(r.host + L_GET + 15360, r.src + 15360, 1000) == 0,
			   "the bytes read differ");
		r.n += 3;
	});

	run_case(r, "wait_without_ticket", [&](const char *n, gdf_check *c) {
		uint64_t seen = 0;

		buffers_reset(r, 20, c);
		k_wait_all<<<1, 16>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 17, c);
		GDF_EXPECT(c, r.h_val[0] == 0, "%llu bytes differed when the wait returned", (unsigned long long)r.h_val[0]);
		for (uint32_t i = 0; i < 16; i++) {
			uint64_t rel = r.h_tk[i] - r.n;

			GDF_EXPECT(c, rel < 16 && !(seen >> rel & 1), "thread %u: ticket %llu", i, (unsigned long long)r.h_tk[i]);
			seen |= 1ull << (rel & 63);
		}
		read_buf(r, &r.R, c);
		GDF_EXPECT(c, memcmp(r.host + R_DATA, r.src + L_SRC, 4096) == 0, "the puts' bytes differ");
		r.n += 16;
	});

	run_case(r, "fence", [&](const char *n, gdf_check *c) {
		const struct opengda_mlx5_wqe_ctrl_seg *nop;
		uint8_t old[4096];

		buffers_reset(r, 21, c);
		gdf_pattern(old, sizeof(old), 99);
		GDF_EXPECT(c, gdf_buf_write(&r.R, R_DATA, old, sizeof(old)) == 0, "cannot fill the remote buffer");
		k_fence<<<1, 1>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 4, c);
		GDF_EXPECT(c, r.h_tk[0] == r.n && r.h_tk[1] == r.n + 2, "tickets %llu, %llu", (unsigned long long)r.h_tk[0],
			   (unsigned long long)r.h_tk[1]);
		/* A signaled NOP with fence mode FENCE: fm_ce_se 0x48, one segment. */
		nop = gdf_qp_wqe(&r.q, false, r.n + 1);
		expect_wqe(r, r.n + 1, OPENGDA_MLX5_OPCODE_NOP, 1, c);
		GDF_EXPECT(c, nop->fm_ce_se == 0x48, "fence NOP: fm_ce_se %#x; want 0x48", nop->fm_ce_se);
		expect_cqe(r, r.n + 1, OPENGDA_MLX5_OPCODE_NOP, 0, c);
		read_buf(r, &r.L, c);
		GDF_EXPECT(c, memcmp(r.host + L_GET, old, 4096) == 0, "the read before the fence did not return the old bytes");
		read_buf(r, &r.R, c);
		GDF_EXPECT(c, memcmp(r.host + R_DATA, r.src + L_SRC, 4096) == 0, "the put after the fence did not land");
		r.n += 3;
	});

	run_case(r, "fence_warp", [&](const char *n, gdf_check *c) {
		buffers_reset(r, 22, c);
		k_fence_warp<<<1, 32>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 32, c);
		for (uint32_t i = 0; i < 32; i++)
			GDF_EXPECT(c, r.h_tk[i] == r.n + i && r.h_tk[32 + i] == r.n + 33 + i, "lane %u: tickets %llu, %llu", i,
				   (unsigned long long)r.h_tk[i], (unsigned long long)r.h_tk[32 + i]);
		/* One fence NOP for the warp, between its two ranges. */
		expect_wqe(r, r.n + 32, OPENGDA_MLX5_OPCODE_NOP, 1, c);
		GDF_EXPECT(c, gdf_qp_wqe(&r.q, false, r.n + 32)->fm_ce_se == 0x48, "fence NOP: fm_ce_se %#x",
			   gdf_qp_wqe(&r.q, false, r.n + 32)->fm_ce_se);
		read_buf(r, &r.R, c);
		GDF_EXPECT(c, memcmp(r.host + R_DATA, r.src + L_SRC, 4096) == 0, "the puts' bytes differ");
		r.n += 65;
	});

	run_case(r, "put_named_handler", [&](const char *n, gdf_check *c) {
		buffers_reset(r, 23, c);
		k_put_named<<<1, 1>>>(args_of(r));
		gdf_sync(f, n, c);
		results_get(r, c);
		expect_rc_zero(r, 2, c);
		GDF_EXPECT(c, r.h_tk[0] == r.n && r.h_val[0] == 0, "ticket %llu, %llu bytes differ after the wait",
			   (unsigned long long)r.h_tk[0], (unsigned long long)r.h_val[0]);
		read_buf(r, &r.R, c);
		GDF_EXPECT(c, memcmp(r.host + R_DATA + 14336, r.src + L_SRC + 14336, 128) == 0, "the bytes differ");
		r.n += 1;
	});

	if (r.have_qp)
		gdf_qp_destroy(f, &r.q);
	r.have_qp = false;
}

int main(void)
{
	gdf f;
	std::unique_ptr<run> r(new run());
	int rc;

	if (gdf_open(&f) != 0)
		return 1;
	if (!r->rc.ok() || !r->tk.ok() || !r->val.ok() || gdf_buf_create(&f, BUF, 0, &r->L) != 0 ||
	    gdf_buf_create(&f, BUF, GDF_FILL, &r->R) != 0) {
		printf("case setup: FAIL cannot make the GPU buffers\n");
		return 1;
	}
	for (unsigned int h = 0; h < gdf_handler_case_count; h++)
		ops_for_handler(&f, &gdf_handler_cases[h], *r);
	gdf_buf_destroy(&r->L);
	gdf_buf_destroy(&r->R);
	gdf_close(&f);
	rc = gdf_summary(&f, "gpu_dev_ops");
	return rc;
}
