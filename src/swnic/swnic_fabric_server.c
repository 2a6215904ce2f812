/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Responder side of the fabric: a listener thread accepts connections (TCP, and Unix ones
 * for shared-memory channels) and gives each its own thread (swnic_fabric_serve.c). At most SWNIC_FABRIC_MAX_SERVER_CONNS are served
 * at once; when full, the oldest connection that has not completed an exchange makes room,
 * so strangers that merely connect can never lock a peer out.
 */
#define _GNU_SOURCE /* struct ucred, SO_PEERCRED */
#include "swnic/swnic_fabric_priv.h"

#include "core/log.h"
#include "swnic/swnic_sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void conn_free(struct swnic_server_conn *sc)
{
	pthread_join(sc->thread, NULL);
	close(sc->fd);
	free(sc);
}

static void reap_done(struct swnic_fabric *f)
{
	struct swnic_server_conn **pp, *sc;

	pthread_mutex_lock(&f->server_lock);
	pp = &f->server_conns;
	while ((sc = *pp) != NULL) {
		if (!atomic_load(&sc->done)) {
			pp = &sc->next;
			continue;
		}
		*pp = sc->next;
		f->server_count--;
		conn_free(sc);
	}
	pthread_mutex_unlock(&f->server_lock);
}

/*
 * With server_lock held and the server full: closes the oldest connection none of whose
 * requests has passed admission yet (the list runs newest first). false: every connection
 * belongs to a peer.
 */
static bool evict_stranger(struct swnic_fabric *f, const char *for_whom)
{
	struct swnic_server_conn **pp, **victim = NULL;
	struct swnic_server_conn *sc;

	for (pp = &f->server_conns; *pp != NULL; pp = &(*pp)->next) {
		if (!atomic_load(&(*pp)->trusted))
			victim = pp;
	}
	if (victim == NULL)
		return false;
	sc = *victim;
	*victim = sc->next;
	f->server_count--;
	OGDA_LOG_WARN("%s: fabric: %u connections served; closing %s, the oldest without a completed exchange, for %s",
		      f->nic->name, SWNIC_FABRIC_MAX_SERVER_CONNS, sc->peer, for_whom);
	/* Its thread waits only in poll (the shutdown ends that) or runs one short responder call. */
	shutdown(sc->fd, SHUT_RDWR);
	conn_free(sc);
	atomic_fetch_add(&f->stats.conns_evicted, 1);
	return true;
}

/* "local pid N" for a Unix connection (the kernel's word), else the TCP peer's address. */
static void name_peer(struct swnic_server_conn *sc, const struct sockaddr_in *sa)
{
	char peer[INET_ADDRSTRLEN];

	if (sc->unix_conn) {
		struct ucred cred;
		socklen_t clen = sizeof(cred);

		if (getsockopt(sc->fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0)
			snprintf(sc->peer, sizeof(sc->peer), "local pid %d", (int)cred.pid);
		else
			snprintf(sc->peer, sizeof(sc->peer), "local process");
		return;
	}
	if (inet_ntop(AF_INET, &sa->sin_addr, peer, sizeof(peer)) == NULL)
		snprintf(peer, sizeof(peer), "?");
	snprintf(sc->peer, sizeof(sc->peer), "%s:%u", peer, (unsigned)ntohs(sa->sin_port));
}

static void accept_one(struct swnic_fabric *f, int listen_fd, bool unix_conn)
{
	struct sockaddr_in sa;
	socklen_t slen = sizeof(sa);
	struct swnic_server_conn *sc;
	int fd;

	memset(&sa, 0, sizeof(sa));
	fd = accept(listen_fd, unix_conn ? NULL : (struct sockaddr *)&sa, unix_conn ? NULL : &slen);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) {
			struct timespec pause = {0, 10 * 1000 * 1000};

			OGDA_LOG_ERR("%s: fabric accept: %s", f->nic->name, strerror(errno));
			nanosleep(&pause, NULL); /* e.g. out of file descriptors: do not spin */
		}
		return;
	}
	reap_done(f);
	if (swnic_sock_prepare(fd) != DOCA_SUCCESS) {
		close(fd);
		return;
	}
	sc = calloc(1, sizeof(*sc));
	if (sc == NULL) {
		OGDA_LOG_ERR("%s: fabric: out of memory for a connection", f->nic->name);
		close(fd);
		return;
	}
	sc->fabric = f;
	sc->fd = fd;
	sc->unix_conn = unix_conn;
	atomic_init(&sc->done, false);
	atomic_init(&sc->trusted, false);
	sc->handshake_deadline = swnic_deadline_after(f->handshake_timeout_ns);
	name_peer(sc, &sa);

	pthread_mutex_lock(&f->server_lock);
	if (f->server_count >= SWNIC_FABRIC_MAX_SERVER_CONNS && !evict_stranger(f, sc->peer)) {
		pthread_mutex_unlock(&f->server_lock);
		atomic_fetch_add(&f->stats.conns_refused, 1);
		OGDA_LOG_WARN("%s: fabric: %u peers' connections already served, refusing %s", f->nic->name,
			      SWNIC_FABRIC_MAX_SERVER_CONNS, sc->peer);
		close(fd);
		free(sc);
		return;
	}
	/*
	 * Counted before its thread starts: whoever sees this connection served (a peer's reply)
	 * must also see it counted, or a waiter on the count races the listener thread.
	 */
	atomic_fetch_add(&f->stats.conns_accepted, 1);
	if (pthread_create(&sc->thread, NULL, swnic_fabric_serve_conn, sc) != 0) {
		pthread_mutex_unlock(&f->server_lock);
		OGDA_LOG_ERR("%s: fabric: cannot start a thread for %s", f->nic->name, sc->peer);
		close(fd);
		free(sc);
		return;
	}
	sc->next = f->server_conns;
	f->server_conns = sc;
	f->server_count++;
	pthread_mutex_unlock(&f->server_lock);
	OGDA_LOG_DBG("%s: fabric: serving %s", f->nic->name, sc->peer);
}

static void *listen_loop(void *arg)
{
	struct swnic_fabric *f = arg;

	for (;;) {
		struct pollfd pfd[3] = {
			{.fd = f->listen_fd, .events = POLLIN},
			{.fd = f->wake_pipe[0], .events = POLLIN},
			{.fd = f->unix_fd, .events = POLLIN}, /* -1 (ignored by poll) without shared memory */
		};

		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			OGDA_LOG_ERR("%s: fabric listener poll: %s", f->nic->name, strerror(errno));
			break;
		}
		if (pfd[1].revents != 0)
			break;
		if (pfd[0].revents != 0)
			accept_one(f, f->listen_fd, false);
		if (pfd[2].revents != 0)
			accept_one(f, f->unix_fd, true);
	}
	return NULL;
}

doca_error_t swnic_fabric_server_start(struct swnic_fabric *f)
{
	int rc = pthread_create(&f->listener, NULL, listen_loop, f);

	if (rc != 0) {
		OGDA_LOG_ERR("%s: cannot start the fabric listener thread: %s", f->nic->name, strerror(rc));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	f->listener_started = true;
	return DOCA_SUCCESS;
}

void swnic_fabric_server_stop(struct swnic_fabric *f)
{
	struct swnic_server_conn *sc, *next;
	ssize_t n;

	if (!f->listener_started)
		return;
	do {
		n = write(f->wake_pipe[1], "x", 1);
	} while (n < 0 && errno == EINTR);
	pthread_join(f->listener, NULL);
	f->listener_started = false;

	/* The listener is gone: nobody else changes the list now. */
	pthread_mutex_lock(&f->server_lock);
	for (sc = f->server_conns; sc != NULL; sc = sc->next)
		shutdown(sc->fd, SHUT_RDWR);
	sc = f->server_conns;
	f->server_conns = NULL;
	f->server_count = 0;
	pthread_mutex_unlock(&f->server_lock);
	for (; sc != NULL; sc = next) {
		next = sc->next;
		conn_free(sc);
	}
}
