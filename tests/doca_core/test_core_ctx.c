/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_ctx and doca_pe with a test context (the Ethernet queues will embed the same base): the
 * state machine and its BAD_STATE answers, the object's start/stop hooks and their failures,
 * state-change callbacks delivered in order by doca_pe_progress() only, dropped when the
 * context is destroyed, and bad input everywhere.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "doca_core/core_priv.h"
#include "gpunetio/gpu_test_log.h"
#include "opengda_gpunetio.h"

#include <stdlib.h>

struct tctx {
	struct doca_ctx base;
	int starts, stops;
	doca_error_t start_err, stop_err;
};

static doca_error_t t_start(struct doca_ctx *c)
{
	struct tctx *t = (struct tctx *)(void *)c;

	t->starts++;
	return t->start_err;
}

static doca_error_t t_stop(struct doca_ctx *c)
{
	struct tctx *t = (struct tctx *)(void *)c;

	t->stops++;
	return t->stop_err;
}

static const struct core_ctx_ops t_ops = {.kind = "test_ctx", .gpu_datapath_ok = true, .start = t_start, .stop = t_stop};
static const struct core_ctx_ops t_cpu_ops = {.kind = "cpu_ctx", .start = t_start, .stop = t_stop};

/* What the callback saw. */
static struct {
	int n;
	struct doca_ctx *ctx[8];
	enum doca_ctx_states prev[8], next[8];
	uint64_t user[8];
} seen;

static void on_state(const union doca_data user, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	assert_true(seen.n < 8);
	seen.ctx[seen.n] = ctx;
	seen.prev[seen.n] = prev;
	seen.next[seen.n] = next;
	seen.user[seen.n] = user.u64;
	seen.n++;
}

static int setup(void **state)
{
	struct tctx *t = calloc(1, sizeof(*t));

	core_ctx_init(&t->base, &t_ops);
	seen.n = 0;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tctx *t = *state;

	assert_int_equal(core_ctx_fini(&t->base), DOCA_SUCCESS);
	free(t);
	return 0;
}

static void test_lifecycle_and_callbacks(void **state)
{
	struct tctx *t = *state;
	struct doca_ctx *c = &t->base;
	struct doca_pe *pe = NULL;
	enum doca_ctx_states s;
	union doca_data ud = {.u64 = 0x5eed}, got;

	assert_int_equal(doca_pe_create(&pe), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_state_changed_cb(c, on_state), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_user_data(c, ud), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_get_user_data(c, &got), DOCA_SUCCESS);
	assert_int_equal(got.u64, 0x5eed);
	assert_int_equal(doca_pe_connect_ctx(pe, c), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_get_state(c, &s), DOCA_SUCCESS);
	assert_int_equal(s, DOCA_CTX_STATE_IDLE);
	assert_int_equal(doca_pe_progress(pe), 0); /* nothing yet */

	assert_int_equal(doca_ctx_start(c), DOCA_SUCCESS);
	assert_int_equal(t->starts, 1);
	assert_int_equal(doca_ctx_get_state(c, &s), DOCA_SUCCESS);
	assert_int_equal(s, DOCA_CTX_STATE_RUNNING);
	assert_int_equal(seen.n, 0); /* callbacks run from progress only */
	EXPECT_LOGGED_ERR(doca_ctx_start(c), DOCA_ERROR_BAD_STATE, "check_idle");
	assert_int_equal(t->starts, 1);
	assert_int_equal(doca_ctx_stop(c), DOCA_SUCCESS);
	assert_int_equal(t->stops, 1);
	EXPECT_LOGGED_ERR(doca_ctx_stop(c), DOCA_ERROR_BAD_STATE, "doca_ctx_stop");

	assert_int_equal(doca_pe_progress(pe), 1);
	assert_int_equal(seen.n, 2);
	assert_ptr_equal(seen.ctx[0], c);
	assert_int_equal(seen.prev[0], DOCA_CTX_STATE_IDLE);
	assert_int_equal(seen.next[0], DOCA_CTX_STATE_RUNNING);
	assert_int_equal(seen.prev[1], DOCA_CTX_STATE_RUNNING);
	assert_int_equal(seen.next[1], DOCA_CTX_STATE_IDLE);
	assert_int_equal(seen.user[1], 0x5eed);
	assert_int_equal(doca_pe_progress(pe), 0);

	/* the engine outlives no context: destroy refuses, then works once the context is gone */
	EXPECT_LOGGED_ERR(doca_pe_destroy(pe), DOCA_ERROR_IN_USE, "doca_pe_destroy");
	assert_int_equal(doca_ctx_start(c), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(core_ctx_fini(c), DOCA_ERROR_BAD_STATE, "core_ctx_fini"); /* destroy while started */
	assert_int_equal(doca_ctx_stop(c), DOCA_SUCCESS);
	assert_int_equal(core_ctx_fini(c), DOCA_SUCCESS); /* drops the two undelivered changes */
	assert_int_equal(doca_pe_progress(pe), 0);
	assert_int_equal(seen.n, 2);
	assert_int_equal(doca_pe_destroy(pe), DOCA_SUCCESS);
}

static void test_setters_need_idle(void **state)
{
	struct tctx *t = *state;
	struct doca_ctx *c = &t->base;
	struct doca_gpu *gpu = NULL;
	struct doca_pe *pe = NULL;
	union doca_data ud = {.ptr = NULL};

	assert_int_equal(opengda_gpu_create_host(&gpu), DOCA_SUCCESS);
	assert_int_equal(doca_pe_create(&pe), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(c, gpu), DOCA_SUCCESS);
	assert_ptr_equal(c->gpu, gpu);
	assert_int_equal(doca_ctx_start(c), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_ctx_set_datapath_on_gpu(c, gpu), DOCA_ERROR_BAD_STATE, "check_idle");
	EXPECT_LOGGED_ERR(doca_ctx_set_state_changed_cb(c, on_state), DOCA_ERROR_BAD_STATE, "check_idle");
	EXPECT_LOGGED_ERR(doca_ctx_set_user_data(c, ud), DOCA_ERROR_BAD_STATE, "check_idle");
	EXPECT_LOGGED_ERR(doca_pe_connect_ctx(pe, c), DOCA_ERROR_BAD_STATE, "doca_pe_connect_ctx");
	assert_int_equal(doca_ctx_stop(c), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(pe, c), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_pe_connect_ctx(pe, c), DOCA_ERROR_ALREADY_EXIST, "doca_pe_connect_ctx");
	assert_int_equal(core_ctx_fini(c), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(pe), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_destroy(gpu), DOCA_SUCCESS);
}

/* A failing start or stop leaves the state as it was and reports nothing. */
static void test_hook_failures(void **state)
{
	struct tctx *t = *state;
	struct doca_ctx *c = &t->base;
	struct doca_pe *pe = NULL;
	enum doca_ctx_states s;

	assert_int_equal(doca_pe_create(&pe), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_state_changed_cb(c, on_state), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(pe, c), DOCA_SUCCESS);
	t->start_err = DOCA_ERROR_DRIVER;
	EXPECT_LOGGED_ERR(doca_ctx_start(c), DOCA_ERROR_DRIVER, "doca_ctx_start");
	assert_int_equal(doca_ctx_get_state(c, &s), DOCA_SUCCESS);
	assert_int_equal(s, DOCA_CTX_STATE_IDLE);
	t->start_err = DOCA_SUCCESS;
	assert_int_equal(doca_ctx_start(c), DOCA_SUCCESS);
	t->stop_err = DOCA_ERROR_IN_USE;
	EXPECT_LOGGED_ERR(doca_ctx_stop(c), DOCA_ERROR_IN_USE, "doca_ctx_stop");
	assert_int_equal(doca_ctx_get_state(c, &s), DOCA_SUCCESS);
	assert_int_equal(s, DOCA_CTX_STATE_RUNNING);
	t->stop_err = DOCA_SUCCESS;
	assert_int_equal(doca_ctx_stop(c), DOCA_SUCCESS);
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_int_equal(seen.n, 2); /* the successful start and stop only */
	assert_int_equal(core_ctx_fini(c), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(pe), DOCA_SUCCESS);
}

static void test_bad_input(void **state)
{
	struct tctx *t = *state;
	struct doca_ctx cpu;
	struct doca_gpu *gpu = NULL;
	struct doca_pe *pe = NULL;
	enum doca_ctx_states s;
	union doca_data ud;

	assert_int_equal(opengda_gpu_create_host(&gpu), DOCA_SUCCESS);
	core_ctx_init(&cpu, &t_cpu_ops);
	EXPECT_LOGGED_ERR(doca_ctx_set_datapath_on_gpu(&cpu, gpu), DOCA_ERROR_NOT_SUPPORTED,
			  "doca_ctx_set_datapath_on_gpu");
	EXPECT_LOGGED_ERR(doca_ctx_set_datapath_on_gpu(&t->base, NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_ctx_set_datapath_on_gpu");
	EXPECT_LOGGED_ERR(doca_ctx_set_datapath_on_gpu(NULL, gpu), DOCA_ERROR_INVALID_VALUE, "check_idle");
	EXPECT_LOGGED_ERR(doca_ctx_start(NULL), DOCA_ERROR_INVALID_VALUE, "check_idle");
	EXPECT_LOGGED_ERR(doca_ctx_stop(NULL), DOCA_ERROR_INVALID_VALUE, "doca_ctx_stop");
	EXPECT_LOGGED_ERR(doca_ctx_get_state(NULL, &s), DOCA_ERROR_INVALID_VALUE, "doca_ctx_get_state");
	EXPECT_LOGGED_ERR(doca_ctx_get_state(&t->base, NULL), DOCA_ERROR_INVALID_VALUE, "doca_ctx_get_state");
	EXPECT_LOGGED_ERR(doca_ctx_get_user_data(&t->base, NULL), DOCA_ERROR_INVALID_VALUE, "doca_ctx_get_user_data");
	EXPECT_LOGGED_ERR(doca_ctx_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE, "doca_ctx_get_user_data");
	EXPECT_LOGGED_ERR(doca_ctx_set_state_changed_cb(NULL, on_state), DOCA_ERROR_INVALID_VALUE, "check_idle");
	EXPECT_LOGGED_ERR(doca_pe_create(NULL), DOCA_ERROR_INVALID_VALUE, "doca_pe_create");
	EXPECT_LOGGED_ERR(doca_pe_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_pe_destroy");
	assert_int_equal(doca_pe_create(&pe), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_pe_connect_ctx(pe, NULL), DOCA_ERROR_INVALID_VALUE, "doca_pe_connect_ctx");
	EXPECT_LOGGED_ERR(doca_pe_connect_ctx(NULL, &t->base), DOCA_ERROR_INVALID_VALUE, "doca_pe_connect_ctx");
	{
		char log[4096];

		stderr_capture_begin();
		assert_int_equal(doca_pe_progress(NULL), 0);
		stderr_capture_end(log, sizeof(log));
		gpu_test_check_one_err_line(log, "doca_pe_progress");
	}
	assert_int_equal(doca_pe_destroy(pe), DOCA_SUCCESS);
	assert_int_equal(core_ctx_fini(&cpu), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_destroy(gpu), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lifecycle_and_callbacks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_setters_need_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hook_failures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
