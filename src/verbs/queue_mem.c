/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where a ring or doorbell record lives. The user's UMEM and offset are honoured exactly
 * (checked to fit and be aligned); otherwise the library allocates zeroed, page-aligned
 * host memory and registers it as a UMEM of its own, which both devices accept: a ConnectX
 * reads host memory over PCIe, the software NIC requires host-visible queue memory.
 */
#include "verbs/verbs_priv.h"

#include "core/cuda_drv.h"
#include "core/log.h"
#include "swnic/swnic_ctl.h"

#include <infiniband/verbs.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096u;
}

doca_error_t verbs_qmem_place(struct doca_verbs_context *ctx, struct doca_verbs_umem *ext, uint64_t ext_offset,
			      size_t len, size_t align, const char *what, struct verbs_qmem *mem)
{
	size_t alloc_len;
	void *p = NULL;
	doca_error_t err;

	memset(mem, 0, sizeof(*mem));
	if (ext != NULL) {
		if (ext->ctx != ctx) {
			OGDA_LOG_ERR("%s: %s: the external UMEM belongs to another context", ctx->info.name, what);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (ext_offset % align != 0) {
			OGDA_LOG_ERR("%s: %s: offset %llu in the external UMEM is not %zu-byte aligned", ctx->info.name,
				     what, (unsigned long long)ext_offset, align);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (ext_offset > ext->size || len > ext->size - ext_offset) {
			OGDA_LOG_ERR("%s: %s: %zu bytes at offset %llu do not fit in the external UMEM of %zu bytes",
				     ctx->info.name, what, len, (unsigned long long)ext_offset, ext->size);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (((uintptr_t)ext->addr + ext_offset) % align != 0) {
			OGDA_LOG_ERR("%s: %s: address %p + %llu is not %zu-byte aligned", ctx->info.name, what, ext->addr,
				     (unsigned long long)ext_offset, align);
			return DOCA_ERROR_INVALID_VALUE;
		}
		atomic_fetch_add(&ext->users, 1);
		mem->umem = ext;
		mem->offset = ext_offset;
		mem->addr = (uint8_t *)ext->addr + ext_offset;
		return DOCA_SUCCESS;
	}
	alloc_len = (len + page_size() - 1) / page_size() * page_size();
	if (align < page_size())
		align = page_size();
	if (posix_memalign(&p, align, alloc_len) != 0) {
		OGDA_LOG_ERR("%s: %s: cannot allocate %zu bytes", ctx->info.name, what, alloc_len);
		return DOCA_ERROR_NO_MEMORY;
	}
	memset(p, 0, alloc_len);
	err = doca_verbs_umem_create(ctx, p, alloc_len, IBV_ACCESS_LOCAL_WRITE, (int)DOCA_VERBS_DMABUF_INVALID_FD, 0,
				     &mem->umem);
	if (err != DOCA_SUCCESS) {
		free(p);
		return err;
	}
	/* The library's own UMEM is part of the queue, not a child the user must destroy. */
	verbs_ctx_child_del(ctx);
	atomic_fetch_add(&mem->umem->users, 1);
	mem->own_alloc = p;
	mem->addr = p;
	return DOCA_SUCCESS;
}

void verbs_qmem_release(struct verbs_qmem *mem)
{
	if (mem->umem == NULL)
		return;
	atomic_fetch_sub(&mem->umem->users, 1);
	if (mem->own_alloc != NULL) {
		verbs_ctx_child_add(mem->umem->ctx);
		if (doca_verbs_umem_destroy(mem->umem) == DOCA_SUCCESS)
			free(mem->own_alloc);
		/* else: logged; the memory stays registered rather than freed under the device */
	}
	memset(mem, 0, sizeof(*mem));
}

/* Copies len bytes when one side may be GPU memory (probe): directly, or through the CUDA driver. */
static doca_error_t mem_copy(void *dst, const void *src, size_t len, const void *probe)
{
	if (swnic_mem_kind(probe, len) != OGDA_MEM_GPU) {
		memcpy(dst, src, len);
		return DOCA_SUCCESS;
	}
#ifdef OGDA_HAVE_CUDA_H
	{
		const struct ogda_cuda_drv *drv = NULL;

		if (ogda_cuda_drv_get(&drv) == DOCA_SUCCESS &&
		    drv->memcpy_async((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, len, NULL) ==
			    CUDA_SUCCESS &&
		    drv->stream_synchronize(NULL) == CUDA_SUCCESS)
			return DOCA_SUCCESS;
	}
#endif
	OGDA_LOG_ERR("cannot copy %zu bytes of GPU memory at %p through the CUDA driver", len, probe);
	return DOCA_ERROR_DRIVER;
}

doca_error_t verbs_mem_write(void *dst, const void *src, size_t len)
{
	return mem_copy(dst, src, len, dst);
}

doca_error_t verbs_mem_read(void *dst, const void *src, size_t len)
{
	return mem_copy(dst, src, len, src);
}

doca_error_t verbs_dbr_clear(uint32_t *dbr)
{
	static const uint32_t zero[2];

	return verbs_mem_write(dbr, zero, sizeof(zero));
}

uint32_t verbs_log2_ceil(uint32_t v)
{
	uint32_t log = 0;

	(void)verbs_roundup_pow2(v, &log);
	return log;
}
