/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * doca_verbs_wait_cq_wr: four QPs in one process (QP1 <-> QP2, QP3 <-> QP4) and three
 * buffers. QP3 is a cross-channel master: a WAIT work request holds its send of buffer 2
 * until QP1's send (buffer 1 -> buffer 2) has completed, so buffer 3 ends up equal to
 * buffer 1 only when the chain ran in order.
 */
#ifndef WCW_H_
#define WCW_H_

#include <stdbool.h>
#include <stdint.h>

#include "opengda_mlx5.h"
#include "sample_verbs.h"

#define WCW_NQP 4
#define WCW_NBUF 3
#define WCW_BUF_SIZE 1024u
#define WCW_DEFAULT_TIMEOUT_S 10
/* How long QP3's send must stay held before QP1 posts (proves the WAIT is holding it). */
#define WCW_HOLD_CHECK_MS 100

struct wcw_config {
	const char *device;
	uint32_t gid_index;
	bool ipv6;
	int timeout_ms;
	bool help;
	bool version;
};

/* A send queue this program writes itself (QP3's), with its doorbells. */
struct wcw_sq {
	struct opengda_mlx5_sq sq;
	uint32_t *dbr;      /* [OPENGDA_MLX5_SND_DBR]: SQ producer counter */
	uint64_t *uar_reg;  /* doorbell register */
	uint16_t pi;        /* WQEBBs written */
};

/* A CQ this program reads itself (QP3's). */
struct wcw_cq {
	uint8_t *ring;
	uint32_t ncqe;
	uint32_t log_ncqe;
	uint8_t entry_size; /* 64, or 128 with the CQE in the second half */
	uint32_t *ci_dbr;
	uint32_t ci;
	uint32_t cqn;
};

struct wcw {
	const struct wcw_config *cfg;
	struct sample_dev dev;
	/* cq[i] takes QP i+1's completions (both directions). */
	struct doca_verbs_cq *cq[WCW_NQP];
	struct doca_verbs_qp *qp[WCW_NQP];
	uint8_t *buf[WCW_NBUF];
	struct opengda_mr *mr[WCW_NBUF];
	uint32_t lkey[WCW_NBUF];
};

/* Creates everything and connects QP1 <-> QP2 and QP3 <-> QP4. Returns 0 or -1 (error line printed). */
int wcw_setup(struct wcw *w, const struct wcw_config *cfg);
void wcw_teardown(struct wcw *w);

/* The QP's send queue and doorbells, for writing WQEs without the bridge. Returns 0 or -1. */
int wcw_sq_open(struct doca_verbs_qp *qp, struct wcw_sq *s);
/* WAIT until CQ cqn has produced its CQE number max_index (no completion of its own). Returns 0 or -1. */
int wcw_sq_post_wait_cq(struct wcw_sq *s, uint32_t cqn, uint32_t max_index);
/* SEND of len bytes at laddr, with a completion. Returns 0 or -1. */
int wcw_sq_post_send(struct wcw_sq *s, uint64_t laddr, uint32_t lkey, uint32_t len);
/* Publishes everything written: doorbell record, then the doorbell register. */
void wcw_sq_ring(struct wcw_sq *s);

/* The CQ's ring and consumer-index record, for polling without the bridge. Returns 0 or -1. */
int wcw_cq_open(struct doca_verbs_cq *cq, struct wcw_cq *c);
/* 1 when the CQE at the consumer index is there (nothing consumed). */
int wcw_cq_peek(const struct wcw_cq *c);
/*
 * Waits up to timeout_ms for the next CQE, consumes it and fills f. An error CQE is
 * reported (ibv_wc_status_str of its syndrome and the vendor syndrome) and fails.
 * Returns 0 or -1.
 */
int wcw_cq_poll(struct wcw_cq *c, int timeout_ms, const char *what, struct opengda_mlx5_cqe_fields *f);

#endif /* WCW_H_ */
