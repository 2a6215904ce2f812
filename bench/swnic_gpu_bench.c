/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Software NIC benchmark, GPU memory between two processes of one host (needs an NVIDIA GPU).
 *
 *   bandwidth  1 MiB RDMA WRITEs from the parent's GPU memory into a child process's GPU
 *              memory, 16 in flight, every one signalled: through the shared-memory fabric
 *              with CUDA IPC (the payload copied GPU to GPU by the child's NIC) and, in the
 *              same run, with OPENGDA_SWNIC_IPC=0 (through host memory on both sides).
 *              Baseline: cuMemcpyDtoD of 1 MiB within one process (goal: >= 80 %).
 *   rate       8-byte RDMA WRITEs GPU to GPU, 64 in flight.
 *
 * The child is this program run again (--serve), so each process initialises CUDA itself.
 * The child checks the bytes that landed after each run. Queues and QPs are made with the
 * test fixture (tests/swnic/swnic_fixture.h), WQEs with include/opengda_mlx5.h.
 */
#include "swnic_fixture.h"

#include "opengda_mlx5.h"
#include "swnic/swnic.h"
#include "swnic/swnic_fabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef OGDA_HAVE_CUDA_H
#include "gpu_util.h"

#include <dlfcn.h>

#define MSG (1u << 20)
#define BW_INFLIGHT 16u
#define RATE_INFLIGHT 64u
#define DEV_BYTES (2u * MSG)
#define CE OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE

static unsigned bw_iters = 2000;
static unsigned rate_iters = 20000;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	fprintf(stderr, "swnic_gpu_bench: %s\n", what);
	exit(1);
}

/* ---------------- baseline ---------------- */

static double baseline_dtod(void)
{
	CUresult (*dtod)(CUdeviceptr, CUdeviceptr, size_t);
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	unsigned i;
	double t0;

	if (h == NULL)
		die("no CUDA driver");
	*(void **)&dtod = dlsym(h, "cuMemcpyDtoD_v2");
	if (dtod == NULL || dtod(cu.dev + MSG, cu.dev, MSG) != CUDA_SUCCESS)
		die("cuMemcpyDtoD");
	t0 = now_s();
	for (i = 0; i < bw_iters; i++)
		if (dtod(cu.dev + MSG, cu.dev, MSG) != CUDA_SUCCESS)
			die("cuMemcpyDtoD");
	return (double)MSG * bw_iters / (now_s() - t0) / 1e9;
}

/* ---------------- both sides ---------------- */

struct side_addr {
	uint32_t qpn;
	uint8_t gid[16];
	uint64_t gpu;
	uint32_t rkey;
};

struct side {
	struct fx f;
	struct fx_cq cq;
	struct fx_qp qp;
	uint32_t key;
};

static void side_open(struct side *s, struct side_addr *a)
{
	struct fx_cq_cfg cc = {.log_size = 8};
	struct fx_qp_cfg qc;

	memset(s, 0, sizeof(*s));
	fx_open(&s->f);
	s->key = fx_mr(&s->f, cu.base, DEV_BYTES, OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE);
	fx_cq_create(&s->f, &cc, &s->cq);
	fx_qp_cfg_default(&qc, &s->cq, NULL);
	qc.log_sq = 7;
	fx_qp_create(&s->f, &qc, &s->qp);
	a->qpn = s->qp.qpn;
	memcpy(a->gid, s->f.nic->gid, 16);
	a->gpu = fx_va(cu.base);
	a->rkey = s->key;
}

static void side_connect(struct side *s, const struct side_addr *peer)
{
	struct fx_conn c;

	fx_conn_default(&s->f, &c, peer->qpn);
	memcpy(c.rgid, peer->gid, 16);
	c.mtu = PRM_QP_MTU_4096;
	c.log_msg_max = 30;
	fx_qp_connect(&s->f, &s->qp, &c, PRM_QP_STATE_RTS);
}

/* The child: answers, then checks that its first MSG bytes hold the parent's pattern byte. */
static int serve(int rd, int wr)
{
	struct side_addr mine, parent;
	uint8_t *buf = malloc(MSG);
	uint8_t cmd = 0, ok;
	struct side s;
	uint32_t i;

	if (buf == NULL || gpu_open(DEV_BYTES) != 0)
		return 2;
	cu.memset_d8(cu.dev, 0, DEV_BYTES);
	side_open(&s, &mine);
	fx_xfer(wr, &mine, sizeof(mine), 1);
	fx_xfer(rd, &parent, sizeof(parent), 0);
	side_connect(&s, &parent);
	fx_xfer(wr, &mine, 1, 1);
	for (;;) {
		fx_xfer(rd, &cmd, 1, 0);
		if (cmd == 0)
			break;
		(void)fx_qp_state(&s.f, &s.qp); /* orders the NIC's writes before the check */
		ok = cu.dtoh(buf, cu.dev, MSG) == CUDA_SUCCESS;
		for (i = 0; i < MSG && ok; i++)
			ok = buf[i] == cmd;
		fx_xfer(wr, &ok, 1, 1);
	}
	fx_close(&s.f);
	free(buf);
	return 0;
}

struct run {
	double bw_gbs, rate_mps;
	struct swnic_fabric_stats st;
};

static double writes(struct side *s, const struct side_addr *peer, unsigned iters, unsigned inflight, uint32_t len)
{
	struct opengda_mlx5_cqe_fields c;
	unsigned posted = 0, done = 0;
	double t0 = now_s();

	while (done < iters) {
		for (; posted < iters && posted - done < inflight; posted++) {
			uint64_t off = len == MSG ? 0 : 8u * (posted % 4096u);

			if (opengda_mlx5_wqe_rdma_write(&s->qp.sqd, fx_take(&s->qp, 3), CE, peer->gpu + off, peer->rkey,
							fx_va(cu.base + off), s->key, len) < 0)
				die("write recipe rejected its input");
		}
		fx_ring(&s->qp, FX_RING_PI);
		if (!fx_poll_spin(&s->cq, 30000, &c) || c.opcode != OPENGDA_MLX5_CQE_REQ)
			die("no completion, or an error completion");
		done++;
		while (done < posted && fx_poll_spin(&s->cq, 0, &c)) {
			if (c.opcode != OPENGDA_MLX5_CQE_REQ)
				die("an error completion");
			done++;
		}
	}
	return now_s() - t0;
}

static void run_pair(struct run *r, uint8_t fill)
{
	int to_child[2], to_parent[2], status = 0;
	struct side_addr mine, child;
	uint8_t ok = 0, quit = 0;
	struct side s;
	pid_t pid;

	if (pipe(to_child) != 0 || pipe(to_parent) != 0)
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		char a[16], b[16];

		snprintf(a, sizeof(a), "%d", to_child[0]);
		snprintf(b, sizeof(b), "%d", to_parent[1]);
		execl("/proc/self/exe", "swnic_gpu_bench", "--serve", a, b, (char *)NULL);
		_exit(127);
	}
	close(to_child[0]);
	close(to_parent[1]);
	if (cu.memset_d8(cu.dev, fill, MSG) != CUDA_SUCCESS)
		die("cuMemsetD8");
	side_open(&s, &mine);
	fx_xfer(to_parent[0], &child, sizeof(child), 0);
	fx_xfer(to_child[1], &mine, sizeof(mine), 1);
	side_connect(&s, &child);
	fx_xfer(to_parent[0], &ok, 1, 0);
	r->bw_gbs = (double)MSG * bw_iters / writes(&s, &child, bw_iters, BW_INFLIGHT, MSG) / 1e9;
	fx_xfer(to_child[1], &fill, 1, 1);
	fx_xfer(to_parent[0], &ok, 1, 0);
	if (!ok)
		die("the child's GPU memory does not hold the data written");
	r->rate_mps = (double)rate_iters / writes(&s, &child, rate_iters, RATE_INFLIGHT, 8) / 1e6;
	if (swnic_fabric_get_stats(s.f.nic->fabric, &r->st) != DOCA_SUCCESS)
		die("fabric stats");
	fx_xfer(to_child[1], &quit, 1, 1);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("the child process failed");
	fx_close(&s.f);
	close(to_child[1]);
	close(to_parent[0]);
}

static void row(const char *what, double v, const char *unit, const char *base_name, double base)
{
	printf("%-40s %10.3f %-5s %-24s %10.3f %-5s %8.2fx\n", what, v, unit, base_name, base, unit, v / base);
}

int main(int argc, char **argv)
{
	struct run ipc, bytes;
	double dtod;
	int i;

	if (argc == 4 && strcmp(argv[1], "--serve") == 0)
		return serve(atoi(argv[2]), atoi(argv[3]));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			bw_iters = 200;
			rate_iters = 2000;
		} else {
			fprintf(stderr, "usage: swnic_gpu_bench [--quick]\n");
			return 2;
		}
	}
	setenv("OPENGDA_SWNIC_POLL", getenv("OPENGDA_SWNIC_POLL") ? getenv("OPENGDA_SWNIC_POLL") : "spin", 1);
	unsetenv("OPENGDA_SWNIC_SHM");
	if (gpu_open(DEV_BYTES) != 0)
		die("no usable GPU");
	dtod = baseline_dtod();
	unsetenv("OPENGDA_SWNIC_IPC");
	run_pair(&ipc, 0x3c);
	setenv("OPENGDA_SWNIC_IPC", "0", 1);
	run_pair(&bytes, 0xc3);
	unsetenv("OPENGDA_SWNIC_IPC");
	if (ipc.st.ipc_payloads_sent == 0 || bytes.st.ipc_payloads_sent != 0 || ipc.st.shm_deliveries == 0) {
		fprintf(stderr, "IPC run: by reference %llu, refused %llu, shm %llu, TCP %llu; host run: by reference %llu\n",
			(unsigned long long)ipc.st.ipc_payloads_sent, (unsigned long long)ipc.st.ipc_refused,
			(unsigned long long)ipc.st.shm_deliveries, (unsigned long long)ipc.st.tcp_deliveries,
			(unsigned long long)bytes.st.ipc_payloads_sent);
		die("the runs did not take the paths they measure");
	}

	printf("OpenGDA software NIC benchmark: GPU memory between two processes, %ld online CPUs, engine polling %s\n",
	       sysconf(_SC_NPROCESSORS_ONLN), getenv("OPENGDA_SWNIC_POLL"));
	printf("bandwidth: %u x 1 MiB RDMA WRITE GPU -> GPU, %u in flight; rate: %u x 8 B, %u in flight\n", bw_iters,
	       BW_INFLIGHT, rate_iters, RATE_INFLIGHT);
	printf("%-40s %16s %-24s %16s %9s\n", "measurement", "value", "baseline (same run)", "value", "ratio");
	row("1 MiB bandwidth, CUDA IPC", ipc.bw_gbs, "GB/s", "cuMemcpyDtoD 1 MiB", dtod);
	row("1 MiB bandwidth, through host memory", bytes.bw_gbs, "GB/s", "cuMemcpyDtoD 1 MiB", dtod);
	row("1 MiB bandwidth, IPC over host path", ipc.bw_gbs, "GB/s", "through host memory", bytes.bw_gbs);
	row("8 B rate, CUDA IPC", ipc.rate_mps, "M/s", "through host memory", bytes.rate_mps);
	printf("payloads by reference: %llu (IPC run), %llu (host run); goal: 1 MiB bandwidth >= 80%% of cuMemcpyDtoD\n",
	       (unsigned long long)ipc.st.ipc_payloads_sent, (unsigned long long)bytes.st.ipc_payloads_sent);
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "swnic_gpu_bench: built without CUDA headers\n");
	return 1;
}
#endif /* OGDA_HAVE_CUDA_H */
