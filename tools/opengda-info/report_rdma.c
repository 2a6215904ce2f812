/* SPDX-License-Identifier: BSD-3-Clause */
#include "report.h"

#include "devx/rdma_core.h"

#include <inttypes.h>
#include <stdio.h>

#define MAX_LISTED 64

void report_rdma(void)
{
	struct ogda_ibdev_entry devs[MAX_LISTED];
	const char *why = NULL;
	size_t count = 0;
	size_t i;

	printf("RDMA devices (rdma-core)\n");
	if (ogda_ibdev_list(devs, MAX_LISTED, &count, &why) != DOCA_SUCCESS) {
		report_kv("none", "device listing failed");
		return;
	}
	if (count == 0) {
		report_kv("none", "%s", why ? why : "no devices");
		return;
	}
	for (i = 0; i < count && i < MAX_LISTED; i++)
		report_kv(devs[i].name, "node GUID %016" PRIx64, devs[i].guid);
	if (count > MAX_LISTED)
		report_kv("", "... and %zu more", count - MAX_LISTED);
}
