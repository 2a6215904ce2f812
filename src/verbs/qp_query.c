/* SPDX-License-Identifier: BSD-3-Clause */
/* QUERY_QP: the device's view of a QP, as DOCA Verbs attributes. */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "prm/prm_qp.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* PRM states DOCA has no name for: SQER and ERR read as ERR, SQD as RTS. */
static enum doca_verbs_qp_state state_from_prm(uint8_t s)
{
	switch (s) {
	case PRM_QP_STATE_RST:
		return DOCA_VERBS_QP_STATE_RST;
	case PRM_QP_STATE_INIT:
		return DOCA_VERBS_QP_STATE_INIT;
	case PRM_QP_STATE_RTR:
		return DOCA_VERBS_QP_STATE_RTR;
	case PRM_QP_STATE_RTS:
	case PRM_QP_STATE_SQD:
		return DOCA_VERBS_QP_STATE_RTS;
	default:
		return DOCA_VERBS_QP_STATE_ERR;
	}
}

static bool gid_is_ipv4_mapped(const uint8_t *g)
{
	static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	return memcmp(g, prefix, sizeof(prefix)) == 0;
}

static void ah_from_path(const struct doca_verbs_qp *qp, const struct prm_ads_params *ads, struct verbs_ah_fields *f)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->gid.raw, ads->rgid_rip, sizeof(f->gid.raw));
	f->sgid_index = ads->src_addr_index;
	f->static_rate = ads->stat_rate;
	f->hop_limit = ads->hop_limit;
	f->traffic_class = ads->tclass;
	f->sl = ads->sl;
	f->dlid = ads->rlid;
	if (qp->ctx->port.link_layer == OGDA_LINK_LAYER_ETHERNET)
		f->addr_type = gid_is_ipv4_mapped(ads->rgid_rip) ? DOCA_VERBS_ADDR_TYPE_IPv4 : DOCA_VERBS_ADDR_TYPE_IPv6;
	else
		f->addr_type = ads->grh ? DOCA_VERBS_ADDR_TYPE_IB_GRH : DOCA_VERBS_ADDR_TYPE_IB_NO_GRH;
}

doca_error_t doca_verbs_qp_query(struct doca_verbs_qp *verbs_qp, struct doca_verbs_qp_attr *verbs_qp_attr,
				 struct doca_verbs_qp_init_attr *verbs_qp_init_attr, int *attr_mask)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_query, (verbs_qp, verbs_qp_attr, verbs_qp_init_attr, attr_mask));
	struct doca_verbs_qp *qp = verbs_qp;
	struct doca_verbs_qp_attr *a = verbs_qp_attr;
	uint8_t in[PRM_QP_CMD_SHORT_SIZE];
	uint8_t *out;
	struct prm_qpc_params q;
	char what[48];
	doca_error_t err;

	if (qp == NULL || a == NULL || verbs_qp_init_attr == NULL || attr_mask == NULL) {
		OGDA_LOG_ERR("verbs_qp, verbs_qp_attr, verbs_qp_init_attr and attr_mask must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	out = calloc(1, PRM_QP_CMD_WITH_QPC_SIZE);
	if (out == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = prm_query_qp_in_build(0, qp->qpn, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = qp->ctx->devx->ops->obj_query(qp->obj, in, sizeof(in), out, PRM_QP_CMD_WITH_QPC_SIZE);
	snprintf(what, sizeof(what), "QUERY_QP 0x%x", qp->qpn);
	err = verbs_cmd_result(err, out, PRM_QP_CMD_WITH_QPC_SIZE, what);
	if (err == DOCA_SUCCESS)
		err = prm_query_qp_out_parse(out, PRM_QP_CMD_WITH_QPC_SIZE, &q);
	free(out);
	if (err != DOCA_SUCCESS)
		return DOCA_ERROR_DRIVER;

	memset(a, 0, sizeof(*a));
	a->current_state = state_from_prm(q.state);
	a->next_state = a->current_state;
	a->path_mtu = q.mtu >= 1 && q.mtu <= 5 ? (enum doca_verbs_mtu_size)(q.mtu - 1) : DOCA_VERBS_MTU_SIZE_256_BYTES;
	a->rq_psn = q.next_rcv_psn;
	a->sq_psn = q.next_send_psn;
	a->dest_qp_num = q.remote_qpn;
	a->allow_remote_write = q.rwe;
	a->allow_remote_read = q.rre;
	a->atomic_mode = q.rae ? q.atomic_mode : DOCA_VERBS_QP_ATOMIC_MODE_NONE;
	ah_from_path(qp, &q.primary_address_path, &a->query_ah.f);
	a->ah_attr = &a->query_ah;
	a->pkey_index = q.primary_address_path.pkey_index;
	a->port_num = q.primary_address_path.vhca_port_num != 0 ? q.primary_address_path.vhca_port_num : 1;
	a->ack_timeout = q.primary_address_path.ack_timeout;
	a->retry_cnt = q.retry_count;
	a->rnr_retry = q.rnr_retry;
	a->min_rnr_timer = q.min_rnr_nak;
	a->max_rd_atomic = (uint8_t)(1u << q.log_sra_max);
	a->max_dest_rd_atomic = (uint8_t)(1u << q.log_rra_max);
	*verbs_qp_init_attr = qp->init;
	*attr_mask = DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_WRITE | DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_READ |
		     DOCA_VERBS_QP_ATTR_PKEY_INDEX | DOCA_VERBS_QP_ATTR_MIN_RNR_TIMER | DOCA_VERBS_QP_ATTR_PORT_NUM |
		     DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_CURRENT_STATE | DOCA_VERBS_QP_ATTR_PATH_MTU |
		     DOCA_VERBS_QP_ATTR_RQ_PSN | DOCA_VERBS_QP_ATTR_SQ_PSN | DOCA_VERBS_QP_ATTR_DEST_QP_NUM |
		     DOCA_VERBS_QP_ATTR_ACK_TIMEOUT | DOCA_VERBS_QP_ATTR_RETRY_CNT | DOCA_VERBS_QP_ATTR_RNR_RETRY |
		     DOCA_VERBS_QP_ATTR_AH_ATTR | DOCA_VERBS_QP_ATTR_ATOMIC_MODE | DOCA_VERBS_QP_ATTR_MAX_QP_RD_ATOMIC |
		     DOCA_VERBS_QP_ATTR_MAX_DEST_RD_ATOMIC;
	/* The device may have moved the QP (to ERR after an error): follow it. */
	qp->state = a->current_state;
	qp->cur.current_state = a->current_state;
	return DOCA_SUCCESS;
}
