/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Checksum offload of the software NIC's Ethernet port: what a ConnectX does to a frame whose
 * WQE asks for L3 / L4 checksums (eth segment cs_flags) before it leaves.
 */
#ifndef OGDA_SWNIC_ETH_CSUM_H_
#define OGDA_SWNIC_ETH_CSUM_H_

#include <stddef.h>
#include <stdint.h>

/* What swnic_eth_csum_fill() wrote. */
enum swnic_eth_csum_done {
	SWNIC_ETH_CSUM_IP4 = 1u << 0,  /* the IPv4 header checksum */
	SWNIC_ETH_CSUM_UDP = 1u << 1,
	SWNIC_ETH_CSUM_TCP = 1u << 2,
};

/*
 * Writes the checksums cs_flags asks for (OPENGDA_MLX5_ETH_WQE_L3_CSUM: the IPv4 header
 * checksum; _L4_CSUM: the UDP or TCP checksum over IPv4 or IPv6) into the len-byte frame.
 * The frame is parsed as the hardware parses it: Ethernet, up to two VLAN tags, IPv4 with
 * options or IPv6 without extension headers; a non-first IPv4 fragment gets no L4 checksum.
 * Frames it cannot parse (other protocols, truncated headers) are left as they are, as a
 * NIC sends them. Returns the enum swnic_eth_csum_done bits of what it wrote.
 */
uint32_t swnic_eth_csum_fill(uint8_t *frame, size_t len, uint8_t cs_flags);

/* One's complement sum of big-endian 16-bit words added to acc, not folded (a trailing odd byte is padded with zero). */
uint32_t swnic_eth_sum16(uint32_t acc, const uint8_t *p, size_t len);

/* The Internet checksum (RFC 1071) of len bytes, folded and complemented. */
uint16_t swnic_eth_inet_csum(const uint8_t *p, size_t len);

#endif /* OGDA_SWNIC_ETH_CSUM_H_ */
