/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared QPs (GPU and CTA sharing) driven by many host threads at once, and EXCLUSIVE QPs with
 * one thread each: every byte and every signal lands, the three indices meet at the end, the
 * software NIC executes exactly the WQEs posted and sees no more doorbells than WQEs. Built to
 * run under ThreadSanitizer too (OGDA_SANITIZE=thread): host threads use the same atomics and
 * fences device code does.
 */
#include "dev_fixture.h"
#include "scratch_sq.h"

#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define CHUNK 256u           /* bytes per put */
#define SIG_OFF (1u << 20)   /* remote signal word */
#define OLD_OFF (1u << 20)   /* local slots of the values signals fetch (one per signal) */
#define MAX_THREADS 32u

/* One case: nthreads threads posting ops_per_thread operations each on QP 0. */
struct shared_case {
	struct dfx_cfg cfg;
	uint32_t nthreads;
	uint32_t ops_per_thread;
	int sharing;
};

struct worker {
	struct dfx *f;
	struct doca_gpu_dev_verbs_qp *qp;
	const struct shared_case *sc;
	pthread_barrier_t *start;
	uint32_t id;
	/* results, read by the main thread after join */
	int rc;                /* first non-zero return */
	int order_bad;         /* a ticket not above the thread's previous one */
	uint64_t last_ticket;
};

static uint32_t op_index(const struct worker *w, uint32_t j)
{
	return w->id * w->sc->ops_per_thread + j;
}

/* Even operations put CHUNK bytes to the thread's own range; odd ones add id + 1 to the signal. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct dfx *f = w->f;
	uint64_t prev = 0, ticket = 0;
	int rc;

	pthread_barrier_wait(w->start);
	for (uint32_t j = 0; j < w->sc->ops_per_thread; j++) {
		size_t off = (size_t)op_index(w, j) * CHUNK;

		if (j % 2 == 0)
			rc = ogda_dev_op_put(w->qp, dfx_raddr(&f->remote, off), dfx_laddr(&f->src, off), CHUNK, w->sc->sharing,
					     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket);
		else
			rc = ogda_dev_op_signal(w->qp, dfx_raddr(&f->remote, SIG_OFF),
						dfx_laddr(&f->dst, OLD_OFF + 8u * op_index(w, j)), w->id + 1u, w->sc->sharing,
						DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket);
		if (rc != 0) {
			w->rc = rc;
			return NULL;
		}
		if (j > 0 && ticket <= prev)
			w->order_bad = 1;
		prev = ticket;
	}
	w->last_ticket = ticket;
	w->rc = ogda_dev_op_wait(w->qp, ticket, w->sc->sharing);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_shared(void **state)
{
	const struct shared_case *sc = *state;
	uint32_t total = sc->nthreads * sc->ops_per_thread, nsig = 0;
	struct worker w[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	pthread_barrier_t start;
	uint64_t *olds, expect_sig = 5, wqes = 0, doorbells = 0, errors = 0;
	struct doca_gpu_dev_verbs_qp *qp;
	struct dfx f;

	assert_true(sc->nthreads <= MAX_THREADS);
	dfx_open(&f, &sc->cfg);
	qp = dfx_qp(&f, 0);
	assert_true((size_t)total * CHUNK <= SIG_OFF);
	for (uint32_t i = 0; i < total; i++)
		dfx_fill(f.src.addr + (size_t)i * CHUNK, CHUNK, 1000 + i);
	memset(f.remote.addr, 0x33, (size_t)total * CHUNK);
	*(uint64_t *)(void *)(f.remote.addr + SIG_OFF) = 5;

	assert_int_equal(pthread_barrier_init(&start, NULL, sc->nthreads), 0);
	for (uint32_t t = 0; t < sc->nthreads; t++) {
		w[t] = (struct worker){.f = &f, .qp = qp, .sc = sc, .start = &start, .id = t};
		assert_int_equal(pthread_create(&th[t], NULL, worker_main, &w[t]), 0);
	}
	for (uint32_t t = 0; t < sc->nthreads; t++)
		assert_int_equal(pthread_join(th[t], NULL), 0);
	assert_int_equal(pthread_barrier_destroy(&start), 0);
	for (uint32_t t = 0; t < sc->nthreads; t++) {
		assert_int_equal(w[t].rc, 0);
		assert_int_equal(w[t].order_bad, 0);
		assert_true(w[t].last_ticket < total);
	}
	assert_int_equal(ogda_dev_op_wait_all(qp, sc->sharing), 0);

	/* Everything reserved was published and rung, and completed. */
	assert_int_equal(qp->sq_rsvd_index, total);
	assert_int_equal(qp->sq_ready_index, total);
	assert_int_equal(qp->sq_wqe_pi, total);
	assert_int_equal(qp->cq_sq.cqe_ci, total);
	if (f.lane[0].dbr != NULL)
		assert_true(dfx_wait_dbr(&f, &f.lane[0], total));

	/* Bytes of every put; the signal is the sum of every add, each add saw a distinct value. */
	olds = calloc(total, sizeof(*olds));
	assert_non_null(olds);
	for (uint32_t t = 0; t < sc->nthreads; t++) {
		for (uint32_t j = 0; j < sc->ops_per_thread; j++) {
			uint32_t i = t * sc->ops_per_thread + j;

			if (j % 2 == 0) {
				assert_int_equal(dfx_check(f.remote.addr + (size_t)i * CHUNK, CHUNK, 1000 + i), -1);
			} else {
				assert_true(dfx_all(f.remote.addr + (size_t)i * CHUNK, CHUNK, 0x33));
				olds[nsig++] = *(uint64_t *)(void *)(f.dst.addr + OLD_OFF + 8u * i);
				expect_sig += t + 1;
			}
		}
	}
	assert_int_equal(*(uint64_t *)(void *)(f.remote.addr + SIG_OFF), expect_sig);
	qsort(olds, nsig, sizeof(*olds), cmp_u64);
	for (uint32_t k = 0; k < nsig; k++) {
		assert_true(olds[k] >= 5 && olds[k] < expect_sig);
		if (k > 0)
			assert_true(olds[k] > olds[k - 1]);
	}
	free(olds);

	/* The NIC executed exactly what was posted, without errors, from no more rings than WQEs. */
	dfx_swnic_counters(f.lane[0].qpn_a, &wqes, &doorbells, &errors);
	assert_int_equal(wqes, total);
	assert_int_equal(errors, 0);
	assert_true(doorbells >= 1);
	assert_true(doorbells <= total);
	dfx_close(&f);
}

/* ---- EXCLUSIVE: one thread per QP ---------------------------------------------------------- */

#define EXCL_QPS 4u
#define EXCL_OPS 160u /* 10x the 16-WQEBB ring */
#define EXCL_CHUNK 128u

struct excl_worker {
	struct dfx *f;
	uint32_t lane;
	int rc;
	int ticket_bad;
};

static void *excl_main(void *arg)
{
	struct excl_worker *w = arg;
	struct doca_gpu_dev_verbs_qp *qp = w->f->lane[w->lane].dqp;
	uint64_t ticket = 0;

	for (uint32_t j = 0; j < EXCL_OPS && w->rc == 0; j++) {
		size_t off = ((size_t)w->lane * EXCL_OPS + j) * EXCL_CHUNK;

		w->rc = ogda_dev_op_put(qp, dfx_raddr(&w->f->remote, off), dfx_laddr(&w->f->src, off), EXCL_CHUNK,
					OGDA_DEV_SHARE_EXCLUSIVE, (uint32_t)qp->nic_handler, 0, &ticket);
		if (ticket != j)
			w->ticket_bad = 1;
	}
	if (w->rc == 0)
		w->rc = ogda_dev_op_wait_all(qp, OGDA_DEV_SHARE_EXCLUSIVE);
	return NULL;
}

static void test_exclusive_per_qp(void **state)
{
	const struct dfx_cfg *cfg = *state;
	struct excl_worker w[EXCL_QPS];
	pthread_t th[EXCL_QPS];
	struct dfx f;

	dfx_open(&f, cfg);
	assert_int_equal(f.nlanes, EXCL_QPS);
	dfx_fill(f.src.addr, (size_t)EXCL_QPS * EXCL_OPS * EXCL_CHUNK, 4242);
	memset(f.remote.addr, 0x33, (size_t)EXCL_QPS * EXCL_OPS * EXCL_CHUNK);
	for (uint32_t i = 0; i < EXCL_QPS; i++) {
		w[i] = (struct excl_worker){.f = &f, .lane = i};
		assert_int_equal(pthread_create(&th[i], NULL, excl_main, &w[i]), 0);
	}
	for (uint32_t i = 0; i < EXCL_QPS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	for (uint32_t i = 0; i < EXCL_QPS; i++) {
		struct doca_gpu_dev_verbs_qp *qp = f.lane[i].dqp;
		uint64_t wqes = 0;

		assert_int_equal(w[i].rc, 0);
		assert_int_equal(w[i].ticket_bad, 0);
		assert_int_equal(qp->sq_rsvd_index, EXCL_OPS);
		assert_int_equal(qp->sq_ready_index, EXCL_OPS);
		assert_int_equal(qp->sq_wqe_pi, EXCL_OPS);
		assert_int_equal(qp->cq_sq.cqe_ci, EXCL_OPS);
		assert_int_equal(dfx_sq_dbr(&f.lane[i]), dfx_dbr_expect(EXCL_OPS));
		dfx_swnic_counters(f.lane[i].qpn_a, &wqes, NULL, NULL);
		assert_int_equal(wqes, EXCL_OPS);
	}
	assert_int_equal(dfx_check(f.src.addr, (size_t)EXCL_QPS * EXCL_OPS * EXCL_CHUNK, 4242), -1);
	assert_memory_equal(f.remote.addr, f.src.addr, (size_t)EXCL_QPS * EXCL_OPS * EXCL_CHUNK);
	dfx_close(&f);
}

/* ---- the ringer hand-off, without a NIC ----------------------------------------------------- */

#define HO_RING 64u
#define HO_ITERS 20000u
#define HO_BUDGET_NS 3000000000ull

struct handoff {
	struct doca_gpu_dev_verbs_qp qp; /* scratch view: ring, slots, doorbell words in this struct */
	uint64_t slots[HO_RING];
	uint8_t *ring;
	uint64_t db[8];
	uint32_t dbr[2];
	uint64_t round;    /* atomic: the round H is in (1-based) */
	uint64_t p_done;   /* atomic: the last round P finished */
	uint64_t h_posted; /* atomic: the last round whose post H finished */
	uint64_t hits;     /* rounds in which P published while H held the ringer lock */
	uint64_t rounds;   /* rounds run */
	uint64_t unrung;   /* rounds that ended with published work not rung */
};

static void ho_post(struct handoff *h)
{
	uint64_t base = ogda_dev_sq_reserve(&h->qp, 1, OGDA_DEV_SHARE_GPU);

	ogda_dev_wqe_nop(&h->qp, base, OGDA_DEV_CQ_UPDATE);
	if (ogda_dev_sq_mark_ready(&h->qp, base, base, OGDA_DEV_SHARE_GPU))
		ogda_dev_sq_submit(&h->qp, base + 1, OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB);
}

/* P: in each round, publishes as soon as it sees H holding the lock (or H's round ending). */
static void *ho_p_main(void *arg)
{
	struct handoff *h = arg;

	for (uint64_t r = 1;; r++) {
		uint64_t cur;
		int saw_lock = 0;

		while ((cur = __atomic_load_n(&h->round, __ATOMIC_ACQUIRE)) < r)
			sched_yield();
		if (cur == UINT64_MAX)
			return NULL;
		while (!saw_lock && __atomic_load_n(&h->h_posted, __ATOMIC_ACQUIRE) < r)
			saw_lock = __atomic_load_n(&h->qp.sq_lock, __ATOMIC_ACQUIRE) != 0;
		ho_post(h);
		if (saw_lock)
			h->hits++;
		__atomic_store_n(&h->p_done, r, __ATOMIC_RELEASE);
	}
}

/*
 * One thread rings while another publishes: whoever publishes while the ring lock is held
 * leaves its work to the holder, whose second look must ring it. At the end of every round,
 * everything published has been rung (sq_wqe_pi == sq_ready_index).
 */
static void test_ring_handoff(void **state)
{
	struct handoff *h = calloc(1, sizeof(*h));
	uint64_t end;
	pthread_t p;

	(void)state;
	assert_non_null(h);
	h->ring = aligned_alloc(64, HO_RING * 64);
	assert_non_null(h->ring);
	scratch_sq_init(&h->qp, h->ring, h->slots, h->db, &h->dbr[1], 6); /* HO_RING WQEBBs */
	assert_int_equal(pthread_create(&p, NULL, ho_p_main, h), 0);
	end = dfx_now_ns() + HO_BUDGET_NS;
	for (uint64_t r = 1; r <= HO_ITERS && dfx_now_ns() < end; r++) {
		__atomic_store_n(&h->round, r, __ATOMIC_RELEASE);
		ho_post(h);
		__atomic_store_n(&h->h_posted, r, __ATOMIC_RELEASE);
		while (__atomic_load_n(&h->p_done, __ATOMIC_ACQUIRE) < r)
			sched_yield();
		if (h->qp.sq_wqe_pi != h->qp.sq_ready_index)
			h->unrung++;
		h->rounds = r;
	}
	__atomic_store_n(&h->round, UINT64_MAX, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(p, NULL), 0);
	print_message("ring hand-off: %llu rounds, %llu with the lock held while publishing\n",
		      (unsigned long long)h->rounds, (unsigned long long)h->hits);
	assert_int_equal(h->unrung, 0);
	assert_int_equal(h->qp.sq_rsvd_index, 2 * h->rounds);
	assert_int_equal(h->qp.sq_ready_index, 2 * h->rounds);
	assert_int_equal(h->qp.sq_wqe_pi, 2 * h->rounds);
	/* The record and the doorbell hold the last producer index. */
	assert_int_equal(h->dbr[1], dfx_dbr_expect(2 * h->rounds));
	assert_int_equal(h->db[0], ogda_dev_sq_db_value(&h->qp, 2 * h->rounds));
	free(h->ring);
	free(h);
}

/* ---- cases -------------------------------------------------------------------------------- */

#define H(x) DOCA_GPUNETIO_VERBS_NIC_HANDLER_##x
#define M(x) DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_##x
#define SHARED(n, threads, ops, share, ...)                                                                    \
	static struct shared_case n = {.cfg = {__VA_ARGS__}, .nthreads = threads,                  \
				       .ops_per_thread = ops, .sharing = share}

SHARED(gpu_db_2, 2, 128, OGDA_DEV_SHARE_GPU, .handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR));
SHARED(gpu_db_8, 8, 64, OGDA_DEV_SHARE_GPU, .handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR));
SHARED(gpu_db_32, 32, 16, OGDA_DEV_SHARE_GPU, .handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR));
SHARED(cta_db_8, 8, 64, OGDA_DEV_SHARE_CTA, .handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR));
SHARED(cta_db_32, 32, 16, OGDA_DEV_SHARE_CTA, .handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR));
SHARED(gpu_bf_8, 8, 64, OGDA_DEV_SHARE_GPU, .handler = H(GPU_SM_BF), .dbr_mode = M(VALID_DBR));
SHARED(gpu_nodbr_8, 8, 64, OGDA_DEV_SHARE_GPU, .handler = H(GPU_SM_NO_DBR), .dbr_mode = M(NO_DBR_HW));
SHARED(gpu_proxy_8, 8, 64, OGDA_DEV_SHARE_GPU, .handler = H(CPU_PROXY), .dbr_mode = M(VALID_DBR));
SHARED(gpu_emulated_8, 8, 64, OGDA_DEV_SHARE_GPU, .handler = H(GPU_SM_DB), .dbr_mode = M(NO_DBR_SW_EMULATED));
SHARED(gpu_db_overrun_8, 8, 64, OGDA_DEV_SHARE_GPU, .handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR),
       .cq_overrun_checked = true);
SHARED(gpu_db_small_8, 8, 64, OGDA_DEV_SHARE_GPU, .handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 16);

static struct dfx_cfg excl_db = {.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR),
				 .nqp = EXCL_QPS, .sq_wqebbs = 16};

#define CASE(fn, c) {.name = #c, .test_func = fn, .initial_state = &c}

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE(test_shared, gpu_db_2),        CASE(test_shared, gpu_db_8),     CASE(test_shared, gpu_db_32),
		CASE(test_shared, cta_db_8),        CASE(test_shared, cta_db_32),    CASE(test_shared, gpu_bf_8),
		CASE(test_shared, gpu_nodbr_8),     CASE(test_shared, gpu_proxy_8),  CASE(test_shared, gpu_emulated_8),
		CASE(test_shared, gpu_db_overrun_8), CASE(test_shared, gpu_db_small_8),
		CASE(test_exclusive_per_qp, excl_db),
		cmocka_unit_test(test_ring_handoff),
	};

	return cmocka_run_group_tests_name("shared and exclusive QPs on host threads", tests, NULL, NULL);
}
