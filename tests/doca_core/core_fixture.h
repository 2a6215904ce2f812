/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture of the DOCA Core tests: the software NIC "swnic0" opened with doca_dev_open(), a
 * host GPU handle and a page-aligned host buffer. Every helper asserts (cmocka) its calls.
 * Run with OPENGDA_SWNIC_ADDR= and OPENGDA_DISABLE_CUDA=1 (tests/doca_core/CMakeLists.txt).
 */
#ifndef OGDA_TESTS_DOCA_CORE_CORE_FIXTURE_H_
#define OGDA_TESTS_DOCA_CORE_CORE_FIXTURE_H_

#include "doca_buf_array.h"
#include "doca_dev.h"
#include "doca_gpunetio.h"
#include "doca_mmap.h"

#include <stddef.h>
#include <stdint.h>

#define CFX_BUF_LEN 65536u

struct cfx {
	struct doca_devinfo **list;
	struct doca_devinfo *info; /* swnic0 */
	struct doca_dev *dev;
	struct doca_gpu *gpu;      /* host handle */
	uint8_t *buf;              /* CFX_BUF_LEN bytes */
};

/* cmocka setup / teardown: a heap cfx in *state. */
int cfx_setup(void **state);
int cfx_teardown(void **state);

/* A started mmap of [buf + off, + len) on f->dev with the given access mask. */
struct doca_mmap *cfx_mmap(struct cfx *f, size_t off, size_t len, uint32_t access);
/* The same for any range [addr, + len) the device can register. */
struct doca_mmap *cfx_mmap_range(struct cfx *f, void *addr, size_t len, uint32_t access);

#endif /* OGDA_TESTS_DOCA_CORE_CORE_FIXTURE_H_ */
