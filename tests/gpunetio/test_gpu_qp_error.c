/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpu_verbs_query_last_error and doca_gpu_verbs_reset_tracking_and_memory on a host
 * handle: errors the software NIC reports (bad rkey, flush), and posting again after a reset.
 */
#include "gpu_fixture.h"

#include "gpunetio/gverbs_qp.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define H(x) DOCA_GPUNETIO_VERBS_NIC_HANDLER_##x
#define M(x) DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_##x
#define LEN 128u
#define NSLOT 8u

/* Source (0x77), destination slots (zeroed) and an rkey no MR has any more. */
struct bufs {
	struct vfx_buf src, dst;
	uint32_t stale_rkey;
};

static void bufs_create(struct gfx *f, struct bufs *b)
{
	struct vfx_buf gone;

	vfx_buf_create(&f->v, 64, 0, &gone);
	b->stale_rkey = gone.rkey;
	vfx_buf_destroy(&gone);
	vfx_buf_create(&f->v, LEN, 0x77, &b->src);
	vfx_buf_create(&f->v, (size_t)LEN * NSLOT, 0, &b->dst);
}

static void bufs_destroy(struct bufs *b)
{
	vfx_buf_destroy(&b->dst);
	vfx_buf_destroy(&b->src);
}

/* WQE idx writes the source to destination slot (idx % NSLOT), with the real rkey or the stale one. */
static void write_slot(const struct doca_gpu_dev_verbs_qp *d, struct bufs *b, uint16_t idx, bool bad_rkey)
{
	struct vfx_buf slot = b->dst;

	slot.addr += (size_t)(idx % NSLOT) * LEN;
	gfx_write_wqe(d, idx, &b->src, &slot, bad_rkey ? b->stale_rkey : b->dst.rkey, LEN);
}

static void assert_slot(struct bufs *b, uint16_t slot, uint8_t val)
{
	uint8_t want[LEN];

	memset(want, val, sizeof(want));
	assert_memory_equal(b->dst.addr + (size_t)slot * LEN, want, LEN);
}

static const struct opengda_mlx5_cqe64 *expect_err_cqe(const struct doca_gpu_dev_verbs_cq *c, uint64_t ci,
						      uint8_t syndrome, uint16_t wqe_counter)
{
	const struct opengda_mlx5_cqe64 *cqe = gfx_wait_cqe(c, ci);

	assert_non_null(cqe);
	assert_int_equal(opengda_mlx5_cqe_opcode(cqe), OPENGDA_MLX5_CQE_REQ_ERR);
	assert_int_equal(opengda_mlx5_cqe_syndrome(cqe), syndrome);
	assert_int_equal(opengda_mlx5_cqe_wqe_counter(cqe), wqe_counter);
	return cqe;
}

static void query(struct doca_gpu_verbs_qp *gq, struct doca_gpu_verbs_qp_error_info *e)
{
	memset(e, 0x5c, sizeof(*e));
	assert_int_equal(doca_gpu_verbs_query_last_error(gq, e), DOCA_SUCCESS);
}

static void assert_no_error(struct doca_gpu_verbs_qp *gq)
{
	struct doca_gpu_verbs_qp_error_info e;

	query(gq, &e);
	assert_false(e.has_error);
	assert_int_equal(e.syndrome, 0);
	assert_int_equal(e.vendor_err_synd, 0);
	assert_int_equal(e.hw_err_synd, 0);
	assert_int_equal(e.hw_synd_type, 0);
	assert_int_equal(e.wqe_counter, -1);
}

/* Both QPs of the pair back to RTS through RST, with their original PSNs. */
static void reconnect(struct gfx *f, struct gfx_pair *p)
{
	for (int i = 0; i < 2; i++) {
		gfx_qp_to_reset(p->qp[i]);
		vfx_qp_connect(&f->v, p->qp[i], DOCA_VERBS_QP_TYPE_RC, p->qpn[1 - i], VFX_PSN_BASE + (uint32_t)(1 - i),
			       VFX_PSN_BASE + (uint32_t)i);
	}
	assert_int_equal(gfx_qp_state(p->qp[0]), DOCA_VERBS_QP_STATE_RTS);
}

static void test_bad_args(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;
	struct doca_gpu_verbs_qp_error_info e;

	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	GFX_EXPECT_ERR(doca_gpu_verbs_query_last_error(NULL, &e), DOCA_ERROR_INVALID_VALUE, "query_last_error: NULL QP");
	GFX_EXPECT_ERR(doca_gpu_verbs_query_last_error(gq, NULL), DOCA_ERROR_INVALID_VALUE,
		       "query_last_error: NULL output");
	GFX_EXPECT_ERR(doca_gpu_verbs_reset_tracking_and_memory(NULL), DOCA_ERROR_INVALID_VALUE,
		       "reset_tracking_and_memory: NULL QP");
	assert_no_error(gq);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	gfx_pair_destroy(&p);
}

/* A bad rkey at WQE 3 after three good WQEs; the WQE after it is flushed. */
static void test_remote_access_error(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	const struct doca_gpu_dev_verbs_qp *d;
	const struct opengda_mlx5_cqe64 *cqe;
	struct doca_gpu_dev_verbs_qp *dev = NULL;
	struct doca_gpu_verbs_qp_error_info e;

	gfx_pair_create(f, NULL, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	d = &gq->qp_cpu;
	for (uint16_t i = 0; i < 3; i++)
		write_slot(d, &b, i, false);
	write_slot(d, &b, 3, true);
	gfx_ring(d, 4);
	for (uint16_t i = 0; i < 3; i++)
		gfx_expect_cqe_ok(&d->cq_sq, i, i, p.qpn[0]);
	cqe = expect_err_cqe(&d->cq_sq, 3, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, 3);
	assert_slot(&b, 3, 0);

	query(gq, &e);
	assert_true(e.has_error);
	assert_int_equal(e.syndrome, 0x13);
	assert_int_equal(e.vendor_err_synd, opengda_mlx5_cqe_vendor_syndrome(cqe));
	assert_int_equal(e.hw_err_synd, opengda_mlx5_cqe_hw_syndrome(cqe));
	assert_int_equal(e.hw_synd_type, opengda_mlx5_cqe_hw_syndrome_type(cqe));
	assert_int_equal(e.wqe_counter, 3);
	assert_int_equal(gfx_qp_state(p.qp[0]), DOCA_VERBS_QP_STATE_ERR);

	/* A later WQE is flushed; the first error is still the one reported. */
	write_slot(d, &b, 4, false);
	gfx_ring(d, 5);
	(void)expect_err_cqe(&d->cq_sq, 4, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR, 4);
	query(gq, &e);
	assert_true(e.has_error);
	assert_int_equal(e.syndrome, 0x13);
	assert_int_equal(e.wqe_counter, 3);

	/* Device code consumed everything up to the flush and recorded the error it saw. */
	assert_int_equal(doca_gpu_verbs_get_qp_dev(gq, &dev), DOCA_SUCCESS);
	dev->cq_sq.cqe_ci = 4;
	dev->cq_sq.ogda_first_error = 1u << 31 | 0x13u << 16 | 3u;
	query(gq, &e);
	assert_true(e.has_error);
	assert_int_equal(e.syndrome, 0x13);
	assert_int_equal(e.vendor_err_synd, 0);
	assert_int_equal(e.wqe_counter, 3);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

/* Only flushed WQEs: the first flush is reported; a QP in ERR without CQEs has no syndrome. */
static void test_flush_only(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	struct doca_gpu_verbs_qp_error_info e;

	gfx_pair_create(f, NULL, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	gfx_qp_to_error(p.qp[0]);
	query(gq, &e);
	assert_true(e.has_error);
	assert_int_equal(e.syndrome, 0);
	assert_int_equal(e.wqe_counter, -1);

	write_slot(&gq->qp_cpu, &b, 0, false);
	write_slot(&gq->qp_cpu, &b, 1, false);
	gfx_ring(&gq->qp_cpu, 2);
	(void)expect_err_cqe(&gq->qp_cpu.cq_sq, 0, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR, 0);
	(void)expect_err_cqe(&gq->qp_cpu.cq_sq, 1, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR, 1);
	query(gq, &e);
	assert_true(e.has_error);
	assert_int_equal(e.syndrome, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	assert_int_equal(e.wqe_counter, 0);
	assert_slot(&b, 0, 0);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

/* A collapsed CQ holds the latest CQE in entry 0. */
static void test_collapsed_error(void **state)
{
	struct gfx *f = *state;
	const struct gfx_qp_opts o = {.cq_size = 1, .collapsed = true};
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	struct doca_gpu_verbs_qp_error_info e;

	gfx_pair_create(f, &o, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	write_slot(&gq->qp_cpu, &b, 0, true);
	gfx_ring(&gq->qp_cpu, 1);
	(void)expect_err_cqe(&gq->qp_cpu.cq_sq, 0, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, 0);
	query(gq, &e);
	assert_true(e.has_error);
	assert_int_equal(e.syndrome, 0x13);
	assert_int_equal(e.wqe_counter, 0);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

static void assert_reset_view(struct doca_gpu_verbs_qp *gq, uint64_t rsvd)
{
	const struct doca_gpu_dev_verbs_qp *d = &gq->qp_cpu;

	assert_int_equal(d->sq_rsvd_index, 0);
	assert_int_equal(d->sq_ready_index, 0);
	assert_int_equal(d->sq_wqe_pi, 0);
	assert_int_equal(d->sq_lock, 0);
	assert_int_equal(d->cq_sq.cqe_ci, 0);
	assert_int_equal(d->cq_sq.cqe_rsvd, rsvd);
	assert_int_equal(d->cq_sq.ogda_first_error, 0);
	for (uint32_t i = 0; i < d->sq_wqe_num; i++)
		assert_int_equal(d->ogda_ready_slots[i], 0);
	for (uint32_t i = 0; i < d->sq_wqe_num * 64u; i++)
		assert_int_equal(d->sq_wqe_daddr[i], 0);
	for (uint32_t i = 0; i < d->cq_sq.cqe_num; i++)
		for (uint32_t k = 0; k < 64; k++)
			assert_int_equal(d->cq_sq.cqe_daddr[i * 64u + k], k == 63 ? 0xf1 : 0);
	if (gq->qp_gpu != NULL)
		assert_memory_equal(gq->qp_gpu, d, sizeof(*d));
}

/*
 * Error, then RST -> RTS and a reset: the indices restart at 0, the CQ is invalidated, and the
 * next completion lands at the CQ's producer index (cqe_rsvd). The first ring after the reset
 * repeats the last one before it: the software NIC must still see it.
 */
static void test_reset_then_post(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	struct doca_gpu_dev_verbs_qp *dev = NULL;
	const struct doca_gpu_dev_verbs_qp *d;

	gfx_pair_create(f, NULL, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	d = &gq->qp_cpu;
	assert_int_equal(doca_gpu_verbs_get_qp_dev(gq, &dev), DOCA_SUCCESS);
	write_slot(d, &b, 0, true);
	gfx_ring(d, 1);
	(void)expect_err_cqe(&d->cq_sq, 0, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, 0);
	/* What device code would have left behind. */
	dev->sq_rsvd_index = dev->sq_ready_index = dev->sq_wqe_pi = 1;
	dev->sq_lock = 1;
	dev->ogda_ready_slots[0] = 1;

	GFX_EXPECT_ERR(doca_gpu_verbs_reset_tracking_and_memory(gq), DOCA_ERROR_BAD_STATE,
		       "is in state 4: move it to RST");
	reconnect(f, &p);
	assert_int_equal(doca_gpu_verbs_reset_tracking_and_memory(gq), DOCA_SUCCESS);
	assert_reset_view(gq, 1);
	/* The NIC's rewind left a neutral ring, so the first ring below (equal to the last one) is seen. */
	assert_int_equal(__atomic_load_n(gq->db_reg_cpu, __ATOMIC_ACQUIRE), opengda_mlx5_qp_uar_db_value(0, p.qpn[0]));
	assert_no_error(gq);

	write_slot(d, &b, 0, false);
	gfx_ring(d, 1);
	gfx_expect_cqe_ok(&d->cq_sq, 1, 0, p.qpn[0]);
	assert_slot(&b, 0, 0x77);
	write_slot(d, &b, 1, false);
	write_slot(d, &b, 2, false);
	gfx_ring(d, 3);
	gfx_expect_cqe_ok(&d->cq_sq, 2, 1, p.qpn[0]);
	gfx_expect_cqe_ok(&d->cq_sq, 3, 2, p.qpn[0]);
	assert_slot(&b, 1, 0x77);
	assert_slot(&b, 2, 0x77);
	assert_no_error(gq);

	/* Posted since leaving RST: refused until the QP goes through RST again. */
	GFX_EXPECT_ERR(doca_gpu_verbs_reset_tracking_and_memory(gq), DOCA_ERROR_BAD_STATE,
		       "posted work since it left RST (doorbell record 0x3)");
	reconnect(f, &p);
	dev->cq_sq.cqe_ci = 3; /* device code consumed its three completions */
	assert_int_equal(doca_gpu_verbs_reset_tracking_and_memory(gq), DOCA_SUCCESS);
	assert_reset_view(gq, 4);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

/* Reset of a CPU_PROXY QP: the mailbox and the proxy's memory of what it rang start over. */
static void test_reset_cpu_proxy(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	const struct doca_gpu_dev_verbs_qp *d;
	bool progressed = false;

	gfx_pair_create(f, NULL, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(CPU_PROXY), M(VALID_DBR));
	d = &gq->qp_cpu;
	write_slot(d, &b, 0, true);
	write_slot(d, &b, 1, false);
	gfx_publish(d, 2);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_true(progressed);
	(void)expect_err_cqe(&d->cq_sq, 0, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, 0);
	(void)expect_err_cqe(&d->cq_sq, 1, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR, 1);

	reconnect(f, &p);
	assert_int_equal(doca_gpu_verbs_reset_tracking_and_memory(gq), DOCA_SUCCESS);
	assert_reset_view(gq, 2);
	assert_int_equal(*d->ogda_pi_mailbox, 0);
	assert_int_equal(gq->last_pi, 0);

	write_slot(d, &b, 0, false);
	gfx_publish(d, 1);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_true(progressed);
	gfx_expect_cqe_ok(&d->cq_sq, 2, 0, p.qpn[0]);
	assert_slot(&b, 0, 0x77);
	assert_no_error(gq);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_args, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_remote_access_error, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_flush_only, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_collapsed_error, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_reset_then_post, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_reset_cpu_proxy, gfx_setup, gfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
