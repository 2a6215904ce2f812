/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture of the QP export, proxy and error tests: the software NIC "swnic0" (through the
 * DOCA Verbs fixture, tests/verbs/verbs_fixture.c), a host GPU handle, pairs of QPs connected
 * to each other in RTS with queue options, and helpers that act as device code on host
 * threads (write a WQE into the exported ring, ring, publish to the proxy mailbox, wait for a
 * CQE). Every helper asserts (cmocka) that its calls succeed.
 *
 * Run with OPENGDA_SWNIC_ADDR= (in-process fabric) and OPENGDA_DISABLE_CUDA=1.
 */
#ifndef OGDA_TESTS_GPUNETIO_GPU_FIXTURE_H_
#define OGDA_TESTS_GPUNETIO_GPU_FIXTURE_H_

#include "test_util.h"
#include "verbs/verbs_fixture.h"

#include "doca_gpunetio.h"
#include "doca_gpunetio_verbs_dev.h"
#include "opengda_gpunetio.h"
#include "opengda_mlx5.h"

#include <stdbool.h>
#include <stdint.h>

#define GFX_CQ_SIZE 64u
#define GFX_SQ_WR 16u
#define GFX_TIMEOUT_MS 5000

struct gfx {
	struct vfx v;
	struct doca_gpu *gpu; /* host handle */
};

/* Queue options of gfx_pair_create(); zeroes give the defaults. */
struct gfx_qp_opts {
	uint32_t cq_size;        /* 0: GFX_CQ_SIZE */
	uint32_t sq_wr;          /* 0: GFX_SQ_WR */
	bool collapsed;          /* send CQ collapsed */
	bool overrun_ignored;    /* send CQ created with DOCA_VERBS_CQ_ENABLE_OVERRUN */
	bool no_dbr;             /* QP 0 created with send_dbr_mode NO_DBR_EXT */
	bool emulate_no_dbr;     /* ... and emulate_no_dbr_ext (it keeps a doorbell record) */
};

/* QP 0 (options applied) and QP 1 (defaults), each with its own CQ, connected in RTS. */
struct gfx_pair {
	struct doca_verbs_cq *cq[2];
	struct doca_verbs_qp *qp[2];
	uint32_t qpn[2];
};

void gfx_open(struct gfx *f);
void gfx_close(struct gfx *f);
/* cmocka setup / teardown: a heap gfx opened into *state; teardown also clears the
 * unmappable-UAR test seam so no case leaks it into the next. */
int gfx_setup(void **state);
int gfx_teardown(void **state);

void gfx_pair_create(struct gfx *f, const struct gfx_qp_opts *o, struct gfx_pair *p);
void gfx_pair_destroy(struct gfx_pair *p);

/* Exports QP 0 of p with its send CQ (asserting success). */
struct doca_gpu_verbs_qp *gfx_export(struct gfx *f, struct gfx_pair *p, enum doca_gpu_dev_verbs_nic_handler h,
				     enum doca_gpu_verbs_send_dbr_mode_ext mode);

/* The UAR page of a verbs QP (its doorbell registers are at + 0x600 / + 0x800). */
uint8_t *gfx_uar_base(const struct doca_verbs_qp *qp);

/* Writes a signaled RDMA WRITE at WQE index idx of the exported ring (as device code would). */
void gfx_write_wqe(const struct doca_gpu_dev_verbs_qp *d, uint16_t idx, const struct vfx_buf *src,
		   const struct vfx_buf *dst, uint32_t rkey, uint32_t len);

/* Device-side doorbells: record (when the view has one) and register, for producer index pi. */
void gfx_ring(const struct doca_gpu_dev_verbs_qp *d, uint64_t pi);
/* Publishes pi to the proxy mailbox (release store). */
void gfx_publish(const struct doca_gpu_dev_verbs_qp *d, uint64_t pi);

/* Waits until the CQE of CQ index ci is written (acquire); NULL after GFX_TIMEOUT_MS. */
const struct opengda_mlx5_cqe64 *gfx_wait_cqe(const struct doca_gpu_dev_verbs_cq *c, uint64_t ci);
/* Waits for CQE ci and asserts a successful requester completion of WQE wqe_counter (QP qpn). */
void gfx_expect_cqe_ok(const struct doca_gpu_dev_verbs_cq *c, uint64_t ci, uint16_t wqe_counter, uint32_t qpn);
/* Waits until the 32-bit word at p equals val (acquire loads). */
bool gfx_wait_u32(const uint32_t *p, uint32_t val);

/* The QP's state from QUERY_QP. */
enum doca_verbs_qp_state gfx_qp_state(struct doca_verbs_qp *qp);
/* Moves a QP to RST (from any state). */
void gfx_qp_to_reset(struct doca_verbs_qp *qp);
/* Moves a QP to ERR. */
void gfx_qp_to_error(struct doca_verbs_qp *qp);

/* Runs call with stderr captured; asserts it returned want and logged one ERR line holding needle. */
#define GFX_EXPECT_ERR(call, want, needle) TEST_EXPECT_ERR(call, want, needle)

#endif /* OGDA_TESTS_GPUNETIO_GPU_FIXTURE_H_ */
