/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU semaphores on a host handle: a producer thread using the host API hands numbered records
 * to consumer threads using the device functions (device/ogda_dev_sem.h, the C core of
 * doca_gpunetio_dev_sem.cuh), and back; statuses, custom info and packet info round-trip; the
 * CPU-side calls refuse GPU memory; misuse and bad input return their documented errors.
 * Under ThreadSanitizer the release (set) / acquire (get) pairing is what makes the records'
 * plain stores visible.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpu_test_log.h"
#include "doca_gpunetio.h"
#include "opengda_gpunetio.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#define ITEMS 16u
#define CONSUMERS 4u
#define ROUNDS 200u
#define WAIT_NS (20ull * 1000 * 1000 * 1000)

struct record {
	uint64_t seq;
	uint64_t check; /* seq * 3 + 1 */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct doca_gpu_semaphore *started_sem(struct doca_gpu *gpu, enum doca_gpu_mem_type t, uint32_t n,
					      uint32_t custom, enum doca_gpu_mem_type ct)
{
	struct doca_gpu_semaphore *s = NULL;

	assert_int_equal(doca_gpu_semaphore_create(gpu, &s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_set_memory_type(s, t), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_set_items_num(s, n), DOCA_SUCCESS);
	if (custom != 0)
		assert_int_equal(doca_gpu_semaphore_set_custom_info(s, custom, ct), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_start(s), DOCA_SUCCESS);
	return s;
}

struct consumer {
	pthread_t th;
	struct doca_gpu_semaphore_gpu *sem;
	uint32_t id;
	uint64_t consumed;
	int bad; /* a record that did not match its sequence number */
	int timed_out;
};

/* Device side: owns items id, id + CONSUMERS, ...; takes READY records, frees the item. */
static void *consume(void *arg)
{
	struct consumer *c = arg;
	uint64_t deadline = now_ns() + WAIT_NS;
	uint64_t next[ITEMS] = {0};

	for (;;) {
		int exits = 0;

		for (uint32_t i = c->id; i < ITEMS; i += CONSUMERS) {
			enum doca_gpu_semaphore_status st = DOCA_GPU_SEMAPHORE_STATUS_FREE;
			struct record *r;
			void *p;

			if (ogda_dev_sem_get_status(c->sem, i, &st) != DOCA_SUCCESS)
				c->bad++;
			if (st == DOCA_GPU_SEMAPHORE_STATUS_EXIT) {
				exits++;
				continue;
			}
			if (st != DOCA_GPU_SEMAPHORE_STATUS_READY)
				continue;
			if (ogda_dev_sem_get_custom_info_addr(c->sem, i, &p) != DOCA_SUCCESS) {
				c->bad++;
				continue;
			}
			r = p;
			/* item i carries sequence numbers i, i + ITEMS, i + 2 * ITEMS ... in order */
			if (r->seq != next[i] * ITEMS + i || r->check != r->seq * 3 + 1)
				c->bad++;
			next[i]++;
			c->consumed++;
			if (ogda_dev_sem_set_status(c->sem, i, DOCA_GPU_SEMAPHORE_STATUS_FREE) != DOCA_SUCCESS)
				c->bad++;
		}
		if (exits == (int)((ITEMS - c->id + CONSUMERS - 1) / CONSUMERS))
			return NULL;
		if (now_ns() > deadline) {
			c->timed_out = 1;
			return NULL;
		}
		sched_yield();
	}
}

/* Host producer: for every round and item, wait until FREE, write the record, set READY. */
static void produce(struct doca_gpu_semaphore *s, enum doca_gpu_semaphore_status last)
{
	uint64_t deadline = now_ns() + WAIT_NS;

	for (uint32_t round = 0; round <= ROUNDS; round++) {
		for (uint32_t i = 0; i < ITEMS; i++) {
			enum doca_gpu_semaphore_status st;
			struct record *r;
			void *p;

			do {
				assert_int_equal(doca_gpu_semaphore_get_status(s, i, &st), DOCA_SUCCESS);
				if (now_ns() > deadline)
					fail_msg("item %u never became FREE (status %d)", i, (int)st);
				if (st != DOCA_GPU_SEMAPHORE_STATUS_FREE)
					sched_yield();
			} while (st != DOCA_GPU_SEMAPHORE_STATUS_FREE);
			if (round == ROUNDS) {
				assert_int_equal(doca_gpu_semaphore_set_status(s, i, last), DOCA_SUCCESS);
				continue;
			}
			assert_int_equal(doca_gpu_semaphore_get_custom_info_addr(s, i, &p), DOCA_SUCCESS);
			r = p;
			r->seq = (uint64_t)round * ITEMS + i;
			r->check = r->seq * 3 + 1;
			assert_int_equal(doca_gpu_semaphore_set_status(s, i, DOCA_GPU_SEMAPHORE_STATUS_READY), DOCA_SUCCESS);
		}
	}
}

static void run_exchange(struct doca_gpu *gpu, enum doca_gpu_mem_type t)
{
	struct doca_gpu_semaphore *s = started_sem(gpu, t, ITEMS, sizeof(struct record), t);
	struct consumer c[CONSUMERS];
	struct doca_gpu_semaphore_gpu *h = NULL;
	uint64_t total = 0;

	assert_int_equal(doca_gpu_semaphore_get_gpu_handle(s, &h), DOCA_SUCCESS);
	assert_int_equal(h->items_num, ITEMS);
	assert_int_equal(h->custom_info_size, sizeof(struct record));
	for (uint32_t k = 0; k < CONSUMERS; k++) {
		c[k] = (struct consumer){.sem = h, .id = k};
		assert_int_equal(pthread_create(&c[k].th, NULL, consume, &c[k]), 0);
	}
	produce(s, DOCA_GPU_SEMAPHORE_STATUS_EXIT);
	for (uint32_t k = 0; k < CONSUMERS; k++) {
		assert_int_equal(pthread_join(c[k].th, NULL), 0);
		assert_int_equal(c[k].bad, 0);
		assert_int_equal(c[k].timed_out, 0);
		total += c[k].consumed;
	}
	assert_int_equal(total, (uint64_t)ROUNDS * ITEMS); /* every record, once, intact and in order */
	assert_int_equal(doca_gpu_semaphore_stop(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_destroy(s), DOCA_SUCCESS);
}

static void test_exchange_cpu_gpu(void **state)
{
	run_exchange(*state, DOCA_GPU_MEM_TYPE_CPU_GPU);
}

static void test_exchange_gpu_cpu(void **state)
{
	run_exchange(*state, DOCA_GPU_MEM_TYPE_GPU_CPU);
}

/* Every status both ways; packet info; custom info addresses; a fresh start is all FREE. */
static void test_round_trips(void **state)
{
	struct doca_gpu_semaphore *s = started_sem(*state, DOCA_GPU_MEM_TYPE_CPU_GPU, 8, 24, DOCA_GPU_MEM_TYPE_CPU_GPU);
	struct doca_gpu_semaphore_gpu *h = NULL;
	enum doca_gpu_semaphore_status st;
	void *host_ci = NULL, *dev_ci = NULL;
	uint32_t n;
	uint64_t b;

	assert_int_equal(doca_gpu_semaphore_get_gpu_handle(s, &h), DOCA_SUCCESS);
	for (uint32_t i = 0; i < 8; i++) {
		assert_int_equal(doca_gpu_semaphore_get_status(s, i, &st), DOCA_SUCCESS);
		assert_int_equal(st, DOCA_GPU_SEMAPHORE_STATUS_FREE);
	}
	for (int v = DOCA_GPU_SEMAPHORE_STATUS_FREE; v <= DOCA_GPU_SEMAPHORE_STATUS_EXIT; v++) {
		assert_int_equal(doca_gpu_semaphore_set_status(s, 3, (enum doca_gpu_semaphore_status)v), DOCA_SUCCESS);
		assert_int_equal(ogda_dev_sem_get_status(h, 3, &st), DOCA_SUCCESS);
		assert_int_equal(st, v);
		assert_int_equal(ogda_dev_sem_set_status(h, 5, (uint32_t)v), DOCA_SUCCESS);
		assert_int_equal(doca_gpu_semaphore_get_status(s, 5, &st), DOCA_SUCCESS);
		assert_int_equal(st, v);
	}
	/* compare-and-set: only from the expected status */
	assert_int_equal(ogda_dev_sem_set_status_cas(h, 5, DOCA_GPU_SEMAPHORE_STATUS_READY,
						     DOCA_GPU_SEMAPHORE_STATUS_DONE), DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(ogda_dev_sem_set_status_cas(h, 5, DOCA_GPU_SEMAPHORE_STATUS_EXIT,
						     DOCA_GPU_SEMAPHORE_STATUS_DONE), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_get_status(s, 5, &st), DOCA_SUCCESS);
	assert_int_equal(st, DOCA_GPU_SEMAPHORE_STATUS_DONE);
	/* packet info */
	assert_int_equal(ogda_dev_sem_set_packet_info(h, 6, DOCA_GPU_SEMAPHORE_STATUS_READY, 77, 123456789ull),
			 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_sem_get_packet_info(h, 6, &st, &n, &b), DOCA_SUCCESS);
	assert_int_equal(st, DOCA_GPU_SEMAPHORE_STATUS_READY);
	assert_int_equal(n, 77);
	assert_int_equal(b, 123456789ull);
	assert_int_equal(ogda_dev_sem_get_packet_info_status(h, 6, DOCA_GPU_SEMAPHORE_STATUS_READY, &n, &b),
			 DOCA_SUCCESS);
	assert_int_equal(ogda_dev_sem_get_packet_info_status(h, 6, DOCA_GPU_SEMAPHORE_STATUS_DONE, &n, &b),
			 DOCA_ERROR_NOT_FOUND);
	/* custom info: the same record from both sides, 24 bytes apart */
	assert_int_equal(doca_gpu_semaphore_get_custom_info_addr(s, 7, &host_ci), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_sem_get_custom_info_addr(h, 7, &dev_ci), DOCA_SUCCESS);
	assert_ptr_equal(host_ci, dev_ci); /* host handle: one address space */
	assert_int_equal(ogda_dev_sem_get_custom_info_addr(h, 6, &dev_ci), DOCA_SUCCESS);
	assert_int_equal((uint8_t *)host_ci - (uint8_t *)dev_ci, 24);
	/* a restart zeroes everything */
	assert_int_equal(doca_gpu_semaphore_stop(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_start(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_get_status(s, 5, &st), DOCA_SUCCESS);
	assert_int_equal(st, DOCA_GPU_SEMAPHORE_STATUS_FREE);
	assert_int_equal(doca_gpu_semaphore_stop(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_destroy(s), DOCA_SUCCESS);
}

/* GPU memory: device functions work, the CPU-side calls refuse; no custom info: NOT_FOUND. */
static void test_gpu_memory(void **state)
{
	struct doca_gpu_semaphore *s = started_sem(*state, DOCA_GPU_MEM_TYPE_GPU, 4, 8, DOCA_GPU_MEM_TYPE_GPU);
	struct doca_gpu_semaphore *plain = started_sem(*state, DOCA_GPU_MEM_TYPE_CPU_GPU, 4, 0, DOCA_GPU_MEM_TYPE_GPU);
	struct doca_gpu_semaphore_gpu *h = NULL;
	enum doca_gpu_semaphore_status st;
	void *p;

	assert_int_equal(doca_gpu_semaphore_get_gpu_handle(s, &h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_sem_set_status(h, 1, DOCA_GPU_SEMAPHORE_STATUS_HOLD), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_sem_get_status(h, 1, &st), DOCA_SUCCESS);
	assert_int_equal(st, DOCA_GPU_SEMAPHORE_STATUS_HOLD);
	assert_int_equal(ogda_dev_sem_get_custom_info_addr(h, 1, &p), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_status(s, 1, &st), DOCA_ERROR_NOT_SUPPORTED, "check_status_item");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_status(s, 1, DOCA_GPU_SEMAPHORE_STATUS_FREE),
			  DOCA_ERROR_NOT_SUPPORTED, "check_status_item");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_custom_info_addr(s, 1, &p), DOCA_ERROR_NOT_SUPPORTED,
			  "doca_gpu_semaphore_get_custom_info_addr");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_custom_info_addr(plain, 1, &p), DOCA_ERROR_NOT_FOUND,
			  "doca_gpu_semaphore_get_custom_info_addr");
	assert_int_equal(doca_gpu_semaphore_get_gpu_handle(plain, &h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_sem_get_custom_info_addr(h, 1, &p), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(doca_gpu_semaphore_stop(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_stop(plain), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_destroy(s), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_destroy(plain), DOCA_SUCCESS);
}

static void test_state_misuse(void **state)
{
	struct doca_gpu_semaphore *s = NULL, *t = NULL;
	struct doca_gpu_semaphore_gpu *h;
	enum doca_gpu_semaphore_status st;

	assert_int_equal(doca_gpu_semaphore_create(*state, &s), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_start(s), DOCA_ERROR_BAD_STATE, "doca_gpu_semaphore_start");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_stop(s), DOCA_ERROR_BAD_STATE, "doca_gpu_semaphore_stop");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_gpu_handle(s, &h), DOCA_ERROR_BAD_STATE,
			  "doca_gpu_semaphore_get_gpu_handle");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_status(s, 0, &st), DOCA_ERROR_BAD_STATE, "check_item");
	assert_int_equal(doca_gpu_semaphore_destroy(s), DOCA_SUCCESS);

	t = started_sem(*state, DOCA_GPU_MEM_TYPE_CPU_GPU, 2, 0, DOCA_GPU_MEM_TYPE_GPU);
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_start(t), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_items_num(t, 4), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_memory_type(t, DOCA_GPU_MEM_TYPE_GPU), DOCA_ERROR_BAD_STATE,
			  "check_config");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_custom_info(t, 8, DOCA_GPU_MEM_TYPE_GPU), DOCA_ERROR_BAD_STATE,
			  "check_config");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_destroy(t), DOCA_ERROR_BAD_STATE, "check_config");
	assert_int_equal(doca_gpu_semaphore_stop(t), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_destroy(t), DOCA_SUCCESS);
}

static void test_bad_input(void **state)
{
	struct doca_gpu_semaphore *s = NULL, *t;
	struct doca_gpu_semaphore_gpu *h = NULL;
	enum doca_gpu_semaphore_status st;
	uint32_t n;
	uint64_t b;
	void *p;

	EXPECT_LOGGED_ERR(doca_gpu_semaphore_create(NULL, &s), DOCA_ERROR_INVALID_VALUE, "doca_gpu_semaphore_create");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_create(*state, NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_semaphore_create");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "check_config");
	assert_int_equal(doca_gpu_semaphore_create(*state, &s), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_items_num(s, 0), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_semaphore_set_items_num");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_memory_type(s, (enum doca_gpu_mem_type)7), DOCA_ERROR_INVALID_VALUE,
			  "check_mtype");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_custom_info(s, 8, (enum doca_gpu_mem_type)-1),
			  DOCA_ERROR_INVALID_VALUE, "check_mtype");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_items_num(NULL, 1), DOCA_ERROR_INVALID_VALUE, "check_config");
	assert_int_equal(doca_gpu_semaphore_destroy(s), DOCA_SUCCESS);

	t = started_sem(*state, DOCA_GPU_MEM_TYPE_CPU_GPU, 4, 16, DOCA_GPU_MEM_TYPE_CPU_GPU);
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_status(t, 4, &st), DOCA_ERROR_INVALID_VALUE, "check_item");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_status(t, 0, NULL), DOCA_ERROR_INVALID_VALUE, "check_item");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_status(t, 4, DOCA_GPU_SEMAPHORE_STATUS_READY),
			  DOCA_ERROR_INVALID_VALUE, "check_item");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_set_status(t, 0, (enum doca_gpu_semaphore_status)6),
			  DOCA_ERROR_INVALID_VALUE, "doca_gpu_semaphore_set_status");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_custom_info_addr(t, 4, &p), DOCA_ERROR_INVALID_VALUE, "check_item");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_custom_info_addr(NULL, 0, &p), DOCA_ERROR_INVALID_VALUE,
			  "check_item");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_get_gpu_handle(t, NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_gpu_semaphore_get_gpu_handle");
	EXPECT_LOGGED_ERR(doca_gpu_semaphore_stop(NULL), DOCA_ERROR_INVALID_VALUE, "doca_gpu_semaphore_stop");
	/* the device functions check their index, status and pointers too */
	assert_int_equal(doca_gpu_semaphore_get_gpu_handle(t, &h), DOCA_SUCCESS);
	assert_int_equal(ogda_dev_sem_get_status(h, 4, &st), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_get_status(NULL, 0, &st), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_get_status(h, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_set_status(h, 4, DOCA_GPU_SEMAPHORE_STATUS_READY), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_set_status(h, 0, 6), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_set_status_cas(h, 4, 0, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_set_packet_info(h, 4, 1, 1, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_get_packet_info(h, 0, &st, NULL, &b), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_get_packet_info_status(h, 0, 0, &n, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_get_custom_info_addr(h, 4, &p), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(ogda_dev_sem_get_custom_info_addr(h, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_gpu_semaphore_stop(t), DOCA_SUCCESS);
	assert_int_equal(doca_gpu_semaphore_destroy(t), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exchange_cpu_gpu, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_exchange_gpu_cpu, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_round_trips, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_gpu_memory, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_state_misuse, gpu_test_host_setup, gpu_test_host_teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, gpu_test_host_setup, gpu_test_host_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
