/* SPDX-License-Identifier: BSD-3-Clause */
/* The receive thread of the software NIC's Ethernet port (swnic_eth_rx.h). */
#define _GNU_SOURCE /* recvmmsg */
#include "swnic/swnic_eth_rx.h"

#include "core/log.h"
#include "swnic/swnic.h"
#include "opengda_mlx5.h"
#include "swnic/swnic_eth_csum.h"
#include "swnic/swnic_steer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define RX_FRAME_MAX 65536u
#define RX_BURST 32u         /* frames one recvmmsg takes */
#define RX_POLL_MS 50        /* how soon a stop request is seen */
#define RX_SOCKET_BUF (8 << 20)

/* One frame slot of a burst: the bytes (4 spare for a VLAN tag put back) and its auxdata. */
struct rx_slot {
	uint8_t frame[RX_FRAME_MAX + 4];
	/* aligned as a cmsghdr (size_t words); not a union with one: clang calls that variable-sized */
	_Alignas(size_t) char ctl[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	struct sockaddr_ll from;
	struct iovec iov;
};

struct swnic_eth_rx {
	struct swnic *nic;
	int fd;
	int ifindex;
	bool in_error;      /* the last socket call failed: the next failure is not logged again */
	pthread_t thread;
	atomic_bool stop;
	struct mmsghdr mm[RX_BURST];
	struct rx_slot slot[RX_BURST];
};

/*
 * The frame as it was on the wire. A Linux sender that offloads checksums (veth, TAP) hands the
 * frame over with its TCP / UDP checksum only started (auxdata CSUMNOTREADY): the sending NIC
 * would have finished it, so the port does. A VLAN tag the kernel took out (VLAN_VALID) goes back
 * after the MAC addresses.
 */
static size_t as_on_wire(uint8_t *frame, size_t n, const struct tpacket_auxdata *aux)
{
	if (aux == NULL)
		return n;
	if ((aux->tp_status & TP_STATUS_VLAN_VALID) && n >= 12 && n <= RX_FRAME_MAX) {
		uint16_t tpid = (aux->tp_status & TP_STATUS_VLAN_TPID_VALID) ? aux->tp_vlan_tpid : 0x8100u;

		memmove(frame + 16, frame + 12, n - 12);
		frame[12] = (uint8_t)(tpid >> 8);
		frame[13] = (uint8_t)tpid;
		frame[14] = (uint8_t)(aux->tp_vlan_tci >> 8);
		frame[15] = (uint8_t)aux->tp_vlan_tci;
		n += 4;
	}
	if (aux->tp_status & TP_STATUS_CSUMNOTREADY)
		(void)swnic_eth_csum_fill(frame, n, OPENGDA_MLX5_ETH_WQE_L4_CSUM);
	return n;
}

/* Re-arms the burst's message headers (recvmmsg overwrites the lengths). */
static void burst_arm(struct swnic_eth_rx *rx)
{
	uint32_t i;

	for (i = 0; i < RX_BURST; i++) {
		struct rx_slot *sl = &rx->slot[i];
		struct msghdr *mh = &rx->mm[i].msg_hdr;

		sl->iov.iov_base = sl->frame;
		sl->iov.iov_len = RX_FRAME_MAX;
		mh->msg_name = &sl->from;
		mh->msg_namelen = sizeof(sl->from);
		mh->msg_iov = &sl->iov;
		mh->msg_iovlen = 1;
		mh->msg_control = sl->ctl;
		mh->msg_controllen = sizeof(sl->ctl);
		mh->msg_flags = 0;
	}
}

/* Steers frame i of a received burst (frames this port sent, OUTGOING, are not received). */
static void burst_steer(struct swnic_eth_rx *rx, uint32_t i)
{
	struct rx_slot *sl = &rx->slot[i];
	struct msghdr *mh = &rx->mm[i].msg_hdr;
	const struct tpacket_auxdata *aux = NULL;
	struct cmsghdr *cm;
	size_t n;

	if (sl->from.sll_pkttype == PACKET_OUTGOING)
		return;
	for (cm = CMSG_FIRSTHDR(mh); cm != NULL; cm = CMSG_NXTHDR(mh, cm))
		if (cm->cmsg_level == SOL_PACKET && cm->cmsg_type == PACKET_AUXDATA &&
		    cm->cmsg_len >= CMSG_LEN(sizeof(*aux)))
			aux = (const struct tpacket_auxdata *)(const void *)CMSG_DATA(cm);
	n = as_on_wire(sl->frame, rx->mm[i].msg_len, aux);
	swnic_steer_rx(rx->nic, sl->frame, (uint32_t)n);
}

/*
 * A failed poll or receive (e: its errno): counted (rx_errors), logged when it starts a run of
 * failures. A persistent error (the interface down, or deleted) makes the socket report itself
 * ready at once, so the thread waits a poll period before it tries again instead of spinning.
 * False when receiving cannot resume: the interface is gone (its index names none any more).
 */
static bool rx_error(struct swnic_eth_rx *rx, const char *what, int e)
{
	char name[IF_NAMESIZE];
	bool gone = if_indextoname((unsigned)rx->ifindex, name) == NULL;
	struct timespec ts = {0, RX_POLL_MS * 1000000L};

	if (rx->nic->steer != NULL)
		atomic_fetch_add(&rx->nic->steer->rx_errors, 1);
	if (gone) {
		OGDA_LOG_ERR("%s: Ethernet port receive: %s: %s; interface %d is gone: receiving stops", rx->nic->name,
			     what, strerror(e), rx->ifindex);
		return false;
	}
	if (!rx->in_error)
		OGDA_LOG_WARN("%s: Ethernet port receive: %s: %s; retrying every %d ms (counted in rx_errors)",
			      rx->nic->name, what, strerror(e), RX_POLL_MS);
	rx->in_error = true;
	nanosleep(&ts, NULL);
	return true;
}

static void *rx_loop(void *arg)
{
	struct swnic_eth_rx *rx = arg;
	struct pollfd pfd = {.fd = rx->fd, .events = POLLIN};

	while (!atomic_load_explicit(&rx->stop, memory_order_acquire)) {
		int n, i, rc = poll(&pfd, 1, RX_POLL_MS);

		if (rc <= 0) {
			if (rc < 0 && errno != EINTR && !rx_error(rx, "poll", errno))
				break;
			continue;
		}
		burst_arm(rx);
		n = recvmmsg(rx->fd, rx->mm, RX_BURST, MSG_DONTWAIT, NULL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				continue;
			if (!rx_error(rx, "recvmmsg", errno))
				break;
			continue;
		}
		rx->in_error = false;
		for (i = 0; i < n; i++)
			burst_steer(rx, (uint32_t)i);
	}
	return NULL;
}

doca_error_t swnic_eth_rx_start(struct swnic *nic, int ifindex, const char *ifname, struct swnic_eth_rx **out)
{
	struct sockaddr_ll sll;
	struct swnic_eth_rx *rx;
	int one = 1, rcvbuf = RX_SOCKET_BUF, e;

	rx = calloc(1, sizeof(*rx));
	if (rx == NULL)
		return DOCA_ERROR_NO_MEMORY;
	rx->nic = nic;
	rx->ifindex = ifindex;
	rx->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (rx->fd < 0) {
		e = errno;
		OGDA_LOG_ERR("%s: Ethernet port: receive socket for '%s': %s", nic->name, ifname, strerror(e));
		free(rx);
		return e == EPERM || e == EACCES ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_OPERATING_SYSTEM;
	}
	/* Room for bursts while a frame is steered (the kernel caps it at net.core.rmem_max unless privileged). */
	if (setsockopt(rx->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) != 0)
		(void)setsockopt(rx->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	/* Checksum state and stripped VLAN tags come as auxdata (as_on_wire). */
	(void)setsockopt(rx->fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one));
#ifdef PACKET_IGNORE_OUTGOING
	(void)setsockopt(rx->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
#endif
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(rx->fd, (const struct sockaddr *)&sll, sizeof(sll)) != 0) {
		OGDA_LOG_ERR("%s: Ethernet port: cannot bind the receive socket to '%s': %s", nic->name, ifname,
			     strerror(errno));
		close(rx->fd);
		free(rx);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	e = pthread_create(&rx->thread, NULL, rx_loop, rx);
	if (e != 0) {
		OGDA_LOG_ERR("%s: Ethernet port: no receive thread: %s", nic->name, strerror(e));
		close(rx->fd);
		free(rx);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	*out = rx;
	return DOCA_SUCCESS;
}

void swnic_eth_rx_stop(struct swnic_eth_rx *rx)
{
	if (rx == NULL)
		return;
	atomic_store_explicit(&rx->stop, true, memory_order_release);
	pthread_join(rx->thread, NULL);
	close(rx->fd);
	free(rx);
}
