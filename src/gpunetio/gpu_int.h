/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the GPU handle files: gpu.c, gpu_mem.c, gpu_hostmap.c, gpu_uar.c. */
#ifndef OGDA_GPUNETIO_GPU_INT_H_
#define OGDA_GPUNETIO_GPU_INT_H_

#include "gpunetio/gpunetio_priv.h"

#include <stddef.h>
#include <stdint.h>

/* The host page size (sysconf), the unit of pinning and of alignment 0. */
size_t ogda_gpu_host_page_size(void);

/* Bytes needed for a normalised bus id "dddd:bb:dd.f" (the domain may be longer than 4 digits). */
#define OGDA_GPU_BUS_ID_LEN 32

/*
 * Parses "[domain:]bus:device.function" (hexadecimal, any case) and writes it as
 * "%04x:%02x:%02x.%x". DOCA_ERROR_INVALID_VALUE for anything else (logged).
 */
doca_error_t ogda_gpu_bus_id_normalise(const char *in, char out[OGDA_GPU_BUS_ID_LEN]);

#ifdef OGDA_HAVE_CUDA_H
#include "core/cuda_drv.h"

/* The driver's name for @rc, for log lines. */
const char *ogda_gpu_cu_err(const struct ogda_cuda_drv *drv, CUresult rc);

/* The driver, with the GPU handle's context made current on the calling thread (not for host handles). */
doca_error_t ogda_gpu_drv_enter(const struct doca_gpu *gpu, const struct ogda_cuda_drv **drv);
#endif

#endif /* OGDA_GPUNETIO_GPU_INT_H_ */
