/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP state transitions: the DOCA attribute mask is checked against the transition's
 * required and optional attributes (doca_verbs.h), the QPC is composed from the attributes
 * applied so far overlaid with the new ones, and the transition's PRM command is executed.
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_qp.h"
#include "sdk/sdk_forward.h"

#include <stdio.h>
#include <string.h>

#define A(x) DOCA_VERBS_QP_ATTR_##x

/* Attributes a transition takes: required and optional, for RC; UC drops the RC-only ones. */
struct transition {
	enum doca_verbs_qp_state from, to;
	uint16_t opcode;
	int required;
	int optional;
	const char *name;
};

#define ACCESS (A(ALLOW_REMOTE_WRITE) | A(ALLOW_REMOTE_READ) | A(ATOMIC_MODE))
#define RC_ONLY                                                                                               \
	(A(ALLOW_REMOTE_READ) | A(ATOMIC_MODE) | A(MIN_RNR_TIMER) | A(ACK_TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | \
	 A(MAX_QP_RD_ATOMIC) | A(MAX_DEST_RD_ATOMIC))
#define ALWAYS_OK (A(NEXT_STATE) | A(CURRENT_STATE))

static const struct transition transitions[] = {
	{DOCA_VERBS_QP_STATE_RST, DOCA_VERBS_QP_STATE_INIT, PRM_CMD_RST2INIT_QP,
	 ACCESS | A(PKEY_INDEX) | A(PORT_NUM), 0, "RST->INIT"},
	{DOCA_VERBS_QP_STATE_INIT, DOCA_VERBS_QP_STATE_INIT, PRM_CMD_INIT2INIT_QP, 0,
	 ACCESS | A(PKEY_INDEX) | A(PORT_NUM), "INIT->INIT"},
	{DOCA_VERBS_QP_STATE_INIT, DOCA_VERBS_QP_STATE_RTR, PRM_CMD_INIT2RTR_QP,
	 A(RQ_PSN) | A(DEST_QP_NUM) | A(PATH_MTU) | A(AH_ATTR) | A(MIN_RNR_TIMER),
	 ACCESS | A(PKEY_INDEX) | A(MAX_DEST_RD_ATOMIC), "INIT->RTR"},
	{DOCA_VERBS_QP_STATE_RTR, DOCA_VERBS_QP_STATE_RTS, PRM_CMD_RTR2RTS_QP,
	 A(SQ_PSN) | A(ACK_TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY),
	 A(ALLOW_REMOTE_WRITE) | A(MIN_RNR_TIMER) | A(MAX_QP_RD_ATOMIC), "RTR->RTS"},
	{DOCA_VERBS_QP_STATE_RTS, DOCA_VERBS_QP_STATE_RTS, PRM_CMD_RTS2RTS_QP, 0,
	 ACCESS | A(MIN_RNR_TIMER), "RTS->RTS"},
};

static const char *state_name(enum doca_verbs_qp_state s)
{
	static const char *const names[] = {"RST", "INIT", "RTR", "RTS", "ERR"};

	return (unsigned)s < 5u ? names[s] : "?";
}

static const char *attr_name(int bit)
{
	static const char *const names[] = {
		"allow_remote_write", "allow_remote_read", "pkey_index", "min_rnr_timer", "port_num", "next_state",
		"current_state", "path_mtu", "rq_psn", "sq_psn", "dest_qp_num", "ack_timeout", "retry_cnt",
		"rnr_retry", "ah_attr", "atomic_mode", "max_rd_atomic", "max_dest_rd_atomic"};

	return bit >= 0 && bit < (int)(sizeof(names) / sizeof(names[0])) ? names[bit] : "unknown";
}

static int lowest_bit(int mask)
{
	for (int b = 0; b < 31; b++)
		if (mask & (1 << b))
			return b;
	return -1;
}

#define ALL_ATTRS ((1 << 18) - 1)

static doca_error_t check_mask(const struct doca_verbs_qp *qp, const struct transition *t, int mask)
{
	int required = t->required, allowed = t->required | t->optional | ALWAYS_OK;
	int missing, extra;

	if (qp->init.qp_type == DOCA_VERBS_QP_TYPE_UC) {
		required &= ~RC_ONLY;
		allowed &= ~RC_ONLY;
	}
	missing = required & ~mask;
	extra = mask & ~allowed;
	if (missing != 0) {
		OGDA_LOG_ERR("%s: QP 0x%x %s needs %s in the attribute mask", qp->ctx->info.name, qp->qpn, t->name,
			     attr_name(lowest_bit(missing)));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (extra != 0) {
		OGDA_LOG_ERR("%s: QP 0x%x %s (%s) does not take %s", qp->ctx->info.name, qp->qpn, t->name,
			     qp->init.qp_type == DOCA_VERBS_QP_TYPE_UC ? "UC" : "RC", attr_name(lowest_bit(extra)));
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* RoCE v2 UDP source port: spread connections over the device's range (ECMP entropy). */
static uint16_t udp_sport(const struct doca_verbs_qp *qp, uint32_t dest_qpn)
{
	const struct prm_hca_cap_roce *r = &qp->ctx->caps.roce;
	uint32_t lo = r->r_roce_min_src_udp_port, hi = r->r_roce_max_src_udp_port;
	uint32_t h = (qp->qpn * 0x9e3779b1u) ^ (dest_qpn * 0x85ebca6bu);

	if (lo == 0 || hi < lo) { /* no range reported: the dynamic port range */
		lo = 0xc000;
		hi = 0xffff;
	}
	return (uint16_t)(lo + (h >> 8) % (hi - lo + 1u));
}

static doca_error_t fill_path(const struct doca_verbs_qp *qp, const struct doca_verbs_qp_attr *attr,
			      uint32_t dest_qpn, struct prm_ads_params *ads)
{
	const struct doca_verbs_context *ctx = qp->ctx;
	const struct verbs_ah_fields *ah = &attr->ah_attr->f;
	bool eth = ctx->port.link_layer == OGDA_LINK_LAYER_ETHERNET;

	if (ah->sgid_index >= ctx->port.gid_tbl_len) {
		OGDA_LOG_ERR("%s: QP 0x%x: sgid_index %u is beyond the GID table of %u entries", ctx->info.name,
			     qp->qpn, ah->sgid_index, ctx->port.gid_tbl_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ads->src_addr_index = ah->sgid_index;
	ads->stat_rate = ah->static_rate;
	ads->hop_limit = ah->hop_limit;
	ads->tclass = ah->traffic_class;
	ads->sl = ah->sl;
	if (eth) {
		doca_error_t err;

		if (ah->addr_type != DOCA_VERBS_ADDR_TYPE_IPv4 && ah->addr_type != DOCA_VERBS_ADDR_TYPE_IPv6) {
			OGDA_LOG_ERR("%s: QP 0x%x: the port is Ethernet (RoCE): the AH address type must be IPv4 or IPv6",
				     ctx->info.name, qp->qpn);
			return DOCA_ERROR_INVALID_VALUE;
		}
		memcpy(ads->rgid_rip, ah->gid.raw, sizeof(ads->rgid_rip));
		ads->eth_prio = ah->sl & 7u;
		ads->udp_sport = udp_sport(qp, dest_qpn);
		err = ctx->devx->ops->resolve_rmac(ctx->devx, 1, ah->sgid_index, ah->gid.raw, ads->rmac);
		if (err != DOCA_SUCCESS) {
			OGDA_LOG_ERR("%s: QP 0x%x: no route to the remote GID (next-hop MAC unresolved): %s",
				     ctx->info.name, qp->qpn, doca_error_get_descr(err));
			return DOCA_ERROR_INVALID_VALUE;
		}
		return DOCA_SUCCESS;
	}
	if (ah->addr_type == DOCA_VERBS_ADDR_TYPE_IPv4 || ah->addr_type == DOCA_VERBS_ADDR_TYPE_IPv6) {
		OGDA_LOG_ERR("%s: QP 0x%x: the port is InfiniBand: the AH address type must be IB_GRH or IB_NO_GRH",
			     ctx->info.name, qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ads->rlid = (uint16_t)ah->dlid;
	if (ah->addr_type == DOCA_VERBS_ADDR_TYPE_IB_GRH) {
		ads->grh = 1;
		memcpy(ads->rgid_rip, ah->gid.raw, sizeof(ads->rgid_rip));
	}
	return DOCA_SUCCESS;
}

/* The QPC of a transition: what the QP has so far, overlaid with the masked attributes. */
static doca_error_t compose(const struct doca_verbs_qp *qp, const struct doca_verbs_qp_attr *cur, int mask,
			    struct prm_modify_qp_params *p)
{
	struct prm_qpc_params *q = &p->qpc;
	struct prm_ads_params *ads = &q->primary_address_path;
	const struct doca_verbs_context *ctx = qp->ctx;

	q->rwe = (uint8_t)(cur->allow_remote_write != 0);
	q->rre = (uint8_t)(cur->allow_remote_read != 0);
	q->rae = (uint8_t)(cur->atomic_mode != DOCA_VERBS_QP_ATOMIC_MODE_NONE);
	q->atomic_mode = cur->atomic_mode;
	ads->pkey_index = cur->pkey_index;
	ads->vhca_port_num = (uint8_t)cur->port_num;
	q->min_rnr_nak = (uint8_t)cur->min_rnr_timer;
	q->mtu = (uint8_t)(cur->path_mtu + 1);
	q->next_rcv_psn = cur->rq_psn;
	q->next_send_psn = cur->sq_psn;
	q->remote_qpn = cur->dest_qp_num;
	ads->ack_timeout = (uint8_t)cur->ack_timeout;
	q->retry_count = (uint8_t)cur->retry_cnt;
	q->rnr_retry = (uint8_t)cur->rnr_retry;
	q->log_sra_max = (uint8_t)verbs_log2_ceil(cur->max_rd_atomic);
	q->log_rra_max = (uint8_t)verbs_log2_ceil(cur->max_dest_rd_atomic);
	if (q->atomic_mode > ctx->caps.gen.atomic * DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_256BYTES) {
		OGDA_LOG_ERR("%s: QP 0x%x: the device has no atomics", ctx->info.name, qp->qpn);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if ((mask & A(PATH_MTU)) && cur->path_mtu > (enum doca_verbs_mtu_size)(ctx->port.active_mtu - 1)) {
		OGDA_LOG_ERR("%s: QP 0x%x: path MTU code %d is above the port's active MTU code %d: use the smaller of "
			     "both ends' port MTU (opengda_verbs_query_port)",
			     ctx->info.name, qp->qpn, (int)cur->path_mtu, ctx->port.active_mtu - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (q->log_sra_max > ctx->caps.gen.log_max_ra_req_qp || q->log_rra_max > ctx->caps.gen.log_max_ra_res_qp) {
		OGDA_LOG_ERR("%s: QP 0x%x: max_rd_atomic %u / max_dest_rd_atomic %u exceed the device's %u / %u",
			     ctx->info.name, qp->qpn, cur->max_rd_atomic, cur->max_dest_rd_atomic,
			     1u << ctx->caps.gen.log_max_ra_req_qp, 1u << ctx->caps.gen.log_max_ra_res_qp);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cur->ah_attr != NULL && p->opcode == PRM_CMD_INIT2RTR_QP) { /* the one command carrying the path */
		doca_error_t err = fill_path(qp, cur, cur->dest_qp_num, ads);

		if (err != DOCA_SUCCESS)
			return err;
	}
	/* Optional attributes given in the mask (the device ignores optional fields not flagged). */
	if (mask & A(ALLOW_REMOTE_WRITE))
		p->opt_param_mask |= PRM_QP_OPTPAR_RWE;
	if (mask & A(ALLOW_REMOTE_READ))
		p->opt_param_mask |= PRM_QP_OPTPAR_RRE;
	if (mask & A(ATOMIC_MODE))
		p->opt_param_mask |= PRM_QP_OPTPAR_RAE;
	if (mask & A(PKEY_INDEX))
		p->opt_param_mask |= PRM_QP_OPTPAR_PKEY_INDEX;
	if (mask & A(MIN_RNR_TIMER))
		p->opt_param_mask |= PRM_QP_OPTPAR_RNR_TIMEOUT;
	if (mask & A(MAX_QP_RD_ATOMIC))
		p->opt_param_mask |= PRM_QP_OPTPAR_SRA_MAX;
	if (mask & A(MAX_DEST_RD_ATOMIC))
		p->opt_param_mask |= PRM_QP_OPTPAR_RRA_MAX;
	return DOCA_SUCCESS;
}

/* The attributes after this modify: cur overlaid with the masked fields of attr. */
static void overlay(struct doca_verbs_qp_attr *cur, const struct doca_verbs_qp_attr *attr, int mask)
{
	if (mask & A(ALLOW_REMOTE_WRITE))
		cur->allow_remote_write = attr->allow_remote_write;
	if (mask & A(ALLOW_REMOTE_READ))
		cur->allow_remote_read = attr->allow_remote_read;
	if (mask & A(ATOMIC_MODE))
		cur->atomic_mode = attr->atomic_mode;
	if (mask & A(PKEY_INDEX))
		cur->pkey_index = attr->pkey_index;
	if (mask & A(MIN_RNR_TIMER))
		cur->min_rnr_timer = attr->min_rnr_timer;
	if (mask & A(PORT_NUM))
		cur->port_num = attr->port_num;
	if (mask & A(PATH_MTU))
		cur->path_mtu = attr->path_mtu;
	if (mask & A(RQ_PSN))
		cur->rq_psn = attr->rq_psn;
	if (mask & A(SQ_PSN))
		cur->sq_psn = attr->sq_psn;
	if (mask & A(DEST_QP_NUM))
		cur->dest_qp_num = attr->dest_qp_num;
	if (mask & A(ACK_TIMEOUT))
		cur->ack_timeout = attr->ack_timeout;
	if (mask & A(RETRY_CNT))
		cur->retry_cnt = attr->retry_cnt;
	if (mask & A(RNR_RETRY))
		cur->rnr_retry = attr->rnr_retry;
	if (mask & A(MAX_QP_RD_ATOMIC))
		cur->max_rd_atomic = attr->max_rd_atomic;
	if (mask & A(MAX_DEST_RD_ATOMIC))
		cur->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & A(AH_ATTR)) {
		cur->query_ah.f = attr->ah_attr->f;
		cur->ah_attr = &cur->query_ah;
	}
}

static doca_error_t run_transition(struct doca_verbs_qp *qp, struct prm_modify_qp_params *p, const char *name)
{
	struct doca_verbs_context *ctx = qp->ctx;
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE];
	uint8_t out[PRM_QP_CMD_SHORT_SIZE];
	char what[64];
	doca_error_t err;

	p->qpn = qp->qpn;
	err = prm_modify_qp_in_build(p, in, sizeof(in));
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: QP 0x%x %s: an attribute does not fit its PRM field", ctx->info.name, qp->qpn, name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(out, 0, sizeof(out));
	err = ctx->devx->ops->obj_modify(qp->obj, in, sizeof(in), out, sizeof(out));
	snprintf(what, sizeof(what), "QP 0x%x %s", qp->qpn, name);
	err = verbs_cmd_result(err, out, sizeof(out), what);
	if (err == DOCA_SUCCESS || err == DOCA_ERROR_BAD_STATE || err == DOCA_ERROR_INVALID_VALUE)
		return err;
	return DOCA_ERROR_DRIVER;
}

/* Back to RST: the rings restart from index 0, as after creation. */
static void reset_tracking(struct doca_verbs_qp *qp)
{
	qp->sq_pi = qp->sq_ci = 0;
	qp->rq_pi = qp->rq_ci = 0;
	qp->bf_offset = 0;
	(void)verbs_dbr_clear(qp->dbr);
}

doca_error_t doca_verbs_qp_modify(struct doca_verbs_qp *verbs_qp, struct doca_verbs_qp_attr *verbs_qp_attr, int attr_mask)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_modify, (verbs_qp, verbs_qp_attr, attr_mask));
	struct doca_verbs_qp *qp = verbs_qp;
	const struct transition *t = NULL;
	struct prm_modify_qp_params p;
	struct doca_verbs_qp_attr next;
	enum doca_verbs_qp_state to;
	doca_error_t err;

	if (qp == NULL || verbs_qp_attr == NULL) {
		OGDA_LOG_ERR("verbs_qp and verbs_qp_attr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((attr_mask & ~ALL_ATTRS) != 0 || !(attr_mask & A(NEXT_STATE))) {
		OGDA_LOG_ERR("%s: QP 0x%x: attr_mask 0x%x must hold DOCA_VERBS_QP_ATTR_NEXT_STATE and only "
			     "DOCA_VERBS_QP_ATTR_* bits",
			     qp->ctx->info.name, qp->qpn, attr_mask);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((attr_mask & A(CURRENT_STATE)) && verbs_qp_attr->current_state != qp->state) {
		OGDA_LOG_ERR("%s: QP 0x%x is in %s, not %s as current_state says", qp->ctx->info.name, qp->qpn,
			     state_name(qp->state), state_name(verbs_qp_attr->current_state));
		return DOCA_ERROR_BAD_STATE;
	}
	if ((attr_mask & A(AH_ATTR)) && verbs_qp_attr->ah_attr == NULL) {
		OGDA_LOG_ERR("%s: QP 0x%x: the mask names ah_attr but none is set", qp->ctx->info.name, qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	to = verbs_qp_attr->next_state;
	memset(&p, 0, sizeof(p));
	if (to == DOCA_VERBS_QP_STATE_RST || to == DOCA_VERBS_QP_STATE_ERR) {
		if ((attr_mask & ~ALWAYS_OK) != 0) {
			OGDA_LOG_ERR("%s: QP 0x%x ->%s takes only next_state", qp->ctx->info.name, qp->qpn,
				     state_name(to));
			return DOCA_ERROR_INVALID_VALUE;
		}
		p.opcode = to == DOCA_VERBS_QP_STATE_RST ? PRM_CMD_2RST_QP : PRM_CMD_2ERR_QP;
		err = run_transition(qp, &p, to == DOCA_VERBS_QP_STATE_RST ? "->RST" : "->ERR");
		if (err != DOCA_SUCCESS)
			return err;
		if (to == DOCA_VERBS_QP_STATE_RST)
			reset_tracking(qp);
		qp->state = to;
		qp->cur.current_state = to;
		return DOCA_SUCCESS;
	}
	for (size_t i = 0; i < sizeof(transitions) / sizeof(transitions[0]); i++)
		if (transitions[i].from == qp->state && transitions[i].to == to)
			t = &transitions[i];
	if (t == NULL) {
		OGDA_LOG_ERR("%s: QP 0x%x cannot go from %s to %s", qp->ctx->info.name, qp->qpn, state_name(qp->state),
			     state_name(to));
		return DOCA_ERROR_BAD_STATE;
	}
	if (t->opcode == PRM_CMD_RTS2RTS_QP && (attr_mask & A(AH_ATTR))) {
		/* RTS2RTS_QP carries no primary address path on mlx5 (only the alternate one). */
		OGDA_LOG_ERR("%s: QP 0x%x: an mlx5 device cannot change the path of a QP in RTS; take it through "
			     "RST (->RST, ->INIT, ->RTR with the new ah_attr, ->RTS)",
			     qp->ctx->info.name, qp->qpn);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = check_mask(qp, t, attr_mask);
	if (err != DOCA_SUCCESS)
		return err;
	next = qp->cur;
	overlay(&next, verbs_qp_attr, attr_mask);
	if (next.port_num == 0)
		next.port_num = 1;
	p.opcode = t->opcode;
	err = compose(qp, &next, attr_mask, &p);
	if (err != DOCA_SUCCESS)
		return err;
	err = run_transition(qp, &p, t->name);
	if (err != DOCA_SUCCESS)
		return err;
	next.current_state = to;
	next.next_state = to;
	qp->cur = next;
	if (qp->cur.ah_attr != NULL)
		qp->cur.ah_attr = &qp->cur.query_ah;
	qp->state = to;
	return DOCA_SUCCESS;
}
