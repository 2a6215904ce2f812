/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_host.h
 * @brief Umbrella header of the host API: DOCA Verbs, GPUNetIO and its high-level helpers.
 */
#ifndef DOCA_GPUNETIO_HOST_H
#define DOCA_GPUNETIO_HOST_H

#include "doca_error.h"
#include "doca_verbs.h"
#include "doca_gpunetio.h"
#include "doca_gpunetio_high_level.h"
#include "opengda_gpunetio.h"

#endif /* DOCA_GPUNETIO_HOST_H */
