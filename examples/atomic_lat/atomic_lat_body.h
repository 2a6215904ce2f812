/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_atomic_lat, per thread: ops_per_thread 8-byte fetch-and-adds on the server's
 * counter, each waited for before the next; the old value the NIC returns to the thread's own
 * landing slot is kept per operation for the host's check. A thread alone (the latency row) also
 * checks on the spot that op k saw the counter at k. Compiled into the CUDA kernel and into the
 * host-thread function alike.
 */
#ifndef ATOMIC_LAT_BODY_H_
#define ATOMIC_LAT_BODY_H_

#include "ex_dev_ops.h"

/* What a landing slot holds before the NIC answers: never a count this example reaches. */
#define ATOMIC_LAT_POISON 0xa5a5a5a5a5a5a5a5ull
/* bump_op when no operation adds 2 (the corruption hook is off). */
#define ATOMIC_LAT_NO_BUMP 0xffffffffffffffffull

struct atomic_lat_result {
	int32_t rc;               /* 0, or the first error the thread met */
	uint32_t done;            /* fetch-adds that completed */
	uint32_t bad;             /* sequence mode: old values that were not the op's index */
	uint32_t first_bad;       /* the first such op */
	uint64_t first_bad_value; /* and the old value it got */
};

struct atomic_lat_args {
	struct doca_gpu_dev_verbs_qp *qp;
	struct doca_gpu_dev_verbs_addr local;   /* landing slots: thread t's 8 bytes at + 8t */
	struct doca_gpu_dev_verbs_addr counter; /* the server's counter of this pass */
	uint32_t ops_per_thread;
	int32_t scope;    /* enum doca_gpu_dev_verbs_exec_scope */
	int32_t sharing;  /* OGDA_DEV_SHARE_* */
	int32_t sequence; /* one thread alone: op k must see the counter at exactly k */
	uint64_t bump_op; /* the op (t x ops_per_thread + k) that adds 2 instead of 1, or ATOMIC_LAT_NO_BUMP */
	uint64_t *olds;   /* old value of every op, at t x ops_per_thread + k (POISON where it failed) */
	struct atomic_lat_result *res; /* one per thread */
};

OGDA_DEV_FN void atomic_lat_thread(const struct atomic_lat_args *a, const struct ex_lane *l)
{
	const uint64_t t = EX_LANE_GLOBAL(l);
	struct atomic_lat_result r = {0, 0, 0, 0, 0};
	uint64_t *landing;
	struct ex_op op;
	uint32_t k;

	op.kind = EX_OP_FADD;
	op.laddr = a->local;
	op.laddr.addr += t * sizeof(uint64_t);
	op.raddr = a->counter;
	landing = (uint64_t *)(uintptr_t)op.laddr.addr;
	for (k = 0; k < a->ops_per_thread; k++) {
		const uint64_t idx = t * a->ops_per_thread + k;
		uint64_t ticket = 0, old = ATOMIC_LAT_POISON;
		int rc;

		/* A slot the NIC did not write keeps the poison, which no check accepts. The
		 * post's release before the doorbell orders this store before the NIC's write. */
		ogda_dev_store_relaxed_u64(landing, ATOMIC_LAT_POISON);
		op.size = idx == a->bump_op ? 2 : 1;
		rc = ex_post(l, a->scope, a->qp, &op, a->sharing, &ticket);
		if (rc == 0)
			rc = ex_wait(a->qp, ticket, a->sharing);
		if (rc == 0) {
			old = ogda_dev_load_relaxed_u64(landing);
			r.done++;
			if (a->sequence && old != k) {
				if (r.bad == 0) {
					r.first_bad = k;
					r.first_bad_value = old;
				}
				r.bad++;
			}
		} else if (r.rc == 0) {
			r.rc = rc;
		}
		a->olds[idx] = old;
		/* The group stops together (its calls must stay matched). */
		if (ex_group_any(l, a->scope, rc != 0))
			break;
	}
	a->res[t] = r;
}

#endif /* ATOMIC_LAT_BODY_H_ */
