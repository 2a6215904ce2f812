/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: the setup checks (NVIDIA's GPUNetIO setup guide), judged from the gathered
 * report only. Each check gives OK, WARN or FAIL, a finding, and on WARN/FAIL the fix and
 * why it matters. WARN: something is missing and a fallback runs (host threads, CPU proxy,
 * root only); FAIL: something the machine has cannot be used at all.
 */
#include "checks_priv.h"
#include "parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const unsigned int ibverbs_min[3] = {1, 14, 44};

struct info_check *info_check_add(struct info_report *r, const char *id, const char *title, const char *subject,
				  enum info_status status)
{
	static struct info_check scratch;
	struct info_check *c = r->nchecks < INFO_MAX_CHECKS ? &r->checks[r->nchecks++] : &scratch;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->title = title;
	c->status = status;
	snprintf(c->subject, sizeof(c->subject), "%s", subject != NULL ? subject : "");
	return c;
}

void info_check_finding(struct info_check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->finding, sizeof(c->finding), fmt, ap);
	va_end(ap);
}

void info_check_advice(struct info_check *c, const char *fix, const char *why)
{
	snprintf(c->fix, sizeof(c->fix), "%s", fix);
	snprintf(c->why, sizeof(c->why), "%s", why);
}

void info_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

int info_cuda_gpu_count(const struct info_report *r)
{
	int n = 0;

	for (int i = 0; i < r->ngpus; i++)
		n += r->gpus[i].ordinal >= 0;
	return n;
}

bool info_has_connectx(const struct info_report *r)
{
	for (int i = 0; i < r->ndevs; i++) {
		if (!r->devs[i].swnic)
			return true;
	}
	return r->nnics > 0;
}

/* Every dmabuf prerequisite; what is missing goes to missing/fix ("; "-separated). */
static bool dmabuf_eval(const struct info_report *r, char *missing, size_t mlen, char *fix, size_t flen)
{
	unsigned int v[3];

	missing[0] = fix[0] = '\0';
#define MISSING(fixtext, ...)                                                                      \
	do {                                                                                       \
		info_appendf(missing, mlen, "%s", missing[0] ? "; " : "");                         \
		info_appendf(missing, mlen, __VA_ARGS__);                                          \
		info_appendf(fix, flen, "%s%s", fix[0] ? "; " : "", fixtext);                       \
	} while (0)
	if (r->sys.nv_module == INFO_MODULE_NONE)
		MISSING("install the NVIDIA open kernel driver (nvidia-open)", "no NVIDIA kernel module");
	else if (r->sys.nv_module == INFO_MODULE_PROPRIETARY)
		MISSING("install the open kernel module (nvidia-open; CUDA 12.5 and older: installer flag "
			"-m=kernel-open) and reboot",
			"the NVIDIA kernel module is the proprietary one");
	if (!info_kernel_at_least(r->sys.kernel, 6, 2))
		MISSING("boot Linux 6.2 or newer", "kernel %s is older than 6.2",
			r->sys.kernel[0] ? r->sys.kernel : "(unknown)");
	if (!r->sys.ibverbs_loaded)
		MISSING("install rdma-core 44 or newer (libibverbs1)", "libibverbs.so.1 not found");
	else if (!info_parse_version3(r->sys.ibverbs_version, v))
		MISSING("install rdma-core 44 or newer (libibverbs1)",
			"libibverbs version unknown (its file name carries none)");
	else if (info_version_cmp(v, ibverbs_min) < 0)
		MISSING("install rdma-core 44 or newer (libibverbs1)", "libibverbs %s is older than 1.14.44",
			r->sys.ibverbs_version);
	if (info_cuda_gpu_count(r) == 0) {
		MISSING("install the NVIDIA driver so that libcuda.so.1 loads",
			"no GPU the CUDA driver can ask (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED)");
	} else {
		for (int i = 0; i < r->ngpus; i++) {
			const struct info_gpu *g = &r->gpus[i];

			if (g->ordinal < 0 || g->dmabuf == INFO_YES)
				continue;
			MISSING("use the open kernel module of a recent driver (515 or newer)",
				"GPU %s %s dma-buf export", g->bdf,
				g->dmabuf == INFO_NO ? "does not support" : "does not report");
			break;
		}
	}
#undef MISSING
	return missing[0] == '\0';
}

bool info_dmabuf_usable(const struct info_report *r)
{
	char missing[INFO_TEXT], fix[INFO_TEXT];

	return dmabuf_eval(r, missing, sizeof(missing), fix, sizeof(fix));
}

bool info_gpu_memory_reachable(const struct info_report *r)
{
	return r->sys.peermem || info_dmabuf_usable(r);
}

static void check_devices(struct info_report *r)
{
	int nsw = 0, nhw = 0, unoffered = -1;
	struct info_check *c;

	for (int i = 0; i < r->ndevs; i++) {
		const struct info_dev *d = &r->devs[i];

		if (!d->opened) {
			c = info_check_add(r, "devices", "devices", d->name, INFO_FAIL);
			info_check_finding(c, "%s cannot be opened: %s", d->name, d->error);
			info_check_advice(c, "check that mlx5_ib is loaded and /dev/infiniband/uverbs* is accessible to "
					     "this user (group rdma); ibv_devinfo -d <device> shows rdma-core's view",
					  "a device the library lists but cannot open fails every program that picks it");
			return;
		}
		nsw += d->swnic;
		nhw += !d->swnic;
	}
	for (int i = 0; i < r->nnics && unoffered < 0; i++)
		unoffered = r->nics[i].offered ? -1 : i;
	if (r->ndevs == 0) {
		c = info_check_add(r, "devices", "devices", "", INFO_FAIL);
		info_check_finding(c, "%s", r->devs_note[0] ? r->devs_note : "no device");
		info_check_advice(c, "unset OPENGDA_SWNIC_COUNT (the default offers one software NIC), or install a "
				     "ConnectX-6 Dx or later with rdma-core",
				  "every OpenGDA program opens a device first: none can run");
	} else if (unoffered >= 0) {
		c = info_check_add(r, "devices", "devices", r->nics[unoffered].name, INFO_WARN);
		info_check_finding(c, "ConnectX %s (%s) is in sysfs but rdma-core does not list it: %s",
				   r->nics[unoffered].name, r->nics[unoffered].bdf, r->sys.rdma_core_status);
		info_check_advice(c, "install rdma-core (libibverbs1, ibverbs-providers) and load the driver: "
				     "sudo modprobe mlx5_ib",
				  "the library reaches a ConnectX only through rdma-core; without it the NIC is unused");
	} else if (nhw == 0) {
		c = info_check_add(r, "devices", "devices", "", INFO_WARN);
		info_check_finding(c, "no ConnectX: software NIC only (%d offered)", nsw);
		info_check_advice(c, "none needed to run the examples; for hardware RDMA install a ConnectX-6 Dx or "
				     "later with rdma-core",
				  "the software NIC moves data with host threads: results are exact, speed is not a NIC's");
	} else {
		c = info_check_add(r, "devices", "devices", "", INFO_OK);
		info_check_finding(c, "%d ConnectX and %d software NIC%s opened", nhw, nsw, nsw == 1 ? "" : "s");
	}
}

static void check_gpu(struct info_report *r)
{
	int ncuda = info_cuda_gpu_count(r);
	struct info_check *c;

	if (ncuda > 0) {
		c = info_check_add(r, "gpu", "GPU driver", "", INFO_OK);
		info_check_finding(c, "%d GPU%s; %s", ncuda, ncuda == 1 ? "" : "s", r->sys.cuda_status);
		return;
	}
	c = info_check_add(r, "gpu", "GPU driver", "", INFO_WARN);
	if (r->ngpus > 0)
		info_check_finding(c, "GPU %s is on the PCI bus but the CUDA driver is not usable: %s", r->gpus[0].bdf,
				   r->sys.cuda_status);
	else
		info_check_finding(c, "no NVIDIA GPU; %s", r->sys.cuda_status);
	info_check_advice(c, r->ngpus > 0 ? "install the NVIDIA driver (nvidia-open) so that libcuda.so.1 loads"
					  : "none for host-thread runs; GPU kernels need an NVIDIA GPU (compute "
					    "capability 8.0 or newer) with its driver",
			  "without a CUDA driver no kernel runs: the examples run their data path on host threads");
}

static void check_dmabuf(struct info_report *r)
{
	char missing[INFO_TEXT], fix[INFO_TEXT];
	struct info_check *c;

	if (dmabuf_eval(r, missing, sizeof(missing), fix, sizeof(fix))) {
		c = info_check_add(r, "dmabuf", "dmabuf", "", INFO_OK);
		info_check_finding(c, "usable: open kernel module %s, kernel %s, libibverbs %s, GPU dma-buf export",
				   r->sys.nv_version, r->sys.kernel, r->sys.ibverbs_version);
		return;
	}
	c = info_check_add(r, "dmabuf", "dmabuf", "", INFO_WARN);
	info_check_finding(c, "not usable: %s", missing);
	info_check_advice(c, fix,
			  "dmabuf is how a ConnectX registers GPU memory (ibv_reg_dmabuf_mr, DevX umem); without it "
			  "nvidia-peermem must be loaded");
}

static void check_peermem(struct info_report *r)
{
	struct info_check *c;

	if (r->sys.peermem) {
		c = info_check_add(r, "peermem", "nvidia-peermem", "", INFO_OK);
		info_check_finding(c, "loaded");
		return;
	}
	if (info_dmabuf_usable(r)) {
		c = info_check_add(r, "peermem", "nvidia-peermem", "", INFO_OK);
		info_check_finding(c, "not loaded; not needed: dmabuf is usable");
		return;
	}
	if (r->ngpus > 0 && info_has_connectx(r)) {
		c = info_check_add(r, "peermem", "nvidia-peermem", "", INFO_FAIL);
		info_check_finding(c, "not loaded and dmabuf is not usable: the ConnectX cannot reach GPU memory");
	} else {
		c = info_check_add(r, "peermem", "nvidia-peermem", "", INFO_WARN);
		info_check_finding(c, "not loaded and dmabuf is not usable");
	}
	info_check_advice(c, "sudo modprobe nvidia-peermem (it ships with the NVIDIA driver), or make dmabuf usable",
			  "GPU memory registration with a ConnectX falls back to nvidia-peermem when dmabuf is not "
			  "usable; with neither, queues and buffers must live in host memory");
}

static void check_gdrcopy(struct info_report *r)
{
	struct info_check *c;

	if (r->sys.gdrdrv && r->sys.gdrapi_loaded) {
		c = info_check_add(r, "gdrcopy", "GDRCopy", "", INFO_OK);
		info_check_finding(c, "gdrdrv loaded, libgdrapi.so.2 found");
		return;
	}
	c = info_check_add(r, "gdrcopy", "GDRCopy", "", INFO_WARN);
	info_check_finding(c, "%s%s%s", r->sys.gdrdrv ? "" : "gdrdrv module not loaded",
			   !r->sys.gdrdrv && !r->sys.gdrapi_loaded ? "; " : "",
			   r->sys.gdrapi_loaded ? "" : "libgdrapi.so.2 not found");
	info_check_advice(c, "git clone https://github.com/NVIDIA/gdrcopy && cd gdrcopy && make && sudo ./insmod.sh; "
			     "add its src/ to LD_LIBRARY_PATH",
			  "DOCA_GPU_MEM_TYPE_GPU_CPU memory (GPU memory the CPU reads and writes) needs it; without "
			  "it that type falls back to pinned host memory, with a warning");
}

static void check_peer_mapping_override(struct info_report *r)
{
	struct info_check *c;

	if (r->sys.peer_mapping_override == INFO_YES) {
		c = info_check_add(r, "peer-mapping-override", "PeerMappingOverride", "", INFO_OK);
		info_check_finding(c, "PeerMappingOverride=1 in %s/driver/nvidia/params", r->opts.proc_root);
		return;
	}
	c = info_check_add(r, "peer-mapping-override", "PeerMappingOverride", "", INFO_WARN);
	if (r->sys.peer_mapping_override == INFO_UNKNOWN)
		info_check_finding(c, "no NVIDIA driver (%s/driver/nvidia/params is missing)", r->opts.proc_root);
	else
		info_check_finding(c, "not set in the driver's RegistryDwords");
	info_check_advice(c, "echo 'options nvidia NVreg_RegistryDwords=\"PeerMappingOverride=1;\"' | sudo tee "
			     "/etc/modprobe.d/nvidia.conf, then a cold reboot",
			  "without it only root may map GPU memory and NIC doorbells for each other: programs "
			  "need sudo");
}

static void summarize(struct info_report *r)
{
	struct info_summary *s = &r->summary;
	int ncuda = info_cuda_gpu_count(r);
	bool gpu_doorbell = false, swnic = false, hw = false;

	for (int i = 0; i < r->nchecks; i++) {
		const struct info_check *c = &r->checks[i];

		s->ok += c->status == INFO_OK;
		s->warn += c->status == INFO_WARN;
		s->fail += c->status == INFO_FAIL;
		if (strcmp(c->id, "doorbell") == 0 && c->status == INFO_OK && strncmp(c->subject, "swnic", 5) != 0)
			gpu_doorbell = true;
	}
	for (int i = 0; i < r->ndevs; i++) {
		swnic |= r->devs[i].swnic && r->devs[i].opened;
		hw |= !r->devs[i].swnic && r->devs[i].opened;
	}
	if (ncuda > 0)
		snprintf(s->gpu_kernels, sizeof(s->gpu_kernels), "yes (%d GPU%s)", ncuda, ncuda == 1 ? "" : "s");
	else
		snprintf(s->gpu_kernels, sizeof(s->gpu_kernels), "no (no CUDA driver)");
	if (ncuda == 0)
		snprintf(s->gpu_connectx, sizeof(s->gpu_connectx), "no (no GPU)");
	else if (!hw)
		snprintf(s->gpu_connectx, sizeof(s->gpu_connectx), "no (no ConnectX opened)");
	else if (!info_gpu_memory_reachable(r))
		snprintf(s->gpu_connectx, sizeof(s->gpu_connectx), "no (neither dmabuf nor nvidia-peermem)");
	else
		snprintf(s->gpu_connectx, sizeof(s->gpu_connectx), "%s",
			 gpu_doorbell ? "yes (GPU doorbells)" : "yes (doorbells through the CPU proxy)");
	if (!swnic && !hw)
		snprintf(s->host_threads, sizeof(s->host_threads), "no (no device)");
	else
		snprintf(s->host_threads, sizeof(s->host_threads), "yes (%s)",
			 swnic && hw ? "ConnectX and software NIC" : (hw ? "ConnectX" : "software NIC"));
}

void info_run_checks(struct info_report *r)
{
	r->nchecks = 0;
	memset(&r->summary, 0, sizeof(r->summary));
	check_devices(r);
	check_gpu(r);
	info_check_topology(r);
	check_dmabuf(r);
	check_peermem(r);
	check_gdrcopy(r);
	check_peer_mapping_override(r);
	info_check_bar1(r);
	info_check_acs(r);
	info_check_iommu(r);
	info_check_persistence(r);
	info_check_doorbell(r);
	summarize(r);
}
