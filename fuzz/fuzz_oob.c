/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-band exchange decoders of the examples (examples/common/ex_proto.c) and the
 * samples (samples/common/sample_oob.c framing, samples/doca_verbs_server_client/sc_proto.c
 * payloads): what a peer, or anything else that connects to the listening port, sends
 * before the RDMA traffic.
 *
 * The receivers read from a socket, so the input is written into one end of a socketpair,
 * that end is shut down (the peer "closes"), and the receiver under test reads the other
 * end exactly as it reads a TCP connection. Input:
 *   byte 0      which receiver (see enum oob_target)
 *   bytes 1-4   ex_recv_step: the row expected (big-endian)
 *   byte 5      ex_recv_step: bit 0 = timed; sc_hello_check: this side's link layer
 *   the rest    the byte stream from the "peer"
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ex_proto.h"
#include "fuzz_input.h"
#include "sample_oob.h"
#include "sc_proto.h"

#define FUZZ_STREAM_MAX (64u << 10) /* below a socketpair's buffer: the write never blocks */
#define FUZZ_TIMEOUT_MS 1000        /* never reached: the peer end is shut down */

enum oob_target {
	OOB_EX_HELLO,
	OOB_EX_SETUP,
	OOB_EX_STEP,
	OOB_EX_BYE,
	OOB_SC_HELLO,
	OOB_SC_DONE,
	OOB_TARGETS,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An sc_config as doca_verbs_server_client builds it from its default arguments. */
static void sc_hello_run(int fd, uint8_t link_layer)
{
	struct sc_config cfg = {.op = SC_OP_WRITE, .size = 64, .iters = 16, .qp_type = DOCA_VERBS_QP_TYPE_RC};
	uint8_t wire[SC_HELLO_LEN];
	struct sc_hello h;

	if (sample_oob_recv(fd, SC_MSG_HELLO, wire, sizeof(wire), FUZZ_TIMEOUT_MS, "connection info") != 0)
		return;
	sc_hello_decode(wire, &h);
	(void)sc_hello_check(&h, &cfg, link_layer, "peer");
}

static void sc_done_run(int fd)
{
	uint8_t wire[SC_DONE_LEN];
	struct sc_done d;

	if (sample_oob_recv(fd, SC_MSG_DONE, wire, sizeof(wire), FUZZ_TIMEOUT_MS, "completion report") != 0)
		return;
	sc_done_decode(wire, &d);
	FUZZ_CHECK(memchr(d.reason, '\0', sizeof(d.reason)) != NULL);
}

static void run(int fd, enum oob_target target, uint32_t row, uint8_t arg)
{
	struct ex_step_msg step;
	struct ex_hello hello;
	struct ex_setup setup;

	switch (target) {
	case OOB_EX_HELLO:
		if (ex_recv_hello(fd, &hello, FUZZ_TIMEOUT_MS) == 0)
			FUZZ_CHECK(hello.proto == EX_PROTO_VERSION);
		break;
	case OOB_EX_SETUP:
		if (ex_recv_setup(fd, &setup, FUZZ_TIMEOUT_MS) == 0)
			FUZZ_CHECK(setup.qpn != 0 && setup.qpn <= 0xffffffu && setup.len != 0 &&
				   setup.addr + setup.len > setup.addr);
		break;
	case OOB_EX_STEP:
		if (ex_recv_step(fd, EX_MSG_STEP_DONE, row, arg & 1u, &step, FUZZ_TIMEOUT_MS) == 0)
			FUZZ_CHECK(step.row == row && memchr(step.text, '\0', sizeof(step.text)) != NULL);
		break;
	case OOB_EX_BYE:
		(void)ex_recv_bye(fd, FUZZ_TIMEOUT_MS);
		break;
	case OOB_SC_HELLO:
		sc_hello_run(fd, arg);
		break;
	default:
		sc_done_run(fd);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_cursor c = {data, size};
	enum oob_target target = (enum oob_target)(fuzz_u8(&c) % OOB_TARGETS);
	uint32_t row = (uint32_t)fuzz_be16(&c) << 16;
	uint8_t arg;
	size_t len;
	uint8_t *stream;
	int sv[2];

	row |= fuzz_be16(&c);
	arg = fuzz_u8(&c);
	stream = fuzz_take(&c, FUZZ_STREAM_MAX, &len);
	FUZZ_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	FUZZ_CHECK(len == 0 || write(sv[1], stream, len) == (ssize_t)len);
	FUZZ_CHECK(shutdown(sv[1], SHUT_WR) == 0);
	run(sv[0], target, row, arg);
	close(sv[0]);
	close(sv[1]);
	free(stream);
	return 0;
}
