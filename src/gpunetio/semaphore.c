/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU semaphores (doca_gpunetio_semaphore.h): the items and custom-info records in memory of the
 * configured types, and the device handle (device/ogda_dev_sem.h) in GPU memory. The CPU-side
 * status calls follow the protocol of the device side (release on set, acquire on get).
 */
#include "gpunetio/gpunetio_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>

struct doca_gpu_semaphore {
	struct doca_gpu *gpu;
	enum doca_gpu_mem_type mtype;
	uint32_t items_num;
	uint32_t custom_nbytes;
	enum doca_gpu_mem_type custom_mtype;
	bool started;
	/* while started */
	struct ogda_dev_sem_item *items_gpu, *items_cpu; /* items_cpu NULL for GPU memory */
	uint8_t *custom_gpu, *custom_cpu;
	struct doca_gpu_semaphore_gpu *handle;          /* GPU memory */
};

static doca_error_t check_config(const struct doca_gpu_semaphore *sem, const char *func)
{
	if (sem == NULL) {
		OGDA_LOG_ERR("%s: semaphore must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (sem->started) {
		OGDA_LOG_ERR("%s: the semaphore is started; its attributes are fixed until it is stopped", func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

/* check_config() and a known memory type: the first step of the memory setters. */
static doca_error_t check_mtype(const struct doca_gpu_semaphore *sem, enum doca_gpu_mem_type t, const char *func)
{
	doca_error_t err = check_config(sem, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (t != DOCA_GPU_MEM_TYPE_GPU && t != DOCA_GPU_MEM_TYPE_GPU_CPU && t != DOCA_GPU_MEM_TYPE_CPU_GPU) {
		OGDA_LOG_ERR("%s: memory type %d is not a doca_gpu_mem_type", func, (int)t);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_semaphore_create(struct doca_gpu *gpu, struct doca_gpu_semaphore **semaphore)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_create, (gpu, semaphore));
	struct doca_gpu_semaphore *s;

	if (gpu == NULL || semaphore == NULL) {
		OGDA_LOG_ERR("gpu and semaphore must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		OGDA_LOG_ERR("out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	s->gpu = gpu;
	s->mtype = DOCA_GPU_MEM_TYPE_GPU;
	s->custom_mtype = DOCA_GPU_MEM_TYPE_GPU;
	*semaphore = s;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_semaphore_destroy(struct doca_gpu_semaphore *semaphore)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_destroy, (semaphore));
	doca_error_t err = check_config(semaphore, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	free(semaphore);
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_semaphore_set_memory_type(struct doca_gpu_semaphore *semaphore, enum doca_gpu_mem_type mtype)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_set_memory_type, (semaphore, mtype));
	doca_error_t err = check_mtype(semaphore, mtype, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	semaphore->mtype = mtype;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_semaphore_set_items_num(struct doca_gpu_semaphore *semaphore, uint32_t num_items)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_set_items_num, (semaphore, num_items));
	doca_error_t err = check_config(semaphore, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (num_items == 0) {
		OGDA_LOG_ERR("a semaphore needs at least one item");
		return DOCA_ERROR_INVALID_VALUE;
	}
	semaphore->items_num = num_items;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_semaphore_set_custom_info(struct doca_gpu_semaphore *semaphore, uint32_t nbytes,
						enum doca_gpu_mem_type mtype)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_set_custom_info, (semaphore, nbytes, mtype));
	doca_error_t err = check_mtype(semaphore, mtype, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	semaphore->custom_nbytes = nbytes;
	semaphore->custom_mtype = mtype;
	return DOCA_SUCCESS;
}

static void release_mem(struct doca_gpu_semaphore *s)
{
	if (s->handle != NULL)
		(void)doca_gpu_mem_free(s->gpu, s->handle);
	if (s->custom_gpu != NULL)
		(void)doca_gpu_mem_free(s->gpu, s->custom_gpu);
	if (s->items_gpu != NULL)
		(void)doca_gpu_mem_free(s->gpu, s->items_gpu);
	s->handle = NULL;
	s->custom_gpu = s->custom_cpu = NULL;
	s->items_gpu = s->items_cpu = NULL;
}

/* One allocation (zeroed by doca_gpu_mem_alloc); *cpu stays NULL for GPU memory. */
static doca_error_t alloc(struct doca_gpu *gpu, size_t size, enum doca_gpu_mem_type t, void **g, void **cpu)
{
	void *c = NULL;
	doca_error_t err = doca_gpu_mem_alloc(gpu, size, 64, t, g, t == DOCA_GPU_MEM_TYPE_GPU ? NULL : &c);

	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("cannot allocate %zu bytes of semaphore memory (type %d): %s", size, (int)t,
			     doca_error_get_descr(err));
	if (cpu != NULL)
		*cpu = c;
	return err;
}

doca_error_t doca_gpu_semaphore_start(struct doca_gpu_semaphore *semaphore)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_start, (semaphore));
	struct doca_gpu_semaphore *s = semaphore;
	struct doca_gpu_semaphore_gpu h;
	doca_error_t err = check_config(s, __func__);
	void *g, *c;

	if (err != DOCA_SUCCESS)
		return err;
	if (s->items_num == 0) {
		OGDA_LOG_ERR("set the number of items (doca_gpu_semaphore_set_items_num) before start");
		return DOCA_ERROR_BAD_STATE;
	}
	err = alloc(s->gpu, (size_t)s->items_num * sizeof(struct ogda_dev_sem_item), s->mtype, &g, &c);
	if (err != DOCA_SUCCESS)
		return err;
	s->items_gpu = g;
	s->items_cpu = c;
	if (s->custom_nbytes != 0) {
		err = alloc(s->gpu, (size_t)s->items_num * s->custom_nbytes, s->custom_mtype, &g, &c);
		if (err != DOCA_SUCCESS)
			goto fail;
		s->custom_gpu = g;
		s->custom_cpu = c;
	}
	err = alloc(s->gpu, sizeof(h), DOCA_GPU_MEM_TYPE_GPU, &g, NULL);
	if (err != DOCA_SUCCESS)
		goto fail;
	s->handle = g;
	h = (struct doca_gpu_semaphore_gpu){.items = s->items_gpu,
					    .custom_info = s->custom_gpu,
					    .items_num = s->items_num,
					    .custom_info_size = s->custom_nbytes};
	err = ogda_gpu_copy_to_dev(s->gpu, s->handle, &h, sizeof(h));
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("cannot copy the semaphore handle to the GPU: %s", doca_error_get_descr(err));
		err = DOCA_ERROR_DRIVER;
		goto fail;
	}
	s->started = true;
	return DOCA_SUCCESS;
fail:
	release_mem(s);
	return err;
}

doca_error_t doca_gpu_semaphore_stop(struct doca_gpu_semaphore *semaphore)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_stop, (semaphore));
	if (semaphore == NULL) {
		OGDA_LOG_ERR("semaphore must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!semaphore->started) {
		OGDA_LOG_ERR("the semaphore is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	release_mem(semaphore);
	semaphore->started = false;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_semaphore_get_gpu_handle(struct doca_gpu_semaphore *semaphore,
					       struct doca_gpu_semaphore_gpu **semaphore_gpu)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_get_gpu_handle, (semaphore, semaphore_gpu));
	if (semaphore == NULL || semaphore_gpu == NULL) {
		OGDA_LOG_ERR("semaphore and semaphore_gpu must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!semaphore->started) {
		OGDA_LOG_ERR("the semaphore is not started: its handle exists after doca_gpu_semaphore_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	*semaphore_gpu = semaphore->handle;
	return DOCA_SUCCESS;
}

/* Checks shared by the CPU-side item calls. */
static doca_error_t check_item(const struct doca_gpu_semaphore *s, uint32_t idx, const void *out, const char *func)
{
	if (s == NULL || out == NULL) {
		OGDA_LOG_ERR("%s: the semaphore and the output must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!s->started) {
		OGDA_LOG_ERR("%s: the semaphore is not started", func);
		return DOCA_ERROR_BAD_STATE;
	}
	if (idx >= s->items_num) {
		OGDA_LOG_ERR("%s: item %u is past the end (%u items)", func, idx, s->items_num);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t check_status_item(const struct doca_gpu_semaphore *s, uint32_t idx, const void *out,
				      const char *func)
{
	doca_error_t err = check_item(s, idx, out, func);

	if (err == DOCA_SUCCESS && s->items_cpu == NULL) {
		OGDA_LOG_ERR("%s: the items are in GPU memory, which the CPU cannot reach: use GPU_CPU or CPU_GPU",
			     func);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return err;
}

doca_error_t doca_gpu_semaphore_set_status(struct doca_gpu_semaphore *semaphore, uint32_t idx,
					   enum doca_gpu_semaphore_status status)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_set_status, (semaphore, idx, status));
	doca_error_t err = check_status_item(semaphore, idx, semaphore, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if ((uint32_t)status > DOCA_GPU_SEMAPHORE_STATUS_EXIT) {
		OGDA_LOG_ERR("status %d is not a doca_gpu_semaphore_status", (int)status);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/*
	 * A full fence first: custom info written through a write-combined mapping is ordered too.
	 * ThreadSanitizer does not model fences (gcc refuses them there); the release store alone
	 * carries the ordering it checks.
	 */
#if !defined(__SANITIZE_THREAD__)
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
	__atomic_store_n(&semaphore->items_cpu[idx].status, (uint32_t)status, __ATOMIC_RELEASE);
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_semaphore_get_status(struct doca_gpu_semaphore *semaphore, uint32_t idx,
					   enum doca_gpu_semaphore_status *status)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_get_status, (semaphore, idx, status));
	doca_error_t err = check_status_item(semaphore, idx, status, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	*status = (enum doca_gpu_semaphore_status)__atomic_load_n(&semaphore->items_cpu[idx].status,
								   __ATOMIC_ACQUIRE);
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_semaphore_get_custom_info_addr(struct doca_gpu_semaphore *semaphore, uint32_t idx,
						     void **custom_info)
{
	OGDA_SDK_FORWARD(doca_gpu_semaphore_get_custom_info_addr, (semaphore, idx, custom_info));
	doca_error_t err = check_item(semaphore, idx, custom_info, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (semaphore->custom_nbytes == 0) {
		OGDA_LOG_ERR("the semaphore has no custom info (doca_gpu_semaphore_set_custom_info)");
		return DOCA_ERROR_NOT_FOUND;
	}
	if (semaphore->custom_cpu == NULL) {
		OGDA_LOG_ERR("the custom info is in GPU memory, which the CPU cannot reach: use GPU_CPU or CPU_GPU");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	*custom_info = semaphore->custom_cpu + (size_t)idx * semaphore->custom_nbytes;
	return DOCA_SUCCESS;
}
