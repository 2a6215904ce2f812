/* SPDX-License-Identifier: BSD-3-Clause */
#include "verbs_fixture.h"

#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

struct doca_devinfo *vfx_find_devinfo(struct doca_devinfo **list, uint32_t n, const char *name)
{
	char buf[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(doca_devinfo_get_ibdev_name(list[i], buf, sizeof(buf)), DOCA_SUCCESS);
		if (strcmp(buf, name) == 0)
			return list[i];
	}
	return NULL;
}

void vfx_open(struct vfx *f)
{
	struct opengda_port_attr port;

	memset(f, 0, sizeof(*f));
	assert_int_equal(doca_devinfo_create_list(&f->list, &f->ndev), DOCA_SUCCESS);
	f->info = vfx_find_devinfo(f->list, f->ndev, "swnic0");
	assert_non_null(f->info);
	assert_int_equal(doca_verbs_context_create(f->info, 0, &f->ctx), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_create(f->ctx, &f->pd), DOCA_SUCCESS);
	assert_int_equal(opengda_verbs_query_gid(f->ctx, 1, 0, &f->gid), DOCA_SUCCESS);
	assert_int_equal(opengda_verbs_query_port(f->ctx, 1, &port), DOCA_SUCCESS);
	f->port_mtu = port.active_mtu;
}

void vfx_close(struct vfx *f)
{
	if (f->pd != NULL)
		assert_int_equal(doca_verbs_pd_destroy(f->pd), DOCA_SUCCESS);
	if (f->ctx != NULL)
		assert_int_equal(doca_verbs_context_destroy(f->ctx), DOCA_SUCCESS);
	if (f->list != NULL)
		assert_int_equal(doca_devinfo_destroy_list(f->list), DOCA_SUCCESS);
	memset(f, 0, sizeof(*f));
}

struct doca_verbs_cq *vfx_cq(struct vfx *f, uint32_t size, struct doca_verbs_comp_channel *cc, void *cq_context)
{
	struct doca_verbs_cq_attr *a = NULL;
	struct doca_verbs_cq *cq = NULL;

	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, size), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_context(a, cq_context), DOCA_SUCCESS);
	if (cc != NULL)
		assert_int_equal(doca_verbs_cq_attr_set_comp_channel(a, cc), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f->ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	return cq;
}

struct doca_verbs_qp_init_attr *vfx_qp_init_attr(struct vfx *f, uint32_t qp_type, struct doca_verbs_cq *send_cq,
						  struct doca_verbs_cq *recv_cq, uint32_t sq_wr, uint32_t rq_wr)
{
	struct doca_verbs_qp_init_attr *a = NULL;

	assert_int_equal(doca_verbs_qp_init_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_pd(a, f->pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_qp_type(a, qp_type), DOCA_SUCCESS);
	if (send_cq != NULL)
		assert_int_equal(doca_verbs_qp_init_attr_set_send_cq(a, send_cq), DOCA_SUCCESS);
	if (recv_cq != NULL)
		assert_int_equal(doca_verbs_qp_init_attr_set_receive_cq(a, recv_cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_sq_wr(a, sq_wr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(a, rq_wr), DOCA_SUCCESS);
	return a;
}

struct doca_verbs_qp *vfx_qp(struct vfx *f, uint32_t qp_type, struct doca_verbs_cq *send_cq,
			     struct doca_verbs_cq *recv_cq, uint32_t sq_wr, uint32_t rq_wr)
{
	struct doca_verbs_qp_init_attr *a = vfx_qp_init_attr(f, qp_type, send_cq, recv_cq, sq_wr, rq_wr);
	struct doca_verbs_qp *qp = NULL;

	assert_int_equal(doca_verbs_qp_create(f->ctx, a, &qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	return qp;
}

struct doca_verbs_ah_attr *vfx_ah(struct vfx *f)
{
	struct doca_verbs_ah_attr *ah = NULL;

	assert_int_equal(doca_verbs_ah_attr_create(f->ctx, &ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_gid(ah, f->gid), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_addr_type(ah, DOCA_VERBS_ADDR_TYPE_IPv6), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_sgid_index(ah, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_hop_limit(ah, VFX_HOP_LIMIT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_traffic_class(ah, VFX_TRAFFIC_CLASS), DOCA_SUCCESS);
	return ah;
}

struct doca_verbs_qp_attr *vfx_attr(void)
{
	struct doca_verbs_qp_attr *a = NULL;

	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	return a;
}

void vfx_attr_fill_init(struct doca_verbs_qp_attr *attr)
{
	assert_int_equal(doca_verbs_qp_attr_set_next_state(attr, DOCA_VERBS_QP_STATE_INIT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_write(attr, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_read(attr, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_atomic_mode(attr, DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_pkey_index(attr, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_port_num(attr, 1), DOCA_SUCCESS);
}

void vfx_attr_fill_rtr(struct doca_verbs_qp_attr *attr, struct doca_verbs_ah_attr *ah, uint32_t dest_qpn,
		       uint32_t rq_psn, enum doca_verbs_mtu_size mtu)
{
	assert_int_equal(doca_verbs_qp_attr_set_next_state(attr, DOCA_VERBS_QP_STATE_RTR), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_rq_psn(attr, rq_psn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_dest_qp_num(attr, dest_qpn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_path_mtu(attr, mtu), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_ah_attr(attr, ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_min_rnr_timer(attr, VFX_MIN_RNR_TIMER), DOCA_SUCCESS);
}

void vfx_attr_fill_rts(struct doca_verbs_qp_attr *attr, uint32_t sq_psn)
{
	assert_int_equal(doca_verbs_qp_attr_set_next_state(attr, DOCA_VERBS_QP_STATE_RTS), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_sq_psn(attr, sq_psn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_ack_timeout(attr, VFX_ACK_TIMEOUT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_retry_cnt(attr, VFX_RETRY_CNT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_rnr_retry(attr, VFX_RNR_RETRY), DOCA_SUCCESS);
}

void vfx_qp_to_init(struct doca_verbs_qp *qp, uint32_t qp_type)
{
	struct doca_verbs_qp_attr *a = vfx_attr();

	vfx_attr_fill_init(a);
	assert_int_equal(doca_verbs_qp_modify(qp, a,
					      qp_type == DOCA_VERBS_QP_TYPE_RC ? VFX_MASK_RST2INIT_RC
									       : VFX_MASK_RST2INIT_UC),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

void vfx_qp_to_rtr(struct vfx *f, struct doca_verbs_qp *qp, uint32_t qp_type, uint32_t dest_qpn, uint32_t rq_psn)
{
	struct doca_verbs_qp_attr *a = vfx_attr();
	struct doca_verbs_ah_attr *ah = vfx_ah(f);

	vfx_attr_fill_rtr(a, ah, dest_qpn, rq_psn, f->port_mtu);
	assert_int_equal(doca_verbs_qp_modify(qp, a,
					      qp_type == DOCA_VERBS_QP_TYPE_RC ? VFX_MASK_INIT2RTR_RC
									       : VFX_MASK_INIT2RTR_UC),
			 DOCA_SUCCESS);
	/* The QP keeps a copy: the AH attributes may go right away. */
	assert_int_equal(doca_verbs_ah_attr_destroy(ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

void vfx_qp_to_rts(struct doca_verbs_qp *qp, uint32_t qp_type, uint32_t sq_psn)
{
	struct doca_verbs_qp_attr *a = vfx_attr();

	vfx_attr_fill_rts(a, sq_psn);
	assert_int_equal(doca_verbs_qp_modify(qp, a,
					      qp_type == DOCA_VERBS_QP_TYPE_RC ? VFX_MASK_RTR2RTS_RC
									       : VFX_MASK_RTR2RTS_UC),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

void vfx_qp_connect(struct vfx *f, struct doca_verbs_qp *qp, uint32_t qp_type, uint32_t dest_qpn, uint32_t rq_psn,
		    uint32_t sq_psn)
{
	vfx_qp_to_init(qp, qp_type);
	vfx_qp_to_rtr(f, qp, qp_type, dest_qpn, rq_psn);
	vfx_qp_to_rts(qp, qp_type, sq_psn);
}

void vfx_pair_create(struct vfx *f, uint32_t qp_type, struct doca_verbs_comp_channel *cc, struct vfx_pair *p)
{
	memset(p, 0, sizeof(*p));
	p->qp_type = qp_type;
	for (int i = 0; i < 2; i++) {
		p->cq[i] = vfx_cq(f, VFX_CQ_SIZE, cc, NULL);
		p->qp[i] = vfx_qp(f, qp_type, p->cq[i], p->cq[i], VFX_SQ_WR, VFX_RQ_WR);
		assert_int_equal(doca_verbs_qp_get_qpn(p->qp[i], &p->qpn[i]), DOCA_SUCCESS);
	}
	for (int i = 0; i < 2; i++)
		vfx_qp_connect(f, p->qp[i], qp_type, p->qpn[1 - i], VFX_PSN_BASE + (uint32_t)(1 - i),
			       VFX_PSN_BASE + (uint32_t)i);
}

void vfx_pair_destroy(struct vfx_pair *p)
{
	for (int i = 0; i < 2; i++) {
		if (p->qp[i] != NULL)
			assert_int_equal(doca_verbs_qp_destroy(p->qp[i]), DOCA_SUCCESS);
		if (p->cq[i] != NULL)
			assert_int_equal(doca_verbs_cq_destroy(p->cq[i]), DOCA_SUCCESS);
	}
	memset(p, 0, sizeof(*p));
}

void vfx_buf_create(struct vfx *f, size_t len, uint8_t fill, struct vfx_buf *b)
{
	memset(b, 0, sizeof(*b));
	b->addr = malloc(len);
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

void vfx_buf_destroy(struct vfx_buf *b)
{
	if (b->mr != NULL)
		assert_int_equal(opengda_mr_destroy(b->mr), DOCA_SUCCESS);
	free(b->addr);
	memset(b, 0, sizeof(*b));
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int vfx_poll(struct doca_verbs_cq *cq, struct ibv_wc *wc, int n, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	int got = 0;

	while (got < n) {
		int r = doca_verbs_bridge_poll_cq(cq, n - got, wc + got);

		assert_true(r >= 0);
		got += r;
		if (got < n) {
			if (now_ms() > end)
				break;
			struct timespec ts = {0, 100000};

			nanosleep(&ts, NULL);
		}
	}
	return got;
}

bool vfx_fd_readable(int fd, int timeout_ms)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	int r = poll(&pfd, 1, timeout_ms);

	return r == 1 && (pfd.revents & POLLIN) != 0;
}

bool vfx_log_has(const char *log, const char *const *needles)
{
	for (; *needles != NULL; needles++)
		if (strstr(log, *needles) == NULL)
			return false;
	return true;
}
