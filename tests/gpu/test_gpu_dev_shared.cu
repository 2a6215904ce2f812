/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU test: doca_gpu_dev_verbs_put from real CUDA kernels at THREAD, WARP and BLOCK scope, with
 * 1, 32, 256 and 1024 threads in one block and 4 blocks of 256, on QPs shared by the whole GPU,
 * by one CTA each, or owned EXCLUSIVEly by one thread / one warp call / one block call. Every
 * thread puts 2 messages (64 B to 4 KiB, sizes differ per thread) to ranges of its own, then
 * waits on its ticket. Checked on the host: every byte landed and nothing beyond it; on each QP
 * the tickets are exactly 0..n-1 (a thread's tickets increasing), the reserved, published and
 * rung indices and the CQ consumer index all equal n, the NIC executed exactly n WQEs without
 * error from at most one doorbell per WQE. Two shapes are also run under every NIC handler the software
 * NIC supports with a GPU. Rings of 1024 WQEs: the larger cases wrap them.
 */
#include "gpu_dev_util.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define STRIDE 4096u      /* bytes of destination range per (thread, message) */
#define ITERS 2u          /* messages per thread */
#define MAX_THREADS 1024u
#define SQ_NWQE 1024u
#define BUF_BYTES ((size_t)MAX_THREADS * ITERS * STRIDE)
#define SRC_SEED 7u

/* Message size of thread gtid's it-th put: 64 B .. 4 KiB. */
__host__ __device__ static inline uint32_t msg_size(uint32_t gtid, uint32_t it)
{
	return 64u * (1u + (gtid * 7u + it * 3u) % 64u);
}

/* Which QP a thread posts to: one for the GPU, one per block (CTA), one per thread / warp / block (EXCLUSIVE). */
__host__ __device__ static inline uint32_t unit_of(sharing_t s, scope_t e, uint32_t gtid, uint32_t block)
{
	if (s == SH_GPU)
		return 0;
	if (s == SH_CTA)
		return block;
	if (e == SC_THREAD)
		return gtid;
	if (e == SC_WARP)
		return gtid / 32u;
	return block;
}

struct put_args {
	struct doca_gpu_dev_verbs_qp *const *qps;
	addr_t src, dst;
	int *rc;           /* per thread: first non-zero put or wait status */
	uint64_t *tickets; /* [it * nthreads + gtid] */
};

template <sharing_t S, scope_t E>
__global__ void put_kernel(put_args a)
{
	const uint32_t nthreads = gridDim.x * blockDim.x;
	const uint32_t gtid = blockIdx.x * blockDim.x + threadIdx.x;
	struct doca_gpu_dev_verbs_qp *qp = a.qps[unit_of(S, E, gtid, blockIdx.x)];
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = 0, w = 0;

	for (uint32_t it = 0; it < ITERS; it++) {
		const uint64_t off = ((uint64_t)it * nthreads + gtid) * STRIDE;
		int r = doca_gpu_dev_verbs_put<S, H_AUTO, E>(qp, addr_at(a.dst, off), addr_at(a.src, off),
							      msg_size(gtid, it), &t);

		a.tickets[it * nthreads + gtid] = t;
		if (rc == 0)
			rc = r;
	}
	if constexpr (S == SH_EXCL && E != SC_THREAD) {
		/* EXCLUSIVE: one thread at a time touches the QP, so the group's leader waits for all of it. */
		bool leader = E == SC_WARP ? (threadIdx.x & 31u) == 0 : threadIdx.x == 0;

		if constexpr (E == SC_WARP)
			__syncwarp();
		else
			__syncthreads();
		if (leader)
			w = doca_gpu_dev_verbs_wait<S, H_AUTO>(qp);
	} else {
		w = doca_gpu_dev_verbs_wait<S, H_AUTO>(qp, t);
	}
	a.rc[gtid] = rc != 0 ? rc : w;
}

struct shared_case {
	scope_t scope;
	sharing_t sharing;
	uint32_t blocks;
	uint32_t threads;
	handler_t handler;
	enum doca_gpu_verbs_send_dbr_mode_ext mode;
};

static const char *scope_name(scope_t e)
{
	return e == SC_THREAD ? "thread" : e == SC_WARP ? "warp" : "block";
}

static const char *sharing_name(sharing_t s)
{
	return s == SH_GPU ? "gpu" : s == SH_CTA ? "cta" : "exclusive";
}

static void launch(const shared_case &c, const put_args &a)
{
	dim3 g(c.blocks), b(c.threads);

#define LAUNCH(S, E)                                                                               \
	if (c.sharing == S && c.scope == E)                                                        \
		put_kernel<S, E><<<g, b>>>(a);
	LAUNCH(SH_GPU, SC_THREAD) LAUNCH(SH_GPU, SC_WARP) LAUNCH(SH_GPU, SC_BLOCK)
	LAUNCH(SH_CTA, SC_THREAD) LAUNCH(SH_CTA, SC_WARP) LAUNCH(SH_CTA, SC_BLOCK)
	LAUNCH(SH_EXCL, SC_THREAD) LAUNCH(SH_EXCL, SC_WARP) LAUNCH(SH_EXCL, SC_BLOCK)
#undef LAUNCH
}

struct bufs {
	gdf_buf src, dst;
	std::vector<uint8_t> src_host; /* what src holds */
	std::vector<uint8_t> dst_host; /* read back per case */
};

/* Per QP: tickets exactly 0..n-1, indices all n, the NIC's counters. */
static void check_qps(const shared_case &c, const std::vector<gdf_qp> &qps, const std::vector<uint64_t> &tickets,
		      gdf_check *chk, uint64_t *doorbells_total)
{
	const uint32_t nthreads = c.blocks * c.threads;
	std::vector<std::vector<uint8_t>> seen(qps.size());
	std::vector<uint64_t> count(qps.size(), 0);

	for (uint32_t gtid = 0; gtid < nthreads; gtid++)
		count[unit_of(c.sharing, c.scope, gtid, gtid / c.threads)] += ITERS;
	for (size_t u = 0; u < qps.size(); u++)
		seen[u].assign(count[u], 0);
	for (uint32_t gtid = 0; gtid < nthreads; gtid++) {
		uint32_t u = unit_of(c.sharing, c.scope, gtid, gtid / c.threads);

		for (uint32_t it = 0; it < ITERS; it++) {
			uint64_t t = tickets[(size_t)it * nthreads + gtid];

			GDF_EXPECT(chk, t < count[u], "thread %u message %u: ticket %llu, QP %zu has %llu WQEs", gtid, it,
				   (unsigned long long)t, (size_t)u, (unsigned long long)count[u]);
			if (!chk->ok)
				return;
			GDF_EXPECT(chk, !seen[u][t], "ticket %llu of QP %u given twice", (unsigned long long)t, u);
			seen[u][t] = 1;
			if (it > 0)
				GDF_EXPECT(chk, t > tickets[(size_t)(it - 1) * nthreads + gtid],
					   "thread %u: ticket %llu after %llu", gtid, (unsigned long long)t,
					   (unsigned long long)tickets[(size_t)(it - 1) * nthreads + gtid]);
		}
	}
	*doorbells_total = 0;
	for (size_t u = 0; u < qps.size() && chk->ok; u++) {
		struct doca_gpu_dev_verbs_qp v;
		uint64_t wqes, doorbells, errors;
		const unsigned long long n = count[u];

		GDF_EXPECT(chk, gdf_qp_view(&qps[u], false, &v) == 0, "QP %zu: cannot read the device view", u);
		if (!chk->ok)
			return;
		GDF_EXPECT(chk, v.sq_rsvd_index == n && v.sq_ready_index == n && v.sq_wqe_pi == n,
			   "QP %zu: reserved %llu, ready %llu, rung %llu; want all %llu", u,
			   (unsigned long long)v.sq_rsvd_index, (unsigned long long)v.sq_ready_index,
			   (unsigned long long)v.sq_wqe_pi, n);
		GDF_EXPECT(chk, v.cq_sq.cqe_ci == n, "QP %zu: CQ consumer index %llu, want %llu", u,
			   (unsigned long long)v.cq_sq.cqe_ci, n);
		GDF_EXPECT(chk, v.cq_sq.ogda_first_error == 0, "QP %zu: error record %#x", u, v.cq_sq.ogda_first_error);
		gdf_swnic_counters(gdf_qp_num(&qps[u], false), &wqes, &doorbells, &errors);
		GDF_EXPECT(chk, wqes == n && errors == 0, "QP %zu: NIC executed %llu WQEs with %llu errors; want %llu, 0", u,
			   (unsigned long long)wqes, (unsigned long long)errors, n);
		/*
		 * At most one ring per WQE. In NO_DBR_SW_EMULATED the service rings the value it read from
		 * the mailbox once more after the GPU's ring, which the NIC may see as a second change.
		 */
		GDF_EXPECT(chk, doorbells >= 1 && doorbells <= (c.mode == M_EMUL ? 2 * n : n),
			   "QP %zu: %llu doorbells for %llu WQEs", u, (unsigned long long)doorbells, n);
		*doorbells_total += doorbells;
	}
}

static void run_case(gdf *f, bufs *b, const shared_case &c)
{
	const uint32_t nthreads = c.blocks * c.threads;
	const size_t used = (size_t)nthreads * ITERS * STRIDE;
	const uint32_t nunits = unit_of(c.sharing, c.scope, nthreads - 1, c.blocks - 1) + 1;
	const gdf_qp_cfg cfg = {c.handler, c.mode, (uint16_t)SQ_NWQE, false, 0};
	char name[128], detail[160] = "";
	std::vector<gdf_qp> qps(nunits);
	std::vector<struct doca_gpu_dev_verbs_qp *> dqps(nunits);
	std::vector<int> rc(nthreads);
	std::vector<uint64_t> tickets((size_t)nthreads * ITERS);
	dev_array<struct doca_gpu_dev_verbs_qp *> d_qps(nunits);
	dev_array<int> d_rc(nthreads);
	dev_array<uint64_t> d_tickets((size_t)nthreads * ITERS);
	uint64_t doorbells = 0, t0, t1;
	size_t made = 0;
	gdf_check chk;

	snprintf(name, sizeof(name), "put/%s/%s/%ux%u/%s", scope_name(c.scope), sharing_name(c.sharing), c.blocks,
		 c.threads, gdf_handler_name(c.handler));
	if (c.mode != M_VALID)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "+%s", gdf_dbr_mode_name(c.mode));
	gdf_check_init(&chk);
	GDF_EXPECT(&chk, d_qps.ok() && d_rc.ok() && d_tickets.ok(), "cannot allocate the result arrays");
	while (made < nunits && chk.ok) {
		GDF_EXPECT(&chk, gdf_qp_create(f, &cfg, &qps[made]) == 0, "cannot create QP %zu of %u", made, nunits);
		if (!chk.ok)
			break;
		dqps[made] = qps[made].dqp;
		made++;
	}
	GDF_EXPECT(&chk, gdf_buf_set(&b->dst, 0, GDF_FILL, used) == 0, "cannot reset the destination");
	if (chk.ok) {
		put_args a = {d_qps.p, gdf_laddr(&b->src, 0), gdf_raddr(&b->dst, 0), d_rc.p, d_tickets.p};

		GDF_EXPECT(&chk, d_qps.put(dqps.data()), "cannot copy the QP table");
		t0 = gdf_now_ns();
		launch(c, a);
		gdf_sync(f, name, &chk);
		t1 = gdf_now_ns();
		GDF_EXPECT(&chk, d_rc.get(rc.data()) && d_tickets.get(tickets.data()), "cannot read the results");
		for (uint32_t i = 0; i < nthreads && chk.ok; i++)
			GDF_EXPECT(&chk, rc[i] == 0, "thread %u: status %d (syndrome %#x)", i, rc[i],
				   OPENGDA_DEV_IS_CQE_ERROR(rc[i]) ? OPENGDA_DEV_CQE_ERROR_SYNDROME(rc[i]) : 0);
		GDF_EXPECT(&chk, gdf_buf_read(&b->dst, 0, b->dst_host.data(), used) == 0, "cannot read the destination");
		for (uint32_t it = 0; it < ITERS && chk.ok; it++) {
			for (uint32_t gtid = 0; gtid < nthreads && chk.ok; gtid++) {
				const size_t off = ((size_t)it * nthreads + gtid) * STRIDE;
				const uint32_t size = msg_size(gtid, it);
				long bad = memcmp(&b->dst_host[off], &b->src_host[off], size) == 0 ? -1 : 0;

				GDF_EXPECT(&chk, bad < 0, "thread %u message %u: %u bytes at +%zu did not land", gtid, it, size, off);
				bad = gdf_all_check(&b->dst_host[off + size], STRIDE - size, GDF_FILL);
				GDF_EXPECT(&chk, bad < 0, "thread %u message %u: byte %ld past its %u bytes was written", gtid, it,
					   bad, size);
			}
		}
		if (chk.ok)
			check_qps(c, qps, tickets, &chk, &doorbells);
		snprintf(detail, sizeof(detail), "%u WQEs on %u QP%s, %llu doorbells, %.1f ms", nthreads * ITERS, nunits,
			 nunits > 1 ? "s" : "", (unsigned long long)doorbells, (double)(t1 - t0) / 1e6);
	}
	for (size_t u = 0; u < made; u++)
		gdf_qp_destroy(f, &qps[u]);
	gdf_report(f, name, &chk, detail);
}

int main(void)
{
	static const shared_case cases[] = {
		/* THREAD scope */
		{SC_THREAD, SH_GPU, 1, 1, H_AUTO, M_VALID},
		{SC_THREAD, SH_GPU, 1, 32, H_AUTO, M_VALID},
		{SC_THREAD, SH_GPU, 1, 256, H_AUTO, M_VALID},
		{SC_THREAD, SH_GPU, 1, 1024, H_AUTO, M_VALID},
		{SC_THREAD, SH_GPU, 4, 256, H_AUTO, M_VALID},
		{SC_THREAD, SH_CTA, 1, 1, H_AUTO, M_VALID},
		{SC_THREAD, SH_CTA, 1, 32, H_AUTO, M_VALID},
		{SC_THREAD, SH_CTA, 1, 256, H_AUTO, M_VALID},
		{SC_THREAD, SH_CTA, 1, 1024, H_AUTO, M_VALID},
		{SC_THREAD, SH_CTA, 4, 256, H_AUTO, M_VALID},
		{SC_THREAD, SH_EXCL, 1, 1, H_AUTO, M_VALID},
		{SC_THREAD, SH_EXCL, 1, 8, H_AUTO, M_VALID},
		/* WARP scope (whole warps only) */
		{SC_WARP, SH_GPU, 1, 32, H_AUTO, M_VALID},
		{SC_WARP, SH_GPU, 1, 256, H_AUTO, M_VALID},
		{SC_WARP, SH_GPU, 1, 1024, H_AUTO, M_VALID},
		{SC_WARP, SH_GPU, 4, 256, H_AUTO, M_VALID},
		{SC_WARP, SH_CTA, 1, 32, H_AUTO, M_VALID},
		{SC_WARP, SH_CTA, 1, 256, H_AUTO, M_VALID},
		{SC_WARP, SH_CTA, 1, 1024, H_AUTO, M_VALID},
		{SC_WARP, SH_CTA, 4, 256, H_AUTO, M_VALID},
		{SC_WARP, SH_EXCL, 1, 32, H_AUTO, M_VALID},
		{SC_WARP, SH_EXCL, 1, 128, H_AUTO, M_VALID},
		/* BLOCK scope */
		{SC_BLOCK, SH_GPU, 1, 1, H_AUTO, M_VALID},
		{SC_BLOCK, SH_GPU, 1, 32, H_AUTO, M_VALID},
		{SC_BLOCK, SH_GPU, 1, 256, H_AUTO, M_VALID},
		{SC_BLOCK, SH_GPU, 1, 1024, H_AUTO, M_VALID},
		{SC_BLOCK, SH_GPU, 4, 256, H_AUTO, M_VALID},
		{SC_BLOCK, SH_CTA, 1, 32, H_AUTO, M_VALID},
		{SC_BLOCK, SH_CTA, 1, 256, H_AUTO, M_VALID},
		{SC_BLOCK, SH_CTA, 1, 1024, H_AUTO, M_VALID},
		{SC_BLOCK, SH_CTA, 4, 256, H_AUTO, M_VALID},
		{SC_BLOCK, SH_EXCL, 1, 256, H_AUTO, M_VALID},
		{SC_BLOCK, SH_EXCL, 4, 256, H_AUTO, M_VALID},
		/* Every handler: 4 blocks sharing one QP, and one QP per block posting per warp. */
		{SC_THREAD, SH_GPU, 4, 256, H_DB, M_VALID},
		{SC_WARP, SH_CTA, 4, 256, H_DB, M_VALID},
		{SC_THREAD, SH_GPU, 4, 256, H_BF, M_VALID},
		{SC_WARP, SH_CTA, 4, 256, H_BF, M_VALID},
		{SC_THREAD, SH_GPU, 4, 256, H_NODBR, M_NODBR},
		{SC_WARP, SH_CTA, 4, 256, H_NODBR, M_NODBR},
		{SC_THREAD, SH_GPU, 4, 256, H_PROXY, M_VALID},
		{SC_WARP, SH_CTA, 4, 256, H_PROXY, M_VALID},
		{SC_THREAD, SH_GPU, 4, 256, H_AUTO, M_EMUL},
		{SC_WARP, SH_CTA, 4, 256, H_AUTO, M_EMUL},
	};
	gdf f;
	bufs b;
	int rc;

	if (gdf_open(&f) != 0)
		return 1;
	b.src_host.resize(BUF_BYTES);
	b.dst_host.resize(BUF_BYTES);
	gdf_pattern(b.src_host.data(), BUF_BYTES, SRC_SEED);
	if (gdf_buf_create(&f, BUF_BYTES, 0, &b.src) != 0 || gdf_buf_create(&f, BUF_BYTES, GDF_FILL, &b.dst) != 0 ||
	    gdf_buf_write(&b.src, 0, b.src_host.data(), BUF_BYTES) != 0) {
		printf("case setup: FAIL cannot make the GPU buffers\n");
		return 1;
	}
	for (const shared_case &c : cases)
		run_case(&f, &b, c);
	gdf_buf_destroy(&b.src);
	gdf_buf_destroy(&b.dst);
	gdf_close(&f);
	rc = gdf_summary(&f, "gpu_dev_shared");
	return rc;
}
