/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rdma-core front end: a drop-in libibverbs.so.1 whose devices are software NICs of this
 * process (docs/rdma-core-front.md).
 *
 * Every ibv_* object the program sees is the rdma-core public struct (first member, so the
 * program's pointer is ours) wrapped around the DOCA Verbs object that does the work: PRM
 * commands to the software NIC's executor to create, modify and destroy; mlx5 WQEs written
 * into the rings, doorbells rung and CQEs read by the bridge data path (src/verbs/bridge_*.c).
 * The software NIC therefore executes exactly what a ConnectX would be given by libmlx5.
 *
 *   front_device.c  device list, open / close, sysfs helpers, fork hooks
 *   front_query.c   device, port, GID, P_Key queries (+ _ex)
 *   front_pd_mr.c   PDs and MRs
 *   front_cq.c      CQs, completion channels, notification, polling
 *   front_cq_ex.c   ibv_create_cq_ex and its start / next / end poll and read ops
 *   front_qp.c      QPs: create, modify, query, destroy, post_send / post_recv
 *   front_qp_ex.c   ibv_create_qp_ex and the ibv_wr_* post API
 *   front_attr.c    ibv_qp_attr <-> DOCA Verbs QP attributes
 *   front_srq.c     SRQs: linked-list RMPs posted and freed as libmlx5 does
 *   front_ah.c      address handles (RoCE; what mlx5dv_init_obj shows of them)
 *   front_dv.c      mlx5dv: device calls, mlx5dv_init_obj
 *   front_devx.c    mlx5dv DevX: PRM commands, UMEMs, UARs, EQN, event channels
 *   front_devx_ibv.c  mlx5dv_devx_{qp,cq,srq}_{query,modify} on objects made through ibv_*
 *   front_async.c   async events
 *   front_str.c     the *_str helpers
 *   front_unsup.c   the rest of the ABI: EOPNOTSUPP, never a crash
 *
 * Returns follow rdma-core: ints are 0 or an errno value (and errno is set), pointer
 * returns are NULL with errno set.
 */
#ifndef OGDA_RDMACORE_FRONT_FRONT_H_
#define OGDA_RDMACORE_FRONT_FRONT_H_

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "doca_error.h"
#include "doca_verbs.h"
#include "opengda.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* Functions the ABI exports (the version script decides which version each one gets). */
#define FRONT_EXPORT __attribute__((visibility("default")))

/* Device names the front end gives the software NICs: mlx5_0, mlx5_1, ... */
#define FRONT_DEV_PREFIX "mlx5_"

/*
 * What a context has made through ibv_* calls, destroyed in this order by ibv_close_device
 * (the kernel cleans up a closed context's objects the same way, so rdma-core's close never
 * fails for objects a program left behind).
 */
enum front_kind {
	FRONT_QP,
	FRONT_AH,
	FRONT_SRQ,
	FRONT_CQ,
	FRONT_CH,
	FRONT_MR,
	FRONT_PD,
	FRONT_NKINDS,
};

struct front_link {
	struct front_link *prev, *next;
	enum front_kind kind;
	void *obj;                    /* the ibv_* handle */
};

struct front_device {
	struct ibv_device ibv;        /* first: the program's struct ibv_device * */
	uint32_t swnic_index;
};

struct front_context {
	struct verbs_context vctx;    /* ends with the program's struct ibv_context */
	struct doca_verbs_context *dctx;
	struct front_device *dev;
	struct ibv_device_attr attr;  /* read at open */
	pthread_mutex_t async_lock;   /* one async-event reader at a time */
	pthread_mutex_t objs_lock;
	struct front_link objs;       /* circular list head of the objects made through this context */
};

struct front_pd {
	struct ibv_pd ibv;
	struct front_link link;
	struct doca_verbs_pd *dpd;
};

struct front_mr {
	struct ibv_mr ibv;
	struct front_link link;
	struct opengda_mr *dmr;
};

struct front_comp_channel {
	struct ibv_comp_channel ibv;
	struct front_link link;
	struct doca_verbs_comp_channel *dch;
};

struct front_cq {
	union {
		struct ibv_cq ibv;
		struct ibv_cq_ex ibvx;    /* its head is ibv's; the poll ops are set by ibv_create_cq_ex */
	};
	struct front_link link;
	struct doca_verbs_cq *dcq;
	pthread_mutex_t poll_lock;    /* ibv_poll_cq is thread-safe in libmlx5: one poller at a time;
					 held from ibv_start_poll to ibv_end_poll */
	struct ibv_wc cur;            /* ibv_cq_ex: the completion the read_* ops report */
};

struct front_srq {
	struct ibv_srq ibv;
	struct front_link link;
	struct doca_verbs_srq *dsrq;
	pthread_mutex_t lock;         /* posting and freeing (front_srq.c) */
	uint8_t *ring;                /* nwqe WQEs of stride bytes: next segment + max_sge data segments */
	uint32_t nwqe, stride, max_sge;
	uint32_t *dbr;                /* word 0: producer counter (big-endian) */
	uint64_t *wrid;               /* per WQE index */
	uint32_t head, tail;          /* free chain: head is filled next; tail stays free */
	uint16_t counter;             /* WQEs posted */
};

/* Work requests of an ibv_wr_start .. ibv_wr_complete batch (front_qp_ex.c). */
struct front_wr_batch {
	struct ibv_send_wr *wrs;      /* cap entries, chained when posted */
	struct ibv_sge *sges;         /* max_sge per entry */
	uint8_t *inl;                 /* max_inline bytes per entry: inline data is copied at set time */
	uint32_t n, cap, max_sge, max_inline;
	int err;                      /* the first error of the batch: wr_complete returns it */
};

struct front_qp {
	union {
		struct ibv_qp ibv;
		struct ibv_qp_ex ibvx;    /* qp_base is ibv; the wr_* ops are set for QPs made with send_ops_flags */
	};
	struct front_link link;
	struct doca_verbs_qp *dqp;
	bool has_qp_ex;
	struct front_wr_batch batch;
	pthread_mutex_t sq_lock;      /* posts are thread-safe in libmlx5: one poster per queue */
	pthread_mutex_t rq_lock;
	struct ibv_qp_cap cap;        /* what the QP got (ibv_query_qp) */
	int sq_sig_all;
};

struct front_ah {
	struct ibv_ah ibv;
	struct front_link link;
	struct ibv_ah_attr attr;
	struct mlx5_wqe_av av;        /* what mlx5dv_init_obj(MLX5DV_OBJ_AH) shows */
};

static inline struct front_context *front_ctx(struct ibv_context *c)
{
	return (struct front_context *)verbs_get_ctx(c);
}

/* Records / forgets an object of the context (front_device.c). */
void front_track(struct ibv_context *context, struct front_link *link, enum front_kind kind, void *obj);
void front_untrack(struct ibv_context *context, struct front_link *link);

/* errno value of a DOCA error (EINVAL, ENOMEM, EBUSY, EOPNOTSUPP, EAGAIN, ETIMEDOUT, EIO). */
int front_errno(doca_error_t err);
/* Sets errno to e and returns it (int-returning calls). */
int front_fail(int e);

/*
 * Event fds (completion channels, async events) are the software NIC's eventfds, which it
 * makes non-blocking. rdma-core hands them out blocking and programs set O_NONBLOCK when
 * they want ibv_get_cq_event / ibv_get_async_event to return EAGAIN instead of waiting; to
 * tell the two apart the front end clears the flag once, when it hands the fd out. This
 * is safe because the software NIC reads the eventfd only when its counter is non-zero
 * (swnic_event.c: written when the queue becomes non-empty, read when it becomes empty)
 * and the front end never reads it.
 */
void front_fd_make_blocking(int fd);

/* The data-path ops installed in every context's ops table. */
int front_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
int front_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
int front_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
int front_req_notify_cq(struct ibv_cq *cq, int solicited_only);
int front_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
int front_query_port_op(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr, size_t len);
int front_query_device_ex_op(struct ibv_context *context, const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size);

/* front_qp.c: an RC / UC QP from extended attributes (send_ops_flags 0: no ibv_qp_ex). */
struct ibv_qp *front_qp_create(struct ibv_pd *pd, struct ibv_qp_init_attr_ex *attr, uint64_t send_ops_flags);
/* front_qp_ex.c: the ibv_wr_* ops and batch of a QP created with send_ops_flags. */
int front_qp_ex_init(struct front_qp *qp, uint64_t send_ops_flags);
void front_qp_ex_fini(struct front_qp *qp);
struct ibv_qp *front_create_qp_ex_op(struct ibv_context *context, struct ibv_qp_init_attr_ex *attr);

/* front_devx.c: errno of a DevX command op: EREMOTEIO when the device executed it with a bad
 * status (the out mailbox says which), else the DOCA error's errno. */
int front_devx_errno(doca_error_t err, const void *out, size_t outlen);

/* front_cq.c: polls with poll_lock held (SRQ wr_ids mapped back). */
int front_poll_cq_locked(struct front_cq *cq, int num_entries, struct ibv_wc *wc);
/* front_cq_ex.c: ibv_create_cq_ex (verbs_context op). */
struct ibv_cq_ex *front_create_cq_ex_op(struct ibv_context *context, struct ibv_cq_init_attr_ex *attr);

/* front_srq.c: a receive completion of an SRQ QP: the caller's wr_id, and the WQE freed. */
void front_srq_complete(struct front_srq *s, struct ibv_wc *wc);
int front_get_srq_num_op(struct ibv_srq *srq, uint32_t *srq_num);

/* front_ah.c: the address vector of an AH for mlx5dv_init_obj. */
int front_ah_init_obj(struct ibv_ah *in, struct mlx5dv_ah *out);

/* front_query.c: fills the device attributes of an open context (at open). */
int front_read_device_attr(struct front_context *fc);

/* front_attr.c: ibv_qp_attr + mask -> a DOCA Verbs modify; DOCA Verbs query -> ibv_qp_attr. */
int front_qp_modify(struct front_qp *qp, struct ibv_qp_attr *attr, int mask);
int front_qp_query(struct front_qp *qp, struct ibv_qp_attr *attr, int mask, struct ibv_qp_init_attr *init);

#endif /* OGDA_RDMACORE_FRONT_FRONT_H_ */
