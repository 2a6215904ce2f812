/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: the devices doca_devinfo_create_list offers (ConnectX through rdma-core, then
 * the software NICs). Each is opened with a DOCA Verbs context, queried and closed again;
 * opening a software NIC starts its engine threads in this process, closing stops them.
 */
#include "info.h"

#include "devx/hw.h"
#include "devx/rdma_core.h"
#include "swnic/swnic.h"
#include "verbs/verbs_priv.h"

#include <stdio.h>
#include <string.h>

#define INFO_PORT 1

static uint32_t mtu_bytes(enum doca_verbs_mtu_size m)
{
	return m <= DOCA_VERBS_MTU_SIZE_4K_BYTES ? 256u << m : 0;
}

static void query_attrs(struct doca_verbs_context *ctx, struct info_dev *d)
{
	struct doca_verbs_device_attr *a = NULL;

	if (doca_verbs_query_device(ctx, &a) != DOCA_SUCCESS)
		return;
	d->attr_ok = true;
	d->max_qp = doca_verbs_device_attr_get_max_qp(a);
	d->max_qp_wr = doca_verbs_device_attr_get_max_qp_wr(a);
	d->max_sge = doca_verbs_device_attr_get_max_sge(a);
	d->max_cq = doca_verbs_device_attr_get_max_cq(a);
	d->max_cqe = doca_verbs_device_attr_get_max_cqe(a);
	d->max_mr = doca_verbs_device_attr_get_max_mr(a);
	d->max_pd = doca_verbs_device_attr_get_max_pd(a);
	d->max_srq = doca_verbs_device_attr_get_max_srq(a);
	d->max_srq_wr = doca_verbs_device_attr_get_max_srq_wr(a);
	d->max_rd_atom = doca_verbs_device_attr_get_max_qp_rd_atom(a);
	d->max_init_rd_atom = doca_verbs_device_attr_get_max_qp_init_rd_atom(a);
	d->dbr_less = doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext(a) != 0;
	d->rc = doca_verbs_device_attr_get_is_qp_type_supported(a, DOCA_VERBS_QP_TYPE_RC) == DOCA_SUCCESS;
	d->uc = doca_verbs_device_attr_get_is_qp_type_supported(a, DOCA_VERBS_QP_TYPE_UC) == DOCA_SUCCESS;
	doca_verbs_device_attr_free(a);
	/* Not part of DOCA's attribute object: the general and RoCE capability pages the context read. */
	d->atomics = ctx->caps.gen.atomic != 0;
	d->roce_versions = ctx->caps.gen.roce ? ctx->caps.roce.roce_version : 0;
	_Static_assert(INFO_ROCE_V2 == 1u << PRM_ROCE_VERSION_2, "RoCE v2 bit");
}

static void query_device(struct doca_devinfo *info, struct info_dev *d)
{
	struct doca_verbs_context *ctx = NULL;
	struct opengda_port_attr port;
	struct doca_verbs_gid gid;
	doca_error_t err;

	err = doca_verbs_context_create(info, 0, &ctx);
	if (err != DOCA_SUCCESS) {
		snprintf(d->error, sizeof(d->error), "cannot open a context: %s", doca_error_get_descr(err));
		return;
	}
	d->opened = true;
	if (strcmp(ctx->devx->ops->kind, "swnic") == 0)
		snprintf(d->kind, sizeof(d->kind), "software NIC");
	if (opengda_verbs_query_port(ctx, INFO_PORT, &port) == DOCA_SUCCESS) {
		d->port_ok = true;
		d->link_layer = (uint8_t)port.link_layer;
		d->port_state = port.state;
		d->active_mtu = mtu_bytes(port.active_mtu);
		d->max_mtu = mtu_bytes(port.max_mtu);
		d->lid = port.lid;
		d->gid_tbl_len = port.gid_tbl_len;
		if (port.gid_tbl_len > 0 && opengda_verbs_query_gid(ctx, INFO_PORT, 0, &gid) == DOCA_SUCCESS) {
			d->gid_ok = true;
			memcpy(d->gid, gid.raw, sizeof(d->gid));
		}
	}
	query_attrs(ctx, d);
	err = doca_verbs_context_destroy(ctx);
	if (err != DOCA_SUCCESS)
		snprintf(d->error, sizeof(d->error), "context did not close: %s", doca_error_get_descr(err));
}

static void rdma_core_status(struct info_report *r)
{
	struct ogda_ibdev_entry all[INFO_MAX_NICS];
	const char *why = NULL;
	size_t n = 0;

	if (ogda_ibdev_list(all, INFO_MAX_NICS, &n, &why) != DOCA_SUCCESS) {
		snprintf(r->sys.rdma_core_status, sizeof(r->sys.rdma_core_status), "device listing failed");
		return;
	}
	if (n == 0) {
		snprintf(r->sys.rdma_core_status, sizeof(r->sys.rdma_core_status), "no device: %s",
			 why != NULL ? why : "rdma-core lists none");
		return;
	}
	snprintf(r->sys.rdma_core_status, sizeof(r->sys.rdma_core_status), "%zu device%s", n, n == 1 ? "" : "s");
}

void info_gather_devices(struct info_report *r)
{
	struct ogda_ibdev_entry hw[INFO_MAX_DEVS];
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	size_t nhw = 0;
	doca_error_t err;

	rdma_core_status(r);
	r->sys.swnic_count = swnic_count();
	if (ogda_devx_hw_list(hw, INFO_MAX_DEVS, &nhw) != DOCA_SUCCESS)
		nhw = 0;
	if (nhw == 0 && r->sys.swnic_count == 0) {
		/* Asking the library would only log the same finding as an error. */
		snprintf(r->devs_note, sizeof(r->devs_note),
			 "no device: rdma-core lists no mlx5 device and OPENGDA_SWNIC_COUNT=0 turns the software NIC off");
		return;
	}
	err = doca_devinfo_create_list(&list, &n);
	if (err != DOCA_SUCCESS) {
		snprintf(r->devs_note, sizeof(r->devs_note), "doca_devinfo_create_list failed: %s",
			 doca_error_get_descr(err));
		return;
	}
	for (uint32_t i = 0; i < n && r->ndevs < INFO_MAX_DEVS; i++) {
		struct info_dev *d = &r->devs[r->ndevs++];

		memset(d, 0, sizeof(*d));
		if (doca_devinfo_get_ibdev_name(list[i], d->name, sizeof(d->name)) != DOCA_SUCCESS)
			snprintf(d->name, sizeof(d->name), "device %u", i);
		(void)opengda_devinfo_is_swnic(list[i], &d->swnic);
		snprintf(d->kind, sizeof(d->kind), "%s",
			 d->swnic ? "software NIC"
			 : r->sys.ibverbs_front ? "software NIC via the rdma-core front end"
						: "mlx5 DevX (ConnectX through rdma-core)");
		query_device(list[i], d);
	}
	doca_devinfo_destroy_list(list);
}
