/* SPDX-License-Identifier: BSD-3-Clause */
/* The receive parser of the software NIC's Ethernet port (swnic_pkt.h). */
#include "swnic/swnic_pkt.h"

#include "swnic/swnic_eth_csum.h"

#include <string.h>

#define ETH_HDR 14u
#define VLAN_TAG 4u
#define ETHERTYPE_IP4 0x0800u
#define ETHERTYPE_IP6 0x86ddu
#define ETHERTYPE_VLAN 0x8100u
#define ETHERTYPE_QINQ 0x88a8u
#define IP4_MIN_HDR 20u
#define IP6_HDR 40u
#define PROTO_ICMP 1u
#define PROTO_TCP 6u
#define PROTO_UDP 17u
#define PROTO_ICMP6 58u
#define TCP_MIN_HDR 20u
#define UDP_HDR 8u

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static bool folds_to_zero(uint32_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffffu) + (acc >> 16);
	return acc == 0xffffu;
}

/* L4 checksum check over [l4, l4 + l4_len) with the pseudo-header sum @pseudo. */
static bool l4_sum_ok(const struct swnic_pkt_info *pi, const uint8_t *l4, size_t l4_len, uint32_t pseudo)
{
	/* A UDP datagram over IPv4 may carry no checksum (zero): nothing to verify, it is good. */
	if (pi->l4 == SWNIC_PKT_L4_UDP && pi->l3 == SWNIC_PKT_L3_IPV4 && rd16(l4 + 6) == 0)
		return true;
	return folds_to_zero(swnic_eth_sum16(pseudo + (uint32_t)l4_len + pi->ip_protocol, l4, l4_len));
}

static void parse_l4(const uint8_t *l4, size_t l4_len, uint32_t pseudo, bool first_fragment, struct swnic_pkt_info *pi)
{
	switch (pi->ip_protocol) {
	case PROTO_TCP:
		pi->l4 = SWNIC_PKT_L4_TCP;
		break;
	case PROTO_UDP:
		pi->l4 = SWNIC_PKT_L4_UDP;
		break;
	case PROTO_ICMP:
	case PROTO_ICMP6:
		pi->l4 = (pi->ip_protocol == PROTO_ICMP) == (pi->l3 == SWNIC_PKT_L3_IPV4) ? SWNIC_PKT_L4_ICMP
											  : SWNIC_PKT_L4_OTHER;
		break;
	default:
		pi->l4 = SWNIC_PKT_L4_OTHER;
		break;
	}
	if (!first_fragment)
		return;
	if (pi->l4 == SWNIC_PKT_L4_TCP && l4_len >= TCP_MIN_HDR) {
		pi->sport = rd16(l4);
		pi->dport = rd16(l4 + 2);
		pi->tcp_flags = (uint16_t)(rd16(l4 + 12) & 0x1ffu);
		pi->l4_ok = !pi->frag && l4_sum_ok(pi, l4, l4_len, pseudo);
	} else if (pi->l4 == SWNIC_PKT_L4_UDP && l4_len >= UDP_HDR) {
		pi->sport = rd16(l4);
		pi->dport = rd16(l4 + 2);
		pi->l4_ok = !pi->frag && rd16(l4 + 4) == l4_len && l4_sum_ok(pi, l4, l4_len, pseudo);
	}
}

static void parse_ip4(const uint8_t *l3, size_t len, struct swnic_pkt_info *pi)
{
	size_t hdr, tot;
	uint16_t frag;

	if (len < IP4_MIN_HDR || (l3[0] >> 4) != 4u)
		return;
	hdr = (size_t)(l3[0] & 0xfu) * 4u;
	tot = rd16(l3 + 2);
	if (hdr < IP4_MIN_HDR || hdr > len || tot < hdr || tot > len)
		return;
	pi->l3 = SWNIC_PKT_L3_IPV4;
	pi->ihl = (uint8_t)(l3[0] & 0xfu);
	pi->ip_dscp = (uint8_t)(l3[1] >> 2);
	pi->ip_ecn = (uint8_t)(l3[1] & 3u);
	pi->ttl = l3[8];
	pi->ip_protocol = l3[9];
	memcpy(pi->src_ip + 12, l3 + 12, 4);
	memcpy(pi->dst_ip + 12, l3 + 16, 4);
	frag = rd16(l3 + 6);
	pi->frag = (frag & 0x3fffu) != 0; /* MF or an offset */
	pi->l3_ok = swnic_eth_inet_csum(l3, hdr) == 0;
	parse_l4(l3 + hdr, tot - hdr, swnic_eth_sum16(0, l3 + 12, 8), (frag & 0x1fffu) == 0, pi);
}

static void parse_ip6(const uint8_t *l3, size_t len, struct swnic_pkt_info *pi)
{
	size_t payload;

	if (len < IP6_HDR || (l3[0] >> 4) != 6u)
		return;
	payload = rd16(l3 + 4);
	if (IP6_HDR + payload > len)
		return;
	pi->l3 = SWNIC_PKT_L3_IPV6;
	pi->ip_dscp = (uint8_t)(((l3[0] & 0xfu) << 2) | (l3[1] >> 6));
	pi->ip_ecn = (uint8_t)((l3[1] >> 4) & 3u);
	pi->ip_protocol = l3[6];
	pi->ttl = l3[7];
	memcpy(pi->src_ip, l3 + 8, 16);
	memcpy(pi->dst_ip, l3 + 24, 16);
	pi->l3_ok = true; /* no header checksum in IPv6 */
	parse_l4(l3 + IP6_HDR, payload, swnic_eth_sum16(0, l3 + 8, 32), true, pi);
}

void swnic_pkt_parse(const uint8_t *frame, size_t len, struct swnic_pkt_info *pi)
{
	size_t off = ETH_HDR;
	uint16_t type;
	int tags = 0;

	memset(pi, 0, sizeof(*pi));
	if (frame == NULL || len < ETH_HDR)
		return;
	memcpy(pi->dmac, frame, 6);
	memcpy(pi->smac, frame + 6, 6);
	type = rd16(frame + 12);
	while ((type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ) && tags < 2 && off + VLAN_TAG <= len) {
		if (tags == 0) {
			uint16_t tci = rd16(frame + off);

			pi->cvlan = type == ETHERTYPE_VLAN;
			pi->svlan = type == ETHERTYPE_QINQ;
			pi->first_prio = (uint8_t)(tci >> 13);
			pi->first_cfi = (uint8_t)((tci >> 12) & 1u);
			pi->first_vid = (uint16_t)(tci & 0xfffu);
		}
		type = rd16(frame + off + 2);
		off += VLAN_TAG;
		tags++;
	}
	pi->ethertype = type;
	pi->l2_ok = true;
	if (type == ETHERTYPE_IP4)
		parse_ip4(frame + off, len - off, pi);
	else if (type == ETHERTYPE_IP6)
		parse_ip6(frame + off, len - off, pi);
}
