/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device, port, GID and P_Key queries. Limits come from the software NIC's capabilities
 * (QUERY_HCA_CAP through DOCA Verbs); the identity is a ConnectX-6 Dx's (vendor 0x02c9, part
 * 4125), so programs that look at it take their mlx5 paths. The port is RoCE (Ethernet link
 * layer) with one GID, RoCE v2, that encodes the NIC's fabric endpoint: a peer reaches this
 * NIC by putting that GID in its AH.
 */
#include "rdmacore_front/front.h"

#include "core/log.h"
#include "opengda.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#undef ibv_query_port

#define FRONT_VENDOR_ID 0x02c9u
#define FRONT_VENDOR_PART_ID 4125u /* ConnectX-6 Dx */
#define FRONT_MAX_MSG_SZ (1u << 30) /* log_max_msg 30 */

int front_read_device_attr(struct front_context *fc)
{
	struct doca_verbs_device_attr *da = NULL;
	struct ibv_device_attr *a = &fc->attr;
	doca_error_t err;

	err = doca_verbs_query_device(fc->dctx, &da);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: device query failed: %s", fc->dev->ibv.name, doca_error_get_descr(err));
		errno = front_errno(err);
		return errno;
	}
	memset(a, 0, sizeof(*a));
	snprintf(a->fw_ver, sizeof(a->fw_ver), "%s (OpenGDA software NIC)", opengda_version_string());
	a->max_mr_size = UINT64_MAX;
	a->page_size_cap = 0xfffff000ull; /* 4 KiB and up */
	a->vendor_id = FRONT_VENDOR_ID;
	a->vendor_part_id = FRONT_VENDOR_PART_ID;
	a->max_qp = (int)doca_verbs_device_attr_get_max_qp(da);
	a->max_qp_wr = (int)doca_verbs_device_attr_get_max_qp_wr(da);
	a->device_cap_flags = IBV_DEVICE_RC_RNR_NAK_GEN | IBV_DEVICE_PORT_ACTIVE_EVENT | IBV_DEVICE_SRQ_RESIZE |
			      IBV_DEVICE_CHANGE_PHY_PORT;
	a->max_sge = (int)doca_verbs_device_attr_get_max_sge(da);
	a->max_sge_rd = a->max_sge;
	a->max_cq = (int)doca_verbs_device_attr_get_max_cq(da);
	a->max_cqe = (int)doca_verbs_device_attr_get_max_cqe(da);
	a->max_mr = (int)doca_verbs_device_attr_get_max_mr(da);
	a->max_pd = (int)doca_verbs_device_attr_get_max_pd(da);
	a->max_qp_rd_atom = doca_verbs_device_attr_get_max_qp_rd_atom(da);
	a->max_qp_init_rd_atom = doca_verbs_device_attr_get_max_qp_init_rd_atom(da);
	a->max_res_rd_atom = a->max_qp_rd_atom * a->max_qp;
	a->atomic_cap = IBV_ATOMIC_HCA;
	a->max_ah = (int)doca_verbs_device_attr_get_max_ah(da);
	a->max_srq = (int)doca_verbs_device_attr_get_max_srq(da);
	a->max_srq_wr = (int)doca_verbs_device_attr_get_max_srq_wr(da);
	a->max_srq_sge = (int)doca_verbs_device_attr_get_max_srq_sge(da);
	a->max_pkeys = doca_verbs_device_attr_get_max_pkeys(da);
	a->local_ca_ack_delay = 16;
	a->phys_port_cnt = 1;
	(void)doca_verbs_device_attr_free(da);
	return 0;
}

FRONT_EXPORT int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)
{
	if (context == NULL || device_attr == NULL)
		return front_fail(EINVAL);
	*device_attr = front_ctx(context)->attr;
	return 0;
}

int front_query_device_ex_op(struct ibv_context *context, const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ibv_device_attr_ex ex;

	if (context == NULL || attr == NULL || attr_size < sizeof(attr->orig_attr))
		return EINVAL;
	if (input != NULL && input->comp_mask != 0)
		return EINVAL;
	memset(&ex, 0, sizeof(ex));
	ex.orig_attr = front_ctx(context)->attr;
	ex.max_dm_size = 0;
	memcpy(attr, &ex, attr_size < sizeof(ex) ? attr_size : sizeof(ex));
	return 0;
}

/* The port as a RoCE port of the software NIC's MTU. */
static int port_attr(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr)
{
	struct opengda_port_attr pa;
	doca_error_t err;

	if (context == NULL || attr == NULL)
		return EINVAL;
	err = opengda_verbs_query_port(front_ctx(context)->dctx, port_num, &pa);
	if (err != DOCA_SUCCESS)
		return front_errno(err);
	memset(attr, 0, sizeof(*attr));
	attr->state = (enum ibv_port_state)pa.state;
	attr->max_mtu = (enum ibv_mtu)(pa.max_mtu + 1);       /* doca 0 = 256 B, ibv 1 = 256 B */
	attr->active_mtu = (enum ibv_mtu)(pa.active_mtu + 1);
	attr->gid_tbl_len = (int)pa.gid_tbl_len;
	attr->port_cap_flags = IBV_PORT_CM_SUP;
	attr->max_msg_sz = FRONT_MAX_MSG_SZ;
	attr->pkey_tbl_len = 1;
	attr->lid = pa.lid;
	attr->max_vl_num = 1;
	attr->active_width = 2;    /* 4x */
	attr->active_speed = 64;   /* 50 Gb/s lane */
	attr->phys_state = 5;      /* LinkUp */
	attr->link_layer = pa.link_layer == OPENGDA_LINK_LAYER_INFINIBAND ? IBV_LINK_LAYER_INFINIBAND
									   : IBV_LINK_LAYER_ETHERNET;
	return 0;
}

int front_query_port_op(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr, size_t len)
{
	struct ibv_port_attr full;
	int ret = port_attr(context, port_num, &full);

	if (ret != 0)
		return front_fail(ret);
	memcpy(attr, &full, len < sizeof(full) ? len : sizeof(full));
	return 0;
}

/* The exported form takes rdma-core's older, shorter port attribute (up to flags). */
FRONT_EXPORT int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)
{
	return front_query_port_op(context, port_num, (struct ibv_port_attr *)port_attr, offsetof(struct ibv_port_attr, port_cap_flags2));
}

FRONT_EXPORT int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
{
	struct doca_verbs_gid g;
	doca_error_t err;

	if (context == NULL || gid == NULL || index < 0)
		return front_fail(EINVAL);
	err = opengda_verbs_query_gid(front_ctx(context)->dctx, port_num, (uint32_t)index, &g);
	if (err != DOCA_SUCCESS)
		return front_fail(front_errno(err));
	memcpy(gid->raw, g.raw, sizeof(gid->raw));
	return 0;
}

FRONT_EXPORT int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num, uint32_t gid_index,
				   struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size)
{
	union ibv_gid gid;
	int ret;

	if (context == NULL || entry == NULL || flags != 0 || entry_size < sizeof(*entry) || port_num > 255)
		return front_fail(EINVAL);
	ret = ibv_query_gid(context, (uint8_t)port_num, (int)gid_index, &gid);
	if (ret != 0)
		return ret;
	memset(entry, 0, sizeof(*entry));
	entry->gid = gid;
	entry->gid_index = gid_index;
	entry->port_num = port_num;
	entry->gid_type = IBV_GID_TYPE_ROCE_V2;
	entry->ndev_ifindex = 0;
	return 0;
}

FRONT_EXPORT ssize_t _ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries,
					  size_t max_entries, uint32_t flags, size_t entry_size)
{
	if (context == NULL || entries == NULL || max_entries < 1)
		return -front_fail(EINVAL);
	if (_ibv_query_gid_ex(context, 1, 0, entries, flags, entry_size) != 0)
		return -errno;
	return 1;
}

/* rdma-core's private enum ibv_gid_type_sysfs: 0 = IB / RoCE v1, 1 = RoCE v2. */
FRONT_EXPORT int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index, int *type)
{
	union ibv_gid gid;

	if (type == NULL)
		return front_fail(EINVAL);
	if (ibv_query_gid(context, port_num, (int)index, &gid) != 0)
		return -1;
	*type = 1;
	return 0;
}

FRONT_EXPORT int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index, __be16 *pkey)
{
	if (context == NULL || pkey == NULL || port_num != 1 || index != 0)
		return front_fail(EINVAL);
	*pkey = htobe16(0xffff); /* the default partition, full membership */
	return 0;
}

FRONT_EXPORT int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num, __be16 pkey)
{
	if (context == NULL || port_num != 1)
		return -front_fail(EINVAL);
	if ((be16toh(pkey) & 0x7fff) != 0x7fff)
		return -front_fail(ENOENT);
	return 0;
}
