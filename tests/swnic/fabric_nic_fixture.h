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
#include "swnic/swnic.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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

/* What a serving NIC tells its requesters: the QPN, GID and rkey applications exchange. */
struct fnx_target {
	uint8_t gid[16];
	uint32_t qpn;
	uint32_t rkey;
	uint64_t base;
	uint32_t psn; /* the next PSN the QP expects (it starts at 0) */
};

/* What x's NIC tells its requesters; PSNs start at 0. */
void fnx_target_of(const struct fnx *x, struct fnx_target *t);

/* A request to t from the QP's connected peer (the QP itself), at t's next PSN. */
struct swnic_req fnx_req_to(const struct fnx_target *t, uint8_t op, uint64_t off, uint32_t len);

/* swnic_fabric_deliver of req to t; an ACK moves t past the request's packets. */
doca_error_t fnx_deliver(struct swnic *nic, struct fnx_target *t, const struct swnic_req *req,
			 struct swnic_resp *resp, void *read_buf, uint64_t timeout_ns);

/* A child process serving a region with its own NIC (over TCP, since its GID is another). */
struct fnx_child {
	pid_t pid;
	int up;      /* child -> parent: target, then the region dump */
	int ctl;     /* parent -> child: closing it ends the child's service */
	struct fnx_target t;
};

/* Reads exactly len bytes from fd; false on EOF or error. */
bool fnx_read_all(int fd, void *buf, size_t len);
/*
 * Forks a child serving a region of region_len bytes (fnx_open_sized, NIC 0) and reads its
 * target. When c->ctl is closed the child stops its NIC, writes the first dump_len bytes
 * of its region to c->up and exits 0. Call it before this process opens a NIC.
 */
void fnx_child_start(struct fnx_child *c, size_t region_len, size_t dump_len);

#endif /* OGDA_TESTS_SWNIC_FABRIC_NIC_FIXTURE_H_ */
