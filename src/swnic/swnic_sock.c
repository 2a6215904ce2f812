/* SPDX-License-Identifier: BSD-3-Clause */
#include "swnic/swnic_sock.h"

#include "core/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

uint64_t swnic_sock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t swnic_deadline_after(uint64_t timeout_ns)
{
	uint64_t now = swnic_sock_now_ns();

	return timeout_ns >= SWNIC_SOCK_NO_DEADLINE - now ? SWNIC_SOCK_NO_DEADLINE : now + timeout_ns;
}

/* Waits for events on fd until the deadline: 1 ready, 0 deadline passed, -1 poll failed. */
static int wait_fd(int fd, short events, uint64_t deadline_ns)
{
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = events};
		int timeout_ms = -1;
		int rc;

		if (deadline_ns != SWNIC_SOCK_NO_DEADLINE) {
			uint64_t now = swnic_sock_now_ns();
			uint64_t left;

			if (now >= deadline_ns)
				return 0;
			/* Round up so that a sub-millisecond remainder still waits, not spins. */
			left = (deadline_ns - now + 999999ull) / 1000000ull;
			timeout_ms = left > 60000 ? 60000 : (int)left;
		}
		rc = poll(&pfd, 1, timeout_ms);
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

static doca_error_t io_errno_to_doca(int e)
{
	switch (e) {
	case ETIMEDOUT:
		return DOCA_ERROR_TIME_OUT;
	case ECONNREFUSED:
	case ENETUNREACH:
	case EHOSTUNREACH:
	case EADDRNOTAVAIL:
	case ENOTCONN:
		return DOCA_ERROR_NOT_CONNECTED;
	default:
		return DOCA_ERROR_CONNECTION_RESET;
	}
}

doca_error_t swnic_sock_prepare(int fd)
{
	int one = 1;
	int domain = AF_INET;
	socklen_t dlen = sizeof(domain);
	int flags = fcntl(fd, F_GETFL);

	/* TCP_NODELAY is for TCP only; the shared-memory fabric's Unix sockets have no Nagle. */
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &dlen) < 0)
		domain = AF_INET;
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 ||
	    (domain != AF_UNIX && setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)) {
		OGDA_LOG_ERR("fabric: cannot configure socket %d: %s", fd, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	return DOCA_SUCCESS;
}

void swnic_sock_unix_name(const struct swnic_endpoint *ep, struct sockaddr_un *sa, socklen_t *len)
{
	char where[40];
	int n;

	swnic_endpoint_format(ep, where, sizeof(where));
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	/* Abstract namespace (leading NUL): no file to clean up, reachable from this host only. */
	n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "opengda-swnic/%s", where);
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

static doca_error_t connect_addr(int family, const struct sockaddr *sa, socklen_t slen, uint64_t deadline_ns,
				 int *fd_out)
{
	socklen_t elen = sizeof(int);
	int soerr = 0;
	int fd, rc;

	fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		OGDA_LOG_ERR("fabric: socket(): %s", strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	if (swnic_sock_prepare(fd) != DOCA_SUCCESS) {
		close(fd);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	do {
		rc = connect(fd, sa, slen);
	} while (rc < 0 && errno == EINTR);
	/* A Unix socket whose backlog is full answers EAGAIN: as busy as a TCP SYN in flight. */
	if (rc < 0 && errno != EINPROGRESS && !(family == AF_UNIX && errno == EAGAIN)) {
		soerr = errno;
		goto failed;
	}
	if (rc < 0) {
		rc = wait_fd(fd, POLLOUT, deadline_ns);
		if (rc == 0) {
			close(fd);
			return DOCA_ERROR_TIME_OUT;
		}
		if (rc < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &elen) < 0)
			soerr = errno;
		if (soerr != 0)
			goto failed;
	}
	*fd_out = fd;
	return DOCA_SUCCESS;
failed:
	close(fd);
	OGDA_LOG_DBG("fabric: connect failed: %s", strerror(soerr));
	return soerr == ETIMEDOUT ? DOCA_ERROR_TIME_OUT : DOCA_ERROR_NOT_CONNECTED;
}

doca_error_t swnic_sock_connect(const struct swnic_endpoint *ep, uint64_t deadline_ns, int *fd_out)
{
	struct sockaddr_in sa;

	if (ep == NULL || fd_out == NULL) {
		OGDA_LOG_ERR("fabric: connect with NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(ep->port);
	sa.sin_addr.s_addr = htonl(ep->ipv4);
	return connect_addr(AF_INET, (const struct sockaddr *)&sa, sizeof(sa), deadline_ns, fd_out);
}

doca_error_t swnic_sock_connect_unix(const struct swnic_endpoint *ep, uint64_t deadline_ns, int *fd_out)
{
	struct sockaddr_un sa;
	socklen_t slen;

	if (ep == NULL || fd_out == NULL) {
		OGDA_LOG_ERR("fabric: connect with NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	swnic_sock_unix_name(ep, &sa, &slen);
	return connect_addr(AF_UNIX, (const struct sockaddr *)&sa, slen, deadline_ns, fd_out);
}

/* Sends iov before deadline_ns; with idle_ns, every byte that moves pushes the deadline to now + idle_ns. */
static doca_error_t send_until(int fd, struct iovec *iov, int iovcnt, uint64_t deadline_ns, uint64_t idle_ns)
{
	while (iovcnt > 0) {
		struct msghdr msg = {.msg_iov = iov, .msg_iovlen = (size_t)iovcnt};
		ssize_t n;

		if (iov->iov_len == 0) {
			iov++;
			iovcnt--;
			continue;
		}
		n = sendmsg(fd, &msg, MSG_NOSIGNAL);
		if (n < 0) {
			int rc;

			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return io_errno_to_doca(errno);
			rc = wait_fd(fd, POLLOUT, deadline_ns);
			if (rc == 0)
				return DOCA_ERROR_TIME_OUT;
			if (rc < 0)
				return DOCA_ERROR_CONNECTION_RESET;
			continue;
		}
		if (idle_ns != 0)
			deadline_ns = swnic_deadline_after(idle_ns);
		while (n > 0 && iovcnt > 0) {
			size_t take = (size_t)n < iov->iov_len ? (size_t)n : iov->iov_len;

			iov->iov_base = (uint8_t *)iov->iov_base + take;
			iov->iov_len -= take;
			n -= (ssize_t)take;
			if (iov->iov_len == 0) {
				iov++;
				iovcnt--;
			}
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t swnic_sock_send_all(int fd, struct iovec *iov, int iovcnt, uint64_t deadline_ns)
{
	return send_until(fd, iov, iovcnt, deadline_ns, 0);
}

doca_error_t swnic_sock_send_all_idle(int fd, struct iovec *iov, int iovcnt, uint64_t idle_ns)
{
	return send_until(fd, iov, iovcnt, swnic_deadline_after(idle_ns), idle_ns);
}

/* Receives len bytes before deadline_ns; with idle_ns, progress pushes the deadline as for sends. */
static doca_error_t recv_until(int fd, void *buf, size_t len, uint64_t deadline_ns, uint64_t idle_ns, size_t *got)
{
	size_t done = 0;
	doca_error_t err = DOCA_SUCCESS;

	while (done < len) {
		ssize_t n = recv(fd, (uint8_t *)buf + done, len - done, 0);

		if (n > 0) {
			done += (size_t)n;
			if (idle_ns != 0)
				deadline_ns = swnic_deadline_after(idle_ns);
			continue;
		}
		if (n == 0) {
			err = DOCA_ERROR_CONNECTION_RESET;
			break;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			int rc = wait_fd(fd, POLLIN, deadline_ns);

			if (rc == 0) {
				err = DOCA_ERROR_TIME_OUT;
				break;
			}
			if (rc < 0) {
				err = DOCA_ERROR_CONNECTION_RESET;
				break;
			}
			continue;
		}
		err = io_errno_to_doca(errno);
		break;
	}
	if (got != NULL)
		*got = done;
	return err;
}

doca_error_t swnic_sock_recv_all(int fd, void *buf, size_t len, uint64_t deadline_ns, size_t *got)
{
	return recv_until(fd, buf, len, deadline_ns, 0, got);
}

doca_error_t swnic_sock_recv_all_idle(int fd, void *buf, size_t len, uint64_t idle_ns)
{
	return recv_until(fd, buf, len, swnic_deadline_after(idle_ns), idle_ns, NULL);
}
