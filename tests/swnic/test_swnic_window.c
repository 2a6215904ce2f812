/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Many requests in flight on one QP between two processes (swnic_window.c over a pipe,
 * swnic_fabric_pipe.c): the parent posts on a QP connected to a QP of a forked child's own
 * software NIC, so requests cross the shared-memory fabric (registered a second time with
 * OPENGDA_SWNIC_SHM=0, where the same WQEs travel over TCP, up to 64 KiB in flight).
 *  - a long mixed stream (fetch-adds, inline and gathered WRITEs, READs, SENDs) with dozens
 *    in flight runs exactly once and in order: the k-th fetch-add returns k;
 *  - RNR in the middle of a window: every WQE behind the refused SEND is resent after it
 *    (go-back-N), and none runs twice;
 *  - a remote access error in the middle of a window: the WQEs before it land, the ones
 *    behind it are flushed and land nothing;
 *  - a fenced WRITE waits for the READ before it, whose data it sends;
 *  - a lossy link (a test's fault hook cuts the connection, and holds a request past the
 *    requester's timeout): every WQE runs once and in order;
 *  - a peer killed with requests in flight: TRANSPORT_RETRY_EXC, the rest flushed, no hang.
 * The child checks its own memory and receives; it reads them only after the parent's last
 * SEND has completed there, and after a query of its QP (which orders the responder's writes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "swnic_fixture.h"
#include "swnic/swnic_fabric.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MEM (1u << 20)
#define WORD_OFF 0u            /* the fetch-add counter */
#define SLOTS_OFF 4096u        /* WRITE targets: 8 bytes per WQE */
#define READ_OFF 65536u        /* child: a pattern the parent READs */
#define RECV_OFF 131072u       /* child: receive buffers, 64 bytes each */
#define RECV_SLOTS 256u
#define BULK_OFF 262144u       /* gathered WRITEs of up to 16 KiB */
#define CE OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE
#define FENCE (OPENGDA_MLX5_FENCE_MODE_FENCE << OPENGDA_MLX5_FENCE_SHIFT)

struct peer {
	uint32_t qpn;
	uint8_t gid[16];
	uint64_t addr;
	uint32_t rkey;
};

struct side {
	struct fx f;
	struct fx_cq cq;
	struct fx_qp qp;
	uint8_t *mem;
	uint32_t key;
	uint32_t recvs;        /* receives posted so far */
};

static void side_open(struct side *s, struct peer *me)
{
	struct fx_cq_cfg cc = {.log_size = 10};
	struct fx_qp_cfg qc;

	memset(s, 0, sizeof(*s));
	fx_open(&s->f);
	s->mem = aligned_alloc(4096, MEM);
	assert_non_null(s->mem);
	memset(s->mem, 0, MEM);
	s->key = fx_mr(&s->f, s->mem, MEM,
		       OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ |
			       OGDA_ACCESS_REMOTE_ATOMIC);
	fx_cq_create(&s->f, &cc, &s->cq);
	fx_qp_cfg_default(&qc, &s->cq, NULL);
	qc.log_sq = 10;
	qc.log_rq = 8;
	fx_qp_create(&s->f, &qc, &s->qp);
	me->qpn = s->qp.qpn;
	memcpy(me->gid, s->f.nic->gid, 16);
	me->addr = fx_va(s->mem);
	me->rkey = s->key;
}

/* Transport retries of the parent's QP in the runs that follow (0: the fixture's 3). */
static uint8_t parent_retry_count;

static void side_connect(struct side *s, const struct peer *p)
{
	struct fx_conn c;

	fx_conn_remote(&s->f, &c, p->qpn, p->gid);
	fx_qp_connect(&s->f, &s->qp, &c, PRM_QP_STATE_RTS);
}

/* ---------------- the child ---------------- */

enum { CMD_RECV = 'R', CMD_DUMP = 'D', CMD_FAULT = 'F', CMD_QUIT = 'Q' };

/* The child's lossy link: the cut_at-th request it reads closes its connection, the stall_at-th waits stall_ms. */
struct fault_plan {
	atomic_uint seen;
	uint32_t cut_at, stall_at, stall_ms;
};

static enum swnic_fabric_fault fault_hook(void *ctx, const struct swnic_req *req, uint32_t *stall_ms)
{
	struct fault_plan *p = ctx;
	uint32_t n = atomic_fetch_add(&p->seen, 1) + 1u;

	(void)req;
	if (n == p->cut_at)
		return SWNIC_FABRIC_FAULT_CUT;
	if (n == p->stall_at) {
		*stall_ms = p->stall_ms;
		return SWNIC_FABRIC_FAULT_STALL;
	}
	return SWNIC_FABRIC_FAULT_NONE;
}

struct cmd {
	uint8_t op;
	uint32_t a, b, c;  /* RECV: count, delay ms; DUMP: SENDs to take first, offset, length */
};

static void child_recv(struct side *s, uint32_t n, uint32_t delay_ms)
{
	uint32_t i;

	fx_sleep_ms(delay_ms);
	for (i = 0; i < n; i++, s->recvs++)
		fx_rq_post(&s->qp, s->mem + RECV_OFF + (s->recvs % RECV_SLOTS) * 64u, 64, s->key);
}

/* Takes sends receive CQEs (each a SEND), then sends back ok and len bytes at off. */
static void child_dump(struct side *s, int wr, uint32_t sends, uint32_t off, uint32_t len)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t ok = 1;
	uint32_t i;

	for (i = 0; i < sends; i++) {
		ok &= fx_poll(&s->cq, FX_POLL_TIMEOUT_MS, &c);
		ok &= c.opcode == OPENGDA_MLX5_CQE_RESP_SEND;
	}
	/* The query takes the QP's lock, which the responder takes after each request it runs:
	 * what the NIC's threads wrote is ordered before the read below, SEND or not. */
	(void)fx_qp_state(&s->f, &s->qp);
	fx_xfer(wr, &ok, 1, 1);
	fx_xfer(wr, s->mem + off, len, 1);
}

static int child_main(int rd, int wr)
{
	struct peer me, parent;
	struct side s;
	struct cmd c;
	uint32_t i;

	side_open(&s, &me);
	for (i = 0; i < 4096; i++)
		s.mem[READ_OFF + i] = (uint8_t)(i * 13u + 5u);
	fx_xfer(wr, &me, sizeof(me), 1);
	fx_xfer(rd, &parent, sizeof(parent), 0);
	side_connect(&s, &parent);
	fx_xfer(wr, &me, 1, 1); /* RTS */
	for (;;) {
		fx_xfer(rd, &c, sizeof(c), 0);
		if (c.op == CMD_RECV)
			child_recv(&s, c.a, c.b);
		else if (c.op == CMD_FAULT) {
			static struct fault_plan plan;

			plan.cut_at = c.a;
			plan.stall_at = c.b;
			plan.stall_ms = c.c;
			if (swnic_fabric_set_fault_hook(s.f.nic->fabric, fault_hook, &plan) != DOCA_SUCCESS)
				return 1;
		} else if (c.op == CMD_DUMP)
			child_dump(&s, wr, c.a, c.b, c.c);
		else
			break;
	}
	fx_close(&s.f);
	free(s.mem);
	return 0;
}

/* ---------------- the parent ---------------- */

struct run {
	struct side s;
	struct peer ch;
	int to_child, to_parent;
	pid_t pid;
};

/* The run in progress: a test that fails midway leaves it to run_teardown, not to the next test. */
static struct run *live_run;

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
		close(a[1]);
		close(b[0]);
		_exit(child_main(a[0], b[1]));
	}
	close(a[0]);
	close(b[1]);
	r->to_child = a[1];
	r->to_parent = b[0];
	live_run = r;
	side_open(&r->s, &me);
	fx_xfer(r->to_parent, &r->ch, sizeof(r->ch), 0);
	fx_xfer(r->to_child, &me, sizeof(me), 1);
	if (parent_retry_count != 0) {
		struct fx_conn c;

		fx_conn_remote(&r->s.f, &c, r->ch.qpn, r->ch.gid);
		c.retry_count = parent_retry_count;
		fx_qp_connect(&r->s.f, &r->s.qp, &c, PRM_QP_STATE_RTS);
	} else {
		side_connect(&r->s, &r->ch);
	}
	fx_xfer(r->to_parent, &go, 1, 0);
}

static void child_cmd(struct run *r, uint8_t op, uint32_t a, uint32_t b, uint32_t c)
{
	struct cmd m = {.op = op, .a = a, .b = b, .c = c};

	fx_xfer(r->to_child, &m, sizeof(m), 1);
}

/* The child's memory [off, off + len) into out, after it has taken sends SENDs. */
static void child_memory(struct run *r, uint32_t sends, uint32_t off, uint32_t len, uint8_t *out)
{
	uint8_t ok = 0;

	child_cmd(r, CMD_DUMP, sends, off, len);
	fx_xfer(r->to_parent, &ok, 1, 0);
	fx_xfer(r->to_parent, out, len, 0);
	assert_int_equal(ok, 1);
}

static struct swnic_fabric_stats run_stats(struct run *r)
{
	struct swnic_fabric_stats st;

	assert_int_equal(swnic_fabric_get_stats(r->s.f.nic->fabric, &st), DOCA_SUCCESS);
	return st;
}

static bool over_tcp(void)
{
	const char *v = getenv("OPENGDA_SWNIC_SHM");

	return v != NULL && strcmp(v, "0") == 0;
}

static void run_end(struct run *r)
{
	int status = 0;

	child_cmd(r, CMD_QUIT, 0, 0, 0);
	assert_int_equal(waitpid(r->pid, &status, 0), r->pid);
	live_run = NULL;
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	fx_close(&r->s.f);
	free(r->s.mem);
	close(r->to_child);
	close(r->to_parent);
}

/*
 * After a test that failed midway: its child is killed and its NIC closed, so the next test starts
 * from nothing (a failure used to leave the child and the NIC behind, and every later test failed
 * with it).
 */
static int run_teardown(void **state)
{
	struct run *r = live_run;

	(void)state;
	if (r == NULL)
		return 0;
	live_run = NULL;
	if (r->pid > 0) {
		(void)kill(r->pid, SIGKILL);
		(void)waitpid(r->pid, NULL, 0);
	}
	if (r->s.mem != NULL) { /* the NIC was opened (side_open allocates the memory after it) */
		fx_close(&r->s.f);
		free(r->s.mem);
	}
	close(r->to_child);
	close(r->to_parent);
	return 0;
}

static uint64_t *fa_result(struct side *s, uint32_t k)
{
	return (uint64_t *)(void *)(s->mem + 8192u + 8u * k);
}

static void post_fa(struct run *r, uint32_t k, uint8_t fm_ce_se)
{
	*fa_result(&r->s, k) = UINT64_MAX;
	assert_int_equal(opengda_mlx5_wqe_atomic_fa(&r->s.qp.sqd, fx_take(&r->s.qp, 4), fm_ce_se, r->ch.addr + WORD_OFF,
						    r->ch.rkey, 1, fx_va(fa_result(&r->s, k)), r->s.key),
			 4);
}

static void post_send(struct run *r, uint32_t k)
{
	uint8_t *msg = r->s.mem + 16384u + 64u * (k % 64u);

	memset(msg, 0, 64);
	memcpy(msg, &k, sizeof(k));
	assert_int_equal(opengda_mlx5_wqe_send(&r->s.qp.sqd, fx_take(&r->s.qp, 2), CE, fx_va(msg), r->s.key, 8), 2);
}

/* Completions of n WQEs, every one successful, in WQE order from first. */
static void expect_ok(struct run *r, uint16_t first, uint32_t n)
{
	struct opengda_mlx5_cqe_fields c;
	uint32_t i;

	for (i = 0; i < n; i++) {
		fx_poll_ok(&r->s.cq, &c);
		if (c.opcode != OPENGDA_MLX5_CQE_REQ)
			fail_msg("WQE %u of %u: opcode 0x%x syndrome 0x%x", i, n, c.opcode, c.syndrome);
		(void)first;
	}
}

/* Takes successful completions until at most `left` WQEs are outstanding; *done counts them. */
static void reap_ok(struct run *r, uint32_t posted, uint32_t *done, uint32_t left)
{
	struct opengda_mlx5_cqe_fields c;

	while (posted - *done > left) {
		fx_poll_ok(&r->s.cq, &c);
		if (c.opcode != OPENGDA_MLX5_CQE_REQ)
			fail_msg("WQE %u: opcode 0x%x syndrome 0x%x", *done, c.opcode, c.syndrome);
		(*done)++;
	}
}

/*
 * 3000 WQEs, up to 256 outstanding: per round of 6 a fetch-add, an inline WRITE of the
 * round number into its own slot, a gathered WRITE of up to 16 KiB, a READ of 4 KiB,
 * every 5th round a SEND. All complete, the k-th fetch-add returns k, the child sees the
 * counter, every slot and SEND, and the pipe had many requests in flight.
 */
static void window_stream_is_exact_and_ordered(void **state)
{
	enum { ROUNDS = 500 };
	static uint8_t got[MEM];
	uint32_t round, fa = 0, sends = 0, posted = 0, done = 0, i;
	static struct run r; /* static: run_teardown reaches it after a failure */

	(void)state;
	run_start(&r);
	child_cmd(&r, CMD_RECV, ROUNDS / 5u + 1u, 0, 0);
	for (i = 0; i < 16384; i++)
		r.s.mem[BULK_OFF + i] = (uint8_t)(i * 3u + 1u);
	for (round = 0; round < ROUNDS; round++) {
		uint64_t v = round + 1u;
		uint32_t bulk = 1024u + (round * 997u) % 15360u;

		reap_ok(&r, posted, &done, 200u);
		post_fa(&r, fa++, CE);
		assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE,
								    r.ch.addr + SLOTS_OFF + 8u * round, r.ch.rkey, &v, 8),
				 3);
		assert_int_equal(opengda_mlx5_wqe_rdma_write(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE,
							     r.ch.addr + BULK_OFF + 16384u * (round % 8u), r.ch.rkey,
							     fx_va(r.s.mem + BULK_OFF), r.s.key, bulk),
				 3);
		assert_int_equal(opengda_mlx5_wqe_rdma_read(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE, r.ch.addr + READ_OFF,
							    r.ch.rkey, fx_va(r.s.mem + 131072u + 4096u * (round % 16u)),
							    r.s.key, 4096),
				 3);
		posted += 4;
		if (round % 5u == 0) {
			post_send(&r, sends++);
			posted++;
		}
		fx_ring(&r.s.qp, FX_RING_PI);
	}
	reap_ok(&r, posted, &done, 0);
	for (i = 0; i < fa; i++)
		if (*fa_result(&r.s, i) != i)
			fail_msg("fetch-add %u returned %llu: not exactly once in order", i,
				 (unsigned long long)*fa_result(&r.s, i));
	for (i = 0; i < 16; i++)
		assert_memory_equal(r.s.mem + 131072u + 4096u * i, r.s.mem + 131072u, 4096);
	for (i = 0; i < 4096; i++)
		assert_int_equal(r.s.mem[131072u + i], (uint8_t)(i * 13u + 5u));

	/* One more SEND as the last request: the child reads its memory after its CQE. */
	post_send(&r, sends++);
	fx_ring(&r.s.qp, FX_RING_PI);
	expect_ok(&r, 0, 1);
	child_memory(&r, sends, 0, MEM / 2u, got);
	assert_int_equal(*(uint64_t *)(void *)got, fa);
	for (round = 0; round < ROUNDS; round++) {
		uint64_t v;

		memcpy(&v, got + SLOTS_OFF + 8u * round, 8);
		assert_int_equal(v, round + 1u);
	}
	for (i = 0; i < 8; i++) /* the last bulk WRITE into each of the 8 places */
		assert_memory_equal(got + BULK_OFF + 16384u * i, r.s.mem + BULK_OFF, 1024);
	for (i = 0; i < sends; i++) {
		uint32_t k;

		memcpy(&k, got + RECV_OFF + 64u * (i % RECV_SLOTS), 4);
		assert_int_equal(k, i);
	}
	{
		struct swnic_fabric_stats st = run_stats(&r);

		print_message("pipe: at most %llu requests in flight, %llu shared-memory, %llu TCP deliveries\n",
			      (unsigned long long)st.pipe_inflight_hwm, (unsigned long long)st.shm_deliveries,
			      (unsigned long long)st.tcp_deliveries);
		assert_true(st.pipe_inflight_hwm > 1);
		/*
		 * One delivery per request, unless a request timed out on a loaded machine (CI runs
		 * tests side by side): the pipe then went back and resent what was in flight, which
		 * is counted again. The data checks above hold either way (nothing ran twice).
		 */
		{
			uint64_t on = over_tcp() ? st.tcp_deliveries : st.shm_deliveries;
			uint64_t off = over_tcp() ? st.shm_deliveries : st.tcp_deliveries;

			assert_int_equal(off, 0);
			if (st.pipe_go_backs == 0 && st.tcp_failures == 0)
				assert_int_equal(on, posted + 1u);
			else
				assert_true(on > posted);
		}
	}
	run_end(&r);
}

/*
 * The child has no receive posted: a window of fetch-adds and SENDs meets RNR at its first
 * SEND. The child posts receives 50 ms later. Everything completes in order, every
 * fetch-add ran once (k-th returns k), the SENDs arrive in order, and the pipe went back.
 */
static void window_goes_back_after_rnr(void **state)
{
	enum { N = 24 };
	static uint8_t got[RECV_OFF + 64u * 16u];
	uint32_t i, fa = 0, sends = 0;
	uint64_t rnr = 0, wqes, errors, transport;
	static struct run r; /* static: run_teardown reaches it after a failure */

	(void)state;
	run_start(&r);
	for (i = 0; i < N; i++) {
		if (i % 3u == 1u)
			post_send(&r, sends++);
		else
			post_fa(&r, fa++, CE);
	}
	fx_ring(&r.s.qp, FX_RING_PI);
	child_cmd(&r, CMD_RECV, sends + 1u, 50, 0);
	expect_ok(&r, 0, N);
	for (i = 0; i < fa; i++)
		assert_int_equal(*fa_result(&r.s, i), i);
	fx_qp_counters(&r.s.f, &r.s.qp, &wqes, &errors, &rnr, &transport);
	assert_true(rnr >= 1);
	assert_int_equal(errors, 0);
	assert_int_equal(transport, 0); /* the resends went out after the RNR, not after a timeout */
	post_send(&r, sends++);
	fx_ring(&r.s.qp, FX_RING_PI);
	expect_ok(&r, 0, 1);
	child_memory(&r, sends, 0, sizeof(got), got);
	assert_int_equal(*(uint64_t *)(void *)got, fa);
	for (i = 0; i < sends; i++) {
		uint32_t k;

		memcpy(&k, got + RECV_OFF + 64u * i, 4);
		assert_int_equal(k, i);
	}
	assert_true(run_stats(&r).pipe_go_backs >= 1);
	run_end(&r);
}

/*
 * 12 WRITEs, one with a bad rkey, 12 more, rung at once: the first 12 land and complete, the
 * bad one fails with REMOTE_ACCESS, the 12 behind it are flushed and land nothing.
 */
static void window_error_flushes_the_rest(void **state)
{
	static uint8_t got[SLOTS_OFF + 8u * 32u];
	struct opengda_mlx5_cqe_fields c;
	uint16_t first;
	uint32_t i;
	static struct run r; /* static: run_teardown reaches it after a failure */

	(void)state;
	run_start(&r);
	first = r.s.qp.pi;
	for (i = 0; i < 25; i++) {
		uint64_t v = 100u + i;

		assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE,
								    r.ch.addr + SLOTS_OFF + 8u * i,
								    i == 12 ? r.ch.rkey ^ 0x5a00u : r.ch.rkey, &v, 8),
				 3);
	}
	fx_ring(&r.s.qp, FX_RING_PI);
	for (i = 0; i < 25; i++) {
		fx_poll_ok(&r.s.cq, &c);
		assert_int_equal(c.wqe_counter, (uint16_t)(first + i)); /* one WQEBB each, in order */
		if (i < 12)
			assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
		else if (i == 12)
			assert_int_equal(c.syndrome, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
		else
			assert_int_equal(c.syndrome, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	}
	assert_int_equal(fx_qp_state(&r.s.f, &r.s.qp), PRM_QP_STATE_ERR);
	/* The child's memory, read after a moment: nothing behind the failure may land later. */
	fx_sleep_ms(100);
	child_memory(&r, 0, 0, sizeof(got), got);
	for (i = 0; i < 25; i++) {
		uint64_t v;

		memcpy(&v, got + SLOTS_OFF + 8u * i, 8);
		assert_int_equal(v, i < 12 ? 100u + i : 0u);
	}
	run_end(&r);
}

/*
 * Behind 40 WRITEs in flight, a READ of the child's pattern into local memory, then a fenced
 * WRITE of that local memory to the child: the fence makes the WRITE wait for the READ's
 * data, so the child receives its own pattern back.
 */
static void window_fence_waits_for_the_read(void **state)
{
	static uint8_t got[READ_OFF + 8192u];
	uint8_t *local = NULL;
	uint32_t i;
	static struct run r; /* static: run_teardown reaches it after a failure */

	(void)state;
	run_start(&r);
	local = r.s.mem + 196608u;
	memset(local, 0xee, 4096);
	for (i = 0; i < 40; i++) {
		uint64_t v = i;

		assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE,
								    r.ch.addr + SLOTS_OFF + 8u * i, r.ch.rkey, &v, 8),
				 3);
	}
	assert_int_equal(opengda_mlx5_wqe_rdma_read(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE, r.ch.addr + READ_OFF,
						    r.ch.rkey, fx_va(local), r.s.key, 4096),
			 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE | FENCE,
						     r.ch.addr + READ_OFF + 4096u, r.ch.rkey, fx_va(local), r.s.key, 4096),
			 3);
	post_send(&r, 0);
	fx_ring(&r.s.qp, FX_RING_PI);
	child_cmd(&r, CMD_RECV, 1, 0, 0);
	expect_ok(&r, 0, 43);
	child_memory(&r, 1, 0, sizeof(got), got);
	assert_memory_equal(got + READ_OFF + 4096u, got + READ_OFF, 4096);
	run_end(&r);
}

/*
 * A lossy link under a full window: the child's server cuts the connection at the 150th
 * request it reads (it and everything behind it in flight are lost) and holds the 400th
 * 1.5 s, past the requester's 1 s timeout, before it runs it. 300 rounds of a fetch-add and
 * an inline WRITE, 200 WQEs outstanding: every WQE completes successfully and in order, the
 * k-th fetch-add returns k (each ran once: the resent copies ran, the late original of the
 * stalled one was recognised as a duplicate), and every WRITE landed.
 */
static void window_lossy_link_runs_everything_once(void **state)
{
	enum { ROUNDS = 300 };
	static uint8_t got[MEM];
	uint32_t round, posted = 0, done = 0, k;
	struct swnic_fabric_stats st;
	static struct run r; /* static: run_teardown reaches it after a failure */

	(void)state;
	/* The cut and the stall cost a transport retry each; a loaded machine (CI runs tests side by
	 * side, sanitizers) may time out a request besides: the most retries the QP context holds. */
	parent_retry_count = 7;
	run_start(&r);
	parent_retry_count = 0;
	child_cmd(&r, CMD_FAULT, 150, 400, 1500);
	for (round = 0; round < ROUNDS; round++) {
		uint64_t v = round + 1u;

		reap_ok(&r, posted, &done, 200u);
		post_fa(&r, round, CE);
		assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE,
								    r.ch.addr + SLOTS_OFF + 8u * round, r.ch.rkey, &v, 8),
				 3);
		posted += 2;
		fx_ring(&r.s.qp, FX_RING_PI);
	}
	reap_ok(&r, posted, &done, 0);
	for (k = 0; k < ROUNDS; k++)
		if (*fa_result(&r.s, k) != k)
			fail_msg("fetch-add %u returned %llu: a request ran twice or out of order", k,
				 (unsigned long long)*fa_result(&r.s, k));
	child_memory(&r, 0, 0, SLOTS_OFF + 8u * ROUNDS, got);
	assert_true(*(uint64_t *)(void *)(got + WORD_OFF) == ROUNDS);
	for (k = 0; k < ROUNDS; k++)
		assert_true(*(uint64_t *)(void *)(got + SLOTS_OFF + 8u * k) == k + 1u);
	st = run_stats(&r);
	print_message("lossy link: %llu transport failures, %llu go-backs, at most %llu in flight\n",
		      (unsigned long long)st.tcp_failures, (unsigned long long)st.pipe_go_backs,
		      (unsigned long long)st.pipe_inflight_hwm);
	assert_true(st.tcp_failures >= 2); /* the cut and the time-out each dropped a connection */
	run_end(&r);
}

/*
 * One WRITE completes; the child is stopped, 199 more are rung (the window sends up to 32 of
 * them, which stay unanswered), then the child is killed. Every WQE completes, in order: the
 * first, one TRANSPORT_RETRY_EXC, then WR_FLUSH_ERR; nothing hangs. (Stopping the child
 * first makes sure requests are in flight when it dies: a live child answers 200 WRITEs
 * faster than a signal kills it.)
 */
static void window_peer_killed_in_flight(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	unsigned good = 0, failed = 0, flushed = 0, n;
	int status = 0;
	uint16_t first;
	uint64_t t0;
	static struct run r; /* static: run_teardown reaches it after a failure */

	(void)state;
	run_start(&r);
	first = r.s.qp.pi;
	for (n = 0; n < 200; n++) {
		uint64_t v = n;

		assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&r.s.qp.sqd, fx_take(&r.s.qp, 3), CE,
								    r.ch.addr + SLOTS_OFF + 8u * n, r.ch.rkey, &v, 8),
				 3);
		if (n == 0) {
			fx_ring(&r.s.qp, FX_RING_PI);
			fx_poll_ok(&r.s.cq, &c);
			assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
			assert_int_equal(kill(r.pid, SIGSTOP), 0);
			assert_int_equal(waitpid(r.pid, &status, WUNTRACED), r.pid); /* stopped for sure */
			assert_true(WIFSTOPPED(status));
		}
	}
	fx_ring(&r.s.qp, FX_RING_PI);
	good = 1;
	fx_sleep_ms(50); /* the window sends what it can */
	assert_true(run_stats(&r).pipe_inflight_hwm > 1);
	t0 = fx_ms();
	assert_int_equal(kill(r.pid, SIGKILL), 0);
	assert_int_equal(waitpid(r.pid, &status, 0), r.pid);
	r.pid = -1; /* reaped: nothing for run_teardown to kill */
	for (n = 1; n < 200; n++) {
		fx_poll_ok(&r.s.cq, &c); /* FX_POLL_TIMEOUT_MS bounds every wait: no hang */
		assert_int_equal(c.wqe_counter, (uint16_t)(first + n));
		if (c.opcode == OPENGDA_MLX5_CQE_REQ) {
			assert_int_equal(failed + flushed, 0);
			good++;
		} else if (c.syndrome == OPENGDA_MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR) {
			assert_int_equal(failed + flushed, 0);
			failed++;
		} else {
			assert_int_equal(c.syndrome, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
			assert_int_equal(failed, 1);
			flushed++;
		}
	}
	print_message("%u writes completed, %u TRANSPORT_RETRY_EXC, %u flushed\n", good, failed, flushed);
	assert_int_equal(good, 1);
	assert_int_equal(failed, 1);
	assert_int_equal(fx_qp_state(&r.s.f, &r.s.qp), PRM_QP_STATE_ERR);
	assert_true(fx_ms() - t0 < FX_POLL_TIMEOUT_MS);
	live_run = NULL;
	fx_close(&r.s.f);
	free(r.s.mem);
	close(r.to_child);
	close(r.to_parent);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(window_stream_is_exact_and_ordered, run_teardown),
		cmocka_unit_test_teardown(window_goes_back_after_rnr, run_teardown),
		cmocka_unit_test_teardown(window_error_flushes_the_rest, run_teardown),
		cmocka_unit_test_teardown(window_fence_waits_for_the_read, run_teardown),
		cmocka_unit_test_teardown(window_lossy_link_runs_everything_once, run_teardown),
		cmocka_unit_test_teardown(window_peer_killed_in_flight, run_teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
