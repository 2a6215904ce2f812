/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Byte movement for the software NIC: host memory directly, GPU memory through the CUDA
 * driver API.
 *
 * GPU copies run on a private non-blocking stream, so they never wait behind (or hold up)
 * work on the legacy default stream: a GPU kernel that spins on a flag while the NIC moves
 * its data must not deadlock against the copy. swnic_mem_copy() has no NIC argument and is
 * called from several engine and fabric threads at once, so the stream is private to the
 * calling thread (one per device it touches), created on first use and destroyed when the
 * thread exits. Copies are synchronous on return: the caller may publish a CQE right after.
 */
#include "swnic/swnic.h"
#include "swnic/swnic_mem_int.h"

#include "core/cuda_drv.h"
#include "core/log.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool mem_kind_valid(enum ogda_mem_kind kind)
{
	return kind == OGDA_MEM_HOST || kind == OGDA_MEM_GPU;
}

#ifdef OGDA_HAVE_CUDA_H

#define SWNIC_COPY_MAX_DEVICES 64

/* Primary contexts, retained once per device for the life of the process. */
static pthread_mutex_t primary_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext primary_ctx[SWNIC_COPY_MAX_DEVICES];

/* One calling thread's streams, by device ordinal, and the marks on them (swnic_gpu_stream_mark). */
struct copy_streams {
	const struct ogda_cuda_drv *drv;
	CUstream stream[SWNIC_COPY_MAX_DEVICES];
	CUcontext ctx[SWNIC_COPY_MAX_DEVICES];
	CUevent *mark[SWNIC_COPY_MAX_DEVICES]; /* SWNIC_GPU_MARKS events, made on first use */
};

static pthread_once_t streams_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t streams_key;
static bool streams_key_ok;

static void copy_streams_destroy(void *arg)
{
	struct copy_streams *s = arg;
	CUcontext prev = NULL;
	int i;

	if (s->drv->ctx_get_current(&prev) != CUDA_SUCCESS)
		prev = NULL;
	for (i = 0; i < SWNIC_COPY_MAX_DEVICES; i++) {
		unsigned k;

		if (s->stream[i] == NULL)
			continue;
		if (s->drv->ctx_set_current(s->ctx[i]) != CUDA_SUCCESS)
			continue;
		for (k = 0; s->mark[i] != NULL && k < SWNIC_GPU_MARKS; k++)
			if (s->mark[i][k] != NULL)
				s->drv->event_destroy(s->mark[i][k]);
		free(s->mark[i]);
		s->drv->stream_destroy(s->stream[i]);
	}
	s->drv->ctx_set_current(prev);
	free(s);
}

static void streams_key_create(void)
{
	streams_key_ok = pthread_key_create(&streams_key, copy_streams_destroy) == 0;
}

static const char *cu_err_name(const struct ogda_cuda_drv *drv, CUresult rc)
{
	const char *name = NULL;

	if (drv->get_error_name(rc, &name) != CUDA_SUCCESS || name == NULL)
		return "unknown CUDA error";
	return name;
}

/* Set by swnic_mem_copy_keep_context: the thread is the NIC's own, its copy context stays current. */
static _Thread_local bool keep_ctx;

/* Makes ctx current unless it is; the previous context is restored by ctx_back. */
static CUresult ctx_to(const struct ogda_cuda_drv *drv, CUcontext ctx, CUcontext prev)
{
	return prev == ctx ? CUDA_SUCCESS : drv->ctx_set_current(ctx);
}

static void ctx_back(const struct ogda_cuda_drv *drv, CUcontext ctx, CUcontext prev)
{
	/* The NIC's own threads keep it: two driver calls fewer per copy. */
	if (prev != ctx && !(keep_ctx && prev == NULL))
		drv->ctx_set_current(prev);
}

doca_error_t swnic_cuda_primary_ctx(const struct ogda_cuda_drv *drv, int ordinal, CUcontext *ctx)
{
	doca_error_t ret = DOCA_SUCCESS;
	CUdevice dev;
	CUresult rc;

	if (ordinal < 0 || ordinal >= SWNIC_COPY_MAX_DEVICES) {
		OGDA_LOG_ERR("GPU ordinal %d is outside the %d devices supported", ordinal, SWNIC_COPY_MAX_DEVICES);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	pthread_mutex_lock(&primary_lock);
	if (primary_ctx[ordinal] == NULL) {
		rc = drv->device_get(&dev, ordinal);
		if (rc == CUDA_SUCCESS)
			rc = drv->device_primary_ctx_retain(&primary_ctx[ordinal], dev);
		if (rc != CUDA_SUCCESS) {
			OGDA_LOG_ERR("cannot retain the primary context of GPU %d: %s", ordinal, cu_err_name(drv, rc));
			primary_ctx[ordinal] = NULL;
			ret = DOCA_ERROR_DRIVER;
		}
	}
	*ctx = primary_ctx[ordinal];
	pthread_mutex_unlock(&primary_lock);
	return ret;
}

/* The calling thread's stream on GPU ordinal (created on first use) and its context. */
static doca_error_t thread_stream_get(const struct ogda_cuda_drv *drv, int ordinal, CUcontext *ctx, CUstream *stream)
{
	struct copy_streams *s;
	doca_error_t ret;
	CUresult rc;

	pthread_once(&streams_key_once, streams_key_create);
	if (!streams_key_ok) {
		OGDA_LOG_ERR("cannot create the thread key for GPU copy streams");
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	s = pthread_getspecific(streams_key);
	if (s == NULL) {
		s = calloc(1, sizeof(*s));
		if (s == NULL) {
			OGDA_LOG_ERR("out of memory for GPU copy streams");
			return DOCA_ERROR_NO_MEMORY;
		}
		s->drv = drv;
		if (pthread_setspecific(streams_key, s) != 0) {
			free(s);
			OGDA_LOG_ERR("cannot record the GPU copy streams of this thread");
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
	}
	if (s->stream[ordinal] == NULL) {
		ret = swnic_cuda_primary_ctx(drv, ordinal, &s->ctx[ordinal]);
		if (ret != DOCA_SUCCESS)
			return ret;
		/* A stream belongs to the context current when it is created. */
		rc = drv->ctx_set_current(s->ctx[ordinal]);
		if (rc == CUDA_SUCCESS)
			rc = drv->stream_create(&s->stream[ordinal], CU_STREAM_NON_BLOCKING);
		if (rc != CUDA_SUCCESS) {
			OGDA_LOG_ERR("cannot create a copy stream on GPU %d: %s", ordinal, cu_err_name(drv, rc));
			s->stream[ordinal] = NULL;
			return DOCA_ERROR_DRIVER;
		}
	}
	*ctx = s->ctx[ordinal];
	*stream = s->stream[ordinal];
	return DOCA_SUCCESS;
}

/* The calling thread's stream on a GPU, its context current while it is used. */
struct stream_use {
	const struct ogda_cuda_drv *drv;
	CUcontext ctx, prev; /* prev: current before stream_enter, back after stream_leave */
	CUstream stream;
};

static doca_error_t stream_enter(const struct ogda_cuda_drv *drv, int ordinal, struct stream_use *u)
{
	doca_error_t ret;

	u->drv = drv;
	u->ctx = NULL;
	u->stream = NULL;
	/* Library threads normally have no current context; an application thread keeps its own. */
	if (drv->ctx_get_current(&u->prev) != CUDA_SUCCESS)
		u->prev = NULL;
	ret = thread_stream_get(drv, ordinal, &u->ctx, &u->stream);
	if (ret == DOCA_SUCCESS && ctx_to(drv, u->ctx, u->prev) != CUDA_SUCCESS) {
		OGDA_LOG_ERR("cannot make GPU %d's context current", ordinal);
		ret = DOCA_ERROR_DRIVER;
	}
	if (ret != DOCA_SUCCESS)
		ctx_back(drv, u->ctx, u->prev);
	return ret;
}

static void stream_leave(struct stream_use *u)
{
	ctx_back(u->drv, u->ctx, u->prev);
}

/*
 * Copies len bytes on the calling thread's stream of gpu_side's device; wait: returns once
 * they have landed, else as soon as the copy is queued (*ordinal: the device, for
 * swnic_gpu_stream_wait).
 */
static doca_error_t gpu_copy_on_stream(void *dst, const void *src, const void *gpu_side, size_t len, bool wait,
				       int *ordinal_out)
{
	const struct ogda_cuda_drv *drv = NULL;
	struct stream_use u;
	doca_error_t ret;
	int ordinal = -1;
	CUresult rc;

	ret = ogda_cuda_drv_get(&drv);
	if (ret != DOCA_SUCCESS) {
		OGDA_LOG_ERR("GPU memory copy needs the CUDA driver: %s", ogda_cuda_drv_status());
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	rc = drv->pointer_get_attribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, (CUdeviceptr)(uintptr_t)gpu_side);
	if (rc != CUDA_SUCCESS) {
		OGDA_LOG_ERR("%p is not memory the CUDA driver knows: %s", gpu_side, cu_err_name(drv, rc));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ordinal < 0 || ordinal >= SWNIC_COPY_MAX_DEVICES) {
		OGDA_LOG_ERR("GPU ordinal %d of %p is outside the %d devices supported", ordinal, gpu_side,
			     SWNIC_COPY_MAX_DEVICES);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	ret = stream_enter(drv, ordinal, &u);
	if (ret == DOCA_SUCCESS) {
		rc = drv->memcpy_async((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, len, u.stream);
		if (rc == CUDA_SUCCESS && wait)
			rc = drv->stream_synchronize(u.stream);
		if (rc != CUDA_SUCCESS) {
			OGDA_LOG_ERR("GPU copy of %zu bytes %p -> %p failed: %s", len, src, dst, cu_err_name(drv, rc));
			ret = DOCA_ERROR_DRIVER;
		}
		stream_leave(&u);
	}
	if (ordinal_out != NULL)
		*ordinal_out = ordinal;
	return ret;
}

static doca_error_t gpu_copy(void *dst, const void *src, const void *gpu_side, size_t len)
{
	return gpu_copy_on_stream(dst, src, gpu_side, len, true, NULL);
}

doca_error_t swnic_gpu_copy_async(void *dst, const void *src, size_t len, int *ordinal)
{
	if (dst == NULL || src == NULL || ordinal == NULL || len == 0) {
		OGDA_LOG_ERR("GPU copy: bad argument (dst %p, src %p, %zu bytes)", dst, src, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return gpu_copy_on_stream(dst, src, dst, len, false, ordinal);
}

doca_error_t swnic_gpu_stream_wait(int ordinal, bool block, bool *done)
{
	const struct ogda_cuda_drv *drv = NULL;
	struct stream_use u;
	doca_error_t ret;
	CUresult rc;

	*done = false;
	if (ordinal < 0 || ordinal >= SWNIC_COPY_MAX_DEVICES || ogda_cuda_drv_get(&drv) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("GPU stream wait: no stream on GPU %d", ordinal);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ret = stream_enter(drv, ordinal, &u);
	if (ret != DOCA_SUCCESS)
		return ret;
	rc = block || drv->stream_query == NULL ? drv->stream_synchronize(u.stream) : drv->stream_query(u.stream);
	if (rc == CUDA_SUCCESS) {
		*done = true;
	} else if (rc != CUDA_ERROR_NOT_READY) {
		OGDA_LOG_ERR("GPU copies on GPU %d failed: %s", ordinal, cu_err_name(drv, rc));
		ret = DOCA_ERROR_DRIVER;
	}
	stream_leave(&u);
	return ret;
}

/* The calling thread's mark k on GPU ordinal, made on first use (NULL: failed, logged). */
static CUevent mark_get(const struct ogda_cuda_drv *drv, struct copy_streams *s, int ordinal, unsigned k)
{
	CUresult rc;

	if (s->mark[ordinal] == NULL) {
		s->mark[ordinal] = calloc(SWNIC_GPU_MARKS, sizeof(CUevent));
		if (s->mark[ordinal] == NULL) {
			OGDA_LOG_ERR("out of memory for GPU copy marks");
			return NULL;
		}
	}
	if (s->mark[ordinal][k] == NULL) {
		rc = drv->event_create(&s->mark[ordinal][k], CU_EVENT_DISABLE_TIMING);
		if (rc != CUDA_SUCCESS) {
			OGDA_LOG_ERR("cannot create a GPU copy mark: %s", cu_err_name(drv, rc));
			s->mark[ordinal][k] = NULL;
		}
	}
	return s->mark[ordinal][k];
}

doca_error_t swnic_gpu_stream_mark(int ordinal, unsigned k, bool query, bool *reached)
{
	const struct ogda_cuda_drv *drv = NULL;
	struct stream_use u;
	doca_error_t ret;
	CUevent ev;
	CUresult rc;

	*reached = false;
	if (ordinal < 0 || ordinal >= SWNIC_COPY_MAX_DEVICES || k >= SWNIC_GPU_MARKS ||
	    ogda_cuda_drv_get(&drv) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	if (drv->event_create == NULL || drv->event_record == NULL || drv->event_query == NULL ||
	    drv->event_destroy == NULL)
		return DOCA_ERROR_NOT_SUPPORTED;
	ret = stream_enter(drv, ordinal, &u);
	if (ret != DOCA_SUCCESS)
		return ret;
	ev = mark_get(drv, pthread_getspecific(streams_key), ordinal, k);
	if (ev == NULL)
		ret = DOCA_ERROR_DRIVER;
	else if (!query)
		ret = drv->event_record(ev, u.stream) == CUDA_SUCCESS ? DOCA_SUCCESS : DOCA_ERROR_DRIVER;
	else if ((rc = drv->event_query(ev)) == CUDA_SUCCESS)
		*reached = true;
	else if (rc != CUDA_ERROR_NOT_READY)
		ret = DOCA_ERROR_DRIVER;
	if (ret != DOCA_SUCCESS)
		OGDA_LOG_ERR("GPU copy mark %u on GPU %d: the %s failed", k, ordinal, query ? "query" : "record");
	stream_leave(&u);
	return ret;
}

void swnic_mem_copy_keep_context(void)
{
	keep_ctx = true;
}

#else
void swnic_mem_copy_keep_context(void)
{
}

static doca_error_t gpu_copy(void *dst, const void *src, const void *gpu_side, size_t len)
{
	(void)dst;
	(void)src;
	(void)len;
	OGDA_LOG_ERR("GPU memory copy at %p needs the CUDA driver: this build has no CUDA headers", gpu_side);
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t swnic_gpu_copy_async(void *dst, const void *src, size_t len, int *ordinal)
{
	(void)ordinal;
	return gpu_copy(dst, src, dst, len);
}

doca_error_t swnic_gpu_stream_wait(int ordinal, bool block, bool *done)
{
	(void)ordinal;
	(void)block;
	*done = true;
	return DOCA_SUCCESS;
}

doca_error_t swnic_gpu_stream_mark(int ordinal, unsigned k, bool query, bool *reached)
{
	(void)ordinal;
	(void)k;
	(void)query;
	*reached = true;
	return DOCA_ERROR_NOT_SUPPORTED;
}
#endif /* OGDA_HAVE_CUDA_H */

doca_error_t swnic_mem_copy(void *dst, enum ogda_mem_kind dst_kind, const void *src, enum ogda_mem_kind src_kind,
			    size_t len)
{
	if (!mem_kind_valid(dst_kind) || !mem_kind_valid(src_kind)) {
		OGDA_LOG_ERR("invalid memory kinds dst %d src %d", (int)dst_kind, (int)src_kind);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (len == 0)
		return DOCA_SUCCESS;
	if (dst == NULL || src == NULL) {
		OGDA_LOG_ERR("NULL %s for a copy of %zu bytes", dst == NULL ? "destination" : "source", len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dst_kind == OGDA_MEM_HOST && src_kind == OGDA_MEM_HOST) {
		/* memmove: a loopback WRITE between overlapping MRs is legal. */
		memmove(dst, src, len);
		return DOCA_SUCCESS;
	}
	return gpu_copy(dst, src, dst_kind == OGDA_MEM_GPU ? dst : src, len);
}
