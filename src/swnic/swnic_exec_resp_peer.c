/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who may talk to a responder QP, and in what order (swnic_exec_resp_int.h).
 *
 * A request is executed only when it comes from the QP's connected peer, the remote QPN
 * and GID that INIT2RTR set, and, on RC, carries the PSN the QP expects next
 * (qp->next_rcv_psn, from INIT2RTR). Behind it (within half the 24-bit PSN space) is a
 * duplicate: the requester resent after a lost or late answer, and IB's rules apply:
 * WRITE and SEND were executed already and are only acknowledged, READ is read again,
 * an atomic gets the saved result of its first execution. Ahead of it is a gap that a
 * correct requester never leaves: dropped. UC has no retransmission: any PSN starts a
 * new message and resynchronises.
 *
 * A request from anyone else, and a dropped one, is answered NO_QP, the answer for a QP
 * that does not exist: a stranger cannot tell live QPNs from dead ones.
 */
#include "swnic/swnic_exec_resp_int.h"

#include "core/log.h"
#include "prm/prm_qpc.h"

#include <string.h>

#define PSN_MASK 0xffffffu
#define PSN_HALF 0x800000u

static bool op_is_atomic(uint8_t op)
{
	return op == SWNIC_REQ_ATOMIC_CS || op == SWNIC_REQ_ATOMIC_FA || op == SWNIC_REQ_MASKED_CS ||
	       op == SWNIC_REQ_MASKED_FA;
}

uint32_t swnic_mtu_bytes(uint8_t mtu)
{
	return (mtu >= PRM_QP_MTU_256 && mtu <= PRM_QP_MTU_4096) ? (128u << mtu) : 1024u;
}

uint32_t swnic_req_psn_count(uint8_t mtu, uint8_t op, uint64_t len)
{
	uint64_t mtu_bytes = swnic_mtu_bytes(mtu);

	if (op_is_atomic(op) || len == 0)
		return 1u;
	return (uint32_t)((len + mtu_bytes - 1u) / mtu_bytes);
}

enum swnic_resp_admit swnic_resp_admit(struct swnic_qp *qp, const struct swnic_req *req, struct swnic_resp_seq *seq)
{
	uint32_t remote_qpn, d;
	uint8_t remote_gid[16];
	uint8_t st, mtu;

	pthread_mutex_lock(&qp->lock);
	remote_qpn = qp->remote_qpn;
	memcpy(remote_gid, qp->remote_gid, sizeof(remote_gid));
	seq->expected = qp->next_rcv_psn & PSN_MASK;
	st = qp->st;
	mtu = qp->mtu;
	pthread_mutex_unlock(&qp->lock);

	if (req->src_qpn != remote_qpn || memcmp(req->src_gid, remote_gid, sizeof(remote_gid)) != 0) {
		OGDA_LOG_DBG("qp 0x%x: request from qp 0x%x, not the connected peer qp 0x%x (or another GID): dropped",
			     qp->qpn, req->src_qpn, remote_qpn);
		return SWNIC_RESP_ADMIT_DROP;
	}
	seq->next = (req->psn + swnic_req_psn_count(mtu, req->op, req->len)) & PSN_MASK;
	if (st != PRM_QP_ST_RC)
		return SWNIC_RESP_ADMIT_NEW;
	d = (req->psn - seq->expected) & PSN_MASK;
	if (d == 0)
		return SWNIC_RESP_ADMIT_NEW;
	if (d >= PSN_HALF)
		return SWNIC_RESP_ADMIT_DUPLICATE;
	OGDA_LOG_DBG("qp 0x%x: psn 0x%x ahead of the expected 0x%x: dropped", qp->qpn, req->psn, seq->expected);
	return SWNIC_RESP_ADMIT_DROP;
}

void swnic_resp_advance(struct swnic_qp *qp, const struct swnic_resp_seq *seq)
{
	pthread_mutex_lock(&qp->lock);
	/* Unless a modify (INIT2RTR again after a reset) set a new start meanwhile. */
	if ((qp->next_rcv_psn & PSN_MASK) == seq->expected)
		qp->next_rcv_psn = seq->next;
	pthread_mutex_unlock(&qp->lock);
}
