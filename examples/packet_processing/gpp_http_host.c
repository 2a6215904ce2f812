/* SPDX-License-Identifier: BSD-3-Clause */
/* gpu_packet_processing's HTTP server mode: the host's set-up of the device side (gpp_http_host.h). */
#include "gpp_http_host.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "device/ogda_dev_eth.h"
#include "sample_util.h"

static const char *const page_status[GPP_PAGES] = {"200 OK", "200 OK", "404 Not Found"};
static const char *const page_body[GPP_PAGES] = {
	"<html><head><title>GPU HTTP server</title></head><body><h1>GPU packet processing</h1>"
	"<p>This page was sent by the device path of gpu_packet_processing.</p>"
	"<p><a href=\"/contacts.html\">Contacts</a></p></body></html>\n",
	"<html><head><title>Contacts</title></head><body><h1>Contacts</h1>"
	"<p>OpenGDA: GPU-initiated networking.</p></body></html>\n",
	"<html><head><title>404</title></head><body><h1>404 Not Found</h1></body></html>\n",
};

/* The pages, back to back, into @p out (room: GPP_PAGES * GPP_HTTP_PAGE_MAX); offsets and lengths into @p pg. */
static int build_pages(uint8_t *out, struct gpp_http_pages *pg)
{
	uint32_t off = 0, i;
	int n;

	for (i = 0; i < GPP_PAGES; i++) {
		n = snprintf((char *)out + off, GPP_HTTP_PAGE_MAX,
			     "HTTP/1.1 %s\r\nContent-Type: text/html\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
			     page_status[i], strlen(page_body[i]), page_body[i]);
		if (n < 0 || (uint32_t)n >= GPP_HTTP_PAGE_MAX) {
			sample_err("page %u is longer than one segment", i);
			return -1;
		}
		pg->off[i] = off;
		pg->len[i] = (uint32_t)n;
		off += (uint32_t)n;
	}
	return 0;
}

static int make_sem(struct eth_sample *s, struct gpp_http_host *h, uint32_t i, struct gpp_http_queue *hq)
{
	if (eth_sample_check(doca_gpu_semaphore_create(s->gpu, &h->sem[i]), "doca_gpu_semaphore_create (HTTP)") != 0) {
		h->sem[i] = NULL;
		return -1;
	}
	/* a GPU-only semaphore, as the SDK application's: the CPU never looks at it */
	return eth_sample_check(doca_gpu_semaphore_set_memory_type(h->sem[i], DOCA_GPU_MEM_TYPE_GPU),
				"doca_gpu_semaphore_set_memory_type") ||
	       eth_sample_check(doca_gpu_semaphore_set_items_num(h->sem[i], GPP_HTTP_SLOTS),
				"doca_gpu_semaphore_set_items_num") ||
	       eth_sample_check(doca_gpu_semaphore_set_custom_info(h->sem[i], sizeof(struct gpp_http_req),
								   DOCA_GPU_MEM_TYPE_GPU),
				"doca_gpu_semaphore_set_custom_info") ||
	       eth_sample_check(doca_gpu_semaphore_start(h->sem[i]), "doca_gpu_semaphore_start") ||
	       eth_sample_check(doca_gpu_semaphore_get_gpu_handle(h->sem[i], &hq->sem), "doca_gpu_semaphore_get_gpu_handle")
		       ? -1
		       : 0;
}

int gpp_http_setup(struct eth_sample *s, uint32_t nq, struct gpp_args *a, struct gpp_http_host *h)
{
	static uint8_t pages[GPP_PAGES * GPP_HTTP_PAGE_MAX];
	size_t frames_len = (size_t)nq * GPP_HTTP_SLOTS * GPP_HTTP_FRAME;
	uint32_t mkey = 0, i;
	struct doca_gpu_eth_txq *txh = NULL;

	memset(h, 0, sizeof(*h));
	h->nq = nq;
	if (build_pages(pages, &a->pages) != 0 || eth_sample_dev_alloc(s, sizeof(pages), pages, &h->pages) != 0 ||
	    eth_sample_dev_alloc(s, frames_len, NULL, &h->frames) != 0 ||
	    eth_sample_mmap(s, h->frames, frames_len, &h->frames_mmap, &mkey) != 0)
		return -1;
	a->pages.data = h->pages;
	if (eth_sample_check(doca_gpu_mem_alloc(s->gpu, GPP_MAX_QUEUES * sizeof(uint64_t), 64,
						DOCA_GPU_MEM_TYPE_CPU_GPU, &h->replies_dev, &h->replies_cpu),
			     "doca_gpu_mem_alloc (HTTP counters)") != 0) {
		h->replies_dev = NULL;
		return -1;
	}
	memset(h->replies_cpu, 0, GPP_MAX_QUEUES * sizeof(uint64_t));
	for (i = 0; i < nq; i++) {
		struct gpp_http_queue *hq = &a->hq[i];

		/* one answer in flight per server: a small ring */
		if (eth_sample_txq_make(s, 64, 0, 0, &h->txq[i], &txh) != 0)
			return -1;
		h->txh[i] = txh; /* started: gpp_http_close stops it */
		hq->txq = txh;
		if (make_sem(s, h, i, hq) != 0)
			return -1;
		hq->frames = (uint64_t)(uintptr_t)h->frames + (uint64_t)i * GPP_HTTP_SLOTS * GPP_HTTP_FRAME;
		hq->frames_mkey_be = htonl(mkey);
		hq->replies = (uint64_t *)h->replies_dev + i;
	}
	a->http = 1;
	return 0;
}

void gpp_http_close(struct eth_sample *s, struct gpp_http_host *h)
{
	uint32_t i;

	for (i = 0; i < GPP_MAX_QUEUES; i++) {
		eth_sample_txq_close(h->txq[i], h->txh[i] != NULL);
		if (h->sem[i] != NULL) {
			(void)doca_gpu_semaphore_stop(h->sem[i]);
			(void)doca_gpu_semaphore_destroy(h->sem[i]);
		}
	}
	eth_sample_mmap_close(h->frames_mmap);
	if (h->frames != NULL)
		(void)doca_gpu_mem_free(s->gpu, h->frames);
	if (h->pages != NULL)
		(void)doca_gpu_mem_free(s->gpu, h->pages);
	if (h->replies_dev != NULL)
		(void)doca_gpu_mem_free(s->gpu, h->replies_dev);
	memset(h, 0, sizeof(*h));
}

uint64_t gpp_http_answers(const struct gpp_http_host *h)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < h->nq; i++)
		n += __atomic_load_n((uint64_t *)h->replies_cpu + i, __ATOMIC_RELAXED);
	return n;
}

/* The server warp's loop (gpp_http_server_kernel) as one host thread: one writer for the whole answer. */
void *gpp_http_server_main(void *arg)
{
	const struct gpp_http_server_arg *sa = arg;
	const struct gpp_args *a = sa->a;
	const struct gpp_http_queue *hq = &a->hq[sa->qi];
	uint64_t served = 0;
	struct gpp_http_req r;
	uint32_t slot = 0, done = 0;
	int rc;

	while (__atomic_load_n(a->exit_flag, __ATOMIC_ACQUIRE) == 0) {
		uint8_t *frame;

		if (!gpp_http_pending(hq, slot, &r)) {
			ogda_dev_spin_pause();
			continue;
		}
		frame = gpp_http_frame(hq, slot);
		gpp_http_reply(frame, &a->pages, &r, 0, 1);
		ogda_dev_eth_op_send(hq->txq, hq->frames + (uint64_t)slot * GPP_HTTP_FRAME, hq->frames_mkey_be,
				     gpp_http_reply_len(&a->pages, &r), DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, OGDA_DEV_SHARE_EXCLUSIVE,
				     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
		/* looked for rather than waited for: the exit flag ends a wait for a lost completion */
		do {
			rc = ogda_dev_eth_poll_completion(hq->txq, 1, 0, 0, OGDA_DEV_SHARE_EXCLUSIVE, &done);
			if (rc == 0 && done == 0)
				ogda_dev_spin_pause();
		} while (rc == 0 && done == 0 && __atomic_load_n(a->exit_flag, __ATOMIC_ACQUIRE) == 0);
		if (rc != 0) {
			__atomic_store_n(a->status, rc, __ATOMIC_RELEASE);
			break;
		}
		if (done == 0)
			break; /* leaving with the answer in flight */
		gpp_http_served(hq, slot, ++served);
		slot = (slot + 1u) % GPP_HTTP_SLOTS;
	}
	return NULL;
}
