/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The outer match image of a received frame: its fields as an fte_match_set_lyr_2_4 (the PRM
 * builder of src/prm/prm_flow_match.c writes the bytes), so that flow table entries are compared
 * with it byte for byte (swnic_steer_match). TCP ports stay zero for a UDP frame and the other way
 * round, as a ConnectX's parser leaves them.
 */
#include "swnic/swnic_steer.h"

#include "prm/prm_flow_match.h"

#include <string.h>

void swnic_pkt_match_image(const struct swnic_pkt_info *pi, uint8_t img[SWNIC_MATCH_BYTES])
{
	struct prm_match_lyr_2_4 m;

	memset(&m, 0, sizeof(m));
	memcpy(m.smac, pi->smac, 6);
	memcpy(m.dmac, pi->dmac, 6);
	m.ethertype = pi->ethertype;
	m.first_prio = pi->first_prio;
	m.first_cfi = pi->first_cfi;
	m.first_vid = pi->first_vid;
	m.cvlan_tag = pi->cvlan ? 1u : 0u;
	m.svlan_tag = pi->svlan ? 1u : 0u;
	if (pi->l3 != SWNIC_PKT_L3_NONE) {
		m.ip_protocol = pi->ip_protocol;
		m.ip_dscp = pi->ip_dscp;
		m.ip_ecn = pi->ip_ecn;
		m.frag = pi->frag ? 1u : 0u;
		m.ip_version = pi->l3;
		m.ttl_hoplimit = pi->ttl;
		memcpy(m.src_ip, pi->src_ip, 16);
		memcpy(m.dst_ip, pi->dst_ip, 16);
	}
	if (pi->l4 == SWNIC_PKT_L4_TCP) {
		m.tcp_flags = pi->tcp_flags;
		m.tcp_sport = pi->sport;
		m.tcp_dport = pi->dport;
	} else if (pi->l4 == SWNIC_PKT_L4_UDP) {
		m.udp_sport = pi->sport;
		m.udp_dport = pi->dport;
	}
	if (prm_match_lyr_2_4_build(&m, img, SWNIC_MATCH_BYTES) != DOCA_SUCCESS)
		memset(img, 0, SWNIC_MATCH_BYTES); /* out-of-range values cannot come from the parser */
}
