/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_packet_processing's HTTP server mode (-s), the part the device code runs, written once for
 * CUDA and C (kernels in packet_processing_kernel.cu, host threads in gpp_http.c):
 *
 * - The CPU answers TCP connection set-up and tear-down to port 80 (gpp_tcp_cpu.c) and, for each
 *   connection it accepts, adds a flow entry steering the connection's packets to the HTTP queues.
 * - A receiver per HTTP queue counts what it gets; for each "GET <path>" it takes the next item of
 *   its queue's semaphore (a ring of GPP_HTTP_SLOTS: it claims the item FREE -> HOLD, which holds
 *   the receiver back while the server is a ring behind; an item still busy after
 *   GPP_HTTP_WAIT_NS means the server stopped, an error), writes what the answer needs into the
 *   item's custom info (struct gpp_http_req) and sets it READY. GETs of one receive are handed
 *   over by many threads at once, so two pipelined requests of one connection could be answered
 *   out of order (the application's clients send one request per connection).
 * - A server per HTTP queue (a warp on a GPU) takes the items in ring order: it builds the answer
 *   (Ethernet, IPv4, TCP headers, then a pre-built page: index, contacts or 404) into the item's own
 *   reply buffer, sends it through its queue's send queue, waits for the completion (the buffer is
 *   then free), counts it and sets the item FREE again.
 *
 * The answer's TCP sequence number is the request's acknowledgement number and its
 * acknowledgement the request's end, so the device keeps no per-connection state; the CPU chose
 * the initial sequence number when it answered the SYN. IPv4 and TCP checksums are the send
 * queue's offloads.
 */
#ifndef GPP_HTTP_H_
#define GPP_HTTP_H_

#include <stdint.h>

#include "device/ogda_dev_port.h"
#include "device/ogda_dev_sem.h"
#include "doca_gpunetio_eth_def.h"

/* Included by gpp.h, after gpp_rd16 and gpp_l4. */

#define GPP_HTTP_PORT 80u
#define GPP_HTTP_QUEUE_ID0 8u            /* HTTP queues: ids 8 .. 11 (the SDK application's ranges) */
#define GPP_TCP_CPU_QUEUE_ID0 12u        /* the CPU's TCP queues: ids 12 .. 15 */
#define GPP_HTTP_SLOTS 256u              /* semaphore items per HTTP queue, each with its reply buffer */
#define GPP_HTTP_FRAME 2048u             /* bytes of a reply buffer */
#define GPP_HTTP_HDR 54u                 /* Ethernet + IPv4 + TCP, no options */
#define GPP_HTTP_PAGE_MAX (1460u)        /* a page is one TCP segment (a standard MSS) */
#define GPP_HTTP_WAIT_NS 1000000000ull   /* longest wait for a FREE item: the server stopped (an error) */

enum gpp_http_page {
	GPP_PAGE_INDEX = 0,
	GPP_PAGE_CONTACTS = 1,
	GPP_PAGE_NOT_FOUND = 2,
	GPP_PAGES = 3,
};

/* The pages as device code addresses them: each a whole HTTP response (status line, headers, body). */
struct gpp_http_pages {
	const uint8_t *data;
	uint32_t off[GPP_PAGES], len[GPP_PAGES];
};

/* What a receiver hands the server (an item's custom info), already in the answer's order. */
struct gpp_http_req {
	uint8_t mac[12];    /* the answer's destination and source MACs */
	uint8_t ip[8];      /* its source and destination IPv4 addresses */
	uint8_t port[4];    /* its source and destination ports */
	uint32_t seq;       /* its sequence number (the request's acknowledgement number) */
	uint32_t ack;       /* its acknowledgement number (the request's sequence number + payload) */
	uint32_t page;      /* enum gpp_http_page */
};

/* One HTTP queue's server side. */
struct gpp_http_queue {
	struct doca_gpu_semaphore_gpu *sem;  /* GPP_HTTP_SLOTS items, custom info struct gpp_http_req */
	struct doca_gpu_eth_txq *txq;        /* its answers (one poller per send queue: its server) */
	uint64_t frames;                     /* GPP_HTTP_SLOTS reply buffers of GPP_HTTP_FRAME bytes */
	uint32_t frames_mkey_be;
	uint64_t *replies;                   /* answers sent (CPU_GPU memory: the CPU reads it) */
};

OGDA_DEV_FN uint32_t gpp_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

OGDA_DEV_FN void gpp_wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Whether the @p n bytes at @p s start with the NUL-terminated @p lit followed by a space, '?' or nothing. */
OGDA_DEV_FN int gpp_path_is(const uint8_t *s, uint32_t n, const char *lit)
{
	uint32_t i = 0;

	for (; lit[i] != 0; i++)
		if (i >= n || s[i] != (uint8_t)lit[i])
			return 0;
	return i == n || s[i] == ' ' || s[i] == '?' || s[i] == '\r';
}

/* The page a request path asks for. */
OGDA_DEV_FN uint32_t gpp_http_page_of(const uint8_t *path, uint32_t n)
{
	if (gpp_path_is(path, n, "/") || gpp_path_is(path, n, "/index.html"))
		return GPP_PAGE_INDEX;
	if (gpp_path_is(path, n, "/contacts.html"))
		return GPP_PAGE_CONTACTS;
	return GPP_PAGE_NOT_FOUND;
}

/* The addresses and ports of the answer to the segment at @p p (TCP header at @p tcp): swapped. */
OGDA_DEV_FN void gpp_answer_addrs(const uint8_t *p, const uint8_t *tcp, struct gpp_http_req *r)
{
	uint32_t i;

	for (i = 0; i < 6; i++) {
		r->mac[i] = p[6 + i];
		r->mac[6 + i] = p[i];
	}
	for (i = 0; i < 4; i++) {
		r->ip[i] = p[30 + i];
		r->ip[4 + i] = p[26 + i];
	}
	r->port[0] = tcp[2];
	r->port[1] = tcp[3];
	r->port[2] = tcp[0];
	r->port[3] = tcp[1];
}

/*
 * The Ethernet, IPv4 and TCP headers of an answer (@p r's addresses, ports, seq and ack) with
 * TCP @p flags, @p opt_len bytes of TCP options to follow (the caller writes them at 54) and
 * @p payload bytes after those. IPv4 identification 0 with DF, TTL 64, window 65535; both
 * checksums left to the send queue's offloads. Used by the GPU's pages and the CPU's SYN-ACKs.
 */
OGDA_DEV_FN void gpp_tcp_answer_hdr(uint8_t *out, const struct gpp_http_req *r, uint8_t flags, uint32_t opt_len,
				    uint32_t payload)
{
	uint32_t i, ip_len = 40u + opt_len + payload;

	for (i = 0; i < 12; i++)
		out[i] = r->mac[i];
	out[12] = 0x08;
	out[13] = 0x00;
	out[14] = 0x45;                /* IPv4, 20-byte header */
	out[15] = 0;
	out[16] = (uint8_t)(ip_len >> 8);
	out[17] = (uint8_t)ip_len;
	out[18] = 0;                   /* identification 0: DF is set */
	out[19] = 0;
	out[20] = 0x40;
	out[21] = 0;
	out[22] = 64;                  /* TTL */
	out[23] = 6;                   /* TCP */
	out[24] = 0;                   /* header checksum: the send queue's L3 offload */
	out[25] = 0;
	for (i = 0; i < 8; i++)
		out[26 + i] = r->ip[i];
	for (i = 0; i < 4; i++)
		out[34 + i] = r->port[i];
	gpp_wr32(out + 38, r->seq);
	gpp_wr32(out + 42, r->ack);
	out[46] = (uint8_t)((5u + opt_len / 4u) << 4);
	out[47] = flags;
	out[48] = 0xff;                /* window 65535 */
	out[49] = 0xff;
	out[50] = 0;                   /* checksum: the send queue's L4 offload */
	out[51] = 0;
	out[52] = 0;
	out[53] = 0;
}

/*
 * An IPv4 TCP segment to the HTTP port whose payload starts with "GET ": fills @p r for its answer
 * and returns 1; 0 for anything else. The payload ends where the IPv4 total length says (short
 * frames are padded to 60 bytes).
 */
OGDA_DEV_FN int gpp_http_parse(const uint8_t *p, uint32_t len, struct gpp_http_req *r)
{
	const uint8_t *tcp = (const uint8_t *)gpp_l4(p, len, 6);
	uint32_t end, hl, plen;
	const uint8_t *pl;

	if (tcp == 0 || (uint32_t)(tcp - p) + 20u > len || gpp_rd16(tcp + 2) != GPP_HTTP_PORT)
		return 0;
	end = 14u + gpp_rd16(p + 16);
	hl = (uint32_t)(tcp[12] >> 4) * 4u;
	if (hl < 20u || end > len || (uint32_t)(tcp - p) + hl > end)
		return 0;
	pl = tcp + hl;
	plen = end - (uint32_t)(pl - p);
	if (plen < 5 || pl[0] != 'G' || pl[1] != 'E' || pl[2] != 'T' || pl[3] != ' ')
		return 0;
	gpp_answer_addrs(p, tcp, r);
	r->seq = gpp_rd32(tcp + 8);
	r->ack = gpp_rd32(tcp + 4) + plen;
	r->page = gpp_http_page_of(pl + 4, plen - 4);
	return 1;
}

/* Bytes of the answer to @p r. */
OGDA_DEV_FN uint32_t gpp_http_reply_len(const struct gpp_http_pages *pg, const struct gpp_http_req *r)
{
	return GPP_HTTP_HDR + pg->len[r->page];
}

/*
 * Writes the answer to @p r into @p out, bytes shared out among @p lanes writers (this one is
 * @p lane): the caller makes the writes of all lanes visible before the send.
 */
OGDA_DEV_FN void gpp_http_reply(uint8_t *out, const struct gpp_http_pages *pg, const struct gpp_http_req *r,
				uint32_t lane, uint32_t lanes)
{
	const uint8_t *page = pg->data + pg->off[r->page];
	uint32_t n = pg->len[r->page], i;

	for (i = lane; i < n; i += lanes)
		out[GPP_HTTP_HDR + i] = page[i];
	if (lane == 0)
		gpp_tcp_answer_hdr(out, r, 0x18 /* PSH | ACK */, 0, n);
}

/*
 * The receiver's hand-over of @p r in item @p slot of @p hq's semaphore: claims the item (FREE to
 * HOLD with a compare-and-swap: two GETs of one receive may map to the same item a ring apart),
 * waiting while it is busy, writes the custom info and sets it READY (a release: the info is seen
 * first). 0, or -1 when the item stayed busy for GPP_HTTP_WAIT_NS or the handle is bad.
 */
OGDA_DEV_FN int gpp_http_hand_over(const struct gpp_http_queue *hq, uint32_t slot, const struct gpp_http_req *r)
{
	uint64_t deadline = ogda_dev_deadline(GPP_HTTP_WAIT_NS);
	void *info = 0;
	doca_error_t err;

	for (;;) {
		err = ogda_dev_sem_set_status_cas(hq->sem, slot, DOCA_GPU_SEMAPHORE_STATUS_FREE,
						  DOCA_GPU_SEMAPHORE_STATUS_HOLD);
		if (err == DOCA_SUCCESS)
			break;
		if (err != DOCA_ERROR_NOT_PERMITTED || ogda_dev_expired(deadline))
			return -1;
		ogda_dev_spin_pause();
	}
	if (ogda_dev_sem_get_custom_info_addr(hq->sem, slot, &info) != DOCA_SUCCESS)
		return -1;
	*(struct gpp_http_req *)info = *r;
	return ogda_dev_sem_set_status(hq->sem, slot, DOCA_GPU_SEMAPHORE_STATUS_READY) == DOCA_SUCCESS ? 0 : -1;
}

/* The server's look at item @p slot: its request when READY (1), else 0. */
OGDA_DEV_FN int gpp_http_pending(const struct gpp_http_queue *hq, uint32_t slot, struct gpp_http_req *r)
{
	enum doca_gpu_semaphore_status st = DOCA_GPU_SEMAPHORE_STATUS_FREE;
	void *info = 0;

	if (ogda_dev_sem_get_status(hq->sem, slot, &st) != DOCA_SUCCESS || st != DOCA_GPU_SEMAPHORE_STATUS_READY ||
	    ogda_dev_sem_get_custom_info_addr(hq->sem, slot, &info) != DOCA_SUCCESS)
		return 0;
	*r = *(const struct gpp_http_req *)info;
	return 1;
}

/* Where item @p slot's answer is built. */
OGDA_DEV_FN uint8_t *gpp_http_frame(const struct gpp_http_queue *hq, uint32_t slot)
{
	return (uint8_t *)(uintptr_t)(hq->frames + (uint64_t)slot * GPP_HTTP_FRAME);
}

/* After item @p slot's answer completed: one more answer counted, the item FREE for the receiver. */
OGDA_DEV_FN void gpp_http_served(const struct gpp_http_queue *hq, uint32_t slot, uint64_t served)
{
	ogda_dev_store_relaxed_u64(hq->replies, served);
	(void)ogda_dev_sem_set_status(hq->sem, slot, DOCA_GPU_SEMAPHORE_STATUS_FREE);
}

#endif /* GPP_HTTP_H_ */
