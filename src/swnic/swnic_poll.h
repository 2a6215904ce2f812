/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How the software NIC's threads wait for work (OPENGDA_SWNIC_POLL, OPENGDA_SWNIC_POLL_SPIN_US):
 * the engine waiting for doorbells, and both ends of the shared-memory fabric waiting for
 * each other. Spinning gives the lowest latency when cores are free; on a machine with
 * fewer cores than spinning parties it only steals the time slice the other party needs,
 * so the default spins briefly and then gives the CPU away.
 */
#ifndef OGDA_SWNIC_POLL_H_
#define OGDA_SWNIC_POLL_H_

#include <stdbool.h>
#include <stdint.h>

#define SWNIC_ENV_POLL "OPENGDA_SWNIC_POLL"
#define SWNIC_ENV_POLL_SPIN_US "OPENGDA_SWNIC_POLL_SPIN_US"
#define SWNIC_POLL_SPIN_US_DEFAULT 50
#define SWNIC_POLL_YIELD_NS 2000000ull     /* adaptive: after the spin, sched_yield until this long */
#define SWNIC_POLL_SLEEP_MIN_NS 10000ull   /* then sleep, doubling from this */
#define SWNIC_POLL_SLEEP_MAX_NS 1000000ull /* up to this */

enum swnic_poll_mode {
	SWNIC_POLL_ADAPTIVE = 0, /* spin spin_ns, yield until SWNIC_POLL_YIELD_NS, then sleep with a backoff */
	SWNIC_POLL_SPIN = 1,     /* never give up the CPU */
	SWNIC_POLL_SLEEP = 2,    /* spin spin_ns, then sleep at once (no yield phase): for small machines */
};

struct swnic_poll_cfg {
	enum swnic_poll_mode mode;
	uint64_t spin_ns;        /* OPENGDA_SWNIC_POLL_SPIN_US */
};

/* Reads both knobs; a bad value is logged once per call and the default used. */
void swnic_poll_cfg_read(struct swnic_poll_cfg *cfg);
/*
 * The same for a waiter its peer wakes (a futex), such as both ends of a shared-memory
 * channel: sleeping costs such a waiter only the wake-up, so on a machine of at most
 * SWNIC_POLL_SMALL_CPUS online CPUs the default (adaptive, spin not set) sleeps at once:
 * a spinning waiter there only takes the time slice its peer needs to answer.
 */
void swnic_poll_cfg_read_woken(struct swnic_poll_cfg *cfg);
#define SWNIC_POLL_SMALL_CPUS 2
const char *swnic_poll_mode_name(enum swnic_poll_mode mode);

/* What an idle waiter does next, idle_ns after its last work. */
enum swnic_idle_step {
	SWNIC_IDLE_SPIN,  /* check again after a pause instruction */
	SWNIC_IDLE_YIELD, /* check again after sched_yield */
	SWNIC_IDLE_SLEEP, /* block (with a wake-up or timeout) for the backoff's next period */
};
enum swnic_idle_step swnic_poll_idle_step(const struct swnic_poll_cfg *cfg, uint64_t idle_ns);

static inline void swnic_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

#endif /* OGDA_SWNIC_POLL_H_ */
