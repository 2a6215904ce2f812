/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_mmap (doca_mmap.h): a memory range registered with each of its devices at start. */
#include "doca_core/core_priv.h"

#include "core/log.h"
#include "devx/devx.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

struct mmap_dev {
	struct doca_dev *dev;
	struct ogda_devx *devx;  /* resolved at start */
	struct ogda_devx_mr *mr; /* registered while started */
	uint32_t lkey;
	uint32_t rkey;           /* what doca_mmap_export_rdma gives peers */
};

struct doca_mmap {
	bool started;
	bool has_range;
	void *addr;
	size_t len;
	int dmabuf_fd;           /* -1: a plain range */
	size_t dmabuf_offset;
	uint32_t access;         /* enum doca_access_flag mask */
	uint32_t ndevs;
	struct mmap_dev devs[OPENGDA_MMAP_MAX_DEVS];
	atomic_uint holders;     /* started doca_buf_arrs and doca_bufs in use */
	bool remote;             /* doca_mmap_create_from_export: a peer's range, nothing registered */
	void *export_desc;       /* doca_mmap_export_rdma's descriptor, freed with the map */
};

#define MMAP_ACCESS_KNOWN                                                                          \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE |   \
	 DOCA_ACCESS_FLAG_RDMA_ATOMIC | DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE | \
	 DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING)

/* The first check of every setter: a map exists and is not started. */
static doca_error_t check_config(const struct doca_mmap *mmap, const char *func)
{
	if (mmap == NULL) {
		OGDA_LOG_ERR("%s: mmap must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mmap->started) {
		OGDA_LOG_ERR("%s: the mmap is started; stop it before changing it", func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

static int find_dev(const struct doca_mmap *mmap, const struct doca_dev *dev)
{
	for (uint32_t i = 0; i < mmap->ndevs; i++)
		if (mmap->devs[i].dev == dev)
			return (int)i;
	return -1;
}

/* A new map without a range or devices, with @access; logs and returns NULL when out of memory. */
static struct doca_mmap *mmap_alloc(uint32_t access)
{
	struct doca_mmap *m = calloc(1, sizeof(*m));

	if (m == NULL) {
		OGDA_LOG_ERR("out of memory");
		return NULL;
	}
	m->dmabuf_fd = -1;
	m->access = access;
	return m;
}

doca_error_t doca_mmap_create(struct doca_mmap **mmap)
{
	OGDA_SDK_FORWARD(doca_mmap_create, (mmap));
	struct doca_mmap *m;

	if (mmap == NULL) {
		OGDA_LOG_ERR("mmap must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	m = mmap_alloc(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	*mmap = m;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_destroy(struct doca_mmap *mmap)
{
	OGDA_SDK_FORWARD(doca_mmap_destroy, (mmap));
	doca_error_t err;

	/* A peer's map is started at creation and registers nothing: destroy it as it is. */
	if (mmap != NULL && mmap->remote && mmap->started && atomic_load(&mmap->holders) == 0)
		mmap->started = false;
	err = check_config(mmap, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	free(mmap->export_desc);
	free(mmap);
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	OGDA_SDK_FORWARD(doca_mmap_add_dev, (mmap, dev));
	doca_error_t err = check_config(mmap, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (dev == NULL) {
		OGDA_LOG_ERR("dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (find_dev(mmap, dev) >= 0) {
		OGDA_LOG_ERR("%s: the device is added to this mmap already", core_dev_name(dev));
		return DOCA_ERROR_ALREADY_EXIST;
	}
	if (mmap->ndevs == OPENGDA_MMAP_MAX_DEVS) {
		OGDA_LOG_ERR("%s: an mmap holds at most %u devices", core_dev_name(dev), OPENGDA_MMAP_MAX_DEVS);
		return DOCA_ERROR_TOO_BIG;
	}
	mmap->devs[mmap->ndevs++] = (struct mmap_dev){.dev = dev};
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	OGDA_SDK_FORWARD(doca_mmap_rm_dev, (mmap, dev));
	doca_error_t err = check_config(mmap, __func__);
	int i;

	if (err != DOCA_SUCCESS)
		return err;
	if (dev == NULL) {
		OGDA_LOG_ERR("dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	i = find_dev(mmap, dev);
	if (i < 0) {
		OGDA_LOG_ERR("%s: the device was not added to this mmap", core_dev_name(dev));
		return DOCA_ERROR_NOT_FOUND;
	}
	mmap->devs[i] = mmap->devs[--mmap->ndevs];
	return DOCA_SUCCESS;
}

static doca_error_t set_range(struct doca_mmap *mmap, const char *func, void *addr, size_t len, int fd,
			      size_t offset)
{
	doca_error_t err = check_config(mmap, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (addr == NULL || len == 0) {
		OGDA_LOG_ERR("%s: the range needs an address and a length above 0 (got %p, %zu)", func, addr, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((uintptr_t)addr + len - 1 < (uintptr_t)addr || offset + len < offset) {
		OGDA_LOG_ERR("%s: %zu bytes at %p (offset %zu) wrap around the address space", func, len, addr, offset);
		return DOCA_ERROR_INVALID_VALUE;
	}
	mmap->addr = addr;
	mmap->len = len;
	mmap->dmabuf_fd = fd;
	mmap->dmabuf_offset = offset;
	mmap->has_range = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len)
{
	OGDA_SDK_FORWARD(doca_mmap_set_memrange, (mmap, addr, len));
	return set_range(mmap, __func__, addr, len, -1, 0);
}

doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd, void *addr, size_t dmabuf_offset,
					   size_t len)
{
	OGDA_SDK_FORWARD(doca_mmap_set_dmabuf_memrange, (mmap, dmabuf_fd, addr, dmabuf_offset, len));
	if (mmap != NULL && dmabuf_fd < 0) {
		OGDA_LOG_ERR("dmabuf fd %d is not a file descriptor", dmabuf_fd);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return set_range(mmap, __func__, addr, len, dmabuf_fd, dmabuf_offset);
}

doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask)
{
	OGDA_SDK_FORWARD(doca_mmap_set_permissions, (mmap, access_mask));
	doca_error_t err = check_config(mmap, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if ((access_mask & ~(uint32_t)MMAP_ACCESS_KNOWN) != 0) {
		OGDA_LOG_ERR("access mask 0x%x has bits no enum doca_access_flag names", access_mask);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((access_mask & (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)) != 0) {
		OGDA_LOG_ERR("access mask 0x%x: PCI export (PCI_READ_ONLY / PCI_READ_WRITE) is not supported",
			     access_mask);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	mmap->access = access_mask;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len)
{
	OGDA_SDK_FORWARD(doca_mmap_get_memrange, (mmap, addr, len));
	if (mmap == NULL || addr == NULL || len == NULL) {
		OGDA_LOG_ERR("mmap, addr and len must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!mmap->has_range) {
		OGDA_LOG_ERR("the mmap has no range: set one with doca_mmap_set_memrange()");
		return DOCA_ERROR_BAD_STATE;
	}
	*addr = mmap->addr;
	*len = mmap->len;
	return DOCA_SUCCESS;
}

/* DOCA access flags as the device interface's (IBV_ACCESS_*) rights. */
static uint32_t devx_access(uint32_t doca)
{
	uint32_t a = 0;

	if (doca & (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC))
		a |= OGDA_ACCESS_LOCAL_WRITE;
	if (doca & DOCA_ACCESS_FLAG_RDMA_READ)
		a |= OGDA_ACCESS_REMOTE_READ;
	if (doca & DOCA_ACCESS_FLAG_RDMA_WRITE)
		a |= OGDA_ACCESS_REMOTE_WRITE;
	if (doca & DOCA_ACCESS_FLAG_RDMA_ATOMIC)
		a |= OGDA_ACCESS_REMOTE_ATOMIC;
	return a;
}

static void deregister(struct doca_mmap *mmap, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct mmap_dev *d = &mmap->devs[i];
		doca_error_t err = d->devx->ops->mr_dereg(d->mr);

		if (err != DOCA_SUCCESS) /* the key stays with the device until it closes */
			OGDA_LOG_ERR("%s: cannot deregister mkey 0x%x: %s", core_dev_name(d->dev), d->lkey,
				     doca_error_get_descr(err));
		d->mr = NULL;
		core_dev_unuse(d->dev);
	}
}

static doca_error_t register_one(struct doca_mmap *mmap, struct mmap_dev *d)
{
	struct ogda_devx_pd *pd;
	uint32_t rkey = 0;
	int fd = mmap->dmabuf_fd;
	doca_error_t err;

	err = core_dev_resolve(d->dev, &d->devx, &pd, NULL);
	if (err != DOCA_SUCCESS)
		return err;
	/* The software NIC imports no dmabuf; it reaches the same memory by its address. */
	if (fd >= 0 && strcmp(d->devx->ops->kind, "swnic") == 0)
		fd = -1;
	err = d->devx->ops->mr_reg(pd, mmap->addr, mmap->len, devx_access(mmap->access), fd,
				   fd >= 0 ? mmap->dmabuf_offset : 0, &d->mr, &d->lkey, &rkey);
	d->rkey = rkey;
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot register %zu bytes at %p%s: %s", core_dev_name(d->dev), mmap->len, mmap->addr,
			     fd >= 0 ? " (dmabuf)" : "", doca_error_get_descr(err));
		return err == DOCA_ERROR_NOT_SUPPORTED || err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	}
	core_dev_use(d->dev);
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_start(struct doca_mmap *mmap)
{
	OGDA_SDK_FORWARD(doca_mmap_start, (mmap));
	doca_error_t err = check_config(mmap, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (!mmap->has_range) {
		OGDA_LOG_ERR("the mmap has no range: set one with doca_mmap_set_memrange() before start");
		return DOCA_ERROR_BAD_STATE;
	}
	for (uint32_t i = 0; i < mmap->ndevs; i++) {
		err = register_one(mmap, &mmap->devs[i]);
		if (err != DOCA_SUCCESS) {
			deregister(mmap, i);
			return err;
		}
	}
	mmap->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_stop(struct doca_mmap *mmap)
{
	OGDA_SDK_FORWARD(doca_mmap_stop, (mmap));
	if (mmap == NULL) {
		OGDA_LOG_ERR("mmap must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!mmap->started) {
		OGDA_LOG_ERR("the mmap is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (atomic_load(&mmap->holders) != 0) {
		OGDA_LOG_ERR("%u started doca_buf_arr(s) or doca_buf(s) use the mmap; stop or release them first",
			     atomic_load(&mmap->holders));
		return DOCA_ERROR_IN_USE;
	}
	if (!mmap->remote)
		deregister(mmap, mmap->ndevs);
	mmap->started = false;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_get_mkey(const struct doca_mmap *mmap, struct doca_dev *dev, uint32_t *mkey)
{
	OGDA_SDK_FORWARD(doca_mmap_get_mkey, (mmap, dev, mkey));
	int i;

	if (mmap == NULL || dev == NULL || mkey == NULL) {
		OGDA_LOG_ERR("mmap, dev and mkey must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!mmap->started) {
		OGDA_LOG_ERR("%s: the mmap is not started: its keys exist after doca_mmap_start()", core_dev_name(dev));
		return DOCA_ERROR_BAD_STATE;
	}
	i = find_dev(mmap, dev);
	if (i < 0) {
		OGDA_LOG_ERR("%s: the mmap is not registered with this device (doca_mmap_add_dev)", core_dev_name(dev));
		return DOCA_ERROR_NOT_FOUND;
	}
	*mkey = mmap->devs[i].lkey;
	return DOCA_SUCCESS;
}

/*
 * The descriptor doca_mmap_export_rdma gives out (host byte order: peers are hosts of this
 * library; a magic and a version reject anything else).
 */
#define MMAP_EXPORT_MAGIC 0x4f4744414d4d4150ull /* "OGDAMMAP" */
#define MMAP_EXPORT_VERSION 1u

struct mmap_export_desc {
	uint64_t magic;
	uint32_t version;
	uint32_t access;
	uint64_t addr;
	uint64_t len;
	uint32_t rkey;
	uint32_t reserved;
};

doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc,
				   size_t *export_desc_len)
{
	OGDA_SDK_FORWARD(doca_mmap_export_rdma, (mmap, dev, export_desc, export_desc_len));
	struct mmap_export_desc *d;
	int i;

	if (mmap == NULL || dev == NULL || export_desc == NULL || export_desc_len == NULL) {
		OGDA_LOG_ERR("mmap, dev, export_desc and export_desc_len must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!mmap->started || mmap->remote) {
		OGDA_LOG_ERR("only a started local mmap can be exported");
		return DOCA_ERROR_BAD_STATE;
	}
	if ((mmap->access & (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)) ==
	    0) {
		OGDA_LOG_ERR("the mmap grants no RDMA right (doca_mmap_set_permissions): peers could not use it");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	i = find_dev(mmap, dev);
	if (i < 0) {
		OGDA_LOG_ERR("%s: the mmap is not registered with this device", core_dev_name(dev));
		return DOCA_ERROR_NOT_FOUND;
	}
	d = mmap->export_desc != NULL ? mmap->export_desc : malloc(sizeof(*d));
	if (d == NULL) {
		OGDA_LOG_ERR("out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	*d = (struct mmap_export_desc){.magic = MMAP_EXPORT_MAGIC,
				       .version = MMAP_EXPORT_VERSION,
				       .access = mmap->access,
				       .addr = (uint64_t)(uintptr_t)mmap->addr,
				       .len = mmap->len,
				       .rkey = mmap->devs[i].rkey};
	mmap->export_desc = d;
	*export_desc = d;
	*export_desc_len = sizeof(*d);
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_create_from_export(const union doca_data *user_data, const void *export_desc,
					  size_t export_desc_len, struct doca_dev *dev, struct doca_mmap **mmap)
{
	OGDA_SDK_FORWARD(doca_mmap_create_from_export, (user_data, export_desc, export_desc_len, dev, mmap));
	struct mmap_export_desc d;
	struct doca_mmap *m;

	(void)user_data;
	if (export_desc == NULL || dev == NULL || mmap == NULL) {
		OGDA_LOG_ERR("export_desc, dev and mmap must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (export_desc_len != sizeof(d)) {
		OGDA_LOG_ERR("an export descriptor has %zu bytes, not %zu", export_desc_len, sizeof(d));
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(&d, export_desc, sizeof(d));
	if (d.magic != MMAP_EXPORT_MAGIC || d.version != MMAP_EXPORT_VERSION || d.len == 0 ||
	    d.addr + d.len - 1 < d.addr) {
		OGDA_LOG_ERR("not an export descriptor of this library (magic, version or range wrong)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	m = mmap_alloc(d.access);
	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	m->addr = (void *)(uintptr_t)d.addr;
	m->len = (size_t)d.len;
	m->has_range = true;
	m->remote = true;
	m->ndevs = 1;
	m->devs[0] = (struct mmap_dev){.dev = dev, .lkey = d.rkey, .rkey = d.rkey};
	m->started = true;
	*mmap = m;
	return DOCA_SUCCESS;
}

doca_error_t core_mmap_first_key(const struct doca_mmap *mmap, void **addr, size_t *len, uint32_t *mkey)
{
	if (!mmap->started || mmap->ndevs == 0)
		return DOCA_ERROR_BAD_STATE;
	*addr = mmap->addr;
	*len = mmap->len;
	*mkey = mmap->devs[0].lkey;
	return DOCA_SUCCESS;
}

doca_error_t core_mmap_started_range(const struct doca_mmap *mmap, uint8_t **addr, size_t *len)
{
	if (!mmap->started)
		return DOCA_ERROR_BAD_STATE;
	*addr = mmap->addr;
	*len = mmap->len;
	return DOCA_SUCCESS;
}

void core_mmap_hold(struct doca_mmap *mmap)
{
	atomic_fetch_add(&mmap->holders, 1);
}

void core_mmap_release(struct doca_mmap *mmap)
{
	atomic_fetch_sub(&mmap->holders, 1);
}
