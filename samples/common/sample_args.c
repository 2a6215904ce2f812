/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

#include "sample_args.h"

#include <string.h>

#include "sample_util.h"

/* The option an argument names; *inline_value is set for "--long=value". */
static const struct sample_opt *find_opt(const char *a, const struct sample_opt *opts, size_t nopts,
					 const char **inline_value)
{
	const char *eq = strchr(a, '=');
	size_t i;

	*inline_value = NULL;
	for (i = 0; i < nopts; i++) {
		const struct sample_opt *o = &opts[i];
		size_t n = strlen(o->long_name);

		if (strcmp(a, o->long_name) == 0 || (o->short_name != NULL && strcmp(a, o->short_name) == 0))
			return o;
		if (eq != NULL && o->value_name != NULL && (size_t)(eq - a) == n && strncmp(a, o->long_name, n) == 0) {
			*inline_value = eq + 1;
			return o;
		}
	}
	return NULL;
}

int sample_args_parse(int argc, char **argv, const struct sample_opt *opts, size_t nopts, sample_opt_handler handler,
		      void *arg)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *value = NULL, *spelled;
		const struct sample_opt *o;

		if (a[0] != '-' || a[1] == '\0') {
			sample_err("unexpected argument '%s' (see --help)", a);
			return -1;
		}
		o = find_opt(a, opts, nopts, &value);
		if (o == NULL) {
			sample_err("unknown option '%s' (see --help)", a);
			return -1;
		}
		/* Messages name the option as it was typed ("-ro", not "--rdma-oper-type"). */
		spelled = value != NULL ? o->long_name : a;
		if (o->value_name != NULL && value == NULL) {
			if (i + 1 >= argc) {
				sample_err("%s needs a value %s", a, o->value_name);
				return -1;
			}
			value = argv[++i];
		}
		if (handler(o->id, spelled, value, arg) != 0)
			return -1;
	}
	return 0;
}

void sample_args_usage(FILE *f, const char *synopsis, const struct sample_opt *opts, size_t nopts)
{
	size_t i;

	fprintf(f, "Usage: %s %s\n\nOptions:\n", sample_prog(), synopsis);
	for (i = 0; i < nopts; i++) {
		char spell[96];

		snprintf(spell, sizeof(spell), "%s%s%s%s%s", opts[i].short_name != NULL ? opts[i].short_name : "",
			 opts[i].short_name != NULL ? ", " : "", opts[i].long_name, opts[i].value_name != NULL ? " " : "",
			 opts[i].value_name != NULL ? opts[i].value_name : "");
		fprintf(f, "  %-34s %s\n", spell, opts[i].help);
	}
}
