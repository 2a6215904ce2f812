/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive queues for the Ethernet receive tests from Linux: a started doca_eth_rxq (cyclic or
 * striding) with its packet buffer in the fixture's memory, datagrams sent from a Linux UDP
 * socket in the test's namespace to the NIC end, receives through the device C core, and the
 * port's counters. Every step asserts.
 */
#ifndef OGDA_TESTS_ETH_ETH_RX_UTIL_H_
#define OGDA_TESTS_ETH_ETH_RX_UTIL_H_

#include "doca_core/core_fixture.h"
#include "doca_gpunetio_eth_def.h"
#include "eth_netns.h"
#include "opengda.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IF_NIC ETH_NETNS_NIC_IF
#define IF_HOST ETH_NETNS_HOST_IF
#define NIC_IP "10.77.0.1"
#define WAIT_NS 3000000000ull

struct doca_eth_rxq;
struct doca_mmap;

struct rx {
	struct doca_eth_rxq *q;
	struct doca_gpu_eth_rxq *h;
	struct doca_mmap *m;
	uint32_t rqn;
};

/*
 * Starts a queue of @burst buffers of @pkt_size bytes at @buf_off of the fixture's buffer, queue
 * id @queue_id; @strides > 0: striding, that many strides (buffers) per WQE.
 */
void erx_start(struct cfx *f, size_t buf_off, uint16_t queue_id, uint32_t burst, uint32_t pkt_size, uint32_t strides,
	       struct rx *r);
/* erx_start, with @mcst: doca_eth_rxq_gpu_enable_mcst_qp (the queue gets its MCST queue). */
void erx_start_mcst(struct cfx *f, size_t buf_off, uint16_t queue_id, uint32_t burst, uint32_t pkt_size,
		    uint32_t strides, bool mcst, struct rx *r);
void erx_stop(struct rx *r);
/* The NIC end's address as a static neighbour of the Linux end (no ARP needed). */
void erx_linux_sender(void);
/* One datagram of strlen(payload) bytes from the Linux end, source port @sport. */
void erx_send_udp(uint16_t sport, uint16_t dport, const char *payload);
/* Receives exactly @want packets within WAIT_NS (one receive call per arrival at most). */
uint32_t erx_recv_n(struct rx *r, uint32_t want, uint64_t *first, struct doca_gpu_dev_eth_rxq_attr *attr);
/* The bytes of packet @idx. */
const uint8_t *erx_pkt(const struct rx *r, uint64_t idx);
void erx_port_stats(struct cfx *f, struct opengda_eth_port_stats *st);
/* Waits (up to 2 s) until the port has delivered or dropped @n more frames than @st0 says. */
void erx_wait_rx_seen(struct cfx *f, const struct opengda_eth_port_stats *st0, uint64_t n,
		      struct opengda_eth_port_stats *st1);

#endif /* OGDA_TESTS_ETH_ETH_RX_UTIL_H_ */
