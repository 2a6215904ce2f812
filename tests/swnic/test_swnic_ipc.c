/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU payloads between two processes (CTest label gpu: needs an NVIDIA GPU and driver).
 * The parent WRITEs from its GPU memory into a child process's GPU and host memory through
 * the child's own software NIC. The child is this program run again (--serve), not a fork,
 * so each process initialises CUDA itself.
 *  - through shared memory the payloads go as CUDA IPC references and are copied GPU to GPU
 *    (ipc_payloads_sent / served), many in flight, any size (20 MiB: over a channel's data area);
 *    a READ behind the WRITEs sees their bytes although their copies were left running;
 *  - an MR that covers only part of its allocation sends its payloads as bytes (ipc_refused):
 *    the handle would open the rest too;
 *  - every byte lands where it should on every path: the same program runs with
 *    OPENGDA_SWNIC_IPC=0 (bytes through the channel) and OPENGDA_SWNIC_SHM=0 (TCP).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "swnic_fixture.h"
#include "swnic/swnic_fabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef OGDA_HAVE_CUDA_H
#include "gpu_util.h"

#define DEV_BYTES (24u << 20)  /* each side's GPU buffer */
#define HOST_BYTES (1u << 20)  /* the child's host buffer */
#define BIG (20u << 20)        /* more than a channel's data area */
#define SMALL_OFF (21u << 20)  /* child GPU: 8-byte WRITE targets */
#define SMALLS 200u
#define CE OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE
#define RW (OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ)

struct peer {
	uint32_t qpn;
	uint8_t gid[16];
	uint64_t gpu, host;     /* the child's buffers */
	uint32_t gpu_rkey, host_rkey;
};

struct side {
	struct fx f;
	struct fx_cq cq;
	struct fx_qp qp;
	uint8_t *host;
	uint32_t gpu_key, host_key;
};

static void side_open(struct side *s, struct peer *me)
{
	struct fx_cq_cfg cc = {.log_size = 10};
	struct fx_qp_cfg qc;

	memset(s, 0, sizeof(*s));
	fx_open(&s->f);
	s->host = aligned_alloc(4096, HOST_BYTES);
	assert_non_null(s->host);
	memset(s->host, 0, HOST_BYTES);
	s->gpu_key = fx_mr(&s->f, cu.base, DEV_BYTES, RW);
	s->host_key = fx_mr(&s->f, s->host, HOST_BYTES, RW);
	fx_cq_create(&s->f, &cc, &s->cq);
	fx_qp_cfg_default(&qc, &s->cq, NULL);
	qc.log_sq = 10;
	qc.log_rq = 6;
	fx_qp_create(&s->f, &qc, &s->qp);
	me->qpn = s->qp.qpn;
	memcpy(me->gid, s->f.nic->gid, 16);
	me->gpu = fx_va(cu.base);
	me->host = fx_va(s->host);
	me->gpu_rkey = s->gpu_key;
	me->host_rkey = s->host_key;
}

static void side_connect(struct side *s, const struct peer *p)
{
	struct fx_conn c;

	fx_conn_remote(&s->f, &c, p->qpn, p->gid);
	fx_qp_connect(&s->f, &s->qp, &c, PRM_QP_STATE_RTS);
}

/* ---------------- the child (--serve) ---------------- */

enum { CMD_GPU = 'G', CMD_HOST = 'H', CMD_STATS = 'S', CMD_QUIT = 'Q' };

struct cmd {
	uint8_t op;
	uint32_t recvs, off, len; /* receive CQEs to take first, then the range to send back */
};

static int serve(int rd, int wr)
{
	struct opengda_mlx5_cqe_fields c;
	struct swnic_fabric_stats st;
	struct peer me, parent;
	struct side s;
	struct cmd m;
	uint8_t *buf = malloc(DEV_BYTES);
	uint32_t i;

	if (buf == NULL || gpu_open(DEV_BYTES) != 0)
		return 2;
	cu.memset_d8(cu.dev, 0, DEV_BYTES);
	side_open(&s, &me);
	for (i = 0; i < 16; i++)
		fx_rq_post(&s.qp, s.host + HOST_BYTES - 4096u, 64, s.host_key);
	fx_xfer(wr, &me, sizeof(me), 1);
	fx_xfer(rd, &parent, sizeof(parent), 0);
	side_connect(&s, &parent);
	fx_xfer(wr, &me, 1, 1);
	for (;;) {
		fx_xfer(rd, &m, sizeof(m), 0);
		if (m.op == CMD_QUIT)
			break;
		for (i = 0; i < m.recvs; i++)
			if (!fx_poll(&s.cq, FX_POLL_TIMEOUT_MS, &c) || c.opcode != OPENGDA_MLX5_CQE_RESP_WR_IMM)
				return 3;
		/* Orders what the NIC's threads wrote before the reads below (the responder takes the QP lock). */
		(void)fx_qp_state(&s.f, &s.qp);
		if (m.op == CMD_STATS) {
			if (swnic_fabric_get_stats(s.f.nic->fabric, &st) != DOCA_SUCCESS)
				return 4;
			fx_xfer(wr, &st, sizeof(st), 1);
		} else if (m.op == CMD_GPU) {
			if (m.len > DEV_BYTES || cu.dtoh(buf, cu.dev + m.off, m.len) != CUDA_SUCCESS)
				return 5;
			fx_xfer(wr, buf, m.len, 1);
		} else {
			fx_xfer(wr, s.host + m.off, m.len, 1);
		}
	}
	fx_close(&s.f);
	free(s.host);
	free(buf);
	return 0;
}

/* ---------------- the parent ---------------- */

struct run {
	struct side s;
	struct peer ch;
	int to_child, to_parent;
	pid_t pid;
};

static void run_start(struct run *r)
{
	int a[2], b[2];
	struct peer me;
	uint8_t go;

	assert_int_equal(pipe(a), 0);
	assert_int_equal(pipe(b), 0);
	r->pid = fork();
	assert_true(r->pid >= 0);
	if (r->pid == 0) {
		char rd[16], wr[16];

		snprintf(rd, sizeof(rd), "%d", a[0]);
		snprintf(wr, sizeof(wr), "%d", b[1]);
		close(a[1]);
		close(b[0]);
		/* A fresh image: CUDA does not survive a fork. */
		execl("/proc/self/exe", "test_swnic_ipc", "--serve", rd, wr, (char *)NULL);
		_exit(127);
	}
	close(a[0]);
	close(b[1]);
	r->to_child = a[1];
	r->to_parent = b[0];
	side_open(&r->s, &me);
	fx_xfer(r->to_parent, &r->ch, sizeof(r->ch), 0);
	fx_xfer(r->to_child, &me, sizeof(me), 1);
	side_connect(&r->s, &r->ch);
	fx_xfer(r->to_parent, &go, 1, 0);
}

static void child_cmd(struct run *r, uint8_t op, uint32_t recvs, uint32_t off, uint32_t len, void *out)
{
	struct cmd m = {.op = op, .recvs = recvs, .off = off, .len = len};

	fx_xfer(r->to_child, &m, sizeof(m), 1);
	if (len > 0)
		fx_xfer(r->to_parent, out, len, 0);
}

static struct swnic_fabric_stats child_stats(struct run *r)
{
	struct swnic_fabric_stats st;
	struct cmd m = {.op = CMD_STATS};

	fx_xfer(r->to_child, &m, sizeof(m), 1);
	fx_xfer(r->to_parent, &st, sizeof(st), 0);
	return st;
}

static struct swnic_fabric_stats my_stats(struct run *r)
{
	struct swnic_fabric_stats st;

	assert_int_equal(swnic_fabric_get_stats(r->s.f.nic->fabric, &st), DOCA_SUCCESS);
	return st;
}

static void run_end(struct run *r)
{
	struct cmd m = {.op = CMD_QUIT};
	int status = 0;

	fx_xfer(r->to_child, &m, sizeof(m), 1);
	assert_int_equal(waitpid(r->pid, &status, 0), r->pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("the child ended with status 0x%x", status);
	fx_close(&r->s.f);
	free(r->s.host);
	close(r->to_child);
	close(r->to_parent);
}

static bool env_is(const char *name, const char *v)
{
	const char *e = getenv(name);

	return e != NULL && strcmp(e, v) == 0;
}

/* Whether GPU payloads are expected to go by reference in this run. */
static bool by_reference(void)
{
	return !env_is("OPENGDA_SWNIC_SHM", "0") && !env_is("OPENGDA_SWNIC_IPC", "0");
}

static void pattern(uint8_t *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 131u) ^ (i >> 9) ^ seed);
}

/* Fails with every counter that says which path the requests took. */
static void paths_fail(const char *what, const struct swnic_fabric_stats *m, const struct swnic_fabric_stats *t)
{
	fail_msg("%s: sent %llu served %llu refused %llu; shm %llu tcp %llu direct %llu channels %llu fallbacks %llu "
		 "hwm %llu",
		 what, (unsigned long long)m->ipc_payloads_sent, (unsigned long long)t->ipc_payloads_served,
		 (unsigned long long)m->ipc_refused, (unsigned long long)m->shm_deliveries,
		 (unsigned long long)m->tcp_deliveries, (unsigned long long)m->direct_deliveries,
		 (unsigned long long)m->shm_channels_opened, (unsigned long long)m->shm_fallbacks,
		 (unsigned long long)m->pipe_inflight_hwm);
}

static void expect_ok(struct run *r, uint32_t n)
{
	struct opengda_mlx5_cqe_fields c;
	uint32_t i;

	for (i = 0; i < n; i++) {
		fx_poll_ok(&r->s.cq, &c);
		if (c.opcode != OPENGDA_MLX5_CQE_REQ)
			fail_msg("WQE %u of %u: opcode 0x%x syndrome 0x%x", i, n, c.opcode, c.syndrome);
	}
}

/*
 * A 20 MiB WRITE, 200 8-byte WRITEs in flight and 4 KiB WRITEs with immediate into host
 * memory, all from GPU memory: every byte lands; through shared memory every one of them
 * went by reference and the child copied it GPU to GPU / GPU to host.
 */
static void gpu_payloads_land(void **state)
{
	static uint8_t want[BIG], got[BIG];
	struct swnic_fabric_stats mine, theirs;
	const uint32_t n = 1u + SMALLS + 4u;
	struct run r;
	uint32_t i;

	(void)state;
	pattern(want, BIG, 7);
	assert_int_equal(cu.htod(cu.dev, want, BIG), CUDA_SUCCESS);
	run_start(&r);
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE, r.ch.gpu, r.ch.gpu_rkey,
						     fx_va(cu.base), r.s.gpu_key, BIG),
			 3);
	for (i = 0; i < SMALLS; i++)
		assert_int_equal(opengda_mlx5_wqe_rdma_write(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE,
							     r.ch.gpu + SMALL_OFF + 8u * i, r.ch.gpu_rkey,
							     fx_va(cu.base + 8u * (SMALLS - 1u - i)), r.s.gpu_key, 8),
				 3);
	for (i = 0; i < 4; i++)
		assert_int_equal(opengda_mlx5_wqe_rdma_write_imm(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE,
								 r.ch.host + 4096u * i, r.ch.host_rkey,
								 fx_va(cu.base + 65536u * i), r.s.gpu_key, 4096, 100 + i),
				 3);
	/* A READ behind them sees every byte they wrote: copies still running are waited for. */
	memset(r.s.host, 0, 8u * SMALLS);
	assert_int_equal(opengda_mlx5_wqe_rdma_read(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE, r.ch.gpu + SMALL_OFF,
						    r.ch.gpu_rkey, fx_va(r.s.host), r.s.host_key, 8u * SMALLS),
			 3);
	fx_ring(&r.s.qp, FX_RING_PI);
	expect_ok(&r, n + 1u);
	for (i = 0; i < SMALLS; i++)
		assert_memory_equal(r.s.host + 8u * i, want + 8u * (SMALLS - 1u - i), 8);

	child_cmd(&r, CMD_GPU, 0, 0, BIG, got);
	assert_memory_equal(got, want, BIG);
	child_cmd(&r, CMD_GPU, 0, SMALL_OFF, 8u * SMALLS, got);
	for (i = 0; i < SMALLS; i++)
		assert_memory_equal(got + 8u * i, want + 8u * (SMALLS - 1u - i), 8);
	child_cmd(&r, CMD_HOST, 4, 0, 4u * 4096u, got);
	for (i = 0; i < 4; i++)
		assert_memory_equal(got + 4096u * i, want + 65536u * i, 4096);

	mine = my_stats(&r);
	theirs = child_stats(&r);
	if (by_reference()) {
		if (mine.ipc_payloads_sent != n || theirs.ipc_payloads_served != n || mine.ipc_refused != 0 ||
		    mine.pipe_inflight_hwm <= 1)
			paths_fail("every payload by reference, many in flight", &mine, &theirs);
	} else if (mine.ipc_payloads_sent != 0 || theirs.ipc_payloads_served != 0) {
		paths_fail("no payload by reference", &mine, &theirs);
	}
	run_end(&r);
}

/*
 * An MR over half of an allocation: a handle would open the other half too, so its
 * payloads go as bytes (ipc_refused) and still land.
 */
static void partial_mr_sends_bytes(void **state)
{
	static uint8_t want[65536], got[65536];
	struct swnic_fabric_stats mine;
	CUdeviceptr other = 0;
	uint32_t key;
	struct run r;

	(void)state;
	assert_int_equal(cu.mem_alloc(&other, 2u << 20), CUDA_SUCCESS);
	pattern(want, sizeof(want), 99);
	assert_int_equal(cu.htod(other, want, sizeof(want)), CUDA_SUCCESS);
	run_start(&r);
	key = fx_mr(&r.s.f, (void *)(uintptr_t)other, 1u << 20, OGDA_ACCESS_LOCAL_WRITE);
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE, r.ch.gpu + 4096u,
						     r.ch.gpu_rkey, (uint64_t)other, key, sizeof(want)),
			 3);
	fx_ring(&r.s.qp, FX_RING_PI);
	expect_ok(&r, 1);
	child_cmd(&r, CMD_GPU, 0, 4096u, sizeof(got), got);
	assert_memory_equal(got, want, sizeof(want));
	mine = my_stats(&r);
	if (mine.ipc_payloads_sent != 0 || mine.ipc_refused != (by_reference() ? 1u : 0u))
		paths_fail("the partial MR's payload as bytes", &mine, &mine);
	run_end(&r);
	assert_int_equal(cu.mem_free(other), CUDA_SUCCESS);
}

static int setup(void **state)
{
	(void)state;
	return gpu_open(DEV_BYTES);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpu_payloads_land),
		cmocka_unit_test(partial_mr_sends_bytes),
	};

	if (argc == 4 && strcmp(argv[1], "--serve") == 0)
		return serve(atoi(argv[2]), atoi(argv[3]));
	return cmocka_run_group_tests(tests, setup, gpu_teardown);
}
#else
int main(void)
{
	print_message("built without CUDA headers\n");
	return 1;
}
#endif /* OGDA_HAVE_CUDA_H */
