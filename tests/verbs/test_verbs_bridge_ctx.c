/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_verbs_bridge.h, control part: bad input of the context / PD import functions
 * (refused before any rdma-core call, so stand-in ibv objects are never touched), and
 * doca_verbs_bridge_verbs_pd_get_ibv_pd on a software NIC PD (none: NULL with a log line
 * pointing at opengda_mr_create). The data path (post / poll) is covered by
 * test_verbs_bridge.c.
 */
#include "verbs_fixture.h"

#include "test_util.h"

#include <infiniband/verbs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char logbuf[8192];

/* Stand-ins only compared with NULL by the checks under test; filled with a pattern that would show a write. */
static struct ibv_device fake_dev;
static struct ibv_context fake_ctx;
static struct ibv_pd fake_pd;

static void fill_fakes(void)
{
	memset(&fake_dev, 0xa5, sizeof(fake_dev));
	memset(&fake_ctx, 0xa5, sizeof(fake_ctx));
	memset(&fake_pd, 0xa5, sizeof(fake_pd));
}

static void check_fakes_untouched(void)
{
	const uint8_t *p;

	p = (const uint8_t *)&fake_dev;
	for (size_t i = 0; i < sizeof(fake_dev); i++)
		assert_int_equal(p[i], 0xa5);
	p = (const uint8_t *)&fake_ctx;
	for (size_t i = 0; i < sizeof(fake_ctx); i++)
		assert_int_equal(p[i], 0xa5);
}

static void test_context_create_bad_input(void **state)
{
	struct doca_verbs_context *ctx = (struct doca_verbs_context *)0x1;

	(void)state;
	fill_fakes();
	stderr_capture_begin();
	assert_int_equal(doca_verbs_bridge_verbs_context_create(NULL, 0, &ctx), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_bridge_verbs_context_create(&fake_dev, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_bridge_verbs_context_create(&fake_dev, 1, &ctx), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_bridge_verbs_context_create(&fake_dev, 0x80000000u, &ctx), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_ptr_equal(ctx, (struct doca_verbs_context *)0x1);
	check_fakes_untouched();
	assert_non_null(strstr(logbuf, "ibv_dev and verbs_context must not be NULL"));
	assert_non_null(strstr(logbuf, "flags 0x1: no context flag is defined (pass 0)"));
	assert_non_null(strstr(logbuf, "flags 0x80000000: no context flag is defined (pass 0)"));
}

static void test_context_import_bad_input(void **state)
{
	struct doca_verbs_context *ctx = (struct doca_verbs_context *)0x1;

	(void)state;
	fill_fakes();
	stderr_capture_begin();
	assert_int_equal(doca_verbs_bridge_verbs_context_import(NULL, 0, &ctx), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_bridge_verbs_context_import(&fake_ctx, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_bridge_verbs_context_import(&fake_ctx, 2, &ctx), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_ptr_equal(ctx, (struct doca_verbs_context *)0x1);
	check_fakes_untouched();
	assert_non_null(strstr(logbuf, "ibv_ctx and verbs_context must not be NULL"));
	assert_non_null(strstr(logbuf, "flags 0x2: no context flag is defined (pass 0)"));
}

static void test_pd_import_bad_input(void **state)
{
	struct doca_verbs_pd *pd = (struct doca_verbs_pd *)0x1;

	(void)state;
	fill_fakes();
	fake_pd.context = NULL; /* a PD must name its context */
	stderr_capture_begin();
	assert_int_equal(doca_verbs_bridge_verbs_pd_import(NULL, &pd), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_bridge_verbs_pd_import(&fake_pd, &pd), DOCA_ERROR_INVALID_VALUE);
	fake_pd.context = &fake_ctx;
	assert_int_equal(doca_verbs_bridge_verbs_pd_import(&fake_pd, NULL), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_ptr_equal(pd, (struct doca_verbs_pd *)0x1);
	check_fakes_untouched();
	assert_non_null(strstr(logbuf, "pd (with its context) and verbs_pd must not be NULL"));
}

/* A software NIC has no ibv_pd: NULL, and the log says what to use instead. */
static void test_pd_get_ibv_pd(void **state)
{
	struct vfx f;

	(void)state;
	vfx_open(&f);
	stderr_capture_begin();
	assert_null(doca_verbs_bridge_verbs_pd_get_ibv_pd(f.pd));
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "swnic0: a software NIC has no ibv_pd: register memory with opengda_mr_create()"));
	stderr_capture_begin();
	assert_null(doca_verbs_bridge_verbs_pd_get_ibv_pd(NULL));
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "verbs_pd must not be NULL"));
	/* the PD is unchanged and still works */
	{
		struct vfx_buf b;

		vfx_buf_create(&f, 64, 0, &b);
		vfx_buf_destroy(&b);
	}
	vfx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_context_create_bad_input), cmocka_unit_test(test_context_import_bad_input),
		cmocka_unit_test(test_pd_import_bad_input),      cmocka_unit_test(test_pd_get_ibv_pd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
