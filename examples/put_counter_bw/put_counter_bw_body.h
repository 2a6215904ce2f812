/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_put_counter_bw, the per-thread code of the client: every thread puts its slot
 * msgs_per_thread times with doca_gpu_dev_verbs_put_counter (the put on the data QP, then on the
 * core-direct companion a WAIT for its completion and a fetch-and-add of 1 on the server's
 * counter), then waits until its companion work has completed, which implies the puts. The
 * server's counter ends at -i exactly when every put's completion was counted once. Compiled into
 * the CUDA kernel and into the host-thread function alike.
 */
#ifndef PUT_COUNTER_BW_BODY_H_
#define PUT_COUNTER_BW_BODY_H_

#include "ex_dev_ops.h"

struct put_counter_bw_args {
	struct doca_gpu_dev_verbs_qp *qp;      /* data QP */
	struct doca_gpu_dev_verbs_qp *comp;    /* its companion */
	struct doca_gpu_dev_verbs_addr local;  /* slot t at + t x size */
	struct doca_gpu_dev_verbs_addr remote; /* the server's slots */
	struct doca_gpu_dev_verbs_addr counter_raddr, counter_laddr;
	uint64_t size;
	uint32_t msgs_per_thread;
	int32_t sharing;
	struct ex_thread_result *res; /* one per thread */
};

OGDA_DEV_FN void put_counter_bw_thread(const struct put_counter_bw_args *a, const struct ex_lane *l)
{
	const uint64_t slot = EX_LANE_GLOBAL(l);
	struct ex_op op;
	uint32_t i, done = 0;
	int rc = 0, wrc;

	op.kind = EX_OP_WRITE;
	op.laddr = a->local;
	op.laddr.addr += slot * a->size;
	op.raddr = a->remote;
	op.raddr.addr += slot * a->size;
	op.size = a->size;
	for (i = 0; i < a->msgs_per_thread && rc == 0; i++) {
		rc = ex_put_counter(a->qp, a->comp, &op, a->counter_raddr, a->counter_laddr, a->sharing);
		if (rc == 0)
			done++;
	}
	/* Bounded: the companion's WQEs complete after the puts they wait for. */
	wrc = ex_wait_all(a->comp, a->sharing);
	a->res[slot].rc = rc != 0 ? rc : wrc;
	a->res[slot].done = wrc == 0 ? done : 0;
}

#endif /* PUT_COUNTER_BW_BODY_H_ */
