/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the front end's C tests: one software NIC opened through rdma-core's API (a PD,
 * its GID) and, for the data-path tests, two RC QPs connected to each other through that GID.
 * Uses rdma-core's public API only, as any rdma-core program would.
 */
#ifndef OGDA_TESTS_FRONT_FIXTURE_H_
#define OGDA_TESTS_FRONT_FIXTURE_H_

#include <infiniband/verbs.h>

#include <stdint.h>

#define FX_BUF 8192
#define FX_WAIT_MS 5000

struct fx_side {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;              /* FX_BUF bytes, registered for every access */
};

struct fx {
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;   /* b's CQ reports to it */
	union ibv_gid gid;
	struct fx_side a, b;
};

/* cmocka setup / teardown: the device alone (open_dev) or with the connected pair (pair_up). */
int fx_open_dev(void **state);
int fx_close_dev(void **state);
int fx_pair_up(void **state);
int fx_pair_down(void **state);

/* RST -> INIT -> RTR -> RTS towards remote_qpn on this NIC, with the masks ibv_rc_pingpong uses. */
void fx_connect_qp(struct fx *f, struct ibv_qp *qp, uint32_t remote_qpn);
/* Monotonic milliseconds. */
uint64_t fx_now_ms(void);
/* One completion of cq within FX_WAIT_MS (the test fails otherwise). */
struct ibv_wc fx_poll_one(struct ibv_cq *cq);
/* A signaled one-SGE send WR of s->buf[off, off + len) through ibv_post_send. */
void fx_post(struct fx_side *s, enum ibv_wr_opcode op, uint32_t off, uint32_t len, uint64_t raddr, uint32_t rkey,
	     uint64_t wr_id);

#endif /* OGDA_TESTS_FRONT_FIXTURE_H_ */
