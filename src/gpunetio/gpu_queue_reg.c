/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How a NIC reaches queues and doorbells of a GPU, shared by every family that builds its own
 * queues (high-level Verbs QPs, DOCA Ethernet queues):
 *
 *  - queue memory in GPU memory is registered as a umem with a dmabuf fd the GPU exports, or,
 *    where the GPU cannot export one, as a plain registration of the GPU pointer, which the
 *    kernel resolves through nvidia-peermem;
 *  - a doorbell register is mapped for the GPU's threads: a ConnectX UAR is device memory that
 *    only doca_gpu_verbs_export_uar() maps (CUDA's I/O-memory registration, reference-counted per
 *    page); the software NIC's UAR is a host page, and a host handle's threads are CPU threads:
 *    both take an ordinary host mapping.
 *
 * The calls to doca_gpu_dmabuf_fd() and doca_gpu_verbs_export_uar() go through the library's
 * public functions (not their internals) so that tests without a GPU can stand in for them.
 */
#include "gpunetio/gpunetio_priv.h"

#include "core/log.h"
#include "opengda_mlx5.h"

#include <string.h>
#include <unistd.h>

doca_error_t ogda_gpu_umem_register(struct doca_gpu *gpu, void *gpu_ptr, size_t len,
				    enum doca_gpu_verbs_mem_reg_type reg, ogda_gpu_umem_reg_fn fn, void *arg,
				    const char *what)
{
	doca_error_t err;
	int fd = -1;

	if (gpu == NULL || gpu_ptr == NULL || len == 0 || fn == NULL || what == NULL) {
		OGDA_LOG_ERR("umem registration of GPU memory: gpu, gpu_ptr, fn and what must not be NULL, len not 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (reg != DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_DEFAULT && reg != DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_CUDA_DMABUF &&
	    reg != DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_CUDA_PEERMEM) {
		OGDA_LOG_ERR("%s: unknown memory registration type %d", what, (int)reg);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (reg != DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_CUDA_PEERMEM) {
		err = doca_gpu_dmabuf_fd(gpu, gpu_ptr, len, &fd);
		if (err == DOCA_SUCCESS) {
			err = fn(arg, gpu_ptr, len, fd);
			close(fd); /* the registration holds its own reference to the buffer */
			if (err == DOCA_SUCCESS)
				return DOCA_SUCCESS;
			if (reg == DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_CUDA_DMABUF) {
				OGDA_LOG_ERR("%s: the NIC refused the dmabuf of %zu bytes of GPU memory: %s", what, len,
					     doca_error_get_descr(err));
				return err;
			}
			OGDA_LOG_INFO("%s: the NIC refused the dmabuf of GPU memory (%s): registering the GPU pointer "
				      "(nvidia-peermem)",
				      what, doca_error_get_descr(err));
		} else if (reg == DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_CUDA_DMABUF) {
			OGDA_LOG_ERR("%s: dmabuf registration requested but the GPU cannot export one", what);
			return err;
		} else {
			OGDA_LOG_INFO("%s: the GPU exports no dmabuf (%s): registering the GPU pointer (nvidia-peermem)", what,
				      doca_error_get_descr(err));
		}
	}
	err = fn(arg, gpu_ptr, len, -1);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: the NIC cannot register %zu bytes of GPU memory at %p (dmabuf and nvidia-peermem "
			     "both failed): %s",
			     what, len, gpu_ptr, doca_error_get_descr(err));
	return err;
}

doca_error_t ogda_gpu_doorbell_map(struct doca_gpu *gpu, void *uar_page, uint64_t *reg, bool host_uar,
				   struct ogda_gpu_db_map *m, uint64_t **dev)
{
	uint8_t *base = uar_page;
	void *page_dev = NULL;
	doca_error_t err;

	if (gpu == NULL || uar_page == NULL || reg == NULL || m == NULL || dev == NULL ||
	    (uint8_t *)(void *)reg < base || (uint8_t *)(void *)reg - base >= (ptrdiff_t)OPENGDA_MLX5_UAR_PAGE_SIZE) {
		OGDA_LOG_ERR("doorbell mapping: gpu, uar_page, reg, m and dev must not be NULL, reg inside the UAR page");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(m, 0, sizeof(*m));
	if (gpu->info.is_host || host_uar) {
		err = ogda_gpu_map_host(gpu, base, OPENGDA_MLX5_UAR_PAGE_SIZE, &page_dev);
		if (err != DOCA_SUCCESS) {
			OGDA_LOG_ERR("cannot map the UAR page %p for the GPU: %s", uar_page, doca_error_get_descr(err));
			return err;
		}
		m->host_page = base;
		*dev = (uint64_t *)(void *)((uint8_t *)page_dev + ((uint8_t *)(void *)reg - base));
		return DOCA_SUCCESS;
	}
	err = doca_gpu_verbs_export_uar(reg, &m->exported);
	if (err != DOCA_SUCCESS) {
		m->exported = NULL;
		OGDA_LOG_ERR("the GPU cannot map the doorbell register %p: %s", (void *)reg, doca_error_get_descr(err));
		return err;
	}
	*dev = m->exported;
	return DOCA_SUCCESS;
}

doca_error_t ogda_gpu_doorbell_unmap(struct doca_gpu *gpu, struct ogda_gpu_db_map *m)
{
	doca_error_t err = DOCA_SUCCESS, e;

	if (gpu == NULL || m == NULL) {
		OGDA_LOG_ERR("doorbell unmapping: gpu and m must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (m->host_page != NULL) {
		e = ogda_gpu_unmap_host(gpu, m->host_page);
		if (e != DOCA_SUCCESS) {
			OGDA_LOG_ERR("cannot release the GPU mapping of the UAR page %p", m->host_page);
			err = e;
		}
	}
	if (m->exported != NULL) {
		e = doca_gpu_verbs_unexport_uar(m->exported);
		if (e != DOCA_SUCCESS) {
			OGDA_LOG_ERR("cannot release the GPU mapping of doorbell %p", (void *)m->exported);
			err = e;
		}
	}
	memset(m, 0, sizeof(*m));
	return err;
}
