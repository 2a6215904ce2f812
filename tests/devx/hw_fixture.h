/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture for the ConnectX device tests: the fake rdma-core installed and "mlx5_0" opened
 * through it, a host arena for umems and MRs, and helpers that build valid commands. The
 * teardown closes the device and checks that the fake holds no object any more.
 */
#ifndef OGDA_TESTS_DEVX_HW_FIXTURE_H_
#define OGDA_TESTS_DEVX_HW_FIXTURE_H_

#include "devx/devx.h"
#include "fake_rdma_core.h"

#include <stddef.h>
#include <stdint.h>

#define HFX_ARENA_SIZE (1u << 20)

struct hfx {
	struct ogda_devx *dev;
	const struct ogda_devx_ops *ops;
	uint8_t *arena;
	struct ogda_devx_umem *umem;
	uint32_t umem_id;
	struct ogda_devx_uar *uar;
	struct ogda_devx_uar_info uar_info;
	struct ogda_devx_pd *pd;
	uint32_t pdn;
};

int hfx_setup(void **state);
int hfx_teardown(void **state);

/* umem over the arena, a BF UAR and a PD (released by the teardown if still held). */
void hfx_resources(struct hfx *f);

/* Valid CREATE_CQ (2^4 CQEs at arena offset ring_off, DBR at dbr_off) and CREATE_QP (RC) mailboxes. */
void hfx_cq_in(const struct hfx *f, uint8_t *in, size_t len, uint64_t ring_off, uint64_t dbr_off);
void hfx_qp_in(const struct hfx *f, uint8_t *in, size_t len, uint32_t cqn, uint64_t wq_off, uint64_t dbr_off);

/* Creates a CQ / QP that must succeed; returns the number. */
uint32_t hfx_cq(struct hfx *f, struct ogda_devx_obj **obj, uint64_t ring_off, uint64_t dbr_off);
uint32_t hfx_qp(struct hfx *f, struct ogda_devx_obj **obj, uint32_t cqn, uint64_t wq_off, uint64_t dbr_off);

#endif /* OGDA_TESTS_DEVX_HW_FIXTURE_H_ */
