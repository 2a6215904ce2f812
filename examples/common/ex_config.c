/* SPDX-License-Identifier: BSD-3-Clause */
#include "ex_config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sample_args.h"
#include "sample_util.h"

enum opt_id {
	OPT_CLIENT,
	OPT_DEVICE,
	OPT_GPU,
	OPT_SCOPE,
	OPT_ITERS,
	OPT_GID_INDEX,
	OPT_HANDLER,
	OPT_DBR_MODE,
	OPT_PORT,
	OPT_SIZE,
	OPT_MIN_SIZE,
	OPT_MAX_SIZE,
	OPT_BLOCKS,
	OPT_THREADS,
	OPT_JSON,
	OPT_HOST_THREADS,
	OPT_TIMEOUT,
	OPT_LOG_LEVEL,
	OPT_HELP,
	OPT_VERSION,
};

static const struct sample_opt options[] = {
	{OPT_CLIENT, "-c", "--client", "<server IP>", "run as the client of this server (absent: run as the server)"},
	{OPT_DEVICE, "-d", "--device", "<device>", "RDMA device, e.g. mlx5_0 or swnic0 (default: the first)"},
	{OPT_GPU, "-g", "--gpu", "<PCIe address>", "GPU to run on, e.g. 0000:17:00.0 (default: the first)"},
	{OPT_SCOPE, "-e", "--exec-scope", "<scope>", "device call scope: 0|thread, 1|warp, 2|block (default thread)"},
	{OPT_ITERS, "-i", "--iters", "<count>", "messages per size (round trips for latency examples)"},
	{OPT_GID_INDEX, "-l", "--gid-index", "<index>", "GID index (default 0)"},
	{OPT_HANDLER, "-p", "--nic-handler", "<handler>",
	 "who rings the doorbell: 0|auto, 1|cpu_proxy, 2|gpu_sm_db, 6|gpu_sm_bf, 10|gpu_sm_no_dbr"},
	{OPT_DBR_MODE, "-r", "--send-dbr-mode", "<mode>", "0|valid_dbr, 1|no_dbr_hw, 2|no_dbr_sw_emulated"},
	{OPT_PORT, NULL, "--port", "<port>", "out-of-band TCP port (default 2000; server: 0 picks a free one)"},
	{OPT_SIZE, "-s", "--size", "<bytes>", "one message size (K/M suffixes)"},
	{OPT_MIN_SIZE, NULL, "--min-size", "<bytes>", "smallest message size (powers of two up to --max-size)"},
	{OPT_MAX_SIZE, NULL, "--max-size", "<bytes>", "largest message size"},
	{OPT_BLOCKS, "-b", "--blocks", "<count>", "thread blocks (host threads: groups of threads)"},
	{OPT_THREADS, "-t", "--threads", "<count>", "threads per block"},
	{OPT_JSON, NULL, "--json", NULL, "print the results as one JSON object instead of the table"},
	{OPT_HOST_THREADS, NULL, "--host-threads", NULL, "run the data path on host threads even with a GPU"},
	{OPT_TIMEOUT, NULL, "--timeout", "<seconds>", "bound of every wait (default 60)"},
	{OPT_LOG_LEVEL, NULL, "--log-level", "<level>", "library log level: 10..70 as DOCA, or syslog 0..7"},
	{OPT_HELP, "-h", "--help", NULL, "print this help"},
	{OPT_VERSION, "-v", "--version", NULL, "print the version"},
};

struct named_value {
	const char *name;
	unsigned int value;
};

static const struct named_value scopes[] = {
	{"thread", DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD},
	{"warp", DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP},
	{"block", DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK},
};

static const struct named_value handlers[] = {
	{"auto", DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO},
	{"cpu_proxy", DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY},
	{"gpu_sm_db", DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB},
	{"gpu_sm_bf", DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF},
	{"gpu_sm_no_dbr", DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR},
};

static const struct named_value dbr_modes[] = {
	{"valid_dbr", DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR},
	{"no_dbr_hw", DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW},
	{"no_dbr_sw_emulated", DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED},
};

#define NV_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *nv_name(const struct named_value *t, size_t n, unsigned int v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return "?";
}

/* A table entry by name (any case) or by its number as DOCA's examples take it. */
static int nv_parse(const char *opt, const char *s, const struct named_value *t, size_t n, unsigned int *out)
{
	uint64_t v;
	char list[160] = "";

	for (size_t i = 0; i < n; i++) {
		if (strcasecmp(s, t[i].name) == 0) {
			*out = t[i].value;
			return 0;
		}
	}
	if (s[0] >= '0' && s[0] <= '9' && sample_parse_u64(opt, s, 0, 255, 0, &v) == 0) {
		for (size_t i = 0; i < n; i++) {
			if (t[i].value == v) {
				*out = t[i].value;
				return 0;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t used = strlen(list);

		snprintf(list + used, sizeof(list) - used, "%s%u|%s", i ? ", " : "", t[i].value, t[i].name);
	}
	sample_err("%s: '%s' is not one of %s", opt, s, list);
	return -1;
}

static int parse_count(const char *opt, const char *s, uint64_t max, uint32_t *out)
{
	uint64_t v;

	if (sample_parse_u64(opt, s, 1, max, 0, &v) != 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_size(const char *opt, const char *s, uint64_t *out)
{
	if (sample_parse_u64(opt, s, 1, EX_MAX_SIZE, 1, out) != 0)
		return -1;
	if ((*out & (*out - 1)) != 0) {
		sample_err("%s: %s is not a power of two", opt, s);
		return -1;
	}
	return 0;
}

struct parse_state {
	struct ex_config *cfg;
	int done; /* --help / --version handled */
};

static int handle_run_param(int id, const char *opt, const char *value, struct ex_config *cfg)
{
	const struct ex_spec *spec = cfg->spec;
	unsigned int v;

	switch (id) {
	case OPT_SCOPE:
		if (!spec->scope_option) {
			sample_err("%s: %s has no scope option (its device code fixes how threads post)", opt, spec->name);
			return -1;
		}
		if (nv_parse(opt, value, scopes, NV_COUNT(scopes), &v) != 0)
			return -1;
		cfg->scope = (enum doca_gpu_dev_verbs_exec_scope)v;
		cfg->explicit_run |= EX_RUN_SCOPE;
		return 0;
	case OPT_ITERS:
		cfg->explicit_run |= EX_RUN_ITERS;
		return parse_count(opt, value, EX_MAX_ITERS, &cfg->iters);
	case OPT_SIZE:
	case OPT_MIN_SIZE:
	case OPT_MAX_SIZE:
		if (spec->fixed_size) {
			sample_err("%s: %s moves 8-byte atomics; it has no size option", opt, spec->name);
			return -1;
		}
		cfg->explicit_run |= EX_RUN_SIZES;
		if (id == OPT_SIZE) {
			if (parse_size(opt, value, &cfg->min_size) != 0)
				return -1;
			cfg->max_size = cfg->min_size;
			return 0;
		}
		return parse_size(opt, value, id == OPT_MIN_SIZE ? &cfg->min_size : &cfg->max_size);
	case OPT_BLOCKS:
		cfg->explicit_run |= EX_RUN_BLOCKS;
		return parse_count(opt, value, EX_MAX_BLOCKS, &cfg->blocks);
	case OPT_THREADS:
		cfg->explicit_run |= EX_RUN_THREADS;
		return parse_count(opt, value, spec->max_threads, &cfg->threads);
	default:
		return -1;
	}
}

static int handle(int id, const char *opt, const char *value, void *arg)
{
	struct parse_state *st = arg;
	struct ex_config *cfg = st->cfg;
	uint64_t v;
	unsigned int e;

	switch (id) {
	case OPT_CLIENT:
		cfg->server_ip = value;
		return 0;
	case OPT_DEVICE:
		cfg->device = value;
		return 0;
	case OPT_GPU:
		cfg->gpu_bus_id = value;
		return 0;
	case OPT_GID_INDEX:
		if (sample_parse_u64(opt, value, 0, 255, 0, &v) != 0)
			return -1;
		cfg->gid_index = (uint32_t)v;
		return 0;
	case OPT_HANDLER:
		if (nv_parse(opt, value, handlers, NV_COUNT(handlers), &e) != 0)
			return -1;
		cfg->handler = (enum doca_gpu_dev_verbs_nic_handler)e;
		return 0;
	case OPT_DBR_MODE:
		if (nv_parse(opt, value, dbr_modes, NV_COUNT(dbr_modes), &e) != 0)
			return -1;
		cfg->dbr_mode = (enum doca_gpu_verbs_send_dbr_mode_ext)e;
		return 0;
	case OPT_PORT:
		if (sample_parse_u64(opt, value, 0, 65535, 0, &v) != 0)
			return -1;
		cfg->port = (uint16_t)v;
		return 0;
	case OPT_JSON:
		cfg->json = true;
		return 0;
	case OPT_HOST_THREADS:
		cfg->host_threads = true;
		return 0;
	case OPT_TIMEOUT:
		if (sample_parse_u64(opt, value, 1, 3600, 0, &v) != 0)
			return -1;
		cfg->timeout_s = (uint32_t)v;
		return 0;
	case OPT_LOG_LEVEL:
		return sample_apply_log_level(opt, value);
	case OPT_HELP:
		sample_args_usage(stdout, "[-c <server IP>] [options]", options, NV_COUNT(options));
		printf("\n%s\n", cfg->spec->what);
		st->done = 1;
		return 0;
	case OPT_VERSION:
		sample_print_version();
		st->done = 1;
		return 0;
	default:
		return handle_run_param(id, opt, value, cfg);
	}
}

static int check_config(const struct ex_config *cfg)
{
	if (cfg->min_size > cfg->max_size) {
		sample_err("--min-size %llu is larger than --max-size %llu", (unsigned long long)cfg->min_size,
			   (unsigned long long)cfg->max_size);
		return -1;
	}
	if (cfg->server_ip != NULL && cfg->port == 0) {
		sample_err("--port 0 is for a server; a client needs the server's port");
		return -1;
	}
	return 0;
}

int ex_config_parse(const struct ex_spec *spec, int argc, char **argv, struct ex_config *cfg)
{
	struct parse_state st = {cfg, 0};

	memset(cfg, 0, sizeof(*cfg));
	cfg->spec = spec;
	cfg->handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO;
	cfg->dbr_mode = DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR;
	cfg->scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD;
	cfg->iters = spec->iters;
	cfg->min_size = spec->min_size;
	cfg->max_size = spec->max_size;
	cfg->port = EX_DEFAULT_PORT;
	cfg->timeout_s = 60;
	if (sample_args_parse(argc, argv, options, NV_COUNT(options), handle, &st) != 0)
		return -1;
	if (st.done)
		return 1;
	return check_config(cfg);
}

int ex_config_check_run_bytes(uint64_t blocks, uint64_t threads, uint64_t max_size)
{
	uint64_t slots, bytes;

	if (__builtin_mul_overflow(blocks, threads, &slots) || __builtin_mul_overflow(slots, max_size, &bytes) ||
	    bytes > EX_MAX_RUN_BYTES) {
		sample_err("%llu x %llu threads x %llu-byte messages need more than %llu bytes of buffer (the bound "
			   "of blocks x threads x max size)",
			   (unsigned long long)blocks, (unsigned long long)threads, (unsigned long long)max_size,
			   (unsigned long long)EX_MAX_RUN_BYTES);
		return -1;
	}
	return 0;
}

uint32_t ex_config_nsizes(const struct ex_config *cfg)
{
	uint32_t n = 0;

	for (uint64_t s = cfg->min_size; s <= cfg->max_size && n < EX_MAX_SIZES; s <<= 1)
		n++;
	return n;
}

uint64_t ex_config_size(const struct ex_config *cfg, uint32_t i)
{
	return cfg->min_size << i;
}

const char *ex_scope_name(enum doca_gpu_dev_verbs_exec_scope scope)
{
	return nv_name(scopes, NV_COUNT(scopes), scope);
}

const char *ex_handler_name(enum doca_gpu_dev_verbs_nic_handler h)
{
	return nv_name(handlers, NV_COUNT(handlers), h);
}

const char *ex_dbr_mode_name(enum doca_gpu_verbs_send_dbr_mode_ext m)
{
	return nv_name(dbr_modes, NV_COUNT(dbr_modes), m);
}
