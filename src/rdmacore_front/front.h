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
 *   front_qp.c      QPs: create, modify, query, destroy, post_send / post_recv
 *   front_attr.c    ibv_qp_attr <-> DOCA Verbs QP attributes
 *   front_srq.c     SRQs and AHs
 *   front_async.c   async events
 *   front_str.c     the *_str helpers
 *   front_unsup.c   the rest of the ABI: EOPNOTSUPP, never a crash
 *
 * Returns follow rdma-core: ints are 0 or an errno value (and errno is set), pointer
 * returns are NULL with errno set.
 */
#ifndef OGDA_RDMACORE_FRONT_FRONT_H_
#define OGDA_RDMACORE_FRONT_FRONT_H_

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
};

struct front_pd {
	struct ibv_pd ibv;
	struct doca_verbs_pd *dpd;
};

struct front_mr {
	struct ibv_mr ibv;
	struct opengda_mr *dmr;
};

struct front_comp_channel {
	struct ibv_comp_channel ibv;
	struct doca_verbs_comp_channel *dch;
};

struct front_cq {
	struct ibv_cq ibv;
	struct doca_verbs_cq *dcq;
	pthread_mutex_t poll_lock;    /* ibv_poll_cq is thread-safe in libmlx5: one poller at a time */
};

struct front_srq {
	struct ibv_srq ibv;
	struct doca_verbs_srq *dsrq;
};

struct front_qp {
	struct ibv_qp ibv;
	struct doca_verbs_qp *dqp;
	pthread_mutex_t sq_lock;      /* posts are thread-safe in libmlx5: one poster per queue */
	pthread_mutex_t rq_lock;
	struct ibv_qp_cap cap;        /* what the QP got (ibv_query_qp) */
	int sq_sig_all;
};

struct front_ah {
	struct ibv_ah ibv;
	struct ibv_ah_attr attr;
};

static inline struct front_context *front_ctx(struct ibv_context *c)
{
	return (struct front_context *)verbs_get_ctx(c);
}

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

/* front_query.c: fills the device attributes of an open context (at open). */
int front_read_device_attr(struct front_context *fc);

/* front_attr.c: ibv_qp_attr + mask -> a DOCA Verbs modify; DOCA Verbs query -> ibv_qp_attr. */
int front_qp_modify(struct front_qp *qp, struct ibv_qp_attr *attr, int mask);
int front_qp_query(struct front_qp *qp, struct ibv_qp_attr *attr, int mask, struct ibv_qp_init_attr *init);

#endif /* OGDA_RDMACORE_FRONT_FRONT_H_ */
