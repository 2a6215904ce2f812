/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture of the device data-path tests: the C core of include/device/ run on host threads
 * against the software NIC "swnic0", through a host GPU handle (opengda_gpu_create_host).
 *
 * It opens swnic0, creates a PD, one or more connected RC pairs A[i] -> B[i] (A exported for
 * device code with the configured NIC handler and send-DBR mode) and, on request, a
 * core-direct companion pair whose A side may post WAIT. Data buffers: `src` and `dst` (local,
 * used through lkeys) and `remote` (the peer's, used through rkeys). Every helper asserts
 * (cmocka) that its calls succeed, so test bodies hold only what they check.
 *
 * CPU_PROXY QPs (and the companion) are driven by a thread of the fixture that calls
 * doca_gpu_verbs_cpu_proxy_progress(), or by a service (doca_gpu_verbs_create_service).
 * Every wait of device code on a fixture QP is bounded (opengda_gpu_verbs_qp_set_wait_timeout),
 * so a defect fails a test instead of hanging it.
 *
 * Tests run with OPENGDA_SWNIC_ADDR= (in-process fabric) and OPENGDA_DISABLE_CUDA=1.
 */
#ifndef OGDA_TESTS_GPUNETIO_DEV_FIXTURE_H_
#define OGDA_TESTS_GPUNETIO_DEV_FIXTURE_H_

#include "doca_dev.h"
#include "doca_gpunetio.h"
#include "doca_verbs.h"
#include "opengda.h"
#include "opengda_gpunetio.h"

#include "device/ogda_dev_ops.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DFX_MAX_QP 8u
#define DFX_DEFAULT_SQ 64u
#define DFX_DEFAULT_BUF (2u << 20)       /* 2 MiB: room for a 1 MiB transfer and its guards */
#define DFX_DEFAULT_TIMEOUT_NS 5000000000ull /* bound of every wait: 5 s (sanitized runs are slow) */

/* How a QP that needs a CPU thread (CPU_PROXY, NO_DBR_SW_EMULATED) is driven. */
enum dfx_drive {
	DFX_DRIVE_THREAD = 0, /* a fixture thread loops on doca_gpu_verbs_cpu_proxy_progress() */
	DFX_DRIVE_SERVICE,    /* a doca_gpu_verbs service monitors the QP */
};

struct dfx_cfg {
	enum doca_gpu_dev_verbs_nic_handler handler;        /* requested at export */
	enum doca_gpu_verbs_send_dbr_mode_ext dbr_mode;     /* NO_DBR_HW: the A QPs are DBR-less */
	enum dfx_drive drive;                               /* CPU_PROXY only */
	uint32_t sq_wqebbs;                                 /* A's SQ (a power of two); 0: DFX_DEFAULT_SQ */
	uint32_t cq_entries;                                /* A's send CQ; 0: sq_wqebbs */
	bool cq_overrun_checked;                            /* false: overrun ignored (ENABLE_OVERRUN) */
	bool cq_collapsed;
	bool companion;                                     /* add a core-direct companion pair */
	uint32_t nqp;                                       /* A -> B pairs; 0: 1 */
	size_t buf_len;                                     /* bytes of src, dst and remote; 0: default */
	uint64_t timeout_ns;                                /* wait bound; 0: DFX_DEFAULT_TIMEOUT_NS */
	/*
	 * Two-sided: both A and B get a receive queue of rq_wqes WQEs (rq_sges data segments each;
	 * 0: 1) completing to a receive CQ of their own, B gets A's send queue size, and B is
	 * exported too (A with opengda_gpu_verbs_export_qp_rq, B with doca_gpu_verbs_export_qp).
	 */
	uint32_t rq_wqes;
	uint32_t rq_sges;
	bool rnr_no_retry;                                  /* rnr_retry 0: a SEND without receive fails */
	/*
	 * SRQ: the B QPs share one CONTIGUOUS SRQ of srq_wqes WQEs (exported: f->dsrq) and complete
	 * on receive CQs of their own (B exported with opengda_gpu_verbs_export_qp_rq); A has no RQ.
	 */
	uint32_t srq_wqes;
	bool cqe_inline;                                    /* QPs with an RQ scatter <= 32 B into the CQE */
};

/* One connection A -> B; A is exported. */
struct dfx_lane {
	struct doca_verbs_cq *cq_a, *cq_b;
	struct doca_verbs_qp *qp_a, *qp_b;
	uint32_t qpn_a, qpn_b;
	struct doca_verbs_uar *uar;        /* A's own UAR page (emulated DBR-less mode), else NULL */
	struct doca_gpu_verbs_qp *gqp;
	struct doca_gpu_dev_verbs_qp *dqp; /* host memory: host threads use it directly */
	struct doca_verbs_cq *rcq_a, *rcq_b;  /* receive CQs (two-sided) */
	struct doca_gpu_verbs_qp *gqp_b;      /* B exported (two-sided) */
	struct doca_gpu_dev_verbs_qp *dqp_b;
	uint32_t *dbr;                     /* A's doorbell record ([1] = SQ), NULL when DBR-less */
	bool needs_cpu;                    /* CPU_PROXY or NO_DBR_SW_EMULATED */
	bool on_service;                   /* monitored by the fixture's service */
};

/* A registered host buffer; keys in host order (dfx_laddr / dfx_raddr give them big-endian). */
struct dfx_buf {
	uint8_t *addr;
	size_t len;
	struct opengda_mr *mr;
	uint32_t lkey, rkey;
};

struct dfx {
	struct dfx_cfg cfg;
	struct doca_devinfo **list;
	uint32_t ndev;
	struct doca_verbs_context *ctx;
	struct doca_verbs_pd *pd;
	struct doca_verbs_gid gid;
	enum doca_verbs_mtu_size port_mtu;
	struct doca_gpu *gpu;
	uint32_t nlanes;
	struct dfx_lane lane[DFX_MAX_QP];
	struct dfx_lane comp; /* companion (cfg.companion) */
	struct dfx_buf src, dst, remote;
	struct doca_verbs_srq *srq;               /* cfg.srq_wqes */
	struct opengda_gpu_verbs_srq *gsrq;
	struct opengda_gpu_dev_verbs_srq *dsrq;
	/* CPU driving */
	pthread_t proxy;
	bool proxy_running;
	int proxy_stop;   /* atomic */
	int proxy_failed; /* atomic: a progress call failed */
	doca_gpu_verbs_service_t service;
};

/* Opens everything cfg asks for (asserting success). */
void dfx_open(struct dfx *f, const struct dfx_cfg *cfg);
/* Stops the proxy driving, unexports, destroys every object (asserting success). */
void dfx_close(struct dfx *f);

/* cmocka group helpers: state in = const struct dfx_cfg *, state out = struct dfx *. */
int dfx_setup(void **state);
int dfx_teardown(void **state);

/* A cmocka test of fn on a fixture opened with cfg (a struct dfx_cfg variable), named after both. */
#define DFX_CASE(fn, cfg)                                                                                       \
	{                                                                                                      \
		.name = #fn " " #cfg, .test_func = fn, .setup_func = dfx_setup, .teardown_func = dfx_teardown, \
		.initial_state = &cfg                                                                          \
	}

/* The device QP of lane i, of the companion. */
struct doca_gpu_dev_verbs_qp *dfx_qp(struct dfx *f, uint32_t i);
struct doca_gpu_dev_verbs_qp *dfx_comp(struct dfx *f);

/* Device addresses (keys big-endian) of buf + off. */
struct doca_gpu_dev_verbs_addr dfx_laddr(const struct dfx_buf *b, size_t off);
struct doca_gpu_dev_verbs_addr dfx_raddr(const struct dfx_buf *b, size_t off);

/* Deterministic byte pattern: fill writes it, check compares (returns the first bad offset or -1). */
void dfx_fill(uint8_t *p, size_t len, uint32_t seed);
long dfx_check(const uint8_t *p, size_t len, uint32_t seed);
/* Whether every byte of p[0..len) equals v. */
bool dfx_all(const uint8_t *p, size_t len, uint8_t v);

/* Lane i's SQ doorbell-record word as stored (big-endian); asserts the lane has a record. */
uint32_t dfx_sq_dbr(const struct dfx_lane *l);
/* The doorbell record word expected for producer index pi: BE32(pi & 0xffff). */
uint32_t dfx_dbr_expect(uint64_t pi);
/* Waits (bounded by the fixture timeout) until lane l's SQ record equals dfx_dbr_expect(pi). */
bool dfx_wait_dbr(struct dfx *f, const struct dfx_lane *l, uint64_t pi);

/* The CQE a poll for WQE index idx reads (not collapsed). */
const struct opengda_mlx5_cqe64 *dfx_cqe(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx);
/* The ctrl segment of the WQE at index idx in the ring. */
const struct opengda_mlx5_wqe_ctrl_seg *dfx_ctrl(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx);

/* The software NIC's per-QP counters (WQEs executed, doorbells seen) of QP qpn. */
void dfx_swnic_counters(uint32_t qpn, uint64_t *wqes, uint64_t *doorbells, uint64_t *errors);


/* Monotonic clock in nanoseconds. */
uint64_t dfx_now_ns(void);
/* Sleeps ms milliseconds. */
void dfx_sleep_ms(unsigned int ms);

#endif /* OGDA_TESTS_GPUNETIO_DEV_FIXTURE_H_ */
