/* SPDX-License-Identifier: BSD-3-Clause */
/* A program outside the tree, built against the installed package. */
#include <doca_error.h>
#include <opengda.h>
#include <opengda_mlx5.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	if (strcmp(doca_error_get_name(DOCA_ERROR_TIME_OUT), "DOCA_ERROR_TIME_OUT") != 0)
		return 1;
	if (opengda_version() == 0 || opengda_mlx5_htobe32(1) != 0x01000000u)
		return 1;
	printf("consumer: OpenGDA %s\n", opengda_version_string());
	return 0;
}
