/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software NIC's Ethernet port: a Linux interface (a veth end, a TAP) reached through an
 * AF_PACKET socket bound to it. Frames that Ethernet SQs send leave there, their checksums
 * written first when the WQE asks (swnic_eth_csum.c).
 *
 * One port per NIC, attached by OPENGDA_SWNIC_ETH_IFACE at creation or later by
 * opengda_eth_port_attach(). Frames arriving there are read by the port's receive thread
 * (swnic_eth_rx.c) and steered into receive queues (swnic_steer.c). nic->eth_lock guards the port and serialises sends: the wire
 * takes one frame at a time, and the frame is assembled in the port's own buffer.
 */
#include "swnic/swnic.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_engine.h"
#include "swnic/swnic_eth_csum.h"
#include "swnic/swnic_eth_rx.h"

#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ETH_FRAME_MAX 65536u /* largest frame the port assembles (the interface's MTU decides) */

struct swnic_eth_port {
	int fd;
	int ifindex;
	char ifname[IF_NAMESIZE];
	struct swnic_eth_rx *rx;          /* the receive thread (swnic_eth_rx.c) */
	uint8_t frame[ETH_FRAME_MAX];
};

/* Counters outlive attachments (reset when a NIC of that index is created): one set per NIC index. */
struct eth_counters {
	atomic_ulong tx_packets, tx_bytes, tx_dropped, tx_errors;
	atomic_bool warned_unattached;
};
static struct eth_counters counters[SWNIC_MAX_INSTANCES];

static struct eth_counters *ctr(const struct swnic *nic)
{
	return &counters[nic->index < SWNIC_MAX_INSTANCES ? nic->index : 0];
}

static doca_error_t port_open(const char *ifname, struct swnic_eth_port **out)
{
	struct sockaddr_ll sll;
	struct swnic_eth_port *p;
	unsigned int idx;
	int fd, e;

	idx = if_nametoindex(ifname);
	if (idx == 0) {
		OGDA_LOG_ERR("Ethernet port: no interface '%s': %s", ifname, strerror(errno));
		return DOCA_ERROR_NOT_FOUND;
	}
	/* Protocol 0: the socket receives nothing; it only sends. */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		e = errno;
		OGDA_LOG_ERR("Ethernet port: AF_PACKET socket for '%s': %s%s", ifname, strerror(e),
			     e == EPERM ? " (needs CAP_NET_RAW)" : "");
		return e == EPERM || e == EACCES ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_OPERATING_SYSTEM;
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = (int)idx;
	if (bind(fd, (const struct sockaddr *)&sll, sizeof(sll)) != 0) {
		OGDA_LOG_ERR("Ethernet port: cannot bind to '%s': %s", ifname, strerror(errno));
		close(fd);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		close(fd);
		return DOCA_ERROR_NO_MEMORY;
	}
	p->fd = fd;
	p->ifindex = (int)idx;
	snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
	*out = p;
	return DOCA_SUCCESS;
}

static void port_close(struct swnic_eth_port *p)
{
	if (p == NULL)
		return;
	swnic_eth_rx_stop(p->rx);
	close(p->fd);
	free(p);
}

doca_error_t swnic_eth_attach(struct swnic *nic, const char *ifname)
{
	struct swnic_eth_port *p = NULL, *old;
	doca_error_t err;

	if (nic == NULL || ifname == NULL || ifname[0] == '\0' || strlen(ifname) >= IF_NAMESIZE) {
		OGDA_LOG_ERR("Ethernet port: a NIC and an interface name of 1..%u characters are needed",
			     IF_NAMESIZE - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = port_open(ifname, &p);
	if (err != DOCA_SUCCESS)
		return err;
	err = swnic_eth_rx_start(nic, p->ifindex, p->ifname, &p->rx);
	if (err != DOCA_SUCCESS) {
		port_close(p);
		return err;
	}
	pthread_mutex_lock(&nic->eth_lock);
	old = nic->eth;
	nic->eth = p;
	pthread_mutex_unlock(&nic->eth_lock);
	port_close(old);
	OGDA_LOG_INFO("%s: Ethernet port attached to %s (ifindex %d)", nic->name, p->ifname, p->ifindex);
	return DOCA_SUCCESS;
}

void swnic_eth_detach(struct swnic *nic)
{
	struct swnic_eth_port *old;

	if (nic == NULL)
		return;
	pthread_mutex_lock(&nic->eth_lock);
	old = nic->eth;
	nic->eth = NULL;
	pthread_mutex_unlock(&nic->eth_lock);
	port_close(old);
}

void swnic_eth_attach_from_env(struct swnic *nic)
{
	const char *v = getenv(SWNIC_ENV_ETH_IFACE);
	struct eth_counters *c = ctr(nic);
	char name[IF_NAMESIZE];
	uint32_t i = 0;
	size_t n;

	/* A new NIC of this index: its counters start from zero. */
	atomic_store(&c->tx_packets, 0);
	atomic_store(&c->tx_bytes, 0);
	atomic_store(&c->tx_dropped, 0);
	atomic_store(&c->tx_errors, 0);
	atomic_store(&c->warned_unattached, false);

	while (v != NULL && *v != '\0' && i < nic->index) { /* entry nic->index of the list */
		v = strchr(v, ',');
		if (v != NULL)
			v++;
		i++;
	}
	if (v == NULL || *v == '\0' || *v == ',')
		return;
	n = strcspn(v, ",");
	if (n >= sizeof(name)) {
		OGDA_LOG_ERR("%s: %s entry %u is longer than an interface name", nic->name, SWNIC_ENV_ETH_IFACE,
			     nic->index);
		return;
	}
	memcpy(name, v, n);
	name[n] = '\0';
	if (swnic_eth_attach(nic, name) != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: %s=%s: the Ethernet port stays unattached; frames sent are dropped", nic->name,
			     SWNIC_ENV_ETH_IFACE, getenv(SWNIC_ENV_ETH_IFACE));
}

void swnic_eth_get_stats(struct swnic *nic, struct swnic_eth_stats *s)
{
	struct eth_counters *c;

	if (nic == NULL || s == NULL)
		return;
	c = ctr(nic);
	s->tx_packets = atomic_load(&c->tx_packets);
	s->tx_bytes = atomic_load(&c->tx_bytes);
	s->tx_dropped = atomic_load(&c->tx_dropped);
	s->tx_errors = atomic_load(&c->tx_errors);
}

uint8_t swnic_eth_transmit(struct swnic *nic, uint8_t cs_flags, const uint8_t *hdr, uint32_t hdr_len,
			   const uint8_t *data, uint64_t data_len, uint8_t *vendor)
{
	struct eth_counters *c = ctr(nic);
	uint64_t len = hdr_len + data_len;
	struct swnic_eth_port *p;
	ssize_t sent;
	int e;

	*vendor = 0;
	if (len > ETH_FRAME_MAX) {
		*vendor = SWNIC_VSYND_MALFORMED;
		OGDA_LOG_WARN("%s: a %llu-byte frame exceeds the port's %u bytes", nic->name, (unsigned long long)len,
			      ETH_FRAME_MAX);
		return OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	}
	pthread_mutex_lock(&nic->eth_lock);
	p = nic->eth;
	if (p == NULL) {
		pthread_mutex_unlock(&nic->eth_lock);
		atomic_fetch_add(&c->tx_dropped, 1);
		if (!atomic_exchange(&c->warned_unattached, true))
			OGDA_LOG_WARN("%s: no Ethernet port attached (%s, opengda_eth_port_attach): frames are dropped "
				      "and counted", nic->name, SWNIC_ENV_ETH_IFACE);
		return 0;
	}
	if (hdr_len != 0)
		memcpy(p->frame, hdr, hdr_len);
	if (data_len != 0)
		memcpy(p->frame + hdr_len, data, (size_t)data_len);
	(void)swnic_eth_csum_fill(p->frame, (size_t)len, cs_flags);
	sent = send(p->fd, p->frame, (size_t)len, 0);
	e = errno;
	pthread_mutex_unlock(&nic->eth_lock);
	if (sent == (ssize_t)len) {
		atomic_fetch_add(&c->tx_packets, 1);
		atomic_fetch_add(&c->tx_bytes, len);
		return 0;
	}
	atomic_fetch_add(&c->tx_errors, 1);
	if (sent < 0 && e == EMSGSIZE) {
		*vendor = SWNIC_VSYND_MSG_TOO_LONG;
		OGDA_LOG_WARN("%s: a %llu-byte frame is larger than the interface takes", nic->name,
			      (unsigned long long)len);
		return OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	}
	/* The wire lost it (link down, no buffer): a NIC completes the send all the same. */
	OGDA_LOG_WARN("%s: a %llu-byte frame was not sent: %s", nic->name, (unsigned long long)len,
		      sent < 0 ? strerror(e) : "short send");
	return 0;
}

int swnic_eth_wait_time_due(const struct prm_wqe_wait *w, uint64_t now_ns, uint64_t *wake_ns, uint8_t *vendor)
{
	struct timespec rt;
	uint64_t target, clock_val, clock_ns, target_ns, wake;

	/*
	 * The "bigger" / "smaller" conditions (plain or cyclic) are the ones wait-on-time WQEs carry:
	 * the send waits until the clock passes the value. Others are not modelled.
	 */
	if (w->operation < OPENGDA_MLX5_WAIT_COND_BIGGER || w->operation > OPENGDA_MLX5_WAIT_COND_CYCLIC_SMALLER ||
	    w->lkey != 0 || w->va != 0) {
		*vendor = SWNIC_VSYND_BAD_OPCODE;
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_val = ((uint64_t)rt.tv_sec << 32 | (uint64_t)rt.tv_nsec) & w->mask;
	target = w->value & w->mask;
	if (clock_val >= target)
		return 1;
	clock_ns = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
	target_ns = (target >> 32) * 1000000000ull + (target & 0xffffffffu);
	wake = now_ns + (target_ns > clock_ns ? target_ns - clock_ns : 0);
	if (wake < *wake_ns)
		*wake_ns = wake;
	return 0;
}
