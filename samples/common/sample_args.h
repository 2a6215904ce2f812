/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * Command-line parsing for the samples. DOCA's samples take multi-letter short flags
 * ("-gid", "-ro"), which getopt cannot express, so options are matched against a table:
 * the short spelling, the long spelling, or "--long=value".
 */
#ifndef SAMPLE_ARGS_H_
#define SAMPLE_ARGS_H_

#include <stddef.h>
#include <stdio.h>

struct sample_opt {
	int id;                 /* passed to the handler */
	const char *short_name; /* "-gid", or NULL */
	const char *long_name;  /* "--gid-index" */
	const char *value_name; /* "<index>" for an option with a value, NULL for a flag */
	const char *help;       /* one line */
};

/*
 * Called for each option found; opt is the option as typed, value is NULL for a flag. Returns 0 to go on, -1 after
 * printing why the value is not acceptable.
 */
typedef int (*sample_opt_handler)(int id, const char *opt, const char *value, void *arg);

/*
 * Parses argv[1..argc-1]. Returns 0, or -1 after printing the reason (unknown option,
 * missing value, stray argument, or the handler's refusal).
 */
int sample_args_parse(int argc, char **argv, const struct sample_opt *opts, size_t nopts, sample_opt_handler handler,
		      void *arg);

/* Prints "Usage: <prog> <synopsis>" and one line per option. */
void sample_args_usage(FILE *f, const char *synopsis, const struct sample_opt *opts, size_t nopts);

#endif /* SAMPLE_ARGS_H_ */
