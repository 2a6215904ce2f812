/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_packet_processing: what the kernels (packet_processing_kernel.cu) and the host threads
 * (packet_processing.c) share — the per-queue statistics handed to the CPU through a semaphore,
 * the receivers' arguments, and the per-packet work, written once for both (CUDA and C):
 *   UDP: packets, bytes, DNS queries (port 53) and others;
 *   TCP: packets, bytes, SYN, FIN, and HTTP requests (GET / POST / HEAD at the payload start);
 *   ICMP: echo requests answered in place (MACs and addresses swapped, TTL 128, type 0, the
 *         ICMP checksum adjusted; the IPv4 header checksum is the send queue's offload).
 */
#ifndef GPP_H_
#define GPP_H_

#include <stdint.h>

#include "device/ogda_dev_port.h"
#include "device/ogda_dev_sem.h"
#include "doca_gpunetio_eth_def.h"

#define GPP_MAX_QUEUES 4u            /* per class (UDP, TCP) */
#define GPP_ICMP_QUEUE_ID 16u
#define GPP_PKTS 1024u               /* packet buffers per queue */
#define GPP_PKT_SIZE 2048u
#define GPP_RECV_MAX 512u            /* packets one receive returns at most */
#define GPP_RECV_TIMEOUT_NS 1000000ull
#define GPP_ICMP_RECV_MAX 64u
#define GPP_ICMP_TIMEOUT_NS 50000ull

enum gpp_class {
	GPP_UDP = 0,
	GPP_TCP = 1,
	GPP_ICMP = 2,
	GPP_HTTP = 3,   /* -s: the HTTP queues (established connections to port 80) */
};

OGDA_DEV_FN uint16_t gpp_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* IPv4 without options behind a plain Ethernet header, of protocol @proto: the L4 header, else 0. */
OGDA_DEV_FN const uint8_t *gpp_l4(const uint8_t *p, uint32_t len, uint8_t proto)
{
	uint32_t ihl;

	if (len < 34 || p[12] != 0x08 || p[13] != 0x00 || (p[14] >> 4) != 4 || p[23] != proto)
		return 0;
	ihl = (uint32_t)(p[14] & 0xfu) * 4u;
	return 14u + ihl + 8u <= len ? p + 14 + ihl : 0;
}

#include "gpp_http.h"

/* One queue's counters (the semaphore's custom info); cumulative. */
struct gpp_stats {
	uint64_t packets, bytes;
	uint64_t a, b, c;            /* UDP: dns, other, -; TCP: syn, fin, http; ICMP: echo requests, replies sent, -;
	                                HTTP: GETs handed to the server, GETs not handed over (an error), - */
};

struct gpp_queue_args {
	struct doca_gpu_eth_rxq *rxq;
	struct doca_gpu_semaphore_gpu *sem;  /* item 0: this queue's statistics */
	uint32_t cls;                        /* enum gpp_class */
};

/* Receive queues: UDP [0, nq), TCP [nq, 2 nq), ICMP 2 nq, HTTP (with -s) [2 nq + 1, 3 nq + 1). */
#define GPP_QUEUES_MAX (3 * GPP_MAX_QUEUES + 1)

struct gpp_args {
	struct gpp_queue_args q[GPP_QUEUES_MAX];
	uint32_t nq;                         /* queues per class (UDP, TCP, HTTP) */
	uint32_t http;                       /* 1: the HTTP server mode */
	struct gpp_http_queue hq[GPP_MAX_QUEUES]; /* HTTP mode: HTTP queue i's server side */
	struct gpp_http_pages pages;
	struct doca_gpu_eth_txq *txq;        /* ICMP replies */
	volatile uint32_t *exit_flag;
	int32_t *status;                     /* 0, or the first receive or send error */
};

/* Counts one packet of class @cls into @s. */
OGDA_DEV_FN void gpp_classify(uint32_t cls, const uint8_t *p, uint32_t len, struct gpp_stats *s)
{
	const uint8_t *l4;

	s->packets++;
	s->bytes += len;
	if (cls == GPP_HTTP)
		return; /* packets and bytes only: the HTTP receiver counts GETs */
	if (cls == GPP_UDP) {
		l4 = gpp_l4(p, len, 17);
		if (l4 != 0 && (gpp_rd16(l4) == 53 || gpp_rd16(l4 + 2) == 53))
			s->a++;
		else
			s->b++;
	} else if (cls == GPP_TCP) {
		l4 = gpp_l4(p, len, 6);
		if (l4 == 0 || (uint32_t)(l4 - p) + 20u > len)
			return;
		if (l4[13] & 0x02)
			s->a++;
		if (l4[13] & 0x01)
			s->b++;
		{
			const uint8_t *pl = l4 + (l4[12] >> 4) * 4u;
			uint32_t left = len > (uint32_t)(pl - p) ? len - (uint32_t)(pl - p) : 0;

			if (left >= 4 && ((pl[0] == 'G' && pl[1] == 'E' && pl[2] == 'T' && pl[3] == ' ') ||
					  (pl[0] == 'P' && pl[1] == 'O' && pl[2] == 'S' && pl[3] == 'T') ||
					  (pl[0] == 'H' && pl[1] == 'E' && pl[2] == 'A' && pl[3] == 'D')))
				s->c++;
		}
	}
}

/*
 * Turns an ICMP echo request into its reply, in place: 1 when it did (the frame is then ready to
 * send back, its IPv4 header checksum left to the send queue's offload), 0 for anything else.
 */
OGDA_DEV_FN int gpp_icmp_reply(uint8_t *p, uint32_t len)
{
	uint8_t t;
	uint32_t i, sum;
	uint8_t *icmp = (uint8_t *)gpp_l4(p, len, 1);

	if (icmp == 0 || icmp[0] != 8 || icmp[1] != 0)
		return 0;
	for (i = 0; i < 6; i++) {
		t = p[i];
		p[i] = p[6 + i];
		p[6 + i] = t;
	}
	for (i = 0; i < 4; i++) {
		t = p[26 + i];
		p[26 + i] = p[30 + i];
		p[30 + i] = t;
	}
	p[22] = 128;  /* TTL */
	p[24] = 0;    /* header checksum: written by the NIC (L3 offload) */
	p[25] = 0;
	icmp[0] = 0;  /* echo reply */
	/* RFC 1624: the type word went from 0x0800 to 0x0000, so the checksum grows by 0x0800. */
	sum = (uint32_t)gpp_rd16(icmp + 2) + 0x0800u;
	sum = (sum & 0xffffu) + (sum >> 16);
	icmp[2] = (uint8_t)(sum >> 8);
	icmp[3] = (uint8_t)sum;
	return 1;
}

/*
 * Hands a queue's cumulative counts to the CPU through item 0 of its semaphore when the CPU has
 * read the last ones (FREE): a skipped hand-over is caught up by the next. @final: the receiver is
 * leaving and the CPU reads only after it has, so the last counts go in whatever the status.
 */
OGDA_DEV_FN void gpp_publish(const struct gpp_queue_args *q, const struct gpp_stats *s, int final)
{
	enum doca_gpu_semaphore_status st = DOCA_GPU_SEMAPHORE_STATUS_FREE;
	void *info = 0;

	if (ogda_dev_sem_get_status(q->sem, 0, &st) != DOCA_SUCCESS || (!final && st != DOCA_GPU_SEMAPHORE_STATUS_FREE) ||
	    ogda_dev_sem_get_custom_info_addr(q->sem, 0, &info) != DOCA_SUCCESS)
		return;
	*(struct gpp_stats *)info = *s;
	(void)ogda_dev_sem_set_status(q->sem, 0, DOCA_GPU_SEMAPHORE_STATUS_READY);
}

#ifdef __cplusplus
extern "C" {
#endif
/*
 * Launches the persistent kernels (UDP, TCP: a block per queue; ICMP: one warp; with HTTP: a block
 * per HTTP queue and a server warp per HTTP queue). 0 or -1.
 */
int gpp_launch(const struct gpp_args *a);
#ifdef __cplusplus
}
#endif

#endif /* GPP_H_ */
