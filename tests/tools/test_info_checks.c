/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info's checks judged on hand-made machines: the outcomes a fake sysfs tree cannot
 * reach because they need a CUDA driver (dmabuf usable, GPU doorbells, the CPU proxy
 * fallback) and the edge cases of each rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"

/* A machine with everything the guide asks for: one GPU below the ConnectX's switch. */
static struct info_report *good_machine(void)
{
	struct info_report *r = calloc(1, sizeof(*r));
	struct info_gpu *g = &r->gpus[0];

	assert_non_null(r);
	r->opts.sysfs_root = "/sys";
	r->opts.proc_root = "/proc";
	r->opts.plan_bytes = 1ull << 30;
	r->ngpus = 1;
	snprintf(g->bdf, sizeof(g->bdf), "0000:ca:00.0");
	g->ordinal = 0;
	g->dmabuf = INFO_YES;
	g->gdr = INFO_YES;
	g->bar1_bytes = 64ull << 30;
	g->persistence = INFO_YES;
	snprintf(g->persistence_src, sizeof(g->persistence_src), "nvidia-smi");
	r->ndevs = 2;
	snprintf(r->devs[0].name, sizeof(r->devs[0].name), "mlx5_0");
	r->devs[0].opened = true;
	snprintf(r->devs[1].name, sizeof(r->devs[1].name), "swnic0");
	r->devs[1].swnic = true;
	r->devs[1].opened = true;
	r->nnics = 1;
	snprintf(r->nics[0].name, sizeof(r->nics[0].name), "mlx5_0");
	snprintf(r->nics[0].bdf, sizeof(r->nics[0].bdf), "0000:c9:00.0");
	r->nics[0].offered = true;
	r->npairs = 1;
	r->pairs[0].topo = INFO_TOPO_PIX;
	r->pairs[0].nbridges = 1;
	snprintf(r->pairs[0].bridges[0].bdf, sizeof(r->pairs[0].bridges[0].bdf), "0000:c8:00.0");
	r->pairs[0].bridges[0].acs = INFO_ACS_PRESENT;
	r->pairs[0].bridges[0].acs_ctl = 0x0011; /* SrcValid, UpstreamFwd: no redirect */
	snprintf(r->sys.kernel, sizeof(r->sys.kernel), "6.8.0-45-generic");
	r->sys.nv_module = INFO_MODULE_OPEN;
	snprintf(r->sys.nv_version, sizeof(r->sys.nv_version), "570.86.15");
	r->sys.ibverbs_loaded = true;
	snprintf(r->sys.ibverbs_version, sizeof(r->sys.ibverbs_version), "1.14.50");
	r->sys.gdrdrv = true;
	r->sys.gdrapi_loaded = true;
	r->sys.peer_mapping_override = INFO_YES;
	snprintf(r->sys.iommu_src, sizeof(r->sys.iommu_src), "no IOMMU unit in /sys/class/iommu");
	r->sys.cuda_loaded = true;
	snprintf(r->sys.cuda_status, sizeof(r->sys.cuda_status), "CUDA driver 13.0");
	r->sys.swnic_count = 1;
	return r;
}

static const struct info_check *find(const struct info_report *r, const char *id, const char *subject)
{
	for (int i = 0; i < r->nchecks; i++) {
		if (strcmp(r->checks[i].id, id) == 0 && strcmp(r->checks[i].subject, subject) == 0)
			return &r->checks[i];
	}
	fail_msg("no check %s (%s)", id, subject);
	return NULL;
}

static void expect(const struct info_report *r, const char *id, const char *subject, enum info_status st,
		   const char *finding)
{
	const struct info_check *c = find(r, id, subject);

	assert_int_equal(c->status, st);
	assert_string_equal(c->finding, finding);
	if (st == INFO_OK) {
		assert_string_equal(c->fix, "");
	} else {
		assert_true(c->fix[0] != '\0');
		assert_true(c->why[0] != '\0');
	}
}

static void everything_in_place(void **state)
{
	struct info_report *r = good_machine();

	(void)state;
	info_run_checks(r);
	assert_int_equal(r->nchecks, 13);
	expect(r, "devices", "", INFO_OK, "1 ConnectX and 1 software NIC opened");
	expect(r, "gpu", "", INFO_OK, "1 GPU; CUDA driver 13.0");
	expect(r, "topology", "0000:ca:00.0", INFO_OK, "closest ConnectX mlx5_0: PIX (best)");
	expect(r, "dmabuf", "", INFO_OK,
	       "usable: open kernel module 570.86.15, kernel 6.8.0-45-generic, libibverbs 1.14.50, GPU dma-buf export");
	expect(r, "peermem", "", INFO_OK, "not loaded; not needed: dmabuf is usable");
	expect(r, "gdrcopy", "", INFO_OK, "gdrdrv loaded, libgdrapi.so.2 found");
	expect(r, "peer-mapping-override", "", INFO_OK, "PeerMappingOverride=1 in /proc/driver/nvidia/params");
	expect(r, "bar1", "0000:ca:00.0", INFO_OK, "64 GiB >= planned 1 GiB");
	expect(r, "acs", "", INFO_OK, "no redirect on the 1 bridge between GPU and NIC");
	expect(r, "iommu", "", INFO_OK, "off (no IOMMU unit in /sys/class/iommu)");
	expect(r, "persistence", "0000:ca:00.0", INFO_OK, "enabled (nvidia-smi)");
	expect(r, "doorbell", "mlx5_0", INFO_OK, "GPU kernels can map and ring it (GPUDirect RDMA, peer mapping allowed)");
	expect(r, "doorbell", "swnic0", INFO_OK, "host memory mapped into the GPU (cuMemHostRegister): always usable");
	assert_int_equal(r->summary.ok, 13);
	assert_int_equal(r->summary.warn, 0);
	assert_int_equal(r->summary.fail, 0);
	assert_string_equal(r->summary.gpu_kernels, "yes (1 GPU)");
	assert_string_equal(r->summary.gpu_connectx, "yes (GPU doorbells)");
	assert_string_equal(r->summary.host_threads, "yes (ConnectX and software NIC)");
	free(r);
}

static void doorbell_fallbacks(void **state)
{
	struct info_report *r = good_machine();

	(void)state;
	r->gpus[0].gdr = INFO_NO;
	info_run_checks(r);
	expect(r, "doorbell", "mlx5_0", INFO_WARN,
	       "GPU 0000:ca:00.0 reports no GPUDirect RDMA: handlers fall back to the CPU proxy "
	       "(DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY)");
	assert_string_equal(r->summary.gpu_connectx, "yes (doorbells through the CPU proxy)");

	r->gpus[0].gdr = INFO_YES;
	r->sys.peer_mapping_override = INFO_NO;
	r->sys.is_root = false;
	info_run_checks(r);
	expect(r, "doorbell", "mlx5_0", INFO_WARN,
	       "no peer mapping for this user (PeerMappingOverride unset, not root): handlers fall back to the CPU "
	       "proxy (DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY)");
	expect(r, "peer-mapping-override", "", INFO_WARN, "not set in the driver's RegistryDwords");
	r->sys.is_root = true; /* root maps without the override; the override check still warns */
	info_run_checks(r);
	expect(r, "doorbell", "mlx5_0", INFO_OK, "GPU kernels can map and ring it (GPUDirect RDMA, peer mapping allowed)");
	expect(r, "peer-mapping-override", "", INFO_WARN, "not set in the driver's RegistryDwords");
	free(r);
}

static void gpu_memory_registration(void **state)
{
	struct info_report *r = good_machine();

	(void)state;
	snprintf(r->sys.ibverbs_version, sizeof(r->sys.ibverbs_version), "1.14.43");
	info_run_checks(r);
	expect(r, "dmabuf", "", INFO_WARN, "not usable: libibverbs 1.14.43 is older than 1.14.44");
	assert_string_equal(find(r, "dmabuf", "")->fix, "install rdma-core 44 or newer (libibverbs1)");
	expect(r, "peermem", "", INFO_FAIL, "not loaded and dmabuf is not usable: the ConnectX cannot reach GPU memory");
	assert_string_equal(r->summary.gpu_connectx, "no (neither dmabuf nor nvidia-peermem)");
	assert_int_equal(r->summary.fail, 1);

	r->sys.peermem = true;
	info_run_checks(r);
	expect(r, "peermem", "", INFO_OK, "loaded");
	assert_string_equal(r->summary.gpu_connectx, "yes (GPU doorbells)");

	snprintf(r->sys.ibverbs_version, sizeof(r->sys.ibverbs_version), "1.14.44"); /* the minimum is enough */
	r->gpus[0].dmabuf = INFO_NO;
	snprintf(r->sys.kernel, sizeof(r->sys.kernel), "6.1.0-55-amd64");
	info_run_checks(r);
	expect(r, "dmabuf", "", INFO_WARN,
	       "not usable: kernel 6.1.0-55-amd64 is older than 6.2; GPU 0000:ca:00.0 does not support dma-buf export");
	assert_string_equal(find(r, "dmabuf", "")->fix,
			    "boot Linux 6.2 or newer; use the open kernel module of a recent driver (515 or newer)");
	free(r);
}

static void placement_acs_iommu_persistence_bar1(void **state)
{
	struct info_report *r = good_machine();

	(void)state;
	r->pairs[0].topo = INFO_TOPO_PHB;
	r->pairs[0].bridges[0].acs_ctl = 0x0024; /* ReqRedir, EgressCtrl */
	r->sys.iommu_active = true;
	snprintf(r->sys.iommu_src, sizeof(r->sys.iommu_src), "turned on by the kernel command line");
	r->gpus[0].persistence = INFO_NO;
	r->gpus[0].bar1_bytes = 256ull << 20;
	info_run_checks(r);
	expect(r, "topology", "0000:ca:00.0", INFO_OK,
	       "closest ConnectX mlx5_0: PHB (acceptable: through the host bridge)");
	expect(r, "acs", "", INFO_WARN, "redirect set on 0000:c8:00.0 (ReqRedir+ EgressCtrl+)");
	assert_string_equal(find(r, "acs", "")->fix,
			    "sudo setpci -s 0000:c8:00.0 ECAP_ACS+0x6.w=0000; better: disable ACS in the BIOS");
	expect(r, "iommu", "", INFO_WARN, "on and translating (turned on by the kernel command line)");
	expect(r, "persistence", "0000:ca:00.0", INFO_WARN, "disabled (nvidia-smi)");
	expect(r, "bar1", "0000:ca:00.0", INFO_WARN, "256 MiB < planned 1 GiB");

	r->sys.iommu_pt = true;
	r->pairs[0].topo = INFO_TOPO_SYS;
	r->pairs[0].bridges[0].acs = INFO_ACS_UNREADABLE;
	r->gpus[0].bar1_bytes = 0;
	info_run_checks(r);
	expect(r, "iommu", "", INFO_OK, "on, passthrough (iommu=pt): device DMA is not translated");
	expect(r, "topology", "0000:ca:00.0", INFO_WARN, "closest ConnectX mlx5_0: SYS (avoid)");
	expect(r, "acs", "", INFO_WARN, "unknown (needs root) on 0000:c8:00.0");
	expect(r, "bar1", "0000:ca:00.0", INFO_WARN, "size unknown (no BAR1 in the sysfs resource file); planned 1 GiB");

	r->pairs[0].topo = INFO_TOPO_UNKNOWN;
	r->pairs[0].nbridges = 0;
	info_run_checks(r);
	expect(r, "topology", "0000:ca:00.0", INFO_WARN, "PCIe path to mlx5_0 unknown (no sysfs device path)");
	expect(r, "acs", "", INFO_OK, "no PCIe bridge between GPU and NIC");
	free(r);
}

static void devices(void **state)
{
	struct info_report *r = good_machine();

	(void)state;
	r->devs[0].opened = false;
	snprintf(r->devs[0].error, sizeof(r->devs[0].error), "cannot open a context: Driver error");
	info_run_checks(r);
	expect(r, "devices", "mlx5_0", INFO_FAIL, "mlx5_0 cannot be opened: cannot open a context: Driver error");
	assert_string_equal(r->summary.host_threads, "yes (software NIC)");
	assert_string_equal(r->summary.gpu_connectx, "no (no ConnectX opened)");

	r->ndevs = 0;
	r->nnics = 0;
	r->npairs = 0;
	info_run_checks(r);
	expect(r, "devices", "", INFO_FAIL, "no device");
	expect(r, "doorbell", "", INFO_WARN, "no device");
	expect(r, "topology", "", INFO_WARN, "no ConnectX with a PCI function (the software NIC has no PCIe path): nothing "
					    "to place");
	assert_string_equal(r->summary.host_threads, "no (no device)");
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(everything_in_place),
		cmocka_unit_test(doorbell_fallbacks),
		cmocka_unit_test(gpu_memory_registration),
		cmocka_unit_test(placement_acs_iommu_persistence_bar1),
		cmocka_unit_test(devices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
