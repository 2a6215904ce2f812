/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU test: errors as real CUDA kernels see them, under every NIC handler the software NIC
 * supports with a GPU.
 * - bad_rkey: a put to an rkey that names no region. The kernel's wait on it returns
 *   OPENGDA_DEV_CQE_ERROR with syndrome 0x13 (REMOTE_ACCESS), the put behind it is flushed
 *   (0x05), no remote byte changes, the device view records the first error, and
 *   doca_gpu_verbs_query_last_error says the same on the host.
 * - bounded_wait: with the QP's wait bound set to 50 ms (opengda_gpu_verbs_qp_set_wait_timeout),
 *   a wait on a WQE published but never rung returns -OPENGDA_DEV_ETIMEDOUT after at least the
 *   bound and well before the fixture's 5 s; ringing it then lets the same WQE complete.
 */
#include "gpu_dev_util.cuh"

#include <stdio.h>
#include <stdlib.h>

#include <memory>

#define SQ_NWQE 64u
#define BUF 16384u
#define BOUND_NS 50000000ull /* 50 ms */
#define REMOTE_ACCESS OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR /* 0x13 */
#define FLUSH OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR              /* 0x05 */

struct err_args {
	struct doca_gpu_dev_verbs_qp *qp;
	addr_t l, r, bad_r;
	int *rc;
	uint64_t *tk;
	uint64_t *val;
};

__global__ void k_bad_rkey(err_args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;

	a.rc[0] = doca_gpu_dev_verbs_put(a.qp, a.bad_r, a.l, 64, &t);
	a.tk[0] = t;
	a.rc[1] = doca_gpu_dev_verbs_put(a.qp, addr_at(a.r, 64), addr_at(a.l, 64), 64, &t);
	a.tk[1] = t;
	a.rc[2] = doca_gpu_dev_verbs_wait(a.qp, a.tk[0]);
	a.rc[3] = doca_gpu_dev_verbs_wait(a.qp, a.tk[1]);
}

__global__ void k_bounded_wait(err_args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	uint64_t start;
	uint32_t tries = 0;
	int rc;

	/* Published, not rung: no CQE can come. */
	a.rc[0] = doca_gpu_dev_verbs_put(a.qp, a.r, a.l, 512, &t, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING);
	a.tk[0] = t;
	a.val[2] = doca_gpu_dev_verbs_atomic_read<uint64_t, SH_GPU>(&a.qp->sq_ready_index);
	a.val[3] = doca_gpu_dev_verbs_atomic_read<uint64_t, SH_GPU>(&a.qp->sq_wqe_pi);
	start = doca_gpu_dev_verbs_query_globaltimer();
	a.rc[1] = doca_gpu_dev_verbs_wait(a.qp, t);
	a.val[0] = doca_gpu_dev_verbs_query_globaltimer() - start;
	/* Ring what is published; the WQE was fine, only never rung. */
	doca_gpu_dev_verbs_submit(a.qp, t + 1);
	do {
		rc = doca_gpu_dev_verbs_wait(a.qp, t);
	} while (rc == -OPENGDA_DEV_ETIMEDOUT && ++tries < 40);
	a.rc[2] = rc;
	a.val[1] = tries;
	a.val[4] = dev_count_diff(a.r.addr, a.l.addr, 512);
}

/* ---- host side ------------------------------------------------------------------------------- */

struct env {
	gdf *f;
	gdf_buf L, R;
	dev_array<int> rc{8};
	dev_array<uint64_t> tk{8}, val{8};
	int h_rc[8];
	uint64_t h_tk[8], h_val[8];
	uint8_t host[BUF];
};

static bool results(env &e, gdf_check *chk)
{
	GDF_EXPECT(chk, e.rc.get(e.h_rc) && e.tk.get(e.h_tk) && e.val.get(e.h_val), "cannot read the kernel's results");
	return chk->ok;
}

static void results_reset(env &e)
{
	(void)cudaMemset(e.rc.p, 0x7f, 8 * sizeof(int));
	(void)cudaMemset(e.tk.p, 0xff, 8 * sizeof(uint64_t));
	(void)cudaMemset(e.val.p, 0xff, 8 * sizeof(uint64_t));
}

static void bad_rkey(env &e, const gdf_handler_case *hc)
{
	const gdf_qp_cfg cfg = {hc->request, hc->mode, (uint16_t)SQ_NWQE, false, 0};
	struct doca_gpu_verbs_qp_error_info info;
	struct opengda_mlx5_cqe_fields c0, c1;
	struct doca_gpu_dev_verbs_qp v;
	uint64_t wqes = 0, doorbells = 0, errors = 0;
	char name[96], detail[96] = "";
	uint32_t dead = 0;
	gdf_check chk;
	gdf_qp q;

	snprintf(name, sizeof(name), "errors/%s/bad_rkey", hc->name);
	gdf_check_init(&chk);
	GDF_EXPECT(&chk, gdf_dead_rkey(e.f, &dead) == 0, "cannot make a dead rkey");
	GDF_EXPECT(&chk, chk.ok && gdf_qp_create(e.f, &cfg, &q) == 0, "cannot create the QP");
	if (!chk.ok) {
		gdf_report(e.f, name, &chk, NULL);
		return;
	}
	GDF_EXPECT(&chk, gdf_buf_set(&e.R, 0, GDF_FILL, BUF) == 0, "cannot reset the remote buffer");
	results_reset(e);
	{
		err_args a = {q.dqp, gdf_laddr(&e.L, 0), gdf_raddr(&e.R, 0), gdf_raddr(&e.R, 0), e.rc.p, e.tk.p, e.val.p};

		a.bad_r.key = opengda_mlx5_htobe32(dead);
		k_bad_rkey<<<1, 1>>>(a);
	}
	gdf_sync(e.f, name, &chk);
	if (results(e, &chk)) {
		GDF_EXPECT(&chk, e.h_rc[0] == 0 && e.h_rc[1] == 0, "posting returned %d, %d", e.h_rc[0], e.h_rc[1]);
		GDF_EXPECT(&chk, e.h_tk[0] == 0 && e.h_tk[1] == 1, "tickets %llu, %llu", (unsigned long long)e.h_tk[0],
			   (unsigned long long)e.h_tk[1]);
		GDF_EXPECT(&chk, e.h_rc[2] == OPENGDA_DEV_CQE_ERROR(REMOTE_ACCESS) && OPENGDA_DEV_IS_CQE_ERROR(e.h_rc[2]) &&
					 OPENGDA_DEV_CQE_ERROR_SYNDROME(e.h_rc[2]) == 0x13,
			   "wait on the bad put returned %d (syndrome %#x); want %d (0x13)", e.h_rc[2],
			   OPENGDA_DEV_CQE_ERROR_SYNDROME(e.h_rc[2]), OPENGDA_DEV_CQE_ERROR(REMOTE_ACCESS));
		GDF_EXPECT(&chk, e.h_rc[3] == OPENGDA_DEV_CQE_ERROR(FLUSH), "wait on the put behind it returned %d; want %d (flush)",
			   e.h_rc[3], OPENGDA_DEV_CQE_ERROR(FLUSH));
	}
	GDF_EXPECT(&chk, gdf_buf_read(&e.R, 0, e.host, BUF) == 0 && gdf_all_check(e.host, BUF, GDF_FILL) < 0,
		   "a remote byte changed");
	gdf_qp_cqe(&q, false, 0, &c0);
	gdf_qp_cqe(&q, false, 1, &c1);
	GDF_EXPECT(&chk, c0.opcode == OPENGDA_MLX5_CQE_REQ_ERR && c0.syndrome == REMOTE_ACCESS && c0.wqe_counter == 0 &&
				 c0.qpn == gdf_qp_num(&q, false),
		   "CQE 0: opcode %u syndrome %#x counter %u QP %#x", c0.opcode, c0.syndrome, c0.wqe_counter, c0.qpn);
	GDF_EXPECT(&chk, c1.opcode == OPENGDA_MLX5_CQE_REQ_ERR && c1.syndrome == FLUSH && c1.wqe_counter == 1,
		   "CQE 1: opcode %u syndrome %#x counter %u", c1.opcode, c1.syndrome, c1.wqe_counter);
	/* The device recorded the first error: valid bit, syndrome, WQE counter; errors are not consumed. */
	GDF_EXPECT(&chk, gdf_qp_view(&q, false, &v) == 0, "cannot read the device view");
	GDF_EXPECT(&chk, v.cq_sq.ogda_first_error == (0x80000000u | (0x13u << 16) | 0u) && v.cq_sq.cqe_ci == 0,
		   "device error record %#x, consumer index %llu; want 0x80130000, 0", v.cq_sq.ogda_first_error,
		   (unsigned long long)v.cq_sq.cqe_ci);
	GDF_EXPECT(&chk, v.sq_rsvd_index == 2 && v.sq_ready_index == 2 && v.sq_wqe_pi == 2,
		   "indices %llu / %llu / %llu; want 2", (unsigned long long)v.sq_rsvd_index,
		   (unsigned long long)v.sq_ready_index, (unsigned long long)v.sq_wqe_pi);
	memset(&info, 0xa5, sizeof(info));
	GDF_EXPECT(&chk, doca_gpu_verbs_query_last_error(q.main->qp_gverbs, &info) == DOCA_SUCCESS, "query_last_error failed");
	GDF_EXPECT(&chk, info.has_error && info.syndrome == REMOTE_ACCESS && info.wqe_counter == 0,
		   "query_last_error: has_error %d syndrome %#x wqe_counter %d; want 1, 0x13, 0", (int)info.has_error,
		   info.syndrome, info.wqe_counter);
	gdf_swnic_counters(gdf_qp_num(&q, false), &wqes, &doorbells, &errors);
	GDF_EXPECT(&chk, errors >= 1 && errors != UINT64_MAX, "the NIC counted %llu errors", (unsigned long long)errors);
	snprintf(detail, sizeof(detail), "wait %d (syndrome %#x), then %d; host: syndrome %#x", e.h_rc[2],
		 OPENGDA_DEV_CQE_ERROR_SYNDROME(e.h_rc[2]), e.h_rc[3], info.syndrome);
	gdf_qp_destroy(e.f, &q);
	gdf_report(e.f, name, &chk, detail);
}

static void bounded_wait(env &e, const gdf_handler_case *hc)
{
	const gdf_qp_cfg cfg = {hc->request, hc->mode, (uint16_t)SQ_NWQE, false, BOUND_NS};
	struct doca_gpu_verbs_qp_error_info info;
	char name[96], detail[96] = "";
	gdf_check chk;
	gdf_qp q;

	snprintf(name, sizeof(name), "errors/%s/bounded_wait", hc->name);
	gdf_check_init(&chk);
	GDF_EXPECT(&chk, gdf_qp_create(e.f, &cfg, &q) == 0, "cannot create the QP");
	if (!chk.ok) {
		gdf_report(e.f, name, &chk, NULL);
		return;
	}
	gdf_check_export(&q, hc, SQ_NWQE, BOUND_NS, &chk);
	GDF_EXPECT(&chk, gdf_buf_set(&e.R, 0, GDF_FILL, BUF) == 0, "cannot reset the remote buffer");
	results_reset(e);
	{
		err_args a = {q.dqp, gdf_laddr(&e.L, 0), gdf_raddr(&e.R, 0), gdf_raddr(&e.R, 0), e.rc.p, e.tk.p, e.val.p};

		k_bounded_wait<<<1, 1>>>(a);
	}
	gdf_sync(e.f, name, &chk);
	if (results(e, &chk)) {
		GDF_EXPECT(&chk, e.h_rc[0] == 0 && e.h_tk[0] == 0, "post returned %d, ticket %llu", e.h_rc[0],
			   (unsigned long long)e.h_tk[0]);
		GDF_EXPECT(&chk, e.h_val[2] == 1 && e.h_val[3] == 0, "after the post: published %llu, rung %llu; want 1, 0",
			   (unsigned long long)e.h_val[2], (unsigned long long)e.h_val[3]);
		GDF_EXPECT(&chk, e.h_rc[1] == -OPENGDA_DEV_ETIMEDOUT && !OPENGDA_DEV_IS_CQE_ERROR(e.h_rc[1]),
			   "wait on the unrung WQE returned %d; want %d", e.h_rc[1], -OPENGDA_DEV_ETIMEDOUT);
		GDF_EXPECT(&chk, e.h_val[0] >= BOUND_NS && e.h_val[0] < 2000000000ull, "the wait took %llu ns; bound %llu ns",
			   (unsigned long long)e.h_val[0], BOUND_NS);
		GDF_EXPECT(&chk, e.h_rc[2] == 0, "after ringing, the wait returned %d (%llu bounded tries)", e.h_rc[2],
			   (unsigned long long)e.h_val[1]);
		GDF_EXPECT(&chk, e.h_val[4] == 0, "%llu bytes had not landed when the wait returned",
			   (unsigned long long)e.h_val[4]);
	}
	GDF_EXPECT(&chk, gdf_buf_read(&e.R, 0, e.host, BUF) == 0, "cannot read the remote buffer");
	GDF_EXPECT(&chk, gdf_all_check(e.host + 512, BUF - 512, GDF_FILL) < 0, "bytes past the put changed");
	gdf_check_indices(&q, false, 1, &chk);
	memset(&info, 0xa5, sizeof(info));
	GDF_EXPECT(&chk, doca_gpu_verbs_query_last_error(q.main->qp_gverbs, &info) == DOCA_SUCCESS && !info.has_error,
		   "query_last_error reports an error (syndrome %#x) after a timeout", info.syndrome);
	snprintf(detail, sizeof(detail), "timed out after %.1f ms, completed after %llu more tries",
		 (double)e.h_val[0] / 1e6, (unsigned long long)e.h_val[1]);
	gdf_qp_destroy(e.f, &q);
	gdf_report(e.f, name, &chk, detail);
}

int main(void)
{
	gdf f;
	std::unique_ptr<env> e(new env());
	uint8_t src[BUF];
	int rc;

	if (gdf_open(&f) != 0)
		return 1;
	e->f = &f;
	gdf_pattern(src, BUF, 5);
	if (!e->rc.ok() || !e->tk.ok() || !e->val.ok() || gdf_buf_create(&f, BUF, 0, &e->L) != 0 ||
	    gdf_buf_create(&f, BUF, GDF_FILL, &e->R) != 0 || gdf_buf_write(&e->L, 0, src, BUF) != 0) {
		printf("case setup: FAIL cannot make the GPU buffers\n");
		return 1;
	}
	for (unsigned int h = 0; h < gdf_handler_case_count; h++) {
		bad_rkey(*e, &gdf_handler_cases[h]);
		bounded_wait(*e, &gdf_handler_cases[h]);
	}
	gdf_buf_destroy(&e->L);
	gdf_buf_destroy(&e->R);
	gdf_close(&f);
	rc = gdf_summary(&f, "gpu_dev_errors");
	return rc;
}
