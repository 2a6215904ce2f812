/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flow steering match parameters: fte_match_param (0x200 bytes), the block that a flow group
 * carries as its match criteria (a mask) and a flow table entry as its match value. It is a
 * row of 0x40-byte sets: the outer L2-L4 headers (fte_match_set_lyr_2_4), misc parameters,
 * the inner L2-L4 headers, misc parameters 2..6. This layer gives fields to the outer headers
 * only; the other sets are written as zeros (matching nothing, masking nothing) and their
 * offsets are published for callers that read the bytes themselves.
 *
 * struct prm_match_lyr_2_4 serves as both mask and value: a mask sets the bits that must
 * match, a value the bits they must equal.
 */
#ifndef OGDA_PRM_FLOW_MATCH_H_
#define OGDA_PRM_FLOW_MATCH_H_

#include "doca_error.h"
#include "prm/prm_layout.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRM_MATCH_SET_SIZE 0x40u        /* fte_match_set_lyr_2_4 and every misc set */
#define PRM_MATCH_PARAM_SIZE 0x200u     /* fte_match_param */
#define PRM_MATCH_OUTER_OFFSET 0x000u
#define PRM_MATCH_MISC_OFFSET 0x040u
#define PRM_MATCH_INNER_OFFSET 0x080u
#define PRM_MATCH_MISC2_OFFSET 0x0c0u
#define PRM_MATCH_MISC3_OFFSET 0x100u
#define PRM_MATCH_MISC4_OFFSET 0x140u
#define PRM_MATCH_MISC5_OFFSET 0x180u
#define PRM_MATCH_MISC6_OFFSET 0x1c0u   /* reserved in kernels before misc_parameters_6 */
#define PRM_MATCH_ADDR_LEN 16u          /* src/dst_ipv4_src/dst_ipv6 */
#define PRM_MATCH_IPV4_AT 12u           /* the IPv4 address: the last 4 of those 16 bytes */

/* create_flow_group_in.match_criteria_enable: which sets of the criteria are used. */
enum prm_match_criteria_enable {
	PRM_MATCH_CRITERIA_OUTER = 1u << 0,
	PRM_MATCH_CRITERIA_MISC = 1u << 1,
	PRM_MATCH_CRITERIA_INNER = 1u << 2,
	PRM_MATCH_CRITERIA_MISC2 = 1u << 3,
	PRM_MATCH_CRITERIA_MISC3 = 1u << 4,
	PRM_MATCH_CRITERIA_MISC4 = 1u << 5,
	PRM_MATCH_CRITERIA_MISC5 = 1u << 6,
};

extern const struct prm_layout prm_match_lyr_2_4_layout;   /* fte_match_set_lyr_2_4 */
extern const struct prm_layout prm_match_param_layout;     /* fte_match_param */

/* The outer (or inner) L2-L4 header set. Multi-byte values are host order; byte arrays are
 * in wire order. */
struct prm_match_lyr_2_4 {
	uint8_t smac[6];
	uint16_t ethertype;
	uint8_t dmac[6];
	uint8_t first_prio;             /* 3 bits: the first VLAN tag's PCP */
	uint8_t first_cfi;              /* 1 bit */
	uint16_t first_vid;             /* 12 bits */
	uint8_t ip_protocol;
	uint8_t ip_dscp;                /* 6 bits */
	uint8_t ip_ecn;                 /* 2 bits */
	uint8_t cvlan_tag;              /* 1: the frame has a customer VLAN tag */
	uint8_t svlan_tag;              /* 1: the frame has a service VLAN tag */
	uint8_t frag;                   /* 1: an IP fragment */
	uint8_t ip_version;             /* 4 bits: 4 or 6 */
	uint16_t tcp_flags;             /* 9 bits */
	uint16_t tcp_sport;
	uint16_t tcp_dport;
	uint8_t ttl_hoplimit;
	uint16_t udp_sport;
	uint16_t udp_dport;
	/* src_ipv4_src_ipv6 / dst_ipv4_dst_ipv6: an IPv6 address, or an IPv4 address in bytes
	 * 12..15 (see prm_match_set_src_ipv4). */
	uint8_t src_ip[PRM_MATCH_ADDR_LEN];
	uint8_t dst_ip[PRM_MATCH_ADDR_LEN];
};

/* IPv4 addresses (host order) in the low 32 bits of src_ip / dst_ip; the other 12 bytes are cleared. */
void prm_match_set_src_ipv4(struct prm_match_lyr_2_4 *m, uint32_t addr);
void prm_match_set_dst_ipv4(struct prm_match_lyr_2_4 *m, uint32_t addr);
uint32_t prm_match_src_ipv4(const struct prm_match_lyr_2_4 *m);
uint32_t prm_match_dst_ipv4(const struct prm_match_lyr_2_4 *m);

/*
 * One set of PRM_MATCH_SET_SIZE bytes at buf (zeroed first). A value wider than its field, a
 * NULL argument or a short buffer is DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t prm_match_lyr_2_4_build(const struct prm_match_lyr_2_4 *m, void *buf, size_t len);
doca_error_t prm_match_lyr_2_4_parse(const void *buf, size_t len, struct prm_match_lyr_2_4 *m);

/*
 * A whole fte_match_param of PRM_MATCH_PARAM_SIZE bytes: the outer headers from outer, every
 * other set zero. The parser reads the outer headers only.
 */
doca_error_t prm_match_param_build(const struct prm_match_lyr_2_4 *outer, void *buf, size_t len);
doca_error_t prm_match_param_parse(const void *buf, size_t len, struct prm_match_lyr_2_4 *outer);

/* true when every byte of an fte_match_param past the outer headers is zero (false for a short buffer). */
bool prm_match_param_outer_only(const void *buf, size_t len);

#endif /* OGDA_PRM_FLOW_MATCH_H_ */
