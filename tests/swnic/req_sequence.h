/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests that hand requests straight to a responder: make a request come from the target QP's
 * connected peer (its remote QPN and GID) at the PSN the QP expects next, as the responder
 * requires (swnic_exec_resp_peer.c).
 */
#ifndef OGDA_TEST_REQ_SEQUENCE_H
#define OGDA_TEST_REQ_SEQUENCE_H

#include "swnic/swnic.h"

#include <pthread.h>
#include <string.h>

/* Fills r's source and PSN from QP r->dst_qpn of nic; leaves r alone when there is no such QP. */
static inline void swnic_test_req_sequence(struct swnic *nic, struct swnic_req *r)
{
	struct swnic_qp *qp = nic != NULL ? swnic_qp_acquire(nic, r->dst_qpn) : NULL;

	if (qp == NULL)
		return;
	pthread_mutex_lock(&qp->lock);
	r->src_qpn = qp->remote_qpn;
	memcpy(r->src_gid, qp->remote_gid, sizeof(r->src_gid));
	r->psn = qp->next_rcv_psn;
	pthread_mutex_unlock(&qp->lock);
	swnic_qp_release(qp);
}

#endif /* OGDA_TEST_REQ_SEQUENCE_H */
