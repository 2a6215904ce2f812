/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * doca_verbs_server_client: the out-of-band messages (carried by sample_oob.h frames).
 *
 *   client -> server  HELLO  the client's QP, buffer and run parameters (and the pattern seed)
 *   server -> client  HELLO  the server's, echoing the seed
 *   server -> client  READY  receives posted / buffer filled: the client may start
 *   client -> server  DONE   the client's verdict
 *   server -> client  DONE   the server's verdict
 */
#ifndef SC_PROTO_H_
#define SC_PROTO_H_

#include <stdint.h>

#include "doca_verbs.h"
#include "sc_config.h"

enum sc_msg_type {
	SC_MSG_HELLO = 1,
	SC_MSG_READY = 2,
	SC_MSG_DONE = 3,
};

/* HELLO payload, 64 bytes big-endian: offsets in sc_proto.c. */
#define SC_HELLO_LEN 64u

struct sc_hello {
	uint64_t addr;     /* first byte of the registered buffer */
	uint32_t len;      /* its length */
	uint32_t rkey;
	uint32_t qpn;
	uint32_t psn;      /* first send PSN */
	struct doca_verbs_gid gid;
	uint16_t lid;
	uint8_t mtu;       /* enum doca_verbs_mtu_size: the port's active MTU */
	uint8_t link_layer;/* enum opengda_link_layer */
	uint8_t op;        /* enum sc_op */
	uint8_t qp_type;
	uint32_t size;
	uint32_t iters;
	uint64_t seed;
};

/* DONE payload: status (0 success), iterations verified, reason (NUL-terminated). */
#define SC_DONE_REASON_LEN 248u
#define SC_DONE_LEN (8u + SC_DONE_REASON_LEN)

struct sc_done {
	uint32_t status;
	uint32_t verified;
	char reason[SC_DONE_REASON_LEN];
};

void sc_hello_encode(const struct sc_hello *h, uint8_t out[SC_HELLO_LEN]);
void sc_hello_decode(const uint8_t in[SC_HELLO_LEN], struct sc_hello *h);
/*
 * Checks the peer's HELLO against this side's run. Returns 0, or -1 with an error line
 * that says what differs.
 */
int sc_hello_check(const struct sc_hello *peer, const struct sc_config *cfg, uint8_t link_layer, const char *peer_role);

void sc_done_encode(const struct sc_done *d, uint8_t out[SC_DONE_LEN]);
void sc_done_decode(const uint8_t in[SC_DONE_LEN], struct sc_done *d);

#endif /* SC_PROTO_H_ */
