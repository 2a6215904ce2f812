/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pieces of the software NIC's memory model shared by its files:
 *   swnic_mem.c         PD / UAR / umem / MR tables, key checks
 *   swnic_mem_probe.c   registration checks of host memory
 */
#ifndef OGDA_SWNIC_MEM_INT_H_
#define OGDA_SWNIC_MEM_INT_H_

#include "doca_error.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Checks that every page of host range [addr, addr + len) is mapped readable (and
 * writable when writable is true). DOCA_ERROR_INVALID_VALUE (logged, naming what and the
 * first address that fails) when not: the EFAULT of ibv_reg_mr. Without /proc the check
 * cannot be made: one warning, and DOCA_SUCCESS.
 */
doca_error_t swnic_mem_probe_host(const void *addr, size_t len, bool writable, const char *what);

#endif /* OGDA_SWNIC_MEM_INT_H_ */
