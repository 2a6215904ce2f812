/* SPDX-License-Identifier: BSD-3-Clause */
#include "ex_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "opengda.h"
#include "sample_util.h"

#define RULE "-------------------------------------------------------------------------------------"

void ex_row_compute(const struct ex_ops *ops, struct ex_row *r)
{
	const double ns = r->ns > 0 ? (double)r->ns : 1.0;
	const double n = r->iters > 0 ? (double)r->iters : 1.0;

	switch (ops->metric) {
	case EX_METRIC_PINGPONG:
		r->m1 = ns / (2.0 * n) / 1e3;
		r->m2 = ns / n / 1e3;
		break;
	case EX_METRIC_RTT_RATE:
		r->m1 = ns * (double)(r->threads ? r->threads : 1) / n / 1e3;
		r->m2 = n * 1e3 / ns;
		break;
	default:
		r->m1 = (double)r->size * n * 8.0 / ns;
		r->m2 = n * 1e3 / ns;
		break;
	}
}

static const char *m1_title(const struct ex_ops *ops)
{
	return ops->metric == EX_METRIC_PINGPONG ? "Unidirectional[usec]"
	       : ops->metric == EX_METRIC_RTT_RATE ? "Avg latency[usec]"
						 : "BW average[Gb/s]";
}

static const char *m2_title(const struct ex_ops *ops)
{
	return ops->metric == EX_METRIC_PINGPONG ? "Bidirectional[usec]" : "MsgRate[Mpps]";
}

static const char *m1_key(const struct ex_ops *ops)
{
	return ops->metric == EX_METRIC_PINGPONG ? "unidirectional_usec"
	       : ops->metric == EX_METRIC_RTT_RATE ? "avg_latency_usec"
						 : "bw_gbps";
}

static const char *m2_key(const struct ex_ops *ops)
{
	return ops->metric == EX_METRIC_PINGPONG ? "bidirectional_usec" : "msg_rate_mpps";
}

static const char *executor(const struct ex_ctx *x)
{
	return x->cuda ? "CUDA kernels" : "host threads";
}

void ex_report_header(const struct ex_ctx *x)
{
	printf("%s (OpenGDA %s) %s\n", x->ops->spec->name, opengda_version_string(),
	       x->server ? "server" : "client");
	printf("  device        %s (port 1, GID index %u, MTU %u)\n", x->dev.name, x->cfg.gid_index,
	       sample_mtu_bytes(x->dev.port.active_mtu));
	if (x->cuda)
		printf("  executor      CUDA kernels on GPU %d %s (%s)\n", x->gpu_desc.ordinal, x->gpu_desc.name,
		       x->gpu_desc.bus_id);
	else
		printf("  executor      host threads (%s)\n", x->exec_why);
	printf("  QP            handler %s, send DBR mode %s, %u WQEs\n", ex_handler_name(x->qp->nic_handler),
	       ex_dbr_mode_name(x->qp->send_dbr_mode_ext), x->sq_nwqe);
	printf("  buffer        %zu bytes, registered %s\n", x->buf.len, x->buf.reg != NULL ? x->buf.reg : "-");
	fflush(stdout);
}

void ex_report_table_head(const struct ex_ctx *x)
{
	printf("  geometry      %u x %u threads, %s scope\n", x->blocks, x->threads, ex_scope_name(x->cfg.scope));
	puts(RULE);
	if (x->ops->row_title != NULL)
		printf(" %-12s", x->ops->row_title);
	printf(" %-10s %-12s %-22s %-20s %s\n", "#bytes", "#iterations", m1_title(x->ops), m2_title(x->ops),
	       "Kernel[ms]");
	fflush(stdout);
}

void ex_report_row(const struct ex_ctx *x, uint32_t row)
{
	const struct ex_row *r = &x->rows[row];

	if (x->ops->row_title != NULL)
		printf(" %-12s", x->ops->row_label(row));
	printf(" %-10" PRIu64 " %-12" PRIu64 " %-22.3f %-20.3f %.3f\n", r->size, r->iters, r->m1, r->m2,
	       (double)r->ns / 1e6);
	fflush(stdout);
}

void ex_report_table_end(const struct ex_ctx *x)
{
	(void)x;
	puts(RULE);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_kv_str(const char *k, const char *v, bool comma)
{
	printf("  \"%s\": ", k);
	json_string(v);
	puts(comma ? "," : "");
}

void ex_report_json(const struct ex_ctx *x, bool ok, const char *error)
{
	const char *sep = "";
	uint32_t i;

	printf("{\n");
	json_kv_str("example", x->ops->spec->name, true);
	json_kv_str("version", opengda_version_string(), true);
	json_kv_str("role", x->server ? "server" : "client", true);
	json_kv_str("device", x->dev.name, true);
	json_kv_str("executor", executor(x), true);
	json_kv_str("gpu", x->cuda ? x->gpu_desc.name : "", true);
	json_kv_str("gpu_bus_id", x->cuda ? x->gpu_desc.bus_id : "", true);
	json_kv_str("host_threads_reason", x->cuda ? "" : x->exec_why, true);
	json_kv_str("nic_handler", x->qp != NULL ? ex_handler_name(x->qp->nic_handler) : "", true);
	json_kv_str("send_dbr_mode", x->qp != NULL ? ex_dbr_mode_name(x->qp->send_dbr_mode_ext) : "", true);
	json_kv_str("scope", ex_scope_name(x->cfg.scope), true);
	printf("  \"blocks\": %u,\n  \"threads\": %u,\n", x->blocks, x->threads);
	printf("  \"rows\": [");
	for (i = 0; i < x->nrows; i++) {
		const struct ex_row *r = &x->rows[i];

		if (!r->done)
			continue;
		printf("%s\n    {", sep);
		sep = ",";
		if (x->ops->row_title != NULL) {
			printf("\"%s\": ", x->ops->row_title);
			json_string(x->ops->row_label(i));
			printf(", ");
		}
		printf("\"bytes\": %" PRIu64 ", \"iterations\": %" PRIu64 ", \"threads\": %u, \"%s\": %.6f, "
		       "\"%s\": %.6f, \"kernel_ms\": %.6f}",
		       r->size, r->iters, r->threads, m1_key(x->ops), r->m1, m2_key(x->ops), r->m2, (double)r->ns / 1e6);
	}
	printf("\n  ],\n");
	printf("  \"checked_bytes\": %" PRIu64 ",\n", x->checked_bytes);
	json_kv_str("validation", ok ? "successful" : "failed", true);
	json_kv_str("error", error != NULL ? error : "", false);
	printf("}\n");
	fflush(stdout);
}
