/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf_arr (doca_buf_array.h): fixed-size elements of a started mmap, laid out at start in
 * the target's memory as device/ogda_dev_buf.h describes: the element table, then the header.
 */
#include "doca_core/core_priv.h"

#include "doca_buf_array.h"
#include "device/ogda_dev_buf.h"

#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"
#include "sdk/sdk_forward.h"

#include <endian.h>
#include <stdlib.h>

struct doca_buf_arr {
	size_t num_elem;
	struct doca_gpu *gpu;
	struct doca_mmap *mmap;
	size_t elem_size;
	uint64_t start_offset;
	bool started;
	void *dev_mem;                   /* doca_gpu_mem_alloc(): elements then header */
	struct doca_gpu_buf_arr *handle; /* inside dev_mem */
};

static doca_error_t check_config(const struct doca_buf_arr *arr, const char *func)
{
	if (arr == NULL) {
		OGDA_LOG_ERR("%s: buf_arr must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (arr->started) {
		OGDA_LOG_ERR("%s: the buf_arr is started; stop it before changing it", func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr)
{
	OGDA_SDK_FORWARD(doca_buf_arr_create, (num_elem, buf_arr));
	struct doca_buf_arr *a;

	if (buf_arr == NULL || num_elem == 0) {
		OGDA_LOG_ERR("buf_arr must not be NULL and num_elem must be above 0 (got %zu)", num_elem);
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		OGDA_LOG_ERR("out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	a->num_elem = num_elem;
	*buf_arr = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr, struct doca_gpu *gpu_handler)
{
	OGDA_SDK_FORWARD(doca_buf_arr_set_target_gpu, (buf_arr, gpu_handler));
	doca_error_t err = check_config(buf_arr, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (gpu_handler == NULL) {
		OGDA_LOG_ERR("gpu_handler must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	buf_arr->gpu = gpu_handler;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr, struct doca_mmap *mmap, size_t elem_size,
				     uint64_t start_offset)
{
	OGDA_SDK_FORWARD(doca_buf_arr_set_params, (buf_arr, mmap, elem_size, start_offset));
	doca_error_t err = check_config(buf_arr, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (mmap == NULL || elem_size == 0) {
		OGDA_LOG_ERR("mmap must not be NULL and elem_size must be above 0 (got %zu)", elem_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	buf_arr->mmap = mmap;
	buf_arr->elem_size = elem_size;
	buf_arr->start_offset = start_offset;
	return DOCA_SUCCESS;
}

/* Whether num_elem elements of elem_size bytes from start_offset fit in len bytes. */
static bool fits(const struct doca_buf_arr *a, size_t len)
{
	if (a->start_offset > len)
		return false;
	return a->num_elem <= (len - a->start_offset) / a->elem_size;
}

/* Builds the layout in host memory and copies it to the target's. */
static doca_error_t lay_out(struct doca_buf_arr *a, uint8_t *base, uint32_t mkey)
{
	size_t table = a->num_elem * sizeof(struct doca_gpu_buf);
	size_t total = table + sizeof(struct doca_gpu_buf_arr);
	struct doca_gpu_buf_arr *h;
	struct doca_gpu_buf *bufs;
	uint8_t *img;
	doca_error_t err;

	img = calloc(1, total);
	if (img == NULL) {
		OGDA_LOG_ERR("out of memory for %zu elements", a->num_elem);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = doca_gpu_mem_alloc(a->gpu, total, 64, DOCA_GPU_MEM_TYPE_GPU, &a->dev_mem, NULL);
	if (err != DOCA_SUCCESS) {
		free(img);
		return err;
	}
	bufs = (struct doca_gpu_buf *)(void *)img;
	for (size_t i = 0; i < a->num_elem; i++) {
		bufs[i].addr = (uint64_t)(uintptr_t)(base + a->start_offset + i * a->elem_size);
		bufs[i].mkey = mkey;
		bufs[i].mkey_be = htobe32(mkey);
	}
	h = (struct doca_gpu_buf_arr *)(void *)(img + table);
	*h = (struct doca_gpu_buf_arr){.bufs = (struct doca_gpu_buf *)a->dev_mem,
				       .num_elem = a->num_elem,
				       .elem_size = a->elem_size,
				       .base_addr = (uint64_t)(uintptr_t)(base + a->start_offset),
				       .mkey = mkey,
				       .mkey_be = htobe32(mkey)};
	err = ogda_gpu_copy_to_dev(a->gpu, a->dev_mem, img, total);
	free(img);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("cannot copy the array's layout to the GPU: %s", doca_error_get_descr(err));
		doca_gpu_mem_free(a->gpu, a->dev_mem);
		a->dev_mem = NULL;
		return DOCA_ERROR_DRIVER;
	}
	a->handle = (struct doca_gpu_buf_arr *)(void *)((uint8_t *)a->dev_mem + table);
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr)
{
	OGDA_SDK_FORWARD(doca_buf_arr_start, (buf_arr));
	doca_error_t err = check_config(buf_arr, __func__);
	void *base;
	size_t len;
	uint32_t mkey;

	if (err != DOCA_SUCCESS)
		return err;
	if (buf_arr->gpu == NULL || buf_arr->mmap == NULL) {
		OGDA_LOG_ERR("the buf_arr needs a target (doca_buf_arr_set_target_gpu) and parameters "
			     "(doca_buf_arr_set_params) before start");
		return DOCA_ERROR_BAD_STATE;
	}
	if (core_mmap_first_key(buf_arr->mmap, &base, &len, &mkey) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("the buf_arr's mmap is not started or has no device");
		return DOCA_ERROR_BAD_STATE;
	}
	if (!fits(buf_arr, len)) {
		OGDA_LOG_ERR("%zu elements of %zu bytes from offset %lu do not fit in the mmap's %zu bytes",
			     buf_arr->num_elem, buf_arr->elem_size, (unsigned long)buf_arr->start_offset, len);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = lay_out(buf_arr, base, mkey);
	if (err != DOCA_SUCCESS)
		return err;
	core_mmap_hold(buf_arr->mmap);
	buf_arr->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr)
{
	OGDA_SDK_FORWARD(doca_buf_arr_stop, (buf_arr));
	doca_error_t err;

	if (buf_arr == NULL) {
		OGDA_LOG_ERR("buf_arr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!buf_arr->started) {
		OGDA_LOG_ERR("the buf_arr is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	err = doca_gpu_mem_free(buf_arr->gpu, buf_arr->dev_mem);
	if (err != DOCA_SUCCESS) /* logged by the GPU layer; the array is stopped regardless */
		OGDA_LOG_ERR("cannot free the array's layout: %s", doca_error_get_descr(err));
	buf_arr->dev_mem = NULL;
	buf_arr->handle = NULL;
	core_mmap_release(buf_arr->mmap);
	buf_arr->started = false;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr)
{
	OGDA_SDK_FORWARD(doca_buf_arr_destroy, (buf_arr));
	if (buf_arr == NULL) {
		OGDA_LOG_ERR("buf_arr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_arr->started)
		(void)doca_buf_arr_stop(buf_arr);
	free(buf_arr);
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr, struct doca_gpu_buf_arr **gpu_buf_arr)
{
	OGDA_SDK_FORWARD(doca_buf_arr_get_gpu_handle, (buf_arr, gpu_buf_arr));
	if (buf_arr == NULL || gpu_buf_arr == NULL) {
		OGDA_LOG_ERR("buf_arr and gpu_buf_arr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!buf_arr->started) {
		OGDA_LOG_ERR("the buf_arr is not started: its device view exists after doca_buf_arr_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	*gpu_buf_arr = buf_arr->handle;
	return DOCA_SUCCESS;
}
