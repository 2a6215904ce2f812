/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the software NIC's receive parser sees in a frame: the L2-L4 fields that flow tables
 * match on (the outer fte_match_set_lyr_2_4 of the PRM), the fields RSS hashes, and the
 * checksum verdicts and header types a receive CQE reports. Parsed as a ConnectX parses:
 * Ethernet, up to two VLAN tags (802.1Q / 802.1ad), IPv4 with options or IPv6 (no extension
 * headers), then TCP, UDP or ICMP.
 */
#ifndef OGDA_SWNIC_PKT_H_
#define OGDA_SWNIC_PKT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum swnic_pkt_l3 {
	SWNIC_PKT_L3_NONE = 0,
	SWNIC_PKT_L3_IPV4 = 4,
	SWNIC_PKT_L3_IPV6 = 6,
};

enum swnic_pkt_l4 {
	SWNIC_PKT_L4_NONE = 0,
	SWNIC_PKT_L4_TCP,
	SWNIC_PKT_L4_UDP,
	SWNIC_PKT_L4_ICMP,          /* ICMP over IPv4, ICMPv6 over IPv6 */
	SWNIC_PKT_L4_OTHER,         /* another IP protocol */
};

struct swnic_pkt_info {
	uint8_t dmac[6], smac[6];
	uint16_t ethertype;         /* after the VLAN tags */
	bool cvlan, svlan;          /* the first tag is 802.1Q / 802.1ad */
	uint8_t first_prio, first_cfi;
	uint16_t first_vid;
	uint8_t l3;                 /* enum swnic_pkt_l3 */
	uint8_t ip_protocol, ip_dscp, ip_ecn, ttl, ihl;
	bool frag;                  /* IPv4: more fragments, or a non-zero offset */
	uint8_t src_ip[16], dst_ip[16]; /* IPv4 in the last 4 bytes, as the PRM holds it */
	uint8_t l4;                 /* enum swnic_pkt_l4 */
	uint16_t sport, dport;      /* TCP / UDP */
	uint16_t tcp_flags;         /* 9 bits */
	bool l2_ok, l3_ok, l4_ok;   /* headers complete, checksums right (CQE hds_ip_ext) */
};

/* Parses a len-byte frame. Never fails: what is not there stays zero / NONE. */
void swnic_pkt_parse(const uint8_t *frame, size_t len, struct swnic_pkt_info *pi);

#endif /* OGDA_SWNIC_PKT_H_ */
