/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A match set with a distinct non-zero value in every field, and its image written out by
 * hand from Linux mlx5_ifc.h mlx5_ifc_fte_match_set_lyr_2_4_bits (shared by the flow tests).
 */
#include "test_prm_flow_expect.h"

#include <string.h>

/* Distinct non-zero values in every field of the outer header set. */
void prm_test_fill_match(struct prm_match_lyr_2_4 *m)
{
	unsigned i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < 6; i++) {
		m->smac[i] = (uint8_t)(0x01 + i);
		m->dmac[i] = (uint8_t)(0x11 + i);
	}
	m->ethertype = 0x86dd;
	m->first_prio = 5;
	m->first_cfi = 1;
	m->first_vid = 0xabc;
	m->ip_protocol = 0x11;
	m->ip_dscp = 0x2e;
	m->ip_ecn = 3;
	m->cvlan_tag = 1;
	m->svlan_tag = 1;
	m->frag = 1;
	m->ip_version = 6;
	m->tcp_flags = 0x155;
	m->tcp_sport = 0x1234;
	m->tcp_dport = 0x5678;
	m->ttl_hoplimit = 0x40;
	m->udp_sport = 0x9abc;
	m->udp_dport = 0xdef0;
	for (i = 0; i < 16; i++) {
		m->src_ip[i] = (uint8_t)(0x20 + i);
		m->dst_ip[i] = (uint8_t)(0xa0 + i);
	}
}

/* The image of fill_match() in a buffer whose set starts at base. */
void prm_test_expect_match(uint8_t *exp, size_t base)
{
	uint8_t *e = exp + base;
	unsigned i;

	for (i = 0; i < 6; i++) {
		e[0x00 + i] = (uint8_t)(0x01 + i); /* smac_47_16 dw0, smac_15_0 dw1 [31:16] */
		e[0x08 + i] = (uint8_t)(0x11 + i); /* dmac_47_16 dw2, dmac_15_0 dw3 [31:16] */
	}
	e[0x06] = 0x86; /* ethertype dw1 [15:0] */
	e[0x07] = 0xdd;
	e[0x0e] = 0xba; /* first_prio dw3 [15:13] = 5, first_cfi [12], first_vid [11:0] = 0xabc */
	e[0x0f] = 0xbc;
	/* dw4: ip_protocol [31:24], ip_dscp [23:18], ip_ecn [17:16], cvlan [15], svlan [14], frag [13],
	 * ip_version [12:9] = 6, tcp_flags [8:0] = 0x155 */
	e[0x10] = 0x11;
	e[0x11] = 0xbb;
	e[0x12] = 0xed;
	e[0x13] = 0x55;
	e[0x14] = 0x12; /* tcp_sport dw5 [31:16] */
	e[0x15] = 0x34;
	e[0x16] = 0x56; /* tcp_dport dw5 [15:0] */
	e[0x17] = 0x78;
	e[0x1b] = 0x40; /* ttl_hoplimit dw6 [7:0] */
	e[0x1c] = 0x9a; /* udp_sport dw7 [31:16] */
	e[0x1d] = 0xbc;
	e[0x1e] = 0xde; /* udp_dport dw7 [15:0] */
	e[0x1f] = 0xf0;
	for (i = 0; i < 16; i++) {
		e[0x20 + i] = (uint8_t)(0x20 + i); /* src_ipv4_src_ipv6 at bit 0x100 */
		e[0x30 + i] = (uint8_t)(0xa0 + i); /* dst_ipv4_dst_ipv6 at bit 0x180 */
	}
}
