/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethernet send objects: the transport interface send (TIS) and the send queue (SQ) whose
 * work queue lives in a umem, as DevX users create them for an Ethernet TX queue. The SQ
 * context (sqc) embeds the generic work queue context (prm_wq_layout, prm_rmp.h) at 0x30.
 * The SQ is created in RST and moved to RDY with MODIFY_SQ; the NIC sends its WQEs out
 * through the TIS it names (tis_num_0).
 */
#ifndef OGDA_PRM_SQ_H_
#define OGDA_PRM_SQ_H_

#include "doca_error.h"
#include "prm/prm_layout.h"
#include "prm/prm_rmp.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_TISC_SIZE 0xa0u
#define PRM_TISC_OFFSET 0x20u           /* ctx inside create_tis_in */
#define PRM_TIS_CMD_SIZE 0xc0u          /* create_tis_in */
#define PRM_SQC_WQ_OFFSET 0x30u
#define PRM_SQC_SIZE 0xf0u
#define PRM_SQC_OFFSET 0x20u            /* ctx inside create_sq_in / modify_sq_in */
#define PRM_SQ_CMD_SIZE 0x110u          /* create_sq_in, modify_sq_in */
#define PRM_SQ_SMALL_CMD_SIZE 0x10u

/* sqc.state and modify_sq_in.sq_state */
enum prm_sq_state {
	PRM_SQ_STATE_RST = 0x0,
	PRM_SQ_STATE_RDY = 0x1,
	PRM_SQ_STATE_ERR = 0x3,
};

/* sqc.min_wqe_inline_mode: packet bytes every WQE must carry inline. */
enum prm_sq_inline_mode {
	PRM_SQ_INLINE_NONE = 0x0,       /* none: the whole packet may be in data segments */
	PRM_SQ_INLINE_L2 = 0x1,         /* the Ethernet header */
	PRM_SQ_INLINE_IP = 0x2,
	PRM_SQ_INLINE_TCP_UDP = 0x3,
};

extern const struct prm_layout prm_tisc_layout;
extern const struct prm_layout prm_create_tis_in_layout;
extern const struct prm_layout prm_create_tis_out_layout;
extern const struct prm_layout prm_destroy_tis_in_layout;
extern const struct prm_layout prm_destroy_tis_out_layout;
extern const struct prm_layout prm_sqc_layout;
extern const struct prm_layout prm_create_sq_in_layout;
extern const struct prm_layout prm_create_sq_out_layout;
extern const struct prm_layout prm_modify_sq_in_layout;
extern const struct prm_layout prm_modify_sq_out_layout;
extern const struct prm_layout prm_destroy_sq_in_layout;
extern const struct prm_layout prm_destroy_sq_out_layout;

struct prm_tisc_params {
	uint8_t prio;
	uint32_t transport_domain;
	uint32_t pd;
};

struct prm_create_tis_params {
	uint16_t uid;
	struct prm_tisc_params tisc;
};

struct prm_sqc_params {
	uint8_t rlky;
	uint8_t cd_master;
	uint8_t fre;
	uint8_t flush_in_error_en;
	uint8_t allow_multi_pkt_send_wqe;
	uint8_t min_wqe_inline_mode;    /* enum prm_sq_inline_mode */
	uint8_t state;                  /* enum prm_sq_state */
	uint8_t allow_swp;
	uint8_t ts_format;
	uint32_t user_index;
	uint32_t cqn;
	uint16_t packet_pacing_rate_limit_index;
	uint16_t tis_lst_sz;
	uint32_t tis_num_0;
	struct prm_wq_params wq;        /* wq_type CYCLIC, log_wq_stride 6 (64-byte WQEBBs) */
};

struct prm_create_sq_params {
	uint16_t uid;
	struct prm_sqc_params sqc;
};

struct prm_modify_sq_params {
	uint16_t uid;
	uint8_t sq_state;               /* current state (enum prm_sq_state) */
	uint32_t sqn;
	uint64_t modify_bitmask;
	struct prm_sqc_params sqc;      /* sqc.state: the new state */
};

/* Ins: builders write the opcode; parsers check it. */
doca_error_t prm_create_tis_in_build(const struct prm_create_tis_params *p, void *in, size_t len);
doca_error_t prm_create_tis_in_parse(const void *in, size_t len, struct prm_create_tis_params *p);
doca_error_t prm_destroy_tis_in_build(uint16_t uid, uint32_t tisn, void *in, size_t len);
doca_error_t prm_destroy_tis_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *tisn);
doca_error_t prm_create_sq_in_build(const struct prm_create_sq_params *p, void *in, size_t len);
doca_error_t prm_create_sq_in_parse(const void *in, size_t len, struct prm_create_sq_params *p);
doca_error_t prm_modify_sq_in_build(const struct prm_modify_sq_params *p, void *in, size_t len);
doca_error_t prm_modify_sq_in_parse(const void *in, size_t len, struct prm_modify_sq_params *p);
doca_error_t prm_destroy_sq_in_build(uint16_t uid, uint32_t sqn, void *in, size_t len);
doca_error_t prm_destroy_sq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *sqn);

/* Outs: builders write status OK; parsers check the status first. */
doca_error_t prm_create_tis_out_build(uint32_t tisn, void *out, size_t len);
doca_error_t prm_create_tis_out_parse(const void *out, size_t len, uint32_t *tisn);
doca_error_t prm_create_sq_out_build(uint32_t sqn, void *out, size_t len);
doca_error_t prm_create_sq_out_parse(const void *out, size_t len, uint32_t *sqn);
/* DESTROY_TIS, MODIFY_SQ and DESTROY_SQ answer with the bare header: prm_cmd_empty_out_*. */

#endif /* OGDA_PRM_SQ_H_ */
