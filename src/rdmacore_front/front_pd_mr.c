/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Protection domains and memory regions. The software NIC addresses memory by the
 * process's virtual addresses, so a region's iova must be its address (ibv_reg_mr and
 * ibv_reg_mr_iova2 with iova == addr, as __ibv_reg_mr calls it); another iova and
 * re-registration are refused with EOPNOTSUPP, and dmabuf regions are modelled for GPU memory
 * only (ibv_reg_dmabuf_mr below).
 */
#include "rdmacore_front/front.h"

#include "core/log.h"
#include "swnic/swnic_ctl.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#undef ibv_reg_mr
#undef ibv_reg_mr_iova

/* The rights the software NIC checks; optional hints (relaxed ordering) are accepted and dropped. */
#define FRONT_MR_RIGHTS                                                                            \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)
#define FRONT_MR_IGNORED (IBV_ACCESS_OPTIONAL_RANGE | IBV_ACCESS_MW_BIND)

FRONT_EXPORT struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	struct front_pd *pd;
	doca_error_t err;

	if (context == NULL) {
		errno = EINVAL;
		return NULL;
	}
	pd = calloc(1, sizeof(*pd));
	if (pd == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	err = doca_verbs_pd_create(front_ctx(context)->dctx, &pd->dpd);
	if (err != DOCA_SUCCESS) {
		free(pd);
		errno = front_errno(err);
		return NULL;
	}
	pd->ibv.context = context;
	front_track(context, &pd->link, FRONT_PD, &pd->ibv);
	return &pd->ibv;
}

FRONT_EXPORT int ibv_dealloc_pd(struct ibv_pd *ibv_pd)
{
	struct front_pd *pd = (struct front_pd *)ibv_pd;
	doca_error_t err;

	if (pd == NULL)
		return front_fail(EINVAL);
	err = doca_verbs_pd_destroy(pd->dpd);
	if (err != DOCA_SUCCESS)
		return front_fail(front_errno(err));
	front_untrack(ibv_pd->context, &pd->link);
	free(pd);
	return 0;
}

static struct ibv_mr *reg_mr(struct ibv_pd *ibv_pd, void *addr, size_t length, uint64_t iova, int access)
{
	struct front_pd *pd = (struct front_pd *)ibv_pd;
	struct front_mr *mr;
	uint32_t lkey = 0, rkey = 0;
	doca_error_t err;

	if (pd == NULL || addr == NULL || length == 0) {
		errno = EINVAL;
		return NULL;
	}
	if (iova != (uint64_t)(uintptr_t)addr) {
		OGDA_LOG_ERR("%s: an MR whose iova (0x%llx) is not its address (%p) is not supported by the software NIC",
			     ibv_pd->context->device->name, (unsigned long long)iova, addr);
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (((unsigned int)access & ~(unsigned int)(FRONT_MR_RIGHTS | FRONT_MR_IGNORED)) != 0) {
		OGDA_LOG_ERR("%s: MR access flags 0x%x are not supported by the software NIC",
			     ibv_pd->context->device->name, (unsigned int)access & ~(unsigned int)(FRONT_MR_RIGHTS | FRONT_MR_IGNORED));
		errno = EOPNOTSUPP;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	err = opengda_mr_create(pd->dpd, addr, length, (uint32_t)access & FRONT_MR_RIGHTS, &mr->dmr);
	if (err == DOCA_SUCCESS)
		err = opengda_mr_get_lkey(mr->dmr, &lkey);
	if (err == DOCA_SUCCESS)
		err = opengda_mr_get_rkey(mr->dmr, &rkey);
	if (err != DOCA_SUCCESS) {
		if (mr->dmr != NULL)
			(void)opengda_mr_destroy(mr->dmr);
		free(mr);
		errno = front_errno(err);
		return NULL;
	}
	mr->ibv.context = ibv_pd->context;
	mr->ibv.pd = ibv_pd;
	mr->ibv.addr = addr;
	mr->ibv.length = length;
	mr->ibv.lkey = lkey;
	mr->ibv.rkey = rkey;
	mr->ibv.handle = lkey;
	front_track(ibv_pd->context, &mr->link, FRONT_MR, &mr->ibv);
	return &mr->ibv;
}

FRONT_EXPORT struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return reg_mr(pd, addr, length, (uint64_t)(uintptr_t)addr, access);
}

FRONT_EXPORT struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)
{
	return reg_mr(pd, addr, length, iova, access);
}

FRONT_EXPORT struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
					     unsigned int access)
{
	return reg_mr(pd, addr, length, iova, (int)access);
}

/*
 * A dmabuf region is modelled for what GPU-initiated code registers: the dmabuf of a CUDA
 * allocation of this process, registered at its own address (iova = the GPU address, as
 * GPUNetIO's dmabuf registration does). The software NIC reaches GPU memory through the CUDA
 * driver by address, so such a region is registered at iova. Host-memory dmabufs, or an iova
 * that is not GPU memory of this process, are refused with EOPNOTSUPP.
 */
FRONT_EXPORT struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd,
					      int access)
{
	struct stat st;

	if (pd == NULL || length == 0 || fd < 0 || fstat(fd, &st) != 0) {
		OGDA_LOG_ERR("%s: dmabuf MR: %s", pd != NULL ? pd->context->device->name : "?",
			     pd == NULL ? "no PD" : length == 0 ? "zero length" : "not an open file descriptor");
		errno = EINVAL;
		return NULL;
	}
	if (iova == 0 || swnic_mem_kind((const void *)(uintptr_t)iova, length) != OGDA_MEM_GPU) {
		OGDA_LOG_ERR("%s: dmabuf MR (fd %d, offset %llu, iova 0x%llx): the software NIC models dmabuf regions of "
			     "this process's GPU memory registered at their own address only; use ibv_reg_mr",
			     pd->context->device->name, fd, (unsigned long long)offset, (unsigned long long)iova);
		errno = EOPNOTSUPP;
		return NULL;
	}
	return reg_mr(pd, (void *)(uintptr_t)iova, length, iova, access);
}

FRONT_EXPORT int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr, size_t length, int access)
{
	(void)mr;
	(void)flags;
	(void)pd;
	(void)addr;
	(void)length;
	(void)access;
	errno = EOPNOTSUPP;
	return IBV_REREG_MR_ERR_INPUT;
}

FRONT_EXPORT int ibv_dereg_mr(struct ibv_mr *ibv_mr)
{
	struct front_mr *mr = (struct front_mr *)ibv_mr;
	doca_error_t err;

	if (mr == NULL)
		return front_fail(EINVAL);
	err = opengda_mr_destroy(mr->dmr);
	if (err != DOCA_SUCCESS)
		return front_fail(front_errno(err));
	front_untrack(ibv_mr->context, &mr->link);
	free(mr);
	return 0;
}
