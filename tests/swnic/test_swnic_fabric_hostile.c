/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Hostile clients of the fabric port (fabric_fixture.h): strangers that hold connections
 * open, stall halfway through a frame or announce huge payloads must not lock out, or
 * blow up, the NIC that legitimate peers use.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fabric_fixture.h"
#include "swnic/swnic_fabric_frame.h"

#define TIMEOUT_NS (5ull * 1000 * 1000 * 1000)
#define CROWD 300 /* strangers: more than SWNIC_FABRIC_MAX_SERVER_CONNS */

/* Room for two crowds' descriptors and the server's own (at most one per connection served). */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_cur < 4 * CROWD) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 4 * CROWD)
			skip();
		rl.rlim_cur = 4 * CROWD;
		assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	}
}

/* a writes 4 KiB of fill at off of b; asserts the ACK and the bytes. */
static void peer_write(struct ffx *a, struct ffx *b, uint64_t off, uint8_t fill, uint64_t timeout_ns)
{
	uint8_t data[4096];
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, off, sizeof(data));

	memset(data, fill, sizeof(data));
	req.payload = data;
	assert_int_equal(swnic_fabric_deliver(&a->nic, b->gid, &req, &resp, NULL, timeout_ns), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	ffx_sync(b);
	assert_memory_equal(b->region + off, data, sizeof(data));
}

/* Waits (up to 5 s) until b has accepted n connections. */
static void wait_accepted(struct ffx *b, uint64_t n)
{
	uint64_t start = ffx_now_ns();

	while (ffx_stats(b).conns_accepted < n && ffx_ms_since(start) < 5000)
		usleep(500);
	assert_true(ffx_stats(b).conns_accepted >= n);
}

/*
 * CROWD silent strangers connect to b. Paced so that the listen backlog never overflows
 * (the kernel would then delay connects by SYN retries, not the server).
 */
static void connect_crowd(struct ffx *b, int *fds)
{
	uint64_t base = ffx_stats(b).conns_accepted;
	int i;

	for (i = 0; i < CROWD; i++) {
		if (i % 16 == 0)
			wait_accepted(b, base + (uint64_t)i);
		fds[i] = ffx_connect_silent(b);
		assert_true(fds[i] >= 0);
	}
	wait_accepted(b, base + CROWD);
}

/*
 * 300 strangers connect and say nothing: more than the server serves at once, and their
 * handshake deadline is far away, so only eviction can make room. A peer still gets its
 * WRITE through at once (the oldest stranger makes room). A second crowd then evicts
 * strangers only, never the peer's connection, which has completed an exchange.
 */
static void idle_crowd_does_not_lock_out_peer(void **state)
{
	static int fds[CROWD], more[CROWD];
	struct ffx a, b;
	uint64_t start;
	int i;

	(void)state;
	raise_fd_limit();
	setenv("OPENGDA_SWNIC_HANDSHAKE_TIMEOUT_MS", "60000", 1);
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	unsetenv("OPENGDA_SWNIC_HANDSHAKE_TIMEOUT_MS");
	connect_crowd(&b, fds);
	start = ffx_now_ns();
	peer_write(&a, &b, 0, 0x31, 1000ull * 1000 * 1000);
	if (ffx_ms_since(start) > 1000)
		fail_msg("the peer waited %llu ms behind idle strangers", (unsigned long long)ffx_ms_since(start));
	assert_int_equal(ffx_stats(&b).conns_evicted, CROWD + 1 - SWNIC_FABRIC_MAX_SERVER_CONNS);
	assert_true(ffx_stats(&b).conns_timed_out == 0);
	assert_true(ffx_peer_closed(fds[0], 1000)); /* the oldest stranger made room */

	connect_crowd(&b, more);
	assert_int_equal(ffx_stats(&b).conns_evicted, 2 * CROWD + 1 - SWNIC_FABRIC_MAX_SERVER_CONNS);
	peer_write(&a, &b, 8192, 0x33, TIMEOUT_NS);
	assert_true(ffx_stats(&a).conns_opened == 1);
	for (i = 0; i < CROWD; i++) {
		close(fds[i]);
		close(more[i]);
	}
	ffx_destroy(&a);
	ffx_destroy(&b);
}

/* A peer's pooled connection, having completed an exchange, outlives the handshake deadline while idle. */
static void peer_connection_outlives_handshake_deadline(void **state)
{
	struct ffx a, b;

	(void)state;
	setenv("OPENGDA_SWNIC_HANDSHAKE_TIMEOUT_MS", "200", 1);
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	unsetenv("OPENGDA_SWNIC_HANDSHAKE_TIMEOUT_MS");
	peer_write(&a, &b, 0, 0x31, TIMEOUT_NS);
	usleep(400 * 1000);
	peer_write(&a, &b, 4096, 0x32, TIMEOUT_NS);
	assert_true(ffx_stats(&a).conns_opened == 1);
	assert_true(ffx_stats(&b).conns_timed_out == 0);
	ffx_destroy(&a);
	ffx_destroy(&b);
}

/* Sends the first bytes of a valid 4 KiB WRITE frame, then nothing more. */
static int send_half_frame(struct ffx *b, size_t bytes)
{
	uint8_t frame[SWNIC_FRAME_REQ_HDR_LEN + 4096];
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, 0, 4096);
	int fd;

	memset(frame, 0x77, sizeof(frame));
	req.payload = frame;
	assert_int_equal(swnic_frame_encode_req(7, &req, swnic_fabric_max_msg(b->fabric), frame), DOCA_SUCCESS);
	fd = ffx_connect_raw(b);
	assert_true(fd >= 0);
	assert_int_equal(send(fd, frame, bytes, MSG_NOSIGNAL), (ssize_t)bytes);
	return fd;
}

/*
 * A connection that stalls halfway through a header or a payload is closed once the frame
 * deadline passes; one that never says anything, once the handshake deadline passes.
 * Nothing is executed for either.
 */
static void stalled_frames_closed_after_deadline(void **state)
{
	static const size_t cuts[] = {10, SWNIC_FRAME_REQ_HDR_LEN + 1000};
	struct ffx b;
	uint64_t start;
	size_t i;
	int fd;

	(void)state;
	setenv("OPENGDA_SWNIC_FRAME_TIMEOUT_MS", "300", 1);
	setenv("OPENGDA_SWNIC_HANDSHAKE_TIMEOUT_MS", "600", 1);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		start = ffx_now_ns();
		fd = send_half_frame(&b, cuts[i]);
		if (!ffx_peer_closed(fd, 3000))
			fail_msg("a frame cut after %zu bytes kept its connection open", cuts[i]);
		if (ffx_ms_since(start) < 250)
			fail_msg("closed after %llu ms, before the 300 ms deadline",
				 (unsigned long long)ffx_ms_since(start));
		close(fd);
	}
	start = ffx_now_ns();
	fd = ffx_connect_silent(&b);
	assert_true(fd >= 0);
	if (!ffx_peer_closed(fd, 3000))
		fail_msg("a silent connection stayed open");
	if (ffx_ms_since(start) < 500)
		fail_msg("silent connection closed after %llu ms, before the 600 ms handshake deadline",
			 (unsigned long long)ffx_ms_since(start));
	close(fd);
	assert_int_equal(atomic_load(&b.calls), 0);
	ffx_destroy(&b);
	unsetenv("OPENGDA_SWNIC_FRAME_TIMEOUT_MS");
	unsetenv("OPENGDA_SWNIC_HANDSHAKE_TIMEOUT_MS");
}

/*
 * A requester's large WRITE refused from its header (a wrong key): the server answers
 * without reading the payload and closes; the requester still gets the verdict, not a
 * transport error, and the server held no payload memory for it.
 */
static void large_refused_write_answered(void **state)
{
	const uint32_t len = 2u << 20;
	uint8_t *data = malloc(len);
	struct swnic_resp resp;
	struct swnic_req req;
	struct ffx a, b;

	(void)state;
	assert_non_null(data);
	memset(data, 0x66, len);
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	req = ffx_req(SWNIC_REQ_WRITE, 0, len);
	req.payload = data;
	req.rkey = FFX_RKEY + 1;
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NAK_REMOTE_ACCESS);
	assert_true(ffx_stats(&b).payload_buffered_hwm == 0);
	assert_int_equal(atomic_load(&b.calls), 0);
	/* The answer said the connection ends: the next request opens a new one and is served. */
	peer_write(&a, &b, 0, 0x44, TIMEOUT_NS);
	assert_true(ffx_stats(&a).conns_opened == 2);
	ffx_destroy(&a);
	ffx_destroy(&b);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(idle_crowd_does_not_lock_out_peer),
		cmocka_unit_test(peer_connection_outlives_handshake_deadline),
		cmocka_unit_test(stalled_frames_closed_after_deadline),
		cmocka_unit_test(large_refused_write_answered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
