/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU test: the *_counter operations from real CUDA kernels on a high-level QP group (main QP and
 * its core-direct companion), under every NIC handler the software NIC supports with a GPU:
 * put_counter (twice), p_counter, put_signal_counter, signal_counter and get_counter from one
 * thread, put_counter from a warp (counter values 1..32) and from a block of 64 threads. Each
 * case checks that the remote counter equals the sum of the counter values, that when the
 * companion's completion arrived the operation's data had already landed (read in the kernel
 * before it waits on the main QP), the value each fetch-and-add fetched, the companion's WAIT
 * WQE (main CQ number and the index of the operation's last WQE) and fetch-and-add, and the
 * indices of both QPs.
 */
#include "gpu_dev_util.cuh"

#include <stdio.h>
#include <stdlib.h>

#include <memory>

#define SQ_NWQE 256u
#define BUF 65536u
#define R_DATA 0u
#define R_P 16384u
#define R_SIG 24576u
#define R_CNT 28672u   /* counters, 8 bytes each */
#define L_SRC 0u
#define L_GET 16384u
#define L_OLD 49152u   /* values the counters' and signals' fetch-and-adds return */
#define SIG_ADD DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD
/*
 * Wait bound of these QPs: far above any completion time, short enough that a lost ring (main
 * and companion share a doorbell page) costs seconds, not minutes, over the seven cases.
 */
#define BOUND_NS 2000000000ull

#define NOT_WAITED 0x7e7e7e7e

struct cnt_args {
	struct doca_gpu_dev_verbs_qp *qp, *comp;
	addr_t l, r;
	int *rc;       /* [0..7] the calls, [8] wait on the companion, [9] wait on the main QP */
	uint64_t *val; /* [0] counter when the companion was done, [1] bytes not yet landed then */
};

/* The main QP is waited for only when the companion completed (else it would cost a second bound). */
__device__ static void wait_main(cnt_args a)
{
	a.rc[9] = a.rc[8] == 0 ? doca_gpu_dev_verbs_wait(a.qp) : NOT_WAITED;
}

/* After the posts: wait for the companion, look at counter and data, then wait for the main QP. */
__device__ static void finish(cnt_args a, uint32_t cnt_off, uint64_t data_a, uint64_t data_b, uint32_t len)
{
	a.rc[8] = doca_gpu_dev_verbs_wait(a.comp);
	a.val[0] = dev_read_u64(a.r.addr + cnt_off);
	a.val[1] = dev_count_diff(data_a, data_b, len);
	wait_main(a);
}

__global__ void k_put_counter(cnt_args a)
{
	a.rc[0] = doca_gpu_dev_verbs_put_counter(a.qp, addr_at(a.r, R_DATA), addr_at(a.l, L_SRC), 1024, a.comp,
						 addr_at(a.r, R_CNT + 0), addr_at(a.l, L_OLD + 0), 3);
	a.rc[1] = doca_gpu_dev_verbs_put_counter(a.qp, addr_at(a.r, R_DATA + 1024), addr_at(a.l, L_SRC + 1024), 1024,
						 a.comp, addr_at(a.r, R_CNT + 0), addr_at(a.l, L_OLD + 8), 4);
	finish(a, R_CNT + 0, a.r.addr + R_DATA, a.l.addr + L_SRC, 2048);
}

__global__ void k_p_counter(cnt_args a)
{
	a.rc[0] = doca_gpu_dev_verbs_p_counter<uint32_t>(a.qp, addr_at(a.r, R_P), 0xcafef00du, a.comp,
							 addr_at(a.r, R_CNT + 8), addr_at(a.l, L_OLD + 16), 5);
	a.rc[8] = doca_gpu_dev_verbs_wait(a.comp);
	a.val[0] = dev_read_u64(a.r.addr + R_CNT + 8);
	a.val[1] = doca_gpu_dev_verbs_load_relaxed_sys_global((uint32_t *)(uintptr_t)(a.r.addr + R_P)) != 0xcafef00du;
	wait_main(a);
}

__global__ void k_put_signal_counter(cnt_args a)
{
	a.rc[0] = doca_gpu_dev_verbs_put_signal_counter<SIG_ADD>(
		a.qp, addr_at(a.r, R_DATA + 2048), addr_at(a.l, L_SRC + 2048), 512, addr_at(a.r, R_SIG), addr_at(a.l, L_OLD + 24),
		1, a.comp, addr_at(a.r, R_CNT + 16), addr_at(a.l, L_OLD + 32), 2);
	finish(a, R_CNT + 16, a.r.addr + R_DATA + 2048, a.l.addr + L_SRC + 2048, 512);
	a.val[2] = dev_read_u64(a.r.addr + R_SIG);
}

__global__ void k_signal_counter(cnt_args a)
{
	a.rc[0] = doca_gpu_dev_verbs_signal_counter<SIG_ADD>(a.qp, addr_at(a.r, R_SIG + 8), addr_at(a.l, L_OLD + 40), 9,
							     a.comp, addr_at(a.r, R_CNT + 24), addr_at(a.l, L_OLD + 48), 1);
	a.rc[8] = doca_gpu_dev_verbs_wait(a.comp);
	a.val[0] = dev_read_u64(a.r.addr + R_CNT + 24);
	a.val[1] = dev_read_u64(a.r.addr + R_SIG + 8) != 9; /* the signal started at 0 */
	wait_main(a);
}

__global__ void k_get_counter(cnt_args a)
{
	a.rc[0] = doca_gpu_dev_verbs_get_counter(a.qp, addr_at(a.r, R_DATA + 4096), addr_at(a.l, L_GET), 1024, a.comp,
						 addr_at(a.r, R_CNT + 32), addr_at(a.l, L_OLD + 56), 10);
	finish(a, R_CNT + 32, a.l.addr + L_GET, a.r.addr + R_DATA + 4096, 1024);
}

/* A warp: 128 B per lane, counter value lane + 1; one WAIT + add of 528 on the companion. */
__global__ void k_put_counter_warp(cnt_args a)
{
	const uint32_t i = threadIdx.x;
	/* Every lane gets the group's status. */
	int rc = doca_gpu_dev_verbs_put_counter<SH_GPU, H_AUTO, SC_WARP>(
		a.qp, addr_at(a.r, R_DATA + 8192 + 128u * i), addr_at(a.l, L_SRC + 8192 + 128u * i), 128, a.comp,
		addr_at(a.r, R_CNT + 40), addr_at(a.l, L_OLD + 64), i + 1);

	__syncwarp();
	if (i == 0) {
		a.rc[0] = rc;
		finish(a, R_CNT + 40, a.r.addr + R_DATA + 8192, a.l.addr + L_SRC + 8192, 4096);
	}
}

/* A block of 64: 64 B per thread, counter value 1 each; one WAIT + add of 64. */
__global__ void k_put_counter_block(cnt_args a)
{
	const uint32_t i = threadIdx.x;
	/* Every thread gets the group's status. */
	int rc = doca_gpu_dev_verbs_put_counter<SH_GPU, H_AUTO, SC_BLOCK>(
		a.qp, addr_at(a.r, R_DATA + 12288 + 64u * i), addr_at(a.l, L_SRC + 12288 + 64u * i), 64, a.comp,
		addr_at(a.r, R_CNT + 48), addr_at(a.l, L_OLD + 72), 1);

	__syncthreads();
	if (i == 0) {
		a.rc[0] = rc;
		finish(a, R_CNT + 48, a.r.addr + R_DATA + 12288, a.l.addr + L_SRC + 12288, 4096);
	}
}

/* ---- host side ------------------------------------------------------------------------------- */

struct run {
	gdf *f;
	const gdf_handler_case *hc;
	gdf_qp q;
	bool have_qp;
	gdf_buf L, R;
	uint64_t n, nc; /* WQEs posted so far on the main QP and on the companion */
	uint32_t main_cqn;
	dev_array<int> rc{16};
	dev_array<uint64_t> val{16};
	int h_rc[16];
	uint64_t h_val[16];
	uint8_t host[BUF];
	uint8_t src[BUF];
};

static cnt_args args_of(run &r)
{
	cnt_args a = {r.q.dqp, r.q.dcomp, gdf_laddr(&r.L, 0), gdf_raddr(&r.R, 0), r.rc.p, r.val.p};

	return a;
}

static uint64_t host_u64(const run &r, size_t off)
{
	uint64_t v;

	memcpy(&v, r.host + off, 8);
	return v;
}

/*
 * Companion WQEs nc, nc + 1 of one counter call: WAIT for main CQE `main_last` on the main CQ,
 * then the fetch-and-add; both completed successfully.
 */
static void expect_companion(const run &r, uint64_t nc, uint64_t main_last, gdf_check *chk)
{
	const struct opengda_mlx5_wqe_ctrl_seg *w = gdf_qp_wqe(&r.q, true, nc), *a = gdf_qp_wqe(&r.q, true, nc + 1);
	const uint8_t *seg = (const uint8_t *)w + 16;
	struct opengda_mlx5_cqe_fields c0, c1;
	uint32_t max_index, cqn;

	memcpy(&max_index, seg + 8, 4);
	memcpy(&cqn, seg + 12, 4);
	max_index = opengda_mlx5_be32toh(max_index);
	cqn = opengda_mlx5_be32toh(cqn) & OPENGDA_MLX5_QPN_MASK;
	GDF_EXPECT(chk, opengda_mlx5_ctrl_opcode(w) == OPENGDA_MLX5_OPCODE_WAIT && opengda_mlx5_ctrl_opcode(a) == OPENGDA_MLX5_OPCODE_ATOMIC_FA,
		   "companion WQEs %llu, %llu: opcodes %#x, %#x; want WAIT, ATOMIC_FA", (unsigned long long)nc,
		   (unsigned long long)(nc + 1), opengda_mlx5_ctrl_opcode(w), opengda_mlx5_ctrl_opcode(a));
	GDF_EXPECT(chk, max_index == (uint32_t)main_last && cqn == r.main_cqn,
		   "WAIT for CQE %u of CQ %#x; want CQE %llu of the main CQ %#x", max_index, cqn,
		   (unsigned long long)main_last, r.main_cqn);
	gdf_qp_cqe(&r.q, true, nc, &c0);
	gdf_qp_cqe(&r.q, true, nc + 1, &c1);
	GDF_EXPECT(chk, c0.opcode == OPENGDA_MLX5_CQE_REQ && c0.wqe_opcode == OPENGDA_MLX5_OPCODE_WAIT &&
				c1.opcode == OPENGDA_MLX5_CQE_REQ && c1.wqe_opcode == OPENGDA_MLX5_OPCODE_ATOMIC_FA && c1.byte_cnt == 8,
		   "companion CQEs: %u/%#x, %u/%#x/%u bytes", c0.opcode, c0.wqe_opcode, c1.opcode, c1.wqe_opcode, c1.byte_cnt);
}

/*
 * One counter case: `kernel` posts `main_wqes` WQEs on the main QP (the last one at index
 * n + main_wqes - 1) and `calls` companion pairs; the counter at cnt_off must reach `sum`.
 */
template <typename Launch, typename Extra>
static void counter_case(run &r, const char *op, uint32_t cnt_off, uint64_t sum, uint32_t main_wqes, uint32_t calls,
			 const uint64_t *main_lasts, Launch launch, Extra extra)
{
	char name[96];
	gdf_check chk;

	snprintf(name, sizeof(name), "counter/%s/%s", r.hc->name, op);
	gdf_check_init(&chk);
	if (!r.have_qp) {
		GDF_EXPECT(&chk, false, "no QP group (an earlier case broke it and it could not be made again)");
		gdf_report(r.f, name, &chk, NULL);
		return;
	}
	gdf_pattern(r.src, BUF, 40 + cnt_off);
	(void)cudaMemset(r.rc.p, 0x7f, 16 * sizeof(int));
	(void)cudaMemset(r.val.p, 0xff, 16 * sizeof(uint64_t));
	GDF_EXPECT(&chk, gdf_buf_write(&r.L, L_SRC, r.src, 16384) == 0 && gdf_buf_set(&r.L, L_GET, 0x22, 16384) == 0 &&
				 gdf_buf_set(&r.L, L_OLD, 0x44, 1024) == 0 && gdf_buf_set(&r.R, 0, 0, BUF) == 0 &&
				 gdf_buf_write(&r.R, R_DATA + 4096, r.src + 4096, 1024) == 0,
		   "cannot reset the buffers");
	launch(args_of(r));
	gdf_sync(r.f, name, &chk);
	GDF_EXPECT(&chk, r.rc.get(r.h_rc) && r.val.get(r.h_val), "cannot read the kernel's results");
	for (uint32_t k = 0; k < calls && chk.ok; k++)
		GDF_EXPECT(&chk, r.h_rc[k] == 0, "call %u: status %d", k, r.h_rc[k]);
	GDF_EXPECT(&chk, r.h_rc[8] == 0, "the wait on the companion returned %d (-110: timed out; the main QP was "
		   "not waited for)", r.h_rc[8]);
	GDF_EXPECT(&chk, r.h_rc[9] == 0, "the wait on the main QP returned %d (-110: timed out)", r.h_rc[9]);
	GDF_EXPECT(&chk, r.h_val[0] == sum, "counter %llu when the companion was done; want %llu",
		   (unsigned long long)r.h_val[0], (unsigned long long)sum);
	GDF_EXPECT(&chk, r.h_val[1] == 0, "the counter moved before the operation's data was there (%llu bytes missing)",
		   (unsigned long long)r.h_val[1]);
	GDF_EXPECT(&chk, gdf_buf_read(&r.R, 0, r.host, BUF) == 0, "cannot read the remote buffer");
	GDF_EXPECT(&chk, host_u64(r, cnt_off) == sum, "remote counter %llu; want %llu",
		   (unsigned long long)host_u64(r, cnt_off), (unsigned long long)sum);
	for (uint32_t k = 0; k < calls && chk.ok; k++)
		expect_companion(r, r.nc + 2 * k, main_lasts[k], &chk);
	if (chk.ok)
		extra(&chk);
	r.n += main_wqes;
	r.nc += 2 * calls;
	gdf_check_indices(&r.q, false, r.n, &chk);
	gdf_check_indices(&r.q, true, r.nc, &chk);
	gdf_report(r.f, name, &chk, NULL);
	if (!chk.ok) {
		gdf_qp_cfg cfg = {r.hc->request, r.hc->mode, (uint16_t)SQ_NWQE, true, BOUND_NS};

		gdf_qp_destroy(r.f, &r.q);
		r.have_qp = gdf_qp_create(r.f, &cfg, &r.q) == 0;
		r.n = r.nc = 0;
		if (r.have_qp) {
			struct doca_gpu_dev_verbs_qp v;

			r.have_qp = gdf_qp_view(&r.q, false, &v) == 0;
			r.main_cqn = v.cq_sq.cq_num;
		}
	}
}

static void counters_for_handler(gdf *f, const gdf_handler_case *hc, run &r)
{
	const gdf_qp_cfg cfg = {hc->request, hc->mode, (uint16_t)SQ_NWQE, true, BOUND_NS};
	struct doca_gpu_dev_verbs_qp v;
	char name[96];
	gdf_check chk;

	r.f = f;
	r.hc = hc;
	r.n = r.nc = 0;
	snprintf(name, sizeof(name), "counter/%s/export", hc->name);
	gdf_check_init(&chk);
	r.have_qp = gdf_qp_create(f, &cfg, &r.q) == 0;
	GDF_EXPECT(&chk, r.have_qp, "cannot create the QP group");
	if (r.have_qp) {
		gdf_check_export(&r.q, hc, SQ_NWQE, BOUND_NS, &chk);
		GDF_EXPECT(&chk, gdf_qp_view(&r.q, false, &v) == 0, "cannot read the main view");
		r.main_cqn = v.cq_sq.cq_num;
	}
	gdf_report(f, name, &chk, gdf_handler_name(r.q.handler));

	{
		const uint64_t lasts[2] = {r.n, r.n + 1};

		counter_case(r, "put_counter", R_CNT + 0, 7, 2, 2, lasts, [](cnt_args a) { k_put_counter<<<1, 1>>>(a); },
			     [&](gdf_check *c) {
				     GDF_EXPECT(c, memcmp(r.host + R_DATA, r.src + L_SRC, 2048) == 0, "the puts' bytes differ");
				     GDF_EXPECT(c, gdf_buf_read(&r.L, 0, r.host, BUF) == 0, "cannot read the local buffer");
				     GDF_EXPECT(c, host_u64(r, L_OLD) == 0 && host_u64(r, L_OLD + 8) == 3,
						"the counter adds fetched %llu, %llu; want 0, 3", (unsigned long long)host_u64(r, L_OLD),
						(unsigned long long)host_u64(r, L_OLD + 8));
			     });
	}
	{
		const uint64_t lasts[1] = {r.n};

		counter_case(r, "p_counter", R_CNT + 8, 5, 1, 1, lasts, [](cnt_args a) { k_p_counter<<<1, 1>>>(a); },
			     [&](gdf_check *c) {
				     uint32_t v32;

				     memcpy(&v32, r.host + R_P, 4);
				     GDF_EXPECT(c, v32 == 0xcafef00du, "p wrote %#x", v32);
			     });
	}
	{
		const uint64_t lasts[1] = {r.n + 1}; /* after the signal */

		counter_case(r, "put_signal_counter", R_CNT + 16, 2, 2, 1, lasts,
			     [](cnt_args a) { k_put_signal_counter<<<1, 1>>>(a); },
			     [&](gdf_check *c) {
				     GDF_EXPECT(c, memcmp(r.host + R_DATA + 2048, r.src + L_SRC + 2048, 512) == 0, "the put's bytes differ");
				     GDF_EXPECT(c, host_u64(r, R_SIG) == 1 && r.h_val[2] == 1, "signal %llu (kernel saw %llu); want 1",
						(unsigned long long)host_u64(r, R_SIG), (unsigned long long)r.h_val[2]);
			     });
	}
	{
		const uint64_t lasts[1] = {r.n};

		counter_case(r, "signal_counter", R_CNT + 24, 1, 1, 1, lasts, [](cnt_args a) { k_signal_counter<<<1, 1>>>(a); },
			     [&](gdf_check *c) {
				     GDF_EXPECT(c, host_u64(r, R_SIG + 8) == 9, "signal %llu; want 9",
						(unsigned long long)host_u64(r, R_SIG + 8));
			     });
	}
	{
		const uint64_t lasts[1] = {r.n};

		counter_case(r, "get_counter", R_CNT + 32, 10, 1, 1, lasts, [](cnt_args a) { k_get_counter<<<1, 1>>>(a); },
			     [&](gdf_check *c) {
				     GDF_EXPECT(c, gdf_buf_read(&r.L, 0, r.host, BUF) == 0, "cannot read the local buffer");
				     GDF_EXPECT(c, memcmp(r.host + L_GET, r.src + 4096, 1024) == 0, "the bytes read differ");
			     });
	}
	{
		const uint64_t lasts[1] = {r.n + 31};

		counter_case(r, "put_counter_warp", R_CNT + 40, 528, 32, 1, lasts,
			     [](cnt_args a) { k_put_counter_warp<<<1, 32>>>(a); },
			     [&](gdf_check *c) {
				     GDF_EXPECT(c, memcmp(r.host + R_DATA + 8192, r.src + L_SRC + 8192, 4096) == 0,
						"the puts' bytes differ");
			     });
	}
	{
		const uint64_t lasts[1] = {r.n + 63};

		counter_case(r, "put_counter_block", R_CNT + 48, 64, 64, 1, lasts,
			     [](cnt_args a) { k_put_counter_block<<<1, 64>>>(a); },
			     [&](gdf_check *c) {
				     GDF_EXPECT(c, memcmp(r.host + R_DATA + 12288, r.src + L_SRC + 12288, 4096) == 0,
						"the puts' bytes differ");
			     });
	}
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
	if (!r->rc.ok() || !r->val.ok() || gdf_buf_create(&f, BUF, 0, &r->L) != 0 || gdf_buf_create(&f, BUF, 0, &r->R) != 0) {
		printf("case setup: FAIL cannot make the GPU buffers\n");
		return 1;
	}
	for (unsigned int h = 0; h < gdf_handler_case_count; h++)
		counters_for_handler(&f, &gdf_handler_cases[h], *r);
	gdf_buf_destroy(&r->L);
	gdf_buf_destroy(&r->R);
	gdf_close(&f);
	rc = gdf_summary(&f, "gpu_dev_counter");
	return rc;
}
