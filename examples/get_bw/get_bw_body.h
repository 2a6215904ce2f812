/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_get_bw, per thread: every thread of every block reads the server's slot of its
 * index (RDMA READ) into the same slot of its own buffer, waits for the completion (the ticket),
 * and repeats. Compiled into the CUDA kernel and into the host-thread function alike.
 */
#ifndef GET_BW_BODY_H_
#define GET_BW_BODY_H_

#include "ex_dev_ops.h"

struct get_bw_args {
	struct doca_gpu_dev_verbs_qp *qp;
	struct doca_gpu_dev_verbs_addr local;  /* this side's buffer: slot t at + t x size */
	struct doca_gpu_dev_verbs_addr remote; /* the server's buffer, holding the data */
	uint64_t size;
	uint32_t msgs_per_thread;
	int32_t scope;   /* enum doca_gpu_dev_verbs_exec_scope */
	int32_t sharing; /* OGDA_DEV_SHARE_* */
	struct ex_thread_result *res; /* one per thread */
};

OGDA_DEV_FN void get_bw_thread(const struct get_bw_args *a, const struct ex_lane *l)
{
	const uint64_t slot = EX_LANE_GLOBAL(l);
	struct ex_op op;
	uint32_t i, done = 0;
	int first = 0;

	op.kind = EX_OP_READ;
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

#endif /* GET_BW_BODY_H_ */
