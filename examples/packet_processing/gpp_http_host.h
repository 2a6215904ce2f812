/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_packet_processing's HTTP server mode, the host's set-up of the device side (gpp_http.h):
 * per HTTP queue a send queue, a semaphore of GPP_HTTP_SLOTS items in GPU memory (custom info:
 * struct gpp_http_req) and GPP_HTTP_SLOTS reply buffers; the three pages; the answer counters.
 * Without a GPU, gpp_http_server_main is the server warp's loop on a host thread.
 */
#ifndef GPP_HTTP_HOST_H_
#define GPP_HTTP_HOST_H_

#include <stdint.h>

#include "doca_gpunetio_semaphore.h"
#include "eth_sample.h"
#include "gpp.h"

struct gpp_http_host {
	uint32_t nq;
	struct doca_eth_txq *txq[GPP_MAX_QUEUES];
	struct doca_gpu_eth_txq *txh[GPP_MAX_QUEUES]; /* set once started */
	struct doca_gpu_semaphore *sem[GPP_MAX_QUEUES];
	void *frames;                  /* reply buffers (device address) */
	struct doca_mmap *frames_mmap;
	void *pages;                   /* the pages (device address) */
	void *replies_dev, *replies_cpu;
};

/* Sets up @p nq HTTP queues' server side into @p a (a->hq, a->pages). 0, or -1 (said why). */
int gpp_http_setup(struct eth_sample *s, uint32_t nq, struct gpp_args *a, struct gpp_http_host *h);
/* Undoes gpp_http_setup (any stage). */
void gpp_http_close(struct eth_sample *s, struct gpp_http_host *h);
/* Answers sent by all servers so far. */
uint64_t gpp_http_answers(const struct gpp_http_host *h);

/* A server on a host thread. */
struct gpp_http_server_arg {
	const struct gpp_args *a;
	uint32_t qi;                   /* HTTP queue index */
};
void *gpp_http_server_main(void *arg);

#endif /* GPP_HTTP_HOST_H_ */
