/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf and doca_buf_inventory (DOCA Core, the buffers of DMA tasks) on the software NIC:
 * buffers lie inside a started mmap and hold it, the inventory hands out what it has and then
 * refuses, reference counts give buffers back at zero and refuse a second release, data
 * segments stay inside their buffers, and every function rejects bad input.
 */
#include "doca_core/core_fixture.h"

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_mmap.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define ACCESS DOCA_ACCESS_FLAG_LOCAL_READ_WRITE

static uint32_t free_count(const struct doca_buf_inventory *inv)
{
	uint32_t n = 0;

	assert_int_equal(doca_buf_inventory_get_num_free_elements(inv, &n), DOCA_SUCCESS);
	return n;
}

/* Create, start, stop, destroy and their wrong states. */
static void test_inventory_lifecycle(void **state)
{
	struct cfx *f = *state;
	struct doca_buf_inventory *inv = NULL;
	struct doca_mmap *m = cfx_mmap(f, 0, 4096, ACCESS);
	struct doca_buf *b = NULL;
	uint32_t n = 0;

	assert_int_equal(doca_buf_inventory_create(4, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_create(0, &inv), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_create((size_t)UINT32_MAX + 1, &inv), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_create(4, &inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_get_num_elements(inv, &n), DOCA_SUCCESS);
	assert_int_equal(n, 4);
	assert_int_equal(free_count(inv), 4);
	assert_int_equal(doca_buf_inventory_get_num_elements(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_get_num_elements(inv, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_get_num_free_elements(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_get_num_free_elements(inv, NULL), DOCA_ERROR_INVALID_VALUE);

	/* Not started: nothing is handed out. */
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, f->buf, 64, &b), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_buf_inventory_stop(inv), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_buf_inventory_start(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_start(inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_start(inv), DOCA_ERROR_BAD_STATE);

	/* A buffer out: destroy refuses, the mmap cannot stop; a stopped inventory still takes it back. */
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, f->buf, 64, &b), DOCA_SUCCESS);
	assert_int_equal(free_count(inv), 3);
	assert_int_equal(doca_buf_inventory_destroy(inv), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_mmap_stop(m), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_buf_inventory_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_stop(inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, f->buf, 64, &b), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_buf_dec_refcount(b, NULL), DOCA_SUCCESS);
	assert_int_equal(free_count(inv), 4);
	assert_int_equal(doca_buf_inventory_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

static struct doca_buf_inventory *inventory(size_t n)
{
	struct doca_buf_inventory *inv = NULL;

	assert_int_equal(doca_buf_inventory_create(n, &inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_start(inv), DOCA_SUCCESS);
	return inv;
}

/* The range must lie in a started mmap; the data segment in the range; NULLs are refused. */
static void test_get_ranges(void **state)
{
	struct cfx *f = *state;
	struct doca_buf_inventory *inv = inventory(4);
	struct doca_mmap *m = cfx_mmap(f, 4096, 8192, ACCESS); /* [buf + 4096, buf + 12288) */
	struct doca_mmap *idle = NULL;
	uint8_t *lo = f->buf + 4096, *hi = f->buf + 12288;
	struct doca_buf *b = NULL;
	void *p = NULL;
	size_t len = 0;

	/* Whole range, and the last byte: fine. */
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, lo, 8192, &b), DOCA_SUCCESS);
	assert_int_equal(doca_buf_get_head(b, &p), DOCA_SUCCESS);
	assert_ptr_equal(p, lo);
	assert_int_equal(doca_buf_get_len(b, &len), DOCA_SUCCESS);
	assert_int_equal(len, 8192);
	assert_int_equal(doca_buf_get_data(b, &p), DOCA_SUCCESS);
	assert_ptr_equal(p, lo); /* by_addr: an empty data segment at the start */
	assert_int_equal(doca_buf_get_data_len(b, &len), DOCA_SUCCESS);
	assert_int_equal(len, 0);
	assert_int_equal(doca_buf_dec_refcount(b, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_data(inv, m, hi - 1, 1, &b), DOCA_SUCCESS);
	assert_int_equal(doca_buf_get_data_len(b, &len), DOCA_SUCCESS);
	assert_int_equal(len, 1); /* by_data: the whole range is data */
	assert_int_equal(doca_buf_get_data(b, &p), DOCA_SUCCESS);
	assert_ptr_equal(p, hi - 1);
	assert_int_equal(doca_buf_dec_refcount(b, NULL), DOCA_SUCCESS);

	/* Outside: before, past the end, straddling either edge, wrapping around. */
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, lo - 1, 1, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, hi, 1, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, lo - 8, 16, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, hi - 8, 16, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, lo, SIZE_MAX, &b), DOCA_ERROR_INVALID_VALUE);
	/* Data segment outside the buffer's range. */
	assert_int_equal(doca_buf_inventory_buf_get_by_args(inv, m, lo, 100, lo + 50, 51, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_args(inv, m, lo + 10, 100, lo, 1, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_args(inv, m, lo, 100, lo + 50, 50, &b), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(b, NULL), DOCA_SUCCESS);
	/* NULLs, and an mmap not started. */
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(NULL, m, lo, 1, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, NULL, lo, 1, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, NULL, 1, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, lo, 1, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_inventory_buf_get_by_args(inv, m, lo, 1, NULL, 0, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_mmap_create(&idle), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(idle, lo, 64), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, idle, lo, 1, &b), DOCA_ERROR_BAD_STATE);
	assert_int_equal(free_count(inv), 4); /* no failed call took a buffer */
	assert_int_equal(doca_mmap_destroy(idle), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

/* Every buffer out: NO_MEMORY; one back: it can be taken again. */
static void test_exhausted(void **state)
{
	struct cfx *f = *state;
	struct doca_buf_inventory *inv = inventory(3);
	struct doca_mmap *m = cfx_mmap(f, 0, 4096, ACCESS);
	struct doca_buf *b[4] = {NULL};

	for (int i = 0; i < 3; i++)
		assert_int_equal(doca_buf_inventory_buf_get_by_data(inv, m, f->buf + i * 100, 100, &b[i]), DOCA_SUCCESS);
	assert_true(b[0] != b[1] && b[1] != b[2] && b[0] != b[2]);
	assert_int_equal(free_count(inv), 0);
	assert_int_equal(doca_buf_inventory_buf_get_by_data(inv, m, f->buf, 1, &b[3]), DOCA_ERROR_NO_MEMORY);
	assert_null(b[3]);
	assert_int_equal(doca_buf_dec_refcount(b[1], NULL), DOCA_SUCCESS);
	assert_int_equal(free_count(inv), 1);
	assert_int_equal(doca_buf_inventory_buf_get_by_data(inv, m, f->buf + 500, 10, &b[3]), DOCA_SUCCESS);
	assert_int_equal(free_count(inv), 0);
	assert_int_equal(doca_buf_dec_refcount(b[0], NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(b[2], NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(b[3], NULL), DOCA_SUCCESS);
	assert_int_equal(free_count(inv), 3);
	assert_int_equal(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

/* Counts report the value before the call; zero gives the buffer back; a freed one is refused. */
static void test_refcount(void **state)
{
	struct cfx *f = *state;
	struct doca_buf_inventory *inv = inventory(2);
	struct doca_mmap *m = cfx_mmap(f, 0, 4096, ACCESS);
	struct doca_buf *b = NULL;
	uint16_t rc = 0;

	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, f->buf, 64, &b), DOCA_SUCCESS);
	assert_int_equal(doca_buf_get_refcount(b, &rc), DOCA_SUCCESS);
	assert_int_equal(rc, 1);
	assert_int_equal(doca_buf_inc_refcount(b, &rc), DOCA_SUCCESS);
	assert_int_equal(rc, 1);
	assert_int_equal(doca_buf_get_refcount(b, &rc), DOCA_SUCCESS);
	assert_int_equal(rc, 2);
	assert_int_equal(doca_buf_dec_refcount(b, &rc), DOCA_SUCCESS);
	assert_int_equal(rc, 2);
	assert_int_equal(free_count(inv), 1); /* still out */
	assert_int_equal(doca_mmap_stop(m), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_buf_dec_refcount(b, &rc), DOCA_SUCCESS);
	assert_int_equal(rc, 1);
	assert_int_equal(free_count(inv), 2); /* back */
	/* Released: nothing but the getters. */
	assert_int_equal(doca_buf_dec_refcount(b, &rc), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_buf_inc_refcount(b, &rc), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_buf_set_data_len(b, 0), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_buf_get_refcount(b, &rc), DOCA_SUCCESS);
	assert_int_equal(rc, 0);
	assert_int_equal(free_count(inv), 2); /* the double release did not corrupt the free list */

	/* The count saturates at UINT16_MAX. */
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, f->buf, 64, &b), DOCA_SUCCESS);
	for (uint32_t i = 1; i < UINT16_MAX; i++)
		assert_int_equal(doca_buf_inc_refcount(b, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inc_refcount(b, &rc), DOCA_ERROR_TOO_BIG);
	for (uint32_t i = UINT16_MAX; i > 0; i--)
		assert_int_equal(doca_buf_dec_refcount(b, NULL), DOCA_SUCCESS);
	assert_int_equal(free_count(inv), 2);

	assert_int_equal(doca_buf_inc_refcount(NULL, &rc), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_dec_refcount(NULL, &rc), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_refcount(NULL, &rc), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_refcount(b, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS); /* no buffer holds it any more */
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
}

/* The data segment moves only inside the buffer. */
static void test_data_segment(void **state)
{
	struct cfx *f = *state;
	struct doca_buf_inventory *inv = inventory(1);
	struct doca_mmap *m = cfx_mmap(f, 0, 4096, ACCESS);
	uint8_t *head = f->buf + 100;
	struct doca_buf *b = NULL;
	void *p = NULL;
	size_t len = 0;

	assert_int_equal(doca_buf_inventory_buf_get_by_addr(inv, m, head, 1000, &b), DOCA_SUCCESS);
	assert_int_equal(doca_buf_set_data(b, head + 10, 990), DOCA_SUCCESS);
	assert_int_equal(doca_buf_get_data(b, &p), DOCA_SUCCESS);
	assert_ptr_equal(p, head + 10);
	assert_int_equal(doca_buf_get_data_len(b, &len), DOCA_SUCCESS);
	assert_int_equal(len, 990);
	assert_int_equal(doca_buf_set_data(b, head + 10, 991), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_set_data(b, head - 1, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_set_data(b, head + 1001, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_set_data(b, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_set_data(NULL, head, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_data(b, &p), DOCA_SUCCESS);
	assert_ptr_equal(p, head + 10); /* unchanged by the refused calls */
	assert_int_equal(doca_buf_set_data(b, head + 1000, 0), DOCA_SUCCESS); /* empty, at the very end */
	assert_int_equal(doca_buf_set_data(b, head + 500, 100), DOCA_SUCCESS);
	assert_int_equal(doca_buf_set_data_len(b, 500), DOCA_SUCCESS);
	assert_int_equal(doca_buf_set_data_len(b, 501), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_data_len(b, &len), DOCA_SUCCESS);
	assert_int_equal(len, 500);
	assert_int_equal(doca_buf_reset_data_len(b), DOCA_SUCCESS);
	assert_int_equal(doca_buf_get_data_len(b, &len), DOCA_SUCCESS);
	assert_int_equal(len, 0);
	assert_int_equal(doca_buf_get_data(b, &p), DOCA_SUCCESS);
	assert_ptr_equal(p, head + 500);
	assert_int_equal(doca_buf_set_data_len(NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_reset_data_len(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_data(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_data(b, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_data_len(NULL, &len), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_data_len(b, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_head(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_head(b, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_len(NULL, &len), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_get_len(b, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_buf_dec_refcount(b, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_inventory_lifecycle, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_get_ranges, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_exhausted, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_refcount, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_data_segment, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
