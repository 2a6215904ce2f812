/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture of the GPU data-path tests (tests/gpu/test_gpu_dev_*.cu): real CUDA kernels post to
 * high-level QPs of the software NIC "swnic0" and move bytes between buffers in GPU memory.
 *
 * gdf_open() finds swnic0, opens a context and a PD, opens CUDA device 0 as a doca_gpu (by its
 * PCI bus id) and starts one proxy service. gdf_qp_create() makes a high-level QP (or a QP group
 * with its core-direct companion) for the GPU handle, connects it in RTS to a peer QP of its own
 * on the same NIC, bounds every device wait (opengda_gpu_verbs_qp_set_wait_timeout) and hands
 * out the device views. Data buffers are cudaMalloc'd and registered with opengda_mr_create():
 * the software NIC moves GPU bytes through the CUDA driver. Device addresses carry big-endian
 * keys, as the device API wants them.
 *
 * Results are printed one line per case, "case <name>: OK|FAIL <detail>", and counted; the
 * program's exit code is 1 when any case failed. A kernel that outlives GDF_KERNEL_LIMIT_S
 * (a wait that is not bounded) ends the program with a FAIL line instead of hanging it.
 *
 * Plain C (host code); the .cu tests include it under extern "C".
 */
#ifndef OGDA_TESTS_GPU_GPU_DEV_FIXTURE_H_
#define OGDA_TESTS_GPU_GPU_DEV_FIXTURE_H_

#include "doca_dev.h"
#include "doca_gpunetio.h"
#include "doca_gpunetio_high_level.h"
#include "doca_gpunetio_verbs_dev.h"
#include "doca_verbs.h"
#include "opengda.h"
#include "opengda_gpunetio.h"
#include "opengda_mlx5.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GDF_WAIT_TIMEOUT_NS 5000000000ull /* bound of every device wait: 5 s */
#define GDF_KERNEL_LIMIT_S 30             /* a kernel still running after this has hung */
#define GDF_FILL 0x33u                    /* what untouched remote bytes hold */

/* The NIC, the GPU and the bookkeeping of the printed cases. */
struct gdf {
	struct doca_devinfo **list;
	uint32_t ndev;
	struct doca_verbs_context *ctx;
	struct doca_verbs_pd *pd;
	struct doca_verbs_gid gid;
	enum doca_verbs_mtu_size mtu;
	struct doca_gpu *gpu;
	char bus_id[32];
	doca_gpu_verbs_service_t service; /* drives the CPU_PROXY QPs the tests create */
	unsigned int cases;
	unsigned int failures;
};

/* A buffer in GPU memory registered with the NIC (keys in host order). */
struct gdf_buf {
	uint8_t *dev;
	size_t len;
	struct opengda_mr *mr;
	uint32_t lkey;
	uint32_t rkey;
};

/* What gdf_qp_create() makes. */
struct gdf_qp_cfg {
	enum doca_gpu_dev_verbs_nic_handler handler;    /* requested (AUTO allowed) */
	enum doca_gpu_verbs_send_dbr_mode_ext dbr_mode;
	uint16_t sq_nwqe;                               /* send queue WQEs (the CQ gets as many) */
	bool group;                                     /* main QP plus a core-direct companion */
	uint64_t timeout_ns;                            /* device wait bound; 0: GDF_WAIT_TIMEOUT_NS */
};

/* The responder side of a connection: a plain DOCA Verbs QP with its own CQ. */
struct gdf_peer {
	struct doca_verbs_cq *cq;
	struct doca_verbs_qp *qp;
};

/* A high-level QP (or group) connected to its peer(s), with its device views. */
struct gdf_qp {
	struct doca_gpu_verbs_qp_hl *single;      /* cfg.group false */
	struct doca_gpu_verbs_qp_group_hl *group; /* cfg.group true */
	struct doca_gpu_verbs_qp_hl *main;        /* the data QP (single, or the group's main) */
	struct doca_gpu_verbs_qp_hl *comp;        /* the group's companion, or NULL */
	struct gdf_peer peer_main, peer_comp;
	struct doca_gpu_dev_verbs_qp *dqp;        /* device view of main (GPU memory) */
	struct doca_gpu_dev_verbs_qp *dcomp;      /* device view of comp, or NULL */
	enum doca_gpu_dev_verbs_nic_handler handler; /* resolved by export (never AUTO) */
	bool own_service;                         /* the library drives it with a service of its own */
	bool on_service;                          /* monitored by the fixture's service */
};

/* First failed expectation of a case (name and message), for gdf_report(). */
struct gdf_check {
	bool ok;
	char msg[320];
};

/* Records the first failing expectation: GDF_EXPECT(&chk, a == b, "a %d", a). */
#define GDF_EXPECT(chk, cond, ...)                                                                 \
	do {                                                                                       \
		if ((chk)->ok && !(cond)) {                                                        \
			(chk)->ok = false;                                                         \
			snprintf((chk)->msg, sizeof((chk)->msg), __VA_ARGS__);                     \
		}                                                                                  \
	} while (0)

/* Opens NIC, PD, GPU and service; prints a FAIL line and returns -1 when something is missing. */
int gdf_open(struct gdf *f);
/* Releases what gdf_open() made (QPs and buffers must be gone). */
void gdf_close(struct gdf *f);

/* A GPU buffer of len bytes, every byte set to fill, registered for local and remote access. */
int gdf_buf_create(struct gdf *f, size_t len, uint8_t fill, struct gdf_buf *b);
void gdf_buf_destroy(struct gdf_buf *b);
/* Copies between host memory and buf + off (synchronous). */
int gdf_buf_write(struct gdf_buf *b, size_t off, const void *src, size_t len);
int gdf_buf_read(const struct gdf_buf *b, size_t off, void *dst, size_t len);
/* Sets len bytes at buf + off to v. */
int gdf_buf_set(struct gdf_buf *b, size_t off, uint8_t v, size_t len);

/* Device addresses of buf + off, with the lkey / rkey big-endian. */
struct doca_gpu_dev_verbs_addr gdf_laddr(const struct gdf_buf *b, size_t off);
struct doca_gpu_dev_verbs_addr gdf_raddr(const struct gdf_buf *b, size_t off);
/* An rkey that names no region: that of a GPU region registered and deregistered again. */
int gdf_dead_rkey(struct gdf *f, uint32_t *rkey);

/* Deterministic byte pattern: byte i of stream seed. */
uint8_t gdf_pattern_byte(size_t i, uint32_t seed);
void gdf_pattern(uint8_t *p, size_t len, uint32_t seed);
/* First offset where p differs from the pattern, or -1. */
long gdf_pattern_check(const uint8_t *p, size_t len, uint32_t seed);
/* First offset where p differs from v, or -1. */
long gdf_all_check(const uint8_t *p, size_t len, uint8_t v);

/* Creates, connects and exports; fills q. Prints why and returns -1 on failure. */
int gdf_qp_create(struct gdf *f, const struct gdf_qp_cfg *cfg, struct gdf_qp *q);
void gdf_qp_destroy(struct gdf *f, struct gdf_qp *q);
/*
 * Two high-level QPs of cfg with receive queues of rq_nwqe WQEs (recv_inline: scatter-to-CQE),
 * connected to each other; no peers.
 */
int gdf_qp_pair_create(struct gdf *f, const struct gdf_qp_cfg *cfg, uint16_t rq_nwqe, uint8_t recv_inline,
		       struct gdf_qp *qa, struct gdf_qp *qb);
/* Copy of the device view (main, or the companion) as device code left it. */
int gdf_qp_view(const struct gdf_qp *q, bool companion, struct doca_gpu_dev_verbs_qp *out);
/* The WQE at index idx of the ring (main or companion), read on the host. */
const struct opengda_mlx5_wqe_ctrl_seg *gdf_qp_wqe(const struct gdf_qp *q, bool companion, uint64_t idx);
/* The CQE of WQE index idx (send CQ not collapsed, cqe_rsvd 0), read on the host. */
void gdf_qp_cqe(const struct gdf_qp *q, bool companion, uint64_t idx, struct opengda_mlx5_cqe_fields *out);
/* QP number of main or companion. */
uint32_t gdf_qp_num(const struct gdf_qp *q, bool companion);
/* The software NIC's counters of QP qpn: WQEs executed, doorbells seen, error completions. */
void gdf_swnic_counters(uint32_t qpn, uint64_t *wqes, uint64_t *doorbells, uint64_t *errors);

/* A NIC handler configuration of the software NIC with a GPU, and what export must make of it. */
struct gdf_handler_case {
	const char *name;
	enum doca_gpu_dev_verbs_nic_handler request;
	enum doca_gpu_verbs_send_dbr_mode_ext mode;
	enum doca_gpu_dev_verbs_nic_handler expect; /* resolved handler */
	bool own_service;                           /* the library starts a proxy service itself */
};

/* GPU_SM_DB, GPU_SM_BF, GPU_SM_NO_DBR (NO_DBR_HW), CPU_PROXY, AUTO, NO_DBR_SW_EMULATED. */
extern const struct gdf_handler_case gdf_handler_cases[];
extern const unsigned int gdf_handler_case_count;

/*
 * What export made of q (main, and the companion of a group) for hc: resolved handler, DBR
 * mode, doorbell record and mailbox presence, service, ring sizes, wait bound, zero indices.
 */
void gdf_check_export(const struct gdf_qp *q, const struct gdf_handler_case *hc, uint32_t nwqe,
		      uint64_t timeout_ns, struct gdf_check *chk);
/* Device view of main (or companion): reserved == published == rung == n, CQ consumer index n, no error. */
void gdf_check_indices(const struct gdf_qp *q, bool companion, uint64_t n, struct gdf_check *chk);

/* Printable handler / DBR mode names. */
const char *gdf_handler_name(enum doca_gpu_dev_verbs_nic_handler h);
const char *gdf_dbr_mode_name(enum doca_gpu_verbs_send_dbr_mode_ext m);

/*
 * Waits for the kernels launched so far on the legacy stream. A launch or execution error is
 * recorded in chk; a kernel still running after GDF_KERNEL_LIMIT_S, or a sticky CUDA error,
 * prints a FAIL line for case @p name and ends the program (nothing later could run).
 */
void gdf_sync(struct gdf *f, const char *name, struct gdf_check *chk);

/* A fresh, passing check. */
void gdf_check_init(struct gdf_check *chk);
/* Prints "case <name>: OK <detail>" or "case <name>: FAIL <first failure>" and counts it. */
void gdf_report(struct gdf *f, const char *name, const struct gdf_check *chk, const char *ok_detail);
/* Prints "<prog>: <n> cases, <m> failed"; returns the exit code (0 or 1). */
int gdf_summary(const struct gdf *f, const char *prog);

/* Monotonic clock in nanoseconds. */
uint64_t gdf_now_ns(void);

#ifdef __cplusplus
}
#endif

#endif /* OGDA_TESTS_GPU_GPU_DEV_FIXTURE_H_ */
