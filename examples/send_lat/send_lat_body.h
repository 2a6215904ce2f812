/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_send_lat, the one thread of each side: a ping-pong of two-sided SENDs, each
 * landing in a receive the peer's device code posted (perftest ib_send_lat style). Round trip i
 * carries the stamp ex_pingpong_stamp(i) in the last byte of each message, as write_lat does:
 *
 *   client: post a receive; then per round: stamp -> own send slot, send, wait for the receive's
 *           completion, check its byte count and stamp, post the next receive (before the next
 *           send, so the server's reply always finds one);
 *   server: post a receive; then per round: wait for it, check, post the next receive, stamp,
 *           send the reply.
 *
 * A send must have completed before its send slot changes again: each side waits for its
 * previous send's completion right before the next stamp. The server's first receive may come
 * after the client's first send: the NIC retries it (RNR) until it is posted. Every wait is
 * bounded by --timeout. Compiled into the CUDA kernel and into the host-thread function alike.
 */
#ifndef SEND_LAT_BODY_H_
#define SEND_LAT_BODY_H_

#include "ex_pingpong.h"

/* Waits for receive ticket and checks it: the message's size and round trip i's stamp. */
OGDA_DEV_FN int send_lat_take(const struct ex_pingpong_args *a, uint64_t ticket, uint32_t i)
{
	uint32_t bytes = 0;
	int rc = ex_recv_wait(a->qp, ticket, OGDA_DEV_SHARE_EXCLUSIVE, &bytes);

	if (rc == 0 && (bytes != a->size || *(const volatile uint8_t *)a->recv_last != ex_pingpong_stamp(i)))
		rc = EX_DEV_EBADMSG;
	return rc;
}

OGDA_DEV_FN void send_lat_thread(const struct ex_pingpong_args *a, const struct ex_lane *l)
{
	const int share = OGDA_DEV_SHARE_EXCLUSIVE;
	const int scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD;
	struct ex_op op;
	uint64_t ticket = 0, rticket = 0;
	uint32_t i, done = 0;
	int rc, pending = 0;

	op.kind = EX_OP_SEND;
	op.laddr = a->send;
	op.raddr = a->send;
	op.size = a->size;
	rc = ex_recv(l, scope, a->qp, a->recv, (uint32_t)a->size, share, &rticket);
	for (i = 1; i <= a->round_trips && rc == 0; i++) {
		if (!a->initiator) {
			rc = send_lat_take(a, rticket, i);
			if (rc == 0 && i < a->round_trips)
				rc = ex_recv(l, scope, a->qp, a->recv, (uint32_t)a->size, share, &rticket);
		}
		if (rc == 0 && pending) {
			pending = 0;
			rc = ex_wait(a->qp, ticket, share);
		}
		if (rc == 0) {
			*(volatile uint8_t *)a->send_last = ex_pingpong_stamp(i);
			rc = ex_post(l, scope, a->qp, &op, share, &ticket);
			pending = rc == 0;
		}
		if (rc == 0 && a->initiator) {
			rc = send_lat_take(a, rticket, i);
			if (rc == 0 && i < a->round_trips)
				rc = ex_recv(l, scope, a->qp, a->recv, (uint32_t)a->size, share, &rticket);
		}
		if (rc == 0)
			done++;
	}
	if (pending) {
		const int wrc = ex_wait(a->qp, ticket, share);

		if (rc == 0)
			rc = wrc;
	}
	a->res->rc = rc;
	a->res->done = done;
}

#endif /* SEND_LAT_BODY_H_ */
