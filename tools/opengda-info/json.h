/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: a small streaming JSON writer (objects, arrays, strings, numbers, booleans,
 * null) with two-space indentation. Strings are escaped per RFC 8259; bytes that are not
 * valid UTF-8 become U+FFFD, so the output always parses.
 */
#ifndef OGDA_TOOLS_INFO_JSON_H_
#define OGDA_TOOLS_INFO_JSON_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json_out {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* nothing written yet at that depth */
};

void json_init(struct json_out *j, FILE *f);

/* key is the member name inside an object, NULL inside an array or at the top. */
void json_object_begin(struct json_out *j, const char *key);
void json_object_end(struct json_out *j);
void json_array_begin(struct json_out *j, const char *key);
void json_array_end(struct json_out *j);
void json_string(struct json_out *j, const char *key, const char *value); /* NULL writes null */
void json_int(struct json_out *j, const char *key, int64_t value);
void json_uint(struct json_out *j, const char *key, uint64_t value);
void json_bool(struct json_out *j, const char *key, bool value);
void json_null(struct json_out *j, const char *key);

/* Writes s as a quoted, escaped JSON string. */
void json_write_string(FILE *f, const char *s);

#endif /* OGDA_TOOLS_INFO_JSON_H_ */
