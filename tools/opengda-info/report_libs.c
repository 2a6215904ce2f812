/* SPDX-License-Identifier: BSD-3-Clause */
#include "report.h"

#include "core/dl.h"

#include <stdio.h>

void report_libs(void)
{
	int lib;

	printf("Run-time libraries (loaded with dlopen; each is optional)\n");
	for (lib = 0; lib < OGDA_LIB_COUNT; lib++) {
		struct ogda_runtime_lib_info info;
		void *handle;

		/* Opening is what fills the report; failure is a normal answer here. */
		(void)ogda_runtime_lib_open((enum ogda_runtime_lib)lib, &handle);
		if (ogda_runtime_lib_query((enum ogda_runtime_lib)lib, &info) != DOCA_SUCCESS)
			continue;
		if (info.loaded)
			report_kv(info.label, "found: %s (%s)", info.soname, info.path);
		else
			report_kv(info.label, "not found: %s", info.error);
	}
}
