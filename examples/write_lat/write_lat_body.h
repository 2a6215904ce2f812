/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_write_lat, the one thread of each side: a perftest ib_write_lat style
 * ping-pong. Round trip i carries the stamp ex_pingpong_stamp(i) = ((i - 1) % 255) + 1 in the
 * last byte of each message (never 0, so a cleared receive slot never matches, and never the
 * previous round's):
 *
 *   client: stamp -> own send slot, put it to the server's receive slot, wait for the stamp
 *           in its own receive slot;
 *   server: wait for the stamp in its receive slot, stamp -> own send slot, put it back.
 *
 * A put must have completed before its send slot changes again: each side waits for its
 * previous put's completion (the ticket) right before writing the next stamp, which by then
 * has almost always arrived, so the wait stays off the round trip's critical path. Every wait
 * is bounded by the run's --timeout. Compiled into the CUDA kernel and into the host-thread
 * function alike.
 */
#ifndef WRITE_LAT_BODY_H_
#define WRITE_LAT_BODY_H_

#include "ex_pingpong.h"

OGDA_DEV_FN void write_lat_set_stamp(uint8_t *p, uint8_t stamp)
{
	*(volatile uint8_t *)p = stamp;
}

OGDA_DEV_FN void write_lat_thread(const struct ex_pingpong_args *a, const struct ex_lane *l)
{
	const int share = OGDA_DEV_SHARE_EXCLUSIVE;
	const int scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD;
	struct ex_op op;
	uint64_t ticket = 0;
	uint32_t i, done = 0;
	int rc = 0, pending = 0;

	op.kind = EX_OP_WRITE;
	op.laddr = a->send;
	op.raddr = a->remote;
	op.size = a->size;
	for (i = 1; i <= a->round_trips && rc == 0; i++) {
		const uint8_t stamp = ex_pingpong_stamp(i);

		if (!a->initiator)
			rc = ex_wait_u8(a->recv_last, stamp, a->timeout_ns);
		if (rc == 0 && pending) {
			pending = 0;
			rc = ex_wait(a->qp, ticket, share);
		}
		if (rc == 0) {
			write_lat_set_stamp(a->send_last, stamp);
			rc = ex_post(l, scope, a->qp, &op, share, &ticket);
			pending = rc == 0;
		}
		if (rc == 0 && a->initiator)
			rc = ex_wait_u8(a->recv_last, stamp, a->timeout_ns);
		if (rc == 0)
			done++;
	}
	/* The last put completes before the pass ends (also after a failure: bounded). */
	if (pending) {
		const int wrc = ex_wait(a->qp, ticket, share);

		if (rc == 0)
			rc = wrc;
	}
	a->res->rc = rc;
	a->res->done = done;
}

#endif /* WRITE_LAT_BODY_H_ */
