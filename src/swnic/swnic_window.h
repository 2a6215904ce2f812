/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The requester window of one QP: up to SWNIC_WINDOW_SLOTS WQEs in flight through a pipe
 * (swnic_fabric_pipe.h), completed in order (docs/swnic.md §6).
 *
 * WQEs start in producer order while the window has room. An RDMA WRITE, SEND, READ or atomic
 * without a fence goes into the pipe behind the ones before it; any other WQE (a fence, WAIT,
 * NOP, DUMP, Ethernet) starts only when the window is empty and runs alone, as does a request
 * the pipe does not carry (a NIC of this process, a peer over TCP, a message larger than a
 * channel), which is delivered synchronously. Answers are taken oldest first; a retry of the
 * oldest (RNR, no answer, no such QP) waits for the answers of everything behind it, then
 * resends them all after it (go-back-N: the responder's PSN check dropped them, or
 * acknowledges those that ran without running them again). A WQE that fails stops the window
 * from starting more; the engine moves the QP to ERR when its completion comes up, and the
 * ones behind it are flushed.
 *
 * Only the QP's engine thread uses its window, or a thread that has made sure the engine is
 * not visiting the QP (swnic_engine.c).
 */
#ifndef OGDA_SWNIC_WINDOW_H_
#define OGDA_SWNIC_WINDOW_H_

#include "swnic/swnic_engine.h"
#include "swnic/swnic_fabric_pipe.h"

#define SWNIC_WINDOW_SLOTS SWNIC_SHM_SLOTS

struct swnic_window {
	struct swnic_exec *slot;   /* SWNIC_WINDOW_SLOTS WQEs, oldest at head */
	uint32_t head, count;
	uint16_t issue_ci;         /* producer index of the next WQE to start */
	bool stalled;              /* a WQE that runs alone, or one that failed, is in the window */
	struct swnic_fabric_pipe pipe;
};

/* Called for each WQE that completes, oldest first. */
typedef void (*swnic_window_complete_fn)(void *arg, const struct swnic_completion *c);

/* DOCA_ERROR_NO_MEMORY when the slots cannot be allocated. */
doca_error_t swnic_window_init(struct swnic_window *w, struct swnic *nic);
void swnic_window_fini(struct swnic_window *w);

/*
 * Runs the QP's send queue (RTS): starts WQEs up to sq_target, takes answers, completes up
 * to budget WQEs through complete (which advances qp->sq_ci). Waits for an answer only when
 * nothing else can be started. True when any WQE completed. *wake_ns is lowered to when a
 * retry timer or a WAIT wants the QP looked at again.
 */
bool swnic_window_run(struct swnic_window *w, const struct swnic_exec_ctx *ctx, swnic_window_complete_fn complete,
		      void *arg, uint32_t budget, uint64_t *wake_ns);

/*
 * Forgets every WQE in the window (ERR, RST, detach): their requests are dropped with the
 * channel; the next run starts again at qp->sq_ci.
 */
void swnic_window_reset(struct swnic_window *w);

#endif /* OGDA_SWNIC_WINDOW_H_ */
