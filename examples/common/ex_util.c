/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers the examples' callbacks use (ex_run.h). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/ogda_dev_port.h"
#include "ex_dev_ops.h"
#include "ex_run.h"
#include "opengda_mlx5.h"
#include "sample_pattern.h"
#include "sample_verbs.h"
#include "sample_util.h"

int ex_fail(struct ex_ctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->fail, sizeof(x->fail), fmt, ap);
	va_end(ap);
	return -1;
}

static int range_ok(const struct ex_buf *b, size_t off, size_t len)
{
	if (off > b->len || len > b->len - off) {
		sample_err("internal: [%zu, +%zu) is outside a %zu-byte buffer", off, len, b->len);
		return 0;
	}
	return 1;
}

int ex_buf_read(const struct ex_ctx *x, const struct ex_buf *b, size_t off, void *dst, size_t len)
{
	if (!range_ok(b, off, len))
		return -1;
	if (x->cuda)
		return ex_cuda_to_host(dst, b->dev + off, len);
	/* Host threads: the NIC writes this memory; read it as bytes, after its completions. */
	memcpy(dst, b->dev + off, len);
	return 0;
}

int ex_buf_write(const struct ex_ctx *x, struct ex_buf *b, size_t off, const void *src, size_t len)
{
	if (!range_ok(b, off, len))
		return -1;
	if (x->cuda)
		return ex_cuda_to_dev(b->dev + off, src, len);
	memcpy(b->dev + off, src, len);
	return 0;
}

int ex_buf_fill(const struct ex_ctx *x, struct ex_buf *b, size_t off, uint8_t v, size_t len)
{
	if (!range_ok(b, off, len))
		return -1;
	if (x->cuda)
		return ex_cuda_fill(b->dev + off, v, len);
	memset(b->dev + off, v, len);
	return 0;
}

struct doca_gpu_dev_verbs_addr ex_laddr(const struct ex_ctx *x, size_t off)
{
	struct doca_gpu_dev_verbs_addr a;

	a.addr = (uint64_t)(uintptr_t)x->buf.dev + off;
	a.key = opengda_mlx5_htobe32(x->buf.lkey);
	return a;
}

struct doca_gpu_dev_verbs_addr ex_raddr(const struct ex_ctx *x, size_t off)
{
	struct doca_gpu_dev_verbs_addr a;

	a.addr = x->peer.addr + off;
	a.key = opengda_mlx5_htobe32(x->peer.rkey);
	return a;
}

void ex_test_corrupt(void *p, size_t len)
{
	const char *v = getenv("OGDA_EXAMPLE_CORRUPT");

	if (v != NULL && strcmp(v, "1") == 0 && len > 0)
		((uint8_t *)p)[len - 1] ^= 0x5a;
}

uint32_t ex_pattern_id(uint32_t row, uint32_t slot)
{
	/* The slot in the first bytes (sample_pattern puts the id there): neighbours differ at once. */
	return slot | (row << 24);
}

void ex_pattern_fill(const struct ex_ctx *x, void *p, size_t len, uint32_t id)
{
	sample_pattern_fill(p, len, x->seed, id);
}

int ex_pattern_check(struct ex_ctx *x, const void *p, size_t len, uint32_t id, const char *what)
{
	size_t off = 0;
	uint8_t got = 0, want = 0;

	if (sample_pattern_check(p, len, x->seed, id, &off, &got, &want) == 0) {
		x->checked_bytes += len;
		return 0;
	}
	return ex_fail(x, "%s: byte %zu of %zu is 0x%02x, expected 0x%02x", what, off, len, got, want);
}

int ex_launch(struct ex_ctx *x, uint32_t blocks, uint32_t threads, ex_host_fn host_fn, ex_cuda_launch_fn launch,
	      void *arg, uint64_t *ns)
{
	if (!x->cuda)
		return ex_host_run(blocks, threads, host_fn, arg, ns);
	if (launch == NULL) {
		sample_err("internal: this example has no kernel in this build");
		return -1;
	}
	if (ex_cuda_begin() != 0)
		return -1;
	if (launch(arg, blocks, threads) != 0) {
		sample_err("kernel launch (%u x %u): %s", blocks, threads, ex_cuda_launch_error());
		return -1;
	}
	return ex_cuda_end(x->cfg.timeout_s, ns);
}

/* An ex_launch_start() launch in flight. */
struct ex_launch_async {
	bool cuda;
	pthread_t helper; /* host threads: runs ex_host_run() */
	uint32_t blocks, threads;
	ex_host_fn host_fn;
	void *arg;
	uint64_t ns;
	int rc;
	int finished; /* set by the helper (release) once ex_host_run() has returned */
};

static void *launch_helper(void *p)
{
	struct ex_launch_async *a = p;

	a->rc = ex_host_run(a->blocks, a->threads, a->host_fn, a->arg, &a->ns);
	__atomic_store_n(&a->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

int ex_launch_start(struct ex_ctx *x, uint32_t blocks, uint32_t threads, ex_host_fn host_fn, ex_cuda_launch_fn launch,
		    void *arg)
{
	struct ex_launch_async *a;
	int err;

	if (x->launch != NULL) {
		sample_err("internal: a launch is already in flight");
		return -1;
	}
	if (x->cuda && launch == NULL) {
		sample_err("internal: this example has no kernel in this build");
		return -1;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		sample_err("out of memory");
		return -1;
	}
	a->cuda = x->cuda;
	a->blocks = blocks;
	a->threads = threads;
	a->host_fn = host_fn;
	a->arg = arg;
	if (x->cuda) {
		if (ex_cuda_begin() != 0)
			goto fail;
		if (launch(arg, blocks, threads) != 0) {
			sample_err("kernel launch (%u x %u): %s", blocks, threads, ex_cuda_launch_error());
			goto fail;
		}
	} else if ((err = pthread_create(&a->helper, NULL, launch_helper, a)) != 0) {
		sample_err("cannot start the thread that runs the host threads: %s", strerror(err));
		goto fail;
	}
	x->launch = a;
	return 0;
fail:
	free(a);
	return -1;
}

int ex_launch_finish(struct ex_ctx *x, uint64_t *ns)
{
	struct ex_launch_async *a = x->launch;
	/* The device code may be inside one bounded wait and enter another before it sees why it
	 * should stop: twice the bound of one wait. */
	const uint32_t bound_s = 2 * x->cfg.timeout_s;
	int rc;

	if (a == NULL) {
		sample_err("internal: no launch in flight");
		return -1;
	}
	x->launch = NULL;
	if (a->cuda) {
		rc = ex_cuda_end(bound_s, ns);
	} else {
		const int64_t deadline = sample_now_ms() + (int64_t)bound_s * 1000;

		while (!__atomic_load_n(&a->finished, __ATOMIC_ACQUIRE)) {
			if (sample_now_ms() > deadline) {
				/* Host threads cannot be cancelled safely in a device wait: leave. */
				sample_err("the host threads are still running after %u s; ending the process", bound_s);
				_exit(SAMPLE_EXIT_FAILURE);
			}
			sample_sleep_us(200);
		}
		pthread_join(a->helper, NULL);
		rc = a->rc;
		*ns = a->ns;
	}
	free(a);
	return rc;
}

int ex_sharing(const struct ex_ctx *x, uint32_t blocks, uint32_t threads)
{
	if (blocks > 1)
		return OGDA_DEV_SHARE_GPU;
	if (threads > 1 && !(x->cfg.scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK))
		return OGDA_DEV_SHARE_CTA;
	return OGDA_DEV_SHARE_EXCLUSIVE;
}

uint64_t ex_timeout_ns(const struct ex_ctx *x)
{
	return (uint64_t)x->cfg.timeout_s * 1000000000ull;
}

const char *ex_dev_error_str(int rc)
{
	static __thread char text[128];

	if (OPENGDA_DEV_IS_CQE_ERROR(rc)) {
		uint8_t syn = (uint8_t)OPENGDA_DEV_CQE_ERROR_SYNDROME(rc);

		snprintf(text, sizeof(text), "error completion, syndrome 0x%02x (%s)", syn,
			 ibv_wc_status_str(sample_wc_status_from_syndrome(syn)));
	} else if (rc == -OPENGDA_DEV_ETIMEDOUT) {
		snprintf(text, sizeof(text), "no completion within --timeout");
	} else if (rc == -22) {
		snprintf(text, sizeof(text), "the group posts more WQEs than the queue holds");
	} else if (rc == EX_DEV_EBADMSG) {
		snprintf(text, sizeof(text), "a receive completed with another byte count or message than sent");
	} else {
		snprintf(text, sizeof(text), "error %d", rc);
	}
	return text;
}
