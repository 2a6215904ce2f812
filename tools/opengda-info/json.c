/* SPDX-License-Identifier: BSD-3-Clause */
#include "json.h"

#include <inttypes.h>
#include <string.h>

void json_init(struct json_out *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07u;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0u) != 0x80u)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	/* Overlong forms, surrogates and values beyond U+10FFFF are not valid. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_write_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p != '\0') {
		size_t n;

		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		default:
			if (*p < 0x20) {
				fprintf(f, "\\u%04x", *p);
				break;
			}
			n = utf8_len(p);
			if (n == 0) {
				fputs("\\ufffd", f);
				break;
			}
			fwrite(p, 1, n, f);
			p += n - 1;
			break;
		}
		p++;
	}
	fputc('"', f);
}

/* Separator, newline and indentation before a value, then its key. */
static void member(struct json_out *j, const char *key)
{
	if (j->depth > 0) {
		fputs(j->first[j->depth] ? "\n" : ",\n", j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	j->first[j->depth] = false;
	if (key != NULL) {
		json_write_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_(struct json_out *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct json_out *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void json_object_begin(struct json_out *j, const char *key)
{
	open_(j, key, '{');
}

void json_object_end(struct json_out *j)
{
	close_(j, '}');
}

void json_array_begin(struct json_out *j, const char *key)
{
	open_(j, key, '[');
}

void json_array_end(struct json_out *j)
{
	close_(j, ']');
}

void json_string(struct json_out *j, const char *key, const char *value)
{
	member(j, key);
	if (value == NULL)
		fputs("null", j->f);
	else
		json_write_string(j->f, value);
}

void json_int(struct json_out *j, const char *key, int64_t value)
{
	member(j, key);
	fprintf(j->f, "%" PRId64, value);
}

void json_uint(struct json_out *j, const char *key, uint64_t value)
{
	member(j, key);
	fprintf(j->f, "%" PRIu64, value);
}

void json_bool(struct json_out *j, const char *key, bool value)
{
	member(j, key);
	fputs(value ? "true" : "false", j->f);
}

void json_null(struct json_out *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}
