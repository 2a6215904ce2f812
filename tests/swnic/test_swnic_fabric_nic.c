/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric with whole software NICs (fabric_nic_fixture.h): two instances of one process
 * reach each other directly, and a child process with its own instance serves its memory
 * over TCP; the bytes that land are checked in the target memory itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fabric_nic_fixture.h"
#include "swnic/swnic.h"
#include "swnic/swnic_fabric.h"

#define TIMEOUT_NS (10ull * 1000 * 1000 * 1000)
#define DUMP_SIZE 8192u

/* From the QP's connected peer (the QP itself, see fabric_nic_fixture.c), at its next PSN. */
static struct swnic_req req_to(const struct fnx_target *t, uint8_t op, uint64_t off, uint32_t len)
{
	return fnx_req_to(t, op, off, len);
}

static struct swnic_fabric_stats stats_of(struct swnic *nic)
{
	struct swnic_fabric_stats s;

	assert_int_equal(swnic_fabric_get_stats(nic->fabric, &s), DOCA_SUCCESS);
	return s;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * Writes 200 bytes at +100, reads them back, fetch-adds and compare-swaps at +2048, and
 * tries a bad rkey at +4096 and a QP that does not exist. Returns the number of requests.
 */
static doca_error_t deliver(struct swnic *nic, struct fnx_target *t, const struct swnic_req *req,
			    struct swnic_resp *resp, void *read_buf)
{
	return fnx_deliver(nic, t, req, resp, read_buf, TIMEOUT_NS);
}

static unsigned exercise(struct swnic *nic, struct fnx_target *t, uint8_t *data)
{
	struct swnic_resp resp;
	struct swnic_req req;
	uint8_t back[208];
	uint64_t v;
	size_t i;

	for (i = 0; i < 200; i++)
		data[i] = (uint8_t)(i * 3 + 11);
	req = req_to(t, SWNIC_REQ_WRITE, 100, 200);
	req.payload = data;
	assert_int_equal(deliver(nic, t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);

	memset(back, 0, sizeof(back));
	req = req_to(t, SWNIC_REQ_READ, 96, sizeof(back));
	assert_int_equal(deliver(nic, t, &req, &resp, back), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_int_equal(resp.read_len, sizeof(back));
	for (i = 0; i < 4; i++) {
		assert_int_equal(back[i], 0xee);
		assert_int_equal(back[204 + i], 0xee);
	}
	assert_memory_equal(back + 4, data, 200);

	req = req_to(t, SWNIC_REQ_ATOMIC_FA, 2048, 0);
	req.swap_add = 0x11;
	assert_int_equal(deliver(nic, t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_true(resp.atomic_orig == 0xeeeeeeeeeeeeeeeeull);

	req = req_to(t, SWNIC_REQ_ATOMIC_CS, 2048, 0);
	req.compare = 0xeeeeeeeeeeeeeeffull;
	req.swap_add = 0x0123456789abcdefull;
	assert_int_equal(deliver(nic, t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_true(resp.atomic_orig == 0xeeeeeeeeeeeeeeffull);

	/* the responder's verdicts travel back; nothing is written on a NAK */
	req = req_to(t, SWNIC_REQ_WRITE, 4096, 200);
	req.payload = data;
	req.rkey ^= 0x100;
	assert_int_equal(deliver(nic, t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NAK_REMOTE_ACCESS);
	req = req_to(t, SWNIC_REQ_READ, 0, 8);
	req.dst_qpn = t->qpn + 1000;
	v = 0;
	assert_int_equal(deliver(nic, t, &req, &resp, &v), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NO_QP);
	assert_true(v == 0);
	return 6;
}

/* The first DUMP_SIZE bytes of a region after exercise(). */
static void check_dump(const uint8_t *region, const uint8_t *data)
{
	const uint64_t swapped_value = 0x0123456789abcdefull; /* 8-byte atomics act in host order */
	uint8_t swapped[8];
	size_t i;

	memcpy(swapped, &swapped_value, 8);
	for (i = 0; i < DUMP_SIZE; i++) {
		uint8_t expect = 0xee;

		if (i >= 100 && i < 300)
			expect = data[i - 100];
		else if (i >= 2048 && i < 2056)
			expect = swapped[i - 2048];
		if (region[i] != expect)
			fail_msg("region byte %zu is 0x%02x, expected 0x%02x", i, region[i], expect);
	}
}

/*
 * The responder executes only its connected peer's requests, in PSN order. A WRITE with
 * a valid rkey but another source QPN, another source GID or a PSN ahead changes nothing
 * and gets NO_QP, the same answer as a QP that does not exist (live QPNs cannot be told
 * from dead ones). A duplicate of an executed WRITE is acknowledged, not executed again.
 */
static void nic_forged_requests_refused(void **state)
{
	struct swnic *requester;
	struct swnic_resp resp;
	struct swnic_req req;
	struct fnx_target t;
	uint8_t data[64], other[64];
	struct fnx x;
	size_t i;

	(void)state;
	fnx_open(&x, 0);
	assert_int_equal(swnic_open(1, &requester), DOCA_SUCCESS);
	fnx_target_of(&x, &t);
	memset(data, 0x11, sizeof(data));
	memset(other, 0x22, sizeof(other));

	req = req_to(&t, SWNIC_REQ_WRITE, 0, sizeof(data));
	req.payload = other;
	req.src_qpn = t.qpn ^ 0x10;
	assert_int_equal(deliver(requester, &t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NO_QP);
	req = req_to(&t, SWNIC_REQ_WRITE, 0, sizeof(data));
	req.payload = other;
	req.src_gid[15] ^= 1;
	assert_int_equal(deliver(requester, &t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NO_QP);
	req = req_to(&t, SWNIC_REQ_WRITE, 0, sizeof(data));
	req.payload = other;
	req.psn = t.psn + 5;
	assert_int_equal(deliver(requester, &t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NO_QP);
	/* A QP that does not exist answers the same. */
	req = req_to(&t, SWNIC_REQ_WRITE, 0, sizeof(data));
	req.payload = other;
	req.dst_qpn = t.qpn ^ 0x10;
	assert_int_equal(deliver(requester, &t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NO_QP);
	for (i = 0; i < FNX_REGION_SIZE; i++)
		if (x.region[i] != 0xee)
			fail_msg("forged write changed byte %zu", i);

	/* The peer, in order: executed; its duplicate is acknowledged without executing. */
	req = req_to(&t, SWNIC_REQ_WRITE, 0, sizeof(data));
	req.payload = data;
	assert_int_equal(deliver(requester, &t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	req.payload = other;
	assert_int_equal(swnic_fabric_deliver(requester, t.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_memory_equal(x.region, data, sizeof(data));
	req = req_to(&t, SWNIC_REQ_WRITE, 64, sizeof(other));
	req.payload = other;
	assert_int_equal(deliver(requester, &t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_memory_equal(x.region + 64, other, sizeof(other));
	swnic_close(requester);
	fnx_close(&x);
	free(x.region);
}

/*
 * A requester whose window of requests was lost resends atomics that ran long ago: every one
 * of the last SWNIC_RESP_ATOMIC_SAVED gets the result of its first execution and runs no
 * second time; one older than those is dropped (NO_QP), as a responder that kept no result.
 */
static void nic_duplicate_atomics_get_their_results(void **state)
{
	const unsigned n = SWNIC_RESP_ATOMIC_SAVED + 8u;
	uint32_t first_psn, k;
	struct swnic *requester;
	struct swnic_resp resp;
	struct swnic_req req;
	struct fnx_target t;
	uint64_t word;
	struct fnx x;

	(void)state;
	fnx_open(&x, 0);
	assert_int_equal(swnic_open(1, &requester), DOCA_SUCCESS);
	fnx_target_of(&x, &t);
	memset(x.region, 0, 8);
	first_psn = t.psn;
	for (k = 0; k < n; k++) { /* fetch-add 1, with a WRITE between each two: PSNs are not consecutive */
		req = req_to(&t, SWNIC_REQ_ATOMIC_FA, 0, 0);
		req.swap_add = 1;
		assert_int_equal(deliver(requester, &t, &req, &resp, NULL), DOCA_SUCCESS);
		assert_int_equal(resp.status, SWNIC_RESP_ACK);
		assert_true(resp.atomic_orig == k);
		req = req_to(&t, SWNIC_REQ_WRITE, 64, 8);
		req.payload = &word;
		word = k;
		assert_int_equal(deliver(requester, &t, &req, &resp, NULL), DOCA_SUCCESS);
		assert_int_equal(resp.status, SWNIC_RESP_ACK);
	}
	for (k = n - SWNIC_RESP_ATOMIC_SAVED; k < n; k++) {
		req = req_to(&t, SWNIC_REQ_ATOMIC_FA, 0, 0);
		req.swap_add = 1;
		req.psn = first_psn + 2u * k;
		assert_int_equal(swnic_fabric_deliver(requester, t.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
		assert_int_equal(resp.status, SWNIC_RESP_ACK);
		if (resp.atomic_orig != k)
			fail_msg("duplicate of fetch-add %u returned %llu", k, (unsigned long long)resp.atomic_orig);
	}
	req = req_to(&t, SWNIC_REQ_ATOMIC_FA, 0, 0);
	req.swap_add = 1;
	req.psn = first_psn + 2u * (n - SWNIC_RESP_ATOMIC_SAVED - 1u);
	assert_int_equal(swnic_fabric_deliver(requester, t.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NO_QP);
	memcpy(&word, x.region, 8);
	assert_true(word == n); /* nothing ran twice */
	swnic_close(requester);
	fnx_close(&x);
	free(x.region);
}

static void nic_two_instances_deliver_directly(void **state)
{
	struct fnx x;
	struct swnic *requester, *server;
	struct fnx_target t;
	uint8_t data[200];
	unsigned n;

	(void)state;
	assert_int_equal(swnic_count(), 2);
	fnx_open(&x, 0);
	assert_int_equal(swnic_open(1, &requester), DOCA_SUCCESS);
	fnx_target_of(&x, &t);
	assert_memory_not_equal(requester->gid, x.gid, 16);

	n = exercise(requester, &t, data);
	check_dump(x.region, data);

	/* every request was a direct call: no connection, no frame on either side */
	server = swnic_find_by_gid(x.gid);
	assert_non_null(server);
	assert_true(stats_of(requester).direct_deliveries == n);
	assert_true(stats_of(requester).tcp_deliveries == 0);
	assert_true(stats_of(requester).conns_opened == 0);
	assert_true(stats_of(server).conns_accepted == 0);
	assert_true(stats_of(server).frames_served == 0);

	/* a NIC reaches its own QPs the same way (loopback) */
	{
		struct swnic_req req = req_to(&t, SWNIC_REQ_READ, 100, 4);
		struct swnic_resp resp;
		uint8_t back[4];

		assert_int_equal(deliver(server, &t, &req, &resp, back), DOCA_SUCCESS);
		assert_int_equal(resp.status, SWNIC_RESP_ACK);
		assert_memory_equal(back, data, 4);
		assert_true(stats_of(server).direct_deliveries == 1);
	}
	swnic_close(server);
	swnic_close(requester);
	fnx_close(&x);
	free(x.region);
}

static void nic_fork_child_serves_region(void **state)
{
	static uint8_t dump[DUMP_SIZE];
	struct swnic *nic;
	struct fnx_child c;
	uint8_t data[200];
	unsigned n;
	int status = 0;

	(void)state;
	fnx_child_start(&c, FNX_REGION_SIZE, DUMP_SIZE);
	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	/* same NIC index, other process: another endpoint, so another GID */
	assert_memory_not_equal(nic->gid, c.t.gid, 16);
	assert_null(swnic_find_by_gid(c.t.gid));

	n = exercise(nic, &c.t, data);
	assert_true(stats_of(nic).tcp_deliveries == n);
	assert_true(stats_of(nic).direct_deliveries == 0);
	assert_true(stats_of(nic).tcp_failures == 0);

	close(c.ctl);
	assert_true(fnx_read_all(c.up, dump, sizeof(dump)));
	check_dump(dump, data);
	close(c.up);
	assert_int_equal(waitpid(c.pid, &status, 0), c.pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	swnic_close(nic);
}

static void nic_fork_peer_killed(void **state)
{
	struct swnic *nic;
	struct fnx_child c;
	struct swnic_resp resp;
	struct swnic_req req;
	uint8_t data[64];
	uint64_t t0;
	doca_error_t err;
	int status = 0;

	(void)state;
	fnx_child_start(&c, FNX_REGION_SIZE, DUMP_SIZE);
	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	memset(data, 0x5a, sizeof(data));
	req = req_to(&c.t, SWNIC_REQ_WRITE, 0, sizeof(data));
	req.payload = data;
	assert_int_equal(deliver(nic, &c.t, &req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);

	assert_int_equal(kill(c.pid, SIGKILL), 0);
	assert_int_equal(waitpid(c.pid, &status, 0), c.pid);
	assert_true(WIFSIGNALED(status));
	t0 = now_ms();
	err = deliver(nic, &c.t, &req, &resp, NULL);
	assert_true(err == DOCA_ERROR_NOT_CONNECTED || err == DOCA_ERROR_CONNECTION_RESET);
	assert_true(now_ms() - t0 < 5000);
	close(c.ctl);
	close(c.up);
	swnic_close(nic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nic_two_instances_deliver_directly),
		cmocka_unit_test(nic_forged_requests_refused),
		cmocka_unit_test(nic_duplicate_atomics_get_their_results),
		cmocka_unit_test(nic_fork_child_serves_region),
		cmocka_unit_test(nic_fork_peer_killed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
