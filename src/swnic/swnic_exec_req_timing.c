/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Time bases of the RC requester: the per-attempt transport timeout (IB ack timeout,
 * clamped so that tests and dead peers stay bounded) and the RNR NAK delay table.
 */
#include "swnic/swnic_engine.h"

#include <time.h>

uint64_t swnic_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t swnic_exec_ack_timeout_ns(const struct swnic_engine_cfg *cfg, uint8_t ack_timeout)
{
	uint32_t shift = ack_timeout == 0 ? SWNIC_DEFAULT_ACK_TIMEOUT : (ack_timeout > 31u ? 31u : ack_timeout);
	uint64_t ns = 4096ull << shift;
	uint64_t max = cfg != NULL && cfg->max_timeout_ns >= 1000000ull ? cfg->max_timeout_ns : 1000000ull;

	if (ns < 1000000ull)
		ns = 1000000ull;
	return ns > max ? max : ns;
}

uint64_t swnic_exec_rnr_delay_ns(uint8_t min_rnr_nak)
{
	/* IB spec RNR NAK timer field, in microseconds (code 0 is the longest, 655.36 ms). */
	static const uint32_t delay_us[32] = {
		655360, 10,    20,    30,    40,    60,     80,     120,    160,    240,    320,
		480,    640,   960,   1280,  1920,  2560,   3840,   5120,   7680,   10240,  15360,
		20480,  30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
	};

	return (uint64_t)delay_us[min_rnr_nak & 31u] * 1000ull;
}
