/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/* doca_verbs_server_client: command-line flags (the DOCA sample's, plus --port and --timeout). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "doca_verbs.h"
#include "sample_args.h"
#include "sample_util.h"
#include "sc_config.h"

enum opt_id {
	OPT_CLIENT,
	OPT_DEVICE,
	OPT_GID_INDEX,
	OPT_OPER,
	OPT_SIZE,
	OPT_QP_TYPE,
	OPT_ITERS,
	OPT_BURST,
	OPT_PORT,
	OPT_TIMEOUT,
	OPT_LOG_LEVEL,
	OPT_HELP,
	OPT_VERSION,
};

static const struct sample_opt options[] = {
	{OPT_CLIENT, "-c", "--client", "<server IP>", "run as the client of this server (absent: run as the server)"},
	{OPT_DEVICE, "-d", "--device", "<IB device name>", "device to use (default: the first, see OPENGDA_DEVICE)"},
	{OPT_GID_INDEX, "-gid", "--gid-index", "<index>", "GID index (default 0)"},
	{OPT_OPER, "-ro", "--rdma-oper-type", "<send|write|read>", "RDMA operation (default send)"},
	{OPT_SIZE, "-s", "--buffer-size", "<bytes>", "bytes per message, K/M/G suffixes (default 64)"},
	{OPT_QP_TYPE, "-qt", "--qp-type", "<RC|UC>", "QP type (default RC; UC for send and write only)"},
	{OPT_ITERS, "-n", "--iters", "<count>", "number of messages (default 1, at most 4096)"},
	{OPT_BURST, "-b", "--send-burst", NULL, "client: post every message before polling any completion"},
	{OPT_PORT, NULL, "--port", "<port>", "out-of-band TCP port (default 18515; server: 0 picks a free one)"},
	{OPT_TIMEOUT, "-t", "--timeout", "<seconds>", "bound on every wait (default 10; the server waits 6x for a client)"},
	{OPT_LOG_LEVEL, "-l", "--log-level", "<level>", "library log level: 10..70 as DOCA, or syslog 0..7"},
	{OPT_HELP, "-h", "--help", NULL, "print this help"},
	{OPT_VERSION, "-v", "--version", NULL, "print the version"},
};

const char *sc_op_name(enum sc_op op)
{
	switch (op) {
	case SC_OP_SEND: return "send";
	case SC_OP_WRITE: return "write";
	case SC_OP_READ: return "read";
	default: return "?";
	}
}

const char *sc_qp_type_name(uint32_t qp_type)
{
	return qp_type == DOCA_VERBS_QP_TYPE_RC ? "RC" : qp_type == DOCA_VERBS_QP_TYPE_UC ? "UC" : "?";
}

static int handle(int id, const char *opt, const char *value, void *arg)
{
	struct sc_config *cfg = arg;
	uint64_t v;

	switch (id) {
	case OPT_CLIENT:
		cfg->server_ip = value;
		return 0;
	case OPT_DEVICE:
		cfg->device = value;
		return 0;
	case OPT_GID_INDEX:
		if (sample_parse_u64(opt, value, 0, 255, 0, &v) != 0)
			return -1;
		cfg->gid_index = (uint32_t)v;
		return 0;
	case OPT_OPER:
		if (strcasecmp(value, "send") == 0)
			cfg->op = SC_OP_SEND;
		else if (strcasecmp(value, "write") == 0)
			cfg->op = SC_OP_WRITE;
		else if (strcasecmp(value, "read") == 0)
			cfg->op = SC_OP_READ;
		else {
			sample_err("%s: '%s' is not send, write or read", opt, value);
			return -1;
		}
		return 0;
	case OPT_SIZE:
		if (sample_parse_u64(opt, value, 1, SC_MAX_SIZE, 1, &v) != 0)
			return -1;
		cfg->size = (uint32_t)v;
		return 0;
	case OPT_QP_TYPE:
		if (strcasecmp(value, "RC") == 0)
			cfg->qp_type = DOCA_VERBS_QP_TYPE_RC;
		else if (strcasecmp(value, "UC") == 0)
			cfg->qp_type = DOCA_VERBS_QP_TYPE_UC;
		else {
			sample_err("%s: '%s' is not RC or UC", opt, value);
			return -1;
		}
		return 0;
	case OPT_ITERS:
		if (sample_parse_u64(opt, value, 1, SC_MAX_ITERS, 0, &v) != 0)
			return -1;
		cfg->iters = (uint32_t)v;
		return 0;
	case OPT_BURST:
		cfg->burst = true;
		return 0;
	case OPT_PORT:
		if (sample_parse_u64(opt, value, 0, 65535, 0, &v) != 0)
			return -1;
		cfg->port = (uint16_t)v;
		return 0;
	case OPT_TIMEOUT:
		if (sample_parse_u64(opt, value, 1, 3600, 0, &v) != 0)
			return -1;
		cfg->timeout_ms = (int)v * 1000;
		return 0;
	case OPT_LOG_LEVEL:
		return sample_apply_log_level(opt, value);
	case OPT_HELP:
		cfg->help = true;
		return 0;
	case OPT_VERSION:
		cfg->version = true;
		return 0;
	default:
		return -1;
	}
}

int sc_parse_args(int argc, char **argv, struct sc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->op = SC_OP_SEND;
	cfg->size = SC_DEFAULT_SIZE;
	cfg->iters = 1;
	cfg->qp_type = DOCA_VERBS_QP_TYPE_RC;
	cfg->port = SC_DEFAULT_PORT;
	cfg->timeout_ms = SC_DEFAULT_TIMEOUT_S * 1000;
	if (sample_args_parse(argc, argv, options, sizeof(options) / sizeof(options[0]), handle, cfg) != 0)
		return -1;
	if (cfg->help || cfg->version)
		return 0;
	if (cfg->qp_type == DOCA_VERBS_QP_TYPE_UC && cfg->op == SC_OP_READ) {
		sample_err("UC QPs cannot do RDMA reads: use -qt RC, or -ro send / write");
		return -1;
	}
	if ((uint64_t)cfg->size * cfg->iters > SC_MAX_TOTAL) {
		sample_err("-s %u x -n %u is %llu bytes; at most %llu bytes may be registered", cfg->size, cfg->iters,
			   (unsigned long long)cfg->size * cfg->iters, (unsigned long long)SC_MAX_TOTAL);
		return -1;
	}
	if (cfg->server_ip != NULL && cfg->port == 0) {
		sample_err("--port 0 only makes sense for the server (the client needs the server's port)");
		return -1;
	}
	return 0;
}

void sc_print_usage(void)
{
	sample_args_usage(stdout, "[-c <server IP>] [options]", options, sizeof(options) / sizeof(options[0]));
	printf("\nStart the server first or second: the client retries its connection for --timeout seconds.\n"
	       "Both ends must be given the same -ro, -s, -n and -qt.\n"
	       "Exit status: 0 success, 1 failure (error, timeout, data mismatch, failed peer), 2 bad usage.\n");
}
