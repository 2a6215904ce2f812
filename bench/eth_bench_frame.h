/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the Ethernet benchmarks share: a monotonic clock and the UDP/IPv4 frame they send, 10.77.0.x
 * addresses of the test namespace, ports 4000 -> 5000, filler bytes 0xab.
 */
#ifndef OGDA_BENCH_ETH_BENCH_FRAME_H_
#define OGDA_BENCH_ETH_BENCH_FRAME_H_

#include <stdint.h>
#include <string.h>
#include <time.h>

static inline uint64_t eth_bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A len-byte frame to @dst from 10.77.0.@src_host to 10.77.0.@dst_host; checksums left 0. */
static inline void eth_bench_frame(uint8_t *f, uint32_t len, const uint8_t dst[6], uint8_t src_host, uint8_t dst_host)
{
	static const uint8_t src[6] = {0x02, 0, 0, 0, 0, 0x01};
	uint8_t *ip = f + 14, *udp = ip + 20;
	uint32_t ip_len = len - 14;

	memset(f, 0xab, len);
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = 0x08, f[13] = 0;
	memset(ip, 0, 28);
	ip[0] = 0x45, ip[2] = (uint8_t)(ip_len >> 8), ip[3] = (uint8_t)ip_len, ip[8] = 64, ip[9] = 17;
	ip[12] = 10, ip[13] = 77, ip[14] = 0, ip[15] = src_host;
	ip[16] = 10, ip[17] = 77, ip[18] = 0, ip[19] = dst_host;
	udp[0] = 0x0f, udp[1] = 0xa0, udp[2] = 0x13, udp[3] = 0x88;
	udp[4] = (uint8_t)((ip_len - 20) >> 8), udp[5] = (uint8_t)(ip_len - 20);
}

#endif /* OGDA_BENCH_ETH_BENCH_FRAME_H_ */
