/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A whole software NIC serving one memory region to remote requesters, built the way the
 * library builds it: through the device ops of src/devx/sw.c with PRM command bytes from
 * src/prm. One RC QP in RTS (remote write, read and atomics allowed), its CQ, and an MR
 * over the region.
 */
#ifndef OGDA_TESTS_SWNIC_FABRIC_NIC_FIXTURE_H_
#define OGDA_TESTS_SWNIC_FABRIC_NIC_FIXTURE_H_

#include "devx/devx.h"
#include "doca_error.h"

#include <stddef.h>
#include <stdint.h>

#define FNX_REGION_SIZE (1u << 20)
#define FNX_ARENA_SIZE (64u * 1024u)

struct fnx {
	struct ogda_devx *dev;
	struct ogda_devx_pd *pd;
	uint32_t pdn;
	struct ogda_devx_uar *uar;
	struct ogda_devx_uar_info uar_info;
	uint8_t *arena;              /* queue memory: CQ ring, WQ, doorbell records */
	struct ogda_devx_umem *umem;
	uint32_t umem_id;
	struct ogda_devx_obj *cq, *qp;
	uint32_t cqn, qpn;
	uint8_t *region;             /* region_len bytes, filled with 0xee */
	size_t region_len;           /* FNX_REGION_SIZE unless fnx_open_sized says otherwise */
	struct ogda_devx_mr *mr;
	uint32_t rkey;
	uint8_t gid[16];
};

/* Opens software NIC index and builds the objects; asserts (cmocka) on any failure. */
void fnx_open(struct fnx *x, uint32_t index);
/* The same with a region of region_len bytes (a multiple of 4096). */
void fnx_open_sized(struct fnx *x, uint32_t index, size_t region_len);
/*
 * Destroys the objects and closes the device; the last reference takes the NIC down with
 * its fabric threads, so x->region can then be read race-free. It stays allocated: free
 * it with free(x->region).
 */
void fnx_close(struct fnx *x);

#endif /* OGDA_TESTS_SWNIC_FABRIC_NIC_FIXTURE_H_ */
