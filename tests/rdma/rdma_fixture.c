/* SPDX-License-Identifier: BSD-3-Clause */
#include "rdma_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>

#include <cmocka.h>

void rfx_rdma_start(struct rfx_side *s, uint16_t nconn, uint32_t sq)
{
	assert_int_equal(doca_rdma_create(s->f->dev, &s->rdma), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_set_permissions(s->rdma, RFX_ACCESS), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_set_gid_index(s->rdma, 0), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_set_grh_enabled(s->rdma, 1), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_set_recv_queue_size(s->rdma, 64), DOCA_SUCCESS);
	if (nconn != 0)
		assert_int_equal(doca_rdma_set_max_num_connections(s->rdma, nconn), DOCA_SUCCESS);
	if (sq != 0)
		assert_int_equal(doca_rdma_set_send_queue_size(s->rdma, sq), DOCA_SUCCESS);
	assert_int_equal(opengda_rdma_set_wait_timeout(s->rdma, 5000000000ull), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_rdma_as_ctx(s->rdma), s->f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_rdma_as_ctx(s->rdma)), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_get_gpu_handle(s->rdma, &s->h), DOCA_SUCCESS);
}

void rfx_rdma_stop(struct rfx_side *s)
{
	assert_int_equal(doca_ctx_stop(doca_rdma_as_ctx(s->rdma)), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_destroy(s->rdma), DOCA_SUCCESS);
	s->rdma = NULL;
}

uint32_t rfx_connect(struct rfx_side *a, struct rfx_side *b)
{
	const void *da, *db;
	size_t la, lb;
	struct doca_rdma_connection *ca, *cb;
	uint32_t id = 0;

	assert_int_equal(doca_rdma_export(a->rdma, &da, &la, &ca), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_export(b->rdma, &db, &lb, &cb), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connect(a->rdma, db, lb, ca), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connect(b->rdma, da, la, cb), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connection_get_id(ca, &id), DOCA_SUCCESS);
	return id;
}

void rfx_share(struct rfx_side *a, struct rfx_side *b)
{
	const void *desc;
	size_t len;

	dmafx_arr_open(a->f, &a->local, a->f->buf, RFX_ELEMS, RFX_ELEM, RFX_ACCESS);
	assert_int_equal(doca_mmap_export_rdma(a->local.mmap, a->f->dev, &desc, &len), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_create_from_export(NULL, desc, len, b->f->dev, &b->remote_mmap), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_create(RFX_ELEMS, &b->remote_arr), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_set_target_gpu(b->remote_arr, b->f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_set_params(b->remote_arr, b->remote_mmap, RFX_ELEM, 0), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_start(b->remote_arr), DOCA_SUCCESS);
	assert_int_equal(doca_buf_arr_get_gpu_handle(b->remote_arr, &b->remote), DOCA_SUCCESS);
}

void rfx_unshare(struct rfx_side *a, struct rfx_side *b)
{
	assert_int_equal(doca_buf_arr_destroy(b->remote_arr), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(b->remote_mmap), DOCA_SUCCESS);
	dmafx_arr_close(&a->local);
}

int rfx_setup(void **state)
{
	struct rfx_side *s = calloc(2, sizeof(*s));
	void *st;

	assert_non_null(s);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(cfx_setup(&st), 0);
		s[i].f = st;
		rfx_rdma_start(&s[i], 0, 0);
	}
	assert_int_equal(rfx_connect(&s[0], &s[1]), 0);
	rfx_share(&s[0], &s[1]);
	rfx_share(&s[1], &s[0]);
	*state = s;
	return 0;
}

int rfx_teardown(void **state)
{
	struct rfx_side *s = *state;
	void *st;

	rfx_unshare(&s[0], &s[1]);
	rfx_unshare(&s[1], &s[0]);
	for (int i = 0; i < 2; i++) {
		rfx_rdma_stop(&s[i]);
		st = s[i].f;
		assert_int_equal(cfx_teardown(&st), 0);
	}
	free(s);
	return 0;
}

struct doca_gpu_buf *rfx_local(struct rfx_side *s, uint64_t i)
{
	return dmafx_buf(&s->local, i);
}

struct doca_gpu_buf *rfx_remote(struct rfx_side *s, uint64_t i)
{
	struct doca_gpu_buf *b = NULL;

	assert_int_equal(ogda_dev_buf_get(s->remote, i, &b), DOCA_SUCCESS);
	return b;
}
