/* SPDX-License-Identifier: BSD-3-Clause */
/* Environment configuration: every knob is parsed and range-checked in one place. */
#ifndef OGDA_CORE_ENV_H_
#define OGDA_CORE_ENV_H_

#include "doca_error.h"

#include <stdbool.h>

/*
 * Reads an integer variable. Unset or empty: *out = def, DOCA_SUCCESS.
 * Not a whole number in [min, max]: *out = def, DOCA_ERROR_INVALID_VALUE (the caller logs,
 * so the message names the knob's purpose). Accepts decimal, 0x hex and 0 octal.
 */
doca_error_t ogda_env_get_long(const char *name, long min, long max, long def, long *out);

/* Reads a boolean: 1/0, yes/no, true/false, on/off (any case). Same contract as above. */
doca_error_t ogda_env_get_bool(const char *name, bool def, bool *out);

/*
 * Reads a word out of words[0 .. n): *out = its index (exact, any case). Unset or empty:
 * *out = def, DOCA_SUCCESS; any other word: *out = def, DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t ogda_env_get_word(const char *name, const char *const *words, unsigned n, unsigned def, unsigned *out);

#endif /* OGDA_CORE_ENV_H_ */
