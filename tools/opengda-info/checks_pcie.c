/* SPDX-License-Identifier: BSD-3-Clause */
/* opengda-info: the checks about the PCIe side: placement, BAR1, ACS, IOMMU, persistence, doorbells. */
#include "checks_priv.h"
#include "pci_topo.h"

#include <stdio.h>
#include <string.h>

/* Why a GPU x ConnectX question cannot be asked on this machine. */
static const char *no_pair_reason(const struct info_report *r)
{
	bool gpu = r->ngpus > 0, nic = r->nnics > 0;

	if (!gpu && !nic)
		return "no GPU and no ConnectX with a PCI function";
	if (!gpu)
		return "no GPU";
	return "no ConnectX with a PCI function (the software NIC has no PCIe path)";
}

void info_check_topology(struct info_report *r)
{
	struct info_check *c;

	if (r->npairs == 0) {
		c = info_check_add(r, "topology", "GPU-NIC placement", "", INFO_WARN);
		info_check_finding(c, "%s: nothing to place", no_pair_reason(r));
		info_check_advice(c, "none for the software NIC; with a GPU and a ConnectX, put them under one PCIe "
				     "switch (PIX/PXB)",
				  "GPU-initiated RDMA moves data between GPU memory and the NIC over PCIe");
		return;
	}
	for (int g = 0; g < r->ngpus; g++) {
		const struct info_pair *best = NULL;

		for (int i = 0; i < r->npairs; i++) {
			const struct info_pair *p = &r->pairs[i];

			/* UNKNOWN (0) ranks below SYS: any known path wins over it. */
			if (p->gpu == g && (best == NULL || (p->topo != INFO_TOPO_UNKNOWN &&
							     (best->topo == INFO_TOPO_UNKNOWN || p->topo < best->topo))))
				best = p;
		}
		if (best == NULL)
			continue;
		if (best->topo == INFO_TOPO_UNKNOWN) {
			c = info_check_add(r, "topology", "GPU-NIC placement", r->gpus[g].bdf, INFO_WARN);
			info_check_finding(c, "PCIe path to %s unknown (no sysfs device path)", r->nics[best->nic].name);
			info_check_advice(c, "run nvidia-smi topo -m", "GPU-NIC traffic across host bridges or CPU "
								 "sockets loses bandwidth and adds latency");
			continue;
		}
		c = info_check_add(r, "topology", "GPU-NIC placement", r->gpus[g].bdf,
				   best->topo >= INFO_TOPO_NODE ? INFO_WARN : INFO_OK);
		info_check_finding(c, "closest ConnectX %s: %s (%s)", r->nics[best->nic].name, info_topo_name(best->topo),
				   best->topo <= INFO_TOPO_PXB ? "best"
				   : best->topo == INFO_TOPO_PHB ? "acceptable: through the host bridge"
								 : "avoid");
		if (best->topo >= INFO_TOPO_NODE)
			info_check_advice(c, "move the GPU or the NIC into slots under one PCIe switch or host bridge, or "
					     "use the GPU and NIC closest to each other (OPENGDA_DEVICE, "
					     "CUDA_VISIBLE_DEVICES)",
					  "traffic between host bridges or CPU sockets loses bandwidth and adds latency");
	}
}

void info_check_bar1(struct info_report *r)
{
	char plan[32], have[32];
	struct info_check *c;

	info_format_bytes(r->opts.plan_bytes, plan, sizeof(plan));
	if (r->ngpus == 0) {
		c = info_check_add(r, "bar1", "BAR1", "", INFO_WARN);
		info_check_finding(c, "no GPU: no BAR1 to map %s through", plan);
		info_check_advice(c, "none for host-thread runs",
				  "the NIC reaches GPU memory through the GPU's BAR1 window");
		return;
	}
	for (int i = 0; i < r->ngpus; i++) {
		const struct info_gpu *g = &r->gpus[i];

		if (g->bar1_bytes == 0) {
			c = info_check_add(r, "bar1", "BAR1", g->bdf, INFO_WARN);
			info_check_finding(c, "size unknown (no BAR1 in the sysfs resource file); planned %s", plan);
			info_check_advice(c, "nvidia-smi -q | grep -A3 BAR1", "every GPU buffer mapped for the NIC "
									      "(queues, data) takes BAR1 space");
			continue;
		}
		info_format_bytes(g->bar1_bytes, have, sizeof(have));
		c = info_check_add(r, "bar1", "BAR1", g->bdf, g->bar1_bytes >= r->opts.plan_bytes ? INFO_OK : INFO_WARN);
		info_check_finding(c, "%s %s planned %s", have, g->bar1_bytes >= r->opts.plan_bytes ? ">=" : "<", plan);
		if (c->status != INFO_OK)
			info_check_advice(c, "enable Resizable BAR (and Above 4G Decoding) in the BIOS, or map less "
					     "(--plan-bytes shows what fits)",
					  "every GPU buffer mapped for the NIC (queues, data) takes BAR1 space; mappings "
					  "beyond it fail (\"Failed to start mmap\")");
	}
}

void info_check_acs(struct info_report *r)
{
	char redirected[INFO_TEXT] = "", unreadable[INFO_TEXT] = "", fix[INFO_TEXT] = "";
	const char *seen[INFO_MAX_BRIDGES * 8];
	int nbridges = 0;
	struct info_check *c;

	for (int i = 0; i < r->npairs; i++) {
		const struct info_pair *p = &r->pairs[i];

		for (int b = 0; b < p->nbridges; b++) {
			const struct info_bridge *br = &p->bridges[b];
			bool dup = false;

			/* Pairs share bridges: count each once. */
			for (int k = 0; k < nbridges && !dup; k++)
				dup = strcmp(seen[k], br->bdf) == 0;
			if (!dup && nbridges < (int)(sizeof(seen) / sizeof(seen[0])))
				seen[nbridges++] = br->bdf;
			if (br->acs == INFO_ACS_UNREADABLE && strstr(unreadable, br->bdf) == NULL) {
				info_appendf(unreadable, sizeof(unreadable), "%s%s", unreadable[0] ? " " : "", br->bdf);
			} else if (br->acs == INFO_ACS_PRESENT && (br->acs_ctl & INFO_ACS_CTL_REDIRECTS) &&
				   strstr(redirected, br->bdf) == NULL) {
				char bits[96];

				info_acs_ctl_format(br->acs_ctl & INFO_ACS_CTL_REDIRECTS, bits, sizeof(bits));
				info_appendf(redirected, sizeof(redirected), "%s%s (%s)", redirected[0] ? ", " : "",
					     br->bdf, bits);
				info_appendf(fix, sizeof(fix), "%ssudo setpci -s %s ECAP_ACS+0x6.w=0000", fix[0] ? "; " : "",
					     br->bdf);
			}
		}
	}
	if (r->npairs == 0) {
		c = info_check_add(r, "acs", "ACS", "", INFO_WARN);
		info_check_finding(c, "not checked: %s", no_pair_reason(r));
		info_check_advice(c, "none until a GPU and a ConnectX share this machine",
				  "ACS redirect on a bridge between GPU and NIC sends their traffic up to the root "
				  "complex, or blocks it");
	} else if (redirected[0]) {
		c = info_check_add(r, "acs", "ACS", "", INFO_WARN);
		info_check_finding(c, "redirect set on %s", redirected);
		info_appendf(fix, sizeof(fix), "; better: disable ACS in the BIOS");
		info_check_advice(c, fix, "GPU-NIC peer-to-peer traffic goes up to the root complex (slower) or is "
					  "dropped (the NIC sees no data)");
	} else if (unreadable[0]) {
		c = info_check_add(r, "acs", "ACS", "", INFO_WARN);
		info_check_finding(c, "unknown (needs root) on %s", unreadable);
		info_check_advice(c, "run as root: sudo opengda-info --checks-only",
				  "ACS redirect on a bridge between GPU and NIC sends their traffic up to the root "
				  "complex, or blocks it");
	} else {
		c = info_check_add(r, "acs", "ACS", "", INFO_OK);
		if (nbridges == 0)
			info_check_finding(c, "no PCIe bridge between GPU and NIC");
		else
			info_check_finding(c, "no redirect on the %d bridge%s between GPU and NIC", nbridges,
					   nbridges == 1 ? "" : "s");
	}
}

void info_check_iommu(struct info_report *r)
{
	struct info_check *c;

	if (!r->sys.iommu_active) {
		c = info_check_add(r, "iommu", "IOMMU", "", INFO_OK);
		info_check_finding(c, "off (%s)", r->sys.iommu_src);
	} else if (r->sys.iommu_pt) {
		c = info_check_add(r, "iommu", "IOMMU", "", INFO_OK);
		info_check_finding(c, "on, passthrough (iommu=pt): device DMA is not translated");
	} else {
		c = info_check_add(r, "iommu", "IOMMU", "", INFO_WARN);
		info_check_finding(c, "on and translating (%s)", r->sys.iommu_src);
		info_check_advice(c, "add iommu=pt to the kernel command line (GRUB_CMDLINE_LINUX_DEFAULT, then "
				     "update-grub and reboot), or disable VT-d / IOMMU in the BIOS",
				  "a translating IOMMU can block or slow GPU-NIC peer-to-peer; the guide's advice when "
				  "no data arrives");
	}
}

void info_check_persistence(struct info_report *r)
{
	static const char why[] = "without it the driver tears the GPU down whenever no process uses it: every "
				  "program start pays the initialisation again";
	struct info_check *c;

	if (r->ngpus == 0) {
		c = info_check_add(r, "persistence", "persistence mode", "", INFO_WARN);
		info_check_finding(c, "no GPU");
		info_check_advice(c, "none for host-thread runs", why);
		return;
	}
	for (int i = 0; i < r->ngpus; i++) {
		const struct info_gpu *g = &r->gpus[i];

		c = info_check_add(r, "persistence", "persistence mode", g->bdf,
				   g->persistence == INFO_YES ? INFO_OK : INFO_WARN);
		if (g->persistence == INFO_YES) {
			info_check_finding(c, "enabled (%s)", g->persistence_src);
			continue;
		}
		if (g->persistence == INFO_NO)
			info_check_finding(c, "disabled (%s)", g->persistence_src);
		else
			info_check_finding(c, "%s", g->persistence_src);
		info_check_advice(c, "sudo nvidia-smi -pm 1 (or run nvidia-persistenced)", why);
	}
}

/* One ConnectX: can a GPU kernel ring its doorbell (UAR) itself? */
static void doorbell_connectx(struct info_report *r, const char *name)
{
	struct info_check *c;
	const struct info_gpu *nogdr = NULL;

	for (int i = 0; i < r->ngpus && nogdr == NULL; i++) {
		if (r->gpus[i].ordinal >= 0 && r->gpus[i].gdr != INFO_YES)
			nogdr = &r->gpus[i];
	}
	if (info_cuda_gpu_count(r) == 0) {
		c = info_check_add(r, "doorbell", "GPU doorbell", name, INFO_WARN);
		info_check_finding(c, "no GPU: host threads ring it");
		info_check_advice(c, "install the NVIDIA driver to run kernels",
				  "GPU-initiated RDMA means kernels ring the NIC's doorbell themselves");
	} else if (nogdr != NULL) {
		c = info_check_add(r, "doorbell", "GPU doorbell", name, INFO_WARN);
		info_check_finding(c, "GPU %s reports no GPUDirect RDMA: handlers fall back to the CPU proxy "
				      "(DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY)",
				   nogdr->bdf);
		info_check_advice(c, "use a data-center GPU with GPUDirect RDMA and the open kernel module",
				  "with the CPU proxy a host thread rings every doorbell: more latency, a core busy");
	} else if (r->sys.peer_mapping_override != INFO_YES && !r->sys.is_root) {
		c = info_check_add(r, "doorbell", "GPU doorbell", name, INFO_WARN);
		info_check_finding(c, "no peer mapping for this user (PeerMappingOverride unset, not root): handlers "
				      "fall back to the CPU proxy (DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY)");
		info_check_advice(c, "set PeerMappingOverride=1 (see that check) or run as root",
				  "with the CPU proxy a host thread rings every doorbell: more latency, a core busy");
	} else {
		c = info_check_add(r, "doorbell", "GPU doorbell", name, INFO_OK);
		info_check_finding(c, "GPU kernels can map and ring it (GPUDirect RDMA, peer mapping allowed)");
	}
}

void info_check_doorbell(struct info_report *r)
{
	struct info_check *c;

	for (int i = 0; i < r->ndevs; i++) {
		const struct info_dev *d = &r->devs[i];

		if (!d->swnic) {
			doorbell_connectx(r, d->name);
			continue;
		}
		if (info_cuda_gpu_count(r) > 0) {
			c = info_check_add(r, "doorbell", "GPU doorbell", d->name, INFO_OK);
			info_check_finding(c, "host memory mapped into the GPU (cuMemHostRegister): always usable");
		} else {
			c = info_check_add(r, "doorbell", "GPU doorbell", d->name, INFO_WARN);
			info_check_finding(c, "no GPU: host threads ring it (host memory, mapped into a GPU when one "
					      "exists)");
			info_check_advice(c, "none for host-thread runs; GPU kernels need an NVIDIA GPU with its driver",
					  "GPU-initiated RDMA means kernels ring the NIC's doorbell themselves");
		}
	}
	for (int i = 0; i < r->nnics; i++) {
		if (!r->nics[i].offered)
			doorbell_connectx(r, r->nics[i].name);
	}
	if (r->ndevs == 0 && r->nnics == 0) {
		c = info_check_add(r, "doorbell", "GPU doorbell", "", INFO_WARN);
		info_check_finding(c, "no device");
		info_check_advice(c, "see the devices check", "there is no doorbell to ring");
	}
}
