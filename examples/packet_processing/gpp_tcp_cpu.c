/* SPDX-License-Identifier: BSD-3-Clause */
/* gpu_packet_processing's HTTP server mode: the CPU's TCP connection handling (gpp_tcp_cpu.h). */
#include "gpp_tcp_cpu.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_eth_rxq.h"
#include "doca_eth_txq.h"
#include "doca_flow.h"
#include "doca_pe.h"
#include "gpp.h"
#include "gpp_sessions.h"
#include "sample_util.h"

#define RX_PKTS 256u        /* packet buffers per CPU queue */
#define RX_PKT_SIZE 2048u
#define TX_SLOTS 256u       /* answer buffers, reused in turn */
#define TX_TASKS 128u       /* at most this many answers in flight: a buffer is reused only after it completed */
#define TX_SLOT 128u
#define TX_FRAME 60u        /* the shortest Ethernet frame: every answer fits, padded */
#define ANSWER_MSS 1460u
#define STOP_WAIT_MS 2000u

#define TH_FIN 0x01u
#define TH_SYN 0x02u
#define TH_RST 0x04u
#define TH_ACK 0x10u

struct gpp_tcp_cpu {
	struct eth_sample *s;
	uint32_t nq;
	struct doca_pe *pe;
	struct doca_eth_rxq *rxq[GPP_MAX_QUEUES];
	int rx_started[GPP_MAX_QUEUES];
	struct doca_mmap *rx_mmap;
	void *rx_mem;
	struct doca_eth_txq *txq;
	int tx_started;
	struct doca_mmap *tx_mmap;
	uint8_t *tx_mem;
	uint32_t tx_next;
	struct doca_buf_inventory *inv;
	struct doca_flow_port *port;
	struct doca_flow_pipe *sessions_pipe;
	struct gpp_sessions *tab;
	pthread_t thread;
	int running;
	atomic_int stop;
	pthread_mutex_t lock; /* the counters: written by the thread, read by gpp_tcp_cpu_get_stats */
	struct gpp_tcp_cpu_stats st;
};

static void count(struct gpp_tcp_cpu *c, uint64_t *field)
{
	pthread_mutex_lock(&c->lock);
	(*field)++;
	pthread_mutex_unlock(&c->lock);
}

/* ---- answers (SYN-ACK, FIN-ACK) through the CPU send queue ---- */

static void answer_done(struct doca_eth_txq_task_send *t, union doca_data task_ud, union doca_data ctx_ud, int ok)
{
	struct gpp_tcp_cpu *c = task_ud.ptr;
	struct doca_buf *pkt = NULL;

	(void)ctx_ud;
	if (!ok)
		sample_err("an answer failed: %s",
			   doca_error_get_descr(doca_task_get_status(doca_eth_txq_task_send_as_doca_task(t))));
	count(c, ok ? &c->st.answers : &c->st.failures);
	if (doca_eth_txq_task_send_get_pkt(t, &pkt) == DOCA_SUCCESS && pkt != NULL)
		(void)doca_buf_dec_refcount(pkt, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void answer_ok(struct doca_eth_txq_task_send *t, union doca_data task_ud, union doca_data ctx_ud)
{
	answer_done(t, task_ud, ctx_ud, 1);
}

static void answer_err(struct doca_eth_txq_task_send *t, union doca_data task_ud, union doca_data ctx_ud)
{
	answer_done(t, task_ud, ctx_ud, 0);
}

/*
 * The answer to the segment @p req (at @p tcp in it) with @p flags, @p seq and @p ack, from the
 * address and port it was sent to; a SYN-ACK carries an MSS option. Checksums: the queue's offloads.
 */
static void build_answer(uint8_t *out, const uint8_t *req, const uint8_t *tcp, uint8_t flags, uint32_t seq,
			 uint32_t ack)
{
	uint32_t opt = (flags & TH_SYN) ? 4u : 0u;
	struct gpp_http_req r;

	gpp_answer_addrs(req, tcp, &r);
	r.seq = seq;
	r.ack = ack;
	memset(out, 0, TX_FRAME);
	gpp_tcp_answer_hdr(out, &r, flags, opt, 0);
	if (opt != 0) {
		out[54] = 2; /* MSS */
		out[55] = 4;
		out[56] = (uint8_t)(ANSWER_MSS >> 8);
		out[57] = (uint8_t)ANSWER_MSS;
	}
}

static void send_answer(struct gpp_tcp_cpu *c, const uint8_t *req, const uint8_t *tcp, uint8_t flags, uint32_t seq,
			uint32_t ack)
{
	uint8_t *out = c->tx_mem + (size_t)(c->tx_next++ % TX_SLOTS) * TX_SLOT;
	struct doca_eth_txq_task_send *t = NULL;
	struct doca_buf *buf = NULL;
	doca_error_t err;

	build_answer(out, req, tcp, flags, seq, ack);
	err = doca_buf_inventory_buf_get_by_data(c->inv, c->tx_mmap, out, TX_FRAME, &buf);
	if (err == DOCA_SUCCESS) {
		err = doca_eth_txq_task_send_allocate_init(c->txq, buf, (union doca_data){.ptr = c}, &t);
		if (err == DOCA_SUCCESS) {
			err = doca_task_submit(doca_eth_txq_task_send_as_doca_task(t));
			if (err != DOCA_SUCCESS)
				doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
		}
		if (err != DOCA_SUCCESS)
			(void)doca_buf_dec_refcount(buf, NULL);
	}
	if (err != DOCA_SUCCESS) {
		sample_err_doca("an answer could not be sent", err);
		count(c, &c->st.failures);
	}
}

/* ---- sessions ---- */

static void close_session(struct gpp_tcp_cpu *c, uint32_t ip, uint16_t port)
{
	struct gpp_session *s = gpp_sessions_find(c->tab, ip, port);

	if (s == NULL)
		return;
	if (doca_flow_pipe_remove_entry(0, 0, s->entry) != DOCA_SUCCESS ||
	    doca_flow_entries_process(c->port, 0, 0, 0) != DOCA_SUCCESS) {
		sample_err("the flow entry of a closed session could not be removed");
		count(c, &c->st.failures);
	}
	gpp_sessions_remove(c->tab, s);
	count(c, &c->st.closed);
}

static uint32_t fresh_isn(void)
{
	uint32_t v = 0;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		v = (uint32_t)time(NULL) * 2654435761u;
	return v;
}

/* A session and its flow entry for the client (@p ip, @p port), or NULL (said why). */
static struct gpp_session *open_session(struct gpp_tcp_cpu *c, uint32_t ip, uint16_t port)
{
	struct gpp_session *s = gpp_sessions_add(c->tab, ip, port);
	struct doca_flow_match m;

	if (s == NULL) {
		sample_err("the session table is full: a SYN is not answered");
		return NULL;
	}
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.src_ip = ip;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
	m.outer.tcp.l4_port.src_port = port;
	if (doca_flow_pipe_basic_add_entry(0, c->sessions_pipe, &m, 0, NULL, NULL, NULL, 0, NULL, &s->entry) !=
		    DOCA_SUCCESS ||
	    doca_flow_entries_process(c->port, 0, 0, 0) != DOCA_SUCCESS) {
		sample_err("the flow entry of a new session could not be added: its SYN is not answered");
		gpp_sessions_remove(c->tab, s);
		return NULL;
	}
	s->isn = fresh_isn();
	count(c, &c->st.opened);
	return s;
}

/* One segment the CPU queues received (SYN, FIN or RST to port 80, as the gate steers). */
static void handle(struct gpp_tcp_cpu *c, const uint8_t *p, size_t len)
{
	const uint8_t *tcp = gpp_l4(p, (uint32_t)len, 6);
	uint32_t end, hl, plen, seq, ack, ip;
	struct gpp_session *s;
	uint16_t port;
	uint8_t flags;

	count(c, &c->st.packets);
	if (tcp == NULL || (size_t)(tcp - p) + 20u > len)
		return;
	end = 14u + gpp_rd16(p + 16);
	hl = (uint32_t)(tcp[12] >> 4) * 4u;
	if (hl < 20u || end > len || (uint32_t)(tcp - p) + hl > end)
		return;
	plen = end - (uint32_t)(tcp - p) - hl;
	flags = tcp[13];
	seq = gpp_rd32(tcp + 4);
	ack = gpp_rd32(tcp + 8);
	memcpy(&ip, p + 26, 4);
	memcpy(&port, tcp, 2);
	if (flags & TH_RST) {
		count(c, &c->st.rst);
		close_session(c, ip, port);
	} else if (flags & TH_SYN) {
		count(c, &c->st.syn);
		if (flags & TH_ACK)
			return;
		s = gpp_sessions_find(c->tab, ip, port);
		if (s == NULL)
			s = open_session(c, ip, port);
		if (s == NULL) {
			count(c, &c->st.failures);
			return;
		}
		send_answer(c, p, tcp, TH_SYN | TH_ACK, s->isn, seq + 1u);
	} else if (flags & TH_FIN) {
		count(c, &c->st.fin);
		/* the FIN acknowledges what the client got: the server's next sequence number */
		send_answer(c, p, tcp, TH_FIN | TH_ACK, ack, seq + plen + 1u);
		close_session(c, ip, port);
	}
}

static void on_recv(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data ud)
{
	struct gpp_tcp_cpu *c = ud.ptr;
	void *data = NULL;
	size_t len = 0;

	(void)ev;
	if (doca_buf_get_data(pkt, &data) == DOCA_SUCCESS && doca_buf_get_data_len(pkt, &len) == DOCA_SUCCESS)
		handle(c, data, len);
	(void)doca_buf_dec_refcount(pkt, NULL);
}

static void on_recv_error(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data ud)
{
	struct gpp_tcp_cpu *c = ud.ptr;

	sample_err_doca("a CPU receive failed", doca_eth_rxq_event_managed_recv_get_status(ev));
	count(c, &c->st.failures);
	if (pkt != NULL)
		(void)doca_buf_dec_refcount(pkt, NULL);
}

/* ---- queues ---- */

static int make_rxq(struct gpp_tcp_cpu *c, uint32_t i, uint32_t size)
{
	struct doca_ctx *ctx;

	if (eth_sample_check(doca_eth_rxq_create(c->s->dev, RX_PKTS, RX_PKT_SIZE, &c->rxq[i]), "doca_eth_rxq_create (CPU)")) {
		c->rxq[i] = NULL;
		return -1;
	}
	ctx = doca_eth_rxq_as_doca_ctx(c->rxq[i]);
	if (eth_sample_check(doca_eth_rxq_set_type(c->rxq[i], DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL), "doca_eth_rxq_set_type") ||
	    eth_sample_check(doca_eth_rxq_set_pkt_buf(c->rxq[i], c->rx_mmap, i * size, size), "doca_eth_rxq_set_pkt_buf") ||
	    eth_sample_check(doca_eth_rxq_event_managed_recv_register(c->rxq[i], (union doca_data){.ptr = c}, on_recv,
								      on_recv_error),
			     "doca_eth_rxq_event_managed_recv_register") ||
	    eth_sample_check(doca_pe_connect_ctx(c->pe, ctx), "doca_pe_connect_ctx (rxq)") ||
	    eth_sample_check(doca_ctx_start(ctx), "doca_ctx_start (CPU rxq)"))
		return -1;
	c->rx_started[i] = 1;
	return eth_sample_check(doca_eth_rxq_apply_queue_id(c->rxq[i], (uint16_t)(GPP_TCP_CPU_QUEUE_ID0 + i)),
				"doca_eth_rxq_apply_queue_id (CPU)");
}

static int make_txq(struct gpp_tcp_cpu *c)
{
	struct doca_ctx *ctx;

	if (eth_sample_check(doca_eth_txq_create(c->s->dev, TX_TASKS, &c->txq), "doca_eth_txq_create (CPU)")) {
		c->txq = NULL;
		return -1;
	}
	ctx = doca_eth_txq_as_doca_ctx(c->txq);
	if (eth_sample_check(doca_eth_txq_set_l3_chksum_offload(c->txq, 1), "doca_eth_txq_set_l3_chksum_offload") ||
	    eth_sample_check(doca_eth_txq_set_l4_chksum_offload(c->txq, 1), "doca_eth_txq_set_l4_chksum_offload") ||
	    eth_sample_check(doca_eth_txq_task_send_set_conf(c->txq, answer_ok, answer_err, TX_TASKS),
			     "doca_eth_txq_task_send_set_conf") ||
	    eth_sample_check(doca_pe_connect_ctx(c->pe, ctx), "doca_pe_connect_ctx (txq)") ||
	    eth_sample_check(doca_ctx_start(ctx), "doca_ctx_start (CPU txq)"))
		return -1;
	c->tx_started = 1;
	return 0;
}

int gpp_tcp_cpu_create(struct eth_sample *s, uint32_t nq, struct gpp_tcp_cpu **out)
{
	struct gpp_tcp_cpu *c = calloc(1, sizeof(*c));
	uint32_t size = 0, i;

	*out = c;
	if (c == NULL) {
		sample_err("out of memory (CPU TCP state)");
		return -1;
	}
	pthread_mutex_init(&c->lock, NULL);
	atomic_init(&c->stop, 0);
	c->s = s;
	c->nq = nq;
	c->tab = calloc(1, sizeof(*c->tab));
	if (c->tab == NULL) {
		sample_err("out of memory (CPU TCP sessions)");
		return -1;
	}
	if (eth_sample_check(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL, 0, 0, RX_PKT_SIZE,
								   RX_PKTS, 0, 0, 0, &size),
			     "doca_eth_rxq_estimate_packet_buf_size (CPU)"))
		return -1;
	size = (size + 4095u) & ~4095u;
	if (posix_memalign(&c->rx_mem, 4096, (size_t)size * nq) != 0 ||
	    posix_memalign((void **)&c->tx_mem, 4096, (size_t)TX_SLOTS * TX_SLOT) != 0) {
		sample_err("out of memory (CPU packet buffers)");
		return -1;
	}
	if (eth_sample_mmap(s, c->rx_mem, (size_t)size * nq, &c->rx_mmap, NULL) != 0 ||
	    eth_sample_mmap(s, c->tx_mem, (size_t)TX_SLOTS * TX_SLOT, &c->tx_mmap, NULL) != 0 ||
	    eth_sample_check(doca_buf_inventory_create(TX_SLOTS, &c->inv), "doca_buf_inventory_create") ||
	    eth_sample_check(doca_buf_inventory_start(c->inv), "doca_buf_inventory_start") ||
	    eth_sample_check(doca_pe_create(&c->pe), "doca_pe_create"))
		return -1;
	for (i = 0; i < nq; i++)
		if (make_rxq(c, i, size) != 0)
			return -1;
	return make_txq(c);
}

int gpp_tcp_cpu_flow(struct gpp_tcp_cpu *c, struct eth_flow_sample *f, const uint16_t *http_ids, uint32_t nq)
{
	uint16_t cpu_ids[GPP_MAX_QUEUES];
	static const uint8_t gated[] = {TH_SYN, TH_FIN, TH_RST};
	struct doca_flow_pipe_entry *e = NULL;
	struct doca_flow_pipe *gate = NULL;
	struct doca_flow_match m, mask;
	struct doca_flow_fwd fwd, miss;
	uint32_t i;

	c->port = f->port;
	for (i = 0; i < c->nq; i++)
		cpu_ids[i] = (uint16_t)(GPP_TCP_CPU_QUEUE_ID0 + i);
	/* sessions: client address and port filled per entry; the rest to the GPU's TCP class */
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.src_ip = UINT32_MAX;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
	m.outer.tcp.l4_port.src_port = UINT16_MAX;
	m.outer.tcp.l4_port.dst_port = htons(GPP_HTTP_PORT);
	memset(&fwd, 0, sizeof(fwd));
	fwd.type = DOCA_FLOW_FWD_RSS;
	fwd.rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	fwd.rss.queues_array = (uint16_t *)http_ids;
	fwd.rss.nr_queues = (int)nq;
	fwd.rss.outer_flags = DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_TCP;
	memset(&miss, 0, sizeof(miss));
	miss.type = DOCA_FLOW_FWD_PIPE;
	miss.next_pipe = eth_flow_sample_class_pipe(f, DOCA_FLOW_L4_META_TCP);
	if (miss.next_pipe == NULL || eth_flow_sample_pipe(f, "HTTP_SESSIONS", DOCA_FLOW_PIPE_BASIC, false, &m, &fwd, &miss,
							   &c->sessions_pipe) != 0)
		return -1;
	if (eth_flow_sample_pipe(f, "TCP_GATE", DOCA_FLOW_PIPE_CONTROL, false, NULL, NULL, NULL, &gate) != 0)
		return -1;
	/* SYN, FIN and RST to port 80: to the CPU */
	fwd.rss.queues_array = cpu_ids;
	fwd.rss.nr_queues = (int)c->nq;
	for (i = 0; i < sizeof(gated); i++) {
		memset(&m, 0, sizeof(m));
		memset(&mask, 0, sizeof(mask));
		m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
		m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
		m.outer.tcp.l4_port.dst_port = htons(GPP_HTTP_PORT);
		m.outer.tcp.flags = gated[i];
		mask.outer.tcp.l4_port.dst_port = UINT16_MAX;
		mask.outer.tcp.flags = gated[i];
		if (eth_sample_check(doca_flow_pipe_control_add_entry(0, gate, &m, &mask, NULL, NULL, NULL, NULL, NULL, 0, &fwd,
								      NULL, &e),
				     "doca_flow_pipe_control_add_entry (TCP gate)"))
			return -1;
	}
	/* every other TCP segment: the sessions */
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
	memset(&fwd, 0, sizeof(fwd));
	fwd.type = DOCA_FLOW_FWD_PIPE;
	fwd.next_pipe = c->sessions_pipe;
	if (eth_sample_check(doca_flow_pipe_control_add_entry(0, gate, &m, NULL, NULL, NULL, NULL, NULL, NULL, 1, &fwd, NULL,
							      &e),
			     "doca_flow_pipe_control_add_entry (TCP gate)"))
		return -1;
	return eth_flow_sample_redirect(f, DOCA_FLOW_L4_META_TCP, gate);
}

/* ---- the thread ---- */

static void *cpu_main(void *arg)
{
	struct gpp_tcp_cpu *c = arg;

	while (!atomic_load(&c->stop)) {
		if (doca_pe_progress(c->pe) == 0) {
			struct timespec ts = {0, 50000};

			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

int gpp_tcp_cpu_start(struct gpp_tcp_cpu *c)
{
	if (pthread_create(&c->thread, NULL, cpu_main, c) != 0) {
		sample_err("cannot start the CPU TCP thread");
		return -1;
	}
	c->running = 1;
	return 0;
}

void gpp_tcp_cpu_get_stats(struct gpp_tcp_cpu *c, struct gpp_tcp_cpu_stats *st)
{
	pthread_mutex_lock(&c->lock);
	*st = c->st;
	pthread_mutex_unlock(&c->lock);
}

/* Stops @p ctx, progressing the engine until it is idle (answers in flight complete). */
static void stop_ctx(struct gpp_tcp_cpu *c, struct doca_ctx *ctx)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;
	int64_t end = sample_now_ms() + STOP_WAIT_MS;
	doca_error_t err = doca_ctx_stop(ctx);

	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS) {
		sample_err_doca("doca_ctx_stop (CPU queue)", err);
		return;
	}
	while (doca_ctx_get_state(ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE && sample_now_ms() < end)
		(void)doca_pe_progress(c->pe);
	if (state != DOCA_CTX_STATE_IDLE)
		sample_err("a CPU queue did not stop within %u ms", STOP_WAIT_MS);
}

void gpp_tcp_cpu_stop(struct gpp_tcp_cpu *c)
{
	if (c == NULL || !c->running)
		return;
	atomic_store(&c->stop, 1);
	pthread_join(c->thread, NULL);
	c->running = 0;
}

void gpp_tcp_cpu_destroy(struct gpp_tcp_cpu *c)
{
	uint32_t i;

	if (c == NULL)
		return;
	gpp_tcp_cpu_stop(c);
	for (i = 0; i < c->nq; i++) {
		if (c->rx_started[i])
			stop_ctx(c, doca_eth_rxq_as_doca_ctx(c->rxq[i]));
		if (c->rxq[i] != NULL)
			(void)doca_eth_rxq_destroy(c->rxq[i]);
	}
	if (c->tx_started)
		stop_ctx(c, doca_eth_txq_as_doca_ctx(c->txq));
	if (c->txq != NULL)
		(void)doca_eth_txq_destroy(c->txq);
	if (c->pe != NULL)
		(void)doca_pe_destroy(c->pe);
	if (c->inv != NULL) {
		(void)doca_buf_inventory_stop(c->inv);
		(void)doca_buf_inventory_destroy(c->inv);
	}
	eth_sample_mmap_close(c->rx_mmap);
	eth_sample_mmap_close(c->tx_mmap);
	free(c->rx_mem);
	free(c->tx_mem);
	free(c->tab);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
