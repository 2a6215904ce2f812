/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP modify attributes and AH attributes: defaults, set -> get round trips, every range
 * edge (24-bit numbers, 3-bit retries, 5-bit timers, 4-bit SL, 6-bit rate, enums), the two
 * names of the atomic field, read/atomic depths rounded to powers of two, NULL handling,
 * and the AH attribute's accounting as a child of its context.
 */
#include "verbs/verbs_priv.h"

#include "logged.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void test_qp_attr_defaults(void **state)
{
	struct doca_verbs_qp_attr *a = NULL;

	(void)state;
	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_next_state(a), DOCA_VERBS_QP_STATE_RST);
	assert_int_equal(doca_verbs_qp_attr_get_current_state(a), DOCA_VERBS_QP_STATE_RST);
	assert_int_equal(doca_verbs_qp_attr_get_path_mtu(a), DOCA_VERBS_MTU_SIZE_256_BYTES);
	assert_int_equal(doca_verbs_qp_attr_get_rq_psn(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_sq_psn(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_dest_qp_num(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_write(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_read(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_atomic(a), DOCA_VERBS_QP_ATOMIC_TYPE_NONE);
	assert_null(doca_verbs_qp_attr_get_ah_attr(a));
	assert_int_equal(doca_verbs_qp_attr_get_pkey_index(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_port_num(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_ack_timeout(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_retry_cnt(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_rnr_retry(a), 0);
	assert_int_equal(doca_verbs_qp_attr_get_min_rnr_timer(a), 0);
	assert_int_equal(a->max_rd_atomic, 0);
	assert_int_equal(a->max_dest_rd_atomic, 0);
	assert_null(a->query_ah.ctx);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

static void test_qp_attr_round_trip(void **state)
{
	struct doca_verbs_qp_attr *a = NULL;
	struct doca_verbs_ah_attr ah;
	static const enum doca_verbs_qp_state states[] = {DOCA_VERBS_QP_STATE_RST, DOCA_VERBS_QP_STATE_INIT,
							  DOCA_VERBS_QP_STATE_RTR, DOCA_VERBS_QP_STATE_RTS,
							  DOCA_VERBS_QP_STATE_ERR};
	unsigned int i;

	(void)state;
	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		assert_int_equal(doca_verbs_qp_attr_set_next_state(a, states[i]), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_get_next_state(a), states[i]);
		assert_int_equal(doca_verbs_qp_attr_set_current_state(a, states[4 - i]), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_get_current_state(a), states[4 - i]);
	}
	for (i = DOCA_VERBS_MTU_SIZE_256_BYTES; i <= DOCA_VERBS_MTU_SIZE_4K_BYTES; i++) {
		assert_int_equal(doca_verbs_qp_attr_set_path_mtu(a, (enum doca_verbs_mtu_size)i), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_qp_attr_get_path_mtu(a), i);
	}
	assert_int_equal(doca_verbs_qp_attr_set_rq_psn(a, 0xffffff), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_rq_psn(a), 0xffffff);
	assert_int_equal(doca_verbs_qp_attr_set_sq_psn(a, 0x123456), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_sq_psn(a), 0x123456);
	assert_int_equal(doca_verbs_qp_attr_set_dest_qp_num(a, 0xfffffe), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_dest_qp_num(a), 0xfffffe);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_write(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_write(a), 1);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_read(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_read(a), 1);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_read(a, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_read(a), 0);
	assert_int_equal(doca_verbs_qp_attr_set_ah_attr(a, &ah), DOCA_SUCCESS);
	assert_ptr_equal(doca_verbs_qp_attr_get_ah_attr(a), &ah);
	assert_int_equal(doca_verbs_qp_attr_set_pkey_index(a, 0xffff), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_pkey_index(a), 0xffff);
	assert_int_equal(doca_verbs_qp_attr_set_port_num(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_port_num(a), 1);
	assert_int_equal(doca_verbs_qp_attr_set_ack_timeout(a, 31), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_ack_timeout(a), 31);
	assert_int_equal(doca_verbs_qp_attr_set_retry_cnt(a, 7), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_retry_cnt(a), 7);
	assert_int_equal(doca_verbs_qp_attr_set_rnr_retry(a, 7), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_rnr_retry(a), 7);
	assert_int_equal(doca_verbs_qp_attr_set_min_rnr_timer(a, 31), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_min_rnr_timer(a), 31);
	assert_int_equal(doca_verbs_qp_attr_set_min_rnr_timer(a, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_min_rnr_timer(a), 0);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

/* allow_remote_atomic (DOCA 2.0) and atomic_mode (DOCA 3.0) are one field. */
static void test_qp_attr_atomic_names(void **state)
{
	struct doca_verbs_qp_attr *a = NULL;

	(void)state;
	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_atomic(a, DOCA_VERBS_QP_ATOMIC_TYPE_UP_TO_8BYTES),
			 DOCA_SUCCESS);
	assert_int_equal(a->atomic_mode, 3);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_atomic(a), DOCA_VERBS_QP_ATOMIC_TYPE_UP_TO_8BYTES);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_atomic(a, DOCA_VERBS_QP_ATOMIC_TYPE_IB_SPEC),
			 DOCA_SUCCESS);
	assert_int_equal(a->atomic_mode, 1);
	assert_int_equal(doca_verbs_qp_attr_set_atomic_mode(a, DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_256BYTES), DOCA_SUCCESS);
	assert_int_equal(a->atomic_mode, 8);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_atomic(a), 8);
	assert_int_equal(doca_verbs_qp_attr_set_atomic_mode(a, DOCA_VERBS_QP_ATOMIC_MODE_ONLY_8BYTES), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_atomic(a), 2);
	assert_int_equal(doca_verbs_qp_attr_set_atomic_mode(a, DOCA_VERBS_QP_ATOMIC_MODE_NONE), DOCA_SUCCESS);
	assert_int_equal(a->atomic_mode, 0);
	/* 2 is a mode but not a doca_verbs_qp_atomic_type value; 9 is neither */
	LOGGED_EQ(doca_verbs_qp_attr_set_allow_remote_atomic(a, (enum doca_verbs_qp_atomic_type)2),
		  DOCA_ERROR_INVALID_VALUE, "qp_attr allow_remote_atomic");
	LOGGED_EQ(doca_verbs_qp_attr_set_allow_remote_atomic(a, (enum doca_verbs_qp_atomic_type)4),
		  DOCA_ERROR_INVALID_VALUE, "qp_attr allow_remote_atomic");
	LOGGED_EQ(doca_verbs_qp_attr_set_atomic_mode(a, (enum doca_verbs_qp_atomic_mode)9), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr atomic_mode");
	LOGGED_EQ(doca_verbs_qp_attr_set_atomic_mode(a, (enum doca_verbs_qp_atomic_mode)-1), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr atomic_mode");
	assert_int_equal(a->atomic_mode, 0);
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

static void test_qp_attr_rd_atomic_rounding(void **state)
{
	static const struct {
		uint8_t in, out;
	} cases[] = {{0, 0}, {1, 1}, {2, 2}, {3, 4}, {5, 8}, {16, 16}, {17, 32}, {127, 128}, {128, 128}};
	struct doca_verbs_qp_attr *a = NULL;
	unsigned int i;

	(void)state;
	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(doca_verbs_qp_attr_set_max_rd_atomic(a, cases[i].in), DOCA_SUCCESS);
		assert_int_equal(a->max_rd_atomic, cases[i].out);
		assert_int_equal(doca_verbs_qp_attr_set_max_dest_rd_atomic(a, cases[i].in), DOCA_SUCCESS);
		assert_int_equal(a->max_dest_rd_atomic, cases[i].out);
	}
	/* 129..255 would round to 256, which a uint8_t cannot hold */
	LOGGED_EQ(doca_verbs_qp_attr_set_max_rd_atomic(a, 129), DOCA_ERROR_INVALID_VALUE, "qp_attr max_rd_atomic");
	LOGGED_EQ(doca_verbs_qp_attr_set_max_dest_rd_atomic(a, 255), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr max_dest_rd_atomic");
	assert_int_equal(a->max_rd_atomic, 128);
	assert_int_equal(a->max_dest_rd_atomic, 128);
	LOGGED_EQ(doca_verbs_qp_attr_set_max_rd_atomic(NULL, 1), DOCA_ERROR_INVALID_VALUE, "qp_attr max_rd_atomic");
	LOGGED_EQ(doca_verbs_qp_attr_set_max_dest_rd_atomic(NULL, 1), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr max_dest_rd_atomic");
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

static void test_qp_attr_out_of_range(void **state)
{
	struct doca_verbs_qp_attr *a = NULL;
	struct doca_verbs_qp_attr before;

	(void)state;
	assert_int_equal(doca_verbs_qp_attr_create(&a), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTS), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_rq_psn(a, 5), DOCA_SUCCESS);
	memcpy(&before, a, sizeof(before));
	LOGGED_EQ(doca_verbs_qp_attr_set_next_state(a, (enum doca_verbs_qp_state)5), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr next_state");
	LOGGED_EQ(doca_verbs_qp_attr_set_next_state(a, (enum doca_verbs_qp_state)-1), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr next_state");
	LOGGED_EQ(doca_verbs_qp_attr_set_current_state(a, (enum doca_verbs_qp_state)5), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr current_state");
	LOGGED_EQ(doca_verbs_qp_attr_set_path_mtu(a, DOCA_VERBS_MTU_SIZE_RAW_ETHERNET), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr path_mtu");
	LOGGED_EQ(doca_verbs_qp_attr_set_path_mtu(a, (enum doca_verbs_mtu_size)-1), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr path_mtu");
	LOGGED_EQ(doca_verbs_qp_attr_set_rq_psn(a, 0x1000000), DOCA_ERROR_INVALID_VALUE, "qp_attr rq_psn");
	LOGGED_EQ(doca_verbs_qp_attr_set_sq_psn(a, 0x1000000), DOCA_ERROR_INVALID_VALUE, "qp_attr sq_psn");
	LOGGED_EQ(doca_verbs_qp_attr_set_dest_qp_num(a, 0xffffffff), DOCA_ERROR_INVALID_VALUE, "qp_attr dest_qp_num");
	LOGGED_EQ(doca_verbs_qp_attr_set_allow_remote_write(a, 2), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr allow_remote_write");
	LOGGED_EQ(doca_verbs_qp_attr_set_allow_remote_read(a, -1), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr allow_remote_read");
	LOGGED_EQ(doca_verbs_qp_attr_set_ah_attr(a, NULL), DOCA_ERROR_INVALID_VALUE, "qp_attr ah_attr");
	LOGGED_EQ(doca_verbs_qp_attr_set_port_num(a, 0), DOCA_ERROR_INVALID_VALUE, "qp_attr port_num");
	LOGGED_EQ(doca_verbs_qp_attr_set_ack_timeout(a, 32), DOCA_ERROR_INVALID_VALUE, "qp_attr ack_timeout");
	LOGGED_EQ(doca_verbs_qp_attr_set_retry_cnt(a, 8), DOCA_ERROR_INVALID_VALUE, "qp_attr retry_cnt");
	LOGGED_EQ(doca_verbs_qp_attr_set_rnr_retry(a, 8), DOCA_ERROR_INVALID_VALUE, "qp_attr rnr_retry");
	LOGGED_EQ(doca_verbs_qp_attr_set_min_rnr_timer(a, 32), DOCA_ERROR_INVALID_VALUE, "qp_attr min_rnr_timer");
	assert_memory_equal(&before, a, sizeof(before));
	assert_int_equal(doca_verbs_qp_attr_destroy(a), DOCA_SUCCESS);
}

static void test_qp_attr_null(void **state)
{
	struct doca_verbs_ah_attr ah;

	(void)state;
	LOGGED_EQ(doca_verbs_qp_attr_create(NULL), DOCA_ERROR_INVALID_VALUE, "qp_attr");
	LOGGED_EQ(doca_verbs_qp_attr_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "qp_attr");
	LOGGED_EQ(doca_verbs_qp_attr_set_next_state(NULL, DOCA_VERBS_QP_STATE_INIT), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr next_state");
	LOGGED_EQ(doca_verbs_qp_attr_set_current_state(NULL, DOCA_VERBS_QP_STATE_INIT), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr current_state");
	LOGGED_EQ(doca_verbs_qp_attr_set_path_mtu(NULL, DOCA_VERBS_MTU_SIZE_1K_BYTES), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr path_mtu");
	LOGGED_EQ(doca_verbs_qp_attr_set_rq_psn(NULL, 0), DOCA_ERROR_INVALID_VALUE, "qp_attr rq_psn");
	LOGGED_EQ(doca_verbs_qp_attr_set_sq_psn(NULL, 0), DOCA_ERROR_INVALID_VALUE, "qp_attr sq_psn");
	LOGGED_EQ(doca_verbs_qp_attr_set_dest_qp_num(NULL, 0), DOCA_ERROR_INVALID_VALUE, "qp_attr dest_qp_num");
	LOGGED_EQ(doca_verbs_qp_attr_set_allow_remote_write(NULL, 0), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr allow_remote_write");
	LOGGED_EQ(doca_verbs_qp_attr_set_allow_remote_read(NULL, 0), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr allow_remote_read");
	LOGGED_EQ(doca_verbs_qp_attr_set_allow_remote_atomic(NULL, DOCA_VERBS_QP_ATOMIC_TYPE_NONE),
		  DOCA_ERROR_INVALID_VALUE, "qp_attr allow_remote_atomic");
	LOGGED_EQ(doca_verbs_qp_attr_set_atomic_mode(NULL, DOCA_VERBS_QP_ATOMIC_MODE_NONE), DOCA_ERROR_INVALID_VALUE,
		  "qp_attr atomic_mode");
	LOGGED_EQ(doca_verbs_qp_attr_set_ah_attr(NULL, &ah), DOCA_ERROR_INVALID_VALUE, "qp_attr ah_attr");
	LOGGED_EQ(doca_verbs_qp_attr_set_pkey_index(NULL, 0), DOCA_ERROR_INVALID_VALUE, "qp_attr pkey_index");
	LOGGED_EQ(doca_verbs_qp_attr_set_port_num(NULL, 1), DOCA_ERROR_INVALID_VALUE, "qp_attr port_num");
	LOGGED_EQ(doca_verbs_qp_attr_set_ack_timeout(NULL, 0), DOCA_ERROR_INVALID_VALUE, "qp_attr ack_timeout");
	LOGGED_EQ(doca_verbs_qp_attr_set_retry_cnt(NULL, 0), DOCA_ERROR_INVALID_VALUE, "qp_attr retry_cnt");
	LOGGED_EQ(doca_verbs_qp_attr_set_rnr_retry(NULL, 0), DOCA_ERROR_INVALID_VALUE, "qp_attr rnr_retry");
	LOGGED_EQ(doca_verbs_qp_attr_set_min_rnr_timer(NULL, 0), DOCA_ERROR_INVALID_VALUE, "qp_attr min_rnr_timer");
	LOGGED_EQ(doca_verbs_qp_attr_get_next_state(NULL), DOCA_VERBS_QP_STATE_RST, "qp_attr next_state");
	LOGGED_EQ(doca_verbs_qp_attr_get_current_state(NULL), DOCA_VERBS_QP_STATE_RST, "qp_attr current_state");
	LOGGED_EQ(doca_verbs_qp_attr_get_path_mtu(NULL), 0, "qp_attr path_mtu");
	LOGGED_EQ(doca_verbs_qp_attr_get_rq_psn(NULL), 0, "qp_attr rq_psn");
	LOGGED_EQ(doca_verbs_qp_attr_get_sq_psn(NULL), 0, "qp_attr sq_psn");
	LOGGED_EQ(doca_verbs_qp_attr_get_dest_qp_num(NULL), 0, "qp_attr dest_qp_num");
	LOGGED_EQ(doca_verbs_qp_attr_get_allow_remote_write(NULL), 0, "qp_attr allow_remote_write");
	LOGGED_EQ(doca_verbs_qp_attr_get_allow_remote_read(NULL), 0, "qp_attr allow_remote_read");
	LOGGED_EQ(doca_verbs_qp_attr_get_allow_remote_atomic(NULL), 0, "qp_attr allow_remote_atomic");
	LOGGED_EQ(doca_verbs_qp_attr_get_ah_attr(NULL), NULL, "qp_attr ah_attr");
	LOGGED_EQ(doca_verbs_qp_attr_get_pkey_index(NULL), 0, "qp_attr pkey_index");
	LOGGED_EQ(doca_verbs_qp_attr_get_port_num(NULL), 0, "qp_attr port_num");
	LOGGED_EQ(doca_verbs_qp_attr_get_ack_timeout(NULL), 0, "qp_attr ack_timeout");
	LOGGED_EQ(doca_verbs_qp_attr_get_retry_cnt(NULL), 0, "qp_attr retry_cnt");
	LOGGED_EQ(doca_verbs_qp_attr_get_rnr_retry(NULL), 0, "qp_attr rnr_retry");
	LOGGED_EQ(doca_verbs_qp_attr_get_min_rnr_timer(NULL), 0, "qp_attr min_rnr_timer");
}

/* ---- AH attributes ---- */

/* A context stand-in: ah_attr_create only counts itself as a child (ctx->lock, ctx->nobjs). */
static int ctx_setup(void **state)
{
	static struct doca_verbs_context ctx;

	memset(&ctx, 0, sizeof(ctx));
	if (pthread_mutex_init(&ctx.lock, NULL) != 0)
		return -1;
	*state = &ctx;
	return 0;
}

static int ctx_teardown(void **state)
{
	struct doca_verbs_context *ctx = *state;

	pthread_mutex_destroy(&ctx->lock);
	return 0;
}

static void test_ah_attr_defaults_and_children(void **state)
{
	struct doca_verbs_context *ctx = *state;
	struct doca_verbs_ah_attr *a = NULL, *b = NULL;
	struct doca_verbs_gid gid;
	static const uint8_t zero[16];

	assert_int_equal(doca_verbs_ah_attr_create(ctx, &a), DOCA_SUCCESS);
	assert_int_equal(ctx->nobjs, 1);
	assert_int_equal(doca_verbs_ah_attr_create(ctx, &b), DOCA_SUCCESS);
	assert_int_equal(ctx->nobjs, 2);
	assert_ptr_equal(a->ctx, ctx);
	assert_int_equal(doca_verbs_ah_get_addr_type(a), DOCA_VERBS_ADDR_TYPE_IPv6);
	assert_int_equal(doca_verbs_ah_get_hop_limit(a), 64);
	gid = doca_verbs_ah_get_gid(a);
	assert_memory_equal(gid.raw, zero, sizeof(zero));
	assert_int_equal(doca_verbs_ah_get_dlid(a), 0);
	assert_int_equal(doca_verbs_ah_get_sl(a), 0);
	assert_int_equal(doca_verbs_ah_get_sgid_index(a), 0);
	assert_int_equal(doca_verbs_ah_get_static_rate(a), 0);
	assert_int_equal(doca_verbs_ah_get_traffic_class(a), 0);
	assert_int_equal(doca_verbs_ah_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(ctx->nobjs, 1);
	assert_int_equal(doca_verbs_ah_attr_destroy(b), DOCA_SUCCESS);
	assert_int_equal(ctx->nobjs, 0);
}

static void test_ah_attr_round_trip(void **state)
{
	struct doca_verbs_context *ctx = *state;
	struct doca_verbs_ah_attr *a = NULL;
	struct doca_verbs_gid gid, got;
	unsigned int i;

	assert_int_equal(doca_verbs_ah_attr_create(ctx, &a), DOCA_SUCCESS);
	for (i = 0; i < sizeof(gid.raw); i++)
		gid.raw[i] = (uint8_t)(0xf0 + i);
	assert_int_equal(doca_verbs_ah_attr_set_gid(a, gid), DOCA_SUCCESS);
	got = doca_verbs_ah_get_gid(a);
	assert_memory_equal(got.raw, gid.raw, sizeof(gid.raw));
	for (i = DOCA_VERBS_ADDR_TYPE_IPv4; i <= DOCA_VERBS_ADDR_TYPE_IB_NO_GRH; i++) {
		assert_int_equal(doca_verbs_ah_attr_set_addr_type(a, (enum doca_verbs_addr_type)i), DOCA_SUCCESS);
		assert_int_equal(doca_verbs_ah_get_addr_type(a), i);
	}
	assert_int_equal(doca_verbs_ah_attr_set_dlid(a, 0xffff), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_get_dlid(a), 0xffff);
	assert_int_equal(doca_verbs_ah_attr_set_sl(a, 15), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_get_sl(a), 15);
	assert_int_equal(doca_verbs_ah_attr_set_sgid_index(a, 255), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_get_sgid_index(a), 255);
	assert_int_equal(doca_verbs_ah_attr_set_static_rate(a, 63), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_get_static_rate(a), 63);
	assert_int_equal(doca_verbs_ah_attr_set_hop_limit(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_get_hop_limit(a), 1);
	assert_int_equal(doca_verbs_ah_attr_set_traffic_class(a, 0xb8), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_get_traffic_class(a), 0xb8);
	/* out of range: nothing changes */
	LOGGED_EQ(doca_verbs_ah_attr_set_addr_type(a, (enum doca_verbs_addr_type)4), DOCA_ERROR_INVALID_VALUE,
		  "ah_attr addr_type");
	LOGGED_EQ(doca_verbs_ah_attr_set_dlid(a, 0x10000), DOCA_ERROR_INVALID_VALUE, "ah_attr dlid");
	LOGGED_EQ(doca_verbs_ah_attr_set_sl(a, 16), DOCA_ERROR_INVALID_VALUE, "ah_attr sl");
	LOGGED_EQ(doca_verbs_ah_attr_set_static_rate(a, 64), DOCA_ERROR_INVALID_VALUE, "ah_attr static_rate");
	assert_int_equal(doca_verbs_ah_get_addr_type(a), DOCA_VERBS_ADDR_TYPE_IB_NO_GRH);
	assert_int_equal(doca_verbs_ah_get_dlid(a), 0xffff);
	assert_int_equal(doca_verbs_ah_get_sl(a), 15);
	assert_int_equal(doca_verbs_ah_get_static_rate(a), 63);
	assert_int_equal(doca_verbs_ah_attr_destroy(a), DOCA_SUCCESS);
	assert_int_equal(ctx->nobjs, 0);
}

static void test_ah_attr_bad_input(void **state)
{
	struct doca_verbs_context *ctx = *state;
	struct doca_verbs_ah_attr *a = NULL;
	struct doca_verbs_qp_attr *qa = NULL;
	struct doca_verbs_gid gid;

	memset(&gid, 0, sizeof(gid));
	LOGGED_EQ(doca_verbs_ah_attr_create(NULL, &a), DOCA_ERROR_INVALID_VALUE, "ah_attr");
	LOGGED_EQ(doca_verbs_ah_attr_create(ctx, NULL), DOCA_ERROR_INVALID_VALUE, "ah_attr");
	assert_null(a);
	assert_int_equal(ctx->nobjs, 0);
	LOGGED_EQ(doca_verbs_ah_attr_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "ah_attr destroy");
	/* the AH attr a query fills inside a QP attr cannot be freed on its own */
	assert_int_equal(doca_verbs_qp_attr_create(&qa), DOCA_SUCCESS);
	LOGGED_EQ(doca_verbs_ah_attr_destroy(&qa->query_ah), DOCA_ERROR_INVALID_VALUE, "belong to a qp_attr");
	assert_int_equal(doca_verbs_qp_attr_destroy(qa), DOCA_SUCCESS);
	assert_int_equal(ctx->nobjs, 0);
	LOGGED_EQ(doca_verbs_ah_attr_set_gid(NULL, gid), DOCA_ERROR_INVALID_VALUE, "ah_attr gid");
	LOGGED_EQ(doca_verbs_ah_attr_set_addr_type(NULL, DOCA_VERBS_ADDR_TYPE_IPv4), DOCA_ERROR_INVALID_VALUE,
		  "ah_attr addr_type");
	LOGGED_EQ(doca_verbs_ah_attr_set_dlid(NULL, 1), DOCA_ERROR_INVALID_VALUE, "ah_attr dlid");
	LOGGED_EQ(doca_verbs_ah_attr_set_sl(NULL, 1), DOCA_ERROR_INVALID_VALUE, "ah_attr sl");
	LOGGED_EQ(doca_verbs_ah_attr_set_sgid_index(NULL, 1), DOCA_ERROR_INVALID_VALUE, "ah_attr sgid_index");
	LOGGED_EQ(doca_verbs_ah_attr_set_static_rate(NULL, 1), DOCA_ERROR_INVALID_VALUE, "ah_attr static_rate");
	LOGGED_EQ(doca_verbs_ah_attr_set_hop_limit(NULL, 1), DOCA_ERROR_INVALID_VALUE, "ah_attr hop_limit");
	LOGGED_EQ(doca_verbs_ah_attr_set_traffic_class(NULL, 1), DOCA_ERROR_INVALID_VALUE, "ah_attr traffic_class");
	LOGGED_EQ(doca_verbs_ah_get_addr_type(NULL), 0, "ah_attr addr_type");
	LOGGED_EQ(doca_verbs_ah_get_dlid(NULL), 0, "ah_attr dlid");
	LOGGED_EQ(doca_verbs_ah_get_sl(NULL), 0, "ah_attr sl");
	LOGGED_EQ(doca_verbs_ah_get_sgid_index(NULL), 0, "ah_attr sgid_index");
	LOGGED_EQ(doca_verbs_ah_get_static_rate(NULL), 0, "ah_attr static_rate");
	LOGGED_EQ(doca_verbs_ah_get_hop_limit(NULL), 0, "ah_attr hop_limit");
	LOGGED_EQ(doca_verbs_ah_get_traffic_class(NULL), 0, "ah_attr traffic_class");
	{
		char buf[1024];

		stderr_capture_begin();
		memset(&gid, 0xff, sizeof(gid));
		gid = doca_verbs_ah_get_gid(NULL);
		stderr_capture_end(buf, sizeof(buf));
		assert_non_null(strstr(buf, "ah_attr gid"));
		for (unsigned int i = 0; i < sizeof(gid.raw); i++)
			assert_int_equal(gid.raw[i], 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qp_attr_defaults),
		cmocka_unit_test(test_qp_attr_round_trip),
		cmocka_unit_test(test_qp_attr_atomic_names),
		cmocka_unit_test(test_qp_attr_rd_atomic_rounding),
		cmocka_unit_test(test_qp_attr_out_of_range),
		cmocka_unit_test(test_qp_attr_null),
		cmocka_unit_test_setup_teardown(test_ah_attr_defaults_and_children, ctx_setup, ctx_teardown),
		cmocka_unit_test_setup_teardown(test_ah_attr_round_trip, ctx_setup, ctx_teardown),
		cmocka_unit_test_setup_teardown(test_ah_attr_bad_input, ctx_setup, ctx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
