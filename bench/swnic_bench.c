/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Software NIC benchmark: latency and bandwidth on host memory, each next to a baseline
 * measured in the same run, so the ratio means something on a shared machine.
 *
 *   latency    8-byte inline RDMA WRITE ping-pong between two QPs; each side spins on the
 *              word the other writes. Baselines: the same ping-pong through a shared word
 *              between two threads (one process) and between two processes (a shared
 *              mapping; no NIC at all).
 *   bandwidth  1 MiB RDMA WRITEs, 16 in flight, every one signalled. Baselines: memcpy of
 *              1 MiB between the same kind of buffers; over TCP also the same bytes streamed
 *              through a loopback TCP connection to another process.
 *   rate       8-byte inline RDMA WRITEs, 64 in flight, every one signalled: messages per
 *              second (goal on a machine with free cores: 5 M/s between processes).
 *
 * They run in one process (QPs on one NIC, delivered directly) and across two processes (a
 * forked child with its own NIC), there twice: through the shared-memory fabric (the
 * default between processes of one host) and over TCP on loopback (OPENGDA_SWNIC_SHM=0).
 *
 * Queues and QPs are made with the software NIC's control path and the test fixture
 * (tests/swnic/swnic_fixture.h), WQEs with include/opengda_mlx5.h, exactly as the tests do.
 */
#include "swnic_fixture.h"

#include "opengda_mlx5.h"
#include "swnic/swnic.h"
#include "swnic/swnic_fabric.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BW_MSG (1u << 20)
#define BW_INFLIGHT 16u
#define RATE_INFLIGHT 64u
#define LOG_SQ 7u
#define CE_NONE 0u
#define CE_ALWAYS OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE

static unsigned lat_iters = 20000;
static unsigned bw_iters = 2000;
static unsigned rate_iters = 200000;
static int rate_only; /* --rate-only: the message-rate rows alone (profiling) */
static int local_only; /* --local-only: one process only (profiling the engine) */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	fprintf(stderr, "swnic_bench: %s\n", what);
	exit(1);
}

/* ---------------- baselines ---------------- */

struct flag_pp {
	_Alignas(64) atomic_ulong ping;
	_Alignas(64) atomic_ulong pong;
};

static void *flag_pong_thread(void *arg)
{
	struct flag_pp *pp = arg;
	unsigned long i;

	for (i = 1; i <= lat_iters; i++) {
		while (atomic_load_explicit(&pp->ping, memory_order_acquire) != i)
			;
		atomic_store_explicit(&pp->pong, i, memory_order_release);
	}
	return NULL;
}

/* One-way latency of a two-thread shared-word ping-pong, in microseconds. */
static double baseline_flag_pingpong(void)
{
	static struct flag_pp pp;
	pthread_t t;
	unsigned long i;
	double t0, t1;

	atomic_store(&pp.ping, 0);
	atomic_store(&pp.pong, 0);
	if (pthread_create(&t, NULL, flag_pong_thread, &pp) != 0)
		die("pthread_create");
	t0 = now_s();
	for (i = 1; i <= lat_iters; i++) {
		atomic_store_explicit(&pp.ping, i, memory_order_release);
		while (atomic_load_explicit(&pp.pong, memory_order_acquire) != i)
			;
	}
	t1 = now_s();
	pthread_join(t, NULL);
	return (t1 - t0) / lat_iters / 2.0 * 1e6;
}

/* The same ping-pong between two processes through a shared mapping, in microseconds. */
static double baseline_flag_pingpong_procs(void)
{
	struct flag_pp *pp = mmap(NULL, sizeof(*pp), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned long i;
	double t0, t1;
	pid_t pid;

	if (pp == MAP_FAILED)
		die("mmap");
	atomic_store(&pp->ping, 0);
	atomic_store(&pp->pong, 0);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		flag_pong_thread(pp);
		_exit(0);
	}
	t0 = now_s();
	for (i = 1; i <= lat_iters; i++) {
		atomic_store_explicit(&pp->ping, i, memory_order_release);
		while (atomic_load_explicit(&pp->pong, memory_order_acquire) != i)
			;
	}
	t1 = now_s();
	waitpid(pid, NULL, 0);
	munmap(pp, sizeof(*pp));
	return (t1 - t0) / lat_iters / 2.0 * 1e6;
}

/* memcpy of BW_MSG bytes, GB/s (10^9 bytes per second). */
static double baseline_memcpy(void)
{
	uint8_t *a = aligned_alloc(4096, BW_MSG), *b = aligned_alloc(4096, BW_MSG);
	volatile uint8_t sink;
	unsigned i;
	double t0, t1;

	if (a == NULL || b == NULL)
		die("out of memory");
	memset(a, 1, BW_MSG);
	memset(b, 2, BW_MSG);
	t0 = now_s();
	for (i = 0; i < bw_iters; i++) {
		a[i % BW_MSG] = (uint8_t)i; /* keep the compiler from hoisting the copy */
		memcpy(b, a, BW_MSG);
	}
	t1 = now_s();
	sink = b[bw_iters % BW_MSG];
	(void)sink;
	free(a);
	free(b);
	return (double)BW_MSG * bw_iters / (t1 - t0) / 1e9;
}

/*
 * bw_iters x BW_MSG bytes through a loopback TCP connection to a child process that reads
 * them all (what the TCP fabric's payloads cost at the least), GB/s.
 */
static double baseline_tcp_stream(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof(sa);
	uint8_t *buf = aligned_alloc(4096, BW_MSG);
	int lfd = socket(AF_INET, SOCK_STREAM, 0), fd, one = 1;
	uint8_t done = 0;
	unsigned i;
	double t0, t1;
	pid_t pid;

	if (buf == NULL || lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(lfd, 1) != 0 ||
	    getsockname(lfd, (struct sockaddr *)&sa, &sl) != 0)
		die("loopback TCP listener");
	memset(buf, 0x5a, BW_MSG);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		size_t left = (size_t)BW_MSG * bw_iters;

		fd = accept(lfd, NULL, NULL);
		while (fd >= 0 && left > 0) {
			ssize_t r = read(fd, buf, left < BW_MSG ? left : BW_MSG);

			if (r <= 0)
				_exit(1);
			left -= (size_t)r;
		}
		_exit(fd >= 0 && write(fd, &done, 1) == 1 ? 0 : 1);
	}
	close(lfd);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		die("loopback TCP connect");
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	t0 = now_s();
	for (i = 0; i < bw_iters; i++) {
		size_t off = 0;

		while (off < BW_MSG) {
			ssize_t w = write(fd, buf + off, BW_MSG - off);

			if (w <= 0)
				die("loopback TCP write");
			off += (size_t)w;
		}
	}
	if (read(fd, &done, 1) != 1)
		die("loopback TCP: the reader did not finish");
	t1 = now_s();
	close(fd);
	waitpid(pid, NULL, 0);
	free(buf);
	return (double)BW_MSG * bw_iters / (t1 - t0) / 1e9;
}

/* ---------------- one side of a connection ---------------- */

/* What a peer needs to reach a side: its QP, its NIC's GID, and its two targets. */
struct side_addr {
	uint32_t qpn;
	uint8_t gid[16];
	uint64_t flag_addr;     /* 8-byte word the peer writes in the ping-pong */
	uint64_t bw_addr;       /* BW_MSG bytes the peer writes in the bandwidth run */
	uint32_t rkey;
};

struct side {
	struct fx *f;
	struct fx_cq cq;
	struct fx_qp qp;
	uint8_t *mem;           /* [0, 64): flag word; [4096, 4096 + BW_MSG): data */
	uint32_t key;
};

static void side_create(struct fx *f, struct side *s)
{
	struct fx_cq_cfg cc = {.log_size = 8};
	struct fx_qp_cfg qc;

	memset(s, 0, sizeof(*s));
	s->f = f;
	s->mem = aligned_alloc(4096, 4096 + BW_MSG);
	if (s->mem == NULL)
		die("out of memory");
	memset(s->mem, 0, 4096 + BW_MSG);
	s->key = fx_mr(f, s->mem, 4096 + BW_MSG,
		       OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ);
	fx_cq_create(f, &cc, &s->cq);
	fx_qp_cfg_default(&qc, &s->cq, NULL);
	qc.log_sq = LOG_SQ;
	fx_qp_create(f, &qc, &s->qp);
}

static void side_addr_of(const struct side *s, struct side_addr *a)
{
	a->qpn = s->qp.qpn;
	memcpy(a->gid, s->f->nic->gid, 16);
	a->flag_addr = (uint64_t)(uintptr_t)s->mem;
	a->bw_addr = (uint64_t)(uintptr_t)(s->mem + 4096);
	a->rkey = s->key;
}

static void side_connect(struct side *s, const struct side_addr *peer)
{
	struct fx_conn c;

	fx_conn_default(s->f, &c, peer->qpn);
	memcpy(c.rgid, peer->gid, 16);
	c.mtu = PRM_QP_MTU_4096;
	c.log_msg_max = 30;
	fx_qp_connect(s->f, &s->qp, &c, PRM_QP_STATE_RTS);
}

static volatile uint64_t *flag_of(const struct side *s)
{
	return (volatile uint64_t *)(void *)s->mem;
}

/* Writes value into the peer's flag word: one inline WQE, unsignalled, NVSHMEM-style ring. */
static void put_flag(struct side *s, const struct side_addr *peer, uint64_t value)
{
	uint16_t idx = fx_take(&s->qp, 3);

	if (opengda_mlx5_wqe_rdma_write_inline(&s->qp.sqd, idx, CE_NONE, peer->flag_addr, peer->rkey, &value, 8) < 0)
		die("inline write recipe rejected its input");
	fx_ring(&s->qp, FX_RING_PI);
}

static void wait_flag(const struct side *s, uint64_t value)
{
	while (__atomic_load_n(flag_of(s), __ATOMIC_ACQUIRE) != value)
		;
}

/* Initiator of the ping-pong; returns the one-way latency in microseconds. */
static double pingpong_initiator(struct side *s, const struct side_addr *peer)
{
	uint64_t i;
	double t0, t1;

	t0 = now_s();
	for (i = 1; i <= lat_iters; i++) {
		put_flag(s, peer, i);
		wait_flag(s, i);
	}
	t1 = now_s();
	return (t1 - t0) / lat_iters / 2.0 * 1e6;
}

static void pingpong_responder(struct side *s, const struct side_addr *peer)
{
	uint64_t i;

	for (i = 1; i <= lat_iters; i++) {
		wait_flag(s, i);
		put_flag(s, peer, i);
	}
}

/* Posts the n-th WQE of a run. */
typedef void (*post_fn)(struct side *s, const struct side_addr *peer, unsigned n, const void *arg);

/*
 * iters signalled WQEs, inflight outstanding, every completion checked; seconds taken. As
 * perftest does: wait for one completion, take every other one already there, then post
 * as many WQEs as completed and ring once for them.
 */
static double run_writes(struct side *s, const struct side_addr *peer, unsigned iters, unsigned inflight, post_fn post,
			 const void *arg)
{
	struct opengda_mlx5_cqe_fields c;
	unsigned posted = 0, done = 0;
	double t0 = now_s();

	while (done < iters) {
		for (; posted < iters && posted - done < inflight; posted++)
			post(s, peer, posted, arg);
		fx_ring(&s->qp, FX_RING_PI);
		if (!fx_poll_spin(&s->cq, 10000, &c) || c.opcode != OPENGDA_MLX5_CQE_REQ)
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

struct bw_src {
	const uint8_t *src;
	uint32_t lkey;
};

static void post_bw(struct side *s, const struct side_addr *peer, unsigned n, const void *arg)
{
	const struct bw_src *b = arg;

	(void)n;
	if (opengda_mlx5_wqe_rdma_write(&s->qp.sqd, fx_take(&s->qp, 3), CE_ALWAYS, peer->bw_addr, peer->rkey,
					(uint64_t)(uintptr_t)b->src, b->lkey, BW_MSG) < 0)
		die("write recipe rejected its input");
}

/* bw_iters 1 MiB writes, BW_INFLIGHT outstanding; GB/s. */
static double bandwidth_writer(struct side *s, const struct side_addr *peer, const uint8_t *src, uint32_t lkey)
{
	struct bw_src b = {src, lkey};

	return (double)BW_MSG * bw_iters / run_writes(s, peer, bw_iters, BW_INFLIGHT, post_bw, &b) / 1e9;
}

static void post_rate(struct side *s, const struct side_addr *peer, unsigned n, const void *arg)
{
	uint64_t value = n + 1u;

	(void)arg;
	if (opengda_mlx5_wqe_rdma_write_inline(&s->qp.sqd, fx_take(&s->qp, 3), CE_ALWAYS, peer->bw_addr + 8u * (n % 64u),
					       peer->rkey, &value, 8) < 0)
		die("inline write recipe rejected its input");
}

/* rate_iters 8-byte inline writes, RATE_INFLIGHT outstanding; millions of messages per second. */
static double rate_writer(struct side *s, const struct side_addr *peer)
{
	return (double)rate_iters / run_writes(s, peer, rate_iters, RATE_INFLIGHT, post_rate, NULL) / 1e6;
}

/* ---------------- runs ---------------- */

/* Two processes, one fabric path. */
struct remote {
	double lat_us, bw_gbs, rate_mps;
	uint64_t shm_deliveries, tcp_deliveries; /* which path the requests took */
};

struct results {
	double flag_us, flag_procs_us, memcpy_gbs, tcp_gbs;
	double lat_local_us, bw_local_gbs, rate_local_mps;
	struct remote shm, tcp;
};

struct responder_arg {
	struct side *s;
	const struct side_addr *peer;
};

static void *responder_thread(void *arg)
{
	struct responder_arg *r = arg;

	pingpong_responder(r->s, r->peer);
	return NULL;
}

static void run_local(struct results *res)
{
	struct side a, b;
	struct side_addr aa, ba;
	struct responder_arg ra;
	pthread_t t;
	uint8_t *src = aligned_alloc(4096, BW_MSG);
	struct fx f;
	uint32_t lkey;

	if (src == NULL)
		die("out of memory");
	memset(src, 0x5a, BW_MSG);
	fx_open(&f);
	side_create(&f, &a);
	side_create(&f, &b);
	side_addr_of(&a, &aa);
	side_addr_of(&b, &ba);
	side_connect(&a, &ba);
	side_connect(&b, &aa);

	ra.s = &b;
	ra.peer = &aa;
	if (pthread_create(&t, NULL, responder_thread, &ra) != 0)
		die("pthread_create");
	res->lat_local_us = pingpong_initiator(&a, &ba);
	pthread_join(t, NULL);

	lkey = fx_mr(&f, src, BW_MSG, OGDA_ACCESS_LOCAL_WRITE);
	if (!rate_only) {
		res->bw_local_gbs = bandwidth_writer(&a, &ba, src, lkey);
		if (memcmp(b.mem + 4096, src, BW_MSG) != 0)
			die("bandwidth (one process): the target does not hold the data written");
	}
	res->rate_local_mps = rate_writer(&a, &ba);
	fx_close(&f);
	free(a.mem);
	free(b.mem);
	free(src);
}

static void write_all(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) != (ssize_t)n)
		die("pipe write");
}

static void read_all(int fd, void *p, size_t n)
{
	if (read(fd, p, n) != (ssize_t)n)
		die("pipe read");
}

/* The child: its own NIC, answers the ping-pong, then checks the bandwidth data. */
static int child_main(int rd, int wr)
{
	struct side_addr mine, parent;
	struct side s;
	struct fx f;
	uint8_t ok = 1;
	uint32_t i;

	fx_open(&f);
	side_create(&f, &s);
	side_addr_of(&s, &mine);
	write_all(wr, &mine, sizeof(mine));
	read_all(rd, &parent, sizeof(parent));
	side_connect(&s, &parent);
	write_all(wr, &ok, 1);
	pingpong_responder(&s, &parent);
	read_all(rd, &ok, 1); /* the parent's bandwidth run is over */
	for (i = 0; i < BW_MSG && !rate_only; i++)
		ok &= s.mem[4096 + i] == 0x5a;
	write_all(wr, &ok, 1);
	read_all(rd, &ok, 1); /* the parent's rate run is over */
	fx_close(&f);
	free(s.mem);
	return 0;
}

static void run_remote(struct remote *res)
{
	int to_child[2], to_parent[2], status = 0;
	struct side_addr mine, child;
	uint8_t *src = aligned_alloc(4096, BW_MSG);
	uint8_t ok = 0;
	struct side s;
	struct fx f;
	uint32_t lkey;
	pid_t pid;

	if (src == NULL || pipe(to_child) != 0 || pipe(to_parent) != 0)
		die("setup");
	memset(src, 0x5a, BW_MSG);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0)
		_exit(child_main(to_child[0], to_parent[1]));

	fx_open(&f);
	side_create(&f, &s);
	side_addr_of(&s, &mine);
	read_all(to_parent[0], &child, sizeof(child));
	write_all(to_child[1], &mine, sizeof(mine));
	side_connect(&s, &child);
	read_all(to_parent[0], &ok, 1); /* the child's QP is in RTS */
	res->lat_us = pingpong_initiator(&s, &child);
	lkey = fx_mr(&f, src, BW_MSG, OGDA_ACCESS_LOCAL_WRITE);
	if (!rate_only)
		res->bw_gbs = bandwidth_writer(&s, &child, src, lkey);
	write_all(to_child[1], &ok, 1);
	read_all(to_parent[0], &ok, 1);
	if (!ok)
		die("bandwidth (two processes): the child's memory does not hold the data written");
	res->rate_mps = rate_writer(&s, &child);
	{
		struct swnic_fabric_stats st;

		if (swnic_fabric_get_stats(f.nic->fabric, &st) != DOCA_SUCCESS)
			die("fabric stats");
		res->shm_deliveries = st.shm_deliveries;
		res->tcp_deliveries = st.tcp_deliveries;
	}
	write_all(to_child[1], &ok, 1);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("the child process failed");
	fx_close(&f);
	free(s.mem);
	free(src);
}

static void print_row(const char *what, double v, const char *unit, const char *base_name, double base,
		      double ratio)
{
	printf("%-36s %10.3f %-5s %-22s %10.3f %-5s %8.2fx\n", what, v, unit, base_name, base, unit, ratio);
}

int main(int argc, char **argv)
{
	struct results r;
	const char *poll;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			lat_iters = 2000;
			bw_iters = 200;
			rate_iters = 20000;
		} else if (strcmp(argv[i], "--rate-only") == 0) {
			rate_only = 1;
			lat_iters = 0;
		} else if (strcmp(argv[i], "--local-only") == 0) {
			local_only = 1;
		} else if (strcmp(argv[i], "--rate-iters") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0) {
			rate_iters = (unsigned)atoi(argv[++i]);
		} else {
			fprintf(stderr, "usage: swnic_bench [--quick] [--rate-only] [--local-only] [--rate-iters N]\n"
					"  engine polling follows OPENGDA_SWNIC_POLL (this program defaults it to spin)\n");
			return 2;
		}
	}
	setenv("OPENGDA_SWNIC_POLL", getenv("OPENGDA_SWNIC_POLL") ? getenv("OPENGDA_SWNIC_POLL") : "spin", 1);
	poll = getenv("OPENGDA_SWNIC_POLL");
	memset(&r, 0, sizeof(r));

	r.flag_us = baseline_flag_pingpong();
	r.flag_procs_us = baseline_flag_pingpong_procs();
	r.memcpy_gbs = baseline_memcpy();
	if (!rate_only)
		r.tcp_gbs = baseline_tcp_stream();
	run_local(&r);
	if (local_only) {
		printf("8 B rate, one process: %.3f M/s (%u WQEs)\n", r.rate_local_mps, rate_iters);
		return 0;
	}
	unsetenv("OPENGDA_SWNIC_SHM");
	run_remote(&r.shm);
	setenv("OPENGDA_SWNIC_SHM", "0", 1);
	run_remote(&r.tcp);
	unsetenv("OPENGDA_SWNIC_SHM");
	if (r.shm.shm_deliveries == 0 || r.shm.tcp_deliveries != 0 || r.tcp.shm_deliveries != 0)
		die("the two-process runs did not take the paths they measure");

	printf("OpenGDA software NIC benchmark: host memory, %ld online CPUs, engine polling %s\n",
	       sysconf(_SC_NPROCESSORS_ONLN), poll);
	printf("latency: %u round trips of an 8 B inline RDMA WRITE; bandwidth: %u x 1 MiB RDMA WRITE, %u in flight;\n"
	       "rate: %u x 8 B inline RDMA WRITE, %u in flight\n",
	       lat_iters, bw_iters, BW_INFLIGHT, rate_iters, RATE_INFLIGHT);
	printf("%-36s %16s %-22s %16s %9s\n", "measurement", "value", "baseline (same run)", "value", "ratio");
	print_row("latency one-way, one process", r.lat_local_us, "us", "flag ping-pong", r.flag_us,
		  r.lat_local_us / r.flag_us);
	print_row("latency one-way, 2 procs (shm)", r.shm.lat_us, "us", "2-process flag p-p", r.flag_procs_us,
		  r.shm.lat_us / r.flag_procs_us);
	print_row("latency one-way, 2 procs (TCP)", r.tcp.lat_us, "us", "2-process flag p-p", r.flag_procs_us,
		  r.tcp.lat_us / r.flag_procs_us);
	print_row("bandwidth, one process", r.bw_local_gbs, "GB/s", "memcpy 1 MiB", r.memcpy_gbs,
		  r.bw_local_gbs / r.memcpy_gbs);
	print_row("bandwidth, 2 procs (shm)", r.shm.bw_gbs, "GB/s", "memcpy 1 MiB", r.memcpy_gbs,
		  r.shm.bw_gbs / r.memcpy_gbs);
	print_row("bandwidth, 2 procs (TCP)", r.tcp.bw_gbs, "GB/s", "memcpy 1 MiB", r.memcpy_gbs,
		  r.tcp.bw_gbs / r.memcpy_gbs);
	if (!rate_only)
		print_row("bandwidth, 2 procs (TCP) / raw TCP", r.tcp.bw_gbs, "GB/s", "raw TCP 2 procs", r.tcp_gbs,
			  r.tcp.bw_gbs / r.tcp_gbs);
	print_row("8 B rate, one process", r.rate_local_mps, "M/s", "goal", 5.0, r.rate_local_mps / 5.0);
	print_row("8 B rate, 2 procs (shm)", r.shm.rate_mps, "M/s", "goal", 5.0, r.shm.rate_mps / 5.0);
	print_row("8 B rate, 2 procs (TCP)", r.tcp.rate_mps, "M/s", "goal", 5.0, r.tcp.rate_mps / 5.0);
	print_row("8 B rate, shm over TCP", r.shm.rate_mps, "M/s", "TCP, same run", r.tcp.rate_mps,
		  r.shm.rate_mps / r.tcp.rate_mps);
	printf("goals: latency <= 3x the flag ping-pong; bandwidth >= 80%% of memcpy (shm), >= 60%% of raw TCP (TCP);\n"
	       "rate >= 5 M/s (two processes)\n");
	return 0;
}
