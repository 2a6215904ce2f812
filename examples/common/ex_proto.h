/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The examples' out-of-band messages, carried in sample_oob frames (magic "OGDS", version,
 * type, length; big-endian). Each decoder checks the payload's fields and says which one is
 * wrong; the hello also carries EX_PROTO_VERSION and the example's id, so a client of another
 * example or another release is refused by name.
 */
#ifndef EX_PROTO_H_
#define EX_PROTO_H_

#include <stdbool.h>
#include <stdint.h>

#include "doca_verbs.h"
#include "ex_config.h"

#define EX_PROTO_VERSION 1u

enum ex_msg_type {
	EX_MSG_HELLO = 0x100,  /* client -> server: which example, run parameters */
	EX_MSG_SETUP,          /* both ways: QP address and data buffer */
	EX_MSG_STEP_BEGIN,     /* client -> server */
	EX_MSG_STEP_READY,     /* server -> client */
	EX_MSG_STEP_DONE,      /* client -> server: status, counts, time */
	EX_MSG_STEP_RESULT,    /* server -> client: verdict */
	EX_MSG_BYE,            /* client -> server: the run is over */
	EX_MSG_ERROR,          /* either way: why this side stops */
};

struct ex_hello {
	uint16_t proto;
	uint16_t example_id;
	uint64_t min_size, max_size;
	uint32_t iters, blocks, threads;
	uint8_t scope;
	uint64_t seed;
};

struct ex_setup {
	uint32_t qpn;
	uint32_t psn;
	struct doca_verbs_gid gid;
	uint16_t lid;
	uint8_t mtu; /* enum doca_verbs_mtu_size of the sender's port */
	uint64_t addr;
	uint32_t rkey;
	uint64_t len;
};

struct ex_step_msg {
	uint32_t row;
	uint8_t timed;
	int32_t status;    /* STEP_DONE: 0 or the device error; STEP_RESULT: 0 ok, 1 failed */
	uint64_t iters;    /* STEP_DONE */
	uint32_t threads;  /* STEP_DONE */
	uint64_t ns;       /* STEP_DONE */
	char text[256];    /* STEP_DONE / STEP_RESULT: why it failed */
};

/*
 * Whether a hello's run parameters are within the bounds every example shares (ex_config.h):
 * sizes, iterations, geometry, scope, and blocks x threads x max size within EX_MAX_RUN_BYTES.
 * Returns 0, or -1 with an error line. ex_recv_hello() applies it to what it decodes.
 */
int ex_hello_check(const struct ex_hello *h);

/* Each returns 0, or -1 with an error line (bounded by timeout_ms). */
int ex_send_hello(int fd, const struct ex_hello *h, int timeout_ms);
int ex_recv_hello(int fd, struct ex_hello *h, int timeout_ms);
int ex_send_setup(int fd, const struct ex_setup *s, int timeout_ms);
int ex_recv_setup(int fd, struct ex_setup *s, int timeout_ms);
int ex_send_step(int fd, uint16_t type, const struct ex_step_msg *m, int timeout_ms);
/* Receives a step message of the given type for (row, timed); an ERROR from the peer is printed. */
int ex_recv_step(int fd, uint16_t type, uint32_t row, bool timed, struct ex_step_msg *m, int timeout_ms);
int ex_send_bye(int fd, int timeout_ms);
int ex_recv_bye(int fd, int timeout_ms);
/* Tells the peer why this side stops (best effort, no error lines). */
void ex_send_error(int fd, const char *why);

/* The name of a message type, for error lines. */
const char *ex_msg_name(uint16_t type);

#endif /* EX_PROTO_H_ */
