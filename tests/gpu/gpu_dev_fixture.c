/* SPDX-License-Identifier: BSD-3-Clause */
#include "gpu_dev_fixture.h"

#include "swnic/swnic.h"
#include "verbs/verbs_priv.h"

#include <cuda_runtime_api.h>
#include <infiniband/verbs.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GDF_PEER_CQ 4u
#define GDF_PSN 0x3000u
#define GDF_ACCESS                                                                                 \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)
#define MASK_RST2INIT                                                                              \
	(DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_WRITE |                    \
	 DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_READ | DOCA_VERBS_QP_ATTR_ATOMIC_MODE | DOCA_VERBS_QP_ATTR_PKEY_INDEX | \
	 DOCA_VERBS_QP_ATTR_PORT_NUM)
#define MASK_INIT2RTR                                                                              \
	(DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_RQ_PSN | DOCA_VERBS_QP_ATTR_DEST_QP_NUM | \
	 DOCA_VERBS_QP_ATTR_PATH_MTU | DOCA_VERBS_QP_ATTR_AH_ATTR | DOCA_VERBS_QP_ATTR_MIN_RNR_TIMER)
#define MASK_RTR2RTS                                                                               \
	(DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_SQ_PSN | DOCA_VERBS_QP_ATTR_ACK_TIMEOUT | \
	 DOCA_VERBS_QP_ATTR_RETRY_CNT | DOCA_VERBS_QP_ATTR_RNR_RETRY)

/* Evaluates a DOCA call; on failure prints what failed and jumps to `fail`. */
#define TRY(call)                                                                                  \
	do {                                                                                       \
		doca_error_t e_ = (call);                                                          \
		if (e_ != DOCA_SUCCESS) {                                                          \
			printf("setup: %s failed: %s\n", #call, doca_error_get_name(e_));          \
			goto fail;                                                                 \
		}                                                                                  \
	} while (0)

/* The same for a CUDA runtime call. */
#define TRY_CUDA(call)                                                                             \
	do {                                                                                       \
		cudaError_t c_ = (call);                                                           \
		if (c_ != cudaSuccess) {                                                           \
			printf("setup: %s failed: %s\n", #call, cudaGetErrorString(c_));           \
			goto fail;                                                                 \
		}                                                                                  \
	} while (0)

uint64_t gdf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- NIC, PD, GPU -------------------------------------------------------------------------- */

static struct doca_devinfo *find_swnic0(struct doca_devinfo **list, uint32_t n)
{
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	for (uint32_t i = 0; i < n; i++)
		if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) == DOCA_SUCCESS && strcmp(name, "swnic0") == 0)
			return list[i];
	return NULL;
}

int gdf_open(struct gdf *f)
{
	struct opengda_port_attr port;
	struct doca_devinfo *info;
	const char *off = getenv("OPENGDA_DISABLE_CUDA");

	memset(f, 0, sizeof(*f));
	/* One line per case reaches the log even if the program is killed or ends abruptly. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0) {
		/* These tests are about GPU memory: a hidden driver would make them meaningless. */
		printf("note: unsetting OPENGDA_DISABLE_CUDA=%s for the GPU tests\n", off);
		unsetenv("OPENGDA_DISABLE_CUDA");
	}
	TRY_CUDA(cudaSetDevice(0));
	TRY_CUDA(cudaFree(NULL)); /* creates the primary context the library shares */
	TRY_CUDA(cudaDeviceGetPCIBusId(f->bus_id, (int)sizeof(f->bus_id), 0));
	TRY(doca_devinfo_create_list(&f->list, &f->ndev));
	info = find_swnic0(f->list, f->ndev);
	if (info == NULL) {
		printf("setup: no device named swnic0 among %u\n", f->ndev);
		goto fail;
	}
	TRY(doca_verbs_context_create(info, 0, &f->ctx));
	TRY(doca_verbs_pd_create(f->ctx, &f->pd));
	TRY(opengda_verbs_query_gid(f->ctx, 1, 0, &f->gid));
	TRY(opengda_verbs_query_port(f->ctx, 1, &port));
	f->mtu = port.active_mtu;
	TRY(doca_gpu_create(f->bus_id, &f->gpu));
	TRY(doca_gpu_verbs_create_service(&f->service));
	return 0;
fail:
	gdf_close(f);
	printf("case setup: FAIL cannot open swnic0 and GPU 0 (see the line above)\n");
	return -1;
}

void gdf_close(struct gdf *f)
{
	if (f->service != NULL && doca_gpu_verbs_destroy_service(f->service) != DOCA_SUCCESS)
		printf("teardown: destroy_service failed\n");
	if (f->gpu != NULL && doca_gpu_destroy(f->gpu) != DOCA_SUCCESS)
		printf("teardown: doca_gpu_destroy failed (exports or memory left)\n");
	if (f->pd != NULL)
		(void)doca_verbs_pd_destroy(f->pd);
	if (f->ctx != NULL)
		(void)doca_verbs_context_destroy(f->ctx);
	if (f->list != NULL)
		(void)doca_devinfo_destroy_list(f->list);
	f->service = NULL;
	f->gpu = NULL;
	f->pd = NULL;
	f->ctx = NULL;
	f->list = NULL;
}

/* ---- buffers ------------------------------------------------------------------------------- */

int gdf_buf_create(struct gdf *f, size_t len, uint8_t fill, struct gdf_buf *b)
{
	void *dev = NULL;

	memset(b, 0, sizeof(*b));
	TRY_CUDA(cudaMalloc(&dev, len));
	b->dev = dev;
	b->len = len;
	TRY_CUDA(cudaMemset(b->dev, fill, len));
	TRY(opengda_mr_create(f->pd, b->dev, len, GDF_ACCESS, &b->mr));
	TRY(opengda_mr_get_lkey(b->mr, &b->lkey));
	TRY(opengda_mr_get_rkey(b->mr, &b->rkey));
	return 0;
fail:
	gdf_buf_destroy(b);
	return -1;
}

void gdf_buf_destroy(struct gdf_buf *b)
{
	if (b->mr != NULL && opengda_mr_destroy(b->mr) != DOCA_SUCCESS)
		printf("teardown: opengda_mr_destroy failed\n");
	if (b->dev != NULL)
		(void)cudaFree(b->dev);
	memset(b, 0, sizeof(*b));
}

int gdf_buf_write(struct gdf_buf *b, size_t off, const void *src, size_t len)
{
	if (off > b->len || len > b->len - off)
		return -1;
	return cudaMemcpy(b->dev + off, src, len, cudaMemcpyHostToDevice) == cudaSuccess ? 0 : -1;
}

int gdf_buf_read(const struct gdf_buf *b, size_t off, void *dst, size_t len)
{
	if (off > b->len || len > b->len - off)
		return -1;
	return cudaMemcpy(dst, b->dev + off, len, cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : -1;
}

int gdf_buf_set(struct gdf_buf *b, size_t off, uint8_t v, size_t len)
{
	if (off > b->len || len > b->len - off)
		return -1;
	return cudaMemset(b->dev + off, v, len) == cudaSuccess ? 0 : -1;
}

struct doca_gpu_dev_verbs_addr gdf_laddr(const struct gdf_buf *b, size_t off)
{
	struct doca_gpu_dev_verbs_addr a = {(uint64_t)(uintptr_t)(b->dev + off), opengda_mlx5_htobe32(b->lkey)};

	return a;
}

struct doca_gpu_dev_verbs_addr gdf_raddr(const struct gdf_buf *b, size_t off)
{
	struct doca_gpu_dev_verbs_addr a = {(uint64_t)(uintptr_t)(b->dev + off), opengda_mlx5_htobe32(b->rkey)};

	return a;
}

int gdf_dead_rkey(struct gdf *f, uint32_t *rkey)
{
	struct gdf_buf b;

	if (gdf_buf_create(f, 4096, 0, &b) != 0)
		return -1;
	*rkey = b.rkey;
	gdf_buf_destroy(&b);
	return 0;
}

uint8_t gdf_pattern_byte(size_t i, uint32_t seed)
{
	uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u + (uint32_t)(i >> 16);

	return (uint8_t)(x >> 13);
}

void gdf_pattern(uint8_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = gdf_pattern_byte(i, seed);
}

long gdf_pattern_check(const uint8_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != gdf_pattern_byte(i, seed))
			return (long)i;
	return -1;
}

long gdf_all_check(const uint8_t *p, size_t len, uint8_t v)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != v)
			return (long)i;
	return -1;
}

/* ---- QPs ----------------------------------------------------------------------------------- */

static doca_error_t peer_create(struct gdf *f, struct gdf_peer *p)
{
	struct doca_verbs_cq_attr *ca = NULL;
	struct doca_verbs_qp_init_attr *qa = NULL;
	doca_error_t err;

	memset(p, 0, sizeof(*p));
	err = doca_verbs_cq_attr_create(&ca);
	if (err == DOCA_SUCCESS && (err = doca_verbs_cq_attr_set_cq_size(ca, GDF_PEER_CQ)) == DOCA_SUCCESS &&
	    (err = doca_verbs_cq_attr_set_cq_overrun(ca, DOCA_VERBS_CQ_ENABLE_OVERRUN)) == DOCA_SUCCESS)
		err = doca_verbs_cq_create(f->ctx, ca, &p->cq);
	if (ca != NULL)
		(void)doca_verbs_cq_attr_destroy(ca);
	if (err != DOCA_SUCCESS)
		return err;
	/* The peer only responds: the smallest send queue and no receive queue. */
	err = doca_verbs_qp_init_attr_create(&qa);
	if (err == DOCA_SUCCESS && (err = doca_verbs_qp_init_attr_set_pd(qa, f->pd)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_qp_type(qa, DOCA_VERBS_QP_TYPE_RC)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_send_cq(qa, p->cq)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_receive_cq(qa, p->cq)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_sq_wr(qa, 1)) == DOCA_SUCCESS &&
	    (err = doca_verbs_qp_init_attr_set_rq_wr(qa, 0)) == DOCA_SUCCESS)
		err = doca_verbs_qp_create(f->ctx, qa, &p->qp);
	if (qa != NULL)
		(void)doca_verbs_qp_init_attr_destroy(qa);
	return err;
}

static void peer_destroy(struct gdf_peer *p)
{
	if (p->qp != NULL)
		(void)doca_verbs_qp_destroy(p->qp);
	if (p->cq != NULL)
		(void)doca_verbs_cq_destroy(p->cq);
	memset(p, 0, sizeof(*p));
}

/* RST -> INIT -> RTR -> RTS, connected to dest_qpn on swnic0 (its own GID). */
static doca_error_t qp_connect(struct gdf *f, struct doca_verbs_qp *qp, uint32_t dest_qpn)
{
	struct doca_verbs_qp_attr *a = NULL;
	struct doca_verbs_ah_attr *ah = NULL;
	doca_error_t err = doca_verbs_qp_attr_create(&a);

	if (err != DOCA_SUCCESS)
		return err;
	if ((err = doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_INIT)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_allow_remote_write(a, 1)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_allow_remote_read(a, 1)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_atomic_mode(a, DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_8BYTES)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_pkey_index(a, 0)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_port_num(a, 1)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_modify(qp, a, MASK_RST2INIT)) != DOCA_SUCCESS)
		goto out;
	if ((err = doca_verbs_ah_attr_create(f->ctx, &ah)) != DOCA_SUCCESS ||
	    (err = doca_verbs_ah_attr_set_gid(ah, f->gid)) != DOCA_SUCCESS ||
	    (err = doca_verbs_ah_attr_set_addr_type(ah, DOCA_VERBS_ADDR_TYPE_IPv6)) != DOCA_SUCCESS ||
	    (err = doca_verbs_ah_attr_set_sgid_index(ah, 0)) != DOCA_SUCCESS ||
	    (err = doca_verbs_ah_attr_set_hop_limit(ah, 64)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTR)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_rq_psn(a, GDF_PSN)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_dest_qp_num(a, dest_qpn)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_path_mtu(a, f->mtu)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_ah_attr(a, ah)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_min_rnr_timer(a, 12)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_modify(qp, a, MASK_INIT2RTR)) != DOCA_SUCCESS)
		goto out;
	if ((err = doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTS)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_sq_psn(a, GDF_PSN)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_ack_timeout(a, 14)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_retry_cnt(a, 7)) != DOCA_SUCCESS ||
	    (err = doca_verbs_qp_attr_set_rnr_retry(a, 7)) != DOCA_SUCCESS)
		goto out;
	err = doca_verbs_qp_modify(qp, a, MASK_RTR2RTS);
out:
	if (ah != NULL)
		(void)doca_verbs_ah_attr_destroy(ah);
	(void)doca_verbs_qp_attr_destroy(a);
	return err;
}

/* Bounds hl's waits, gets its device view, monitors it when it is a CPU proxy QP. */
static int hl_finish(struct gdf *f, struct gdf_qp *q, struct doca_gpu_verbs_qp_hl *hl, uint64_t timeout,
		     struct doca_gpu_dev_verbs_qp **dev)
{
	bool own = false;

	/* The bound reaches the device copy only if set before the first get_qp_dev. */
	TRY(opengda_gpu_verbs_qp_set_wait_timeout(hl->qp_gverbs, timeout));
	TRY(doca_gpu_verbs_get_qp_dev(hl->qp_gverbs, dev));
	TRY(opengda_gpu_verbs_qp_has_own_service(hl->qp_gverbs, &own));
	q->own_service = own;
	if (hl->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY && !own) {
		TRY(doca_gpu_verbs_service_monitor_qp(f->service, hl->qp_gverbs));
		q->on_service = true;
	}
	return 0;
fail:
	return -1;
}

/* Connects hl <-> a fresh peer, then hl_finish. */
static int hl_attach(struct gdf *f, struct gdf_qp *q, struct doca_gpu_verbs_qp_hl *hl, struct gdf_peer *peer,
		     uint64_t timeout, struct doca_gpu_dev_verbs_qp **dev)
{
	uint32_t qpn = 0, pqpn = 0;

	TRY(peer_create(f, peer));
	TRY(doca_verbs_qp_get_qpn(hl->qp, &qpn));
	TRY(doca_verbs_qp_get_qpn(peer->qp, &pqpn));
	TRY(qp_connect(f, hl->qp, pqpn));
	TRY(qp_connect(f, peer->qp, qpn));
	return hl_finish(f, q, hl, timeout, dev);
fail:
	return -1;
}

static void hl_attr(const struct gdf *f, const struct gdf_qp_cfg *cfg, struct doca_gpu_verbs_qp_init_attr_hl *a)
{
	memset(a, 0, sizeof(*a));
	a->gpu_dev = f->gpu;
	a->verbs_pd = f->pd;
	a->sq_nwqe = cfg->sq_nwqe;
	a->nic_handler = cfg->handler;
	a->mreg_type = DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_DEFAULT;
	a->send_dbr_mode_ext = cfg->dbr_mode;
	a->cq_collapsed = false;
}

int gdf_qp_pair_create(struct gdf *f, const struct gdf_qp_cfg *cfg, uint16_t rq_nwqe, uint8_t recv_inline,
		       struct gdf_qp *qa, struct gdf_qp *qb)
{
	struct doca_gpu_verbs_qp_init_attr_hl a;
	uint64_t timeout = cfg->timeout_ns != 0 ? cfg->timeout_ns : GDF_WAIT_TIMEOUT_NS;
	uint32_t qpn_a = 0, qpn_b = 0;

	memset(qa, 0, sizeof(*qa));
	memset(qb, 0, sizeof(*qb));
	hl_attr(f, cfg, &a);
	a.rq_nwqe = rq_nwqe;
	a.recv_inline = recv_inline;
	TRY(doca_gpu_verbs_create_qp_hl(&a, &qa->single));
	TRY(doca_gpu_verbs_create_qp_hl(&a, &qb->single));
	qa->main = qa->single;
	qb->main = qb->single;
	qa->handler = qa->main->nic_handler;
	qb->handler = qb->main->nic_handler;
	TRY(doca_verbs_qp_get_qpn(qa->main->qp, &qpn_a));
	TRY(doca_verbs_qp_get_qpn(qb->main->qp, &qpn_b));
	TRY(qp_connect(f, qa->main->qp, qpn_b));
	TRY(qp_connect(f, qb->main->qp, qpn_a));
	if (hl_finish(f, qa, qa->main, timeout, &qa->dqp) != 0 || hl_finish(f, qb, qb->main, timeout, &qb->dqp) != 0)
		goto fail;
	return 0;
fail:
	printf("setup: QP pair with handler %s, %u WQEs, %u receives could not be made\n",
	       gdf_handler_name(cfg->handler), cfg->sq_nwqe, rq_nwqe);
	gdf_qp_destroy(f, qa);
	gdf_qp_destroy(f, qb);
	return -1;
}

int gdf_qp_create(struct gdf *f, const struct gdf_qp_cfg *cfg, struct gdf_qp *q)
{
	struct doca_gpu_verbs_qp_init_attr_hl a;
	uint64_t timeout = cfg->timeout_ns != 0 ? cfg->timeout_ns : GDF_WAIT_TIMEOUT_NS;

	memset(q, 0, sizeof(*q));
	hl_attr(f, cfg, &a);
	if (cfg->group) {
		TRY(doca_gpu_verbs_create_qp_group_hl(&a, &q->group));
		q->main = &q->group->qp_main;
		q->comp = &q->group->qp_companion;
	} else {
		TRY(doca_gpu_verbs_create_qp_hl(&a, &q->single));
		q->main = q->single;
	}
	q->handler = q->main->nic_handler;
	if (hl_attach(f, q, q->main, &q->peer_main, timeout, &q->dqp) != 0)
		goto fail;
	if (q->comp != NULL && hl_attach(f, q, q->comp, &q->peer_comp, timeout, &q->dcomp) != 0)
		goto fail;
	return 0;
fail:
	printf("setup: QP with handler %s, mode %s, %u WQEs%s could not be made\n", gdf_handler_name(cfg->handler),
	       gdf_dbr_mode_name(cfg->dbr_mode), cfg->sq_nwqe, cfg->group ? " (group)" : "");
	gdf_qp_destroy(f, q);
	return -1;
}

void gdf_qp_destroy(struct gdf *f, struct gdf_qp *q)
{
	(void)f;
	/* Destroying the exported QP takes it off the service first. */
	if (q->group != NULL && doca_gpu_verbs_destroy_qp_group_hl(q->group) != DOCA_SUCCESS)
		printf("teardown: destroy_qp_group_hl failed\n");
	if (q->single != NULL && doca_gpu_verbs_destroy_qp_hl(q->single) != DOCA_SUCCESS)
		printf("teardown: destroy_qp_hl failed\n");
	peer_destroy(&q->peer_main);
	peer_destroy(&q->peer_comp);
	memset(q, 0, sizeof(*q));
}

int gdf_qp_view(const struct gdf_qp *q, bool companion, struct doca_gpu_dev_verbs_qp *out)
{
	const struct doca_gpu_dev_verbs_qp *d = companion ? q->dcomp : q->dqp;

	if (d == NULL)
		return -1;
	return cudaMemcpy(out, d, sizeof(*out), cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : -1;
}

/* The verbs objects behind main or companion (their rings are host memory on the software NIC). */
static const struct doca_gpu_verbs_qp_hl *hl_of(const struct gdf_qp *q, bool companion)
{
	return companion ? q->comp : q->main;
}

const struct opengda_mlx5_wqe_ctrl_seg *gdf_qp_wqe(const struct gdf_qp *q, bool companion, uint64_t idx)
{
	const struct doca_verbs_qp *qp = hl_of(q, companion)->qp;

	return (const struct opengda_mlx5_wqe_ctrl_seg *)(const void *)(qp->sq + (idx & (qp->sq_wqebbs - 1u)) *
								      OPENGDA_MLX5_SEND_WQE_BB);
}

void gdf_qp_cqe(const struct gdf_qp *q, bool companion, uint64_t idx, struct opengda_mlx5_cqe_fields *out)
{
	const struct doca_verbs_cq *cq = hl_of(q, companion)->cq_sq;
	struct opengda_mlx5_cqe64 cqe;

	memcpy(&cqe, cq->ring + (idx & (cq->ncqe - 1u)) * cq->cqe_size, sizeof(cqe));
	opengda_mlx5_cqe_read(&cqe, out);
}

uint32_t gdf_qp_num(const struct gdf_qp *q, bool companion)
{
	return hl_of(q, companion)->qp->qpn;
}

void gdf_swnic_counters(uint32_t qpn, uint64_t *wqes, uint64_t *doorbells, uint64_t *errors)
{
	struct swnic *nic = NULL;
	struct swnic_qp *s;

	*wqes = *doorbells = *errors = UINT64_MAX;
	if (swnic_open(0, &nic) != DOCA_SUCCESS)
		return;
	s = swnic_qp_acquire(nic, qpn);
	if (s != NULL) {
		*wqes = atomic_load(&s->counters.wqes);
		*doorbells = atomic_load(&s->counters.doorbells);
		*errors = atomic_load(&s->counters.errors);
		swnic_qp_release(s);
	}
	swnic_close(nic);
}

const char *gdf_handler_name(enum doca_gpu_dev_verbs_nic_handler h)
{
	switch (h) {
	case DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO: return "AUTO";
	case DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY: return "CPU_PROXY";
	case DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB: return "GPU_SM_DB";
	case DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF: return "GPU_SM_BF";
	case DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR: return "GPU_SM_NO_DBR";
	default: return "?";
	}
}

const char *gdf_dbr_mode_name(enum doca_gpu_verbs_send_dbr_mode_ext m)
{
	switch (m) {
	case DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR: return "VALID_DBR";
	case DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW: return "NO_DBR_HW";
	case DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED: return "NO_DBR_SW_EMULATED";
	default: return "?";
	}
}

/* ---- handler configurations -------------------------------------------------------------- */

#define H(x) DOCA_GPUNETIO_VERBS_NIC_HANDLER_##x
#define M(x) DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_##x

const struct gdf_handler_case gdf_handler_cases[] = {
	{"GPU_SM_DB", H(GPU_SM_DB), M(VALID_DBR), H(GPU_SM_DB), false},
	{"GPU_SM_BF", H(GPU_SM_BF), M(VALID_DBR), H(GPU_SM_BF), false},
	{"GPU_SM_NO_DBR", H(GPU_SM_NO_DBR), M(NO_DBR_HW), H(GPU_SM_NO_DBR), false},
	{"CPU_PROXY", H(CPU_PROXY), M(VALID_DBR), H(CPU_PROXY), false},
	/* The software NIC's doorbell page is host memory, which the GPU can always map. */
	{"AUTO", H(AUTO), M(VALID_DBR), H(GPU_SM_DB), false},
	/* The GPU rings without a record; the library's own service keeps the record. */
	{"NO_DBR_SW_EMULATED", H(AUTO), M(NO_DBR_SW_EMULATED), H(GPU_SM_NO_DBR), true},
};
const unsigned int gdf_handler_case_count = sizeof(gdf_handler_cases) / sizeof(gdf_handler_cases[0]);

static void check_export_one(const struct gdf_qp *q, bool companion, const struct gdf_handler_case *hc,
			     uint32_t nwqe, uint64_t timeout_ns, struct gdf_check *chk)
{
	const struct doca_gpu_verbs_qp_hl *hl = hl_of(q, companion);
	const char *which = companion ? "companion" : "main";
	const bool gpu_record = hc->expect == H(GPU_SM_DB) || hc->expect == H(GPU_SM_BF);
	const bool mailbox = hc->expect == H(CPU_PROXY) || hc->mode == M(NO_DBR_SW_EMULATED);
	struct doca_gpu_dev_verbs_qp v;
	bool own = false;

	GDF_EXPECT(chk, hl->nic_handler == hc->expect, "%s: handler %s, want %s", which, gdf_handler_name(hl->nic_handler),
		   gdf_handler_name(hc->expect));
	GDF_EXPECT(chk, hl->send_dbr_mode_ext == hc->mode, "%s: DBR mode %s, want %s", which,
		   gdf_dbr_mode_name(hl->send_dbr_mode_ext), gdf_dbr_mode_name(hc->mode));
	GDF_EXPECT(chk, opengda_gpu_verbs_qp_has_own_service(hl->qp_gverbs, &own) == DOCA_SUCCESS && own == hc->own_service,
		   "%s: own proxy service %d, want %d", which, (int)own, (int)hc->own_service);
	GDF_EXPECT(chk, gdf_qp_view(q, companion, &v) == 0, "%s: cannot read the device view", which);
	if (!chk->ok)
		return;
	GDF_EXPECT(chk, v.nic_handler == hc->expect && v.send_dbr_mode_ext == hc->mode,
		   "%s: device view says handler %d, mode %d", which, (int)v.nic_handler, (int)v.send_dbr_mode_ext);
	GDF_EXPECT(chk, (v.sq_dbrec != NULL) == gpu_record, "%s: doorbell record %p for the GPU; want %s", which,
		   (void *)v.sq_dbrec, gpu_record ? "one" : "none");
	GDF_EXPECT(chk, (v.ogda_pi_mailbox != NULL) == mailbox, "%s: proxy mailbox %p; want %s", which,
		   (void *)v.ogda_pi_mailbox, mailbox ? "one" : "none");
	GDF_EXPECT(chk, hc->expect != H(CPU_PROXY) || v.sq_db == v.ogda_pi_mailbox,
		   "%s: CPU_PROXY rings the mailbox, but sq_db %p != mailbox %p", which, (void *)v.sq_db,
		   (void *)v.ogda_pi_mailbox);
	GDF_EXPECT(chk, v.sq_db != NULL, "%s: no doorbell", which);
	GDF_EXPECT(chk, v.sq_num == hl->qp->qpn && v.sq_num_shift8_be == opengda_mlx5_htobe32(hl->qp->qpn << 8),
		   "%s: QP number %#x / %#x in the view, QP is %#x", which, v.sq_num, v.sq_num_shift8_be, hl->qp->qpn);
	GDF_EXPECT(chk, v.sq_wqe_num == nwqe && v.sq_wqe_mask == nwqe - 1u && (1u << v.sq_log_wqe_num) == nwqe,
		   "%s: ring of %u WQEs (mask %#x, log %u); want %u", which, v.sq_wqe_num, v.sq_wqe_mask,
		   v.sq_log_wqe_num, nwqe);
	GDF_EXPECT(chk, v.cq_sq.cqe_num == nwqe && v.cq_sq.cqe_size == 64, "%s: CQ of %u x %u bytes; want %u x 64",
		   which, v.cq_sq.cqe_num, v.cq_sq.cqe_size, nwqe);
	GDF_EXPECT(chk, v.ogda_wait_timeout_ns == timeout_ns && v.cq_sq.ogda_wait_timeout_ns == timeout_ns,
		   "%s: wait bound %llu / %llu ns; want %llu", which, (unsigned long long)v.ogda_wait_timeout_ns,
		   (unsigned long long)v.cq_sq.ogda_wait_timeout_ns, (unsigned long long)timeout_ns);
	GDF_EXPECT(chk, v.mem_type == DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST && v.cq_sq.mem_type == DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST,
		   "%s: queues in memory type %d / %d; the software NIC needs host memory", which, (int)v.mem_type,
		   (int)v.cq_sq.mem_type);
	gdf_check_indices(q, companion, 0, chk);
}

void gdf_check_export(const struct gdf_qp *q, const struct gdf_handler_case *hc, uint32_t nwqe,
		      uint64_t timeout_ns, struct gdf_check *chk)
{
	check_export_one(q, false, hc, nwqe, timeout_ns, chk);
	if (q->comp != NULL)
		check_export_one(q, true, hc, nwqe, timeout_ns, chk);
}

void gdf_check_indices(const struct gdf_qp *q, bool companion, uint64_t n, struct gdf_check *chk)
{
	const char *which = companion ? "companion" : "main";
	struct doca_gpu_dev_verbs_qp v;

	GDF_EXPECT(chk, gdf_qp_view(q, companion, &v) == 0, "%s: cannot read the device view", which);
	if (!chk->ok)
		return;
	GDF_EXPECT(chk, v.sq_rsvd_index == n && v.sq_ready_index == n && v.sq_wqe_pi == n,
		   "%s: reserved %llu, published %llu, rung %llu; want all %llu", which,
		   (unsigned long long)v.sq_rsvd_index, (unsigned long long)v.sq_ready_index,
		   (unsigned long long)v.sq_wqe_pi, (unsigned long long)n);
	GDF_EXPECT(chk, v.cq_sq.cqe_ci == n, "%s: CQ consumer index %llu; want %llu", which,
		   (unsigned long long)v.cq_sq.cqe_ci, (unsigned long long)n);
	GDF_EXPECT(chk, v.cq_sq.ogda_first_error == 0, "%s: error recorded: %#x", which, v.cq_sq.ogda_first_error);
}

#undef H
#undef M

/* ---- kernels and reporting ----------------------------------------------------------------- */

void gdf_sync(struct gdf *f, const char *name, struct gdf_check *chk)
{
	uint64_t deadline = gdf_now_ns() + (uint64_t)GDF_KERNEL_LIMIT_S * 1000000000ull;
	cudaError_t e = cudaGetLastError();

	if (e != cudaSuccess) {
		GDF_EXPECT(chk, false, "kernel launch: %s", cudaGetErrorString(e));
		return;
	}
	while ((e = cudaStreamQuery(0)) == cudaErrorNotReady) {
		if (gdf_now_ns() > deadline) {
			printf("case %s: FAIL kernel still running after %d s: a device wait is not bounded\n", name,
			       GDF_KERNEL_LIMIT_S);
			printf("aborting: %u cases before this one, %u failed\n", f->cases, f->failures);
			fflush(stdout);
			_exit(1);
		}
		usleep(200);
	}
	if (e != cudaSuccess) {
		/* Execution errors are sticky: the context is gone, nothing later can run. */
		printf("case %s: FAIL kernel: %s\n", name, cudaGetErrorString(e));
		printf("aborting: %u cases before this one, %u failed\n", f->cases, f->failures);
		fflush(stdout);
		_exit(1);
	}
}

void gdf_check_init(struct gdf_check *chk)
{
	chk->ok = true;
	chk->msg[0] = '\0';
}

void gdf_report(struct gdf *f, const char *name, const struct gdf_check *chk, const char *ok_detail)
{
	f->cases++;
	if (chk->ok) {
		printf("case %s: OK%s%s\n", name, ok_detail != NULL && ok_detail[0] != '\0' ? " " : "",
		       ok_detail != NULL ? ok_detail : "");
	} else {
		f->failures++;
		printf("case %s: FAIL %s\n", name, chk->msg);
	}
	fflush(stdout);
}

int gdf_summary(const struct gdf *f, const char *prog)
{
	printf("%s: %u cases, %u failed\n", prog, f->cases, f->failures);
	return f->failures == 0 && f->cases > 0 ? 0 : 1;
}
