/* SPDX-License-Identifier: BSD-3-Clause */
/* Checksum offload of the Ethernet port (swnic_eth_csum.h). */
#include "swnic/swnic_eth_csum.h"

#include "opengda_mlx5.h"

#define ETH_HDR 14u
#define ETHERTYPE_IP4 0x0800u
#define ETHERTYPE_IP6 0x86ddu
#define ETHERTYPE_VLAN 0x8100u
#define ETHERTYPE_QINQ 0x88a8u
#define IP_PROTO_TCP 6u
#define IP_PROTO_UDP 17u
#define IP6_HDR 40u

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

uint32_t swnic_eth_sum16(uint32_t acc, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		acc += rd16(p + i);
	if (len & 1u)
		acc += (uint32_t)p[len - 1] << 8;
	return acc;
}

static uint16_t fold(uint32_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffffu) + (acc >> 16);
	return (uint16_t)~acc;
}

uint16_t swnic_eth_inet_csum(const uint8_t *p, size_t len)
{
	return fold(swnic_eth_sum16(0, p, len));
}

/* Where the L4 header is and what it is, from the L3 header at l3. 0: no L4 checksum. */
struct l4_view {
	size_t off, len;
	uint8_t proto;
	uint32_t pseudo; /* pseudo-header sum without the length and protocol */
};

static int parse_ip4(uint8_t *f, size_t len, size_t l3, uint8_t cs_flags, uint32_t *done, struct l4_view *v)
{
	size_t ihl, tot;

	if (l3 + 20u > len || (f[l3] >> 4) != 4u)
		return 0;
	ihl = (size_t)(f[l3] & 0xfu) * 4u;
	tot = rd16(f + l3 + 2);
	if (ihl < 20u || l3 + ihl > len || tot < ihl || l3 + tot > len)
		return 0;
	if (cs_flags & OPENGDA_MLX5_ETH_WQE_L3_CSUM) {
		wr16(f + l3 + 10, 0);
		wr16(f + l3 + 10, swnic_eth_inet_csum(f + l3, ihl));
		*done |= SWNIC_ETH_CSUM_IP4;
	}
	if ((rd16(f + l3 + 6) & 0x1fffu) != 0) /* not the first fragment: no L4 header here */
		return 0;
	v->proto = f[l3 + 9];
	v->off = l3 + ihl;
	v->len = tot - ihl;
	v->pseudo = swnic_eth_sum16(0, f + l3 + 12, 8); /* source and destination addresses */
	return 1;
}

static int parse_ip6(const uint8_t *f, size_t len, size_t l3, struct l4_view *v)
{
	size_t plen;

	if (l3 + IP6_HDR > len || (f[l3] >> 4) != 6u)
		return 0;
	plen = rd16(f + l3 + 4);
	if (l3 + IP6_HDR + plen > len)
		return 0;
	v->proto = f[l3 + 6];
	v->off = l3 + IP6_HDR;
	v->len = plen;
	v->pseudo = swnic_eth_sum16(0, f + l3 + 8, 32);
	return 1;
}

uint32_t swnic_eth_csum_fill(uint8_t *frame, size_t len, uint8_t cs_flags)
{
	struct l4_view v = {0};
	uint32_t done = 0, acc;
	size_t l3 = ETH_HDR, csum_at;
	uint16_t type;
	int vlans = 0, have_l4;

	if (frame == NULL || len < ETH_HDR || cs_flags == 0)
		return 0;
	type = rd16(frame + 12);
	while ((type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ) && vlans < 2 && l3 + 4u <= len) {
		type = rd16(frame + l3 + 2);
		l3 += 4u;
		vlans++;
	}
	if (type == ETHERTYPE_IP4)
		have_l4 = parse_ip4(frame, len, l3, cs_flags, &done, &v);
	else if (type == ETHERTYPE_IP6)
		have_l4 = parse_ip6(frame, len, l3, &v);
	else
		return 0;
	if (!have_l4 || !(cs_flags & OPENGDA_MLX5_ETH_WQE_L4_CSUM))
		return done;
	if (v.proto == IP_PROTO_UDP && v.len >= 8u)
		csum_at = v.off + 6u;
	else if (v.proto == IP_PROTO_TCP && v.len >= 20u)
		csum_at = v.off + 16u;
	else
		return done;
	wr16(frame + csum_at, 0);
	acc = v.pseudo + v.proto + (uint32_t)(v.len & 0xffffu) + (uint32_t)(v.len >> 16);
	acc = swnic_eth_sum16(acc, frame + v.off, v.len);
	wr16(frame + csum_at, fold(acc));
	if (v.proto == IP_PROTO_UDP) {
		if (rd16(frame + csum_at) == 0) /* 0 means "no checksum" for UDP: send all ones */
			wr16(frame + csum_at, 0xffffu);
		done |= SWNIC_ETH_CSUM_UDP;
	} else {
		done |= SWNIC_ETH_CSUM_TCP;
	}
	return done;
}
