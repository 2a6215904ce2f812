/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture of the RDMA tests: two sides (each the DOCA Core fixture: swnic0 opened on its own, a
 * host GPU handle, a 64 KiB buffer) with doca_rdma contexts on host-thread data paths, connected
 * out of band in the process. Each side exports the first half of its buffer (32 elements of
 * 1 KiB, RDMA read and write) and maps the other side's export: `local` and `remote` arrays. The
 * device functions (include/device/ogda_dev_rdma.h) run on the test's threads. Every helper
 * asserts (cmocka) its calls.
 */
#ifndef OGDA_TESTS_RDMA_RDMA_FIXTURE_H_
#define OGDA_TESTS_RDMA_RDMA_FIXTURE_H_

#include "dma/dma_fixture.h"

#include "device/ogda_dev_rdma.h"
#include "doca_rdma.h"

#define RFX_ELEMS 32u
#define RFX_ELEM 1024u
#define RFX_ACCESS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)

/* One side: its devices and buffer, its context, its arrays. */
struct rfx_side {
	struct cfx *f;
	struct doca_rdma *rdma;
	struct doca_gpu_dev_rdma *h;
	struct dmafx_arr local;
	struct doca_mmap *remote_mmap; /* the peer's export */
	struct doca_buf_arr *remote_arr;
	struct doca_gpu_buf_arr *remote;
};

/* A started context on s->f with @nconn connections and send queue @sq (0: defaults). */
void rfx_rdma_start(struct rfx_side *s, uint16_t nconn, uint32_t sq);
void rfx_rdma_stop(struct rfx_side *s);
/* Exports a connection on each side and connects them; returns a's connection id. */
uint32_t rfx_connect(struct rfx_side *a, struct rfx_side *b);
/* a's local array over its buffer, b's remote array over it (b maps a's export). */
void rfx_share(struct rfx_side *a, struct rfx_side *b);
void rfx_unshare(struct rfx_side *a, struct rfx_side *b);

/* The two-sided fixture for cmocka: *state is a struct rfx_side[2], connected, arrays shared. */
int rfx_setup(void **state);
int rfx_teardown(void **state);

/* Element i of a side's local / remote array. */
struct doca_gpu_buf *rfx_local(struct rfx_side *s, uint64_t i);
struct doca_gpu_buf *rfx_remote(struct rfx_side *s, uint64_t i);

#endif /* OGDA_TESTS_RDMA_RDMA_FIXTURE_H_ */
