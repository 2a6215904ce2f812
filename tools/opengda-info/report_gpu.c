/* SPDX-License-Identifier: BSD-3-Clause */
#include "report.h"

#include "core/cuda_drv.h"

#include <stdio.h>

#ifdef OGDA_HAVE_CUDA_H
static int attr(const struct ogda_cuda_drv *drv, CUdevice dev, CUdevice_attribute a)
{
	int v = -1;

	if (drv->device_get_attribute(&v, a, dev) != CUDA_SUCCESS)
		return -1;
	return v;
}

static const char *yes_no(int v)
{
	return v < 0 ? "unknown" : (v ? "yes" : "no");
}

static void report_one_gpu(const struct ogda_cuda_drv *drv, int ordinal)
{
	char name[128] = "?";
	char bus[32] = "?";
	size_t mem = 0;
	CUdevice dev;

	if (drv->device_get(&dev, ordinal) != CUDA_SUCCESS) {
		report_kv("GPU", "%d: cuDeviceGet failed", ordinal);
		return;
	}
	drv->device_get_name(name, sizeof(name), dev);
	drv->device_get_pci_bus_id(bus, sizeof(bus), dev);
	drv->device_total_mem(&mem, dev);
	printf("  GPU %d: %s\n", ordinal, name);
	report_kv("  PCI bus id", "%s", bus);
	report_kv("  compute capability", "%d.%d", attr(drv, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
		  attr(drv, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
	report_kv("  memory", "%zu MiB", mem >> 20);
	report_kv("  dma-buf export", "%s", yes_no(attr(drv, dev, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED)));
	report_kv("  GPUDirect RDMA", "%s", yes_no(attr(drv, dev, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED)));
	report_kv("  RDMA write ordering", "%s",
		  attr(drv, dev, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING) > 0 ? "owner or stronger"
											 : "none");
}

void report_gpus(void)
{
	const struct ogda_cuda_drv *drv = NULL;
	int count = 0;
	int i;

	printf("GPUs\n");
	if (ogda_cuda_drv_get(&drv) != DOCA_SUCCESS) {
		report_kv("none", "%s", ogda_cuda_drv_status());
		report_kv("", "kernels cannot run here; the data path runs on host threads");
		return;
	}
	report_kv("driver", "%s", ogda_cuda_drv_status());
	if (drv->device_get_count(&count) != CUDA_SUCCESS || count == 0) {
		report_kv("none", "the CUDA driver reports no devices");
		return;
	}
	for (i = 0; i < count; i++)
		report_one_gpu(drv, i);
}
#else
void report_gpus(void)
{
	printf("GPUs\n");
	report_kv("none", "%s", ogda_cuda_drv_status());
}
#endif
