/* SPDX-License-Identifier: BSD-3-Clause */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool info_parse_version3(const char *s, unsigned int v[3])
{
	const char *p = s;

	if (s == NULL || v == NULL || !isdigit((unsigned char)*s))
		return false;
	v[0] = v[1] = v[2] = 0;
	for (int i = 0; i < 3; i++) {
		char *end;
		unsigned long n;

		errno = 0;
		n = strtoul(p, &end, 10);
		if (end == p || errno != 0 || n > 0xffffffffUL)
			return i > 0;
		v[i] = (unsigned int)n;
		if (*end != '.' || !isdigit((unsigned char)end[1]))
			return true;
		p = end + 1;
	}
	return true;
}

int info_version_cmp(const unsigned int a[3], const unsigned int b[3])
{
	for (int i = 0; i < 3; i++) {
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	}
	return 0;
}

bool info_ibverbs_version_from_file(const char *path, char *out, size_t len)
{
	static const char stem[] = "libibverbs.so.";
	const char *base, *ver;
	unsigned int v[3];
	int n;

	if (path == NULL || out == NULL || len == 0)
		return false;
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	if (strncmp(base, stem, sizeof(stem) - 1) != 0)
		return false;
	ver = base + sizeof(stem) - 1;
	/* "1" alone is the soname, not a version: need major.minor.patch. */
	if (!info_parse_version3(ver, v) || strchr(ver, '.') == NULL || strchr(strchr(ver, '.') + 1, '.') == NULL)
		return false;
	n = snprintf(out, len, "%u.%u.%u", v[0], v[1], v[2]);
	return n > 0 && (size_t)n < len;
}

bool info_kernel_at_least(const char *release, unsigned int major, unsigned int minor)
{
	unsigned int v[3];
	const unsigned int want[3] = {major, minor, 0};

	if (!info_parse_version3(release, v))
		return false;
	v[2] = 0; /* the patch level does not matter for a feature that arrived in major.minor */
	return info_version_cmp(v, want) >= 0;
}

enum info_tri info_parse_peer_mapping_override(const char *params)
{
	static const char key[] = "PeerMappingOverride=";
	const char *line = params;

	if (params == NULL)
		return INFO_UNKNOWN;
	while (line != NULL && *line != '\0') {
		const char *nl = strchr(line, '\n');
		size_t llen = nl != NULL ? (size_t)(nl - line) : strlen(line);

		if (strncmp(line, "RegistryDwords:", 15) == 0) {
			/* Entries are "Name=value" separated by ';', possibly quoted. */
			for (const char *p = line; p < line + llen; p++) {
				if ((size_t)(line + llen - p) > sizeof(key) - 1 && strncmp(p, key, sizeof(key) - 1) == 0 &&
				    (p == line || p[-1] == ';' || p[-1] == '"' || p[-1] == ' ')) {
					char *end;
					unsigned long v = strtoul(p + sizeof(key) - 1, &end, 0);

					if (end != p + sizeof(key) - 1)
						return v != 0 ? INFO_YES : INFO_NO;
				}
			}
		}
		line = nl != NULL ? nl + 1 : NULL;
	}
	return INFO_NO;
}

enum info_module info_parse_nv_version(const char *text, char *version, size_t len)
{
	const char *km, *p;
	enum info_module kind;

	if (version != NULL && len > 0)
		version[0] = '\0';
	if (text == NULL || strncmp(text, "NVRM version:", 13) != 0)
		return INFO_MODULE_NONE;
	km = strstr(text, "Kernel Module");
	if (km == NULL)
		return INFO_MODULE_NONE;
	kind = strstr(text, "Open Kernel Module") != NULL ? INFO_MODULE_OPEN : INFO_MODULE_PROPRIETARY;
	/* The version is the first token after "Kernel Module" that starts with a digit. */
	for (p = km; *p != '\0' && *p != '\n'; p++) {
		if (isdigit((unsigned char)*p) && (p[-1] == ' ' || p[-1] == '\t')) {
			size_t n = strspn(p, "0123456789.");

			if (memchr(p, '.', n) != NULL && version != NULL && len > 0) {
				if (n >= len)
					n = len - 1;
				memcpy(version, p, n);
				version[n] = '\0';
				break;
			}
		}
	}
	return kind;
}

uint64_t info_parse_bar_size(const char *resource, int bar)
{
	const char *line = resource;
	unsigned long long start, end, flags;

	if (resource == NULL || bar < 0)
		return 0;
	for (int i = 0; i < bar && line != NULL; i++) {
		line = strchr(line, '\n');
		if (line != NULL)
			line++;
	}
	if (line == NULL)
		return 0;
	{
		/* Only this line: sscanf would skip newlines into the next one. */
		char one[128];
		size_t n = strcspn(line, "\n");

		if (n >= sizeof(one))
			return 0;
		memcpy(one, line, n);
		one[n] = '\0';
		if (sscanf(one, "%llx %llx %llx", &start, &end, &flags) != 3)
			return 0;
	}
	if (end <= start)
		return 0;
	return (uint64_t)(end - start) + 1u;
}

uint64_t info_parse_gpu_bar1_size(const char *resource)
{
	int in_use = 0;

	for (int line = 0; line < 6; line++) {
		uint64_t size = info_parse_bar_size(resource, line);

		if (size != 0 && ++in_use == 2)
			return size;
	}
	return 0;
}

bool info_cmdline_has(const char *cmdline, const char *word)
{
	size_t wlen;

	if (cmdline == NULL || word == NULL || *word == '\0')
		return false;
	wlen = strlen(word);
	for (const char *p = cmdline; (p = strstr(p, word)) != NULL; p++) {
		bool starts = p == cmdline || isspace((unsigned char)p[-1]);
		bool ends = p[wlen] == '\0' || isspace((unsigned char)p[wlen]);

		if (starts && ends)
			return true;
	}
	return false;
}

bool info_parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (s == NULL || out == NULL || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return false;
	switch (toupper((unsigned char)*end)) {
	case '\0':
		break;
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	default:
		return false;
	}
	if (shift != 0) {
		end++;
		if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0)
			end += strlen(end);
		if (*end != '\0' || v > (~0ULL >> shift))
			return false;
	}
	*out = (uint64_t)v << shift;
	return true;
}

bool info_is_bdf(const char *s)
{
	static const char shape[] = "hhhh:hh:hh.h";

	if (s == NULL || strlen(s) != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; i < sizeof(shape) - 1; i++) {
		if (shape[i] == 'h' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	}
	return true;
}

bool info_normalize_bdf(const char *in, char *out, size_t len)
{
	unsigned int dom, bus, dev, fn;
	char tail;
	int n;

	if (in == NULL || out == NULL || len == 0)
		return false;
	if (sscanf(in, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) != 4 || dom > 0xffff || bus > 0xff ||
	    dev > 0x1f || fn > 7)
		return false;
	n = snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return n > 0 && (size_t)n < len;
}
