/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethernet receive queue (RQ) commands, as DevX users create an RQ whose work queue lives in
 * a umem. The RQ context (rqc) embeds the generic work queue context (prm_wq_layout,
 * prm_rmp.h) at 0x30, like sqc and rmpc. The RQ is created in RST and moved to RDY with
 * MODIFY_RQ; frames reach it through a TIR (prm_tir.h): directly (inline_rqn) or through
 * an RQ table (RQT).
 */
#ifndef OGDA_PRM_RQ_H_
#define OGDA_PRM_RQ_H_

#include "doca_error.h"
#include "prm/prm_layout.h"
#include "prm/prm_rmp.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_RQC_WQ_OFFSET 0x30u
#define PRM_RQC_SIZE 0xf0u              /* without the wq's trailing pas[] */
#define PRM_RQC_OFFSET 0x20u            /* ctx inside create_rq_in / modify_rq_in, rq_context in query_rq_out */
#define PRM_RQ_CMD_SIZE 0x110u          /* create_rq_in, modify_rq_in, query_rq_out */
#define PRM_RQ_SMALL_CMD_SIZE 0x10u     /* create_rq_out, destroy_rq_in/out, query_rq_in, modify_rq_out */

/* rqc.state and modify_rq_in.rq_state */
enum prm_rq_state {
	PRM_RQ_STATE_RST = 0x0,
	PRM_RQ_STATE_RDY = 0x1,
	PRM_RQ_STATE_ERR = 0x3,
};

/* rqc.mem_rq_type: where the receive WQEs are. */
enum prm_rq_mem_type {
	PRM_RQ_MEM_INLINE = 0x0,        /* the RQ's own work queue (rqc.wq) */
	PRM_RQ_MEM_RMP = 0x1,           /* a shared RMP (rqc.rmpn) */
};

/* modify_rq_in.modify_bitmask: rqc fields other than state that a MODIFY_RQ changes. */
enum prm_modify_rq_bitmask {
	PRM_MODIFY_RQ_BITMASK_VSD = 1u << 1,
	PRM_MODIFY_RQ_BITMASK_SCATTER_FCS = 1u << 2,
	PRM_MODIFY_RQ_BITMASK_COUNTER_SET_ID = 1u << 3,
};

extern const struct prm_layout prm_rqc_layout;
extern const struct prm_layout prm_create_rq_in_layout;
extern const struct prm_layout prm_create_rq_out_layout;
extern const struct prm_layout prm_modify_rq_in_layout;
extern const struct prm_layout prm_modify_rq_out_layout;
extern const struct prm_layout prm_destroy_rq_in_layout;
extern const struct prm_layout prm_destroy_rq_out_layout;
extern const struct prm_layout prm_query_rq_in_layout;
extern const struct prm_layout prm_query_rq_out_layout;

struct prm_rqc_params {
	uint8_t rlky;
	uint8_t delay_drop_en;
	uint8_t scatter_fcs;            /* keep the frame check sequence in the buffer */
	uint8_t vsd;                    /* VLAN strip disable */
	uint8_t mem_rq_type;            /* enum prm_rq_mem_type */
	uint8_t state;                  /* enum prm_rq_state */
	uint8_t flush_in_error_en;
	uint8_t ts_format;              /* CQE time stamp format (as sqc.ts_format) */
	uint32_t user_index;
	uint32_t cqn;
	uint8_t counter_set_id;
	uint32_t rmpn;                  /* mem_rq_type RMP only */
	struct prm_wq_params wq;        /* wq_type CYCLIC, log_wq_stride 4 and up (16-byte data segments) */
};

struct prm_create_rq_params {
	uint16_t uid;
	struct prm_rqc_params rqc;
};

struct prm_modify_rq_params {
	uint16_t uid;
	uint8_t rq_state;               /* current state (enum prm_rq_state) */
	uint32_t rqn;
	uint64_t modify_bitmask;        /* enum prm_modify_rq_bitmask bits */
	struct prm_rqc_params rqc;      /* rqc.state: the new state */
};

/* Ins: builders write the opcode; parsers check it. */
doca_error_t prm_create_rq_in_build(const struct prm_create_rq_params *p, void *in, size_t len);
doca_error_t prm_create_rq_in_parse(const void *in, size_t len, struct prm_create_rq_params *p);
doca_error_t prm_modify_rq_in_build(const struct prm_modify_rq_params *p, void *in, size_t len);
doca_error_t prm_modify_rq_in_parse(const void *in, size_t len, struct prm_modify_rq_params *p);
doca_error_t prm_destroy_rq_in_build(uint16_t uid, uint32_t rqn, void *in, size_t len);
doca_error_t prm_destroy_rq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rqn);
doca_error_t prm_query_rq_in_build(uint16_t uid, uint32_t rqn, void *in, size_t len);
doca_error_t prm_query_rq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rqn);

/* Outs: builders write status OK; parsers check the status first. */
doca_error_t prm_create_rq_out_build(uint32_t rqn, void *out, size_t len);
doca_error_t prm_create_rq_out_parse(const void *out, size_t len, uint32_t *rqn);
doca_error_t prm_query_rq_out_build(const struct prm_rqc_params *rqc, void *out, size_t len);
doca_error_t prm_query_rq_out_parse(const void *out, size_t len, struct prm_rqc_params *rqc);
/* MODIFY_RQ and DESTROY_RQ answer with the bare header: prm_cmd_empty_out_*. */

#endif /* OGDA_PRM_RQ_H_ */
