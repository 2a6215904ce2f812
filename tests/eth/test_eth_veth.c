/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames from the device data path reach Linux: the test enters a network namespace of its own
 * (a user namespace too when not root), makes a veth pair there (iproute2), attaches the software
 * NIC's Ethernet port to one end and gives the other an address. Host threads send UDP frames
 * through the device C core with checksum offload; a UDP socket on the other end must receive
 * every payload, so the kernel found the IPv4 and UDP checksums valid. A frame with a wrong UDP
 * checksum and no offload must instead be counted by the kernel as a checksum error. Enhanced
 * multi-packet sends arrive as one datagram per packet, in order; one with a bad key stops there.
 *
 * Where namespaces, veth or iproute2 are unavailable the test says why on stderr and exits 77
 * (CTest reports it skipped).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "device/ogda_dev_eth.h"
#include "eth_fixture.h"
#include "eth_netns.h"
#include "opengda.h"

#define IF_NIC ETH_NETNS_NIC_IF
#define IF_HOST ETH_NETNS_HOST_IF
#define NIC_IP 0x0a4d0001u  /* 10.77.0.1 */
#define HOST_IP ETH_NETNS_HOST_IP
#define DPORT 5000
#define SPORT 4000
#define THREADS 2
#define PER_THREAD 8
#define SLOT 256u         /* bytes of the buffer per frame */
#define SKIP_CODE 77

struct sender {
	struct cfx *f;
	struct doca_gpu_eth_txq *h;
	struct efx_udp ends;
	uint32_t mkey_be;
	unsigned id;
	size_t len[PER_THREAD];
};

/* One host thread of "device code": PER_THREAD frames on the shared queue, each NOTIFY. */
static void *send_main(void *arg)
{
	struct sender *s = arg;
	unsigned k;

	for (k = 0; k < PER_THREAD; k++) {
		uint8_t *frame = s->f->buf + (size_t)(s->id * PER_THREAD + k) * SLOT;
		char payload[32];
		int n = snprintf(payload, sizeof(payload), "payload t%u k%u", s->id, k);

		s->len[k] = efx_udp_frame(frame, &s->ends, payload, (size_t)n);
		ogda_dev_eth_op_send(s->h, (uint64_t)(uintptr_t)frame, s->mkey_be, (uint32_t)s->len[k],
				     DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, OGDA_DEV_SHARE_GPU,
				     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	}
	return NULL;
}

static void setup_ends(struct efx_udp *u)
{
	memset(u, 0, sizeof(*u));
	assert_int_equal(eth_netns_if_mac(IF_HOST, u->dst_mac), 0);
	assert_int_equal(eth_netns_if_mac(IF_NIC, u->src_mac), 0);
	u->src_ip = NIC_IP;
	u->dst_ip = HOST_IP;
	u->sport = SPORT;
	u->dport = DPORT;
}

/* What every test here sets up: the port on IF_NIC, a UDP socket on IF_HOST, a started queue. */
struct vrun {
	int sock;
	struct doca_eth_txq *t;
	struct doca_gpu_eth_txq *h;
	struct doca_mmap *m;
	uint32_t mkey;
	struct efx_udp u;
};

static void vrun_begin(struct cfx *f, unsigned opts, struct vrun *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(opengda_eth_port_attach(f->dev, IF_NIC), DOCA_SUCCESS);
	r->sock = efx_udp_listen(HOST_IP, DPORT);
	r->t = efx_txq_start(f, 64, opts, &r->h);
	r->m = cfx_mmap(f, 0, CFX_BUF_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(doca_mmap_get_mkey(r->m, f->dev, &r->mkey), DOCA_SUCCESS);
	setup_ends(&r->u);
}

static void vrun_end(struct cfx *f, struct vrun *r)
{
	close(r->sock);
	assert_int_equal(doca_mmap_stop(r->m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(r->m), DOCA_SUCCESS);
	efx_txq_destroy(r->t);
	assert_int_equal(opengda_eth_port_detach(f->dev), DOCA_SUCCESS);
}

static void test_udp_reaches_linux(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats before, after;
	struct sender snd[THREADS];
	pthread_t th[THREADS];
	bool seen[THREADS][PER_THREAD] = {{false}};
	struct vrun r;
	uint32_t done = 0;
	unsigned i, k, got = 0;

	vrun_begin(f, EFX_L3 | EFX_L4, &r);
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
	for (i = 0; i < THREADS; i++) {
		snd[i] = (struct sender){.f = f, .h = r.h, .mkey_be = htonl(r.mkey), .id = i, .ends = r.u};
		assert_int_equal(pthread_create(&th[i], NULL, send_main, &snd[i]), 0);
	}
	for (i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	/* Every send was NOTIFY: THREADS * PER_THREAD completions, all good. */
	assert_int_equal(ogda_dev_eth_poll_completion(r.h, THREADS * PER_THREAD, 0, 1, OGDA_DEV_SHARE_GPU, &done), 0);
	assert_int_equal(done, THREADS * PER_THREAD);

	while (got < THREADS * PER_THREAD) {
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		char buf[256];
		ssize_t n = recvfrom(r.sock, buf, sizeof(buf) - 1, 0, (struct sockaddr *)&from, &fl);

		assert_true(n > 0); /* within 5 s, or the kernel dropped it */
		buf[n] = '\0';
		assert_int_equal(sscanf(buf, "payload t%u k%u", &i, &k), 2);
		assert_true(i < THREADS && k < PER_THREAD);
		assert_false(seen[i][k]);
		seen[i][k] = true;
		assert_int_equal(ntohl(from.sin_addr.s_addr), NIC_IP);
		assert_int_equal(ntohs(from.sin_port), SPORT);
		got++;
	}
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &after), DOCA_SUCCESS);
	assert_true(after.tx_packets == before.tx_packets + THREADS * PER_THREAD);
	assert_true(after.tx_errors == before.tx_errors);
	vrun_end(f, &r);
}

/* Without L4 offload a wrong UDP checksum leaves as written, and the kernel drops it. */
static void test_bad_checksum_dropped(void **state)
{
	struct cfx *f = *state;
	struct timespec ts = {0, 10000000};
	unsigned long errs0, errs;
	uint32_t done = 0;
	struct vrun r;
	char buf[64];
	size_t len;
	int tries;

	vrun_begin(f, EFX_L3, &r);
	errs0 = efx_udp_csum_errors();
	len = efx_udp_frame(f->buf, &r.u, "corrupt", 7);
	f->buf[14 + 20 + 6] = 0x12; /* a UDP checksum that cannot be right */
	f->buf[14 + 20 + 7] = 0x34;
	/* Then a frame without a UDP checksum (0: allowed over IPv4): it must arrive. */
	len = efx_udp_frame(f->buf + SLOT, &r.u, "no-csum", 7);
	ogda_dev_eth_op_send(r.h, (uint64_t)(uintptr_t)f->buf, htonl(r.mkey), (uint32_t)len,
			     DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, OGDA_DEV_SHARE_EXCLUSIVE, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
			     NULL);
	ogda_dev_eth_op_send(r.h, (uint64_t)(uintptr_t)(f->buf + SLOT), htonl(r.mkey), (uint32_t)len,
			     DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, OGDA_DEV_SHARE_EXCLUSIVE,
			     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	assert_int_equal(ogda_dev_eth_poll_completion(r.h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done), 0);
	assert_true(recv(r.sock, buf, sizeof(buf), 0) == 7);
	assert_memory_equal(buf, "no-csum", 7);
	/* The corrupt one went first on the same wire: the kernel has counted it by now (or shortly). */
	for (tries = 0, errs = efx_udp_csum_errors(); errs == errs0 && tries < 500; tries++, errs = efx_udp_csum_errors())
		nanosleep(&ts, NULL);
	assert_true(errs == errs0 + 1);
	vrun_end(f, &r);
}

/* The packet head carried inline in the Ethernet segment (a two-WQEBB WQE), the payload by pointer. */
static void test_inline_headers(void **state)
{
	struct cfx *f = *state;
	uint32_t done = 0;
	struct vrun r;
	char buf[64];
	size_t len;

	vrun_begin(f, EFX_L3 | EFX_L4, &r);
	len = efx_udp_frame(f->buf, &r.u, "inline-head", 11);
	/* Ethernet, IPv4 and UDP headers (42 bytes) inline; their checksums written by the port. */
	(void)efx_post_inline_send(r.h, f->buf, (uint32_t)len, r.mkey, 42, 42, 0);
	assert_int_equal(ogda_dev_eth_poll_completion(r.h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done), 0);
	assert_true(recv(r.sock, buf, sizeof(buf), 0) == 11);
	assert_memory_equal(buf, "inline-head", 11);
	vrun_end(f, &r);
}

/* One host thread of "device code" writing its packet of a shared eMPW WQE. */
struct empw_writer {
	struct doca_gpu_eth_txq *h;
	uint64_t base, addr;
	uint32_t n, idx, len, mkey_be;
	int rc;
};

static void *empw_write_main(void *arg)
{
	struct empw_writer *w = arg;

	w->rc = ogda_dev_eth_wqe_empw(w->h, ogda_dev_wqe_ptr(&w->h->qp, w->base), w->base, w->n, w->idx, w->addr,
				      w->mkey_be, w->len, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
	return NULL;
}

/*
 * Enhanced multi-packet send: EMPW_PKTS UDP frames of different sizes in one WQE, each packet
 * written by its own host thread through the device C core, L3 and L4 checksums offloaded. The
 * UDP socket receives every payload, in order (so the kernel found both checksums valid), none
 * counted as a checksum error; the CQE counts the bytes of all frames.
 */
#define EMPW_PKTS 5
static void test_empw_reaches_linux(void **state)
{
	static const uint32_t payload_len[EMPW_PKTS] = {7, 300, 18, 1200, 64};
	struct cfx *f = *state;
	struct opengda_eth_port_stats before, after;
	struct empw_writer wr[EMPW_PKTS];
	pthread_t th[EMPW_PKTS];
	unsigned long errs0;
	uint32_t done = 0, total = 0, nbb = ogda_dev_eth_empw_wqebbs(EMPW_PKTS), k, i;
	const struct opengda_mlx5_cqe64 *cqe;
	uint64_t base;
	struct vrun r;

	vrun_begin(f, EFX_L3 | EFX_L4, &r);
	errs0 = efx_udp_csum_errors();
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
	base = ogda_dev_eth_reserve(r.h, nbb, OGDA_DEV_SHARE_GPU);
	for (k = 0; k < EMPW_PKTS; k++) {
		uint8_t *frame = f->buf + (size_t)k * 2048u;
		uint8_t payload[1200];

		for (i = 0; i < payload_len[k]; i++)
			payload[i] = (uint8_t)(k * 31 + i);
		wr[k] = (struct empw_writer){.h = r.h, .base = base, .addr = (uint64_t)(uintptr_t)frame, .n = EMPW_PKTS,
					     .idx = k, .mkey_be = htonl(r.mkey), .rc = -1};
		wr[k].len = (uint32_t)efx_udp_frame(frame, &r.u, payload, payload_len[k]);
		total += wr[k].len;
		assert_int_equal(pthread_create(&th[k], NULL, empw_write_main, &wr[k]), 0);
	}
	for (k = 0; k < EMPW_PKTS; k++) {
		assert_int_equal(pthread_join(th[k], NULL), 0);
		assert_int_equal(wr[k].rc, 0);
	}
	ogda_dev_eth_post(r.h, base, nbb, OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	assert_int_equal(ogda_dev_eth_poll_completion(r.h, 1, 0, 1, OGDA_DEV_SHARE_GPU, &done), 0);
	cqe = (const struct opengda_mlx5_cqe64 *)(const void *)r.h->qp.cq_sq.cqe_daddr;
	assert_int_equal(opengda_mlx5_be32toh(cqe->byte_cnt), total);
	for (k = 0; k < EMPW_PKTS; k++) {
		uint8_t buf[1500];
		ssize_t n = recv(r.sock, buf, sizeof(buf), 0);

		assert_int_equal(n, payload_len[k]); /* in WQE order, within 5 s */
		for (i = 0; i < payload_len[k]; i++)
			assert_int_equal(buf[i], (uint8_t)(k * 31 + i));
	}
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &after), DOCA_SUCCESS);
	assert_true(after.tx_packets == before.tx_packets + EMPW_PKTS);
	assert_true(efx_udp_csum_errors() == errs0);
	vrun_end(f, &r);
}

/* An eMPW whose second packet has a bad key: the first reaches Linux, the third never leaves. */
static void test_empw_bad_key(void **state)
{
	struct cfx *f = *state;
	struct opengda_eth_port_stats before, after;
	uint32_t len[3], keys[3], done = 0, k;
	uint64_t addr[3];
	struct vrun r;
	char buf[64];

	vrun_begin(f, EFX_L3 | EFX_L4, &r);
	for (k = 0; k < 3; k++) {
		char payload[16];
		int n = snprintf(payload, sizeof(payload), "empw %u", k);

		addr[k] = (uint64_t)(uintptr_t)(f->buf + k * SLOT);
		len[k] = (uint32_t)efx_udp_frame(f->buf + k * SLOT, &r.u, payload, (size_t)n);
		keys[k] = htonl(k == 1 ? 0x7777u : r.mkey);
	}
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &before), DOCA_SUCCESS);
	(void)efx_post_empw(r.h, 3, addr, len, keys, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
	assert_int_equal(ogda_dev_eth_poll_completion(r.h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done),
			 OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR));
	assert_true(recv(r.sock, buf, sizeof(buf), 0) == 6);
	assert_memory_equal(buf, "empw 0", 6);
	/* The CQE is written after the WQE's last transmit attempt: the count is final. */
	assert_int_equal(opengda_eth_port_get_stats(f->dev, &after), DOCA_SUCCESS);
	assert_true(after.tx_packets == before.tx_packets + 1);
	vrun_end(f, &r);
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Wait-on-time: three frames scheduled 300 ms apart arrive in order and none before its time (a
 * lower bound only: a loaded machine may deliver late, never early).
 */
static void test_wait_on_time(void **state)
{
	struct cfx *f = *state;
	uint64_t at[3], wot, t0;
	uint32_t done = 0;
	struct vrun r;
	unsigned k;

	vrun_begin(f, EFX_L3 | EFX_L4 | EFX_WOT, &r);
	t0 = realtime_ns();
	for (k = 0; k < 3; k++) {
		char payload[16];
		size_t len;
		int n = snprintf(payload, sizeof(payload), "timed %u", k);

		len = efx_udp_frame(f->buf + k * SLOT, &r.u, payload, (size_t)n);
		at[k] = t0 + 300000000ull * (k + 1);
		assert_int_equal(doca_eth_txq_calculate_timestamp(r.t, at[k], &wot), DOCA_SUCCESS);
		ogda_dev_eth_op_wait_send(r.h, wot, (uint64_t)(uintptr_t)(f->buf + k * SLOT), htonl(r.mkey), (uint32_t)len,
					  DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, OGDA_DEV_SHARE_GPU,
					  DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	}
	for (k = 0; k < 3; k++) {
		char buf[32], want[16];
		ssize_t n = recv(r.sock, buf, sizeof(buf) - 1, 0);

		assert_true(n > 0);
		buf[n] = '\0';
		snprintf(want, sizeof(want), "timed %u", k);
		assert_string_equal(buf, want);  /* in order */
		assert_true(realtime_ns() >= at[k]); /* not before its time */
	}
	assert_int_equal(ogda_dev_eth_poll_completion(r.h, 3, 0, 1, OGDA_DEV_SHARE_GPU, &done), 0);
	vrun_end(f, &r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_wait_on_time, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_inline_headers, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_udp_reaches_linux, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_bad_checksum_dropped, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_empw_reaches_linux, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_empw_bad_key, cfx_setup, cfx_teardown),
	};
	char why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr, "SKIPPED eth_veth: %s; the Ethernet path to Linux was NOT tested\n", why);
		return SKIP_CODE;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
