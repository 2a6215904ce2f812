/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_write_lat, the one thread of each side: a perftest ib_write_lat style
 * ping-pong. Round trip i carries the stamp ((i - 1) % 255) + 1 in the last byte of each
 * message (never 0, so a cleared receive slot never matches, and never the previous round's):
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

#include "ex_dev_ops.h"

struct write_lat_args {
	struct doca_gpu_dev_verbs_qp *qp;
	struct doca_gpu_dev_verbs_addr send;   /* this side's send slot */
	struct doca_gpu_dev_verbs_addr remote; /* the peer's receive slot */
	uint8_t *send_last;                    /* the last byte of this side's send slot */
	const uint8_t *recv_last;              /* the last byte of this side's receive slot */
	uint64_t size;                         /* message bytes (>= 1) */
	uint32_t round_trips;
	int32_t initiator;                     /* 1: the client, which sends first */
	uint64_t timeout_ns;                   /* bound of each wait */
	struct ex_thread_result *res;          /* rc and completed round trips */
};

/* The stamp of round trip i (1-based): 1..255, never 0. */
OGDA_DEV_FN uint8_t write_lat_stamp(uint32_t i)
{
	return (uint8_t)((i - 1u) % 255u + 1u);
}

/* The store the NIC reads with the next put (ordered before it by the put's doorbell fence). */
OGDA_DEV_FN void write_lat_set_stamp(uint8_t *p, uint8_t stamp)
{
	*(volatile uint8_t *)p = stamp;
}

OGDA_DEV_FN void write_lat_thread(const struct write_lat_args *a, const struct ex_lane *l)
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
		const uint8_t stamp = write_lat_stamp(i);

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
