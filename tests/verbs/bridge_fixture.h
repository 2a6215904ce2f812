/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two RC QPs on the software NIC "swnic0", connected to each other in one process, for
 * the CPU data path tests (doca_verbs_bridge_*). Built through the public API only:
 * devinfo list, context, PD, one MR over a host buffer, a send and a receive CQ per QP,
 * RST -> INIT -> RTR -> RTS with the peer's QPN and GID.
 */
#ifndef OGDA_TESTS_VERBS_BRIDGE_FIXTURE_H_
#define OGDA_TESTS_VERBS_BRIDGE_FIXTURE_H_

#include "doca_verbs.h"
#include "doca_verbs_bridge.h"
#include "opengda.h"

#include <stdbool.h>
#include <stdint.h>

#define BRIDGE_BUF_SIZE 65536u
/* Regions of the registered buffer. */
#define BRIDGE_A_SRC 0u
#define BRIDGE_A_DST 8192u
#define BRIDGE_B_SRC 16384u
#define BRIDGE_B_DST 24576u
#define BRIDGE_ATOMIC 32768u  /* 8-byte targets */
#define BRIDGE_RESULT 40960u  /* 8-byte atomic results */

/* How the QPs are made; zero fields take the defaults below. */
struct bridge_cfg {
	uint32_t sq_wr;            /* default 16 */
	uint32_t rq_wr;            /* default 16 */
	uint32_t send_max_sges;    /* default 2 */
	uint32_t receive_max_sges; /* default 2 */
	uint32_t max_inline_data;  /* default 0 */
	int sq_sig_all;
	enum doca_verbs_qp_send_dbr_mode dbr_mode; /* QP A only */
	bool emulate_no_dbr_ext;                   /* QP A only */
	bool no_connect;                           /* leave both QPs in RST */
	bool b_with_srq;                           /* QP B receives from an SRQ */
};

struct bridge_end {
	struct doca_verbs_cq *scq;
	struct doca_verbs_cq *rcq;
	struct doca_verbs_qp *qp;
	uint32_t qpn;
};

struct bridge_fix {
	struct doca_devinfo **list;
	struct doca_verbs_context *ctx;
	struct doca_verbs_pd *pd;
	struct doca_verbs_srq *srq;
	uint8_t *buf;              /* BRIDGE_BUF_SIZE bytes, page aligned */
	struct opengda_mr *mr;
	uint32_t lkey;
	uint32_t rkey;
	struct bridge_end a, b;
};

/* Builds everything (cmocka setup shape); *state receives a struct bridge_fix. 0 on success. */
int bridge_setup_cfg(void **state, const struct bridge_cfg *cfg);
/* Destroys what bridge_setup_cfg built, checking every destroy succeeds. */
int bridge_teardown(void **state);

/* Address of offset off in the registered buffer, as an SGE / remote address. */
uint64_t bridge_addr(const struct bridge_fix *f, uint32_t off);

/* Polls cq until want completions arrived or timeout_ms passed; returns how many arrived. */
int bridge_poll(struct doca_verbs_cq *cq, struct ibv_wc *wc, int want, int timeout_ms);

/* Waits until the len bytes at p equal expect (the NIC writes asynchronously); true if they do. */
bool bridge_wait_bytes(const volatile uint8_t *p, const uint8_t *expect, uint32_t len, int timeout_ms);

#endif /* OGDA_TESTS_VERBS_BRIDGE_FIXTURE_H_ */
