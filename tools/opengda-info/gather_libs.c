/* SPDX-License-Identifier: BSD-3-Clause */
/* opengda-info: the optional run-time libraries and the rdma-core version behind libibverbs. */
#include "info.h"
#include "parse.h"

#include "core/dl.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

void info_gather_libs(struct info_report *r)
{
	for (int lib = 0; lib < OGDA_LIB_COUNT && r->nlibs < INFO_MAX_LIBS; lib++) {
		struct ogda_runtime_lib_info li;
		struct info_lib *out;
		void *handle;

		/* Opening is what fills the answer; failure is a normal answer here. */
		(void)ogda_runtime_lib_open((enum ogda_runtime_lib)lib, &handle);
		if (ogda_runtime_lib_query((enum ogda_runtime_lib)lib, &li) != DOCA_SUCCESS)
			continue;
		out = &r->libs[r->nlibs++];
		snprintf(out->label, sizeof(out->label), "%s", li.label);
		snprintf(out->soname, sizeof(out->soname), "%s", li.soname);
		out->loaded = li.loaded;
		snprintf(out->path, sizeof(out->path), "%s", li.path);
		snprintf(out->error, sizeof(out->error), "%s", li.error);
		if (lib == OGDA_LIB_GDRAPI)
			r->sys.gdrapi_loaded = li.loaded;
		if (lib == OGDA_LIB_IBVERBS)
			r->sys.ibverbs_loaded = li.loaded;
		if (lib == OGDA_LIB_IBVERBS && li.loaded) {
			/* The rdma-core front end (docs/rdma-core-front.md) exports its mlx5dv half under this name. */
			r->sys.ibverbs_front = handle != NULL && dlsym(handle, "ogda_front_mlx5dv_is_supported") != NULL;
			/* libibverbs.so.1 links to libibverbs.so.1.<abi>.<rdma-core release>.0. */
			char *real = realpath(li.path, NULL);

			if (real != NULL) {
				(void)info_ibverbs_version_from_file(real, r->sys.ibverbs_version,
								     sizeof(r->sys.ibverbs_version));
				free(real);
			}
		}
	}
}
