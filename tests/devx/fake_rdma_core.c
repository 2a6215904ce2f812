/* SPDX-License-Identifier: BSD-3-Clause */
/* The fake's verbs half: devices, contexts, PDs, MRs, port / GID queries, address handles. */
#include "fake_rdma_core_priv.h"

#include "swnic/swnic_ctl.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fake_state fake = {.lock = PTHREAD_MUTEX_INITIALIZER};

static struct ibv_device devices[2];

struct fake_pd {
	struct ibv_pd pub;
	uint32_t pdn;
};

struct fake_mr {
	struct ibv_mr pub;
	bool dmabuf;               /* not registered with the software NIC */
};

struct fake_ah {
	struct ibv_ah pub;
	struct mlx5_wqe_av av;
};

/* ---- shared helpers ---- */

bool fake_take_failure(int *err)
{
	bool due;

	pthread_mutex_lock(&fake.lock);
	due = fake.fail_next != 0;
	if (due) {
		*err = fake.fail_next;
		fake.fail_next = 0;
	}
	pthread_mutex_unlock(&fake.lock);
	if (due)
		errno = *err;
	return due;
}

int fake_status_errno(uint8_t status)
{
	switch (status) {
	case 0x06: /* RESOURCE_BUSY */
		return EBUSY;
	case 0x08: /* EXCEED_LIM */
		return ENOMEM;
	case 0x0f: /* NO_RESOURCES */
		return EAGAIN;
	case 0x02: /* BAD_OP */
	case 0x03: /* BAD_PARAM */
	case 0x05: /* BAD_RESOURCE */
	case 0x09: /* BAD_RES_STATE */
	case 0x0a: /* BAD_INDEX */
	case 0x10: /* BAD_QP_STATE */
	case 0x30: /* BAD_PKT */
	case 0x40: /* BAD_SIZE */
		return EINVAL;
	default:
		return EIO;
	}
}

void fake_count(int *counter, int delta)
{
	pthread_mutex_lock(&fake.lock);
	*counter += delta;
	pthread_mutex_unlock(&fake.lock);
}

/* ---- device list ---- */

static struct ibv_device **fake_get_device_list(int *num)
{
	struct ibv_device **list;

	if (fake.list_errno != 0) {
		errno = fake.list_errno;
		return NULL;
	}
	list = calloc(3, sizeof(*list));
	if (list == NULL)
		return NULL;
	list[0] = &devices[0];
	list[1] = &devices[1];
	if (num != NULL)
		*num = 2;
	return list;
}

static void fake_free_device_list(struct ibv_device **list)
{
	free(list);
}

static const char *fake_get_device_name(struct ibv_device *device)
{
	return device->name;
}

static __be64 fake_get_device_guid(struct ibv_device *device)
{
	return htobe64(device == &devices[0] ? FAKE_MLX5_GUID : FAKE_OTHER_GUID);
}

static bool fake_is_supported(struct ibv_device *device)
{
	return device == &devices[0];
}

/* ---- contexts ---- */

static struct ibv_context *fake_open_device(struct ibv_device *device, struct mlx5dv_context_attr *attr)
{
	struct fake_ctx *c;
	int err;

	if (fake_take_failure(&err))
		return NULL;
	if (device != &devices[0]) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	if (swnic_open(0, &c->nic) != DOCA_SUCCESS) {
		free(c);
		errno = ENODEV;
		return NULL;
	}
	c->pub.device = device;
	c->flags = attr != NULL ? attr->flags : 0;
	fake.last.open_flags = c->flags;
	fake_count(&fake.counts.contexts, 1);
	return &c->pub;
}

static int fake_close_device(struct ibv_context *context)
{
	struct fake_ctx *c = (struct fake_ctx *)context;

	swnic_close(c->nic);
	free(c);
	fake_count(&fake.counts.contexts, -1);
	return 0;
}

static struct swnic *ctx_nic(struct ibv_context *context)
{
	return ((struct fake_ctx *)context)->nic;
}

/* ---- PD ---- */

static struct ibv_pd *fake_alloc_pd(struct ibv_context *context)
{
	struct fake_pd *p;
	int err;

	cmd_log_add(&fake.log, CMD_PD_ALLOC, NULL, 0, 0, 0);
	if (fake_take_failure(&err))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	if (swnic_pd_alloc(ctx_nic(context), &p->pdn) != DOCA_SUCCESS) {
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	p->pub.context = context;
	fake_count(&fake.counts.pds, 1);
	return &p->pub;
}

static int fake_dealloc_pd(struct ibv_pd *pd)
{
	struct fake_pd *p = (struct fake_pd *)pd;
	doca_error_t derr;
	int err;

	cmd_log_add(&fake.log, CMD_PD_FREE, NULL, 0, p->pdn, 0);
	if (fake_take_failure(&err))
		return err;
	derr = swnic_pd_free(ctx_nic(pd->context), p->pdn);
	if (derr != DOCA_SUCCESS)
		return derr == DOCA_ERROR_IN_USE ? EBUSY : EINVAL;
	free(p);
	fake_count(&fake.counts.pds, -1);
	return 0;
}

/* ---- MR ---- */

static struct ibv_mr *mr_new(struct ibv_pd *pd, void *addr, size_t len)
{
	struct fake_mr *m = calloc(1, sizeof(*m));

	if (m == NULL)
		return NULL;
	m->pub.context = pd->context;
	m->pub.pd = pd;
	m->pub.addr = addr;
	m->pub.length = len;
	return &m->pub;
}

static struct ibv_mr *fake_reg_mr(struct ibv_pd *pd, void *addr, size_t len, int access)
{
	struct ibv_mr *mr;
	int err;

	cmd_log_add(&fake.log, CMD_MR_REG, NULL, 0, len, (uint64_t)access);
	if (fake_take_failure(&err))
		return NULL;
	mr = mr_new(pd, addr, len);
	if (mr == NULL)
		return NULL;
	if (swnic_mr_register(ctx_nic(pd->context), ((struct fake_pd *)pd)->pdn, addr, len, (uint32_t)access, &mr->lkey,
			      &mr->rkey) != DOCA_SUCCESS) {
		free(mr);
		errno = EINVAL;
		return NULL;
	}
	fake_count(&fake.counts.mrs, 1);
	return mr;
}

/* The software NIC cannot map a dmabuf: the MR gets keys of its own and moves no data. */
static struct ibv_mr *fake_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t len, uint64_t iova, int fd,
					 int access)
{
	struct ibv_mr *mr;
	int err;

	cmd_log_add(&fake.log, CMD_MR_REG, NULL, 0, len, (uint64_t)access);
	fake.last.dmabuf_offset = offset;
	fake.last.dmabuf_len = len;
	fake.last.dmabuf_iova = iova;
	fake.last.dmabuf_fd = fd;
	fake.last.dmabuf_access = access;
	if (fake_take_failure(&err))
		return NULL;
	mr = mr_new(pd, (void *)(uintptr_t)iova, len);
	if (mr == NULL)
		return NULL;
	((struct fake_mr *)mr)->dmabuf = true;
	pthread_mutex_lock(&fake.lock);
	mr->lkey = FAKE_DMABUF_MR_KEY_BASE + fake.next_dmabuf_id++;
	pthread_mutex_unlock(&fake.lock);
	mr->rkey = mr->lkey;
	fake_count(&fake.counts.mrs, 1);
	return mr;
}

static int fake_dereg_mr(struct ibv_mr *mr)
{
	struct fake_mr *m = (struct fake_mr *)mr;
	int err;

	cmd_log_add(&fake.log, CMD_MR_DEREG, NULL, 0, mr->lkey, 0);
	if (fake_take_failure(&err))
		return err;
	if (!m->dmabuf && swnic_mr_deregister(ctx_nic(mr->context), mr->lkey) != DOCA_SUCCESS)
		return EINVAL;
	free(m);
	fake_count(&fake.counts.mrs, -1);
	return 0;
}

/* ---- port, GID ---- */

static int fake_query_port(struct ibv_context *context, uint8_t port, struct ibv_port_attr *attr)
{
	int err;

	(void)context;
	if (fake_take_failure(&err))
		return err;
	if (port != 1)
		return EINVAL;
	attr->state = IBV_PORT_ACTIVE;
	attr->max_mtu = fake.max_mtu;
	attr->active_mtu = fake.active_mtu;
	attr->gid_tbl_len = FAKE_GID_TBL_LEN;
	attr->port_cap_flags = 0x04010000;
	attr->lid = 0;
	attr->sm_lid = 0x1234;            /* noise a reader must not take for the LID */
	attr->link_layer = IBV_LINK_LAYER_ETHERNET;
	return 0;
}

/* Returns -1 with errno set, as ibv_query_gid does. */
static int fake_query_gid(struct ibv_context *context, uint8_t port, int index, union ibv_gid *gid)
{
	int err;

	if (fake_take_failure(&err))
		return -1;
	if (port != 1 || index < 0 || index >= FAKE_GID_TBL_LEN) {
		errno = EINVAL;
		return -1;
	}
	memcpy(gid->raw, ctx_nic(context)->gid, 16);
	return 0;
}

/* ---- address handles ---- */

static struct ibv_ah *fake_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	const uint8_t *g = attr->grh.dgid.raw;
	struct fake_ah *a;
	int err;

	fake.last.ah_attr = *attr;
	cmd_log_add(&fake.log, CMD_RESOLVE, g, 16, attr->grh.sgid_index, attr->port_num);
	if (fake_take_failure(&err))
		return NULL;
	if (!attr->is_global) {
		errno = EINVAL;
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL)
		return NULL;
	a->pub.context = pd->context;
	a->pub.pd = pd;
	/* The software NIC's next hop for a GID (what the kernel's neighbour lookup gives it). */
	a->av.rmac[0] = 0x02;
	a->av.rmac[1] = 0x00;
	memcpy(&a->av.rmac[2], &g[12], 4);
	a->av.hop_limit = attr->grh.hop_limit;
	memcpy(a->av.rgid, g, 16);
	fake_count(&fake.counts.ahs, 1);
	return &a->pub;
}

static int fake_destroy_ah(struct ibv_ah *ah)
{
	free(ah);
	fake_count(&fake.counts.ahs, -1);
	return 0;
}

static int fake_init_obj(struct mlx5dv_obj *obj, uint64_t type)
{
	int err;

	if (fake_take_failure(&err))
		return err;
	if ((type & ~(uint64_t)(MLX5DV_OBJ_PD | MLX5DV_OBJ_AH)) != 0)
		return EINVAL;
	if (type & MLX5DV_OBJ_PD)
		obj->pd.out->pdn = ((struct fake_pd *)obj->pd.in)->pdn;
	if (type & MLX5DV_OBJ_AH)
		obj->ah.out->av = &((struct fake_ah *)obj->ah.in)->av;
	return 0;
}

/* ---- installation and knobs ---- */

void fake_rdma_core_set_dmabuf_backing(int fd, void *base)
{
	pthread_mutex_lock(&fake.lock);
	fake.backing_fd = base != NULL ? fd : -1;
	fake.backing_base = base;
	pthread_mutex_unlock(&fake.lock);
}

void fake_rdma_core_install(void)
{
	struct ogda_ibv *v = &fake.table.ibv;

	static bool log_ready;

	if (!log_ready) {
		cmd_log_init(&fake.log);
		log_ready = true;
	}
	pthread_mutex_lock(&fake.lock);
	memset(&fake.counts, 0, sizeof(fake.counts));
	memset(&fake.last, 0, sizeof(fake.last));
	memset(fake.channels, 0, sizeof(fake.channels));
	fake.fail_next = 0;
	fake.old_kernel = false;
	fake.nc_dedicated = true;
	fake.list_errno = 0;
	fake.max_mtu = IBV_MTU_4096;
	fake.active_mtu = IBV_MTU_4096;
	fake.next_dmabuf_id = 0;
	fake.backing_fd = -1;
	fake.backing_base = NULL;
	memset(&fake.table, 0, sizeof(fake.table));
	pthread_mutex_unlock(&fake.lock);
	cmd_log_clear(&fake.log);

	memset(devices, 0, sizeof(devices));
	snprintf(devices[0].name, sizeof(devices[0].name), "%s", FAKE_MLX5_NAME);
	snprintf(devices[1].name, sizeof(devices[1].name), "%s", FAKE_OTHER_NAME);
	v->get_device_list = fake_get_device_list;
	v->free_device_list = fake_free_device_list;
	v->get_device_name = fake_get_device_name;
	v->get_device_guid = fake_get_device_guid;
	v->close_device = fake_close_device;
	v->alloc_pd = fake_alloc_pd;
	v->dealloc_pd = fake_dealloc_pd;
	v->reg_mr = fake_reg_mr;
	v->reg_dmabuf_mr = fake_reg_dmabuf_mr;
	v->dereg_mr = fake_dereg_mr;
	v->query_port = fake_query_port;
	v->query_gid = fake_query_gid;
	v->create_ah = fake_create_ah;
	v->destroy_ah = fake_destroy_ah;
	fake.table.dv.is_supported = fake_is_supported;
	fake.table.dv.open_device = fake_open_device;
	fake.table.dv.init_obj = fake_init_obj;
	fake_devx_fill(&fake.table.dv);
	ogda_rdma_core_override(&fake.table);
}

void fake_rdma_core_uninstall(void)
{
	ogda_rdma_core_override(NULL);
}

struct ogda_rdma_core *fake_rdma_core_table(void)
{
	return &fake.table;
}

struct cmd_log *fake_rdma_core_log(void)
{
	return &fake.log;
}

void fake_rdma_core_counts(struct fake_rdma_core_counts *c)
{
	pthread_mutex_lock(&fake.lock);
	*c = fake.counts;
	pthread_mutex_unlock(&fake.lock);
}

const struct fake_rdma_core_last *fake_rdma_core_last(void)
{
	return &fake.last;
}

void fake_rdma_core_fail_next(int err)
{
	pthread_mutex_lock(&fake.lock);
	fake.fail_next = err;
	pthread_mutex_unlock(&fake.lock);
}

void fake_rdma_core_set_old_kernel(bool on)
{
	fake.old_kernel = on;
}

void fake_rdma_core_set_nc_dedicated(bool supported)
{
	fake.nc_dedicated = supported;
}

void fake_rdma_core_set_list_errno(int err)
{
	fake.list_errno = err;
}

void fake_rdma_core_set_port_mtu(enum ibv_mtu max_mtu, enum ibv_mtu active_mtu)
{
	fake.max_mtu = max_mtu;
	fake.active_mtu = active_mtu;
}
