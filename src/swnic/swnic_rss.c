/* SPDX-License-Identifier: BSD-3-Clause */
/* RSS of the software NIC's indirect TIRs: the Toeplitz hash over the selected fields (swnic_steer.h). */
#include "swnic/swnic_steer.h"

#include <string.h>

/* Key bit @bit (0 = the most significant bit of key[0]); bits past the key read as 0. */
static uint32_t key_bit(const uint8_t *key, size_t bit)
{
	if (bit >= (size_t)SWNIC_RSS_KEY_BYTES * 8u)
		return 0;
	return (key[bit / 8u] >> (7u - bit % 8u)) & 1u;
}

uint32_t swnic_toeplitz(const uint8_t key[SWNIC_RSS_KEY_BYTES], const uint8_t *data, size_t len)
{
	uint32_t window = (uint32_t)key[0] << 24 | (uint32_t)key[1] << 16 | (uint32_t)key[2] << 8 | key[3];
	uint32_t hash = 0;
	size_t i, next = 32;
	int b;

	for (i = 0; i < len; i++) {
		for (b = 7; b >= 0; b--) {
			if (data[i] & (1u << b))
				hash ^= window;
			window = window << 1 | key_bit(key, next++);
		}
	}
	return hash;
}

/* Puts the smaller of two equally long fields first, so that both directions hash alike. */
static void order_pair(const uint8_t **a, const uint8_t **b, size_t len)
{
	if (memcmp(*a, *b, len) > 0) {
		const uint8_t *t = *a;

		*a = *b;
		*b = t;
	}
}

uint32_t swnic_rss_hash(const struct swnic_pkt_info *pi, const uint8_t key[SWNIC_RSS_KEY_BYTES], uint8_t l3_type,
			uint8_t l4_type, uint32_t fields, bool symmetric)
{
	uint8_t in[36], sp[2], dp[2];
	const uint8_t *src, *dst, *ps = sp, *pd = dp;
	size_t alen, n = 0;
	bool l4_ok;

	if ((l3_type == PRM_RX_HASH_L3_IPV4 && pi->l3 != SWNIC_PKT_L3_IPV4) ||
	    (l3_type == PRM_RX_HASH_L3_IPV6 && pi->l3 != SWNIC_PKT_L3_IPV6) || l3_type > PRM_RX_HASH_L3_IPV6)
		return 0;
	alen = pi->l3 == SWNIC_PKT_L3_IPV4 ? 4u : 16u;
	src = pi->src_ip + (16u - alen);
	dst = pi->dst_ip + (16u - alen);
	l4_ok = !pi->frag && ((l4_type == PRM_RX_HASH_L4_TCP && pi->l4 == SWNIC_PKT_L4_TCP) ||
			       (l4_type == PRM_RX_HASH_L4_UDP && pi->l4 == SWNIC_PKT_L4_UDP));
	sp[0] = (uint8_t)(pi->sport >> 8);
	sp[1] = (uint8_t)pi->sport;
	dp[0] = (uint8_t)(pi->dport >> 8);
	dp[1] = (uint8_t)pi->dport;
	if (symmetric) {
		order_pair(&src, &dst, alen);
		order_pair(&ps, &pd, 2);
	}
	if (fields & PRM_RX_HASH_SRC_IP) {
		memcpy(in + n, src, alen);
		n += alen;
	}
	if (fields & PRM_RX_HASH_DST_IP) {
		memcpy(in + n, dst, alen);
		n += alen;
	}
	if (l4_ok && (fields & PRM_RX_HASH_L4_SPORT)) {
		memcpy(in + n, ps, 2);
		n += 2;
	}
	if (l4_ok && (fields & PRM_RX_HASH_L4_DPORT)) {
		memcpy(in + n, pd, 2);
		n += 2;
	}
	return swnic_toeplitz(key, in, n);
}
