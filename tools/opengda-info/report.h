/* SPDX-License-Identifier: BSD-3-Clause */
/* opengda-info: one function per report section, each printing to stdout. */
#ifndef OGDA_TOOLS_INFO_REPORT_H_
#define OGDA_TOOLS_INFO_REPORT_H_

void report_build(void);
void report_libs(void);
void report_gpus(void);
void report_rdma(void);

/* "  label ........ value" with aligned values. */
void report_kv(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
