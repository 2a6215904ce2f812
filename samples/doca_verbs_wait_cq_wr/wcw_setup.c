/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/* doca_verbs_wait_cq_wr: device, CQs, QPs, buffers, and the two in-process connections. */
#include <stdlib.h>
#include <string.h>

#include "sample_util.h"
#include "wcw.h"

#define WCW_CQ_SIZE 8
#define WCW_BUF_ALIGN 4096u
/* aligned_alloc wants a multiple of the alignment. */
#define WCW_BUF_ALLOC ((WCW_BUF_SIZE + WCW_BUF_ALIGN - 1u) / WCW_BUF_ALIGN * WCW_BUF_ALIGN)

/* QP1 and QP3 send, QP2 and QP4 receive; QP3 posts the cross-channel WAIT. */
static int create_qps(struct wcw *w)
{
	int i;

	for (i = 0; i < WCW_NQP; i++) {
		struct sample_qp_cfg qc;

		memset(&qc, 0, sizeof(qc));
		qc.qp_type = DOCA_VERBS_QP_TYPE_RC;
		qc.sq_wr = i == 2 ? 2 : 1; /* QP3: WAIT + SEND */
		qc.rq_wr = (i % 2) == 1 ? 1 : 0;
		qc.core_direct_master = i == 2;
		if (sample_cq_create(&w->dev, WCW_CQ_SIZE, &w->cq[i]) != 0)
			return -1;
		qc.send_cq = w->cq[i];
		qc.recv_cq = w->cq[i];
		if (sample_qp_create(&w->dev, &qc, &w->qp[i]) != 0)
			return -1;
	}
	return 0;
}

static int create_buffers(struct wcw *w)
{
	int i;

	for (i = 0; i < WCW_NBUF; i++) {
		doca_error_t err;

		w->buf[i] = aligned_alloc(WCW_BUF_ALIGN, WCW_BUF_ALLOC);
		if (w->buf[i] == NULL) {
			sample_err("cannot allocate buffer %d", i + 1);
			return -1;
		}
		err = opengda_mr_create(w->dev.pd, w->buf[i], WCW_BUF_SIZE, IBV_ACCESS_LOCAL_WRITE, &w->mr[i]);
		if (err != DOCA_SUCCESS) {
			sample_err_doca("opengda_mr_create", err);
			return -1;
		}
		(void)opengda_mr_get_lkey(w->mr[i], &w->lkey[i]);
	}
	return 0;
}

/* The address another QP of this process needs to reach qp. */
static void local_peer(const struct wcw *w, struct doca_verbs_qp *qp, uint32_t psn, struct sample_peer *p)
{
	memset(p, 0, sizeof(*p));
	(void)doca_verbs_qp_get_qpn(qp, &p->qpn);
	p->psn = psn;
	p->gid = w->dev.gid;
	p->lid = w->dev.port.lid;
	p->mtu = w->dev.port.active_mtu;
}

/* Connects qp[a] <-> qp[b]; each starts sending at PSN (its index + 1) * 0x100. */
static int connect_pair(struct wcw *w, int a, int b)
{
	struct sample_peer pa, pb;
	uint32_t psn_a = (uint32_t)(a + 1) * 0x100u, psn_b = (uint32_t)(b + 1) * 0x100u;

	local_peer(w, w->qp[a], psn_a, &pa);
	local_peer(w, w->qp[b], psn_b, &pb);
	if (sample_qp_connect(&w->dev, w->qp[a], DOCA_VERBS_QP_TYPE_RC, psn_a, &pb, w->cfg->ipv6) != 0)
		return -1;
	return sample_qp_connect(&w->dev, w->qp[b], DOCA_VERBS_QP_TYPE_RC, psn_b, &pa, w->cfg->ipv6);
}

int wcw_setup(struct wcw *w, const struct wcw_config *cfg)
{
	memset(w, 0, sizeof(*w));
	w->cfg = cfg;
	if (sample_dev_open(cfg->device, cfg->gid_index, &w->dev) != 0)
		return -1;
	if (create_qps(w) != 0 || create_buffers(w) != 0)
		return -1;
	if (connect_pair(w, 0, 1) != 0 || connect_pair(w, 2, 3) != 0)
		return -1;
	return 0;
}

void wcw_teardown(struct wcw *w)
{
	doca_error_t err;
	int i;

	for (i = 0; i < WCW_NQP; i++) {
		if (w->qp[i] != NULL && (err = doca_verbs_qp_destroy(w->qp[i])) != DOCA_SUCCESS)
			sample_err_doca("doca_verbs_qp_destroy", err);
		w->qp[i] = NULL;
	}
	for (i = 0; i < WCW_NQP; i++) {
		if (w->cq[i] != NULL && (err = doca_verbs_cq_destroy(w->cq[i])) != DOCA_SUCCESS)
			sample_err_doca("doca_verbs_cq_destroy", err);
		w->cq[i] = NULL;
	}
	for (i = 0; i < WCW_NBUF; i++) {
		if (w->mr[i] != NULL && (err = opengda_mr_destroy(w->mr[i])) != DOCA_SUCCESS)
			sample_err_doca("opengda_mr_destroy", err);
		w->mr[i] = NULL;
		free(w->buf[i]);
		w->buf[i] = NULL;
	}
	sample_dev_close(&w->dev);
}
