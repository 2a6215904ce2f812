/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU data path of DOCA Ethernet queues against Linux, in a network namespace of the test's
 * own with a veth pair (the software NIC's port on one end, Linux sockets on the other):
 *
 *  - send tasks: UDP frames written with zero checksums, the queue offloading both, reach a
 *    Linux UDP socket (so the kernel found the checksums valid), none counted as a checksum error;
 *  - a managed receive queue steered by DOCA Flow (RSS to its queue id): datagrams a Linux socket
 *    sent arrive in the handler with their bytes; packets kept and given back out of order (no
 *    repost past a kept one), a queue whose packets are all kept drops and the port counts it, a
 *    packet kept for ever stalls the queue one ring later, and giving it back (from another
 *    thread, while the engine progresses) makes the queue take frames again;
 *  - a stop with packets kept: STOPPING until they are given back, IDLE in doca_pe_progress;
 *  - an RQ WQE with a bad key: the error completion reaches the error handler, with no packet.
 *
 * Where namespaces, veth or iproute2 are unavailable the test says why and exits 77 (skipped).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "device/ogda_dev_eth_rx.h"
#include "doca_buf_inventory.h"
#include "eth/rxq_priv.h"
#include "eth_cpu_util.h"
#include "eth_fixture.h"
#include "eth_flow_rss.h"
#include "eth_rx_util.h"
#include "eth_steer.h"

#define NIC_IP_HOST 0x0a4d0001u /* 10.77.0.1, the NIC end */
#define DPORT 5300
#define SPORT 4300
#define QID 30
#define BURST 16u
#define PKT 2048u
#define HDR 42u /* Ethernet + IPv4 + UDP */
#define SKIP_CODE 77

static void test_send_tasks_reach_linux(void **state)
{
	enum { N = 24 };
	struct cfx *f = *state;
	struct doca_eth_txq_task_send *t[N];
	struct doca_buf_inventory *inv = NULL;
	struct doca_buf *pkt[N];
	struct doca_mmap *m;
	struct ecpu_tx tx;
	struct efx_udp u = {.src_ip = NIC_IP_HOST, .dst_ip = ETH_NETNS_HOST_IP, .sport = SPORT, .dport = DPORT};
	bool seen[N] = {false};
	unsigned long errs0;
	uint32_t mkey = 0, i, got = 0;
	int sock;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	assert_int_equal(eth_netns_if_mac(IF_HOST, u.dst_mac), 0);
	assert_int_equal(eth_netns_if_mac(IF_NIC, u.src_mac), 0);
	sock = efx_udp_listen(ETH_NETNS_HOST_IP, DPORT);
	errs0 = efx_udp_csum_errors();
	ecpu_tx_start(f->dev, 64, N, true, true, &tx);
	m = efx_buf_mmap(f, &mkey);
	assert_int_equal(doca_buf_inventory_create(N, &inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_start(inv), DOCA_SUCCESS);
	for (i = 0; i < N; i++) {
		uint8_t *frame = f->buf + i * 256u;
		char payload[32];
		int n = snprintf(payload, sizeof(payload), "cpu send %u", i);
		size_t len = efx_udp_frame(frame, &u, payload, (size_t)n);

		assert_int_equal(doca_buf_inventory_buf_get_by_args(inv, m, frame, 256, frame, len, &pkt[i]), DOCA_SUCCESS);
		assert_int_equal(doca_eth_txq_task_send_allocate_init(tx.q, pkt[i], (union doca_data){.u64 = i}, &t[i]),
				 DOCA_SUCCESS);
		assert_int_equal(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t[i])), DOCA_SUCCESS);
	}
	assert_int_equal(ecpu_progress_until(tx.pe, &tx.ok, N, 5000), N);
	assert_int_equal(tx.failed, 0);
	while (got < N) {
		char buf[64];
		ssize_t n = recv(sock, buf, sizeof(buf) - 1, 0);

		assert_true(n > 0); /* within 5 s, or the kernel dropped it */
		buf[n] = '\0';
		assert_int_equal(sscanf(buf, "cpu send %u", &i), 1);
		assert_true(i < N);
		assert_false(seen[i]);
		seen[i] = true;
		got++;
	}
	assert_true(efx_udp_csum_errors() == errs0);
	for (i = 0; i < N; i++)
		assert_int_equal(doca_buf_dec_refcount(pkt[i], NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_destroy(inv), DOCA_SUCCESS);
	efx_mmap_destroy(m);
	ecpu_tx_destroy(&tx);
	close(sock);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

/* @n datagrams "cpu rx <first + k>" from the Linux end, each from its own source port. */
static void send_n(uint32_t first, uint32_t n)
{
	char msg[32];

	for (uint32_t k = 0; k < n; k++) {
		snprintf(msg, sizeof(msg), "cpu rx %u", first + k);
		erx_send_udp((uint16_t)(8000 + first + k), DPORT, msg);
	}
}

/* Packet @i of the record is datagram "cpu rx <want>", whole. */
static void check_pkt(const struct ecpu_rx *r, uint32_t i, uint32_t want)
{
	char msg[32];
	int n = snprintf(msg, sizeof(msg), "cpu rx %u", want);

	assert_int_equal(r->len[i], HDR + (size_t)n);
	assert_memory_equal(r->data[i] + HDR, msg, (size_t)n);
	assert_int_equal((r->data[i][36] << 8) | r->data[i][37], DPORT);
	assert_true(r->ts[i] != 0);
}

static void give_back(struct ecpu_rx *r, uint32_t i)
{
	assert_non_null(r->pkt[i]);
	assert_int_equal(doca_buf_dec_refcount(r->pkt[i], NULL), DOCA_SUCCESS);
	r->pkt[i] = NULL;
}

/* Waits (2 s at most) until the port dropped @n more frames for want of a WQE than @st0 says. */
static void wait_queue_drops(struct cfx *f, const struct opengda_eth_port_stats *st0, uint64_t n)
{
	struct opengda_eth_port_stats st;
	int i;

	for (i = 0; i < 200; i++) {
		erx_port_stats(f, &st);
		if (st.rx_queue_drops - st0->rx_queue_drops >= n)
			break;
		usleep(10000);
	}
	assert_true(st.rx_queue_drops - st0->rx_queue_drops == n);
}

struct giver {
	struct ecpu_rx *r;
	uint32_t from, to; /* record entries [from, to) */
};

/* Gives packets back from a thread of its own, last first, while the engine's thread progresses. */
static void *give_main(void *arg)
{
	struct giver *g = arg;

	for (uint32_t i = g->to; i-- > g->from;) {
		if (g->r->pkt[i] != NULL)
			assert_int_equal(doca_buf_dec_refcount(g->r->pkt[i], NULL), DOCA_SUCCESS);
		usleep(100);
	}
	return NULL;
}

static void test_managed_rx_steered_by_flow(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats st0;
	struct doca_gpu_eth_rxq *h;
	struct efl fl;
	struct ecpu_rx r;
	struct giver g;
	pthread_t th;
	uint32_t i, held;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	ecpu_rx_start(f->dev, f->buf, CFX_BUF_LEN, BURST, PKT, QID, &r);
	h = r.q->res.handle;
	r.keep = true;
	efl_udp_rss_start(f->dev, DPORT, QID, &fl);
	erx_linux_sender();

	/* 4 datagrams, kept; given back 2, 1: slot 0 still kept, so nothing is posted again */
	send_n(0, 4);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 4, 3000), 4);
	for (i = 0; i < 4; i++)
		check_pkt(&r, i, i);
	give_back(&r, 2);
	give_back(&r, 1);
	(void)doca_pe_progress(r.pe);
	assert_int_equal(h->wqe_pi, BURST);
	give_back(&r, 0); /* 0, 1, 2 go back together; 3 is still kept */
	(void)doca_pe_progress(r.pe);
	assert_int_equal(h->wqe_pi, BURST + 3);
	assert_int_equal(ntohl(*h->wqe_db_rec), BURST + 3);

	/* 15 more fill the rest of the ring and the 3 buffers given back: every buffer kept */
	send_n(4, 15);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 19, 3000), 19);
	for (i = 4; i < 19; i++)
		check_pkt(&r, i, i);
	/* all kept: the queue takes nothing, the port counts the drops */
	erx_port_stats(f, &st0);
	send_n(100, 4);
	wait_queue_drops(f, &st0, 4);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 20, 200), 19);

	/* all given back but packet 3 (buffer 3, the next to post): still nothing posted */
	for (i = 4; i < 19; i++)
		give_back(&r, i);
	(void)doca_pe_progress(r.pe);
	assert_int_equal(h->wqe_pi, BURST + 3);
	erx_port_stats(f, &st0);
	send_n(200, 2);
	wait_queue_drops(f, &st0, 2);

	/* packet 3 given back: the whole ring goes back, the queue takes frames again */
	give_back(&r, 3);
	(void)doca_pe_progress(r.pe);
	assert_int_equal(h->wqe_pi, 2 * BURST + 3);
	send_n(19, 5);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, 24, 3000), 24);
	for (i = 19; i < 24; i++)
		check_pkt(&r, i, i);

	/* given back (last first) from another thread while this one progresses: reposted as they come */
	g = (struct giver){.r = &r, .from = 19, .to = 24};
	assert_int_equal(pthread_create(&th, NULL, give_main, &g), 0);
	for (i = 0; i < 5000 && h->wqe_pi != 2 * BURST + 3 + 5; i++) {
		(void)doca_pe_progress(r.pe);
		usleep(1000);
	}
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(h->wqe_pi, 2 * BURST + 3 + 5);
	for (i = 19; i < 24; i++)
		r.pkt[i] = NULL;
	/* a whole ring is posted again: a ring's worth more arrives */
	send_n(24, BURST);
	held = 24 + BURST;
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, held, 5000), held);
	for (i = 24; i < held; i++) {
		check_pkt(&r, i, i);
		give_back(&r, i);
	}
	assert_int_equal(r.errors, 0);
	(void)doca_pe_progress(r.pe); /* what was given back reaches the NIC in the next progress */
	assert_int_equal(h->wqe_pi, held + BURST);

	/* stop with two packets kept: STOPPING until both are back, IDLE in doca_pe_progress */
	send_n(held, 2);
	assert_int_equal(ecpu_progress_until(r.pe, &r.n, held + 2, 3000), held + 2);
	efl_stop(&fl);
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(r.q)), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(ecpu_state(doca_eth_rxq_as_doca_ctx(r.q)), DOCA_CTX_STATE_STOPPING);
	(void)doca_pe_progress(r.pe);
	assert_int_equal(ecpu_state(doca_eth_rxq_as_doca_ctx(r.q)), DOCA_CTX_STATE_STOPPING);
	assert_int_equal(doca_eth_rxq_destroy(r.q), DOCA_ERROR_BAD_STATE);
	give_back(&r, held + 1);
	(void)doca_pe_progress(r.pe);
	assert_int_equal(ecpu_state(doca_eth_rxq_as_doca_ctx(r.q)), DOCA_CTX_STATE_STOPPING);
	give_back(&r, held);
	(void)doca_pe_progress(r.pe);
	assert_int_equal(ecpu_state(doca_eth_rxq_as_doca_ctx(r.q)), DOCA_CTX_STATE_IDLE);
	ecpu_rx_destroy(&r);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

/* An RQ WQE whose key the NIC does not know: an error completion, to the error handler. */
static void test_error_completion(void **state)
{
	struct cfx *f = *state;
	struct ecpu_rx r;
	struct est e;

	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	ecpu_rx_start(f->dev, f->buf, CFX_BUF_LEN, BURST, PKT, QID, &r);
	est_udp_to_rqs(f->dev, &r.q->res.rqn, 1, DPORT, &e);
	erx_linux_sender();
	ogda_dev_store_nic_u32((uint32_t *)(void *)(r.q->res.handle->wqe_addr + 4), htonl(0x7777)); /* WQE 0's lkey */
	send_n(0, 1);
	assert_int_equal(ecpu_progress_until(r.pe, &r.errors, 1, 3000), 1);
	assert_int_equal(r.err_status, DOCA_ERROR_IO_FAILED);
	assert_true(r.err_pkt_null);
	assert_int_equal(r.n, 0);
	est_destroy(&e);
	ecpu_rx_destroy(&r);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_send_tasks_reach_linux, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_managed_rx_steered_by_flow, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_error_completion, cfx_setup, cfx_teardown),
	};
	char why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr, "SKIPPED eth_cpu_veth: %s; the Ethernet CPU data path against Linux was NOT tested\n", why);
		return SKIP_CODE;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
