/* SPDX-License-Identifier: BSD-3-Clause */
/* The shared-memory channel: memfd, its offer over a Unix socket, and the wait / wake of both sides. */
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS, POLLRDHUP, MSG_CMSG_CLOEXEC */
#include "swnic/swnic_fabric_shm.h"

#include "core/env.h"
#include "core/log.h"
#include "swnic/swnic_sock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define REQUIRED_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

bool swnic_shm_enabled(void)
{
	bool on;

	if (ogda_env_get_bool(SWNIC_ENV_SHM, true, &on) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: expected a boolean (0 keeps other processes on TCP); using 1", SWNIC_ENV_SHM);
	return on;
}

bool swnic_shm_fits(const struct swnic_req *req)
{
	return swnic_req_payload_len(req) <= SWNIC_SHM_DATA_CAP &&
	       (req->op != SWNIC_REQ_READ || req->len <= SWNIC_SHM_DATA_CAP);
}

uint32_t swnic_shm_data_need(const struct swnic_req *req)
{
	return req->op == SWNIC_REQ_READ ? req->len : swnic_req_payload_len(req);
}

static doca_error_t map_fd(int fd, struct swnic_shm_map *m)
{
	void *p = mmap(NULL, SWNIC_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return DOCA_ERROR_NO_MEMORY;
	m->memfd = fd;
	m->ctl = p;
	m->data = (uint8_t *)p + SWNIC_SHM_CTL_SIZE;
	return DOCA_SUCCESS;
}

doca_error_t swnic_shm_create(struct swnic_shm_map *m)
{
	int fd = memfd_create("opengda-swnic-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	m->memfd = -1;
	m->ctl = NULL;
	m->data = NULL;
	if (fd < 0) {
		OGDA_LOG_WARN("fabric: memfd_create: %s", strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	/* Pages are only backed once touched: the 16 MiB data area costs what the messages use. */
	if (ftruncate(fd, (off_t)SWNIC_SHM_SIZE) < 0 || fcntl(fd, F_ADD_SEALS, REQUIRED_SEALS) < 0) {
		OGDA_LOG_WARN("fabric: sizing or sealing the shared-memory channel: %s", strerror(errno));
		close(fd);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	if (map_fd(fd, m) != DOCA_SUCCESS) {
		OGDA_LOG_WARN("fabric: mmap of the shared-memory channel: %s", strerror(errno));
		close(fd);
		return DOCA_ERROR_NO_MEMORY;
	}
	return DOCA_SUCCESS;
}

doca_error_t swnic_shm_adopt(int fd, struct swnic_shm_map *m, char *why, size_t cap)
{
	struct stat st;
	int seals = fcntl(fd, F_GET_SEALS);

	m->memfd = -1;
	m->ctl = NULL;
	m->data = NULL;
	/* Unsealed, the peer could shrink the file under our mapping: every access a SIGBUS. */
	if (seals < 0 || (seals & REQUIRED_SEALS) != REQUIRED_SEALS) {
		snprintf(why, cap, "the channel's memfd is not sealed against resizing (seals %d)", seals);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != SWNIC_SHM_SIZE) {
		snprintf(why, cap, "the channel's memfd is not %zu bytes", SWNIC_SHM_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (map_fd(fd, m) != DOCA_SUCCESS) {
		snprintf(why, cap, "mmap: %s", strerror(errno));
		return DOCA_ERROR_NO_MEMORY;
	}
	return DOCA_SUCCESS;
}

void swnic_shm_unmap(struct swnic_shm_map *m)
{
	if (m->ctl != NULL)
		munmap(m->ctl, SWNIC_SHM_SIZE);
	if (m->memfd >= 0)
		close(m->memfd);
	m->ctl = NULL;
	m->data = NULL;
	m->memfd = -1;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Waits up to the deadline for events on sock: 1 ready, 0 deadline, -1 error. */
static int wait_sock(int sock, short events, uint64_t deadline_ns)
{
	for (;;) {
		struct pollfd pfd = {.fd = sock, .events = events};
		uint64_t now = swnic_sock_now_ns(), left_ms;
		int rc;

		if (now >= deadline_ns)
			return 0;
		left_ms = (deadline_ns - now + 999999ull) / 1000000ull;

		rc = poll(&pfd, 1, left_ms > 1000 ? 1000 : (int)left_ms);
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

/* The offer's 8 bytes and room for one descriptor, as sendmsg / recvmsg take them. */
struct offer_msg {
	uint8_t bytes[8];
	struct iovec iov;
	struct msghdr mh;
	/* Last: struct cmsghdr ends in a flexible array, so clang treats the union as variable-sized. */
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
};

static void offer_init(struct offer_msg *o)
{
	memset(o, 0, sizeof(*o));
	o->iov.iov_base = o->bytes;
	o->iov.iov_len = sizeof(o->bytes);
	o->mh.msg_iov = &o->iov;
	o->mh.msg_iovlen = 1;
	o->mh.msg_control = o->u.buf;
	o->mh.msg_controllen = sizeof(o->u.buf);
}

doca_error_t swnic_shm_send_offer(int sock, int memfd, uint64_t deadline_ns)
{
	struct offer_msg o;
	struct cmsghdr *cm;
	ssize_t n;

	offer_init(&o);
	put_be32(o.bytes, SWNIC_SHM_MAGIC);
	put_be32(o.bytes + 4, SWNIC_SHM_DATA_CAP);
	cm = CMSG_FIRSTHDR(&o.mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &memfd, sizeof(int));
	for (;;) {
		n = sendmsg(sock, &o.mh, MSG_NOSIGNAL);
		if (n == (ssize_t)sizeof(o.bytes))
			return DOCA_SUCCESS;
		if (n >= 0)
			return DOCA_ERROR_CONNECTION_RESET; /* 8 bytes on a fresh stream socket go whole */
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return DOCA_ERROR_CONNECTION_RESET;
		if (wait_sock(sock, POLLOUT, deadline_ns) <= 0)
			return DOCA_ERROR_TIME_OUT;
	}
}

doca_error_t swnic_shm_recv_offer(int sock, uint64_t deadline_ns, int *memfd, char *why, size_t cap)
{
	struct offer_msg o;
	struct cmsghdr *cm;
	ssize_t n;
	int fd = -1;

	*memfd = -1;
	for (;;) {
		offer_init(&o);
		n = recvmsg(sock, &o.mh, MSG_CMSG_CLOEXEC);
		if (n >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			snprintf(why, cap, "recvmsg: %s", strerror(errno));
			return DOCA_ERROR_CONNECTION_RESET;
		}
		if (wait_sock(sock, POLLIN, deadline_ns) <= 0) {
			snprintf(why, cap, "no channel offered before the handshake deadline");
			return DOCA_ERROR_TIME_OUT;
		}
	}
	for (cm = CMSG_FIRSTHDR(&o.mh); cm != NULL; cm = CMSG_NXTHDR(&o.mh, cm)) {
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS && cm->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(cm), sizeof(int));
		else if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
			/* More than one descriptor: close them all, none is adopted. */
			size_t k, nfd = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);

			for (k = 0; k < nfd; k++) {
				int extra;

				memcpy(&extra, CMSG_DATA(cm) + k * sizeof(int), sizeof(int));
				close(extra);
			}
		}
	}
	if (n != (ssize_t)sizeof(o.bytes) || (o.mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0 || fd < 0 ||
	    get_be32(o.bytes) != SWNIC_SHM_MAGIC || get_be32(o.bytes + 4) != SWNIC_SHM_DATA_CAP) {
		if (fd >= 0)
			close(fd);
		snprintf(why, cap, "malformed channel offer (%zd bytes%s)", n, fd < 0 ? ", no descriptor" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*memfd = fd;
	return DOCA_SUCCESS;
}

static long futex(atomic_uint *word, int op, unsigned val, const struct timespec *ts)
{
	/* Not FUTEX_PRIVATE: the word lies in memory shared with another process. */
	return syscall(SYS_futex, (unsigned *)word, op, val, ts, NULL, 0);
}

/*
 * ThreadSanitizer cannot tell that two mappings of one memfd are the same memory, so it does
 * not see the hand-over through the sequence words (a channel's two ends may even live in one
 * process, at two addresses), nor, across processes, what the application synchronises with
 * its own sockets (an example's out-of-band steps). TSan models every socket as one object
 * that a send releases and a receive acquires; that is how it follows the same hand-overs
 * over TCP. So in TSan builds a post sends zero bytes on the channel's socket (a release), and
 * a wait that sees a post sends and receives one byte through a private socket pair (an
 * acquire). Nothing moves on the channel; the peer reads nothing. Other builds: nothing.
 */
#if defined(__SANITIZE_THREAD__)
#define SWNIC_SHM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SWNIC_SHM_TSAN 1
#endif
#endif

#ifdef SWNIC_SHM_TSAN
static int tsan_pair[2] = {-1, -1};
static pthread_once_t tsan_once = PTHREAD_ONCE_INIT;

/* A connected pair made with socket / connect / accept: TSan gives socketpair() a sync object of its own. */
static void tsan_pair_open(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	socklen_t len = sizeof(sa_family_t), alen = sizeof(sa);
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	/* Binding only the family autobinds a fresh abstract name. */
	if (l >= 0 && bind(l, (struct sockaddr *)&sa, len) == 0 && listen(l, 1) == 0 &&
	    getsockname(l, (struct sockaddr *)&sa, &alen) == 0) {
		tsan_pair[0] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (tsan_pair[0] >= 0 && connect(tsan_pair[0], (struct sockaddr *)&sa, alen) == 0)
			tsan_pair[1] = accept(l, NULL, NULL);
	}
	if (tsan_pair[1] < 0)
		OGDA_LOG_WARN("fabric: no socket pair for the race detector's hand-over: %s", strerror(errno));
	if (l >= 0)
		close(l);
}
#endif

static void tsan_release(int sock)
{
#ifdef SWNIC_SHM_TSAN
	(void)send(sock, "", 0, MSG_NOSIGNAL | MSG_DONTWAIT);
#else
	(void)sock;
#endif
}

static void tsan_acquire(void)
{
#ifdef SWNIC_SHM_TSAN
	char b = 0;

	pthread_once(&tsan_once, tsan_pair_open);
	/* Each caller sends one byte before it receives one, so the receive never waits for long. */
	if (tsan_pair[1] >= 0 && send(tsan_pair[0], &b, 1, MSG_NOSIGNAL) == 1)
		(void)recv(tsan_pair[1], &b, 1, 0);
#endif
}

void swnic_shm_post(atomic_uint *word, atomic_uint *sleeping, unsigned seq, int sock)
{
	tsan_release(sock);
	/* Sequentially consistent on both sides (Dekker): either the sleeper sees seq before it
	 * sleeps, or the poster sees it sleeping and wakes it. */
	atomic_store(word, seq);
	if (atomic_load(sleeping) != 0)
		futex(word, FUTEX_WAKE, 1, NULL);
}

bool swnic_shm_reached(atomic_uint *word, unsigned seq)
{
	if ((int)(atomic_load_explicit(word, memory_order_acquire) - seq) < 0)
		return false;
	tsan_acquire();
	return true;
}

static bool sock_hung_up(int sock)
{
	struct pollfd pfd = {.fd = sock, .events = POLLIN | POLLRDHUP};

	/* The peer never sends on a channel's socket after the offer: anything readable is the end. */
	return poll(&pfd, 1, 0) > 0;
}

doca_error_t swnic_shm_wait(atomic_uint *word, unsigned old, atomic_uint *sleeping, int sock, uint64_t deadline_ns,
			    const struct swnic_poll_cfg *poll_cfg)
{
	uint64_t start = swnic_sock_now_ns(), last_check = start;

	for (;;) {
		struct timespec ts;
		uint64_t now, d;

		if (atomic_load_explicit(word, memory_order_acquire) != old) {
			tsan_acquire();
			return DOCA_SUCCESS;
		}
		now = swnic_sock_now_ns();
		if (now >= deadline_ns)
			return DOCA_ERROR_TIME_OUT;
		if (now - last_check >= SWNIC_SHM_HUP_CHECK_NS) {
			last_check = now;
			if (sock_hung_up(sock))
				return atomic_load(word) != old ? DOCA_SUCCESS : DOCA_ERROR_CONNECTION_RESET;
		}
		switch (swnic_poll_idle_step(poll_cfg, now - start)) {
		case SWNIC_IDLE_SPIN:
			swnic_cpu_relax();
			break;
		case SWNIC_IDLE_YIELD:
			sched_yield();
			break;
		default:
			/* A post wakes the futex at once; the cap only bounds the hang-up check. */
			d = deadline_ns - now < SWNIC_SHM_HUP_CHECK_NS ? deadline_ns - now : SWNIC_SHM_HUP_CHECK_NS;
			ts.tv_sec = (time_t)(d / 1000000000ull);
			ts.tv_nsec = (long)(d % 1000000000ull);
			atomic_store(sleeping, 1u);
			if (atomic_load(word) == old)
				futex(word, FUTEX_WAIT, old, &ts);
			atomic_store(sleeping, 0u);
			break;
		}
	}
}
