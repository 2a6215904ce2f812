/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU test: the two-sided device API in real CUDA kernels, between two high-level QPs of the
 * software NIC with receive queues, connected to each other, data in GPU memory.
 * - send_recv/<scope>: 256 threads of B post a receive each (thread, warp and block scope), 256
 *   threads of A send one message each, B's threads wait for theirs (recv_wait; MCST at block
 *   scope): every receive completes with the message's byte count, and B's slots hold every
 *   message of A exactly once (each carries its sender in its first 4 bytes), byte for byte.
 * - imm_inline: B with scatter-to-CQE; A sends with the low-level builder a SEND_IMM of two
 *   gather entries (20 bytes): B's CQE is inline, carries the bytes and the immediate.
 * - recv_length: a receive of 8 bytes meets a 64-byte message: recv_wait returns
 *   OPENGDA_DEV_CQE_ERROR(LOCAL_LENGTH), the receive behind it a flush error; no hang.
 * Run with the gpu label (tests/gpu/CMakeLists.txt); results are recorded in bench/results/.
 */
#include "gpu_dev_util.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <memory>

#define NTHREADS 256u
#define MSG 128u
#define BUF (NTHREADS * MSG)
#define SQ_NWQE 512u
#define RQ_NWQE 512u
#define IMM 0x11223344u

struct ts_args {
	struct doca_gpu_dev_verbs_qp *qp;
	addr_t buf;  /* slot t at + t x MSG */
	addr_t flag; /* MCST DUMP address */
	int *rc;     /* per thread */
	uint64_t *tk; /* per thread */
	uint32_t *val; /* per thread: byte count */
};

template <scope_t sc>
__global__ void k_recv(ts_args a)
{
	const uint32_t t = threadIdx.x;
	doca_gpu_dev_verbs_ticket_t tk = 0;

	a.rc[t] = doca_gpu_dev_verbs_recv<SH_GPU, H_AUTO, sc>(a.qp, addr_at(a.buf, t * MSG), MSG, &tk);
	a.tk[t] = tk;
}

template <scope_t sc>
__global__ void k_send(ts_args a)
{
	const uint32_t t = threadIdx.x;
	doca_gpu_dev_verbs_ticket_t tk = 0;
	int rc = doca_gpu_dev_verbs_send<SH_GPU, H_AUTO, sc>(a.qp, addr_at(a.buf, t * MSG), MSG, &tk);

	if (rc == 0)
		rc = doca_gpu_dev_verbs_wait(a.qp, tk);
	a.rc[t] = rc;
}

template <doca_gpu_dev_verbs_mcst_mode mcst>
__global__ void k_recv_wait(ts_args a)
{
	const uint32_t t = threadIdx.x;
	doca_gpu_dev_verbs_ticket_t tk = a.tk[t];
	struct mlx5_cqe64 *cqe = nullptr;
	int rc = doca_gpu_dev_verbs_recv_wait<SH_GPU, H_AUTO, mcst>(a.qp, a.flag, &tk, &cqe);

	a.rc[t] = rc;
	a.val[t] = rc == 0 ? doca_gpu_dev_verbs_cqe_get_bytes(cqe) : 0;
}

/* A: one SEND_IMM of two gather entries (5 + 15 bytes) through the low-level builder. */
__global__ void k_send_imm(ts_args a)
{
	uint64_t i = doca_gpu_dev_verbs_reserve_wq_slots<SH_EXCL>(a.qp, 1);
	struct doca_gpu_dev_verbs_wqe *w = doca_gpu_dev_verbs_get_wqe_ptr(a.qp, i);

	doca_gpu_dev_verbs_wqe_prepare_send(a.qp, w, i, DOCA_GPUNETIO_IB_MLX5_OPCODE_SEND_IMM,
					    DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_UPDATE, doca_gpu_dev_verbs_bswap32(IMM),
					    a.buf.addr, a.buf.key, 5, a.buf.addr + 5, a.buf.key, 15);
	doca_gpu_dev_verbs_mark_wqes_ready<SH_EXCL>(a.qp, i, i);
	doca_gpu_dev_verbs_submit<SH_EXCL>(a.qp, i + 1);
	a.rc[0] = doca_gpu_dev_verbs_wait<SH_EXCL>(a.qp, i);
}

/* B: one receive, its CQE's inline bit, bytes and immediate. */
__global__ void k_recv_inline(ts_args a, uint8_t *inl)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	struct mlx5_cqe64 *cqe = nullptr;
	int rc = doca_gpu_dev_verbs_recv_thread<SH_EXCL>(a.qp, a.buf, MSG, &t);

	a.rc[1] = rc;
	if (rc == 0)
		rc = doca_gpu_dev_verbs_recv_wait<SH_EXCL>(a.qp, a.flag, &cqe);
	a.rc[2] = rc;
	if (rc == 0) {
		a.val[0] = doca_gpu_dev_verbs_cqe_is_inline(cqe);
		a.val[1] = doca_gpu_dev_verbs_cqe_get_bytes(cqe);
		a.val[2] = opengda_gpu_dev_verbs_cqe_get_imm(cqe);
		memcpy(inl, doca_gpu_dev_verbs_cqe_get_inl_data(cqe), 32);
	}
}

/* B: a receive too small for the message, then one more; both waits return errors. */
__global__ void k_recv_small(ts_args a)
{
	doca_gpu_dev_verbs_ticket_t t0 = 0, t1 = 0;

	a.rc[0] = doca_gpu_dev_verbs_recv_thread<SH_EXCL>(a.qp, a.buf, 8, &t0);
	a.rc[1] = doca_gpu_dev_verbs_recv_thread<SH_EXCL>(a.qp, addr_at(a.buf, MSG), MSG, &t1);
	a.tk[0] = t0;
	a.tk[1] = t1;
}

__global__ void k_recv_small_wait(ts_args a)
{
	doca_gpu_dev_verbs_ticket_t t0 = a.tk[0], t1 = a.tk[1];
	struct mlx5_cqe64 *cqe = nullptr;

	a.rc[2] = doca_gpu_dev_verbs_recv_wait<SH_EXCL>(a.qp, a.flag, &t0, &cqe);
	a.rc[3] = doca_gpu_dev_verbs_recv_wait<SH_EXCL>(a.qp, a.flag, &t1, &cqe);
}

__global__ void k_send_one(ts_args a)
{
	doca_gpu_dev_verbs_ticket_t t = 0;
	int rc = doca_gpu_dev_verbs_send_thread<SH_EXCL>(a.qp, a.buf, 64, &t);

	a.rc[0] = rc == 0 ? doca_gpu_dev_verbs_wait<SH_EXCL>(a.qp, t) : rc;
}

/* ---- host side ------------------------------------------------------------------------------- */

struct env {
	gdf *f;
	gdf_buf LA, LB; /* A's send slots, B's receive slots (and the MCST byte) */
	dev_array<int> rc{NTHREADS};
	dev_array<uint64_t> tk{NTHREADS};
	dev_array<uint32_t> val{NTHREADS};
	dev_array<uint8_t> inl{32};
	int h_rc[NTHREADS];
	uint32_t h_val[NTHREADS];
	uint8_t host[BUF];
};

static ts_args args_of(env &e, const gdf_qp &q, gdf_buf *b)
{
	ts_args a = {q.dqp, gdf_laddr(b, 0), gdf_laddr(&e.LB, BUF), e.rc.p, e.tk.p, e.val.p};

	return a;
}

static bool pair(env &e, const gdf_qp_cfg &cfg, uint8_t recv_inline, gdf_qp *qa, gdf_qp *qb, const char *name,
		 gdf_check *chk)
{
	GDF_EXPECT(chk, gdf_qp_pair_create(e.f, &cfg, RQ_NWQE, recv_inline, qa, qb) == 0, "cannot create the QP pair");
	if (!chk->ok)
		gdf_report(e.f, name, chk, NULL);
	return chk->ok;
}

/* A's messages: thread t's slot holds t in its first 4 bytes, then the pattern of seed t. */
static int fill_messages(env &e)
{
	for (uint32_t t = 0; t < NTHREADS; t++) {
		gdf_pattern(e.host + t * MSG, MSG, t + 1);
		memcpy(e.host + t * MSG, &t, 4);
	}
	return gdf_buf_write(&e.LA, 0, e.host, BUF);
}

template <scope_t sc>
static void send_recv(env &e, const char *scope_name)
{
	const gdf_qp_cfg cfg = {H_AUTO, M_VALID, (uint16_t)SQ_NWQE, false, 0};
	bool seen[NTHREADS] = {false};
	uint8_t want[MSG];
	char name[64];
	gdf_check chk;
	gdf_qp qa, qb;

	snprintf(name, sizeof(name), "twosided/send_recv/%s", scope_name);
	gdf_check_init(&chk);
	if (!pair(e, cfg, 0, &qa, &qb, name, &chk))
		return;
	GDF_EXPECT(&chk, fill_messages(e) == 0 && gdf_buf_set(&e.LB, 0, 0, BUF) == 0, "cannot prepare the buffers");
	k_recv<sc><<<1, NTHREADS>>>(args_of(e, qb, &e.LB));
	gdf_sync(e.f, name, &chk);
	GDF_EXPECT(&chk, e.rc.get(e.h_rc), "cannot read the results");
	for (uint32_t t = 0; t < NTHREADS && chk.ok; t++)
		GDF_EXPECT(&chk, e.h_rc[t] == 0, "recv of thread %u returned %d", t, e.h_rc[t]);
	k_send<sc><<<1, NTHREADS>>>(args_of(e, qa, &e.LA));
	gdf_sync(e.f, name, &chk);
	GDF_EXPECT(&chk, e.rc.get(e.h_rc), "cannot read the results");
	for (uint32_t t = 0; t < NTHREADS && chk.ok; t++)
		GDF_EXPECT(&chk, e.h_rc[t] == 0, "send of thread %u returned %d", t, e.h_rc[t]);
	if (sc == SC_BLOCK)
		k_recv_wait<DOCA_GPUNETIO_VERBS_MCST_ENABLED><<<1, NTHREADS>>>(args_of(e, qb, &e.LB));
	else
		k_recv_wait<DOCA_GPUNETIO_VERBS_MCST_DISABLED><<<1, NTHREADS>>>(args_of(e, qb, &e.LB));
	gdf_sync(e.f, name, &chk);
	GDF_EXPECT(&chk, e.rc.get(e.h_rc) && e.val.get(e.h_val), "cannot read the results");
	for (uint32_t t = 0; t < NTHREADS && chk.ok; t++)
		GDF_EXPECT(&chk, e.h_rc[t] == 0 && e.h_val[t] == MSG, "recv_wait of thread %u: %d, %u bytes", t, e.h_rc[t],
			   e.h_val[t]);
	GDF_EXPECT(&chk, gdf_buf_read(&e.LB, 0, e.host, BUF) == 0, "cannot read B's slots");
	for (uint32_t s = 0; s < NTHREADS && chk.ok; s++) {
		uint32_t id;

		memcpy(&id, e.host + s * MSG, 4);
		GDF_EXPECT(&chk, id < NTHREADS && !seen[id], "slot %u holds message %u (twice, or of nobody)", s, id);
		if (!chk.ok)
			break;
		seen[id] = true;
		gdf_pattern(want, MSG, id + 1);
		GDF_EXPECT(&chk, memcmp(e.host + s * MSG + 4, want + 4, MSG - 4) == 0, "slot %u: message %u's bytes differ",
			   s, id);
	}
	gdf_qp_destroy(e.f, &qa);
	gdf_qp_destroy(e.f, &qb);
	gdf_report(e.f, name, &chk, "256 messages, every byte");
}

static void imm_inline(env &e)
{
	const gdf_qp_cfg cfg = {H_AUTO, M_VALID, (uint16_t)SQ_NWQE, false, 0};
	const char *name = "twosided/imm_inline";
	uint8_t inl[32];
	gdf_check chk;
	gdf_qp qa, qb;

	gdf_check_init(&chk);
	if (!pair(e, cfg, 1, &qa, &qb, name, &chk))
		return;
	GDF_EXPECT(&chk, fill_messages(e) == 0 && gdf_buf_set(&e.LB, 0, 0, BUF) == 0, "cannot prepare the buffers");
	/*
	 * The sender's kernel is loaded before the receiver starts to spin: with CUDA's lazy module
	 * loading (the default since CUDA 12.2) its first launch would load it then, and loading
	 * waits for the running kernel: the receive would time out before the send starts.
	 */
	{
		cudaFuncAttributes fa;

		GDF_EXPECT(&chk, cudaFuncGetAttributes(&fa, k_send_imm) == cudaSuccess, "cannot load the send kernel");
	}
	k_recv_inline<<<1, 1>>>(args_of(e, qb, &e.LB), e.inl.p);
	/* The receive waits in its kernel: the send comes from the CPU's next launch on another stream. */
	{
		cudaStream_t s;

		GDF_EXPECT(&chk, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess, "no stream");
		if (chk.ok) {
			k_send_imm<<<1, 1, 0, s>>>(args_of(e, qa, &e.LA));
			(void)cudaStreamSynchronize(s);
			(void)cudaStreamDestroy(s);
		}
	}
	gdf_sync(e.f, name, &chk);
	GDF_EXPECT(&chk, e.rc.get(e.h_rc) && e.val.get(e.h_val) && e.inl.get(inl), "cannot read the results");
	GDF_EXPECT(&chk, e.h_rc[0] == 0 && e.h_rc[1] == 0 && e.h_rc[2] == 0, "send %d, recv %d, recv_wait %d", e.h_rc[0],
		   e.h_rc[1], e.h_rc[2]);
	GDF_EXPECT(&chk, e.h_val[0] == 1 && e.h_val[1] == 20 && e.h_val[2] == IMM, "inline %u, %u bytes, imm %#x",
		   e.h_val[0], e.h_val[1], e.h_val[2]);
	GDF_EXPECT(&chk, gdf_buf_read(&e.LA, 0, e.host, 20) == 0 && memcmp(inl, e.host, 20) == 0,
		   "the CQE's bytes differ from the message");
	gdf_qp_destroy(e.f, &qa);
	gdf_qp_destroy(e.f, &qb);
	gdf_report(e.f, name, &chk, "20 bytes and the immediate in the CQE");
}

static void recv_length(env &e)
{
	const gdf_qp_cfg cfg = {H_AUTO, M_VALID, (uint16_t)SQ_NWQE, false, 0};
	const char *name = "twosided/recv_length";
	gdf_check chk;
	gdf_qp qa, qb;

	gdf_check_init(&chk);
	if (!pair(e, cfg, 0, &qa, &qb, name, &chk))
		return;
	k_recv_small<<<1, 1>>>(args_of(e, qb, &e.LB));
	gdf_sync(e.f, name, &chk);
	k_send_one<<<1, 1>>>(args_of(e, qa, &e.LA));
	gdf_sync(e.f, name, &chk);
	{
		int send_rc = 0;

		GDF_EXPECT(&chk, e.rc.get(e.h_rc), "cannot read the results");
		send_rc = e.h_rc[0];
		k_recv_small_wait<<<1, 1>>>(args_of(e, qb, &e.LB));
		gdf_sync(e.f, name, &chk);
		GDF_EXPECT(&chk, e.rc.get(e.h_rc), "cannot read the results");
		GDF_EXPECT(&chk, OPENGDA_DEV_IS_CQE_ERROR(send_rc), "the send returned %d", send_rc);
	}
	GDF_EXPECT(&chk, e.h_rc[2] == OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR),
		   "recv_wait on the short receive returned %d", e.h_rc[2]);
	GDF_EXPECT(&chk, e.h_rc[3] == OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR),
		   "recv_wait on the receive behind it returned %d", e.h_rc[3]);
	gdf_qp_destroy(e.f, &qa);
	gdf_qp_destroy(e.f, &qb);
	gdf_report(e.f, name, &chk, "LOCAL_LENGTH, then flush");
}

int main(void)
{
	gdf f;
	std::unique_ptr<env> e(new env());

	if (gdf_open(&f) != 0)
		return 1;
	e->f = &f;
	if (!e->rc.ok() || !e->tk.ok() || !e->val.ok() || !e->inl.ok() || gdf_buf_create(&f, BUF, 0, &e->LA) != 0 ||
	    gdf_buf_create(&f, BUF + 64, 0, &e->LB) != 0) {
		printf("case setup: FAIL cannot make the GPU buffers\n");
		return 1;
	}
	send_recv<SC_THREAD>(*e, "thread");
	send_recv<SC_WARP>(*e, "warp");
	send_recv<SC_BLOCK>(*e, "block");
	imm_inline(*e);
	recv_length(*e);
	gdf_buf_destroy(&e->LA);
	gdf_buf_destroy(&e->LB);
	gdf_close(&f);
	return gdf_summary(&f, "gpu_dev_twosided");
}
