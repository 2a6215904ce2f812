/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: what this OpenGDA build is, which optional run-time libraries it found,
 * and which GPUs and RDMA devices it can use.
 */
#include "report.h"

#include "core/build_config.h"
#include "core/log.h"
#include "opengda.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void report_kv(const char *label, const char *fmt, ...)
{
	va_list ap;

	printf("  %-22s ", label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void report_build(void)
{
	printf("Build\n");
	report_kv("library", "libdoca_gpunetio %s", opengda_version_string());
	report_kv("build type", "%s", OGDA_BUILD_TYPE);
	report_kv("C compiler", "%s", OGDA_C_COMPILER);
	report_kv("CUDA compiler", "%s", OGDA_CUDA_COMPILER);
	report_kv("CUDA architectures", "%s", OGDA_CUDA_ARCHITECTURES);
	report_kv("sanitizers", "%s", OGDA_SANITIZERS[0] ? OGDA_SANITIZERS : "none");
	report_kv("rdma-core headers", "%s", OGDA_IBVERBS_HEADERS);
	report_kv("log level", "%d (%s; 0-7, default 3)", opengda_log_get_level(), OGDA_LOG_ENV);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: opengda-info [--help]\n"
		     "Prints the OpenGDA build configuration, the optional run-time libraries found\n"
		     "(CUDA driver, rdma-core, GDRCopy), the GPUs and the RDMA devices.\n");
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			usage(stdout);
			return 0;
		}
		fprintf(stderr, "opengda-info: unknown argument '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	printf("OpenGDA %s: GPU-initiated RDMA for mlx5 NICs\n\n", opengda_version_string());
	report_build();
	putchar('\n');
	report_libs();
	putchar('\n');
	report_gpus();
	putchar('\n');
	report_rdma();
	return 0;
}
