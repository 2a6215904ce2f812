/* SPDX-License-Identifier: BSD-3-Clause */
#include "bridge_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#define PORT 1u
#define PSN_A 0x100u
#define PSN_B 0x200u

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void nap(void)
{
	struct timespec ts = {0, 100000}; /* 100 us */

	nanosleep(&ts, NULL);
}

uint64_t bridge_addr(const struct bridge_fix *f, uint32_t off)
{
	return (uint64_t)(uintptr_t)(f->buf + off);
}

int bridge_poll(struct doca_verbs_cq *cq, struct ibv_wc *wc, int want, int timeout_ms)
{
	uint64_t end = now_ms() + (uint64_t)timeout_ms;
	int got = 0;

	while (got < want) {
		int n = doca_verbs_bridge_poll_cq(cq, want - got, wc + got);

		assert_true(n >= 0);
		got += n;
		if (got >= want || now_ms() > end)
			break;
		if (n == 0)
			nap();
	}
	return got;
}

bool bridge_wait_bytes(const volatile uint8_t *p, const uint8_t *expect, uint32_t len, int timeout_ms)
{
	uint64_t end = now_ms() + (uint64_t)timeout_ms;

	for (;;) {
		uint32_t i;

		for (i = 0; i < len && p[i] == expect[i]; i++)
			;
		if (i == len)
			return true;
		if (now_ms() > end)
			return false;
		nap();
	}
}

static struct doca_devinfo *find_swnic0(struct doca_devinfo **list)
{
	char name[64];

	for (; *list != NULL; list++) {
		assert_int_equal(doca_devinfo_get_ibdev_name(*list, name, sizeof(name)), DOCA_SUCCESS);
		if (strcmp(name, "swnic0") == 0)
			return *list;
	}
	return NULL;
}

static struct doca_verbs_cq *make_cq(struct doca_verbs_context *ctx)
{
	struct doca_verbs_cq_attr *attr = NULL;
	struct doca_verbs_cq *cq = NULL;

	assert_int_equal(doca_verbs_cq_attr_create(&attr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(attr, 64), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(ctx, attr, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(attr), DOCA_SUCCESS);
	return cq;
}

static void make_qp(struct bridge_fix *f, struct bridge_end *e, const struct bridge_cfg *cfg, bool is_a)
{
	struct doca_verbs_qp_init_attr *ia = NULL;

	e->scq = make_cq(f->ctx);
	e->rcq = make_cq(f->ctx);
	assert_int_equal(doca_verbs_qp_init_attr_create(&ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_pd(ia, f->pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_cq(ia, e->scq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_receive_cq(ia, e->rcq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_wr(ia, cfg->sq_wr ? cfg->sq_wr : 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_send_max_sges(ia, cfg->send_max_sges ? cfg->send_max_sges : 2),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_max_inline_data(ia, cfg->max_inline_data), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_sig_all(ia, cfg->sq_sig_all), DOCA_SUCCESS);
	if (!is_a && cfg->b_with_srq) {
		assert_int_equal(doca_verbs_qp_init_attr_set_srq(ia, f->srq), DOCA_SUCCESS);
	} else {
		assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(ia, cfg->rq_wr ? cfg->rq_wr : 16), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_receive_max_sges(
					 ia, cfg->receive_max_sges ? cfg->receive_max_sges : 2),
				 DOCA_SUCCESS);
	}
	if (is_a) {
		assert_int_equal(doca_verbs_qp_init_attr_set_send_dbr_mode(ia, cfg->dbr_mode), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_emulate_no_dbr_ext(ia, cfg->emulate_no_dbr_ext),
				 DOCA_SUCCESS);
	}
	assert_int_equal(doca_verbs_qp_create(f->ctx, ia, &e->qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(e->qp, &e->qpn), DOCA_SUCCESS);
}

static void modify(struct doca_verbs_qp *qp, struct doca_verbs_qp_attr *attr, int mask)
{
	assert_int_equal(doca_verbs_qp_modify(qp, attr, mask), DOCA_SUCCESS);
}

/* RST -> INIT -> RTR -> RTS toward peer_qpn at gid. */
static void connect_qp(struct bridge_fix *f, struct doca_verbs_qp *qp, uint32_t peer_qpn, uint32_t my_psn,
		       uint32_t peer_psn)
{
	struct doca_verbs_qp_attr *attr = NULL;
	struct doca_verbs_ah_attr *ah = NULL;
	struct opengda_port_attr port;
	struct doca_verbs_gid gid;

	assert_int_equal(opengda_verbs_query_port(f->ctx, PORT, &port), DOCA_SUCCESS);
	assert_int_equal(opengda_verbs_query_gid(f->ctx, PORT, 0, &gid), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_create(&attr), DOCA_SUCCESS);

	assert_int_equal(doca_verbs_qp_attr_set_next_state(attr, DOCA_VERBS_QP_STATE_INIT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_write(attr, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_read(attr, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_atomic_mode(attr, DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_pkey_index(attr, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_port_num(attr, PORT), DOCA_SUCCESS);
	modify(qp, attr,
	       DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_WRITE |
		       DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_READ | DOCA_VERBS_QP_ATTR_ATOMIC_MODE |
		       DOCA_VERBS_QP_ATTR_PKEY_INDEX | DOCA_VERBS_QP_ATTR_PORT_NUM);

	assert_int_equal(doca_verbs_ah_attr_create(f->ctx, &ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_gid(ah, gid), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_sgid_index(ah, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_next_state(attr, DOCA_VERBS_QP_STATE_RTR), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_rq_psn(attr, peer_psn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_dest_qp_num(attr, peer_qpn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_path_mtu(attr, port.active_mtu), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_ah_attr(attr, ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_min_rnr_timer(attr, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_max_dest_rd_atomic(attr, 4), DOCA_SUCCESS);
	modify(qp, attr,
	       DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_RQ_PSN | DOCA_VERBS_QP_ATTR_DEST_QP_NUM |
		       DOCA_VERBS_QP_ATTR_PATH_MTU | DOCA_VERBS_QP_ATTR_AH_ATTR | DOCA_VERBS_QP_ATTR_MIN_RNR_TIMER |
		       DOCA_VERBS_QP_ATTR_MAX_DEST_RD_ATOMIC);
	assert_int_equal(doca_verbs_ah_attr_destroy(ah), DOCA_SUCCESS);

	assert_int_equal(doca_verbs_qp_attr_set_next_state(attr, DOCA_VERBS_QP_STATE_RTS), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_sq_psn(attr, my_psn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_ack_timeout(attr, 14), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_retry_cnt(attr, 7), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_rnr_retry(attr, 7), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_max_rd_atomic(attr, 4), DOCA_SUCCESS);
	modify(qp, attr,
	       DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_SQ_PSN | DOCA_VERBS_QP_ATTR_ACK_TIMEOUT |
		       DOCA_VERBS_QP_ATTR_RETRY_CNT | DOCA_VERBS_QP_ATTR_RNR_RETRY | DOCA_VERBS_QP_ATTR_MAX_QP_RD_ATOMIC);
	assert_int_equal(doca_verbs_qp_attr_destroy(attr), DOCA_SUCCESS);
}

static void make_srq(struct bridge_fix *f)
{
	struct doca_verbs_srq_init_attr *sa = NULL;

	assert_int_equal(doca_verbs_srq_init_attr_create(&sa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(sa, f->pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(sa, 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_create(f->ctx, sa, &f->srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(sa), DOCA_SUCCESS);
}

int bridge_setup_cfg(void **state, const struct bridge_cfg *cfg)
{
	struct bridge_fix *f = calloc(1, sizeof(*f));
	struct doca_devinfo *info;
	uint32_t n = 0;

	assert_non_null(f);
	assert_int_equal(doca_devinfo_create_list(&f->list, &n), DOCA_SUCCESS);
	info = find_swnic0(f->list);
	assert_non_null(info);
	assert_int_equal(doca_verbs_context_create(info, 0, &f->ctx), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_create(f->ctx, &f->pd), DOCA_SUCCESS);
	assert_int_equal(posix_memalign((void **)&f->buf, 4096, BRIDGE_BUF_SIZE), 0);
	memset(f->buf, 0, BRIDGE_BUF_SIZE);
	assert_int_equal(opengda_mr_create(f->pd, f->buf, BRIDGE_BUF_SIZE,
					   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
						   IBV_ACCESS_REMOTE_ATOMIC,
					   &f->mr),
			 DOCA_SUCCESS);
	assert_int_equal(opengda_mr_get_lkey(f->mr, &f->lkey), DOCA_SUCCESS);
	assert_int_equal(opengda_mr_get_rkey(f->mr, &f->rkey), DOCA_SUCCESS);
	if (cfg->b_with_srq)
		make_srq(f);
	make_qp(f, &f->a, cfg, true);
	make_qp(f, &f->b, cfg, false);
	if (!cfg->no_connect) {
		connect_qp(f, f->a.qp, f->b.qpn, PSN_A, PSN_B);
		connect_qp(f, f->b.qp, f->a.qpn, PSN_B, PSN_A);
	}
	*state = f;
	return 0;
}

static void end_destroy(struct bridge_end *e)
{
	assert_int_equal(doca_verbs_qp_destroy(e->qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(e->scq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(e->rcq), DOCA_SUCCESS);
}

int bridge_teardown(void **state)
{
	struct bridge_fix *f = *state;

	end_destroy(&f->a);
	end_destroy(&f->b);
	if (f->srq != NULL)
		assert_int_equal(doca_verbs_srq_destroy(f->srq), DOCA_SUCCESS);
	assert_int_equal(opengda_mr_destroy(f->mr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_destroy(f->pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_context_destroy(f->ctx), DOCA_SUCCESS);
	assert_int_equal(doca_devinfo_destroy_list(f->list), DOCA_SUCCESS);
	free(f->buf);
	free(f);
	return 0;
}
