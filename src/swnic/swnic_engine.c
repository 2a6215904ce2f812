/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software NIC's engine: threads that watch doorbells and run each QP's send queue.
 *
 * Doorbell rule (docs/swnic.md). Per QP the engine keeps sq_target, the furthest producer
 * index it knows. A ring is an 8-byte change at UAR + 0x800 or + 0x900 (the two halves of
 * the BlueFlame register; a BlueFlame copy starts with the ctrl segment) or at + 0x600
 * (DBR-less). Its first word is BE32(index << 8 | opcode), its second BE32(qpn << 8 | ds);
 * a ring naming this QP moves sq_target to index + ceil(ds * 16 / 64), which covers both
 * rdma-core (the last WQE's ctrl) and NVSHMEM / DOCA ({pi << 8, qpn << 8}, ds 0). In
 * valid-DBR mode, any ring on the QP's UAR page also moves sq_target to the SQ DBR value,
 * recovering rings lost when another QP overwrote a shared register. Nothing is executed
 * without a ring. A candidate is accepted only if (uint16_t)(cand - sq_ci) <= SQ size.
 *
 * Threads: OPENGDA_SWNIC_ENGINE_THREADS (default 1), QPs assigned round-robin. Each pass
 * visits every QP of the thread; a QP whose WQE waits (WAIT, RNR / retry timer) does not
 * hold up the others. Idle polling follows swnic_poll.h (OPENGDA_SWNIC_POLL): "adaptive"
 * (default) spins for a while, then yields, then sleeps with a backoff up to 1 ms; "sleep"
 * skips the yield phase; "spin" never gives up the CPU.
 *
 * States: RTS executes; INIT / RTR / SQD record rings but execute nothing (as hardware);
 * ERR completes everything outstanding, and everything rung later, with WR_FLUSH_ERR; RST
 * ignores rings. Entering RST, leaving RST and attach rewind sq_ci = sq_target to the SQ
 * DBR (0 in DBR-less mode) and remember the current register contents, so stale rings are
 * not replayed and a producer that restarts its counters (or keeps them) is followed.
 *
 * Locks: an engine thread holds its own thread lock only to pick the next QP; it takes
 * qp->lock briefly (attributes, PSN, moving to ERR) and gives up waiting for it when the
 * QP is being detached, so swnic_engine_detach_qp() may be called with qp->lock held.
 * swnic_engine_qp_modified() waits for the engine to leave the QP only for transitions
 * into or out of RST (at most one fabric delivery); call it without qp->lock.
 */
#include "swnic/swnic_engine.h"
#include "swnic/swnic_event.h"
#include "swnic/swnic_window.h"

#include "core/env.h"
#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_qpc.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DB_SLOTS 3
static const uint32_t db_offset[DB_SLOTS] = {SWNIC_UAR_DB_OFFSET, SWNIC_UAR_DB_OFFSET + SWNIC_UAR_BF_REG_SIZE / 2u,
					     SWNIC_UAR_DBR_LESS_OFFSET};

#define WQE_BATCH 64u                       /* WQEs per QP per pass: keeps QPs of a thread fair */

/* Values captured when the queue is rewound (attach, RST), applied by the owning thread. */
struct rewind {
	uint16_t ci;
	uint64_t db[DB_SLOTS];
};

/* A QP as one engine thread sees it. */
struct engine_qp {
	struct swnic_qp *qp;
	atomic_bool detaching;
	bool rewind_pending;       /* under thread->lock */
	struct rewind rewind;      /* under thread->lock */
	struct swnic_window win;   /* the WQEs in flight */
};

struct engine_thread {
	struct swnic_engine *engine;
	uint32_t index;
	pthread_t tid;
	bool started;
	pthread_mutex_t lock;      /* the fields below */
	pthread_cond_t cond;       /* kicks for the thread; "left the QP" for detachers */
	struct engine_qp **qps;
	uint32_t nqps, cap;
	struct engine_qp *current; /* being visited, thread lock released */
	uint32_t waiters;          /* detach / rewind callers waiting for current to change */
	uint64_t kicks;
	bool stop;
};

struct swnic_engine {
	struct swnic *nic;
	struct swnic_engine_cfg cfg;
	struct engine_thread *threads;
	atomic_uint next_thread;
};


static uint64_t load_db(const struct swnic_qp *qp, uint32_t slot)
{
	return __atomic_load_n((const uint64_t *)(const void *)(qp->uar->page + db_offset[slot]), __ATOMIC_ACQUIRE);
}

static bool qp_has_sq(const struct swnic_qp *qp)
{
	return qp->sq != NULL && qp->uar != NULL && qp->uar->page != NULL && qp->send_cq != NULL &&
	       qp->log_sq_wqebbs <= OPENGDA_MLX5_SQ_MAX_LOG_WQEBBS;
}

static bool dbr_valid_mode(const struct swnic_qp *qp)
{
	return qp->send_dbr_mode == PRM_QP_SEND_DBR_VALID && qp->dbr != NULL;
}

/*
 * A register still holding this QP's last ring before a rewind would hide the producer's first
 * ring after it when the two are equal (rings are seen as changes). The model therefore replaces
 * such a value with a neutral ring (index 0, this QPN) that moves nothing; a CAS leaves a ring
 * another QP wrote meanwhile in place (it is then a change, seen as usual). Returns the value the
 * register holds for the rewind to record as seen.
 */
static uint64_t neutralise_db(const struct swnic_qp *qp, uint32_t slot)
{
	uint64_t *reg = (uint64_t *)(void *)(qp->uar->page + db_offset[slot]);
	uint64_t cur = __atomic_load_n(reg, __ATOMIC_ACQUIRE), before = cur;
	uint64_t neutral = opengda_mlx5_qp_uar_db_value(0, qp->qpn);

	if ((opengda_mlx5_be32toh(opengda_mlx5_second_word(cur)) >> 8) != qp->qpn || cur == neutral)
		return cur;
	if (__atomic_compare_exchange_n(reg, &cur, neutral, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return neutral;
	return before;
}

/* Current doorbell contents: what a rewind sets the queue to. */
static void capture_rewind(const struct swnic_qp *qp, struct rewind *rw)
{
	uint32_t k;

	rw->ci = 0;
	if (dbr_valid_mode(qp))
		rw->ci = (uint16_t)(opengda_mlx5_be32toh(atomic_load_explicit(&qp->dbr[OPENGDA_MLX5_SND_DBR],
									   memory_order_acquire)) &
				    OPENGDA_MLX5_QP_DBR_MASK);
	for (k = 0; k < DB_SLOTS; k++)
		rw->db[k] = qp_has_sq(qp) ? neutralise_db(qp, k) : 0;
}

/*
 * Sets the cursor. Called by the owning thread, or by attach / qp_modified with the thread
 * lock held while the thread is not visiting the QP.
 */
static void apply_rewind(struct engine_qp *e, const struct rewind *rw)
{
	struct swnic_qp *qp = e->qp;

	swnic_window_reset(&e->win);
	qp->sq_ci = rw->ci;
	qp->sq_target = rw->ci;
	memcpy(qp->seen_db, rw->db, sizeof(qp->seen_db));
	OGDA_LOG_DBG("qp 0x%x: send queue rewound to 0x%x", qp->qpn, (unsigned)rw->ci);
}

/* Moves sq_target forward to cand if cand is a plausible producer index. */
static bool accept_target(struct swnic_qp *qp, uint16_t cand)
{
	uint16_t ahead = (uint16_t)(cand - qp->sq_ci);

	if (ahead > (1u << qp->log_sq_wqebbs)) {
		OGDA_LOG_DBG("qp 0x%x: doorbell index 0x%x ignored (consumer 0x%x, %u WQEBBs)", qp->qpn,
			     (unsigned)cand, (unsigned)qp->sq_ci, 1u << qp->log_sq_wqebbs);
		return false;
	}
	if (ahead <= (uint16_t)(qp->sq_target - qp->sq_ci))
		return false;
	qp->sq_target = cand;
	return true;
}

/* Reads the three doorbell words (and the DBR after any ring). True when sq_target moved. */
static bool poll_doorbells(struct swnic_qp *qp)
{
	bool rung = false, moved = false;
	uint32_t k;

	for (k = 0; k < DB_SLOTS; k++) {
		uint64_t v = load_db(qp, k);
		uint32_t w0, w1;

		if (v == qp->seen_db[k])
			continue;
		qp->seen_db[k] = v;
		rung = true;
		w0 = opengda_mlx5_be32toh(opengda_mlx5_first_word(v));
		w1 = opengda_mlx5_be32toh(opengda_mlx5_second_word(v));
		if ((w1 >> 8) != qp->qpn)
			continue;
		atomic_fetch_add_explicit(&qp->counters.doorbells, 1, memory_order_relaxed);
		moved |= accept_target(qp, (uint16_t)((w0 >> 8) +
						       opengda_mlx5_wqebbs_from_ds(w1 & OPENGDA_MLX5_WQE_CTRL_DS_MASK)));
	}
	if (rung && dbr_valid_mode(qp))
		moved |= accept_target(qp, (uint16_t)(opengda_mlx5_be32toh(atomic_load_explicit(
							      &qp->dbr[OPENGDA_MLX5_SND_DBR], memory_order_acquire)) &
						      OPENGDA_MLX5_QP_DBR_MASK));
	if (moved)
		OGDA_LOG_DBG("qp 0x%x: doorbell, consumer 0x%x target 0x%x", qp->qpn, (unsigned)qp->sq_ci,
			     (unsigned)qp->sq_target);
	return moved;
}

/* qp->lock unless the QP is being detached (the detacher may hold it). */
static bool qp_lock_or_abort(struct engine_qp *e)
{
	while (pthread_mutex_trylock(&e->qp->lock) != 0) {
		if (atomic_load_explicit(&e->detaching, memory_order_acquire))
			return false;
		sched_yield();
	}
	return true;
}

/* The first error: RTS / SQD / SQER become ERR (other states were set by a command since). */
/*
 * A local error on the send queue moves the QP to ERR; the move raises WQ_CATAS_ERROR on
 * the QP with the error CQE's syndrome (0 when the send CQ overran and took no CQE).
 */
static void qp_enter_error(struct engine_qp *e, uint8_t syndrome)
{
	struct swnic_qp *qp = e->qp;
	bool moved = false;
	uint8_t st;

	if (!qp_lock_or_abort(e))
		return;
	st = atomic_load_explicit(&qp->state, memory_order_relaxed);
	if (st == PRM_QP_STATE_RTS || st == PRM_QP_STATE_SQD || st == PRM_QP_STATE_SQER) {
		atomic_store_explicit(&qp->state, (uint8_t)PRM_QP_STATE_ERR, memory_order_release);
		moved = true;
	}
	pthread_mutex_unlock(&qp->lock);
	if (moved)
		swnic_event_raise(qp->nic, SWNIC_EVOBJ_QP, qp->qpn, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, syndrome);
}

/* Turns a finished WQE into its CQE (or none) and moves the cursor. */
static void complete_wqe(struct engine_qp *e, const struct swnic_completion *c)
{
	struct swnic_qp *qp = e->qp;
	doca_error_t rc = DOCA_SUCCESS;

	qp->sq_ci = (uint16_t)(qp->sq_ci + c->wqebbs);
	atomic_fetch_add_explicit(&qp->counters.wqes, 1, memory_order_relaxed);
	if (c->syndrome != 0) {
		atomic_fetch_add_explicit(&qp->counters.errors, 1, memory_order_relaxed);
		OGDA_LOG_WARN("qp 0x%x wqe 0x%x (%s) failed: syndrome 0x%02x, vendor syndrome 0x%02x; QP enters ERR",
			      qp->qpn, (unsigned)c->wqe_counter, prm_wqe_opcode_name(c->wqe_opcode),
			      (unsigned)c->syndrome, (unsigned)c->vendor_syndrome);
		(void)swnic_cq_post_error(qp->send_cq, OPENGDA_MLX5_CQE_REQ_ERR, c->syndrome, c->vendor_syndrome,
					  c->wqe_opcode, qp->qpn, qp->user_index, c->wqe_counter);
		qp_enter_error(e, c->syndrome);
		return;
	}
	OGDA_LOG_DBG("qp 0x%x wqe 0x%x (%s) done, %u bytes%s", qp->qpn, (unsigned)c->wqe_counter,
		     prm_wqe_opcode_name(c->wqe_opcode), c->byte_cnt, c->signaled ? ", signalled" : "");
	if (c->signaled)
		rc = swnic_cq_post_req(qp->send_cq, c->wqe_opcode, qp->qpn, qp->user_index, c->wqe_counter,
				       c->byte_cnt);
	if (rc == DOCA_ERROR_FULL)
		qp_enter_error(e, 0); /* CQ overrun: the QP cannot complete anything any more */
}

static void window_completed(void *arg, const struct swnic_completion *c)
{
	complete_wqe(arg, c);
}

/* RTS: executes WQEs up to the target. True when any WQE completed. */
static bool run_sq(struct swnic_engine *engine, struct engine_qp *e, uint64_t *wake_ns)
{
	struct swnic_exec_ctx ctx = {.qp = e->qp, .cfg = &engine->cfg, .abort = &e->detaching};

	return swnic_window_run(&e->win, &ctx, window_completed, e, WQE_BATCH, wake_ns);
}

/* ERR: every outstanding WQE completes with WR_FLUSH_ERR. */
static bool flush_sq(struct engine_qp *e)
{
	struct swnic_qp *qp = e->qp;
	uint32_t n = 0;

	swnic_window_reset(&e->win);
	if (qp->sq_ci == qp->sq_target)
		return false;
	qp->sq_ci = swnic_sq_flush(qp, qp->sq_ci, qp->sq_target, &n); /* counts them */
	OGDA_LOG_DBG("qp 0x%x: %u WQEs flushed", qp->qpn, n);
	return n != 0;
}

/*
 * ERR: receive WQEs posted and not consumed complete with WR_FLUSH_ERR, also those posted
 * after the error (the engine keeps looking while the QP stays in ERR).
 */
static bool flush_rq(struct engine_qp *e)
{
	uint32_t n;

	if (!e->qp->has_rq || e->qp->srq != NULL || !qp_lock_or_abort(e))
		return false;
	n = swnic_rq_flush_locked(e->qp);
	pthread_mutex_unlock(&e->qp->lock);
	return n != 0;
}

/* One look at one QP. True when something happened. */
static bool visit(struct swnic_engine *engine, struct engine_qp *e, uint64_t *wake_ns)
{
	struct swnic_qp *qp = e->qp;
	bool rq_flushed = false;
	uint8_t state;
	bool moved;

	state = atomic_load_explicit(&qp->state, memory_order_acquire);
	if (state == PRM_QP_STATE_ERR)
		rq_flushed = flush_rq(e);
	if (!qp_has_sq(qp) || state == PRM_QP_STATE_RST)
		return rq_flushed;
	moved = poll_doorbells(qp) || rq_flushed;
	if (state == PRM_QP_STATE_RTS)
		return run_sq(engine, e, wake_ns) || moved;
	if (state == PRM_QP_STATE_ERR)
		return flush_sq(e) || moved;
	return moved;
}

static void timespec_after(struct timespec *ts, uint64_t ns)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ns += (uint64_t)ts->tv_nsec;
	ts->tv_sec += (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
}

static void *engine_thread_main(void *arg)
{
	struct engine_thread *t = arg;
	struct swnic_engine *engine = t->engine;
	uint64_t idle_since = 0, sleep_ns = SWNIC_POLL_SLEEP_MIN_NS, seen_kicks;

	pthread_mutex_lock(&t->lock);
	seen_kicks = t->kicks;
	while (!t->stop) {
		uint64_t wake_ns = UINT64_MAX, now;
		enum swnic_idle_step step;
		bool progress = false;
		uint32_t i;

		for (i = 0; i < t->nqps && !t->stop; i++) {
			struct engine_qp *e = t->qps[i];
			struct rewind rw;
			bool rewind = false;

			if (atomic_load_explicit(&e->detaching, memory_order_relaxed))
				continue;
			t->current = e;
			if (e->rewind_pending) {
				rw = e->rewind;
				e->rewind_pending = false;
				rewind = true;
			}
			pthread_mutex_unlock(&t->lock);
			if (rewind)
				apply_rewind(e, &rw);
			progress |= visit(engine, e, &wake_ns);
			pthread_mutex_lock(&t->lock);
			t->current = NULL;
			if (t->waiters != 0)
				pthread_cond_broadcast(&t->cond);
		}
		if (progress || t->kicks != seen_kicks) {
			seen_kicks = t->kicks;
			idle_since = 0;
			sleep_ns = SWNIC_POLL_SLEEP_MIN_NS;
			continue;
		}
		now = swnic_now_ns();
		if (idle_since == 0)
			idle_since = now;
		step = swnic_poll_idle_step(&engine->cfg.poll, now - idle_since);
		if (step == SWNIC_IDLE_SPIN) {
			pthread_mutex_unlock(&t->lock);
			swnic_cpu_relax();
			pthread_mutex_lock(&t->lock);
		} else if (step == SWNIC_IDLE_YIELD) {
			pthread_mutex_unlock(&t->lock);
			sched_yield();
			pthread_mutex_lock(&t->lock);
		} else {
			struct timespec ts;
			uint64_t d = sleep_ns;

			if (wake_ns != UINT64_MAX)
				d = wake_ns > now ? (wake_ns - now < d ? wake_ns - now : d) : 0;
			if (d != 0) {
				timespec_after(&ts, d);
				(void)pthread_cond_timedwait(&t->cond, &t->lock, &ts);
			}
			if (sleep_ns < SWNIC_POLL_SLEEP_MAX_NS)
				sleep_ns = sleep_ns * 2u > SWNIC_POLL_SLEEP_MAX_NS ? SWNIC_POLL_SLEEP_MAX_NS : sleep_ns * 2u;
		}
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* The knobs of docs/swnic.md; a bad value logs and falls back to the default. */
static void read_cfg(struct swnic_engine_cfg *cfg)
{
	long v;

	if (ogda_env_get_long(SWNIC_ENV_ENGINE_THREADS, 1, SWNIC_ENGINE_THREADS_MAX, 1, &v) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s must be 1..%d engine threads; using 1", SWNIC_ENV_ENGINE_THREADS,
			     SWNIC_ENGINE_THREADS_MAX);
	cfg->threads = (uint32_t)v;
	if (ogda_env_get_long(SWNIC_ENV_MAX_TIMEOUT_MS, 1, 3600000, 2000, &v) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s must be 1..3600000 ms (transport timeout clamp); using 2000", SWNIC_ENV_MAX_TIMEOUT_MS);
	cfg->max_timeout_ns = (uint64_t)v * 1000000ull;
	if (ogda_env_get_long(SWNIC_ENV_RNR_MAX_MS, 1, 3600000, 2000, &v) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s must be 1..3600000 ms (RNR budget for rnr_retry 7); using 2000", SWNIC_ENV_RNR_MAX_MS);
	cfg->rnr_max_ns = (uint64_t)v * 1000000ull;
	swnic_poll_cfg_read(&cfg->poll);
}

static void stop_threads(struct swnic_engine *engine, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct engine_thread *t = &engine->threads[i];

		pthread_mutex_lock(&t->lock);
		t->stop = true;
		pthread_cond_broadcast(&t->cond);
		pthread_mutex_unlock(&t->lock);
		if (t->started)
			pthread_join(t->tid, NULL);
	}
}

static void free_threads(struct swnic_engine *engine, uint32_t n)
{
	uint32_t i, j;

	for (i = 0; i < n; i++) {
		struct engine_thread *t = &engine->threads[i];

		for (j = 0; j < t->nqps; j++) {
			swnic_window_fini(&t->qps[j]->win);
			atomic_fetch_sub_explicit(&t->qps[j]->qp->refs, 1, memory_order_acq_rel);
			free(t->qps[j]);
		}
		free(t->qps);
		pthread_cond_destroy(&t->cond);
		pthread_mutex_destroy(&t->lock);
	}
	free(engine->threads);
}

static doca_error_t thread_init(struct swnic_engine *engine, uint32_t i)
{
	struct engine_thread *t = &engine->threads[i];
	pthread_condattr_t ca;
	int err;

	t->engine = engine;
	t->index = i;
	if (pthread_mutex_init(&t->lock, NULL) != 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	if (pthread_condattr_init(&ca) != 0) {
		pthread_mutex_destroy(&t->lock);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	err = pthread_cond_init(&t->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (err != 0) {
		pthread_mutex_destroy(&t->lock);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	return DOCA_SUCCESS;
}

doca_error_t swnic_engine_create(struct swnic *nic, struct swnic_engine **engine)
{
	struct swnic_engine *en;
	uint32_t i, inited = 0;
	doca_error_t rc = DOCA_SUCCESS;

	if (nic == NULL || engine == NULL) {
		OGDA_LOG_ERR("nic and engine must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	en = calloc(1, sizeof(*en));
	if (en == NULL)
		return DOCA_ERROR_NO_MEMORY;
	en->nic = nic;
	read_cfg(&en->cfg);
	en->threads = calloc(en->cfg.threads, sizeof(*en->threads));
	if (en->threads == NULL) {
		free(en);
		return DOCA_ERROR_NO_MEMORY;
	}
	for (i = 0; i < en->cfg.threads && rc == DOCA_SUCCESS; i++) {
		rc = thread_init(en, i);
		if (rc == DOCA_SUCCESS)
			inited++;
	}
	for (i = 0; i < inited && rc == DOCA_SUCCESS; i++) {
		int err = pthread_create(&en->threads[i].tid, NULL, engine_thread_main, &en->threads[i]);

		if (err != 0) {
			OGDA_LOG_ERR("%s: engine thread %u: pthread_create: %s", nic->name, i, strerror(err));
			rc = DOCA_ERROR_OPERATING_SYSTEM;
		} else {
			en->threads[i].started = true;
		}
	}
	if (rc != DOCA_SUCCESS) {
		stop_threads(en, inited);
		free_threads(en, inited);
		free(en);
		return rc;
	}
	OGDA_LOG_DBG("%s: engine with %u thread(s), %s polling, timeout clamp %llu ms, RNR budget %llu ms", nic->name,
		     en->cfg.threads, swnic_poll_mode_name(en->cfg.poll.mode),
		     (unsigned long long)(en->cfg.max_timeout_ns / 1000000ull),
		     (unsigned long long)(en->cfg.rnr_max_ns / 1000000ull));
	*engine = en;
	return DOCA_SUCCESS;
}

void swnic_engine_destroy(struct swnic_engine *engine)
{
	if (engine == NULL)
		return;
	stop_threads(engine, engine->cfg.threads);
	free_threads(engine, engine->cfg.threads);
	free(engine);
}

/* The entry of qp and its thread; NULL when qp is not attached. Takes no lock on return. */
static struct engine_qp *find_locked(struct swnic_engine *engine, const struct swnic_qp *qp,
				     struct engine_thread **out_t, uint32_t *out_i)
{
	uint32_t i, j;

	for (i = 0; i < engine->cfg.threads; i++) {
		struct engine_thread *t = &engine->threads[i];

		pthread_mutex_lock(&t->lock);
		for (j = 0; j < t->nqps; j++) {
			if (t->qps[j]->qp == qp) {
				*out_t = t;
				*out_i = j;
				return t->qps[j]; /* t->lock stays held */
			}
		}
		pthread_mutex_unlock(&t->lock);
	}
	return NULL;
}

doca_error_t swnic_engine_attach_qp(struct swnic_engine *engine, struct swnic_qp *qp)
{
	struct engine_thread *t, *other;
	struct engine_qp *e;
	struct rewind rw;
	uint32_t idx;

	if (engine == NULL || qp == NULL) {
		OGDA_LOG_ERR("engine and qp must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->sq != NULL && (qp->uar == NULL || qp->uar->page == NULL || qp->send_cq == NULL ||
			       qp->log_sq_wqebbs > OPENGDA_MLX5_SQ_MAX_LOG_WQEBBS)) {
		OGDA_LOG_ERR("qp 0x%x: a send queue needs a UAR page, a send CQ and at most 2^16 WQEBBs", qp->qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (find_locked(engine, qp, &other, &idx) != NULL) {
		pthread_mutex_unlock(&other->lock);
		OGDA_LOG_ERR("qp 0x%x is already attached to the engine", qp->qpn);
		return DOCA_ERROR_ALREADY_EXIST;
	}
	e = calloc(1, sizeof(*e));
	if (e == NULL)
		return DOCA_ERROR_NO_MEMORY;
	e->qp = qp;
	if (swnic_window_init(&e->win, qp->nic) != DOCA_SUCCESS) {
		free(e);
		return DOCA_ERROR_NO_MEMORY;
	}
	atomic_init(&e->detaching, false);
	capture_rewind(qp, &rw);
	apply_rewind(e, &rw);
	t = &engine->threads[atomic_fetch_add_explicit(&engine->next_thread, 1, memory_order_relaxed) %
			     engine->cfg.threads];
	pthread_mutex_lock(&t->lock);
	if (t->nqps == t->cap) {
		uint32_t cap = t->cap != 0 ? t->cap * 2u : 8u;
		struct engine_qp **q = realloc(t->qps, cap * sizeof(*q));

		if (q == NULL) {
			pthread_mutex_unlock(&t->lock);
			swnic_window_fini(&e->win);
			free(e);
			return DOCA_ERROR_NO_MEMORY;
		}
		t->qps = q;
		t->cap = cap;
	}
	t->qps[t->nqps++] = e;
	atomic_fetch_add_explicit(&qp->refs, 1, memory_order_acq_rel);
	t->kicks++;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	OGDA_LOG_DBG("qp 0x%x attached to engine thread %u (SQ %u WQEBBs, consumer 0x%x)", qp->qpn, t->index,
		     qp->sq != NULL ? 1u << qp->log_sq_wqebbs : 0u, (unsigned)qp->sq_ci);
	return DOCA_SUCCESS;
}

void swnic_engine_detach_qp(struct swnic_engine *engine, struct swnic_qp *qp)
{
	struct engine_thread *t;
	struct engine_qp *e;
	uint32_t i;

	if (engine == NULL || qp == NULL) {
		OGDA_LOG_ERR("engine and qp must not be NULL");
		return;
	}
	e = find_locked(engine, qp, &t, &i);
	if (e == NULL) {
		OGDA_LOG_ERR("qp 0x%x is not attached to the engine", qp->qpn);
		return;
	}
	atomic_store_explicit(&e->detaching, true, memory_order_release);
	t->waiters++;
	while (t->current == e)
		pthread_cond_wait(&t->cond, &t->lock);
	t->waiters--;
	/* The index may have moved while the lock was released; find the entry again. */
	for (i = 0; i < t->nqps && t->qps[i] != e; i++)
		;
	t->qps[i] = t->qps[--t->nqps];
	pthread_mutex_unlock(&t->lock);
	swnic_window_fini(&e->win);
	OGDA_LOG_DBG("qp 0x%x detached: %lu WQEs, %lu bytes, %lu errors, %lu RNR retries, %lu transport retries, "
		     "%lu doorbells",
		     qp->qpn, atomic_load(&qp->counters.wqes), atomic_load(&qp->counters.bytes),
		     atomic_load(&qp->counters.errors), atomic_load(&qp->counters.rnr_retries),
		     atomic_load(&qp->counters.transport_retries), atomic_load(&qp->counters.doorbells));
	atomic_fetch_sub_explicit(&qp->refs, 1, memory_order_acq_rel);
	free(e);
}

void swnic_engine_qp_modified(struct swnic_engine *engine, struct swnic_qp *qp, uint8_t old_state)
{
	struct engine_thread *t;
	struct engine_qp *e;
	uint8_t state;
	uint32_t i;

	if (engine == NULL || qp == NULL) {
		OGDA_LOG_ERR("engine and qp must not be NULL");
		return;
	}
	state = atomic_load_explicit(&qp->state, memory_order_acquire);
	e = find_locked(engine, qp, &t, &i);
	if (e == NULL) {
		OGDA_LOG_ERR("qp 0x%x is not attached to the engine", qp->qpn);
		return;
	}
	/*
	 * Entering or leaving RST: the producer may restart its counters in between. The
	 * rewind happens now, once the thread is not inside a visit of this QP (a visit that
	 * began before the command could otherwise run rings made after it twice). On the QP's
	 * own engine thread (a responder on a loopback QP) it is left to the next visit.
	 */
	if (state == PRM_QP_STATE_RST || old_state == PRM_QP_STATE_RST) {
		if (t->started && pthread_equal(t->tid, pthread_self())) {
			capture_rewind(qp, &e->rewind);
			e->rewind_pending = true;
		} else {
			struct rewind rw;

			t->waiters++;
			while (t->current == e)
				pthread_cond_wait(&t->cond, &t->lock);
			t->waiters--;
			e->rewind_pending = false;
			capture_rewind(qp, &rw);
			apply_rewind(e, &rw);
		}
	}
	t->kicks++;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	OGDA_LOG_DBG("qp 0x%x: state %u -> %u", qp->qpn, (unsigned)old_state, (unsigned)state);
}
