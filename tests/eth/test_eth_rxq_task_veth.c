/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive tasks of a DOCA_ETH_RXQ_TYPE_REGULAR queue against Linux, in a network namespace of the
 * test's own with a veth pair (the software NIC's port on one end, a Linux UDP socket sending
 * from the other), the queue steered to by DOCA Flow (RSS to its queue id):
 *
 *  - datagrams complete the tasks in submit order, each buffer holding its datagram (data_len its
 *    bytes, the IPv4 header found good, a time stamp); a submit past the ring answers AGAIN and
 *    the queue takes more after completions; a completed task resubmitted receives again into its
 *    buffer (data_len replaced);
 *  - a stop with tasks in flight: a frame that arrived before it completes its task successfully,
 *    the others are flushed through the error callback (DOCA_ERROR_SHUTDOWN), in order;
 *  - a frame longer than max_packet_size: dropped by the NIC (counted), the task waits for the next;
 *  - a WQE whose key the NIC does not know: the error callback (DOCA_ERROR_IO_FAILED), the tasks
 *    behind it failed at once, later submits refused (BAD_STATE).
 *
 * Where namespaces, veth or iproute2 are unavailable the test says why and exits 77 (skipped).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <unistd.h>

#include "device/ogda_dev_wqe.h"
#include "eth/rxq_priv.h"
#include "eth_cpu_util.h"
#include "eth_fixture.h"
#include "eth_flow_rss.h"
#include "eth_netns.h"
#include "eth_rx_util.h"
#include "test_util.h"

#define DPORT 5400
#define QID 31
#define BURST 8u
#define PKT 2048u
#define NTASKS 16u
#define HDR 42u /* Ethernet + IPv4 + UDP */
#define SKIP_CODE 77

/* @n datagrams "task rx <first + k>" from the Linux end, each from its own source port. */
static void send_n(uint32_t first, uint32_t n)
{
	char msg[32];

	for (uint32_t k = 0; k < n; k++) {
		snprintf(msg, sizeof(msg), "task rx %u", first + k);
		erx_send_udp((uint16_t)(8100 + first + k), DPORT, msg);
	}
}

/* Completion @i was task @task, successful, holding datagram "task rx <want>" whole. */
static void check_rx(const struct ecpu_reg *r, uint32_t i, uint32_t task, uint32_t want)
{
	char msg[32];
	int n = snprintf(msg, sizeof(msg), "task rx %u", want);

	assert_int_equal(r->order[i], task);
	assert_int_equal(r->status[i], DOCA_SUCCESS);
	assert_int_equal(r->len[i], HDR + (size_t)n);
	assert_memory_equal(r->data[i] + HDR, msg, (size_t)n);
	assert_int_equal((r->data[i][36] << 8) | r->data[i][37], DPORT);
	assert_int_equal(r->l3_ok[i], 1);
	assert_true(r->ts[i] != 0);
}

/* Waits (2 s at most) until the port counted @n more of the field at @off than @st0 says. */
static void wait_port(struct cfx *f, const struct opengda_eth_port_stats *st0, size_t off, uint64_t n)
{
	struct opengda_eth_port_stats st;
	uint64_t was, now = 0;

	memcpy(&was, (const uint8_t *)st0 + off, sizeof(was));
	for (int i = 0; i < 200; i++) {
		erx_port_stats(f, &st);
		memcpy(&now, (const uint8_t *)&st + off, sizeof(now));
		if (now - was >= n)
			break;
		usleep(10000);
	}
	assert_true(now - was == n);
}

static void test_tasks_steered_by_flow(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats st0;
	struct doca_ctx *ctx;
	struct ecpu_reg r;
	struct efl fl;
	uint32_t i;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	ecpu_reg_start(f->dev, f->buf, NTASKS * PKT, BURST, PKT, NTASKS, PKT, QID, &r);
	ctx = doca_eth_rxq_as_doca_ctx(r.q);
	efl_udp_rss_start(f->dev, DPORT, QID, &fl);
	erx_linux_sender();

	/* a ring's worth in flight, the next refused at once */
	for (i = 0; i < BURST; i++)
		assert_int_equal(ecpu_reg_submit(&r, i), DOCA_SUCCESS);
	assert_int_equal(ecpu_reg_submit(&r, BURST), DOCA_ERROR_AGAIN);
	/* 5 datagrams complete tasks 0..4 in order */
	send_n(0, 5);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 5, 3000), 5);
	for (i = 0; i < 5; i++)
		check_rx(&r, i, i, i);
	/* room for 5 more: tasks 8..12 go in, 13 does not */
	for (i = BURST; i < BURST + 5; i++)
		assert_int_equal(ecpu_reg_submit(&r, i), DOCA_SUCCESS);
	assert_int_equal(ecpu_reg_submit(&r, BURST + 5), DOCA_ERROR_AGAIN);
	send_n(5, 8);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 13, 3000), 13);
	for (i = 5; i < 13; i++)
		check_rx(&r, i, i, i);
	/* task 0, completed, goes again: its buffer takes the next datagram (data_len replaced) */
	assert_int_equal(ecpu_reg_submit(&r, 0), DOCA_SUCCESS);
	send_n(100, 1);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 14, 3000), 14);
	check_rx(&r, 13, 0, 100);
	assert_int_equal(r.failed, 0);

	/* stop with 3 in flight, one datagram already placed: it completes, the two others are flushed */
	for (i = 1; i < 4; i++)
		assert_int_equal(ecpu_reg_submit(&r, i), DOCA_SUCCESS);
	erx_port_stats(f, &st0);
	send_n(200, 1);
	wait_port(f, &st0, offsetof(struct opengda_eth_port_stats, rx_delivered), 1);
	r.free_in_cb = true;
	assert_int_equal(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(ecpu_state(ctx), DOCA_CTX_STATE_STOPPING);
	(void)doca_pe_progress(r.pe);
	assert_int_equal(r.n, 17);
	check_rx(&r, 14, 1, 200);
	for (i = 15; i < 17; i++) {
		assert_int_equal(r.order[i], i - 13);
		assert_int_equal(r.status[i], DOCA_ERROR_SHUTDOWN);
	}
	/* the RQ is reset: a datagram now is not placed */
	erx_port_stats(f, &st0);
	send_n(300, 1);
	wait_port(f, &st0, offsetof(struct opengda_eth_port_stats, rx_queue_drops), 1);
	efl_stop(&fl);
	ecpu_reg_destroy(&r); /* frees the tasks still allocated: IDLE */
	assert_int_equal(r.n, 17);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

/* A frame longer than max_packet_size (256 here): dropped and counted, the task takes the next one. */
static void test_frame_too_long(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats st0;
	char big[401];
	struct ecpu_reg r;
	struct efl fl;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	ecpu_reg_start(f->dev, f->buf, 4 * 256, 4, 256, 4, 256, QID, &r);
	efl_udp_rss_start(f->dev, DPORT, QID, &fl);
	erx_linux_sender();
	assert_int_equal(ecpu_reg_submit(&r, 0), DOCA_SUCCESS);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	erx_port_stats(f, &st0);
	erx_send_udp(8100, DPORT, big);
	wait_port(f, &st0, offsetof(struct opengda_eth_port_stats, rx_queue_drops), 1);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 1, 100), 0);
	send_n(7, 1);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 1, 3000), 1);
	check_rx(&r, 0, 0, 7);
	efl_stop(&fl);
	ecpu_reg_destroy(&r);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

/* A WQE whose key the NIC does not know: an error completion, the tasks behind it failed, submits refused. */
static void test_error_completion(void **state)
{
	struct cfx *f = *state;
	struct ecpu_reg r;
	struct efl fl;
	uint32_t i;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	ecpu_reg_start(f->dev, f->buf, NTASKS * PKT, BURST, PKT, NTASKS, PKT, QID, &r);
	efl_udp_rss_start(f->dev, DPORT, QID, &fl);
	erx_linux_sender();
	for (i = 0; i < 3; i++)
		assert_int_equal(ecpu_reg_submit(&r, i), DOCA_SUCCESS);
	ogda_dev_store_nic_u32((uint32_t *)(void *)(r.q->res.handle->wqe_addr + 4), htonl(0x7777)); /* WQE 0's lkey */
	send_n(0, 1);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 3, 3000), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(r.order[i], i);
		assert_int_equal(r.status[i], DOCA_ERROR_IO_FAILED);
		assert_int_equal(r.len[i], 0);
	}
	TEST_EXPECT_ERR(ecpu_reg_submit(&r, 3), DOCA_ERROR_BAD_STATE, "in error");
	efl_stop(&fl);
	ecpu_reg_destroy(&r);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tasks_steered_by_flow, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_frame_too_long, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_error_completion, cfx_setup, cfx_teardown),
	};
	char why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr, "SKIPPED eth_rxq_task_veth: %s; receive tasks against Linux were NOT tested\n", why);
		return SKIP_CODE;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
