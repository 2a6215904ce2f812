/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQ commands: the CQ context (cqc) and CREATE_CQ, DESTROY_CQ, QUERY_CQ, MODIFY_CQ.
 * The CQ ring and its doorbell record live in umems (cq_umem_*, cqc.dbr_umem_*), the
 * way DevX users create CQs for GPU-initiated networking (reference/mlx5.md B.9).
 */
#ifndef OGDA_PRM_CQ_H_
#define OGDA_PRM_CQ_H_

#include "doca_error.h"
#include "prm/prm_layout.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_CQC_SIZE 0x40u
#define PRM_CQC_OFFSET 0x10u           /* cq_context inside create/query/modify_cq */
#define PRM_CREATE_CQ_IN_SIZE 0x110u   /* 272 B, without the trailing pas[] */
#define PRM_QUERY_CQ_OUT_SIZE 0x110u
#define PRM_MODIFY_CQ_IN_SIZE 0x110u
#define PRM_CQ_SMALL_CMD_SIZE 0x10u    /* create_cq_out, destroy/query_cq_in, ... */

/* cqc.cqe_sz */
enum prm_cqe_size {
	PRM_CQE_SIZE_64 = 0x0,
	PRM_CQE_SIZE_128 = 0x1,
};

/* cqc.st: arm state. */
enum prm_cq_arm_state {
	PRM_CQ_STATE_ARMED = 0x9,
	PRM_CQ_STATE_FIRED = 0xa,
	PRM_CQ_STATE_ALWAYS_ARMED = 0xb,
};

/* cqc.status */
enum prm_cqc_status {
	PRM_CQC_STATUS_OK = 0x0,
	PRM_CQC_STATUS_OVERFLOW = 0x9,
	PRM_CQC_STATUS_WRITE_FAIL = 0xa,
};

/* cqc.cq_period_mode */
enum prm_cq_period_mode {
	PRM_CQ_PERIOD_START_FROM_EQE = 0x0,
	PRM_CQ_PERIOD_START_FROM_CQE = 0x1,
};

/* modify_cq_in.op_mod */
enum prm_modify_cq_op_mod {
	PRM_MODIFY_CQ_OP_MODIFY = 0x0,
	PRM_MODIFY_CQ_OP_RESIZE = 0x1,
};

/* modify_cq_in.modify_field_select for op_mod MODIFY. */
enum prm_modify_cq_select {
	PRM_MODIFY_CQ_SELECT_PERIOD = 1u << 0,
	PRM_MODIFY_CQ_SELECT_COUNT = 1u << 1,
	PRM_MODIFY_CQ_SELECT_OI = 1u << 2,
};

extern const struct prm_layout prm_cqc_layout;
extern const struct prm_layout prm_create_cq_in_layout;
extern const struct prm_layout prm_create_cq_out_layout;
extern const struct prm_layout prm_destroy_cq_in_layout;
extern const struct prm_layout prm_destroy_cq_out_layout;
extern const struct prm_layout prm_query_cq_in_layout;
extern const struct prm_layout prm_query_cq_out_layout;
extern const struct prm_layout prm_modify_cq_in_layout;
extern const struct prm_layout prm_modify_cq_out_layout;

/* Every field of the CQ context (all values unsigned, in field units). */
struct prm_cqc_params {
	uint8_t status;                 /* enum prm_cqc_status */
	uint8_t dbr_umem_valid;         /* dbr_addr is an offset into umem dbr_umem_id */
	uint8_t cqe_sz;                 /* enum prm_cqe_size */
	uint8_t cc;                     /* collapsed: every CQE goes to entry 0 */
	uint8_t scqe_break_moderation_en;
	uint8_t oi;                     /* overrun ignore */
	uint8_t cq_period_mode;         /* enum prm_cq_period_mode */
	uint8_t cqe_comp_en;
	uint8_t mini_cqe_res_format;
	uint8_t st;                     /* enum prm_cq_arm_state */
	uint32_t dbr_umem_id;
	uint8_t page_offset;
	uint8_t log_cq_size;
	uint32_t uar_page;
	uint16_t cq_period;
	uint16_t cq_max_count;
	uint8_t c_eqn;
	uint8_t log_page_size;
	uint32_t last_notified_index;
	uint32_t last_solicit_index;
	uint32_t consumer_counter;
	uint32_t producer_counter;
	uint64_t dbr_addr;
};

struct prm_create_cq_params {
	uint16_t uid;
	struct prm_cqc_params cqc;
	uint64_t cq_umem_offset;
	uint32_t cq_umem_id;
	uint8_t cq_umem_valid;
};

struct prm_modify_cq_params {
	uint16_t uid;
	uint16_t op_mod;                /* enum prm_modify_cq_op_mod */
	uint32_t cqn;
	uint32_t modify_field_select;   /* enum prm_modify_cq_select bits */
	struct prm_cqc_params cqc;
	uint8_t cq_umem_valid;
};

/* Ins: builders write the opcode; parsers check it. */
doca_error_t prm_create_cq_in_build(const struct prm_create_cq_params *p, void *in, size_t len);
doca_error_t prm_create_cq_in_parse(const void *in, size_t len, struct prm_create_cq_params *p);
doca_error_t prm_destroy_cq_in_build(uint16_t uid, uint32_t cqn, void *in, size_t len);
doca_error_t prm_destroy_cq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *cqn);
doca_error_t prm_query_cq_in_build(uint16_t uid, uint32_t cqn, void *in, size_t len);
doca_error_t prm_query_cq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *cqn);
doca_error_t prm_modify_cq_in_build(const struct prm_modify_cq_params *p, void *in, size_t len);
doca_error_t prm_modify_cq_in_parse(const void *in, size_t len, struct prm_modify_cq_params *p);

/* Outs: builders write status OK; parsers check the status first (prm_cmd_out_check). */
doca_error_t prm_create_cq_out_build(uint32_t cqn, void *out, size_t len);
doca_error_t prm_create_cq_out_parse(const void *out, size_t len, uint32_t *cqn);
doca_error_t prm_destroy_cq_out_build(void *out, size_t len);
doca_error_t prm_destroy_cq_out_parse(const void *out, size_t len);
doca_error_t prm_query_cq_out_build(const struct prm_cqc_params *cqc, void *out, size_t len);
doca_error_t prm_query_cq_out_parse(const void *out, size_t len, struct prm_cqc_params *cqc);
doca_error_t prm_modify_cq_out_build(void *out, size_t len);
doca_error_t prm_modify_cq_out_parse(const void *out, size_t len);

#endif /* OGDA_PRM_CQ_H_ */
