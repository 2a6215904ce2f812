/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MCST receives of frames from Linux: in a network namespace of its own with a veth pair (as
 * test_eth_rx_veth.c), datagrams steered into a doca_eth_rxq are received by host threads through
 * the device C core's thread-scope receive with MCST (ogda_dev_eth_rx_recv_mcst, the receive of
 * doca_gpu_dev_eth_rxq_recv). With doca_eth_rxq_gpu_enable_mcst_qp, every receive that got
 * packets runs one DUMP on the MCST queue (its WQE posted and its CQE consumed: the MCST CQ's
 * consumer index moves by one) and the packets are right; an empty receive runs none. Without
 * it, MCST AUTO posts nothing; a DUMP that completes in error fails the receive, which still
 * returns its packets.
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

#include "device/ogda_dev_eth_rx_mcst.h"
#include "doca_eth_rxq.h"
#include "doca_gpunetio_high_level.h"
#include "doca_verbs.h"
#include "eth/rxq_priv.h"
#include "eth_fixture.h"
#include "eth_netns.h"
#include "eth_rx_util.h"
#include "eth_steer.h"
#include "opengda.h"
#include "opengda_mlx5.h"

#define DPORT 6000
#define BURST 16u
#define PKT 2048u
#define SKIP_CODE 77
#define EMPTY_WAIT_NS 2000000ull

static void begin(struct cfx *f, bool mcst, struct rx *r, struct est *e)
{
	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	erx_start_mcst(f, 0, 0, BURST, PKT, 0, mcst, r);
	est_udp_to_rqs(f->dev, &r->rqn, 1, DPORT, e);
	erx_linux_sender();
}

static void end(struct cfx *f, struct rx *r, struct est *e)
{
	est_destroy(e);
	erx_stop(r);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

/* Receives with MCST until @want packets came (WAIT_NS at most); *calls: receives that got packets. */
static int recv_mcst(struct rx *r, int mode, uint32_t want, uint64_t *first, uint32_t *got, uint32_t *calls)
{
	uint64_t f = 0;
	uint32_t n = 0;
	int rc = 0;

	*got = 0;
	*calls = 0;
	while (*got < want && rc == 0) {
		rc = ogda_dev_eth_rx_recv_mcst(r->h, want - *got, WAIT_NS, &f, &n, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE, mode);
		if (n == 0)
			break;
		if (*got == 0)
			*first = f;
		*got += n;
		(*calls)++;
	}
	return rc;
}

static void test_mcst_receive_dumps(void **state)
{
	struct cfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp;
	uint32_t got = 0, calls = 0, n = 1, i;
	uint64_t first = 0, ci0;
	char msg[64];
	struct est e;
	struct rx r;

	begin(f, true, &r, &e);
	qp = r.h->mcst_qp;
	assert_non_null(qp);
	/* an empty receive: no DUMP */
	assert_int_equal(ogda_dev_eth_rx_recv_mcst(r.h, 4, EMPTY_WAIT_NS, &first, &n, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE,
						   DOCA_GPUNETIO_ETH_MCST_ENABLED),
			 0);
	assert_int_equal(n, 0);
	assert_true(qp->cq_sq.cqe_ci == 0 && qp->sq_wqe_pi == 0);
	for (i = 0; i < 5; i++) {
		snprintf(msg, sizeof(msg), "mcst datagram %u", i);
		erx_send_udp((uint16_t)(7000 + i), DPORT, msg);
	}
	assert_int_equal(recv_mcst(&r, DOCA_GPUNETIO_ETH_MCST_ENABLED, 5, &first, &got, &calls), 0);
	assert_int_equal(got, 5);
	assert_true(calls >= 1);
	/* one DUMP per receive that got packets, each completed and its CQE consumed */
	assert_true(qp->cq_sq.cqe_ci == calls);
	assert_true(qp->sq_wqe_pi == calls);
	for (i = 0; i < 5; i++) {
		snprintf(msg, sizeof(msg), "mcst datagram %u", i);
		assert_memory_equal(erx_pkt(&r, first + i) + 42, msg, strlen(msg));
	}
	/* AUTO on this queue (need_mcst): a DUMP too */
	ci0 = qp->cq_sq.cqe_ci;
	erx_send_udp(7100, DPORT, "auto");
	assert_int_equal(recv_mcst(&r, DOCA_GPUNETIO_ETH_MCST_AUTO, 1, &first, &got, &calls), 0);
	assert_int_equal(got, 1);
	assert_memory_equal(erx_pkt(&r, first) + 42, "auto", 4);
	assert_true(qp->cq_sq.cqe_ci == ci0 + 1);
	end(f, &r, &e);
}

static void test_auto_without_mcst_queue(void **state)
{
	struct cfx *f = *state;
	uint32_t got = 0, calls = 0;
	uint64_t first = 0;
	struct est e;
	struct rx r;

	begin(f, false, &r, &e);
	assert_null(r.h->mcst_qp);
	assert_int_equal(r.h->need_mcst, 0);
	erx_send_udp(7200, DPORT, "no mcst queue");
	assert_int_equal(recv_mcst(&r, DOCA_GPUNETIO_ETH_MCST_AUTO, 1, &first, &got, &calls), 0);
	assert_int_equal(got, 1);
	assert_memory_equal(erx_pkt(&r, first) + 42, "no mcst queue", 13);
	/* ENABLED without an MCST queue: the system fence, no error */
	erx_send_udp(7201, DPORT, "fenced");
	assert_int_equal(recv_mcst(&r, DOCA_GPUNETIO_ETH_MCST_ENABLED, 1, &first, &got, &calls), 0);
	assert_int_equal(got, 1);
	end(f, &r, &e);
}

/* The MCST QP in ERR: the DUMP is flushed, the receive fails and still returns its packet. */
static void test_dump_error_fails_receive(void **state)
{
	struct cfx *f = *state;
	struct doca_verbs_qp_attr *a = NULL;
	uint32_t got = 0, calls = 0;
	uint64_t first = 0;
	struct est e;
	struct rx r;
	int rc;

	begin(f, true, &r, &e);
	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_ERR), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(r.q->res.mcst->qp, a, DOCA_VERBS_QP_ATTR_NEXT_STATE), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
	erx_send_udp(7300, DPORT, "dump fails");
	rc = recv_mcst(&r, DOCA_GPUNETIO_ETH_MCST_ENABLED, 1, &first, &got, &calls);
	assert_true(OPENGDA_DEV_IS_CQE_ERROR(rc));
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	assert_int_equal(got, 1);
	assert_memory_equal(erx_pkt(&r, first) + 42, "dump fails", 10);
	end(f, &r, &e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mcst_receive_dumps, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_auto_without_mcst_queue, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_dump_error_fails_receive, cfx_setup, cfx_teardown),
	};
	char why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr, "SKIPPED eth_rx_mcst_veth: %s; MCST receives from Linux were NOT tested\n", why);
		return SKIP_CODE;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
