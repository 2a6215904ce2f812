/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Verbs objects: the definitions shared by the files of src/verbs.
 *
 *   dev.c           devinfo list, doca_dev, doca_verbs_dev_open
 *   context.c       context, capabilities, port / GID queries
 *   device_attr.c   doca_verbs_device_attr getters
 *   pd_mr.c         PD and memory regions (opengda_mr_*)
 *   umem_uar.c      UMEM and UAR objects
 *   queue_mem.c     where a queue or doorbell record lives (internal or external UMEM)
 *   cq_attr.c cq.c  CQ attributes and CQs
 *   qp_init_attr.c qp_attr.c ah_attr.c   attribute objects
 *   qp.c qp_modify.c qp_query.c          QPs
 *   srq.c           SRQ attributes and SRQs
 *   events.c        completion channels, CQ arming, async events
 *   bridge_ctx.c bridge_post.c bridge_poll.c   doca_verbs_bridge.h
 *
 * Every object holds its context; the context counts its children (nobjs) and refuses to
 * be destroyed while any exists. Objects that others use count their users (users) and
 * refuse to be destroyed while it is non-zero. QPs and CQs also count the GPUNetIO exports
 * that read them (gpu_exports, src/gpunetio/export_qp.c) and refuse destruction likewise.
 */
#ifndef OGDA_VERBS_VERBS_PRIV_H_
#define OGDA_VERBS_VERBS_PRIV_H_

#include "devx/devx.h"
#include "doca_dev.h"
#include "doca_verbs.h"
#include "opengda.h"
#include "prm/prm_hca_cap.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ibv_context;

/* ---- devices ---- */

struct doca_devinfo {
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	bool swnic;
	uint32_t swnic_index;
};

struct doca_dev {
	struct doca_devinfo info;
	struct ogda_devx *devx;       /* doca_dev_open(): its own device */
	struct doca_verbs_pd *pd;     /* doca_verbs_dev_open(): the PD it was opened on (devx NULL) */
	/*
	 * DOCA Core and the DOCA libraries (src/doca_core, src/dma, src/rdma): for doca_dev_open()
	 * devices, a DOCA Verbs context borrowing devx and a PD on it, made on first use
	 * (verbs_dev_lib_pd), so that mmaps and the libraries' QPs share one PD.
	 */
	_Atomic(struct doca_verbs_pd *) core_pd;
	atomic_uint core_users;       /* started doca_mmaps registered on this device */
};

/* Opens the device a devinfo names (software NIC or ConnectX). */
doca_error_t verbs_devinfo_open_devx(const struct doca_devinfo *info, struct ogda_devx **devx);

/*
 * The DOCA Verbs PD that DOCA Core objects and DOCA libraries use on @dev: the PD a
 * doca_verbs_dev_open() device was opened on, or for a doca_dev_open() device a context over its
 * devx and a PD of its own, made on first use (thread-safe) and destroyed by doca_dev_close().
 * Logs and returns DOCA_ERROR_DRIVER / DOCA_ERROR_NO_MEMORY when they cannot be made.
 */
doca_error_t verbs_dev_lib_pd(struct doca_dev *dev, struct doca_verbs_pd **pd);

/* ---- context ---- */

struct verbs_caps {
	struct prm_hca_cap_general gen;
	struct prm_hca_cap_roce roce;     /* zero when the device has no RoCE */
	bool no_dbr_ext;                  /* send_dbr_mode NO_DBR_EXT supported (cap 2) */
	uint32_t max_qp_wr;               /* 1 << log_max_qp_sz */
	uint32_t max_sge;                 /* from max_wqe_sz_sq */
	uint32_t max_cqe;                 /* 1 << log_max_cq_sz */
	uint32_t max_srq_wr;
	uint32_t max_srq_sge;             /* from max_wqe_sz_rq */
};

/* An object that can be named by an async event. */
enum verbs_event_obj_kind {
	VERBS_EVOBJ_CQ,
	VERBS_EVOBJ_QP,
	VERBS_EVOBJ_SRQ,
};

struct verbs_event_obj {
	uint64_t cookie;                  /* unique in the context, never reused */
	enum verbs_event_obj_kind kind;
	void *obj;
	struct verbs_event_obj *next;
};

struct doca_verbs_context {
	struct ogda_devx *devx;
	struct doca_devinfo info;
	struct verbs_caps caps;
	struct ogda_devx_port_attr port;  /* port 1, read at create */
	uint32_t eqn;                     /* cqc.c_eqn of every CQ */
	pthread_mutex_t lock;             /* children count, default UAR, event registry */
	unsigned int nobjs;
	struct doca_verbs_uar *default_uar; /* for CQs and QPs without an external UAR (lazy) */
	/* async events */
	struct ogda_devx_event_channel *async_ch;
	int async_fd;
	unsigned int async_unacked;
	uint64_t next_cookie;
	struct verbs_event_obj *evobjs;
	/* bridge: an imported ibv_context (NULL otherwise) and the registry link */
	struct ibv_context *ibv_ctx;
	struct doca_verbs_context *next_imported;
	bool private_import;              /* made by pd_import: goes away with its last PD */
	/* open-release API (open_api.c): imported on first use, released with its last child */
	bool open_import;
	bool open_closing;                /* under lock: being released, pin no more */
	bool devx_borrowed;               /* verbs_context_borrow_devx: devx is not ours to close */
	struct verbs_open_pd *open_pds;   /* ibv_pds imported for open-release calls (not children) */
};

/* A context over an open device (takes ownership of devx; closes it on failure). */
doca_error_t verbs_context_from_devx(struct ogda_devx *devx, const struct doca_devinfo *info,
				     struct doca_verbs_context **ctx);
/* A context over a device somebody else keeps open (a doca_dev's): destroying it leaves devx open. */
doca_error_t verbs_context_borrow_devx(struct ogda_devx *devx, const struct doca_devinfo *info,
				       struct doca_verbs_context **ctx);

/* What verbs_qp_connect_rc needs to know of the peer, and the rights the QP grants it. */
struct verbs_rc_peer {
	uint32_t qpn;                  /* the peer's QP number */
	struct doca_verbs_gid gid;     /* the peer's GID (RoCE, software NIC) */
	uint32_t lid;                  /* the peer's LID (InfiniBand; 0 otherwise) */
	uint32_t sgid_index;           /* local GID index */
	uint32_t sq_psn;               /* first PSN this QP sends */
	uint32_t rq_psn;               /* first PSN it expects (the peer's sq_psn) */
	uint8_t allow_remote_write, allow_remote_read, allow_remote_atomic;
};

/* RST -> INIT -> RTR -> RTS of an RC QP towards @peer (qp_connect.c); logs a failure. */
doca_error_t verbs_qp_connect_rc(struct doca_verbs_context *ctx, struct doca_verbs_qp *qp,
				 const struct verbs_rc_peer *peer);

/*
 * Connects an RC QP of @pd to itself (its own QPN, port 1's LID and GID 0): the loopback queues the
 * library keeps for itself (DMA copies, the Ethernet receive's MCST DUMP). @allow_remote_write
 * grants the QP remote writes to its own memory (a copy by RDMA WRITE); without it the connection
 * grants nothing, as local operations need. Logs a failure.
 */
doca_error_t verbs_qp_connect_self(struct doca_verbs_pd *pd, struct doca_verbs_qp *qp, bool allow_remote_write);

/* bridge_ctx.c: drops an imported context from the registry of imported ibv_contexts. */
void verbs_bridge_forget_context(struct doca_verbs_context *ctx);
/* bridge_ctx.c: an imported PD of ctx was destroyed (may release a context imported for it). */
void verbs_bridge_pd_released(struct doca_verbs_context *ctx);

/*
 * Child accounting (under ctx->lock). Dropping the last child of a context imported for the
 * open-release API releases it (verbs_open_release_context).
 */
void verbs_ctx_child_add(struct doca_verbs_context *ctx);
void verbs_ctx_child_del(struct doca_verbs_context *ctx);
/* Counts a child unless the context is being released; false then. */
bool verbs_ctx_pin(struct doca_verbs_context *ctx);

/* bridge_ctx.c: the shared context imported for ibv_ctx (imported now if none), pinned. */
doca_error_t verbs_bridge_context_of(struct ibv_context *ibv_ctx, struct doca_verbs_context **ctx);
/* bridge_ctx.c: imports an ibv_pd of ctx's ibv_context into ctx (a child of ctx). */
doca_error_t verbs_bridge_pd_import_into(struct doca_verbs_context *ctx, struct ibv_pd *pd,
					 struct doca_verbs_pd **verbs_pd);
/* open_api.c: the PDs imported for open-release calls, one per ibv_pd and context. */
struct verbs_open_pd {
	struct ibv_pd *ibv_pd;
	struct doca_verbs_pd *pd;
	struct verbs_open_pd *next;
};
/* open_api.c: drops an init attribute's pin on an open-release context (attr set_pd, destroy). */
void verbs_open_unpin(struct doca_verbs_context **pin);
/* open_api.c: the PD imported for ibpd, its context pinned in *ctx (drop with verbs_open_unpin). */
doca_error_t verbs_open_pd_of_ibv(struct ibv_pd *ibpd, const char *what, struct doca_verbs_context **ctx,
				  struct doca_verbs_pd **pd);
/* open_api.c: frees the PDs imported for open-release calls and the context itself. */
void verbs_open_release_context(struct doca_verbs_context *ctx);

/*
 * UAR pages the library makes itself (the default one, a DBR-less QP's own): uncached when
 * the device has them, else BlueFlame; not counted as children of the context.
 */
doca_error_t verbs_uar_create_internal(struct doca_verbs_context *ctx, struct doca_verbs_uar **uar);
void verbs_uar_destroy_internal(struct doca_verbs_uar *uar);

/* The context's default UAR (created on first use; counted as a user by the caller). */
doca_error_t verbs_ctx_default_uar(struct doca_verbs_context *ctx, struct doca_verbs_uar **uar);

/* Runs a command through the device and logs a refusal with its PRM status and syndrome. */
doca_error_t verbs_cmd_result(doca_error_t err, const void *out, size_t outlen, const char *what);

/* ---- PD, MR, UMEM, UAR ---- */

struct doca_verbs_pd {
	struct doca_verbs_context *ctx;
	struct ogda_devx_pd *devx_pd;
	uint32_t pdn;
	atomic_uint users;                /* QPs, SRQs, MRs, doca_devs */
	bool imported;                    /* from doca_verbs_bridge_verbs_pd_import */
};

struct opengda_mr {
	struct doca_verbs_pd *pd;
	struct ogda_devx_mr *devx_mr;
	uint32_t lkey;
	uint32_t rkey;
};

struct doca_verbs_umem {
	struct doca_verbs_context *ctx;
	struct ogda_devx_umem *devx_umem;
	uint32_t id;
	void *addr;
	size_t size;
	atomic_uint users;                /* queues and DBRs placed in it */
};

struct doca_verbs_uar {
	struct doca_verbs_context *ctx;
	struct ogda_devx_uar *devx_uar;
	struct ogda_devx_uar_info info;
	enum doca_verbs_uar_allocation_type type;
	atomic_uint users;                /* CQs and QPs */
};

/* ---- queue memory (queue_mem.c) ---- */

/* Where a ring or a doorbell record lives: a UMEM (the library's own, or the user's) + offset. */
struct verbs_qmem {
	struct doca_verbs_umem *umem;     /* holds a user reference while the queue exists */
	uint64_t offset;
	uint8_t *addr;                    /* umem->addr + offset */
	void *own_alloc;                  /* library-allocated host memory (freed with the queue) */
};

/*
 * Places len bytes aligned to align: in ext (at ext_offset, checked to fit and be aligned)
 * when ext is non-NULL, else in fresh zeroed host memory registered as a UMEM of ctx.
 */
doca_error_t verbs_qmem_place(struct doca_verbs_context *ctx, struct doca_verbs_umem *ext, uint64_t ext_offset,
			      size_t len, size_t align, const char *what, struct verbs_qmem *mem);
/* Zeroes a QP / CQ / SRQ doorbell record (two 32-bit words, host or GPU memory). */
doca_error_t verbs_dbr_clear(uint32_t *dbr);
/* log2 of the smallest power of two >= v (0 for v <= 1). */
uint32_t verbs_log2_ceil(uint32_t v);
/* Copies host bytes to queue memory, which may be GPU memory (written through the CUDA driver). */
doca_error_t verbs_mem_write(void *dst, const void *src, size_t len);
/* Copies queue memory (host or GPU) to host bytes. */
doca_error_t verbs_mem_read(void *dst, const void *src, size_t len);
/* Releases what verbs_qmem_place took (the user reference, or the library's UMEM and memory). */
void verbs_qmem_release(struct verbs_qmem *mem);

/* ---- CQ ---- */

struct doca_verbs_cq_attr {
	uint32_t cq_size;
	void *cq_context;
	struct doca_verbs_umem *umem;
	uint64_t umem_offset;
	struct doca_verbs_umem *dbr_umem;
	uint64_t dbr_umem_offset;
	struct doca_verbs_uar *uar;
	uint8_t overrun;                  /* enum doca_verbs_cq_overrun */
	uint8_t collapsed;
	uint8_t external_datapath;
	struct doca_verbs_comp_channel *comp_channel;
};


struct verbs_qp_link {
	struct doca_verbs_qp *qp;
	struct verbs_qp_link *next;
};

struct doca_verbs_cq {
	struct doca_verbs_context *ctx;
	struct ogda_devx_obj *obj;
	uint32_t cqn;
	struct doca_verbs_cq_attr attr;   /* as created (sizes rounded) */
	uint8_t *ring;
	uint32_t ncqe;                    /* power of two */
	uint32_t log_ncqe;
	uint32_t cqe_size;                /* 64 */
	uint32_t *dbr;                    /* [0] consumer index, [1] arm (big-endian) */
	struct doca_verbs_uar *uar;
	struct verbs_qmem ring_mem;
	struct verbs_qmem dbr_mem;
	atomic_uint users;                /* QPs that complete to it */
	atomic_uint gpu_exports;          /* exported QPs whose send CQ it is (verbs_export_get) */
	pthread_mutex_t lock;             /* qps list */
	struct verbs_qp_link *qps;
	/* bridge poll (one poller at a time) */
	uint32_t ci;
	/* events */
	uint32_t arm_sn;
	unsigned int comp_events_taken;
	unsigned int comp_events_acked;
	unsigned int async_unacked;
	uint64_t cookie;
};

/* A QP starts / stops completing to a CQ (counts as a user of the CQ). */
doca_error_t verbs_cq_link_qp(struct doca_verbs_cq *cq, struct doca_verbs_qp *qp);
void verbs_cq_unlink_qp(struct doca_verbs_cq *cq, struct doca_verbs_qp *qp);

/* The QP of a CQE (NULL when none of the CQ's QPs has that number). */
struct doca_verbs_qp *verbs_cq_find_qp(struct doca_verbs_cq *cq, uint32_t qpn);

/* ---- AH, QP attributes ---- */

struct verbs_ah_fields {
	enum doca_verbs_addr_type addr_type;
	struct doca_verbs_gid gid;
	uint32_t dlid;
	uint8_t sl;
	uint8_t sgid_index;
	uint8_t static_rate;
	uint8_t hop_limit;
	uint8_t traffic_class;
};

struct doca_verbs_ah_attr {
	struct doca_verbs_context *ctx;   /* NULL for the one embedded in a qp_attr */
	struct verbs_ah_fields f;
};

struct doca_verbs_qp_init_attr {
	struct doca_verbs_pd *pd;
	struct doca_verbs_context *open_pin; /* pinned by an ibv_pd PD (open_api.c) */
	struct doca_verbs_cq *send_cq;
	struct doca_verbs_cq *receive_cq;
	int sq_sig_all;
	uint32_t sq_wr;
	uint32_t rq_wr;
	uint32_t send_max_sges;
	uint32_t receive_max_sges;
	uint32_t max_inline_data;
	uint32_t user_index;
	uint32_t qp_type;
	struct doca_verbs_umem *umem;
	uint64_t umem_offset;
	struct doca_verbs_umem *dbr_umem;
	uint64_t dbr_umem_offset;
	struct doca_verbs_uar *uar;
	void *qp_context;
	struct doca_verbs_srq *srq;
	uint8_t core_direct_master;
	enum doca_verbs_qp_send_dbr_mode send_dbr_mode;
	bool emulate_no_dbr_ext;
	enum doca_verbs_qp_ordering_semantic ordering_semantic;
	uint8_t external_datapath;
	uint8_t cqe_inline;               /* responder scatter-to-CQE (qpc.cs_res DATA32_CQE) */
};

/* Defaults of a fresh init attr (also used to reset one before a query fills it). */
void verbs_qp_init_attr_defaults(struct doca_verbs_qp_init_attr *a);

struct doca_verbs_qp_attr {
	enum doca_verbs_qp_state next_state;
	enum doca_verbs_qp_state current_state;
	enum doca_verbs_mtu_size path_mtu;
	uint32_t rq_psn;
	uint32_t sq_psn;
	uint32_t dest_qp_num;
	int allow_remote_write;
	int allow_remote_read;
	uint8_t atomic_mode;              /* enum doca_verbs_qp_atomic_mode value */
	struct doca_verbs_ah_attr *ah_attr; /* the user's (set) or &query_ah (after a query) */
	struct doca_verbs_ah_attr query_ah;
	uint16_t pkey_index;
	uint16_t port_num;
	uint16_t ack_timeout;
	uint16_t retry_cnt;
	uint16_t rnr_retry;
	uint16_t min_rnr_timer;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
};

/* ---- QP ---- */

struct doca_verbs_qp {
	struct doca_verbs_context *ctx;
	struct ogda_devx_obj *obj;
	uint32_t qpn;
	struct doca_verbs_qp_init_attr init; /* as created (sizes rounded to what the QP has) */
	enum doca_verbs_qp_state state;
	struct doca_verbs_qp_attr cur;    /* attributes applied so far (for checks and query) */
	/* rings */
	uint8_t *sq;                      /* NULL without an SQ */
	uint32_t sq_wqebbs;               /* power of two */
	uint8_t *rq;                      /* NULL without an own RQ */
	uint32_t rq_wqes;                 /* power of two */
	uint32_t rq_stride;               /* bytes per receive WQE (power of two, >= 16) */
	uint32_t *dbr;                    /* [0] RQ counter, [1] SQ counter (big-endian) */
	struct doca_verbs_uar *uar;
	struct verbs_qmem wq_mem;
	struct verbs_qmem dbr_mem;
	bool linked;                      /* holds its PD / SRQ / CQ references */
	struct doca_verbs_uar *own_uar;   /* a DBR-less QP's dedicated UAR page (library-made) */
	/* bridge data path (one poster per queue at a time) */
	uint16_t sq_pi;                   /* WQEBBs posted */
	uint16_t sq_ci;                   /* WQEBBs known complete */
	uint32_t bf_offset;               /* alternates between the two BlueFlame halves */
	uint64_t *sq_wrid;                /* per WQEBB index: wr_id of the WQE starting there */
	uint8_t *sq_wqe_opcode;           /* per WQEBB index: ibv_wc_opcode of that WQE */
	uint32_t *sq_wqe_len;             /* per WQEBB index: byte_len for READ / atomics */
	uint32_t rq_pi;                   /* receive WQEs posted */
	uint32_t rq_ci;                   /* receive WQEs completed */
	uint64_t *rq_wrid;
	atomic_uint gpu_exports;          /* live GPUNetIO exports of it (verbs_export_get) */
	/* events */
	unsigned int async_unacked;
	uint64_t cookie;
};

/*
 * A GPUNetIO export of qp with its send CQ cq starts / ends: while any lives, both refuse
 * doca_verbs_*_destroy() with DOCA_ERROR_IN_USE (the export keeps reading their rings).
 */
void verbs_export_get(struct doca_verbs_qp *qp, struct doca_verbs_cq *cq);
void verbs_export_put(struct doca_verbs_qp *qp, struct doca_verbs_cq *cq);

/* ---- SRQ ---- */

struct doca_verbs_srq_init_attr {
	struct doca_verbs_context *open_pin; /* pinned by an ibv_pd PD (open_api.c) */
	uint32_t srq_wr;
	uint32_t receive_max_sges;
	enum doca_verbs_srq_type type;
	struct doca_verbs_pd *pd;
	struct doca_verbs_umem *umem;
	uint64_t umem_offset;
	uint8_t external_datapath;
};

struct doca_verbs_srq {
	struct doca_verbs_context *ctx;
	struct ogda_devx_obj *obj;
	uint32_t srqn;
	struct doca_verbs_srq_init_attr init; /* as created (sizes rounded) */
	uint8_t *ring;
	uint32_t nwqe;
	uint32_t stride;
	uint32_t *dbr;
	struct verbs_qmem wq_mem;
	struct verbs_qmem dbr_mem;
	atomic_uint users;                /* QPs */
	unsigned int async_unacked;
	uint64_t cookie;
};

/* ---- events (events.c) ---- */

struct doca_verbs_comp_channel {
	struct doca_verbs_context *ctx;
	struct ogda_devx_event_channel *ch;
	int fd;
	atomic_uint users;                /* CQs */
};

/* Async-event registry: objects subscribe at create and leave at destroy (ctx->lock taken inside). */
doca_error_t verbs_async_subscribe(struct doca_verbs_context *ctx, enum verbs_event_obj_kind kind, void *obj,
				   struct ogda_devx_obj *devx_obj, uint64_t *cookie);
void verbs_async_unsubscribe(struct doca_verbs_context *ctx, uint64_t cookie);
/* Subscribes a CQ to its completion channel's events. */
doca_error_t verbs_cq_subscribe_comp(struct doca_verbs_cq *cq);

/* ---- small helpers ---- */

/* Smallest power of two >= v (v >= 1, v <= 2^31); log2 of it in *log. */
uint32_t verbs_roundup_pow2(uint32_t v, uint32_t *log);

#endif /* OGDA_VERBS_VERBS_PRIV_H_ */
