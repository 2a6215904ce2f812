/* SPDX-License-Identifier: BSD-3-Clause */
/* Resources of an example run (ex_run.h): executor, device, QP, buffers, and their release. */
#ifndef EX_SETUP_H_
#define EX_SETUP_H_

#include "ex_proto.h"
#include "ex_run.h"

/*
 * Picks the executor: CUDA kernels on the GPU of -g (or the first GPU), or host threads when
 * --host-threads is given or no GPU can be used (x->exec_why says why). A GPU named with -g
 * that cannot be used is an error. Creates the doca_gpu handle either way.
 */
int ex_exec_open(struct ex_ctx *x);

/* Opens the RDMA device, creates the high-level QP (and a proxy service when it needs one). */
int ex_qp_open(struct ex_ctx *x);

/* Allocates len bytes the data path reaches; registered with the NIC when `registered`. */
int ex_buf_alloc(struct ex_ctx *x, size_t len, bool registered, struct ex_buf *b);
void ex_buf_free(struct ex_ctx *x, struct ex_buf *b);

/* This side's half of the exchange, and the connection of the QP to the peer's. */
void ex_setup_local(const struct ex_ctx *x, struct ex_setup *s);
int ex_qp_connect(struct ex_ctx *x, const struct ex_setup *peer);
/*
 * QP groups: a second setup exchange for the companions (this side's companion QP number in
 * mine, the peer's in peer), then the companion's connection. No-op without a group.
 */
int ex_companion_exchange(struct ex_ctx *x, int fd, int timeout_ms, bool send_first);

/* Releases everything ex_exec_open / ex_qp_open / ex_buf_alloc made. */
void ex_teardown(struct ex_ctx *x);

#endif /* EX_SETUP_H_ */
