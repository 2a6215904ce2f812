/* SPDX-License-Identifier: BSD-3-Clause */
/* The receive thread of the software NIC's Ethernet port (swnic_eth_rx.h). */
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
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define RX_FRAME_MAX 65536u
#define RX_POLL_MS 50        /* how soon a stop request is seen */

struct swnic_eth_rx {
	struct swnic *nic;
	int fd;
	pthread_t thread;
	atomic_bool stop;
	uint8_t frame[RX_FRAME_MAX];
};

/*
 * The frame as it was on the wire. A Linux sender that offloads checksums (veth, TAP) hands the
 * frame over with its TCP / UDP checksum only started (auxdata CSUMNOTREADY): the sending NIC
 * would have finished it, so the port does. A VLAN tag the kernel took out (VLAN_VALID) goes back
 * after the MAC addresses.
 */
static size_t as_on_wire(struct swnic_eth_rx *rx, size_t n, const struct tpacket_auxdata *aux)
{
	if (aux == NULL)
		return n;
	if ((aux->tp_status & TP_STATUS_VLAN_VALID) && n >= 12 && n + 4 <= sizeof(rx->frame)) {
		uint16_t tpid = (aux->tp_status & TP_STATUS_VLAN_TPID_VALID) ? aux->tp_vlan_tpid : 0x8100u;

		memmove(rx->frame + 16, rx->frame + 12, n - 12);
		rx->frame[12] = (uint8_t)(tpid >> 8);
		rx->frame[13] = (uint8_t)tpid;
		rx->frame[14] = (uint8_t)(aux->tp_vlan_tci >> 8);
		rx->frame[15] = (uint8_t)aux->tp_vlan_tci;
		n += 4;
	}
	if (aux->tp_status & TP_STATUS_CSUMNOTREADY)
		(void)swnic_eth_csum_fill(rx->frame, n, OPENGDA_MLX5_ETH_WQE_L4_CSUM);
	return n;
}

/* One frame and its auxdata; -1 with errno on failure, -2 for a frame to skip. */
static ssize_t rx_one(struct swnic_eth_rx *rx)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	} ctl;
	struct sockaddr_ll from;
	struct iovec iov = {.iov_base = rx->frame, .iov_len = sizeof(rx->frame) - 4};
	struct msghdr mh = {.msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf)};
	const struct tpacket_auxdata *aux = NULL;
	struct cmsghdr *cm;
	ssize_t n = recvmsg(rx->fd, &mh, MSG_DONTWAIT);

	if (n < 0)
		return -1;
	/* Frames this port sent come back to packet sockets as OUTGOING: not received. */
	if (from.sll_pkttype == PACKET_OUTGOING)
		return -2;
	for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_PACKET && cm->cmsg_type == PACKET_AUXDATA &&
		    cm->cmsg_len >= CMSG_LEN(sizeof(*aux)))
			aux = (const struct tpacket_auxdata *)(const void *)CMSG_DATA(cm);
	return (ssize_t)as_on_wire(rx, (size_t)n, aux);
}

static void *rx_loop(void *arg)
{
	struct swnic_eth_rx *rx = arg;
	struct pollfd pfd = {.fd = rx->fd, .events = POLLIN};

	while (!atomic_load_explicit(&rx->stop, memory_order_acquire)) {
		ssize_t n;
		int rc = poll(&pfd, 1, RX_POLL_MS);

		if (rc <= 0) {
			if (rc < 0 && errno != EINTR) {
				OGDA_LOG_ERR("%s: Ethernet port receive: poll: %s; receiving stops", rx->nic->name,
					     strerror(errno));
				break;
			}
			continue;
		}
		n = rx_one(rx);
		if (n == -2)
			continue;
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ENETDOWN)
				continue;
			OGDA_LOG_ERR("%s: Ethernet port receive: %s; receiving stops", rx->nic->name, strerror(errno));
			break;
		}
		swnic_steer_rx(rx->nic, rx->frame, (uint32_t)n);
	}
	return NULL;
}

doca_error_t swnic_eth_rx_start(struct swnic *nic, int ifindex, const char *ifname, struct swnic_eth_rx **out)
{
	struct sockaddr_ll sll;
	struct swnic_eth_rx *rx;
	int one = 1, e;

	rx = calloc(1, sizeof(*rx));
	if (rx == NULL)
		return DOCA_ERROR_NO_MEMORY;
	rx->nic = nic;
	rx->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (rx->fd < 0) {
		e = errno;
		OGDA_LOG_ERR("%s: Ethernet port: receive socket for '%s': %s", nic->name, ifname, strerror(e));
		free(rx);
		return e == EPERM || e == EACCES ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_OPERATING_SYSTEM;
	}
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
