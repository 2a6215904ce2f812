/* SPDX-License-Identifier: BSD-3-Clause */
/* opengda-info: helpers shared by the check files (checks.c, checks_pcie.c). */
#ifndef OGDA_TOOLS_INFO_CHECKS_PRIV_H_
#define OGDA_TOOLS_INFO_CHECKS_PRIV_H_

#include "info.h"

#include <stdbool.h>
#include <stddef.h>

/* A new check (a scratch one once the table is full, so callers never test for NULL). */
struct info_check *info_check_add(struct info_report *r, const char *id, const char *title, const char *subject,
				  enum info_status status);
void info_check_finding(struct info_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void info_check_advice(struct info_check *c, const char *fix, const char *why);

/* Appends to a NUL-terminated buffer, cutting at its end. */
void info_appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Facts several checks share. */
int info_cuda_gpu_count(const struct info_report *r);  /* GPUs the CUDA driver reports */
bool info_has_connectx(const struct info_report *r);   /* in sysfs or offered by the library */
bool info_dmabuf_usable(const struct info_report *r);  /* every condition of the dmabuf check holds */
bool info_gpu_memory_reachable(const struct info_report *r); /* dmabuf usable or nvidia-peermem loaded */

/* The checks of checks_pcie.c, in report order. */
void info_check_topology(struct info_report *r);
void info_check_bar1(struct info_report *r);
void info_check_acs(struct info_report *r);
void info_check_iommu(struct info_report *r);
void info_check_persistence(struct info_report *r);
void info_check_doorbell(struct info_report *r);

#endif /* OGDA_TOOLS_INFO_CHECKS_PRIV_H_ */
