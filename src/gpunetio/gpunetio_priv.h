/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The GPU handle and the services the rest of src/gpunetio builds on: GPU memory, making host
 * memory reachable from the GPU, copies to and from device memory. A handle is either a CUDA
 * device (through the driver API, src/core/cuda_drv.h) or the host CPU (opengda_gpu_create_host):
 * every function here works for both, so the export and proxy code has no host/GPU branches of
 * its own beyond what these helpers hide.
 */
#ifndef OGDA_GPUNETIO_PRIV_H_
#define OGDA_GPUNETIO_PRIV_H_

#include "doca_gpunetio.h"
#include "doca_gpunetio_high_level.h"
#include "opengda_gpunetio.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ogda_gpu_alloc;   /* one doca_gpu_mem_alloc() allocation (gpu_mem.c) */
struct ogda_gpu_hostmap; /* one host range mapped for the GPU (gpu_hostmap.c) */

struct doca_gpu {
	struct opengda_gpu_info info; /* info.is_host: the host-thread handle */
	int ordinal;                  /* CUDA ordinal, -1 for host */
	int cu_device;                /* CUdevice */
	void *cu_ctx;                 /* CUcontext: the device's primary context, retained */
	void *cu_stream;              /* CUstream: non-blocking, for copies (never waits behind kernels) */
	pthread_mutex_t lock;         /* guards the lists and counters below */
	struct ogda_gpu_alloc *allocs;
	struct ogda_gpu_hostmap *hostmaps;
	uint32_t nexports;            /* exported QPs and multi-QP arrays still alive */
};

/*
 * One CPU-proxy step of a send queue (cpu_proxy.c): when the mailbox holds a producer index beyond
 * *last_pi, writes the doorbell record (unless dbr is NULL) and the doorbell {pi << 8, sqn << 8} to
 * reg, fenced as the NIC needs, and moves *last_pi. Returns whether it rang. Callers serialise it.
 */
bool ogda_proxy_ring_once(const uint64_t *mailbox, uint32_t *dbr, uint64_t *reg, uint32_t sqn, uint64_t *last_pi);

/* Makes the handle's CUDA context current on the calling thread (no-op for host). */
doca_error_t ogda_gpu_ctx_enter(const struct doca_gpu *gpu);

/*
 * Makes [addr, addr+len) of host memory reachable by the handle's threads and returns the address
 * they use. GPU: page-rounded cuMemHostRegister(PORTABLE | DEVICEMAP), reference-counted per range
 * (a range inside an already mapped one reuses it). Host handle: *dev_addr = addr.
 */
doca_error_t ogda_gpu_map_host(struct doca_gpu *gpu, void *addr, size_t len, void **dev_addr);
/* Drops one reference taken by ogda_gpu_map_host() for the range starting at @addr. */
doca_error_t ogda_gpu_unmap_host(struct doca_gpu *gpu, void *addr);

/* Whether @addr is GPU device memory (cuPointerGetAttribute MEMORY_TYPE); false for host handles. */
bool ogda_gpu_is_device_ptr(const struct doca_gpu *gpu, const void *addr);
/* The same without a GPU handle (the CPU data path's checks): false without a CUDA driver. */
bool ogda_gpu_addr_is_device(const void *addr);

/* Copies between host memory and memory the handle's threads use (synchronous; memcpy for host). */
doca_error_t ogda_gpu_copy_to_dev(const struct doca_gpu *gpu, void *dst_dev, const void *src, size_t len);
doca_error_t ogda_gpu_copy_from_dev(const struct doca_gpu *gpu, void *dst, const void *src_dev, size_t len);
/*
 * A copy of @src (@len bytes) in memory the handle's threads use (GPU memory for a GPU, host
 * memory for a host handle), for device handles; free it with doca_gpu_mem_free().
 */
doca_error_t ogda_gpu_dup_to_dev(struct doca_gpu *gpu, const void *src, size_t len, void **dev);
/* Sets @len bytes at device address @dst_dev to @byte. */
doca_error_t ogda_gpu_memset_dev(const struct doca_gpu *gpu, void *dst_dev, uint8_t byte, size_t len);

/*
 * Registers @len bytes of GPU memory at @gpu_ptr as a umem through @fn (the caller's registration:
 * a DOCA Verbs umem, a device-interface umem), as reg says: DEFAULT a dmabuf fd the GPU exports
 * (doca_gpu_dmabuf_fd), else, when the GPU exports none or the NIC refuses it, the GPU pointer
 * itself (fd -1: nvidia-peermem resolves it); CUDA_DMABUF the dmabuf only; CUDA_PEERMEM the pointer
 * only. @fn gets (arg, gpu_ptr, len, fd) and registers the whole range (offset 0 into the dmabuf);
 * the fd is closed after it returns. Returns @fn's outcome (INVALID_VALUE for bad input); every
 * failure and fallback is logged naming @what.
 */
typedef doca_error_t (*ogda_gpu_umem_reg_fn)(void *arg, void *addr, size_t len, int dmabuf_fd);
doca_error_t ogda_gpu_umem_register(struct doca_gpu *gpu, void *gpu_ptr, size_t len,
				    enum doca_gpu_verbs_mem_reg_type reg, ogda_gpu_umem_reg_fn fn, void *arg,
				    const char *what);

/* A doorbell register mapped for a handle's threads by ogda_gpu_doorbell_map(). */
struct ogda_gpu_db_map {
	void *host_page;    /* UAR page mapped with ogda_gpu_map_host(), or NULL */
	uint64_t *exported; /* doca_gpu_verbs_export_uar() result, or NULL */
};
/*
 * Maps doorbell register @reg of the UAR page at @uar_page for @gpu's threads and returns their
 * address of it in *dev. @host_uar: the UAR is host memory (the software NIC's, also behind the
 * rdma-core front end): the page is mapped like queue memory, as it is for a host handle. A
 * ConnectX UAR goes through doca_gpu_verbs_export_uar() (I/O-memory registration first, shared
 * per page). Errors are logged; nothing stays mapped on failure.
 */
doca_error_t ogda_gpu_doorbell_map(struct doca_gpu *gpu, void *uar_page, uint64_t *reg, bool host_uar,
				   struct ogda_gpu_db_map *m, uint64_t **dev);
/* Gives back what ogda_gpu_doorbell_map() took (nothing for a zeroed @m); zeroes @m. */
doca_error_t ogda_gpu_doorbell_unmap(struct doca_gpu *gpu, struct ogda_gpu_db_map *m);

/* Export bookkeeping: doca_gpu_destroy() refuses (IN_USE) while exports remain. */
void ogda_gpu_export_get(struct doca_gpu *gpu);
void ogda_gpu_export_put(struct doca_gpu *gpu);

struct doca_gpu_verbs_qp_hl;
struct doca_gpu_verbs_qp_init_attr_hl;
struct doca_verbs_srq;
struct doca_verbs_cq;
/* The GPU handle a high-level QP was created for (high_level.c). */
struct doca_gpu *ogda_hl_gpu(const struct doca_gpu_verbs_qp_hl *qp);
/*
 * doca_gpu_verbs_create_qp_hl() for a QP whose receives come from @srq (CONTIGUOUS, exported by the
 * caller) and complete to @srq_cq, shared by every QP on the SRQ; the caller owns both and
 * destroys them after the QPs. rq_nwqe and recv_inline of the attributes are ignored.
 */
doca_error_t ogda_hl_create_on_srq(struct doca_gpu_verbs_qp_init_attr_hl *qp_init_attr, struct doca_verbs_srq *srq,
				   struct doca_verbs_cq *srq_cq, struct doca_gpu_verbs_qp_hl **qp);

#endif /* OGDA_GPUNETIO_PRIV_H_ */
