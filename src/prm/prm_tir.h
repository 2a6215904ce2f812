/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethernet receive dispatch objects:
 *
 *   RQT (CREATE_RQT)  an RQ table: the list of RQs an indirect TIR spreads frames over. The
 *                     list (rq_num[]) follows the RQT context, so the command's length depends
 *                     on the number of entries: prm_create_rqt_in_size().
 *   TIR (CREATE_TIR)  the transport interface receive a steering rule forwards to: one RQ
 *                     (DIRECT, inline_rqn) or the RQT entry its receive-side-scaling hash picks
 *                     (INDIRECT, indirect_table, rx_hash_*).
 */
#ifndef OGDA_PRM_TIR_H_
#define OGDA_PRM_TIR_H_

#include "doca_error.h"
#include "prm/prm_layout.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_RQTC_SIZE 0xf0u             /* without the trailing rq_num[] */
#define PRM_RQTC_OFFSET 0x20u           /* rqt_context inside create_rqt_in */
#define PRM_RQT_CMD_SIZE 0x110u         /* create_rqt_in without rq_num[] */
#define PRM_RQT_LIST_OFFSET 0x110u      /* rq_num[0] inside create_rqt_in */
#define PRM_RQT_ENTRY_SIZE 4u           /* one rq_num entry */
#define PRM_RQT_MAX_RQS 256u            /* entries a parameters struct holds (this layer's limit) */
#define PRM_TIRC_SIZE 0xf0u
#define PRM_TIRC_OFFSET 0x20u           /* ctx inside create_tir_in */
#define PRM_TIR_CMD_SIZE 0x110u         /* create_tir_in */
#define PRM_TIR_SMALL_CMD_SIZE 0x10u    /* create_tir/rqt_out, destroy_tir/rqt_in/out */
#define PRM_TIR_TOEPLITZ_KEY_LEN 40u    /* rx_hash_toeplitz_key: 10 dwords */

/* tirc.disp_type */
enum prm_tir_disp_type {
	PRM_TIR_DISP_DIRECT = 0x0,
	PRM_TIR_DISP_INDIRECT = 0x1,
};

/* tirc.rx_hash_fn */
enum prm_rx_hash_fn {
	PRM_RX_HASH_FN_NONE = 0x0,
	PRM_RX_HASH_FN_INVERTED_XOR8 = 0x1,
	PRM_RX_HASH_FN_TOEPLITZ = 0x2,
};

/* tirc.self_lb_block: frames this function sent that the TIR does not receive. */
enum prm_tir_self_lb_block {
	PRM_TIR_SELF_LB_BLOCK_UNICAST = 0x1,
	PRM_TIR_SELF_LB_BLOCK_MULTICAST = 0x2,
};

/* tirc.lro_enable_mask */
enum prm_tir_lro_enable {
	PRM_TIR_LRO_IPV4 = 0x1,
	PRM_TIR_LRO_IPV6 = 0x2,
};

/* rx_hash_field_select.l3_prot_type / l4_prot_type */
enum prm_rx_hash_l3 {
	PRM_RX_HASH_L3_IPV4 = 0,
	PRM_RX_HASH_L3_IPV6 = 1,
};

enum prm_rx_hash_l4 {
	PRM_RX_HASH_L4_TCP = 0,
	PRM_RX_HASH_L4_UDP = 1,
};

/* rx_hash_field_select.selected_fields bits */
enum prm_rx_hash_field {
	PRM_RX_HASH_SRC_IP = 1u << 0,
	PRM_RX_HASH_DST_IP = 1u << 1,
	PRM_RX_HASH_L4_SPORT = 1u << 2,
	PRM_RX_HASH_L4_DPORT = 1u << 3,
	PRM_RX_HASH_IPSEC_SPI = 1u << 4,
};

extern const struct prm_layout prm_rqtc_layout;
extern const struct prm_layout prm_rq_num_layout;
extern const struct prm_layout prm_create_rqt_in_layout;  /* the fixed part, without rq_num[] */
extern const struct prm_layout prm_create_rqt_out_layout;
extern const struct prm_layout prm_destroy_rqt_in_layout;
extern const struct prm_layout prm_destroy_rqt_out_layout;
extern const struct prm_layout prm_rx_hash_field_select_layout;
extern const struct prm_layout prm_tirc_layout;
extern const struct prm_layout prm_create_tir_in_layout;
extern const struct prm_layout prm_create_tir_out_layout;
extern const struct prm_layout prm_destroy_tir_in_layout;
extern const struct prm_layout prm_destroy_tir_out_layout;

struct prm_rqtc_params {
	uint16_t rqt_max_size;          /* entries the table may ever hold */
	uint16_t rqt_actual_size;       /* entries in rq_num[] (at most PRM_RQT_MAX_RQS here) */
	uint32_t rq_num[PRM_RQT_MAX_RQS];
};

struct prm_create_rqt_params {
	uint16_t uid;
	struct prm_rqtc_params rqtc;
};

struct prm_rx_hash_field_select {
	uint8_t l3_prot_type;           /* enum prm_rx_hash_l3 */
	uint8_t l4_prot_type;           /* enum prm_rx_hash_l4 */
	uint32_t selected_fields;       /* enum prm_rx_hash_field bits (30 bits) */
};

struct prm_tirc_params {
	uint8_t disp_type;              /* enum prm_tir_disp_type */
	uint16_t lro_timeout_period_usecs;
	uint8_t lro_enable_mask;        /* enum prm_tir_lro_enable bits */
	uint8_t lro_max_ip_payload_size;
	uint32_t inline_rqn;            /* DIRECT */
	uint8_t rx_hash_symmetric;
	uint8_t tunneled_offload_en;
	uint32_t indirect_table;        /* INDIRECT: the RQT number */
	uint8_t rx_hash_fn;             /* enum prm_rx_hash_fn */
	uint8_t self_lb_block;          /* enum prm_tir_self_lb_block bits */
	uint32_t transport_domain;
	uint8_t rx_hash_toeplitz_key[PRM_TIR_TOEPLITZ_KEY_LEN];
	struct prm_rx_hash_field_select rx_hash_field_selector_outer;
	struct prm_rx_hash_field_select rx_hash_field_selector_inner;
};

struct prm_create_tir_params {
	uint16_t uid;
	struct prm_tirc_params tirc;
};

/*
 * Bytes of a CREATE_RQT input mailbox with n entries: PRM_RQT_CMD_SIZE + 4 * n; 0 when n
 * exceeds PRM_RQT_MAX_RQS.
 */
size_t prm_create_rqt_in_size(uint32_t n);

/*
 * Ins: builders write the opcode; parsers check it. CREATE_RQT writes / reads
 * rqtc.rqt_actual_size entries after the context: more than PRM_RQT_MAX_RQS, or a buffer
 * shorter than prm_create_rqt_in_size(rqt_actual_size), is DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t prm_create_rqt_in_build(const struct prm_create_rqt_params *p, void *in, size_t len);
doca_error_t prm_create_rqt_in_parse(const void *in, size_t len, struct prm_create_rqt_params *p);
doca_error_t prm_destroy_rqt_in_build(uint16_t uid, uint32_t rqtn, void *in, size_t len);
doca_error_t prm_destroy_rqt_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rqtn);
doca_error_t prm_create_tir_in_build(const struct prm_create_tir_params *p, void *in, size_t len);
doca_error_t prm_create_tir_in_parse(const void *in, size_t len, struct prm_create_tir_params *p);
doca_error_t prm_destroy_tir_in_build(uint16_t uid, uint32_t tirn, void *in, size_t len);
doca_error_t prm_destroy_tir_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *tirn);

/* Outs: builders write status OK; parsers check the status first. */
doca_error_t prm_create_rqt_out_build(uint32_t rqtn, void *out, size_t len);
doca_error_t prm_create_rqt_out_parse(const void *out, size_t len, uint32_t *rqtn);
doca_error_t prm_create_tir_out_build(uint32_t tirn, void *out, size_t len);
doca_error_t prm_create_tir_out_parse(const void *out, size_t len, uint32_t *tirn);
/* DESTROY_RQT and DESTROY_TIR answer with the bare header: prm_cmd_empty_out_*. */

#endif /* OGDA_PRM_TIR_H_ */
