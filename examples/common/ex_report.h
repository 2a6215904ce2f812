/* SPDX-License-Identifier: BSD-3-Clause */
/* What the examples print: the run's header, the perftest-style table, and the JSON document. */
#ifndef EX_REPORT_H_
#define EX_REPORT_H_

#include "ex_run.h"

/* Fills r->m1 / r->m2 from its counts and time, as the example's metric says. */
void ex_row_compute(const struct ex_ops *ops, struct ex_row *r);

/* Header lines: role, device, executor, QP handler, geometry (stdout; not in JSON mode). */
void ex_report_header(const struct ex_ctx *x);
/* The table's title lines and one line per row. */
void ex_report_table_head(const struct ex_ctx *x);
void ex_report_row(const struct ex_ctx *x, uint32_t row);
void ex_report_table_end(const struct ex_ctx *x);

/* The whole run as one JSON object on stdout; ok says whether validation succeeded. */
void ex_report_json(const struct ex_ctx *x, bool ok, const char *error);

#endif /* EX_REPORT_H_ */
