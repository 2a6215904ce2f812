/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: GPUs. The CUDA driver names the GPUs it can run kernels on; sysfs names every
 * NVIDIA display or 3D controller on the PCI bus (so a GPU without a working driver, or one
 * in a fake tree, is still seen). Per GPU: BAR1 size from sysfs, NUMA node, persistence mode.
 */
#include "info.h"
#include "parse.h"
#include "sysfs.h"

#include "core/cuda_drv.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NVIDIA_VENDOR 0x10de
#define PCI_CLASS_VGA 0x0300
#define PCI_CLASS_3D 0x0302

#ifdef OGDA_HAVE_CUDA_H
static enum info_tri cuda_attr_tri(const struct ogda_cuda_drv *drv, CUdevice dev, CUdevice_attribute a)
{
	int v = 0;

	if (drv->device_get_attribute(&v, a, dev) != CUDA_SUCCESS)
		return INFO_UNKNOWN;
	return v ? INFO_YES : INFO_NO;
}

static void gather_cuda_gpus(struct info_report *r)
{
	const struct ogda_cuda_drv *drv = NULL;
	int count = 0;

	if (ogda_cuda_drv_get(&drv) != DOCA_SUCCESS || drv->device_get_count(&count) != CUDA_SUCCESS)
		return;
	for (int i = 0; i < count && r->ngpus < INFO_MAX_GPUS; i++) {
		struct info_gpu *g = &r->gpus[r->ngpus];
		char bus[32] = "";
		size_t mem = 0;
		CUdevice dev;

		if (drv->device_get(&dev, i) != CUDA_SUCCESS)
			continue;
		memset(g, 0, sizeof(*g));
		g->ordinal = i;
		if (drv->device_get_name(g->name, (int)sizeof(g->name), dev) != CUDA_SUCCESS)
			snprintf(g->name, sizeof(g->name), "CUDA device %d", i);
		if (drv->device_get_pci_bus_id(bus, (int)sizeof(bus), dev) != CUDA_SUCCESS ||
		    !info_normalize_bdf(bus, g->bdf, sizeof(g->bdf)))
			g->bdf[0] = '\0';
		if (drv->device_total_mem(&mem, dev) == CUDA_SUCCESS)
			g->mem_bytes = mem;
		(void)drv->device_get_attribute(&g->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
		(void)drv->device_get_attribute(&g->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
		g->dmabuf = cuda_attr_tri(drv, dev, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED);
		g->gdr = cuda_attr_tri(drv, dev, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED);
		{
			int ord = 0;

			g->rdma_writes_ordered =
				drv->device_get_attribute(&ord, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING,
							  dev) != CUDA_SUCCESS
					? INFO_UNKNOWN
					: (ord > 0 ? INFO_YES : INFO_NO);
		}
		r->ngpus++;
	}
}
#else
static void gather_cuda_gpus(struct info_report *r)
{
	(void)r;
}
#endif

static int cmp_bdf(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static int find_gpu(const struct info_report *r, const char *bdf)
{
	for (int i = 0; i < r->ngpus; i++) {
		if (strcmp(r->gpus[i].bdf, bdf) == 0)
			return i;
	}
	return -1;
}

/* NVIDIA display and 3D controllers under <sysfs>/bus/pci/devices, in address order. */
static void gather_sysfs_gpus(struct info_report *r)
{
	char found[INFO_MAX_GPUS][INFO_BDF_LEN];
	char path[512];
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (!info_path(path, sizeof(path), r->opts.sysfs_root, "bus/pci/devices") || (d = opendir(path)) == NULL)
		return;
	while ((e = readdir(d)) != NULL && n < INFO_MAX_GPUS) {
		long vendor, cls;

		if (!info_is_bdf(e->d_name))
			continue;
		info_path(path, sizeof(path), r->opts.sysfs_root, "bus/pci/devices/%s/vendor", e->d_name);
		vendor = info_read_long(path, -1);
		info_path(path, sizeof(path), r->opts.sysfs_root, "bus/pci/devices/%s/class", e->d_name);
		cls = info_read_long(path, -1);
		if (vendor != NVIDIA_VENDOR || cls < 0 || ((cls >> 8) != PCI_CLASS_VGA && (cls >> 8) != PCI_CLASS_3D))
			continue;
		snprintf(found[n++], INFO_BDF_LEN, "%.12s", e->d_name); /* a checked address */
	}
	closedir(d);
	qsort(found, (size_t)n, sizeof(found[0]), cmp_bdf);
	for (int i = 0; i < n; i++) {
		int at = find_gpu(r, found[i]);
		struct info_gpu *g;
		long dev_id;

		if (at >= 0) {
			r->gpus[at].in_sysfs = true;
			continue;
		}
		if (r->ngpus == INFO_MAX_GPUS)
			break;
		g = &r->gpus[r->ngpus++];
		memset(g, 0, sizeof(*g));
		memcpy(g->bdf, found[i], sizeof(g->bdf));
		g->ordinal = -1;
		g->in_sysfs = true;
		g->dmabuf = g->gdr = g->rdma_writes_ordered = INFO_UNKNOWN;
		info_path(path, sizeof(path), r->opts.sysfs_root, "bus/pci/devices/%s/device", found[i]);
		dev_id = info_read_long(path, -1);
		snprintf(g->name, sizeof(g->name), "NVIDIA GPU %04x:%04lx (no CUDA driver)", NVIDIA_VENDOR,
			 dev_id < 0 ? 0L : dev_id);
	}
}

/* Whether an nvidia-persistenced process runs (its comm is cut to 15 characters). */
static bool persistenced_running(const char *proc_root)
{
	char path[512], comm[64];
	struct dirent *e;
	bool found = false;
	DIR *d = opendir(proc_root);

	if (d == NULL)
		return false;
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		if (info_path(path, sizeof(path), proc_root, "%s/comm", e->d_name) &&
		    info_read_line(path, comm, sizeof(comm)))
			found = strncmp(comm, "nvidia-persiste", 15) == 0;
	}
	closedir(d);
	return found;
}

static bool on_path(const char *prog)
{
	const char *p = getenv("PATH");
	char cand[1024];

	while (p != NULL && *p != '\0') {
		size_t n = strcspn(p, ":");

		if (n > 0 && snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, p, prog) < (int)sizeof(cand) &&
		    access(cand, X_OK) == 0)
			return true;
		p += n;
		if (*p == ':')
			p++;
	}
	return false;
}

/* nvidia-smi's answer for one GPU; UNKNOWN when it cannot be asked or answers something else. */
static enum info_tri ask_nvidia_smi(const char *bdf)
{
	char cmd[160], line[64] = "";
	enum info_tri v = INFO_UNKNOWN;
	FILE *f;

	if (!info_is_bdf(bdf)) /* only a plain address reaches the shell */
		return INFO_UNKNOWN;
	snprintf(cmd, sizeof(cmd),
		 "nvidia-smi --query-gpu=persistence_mode --format=csv,noheader -i %s 2>/dev/null </dev/null", bdf);
	f = popen(cmd, "r");
	if (f == NULL)
		return INFO_UNKNOWN;
	if (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "Enabled", 7) == 0)
			v = INFO_YES;
		else if (strncmp(line, "Disabled", 8) == 0)
			v = INFO_NO;
	}
	if (pclose(f) != 0)
		v = INFO_UNKNOWN;
	return v;
}

static void gather_persistence(struct info_report *r)
{
	bool smi = r->opts.real_roots && on_path("nvidia-smi");
	bool daemon = persistenced_running(r->opts.proc_root);

	r->sys.persistenced = daemon;
	for (int i = 0; i < r->ngpus; i++) {
		struct info_gpu *g = &r->gpus[i];

		g->persistence = smi ? ask_nvidia_smi(g->bdf) : INFO_UNKNOWN;
		if (g->persistence != INFO_UNKNOWN) {
			snprintf(g->persistence_src, sizeof(g->persistence_src), "nvidia-smi");
		} else if (daemon) {
			g->persistence = INFO_YES;
			snprintf(g->persistence_src, sizeof(g->persistence_src), "nvidia-persistenced is running");
		} else {
			snprintf(g->persistence_src, sizeof(g->persistence_src),
				 "unknown (run nvidia-smi -q | grep Persistence)");
		}
	}
}

void info_gather_gpus(struct info_report *r)
{
	char path[512], text[1024];

	r->sys.cuda_loaded = ogda_cuda_drv_probe() == DOCA_SUCCESS;
	snprintf(r->sys.cuda_status, sizeof(r->sys.cuda_status), "%s", ogda_cuda_drv_status());
	gather_cuda_gpus(r);
	gather_sysfs_gpus(r);
	for (int i = 0; i < r->ngpus; i++) {
		struct info_gpu *g = &r->gpus[i];

		g->numa_node = -1;
		if (g->bdf[0] == '\0')
			continue;
		/* BAR1 is the window through which peers (the NIC) reach GPU memory. */
		if (info_path(path, sizeof(path), r->opts.sysfs_root, "bus/pci/devices/%s/resource", g->bdf) &&
		    info_read_text(path, text, sizeof(text)))
			g->bar1_bytes = info_parse_gpu_bar1_size(text);
		if (info_path(path, sizeof(path), r->opts.sysfs_root, "bus/pci/devices/%s/numa_node", g->bdf))
			g->numa_node = (int)info_read_long(path, -1);
	}
	gather_persistence(r);
}
