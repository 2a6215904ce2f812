/* SPDX-License-Identifier: BSD-3-Clause */
/* The stand-in constructors the test follows: they hand out marker objects (sdk_standin.h). */
#include "sdk_standin.h"

#define STANDIN_EXPORT __attribute__((visibility("default")))

void standin_record(const char *name);

#ifdef STANDIN_LIB_VERBS
STANDIN_EXPORT long doca_verbs_cq_attr_create(void **attr);
long doca_verbs_cq_attr_create(void **attr)
{
	standin_record("doca_verbs_cq_attr_create");
	*attr = (void *)STANDIN_CQ_ATTR;
	return 0;
}
#endif

#ifdef STANDIN_LIB_GPUNETIO
STANDIN_EXPORT long doca_gpu_create(const char *bus_id, void **gpu);
long doca_gpu_create(const char *bus_id, void **gpu)
{
	(void)bus_id;
	standin_record("doca_gpu_create");
	*gpu = (void *)STANDIN_GPU;
	return 0;
}
#endif
