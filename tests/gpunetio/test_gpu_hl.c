/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * High-level QPs (doca_gpunetio_high_level.h) on the software NIC with a host handle: every NIC
 * handler and send-DBR mode creates a QP whose device view is sized as promised and moves real
 * bytes through the device data path; groups carry counters through their companion QP; flat
 * lists equal the per-QP device views; bad attributes are refused with a log line.
 */
#include "gpu_fixture.h"

#include "device/ogda_dev_ops.h"
#include "device/ogda_dev_send.h"
#include "doca_gpunetio_high_level.h"
#include "verbs/verbs_priv.h"

#include <endian.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define MSG 64u

struct peer {
	struct doca_verbs_cq *cq;
	struct doca_verbs_qp *qp;
};

static struct doca_gpu_verbs_qp_init_attr_hl attr_of(struct gfx *f, enum doca_gpu_dev_verbs_nic_handler h,
						      enum doca_gpu_verbs_send_dbr_mode_ext m, uint16_t nwqe)
{
	struct doca_gpu_verbs_qp_init_attr_hl a;

	memset(&a, 0, sizeof(a));
	a.gpu_dev = f->gpu;
	a.verbs_pd = f->v.pd;
	a.sq_nwqe = nwqe;
	a.nic_handler = h;
	a.send_dbr_mode_ext = m;
	return a;
}

/* Connects the high-level QP to a fresh peer QP (its own CQ) on the same NIC. */
static void connect_peer(struct gfx *f, struct doca_verbs_qp *qp, struct peer *p)
{
	uint32_t qpn, pqpn;

	p->cq = vfx_cq(&f->v, GFX_CQ_SIZE, NULL, NULL);
	p->qp = vfx_qp(&f->v, DOCA_VERBS_QP_TYPE_RC, p->cq, p->cq, 16, 16);
	assert_int_equal(doca_verbs_qp_get_qpn(qp, &qpn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(p->qp, &pqpn), DOCA_SUCCESS);
	vfx_qp_connect(&f->v, qp, DOCA_VERBS_QP_TYPE_RC, pqpn, VFX_PSN_BASE + 1, VFX_PSN_BASE);
	vfx_qp_connect(&f->v, p->qp, DOCA_VERBS_QP_TYPE_RC, qpn, VFX_PSN_BASE, VFX_PSN_BASE + 1);
}

static void peer_destroy(struct peer *p)
{
	assert_int_equal(doca_verbs_qp_destroy(p->qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(p->cq), DOCA_SUCCESS);
}

static struct doca_gpu_dev_verbs_addr addr_of(const struct vfx_buf *b, size_t off, uint32_t key)
{
	struct doca_gpu_dev_verbs_addr a = {(uint64_t)(uintptr_t)(b->addr + off), htobe32(key)};

	return a;
}

/* Three puts through the device core, driving the proxy by hand when the QP needs one. */
static void put_three(struct doca_gpu_verbs_qp_hl *q, const struct vfx_buf *src, const struct vfx_buf *dst)
{
	struct doca_gpu_dev_verbs_qp *d = NULL;
	uint64_t ticket = 0;
	int rc = OPENGDA_DEV_EBUSY;
	bool own = false;

	assert_int_equal(opengda_gpu_verbs_qp_set_wait_timeout(q->qp_gverbs, GFX_TIMEOUT_MS * 1000000ull), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_get_qp_dev(q->qp_gverbs, &d), DOCA_SUCCESS);
	assert_int_equal(opengda_gpu_verbs_qp_has_own_service(q->qp_gverbs, &own), DOCA_SUCCESS);
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(ogda_dev_op_put(d, addr_of(dst, i * MSG, dst->rkey), addr_of(src, i * MSG, src->lkey), MSG,
						 OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket),
				 0);
	assert_int_equal(ticket, 2);
	if (q->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY && !own) {
		uint64_t deadline = ogda_dev_deadline(GFX_TIMEOUT_MS * 1000000ull);

		while (rc == OPENGDA_DEV_EBUSY && !ogda_dev_expired(deadline)) {
			assert_int_equal(doca_gpu_verbs_cpu_proxy_progress(q->qp_gverbs, NULL), DOCA_SUCCESS);
			rc = ogda_dev_cq_poll_one_at(&d->cq_sq, ticket, OGDA_DEV_SHARE_GPU);
			ogda_dev_spin_pause();
		}
	} else {
		rc = ogda_dev_op_wait(d, ticket, OGDA_DEV_SHARE_GPU);
	}
	if (rc != 0)
		print_error("handler %d mode %d: rc %d rsvd %lu ready %lu pi %lu ci %lu\n", (int)q->nic_handler,
			    (int)q->send_dbr_mode_ext, rc, (unsigned long)d->sq_rsvd_index, (unsigned long)d->sq_ready_index,
			    (unsigned long)d->sq_wqe_pi, (unsigned long)d->cq_sq.cqe_ci);
	assert_int_equal(rc, 0);
	assert_memory_equal(dst->addr, src->addr, 3 * MSG);
}

/* Connects the QP to a fresh peer and puts three messages into it through the device core. */
static void put_three_to_peer(struct gfx *f, struct doca_gpu_verbs_qp_hl *q)
{
	struct vfx_buf src, dst;
	struct peer p;

	connect_peer(f, q->qp, &p);
	vfx_buf_create(&f->v, 3 * MSG, 0x5a, &src);
	vfx_buf_create(&f->v, 3 * MSG, 0x00, &dst);
	for (uint32_t i = 0; i < 3 * MSG; i++)
		src.addr[i] = (uint8_t)(i * 7 + 1);
	put_three(q, &src, &dst);
	vfx_buf_destroy(&src);
	vfx_buf_destroy(&dst);
	peer_destroy(&p);
}

static void run_handler(struct gfx *f, enum doca_gpu_dev_verbs_nic_handler h, enum doca_gpu_verbs_send_dbr_mode_ext m,
			bool collapsed, enum doca_gpu_dev_verbs_nic_handler expect)
{
	struct doca_gpu_verbs_qp_init_attr_hl a = attr_of(f, h, m, 100);
	struct doca_gpu_verbs_qp_hl *q = NULL;
	struct doca_gpu_dev_verbs_qp *d = NULL;

	a.cq_collapsed = collapsed;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&a, &q), DOCA_SUCCESS);
	assert_int_equal(q->nic_handler, expect);
	assert_int_equal(q->send_dbr_mode_ext, m);
	assert_int_equal(doca_gpu_verbs_get_qp_dev(q->qp_gverbs, &d), DOCA_SUCCESS);
	assert_int_equal(d->sq_wqe_num, 128);
	assert_int_equal(d->cq_sq.cqe_num, collapsed ? 1u : 128u);
	assert_int_equal(d->nic_handler, expect);
	assert_int_equal((d->sq_dbrec == NULL), m != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR ||
							 expect == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY);
	put_three_to_peer(f, q);
	assert_int_equal(doca_gpu_verbs_destroy_qp_hl(q), DOCA_SUCCESS);
}

static void test_hl_every_handler(void **state)
{
	struct gfx *f = *state;

	run_handler(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, false,
		    DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB);
	run_handler(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB, DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, true,
		    DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB);
	run_handler(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF, DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, false,
		    DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF);
	run_handler(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR, DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW,
		    false, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR);
	run_handler(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED,
		    false, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR);
	run_handler(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY, DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, false,
		    DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY);
}

/*
 * The open release 3.0's attributes: no verbs_pd, the PD named by net_dev (a device from
 * doca_verbs_dev_open()); the QP moves bytes. A net_dev without a PD, or no PD at all, is refused.
 */
static void test_hl_open_release_net_dev(void **state)
{
	struct gfx *f = *state;
	struct doca_gpu_verbs_qp_init_attr_hl a = attr_of(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB,
							  DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, 16);
	struct doca_gpu_verbs_qp_hl *q = NULL;
	struct doca_gpu_verbs_qp_group_hl *g = NULL;
	struct doca_dev *dev = NULL, *own = NULL;

	assert_int_equal(doca_verbs_dev_open(f->v.pd, &dev), DOCA_SUCCESS);
	a.verbs_pd = NULL;
	a.net_dev = dev;
	a.ordering_semantic = DOCA_VERBS_QP_ORDERING_SEMANTIC_IBTA;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&a, &q), DOCA_SUCCESS);
	put_three_to_peer(f, q);
	assert_int_equal(doca_gpu_verbs_destroy_qp_hl(q), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_create_qp_group_hl(&a, &g), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_destroy_qp_group_hl(g), DOCA_SUCCESS);

	assert_int_equal(doca_dev_open(f->v.info, &own), DOCA_SUCCESS);
	a.net_dev = own; /* opened with doca_dev_open(): no PD */
	q = NULL;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&a, &q), DOCA_ERROR_INVALID_VALUE);
	a.net_dev = NULL; /* nothing names a PD */
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&a, &q), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_gpu_verbs_create_qp_group_hl(&a, &g), DOCA_ERROR_INVALID_VALUE);
	assert_null(q);
	assert_int_equal(doca_dev_close(own), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_dev_close(dev), DOCA_SUCCESS);
}

/* put_counter's shape: data on the main QP, WAIT + fetch-add on the companion; the counter counts. */
static void test_hl_group_counter(void **state)
{
	struct gfx *f = *state;
	struct doca_gpu_verbs_qp_init_attr_hl a = attr_of(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB,
							  DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, 32);
	struct doca_gpu_verbs_qp_group_hl *g = NULL;
	struct doca_gpu_dev_verbs_qp *dm = NULL, *dc = NULL;
	struct vfx_buf src, dst, ctr, old;
	struct peer pm, pc;
	uint64_t ticket = 0, value;

	assert_int_equal(doca_gpu_verbs_create_qp_group_hl(&a, &g), DOCA_SUCCESS);
	connect_peer(f, g->qp_main.qp, &pm);
	connect_peer(f, g->qp_companion.qp, &pc);
	vfx_buf_create(&f->v, MSG, 0x3c, &src);
	vfx_buf_create(&f->v, MSG, 0x00, &dst);
	vfx_buf_create(&f->v, 8, 0x00, &ctr);
	vfx_buf_create(&f->v, 8, 0x00, &old);
	assert_int_equal(opengda_gpu_verbs_qp_set_wait_timeout(g->qp_companion.qp_gverbs, GFX_TIMEOUT_MS * 1000000ull), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_get_qp_dev(g->qp_main.qp_gverbs, &dm), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_get_qp_dev(g->qp_companion.qp_gverbs, &dc), DOCA_SUCCESS);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(ogda_dev_op_put(dm, addr_of(&dst, 0, dst.rkey), addr_of(&src, 0, src.lkey), MSG,
						 OGDA_DEV_SHARE_GPU, 0, 0, &ticket),
				 0);
		assert_int_equal(ogda_dev_op_counter(dc, dm, ticket, addr_of(&ctr, 0, ctr.rkey), addr_of(&old, 0, old.lkey),
						     3, OGDA_DEV_SHARE_GPU, 0, 0),
				 0);
	}
	assert_int_equal(ogda_dev_op_wait_all(dc, OGDA_DEV_SHARE_GPU), 0);
	memcpy(&value, ctr.addr, 8);
	assert_int_equal(value, 15);
	assert_memory_equal(dst.addr, src.addr, MSG);
	/* The main QP's CQ reached the last put before the last counter add ran. */
	assert_true(dm->cq_sq.cqe_ci <= ticket + 1);
	vfx_buf_destroy(&src);
	vfx_buf_destroy(&dst);
	vfx_buf_destroy(&ctr);
	vfx_buf_destroy(&old);
	peer_destroy(&pm);
	peer_destroy(&pc);
	assert_int_equal(doca_gpu_verbs_destroy_qp_group_hl(g), DOCA_SUCCESS);
}

static void test_hl_flat_list(void **state)
{
	struct gfx *f = *state;
	struct doca_gpu_verbs_qp_init_attr_hl a = attr_of(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
							  DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, 16);
	struct doca_gpu_verbs_qp_hl *q[2] = {NULL, NULL};
	struct doca_gpu_dev_verbs_qp *flat = NULL, *one = NULL;

	for (int i = 0; i < 2; i++)
		assert_int_equal(doca_gpu_verbs_create_qp_hl(&a, &q[i]), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_qp_flat_list_create_hl(q, 2, &flat), DOCA_SUCCESS);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(doca_gpu_verbs_get_qp_dev(q[i]->qp_gverbs, &one), DOCA_SUCCESS);
		assert_memory_equal(&flat[i], one, sizeof(*one));
	}
	assert_int_not_equal(flat[0].sq_num, flat[1].sq_num);
	assert_int_equal(doca_gpu_verbs_qp_flat_list_destroy_hl(flat), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_qp_flat_list_destroy_hl(flat), DOCA_ERROR_NOT_FOUND);
	for (int i = 0; i < 2; i++)
		assert_int_equal(doca_gpu_verbs_destroy_qp_hl(q[i]), DOCA_SUCCESS);
}

/*
 * The verbs QP and CQ of a high-level QP are exported: destroying them directly is refused, and
 * the high-level destroy (unexport first) gives every object back to the context.
 */
static void test_hl_destroy_order(void **state)
{
	struct gfx *f = *state;
	struct doca_gpu_verbs_qp_init_attr_hl a = attr_of(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
							  DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, 16);
	struct doca_gpu_verbs_qp_group_hl *g = NULL;
	struct doca_gpu_verbs_qp_hl *q = NULL;
	unsigned int nobjs = f->v.ctx->nobjs;

	assert_int_equal(doca_gpu_verbs_create_qp_hl(&a, &q), DOCA_SUCCESS);
	GFX_EXPECT_ERR(doca_verbs_qp_destroy(q->qp), DOCA_ERROR_IN_USE, "is exported to the GPU");
	GFX_EXPECT_ERR(doca_verbs_cq_destroy(q->cq_sq), DOCA_ERROR_IN_USE, "is exported to the GPU");
	assert_int_equal(doca_gpu_verbs_destroy_qp_hl(q), DOCA_SUCCESS);
	assert_int_equal(f->v.ctx->nobjs, nobjs);
	assert_int_equal(doca_gpu_verbs_create_qp_group_hl(&a, &g), DOCA_SUCCESS);
	GFX_EXPECT_ERR(doca_verbs_qp_destroy(g->qp_companion.qp), DOCA_ERROR_IN_USE, "is exported to the GPU");
	assert_int_equal(doca_gpu_verbs_destroy_qp_group_hl(g), DOCA_SUCCESS);
	assert_int_equal(f->v.ctx->nobjs, nobjs);
}

/*
 * Two high-level QPs with receive queues (rq_nwqe), B with scatter-to-CQE (recv_inline),
 * connected to each other: device sends from A land in B's device-posted receives, the small
 * one in its CQE.
 */
static void test_hl_twosided(void **state)
{
	struct gfx *f = *state;
	struct doca_gpu_verbs_qp_init_attr_hl a = attr_of(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
							  DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, 16);
	struct doca_gpu_verbs_qp_hl *qa = NULL, *qb = NULL;
	struct doca_gpu_dev_verbs_qp *da = NULL, *db = NULL;
	static const uint32_t sizes[2] = {20, 100};
	struct vfx_buf src, dst;
	uint32_t qpn_a, qpn_b;

	a.rq_nwqe = 5;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&a, &qa), DOCA_SUCCESS);
	a.recv_inline = 1;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&a, &qb), DOCA_SUCCESS);
	assert_non_null(qa->cq_rq);
	assert_int_equal(doca_verbs_qp_get_qpn(qa->qp, &qpn_a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(qb->qp, &qpn_b), DOCA_SUCCESS);
	vfx_qp_connect(&f->v, qa->qp, DOCA_VERBS_QP_TYPE_RC, qpn_b, VFX_PSN_BASE + 1, VFX_PSN_BASE);
	vfx_qp_connect(&f->v, qb->qp, DOCA_VERBS_QP_TYPE_RC, qpn_a, VFX_PSN_BASE, VFX_PSN_BASE + 1);
	for (uint32_t i = 0; i < 2; i++) {
		struct doca_gpu_verbs_qp_hl *q = i == 0 ? qa : qb;

		assert_int_equal(opengda_gpu_verbs_qp_set_wait_timeout(q->qp_gverbs, GFX_TIMEOUT_MS * 1000000ull),
				 DOCA_SUCCESS);
	}
	assert_int_equal(doca_gpu_verbs_get_qp_dev(qa->qp_gverbs, &da), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_get_qp_dev(qb->qp_gverbs, &db), DOCA_SUCCESS);
	assert_int_equal(db->rq_wqe_num, 8);
	assert_int_equal(db->rcv_wqe_size, 16);
	assert_int_equal(db->cq_rq.cqe_num, 8);
	vfx_buf_create(&f->v, 256, 0x5a, &src);
	vfx_buf_create(&f->v, 256, 0x00, &dst);
	for (uint32_t i = 0; i < 256; i++)
		src.addr[i] = (uint8_t)(i * 3 + 1);
	for (uint32_t i = 0; i < 2; i++) {
		struct ogda_dev_rq rq = ogda_dev_qp_rq(db);
		struct opengda_mlx5_cqe64 *cqe = NULL;
		uint64_t rt, st;

		assert_int_equal(ogda_dev_rq_op_recv(&rq, addr_of(&dst, 128 * i, dst.lkey), 128, OGDA_DEV_SHARE_GPU, &rt), 0);
		assert_int_equal(ogda_dev_op_send(da, addr_of(&src, 0, src.lkey), sizes[i], OGDA_DEV_SHARE_GPU,
						  DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &st),
				 0);
		assert_int_equal(ogda_dev_op_wait(da, st, OGDA_DEV_SHARE_GPU), 0);
		assert_int_equal(ogda_dev_op_recv_wait(db, addr_of(&dst, 0, dst.lkey), rt, 0, 1, OGDA_DEV_SHARE_GPU,
						       DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, &cqe),
				 0);
		assert_int_equal(opengda_mlx5_cqe_byte_cnt(cqe), sizes[i]);
		if (i == 0) {
			assert_true(cqe->op_own & OPENGDA_MLX5_CQE_INLINE_SCATTER_32);
			assert_memory_equal(cqe->resp_info, src.addr, sizes[i]);
		} else {
			assert_false(cqe->op_own & OPENGDA_MLX5_CQE_INLINE_SCATTER_32);
			assert_memory_equal(dst.addr + 128, src.addr, sizes[i]);
		}
	}
	vfx_buf_destroy(&src);
	vfx_buf_destroy(&dst);
	assert_int_equal(doca_gpu_verbs_destroy_qp_hl(qa), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_verbs_destroy_qp_hl(qb), DOCA_SUCCESS);
}

static void test_hl_bad_input(void **state)
{
	struct gfx *f = *state;
	struct doca_gpu_verbs_qp_init_attr_hl a = attr_of(f, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
							  DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR, 16);
	struct doca_gpu_verbs_qp_init_attr_hl b;
	struct doca_gpu_verbs_qp_hl *q = NULL, *list[1] = {NULL};
	struct doca_gpu_verbs_qp_group_hl *g = NULL;
	struct doca_gpu_dev_verbs_qp *flat = NULL;

	assert_int_equal(doca_gpu_verbs_create_qp_hl(NULL, &q), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&a, NULL), DOCA_ERROR_INVALID_VALUE);
	b = a, b.gpu_dev = NULL;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	b = a, b.verbs_pd = NULL;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	b = a, b.sq_nwqe = 0;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	b = a, b.sq_nwqe = 40000;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	b = a, b.nic_handler = (enum doca_gpu_dev_verbs_nic_handler)5;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	b = a, b.send_dbr_mode_ext = (enum doca_gpu_verbs_send_dbr_mode_ext)3;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	b = a, b.mreg_type = (enum doca_gpu_verbs_mem_reg_type)3;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	b = a, b.nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB;
	b.send_dbr_mode_ext = DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	b = a, b.recv_inline = 1; /* without a receive queue */
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	b = a, b.rq_nwqe = 8, b.recv_inline = 2;
	assert_int_equal(doca_gpu_verbs_create_qp_hl(&b, &q), DOCA_ERROR_INVALID_VALUE);
	assert_null(q);
	assert_int_equal(doca_gpu_verbs_create_qp_group_hl(NULL, &g), DOCA_ERROR_INVALID_VALUE);
	b = a, b.sq_nwqe = 0;
	assert_int_equal(doca_gpu_verbs_create_qp_group_hl(&b, &g), DOCA_ERROR_INVALID_VALUE);
	assert_null(g);
	assert_int_equal(doca_gpu_verbs_destroy_qp_hl(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_gpu_verbs_destroy_qp_group_hl(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_gpu_verbs_qp_flat_list_create_hl(NULL, 1, &flat), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_gpu_verbs_qp_flat_list_create_hl(list, 0, &flat), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_gpu_verbs_qp_flat_list_create_hl(list, 1, &flat), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_gpu_verbs_qp_flat_list_destroy_hl(NULL), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hl_every_handler, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_hl_group_counter, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_hl_open_release_net_dev, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_hl_flat_list, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_hl_destroy_order, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_hl_twosided, gfx_setup, gfx_teardown),
		cmocka_unit_test_setup_teardown(test_hl_bad_input, gfx_setup, gfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
