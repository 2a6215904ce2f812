/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric between two processes: a child with its own instance (fabric_fixture.h)
 * serves requests, or dies (SIGKILL) in the middle of one; the parent's requests land or
 * fail promptly with CONNECTION_RESET, never waiting for their timeout. Registered twice:
 * through shared memory (the default between processes of one host) and over TCP
 * (OPENGDA_SWNIC_SHM=0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fabric_fixture.h"

#define LONG_TIMEOUT_NS (10ull * 1000 * 1000 * 1000)

struct child {
	pid_t pid;
	int ctl;           /* parent's end: closing it tells a serving child to exit */
	uint8_t gid[16];
};

/*
 * Forks a child that creates an instance in mode (FFX_SERVE or FFX_DIE), sends its GID
 * through a pipe and serves until the control pipe closes.
 */
static void child_start(struct child *c, int mode)
{
	int up[2], down[2];

	assert_int_equal(pipe(up), 0);
	assert_int_equal(pipe(down), 0);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		struct ffx x;
		char byte;

		close(up[0]);
		close(down[1]);
		if (ffx_create(&x, 0, 0) != DOCA_SUCCESS)
			_exit(2);
		atomic_store(&x.mode, mode);
		if (write(up[1], x.gid, 16) != 16)
			_exit(3);
		while (read(down[0], &byte, 1) > 0)
			;
		ffx_destroy(&x);
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	assert_int_equal(read(up[0], c->gid, 16), 16);
	close(up[0]);
	c->ctl = down[1];
}

static int child_end(struct child *c)
{
	int status = 0;

	close(c->ctl);
	assert_int_equal(waitpid(c->pid, &status, 0), c->pid);
	return status;
}

static void fork_requests_land_in_child(void **state)
{
	struct child c;
	struct ffx a;
	struct swnic_resp resp;
	struct swnic_req req;
	uint8_t data[512], back[512];
	size_t i;
	int status;

	(void)state;
	child_start(&c, FFX_SERVE);
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 13);
	req = ffx_req(SWNIC_REQ_WRITE, 1000, sizeof(data));
	req.payload = data;
	assert_int_equal(swnic_fabric_deliver(&a.nic, c.gid, &req, &resp, NULL, LONG_TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	/* the child's region starts as 0xee: read around the write to see exactly what landed */
	req = ffx_req(SWNIC_REQ_READ, 992, sizeof(back));
	assert_int_equal(swnic_fabric_deliver(&a.nic, c.gid, &req, &resp, back, LONG_TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.read_len, sizeof(back));
	for (i = 0; i < 8; i++)
		assert_int_equal(back[i], 0xee);
	assert_memory_equal(back + 8, data, sizeof(back) - 8);
	req = ffx_req(SWNIC_REQ_ATOMIC_FA, 2048, 8);
	req.swap_add = 5;
	assert_int_equal(swnic_fabric_deliver(&a.nic, c.gid, &req, &resp, NULL, LONG_TIMEOUT_NS), DOCA_SUCCESS);
	assert_true(resp.atomic_orig == 0xeeeeeeeeeeeeeeeeull);
	req = ffx_req(SWNIC_REQ_ATOMIC_CS, 2048, 8);
	req.compare = 0xeeeeeeeeeeeeeeeeull + 5;
	req.swap_add = 42;
	assert_int_equal(swnic_fabric_deliver(&a.nic, c.gid, &req, &resp, NULL, LONG_TIMEOUT_NS), DOCA_SUCCESS);
	assert_true(resp.atomic_orig == 0xeeeeeeeeeeeeeeeeull + 5);
	req = ffx_req(SWNIC_REQ_READ, 2048, 8);
	assert_int_equal(swnic_fabric_deliver(&a.nic, c.gid, &req, &resp, back, LONG_TIMEOUT_NS), DOCA_SUCCESS);
	assert_true(memcmp(back, &(uint64_t){42}, 8) == 0);
	/* all five on the path this run expects: shared memory (same host) or TCP (forced) */
	{
		struct swnic_fabric_stats st = ffx_stats(&a);

		assert_true(ffx_delivered(&st) == 5);
		assert_true(st.shm_deliveries + st.tcp_deliveries == 5);
		assert_true(st.shm_channels_opened == (ffx_shm_expected() ? 1u : 0u));
	}
	ffx_destroy(&a);
	status = child_end(&c);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void fork_peer_killed_mid_request(void **state)
{
	struct child c;
	struct ffx a;
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_ATOMIC_FA, 0, 8);
	uint64_t t0;
	doca_error_t err;
	int status;

	(void)state;
	child_start(&c, FFX_DIE);
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	t0 = ffx_now_ns();
	err = swnic_fabric_deliver(&a.nic, c.gid, &req, &resp, NULL, LONG_TIMEOUT_NS);
	/* the child died inside its responder: the connection resets, long before the timeout */
	assert_int_equal(err, DOCA_ERROR_CONNECTION_RESET);
	assert_true(ffx_ms_since(t0) < 5000);
	assert_int_equal(resp.status, 0);
	status = child_end(&c);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	/* the endpoint is gone for good: the retry the engine makes finds nobody */
	t0 = ffx_now_ns();
	assert_int_equal(swnic_fabric_deliver(&a.nic, c.gid, &req, &resp, NULL, LONG_TIMEOUT_NS),
			 DOCA_ERROR_NOT_CONNECTED);
	assert_true(ffx_ms_since(t0) < 5000);
	ffx_destroy(&a);
}

static void fork_peer_killed_mid_payload(void **state)
{
	const uint32_t len = 64u << 20;
	uint8_t *data = malloc(len);
	struct ffx a;
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, 0, len);
	uint8_t gid[16];
	uint64_t t0;
	pid_t pid;
	int lfd, status = 0;

	(void)state;
	assert_non_null(data);
	memset(data, 0x3c, len);
	/* A child that takes the connection, answers its hello, reads the first MiB of the request and dies. */
	lfd = ffx_listen_raw(gid);
	assert_true(lfd >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static uint8_t sink[1u << 20];
		int fd = accept(lfd, NULL, NULL);

		if (fd >= 0 && ffx_hello_serve(fd))
			(void)recv(fd, sink, sizeof(sink), MSG_WAITALL);
		raise(SIGKILL);
		_exit(1);
	}
	close(lfd);
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	req.payload = data;
	t0 = ffx_now_ns();
	assert_int_equal(swnic_fabric_deliver(&a.nic, gid, &req, &resp, NULL, LONG_TIMEOUT_NS),
			 DOCA_ERROR_CONNECTION_RESET);
	assert_true(ffx_ms_since(t0) < 5000);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	ffx_destroy(&a);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fork_requests_land_in_child),
		cmocka_unit_test(fork_peer_killed_mid_request),
		cmocka_unit_test(fork_peer_killed_mid_payload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
