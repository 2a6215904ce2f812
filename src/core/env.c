/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/env.h"

#include <errno.h>
#include <stdlib.h>
#include <strings.h>

doca_error_t ogda_env_get_long(const char *name, long min, long max, long def, long *out)
{
	const char *s = getenv(name);
	char *end = NULL;
	long v;

	*out = def;
	if (s == NULL || *s == '\0')
		return DOCA_SUCCESS;
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
		return DOCA_ERROR_INVALID_VALUE;
	*out = v;
	return DOCA_SUCCESS;
}

doca_error_t ogda_env_get_bool(const char *name, bool def, bool *out)
{
	static const char *const truthy[] = {"1", "yes", "true", "on"};
	static const char *const falsy[] = {"0", "no", "false", "off"};
	const char *s = getenv(name);
	size_t i;

	*out = def;
	if (s == NULL || *s == '\0')
		return DOCA_SUCCESS;
	for (i = 0; i < sizeof(truthy) / sizeof(truthy[0]); i++) {
		if (strcasecmp(s, truthy[i]) == 0) {
			*out = true;
			return DOCA_SUCCESS;
		}
		if (strcasecmp(s, falsy[i]) == 0) {
			*out = false;
			return DOCA_SUCCESS;
		}
	}
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t ogda_env_get_word(const char *name, const char *const *words, unsigned n, unsigned def, unsigned *out)
{
	const char *s = getenv(name);
	unsigned i;

	*out = def;
	if (s == NULL || *s == '\0')
		return DOCA_SUCCESS;
	for (i = 0; i < n; i++) {
		if (words[i] != NULL && strcasecmp(s, words[i]) == 0) {
			*out = i;
			return DOCA_SUCCESS;
		}
	}
	return DOCA_ERROR_INVALID_VALUE;
}
