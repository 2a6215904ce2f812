/* SPDX-License-Identifier: BSD-3-Clause */
/* Receive-queue helpers shared by the Ethernet receive tests from Linux (eth_rx_util.h). */
#include "eth_rx_util.h"

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
#include <sys/socket.h>
#include <unistd.h>

#include "device/ogda_dev_eth_rx.h"
#include "doca_ctx.h"
#include "doca_eth_rxq.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "eth_netns.h"
#include "opengda.h"

void erx_start(struct cfx *f, size_t buf_off, uint16_t queue_id, uint32_t burst, uint32_t pkt_size, uint32_t strides,
	       struct rx *r)
{
	erx_start_mcst(f, buf_off, queue_id, burst, pkt_size, strides, false, r);
}

void erx_start_mcst(struct cfx *f, size_t buf_off, uint16_t queue_id, uint32_t burst, uint32_t pkt_size,
		    uint32_t strides, bool mcst, struct rx *r)
{
	uint32_t size = 0;

	memset(r, 0, sizeof(*r));
	assert_int_equal(doca_eth_rxq_create(f->dev, burst, pkt_size, &r->q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_type(r->q, DOCA_ETH_RXQ_TYPE_CYCLIC), DOCA_SUCCESS);
	assert_int_equal(opengda_eth_rxq_set_striding(r->q, strides), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, pkt_size, burst, 0, 0, 0,
							       &size),
			 DOCA_SUCCESS);
	assert_int_equal(size, burst * pkt_size);
	assert_true(buf_off + size <= CFX_BUF_LEN);
	r->m = cfx_mmap(f, buf_off, size, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(r->q, r->m, 0, size), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_apply_queue_id(r->q, queue_id), DOCA_SUCCESS);
	if (mcst)
		assert_int_equal(doca_eth_rxq_gpu_enable_mcst_qp(r->q), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(r->q), f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(r->q)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_get_gpu_handle(r->q, &r->h), DOCA_SUCCESS);
	r->rqn = r->h->rqn;
}

void erx_stop(struct rx *r)
{
	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(r->q)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_destroy(r->q), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(r->m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(r->m), DOCA_SUCCESS);
}

/* The NIC end's address as a static neighbour of the Linux end (no ARP needed). */
void erx_linux_sender(void)
{
	uint8_t mac[6];
	char cmd[160];

	assert_int_equal(eth_netns_if_mac(IF_NIC, mac), 0);
	snprintf(cmd, sizeof(cmd), "ip neigh replace " NIC_IP " lladdr %02x:%02x:%02x:%02x:%02x:%02x dev " IF_HOST,
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	assert_int_equal(system(cmd), 0);
}

void erx_send_udp(uint16_t sport, uint16_t dport, const char *payload)
{
	struct sockaddr_in src = {.sin_family = AF_INET, .sin_port = htons(sport)};
	struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(dport)};
	int b = socket(AF_INET, SOCK_DGRAM, 0);

	/* each source port its own socket, so that RSS sees several flows */
	assert_true(b >= 0);
	src.sin_addr.s_addr = htonl(ETH_NETNS_HOST_IP);
	assert_int_equal(bind(b, (struct sockaddr *)&src, sizeof(src)), 0);
	assert_int_equal(inet_pton(AF_INET, NIC_IP, &dst.sin_addr), 1);
	assert_int_equal(sendto(b, payload, strlen(payload), 0, (struct sockaddr *)&dst, sizeof(dst)),
			 (ssize_t)strlen(payload));
	close(b);
}

/* Receives exactly @want packets within WAIT_NS (one receive call per arrival at most). */
uint32_t erx_recv_n(struct rx *r, uint32_t want, uint64_t *first, struct doca_gpu_dev_eth_rxq_attr *attr)
{
	uint32_t got = 0, n = 0;
	uint64_t f0 = 0, f = 0;

	while (got < want) {
		assert_int_equal(ogda_dev_eth_rx_recv(r->h, want - got, WAIT_NS, &f, &n, attr + got,
						      DOCA_GPUNETIO_ETH_RX_ATTR_ALL),
				 0);
		if (n == 0)
			break;
		if (got == 0)
			f0 = f;
		got += n;
	}
	*first = f0;
	return got;
}

const uint8_t *erx_pkt(const struct rx *r, uint64_t idx)
{
	return (const uint8_t *)(uintptr_t)ogda_dev_eth_rx_pkt_addr(r->h, idx);
}

void erx_port_stats(struct cfx *f, struct opengda_eth_port_stats *st)
{
	assert_int_equal(opengda_eth_port_get_stats(f->dev, st), DOCA_SUCCESS);
}

/* Waits (up to 2 s) until the port has delivered or dropped @n more frames than @st0 says; *st1 the counts. */
void erx_wait_rx_seen(struct cfx *f, const struct opengda_eth_port_stats *st0, uint64_t n,
			 struct opengda_eth_port_stats *st1)
{
	int i;

	for (i = 0; i < 200; i++) {
		erx_port_stats(f, st1);
		if (st1->rx_delivered + st1->rx_queue_drops - st0->rx_delivered - st0->rx_queue_drops >= n)
			return;
		usleep(10000);
	}
}
