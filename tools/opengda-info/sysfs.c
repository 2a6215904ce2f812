/* SPDX-License-Identifier: BSD-3-Clause */
#include "sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool info_path(char *buf, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;
	int n, m;

	if (buf == NULL || len == 0 || root == NULL || fmt == NULL)
		return false;
	n = snprintf(buf, len, "%s/", root);
	if (n < 0 || (size_t)n >= len)
		return false;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return m >= 0 && (size_t)m < len - (size_t)n;
}

ssize_t info_read_bytes(const char *path, uint8_t *buf, size_t len)
{
	size_t got = 0;
	int fd;

	if (path == NULL || buf == NULL)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* sysfs may refuse part of a file (config space beyond 64 bytes) */
		got += (size_t)n;
	}
	close(fd);
	return (ssize_t)got;
}

bool info_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;

	if (buf == NULL || len == 0)
		return false;
	n = info_read_bytes(path, (uint8_t *)buf, len - 1);
	if (n < 0) {
		buf[0] = '\0';
		return false;
	}
	buf[n] = '\0';
	return true;
}

bool info_read_line(const char *path, char *buf, size_t len)
{
	size_t n;

	if (!info_read_text(path, buf, len))
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return n > 0;
}

long info_read_long(const char *path, long def)
{
	char line[64];
	char *end;
	long v;

	if (!info_read_line(path, line, sizeof(line)))
		return def;
	errno = 0;
	v = strtol(line, &end, 0);
	if (errno != 0 || end == line)
		return def;
	return v;
}

bool info_exists(const char *path)
{
	struct stat st;

	return path != NULL && stat(path, &st) == 0;
}

bool info_dir_has_entries(const char *path)
{
	struct dirent *e;
	bool any = false;
	DIR *d;

	if (path == NULL)
		return false;
	d = opendir(path);
	if (d == NULL)
		return false;
	while (!any && (e = readdir(d)) != NULL)
		any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return any;
}

bool info_module_loaded(const char *sysfs_root, const char *proc_root, const char *name)
{
	char path[512];
	char *text;
	size_t nlen = strlen(name);
	bool found = false;

	if (info_path(path, sizeof(path), sysfs_root, "module/%s", name) && info_exists(path))
		return true;
	if (!info_path(path, sizeof(path), proc_root, "modules"))
		return false;
	text = malloc(1u << 20);
	if (text == NULL)
		return false;
	if (info_read_text(path, text, 1u << 20)) {
		/* Each line starts with the module name and a space. */
		for (const char *line = text; line != NULL && *line != '\0' && !found;) {
			const char *nl = strchr(line, '\n');

			found = strncmp(line, name, nlen) == 0 && line[nlen] == ' ';
			line = nl != NULL ? nl + 1 : NULL;
		}
	}
	free(text);
	return found;
}
