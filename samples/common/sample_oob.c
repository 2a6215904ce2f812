/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

#include "sample_oob.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sample_util.h"

#define CONNECT_RETRY_US 100000u

void sample_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void sample_put_be32(uint8_t *p, uint32_t v)
{
	sample_put_be16(p, (uint16_t)(v >> 16));
	sample_put_be16(p + 2, (uint16_t)v);
}

void sample_put_be64(uint8_t *p, uint64_t v)
{
	sample_put_be32(p, (uint32_t)(v >> 32));
	sample_put_be32(p + 4, (uint32_t)v);
}

uint16_t sample_get_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

uint32_t sample_get_be32(const uint8_t *p)
{
	return ((uint32_t)sample_get_be16(p) << 16) | sample_get_be16(p + 2);
}

uint64_t sample_get_be64(const uint8_t *p)
{
	return ((uint64_t)sample_get_be32(p) << 32) | sample_get_be32(p + 4);
}

void sample_oob_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Milliseconds left until deadline (0 when it has passed). */
static int ms_left(int64_t deadline)
{
	int64_t left = deadline - sample_now_ms();

	return left > 0 ? (int)(left > 0x7fffffff ? 0x7fffffff : left) : 0;
}

static int set_nonblocking(int fd, int on)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0)
		return -1;
	return fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK);
}

int sample_oob_listen(uint16_t port, int *listen_fd, uint16_t *bound_port)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd, one = 1, zero = 0;

	memset(&ss, 0, sizeof(ss));
	fd = socket(AF_INET6, SOCK_STREAM, 0);
	if (fd >= 0) {
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;

		/* One socket for both families where the host allows it. */
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		a6->sin6_family = AF_INET6;
		a6->sin6_addr = in6addr_any;
		a6->sin6_port = htons(port);
		sl = sizeof(*a6);
	} else {
		struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;

		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0) {
			sample_err("out-of-band: socket: %s", strerror(errno));
			return -1;
		}
		a4->sin_family = AF_INET;
		a4->sin_addr.s_addr = htonl(INADDR_ANY);
		a4->sin_port = htons(port);
		sl = sizeof(*a4);
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, 4) != 0) {
		sample_err("out-of-band: cannot listen on port %u: %s", port, strerror(errno));
		close(fd);
		return -1;
	}
	sl = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
		sample_err("out-of-band: getsockname: %s", strerror(errno));
		close(fd);
		return -1;
	}
	*bound_port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
						     : ((struct sockaddr_in *)&ss)->sin_port);
	*listen_fd = fd;
	return 0;
}

static void tune_connected(int fd)
{
	int one = 1;

	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int sample_oob_accept(int listen_fd, int timeout_ms, int *fd)
{
	struct pollfd p = {.fd = listen_fd, .events = POLLIN};
	int64_t deadline = sample_now_ms() + timeout_ms;
	int r, c;

	for (;;) {
		r = poll(&p, 1, ms_left(deadline));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			sample_err("out-of-band: poll: %s", strerror(errno));
			return -1;
		}
		if (r == 0) {
			sample_err("out-of-band: no client connected within %d ms", timeout_ms);
			return -1;
		}
		c = accept(listen_fd, NULL, NULL);
		if (c >= 0)
			break;
		if (errno != EINTR && errno != ECONNABORTED && errno != EAGAIN) {
			sample_err("out-of-band: accept: %s", strerror(errno));
			return -1;
		}
	}
	tune_connected(c);
	*fd = c;
	return 0;
}

/* One non-blocking connect to one address, bounded by wait_ms. Returns the fd, or -1 with errno set. */
static int connect_once(const struct addrinfo *ai, int wait_ms)
{
	struct pollfd p;
	socklen_t sl = sizeof(int);
	int fd, r, soerr = 0;

	fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
	if (fd < 0)
		return -1;
	if (set_nonblocking(fd, 1) != 0)
		goto fail;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
		if (errno != EINPROGRESS)
			goto fail;
		p.fd = fd;
		p.events = POLLOUT;
		do {
			r = poll(&p, 1, wait_ms);
		} while (r < 0 && errno == EINTR);
		if (r <= 0) {
			errno = r == 0 ? ETIMEDOUT : errno;
			goto fail;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0)
			goto fail;
		if (soerr != 0) {
			errno = soerr;
			goto fail;
		}
	}
	if (set_nonblocking(fd, 0) != 0)
		goto fail;
	return fd;
fail:
	r = errno;
	close(fd);
	errno = r;
	return -1;
}

int sample_oob_connect(const char *host, uint16_t port, int timeout_ms, int *fd)
{
	struct addrinfo hints, *res = NULL, *ai;
	int64_t deadline = sample_now_ms() + timeout_ms;
	char service[8];
	int r, last = ECONNREFUSED, attempts = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(service, sizeof(service), "%u", port);
	r = getaddrinfo(host, service, &hints, &res);
	if (r != 0) {
		sample_err("out-of-band: cannot resolve server address '%s': %s", host, gai_strerror(r));
		return -1;
	}
	for (;;) {
		attempts++;
		for (ai = res; ai != NULL; ai = ai->ai_next) {
			int left = ms_left(deadline);
			int c = connect_once(ai, left > 1000 ? 1000 : (left > 0 ? left : 1));

			if (c >= 0) {
				freeaddrinfo(res);
				tune_connected(c);
				*fd = c;
				return 0;
			}
			last = errno;
		}
		if (ms_left(deadline) == 0)
			break;
		/* The server may not be listening yet: try again shortly. */
		sample_sleep_us(CONNECT_RETRY_US);
		if (ms_left(deadline) == 0)
			break;
	}
	freeaddrinfo(res);
	sample_err("out-of-band: cannot connect to %s port %u within %d ms (%d attempts): %s; is the server "
		   "running and listening on that port?",
		   host, port, timeout_ms, attempts, strerror(last));
	return -1;
}

/* Sends len bytes before deadline. */
static int send_all(int fd, const uint8_t *p, size_t len, int64_t deadline, int timeout_ms)
{
	while (len > 0) {
		struct pollfd pf = {.fd = fd, .events = POLLOUT};
		ssize_t n;
		int r = poll(&pf, 1, ms_left(deadline));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			sample_err("out-of-band: poll: %s", strerror(errno));
			return -1;
		}
		if (r == 0) {
			sample_err("out-of-band: the peer took no data for %d ms", timeout_ms);
			return -1;
		}
		n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			sample_err("out-of-band: send: %s", strerror(errno));
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int sample_oob_send(int fd, uint16_t type, const void *payload, uint32_t len, int timeout_ms)
{
	uint8_t buf[SAMPLE_OOB_HDR_SIZE + SAMPLE_OOB_MAX_PAYLOAD];

	if (fd < 0 || len > SAMPLE_OOB_MAX_PAYLOAD || (payload == NULL && len != 0)) {
		sample_err("out-of-band: bad message (fd %d, %u payload bytes)", fd, len);
		return -1;
	}
	sample_put_be32(buf, SAMPLE_OOB_MAGIC);
	sample_put_be16(buf + 4, SAMPLE_OOB_VERSION);
	sample_put_be16(buf + 6, type);
	sample_put_be32(buf + 8, len);
	if (len != 0)
		memcpy(buf + SAMPLE_OOB_HDR_SIZE, payload, len);
	return send_all(fd, buf, SAMPLE_OOB_HDR_SIZE + len, sample_now_ms() + timeout_ms, timeout_ms);
}

/*
 * Receives exactly len bytes before deadline. Returns 0; -1 with an error line; or 1 when
 * the peer closed the connection, with *got the bytes that arrived before (no line: the
 * caller words it).
 */
static int recv_all(int fd, uint8_t *p, size_t len, int64_t deadline, int timeout_ms, const char *what, size_t *got)
{
	*got = 0;
	while (*got < len) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		ssize_t n;
		int r = poll(&pf, 1, ms_left(deadline));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			sample_err("out-of-band: poll: %s", strerror(errno));
			return -1;
		}
		if (r == 0) {
			sample_err("out-of-band: no %s from the peer within %d ms", what, timeout_ms);
			return -1;
		}
		n = recv(fd, p + *got, len - *got, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			sample_err("out-of-band: receiving the %s: %s", what, strerror(errno));
			return -1;
		}
		if (n == 0)
			return 1;
		*got += (size_t)n;
	}
	return 0;
}

int sample_oob_recv_header(int fd, int timeout_ms, const char *what, uint16_t *type, uint32_t *len)
{
	int64_t deadline = sample_now_ms() + timeout_ms;
	uint8_t hdr[SAMPLE_OOB_HDR_SIZE];
	uint32_t magic;
	uint16_t version;
	size_t got;
	int r;

	if (fd < 0 || type == NULL || len == NULL) {
		sample_err("out-of-band: bad receive request (fd %d)", fd);
		return -1;
	}
	r = recv_all(fd, hdr, sizeof(hdr), deadline, timeout_ms, what, &got);
	if (r != 0) {
		if (r > 0)
			sample_err("out-of-band: the peer closed the connection %s the %s",
				   got == 0 ? "instead of sending" : "in the middle of", what);
		return -1;
	}
	magic = sample_get_be32(hdr);
	version = sample_get_be16(hdr + 4);
	*type = sample_get_be16(hdr + 6);
	*len = sample_get_be32(hdr + 8);
	if (magic != SAMPLE_OOB_MAGIC) {
		sample_err("out-of-band: bad magic 0x%08x where the %s was expected (want 0x%08x \"OGDS\"): the peer "
			   "is not an OpenGDA sample",
			   magic, what, SAMPLE_OOB_MAGIC);
		return -1;
	}
	if (version != SAMPLE_OOB_VERSION) {
		sample_err("out-of-band: the peer speaks protocol version %u, this program version %u", version,
			   SAMPLE_OOB_VERSION);
		return -1;
	}
	if (*len > SAMPLE_OOB_MAX_PAYLOAD) {
		sample_err("out-of-band: the peer announces %u payload bytes where the %s was expected (messages carry "
			   "at most %u)",
			   *len, what, SAMPLE_OOB_MAX_PAYLOAD);
		return -1;
	}
	return 0;
}

int sample_oob_recv_payload(int fd, void *payload, uint32_t len, int timeout_ms, const char *what)
{
	size_t got;
	int r;

	if (len == 0)
		return 0;
	if (fd < 0 || payload == NULL || len > SAMPLE_OOB_MAX_PAYLOAD) {
		sample_err("out-of-band: bad receive request (fd %d, %u payload bytes)", fd, len);
		return -1;
	}
	r = recv_all(fd, payload, len, sample_now_ms() + timeout_ms, timeout_ms, what, &got);
	if (r > 0)
		sample_err("out-of-band: the peer closed the connection in the middle of the %s", what);
	return r == 0 ? 0 : -1;
}

int sample_oob_recv(int fd, uint16_t type, void *payload, uint32_t len, int timeout_ms, const char *what)
{
	uint16_t got_type = 0;
	uint32_t plen = 0;

	if (len > SAMPLE_OOB_MAX_PAYLOAD || (payload == NULL && len != 0)) {
		sample_err("out-of-band: bad receive request (%u payload bytes)", len);
		return -1;
	}
	if (sample_oob_recv_header(fd, timeout_ms, what, &got_type, &plen) != 0)
		return -1;
	if (got_type != type) {
		sample_err("out-of-band: message type %u where the %s (type %u) was expected", got_type, what, type);
		return -1;
	}
	if (plen != len) {
		sample_err("out-of-band: the %s carries %u payload bytes, %u expected", what, plen, len);
		return -1;
	}
	return sample_oob_recv_payload(fd, payload, len, timeout_ms, what);
}

int sample_oob_send_quiet(int fd, uint16_t type, const void *payload, uint32_t len)
{
	uint8_t buf[SAMPLE_OOB_HDR_SIZE + SAMPLE_OOB_MAX_PAYLOAD];
	ssize_t n;

	if (fd < 0 || len > SAMPLE_OOB_MAX_PAYLOAD || (payload == NULL && len != 0))
		return -1;
	sample_put_be32(buf, SAMPLE_OOB_MAGIC);
	sample_put_be16(buf + 4, SAMPLE_OOB_VERSION);
	sample_put_be16(buf + 6, type);
	sample_put_be32(buf + 8, len);
	if (len != 0)
		memcpy(buf + SAMPLE_OOB_HDR_SIZE, payload, len);
	n = send(fd, buf, SAMPLE_OOB_HDR_SIZE + len, MSG_NOSIGNAL | MSG_DONTWAIT);
	return n == (ssize_t)(SAMPLE_OOB_HDR_SIZE + len) ? 0 : -1;
}
