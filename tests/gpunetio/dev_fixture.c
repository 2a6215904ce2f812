/* SPDX-License-Identifier: BSD-3-Clause */
#include "dev_fixture.h"

#include "swnic/swnic.h"

#include <infiniband/verbs.h>

#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#define DFX_B_CQ 4u
#define DFX_MASK_RST2INIT                                                                                   \
	(DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_WRITE | DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_READ | \
	 DOCA_VERBS_QP_ATTR_ATOMIC_MODE | DOCA_VERBS_QP_ATTR_PKEY_INDEX | DOCA_VERBS_QP_ATTR_PORT_NUM)
#define DFX_MASK_INIT2RTR                                                                                   \
	(DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_RQ_PSN | DOCA_VERBS_QP_ATTR_DEST_QP_NUM |          \
	 DOCA_VERBS_QP_ATTR_PATH_MTU | DOCA_VERBS_QP_ATTR_AH_ATTR | DOCA_VERBS_QP_ATTR_MIN_RNR_TIMER)
#define DFX_MASK_RTR2RTS                                                                                    \
	(DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_SQ_PSN | DOCA_VERBS_QP_ATTR_ACK_TIMEOUT |          \
	 DOCA_VERBS_QP_ATTR_RETRY_CNT | DOCA_VERBS_QP_ATTR_RNR_RETRY)
#define DFX_PSN 0x2000u

uint64_t dfx_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void dfx_sleep_ms(unsigned int ms)
{
	struct timespec ts = {(time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L};

	nanosleep(&ts, NULL);
}

/* ---- device, queues, connection ------------------------------------------------------------ */

static struct doca_devinfo *find_swnic0(struct doca_devinfo **list, uint32_t n)
{
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)), DOCA_SUCCESS);
		if (strcmp(name, "swnic0") == 0)
			return list[i];
	}
	return NULL;
}

static struct doca_verbs_cq *make_cq(struct dfx *f, uint32_t size, bool overrun_ignored, bool collapsed)
{
	struct doca_verbs_cq_attr *a = NULL;
	struct doca_verbs_cq *cq = NULL;

	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, size), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(a, overrun_ignored ? DOCA_VERBS_CQ_ENABLE_OVERRUN
									      : DOCA_VERBS_CQ_DISABLE_OVERRUN),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_collapsed(a, collapsed ? 1 : 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f->ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	return cq;
}

/*
 * A QP with sq_wr send WQEBBs and, when rcq is set, an RQ of cfg.rq_wqes WQEs completing to
 * rcq (else none); DBR-less or emulated as the DBR mode needs.
 */
static struct doca_verbs_qp *make_qp(struct dfx *f, struct doca_verbs_cq *cq, struct doca_verbs_cq *rcq, uint32_t sq_wr,
				     enum doca_gpu_verbs_send_dbr_mode_ext mode, bool cd_master, struct doca_verbs_uar *uar,
				     struct doca_verbs_srq *srq)
{
	struct doca_verbs_qp_init_attr *a = NULL;
	struct doca_verbs_qp *qp = NULL;

	assert_int_equal(doca_verbs_qp_init_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_pd(a, f->pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_qp_type(a, DOCA_VERBS_QP_TYPE_RC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_cq(a, cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_cq(a, rcq != NULL ? rcq : cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_wr(a, sq_wr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(a, rcq != NULL && srq == NULL ? f->cfg.rq_wqes : 0),
			 DOCA_SUCCESS);
	if (rcq != NULL && f->cfg.cqe_inline)
		assert_int_equal(doca_verbs_qp_init_attr_set_cqe_inline(a, 1), DOCA_SUCCESS);
	if (srq != NULL)
		assert_int_equal(doca_verbs_qp_init_attr_set_srq(a, srq), DOCA_SUCCESS);
	else if (rcq != NULL)
		assert_int_equal(doca_verbs_qp_init_attr_set_receive_max_sges(a, f->cfg.rq_sges), DOCA_SUCCESS);
	if (mode == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW) {
		assert_int_equal(doca_verbs_qp_init_attr_set_send_dbr_mode(a, DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT),
				 DOCA_SUCCESS);
	} else if (mode == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED) {
		assert_int_equal(doca_verbs_qp_init_attr_set_send_dbr_mode(a, DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT),
				 DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_emulate_no_dbr_ext(a, true), DOCA_SUCCESS);
	}
	if (cd_master)
		assert_int_equal(doca_verbs_qp_init_attr_set_core_direct_master(a, 1), DOCA_SUCCESS);
	if (uar != NULL)
		assert_int_equal(doca_verbs_qp_init_attr_set_external_uar(a, uar), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_create(f->ctx, a, &qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	return qp;
}

static void modify(struct doca_verbs_qp *qp, struct doca_verbs_qp_attr *a, int mask)
{
	assert_int_equal(doca_verbs_qp_modify(qp, a, mask), DOCA_SUCCESS);
}

static void connect_qp_rnr(struct dfx *f, struct doca_verbs_qp *qp, uint32_t dest_qpn, uint16_t rnr_retry);

/* RST -> INIT -> RTR -> RTS, connected to dest_qpn on swnic0 (its own GID). */
static void connect_qp(struct dfx *f, struct doca_verbs_qp *qp, uint32_t dest_qpn)
{
	connect_qp_rnr(f, qp, dest_qpn, f->cfg.rnr_no_retry ? 0 : 7);
}

static void connect_qp_rnr(struct dfx *f, struct doca_verbs_qp *qp, uint32_t dest_qpn, uint16_t rnr_retry)
{
	struct doca_verbs_qp_attr *a = NULL;
	struct doca_verbs_ah_attr *ah = NULL;

	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_INIT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_write(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_read(a, 1), DOCA_SUCCESS);
	/* Masked atomics of 4 and 8 bytes need more than the IB-spec mode. */
	assert_int_equal(doca_verbs_qp_attr_set_atomic_mode(a, DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_8BYTES), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_pkey_index(a, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_port_num(a, 1), DOCA_SUCCESS);
	modify(qp, a, DFX_MASK_RST2INIT);

	assert_int_equal(doca_verbs_ah_attr_create(f->ctx, &ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_gid(ah, f->gid), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_addr_type(ah, DOCA_VERBS_ADDR_TYPE_IPv6), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_sgid_index(ah, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_hop_limit(ah, 64), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTR), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_rq_psn(a, DFX_PSN), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_dest_qp_num(a, dest_qpn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_path_mtu(a, f->port_mtu), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_ah_attr(a, ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_min_rnr_timer(a, 12), DOCA_SUCCESS);
	modify(qp, a, DFX_MASK_INIT2RTR);
	assert_int_equal(doca_verbs_ah_attr_destroy(ah), DOCA_SUCCESS);

	assert_int_equal(doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTS), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_sq_psn(a, DFX_PSN), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_ack_timeout(a, 14), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_retry_cnt(a, 7), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_rnr_retry(a, rnr_retry), DOCA_SUCCESS);
	modify(qp, a, DFX_MASK_RTR2RTS);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

static void buf_create(struct dfx *f, size_t len, uint8_t fill, struct dfx_buf *b)
{
	memset(b, 0, sizeof(*b));
	b->addr = aligned_alloc(64, len);
	assert_non_null(b->addr);
	memset(b->addr, fill, len);
	b->len = len;
	assert_int_equal(opengda_mr_create(f->pd, b->addr, len,
					   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
						   IBV_ACCESS_REMOTE_ATOMIC,
					   &b->mr),
			 DOCA_SUCCESS);
	assert_int_equal(opengda_mr_get_lkey(b->mr, &b->lkey), DOCA_SUCCESS);
	assert_int_equal(opengda_mr_get_rkey(b->mr, &b->rkey), DOCA_SUCCESS);
}

static void buf_destroy(struct dfx_buf *b)
{
	if (b->mr != NULL)
		assert_int_equal(opengda_mr_destroy(b->mr), DOCA_SUCCESS);
	free(b->addr);
	memset(b, 0, sizeof(*b));
}

/* A CONTIGUOUS SRQ of cfg.srq_wqes one-segment WQEs, exported for device code. */
static void srq_create(struct dfx *f)
{
	struct doca_verbs_srq_init_attr *a = NULL;

	assert_int_equal(doca_verbs_srq_init_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(a, f->cfg.srq_wqes), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_receive_max_sges(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_type(a, DOCA_VERBS_SRQ_TYPE_CONTIGUOUS), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(a, f->pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_create(f->ctx, a, &f->srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(opengda_gpu_verbs_export_srq(f->gpu, f->srq, &f->gsrq), DOCA_SUCCESS);
	assert_int_equal(opengda_gpu_verbs_srq_set_wait_timeout(f->gsrq, f->cfg.timeout_ns), DOCA_SUCCESS);
	assert_int_equal(opengda_gpu_verbs_get_srq_dev(f->gsrq, &f->dsrq), DOCA_SUCCESS);
}

/* ---- export and CPU driving ---------------------------------------------------------------- */

static void lane_create(struct dfx *f, struct dfx_lane *l, bool cd_master)
{
	const struct dfx_cfg *c = &f->cfg;
	uint64_t timeout = c->timeout_ns;
	void *dbr = NULL;

	memset(l, 0, sizeof(*l));
	/*
	 * Emulated DBR-less QPs ring before the CPU writes their record, so the software NIC (which
	 * samples a shared register) can only recover a ring another QP overwrote if the QP has the
	 * register to itself: give each one its own page. GPU-ringing valid-DBR QPs share the
	 * context's page, as DOCA's QP groups do.
	 */
	if (c->dbr_mode == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED)
		assert_int_equal(doca_verbs_uar_create(f->ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE_DEDICATED, &l->uar),
				 DOCA_SUCCESS);
	bool two = (c->rq_wqes != 0 || c->srq_wqes != 0) && !cd_master;

	l->cq_a = make_cq(f, c->cq_entries, !c->cq_overrun_checked, c->cq_collapsed);
	l->cq_b = make_cq(f, two ? c->cq_entries : DFX_B_CQ, true, false);
	if (two && c->rq_wqes != 0)
		l->rcq_a = make_cq(f, c->rq_wqes, true, false);
	if (two)
		l->rcq_b = make_cq(f, c->rq_wqes != 0 ? c->rq_wqes : c->srq_wqes, true, false);
	l->qp_a = make_qp(f, l->cq_a, l->rcq_a, c->sq_wqebbs, c->dbr_mode, cd_master, l->uar, NULL);
	/* B only responds (writes, reads, atomics need no receive queue); a QP needs some queue: one send WQE. */
	l->qp_b = make_qp(f, l->cq_b, l->rcq_b, two ? c->sq_wqebbs : 1, DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR,
			  false, NULL, two ? f->srq : NULL);
	assert_int_equal(doca_verbs_qp_get_qpn(l->qp_a, &l->qpn_a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(l->qp_b, &l->qpn_b), DOCA_SUCCESS);
	connect_qp(f, l->qp_a, l->qpn_b);
	connect_qp(f, l->qp_b, l->qpn_a);
	if (c->dbr_mode != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW) {
		assert_int_equal(doca_verbs_qp_get_dbr_addr(l->qp_a, &dbr), DOCA_SUCCESS);
		l->dbr = dbr;
	}

	if (two) {
		if (l->rcq_a != NULL)
			assert_int_equal(opengda_gpu_verbs_export_qp_rq(f->gpu, l->qp_a, c->handler, l->cq_a, l->rcq_a,
									c->dbr_mode, &l->gqp),
					 DOCA_SUCCESS);
		else
			assert_int_equal(doca_gpu_verbs_export_qp(f->gpu, l->qp_a, c->handler, NULL, l->cq_a, c->dbr_mode,
								  &l->gqp),
					 DOCA_SUCCESS);
		if (f->srq != NULL)
			assert_int_equal(opengda_gpu_verbs_export_qp_rq(f->gpu, l->qp_b, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
									l->cq_b, l->rcq_b,
									DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR,
									&l->gqp_b),
					 DOCA_SUCCESS);
		else
			assert_int_equal(doca_gpu_verbs_export_qp(f->gpu, l->qp_b, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL,
								  l->cq_b, DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR,
								  &l->gqp_b),
					 DOCA_SUCCESS);
		assert_int_equal(opengda_gpu_verbs_qp_set_wait_timeout(l->gqp_b, timeout), DOCA_SUCCESS);
		assert_int_equal(doca_gpu_verbs_get_qp_dev(l->gqp_b, &l->dqp_b), DOCA_SUCCESS);
		assert_int_equal(l->dqp_b->rq_wqe_num, c->rq_wqes);
		assert_int_equal(l->dqp_b->cq_rq.cqe_num, c->rq_wqes != 0 ? c->rq_wqes : c->srq_wqes);
		assert_int_equal(l->dqp_b->cq_rq.ogda_wait_timeout_ns, timeout);
	} else {
		assert_int_equal(doca_gpu_verbs_export_qp(f->gpu, l->qp_a, c->handler, NULL, l->cq_a, c->dbr_mode,
							  &l->gqp),
				 DOCA_SUCCESS);
	}
	assert_int_equal(opengda_gpu_verbs_qp_set_wait_timeout(l->gqp, timeout), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_get_qp_dev(l->gqp, &l->dqp), DOCA_SUCCESS);
	assert_non_null(l->dqp);
	/* The bound must reach the CQ: every wait of the core reads it there. */
	assert_int_equal(l->dqp->ogda_wait_timeout_ns, timeout);
	assert_int_equal(l->dqp->cq_sq.ogda_wait_timeout_ns, timeout);
	assert_int_equal(l->dqp->sq_wqe_num, c->sq_wqebbs);
	assert_int_equal(l->dqp->sq_num, l->qpn_a);
	assert_int_equal(l->dqp->sq_rsvd_index, 0);
	assert_int_equal(l->dqp->sq_ready_index, 0);
	assert_int_equal(l->dqp->sq_wqe_pi, 0);
	l->needs_cpu = c->handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY;
	if (l->needs_cpu && c->drive == DFX_DRIVE_SERVICE) {
		assert_int_equal(doca_gpu_verbs_service_monitor_qp(f->service, l->gqp), DOCA_SUCCESS);
		l->on_service = true;
	}
}

static void lane_destroy(struct dfx *f, struct dfx_lane *l)
{
	if (l->gqp != NULL)
		assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, l->gqp), DOCA_SUCCESS);
	if (l->gqp_b != NULL)
		assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, l->gqp_b), DOCA_SUCCESS);
	if (l->qp_a != NULL)
		assert_int_equal(doca_verbs_qp_destroy(l->qp_a), DOCA_SUCCESS);
	if (l->qp_b != NULL)
		assert_int_equal(doca_verbs_qp_destroy(l->qp_b), DOCA_SUCCESS);
	if (l->cq_a != NULL)
		assert_int_equal(doca_verbs_cq_destroy(l->cq_a), DOCA_SUCCESS);
	if (l->cq_b != NULL)
		assert_int_equal(doca_verbs_cq_destroy(l->cq_b), DOCA_SUCCESS);
	if (l->rcq_a != NULL)
		assert_int_equal(doca_verbs_cq_destroy(l->rcq_a), DOCA_SUCCESS);
	if (l->rcq_b != NULL)
		assert_int_equal(doca_verbs_cq_destroy(l->rcq_b), DOCA_SUCCESS);
	if (l->uar != NULL)
		assert_int_equal(doca_verbs_uar_destroy(l->uar), DOCA_SUCCESS);
	memset(l, 0, sizeof(*l));
}

static void proxy_lane(struct dfx *f, struct dfx_lane *l)
{
	if (l->gqp != NULL && l->needs_cpu && !l->on_service &&
	    doca_gpu_verbs_cpu_proxy_progress(l->gqp, NULL) != DOCA_SUCCESS)
		__atomic_store_n(&f->proxy_failed, 1, __ATOMIC_RELAXED);
}

static void *proxy_main(void *arg)
{
	struct dfx *f = arg;

	while (!__atomic_load_n(&f->proxy_stop, __ATOMIC_ACQUIRE)) {
		for (uint32_t i = 0; i < f->nlanes; i++)
			proxy_lane(f, &f->lane[i]);
		proxy_lane(f, &f->comp);
		sched_yield();
	}
	return NULL;
}

void dfx_open(struct dfx *f, const struct dfx_cfg *cfg)
{
	struct opengda_port_attr port;
	struct doca_devinfo *info;

	memset(f, 0, sizeof(*f));
	f->cfg = *cfg;
	if (f->cfg.sq_wqebbs == 0)
		f->cfg.sq_wqebbs = DFX_DEFAULT_SQ;
	if (f->cfg.cq_entries == 0)
		f->cfg.cq_entries = f->cfg.sq_wqebbs;
	if (f->cfg.nqp == 0)
		f->cfg.nqp = 1;
	if (f->cfg.buf_len == 0)
		f->cfg.buf_len = DFX_DEFAULT_BUF;
	if (f->cfg.timeout_ns == 0)
		f->cfg.timeout_ns = DFX_DEFAULT_TIMEOUT_NS;
	if (f->cfg.rq_sges == 0)
		f->cfg.rq_sges = 1;
	assert_true(f->cfg.nqp <= DFX_MAX_QP);

	assert_int_equal(doca_devinfo_create_list(&f->list, &f->ndev), DOCA_SUCCESS);
	info = find_swnic0(f->list, f->ndev);
	assert_non_null(info);
	assert_int_equal(doca_verbs_context_create(info, 0, &f->ctx), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_create(f->ctx, &f->pd), DOCA_SUCCESS);
	assert_int_equal(opengda_verbs_query_gid(f->ctx, 1, 0, &f->gid), DOCA_SUCCESS);
	assert_int_equal(opengda_verbs_query_port(f->ctx, 1, &port), DOCA_SUCCESS);
	f->port_mtu = port.active_mtu;
	assert_int_equal(opengda_gpu_create_host(&f->gpu), DOCA_SUCCESS);
	if (f->cfg.handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY && f->cfg.drive == DFX_DRIVE_SERVICE)
		assert_int_equal(doca_gpu_verbs_create_service(&f->service), DOCA_SUCCESS);

	buf_create(f, f->cfg.buf_len, 0x11, &f->src);
	buf_create(f, f->cfg.buf_len, 0x22, &f->dst);
	buf_create(f, f->cfg.buf_len, 0x33, &f->remote);

	if (f->cfg.srq_wqes != 0)
		srq_create(f);
	f->nlanes = f->cfg.nqp;
	for (uint32_t i = 0; i < f->nlanes; i++)
		lane_create(f, &f->lane[i], false);
	if (f->cfg.companion)
		lane_create(f, &f->comp, true);

	if (f->cfg.handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY && f->cfg.drive == DFX_DRIVE_THREAD) {
		assert_int_equal(pthread_create(&f->proxy, NULL, proxy_main, f), 0);
		f->proxy_running = true;
	}
}

void dfx_close(struct dfx *f)
{
	if (f->proxy_running) {
		__atomic_store_n(&f->proxy_stop, 1, __ATOMIC_RELEASE);
		assert_int_equal(pthread_join(f->proxy, NULL), 0);
		f->proxy_running = false;
		assert_int_equal(__atomic_load_n(&f->proxy_failed, __ATOMIC_RELAXED), 0);
	}
	if (f->service != NULL) {
		assert_int_equal(doca_gpu_verbs_destroy_service(f->service), DOCA_SUCCESS);
		f->service = NULL;
	}
	for (uint32_t i = 0; i < f->nlanes; i++)
		lane_destroy(f, &f->lane[i]);
	lane_destroy(f, &f->comp);
	if (f->gsrq != NULL)
		assert_int_equal(opengda_gpu_verbs_unexport_srq(f->gpu, f->gsrq), DOCA_SUCCESS);
	if (f->srq != NULL)
		assert_int_equal(doca_verbs_srq_destroy(f->srq), DOCA_SUCCESS);
	buf_destroy(&f->src);
	buf_destroy(&f->dst);
	buf_destroy(&f->remote);
	if (f->gpu != NULL)
		assert_int_equal(doca_gpu_destroy(f->gpu), DOCA_SUCCESS);
	if (f->pd != NULL)
		assert_int_equal(doca_verbs_pd_destroy(f->pd), DOCA_SUCCESS);
	if (f->ctx != NULL)
		assert_int_equal(doca_verbs_context_destroy(f->ctx), DOCA_SUCCESS);
	if (f->list != NULL)
		assert_int_equal(doca_devinfo_destroy_list(f->list), DOCA_SUCCESS);
	memset(f, 0, sizeof(*f));
}

int dfx_setup(void **state)
{
	const struct dfx_cfg *cfg = *state;
	struct dfx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_non_null(cfg);
	dfx_open(f, cfg);
	*state = f;
	return 0;
}

int dfx_teardown(void **state)
{
	struct dfx *f = *state;

	dfx_close(f);
	free(f);
	return 0;
}

struct doca_gpu_dev_verbs_qp *dfx_qp(struct dfx *f, uint32_t i)
{
	assert_true(i < f->nlanes);
	return f->lane[i].dqp;
}

struct doca_gpu_dev_verbs_qp *dfx_comp(struct dfx *f)
{
	assert_non_null(f->comp.dqp);
	return f->comp.dqp;
}

/* ---- addresses, patterns, inspection ------------------------------------------------------- */

struct doca_gpu_dev_verbs_addr dfx_laddr(const struct dfx_buf *b, size_t off)
{
	struct doca_gpu_dev_verbs_addr a = {(uint64_t)(uintptr_t)(b->addr + off), opengda_mlx5_htobe32(b->lkey)};

	return a;
}

struct doca_gpu_dev_verbs_addr dfx_raddr(const struct dfx_buf *b, size_t off)
{
	struct doca_gpu_dev_verbs_addr a = {(uint64_t)(uintptr_t)(b->addr + off), opengda_mlx5_htobe32(b->rkey)};

	return a;
}

static uint8_t pattern_byte(size_t i, uint32_t seed)
{
	uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u + (uint32_t)(i >> 16);

	return (uint8_t)(x >> 13);
}

void dfx_fill(uint8_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = pattern_byte(i, seed);
}

long dfx_check(const uint8_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != pattern_byte(i, seed))
			return (long)i;
	return -1;
}

bool dfx_all(const uint8_t *p, size_t len, uint8_t v)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

uint32_t dfx_sq_dbr(const struct dfx_lane *l)
{
	assert_non_null(l->dbr);
	return __atomic_load_n(&l->dbr[OPENGDA_MLX5_SND_DBR], __ATOMIC_ACQUIRE);
}

uint32_t dfx_dbr_expect(uint64_t pi)
{
	return opengda_mlx5_htobe32((uint32_t)(pi & 0xffffu));
}

bool dfx_wait_dbr(struct dfx *f, const struct dfx_lane *l, uint64_t pi)
{
	uint64_t end = dfx_now_ns() + f->cfg.timeout_ns;

	while (dfx_sq_dbr(l) != dfx_dbr_expect(pi)) {
		if (dfx_now_ns() > end)
			return false;
		sched_yield();
	}
	return true;
}

const struct opengda_mlx5_cqe64 *dfx_cqe(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx)
{
	return (const struct opengda_mlx5_cqe64 *)ogda_dev_cqe_at(&qp->cq_sq, idx + qp->cq_sq.cqe_rsvd);
}

const struct opengda_mlx5_wqe_ctrl_seg *dfx_ctrl(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx)
{
	return (const struct opengda_mlx5_wqe_ctrl_seg *)(void *)ogda_dev_wqe_ptr(qp, idx);
}


void dfx_swnic_counters(uint32_t qpn, uint64_t *wqes, uint64_t *doorbells, uint64_t *errors)
{
	struct swnic *nic = NULL;
	struct swnic_qp *q;

	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	q = swnic_qp_acquire(nic, qpn);
	assert_non_null(q);
	if (wqes != NULL)
		*wqes = atomic_load(&q->counters.wqes);
	if (doorbells != NULL)
		*doorbells = atomic_load(&q->counters.doorbells);
	if (errors != NULL)
		*errors = atomic_load(&q->counters.errors);
	swnic_qp_release(q);
	swnic_close(nic);
}
