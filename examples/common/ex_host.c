/* SPDX-License-Identifier: BSD-3-Clause */
#include "ex_host.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sample_util.h"

struct host_thread {
	pthread_t th;
	struct ex_lane lane;
	ex_host_fn fn;
	void *arg;
	pthread_barrier_t *start;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *thread_main(void *p)
{
	struct host_thread *t = p;

	pthread_barrier_wait(t->start);
	t->fn(&t->lane, t->arg);
	return NULL;
}

/* Block groups first, then every block's warp groups. */
static int groups_init(struct ex_host_group *g, uint32_t nblocks, uint32_t nthreads, uint32_t nwarps)
{
	uint32_t b, w, done = 0;

	for (b = 0; b < nblocks; b++, done++)
		if (pthread_barrier_init(&g[b].barrier, NULL, nthreads) != 0)
			goto fail;
	for (b = 0; b < nblocks; b++) {
		for (w = 0; w < nwarps; w++, done++) {
			uint32_t left = nthreads - w * EX_HOST_WARP;

			if (pthread_barrier_init(&g[nblocks + b * nwarps + w].barrier, NULL,
						 left < EX_HOST_WARP ? left : EX_HOST_WARP) != 0)
				goto fail;
		}
	}
	return 0;
fail:
	while (done-- > 0)
		pthread_barrier_destroy(&g[done].barrier);
	return -1;
}

int ex_host_run(uint32_t nblocks, uint32_t nthreads, ex_host_fn fn, void *arg, uint64_t *ns)
{
	const uint32_t nwarps = (nthreads + EX_HOST_WARP - 1) / EX_HOST_WARP;
	const uint32_t total = nblocks * nthreads, ngroups = nblocks + nblocks * nwarps;
	struct host_thread *t = calloc(total, sizeof(*t));
	struct ex_host_group *g = calloc(ngroups, sizeof(*g));
	pthread_barrier_t start;
	uint32_t i, started = 0;
	uint64_t t0;
	int rc = -1, err = 0;

	if (t == NULL || g == NULL || groups_init(g, nblocks, nthreads, nwarps) != 0) {
		sample_err("cannot set up %u host threads", total);
		free(t);
		free(g);
		return -1;
	}
	pthread_barrier_init(&start, NULL, total + 1);
	for (i = 0; i < total; i++) {
		struct ex_lane *l = &t[i].lane;
		uint32_t w;

		l->block = i / nthreads;
		l->nblocks = nblocks;
		l->tid = i % nthreads;
		l->nthreads = nthreads;
		w = l->tid / EX_HOST_WARP;
		l->blk = &g[l->block];
		l->warp = &g[nblocks + l->block * nwarps + w];
		l->warp_size = nthreads - w * EX_HOST_WARP < EX_HOST_WARP ? nthreads - w * EX_HOST_WARP : EX_HOST_WARP;
		t[i].fn = fn;
		t[i].arg = arg;
		t[i].start = &start;
		err = pthread_create(&t[i].th, NULL, thread_main, &t[i]);
		if (err != 0)
			break;
		started++;
	}
	if (started < total) {
		/* The threads that exist wait on a barrier that can no longer fill: they cannot be
		 * released safely, so the process has to end. */
		sample_err("cannot start host thread %u of %u: %s", started + 1, total, strerror(err));
		exit(SAMPLE_EXIT_FAILURE);
	}
	t0 = now_ns();
	pthread_barrier_wait(&start);
	for (i = 0; i < total; i++)
		pthread_join(t[i].th, NULL);
	*ns = now_ns() - t0;
	rc = 0;
	pthread_barrier_destroy(&start);
	for (i = 0; i < ngroups; i++)
		pthread_barrier_destroy(&g[i].barrier);
	free(t);
	free(g);
	return rc;
}
