/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GDRCopy (libgdrapi.so.2 with its gdrdrv kernel module), optional and loaded at run time. It maps
 * GPU memory into the CPU's address space, which is what DOCA_GPU_MEM_TYPE_GPU_CPU promises.
 * DOCA_GPUNETIO_DISABLE_GDRCOPY=1 (or OPENGDA_DISABLE_GDRCOPY=1) switches it off; without it
 * GPU_CPU allocations fall back to pinned host memory mapped for the GPU (gpu_mem.c).
 */
#ifndef OGDA_GPUNETIO_GDRCOPY_H_
#define OGDA_GPUNETIO_GDRCOPY_H_

#include "doca_error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* GDRCopy pins and maps whole GPU pages: ranges handed to it are aligned to this. */
#define OGDA_GDR_GPU_PAGE_SIZE ((size_t)65536)

/* One pinned and CPU-mapped range of GPU memory. */
struct ogda_gdr_mapping {
	unsigned long handle; /* gdr_mh_t */
	void *map;            /* start of the CPU mapping (gdr_map) */
	size_t len;           /* bytes pinned and mapped */
	void *cpu;            /* CPU address of the first byte of the range */
};

/*
 * Whether GDRCopy can be used: not disabled, the library loads with every entry point and the
 * gdrdrv device opens. Probed once per process.
 */
bool ogda_gdrcopy_available(void);

/*
 * Pins [gpu_addr, gpu_addr + len) and maps it for the CPU. Both must be multiples of
 * OGDA_GDR_GPU_PAGE_SIZE. DOCA_ERROR_NOT_SUPPORTED without GDRCopy, DOCA_ERROR_DRIVER when
 * GDRCopy refuses, DOCA_ERROR_INVALID_VALUE for bad arguments.
 */
doca_error_t ogda_gdrcopy_map(uint64_t gpu_addr, size_t len, struct ogda_gdr_mapping *mapping);

/* Undoes ogda_gdrcopy_map(); the mapping is cleared. */
doca_error_t ogda_gdrcopy_unmap(struct ogda_gdr_mapping *mapping);

#endif /* OGDA_GPUNETIO_GDRCOPY_H_ */
