/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: pure parsers of what the kernel, the NVIDIA driver and the loader report.
 * No I/O here, so each is tested on exact strings and bytes.
 */
#ifndef OGDA_TOOLS_INFO_PARSE_H_
#define OGDA_TOOLS_INFO_PARSE_H_

#include "info.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Leading "a.b.c" of s (missing parts are 0: "6.2" = 6.2.0); false when s does not start with a digit. */
bool info_parse_version3(const char *s, unsigned int v[3]);

/* <0, 0, >0 as a is older, the same as or newer than b. */
int info_version_cmp(const unsigned int a[3], const unsigned int b[3]);

/*
 * The rdma-core version a libibverbs file name carries: "libibverbs.so.1.14.44.0" (any
 * directory before it) gives "1.14.44". False for a name without it ("libibverbs.so.1").
 */
bool info_ibverbs_version_from_file(const char *path, char *out, size_t len);

/* Whether a kernel release ("6.8.0-45-generic") is major.minor or newer; false when unparsable. */
bool info_kernel_at_least(const char *release, unsigned int major, unsigned int minor);

/*
 * PeerMappingOverride in the text of /proc/driver/nvidia/params: YES when its RegistryDwords
 * line sets it to a non-zero value, NO otherwise (no such line, or 0).
 */
enum info_tri info_parse_peer_mapping_override(const char *params);

/*
 * The NVIDIA kernel module from /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX Open
 * Kernel Module for x86_64  570.86.15  Release Build ..."): open or proprietary, and the
 * driver version ("" when none is found). NONE for text that is not such a line.
 */
enum info_module info_parse_nv_version(const char *text, char *version, size_t len);

/*
 * Size of BAR bar from the text of a PCI function's sysfs "resource" file (one line per
 * resource: "0x<start> 0x<end> 0x<flags>"): end - start + 1, or 0 when absent or unused.
 */
uint64_t info_parse_bar_size(const char *resource, int bar);

/*
 * Size of an NVIDIA GPU's BAR1 (the framebuffer aperture peers map): the second BAR in use
 * among the six standard ones (lines 0-5). A 64-bit BAR takes two BAR registers and leaves
 * the next line zero, so BAR1 is on line 1 when BAR0 is 32-bit (bare metal) and on line 2
 * when BAR0 is 64-bit (seen in VMs). 0 when there is no second BAR.
 */
uint64_t info_parse_gpu_bar1_size(const char *resource);

/* Whether the kernel command line holds word as a whole blank-separated token. */
bool info_cmdline_has(const char *cmdline, const char *word);

/* A byte count: decimal with an optional K, M, G or T suffix (binary units, "KiB" also accepted). */
bool info_parse_size(const char *s, uint64_t *out);

/* "00000000:CA:00.0" (as drivers print it) -> "0000:ca:00.0" (as sysfs names it); false when not an address. */
bool info_normalize_bdf(const char *in, char *out, size_t len);

/* Whether s is a PCI address "dddd:bb:dd.f" (hex digits). */
bool info_is_bdf(const char *s);

#endif /* OGDA_TOOLS_INFO_PARSE_H_ */
