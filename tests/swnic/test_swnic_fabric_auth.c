/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric's shared secret (OPENGDA_SWNIC_SECRET, fabric_fixture.h instances): NICs
 * with the same secret talk; a different secret, a secret on one side only, or a client
 * that claims a secret it cannot prove is refused before any request is read, with a log
 * line on each side, and no memory changes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fabric_fixture.h"
#include "swnic/swnic_fabric_frame.h"
#include "test_util.h"

#define TIMEOUT_NS (2ull * 1000 * 1000 * 1000)
#define SECRET_A "correct horse battery staple"
#define SECRET_B "correct horse battery stapler"
#define SECRET_ENV "OPENGDA_SWNIC_SECRET"

/* Creates x with secret (NULL: none). */
static void create_with(struct ffx *x, uint32_t index, const char *secret)
{
	if (secret != NULL)
		setenv(SECRET_ENV, secret, 1);
	else
		unsetenv(SECRET_ENV);
	assert_int_equal(ffx_create(x, index, 0), DOCA_SUCCESS);
	unsetenv(SECRET_ENV);
}

static doca_error_t write_to(struct ffx *a, struct ffx *b, struct swnic_resp *resp)
{
	static uint8_t data[256];
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, 64, sizeof(data));

	memset(data, 0x3d, sizeof(data));
	req.payload = data;
	return swnic_fabric_deliver(&a->nic, b->gid, &req, resp, NULL, TIMEOUT_NS);
}

/* Waits (up to 3 s) until b has counted n authentication failures. */
static void wait_auth_failures(struct ffx *b, uint64_t n)
{
	uint64_t start = ffx_now_ns();

	while (ffx_stats(b).auth_failures < n && ffx_ms_since(start) < 3000)
		usleep(1000);
	assert_true(ffx_stats(b).auth_failures == n);
}

static void assert_untouched(struct ffx *b)
{
	size_t i;

	assert_int_equal(atomic_load(&b->calls), 0);
	assert_true(ffx_stats(b).frames_served == 0);
	ffx_sync(b);
	for (i = 0; i < 4096; i++)
		if (b->region[i] != 0xee)
			fail_msg("byte %zu changed", i);
}

static void auth_same_secret_talks(void **state)
{
	struct swnic_resp resp;
	struct ffx a, b;

	(void)state;
	create_with(&a, 0, SECRET_A);
	create_with(&b, 1, SECRET_A);
	assert_int_equal(write_to(&a, &b, &resp), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	ffx_sync(&b);
	assert_int_equal(b.region[64], 0x3d);
	assert_int_equal(b.region[64 + 255], 0x3d);
	assert_true(ffx_stats(&b).auth_failures == 0);
	ffx_destroy(&a);
	ffx_destroy(&b);
}

/* Runs one refused write from a to b, capturing the log; both sides must name the problem. */
static void refused_with_logs(const char *secret_a, const char *secret_b, const char *client_says,
			      const char *server_says)
{
	struct swnic_resp resp;
	struct ffx a, b;
	char log[8192];
	doca_error_t err;

	create_with(&a, 0, secret_a);
	create_with(&b, 1, secret_b);
	stderr_capture_begin();
	err = write_to(&a, &b, &resp);
	wait_auth_failures(&b, 1);
	stderr_capture_end(log, sizeof(log));
	assert_int_equal(err, DOCA_ERROR_NOT_CONNECTED);
	if (strstr(log, client_says) == NULL || strstr(log, server_says) == NULL)
		fail_msg("expected '%s' and '%s' in the log:\n%s", client_says, server_says, log);
	assert_untouched(&b);
	ffx_destroy(&a);
	ffx_destroy(&b);
}

static void auth_different_secret_refused(void **state)
{
	(void)state;
	refused_with_logs(SECRET_A, SECRET_B, "ffx0: fabric: 127.0.0.1:", "ffx1: fabric: 127.0.0.1:");
	refused_with_logs(SECRET_A, SECRET_B, "failed authentication (a different OPENGDA_SWNIC_SECRET?)",
			  "failed authentication (");
}

static void auth_secret_on_one_side_refused(void **state)
{
	(void)state;
	/* Only the server has one. */
	refused_with_logs(NULL, SECRET_A, "requires OPENGDA_SWNIC_SECRET, which this NIC does not have",
			  "has no OPENGDA_SWNIC_SECRET, which this NIC requires");
	/* Only the client has one. */
	refused_with_logs(SECRET_A, NULL, "has no OPENGDA_SWNIC_SECRET, which this NIC requires",
			  "authenticates with OPENGDA_SWNIC_SECRET, which this NIC does not have");
}

/*
 * A raw client claims a secret, sends a made-up proof and then a valid request: the server
 * checks the proof itself and closes before reading the request.
 */
static void auth_forged_proof_closed(void **state)
{
	uint8_t buf[SWNIC_FRAME_REQ_HDR_LEN + 16];
	struct swnic_frame_hello h;
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, 0, 16);
	char why[SWNIC_FRAME_WHY_LEN];
	struct ffx b;
	int fd;

	(void)state;
	create_with(&b, 1, SECRET_A);
	fd = ffx_connect_silent(&b);
	assert_true(fd >= 0);
	memset(&h, 0, sizeof(h));
	h.secret = true;
	swnic_frame_encode_hello(&h, buf);
	assert_int_equal(send(fd, buf, SWNIC_FRAME_HELLO_HDR_LEN, MSG_NOSIGNAL), SWNIC_FRAME_HELLO_HDR_LEN);
	assert_int_equal(recv(fd, buf, SWNIC_FRAME_HELLO_HDR_LEN, MSG_WAITALL), SWNIC_FRAME_HELLO_HDR_LEN);
	assert_int_equal(swnic_frame_decode_hello(buf, SWNIC_FRAME_HELLO_HDR_LEN, &h, why, sizeof(why)), DOCA_SUCCESS);
	assert_true(h.secret);
	swnic_frame_encode_auth(h.mac, buf); /* the server's own proof reflected back */
	assert_int_equal(send(fd, buf, SWNIC_FRAME_AUTH_HDR_LEN, MSG_NOSIGNAL), SWNIC_FRAME_AUTH_HDR_LEN);
	req.payload = buf;
	assert_int_equal(swnic_frame_encode_req(1, &req, 1u << 30, buf), DOCA_SUCCESS);
	(void)send(fd, buf, sizeof(buf), MSG_NOSIGNAL);
	assert_true(ffx_peer_closed(fd, 3000));
	close(fd);
	wait_auth_failures(&b, 1);
	assert_untouched(&b);
	ffx_destroy(&b);
}

static void auth_short_secret_fails_open(void **state)
{
	struct ffx b;

	(void)state;
	setenv(SECRET_ENV, "too short", 1);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_ERROR_BAD_CONFIG);
	unsetenv(SECRET_ENV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(auth_same_secret_talks),
		cmocka_unit_test(auth_different_secret_refused),
		cmocka_unit_test(auth_secret_on_one_side_refused),
		cmocka_unit_test(auth_forged_proof_closed),
		cmocka_unit_test(auth_short_secret_fails_open),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
