/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An exported QP (struct doca_gpu_verbs_qp) and the helpers the export, proxy, service and
 * error files share.
 *
 *   export_qp.c     doca_gpu_verbs_export_qp / unexport_qp (checks, handler, mappings)
 *   export_qp_rq.c  the receive queue and receive CQ of an export (two-sided receives)
 *   export_bridge.c doca_gpu_verbs_bridge_export_qp: a device QP from raw queue fields (qp == NULL)
 *   export_qp_dev.c doca_gpu_verbs_get_qp_dev, opengda_gpu_verbs_qp_* accessors
 *   export_multi.c  doca_gpu_verbs_export_multi_qps_dev / unexport_multi_qps_dev
 *   cpu_proxy.c     doca_gpu_verbs_cpu_proxy_progress: the CPU rings for the device
 *   service.c       service threads that drive the proxy of the QPs they monitor
 *   qp_error.c      doca_gpu_verbs_query_last_error, doca_gpu_verbs_reset_tracking_and_memory
 *
 * The device view (qp_cpu) is built once at export and never changed on the host except by
 * a reset; device code changes only its copies (qp_gpu, multi-QP arrays).
 */
#ifndef OGDA_GPUNETIO_GVERBS_QP_H_
#define OGDA_GPUNETIO_GVERBS_QP_H_

#include "doca_gpunetio.h"
#include "doca_gpunetio_verbs_dev.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda_gpunetio.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ogda_gpu_service;

/* A host range made reachable for the executing threads by ogda_gpu_map_host(). */
struct gverbs_map {
	void *host; /* what was mapped (NULL: nothing, e.g. device memory used as is) */
	void *dev;  /* the address the executing threads use */
};

struct doca_gpu_verbs_qp {
	struct doca_gpu *gpu;
	struct doca_verbs_qp *qp;
	struct doca_verbs_cq *cq;
	struct doca_verbs_cq *cq_rq;                     /* receive CQ when the RQ is exported, else NULL */
	enum doca_gpu_dev_verbs_nic_handler nic_handler; /* resolved, never AUTO */
	enum doca_gpu_verbs_send_dbr_mode_ext dbr_mode;
	struct doca_gpu_verbs_qp *next_exported;         /* registry of live exports (export_qp.c) */

	struct doca_gpu_dev_verbs_qp qp_cpu;  /* the device view, host copy */
	struct doca_gpu_dev_verbs_qp *qp_gpu; /* its device copy, allocated by get_qp_dev */
	uint64_t qp_gpu_timeout_ns;           /* ogda_wait_timeout_ns the device copy holds */

	/* What export took and unexport gives back. */
	struct gverbs_map sq_map, qp_dbr_map, cq_map, cq_dbr_map;
	struct gverbs_map rq_map, rq_dbr_map, cq_rq_map, cq_rq_dbr_map; /* export_qp_rq.c */
	struct ogda_gpu_db_map db_map; /* the doorbell register as the GPU reaches it (ogda_gpu_doorbell_map) */
	void *ready_slots;      /* doca_gpu_mem_alloc(GPU): sq_wqe_num words */
	uint64_t *mailbox_gpu;  /* doca_gpu_mem_alloc(CPU_GPU): the producer index the device publishes */
	uint64_t *mailbox_cpu;

	/* CPU proxy state (proxy_lock): the service thread and users may both drive it. */
	pthread_mutex_t proxy_lock;
	uint64_t *db_reg_cpu;   /* the QP's doorbell register as the CPU sees it (every handler) */
	uint32_t *dbr_send_cpu; /* the send doorbell-record word the CPU writes; NULL when DBR-less */
	uint64_t last_pi;       /* producer index last rung */
	uint64_t rings;         /* doorbells the proxy wrote */

	/* Service membership (service.c's membership lock). */
	struct ogda_gpu_service *service;     /* the service driving this QP, or NULL */
	struct ogda_gpu_service *own_service; /* one the library started for this QP, or NULL */
};

/* Whether the QP is driven by a CPU thread: CPU_PROXY, or the emulated DBR-less mode. */
bool gverbs_qp_needs_proxy(const struct doca_gpu_verbs_qp *gq);

/* One proxy step without argument checks (gq needs a proxy). */
void gverbs_proxy_step(struct doca_gpu_verbs_qp *gq, bool *progressed);

/* Forgets what the proxy rang (reset): the next published index starts from zero. */
void gverbs_proxy_rewind(struct doca_gpu_verbs_qp *gq);

/* Doorbells the proxy has written for gq (tests). */
uint64_t gverbs_proxy_rings(struct doca_gpu_verbs_qp *gq);

/* Starts a service of the library's own that drives gq (stored in gq->own_service). */
doca_error_t gverbs_service_start_own(struct doca_gpu_verbs_qp *gq);

/*
 * Takes gq out of the service that drives it (if any) and stops the library's own service
 * (if any). On return no service thread touches gq.
 */
void gverbs_service_detach(struct doca_gpu_verbs_qp *gq);

/* CPU time the service's thread has used, in nanoseconds (tests: idle backoff). */
doca_error_t gverbs_service_thread_cpu_ns(doca_gpu_verbs_service_t service, uint64_t *ns);

/* Writes the whole host view to the device copy (when there is one). */
doca_error_t gverbs_qp_sync_dev(struct doca_gpu_verbs_qp *gq);

/* Host memory made reachable for the executing threads (device memory is used as is). */
doca_error_t gverbs_map_queue(struct doca_gpu_verbs_qp *gq, void *addr, size_t len, const char *what,
			      struct gverbs_map *m, void **dev);
/* Drops a mapping made by gverbs_map_queue (if any). */
void gverbs_unmap(struct doca_gpu_verbs_qp *gq, struct gverbs_map *m);
/* Fills the device view @c of verbs CQ @cq whose ring and record the threads reach at ring_dev, dbr_dev. */
void gverbs_fill_cq_view(const struct doca_gpu *gpu, struct doca_gpu_dev_verbs_cq *c, const struct doca_verbs_cq *cq,
			 void *ring_dev, void *dbr_dev);

/*
 * Checks that cq_rq fits as the device receive CQ of gq's QP (own RQ, not the send CQ, 64-byte
 * CQEs, one entry per receive WQE). NULL cq_rq: nothing to check.
 */
doca_error_t gverbs_rq_check(const struct doca_verbs_qp *qp, const struct doca_verbs_cq *cq_sq,
			     const struct doca_verbs_cq *cq_rq);
/* Maps the RQ, its record and the receive CQ and fills the receive block of the view. */
doca_error_t gverbs_rq_build(struct doca_gpu_verbs_qp *gq);
/* Gives back what gverbs_rq_build took. */
void gverbs_rq_release(struct doca_gpu_verbs_qp *gq);

/* Registry of live exports (export_qp.c): add refuses a verbs QP exported already. */
bool gverbs_registry_add(struct doca_gpu_verbs_qp *gq);
bool gverbs_registry_remove(struct doca_gpu_verbs_qp *gq);
/* Unexport of a bridged QP (gq->qp == NULL), after the registry removal checks of unexport_qp. */
doca_error_t gverbs_bridge_unexport(struct doca_gpu_verbs_qp *gq);

/* Whether gq is a live export (registry lookup; compares pointers only). */
bool gverbs_qp_is_exported(const struct doca_gpu_verbs_qp *gq);

/*
 * Test seam: while set, the UAR counts as unmappable for the GPU, so AUTO falls back to the
 * CPU proxy even on a host handle, and explicit GPU handlers fail with NOT_SUPPORTED.
 */
void ogda_gpu_export_force_uar_unmappable(bool force);

#endif /* OGDA_GPUNETIO_GVERBS_QP_H_ */
