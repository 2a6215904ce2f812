/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * front_detect: run through opengda-swnic-run, the library's ConnectX path opens mlx5_0 and knows
 * that rdma-core is OpenGDA's own front end (ogda_devx_is_front), so that high-level QPs made for
 * a GPU keep their queues in host memory, where the software NIC behind it executes them. Without
 * the front end (argument "none") no mlx5_0 opens, or it is not the front end's.
 * Exit 0: as expected; 1: not; 77: skipped (no rdma-core at all).
 */
#include "devx/hw.h"
#include "devx/rdma_core.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	const bool want_front = argc < 2 || strcmp(argv[1], "none") != 0;
	const struct ogda_ibv *v = NULL;
	struct ogda_devx *dev = NULL;
	doca_error_t err;
	bool is_front;

	if (ogda_ibv_get(&v) != DOCA_SUCCESS) {
		printf("SKIP: no libibverbs.so.1 to load\n");
		return 77;
	}
	err = ogda_devx_hw_open("mlx5_0", &dev);
	if (err != DOCA_SUCCESS) {
		if (!want_front) {
			printf("PASS: no front end, no mlx5_0 (%s)\n", doca_error_get_name(err));
			return 0;
		}
		printf("FAIL: mlx5_0 did not open through the front end: %s\n", doca_error_get_name(err));
		return 1;
	}
	is_front = ogda_devx_is_front(dev);
	if (!ogda_devx_is_hw(dev) || is_front != want_front) {
		printf("FAIL: mlx5_0 opened on the ConnectX path %s; front end detected: %s (expected %s)\n",
		       ogda_devx_is_hw(dev) ? "yes" : "no", is_front ? "yes" : "no", want_front ? "yes" : "no");
		dev->ops->close(dev);
		return 1;
	}
	dev->ops->close(dev);
	printf("PASS: mlx5_0 on the ConnectX path, front end detected: %s\n", is_front ? "yes" : "no");
	return 0;
}
