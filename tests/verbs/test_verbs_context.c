/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Verbs contexts on the software NIC: create / destroy (refused while any kind of
 * child exists), the device limits against the software NIC's capability model
 * (src/swnic/swnic_core.c, caps_fill), the port and the GID table.
 *
 * Built twice (tests/verbs/CMakeLists.txt): verbs_context (port MTU 4096, the default)
 * and verbs_context_mtu1k (VERBS_CTX_MTU1K, OPENGDA_SWNIC_MTU=1024).
 */
#include "verbs_fixture.h"

#include "opengda_mlx5.h"
#include "swnic/swnic.h"
#include "test_util.h"

#include <infiniband/verbs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifndef VERBS_CTX_MTU1K

static char logbuf[16384];

/* The software NIC GID: fd 4f 47 44 41 01 00 00 | NIC index | TCP port | IPv4 (src/swnic/swnic_gid.h). */
static void check_swnic_gid(const struct doca_verbs_gid *gid, uint16_t nic_index)
{
	static const uint8_t prefix[8] = {0xfd, 0x4f, 0x47, 0x44, 0x41, 0x01, 0x00, 0x00};
	static const uint8_t loopback[4] = {127, 0, 0, 1};

	assert_memory_equal(gid->raw, prefix, sizeof(prefix));
	assert_int_equal(gid->raw[8], nic_index >> 8);
	assert_int_equal(gid->raw[9], nic_index & 0xff);
	assert_true(gid->raw[10] != 0 || gid->raw[11] != 0); /* a listening port */
	assert_memory_equal(gid->raw + 12, loopback, sizeof(loopback));
}

static void test_create_destroy(void **state)
{
	struct vfx f;
	struct doca_verbs_context *ctx2 = NULL;

	(void)state;
	vfx_open(&f);
	/* A second context on the same device is independent of the first. */
	assert_int_equal(doca_verbs_context_create(f.info, 0, &ctx2), DOCA_SUCCESS);
	assert_ptr_not_equal(ctx2, f.ctx);
	assert_int_equal(doca_verbs_context_destroy(ctx2), DOCA_SUCCESS);
	vfx_close(&f);
}

static void test_create_bad_input(void **state)
{
	struct vfx f;
	struct doca_verbs_context *ctx = NULL;

	(void)state;
	vfx_open(&f);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_context_create(f.info, 1, &ctx), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_context_create(f.info, 0x80000000u, &ctx), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_context_create(NULL, 0, &ctx), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_context_create(f.info, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_context_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(ctx);
	assert_non_null(strstr(logbuf, "swnic0: flags 0x1: no context flag is defined (pass 0)"));
	assert_non_null(strstr(logbuf, "swnic0: flags 0x80000000: no context flag is defined (pass 0)"));
	assert_non_null(strstr(logbuf, "devinfo and verbs_context must not be NULL"));
	assert_non_null(strstr(logbuf, "verbs_context must not be NULL"));
	vfx_close(&f);
}

/* ---- destroy with children: one kind at a time ---- */

enum child_kind {
	CHILD_PD,
	CHILD_CQ,
	CHILD_QP,
	CHILD_SRQ,
	CHILD_UMEM,
	CHILD_UAR,
	CHILD_AH_ATTR,
	CHILD_COMP_CHANNEL,
	CHILD_VERBS_DEV,
	CHILD_KINDS
};

static const char *const child_names[CHILD_KINDS] = {"PD",  "CQ",  "QP",      "SRQ",
						     "UMEM", "UAR", "AH attr", "completion channel",
						     "doca_dev of doca_verbs_dev_open"};

/* What one child kind needs: the objects are destroyed in reverse order. */
struct children {
	struct doca_verbs_pd *pd;
	struct doca_verbs_cq *cq;
	struct doca_verbs_qp *qp;
	struct doca_verbs_srq *srq;
	struct doca_verbs_umem *umem;
	void *umem_mem;
	struct doca_verbs_uar *uar;
	struct doca_verbs_ah_attr *ah;
	struct doca_verbs_comp_channel *cc;
	struct doca_dev *dev;
};

static void make_child(struct doca_verbs_context *ctx, enum child_kind k, struct children *c)
{
	memset(c, 0, sizeof(*c));
	switch (k) {
	case CHILD_PD:
		assert_int_equal(doca_verbs_pd_create(ctx, &c->pd), DOCA_SUCCESS);
		break;
	case CHILD_CQ: {
		struct doca_verbs_cq_attr *a = NULL;

		assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 8), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_create(ctx, a, &c->cq), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
		break;
	}
	case CHILD_QP: {
		struct doca_verbs_cq_attr *ca = NULL;
		struct doca_verbs_qp_init_attr *qa = NULL;

		assert_int_equal(doca_verbs_pd_create(ctx, &c->pd), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_attr_create(&ca), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_attr_set_cq_size(ca, 8), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_create(ctx, ca, &c->cq), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_attr_destroy(ca), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_create(&qa), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_pd(qa, c->pd), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_send_cq(qa, c->cq), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_receive_cq(qa, c->cq), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_sq_wr(qa, 4), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_set_rq_wr(qa, 4), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_create(ctx, qa, &c->qp), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_init_attr_destroy(qa), DOCA_SUCCESS);
		break;
	}
	case CHILD_SRQ: {
		struct doca_verbs_srq_init_attr *sa = NULL;

		assert_int_equal(doca_verbs_pd_create(ctx, &c->pd), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_init_attr_create(&sa), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_init_attr_set_pd(sa, c->pd), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(sa, 8), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_create(ctx, sa, &c->srq), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_srq_init_attr_destroy(sa), DOCA_SUCCESS);
		break;
	}
	case CHILD_UMEM:
		assert_int_equal(posix_memalign(&c->umem_mem, 4096, 4096), 0);
		assert_int_equal(doca_verbs_umem_create(ctx, c->umem_mem, 4096, IBV_ACCESS_LOCAL_WRITE,
							(int)DOCA_VERBS_DMABUF_INVALID_FD, 0, &c->umem),
				 DOCA_SUCCESS);
		break;
	case CHILD_UAR:
		assert_int_equal(doca_verbs_uar_create(ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, &c->uar),
				 DOCA_SUCCESS);
		break;
	case CHILD_AH_ATTR:
		assert_int_equal(doca_verbs_ah_attr_create(ctx, &c->ah), DOCA_SUCCESS);
		break;
	case CHILD_COMP_CHANNEL:
		assert_int_equal(doca_verbs_comp_channel_create(ctx, &c->cc), DOCA_SUCCESS);
		break;
	case CHILD_VERBS_DEV:
		assert_int_equal(doca_verbs_pd_create(ctx, &c->pd), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_dev_open(c->pd, &c->dev), DOCA_SUCCESS);
		break;
	default:
		fail();
	}
}

/*
 * Destroys the children one by one; before each step the context must refuse to go
 * (IN_USE, one log line saying what is left) and must still work afterwards.
 */
static void destroy_children_checking(struct doca_verbs_context *ctx, enum child_kind k, struct children *c)
{
	for (;;) {
		struct doca_verbs_pd *probe = NULL;

		stderr_capture_begin();
		assert_int_equal(doca_verbs_context_destroy(ctx), DOCA_ERROR_IN_USE);
		stderr_capture_end(logbuf, sizeof(logbuf));
		if (strstr(logbuf, "swnic0: context still has") == NULL ||
		    strstr(logbuf, "objects and 0 unacknowledged async events; destroy them first") == NULL)
			fail_msg("child %s: no IN_USE log line, got: %s", child_names[k], logbuf);
		/* Refused destroy left the context intact. */
		assert_int_equal(doca_verbs_pd_create(ctx, &probe), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_pd_destroy(probe), DOCA_SUCCESS);

		if (c->dev != NULL) {
			assert_int_equal(doca_verbs_dev_close(c->dev), DOCA_SUCCESS);
			c->dev = NULL;
		} else if (c->qp != NULL) {
			assert_int_equal(doca_verbs_qp_destroy(c->qp), DOCA_SUCCESS);
			c->qp = NULL;
		} else if (c->srq != NULL) {
			assert_int_equal(doca_verbs_srq_destroy(c->srq), DOCA_SUCCESS);
			c->srq = NULL;
		} else if (c->cq != NULL) {
			assert_int_equal(doca_verbs_cq_destroy(c->cq), DOCA_SUCCESS);
			c->cq = NULL;
		} else if (c->pd != NULL) {
			assert_int_equal(doca_verbs_pd_destroy(c->pd), DOCA_SUCCESS);
			c->pd = NULL;
		} else if (c->umem != NULL) {
			assert_int_equal(doca_verbs_umem_destroy(c->umem), DOCA_SUCCESS);
			c->umem = NULL;
		} else if (c->uar != NULL) {
			assert_int_equal(doca_verbs_uar_destroy(c->uar), DOCA_SUCCESS);
			c->uar = NULL;
		} else if (c->ah != NULL) {
			assert_int_equal(doca_verbs_ah_attr_destroy(c->ah), DOCA_SUCCESS);
			c->ah = NULL;
		} else if (c->cc != NULL) {
			assert_int_equal(doca_verbs_comp_channel_destroy(c->cc), DOCA_SUCCESS);
			c->cc = NULL;
		}
		if (c->dev == NULL && c->qp == NULL && c->srq == NULL && c->cq == NULL && c->pd == NULL &&
		    c->umem == NULL && c->uar == NULL && c->ah == NULL && c->cc == NULL)
			break;
	}
	free(c->umem_mem);
}

static void test_destroy_with_children_in_use(void **state)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	struct doca_devinfo *info;

	(void)state;
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	info = vfx_find_devinfo(list, n, "swnic0");
	assert_non_null(info);
	for (int k = 0; k < CHILD_KINDS; k++) {
		struct doca_verbs_context *ctx = NULL;
		struct children c;

		assert_int_equal(doca_verbs_context_create(info, 0, &ctx), DOCA_SUCCESS);
		make_child(ctx, (enum child_kind)k, &c);
		destroy_children_checking(ctx, (enum child_kind)k, &c);
		if (doca_verbs_context_destroy(ctx) != DOCA_SUCCESS)
			fail_msg("child %s: the context did not go once its children were gone", child_names[k]);
	}
	assert_int_equal(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
}

/* The message counts the objects the user made, not the library's own UMEMs and UAR. */
static void test_destroy_in_use_message_counts_user_objects(void **state)
{
	struct vfx f;
	struct doca_verbs_cq *cq;

	(void)state;
	vfx_open(&f);
	cq = vfx_cq(&f, 8, NULL, NULL);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_context_destroy(f.ctx), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	/* PD + CQ: 2 objects (the CQ's ring and doorbell UMEMs are the library's). */
	assert_non_null(strstr(logbuf, "context still has 2 objects"));
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	vfx_close(&f);
}

/* ---- device limits ---- */

static void test_query_device_matches_swnic_caps(void **state)
{
	struct vfx f;
	struct doca_verbs_device_attr *a = NULL;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_query_device(f.ctx, &a), DOCA_SUCCESS);
	/* Values of src/swnic/swnic_core.c caps_fill(), in the units DOCA reports. */
	assert_int_equal(doca_verbs_device_attr_get_max_qp(a), 1u << 16);      /* log_max_qp 16 */
	assert_int_equal(doca_verbs_device_attr_get_max_qp_wr(a), 1u << 15);   /* log_max_qp_sz 15 */
	assert_int_equal(doca_verbs_device_attr_get_max_cq(a), 1u << 16);      /* log_max_cq 16 */
	assert_int_equal(doca_verbs_device_attr_get_max_cqe(a), 1u << 22);     /* log_max_cq_sz 22 */
	assert_int_equal(doca_verbs_device_attr_get_max_mr(a), 1u << 16);      /* log_max_mkey 16 */
	assert_int_equal(doca_verbs_device_attr_get_max_pd(a), 1u << 16);      /* log_max_pd 16 */
	assert_int_equal(doca_verbs_device_attr_get_max_ah(a), 1u << 16);      /* = max_qp */
	assert_int_equal(doca_verbs_device_attr_get_max_srq(a), 1u << 16);     /* log_max_srq 16 */
	assert_int_equal(doca_verbs_device_attr_get_max_srq_wr(a), 1u << 15);  /* log_max_srq_sz 15 */
	assert_int_equal(doca_verbs_device_attr_get_max_srq_sge(a), 31);       /* (max_wqe_sz_rq 512 - 16) / 16 */
	assert_int_equal(doca_verbs_device_attr_get_max_pkeys(a), 128);        /* pkey_table_size 0: 128 entries */
	assert_int_equal(doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext(a), 1); /* cap 2 */
	assert_int_equal(doca_verbs_device_attr_get_max_qp_rd_atom(a), 16);    /* log_max_ra_res_qp 4 */
	assert_int_equal(doca_verbs_device_attr_get_max_qp_init_rd_atom(a), 16); /* log_max_ra_req_qp 4 */
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(a, DOCA_VERBS_QP_TYPE_RC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(a, DOCA_VERBS_QP_TYPE_UC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(a, 2), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(a, 0xffffffffu), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_verbs_device_attr_free(a), DOCA_SUCCESS);
	vfx_close(&f);
}

/*
 * max_sge: what a send WQE may carry. A WQE holds at most 63 octowords
 * (OPENGDA_MLX5_WQE_MAX_DS), of which an RDMA WRITE / READ spends two on its ctrl and
 * remote address segments, and the software NIC's requester gathers at most SWNIC_MAX_SGE
 * pointer segments per WQE (src/swnic/swnic_exec_req.c): reporting more promises SGE
 * counts that cannot be posted or that complete with an error (test_verbs_qp_traffic.c,
 * test_max_sge_is_usable, posts max_sge of them).
 */
static void test_query_device_max_sge_is_what_the_nic_gathers(void **state)
{
	struct vfx f;
	struct doca_verbs_device_attr *a = NULL;
	uint32_t max_sge;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_query_device(f.ctx, &a), DOCA_SUCCESS);
	max_sge = doca_verbs_device_attr_get_max_sge(a);
	assert_int_equal(doca_verbs_device_attr_free(a), DOCA_SUCCESS);
	vfx_close(&f);
	assert_true(max_sge >= 1);
	if (max_sge > OPENGDA_MLX5_WQE_MAX_DS - 2u || max_sge > SWNIC_MAX_SGE)
		fail_msg("max_sge %u: a WQE carries at most %u SGEs beside ctrl + raddr, the software NIC gathers %u",
			 max_sge, OPENGDA_MLX5_WQE_MAX_DS - 2u, SWNIC_MAX_SGE);
}

static void test_query_device_bad_input(void **state)
{
	struct vfx f;
	struct doca_verbs_device_attr *a = NULL;

	(void)state;
	vfx_open(&f);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_query_device(NULL, &a), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_query_device(f.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_device_attr_free(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_device_attr_get_max_qp(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_qp_wr(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_sge(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_cq(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_cqe(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_mr(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_pd(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_ah(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_srq(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_srq_wr(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_srq_sge(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_pkeys(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_qp_rd_atom(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_max_qp_init_rd_atom(NULL), 0);
	assert_int_equal(doca_verbs_device_attr_get_is_qp_type_supported(NULL, DOCA_VERBS_QP_TYPE_RC),
			 DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(a);
	assert_non_null(strstr(logbuf, "query_device: NULL context"));
	assert_non_null(strstr(logbuf, "query_device: NULL output pointer"));
	assert_non_null(strstr(logbuf, "device_attr: NULL attributes"));
	{
		static const char *const getters[] = {"max_qp:", "max_qp_wr:", "max_sge:", "max_cq:", "max_cqe:",
						      "max_mr:", "max_pd:", "max_ah:", "max_srq:", "max_srq_wr:",
						      "max_srq_sge:", "max_pkeys:", "send_dbr_mode_no_dbr_ext:",
						      "max_qp_rd_atom:", "max_qp_init_rd_atom:",
						      "is_qp_type_supported:", NULL};

		assert_true(vfx_log_has(logbuf, getters));
	}
	vfx_close(&f);
}

/* ---- port and GIDs ---- */

static void test_query_port_default(void **state)
{
	struct vfx f;
	struct opengda_port_attr p;

	(void)state;
	vfx_open(&f);
	memset(&p, 0xa5, sizeof(p));
	assert_int_equal(opengda_verbs_query_port(f.ctx, 1, &p), DOCA_SUCCESS);
	assert_int_equal(p.state, 4); /* IBV_PORT_ACTIVE */
	assert_int_equal(p.link_layer, OPENGDA_LINK_LAYER_ETHERNET);
	assert_int_equal(p.active_mtu, DOCA_VERBS_MTU_SIZE_4K_BYTES);
	assert_int_equal(p.max_mtu, DOCA_VERBS_MTU_SIZE_4K_BYTES);
	assert_int_equal(p.lid, 0);
	assert_int_equal(p.gid_tbl_len, 1);
	vfx_close(&f);
}

static void test_query_port_bad_input(void **state)
{
	struct vfx f;
	struct opengda_port_attr p;

	(void)state;
	vfx_open(&f);
	memset(&p, 0x5a, sizeof(p));
	stderr_capture_begin();
	assert_int_equal(opengda_verbs_query_port(f.ctx, 0, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_query_port(f.ctx, 2, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_query_port(f.ctx, 256, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_query_port(NULL, 1, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_query_port(f.ctx, 1, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_int_equal(p.gid_tbl_len, 0x5a5a5a5au); /* untouched */
	assert_non_null(strstr(logbuf, "swnic0: port 0 does not exist (ports count from 1)"));
	assert_non_null(strstr(logbuf, "swnic0: cannot query port 2"));
	assert_non_null(strstr(logbuf, "swnic0: port 256 does not exist (ports count from 1)"));
	assert_non_null(strstr(logbuf, "verbs_context and attr must not be NULL"));
	vfx_close(&f);
}

static void test_query_gid(void **state)
{
	struct vfx f;
	struct doca_verbs_gid g;
	struct doca_devinfo *info1;
	struct doca_verbs_context *ctx1 = NULL;

	(void)state;
	vfx_open(&f);
	memset(&g, 0, sizeof(g));
	assert_int_equal(opengda_verbs_query_gid(f.ctx, 1, 0, &g), DOCA_SUCCESS);
	check_swnic_gid(&g, 0);
	info1 = vfx_find_devinfo(f.list, f.ndev, "swnic1");
	if (info1 != NULL) { /* OPENGDA_SWNIC_COUNT=2: the second NIC has its own endpoint */
		struct doca_verbs_gid g1;

		assert_int_equal(doca_verbs_context_create(info1, 0, &ctx1), DOCA_SUCCESS);
		assert_int_equal(opengda_verbs_query_gid(ctx1, 1, 0, &g1), DOCA_SUCCESS);
		check_swnic_gid(&g1, 1);
		assert_memory_not_equal(g1.raw, g.raw, sizeof(g.raw));
		assert_int_equal(doca_verbs_context_destroy(ctx1), DOCA_SUCCESS);
	}
	vfx_close(&f);
}

static void test_query_gid_bad_input(void **state)
{
	struct vfx f;
	struct doca_verbs_gid g;

	(void)state;
	vfx_open(&f);
	memset(&g, 0x77, sizeof(g));
	stderr_capture_begin();
	assert_int_equal(opengda_verbs_query_gid(f.ctx, 1, 1, &g), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_query_gid(f.ctx, 1, 0xffffffffu, &g), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_query_gid(f.ctx, 0, 0, &g), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_query_gid(f.ctx, 2, 0, &g), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_query_gid(NULL, 1, 0, &g), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_verbs_query_gid(f.ctx, 1, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	for (size_t i = 0; i < sizeof(g.raw); i++)
		assert_int_equal(g.raw[i], 0x77);
	assert_non_null(strstr(logbuf, "swnic0: GID index 1 is beyond the table of 1 entries"));
	assert_non_null(strstr(logbuf, "swnic0: GID index 4294967295 is beyond the table of 1 entries"));
	assert_non_null(strstr(logbuf, "swnic0: port 0 does not exist (ports count from 1)"));
	assert_non_null(strstr(logbuf, "swnic0: cannot read GID 0 of port 2"));
	assert_non_null(strstr(logbuf, "verbs_context and gid must not be NULL"));
	vfx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_destroy),
		cmocka_unit_test(test_create_bad_input),
		cmocka_unit_test(test_destroy_with_children_in_use),
		cmocka_unit_test(test_destroy_in_use_message_counts_user_objects),
		cmocka_unit_test(test_query_device_matches_swnic_caps),
		cmocka_unit_test(test_query_device_max_sge_is_what_the_nic_gathers),
		cmocka_unit_test(test_query_device_bad_input),
		cmocka_unit_test(test_query_port_default),
		cmocka_unit_test(test_query_port_bad_input),
		cmocka_unit_test(test_query_gid),
		cmocka_unit_test(test_query_gid_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* VERBS_CTX_MTU1K */

/* OPENGDA_SWNIC_MTU=1024: the port reports 1K as its active and largest MTU. */
static void test_query_port_mtu_1k(void **state)
{
	struct vfx f;
	struct opengda_port_attr p;

	(void)state;
	vfx_open(&f);
	assert_int_equal(opengda_verbs_query_port(f.ctx, 1, &p), DOCA_SUCCESS);
	assert_int_equal(p.active_mtu, DOCA_VERBS_MTU_SIZE_1K_BYTES);
	assert_int_equal(p.max_mtu, DOCA_VERBS_MTU_SIZE_1K_BYTES);
	assert_int_equal(p.link_layer, OPENGDA_LINK_LAYER_ETHERNET);
	assert_int_equal(p.state, 4);
	assert_int_equal(f.port_mtu, DOCA_VERBS_MTU_SIZE_1K_BYTES);
	vfx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_query_port_mtu_1k)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
