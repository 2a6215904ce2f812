/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "sample_dev.h"

#include <string.h>

#include "sample_util.h"

int sample_doca_ok(const char *what, doca_error_t err)
{
	if (err == DOCA_SUCCESS)
		return 0;
	sample_err_doca(what, err);
	return -1;
}

int sample_doca_dev_open(const char *name, struct doca_devinfo ***list, struct doca_dev **dev)
{
	char n[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint32_t count = 0;

	if (sample_doca_ok("doca_devinfo_create_list", doca_devinfo_create_list(list, &count)) != 0)
		return -1;
	for (uint32_t i = 0; i < count; i++) {
		if (doca_devinfo_get_ibdev_name((*list)[i], n, sizeof(n)) != DOCA_SUCCESS)
			continue;
		if (name == NULL || strcmp(n, name) == 0) {
			sample_info("device %s", n);
			return sample_doca_ok("doca_dev_open", doca_dev_open((*list)[i], dev));
		}
	}
	sample_err("no device %s", name != NULL ? name : "at all");
	return -1;
}
