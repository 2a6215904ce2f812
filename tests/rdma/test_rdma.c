/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma with host-thread data paths on the software NIC: the high-level device functions
 * (writes, reads, sends, inline forms, immediates, strong and weak positions with wrap, many
 * threads and one commit, two connections), receive reports with immediates and connection ids
 * (receives shared by every connection, wrapping),
 * error completions with their syndromes, and bad input on the host and device functions.
 */
#include "rdma_fixture.h"

#include "opengda_mlx5.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define E(i) ((size_t)(i) * RFX_ELEM)

/* Write with immediate (received without a buffer) and send with immediate (into a buffer). */
static void test_write_send_imm(void **state)
{
	struct rfx_side *s = *state, *a = &s[0], *b = &s[1];
	struct doca_gpu_dev_rdma_r *r = NULL;
	uint32_t n = 0, imm[2] = {0}, conn[2] = {9, 9};

	dmafx_fill(a->f->buf, E(4), 1);
	assert_int_equal(ogda_dev_rdma_get_recv(b->h, &r), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv(r, NULL, 0, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv(r, rfx_local(b, 1), RFX_ELEM, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv_commit_strong(r), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 0, rfx_remote(a, 0), 0, rfx_local(a, 0), 0, RFX_ELEM, htonl(0x1234),
					    DOCA_GPU_RDMA_WRITE_FLAG_IMM, 0, 0, 0),
			 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_send(a->h, 0, rfx_local(a, 2), 0, 512, htonl(0x5678), DOCA_GPU_RDMA_SEND_FLAG_IMM,
					    0, 0),
			 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_commit_strong(a->h, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_wait_all(a->h, &n), DOCA_SUCCESS);
	assert_int_equal(n, 2);
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, imm, conn), DOCA_SUCCESS);
	assert_int_equal(n, 2);
	assert_int_equal(imm[0], htonl(0x1234));
	assert_int_equal(imm[1], htonl(0x5678));
	assert_int_equal(conn[0], 0);
	assert_int_equal(conn[1], 0);
	assert_memory_equal(b->f->buf, a->f->buf, RFX_ELEM);
	assert_memory_equal(b->f->buf + E(1), a->f->buf + E(2), 512);
	assert_int_equal(b->f->buf[E(1) + 512], 0);
	/* Nothing more arrived: a non-blocking report is empty; wait_all counts nothing new. */
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_NB, &n, NULL, NULL), DOCA_SUCCESS);
	assert_int_equal(n, 0);
	assert_int_equal(ogda_dev_rdma_wait_all(a->h, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0);
}

/* Read, inline write, inline send (no immediate: 0 reported). */
static void test_read_inline(void **state)
{
	struct rfx_side *s = *state, *a = &s[0], *b = &s[1];
	struct doca_gpu_dev_rdma_r *r = NULL;
	uint8_t inl[44];
	uint32_t n = 0, imm = 7;

	dmafx_fill(b->f->buf + E(3), RFX_ELEM, 2);
	dmafx_fill(inl, sizeof(inl), 3);
	assert_int_equal(ogda_dev_rdma_get_recv(b->h, &r), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv(r, rfx_local(b, 6), RFX_ELEM, 8, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv_commit_strong(r), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 0, rfx_remote(a, 3), 0, rfx_local(a, 4), 0, RFX_ELEM, 0, 0, 1, 0, 0),
			 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_write_inl(a->h, 0, rfx_remote(a, 5), 4, inl, 28, 0, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_send_inl(a->h, 0, inl, 44, 0, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_commit_strong(a->h, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_wait_all(a->h, &n), DOCA_SUCCESS);
	assert_int_equal(n, 3);
	assert_memory_equal(a->f->buf + E(4), b->f->buf + E(3), RFX_ELEM);
	assert_memory_equal(b->f->buf + E(5) + 4, inl, 28);
	assert_int_equal(b->f->buf[E(5) + 32], 0);
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, &imm, NULL), DOCA_SUCCESS);
	assert_int_equal(n, 1);
	assert_int_equal(imm, 0);
	assert_memory_equal(b->f->buf + E(6) + 8, inl, 44);
}

/* Weak positions: rounds of 5 on a ring of 8, written in reverse order, wrap; one commit each. */
static void test_weak_wrap(void **state)
{
	struct rfx_side *s = *state, *a = &s[0], *b = &s[1];
	uint32_t curr = 0, mask = 0, n = 0;

	rfx_unshare(&s[1], &s[0]); /* a's arrays go with its context */
	rfx_rdma_stop(a);
	rfx_rdma_start(a, 1, 8);
	rfx_rdma_stop(b);
	rfx_rdma_start(b, 1, 0);
	assert_int_equal(rfx_connect(a, b), 0);
	rfx_share(&s[1], &s[0]);
	dmafx_fill(a->f->buf, E(RFX_ELEMS), 4);
	for (uint32_t round = 0; round < 4; round++) {
		assert_int_equal(ogda_dev_rdma_get_info(a->h, 0, &curr, &mask), DOCA_SUCCESS);
		assert_int_equal(mask, 7);
		assert_int_equal(curr, (round * 5) & 7);
		for (uint32_t k = 5; k-- > 0;) {
			uint32_t e = round * 5 + k;

			assert_int_equal(ogda_dev_rdma_xfer(a->h, 0, rfx_remote(a, e), 0, rfx_local(a, e), 0, RFX_ELEM, 0, 0,
							    0, 1, (curr + k) & mask),
					 DOCA_SUCCESS);
		}
		assert_int_equal(ogda_dev_rdma_commit_weak(a->h, 0, 5), DOCA_SUCCESS);
		assert_int_equal(ogda_dev_rdma_wait_all(a->h, &n), DOCA_SUCCESS);
		assert_int_equal(n, 5);
	}
	assert_memory_equal(b->f->buf, a->f->buf, E(20));
	assert_int_equal(ogda_dev_rdma_commit_weak(a->h, 0, 9), DOCA_ERROR_INVALID_VALUE); /* more than the ring */
}

#define THREADS 4u
#define PER_THREAD 8u

struct strong_arg {
	struct rfx_side *a;
	uint32_t t;
	doca_error_t err;
};

static void *strong_thread(void *p)
{
	struct strong_arg *x = p;

	x->err = DOCA_SUCCESS;
	for (uint32_t k = 0; k < PER_THREAD && x->err == DOCA_SUCCESS; k++) {
		uint32_t e = x->t * PER_THREAD + k;

		x->err = ogda_dev_rdma_xfer(x->a->h, 0, rfx_remote(x->a, e), 0, rfx_local(x->a, e), 0, RFX_ELEM, 0, 0, 0, 0,
					    0);
	}
	return NULL;
}

/* Strong mode from several threads at once (no block restriction), then one commit. */
static void test_strong_threads(void **state)
{
	struct rfx_side *s = *state, *a = &s[0], *b = &s[1];
	struct strong_arg x[THREADS];
	pthread_t th[THREADS];
	uint32_t n = 0;

	dmafx_fill(a->f->buf, E(RFX_ELEMS), 5);
	for (uint32_t t = 0; t < THREADS; t++) {
		x[t] = (struct strong_arg){.a = a, .t = t};
		assert_int_equal(pthread_create(&th[t], NULL, strong_thread, &x[t]), 0);
	}
	for (uint32_t t = 0; t < THREADS; t++) {
		assert_int_equal(pthread_join(th[t], NULL), 0);
		assert_int_equal(x[t].err, DOCA_SUCCESS);
	}
	for (size_t i = 0; i < E(THREADS * PER_THREAD); i++) /* published, not rung: nothing moved */
		assert_int_equal(b->f->buf[i], 0);
	assert_int_equal(ogda_dev_rdma_commit_strong(a->h, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_wait_all(a->h, &n), DOCA_SUCCESS);
	assert_int_equal(n, THREADS * PER_THREAD);
	assert_memory_equal(b->f->buf, a->f->buf, E(THREADS * PER_THREAD));
}

/* One context, two connections to two peers: each write with immediate reaches its own peer. */
/* Restarts @a with two connections and @b with one, starts @b1 with one; a's 0 is b, a's 1 is b1. */
static void two_peers(struct rfx_side *a, struct rfx_side *b, struct rfx_side *b1)
{
	rfx_rdma_stop(a);
	rfx_rdma_start(a, 2, 0);
	rfx_rdma_stop(b);
	rfx_rdma_start(b, 1, 0);
	rfx_rdma_start(b1, 1, 0);
	assert_int_equal(rfx_connect(a, b), 0);
	assert_int_equal(rfx_connect(a, b1), 1);
}

static void test_two_connections(void **state)
{
	struct rfx_side *s = *state, *a = &s[0], *b = &s[1];
	struct rfx_side b1 = {.f = b->f};
	struct doca_gpu_dev_rdma_r *r0 = NULL, *r1 = NULL;
	const void *d;
	size_t l;
	struct doca_rdma_connection *c;
	uint32_t n = 0, imm = 0, conn = 9;

	rfx_unshare(&s[1], &s[0]);
	two_peers(a, b, &b1);
	assert_int_equal(doca_rdma_export(a->rdma, &d, &l, &c), DOCA_ERROR_FULL);
	rfx_share(&s[1], &s[0]);
	assert_int_equal(ogda_dev_rdma_get_recv(b->h, &r0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_get_recv(b1.h, &r1), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv(r0, NULL, 0, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv_commit_strong(r0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv(r1, NULL, 0, 0, 1, 0), DOCA_SUCCESS); /* weak, position 0 */
	assert_int_equal(ogda_dev_rdma_recv_commit_weak(r1, 1), DOCA_SUCCESS);
	dmafx_fill(a->f->buf, E(2), 6);
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 0, rfx_remote(a, 0), 0, rfx_local(a, 0), 0, RFX_ELEM, htonl(0xa0),
					    DOCA_GPU_RDMA_WRITE_FLAG_IMM, 0, 0, 0),
			 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 1, rfx_remote(a, 1), 0, rfx_local(a, 1), 0, RFX_ELEM, htonl(0xb1),
					    DOCA_GPU_RDMA_WRITE_FLAG_IMM, 0, 0, 0),
			 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_commit_strong(a->h, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_commit_strong(a->h, 1), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_wait_all(a->h, &n), DOCA_SUCCESS);
	assert_int_equal(n, 2);
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r0, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, &imm, &conn), DOCA_SUCCESS);
	assert_int_equal(n, 1);
	assert_int_equal(imm, htonl(0xa0));
	assert_int_equal(conn, 0);
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r1, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, &imm, &conn), DOCA_SUCCESS);
	assert_int_equal(n, 1);
	assert_int_equal(imm, htonl(0xb1));
	assert_memory_equal(b->f->buf, a->f->buf, E(2));
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 2, rfx_remote(a, 1), 0, rfx_local(a, 1), 0, 8, 0, 0, 0, 0, 0),
			 DOCA_ERROR_INVALID_VALUE); /* no connection 2 */
	rfx_rdma_stop(&b1);
}

/*
 * One context with two connections (peers b and b1) shares its receives: messages from either
 * peer consume the next posted receive, and recv_wait_all names the connection each came on.
 * Then three rounds of 40 (more than the 64-entry queue in all): the SRQ and its CQ wrap.
 */
static void test_recv_shared(void **state)
{
	struct rfx_side *s = *state, *a = &s[0], *b = &s[1];
	struct rfx_side b1 = {.f = b->f};
	struct doca_gpu_dev_rdma_r *r = NULL;
	uint32_t n = 0, imm[40], conn[40];
	const uint32_t len[3] = {100, 200, 300};

	two_peers(a, b, &b1);
	assert_int_equal(ogda_dev_rdma_get_recv(a->h, &r), DOCA_SUCCESS);
	for (uint32_t k = 0; k < 3; k++)
		assert_int_equal(ogda_dev_rdma_recv(r, rfx_local(a, k), RFX_ELEM, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv_commit_strong(r), DOCA_SUCCESS);
	dmafx_fill(b->f->buf + E(4), E(3), 11);
	for (uint32_t k = 0; k < 3; k++) {
		struct doca_gpu_dev_rdma *h = k == 1 ? b1.h : b->h;

		assert_int_equal(ogda_dev_rdma_send(h, 0, rfx_local(b, 4 + k), 0, len[k], htonl(0xb0 + k),
						    DOCA_GPU_RDMA_SEND_FLAG_IMM, 0, 0),
				 DOCA_SUCCESS);
		assert_int_equal(ogda_dev_rdma_commit_strong(h, 0), DOCA_SUCCESS);
		assert_int_equal(ogda_dev_rdma_wait_all(h, &n), DOCA_SUCCESS);
		assert_int_equal(n, 1);
	}
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, imm, conn), DOCA_SUCCESS);
	assert_int_equal(n, 3);
	for (uint32_t k = 0; k < 3; k++) {
		assert_int_equal(imm[k], htonl(0xb0 + k));
		assert_int_equal(conn[k], k == 1 ? 1 : 0);
		assert_memory_equal(a->f->buf + E(k), b->f->buf + E(4 + k), len[k]);
	}
	for (uint32_t round = 0; round < 3; round++) {
		for (uint32_t k = 0; k < 40; k++)
			assert_int_equal(ogda_dev_rdma_recv(r, rfx_local(a, k % RFX_ELEMS), RFX_ELEM, 0, 0, 0), DOCA_SUCCESS);
		assert_int_equal(ogda_dev_rdma_recv_commit_strong(r), DOCA_SUCCESS);
		for (uint32_t k = 0; k < 40; k++) {
			struct doca_gpu_dev_rdma *h = k < 20 ? b->h : b1.h;
			uint32_t v = round * 100 + k;

			assert_int_equal(ogda_dev_rdma_send_inl(h, 0, (const uint8_t *)&v, sizeof(v), htonl(v),
								DOCA_GPU_RDMA_SEND_FLAG_IMM, 0, 0),
					 DOCA_SUCCESS);
			if (k == 19 || k == 39) {
				assert_int_equal(ogda_dev_rdma_commit_strong(h, 0), DOCA_SUCCESS);
				assert_int_equal(ogda_dev_rdma_wait_all(h, &n), DOCA_SUCCESS);
				assert_int_equal(n, 20);
			}
		}
		memset(imm, 0, sizeof(imm));
		assert_int_equal(ogda_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, imm, conn),
				 DOCA_SUCCESS);
		assert_int_equal(n, 40);
		for (uint32_t k = 0; k < 40; k++) {
			assert_int_equal(imm[k], htonl(round * 100 + k));
			assert_int_equal(conn[k], k < 20 ? 0 : 1);
		}
	}
	rfx_rdma_stop(&b1);
}

/* doca_gpu_dev_buf_create: descriptors made by device code carry a write like an array's elements. */
static void test_buf_create(void **state)
{
	struct rfx_side *s = *state, *a = &s[0], *b = &s[1];
	struct doca_gpu_buf *src = NULL, *dst = NULL;
	uint32_t n = 0, mkey = 0;

	dmafx_fill(a->f->buf + E(3), RFX_ELEM, 21);
	assert_int_equal(ogda_dev_buf_mkey(rfx_local(a, 0), &mkey), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_buf_create((uintptr_t)(a->f->buf + E(3) + 100), mkey, &src), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_buf_mkey(rfx_remote(a, 0), &mkey), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_buf_create((uintptr_t)rfx_remote(a, 7)->addr + 8, mkey, &dst), DOCA_SUCCESS);
	assert_int_equal(dst->mkey_be, rfx_remote(a, 7)->mkey_be);
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 0, dst, 0, src, 0, 300, 0, 0, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_commit_strong(a->h, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_wait_all(a->h, &n), DOCA_SUCCESS);
	assert_memory_equal(b->f->buf + E(7) + 8, a->f->buf + E(3) + 100, 300);
	assert_int_equal(ogda_dev_buf_destroy(src), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_buf_destroy(dst), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_buf_create(0, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_buf_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
}

/* A bad remote key: the error completion's syndrome; later operations fail, nothing hangs. */
static void test_error_syndrome(void **state)
{
	struct rfx_side *s = *state, *a = &s[0];
	struct doca_gpu_buf bad = *rfx_remote(a, 0);
	uint8_t syn = 0;
	uint32_t n = 0;

	assert_int_equal(ogda_dev_rdma_last_error(a->h, 0, &syn), DOCA_ERROR_NOT_FOUND);
	bad.mkey_be ^= 0x00ff0000u;
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 0, &bad, 0, rfx_local(a, 0), 0, 64, 0, 0, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 0, rfx_remote(a, 1), 0, rfx_local(a, 0), 0, 64, 0, 0, 0, 0, 0),
			 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_commit_strong(a->h, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_wait_all(a->h, &n), DOCA_ERROR_IO_FAILED);
	assert_int_equal(ogda_dev_rdma_last_error(a->h, 0, &syn), DOCA_SUCCESS);
	assert_int_equal(syn, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
}

/* A message longer than the posted receive: the receive completes in error with its syndrome. */
static void test_recv_error(void **state)
{
	struct rfx_side *s = *state, *a = &s[0], *b = &s[1];
	struct doca_gpu_dev_rdma_r *r = NULL;
	uint8_t syn = 0;
	uint32_t n = 9;

	assert_int_equal(ogda_dev_rdma_get_recv(b->h, &r), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv_last_error(r, &syn), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(ogda_dev_rdma_recv(r, rfx_local(b, 0), 16, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv_commit_strong(r), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_send(a->h, 0, rfx_local(a, 0), 0, 64, 0, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_commit_strong(a->h, 0), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, NULL, NULL),
			 DOCA_ERROR_IO_FAILED);
	assert_int_equal(n, 0);
	assert_int_equal(ogda_dev_rdma_recv_last_error(r, &syn), DOCA_SUCCESS);
	assert_int_equal(syn, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
	assert_int_equal(ogda_dev_rdma_wait_all(a->h, &n), DOCA_ERROR_IO_FAILED); /* the sender sees it too */
}

/* Device functions reject bad arguments. */
static void test_device_bad_input(void **state)
{
	struct rfx_side *s = *state, *a = &s[0];
	struct doca_gpu_dev_rdma_r *r = NULL;
	uint8_t big[64] = {0};
	uint32_t p, m, n;

	assert_int_equal(ogda_dev_rdma_xfer(NULL, 0, rfx_remote(a, 0), 0, rfx_local(a, 0), 0, 8, 0, 0, 0, 0, 0),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 1, rfx_remote(a, 0), 0, rfx_local(a, 0), 0, 8, 0, 0, 0, 0, 0),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 0, NULL, 0, rfx_local(a, 0), 0, 8, 0, 0, 0, 0, 0),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_xfer(a->h, 0, rfx_remote(a, 0), 0, rfx_local(a, 0), 0, (1ull << 30) + 1, 0, 0, 0,
					    0, 0),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_write_inl(a->h, 0, rfx_remote(a, 0), 0, big, 29, 0, 0, 0, 0),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_send_inl(a->h, 0, big, 45, 0, 0, 0, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_send(a->h, 0, NULL, 0, 8, 0, 0, 0, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_commit_strong(a->h, 3), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_commit_weak(NULL, 0, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_wait_all(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_get_info(a->h, 0, NULL, &m), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_get_recv(NULL, &r), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_get_recv(a->h, &r), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_rdma_recv(r, NULL, 8, 0, 0, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_recv(NULL, NULL, 0, 0, 0, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r, 2, &n, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_recv_wait_all(r, 0, NULL, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_rdma_recv_get_info(r, &p, &m), DOCA_SUCCESS);
	assert_int_equal(m, 63);
	assert_int_equal(p, 0);
	assert_int_equal(ogda_dev_rdma_recv_commit_weak(r, 65), DOCA_ERROR_INVALID_VALUE);
}

/* Host API: states, bad input, mmap export errors. */
static void test_host_api(void **state)
{
	struct cfx *f = *state;
	struct doca_rdma *rdma = NULL;
	struct doca_gpu_dev_rdma *h;
	struct doca_rdma_connection *c;
	struct doca_mmap *m, *rm = NULL;
	const void *d;
	size_t l;
	uint8_t junk[64] = {0};
	uint32_t id;

	assert_int_equal(doca_rdma_create(NULL, &rdma), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_create(f->dev, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_null(doca_rdma_as_ctx(NULL));
	assert_int_equal(doca_rdma_connection_get_id(NULL, &id), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_create(f->dev, &rdma), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_set_permissions(rdma, 1u << 5), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_set_max_num_connections(rdma, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_set_max_num_connections(rdma, OPENGDA_RDMA_MAX_CONNECTIONS + 1),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_set_send_queue_size(rdma, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_set_recv_queue_size(rdma, OPENGDA_RDMA_MAX_QUEUE_SIZE + 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_set_send_queue_size(NULL, 8), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_get_gpu_handle(rdma, &h), DOCA_ERROR_BAD_STATE);
	{ /* getters: the defaults and what was set */
		uint32_t v = 0;
		uint16_t nc = 0;
		uint8_t grh = 0;

		assert_int_equal(doca_rdma_set_send_queue_size(rdma, 100), DOCA_SUCCESS);
		assert_int_equal(doca_rdma_get_send_queue_size(rdma, &v), DOCA_SUCCESS);
		assert_int_equal(v, 100);
		assert_int_equal(doca_rdma_get_recv_queue_size(rdma, &v), DOCA_SUCCESS);
		assert_int_equal(v, OPENGDA_RDMA_DEFAULT_QUEUE_SIZE);
		assert_int_equal(doca_rdma_get_permissions(rdma, &v), DOCA_SUCCESS);
		assert_int_equal(v, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		assert_int_equal(doca_rdma_get_gid_index(rdma, &v), DOCA_SUCCESS);
		assert_int_equal(v, 0);
		assert_int_equal(doca_rdma_get_grh_enabled(rdma, &grh), DOCA_SUCCESS);
		assert_int_equal(grh, 1);
		assert_int_equal(doca_rdma_get_max_num_connections(rdma, &nc), DOCA_SUCCESS);
		assert_int_equal(nc, 1);
		assert_int_equal(doca_rdma_get_send_queue_size(NULL, &v), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_rdma_get_max_num_connections(rdma, NULL), DOCA_ERROR_INVALID_VALUE);
	}
	assert_int_equal(doca_rdma_export(rdma, &d, &l, &c), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_ctx_start(doca_rdma_as_ctx(rdma)), DOCA_ERROR_NOT_SUPPORTED); /* no GPU data path */
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_rdma_as_ctx(rdma), f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_rdma_as_ctx(rdma)), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_set_permissions(rdma, RFX_ACCESS), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_rdma_set_gid_index(rdma, 0), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_rdma_destroy(rdma), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_rdma_export(rdma, &d, &l, &c), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_connection_get_id(c, &id), DOCA_SUCCESS);
	assert_int_equal(id, 0);
	assert_int_equal(doca_rdma_connect(rdma, junk, sizeof(junk), c), DOCA_ERROR_INVALID_VALUE);
	memcpy(junk, d, l);
	junk[0] ^= 1;
	assert_int_equal(doca_rdma_connect(rdma, junk, l, c), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_rdma_connect(rdma, d, l, c), DOCA_SUCCESS); /* to itself: a loopback */
	assert_int_equal(doca_rdma_connect(rdma, d, l, c), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_ctx_stop(doca_rdma_as_ctx(rdma)), DOCA_SUCCESS);
	assert_int_equal(doca_rdma_destroy(rdma), DOCA_SUCCESS);

	/* mmap export */
	m = cfx_mmap(f, 0, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(doca_mmap_export_rdma(m, f->dev, &d, &l), DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(doca_mmap_export_rdma(NULL, f->dev, &d, &l), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_export_rdma(m, f->dev, &d, &l), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
	m = cfx_mmap(f, 0, 4096, RFX_ACCESS);
	assert_int_equal(doca_mmap_export_rdma(m, f->dev, &d, &l), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_create_from_export(NULL, d, l - 1, f->dev, &rm), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_mmap_create_from_export(NULL, junk, l, f->dev, &rm), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_mmap_create_from_export(NULL, d, l, f->dev, &rm), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_export_rdma(rm, f->dev, &d, &l), DOCA_ERROR_BAD_STATE); /* a peer's map */
	assert_int_equal(doca_mmap_destroy(rm), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_send_imm, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_read_inline, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_weak_wrap, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_strong_threads, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_two_connections, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_recv_shared, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_buf_create, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_error_syndrome, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_recv_error, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_device_bad_input, rfx_setup, rfx_teardown),
		cmocka_unit_test_setup_teardown(test_host_api, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
