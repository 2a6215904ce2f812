/* SPDX-License-Identifier: BSD-3-Clause */
/* PD, MR, UMEM and UAR of a ConnectX through rdma-core. */
#include "core/log.h"
#include "devx/hw.h"
#include "devx/hw_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ACCESS_ALL                                                                                 \
	(OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ | OGDA_ACCESS_REMOTE_ATOMIC)

/* The doorbell / BlueFlame register of a UAR page: two halves of 256 bytes (rdma-core's BF geometry). */
#define HW_UAR_BF_REG_SIZE 512u
#define HW_UAR_PAGE_SIZE 4096u

/* A zeroed handle that starts with its tag. */
static void *alloc_handle(struct hw_dev *d, size_t size, uint64_t tag)
{
	uint64_t *h = calloc(1, size);

	if (h == NULL) {
		OGDA_LOG_ERR("%s: out of memory", d->base.name);
		return NULL;
	}
	*h = tag;
	return h;
}

static void free_handle(struct hw_dev *d, void *h)
{
	memset(h, 0, sizeof(uint64_t));
	free(h);
	hw_dev_put(d);
}

/* ---- PD ---- */

static doca_error_t pd_number(struct hw_dev *d, struct ibv_pd *pd, uint32_t *pdn)
{
	doca_error_t err = hw_need(d, d->rc->dv.init_obj != NULL, "mlx5dv_init_obj");
	struct mlx5dv_pd dvpd;
	struct mlx5dv_obj obj;
	int ret;

	if (err != DOCA_SUCCESS)
		return err;
	memset(&obj, 0, sizeof(obj));
	memset(&dvpd, 0, sizeof(dvpd));
	obj.pd.in = pd;
	obj.pd.out = &dvpd;
	errno = 0;
	ret = d->rc->dv.init_obj(&obj, MLX5DV_OBJ_PD);
	if (ret != 0)
		return hw_driver_error(d, "mlx5dv_init_obj(PD)", hw_call_errno(ret));
	*pdn = dvpd.pdn;
	return DOCA_SUCCESS;
}

static doca_error_t pd_wrap(struct hw_dev *d, struct ibv_pd *ibv_pd, bool owned, struct ogda_devx_pd **pd,
			    uint32_t *pdn)
{
	struct ogda_devx_pd *p;
	uint32_t n = 0;
	doca_error_t err = pd_number(d, ibv_pd, &n);

	if (err != DOCA_SUCCESS)
		return err;
	p = alloc_handle(d, sizeof(*p), HW_TAG_PD);
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	p->dev = d;
	p->pd = ibv_pd;
	p->pdn = n;
	p->owned = owned;
	hw_dev_get(d);
	*pd = p;
	*pdn = n;
	return DOCA_SUCCESS;
}

doca_error_t hw_pd_alloc(struct ogda_devx *dev, struct ogda_devx_pd **pd, uint32_t *pdn)
{
	struct hw_dev *d = hw_dev_of(dev);
	struct ibv_pd *ibv_pd;
	doca_error_t err;

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (pd == NULL || pdn == NULL) {
		OGDA_LOG_ERR("%s: pd and pdn must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = hw_need(d, d->rc->ibv.alloc_pd != NULL && d->rc->ibv.dealloc_pd != NULL, "ibv_alloc_pd / ibv_dealloc_pd");
	if (err != DOCA_SUCCESS)
		return err;
	errno = 0;
	ibv_pd = d->rc->ibv.alloc_pd(d->ctx);
	if (ibv_pd == NULL)
		return hw_driver_error(d, "ibv_alloc_pd", errno != 0 ? errno : EIO);
	err = pd_wrap(d, ibv_pd, true, pd, pdn);
	if (err != DOCA_SUCCESS)
		d->rc->ibv.dealloc_pd(ibv_pd);
	return err;
}

doca_error_t ogda_devx_hw_pd_import(struct ogda_devx *dev, struct ibv_pd *ibv_pd, struct ogda_devx_pd **pd,
				    uint32_t *pdn)
{
	struct hw_dev *d = hw_dev_of(dev);

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (ibv_pd == NULL || pd == NULL || pdn == NULL) {
		OGDA_LOG_ERR("%s: ibv_pd, pd and pdn must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ibv_pd->context != d->ctx) {
		OGDA_LOG_ERR("%s: the ibv_pd belongs to another ibv_context", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return pd_wrap(d, ibv_pd, false, pd, pdn);
}

doca_error_t hw_pd_free(struct ogda_devx_pd *pd)
{
	struct hw_dev *d;
	int ret, e;

	if (!hw_handle_ok(pd, HW_TAG_PD, "pd"))
		return DOCA_ERROR_INVALID_VALUE;
	d = pd->dev;
	if (pd->owned) {
		doca_error_t err = hw_need(d, d->rc->ibv.dealloc_pd != NULL, "ibv_dealloc_pd");

		if (err != DOCA_SUCCESS)
			return err;
		errno = 0;
		ret = d->rc->ibv.dealloc_pd(pd->pd);
		if (ret != 0) {
			e = hw_call_errno(ret);
			if (e == EBUSY) {
				OGDA_LOG_ERR("%s: PD 0x%x is still used by MRs or queues", d->base.name, pd->pdn);
				return DOCA_ERROR_IN_USE;
			}
			return hw_driver_error(d, "ibv_dealloc_pd", e);
		}
	}
	free_handle(d, pd);
	return DOCA_SUCCESS;
}

/* ---- MR ---- */

/* -1 alone means "no dmabuf" (DOCA_VERBS_DMABUF_INVALID_FD); any other negative fd is a mistake. */
static bool hw_dmabuf_fd_ok(const struct hw_dev *d, int dmabuf_fd, const char *what)
{
	if (dmabuf_fd >= -1)
		return true;
	OGDA_LOG_ERR("%s: %s registration: dmabuf fd %d is not a file descriptor (-1 means none)", d->base.name, what,
		     dmabuf_fd);
	return false;
}

doca_error_t hw_mr_reg(struct ogda_devx_pd *pd, void *addr, size_t len, uint32_t access, int dmabuf_fd,
		       uint64_t dmabuf_offset, struct ogda_devx_mr **mr, uint32_t *lkey, uint32_t *rkey)
{
	struct ogda_devx_mr *m;
	struct ibv_mr *ibv_mr;
	struct hw_dev *d;
	doca_error_t err;

	if (!hw_handle_ok(pd, HW_TAG_PD, "pd"))
		return DOCA_ERROR_INVALID_VALUE;
	d = pd->dev;
	if (!hw_dmabuf_fd_ok(d, dmabuf_fd, "MR"))
		return DOCA_ERROR_INVALID_VALUE;
	if (mr == NULL || lkey == NULL || rkey == NULL || len == 0 || (addr == NULL && dmabuf_fd < 0) ||
	    (access & ~ACCESS_ALL) != 0) {
		OGDA_LOG_ERR("%s: MR registration needs mr, lkey, rkey, a length, an address (or a dmabuf) and "
			     "access bits among 0x%x (got addr %p, len %zu, access 0x%x)",
			     d->base.name, ACCESS_ALL, addr, len, access);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dmabuf_fd >= 0)
		err = hw_need(d, d->rc->ibv.reg_dmabuf_mr != NULL, "ibv_reg_dmabuf_mr");
	else
		err = hw_need(d, d->rc->ibv.reg_mr != NULL, "ibv_reg_mr");
	if (err == DOCA_SUCCESS)
		err = hw_need(d, d->rc->ibv.dereg_mr != NULL, "ibv_dereg_mr");
	if (err != DOCA_SUCCESS)
		return err;
	m = alloc_handle(d, sizeof(*m), HW_TAG_MR);
	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	errno = 0;
	if (dmabuf_fd >= 0)
		ibv_mr = d->rc->ibv.reg_dmabuf_mr(pd->pd, dmabuf_offset, len, (uint64_t)(uintptr_t)addr, dmabuf_fd,
						  (int)access);
	else
		ibv_mr = d->rc->ibv.reg_mr(pd->pd, addr, len, (int)access);
	if (ibv_mr == NULL) {
		err = hw_driver_error(d, dmabuf_fd >= 0 ? "ibv_reg_dmabuf_mr" : "ibv_reg_mr", errno != 0 ? errno : EIO);
		free(m);
		return err;
	}
	m->dev = d;
	m->mr = ibv_mr;
	hw_dev_get(d);
	*mr = m;
	*lkey = ibv_mr->lkey;
	*rkey = ibv_mr->rkey;
	return DOCA_SUCCESS;
}

doca_error_t hw_mr_dereg(struct ogda_devx_mr *mr)
{
	struct hw_dev *d;
	int ret;

	if (!hw_handle_ok(mr, HW_TAG_MR, "mr"))
		return DOCA_ERROR_INVALID_VALUE;
	d = mr->dev;
	if (hw_need(d, d->rc->ibv.dereg_mr != NULL, "ibv_dereg_mr") != DOCA_SUCCESS)
		return DOCA_ERROR_NOT_SUPPORTED;
	errno = 0;
	ret = d->rc->ibv.dereg_mr(mr->mr);
	if (ret != 0)
		return hw_driver_error(d, "ibv_dereg_mr", hw_call_errno(ret));
	free_handle(d, mr);
	return DOCA_SUCCESS;
}

/* ---- UMEM ---- */

/* Every page size from the system page up: the driver picks the largest the range allows. */
static uint64_t umem_page_sizes(void)
{
	long page = sysconf(_SC_PAGESIZE);

	if (page <= 0)
		page = 4096;
	return ~((uint64_t)page - 1);
}

static struct mlx5dv_devx_umem *umem_register(struct hw_dev *d, void *addr, size_t len, uint32_t access,
					      int dmabuf_fd, uint64_t dmabuf_offset)
{
	struct ogda_mlx5dv_umem_in in;

	if (dmabuf_fd < 0)
		return d->rc->dv.devx_umem_reg(d->ctx, addr, len, access);
	memset(&in, 0, sizeof(in));
	in.addr = (void *)(uintptr_t)dmabuf_offset; /* with a dmabuf, addr is the offset into it */
	in.size = len;
	in.access = access;
	in.pgsz_bitmap = umem_page_sizes();
	in.comp_mask = OGDA_MLX5DV_UMEM_MASK_DMABUF;
	in.dmabuf_fd = dmabuf_fd;
	return d->rc->dv.devx_umem_reg_ex(d->ctx, &in);
}

doca_error_t hw_umem_reg(struct ogda_devx *dev, void *addr, size_t len, uint32_t access, int dmabuf_fd,
			 uint64_t dmabuf_offset, struct ogda_devx_umem **umem, uint32_t *umem_id)
{
	struct hw_dev *d = hw_dev_of(dev);
	struct ogda_devx_umem *u;
	doca_error_t err;

	if (d == NULL || !hw_dmabuf_fd_ok(d, dmabuf_fd, "umem"))
		return DOCA_ERROR_INVALID_VALUE;
	if (umem == NULL || umem_id == NULL || len == 0 || (addr == NULL && dmabuf_fd < 0) ||
	    (access & ~ACCESS_ALL) != 0) {
		OGDA_LOG_ERR("%s: umem registration needs umem, umem_id, a length, an address (or a dmabuf) and "
			     "access bits among 0x%x (got addr %p, len %zu, access 0x%x)",
			     d->base.name, ACCESS_ALL, addr, len, access);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dmabuf_fd >= 0)
		err = hw_need(d, d->rc->dv.devx_umem_reg_ex != NULL, "mlx5dv_devx_umem_reg_ex (dmabuf umem)");
	else
		err = hw_need(d, d->rc->dv.devx_umem_reg != NULL, "mlx5dv_devx_umem_reg");
	if (err == DOCA_SUCCESS)
		err = hw_need(d, d->rc->dv.devx_umem_dereg != NULL, "mlx5dv_devx_umem_dereg");
	if (err != DOCA_SUCCESS)
		return err;
	u = alloc_handle(d, sizeof(*u), HW_TAG_UMEM);
	if (u == NULL)
		return DOCA_ERROR_NO_MEMORY;
	errno = 0;
	u->umem = umem_register(d, addr, len, access, dmabuf_fd, dmabuf_offset);
	if (u->umem == NULL) {
		err = hw_driver_error(d, dmabuf_fd >= 0 ? "mlx5dv_devx_umem_reg_ex" : "mlx5dv_devx_umem_reg",
				      errno != 0 ? errno : EIO);
		free(u);
		return err;
	}
	u->dev = d;
	hw_dev_get(d);
	*umem = u;
	*umem_id = u->umem->umem_id;
	return DOCA_SUCCESS;
}

doca_error_t hw_umem_dereg(struct ogda_devx_umem *umem)
{
	struct hw_dev *d;
	int ret, e;

	if (!hw_handle_ok(umem, HW_TAG_UMEM, "umem"))
		return DOCA_ERROR_INVALID_VALUE;
	d = umem->dev;
	if (hw_need(d, d->rc->dv.devx_umem_dereg != NULL, "mlx5dv_devx_umem_dereg") != DOCA_SUCCESS)
		return DOCA_ERROR_NOT_SUPPORTED;
	errno = 0;
	ret = d->rc->dv.devx_umem_dereg(umem->umem);
	if (ret != 0) {
		/* A queue still placed in the umem: the kernel (EBUSY) or the device (EINVAL) refuses. */
		e = hw_call_errno(ret);
		if (e == EBUSY || e == EINVAL) {
			OGDA_LOG_ERR("%s: umem 0x%x is still used by a queue (errno %d)", d->base.name,
				     umem->umem->umem_id, e);
			return DOCA_ERROR_IN_USE;
		}
		return hw_driver_error(d, "mlx5dv_devx_umem_dereg", e);
	}
	free_handle(d, umem);
	return DOCA_SUCCESS;
}

/* ---- UAR ---- */

static bool uar_flags(enum ogda_devx_uar_type type, uint32_t *flags)
{
	switch (type) {
	case OGDA_DEVX_UAR_BF:
		*flags = MLX5DV_UAR_ALLOC_TYPE_BF;
		return true;
	case OGDA_DEVX_UAR_NC:
		*flags = MLX5DV_UAR_ALLOC_TYPE_NC;
		return true;
	case OGDA_DEVX_UAR_NC_DEDICATED:
		*flags = OGDA_MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED;
		return true;
	}
	return false;
}

doca_error_t hw_uar_alloc(struct ogda_devx *dev, enum ogda_devx_uar_type type, struct ogda_devx_uar **uar,
			  struct ogda_devx_uar_info *info)
{
	struct hw_dev *d = hw_dev_of(dev);
	struct ogda_devx_uar *u;
	uint32_t flags = 0;
	doca_error_t err;
	int e;

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (uar == NULL || info == NULL || !uar_flags(type, &flags)) {
		OGDA_LOG_ERR("%s: uar and info must not be NULL, type must be BF, NC or NC_DEDICATED (got %d)",
			     d->base.name, (int)type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = hw_need(d, d->rc->dv.devx_alloc_uar != NULL && d->rc->dv.devx_free_uar != NULL,
		      "mlx5dv_devx_alloc_uar / mlx5dv_devx_free_uar");
	if (err != DOCA_SUCCESS)
		return err;
	u = alloc_handle(d, sizeof(*u), HW_TAG_UAR);
	if (u == NULL)
		return DOCA_ERROR_NO_MEMORY;
	errno = 0;
	u->uar = d->rc->dv.devx_alloc_uar(d->ctx, flags);
	if (u->uar == NULL) {
		e = errno != 0 ? errno : EIO;
		free(u);
		/* rdma-core before 45 does not know the dedicated NC flag. */
		if (type == OGDA_DEVX_UAR_NC_DEDICATED && (e == EOPNOTSUPP || e == EINVAL)) {
			OGDA_LOG_ERR("%s: this rdma-core cannot allocate a dedicated NC UAR (errno %d)", d->base.name, e);
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		return hw_driver_error(d, "mlx5dv_devx_alloc_uar", e);
	}
	u->dev = d;
	hw_dev_get(d);
	memset(info, 0, sizeof(*info));
	info->reg_addr = u->uar->reg_addr;
	info->base_addr = u->uar->base_addr;
	info->page_id = u->uar->page_id;
	/*
	 * log_bf_reg_size is an HCA capability this op does not query; rdma-core places
	 * reg_addr at the first of two 256-byte halves inside the 4 KiB page (BF at 0x800 /
	 * 0x900), which is the geometry reported here.
	 */
	info->bf_reg_size = HW_UAR_BF_REG_SIZE;
	if ((uintptr_t)info->reg_addr < (uintptr_t)info->base_addr ||
	    (uintptr_t)info->reg_addr - (uintptr_t)info->base_addr + HW_UAR_BF_REG_SIZE > HW_UAR_PAGE_SIZE)
		OGDA_LOG_WARN("%s: UAR page 0x%x has its register at %p, outside the page at %p", d->base.name,
			      info->page_id, info->reg_addr, info->base_addr);
	*uar = u;
	return DOCA_SUCCESS;
}

doca_error_t hw_uar_free(struct ogda_devx_uar *uar)
{
	struct hw_dev *d;

	if (!hw_handle_ok(uar, HW_TAG_UAR, "uar"))
		return DOCA_ERROR_INVALID_VALUE;
	d = uar->dev;
	if (hw_need(d, d->rc->dv.devx_free_uar != NULL, "mlx5dv_devx_free_uar") != DOCA_SUCCESS)
		return DOCA_ERROR_NOT_SUPPORTED;
	d->rc->dv.devx_free_uar(uar->uar);
	free_handle(d, uar);
	return DOCA_SUCCESS;
}
