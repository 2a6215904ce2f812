/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The GPUNetIO Verbs examples' command line: the DOCA examples' flags (-c -d -g -e -i -l -p -r)
 * plus --port, message-size range, geometry, --json, --host-threads and --timeout.
 *
 * Run parameters (sizes, iterations, geometry, scope) are the client's: the server learns them
 * from the client's hello. A run parameter given to the server as well must match the client's.
 */
#ifndef EX_CONFIG_H_
#define EX_CONFIG_H_

#include <stdbool.h>
#include <stdint.h>

#include "doca_gpunetio_verbs_def.h"

#define EX_DEFAULT_PORT 2000
#define EX_MAX_SIZES 32

/* Bounds of the run parameters, on the command line and in a client's hello. */
#define EX_MAX_SIZE (1ull << 30) /* one message */
#define EX_MAX_BLOCKS 1024u
#define EX_MAX_THREADS 1024u     /* per block; an example may allow fewer (ex_spec.max_threads) */
#define EX_MAX_ITERS (1u << 24)
/*
 * blocks x threads x the largest message: the bytes of the slots each side registers. Bounded
 * so that neither a command line nor a peer's hello can make a side allocate more than this.
 */
#define EX_MAX_RUN_BYTES (1ull << 30)

/* Run parameters a server may be given explicitly (bits of ex_config.explicit_run). */
enum ex_run_param {
	EX_RUN_SIZES = 1u << 0,
	EX_RUN_ITERS = 1u << 1,
	EX_RUN_BLOCKS = 1u << 2,
	EX_RUN_THREADS = 1u << 3,
	EX_RUN_SCOPE = 1u << 4,
};

/* What an example is and the defaults it starts from. */
struct ex_spec {
	const char *name;            /* "gpunetio_verbs_put_bw" */
	uint16_t id;                 /* sent in the hello; both ends must run the same example */
	const char *what;            /* one line for --help */
	bool latency;                /* table in microseconds instead of Gb/s */
	bool server_runs_kernel;     /* the server executes device code too (ping-pong) */
	bool scope_option;           /* -e is meaningful */
	bool fixed_size;             /* the message size is not an option (atomics: 8 bytes) */
	uint64_t min_size, max_size; /* default size range (powers of two) */
	uint32_t iters;              /* default -i */
	bool iters_split;            /* -i messages are shared evenly by all threads (a multiple of them) */
	uint32_t gpu_blocks, gpu_threads;   /* default geometry of CUDA kernels */
	uint32_t host_blocks, host_threads; /* default geometry on host threads */
	uint64_t max_threads;        /* most threads per block the example supports */
	uint16_t rq_nwqe;            /* receive queue WQEs of the QP (two-sided examples); 0: none */
	bool qp_group;               /* a QP group: the data QP and its core-direct companion (counters) */
};

struct ex_config {
	const struct ex_spec *spec;
	const char *server_ip;   /* -c: client of this server; NULL: server */
	const char *device;      /* -d; NULL: the first device */
	const char *gpu_bus_id;  /* -g; NULL: the first GPU */
	uint32_t gid_index;      /* -l */
	enum doca_gpu_dev_verbs_nic_handler handler;      /* -p */
	enum doca_gpu_verbs_send_dbr_mode_ext dbr_mode;   /* -r */
	enum doca_gpu_dev_verbs_exec_scope scope;         /* -e */
	uint32_t iters;          /* -i: messages per size (or round trips) */
	uint64_t min_size, max_size;
	uint32_t blocks, threads; /* 0: the example's default for the executor in use */
	uint16_t port;
	bool json;
	bool host_threads;       /* --host-threads: never launch CUDA kernels */
	uint32_t timeout_s;      /* bound of every wait */
	uint32_t explicit_run;   /* enum ex_run_param bits given on the command line */
};

/*
 * Parses argv into cfg (defaults from spec first). Returns 0 to run, 1 when --help or
 * --version was handled (exit 0), -1 after printing why the command line is not usable (exit 2).
 */
int ex_config_parse(const struct ex_spec *spec, int argc, char **argv, struct ex_config *cfg);

/*
 * Whether blocks x threads x max_size stays within EX_MAX_RUN_BYTES (computed without
 * overflow). Returns 0, or -1 after an error line naming the product and the bound.
 */
int ex_config_check_run_bytes(uint64_t blocks, uint64_t threads, uint64_t max_size);

/* Number of message sizes of the run and size i (powers of two from min_size). */
uint32_t ex_config_nsizes(const struct ex_config *cfg);
uint64_t ex_config_size(const struct ex_config *cfg, uint32_t i);

/* Names for output. */
const char *ex_scope_name(enum doca_gpu_dev_verbs_exec_scope scope);
const char *ex_handler_name(enum doca_gpu_dev_verbs_nic_handler h);
const char *ex_dbr_mode_name(enum doca_gpu_verbs_send_dbr_mode_ext m);

#endif /* EX_CONFIG_H_ */
