/* SPDX-License-Identifier: BSD-3-Clause */
#include "gpu_fixture.h"
#include "gpunetio/gverbs_qp.h"

#include "verbs/verbs_priv.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

void gfx_open(struct gfx *f)
{
	memset(f, 0, sizeof(*f));
	vfx_open(&f->v);
	assert_int_equal(opengda_gpu_create_host(&f->gpu), DOCA_SUCCESS);
}

void gfx_close(struct gfx *f)
{
	if (f->gpu != NULL)
		assert_int_equal(doca_gpu_destroy(f->gpu), DOCA_SUCCESS);
	vfx_close(&f->v);
	memset(f, 0, sizeof(*f));
}

static struct doca_verbs_cq *make_cq(struct gfx *f, const struct gfx_qp_opts *o)
{
	struct doca_verbs_cq_attr *a = NULL;
	struct doca_verbs_cq *cq = NULL;

	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, o->cq_size != 0 ? o->cq_size : GFX_CQ_SIZE), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_collapsed(a, o->collapsed ? 1 : 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(a, o->overrun_ignored ? DOCA_VERBS_CQ_ENABLE_OVERRUN
										 : DOCA_VERBS_CQ_DISABLE_OVERRUN),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f->v.ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	return cq;
}

static struct doca_verbs_qp *make_qp(struct gfx *f, const struct gfx_qp_opts *o, struct doca_verbs_cq *cq)
{
	struct doca_verbs_qp_init_attr *a =
		vfx_qp_init_attr(&f->v, DOCA_VERBS_QP_TYPE_RC, cq, cq, o->sq_wr != 0 ? o->sq_wr : GFX_SQ_WR, VFX_RQ_WR);
	struct doca_verbs_qp *qp = NULL;

	if (o->no_dbr) {
		assert_int_equal(doca_verbs_qp_init_attr_set_send_dbr_mode(a, DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT),
				 DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_emulate_no_dbr_ext(a, o->emulate_no_dbr), DOCA_SUCCESS);
	}
	assert_int_equal(doca_verbs_qp_create(f->v.ctx, a, &qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(a), DOCA_SUCCESS);
	return qp;
}

void gfx_pair_create(struct gfx *f, const struct gfx_qp_opts *o, struct gfx_pair *p)
{
	static const struct gfx_qp_opts defaults;

	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 2; i++) {
		const struct gfx_qp_opts *qo = i == 0 && o != NULL ? o : &defaults;

		p->cq[i] = make_cq(f, qo);
		p->qp[i] = make_qp(f, qo, p->cq[i]);
		assert_int_equal(doca_verbs_qp_get_qpn(p->qp[i], &p->qpn[i]), DOCA_SUCCESS);
	}
	for (int i = 0; i < 2; i++)
		vfx_qp_connect(&f->v, p->qp[i], DOCA_VERBS_QP_TYPE_RC, p->qpn[1 - i], VFX_PSN_BASE + (uint32_t)(1 - i),
			       VFX_PSN_BASE + (uint32_t)i);
}

void gfx_pair_destroy(struct gfx_pair *p)
{
	for (int i = 0; i < 2; i++) {
		if (p->qp[i] != NULL)
			assert_int_equal(doca_verbs_qp_destroy(p->qp[i]), DOCA_SUCCESS);
		if (p->cq[i] != NULL)
			assert_int_equal(doca_verbs_cq_destroy(p->cq[i]), DOCA_SUCCESS);
	}
	memset(p, 0, sizeof(*p));
}

struct doca_gpu_verbs_qp *gfx_export(struct gfx *f, struct gfx_pair *p, enum doca_gpu_dev_verbs_nic_handler h,
				     enum doca_gpu_verbs_send_dbr_mode_ext mode)
{
	struct doca_gpu_verbs_qp *gq = NULL;

	assert_int_equal(doca_gpu_verbs_export_qp(f->gpu, p->qp[0], h, NULL, p->cq[0], mode, &gq), DOCA_SUCCESS);
	assert_non_null(gq);
	return gq;
}

uint8_t *gfx_uar_base(const struct doca_verbs_qp *qp)
{
	return qp->uar->info.base_addr;
}

void gfx_write_wqe(const struct doca_gpu_dev_verbs_qp *d, uint16_t idx, const struct vfx_buf *src,
		   const struct vfx_buf *dst, uint32_t rkey, uint32_t len)
{
	struct opengda_mlx5_sq sq = {.ring = d->sq_wqe_daddr, .log_wqebbs = d->sq_log_wqe_num, .qpn = d->sq_num};

	assert_int_equal(opengda_mlx5_wqe_rdma_write(&sq, idx, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, (uintptr_t)dst->addr,
						     rkey, (uintptr_t)src->addr, src->lkey, len),
			 3);
}

void gfx_ring(const struct doca_gpu_dev_verbs_qp *d, uint64_t pi)
{
	if (d->sq_dbrec != NULL)
		__atomic_store_n(d->sq_dbrec, opengda_mlx5_qp_dbr_value((uint32_t)pi), __ATOMIC_RELEASE);
	__atomic_store_n(d->sq_db, opengda_mlx5_qp_uar_db_value((uint16_t)pi, d->sq_num), __ATOMIC_RELEASE);
}

void gfx_publish(const struct doca_gpu_dev_verbs_qp *d, uint64_t pi)
{
	__atomic_store_n(d->ogda_pi_mailbox, pi, __ATOMIC_RELEASE);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void nap(void)
{
	struct timespec ts = {0, 100000};

	nanosleep(&ts, NULL);
}

const struct opengda_mlx5_cqe64 *gfx_wait_cqe(const struct doca_gpu_dev_verbs_cq *c, uint64_t ci)
{
	const struct opengda_mlx5_cqe64 *cqe =
		(const struct opengda_mlx5_cqe64 *)(const void *)c->cqe_daddr + (ci & c->cqe_mask);
	long long end = now_ms() + GFX_TIMEOUT_MS;

	for (;;) {
		uint8_t op;

		if (c->ogda_flags & OPENGDA_DEV_CQ_FLAG_COLLAPSED) {
			/* The NIC publishes a collapsed entry's tail (counter .. op_own) in one 4-byte store. */
			uint32_t tail = __atomic_load_n((const uint32_t *)(const void *)&cqe->wqe_counter, __ATOMIC_ACQUIRE);

			memcpy(&op, (const uint8_t *)&tail + 3, 1);
		} else {
			op = __atomic_load_n(&cqe->op_own, __ATOMIC_ACQUIRE);
		}

		if (opengda_mlx5_op_own_is_sw_owned(op, (uint32_t)ci, c->cqe_log_num))
			return cqe;
		if (now_ms() > end)
			return NULL;
		nap();
	}
}

void gfx_expect_cqe_ok(const struct doca_gpu_dev_verbs_cq *c, uint64_t ci, uint16_t wqe_counter, uint32_t qpn)
{
	const struct opengda_mlx5_cqe64 *cqe = gfx_wait_cqe(c, ci);

	assert_non_null(cqe);
	assert_int_equal(opengda_mlx5_cqe_opcode(cqe), OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(opengda_mlx5_cqe_wqe_counter(cqe), wqe_counter);
	assert_int_equal(opengda_mlx5_cqe_qpn(cqe), qpn);
}

bool gfx_wait_u32(const uint32_t *p, uint32_t val)
{
	long long end = now_ms() + GFX_TIMEOUT_MS;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != val) {
		if (now_ms() > end)
			return false;
		nap();
	}
	return true;
}

enum doca_verbs_qp_state gfx_qp_state(struct doca_verbs_qp *qp)
{
	struct doca_verbs_qp_attr *a = vfx_attr();
	struct doca_verbs_qp_init_attr *ia = NULL;
	enum doca_verbs_qp_state s;
	int mask = 0;

	assert_int_equal(doca_verbs_qp_init_attr_create(&ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_query(qp, a, ia, &mask), DOCA_SUCCESS);
	s = doca_verbs_qp_attr_get_current_state(a);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(ia), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
	return s;
}

static void qp_to(struct doca_verbs_qp *qp, enum doca_verbs_qp_state s)
{
	struct doca_verbs_qp_attr *a = vfx_attr();

	assert_int_equal(doca_verbs_qp_attr_set_next_state(a, s), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(qp, a, DOCA_VERBS_QP_ATTR_NEXT_STATE), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

void gfx_qp_to_reset(struct doca_verbs_qp *qp)
{
	qp_to(qp, DOCA_VERBS_QP_STATE_RST);
}

void gfx_qp_to_error(struct doca_verbs_qp *qp)
{
	qp_to(qp, DOCA_VERBS_QP_STATE_ERR);
}

int gfx_setup(void **state)
{
	struct gfx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	gfx_open(f);
	*state = f;
	return 0;
}

int gfx_teardown(void **state)
{
	struct gfx *f = *state;

	ogda_gpu_export_force_uar_unmappable(false);
	gfx_close(f);
	free(f);
	return 0;
}
