/* SPDX-License-Identifier: BSD-3-Clause */
/* QP export on a host handle: every field of the device view, per handler and DBR mode. */
#include "gpu_fixture.h"

#include "gpunetio/gpunetio_priv.h"
#include "gpunetio/gverbs_qp.h"
#include "verbs/verbs_priv.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define H(x) DOCA_GPUNETIO_VERBS_NIC_HANDLER_##x
#define M(x) DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_##x

/* Nothing the exports took is left: no mapping, no allocation, no export count. */
static void assert_all_released(struct gfx *f)
{
	assert_null(f->gpu->hostmaps);
	assert_null(f->gpu->allocs);
	assert_int_equal(f->gpu->nexports, 0);
}

/* The fields every export fills the same way (QP 0 of p, fresh). */
static void check_common(struct gfx_pair *p, const struct doca_gpu_dev_verbs_qp *d, uint16_t cq_flags)
{
	void *sq = NULL, *rq = NULL, *cq_buf = NULL;
	uint32_t nsq = 0, nrq = 0, rqsz = 0, ncqe = 0, cqn = 0;
	uint64_t *cq_uar = NULL;
	uint32_t *ci_dbr = NULL, *arm_dbr = NULL;
	uint8_t cqe_size = 0;
	uint32_t qpn = p->qpn[0];

	assert_int_equal(doca_verbs_qp_get_wq(p->qp[0], &sq, &nsq, &rq, &nrq, &rqsz), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_wq(p->cq[0], &cq_buf, &ncqe, &cqe_size), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_dbr_addr(p->cq[0], &cq_uar, &ci_dbr, &arm_dbr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_cqn(p->cq[0], &cqn), DOCA_SUCCESS);

	assert_int_equal(d->sq_rsvd_index, 0);
	assert_int_equal(d->sq_ready_index, 0);
	assert_int_equal(d->sq_wqe_pi, 0);
	assert_int_equal(d->sq_num, qpn);
	assert_int_equal(d->sq_num_shift8, qpn << 8);
	assert_int_equal(d->sq_num_shift8_be, __builtin_bswap32(qpn << 8));
	assert_int_equal(d->sq_num_shift8_be_1ds, __builtin_bswap32(qpn << 8 | 1));
	assert_int_equal(d->sq_num_shift8_be_2ds, __builtin_bswap32(qpn << 8 | 2));
	assert_int_equal(d->sq_num_shift8_be_3ds, __builtin_bswap32(qpn << 8 | 3));
	assert_int_equal(d->sq_num_shift8_be_4ds, __builtin_bswap32(qpn << 8 | 4));
	assert_int_equal(d->sq_num_shift8_be_5ds, __builtin_bswap32(qpn << 8 | 5));
	assert_int_equal(d->sq_lock, 0);
	assert_int_equal(d->sq_wqe_num, nsq);
	assert_int_equal(nsq & (nsq - 1), 0);
	assert_int_equal(d->sq_wqe_mask, nsq - 1);
	assert_int_equal(1u << d->sq_log_wqe_num, nsq);
	assert_ptr_equal(d->sq_wqe_daddr, sq);
	assert_non_null(d->ogda_ready_slots);
	for (uint32_t i = 0; i < nsq; i++)
		assert_int_equal(d->ogda_ready_slots[i], 0);
	assert_int_equal(d->ogda_wait_timeout_ns, 0);
	assert_int_equal(d->mem_type, DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST);
	assert_int_equal(d->ogda_flags, 0);

	assert_ptr_equal(d->cq_sq.cqe_daddr, cq_buf);
	assert_int_equal(d->cq_sq.cq_num, cqn);
	assert_int_equal(d->cq_sq.cqe_num, ncqe);
	assert_int_equal(d->cq_sq.cqe_mask, ncqe - 1);
	assert_int_equal(1u << d->cq_sq.cqe_log_num, ncqe);
	assert_int_equal(d->cq_sq.cqe_size, 64);
	assert_ptr_equal(d->cq_sq.dbrec, ci_dbr);
	assert_int_equal(d->cq_sq.cqe_ci, 0);
	assert_int_equal(d->cq_sq.cqe_rsvd, 0);
	assert_int_equal(d->cq_sq.ogda_flags, cq_flags);
	assert_int_equal(d->cq_sq.mem_type, DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST);
	assert_int_equal(d->cq_sq.ogda_first_error, 0);
	assert_int_equal(d->cq_sq.ogda_wait_timeout_ns, 0);
}

static void check_handler(struct doca_gpu_verbs_qp *gq, enum doca_gpu_dev_verbs_nic_handler want, bool own)
{
	enum doca_gpu_dev_verbs_nic_handler h = H(AUTO);
	bool has = !own;

	assert_int_equal(gq->qp_cpu.nic_handler, want);
	assert_int_equal(opengda_gpu_verbs_qp_get_nic_handler(gq, &h), DOCA_SUCCESS);
	assert_int_equal(h, want);
	assert_int_equal(opengda_gpu_verbs_qp_has_own_service(gq, &has), DOCA_SUCCESS);
	assert_int_equal(has, own);
}

static void *qp_dbr(struct doca_verbs_qp *qp)
{
	void *dbr = NULL;

	assert_int_equal(doca_verbs_qp_get_dbr_addr(qp, &dbr), DOCA_SUCCESS);
	return dbr;
}

/* GPU_SM_DB / GPU_SM_BF / AUTO on a valid-DBR QP: record and register for the device. */
static void export_valid_dbr(struct gfx *f, enum doca_gpu_dev_verbs_nic_handler req,
			     enum doca_gpu_dev_verbs_nic_handler want)
{
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;
	struct doca_verbs_qp *vqp = NULL;
	void *uar = NULL;

	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, req, M(VALID_DBR));
	check_common(&p, &gq->qp_cpu, OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC);
	check_handler(gq, want, false);
	assert_int_equal(gq->qp_cpu.send_dbr_mode_ext, M(VALID_DBR));
	assert_ptr_equal(gq->qp_cpu.sq_dbrec, (uint32_t *)qp_dbr(p.qp[0]) + 1);
	assert_int_equal(doca_verbs_qp_get_uar_addr(p.qp[0], &uar), DOCA_SUCCESS);
	assert_ptr_equal(gq->qp_cpu.sq_db, uar);
	assert_ptr_equal(gq->qp_cpu.sq_db, gfx_uar_base(p.qp[0]) + 0x800);
	assert_null(gq->qp_cpu.ogda_pi_mailbox);
	assert_int_equal(opengda_gpu_verbs_qp_get_verbs_qp(gq, &vqp), DOCA_SUCCESS);
	assert_ptr_equal(vqp, p.qp[0]);
	assert_int_equal(f->gpu->nexports, 1);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	assert_all_released(f);
	gfx_pair_destroy(&p);
}

static void test_export_gpu_sm_db(void **state)
{
	export_valid_dbr(*state, H(GPU_SM_DB), H(GPU_SM_DB));
}

static void test_export_auto_is_gpu_sm_db_on_host(void **state)
{
	export_valid_dbr(*state, H(AUTO), H(GPU_SM_DB));
}

static void test_export_gpu_sm_bf(void **state)
{
	export_valid_dbr(*state, H(GPU_SM_BF), H(GPU_SM_BF));
}

static void test_export_cpu_proxy(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;

	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, H(CPU_PROXY), M(VALID_DBR));
	check_common(&p, &gq->qp_cpu, OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC);
	check_handler(gq, H(CPU_PROXY), false);
	assert_null(gq->qp_cpu.sq_dbrec);
	assert_non_null(gq->qp_cpu.ogda_pi_mailbox);
	assert_ptr_equal(gq->qp_cpu.sq_db, gq->qp_cpu.ogda_pi_mailbox);
	assert_int_equal(*gq->qp_cpu.ogda_pi_mailbox, 0);
	assert_int_equal((uintptr_t)gq->qp_cpu.ogda_pi_mailbox % 8, 0);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	assert_all_released(f);
	gfx_pair_destroy(&p);
}

/* A DBR-less QP: any GPU handler becomes GPU_SM_NO_DBR and rings base + 0x600. */
static void export_no_dbr_hw(struct gfx *f, enum doca_gpu_dev_verbs_nic_handler req)
{
	const struct gfx_qp_opts o = {.no_dbr = true};
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;

	gfx_pair_create(f, &o, &p);
	gq = gfx_export(f, &p, req, M(NO_DBR_HW));
	check_common(&p, &gq->qp_cpu, OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC);
	check_handler(gq, H(GPU_SM_NO_DBR), false);
	assert_int_equal(gq->qp_cpu.send_dbr_mode_ext, M(NO_DBR_HW));
	assert_null(gq->qp_cpu.sq_dbrec);
	assert_ptr_equal(gq->qp_cpu.sq_db, gfx_uar_base(p.qp[0]) + 0x600);
	assert_null(gq->qp_cpu.ogda_pi_mailbox);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	assert_all_released(f);
	gfx_pair_destroy(&p);
}

static void test_export_no_dbr_hw(void **state)
{
	export_no_dbr_hw(*state, H(GPU_SM_NO_DBR));
	export_no_dbr_hw(*state, H(GPU_SM_DB));
	export_no_dbr_hw(*state, H(GPU_SM_BF));
	export_no_dbr_hw(*state, H(AUTO));
}

static void test_export_no_dbr_hw_cpu_proxy(void **state)
{
	struct gfx *f = *state;
	const struct gfx_qp_opts o = {.no_dbr = true};
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;

	gfx_pair_create(f, &o, &p);
	gq = gfx_export(f, &p, H(CPU_PROXY), M(NO_DBR_HW));
	check_handler(gq, H(CPU_PROXY), false);
	assert_null(gq->qp_cpu.sq_dbrec);
	assert_ptr_equal(gq->qp_cpu.sq_db, gq->qp_cpu.ogda_pi_mailbox);
	assert_null(gq->dbr_send_cpu);
	assert_ptr_equal(gq->db_reg_cpu, gfx_uar_base(p.qp[0]) + 0x600);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	gfx_pair_destroy(&p);
}

/* Emulated DBR-less mode: the device rings the ordinary register, a library service keeps the record. */
static void export_sw_emulated(struct gfx *f, const struct gfx_qp_opts *o, enum doca_gpu_dev_verbs_nic_handler req)
{
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;

	gfx_pair_create(f, o, &p);
	gq = gfx_export(f, &p, req, M(NO_DBR_SW_EMULATED));
	check_common(&p, &gq->qp_cpu, OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC);
	check_handler(gq, H(GPU_SM_NO_DBR), true);
	assert_int_equal(gq->qp_cpu.send_dbr_mode_ext, M(NO_DBR_SW_EMULATED));
	assert_null(gq->qp_cpu.sq_dbrec);
	assert_ptr_equal(gq->qp_cpu.sq_db, gfx_uar_base(p.qp[0]) + 0x800);
	assert_non_null(gq->qp_cpu.ogda_pi_mailbox);
	assert_int_equal(*gq->qp_cpu.ogda_pi_mailbox, 0);
	assert_ptr_equal(gq->dbr_send_cpu, (uint32_t *)qp_dbr(p.qp[0]) + 1);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	assert_all_released(f);
	gfx_pair_destroy(&p);
}

static void test_export_sw_emulated(void **state)
{
	const struct gfx_qp_opts emulated = {.no_dbr = true, .emulate_no_dbr = true};
	const struct gfx_qp_opts plain = {0};

	export_sw_emulated(*state, &emulated, H(GPU_SM_NO_DBR));
	export_sw_emulated(*state, &emulated, H(GPU_SM_DB));
	export_sw_emulated(*state, &emulated, H(AUTO));
	export_sw_emulated(*state, &plain, H(GPU_SM_NO_DBR));
}

static void expect_export_err(struct gfx *f, struct gfx_pair *p, enum doca_gpu_dev_verbs_nic_handler h,
			      enum doca_gpu_verbs_send_dbr_mode_ext mode, doca_error_t want, const char *needle)
{
	struct doca_gpu_verbs_qp *gq = NULL;

	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(f->gpu, p->qp[0], h, NULL, p->cq[0], mode, &gq), want, needle);
	assert_null(gq);
	assert_all_released(f);
}

static void test_export_mode_mismatch(void **state)
{
	struct gfx *f = *state;
	const struct gfx_qp_opts dbr_less = {.no_dbr = true};
	struct gfx_pair plain, nodbr;

	gfx_pair_create(f, NULL, &plain);
	gfx_pair_create(f, &dbr_less, &nodbr);
	expect_export_err(f, &plain, H(GPU_SM_DB), M(NO_DBR_HW), DOCA_ERROR_INVALID_VALUE, "NO_DBR_HW needs a QP");
	expect_export_err(f, &plain, H(GPU_SM_NO_DBR), M(VALID_DBR), DOCA_ERROR_INVALID_VALUE,
			  "GPU_SM_NO_DBR never writes the doorbell record");
	expect_export_err(f, &nodbr, H(GPU_SM_DB), M(VALID_DBR), DOCA_ERROR_INVALID_VALUE, "only NO_DBR_HW fits it");
	expect_export_err(f, &nodbr, H(GPU_SM_NO_DBR), M(NO_DBR_SW_EMULATED), DOCA_ERROR_INVALID_VALUE,
			  "only NO_DBR_HW fits it");
	gfx_pair_destroy(&nodbr);
	gfx_pair_destroy(&plain);
}

static void test_export_cq_rules(void **state)
{
	struct gfx *f = *state;
	const struct gfx_qp_opts small = {.cq_size = 8, .sq_wr = 16};
	const struct gfx_qp_opts collapsed = {.cq_size = 1, .collapsed = true};
	const struct gfx_qp_opts ignore = {.overrun_ignored = true};
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq = NULL;

	gfx_pair_create(f, &small, &p);
	assert_int_equal(p.qp[0]->sq_wqebbs, 16);
	expect_export_err(f, &p, H(GPU_SM_DB), M(VALID_DBR), DOCA_ERROR_INVALID_VALUE,
			  "has 8 entries, fewer than the 16 WQEs");
	/* The CQ must be the QP's send CQ. */
	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(f->gpu, p.qp[0], H(GPU_SM_DB), NULL, p.cq[1], M(VALID_DBR), &gq),
		       DOCA_ERROR_INVALID_VALUE, "is not the send CQ of QP");
	gfx_pair_destroy(&p);

	gfx_pair_create(f, &collapsed, &p);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	check_common(&p, &gq->qp_cpu, OPENGDA_DEV_CQ_FLAG_COLLAPSED | OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC);
	assert_int_equal(gq->qp_cpu.cq_sq.cqe_num, 1);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	gfx_pair_destroy(&p);

	gfx_pair_create(f, &ignore, &p);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	check_common(&p, &gq->qp_cpu, 0);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	gfx_pair_destroy(&p);
	assert_all_released(f);
}

static void test_export_bad_args(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq = NULL;

	gfx_pair_create(f, NULL, &p);
	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(NULL, p.qp[0], H(AUTO), NULL, p.cq[0], M(VALID_DBR), &gq),
		       DOCA_ERROR_INVALID_VALUE, "NULL GPU handle");
	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(f->gpu, NULL, H(AUTO), NULL, p.cq[0], M(VALID_DBR), &gq),
		       DOCA_ERROR_INVALID_VALUE, "NULL QP");
	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(f->gpu, p.qp[0], H(AUTO), NULL, NULL, M(VALID_DBR), &gq),
		       DOCA_ERROR_INVALID_VALUE, "NULL send CQ");
	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(f->gpu, p.qp[0], H(AUTO), NULL, p.cq[0], M(VALID_DBR), NULL),
		       DOCA_ERROR_INVALID_VALUE, "NULL output");
	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(f->gpu, p.qp[0], (enum doca_gpu_dev_verbs_nic_handler)3, NULL, p.cq[0],
						M(VALID_DBR), &gq),
		       DOCA_ERROR_INVALID_VALUE, "3 is not a doca_gpu_dev_verbs_nic_handler value");
	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(f->gpu, p.qp[0], H(AUTO), NULL, p.cq[0],
						(enum doca_gpu_verbs_send_dbr_mode_ext)3, &gq),
		       DOCA_ERROR_INVALID_VALUE, "3 is not a doca_gpu_verbs_send_dbr_mode_ext value");
	assert_null(gq);
	assert_all_released(f);
	gfx_pair_destroy(&p);
}

static void test_export_refuses_used_or_exported_qp(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct vfx_buf src, dst;
	struct ibv_sge sge;
	struct ibv_send_wr wr, *bad = NULL;
	struct ibv_wc wc;
	struct doca_gpu_verbs_qp *gq, *gq2 = NULL;

	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(f->gpu, p.qp[0], H(GPU_SM_DB), NULL, p.cq[0], M(VALID_DBR), &gq2),
		       DOCA_ERROR_INVALID_VALUE, "is exported already");
	assert_null(gq2);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);

	/* One WQE through the CPU data path: the SQ producer is no longer 0. */
	vfx_buf_create(&f->v, 64, 0x11, &src);
	vfx_buf_create(&f->v, 64, 0, &dst);
	memset(&wr, 0, sizeof(wr));
	sge = (struct ibv_sge){.addr = (uintptr_t)src.addr, .length = 64, .lkey = src.lkey};
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)dst.addr;
	wr.wr.rdma.rkey = dst.rkey;
	assert_int_equal(doca_verbs_bridge_post_send(p.qp[0], &wr, &bad), 0);
	assert_int_equal(vfx_poll(p.cq[0], &wc, 1, GFX_TIMEOUT_MS), 1);
	GFX_EXPECT_ERR(doca_gpu_verbs_export_qp(f->gpu, p.qp[0], H(GPU_SM_DB), NULL, p.cq[0], M(VALID_DBR), &gq2),
		       DOCA_ERROR_INVALID_VALUE, "has posted work already (producer 0x1)");
	assert_null(gq2);
	assert_all_released(f);
	vfx_buf_destroy(&dst);
	vfx_buf_destroy(&src);
	gfx_pair_destroy(&p);
}

static void test_export_uar_unmappable(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq = NULL;

	gfx_pair_create(f, NULL, &p);
	ogda_gpu_export_force_uar_unmappable(true);
	expect_export_err(f, &p, H(GPU_SM_DB), M(VALID_DBR), DOCA_ERROR_NOT_SUPPORTED,
			  "the GPU cannot map the doorbell register");
	gq = gfx_export(f, &p, H(AUTO), M(VALID_DBR));
	check_common(&p, &gq->qp_cpu, OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC);
	check_handler(gq, H(CPU_PROXY), true);
	assert_ptr_equal(gq->qp_cpu.sq_db, gq->qp_cpu.ogda_pi_mailbox);
	assert_null(gq->qp_cpu.sq_dbrec);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	ogda_gpu_export_force_uar_unmappable(false);
	assert_all_released(f);
	gfx_pair_destroy(&p);
}

static void test_get_qp_dev(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;
	struct doca_gpu_dev_verbs_qp *dev = NULL, *again = NULL;

	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	GFX_EXPECT_ERR(doca_gpu_verbs_get_qp_dev(NULL, &dev), DOCA_ERROR_INVALID_VALUE, "get_qp_dev: NULL QP");
	GFX_EXPECT_ERR(doca_gpu_verbs_get_qp_dev(gq, NULL), DOCA_ERROR_INVALID_VALUE, "get_qp_dev: NULL output");
	GFX_EXPECT_ERR(opengda_gpu_verbs_qp_set_wait_timeout(NULL, 5), DOCA_ERROR_INVALID_VALUE, "NULL QP");
	assert_null(gq->qp_gpu);
	assert_int_equal(doca_gpu_verbs_get_qp_dev(gq, &dev), DOCA_SUCCESS);
	assert_non_null(dev);
	assert_ptr_not_equal(dev, &gq->qp_cpu);
	assert_memory_equal(dev, &gq->qp_cpu, sizeof(*dev));
	assert_int_equal(doca_gpu_verbs_get_qp_dev(gq, &again), DOCA_SUCCESS);
	assert_ptr_equal(again, dev);

	/* Device code moved its indices; a new timeout reaches the copy without undoing them. */
	dev->sq_wqe_pi = 7;
	dev->cq_sq.cqe_ci = 5;
	assert_int_equal(opengda_gpu_verbs_qp_set_wait_timeout(gq, 123456789ull), DOCA_SUCCESS);
	assert_int_equal(gq->qp_cpu.ogda_wait_timeout_ns, 123456789ull);
	assert_int_equal(gq->qp_cpu.cq_sq.ogda_wait_timeout_ns, 123456789ull);
	assert_int_equal(dev->ogda_wait_timeout_ns, 0);
	assert_int_equal(doca_gpu_verbs_get_qp_dev(gq, &again), DOCA_SUCCESS);
	assert_ptr_equal(again, dev);
	assert_int_equal(dev->ogda_wait_timeout_ns, 123456789ull);
	assert_int_equal(dev->cq_sq.ogda_wait_timeout_ns, 123456789ull);
	assert_int_equal(dev->sq_wqe_pi, 7);
	assert_int_equal(dev->cq_sq.cqe_ci, 5);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	assert_all_released(f);
	gfx_pair_destroy(&p);
}

static void test_export_multi(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq[2] = {NULL, NULL}, *with_null[2];
	struct doca_gpu_dev_verbs_qp *arr = NULL, *dev = NULL, *none = NULL;
	struct doca_gpu *other = NULL;

	gfx_pair_create(f, NULL, &p);
	for (int i = 0; i < 2; i++)
		assert_int_equal(doca_gpu_verbs_export_qp(f->gpu, p.qp[i], H(GPU_SM_DB), NULL, p.cq[i], M(VALID_DBR),
							  &gq[i]),
				 DOCA_SUCCESS);
	assert_int_equal(opengda_gpu_verbs_qp_set_wait_timeout(gq[1], 1000), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_export_multi_qps_dev(f->gpu, gq, 2, &arr), DOCA_SUCCESS);
	assert_non_null(arr);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(doca_gpu_verbs_get_qp_dev(gq[i], &dev), DOCA_SUCCESS);
		assert_ptr_not_equal(&arr[i], dev);
		assert_memory_equal(&arr[i], dev, sizeof(*dev));
		assert_int_equal(arr[i].sq_num, p.qpn[i]);
	}
	assert_int_equal(arr[1].ogda_wait_timeout_ns, 1000);
	assert_int_equal(arr[1].cq_sq.ogda_wait_timeout_ns, 1000);
	assert_int_equal(f->gpu->nexports, 3);

	GFX_EXPECT_ERR(doca_gpu_verbs_export_multi_qps_dev(NULL, gq, 2, &none), DOCA_ERROR_INVALID_VALUE,
		       "NULL GPU handle");
	GFX_EXPECT_ERR(doca_gpu_verbs_export_multi_qps_dev(f->gpu, NULL, 2, &none), DOCA_ERROR_INVALID_VALUE,
		       "NULL QP list");
	GFX_EXPECT_ERR(doca_gpu_verbs_export_multi_qps_dev(f->gpu, gq, 0, &none), DOCA_ERROR_INVALID_VALUE,
		       "no QPs (n is 0)");
	GFX_EXPECT_ERR(doca_gpu_verbs_export_multi_qps_dev(f->gpu, gq, 2, NULL), DOCA_ERROR_INVALID_VALUE,
		       "NULL output");
	with_null[0] = gq[0];
	with_null[1] = NULL;
	GFX_EXPECT_ERR(doca_gpu_verbs_export_multi_qps_dev(f->gpu, with_null, 2, &none), DOCA_ERROR_INVALID_VALUE,
		       "QP 1 is NULL");
	assert_int_equal(opengda_gpu_create_host(&other), DOCA_SUCCESS);
	GFX_EXPECT_ERR(doca_gpu_verbs_export_multi_qps_dev(other, gq, 2, &none), DOCA_ERROR_INVALID_VALUE,
		       "QP 0 (0x");
	GFX_EXPECT_ERR(doca_gpu_verbs_unexport_multi_qps_dev(other, gq, 2, arr), DOCA_ERROR_INVALID_VALUE,
		       "was exported with another GPU handle");
	assert_null(none);

	GFX_EXPECT_ERR(doca_gpu_verbs_unexport_multi_qps_dev(NULL, gq, 2, arr), DOCA_ERROR_INVALID_VALUE,
		       "NULL GPU handle");
	GFX_EXPECT_ERR(doca_gpu_verbs_unexport_multi_qps_dev(f->gpu, NULL, 2, arr), DOCA_ERROR_INVALID_VALUE,
		       "NULL QP list");
	GFX_EXPECT_ERR(doca_gpu_verbs_unexport_multi_qps_dev(f->gpu, gq, 2, NULL), DOCA_ERROR_INVALID_VALUE,
		       "NULL array");
	GFX_EXPECT_ERR(doca_gpu_verbs_unexport_multi_qps_dev(f->gpu, gq, 0, arr), DOCA_ERROR_INVALID_VALUE,
		       "no QPs (n is 0)");
	assert_int_equal(doca_gpu_verbs_unexport_multi_qps_dev(f->gpu, gq, 2, arr), DOCA_SUCCESS);
	assert_int_equal(f->gpu->nexports, 2);
	/* Twice: the array is gone (gpu_mem logs the unknown pointer, then this layer says why). */
	stderr_capture_begin();
	assert_int_equal(doca_gpu_verbs_unexport_multi_qps_dev(f->gpu, gq, 2, arr), DOCA_ERROR_INVALID_VALUE);
	{
		char log[4096];

		assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "is not an array from export_multi_qps_dev"));
	}
	for (int i = 0; i < 2; i++)
		assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq[i]), DOCA_SUCCESS);
	assert_all_released(f);
	assert_int_equal(doca_gpu_destroy(other), DOCA_SUCCESS);
	gfx_pair_destroy(&p);
}

static void test_unexport(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;
	struct doca_gpu *other = NULL;
	struct doca_gpu_dev_verbs_qp *dev = NULL;

	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	assert_int_equal(doca_gpu_verbs_get_qp_dev(gq, &dev), DOCA_SUCCESS);
	assert_int_equal(opengda_gpu_create_host(&other), DOCA_SUCCESS);
	GFX_EXPECT_ERR(doca_gpu_verbs_unexport_qp(NULL, gq), DOCA_ERROR_INVALID_VALUE, "NULL GPU handle");
	GFX_EXPECT_ERR(doca_gpu_verbs_unexport_qp(f->gpu, NULL), DOCA_ERROR_INVALID_VALUE, "NULL QP");
	GFX_EXPECT_ERR(doca_gpu_verbs_unexport_qp(other, gq), DOCA_ERROR_INVALID_VALUE,
		       "was exported with another GPU handle");
	/* The handle stays in use while the export lives. */
	stderr_capture_begin();
	assert_int_equal(doca_gpu_destroy(f->gpu), DOCA_ERROR_IN_USE);
	{
		char log[4096];

		(void)stderr_capture_end(log, sizeof(log));
	}
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	assert_all_released(f);
	/* A handle that is no longer exported (compared, never dereferenced). */
	GFX_EXPECT_ERR(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_ERROR_INVALID_VALUE, "is not an exported QP");
	assert_int_equal(doca_gpu_destroy(other), DOCA_SUCCESS);
	gfx_pair_destroy(&p);
}

/*
 * An exported QP and its send CQ refuse to be destroyed (IN_USE, one log line) until the QP is
 * unexported: the export and doca_gpu_verbs_query_last_error() read both.
 */
static void test_destroy_while_exported(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;
	struct doca_gpu_verbs_qp_error_info info;

	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	GFX_EXPECT_ERR(doca_verbs_qp_destroy(p.qp[0]), DOCA_ERROR_IN_USE, "is exported to the GPU");
	GFX_EXPECT_ERR(doca_verbs_cq_destroy(p.cq[0]), DOCA_ERROR_IN_USE, "is exported to the GPU");
	/* Both are whole: the error query still reads the QP and its CQ. */
	memset(&info, 0xff, sizeof(info));
	assert_int_equal(doca_gpu_verbs_query_last_error(gq, &info), DOCA_SUCCESS);
	assert_false(info.has_error);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	/* A second export and unexport leave the count where it was. */
	gq = gfx_export(f, &p, H(CPU_PROXY), M(VALID_DBR));
	GFX_EXPECT_ERR(doca_verbs_qp_destroy(p.qp[0]), DOCA_ERROR_IN_USE, "is exported to the GPU");
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	assert_all_released(f);
	gfx_pair_destroy(&p);
}

/* A failed export takes no reference: the QP and CQ can be destroyed right after it. */
static void test_failed_export_keeps_no_reference(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;

	gfx_pair_create(f, NULL, &p);
	expect_export_err(f, &p, H(GPU_SM_NO_DBR), M(VALID_DBR), DOCA_ERROR_INVALID_VALUE,
			  "GPU_SM_NO_DBR never writes the doorbell record");
	gfx_pair_destroy(&p);
}

static void test_getters_bad_args(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;
	enum doca_gpu_dev_verbs_nic_handler h;
	struct doca_verbs_qp *vqp;
	bool has;

	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	GFX_EXPECT_ERR(opengda_gpu_verbs_qp_get_nic_handler(NULL, &h), DOCA_ERROR_INVALID_VALUE, "NULL QP");
	GFX_EXPECT_ERR(opengda_gpu_verbs_qp_get_nic_handler(gq, NULL), DOCA_ERROR_INVALID_VALUE, "NULL output");
	GFX_EXPECT_ERR(opengda_gpu_verbs_qp_get_verbs_qp(NULL, &vqp), DOCA_ERROR_INVALID_VALUE, "NULL QP");
	GFX_EXPECT_ERR(opengda_gpu_verbs_qp_get_verbs_qp(gq, NULL), DOCA_ERROR_INVALID_VALUE, "NULL output");
	GFX_EXPECT_ERR(opengda_gpu_verbs_qp_has_own_service(NULL, &has), DOCA_ERROR_INVALID_VALUE, "NULL QP");
	GFX_EXPECT_ERR(opengda_gpu_verbs_qp_has_own_service(gq, NULL), DOCA_ERROR_INVALID_VALUE, "NULL output");
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	gfx_pair_destroy(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_export_gpu_sm_db, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_auto_is_gpu_sm_db_on_host, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_gpu_sm_bf, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_cpu_proxy, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_no_dbr_hw, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_no_dbr_hw_cpu_proxy, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_sw_emulated, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_mode_mismatch, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_cq_rules, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_bad_args, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_refuses_used_or_exported_qp, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_uar_unmappable, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_get_qp_dev, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_export_multi, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_unexport, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_destroy_while_exported, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_failed_export_keeps_no_reference, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_getters_bad_args, gfx_setup, gfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
