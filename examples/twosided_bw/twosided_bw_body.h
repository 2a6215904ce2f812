/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_verbs_twosided_bw, the per-thread code of both sides (as DOCA GPUNetIO's
 * gpunetio_verbs_twosided_bw sample): in each round
 *
 *   server: every thread posts a receive into its slot (doca_gpu_dev_verbs_recv at the run's
 *           scope); the thread that posts the round's last receive (a counter shared by the
 *           launch) RDMA-writes the "posted" flag (pass << 32 | round) to the client; every
 *           thread then waits for its receive and checks its byte count;
 *   client: every thread waits until the flag says the round's receives are posted, sends its
 *           slot (doca_gpu_dev_verbs_send) and waits for the send's completion.
 *
 * A client sends round r only after all receives of round r were posted, which needs every
 * receive of round r - 1 complete: no message ever meets a missing receive, and the messages of
 * round r take exactly the receives of round r (which thread's receive takes which message is up
 * to the arrival order; the message says whose it is in its first 4 bytes). Compiled into the
 * CUDA kernels and into the host-thread functions alike.
 */
#ifndef TWOSIDED_BW_BODY_H_
#define TWOSIDED_BW_BODY_H_

#include "ex_dev_ops.h"

struct twosided_bw_args {
	struct doca_gpu_dev_verbs_qp *qp;
	struct doca_gpu_dev_verbs_addr local; /* this side's slots: slot t at + t x size */
	uint64_t size;
	uint32_t rounds;                      /* messages per thread */
	int32_t server;
	int32_t scope;                        /* enum doca_gpu_dev_verbs_exec_scope */
	int32_t sharing;                      /* OGDA_DEV_SHARE_* */
	uint64_t pass;                        /* this pass's number (flag = pass << 32 | round) */
	uint64_t *flag;                       /* client: the flag word the server writes */
	uint64_t *flag_src;                   /* server: the word it writes the flag from */
	struct doca_gpu_dev_verbs_addr flag_laddr, flag_raddr; /* server: flag_src, the client's flag */
	uint64_t *posted;                     /* server: receives posted in this pass (all threads) */
	uint64_t nthreads;                    /* threads of the launch */
	uint64_t timeout_ns;
	struct ex_thread_result *res;         /* one per thread */
};

/* Waits up to timeout_ns for the flag word (written by the NIC) to reach want. 0, or -ETIMEDOUT. */
OGDA_DEV_FN int twosided_bw_wait_flag(const uint64_t *p, uint64_t want, uint64_t timeout_ns)
{
	uint64_t deadline = ogda_dev_deadline(timeout_ns);

	while (ogda_dev_load_relaxed_u64(p) < want) {
		if (ogda_dev_expired(deadline))
			return -OPENGDA_DEV_ETIMEDOUT;
		ogda_dev_spin_pause();
	}
	ogda_dev_fence_nic_acquire();
	return 0;
}

/* Server, one round: post, signal the last post, wait for the receive. */
OGDA_DEV_FN int twosided_bw_server_round(const struct twosided_bw_args *a, const struct ex_lane *l,
					 struct doca_gpu_dev_verbs_addr slot, uint32_t round)
{
	uint64_t rticket = 0, fticket = 0;
	uint32_t bytes = 0;
	int rc = ex_recv(l, a->scope, a->qp, slot, (uint32_t)a->size, a->sharing, &rticket);

	if (rc == 0 && ogda_dev_atomic_add_u64(a->posted, 1, OGDA_DEV_SHARE_GPU) + 1 == a->nthreads * round) {
		struct ex_op op;

		/* The last receive of the round is posted: tell the client (the put's fence orders the word). */
		*(volatile uint64_t *)a->flag_src = a->pass << 32 | round;
		op.kind = EX_OP_WRITE;
		op.laddr = a->flag_laddr;
		op.raddr = a->flag_raddr;
		op.size = sizeof(uint64_t);
		rc = ex_post(l, DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD, a->qp, &op, a->sharing, &fticket);
		if (rc == 0)
			rc = ex_wait(a->qp, fticket, a->sharing);
	}
	if (rc == 0)
		rc = ex_recv_wait(a->qp, rticket, a->sharing, &bytes);
	if (rc == 0 && bytes != a->size)
		rc = EX_DEV_EBADMSG;
	return rc;
}

OGDA_DEV_FN void twosided_bw_thread(const struct twosided_bw_args *a, const struct ex_lane *l)
{
	const uint64_t t = EX_LANE_GLOBAL(l);
	struct doca_gpu_dev_verbs_addr slot = a->local;
	struct ex_op op;
	uint32_t r, done = 0;
	int first = 0;

	slot.addr += t * a->size;
	op.kind = EX_OP_SEND;
	op.laddr = slot;
	op.raddr = slot;
	op.size = a->size;
	for (r = 1; r <= a->rounds; r++) {
		uint64_t ticket = 0;
		int rc;

		if (a->server) {
			rc = twosided_bw_server_round(a, l, slot, r);
		} else {
			rc = twosided_bw_wait_flag(a->flag, a->pass << 32 | r, a->timeout_ns);
			if (rc == 0)
				rc = ex_post(l, a->scope, a->qp, &op, a->sharing, &ticket);
			if (rc == 0)
				rc = ex_wait(a->qp, ticket, a->sharing);
		}
		if (rc == 0)
			done++;
		else if (first == 0)
			first = rc;
		/* The group stops together (its calls must stay matched). */
		if (ex_group_any(l, a->scope, rc != 0))
			break;
	}
	a->res[t].rc = first;
	a->res[t].done = done;
}

#endif /* TWOSIDED_BW_BODY_H_ */
