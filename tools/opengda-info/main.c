/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: what this OpenGDA build is, which optional run-time libraries it found, the
 * GPUs and devices it can use, how they sit on PCIe, and whether the machine is set up as
 * NVIDIA's GPUNetIO guide asks (with the fix for each finding).
 *
 * Exit status: 0 whatever the machine lacks (that is what the report is for), 2 for a bad
 * command line.
 */
#include "info.h"
#include "parse.h"

#include "opengda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_PLAN_BYTES (1ull << 30) /* the examples' largest put_bw run maps about this much */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: opengda-info [options]\n"
		"Prints the OpenGDA build, the optional run-time libraries found (CUDA driver, rdma-core,\n"
		"GDRCopy), the GPUs, the devices DOCA Verbs can open, the GPU-NIC PCIe topology, and checks\n"
		"the machine against NVIDIA's GPUNetIO setup guide ([ OK ] / [WARN] / [FAIL] with fixes).\n"
		"\n"
		"  --help            this text\n"
		"  --json            the whole report as one JSON object\n"
		"  --checks-only     only the checks and the summary\n"
		"  --plan-bytes N    GPU memory to be mapped for the NIC, compared with BAR1\n"
		"                    (K, M, G, T suffixes; default 1G)\n"
		"  --sysfs-root DIR  read sysfs from DIR instead of /sys\n"
		"  --proc-root DIR   read procfs from DIR instead of /proc\n"
		"\n"
		"Exit status: 0 (whatever the checks find), 2 for a bad command line.\n");
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "opengda-info: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage(stderr);
	return 2;
}

/* The value of "--name VALUE" or "--name=VALUE"; NULL when argv[*i] is not that option. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	*missing = false;
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* 0: parsed; 1: --help printed; 2: bad command line (reported). */
static int parse_args(int argc, char **argv, struct info_opts *o)
{
	o->sysfs_root = "/sys";
	o->proc_root = "/proc";
	o->plan_bytes = DEFAULT_PLAN_BYTES;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		bool missing;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 1;
		} else if (strcmp(a, "--json") == 0) {
			o->json = true;
		} else if (strcmp(a, "--checks-only") == 0) {
			o->checks_only = true;
		} else if ((v = option_value(argc, argv, &i, "--sysfs-root", &missing)) != NULL || missing) {
			if (missing || !is_dir(v))
				return bad("--sysfs-root needs a directory, not '%s'", missing ? "" : v);
			o->sysfs_root = v;
		} else if ((v = option_value(argc, argv, &i, "--proc-root", &missing)) != NULL || missing) {
			if (missing || !is_dir(v))
				return bad("--proc-root needs a directory, not '%s'", missing ? "" : v);
			o->proc_root = v;
		} else if ((v = option_value(argc, argv, &i, "--plan-bytes", &missing)) != NULL || missing) {
			if (missing || !info_parse_size(v, &o->plan_bytes) || o->plan_bytes == 0)
				return bad("--plan-bytes needs a byte count > 0 (e.g. 1073741824 or 1G), not '%s'",
					   missing ? "" : v);
		} else {
			return bad("unknown argument '%s'", a);
		}
	}
	o->real_roots = strcmp(o->sysfs_root, "/sys") == 0 && strcmp(o->proc_root, "/proc") == 0;
	return 0;
}

int main(int argc, char **argv)
{
	struct info_report *r = calloc(1, sizeof(*r));
	int rc;

	if (r == NULL) {
		fprintf(stderr, "opengda-info: out of memory\n");
		return 1;
	}
	rc = parse_args(argc, argv, &r->opts);
	if (rc != 0) {
		free(r);
		return rc == 1 ? 0 : rc;
	}
	info_gather_libs(r);
	info_gather_gpus(r);
	info_gather_devices(r);
	info_gather_nics(r);
	info_gather_system(r);
	info_gather_topology(r);
	info_run_checks(r);
	if (r->opts.json)
		info_render_json(r);
	else
		info_render_text(r);
	free(r);
	return 0;
}
