/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU proxy and proxy services on a host handle: host threads act as device code (write
 * WQEs into the exported ring, publish the producer index) and the proxy rings the software
 * NIC, whose completions and written bytes are checked exactly.
 */
#include "gpu_fixture.h"

#include "gpunetio/gverbs_qp.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#define H(x) DOCA_GPUNETIO_VERBS_NIC_HANDLER_##x
#define M(x) DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_##x
#define LEN 256u
#define NWQE 40u /* more than the 16-WQEBB SQ: the ring wraps */

/* Source filled with 0x5a, destination (NWQE slots of LEN bytes) zeroed. */
struct bufs {
	struct vfx_buf src, dst;
};

static void bufs_create(struct gfx *f, struct bufs *b)
{
	vfx_buf_create(&f->v, LEN, 0x5a, &b->src);
	vfx_buf_create(&f->v, (size_t)LEN * NWQE, 0, &b->dst);
}

static void bufs_destroy(struct bufs *b)
{
	vfx_buf_destroy(&b->dst);
	vfx_buf_destroy(&b->src);
}

/* WQE idx writes the source to destination slot idx. */
static void write_slot(const struct doca_gpu_dev_verbs_qp *d, struct bufs *b, uint16_t idx)
{
	struct vfx_buf slot = b->dst;

	slot.addr += (size_t)idx * LEN;
	gfx_write_wqe(d, idx, &b->src, &slot, b->dst.rkey, LEN);
}

static void assert_slot_written(struct bufs *b, uint16_t idx)
{
	uint8_t want[LEN];

	memset(want, 0x5a, sizeof(want));
	assert_memory_equal(b->dst.addr + (size_t)idx * LEN, want, LEN);
}

static uint32_t dbr_send(struct doca_verbs_qp *qp)
{
	void *dbr = NULL;

	assert_int_equal(doca_verbs_qp_get_dbr_addr(qp, &dbr), DOCA_SUCCESS);
	return __atomic_load_n((uint32_t *)dbr + 1, __ATOMIC_ACQUIRE);
}

static uint32_t *dbr_send_word(struct doca_verbs_qp *qp)
{
	void *dbr = NULL;

	assert_int_equal(doca_verbs_qp_get_dbr_addr(qp, &dbr), DOCA_SUCCESS);
	return (uint32_t *)dbr + 1;
}

static uint64_t reg_value(const uint8_t *reg)
{
	return __atomic_load_n((const uint64_t *)(const void *)reg, __ATOMIC_ACQUIRE);
}

static void test_progress_bad_args(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;
	bool progressed = true;

	GFX_EXPECT_ERR(doca_gpu_verbs_cpu_proxy_progress(NULL, &progressed), DOCA_ERROR_INVALID_VALUE,
		       "cpu_proxy_progress: NULL QP");
	assert_false(progressed);
	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, H(GPU_SM_DB), M(VALID_DBR));
	progressed = true;
	GFX_EXPECT_ERR(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_ERROR_NOT_SUPPORTED,
		       "rings its own doorbells: no proxy needed");
	assert_false(progressed);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	gfx_pair_destroy(&p);
}

/* CPU_PROXY: one record update and one ring per new producer index, none otherwise. */
static void test_cpu_proxy_rings_once_per_pi(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	const struct doca_gpu_dev_verbs_qp *d;
	uint8_t *reg;
	uint64_t before;
	bool progressed = true;

	gfx_pair_create(f, NULL, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(CPU_PROXY), M(VALID_DBR));
	d = &gq->qp_cpu;
	reg = gfx_uar_base(p.qp[0]) + 0x800;
	before = reg_value(reg);

	/* Nothing published: nothing rung. */
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_false(progressed);
	assert_int_equal(gverbs_proxy_rings(gq), 0);
	assert_int_equal(dbr_send(p.qp[0]), 0);
	assert_int_equal(reg_value(reg), before);

	write_slot(d, &b, 0);
	gfx_publish(d, 1);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_true(progressed);
	assert_int_equal(gverbs_proxy_rings(gq), 1);
	assert_int_equal(dbr_send(p.qp[0]), opengda_mlx5_htobe32(1));
	assert_int_equal(reg_value(reg), opengda_mlx5_qp_uar_db_value(1, p.qpn[0]));
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_false(progressed);
	assert_int_equal(gverbs_proxy_rings(gq), 1);
	gfx_expect_cqe_ok(&d->cq_sq, 0, 0, p.qpn[0]);
	assert_slot_written(&b, 0);

	/* Two more WQEs under one producer index: one ring. */
	write_slot(d, &b, 1);
	write_slot(d, &b, 2);
	gfx_publish(d, 3);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_true(progressed);
	assert_int_equal(gverbs_proxy_rings(gq), 2);
	assert_int_equal(dbr_send(p.qp[0]), opengda_mlx5_htobe32(3));
	assert_int_equal(reg_value(reg), opengda_mlx5_qp_uar_db_value(3, p.qpn[0]));
	gfx_expect_cqe_ok(&d->cq_sq, 1, 1, p.qpn[0]);
	gfx_expect_cqe_ok(&d->cq_sq, 2, 2, p.qpn[0]);
	assert_slot_written(&b, 1);
	assert_slot_written(&b, 2);

	/* An older index is not rung again; out_progressed may be NULL. */
	gfx_publish(d, 2);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, NULL), DOCA_SUCCESS);
	assert_int_equal(gverbs_proxy_rings(gq), 2);
	assert_int_equal(dbr_send(p.qp[0]), opengda_mlx5_htobe32(3));
	write_slot(d, &b, 3);
	gfx_publish(d, 4);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, NULL), DOCA_SUCCESS);
	assert_int_equal(gverbs_proxy_rings(gq), 3);
	gfx_expect_cqe_ok(&d->cq_sq, 3, 3, p.qpn[0]);
	assert_slot_written(&b, 3);

	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

/* CPU_PROXY on a DBR-less QP: no record, the ring goes to base + 0x600. */
static void test_cpu_proxy_dbr_less(void **state)
{
	struct gfx *f = *state;
	const struct gfx_qp_opts o = {.no_dbr = true};
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	bool progressed = false;

	gfx_pair_create(f, &o, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(CPU_PROXY), M(NO_DBR_HW));
	write_slot(&gq->qp_cpu, &b, 0);
	gfx_publish(&gq->qp_cpu, 1);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_true(progressed);
	assert_int_equal(reg_value(gfx_uar_base(p.qp[0]) + 0x600), opengda_mlx5_qp_uar_db_value(1, p.qpn[0]));
	assert_int_equal(dbr_send(p.qp[0]), 0);
	gfx_expect_cqe_ok(&gq->qp_cpu.cq_sq, 0, 0, p.qpn[0]);
	assert_slot_written(&b, 0);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

/* Emulated DBR-less mode, proxy driven by hand: the device rang; the CPU writes the record and re-rings. */
static void test_sw_emulated_record_update(void **state)
{
	struct gfx *f = *state;
	const struct gfx_qp_opts o = {.no_dbr = true, .emulate_no_dbr = true};
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	const struct doca_gpu_dev_verbs_qp *d;
	bool progressed = false, own = false;

	gfx_pair_create(f, &o, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(GPU_SM_NO_DBR), M(NO_DBR_SW_EMULATED));
	d = &gq->qp_cpu;
	/* Take the library's service away so that every step below is this thread's. */
	gverbs_service_detach(gq);
	assert_int_equal(opengda_gpu_verbs_qp_has_own_service(gq, &own), DOCA_SUCCESS);
	assert_false(own);

	write_slot(d, &b, 0);
	gfx_ring(d, 1);
	gfx_publish(d, 1);
	gfx_expect_cqe_ok(&d->cq_sq, 0, 0, p.qpn[0]);
	assert_slot_written(&b, 0);
	assert_int_equal(dbr_send(p.qp[0]), 0);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_true(progressed);
	assert_int_equal(dbr_send(p.qp[0]), opengda_mlx5_htobe32(1));
	assert_int_equal(reg_value((const uint8_t *)d->sq_db), opengda_mlx5_qp_uar_db_value(1, p.qpn[0]));
	assert_int_equal(gverbs_proxy_rings(gq), 1);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_false(progressed);
	assert_int_equal(gverbs_proxy_rings(gq), 1);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

/* Emulated DBR-less mode with the library's own service: the record follows the device. */
static void test_sw_emulated_own_service(void **state)
{
	struct gfx *f = *state;
	const struct gfx_qp_opts o = {.no_dbr = true, .emulate_no_dbr = true};
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	const struct doca_gpu_dev_verbs_qp *d;
	bool progressed = true;

	gfx_pair_create(f, &o, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(AUTO), M(NO_DBR_SW_EMULATED));
	d = &gq->qp_cpu;
	for (uint16_t i = 0; i < 3; i++) {
		write_slot(d, &b, i);
		gfx_ring(d, i + 1u);
		gfx_publish(d, i + 1u);
		assert_true(gfx_wait_u32(dbr_send_word(p.qp[0]), opengda_mlx5_htobe32(i + 1u)));
		gfx_expect_cqe_ok(&d->cq_sq, i, i, p.qpn[0]);
		assert_slot_written(&b, i);
	}
	assert_int_equal(gverbs_proxy_rings(gq), 3);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_false(progressed);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

/* AUTO without a mappable UAR: CPU_PROXY driven by the library's own service, across ring wraps. */
static void test_auto_fallback_service_rings(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq;
	const struct doca_gpu_dev_verbs_qp *d;
	enum doca_gpu_dev_verbs_nic_handler h = H(AUTO);
	bool own = false;

	gfx_pair_create(f, NULL, &p);
	bufs_create(f, &b);
	ogda_gpu_export_force_uar_unmappable(true);
	gq = gfx_export(f, &p, H(AUTO), M(VALID_DBR));
	ogda_gpu_export_force_uar_unmappable(false);
	d = &gq->qp_cpu;
	assert_int_equal(opengda_gpu_verbs_qp_get_nic_handler(gq, &h), DOCA_SUCCESS);
	assert_int_equal(h, H(CPU_PROXY));
	assert_int_equal(opengda_gpu_verbs_qp_has_own_service(gq, &own), DOCA_SUCCESS);
	assert_true(own);
	assert_int_equal(d->sq_wqe_num, 16);
	for (uint16_t i = 0; i < NWQE; i++) {
		if (i >= d->sq_wqe_num) /* the slot is free once the WQE that used it completed */
			gfx_expect_cqe_ok(&d->cq_sq, i - d->sq_wqe_num, (uint16_t)(i - d->sq_wqe_num), p.qpn[0]);
		write_slot(d, &b, i);
		gfx_publish(d, i + 1u);
	}
	for (uint16_t i = 0; i < NWQE; i++) {
		gfx_expect_cqe_ok(&d->cq_sq, i, i, p.qpn[0]);
		assert_slot_written(&b, i);
	}
	assert_true(gfx_wait_u32(dbr_send_word(p.qp[0]), opengda_mlx5_htobe32(NWQE)));
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

static void test_service_api(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *proxy, *db;
	doca_gpu_verbs_service_t s = NULL, s2 = NULL;

	gfx_pair_create(f, NULL, &p);
	bufs_create(f, &b);
	proxy = gfx_export(f, &p, H(CPU_PROXY), M(VALID_DBR));
	assert_int_equal(doca_gpu_verbs_export_qp(f->gpu, p.qp[1], H(GPU_SM_DB), NULL, p.cq[1], M(VALID_DBR), &db),
			 DOCA_SUCCESS);

	GFX_EXPECT_ERR(doca_gpu_verbs_create_service(NULL), DOCA_ERROR_INVALID_VALUE, "create_service: NULL output");
	assert_int_equal(doca_gpu_verbs_create_service(&s), DOCA_SUCCESS);
	assert_non_null(s);
	assert_int_equal(doca_gpu_verbs_create_service(&s2), DOCA_SUCCESS);
	GFX_EXPECT_ERR(doca_gpu_verbs_service_monitor_qp(NULL, proxy), DOCA_ERROR_INVALID_VALUE, "NULL service");
	GFX_EXPECT_ERR(doca_gpu_verbs_service_monitor_qp(s, NULL), DOCA_ERROR_INVALID_VALUE, "NULL QP");
	GFX_EXPECT_ERR(doca_gpu_verbs_service_monitor_qp(s, db), DOCA_ERROR_NOT_SUPPORTED, "nothing to drive");
	assert_int_equal(doca_gpu_verbs_service_monitor_qp(s, proxy), DOCA_SUCCESS);
	GFX_EXPECT_ERR(doca_gpu_verbs_service_monitor_qp(s, proxy), DOCA_ERROR_ALREADY_EXIST, "by this service already");
	GFX_EXPECT_ERR(doca_gpu_verbs_service_monitor_qp(s2, proxy), DOCA_ERROR_ALREADY_EXIST,
		       "by another service already");

	write_slot(&proxy->qp_cpu, &b, 0);
	gfx_publish(&proxy->qp_cpu, 1);
	gfx_expect_cqe_ok(&proxy->qp_cpu.cq_sq, 0, 0, p.qpn[0]);
	assert_slot_written(&b, 0);
	assert_int_equal(gverbs_proxy_rings(proxy), 1);

	/* Unexport takes the QP out of the running service first. */
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, proxy), DOCA_SUCCESS);
	GFX_EXPECT_ERR(doca_gpu_verbs_destroy_service(NULL), DOCA_ERROR_INVALID_VALUE, "destroy_service: NULL service");
	assert_int_equal(doca_gpu_verbs_destroy_service(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_destroy_service(s2), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, db), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

/* A QP whose service was destroyed is driven by hand, then by a new service. */
static void test_service_destroyed_before_qp(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct bufs b;
	struct doca_gpu_verbs_qp *gq, *own;
	doca_gpu_verbs_service_t s = NULL;
	bool progressed = false;

	gfx_pair_create(f, NULL, &p);
	bufs_create(f, &b);
	gq = gfx_export(f, &p, H(CPU_PROXY), M(VALID_DBR));
	assert_int_equal(doca_gpu_verbs_create_service(&s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_service_monitor_qp(s, gq), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_destroy_service(s), DOCA_SUCCESS);
	assert_null(gq->service);

	write_slot(&gq->qp_cpu, &b, 0);
	gfx_publish(&gq->qp_cpu, 1);
	assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(gq, &progressed), DOCA_SUCCESS);
	assert_true(progressed);
	gfx_expect_cqe_ok(&gq->qp_cpu.cq_sq, 0, 0, p.qpn[0]);

	assert_int_equal(doca_gpu_verbs_create_service(&s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_service_monitor_qp(s, gq), DOCA_SUCCESS);
	write_slot(&gq->qp_cpu, &b, 1);
	gfx_publish(&gq->qp_cpu, 2);
	gfx_expect_cqe_ok(&gq->qp_cpu.cq_sq, 1, 1, p.qpn[0]);
	assert_slot_written(&b, 1);
	assert_int_equal(doca_gpu_verbs_destroy_service(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);

	/* A QP with the library's own service cannot join another one. */
	ogda_gpu_export_force_uar_unmappable(true);
	assert_int_equal(doca_gpu_verbs_export_qp(f->gpu, p.qp[1], H(AUTO), NULL, p.cq[1], M(VALID_DBR), &own),
			 DOCA_SUCCESS);
	ogda_gpu_export_force_uar_unmappable(false);
	assert_int_equal(doca_gpu_verbs_create_service(&s), DOCA_SUCCESS);
	GFX_EXPECT_ERR(doca_gpu_verbs_service_monitor_qp(s, own), DOCA_ERROR_ALREADY_EXIST,
		       "by another service already");
	assert_int_equal(doca_gpu_verbs_destroy_service(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, own), DOCA_SUCCESS);
	bufs_destroy(&b);
	gfx_pair_destroy(&p);
}

/* One service drives both QPs of a pair, each writing to the other. */
static void test_service_two_qps(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct bufs b[2];
	struct doca_gpu_verbs_qp *gq[2];
	doca_gpu_verbs_service_t s = NULL;

	gfx_pair_create(f, NULL, &p);
	assert_int_equal(doca_gpu_verbs_create_service(&s), DOCA_SUCCESS);
	for (int i = 0; i < 2; i++) {
		bufs_create(f, &b[i]);
		assert_int_equal(doca_gpu_verbs_export_qp(f->gpu, p.qp[i], H(CPU_PROXY), NULL, p.cq[i], M(VALID_DBR),
							  &gq[i]),
				 DOCA_SUCCESS);
		assert_int_equal(doca_gpu_verbs_service_monitor_qp(s, gq[i]), DOCA_SUCCESS);
	}
	for (uint16_t n = 0; n < 4; n++) {
		for (int i = 0; i < 2; i++) {
			write_slot(&gq[i]->qp_cpu, &b[i], n);
			gfx_publish(&gq[i]->qp_cpu, n + 1u);
		}
	}
	for (int i = 0; i < 2; i++) {
		for (uint16_t n = 0; n < 4; n++) {
			gfx_expect_cqe_ok(&gq[i]->qp_cpu.cq_sq, n, n, p.qpn[i]);
			assert_slot_written(&b[i], n);
		}
	}
	assert_int_equal(doca_gpu_verbs_destroy_service(s), DOCA_SUCCESS);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq[i]), DOCA_SUCCESS);
		bufs_destroy(&b[i]);
	}
	gfx_pair_destroy(&p);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * An idle service backs off to short sleeps: over a quiet window its thread uses well under
 * half a core (a thread that kept spinning would use all of one, minus what others take).
 */
static void test_service_idle_backoff(void **state)
{
	struct gfx *f = *state;
	struct gfx_pair p;
	struct doca_gpu_verbs_qp *gq;
	doca_gpu_verbs_service_t s = NULL;
	const struct timespec settle = {0, 200000000}, window = {0, 300000000};
	uint64_t cpu0 = 0, cpu1 = 0, t0, t1;

	gfx_pair_create(f, NULL, &p);
	gq = gfx_export(f, &p, H(CPU_PROXY), M(VALID_DBR));
	assert_int_equal(doca_gpu_verbs_create_service(&s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_service_monitor_qp(s, gq), DOCA_SUCCESS);
	GFX_EXPECT_ERR(gverbs_service_thread_cpu_ns(NULL, &cpu0), DOCA_ERROR_INVALID_VALUE, "no CPU clock");
	nanosleep(&settle, NULL);
	assert_int_equal(gverbs_service_thread_cpu_ns(s, &cpu0), DOCA_SUCCESS);
	t0 = mono_ns();
	nanosleep(&window, NULL);
	assert_int_equal(gverbs_service_thread_cpu_ns(s, &cpu1), DOCA_SUCCESS);
	t1 = mono_ns();
	assert_true(cpu1 >= cpu0);
	assert_true((cpu1 - cpu0) * 2 < t1 - t0);
	assert_int_equal(gverbs_proxy_rings(gq), 0);
	assert_int_equal(doca_gpu_verbs_destroy_service(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_unexport_qp(f->gpu, gq), DOCA_SUCCESS);
	gfx_pair_destroy(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_progress_bad_args, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_cpu_proxy_rings_once_per_pi, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_cpu_proxy_dbr_less, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_sw_emulated_record_update, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_sw_emulated_own_service, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_auto_fallback_service_rings, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_service_api, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_service_destroyed_before_qp, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_service_two_qps, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_service_idle_backoff, gfx_setup, gfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
