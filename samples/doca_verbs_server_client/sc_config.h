/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/* doca_verbs_server_client: what the command line asks for. */
#ifndef SC_CONFIG_H_
#define SC_CONFIG_H_

#include <stdbool.h>
#include <stdint.h>

#define SC_DEFAULT_PORT 18515
#define SC_DEFAULT_SIZE 64
#define SC_DEFAULT_TIMEOUT_S 10
#define SC_MAX_SIZE (1u << 30)    /* bytes per message */
#define SC_MAX_ITERS 4096u        /* each iteration has its own WQE and buffer slot */
#define SC_MAX_TOTAL (1ull << 30) /* size * iters: the registered buffer */
/* The server waits this many timeouts for a client to connect. */
#define SC_ACCEPT_TIMEOUTS 6

enum sc_op {
	SC_OP_SEND = 0,
	SC_OP_WRITE = 1,
	SC_OP_READ = 2,
};

struct sc_config {
	const char *server_ip; /* -c: client of this server; NULL: server */
	const char *device;    /* -d; NULL: the first device */
	uint32_t gid_index;
	enum sc_op op;
	uint32_t size;
	uint32_t iters;
	bool burst;
	uint32_t qp_type;      /* DOCA_VERBS_QP_TYPE_RC / _UC */
	uint16_t port;
	int timeout_ms;
	bool help;
	bool version;
};

/* "send", "write", "read". */
const char *sc_op_name(enum sc_op op);
/* "RC", "UC". */
const char *sc_qp_type_name(uint32_t qp_type);

/*
 * Fills cfg from the command line (defaults first). Returns 0, or -1 after an error line
 * (the caller exits with SAMPLE_EXIT_USAGE).
 */
int sc_parse_args(int argc, char **argv, struct sc_config *cfg);
/* The usage text. */
void sc_print_usage(void);

#endif /* SC_CONFIG_H_ */
