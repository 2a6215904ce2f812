/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file opengda.h
 * @brief OpenGDA extensions to the DOCA API: library version and logging control.
 *
 * Functions that DOCA does not define carry the `opengda_` prefix.
 */
#ifndef OPENGDA_H_
#define OPENGDA_H_

#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Library version as major<<16 | minor<<8 | patch (DOCA's encoding). */
uint32_t opengda_version(void);

/** @brief Library version as a string, e.g. "0.1.0". Never NULL. */
const char *opengda_version_string(void);

/**
 * @brief Sets the logging threshold (syslog levels: 0 EMERG ... 3 ERR ... 7 DEBUG).
 *
 * Overrides DOCA_GPUNETIO_LOG for the rest of the process. Messages are written to
 * stderr, one line each: UTC time, level, file:line, function, message.
 *
 * @param level  0..7.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE outside 0..7 (level unchanged).
 */
doca_error_t opengda_log_set_level(int level);

/**
 * @brief Current logging threshold.
 *
 * The first call reads DOCA_GPUNETIO_LOG; unset means 3 (errors only). This differs from
 * DOCA, whose default is 0: OpenGDA reports every error it returns unless told not to.
 *
 * @return 0..7.
 */
int opengda_log_get_level(void);

#ifdef __cplusplus
}
#endif

#endif /* OPENGDA_H_ */
