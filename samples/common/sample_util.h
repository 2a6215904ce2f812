/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * Small helpers every sample uses: its name in messages, error lines, exit codes, the
 * monotonic clock, and the -l/--log-level and -v/--version flags.
 */
#ifndef SAMPLE_UTIL_H_
#define SAMPLE_UTIL_H_

#include <stdint.h>

#include "doca_error.h"

/* Exit codes shared by the samples (docs/samples.md). */
#define SAMPLE_EXIT_SUCCESS 0 /* the run did what it was asked and every check passed */
#define SAMPLE_EXIT_FAILURE 1 /* an error, a timeout, a data mismatch, or a peer that failed */
#define SAMPLE_EXIT_USAGE 2   /* the command line was not understood */

/* Names the program in every message ("doca_verbs_server_client"). */
void sample_set_prog(const char *name);
const char *sample_prog(void);

/* "<prog>: error: <message>" on stderr. */
void sample_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The first line sample_err() printed (for a closing summary), or "unknown error". */
const char *sample_first_error(void);
/* "<prog>: <message>" on stdout (flushed, so that a script reading it sees it at once). */
void sample_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An error line for a failed library call: "<prog>: error: <what>: <DOCA error name> (<description>)". */
void sample_err_doca(const char *what, doca_error_t err);

/* Milliseconds of CLOCK_MONOTONIC. */
int64_t sample_now_ms(void);
/* Sleeps for about us microseconds. */
void sample_sleep_us(unsigned int us);

/*
 * Parses an unsigned number (decimal or 0x hex; with allow_suffix also K, M or G for
 * binary multiples) within [min, max]. Prints "<opt>: ..." and returns -1 when it is not.
 */
int sample_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, int allow_suffix, uint64_t *out);

/*
 * Applies -l/--log-level: DOCA's numeric levels (10 DISABLE, 20 CRITICAL, 30 ERROR,
 * 40 WARNING, 50 INFO, 60 DEBUG, 70 TRACE) or a syslog level 0..7 directly.
 * Returns 0, or -1 (message printed) for any other value.
 */
int sample_apply_log_level(const char *opt, const char *s);

/* Prints "<prog> (OpenGDA <version>)" for -v/--version. */
void sample_print_version(void);

#endif /* SAMPLE_UTIL_H_ */
