/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU data path of a doca_eth_rxq (DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL): a queue without
 * doca_ctx_set_datapath_on_gpu(), connected to a progress engine.
 *
 * It is the cyclic queue of rxq_start.c (WQE i names packet buffer i for ever, all posted at
 * start), built for a host handle of its own, so its device view is host memory and the
 * engine's thread reads the CQ with the device C core (ogda_dev_eth_rx_cqe.h) exactly as a host
 * thread of the GPU data path does. What differs is who gives a buffer back: the device receive
 * reposts a packet's WQE as soon as it returns the packet, while here the packet is lent to the
 * application as a doca_buf and its WQE goes back only when the application's
 * doca_buf_dec_refcount() takes the count to 0 (the buffer's owner_put, core_priv.h).
 *
 * In-order repost: an RQ is consumed in ring order and only its producer counter moves, so the
 * buffers can only be given back to the NIC as a prefix of the ring. Each buffer has a state
 * (posted to the NIC, lent to the application, given back); doca_pe_progress() moves the producer
 * counter over the contiguous given-back prefix from the next WQE to post. A buffer given back
 * out of order waits for the ones before it; a buffer held for ever stalls the queue once the NIC
 * has come round the ring to it (frames are then dropped and counted by the port: out_of_buffer).
 *
 * Threads: the engine's thread delivers and reposts; doca_buf_dec_refcount() may run on any
 * thread (one at a time for a buffer: its count is not atomic), and only marks the buffer given
 * back (an atomic store) and counts it, so that the RQ's producer counter has one writer.
 *
 * Stop with packets lent: the queue turns STOPPING (ops->busy), delivers nothing more, and
 * doca_pe_progress() stops it once every packet was given back, as DOCA contexts do with tasks.
 *
 * A REGULAR queue (receive tasks) shares the start checks, the host handle and the release here;
 * its tasks are rxq_task.c's.
 */
#include "eth/rxq_priv.h"

#include "core/log.h"
#include "device/ogda_dev_eth_rx.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda_mlx5.h"

#include <stdlib.h>

#define PKTS_PER_PROGRESS 64u /* packets one progress call delivers at most: other contexts get a turn */

enum slot_state {
	SLOT_POSTED = 0, /* the NIC's: its WQE is posted (or will be, once the ones before it are) */
	SLOT_LENT = 1,   /* the application's: handed to the success handler, count not 0 yet */
	SLOT_BACK = 2,   /* given back, waiting for the repost of the prefix it is in */
};

struct doca_eth_rxq_event_managed_recv {
	doca_error_t status;
	uint32_t flow_tag;
	uint32_t rx_hash;
	uint64_t timestamp;
};

doca_error_t eth_rxq_cpu_prepare(struct doca_eth_rxq *q)
{
	uint8_t *pkts = NULL;
	size_t len = 0;
	doca_error_t err;

	if (q->type == DOCA_ETH_RXQ_TYPE_REGULAR) {
		err = eth_rxq_task_check(q); /* receive tasks: rxq_task.c */
		if (err != DOCA_SUCCESS)
			return err;
	} else if (q->type != DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL) {
		OGDA_LOG_ERR("eth_rxq: a queue without a GPU data path receives on the CPU: set "
			     "DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL or DOCA_ETH_RXQ_TYPE_REGULAR, or call "
			     "doca_ctx_set_datapath_on_gpu()");
		return DOCA_ERROR_NOT_SUPPORTED;
	} else if (q->recv_cb == NULL) {
		OGDA_LOG_ERR("eth_rxq: no managed receive handlers: doca_eth_rxq_event_managed_recv_register() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (q->strides_per_wqe != 0 || q->need_mcst) {
		OGDA_LOG_ERR("eth_rxq: striding and MCST are GPU data path options (one packet per buffer here)");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (q->type == DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL && q->pkt_mmap != NULL &&
	    core_mmap_started_range(q->pkt_mmap, &pkts, &len) == DOCA_SUCCESS && ogda_gpu_addr_is_device(pkts)) {
		/* the handlers get doca_bufs to read with the CPU: a device address would fault there */
		OGDA_LOG_ERR("eth_rxq: the packet buffer is GPU memory, which the CPU handlers cannot read: give a "
			     "managed queue host memory");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return core_ctx_cpu_datapath(&q->ctx, &q->res.cpu.host);
}

/* owner_put of a lent packet: the application gave it back (any thread). */
static void buf_given_back(struct doca_buf *buf)
{
	struct doca_eth_rxq *q = buf->owner;
	size_t i = (size_t)(buf - q->res.cpu.bufs);

	atomic_store_explicit(&q->res.cpu.slot[i], SLOT_BACK, memory_order_release);
	/* Last: once the count is 0 a stop may free the queue's state. */
	atomic_fetch_sub_explicit(&q->res.cpu.lent, 1, memory_order_release);
}

doca_error_t eth_rxq_cpu_init(struct doca_eth_rxq *q)
{
	struct eth_rxq_cpu *c = &q->res.cpu;
	const struct doca_gpu_eth_rxq *v = &q->view;
	uint32_t i, n = v->pkt_num;

	if (q->type == DOCA_ETH_RXQ_TYPE_REGULAR)
		return eth_rxq_task_init(q, v->wqe_num); /* no buffers of the queue's own to lend */
	c->bufs = calloc(n, sizeof(*c->bufs));
	c->slot = calloc(n, sizeof(*c->slot));
	if (c->bufs == NULL || c->slot == NULL) {
		OGDA_LOG_ERR("eth_rxq: out of memory for %u packet descriptors", n);
		return DOCA_ERROR_NO_MEMORY; /* eth_rxq_cpu_release frees what was allocated */
	}
	for (i = 0; i < n; i++) {
		struct doca_buf *b = &c->bufs[i];

		/* The queue holds the mmap (doca_eth_rxq_set_pkt_buf), so a lent buffer need not. */
		b->mmap = q->pkt_mmap;
		b->head = (uint8_t *)(uintptr_t)(v->pkt_addr + (uint64_t)i * v->max_pkt_sz);
		b->len = v->max_pkt_sz;
		b->data = b->head;
		b->owner_put = buf_given_back;
		b->owner = q;
		atomic_init(&c->slot[i], SLOT_POSTED);
	}
	atomic_init(&c->lent, 0);
	return DOCA_SUCCESS;
}

void eth_rxq_cpu_release(struct doca_eth_rxq *q)
{
	struct eth_rxq_cpu *c = &q->res.cpu;

	eth_rxq_task_release_all(q);
	free(c->bufs);
	free((void *)c->slot);
	if (c->host != NULL)
		(void)doca_gpu_destroy(c->host);
	c->bufs = NULL;
	c->slot = NULL;
	c->host = NULL;
}

bool eth_rxq_busy(const struct doca_ctx *ctx)
{
	const struct doca_eth_rxq *q = (const struct doca_eth_rxq *)ctx;

	return q->res.cpu.bufs != NULL && atomic_load_explicit(&q->res.cpu.lent, memory_order_acquire) > 0;
}

/* Posts the WQEs of the contiguous given-back prefix from the next WQE to post. */
static uint8_t repost(struct doca_eth_rxq *q, struct doca_gpu_eth_rxq *h)
{
	struct eth_rxq_cpu *c = &q->res.cpu;
	uint32_t k = 0;

	if (c->in_error) /* an RQ in error takes no WQE: given-back buffers stay so */
		return 0;
	while (k < h->wqe_num) {
		_Atomic uint8_t *s = &c->slot[(h->wqe_pi + k) & h->wqe_mask];

		if (atomic_load_explicit(s, memory_order_acquire) != SLOT_BACK)
			break;
		atomic_store_explicit(s, SLOT_POSTED, memory_order_relaxed);
		k++;
	}
	if (k == 0)
		return 0;
	ogda_dev_eth_rx_rq_post(h, k); /* its release fence orders the application's last use first */
	return 1;
}

/* Lends the packet of the arrived CQE @ci to the success handler. */
static void deliver(struct doca_eth_rxq *q, struct doca_gpu_eth_rxq *h, uint64_t ci)
{
	struct doca_eth_rxq_event_managed_recv ev = {.status = DOCA_SUCCESS};
	struct doca_gpu_dev_eth_rxq_attr a = {0};
	uint64_t idx = ogda_dev_eth_rx_pkt_idx(h, ci);
	struct doca_buf *b = &q->res.cpu.bufs[idx];

	ogda_dev_eth_rx_attr(h, ci, DOCA_GPUNETIO_ETH_RX_ATTR_ALL, &a);
	ev.timestamp = a.timestamp_ns;
	ev.flow_tag = ogda_dev_eth_rx_cqe_flow_tag(h, ci);
	ev.rx_hash = ogda_dev_eth_rx_cqe_rss_hash(h, ci);
	ogda_dev_eth_rx_cq_retire(h, ci, 1);
	b->data = b->head;
	b->data_len = a.bytes < b->len ? a.bytes : b->len;
	b->refcount = 1;
	atomic_store_explicit(&q->res.cpu.slot[idx], SLOT_LENT, memory_order_relaxed);
	atomic_fetch_add_explicit(&q->res.cpu.lent, 1, memory_order_relaxed);
	q->recv_cb(&ev, b, q->recv_user_data);
}

/*
 * An error completion (the RQ ran into a bad key: it is in error now) to the error handler, once:
 * nothing is reposted after it (a ConnectX flushes every WQE posted to an RQ in error with a
 * WR_FLUSH_ERR CQE; those are retired here without a handler call), until a stop and a start.
 */
static void deliver_error(struct doca_eth_rxq *q, struct doca_gpu_eth_rxq *h, uint64_t ci, int rc)
{
	struct doca_eth_rxq_event_managed_recv ev = {.status = DOCA_ERROR_IO_FAILED};
	uint64_t idx = ogda_dev_eth_rx_pkt_idx(h, ci);

	if (q->res.cpu.in_error) {
		ogda_dev_eth_rx_cq_retire(h, ci, 1);
		atomic_store_explicit(&q->res.cpu.slot[idx], SLOT_BACK, memory_order_relaxed);
		return;
	}
	q->res.cpu.in_error = true;
	OGDA_LOG_ERR("eth_rxq: receive into buffer %llu failed, CQE syndrome 0x%02x: the RQ is in error (stop and "
		     "start the queue)",
		     (unsigned long long)idx, (unsigned)OPENGDA_DEV_CQE_ERROR_SYNDROME(rc));
	ogda_dev_eth_rx_cq_retire(h, ci, 1);
	/* Nothing lent: the buffer counts as given back, so the ring's accounting stays whole. */
	atomic_store_explicit(&q->res.cpu.slot[idx], SLOT_BACK, memory_order_relaxed);
	q->recv_err_cb(&ev, NULL, q->recv_user_data);
}

uint8_t eth_rxq_progress(struct doca_ctx *ctx)
{
	struct doca_eth_rxq *q = (struct doca_eth_rxq *)ctx;
	struct doca_gpu_eth_rxq *h;
	uint8_t any = 0;
	uint32_t n;

	/* Receive tasks complete, and are flushed by a stop, in rxq_task.c. */
	if (ctx->gpu == NULL && q->type == DOCA_ETH_RXQ_TYPE_REGULAR)
		return eth_rxq_task_progress(q);
	/* A GPU queue's packets are device code's; a stopping queue delivers nothing more. */
	if (ctx->gpu != NULL || q->res.cpu.bufs == NULL || atomic_load(&ctx->state) != DOCA_CTX_STATE_RUNNING)
		return 0;
	any = repost(q, q->res.handle);
	for (n = 0; n < PKTS_PER_PROGRESS; n++) {
		uint64_t ci;
		int st;

		h = q->res.handle; /* a handler may have stopped and started the queue again */
		ci = h->cq.cqe_ci;
		st = ogda_dev_eth_rx_cqe_state(h, ci);

		if (st == 0)
			break;
		if (st > 0)
			deliver(q, h, ci);
		else
			deliver_error(q, h, ci, st);
		any = 1;
		/* The handler may have stopped the queue (freed when nothing was lent): nothing of it after. */
		if (atomic_load(&ctx->state) != DOCA_CTX_STATE_RUNNING || q->res.cpu.bufs == NULL)
			return any;
	}
	return any | repost(q, q->res.handle); /* what the handlers gave back */
}

/* ---- the public functions ------------------------------------------------------------------- */

doca_error_t doca_eth_rxq_event_managed_recv_register(struct doca_eth_rxq *eth_rxq, union doca_data user_data,
						      doca_eth_rxq_event_managed_recv_handler_cb_t success_event_handler,
						      doca_eth_rxq_event_managed_recv_handler_cb_t error_event_handler)
{
	doca_error_t err = eth_cpu_sdk_refuses(__func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (eth_rxq == NULL || success_event_handler == NULL || error_event_handler == NULL) {
		OGDA_LOG_ERR("%s: eth_rxq and both handlers must not be NULL (every completion reaches one)", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = core_ctx_check_idle(&eth_rxq->ctx, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	eth_rxq->recv_cb = success_event_handler;
	eth_rxq->recv_err_cb = error_event_handler;
	eth_rxq->recv_user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_event_managed_recv_get_status(const struct doca_eth_rxq_event_managed_recv *event_managed_recv)
{
	if (event_managed_recv == NULL) {
		OGDA_LOG_ERR("%s: event_managed_recv must not be NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return event_managed_recv->status;
}

/* The first check of the getters below. */
static doca_error_t check_get(const void *ev, const void *out, const char *func)
{
	if (ev == NULL || out == NULL) {
		OGDA_LOG_ERR("%s: event_managed_recv and the output must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_eth_rxq_event_managed_recv_get_flow_tag(const struct doca_eth_rxq_event_managed_recv *event_managed_recv,
							  uint32_t *flow_tag)
{
	doca_error_t err = check_get(event_managed_recv, flow_tag, __func__);

	if (err == DOCA_SUCCESS)
		*flow_tag = event_managed_recv->flow_tag;
	return err;
}

doca_error_t doca_eth_rxq_event_managed_recv_get_rx_hash(const struct doca_eth_rxq_event_managed_recv *event_managed_recv,
							 uint32_t *rx_hash)
{
	doca_error_t err = check_get(event_managed_recv, rx_hash, __func__);

	if (err == DOCA_SUCCESS)
		*rx_hash = event_managed_recv->rx_hash;
	return err;
}

doca_error_t doca_eth_rxq_event_managed_recv_get_timestamp(const struct doca_eth_rxq_event_managed_recv *event_managed_recv,
							   uint64_t *timestamp)
{
	doca_error_t err = check_get(event_managed_recv, timestamp, __func__);

	if (err == DOCA_SUCCESS)
		*timestamp = event_managed_recv->timestamp;
	return err;
}
