/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * WQEs between two processes: the parent posts raw WQEs on a QP connected to a QP of a
 * forked child's own software NIC, so every request crosses the fabric between processes:
 * shared memory (the default on one host) or TCP (OPENGDA_SWNIC_SHM=0; registered twice).
 *  - WRITE, READ, fetch-add and SEND land exactly (checked on both sides) with the CQEs
 *    hardware would give;
 *  - the child is killed in the middle of a stream of 1 MiB writes: the parent's QP
 *    reports TRANSPORT_RETRY_EXC within the retry bound and flushes the rest; nothing hangs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "swnic_fixture.h"
#include "swnic/swnic_fabric.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MEM (2u << 20)           /* per side: [0, 4096) words, [4096, ...) data */
#define CE OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE

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
};

static void side_open(struct side *s, struct peer *me)
{
	struct fx_cq_cfg cc = {.log_size = 8};
	struct fx_qp_cfg qc;

	fx_open(&s->f);
	s->mem = aligned_alloc(4096, MEM);
	assert_non_null(s->mem);
	memset(s->mem, 0, MEM);
	s->key = fx_mr(&s->f, s->mem, MEM,
		       OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ |
			       OGDA_ACCESS_REMOTE_ATOMIC);
	fx_cq_create(&s->f, &cc, &s->cq);
	fx_qp_cfg_default(&qc, &s->cq, NULL);
	qc.log_sq = 7;
	fx_qp_create(&s->f, &qc, &s->qp);
	me->qpn = s->qp.qpn;
	memcpy(me->gid, s->f.nic->gid, 16);
	me->addr = (uint64_t)(uintptr_t)s->mem;
	me->rkey = s->key;
}

static void side_connect(struct side *s, const struct peer *p)
{
	struct fx_conn c;

	fx_conn_default(&s->f, &c, p->qpn);
	memcpy(c.rgid, p->gid, 16);
	c.mtu = PRM_QP_MTU_4096;
	c.log_msg_max = 30;
	c.retry_count = 2;
	/* ~1 s per attempt (clamped by OPENGDA_SWNIC_MAX_TIMEOUT_MS): a slow (sanitized) 1 MiB write must
	 * not time out and be retried; a killed peer is seen by its connection reset, not by the timeout. */
	c.ack_timeout = 18;
	fx_qp_connect(&s->f, &s->qp, &c, PRM_QP_STATE_RTS);
}

static void xfer(int fd, void *p, size_t n, int out)
{
	ssize_t r = out ? write(fd, p, n) : read(fd, p, n);

	assert_int_equal(r, (ssize_t)n);
}

/* Child: serve, post one receive, wait for the parent's verdict request, report checks. */
static int child(int rd, int wr, int serve_checks)
{
	struct peer me, parent;
	struct side s;
	uint8_t go = 0, ok = 1;
	uint32_t i;

	side_open(&s, &me);
	xfer(wr, &me, sizeof(me), 1);
	xfer(rd, &parent, sizeof(parent), 0);
	side_connect(&s, &parent);
	fx_rq_post(&s.qp, s.mem + 8192, 64, s.key);
	xfer(wr, &go, 1, 1);
	if (!serve_checks) {
		pause(); /* killed by the parent */
		return 0;
	}
	xfer(rd, &go, 1, 0);
	/*
	 * The SEND was the parent's last request: its responder CQE, read with acquire, orders
	 * every earlier write of the NIC's responder thread before the checks below (the pipe
	 * alone gives no ordering a race detector can see).
	 */
	{
		struct opengda_mlx5_cqe_fields c;

		ok &= fx_poll(&s.cq, 2000, &c);
		ok &= c.opcode == OPENGDA_MLX5_CQE_RESP_SEND && c.byte_cnt == 24 && c.qpn == s.qp.qpn;
		ok &= memcmp(s.mem + 8192, "two processes, one QP   ", 24) == 0;
	}
	/* WRITE of 4 KiB at 4096: pattern i*7 */
	for (i = 0; i < 4096; i++)
		ok &= s.mem[4096 + i] == (uint8_t)(i * 7u);
	/* fetch-add on the word at 0: 40 + 2 */
	ok &= *(uint64_t *)(void *)s.mem == 42u;
	/* the WRITE past the end of the MR landed nothing */
	for (i = MEM - 2048; i < MEM; i++)
		ok &= s.mem[i] == 0;
	xfer(wr, &ok, 1, 1);
	fx_close(&s.f);
	free(s.mem);
	return 0;
}

static pid_t start_child(int serve_checks, int *to_child, int *to_parent)
{
	int a[2], b[2];
	pid_t pid;

	assert_int_equal(pipe(a), 0);
	assert_int_equal(pipe(b), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child(a[0], b[1], serve_checks));
	*to_child = a[1];
	*to_parent = b[0];
	return pid;
}

static void test_operations_across_processes(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	int to_child, to_parent, status = 0;
	struct peer me, ch;
	struct side s;
	uint8_t go = 0, ok = 0;
	uint64_t *word;
	uint16_t idx;
	uint32_t i;
	pid_t pid;

	(void)state;
	pid = start_child(1, &to_child, &to_parent);
	side_open(&s, &me);
	xfer(to_parent, &ch, sizeof(ch), 0);
	xfer(to_child, &me, sizeof(me), 1);
	side_connect(&s, &ch);
	xfer(to_parent, &go, 1, 0);

	for (i = 0; i < 4096; i++)
		s.mem[4096 + i] = (uint8_t)(i * 7u);
	memcpy(s.mem + 16384, "two processes, one QP   ", 24);
	word = (uint64_t *)(void *)(s.mem + 64);

	/* WRITE 4 KiB, then READ it back into another place, then FA 2 on a word holding 40. */
	idx = fx_take(&s.qp, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&s.qp.sqd, idx, CE, ch.addr + 4096, ch.rkey,
						     (uint64_t)(uintptr_t)(s.mem + 4096), s.key, 4096), 3);
	fx_ring(&s.qp, FX_RING_PI);
	fx_poll_ok(&s.cq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.wqe_opcode, OPENGDA_MLX5_OPCODE_RDMA_WRITE);
	assert_int_equal(c.wqe_counter, idx);
	assert_int_equal(c.qpn, s.qp.qpn);

	idx = fx_take(&s.qp, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_read(&s.qp.sqd, idx, CE, ch.addr + 4096, ch.rkey,
						    (uint64_t)(uintptr_t)(s.mem + 65536), s.key, 4096), 3);
	fx_ring(&s.qp, FX_RING_CTRL);
	fx_poll_ok(&s.cq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.byte_cnt, 4096);
	assert_memory_equal(s.mem + 65536, s.mem + 4096, 4096);

	*word = 0;
	idx = fx_take(&s.qp, 3);
	{
		uint64_t forty = 40;

		assert_int_equal(opengda_mlx5_wqe_rdma_write_inline(&s.qp.sqd, idx, CE, ch.addr, ch.rkey, &forty, 8),
				 3);
	}
	fx_ring(&s.qp, FX_RING_PI);
	fx_poll_ok(&s.cq, &c);
	idx = fx_take(&s.qp, 4);
	assert_int_equal(opengda_mlx5_wqe_atomic_fa(&s.qp.sqd, idx, CE, ch.addr, ch.rkey, 2,
						    (uint64_t)(uintptr_t)word, s.key), 4);
	fx_ring(&s.qp, FX_RING_PI);
	fx_poll_ok(&s.cq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.wqe_opcode, OPENGDA_MLX5_OPCODE_ATOMIC_FA);
	assert_int_equal(*word, 40u); /* the value before the add, host order */

	idx = fx_take(&s.qp, 2);
	assert_int_equal(opengda_mlx5_wqe_send(&s.qp.sqd, idx, CE, (uint64_t)(uintptr_t)(s.mem + 16384), s.key, 24),
			 2);
	fx_ring(&s.qp, FX_RING_BF);
	fx_poll_ok(&s.cq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.wqe_opcode, OPENGDA_MLX5_OPCODE_SEND);

	/* A WRITE that runs past the end of the child's MR: memory it did not register. The
	 * responder refuses it whole (the child checks that its last bytes are still 0). */
	memset(s.mem + 20480, 0xab, 4096);
	idx = fx_take(&s.qp, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_write(&s.qp.sqd, idx, CE, ch.addr + MEM - 2048, ch.rkey,
						     (uint64_t)(uintptr_t)(s.mem + 20480), s.key, 4096), 3);
	fx_ring(&s.qp, FX_RING_PI);
	assert_true(fx_poll(&s.cq, FX_POLL_TIMEOUT_MS, &c));
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ_ERR);
	assert_int_equal(c.syndrome, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	assert_int_equal(c.wqe_counter, idx);
	{
		const char *shm = getenv("OPENGDA_SWNIC_SHM");
		struct swnic_fabric_stats st;

		/* every request took the path this run expects: shared memory between processes of
		 * one host, TCP when OPENGDA_SWNIC_SHM=0 */
		assert_int_equal(swnic_fabric_get_stats(s.f.nic->fabric, &st), DOCA_SUCCESS);
		if (shm != NULL && strcmp(shm, "0") == 0) {
			assert_true(st.tcp_deliveries == 6 && st.shm_deliveries == 0);
		} else {
			assert_true(st.shm_deliveries == 6 && st.tcp_deliveries == 0);
			assert_true(st.shm_channels_opened == 1);
		}
	}

	xfer(to_child, &go, 1, 1);
	xfer(to_parent, &ok, 1, 0);
	assert_int_equal(ok, 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	fx_close(&s.f);
	free(s.mem);
	close(to_child);
	close(to_parent);
}

/*
 * 32 x 1 MiB writes in flight; the child is SIGKILLed after the first completes. Every
 * WQE completes: some succeed, then one fails with TRANSPORT_RETRY_EXC, then the rest
 * flush with WR_FLUSH_ERR, in WQE order, and the QP is in ERR, all within the bound.
 */
static void test_peer_killed_mid_transfer(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	int to_child, to_parent, status = 0;
	unsigned good = 0, failed = 0, flushed = 0, n;
	struct peer me, ch;
	struct side s;
	uint16_t first, idx;
	uint64_t t0;
	uint8_t go;
	pid_t pid;

	(void)state;
	pid = start_child(0, &to_child, &to_parent);
	side_open(&s, &me);
	xfer(to_parent, &ch, sizeof(ch), 0);
	xfer(to_child, &me, sizeof(me), 1);
	side_connect(&s, &ch);
	xfer(to_parent, &go, 1, 0);

	first = s.qp.pi;
	for (n = 0; n < 32; n++) {
		idx = fx_take(&s.qp, 3);
		assert_int_equal(opengda_mlx5_wqe_rdma_write(&s.qp.sqd, idx, CE, ch.addr + 4096, ch.rkey,
							     (uint64_t)(uintptr_t)(s.mem + 4096), s.key, 1u << 20),
				 3);
	}
	fx_ring(&s.qp, FX_RING_PI);
	fx_poll_ok(&s.cq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	good = 1;
	t0 = fx_ms();
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	for (n = 1; n < 32; n++) {
		fx_poll_ok(&s.cq, &c); /* FX_POLL_TIMEOUT_MS bounds every wait: no hang */
		assert_int_equal(c.wqe_counter, (uint16_t)(first + n)); /* one WQEBB each, completed in order */
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
	print_message("%u writes completed, 1 TRANSPORT_RETRY_EXC, %u flushed\n", good, flushed);
	assert_int_equal(failed, 1);
	assert_int_equal(good + failed + flushed, 32);
	assert_int_equal(fx_qp_state(&s.f, &s.qp), PRM_QP_STATE_ERR);
	assert_true(fx_ms() - t0 < FX_POLL_TIMEOUT_MS);
	fx_close(&s.f);
	free(s.mem);
	close(to_child);
	close(to_parent);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_operations_across_processes),
		cmocka_unit_test(test_peer_killed_mid_transfer),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
