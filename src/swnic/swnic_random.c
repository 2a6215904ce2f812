/* SPDX-License-Identifier: BSD-3-Clause */
#include "swnic/swnic_random.h"

#include "core/log.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static swnic_random_source_fn source_override;

void swnic_random_set_source(swnic_random_source_fn source)
{
	__atomic_store_n(&source_override, source, __ATOMIC_RELEASE);
}

doca_error_t swnic_random_bytes(void *buf, size_t len)
{
	swnic_random_source_fn source = __atomic_load_n(&source_override, __ATOMIC_ACQUIRE);
	uint8_t *p = buf;
	size_t done = 0;

	if (buf == NULL && len > 0) {
		OGDA_LOG_ERR("NULL buffer for %zu random bytes", len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (source != NULL) {
		source(buf, len);
		return DOCA_SUCCESS;
	}
	while (done < len) {
		ssize_t n = getrandom(p + done, len - done, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			OGDA_LOG_ERR("getrandom: %s", strerror(errno));
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
		done += (size_t)n;
	}
	return DOCA_SUCCESS;
}

uint32_t swnic_random_u32(void)
{
	static atomic_uint_fast32_t counter;
	struct timespec ts;
	uint64_t x;
	uint32_t v;

	if (swnic_random_bytes(&v, sizeof(v)) == DOCA_SUCCESS)
		return v;
	/* splitmix64 of clock and counter: distinct values, not secret ones. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ (atomic_fetch_add(&counter, 1) * 0x9e3779b97f4a7c15ull);
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)(x ^ (x >> 31));
}
