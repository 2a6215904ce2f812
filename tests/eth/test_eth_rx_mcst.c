/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MCST queue of doca_eth_rxq (doca_eth_rxq_gpu_enable_mcst_qp) on the software NIC, without a
 * port: start builds a loopback QP and puts its device view in the handle (mcst_qp), which the
 * device C core's MCST step (ogda_dev_eth_rx_mcst.h), run here on the test thread, posts one DUMP
 * on and waits for: one WQE and one CQE per step. A DUMP that completes in error (its QP in ERR)
 * makes the step return the error CQE; a queue started with set_uar_on_cpu rings through
 * doca_eth_rxq_gpu_cpu_proxy_progress from a CPU thread. Start / stop / destroy cycles, and a
 * start that fails after the MCST queue was built, leave nothing behind (the ASan build checks
 * for leaks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <pthread.h>

#include "device/ogda_dev_eth_rx_mcst.h"
#include "doca_ctx.h"
#include "doca_eth_rxq.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "doca_gpunetio_high_level.h"
#include "doca_verbs.h"
#include "eth/rxq_priv.h"
#include "eth_fixture.h"
#include "opengda.h"
#include "opengda_mlx5.h"
#include "test_util.h"

#define PKT 1024u
#define NPKT 16u

enum { MCST = 1u, UAR_ON_CPU = 2u };

static struct doca_eth_rxq *make(struct cfx *f, size_t off, uint16_t id, unsigned opts, struct doca_mmap **m)
{
	struct doca_eth_rxq *q = NULL;

	*m = cfx_mmap(f, off, NPKT * PKT, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(doca_eth_rxq_create(f->dev, NPKT, PKT, &q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(q, *m, 0, NPKT * PKT), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_apply_queue_id(q, id), DOCA_SUCCESS);
	if (opts & MCST)
		assert_int_equal(doca_eth_rxq_gpu_enable_mcst_qp(q), DOCA_SUCCESS);
	if (opts & UAR_ON_CPU)
		assert_int_equal(doca_eth_rxq_gpu_set_uar_on_cpu(q), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(q), f->gpu), DOCA_SUCCESS);
	return q;
}

static struct doca_gpu_eth_rxq *start(struct doca_eth_rxq *q)
{
	struct doca_gpu_eth_rxq *h = NULL;

	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_get_gpu_handle(q, &h), DOCA_SUCCESS);
	return h;
}

static void destroy(struct doca_eth_rxq *q, struct doca_mmap *m)
{
	assert_int_equal(doca_eth_rxq_destroy(q), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

/* One DUMP per MCST step that has packets: a WQE posted, its CQE consumed; none otherwise. */
static void test_dump_per_step(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m;
	struct doca_eth_rxq *q = make(f, 0, 1, MCST, &m);
	struct doca_gpu_eth_rxq *h = start(q);
	struct doca_gpu_dev_verbs_qp *qp = h->mcst_qp;
	uint32_t i;

	assert_non_null(qp);
	assert_int_equal(h->need_mcst, 1);
	assert_int_not_equal(qp->nic_handler, DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY);
	assert_true(qp->cq_sq.ogda_wait_timeout_ns == OPENGDA_ETH_RXQ_MCST_WAIT_TIMEOUT_NS);
	assert_true(qp->sq_wqe_pi == 0 && qp->cq_sq.cqe_ci == 0);
	for (i = 1; i <= 20; i++) { /* more than the ring's WQEBBs: the ring wraps */
		assert_int_equal(ogda_dev_eth_rx_mcst(h, 3, DOCA_GPUNETIO_ETH_MCST_ENABLED), 0);
		assert_true(qp->sq_wqe_pi == i);
		assert_true(qp->cq_sq.cqe_ci == i);
	}
	/* the WQE last posted: a DUMP of 1 byte of the packet buffer with its key */
	{
		const uint8_t *w = qp->sq_wqe_daddr + 64u * ((i - 2) & qp->sq_wqe_mask);
		uint32_t len = 0, key = 0;
		uint64_t addr = 0;

		assert_int_equal(w[3], OPENGDA_MLX5_OPCODE_DUMP);
		memcpy(&len, w + 16, 4);
		memcpy(&key, w + 20, 4);
		memcpy(&addr, w + 24, 8);
		assert_int_equal(opengda_mlx5_be32toh(len), 1);
		assert_int_equal(key, h->pkt_mkey);
		assert_true(opengda_mlx5_be64toh(addr) == h->pkt_addr);
	}
	/* no packets, MCST off, or AUTO here (need_mcst set): AUTO dumps, the others do not */
	assert_int_equal(ogda_dev_eth_rx_mcst(h, 0, DOCA_GPUNETIO_ETH_MCST_ENABLED), 0);
	assert_int_equal(ogda_dev_eth_rx_mcst(h, 5, DOCA_GPUNETIO_ETH_MCST_DISABLED), 0);
	assert_true(qp->sq_wqe_pi == 20 && qp->cq_sq.cqe_ci == 20);
	assert_int_equal(ogda_dev_eth_rx_mcst(h, 5, DOCA_GPUNETIO_ETH_MCST_AUTO), 0);
	assert_true(qp->cq_sq.cqe_ci == 21);
	/* progress has nothing to do for a queue that rings its own doorbell */
	assert_int_equal(doca_eth_rxq_gpu_cpu_proxy_progress(q), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	destroy(q, m);
}

/* Without enable_mcst_qp: no MCST queue, AUTO does nothing, ENABLED only fences. */
static void test_no_mcst_queue(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m;
	struct doca_eth_rxq *q = make(f, 0, 1, 0, &m);
	struct doca_gpu_eth_rxq *h = start(q);

	assert_null(h->mcst_qp);
	assert_int_equal(h->need_mcst, 0);
	assert_int_equal(ogda_dev_eth_rx_mcst_wanted(h, 4, DOCA_GPUNETIO_ETH_MCST_AUTO), 0);
	assert_int_equal(ogda_dev_eth_rx_mcst(h, 4, DOCA_GPUNETIO_ETH_MCST_AUTO), 0);
	assert_int_equal(ogda_dev_eth_rx_mcst(h, 4, DOCA_GPUNETIO_ETH_MCST_ENABLED), 0);
	assert_int_equal(doca_eth_rxq_gpu_cpu_proxy_progress(q), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	destroy(q, m);
}

/*
 * A DUMP that completes in error: the step returns the error CQE (DOCA_ERROR_DRIVER in
 * doca_gpu_dev_eth_rxq_recv). The software NIC does not check a DUMP's key (it reads nothing),
 * so the error is forced by moving the MCST QP to ERR: the DUMP is flushed.
 */
static void test_dump_error(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m;
	struct doca_eth_rxq *q = make(f, 0, 1, MCST, &m);
	struct doca_gpu_eth_rxq *h = start(q);
	struct doca_verbs_qp_attr *a = NULL;
	int rc;

	assert_int_equal(ogda_dev_eth_rx_mcst(h, 1, DOCA_GPUNETIO_ETH_MCST_ENABLED), 0);
	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_ERR), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(q->res.mcst->qp, a, DOCA_VERBS_QP_ATTR_NEXT_STATE), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
	rc = ogda_dev_eth_rx_mcst(h, 1, DOCA_GPUNETIO_ETH_MCST_ENABLED);
	assert_true(OPENGDA_DEV_IS_CQE_ERROR(rc));
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	destroy(q, m);
}

struct proxy {
	struct doca_eth_rxq *q;
	atomic_int stop;
	atomic_int errors;
};

static void *proxy_main(void *arg)
{
	struct proxy *p = arg;

	while (!atomic_load(&p->stop))
		if (doca_eth_rxq_gpu_cpu_proxy_progress(p->q) != DOCA_SUCCESS)
			atomic_fetch_add(&p->errors, 1);
	return NULL;
}

/* set_uar_on_cpu: the MCST queue is CPU_PROXY; its DUMPs complete while a CPU thread progresses it. */
static void test_cpu_proxy(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m;
	struct proxy p = {0};
	struct doca_eth_rxq *q = make(f, 0, 1, MCST | UAR_ON_CPU, &m);
	struct doca_gpu_eth_rxq *h = start(q);
	pthread_t t;
	uint32_t i;

	assert_non_null(h->mcst_qp);
	assert_int_equal(h->mcst_qp->nic_handler, DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY);
	p.q = q;
	assert_int_equal(pthread_create(&t, NULL, proxy_main, &p), 0);
	for (i = 1; i <= 5; i++) {
		assert_int_equal(ogda_dev_eth_rx_mcst(h, 1, DOCA_GPUNETIO_ETH_MCST_ENABLED), 0);
		assert_true(h->mcst_qp->cq_sq.cqe_ci == i);
	}
	atomic_store(&p.stop, 1);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(atomic_load(&p.errors), 0);
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q)), DOCA_SUCCESS);
	/* stopped: nothing to progress */
	assert_int_equal(doca_eth_rxq_gpu_cpu_proxy_progress(q), DOCA_SUCCESS);
	destroy(q, m);
}

/* Start / stop cycles, and a start that fails after the MCST queue was built, leave nothing. */
static void test_cycles_and_failed_start(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m1, *m2;
	struct doca_eth_rxq *q1 = make(f, 0, 9, MCST, &m1);
	struct doca_eth_rxq *q2 = make(f, 32768, 9, MCST, &m2);
	struct doca_gpu_eth_rxq *h;
	char log[4096];
	int i;

	for (i = 0; i < 3; i++) {
		h = start(q1);
		assert_non_null(h->mcst_qp);
		assert_int_equal(ogda_dev_eth_rx_mcst(h, 1, DOCA_GPUNETIO_ETH_MCST_ENABLED), 0);
		TEST_EXPECT_ERR(doca_eth_rxq_gpu_enable_mcst_qp(q1), DOCA_ERROR_BAD_STATE, "started");
		TEST_EXPECT_ERR(doca_eth_rxq_gpu_set_uar_on_cpu(q1), DOCA_ERROR_BAD_STATE, "started");
		/* q2 wants q1's queue id: its start fails at the last step, after its MCST queue */
		stderr_capture_begin();
		assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q2)), DOCA_ERROR_ALREADY_EXIST);
		stderr_capture_end(log, sizeof(log));
		assert_non_null(strstr(log, "queue id 9 is taken"));
		TEST_EXPECT_ERR(doca_eth_rxq_get_gpu_handle(q2, &h), DOCA_ERROR_BAD_STATE, "");
		assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q1)), DOCA_SUCCESS);
	}
	destroy(q2, m2);
	destroy(q1, m1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dump_per_step, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_no_mcst_queue, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_dump_error, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_cpu_proxy, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_cycles_and_failed_start, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
