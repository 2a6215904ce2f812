/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PDs, memory regions (opengda_mr_*), UMEMs and UARs on the software NIC: life cycle,
 * refusals while in use, access flags (checked at registration and enforced by the NIC),
 * keys, dmabuf (not supported on the software NIC), UAR kinds and register addresses.
 */
#include "verbs_fixture.h"

#include "test_util.h"

#include <infiniband/verbs.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cmocka.h>

static char logbuf[16384];

/* ---- PD ---- */

static void test_pd_create_destroy(void **state)
{
	struct vfx f;
	struct doca_verbs_pd *pd2 = NULL, *pd3 = NULL;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_pd_create(f.ctx, &pd2), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_create(f.ctx, &pd3), DOCA_SUCCESS);
	assert_ptr_not_equal(pd2, pd3);
	assert_int_equal(doca_verbs_pd_destroy(pd3), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_pd_destroy(pd2), DOCA_SUCCESS);
	vfx_close(&f);
}

static void test_pd_bad_input(void **state)
{
	struct vfx f;
	struct doca_verbs_pd *pd = NULL;

	(void)state;
	vfx_open(&f);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_pd_create(NULL, &pd), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_pd_create(f.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_pd_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(pd);
	assert_non_null(strstr(logbuf, "verbs_context and verbs_pd must not be NULL"));
	assert_non_null(strstr(logbuf, "verbs_pd must not be NULL"));
	vfx_close(&f);
}

static void expect_pd_in_use(struct doca_verbs_pd *pd, unsigned int users)
{
	char want[96];

	stderr_capture_begin();
	assert_int_equal(doca_verbs_pd_destroy(pd), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	snprintf(want, sizeof(want), "is still used by %u QPs, SRQs, memory regions or devices", users);
	assert_non_null(strstr(logbuf, "swnic0: PD 0x"));
	assert_non_null(strstr(logbuf, want));
}

static void test_pd_in_use_by_mr(void **state)
{
	struct vfx f;
	struct vfx_buf a, b;

	(void)state;
	vfx_open(&f);
	vfx_buf_create(&f, 4096, 0, &a);
	vfx_buf_create(&f, 4096, 0, &b);
	expect_pd_in_use(f.pd, 2);
	vfx_buf_destroy(&a);
	expect_pd_in_use(f.pd, 1);
	vfx_buf_destroy(&b);
	vfx_close(&f); /* the PD goes now */
}

static void test_pd_in_use_by_qp_and_srq(void **state)
{
	struct vfx f;
	struct doca_verbs_cq *cq;
	struct doca_verbs_qp *qp;
	struct doca_verbs_srq_init_attr *sa = NULL;
	struct doca_verbs_srq *srq = NULL;

	(void)state;
	vfx_open(&f);
	cq = vfx_cq(&f, 8, NULL, NULL);
	qp = vfx_qp(&f, DOCA_VERBS_QP_TYPE_RC, cq, cq, 4, 4);
	expect_pd_in_use(f.pd, 1);
	assert_int_equal(doca_verbs_srq_init_attr_create(&sa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_pd(sa, f.pd), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_set_srq_wr(sa, 4), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_create(f.ctx, sa, &srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_srq_init_attr_destroy(sa), DOCA_SUCCESS);
	expect_pd_in_use(f.pd, 2);
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	expect_pd_in_use(f.pd, 1);
	assert_int_equal(doca_verbs_srq_destroy(srq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	vfx_close(&f);
}

/* doca_verbs_dev_open: a doca_dev on the PD's device that holds the PD until closed. */
static void test_pd_in_use_by_verbs_dev(void **state)
{
	struct vfx f;
	struct doca_dev *dev = NULL, *dev2 = NULL;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	bool sw = false;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_dev_open(f.pd, &dev), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_dev_open(f.pd, &dev2), DOCA_SUCCESS);
	assert_int_equal(doca_devinfo_get_ibdev_name(doca_dev_as_devinfo(dev), name, sizeof(name)), DOCA_SUCCESS);
	assert_string_equal(name, "swnic0");
	assert_int_equal(opengda_devinfo_is_swnic(doca_dev_as_devinfo(dev), &sw), DOCA_SUCCESS);
	assert_true(sw);
	expect_pd_in_use(f.pd, 2);
	assert_int_equal(doca_verbs_dev_close(dev), DOCA_SUCCESS);
	expect_pd_in_use(f.pd, 1);
	/* doca_dev_close() closes either kind of doca_dev. */
	assert_int_equal(doca_dev_close(dev2), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_dev_open(NULL, &dev), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_dev_open(f.pd, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "verbs_pd and dev must not be NULL"));
	vfx_close(&f);
}

/* ---- MR ---- */

static void test_mr_keys(void **state)
{
	struct vfx f;
	struct vfx_buf a, b;

	(void)state;
	vfx_open(&f);
	vfx_buf_create(&f, 4096, 0, &a);
	vfx_buf_create(&f, 8192, 0, &b);
	assert_int_not_equal(a.lkey, b.lkey);
	assert_int_not_equal(a.rkey, b.rkey);
	vfx_buf_destroy(&a);
	vfx_buf_destroy(&b);
	vfx_close(&f);
}

static void test_mr_access_flags(void **state)
{
	static const uint32_t ok[] = {
		0,
		IBV_ACCESS_LOCAL_WRITE,
		IBV_ACCESS_REMOTE_READ,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC,
	};
	struct vfx f;
	uint8_t *mem = calloc(1, 4096);
	struct opengda_mr *mr = NULL;

	(void)state;
	assert_non_null(mem);
	vfx_open(&f);
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(opengda_mr_create(f.pd, mem, 4096, ok[i], &mr), DOCA_SUCCESS);
		assert_int_equal(opengda_mr_destroy(mr), DOCA_SUCCESS);
	}
	mr = NULL;
	stderr_capture_begin();
	assert_int_equal(opengda_mr_create(f.pd, mem, 4096, IBV_ACCESS_REMOTE_WRITE, &mr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_create(f.pd, mem, 4096, IBV_ACCESS_REMOTE_ATOMIC, &mr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_create(f.pd, mem, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND, &mr),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_create(f.pd, mem, 4096, 0x80000000u, &mr), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(mr);
	assert_non_null(strstr(logbuf, "swnic0: remote write and remote atomic access need IBV_ACCESS_LOCAL_WRITE too"));
	assert_non_null(strstr(logbuf, "swnic0: access 0x11 has bits other than IBV_ACCESS_LOCAL_WRITE"));
	assert_non_null(strstr(logbuf, "swnic0: access 0x80000000 has bits other than"));
	/* The refusals took no PD reference. */
	vfx_close(&f);
	free(mem);
}

static void test_mr_bad_input(void **state)
{
	struct vfx f;
	uint8_t mem[64];
	struct opengda_mr *mr = NULL;
	uint32_t key = 0x1234;

	(void)state;
	vfx_open(&f);
	stderr_capture_begin();
	assert_int_equal(opengda_mr_create(NULL, mem, sizeof(mem), 0, &mr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_create(f.pd, NULL, sizeof(mem), 0, &mr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_create(f.pd, mem, sizeof(mem), 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_create(f.pd, mem, 0, 0, &mr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_get_lkey(NULL, &key), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_get_rkey(NULL, &key), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(mr);
	assert_int_equal(key, 0x1234);
	assert_non_null(strstr(logbuf, "pd, addr and mr must not be NULL"));
	assert_non_null(strstr(logbuf, "swnic0: a memory region needs a length above 0"));
	assert_non_null(strstr(logbuf, "mr and lkey must not be NULL"));
	assert_non_null(strstr(logbuf, "mr and rkey must not be NULL"));
	assert_non_null(strstr(logbuf, "mr must not be NULL"));

	assert_int_equal(opengda_mr_create(f.pd, mem, sizeof(mem), IBV_ACCESS_LOCAL_WRITE, &mr), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(opengda_mr_get_lkey(mr, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_get_rkey(mr, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_int_equal(opengda_mr_destroy(mr), DOCA_SUCCESS);
	vfx_close(&f);
}

static void test_mr_dmabuf_not_supported(void **state)
{
	struct vfx f;
	struct opengda_mr *mr = NULL;
	int fd = eventfd(0, EFD_CLOEXEC); /* any open fd: the software NIC refuses before using it */

	(void)state;
	assert_true(fd >= 0);
	vfx_open(&f);
	stderr_capture_begin();
	assert_int_equal(opengda_mr_create_dmabuf(f.pd, fd, 0, 4096, 0x10000, IBV_ACCESS_LOCAL_WRITE, &mr),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(opengda_mr_create_dmabuf(f.pd, -1, 0, 4096, 0x10000, IBV_ACCESS_LOCAL_WRITE, &mr),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_create_dmabuf(NULL, fd, 0, 4096, 0x10000, 0, &mr), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_create_dmabuf(f.pd, fd, 0, 4096, 0x10000, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(opengda_mr_create_dmabuf(f.pd, fd, 0, 0, 0x10000, 0, &mr), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(mr);
	assert_non_null(strstr(logbuf, "MR registration from a dmabuf (fd"));
	assert_non_null(strstr(logbuf, "is not supported by the software NIC"));
	assert_non_null(strstr(logbuf, "swnic0: dmabuf fd -1 is not a file descriptor"));
	assert_non_null(strstr(logbuf, "pd and mr must not be NULL"));
	vfx_close(&f); /* no PD reference was left behind */
	close(fd);
}

/*
 * The NIC enforces what was registered: an RDMA WRITE lands in a region registered with
 * remote write, and one to a region without it fails with a remote access error.
 */
static void test_mr_access_enforced_by_nic(void **state)
{
	struct vfx f;
	struct vfx_pair p;
	struct vfx_buf src, dst;
	uint8_t *ro = calloc(1, 256);
	struct opengda_mr *ro_mr = NULL;
	uint32_t ro_rkey = 0;
	struct ibv_sge sge;
	struct ibv_send_wr wr, *bad = NULL;
	struct ibv_wc wc[2];

	(void)state;
	assert_non_null(ro);
	vfx_open(&f);
	vfx_pair_create(&f, DOCA_VERBS_QP_TYPE_RC, NULL, &p);
	vfx_buf_create(&f, 256, 0x5c, &src);
	vfx_buf_create(&f, 256, 0x00, &dst);
	assert_int_equal(opengda_mr_create(f.pd, ro, 256, IBV_ACCESS_REMOTE_READ, &ro_mr), DOCA_SUCCESS);
	assert_int_equal(opengda_mr_get_rkey(ro_mr, &ro_rkey), DOCA_SUCCESS);

	memset(&wr, 0, sizeof(wr));
	sge.addr = (uintptr_t)src.addr;
	sge.length = 200;
	sge.lkey = src.lkey;
	wr.wr_id = 1;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)dst.addr + 16;
	wr.wr.rdma.rkey = dst.rkey;
	assert_int_equal(doca_verbs_bridge_post_send(p.qp[0], &wr, &bad), 0);
	assert_int_equal(vfx_poll(p.cq[0], wc, 1, 5000), 1);
	assert_int_equal(wc[0].status, IBV_WC_SUCCESS);
	assert_int_equal(wc[0].wr_id, 1);
	for (size_t i = 0; i < 256; i++)
		assert_int_equal(dst.addr[i], i >= 16 && i < 216 ? 0x5c : 0x00);

	wr.wr_id = 2;
	wr.wr.rdma.remote_addr = (uintptr_t)ro;
	wr.wr.rdma.rkey = ro_rkey;
	assert_int_equal(doca_verbs_bridge_post_send(p.qp[0], &wr, &bad), 0);
	assert_int_equal(vfx_poll(p.cq[0], wc, 1, 5000), 1);
	assert_int_equal(wc[0].status, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(wc[0].wr_id, 2);
	for (size_t i = 0; i < 256; i++)
		assert_int_equal(ro[i], 0);

	assert_int_equal(opengda_mr_destroy(ro_mr), DOCA_SUCCESS);
	vfx_buf_destroy(&src);
	vfx_buf_destroy(&dst);
	/* Both QPs may hold async events of the error: take and acknowledge them. */
	{
		struct doca_verbs_async_event ev;

		while (doca_verbs_get_async_event(f.ctx, &ev) == DOCA_SUCCESS)
			assert_int_equal(doca_verbs_ack_async_event(&ev), DOCA_SUCCESS);
	}
	vfx_pair_destroy(&p);
	vfx_close(&f);
	free(ro);
}

/* ---- UMEM ---- */

static void test_umem_create_getters(void **state)
{
	struct vfx f;
	void *mem = NULL, *mem2 = NULL, *addr = NULL;
	struct doca_verbs_umem *u = NULL, *u2 = NULL;
	uint32_t id = 0, id2 = 0;
	size_t size = 0;

	(void)state;
	assert_int_equal(posix_memalign(&mem, 4096, 3 * 4096), 0);
	assert_int_equal(posix_memalign(&mem2, 4096, 4096), 0);
	vfx_open(&f);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 3 * 4096, IBV_ACCESS_LOCAL_WRITE,
						(int)DOCA_VERBS_DMABUF_INVALID_FD, 0, &u),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem2, 100, 0, -1, 0, &u2), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_get_id(u, &id), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_get_id(u2, &id2), DOCA_SUCCESS);
	assert_int_not_equal(id, id2);
	assert_int_equal(doca_verbs_umem_get_size(u, &size), DOCA_SUCCESS);
	assert_int_equal(size, 3 * 4096);
	assert_int_equal(doca_verbs_umem_get_size(u2, &size), DOCA_SUCCESS);
	assert_int_equal(size, 100);
	assert_int_equal(doca_verbs_umem_get_address(u, &addr), DOCA_SUCCESS);
	assert_ptr_equal(addr, mem);
	assert_int_equal(doca_verbs_umem_get_address(u2, &addr), DOCA_SUCCESS);
	assert_ptr_equal(addr, mem2);
	assert_int_equal(doca_verbs_umem_destroy(u2), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	vfx_close(&f);
	free(mem);
	free(mem2);
}

static void test_umem_bad_input(void **state)
{
	struct vfx f;
	void *mem = NULL, *addr = (void *)0x1;
	struct doca_verbs_umem *u = NULL;
	uint32_t id = 77;
	size_t size = 77;
	int fd = eventfd(0, EFD_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(posix_memalign(&mem, 4096, 4096), 0);
	vfx_open(&f);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_umem_create(NULL, mem, 4096, 0, -1, 0, &u), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 4096, 0, -1, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_umem_create(f.ctx, NULL, 4096, 0, -1, 0, &u), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 0, 0, -1, 0, &u), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 4096, IBV_ACCESS_MW_BIND, -1, 0, &u),
			 DOCA_ERROR_INVALID_VALUE);
	/* dmabuf: not on the software NIC (with or without an address) */
	assert_int_equal(doca_verbs_umem_create(f.ctx, NULL, 4096, IBV_ACCESS_LOCAL_WRITE, fd, 0, &u),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 4096, IBV_ACCESS_LOCAL_WRITE, fd, 0, &u),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_verbs_umem_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_umem_get_id(NULL, &id), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_umem_get_size(NULL, &size), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_umem_get_address(NULL, &addr), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(u);
	assert_int_equal(id, 77);
	assert_int_equal(size, 77);
	assert_ptr_equal(addr, (void *)0x1);
	assert_non_null(strstr(logbuf, "verbs_context, umem and address (or a dmabuf fd) must not be NULL"));
	assert_non_null(strstr(logbuf, "swnic0: a UMEM needs a size above 0"));
	assert_non_null(strstr(logbuf, "swnic0: UMEM access 0x10 has bits other than IBV_ACCESS_*"));
	assert_non_null(strstr(logbuf, "umem registration from a dmabuf (fd"));
	assert_non_null(strstr(logbuf, "umem must not be NULL"));
	assert_non_null(strstr(logbuf, "umem and umem_id must not be NULL"));
	assert_non_null(strstr(logbuf, "umem and umem_size must not be NULL"));
	assert_non_null(strstr(logbuf, "umem and umem_address must not be NULL"));

	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 4096, 0, -1, 0, &u), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_umem_get_id(u, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_umem_get_size(u, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_umem_get_address(u, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	vfx_close(&f);
	free(mem);
	close(fd);
}

/*
 * dmabuf_fd: (int)DOCA_VERBS_DMABUF_INVALID_FD (-1) is the one "no dmabuf" value; any other
 * negative number is no file descriptor and is refused with a log line, not taken for -1.
 */
static void test_umem_dmabuf_fd_sentinel(void **state)
{
	static const int bad[] = {-2, -100, INT_MIN};
	struct vfx f;
	void *mem = NULL;
	struct doca_verbs_umem *u = NULL;

	(void)state;
	assert_int_equal(posix_memalign(&mem, 4096, 4096), 0);
	vfx_open(&f);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 4096, IBV_ACCESS_LOCAL_WRITE,
						(int)DOCA_VERBS_DMABUF_INVALID_FD, 0, &u),
			 DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[128];

		u = NULL;
		stderr_capture_begin();
		assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 4096, IBV_ACCESS_LOCAL_WRITE, bad[i], 0, &u),
				 DOCA_ERROR_INVALID_VALUE);
		stderr_capture_end(logbuf, sizeof(logbuf));
		assert_null(u);
		snprintf(want, sizeof(want), "swnic0: dmabuf_fd %d is neither a file descriptor nor", bad[i]);
		assert_non_null(strstr(logbuf, want));
	}
	vfx_close(&f);
	free(mem);
}

static void expect_umem_in_use(struct doca_verbs_umem *u, unsigned int users)
{
	char want[64];

	stderr_capture_begin();
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	snprintf(want, sizeof(want), "still holds %u queues or doorbell records", users);
	assert_non_null(strstr(logbuf, "swnic0: UMEM 0x"));
	assert_non_null(strstr(logbuf, want));
}

/* A UMEM holding a CQ ring and another CQ's doorbell record stays until both CQs go. */
static void test_umem_in_use_by_cq(void **state)
{
	struct vfx f;
	void *mem = NULL;
	struct doca_verbs_umem *u = NULL;
	struct doca_verbs_cq_attr *a = NULL;
	struct doca_verbs_cq *cq_ring = NULL, *cq_dbr = NULL;

	(void)state;
	assert_int_equal(posix_memalign(&mem, 4096, 4 * 4096), 0);
	vfx_open(&f);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 4 * 4096, IBV_ACCESS_LOCAL_WRITE, -1, 0, &u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, u, 4096), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq_ring), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	expect_umem_in_use(u, 1);
	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_dbr_umem(a, u, 8), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq_dbr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	expect_umem_in_use(u, 2);
	assert_int_equal(doca_verbs_cq_destroy(cq_ring), DOCA_SUCCESS);
	expect_umem_in_use(u, 1);
	assert_int_equal(doca_verbs_cq_destroy(cq_dbr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	vfx_close(&f);
	free(mem);
}

/* ---- UAR ---- */

static void test_uar_all_types(void **state)
{
	static const enum doca_verbs_uar_allocation_type types[] = {
		DOCA_VERBS_UAR_ALLOCATION_TYPE_BLUEFLAME,
		DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE,
		DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE_DEDICATED,
	};
	struct vfx f;
	struct doca_verbs_uar *u[3];
	uint32_t ids[3];

	(void)state;
	vfx_open(&f);
	for (int i = 0; i < 3; i++) {
		void *reg = NULL, *dbr_less = NULL;

		assert_int_equal(doca_verbs_uar_create(f.ctx, types[i], &u[i]), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_uar_id_get(u[i], &ids[i]), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_uar_reg_addr_get(u[i], &reg), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_uar_dbr_less_addr_get(u[i], &dbr_less), DOCA_SUCCESS);
		/* One 4 KiB page: the doorbell register at + 0x800, the DBR-less one at + 0x600. */
		assert_int_equal((uintptr_t)reg & 0xfffu, 0x800u);
		assert_int_equal((uintptr_t)dbr_less & 0xfffu, 0x600u);
		assert_int_equal((uintptr_t)reg - (uintptr_t)dbr_less, 0x200u);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(ids[i], ids[j]);
	}
	for (int i = 0; i < 3; i++)
		assert_int_equal(doca_verbs_uar_destroy(u[i]), DOCA_SUCCESS);
	vfx_close(&f);
}

static void test_uar_bad_input(void **state)
{
	struct vfx f;
	struct doca_verbs_uar *u = NULL;
	uint32_t id = 5;
	void *p = (void *)0x1;

	(void)state;
	vfx_open(&f);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_uar_create(f.ctx, (enum doca_verbs_uar_allocation_type)3, &u),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_uar_create(f.ctx, (enum doca_verbs_uar_allocation_type)-1, &u),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_uar_create(NULL, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, &u),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_uar_create(f.ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_uar_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_uar_id_get(NULL, &id), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_uar_reg_addr_get(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_uar_dbr_less_addr_get(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(u);
	assert_int_equal(id, 5);
	assert_ptr_equal(p, (void *)0x1);
	assert_non_null(strstr(logbuf, "swnic0: UAR allocation type 3 is not BLUEFLAME, NONCACHE or NONCACHE_DEDICATED"));
	assert_non_null(strstr(logbuf, "swnic0: UAR allocation type -1 is not"));
	assert_non_null(strstr(logbuf, "verbs_context and uar must not be NULL"));
	assert_non_null(strstr(logbuf, "uar must not be NULL"));
	assert_non_null(strstr(logbuf, "uar and uar_id must not be NULL"));
	assert_non_null(strstr(logbuf, "uar and reg_addr must not be NULL"));
	assert_non_null(strstr(logbuf, "uar and dbr_less_addr must not be NULL"));

	assert_int_equal(doca_verbs_uar_create(f.ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_BLUEFLAME, &u), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_uar_id_get(u, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_uar_reg_addr_get(u, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_uar_dbr_less_addr_get(u, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_int_equal(doca_verbs_uar_destroy(u), DOCA_SUCCESS);
	vfx_close(&f);
}

static void expect_uar_in_use(struct doca_verbs_uar *u, unsigned int users)
{
	char want[64];

	stderr_capture_begin();
	assert_int_equal(doca_verbs_uar_destroy(u), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	snprintf(want, sizeof(want), "is still used by %u CQs or QPs", users);
	assert_non_null(strstr(logbuf, "swnic0: UAR page 0x"));
	assert_non_null(strstr(logbuf, want));
}

/* A user UAR serving a CQ and a QP: their doorbells are in it, and it stays until both go. */
static void test_uar_in_use_by_cq_and_qp(void **state)
{
	struct vfx f;
	struct doca_verbs_uar *u = NULL;
	struct doca_verbs_cq_attr *ca = NULL;
	struct doca_verbs_qp_init_attr *qa;
	struct doca_verbs_cq *cq = NULL;
	struct doca_verbs_qp *qp = NULL;
	void *reg = NULL, *qp_uar = NULL;
	uint64_t *cq_db = NULL;
	uint32_t *ci = NULL, *arm = NULL;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_uar_create(f.ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, &u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_reg_addr_get(u, &reg), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_create(&ca), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(ca, 8), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_uar(ca, u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, ca, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(ca), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_dbr_addr(cq, &cq_db, &ci, &arm), DOCA_SUCCESS);
	assert_ptr_equal(cq_db, (uint8_t *)reg - 0x800 + 0x20);
	expect_uar_in_use(u, 1);

	qa = vfx_qp_init_attr(&f, DOCA_VERBS_QP_TYPE_RC, cq, cq, 4, 4);
	assert_int_equal(doca_verbs_qp_init_attr_set_external_uar(qa, u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_create(f.ctx, qa, &qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_init_attr_destroy(qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_uar_addr(qp, &qp_uar), DOCA_SUCCESS);
	assert_ptr_equal(qp_uar, reg);
	expect_uar_in_use(u, 2);
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	expect_uar_in_use(u, 1);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_destroy(u), DOCA_SUCCESS);
	vfx_close(&f);
}

/* Objects of one context are refused by another: UMEM and UAR. */
static void test_mem_of_another_context(void **state)
{
	struct vfx f;
	struct doca_verbs_context *other = NULL;
	struct doca_verbs_uar *u = NULL;
	struct doca_verbs_umem *um = NULL;
	void *mem = NULL;
	struct doca_verbs_cq_attr *a = NULL;
	struct doca_verbs_cq *cq = NULL;

	(void)state;
	assert_int_equal(posix_memalign(&mem, 4096, 4096), 0);
	vfx_open(&f);
	assert_int_equal(doca_verbs_context_create(f.info, 0, &other), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_create(other, DOCA_VERBS_UAR_ALLOCATION_TYPE_NONCACHE, &u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_create(other, mem, 4096, IBV_ACCESS_LOCAL_WRITE, -1, 0, &um), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 8), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_uar(a, u), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "swnic0: the CQ's external UAR belongs to another context"));
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 8), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, um, 0), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "swnic0: CQ ring: the external UMEM belongs to another context"));
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	assert_null(cq);
	/* Nothing was taken: both go at once. */
	assert_int_equal(doca_verbs_uar_destroy(u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(um), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_context_destroy(other), DOCA_SUCCESS);
	vfx_close(&f);
	free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pd_create_destroy),
		cmocka_unit_test(test_pd_bad_input),
		cmocka_unit_test(test_pd_in_use_by_mr),
		cmocka_unit_test(test_pd_in_use_by_qp_and_srq),
		cmocka_unit_test(test_pd_in_use_by_verbs_dev),
		cmocka_unit_test(test_mr_keys),
		cmocka_unit_test(test_mr_access_flags),
		cmocka_unit_test(test_mr_bad_input),
		cmocka_unit_test(test_mr_dmabuf_not_supported),
		cmocka_unit_test(test_mr_access_enforced_by_nic),
		cmocka_unit_test(test_umem_create_getters),
		cmocka_unit_test(test_umem_bad_input),
		cmocka_unit_test(test_umem_dmabuf_fd_sentinel),
		cmocka_unit_test(test_umem_in_use_by_cq),
		cmocka_unit_test(test_uar_all_types),
		cmocka_unit_test(test_uar_bad_input),
		cmocka_unit_test(test_uar_in_use_by_cq_and_qp),
		cmocka_unit_test(test_mem_of_another_context),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
