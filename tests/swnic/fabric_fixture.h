/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture for the fabric tests: a bare NIC instance (only what the fabric reads: name,
 * index, caps) whose fabric executes requests with a small memory responder of its own,
 * so that the fabric is tested on its own: frames, sockets, failures. Such an instance is
 * not in the process registry, so requests to it always travel over TCP, even from this
 * process.
 */
#ifndef OGDA_TESTS_SWNIC_FABRIC_FIXTURE_H_
#define OGDA_TESTS_SWNIC_FABRIC_FIXTURE_H_

#include "swnic/swnic.h"
#include "swnic/swnic_fabric.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FFX_RKEY 0x5a5a01u
#define FFX_REGION_SIZE (4u << 20)

enum ffx_mode {
	FFX_SERVE = 0,       /* execute on the region */
	FFX_DIE = 1,         /* raise SIGKILL inside the responder: the process dies mid-request */
};

struct ffx {
	struct swnic nic;
	struct swnic_fabric *fabric;
	uint8_t gid[16];
	uint8_t *region;             /* FFX_REGION_SIZE bytes, served with rkey FFX_RKEY */
	pthread_mutex_t lock;        /* held by the responder while it touches region */
	atomic_uint calls;           /* responder invocations */
	_Atomic int mode;            /* enum ffx_mode */
};

/*
 * Creates the instance with log_max_msg = log_max_msg (0: leave the fabric's default) and
 * a fabric; region filled with 0xee. Returns what swnic_fabric_create_opts returned.
 */
doca_error_t ffx_create(struct ffx *x, uint32_t index, uint8_t log_max_msg);
void ffx_destroy(struct ffx *x);

/*
 * Orders the test's accesses to region with the responder's (which run on fabric server
 * threads): call it after writing region and before reading it. Sockets alone do not
 * tell a race detector that the bytes were handed over.
 */
void ffx_sync(struct ffx *x);

/* Fails the test unless region[from .. to) all hold fill (after ffx_sync). */
void ffx_check_region(struct ffx *x, size_t from, size_t to, uint8_t fill);

/*
 * Six requests from a to b, each checked where it lands: a 100-byte WRITE, its READ back,
 * FA and CS on a word, a WRITE with a bad rkey (a NAK verdict, nothing written, refused
 * from its header so b's responder never sees it) and a zero-length WRITE.
 */
void ffx_write_read_atomics(struct ffx *a, struct ffx *b, uint64_t timeout_ns);

/* A request with the fixture's defaults: dst_qpn 0x200, src_qpn 0x201, rkey FFX_RKEY. */
struct swnic_req ffx_req(uint8_t op, uint64_t raddr, uint32_t len);

/* x's fabric counters (all zero should the fabric be gone). */
struct swnic_fabric_stats ffx_stats(struct ffx *x);

/* CLOCK_MONOTONIC now, and milliseconds since start_ns. */
uint64_t ffx_now_ns(void);
uint64_t ffx_ms_since(uint64_t start_ns);

/* True when fd's peer closed (recv returns 0 or ECONNRESET) within timeout_ms. */
bool ffx_peer_closed(int fd, int timeout_ms);
/*
 * A connected TCP socket (blocking) to the fixture's endpoint, past the handshake (hellos
 * without a shared secret): the next bytes sent are read as request frames.
 */
int ffx_connect_raw(const struct ffx *x);
/* The same on the fixture's shared-memory Unix socket: the next thing sent is a channel offer. */
int ffx_connect_unix_raw(const struct ffx *x);
/* Whether this test runs with peers of this host on shared memory (OPENGDA_SWNIC_SHM not 0). */
bool ffx_shm_expected(void);
/* Requests a requester got answered on the path this test expects (shared memory or TCP). */
uint64_t ffx_delivered(const struct swnic_fabric_stats *s);
/* The same to the fabric endpoint gid names; -1 on failure. */
int ffx_connect_gid(const uint8_t gid[16]);
/* A connected TCP socket to the fixture's endpoint that has sent nothing yet. */
int ffx_connect_silent(const struct ffx *x);
/* For a fake server on fd: reads the client's hello and answers one without a secret. */
bool ffx_hello_serve(int fd);
/* A listening socket on 127.0.0.1 with a kernel port; *gid encodes it (NIC index 9). */
int ffx_listen_raw(uint8_t gid[16]);

#endif /* OGDA_TESTS_SWNIC_FABRIC_FIXTURE_H_ */
