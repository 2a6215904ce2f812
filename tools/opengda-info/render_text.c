/* SPDX-License-Identifier: BSD-3-Clause */
/* opengda-info: the report as text, one section after another. */
#include "info.h"
#include "pci_topo.h"

#include "core/build_config.h"
#include "core/log.h"
#include "opengda.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define LABEL_WIDTH 22

/* "  label ........ value" with aligned values (indent adds two spaces per level). */
static void kv(int indent, const char *label, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void kv(int indent, const char *label, const char *fmt, ...)
{
	va_list ap;

	printf("%*s%-*s ", 2 + 2 * indent, "", LABEL_WIDTH - 2 * indent, label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *tri(enum info_tri v)
{
	return v == INFO_YES ? "yes" : (v == INFO_NO ? "no" : "unknown");
}

static void build_section(void)
{
	printf("Build\n");
	kv(0, "library", "libdoca_gpunetio %s", opengda_version_string());
	kv(0, "build type", "%s", OGDA_BUILD_TYPE);
	kv(0, "C compiler", "%s", OGDA_C_COMPILER);
	kv(0, "CUDA compiler", "%s", OGDA_CUDA_COMPILER);
	kv(0, "CUDA architectures", "%s", OGDA_CUDA_ARCHITECTURES);
	kv(0, "sanitizers", "%s", OGDA_SANITIZERS[0] ? OGDA_SANITIZERS : "none");
	kv(0, "rdma-core headers", "%s", OGDA_IBVERBS_HEADERS);
	kv(0, "log level", "%d (%s; 0-7, default 3)", opengda_log_get_level(), OGDA_LOG_ENV);
}

static void libs_section(const struct info_report *r)
{
	printf("\nRun-time libraries (loaded with dlopen; each is optional)\n");
	for (int i = 0; i < r->nlibs; i++) {
		const struct info_lib *l = &r->libs[i];

		if (l->loaded)
			kv(0, l->label, "found: %s (%s)", l->soname, l->path);
		else
			kv(0, l->label, "not found: %s", l->error);
	}
	if (r->sys.ibverbs_version[0])
		kv(0, "rdma-core release", "libibverbs %s%s", r->sys.ibverbs_version,
		   r->sys.ibverbs_front ? " (OpenGDA's rdma-core front end: its mlx5 devices are software NICs)" : "");
}

static void gpu_section(const struct info_report *r)
{
	char bytes[32];

	printf("\nGPUs\n");
	if (r->ngpus == 0) {
		kv(0, "none", "%s", r->sys.cuda_status);
		kv(0, "", "kernels cannot run here; the data path runs on host threads");
		return;
	}
	kv(0, "driver", "%s", r->sys.cuda_status);
	for (int i = 0; i < r->ngpus; i++) {
		const struct info_gpu *g = &r->gpus[i];

		if (g->ordinal >= 0)
			printf("  GPU %d: %s\n", g->ordinal, g->name);
		else
			printf("  GPU (PCI only): %s\n", g->name);
		kv(1, "PCI bus id", "%s", g->bdf[0] ? g->bdf : "unknown");
		if (g->ordinal >= 0) {
			kv(1, "compute capability", "%d.%d", g->cc_major, g->cc_minor);
			kv(1, "memory", "%" PRIu64 " MiB", g->mem_bytes >> 20);
			kv(1, "dma-buf export", "%s", tri(g->dmabuf));
			kv(1, "GPUDirect RDMA", "%s", tri(g->gdr));
			kv(1, "RDMA write ordering", "%s",
			   g->rdma_writes_ordered == INFO_YES ? "owner or stronger"
							       : (g->rdma_writes_ordered == INFO_NO ? "none" : "unknown"));
		}
		info_format_bytes(g->bar1_bytes, bytes, sizeof(bytes));
		kv(1, "BAR1", "%s", g->bar1_bytes ? bytes : "unknown");
		if (g->numa_node >= 0)
			kv(1, "NUMA node", "%d", g->numa_node);
		else
			kv(1, "NUMA node", "unknown");
		if (g->persistence == INFO_UNKNOWN)
			kv(1, "persistence mode", "%s", g->persistence_src);
		else
			kv(1, "persistence mode", "%s (%s)", g->persistence == INFO_YES ? "enabled" : "disabled",
			   g->persistence_src);
	}
}

static void device_lines(const struct info_dev *d)
{
	char gid[48];

	kv(0, d->name, "%s", d->kind);
	if (!d->opened || d->error[0]) {
		kv(1, "error", "%s", d->error);
		if (!d->opened)
			return;
	}
	if (d->port_ok) {
		kv(1, "link layer", "%s%s", d->link_layer == 1 ? "InfiniBand" : "Ethernet",
		   d->link_layer == 1 ? "" : (d->roce_versions & INFO_ROCE_V2 ? " (RoCE v2)" : " (RoCE)"));
		kv(1, "port 1 state", "%s", info_port_state_name(d->port_state));
		kv(1, "active MTU", "%u (max %u)", d->active_mtu, d->max_mtu);
		if (d->link_layer == 1)
			kv(1, "LID", "%u", d->lid);
		if (d->gid_ok) {
			info_format_gid(d->gid, gid, sizeof(gid));
			kv(1, "GID 0", "%s (table of %u)", gid, d->gid_tbl_len);
		}
	}
	if (d->attr_ok) {
		kv(1, "max QP WR", "%u", d->max_qp_wr);
		kv(1, "max CQE", "%u", d->max_cqe);
		kv(1, "max QPs / CQs", "%u / %u", d->max_qp, d->max_cq);
		kv(1, "max SGE", "%u", d->max_sge);
		kv(1, "max MRs / PDs", "%u / %u", d->max_mr, d->max_pd);
		kv(1, "max SRQs, SRQ WR", "%u, %u", d->max_srq, d->max_srq_wr);
		kv(1, "RDMA read/atomic", "%u in flight as responder, %u as initiator", d->max_rd_atom,
		   d->max_init_rd_atom);
		kv(1, "atomics", "%s", d->atomics ? "yes (compare-and-swap, fetch-and-add)" : "no");
		kv(1, "QP types", "%s%s%s", d->rc ? "RC" : "", d->rc && d->uc ? ", " : "", d->uc ? "UC" : "");
		kv(1, "DBR-less send queue", "%s", d->dbr_less ? "yes" : "no");
	}
}

static void devices_section(const struct info_report *r)
{
	printf("\nDevices (doca_devinfo_create_list)\n");
	kv(0, "rdma-core", "%s", r->sys.rdma_core_status);
	kv(0, "software NICs", "%u (OPENGDA_SWNIC_COUNT; default 1)", r->sys.swnic_count);
	if (r->ndevs == 0)
		kv(0, "none", "%s", r->devs_note);
	for (int i = 0; i < r->ndevs; i++)
		device_lines(&r->devs[i]);
	for (int i = 0; i < r->nnics; i++) {
		if (!r->nics[i].offered)
			kv(0, r->nics[i].name, "ConnectX at %s in sysfs, not listed by rdma-core", r->nics[i].bdf);
	}
}

/* Cells of the topology matrix: 8 wide, one space between. */
static void append_cell(char *row, size_t len, const char *cell)
{
	size_t used = strlen(row);

	if (used < len)
		snprintf(row + used, len - used, " %-8s", cell);
}

/* A matrix row without trailing blanks. */
static void matrix_row(const char *label, char *cells)
{
	size_t n = strlen(cells);

	while (n > 0 && cells[n - 1] == ' ')
		cells[--n] = '\0';
	printf("  %-*s%s\n", LABEL_WIDTH, label, cells);
}

static void topology_section(const struct info_report *r)
{
	printf("\nTopology (PCIe distance, as nvidia-smi topo -m names it)\n");
	if (r->ngpus > 0 && r->nnics > 0) {
		char row[LABEL_WIDTH + 16 + INFO_MAX_NICS * 12];

		row[0] = '\0';
		for (int n = 0; n < r->nnics; n++)
			append_cell(row, sizeof(row), r->nics[n].name);
		matrix_row("", row);
		for (int g = 0; g < r->ngpus; g++) {
			row[0] = '\0';
			for (int i = 0; i < r->npairs; i++) {
				if (r->pairs[i].gpu == g)
					append_cell(row, sizeof(row), info_topo_name(r->pairs[i].topo));
			}
			matrix_row(r->gpus[g].bdf[0] ? r->gpus[g].bdf : "GPU (no address)", row);
		}
	} else {
		kv(0, "none", "%s", r->ngpus == 0 ? "no GPU" : "no ConnectX with a PCI function");
	}
	for (int i = 0; i < r->ndevs; i++) {
		if (r->devs[i].swnic)
			kv(0, r->devs[i].name, "%s", INFO_SWNIC_NO_PCIE);
	}
	for (int i = 0; i < r->npairs; i++) {
		const struct info_pair *p = &r->pairs[i];

		for (int b = 0; b < p->nbridges; b++) {
			char bits[96];

			if (p->bridges[b].acs == INFO_ACS_PRESENT)
				info_acs_ctl_format(p->bridges[b].acs_ctl, bits, sizeof(bits));
			kv(0, b == 0 ? "bridges" : "", "%s-%s: %s ACS %s", r->gpus[p->gpu].bdf, r->nics[p->nic].name,
			   p->bridges[b].bdf,
			   p->bridges[b].acs == INFO_ACS_PRESENT ? bits
			   : p->bridges[b].acs == INFO_ACS_ABSENT ? "absent"
								  : "unknown (needs root)");
		}
	}
	kv(0, "advice", "%s", INFO_TOPO_ADVICE);
}

static void checks_section(const struct info_report *r)
{
	printf("%sChecks (NVIDIA GPUNetIO setup guide)\n", r->opts.checks_only ? "" : "\n");
	for (int i = 0; i < r->nchecks; i++) {
		const struct info_check *c = &r->checks[i];

		printf("  %s %s%s%s%s: %s\n", info_status_tag(c->status), c->title, c->subject[0] ? " (" : "",
		       c->subject, c->subject[0] ? ")" : "", c->finding);
		if (c->status != INFO_OK) {
			printf("         fix: %s\n", c->fix);
			printf("         why it matters: %s\n", c->why);
		}
	}
	printf("\nSummary: %u OK, %u WARN, %u FAIL\n", r->summary.ok, r->summary.warn, r->summary.fail);
	printf("  can run: GPU kernels: %s; GPU kernels driving a ConnectX: %s; data path on host threads: %s\n",
	       r->summary.gpu_kernels, r->summary.gpu_connectx, r->summary.host_threads);
}

void info_render_text(const struct info_report *r)
{
	if (!r->opts.checks_only) {
		printf("OpenGDA %s: GPU-initiated RDMA for mlx5 NICs\n\n", opengda_version_string());
		build_section();
		libs_section(r);
		gpu_section(r);
		devices_section(r);
		topology_section(r);
	}
	checks_section(r);
}
