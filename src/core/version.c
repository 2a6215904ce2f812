/* SPDX-License-Identifier: BSD-3-Clause */
#include "opengda.h"

#include "core/build_config.h"

uint32_t opengda_version(void)
{
	return ((uint32_t)OGDA_VERSION_MAJOR << 16) | ((uint32_t)OGDA_VERSION_MINOR << 8) | OGDA_VERSION_PATCH;
}

const char *opengda_version_string(void)
{
	return OGDA_VERSION_STRING;
}
