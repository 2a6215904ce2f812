/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP socket helpers for the fabric: every call is bounded by an absolute deadline on
 * CLOCK_MONOTONIC (SWNIC_SOCK_NO_DEADLINE waits until the peer or a shutdown() answers).
 * Sockets are non-blocking; waiting happens in poll(), so a dead or silent peer can never
 * hold a caller past its deadline. Errors map to what the fabric reports:
 *   DOCA_ERROR_NOT_CONNECTED     connect refused / unreachable
 *   DOCA_ERROR_CONNECTION_RESET  the peer closed or reset the connection
 *   DOCA_ERROR_TIME_OUT          the deadline passed
 */
#ifndef OGDA_SWNIC_SOCK_H_
#define OGDA_SWNIC_SOCK_H_

#include "doca_error.h"
#include "swnic/swnic_gid.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>

#define SWNIC_SOCK_NO_DEADLINE UINT64_MAX

/* Nanoseconds on CLOCK_MONOTONIC. */
uint64_t swnic_sock_now_ns(void);
/* now + timeout_ns, saturating at SWNIC_SOCK_NO_DEADLINE. */
uint64_t swnic_deadline_after(uint64_t timeout_ns);

/* Connects to ep; *fd is a non-blocking TCP socket with TCP_NODELAY. */
doca_error_t swnic_sock_connect(const struct swnic_endpoint *ep, uint64_t deadline_ns, int *fd);
/*
 * Connects to the Unix socket of ep's shared-memory fabric (swnic_sock_unix_name): only a
 * NIC on this host (and network namespace) can be reached this way. Same errors as above.
 */
doca_error_t swnic_sock_connect_unix(const struct swnic_endpoint *ep, uint64_t deadline_ns, int *fd);
/* The abstract Unix socket address "\0opengda-swnic/a.b.c.d:port" of ep. */
void swnic_sock_unix_name(const struct swnic_endpoint *ep, struct sockaddr_un *sa, socklen_t *len);
/* Sends every byte of iov (modified as it goes). Never raises SIGPIPE. */
doca_error_t swnic_sock_send_all(int fd, struct iovec *iov, int iovcnt, uint64_t deadline_ns);
/*
 * Receives exactly len bytes. *got (optional) is how many arrived, so a caller can tell a
 * peer that closed between frames (got == 0) from one that stopped halfway.
 */
doca_error_t swnic_sock_recv_all(int fd, void *buf, size_t len, uint64_t deadline_ns, size_t *got);
/*
 * The same bounded by progress instead of a deadline: each fails with DOCA_ERROR_TIME_OUT
 * only when no byte has moved for idle_ns, however long the whole transfer takes.
 */
doca_error_t swnic_sock_send_all_idle(int fd, struct iovec *iov, int iovcnt, uint64_t idle_ns);
doca_error_t swnic_sock_recv_all_idle(int fd, void *buf, size_t len, uint64_t idle_ns);
/* Makes fd non-blocking, close-on-exec, and TCP_NODELAY when it is TCP (for accepted sockets). */
doca_error_t swnic_sock_prepare(int fd);

#endif /* OGDA_SWNIC_SOCK_H_ */
