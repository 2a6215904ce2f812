/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * A peer that breaks the samples' out-of-band protocol on purpose, for the protocol tests.
 *
 *   bogus_peer free-port                 print a TCP port nobody listens on (bound, then closed)
 *   bogus_peer <host> <port> <fault>     connect (retrying for 10 s), send one bad header,
 *                                        then wait (10 s at most) for the server to hang up
 * Faults: magic (wrong magic), version (version 99), length (a HELLO of 0xffffffff bytes),
 * type (a message type no sample uses), short (4 bytes, then close).
 * Exit status: 0 when the server hung up, 1 on any other outcome.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define GOOD_MAGIC 0x4f474453u /* "OGDS" */
#define GOOD_VERSION 1u
#define HELLO_TYPE 1u
#define HELLO_LEN 64u

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static int free_port(void)
{
	struct sockaddr_in a;
	socklen_t sl = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &sl) != 0) {
		perror("bogus_peer: free-port");
		return 1;
	}
	printf("%u\n", ntohs(a.sin_port));
	close(fd);
	return 0;
}

static int connect_retry(const char *host, uint16_t port)
{
	struct sockaddr_in a;
	int i;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
		fprintf(stderr, "bogus_peer: '%s' is not an IPv4 address\n", host);
		return -1;
	}
	for (i = 0; i < 100; i++) {
		struct timespec ts = {0, 100000000L};
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0)
			return fd;
		close(fd);
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "bogus_peer: cannot connect to %s:%u\n", host, port);
	return -1;
}

/* Reads until the server closes; 0 when it did within 10 s. */
static int wait_hangup(int fd)
{
	uint8_t buf[512];
	int waited_ms = 0;

	while (waited_ms < 10000) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, 100);
		ssize_t n;

		waited_ms += 100;
		if (r <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			return 0;
		if (n < 0)
			return 1;
	}
	fprintf(stderr, "bogus_peer: the server kept the connection open\n");
	return 1;
}

int main(int argc, char **argv)
{
	uint8_t hdr[12];
	const char *fault;
	size_t len = sizeof(hdr);
	int fd, rc;

	if (argc == 2 && strcmp(argv[1], "free-port") == 0)
		return free_port();
	if (argc != 4) {
		fprintf(stderr, "usage: bogus_peer free-port | <host> <port> magic|version|length|type|short\n");
		return 1;
	}
	fault = argv[3];
	put_be32(hdr, GOOD_MAGIC);
	put_be16(hdr + 4, GOOD_VERSION);
	put_be16(hdr + 6, HELLO_TYPE);
	put_be32(hdr + 8, HELLO_LEN);
	if (strcmp(fault, "magic") == 0)
		put_be32(hdr, 0xdeadbeefu);
	else if (strcmp(fault, "version") == 0)
		put_be16(hdr + 4, 99);
	else if (strcmp(fault, "length") == 0)
		put_be32(hdr + 8, 0xffffffffu);
	else if (strcmp(fault, "type") == 0)
		put_be16(hdr + 6, 77);
	else if (strcmp(fault, "short") == 0)
		len = 4;
	else {
		fprintf(stderr, "bogus_peer: unknown fault '%s'\n", fault);
		return 1;
	}
	fd = connect_retry(argv[1], (uint16_t)atoi(argv[2]));
	if (fd < 0)
		return 1;
	if (send(fd, hdr, len, MSG_NOSIGNAL) != (ssize_t)len) {
		perror("bogus_peer: send");
		close(fd);
		return 1;
	}
	if (strcmp(fault, "short") == 0)
		shutdown(fd, SHUT_WR);
	rc = wait_hangup(fd);
	close(fd);
	return rc;
}
