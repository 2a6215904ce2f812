/* SPDX-License-Identifier: BSD-3-Clause */
/* opengda-info --json: the whole report (or only the checks) as one JSON object on stdout. */
#include "info.h"
#include "json.h"
#include "pci_topo.h"

#include "core/build_config.h"
#include "core/log.h"
#include "opengda.h"

#include <stdio.h>

static void tri(struct json_out *j, const char *key, enum info_tri v)
{
	if (v == INFO_UNKNOWN)
		json_null(j, key);
	else
		json_bool(j, key, v == INFO_YES);
}

static void build_and_libs(struct json_out *j, const struct info_report *r)
{
	json_object_begin(j, "build");
	json_string(j, "library", opengda_version_string());
	json_string(j, "build_type", OGDA_BUILD_TYPE);
	json_string(j, "c_compiler", OGDA_C_COMPILER);
	json_string(j, "cuda_compiler", OGDA_CUDA_COMPILER);
	json_string(j, "cuda_architectures", OGDA_CUDA_ARCHITECTURES);
	json_string(j, "sanitizers", OGDA_SANITIZERS);
	json_string(j, "rdma_core_headers", OGDA_IBVERBS_HEADERS);
	json_int(j, "log_level", opengda_log_get_level());
	json_object_end(j);
	json_array_begin(j, "libraries");
	for (int i = 0; i < r->nlibs; i++) {
		json_object_begin(j, NULL);
		json_string(j, "label", r->libs[i].label);
		json_string(j, "soname", r->libs[i].soname);
		json_bool(j, "found", r->libs[i].loaded);
		json_string(j, r->libs[i].loaded ? "path" : "error", r->libs[i].loaded ? r->libs[i].path : r->libs[i].error);
		json_object_end(j);
	}
	json_array_end(j);
}

static void gpus(struct json_out *j, const struct info_report *r)
{
	json_object_begin(j, "gpus");
	json_string(j, "cuda_driver", r->sys.cuda_status);
	json_bool(j, "cuda_driver_loaded", r->sys.cuda_loaded);
	json_array_begin(j, "list");
	for (int i = 0; i < r->ngpus; i++) {
		const struct info_gpu *g = &r->gpus[i];

		json_object_begin(j, NULL);
		json_string(j, "bdf", g->bdf);
		json_string(j, "name", g->name);
		json_int(j, "ordinal", g->ordinal);
		json_bool(j, "in_sysfs", g->in_sysfs);
		if (g->ordinal >= 0) {
			json_int(j, "cc_major", g->cc_major);
			json_int(j, "cc_minor", g->cc_minor);
			json_uint(j, "memory_bytes", g->mem_bytes);
		}
		tri(j, "dmabuf_supported", g->dmabuf);
		tri(j, "gpudirect_rdma_supported", g->gdr);
		tri(j, "rdma_writes_ordered", g->rdma_writes_ordered);
		json_uint(j, "bar1_bytes", g->bar1_bytes);
		json_int(j, "numa_node", g->numa_node);
		tri(j, "persistence_mode", g->persistence);
		json_string(j, "persistence_source", g->persistence_src);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void device(struct json_out *j, const struct info_dev *d)
{
	json_object_begin(j, NULL);
	json_string(j, "name", d->name);
	json_string(j, "kind", d->kind);
	json_bool(j, "software_nic", d->swnic);
	json_bool(j, "opened", d->opened);
	if (d->error[0])
		json_string(j, "error", d->error);
	if (d->port_ok) {
		json_string(j, "link_layer", d->link_layer == 1 ? "InfiniBand" : "Ethernet");
		json_string(j, "port_state", info_port_state_name(d->port_state));
		json_uint(j, "active_mtu", d->active_mtu);
		json_uint(j, "max_mtu", d->max_mtu);
		json_uint(j, "gid_table_len", d->gid_tbl_len);
	}
	if (d->gid_ok) {
		char gid[48];

		info_format_gid(d->gid, gid, sizeof(gid));
		json_string(j, "gid0", gid);
	}
	if (d->attr_ok) {
		json_uint(j, "max_qp", d->max_qp);
		json_uint(j, "max_qp_wr", d->max_qp_wr);
		json_uint(j, "max_sge", d->max_sge);
		json_uint(j, "max_cq", d->max_cq);
		json_uint(j, "max_cqe", d->max_cqe);
		json_uint(j, "max_mr", d->max_mr);
		json_uint(j, "max_pd", d->max_pd);
		json_uint(j, "max_srq", d->max_srq);
		json_uint(j, "max_srq_wr", d->max_srq_wr);
		json_uint(j, "max_qp_rd_atom", d->max_rd_atom);
		json_uint(j, "max_qp_init_rd_atom", d->max_init_rd_atom);
		json_bool(j, "atomics", d->atomics);
		json_bool(j, "rc", d->rc);
		json_bool(j, "uc", d->uc);
		json_bool(j, "dbr_less_send_queue", d->dbr_less);
	}
	json_object_end(j);
}

static void devices_and_topology(struct json_out *j, const struct info_report *r)
{
	json_object_begin(j, "devices");
	json_string(j, "rdma_core", r->sys.rdma_core_status);
	json_uint(j, "software_nic_count", r->sys.swnic_count);
	if (r->devs_note[0])
		json_string(j, "note", r->devs_note);
	json_array_begin(j, "list");
	for (int i = 0; i < r->ndevs; i++)
		device(j, &r->devs[i]);
	json_array_end(j);
	json_object_end(j);
	json_object_begin(j, "topology");
	json_array_begin(j, "nics");
	for (int i = 0; i < r->nnics; i++) {
		json_object_begin(j, NULL);
		json_string(j, "name", r->nics[i].name);
		json_string(j, "bdf", r->nics[i].bdf);
		json_int(j, "numa_node", r->nics[i].numa_node);
		json_bool(j, "listed_by_rdma_core", r->nics[i].offered);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "pairs");
	for (int i = 0; i < r->npairs; i++) {
		const struct info_pair *p = &r->pairs[i];

		json_object_begin(j, NULL);
		json_string(j, "gpu", r->gpus[p->gpu].bdf);
		json_string(j, "nic", r->nics[p->nic].name);
		json_string(j, "category", info_topo_name(p->topo));
		json_array_begin(j, "bridges");
		for (int b = 0; b < p->nbridges; b++) {
			json_object_begin(j, NULL);
			json_string(j, "bdf", p->bridges[b].bdf);
			json_string(j, "acs", p->bridges[b].acs == INFO_ACS_PRESENT ? "present"
					      : p->bridges[b].acs == INFO_ACS_ABSENT ? "absent"
										      : "unreadable");
			if (p->bridges[b].acs == INFO_ACS_PRESENT)
				json_uint(j, "acs_ctl", p->bridges[b].acs_ctl);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_string(j, "software_nic", INFO_SWNIC_NO_PCIE);
	json_string(j, "advice", INFO_TOPO_ADVICE);
	json_object_end(j);
}

static void system_(struct json_out *j, const struct info_report *r)
{
	static const char *const modules[] = {"none", "proprietary", "open"};

	json_object_begin(j, "system");
	json_string(j, "kernel", r->sys.kernel);
	json_string(j, "nvidia_module", modules[r->sys.nv_module]);
	json_string(j, "nvidia_version", r->sys.nv_version);
	json_string(j, "libibverbs_version", r->sys.ibverbs_version);
	json_bool(j, "libibverbs_front_end", r->sys.ibverbs_front);
	json_bool(j, "nvidia_peermem", r->sys.peermem);
	json_bool(j, "gdrdrv", r->sys.gdrdrv);
	json_bool(j, "libgdrapi", r->sys.gdrapi_loaded);
	tri(j, "peer_mapping_override", r->sys.peer_mapping_override);
	json_bool(j, "iommu_active", r->sys.iommu_active);
	json_bool(j, "iommu_passthrough", r->sys.iommu_pt);
	json_bool(j, "nvidia_persistenced", r->sys.persistenced);
	json_object_end(j);
}

static void checks(struct json_out *j, const struct info_report *r)
{
	json_array_begin(j, "checks");
	for (int i = 0; i < r->nchecks; i++) {
		const struct info_check *c = &r->checks[i];

		json_object_begin(j, NULL);
		json_string(j, "id", c->id);
		json_string(j, "subject", c->subject);
		json_string(j, "status", info_status_name(c->status));
		json_string(j, "finding", c->finding);
		if (c->status != INFO_OK) {
			json_string(j, "fix", c->fix);
			json_string(j, "why", c->why);
		}
		json_object_end(j);
	}
	json_array_end(j);
	json_object_begin(j, "summary");
	json_uint(j, "ok", r->summary.ok);
	json_uint(j, "warn", r->summary.warn);
	json_uint(j, "fail", r->summary.fail);
	json_string(j, "gpu_kernels", r->summary.gpu_kernels);
	json_string(j, "gpu_kernels_connectx", r->summary.gpu_connectx);
	json_string(j, "host_threads", r->summary.host_threads);
	json_object_end(j);
}

void info_render_json(const struct info_report *r)
{
	struct json_out j;

	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_string(&j, "version", opengda_version_string());
	if (!r->opts.checks_only) {
		build_and_libs(&j, r);
		gpus(&j, r);
		devices_and_topology(&j, r);
		system_(&j, r);
	}
	checks(&j, r);
	json_object_end(&j);
}
