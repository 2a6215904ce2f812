/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * Out-of-band exchange over TCP: what two sample processes tell each other before and
 * after the RDMA traffic (QP numbers, GIDs, keys, "ready", "done").
 *
 * Every message is a 12-byte header and a payload, all integers big-endian:
 *   0  u32 magic   SAMPLE_OOB_MAGIC ("OGDS")
 *   4  u16 version SAMPLE_OOB_VERSION
 *   6  u16 type    chosen by the sample
 *   8  u32 length  payload bytes, at most SAMPLE_OOB_MAX_PAYLOAD
 * A receiver names the type and length it expects; anything else (another magic, another
 * version, another type, another length, a peer that closes or stays silent past the
 * timeout) is refused with one error line that says which. Every call is bounded.
 */
#ifndef SAMPLE_OOB_H_
#define SAMPLE_OOB_H_

#include <stddef.h>
#include <stdint.h>

#define SAMPLE_OOB_MAGIC 0x4f474453u /* "OGDS" */
#define SAMPLE_OOB_VERSION 1u
#define SAMPLE_OOB_HDR_SIZE 12u
#define SAMPLE_OOB_MAX_PAYLOAD 4096u

/*
 * Listens on every local address (IPv6 and IPv4 where the host has both) at port; port 0
 * takes a free port, reported in *bound_port. Returns 0, or -1 with an error line.
 */
int sample_oob_listen(uint16_t port, int *listen_fd, uint16_t *bound_port);

/* Waits up to timeout_ms for one connection. Returns 0, or -1 with an error line. */
int sample_oob_accept(int listen_fd, int timeout_ms, int *fd);

/*
 * Connects to host:port, retrying a refused or unreachable peer every 100 ms for up to
 * timeout_ms, so that the client may start before the server. Returns 0, or -1 with an
 * error line naming the last reason.
 */
int sample_oob_connect(const char *host, uint16_t port, int timeout_ms, int *fd);

/* Sends one message. Returns 0, or -1 with an error line. */
int sample_oob_send(int fd, uint16_t type, const void *payload, uint32_t len, int timeout_ms);

/*
 * Receives a message header: checks magic and version, and that the payload length is at
 * most SAMPLE_OOB_MAX_PAYLOAD; *type and *len say what follows. what names the awaited
 * message in error lines. Returns 0, or -1 with an error line.
 */
int sample_oob_recv_header(int fd, int timeout_ms, const char *what, uint16_t *type, uint32_t *len);

/* Receives the len payload bytes after a header. Returns 0, or -1 with an error line. */
int sample_oob_recv_payload(int fd, void *payload, uint32_t len, int timeout_ms, const char *what);

/*
 * Sends one message without waiting and without error lines (for a last word to a peer
 * that may be gone). Returns 0 when it was handed to the kernel whole.
 */
int sample_oob_send_quiet(int fd, uint16_t type, const void *payload, uint32_t len);

/*
 * Receives one message of the given type with exactly len payload bytes into payload.
 * what names the message in error lines ("connection info"). Returns 0, or -1 with an
 * error line.
 */
int sample_oob_recv(int fd, uint16_t type, void *payload, uint32_t len, int timeout_ms, const char *what);

/* Closes fd when it is open (>= 0) and sets it to -1. */
void sample_oob_close(int *fd);

/* Big-endian encoders and decoders for payloads. */
void sample_put_be16(uint8_t *p, uint16_t v);
void sample_put_be32(uint8_t *p, uint32_t v);
void sample_put_be64(uint8_t *p, uint64_t v);
uint16_t sample_get_be16(const uint8_t *p);
uint32_t sample_get_be32(const uint8_t *p);
uint64_t sample_get_be64(const uint8_t *p);

#endif /* SAMPLE_OOB_H_ */
