/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_device.h
 * @brief The whole DOCA GPUNetIO device API in one include, for CUDA kernels (nvcc, C++17).
 *
 * device-code: yes
 */
#ifndef DOCA_GPUNETIO_DEVICE_H
#define DOCA_GPUNETIO_DEVICE_H

#include "device/doca_gpunetio_dev_verbs_common.cuh"
#include "device/doca_gpunetio_dev_verbs_cq.cuh"
#include "device/doca_gpunetio_dev_verbs_qp.cuh"
#include "device/doca_gpunetio_dev_verbs_onesided.cuh"
#include "device/doca_gpunetio_dev_verbs_counter.cuh"
#include "device/doca_gpunetio_dev_verbs_twosided.cuh"

#endif /* DOCA_GPUNETIO_DEVICE_H */
