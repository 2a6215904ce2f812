/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A client that sends an example server a hello no real client would: blocks x threads x max
 * size far over the bound (a 57-byte frame asking for 2^50 bytes of buffer). It then waits for
 * the server's answer, which must be an error frame: it prints it ("the peer stopped: ...")
 * and exits 1; any setup answer (the server accepted) exits 3.
 *
 *   hostile_hello <port> <example id>
 */
#include "ex_proto.h"
#include "sample_oob.h"
#include "sample_util.h"

#include <stdlib.h>
#include <string.h>

#define WAIT_MS 20000

int main(int argc, char **argv)
{
	struct ex_hello h;
	struct ex_setup s;
	int fd = -1, rc;

	sample_set_prog("hostile_hello");
	if (argc != 3) {
		sample_err("usage: hostile_hello <port> <example id>");
		return SAMPLE_EXIT_USAGE;
	}
	if (sample_oob_connect("127.0.0.1", (uint16_t)atoi(argv[1]), WAIT_MS, &fd) != 0)
		return SAMPLE_EXIT_FAILURE;
	memset(&h, 0, sizeof(h));
	h.proto = EX_PROTO_VERSION;
	h.example_id = (uint16_t)atoi(argv[2]);
	h.min_size = 1;
	/* Each field at the limit a server checks it against alone: 1024 x 1024 x 1 GiB = 2^50 bytes. */
	h.max_size = 1ull << 30;
	h.iters = 1024u * 1024u;
	h.blocks = 1024;
	h.threads = 1024;
	if (ex_send_hello(fd, &h, WAIT_MS) != 0) {
		sample_oob_close(&fd);
		return SAMPLE_EXIT_FAILURE;
	}
	rc = ex_recv_setup(fd, &s, WAIT_MS) == 0 ? 3 : SAMPLE_EXIT_FAILURE;
	sample_oob_close(&fd);
	return rc;
}
