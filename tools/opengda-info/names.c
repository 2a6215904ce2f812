/* SPDX-License-Identifier: BSD-3-Clause */
/* opengda-info: names and number formats shared by the text and JSON reports. */
#include "info.h"

#include <inttypes.h>
#include <stdio.h>

const char *info_status_tag(enum info_status s)
{
	return s == INFO_OK ? "[ OK ]" : (s == INFO_WARN ? "[WARN]" : "[FAIL]");
}

const char *info_status_name(enum info_status s)
{
	return s == INFO_OK ? "ok" : (s == INFO_WARN ? "warn" : "fail");
}

const char *info_topo_name(enum info_topo t)
{
	static const char *const names[] = {"?", "PIX", "PXB", "PHB", "NODE", "SYS"};

	return (unsigned int)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

const char *info_port_state_name(uint8_t state)
{
	static const char *const names[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "unknown";
}

void info_format_gid(const uint8_t gid[16], char *buf, size_t len)
{
	size_t used = 0;

	if (buf == NULL || len == 0)
		return;
	buf[0] = '\0';
	for (int i = 0; i < 16; i += 2) {
		int n = snprintf(buf + used, len - used, "%s%02x%02x", i ? ":" : "", gid[i], gid[i + 1]);

		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
}

void info_format_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	unsigned int u = 0;

	/* The largest unit that keeps the number whole: BAR sizes are powers of two. */
	while (u + 1 < sizeof(units) / sizeof(units[0]) && bytes != 0 && (bytes & 1023u) == 0) {
		bytes >>= 10;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, units[u]);
}
