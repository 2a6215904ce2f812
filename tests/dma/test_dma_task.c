/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA DMA memcpy tasks (the CPU data path) on the software NIC: bytes land for sizes from 0 to
 * 1 MiB, callbacks run from doca_pe_progress() with the task's and the context's user data, one
 * callback per submitted task and in order, a destination not open to RDMA writes fails in the
 * error callback with the remote-access syndrome, bad input is refused before anything is
 * posted, and a stop with tasks in flight drains them (every callback runs) before the context
 * becomes IDLE.
 */
#include "dma_fixture.h"

#include "dma/dma_priv.h"

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_pe.h"
#include "opengda_mlx5.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#define MAX_SEEN 64u
#define CTX_USER 0xc0ffee00ull

/* What the callbacks saw, in order. */
struct seen {
	uint32_t ok, failed;
	uint64_t user[MAX_SEEN];
	doca_error_t status[MAX_SEEN];
	uint8_t syndrome[MAX_SEEN];
	uint64_t ctx_user;
	bool free_in_cb; /* the callback frees its task */
};

static struct seen seen;

static void record(struct doca_dma_task_memcpy *task, union doca_data task_user, union doca_data ctx_user, bool ok)
{
	uint32_t i = seen.ok + seen.failed;

	assert_true(i < MAX_SEEN);
	seen.user[i] = task_user.u64;
	seen.status[i] = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	seen.syndrome[i] = dma_task_memcpy_syndrome(task);
	seen.ctx_user = ctx_user.u64;
	/* The task is the application's again in its callback. */
	assert_int_equal(doca_task_get_user_data(doca_dma_task_memcpy_as_task(task)).u64, task_user.u64);
	if (ok)
		seen.ok++;
	else
		seen.failed++;
	if (seen.free_in_cb)
		doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static void on_done(struct doca_dma_task_memcpy *task, union doca_data task_user, union doca_data ctx_user)
{
	record(task, task_user, ctx_user, true);
}

static void on_error(struct doca_dma_task_memcpy *task, union doca_data task_user, union doca_data ctx_user)
{
	record(task, task_user, ctx_user, false);
}

/* A DMA context with CPU tasks, its engine and an inventory. */
struct tfx {
	struct cfx *f;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf_inventory *inv;
};

/* A started context for @num_tasks tasks, reporting its state changes to @state_cb (or not). */
static void tfx_open_cb(struct cfx *f, struct tfx *t, uint32_t num_tasks, doca_ctx_state_changed_callback_t state_cb)
{
	*t = (struct tfx){.f = f};
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(doca_pe_create(&t->pe), DOCA_SUCCESS);
	assert_int_equal(doca_dma_create(f->dev, &t->dma), DOCA_SUCCESS);
	assert_int_equal(doca_dma_task_memcpy_set_conf(t->dma, on_done, on_error, num_tasks), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_user_data(doca_dma_as_ctx(t->dma), (union doca_data){.u64 = CTX_USER}),
			 DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_state_changed_cb(doca_dma_as_ctx(t->dma), state_cb), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(t->pe, doca_dma_as_ctx(t->dma)), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_dma_as_ctx(t->dma)), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_create(MAX_SEEN, &t->inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_start(t->inv), DOCA_SUCCESS);
}

static void tfx_open(struct cfx *f, struct tfx *t, uint32_t num_tasks)
{
	tfx_open_cb(f, t, num_tasks, NULL);
}

static void tfx_close(struct tfx *t)
{
	enum doca_ctx_states s;

	assert_int_equal(doca_ctx_get_state(doca_dma_as_ctx(t->dma), &s), DOCA_SUCCESS);
	if (s == DOCA_CTX_STATE_RUNNING)
		assert_int_equal(doca_ctx_stop(doca_dma_as_ctx(t->dma)), DOCA_SUCCESS);
	assert_int_equal(doca_dma_destroy(t->dma), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(t->pe), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_destroy(t->inv), DOCA_SUCCESS);
}

/* Progresses until @n callbacks have run in all (10 s at most: a lost completion fails here). */
static void progress_until(struct tfx *t, uint32_t n)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (seen.ok + seen.failed < n) {
		(void)doca_pe_progress(t->pe);
		clock_gettime(CLOCK_MONOTONIC, &now);
		assert_true(now.tv_sec - start.tv_sec < 10);
	}
}

static struct doca_task *alloc_task(struct tfx *t, struct doca_buf *src, struct doca_buf *dst, uint64_t user)
{
	struct doca_dma_task_memcpy *task = NULL;

	assert_int_equal(doca_dma_task_memcpy_alloc_init(t->dma, src, dst, (union doca_data){.u64 = user}, &task),
			 DOCA_SUCCESS);
	assert_ptr_equal(doca_dma_task_memcpy_get_src(task), src);
	assert_ptr_equal(doca_dma_task_memcpy_get_dst(task), dst);
	return doca_dma_task_memcpy_as_task(task);
}

/* Sizes 0 .. 1 MiB, source to destination; the bytes past the copy stay untouched. */
static void test_sizes(void **state)
{
	static const size_t sizes[] = {0, 1, 7, 4096, 65539, 1u << 20};
	const size_t guard = 64, cap = (1u << 20) + guard;
	struct tfx t;
	uint8_t *src, *dst;
	struct doca_mmap *ms, *md;

	tfx_open(*state, &t, 4);
	assert_int_equal(posix_memalign((void **)&src, 4096, cap), 0);
	assert_int_equal(posix_memalign((void **)&dst, 4096, cap), 0);
	ms = cfx_mmap_range(t.f, src, cap, DMAFX_SRC_ACCESS);
	md = cfx_mmap_range(t.f, dst, cap, DMAFX_DST_ACCESS);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct doca_buf *bs = NULL, *bd = NULL;
		struct doca_task *task;
		size_t len = 0;

		dmafx_fill(src, cap, (uint32_t)i + 1);
		memset(dst, 0xee, cap);
		assert_int_equal(doca_buf_inventory_buf_get_by_data(t.inv, ms, src, sizes[i], &bs), DOCA_SUCCESS);
		assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, md, dst, cap, &bd), DOCA_SUCCESS);
		task = alloc_task(&t, bs, bd, 100 + i);
		assert_int_equal(doca_task_submit(task), DOCA_SUCCESS);
		assert_int_equal(doca_task_get_status(task), DOCA_ERROR_IN_PROGRESS);
		progress_until(&t, (uint32_t)i + 1);
		assert_int_equal(seen.ok, i + 1);
		assert_int_equal(seen.user[i], 100 + i);
		assert_int_equal(seen.status[i], DOCA_SUCCESS);
		assert_int_equal(seen.ctx_user, CTX_USER);
		assert_int_equal(doca_task_get_status(task), DOCA_SUCCESS);
		assert_memory_equal(dst, src, sizes[i]);
		for (size_t k = sizes[i]; k < sizes[i] + guard; k++)
			assert_int_equal(dst[k], 0xee);
		assert_int_equal(doca_buf_get_data_len(bd, &len), DOCA_SUCCESS);
		assert_int_equal(len, sizes[i]);
		doca_task_free(task);
		assert_int_equal(doca_buf_dec_refcount(bs, NULL), DOCA_SUCCESS);
		assert_int_equal(doca_buf_dec_refcount(bd, NULL), DOCA_SUCCESS);
	}
	assert_int_equal(seen.failed, 0);
	assert_int_equal(doca_mmap_stop(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(md), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(md), DOCA_SUCCESS);
	free(src);
	free(dst);
	tfx_close(&t);
}

#define MANY 16u
#define PIECE 512u

/*
 * MANY tasks at once (the configured number): one callback each, in submission order, each with
 * its own user data; a further allocation is refused; the count in flight is reported. Then two
 * tasks, one after the other, append to one destination: the second lands after the first.
 */
static void test_many_and_tail(void **state)
{
	struct tfx t;
	struct cfx *f;
	struct doca_mmap *ms, *md;
	struct doca_buf *bs[MANY], *bd[MANY], *acc = NULL;
	struct doca_dma_task_memcpy *extra = NULL;
	size_t inflight = 0, len = 0;

	tfx_open(*state, &t, MANY);
	f = t.f;
	seen.free_in_cb = true;
	dmafx_fill(f->buf, MANY * PIECE, 5);
	ms = cfx_mmap(f, 0, MANY * PIECE, DMAFX_SRC_ACCESS);
	md = cfx_mmap(f, 32768, 32768, DMAFX_DST_ACCESS);
	for (uint32_t i = 0; i < MANY; i++) {
		assert_int_equal(doca_buf_inventory_buf_get_by_data(t.inv, ms, f->buf + i * PIECE, PIECE, &bs[i]),
				 DOCA_SUCCESS);
		/* Destinations in reverse order, so a misplaced copy shows. */
		assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, md, f->buf + 32768 + (MANY - 1 - i) * PIECE,
								    PIECE, &bd[i]),
				 DOCA_SUCCESS);
		assert_int_equal(doca_task_submit(alloc_task(&t, bs[i], bd[i], 1000 + i)), DOCA_SUCCESS);
	}
	assert_int_equal(doca_dma_task_memcpy_alloc_init(t.dma, bs[0], bd[0], (union doca_data){0}, &extra),
			 DOCA_ERROR_NO_MEMORY);
	assert_int_equal(doca_pe_get_num_inflight_tasks(t.pe, &inflight), DOCA_SUCCESS);
	assert_int_equal(inflight, MANY); /* callbacks run only in doca_pe_progress() */
	progress_until(&t, MANY);
	assert_int_equal(seen.ok, MANY);
	assert_int_equal(seen.failed, 0);
	for (uint32_t i = 0; i < MANY; i++) {
		assert_int_equal(seen.user[i], 1000 + i); /* in order, each once */
		assert_memory_equal(f->buf + 32768 + (MANY - 1 - i) * PIECE, f->buf + i * PIECE, PIECE);
	}
	assert_int_equal(doca_pe_get_num_inflight_tasks(t.pe, &inflight), DOCA_SUCCESS);
	assert_int_equal(inflight, 0);
	/* Further progress finds nothing: no callback twice. */
	for (int k = 0; k < 100; k++)
		(void)doca_pe_progress(t.pe);
	assert_int_equal(seen.ok + seen.failed, MANY);

	/* Two tasks into one destination: the second lands at the tail of the first. */
	memset(f->buf + 32768, 0, 2 * PIECE);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, md, f->buf + 32768, 2 * PIECE, &acc), DOCA_SUCCESS);
	assert_int_equal(doca_task_submit(alloc_task(&t, bs[3], acc, 1)), DOCA_SUCCESS);
	progress_until(&t, MANY + 1); /* the tail moves at completion: one task per destination at a time */
	assert_int_equal(doca_task_submit(alloc_task(&t, bs[7], acc, 2)), DOCA_SUCCESS);
	progress_until(&t, MANY + 2);
	assert_memory_equal(f->buf + 32768, f->buf + 3 * PIECE, PIECE);
	assert_memory_equal(f->buf + 32768 + PIECE, f->buf + 7 * PIECE, PIECE);
	assert_int_equal(doca_buf_get_data_len(acc, &len), DOCA_SUCCESS);
	assert_int_equal(len, 2 * PIECE);
	/* Full now: a third is refused at submit, and no callback runs for it. */
	{
		struct doca_task *task = alloc_task(&t, bs[0], acc, 3);

		assert_int_equal(doca_task_submit(task), DOCA_ERROR_INVALID_VALUE);
		for (int k = 0; k < 10; k++)
			(void)doca_pe_progress(t.pe);
		assert_int_equal(seen.ok + seen.failed, MANY + 2);
		doca_task_free(task);
	}
	for (uint32_t i = 0; i < MANY; i++) {
		assert_int_equal(doca_buf_dec_refcount(bs[i], NULL), DOCA_SUCCESS);
		assert_int_equal(doca_buf_dec_refcount(bd[i], NULL), DOCA_SUCCESS);
	}
	assert_int_equal(doca_buf_dec_refcount(acc, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(md), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(md), DOCA_SUCCESS);
	tfx_close(&t);
}

/*
 * A destination whose mmap does not grant RDMA writes: the NIC's remote-access error reaches
 * the error callback (IO_FAILED, syndrome 0x13) and nothing lands; the next task is flushed.
 * After a restart the context copies again.
 */
static void test_remote_access_error(void **state)
{
	struct tfx t;
	struct cfx *f;
	struct doca_mmap *ms, *mro, *md;
	struct doca_buf *bs = NULL, *bro = NULL, *bd = NULL;
	struct doca_task *t1, *t2;
	size_t len = 1;

	tfx_open(*state, &t, 4);
	f = t.f;
	seen.free_in_cb = true;
	dmafx_fill(f->buf, 1024, 11);
	ms = cfx_mmap(f, 0, 1024, DMAFX_SRC_ACCESS);
	mro = cfx_mmap(f, 8192, 1024, DMAFX_SRC_ACCESS); /* local rights only */
	md = cfx_mmap(f, 16384, 1024, DMAFX_DST_ACCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_data(t.inv, ms, f->buf, 1024, &bs), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, mro, f->buf + 8192, 1024, &bro), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, md, f->buf + 16384, 1024, &bd), DOCA_SUCCESS);
	t1 = alloc_task(&t, bs, bro, 1);
	t2 = alloc_task(&t, bs, bd, 2);
	assert_int_equal(doca_task_submit(t1), DOCA_SUCCESS);
	assert_int_equal(doca_task_submit(t2), DOCA_SUCCESS);
	progress_until(&t, 2);
	assert_int_equal(seen.ok, 0);
	assert_int_equal(seen.failed, 2);
	assert_int_equal(seen.user[0], 1);
	assert_int_equal(seen.status[0], DOCA_ERROR_IO_FAILED);
	assert_int_equal(seen.syndrome[0], OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	assert_int_equal(seen.user[1], 2);
	assert_int_equal(seen.status[1], DOCA_ERROR_IO_FAILED);
	assert_int_equal(seen.syndrome[1], OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	for (size_t k = 0; k < 1024; k++)
		assert_int_equal(f->buf[8192 + k], 0);
	assert_int_equal(doca_buf_get_data_len(bro, &len), DOCA_SUCCESS);
	assert_int_equal(len, 0); /* a failed task adds nothing */

	/* Restart: a fresh QP. */
	assert_int_equal(doca_ctx_stop(doca_dma_as_ctx(t.dma)), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_dma_as_ctx(t.dma)), DOCA_SUCCESS);
	assert_int_equal(doca_task_submit(alloc_task(&t, bs, bd, 3)), DOCA_SUCCESS);
	progress_until(&t, 3);
	assert_int_equal(seen.ok, 1);
	assert_int_equal(seen.status[2], DOCA_SUCCESS);
	assert_memory_equal(f->buf + 16384, f->buf, 1024);
	assert_int_equal(doca_buf_dec_refcount(bs, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(bro, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(bd, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(mro), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(md), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(mro), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(md), DOCA_SUCCESS);
	tfx_close(&t);
}

/* What the state callback saw. */
static struct {
	int n;
	enum doca_ctx_states prev[8], next[8];
} states;

static void on_state(const union doca_data user, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	(void)user, (void)ctx;
	assert_true(states.n < 8);
	states.prev[states.n] = prev;
	states.next[states.n++] = next;
}

static enum doca_ctx_states state_of(struct tfx *t)
{
	enum doca_ctx_states s;

	assert_int_equal(doca_ctx_get_state(doca_dma_as_ctx(t->dma), &s), DOCA_SUCCESS);
	return s;
}

#define STOP_TASKS 8u
#define STOP_LEN (256u * 1024u)

/*
 * Stop with tasks in flight: IN_PROGRESS and STOPPING; nothing new is accepted; every task
 * completes through its callback with its bytes landed; the context stays STOPPING while the
 * application still holds tasks, and becomes IDLE in doca_pe_progress() once they are freed.
 * Tasks allocated but never submitted hold a stop the same way.
 */
static void test_stop_in_flight(void **state)
{
	struct cfx *f = *state;
	struct tfx t;
	uint8_t *src, *dst;
	struct doca_mmap *ms, *md;
	struct doca_buf *bs[STOP_TASKS], *bd[STOP_TASKS];
	struct doca_task *task[STOP_TASKS], *late;
	struct doca_dma_task_memcpy *none = NULL;

	memset(&states, 0, sizeof(states));
	tfx_open_cb(f, &t, STOP_TASKS + 1, on_state);
	assert_int_equal(posix_memalign((void **)&src, 4096, STOP_TASKS * STOP_LEN), 0);
	assert_int_equal(posix_memalign((void **)&dst, 4096, STOP_TASKS * STOP_LEN), 0);
	dmafx_fill(src, STOP_TASKS * STOP_LEN, 21);
	memset(dst, 0, STOP_TASKS * STOP_LEN);
	ms = cfx_mmap_range(f, src, STOP_TASKS * STOP_LEN, DMAFX_SRC_ACCESS);
	md = cfx_mmap_range(f, dst, STOP_TASKS * STOP_LEN, DMAFX_DST_ACCESS);
	for (uint32_t i = 0; i < STOP_TASKS; i++) {
		assert_int_equal(doca_buf_inventory_buf_get_by_data(t.inv, ms, src + i * STOP_LEN, STOP_LEN, &bs[i]),
				 DOCA_SUCCESS);
		assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, md, dst + i * STOP_LEN, STOP_LEN, &bd[i]),
				 DOCA_SUCCESS);
		task[i] = alloc_task(&t, bs[i], bd[i], 500 + i);
		assert_int_equal(doca_task_submit(task[i]), DOCA_SUCCESS);
	}
	late = alloc_task(&t, bs[0], bd[0], 999); /* allocated, never submitted */
	assert_int_equal(doca_ctx_stop(doca_dma_as_ctx(t.dma)), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(state_of(&t), DOCA_CTX_STATE_STOPPING);
	assert_int_equal(doca_ctx_stop(doca_dma_as_ctx(t.dma)), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_task_submit(late), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_dma_task_memcpy_alloc_init(t.dma, bs[0], bd[0], (union doca_data){0}, &none),
			 DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_dma_destroy(t.dma), DOCA_ERROR_BAD_STATE);
	progress_until(&t, STOP_TASKS);
	assert_int_equal(seen.ok, STOP_TASKS);
	assert_int_equal(seen.failed, 0);
	for (uint32_t i = 0; i < STOP_TASKS; i++)
		assert_int_equal(seen.user[i], 500 + i);
	assert_memory_equal(dst, src, STOP_TASKS * STOP_LEN);
	/* Drained but the tasks are still the application's: STOPPING. */
	for (int k = 0; k < 10; k++)
		(void)doca_pe_progress(t.pe);
	assert_int_equal(state_of(&t), DOCA_CTX_STATE_STOPPING);
	for (uint32_t i = 0; i < STOP_TASKS; i++)
		doca_task_free(task[i]);
	(void)doca_pe_progress(t.pe);
	assert_int_equal(state_of(&t), DOCA_CTX_STATE_STOPPING); /* `late` is still allocated */
	doca_task_free(late);
	assert_int_equal(state_of(&t), DOCA_CTX_STATE_STOPPING); /* becomes IDLE in progress */
	(void)doca_pe_progress(t.pe);
	assert_int_equal(state_of(&t), DOCA_CTX_STATE_IDLE);
	(void)doca_pe_progress(t.pe); /* delivers the last state change */
	assert_int_equal(states.n, 3);
	assert_int_equal(states.prev[0], DOCA_CTX_STATE_IDLE);
	assert_int_equal(states.next[0], DOCA_CTX_STATE_RUNNING);
	assert_int_equal(states.prev[1], DOCA_CTX_STATE_RUNNING);
	assert_int_equal(states.next[1], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(states.prev[2], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(states.next[2], DOCA_CTX_STATE_IDLE);
	assert_int_equal(seen.ok + seen.failed, STOP_TASKS); /* no callback for `late`, none twice */

	/* A context stopped that way starts again and copies. */
	memset(dst, 0, STOP_LEN);
	assert_int_equal(doca_buf_reset_data_len(bd[0]), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_dma_as_ctx(t.dma)), DOCA_SUCCESS);
	task[0] = alloc_task(&t, bs[0], bd[0], 7);
	assert_int_equal(doca_task_submit(task[0]), DOCA_SUCCESS);
	progress_until(&t, STOP_TASKS + 1);
	assert_int_equal(seen.status[STOP_TASKS], DOCA_SUCCESS);
	assert_memory_equal(dst, src, STOP_LEN);
	doca_task_free(task[0]);
	for (uint32_t i = 0; i < STOP_TASKS; i++) {
		assert_int_equal(doca_buf_dec_refcount(bs[i], NULL), DOCA_SUCCESS);
		assert_int_equal(doca_buf_dec_refcount(bd[i], NULL), DOCA_SUCCESS);
	}
	assert_int_equal(doca_mmap_stop(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(md), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(md), DOCA_SUCCESS);
	free(src);
	free(dst);
	tfx_close(&t);
}

/* Bad input to every task function, checked before anything is posted. */
static void test_task_bad_input(void **state)
{
	struct tfx t;
	struct cfx *f = *state;
	struct doca_dma *idle = NULL;
	struct doca_mmap *ms, *md, *nodev = NULL;
	struct doca_buf *bs = NULL, *bd = NULL, *small = NULL, *bnodev = NULL, *gone = NULL;
	struct doca_dma_task_memcpy *mt = NULL;
	struct doca_task *task;
	struct doca_gpu_dma *h = NULL;
	size_t n = 0;
	uint32_t max = 0;

	/* Configuration and start. */
	assert_int_equal(doca_dma_create(f->dev, &idle), DOCA_SUCCESS);
	assert_int_equal(doca_dma_task_memcpy_set_conf(NULL, on_done, on_error, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_task_memcpy_set_conf(idle, NULL, on_error, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_task_memcpy_set_conf(idle, on_done, NULL, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_task_memcpy_set_conf(idle, on_done, on_error, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_task_memcpy_set_conf(idle, on_done, on_error, OPENGDA_DMA_MAX_QUEUE_SIZE + 1),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_cap_get_max_num_tasks(NULL, &max), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_cap_get_max_num_tasks(idle, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_cap_get_max_num_tasks(idle, &max), DOCA_SUCCESS);
	assert_int_equal(max, OPENGDA_DMA_MAX_QUEUE_SIZE);
	assert_int_equal(doca_ctx_start(doca_dma_as_ctx(idle)), DOCA_ERROR_BAD_STATE); /* no data path at all */
	assert_int_equal(doca_dma_task_memcpy_set_conf(idle, on_done, on_error, 4), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_dma_as_ctx(idle)), DOCA_ERROR_BAD_STATE); /* no progress engine */
	assert_int_equal(doca_dma_task_memcpy_alloc_init(idle, NULL, NULL, (union doca_data){0}, &mt),
			 DOCA_ERROR_BAD_STATE); /* not running */
	assert_int_equal(doca_dma_destroy(idle), DOCA_SUCCESS);

	tfx_open(f, &t, 4);
	assert_int_equal(doca_dma_task_memcpy_set_conf(t.dma, on_done, on_error, 4), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_dma_get_gpu_handle(t.dma, &h), DOCA_ERROR_BAD_STATE); /* CPU data path */
	assert_int_equal(doca_dma_destroy(t.dma), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_dma_task_memcpy_alloc_init(NULL, NULL, NULL, (union doca_data){0}, &mt),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dma_task_memcpy_alloc_init(t.dma, NULL, NULL, (union doca_data){0}, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	/* NULL tasks everywhere. */
	assert_int_equal(doca_task_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_task_try_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_task_get_status(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_task_get_user_data(NULL).u64, 0);
	assert_null(doca_task_get_ctx(NULL));
	assert_null(doca_dma_task_memcpy_as_task(NULL));
	assert_null(doca_dma_task_memcpy_get_src(NULL));
	assert_null(doca_dma_task_memcpy_get_dst(NULL));
	doca_dma_task_memcpy_set_src(NULL, NULL);
	doca_dma_task_memcpy_set_dst(NULL, NULL);
	doca_task_set_user_data(NULL, (union doca_data){0});
	doca_task_free(NULL);
	assert_int_equal(doca_pe_get_num_inflight_tasks(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_pe_get_num_inflight_tasks(t.pe, NULL), DOCA_ERROR_INVALID_VALUE);

	/* Buffers: missing, too small a destination, an mmap not on the device, a buffer given back. */
	dmafx_fill(f->buf, 1024, 2);
	ms = cfx_mmap(f, 0, 1024, DMAFX_SRC_ACCESS);
	md = cfx_mmap(f, 8192, 8192, DMAFX_DST_ACCESS);
	assert_int_equal(doca_mmap_create(&nodev), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(nodev, f->buf + 16384, 1024), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(nodev), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_data(t.inv, ms, f->buf, 1024, &bs), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, md, f->buf + 8192, 1024, &bd), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, md, f->buf + 10240, 1023, &small), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, nodev, f->buf + 16384, 1024, &bnodev),
			 DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, md, f->buf + 12288, 1024, &gone), DOCA_SUCCESS);
	assert_int_equal(doca_dma_task_memcpy_alloc_init(t.dma, NULL, bd, (union doca_data){.u64 = 1}, &mt), DOCA_SUCCESS);
	task = doca_dma_task_memcpy_as_task(mt);
	assert_ptr_equal(doca_task_get_ctx(task), doca_dma_as_ctx(t.dma));
	assert_int_equal(doca_task_submit(task), DOCA_ERROR_INVALID_VALUE); /* no source */
	doca_dma_task_memcpy_set_src(mt, bs);
	doca_dma_task_memcpy_set_dst(mt, NULL);
	assert_int_equal(doca_task_submit(task), DOCA_ERROR_INVALID_VALUE); /* no destination */
	doca_dma_task_memcpy_set_dst(mt, small);
	assert_int_equal(doca_task_submit(task), DOCA_ERROR_INVALID_VALUE); /* 1024 bytes into 1023 */
	assert_int_equal(doca_task_get_status(task), DOCA_ERROR_INVALID_VALUE);
	doca_dma_task_memcpy_set_dst(mt, bnodev);
	assert_int_equal(doca_task_submit(task), DOCA_ERROR_INVALID_VALUE); /* mmap without the device */
	doca_dma_task_memcpy_set_src(mt, bnodev);
	doca_dma_task_memcpy_set_dst(mt, bd);
	assert_int_equal(doca_task_submit(task), DOCA_ERROR_INVALID_VALUE); /* same, as the source */
	doca_dma_task_memcpy_set_src(mt, bs);
	doca_dma_task_memcpy_set_dst(mt, gone);
	assert_int_equal(doca_buf_dec_refcount(gone, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_task_submit(task), DOCA_ERROR_INVALID_VALUE); /* destination given back */
	assert_int_equal(doca_pe_get_num_inflight_tasks(t.pe, &n), DOCA_SUCCESS);
	assert_int_equal(n, 0);
	for (int k = 0; k < 10; k++)
		(void)doca_pe_progress(t.pe);
	assert_int_equal(seen.ok + seen.failed, 0); /* refused tasks get no callback */
	/* The same task, fixed, goes through (try_submit checks the same way); new user data shows. */
	doca_dma_task_memcpy_set_dst(mt, bd);
	doca_task_set_user_data(task, (union doca_data){.u64 = 77});
	assert_int_equal(doca_task_try_submit(task), DOCA_SUCCESS);
	progress_until(&t, 1);
	assert_int_equal(seen.ok, 1);
	assert_int_equal(seen.user[0], 77);
	assert_memory_equal(f->buf + 8192, f->buf, 1024);
	doca_task_free(task);

	assert_int_equal(doca_buf_dec_refcount(bs, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(bd, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(small, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(bnodev, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(md), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(nodev), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(md), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(nodev), DOCA_SUCCESS);
	tfx_close(&t);
}

/* Tasks in the wrong state: in flight, freed; contexts that have no CPU tasks. */
static void test_task_bad_states(void **state)
{
	struct tfx t;
	struct cfx *f = *state;
	struct doca_mmap *ms, *md;
	struct doca_buf *bs = NULL, *bd = NULL;
	struct doca_dma_task_memcpy *mt = NULL;
	struct doca_task *task;
	struct doca_gpu_dma *h = NULL;
	struct doca_dma *gpu_path;

	tfx_open(f, &t, 2);
	ms = cfx_mmap(f, 0, 4096, DMAFX_SRC_ACCESS);
	md = cfx_mmap(f, 8192, 8192, DMAFX_DST_ACCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_data(t.inv, ms, f->buf, 64, &bs), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_buf_get_by_addr(t.inv, md, f->buf + 8192, 8192, &bd), DOCA_SUCCESS);
	task = alloc_task(&t, bs, bd, 1);
	assert_int_equal(doca_task_submit(task), DOCA_SUCCESS);
	assert_int_equal(doca_task_submit(task), DOCA_ERROR_BAD_STATE); /* in flight */
	doca_task_free(task);                                            /* refused: in flight */
	assert_int_equal(doca_task_get_status(task), DOCA_ERROR_IN_PROGRESS);
	progress_until(&t, 1);
	assert_int_equal(seen.ok, 1); /* the refused free lost nothing */
	doca_task_free(task);
	doca_task_free(task); /* refused: free already */
	assert_int_equal(doca_task_submit(task), DOCA_ERROR_BAD_STATE);
	/* Both tasks are free again: two can be allocated, not three. */
	assert_int_equal(doca_dma_task_memcpy_alloc_init(t.dma, bs, bd, (union doca_data){0}, &mt), DOCA_SUCCESS);
	doca_task_free(doca_dma_task_memcpy_as_task(mt));
	assert_int_equal(doca_dma_task_memcpy_alloc_init(t.dma, bs, bd, (union doca_data){0}, &mt), DOCA_SUCCESS);
	task = doca_dma_task_memcpy_as_task(mt);
	assert_int_equal(doca_dma_task_memcpy_alloc_init(t.dma, bs, bd, (union doca_data){0}, &mt), DOCA_SUCCESS);
	assert_int_equal(doca_dma_task_memcpy_alloc_init(t.dma, bs, bd, (union doca_data){0}, &mt), DOCA_ERROR_NO_MEMORY);
	doca_task_free(task);
	doca_task_free(doca_dma_task_memcpy_as_task(mt));

	/* A context with a GPU data path (host handle) has no CPU tasks. */
	gpu_path = dmafx_dma_start(f, 0, 0, &h);
	assert_int_equal(doca_dma_task_memcpy_alloc_init(gpu_path, bs, bd, (union doca_data){0}, &mt),
			 DOCA_ERROR_BAD_STATE);
	dmafx_dma_stop(gpu_path);

	assert_int_equal(doca_buf_dec_refcount(bs, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_dec_refcount(bd, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(md), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(ms), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(md), DOCA_SUCCESS);
	tfx_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sizes, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_many_and_tail, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_remote_access_error, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_stop_in_flight, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_task_bad_input, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_task_bad_states, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
