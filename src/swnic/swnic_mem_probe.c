/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host memory checks of registration: every page of a range must be mapped, readable, and
 * writable when the registration lets the NIC write it. ibv_reg_mr refuses such ranges
 * with EFAULT when it cannot pin them; the model refuses them the same way, so that no
 * later remote access can fault on memory whose registration was accepted.
 *
 * Why /proc/self/maps: it is the kernel's own list of this process's mappings with their
 * protections, read in one pass per registration whatever the range's length (1 TiB costs
 * what 4 KiB does). The alternatives each miss something: mincore() tells mapped from
 * unmapped but not the protections (PROT_NONE pages pass), and walks page by page;
 * process_vm_readv() and msync() find out only by touching or walking every page, O(len)
 * for a range that may be huge, and none of them tells writable from read-only without
 * writing. The answer is a snapshot at registration: memory unmapped or protected while
 * registered is the application's fault, as it is with a NIC (docs/swnic.md §9).
 */
#include "swnic/swnic_mem_int.h"

#include "core/log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define MAPS_PATH "/proc/self/maps"

/* Reads one line of f into line; a longer line (a long path) is consumed to its end. */
static bool read_line(FILE *f, char *line, size_t size)
{
	size_t n;

	if (fgets(line, (int)size, f) == NULL)
		return false;
	n = strlen(line);
	if (n > 0 && line[n - 1] != '\n') {
		int c;

		do {
			c = fgetc(f);
		} while (c != '\n' && c != EOF);
	}
	return true;
}

/*
 * Walks the mappings (the kernel lists them in address order) from the range's start:
 * each must begin where the previous one covered up to, and carry the protections.
 */
static bool covered(FILE *f, uintptr_t start, uintptr_t end, bool writable, uintptr_t *stop)
{
	uintptr_t at = start;
	char line[512];

	while (at < end && read_line(f, line, sizeof(line))) {
		uintmax_t lo, hi;
		char perms[5];

		if (sscanf(line, "%jx-%jx %4s", &lo, &hi, perms) != 3)
			continue;
		if (hi <= at)
			continue;
		if (lo > at)
			break; /* a hole */
		if (perms[0] != 'r' || (writable && perms[1] != 'w'))
			break;
		at = (uintptr_t)hi;
	}
	*stop = at;
	return at >= end;
}

doca_error_t swnic_mem_probe_host(const void *addr, size_t len, bool writable, const char *what)
{
	static atomic_bool warned;
	uintptr_t start = (uintptr_t)addr, end = start + len, stop = start;
	FILE *f;
	bool ok;

	if (addr == NULL || len == 0 || end < start) {
		OGDA_LOG_ERR("%s range is invalid (addr %p, len %zu)", what, addr, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	f = fopen(MAPS_PATH, "re");
	if (f == NULL) {
		/* No procfs (a minimal container): the check cannot be made, and refusing every
		 * registration would make the NIC useless. Say so once. */
		if (!atomic_exchange(&warned, true))
			OGDA_LOG_WARN("cannot read %s (%s): registered memory is not checked", MAPS_PATH,
				      strerror(errno));
		return DOCA_SUCCESS;
	}
	ok = covered(f, start, end, writable, &stop);
	fclose(f);
	if (!ok) {
		OGDA_LOG_ERR("%s [%p, +%zu) is not memory of this process%s: nothing mapped %s at %p (as ibv_reg_mr: "
			     "EFAULT)",
			     what, addr, len, writable ? " the NIC may write" : "",
			     writable ? "readable and writable" : "readable", (void *)stop);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}
