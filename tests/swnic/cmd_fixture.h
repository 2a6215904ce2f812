/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture for the control-path tests: software NIC 0 with a PD, a UAR page and one host
 * arena registered as a umem, plus command helpers that return the PRM status and
 * syndrome of every command, and parameter sets that make a valid CQ, QP or RMP so that a
 * test changes exactly one field to probe one failure.
 */
#ifndef OGDA_TESTS_SWNIC_CMD_FIXTURE_H_
#define OGDA_TESTS_SWNIC_CMD_FIXTURE_H_

#include "prm/prm_cq.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"
#include "swnic/swnic.h"

#include <stddef.h>
#include <stdint.h>

#define CFX_ARENA_SIZE (4u << 20)

struct cfx {
	struct swnic *nic;
	uint32_t pdn;
	uint32_t uar;
	uint8_t *uar_page;
	uint8_t *arena;
	size_t used;
	uint32_t umem;
};

void cfx_open(struct cfx *f);
void cfx_close(struct cfx *f);

/*
 * cmocka setup and teardown for tests that each get a fresh fixture: *state is one static
 * struct cfx, opened before the test and closed after it. The teardown also takes back
 * any kind probe cfx_fake_gpu_range installed.
 */
int cfx_setup(void **state);
int cfx_teardown(void **state);

/* Makes the memory kind probe report [mem, mem + len) as GPU memory, the rest as host. */
void cfx_fake_gpu_range(const uint8_t *mem, size_t len);

/* Carves zeroed bytes out of the arena; returns their offset in the umem. */
uint64_t cfx_alloc(struct cfx *f, size_t size, size_t align);

/*
 * Runs one command; returns the PRM status, *syndrome (optional) gets dw1 of the out
 * mailbox. Also checks that swnic_cmd_exec's return value is the status's mapping.
 */
uint8_t cfx_exec(struct cfx *f, const void *in, size_t inlen, void *out, size_t outlen, uint32_t *syndrome);

/* A valid CREATE_CQ of 2^log_size 64-byte CQEs, ring and DBR freshly carved. */
void cfx_cq_params(struct cfx *f, struct prm_create_cq_params *p, uint8_t log_size);
uint8_t cfx_create_cq(struct cfx *f, const struct prm_create_cq_params *p, uint32_t *cqn, uint32_t *syndrome);
/* A CQ that must be created. */
uint32_t cfx_cq(struct cfx *f, uint8_t log_size);

/*
 * A valid CREATE_QP: RC, SQ of 2^6 WQEBBs, own RQ of 2^4 x 16 B, both CQs, the fixture's
 * PD and UAR, send_dbr_mode VALID; WQ and DBR freshly carved.
 */
void cfx_qp_params(struct cfx *f, struct prm_create_qp_params *p, uint32_t scqn, uint32_t rcqn);
uint8_t cfx_create_qp(struct cfx *f, const struct prm_create_qp_params *p, uint32_t *qpn, uint32_t *syndrome);
uint32_t cfx_qp(struct cfx *f);   /* a QP on two fresh CQs, must succeed */

/* Valid parameters for a transition (required attributes set; opt_param_mask 0). */
void cfx_modify_params(uint16_t opcode, uint32_t qpn, struct prm_modify_qp_params *p);
uint8_t cfx_modify(struct cfx *f, const struct prm_modify_qp_params *p, uint32_t *syndrome);
/* The transition with cfx_modify_params; returns the status. */
uint8_t cfx_transition(struct cfx *f, uint16_t opcode, uint32_t qpn, uint32_t *syndrome);
/* RST2INIT, INIT2RTR, RTR2RTS until the QP is in `state`, each must succeed. */
void cfx_qp_to(struct cfx *f, uint32_t qpn, uint8_t state);
uint8_t cfx_query_qp(struct cfx *f, uint32_t qpn, struct prm_qpc_params *q, uint32_t *syndrome);
uint8_t cfx_qp_state(struct cfx *f, uint32_t qpn);

/* A valid CREATE_RMP: RDY, cyclic, 2^4 x 64 B, fixture PD. */
void cfx_rmp_params(struct cfx *f, struct prm_create_rmp_params *p);
uint8_t cfx_create_rmp(struct cfx *f, const struct prm_create_rmp_params *p, uint32_t *rmpn, uint32_t *syndrome);

/* DESTROY_CQ / DESTROY_QP / DESTROY_RMP / DEALLOC_PD / DEALLOC_UAR of id. */
uint8_t cfx_destroy(struct cfx *f, uint16_t opcode, uint32_t id, uint32_t *syndrome);

/* A GID that passes INIT2RTR (any non-zero GID). */
extern const uint8_t cfx_peer_gid[16];

#endif /* OGDA_TESTS_SWNIC_CMD_FIXTURE_H_ */
