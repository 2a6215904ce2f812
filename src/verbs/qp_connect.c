/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connecting an RC QP to a peer in one call (RST -> INIT -> RTR -> RTS), for the DOCA libraries
 * built on DOCA Verbs (doca_dma's loopback QP, doca_rdma's connections). The same transitions an
 * application makes with doca_verbs_qp_modify(); the values are the usual RC ones.
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "opengda.h"

#define QPC_A(x) DOCA_VERBS_QP_ATTR_##x
#define QPC_MASK_INIT                                                                                  \
	(QPC_A(NEXT_STATE) | QPC_A(ALLOW_REMOTE_WRITE) | QPC_A(ALLOW_REMOTE_READ) | QPC_A(ATOMIC_MODE) | \
	 QPC_A(PKEY_INDEX) | QPC_A(PORT_NUM))
#define QPC_MASK_RTR                                                                                   \
	(QPC_A(NEXT_STATE) | QPC_A(RQ_PSN) | QPC_A(DEST_QP_NUM) | QPC_A(PATH_MTU) | QPC_A(AH_ATTR) |   \
	 QPC_A(MIN_RNR_TIMER))
#define QPC_MASK_RTS (QPC_A(NEXT_STATE) | QPC_A(SQ_PSN) | QPC_A(ACK_TIMEOUT) | QPC_A(RETRY_CNT) | QPC_A(RNR_RETRY))

#define QPC_PORT 1u
#define QPC_MIN_RNR_TIMER 12u
#define QPC_ACK_TIMEOUT 14u
#define QPC_RETRY_CNT 7u
#define QPC_RNR_RETRY 7u
#define QPC_HOP_LIMIT 64u

static doca_error_t to_init(struct doca_verbs_qp *qp, struct doca_verbs_qp_attr *a, const struct verbs_rc_peer *p)
{
	doca_error_t err;

	if ((err = doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_INIT)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_allow_remote_write(a, p->allow_remote_write)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_allow_remote_read(a, p->allow_remote_read)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_atomic_mode(a, p->allow_remote_atomic ? DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC
										: DOCA_VERBS_QP_ATOMIC_MODE_NONE)) !=
		    DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_pkey_index(a, 0)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_port_num(a, QPC_PORT)) != DOCA_SUCCESS)
		return err;
	return doca_verbs_qp_modify(qp, a, QPC_MASK_INIT);
}

static doca_error_t to_rtr(struct doca_verbs_context *ctx, struct doca_verbs_qp *qp, struct doca_verbs_qp_attr *a,
			   const struct verbs_rc_peer *p)
{
	struct doca_verbs_ah_attr *ah = NULL;
	struct opengda_port_attr port;
	doca_error_t err = opengda_verbs_query_port(ctx, QPC_PORT, &port);

	if (err != DOCA_SUCCESS)
		return err;
	if ((err = doca_verbs_ah_attr_create(ctx, &ah)) != DOCA_SUCCESS)
		return err;
	if ((err = doca_verbs_ah_attr_set_gid(ah, p->gid)) == DOCA_SUCCESS &&
	    (err = doca_verbs_ah_attr_set_addr_type(ah, DOCA_VERBS_ADDR_TYPE_IPv6)) == DOCA_SUCCESS &&
	    (err = doca_verbs_ah_attr_set_sgid_index(ah, (uint8_t)p->sgid_index)) == DOCA_SUCCESS &&
	    (err = doca_verbs_ah_attr_set_hop_limit(ah, QPC_HOP_LIMIT)) == DOCA_SUCCESS &&
	    (err = doca_verbs_ah_attr_set_dlid(ah, p->lid)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTR)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_attr_set_rq_psn(a, p->rq_psn)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_attr_set_dest_qp_num(a, p->qpn)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_attr_set_path_mtu(a, port.active_mtu)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_attr_set_ah_attr(a, ah)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_attr_set_min_rnr_timer(a, QPC_MIN_RNR_TIMER)) == DOCA_SUCCESS)
		err = doca_verbs_qp_modify(qp, a, QPC_MASK_RTR);
	(void)doca_verbs_ah_attr_destroy(ah); /* the QP keeps a copy */
	return err;
}

static doca_error_t to_rts(struct doca_verbs_qp *qp, struct doca_verbs_qp_attr *a, const struct verbs_rc_peer *p)
{
	doca_error_t err;

	if ((err = doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTS)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_sq_psn(a, p->sq_psn)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_ack_timeout(a, QPC_ACK_TIMEOUT)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_retry_cnt(a, QPC_RETRY_CNT)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_rnr_retry(a, QPC_RNR_RETRY)) != DOCA_SUCCESS)
		return err;
	return doca_verbs_qp_modify(qp, a, QPC_MASK_RTS);
}

doca_error_t verbs_qp_connect_rc(struct doca_verbs_context *ctx, struct doca_verbs_qp *qp, const struct verbs_rc_peer *peer)
{
	struct doca_verbs_qp_attr *a = NULL;
	doca_error_t err = doca_verbs_qp_attr_create(&a);

	if (err != DOCA_SUCCESS)
		return err;
	err = to_init(qp, a, peer);
	if (err == DOCA_SUCCESS)
		err = to_rtr(ctx, qp, a, peer);
	if (err == DOCA_SUCCESS)
		err = to_rts(qp, a, peer);
	(void)doca_verbs_qp_attr_destroy(a);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: cannot connect the QP to QPN 0x%x: %s", ctx->info.name, peer->qpn,
			     doca_error_get_descr(err));
	return err;
}

doca_error_t verbs_qp_connect_self(struct doca_verbs_pd *pd, struct doca_verbs_qp *qp, bool allow_remote_write)
{
	struct verbs_rc_peer self = {.allow_remote_write = allow_remote_write ? 1 : 0, .sq_psn = 0x100, .rq_psn = 0x100};
	struct opengda_port_attr port;
	doca_error_t err;

	if ((err = doca_verbs_qp_get_qpn(qp, &self.qpn)) != DOCA_SUCCESS ||
	    (err = opengda_verbs_query_port(pd->ctx, 1, &port)) != DOCA_SUCCESS ||
	    (err = opengda_verbs_query_gid(pd->ctx, 1, 0, &self.gid)) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("connecting a QP to itself: %s", doca_error_get_descr(err));
		return err;
	}
	self.lid = port.lid;
	return verbs_qp_connect_rc(pd->ctx, qp, &self);
}
