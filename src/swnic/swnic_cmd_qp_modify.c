/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP state transitions, with the IB-spec state rules:
 *
 *   RST2INIT   RST  -> INIT   port (vhca_port_num = 1), pkey_index < 128, access flags, atomic_mode
 *   INIT2INIT  INIT -> INIT   optional: access flags, pkey_index, port, q_key, counter set
 *   INIT2RTR   INIT -> RTR    mtu 256..4096 and <= the port MTU, remote_qpn != 0, rgid (RoCE),
 *                             src_addr_index 0, log_msg_max <= log_max_msg (0: the maximum),
 *                             log_rra_max <= log_max_ra_res_qp, min_rnr_nak, next_rcv_psn
 *   RTR2RTS    RTR  -> RTS    retry_count, rnr_retry, ack_timeout, next_send_psn,
 *                             log_sra_max <= log_max_ra_req_qp
 *   RTS2RTS    RTS  -> RTS    optional: access flags, min_rnr_nak, ack_timeout, pm_state
 *   SQERR2RTS  SQER -> RTS    optional: access flags, min_rnr_nak
 *   2ERR       any  -> ERR
 *   2RST       any  -> RST    connection attributes cleared; the engine rewinds the queues
 *
 * "Optional" fields apply only where opt_param_mask selects them, as on hardware. A wrong
 * current state is BAD_QP_STATE; a missing or invalid required attribute is BAD_PARAM;
 * either way the QP is left untouched. The engine learns of every transition.
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_qp.h"

#include <string.h>

struct transition {
	uint16_t opcode;
	int from;        /* required current state; -1: any */
	uint8_t to;
};

static const struct transition transitions[] = {
	{PRM_CMD_RST2INIT_QP, PRM_QP_STATE_RST, PRM_QP_STATE_INIT},
	{PRM_CMD_INIT2INIT_QP, PRM_QP_STATE_INIT, PRM_QP_STATE_INIT},
	{PRM_CMD_INIT2RTR_QP, PRM_QP_STATE_INIT, PRM_QP_STATE_RTR},
	{PRM_CMD_RTR2RTS_QP, PRM_QP_STATE_RTR, PRM_QP_STATE_RTS},
	{PRM_CMD_RTS2RTS_QP, PRM_QP_STATE_RTS, PRM_QP_STATE_RTS},
	{PRM_CMD_SQERR2RTS_QP, PRM_QP_STATE_SQER, PRM_QP_STATE_RTS},
	{PRM_CMD_2ERR_QP, -1, PRM_QP_STATE_ERR},
	{PRM_CMD_2RST_QP, -1, PRM_QP_STATE_RST},
};

static const char *state_name(uint8_t state)
{
	switch (state) {
	case PRM_QP_STATE_RST:
		return "RST";
	case PRM_QP_STATE_INIT:
		return "INIT";
	case PRM_QP_STATE_RTR:
		return "RTR";
	case PRM_QP_STATE_RTS:
		return "RTS";
	case PRM_QP_STATE_SQER:
		return "SQER";
	case PRM_QP_STATE_ERR:
		return "ERR";
	case PRM_QP_STATE_SQD:
		return "SQD";
	default:
		return "?";
	}
}

/* ---- checks (no side effects) ---- */

static uint8_t check_port(struct swnic_cmd *c, uint8_t port, bool required)
{
	if (port == SWNIC_PORT_NUM || (port == 0 && !required))
		return PRM_STATUS_OK;
	return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_PORT, "vhca_port_num %u: the port is %u", port,
			      SWNIC_PORT_NUM);
}

/*
 * The caps report the smallest P_Key table the encoding allows (pkey_table_size 0 = 128
 * entries); every entry holds the default P_Key, so any index below 128 is accepted.
 */
#define SWNIC_PKEY_TABLE_ENTRIES 128u

static uint8_t check_pkey(struct swnic_cmd *c, uint16_t pkey_index)
{
	if (pkey_index < SWNIC_PKEY_TABLE_ENTRIES)
		return PRM_STATUS_OK;
	return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_PKEY_INDEX,
			      "pkey_index %u: the P_Key table has %u entries", pkey_index, SWNIC_PKEY_TABLE_ENTRIES);
}

static uint8_t check_rst2init(struct swnic_cmd *c, const struct prm_qpc_params *q)
{
	uint8_t st = check_port(c, q->primary_address_path.vhca_port_num, true);

	if (st == PRM_STATUS_OK)
		st = check_pkey(c, q->primary_address_path.pkey_index);
	if (st == PRM_STATUS_OK && q->atomic_mode > PRM_QP_ATOMIC_MODE_UP_TO_8B)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_ATOMIC_MODE,
				    "atomic_mode %u: atomics are 4 and 8 bytes (up to mode %u)", q->atomic_mode,
				    PRM_QP_ATOMIC_MODE_UP_TO_8B);
	return st;
}

static uint8_t check_init2init(struct swnic_cmd *c, uint32_t mask, const struct prm_qpc_params *q)
{
	uint8_t st = PRM_STATUS_OK;

	if (mask & PRM_QP_OPTPAR_PRI_PORT)
		st = check_port(c, q->primary_address_path.vhca_port_num, true);
	if (st == PRM_STATUS_OK && (mask & PRM_QP_OPTPAR_PKEY_INDEX))
		st = check_pkey(c, q->primary_address_path.pkey_index);
	return st;
}

static bool gid_is_zero(const uint8_t gid[16])
{
	static const uint8_t zero[16];

	return memcmp(gid, zero, sizeof(zero)) == 0;
}

static uint8_t check_init2rtr(struct swnic_cmd *c, const struct prm_qpc_params *q)
{
	const struct prm_hca_cap_general *g = &c->nic->cap_general;
	const struct prm_ads_params *ap = &q->primary_address_path;

	if (q->mtu < PRM_QP_MTU_256 || q->mtu > PRM_QP_MTU_4096)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_MTU,
				      "mtu %u: the port takes 1 (256) .. 5 (4096)", q->mtu);
	if (q->mtu > c->nic->port_mtu)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_MTU,
				      "mtu %u (%u bytes) exceeds the port MTU %u (%u bytes, OPENGDA_SWNIC_MTU)", q->mtu,
				      128u << q->mtu, c->nic->port_mtu, 128u << c->nic->port_mtu);
	if (q->log_msg_max > g->log_max_msg)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_MSG_MAX,
				      "log_msg_max %u exceeds log_max_msg %u", q->log_msg_max, g->log_max_msg);
	if (q->remote_qpn == 0)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_REMOTE_QPN, "remote_qpn is missing");
	if (gid_is_zero(ap->rgid_rip))
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RGID,
				      "primary_address_path.rgid_rip is missing (RoCE needs the peer's GID)");
	if (ap->src_addr_index != 0)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_GID_REF,
				      "src_addr_index %u: the GID table has one entry", ap->src_addr_index);
	if (check_port(c, ap->vhca_port_num, false) != PRM_STATUS_OK)
		return PRM_STATUS_BAD_PARAM;
	if (check_pkey(c, ap->pkey_index) != PRM_STATUS_OK)
		return PRM_STATUS_BAD_PARAM;
	if (q->log_rra_max > g->log_max_ra_res_qp)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RA_MAX,
				      "log_rra_max %u exceeds log_max_ra_res_qp %u", q->log_rra_max,
				      g->log_max_ra_res_qp);
	return PRM_STATUS_OK;
}

static uint8_t check_rtr2rts(struct swnic_cmd *c, const struct prm_qpc_params *q)
{
	const struct prm_hca_cap_general *g = &c->nic->cap_general;

	if (q->log_sra_max > g->log_max_ra_req_qp)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_RA_MAX,
				      "log_sra_max %u exceeds log_max_ra_req_qp %u", q->log_sra_max,
				      g->log_max_ra_req_qp);
	return PRM_STATUS_OK;
}

static uint8_t check_transition(struct swnic_cmd *c, const struct prm_modify_qp_params *p)
{
	switch (p->opcode) {
	case PRM_CMD_RST2INIT_QP:
		return check_rst2init(c, &p->qpc);
	case PRM_CMD_INIT2INIT_QP:
		return check_init2init(c, p->opt_param_mask, &p->qpc);
	case PRM_CMD_INIT2RTR_QP:
		return check_init2rtr(c, &p->qpc);
	case PRM_CMD_RTR2RTS_QP:
		return check_rtr2rts(c, &p->qpc);
	default:
		return PRM_STATUS_OK;
	}
}

/* ---- application (qp->lock held; the checks passed) ---- */

static void apply_access(struct swnic_qp_obj *o, uint32_t mask, const struct prm_qpc_params *q, bool all)
{
	struct swnic_qp *qp = &o->qp;

	if (all || (mask & PRM_QP_OPTPAR_RRE)) {
		qp->rre = q->rre != 0;
		o->qpc.rre = q->rre;
	}
	if (all || (mask & PRM_QP_OPTPAR_RWE)) {
		qp->rwe = q->rwe != 0;
		o->qpc.rwe = q->rwe;
	}
	if (all || (mask & PRM_QP_OPTPAR_RAE)) {
		qp->rae = q->rae != 0;
		o->qpc.rae = q->rae;
	}
}

static void apply_rst2init(struct swnic_qp_obj *o, const struct prm_qpc_params *q)
{
	apply_access(o, 0, q, true);
	o->qp.atomic_mode = q->atomic_mode;
	o->qp.port = q->primary_address_path.vhca_port_num;
	o->qpc.atomic_mode = q->atomic_mode;
	o->qpc.pm_state = q->pm_state;
	o->qpc.counter_set_id = q->counter_set_id;
	o->qpc.q_key = q->q_key;
	o->qpc.primary_address_path.vhca_port_num = q->primary_address_path.vhca_port_num;
	o->qpc.primary_address_path.pkey_index = q->primary_address_path.pkey_index;
}

static void apply_init2init(struct swnic_qp_obj *o, uint32_t mask, const struct prm_qpc_params *q)
{
	apply_access(o, mask, q, false);
	if (mask & PRM_QP_OPTPAR_PRI_PORT) {
		o->qp.port = q->primary_address_path.vhca_port_num;
		o->qpc.primary_address_path.vhca_port_num = q->primary_address_path.vhca_port_num;
	}
	if (mask & PRM_QP_OPTPAR_PKEY_INDEX)
		o->qpc.primary_address_path.pkey_index = q->primary_address_path.pkey_index;
	if (mask & PRM_QP_OPTPAR_Q_KEY)
		o->qpc.q_key = q->q_key;
	if (mask & PRM_QP_OPTPAR_COUNTER_SET_ID)
		o->qpc.counter_set_id = q->counter_set_id;
}

static void apply_init2rtr(struct swnic_qp_obj *o, struct swnic *nic, const struct prm_qpc_params *q)
{
	struct swnic_qp *qp = &o->qp;
	uint8_t ack_timeout = o->qpc.primary_address_path.ack_timeout;
	uint8_t port = o->qpc.primary_address_path.vhca_port_num;

	qp->mtu = q->mtu;
	qp->log_msg_max = q->log_msg_max != 0 ? q->log_msg_max : nic->cap_general.log_max_msg;
	qp->remote_qpn = q->remote_qpn;
	memcpy(qp->remote_gid, q->primary_address_path.rgid_rip, sizeof(qp->remote_gid));
	qp->next_rcv_psn = q->next_rcv_psn;
	qp->min_rnr_nak = q->min_rnr_nak;
	qp->log_rra_max = q->log_rra_max;

	o->qpc.mtu = q->mtu;
	o->qpc.log_msg_max = qp->log_msg_max;
	o->qpc.remote_qpn = q->remote_qpn;
	o->qpc.next_rcv_psn = q->next_rcv_psn;
	o->qpc.min_rnr_nak = q->min_rnr_nak;
	o->qpc.log_rra_max = q->log_rra_max;
	/* The whole path but ack_timeout (RTR2RTS sets it) and a port left at 0 ("unchanged"). */
	o->qpc.primary_address_path = q->primary_address_path;
	o->qpc.primary_address_path.ack_timeout = ack_timeout;
	if (q->primary_address_path.vhca_port_num == 0)
		o->qpc.primary_address_path.vhca_port_num = port;
}

static void apply_rtr2rts(struct swnic_qp_obj *o, const struct prm_qpc_params *q)
{
	struct swnic_qp *qp = &o->qp;

	qp->retry_count = q->retry_count;
	qp->rnr_retry = q->rnr_retry;
	qp->ack_timeout = q->primary_address_path.ack_timeout;
	qp->next_send_psn = q->next_send_psn;
	qp->log_sra_max = q->log_sra_max;

	o->qpc.retry_count = q->retry_count;
	o->qpc.rnr_retry = q->rnr_retry;
	o->qpc.primary_address_path.ack_timeout = q->primary_address_path.ack_timeout;
	o->qpc.next_send_psn = q->next_send_psn;
	o->qpc.log_sra_max = q->log_sra_max;
	o->qpc.log_ack_req_freq = q->log_ack_req_freq;
}

static void apply_rts2rts(struct swnic_qp_obj *o, uint32_t mask, const struct prm_qpc_params *q)
{
	apply_access(o, mask, q, false);
	if (mask & PRM_QP_OPTPAR_RNR_TIMEOUT) {
		o->qp.min_rnr_nak = q->min_rnr_nak;
		o->qpc.min_rnr_nak = q->min_rnr_nak;
	}
	if (mask & PRM_QP_OPTPAR_ACK_TIMEOUT) {
		o->qp.ack_timeout = q->primary_address_path.ack_timeout;
		o->qpc.primary_address_path.ack_timeout = q->primary_address_path.ack_timeout;
	}
	if (mask & PRM_QP_OPTPAR_PM_STATE)
		o->qpc.pm_state = q->pm_state;
}

static void apply_sqerr2rts(struct swnic_qp_obj *o, uint32_t mask, const struct prm_qpc_params *q)
{
	apply_access(o, mask, q, false);
	if (mask & PRM_QP_OPTPAR_RNR_TIMEOUT) {
		o->qp.min_rnr_nak = q->min_rnr_nak;
		o->qpc.min_rnr_nak = q->min_rnr_nak;
	}
}

/* Back to a fresh QP: everything the transitions set is forgotten, creation attributes stay. */
static void apply_2rst(struct swnic_qp_obj *o)
{
	struct swnic_qp *qp = &o->qp;
	struct prm_qpc_params *s = &o->qpc;

	qp->mtu = 0;
	qp->log_msg_max = 0;
	qp->remote_qpn = 0;
	memset(qp->remote_gid, 0, sizeof(qp->remote_gid));
	qp->next_send_psn = 0;
	qp->next_rcv_psn = 0;
	qp->retry_count = 0;
	qp->rnr_retry = 0;
	qp->min_rnr_nak = 0;
	qp->ack_timeout = 0;
	qp->rwe = qp->rre = qp->rae = false;
	qp->atomic_mode = 0;
	qp->log_rra_max = qp->log_sra_max = 0;
	qp->port = 0;
	if (qp->has_rq && qp->srq == NULL) {
		/* A reset RQ starts again at entry 0, as the producer's zeroed doorbell record does. */
		pthread_mutex_lock(&qp->rq.lock);
		qp->rq.ci = 0;
		pthread_mutex_unlock(&qp->rq.lock);
	}

	s->mtu = s->log_msg_max = 0;
	s->remote_qpn = 0;
	memset(&s->primary_address_path, 0, sizeof(s->primary_address_path));
	s->next_send_psn = s->next_rcv_psn = 0;
	s->retry_count = s->rnr_retry = s->min_rnr_nak = 0;
	s->rwe = s->rre = s->rae = s->atomic_mode = 0;
	s->log_rra_max = s->log_sra_max = s->log_ack_req_freq = 0;
	s->q_key = 0;
	s->counter_set_id = 0;
}

static void apply_transition(struct swnic_qp_obj *o, struct swnic *nic, const struct prm_modify_qp_params *p)
{
	switch (p->opcode) {
	case PRM_CMD_RST2INIT_QP:
		apply_rst2init(o, &p->qpc);
		break;
	case PRM_CMD_INIT2INIT_QP:
		apply_init2init(o, p->opt_param_mask, &p->qpc);
		break;
	case PRM_CMD_INIT2RTR_QP:
		apply_init2rtr(o, nic, &p->qpc);
		break;
	case PRM_CMD_RTR2RTS_QP:
		apply_rtr2rts(o, &p->qpc);
		break;
	case PRM_CMD_RTS2RTS_QP:
		apply_rts2rts(o, p->opt_param_mask, &p->qpc);
		break;
	case PRM_CMD_SQERR2RTS_QP:
		apply_sqerr2rts(o, p->opt_param_mask, &p->qpc);
		break;
	case PRM_CMD_2RST_QP:
		apply_2rst(o);
		break;
	default:
		break;
	}
}

uint8_t swnic_cmd_modify_qp(struct swnic_cmd *c)
{
	struct prm_modify_qp_params p;
	const struct transition *t = NULL;
	struct swnic_qp_obj *o;
	struct swnic_qp *qp;
	uint8_t old, st;
	size_t i;

	if (prm_modify_qp_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	for (i = 0; i < sizeof(transitions) / sizeof(transitions[0]); i++)
		if (transitions[i].opcode == p.opcode)
			t = &transitions[i];
	if (t == NULL)
		return swnic_cmd_malformed(c);
	qp = swnic_qp_acquire(c->nic, p.qpn);
	if (qp != NULL && qp->st == SWNIC_QP_ST_ETH) { /* an Ethernet SQ moves with MODIFY_SQ */
		swnic_qp_release(qp);
		qp = NULL;
	}
	if (qp == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_QPN, "no QP 0x%x", p.qpn);
	o = (struct swnic_qp_obj *)qp;

	pthread_mutex_lock(&qp->lock);
	old = atomic_load(&qp->state);
	if (t->from >= 0 && old != (uint8_t)t->from)
		st = swnic_cmd_fail(c, PRM_STATUS_BAD_QP_STATE, SWNIC_SYND_QP_STATE, "QP 0x%x is in %s, not %s",
				    p.qpn, state_name(old), state_name((uint8_t)t->from));
	else
		st = check_transition(c, &p);
	if (st == PRM_STATUS_OK) {
		apply_transition(o, c->nic, &p);
		o->qpc.state = t->to;
		atomic_store(&qp->state, t->to);
	}
	pthread_mutex_unlock(&qp->lock);

	if (st == PRM_STATUS_OK) {
		/* Outside qp->lock: the engine takes it to flush or rewind. */
		swnic_engine_qp_modified(c->nic->engine, qp, old);
		OGDA_LOG_DBG("%s: QP 0x%x %s -> %s", c->nic->name, p.qpn, state_name(old), state_name(t->to));
	}
	swnic_qp_release(qp);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_qp_status_out_build(p.opcode, PRM_STATUS_OK, 0, c->out, c->outlen) == DOCA_SUCCESS
		       ? PRM_STATUS_OK
		       : swnic_cmd_malformed(c);
}
