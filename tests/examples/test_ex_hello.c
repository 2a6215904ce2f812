/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The examples' hello as a server decodes it (examples/common/ex_proto.c): a hello within the
 * bounds passes; a hostile one (each field at its limit, so that blocks x threads x max size
 * asks for 2^50 bytes, or any field out of range) is refused by the decoder itself, with an
 * error line, before any buffer is sized from it. Sent through a socketpair as real frames.
 */
#include "ex_config.h"
#include "ex_proto.h"
#include "test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#define WAIT_MS 2000

static char logbuf[8192];

static struct ex_hello good_hello(void)
{
	struct ex_hello h;

	memset(&h, 0, sizeof(h));
	h.proto = EX_PROTO_VERSION;
	h.example_id = 1;
	h.min_size = 1;
	h.max_size = 1u << 20;
	h.iters = 2048;
	h.blocks = 2;
	h.threads = 256;
	h.scope = 0;
	h.seed = 42;
	return h;
}

/* Sends h as a client would and decodes it as the server does; returns the decoder's result. */
static int round_trip(const struct ex_hello *h, struct ex_hello *out)
{
	int sv[2], rc;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(ex_send_hello(sv[0], h, WAIT_MS), 0);
	stderr_capture_begin();
	rc = ex_recv_hello(sv[1], out, WAIT_MS);
	stderr_capture_end(logbuf, sizeof(logbuf));
	close(sv[0]);
	close(sv[1]);
	return rc;
}

static void test_hello_within_bounds(void **state)
{
	struct ex_hello h = good_hello(), out;

	(void)state;
	memset(&out, 0, sizeof(out));
	assert_int_equal(round_trip(&h, &out), 0);
	assert_int_equal(out.max_size, h.max_size);
	assert_int_equal(out.blocks, 2);
	assert_int_equal(out.threads, 256);
	assert_int_equal(out.seed, 42);
	/* Exactly at the bound: 1024 x 1024 threads of 1 KiB = 1 GiB. */
	h.blocks = EX_MAX_BLOCKS;
	h.threads = EX_MAX_THREADS;
	h.max_size = EX_MAX_RUN_BYTES / ((uint64_t)EX_MAX_BLOCKS * EX_MAX_THREADS);
	assert_int_equal(round_trip(&h, &out), 0);
	assert_int_equal(ex_hello_check(&h), 0);
}

/* The 57-byte frame that asked a server for 2^50 bytes: every field at its own limit. */
static void test_hello_product_over_bound(void **state)
{
	struct ex_hello h = good_hello(), out;

	(void)state;
	h.blocks = EX_MAX_BLOCKS;
	h.threads = EX_MAX_THREADS;
	h.max_size = EX_MAX_SIZE;
	assert_int_equal(round_trip(&h, &out), -1);
	assert_non_null(strstr(logbuf, "1024 x 1024 threads x 1073741824-byte messages need more than 1073741824 "
				       "bytes of buffer"));
	assert_non_null(strstr(logbuf, "the client's hello asks for more buffer than a run may have: refused"));
	/* Just over: 2 GiB from a modest geometry. */
	h = good_hello();
	h.blocks = 2;
	h.threads = 1024;
	h.max_size = 1u << 20;
	assert_int_equal(round_trip(&h, &out), -1);
	assert_non_null(strstr(logbuf, "need more than 1073741824 bytes of buffer"));
}

static void test_hello_fields_out_of_range(void **state)
{
	struct ex_hello h;
	struct ex_hello out;

	(void)state;
#define EXPECT_REFUSED(field, value)                                                                      \
	do {                                                                                              \
		h = good_hello();                                                                         \
		h.field = (value);                                                                        \
		assert_int_equal(round_trip(&h, &out), -1);                                               \
		assert_non_null(strstr(logbuf, "the client's run parameters are out of range"));         \
	} while (0)
	EXPECT_REFUSED(min_size, 0);
	EXPECT_REFUSED(min_size, 1u << 21); /* above max_size */
	EXPECT_REFUSED(max_size, 1ull << 50);
	EXPECT_REFUSED(max_size, UINT64_MAX);
	EXPECT_REFUSED(iters, 0);
	EXPECT_REFUSED(iters, EX_MAX_ITERS + 1u);
	EXPECT_REFUSED(blocks, 0);
	EXPECT_REFUSED(blocks, UINT32_MAX);
	EXPECT_REFUSED(threads, 0);
	EXPECT_REFUSED(threads, EX_MAX_THREADS + 1u);
	EXPECT_REFUSED(scope, 3);
#undef EXPECT_REFUSED
}

/* The client's own check of its command line: the same bound, without overflow. */
static void test_run_bytes_bound(void **state)
{
	(void)state;
	assert_int_equal(ex_config_check_run_bytes(1, 1, EX_MAX_SIZE), 0);
	assert_int_equal(ex_config_check_run_bytes(2, 256, 1u << 20), 0);
	stderr_capture_begin();
	assert_int_equal(ex_config_check_run_bytes(1, 2, EX_MAX_SIZE), -1);
	assert_int_equal(ex_config_check_run_bytes(UINT64_MAX, UINT64_MAX, UINT64_MAX), -1);
	assert_int_equal(ex_config_check_run_bytes(1ull << 32, 1ull << 32, 1), -1); /* product wraps to 0 */
	stderr_capture_end(logbuf, sizeof(logbuf));
	assert_non_null(strstr(logbuf, "1 x 2 threads x 1073741824-byte messages need more than"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello_within_bounds),
		cmocka_unit_test(test_hello_product_over_bound),
		cmocka_unit_test(test_hello_fields_out_of_range),
		cmocka_unit_test(test_run_bytes_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
