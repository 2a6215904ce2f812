/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQs on the software NIC: attributes and their checks, sizes and rounding, the CQE ring
 * and the doorbell record placed in user UMEMs at exact offsets, external UARs, overrun
 * (error vs. ignored), collapsed CQs, completion channels of another context, getters.
 */
#include "verbs_fixture.h"

#include "opengda_mlx5.h"
#include "test_util.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

static char logbuf[16384];

#define CQE 64u

static struct doca_verbs_cq_attr *cq_attr(uint32_t size)
{
	struct doca_verbs_cq_attr *a = NULL;

	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, size), DOCA_SUCCESS);
	return a;
}

/* Every CQE of a fresh ring: 63 zero bytes, then op_own 0xF1 (invalid opcode, software owned). */
static void check_fresh_ring(const uint8_t *ring, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t b = 0; b < CQE - 1u; b++)
			if (ring[(size_t)i * CQE + b] != 0)
				fail_msg("CQE %u byte %u is 0x%02x, not 0", i, b, ring[(size_t)i * CQE + b]);
		assert_int_equal(ring[(size_t)i * CQE + CQE - 1u], 0xF1);
	}
}

static void test_sizes_and_rounding(void **state)
{
	static const uint32_t asked[] = {1, 2, 3, 5, 64, 65, 1000};
	static const uint32_t got[] = {1, 2, 4, 8, 64, 128, 1024};
	struct vfx f;

	(void)state;
	vfx_open(&f);
	for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); i++) {
		struct doca_verbs_cq_attr *a = cq_attr(asked[i]);
		struct doca_verbs_cq *cq = NULL;
		void *buf = NULL;
		uint32_t n = 0;
		uint8_t esz = 0;

		assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_get_wq(cq, &buf, &n, &esz), DOCA_SUCCESS);
		assert_int_equal(n, got[i]);
		assert_int_equal(esz, 64);
		assert_non_null(buf);
		check_fresh_ring(buf, n);
		assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	}
	vfx_close(&f);
}

static void test_size_limits(void **state)
{
	struct vfx f;
	struct doca_verbs_cq_attr *a = NULL;
	struct doca_verbs_cq *cq = NULL;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_cq_attr_create(&a), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 0), DOCA_ERROR_INVALID_VALUE);
	/* a fresh attribute object has size 0: create says how to set it */
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, (1u << 22) + 1u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(a, 0xffffffffu), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(cq);
	assert_non_null(strstr(logbuf, "cq_attr cq_size: 0 CQEs (at least 1)"));
	assert_non_null(strstr(logbuf, "swnic0: CQ size is 0: set it with doca_verbs_cq_attr_set_cq_size()"));
	assert_non_null(strstr(logbuf, "swnic0: CQ size 4194305 is above the device's max_cqe 4194304"));
	assert_non_null(strstr(logbuf, "swnic0: CQ size 4294967295 is above the device's max_cqe 4194304"));
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	vfx_close(&f);
}

/* The ring lies exactly at umem + offset; the bytes around it are left alone. */
static void test_external_umem_at_offset(void **state)
{
	const size_t usize = 4 * 4096, off = 3 * 64 + 4096;
	struct vfx f;
	uint8_t *mem = NULL;
	struct doca_verbs_umem *u = NULL;
	struct doca_verbs_cq_attr *a = cq_attr(32);
	struct doca_verbs_cq *cq = NULL;
	void *buf = NULL;
	uint32_t n = 0;
	uint8_t esz = 0;

	(void)state;
	assert_int_equal(posix_memalign((void **)&mem, 4096, usize), 0);
	memset(mem, 0xab, usize);
	vfx_open(&f);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, usize, IBV_ACCESS_LOCAL_WRITE, -1, 0, &u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, u, off), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_wq(cq, &buf, &n, &esz), DOCA_SUCCESS);
	assert_ptr_equal(buf, mem + off);
	assert_int_equal(n, 32);
	check_fresh_ring(mem + off, 32);
	for (size_t i = 0; i < usize; i++)
		if (i < off || i >= off + 32 * CQE)
			assert_int_equal(mem[i], 0xab);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	vfx_close(&f);
	free(mem);
}

/* The doorbell record (consumer index, arm) lies at dbr umem + offset, zeroed; neighbours untouched. */
static void test_external_dbr_umem_at_offset(void **state)
{
	const size_t off = 0x48;
	struct vfx f;
	uint8_t *mem = NULL;
	struct doca_verbs_umem *u = NULL;
	struct doca_verbs_cq_attr *a = cq_attr(8);
	struct doca_verbs_cq *cq = NULL;
	uint64_t *db = NULL;
	uint32_t *ci = NULL, *arm = NULL;

	(void)state;
	assert_int_equal(posix_memalign((void **)&mem, 4096, 4096), 0);
	memset(mem, 0xff, 4096);
	vfx_open(&f);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 4096, IBV_ACCESS_LOCAL_WRITE, -1, 0, &u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_dbr_umem(a, u, off), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_dbr_addr(cq, &db, &ci, &arm), DOCA_SUCCESS);
	assert_ptr_equal(ci, mem + off);
	assert_ptr_equal(arm, mem + off + 4);
	assert_int_equal((uintptr_t)db & 0xfffu, 0x20u); /* the CQ doorbell of its UAR page */
	for (size_t i = 0; i < 4096; i++)
		assert_int_equal(mem[i], i >= off && i < off + 8 ? 0x00 : 0xff);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	vfx_close(&f);
	free(mem);
}

/* Ring and doorbell record in one UMEM, and both in a UMEM of their own at offset 0. */
static void test_external_ring_and_dbr_same_umem(void **state)
{
	struct vfx f;
	uint8_t *mem = NULL;
	struct doca_verbs_umem *u = NULL;
	struct doca_verbs_cq_attr *a = cq_attr(64);
	struct doca_verbs_cq *cq = NULL;
	uint64_t *db = NULL;
	uint32_t *ci = NULL, *arm = NULL;
	void *buf = NULL;
	uint32_t n = 0;
	uint8_t esz = 0;

	(void)state;
	assert_int_equal(posix_memalign((void **)&mem, 4096, 2 * 4096), 0);
	vfx_open(&f);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 2 * 4096, IBV_ACCESS_LOCAL_WRITE, -1, 0, &u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, u, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_dbr_umem(a, u, 4096), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_wq(cq, &buf, &n, &esz), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_dbr_addr(cq, &db, &ci, &arm), DOCA_SUCCESS);
	assert_ptr_equal(buf, mem);
	assert_ptr_equal(ci, mem + 4096);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	vfx_close(&f);
	free(mem);
}

static void test_external_umem_bad_offsets(void **state)
{
	struct vfx f;
	void *mem = NULL;
	struct doca_verbs_umem *u = NULL;
	struct doca_verbs_cq_attr *a = cq_attr(64); /* 4096 bytes of ring */
	struct doca_verbs_cq *cq = NULL;

	(void)state;
	assert_int_equal(posix_memalign(&mem, 4096, 8192), 0);
	vfx_open(&f);
	assert_int_equal(doca_verbs_umem_create(f.ctx, mem, 8192, IBV_ACCESS_LOCAL_WRITE, -1, 0, &u), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, u, 32), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, u, 8192), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, u, 1ull << 40), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_dbr_umem(a, u, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_dbr_umem(a, u, 8192), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_dbr_umem(a, u, 8192 - 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_dbr_umem(a, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "cq_attr external_umem: offset 0x20 is not 64-byte aligned"));
	assert_non_null(strstr(logbuf, "cq_attr external_umem: offset 0x2000 is beyond the umem (8192 bytes)"));
	assert_non_null(strstr(logbuf, "cq_attr external_umem: NULL umem"));
	assert_non_null(strstr(logbuf, "cq_attr external_dbr_umem: offset 0x4 is not 8-byte aligned"));
	assert_non_null(strstr(logbuf, "cq_attr external_dbr_umem: 8 bytes at offset 0x2000 do not fit the umem"));
	assert_non_null(strstr(logbuf, "cq_attr external_dbr_umem: NULL umem"));

	/* In the UMEM, but the whole ring does not fit: refused at create, nothing taken. */
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, u, 8192 - 64), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(cq);
	assert_non_null(strstr(logbuf, "swnic0: CQ ring: 4096 bytes at offset 8128 do not fit in the external UMEM of 8192 bytes"));
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(a, u, 4096), DOCA_SUCCESS); /* fits exactly */
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_umem_destroy(u), DOCA_SUCCESS);
	vfx_close(&f);
	free(mem);
}

static void test_attr_bad_input(void **state)
{
	struct doca_verbs_cq_attr *a = cq_attr(4);
	int dummy;

	(void)state;
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_attr_create(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_cq_size(NULL, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_cq_context(NULL, &dummy), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_umem(NULL, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_dbr_umem(NULL, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_uar(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_uar(a, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(NULL, DOCA_VERBS_CQ_ENABLE_OVERRUN), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(a, (enum doca_verbs_cq_overrun)2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_cq_collapsed(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_cq_collapsed(a, 2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_comp_channel(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_datapath_en(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_attr_set_external_datapath_en(a, 2), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	{
		static const char *const lines[] = {"cq_attr: NULL output pointer", "cq_attr: NULL attributes",
						    "cq_attr cq_size: NULL attributes",
						    "cq_attr cq_context: NULL attributes",
						    "cq_attr external_umem: NULL attributes",
						    "cq_attr external_dbr_umem: NULL attributes",
						    "cq_attr external_uar: NULL attributes",
						    "cq_attr external_uar: NULL uar",
						    "cq_attr overrun: NULL attributes",
						    "cq_attr overrun: 2 is not a doca_verbs_cq_overrun value",
						    "cq_attr collapsed: NULL attributes", "cq_attr collapsed: 2 is not 0 or 1",
						    "cq_attr comp_channel: NULL attributes",
						    "cq_attr external_datapath: NULL attributes",
						    "cq_attr external_datapath: 2 is not 0 or 1", NULL};

		assert_true(vfx_log_has(logbuf, lines));
	}
	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(a, DOCA_VERBS_CQ_ENABLE_OVERRUN), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(a, DOCA_VERBS_CQ_DISABLE_OVERRUN), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_collapsed(a, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_datapath_en(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_comp_channel(a, NULL), DOCA_SUCCESS); /* NULL: none */
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
}

static void test_create_destroy_getters_bad_input(void **state)
{
	struct vfx f;
	struct doca_verbs_cq_attr *a = cq_attr(4);
	struct doca_verbs_cq *cq = NULL, *cq2 = NULL;
	void *buf = (void *)0x1;
	uint32_t n = 7, cqn = 7, cqn2 = 7;
	uint8_t esz = 7;
	uint64_t *db = NULL;
	uint32_t *ci = NULL, *arm = NULL;

	(void)state;
	vfx_open(&f);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_create(NULL, a, &cq), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_create(f.ctx, NULL, &cq), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "verbs_context, verbs_cq_attr and verbs_cq must not be NULL"));
	assert_non_null(strstr(logbuf, "verbs_cq must not be NULL"));

	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq2), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_cqn(cq, &cqn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_cqn(cq2, &cqn2), DOCA_SUCCESS);
	assert_int_not_equal(cqn, cqn2);
	assert_int_equal(cqn & ~0xffffffu, 0);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_get_wq(NULL, &buf, &n, &esz), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_get_wq(cq, NULL, &n, &esz), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_get_wq(cq, &buf, NULL, &esz), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_get_wq(cq, &buf, &n, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_get_dbr_addr(NULL, &db, &ci, &arm), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_get_dbr_addr(cq, NULL, &ci, &arm), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_get_dbr_addr(cq, &db, NULL, &arm), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_get_dbr_addr(cq, &db, &ci, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_get_cqn(NULL, &cqn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_cq_get_cqn(cq, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_ptr_equal(buf, (void *)0x1);
	assert_int_equal(n, 7);
	assert_int_equal(esz, 7);
	assert_null(db);
	assert_non_null(strstr(logbuf, "verbs_cq, cq_buf, cq_num_entries and cq_entry_size must not be NULL"));
	assert_non_null(strstr(logbuf, "verbs_cq, uar_db_reg, ci_dbr and arm_dbr must not be NULL"));
	assert_non_null(strstr(logbuf, "verbs_cq and cqn must not be NULL"));
	assert_int_equal(doca_verbs_cq_destroy(cq2), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	vfx_close(&f);
}

/* A user UAR: the CQ's doorbell is its page + 0x20. */
static void test_external_uar(void **state)
{
	struct vfx f;
	struct doca_verbs_uar *u = NULL;
	struct doca_verbs_cq_attr *a = cq_attr(4);
	struct doca_verbs_cq *cq = NULL;
	void *reg = NULL;
	uint64_t *db = NULL;
	uint32_t *ci = NULL, *arm = NULL;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_uar_create(f.ctx, DOCA_VERBS_UAR_ALLOCATION_TYPE_BLUEFLAME, &u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_reg_addr_get(u, &reg), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_external_uar(a, u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_get_dbr_addr(cq, &db, &ci, &arm), DOCA_SUCCESS);
	assert_ptr_equal((uint8_t *)db, (uint8_t *)reg - 0x800 + 0x20);
	assert_int_equal(doca_verbs_cq_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_uar_destroy(u), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	vfx_close(&f);
}

static void test_comp_channel_of_another_context(void **state)
{
	struct vfx f;
	struct doca_verbs_context *other = NULL;
	struct doca_verbs_comp_channel *cc = NULL;
	struct doca_verbs_cq_attr *a = cq_attr(4);
	struct doca_verbs_cq *cq = NULL;

	(void)state;
	vfx_open(&f);
	assert_int_equal(doca_verbs_context_create(f.info, 0, &other), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_comp_channel_create(other, &cc), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_comp_channel(a, cc), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_create(f.ctx, a, &cq), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_null(cq);
	assert_non_null(strstr(logbuf, "swnic0: the CQ's completion channel belongs to another context"));
	/* The refused create took no reference on the channel. */
	assert_int_equal(doca_verbs_comp_channel_destroy(cc), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_context_destroy(other), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	vfx_close(&f);
}

static void test_in_use_by_qp(void **state)
{
	struct vfx f;
	struct doca_verbs_cq *scq, *rcq;
	struct doca_verbs_qp *qp;

	(void)state;
	vfx_open(&f);
	scq = vfx_cq(&f, 8, NULL, NULL);
	rcq = vfx_cq(&f, 8, NULL, NULL);
	qp = vfx_qp(&f, DOCA_VERBS_QP_TYPE_RC, scq, rcq, 4, 4);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_cq_destroy(scq), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_verbs_cq_destroy(rcq), DOCA_ERROR_IN_USE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "still has 1 QP queues completing to it"));
	assert_int_equal(doca_verbs_qp_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(scq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(rcq), DOCA_SUCCESS);
	vfx_close(&f);
}

/* ---- with traffic: overrun and collapsed ---- */

static void post_write(struct doca_verbs_qp *qp, struct vfx_buf *src, struct vfx_buf *dst, uint32_t off,
		       uint32_t len, uint64_t wr_id)
{
	struct ibv_sge sge = {.addr = (uintptr_t)src->addr + off, .length = len, .lkey = src->lkey};
	struct ibv_send_wr wr, *bad = NULL;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)dst->addr + off;
	wr.wr.rdma.rkey = dst->rkey;
	assert_int_equal(doca_verbs_bridge_post_send(qp, &wr, &bad), 0);
}

/* Waits until entry idx of the ring holds a valid CQE with owner bit owner (0 on the first pass). */
static bool wait_cqe(const uint8_t *ring, uint32_t idx, uint8_t owner, int timeout_ms)
{
	for (int i = 0; i < timeout_ms * 10; i++) {
		uint8_t op_own = __atomic_load_n(&ring[(size_t)idx * CQE + 63], __ATOMIC_ACQUIRE);

		if ((op_own >> 4) != 0xf && (op_own & 1u) == owner)
			return true;
		struct timespec ts = {0, 100000};

		nanosleep(&ts, NULL);
	}
	return false;
}

static struct doca_verbs_cq *cq_with(struct vfx *f, uint32_t size, enum doca_verbs_cq_overrun ov, uint8_t collapsed)
{
	struct doca_verbs_cq_attr *a = cq_attr(size);
	struct doca_verbs_cq *cq = NULL;

	assert_int_equal(doca_verbs_cq_attr_set_cq_overrun(a, ov), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_set_cq_collapsed(a, collapsed), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_create(f->ctx, a, &cq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_attr_destroy(a), DOCA_SUCCESS);
	return cq;
}

/* A 2-entry CQ that nobody polls, three completions: with overrun an error (CQ_ERR), without it none. */
static void run_overrun(enum doca_verbs_cq_overrun ov)
{
	struct vfx f;
	struct doca_verbs_cq *scq, *rcq;
	struct doca_verbs_qp *qa, *qb;
	uint32_t qpn_a = 0, qpn_b = 0;
	struct vfx_buf src, dst;
	struct doca_verbs_async_event ev;
	doca_event_handle_t h = -1;
	void *ring = NULL;
	uint32_t n = 0;
	uint8_t esz = 0;

	vfx_open(&f);
	scq = cq_with(&f, 2, ov, 0);
	rcq = vfx_cq(&f, 8, NULL, NULL);
	qa = vfx_qp(&f, DOCA_VERBS_QP_TYPE_RC, scq, rcq, 8, 4);
	qb = vfx_qp(&f, DOCA_VERBS_QP_TYPE_RC, rcq, rcq, 8, 4);
	assert_int_equal(doca_verbs_qp_get_qpn(qa, &qpn_a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(qb, &qpn_b), DOCA_SUCCESS);
	vfx_qp_connect(&f, qa, DOCA_VERBS_QP_TYPE_RC, qpn_b, 100, 200);
	vfx_qp_connect(&f, qb, DOCA_VERBS_QP_TYPE_RC, qpn_a, 200, 100);
	vfx_buf_create(&f, 64, 0x11, &src);
	vfx_buf_create(&f, 64, 0x00, &dst);
	assert_int_equal(doca_verbs_cq_get_wq(scq, &ring, &n, &esz), DOCA_SUCCESS);
	assert_int_equal(opengda_verbs_context_get_async_handle(f.ctx, &h), DOCA_SUCCESS);
	for (uint32_t i = 0; i < 3; i++) {
		post_write(qa, &src, &dst, i * 8, 8, i);
		if (i < 2)
			assert_true(wait_cqe(ring, i, 0, 5000));
	}
	if (ov == DOCA_VERBS_CQ_DISABLE_OVERRUN) {
		assert_true(vfx_fd_readable(h, 5000));
		assert_int_equal(doca_verbs_get_async_event(f.ctx, &ev), DOCA_SUCCESS);
		assert_int_equal(ev.event_type, DOCA_VERBS_EVENT_CQ_ERR);
		assert_ptr_equal(ev.element.cq, scq);
		assert_ptr_equal(ev.context, f.ctx);
		/* An unacknowledged CQ event keeps the CQ (and the context). */
		assert_int_equal(doca_verbs_qp_destroy(qa), DOCA_SUCCESS);
		stderr_capture_begin();
		assert_int_equal(doca_verbs_cq_destroy(scq), DOCA_ERROR_IN_USE);
		stderr_capture_end(logbuf, sizeof(logbuf));
		assert_non_null(strstr(logbuf, "has 0 completion and 1 async events not acknowledged"));
		assert_int_equal(doca_verbs_ack_async_event(&ev), DOCA_SUCCESS);
		qa = NULL;
	} else {
		/* The third CQE overwrote entry 0 (owner bit 1 on the second pass); no error. */
		assert_true(wait_cqe(ring, 0, 1, 5000));
		assert_false(vfx_fd_readable(h, 100));
		assert_int_equal(doca_verbs_get_async_event(f.ctx, &ev), DOCA_ERROR_AGAIN);
	}
	for (uint32_t i = 0; i < 24; i++)
		assert_int_equal(dst.addr[i], 0x11);
	vfx_buf_destroy(&src);
	vfx_buf_destroy(&dst);
	if (qa != NULL)
		assert_int_equal(doca_verbs_qp_destroy(qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(qb), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(scq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(rcq), DOCA_SUCCESS);
	vfx_close(&f);
}

static void test_overrun_is_an_error(void **state)
{
	(void)state;
	run_overrun(DOCA_VERBS_CQ_DISABLE_OVERRUN);
}

static void test_overrun_ignored(void **state)
{
	(void)state;
	run_overrun(DOCA_VERBS_CQ_ENABLE_OVERRUN);
}

/* Collapsed: every CQE goes to entry 0; the others keep their initial bytes; the bridge poller declines. */
static void test_collapsed(void **state)
{
	struct vfx f;
	struct doca_verbs_cq *scq, *rcq;
	struct doca_verbs_qp *qa, *qb;
	uint32_t qpn_a = 0, qpn_b = 0;
	struct vfx_buf src, dst;
	struct opengda_mlx5_cqe_fields cf;
	struct ibv_wc wc;
	void *ring = NULL;
	uint32_t n = 0;
	uint8_t esz = 0;

	(void)state;
#if defined(__SANITIZE_THREAD__)
	/*
	 * The NIC rewrites entry 0 of a collapsed CQ with plain stores for every completion
	 * while this test reads it: that protocol is by design, ThreadSanitizer reports it.
	 */
	skip();
#endif
	vfx_open(&f);
	scq = cq_with(&f, 4, DOCA_VERBS_CQ_DISABLE_OVERRUN, 1);
	rcq = vfx_cq(&f, 8, NULL, NULL);
	qa = vfx_qp(&f, DOCA_VERBS_QP_TYPE_RC, scq, rcq, 8, 4);
	qb = vfx_qp(&f, DOCA_VERBS_QP_TYPE_RC, rcq, rcq, 8, 4);
	assert_int_equal(doca_verbs_qp_get_qpn(qa, &qpn_a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(qb, &qpn_b), DOCA_SUCCESS);
	vfx_qp_connect(&f, qa, DOCA_VERBS_QP_TYPE_RC, qpn_b, 100, 200);
	vfx_qp_connect(&f, qb, DOCA_VERBS_QP_TYPE_RC, qpn_a, 200, 100);
	vfx_buf_create(&f, 64, 0x22, &src);
	vfx_buf_create(&f, 64, 0x00, &dst);
	assert_int_equal(doca_verbs_cq_get_wq(scq, &ring, &n, &esz), DOCA_SUCCESS);
	assert_int_equal(n, 4);
	/* Six completions on a 4-entry collapsed CQ: no overrun, all in entry 0. */
	for (uint32_t i = 0; i < 6; i++) {
		post_write(qa, &src, &dst, i * 8, 8, i);
		for (int t = 0; t < 50000; t++) {
			struct timespec ts = {0, 100000};

			opengda_mlx5_cqe_read((const struct opengda_mlx5_cqe64 *)ring, &cf);
			if (cf.opcode == OPENGDA_MLX5_CQE_REQ && cf.wqe_counter == i)
				break;
			nanosleep(&ts, NULL);
		}
		assert_int_equal(cf.opcode, OPENGDA_MLX5_CQE_REQ);
		assert_int_equal(cf.wqe_counter, i);
		assert_int_equal(cf.qpn, qpn_a);
	}
	check_fresh_ring((const uint8_t *)ring + CQE, 3);
	for (uint32_t i = 0; i < 48; i++)
		assert_int_equal(dst.addr[i], 0x22);
	stderr_capture_begin();
	assert_int_equal(doca_verbs_bridge_poll_cq(scq, 1, &wc), -EINVAL);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "is collapsed"));
	vfx_buf_destroy(&src);
	vfx_buf_destroy(&dst);
	assert_int_equal(doca_verbs_qp_destroy(qa), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(qb), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(scq), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(rcq), DOCA_SUCCESS);
	vfx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_and_rounding),
		cmocka_unit_test(test_size_limits),
		cmocka_unit_test(test_external_umem_at_offset),
		cmocka_unit_test(test_external_dbr_umem_at_offset),
		cmocka_unit_test(test_external_ring_and_dbr_same_umem),
		cmocka_unit_test(test_external_umem_bad_offsets),
		cmocka_unit_test(test_attr_bad_input),
		cmocka_unit_test(test_create_destroy_getters_bad_input),
		cmocka_unit_test(test_external_uar),
		cmocka_unit_test(test_comp_channel_of_another_context),
		cmocka_unit_test(test_in_use_by_qp),
		cmocka_unit_test(test_overrun_is_an_error),
		cmocka_unit_test(test_overrun_ignored),
		cmocka_unit_test(test_collapsed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
