/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/* Opening a DOCA device by name, and checking DOCA calls, for the GPUNetIO samples. */
#ifndef SAMPLE_DEV_H_
#define SAMPLE_DEV_H_

#include "doca_dev.h"
#include "doca_error.h"

/* 0 when err is DOCA_SUCCESS; otherwise an error line naming what failed, and -1. */
int sample_doca_ok(const char *what, doca_error_t err);

/*
 * Lists the devices into *list (destroy it with doca_devinfo_destroy_list) and opens the one
 * named name (NULL: the first) into *dev; prints "device <name>". Returns 0, or -1 with an
 * error line.
 */
int sample_doca_dev_open(const char *name, struct doca_devinfo ***list, struct doca_dev **dev);

#endif /* SAMPLE_DEV_H_ */
