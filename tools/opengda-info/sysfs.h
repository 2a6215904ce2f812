/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: reading sysfs and procfs under a root directory (the machine's own, or a
 * fake tree given with --sysfs-root / --proc-root). Every read is bounded and a missing or
 * unreadable file is a normal answer (false / -1), never an error message.
 */
#ifndef OGDA_TOOLS_INFO_SYSFS_H_
#define OGDA_TOOLS_INFO_SYSFS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* root + "/" + formatted rest into buf; false when it does not fit. */
bool info_path(char *buf, size_t len, const char *root, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Whole file as a NUL-terminated string (cut at len - 1 bytes); false when unreadable. */
bool info_read_text(const char *path, char *buf, size_t len);

/* First line, without its newline and trailing blanks; false when unreadable or empty. */
bool info_read_line(const char *path, char *buf, size_t len);

/* A number in the file (strtol base 0: "0x10de", "-1", "3"); def when unreadable or not a number. */
long info_read_long(const char *path, long def);

/* Up to len raw bytes; the count read, or -1 when the file cannot be opened. */
ssize_t info_read_bytes(const char *path, uint8_t *buf, size_t len);

/* Whether the path exists (any kind of file). */
bool info_exists(const char *path);

/* Whether the directory holds any entry besides "." and "..". */
bool info_dir_has_entries(const char *path);

/* Whether a kernel module is loaded: <sysfs>/module/<name> or a line of <proc>/modules. */
bool info_module_loaded(const char *sysfs_root, const char *proc_root, const char *name);

#endif /* OGDA_TOOLS_INFO_SYSFS_H_ */
