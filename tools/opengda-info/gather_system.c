/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: what the setup guide asks of the machine: kernel release, the NVIDIA kernel
 * module (open or proprietary), nvidia-peermem, gdrdrv, the driver's PeerMappingOverride and
 * the IOMMU. Everything comes from <sysfs> and <proc>, so a fake tree can stand in for a machine.
 */
#include "info.h"
#include "parse.h"
#include "sysfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PARAMS_MAX (64 * 1024)

static void gather_kernel(struct info_report *r)
{
	char path[512];
	struct utsname u;

	if (info_path(path, sizeof(path), r->opts.proc_root, "sys/kernel/osrelease") &&
	    info_read_line(path, r->sys.kernel, sizeof(r->sys.kernel)))
		return;
	if (uname(&u) == 0)
		snprintf(r->sys.kernel, sizeof(r->sys.kernel), "%s", u.release);
}

static void gather_nvidia_module(struct info_report *r)
{
	char path[512], text[512];

	if (info_path(path, sizeof(path), r->opts.proc_root, "driver/nvidia/version") &&
	    info_read_text(path, text, sizeof(text))) {
		r->sys.nv_module = info_parse_nv_version(text, r->sys.nv_version, sizeof(r->sys.nv_version));
		if (r->sys.nv_module != INFO_MODULE_NONE)
			return;
	}
	if (!info_path(path, sizeof(path), r->opts.sysfs_root, "module/nvidia") || !info_exists(path))
		return;
	/* A proprietary module taints the kernel with 'P'; the open one (Dual MIT/GPL) does not. */
	info_path(path, sizeof(path), r->opts.sysfs_root, "module/nvidia/taint");
	if (info_read_line(path, text, sizeof(text)))
		r->sys.nv_module = strchr(text, 'P') != NULL ? INFO_MODULE_PROPRIETARY : INFO_MODULE_OPEN;
	else
		r->sys.nv_module = INFO_MODULE_PROPRIETARY; /* loaded, licence unknown: do not promise dmabuf */
	info_path(path, sizeof(path), r->opts.sysfs_root, "module/nvidia/version");
	(void)info_read_line(path, r->sys.nv_version, sizeof(r->sys.nv_version));
}

static void gather_params(struct info_report *r)
{
	char path[512];
	char *text = malloc(PARAMS_MAX);

	r->sys.peer_mapping_override = INFO_UNKNOWN;
	if (text == NULL)
		return;
	if (info_path(path, sizeof(path), r->opts.proc_root, "driver/nvidia/params") &&
	    info_read_text(path, text, PARAMS_MAX))
		r->sys.peer_mapping_override = info_parse_peer_mapping_override(text);
	free(text);
}

static void gather_iommu(struct info_report *r)
{
	char path[512], cmdline[4096] = "";
	bool units, on, off;

	units = info_path(path, sizeof(path), r->opts.sysfs_root, "class/iommu") && info_dir_has_entries(path);
	if (info_path(path, sizeof(path), r->opts.proc_root, "cmdline"))
		(void)info_read_text(path, cmdline, sizeof(cmdline));
	on = info_cmdline_has(cmdline, "intel_iommu=on") || info_cmdline_has(cmdline, "amd_iommu=on") ||
	     info_cmdline_has(cmdline, "iommu=on") || info_cmdline_has(cmdline, "iommu=force");
	off = info_cmdline_has(cmdline, "iommu=off") || info_cmdline_has(cmdline, "intel_iommu=off") ||
	      info_cmdline_has(cmdline, "amd_iommu=off");
	r->sys.iommu_pt = info_cmdline_has(cmdline, "iommu=pt") || info_cmdline_has(cmdline, "iommu.passthrough=1") ||
			  info_cmdline_has(cmdline, "amd_iommu=pt");
	r->sys.iommu_active = units || (on && !off);
	if (units)
		snprintf(r->sys.iommu_src, sizeof(r->sys.iommu_src), "IOMMU units in %s/class/iommu",
			 r->opts.sysfs_root);
	else if (on && !off)
		snprintf(r->sys.iommu_src, sizeof(r->sys.iommu_src), "turned on by the kernel command line");
	else if (off)
		snprintf(r->sys.iommu_src, sizeof(r->sys.iommu_src), "turned off by the kernel command line");
	else
		snprintf(r->sys.iommu_src, sizeof(r->sys.iommu_src), "no IOMMU unit in %s/class/iommu",
			 r->opts.sysfs_root);
}

void info_gather_system(struct info_report *r)
{
	gather_kernel(r);
	r->sys.is_root = geteuid() == 0;
	gather_nvidia_module(r);
	r->sys.peermem = info_module_loaded(r->opts.sysfs_root, r->opts.proc_root, "nvidia_peermem") ||
			 info_module_loaded(r->opts.sysfs_root, r->opts.proc_root, "nv_peer_mem");
	r->sys.gdrdrv = info_module_loaded(r->opts.sysfs_root, r->opts.proc_root, "gdrdrv");
	gather_params(r);
	gather_iommu(r);
}
