/* SPDX-License-Identifier: BSD-3-Clause */
#include "swnic/swnic_poll.h"

#include "core/env.h"
#include "core/log.h"

#include <stdlib.h>
#include <unistd.h>

static const char *const poll_words[] = {
	[SWNIC_POLL_ADAPTIVE] = "adaptive",
	[SWNIC_POLL_SPIN] = "spin",
	[SWNIC_POLL_SLEEP] = "sleep",
};

void swnic_poll_cfg_read(struct swnic_poll_cfg *cfg)
{
	unsigned mode;
	long us;

	if (ogda_env_get_word(SWNIC_ENV_POLL, poll_words, 3, SWNIC_POLL_ADAPTIVE, &mode) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: expected spin, adaptive or sleep; using adaptive", SWNIC_ENV_POLL);
	if (ogda_env_get_long(SWNIC_ENV_POLL_SPIN_US, 0, 1000000, SWNIC_POLL_SPIN_US_DEFAULT, &us) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s must be 0..1000000 us (spin before giving up the CPU); using %d",
			     SWNIC_ENV_POLL_SPIN_US, SWNIC_POLL_SPIN_US_DEFAULT);
	cfg->mode = (enum swnic_poll_mode)mode;
	cfg->spin_ns = (uint64_t)us * 1000ull;
}

void swnic_poll_cfg_read_woken(struct swnic_poll_cfg *cfg)
{
	const char *spin = getenv(SWNIC_ENV_POLL_SPIN_US);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	swnic_poll_cfg_read(cfg);
	if (cfg->mode == SWNIC_POLL_ADAPTIVE && (spin == NULL || *spin == '\0') && cpus > 0 &&
	    cpus <= SWNIC_POLL_SMALL_CPUS) {
		cfg->mode = SWNIC_POLL_SLEEP;
		cfg->spin_ns = 0;
	}
}

const char *swnic_poll_mode_name(enum swnic_poll_mode mode)
{
	return (unsigned)mode < 3 ? poll_words[mode] : "?";
}

enum swnic_idle_step swnic_poll_idle_step(const struct swnic_poll_cfg *cfg, uint64_t idle_ns)
{
	if (cfg->mode == SWNIC_POLL_SPIN || idle_ns < cfg->spin_ns)
		return SWNIC_IDLE_SPIN;
	if (cfg->mode == SWNIC_POLL_ADAPTIVE && idle_ns < SWNIC_POLL_YIELD_NS)
		return SWNIC_IDLE_YIELD;
	return SWNIC_IDLE_SLEEP;
}
