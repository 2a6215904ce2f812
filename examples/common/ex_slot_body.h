/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-thread code of put_bw and get_bw: every thread of every block moves its slot of the
 * message size (WRITE to, or READ from, the same slot of the server's buffer), waits for the
 * completion by its ticket, and repeats. Compiled into the CUDA kernels and into the host-thread
 * functions alike.
 */
#ifndef EX_SLOT_BODY_H_
#define EX_SLOT_BODY_H_

#include "ex_dev_ops.h"

struct ex_slot_args {
	struct doca_gpu_dev_verbs_qp *qp;
	struct doca_gpu_dev_verbs_addr local;  /* this side's buffer: slot t at + t x size */
	struct doca_gpu_dev_verbs_addr remote; /* the server's buffer */
	uint64_t size;
	uint32_t msgs_per_thread;
	int32_t kind;    /* EX_OP_WRITE or EX_OP_READ */
	int32_t scope;   /* enum doca_gpu_dev_verbs_exec_scope */
	int32_t sharing; /* OGDA_DEV_SHARE_* */
	struct ex_thread_result *res; /* one per thread */
};

OGDA_DEV_FN void ex_slot_thread(const struct ex_slot_args *a, const struct ex_lane *l)
{
	const uint64_t slot = EX_LANE_GLOBAL(l);
	struct ex_op op;
	uint32_t i, done = 0;
	int first = 0;

	op.kind = (enum ex_op_kind)a->kind;
	op.laddr = a->local;
	op.laddr.addr += slot * a->size;
	op.raddr = a->remote;
	op.raddr.addr += slot * a->size;
	op.size = a->size;
	for (i = 0; i < a->msgs_per_thread; i++) {
		uint64_t ticket = 0;
		int rc = ex_post(l, a->scope, a->qp, &op, a->sharing, &ticket);

		if (rc == 0)
			rc = ex_wait(a->qp, ticket, a->sharing);
		if (rc == 0)
			done++;
		else if (first == 0)
			first = rc;
		/* The group stops together (its calls must stay matched). */
		if (ex_group_any(l, a->scope, rc != 0))
			break;
	}
	a->res[slot].rc = first;
	a->res[slot].done = done;
}

#endif /* EX_SLOT_BODY_H_ */
