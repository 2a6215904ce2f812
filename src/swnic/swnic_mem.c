/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software NIC's memory objects: protection domains, UAR pages, umems (queue memory)
 * and memory regions (data memory, found by key). Every table is guarded by nic->lock;
 * the data path only reads (swnic_mr_resolve), so it takes the lock shared.
 */
#include "swnic/swnic.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_mem_int.h"
#include "swnic/swnic_random.h"

#include "core/cuda_drv.h"
#include "core/log.h"

#include <stdlib.h>
#include <string.h>

#define ACCESS_ALL                                                                                 \
	(OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ | OGDA_ACCESS_REMOTE_ATOMIC)

/* ---- memory kind ---- */

#ifdef OGDA_HAVE_CUDA_H
static enum ogda_mem_kind cuda_kind_at(const struct ogda_cuda_drv *drv, const void *p)
{
	CUmemorytype type = (CUmemorytype)0;
	unsigned int managed = 0;
	CUdeviceptr dp = (CUdeviceptr)(uintptr_t)p;

	/* Pageable host memory is unknown to the driver: the query fails, and it is host memory. */
	if (drv->pointer_get_attribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dp) != CUDA_SUCCESS)
		return OGDA_MEM_HOST;
	if (type != CU_MEMORYTYPE_DEVICE)
		return OGDA_MEM_HOST;
	/* Managed memory reports DEVICE but the CPU can touch it directly. */
	if (drv->pointer_get_attribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, dp) == CUDA_SUCCESS && managed)
		return OGDA_MEM_HOST;
	return OGDA_MEM_GPU;
}
#endif

static enum ogda_mem_kind cuda_kind_probe(const void *addr, size_t len)
{
#ifdef OGDA_HAVE_CUDA_H
	const struct ogda_cuda_drv *drv = NULL;

	if (ogda_cuda_drv_get(&drv) != DOCA_SUCCESS || drv->pointer_get_attribute == NULL)
		return OGDA_MEM_HOST;
	if (cuda_kind_at(drv, addr) == OGDA_MEM_GPU)
		return OGDA_MEM_GPU;
	if (len > 1 && cuda_kind_at(drv, (const uint8_t *)addr + len - 1) == OGDA_MEM_GPU)
		return OGDA_MEM_GPU;
#else
	(void)addr;
	(void)len;
#endif
	return OGDA_MEM_HOST;
}

static swnic_mem_kind_probe_fn kind_probe_override;

void swnic_mem_set_kind_probe(swnic_mem_kind_probe_fn probe)
{
	__atomic_store_n(&kind_probe_override, probe, __ATOMIC_RELEASE);
}

enum ogda_mem_kind swnic_mem_kind(const void *addr, size_t len)
{
	swnic_mem_kind_probe_fn probe = __atomic_load_n(&kind_probe_override, __ATOMIC_ACQUIRE);

	if (probe != NULL)
		return probe(addr, len);
	return cuda_kind_probe(addr, len);
}

/* ---- shared checks ---- */

/* Host memory must be mapped with the rights the NIC will use (swnic_mem_probe.c); GPU
 * memory is what the CUDA driver reported it to be. */
static doca_error_t memory_exists(const void *addr, size_t len, uint32_t access, enum ogda_mem_kind kind,
				  const char *what)
{
	if (kind != OGDA_MEM_HOST)
		return DOCA_SUCCESS;
	return swnic_mem_probe_host(addr, len, (access & OGDA_ACCESS_LOCAL_WRITE) != 0, what);
}

static doca_error_t range_ok(const void *addr, size_t len, const char *what)
{
	if (addr == NULL || len == 0 || (uintptr_t)addr + len < (uintptr_t)addr) {
		OGDA_LOG_ERR("%s range is invalid (addr %p, len %zu)", what, addr, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t table_insert(struct swnic_table *t, void *obj, uint32_t *id, const char *what)
{
	doca_error_t err = swnic_table_insert(t, obj, id);

	if (err == DOCA_ERROR_FULL)
		OGDA_LOG_ERR("%s table is full (%u entries)", what, t->max);
	else if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s table cannot grow: %s", what, doca_error_get_name(err));
	return err;
}

/* ---- PD ---- */

doca_error_t swnic_pd_alloc(struct swnic *nic, uint32_t *pdn)
{
	struct swnic_pd *pd;
	doca_error_t err;

	if (nic == NULL || pdn == NULL) {
		OGDA_LOG_ERR("nic and pdn must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pd = calloc(1, sizeof(*pd));
	if (pd == NULL)
		return DOCA_ERROR_NO_MEMORY;
	pthread_rwlock_wrlock(&nic->lock);
	err = table_insert(&nic->pds, pd, &pd->pdn, "PD");
	pthread_rwlock_unlock(&nic->lock);
	if (err != DOCA_SUCCESS) {
		free(pd);
		return err;
	}
	*pdn = pd->pdn;
	return DOCA_SUCCESS;
}

doca_error_t swnic_pd_free(struct swnic *nic, uint32_t pdn)
{
	struct swnic_pd *pd;
	doca_error_t err = DOCA_SUCCESS;

	if (nic == NULL) {
		OGDA_LOG_ERR("nic must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_rwlock_wrlock(&nic->lock);
	pd = swnic_table_lookup(&nic->pds, pdn);
	if (pd == NULL) {
		OGDA_LOG_ERR("%s: no PD 0x%x", nic->name, pdn);
		err = DOCA_ERROR_NOT_FOUND;
	} else if (atomic_load(&pd->refs) != 0) {
		OGDA_LOG_ERR("%s: PD 0x%x is still used by %u objects", nic->name, pdn, atomic_load(&pd->refs));
		err = DOCA_ERROR_IN_USE;
	} else {
		swnic_table_remove(&nic->pds, pdn);
	}
	pthread_rwlock_unlock(&nic->lock);
	if (err == DOCA_SUCCESS)
		free(pd);
	return err;
}

/* ---- UAR ---- */

doca_error_t swnic_uar_alloc(struct swnic *nic, enum ogda_devx_uar_type type, uint32_t *page_id, uint8_t **page)
{
	struct swnic_uar *uar;
	doca_error_t err;

	if (nic == NULL || page_id == NULL || page == NULL) {
		OGDA_LOG_ERR("nic, page_id and page must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (type != OGDA_DEVX_UAR_BF && type != OGDA_DEVX_UAR_NC && type != OGDA_DEVX_UAR_NC_DEDICATED) {
		OGDA_LOG_ERR("unknown UAR type %d", (int)type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	uar = calloc(1, sizeof(*uar));
	if (uar == NULL)
		return DOCA_ERROR_NO_MEMORY;
	uar->type = type;
	uar->page = aligned_alloc(SWNIC_UAR_PAGE_SIZE, SWNIC_UAR_PAGE_SIZE);
	if (uar->page == NULL) {
		free(uar);
		return DOCA_ERROR_NO_MEMORY;
	}
	memset(uar->page, 0, SWNIC_UAR_PAGE_SIZE);
	pthread_rwlock_wrlock(&nic->lock);
	err = table_insert(&nic->uars, uar, &uar->page_id, "UAR");
	pthread_rwlock_unlock(&nic->lock);
	if (err != DOCA_SUCCESS) {
		free(uar->page);
		free(uar);
		return err;
	}
	*page_id = uar->page_id;
	*page = uar->page;
	return DOCA_SUCCESS;
}

doca_error_t swnic_uar_free(struct swnic *nic, uint32_t page_id)
{
	struct swnic_uar *uar;
	doca_error_t err = DOCA_SUCCESS;

	if (nic == NULL) {
		OGDA_LOG_ERR("nic must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_rwlock_wrlock(&nic->lock);
	uar = swnic_table_lookup(&nic->uars, page_id);
	if (uar == NULL) {
		OGDA_LOG_ERR("%s: no UAR page 0x%x", nic->name, page_id);
		err = DOCA_ERROR_NOT_FOUND;
	} else if (atomic_load(&uar->refs) != 0) {
		OGDA_LOG_ERR("%s: UAR page 0x%x is still named by %u queues", nic->name, page_id,
			     atomic_load(&uar->refs));
		err = DOCA_ERROR_IN_USE;
	} else {
		swnic_table_remove(&nic->uars, page_id);
	}
	pthread_rwlock_unlock(&nic->lock);
	if (err == DOCA_SUCCESS) {
		free(uar->page);
		free(uar);
	}
	return err;
}

/* ---- UMEM ---- */

doca_error_t swnic_umem_register(struct swnic *nic, void *addr, size_t len, uint32_t access, uint32_t *umem_id)
{
	struct swnic_umem *umem;
	enum ogda_mem_kind kind;
	doca_error_t err;

	if (nic == NULL || umem_id == NULL) {
		OGDA_LOG_ERR("nic and umem_id must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = range_ok(addr, len, "umem");
	if (err != DOCA_SUCCESS)
		return err;
	if ((access & ~(uint32_t)ACCESS_ALL) != 0) {
		OGDA_LOG_ERR("umem access 0x%x has unknown bits", access);
		return DOCA_ERROR_INVALID_VALUE;
	}
	kind = swnic_mem_kind(addr, len);
	err = memory_exists(addr, len, access, kind, "umem");
	if (err != DOCA_SUCCESS)
		return err;
	umem = calloc(1, sizeof(*umem));
	if (umem == NULL)
		return DOCA_ERROR_NO_MEMORY;
	umem->addr = addr;
	umem->len = len;
	umem->access = access;
	umem->kind = kind;
	pthread_rwlock_wrlock(&nic->lock);
	err = table_insert(&nic->umems, umem, &umem->id, "umem");
	pthread_rwlock_unlock(&nic->lock);
	if (err != DOCA_SUCCESS) {
		free(umem);
		return err;
	}
	OGDA_LOG_DBG("%s: umem 0x%x = [%p, +%zu) %s", nic->name, umem->id, addr, len,
		     umem->kind == OGDA_MEM_GPU ? "GPU" : "host");
	*umem_id = umem->id;
	return DOCA_SUCCESS;
}

doca_error_t swnic_umem_deregister(struct swnic *nic, uint32_t umem_id)
{
	struct swnic_umem *umem;
	doca_error_t err = DOCA_SUCCESS;

	if (nic == NULL) {
		OGDA_LOG_ERR("nic must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_rwlock_wrlock(&nic->lock);
	umem = swnic_table_lookup(&nic->umems, umem_id);
	if (umem == NULL) {
		OGDA_LOG_ERR("%s: no umem 0x%x", nic->name, umem_id);
		err = DOCA_ERROR_NOT_FOUND;
	} else if (atomic_load(&umem->refs) != 0) {
		OGDA_LOG_ERR("%s: umem 0x%x still holds %u queues", nic->name, umem_id, atomic_load(&umem->refs));
		err = DOCA_ERROR_IN_USE;
	} else {
		swnic_table_remove(&nic->umems, umem_id);
	}
	pthread_rwlock_unlock(&nic->lock);
	if (err == DOCA_SUCCESS)
		free(umem);
	return err;
}

/* ---- MR ---- */

/*
 * MR slots are never emptied: a deregistered MR stays in its slot with pd == NULL and
 * keeps its last key, so the next registration in that slot can pick the next variant.
 * A revoked MR (deregistration waiting for accesses in flight) keeps its PD: no key
 * names it, and its slot is not reused until the accesses are over.
 */
static bool mr_is_live(const struct swnic_mr *mr)
{
	return mr != NULL && mr->pd != NULL && !atomic_load_explicit(&mr->revoked, memory_order_acquire);
}

static struct swnic_mr *mr_find_dead_slot(struct swnic_table *t)
{
	uint32_t i;

	for (i = 0; i < t->cap; i++) {
		struct swnic_mr *mr = t->slots[i];

		if (mr != NULL && mr->pd == NULL)
			return mr;
	}
	return NULL;
}

doca_error_t swnic_mr_register(struct swnic *nic, uint32_t pdn, void *addr, size_t len, uint32_t access,
			       uint32_t *lkey, uint32_t *rkey)
{
	struct swnic_mr *mr, *fresh = NULL;
	struct swnic_pd *pd;
	enum ogda_mem_kind kind;
	uint32_t key, id, variant;
	doca_error_t err;

	if (nic == NULL || lkey == NULL || rkey == NULL) {
		OGDA_LOG_ERR("nic, lkey and rkey must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = range_ok(addr, len, "MR");
	if (err != DOCA_SUCCESS)
		return err;
	if ((access & ~(uint32_t)ACCESS_ALL) != 0) {
		OGDA_LOG_ERR("MR access 0x%x has unknown bits", access);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((access & (OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_ATOMIC)) != 0 &&
	    (access & OGDA_ACCESS_LOCAL_WRITE) == 0) {
		OGDA_LOG_ERR("MR access 0x%x: remote write and atomic need local write", access);
		return DOCA_ERROR_INVALID_VALUE;
	}
	kind = swnic_mem_kind(addr, len);
	err = memory_exists(addr, len, access, kind, "MR");
	if (err != DOCA_SUCCESS)
		return err;
	fresh = calloc(1, sizeof(*fresh));
	if (fresh == NULL)
		return DOCA_ERROR_NO_MEMORY;

	pthread_rwlock_wrlock(&nic->lock);
	pd = swnic_table_lookup(&nic->pds, pdn);
	if (pd == NULL) {
		pthread_rwlock_unlock(&nic->lock);
		free(fresh);
		OGDA_LOG_ERR("%s: MR registration names no PD 0x%x", nic->name, pdn);
		return DOCA_ERROR_NOT_FOUND;
	}
	/* The variant is random (a remote peer cannot guess a key from its index) and, in a
	 * reused slot, never the previous one (the stale key does not name the new MR). */
	variant = swnic_random_u32();
	mr = mr_find_dead_slot(&nic->mrs);
	if (mr != NULL) {
		key = (mr->lkey & ~0xffu) | ((mr->lkey + 1u + variant % 255u) & 0xffu);
	} else {
		err = table_insert(&nic->mrs, fresh, &id, "MR");
		if (err != DOCA_SUCCESS) {
			pthread_rwlock_unlock(&nic->lock);
			free(fresh);
			return err;
		}
		mr = fresh;
		fresh = NULL;
		key = (id << 8) | (variant & 0xffu);
	}
	mr->lkey = key;
	mr->rkey = key;
	mr->pd = pd;
	mr->addr = (uint64_t)(uintptr_t)addr;
	mr->len = len;
	mr->access = access;
	mr->kind = kind;
	atomic_fetch_add(&pd->refs, 1);
	pthread_rwlock_unlock(&nic->lock);
	free(fresh);

	OGDA_LOG_DBG("%s: MR key 0x%x = [%p, +%zu) access 0x%x %s", nic->name, key, addr, len, access,
		     kind == OGDA_MEM_GPU ? "GPU" : "host");
	*lkey = key;
	*rkey = key;
	return DOCA_SUCCESS;
}

doca_error_t swnic_mr_deregister(struct swnic *nic, uint32_t lkey)
{
	struct swnic_mr *mr;
	doca_error_t err;

	if (nic == NULL) {
		OGDA_LOG_ERR("nic must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Revoke: from here no key check finds the MR, and copies under way stop at their
	 * next chunk. A revoked MR whose earlier drain timed out may be deregistered again. */
	pthread_rwlock_wrlock(&nic->lock);
	mr = swnic_table_lookup(&nic->mrs, lkey >> 8);
	if (mr == NULL || mr->pd == NULL || mr->lkey != lkey) {
		pthread_rwlock_unlock(&nic->lock);
		OGDA_LOG_ERR("%s: no MR with key 0x%x", nic->name, lkey);
		return DOCA_ERROR_NOT_FOUND;
	}
	atomic_store_explicit(&mr->revoked, true, memory_order_release);
	pthread_rwlock_unlock(&nic->lock);

	err = swnic_mr_drain(nic, mr, lkey);
	if (err != DOCA_SUCCESS)
		return err;

	pthread_rwlock_wrlock(&nic->lock);
	if (mr->pd == NULL || mr->lkey != lkey) {
		/* A concurrent deregistration of the same key finished first. */
		pthread_rwlock_unlock(&nic->lock);
		OGDA_LOG_ERR("%s: no MR with key 0x%x", nic->name, lkey);
		return DOCA_ERROR_NOT_FOUND;
	}
	atomic_fetch_sub(&mr->pd->refs, 1);
	mr->pd = NULL;
	mr->addr = 0;
	mr->len = 0;
	mr->access = 0;
	atomic_store_explicit(&mr->revoked, false, memory_order_relaxed);
	pthread_rwlock_unlock(&nic->lock);
	return DOCA_SUCCESS;
}

void swnic_mr_view(const struct swnic_mr *mr, struct swnic_mr *view)
{
	memset(view, 0, sizeof(*view));
	view->lkey = mr->lkey;
	view->rkey = mr->rkey;
	view->pd = mr->pd;
	view->addr = mr->addr;
	view->len = mr->len;
	view->access = mr->access;
	view->kind = mr->kind;
}

doca_error_t swnic_mr_check_locked(struct swnic *nic, uint32_t key, bool remote, const struct swnic_pd *pd,
				   uint64_t addr, uint64_t len, uint32_t need_access, struct swnic_mr **found)
{
	struct swnic_mr *mr = swnic_table_lookup(&nic->mrs, key >> 8);

	/* Failures here are the data path's expected outcomes (bad keys become error CQEs): DEBUG only. */
	if (!mr_is_live(mr) || (remote ? mr->rkey : mr->lkey) != key) {
		OGDA_LOG_DBG("%s: %s 0x%x names no MR", nic->name, remote ? "rkey" : "lkey", key);
		return DOCA_ERROR_NOT_FOUND;
	}
	if (pd != NULL && mr->pd != pd) {
		OGDA_LOG_DBG("%s: key 0x%x belongs to PD 0x%x, not 0x%x", nic->name, key, mr->pd->pdn, pd->pdn);
		return DOCA_ERROR_NOT_FOUND;
	}
	if ((need_access & ~mr->access) != 0) {
		OGDA_LOG_DBG("%s: key 0x%x lacks access 0x%x (has 0x%x)", nic->name, key, need_access, mr->access);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (len > mr->len || addr < mr->addr || addr - mr->addr > mr->len - len) {
		OGDA_LOG_DBG("%s: [0x%llx, +%llu) is outside key 0x%x [0x%llx, +%zu)", nic->name,
			     (unsigned long long)addr, (unsigned long long)len, key, (unsigned long long)mr->addr,
			     mr->len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*found = mr;
	return DOCA_SUCCESS;
}

doca_error_t swnic_mr_resolve(struct swnic *nic, uint32_t key, bool remote, const struct swnic_pd *pd,
			      uint64_t addr, uint64_t len, uint32_t need_access, struct swnic_mr *out)
{
	struct swnic_mr *mr = NULL;
	doca_error_t err;

	if (nic == NULL) {
		OGDA_LOG_ERR("nic must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_rwlock_rdlock(&nic->lock);
	err = swnic_mr_check_locked(nic, key, remote, pd, addr, len, need_access, &mr);
	if (err == DOCA_SUCCESS && out != NULL)
		swnic_mr_view(mr, out);
	pthread_rwlock_unlock(&nic->lock);
	return err;
}

/* ---- teardown ---- */

void swnic_mem_release_all(struct swnic *nic)
{
	uint32_t i;

	for (i = 0; i < nic->mrs.cap; i++)
		free(nic->mrs.slots[i]);
	for (i = 0; i < nic->umems.cap; i++)
		free(nic->umems.slots[i]);
	for (i = 0; i < nic->uars.cap; i++) {
		struct swnic_uar *uar = nic->uars.slots[i];

		if (uar != NULL)
			free(uar->page);
		free(uar);
	}
	for (i = 0; i < nic->pds.cap; i++)
		free(nic->pds.slots[i]);
	swnic_table_fini(&nic->mrs);
	swnic_table_fini(&nic->umems);
	swnic_table_fini(&nic->uars);
	swnic_table_fini(&nic->pds);
}
