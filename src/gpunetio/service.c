/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Proxy services: one thread per service runs the CPU proxy step of every QP it monitors.
 * When nothing moved for IDLE_YIELD_ROUNDS passes the thread sleeps IDLE_SLEEP_NS between
 * passes, so an idle service costs little CPU and reacts within tens of microseconds.
 *
 * Locks: membership_lock guards every QP's service pointer and every change to a service's
 * list; service->lock guards the list against the thread, which holds it for a whole pass.
 * Taking a QP out (unexport) therefore waits for the pass that may be touching it, and the
 * thread never sees a freed QP. Order: membership_lock, then service->lock, then the QP's
 * proxy_lock (inside the step).
 */
#include "gpunetio/gverbs_qp.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define IDLE_YIELD_ROUNDS 1000u
#define IDLE_SLEEP_NS 50000L

struct ogda_gpu_service {
	pthread_t tid;
	pthread_mutex_t lock;
	struct doca_gpu_verbs_qp **qps;
	uint32_t nqps;
	uint32_t cap;
	bool stop;
};

static pthread_mutex_t membership_lock = PTHREAD_MUTEX_INITIALIZER;

static void *service_main(void *arg)
{
	struct ogda_gpu_service *s = arg;
	const struct timespec nap = {0, IDLE_SLEEP_NS};
	uint32_t idle = 0;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		bool moved = false;

		pthread_mutex_lock(&s->lock);
		for (uint32_t i = 0; i < s->nqps; i++) {
			bool p = false;

			gverbs_proxy_step(s->qps[i], &p);
			moved |= p;
		}
		pthread_mutex_unlock(&s->lock);
		if (moved) {
			idle = 0;
		} else if (idle < IDLE_YIELD_ROUNDS) {
			idle++;
			sched_yield();
		} else {
			nanosleep(&nap, NULL);
		}
	}
	return NULL;
}

static doca_error_t service_create(struct ogda_gpu_service **out)
{
	struct ogda_gpu_service *s = calloc(1, sizeof(*s));
	int rc;

	if (s == NULL) {
		OGDA_LOG_ERR("create_service: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_mutex_init(&s->lock, NULL);
	rc = pthread_create(&s->tid, NULL, service_main, s);
	if (rc != 0) {
		OGDA_LOG_ERR("create_service: cannot start the service thread: %s", strerror(rc));
		pthread_mutex_destroy(&s->lock);
		free(s);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	*out = s;
	return DOCA_SUCCESS;
}

/* Stops the thread, drops the back pointers of the QPs still monitored, frees the service. */
static void service_destroy(struct ogda_gpu_service *s)
{
	__atomic_store_n(&s->stop, true, __ATOMIC_RELEASE);
	pthread_join(s->tid, NULL);
	pthread_mutex_lock(&membership_lock);
	for (uint32_t i = 0; i < s->nqps; i++)
		s->qps[i]->service = NULL;
	pthread_mutex_unlock(&membership_lock);
	pthread_mutex_destroy(&s->lock);
	free(s->qps);
	free(s);
}

/* Adds gq to s (membership_lock held, gq not monitored). */
static doca_error_t service_add(struct ogda_gpu_service *s, struct doca_gpu_verbs_qp *gq)
{
	doca_error_t err = DOCA_SUCCESS;

	pthread_mutex_lock(&s->lock);
	if (s->nqps == s->cap) {
		uint32_t cap = s->cap == 0 ? 4u : s->cap * 2u;
		struct doca_gpu_verbs_qp **q = realloc(s->qps, cap * sizeof(*q));

		if (q == NULL) {
			err = DOCA_ERROR_NO_MEMORY;
		} else {
			s->qps = q;
			s->cap = cap;
		}
	}
	if (err == DOCA_SUCCESS) {
		s->qps[s->nqps++] = gq;
		gq->service = s;
	}
	pthread_mutex_unlock(&s->lock);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("service_monitor_qp: out of memory");
	return err;
}

doca_error_t doca_gpu_verbs_create_service(doca_gpu_verbs_service_t *out_service)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_create_service, (out_service));
	struct ogda_gpu_service *s = NULL;
	doca_error_t err;

	if (out_service == NULL) {
		OGDA_LOG_ERR("create_service: NULL output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = service_create(&s);
	if (err == DOCA_SUCCESS)
		*out_service = s;
	return err;
}

doca_error_t doca_gpu_verbs_service_monitor_qp(doca_gpu_verbs_service_t service, struct doca_gpu_verbs_qp *qp)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_service_monitor_qp, (service, qp));
	doca_error_t err;

	if (service == NULL || qp == NULL) {
		OGDA_LOG_ERR("service_monitor_qp: NULL %s", service == NULL ? "service" : "QP");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!gverbs_qp_needs_proxy(qp)) {
		OGDA_LOG_ERR("service_monitor_qp: QP 0x%x has handler %d and rings its own doorbells: nothing to drive",
			     qp->qp_cpu.sq_num, (int)qp->nic_handler);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	pthread_mutex_lock(&membership_lock);
	if (qp->service != NULL) {
		pthread_mutex_unlock(&membership_lock);
		OGDA_LOG_ERR("service_monitor_qp: QP 0x%x is driven by %s already", qp->qp_cpu.sq_num,
			     qp->service == service ? "this service" : "another service");
		return DOCA_ERROR_ALREADY_EXIST;
	}
	err = service_add(service, qp);
	pthread_mutex_unlock(&membership_lock);
	return err;
}

doca_error_t doca_gpu_verbs_destroy_service(doca_gpu_verbs_service_t service)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_destroy_service, (service));
	if (service == NULL) {
		OGDA_LOG_ERR("destroy_service: NULL service");
		return DOCA_ERROR_INVALID_VALUE;
	}
	service_destroy(service);
	return DOCA_SUCCESS;
}

doca_error_t gverbs_service_start_own(struct doca_gpu_verbs_qp *gq)
{
	struct ogda_gpu_service *s = NULL;
	doca_error_t err = service_create(&s);

	if (err != DOCA_SUCCESS)
		return err;
	pthread_mutex_lock(&membership_lock);
	err = service_add(s, gq);
	if (err == DOCA_SUCCESS)
		gq->own_service = s;
	pthread_mutex_unlock(&membership_lock);
	if (err != DOCA_SUCCESS)
		service_destroy(s);
	return err;
}

void gverbs_service_detach(struct doca_gpu_verbs_qp *gq)
{
	struct ogda_gpu_service *s, *own;

	pthread_mutex_lock(&membership_lock);
	s = gq->service;
	if (s != NULL) {
		pthread_mutex_lock(&s->lock);
		for (uint32_t i = 0; i < s->nqps; i++) {
			if (s->qps[i] == gq) {
				s->qps[i] = s->qps[--s->nqps];
				break;
			}
		}
		pthread_mutex_unlock(&s->lock);
		gq->service = NULL;
	}
	own = gq->own_service;
	gq->own_service = NULL;
	pthread_mutex_unlock(&membership_lock);
	if (own != NULL)
		service_destroy(own);
}

doca_error_t gverbs_service_thread_cpu_ns(doca_gpu_verbs_service_t service, uint64_t *ns)
{
	struct ogda_gpu_service *s = service;
	struct timespec ts;
	clockid_t clk;

	if (s == NULL || ns == NULL || pthread_getcpuclockid(s->tid, &clk) != 0 || clock_gettime(clk, &ts) != 0) {
		OGDA_LOG_ERR("service_thread_cpu_ns: no CPU clock for this service");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return DOCA_SUCCESS;
}
