/* SPDX-License-Identifier: BSD-3-Clause */
/* The device ops over the software NIC; see sw.h for where it differs from a ConnectX. */
#include "devx/sw.h"
#include "devx/sw_priv.h"
#include "devx/rx_root_cmd.h"
#include "devx/sw_steer_obj.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"
#include "prm/prm_sq.h"
#include "swnic/swnic.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_event.h"
#include "swnic/swnic_gid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IBV_PORT_ACTIVE_STATE 4

static const struct ogda_devx_ops sw_ops;

struct swnic *ogda_devx_sw_nic(struct ogda_devx *dev)
{
	if (dev == NULL || dev->ops != &sw_ops)
		return NULL;
	return sw_dev_nic(dev);
}

/* ---- PD ---- */

static doca_error_t sw_pd_alloc(struct ogda_devx *dev, struct ogda_devx_pd **pd, uint32_t *pdn)
{
	uint8_t in[PRM_PD_UAR_CMD_SIZE], out[PRM_PD_UAR_CMD_SIZE];
	struct ogda_devx_pd *p;
	struct swnic *nic;
	uint32_t n = 0;
	doca_error_t err;

	if (dev == NULL || pd == NULL || pdn == NULL) {
		OGDA_LOG_ERR("dev, pd and pdn must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	nic = sw_dev_nic(dev);
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = prm_alloc_pd_in_build(0, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = swnic_cmd_exec(nic, in, sizeof(in), out, sizeof(out));
	if (err == DOCA_SUCCESS)
		err = prm_alloc_pd_out_parse(out, sizeof(out), &n);
	if (err != DOCA_SUCCESS) {
		free(p);
		return err;
	}
	swnic_get(nic);
	p->nic = nic;
	p->pdn = n;
	*pd = p;
	*pdn = n;
	return DOCA_SUCCESS;
}

static doca_error_t sw_pd_free(struct ogda_devx_pd *pd)
{
	doca_error_t err;

	if (pd == NULL) {
		OGDA_LOG_ERR("pd must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = sw_destroy_by_kind(pd->nic, SW_OBJ_PD, pd->pdn);
	if (err != DOCA_SUCCESS)
		return err;
	swnic_close(pd->nic);
	free(pd);
	return DOCA_SUCCESS;
}

/* ---- memory ---- */

static doca_error_t no_dmabuf(struct swnic *nic, int dmabuf_fd, const char *what)
{
	/* -1 alone means "no dmabuf" (DOCA_VERBS_DMABUF_INVALID_FD); other negatives are mistakes. */
	if (dmabuf_fd == -1)
		return DOCA_SUCCESS;
	if (dmabuf_fd < 0) {
		OGDA_LOG_ERR("%s: %s registration: dmabuf fd %d is not a file descriptor (-1 means none)", nic->name,
			     what, dmabuf_fd);
		return DOCA_ERROR_INVALID_VALUE;
	}
	OGDA_LOG_ERR("%s: %s registration from a dmabuf (fd %d) is not supported by the software NIC; "
		     "register the address instead",
		     nic->name, what, dmabuf_fd);
	return DOCA_ERROR_NOT_SUPPORTED;
}

static doca_error_t sw_mr_reg(struct ogda_devx_pd *pd, void *addr, size_t len, uint32_t access, int dmabuf_fd,
			      uint64_t dmabuf_offset, struct ogda_devx_mr **mr, uint32_t *lkey, uint32_t *rkey)
{
	struct ogda_devx_mr *m;
	uint32_t l = 0, r = 0;
	doca_error_t err;

	(void)dmabuf_offset;
	if (pd == NULL || mr == NULL || lkey == NULL || rkey == NULL) {
		OGDA_LOG_ERR("pd, mr, lkey and rkey must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = no_dmabuf(pd->nic, dmabuf_fd, "MR");
	if (err != DOCA_SUCCESS)
		return err;
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = swnic_mr_register(pd->nic, pd->pdn, addr, len, access, &l, &r);
	if (err != DOCA_SUCCESS) {
		free(m);
		return err;
	}
	swnic_get(pd->nic);
	m->nic = pd->nic;
	m->lkey = l;
	*mr = m;
	*lkey = l;
	*rkey = r;
	return DOCA_SUCCESS;
}

static doca_error_t sw_mr_dereg(struct ogda_devx_mr *mr)
{
	doca_error_t err;

	if (mr == NULL) {
		OGDA_LOG_ERR("mr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = swnic_mr_deregister(mr->nic, mr->lkey);
	if (err != DOCA_SUCCESS)
		return err;
	swnic_close(mr->nic);
	free(mr);
	return DOCA_SUCCESS;
}

static doca_error_t sw_umem_reg(struct ogda_devx *dev, void *addr, size_t len, uint32_t access, int dmabuf_fd,
				uint64_t dmabuf_offset, struct ogda_devx_umem **umem, uint32_t *umem_id)
{
	struct ogda_devx_umem *u;
	struct swnic *nic;
	uint32_t id = 0;
	doca_error_t err;

	(void)dmabuf_offset;
	if (dev == NULL || umem == NULL || umem_id == NULL) {
		OGDA_LOG_ERR("dev, umem and umem_id must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	nic = sw_dev_nic(dev);
	err = no_dmabuf(nic, dmabuf_fd, "umem");
	if (err != DOCA_SUCCESS)
		return err;
	u = calloc(1, sizeof(*u));
	if (u == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = swnic_umem_register(nic, addr, len, access, &id);
	if (err != DOCA_SUCCESS) {
		free(u);
		return err;
	}
	swnic_get(nic);
	u->nic = nic;
	u->id = id;
	*umem = u;
	*umem_id = id;
	return DOCA_SUCCESS;
}

static doca_error_t sw_umem_dereg(struct ogda_devx_umem *umem)
{
	doca_error_t err;

	if (umem == NULL) {
		OGDA_LOG_ERR("umem must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = swnic_umem_deregister(umem->nic, umem->id);
	if (err != DOCA_SUCCESS)
		return err;
	swnic_close(umem->nic);
	free(umem);
	return DOCA_SUCCESS;
}

/* ---- UAR ---- */

static doca_error_t sw_uar_alloc(struct ogda_devx *dev, enum ogda_devx_uar_type type, struct ogda_devx_uar **uar,
				 struct ogda_devx_uar_info *info)
{
	struct ogda_devx_uar *u;
	struct swnic *nic;
	uint8_t *page = NULL;
	uint32_t page_id = 0;
	doca_error_t err;

	if (dev == NULL || uar == NULL || info == NULL) {
		OGDA_LOG_ERR("dev, uar and info must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	nic = sw_dev_nic(dev);
	u = calloc(1, sizeof(*u));
	if (u == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = swnic_uar_alloc(nic, type, &page_id, &page);
	if (err != DOCA_SUCCESS) {
		free(u);
		return err;
	}
	swnic_get(nic);
	u->nic = nic;
	u->page_id = page_id;
	memset(info, 0, sizeof(*info));
	info->base_addr = page;
	info->reg_addr = page + SWNIC_UAR_DB_OFFSET;
	info->page_id = page_id;
	info->bf_reg_size = SWNIC_UAR_BF_REG_SIZE;
	*uar = u;
	return DOCA_SUCCESS;
}

static doca_error_t sw_uar_free(struct ogda_devx_uar *uar)
{
	doca_error_t err;

	if (uar == NULL) {
		OGDA_LOG_ERR("uar must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = swnic_uar_free(uar->nic, uar->page_id);
	if (err != DOCA_SUCCESS)
		return err;
	swnic_close(uar->nic);
	free(uar);
	return DOCA_SUCCESS;
}

/* ---- port, GID, EQ ---- */

static doca_error_t check_port(struct ogda_devx *dev, uint8_t port)
{
	if (dev == NULL) {
		OGDA_LOG_ERR("dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (port != SWNIC_PORT_NUM) {
		OGDA_LOG_ERR("%s has one port (1), not %u", sw_dev_nic(dev)->name, port);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t sw_query_port(struct ogda_devx *dev, uint8_t port, struct ogda_devx_port_attr *attr)
{
	doca_error_t err = check_port(dev, port);

	if (err != DOCA_SUCCESS)
		return err;
	if (attr == NULL) {
		OGDA_LOG_ERR("attr must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(attr, 0, sizeof(*attr));
	attr->state = IBV_PORT_ACTIVE_STATE;
	attr->max_mtu = sw_dev_nic(dev)->port_mtu;    /* OPENGDA_SWNIC_MTU; enum prm_qp_mtu is the ibv numbering */
	attr->active_mtu = sw_dev_nic(dev)->port_mtu;
	attr->link_layer = OGDA_LINK_LAYER_ETHERNET;
	attr->lid = 0;
	attr->gid_tbl_len = 1;
	return DOCA_SUCCESS;
}

static doca_error_t sw_query_gid(struct ogda_devx *dev, uint8_t port, uint32_t index, uint8_t gid[16])
{
	doca_error_t err = check_port(dev, port);

	if (err != DOCA_SUCCESS)
		return err;
	if (gid == NULL) {
		OGDA_LOG_ERR("gid must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (index != 0) {
		OGDA_LOG_ERR("%s: GID index %u does not exist (the table has one entry)", sw_dev_nic(dev)->name, index);
		return DOCA_ERROR_NOT_FOUND;
	}
	memcpy(gid, sw_dev_nic(dev)->gid, 16);
	return DOCA_SUCCESS;
}

static doca_error_t sw_query_eqn(struct ogda_devx *dev, uint32_t vector, uint32_t *eqn)
{
	if (dev == NULL || eqn == NULL) {
		OGDA_LOG_ERR("dev and eqn must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (vector != 0) {
		OGDA_LOG_ERR("%s has one completion vector (0), not %u", sw_dev_nic(dev)->name, vector);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*eqn = SWNIC_EQN;
	return DOCA_SUCCESS;
}

/* ---- events ---- */

static doca_error_t sw_event_channel_create(struct ogda_devx *dev, struct ogda_devx_event_channel **ch, int *fd)
{
	struct ogda_devx_event_channel *c;
	doca_error_t err;

	if (dev == NULL || ch == NULL || fd == NULL) {
		OGDA_LOG_ERR("dev, ch and fd must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = swnic_event_channel_create(sw_dev_nic(dev), &c->ch, fd);
	if (err != DOCA_SUCCESS) {
		free(c);
		return err;
	}
	c->nic = sw_dev_nic(dev);
	*ch = c;
	return DOCA_SUCCESS;
}

static doca_error_t sw_event_channel_destroy(struct ogda_devx_event_channel *ch)
{
	doca_error_t err;

	if (ch == NULL) {
		OGDA_LOG_ERR("ch must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = swnic_event_channel_destroy(ch->ch);
	if (err != DOCA_SUCCESS)
		return err;
	free(ch);
	return DOCA_SUCCESS;
}

static doca_error_t sw_event_subscribe(struct ogda_devx_event_channel *ch, struct ogda_devx_obj *obj,
				       const uint16_t *types, size_t ntypes, uint64_t cookie)
{
	enum swnic_event_obj kind;

	if (ch == NULL || obj == NULL) {
		OGDA_LOG_ERR("ch and obj must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (obj->nic != ch->nic) {
		OGDA_LOG_ERR("%s: the object belongs to %s, not to the channel's device", ch->nic->name,
			     obj->nic->name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	switch (obj->kind) {
	case SW_OBJ_CQ:
		kind = SWNIC_EVOBJ_CQ;
		break;
	case SW_OBJ_QP:
		kind = SWNIC_EVOBJ_QP;
		break;
	case SW_OBJ_RMP:
		kind = SWNIC_EVOBJ_RMP;
		break;
	default:
		OGDA_LOG_ERR("%s: a %s raises no events", ch->nic->name, sw_kind_name(obj->kind));
		return DOCA_ERROR_INVALID_VALUE;
	}
	return swnic_event_subscribe(ch->ch, kind, obj->id, types, ntypes, cookie);
}

static doca_error_t sw_event_read(struct ogda_devx_event_channel *ch, struct ogda_devx_event *ev)
{
	if (ch == NULL || ev == NULL) {
		OGDA_LOG_ERR("ch and ev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return swnic_event_read(ch->ch, ev);
}

/* ---- RoCE next hop ---- */

/*
 * The software NIC has no Ethernet: every GID it can reach is a software NIC GID, and the
 * "MAC" of that peer is derived from the GID's endpoint address (locally administered,
 * 02:00 + the IPv4 bytes). The NIC ignores qpc rmac, so the value only has to be stable.
 */
static doca_error_t sw_resolve_rmac(struct ogda_devx *dev, uint8_t port, uint32_t sgid_index, const uint8_t dgid[16],
				    uint8_t mac[6])
{
	struct swnic_endpoint ep;
	doca_error_t err = check_port(dev, port);

	if (err != DOCA_SUCCESS)
		return err;
	if (dgid == NULL || mac == NULL) {
		OGDA_LOG_ERR("dgid and mac must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (sgid_index != 0) {
		OGDA_LOG_ERR("%s: GID index %u does not exist (the table has one entry)", sw_dev_nic(dev)->name,
			     sgid_index);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (swnic_gid_decode(dgid, &ep) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: no next hop for GID %02x%02x:%02x%02x:...: not a software NIC GID", sw_dev_nic(dev)->name,
			     dgid[0], dgid[1], dgid[2], dgid[3]);
		return DOCA_ERROR_NOT_FOUND;
	}
	mac[0] = 0x02;
	mac[1] = 0x00;
	memcpy(mac + 2, dgid + 12, 4);
	return DOCA_SUCCESS;
}

/* ---- device ---- */

static void sw_close(struct ogda_devx *dev)
{
	if (dev == NULL)
		return;
	swnic_close(sw_dev_nic(dev));
	free(dev);
}

static const struct ogda_devx_ops sw_ops = {
	.kind = "swnic",
	.close = sw_close,
	.general_cmd = sw_general_cmd,
	.obj_create = sw_obj_create,
	.obj_modify = sw_obj_modify,
	.obj_query = sw_obj_query,
	.obj_destroy = sw_obj_destroy,
	.pd_alloc = sw_pd_alloc,
	.pd_free = sw_pd_free,
	.mr_reg = sw_mr_reg,
	.mr_dereg = sw_mr_dereg,
	.umem_reg = sw_umem_reg,
	.umem_dereg = sw_umem_dereg,
	.uar_alloc = sw_uar_alloc,
	.uar_free = sw_uar_free,
	.query_port = sw_query_port,
	.query_gid = sw_query_gid,
	.query_eqn = sw_query_eqn,
	.event_channel_create = sw_event_channel_create,
	.event_channel_destroy = sw_event_channel_destroy,
	.event_subscribe = sw_event_subscribe,
	.event_read = sw_event_read,
	.resolve_rmac = sw_resolve_rmac,
	.rx_root_attach = ogda_devx_rx_root_cmd_attach,
	.rx_root_detach = ogda_devx_rx_root_cmd_detach,
};

doca_error_t ogda_devx_sw_open(uint32_t index, struct ogda_devx **dev)
{
	struct sw_dev *d;
	doca_error_t err;

	if (dev == NULL) {
		OGDA_LOG_ERR("dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = swnic_open(index, &d->nic);
	if (err != DOCA_SUCCESS) {
		free(d);
		return err;
	}
	d->base.ops = &sw_ops;
	snprintf(d->base.name, sizeof(d->base.name), "%s", d->nic->name);
	*dev = &d->base;
	return DOCA_SUCCESS;
}
